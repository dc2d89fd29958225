"""What keeps a build's memory down must not change what it builds.

Chunks carry term counts, not term lists; parse workers send back only what
parsing adds, with terms shared between chunks; pages go to disk as they are
rendered.
"""

from __future__ import annotations

import string
from array import array
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citesearch import build
from citesearch.cache import search_cache
from citesearch.config import Config
from citesearch.engine import analyzer
from citesearch.model import Document
from citesearch.pipeline import lunr_index, parse, workers
from citesearch.pipeline.load import load_documents
from citesearch.pipeline.lunr_index import chunk_counts, counted, field_counts, packed, term_rows_from_counts, unpacked
from conftest import BASIC_SITE
from index_support import field_terms

_text = st.one_of(st.text(alphabet=string.ascii_letters + " .-_", max_size=80), st.text(max_size=40))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab", "é", "\U0001f600", "x1"]), max_size=20))
def test_counts_are_the_term_lists_counts_in_first_seen_order(terms):
    distinct, numbers = counted(terms)
    assert list(distinct) == list(dict.fromkeys(terms))
    assert dict(zip(distinct, numbers)) == Counter(terms)
    assert sum(numbers) == len(terms)  # the field length lunr weighs with


@settings(max_examples=300, deadline=None)
@given(_text, _text, _text)
def test_a_chunks_counts_are_those_of_its_analysed_terms(title, heading, text):
    expected = tuple(counted(terms) for terms in field_terms(title, heading, text))
    assert field_counts(title, heading, text) == expected
    assert field_counts(title, heading, text, cache_text=False) == expected
    assert expected[2] == counted(analyzer.analyze(text))


_terms = st.lists(st.sampled_from(["a", "b", "ab", "z", "é", "\uff5e", "\U0001f600", "data", "x1"]), max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_terms, _terms, _terms), min_size=1, max_size=30))
def test_weights_without_numpy_are_those_with_numpy(documents):
    counts = [tuple(map(counted, document)) for document in documents]
    expected = term_rows_from_counts(counts, numpy_from=10**9)
    assert term_rows_from_counts(counts, numpy_from=0) == expected
    batch = lunr_index._BATCH
    lunr_index._BATCH = 3  # many batches, some terms longer than one
    try:
        assert term_rows_from_counts(counts, numpy_from=0) == expected
    finally:
        lunr_index._BATCH = batch


def _parsed(monkeypatch, parallel: bool):
    config = Config(lang="en")
    documents = load_documents(BASIC_SITE, config).documents
    parser = parse.Parser(config, {d.rel_path: d.url for d in documents})
    monkeypatch.setattr(parse, "PARALLEL_MIN_DOCUMENTS", 1 if parallel else 10**9)
    monkeypatch.setattr(parse.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 1)  # other tests' servers
    return documents, parser.parse_many(documents)


def test_pages_from_workers_equal_pages_parsed_here_and_share_their_terms(monkeypatch):
    _, here = _parsed(monkeypatch, parallel=False)
    documents, forked = _parsed(monkeypatch, parallel=True)
    assert forked == here
    assert [[chunk_counts(c) for c in p.chunks] for p in forked] == [[c.terms for c in p.chunks] for p in here]
    assert all(isinstance(c.terms, array) for p in forked for c in p.chunks), "packed: no tuple per field"
    assert all(page.doc is doc for page, doc in zip(forked, documents)), "the parent's own Documents, not copies"
    seen: dict[str, str] = {}
    for page in forked:
        for chunk in page.chunks:
            for terms, _ in chunk_counts(chunk):
                for term in terms:
                    assert seen.setdefault(term, term) is term, f"{term!r} is held twice"


def test_a_page_that_fails_to_render_leaves_the_old_site_and_no_temporary_folder(tmp_path: Path, monkeypatch):
    from citesearch.pipeline import render

    out = tmp_path / "site"
    build(BASIC_SITE, out)
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    real_page, rendered = render.Renderer.page, []

    def failing_page(self, page, nav):
        if rendered:  # the first page is already on disk in the temporary folder
            raise MemoryError("out of memory while rendering")
        rendered.append(page)
        return real_page(self, page, nav)

    monkeypatch.setattr(render.Renderer, "page", failing_page)
    with pytest.raises(MemoryError):
        build(BASIC_SITE, out, no_cache=True)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []


def test_the_summary_counts_the_search_files_written_to_disk(tmp_path: Path):
    result = build(BASIC_SITE, tmp_path / "site")
    on_disk = sum(p.stat().st_size for p in (tmp_path / "site" / "search").rglob("*") if p.is_file())
    assert result.index_bytes == on_disk > 0
    assert result.files == sum(1 for p in (tmp_path / "site").rglob("*") if p.is_file()) - 1  # the marker


