"""Search as a reader does, in headless Chromium, against each site.

For every system the harness opens its search page, puts the query into the
system's own search box and fires the events its UI listens to, then watches
the DOM: a query is answered when a result link is on the page, and done
when the page has been quiet for ``QUIET_MS`` (so results that arrive in
pieces, as Pagefind's do, are complete).  Latency is the time from firing
the events to the first result link; debounce in a UI is part of it.

Cold: a fresh browser context (empty cache), from navigation start until the
first result link of the first query; the events are fired again every
200 ms until then, like a reader who keeps typing while the search loads
(MkDocs ignores keystrokes until its worker has built the index).  The same
load is also timed from the first keystroke: the systems open different pages
(citesearch and MkDocs a page of the corpus with its nav, Pagefind a bare
search page), and that time leaves out how long each page takes to parse.

Two more cold loads: one under Chromium's network throttling (``THROTTLE``,
from a server that gzips text files, as a real one does), and one whose query
is made of very common words (``COMMON_QUERIES``), the worst case of a lazily
loaded index.
"""

from __future__ import annotations

import gzip
import re
import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from queries import Query, doc_key
from server import SiteServer
from systems import System

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # Themes and corpus pages link CDNs and remote images: nothing leaves this machine.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
# A slow mobile link: 1.6 Mbps down, 750 kbps up, 150 ms round trip.
THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
            "uploadThroughput": 750_000 / 8}
# Very common words of each language; the last one is also a prefix as typed.
COMMON_QUERIES = {"en": "the and of to", "ru": "и в на не", "zh": "的 是 在 可以"}
QUIET_MS = 300
NO_RESULT_MS = 2500  # a query with no result link is given up after this
COLD_TIMEOUT_MS = 60_000

HARNESS = """
window.__benchSearch = (q, sel, quietMs, giveUpMs, retypeMs) => new Promise(resolve => {
  const input = document.querySelector(sel.input);
  if (!input) { resolve({error: 'no search input ' + sel.input}); return; }
  const hasLinks = () => document.querySelectorAll(sel.links).length > 0;
  const t0 = performance.now();
  let first = null, last = null;
  const obs = new MutationObserver(() => {
    last = performance.now();
    if (first === null && hasLinks()) first = last;
  });
  obs.observe(document.documentElement, {subtree: true, childList: true, characterData: true, attributes: true});
  const fire = () => {
    input.focus();
    input.value = q;
    for (const e of sel.events) {
      input.dispatchEvent(e === 'keyup'
        ? new KeyboardEvent('keyup', {bubbles: true, key: 'Unidentified'})
        : new Event(e, {bubbles: true}));
    }
  };
  fire();
  let lastFire = t0;
  const tick = () => {
    const now = performance.now();
    if (first === null && retypeMs && now - lastFire >= retypeMs) { fire(); lastFire = now; }
    const quiet = last !== null && now - last >= quietMs;
    if ((first !== null && quiet) || (first === null && now - t0 > giveUpMs)) {
      obs.disconnect();
      const links = [...document.querySelectorAll(sel.links)].map(a => a.href);
      resolve({t0, first, last, links: first === null ? [] : links,
               timeOrigin: performance.timeOrigin});
    } else {
      setTimeout(tick, 10);
    }
  };
  setTimeout(tick, 10);
});
window.__benchClear = (sel, quietMs, giveUpMs) => new Promise(resolve => {
  const input = document.querySelector(sel.input);
  const t0 = performance.now();
  let last = t0;
  const obs = new MutationObserver(() => { last = performance.now(); });
  obs.observe(document.documentElement, {subtree: true, childList: true, characterData: true, attributes: true});
  input.value = '';
  for (const e of sel.events) {
    input.dispatchEvent(e === 'keyup'
      ? new KeyboardEvent('keyup', {bubbles: true, key: 'Unidentified'})
      : new Event(e, {bubbles: true}));
  }
  const tick = () => {
    const now = performance.now();
    const empty = document.querySelectorAll(sel.links).length === 0;
    if ((empty && now - last >= quietMs) || now - t0 > giveUpMs) { obs.disconnect(); resolve(empty); }
    else setTimeout(tick, 10);
  };
  setTimeout(tick, 10);
});
"""


