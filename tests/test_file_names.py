"""Every file name a file system holds gets its own page: names a slug empties or merges are escaped, never refused."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.errors import ContentError
from citesearch.pipeline import build as build_module
from citesearch.pipeline.load import escaped_id, id_from_path, valid_derived_id

AWKWARD = ["[.md", "!.md", "~.md", "((.md", "%.md", "clang++.md", "clang.md", "c#.md", "Install Notes.md",
           "Установка.md", "安装.md", "tools/Tool.md", "tools/tool.md", "a b/x.md", "a-b/x.md"]


def _write(content: Path, names: list[str]) -> None:
    for n, name in enumerate(names):
        path = content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Title {n}\n\nText number {n}.\n", encoding="utf-8")


def test_awkward_file_names_each_get_their_own_page(tmp_path: Path):
    content = tmp_path / "content"
    _write(content, AWKWARD)
    site = tmp_path / "site"
    result = build_module.build(content, site)
    assert result.documents == len(AWKWARD)
    pages = {}
    for html in site.rglob("*.html"):
        title = re.search(r"<h1[^>]*>Title (\d+)", html.read_text(encoding="utf-8"))
        if title:
            pages.setdefault(int(title.group(1)), []).append(html.relative_to(site).as_posix())
    assert sorted(pages) == list(range(len(AWKWARD)))
    assert all(len(found) == 1 for found in pages.values()), pages
    urls = {AWKWARD[n]: found[0] for n, found in pages.items()}
    # names that built before keep their URLs; the file named like the slug keeps it
    assert urls["clang.md"] == "clang.html"
    assert urls["clang++.md"] == "clang~2b~2b.html"
    assert urls["Install Notes.md"] == "install-notes.html"
    assert urls["tools/tool.md"] == "tools/tool.html"
    assert urls["tools/Tool.md"] == "tools/~54ool.html"
    assert urls["[.md"] == "~5b.html"
    assert urls["a-b/x.md"] == "a-b/x.html" and urls["a b/x.md"] == "a~20b/x.html"


def test_the_same_names_give_the_same_urls_whatever_else_is_in_the_folder(tmp_path: Path):
    first, second = tmp_path / "one", tmp_path / "two"
    _write(first, AWKWARD)
    _write(second, AWKWARD[::-1])
    build_module.build(first, tmp_path / "site1")
    build_module.build(second, tmp_path / "site2")
    names = lambda site: sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))  # noqa: E731
    assert names(tmp_path / "site1") == names(tmp_path / "site2")


def test_an_id_set_in_front_matter_that_takes_a_files_own_name_names_both_files_and_what_to_change(tmp_path: Path):
    content = tmp_path / "content"
    _write(content, ["clang.md"])
    (content / "other.md").write_text("---\nid: clang\n---\n# Other\n\nText.\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        build_module.check(content, cache_dir=tmp_path / "cache")
    assert [str(p) for p in caught.value.problems] == [
        "other.md:2: duplicate id 'clang': also used by clang.md; change this 'id:'"]


_names = st.text(alphabet=string.ascii_letters + string.digits + "._-~!%[]()+# +é中", min_size=1, max_size=12)


@settings(max_examples=500, deadline=None)
@given(_names, _names)
def test_two_different_names_never_escape_to_one_id_and_no_escaped_id_is_a_slug(a, b):
    if a != b:
        assert escaped_id(a + ".md") != escaped_id(b + ".md")
    escaped = escaped_id(a + ".md")
    assert valid_derived_id(escaped)
    slug = id_from_path(b + ".md")
    if slug is not None and escaped == slug:
        assert a == b  # only a name that is its own slug escapes to it
