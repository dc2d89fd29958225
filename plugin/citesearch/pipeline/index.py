"""Index: chunks -> the sharded search files of each language (layout in ``engine.contract``)."""

from __future__ import annotations

import bisect
import functools
import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence

import lunr
import orjson

from ..engine import analyzer, contract
from ..engine.shards import decoded, utf16_key
from ..model import Chunk, ParsedDocument
from .bare_headings import BareHeadings
from .lunr_index import ChunkCounts, Weighed, rounded, term_row_batches, weighed_batches
from .spool import ChunkRefs

# What the search files depend on besides the pages; the build cache reuses the
# last build's files while none of it (nor any page field) changed.
CACHE_MODULES = (__name__, "citesearch.pipeline.lunr_index", "citesearch.engine.analyzer",
                 "citesearch.engine.stemmer_en", "citesearch.engine.contract", "citesearch.engine.shards",
                 "citesearch.model", "citesearch.engine.mark_ranges", "citesearch.pipeline.spool",
                 "citesearch.pipeline.bare_headings")


def cache_inputs(default_lang: str, generator: dict) -> dict:
    return {"lunr": lunr.__VERSION__, "analyzer": [analyzer.NAME, analyzer.VERSION],
            "default_lang": default_lang, "generator": generator}


@dataclass(frozen=True)
class SearchPage:
    """What the index stage needs of a page, whoever produced its chunks."""

    doc_id: str
    url: str  # site-relative URL of the page
    title: str
    lang: str
    chunks: tuple[Chunk, ...]
    boost: float = 1.0  # lunr's document boost (MkDocs' `search: {boost: N}` front matter)


def search_pages(pages: Iterable[ParsedDocument]) -> list[SearchPage]:
    return [SearchPage(p.doc.id, p.doc.url, p.title, p.doc.lang, p.chunks) for p in pages]


def dumps(data: object) -> bytes:
    """Compact, deterministic JSON as UTF-8 bytes: ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))``.

    Written by orjson (json took a third of a rust-rfcs rebuild).  The two
    differ only on floats below 1e-4 or from 1e16 ("1e-05" vs "0.00001"), and
    the only floats here are weights rounded to 3 decimals: 0 or at least 0.001.
    """
    return orjson.dumps(data)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class LanguageShard:
    lang: str
    files: dict[str, bytes]  # search-relative path -> bytes
    entry: dict  # this language's entry in the manifest


def in_groups(items: Iterable, size_of: Callable[[object], int], target: int) -> Iterator[list]:
    """Consecutive items in lists of about ``target`` bytes each (never empty),
    each list given as soon as it fills: a large site's rows are never all held."""
    part: list = []
    total = 0
    for item in items:
        part.append(item)
        total += size_of(item)
        if total >= target:
            yield part
            part, total = [], 0
    if part:
        yield part


def build_shard(lang: str, pages: Iterable[SearchPage], files: MutableMapping[str, bytes] | None = None,
                chunk_files: ChunkFiles | None = None) -> LanguageShard:
    """Term, dictionary and chunk files of one language (see ``engine.contract``).

    Term rows come a range of terms at a time and go into their files as they
    come: a large site's rows are never all in memory at once.  ``chunk_files``:
    the chunk files already made of these very pages, as they came (only
    their last group and lists are left to make).
    """
    pages = list(pages)
    chunks = ChunkRefs(pages)  # read a page at a time: a spooled page's chunks are on disk (``spool``)
    owners = chunks.owners
    page_starts = chunks.page_starts()
    boosts = [owner.boost for owner in owners]
    boosted = any(boost != 1.0 for boost in boosts)
    terms: list[str] = []

    def rows() -> Iterator[tuple[list, int]]:
        if len(chunks) >= NUMPY_MIN_CHUNKS:
            import numpy

            factors = numpy.array(boosts, dtype=numpy.float64) if boosted else None
            split = functools.partial(split_postings, lang, page_starts=page_starts, files=files)
            for weighed in weighed_batches(ChunkCounts(chunks, cache_text=not chunks.spooled), page_starts):
                terms.extend(weighed.terms)
                yield from encoded_batch(weighed, factors, split)
            return
        for batch in term_row_batches(ChunkCounts(chunks, cache_text=not chunks.spooled), page_starts):
            if boosted:
                _apply_boosts(batch, boosts)
            terms.extend(row[0] for row in batch)
            yield from _split_rows(lang, ((encoded(row), _row_size(row)) for row in batch), page_starts, files)

    files = {} if files is None else files  # given: each file goes there as it is made
    entry: dict = {"documents": len(pages), "chunks_count": len(chunks)}
    entry["terms"] = _term_files(lang, rows(), files)
    entry["dictionary"] = _dictionary_files(lang, terms, files)
    # Russian terms: the widget loads lunr.ru to stem the texts it quotes (else only for a Russian query).
    entry["stemmers"] = ["ru"] if any(_CYRILLIC.search(term) for term in terms) else []
    if chunk_files is None:
        entry["chunks"] = _chunk_files(chunks, owners, files)
    elif chunk_files.refs != len(chunks):
        raise ValueError(f"{chunk_files.refs} chunks made into chunk files, {len(chunks)} indexed")
    else:
        entry["chunks"] = chunk_files.finish()
    return LanguageShard(lang, files, entry)


