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
from array import array
from bisect import bisect_left
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


def text_counts(text: str) -> Counted:
    """``counted(analyzer.analyze(text))``, each distinct word stemmed once (``analyzer.term_counts``)."""
    counts = analyzer.term_counts(text)
    return tuple(counts), tuple(counts.values())


_cached_counts = functools.lru_cache(maxsize=100_000)(text_counts)


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
    body = _cached_counts(text) if cache_text else text_counts(text)
    return _cached_counts(title), _cached_counts(heading_text), body


def chunk_counts(chunk: Chunk, *, cache_text: bool = True) -> FieldCounts:
    """The chunk's term counts: from the parse worker (maybe ``packed``), or analysed here when it came from the cache
    (``cache_text``: see ``field_counts``)."""
    if isinstance(chunk.terms, array):
        return unpacked(chunk.terms)
    if chunk.terms is not None:
        return chunk.terms
    return field_counts(chunk.heading_path[0], chunk.heading_text, chunk.text, cache_text=cache_text)


class ChunkCounts(Sequence[FieldCounts]):
    """``chunk_counts`` of each chunk, made when asked for: never all at once.

    ``cache_text=False`` for chunks indexed once (a build's, read from its
    spool): kept for a next index that never comes, 100,000 texts and their
    counts were ~170 MB of a large rebuild's peak.
    """

    def __init__(self, chunks: Sequence[Chunk], *, cache_text: bool = True):
        self.chunks = chunks
        self.cache_text = cache_text

    def __len__(self) -> int:
        return len(self.chunks)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [chunk_counts(chunk, cache_text=self.cache_text) for chunk in self.chunks[i]]
        return chunk_counts(self.chunks[i], cache_text=self.cache_text)


# Every term a packed chunk names, by number (and the number of each): a
# process's vocabulary, a few hundred thousand terms on a 100,000-page site.
_TERMS: list[str] = []
_NUMBERS: dict[str, int] = {}


def packed(counts: FieldCounts, vocabulary: dict[str, int] | None = None) -> array:
    """A chunk's counts in one array of C ints: per field its distinct-term count, then the terms' numbers and counts.

    Held for every chunk of a site until it is indexed: as tuples of strings
    and ints they were the largest part of a parsed page (~11 KB of 29).
    Terms are numbered in this process's vocabulary, or in ``vocabulary``
    (a page's own, for another process to ``renumbered`` them; a
    ``PageVocabulary`` is looked up at C speed).
    """
    values = [len(distinct) for distinct, _ in counts]
    for distinct, counts_ in counts:
        if vocabulary is None:
            values += numbered(distinct)
        else:
            try:
                values += list(map(vocabulary.__getitem__, distinct))  # a list: a miss adds nothing
            except KeyError:
                values += numbered(distinct, vocabulary)
        values += counts_
    return array("i", values)


class PageVocabulary(dict):
    """A page's own vocabulary for ``packed``: a term looked up for the first time gets the next number."""

    def __missing__(self, term: str) -> int:
        number = self[term] = len(self)
        return number


def numbered(terms: Sequence[str], vocabulary: dict[str, int] | None = None) -> list[int]:
    """Each term's number in this process's vocabulary (or in ``vocabulary``); a new term gets the next one.

    A sequence, not any iterable: the bulk look-up may stop part way and start again from the first term.
    """
    if vocabulary is None:
        try:  # after a site's first pages nearly every term is known: all looked up at once
            return list(map(_NUMBERS.__getitem__, terms))
        except KeyError:
            pass
    numbers = _NUMBERS if vocabulary is None else vocabulary
    listed = _TERMS if vocabulary is None else None
    found = []
    for term in terms:
        number = numbers.get(term)
        if number is None:
            number = numbers[term] = len(numbers)
            if listed is not None:
                listed.append(term)
        found.append(number)
    return found


