"""Take a lock another build may hold, and say so while waiting instead of seeming to hang.

The library prints nothing itself: the CLI installs ``notice`` (a line on
stderr); elsewhere waiting is silent, as before.  The holder's process id is
read from ``/proc/locks`` where Linux has it.
"""

from __future__ import annotations

import fcntl
import os
from typing import Callable

_notice: Callable[[str], None] | None = None


def set_notice(notice: Callable[[str], None] | None) -> None:
    """Where a wait is announced (the CLI's stderr); None: nowhere."""
    global _notice
    _notice = notice


def lock_exclusive(fd: int, what: str) -> None:
    """``flock(fd, LOCK_EX)``; when another process holds it, announce the wait first."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    if _notice is not None:
        holder = holder_pid(fd)
        by = f" (held by process {holder})" if holder else ""
        _notice(f"waiting for another build to release {what}{by}")
    fcntl.flock(fd, fcntl.LOCK_EX)


def holder_pid(fd: int) -> int | None:
    """The process holding a flock on the file of ``fd``, from /proc/locks; None when unknown."""
    info = os.fstat(fd)
    device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; blocked waiters are marked "->"
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device and fields[4].isdigit():
                    pid = int(fields[4])
                    if pid != os.getpid():
                        return pid
    except OSError:
        pass
    return None
