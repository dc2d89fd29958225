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

from typing import Iterable, Iterator, Sequence

from ..model import Chunk


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


def bare_counts_by_ref(chunks: Iterable[Chunk], pages: Iterable[object]) -> Iterator[int]:
    """``bare_counts`` of every passage of a language, in ref order, as the
    refs are read: ``pages`` gives the page of each chunk (a page's passages
    are consecutive refs), so a spooled page is read once, by the caller."""
    seen: set[tuple[str, ...]] = set()
    page = None
    for chunk, owner in zip(chunks, pages):
        if owner is not page:
            page, seen = owner, set()
        yield _counted(tuple(chunk.heading_path), seen)


def _counted(path: tuple[str, ...], seen: set[tuple[str, ...]]) -> int:
    n = 0
    for end in range(len(path) - 1, 1, -1):  # the prefixes ending above the own heading, below the title
        if path[:end] in seen:
            break
        n += 1
    seen.update(path[:end] for end in range(1, len(path) + 1))
    return n