def test_a_worker_sends_back_no_document(monkeypatch):
    documents, _ = _parsed(monkeypatch, parallel=False)
    monkeypatch.setattr(parse, "_worker_parser", parse.Parser(Config(lang="en"), {d.rel_path: d.url for d in documents}))
    monkeypatch.setattr(parse, "_worker_documents", documents)
    fields = parse._parse_in_worker(0)  # what goes back through the pipe
    assert not any(isinstance(value, Document) or value == documents[0].body for value in fields)


_names = st.text(min_size=1, max_size=12)
_datas = st.binary(max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_names, _datas, max_size=6))
def test_the_search_memo_gives_back_every_file_it_was_given_each_read_alone(files):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        search_cache.save(Path(folder), "k" * 64, files)
        stored = search_cache.load(Path(folder), "k" * 64)
        assert dict(stored.items()) == files
        assert {name: stored[name] for name in reversed(list(stored))} == files
        assert search_cache.load(Path(folder), "j" * 64) is None


def test_files_loaded_from_a_memo_are_those_of_that_memo_after_another_save(tmp_path):
    """A build sharing the cache may save a new memo between another's load and its reads."""
    search_cache.save(tmp_path, "a" * 64, {"search/x.json": b"old", "search/y.json": b"old too"})
    stored = search_cache.load(tmp_path, "a" * 64)
    search_cache.save(tmp_path, "b" * 64, {"search/x.json": b"a much longer new text", "search/y.json": b"new"})
    assert dict(stored) == {"search/x.json": b"old", "search/y.json": b"old too"}


def test_a_rebuild_from_the_search_memo_holds_one_search_file_at_a_time(tmp_path):
    """The memo of a large site is hundreds of MB: the reused files go into the site one by one."""
    import tracemalloc

    files = {f"search/f{n}.json": bytes([n % 251]) * 200_000 for n in range(60)}  # 12 MB
    search_cache.save(tmp_path, "k" * 64, files)
    written: dict[str, int] = {}
    tracemalloc.start()
    try:
        for name, data in search_cache.load(tmp_path, "k" * 64).items():
            written[name] = len(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written == {name: len(data) for name, data in files.items()}
    assert peak < 2_000_000, peak


@pytest.fixture
def render_in_child(monkeypatch):
    """Builds of any size render their pages in a forked process, beside the search files."""
    from citesearch.pipeline import write

    monkeypatch.setattr(parse, "PARALLEL_MIN_DOCUMENTS", 1)
    monkeypatch.setattr(parse.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 1)  # other tests' servers
    forks = []
    real = write.StagedSite.fill_in_child
    monkeypatch.setattr(write.StagedSite, "fill_in_child", lambda self, fill: forks.append(1) or real(self, fill))
    return forks


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_pages_rendered_in_a_child_process_give_the_same_site(tmp_path: Path, render_in_child):
    alone = build(BASIC_SITE, tmp_path / "one", no_cache=True)
    assert render_in_child, "the pages were rendered in a forked process"
    render_in_child.clear()
    import citesearch.pipeline.parse

    with pytest.MonkeyPatch.context() as serial:
        serial.setattr(citesearch.pipeline.parse, "PARALLEL_MIN_DOCUMENTS", 10**9)
        here = build(BASIC_SITE, tmp_path / "two", no_cache=True)
    assert not render_in_child
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")
    assert (alone.files, alone.index_bytes) == (here.files, here.index_bytes)


def test_a_template_error_in_the_rendering_process_is_the_same_content_error(tmp_path: Path, render_in_child):
    import shutil

    from citesearch import ContentError
    from citesearch.pipeline.render import theme_dir

    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    (theme / "templates" / "page.html").write_text("<html>\n\n{{ no_such_variable }}\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        build(BASIC_SITE, tmp_path / "site", theme=theme, no_cache=True)
    assert render_in_child
    assert [str(p) for p in caught.value.problems] == [f"{theme}/templates/page.html:3: template error: 'no_such_variable' is undefined"]
    assert [p.name for p in tmp_path.iterdir()] == ["theme"] or sorted(p.name for p in tmp_path.iterdir()) == ["site.cache", "theme"]


def test_a_disk_failing_under_the_rendering_process_is_one_message_and_no_site(tmp_path: Path, render_in_child, monkeypatch):
    import errno
    import os

    from citesearch import UsageError
    from citesearch.pipeline import write as write_module

    real_write = write_module._write_file  # how StagedSite writes a file's bytes

    def write_file(path, data):
        if os.path.basename(path) == "404.html":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(path, data)

    monkeypatch.setattr(write_module, "_write_file", write_file)
    with pytest.raises(UsageError, match="cannot write the site to .*site: No space left on device; nothing was replaced"):
        build(BASIC_SITE, tmp_path / "site", no_cache=True)
    assert render_in_child
    assert not (tmp_path / "site").exists() and not list(tmp_path.glob(".site.*"))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_terms, _terms, _terms), min_size=1, max_size=30), st.data())
