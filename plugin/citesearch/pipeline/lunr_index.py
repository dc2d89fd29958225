"""The lunr.js 2.3.9 index of a list of chunks: terms, postings and BM25 field vectors.

The output is exactly what lunr.py 0.8's ``Builder().build().serialize()``
gives for the same terms (``tests/test_lunr_index.py`` holds lunr.py as the
oracle), computed with plain dicts: lunr.py's sorted-insert vectors and token
set took most of a large build's time.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from ..engine import analyzer, contract
from ..model import Chunk

# lunr's BM25 parameters (Builder defaults, also assumed by lunr.js).
K1 = 1.2
B = 0.75

# What the index needs of a chunk's terms, per contract field: its distinct
# terms in first-seen order and how often each occurs.  Chunks carry these
# from the parse workers: a tenth of the objects of the term lists.
Counted = tuple[tuple[str, ...], tuple[int, ...]]
FieldCounts = tuple[Counted, ...]


@functools.lru_cache(maxsize=100_000)
def _cached_counts(text: str) -> Counted:
    return counted(analyzer.analyze(text))


def counted(terms_: Sequence[str]) -> Counted:
    """The distinct terms in first-seen order and their counts."""
    counts = Counter(terms_)
    return tuple(counts), tuple(counts.values())


def field_counts(title: str, heading_text: str, text: str, *, cache_text: bool = True) -> FieldCounts:
    """``counted`` of each field of a chunk.

    Titles and headings repeat on each chunk of a page: always cached.  The
    text is cached for ``serve``, which indexes mostly the same chunks on every
    save; parse workers see each text once and pass ``cache_text=False``.
    """
    body = _cached_counts(text) if cache_text else counted(analyzer.analyze(text))
    return _cached_counts(title), _cached_counts(heading_text), body


def chunk_counts(chunk: Chunk) -> FieldCounts:
    """The chunk's term counts: from the parse worker, or analysed here when it came from the cache."""
    if chunk.terms is not None:
        return chunk.terms
    return field_counts(chunk.heading_path[0], chunk.heading_text, chunk.text)


def interned(counts: FieldCounts) -> FieldCounts:
    """The same counts with every term the one shared string of its text.

    Unpickled from a worker, every term is a string object of its own: hundreds
    of thousands on a large site, where a few ten thousand distinct terms do.
    """
    intern = sys.intern
    return tuple((tuple(map(intern, terms_)), numbers) for terms_, numbers in counts)


def build_lunr_index(chunks: Sequence[Chunk]) -> dict:
    """A lunr.js 2.3.9 serialized index; the ref of ``chunks[i]`` is ``str(i)``.

    Terms come from our analyzer, so lunr's pipelines stay empty and the
    browser runs the very same analysis before querying.
    """
    return build_from_counts([chunk_counts(chunk) for chunk in chunks])


def build_term_rows(chunks: Sequence[Chunk]) -> list[list]:
    """The same index by term: ``[term, term index, [ref, weight, ...] per field]``.

    Terms in lunr.js order (UTF-16), refs ascending as ints; the weights are
    the serialized index's.  Made directly, without building the serialized
    index and turning it around.
    """
    return term_rows_from_counts([chunk_counts(chunk) for chunk in chunks])


@dataclass
class _Weighing:
    """What every weight of an index needs, from one pass over its documents."""

    documents: Sequence[FieldCounts]
    refs_with: list[dict[str, list[str]]]  # per field: term -> refs of the documents that have it there
    term_index: dict[str, int]  # lunr.py numbers terms in first-seen order
    idf: dict[str, float]
    averages: list[float]  # per field: the average length

    def field_counts(self) -> Iterator[tuple[int, int, Counted, int]]:
        """(document, field, term counts in first-seen order, length), documents in order."""
        for i, document in enumerate(self.documents):
            for f, counts in enumerate(document):
                yield i, f, counts, sum(counts[1])

    def norm(self, f: int, length: int) -> float:
        return K1 * (1 - B + B * (length / self.averages[f]))

    def in_lunr_order(self) -> list[str]:
        # lunr.js inserts terms into its token set in UTF-16 order and throws
        # "Out of order word insertion" otherwise (lunr.py sorts by code point).
        return in_utf16_order(self.term_index)


