"""The search files' term rows made whole with numpy are the rows made a number at a time.

Sites of ``index.NUMPY_MIN_CHUNKS`` chunks or more weigh and encode their term
rows with numpy (``lunr_index.weighed_batches``, ``index.encoded_batch``);
smaller ones keep the Python path (``term_row_batches``, ``_apply_boosts``,
``encoded``).  Both must write the very same bytes, boosts and page-level
postings included, whatever the sizes of the batches and of the blocks of pages.
"""

from __future__ import annotations

import numpy
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citesearch.engine import contract
from citesearch.model import Chunk
from citesearch.pipeline import index, lunr_index
from citesearch.pipeline.index import SearchPage, build_search_files
from citesearch.pipeline.lunr_index import counted

_terms = st.lists(st.sampled_from(["a", "b", "ab", "z", "é", "\uff5e", "\U0001f600", "data", "x1", "zz" * 20]), max_size=30)
_boosts = st.sampled_from([1.0, 1.0, 2.0, 0.5, 1.7, 3.333])


def _pages(draw_pages) -> list[SearchPage]:
    pages = []
    for p, (title, boost, chunks) in enumerate(draw_pages):
        made = tuple(
            Chunk(f"p{p}", f"c{c}", (f"t{p}", f"h{c % 2}"), f"text {c}", "en", terms=(counted(title), counted(heading), counted(body)))
            for c, (heading, body) in enumerate(chunks)
        )
        pages.append(SearchPage(f"p{p}", f"p{p}.html", f"t{p}", "en", made, boost))
    return pages


def _both_ways(monkeypatch, pages, batch: int) -> tuple[dict, dict]:
    monkeypatch.setattr(index, "NUMPY_MIN_CHUNKS", 10**9)
    one_at_a_time = build_search_files(pages, "en", {"name": "test"})
    monkeypatch.setattr(index, "NUMPY_MIN_CHUNKS", 0)
    monkeypatch.setattr(lunr_index, "_BATCH", batch)
    return one_at_a_time, build_search_files(pages, "en", {"name": "test"})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_terms, _boosts, st.lists(st.tuples(_terms, _terms), min_size=1, max_size=6)), min_size=1, max_size=8),
       st.integers(1, 40), st.integers(1, 60), st.integers(1, 6), st.integers(8, 300))
def test_term_files_made_with_numpy_are_those_made_a_number_at_a_time(drawn, batch, block, table_min, split):
    pages = _pages(drawn)
    assume(any(terms for page in pages for chunk in page.chunks for terms, _ in chunk.terms))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(contract, "TERMS_FILE_BYTES", 300)  # several term files: their cuts must agree too
        monkeypatch.setattr(lunr_index, "_PAGE_BLOCK_POSTINGS", block)  # page-level counts summed in blocks of pages
        monkeypatch.setattr(contract, "POSTING_TABLE_MIN", table_min)  # format 6's weight tables on short lists too
        # Rows split: the numpy rows decide by their numbers (``index._sure_to_split``), the others by their strings.
        monkeypatch.setattr(contract, "TERM_SPLIT_BYTES", split)
        python, with_numpy = _both_ways(monkeypatch, pages, batch)
    assert with_numpy == python


def test_a_site_of_many_chunks_takes_the_numpy_path_with_large_numbers_and_boosts(monkeypatch):
    """Gaps and weights of several base-64 digits, boosted pages among plain ones, term files cut the same."""
    words = [f"w{i}" for i in range(400)]
    pages = _pages([
        ([words[p % 7]], [1.0, 2.5, 1.0, 0.3][p % 4],
         [([words[(p + c) % 11]], [words[(p * c + k) % 400] for k in range(p % 9 + c)] * (1 + c % 3)) for c in range(5)])
        for p in range(120)
    ])
    assert sum(len(page.chunks) for page in pages) >= index.NUMPY_MIN_CHUNKS
    used: list[int] = []
    real = index.encoded_batch
    monkeypatch.setattr(index, "encoded_batch", lambda *args: used.append(1) or real(*args))
    assert build_search_files(pages, "en", {"name": "test"}) == _both_ways(monkeypatch, pages, 1 << 16)[0]
    assert used, "the numpy path was not taken"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_terms, _boosts, st.lists(st.tuples(_terms, _terms), min_size=1, max_size=6)), min_size=1, max_size=8),
       st.integers(8, 200), st.integers(4, 80), st.integers(1, 6), st.booleans())
