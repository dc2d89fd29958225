"""citesearch vs MkDocs search vs Pagefind, side by side on the shared corpora.

    python bench/run.py                      # full run, writes bench/RESULTS.md
    python bench/run.py --smoke              # tiny corpora slices, one run
    python bench/run.py --systems citesearch --no-browser

See bench/README.md for what each column means and how it is measured.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from corpora import BENCH_DIR, CORPORA, REPO_DIR, WORK_DIR, available, markdown_files
from queries import TIMING_QUERIES, relevance_queries
from report import LEGEND, Row, header, load_average, table
from sizes import measure
from systems import System, finish_site, prepare
from timing import BuildFailed, median_sample, run_steps

SYSTEMS = ("citesearch", "mkdocs", "mkdocs prebuilt", "pagefind")
SMOKE_FILES = 6  # documents per corpus in --smoke


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny slices of each corpus, one run")
    p.add_argument("--systems", default=",".join(SYSTEMS),
                   help=f"comma-separated, from: {', '.join(SYSTEMS)}")
    p.add_argument("--corpora", default=",".join(c.name for c in CORPORA))
    p.add_argument("--runs", type=int, help="build runs per system (default 3, smoke 1)")
    p.add_argument("--cold-loads", type=int, help="cold browser loads per site (default 3, smoke 1)")
    p.add_argument("--queries", type=int, help="relevance queries per kind (default 20, smoke 2)")
    p.add_argument("--no-browser", action="store_true", help="skip the Chromium measurements")
    p.add_argument("--work", type=Path, help="working folder (default bench/work, smoke bench/work/smoke)")
    p.add_argument("--out", type=Path, help="markdown file for the table "
                   "(default bench/RESULTS.md, smoke bench/work/RESULTS.smoke.md)")
    args = p.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = set(args.systems) - set(SYSTEMS)
    if unknown:
        p.error(f"unknown systems: {', '.join(sorted(unknown))}")
    args.corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    args.runs = args.runs or (1 if args.smoke else 3)
    args.cold_loads = args.cold_loads or (1 if args.smoke else 3)
    args.queries = args.queries or (2 if args.smoke else 20)
    # The smoke run must never overwrite the sites of a full run going on beside it.
    args.work = (args.work or (WORK_DIR / "smoke" if args.smoke else WORK_DIR)).resolve()
    args.out = args.out or (args.work / "RESULTS.smoke.md" if args.smoke else BENCH_DIR / "RESULTS.md")
    return args


def selected(systems: list[System], names: list[str]) -> list[System]:
    # "citesearch" brings its no-change rebuild along, "pagefind" its bare page.
    companions = {"citesearch rebuild": "citesearch", "pagefind bare page": "pagefind"}
    return [s for s in systems if s.name in names or companions.get(s.name) in names]


def time_builds(systems: list[System], runs: int, rows: dict[str, Row]) -> None:
    """Interleaved: run 1 of every system, then run 2 of every system, ..."""
    samples: dict[str, list] = {s.name: [] for s in systems}
    for run in range(runs):
        for system in systems:
            row = rows[system.name]
            if row.error or not system.steps:  # a page of a site built by another system
                continue
            if system.cold:
                system.clean()
            try:
                samples[system.name].append(run_steps(system.steps, system.cwd, system.env))
            except BuildFailed as exc:
                row.error = first_line_of_failure(str(exc))
                row.notes.append(str(exc))
            outcome = f"FAILED {row.error}" if row.error else f"{samples[system.name][-1].seconds:.2f}s"
            print(f"  run {run + 1}/{runs} {system.name}: {outcome}", file=sys.stderr)
    for name, got in samples.items():
        if got and not rows[name].error:
            rows[name].build = median_sample(got)
            rows[name].runs = len(got)


def first_line_of_failure(message: str) -> str:
    """The most telling line of a failed build's stderr, short enough for a table cell."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if "Error" in line or "error" in line:
            if line.endswith(":"):  # e.g. NLTK's "LookupError:", reason on a later line
                line += " " + next((n.strip("* ") for n in lines[i + 1:] if n.strip("* ")), "")
            return line[:160].replace("|", "/")
    return (lines[-1] if lines else "failed")[:160].replace("|", "/")


def measure_browser(systems, corpus, rows, queries, cold_loads, smoke) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    from browser import launch, median

    # A slice of a corpus may not answer the fixed list: use its own headings.
    timing = [q.text for q in queries[:3]] if smoke else TIMING_QUERIES[corpus.name]
    tops = {}
    with sync_playwright() as pw:
        chromium = launch(pw)
        for system in systems:
            if not system.cold or rows[system.name].error:
                continue
            print(f"  browser: {system.name}", file=sys.stderr)
            got = measure_site(chromium, system, timing, queries, cold_loads, corpus.lang)
            row = rows[system.name]
            if got.error:
                row.browser_note = f"no results ({got.error})".replace("|", "/")
            row.cold_ms = median(got.cold_ms)
            row.cold_typed_ms = median(got.cold_typed_ms)
            row.cold_bytes = median(got.cold_bytes)
            row.cold_bytes_gz = median(got.cold_bytes_gz)
            row.cold_search_bytes = median(got.cold_search_bytes)
            row.cold_search_bytes_gz = median(got.cold_search_bytes_gz)
            row.throttled_ms, row.throttled_bytes = got.throttled_ms, got.throttled_bytes
            row.common_ms, row.common_search_bytes_gz = got.common_ms, got.common_search_bytes_gz
            row.warm_ms = median(got.warm_ms)
            if got.unanswered:
                row.notes.append(f"timing queries without results: {got.unanswered}")
            tops[system.name] = got.top_docs
        chromium.close()
    return tops