def _weigh(documents: Sequence[FieldCounts]) -> _Weighing:
    fields = contract.FIELDS
    first_seen: dict[str, None] = {}
    refs_with: list[defaultdict[str, list[str]]] = [defaultdict(list) for _ in fields]
    length_sums = [0] * len(fields)
    for i, document in enumerate(documents):
        ref = str(i)
        for f, (distinct, numbers) in enumerate(document):
            first_seen.update(dict.fromkeys(distinct))  # keeps each term's first position
            length_sums[f] += sum(numbers)
            refs = refs_with[f]
            for term in distinct:
                refs[term].append(ref)
    count = len(documents)
    return _Weighing(
        documents=documents,
        refs_with=refs_with,
        term_index={term: n for n, term in enumerate(first_seen)},
        idf={term: _idf(sum(len(refs.get(term, ())) for refs in refs_with), count) for term in first_seen},
        averages=[total / count if count else 0 for total in length_sums],
    )


def _weight(idf: float, tf: int, norm: float, boost: float) -> float:
    """lunr.py's BM25 weight, with the same float operations in the same order, rounded as it rounds."""
    return round(idf * ((K1 + 1) * tf) / (norm + tf) * boost, 3)


def build_from_counts(documents: Sequence[FieldCounts]) -> dict:
    """The serialized index of documents given as their field term counts; ref ``i`` is ``str(i)``."""
    fields = contract.FIELDS
    weighing = _weigh(documents)
    vectors = [
        [f"{fields[f]}/{i}", _vector(weighing, f, counts, length)]
        for i, f, counts, length in weighing.field_counts()
    ]
    no_metadata: dict = {}  # lunr.py's per-document term metadata: none is kept; one shared, read-only
    postings = [
        [term, {**{name: dict.fromkeys(weighing.refs_with[f].get(term, ()), no_metadata) for f, name in enumerate(fields)},
                "_index": weighing.term_index[term]}]
        for term in weighing.in_lunr_order()
    ]
    import lunr  # only for its version: builds use term_rows_from_counts

    return {
        "version": lunr.__TARGET_JS_VERSION__,
        "fields": list(fields),
        "fieldVectors": vectors,
        "invertedIndex": postings,
        "pipeline": [],
    }


# From this many postings on, the weights are computed with numpy: below it,
# Python is as fast as importing numpy, which adds ~12 MB to a build's memory.
NUMPY_MIN_POSTINGS = 200_000


def term_rows_from_counts(documents: Sequence[FieldCounts], *, numpy_from: int | None = None) -> list[list]:
    """``build_term_rows`` of documents given as their field term counts.

    One pass counts the terms; then the weights of each field (a million of
    them on rust-rfcs) are computed field by field, with numpy when there are
    at least ``numpy_from`` postings (default ``NUMPY_MIN_POSTINGS``): the same
    float operations in the same order as ``_weight`` either way, and the same
    rounding (``rounded``).  Only idf is computed in Python, once per document count.
    """
    if not documents:
        return []
    postings = [_FieldPostings(len(documents)) for _ in contract.FIELDS]
    first_seen: dict[str, object] = {}
    for i, document in enumerate(documents):
        for field, (distinct, numbers) in zip(postings, document):
            if distinct:
                first_seen.update(dict.fromkeys(distinct))  # keeps each term's first position
                field.add(i, distinct, numbers)
    term_index = {term: n for n, term in enumerate(first_seen)}
    with_numpy = sum(len(field.terms) for field in postings) >= (NUMPY_MIN_POSTINGS if numpy_from is None else numpy_from)
    with_term = [0] * len(term_index)  # documents with the term, a document once per field
    for field in postings:
        field.number(term_index, with_numpy)
        for t, count in field.documents_by_term(len(term_index)):
            with_term[t] += count
    idf_of = {count: _idf(count, len(documents)) for count in set(with_term)}
    idf = [idf_of[count] for count in with_term]
    by_index = [[term, t] for term, t in term_index.items()]
    refs = list(range(len(documents)))  # one int object per ref, shared by every posting
    for f, field in enumerate(postings):
        if with_numpy:
            field.append_to(by_index, refs, idf, _boost(f))
        else:
            field.append_in_python(by_index, idf, _boost(f))
        postings[f] = None  # its arrays are no longer needed: keep the peak down
    return [by_index[term_index[term]] for term in in_utf16_order(term_index)]  # lunr.js's order


