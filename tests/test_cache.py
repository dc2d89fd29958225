"""The build cache: only what changed is parsed again, and a stale or damaged cache is never trusted."""

from __future__ import annotations

import filecmp
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from citesearch import build, cache
from citesearch.pipeline.render import theme_dir

from conftest import BASIC_SITE

DOCUMENTS = 5  # index, guide/install, guide/usage, ru/index, zh/index (the draft is editor-only)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The basic fixture site without any cache a previous run left beside it."""
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target, ignore=shutil.ignore_patterns(cache.CACHE_DIR))
    return target


def cached_rows(content: Path) -> dict[str, list[str]]:
    """doc id -> its chunk ids, straight from the cache database."""
    with sqlite3.connect(cache.cache_path(content)) as db:
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


def test_first_build_parses_everything_and_a_second_build_nothing(content, tmp_path):
    first = build(content, tmp_path / "site")
    assert (first.changes.added, first.changes.parsed) == (DOCUMENTS, DOCUMENTS)
    second = build(content, tmp_path / "site")
    assert (second.changes.unchanged, second.changes.parsed) == (DOCUMENTS, 0)
    assert set(cached_rows(content)) == {"index", "guide/install", "guide/usage", "ru/index", "zh/index"}


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
    build(content, tmp_path / "site")
    assert cached_rows(content)["guide/usage"], "the fixture document has chunks"
    assert "guide/usage" in search_text(tmp_path / "site")
    (content / "guide" / "usage.md").unlink()
    result = build(content, tmp_path / "site")
    # guide/install links to the deleted page: its link is no longer rewritten, so it is parsed again.
    assert (result.changes.removed, result.changes.parsed) == (1, 1)
    assert not (tmp_path / "site" / "guide" / "usage.html").exists()
    assert "guide/usage" not in search_text(tmp_path / "site")
    assert "guide/usage" not in cached_rows(content)
    with sqlite3.connect(cache.cache_path(content)) as db:
        assert db.execute("SELECT count(*) FROM chunks WHERE doc_id = ?", ("guide/usage",)).fetchone()[0] == 0
    db.close()


def test_an_editor_only_document_keeps_its_cache_row_through_a_public_build(content, tmp_path):
    build(content, tmp_path / "editor", role="editor")
    assert "drafts/secret" in cached_rows(content)
    public = build(content, tmp_path / "public")
    assert public.changes.removed == 0
    assert "drafts/secret" in cached_rows(content)
    again = build(content, tmp_path / "editor", role="editor")
    assert again.changes.parsed == 0


def test_a_document_whose_link_target_moved_is_parsed_again(content, tmp_path):
    build(content, tmp_path / "site")
    install_html = (tmp_path / "site" / "guide" / "install.html").read_text(encoding="utf-8")
    assert 'href="usage.html"' in install_html
    usage = content / "guide" / "usage.md"
    text = usage.read_text(encoding="utf-8")
    front = "---\nid: guide/how-to-use\n" + (text[4:] if text.startswith("---\n") else "---\n" + text)
    usage.write_text(front, encoding="utf-8")
    result = build(content, tmp_path / "site")
    # usage.md changed; install.md did not, but its link to usage.md now has another URL.
    assert result.changes.parsed >= 2
    install_html = (tmp_path / "site" / "guide" / "install.html").read_text(encoding="utf-8")
    assert 'href="how-to-use.html"' in install_html
    assert "guide/usage" not in cached_rows(content)


@pytest.mark.parametrize("module, name", [("chunk", "CHUNKER_VERSION"), ("analyzer", "VERSION")])
def test_a_new_chunker_or_analyzer_version_invalidates_every_document(content, tmp_path, monkeypatch, module, name):
    build(content, tmp_path / "site")
    target = getattr(cache, module)
    monkeypatch.setattr(target, name, getattr(target, name) + "-next")
    result = build(content, tmp_path / "site")
    assert result.changes.parsed == DOCUMENTS
    assert build(content, tmp_path / "site").changes.parsed == 0


