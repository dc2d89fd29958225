"""Explicit heading ids (``## Title { #id }``) must be unique in a document.

Two headings with one id give two elements with one ``id``: links and every
passage anchor of the second section land in the first. Anchors are the
product, so this is an error naming both lines. It is read from the source
(outside fenced code) because the parsed tree no longer knows lines.
"""

from __future__ import annotations

import re

from ..errors import Problem
from ..strict_yaml import brief

# attr_list's "{ #id }" / "{: #id .class }" at the end of an ATX heading or of a setext heading's text line.
_ATTR_ID = re.compile(r"\{:?[ \t]*(?:[^}#]*[ \t])?#([^\s}]+)[^}]*\}[ \t]*#*[ \t]*$")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# _ATTR_ID on the whole text: it finds every line _ATTR_ID finds (and maybe more).
_ATTR_ID_ANYWHERE = re.compile(_ATTR_ID.pattern, re.MULTILINE)


def duplicate_heading_ids(body: str, body_line: int, rel: str) -> list[Problem]:
    if not _ATTR_ID_ANYWHERE.search(body):
        return []  # no line ends in an id attribute: most documents, without walking their lines
    problems = []
    first_line: dict[str, int] = {}
    for number, heading_id in _explicit_ids(body.split("\n")):
        line = body_line + number
        if heading_id in first_line:
            problems.append(Problem(rel, line, f"heading id {brief(heading_id)} is already used by the heading on line {first_line[heading_id]}; "
                                               "each heading needs its own id"))
        else:
            first_line[heading_id] = line
    return problems


def _explicit_ids(lines: list[str]):
    """(line index, id) of each heading with an explicit id, skipping fenced code."""
    fence = None
    for number, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) and not line[opening.end():].strip():
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        attr = _ATTR_ID.search(line)
        if attr is None:
            continue
        next_line = lines[number + 1] if number + 1 < len(lines) else ""
        if _ATX.match(line) or (line.strip() and _SETEXT_UNDERLINE.match(next_line)):
            yield number, attr.group(1)
