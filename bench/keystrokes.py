"""Warm keystroke → results, in headless Chromium, for built citesearch sites.

``python bench/keystrokes.py SITE [SITE ...] [--corpus fastapi-en]``

For each timing query of the corpus (bench/queries.py) the query is typed
once key by key (so every file it needs is loaded: warm), cleared, then typed
again; for each key of the second pass from the second character on, the time
from the key's ``keydown`` to the moment the widget has rendered the answer
for the text as typed (``data-citesearch-query`` equals it; it is set after
the list is in the DOM) is one sample.  A keystroke whose answer is overtaken
by the next key never finishes: keys are pressed only once the previous one
was answered.  Prints p50 / p90 / max per site; no number is asserted
anywhere.  Run it under ``nice`` on a loaded machine and say so: the load
average is printed.  ``--runs N`` measures each site N times, the sites in
turn (so a change of load hits all of them), and prints each run and the
median of the runs' p50s; compare versions in one command.
``--profile OUT.json`` also records Chromium CPU profiles (CDP ``Profiler``,
100 µs sampling) of the measured second passes and prints where their time
went (inclusive ms per widget function, garbage collector, whole profile);
OUT.json keeps the totals.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from queries import TIMING_QUERIES  # noqa: E402
from server import SiteServer  # noqa: E402

# {answered: a promise of the ms from the next keydown to the answer for
# `expected`} (wrapped: Playwright would wait for a bare promise).
WATCH = """expected => ({ answered: new Promise(resolve => {
  const box = document.querySelector('[data-citesearch]');
  let t0 = null;
  const down = () => { t0 = performance.now(); };
  box.querySelector('input').addEventListener('keydown', down, { capture: true, once: true });
  const done = () => {
    if (box.dataset.citesearchQuery !== expected || t0 === null) return false;
    observer.disconnect();
    resolve(performance.now() - t0);
    return true;
  };
  const observer = new MutationObserver(done);
  observer.observe(box, { attributes: true, attributeFilter: ['data-citesearch-query'] });
  // An answer that never renders (a failed search) is reported, not waited for.
  setTimeout(() => { observer.disconnect(); resolve(null); }, 10000);
}) })"""


def type_and_time(page, query: str) -> list[float]:
    box = page.locator("[data-citesearch] input")
    times = []
    for i, char in enumerate(query):
        typed = query[: i + 1]
        if not typed.strip():
            page.keyboard.type(char)
            continue
        watch = page.evaluate_handle(WATCH, typed)
        page.keyboard.type(char)
        ms = page.evaluate("watch => watch.answered", watch)
        if ms is None:
            print(f"  no answer for {typed!r} within 10 s", file=sys.stderr)
        elif i >= 1:
            times.append(ms)
    assert box.input_value() == query
    return times


def clear(page) -> None:
    page.locator("[data-citesearch] input").fill("")
    page.wait_for_function("!document.querySelector('[data-citesearch]').dataset.citesearchQuery")


# Functions whose inclusive time the profile summary reports (rank.js,
# shards.js, query.js, quote.js, widget-*.js), and lunr's query.
PROFILED = ["search", "rankPages", "firstScreen", "rank", "pageOrder", "listed", "collect", "only", "assemble",
            "runOn", "refine", "renderResults", "passageResult", "quote", "(garbage collector)"]


def inclusive_ms(profile: dict) -> dict[str, float]:
    """Per PROFILED function name, the ms of samples with it on the stack
    (each sample counted once per name however deep the recursion)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    names_of: dict[int, frozenset] = {}

    def names(node_id: int) -> frozenset:
        if node_id not in names_of:
            name = nodes[node_id]["callFrame"]["functionName"]
            up = names(parent[node_id]) if node_id in parent else frozenset()
            names_of[node_id] = up | {name} if name in PROFILED else up
        return names_of[node_id]

    totals = dict.fromkeys(PROFILED + ["(whole profile)", "(idle)"], 0.0)
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"]):
        ms = delta / 1000
        totals["(whole profile)"] += ms
        frame = nodes[node_id]["callFrame"]
        if frame["functionName"] == "(idle)":
            totals["(idle)"] += ms
        for name in names(node_id):
            totals[name] += ms
        # Self time, per function and place: "self name file:line".
        where = f"self {frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1].split('?')[0]}:{frame['lineNumber']}"
        totals[where] = totals.get(where, 0.0) + ms
    return totals


def measure(site: Path, queries: list[str], profile: dict | None = None) -> list[float]:
    with SiteServer(site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        cdp = None
        if profile is not None:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        page.goto(server.url + "index.html")
        page.locator("[data-citesearch] input").click()
        samples = []
        for query in queries:
            type_and_time(page, query)  # loads what the query needs
            clear(page)
            if cdp:
                cdp.send("Profiler.start")
            samples += type_and_time(page, query)
            if cdp:
                for name, ms in inclusive_ms(cdp.send("Profiler.stop")["profile"]).items():
                    profile[name] = profile.get(name, 0.0) + ms
            clear(page)
        browser.close()
    return samples


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--corpus", default="fastapi-en", choices=sorted(TIMING_QUERIES))
    parser.add_argument("--runs", type=int, default=1, help="measurements of each site, the sites in turn")
    parser.add_argument("--profile", type=Path, help="CPU profiles of the second passes: totals to this JSON file")
    args = parser.parse_args(argv)
    profiles: dict[str, dict] = {}
    medians: dict[Path, list[float]] = {site: [] for site in args.sites}
    for run in range(args.runs):
        for site in args.sites:
            profile = profiles.setdefault(f"{site} run {run + 1}", {}) if args.profile else None
            samples = measure(site, TIMING_QUERIES[args.corpus], profile)
            q = statistics.quantiles(samples, n=10)
            medians[site].append(statistics.median(samples))
            load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"{site}: {len(samples)} keystrokes, p50 {statistics.median(samples):.1f} ms, "
                  f"p90 {q[8]:.1f} ms, max {max(samples):.1f} ms (run {run + 1}, load {load})", flush=True)
            if profile is not None:
                named = {name: ms for name, ms in profile.items() if not name.startswith("self ")}
                selfs = sorted(((ms, name[5:]) for name, ms in profile.items() if name.startswith("self ")), reverse=True)
                print("  profile, ms over the keystrokes: " + ", ".join(f"{name} {ms:.0f}" for name, ms in named.items()))
                print("  most self time: " + ", ".join(f"{name} {ms:.0f}" for ms, name in selfs[:15]))
    if args.runs > 1:
        for site, values in medians.items():
            print(f"{site}: median p50 of {args.runs} runs {statistics.median(values):.1f} ms "
                  f"({', '.join(f'{v:.1f}' for v in values)})")
    if args.profile:
        args.profile.write_text(json.dumps(profiles, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
