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
# Lexbor's time is about 6.5 ns x tags x depth (10,000 nested: 0.65 s): 1,000 levels is a few hundred ms even
# on a page of 100,000 tags, and a page of at most 5,000 tags is read in ~0.2 s however it nests, so it is
# not measured (most pages: the measuring took a quarter of the time spent reading them).
MAX_DEPTH = 1000
PARSED_AS_IS = 5000

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


# The same reading, mostly by the regex engine instead of a Python loop per tag:
# tags that do not nest and raw text removed, then each end tag as ")" and start tag as "(".
_OPTIONAL_OR_VOID = "|".join(sorted(_VOID | _OPTIONAL_END))
_FLAT = re.compile(  # one leading "<": the regex engine jumps from "<" to "<"
    r"<(?:!--.*?(?:-->|\Z)|(script|style|textarea|title|xmp)\b[^<>]*>.*?(?:</\1\s*>|\Z)"
    rf"|/?(?:{_OPTIONAL_OR_VOID})\b[^<>]*>|[a-z][^<>]*/>)",
    re.DOTALL,  # on lowercased text: IGNORECASE doubles the time
)
_END = re.compile(r"</[a-z][^<>]*>")
_START = re.compile(r"<[a-z][^<>]*>")
_NOT_PAREN = re.compile(r"[^()]+")


def page_problem(text: str, size: int) -> tuple[int, str] | None:
    """(line, message) when the page must not be parsed, else None."""
    if size > MAX_PAGE_BYTES:
        return 1, f"page is {size / 1048576:,.1f} MiB; at most {MAX_PAGE_BYTES // 1048576} MiB are indexed; left as it is"
    if text.count("<") <= PARSED_AS_IS or _max_depth(text) <= MAX_DEPTH:
        return None
    return _too_deep_at(text)


def _max_depth(text: str) -> int:
    parens = text.lower().replace("(", "").replace(")", "")
    parens = _START.sub("(", _END.sub(")", _FLAT.sub("", parens)))
    depth = deepest = 0
    for mark in _NOT_PAREN.sub("", parens):
        if mark == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def _too_deep_at(text: str) -> tuple[int, str] | None:
    """The line where the nesting passes the limit (a tag at a time: only for pages that do)."""
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
