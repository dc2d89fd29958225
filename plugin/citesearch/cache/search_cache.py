"""The search files of the last build, reused while nothing they depend on changed.

Indexing is most of a rebuild's time; when no chunk changed, the index cannot
have changed either.  ``search.json`` holds the files and the key they were
made under: the index stage's declared inputs and every field of every page it reads.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import operator
import os
from pathlib import Path
from typing import Callable, Mapping, Sequence

import orjson  # the memo is tens of MB on large sites: json took ~0.3 s of every serve rebuild

from ..pipeline import index
from .keys import stage_key

MEMO = "search.json"
_KEY_PREFIX = '{"key":"'  # how save's compact JSON starts


def search_key(pages: Sequence[index.SearchPage], default_lang: str, generator: dict) -> str:
    digest = hashlib.sha256(stage_key(index.CACHE_MODULES, index.cache_inputs(default_lang, generator)).encode())
    for page in pages:
        # orjson: every page's text is hashed on every serve rebuild (json took ~0.4 s on rust-rfcs)
        digest.update(orjson.dumps(_page_record(page), option=orjson.OPT_SORT_KEYS))
    return digest.hexdigest()


def load(folder: Path, key: str) -> dict[str, bytes] | None:
    """The files stored under ``key``; None when there are none.  Raises ValueError when the memo is damaged."""
    path = folder / MEMO
    if not path.is_file():
        return None
    expected = f'{_KEY_PREFIX}{key}"'
    with path.open(encoding="utf-8", errors="replace") as memo_file:
        head = memo_file.read(len(expected))
    if head.startswith(_KEY_PREFIX) and head != expected:
        return None  # another key (save writes it first): no need to parse megabytes of files
    try:
        memo = orjson.loads(path.read_bytes())
        if memo.get("key") != key:
            return None
        return {name: text.encode("utf-8") for name, text in memo["files"].items()}
    except (UnicodeError, AttributeError, KeyError, TypeError, orjson.JSONDecodeError) as exc:
        raise ValueError(str(exc)) from exc


def save(folder: Path, key: str, files: Mapping[str, bytes | Path]) -> None:
    """Atomically: a concurrent build reads the old memo or the new one, never half of one.

    Written file by file, the same bytes as ``orjson.dumps({"key": key, "files":
    {name: text}})``: the whole memo as one string (four bytes a character once
    a text has an emoji) and its JSON was the peak of a build's memory.
    """
    path = folder / MEMO
    partial = path.with_suffix(f".tmp-{os.getpid()}")
    try:
        with partial.open("wb") as memo:
            memo.write(f"{_KEY_PREFIX}{key}\",\"files\":{{".encode())
            for n, (name, data) in enumerate(files.items()):
                memo.write(b"," if n else b"")
                memo.write(orjson.dumps(name) + b":" + orjson.dumps(index.read_bytes(data).decode("utf-8")))
            memo.write(b"}}")
        os.replace(partial, path)
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
