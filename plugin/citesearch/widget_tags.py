"""The search box's tags for a page: what goes in <head>, the box, the script.

One source for both adapters that put the box into pages another tool
rendered: the MkDocs plugin (``mkdocs_plugin.Widget``, into MkDocs' HTML
strings) and ``citesearch index`` (``html_site.widget``, into parsed pages).
MkDocs-free, so ``citesearch index`` runs without MkDocs installed.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from .assets import WidgetAssets, widget_assets
from .engine import contract
from .pipeline.render import theme_dir
from .theme_templates import theme_loader

ASSETS_DIR = "assets/citesearch"  # where the widget's files go in a site, by default


@dataclass(frozen=True)
class WidgetTags:
    assets: WidgetAssets
    box_template: jinja2.Template  # the standalone theme's own search box, templates/search.html
    assets_dir: str = ASSETS_DIR
    search_dir: str = contract.SEARCH_DIR

    @classmethod
    def load(cls, assets_dir: str = ASSETS_DIR, search_dir: str = contract.SEARCH_DIR) -> "WidgetTags":
        env = jinja2.Environment(
            loader=theme_loader(theme_dir()), autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        return cls(widget_assets(theme_dir()), env.get_template("search.html"), assets_dir, search_dir)

    @property
    def version(self) -> str:
        """Hash of the widget's files, in every URL: a redeployed site never mixes old and new modules."""
        return self.assets.version

    def head(self, root: str) -> str:
        """The tags for <head> of a page ``root`` away from the site's root (``../``), one a line."""
        assets, version = f"{root}{self.assets_dir}/", self.version
        # No import map: the modules import each other stamped with the version
        # (assets.versioned_imports). The box's modules download at once, not
        # as each import is discovered.
        preloads = "".join(f'<link rel="modulepreload" href="{assets}{name}?v={version}">\n' for name in self.assets.preloads)
        return (
            f'<meta name="citesearch:search" content="{root}{self.search_dir}/" data-root="{root}">\n'
            f"{preloads}"
            f'<link rel="stylesheet" href="{assets}search.css?v={version}">\n'
        )

    def box(self, lang: str, theme: str | None = None) -> str:
        """The search box; ``theme`` names the theme adapter (``mkdocs_theme``), None: the standalone box."""
        if theme is None:
            return self.box_template.render(page_lang=lang)
        return self.box_template.render(page_lang=lang, citesearch_theme=theme)

    def script(self, root: str) -> str:
        return f'<script type="module" src="{root}{self.assets_dir}/citesearch.js?v={self.version}"></script>\n'
