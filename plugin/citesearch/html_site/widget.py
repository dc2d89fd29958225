"""The search box in a built page: the same tags the MkDocs plugin adds (``widget_tags``), put in with the HTML parser.

Every element added carries ``data-citesearch-widget``; a later run removes
them first, so a page indexed twice is the same page.
"""

from __future__ import annotations

import functools

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..widget_tags import ASSETS_DIR, WidgetTags

__all__ = ["ASSETS_DIR", "WIDGET_ATTR", "WidgetTags", "put_widget", "remove_widget"]

WIDGET_ATTR = "data-citesearch-widget"
# Where the box goes when no --slot is given: a page's own slot, Material's and
# Zensical's header bar, any header; else a fixed corner of the window.
DEFAULT_SLOTS = ("[data-citesearch-slot]", ".md-header__inner", "body > header", "header")
CORNER_STYLE = "position:fixed;top:.5rem;right:.5rem;z-index:1000"


def remove_widget(doc: LexborHTMLParser) -> None:
    for node in doc.css(f"[{WIDGET_ATTR}]"):
        node.decompose()


def put_widget(doc: LexborHTMLParser, tags: WidgetTags, root: str, lang: str, slot: str | None) -> None:
    """Add the widget's tags to the head, the box to the slot (or a corner) and the script to the end of the body."""
    head, body = doc.head, doc.body
    if head is None or body is None:
        return
    before = head.css_first("script, link, style")
    for node in _fragment(tags.head(root), "head"):
        before.insert_before(node) if before is not None else head.insert_child(node)
    slots = (slot,) if slot else DEFAULT_SLOTS
    target = None
    if len(slots) == 1 or doc.css_first(", ".join(slots)) is not None:  # most pages have none: one pass, not four
        target = next((found for selector in slots if (found := doc.css_first(selector))), None)
    boxes = _fragment(tags.box(lang), "body")
    if target is None:  # no header: a fixed corner of the window
        corner = doc.create_node("div")
        corner.attrs[WIDGET_ATTR] = ""
        corner.attrs["style"] = CORNER_STYLE
        for node in boxes:
            corner.insert_child(node)
        body.insert_child(corner)  # inserted with its children: selectolax inserts a copy
    else:
        for node in boxes:
            target.insert_child(node)
    for node in _fragment(tags.script(root), "body"):
        body.insert_child(node)


@functools.lru_cache(maxsize=64)  # one per folder depth and language: inserting copies the nodes, so they serve every page
def _fragment(html: str, where: str) -> tuple[LexborNode, ...]:
    """The top-level elements of an HTML fragment parsed into ``where`` (head or body), marked as the widget's."""
    parsed = LexborHTMLParser(f"<html><head>{html if where == 'head' else ''}</head><body>{html if where == 'body' else ''}</body></html>")
    parent = parsed.head if where == "head" else parsed.body
    nodes = [node for node in parent.iter(include_text=False) if node.is_element_node]
    for node in nodes:
        node.attrs[WIDGET_ATTR] = ""
    return tuple(nodes)