@dataclass
class BrowserResult:
    cold_ms: list[float] = field(default_factory=list)  # per cold load
    cold_typed_ms: list[float] = field(default_factory=list)  # the same loads, from the first keystroke
    cold_bytes: list[int] = field(default_factory=list)
    cold_bytes_gz: list[int] = field(default_factory=list)
    cold_search_bytes: list[int] = field(default_factory=list)
    cold_search_bytes_gz: list[int] = field(default_factory=list)
    throttled_ms: float | None = None  # cold, THROTTLE, gzipping server
    throttled_bytes: int | None = None  # what that server sent until the first result
    common_search_bytes_gz: int | None = None  # cold, COMMON_QUERIES, search requests only
    common_ms: float | None = None
    warm_ms: list[float] = field(default_factory=list)  # per answered timing query
    unanswered: list[str] = field(default_factory=list)
    top_docs: dict[str, list[str]] = field(default_factory=dict)  # relevance query -> docs
    error: str = ""


@lru_cache(maxsize=None)
def _gzip_len(path: Path, mtime: float) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))


def gzip_equivalent(root: Path, url_path: str, raw: int) -> int:
    """What the response would weigh from a server that gzips (files only)."""
    rel = url_path.lstrip("/") or "index.html"
    path = root / rel
    if path.is_dir():
        path = path / "index.html"
    if not path.is_file() or raw < path.stat().st_size:
        return raw
    return min(raw, _gzip_len(path, path.stat().st_mtime) + (raw - path.stat().st_size))


def top_docs(links: list[str], n: int = 5) -> list[str]:
    """The first ``n`` distinct documents, in the order the UI shows them."""
    docs: list[str] = []
    for href in links:
        key = doc_key(urlsplit(href).path)
        if key not in docs:
            docs.append(key)
        if len(docs) == n:
            break
    return docs


def _search(page, system: System, q: str, give_up_ms: int, retype_ms: int = 0) -> dict:
    return page.evaluate(
        "([q, sel, quiet, giveUp, retype]) => window.__benchSearch(q, sel, quiet, giveUp, retype)",
        [q, system.browser, QUIET_MS, give_up_ms, retype_ms],
    )


def _clear(page, system: System) -> None:
    """Empty the box and wait until the old results are gone, so the next
    query's first result link is really its own."""
    page.evaluate("([sel]) => window.__benchClear(sel, 100, 1500)", [system.browser])


@dataclass(frozen=True)
class Cold:
    ms: float
    typed_ms: float  # from the first keystroke (the page has loaded) to the first result
    sent: list  # server.Sent until the first result
    search: list  # of which search requests


