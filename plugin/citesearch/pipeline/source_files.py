"""Content files citesearch may read: regular files whose real path stays inside the content folder.

A symlink to ``/etc/shadow`` must not be published, a FIFO must not hang the
build and ``/dev/zero`` must not fill memory.  Files are checked with
``stat`` before they are opened, and opened without blocking and checked
again, so a file swapped for a FIFO in between cannot hang the build either.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "named pipe"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


class NotRegularFile(OSError):
    """The path is a FIFO, device, socket or folder: never read it."""


def shown_name(name: str | os.PathLike) -> str:
    """A file name or path safe to print and to put in a message: undecodable bytes as ``\\xe9``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def is_utf8_name(name: str) -> bool:
    return shown_name(name) == name


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
