"""Bytes of a search index on disk: raw and gzip (level 6, like a web server)."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Size:
    files: int
    raw: int
    gzip: int


def gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def matching(root: Path, globs: list[str]) -> set[Path]:
    return {p for g in globs for p in root.glob(g) if p.is_file()}


def measure(root: Path, globs: list[str], exclude: list[str] = ()) -> Size:
    paths = sorted(matching(root, globs) - matching(root, list(exclude)))
    raw = gz = 0
    for path in paths:
        data = path.read_bytes()
        raw += len(data)
        gz += gzip_size(data)
    return Size(len(paths), raw, gz)
