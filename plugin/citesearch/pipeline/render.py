"""Render: parsed documents -> complete HTML pages through the Jinja2 theme."""

from __future__ import annotations

import contextlib
import traceback
from pathlib import Path
from typing import Iterator, Sequence
from html import escape as escape_text  # not xml.sax.saxutils: it imports urllib.request, ssl (~3 MB per process)

import jinja2
from markupsafe import Markup
from markupsafe import escape as escape_html

from ..assets import widget_assets
from ..config import Config
from ..markdown_ext.links import relative_url
from ..errors import ContentError, Problem
from ..model import ParsedDocument
from ..theme_templates import theme_loader
from . import nav as navigation
from .nav import NavItem
from .ui_words import words_for


def theme_dir() -> Path:
    """The theme inside the installed wheel, or beside ``plugin/`` in a source checkout."""
    packaged = Path(__file__).parents[1] / "theme"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "theme"


PAGE_MODULES = ("nav.js",)


def root_prefix(url: str) -> str:
    """Relative path from a page back to the site root: ``a/b.html`` -> ``../``."""
    return "../" * url.count("/")


class Renderer:
    def __init__(self, config: Config, theme: Path, *, editor: bool, extra_head: str = ""):
        self.config = config
        self.editor = editor
        self.theme = theme
        self.extra_head = extra_head
        self.env = jinja2.Environment(
            loader=theme_loader(theme),
            autoescape=jinja2.select_autoescape(["html", "xml"]),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
        )
        self.assets = widget_assets(theme)
        self.asset_version = self.assets.version
        # The modules import each other stamped with the version (assets.versioned_imports).
        self.modules = list(self.assets.modules)
        # The box's modules, and the theme's own page script (the nav's menu button), all fetched at once.
        self.preloads = sorted({*self.assets.preloads, *(m for m in PAGE_MODULES if m in self.assets.files)})
        # Where links to the root's listing go: the generated front page, or
        # (when a document is the front page) the root's own listing.
        self.home_url: str | None = "index.html"
        self._nav_source: Sequence[NavItem] | None = None
        self._nav_cache: dict[tuple, str] = {}
        self._trees: dict[str, navigation.Folder] = {}  # per language
        self._positions: dict[str, int] = {}  # url -> place among its folder's pages
        self._all = navigation.Folder("", "")

    def _site_nav(self, nav: Sequence[NavItem]) -> None:
        """The trees of ``nav``, made once per nav (the build renders every page with the same one)."""
        if self._nav_source is nav:
            return
        self._nav_source, self._nav_cache, self._trees, self._positions = nav, {}, {}, {}
        self._all = navigation.build_tree(nav)
        for lang in dict.fromkeys(i.lang for i in nav):
            self._trees[lang] = navigation.build_tree([i for i in nav if i.lang == lang])
            for folder in self._trees[lang].walk():
                self._positions.update((p.url, n) for n, p in enumerate(folder.pages))

    def is_big(self, nav: Sequence[NavItem]) -> bool:
        """Whether some language has more pages than a page can list: then folders get listings."""
        self._site_nav(nav)
        return any(tree.count > navigation.FULL_LIMIT for tree in self._trees.values())

    def _common(self, url: str, lang: str) -> dict:
        return {
            "site_title": self.config.title,
            "root": root_prefix(url),
            "page_lang": lang,
            "asset_version": self.asset_version,
            "modules": self.modules,
            "preloads": self.preloads,
            "editor_build": self.editor,
            "extra_head": self.extra_head,
            "canonical": self.config.base_url + url if self.config.base_url else "",
            "words": words_for(lang),
        }

    def page(self, page: ParsedDocument, nav: Sequence[NavItem]) -> bytes:
        doc = page.doc
        toc = [h for h in page.headings if h.level in (2, 3) and h.id]
        context = self._common(doc.url, doc.lang) | {
            "title": page.title,
            "description": doc.description,
            "content": page.html,
            "toc": toc,
            "editor_only": doc.is_editor_only,
            "nav_html": self._nav_html(nav, doc.lang, root_prefix(doc.url), current=doc.url),
        }
        return self._render("page.html", context)

    def home(self, nav: Sequence[NavItem]) -> bytes:
        """The front page when no document has the id ``index``: every page by folder, or the root's listing."""
        if self.is_big(nav):
            return self.listing(navigation.listings(self._all_tree(nav), self.home_url, self.config.title)[0])
        context = self._common("index.html", self.config.lang) | {
            "title": self.config.title,
            "description": "",
            "tree": self._all_tree(nav),
            # The page itself lists every document: no second list beside it
            # (rust-rfcs: 648 links, half of a 132 KB front page).
            "nav_html": Markup(""),
            "toc": [],
            "editor_only": False,
        }
        return self._render("home.html", context)

    def listings(self, nav: Sequence[NavItem]) -> list[navigation.Listing]:
        """The folder listings a big site gets (none on a small one)."""
        if not self.is_big(nav):
            return []
        return navigation.listings(self._all_tree(nav), self.home_url, self.config.title)

    def listing(self, listing: navigation.Listing) -> bytes:
        root = root_prefix(listing.url)
        title = listing.folder.title or self.config.title
        if listing.pages > 1:
            title += f" ({listing.number}/{listing.pages})"
        context = self._common(listing.url, self.config.lang) | {
            "title": title,
            "description": "",
            "listing": listing,
            "root_href": root,
            "nav_html": Markup(""),
            "toc": [],
            "editor_only": False,
        }
        return self._render("listing.html", context)

    def _all_tree(self, nav: Sequence[NavItem]) -> navigation.Folder:
        """Every language's pages in one tree: a folder's listing shows them all."""
        self._site_nav(nav)
        return self._all

    def not_found(self) -> bytes:
        context = self._common("404.html", self.config.lang) | {
            "title": "Page not found",
            "description": "",
            "nav_html": Markup(""),
            "toc": [],
            "editor_only": False,
        }
        return self._render("404.html", context)

    def redirect(self, alias_url: str, target_url: str, title: str) -> bytes:
        context = {
            "target": relative_url(alias_url, target_url),
            "canonical": self.config.base_url + target_url if self.config.base_url else relative_url(alias_url, target_url),
            "title": title,
        }
        return self._render("redirect.html", context)

    def _nav_html(self, nav: Sequence[NavItem], lang: str, root: str, *, current: str) -> Markup:
        """The nav of one page of ``lang``: links relative to ``root``, ``current`` marked.

        Everything but the current page's neighbours is rendered once per
        language, folder depth and folder, and reused: rendering every item
        into every page was most of the render time.  The current page's link
        is marked by replacing its exact ``<a href="...">``.
        """
        self._site_nav(nav)
        tree = self._trees.get(lang)
        if tree is None:
            return Markup("")
        folder = navigation.folder_of(current)
        big = tree.count > navigation.FULL_LIMIT
        key = (lang, root, folder)
        html = self._nav_cache.get(key)
        if html is None:
            if big:
                html = navigation.bounded_html(tree, root, folder, lang, self.home_url)
            else:
                html = navigation.full_html(tree, root, folder)
            self._nav_cache[key] = html
        if big:
            node = navigation.find(tree, folder)[-1]
            around = navigation.window_html(node, root, current, lang, self.home_url, self._positions)
            html = html.replace(navigation.WINDOW_MARK, around)
        link = f'<a href="{escape_html(root + current)}">'
        return Markup(html.replace(link, f'{link[:-1]} aria-current="page">', 1))

    def _render(self, template: str, context: dict) -> bytes:
        with self._reported():
            return self.env.get_template(template).render(context).encode("utf-8")

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        try:
            yield
        except jinja2.TemplateError as exc:
            raise ContentError([template_problem(exc, self.theme)]) from None


