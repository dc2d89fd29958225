"""MkDocs + citesearch vs MkDocs search vs Material search vs Pagefind, on the same corpus.

    python bench/mkdocs_plugin.py                          # fastapi-en, 1 build run
    python bench/mkdocs_plugin.py --corpora fastapi-en --runs 3 --no-browser

Same measurements as ``run.py`` (build time and peak memory, index bytes,
browser cold/warm search, relevance from ``relevance.py``), with the MkDocs
plugin in place of ``citesearch build``. The peers ``mkdocs`` and ``pagefind``
are exactly ``run.py``'s (``systems.prepare``, from ``bench/.venv``); the
plugin systems and Material's search run from this Python (the working tree's
citesearch, installed editable, and mkdocs-material from the test extra), on
the same copied Markdown with ``attr_list`` so that ``{ #id }`` heading ids
match citesearch's own parser.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

import yaml

import run as bench
from corpora import WORK_DIR, copy_markdown, markdown_files
from queries import relevance_queries
from report import Row
from systems import CITESEARCH_BROWSER, MKDOCS_LOCALES, System, prepare

MATERIAL_BROWSER = {
    "input": "input.md-search__input",
    "results": ".md-search-result",
    "links": ".md-search-result__link[href]",
    "events": ["focus", "input", "keyup"],
}
# The ids ``systems.prepare`` gives its peers, kept from run.py.
PEERS = ("mkdocs", "pagefind")
SYSTEMS = ("citesearch mkdocs", "citesearch material", "mkdocs", "material search", "pagefind")


def plugin_systems(corpus, files: list[Path], base: Path) -> list[System]:
    """MkDocs with the citesearch plugin (themes mkdocs and material) and Material's own search."""
    docs = base / "mkdocs-docs"  # the folder systems.prepare gives the MkDocs peers
    copy_markdown(corpus.source, files, docs)
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q"]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    variants = {
        "citesearch mkdocs": ({"name": "mkdocs", "locale": MKDOCS_LOCALES[corpus.lang]}, [{"citesearch": {"lang": corpus.lang}}]),
        "citesearch material": ({"name": "material", "language": corpus.lang}, [{"citesearch": {"lang": corpus.lang}}]),
        "material search": ({"name": "material", "language": corpus.lang}, [{"search": {"lang": corpus.lang}}]),
    }
    systems = []
    for name, (theme, plugins) in variants.items():
        slug = name.replace(" ", "-")
        config = base / f"{slug}.yml"
        config.write_text(yaml.safe_dump({
            "site_name": corpus.title,
            "docs_dir": str(docs),
            "use_directory_urls": False,
            "theme": theme,
            "plugins": plugins,
            "markdown_extensions": ["attr_list"],
        }, allow_unicode=True), encoding="utf-8")
        out = base / f"{slug}-site"
        steps = [[*mkdocs, "-f", str(config), "-d", str(out)]]
        if name.startswith("citesearch"):
            systems.append(System(
                name, site=out, cwd=base, steps=steps, env=env, clean_paths=[out],
                index_globs=["search/**/*"],
                runtime_globs=["assets/citesearch/*.js", "assets/citesearch/vendor/**/*", "assets/citesearch/search.css"],
                search_paths=r"^/(search/|assets/citesearch/)", browser=CITESEARCH_BROWSER,
            ))
        else:
            systems.append(System(
                name, site=out, cwd=base, steps=steps, env=env, clean_paths=[out],
                index_globs=["search/search_index.json"],
                runtime_globs=["assets/javascripts/workers/search.*.js", "assets/javascripts/lunr/**/*"],
                search_paths=r"^/(search/|assets/javascripts/(workers|lunr)/)", browser=MATERIAL_BROWSER,
            ))
    return systems


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma-separated, from: {', '.join(SYSTEMS)}")
    p.add_argument("--corpora", default="fastapi-en")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--cold-loads", type=int, default=1)
    p.add_argument("--queries", type=int, default=20)
    p.add_argument("--no-browser", action="store_true")
    p.add_argument("--work", type=Path, default=WORK_DIR / "mkdocs-plugin")
    p.add_argument("--out", type=Path, help="markdown file for the table (default <work>/RESULTS.md)")
    args = p.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = set(args.systems) - set(SYSTEMS)
    if unknown:
        p.error(f"unknown systems: {', '.join(sorted(unknown))}")
    args.corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    args.smoke = False
    args.work = args.work.resolve()
    args.out = args.out or args.work / "RESULTS.md"
    return args


def run_corpus(corpus, args, venv_bin) -> list[Row]:
    files = markdown_files(corpus.source)
    print(f"{corpus.name}: {len(files)} documents", file=sys.stderr)
    base = args.work / corpus.name
    peers = [s for s in prepare(corpus, files, args.work, venv_bin) if s.name in PEERS]
    systems = [s for s in [*plugin_systems(corpus, files, base), *peers] if s.name in args.systems]
    systems.sort(key=lambda s: SYSTEMS.index(s.name))
    rows = {s.name: Row(corpus.name, s.name) for s in systems}
    bench.time_builds(systems, args.runs, rows)
    bench.measure_sizes(systems, corpus, rows)
    queries = relevance_queries(corpus, files, args.queries)
    browser_ran = not args.no_browser and Path("/usr/bin/chromium").exists()
    tops = bench.measure_browser(systems, corpus, rows, queries, args.cold_loads, False) if browser_ran else {}
    bench.score(rows, systems, queries, tops, browser_ran)
    return list(rows.values())


def main(argv=None) -> int:
    args = parse_args(argv)
    done = bench.measure_corpora(args, run_corpus, any(s in PEERS for s in args.systems))
    if done is None:
        return 2
    rows, venv_bin, load_before, started = done.rows, done.venv_bin, done.load_before, done.started
    command = "python bench/mkdocs_plugin.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    doc = bench.report(rows, command, venv_bin is not None, args, load_before, started,
                       methods="Methods: bench/README.md; this script's systems: its docstring.")
    print(doc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