def renumbered(data: array, numbers: Sequence[int]) -> array:
    """``packed`` counts in a vocabulary of their own, in this process's numbers (``numbers[n]``: term n's)."""
    out = array("i", data)
    renumber(out, numbers)
    return out


def renumber(data: array, numbers: Sequence[int]) -> None:
    """``renumbered`` in place: a page a reader sent is this process's own, no copy of its arrays is needed."""
    number = numbers.__getitem__
    at = len(contract.FIELDS)
    for size in data[:at]:
        if size:
            data[at:at + size] = array("i", map(number, data[at:at + size]))
        at += 2 * size


def unpacked(data: array) -> FieldCounts:
    """``packed`` undone: the same counts, each term the one shared string of its text."""
    fields, at = [], len(contract.FIELDS)
    terms = _TERMS
    for size in data[:at]:
        fields.append((tuple(terms[n] for n in data[at:at + size]), tuple(data[at + size:at + 2 * size])))
        at += 2 * size
    return tuple(fields)


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
    return term_rows_from_counts(ChunkCounts(chunks))


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
    """``build_term_rows`` of documents given as their field term counts (see ``term_row_batches``)."""
    return [row for batch in term_row_batches(documents, numpy_from=numpy_from) for row in batch]


def term_row_batches(documents: Sequence[FieldCounts], page_starts: Sequence[int] | None = None, *,
                     numpy_from: int | None = None) -> Iterator[list[list]]:
    """``build_term_rows`` a range of terms at a time, in lunr.js order.

    One pass numbers the terms and keeps each field's postings as arrays of
    ints (term, document, count); the weights of each field are then computed
    with numpy when there are at least ``numpy_from`` postings (default
    ``NUMPY_MIN_POSTINGS``): the same float operations in the same order as
    ``_weight`` either way, and the same rounding (``rounded``).  Only idf is
    computed in Python, once per document count.  With numpy, rows are made
    (and can be written and dropped) ``_BATCH`` postings at a time: a large
    site's rows as Python lists were most of its build's peak memory.

    With ``page_starts`` (the first document of each page, ascending), each row
    ends with the term's page-level postings, as ``page_postings`` gives them.
    """
    if not documents:
        return
    fields, term_index = _field_postings(documents)
    postings = sum(len(field) for field in fields)
    if postings < (NUMPY_MIN_POSTINGS if numpy_from is None else numpy_from):
        yield _rows_in_python(documents, fields, term_index, page_starts)
        return
    yield from _rows_with_numpy(documents, fields, term_index, page_starts)


def _field_postings(documents: Sequence[FieldCounts]) -> tuple[list[_FieldPostings], dict[str, int]]:
    """One pass: each field's postings, and the terms numbered as lunr.py numbers them (first seen)."""
    fields = [_FieldPostings(len(documents)) for _ in contract.FIELDS]
    term_index: dict[str, int] = {}
    number = term_index.setdefault
    for i, document in enumerate(documents):
        for field, (distinct, numbers) in zip(fields, document):
            if distinct:
                field.add(i, [number(term, len(term_index)) for term in distinct], numbers)
    return fields, term_index


def weighed_batches(documents: Sequence[FieldCounts], page_starts: Sequence[int]) -> Iterator[Weighed]:
    """``term_row_batches`` with numpy, each field's postings left as arrays (``Weighed``): no Python
    float or int per posting, for the search files' writer to encode whole (``index.encoded_batch``)."""
    if documents:
        packed_ = isinstance(documents, ChunkCounts)
        fields, term_index = (_packed_field_postings(documents.chunks, documents.cache_text) if packed_
                              else _field_postings(documents))
        yield from _weighed_ranges(documents, fields, term_index, page_starts)


