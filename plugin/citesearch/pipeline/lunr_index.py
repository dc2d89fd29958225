"""The lunr.js 2.3.9 index of a list of chunks: terms, postings and BM25 field vectors.

The output is exactly what lunr.py 0.8's ``Builder().build().serialize()``
gives for the same terms (``tests/test_lunr_index.py`` holds lunr.py as the
oracle), computed with plain dicts: lunr.py's sorted-insert vectors and token
set took most of a large build's time.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
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
    first_seen: dict[str, int] = {}  # every term, in the order lunr.py numbers them
    # Per document and field: (ref, field index, term counts in first-seen order, length).
    field_counts: list[tuple[str, int, Counter, int]] = []
    refs_with: list[defaultdict[str, list[str]]] = [defaultdict(list) for _ in fields]
    length_sums = [0] * len(fields)
    for i, document in enumerate(documents):
        ref = str(i)
        for f, terms_ in enumerate(document):
            counts = Counter(terms_)
            first_seen.update(counts)  # keeps each term's first position
            field_counts.append((ref, f, counts, len(terms_)))
            length_sums[f] += len(terms_)
            refs = refs_with[f]
            for term in counts:
                refs[term].append(ref)
    term_index = {term: n for n, term in enumerate(first_seen)}
    document_count = len(documents)
    idf = {term: _idf(sum(len(refs.get(term, ())) for refs in refs_with), document_count) for term in term_index}
    averages = [total / document_count if document_count else 0 for total in length_sums]
    vectors = [
        [f"{fields[f]}/{ref}", _vector(counts, length, averages[f], contract.FIELD_BOOSTS[fields[f]], term_index, idf)]
        for ref, f, counts, length in field_counts
    ]
    no_metadata: dict = {}  # lunr.py's per-document term metadata: none is kept; one shared, read-only
    postings = [
        [term, {**{name: dict.fromkeys(refs_with[f].get(term, ()), no_metadata) for f, name in enumerate(fields)},
                "_index": term_index[term]}]
        # lunr.js inserts terms into its token set in UTF-16 order and throws
        # "Out of order word insertion" otherwise (lunr.py sorts by code point).
        for term in sorted(term_index, key=lambda term: term.encode("utf-16-be"))
    ]
    return {
        "version": lunr.__TARGET_JS_VERSION__,
        "fields": list(fields),
        "fieldVectors": vectors,
        "invertedIndex": postings,
        "pipeline": [],
    }


def _vector(counts: Counter, length: int, average: float, boost: float, term_index: dict, idf: dict) -> list:
    """``[term index, weight, ...]`` by term index: lunr.py's BM25 with the same float operations."""
    if not counts:
        return []
    norm = K1 * (1 - B + B * (length / average))
    k1_plus_1 = K1 + 1
    flat = []
    for term in sorted(counts, key=term_index.__getitem__):
        tf = counts[term]
        flat += (term_index[term], round(idf[term] * (k1_plus_1 * tf) / (norm + tf) * boost, 3))
    return flat


def _idf(documents_with_term: int, document_count: int) -> float:
    """lunr's idf, where a document counts once per field it has the term in."""
    x = (document_count - documents_with_term + 0.5) / (documents_with_term + 0.5)
    return math.log(1 + abs(x))
