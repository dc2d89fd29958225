"""Limits: refuse Markdown that Python-Markdown would take minutes (or all memory) to render.

Python-Markdown has inputs on which its work grows with the square of their
size; a few KiB can hang a build. Each guard below measures, in one linear
pass over the source, the work a known quadratic path would do, and rejects
the document with the line where it starts. The measures over-count a little
(code blocks and escapes are not set apart), never under-count; real documents
stay orders of magnitude below the limits (the whole shared corpora are).
"""

from __future__ import annotations

import functools
import re

from ..config import Config
from ..errors import Problem
from .heading_ids import duplicate_heading_ids

MAX_NESTING = 100
# Characters scanned by one quadratic path in one document; ~1 s of Python-Markdown at most.
MAX_SCAN = 4_000_000

_QUOTE_PREFIX = re.compile(r"^(?:[ \t]*>)+")
# A line that starts with 101 blanks (a tab counts 4 columns at most) or 101 quote markers, looked
# for at the text's start and after each "\n": what ^ finds in MULTILINE mode, where the regex
# engine would try ^ at every character (5x slower on rust-rfcs).
_DEEP_INDENT = r"[ \t]{%d}" % (MAX_NESTING + 1)
_DEEP_QUOTES = r"(?:[ \t]*>){%d}" % (MAX_NESTING + 1)
_DEEP_LINE_FIRST = re.compile(f"{_DEEP_INDENT}|{_DEEP_QUOTES}")
_DEEP_LINE_NEXT = re.compile(f"\n(?:{_DEEP_INDENT}|{_DEEP_QUOTES})")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
# Characters copied while inline patterns replace their matches; ~2 s at most.
MAX_INLINE_COPIES = 500_000_000
# Lines the block parser splits off one at a time: ATX headings, setext underlines, rules, admonitions.
_SPLIT_LINE = re.compile(r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|-+[ \t]*$|(?:[-*_][ \t]*){3,}$|!!!)", re.MULTILINE)
# What can start an inline match: an escape, an entity, a code span, emphasis, a tag, a link or image.
_INLINE_MARK = re.compile(r"\\[^\w\s]|&#?\w+;|[`*_<\[]")
_TAG_START = re.compile(r"<[A-Za-z]")
# What the raw HTML preprocessor takes for the start of a tag, end tag, comment,
# declaration, CDATA section or processing instruction.
_MARKUP_START = re.compile(r"<[A-Za-z/?!]")
_LINK_TEXT = re.compile(r"\[")
_LINK_TARGET = re.compile(r"\]\(")


def source_problems(body: str, body_line: int, rel: str, config: Config) -> list[Problem]:
    """Everything in a document's Markdown source that stops it from being parsed."""
    return list(_source_problems(body, body_line, rel, config.max_document_kib))


# Remembered by everything the answer depends on: ``serve`` loads every document
# on each save, and checking rust-rfcs' unchanged sources again took ~0.5 s.
@functools.lru_cache(maxsize=4096)
def _source_problems(body: str, body_line: int, rel: str, max_document_kib: int) -> tuple[Problem, ...]:
    limit = max_document_kib * 1024
    # Cheap first: a character is at most 4 bytes, so most bodies need no encoding.
    size = len(body) if len(body) * 4 <= limit else len(body.encode("utf-8"))
    if size > limit:
        return (Problem(rel, 1, f"document is {_kib(size)} KiB; at most {max_document_kib:,} KiB can be built "
                                "(max_document_kib in citesearch.yml)"),)
    too_complex = (
        nesting_problem(body, body_line, rel)
        or quadratic_problem(body, body_line, rel)
        or raw_html_problem(body, body_line, rel)
    )
    if too_complex:
        return (too_complex,)
    return tuple(duplicate_heading_ids(body, body_line, rel))