def test_split_term_rows_made_with_numpy_are_those_made_with_lists(drawn, split, block, table_min, numpy_rows):
    """``split_row`` (numpy, from the row's strings) and ``split_postings`` (numpy, from the numpy rows' numbers,
    the rows sure to be split never encoded whole) write the rows and blocks ``split_row_lists`` writes,
    whatever the split and block sizes, weight tables on short lists too, boosted pages among plain ones."""
    pages = _pages(drawn)
    assume(any(terms for page in pages for chunk in page.chunks for terms, _ in chunk.terms))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(contract, "TERM_SPLIT_BYTES", split)
        monkeypatch.setattr(contract, "TERM_BLOCK_BYTES", block)
        monkeypatch.setattr(contract, "POSTING_TABLE_MIN", table_min)
        monkeypatch.setattr(index, "NUMPY_MIN_CHUNKS", 0 if numpy_rows else 10**9)
        calls: list[int] = []
        real_row, real_postings = index.split_row, index.split_postings
        monkeypatch.setattr(index, "split_row", lambda *args: calls.append(1) or real_row(*args))
        monkeypatch.setattr(index, "split_postings", lambda *args, **named: calls.append(1) or real_postings(*args, **named))
        with_numpy = build_search_files(pages, "en", {"name": "test"})
        monkeypatch.setattr(index, "split_row", index.split_row_lists)
        monkeypatch.setattr(index, "split_postings", lambda lang, term, term_index, lists, page_starts, files: index.split_row_lists(
            lang, [term, term_index, *index._list_strings(lists)], page_starts, files))
        with_lists = build_search_files(pages, "en", {"name": "test"})
    assert with_numpy == with_lists
    assume(calls)  # a row was split


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**40), max_size=40))
def test_base64_array_reads_what_base64_numbers_writes(numbers):
    assert index.base64_array(index.base64_numbers(numbers)).tolist() == numbers


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40_000_000), max_size=12), min_size=1, max_size=8))
def test_base64_strings_are_base64_numbers_of_each_list(lists):
    numbers = numpy.array([n for flat in lists for n in flat], dtype=numpy.int64)
    bounds = numpy.cumsum([0, *map(len, lists)])
    assert index.base64_strings(numbers, bounds) == [index.base64_numbers(flat) for flat in lists]


def test_a_negative_posting_number_is_refused_by_both_encoders():
    with pytest.raises(ValueError, match="never negative"):
        index.base64_strings(numpy.array([3, -1], dtype=numpy.int64), numpy.array([0, 2]))
    with pytest.raises(ValueError, match="never negative"):
        index.base64_numbers([3, -1])


_field = st.lists(st.tuples(st.sampled_from(["a", "b", "ab", "é", "\U0001f600", "data", "x1", "zz" * 20]),
                            st.sampled_from([1, 2, 7, 65_534, 65_535, 70_000])), max_size=6, unique_by=lambda pair: pair[0])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.tuples(_field, _field, _field)), min_size=1, max_size=30), st.integers(1, 8))
def test_postings_read_from_packed_counts_with_numpy_are_those_read_term_by_term(drawn, block):
    """``_packed_field_postings`` (numpy, blocks of chunks) gives the keys, large counts, lengths and term
    numbers of ``_field_postings``: chunks with packed counts (as from the readers) or plain tuples, in any mix,
    counts from 65,535 on kept apart."""
    chunks = []
    for n, (pack, fields) in enumerate(drawn):
        counts = tuple((tuple(term for term, _ in field), tuple(count for _, count in field)) for field in fields)
        chunks.append(Chunk("p", f"c{n}", ("t",), "text", "en", terms=lunr_index.packed(counts) if pack else counts))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(lunr_index, "_PACKED_BLOCK", block)
        fields, term_index = lunr_index._packed_field_postings(chunks)
    expected, expected_index = lunr_index._field_postings(lunr_index.ChunkCounts(chunks))
    assert term_index == expected_index
    assert list(term_index) == list(expected_index)  # first-seen order: lunr.py's term numbers
    for field, wanted in zip(fields, expected):
        assert list(field.keys) == list(wanted.keys)
        assert field.large == wanted.large
        assert list(field.lengths) == list(wanted.lengths)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_field, _field, _field), min_size=1, max_size=6), st.lists(st.sampled_from(["b", "data", "new"]), max_size=3))
def test_counts_packed_in_a_pages_own_numbers_renumber_to_this_processs(chunks, known):
    """What a reader sends (``packed`` in the page's vocabulary) becomes, renumbered, what ``packed`` makes here."""
    lunr_index.numbered(known)  # terms this process numbered before the page came
    vocabulary: dict[str, int] = {}
    counts = [tuple((tuple(t for t, _ in field), tuple(n for _, n in field)) for field in fields) for fields in chunks]
    sent = [lunr_index.packed(c, vocabulary) for c in counts]
    numbers = lunr_index.numbered(tuple(vocabulary))
    for data, c in zip(sent, counts):
        assert lunr_index.renumbered(data, numbers) == lunr_index.packed(c)
        assert lunr_index.unpacked(lunr_index.renumbered(data, numbers)) == c
