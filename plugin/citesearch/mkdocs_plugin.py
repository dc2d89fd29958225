"""citesearch as an MkDocs plugin: ``plugins: [citesearch]`` gives the site cited-snippet search.

MkDocs renders the pages; citesearch adds its chunker to MkDocs' Markdown
extensions (it chunks page Markdown only, not the fragments other plugins such
as mkdocstrings convert with that list: ``mkdocs/page_chunker.py``), collects
each page's finished chunks from the extension instance
(MkDocs drops its ``Markdown`` object after every page), writes the same
search files as ``citesearch build`` and adds the widget to every page.
Pages whose front matter says ``visibility: editor`` are removed before MkDocs
reads them: no page, no index entry, no link target.

The plugin defines ``on_startup``, so ``mkdocs serve`` keeps one instance
across rebuilds: a ``--dirty`` rebuild renders only changed pages, and the
chunks of the others come from the previous build.
"""

from __future__ import annotations

import difflib
import logging
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from mkdocs.config import config_options as c
from mkdocs.config.base import Config as MkDocsPluginConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url, is_error_template

from .config import LANG_RE
from .engine import contract
from .markdown_ext.chunk import DEFAULT_BUDGET
from .markdown_ext.text import title_text
from .mkdocs.front_matter import front_matter
from .mkdocs.i18n import LanguageBuild, i18n_build, is_fallback
from .mkdocs.page_chunker import PageChunker
from .mkdocs.search_meta import search_meta
from .mkdocs.stale_pages import previous_page_urls, remove_pages
from .model import EDITOR, PUBLIC, VISIBILITIES
from .pipeline.index import SearchPage, build_search_files
from .assets import widget_assets
from .pipeline.render import theme_dir
from .mkdocs_theme import OTHER, ThemeAdapter, place_box, theme_adapter
from .widget_tags import WidgetTags
from .version import __version__

log = logging.getLogger("mkdocs.plugins.citesearch")
GENERATOR = {"name": "citesearch-mkdocs", "version": __version__}
MIN_BUDGET = 50  # as citesearch.yml's chunk_budget


class CitesearchConfig(MkDocsPluginConfig):
    #: Language of pages whose front matter has no ``lang``; default: the theme's language.
    lang = c.Optional(c.Type(str))
    #: Characters a chunk may hold before the next block starts a new chunk.
    chunk_budget = c.Type(int, default=DEFAULT_BUDGET)
    #: Front matter key that marks drafts (``<key>: editor``).
    visibility_key = c.Type(str, default="visibility")
    #: ``public`` leaves editor-only pages out; ``editor`` builds them too (a private preview).
    role = c.Choice(VISIBILITIES, default=PUBLIC)
    #: Folder of the search files, relative to the site.
    search_dir = c.Type(str, default=contract.SEARCH_DIR)
    #: Folder of the widget's scripts and styles, relative to the site.
    assets_dir = c.Type(str, default="assets/citesearch")


