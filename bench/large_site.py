"""A generated site of many pages: citesearch's build against Pagefind on the same pages.

    python bench/large_site.py                 # 10,000 pages, 1 run
    python bench/large_site.py --pages 2000 --runs 3

The pages come from ``generate_site.py`` (once, kept under ``bench/work``).
citesearch builds the site from the Markdown (cold: no output, no cache);
Pagefind indexes the same pages already rendered to HTML by Python-Markdown,
so its figure leaves out the page rendering citesearch's includes.  Each
build runs in a fresh process: wall time, CPU time (user + system, of the
process and its workers) and peak RSS, as ``run.py`` measures them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

from corpora import WORK_DIR
from generate_site import generate
from report import load_average
from sizes import measure
from systems import citesearch_env
from timing import median_sample, run_measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--systems", default="citesearch,pagefind")
    parser.add_argument("--work", type=Path, default=WORK_DIR)
    args = parser.parse_args(argv)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]

    base = args.work.resolve() / f"generated-{args.pages}"
    if not (base / "md" / "citesearch.yml").is_file():
        print(f"generating {args.pages} pages into {base} ...", file=sys.stderr)
        generate(base, args.pages, html="pagefind" in systems)
    site = base / "citesearch-site"
    commands = {}
    if "citesearch" in systems:
        commands["citesearch"] = [sys.executable, "-m", "citesearch", "build", str(base / "md"), "--out", str(site)]
    if "pagefind" in systems:
        import peers

        commands["pagefind"] = [str(peers.ensure() / "python"), "-m", "pagefind", "--site", str(base / "html"),
                                "--root-selector", "[role=main]", "--force-language", "en", "--silent"]
    cleanups = {"citesearch": [site, base / "citesearch-site.cache", base / "md" / ".citesearch-cache"],
                "pagefind": [base / "html" / "pagefind"]}
    load_before = load_average()
    samples: dict[str, list] = {name: [] for name in commands}
    for run in range(args.runs):
        for name, command in commands.items():
            for path in cleanups[name]:
                shutil.rmtree(path, ignore_errors=True)
            samples[name].append(run_measured(command, base, citesearch_env() if name == "citesearch" else None))
            print(f"  run {run + 1}/{args.runs} {name}: {samples[name][-1].seconds:.1f}s", file=sys.stderr)
    sizes = {
        "citesearch": measure(site, ["search/**/*"]),
        "pagefind": measure(base / "html", ["pagefind/index/*", "pagefind/fragment/*", "pagefind/*.pf_meta",
                                            "pagefind/pagefind-entry.json"]),
    }
    rows = []
    print(f"{args.pages + 1} generated pages; load average before {load_before}, after {load_average()}")
    print("| system | build s | cpu s | peak MB | index files | index raw MB | index gz MB |")
    print("|---|---|---|---|---|---|---|")
    for name, got in samples.items():
        sample, size = median_sample(got), sizes[name]
        rows.append({"system": name, "seconds": sample.seconds, "cpu_seconds": sample.cpu_seconds,
                     "peak_rss_mb": sample.peak_rss_mb, "runs": len(got), "index_files": size.files,
                     "index_raw": size.raw, "index_gz": size.gzip,
                     "all_seconds": [s.seconds for s in got]})
        print(f"| {name} | {sample.seconds:.1f} | {sample.cpu_seconds:.1f} | {sample.peak_rss_mb:.0f} | "
              f"{size.files} | {size.raw / 2**20:.1f} | {size.gzip / 2**20:.1f} |")
    spread = {r["system"]: statistics.pstdev(r["all_seconds"]) for r in rows if r["runs"] > 1}
    if spread:
        print("spread (stdev s): " + ", ".join(f"{k} {v:.1f}" for k, v in spread.items()))
    (base / "results.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