_CYRILLIC = re.compile(f"[{analyzer.CYRILLIC_RANGES}]")


def _apply_boosts(rows: list[list], boosts: list[float]) -> None:
    """lunr's document boost: each weight of a boosted page's refs times its boost (3 decimals, as every weight).

    Every ``[ref, weight, ...]`` list of a row is boosted, page-level postings
    (keyed by the page's first ref) as well: call this once all are in the rows.
    """
    if all(boost == 1.0 for boost in boosts):
        return
    for row in rows:
        for postings in row[2:]:
            for i in range(0, len(postings), 2):
                boost = boosts[postings[i]]
                if boost != 1.0:
                    postings[i + 1] = round(postings[i + 1] * boost, 3)


def _add(files: dict[str, bytes], name_of, data: object) -> str:
    raw = dumps(data)
    name = name_of(digest(raw))
    files[name] = raw
    return name


def encoded(row: list) -> list:
    """A term row as written (``contract``): each ``[ref, weight, ...]`` list as
    a string of base-64 numbers, ref gaps and weights in thousandths.

    Weights are rounded to 3 decimals, so ``round(w * 1000)`` is exact and
    ``n / 1000`` on either side is the float the decimal itself parses to.
    """
    lists = []
    for flat in row[2:]:
        numbers, previous = [0] * len(flat), 0
        for i in range(0, len(flat), 2):
            numbers[i], numbers[i + 1], previous = flat[i] - previous, round(flat[i + 1] * 1000), flat[i]
        plain = base64_numbers(numbers)
        lists.append(_with_weight_table(numbers, plain) if len(flat) >= 2 * contract.POSTING_TABLE_MIN else plain)
    return [row[0], row[1], *lists]


def _with_weight_table(numbers: list[int], plain: str) -> str:
    """The list with its weights as positions in a table of its distinct
    weights, most frequent first, when that is shorter enough than ``plain``."""
    return _shorter(contract.POSTING_TABLE_MARK + base64_numbers(_tabled(numbers)), plain)


def _tabled(numbers: list[int]) -> list[int]:
    """``[table size, *table, ref gap, weight's position, ...]``: the numbers of the list written with a weight table."""
    counts = Counter(numbers[1::2])
    table = sorted(counts, key=lambda weight: (-counts[weight], weight))
    position = {weight: i for i, weight in enumerate(table)}
    tabled = numbers.copy()
    tabled[1::2] = [position[weight] for weight in numbers[1::2]]
    return [len(table), *table, *tabled]


def _shorter(text: str, plain: str) -> str:
    return text if len(text) <= (1 - contract.POSTING_TABLE_SAVING) * len(plain) else plain


def base64_numbers(numbers: list[int]) -> str:
    digits = contract.POSTING_DIGITS
    out = []
    for number in numbers:
        if number < 0:
            raise ValueError(f"a posting number is never negative, got {number}")
        while number >= 32:
            out.append(digits[32 | number & 31])
            number >>= 5
        out.append(digits[number])
    return "".join(out)


# From this many chunks on, term rows are weighed and encoded whole with numpy (``encoded_batch``);
# below, numpy's import (~0.15 s) would cost more than it saves.
NUMPY_MIN_CHUNKS = 300


def encoded_batch(weighed: Weighed, boosts=None, split: Callable | None = None) -> Iterator[tuple[list, int]]:
    """``(encoded(row), _row_size(row))`` of each row of a batch, with ``boosts`` applied
    (``_apply_boosts``): the same strings, made by numpy a field at a time instead of a number at a time.

    With ``split`` (``split_postings`` but for its first argument), each row ``_split_rows`` would split is
    split from its numbers (its row and size as ``_split_rows`` gives them): the rows sure to be split,
    told by their strings' least lengths, are never encoded whole.
    """
    import numpy

    fields = []  # (numbers, bounds, refs) of each field
    sizes = numpy.zeros(len(weighed.terms), dtype=numpy.int64)
    for bounds, refs, weights in weighed.fields:
        if boosts is not None:  # each ref's page boost, a numpy array
            factor = boosts[refs]
            boosted = factor != 1.0
            weights = weights.copy()
            weights[boosted] = rounded(weights[boosted] * factor[boosted])
        gaps = refs.astype(numpy.int64)
        gaps[1:] -= gaps[:-1].copy()
        firsts = bounds[:-1][bounds[:-1] < len(refs)]
        gaps[firsts] = refs[firsts]  # each term's first ref is written whole
        numbers = numpy.empty(2 * len(refs), dtype=numpy.int64)
        numbers[0::2] = gaps
        numbers[1::2] = numpy.rint(weights * 1000)  # exact: weights are rounded to 3 decimals
        fields.append((numbers, bounds, refs))
        sizes += 4 * numpy.diff(bounds)
    terms, term_index = weighed.terms, weighed.term_index
    whole = numpy.zeros(len(terms), dtype=bool) if split is None else _sure_to_split(fields)
    kept = numpy.flatnonzero(~whole)
    by_field = [_kept_strings(numbers, bounds, kept, whole.any()) for numbers, bounds, _ in fields]
    at = dict(zip(kept.tolist(), range(len(kept))))  # a kept term's place among the strings
    for k, term in enumerate(terms):
        if k in at:
            row = [term, term_index[term], *(strings[at[k]] for strings in by_field)]
            if split is None or sum(len(text) for text in row[2:]) <= contract.TERM_SPLIT_BYTES:
                yield row, len(term) + 24 + int(sizes[k])
                continue
        lists = [(refs[bounds[k]:bounds[k + 1]].astype(numpy.int64), numbers[2 * bounds[k] + 1:2 * bounds[k + 1]:2])
                 for numbers, bounds, refs in fields]
        row = split(term, term_index[term], lists)  # type: ignore[misc]
        yield row, len(term) + 60 + sum(len(text) for text in row[2:6])