def test_rows_made_batch_by_batch_are_the_rows_made_at_once_page_postings_too(documents, data):
    """Streamed rows (numpy, small batches) end with exactly ``page_postings``'s page-level postings."""
    starts = sorted({0, *data.draw(st.sets(st.integers(0, len(documents) - 1)))})
    page_of = [max(s for s in starts if s <= i) for i in range(len(documents))]
    documents = [(documents[page_of[i]][0], *document[1:]) for i, document in enumerate(documents)]  # one title a page
    assume(any(terms for document in documents for terms in document))  # else no average page length
    counts = [tuple(map(counted, document)) for document in documents]
    whole = [row for batch in lunr_index.term_row_batches(counts, starts, numpy_from=10**9) for row in batch]
    by_page = lunr_index.page_postings(lunr_index._pages(counts, starts))
    assert [row[:-1] for row in whole] == term_rows_from_counts(counts, numpy_from=10**9)
    assert [row[-1] for row in whole] == [by_page[row[0]] for row in whole]
    batch = lunr_index._BATCH
    lunr_index._BATCH = data.draw(st.integers(1, 8))
    try:
        batches = list(lunr_index.term_row_batches(counts, starts, numpy_from=0))
    finally:
        lunr_index._BATCH = batch
    assert [row for rows in batches for row in rows] == whole


def test_term_rows_go_into_their_files_before_the_last_rows_are_made(monkeypatch):
    """The index writes each term file as its rows come: a large site's rows are never all in memory.

    Same files whether the rows come in one batch or term range by term range.
    """
    from citesearch.engine import contract
    from citesearch.pipeline import index

    _, pages = _parsed(monkeypatch, parallel=False)
    monkeypatch.setattr(lunr_index, "NUMPY_MIN_POSTINGS", 0)
    monkeypatch.setattr(contract, "TERMS_FILE_BYTES", 400)  # several term files
    at_once = index.index_documents(pages, "en", {"name": "test"})
    events: list[str] = []
    real_batches, real_add = index.term_row_batches, index._add

    def batches(*args, **kwargs):
        for batch in real_batches(*args, **kwargs):
            events.append("rows")
            yield batch

    def add(files, name_of, data):
        events.append("terms file" if "terms" in data and isinstance(data["terms"][0], list) else "file")
        return real_add(files, name_of, data)

    monkeypatch.setattr(lunr_index, "_BATCH", 16)
    monkeypatch.setattr(index, "term_row_batches", batches)
    monkeypatch.setattr(index, "_add", add)
    streamed = index.index_documents(pages, "en", {"name": "test"})
    assert streamed == at_once
    assert events.count("rows") > 3 and events.count("terms file") > 3
    assert events.index("terms file") < len(events) - 1 - events[::-1].index("rows"), "a term file before the last rows"


@settings(max_examples=200, deadline=None)
@given(st.tuples(_terms, _terms, _terms))
def test_packed_counts_unpack_to_the_same_counts(document):
    counts = tuple(map(counted, document))
    assert unpacked(packed(counts)) == counts


def test_a_build_keeps_each_pages_html_and_chunks_on_disk_from_its_parse_on(tmp_path: Path, monkeypatch):
    """Parse results are spooled as they are received; the site is the one made from pages held in memory."""
    from citesearch.config import load_config
    from citesearch.pipeline import spool
    from citesearch.pipeline.build import assemble
    from citesearch.pipeline.output_folder import MARKER_NAME

    kept = []
    real_put = spool.PageSpool.put
    monkeypatch.setattr(spool.PageSpool, "put", lambda self, page: kept.append(real_put(self, page)) or kept[-1])
    result = build(BASIC_SITE, tmp_path / "site", no_cache=True)
    assert len(kept) == result.documents > 3
    assert all(page.html == "" and isinstance(page.chunks, spool.SpooledChunks) for page in kept)
    assert sum(len(page.chunks) for page in kept) == result.chunks
    kept.clear()
    in_memory = assemble(BASIC_SITE, load_config(BASIC_SITE))  # serve's way: a dict, no spool
    assert not kept
    built = _tree(tmp_path / "site")
    built.pop(MARKER_NAME)
    assert built == {path: data if isinstance(data, bytes) else data.read_bytes() for path, data in in_memory.files.items()}


