"""Resident memory of one ``citesearch build`` at each stage boundary: where a large build's peak comes from.

    python bench/generate_site.py /tmp/g10k --pages 10000 --no-html
    nice -n 10 python bench/stage_memory.py /tmp/g10k/md /tmp/g10k-site

Runs the build in this process with the stages wrapped (load, parse, link
check, the render fork, the search files, publish) and prints VmRSS and the
high-water mark VmHWM (Linux ``/proc/self/status``) as each starts and ends.
No thread is started: a sampler thread would stop the build forking its workers.
"""

from __future__ import annotations

import argparse
import functools
import resource
import sys
import time
from pathlib import Path

import citesearch
from citesearch.cache import build_cache
from citesearch.pipeline import build, write

_STARTED = time.perf_counter()


def memory() -> str:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    mb = {key: int(fields[key].split()[0]) // 1024 for key in ("VmRSS", "VmHWM")}
    return f"rss {mb['VmRSS']} MB, high-water {mb['VmHWM']} MB, {time.perf_counter() - _STARTED:.0f} s"


def reported(owner: object, name: str) -> None:
    """Wrap ``owner.name`` so that its start and end print the memory."""
    function = getattr(owner, name)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        print(f"{name} start: {memory()}", flush=True)
        result = function(*args, **kwargs)
        print(f"{name} end: {memory()}", flush=True)
        return result

    setattr(owner, name, wrapper)


def progress(every: int):
    """A build's progress callback that prints the memory every ``every`` documents of a stage (a long run's trajectory)."""

    def report(stage: str, done: int, total: int) -> None:
        if every and (done % every == 0 or done == total):
            print(f"  {stage} {done}/{total}: {memory()}", flush=True)

    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--every", type=int, default=0, help="also print the memory every N documents parsed")
    args = parser.parse_args(argv)
    for owner, name in ((build, "load_documents"), (build_cache.BuildCache, "parse"), (build, "check_links"),
                        (write.StagedSite, "fill_in_child"), (build_cache.BuildCache, "search_files"),
                        (write.StagedSite, "publish")):
        reported(owner, name)
    result = citesearch.build(args.content, args.out, progress=progress(args.every))
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"done, {result.documents} documents: {memory()}; largest child process {children} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
