"""The systems under test: how each one is prepared, built and measured.

A ``System`` knows its build commands, where its site lands, which files
make up its search index, and what the browser harness has to do on its
search page.  Peers run from ``bench/.venv`` (see ``peers.py``); citesearch
runs from this working tree (``plugin/`` on ``PYTHONPATH``) so the bench
always measures the code next to it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from corpora import REPO_DIR, Corpus, copy_markdown

MKDOCS_LOCALES = {"en": "en", "ru": "ru", "zh": "zh_CN"}


@dataclass
class System:
    name: str
    site: Path
    cwd: Path
    steps: list[list[str]]
    env: dict[str, str] | None = None
    clean_paths: list[Path] = field(default_factory=list)  # removed before a cold build
    index_globs: list[str] = field(default_factory=list)  # relative to site
    runtime_globs: list[str] = field(default_factory=list)  # search code (JS/wasm), listed apart
    search_paths: str = r"^$"  # regex: requests that belong to search, not to the page
    page: str = "index.html"  # page the browser opens
    browser: dict = field(default_factory=dict)  # selectors for the browser harness
    cold: bool = True  # False: measured as a no-change rebuild of the previous build
    timing_only: bool = False  # another page of a system built above: only its cold loads are timed

    def clean(self) -> None:
        for path in self.clean_paths:
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


def citesearch_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_DIR / "plugin"), *filter(None, [env.get("PYTHONPATH")])]
    )
    return env


CITESEARCH_BROWSER = {
    "input": "[data-citesearch] input",
    "results": "[role=listbox]",
    "links": "[role=listbox] [role=option] a[href], [role=listbox] a[role=option][href]",
    "events": ["focus", "input"],
}
MKDOCS_BROWSER = {
    "input": "#mkdocs-search-query",
    "results": "#mkdocs-search-results",
    "links": "#mkdocs-search-results article h3 a[href]",
    "events": ["focus", "input", "keyup"],  # mkdocs listens to keyup
}
PAGEFIND_BROWSER = {
    "input": ".pagefind-ui__search-input",
    "results": ".pagefind-ui",
    "links": ".pagefind-ui__result-link[href]",
    "events": ["focus", "input"],
}

# Pagefind's default UI added to a page the way its docs say: CSS and script in
# the head, a container, and ``new PagefindUI`` once the page is parsed.
PAGEFIND_HEAD = """<link href="{bundle}pagefind-ui.css" rel="stylesheet">
<script src="{bundle}pagefind-ui.js"></script>
"""
PAGEFIND_BOX = """<div id="search"></div>
<script>
window.addEventListener('DOMContentLoaded', () => {
  new PagefindUI({ element: "#search" });
});
</script>
"""
# The same UI on a bare page of its own (the bench's page before it opened the
# site's own page; kept for comparison, timed by ``browser.py --page``).
PAGEFIND_BARE_PAGE = "pagefind-search.html"
PAGEFIND_BARE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<title>Pagefind search</title>
{head}</head><body>
{box}</body></html>
"""
MAIN_TAG = re.compile(r'<[^>]*role="main"[^>]*>')


def add_pagefind_ui(html: str, bundle: str) -> str:
    """A MkDocs page with Pagefind's UI: assets at the end of the head, the box at
    the top of the page's main column (where a theme override of its content
    block puts it). Idempotent."""
    if "pagefind-ui.js" in html:
        return html
    main = MAIN_TAG.search(html)
    if main is None or "</head>" not in html:
        raise ValueError("no </head> or role=main element to add Pagefind's UI to")
    html = html[: main.end()] + "\n" + PAGEFIND_BOX + html[main.end():]
    return html.replace("</head>", PAGEFIND_HEAD.format(bundle=bundle) + "</head>", 1)


