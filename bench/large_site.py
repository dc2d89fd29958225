"""A generated site of many pages: citesearch's build against Pagefind on the same pages.

    python bench/large_site.py                 # 10,000 pages, 1 run
    python bench/large_site.py --pages 2000 --runs 3
    python bench/large_site.py --pages 100000 --cold   # also the bytes a cold search fetches, in Chromium

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

Sizes: the Markdown's bytes, each whole site's bytes (citesearch: pages,
search files, assets; Pagefind: the rendered pages and its bundle), and the
site without its fixed assets against the Markdown (issue 19's target: at most
6 times).  ``--cold`` opens the generated front page in a fresh Chromium,
types a query and counts the bytes the server sent for search before the first
result showed, gzip-equivalent (``browser.cold_load``; targets: 100 KB at
10,000 pages, 150 KB at 100,000).  A step that fails (Pagefind out of memory)
is reported as failed, not left out.
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
from systems import CITESEARCH_BROWSER, System, citesearch_env
from timing import BuildFailed, median_sample, run_steps

COLD_QUERY = "request server"  # frequent words of the generated English vocabulary


def folder_bytes(root: Path, skip: str | None = None) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not (skip and skip in p.parts))


def cold_search_bytes(site: Path) -> tuple[int, float] | str:
    """Gzip-equivalent bytes of search requests before the first result of COLD_QUERY, and the time to it."""
    from playwright.sync_api import sync_playwright

    from browser import cold_load, gzip_bytes, launch
    from server import SiteServer

    system = System("citesearch", site=site, cwd=site.parent, steps=[], browser=CITESEARCH_BROWSER,
                    search_paths=r"^/(search/|assets/.*\.js$|assets/search\.css$)")
    with sync_playwright() as playwright, SiteServer(site) as server:
        chromium = launch(playwright)
        try:
            cold, page = cold_load(chromium, server, system, COLD_QUERY)
            if page is None:
                return str(cold)
            page.context.close()
            return gzip_bytes(system, cold.search), cold.ms
        finally:
            chromium.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--base", type=Path, help="an already generated folder (with md/) to use instead")
    parser.add_argument("--systems", default="citesearch,pagefind,render+pagefind")
    parser.add_argument("--work", type=Path, default=WORK_DIR)
    parser.add_argument("--cold", action="store_true", help="also measure a cold search in Chromium")
    args = parser.parse_args(argv)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]

    base = args.base.resolve() if args.base else args.work.resolve() / f"generated-{args.pages}"
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
    failed: dict[str, str] = {}
    for run in range(args.runs):
        for name, commands in steps.items():
            for path in cleanups[name]:
                shutil.rmtree(path, ignore_errors=True)
            try:
                samples[name].append(run_steps(commands, base, citesearch_env() if name == "citesearch" else None))
            except BuildFailed as exc:
                failed[name] = str(exc).splitlines()[-1][:200]
                print(f"  run {run + 1}/{args.runs} {name}: FAILED {failed[name]}", file=sys.stderr)
                continue
            print(f"  run {run + 1}/{args.runs} {name}: {samples[name][-1].seconds:.1f}s", file=sys.stderr)
    sizes = {
        "citesearch": measure(site, ["search/**/*"]),
        "pagefind": measure(base / "html", ["pagefind/index/*", "pagefind/fragment/*", "pagefind/*.pf_meta",
                                            "pagefind/pagefind-entry.json"]),
    }
    sizes["render + pagefind"] = sizes["pagefind"]
    markdown_bytes = folder_bytes(base / "md")
    site_bytes = {"citesearch": folder_bytes(site) if site.is_dir() else 0,
                  "pagefind": folder_bytes(base / "html") if (base / "html").is_dir() else 0}
    site_bytes["render + pagefind"] = site_bytes["pagefind"]
    assets = folder_bytes(site / "assets") if site.is_dir() else 0
    cold = cold_search_bytes(site) if args.cold and "citesearch" in samples and samples["citesearch"] else None
    rows = []
    print(f"{args.pages + 1} generated pages, {markdown_bytes / 2**20:.1f} MB of Markdown; "
          f"load average before {load_before}, after {load_average()}")
    print("| system | build s | cpu s | peak MB | index files | index raw MB | index gz MB | site MB | (site - assets) / md |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, got in samples.items():
        if not got:
            print(f"| {name} | failed: {failed.get(name, '?')} | | | | | | | |")
            rows.append({"system": name, "failed": failed.get(name)})
            continue
        sample, size = median_sample(got), sizes[name]
        fixed = assets if name == "citesearch" else 0
        ratio = (site_bytes[name] - fixed) / markdown_bytes
        rows.append({"system": name, "seconds": sample.seconds, "cpu_seconds": sample.cpu_seconds,
                     "peak_rss_mb": sample.peak_rss_mb, "runs": len(got), "index_files": size.files,
                     "index_raw": size.raw, "index_gz": size.gzip, "site_bytes": site_bytes[name],
                     "markdown_bytes": markdown_bytes, "assets_bytes": fixed,
                     "all_seconds": [s.seconds for s in got]})
        print(f"| {name} | {sample.seconds:.1f} | {sample.cpu_seconds:.1f} | {sample.peak_rss_mb:.0f} | "
              f"{size.files} | {size.raw / 2**20:.1f} | {size.gzip / 2**20:.1f} | {site_bytes[name] / 2**20:.1f} | "
              f"{ratio:.2f} |")
    if cold is not None:
        if isinstance(cold, str):
            print(f"cold search ({COLD_QUERY!r}): failed: {cold}")
        else:
            print(f"cold search ({COLD_QUERY!r}): {cold[0] / 1024:.1f} KB gz of search files before the first result "
                  f"({cold[1]:.0f} ms, unthrottled, loaded machine)")
            rows.append({"system": "citesearch cold search", "query": COLD_QUERY, "search_bytes_gz": cold[0],
                         "ms": cold[1]})
    spread = {r["system"]: statistics.pstdev(r["all_seconds"]) for r in rows if r.get("runs", 0) > 1}
    if spread:
        print("spread (stdev s): " + ", ".join(f"{k} {v:.1f}" for k, v in spread.items()))
    (base / "results.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