def _packed_field_postings(chunks: Sequence[Chunk], cache_text: bool = True) -> tuple[list[_FieldPostings], dict[str, int]]:
    """``_field_postings`` of the chunks' counts taken ``packed`` and read with numpy, a block of chunks at
    a time: no term string is looked up per chunk (a setdefault per distinct term of each chunk field
    was most of this pass)."""
    import numpy

    fields = [_FieldPostings(len(chunks)) for _ in contract.FIELDS]
    local = numpy.full(len(_TERMS), -1, dtype=numpy.int64)  # global term number -> lunr.py's (first seen)
    seen: list = []  # global numbers in first-seen order
    for lo in range(0, len(chunks), _PACKED_BLOCK):
        arrays = [chunk.terms if isinstance(chunk.terms, array) else packed(chunk_counts(chunk, cache_text=cache_text))
                  for chunk in chunks[lo:lo + _PACKED_BLOCK]]
        if len(_TERMS) > len(local):  # chunks without packed counts packed just now: new terms
            local = numpy.concatenate((local, numpy.full(len(_TERMS) - len(local), -1, dtype=numpy.int64)))
        flat = numpy.frombuffer(b"".join(a.tobytes() for a in arrays), dtype=numpy.intc).astype(numpy.int64)
        starts = numpy.cumsum([0, *map(len, arrays[:-1])])
        sizes = flat[starts[:, None] + numpy.arange(len(fields))]  # distinct terms of each chunk's fields
        at = starts + len(fields)  # where each chunk's first field's terms start
        where = []
        for f in range(len(fields)):
            size = sizes[:, f]
            total = int(size.sum())
            ids_at = numpy.repeat(at - (numpy.cumsum(size) - size), size) + numpy.arange(total)
            where.append((ids_at, numpy.repeat(size, size), numpy.repeat(numpy.arange(lo, lo + len(arrays)), size)))
            at = at + 2 * size
        # lunr.py numbers the terms as first seen, chunk by chunk and field by field: the order of ``flat``
        is_term = numpy.zeros(len(flat), dtype=bool)
        for ids_at, _, _ in where:
            is_term[ids_at] = True
        terms = flat[is_term]
        new = terms[local[terms] < 0]
        if len(new):
            unique, first = numpy.unique(new, return_index=True)
            order = unique[numpy.argsort(first)]
            local[order] = numpy.arange(len(seen), len(seen) + len(order))
            seen.extend(order.tolist())
        for field, (ids_at, size, documents) in zip(fields, where):
            counts = flat[ids_at + size]
            field.extend_packed(local[flat[ids_at]], documents, counts)
            summed = numpy.bincount(documents - lo, weights=counts, minlength=len(arrays)).astype(numpy.int64)
            field.lengths[lo:lo + len(arrays)] = array("q", summed.tolist())
    return fields, {_TERMS[g]: n for n, g in enumerate(seen)}


_PACKED_BLOCK = 4096  # chunks read with numpy at a time: a few MB of temporaries


@dataclass
class Weighed:
    """Terms ``[first, last)`` in lunr.js order with their postings, per field (the pages last, if asked for):
    ``bounds[k]:bounds[k + 1]`` are term k's entries of ``refs`` (ascending) and ``weights`` (``_weight``'s)."""

    terms: list[str]
    term_index: dict[str, int]
    fields: list[tuple]  # (bounds, refs, weights) numpy arrays


def _idf_by_term(fields: Sequence[_FieldPostings], terms: int, documents: int) -> list[float]:
    with_term = [0] * terms  # documents with the term, a document once per field
    for field in fields:
        for t, count in field.documents_by_term(terms):
            with_term[t] += count
    idf_of = {count: _idf(count, documents) for count in set(with_term)}
    return [idf_of[count] for count in with_term]


def _rows_in_python(documents: Sequence[FieldCounts], fields: list[_FieldPostings], term_index: dict[str, int],
                    page_starts: Sequence[int] | None) -> list[list]:
    idf = _idf_by_term(fields, len(term_index), len(documents))
    by_index = [[term, t] for term, t in term_index.items()]
    for f, field in enumerate(fields):
        field.append_in_python(by_index, idf, _boost(f))
    if page_starts is not None:
        by_page = page_postings(_pages(documents, page_starts))
        for row in by_index:
            row.append(by_page[row[0]])
    return [by_index[term_index[term]] for term in in_utf16_order(term_index)]  # lunr.js's order


