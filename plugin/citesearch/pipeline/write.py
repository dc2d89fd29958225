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
import pickle
import signal
import struct
import tempfile
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator, Mapping, MutableMapping

from ..errors import CitesearchError, ContentError, UsageError
from .output_folder import MARKER_NAME, check_output_folder_replaceable, marker_text
from .remove_tree import remove_tree
from .source_files import copy_regular, shown_name
from .workers import die_with_parent, fork_is_safe
from ..waiting import lock_exclusive

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def publish(files: Mapping[str, bytes | Path], out: Path) -> None:
    """Write the site into ``out`` under the output lock; a failure to write is one clear message.

    Whatever goes wrong (read-only folder, full disk), the previous site is left as it was
    and the temporary folder is removed.
    """
    with StagedSite(out) as site:
        site.update(files)
        site.publish()


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
        lock_exclusive(fd, f"the output folder {shown_name(out)}")
        yield
    finally:
        os.close(fd)  # closing releases the lock


class StagedSite(MutableMapping[str, "bytes | Path"]):
    """A site written file by file, as it is made, into a temporary folder beside ``out``.

    ``publish`` swaps the finished folder in place of ``out``; leaving the
    ``with`` block without it removes the folder and leaves ``out`` as it was.
    Pages go to disk as they are rendered instead of waiting in memory for the
    last one (tens of MB on a large site).  Nothing is created before the first
    file; then the output lock is held until the end, since a second build
    clears the temporary folders a killed one left.  Reading a file gives its
    path in the temporary folder; the marker file tells later builds that the
    folder is citesearch's to replace.  A failure to write is one message
    (UsageError), nothing replaced.
    """

    def __init__(self, out: Path, *, owned: bool = True):
        self.given = out  # as the user wrote it, for messages
        self.out = out.absolute()
        # False: a folder another tool made, rebuilt whole by its caller (``citesearch index`` in place):
        # no ownership marker, and ``out`` is replaced without asking whether it is citesearch's.
        self.owned = owned
        self.sizes: dict[str, int] = {}  # site path -> bytes written
        self._held = contextlib.ExitStack()
        self._tmp: Path | None = None
        self._folder_name = ""  # str(self._tmp) once made: thousands of files are put under it
        self._made: set[str] = set()  # folders made in the temporary folder
        self._children: list[int] = []  # processes writing into the folder beside this one

    def __enter__(self) -> StagedSite:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Remove the temporary folder (after ``publish`` it holds the previous site) and release the lock."""
        try:
            for pid in self._children:  # still writing (the build failed before waiting): stop it first
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
            self._children = []
            if self._tmp is not None:
                remove_tree(self._tmp)
                self._tmp, self._folder_name = None, ""
        finally:
            self._held.close()

    def __setitem__(self, rel: str, data: bytes | Path) -> None:
        # Paths as strings and files by os.open: thousands of search files, each a few µs of pathlib and io less.
        dest = f"{self._folder_name or self._folder()}/{_safe_relative(rel)}"
        with self._reported():
            parent = dest.rpartition("/")[0]
            if parent not in self._made:  # one mkdir per folder, not per file (thousands of search files)
                os.makedirs(parent, exist_ok=True)
                self._made.add(parent)
            if isinstance(data, Path):
                copy_regular(data, Path(dest))
                self.sizes[rel] = os.stat(dest).st_size
            else:
                _write_file(dest, data)
                self.sizes[rel] = len(data)

    def __getitem__(self, rel: str) -> Path:
        if rel not in self.sizes or self._tmp is None:
            raise KeyError(rel)
        return self._tmp / rel

    def __delitem__(self, rel: str) -> None:
        path = self[rel]
        with self._reported():
            path.unlink()
        del self.sizes[rel]

    def __iter__(self) -> Iterator[str]:
        return iter(self.sizes)

    def __len__(self) -> int:
        return len(self.sizes)

    def fill_in_child(self, fill: Callable[[StagedSite], None]) -> Callable[[bool], None]:
        """Run ``fill(self)`` in a forked process, beside the caller; return ``wait(report=True)``.

        The child writes into the same temporary folder.  ``wait`` waits for it,
        counts what it wrote, and raises what it raised (with ``report``); a
        child still running when the site is closed is killed first.  Only
        fork while this process has no other thread.
        """
        self._folder()
        parent, (read_end, write_end) = os.getpid(), os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: no cleanup of the parent's may run here, so it leaves by os._exit
            try:
                os.close(read_end)
                die_with_parent(parent)
                before = set(self.sizes)
                fill(self)
                outcome: tuple = ("ok", {rel: size for rel, size in self.sizes.items() if rel not in before})
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                outcome = _failure(exc)
            finally:
                try:
                    with os.fdopen(write_end, "wb") as pipe:
                        pickle.dump(outcome, pipe)
                finally:
                    os._exit(0)
        os.close(write_end)
        self._children.append(pid)

        def wait(report: bool = True) -> None:
            with os.fdopen(read_end, "rb") as pipe:
                data = pipe.read()
            os.waitpid(pid, 0)
            self._children.remove(pid)
            kind, *details = pickle.loads(data) if data else ("error", UsageError("the rendering process ended early"))
            if kind == "ok":
                self.sizes.update(details[0])
            elif report:
                raise _failure_again(kind, details)

        return wait

    def written_now(self) -> MutableMapping[str, bytes]:
        """A mapping whose files this process writes into the site as they are put, their bytes kept readable."""
        return _WrittenHere(self)

    @contextlib.contextmanager
    def written_beside(self) -> Iterator[MutableMapping[str, bytes]]:
        """A mapping whose files a forked process writes into the site while this one goes on (``fill_in_child``).

        Creating thousands of small files is mostly the kernel's time: spent on the other core while the
        caller makes the next ones.  The files stay readable in the mapping (their bytes, as given); they
        are all on disk, counted in ``sizes``, when the block ends.  Written here when this process may not
        fork (another thread runs) or has one core.
        """
        if (os.cpu_count() or 1) < 2 or not fork_is_safe():
            yield _WrittenHere(self)
            return
        read_end, write_end = os.pipe()
        with contextlib.suppress(OSError):  # a larger pipe: the writer may fall behind a little without stopping us
            fcntl.fcntl(write_end, _F_SETPIPE_SZ, 1 << 20)

        def write_all(site: StagedSite) -> None:
            os.close(write_end)
            with os.fdopen(read_end, "rb") as pipe:
                while header := pipe.read(_FRAME.size):
                    name_size, data_size = _FRAME.unpack(header)
                    name, data = pipe.read(name_size), pipe.read(data_size)
                    if len(name) != name_size or len(data) != data_size:
                        raise EOFError("the files to write were cut short")
                    site[name.decode("utf-8")] = data

        wait = self.fill_in_child(write_all)
        os.close(read_end)
        files = _SentToChild(write_end)
        try:
            yield files
        finally:
            files.close()  # the writer stops at the end of its pipe; if this block failed, ``close`` kills it
        wait()

    def publish(self) -> None:
        """Swap the written folder in place of ``out`` (checked again under the lock: it may have changed)."""
        tmp = self._folder()
        with self._reported():
            if self.owned:
                written = frozenset(self.sizes)
                (tmp / MARKER_NAME).write_bytes(marker_text(written))  # what the next build may replace
                check_output_folder_replaceable(self.given, written)  # as the user named it, for messages
            elif self.out.is_symlink() or not self.out.is_dir():
                raise UsageError(f"output folder {shown_name(self.given)} is no longer a folder; nothing was replaced")
            _swap_in(tmp, self.out)

    def _folder(self) -> Path:
        """The temporary folder, made on first use under the output lock."""
        if self._tmp is None:
            with self._reported():
                self._held.enter_context(output_lock(self.out))
                _remove_leftovers(self.out)
                try:
                    tmp = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.tmp-", dir=self.out.parent))
                except OSError as exc:  # name the folder the user chose, not a random temporary name
                    exc.filename = str(self.out.parent)
                    raise
                self._tmp = tmp
                self._folder_name = str(tmp)
                os.chmod(tmp, 0o755)
                if self.owned:
                    (tmp / MARKER_NAME).write_bytes(marker_text(()))  # the files are listed at publish
                self._made.add(str(tmp))
        return self._tmp

    @contextlib.contextmanager
    def _reported(self) -> Iterator[None]:
        """An OSError as one message naming the file as it would be in the site, not in the temporary folder."""
        try:
            yield
        except OSError as exc:
            tmp = str(self._tmp)
            if self._tmp is not None and isinstance(exc.filename, str) and exc.filename.startswith(f"{tmp}/"):
                exc.filename = str(self.out / exc.filename[len(f"{tmp}/"):])
            raise UsageError(
                f"cannot write the site to {shown_name(self.given)}: {_reason(exc)}; nothing was replaced"
            ) from None


_F_SETPIPE_SZ = 1031  # linux/fcntl.h
_FRAME = struct.Struct("<IQ")  # a file sent to the writer: its name's bytes, its data's bytes, then both


class _SentToChild(dict):
    """Files kept here and sent down a pipe to the process that writes them (``StagedSite.written_beside``)."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd: int | None = fd

    def __setitem__(self, rel: str, data: bytes) -> None:
        super().__setitem__(rel, data)
        if self.fd is None:
            return
        name = rel.encode("utf-8")
        try:
            _write_all(self.fd, [_FRAME.pack(len(name), len(data)), name, data])
        except BrokenPipeError:  # the writer failed: its error is raised when it is waited for
            self.close()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class _WrittenHere(dict):
    """``written_beside`` without a second process: each file written as it is put."""

    def __init__(self, site: StagedSite):
        super().__init__()
        self.site = site

    def __setitem__(self, rel: str, data: bytes) -> None:
        super().__setitem__(rel, data)
        self.site[rel] = data