def prepare(corpus: Corpus, files: list[Path], work: Path, venv_bin: Path | None) -> list[System]:
    """Copy the corpus for every system and return them in run order."""
    base = work / corpus.name
    src = base / "citesearch-src"
    copy_markdown(corpus.source, files, src)
    (src / "citesearch.yml").write_text(
        yaml.safe_dump({"title": corpus.title, "lang": corpus.lang}, allow_unicode=True),
        encoding="utf-8",
    )
    site = base / "citesearch-site"
    caches = [base / "citesearch-site.cache"]
    build = [sys.executable, "-m", "citesearch", "build", str(src), "--out", str(site)]
    citesearch = dict(
        site=site,
        cwd=base,
        steps=[build],
        env=citesearch_env(),
        index_globs=["search/**/*"],
        runtime_globs=["assets/*.js", "assets/vendor/**/*", "assets/search.css"],
        search_paths=r"^/(search/|assets/.*\.js$|assets/search\.css$)",
        browser=CITESEARCH_BROWSER,
    )
    systems = [
        System("citesearch", clean_paths=[site, *caches], **citesearch),
        System("citesearch rebuild", cold=False, **citesearch),
    ]
    if venv_bin is None:
        return systems

    # MkDocs has no home page when the corpus has no index.md (the RFCs): open the first page.
    home = "index.html" if Path("index.md") in files else files[0].with_suffix(".html").as_posix()
    docs = base / "mkdocs-docs"
    copy_markdown(corpus.source, files, docs)
    mkdocs = str(venv_bin / "mkdocs")
    variants = {
        "mkdocs": {"search": {"lang": corpus.lang}},
        "mkdocs prebuilt": {"search": {"lang": corpus.lang, "prebuild_index": "python"}},
        "pagefind": None,
    }
    for name, search in variants.items():
        slug = name.replace(" ", "-")
        config = base / f"{slug}.yml"
        config.write_text(
            yaml.safe_dump(
                {
                    "site_name": corpus.title,
                    "docs_dir": str(docs),
                    "use_directory_urls": False,
                    "theme": {"name": "mkdocs", "locale": MKDOCS_LOCALES[corpus.lang]},
                    "plugins": [search] if search else [],
                },
                allow_unicode=True,
            ),
            encoding="utf-8",
        )
        out = base / f"{slug}-site"
        steps = [[mkdocs, "build", "-q", "-f", str(config), "-d", str(out)]]
        if search is None:
            # Pagefind indexes the rendered pages; only the article, not the nav.
            steps.append([
                str(venv_bin / "python"), "-m", "pagefind", "--site", str(out),
                "--root-selector", "[role=main]", "--force-language", corpus.lang,
                "--silent",
            ])
            systems.append(System(
                name, site=out, cwd=base, steps=steps, clean_paths=[out],
                index_globs=["pagefind/index/*", "pagefind/fragment/*",
                             "pagefind/*.pf_meta", "pagefind/pagefind-entry.json"],
                # What the default UI loads: UI, engine and the wasm of the languages.
                runtime_globs=["pagefind/pagefind-ui.*", "pagefind/pagefind.js",
                               "pagefind/pagefind-worker.js", "pagefind/wasm.*.pagefind"],
                search_paths=r"^/pagefind/",
                # The page MkDocs opens, with Pagefind's UI added (finish_site).
                page=home, browser=PAGEFIND_BROWSER,
            ))
            # The same index behind a bare page with only Pagefind's UI: no site around it to load
            # (how the bench timed Pagefind before the site page; kept so the two can be compared).
            systems.append(replace(systems[-1], name="pagefind bare page", steps=[], clean_paths=[],
                                   page=PAGEFIND_BARE_PAGE, timing_only=True))
        else:
            systems.append(System(
                name, site=out, cwd=base, steps=steps, clean_paths=[out],
                index_globs=["search/search_index.json"],
                runtime_globs=["search/*.js"],
                search_paths=r"^/search/",
                page=home, browser=MKDOCS_BROWSER,
            ))
    return systems


def finish_site(system: System, corpus: Corpus) -> None:
    """After the last build: add Pagefind's UI to the page the browser opens
    (and write the bare search page beside the index)."""
    if system.name == "pagefind":
        page = system.site / system.page
        root = "../" * system.page.count("/")
        page.write_text(add_pagefind_ui(page.read_text(encoding="utf-8"), root + "pagefind/"), encoding="utf-8")
        bare = PAGEFIND_BARE.format(lang=corpus.lang, head=PAGEFIND_HEAD.format(bundle="pagefind/"), box=PAGEFIND_BOX)
        (system.site / PAGEFIND_BARE_PAGE).write_text(bare, encoding="utf-8")