def template_problem(exc: jinja2.TemplateError, theme: Path) -> Problem:
    """``<theme>/templates/page.html:12: message`` for a broken theme, instead of a traceback.

    Syntax errors carry their template and line; errors while rendering (an
    undefined variable, a failing filter) only show them in the traceback,
    where Jinja puts the template's own file and line on its frame.
    """
    filename, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if filename is None:
        templates = str(theme / "templates")
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(templates)]
        if frames:
            filename, line = frames[-1].filename, frames[-1].lineno
    where = Path(filename or theme / "templates")
    with contextlib.suppress(ValueError):  # as short as the user would type it
        where = where.relative_to(Path.cwd())
    return Problem(str(where), line or 1, f"template error: {exc.message or type(exc).__name__}")


def build_nav(pages: Sequence[ParsedDocument], config: Config) -> list[NavItem]:
    """Navigation in ``nav:`` order when configured, else the front page first, then by id."""
    by_path = {p.doc.rel_path: p for p in pages}
    if config.nav is not None:
        items = []
        for entry in config.nav:
            page = by_path.get(entry.path)
            if page is not None:
                items.append(NavItem(entry.title or page.title, page.doc.url, page.doc.lang))
        return items
    ordered = sorted(pages, key=lambda p: (p.doc.id.rsplit("/", 1)[-1] != "index", p.doc.id))
    return [NavItem(p.title, p.doc.url, p.doc.lang) for p in ordered]


def sitemap(urls: Sequence[str], base_url: str) -> bytes:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <url><loc>{escape_text(base_url + url, quote=False)}</loc></url>" for url in urls]
    lines.append("</urlset>\n")
    return "\n".join(lines).encode("utf-8")


__all__ = ["Renderer", "NavItem", "build_nav", "sitemap", "theme_dir"]
