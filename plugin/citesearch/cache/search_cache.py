"""The search files of the last build, reused while nothing they depend on changed.

Indexing is most of a rebuild's time; when no chunk changed, the index cannot
have changed either.  ``search.memo`` holds the files and the key they were
made under: the index stage's declared inputs and every field of every page it reads.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import operator
import os
import weakref
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Mapping, Sequence

import orjson  # every page is hashed on every serve rebuild

from ..pipeline import index
from .keys import stage_key

MEMO = "search.memo"
LEGACY_MEMO = "search.json"  # the memo as one JSON document (before 2026-12-04): removed on the next save
# The first line: this, the key, a newline.  Then each file: "<name bytes> <data bytes>\n", the name, the data.
_MAGIC = b"citesearch search memo 1 "


def search_key(pages: Sequence[index.SearchPage], default_lang: str, generator: dict) -> str:
    key = SearchKey(default_lang, generator)
    for page in pages:
        key.add(page)
    return key.hexdigest()


class SearchKey:
    """``search_key`` a page at a time: ``citesearch index`` hashes each page as it comes from its reader."""

    def __init__(self, default_lang: str, generator: dict):
        self._digest = hashlib.sha256(stage_key(index.CACHE_MODULES, index.cache_inputs(default_lang, generator)).encode())

    def add(self, page: index.SearchPage) -> None:
        # orjson: every page's text is hashed on every serve rebuild (json took ~0.4 s on rust-rfcs)
        self._digest.update(orjson.dumps(_page_record(page), option=orjson.OPT_SORT_KEYS))

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


class StoredFiles(Mapping[str, bytes]):
    """The files of a memo, each read from disk when asked for.

    A large site's search files are hundreds of MB (790 MB at 100,000 pages):
    read whole, as one JSON document, they were a rebuild's peak memory three
    times over (the file, the parsed texts, their bytes).  The memo is walked
    once to find where each file is; copying them into the site then holds one
    at a time.  Reads go to the file that was walked, kept open: a concurrent
    ``save`` replaces the name, never that file.
    """

    def __init__(self, memo: BinaryIO, places: dict[str, tuple[int, int]]):
        self._fd = memo.fileno()
        self._places = places  # name -> (offset, length)
        weakref.finalize(self, memo.close)

    def __getitem__(self, name: str) -> bytes:
        offset, length = self._places[name]
        return os.pread(self._fd, length, offset)

    def __iter__(self) -> Iterator[str]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)


def load(folder: Path, key: str) -> StoredFiles | None:
    """The files stored under ``key``; None when there are none.  Raises ValueError when the memo is damaged."""
    path = folder / MEMO
    if not path.is_file():
        return None
    places: dict[str, tuple[int, int]] = {}
    memo = path.open("rb")
    try:
        head = memo.readline()
        if not head.startswith(_MAGIC) or not head.endswith(b"\n"):
            raise ValueError(f"{path}: not a search memo")
        if head[len(_MAGIC):-1] != key.encode("ascii"):
            memo.close()
            return None  # another key: no need to walk hundreds of MB of files
        size = os.fstat(memo.fileno()).st_size
        while memo.tell() < size:
            line = memo.readline()
            try:
                name_bytes, data_bytes = (int(n) for n in line.split(b" "))
                name = memo.read(name_bytes).decode("utf-8")
            except (ValueError, UnicodeError) as exc:
                raise ValueError(f"{path}: damaged at byte {memo.tell()}") from exc
            places[name] = (memo.tell(), data_bytes)
            memo.seek(data_bytes, 1)
        if memo.tell() != size:
            raise ValueError(f"{path}: cut short")
    except BaseException:
        memo.close()
        raise
    return StoredFiles(memo, places)


def save(folder: Path, key: str, files: Mapping[str, bytes | Path]) -> None:
    """Atomically: a concurrent build reads the old memo or the new one, never half of one.

    Written file by file, each as its bytes: no file is held beside another
    (the memo as one JSON string was once the peak of a build's memory).
    """
    path = folder / MEMO
    partial = path.with_suffix(f".tmp-{os.getpid()}")
    try:
        with partial.open("wb") as memo:
            memo.write(_MAGIC + key.encode("ascii") + b"\n")
            for name, data in files.items():
                raw, name_raw = index.read_bytes(data), name.encode("utf-8")
                memo.write(b"%d %d\n" % (len(name_raw), len(raw)) + name_raw)
                memo.write(raw)
        os.replace(partial, path)
        (folder / LEGACY_MEMO).unlink(missing_ok=True)
    finally:
        partial.unlink(missing_ok=True)


def _page_record(page: index.SearchPage) -> list:
    """A page's fields as JSON values, leaving out derived ones (``compare=False``, e.g. Chunk.terms)."""
    fields = dict(zip(_compared(type(page)), _values(type(page))(page)))
    chunks = fields.pop("chunks")
    return [fields, [_values(type(c))(c) for c in chunks]]


@functools.cache
def _compared(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.compare)


@functools.cache
def _values(cls: type) -> Callable[[object], tuple]:
    names = _compared(cls)
    get = operator.attrgetter(*names)
    return (lambda item: (get(item),)) if len(names) == 1 else get
