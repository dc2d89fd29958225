"""`citesearch serve` tells the truth and holds up (issue 21: points 3, 7 and 20), on real processes.

Warnings are printed as ``path:line: message`` and listed on the page; after a
failed rebuild nothing is served through a symlink made since the last good
build; a burst of connections, a silent client or one that hangs up mid-answer
neither turns others away nor prints tracebacks; a build waiting on another
says so; control characters never reach the terminal raw.
"""

from __future__ import annotations

import fcntl
import os
import queue
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from citesearch import cache
from conftest import BASIC_SITE
from serve_support import ServeProcess

BROKEN_LINK = "# Linked\n\nIntro.\n\nSee [the missing page](nowhere.md).\n"
WARNING = "linked.md:5: broken link: nowhere.md does not exist"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target, ignore=shutil.ignore_patterns(cache.LEGACY_DIR))
    return target


def get(url: str, timeout: float = 30) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def address(server: ServeProcess) -> tuple[str, int]:
    parts = urlsplit(server.url)
    return parts.hostname or "127.0.0.1", parts.port or 80


# --- 3: warnings, printed and on the page ----------------------------------------


def test_serve_prints_every_warning_with_file_and_line_and_only_new_ones_again(content):
    (content / "linked.md").write_text(BROKEN_LINK, encoding="utf-8")
    server = ServeProcess(content)
    try:
        assert server.wait_for("(warning)") == f"citesearch: {WARNING} (warning)"
        assert "1 warnings in " in server.wait_for("built ")
        (content / "linked.md").write_text(BROKEN_LINK + "\nAnd [another](gone.md).\n", encoding="utf-8")
        assert server.wait_for("(warning)") == "citesearch: linked.md:7: broken link: gone.md does not exist (warning)"
        assert "2 warnings (1 as listed before) in " in server.wait_for("built ")
    finally:
        assert server.stop() == 0
    assert sum(WARNING in line for line in server.lines) == 1, server.lines


@pytest.mark.browser
def test_the_page_lists_the_builds_warnings_until_hidden(page, content):  # noqa: F811
    (content / "linked.md").write_text(BROKEN_LINK, encoding="utf-8")
    server = ServeProcess(content)
    try:
        server.wait_for("built ")
        page.goto(server.url + "linked.html")
        panel = page.locator("#citesearch-build-warnings")
        panel.wait_for(state="visible", timeout=30_000)
        assert "1 warning in the last build" in panel.inner_text()
        assert WARNING in panel.inner_text()
        assert page.locator("#citesearch-build-error").count() == 0, "a warning is not a failed build"
        page.get_by_role("button", name="Hide warnings").click()
        page.reload()
        page.wait_for_load_state("load")
        time.sleep(0.5)  # the event stream has answered by now
        assert panel.count() == 0, "hidden stays hidden for the same warnings"
        (content / "linked.md").write_text(BROKEN_LINK + "\nAnd [another](gone.md).\n", encoding="utf-8")
        page.wait_for_function(
            "() => document.getElementById('citesearch-build-warnings')?.innerText.includes('gone.md')",
            timeout=60_000,
        )
        assert "2 warnings in the last build" in panel.inner_text()
    finally:
        assert server.stop() == 0


# --- 7: no file through a symlink after a failed rebuild -----------------------------