def test_the_index_reads_spooled_chunks_a_page_at_a_time(monkeypatch):
    """``ChunkRefs`` keeps two ints a ref: each pass over the refs reads each page's chunks once, when it comes."""
    from citesearch.pipeline import index, spool

    _, pages = _parsed(monkeypatch, parallel=False)
    with spool.PageSpool() as pages_spool:
        spooled = [pages_spool.put(page) for page in pages]
        loads: list[int] = []
        real_load = spool.SpooledChunks.load
        monkeypatch.setattr(spool.SpooledChunks, "load", lambda self: loads.append(id(self)) or real_load(self))
        refs = spool.ChunkRefs(spooled)
        with_text = [(page, chunk) for page in pages for chunk in page.chunks if chunk.text]
        read = [id(mine.chunks) for mine, page in zip(spooled, pages) if any(c.text for c in page.chunks)]
        loads.clear()
        for _ in range(2):
            assert list(refs) == [chunk for _, chunk in with_text]
        assert loads == read + read, "each page read once a pass, in order: never all held"
        assert [refs.owners[ref].doc.id for ref in range(len(refs))] == [page.doc.id for page, _ in with_text]
        assert refs.page_starts() == [r for r in range(len(with_text)) if not r or with_text[r - 1][0] is not with_text[r][0]]
        generator = {"name": "test"}
        assert index.index_documents(spooled, "en", generator) == index.index_documents(pages, "en", generator)


def test_search_files_go_into_the_staged_site_as_they_are_made(tmp_path: Path, monkeypatch):
    """No search file waits in memory for the others: the index returns their paths, the bytes are the same."""
    from citesearch.engine import contract
    from citesearch.pipeline import index, write

    _, pages = _parsed(monkeypatch, parallel=False)
    generator = {"name": "test"}
    in_memory = index.index_documents(pages, "en", generator)
    order: list[str] = []
    real_set = write.StagedSite.__setitem__
    monkeypatch.setattr(write.StagedSite, "__setitem__", lambda self, rel, data: order.append(rel) or real_set(self, rel, data))
    with write.StagedSite(tmp_path / "site") as site:
        written = index.index_documents(pages, "en", generator, site)
        assert all(isinstance(path, Path) and path.is_file() for path in written.values())
        assert {rel: path.read_bytes() for rel, path in written.items()} == in_memory
    assert sorted(order) == sorted(in_memory) and order[-1] == f"{contract.SEARCH_DIR}/{contract.MANIFEST_NAME}"


def test_check_counts_the_same_search_bytes_as_build(tmp_path: Path):
    from citesearch.pipeline.build import check

    built = build(BASIC_SITE, tmp_path / "site", no_cache=True)
    checked = check(BASIC_SITE, cache_dir=tmp_path / "check-cache")
    assert (checked.index_bytes, checked.files, checked.chunks) == (built.index_bytes, built.files, built.chunks)


def test_the_cache_opens_without_html_or_chunks_and_reads_a_reused_row_when_it_is_reused(tmp_path: Path, monkeypatch):
    from citesearch.cache import for_output, store

    out = tmp_path / "site"
    build(BASIC_SITE, out)
    first = _tree(out)
    opened = store.Store(for_output(out) / store.DATABASE)
    try:
        assert opened.rows and all(row.metadata is None and row.html is None and not row.chunks
                                   for row in opened.rows.values())
    finally:
        opened.close()
    reads: list[str] = []
    real_read = store.Store.with_content
    monkeypatch.setattr(store.Store, "with_content", lambda self, doc_id, row: reads.append(doc_id) or real_read(self, doc_id, row))
    again = build(BASIC_SITE, out)
    assert again.changes.parsed == 0 and sorted(reads) == sorted(set(reads)) and len(reads) == again.documents
    assert _tree(out) == first


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**24 - 1), st.integers(1, 200_000)), max_size=12, unique_by=lambda p: p[0]),
       st.integers(0, 2**24 - 1))
def test_a_posting_packed_in_one_key_gives_back_its_term_document_and_count(postings, ref):
    """Postings are 8-byte keys (term, document, count); a count too large for its 16 bits is kept apart, exactly."""
    field = lunr_index._FieldPostings(ref + 1)
    field.add(ref, [t for t, _ in postings], [n for _, n in postings])
    assert list(field.postings()) == [(t, ref, n) for t, n in postings]
    assert field.lengths[ref] == sum(n for _, n in postings)


def test_counts_beyond_a_keys_16_bits_weigh_the_same_with_and_without_numpy():
    documents = [(counted(["t"]), counted([]), counted(["a"] * 70_000 + ["b"] * 65_535 + ["c"])),
                 (counted(["t"]), counted(["h"]), counted(["a", "c"]))] * 3
    expected = term_rows_from_counts(documents, numpy_from=10**9)
    assert term_rows_from_counts(documents, numpy_from=0) == expected
    assert [row[0] for row in expected] == ["a", "b", "c", "h", "t"]
