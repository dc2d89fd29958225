"""Forked worker processes: when a process may fork them, and how each ends with its parent.

Apart from ``parse`` (which imports Markdown) so that ``citesearch index`` forks its readers and
writer without importing the build's parser.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading

# Below this many documents, starting worker processes costs more than it saves
# (two workers start in ~0.1 s; fastapi-en's 154 documents take ~2.6 s to parse).
PARALLEL_MIN_DOCUMENTS = 50


def fork_is_safe() -> bool:
    """Whether this process may fork workers.

    Workers are forked: "spawn" would re-run the caller's main module (a script
    without a __main__ guard, an MkDocs plugin). fork() is only safe while this
    process has no other thread (serve's watcher has): then work here.
    """
    return threading.active_count() == 1


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """End this forked process when the build process ends, even by SIGKILL.

    An orphaned worker would keep the build cache's lock (a forked copy of its
    file descriptor) and make every later build wait forever.
    """
    libc_name = ctypes.util.find_library("c")
    if libc_name:
        ctypes.CDLL(libc_name, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
