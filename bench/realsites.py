"""Build-time cost of the MkDocs plugin on the real projects in ../shared/realsites.

    nice -n 10 python bench/realsites.py                 # httpx, mkdocs, typer; 1 run each
    python bench/realsites.py --sites mkdocs --runs 3

Each site is copied (tests/realsite_support.py) and built twice with the real
``mkdocs build``: with its own mkdocs.yml (its own search: MkDocs' ``search``
plugin, or none where it lists plugins without it, as typer) and with
``citesearch`` in place of ``search``. Wall time and peak resident memory of
the build process come from GNU time (``/usr/bin/time -f "%e %U %S %M"``), with its CPU time; the
search folder's size is the index each ships. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import realsite_support as realsites  # noqa: E402  (the tests' copy-and-rewrite helper, one implementation)

TIME = "/usr/bin/time"


def timed_build(project: Path, site: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MB) of one ``mkdocs build`` of ``project`` into ``site``.

    CPU time (user + system) is the steadier figure on a shared machine.
    """
    command = [TIME, "-f", "TIME %e %U %S %M", sys.executable, "-P", "-m", "mkdocs", "build", "-q",
               "-f", str(project / "mkdocs.yml"), "-d", str(site)]
    done = subprocess.run(command, capture_output=True, text=True, env=realsites.ENV, cwd=project)
    if done.returncode != 0:
        raise SystemExit(f"build of {project} failed:\n{done.stderr[-3000:]}")
    wall, user, system, kb = re.findall(r"^TIME ([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9]+)$", done.stderr, re.MULTILINE)[-1]
    return float(wall), float(user) + float(system), int(kb) / 1024


def folder_kb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1024 if folder.is_dir() else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", nargs="+", default=list(realsites.NAMES))
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    rows = ["| site | search | wall s | CPU s | peak MB | search/ KB |", "|---|---|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="realsites-bench-") as work:
        for name in args.sites:
            for variant in ("own", "citesearch"):
                folder = Path(work) / f"{name}-{variant}"
                project = realsites.copy_realsite(name, folder)
                if variant == "citesearch":
                    realsites.use_citesearch(project)
                for run in range(args.runs):
                    wall, cpu, peak = timed_build(project, folder / "site")
                    label = "own mkdocs.yml" if variant == "own" else "citesearch"
                    rows.append(f"| {name} | {label} | {wall:.2f} | {cpu:.2f} | {peak:.1f} | {folder_kb(folder / 'site' / 'search'):.0f} |")
                    print(rows[-1], flush=True)
    print("\n".join(rows))
    print(f"\n(1 CPU-shared run each; loadavg {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