def in_utf16_order(terms: Iterable[str]) -> list[str]:
    """Terms sorted as UTF-16 code units compare.

    That is code point order (Python's) unless a term has a character beyond
    U+FFFF (a surrogate pair sorts below U+E000-U+FFFF): encode only then.
    """
    terms = list(terms)
    if _ASTRAL.search("".join(terms)):
        return sorted(terms, key=lambda term: term.encode("utf-16-be"))
    return sorted(terms)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class _FieldPostings:
    """One field's (document, distinct term, count) entries, documents in order, and its lengths."""

    def __init__(self, documents: int):
        self.terms: list[str] = []
        self.counts: list[int] = []
        self.refs: list[int] = []
        self.lengths = [0] * documents
        self.ids = None  # term indices of ``terms``, once numbered

    def add(self, ref: int, distinct: tuple[str, ...], numbers: tuple[int, ...]) -> None:
        self.terms += distinct
        self.counts += numbers
        self.refs += [ref] * len(distinct)
        self.lengths[ref] = sum(numbers)

    def number(self, term_index: dict[str, int], with_numpy: bool) -> None:
        """Terms to term indices; with numpy, every list to an array (a tenth of the memory)."""
        if not with_numpy:
            self.ids = list(map(term_index.__getitem__, self.terms))
            self.terms = []
            return
        import numpy  # only large indexes pay for the import

        self.ids = numpy.fromiter(map(term_index.__getitem__, self.terms), dtype=numpy.int32, count=len(self.terms))
        self.terms = []
        self.counts = numpy.array(self.counts, dtype=numpy.int32)  # int32 + float64 is float64: the same weights
        self.refs = numpy.array(self.refs, dtype=numpy.int32)

    def documents_by_term(self, terms: int) -> Iterable[tuple[int, int]]:
        """(term index, how many documents have it in this field), once numbered."""
        if isinstance(self.ids, list):
            return Counter(self.ids).items()
        import numpy

        return enumerate(numpy.bincount(self.ids, minlength=terms).tolist())

    def append_in_python(self, rows: list[list], idf: list[float], boost: float) -> None:
        """``append_to`` without numpy: ``_weight`` of each posting."""
        flats: list[list] = [[] for _ in rows]
        if self.ids:
            average = sum(self.lengths) / len(self.lengths)
            norms = [K1 * (1 - B + B * (length / average)) for length in self.lengths]  # as _Weighing.norm
            share = {}.setdefault  # one float object per distinct weight (a tenth of them on fastapi-en)
            for t, ref, tf in zip(self.ids, self.refs, self.counts):
                weight = _weight(idf[t], tf, norms[ref], boost)
                flats[t] += (ref, share(weight, weight))  # refs ascend: documents came in order
        for row, flat in zip(rows, flats):
            row.append(flat)

    def append_to(self, rows: list[list], refs: list[int], idf: list[float], boost: float) -> None:
        """Append ``[ref, weight, ...]`` of this field to each row (rows by term index).

        The postings are sorted by term once, then weighed and turned into
        Python lists a batch of terms at a time: all at once, the temporary
        arrays and lists were a third of a large build's peak memory.
        """
        import numpy

        if not len(self.counts):
            for row in rows:
                row.append([])
            return
        average = sum(self.lengths) / len(self.lengths)
        norms = K1 * (1 - B + B * (numpy.array(self.lengths, dtype=numpy.float64) / average))  # as _Weighing.norm
        idf_array = numpy.array(idf, dtype=numpy.float64)
        by_term = numpy.argsort(self.ids, kind="stable")  # stable: refs stay ascending within a term
        ids, tf, documents = self.ids[by_term], self.counts[by_term], self.refs[by_term]
        self.ids = self.counts = self.refs = None
        del by_term
        starts = numpy.zeros(len(rows) + 1, dtype=numpy.int64)
        numpy.cumsum(numpy.bincount(ids, minlength=len(rows)), out=starts[1:])
        floats: dict[float, float] = {}  # one float object per distinct weight, shared
        first = 0
        while first < len(rows):
            # Terms [first, last) hold about _BATCH postings (one term may hold more).
            last = max(first + 1, int(numpy.searchsorted(starts, starts[first] + _BATCH, side="right")) - 1)
            lo, hi = int(starts[first]), int(starts[last])
            part = slice(lo, hi)
            weights = rounded(idf_array[ids[part]] * ((K1 + 1) * tf[part]) / (norms[documents[part]] + tf[part]) * boost)
            flat: list = [0] * (2 * (hi - lo))
            flat[0::2] = map(refs.__getitem__, documents[part].tolist())
            listed = weights.tolist()
            flat[1::2] = map(floats.setdefault, listed, listed)
            bounds = (starts[first:last + 1] - lo) * 2
            for row, start, end in zip(rows[first:last], bounds.tolist(), bounds[1:].tolist()):
                row.append(flat[start:end])
            first = last


