"""Cited snippets: the passage of a chunk that best matches a query.

Mirrored by ``theme/static/quote.js``.  Chunk text has one line per block
(``markdown_ext/text.py`` gives the format); a quote never leaves its block:

* prose lines are cut into sentences (``engine/sentences.py``);
* a code block (lines opened by ``CODE_LINE``) is quoted as code: its
  matching lines, at most ``MAX_CODE_LINES`` from the first matching one,
  line breaks and indentation kept;
* a table row (cells opened by ``CELL``) is quoted whole, with its table's
  header row beside it (the first row of a run of rows); the header itself
  is quoted only when no other candidate holds as many query terms.

The quote is the candidate holding the most *distinct* query terms (the first
on ties), a verbatim slice of the text, with the spans of its matching words
to highlight.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import analyzer, query as query_module
from .sentences import WHITESPACE, sentences as _sentences, strip

__all__ = ["CELL", "CODE_LINE", "MAX_CODE_LINES", "Quote", "WHITESPACE", "quote", "sentences"]

CODE_LINE = "\u2028"  # opens each line of a code block
CELL = "\t"  # opens each cell of a table row
MAX_CODE_LINES = 5


@dataclass(frozen=True)
class Quote:
    sentence: str  # verbatim slice of the chunk text
    marks: tuple[tuple[int, int], ...]  # offsets into ``sentence``
    kind: str = "text"  # "text", "code" (lines split by CODE_LINE) or "table" (cells split by CELL)
    header: str | None = None  # a table row's header row, cells split by CELL


@dataclass(frozen=True)
class _Unit:
    """A piece of text a quote is made of: a sentence, a code line or a row."""

    kind: str
    start: int
    end: int
    header: tuple[int, int] | None = None  # a row's header row
    is_header: bool = False


def _lines(text: str):
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield start, end
        start = end + 1


def units(text: str) -> list[_Unit]:
    """Every unit of ``text``, in order."""
    result: list[_Unit] = []
    header: tuple[int, int] | None = None
    for start, end in _lines(text):
        line = text[start:end]
        if line.startswith(CELL):
            if header is None:
                header = (start + 1, end)
                result.append(_Unit("table", start + 1, end, is_header=True))
            else:
                result.append(_Unit("table", start + 1, end, header=header))
            continue
        header = None
        if line.startswith(CODE_LINE):
            at = start
            while at < end:
                stop = text.find(CODE_LINE, at + 1, end)
                stop = end if stop < 0 else stop
                result.append(_Unit("code", at + 1, stop))
                at = stop
        else:
            result.extend(_Unit("text", a, b) for a, b in _sentences(text, start, end))
    return result


def sentences(text: str) -> list[tuple[int, int]]:
    """Verbatim sentence spans of prose ``text``, surrounding whitespace excluded."""
    return _sentences(text, 0, len(text))


def _matcher(wanted: query_module.QueryTerms):
    """term → the query terms it counts for (empty if it does not match)."""
    terms = set(wanted.terms)

    def matches(term: str) -> set[str]:
        found = {term} if term in terms else set()
        for p in wanted.prefixes:
            if term.startswith(p.text):
                found.update(p.terms)
        return found

    return matches


def _merge(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for start, end in spans:  # already in text order
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def quote(text: str, query: str, *, prefix: bool = True) -> Quote | None:
    """The best passage of ``text`` for ``query``, or None if none matches."""
    wanted = query_module.query_terms(query, prefix=prefix)
    if not wanted.terms:
        return None
    matches = _matcher(wanted)
    scored = []  # (unit, distinct terms found, spans in text offsets)
    for unit in units(text):
        found: set[str] = set()
        spans = []
        for word in analyzer.words(text[unit.start:unit.end]):
            matched = set().union(*(matches(t) for t in word.terms))
            if matched:
                found |= matched
                spans.append((unit.start + word.start, unit.start + word.end))
        scored.append((unit, found, spans))

    best: Quote | None = None
    best_key = (0, False)
    for i, (unit, found, spans) in enumerate(scored):
        if not found:
            continue
        start, end = unit.start, unit.end
        if unit.kind == "code":
            # The matching lines of this block from this one on, up to MAX_CODE_LINES.
            found, spans, last = set(found), list(spans), unit.end
            for other, more, more_spans in scored[i + 1:i + MAX_CODE_LINES]:
                if other.kind != "code" or other.start != last + 1:
                    break  # another block
                last = other.end
                if more:
                    found |= more
                    spans += more_spans
                    end = other.end
        elif unit.kind == "text":
            start, end = strip(text, start, end)
        key = (len(found), not unit.is_header)
        if key > best_key:
            header = text[unit.header[0]:unit.header[1]] if unit.header else None
            marks = _merge([(a - start, b - start) for a, b in spans if start <= a and b <= end])
            best, best_key = Quote(text[start:end], marks, unit.kind, header), key
    return best


def quote_lines(result) -> str:
    """A search result's quote for a terminal: code as its lines, a row under its header."""
    if result.quote_kind == "code":
        return "\n".join(f"    {line}" for line in result.quote.split(CODE_LINE))
    if result.quote_kind == "table":
        rows = [result.quote_header, result.quote] if result.quote_header is not None else [result.quote]
        return "\n".join("  | " + " | ".join(row.split(CELL)) + " |" for row in rows)
    return f"  {result.quote}"