def test_a_theme_change_invalidates_every_document(content, tmp_path):
    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    build(content, tmp_path / "site", theme=theme)
    assert build(content, tmp_path / "site", theme=theme).changes.parsed == 0
    css = theme / "static" / "site.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* a new rule */\n", encoding="utf-8")
    assert build(content, tmp_path / "site", theme=theme).changes.parsed == DOCUMENTS


def test_a_config_change_the_parser_reads_invalidates_every_document(content, tmp_path):
    build(content, tmp_path / "site")
    config = content / "citesearch.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("chunk_budget: 300", "chunk_budget: 900"), encoding="utf-8")
    assert build(content, tmp_path / "site").changes.parsed == DOCUMENTS


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
    assert not [w for w in good.warnings if "cache" in w.message]
    damage(cache.cache_path(content))
    result = build(content, tmp_path / "site")
    messages = [w.message for w in result.warnings if w.path.startswith(cache.CACHE_DIR)]
    assert messages and ("unusable" in messages[0] or "malformed" in messages[0]), result.warnings
    assert result.changes.parsed >= 1
    assert same_tree(tmp_path / "good", tmp_path / "site")
    healed = build(content, tmp_path / "site")
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


def test_a_cache_folder_that_cannot_be_written_only_disables_the_cache(content, tmp_path):
    (content / cache.CACHE_DIR).write_text("a file where the cache folder would go", encoding="utf-8")
    result = build(content, tmp_path / "site")
    assert result.changes.parsed == DOCUMENTS
    assert any("build cache disabled" in w.message for w in result.warnings)
    assert (tmp_path / "site" / "guide" / "usage.html").is_file()


def test_the_cache_stores_json_payloads_keyed_by_document_and_chunk(content, tmp_path):
    build(content, tmp_path / "site")
    with sqlite3.connect(cache.cache_path(content)) as db:
        metadata = json.loads(db.execute("SELECT metadata FROM documents WHERE id = ?", ("guide/install",)).fetchone()[0])
        chunk_id, payload = db.execute(
            "SELECT chunk_id, payload FROM chunks WHERE doc_id = ? ORDER BY position", ("guide/install",)
        ).fetchone()
    db.close()
    assert metadata["title"] == "Installing the widget"
    assert metadata["link_urls"] == {"guide/usage.md": "guide/usage.html"}
    assert chunk_id.startswith("guide/install#")
    assert "Installation takes one command" in json.loads(payload)["text"]


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


def test_a_read_only_content_folder_gets_no_cache(content, tmp_path):
    content.chmod(0o555)  # mode bits, not os.access: root may write anywhere, a read-only corpus stays untouched
    try:
        result = build(content, tmp_path / "site")
    finally:
        content.chmod(0o755)
    assert not (content / cache.CACHE_DIR).exists()
    assert any("is read-only" in w.message for w in result.warnings)
    assert result.changes.parsed == DOCUMENTS and (tmp_path / "site" / "index.html").is_file()


def test_the_search_index_is_rebuilt_only_when_a_chunk_changed(content, tmp_path, monkeypatch):
    calls = []
    real = cache.build_search_files
    monkeypatch.setattr(cache, "build_search_files", lambda *args: calls.append(1) or real(*args))
    build(content, tmp_path / "site")
    first = search_text(tmp_path / "site")
    build(content, tmp_path / "site")
    assert len(calls) == 1  # nothing changed: the index of the last build was reused
    assert search_text(tmp_path / "site") == first
    usage = content / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8") + "\nA new quokkasentence.\n", encoding="utf-8")
    build(content, tmp_path / "site")
    assert len(calls) == 2
    assert "quokkasentence" in search_text(tmp_path / "site")


def test_a_damaged_search_memo_is_rebuilt_with_a_warning(content, tmp_path):
    build(content, tmp_path / "site")
    (cache.cache_path(content).parent / cache.SEARCH_FILE).write_text("{not json", encoding="utf-8")
    result = build(content, tmp_path / "site")
    assert any("cached search index was unreadable" in w.message for w in result.warnings)
    build(content, tmp_path / "fresh", no_cache=True)
    assert search_text(tmp_path / "site") == search_text(tmp_path / "fresh")
