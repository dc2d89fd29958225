"""The lunr.js 2.3.9 index of a list of chunks: terms, postings and BM25 field vectors.

The output is exactly what lunr.py 0.8's ``Builder().build().serialize()``
gives for the same terms (``tests/test_lunr_index.py`` holds lunr.py as the
oracle), computed with plain dicts: lunr.py's sorted-insert vectors and token
set took most of a large build's time.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Sequence

import lunr

from ..engine import analyzer, contract
from ..model import Chunk

# lunr's BM25 parameters (Builder defaults, also assumed by lunr.js).
K1 = 1.2
B = 0.75

FieldTerms = tuple[tuple[str, ...], ...]  # one tuple of terms per contract field


@functools.lru_cache(maxsize=100_000)
def terms(text: str) -> tuple[str, ...]:
    """The analysed terms of a text.

    Cached: a page's title and headings repeat on each of its chunks, and
    ``serve`` rebuilds the index on every save while most chunks stay the same.
    """
    return tuple(analyzer.analyze(text))


def field_terms(title: str, heading_text: str, text: str) -> FieldTerms:
    """The terms of each field of a chunk, in ``contract.FIELDS`` order."""
    return terms(title), terms(heading_text), terms(text)


def chunk_terms(chunk: Chunk) -> FieldTerms:
    """The chunk's terms: analysed by the parse worker, or here when it came from the cache."""
    if chunk.terms is not None:
        return chunk.terms
    return field_terms(chunk.heading_path[0], chunk.heading_text, chunk.text)


def build_lunr_index(chunks: Sequence[Chunk]) -> dict:
    """A lunr.js 2.3.9 serialized index; the ref of ``chunks[i]`` is ``str(i)``.

    Terms come from our analyzer, so lunr's pipelines stay empty and the
    browser runs the very same analysis before querying.
    """
    return build_from_terms([chunk_terms(chunk) for chunk in chunks])


def build_from_terms(documents: Sequence[FieldTerms]) -> dict:
    """The serialized index of documents given as their field terms; ref ``i`` is ``str(i)``."""
    fields = contract.FIELDS
    boosts = [contract.FIELD_BOOSTS[name] for name in fields]
    # term -> its posting: {field: {ref: {}}, "_index": n}, laid out as lunr.py does.
    postings: dict[str, dict] = {}
    # Per document and field: (ref, field index, term counts in first-seen order, length).
    field_counts: list[tuple[str, int, Counter, int]] = []
    length_sums = [0] * len(fields)
    for i, document in enumerate(documents):
        ref = str(i)
        for f, field_terms_ in enumerate(document):
            counts = Counter(field_terms_)
            field_counts.append((ref, f, counts, len(field_terms_)))
            length_sums[f] += len(field_terms_)
            name = fields[f]
            for term in counts:
                posting = postings.get(term)
                if posting is None:
                    posting = {field: {} for field in fields}
                    posting["_index"] = len(postings)
                    postings[term] = posting
                posting[name][ref] = {}
    vectors = _field_vectors(postings, field_counts, length_sums, len(documents), boosts)
    inverted = sorted(postings.items(), key=lambda item: item[0].encode("utf-16-be"))
    return {
        "version": lunr.__TARGET_JS_VERSION__,
        "fields": list(fields),
        "fieldVectors": vectors,
        # lunr.js inserts terms into its token set in UTF-16 order and throws
        # "Out of order word insertion" otherwise (lunr.py sorts by code point).
        "invertedIndex": [[term, posting] for term, posting in inverted],
        "pipeline": [],
    }


def _field_vectors(postings, field_counts, length_sums, document_count, boosts) -> list:
    """``[["field/ref", [term index, weight, ...]], ...]``: lunr.py's BM25, same float operations."""
    fields = contract.FIELDS
    average = [total / document_count if document_count else 0 for total in length_sums]
    idf_of: dict[str, float] = {}
    vectors = []
    for ref, f, counts, length in field_counts:
        boost = boosts[f]
        # Same expression and evaluation order as lunr.py's Builder, so every float matches.
        norm = K1 * (1 - B + B * (length / average[f])) if counts else 0.0
        entries = []
        for term, tf in counts.items():
            idf = idf_of.get(term)
            if idf is None:
                idf = idf_of[term] = _idf(postings[term], document_count)
            score = idf * ((K1 + 1) * tf) / (norm + tf)
            score *= boost
            entries.append((postings[term]["_index"], round(score, 3)))
        entries.sort()
        vectors.append([f"{fields[f]}/{ref}", [x for entry in entries for x in entry]])
    return vectors


def _idf(posting: dict, document_count: int) -> float:
    """lunr's idf: a document counts once per field it has the term in."""
    with_term = sum(len(docs) for field, docs in posting.items() if field != "_index")
    x = (document_count - with_term + 0.5) / (with_term + 0.5)
    return math.log(1 + abs(x))
