"""A site that is made but not kept: ``check`` renders every file (a broken theme fails there too)
and keeps only each file's size.

Kept in a dict, a check held the whole rendered site in memory (1.8 GB on a
7,424-page folder where ``build``, which writes each file as it comes, peaked
at 149 MB).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, MutableMapping


class MeasuredSite(MutableMapping[str, "bytes | Path"]):
    """Accepts files like the dict or ``StagedSite`` a build fills, and forgets their content."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}

    def __setitem__(self, path: str, content: bytes | Path) -> None:
        self.sizes[path] = len(content) if isinstance(content, bytes) else content.stat().st_size

    def __getitem__(self, path: str) -> bytes | Path:
        raise KeyError(f"{path}: a checked site keeps no content")

    def __contains__(self, path: object) -> bool:
        return path in self.sizes

    def __delitem__(self, path: str) -> None:
        del self.sizes[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.sizes)

    def __len__(self) -> int:
        return len(self.sizes)
