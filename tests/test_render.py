"""Page rendering: the nav grouped by folder, the current page marked, big navs bounded, folder listings."""

from __future__ import annotations

import re
from pathlib import Path

from citesearch.config import Config
from citesearch.model import Document, ParsedDocument
from citesearch.pipeline import nav as nav_module
from citesearch.pipeline.render import NavItem, Renderer, theme_dir


def page(doc_id: str, title: str = "") -> ParsedDocument:
    doc = Document(doc_id, Path(f"/x/{doc_id}.md"), f"{doc_id}.md", "", 1, "en", "public", title or doc_id)
    return ParsedDocument(doc, title or doc_id, "<p>body</p>", (), (), (), frozenset())


def nav_links(html: bytes) -> list[tuple[str, bool]]:
    """(href, is current) of each link in the site nav."""
    found = re.search(r'<nav class="site-nav".*?</nav>', html.decode(), re.S)
    nav = found.group(0) if found else ""
    return [(m.group(1), bool(m.group(2))) for m in re.finditer(r'<a href="([^"]*)"( aria-current="page")?>', nav)]


def test_only_the_current_page_is_marked_even_when_another_url_starts_the_same():
    pages = [page("guide/a"), page("guide/ab"), page("b")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    links = nav_links(renderer.page(pages[0], nav))
    assert links == [("../b.html", False), ("../guide/a.html", True), ("../guide/ab.html", False)]
    assert nav_links(renderer.page(pages[2], nav)) == [("b.html", True), ("guide/a.html", False), ("guide/ab.html", False)]


def test_titles_are_escaped_once():
    pages = [page("a", "Fish & <Chips>")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    html = Renderer(Config(), theme_dir(), editor=False).page(pages[0], nav).decode()
    assert '<a href="a.html" aria-current="page">Fish &amp; &lt;Chips&gt;</a>' in html


def test_a_small_nav_groups_pages_by_folder_titled_by_its_index_with_the_current_folder_open():
    pages = [page("index"), page("about"), page("a/index", "Alpha guide"), page("a/one"), page("b/two")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    html = Renderer(Config(), theme_dir(), editor=False).page(pages[3], nav).decode()
    folders = re.findall(r"<details( open)?><summary>([^<]*)</summary>", html)
    assert folders == [(" open", "Alpha guide"), ("", "b")]
    assert len(nav_links(html.encode())) == 5  # every page, on a small site


def test_a_big_folder_shows_the_pages_around_the_current_one_and_links_to_its_listing(monkeypatch):
    monkeypatch.setattr(nav_module, "FULL_LIMIT", 10)
    monkeypatch.setattr(nav_module, "WINDOW", 2)
    pages = [page("index")] + [page(f"cmd/p{n:02d}") for n in range(30)]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    renderer.home_url = None  # index.md is the front page
    assert nav_links(renderer.page(pages[11], nav)) == [
        ("../index.html", False), *[(f"p{n:02d}.html", n == 10) for n in range(8, 13)], ("~index.html", False),
    ]  # in the page's own folder, links relative to it
    # at the end of the folder the window still holds 2 * WINDOW + 1 pages
    assert [href for href, _ in nav_links(renderer.page(pages[-1], nav))][1:-1] == [f"p{n}.html" for n in range(25, 30)]
    # from the root, the folder is one link to its listing
    assert nav_links(renderer.page(pages[0], nav)) == [("index.html", True), ("cmd/~index.html", False)]


def _largest_page(count: int) -> int:
    """The largest file a site of ``count`` pages in one folder (plus a front page) renders."""
    pages = [page("about")] + [page(f"big/cmd-{n:05d}", f"Command number {n:05d}") for n in range(count)]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    sizes = [len(renderer.page(p, nav)) for p in pages[:: max(1, count // 50)]]
    sizes.append(len(renderer.home(nav)))
    sizes += [len(renderer.listing(listing)) for listing in renderer.listings(nav)]
    return max(sizes)


def test_the_largest_page_does_not_grow_with_the_number_of_pages():
    # 300 pages are already a big site (more than FULL_LIMIT): from there on, no page grows
    assert _largest_page(3000) <= _largest_page(300) * 1.02
    assert _largest_page(3000) < 40_000


def test_a_big_site_front_page_is_an_index_of_folders_and_every_page_is_on_some_listing():
    pages = [page("about")] + [page(f"f{n % 3}/p{n:04d}") for n in range(900)]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    home = renderer.home(nav).decode()
    assert re.findall(r'href="(f\d)/~index.html">', home) == ["f0", "f1", "f2"]
    listed = set()
    for listing in renderer.listings(nav):
        html = renderer.listing(listing).decode()
        prefix = "../" * listing.url.count("/")
        listed |= {href.removeprefix(prefix) for href in re.findall(r'<li><a href="([^"]*)"', html)}
    assert {p.doc.url for p in pages} <= listed


def test_the_generated_front_page_lists_every_document_once():
    pages = [page(i) for i in ("about", "a/one", "b/two")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    html = Renderer(Config(), theme_dir(), editor=False).home(nav).decode()
    assert nav_links(html.encode()) == []
    for item in nav:
        assert html.count(f'href="{item.url}"') == 1, item.url


def test_a_big_site_with_many_folders_shows_a_few_and_links_to_all_of_them(monkeypatch):
    monkeypatch.setattr(nav_module, "FULL_LIMIT", 10)
    pages = [page("index")] + [page(f"s{n:02d}/p") for n in range(30)]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    renderer.home_url = None
    links = [href for href, _ in nav_links(renderer.page(pages[25], nav))]
    folders = [href for href in links if href.endswith("/~index.html") and href != "../~index.html"]
    assert "p.html" in links  # the current page's own folder is always there (its links relative to it)
    assert len(folders) == nav_module.MAX_FOLDERS  # the first ones (the current one is open, not a link)
    assert links[-1] == "../~index.html"  # "All 30 sections": the root's listing


def test_pages_carry_no_template_indentation_but_keep_the_bodys_own():
    """Every page repeats the templates: their indentation is dropped, while a code block keeps its spaces."""
    code = "<pre><code>def f():\n    return 1\n</code></pre>"
    doc = page("guide/a").doc
    parsed = ParsedDocument(doc, "A", f"<p>body</p>\n{code}", (), (), (), frozenset())
    html = Renderer(Config(), theme_dir(), editor=False).page(parsed, [NavItem("A", doc.url, "en")]).decode()
    assert code in html
    outside_code = html.replace(code, "")
    assert re.findall(r"^[ \t]+\S.*$", outside_code, re.M) == []
    assert 'placeholder="Search  ( / )"' in html  # the search box is whole, its attributes unchanged
