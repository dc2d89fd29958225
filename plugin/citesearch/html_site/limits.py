"""Limits: refuse built pages the HTML parser would take minutes (or all memory) to read.

Lexbor, the HTML5 parser, does work that grows with the square of the nesting
depth (20,000 nested ``<div>``: 4 s; 100,000: minutes), so the depth is
measured first, in one linear pass over the tags, and a page nested deeper
than any real one is refused with the line where it gets too deep.  The pass
over-counts a little (an end tag a page leaves out still counts as open),
never under-counts; real pages stay far below it (Material pages: ~30).
"""

from __future__ import annotations

import re

MAX_PAGE_BYTES = 16 * 1024 * 1024  # the largest page of the shared real sites is ~1 MB
MAX_DEPTH = 256  # as libxml2's default; the passage walk recurses once per container level

# Elements that never hold children, and those whose end tag may be left out:
# neither makes the tree deeper in a parser that follows HTML5.
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_OPTIONAL_END = frozenset("p li dt dd option optgroup tr td th thead tbody tfoot colgroup caption rt rp".split())
# Comments and raw-text elements first, so a '<div>' inside them is not a tag.  A tag stops
# at the next '<' too: a page of unclosed '<a ' must not be scanned once per '<'.
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|textarea|title|xmp)\b[^<>]*>.*?(?:</\1\s*>|\Z)|<(/?)([A-Za-z][^\s/<>]*)[^<>]*?(/?)>",
    re.DOTALL | re.IGNORECASE,
)


def page_problem(text: str, size: int) -> tuple[int, str] | None:
    """(line, message) when the page must not be parsed, else None."""
    if size > MAX_PAGE_BYTES:
        return 1, f"page is {size / 1048576:,.1f} MiB; at most {MAX_PAGE_BYTES // 1048576} MiB are indexed; left as it is"
    if text.count("<") <= MAX_DEPTH:
        return None  # fewer tags than the limit: no need to look
    depth = 0
    for match in _TOKEN.finditer(text):
        name = match.group(3)
        if not name:
            continue  # a comment or a raw-text element
        name = name.lower()
        if name in _VOID or name in _OPTIONAL_END or match.group(4):
            continue
        if match.group(2):
            depth = max(0, depth - 1)
            continue
        depth += 1
        if depth > MAX_DEPTH:
            line = text.count("\n", 0, match.start()) + 1
            return line, f"elements nested more than {MAX_DEPTH} levels deep; at most {MAX_DEPTH} are read; left as it is"
    return None