_DIGIT_STEPS = [32 ** n for n in range(1, 13)]  # a base-64 posting number of n + 1 digits is at least 32 ** n


def _sure_to_split(fields: list[tuple]):
    """Whether each term's strings are longer than ``TERM_SPLIT_BYTES`` whatever weight tables shorten them:
    plain, a list's length is its numbers' digits; with a table, at least its gaps' digits, one digit a
    weight and three more (mark, table size, one weight)."""
    import numpy

    least = 0
    for numbers, bounds, _ in fields:
        digits = 1 + numpy.searchsorted(_DIGIT_STEPS, numbers, side="right")
        summed = numpy.concatenate(([0], numpy.cumsum(digits)))
        gap_digits = numpy.concatenate(([0], numpy.cumsum(digits[0::2])))
        plain = summed[2 * bounds[1:]] - summed[2 * bounds[:-1]]
        postings = numpy.diff(bounds)
        tabled = 3 + gap_digits[bounds[1:]] - gap_digits[bounds[:-1]] + postings
        least = least + numpy.where(postings >= contract.POSTING_TABLE_MIN, numpy.minimum(plain, tabled), plain)
    return least > contract.TERM_SPLIT_BYTES


def _kept_strings(numbers, bounds, kept, some_left: bool) -> list[str]:
    """``postings_strings`` of the lists of the terms ``kept`` (all, unless ``some_left``)."""
    import numpy

    if not some_left:
        return postings_strings(numbers, bounds)
    counts = numpy.diff(bounds)
    keep = numpy.repeat(numpy.isin(numpy.arange(len(counts)), kept), counts)
    pairs = numbers.reshape(-1, 2)[keep].reshape(-1)
    return postings_strings(pairs, numpy.concatenate(([0], numpy.cumsum(counts[kept]))))


def postings_strings(numbers, bounds) -> list[str]:
    """``encoded``'s string of each list ``numbers[2 * bounds[k]:2 * bounds[k + 1]]`` (ref gaps and weights in
    thousandths, numpy int arrays): plain, or with its weight table when that is shorter enough (format 6)."""
    import numpy

    strings = base64_strings(numbers, bounds * 2)
    long = numpy.flatnonzero(numpy.diff(bounds) >= contract.POSTING_TABLE_MIN)
    if len(long):  # every long list's tabled numbers encoded at once
        flat, ends = _tabled_lists(numbers, bounds, long)
        for k, text in zip(long.tolist(), base64_strings(flat, ends)):
            strings[k] = _shorter(contract.POSTING_TABLE_MARK + text, strings[k])
    return strings


def _tabled_lists(numbers, bounds, lists):
    """``_tabled`` of each list ``numbers[2 * bounds[k]:2 * bounds[k + 1]]`` for k in ``lists``, made whole with numpy:
    the numbers of all of them one after another, and where each starts (and the last ends)."""
    import numpy

    sizes = bounds[lists + 1] - bounds[lists]  # postings of each list
    owner = numpy.repeat(numpy.arange(len(lists)), sizes)
    local = numpy.arange(len(owner)) - numpy.repeat(numpy.cumsum(sizes) - sizes, sizes)  # a posting's place in its list
    at = 2 * (numpy.repeat(bounds[lists], sizes) + local)
    gaps, weights = numbers[at], numbers[at + 1]
    span = int(weights.max()) + 1
    distinct, inverse, counts = numpy.unique(owner * span + weights, return_inverse=True, return_counts=True)
    distinct_owner, distinct_weight = distinct // span, distinct % span
    order = numpy.lexsort((distinct_weight, -counts, distinct_owner))  # each list's table: most frequent first, then lowest
    sorted_owner = distinct_owner[order]
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.arange(len(order)) - numpy.searchsorted(sorted_owner, sorted_owner)
    table_sizes = numpy.bincount(distinct_owner, minlength=len(lists))
    ends = numpy.concatenate(([0], numpy.cumsum(1 + table_sizes + 2 * sizes)))
    flat = numpy.empty(int(ends[-1]), dtype=numpy.int64)
    flat[ends[:-1]] = table_sizes
    flat[ends[sorted_owner] + 1 + rank[order]] = distinct_weight[order]
    pairs = ends[owner] + 1 + table_sizes[owner] + 2 * local
    flat[pairs] = gaps
    flat[pairs + 1] = rank[inverse]
    return flat, ends


