"""A page as ``index`` writes it, kept as its differences from the page the generator wrote.

The page cache keeps each rewritten page under the generator's bytes.  The two
texts differ in a few dozen places (the passages' ids, ``data-chunk``, the box,
the HTML serialiser's spelling) and agree on the rest: stored as those
differences a row is a few KB instead of the whole page, and finding them costs
less than serialising and compressing the page (rust-rfcs's 648 pages: 0.28 s
instead of 0.78 s of the readers' CPU; 1.1 MB stored instead of 17 MB).

A delta is a list of copies of the old text (``[start, end]``) and strings put
in; ``changed(old, delta(old, new)) == new`` always (every copy is of text seen
to be equal; the rest is ``new``'s own text).  A good delta only saves space.
"""

from __future__ import annotations

from typing import Union

Delta = list[Union[list[int], str]]

SYNC = 16  # characters that must agree to go back to copying: a shorter run of HTML repeats too often
REACHES = (256, 8192)  # how far ahead an agreement is looked for: near first, then far (the box: ~3 KB at once)
# Differences before giving up, per character of the new text: a page rewritten all over is kept whole
# (each difference may look ``REACHES[-1]`` ahead; rust-rfcs's pages: one per ~1,400 characters).
STEPS_PER_CHARACTER = 1 / 32


def delta(old: str, new: str) -> Delta | None:
    """``new`` as copies of ``old`` and strings put in; None when they differ in too many places."""
    ops: Delta = []
    steps = int(len(new) * STEPS_PER_CHARACTER) + 64
    i = j = 0
    known = 0  # characters known to agree at i and j (after a resync: SYNC)
    while j < len(new):
        same = _agreeing(old, i, new, j, known)
        if same:
            ops.append([i, i + same])
            i += same
            j += same
            if j >= len(new):
                break
        if len(ops) > steps:  # the texts differ at i and j (a copy stops at a difference)
            return None
        skip_old, skip_new = _resync(old, i, new, j)
        if skip_new:
            ops.append(new[j:j + skip_new])
        i += skip_old
        j += skip_new
        known = min(SYNC, len(old) - i, len(new) - j)  # _resync skips to where SYNC characters agree (fewer at an end)
    return ops


def changed(old: str, ops: Delta) -> str:
    """The text ``delta(old, new)`` describes: ``new``."""
    return "".join(old[op[0]:op[1]] if isinstance(op, list) else op for op in ops)


def _agreeing(old: str, i: int, new: str, j: int, known: int = 0) -> int:
    """How many characters ``old[i:]`` and ``new[j:]`` have in common at their start (slices compared in C);
    the first ``known`` are known to agree."""
    if not known and (i >= len(old) or j >= len(new) or old[i] != new[j]):
        return 0
    low, high = max(known, 1), max(known * 2, SYNC)  # old[i:i+low] == new[j:j+low]; grown by doubling, then halved
    limit = min(len(old) - i, len(new) - j)
    while high <= limit and new.startswith(old[i + low:i + high], j + low):  # only the part not yet compared
        low, high = high, high * 2
    high = min(high, limit + 1)  # old[i:i+high] != new[j:j+high], or past the end
    while high - low > 1:
        middle = (low + high) // 2
        if new.startswith(old[i + low:i + middle], j + low):
            low = middle
        else:
            high = middle
    return low


def _resync(old: str, i: int, new: str, j: int) -> tuple[int, int]:
    """(characters of ``old``, of ``new``) to pass over before the texts agree again for ``SYNC`` characters.

    The nearest of: text left out of ``old``, text put into ``new``, else text replaced (both skip); looked
    for close by first (most differences are an attribute or an entity), then farther.  When nothing agrees
    within the last reach, the rest of ``new`` is put in.
    """
    if i >= len(old):
        return 0, len(new) - j
    for reach in REACHES:
        best = _nearest(old, i, new, j, reach)
        if best is not None:
            return best
    return len(old) - i, len(new) - j


def _nearest(old: str, i: int, new: str, j: int, reach: int) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    dropped = old.find(new[j:j + SYNC], i, i + reach)  # text left out
    if dropped >= 0:
        best = (dropped - i, 0)
    added = new.find(old[i:i + SYNC], j, j + reach)  # text put in
    if added >= 0 and (best is None or added - j < best[0]):
        best = (0, added - j)
    step = 1
    while best is None and step < reach:  # replaced: both sides skip (tried only then: a third of the time)
        if j + step < len(new):
            found = old.find(new[j + step:j + step + SYNC], i, i + reach)
            if found >= 0:
                best = (found - i, step)
        if i + step < len(old):
            found = new.find(old[i + step:i + step + SYNC], j, j + reach)
            if found >= 0 and (best is None or found - j + step < sum(best)):
                best = (step, found - j)
        step *= 2
    return best if best != (0, 0) else None
