"""Progress: a bar on a terminal, nothing in CI (the CLI prints one summary line)."""

from __future__ import annotations

import contextlib
from typing import IO, Callable, Iterator

# Called as progress(stage, done, total) while documents are parsed.
Progress = Callable[[str, int, int], None]


@contextlib.contextmanager
def terminal_progress(stream: IO[str]) -> Iterator:
    """Yield a ``progress(stage, done, total)`` callback, or None when not on a terminal."""
    if not stream.isatty():
        yield None
        return
    from tqdm import tqdm  # only on a terminal: the import is ~20 ms and 3 MB of every build

    bars: dict[str, tqdm] = {}

    def progress(stage: str, done: int, total: int) -> None:
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(total=total, desc=stage, unit="doc", file=stream, leave=False)
        bar.update(done - bar.n)

    try:
        yield progress
    finally:
        for bar in bars.values():
            bar.close()
