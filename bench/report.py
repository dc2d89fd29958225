"""The results table (markdown) and the header that says where it was measured."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
from dataclasses import dataclass, field

from timing import Sample

COLUMNS = [
    "corpus", "system", "build s", "vs cs", "cpu s", "vs cs", "peak MB", "vs cs",
    "index raw", "index gz", "search code gz",
    "cold ms", "cold ms from typing", "cold bytes (gz)", "of which search (gz)",
    "cold ms slow", "slow bytes", "common words: search gz", "common ms",
    "warm ms", "doc@5 headings", "doc@5 words", "passage@5",
]


@dataclass
class Row:
    corpus: str
    system: str
    build: Sample | None = None
    runs: int = 0
    error: str = ""
    index_raw: int | None = None
    index_gz: int | None = None
    code_gz: int | None = None
    cold_ms: float | None = None
    cold_typed_ms: float | None = None
    cold_bytes: int | None = None
    cold_bytes_gz: int | None = None
    cold_search_bytes: int | None = None
    cold_search_bytes_gz: int | None = None
    throttled_ms: float | None = None
    throttled_bytes: int | None = None
    common_search_bytes_gz: int | None = None
    common_ms: float | None = None
    warm_ms: float | None = None
    browser_note: str = ""
    doc_heading: str = ""
    doc_words: str = ""
    passage: str = ""
    notes: list[str] = field(default_factory=list)


def human_bytes(n: int | None) -> str:
    if n is None:
        return "–"
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    return f"{n / 1024:.0f} KB"


def _num(value: float | None, fmt: str) -> str:
    return "–" if value is None else format(value, fmt)


def _ratio(value: float | None, base: float | None) -> str:
    return "–" if not value or not base else f"×{value / base:.2f}"


def table(rows: list[Row]) -> str:
    base = {r.corpus: r.build for r in rows if r.system == "citesearch" and r.build}
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        b = base.get(r.corpus)
        if r.error:
            cells = [r.corpus, r.system, f"fails: {r.error}"] + [""] * (len(COLUMNS) - 3)
        else:
            cold_bytes = "–" if r.cold_bytes is None else (
                f"{human_bytes(r.cold_bytes)} ({human_bytes(r.cold_bytes_gz)})")
            build = [_num(r.build.seconds, ".2f"), _ratio(r.build.seconds, b and b.seconds),
                     _num(r.build.cpu_seconds, ".2f"), _ratio(r.build.cpu_seconds, b and b.cpu_seconds),
                     _num(r.build.peak_rss_mb, ".0f"), _ratio(r.build.peak_rss_mb, b and b.peak_rss_mb),
                     ] if r.build else ["–"] * 6  # a page of a site another row built
            cells = [
                r.corpus, r.system, *build,
                human_bytes(r.index_raw), human_bytes(r.index_gz), human_bytes(r.code_gz),
                r.browser_note or _num(r.cold_ms, ".0f"), _num(r.cold_typed_ms, ".0f"),
                cold_bytes, f"{human_bytes(r.cold_search_bytes)} ({human_bytes(r.cold_search_bytes_gz)})",
                _num(r.throttled_ms, ".0f"), human_bytes(r.throttled_bytes),
                human_bytes(r.common_search_bytes_gz), _num(r.common_ms, ".0f"),
                _num(r.warm_ms, ".0f"),
                r.doc_heading or "–", r.doc_words or "–", r.passage or "–",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    mem_kb = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                   if line.startswith("MemTotal")), 0)
    return (f"{os.cpu_count()} cores ({cpu}), {mem_kb / 1024 / 1024:.0f} GiB RAM, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}")


def git_revision(repo) -> str:
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--", "plugin", "theme"],
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + (" (+ uncommitted changes in plugin/ or theme/)" if dirty else "")


def load_average() -> str:
    return " ".join(_read("/proc/loadavg").split()[:3]) or "unknown"


def header(command: str, versions: dict[str, str], runs: int, per_kind: int, repo,
           load_before: str) -> str:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    tools = ", ".join(f"{k} {v}" for k, v in versions.items())
    return (
        f"Measured {now} on {machine()}; load average (1, 5, 15 min) "
        f"{load_before} at the start, {load_average()} at the end.\n\n"
        f"citesearch at {git_revision(repo)}; {tools}.\n\n"
        f"Command: `{command}`; builds: median of {runs} interleaved runs; "
        f"relevance: {per_kind} heading + {per_kind} words queries per corpus.\n"
    )


LEGEND = """\
Columns: *build s* / *cpu s* / *peak MB*: median wall time, CPU time (user +
system, the steadier figure on a busy machine) and peak RSS of the whole build
(for pagefind: MkDocs without search, then `pagefind`; times added, peak is the
larger); *vs cs*: ratio to the citesearch cold build of the same corpus.
*index*: the search index files on disk (citesearch `search/**`, MkDocs
`search/search_index.json`, Pagefind `pagefind/{index,fragment}/*`, `*.pf_meta`,
`pagefind-entry.json`), raw and gzip -6; *search code gz*: the JS/wasm/CSS the
search needs, gzip. *cold ms*: fresh browser context, navigation start until the
first result link of the first query is on the page (citesearch opens its home
page, MkDocs and Pagefind the same MkDocs-built page, for Pagefind with its
default UI added as its docs say); *from typing*: the same load from the first
keystroke (the page parsed); *cold bytes*:
everything the server sent until then (headers included, uncompressed; in brackets what a gzip
server would send), *of which search*: only index and search code requests.
*cold ms slow* / *slow bytes*: the same cold load under Chromium's network
throttling (1.6 Mbps down, 750 kbps up, 150 ms round trip) from a server that
gzips text files, and what that server sent until the first result.
*common words*: a cold load whose query is very common words (en "the and of
to", ru "и в на не", zh "的 是 在 可以"): search requests until the first
result (gzip equivalent) and the time.
*warm ms*: median time from typing a query (events fired) to its first result
link, same page, over the rest of the fixed query list; UI debounce included
(Pagefind UI: 300 ms). *doc@5*: queries whose source document is among the
first five distinct pages the search UI shows; *passage@5*: citesearch only, the
source passage among the first five results of `citesearch search`.
"""
