"""Peak memory of ``citesearch check`` against ``citesearch build`` on the same generated folder.

    python bench/check_memory.py                      # 7,424 pages in one folder
    python bench/check_memory.py --pages 3000 --checkout /work/main   # another checkout's figures too

Issue 19 found ``check`` at 1.8 GB where ``build`` peaked at 149 MB on a folder
of 7,424 small pages: check kept every rendered page in memory.  Each command
runs in a fresh process with a fresh cache (``timing.run_measured``: wall,
CPU, peak RSS).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from corpora import REPO_DIR, WORK_DIR
from generate_site import generate
from report import load_average
from timing import run_measured


def measure(checkout: Path, content: Path, scratch: Path) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(checkout / "plugin"))
    rows = {}
    for command in ("build", "check"):
        cache = scratch / f"{command}.cache"
        shutil.rmtree(cache, ignore_errors=True)
        args = [sys.executable, "-m", "citesearch", command, str(content), "--cache-dir", str(cache)]
        if command == "build":
            args += ["--out", str(scratch / "site")]
            shutil.rmtree(scratch / "site", ignore_errors=True)
        rows[command] = run_measured(args, scratch, env)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=7424)
    parser.add_argument("--checkout", type=Path, action="append", default=[],
                        help="another citesearch checkout to measure the same way (repeatable)")
    parser.add_argument("--others-only", action="store_true", help="measure only the --checkout ones")
    parser.add_argument("--work", type=Path, default=WORK_DIR)
    args = parser.parse_args(argv)
    base = args.work.resolve() / f"one-folder-{args.pages}"
    if not (base / "md" / "citesearch.yml").is_file():
        generate(base, args.pages, per_folder=args.pages + 1)
    print(f"{args.pages + 1} pages, {args.pages} in one folder; load average before {load_average()}")
    print("| checkout | command | wall s | cpu s | peak MB |")
    print("|---|---|---|---|---|")
    for checkout in [*([] if args.others_only else [REPO_DIR]), *args.checkout]:
        with tempfile.TemporaryDirectory(dir=args.work) as scratch:
            for command, sample in measure(checkout.resolve(), base / "md", Path(scratch)).items():
                print(f"| {checkout} | {command} | {sample.seconds:.1f} | {sample.cpu_seconds:.1f} | {sample.peak_rss_mb:.0f} |")
    print(f"load average after {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
