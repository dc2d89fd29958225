"""Theme adapters: where the search box goes in an MkDocs theme, and what the theme's own scripts expect.

An adapter is a row of a table, not a fork of the widget. The box, its script
and its styles are the same on every theme; the row names

- the header slot: the box goes after ``after`` and before the first ``before``
  that follows it (where the theme's own search sits);
- the name written on the box as ``data-theme-adapter``, which selects the
  layout rules in ``search.css`` and the page hooks in ``widget-theme.js``
  (colours follow the theme's own CSS variables, keyed by the theme's own
  colour-scheme attribute, also in ``search.css``);
- ``hooks``: markup the theme's scripts look for when MkDocs' ``search`` plugin
  is off, so they keep working (the ``mkdocs`` theme's base.js stops at a
  missing search modal, and with it its keyboard shortcuts and table styles).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ThemeAdapter:
    name: str
    after: re.Pattern[str]
    before: re.Pattern[str] | None = None
    hooks: str = ""
    hooks_unless: str = ""  # the hooks are left out when the page has this already (the theme's own search is on)

    def slot(self, html: str) -> int | None:
        """Where the box goes in ``html``, or None when the page has no such slot (an overridden template)."""
        start = self.after.search(html)
        if not start:
            return None
        end = self.before.search(html, start.end()) if self.before else None
        return end.start() if end else start.end()


# Material for MkDocs: its own search sits at the end of the header's first row,
# before the repository link. The row ends at its </nav>: after it come the
# sticky tabs, a second row that instant navigation replaces on every page.
MATERIAL = ThemeAdapter(
    "material",
    after=re.compile(r'<nav class="md-header__inner[^"]*"[^>]*>'),
    before=re.compile(r'<div class="md-header__source">|</nav>'),
)

# The built-in ``mkdocs`` theme: its search link is the first item of the
# navbar's right-hand list. base.js builds a Bootstrap modal from
# #mkdocs_search_modal and focuses #mkdocs-search-query on `s`; without them it
# throws before it binds n/p/s/? and styles tables. The stand-ins are inert:
# widget-theme.js cancels the modal and focuses the box instead.
MKDOCS = ThemeAdapter(
    "mkdocs",
    after=re.compile(r'<div class="navbar[^"]*"[^>]*>'),
    before=re.compile(r'<ul class="nav navbar-nav ms-md-auto">'),
    hooks=(
        '<div id="mkdocs_search_modal" class="citesearch-theme-hook" hidden>'
        '<input id="mkdocs-search-query" type="hidden"><div id="mkdocs-search-results"></div></div>\n'
    ),
    hooks_unless='id="mkdocs_search_modal"',
)

# Any other theme: the top of <body>.
OTHER = ThemeAdapter("other", after=re.compile(r"<body[^>]*>"))

THEMES = {adapter.name: adapter for adapter in (MATERIAL, MKDOCS)}


def theme_adapter(theme_name: str | None) -> ThemeAdapter:
    return THEMES.get(theme_name or "", OTHER)


def place_box(html: str, adapter: ThemeAdapter, render_box: Callable[[str], str]) -> str:
    """``html`` with the box in the theme's slot and the theme's hooks last in <body>.

    A page without the slot (a template the site overrides) gets the box at the
    top of <body>, rendered for no theme in particular.
    """
    at = adapter.slot(html)
    if at is None:
        adapter = OTHER
        at = OTHER.slot(html) or 0
    html = html[:at] + render_box(adapter.name) + html[at:]
    if adapter.hooks and not (adapter.hooks_unless and adapter.hooks_unless in html):
        end = html.rfind("</body>")
        html = html[:end] + adapter.hooks + html[end:] if end >= 0 else html + adapter.hooks
    return html
