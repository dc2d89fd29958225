"""Remove a folder and everything in it, several files at a time.

On a disk mounted with ``discard`` (ext4 without a journal, as on many
virtual machines), each unlink of a large file waits until the disk has
discarded its blocks: removing the previous site after a swap (98 MB of
rewritten pages on rust-rfcs) took 1.4-2.4 s of waiting and 0.1 s of CPU.
Unlinks done by a few threads at once overlap those waits (0.15 s).
Symlinks are removed, never followed; files are unlinked by name inside
their folder's descriptor, as ``shutil.rmtree`` does, so a folder swapped
for a symlink meanwhile cannot lead outside.  Errors are ignored, as with
``shutil.rmtree(ignore_errors=True)``: what is left is removed by the next run.
"""

from __future__ import annotations

import collections
import os
import shutil
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path

THREADS = 8  # unlinks in flight: they wait on the disk, not the CPU
_OPEN_FOLDERS = 64  # folder descriptors held while their files are being unlinked
_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` (not followed if it is a symlink); errors ignored."""
    if not folder.is_symlink():
        # The threads are joined before this returns: the process may fork again (fork_is_safe).
        with ThreadPoolExecutor(THREADS, thread_name_prefix="citesearch-remove") as pool:
            _unlink_files(folder, pool)
    shutil.rmtree(folder, ignore_errors=True)  # the folders, now empty, and anything left


def _unlink_files(folder: Path, pool: ThreadPoolExecutor) -> None:
    """Unlink every file under ``folder`` on ``pool``, each inside its folder's descriptor."""
    pending: collections.deque[tuple[int, list[Future]]] = collections.deque()
    folders = [os.fsencode(folder)]
    parents: list[int | None] = [None]
    try:
        while folders:
            name, parent = folders.pop(), parents.pop()
            try:
                fd = os.open(name, _FOLDER_FLAGS, dir_fd=parent)
            except OSError:
                continue
            files = []
            try:
                with os.scandir(fd) as entries:
                    for entry in entries:
                        if _is_folder(entry):
                            folders.append(os.fsencode(entry.name))
                            parents.append(fd)
                        else:
                            files.append(entry.name)
            except OSError:
                pass
            # A few futures a folder, each unlinking every THREADS-th file: a future per file (and its lock)
            # was most of the CPU of removing a site of 14,000 search files.
            shares = [files[i::THREADS] for i in range(min(THREADS, len(files)))]
            pending.append((fd, [pool.submit(_unlink_all, share, fd) for share in shares]))
            if len(pending) > _OPEN_FOLDERS:  # close those whose files are gone, bar the subfolders' way in
                referenced = set(parents)
                for item in [item for item in pending if item[0] not in referenced]:
                    pending.remove(item)
                    _close_when_done(*item)
    finally:
        while pending:
            _close_when_done(*pending.popleft())


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _unlink_all(names: list[str], folder_fd: int) -> None:
    for name in names:
        try:
            os.unlink(name, dir_fd=folder_fd)
        except OSError:
            pass


def _close_when_done(fd: int, unlinks: list[Future]) -> None:
    wait(unlinks)
    os.close(fd)
