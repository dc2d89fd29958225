""""Did you mean …?" for ``citesearch search``: ``quote.js``'s ``suggestion``.

When no word of a query is in the index, the fuzzy fallback finds passages
with words one edit away.  Those passages are not answers; their words are
the suggestion.  Each query word missing from them becomes the spelling of
the index term within one edit that they use most (the first seen on ties),
as the pages spell it, so the suggestion reads as a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from . import analyzer
from .shards import within_one_edit


@dataclass(frozen=True)
class Suggestion:
    query: str
    changed: list[tuple[int, int]]  # spans of the changed words in ``query``


def suggestion(query: str, texts: Iterable[str]) -> Suggestion | None:
    """The suggested query, or None when no word changes.  ``texts``: the
    chunk texts of the fuzzy answer."""
    spellings: dict[str, dict[str, int]] = {}  # term -> lower-cased word -> count, in order seen
    for text in texts:
        for word in analyzer.words(text):
            spelled = text[word.start:word.end].lower()
            for term in word.terms:
                counts = spellings.setdefault(term, {})
                counts[spelled] = counts.get(spelled, 0) + 1
    suggested, at, changed = "", 0, []
    for word in analyzer.words(query):
        if len(word.terms) != 1 or word.terms[0] in spellings:
            continue  # CJK bigrams, or a known word
        best, best_count = None, 0
        for other, counts in spellings.items():
            if within_one_edit(word.terms[0], other):
                for spelled, count in counts.items():
                    if count > best_count:
                        best, best_count = spelled, count
        if best is None:
            continue
        suggested += query[at:word.start]
        changed.append((len(suggested), len(suggested) + len(best)))
        suggested += best
        at = word.end
    return Suggestion(suggested + query[at:], changed) if changed else None