def measure_site(*args):
    from browser import measure_site as measure

    return measure(*args)


def score(rows, systems, queries, tops, browser_ran: bool) -> None:
    from relevance import citesearch_passages, score_docs

    for system in systems:
        row = rows[system.name]
        if not system.cold or row.error or system.timing_only:
            continue
        if system.name.startswith("citesearch"):
            passage, py_docs = citesearch_passages(system.site, queries)
            row.passage = str(passage)
            if browser_ran:  # the widget shows fewer results than the CLI may rank
                row.notes.append(
                    "doc@5 from `citesearch search` instead of the widget: "
                    f"headings {score_docs(queries, py_docs, 'heading')}, "
                    f"words {score_docs(queries, py_docs, 'words')}")
            else:  # no widget figures: score the Python search instead
                tops[system.name] = py_docs
                row.notes.append("doc@5 from `citesearch search` (no browser run)")
        if system.name in tops:
            row.doc_heading = str(score_docs(queries, tops[system.name], "heading"))
            row.doc_words = str(score_docs(queries, tops[system.name], "words"))


def measure_sizes(systems: list[System], corpus, rows: dict[str, Row]) -> None:
    """Index and search-code bytes of every site that built."""
    for system in systems:
        row = rows[system.name]
        if row.error:
            continue
        finish_site(system, corpus)
        index = measure(system.site, system.index_globs)
        row.index_raw, row.index_gz = index.raw, index.gzip
        row.code_gz = measure(system.site, system.runtime_globs).gzip


def run_corpus(corpus, args, venv_bin) -> list[Row]:
    files = markdown_files(corpus.source, SMOKE_FILES if args.smoke else None)
    print(f"{corpus.name}: {len(files)} documents", file=sys.stderr)
    systems = selected(prepare(corpus, files, args.work, venv_bin), args.systems)
    rows = {s.name: Row(corpus.name, s.name) for s in systems}
    time_builds(systems, args.runs, rows)
    measure_sizes(systems, corpus, rows)

    queries = relevance_queries(corpus, files, args.queries)
    browser_ran = not args.no_browser and Path("/usr/bin/chromium").exists()
    tops = measure_browser(systems, corpus, rows, queries, args.cold_loads, args.smoke) if browser_ran else {}
    score(rows, systems, queries, tops, browser_ran)
    dump = args.work / corpus.name / "queries.json"
    dump.write_text(json.dumps({"queries": [asdict(q) for q in queries], "top_docs": tops},
                               ensure_ascii=False, indent=1), encoding="utf-8")
    return list(rows.values())


def tool_versions(with_peers: bool) -> dict[str, str]:
    found = {"lunr.py": importlib.metadata.version("lunr"),
             "playwright": importlib.metadata.version("playwright")}
    if with_peers:
        import peers

        found.update(peers.versions())
    return found


def report(rows: list[Row], command: str, with_peers: bool, args, load_before, started: float,
           methods: str = "Methods, the exact peer setup and known failures: bench/README.md.") -> str:
    """The markdown document: header, table, legend, notes."""
    notes = [f"- {r.corpus} / {r.system}: {n.splitlines()[0][:300]}" for r in rows for n in r.notes]
    return (f"{header(command.strip(), tool_versions(with_peers), args.runs, args.queries, REPO_DIR, load_before)}\n"
            f"{table(rows)}\n\n{LEGEND}\n{methods}\n\n" + ("Notes:\n" + "\n".join(notes) + "\n" if notes else "")
            + f"\n(bench wall time {time.perf_counter() - started:.0f}s)\n")


@dataclass
class Run:
    rows: list[Row]
    venv_bin: Path | None  # the peers' venv, when any peer ran
    load_before: tuple
    started: float


def measure_corpora(args, run_corpus, want_peers: bool) -> Run | None:
    """Every corpus asked for through ``run_corpus``; None when no corpus is found."""
    sys.path.insert(0, str(REPO_DIR / "plugin"))  # measure the working tree's citesearch
    venv_bin = None
    if want_peers:
        import peers

        venv_bin = peers.ensure()
    corpora = [c for c in available() if c.name in args.corpora]
    if not corpora:
        print("bench: no corpus found under ../shared/corpora", file=sys.stderr)
        return None
    args.work.mkdir(parents=True, exist_ok=True)
    started, load_before = time.perf_counter(), load_average()
    rows: list[Row] = []
    for corpus in corpora:
        rows += run_corpus(corpus, args, venv_bin)
    return Run(rows, venv_bin, load_before, started)


def main(argv=None) -> int:
    args = parse_args(argv)
    peers_wanted = any(s != "citesearch" for s in args.systems)
    done = measure_corpora(args, run_corpus, peers_wanted)
    if done is None:
        return 2
    rows, load_before, started = done.rows, done.load_before, done.started

    command = "python bench/run.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    doc = report(rows, command, peers_wanted, args, load_before, started)
    print(doc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(doc, encoding="utf-8")
    # The same rows for programs (the smoke test reads them).
    (args.work / "results.json").write_text(
        json.dumps([asdict(r) for r in rows], ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