class CitesearchPlugin(BasePlugin[CitesearchConfig]):
    def __init__(self) -> None:
        # (language build, src_uri) -> chunks, kept across serve rebuilds; the language build is
        # mkdocs-static-i18n's language, "" without it (see citesearch.mkdocs.i18n)
        self.pages: dict[tuple[str, str], SearchPage] = {}
        self.run_pages: dict[str, list[SearchPage]] = {}  # language build -> its pages, in this run
        self.build: LanguageBuild | None = None
        self.extension = PageChunker(DEFAULT_BUDGET)
        self.lang = "en"  # of this build's pages (i18n builds one language at a time)
        self.default_lang = "en"
        self.hidden: set[str] = set()
        self.files = Files([])
        self.widget: Widget | None = None

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Present so that ``mkdocs serve`` keeps this instance (and its chunks) between builds."""

    def on_config(self, config):
        options = self.config
        if options.chunk_budget < MIN_BUDGET:
            raise PluginError(f"citesearch: 'chunk_budget' must be a whole number of at least {MIN_BUDGET}, got {options.chunk_budget}")
        for key in ("search_dir", "assets_dir"):
            value = options[key].strip("/")
            if not value or ".." in value.split("/"):
                raise PluginError(f"citesearch: '{key}' must be a folder inside the site, got '{options[key]}'")
            options[key] = value
        self.lang = self.default_lang = language_code(options.lang or theme_language(config))
        if not LANG_RE.match(self.lang):
            raise PluginError(f"citesearch: 'lang' must be a language code like 'en' or 'zh', got '{self.lang}'")
        if "search" in config.plugins and options.search_dir == contract.SEARCH_DIR:
            log.warning("citesearch: MkDocs' own 'search' plugin is enabled too and shares the 'search/' folder; "
                        "list only citesearch under 'plugins:' (or set 'search_dir')")
        # In the list MkDocs makes each page's Markdown from; it chunks only pages (see PageChunker).
        self.extension = PageChunker(options.chunk_budget)
        config.markdown_extensions.append(self.extension)
        self.widget = Widget.load(options.assets_dir, options.search_dir, theme_adapter(config.theme.name))
        return config

    def on_pre_build(self, *, config) -> None:
        self.build = i18n_build(config)
        if self.build is None or self.build.default:
            self.run_pages = {}
        lang = language_code(self.build.language) if self.build else self.default_lang
        self.lang = lang if LANG_RE.match(lang) else self.default_lang

    @property
    def _build_key(self) -> str:
        return self.build.language if self.build else ""

    def on_files(self, files: Files, config) -> Files:
        """Drop editor-only pages (and ``draft: true`` ones) before MkDocs reads them: they are never published.

        Front matter MkDocs would ignore and publish as text is an error in every role.
        """
        self.hidden = set()
        key = self.config.visibility_key
        for file in list(files.documentation_pages()):
            meta = front_matter(file.content_string, file.src_uri)
            if self.config.role == EDITOR:
                continue
            misspelt = near_miss(meta, key)
            if misspelt:  # 'Visibility: editor' would otherwise publish the draft
                raise PluginError(f"{file.src_uri}:1: unknown key '{misspelt}'; did you mean '{key}'?")
            visibility = meta.get(key, PUBLIC)
            if visibility not in VISIBILITIES:
                raise PluginError(
                    f"{file.src_uri}:1: unknown {key} '{visibility}' (choose {' or '.join(VISIBILITIES)})"
                )
            draft = meta.get("draft", False)  # Material's blog drafts; MkDocs itself would publish them
            if not isinstance(draft, bool):
                raise PluginError(f"{file.src_uri}:1: 'draft' must be true or false, got {draft!r}")
            if visibility == EDITOR or draft:
                files.remove(file)
                self.hidden.add(file.src_uri)
        return files

    @event_priority(-100)  # last: MkDocs renders the page right after this event
    def on_page_markdown(self, markdown: str, *, page: Page, config, files: Files) -> str:
        self.extension.arm()
        return markdown

    @event_priority(100)  # first: another plugin's on_page_content may convert Markdown with our extension too
    def on_page_content(self, html: str, *, page: Page, config, files: Files) -> str:
        # MkDocs rendered this page just now, with our extension instance.
        self.pages[(self._build_key, page.file.src_uri)] = self._search_page(page)
        return html

    def _search_page(self, page: Page) -> SearchPage:
        lang = page.meta.get("lang", self.lang)
        if not isinstance(lang, str) or not LANG_RE.match(lang):
            raise PluginError(f"{page.file.src_uri}:1: 'lang' must be a language code like 'en' or 'zh', got {lang!r}")
        doc_id = page.file.src_uri.removesuffix(".md")
        title = title_text(page.title or "") or doc_id  # nav titles may hold markup and entities
        chunks = self.extension.searchable(self.extension.result.finish(doc_id, lang, title))
        search = search_meta(page.meta, page.file.src_uri)
        indexed = not search.exclude and not is_fallback(page.file, self.build)
        return SearchPage(doc_id, page.url, title, lang, chunks if indexed else (), search.boost)

    def on_post_page(self, output: str, *, page: Page, config) -> str:
        assert self.widget is not None  # set by on_config
        root = get_relative_url(".", page.url).rstrip("/") + "/"
        return self.widget.inject(output, root, page.meta.get("lang", self.lang))

    def on_post_template(self, output: str, *, template_name: str, config) -> str:
        """The 404 page gets the search box too: it is where a reader most needs one."""
        if not is_error_template(template_name):
            return output  # sitemap.xml and other static templates are not pages
        assert self.widget is not None  # set by on_config
        # Served at any missing path, so MkDocs gives error pages absolute URLs: the same root here.
        root = urlsplit(config.site_url or "/").path.rstrip("/") + "/"
        return self.widget.inject(output, root, self.lang)

    def on_post_build(self, *, config) -> None:
        site = Path(config.site_dir)
        key = self._build_key
        documents = sorted(f.src_uri for f in self.files.documentation_pages())
        missing = [uri for uri in documents if (key, uri) not in self.pages]
        if missing:  # `build --dirty` in a fresh process: pages MkDocs did not render this time
            self._render(missing, config)
        self.run_pages[key] = [self.pages[(key, uri)] for uri in documents]
        pages = [page for built in self.run_pages.values() for page in built]  # every language built so far
        if self.build is None or set(self.run_pages) >= set(self.build.languages):  # i18n: once all are built
            gone = previous_page_urls(site / self.config.search_dir) - {page.url for page in pages}
            for url in remove_pages(site, gone):  # only `--dirty` keeps them: a deleted page, a page now a draft
                log.info(f"citesearch: removed {url or 'index.html'}, a page of the previous build that is gone or a draft now")
        search = build_search_files(pages, self.default_lang, GENERATOR)
        written = {path.split("/", 1)[1]: data for path, data in search.items()}
        write_folder(site / self.config.search_dir, written)
        assets = widget_assets(theme_dir())
        for name in assets.files:
            target = site / self.config.assets_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(assets.read(name))
        log.info(f"citesearch: {len(pages)} pages, {sum(len(p.chunks) for p in pages)} chunks indexed"
                 + (f", {len(self.hidden)} editor-only pages left out" if self.hidden else ""))

    def on_env(self, env, *, config, files: Files):
        self.files = files  # after every plugin's on_files and the nav: the pages of this build
        return env

    def _render(self, uris: list[str], config) -> None:
        for file in self.files.documentation_pages():
            if file.src_uri in uris and file.page is not None:
                file.page.read_source(config)
                self.extension.arm()
                file.page.render(config, self.files)
                self.pages[(self._build_key, file.src_uri)] = self._search_page(file.page)


@dataclass(frozen=True)
class Widget:
    """What every page gets: tags in <head>, the search box, the script (``widget_tags``), where the theme wants them."""

    tags: WidgetTags
    theme: ThemeAdapter = OTHER  # where the box goes in the site's theme (mkdocs_theme.py)

    @classmethod
    def load(cls, assets_dir: str, search_dir: str, theme: ThemeAdapter = OTHER) -> "Widget":
        return cls(WidgetTags.load(assets_dir, search_dir), theme)

    def inject(self, html: str, root: str, lang: str) -> str:
        # Tags in <head>, the box in the theme's header, the script last.
        html = html.replace("</head>", self.tags.head(root) + "</head>", 1)
        html = place_box(html, self.theme, lambda theme: self.tags.box(lang, theme))
        script = self.tags.script(root)
        at = html.rfind("</body>")
        return html[:at] + script + html[at:] if at >= 0 else html + script


# --- helpers without plugin state -----------------------------------------------------------------

def theme_language(config) -> str:
    """Material's ``theme.language``, else the ``mkdocs`` theme's locale, else English."""
    theme = config.theme
    language = theme.get("language") if hasattr(theme, "get") else None
    if isinstance(language, str) and language:
        return language
    locale = theme.get("locale") if hasattr(theme, "get") else None
    return getattr(locale, "language", None) or "en"


def language_code(lang: str) -> str:
    """MkDocs locales (``zh_CN``) as citesearch language codes (``zh-cn``)."""
    return lang.replace("_", "-").lower()


def near_miss(meta: dict, key: str) -> str | None:
    """A front matter key that looks like ``key`` but is not it (``Visibility``, ``visiblity``, full-width letters)."""
    for other in meta:
        folded = unicodedata.normalize("NFKC", str(other)).casefold()
        if other != key and (folded == key.casefold() or difflib.get_close_matches(folded, [key], n=1, cutoff=0.8)):
            return other
    return None


def write_folder(folder: Path, files: dict[str, bytes]) -> None:
    """Write the search files and remove the previous build's (hashed names change).

    Only hashed citesearch files are removed: MkDocs' own search, if left on,
    keeps its files.
    """
    if folder.is_dir():
        for path in sorted(folder.rglob("*.json")):
            name = path.relative_to(folder).as_posix()
            if name not in files and name != contract.MANIFEST_NAME and contract.is_search_file(name):
                path.unlink()
    for name, data in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
