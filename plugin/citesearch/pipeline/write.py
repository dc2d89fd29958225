"""Write: put a complete site on disk in one step, or not at all.

Files go to a temporary folder beside the output; the finished folder is then
swapped in with one atomic ``renameat2(RENAME_EXCHANGE)`` where the kernel has
it.  A build killed at any moment leaves the previous site exactly as it was.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterator, Mapping

from ..errors import UsageError

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@contextlib.contextmanager
def output_lock(out: Path) -> Iterator[None]:
    """Serialise builds into one output folder (a second build waits for the first).

    The lock is taken on the folder that holds the output, so no lock file is left behind.
    """
    out.absolute().parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(out.absolute().parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_site(files: Mapping[str, bytes | Path], out: Path) -> None:
    """Write every file into a fresh folder, then swap it in place of ``out``."""
    out = out.absolute()
    _remove_leftovers(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        os.chmod(tmp, 0o755)
        for rel in sorted(files):
            dest = tmp / _safe_relative(rel)
            dest.parent.mkdir(parents=True, exist_ok=True)
            data = files[rel]
            if isinstance(data, Path):
                shutil.copyfile(data, dest)
            else:
                dest.write_bytes(data)
        _swap_in(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _safe_relative(rel: str) -> PurePosixPath:
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UsageError(f"refusing to write outside the output folder: {rel!r}")
    return path


def _swap_in(new: Path, out: Path) -> None:
    """Make ``new`` the output folder; afterwards ``new`` holds the old site (or nothing)."""
    if not out.exists():
        os.rename(new, out)
        return
    if not out.is_dir() or out.is_symlink():
        raise UsageError(f"output path {out} exists and is not a folder")
    if _exchange(new, out):
        return
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    os.rename(out, old)
    os.rename(new, out)
    os.rename(old, new)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2); False where unsupported."""
    libc_name = ctypes.util.find_library("c")
    if not libc_name:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _remove_leftovers(out: Path) -> None:
    """Temporary folders of builds that were killed before they could clean up."""
    if not out.parent.is_dir():
        return
    for stale in out.parent.glob(f".{out.name}.tmp-*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in out.parent.glob(f".{out.name}.old-*"):
        if not out.exists():
            os.rename(stale, out)  # killed between the two fallback renames: restore
        else:
            shutil.rmtree(stale, ignore_errors=True)
