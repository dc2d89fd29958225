"""Bytes of a search index on disk: raw and gzip (level 6, like a web server).

Run on a built citesearch site, it prints what a cold search downloads before
its first result, by kind of file (the widget, the manifest, term lists, term
files, dictionary, chunk lists, chunk files), in a fresh Chromium, as
``large_site.py --cold`` counts it, without rebuilding the site::

    python bench/sizes.py SITE --cold "request server"
"""

from __future__ import annotations

import argparse
import collections
import gzip
import re
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Size:
    files: int
    raw: int
    gzip: int


def gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def matching(root: Path, globs: list[str]) -> set[Path]:
    return {p for g in globs for p in root.glob(g) if p.is_file()}


def measure(root: Path, globs: list[str], exclude: list[str] = ()) -> Size:
    paths = sorted(matching(root, globs) - matching(root, list(exclude)))
    raw = gz = 0
    for path in paths:
        data = path.read_bytes()
        raw += len(data)
        gz += gzip_size(data)
    return Size(len(paths), raw, gz)


# The kind of a file a cold search fetches, by its URL path (engine/contract.py's names).
KINDS = (("widget", r"^/assets/"), ("manifest", r"/manifest\.json$"), ("term lists", r"/termlist\."),
         ("term files", r"/terms\."), ("term blocks", r"/block\."), ("dictionary", r"/dict\."),
         ("chunk lists", r"/chunks/list\."),
         ("chunk files", r"/chunks/"))


def kind_of(url_path: str) -> str:
    return next((kind for kind, pattern in KINDS if re.search(pattern, url_path)), "other")


def cold_breakdown(site: Path, query: str, opened: str = "index.html") -> None:
    """Print the gzip-equivalent bytes of each request before the first result, and the sum per kind."""
    from playwright.sync_api import sync_playwright

    from browser import cold_load, gzip_equivalent, launch
    from server import SiteServer
    from systems import CITESEARCH_BROWSER, System

    system = System("citesearch", site=site, cwd=site.parent, steps=[], browser=CITESEARCH_BROWSER, page=opened,
                    search_paths=r"^/(search/|assets/.*\.js$|assets/search\.css$)")  # as large_site.py
    with sync_playwright() as playwright, SiteServer(site) as server:
        chromium = launch(playwright)
        try:
            cold, page = cold_load(chromium, server, system, query)
            if page is None:
                sys.exit(f"cold search failed: {cold}")
            page.context.close()
        finally:
            chromium.close()
    by_kind, counts = collections.Counter(), collections.Counter()
    for sent in cold.search:
        gz = gzip_equivalent(site, sent.path, sent.bytes)
        by_kind[kind_of(sent.path)] += gz
        counts[kind_of(sent.path)] += 1
        print(f"{gz / 1024:7.1f} KB gz {sent.bytes / 1024:7.1f} KB raw  {sent.path}")
    total = sum(by_kind.values())
    print(f"cold search {query!r}: {total / 1024:.1f} KB gz in {len(cold.search)} requests before the first result "
          f"({cold.ms:.0f} ms, unthrottled)")
    for kind, _ in KINDS:
        if counts[kind]:
            print(f"  {kind:12} {by_kind[kind] / 1024:6.1f} KB gz  ({counts[kind]} files)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built citesearch site")
    parser.add_argument("--cold", metavar="QUERY", default="request server", help="the query typed (default: %(default)s)")
    parser.add_argument("--page", default="index.html", help="the page opened, relative to the site (default: %(default)s)")
    args = parser.parse_args(argv)
    search = measure(args.site, ["search/**/*"])
    print(f"search files: {search.files}, {search.raw / 2**20:.1f} MB raw, {search.gzip / 2**20:.1f} MB gz")
    cold_breakdown(args.site.resolve(), args.cold, args.page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