def base64_strings(numbers, bounds) -> list[str]:
    """``base64_numbers`` of each ``numbers[bounds[k]:bounds[k + 1]]`` (numpy int arrays), made whole.

    A digit round at a time, each on only the numbers that still have a digit
    (most have one or two): no pass over every number after the first.
    """
    import numpy

    if len(numbers) and numbers.min() < 0:
        raise ValueError(f"a posting number is never negative, got {int(numbers.min())}")
    digits = numpy.frombuffer(contract.POSTING_DIGITS.encode("ascii"), dtype=numpy.uint8)
    more = numbers >= 32
    length = more.astype(numpy.int64) + 1  # digits of each number
    longer = numpy.flatnonzero(more)
    rest = numbers[longer] >> 5
    while len(longer):  # one more digit for the numbers of three digits and more, and so on
        again = rest >= 32
        longer, rest = longer[again], rest[again] >> 5
        length[longer] += 1
    ends = numpy.cumsum(length)
    at = ends - length
    out = numpy.empty(int(ends[-1]) if len(ends) else 0, dtype=numpy.uint8)
    out[at] = digits[(numbers & 31) | (more.astype(numpy.int64) << 5)]  # each number's first digit: its low five bits
    longer = numpy.flatnonzero(more)
    rest, at = numbers[longer] >> 5, at[longer] + 1
    while len(rest):  # the next digit of the numbers that have one
        more = rest >= 32
        out[at] = digits[(rest & 31) | (more.astype(numpy.int64) << 5)]
        longer = numpy.flatnonzero(more)
        rest, at = rest[longer] >> 5, at[longer] + 1
    text = out.tobytes().decode("ascii")
    cuts = numpy.concatenate(([0], ends))[bounds].tolist()
    return [text[a:b] for a, b in zip(cuts, cuts[1:])]


def _row_size(row: list) -> int:
    # About the JSON length: a term, then (gap, weight) pairs of ~4 digits.
    return len(row[0]) + 24 + 2 * sum(len(flat) for flat in row[2:])


def _split_rows(lang: str, rows: Iterable[tuple[list, int]], page_starts: list[int],
                files: dict[str, bytes]) -> Iterator[tuple[list, int]]:
    """The rows, each of postings longer than ``TERM_SPLIT_BYTES`` split (``split_row``)."""
    for row, size in rows:
        if sum(len(text) for text in row[2:]) > contract.TERM_SPLIT_BYTES:
            row = split_row(lang, row, page_starts, files)
            size = len(row[0]) + 60 + sum(len(text) for text in row[2:6])
        yield row, size


def split_row(lang: str, row: list, page_starts: list[int], files: dict[str, bytes]) -> list:
    """A long term row as written since format 7 (``contract``): its title and
    heading postings and the page postings of the pages those are on, as one
    string by page (``head_numbers``, format 8), then
    ``[blocks name, first refs, largest page weight]``; the body postings and
    the other page postings go into blocks of consecutive pages, about
    ``TERM_BLOCK_BYTES`` each, written to ``files``.

    Made with numpy from the row's strings (a frequent term's lists hold
    ~10,000 postings: a number at a time in Python, these rows were half of
    the index stage); ``split_row_lists``, the same done with lists, where
    the postings are not in ref order.
    """
    return split_postings(lang, row[0], row[1], [postings_arrays(text) for text in row[2:6]], page_starts, files, row)


