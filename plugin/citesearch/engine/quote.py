"""Cited snippets: the sentence of a chunk that best matches a query.

Mirrored by ``theme/static/quote.js``.  A sentence ends at ``.``, ``!`` or
``?`` followed by whitespace or the end of the text, at ``。！？`` (no
whitespace in Chinese), or at a line break (the end of a block); closing quotes and brackets right after the mark stay
with the sentence.  The quote is the sentence holding the most *distinct*
query terms (the first on ties), verbatim but for surrounding whitespace,
with the spans of its matching words to highlight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import analyzer, query as query_module

# Spelled out rather than \s / str.strip(): Python and JavaScript disagree
# on a few characters (U+001C–U+001F, U+FEFF, U+180E).
WHITESPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_CLOSERS = "\"'\u201d\u2019\u00bb)\uff09\u300d\u300f\\]"
# Chunk text has a line break only where a block (paragraph, list item, row) ends.
_END = re.compile(
    f"[.!?]+[{_CLOSERS}]*(?=[{WHITESPACE}]|\\Z)|[\u3002\uff01\uff1f]+[{_CLOSERS}]*|\n"
)


@dataclass(frozen=True)
class Quote:
    sentence: str
    marks: tuple[tuple[int, int], ...]  # offsets into ``sentence``


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    part = text[start:end]
    stripped = part.strip(WHITESPACE)
    if not stripped:
        return start, start
    lead = len(part) - len(part.lstrip(WHITESPACE))
    return start + lead, start + lead + len(stripped)


def sentences(text: str) -> list[tuple[int, int]]:
    """Verbatim sentence spans of ``text``, surrounding whitespace excluded."""
    spans = []
    start = 0
    for m in _END.finditer(text):
        spans.append(_strip(text, start, m.end()))
        start = m.end()
    spans.append(_strip(text, start, len(text)))
    return [(a, b) for a, b in spans if a < b]


def _matcher(wanted: query_module.QueryTerms):
    """term → the query terms it counts for (empty if it does not match)."""
    terms = set(wanted.terms)

    def units(term: str) -> set[str]:
        found = {term} if term in terms else set()
        for p in wanted.prefixes:
            if term.startswith(p.text):
                found.update(p.terms)
        return found

    return units


def _merge(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for start, end in spans:  # already in text order
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def quote(text: str, query: str, *, prefix: bool = True) -> Quote | None:
    """The best sentence of ``text`` for ``query``, or None if none matches."""
    wanted = query_module.query_terms(query, prefix=prefix)
    if not wanted.terms:
        return None
    units = _matcher(wanted)
    best: Quote | None = None
    best_count = 0
    for start, end in sentences(text):
        sentence = text[start:end]
        found: set[str] = set()
        spans = []
        for word in analyzer.words(sentence):
            matched = set().union(*(units(t) for t in word.terms))
            if matched:
                found |= matched
                spans.append((word.start, word.end))
        if len(found) > best_count:
            best, best_count = Quote(sentence, _merge(spans)), len(found)
    return best
