"""Page rendering: the nav rendered once and reused, the current page marked, large navs collapsed."""

from __future__ import annotations

import re
from pathlib import Path

from citesearch.config import Config
from citesearch.model import Document, ParsedDocument
from citesearch.pipeline import render
from citesearch.pipeline.render import NavItem, Renderer, theme_dir


def page(doc_id: str, title: str = "") -> ParsedDocument:
    doc = Document(doc_id, Path(f"/x/{doc_id}.md"), f"{doc_id}.md", "", 1, "en", "public", title or doc_id)
    return ParsedDocument(doc, title or doc_id, "<p>body</p>", (), (), (), frozenset())


def nav_links(html: bytes) -> list[tuple[str, bool]]:
    """(href, is current) of each link in the site nav."""
    nav = re.search(r'<nav class="site-nav".*?</nav>', html.decode(), re.S).group(0)
    return [(m.group(1), bool(m.group(2))) for m in re.finditer(r'<a href="([^"]*)"( aria-current="page")?>', nav)]


def test_only_the_current_page_is_marked_even_when_another_url_starts_the_same():
    pages = [page("guide/a"), page("guide/ab"), page("b")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    links = nav_links(renderer.page(pages[0], nav))
    assert links == [("../guide/a.html", True), ("../guide/ab.html", False), ("../b.html", False)]
    assert nav_links(renderer.page(pages[2], nav)) == [("guide/a.html", False), ("guide/ab.html", False), ("b.html", True)]


def test_titles_are_escaped_once():
    pages = [page("a", "Fish & <Chips>")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    html = Renderer(Config(), theme_dir(), editor=False).page(pages[0], nav).decode()
    assert '<a href="a.html" aria-current="page">Fish &amp; &lt;Chips&gt;</a>' in html


def test_a_large_nav_shows_the_current_folder_and_the_first_page_of_the_others(monkeypatch):
    monkeypatch.setattr(render, "NAV_FLAT_LIMIT", 4)
    pages = [page(i) for i in ("index", "about", "a/one", "a/two", "b/one", "b/two")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    renderer = Renderer(Config(), theme_dir(), editor=False)
    assert nav_links(renderer.page(pages[3], nav)) == [
        ("../index.html", False), ("../a/one.html", False), ("../a/two.html", True), ("../b/one.html", False),
    ]
    assert nav_links(renderer.page(pages[1], nav)) == [
        ("index.html", False), ("about.html", True), ("a/one.html", False), ("b/one.html", False),
    ]


def test_a_nav_at_the_limit_stays_flat(monkeypatch):
    monkeypatch.setattr(render, "NAV_FLAT_LIMIT", 6)
    pages = [page(i) for i in ("index", "about", "a/one", "a/two", "b/one", "b/two")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    assert len(nav_links(Renderer(Config(), theme_dir(), editor=False).page(pages[3], nav))) == 6


def test_the_generated_front_page_lists_every_document_once():
    pages = [page(i) for i in ("about", "a/one", "b/two")]
    nav = [NavItem(p.title, p.doc.url, "en") for p in pages]
    html = Renderer(Config(), theme_dir(), editor=False).home(nav).decode()
    assert nav_links(html.encode()) == []
    for item in nav:
        assert html.count(f'href="{item.url}"') == 1, item.url
