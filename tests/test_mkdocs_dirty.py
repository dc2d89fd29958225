"""``mkdocs build --dirty`` keeps no text of pages removed or turned into drafts (issue 21.15)."""

from __future__ import annotations

from pathlib import Path

from browser_support import cli_search
from mkdocs_support import mkdocs, write_project

REMOVED_WORD = "marmosetquill"  # only in the page that is deleted
DRAFT_WORD = "okapilantern"  # only in the page that becomes a draft


def files_with(site: Path, word: str) -> list[str]:
    return [str(p.relative_to(site)) for p in site.rglob("*") if p.is_file() and word.encode() in p.read_bytes()]


def test_a_dirty_build_leaves_no_byte_of_a_removed_page_or_a_new_draft(tmp_path: Path):
    config = write_project(tmp_path, {
        "index.md": "# Home\n\nThe albatross page.\n",
        "gone.md": f"# Gone\n\nThe {REMOVED_WORD} passage.\n",
        "later.md": f"# Later\n\nThe {DRAFT_WORD} passage.\n",
        "sub/deep.md": "# Deep\n\nThe heron page.\n",
    })
    assert mkdocs(config).returncode == 0
    site = tmp_path / "site"
    assert files_with(site, REMOVED_WORD) and files_with(site, DRAFT_WORD)  # the words are there to leak
    (tmp_path / "docs" / "gone.md").unlink()
    later = tmp_path / "docs" / "later.md"
    later.write_text("---\nvisibility: editor\n---\n" + later.read_text(encoding="utf-8"), encoding="utf-8")
    done = mkdocs(config, "--dirty")
    assert done.returncode == 0, done.stderr
    assert files_with(site, REMOVED_WORD) == [] and files_with(site, DRAFT_WORD) == []
    for word in ("albatross", "heron"):  # the pages that stay are still found
        assert cli_search(site, word, lang="en", limit=3, exact=True)["results"], word


def test_dirty_rebuilds_leave_only_the_current_search_files(tmp_path: Path):
    config = write_project(tmp_path, {"index.md": "# Home\n\nThe albatross page.\n"})
    assert mkdocs(config).returncode == 0
    first = {p.name for p in (tmp_path / "site" / "search").rglob("*") if p.is_file()}
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nThe cormorant page.\n", encoding="utf-8")
    assert mkdocs(config, "--dirty").returncode == 0
    second = {p.name for p in (tmp_path / "site" / "search").rglob("*") if p.is_file()}
    assert first != second and len(first) == len(second)
    assert files_with(tmp_path / "site", "albatross") == []
