"""A site that is made but not kept: ``check`` renders every file (a broken theme fails there too)
and keeps only each file's size.

Kept in a dict, a check held the whole rendered site in memory (1.8 GB on a
7,424-page folder where ``build``, which writes each file as it comes, peaked
at 149 MB).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Iterator, MutableMapping

from ..engine import contract

KEPT_PREFIX = f"{contract.SEARCH_DIR}/"  # the files the index reads back


class MeasuredSite(MutableMapping[str, "bytes | Path"]):
    """Accepts files like the dict or ``StagedSite`` a build fills, and forgets their content.

    Except the search files': the index reads them back (the manifest's
    revision hashes them), so they wait in an unnamed temporary file.
    """

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        self._kept: dict[str, tuple[int, int]] = {}  # search file -> where its bytes are in _file
        self._file: IO[bytes] | None = None

    def __setitem__(self, path: str, content: bytes | Path) -> None:
        self.sizes[path] = len(content) if isinstance(content, bytes) else content.stat().st_size
        if path.startswith(KEPT_PREFIX) and isinstance(content, bytes):
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="citesearch-check-")
            self._file.seek(0, os.SEEK_END)
            self._kept[path] = (self._file.tell(), len(content))
            self._file.write(content)
        else:
            self._kept.pop(path, None)

    def __getitem__(self, path: str) -> bytes | Path:
        if path not in self._kept or self._file is None:
            raise KeyError(f"{path}: a checked site keeps no content")
        at, length = self._kept[path]
        self._file.seek(at)
        return self._file.read(length)

    def __contains__(self, path: object) -> bool:
        return path in self.sizes

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._kept.clear()

    def __enter__(self) -> MeasuredSite:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __delitem__(self, path: str) -> None:
        del self.sizes[path]
        self._kept.pop(path, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.sizes)

    def __len__(self) -> int:
        return len(self.sizes)
