"""Bare headings: a heading with no text of its own, directly followed by a subheading.

    ### Ways to get a collection

    #### Creating an instance
    An instance is created ...

The chunker makes no passage for "Ways to get a collection": its words are
only in the heading paths of the passages below it.  The first of those
passages stands for it (``refine``'s ``section`` counts the heading as that
passage's own), so a query naming the bare heading lands there, where the
reader sees the heading and its first subsection, and not on a sibling
section whose longer path shares some of its words.

Derived from the passages of a page alone, so every reader (Markdown,
built HTML, MkDocs) gives the same counts for the same passages, and the
count of a passage changes only with the headings above it.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def bare_counts(paths: Iterable[Sequence[str]]) -> list[int]:
    """For each passage of one page (its heading path: title, H2, H3, ...,
    in page order), how many headings just above its own section heading
    have no passage before it: the bare headings it is the first passage of.

    A heading with text of its own has a passage whose path ends with it
    before any passage of its subsections, so it is never counted; the
    uncounted headings of a path are always a run just above its last one
    (a heading seen means its ancestors were seen).  The title (the path's
    first entry) is the page's, never counted; two sections of one parent
    with the same heading text count as one.
    """
    seen: set[tuple[str, ...]] = set()
    return [_counted(tuple(path), seen) for path in paths]


class BareHeadings:
    """``bare_counts`` of passages given one at a time, page after page (a
    page's passages are consecutive refs): the chunk files of ``citesearch
    index`` are made while its pages are still being read."""

    def __init__(self) -> None:
        self._page: object = None
        self._seen: set[tuple[str, ...]] = set()

    def count(self, page: object, path: Sequence[str]) -> int:
        if page is not self._page:
            self._page, self._seen = page, set()
        return _counted(tuple(path), self._seen)


def _counted(path: tuple[str, ...], seen: set[tuple[str, ...]]) -> int:
    n = 0
    for end in range(len(path) - 1, 1, -1):  # the prefixes ending above the own heading, below the title
        if path[:end] in seen:
            break
        n += 1
    seen.update(path[:end] for end in range(1, len(path) + 1))
    return n
