"""Sentences of prose: where a quote may start and end.

Mirrored by ``theme/static/sentences.js``; ``tests/vectors/quotes.json``
holds both halves to the same answers (no library: none has a JavaScript twin
that splits the same way).  Rules, in order:

* a line break always ends a sentence (chunk text breaks lines only between
  blocks: paragraphs, list items, table rows);
* ``。！？`` (runs of them, or ``……``) end a sentence with no space after;
* ``.`` ``!`` ``?`` ``…`` (runs of them) end one only when whitespace or the
  end follows, so ``3.11``, ``v1.2.3``, ``config.yml`` and URLs never split;
* closing quotes and brackets right after the mark stay with the sentence;
* a mark ending in ``.`` or ``…`` does not end the sentence when the next
  word starts with a lower-case letter (``e.g. this``, ``approx. five``,
  ``Then... ok``), when the word before it is an abbreviation that never ends
  one (``e.g.``, ``Mr.``, ``vs.``, ``т. е.``) or a single letter (initials,
  ``т.``), or when a digit follows (``Fig. 3``); the ambiguous ``etc.`` and
  ``и т. д.`` end a sentence only before a capital letter or the end.
"""

from __future__ import annotations

import re
import unicodedata

# Spelled out rather than \s / str.strip(): Python and JavaScript disagree
# on a few characters (U+001C–U+001F, U+FEFF, U+180E).
WHITESPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
CLOSERS = "\"'\u201d\u2019\u00bb)\uff09\u300d\u300f\u300b\u3011\u3009\\]"

# Lower-case, without their final dot. They never end a sentence.
ABBREVIATIONS = frozenset(
    "e.g i.e cf vs mr mrs ms dr prof fig figs approx ca resp incl esp viz eq eqs vol pp "
    "т.е т.к т.н напр см ср рис табл гл стр им проф".split()
)
# End a sentence only before a capital letter (or the end of the text).
AMBIGUOUS = frozenset("etc др т.д т.п".split())

_MARK = re.compile(
    f"(?:[.!?\u2026]+[{CLOSERS}]*(?=[{WHITESPACE}]|\\Z))"
    f"|(?:[\u3002\uff01\uff1f]+|\u2026\u2026)[{CLOSERS}]*"
    "|\n"
)


# Unicode categories, not str methods: JavaScript has the same classes (\p{Ll}).
def _category(char: str) -> str:
    return unicodedata.category(char) if char else ""


def _is_word_char(char: str) -> bool:
    return _category(char)[:1] in ("L", "N")


def _word_before(text: str, end: int) -> str:
    """The letters, digits and dots before ``end``, lower-cased; a single
    letter and dot before them joins (``т. е`` → ``т.е``)."""
    start = end
    while start > 0 and (text[start - 1] == "." or _is_word_char(text[start - 1])):
        start -= 1
    word = text[start:end].lower()
    if (
        len(word) == 1
        and start >= 3
        and text[start - 1] == " "
        and text[start - 2] == "."
        and _category(text[start - 3])[:1] == "L"
        and (start == 3 or not _is_word_char(text[start - 4]))
    ):
        return f"{text[start - 3].lower()}.{word}"
    return word


def _next_char(text: str, at: int, end: int) -> str:
    while at < end and text[at] in WHITESPACE:
        at += 1
    return text[at] if at < end else ""


def _ends(text: str, match: re.Match, end: int) -> bool:
    mark = match.group()
    if mark == "\n" or mark[0] in "\u3002\uff01\uff1f" or mark.startswith("\u2026\u2026"):
        return True
    core = mark.rstrip(CLOSERS.replace("\\", ""))
    if core[-1] not in ".\u2026":
        return True  # ! and ? always end one
    following = _next_char(text, match.end(), end)
    if _category(following) in ("Ll", "Nd"):
        return False
    if core != ".":
        return True
    word = _word_before(text, match.start())
    last = word[word.rfind(".") + 1:]  # "v1.2.3" → "3", "т.д" → "д"
    if word in AMBIGUOUS:
        return _category(following) in ("", "Lu", "Lt")
    if word in ABBREVIATIONS:
        return False
    return not (len(last) == 1 and _category(last)[:1] == "L")  # initials, "т."


def strip(text: str, start: int, end: int) -> tuple[int, int]:
    """``start, end`` without the whitespace at either side."""
    part = text[start:end]
    stripped = part.strip(WHITESPACE)
    if not stripped:
        return start, start
    lead = len(part) - len(part.lstrip(WHITESPACE))
    return start + lead, start + lead + len(stripped)


def sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Verbatim sentence spans of ``text[start:end]``, surrounding whitespace excluded."""
    end = len(text) if end is None else end
    spans = []
    at = start
    for match in _MARK.finditer(text, start, end):
        if _ends(text, match, end):
            spans.append(strip(text, at, match.end()))
            at = match.end()
    spans.append(strip(text, at, end))
    return [(a, b) for a, b in spans if a < b]
