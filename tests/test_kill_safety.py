"""A build killed at any moment leaves the previous site exactly as it was."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

LOREM = (
    "Static sites answer readers with the sentence that matches. Every passage keeps its anchor. "
    "Builds are atomic, deterministic and safe to interrupt. "
)


def write_content(folder: Path, version: str, documents: int = 240) -> None:  # enough to parse on several cores
    for i in range(documents):
        path = folder / f"part{i // 50}" / f"doc{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        sections = "".join(f"\n## Section {s}\n\n{LOREM * 6} Version {version}.\n" for s in range(8))
        path.write_text(f"# Document {i}\n\n{LOREM}\n{sections}", encoding="utf-8")


def digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def survivors(content: Path) -> list[int]:
    """Processes still running a build of ``content`` (forked parse workers share its command line)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(content).encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found


def start_build(content: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        # --no-cache: every build does the full work, so the kills land at every stage.
        [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(out), "--no-cache"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def test_sigkill_at_any_moment_leaves_the_previous_site_byte_identical(tmp_path: Path):
    content, out = tmp_path / "content", tmp_path / "site"
    write_content(content, "one")
    started = time.monotonic()
    assert start_build(content, out).wait() == 0
    duration = time.monotonic() - started
    before = digest(out)

    write_content(content, "two")  # a finished build would now change every page
    reference = tmp_path / "reference"
    assert start_build(content, reference).wait() == 0
    complete = digest(reference)  # builds are deterministic: the only other acceptable state
    assert complete["part0/doc0.html"] != before["part0/doc0.html"]

    killed = 0
    # Kill at 10%, 20%, ... of a build's duration until one finishes on its own.
    for step in range(1, 30):
        process = start_build(content, out)
        time.sleep(duration * step / 10)
        if process.poll() is not None:
            break
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 10
        while survivors(content) and time.monotonic() < deadline:
            time.sleep(0.05)
        # An orphaned worker would hold the build cache's lock and hang every later build.
        assert not survivors(content), "worker processes outlived the killed build"
        state = digest(out)
        # The swap may complete between poll() and kill(): then the site is the new one, whole.
        assert state in (before, complete), f"half-written site after SIGKILL at {step * 10}% of a build"
        if state == complete:
            break
        killed += 1
    assert killed >= 3

    assert start_build(content, out).wait(timeout=300) == 0
    assert digest(out) == complete
    assert not list(tmp_path.glob(".site.tmp-*")), "leftovers of killed builds are cleaned up"
