"""MkDocs/Material search front matter in the plugin: ``search: exclude`` and ``search: boost`` (issue 17.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import cli_search
from mkdocs_support import mkdocs, write_project

HIDDEN_WORD = "zanzibarquill"
SAME = "# {title}\n\nThe pelican migration starts in spring along the coast.\n"


def search_files_with(site: Path, word: str) -> list[str]:
    return [p.name for p in (site / "search").rglob("*") if p.is_file() and word.encode() in p.read_bytes()]


def test_an_excluded_page_is_built_but_not_indexed(tmp_path: Path):
    config = write_project(tmp_path, {
        "index.md": "# Home\n\nPublic words.\n",
        "hidden.md": f"---\nsearch:\n  exclude: true\n---\n# Hidden\n\nThe {HIDDEN_WORD} page.\n",
    })
    done = mkdocs(config, "--strict")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    assert HIDDEN_WORD in (site / "hidden" / "index.html").read_text(encoding="utf-8")
    assert search_files_with(site, HIDDEN_WORD) == [] and search_files_with(site, "Hidden") == []
    assert cli_search(site, HIDDEN_WORD, lang="en", limit=5, exact=True)["results"] == []


@pytest.mark.parametrize(("boosts", "first"), [({}, "alpha"), ({"beta": 3}, "beta"), ({"alpha": 0.5}, "beta")])
def test_boost_orders_pages_that_match_equally_well(tmp_path: Path, boosts: dict, first: str):
    pages = {}
    for name in ("alpha", "beta"):
        meta = f"---\nsearch:\n  boost: {boosts[name]}\n---\n" if name in boosts else ""
        pages[f"{name}.md"] = meta + SAME.format(title="Pelicans")
    done = mkdocs(write_project(tmp_path, {"index.md": "# Home\n", **pages}))
    assert done.returncode == 0, done.stderr
    results = cli_search(tmp_path / "site", "pelican migration", lang="en", limit=5, exact=True)["results"]
    assert [r["doc_id"] for r in results] == [first, ({"alpha", "beta"} - {first}).pop()]


@pytest.mark.parametrize("search", ["'yes'", "{exclude: 'yes'}", "{boost: high}", "{boost: 0}", "{boost: -2}", "{boost: .inf}"])
def test_search_front_matter_mkdocs_would_not_accept_is_an_error_naming_the_page(tmp_path: Path, search: str):
    config = write_project(tmp_path, {"index.md": "# Home\n", "odd.md": f"---\nsearch: {search}\n---\n# Odd\n"})
    done = mkdocs(config)
    assert done.returncode != 0
    assert "odd.md:1: 'search" in done.stderr and "Traceback" not in done.stderr


def test_a_section_material_marks_data_search_exclude_is_not_indexed(tmp_path: Path):
    config = write_project(tmp_path, {"index.md": (
        "# Home\n\nThe albatross intro.\n\n"
        f"## Internal notes {{ data-search-exclude }}\n\nThe {HIDDEN_WORD} notes.\n\n"
        "## Public part\n\nThe heron part.\n"
    )}, markdown_extensions=["attr_list"])
    done = mkdocs(config)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    assert HIDDEN_WORD in (site / "index.html").read_text(encoding="utf-8")  # still on the page
    assert search_files_with(site, HIDDEN_WORD) == []
    for word in ("albatross", "heron"):
        assert cli_search(site, word, lang="en", limit=3, exact=True)["results"], word