def _write_all(fd: int, parts: list[bytes]) -> None:
    """``os.writev`` until every byte is written (a pipe takes what fits)."""
    views = [memoryview(part) for part in parts if part]
    while views:
        done = os.writev(fd, views)
        while views and done >= len(views[0]):
            done -= len(views[0])
            views.pop(0)
        if views and done:
            views[0] = views[0][done:]


def _failure(exc: BaseException) -> tuple:
    """An exception as a child process sends it back: ContentError by its problems, ours by type and message."""
    if isinstance(exc, ContentError):
        return ("content", exc.problems, exc.warnings)
    if isinstance(exc, CitesearchError):
        return ("citesearch", type(exc), str(exc))
    try:
        pickle.dumps(exc)
        return ("error", exc)
    except Exception:  # noqa: BLE001 - an exception that does not pickle still says what it was
        return ("error", RuntimeError(f"{type(exc).__name__}: {exc}"))


def _failure_again(kind: str, details: list) -> BaseException:
    if kind == "content":
        return ContentError(*details)
    if kind == "citesearch":
        error_type, message = details
        return error_type(message)
    return details[0]


def _write_file(path: str, data: bytes) -> None:
    """``Path.write_bytes`` without its file object (same mode: 0o666 less the umask)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _safe_relative(rel: str) -> str:
    """``rel`` as PurePosixPath writes it, refused when it leads outside the folder."""
    parts = rel.split("/")
    if "" not in parts and "." not in parts and ".." not in parts:  # already so (nearly every file): no PurePosixPath
        return rel
    path = PurePosixPath(rel)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UsageError(f"refusing to write outside the output folder: {rel!r}")
    return str(path)


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
        remove_tree(stale)
    for stale in out.parent.glob(f".{out.name}.old-*"):
        if not out.exists():
            os.rename(stale, out)  # killed between the two fallback renames: restore
        else:
            remove_tree(stale)
