"""Run `citesearch serve` as a real process and follow what it reports on stderr."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

URL_LINE = re.compile(r"at (http://127\.0\.0\.1:\d+/)$")


class ServeProcess:
    """``citesearch serve`` on a free port; ``lines`` collects its stderr as it arrives."""

    def __init__(self, content: Path, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "citesearch", "serve", str(content), "--port", "0", *args],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        self.lines: list[str] = []
        self._new: queue.Queue[str] = queue.Queue()
        self._follower = threading.Thread(target=self._follow, daemon=True)
        self._follower.start()
        self.url = URL_LINE.search(self.wait_for("serving ")).group(1)

    def _follow(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))
            self._new.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 120) -> str:
        """The next stderr line containing ``text`` (earlier lines are consumed)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._new.get(timeout=max(remaining, 0.01))
            except queue.Empty:
                raise AssertionError(f"serve never said {text!r}; it said:\n" + "\n".join(self.lines)) from None
            if text in line:
                return line

    def stop(self) -> int:
        """Ctrl+C, as a user would; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._follower.join(timeout=30)
        if self.process.stderr is not None:
            self.process.stderr.close()
        return self.process.returncode
