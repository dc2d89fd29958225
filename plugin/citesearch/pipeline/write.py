"""Write: put a complete site on disk in one step, or not at all.

Files go to a temporary folder beside the output; the finished folder is then
swapped in with one atomic ``renameat2(RENAME_EXCHANGE)`` where the kernel has
it.  A build killed at any moment leaves the previous site exactly as it was.
Only a folder that ``output_folder`` allows is replaced, and every site written
carries its marker; a disk that fails midway is one message, nothing replaced.
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
from .output_folder import MARKER_NAME, MARKER_TEXT, check_output_folder_replaceable
from .source_files import copy_regular, shown_name

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def publish(files: Mapping[str, bytes | Path], out: Path) -> None:
    """Write the site into ``out`` under the output lock; a failure to write is one clear message.

    Whatever goes wrong (read-only folder, full disk), the previous site is left as it was
    and the temporary folder is removed.
    """
    try:
        with output_lock(out):
            check_output_folder_replaceable(out)  # again under the lock: the folder may have changed meanwhile
            write_site(files, out)
    except OSError as exc:
        raise UsageError(f"cannot write the site to {shown_name(out)}: {_reason(exc)}; nothing was replaced") from None


def _reason(exc: OSError) -> str:
    where = f" ({shown_name(exc.filename)})" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


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
    """Write every file into a fresh folder, then swap it in place of ``out``.

    The marker file tells later builds that this folder is citesearch's to replace.
    """
    out = out.absolute()
    _remove_leftovers(out)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    except OSError as exc:  # name the folder the user chose, not a random temporary name
        exc.filename = str(out.parent)
        raise
    try:
        os.chmod(tmp, 0o755)
        (tmp / MARKER_NAME).write_bytes(MARKER_TEXT)
        made = {tmp}
        for rel in sorted(files):
            dest = tmp / _safe_relative(rel)
            if dest.parent not in made:  # one mkdir per folder, not per file (thousands of search files)
                dest.parent.mkdir(parents=True, exist_ok=True)
                made.add(dest.parent)
            data = files[rel]
            if isinstance(data, Path):
                copy_regular(data, dest)
            else:
                dest.write_bytes(data)
        _swap_in(tmp, out)
    except OSError as exc:  # name the file as it would be in the site, not in the temporary folder
        if isinstance(exc.filename, str) and exc.filename.startswith(f"{tmp}/"):
            exc.filename = str(out / exc.filename[len(f"{tmp}/"):])
        raise
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
