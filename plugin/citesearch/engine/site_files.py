"""The files of a built site's search folder, read as `citesearch search --site` may: safely.

A site folder may come from anywhere (a download, a teammate, an attacker), so
its manifest names nothing we trust: every file is looked up inside
``SITE/search/`` only (no absolute path, no ``..``, no symlink out), read only
when it is a regular file (never a FIFO that would hang, nor ``/dev/zero``
that would fill memory) of bounded size, and parsed only when its nesting is
as shallow as ours.  The manifest's numbers are checked before any arithmetic
uses them.  Every refusal is a ``UsageError`` naming the file: exit 2, one
line, no traceback.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path, PurePosixPath

from ..errors import UsageError

MAX_FILE_BYTES = 64 << 20  # the largest term or chunk file of the shared corpora is under 1 MB
MAX_DEPTH = 32  # our files nest 5 deep at most
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


class SiteFiles:
    """Reads ``SITE/search/<name>`` for the names a manifest gives."""

    def __init__(self, search_dir: Path):
        self.search_dir = search_dir
        self._root = os.path.realpath(search_dir)

    def read_json(self, name: str) -> dict:
        """The parsed file ``name`` (a JSON object), or UsageError saying why it cannot be used."""
        if not _is_plain_relative(name):
            raise UsageError(f"{self.search_dir}: the manifest names {name!r}, not a file of the search folder: rebuild the site")
        path = self.search_dir / name
        real = os.path.realpath(path)
        if not real.startswith(self._root + os.sep):
            raise UsageError(f"{path}: leads outside the search folder (to {real}): rebuild the site")
        data = _read_bounded(Path(real), path)
        depth = nesting_depth(data)
        if depth > MAX_DEPTH:
            raise UsageError(f"{path}: JSON nested {depth} levels deep, a search file nests at most {MAX_DEPTH}: rebuild the site")
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise UsageError(f"{path}: unreadable ({exc}), rebuild the site") from None
        if not isinstance(parsed, dict):
            raise UsageError(f"{path}: a search file holds a JSON object, this holds {type(parsed).__name__}: rebuild the site")
        return parsed


def _is_plain_relative(name: object) -> bool:
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    path = PurePosixPath(name)
    return not path.is_absolute() and all(part not in ("", ".", "..") for part in name.split("/"))


def _read_bounded(real: Path, shown: Path) -> bytes:
    """A regular file's bytes, opened without blocking and checked again once open."""
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UsageError(f"{shown}: missing, the search files are incomplete: rebuild the site") from None
    except OSError as exc:
        raise UsageError(f"{shown}: unreadable ({exc.strerror or exc}), rebuild the site") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{shown}: not a regular file (a pipe, device or folder): rebuild the site")
        if info.st_size > MAX_FILE_BYTES:
            raise UsageError(f"{shown}: {info.st_size:,} bytes, a search file has at most {MAX_FILE_BYTES:,}: rebuild the site")
        data = file.read(MAX_FILE_BYTES + 1)  # a file growing while read is bounded too
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"{shown}: over {MAX_FILE_BYTES:,} bytes, a search file has at most that: rebuild the site")
    return data


def nesting_depth(data: bytes) -> int:
    """How deep arrays and objects nest in JSON text (strings set aside), in one linear pass."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', data)):
        if match.group() in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def check_manifest(manifest: dict, where: Path) -> None:
    """The manifest fields the reader does arithmetic or lookups with, checked before use."""

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise UsageError(f"{where}: damaged manifest ({what}), rebuild the site")

    need(isinstance(manifest.get("fields"), list) and all(isinstance(f, str) for f in manifest["fields"]),
         "'fields' must be a list of names")
    languages = manifest.get("languages")
    need(isinstance(languages, dict), "'languages' must be an object")
    for lang, entry in languages.items():
        need(isinstance(entry, dict), f"language {lang!r} must be an object")
        chunks = entry.get("chunks")
        need(isinstance(chunks, dict), f"{lang}: 'chunks' must be an object")
        for key in ("per_file", "files_per_group", "groups_per_list"):
            value = chunks.get(key)
            need(type(value) is int and value >= 1, f"{lang}: chunks '{key}' must be a whole number of at least 1, got {value!r}")
        need(isinstance(chunks.get("lists"), list) and all(isinstance(g, str) for g in chunks["lists"]),
             f"{lang}: chunks 'lists' must be a list of names")
        terms = entry.get("terms")
        need(isinstance(terms, list) and all(
            isinstance(t, list) and len(t) == 2 and all(isinstance(x, str) for x in t) for t in terms
        ), f"{lang}: 'terms' must be a list of [first term, term list name]")
        dictionary = entry.get("dictionary")
        need(isinstance(dictionary, dict) and isinstance(dictionary.get("name"), str)
             and isinstance(dictionary.get("buckets"), list) and all(
                 isinstance(b, list) and len(b) == 2 and all(type(x) is int and x >= 1 for x in b)
                 for b in dictionary["buckets"]),
             f"{lang}: 'dictionary' must name the dictionary and its [length, files] (whole numbers of at least 1)")
