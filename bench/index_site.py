"""`citesearch index` vs `pagefind --site`: the same built HTML indexed by each.

    python bench/index_site.py                                  # fastapi-en and rust-rfcs, 3 runs
    python bench/index_site.py --corpora fastapi-en --runs 1 --no-browser

Each corpus is built once by MkDocs (theme ``mkdocs``, ``plugins: []``,
``use_directory_urls: false``, from ``bench/.venv`` as in ``run.py``); that
HTML is copied afresh before every timed run (the copy is not timed), then:

- **citesearch index**: ``python -m citesearch index SITE`` from this working
  tree, cache removed (cold); its content detection finds the theme's
  ``[role=main]`` by itself.  **citesearch index rerun**: the same command
  on the indexed site, cache kept (what a CI job that indexes an unchanged
  site pays).
- **pagefind**: ``python -m pagefind --site SITE --root-selector "[role=main]"
  --force-language <lang> --silent``, with Pagefind's default UI added to the
  page the browser opens (``systems.add_pagefind_ui``, as in ``run.py``).

"build s" is the indexing step alone.  Sizes, the browser figures and doc@5
are measured exactly as ``run.py`` does (bench/README.md), on the same page
(the home page, or the first document's page when the corpus has none).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

import run as bench
from corpora import WORK_DIR, copy_markdown, markdown_files
from queries import relevance_queries
from report import Row
from systems import CITESEARCH_BROWSER, MKDOCS_LOCALES, PAGEFIND_BROWSER, System, citesearch_env

SYSTEMS = ("citesearch index", "citesearch index rerun", "pagefind")


@dataclass
class IndexedCopy(System):
    """A system whose cold run starts from a fresh copy of the built HTML (copied, not timed)."""

    built: Path | None = None

    def clean(self) -> None:
        super().clean()
        assert self.built is not None
        shutil.copytree(self.built, self.site, symlinks=True)


def build_html(corpus, files: list[Path], base: Path, venv_bin: Path) -> tuple[Path, str]:
    """The corpus built once by MkDocs without any search; returns the folder and the page the browser opens."""
    docs = base / "mkdocs-docs"
    copy_markdown(corpus.source, files, docs)
    config = base / "plain.yml"
    config.write_text(yaml.safe_dump({
        "site_name": corpus.title, "docs_dir": str(docs), "use_directory_urls": False,
        "theme": {"name": "mkdocs", "locale": MKDOCS_LOCALES[corpus.lang]}, "plugins": [],
    }, allow_unicode=True), encoding="utf-8")
    built = base / "built-html"
    if built.exists():
        shutil.rmtree(built)
    subprocess.run([str(venv_bin / "mkdocs"), "build", "-q", "-f", str(config), "-d", str(built)], check=True)
    home = "index.html" if Path("index.md") in files else files[0].with_suffix(".html").as_posix()
    return built, home


def index_systems(corpus, built: Path, home: str, base: Path, venv_bin: Path) -> list[System]:
    site = base / "citesearch-index-site"
    command = [sys.executable, "-m", "citesearch", "index", str(site)]
    citesearch = dict(
        site=site, cwd=base, steps=[command], env=citesearch_env(), index_globs=["search/**/*"],
        runtime_globs=["assets/citesearch/*.js", "assets/citesearch/search.css"],
        search_paths=r"^/(search/|assets/citesearch/)", page=home, browser=CITESEARCH_BROWSER,
    )
    pagefind_site = base / "pagefind-index-site"
    return [
        IndexedCopy("citesearch index", clean_paths=[site, base / "citesearch-index-site.cache"], built=built, **citesearch),
        System("citesearch index rerun", cold=False, **citesearch),
        IndexedCopy(
            "pagefind", site=pagefind_site, cwd=base, clean_paths=[pagefind_site], built=built,
            steps=[[str(venv_bin / "python"), "-m", "pagefind", "--site", str(pagefind_site),
                    "--root-selector", "[role=main]", "--force-language", corpus.lang, "--silent"]],
            index_globs=["pagefind/index/*", "pagefind/fragment/*", "pagefind/*.pf_meta", "pagefind/pagefind-entry.json"],
            runtime_globs=["pagefind/pagefind-ui.*", "pagefind/pagefind.js", "pagefind/pagefind-worker.js", "pagefind/wasm.*.pagefind"],
            search_paths=r"^/pagefind/", page=home, browser=PAGEFIND_BROWSER,
        ),
    ]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--systems", default=",".join(SYSTEMS), help=f"comma-separated, from: {', '.join(SYSTEMS)}")
    p.add_argument("--corpora", default="fastapi-en,rust-rfcs")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--cold-loads", type=int, default=3)
    p.add_argument("--queries", type=int, default=20)
    p.add_argument("--no-browser", action="store_true")
    p.add_argument("--work", type=Path, default=WORK_DIR / "index-site")
    p.add_argument("--out", type=Path, help="markdown file for the table (default <work>/RESULTS.md)")
    args = p.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    if set(args.systems) - set(SYSTEMS):
        p.error(f"unknown systems: {', '.join(sorted(set(args.systems) - set(SYSTEMS)))}")
    args.corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    args.smoke = False
    args.work = args.work.resolve()
    args.out = args.out or args.work / "RESULTS.md"
    return args


def run_corpus(corpus, args, venv_bin) -> list[Row]:
    files = markdown_files(corpus.source)
    print(f"{corpus.name}: {len(files)} documents", file=sys.stderr)
    base = args.work / corpus.name
    base.mkdir(parents=True, exist_ok=True)
    built, home = build_html(corpus, files, base, venv_bin)
    systems = [s for s in index_systems(corpus, built, home, base, venv_bin) if s.name in args.systems]
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
    done = bench.measure_corpora(args, run_corpus, want_peers=True)  # MkDocs builds the HTML: always the peers' venv
    if done is None:
        return 2
    command = "python bench/index_site.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    doc = bench.report(done.rows, command, True, args, done.load_before, done.started,
                       methods="Methods: bench/README.md; what 'build s' is here and each system: bench/index_site.py's docstring.")
    print(doc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
