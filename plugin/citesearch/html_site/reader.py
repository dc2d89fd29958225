"""Read one built HTML page: its passages as a ``SearchPage``, and the page with their ids (and the box) written in.

The reader contract of ``citesearch index``: ``read_page(text, rel, options, widget)``
gives the same plain values a Markdown document gives ``citesearch build``,
or the reason the page has nothing to index.  Content is found as Pagefind
finds it: ``[data-citesearch-body]``, else the page's ``main`` (narrowed to
its one ``article``, which leaves out the side navigation of Material-like
themes), ``[role=main]`` or its only ``article``; ``[data-citesearch-ignore]``
and ``--exclude`` leave parts out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..config import LANG_RE
from ..markdown_ext.chunk import DEFAULT_BUDGET
from ..pipeline.index import SearchPage
from .limits import page_problem
from .passages import cut_passages, unmark
from .widget import WIDGET_ATTR, WidgetTags, put_widget, remove_widget

BODY_ATTR = "data-citesearch-body"
IGNORE_ATTR = "data-citesearch-ignore"
# Never content, on any generator: navigation, icons, the pilcrow links beside headings, hidden parts.
IGNORED = ("nav", "svg", ".headerlink", "[hidden]", "[aria-hidden=true]", f"[{IGNORE_ATTR}]", f"[{WIDGET_ATTR}]")
REDIRECT_META = 'meta[http-equiv="refresh" i]'
EDITOR_META = 'meta[name="citesearch" i]'
ROBOTS_META = 'meta[name="robots" i]'
# Only a page an earlier run indexed has marks or a widget to remove (data-chunk, data-citesearch-*): a fresh
# build is not searched for them.  A loose test, never missing one: the literal "-" first keeps the regex
# engine at memchr speed (with "data" first and IGNORECASE it took longer than the removal it saves).
_OUR_MARKS = re.compile(r"-(?i:chunk|citesearch-)")
# Pages that are about the site, not content: nothing to index, no box (a 404 is served at any path).
NOT_CONTENT = {"404.html": "not-found page", "search.html": "search page", "search/index.html": "search page",
               "genindex.html": "generated index"}
# Pages left byte for byte as the generator wrote them: drafts get no box either.
_FULL_PAGE = re.compile(r"<(?:!doctype\s+html|html[\s>])", re.IGNORECASE)
UNTOUCHED = ("redirect", "editor-only page", "noindex page", "excluded", "not-found page")


@dataclass(frozen=True)
class IndexOptions:
    root_selector: str | None = None  # --root-selector: where the content is
    exclude: tuple[str, ...] = ()  # --exclude: parts (or whole pages) that are not content
    lang_from: Literal["html", "folder"] = "html"
    default_lang: str = "en"
    inject: bool = True
    slot: str | None = None  # --slot: where the box goes
    budget: int = DEFAULT_BUDGET


@dataclass(frozen=True)
class ReadPage:
    page: SearchPage | None  # None: nothing to index (see ``skipped``)
    output: str | None  # the page as it must be written; None: leave the file as it is
    skipped: str = ""  # why the page is not indexed
    problem: tuple[int, str] | None = None  # (line, message): the page could not be read at all


def read_page(text: str, rel: str, options: IndexOptions, widget: WidgetTags, size: int | None = None) -> ReadPage:
    problem = page_problem(text, len(text) if size is None else size)
    if problem:
        return ReadPage(None, None, "unreadable", problem)
    if not _FULL_PAGE.search(text, 0, 4096):
        return ReadPage(None, None, "not a full page")  # a template or fragment the generator copied: left as it is
    doc = LexborHTMLParser(text)
    skipped = _not_content(doc, rel)
    roots = content_roots(doc, options.root_selector) if not skipped else []
    if options.exclude and _excluded(doc, roots, options.exclude):
        skipped = "excluded"
    if skipped in UNTOUCHED:
        return ReadPage(None, None, skipped)
    if _OUR_MARKS.search(text):
        unmark(doc)
        remove_widget(doc)
    lang = page_lang(doc, rel, options)
    page = None
    if not skipped:
        if not roots:
            skipped = "no main content"
        else:
            result = cut_passages(doc, roots, ignored_nodes(roots, options.exclude), options.budget)
            title = result.heading_title or _title(doc) or rel
            doc_id = rel.removesuffix(".html")
            chunks = result.finish(doc_id, lang, title)
            if any(chunk.text for chunk in chunks):
                page = SearchPage(doc_id, page_url(rel), title, lang, chunks)
            else:
                skipped = "no text"
    if options.inject:
        put_widget(doc, widget, site_root(rel), lang, options.slot)
    output = doc.html or ""
    return ReadPage(page, None if output == text else output, skipped)


def _not_content(doc: LexborHTMLParser, rel: str) -> str:
    metas = doc.css(f"{REDIRECT_META}, {EDITOR_META}, {ROBOTS_META}")  # one pass over the page, not three
    if _first_meta(metas, REDIRECT_META) is not None:
        return "redirect"
    editor = _first_meta(metas, EDITOR_META)
    if editor is not None and (editor.attrs.get("content") or "").strip().lower() == "editor":
        return "editor-only page"
    robots = _first_meta(metas, ROBOTS_META)
    if robots is not None and "noindex" in (robots.attrs.get("content") or "").lower():
        return "noindex page"
    return NOT_CONTENT.get(rel, "")


def _first_meta(found: list[LexborNode], selector: str) -> LexborNode | None:
    """The first of ``found`` (a query's matches, in page order) that ``selector`` matches.

    ``css_matches`` is true when the selector matches the node or anything inside it: exact
    for a <meta>, which never has children.
    """
    return next((node for node in found if node.css_matches(selector)), None)


def content_roots(doc: LexborHTMLParser, selector: str | None) -> list[LexborNode]:
    if selector:
        return doc.css(selector)
    candidates = doc.css(f"[{BODY_ATTR}], main, [role=main]")  # one pass over the page, not three
    marked = [node for node in candidates if BODY_ATTR in node.attrs]
    if marked:
        return marked
    if candidates:  # the first <main>, else the first [role=main] (when no <main>, every candidate is one)
        found = next((node for node in candidates if node.tag == "main"), candidates[0])
        articles = found.css("article")
        return [articles[0]] if len(articles) == 1 else [found]
    articles = doc.css("article")
    return articles if len(articles) == 1 else []


def ignored_nodes(roots: list[LexborNode], exclude: tuple[str, ...]) -> list[LexborNode]:
    selector = ", ".join((*IGNORED, *exclude))  # one pass over the content, not one per selector
    return [node for root in roots for node in root.css(selector)]


def _excluded(doc: LexborHTMLParser, roots: list[LexborNode], exclude: tuple[str, ...]) -> bool:
    """An --exclude selector matches a content root or an element around it: the whole page is left out.

    (Matches inside the content are parts left out: ``ignored_nodes``.)  Not ``css_matches``, which is
    also true when the selector matches something inside the node.
    """
    matched = {node.mem_id for node in doc.css(", ".join(exclude))}
    for root in roots:
        node: LexborNode | None = root
        while node is not None and node.is_element_node:
            if node.mem_id in matched:
                return True
            node = node.parent
    return False


def page_lang(doc: LexborHTMLParser, rel: str, options: IndexOptions) -> str:
    if options.lang_from == "folder":
        first = rel.split("/", 1)[0] if "/" in rel else ""
        code = first.lower().replace("_", "-")
    else:
        code = (doc.root.attrs.get("lang") or "").strip().lower().replace("_", "-") if doc.root is not None else ""
    return code if LANG_RE.match(code) else options.default_lang


def _title(doc: LexborHTMLParser) -> str:
    title = doc.css_first("title")
    return " ".join(title.text().split()) if title is not None else ""


def page_url(rel: str) -> str:
    """The page's site-relative URL as links give it: ``guide/index.html`` -> ``guide/``."""
    if rel == "index.html":
        return ""
    return rel.removesuffix("index.html") if rel.endswith("/index.html") else rel


def site_root(rel: str) -> str:
    return "../" * rel.count("/") or "./"
