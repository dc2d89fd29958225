"""Where the build cache lives: beside the output, never inside the content, never in someone else's folder.

A cache folder is citesearch's when it holds its cache directory tag
(``CACHEDIR.TAG``, https://bford.info/cachedir/, which backup tools also
skip), when it is empty or new, or when it holds only what an older
citesearch left (its lock, a database it made, the search memo beside that
database).  Any other folder is refused: the cache replaces a database it
cannot read and overwrites its search memo (``search.memo``, once
``search.json``), so ``--cache-dir .`` or a folder of another tool's files
would lose them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from ..errors import UsageError
from ..pipeline.source_files import shown_name
from .search_cache import LEGACY_MEMO, MEMO
from .store import APPLICATION_ID, DATABASE, LOCK

# Where earlier versions kept the cache: inside the content folder.  Nothing
# reads or writes it any more (the loader skips dot folders); it can be deleted.
LEGACY_DIR = ".citesearch-cache"


def for_output(out: Path) -> Path:
    """``site`` -> ``site.cache``: beside the output, so content stays untouched."""
    if not out.name:  # "." or "/": name it after the folder it stands for
        out = Path(os.path.abspath(out))
    return out.parent / f"{out.name or 'site'}.cache"


def for_preview(content_dir: Path) -> Path:
    """``serve`` has no output folder: one cache per content folder in the user's cache."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    content = os.path.abspath(content_dir)
    name = f"{Path(content).name or 'root'}-{hashlib.sha256(content.encode()).hexdigest()[:16]}"
    return root / "citesearch" / name


TAG_NAME = "CACHEDIR.TAG"
TAG = (
    b"Signature: 8a477f597d28d172789f06886806bc55\n"
    b"# This file is a cache directory tag created by citesearch: this folder is its build cache and may be deleted.\n"
)
_JOURNALS = tuple(f"{DATABASE}{suffix}" for suffix in ("-journal", "-wal", "-shm"))
_SQLITE_HEADER = b"SQLite format 3\x00"


def check_location(cache_dir: Path, content_dir: Path, out: Path | None = None) -> None:
    """Refuse a cache folder where it would write into the sources, be replaced with the site, or overwrite another's files."""
    cache = Path(os.path.realpath(cache_dir))
    for role, folder in (("content", content_dir), ("output", out)):
        if folder is not None and _within(cache, Path(os.path.realpath(folder))):
            raise UsageError(
                f"cache folder {cache_dir} is inside the {role} folder {folder}; choose one outside it with --cache-dir"
            )
    foreign = foreign_entry(cache_dir)
    if foreign is not None:
        raise UsageError(
            f"cache folder {shown_name(cache_dir)} holds {shown_name(foreign)}, which citesearch did not write; "
            "refusing to use it as the build cache: choose another --cache-dir, or an empty or new folder"
        )


def foreign_entry(cache_dir: Path) -> str | None:
    """The first name in ``cache_dir`` the cache could destroy and did not write; None for a folder it may use.

    A path that is no folder, or cannot be read, is left to the cache itself,
    which turns off with a warning (it never fails a build).
    """
    try:
        if not stat.S_ISDIR(os.lstat(cache_dir).st_mode):
            return None
        if _is_tag(cache_dir / TAG_NAME):
            return None
        names = sorted(os.listdir(cache_dir))
    except OSError:
        return None
    known = {LOCK, DATABASE, MEMO, LEGACY_MEMO, *_JOURNALS}
    unknown = [name for name in names if name not in known]
    if unknown:
        return unknown[0]
    database = cache_dir / DATABASE
    ours = _is_regular(database) and _is_our_database(database)
    for name in (DATABASE, *_JOURNALS, MEMO, LEGACY_MEMO):  # what the cache deletes or overwrites
        if name in names and _is_regular(cache_dir / name) and not ours:
            return name
    return None


def claim(cache_dir: Path) -> None:
    """Tag the folder as citesearch's cache (it was checked by ``check_location``)."""
    tag = cache_dir / TAG_NAME
    if not _is_tag(tag):
        tag.write_bytes(TAG)


def _is_tag(path: Path) -> bool:
    return _is_regular(path) and _head(path, len(TAG) + 1) == TAG


def _is_our_database(path: Path) -> bool:
    head = _head(path, 100)
    return head.startswith(_SQLITE_HEADER) and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _head(path: Path, size: int) -> bytes:
    """The first bytes of a regular file, never blocking on one swapped for a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return b""
    try:
        return os.read(fd, size) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def read_only(folder: Path) -> Path | None:
    """The folder, or the nearest existing folder above it, when nobody may write to it.

    Checked by mode bits as well as ``os.access``, which says yes to root:
    a folder made read-only on purpose stays untouched even then.
    """
    for candidate in (folder, *folder.absolute().parents):
        try:
            mode = candidate.stat().st_mode
        except OSError:
            continue
        if not stat.S_ISDIR(mode):
            return None  # a file in the way: creating the folder fails with a clear OSError
        writable = stat.S_IMODE(mode) & 0o222 and os.access(candidate, os.W_OK)
        return None if writable else candidate
    return None


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
