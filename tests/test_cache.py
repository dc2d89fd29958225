"""The build cache: only what changed is parsed again, a stale or damaged cache is never trusted,
the cache lives outside the content, and nothing the cache does can fail a build."""

from __future__ import annotations

import ast
import dataclasses
import errno
import filecmp
import importlib
import importlib.util
import json
import pathlib
import pkgutil
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citesearch
from citesearch import build, load_config
from citesearch.cache import LEGACY_DIR, codec, for_output, keys, search_cache, store
from citesearch.engine import analyzer
from citesearch.markdown_ext import chunk
from citesearch.model import Chunk, Document
from citesearch.pipeline import index
from citesearch.pipeline.parse import Parser
from citesearch.pipeline.render import theme_dir
from citesearch.serve import Preview

from conftest import BASIC_SITE

DOCUMENTS = 5  # index, guide/install, guide/usage, ru/index, zh/index (the draft is editor-only)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The basic fixture site without any cache an older version left inside it."""
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target, ignore=shutil.ignore_patterns(LEGACY_DIR))
    return target


def database(site: Path) -> Path:
    return for_output(site) / store.DATABASE


def cached_rows(db_path: Path) -> dict[str, list[str]]:
    """doc id -> its chunk ids, straight from the cache database."""
    with sqlite3.connect(db_path) as db:
        docs = {doc_id: [] for (doc_id,) in db.execute("SELECT id FROM documents")}
        for doc_id, chunk_id in db.execute("SELECT doc_id, chunk_id FROM chunks ORDER BY doc_id, position"):
            docs[doc_id].append(chunk_id)
    db.close()
    return docs


def search_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((site / "search").rglob("*.json")))


