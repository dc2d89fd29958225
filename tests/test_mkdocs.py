"""citesearch as an MkDocs plugin: real MkDocs builds of the FastAPI docs, searched in Chromium and from the CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from browser_support import INPUT, OPTIONS, QuietHandler, cli_search, run_cli, serve, type_query
from conftest import corpus
from mkdocs_support import land_from_the_box, mkdocs, page_with_theme_errors

pytest.importorskip("mkdocs")
pytest.importorskip("material")

DRAFT_WORD = "quokkanebula"  # in the editor-only page only
DRAFT = f"---\nvisibility: editor\ntitle: Secret plans\n---\n# Secret plans\n\nThe {DRAFT_WORD} launch is not public.\n"
# A public page that links to a passage of another page: MkDocs validates the anchor.
LINKER = "# Passage links\n\nSee [the first steps](tutorial/first-steps.md#first-steps--1).\n"


def write_config(folder: Path, name: str, **options: object) -> Path:
    config = folder / f"{name}.yml"
    settings = {"site_name": "FastAPI", "docs_dir": "docs", "site_dir": name, "plugins": ["citesearch"],
                # As citesearch's own parser: MkDocs adds toc, tables and fenced_code itself.
                "markdown_extensions": ["attr_list", "admonition"], **options}
    config.write_text(yaml.safe_dump(settings), encoding="utf-8")
    return config


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The FastAPI English docs (minus _-prefixed files, as in bench/) plus a draft and a linking page."""
    source = corpus("fastapi-docs/en")
    folder = tmp_path_factory.mktemp("mkdocs")
    for path in sorted(source.rglob("*.md")):
        rel = path.relative_to(source)
        if any(part.startswith("_") for part in rel.parts):
            continue
        target = folder / "docs" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    (folder / "docs" / "secret-plans.md").write_text(DRAFT, encoding="utf-8")
    (folder / "docs" / "passage-links.md").write_text(LINKER, encoding="utf-8")
    return folder


def built(project: Path, name: str, **options: object) -> Path:
    done = mkdocs(write_config(project, name, **options))
    assert done.returncode == 0, done.stderr
    assert "passage-links.md" not in done.stderr  # its link to a passage anchor is valid
    return project / name


@pytest.fixture(scope="module")
def material(project: Path):  # type: ignore[no-untyped-def]
    """(site, URL): Material with instant navigation and directory URLs (MkDocs' default), served at its site_url.

    Instant navigation only takes over links its sitemap lists, compared by host
    and port: the site is built for the very URL it is served at.
    """
    with serve(project / "material") as url:
        site = built(project, "material", theme={"name": "material", "features": ["navigation.instant"]},
                     validation={"anchors": "warn"}, site_url=url)
        yield site, url


@pytest.fixture(scope="module")
def material_site(material) -> Path:  # type: ignore[no-untyped-def]
    return material[0]


@pytest.fixture(scope="module")
def mkdocs_site(project: Path) -> Path:
    # highlight.js would come from a CDN, which the test machine cannot reach.
    return built(project, "plain", theme={"name": "mkdocs", "highlightjs": False}, use_directory_urls=False)


def test_cli_search_quotes_the_mkdocs_output_with_directory_urls_on_and_off(material_site: Path, mkdocs_site: Path):
    for site, suffix in ((material_site, "/"), (mkdocs_site, ".html")):
        answer = cli_search(site, "dependency injection", lang="en", limit=5, exact=True)
        assert answer["status"] == "supported"
        first = answer["results"][0]
        assert first["quote"]
        page, anchor = first["url"].split("#")
        assert page.endswith(suffix)
        html = (site / (page + "index.html" if suffix == "/" else page)).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in html and f'data-chunk="{anchor}"' in html