def split_postings(lang: str, term: str, term_index: int, lists: list[tuple], page_starts: list[int],
                   files: dict[str, bytes], row: list | None = None) -> list:
    """``split_row`` of a row given as the ``(refs, weights in thousandths)`` of its title, heading, body and
    page postings (numpy int arrays), ``row`` its strings if at hand."""
    import numpy

    starts = numpy.asarray(page_starts, dtype=numpy.int64)
    page_of = lambda refs: starts[numpy.searchsorted(starts, refs, side="right") - 1]  # noqa: E731
    (title_refs, title_weights), (heading_refs, heading_weights), (body_refs, body_weights), (pages, page_weights) = lists
    head_refs = numpy.concatenate([title_refs, heading_refs])
    body_pages = page_of(body_refs)
    if len(pages) == 0 or numpy.any(numpy.diff(body_refs) < 0) or numpy.any(numpy.diff(pages) <= 0):
        row = row if row is not None else [term, term_index, *_list_strings(lists)]
        return split_row_lists(lang, row, page_starts, files)
    known = pages[numpy.minimum(numpy.searchsorted(pages, body_pages), len(pages) - 1)] == body_pages  # pages ascend
    if not known.all():
        raise ValueError(f"term {term!r}: body postings on pages without a page posting: {sorted(set(body_pages[~known].tolist()))[:5]}")
    head_pages = page_of(head_refs)
    in_head = numpy.zeros(len(pages), dtype=bool)
    at = numpy.minimum(numpy.searchsorted(pages, head_pages), len(pages) - 1)
    in_head[at[pages[at] == head_pages]] = True
    # Body postings in ref order: each page's are a slice, [first[k], end[k]).
    first = numpy.searchsorted(body_pages, pages, side="left")
    end = numpy.searchsorted(body_pages, pages, side="right")
    adds = (4 * (end - first) + 4 * ~in_head).tolist()  # split_row_lists' size of each page
    block_starts, size = [], contract.TERM_BLOCK_BYTES
    for k, add in enumerate(adds):
        if size >= contract.TERM_BLOCK_BYTES:
            block_starts.append(k)
            size = 0
        size += add
    # Each block's body postings: consecutive slices of them all (every one is on a page of the term's);
    # its page postings: those of its pages not in the head.
    body_strings = _strings_between(body_refs, body_weights, numpy.append(first[block_starts], len(body_refs)))
    outside = ~in_head
    page_strings = _strings_between(pages[outside], page_weights[outside],
                                    numpy.concatenate(([0], numpy.cumsum(outside)))[[*block_starts, len(pages)]])
    bodies = [dumps({"postings": pair}) for pair in zip(body_strings, page_strings)]
    name = contract.shard_name(contract.BLOCK_KIND, lang, digest(b"\0".join([term.encode(), *bodies]))).removesuffix(".json")
    for position, data in enumerate(bodies):
        files[contract.block_file_name(name, position)] = data
    firsts = [0, *pages[block_starts[1:]].tolist()]
    gaps = [b - a for a, b in zip([0, *firsts], firsts)]
    flat = lambda refs, weights: numpy.column_stack((refs, weights)).ravel().tolist()  # noqa: E731
    head = head_numbers(flat(title_refs, title_weights), flat(heading_refs, heading_weights),
                        flat(pages[in_head], page_weights[in_head]))
    return [term, term_index, "", "", "", base64_numbers(head), [name, base64_numbers(gaps), int(page_weights.max())]]


def head_numbers(title: list[int], heading: list[int], pages: list[int]) -> list[int]:
    """The numbers of a split row's head (format 8, ``contract``): its title,
    heading and page postings (``[ref, weight in thousandths, ...]``, in ref
    order, every title and heading ref on a page of ``pages``) by page, in
    columns, title postings as runs of consecutive refs of one weight."""
    numbers: list[int] = []
    positions = []
    for flat in (pages, title, heading):  # each list's distinct weights, increasing, as gaps
        table = sorted(set(flat[1::2]))
        numbers += [len(table), *(b - a for a, b in zip([0, *table], table))]
        positions.append({weight: i for i, weight in enumerate(table)})
    page_at, title_at, heading_at = positions
    gaps, weights, shapes, run_counts = [], [], [], []
    runs: list[list[int]] = []  # [gap of its first ref, its length less one, its weight's position]
    heading_gaps, heading_weights = [], []
    t = h = previous = 0
    for k in range(0, len(pages), 2):
        page = pages[k]
        end = pages[k + 2] if k + 2 < len(pages) else float("inf")
        gaps.append(page - previous)
        weights.append(page_at[pages[k + 1]])
        previous = last = page
        page_runs = len(runs)
        while t < len(title) and title[t] < end:
            ref, weight = title[t], title_at[title[t + 1]]
            if len(runs) > page_runs and last + 1 == ref and runs[-1][2] == weight:
                runs[-1][1] += 1
            else:
                runs.append([ref - last, 0, weight])
            last = ref
            t += 2
        if len(runs) > page_runs:
            run_counts.append(len(runs) - page_runs)
        last, count = page, 0
        while h < len(heading) and heading[h] < end:
            heading_gaps.append(heading[h] - last)
            heading_weights.append(heading_at[heading[h + 1]])
            last, count, h = heading[h], count + 1, h + 2
        shapes.append(2 * count + (len(runs) > page_runs))
    if t < len(title) or h < len(heading) or any(flat and flat[0] < pages[0] for flat in (title, heading)):
        raise ValueError("title or heading postings on a page without a page posting")
    return [*numbers, len(gaps), *gaps, *weights, *shapes, *run_counts,
            *(gap for gap, _, _ in runs), *(extra for _, extra, _ in runs), *(weight for _, _, weight in runs),
            *heading_gaps, *heading_weights]


def _list_strings(lists: list) -> list[str]:
    """``encoded``'s string of each ``(refs, weights)`` (numpy arrays, weights in thousandths), made at once."""
    import numpy

    bounds = numpy.concatenate(([0], numpy.cumsum([len(refs) for refs, _ in lists]))).astype(numpy.int64)
    if not bounds[-1]:
        return _strings_between(numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.int64), bounds)
    return _strings_between(numpy.concatenate([refs for refs, _ in lists]), numpy.concatenate([weights for _, weights in lists]), bounds)


