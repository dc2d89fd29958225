"""Content files citesearch may read: regular files whose real path stays inside the content folder,
found by a walk that needs no recursion and skips what editors leave behind.

A symlink to ``/etc/shadow`` must not be published, a FIFO must not hang the
build and ``/dev/zero`` must not fill memory.  Files are checked with
``stat`` before they are opened, and opened without blocking and checked
again, so a file swapped for a FIFO in between cannot hang the build either.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path
from typing import Callable, Iterator

from ..errors import Problem

# Deeper folders are an error: no real site comes near, and path lengths and the
# standard library's recursive helpers (makedirs, pathlib) give out not far above.
MAX_FOLDER_DEPTH = 100
# What editors, merges and patches leave beside a file: copies of a draft, never content to publish.
_BACKUP_SUFFIXES = (".bak", ".backup", ".old", ".orig", ".rej", ".save", ".swo", ".swp", ".swx", ".tmp", ".temp")

_KINDS = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "named pipe"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


class NotRegularFile(OSError):
    """The path is a FIFO, device, socket or folder: never read it."""


class FolderTooDeep(OSError):
    """A folder nested deeper than MAX_FOLDER_DEPTH: not walked into."""


def folder_error(exc: OSError) -> str:
    """The message for a folder ``walk`` could not go into."""
    if isinstance(exc, FolderTooDeep):
        return f"folder nested more than {MAX_FOLDER_DEPTH} levels deep; move its files higher up"
    return f"cannot read folder: {exc.strerror or exc}"


def shown_name(name: str | os.PathLike) -> str:
    """A file name or path safe to print and to put in a message: undecodable bytes as ``\\xe9``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def is_utf8_name(name: str) -> bool:
    return shown_name(name) == name


def is_editor_leftover(name: str) -> bool:
    """An editor's backup, autosave, swap or lock file, or a merge's leftover: ``a.md~``, ``#a.md#``, ``a.md.orig``."""
    lower = name.lower()
    return (
        lower.endswith("~")
        or lower.startswith(("#", ".#", "~$"))
        or lower.endswith(_BACKUP_SUFFIXES)
    )


def leftovers_warning(rels: list[str]) -> Problem:
    """One warning for all the editor leftovers skipped, however many."""
    shown = ", ".join(shown_name(r) for r in rels[:3]) + (f" and {len(rels) - 3} more" if len(rels) > 3 else "")
    what = "editor backup, swap or lock file" if len(rels) == 1 else f"{len(rels)} editor backup, swap or lock files"
    return Problem(shown_name(rels[0]), 1, f"{what}, never published: {shown}")


def folder_problem(path: Path) -> str | None:
    """Why the folder's files cannot be read (no read or search permission), or None."""
    return None if os.access(path, os.R_OK | os.X_OK) else "cannot read folder: Permission denied"


def walk(top: Path, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk`` without recursion: a tree 1,000 folders deep is an error, not a RecursionError.

    Top-down like ``os.walk`` (the caller may prune ``dirs`` in place); folder
    symlinks are listed as folders and never entered.  A folder that cannot be
    listed, whose entries cannot be looked at (no search permission), or that
    lies deeper than MAX_FOLDER_DEPTH goes to ``onerror`` and is left out.
    """
    stack = [(os.fspath(top), 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            if depth > MAX_FOLDER_DEPTH:
                raise FolderTooDeep(errno.ENAMETOOLONG, "too deep", folder)
            with os.scandir(folder) as entries:
                dirs, files = [], []
                for entry in entries:
                    (dirs if _is_folder(entry) else files).append(entry.name)
            if not os.access(folder, os.X_OK):  # names listed, but none can be opened
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), folder)
        except OSError as exc:
            onerror(exc)
            continue
        yield folder, dirs, files
        inner = (os.path.join(folder, name) for name in reversed(dirs))
        stack.extend((path, depth + 1) for path in inner if not os.path.islink(path))


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop, say: a file, which its own check reports (as os.walk does)
        return False


def outside_problem(path: Path, root_real: Path) -> str | None:
    """A symlink (or a path through one) whose target is not inside the real content folder."""
    real = Path(os.path.realpath(path))
    if real != root_real and root_real not in real.parents:
        return f"symlink leads outside the content folder (to {shown_name(real)})"
    return None


def source_problem(path: Path, root_real: Path) -> str | None:
    """Why ``path`` must not be read as content, or None when it is a regular file inside the root.

    The walk never follows folder symlinks, so only a file that is itself a symlink can lead outside.
    """
    outside = outside_problem(path, root_real) if path.is_symlink() else None
    if outside:
        return outside
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"cannot read file: {exc.strerror or exc}"
    if not os.access(path, os.R_OK):  # found now, with its path, not when the site is half written
        return "cannot read file: Permission denied"
    return _not_regular(mode)


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "special file")
    return f"not a regular file ({kind}); only regular files are read"


def _open_regular(path: Path) -> int:
    """A file descriptor for a regular file.

    A device is never opened (opening some has side effects); O_NONBLOCK and the second
    check cover a file swapped for a FIFO after the first check.
    """
    problem = _not_regular(os.stat(path).st_mode)
    if problem:
        raise NotRegularFile(0, problem, str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    problem = _not_regular(os.fstat(fd).st_mode)
    if problem:
        os.close(fd)
        raise NotRegularFile(0, problem, str(path))
    return fd


def read_regular(path: Path) -> bytes:
    with os.fdopen(_open_regular(path), "rb") as file:
        return file.read()


def copy_regular(source: Path, dest: Path) -> None:
    with os.fdopen(_open_regular(source), "rb") as src, open(dest, "wb") as dst:
        shutil.copyfileobj(src, dst)