def test_anchors_match_citesearch_own_build_of_the_same_page(material_site: Path, tmp_path: Path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copyfile(corpus("fastapi-docs/en") / "tutorial" / "first-steps.md", content / "first-steps.md")
    assert run_cli("build", str(content), "--out", str(tmp_path / "site")).returncode == 0
    ours = set(re.findall(r'data-chunk="([^"]+)" id=', (tmp_path / "site" / "first-steps.html").read_text(encoding="utf-8")))
    theirs = set(re.findall(r'data-chunk="([^"]+)" id=',
                            (material_site / "tutorial" / "first-steps" / "index.html").read_text(encoding="utf-8")))
    assert ours and ours == theirs


def test_editor_only_pages_are_absent_from_the_site_and_the_index(material_site: Path, mkdocs_site: Path):
    for site in (material_site, mkdocs_site):
        assert not list(site.rglob("secret-plans*"))
        leaks = [p for p in site.rglob("*") if p.is_file() and DRAFT_WORD.encode() in p.read_bytes()]
        assert leaks == []
        assert not any(b"Secret plans" in p.read_bytes() for p in (site / "search").rglob("*") if p.is_file())


def test_the_search_files_are_citesearch_own_format(material_site: Path):
    manifest = json.loads((material_site / "search" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["generator"]["name"] == "citesearch-mkdocs"
    assert list(manifest["languages"]) == ["en"]
    head = (material_site / "index.html").read_text(encoding="utf-8")
    assert '<meta name="citesearch:search" content="./search/" data-root="./">' in head
    nested = (material_site / "tutorial" / "first-steps" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="citesearch:search" content="../../search/" data-root="../../">' in nested


@pytest.mark.browser
def test_material_box_quotes_and_lands_on_the_passage_through_instant_navigation(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url + "tutorial/")
    assert page.locator(".md-header " + INPUT).is_visible()  # the box sits in Material's header bar
    page.evaluate("window.__samePage = true")
    anchor = land_from_the_box(page, url + "tutorial/", "path parameters", reload=False)
    # Instant navigation swapped the page in (no reload), and the widget landed on it.
    assert page.evaluate("window.__samePage") is True
    assert anchor in page.url
    assert page.evaluate("document.querySelectorAll('[data-citesearch]').length") == 1
    type_query(page, "response model")  # the box in the header still answers
    assert page.locator(OPTIONS).count() > 0


@pytest.fixture
def theme_page(browser):  # type: ignore[no-untyped-def]
    """A page that fails the test on an uncaught error but from the mkdocs theme's base.js."""
    with page_with_theme_errors(browser, lambda error: "/js/base.js" in error) as page:
        yield page


@pytest.mark.browser
def test_mkdocs_theme_box_quotes_and_lands_on_the_passage_without_directory_urls(mkdocs_site: Path, theme_page):  # type: ignore[no-untyped-def]
    page = theme_page
    with serve(mkdocs_site) as url:
        anchor = land_from_the_box(page, url + "index.html", "dependency injection")
        assert page.evaluate("location.pathname").endswith(".html")
        assert page.evaluate("decodeURIComponent(location.hash)").startswith(f"#{anchor}")


class ErrorPageHandler(QuietHandler):
    """As a static host does (GitHub Pages, Netlify): a missing path answers with the site's 404.html."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_the_404_page_has_the_search_box_with_root_relative_urls(material_site: Path, mkdocs_site: Path):
    # Served at any missing path: relative URLs would point nowhere, so the root comes from site_url (as MkDocs' own).
    for site in (material_site, mkdocs_site):
        html = (site / "404.html").read_text(encoding="utf-8")
        assert '<meta name="citesearch:search" content="/search/" data-root="/">' in html
        assert html.count("data-citesearch") == 1
        assert '<script type="module" src="/assets/citesearch/citesearch.js?v=' in html


@pytest.mark.browser
def test_a_reader_on_a_missing_page_finds_the_passage_from_the_404_box(mkdocs_site: Path, theme_page):  # type: ignore[no-untyped-def]
    page = theme_page
    with serve(mkdocs_site, ErrorPageHandler) as url:
        response = page.goto(url + "tutorial/no-such-page/")
        assert response is not None and response.status == 404
        land_from_the_box(page, url, "dependency injection", reload=False)
        assert page.evaluate("location.pathname").endswith(".html")


def test_links_to_passages_pass_mkdocs_anchor_validation_and_broken_ones_fail(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWords.\n\n## Part\n\nMore words.\n", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\nSee [part](index.md#part--1).\n", encoding="utf-8")
    config = write_config(tmp_path, "site", validation={"anchors": "warn"})
    assert mkdocs(config, "--strict").returncode == 0
    (docs / "other.md").write_text("# Other\n\nSee [part](index.md#part--9).\n", encoding="utf-8")
    done = mkdocs(config, "--strict")
    assert done.returncode != 0 and "part--9" in done.stderr


def test_a_dirty_rebuild_keeps_the_pages_it_did_not_render_in_the_index(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nThe albatross page.\n", encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\nThe pelican page.\n", encoding="utf-8")
    config = write_config(tmp_path, "site")
    assert mkdocs(config).returncode == 0
    (docs / "other.md").write_text("# Other\n\nThe cormorant page.\n", encoding="utf-8")
    assert mkdocs(config, "--dirty").returncode == 0
    site = tmp_path / "site"
    for word, found in (("albatross", True), ("cormorant", True), ("pelican", False)):
        answer = cli_search(site, word, lang="en", limit=5, exact=True)
        assert (answer["status"] == "supported") == found, word


def test_the_editor_role_builds_and_indexes_drafts_for_a_private_preview(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nPublic words.\n", encoding="utf-8")
    (tmp_path / "docs" / "secret-plans.md").write_text(DRAFT, encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "x", "plugins": [{"citesearch": {"role": "editor"}}]}))
    assert mkdocs(config).returncode == 0
    answer = cli_search(tmp_path / "site", DRAFT_WORD, lang="en", limit=5, exact=True)
    assert [r["ref"] for r in answer["results"]] == ["secret-plans#secret-plans--1"]


def test_bad_options_are_one_line_errors(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "x", "plugins": [{"citesearch": {"chunk_budget": 10}}]}))
    done = mkdocs(config)
    assert done.returncode != 0
    assert "citesearch: 'chunk_budget' must be a whole number of at least 50, got 10" in done.stderr
    assert "Traceback" not in done.stderr
    (tmp_path / "docs" / "index.md").write_text("---\nvisibility: publci\n---\n# Home\n", encoding="utf-8")
    config.write_text(yaml.safe_dump({"site_name": "x", "plugins": ["citesearch"]}))
    done = mkdocs(config)
    assert "index.md:1: unknown visibility 'publci' (choose public or editor)" in done.stderr


@pytest.mark.parametrize("key", ["Visibility", "visiblity", "VISIBILITY"])
def test_a_misspelt_visibility_key_is_an_error_not_a_published_draft(tmp_path: Path, key: str):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "docs" / "draft.md").write_text(f"---\n{key}: editor\n---\n# Secret plans\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "x", "plugins": ["citesearch"]}))
    done = mkdocs(config)
    assert done.returncode != 0
    assert f"draft.md:1: unknown key '{key}'; did you mean 'visibility'?" in done.stderr
    assert not (tmp_path / "site" / "draft.html").exists() and not (tmp_path / "site" / "draft").exists()
