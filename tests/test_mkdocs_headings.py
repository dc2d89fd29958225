"""Result titles and headings from the MkDocs plugin are plain text as the reader sees it (issue 17.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_support import mkdocs, write_project
from realsite_support import index_entries

pytest.importorskip("material")

PAGES = {
    "index.md": "# Home\n\nWelcome.\n\n## Q&amp;A about `<tags>` &copy; *now*\n\nWords.\n\n### Third {#custom}\n\nMore words.\n",
    "other.md": "# Other page\n\nText.\n",
}
# Nav titles are HTML to MkDocs' themes: readers see a space and bold text, not the markup.
NAV = [{"1.1 &nbsp; Binary search": "index.md"}, {"<b>Bold</b> &amp; plain": "other.md"}]
EXPECTED = {  # (title, heading path): the path starts at the title
    ("1.1 Binary search", ("1.1 Binary search",)),
    ("1.1 Binary search", ("1.1 Binary search", "Q&A about <tags> © now")),
    ("1.1 Binary search", ("1.1 Binary search", "Q&A about <tags> © now", "Third")),
    ("Bold & plain", ("Bold & plain",)),
}
PERMALINKS = {
    "toc default symbol": {"permalink": True},
    "custom symbol": {"permalink": "#"},
    "icon-font glyph (private use)": {"permalink": "\ue157"},
    "emoji, leading": {"permalink": "🔗", "permalink_leading": True},
    "own class": {"permalink": "§", "permalink_class": "anchor-link", "permalink_title": "Link here"},
}


CASES = [("mkdocs", name) for name in PERMALINKS] + [("material", "toc default symbol"), ("material", "icon-font glyph (private use)")]


@pytest.mark.parametrize(("theme", "permalink"), CASES)
def test_headings_and_titles_have_no_permalink_entity_or_markup(tmp_path: Path, theme: str, permalink: str):
    toc = PERMALINKS[permalink]
    config = write_project(tmp_path, PAGES, nav=NAV, theme={"name": theme},
                           markdown_extensions=[{"toc": toc}, "attr_list"])
    done = mkdocs(config)
    assert done.returncode == 0, done.stderr
    found = {(title, headings) for title, headings, _, _ in index_entries(tmp_path / "site")}
    assert found == EXPECTED
