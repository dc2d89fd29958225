"""A generated site of many pages: citesearch's build against Pagefind on the same pages.

    python bench/large_site.py                 # 10,000 pages, 1 run
    python bench/large_site.py --pages 2000 --runs 3

The pages come from ``generate_site.py`` (once, kept under ``bench/work``).
citesearch builds the site from the Markdown (cold: no output, no cache);
Pagefind indexes the same pages rendered to HTML by Python-Markdown.  Two
Pagefind rows: ``pagefind`` is the indexing alone (it leaves out the page
rendering citesearch's figure includes); ``render + pagefind`` adds the
Python-Markdown rendering of every page (``generate_site.py --html-only``),
the least a site generator does before Pagefind runs, so it compares a
whole pipeline with citesearch's (times add, peak is the larger).  Each
step runs in a fresh process: wall time, CPU time (user + system, of the
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
from generate_site import generate, render_html
from report import load_average
from sizes import measure
from systems import citesearch_env
from timing import median_sample, run_steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--systems", default="citesearch,pagefind,render+pagefind")
    parser.add_argument("--work", type=Path, default=WORK_DIR)
    args = parser.parse_args(argv)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]

    base = args.work.resolve() / f"generated-{args.pages}"
    if not (base / "md" / "citesearch.yml").is_file():
        print(f"generating {args.pages} pages into {base} ...", file=sys.stderr)
        generate(base, args.pages)
    if any("pagefind" in name for name in systems) and not (base / "html" / "index.html").is_file():
        render_html(base)
    site = base / "citesearch-site"
    steps: dict[str, list[list[str]]] = {}
    if "citesearch" in systems:
        steps["citesearch"] = [[sys.executable, "-m", "citesearch", "build", str(base / "md"), "--out", str(site)]]
    if any("pagefind" in name for name in systems):
        import peers

        pagefind = [str(peers.ensure() / "python"), "-m", "pagefind", "--site", str(base / "html"),
                    "--root-selector", "[role=main]", "--force-language", "en", "--silent"]
        render = [sys.executable, str(Path(__file__).with_name("generate_site.py")), str(base), "--html-only"]
        if "pagefind" in systems:
            steps["pagefind"] = [pagefind]
        if "render+pagefind" in systems:
            steps["render + pagefind"] = [render, pagefind]
    cleanups = {"citesearch": [site, base / "citesearch-site.cache"],
                "pagefind": [base / "html" / "pagefind"], "render + pagefind": [base / "html"]}
    load_before = load_average()
    samples: dict[str, list] = {name: [] for name in steps}
    for run in range(args.runs):
        for name, commands in steps.items():
            for path in cleanups[name]:
                shutil.rmtree(path, ignore_errors=True)
            samples[name].append(run_steps(commands, base, citesearch_env() if name == "citesearch" else None))
            print(f"  run {run + 1}/{args.runs} {name}: {samples[name][-1].seconds:.1f}s", file=sys.stderr)
    sizes = {
        "citesearch": measure(site, ["search/**/*"]),
        "pagefind": measure(base / "html", ["pagefind/index/*", "pagefind/fragment/*", "pagefind/*.pf_meta",
                                            "pagefind/pagefind-entry.json"]),
    }
    sizes["render + pagefind"] = sizes["pagefind"]
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