def _pages(documents: Sequence[FieldCounts], page_starts: Sequence[int]) -> list[tuple[int, Sequence[FieldCounts]]]:
    """``page_postings``'s input: each page's first document and its documents' counts."""
    ends = [*page_starts[1:], len(documents)]
    return [(start, documents[start:end]) for start, end in zip(page_starts, ends)]


def _rows_with_numpy(documents: Sequence[FieldCounts], fields: list[_FieldPostings], term_index: dict[str, int],
                     page_starts: Sequence[int] | None) -> Iterator[list[list]]:
    refs = list(range(len(documents)))  # one int object per ref, shared by every posting
    floats: dict[float, float] = {}  # one float object per distinct weight, shared
    for batch in _weighed_ranges(documents, fields, term_index, page_starts):
        rows = [[term, term_index[term]] for term in batch.terms]
        for bounds, documents_, weights in batch.fields:
            flat: list = [0] * (2 * len(documents_))
            flat[0::2] = map(refs.__getitem__, documents_.tolist())
            listed = weights.tolist()
            flat[1::2] = map(floats.setdefault, listed, listed)
            bounds = bounds * 2
            for row, start, end in zip(rows, bounds.tolist(), bounds[1:].tolist()):
                row.append(flat[start:end])
        yield rows


def _weighed_ranges(documents: Sequence[FieldCounts], fields: list[_FieldPostings], term_index: dict[str, int],
                    page_starts: Sequence[int] | None) -> Iterator[Weighed]:
    import numpy  # only large indexes pay for the import

    idf = numpy.array(_idf_by_term(fields, len(term_index), len(documents)), dtype=numpy.float64)
    ordered = in_utf16_order(term_index)  # lunr.js's order: rows are made in it, batch by batch
    by_rank = numpy.fromiter(map(term_index.__getitem__, ordered), dtype=numpy.int64, count=len(ordered))
    rank = numpy.empty(len(ordered), dtype=numpy.int32)
    rank[by_rank] = numpy.arange(len(ordered), dtype=numpy.int32)
    idf = idf[by_rank]  # by rank from here on
    pages = _page_field(len(documents), page_starts, fields, len(term_index)) if page_starts is not None else None
    weighed = [_Sorted(field, rank, idf, _boost(f)) for f, field in enumerate(fields)]
    if pages is not None:
        page_idf = _idf_by_term([pages], len(term_index), pages.documents)
        weighed.append(_Sorted(pages, rank, numpy.array(page_idf, dtype=numpy.float64)[by_rank], 1.0))
    del rank, by_rank
    total = sum(w.starts for w in weighed)  # postings of all fields up to each rank
    first = 0
    while first < len(ordered):
        # Terms [first, last) hold about _BATCH postings (one term may hold more).
        last = max(first + 1, int(numpy.searchsorted(total, total[first] + _BATCH, side="right")) - 1)
        yield Weighed(ordered[first:last], term_index, [w.weighed(first, last) for w in weighed])
        first = last