def cold_load(pw_browser, server: SiteServer, system: System, query: str, throttle: bool = False):
    """A fresh context: navigation start until the first result link of ``query``.

    Returns ``(Cold, page)`` with the page still open, or ``(error, None)``."""
    context = pw_browser.new_context()
    context.add_init_script(HARNESS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if throttle:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", THROTTLE)
    server.reset()
    page.goto(server.url + system.page, wait_until="domcontentloaded", timeout=COLD_TIMEOUT_MS)
    answer = _search(page, system, query, COLD_TIMEOUT_MS, retype_ms=200)
    if answer.get("error") or answer["first"] is None:
        context.close()
        if answer.get("error"):
            return answer["error"], None
        error = f"no result for {query!r} in {COLD_TIMEOUT_MS // 1000}s"
        search_errors = [e for e in errors if "hljs" not in e]  # theme's missing CDN
        if search_errors:
            error += f"; page error: {search_errors[0][:120]}"
        return error, None
    sent = server.sent_until((answer["timeOrigin"] + answer["first"]) / 1000)
    search = [s for s in sent if re.search(system.search_paths, s.path)]
    return Cold(answer["first"], answer["first"] - answer["t0"], sent, search), page


def _measure_warm_and_relevance(pw_browser, server, system: System, page, timing_queries: list[str],
                                relevance: list[Query], lang: str, result: BrowserResult) -> None:
    # Warm: the same page, index loaded, one query after another.
    for q in timing_queries[1:]:
        _clear(page, system)
        answer = _search(page, system, q, NO_RESULT_MS)
        if answer["first"] is None:
            result.unanswered.append(q)
        else:
            result.warm_ms.append(answer["first"] - answer["t0"])
    for query in relevance:
        _clear(page, system)
        answer = _search(page, system, query.text, NO_RESULT_MS)
        result.top_docs[query.text] = top_docs(answer["links"])
    page.context.close()

    common, page = cold_load(pw_browser, server, system, COMMON_QUERIES[lang])
    if page is not None:
        result.common_ms, result.common_search_bytes_gz = common.ms, gzip_bytes(system, common.search)
        page.context.close()


def gzip_bytes(system: System, sent) -> int:
    return sum(gzip_equivalent(system.site, s.path, s.bytes) for s in sent)


def measure_site(pw_browser, system: System, timing_queries: list[str],
                 relevance: list[Query], cold_runs: int, lang: str = "en") -> BrowserResult:
    result = BrowserResult()
    gz = lambda sent: gzip_bytes(system, sent)  # noqa: E731
    with SiteServer(system.site) as server:
        page = None
        for run in range(cold_runs):
            if page is not None:
                page.context.close()
            cold, page = cold_load(pw_browser, server, system, timing_queries[0])
            if page is None:
                result.error = cold
                return result
            result.cold_ms.append(cold.ms)
            result.cold_typed_ms.append(cold.typed_ms)
            result.cold_bytes.append(sum(s.bytes for s in cold.sent))
            result.cold_bytes_gz.append(gz(cold.sent))
            result.cold_search_bytes.append(sum(s.bytes for s in cold.search))
            result.cold_search_bytes_gz.append(gz(cold.search))

        if system.timing_only:  # the same index as a system measured in full: cold loads only
            page.context.close()
        else:
            _measure_warm_and_relevance(pw_browser, server, system, page, timing_queries, relevance, lang, result)
    with SiteServer(system.site, compress=True) as server:
        slow, page = cold_load(pw_browser, server, system, timing_queries[0], throttle=True)
        if page is not None:
            result.throttled_ms, result.throttled_bytes = slow.ms, sum(s.bytes for s in slow.sent)
            page.context.close()
    return result


TIMELINE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {dcl: nav.domContentLoadedEventStart,
    resources: performance.getEntriesByType('resource').map(r => ({
      path: r.name.startsWith(location.origin) ? r.name.slice(location.origin.length) : r.name,
      start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize}))};
}"""


def timeline(site: Path, system: System, query: str, throttle: bool = False) -> str:
    """Where a cold load's time goes: the page's resources (Chromium's
    performance entries) until the first result, one line each, and the
    moments the page was parsed, the query typed and the first result shown."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw, SiteServer(site, compress=throttle) as server:
        chromium = launch(pw)
        cold, page = cold_load(chromium, server, system, query, throttle=throttle)
        if page is None:
            chromium.close()
            return f"error: {cold}"
        got = page.evaluate(TIMELINE)
        chromium.close()
    typed = cold.ms - cold.typed_ms
    lines = [f"DOMContentLoaded {got['dcl']:.0f} ms, typed {typed:.0f} ms, first result {cold.ms:.0f} ms",
             "start ms  end ms     bytes  path"]
    for r in sorted(got["resources"], key=lambda r: r["start"]):
        if r["start"] <= cold.ms and r["bytes"]:  # remote images fail fast, with no body
            lines.append(f"{r['start']:8.0f} {r['end']:7.0f} {r['bytes']:9d}  {r['path'][:100]}")
    return "\n".join(lines)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def main(argv=None) -> int:
    """``python bench/browser.py SITE QUERY [--page PAGE] [--pagefind] [--slow]``: one cold load's timeline."""
    import argparse

    from systems import CITESEARCH_BROWSER, PAGEFIND_BROWSER

    p = argparse.ArgumentParser(description="Timeline of one cold search in Chromium.")
    p.add_argument("site", type=Path)
    p.add_argument("query")
    p.add_argument("--page", default="index.html", help="page to open, relative to the site")
    p.add_argument("--pagefind", action="store_true", help="the page has Pagefind's default UI")
    p.add_argument("--slow", action="store_true", help="network throttling and a gzipping server")
    args = p.parse_args(argv)
    if args.pagefind:
        system = System("pagefind", args.site, args.site, [], search_paths=r"^/pagefind/",
                        page=args.page, browser=PAGEFIND_BROWSER)
    else:
        system = System("citesearch", args.site, args.site, [], search_paths=r"^/(search|assets)/",
                        page=args.page, browser=CITESEARCH_BROWSER)
    print(timeline(args.site, system, args.query, args.slow))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