@pytest.mark.parametrize("swap", ["file", "folder"])
def test_a_failed_rebuild_serves_nothing_through_a_symlink_out_of_the_content(content, tmp_path, swap):
    (content / "files").mkdir()
    (content / "files" / "notes.txt").write_text("public notes\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("TOP SECRET\n", encoding="utf-8")
    server = ServeProcess(content)
    try:
        server.wait_for("built ")
        assert get(server.url + "files/notes.txt") == (200, b"public notes\n")
        if swap == "file":
            (content / "files" / "notes.txt").unlink()
            os.symlink(outside / "notes.txt", content / "files" / "notes.txt")
        else:
            shutil.rmtree(content / "files")
            os.symlink(outside, content / "files")
        # Before the rebuild and after it failed alike, the last good site never reaches the secret.
        assert b"TOP SECRET" not in get(server.url + "files/notes.txt")[1]
        failed = server.wait_for("  files")
        assert "symlink leads outside the content folder" in failed, server.lines
        status, body = get(server.url + "files/notes.txt")
        assert status == 404 and b"TOP SECRET" not in body
        assert get(server.url + "guide/usage.html")[0] == 200, "the rest of the last good site is still served"
    finally:
        assert server.stop() == 0


# --- 20: under load ------------------------------------------------------------------


def kernel_backlog_cap() -> int:
    try:
        return int(Path("/proc/sys/net/core/somaxconn").read_text())
    except (OSError, ValueError):
        return 4096  # Linux's default since 5.4


def test_two_hundred_connections_at_once_are_all_queued_and_answered(content):
    """The server is paused (SIGSTOP) while 200 clients connect: the kernel queues what the backlog allows."""
    server = ServeProcess(content)
    clients: list[socket.socket] = []
    try:
        server.wait_for("built ")
        host, port = address(server)
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            for _ in range(200):
                client = socket.socket()
                client.setblocking(False)
                client.connect_ex((host, port))
                clients.append(client)
            deadline = time.monotonic() + 10
            connected: set[int] = set()
            while len(connected) < len(clients) and time.monotonic() < deadline:
                for i, client in enumerate(clients):
                    if i not in connected and client.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                        try:
                            client.getpeername()
                            connected.add(i)
                        except OSError:
                            pass
                time.sleep(0.05)
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        queued = min(200, kernel_backlog_cap() + 1)  # the kernel caps any backlog at somaxconn
        assert len(connected) >= queued, f"only {len(connected)} of 200 connections were queued"
        answers = queue.Queue()

        def ask(client: socket.socket) -> None:
            select.select([], [client], [], 60)  # a connection the kernel did not queue retries its handshake
            client.setblocking(True)
            client.settimeout(60)
            try:
                client.sendall(f"GET /guide/usage.html HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                answers.put(client.recv(64))
            except OSError as exc:
                answers.put(repr(exc).encode())

        askers = [threading.Thread(target=ask, args=(client,)) for client in clients]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(timeout=120)
        statuses = [answers.get_nowait().split(b"\r\n")[0] for _ in range(answers.qsize())]
        assert statuses == [b"HTTP/1.0 200 OK"] * len(clients), set(statuses)
    finally:
        for client in clients:
            client.close()
        assert server.stop() == 0


def test_a_silent_client_is_let_go_and_blocks_nobody(content):
    server = ServeProcess(content)
    try:
        server.wait_for("built ")
        silent = socket.create_connection(address(server))
        silent.sendall(b"GET /guide/usage.html HTTP/1.1\r\n")  # and never the rest
        assert get(server.url + "guide/usage.html")[0] == 200
        silent.settimeout(120)  # a hang guard, not a timing: the server hangs up on its own long before
        assert silent.recv(1024) == b"", "the server closed the silent connection"
        silent.close()
    finally:
        assert server.stop() == 0
    assert not any("Traceback" in line for line in server.lines), server.lines


def test_a_client_hanging_up_mid_answer_prints_no_traceback(content):
    (content / "big.bin").write_bytes(os.urandom(8 << 20))
    server = ServeProcess(content)
    try:
        server.wait_for("built ")
        host, port = address(server)
        for _ in range(5):
            client = socket.create_connection((host, port))
            client.sendall(f"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert client.recv(16).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, not a goodbye
            client.close()
        assert get(server.url + "guide/usage.html")[0] == 200
    finally:
        assert server.stop() == 0
    assert not any("Traceback" in line or "Exception" in line for line in server.lines), "\n".join(server.lines)


class Lines:
    """A process's stderr, line by line, as it arrives."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.lines: queue.Queue[str] = queue.Queue()
        self.follower = threading.Thread(target=self._follow, daemon=True)
        self.follower.start()

    def _follow(self) -> None:
        with self.process.stderr:
            for line in self.process.stderr:
                self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"never said {text!r}; said {seen}")


@pytest.mark.parametrize("held", ["cache", "output"])
def test_a_build_waiting_for_another_says_so(content, tmp_path, held):
    out = tmp_path / "site"
    if held == "cache":
        (tmp_path / "site.cache").mkdir()
        lock_path, what = tmp_path / "site.cache" / "build.lock", f"the build cache {tmp_path / 'site.cache'}"
    else:
        lock_path, what = tmp_path, f"the output folder {out}"
    fd = os.open(lock_path, os.O_RDONLY if lock_path.is_dir() else os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as another build holds it
    try:
        build = subprocess.Popen(
            [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(out)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        )
        said = Lines(build)
        line = said.wait_for("waiting")
        assert line == f"citesearch: waiting for another build to release {what} (held by process {os.getpid()})"
        assert build.poll() is None, "it waits"
    finally:
        os.close(fd)
    assert build.wait(timeout=300) == 0
    said.follower.join(timeout=30)
    assert (out / "guide" / "usage.html").is_file()


def test_control_characters_in_names_and_page_text_are_printed_escaped(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    name = "a\x1b[2Jb.md"
    (content / name).write_text(
        "# Title\n\nSee [x](nowhere.md). A line of \x1b]0;pwned\x07escape\x9b31m words.\n", encoding="utf-8"
    )
    run = [sys.executable, "-m", "citesearch"]
    built = subprocess.run([*run, "build", str(content), "--out", str(tmp_path / "site")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert "a\\x1b[2Jb.md:3: broken link: nowhere.md does not exist (warning)" in built.stderr.splitlines()
    found = subprocess.run([*run, "search", "--site", str(tmp_path / "site"), "escape"],
                           capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stderr
    assert "\\x1b]0;pwned\\x07escape\\x9b31m" in found.stdout
    for output in (built.stderr, found.stdout):
        assert not any(char in output for char in "\x1b\x07\x9b"), repr(output)
