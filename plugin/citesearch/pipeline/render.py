"""Render: parsed documents -> complete HTML pages through the Jinja2 theme."""

from __future__ import annotations

import contextlib
import traceback
from collections import Counter
from dataclasses import dataclass
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


def theme_dir() -> Path:
    """The theme inside the installed wheel, or beside ``plugin/`` in a source checkout."""
    packaged = Path(__file__).parents[1] / "theme"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "theme"


def root_prefix(url: str) -> str:
    """Relative path from a page back to the site root: ``a/b.html`` -> ``../``."""
    return "../" * url.count("/")


# A language's nav with more pages than this shows only the current page's
# folder in full, and every other folder by its first page.
NAV_FLAT_LIMIT = 1000


@dataclass(frozen=True)
class NavItem:
    title: str
    url: str  # site-relative
    lang: str


class Renderer:
    def __init__(self, config: Config, theme: Path, *, editor: bool, extra_head: str = ""):
        self.config = config
        self.editor = editor
        self.theme = theme
        self.extra_head = extra_head
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(theme / "templates")),
            autoescape=jinja2.select_autoescape(["html", "xml"]),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
        )
        self.assets = widget_assets(theme)
        self.asset_version = self.assets.version
        # ES modules import each other by plain relative URLs; the page's import map
        # stamps every one with the version, so a redeploy never mixes old and new modules.
        self.modules = list(self.assets.modules)
        self._nav_source: Sequence[NavItem] | None = None
        self._nav_cache: dict[tuple[str, str, str | None], str] = {}
        self._nav_counts: Counter[str] = Counter()  # items per language

    def _common(self, url: str, lang: str) -> dict:
        return {
            "site_title": self.config.title,
            "root": root_prefix(url),
            "page_lang": lang,
            "asset_version": self.asset_version,
            "modules": self.modules,
            "preloads": self.assets.preloads,
            "editor_build": self.editor,
            "extra_head": self.extra_head,
            "canonical": self.config.base_url + url if self.config.base_url else "",
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
        """The front page when no document has the id ``index``."""
        items = [{"title": i.title, "href": i.url} for i in nav]
        context = self._common("index.html", self.config.lang) | {
            "title": self.config.title,
            "description": "",
            "nav": items,
            # The page itself lists every document: no second list beside it
            # (rust-rfcs: 648 links, half of a 132 KB front page).
            "nav_html": Markup(""),
            "toc": [],
            "editor_only": False,
        }
        return self._render("home.html", context)

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
        """The nav items of one language, links relative to ``root``, ``current`` marked.

        Rendered once per language, folder depth (and folder, for a collapsed
        nav) and reused for every page: re-rendering every item into every page
        was most of the render time. The current page's link is marked by
        replacing its exact ``<a href="...">``.
        """
        if self._nav_source is not nav:  # another nav: forget the items rendered for the last one
            self._nav_source, self._nav_cache, self._nav_counts = nav, {}, Counter(i.lang for i in nav)
        folder = _folder(current) if self._nav_counts[lang] > NAV_FLAT_LIMIT else None
        html = self._nav_cache.get((lang, root, folder))
        if html is None:
            items = [i for i in nav if i.lang == lang]
            if folder is not None:
                items = _collapsed(items, folder)
            # Links as root + url: posixpath.relpath per item is slow.
            html = self._nav_items([{"title": i.title, "href": root + i.url} for i in items])
            self._nav_cache[(lang, root, folder)] = html
        link = f'<a href="{escape_html(root + current)}">'
        return Markup(html.replace(link, f'{link[:-1]} aria-current="page">'))

    def _nav_items(self, items: list[dict]) -> str:
        with self._reported():
            return str(self.env.get_template("nav.html").module.nav_items(items))

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


def _folder(url: str) -> str:
    return url.rsplit("/", 1)[0] if "/" in url else ""


def _collapsed(items: Sequence[NavItem], folder: str) -> list[NavItem]:
    """The pages of ``folder`` and the first page of every other folder.

    A flat list of every page in every page grows with the square of the site
    (10,000 pages: 10,000 links each, gigabytes of HTML) and helps nobody.
    """
    shown, seen = [], set()
    for item in items:
        item_folder = _folder(item.url)
        if item_folder == folder or item_folder not in seen:
            shown.append(item)
        seen.add(item_folder)
    return shown


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