def _strings_between(refs, weights, bounds) -> list[str]:
    """``encoded``'s string of each list ``refs[bounds[k]:bounds[k + 1]]`` with its weights (in thousandths)."""
    import numpy

    refs = numpy.asarray(refs, dtype=numpy.int64)
    bounds = numpy.asarray(bounds, dtype=numpy.int64)
    numbers = numpy.empty(2 * len(refs), dtype=numpy.int64)
    if len(numbers):
        gaps = refs.copy()
        gaps[1:] -= refs[:-1]
        firsts = bounds[:-1][bounds[:-1] < bounds[1:]]
        gaps[firsts] = refs[firsts]  # each list's first ref is written whole
        numbers[0::2] = gaps
        numbers[1::2] = weights
    return postings_strings(numbers, bounds)


def postings_arrays(text: str):
    """``(refs, weights in thousandths)`` of a postings string (``shards.decoded`` with numpy)."""
    import numpy

    table = None
    if text.startswith(contract.POSTING_TABLE_MARK):
        numbers = base64_array(text[1:])
        size = int(numbers[0])
        table, numbers = numbers[1:size + 1], numbers[size + 1:]
    else:
        numbers = base64_array(text)
    weights = numbers[1::2] if table is None else table[numbers[1::2]]
    return numpy.cumsum(numbers[0::2]), weights


def base64_array(text: str):
    """The numbers of a base-64 postings string as a numpy int array (``base64_numbers`` undone)."""
    import numpy

    values = _digit_values()[numpy.frombuffer(text.encode("ascii"), dtype=numpy.uint8)]
    if len(values) == 0:
        return values
    if values.min() < 0 or values[-1] >= 32:
        raise ValueError(f"not a postings string: {text[:40]!r}")
    last = numpy.flatnonzero(values < 32)  # a number's last digit: no continuation bit
    firsts = numpy.concatenate(([0], last[:-1] + 1))
    shift = 5 * (numpy.arange(len(values)) - numpy.repeat(firsts, last - firsts + 1))
    return numpy.add.reduceat((values & 31) << shift, firsts)


@functools.lru_cache(maxsize=1)
def _digit_values():
    import numpy

    values = numpy.full(256, -1, dtype=numpy.int64)
    values[numpy.frombuffer(contract.POSTING_DIGITS.encode("ascii"), dtype=numpy.uint8)] = numpy.arange(len(contract.POSTING_DIGITS))
    return values


def split_row_lists(lang: str, row: list, page_starts: list[int], files: dict[str, bytes]) -> list:
    """``split_row`` with lists, a posting at a time."""
    term, term_index, title, heading, body, pages = decoded(row)
    page_of = lambda ref: page_starts[bisect.bisect_right(page_starts, ref) - 1]  # noqa: E731
    in_head = {page_of(ref) for flat in (title, heading) for ref in flat[::2]}
    by_page: dict[int, list] = {}
    for ref, weight in zip(body[::2], body[1::2]):
        by_page.setdefault(page_of(ref), []).extend((ref, weight))
    blocks: list[tuple[int, list, list]] = []  # (first ref, body postings, page postings)
    size = contract.TERM_BLOCK_BYTES
    for page, weight in zip(pages[::2], pages[1::2]):
        if size >= contract.TERM_BLOCK_BYTES:
            blocks.append((page if blocks else 0, [], []))
            size = 0
        _, block_body, block_pages = blocks[-1]
        postings = by_page.pop(page, [])
        block_body.extend(postings)
        size += 2 * len(postings)  # ~4 characters a (ref gap, weight) pair
        if page not in in_head:
            block_pages.extend((page, weight))
            size += 4
    if by_page:
        raise ValueError(f"term {term!r}: body postings on pages without a page posting: {sorted(by_page)[:5]}")
    bodies = [dumps({"postings": encoded([term, term_index, block_body, block_pages])[2:]})
              for _, block_body, block_pages in blocks]
    name = contract.shard_name(contract.BLOCK_KIND, lang, digest(b"\0".join([term.encode(), *bodies]))).removesuffix(".json")
    for position, data in enumerate(bodies):
        files[contract.block_file_name(name, position)] = data
    firsts = [first for first, _, _ in blocks]
    gaps = [b - a for a, b in zip([0, *firsts], firsts)]
    thousandths = lambda flat: [round(x * 1000) if i % 2 else x for i, x in enumerate(flat)]  # noqa: E731
    head_pages = [x for page, weight in zip(pages[::2], pages[1::2]) if page in in_head for x in (page, weight)]
    head = head_numbers(thousandths(title), thousandths(heading), thousandths(head_pages))
    largest = max(round(weight * 1000) for weight in pages[1::2])
    return [term, term_index, "", "", "", base64_numbers(head), [name, base64_numbers(gaps), largest]]


def _term_files(lang: str, rows: Iterable[tuple[list, int]], files: dict[str, bytes]) -> list[list]:
    """Consecutive rows (encoded, with their ``_row_size``) into files of about ``TERMS_FILE_BYTES``,
    written as the rows come, then listed (``_term_lists``)."""
    listing = []
    for part in in_groups(rows, lambda item: item[1], contract.TERMS_FILE_BYTES):
        name = _add(files, lambda h: contract.shard_name(contract.TERMS_KIND, lang, h), {"terms": [row for row, _ in part]})
        listing.append([part[0][0][0], name])
    return _term_lists(lang, listing, files)