def _page_field(count: int, page_starts: Sequence[int], fields: list[_FieldPostings], terms: int) -> _FieldPostings:
    """The pages as one more field: each page's term counts (``page_counts``), keyed by its first document.

    Summed from the fields' postings with numpy (a ``Counter`` per page took a third of the index stage):
    a page's title once, the headings of the chunks whose heading terms are new on the page, every body.
    Lengths are kept by first document (0 for the others); the average is over the pages.
    """
    import numpy

    first_of = numpy.zeros(count, dtype=numpy.int64)  # each document's page, by the page's first document
    first_of[list(page_starts)] = numpy.diff(numpy.concatenate(([0], page_starts)))
    first_of = numpy.cumsum(first_of)
    # Whether a document's distinct heading terms are new on its page, told by their numbers in the
    # heading field's postings (the documents are not analysed or unpacked again).
    starts = set(page_starts)
    new_heading = numpy.zeros(count, dtype=bool)
    heading_ids, heading_refs, _ = _unpacked(numpy.frombuffer(fields[1].keys, dtype=numpy.uint64), fields[1].large)
    size = numpy.dtype(numpy.intc).itemsize
    heading_bytes = heading_ids.astype(numpy.intc).tobytes()
    bounds = (numpy.searchsorted(heading_refs, numpy.arange(count + 1)) * size).tolist()
    del heading_ids, heading_refs
    seen: set[bytes] = set()
    for i in range(count):
        if i in starts:
            seen = set()
        heading = heading_bytes[bounds[i]:bounds[i + 1]]
        if heading not in seen:
            seen.add(heading)
            new_heading[i] = True
    first_document = numpy.zeros(count, dtype=bool)
    first_document[list(page_starts)] = True  # the title: the first document's, once
    chosen = (first_document, new_heading, numpy.ones(count, dtype=bool))
    pages = _FieldPostings(count)
    lengths = numpy.zeros(count, dtype=numpy.int64)
    for lo, hi in _page_blocks(page_starts, fields[2], count):  # a block of pages at a time: bounded memory
        keys, counts = [], []
        for field, kept in zip(fields, chosen):
            start, end = field.documents_between(lo, hi)
            ids, block, tf = _unpacked(numpy.frombuffer(field.keys, dtype=numpy.uint64)[start:end], field.large)
            keep = kept[block]
            keys.append(first_of[block[keep]] * terms + ids[keep])
            counts.append(tf[keep])
        unique, where = numpy.unique(numpy.concatenate(keys), return_inverse=True)
        summed = numpy.bincount(where, weights=numpy.concatenate(counts), minlength=len(unique)).astype(numpy.int64)
        firsts = unique // terms
        pages.extend_packed(unique % terms, firsts, summed)
        lengths[lo:hi] = numpy.bincount(firsts - lo, weights=summed, minlength=hi - lo)
    pages.lengths = array("q", lengths.tolist())
    pages.documents = len(page_starts)
    return pages


_PAGE_BLOCK_POSTINGS = 1 << 17  # ~5 MB of keys per block


def _page_blocks(page_starts: Sequence[int], body: _FieldPostings, count: int) -> Iterator[tuple[int, int]]:
    """Documents [lo, hi) of consecutive whole pages holding about ``_PAGE_BLOCK_POSTINGS`` body postings."""
    import numpy

    # Where each page's body postings start: the keys before it, counted by a
    # sorted search of every page start in each slice of keys (a bisect a page
    # took ~1 s at 100,000 pages; one document array as large as the keys
    # would add their size to the build's peak).
    keys = numpy.frombuffer(body.keys, dtype=numpy.uint64)
    starts = numpy.asarray(page_starts, dtype=numpy.uint64)
    counted = numpy.zeros(len(starts), dtype=numpy.int64)
    for lo in range(0, len(keys), _STEP * 64):  # 32 MB temporaries
        counted += numpy.searchsorted(keys[lo:lo + _STEP * 64] >> numpy.uint64(_DOCUMENT_SHIFT) & numpy.uint64(_LIMIT - 1), starts)
    firsts = counted.tolist()
    lo, at = 0, 0
    for start, postings in zip(page_starts, firsts):
        if postings - at >= _PAGE_BLOCK_POSTINGS:
            yield lo, start
            lo, at = start, postings
    yield lo, count


