"""`citesearch index` on the output of real generators: Hugo (Debian), Sphinx and Zensical (PyPI).

Each site is built by the generator itself, then indexed; the search must
quote the passage and, in Chromium, land on it.  Hugo's and Sphinx's sites
are small projects written here (no theme is downloaded: minimal layouts);
Zensical builds the real typer documentation from ../shared/realsites.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser_support import cli_search, run_cli, serve
from mkdocs_support import land_from_the_box

REALSITES = Path(__file__).resolve().parents[2] / "shared" / "realsites"
TYPER = next((p for p in (REALSITES / "typer", Path("/work/shared/realsites/typer")) if p.is_dir()), REALSITES / "typer")

HUGO_LAYOUTS = {
    "layouts/_default/baseof.html": (
        '<!doctype html>\n<html lang="{{ .Site.LanguageCode }}">\n<head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n'
        '<body><header><a href="{{ "/" | relURL }}">{{ .Site.Title }}</a></header>\n<main>{{ block "main" . }}{{ end }}</main>'
        "</body></html>\n"),
    "layouts/_default/single.html": '{{ define "main" }}<article><h1>{{ .Title }}</h1>{{ .Content }}</article>{{ end }}\n',
    "layouts/_default/list.html": (
        '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}<ul>{{ range .Pages }}'
        '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}\n'),
}
HUGO_CONTENT = {
    "hugo.toml": 'baseURL = "http://example.org/"\nlanguageCode = "en"\ntitle = "Orchard"\ndisableKinds = ["taxonomy", "term", "RSS"]\n',
    "content/_index.md": "---\ntitle: Orchard\n---\nWelcome to the orchard handbook.\n",
    "content/docs/pruning.md": (
        "---\ntitle: Pruning\n---\nPruning keeps trees healthy.\n\n## Winter pruning\n\n"
        "Prune pear trees in winter while they sleep, and burn the cut branches.\n\n## Tools\n\n```sh\nshears --sharpen\n```\n"),
    "content/docs/draft-plan.md": "---\ntitle: Plan\ndraft: true\n---\nSecret grafting plan zyzzyvaword.\n",
    "content/docs/harvest.md": (
        "---\ntitle: Harvest\n---\n## Picking\n\nPick plums by hand when they come away with a gentle twist.\n\n"
        "| fruit | month |\n|---|---|\n| plum | August |\n"),
}
SPHINX_PROJECT = {
    "conf.py": 'project = "Orchard"\nhtml_theme = "alabaster"\n',
    "index.rst": "Orchard handbook\n================\n\nWelcome to the orchard handbook.\n\n.. toctree::\n\n   pruning\n",
    "pruning.rst": (
        "Pruning\n=======\n\nPruning keeps trees healthy.\n\nWinter pruning\n--------------\n\n"
        "Prune pear trees in winter while they sleep, and burn the cut branches.\n\n.. note::\n\n   Sharpen the shears first.\n\n"
        "Tools\n-----\n\n.. code-block:: sh\n\n   shears --sharpen\n"),
}


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def run(command: list[str], cwd: Path, timeout: int = 600) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"


def index(site: Path, *flags: str) -> str:
    done = run_cli("index", str(site), *flags)
    assert done.returncode == 0, f"index failed:\n{done.stderr}"
    return done.stderr


def files_of(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def hugo_site(tmp_path_factory) -> Path:
    if shutil.which("hugo") is None:
        pytest.fail("hugo is not installed (apt-get install hugo; .ci/install does it)")
    project = write(tmp_path_factory.mktemp("hugo"), {**HUGO_LAYOUTS, **HUGO_CONTENT})
    run(["hugo", "--quiet", "--minify"], project)  # minified: every page on one line
    site = project / "public"
    index(site)
    return site


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("sphinx")
    write(project / "src", SPHINX_PROJECT)
    run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "src", "html"], project)
    site = project / "html"
    index(site)
    return site


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory) -> Path:
    """The typer documentation built by Zensical (offline: it needs no network to build)."""
    project = tmp_path_factory.mktemp("zensical") / "typer"
    shutil.copytree(TYPER, project)
    for path in [project, *project.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)  # shared/ is read-only
    run([sys.executable, "-m", "zensical", "build"], project, timeout=1200)
    site = project / "site"
    index(site)
    return site


def test_hugo_minified_pages_get_passage_ids_and_drafts_never_reach_the_index(hugo_site):
    page = (hugo_site / "docs" / "pruning" / "index.html").read_text(encoding="utf-8")
    assert 'id="winter-pruning--1"' in page and "data-citesearch=" in page
    answer = cli_search(hugo_site, "prune pear winter", lang="en", limit=3)
    first = answer["results"][0]
    assert first["url"].endswith("docs/pruning/#winter-pruning--1")
    assert "Prune pear trees in winter" in first["quote"]
    table = cli_search(hugo_site, "plum august", lang="en", limit=3)["results"][0]
    assert table["url"].endswith("docs/harvest/#picking--1")
    everything = b"".join(files_of(hugo_site).values())
    assert b"zyzzyvaword" not in everything  # Hugo leaves drafts out; nothing of them comes back


def test_hugo_site_indexed_again_is_byte_for_byte_the_same(hugo_site, tmp_path):
    copy = tmp_path / "public"
    shutil.copytree(hugo_site, copy, symlinks=True)
    before = files_of(copy)
    summary = index(copy, "--cache-dir", str(tmp_path / "cache"))  # a cold cache: every page parsed again
    assert "0 rewritten" in summary
    assert files_of(copy) == before


def test_sphinx_sections_are_passages_and_its_own_search_page_is_left_alone(sphinx_site):
    answer = cli_search(sphinx_site, "sharpen shears", lang="en", limit=3)
    urls = [r["url"] for r in answer["results"]]
    assert "pruning.html#winter-pruning--1" in urls and "pruning.html#tools--1" in urls
    assert "data-citesearch=" not in (sphinx_site / "search.html").read_text(encoding="utf-8")
    assert 'id="winter-pruning--1"' in (sphinx_site / "pruning.html").read_text(encoding="utf-8")


@pytest.mark.realsite
def test_zensical_build_of_typer_is_indexed_and_quotes_its_passages(zensical_site):
    assert (zensical_site / "search.json").is_file()  # Zensical's own search files are kept
    answer = cli_search(zensical_site, "install completion", lang="en", limit=5)
    assert answer["results"] and all(r["quote"] for r in answer["results"][:3])
    page = (zensical_site / "tutorial" / "first-steps" / "index.html").read_text(encoding="utf-8")
    assert page.count("data-citesearch=") == 1 and 'class="md-header__inner' in page


@pytest.mark.browser
def test_hugo_box_quotes_and_lands_on_the_passage(hugo_site, page):  # type: ignore[no-untyped-def]
    with serve(hugo_site) as url:
        anchor = land_from_the_box(page, url + "docs/harvest/", "prune pear winter")
        assert anchor == "winter-pruning--1" and "/docs/pruning/" in page.url


@pytest.mark.browser
def test_sphinx_box_quotes_and_lands_on_the_passage(sphinx_site, page):  # type: ignore[no-untyped-def]
    with serve(sphinx_site) as url:
        anchor = land_from_the_box(page, url + "index.html", "burn cut branches")
        assert anchor == "winter-pruning--1" and "/pruning.html" in page.url


@pytest.mark.realsite
@pytest.mark.browser
def test_zensical_box_quotes_and_lands_on_the_passage(zensical_site, page):  # type: ignore[no-untyped-def]
    with serve(zensical_site) as url:
        page.goto(url + "tutorial/")
        assert page.locator(".md-header [data-citesearch] input").is_visible()
        anchor = land_from_the_box(page, url + "tutorial/", "install completion", reload=False)
        assert anchor in page.url