def _term_lists(lang: str, listing: list[list], files: dict[str, bytes]) -> list[list]:
    """The manifest's ``terms``: the term files' ``[first term, name]`` entries cut into lists."""
    size = lambda entry: len(entry[0].encode("utf-8")) + len(entry[1]) + 8  # noqa: E731
    return [[part[0][0], _add(files, lambda h: contract.shard_name(contract.TERM_LIST_KIND, lang, h), {"terms": part})]
            for part in in_groups(listing, size, contract.LISTING_FILE_BYTES)]


def _dictionary_files(lang: str, terms: list[str], files: dict[str, bytes]) -> dict:
    """The terms again, each in the file of its start and the file of its end
    among the files of its length (``contract``: the pigeonhole layout)."""
    by_length: dict[int, list[str]] = {}
    for term in sorted(terms, key=utf16_key):
        by_length.setdefault(len(term), []).append(term)
    buckets, bodies = [], {}
    for length, words in sorted(by_length.items()):
        count = -(-sum(len(word.encode("utf-8")) + 3 for word in words) // contract.DICTIONARY_FILE_BYTES)
        start, end = contract.dictionary_key_lengths(length)
        for kind, key in ((contract.DICTIONARY_BY_START, lambda w: w[:start]), (contract.DICTIONARY_BY_END, lambda w: w[-end:])):
            parts: list[list[str]] = [[] for _ in range(count)]
            for word in words:
                parts[contract.dictionary_key_hash(key(word)) % count].append(word)
            for bucket, part in enumerate(parts):
                bodies[(length, kind, bucket)] = dumps({"terms": part})
        buckets.append([length, count])
    name = contract.shard_name(contract.DICTIONARY_KIND, lang, digest(b"\0".join(bodies[key] for key in sorted(bodies))))
    name = name.removesuffix(".json")
    for (length, kind, bucket), body in bodies.items():
        files[contract.dictionary_file_name(name, length, kind, bucket)] = body
    return {"name": name, "buckets": buckets}


def _chunk_files(chunks: Sequence[Chunk], owners: Sequence[SearchPage], files: dict[str, bytes]) -> dict:
    """Documents, anchors, headings and texts of the chunks, a few refs per file (``ChunkFiles``)."""
    made = ChunkFiles(files)
    for ref in range(len(chunks)):
        made.append(owners[ref], chunks[ref])
    return made.finish()


class ChunkFiles:
    """The chunk files of one language, each group's made as soon as its refs are known.

    A ref's file follows from the ref and its group's chunk list
    (``shards.chunk_file``), so a result's file is asked for as soon as the
    ref is known; one digest names the files of a group of consecutive refs,
    one chunk list the digests of ``CHUNK_GROUPS_PER_LIST`` groups.  No group
    needs a later page: ``citesearch index`` makes them while its pages are
    still being read (``append_page``).
    """

    def __init__(self, files: MutableMapping[str, bytes]):
        self.files = files
        self.refs = 0  # chunks appended
        self.groups: list[str] = []  # each group's name
        self._pending: list[tuple[SearchPage, Chunk, int]] = []  # the chunks of the group not yet made, each with its bare count
        self._bare = BareHeadings()

    def append_page(self, page: SearchPage) -> None:
        """Each chunk of ``page`` that has text (the chunks the index has refs for, as ``spool.ChunkRefs``)."""
        for chunk in page.chunks:
            if chunk.text:
                self.append(page, chunk)

    def append(self, page: SearchPage, chunk: Chunk) -> None:
        """The next ref's chunk, on ``page``."""
        self._pending.append((page, chunk, self._bare.count(page, chunk.heading_path)))
        self.refs += 1
        if len(self._pending) == contract.CHUNKS_PER_FILE * contract.CHUNK_FILES_PER_GROUP:
            self._group()

    def finish(self) -> dict:
        """The last group's files and the chunk lists; the manifest's ``chunks``."""
        if self._pending:
            self._group()
        per_list = contract.CHUNK_GROUPS_PER_LIST
        groups = self.groups
        lists = [_add(self.files, lambda h: contract.chunk_list_name(h[: contract.HASH_LENGTH]), {"groups": groups[i : i + per_list]})
                 for i in range(0, len(groups), per_list)]
        return {"per_file": contract.CHUNKS_PER_FILE, "files_per_group": contract.CHUNK_FILES_PER_GROUP, "groups_per_list": per_list,
                "lists": [name.split(".")[-2] for name in lists]}

    def _group(self) -> None:
        per_file, pending = contract.CHUNKS_PER_FILE, self._pending
        group_first = self.refs - len(pending)
        bodies = []
        for at in range(0, len(pending), per_file):
            docs: dict[int, int] = {}  # id(page) -> position in this file's docs
            doc_rows, chunk_rows, bare_rows = [], [], []
            for row, (page, chunk, stands) in enumerate(pending[at:at + per_file]):
                if id(page) not in docs:
                    docs[id(page)] = len(doc_rows)
                    implied = page.url == page.doc_id + contract.PAGE_SUFFIX
                    doc_rows.append([page.doc_id, page.title] if implied else [page.doc_id, page.title, page.url])
                heading = list(chunk.heading_path)
                if heading and heading[0] == page.title:
                    heading[0] = 0  # the page's title, once in docs
                chunk_rows.append([docs[id(page)], chunk.anchor, heading, chunk.text])
                if stands:
                    bare_rows.append([row, stands])
            body = {"first": group_first + at, "docs": doc_rows, "chunks": chunk_rows}
            bodies.append(dumps({**body, "bare": bare_rows} if bare_rows else body))
        name = digest(b"\0".join(bodies))[: contract.HASH_LENGTH]
        for position, body in enumerate(bodies):
            self.files[contract.chunk_file_name(name, position)] = body
        self.groups.append(name)
        self._pending = []


def index_documents(pages: Sequence[ParsedDocument], default_lang: str, generator: dict,
                    into: MutableMapping[str, bytes | Path] | None = None) -> Mapping[str, bytes | Path]:
    """``build_search_files`` of parsed Markdown documents."""
    return build_search_files(search_pages(pages), default_lang, generator, into)


def build_search_files(pages: Sequence[SearchPage], default_lang: str, generator: dict,
                       into: MutableMapping[str, bytes | Path] | None = None, *,
                       chunk_files: ChunkFilesByLanguage | None = None) -> Mapping[str, bytes | Path]:
    """Every file of ``site/search/``, keyed by path relative to the site root.

    Each file is put into ``into`` as soon as it is made (a ``StagedSite``
    writes it to disk: a large site's search files are never all in memory);
    the files are returned as their mappings give them back.  Default: a new dict.
    ``chunk_files``: the chunk files of ``pages``, made as the pages came (where they
    were put stays theirs).
    """
    by_lang: dict[str, list[SearchPage]] = {}
    for page in pages:
        by_lang.setdefault(page.lang, []).append(page)
    if chunk_files is None:
        files = SearchFolder({} if into is None else into)
        shards = [build_shard(lang, by_lang[lang], files) for lang in sorted(by_lang)]
    else:
        files = chunk_files.folder
        files.into = {} if into is None else into  # the files not made yet
        shards = [build_shard(lang, by_lang[lang], files, chunk_files.languages[lang]) for lang in sorted(by_lang)]
    revision = hashlib.sha256()
    for name in sorted(files.names):
        revision.update(name.encode() + b"\0" + files.read(name))
    manifest = {
        "format": contract.FORMAT_VERSION,
        "revision": revision.hexdigest()[: contract.HASH_LENGTH],
        "generator": generator,
        "analyzer": {"name": analyzer.NAME, "version": analyzer.VERSION},
        "fields": list(contract.FIELDS),
        "default_lang": default_lang,
        "languages": {shard.lang: shard.entry for shard in shards},
    }
    files[contract.MANIFEST_NAME] = dumps(manifest)
    return files.written() if into is not None else dict(files.written())


class SearchFolder:
    """The search files as they are made: each put into the site at ``search/<name>`` at once, its name kept.

    ``into`` may change between files (``citesearch index`` writes its chunk files itself while pages are
    read, the others by a second process): each file is read back from where it was put.
    """

    def __init__(self, into: MutableMapping[str, bytes | Path]):
        self.into = into
        self.names: dict[str, Mapping[str, bytes | Path]] = {}  # name -> where it was put, in the order written

    def __setitem__(self, name: str, data: bytes) -> None:
        self.into[f"{contract.SEARCH_DIR}/{name}"] = data
        self.names[name] = self.into  # a name written again keeps its place

    def read(self, name: str) -> bytes:
        return read_bytes(self.names[name][f"{contract.SEARCH_DIR}/{name}"])

    def written(self) -> Mapping[str, bytes | Path]:
        """The files written, by site path, each read from its mapping when asked for (never all at once)."""
        return _Written({f"{contract.SEARCH_DIR}/{name}": into for name, into in self.names.items()})


class ChunkFilesByLanguage:
    """The chunk files of pages given one at a time (``add``), each language's as ``ChunkFiles``: made and put into
    ``into`` while later pages are still being read; ``build_search_files(chunk_files=...)`` makes the rest."""

    def __init__(self, into: MutableMapping[str, bytes | Path]):
        self.folder = SearchFolder(into)
        self.languages: dict[str, ChunkFiles] = {}

    def add(self, page: SearchPage) -> None:
        made = self.languages.get(page.lang)
        if made is None:
            made = self.languages[page.lang] = ChunkFiles(self.folder)
        made.append_page(page)


class _Written(Mapping):
    def __init__(self, paths: dict[str, Mapping[str, bytes | Path]]):
        self.paths = paths  # site path -> the mapping that holds it

    def __getitem__(self, path: str) -> bytes | Path:
        return self.paths[path][path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def read_bytes(data: bytes | Path) -> bytes:
    """A site file's bytes, whether it is held in memory or written to disk."""
    return data if isinstance(data, bytes) else data.read_bytes()