def _unpacked(keys, large: dict[tuple[int, int], int]) -> tuple:
    """(terms, documents, counts) of packed keys as numpy int arrays, counts of ``large`` restored."""
    import numpy

    terms = (keys >> numpy.uint64(_TERM_SHIFT)).astype(numpy.intp)
    documents = (keys >> numpy.uint64(_DOCUMENT_SHIFT) & numpy.uint64(_LIMIT - 1)).astype(numpy.intp)
    tf = (keys & numpy.uint64(_COUNT_MASK)).astype(numpy.intc)  # int32 + float64 is float64
    for j in numpy.flatnonzero(tf == _COUNT_MASK).tolist():
        tf[j] = large[(int(terms[j]), int(documents[j]))]
    return terms, documents, tf


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


# A posting packed in one unsigned 64-bit key: term << 40 | document << 16 | count.
# Sorting the keys sorts postings by term, then document: one array, sorted in
# place (three int arrays took 12 bytes a posting, and their sort 24 more).
_TERM_SHIFT, _DOCUMENT_SHIFT = 40, 16
_LIMIT = 1 << 24  # terms and documents a key can number
_COUNT_MASK = (1 << 16) - 1  # a count this large or larger is kept apart (``large``)


class _FieldPostings:
    """One field's (term index, document, count) entries, documents in order, and its lengths."""

    def __init__(self, documents: int):
        if documents > _LIMIT:
            raise ValueError(f"{documents} passages in one language: the index holds at most {_LIMIT}")
        self.keys = array("Q")
        self.large: dict[tuple[int, int], int] = {}  # (term, document) -> a count of _COUNT_MASK or more
        self.lengths = array("q", bytes(8 * documents))
        self.documents = documents  # how many documents the average length is over (pages: fewer than refs)

    def add(self, ref: int, ids: list[int], numbers: Sequence[int]) -> None:
        base = ref << _DOCUMENT_SHIFT
        self.keys.extend([t << _TERM_SHIFT | base | (n if n < _COUNT_MASK else self._large(t, ref, n))
                          for t, n in zip(ids, numbers)])
        self.lengths[ref] = sum(numbers)

    def _large(self, t: int, ref: int, n: int) -> int:
        self.large[(t, ref)] = n
        return _COUNT_MASK

    def __len__(self) -> int:
        return len(self.keys)

    def documents_between(self, lo: int, hi: int) -> tuple[int, int]:
        """Where the postings of documents [lo, hi) start and end: keys are added a document at a time."""
        document = lambda key: key >> _DOCUMENT_SHIFT & (_LIMIT - 1)  # noqa: E731
        return bisect_left(self.keys, lo, key=document), bisect_left(self.keys, hi, key=document)

    def extend_packed(self, ids, documents, counts) -> None:
        """Add postings given as numpy arrays, in document order (the page field, made whole)."""
        import numpy

        for j in numpy.flatnonzero(counts >= _COUNT_MASK).tolist():
            self._large(int(ids[j]), int(documents[j]), int(counts[j]))
        packed = (ids.astype(numpy.uint64) << numpy.uint64(_TERM_SHIFT) | documents.astype(numpy.uint64) << numpy.uint64(_DOCUMENT_SHIFT)
                  | numpy.minimum(counts, _COUNT_MASK).astype(numpy.uint64))
        self.keys.frombytes(packed.tobytes())

    def postings(self) -> Iterator[tuple[int, int, int]]:
        """(term index, document, count) of each posting, in the order added."""
        large = self.large
        for key in self.keys:
            t, ref, tf = key >> _TERM_SHIFT, key >> _DOCUMENT_SHIFT & (_LIMIT - 1), key & _COUNT_MASK
            yield t, ref, tf if tf < _COUNT_MASK else large[(t, ref)]

    def average(self) -> float:
        return sum(self.lengths) / self.documents

    def documents_by_term(self, terms: int) -> Iterable[tuple[int, int]]:
        """(term index, how many documents have it in this field)."""
        if terms >= _LIMIT:
            raise ValueError(f"{terms} distinct terms in one language: the index holds at most {_LIMIT}")
        if len(self.keys) < NUMPY_MIN_POSTINGS:
            return Counter(key >> _TERM_SHIFT for key in self.keys).items()
        import numpy

        keys, counts = numpy.frombuffer(self.keys, dtype=numpy.uint64), numpy.zeros(terms, dtype=numpy.int64)
        for lo in range(0, len(keys), _STEP):  # a slice at a time: no second array as long as the keys
            counts += numpy.bincount((keys[lo:lo + _STEP] >> numpy.uint64(_TERM_SHIFT)).astype(numpy.intp), minlength=terms)
        return enumerate(counts.tolist())

    def append_in_python(self, rows: list[list], idf: list[float], boost: float) -> None:
        """Append ``[ref, weight, ...]`` of this field to each row (rows by term index): ``_weight`` of each posting."""
        flats: list[list] = [[] for _ in rows]
        if self.keys:
            average = self.average()
            norms = [K1 * (1 - B + B * (length / average)) for length in self.lengths]  # as _Weighing.norm
            share = {}.setdefault  # one float object per distinct weight (a tenth of them on fastapi-en)
            for t, ref, tf in self.postings():
                weight = _weight(idf[t], tf, norms[ref], boost)
                flats[t] += (ref, share(weight, weight))  # refs ascend: documents came in order
        for row, flat in zip(rows, flats):
            row.append(flat)