_BATCH = 1 << 16


def rounded(values):
    """``round(v, 3)`` of each float, exactly as Python rounds it.

    Python rounds the exact value to 3 decimals and returns the float nearest
    that decimal; ``rint(v * 1000) / 1000`` gives that same float unless
    ``v * 1000`` lies so close to a half that its own rounding error could
    decide the side: those few are rounded by Python itself.
    """
    import numpy

    scaled = values * 1000
    result = numpy.rint(scaled) / 1000
    near_half = numpy.flatnonzero(numpy.abs(scaled - numpy.floor(scaled) - 0.5) < 1e-6)
    for j in near_half.tolist():
        result[j] = round(float(values[j]), 3)
    return result


def _boost(f: int) -> float:
    return contract.FIELD_BOOSTS[contract.FIELDS[f]]


def _vector(weighing: _Weighing, f: int, counts: Counted, length: int) -> list:
    """``[term index, weight, ...]`` by term index, as lunr.py's Vector holds it."""
    if not counts[0]:
        return []
    norm, boost, term_index, idf = weighing.norm(f, length), _boost(f), weighing.term_index, weighing.idf
    flat = []
    for term, tf in sorted(zip(*counts), key=lambda pair: term_index[pair[0]]):
        flat += (term_index[term], _weight(idf[term], tf, norm, boost))
    return flat


def _idf(documents_with_term: int, document_count: int) -> float:
    """lunr's idf, where a document counts once per field it has the term in."""
    x = (document_count - documents_with_term + 0.5) / (documents_with_term + 0.5)
    return math.log(1 + abs(x))


def page_postings(pages: Sequence[tuple[int, Sequence[FieldCounts]]]) -> dict[str, list]:
    """Page-level BM25 weights: ``term -> [first ref of the page, weight, ...]``.

    ``pages`` are ``(first ref, field counts of each of its chunks)``.  A page
    is its title once, each distinct heading path once and the bodies of all
    its chunks: the statistics of the whole page, which ranks pages (engine
    ``rank``) where lunr's per-chunk weights would reward a page by its best
    passage alone.  The weights are lunr's BM25 (same k1, b, idf and
    rounding) with pages as the documents.
    """
    counts_by_page: list[tuple[int, Counter]] = []
    for first, chunks in pages:
        counts: Counter = Counter()
        seen_headings: set[tuple[str, ...]] = set()
        for index, (title, heading, body) in enumerate(chunks):
            if index == 0:
                counts.update(dict(zip(*title)))
            if heading[0] not in seen_headings:
                seen_headings.add(heading[0])
                counts.update(dict(zip(*heading)))
            counts.update(dict(zip(*body)))
        counts_by_page.append((first, counts))
    if not counts_by_page:
        return {}
    with_term: Counter = Counter()
    for _, counts in counts_by_page:
        with_term.update(counts.keys())
    average = sum(sum(c.values()) for _, c in counts_by_page) / len(counts_by_page)
    idf = {term: _idf(n, len(counts_by_page)) for term, n in with_term.items()}
    postings: dict[str, list] = {}
    for first, counts in counts_by_page:
        norm = K1 * (1 - B + B * (sum(counts.values()) / average))
        for term, tf in counts.items():
            postings.setdefault(term, []).extend((first, _weight(idf[term], tf, norm, 1)))
    return postings
