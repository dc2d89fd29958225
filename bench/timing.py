"""Wall time and peak memory of one build, each command in a fresh process.

Peak memory is ``ru_maxrss`` from ``wait4``: the largest resident set of the
command or any of its waited-for descendants (Linux reports the max over the
tree, not the sum; all builds measured here are a single process at a time).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Sample:
    seconds: float
    peak_rss_mb: float
    cpu_seconds: float  # user + system: far less disturbed by other load than wall time


class BuildFailed(RuntimeError):
    pass


def run_measured(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Sample:
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    # Read stderr before wait4 so a chatty build cannot block on a full pipe.
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        tail = err.decode("utf-8", "replace")[-2000:]
        raise BuildFailed(f"{' '.join(cmd)} exited {proc.returncode}:\n{tail}")
    return Sample(elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def run_steps(steps: list[list[str]], cwd: Path, env=None) -> Sample:
    """Several commands one after the other count as one build: times add, peaks max."""
    samples = [run_measured(cmd, cwd, env) for cmd in steps]
    return Sample(
        sum(s.seconds for s in samples),
        max(s.peak_rss_mb for s in samples),
        sum(s.cpu_seconds for s in samples),
    )


def median_sample(samples: list[Sample]) -> Sample:
    return Sample(
        statistics.median(s.seconds for s in samples),
        statistics.median(s.peak_rss_mb for s in samples),
        statistics.median(s.cpu_seconds for s in samples),
    )