_STEP = 1 << 16  # keys converted a slice at a time: each numpy temporary of a slice is 512 KB


class _Sorted:
    """One field's postings sorted by term rank, ready to be weighed a range of ranks at a time (``idf`` by rank)."""

    def __init__(self, field: _FieldPostings, rank, idf, boost: float):
        import numpy

        terms = len(rank)
        shift = numpy.uint64(_TERM_SHIFT)
        keys = numpy.frombuffer(field.keys, dtype=numpy.uint64)
        if len(keys):
            keys.flags.writeable = True  # the array's own buffer, rewritten in place
        low = numpy.uint64((1 << _TERM_SHIFT) - 1)
        for lo in range(0, len(keys), _STEP):  # term index -> rank, in place
            part = keys[lo:lo + _STEP]
            part[:] = rank[(part >> shift).astype(numpy.intp)].astype(numpy.uint64) << shift | part & low
        keys.sort()  # by rank, then document: refs ascend within a term
        self.keys = keys
        field.keys = None
        self.large = {(int(rank[t]), ref): n for (t, ref), n in field.large.items()}
        # Where each rank's postings start (the keys of rank r start at r << 40).
        self.starts = numpy.searchsorted(keys, numpy.arange(terms + 1, dtype=numpy.uint64) << shift).astype(numpy.int64)
        average = field.average() if len(keys) else 1.0
        # as _Weighing.norm, per document
        self.norms = K1 * (1 - B + B * (numpy.array(field.lengths, dtype=numpy.float64) / average))
        self.idf, self.boost = idf, boost

    def weighed(self, first: int, last: int) -> tuple:
        """(bounds from 0, refs, weights) of the postings of ranks [first, last) (``Weighed``)."""
        lo, hi = int(self.starts[first]), int(self.starts[last])
        ranks, documents, tf = _unpacked(self.keys[lo:hi], self.large)
        weights = rounded(self.idf[ranks] * ((K1 + 1) * tf) / (self.norms[documents] + tf) * self.boost)
        return self.starts[first:last + 1] - lo, documents, weights


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
    counts_by_page = [(first, page_counts(chunks)) for first, chunks in pages]
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


def page_counts(chunks: Sequence[FieldCounts]) -> Counter:
    """A page's term counts: its title once, each distinct heading path once, the bodies of all its chunks."""
    counts: Counter = Counter()
    seen_headings: set[tuple[str, ...]] = set()
    for index, (title, heading, body) in enumerate(chunks):
        if index == 0:
            counts.update(dict(zip(*title)))
        if heading[0] not in seen_headings:
            seen_headings.add(heading[0])
            counts.update(dict(zip(*heading)))
        counts.update(dict(zip(*body)))
    return counts