def nesting_problem(body: str, body_line: int, rel: str) -> Problem | None:
    """Lists or quotes nested so deep that Markdown would exhaust Python's stack."""
    if not _has_deep_line(body):
        return None  # fast path: no line starts with enough '>' or blanks to be that deep
    for number, line in enumerate(body.split("\n")):
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip(" "))
        quotes = _QUOTE_PREFIX.match(line)
        depth = max(indent // 4, quotes.group(0).count(">") if quotes else 0)
        if depth > MAX_NESTING:
            return Problem(rel, body_line + number, f"lists or quotes nested {depth} levels deep; at most {MAX_NESTING} can be rendered")
    return None


def _has_deep_line(body: str) -> bool:
    return bool(_DEEP_LINE_FIRST.match(body) or _DEEP_LINE_NEXT.search(body))


def quadratic_problem(body: str, body_line: int, rel: str) -> Problem | None:
    """The first paragraph (run of non-blank lines) on which a quadratic path would do too much work.

    Inline patterns and block processors never look past a blank line, so
    each run is measured alone.
    """
    start = 0
    for separator in [*_BLANK_LINES.finditer(body), None]:
        end = separator.start() if separator else len(body)
        run = body[start:end]
        reason = _run_problem(run)
        if reason:
            first = len(run) - len(run.lstrip("\n"))
            return Problem(rel, body_line + body.count("\n", 0, start + first), reason)
        start = separator.end() - 1 if separator else end
    return None


def _run_problem(run: str) -> str | None:
    if len(run) * len(run) <= MAX_SCAN:
        return None  # no path walks more than the paragraph once per character: nearly every paragraph
    # Links and references: for every '[' LinkInlineProcessor.getText walks to
    # its matching ']' -- or to the end of the paragraph when there is none --
    # and the link, reference and short-reference patterns each do it again.
    # 15 KiB of '[' took 39 s. ('[' * n is n*n/2 steps; balanced nesting too.)
    if run.count("[") * len(run) > MAX_SCAN and _scan_to_match(run, "[", "]", _LINK_TEXT) > MAX_SCAN:
        return "too many '[' without a matching ']' (or nested too deep) in one paragraph to render; escape literal ones as '\\['"
    # Inline links: for every '](' getLink walks to the matching ')'.
    if run.count("](") * len(run) > MAX_SCAN and _scan_to_match(run, "(", ")", _LINK_TARGET) > MAX_SCAN:
        return "too many '](' without a matching ')' in one paragraph to render; escape literal ones as '\\('"
    # Raw HTML: for every '<tag' the standard html.parser scans attributes up to
    # the next '>', to the end of the text when there is none (5,000 '<a ': 10 s).
    if run.count("<") * len(run) > MAX_SCAN and _scan_to_next(run, _TAG_START, ">")[0] > MAX_SCAN:
        return "too many '<' starting a tag that is never closed with '>' in one paragraph to render; write '&lt;' instead"
    # Every inline match is replaced by a placeholder by rebuilding the whole
    # paragraph string (treeprocessors' __applyPattern), so n matches copy the
    # paragraph n times: 100 KiB of '\\' took 8 s, 200 KiB 26 s.
    marks = len(_INLINE_MARK.findall(run))
    if marks * len(run) > MAX_INLINE_COPIES:
        return f"{marks} backslashes, backticks or other inline marks in one paragraph are too many to render; split it with blank lines"
    # Block processors: each heading, setext underline, rule or admonition splits the rest
    # of its paragraph off and every processor (tables, headings) re-scans that
    # rest line by line, so n such lines without blank lines between cost n
    # times the paragraph's lines (25,000 '# h' lines: minutes).
    splits = sum(1 for _ in _SPLIT_LINE.finditer(run))
    if splits * run.count("\n") > MAX_SCAN:
        return f"{splits} headings, rules or admonitions in one paragraph are too many to render; put blank lines between them"
    return None


def _scan_to_match(run: str, open_: str, close: str, counted: re.Pattern[str]) -> int:
    """Characters walked from each ``counted`` match (ending on ``open_``) to its matching ``close``, or the end."""
    starts = {match.end() - 1 for match in counted.finditer(run)}
    total = 0
    stack: list[int] = []  # every open position, so nesting pairs like the parser does
    for match in re.finditer(re.escape(open_) + "|" + re.escape(close), run):
        if match.group() == open_:
            stack.append(match.start())
        elif stack:
            opened = stack.pop()
            total += match.start() - opened if opened in starts else 0
    return total + sum(len(run) - opened for opened in stack if opened in starts)


def _scan_to_next(run: str, start: re.Pattern[str], end: str) -> tuple[int, int]:
    """Characters walked from each ``start`` match to the next ``end`` (or the end of ``run``),
    and where the first match left open (another starts before its ``end``) is."""
    total = 0
    next_end = -1
    first_open = previous = -1
    for match in start.finditer(run):
        if next_end < match.start():
            next_end = run.find(end, match.start())
            if next_end < 0:
                next_end = len(run)
        elif first_open < 0:
            first_open = previous  # the previous start's end is past this one: it never closed
        total += next_end - match.start()
        previous = match.start()
    if first_open < 0:
        first_open = max(previous, 0)
    return total, first_open


def raw_html_problem(body: str, body_line: int, rel: str) -> Problem | None:
    """Markup starts never closed with '>', counted over the whole document.

    Python-Markdown's raw HTML preprocessor reads the whole document with
    html.parser before any paragraph exists: every ``<a ``, ``</a``, ``<?x``
    or ``<![CDATA[`` without a '>' is scanned to the next '>' of the document,
    across blank lines, so one per paragraph is still quadratic (64 KiB of
    ``<a `` paragraphs: 35 s).  The paragraph guard above cannot see it.
    """
    if body.count("<") * len(body) <= MAX_SCAN:
        return None  # fast path: nearly every document
    walked, first_open = _scan_to_next(body, _MARKUP_START, ">")
    if walked <= MAX_SCAN:
        return None
    return Problem(
        rel, body_line + body.count("\n", 0, first_open),
        "too many '<' starting a tag, comment or processing instruction that is never closed with '>' "
        "in this document to render; write '&lt;' instead",
    )


def _kib(size: int) -> str:
    return f"{size / 1024:,.0f}"