def same_tree(a: Path, b: Path) -> bool:
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(a / d, b / d) for d in compared.common_dirs)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for a folder)."""
    return {
        p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.rglob("*"))
    }


def cache_warnings(result) -> list[str]:
    return [str(w) for w in result.warnings if "cache" in w.message]


# --- reuse and invalidation ----------------------------------------------------


def test_first_build_parses_everything_and_a_second_build_nothing(content, tmp_path):
    first = build(content, tmp_path / "site")
    assert (first.changes.added, first.changes.parsed) == (DOCUMENTS, DOCUMENTS)
    second = build(content, tmp_path / "site")
    assert (second.changes.unchanged, second.changes.parsed) == (DOCUMENTS, 0)
    assert set(cached_rows(database(tmp_path / "site"))) == {"index", "guide/install", "guide/usage", "ru/index", "zh/index"}


def test_a_site_built_from_the_cache_is_byte_identical_to_a_fresh_build(content, tmp_path):
    build(content, tmp_path / "warm")
    from_cache = build(content, tmp_path / "warm")
    assert from_cache.changes.parsed == 0
    fresh = build(content, tmp_path / "fresh", no_cache=True)
    assert fresh.changes.parsed == DOCUMENTS
    assert same_tree(tmp_path / "warm", tmp_path / "fresh")


def test_editing_one_document_reparses_only_that_document(content, tmp_path):
    build(content, tmp_path / "site")
    usage = content / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA freshly written zeppelinsentence.\n", encoding="utf-8")
    result = build(content, tmp_path / "site")
    c = result.changes
    assert (c.added, c.changed, c.removed, c.unchanged, c.parsed) == (0, 1, 0, DOCUMENTS - 1, 1)
    assert "zeppelinsentence" in (tmp_path / "site" / "guide" / "usage.html").read_text(encoding="utf-8")
    assert "zeppelinsentence" in search_text(tmp_path / "site")


def test_deleting_a_document_removes_its_page_chunks_and_index_entries(content, tmp_path):
    site = tmp_path / "site"
    build(content, site)
    assert cached_rows(database(site))["guide/usage"], "the fixture document has chunks"
    assert "guide/usage" in search_text(site)
    (content / "guide" / "usage.md").unlink()
    result = build(content, site)
    # guide/install links to the deleted page: its link is no longer rewritten, so it is parsed again.
    assert (result.changes.removed, result.changes.parsed) == (1, 1)
    assert not (site / "guide" / "usage.html").exists()
    assert "guide/usage" not in search_text(site)
    assert "guide/usage" not in cached_rows(database(site))
    with sqlite3.connect(database(site)) as db:
        assert db.execute("SELECT count(*) FROM chunks WHERE doc_id = ?", ("guide/usage",)).fetchone()[0] == 0
    db.close()


def test_an_editor_only_document_keeps_its_cache_row_through_a_public_build(content, tmp_path):
    shared = tmp_path / "shared.cache"
    build(content, tmp_path / "editor", role="editor", cache_dir=shared)
    assert "drafts/secret" in cached_rows(shared / store.DATABASE)
    public = build(content, tmp_path / "public", cache_dir=shared)
    assert public.changes.removed == 0
    assert "drafts/secret" in cached_rows(shared / store.DATABASE)
    again = build(content, tmp_path / "editor", role="editor", cache_dir=shared)
    assert again.changes.parsed == 0


def test_a_document_whose_link_target_moved_is_parsed_again(content, tmp_path):
    site = tmp_path / "site"
    build(content, site)
    assert 'href="usage.html"' in (site / "guide" / "install.html").read_text(encoding="utf-8")
    usage = content / "guide" / "usage.md"
    text = usage.read_text(encoding="utf-8")
    front = "---\nid: guide/how-to-use\n" + (text[4:] if text.startswith("---\n") else "---\n" + text)
    usage.write_text(front, encoding="utf-8")
    result = build(content, site)
    # usage.md changed; install.md did not, but its link to usage.md now has another URL.
    assert result.changes.parsed >= 2
    assert 'href="how-to-use.html"' in (site / "guide" / "install.html").read_text(encoding="utf-8")
    assert "guide/usage" not in cached_rows(database(site))


def test_a_new_chunker_version_invalidates_every_document(content, tmp_path, monkeypatch):
    build(content, tmp_path / "site")
    monkeypatch.setattr(chunk, "CHUNKER_VERSION", chunk.CHUNKER_VERSION + "-next")
    assert build(content, tmp_path / "site").changes.parsed == DOCUMENTS
    assert build(content, tmp_path / "site").changes.parsed == 0


def test_a_new_analyzer_version_rebuilds_the_index_but_parses_nothing(content, tmp_path, monkeypatch):
    build(content, tmp_path / "site")
    calls = []
    real = index.build_search_files
    monkeypatch.setattr(index, "build_search_files", lambda *args: calls.append(1) or real(*args))
    monkeypatch.setattr(analyzer, "VERSION", analyzer.VERSION + "-next")
    result = build(content, tmp_path / "site")
    assert (result.changes.parsed, len(calls)) == (0, 1)
    manifest = json.loads((tmp_path / "site" / "search" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["analyzer"]["version"] == analyzer.VERSION


def test_a_theme_or_css_edit_reparses_no_document(content, tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    site = tmp_path / "site"
    build(content, site, theme=theme)
    css = theme / "static" / "site.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.a-new-rule { color: red }\n", encoding="utf-8")
    template = theme / "templates" / "base.html"
    template.write_text(template.read_text(encoding="utf-8") + "<!-- a new comment -->\n", encoding="utf-8")
    result = build(content, site, theme=theme)
    assert (result.changes.unchanged, result.changes.parsed) == (DOCUMENTS, 0)
    assert ".a-new-rule{color:red}" in (site / "assets" / "site.css").read_text(encoding="utf-8")
    assert "a new comment" in (site / "guide" / "usage.html").read_text(encoding="utf-8")


def test_a_config_change_the_parser_reads_invalidates_every_document(content, tmp_path):
    build(content, tmp_path / "site")
    config = content / "citesearch.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("chunk_budget: 300", "chunk_budget: 900"), encoding="utf-8")
    assert build(content, tmp_path / "site").changes.parsed == DOCUMENTS


def test_the_search_index_is_rebuilt_only_when_a_chunk_changed(content, tmp_path, monkeypatch):
    calls = []
    real = index.build_search_files
    monkeypatch.setattr(index, "build_search_files", lambda *args: calls.append(1) or real(*args))
    site = tmp_path / "site"
    build(content, site)
    first = search_text(site)
    build(content, site)
    assert len(calls) == 1  # nothing changed: the index of the last build was reused
    assert search_text(site) == first
    usage = content / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA new quokkasentence.\n", encoding="utf-8")
    build(content, site)
    assert len(calls) == 2
    assert "quokkasentence" in search_text(site)


# What each stage declares it depends on: every module its code runs, except these.
NOT_INPUTS = {
    "citesearch.pipeline.parse": {
        "citesearch.config",  # its values reach the key through cache_inputs(config)
        "citesearch.errors",  # messages, not output
        "citesearch.progress",  # the progress callback's type
        # Chunk.terms: derived, recomputed on demand and never stored.
        "citesearch.pipeline.lunr_index", "citesearch.engine.analyzer", "citesearch.engine.stemmer_en",
        "citesearch.engine.mark_ranges",
        "citesearch.pipeline.spool",  # where a build keeps the parse results until the end, not what they are
        "citesearch.pipeline.workers",  # when and how the parse workers are forked, not what they make
    },
    "citesearch.pipeline.index": {"citesearch.engine.query"},  # the reader's side of engine.shards
}


@pytest.mark.parametrize("stage", sorted(NOT_INPUTS))
def test_a_stage_declares_every_module_its_output_comes_from(stage):
    declared = set(importlib.import_module(stage).CACHE_MODULES)
    missing = imported_modules(stage, stop={"citesearch.config", "citesearch.errors"}) - declared - NOT_INPUTS[stage]
    assert not missing, f"add {sorted(missing)} to {stage}.CACHE_MODULES, or the cache outlives their edits"


def imported_modules(name: str, stop: set[str]) -> set[str]:
    """The citesearch modules ``name`` imports, directly or through others, read from the sources."""
    modules = {m.name: m.ispkg for m in pkgutil.walk_packages(citesearch.__path__, "citesearch.")}
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if current in stop:
            continue
        tree = ast.parse(Path(importlib.util.find_spec(current).origin).read_text(encoding="utf-8"))
        package = current.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                for alias in node.names:
                    found = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    if modules.get(found) is False:  # a module, not a package's __init__
                        todo.append(found)
            elif isinstance(node, ast.Import):
                todo += [a.name for a in node.names if modules.get(a.name) is False]
    return seen


# --- the stored format ---------------------------------------------------------


def test_the_cache_stores_json_payloads_keyed_by_document_and_chunk(content, tmp_path):
    build(content, tmp_path / "site")
    with sqlite3.connect(database(tmp_path / "site")) as db:
        metadata = json.loads(db.execute("SELECT metadata FROM documents WHERE id = ?", ("guide/install",)).fetchone()[0])
        chunk_id, payload = db.execute(
            "SELECT chunk_id, payload FROM chunks WHERE doc_id = ? ORDER BY position", ("guide/install",)
        ).fetchone()
    db.close()
    assert metadata["title"] == "Installing the widget"
    assert metadata["link_urls"] == {"guide/usage.md": "guide/usage.html"}
    assert chunk_id.startswith("guide/install#")
    assert "Installation takes one command" in json.loads(payload)["text"]


_PARSER = Parser(load_config(BASIC_SITE), {"other.md": "other.html"})
_BLOCKS = st.sampled_from(
    ["# Title", "## Section { #sec }", "### Sub", "Plain words here.", "- a\n- b", "```\ncode <x>\n```",
     "| a | b |\n|---|---|\n| 1 | 2 |", "!!! note\n    Careful.", "[link](other.md#x)", "Ünïcödé 中文 текст.", ""]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_BLOCKS, max_size=8), st.sampled_from(["en", "ru", "zh"]))
def test_a_parse_result_survives_the_round_trip_through_the_cache(blocks, lang):
    doc = Document("page", Path("/x/page.md"), "page.md", "\n\n".join(blocks), 1, lang, "public", None)
    page = _PARSER.parse(doc)
    row = codec.encode(page, keys.document_hash(doc), _PARSER.links.urls)
    stored = json.loads(json.dumps([row.metadata, row.chunks]))  # what the store writes and reads back
    again = codec.decode(doc, codec.Row(row.rel_path, row.hash, stored[0], row.html, stored[1]))
    assert again == page


@pytest.mark.parametrize("field", ["anchor", "heading_path", "text", "lang", "heading_text"])
def test_the_search_key_sees_every_chunk_field_but_not_the_derived_terms(field):
    chunk_ = Chunk("a", "top--1", ("A",), "Some text.", "en", "")
    page = index.SearchPage("a", "a.html", "A", "en", (chunk_,))

    def key(chunk_):
        return search_cache.search_key([dataclasses.replace(page, chunks=(chunk_,))], "en", {"version": "1"})

    assert key(dataclasses.replace(chunk_, terms=(("some", "text"),))) == key(chunk_)
    other = ("B",) if field == "heading_path" else "other"
    assert key(dataclasses.replace(chunk_, **{field: other})) != key(chunk_)


# --- where the cache lives ------------------------------------------------------


def test_build_and_serve_leave_the_content_folder_byte_for_byte_unchanged(content, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    before = snapshot(content)
    build(content, tmp_path / "site")
    build(content, tmp_path / "site-editor", role="editor")
    preview = Preview(content)
    assert preview.rebuild() and preview.rebuild()
    assert snapshot(content) == before
    assert (tmp_path / "site.cache" / store.DATABASE).is_file()
    assert [p.name for p in (tmp_path / "user-cache" / "citesearch").iterdir()][0].startswith("content-")


def test_the_cache_sits_beside_the_output_by_default(content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = subprocess.run([sys.executable, "-m", "citesearch", "build", "content"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "site.cache").iterdir()) == ["CACHEDIR.TAG", "build.lock", "build.sqlite", "search.memo"]
    assert not (content / LEGACY_DIR).exists()


def test_the_cache_dir_option_moves_the_cache(content, tmp_path):
    command = [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(tmp_path / "site"),
               "--cache-dir", str(tmp_path / "elsewhere")]
    first = subprocess.run(command, capture_output=True, text=True)
    second = subprocess.run(command, capture_output=True, text=True)
    assert first.returncode == second.returncode == 0, first.stderr
    assert f"{DOCUMENTS} unchanged; 0 parsed" in second.stderr
    assert (tmp_path / "elsewhere" / store.DATABASE).is_file()
    assert not (tmp_path / "site.cache").exists()


@pytest.mark.parametrize(
    "cache_dir, message",
    [
        ("content/.cache", "citesearch: error: cache folder content/.cache is inside the content folder content; choose one outside it with --cache-dir"),
        ("content", "citesearch: error: cache folder content is inside the content folder content; choose one outside it with --cache-dir"),
        ("site/cache", "citesearch: error: cache folder site/cache is inside the output folder site; choose one outside it with --cache-dir"),
    ],
)
def test_a_cache_dir_inside_the_content_or_output_is_refused(content, tmp_path, monkeypatch, cache_dir, message):
    monkeypatch.chdir(tmp_path)
    run = subprocess.run([sys.executable, "-m", "citesearch", "build", "content", "--out", "site", "--cache-dir", cache_dir],
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr.strip()) == (2, message)
    assert not (tmp_path / "site").exists()


def test_an_old_cache_inside_the_content_is_left_alone_and_never_published(content, tmp_path):
    old = content / LEGACY_DIR
    old.mkdir()
    (old / "build.sqlite").write_bytes(b"an old cache")
    (old / "search.json").write_text('{"key": "old"}', encoding="utf-8")
    result = build(content, tmp_path / "site")
    assert result.changes.parsed == DOCUMENTS and not cache_warnings(result)
    assert (old / "build.sqlite").read_bytes() == b"an old cache"
    assert not [p for p in (tmp_path / "site").rglob("*") if LEGACY_DIR in p.as_posix() or p.name == "build.sqlite"]


# --- a damaged cache is replaced; a failing cache never fails the build ----------------


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda path: path.write_bytes(b"this is not a database at all" * 100), id="garbage"),
        pytest.param(lambda path: path.write_bytes(path.read_bytes()[:3000]), id="truncated"),
        pytest.param(lambda path: _foreign_database(path), id="foreign-sqlite"),
        pytest.param(lambda path: _bad_payload(path), id="bad-json-payload"),
    ],
)
def test_a_damaged_or_foreign_cache_is_rebuilt_with_a_warning(content, tmp_path, damage):
    good = build(content, tmp_path / "good", no_cache=True)
    assert not cache_warnings(good)
    site = tmp_path / "site"
    build(content, site)
    damage(database(site))
    result = build(content, site)
    messages = [w.message for w in result.warnings if w.path == str(database(site))]
    assert messages and ("unusable" in messages[0] or "malformed" in messages[0]), result.warnings
    assert result.changes.parsed >= 1
    assert same_tree(tmp_path / "good", site)
    healed = build(content, site)
    assert (healed.changes.parsed, healed.warnings) == (0, good.warnings)


def _foreign_database(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE documents (id TEXT, hash TEXT)")
        db.execute("INSERT INTO documents VALUES (?, ?)", ("index", "x"))
    db.close()


def _bad_payload(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE documents SET metadata = ? WHERE id = ?", ('{"title": 1}', "guide/install"))
    db.close()


def test_a_damaged_search_memo_is_rebuilt_with_a_warning(content, tmp_path):
    site = tmp_path / "site"
    build(content, site)
    memo = for_output(site) / search_cache.MEMO
    memo.write_bytes(memo.read_bytes()[:-3])  # cut short, as by a full disk
    result = build(content, site)
    assert any("cached search index was unreadable" in w.message for w in result.warnings)
    build(content, tmp_path / "fresh", no_cache=True)
    assert search_text(site) == search_text(tmp_path / "fresh")


def test_a_search_memo_under_another_key_is_not_read_past_its_key(tmp_path):
    # serve saves and misses the memo on every edit: parsing tens of megabytes only to find another key was slow
    search_cache.save(tmp_path, "a" * 64, {"search/x.json": b"{}"})
    memo = tmp_path / search_cache.MEMO
    memo.write_bytes(memo.read_bytes().replace(b"search/x.json", b"damaged"))
    assert search_cache.load(tmp_path, "b" * 64) is None


class _FailingConnection(sqlite3.Connection):
    """A connection whose statements fail the way a full disk, a foreign lock or a bad disk make them fail."""

    fails_on = ""
    error = ""

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(self.fails_on):
            raise sqlite3.OperationalError(self.error)
        return super().execute(sql, *args)


def _sqlite_failing(monkeypatch, statement: str, error: str) -> None:
    failing = type("Failing", (_FailingConnection,), {"fails_on": statement, "error": error})
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: real(*args, factory=failing, **kwargs))


def _memo_disk_full(monkeypatch, site: Path) -> None:
    for method in ("write_text", "write_bytes"):
        monkeypatch.setattr(pathlib.Path, method, _failing_in(for_output(site), getattr(pathlib.Path, method)))
    real_open = pathlib.Path.open
    failing_open = _failing_in(for_output(site), real_open)  # the memo is written file by file
    monkeypatch.setattr(pathlib.Path, "open", lambda self, mode="r", *a, **k: (failing_open if "w" in mode else real_open)(self, mode, *a, **k))


def _failing_in(folder: Path, real):
    def write(self, *args, **kwargs):
        if folder in self.parents:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *args, **kwargs)

    return write


FAULTS = {
    "database-is-a-folder": (lambda mp, site: database(site).mkdir(parents=True), "not a regular file"),
    "cache-folder-is-a-file": (lambda mp, site: for_output(site).write_text("x"), "a file is in the way"),
    "cache-folder-read-only": (lambda mp, site: (for_output(site).mkdir(), for_output(site).chmod(0o555)), "is read-only"),
    "disk-full-on-save": (lambda mp, site: _sqlite_failing(mp, "INSERT", "database or disk is full"), "database or disk is full"),
    "database-locked": (lambda mp, site: _sqlite_failing(mp, "PRAGMA", "database is locked"), "database is locked"),
    "disk-io-error-on-read": (lambda mp, site: _sqlite_failing(mp, "SELECT", "disk I/O error"), "disk I/O error"),
    "disk-full-on-search-memo": (_memo_disk_full, "No space left on device"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_cache_that_cannot_be_used_never_fails_the_build(content, tmp_path, monkeypatch, fault):
    build(content, tmp_path / "fresh", no_cache=True, cache_dir=tmp_path / "unused.cache")
    site = tmp_path / "site"
    inject, reason = FAULTS[fault]
    inject(monkeypatch, site)
    try:
        result = build(content, site)
    finally:
        if for_output(site).is_dir():
            for_output(site).chmod(0o755)
    warnings = cache_warnings(result)
    assert len(warnings) == 1 and "build cache disabled" in warnings[0] and reason in warnings[0], warnings
    assert warnings[0].startswith(f"{database(site)}:1: ")
    assert result.changes.parsed == DOCUMENTS
    assert same_tree(site, tmp_path / "fresh")


def test_a_cache_failure_is_one_warning_line_on_the_command_line(content, tmp_path):
    for_output(tmp_path / "site").write_text("not a folder", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "citesearch", "build", str(content), "--out", str(tmp_path / "site")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert [line for line in run.stderr.splitlines() if line.endswith("(warning)")] == [
        f"{database(tmp_path / 'site')}:1: build cache disabled: cannot use {for_output(tmp_path / 'site')}: "
        "a file is in the way of the cache folder; built without it (warning)"
    ]


# --- concurrency -----------------------------------------------------------------


def test_two_builds_at_once_leave_a_valid_cache_and_site(content, tmp_path):
    site = tmp_path / "site"
    command = [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(site)]
    runs = [subprocess.Popen(command, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [run.communicate(timeout=300)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], outputs
    # The lock serialises them: exactly one parsed the documents, the others reused its work.
    parsed = sorted(int(out.split("; ")[1].split(" parsed")[0]) for out in outputs)
    assert parsed == [0, 0, DOCUMENTS], outputs
    assert build(content, site).changes.parsed == 0
    build(content, tmp_path / "fresh", no_cache=True)
    assert same_tree(site, tmp_path / "fresh")


def test_an_older_citesearchs_search_memo_is_replaced_not_refused(content, tmp_path):
    site = tmp_path / "site"
    build(content, site)
    cache = for_output(site)
    (cache / search_cache.MEMO).rename(cache / search_cache.LEGACY_MEMO)  # the memo as one JSON, before 2026-12-04
    result = build(content, site)
    assert not result.warnings
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith("search")) == [search_cache.MEMO]


def test_a_rebuild_analyses_cached_pages_texts_without_keeping_them_and_serve_keeps_them(content: Path, tmp_path: Path,
                                                                                        monkeypatch):
    """A build indexes its (spooled) pages once: the chunk texts of pages from the cache are analysed without
    the text cache, which held 100,000 texts and their counts (~170 MB) at a large rebuild's peak.  Serve
    holds its pages and indexes them again on every save: there the texts are cached."""
    from citesearch.pipeline import lunr_index
    from citesearch.pipeline.build import prepare

    build(content, tmp_path / "site")
    edited = content / "guide" / "usage.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n\nOne more paragraph to index again.\n", encoding="utf-8")
    analysed: list[str] = []
    real = lunr_index._cached_counts
    monkeypatch.setattr(lunr_index, "_cached_counts", lambda text: analysed.append(text) or real(text))
    again = build(content, tmp_path / "site")
    assert again.changes.parsed == 1 and again.changes.unchanged == again.documents - 1 > 1
    served = prepare(content, "public", tmp_path / "serve-cache")  # parses, then reuses what it parsed
    assert not analysed or not set(analysed) & _body_texts(served)
    served = prepare(content, "public", tmp_path / "serve-cache")
    assert served.changes.parsed == 0
    index.index_documents(served.pages, "en", {"name": "test"})  # serve's next save (its search memo left aside)
    assert _body_texts(served) <= set(analysed)


def _body_texts(assembled) -> set[str]:
    return {chunk.text for page in assembled.pages for chunk in page.chunks if chunk.text}
