"""The box on real MkDocs sites (../shared/realsites), each built with its own mkdocs.yml and
``plugins: [citesearch]``: in the header on Material (typer: sticky tabs, instant navigation,
palette toggle; httpx: custom_dir), readable in ``default`` and ``slate``, within a 390 px phone,
closed after an instant-navigation click; on the ``mkdocs`` theme its own shortcuts keep working."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_support import INPUT, OPTIONS, serve
from look_support import PANEL, WCAG_AA, ask, background, contrasts, document_width, on_screen
from realsite_support import copy_realsite, mkdocs_build, use_citesearch

pytestmark = [pytest.mark.browser, pytest.mark.realsite]

# site -> (page, a query its readers would type)
QUERIES = {"typer": ("tutorial/", "command line arguments"), "httpx": ("quickstart/", "streaming responses")}


def built_for(name: str, dest: Path, url: str) -> Path:
    """The realsite built with citesearch for the URL it is served at (instant navigation needs it)."""
    project = copy_realsite(name, dest)
    use_citesearch(project)
    config = project / "mkdocs.yml"
    config.write_text(re.sub(r"(?m)^site_url:.*$", f"site_url: {url}", config.read_text(encoding="utf-8")),
                      encoding="utf-8")
    done = mkdocs_build(project, dest / "site")
    assert done.returncode == 0, done.stderr[-4000:]
    return dest / "site"


@pytest.fixture(scope="module", params=sorted(QUERIES))
def material_site(request, tmp_path_factory):  # type: ignore[no-untyped-def]
    """(name, URL) of a Material realsite, served where it was built for."""
    name = request.param
    dest = tmp_path_factory.mktemp(name)
    (dest / "site").mkdir()
    with serve(dest / "site") as url:
        built_for(name, dest, url)
        yield name, url


def scheme(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Switch with the site's own palette toggle (typer cycles auto, light, dark)."""
    for _ in range(3):
        if page.evaluate("document.body.dataset.mdColorScheme") == name:
            return
        page.locator("[data-md-component=palette] label:not([hidden])").click()
    assert page.evaluate("document.body.dataset.mdColorScheme") == name


def test_the_box_is_in_material_header_row_and_adds_no_row(material_site, page):  # type: ignore[no-untyped-def]
    name, url = material_site
    page.goto(url + QUERIES[name][0])
    assert page.locator(".md-header__inner " + INPUT).is_visible()
    rows = page.evaluate("""() => {
        const height = (s) => document.querySelector(s)?.getBoundingClientRect().height || 0;
        const tabs = document.querySelector('.md-header .md-tabs');  // inside the header with tabs.sticky
        return {header: height('.md-header'), rows: height('.md-header__inner') + (tabs ? height('.md-header .md-tabs') : 0)};
    }""")
    assert abs(rows["header"] - rows["rows"]) < 1, rows


@pytest.mark.parametrize("colours", ["default", "slate"])
def test_results_are_readable_and_follow_the_page_scheme(material_site, browser, colours: str):  # type: ignore[no-untyped-def]
    name, url = material_site
    path, query = QUERIES[name]
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  color_scheme="dark" if colours == "default" else "light")
    page = context.new_page()
    try:
        page.goto(url + path)
        scheme(page, colours)
        ask(page, query)
        marked = contrasts(page, OPTIONS + " mark")
        assert marked and min(marked) >= WCAG_AA, marked
        assert min(contrasts(page, OPTIONS + " .citesearch-quote")) >= WCAG_AA
        panel, article = background(page, PANEL), background(page, "article")
        assert all(abs(a - b) < 2 for a, b in zip(panel, article)), (panel, article)
    finally:
        context.close()


def test_on_a_390px_phone_nothing_is_wider_than_the_screen(material_site, browser):  # type: ignore[no-untyped-def]
    name, url = material_site
    path, query = QUERIES[name]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(url + path)
        assert document_width(page) <= 390
        ask(page, query)
        assert page.locator(OPTIONS).count() > 0
        assert document_width(page) <= 390
        assert page.locator("[data-citesearch]").bounding_box() == {"x": 0, "y": 0, "width": 390, "height": 844}
        assert on_screen(page, PANEL, 390)
    finally:
        context.close()


def test_a_result_followed_with_instant_navigation_closes_the_panel_and_lands(material_site, page):  # type: ignore[no-untyped-def]
    name, url = material_site
    path, query = QUERIES[name]
    page.goto(url + path)
    instant = page.evaluate("document.querySelector('[data-md-component=container]') !== null && "
                            "typeof window.document$ !== 'undefined'")
    page.evaluate("window.__samePage = true")
    ask(page, query)
    first = page.locator(OPTIONS).first
    anchor = first.get_attribute("data-ref").split("#", 1)[1]
    first.locator("a").click()
    page.wait_for_function("a => document.querySelector(`[data-chunk='${a}'].citesearch-landed`)", arg=anchor)
    assert page.locator(PANEL).is_hidden()
    if name == "typer":  # navigation.instant: swapped in without a reload
        assert instant and page.evaluate("window.__samePage") is True


@pytest.fixture(scope="module")
def mkdocs_realsite(tmp_path_factory):  # type: ignore[no-untyped-def]
    dest = tmp_path_factory.mktemp("mkdocs")
    (dest / "site").mkdir()
    with serve(dest / "site") as url:
        built_for("mkdocs", dest, url)
        yield url


@pytest.fixture
def offline_page(browser):  # type: ignore[no-untyped-def]
    """A page that fails the test on uncaught errors, but for highlight.js, which this site loads from a CDN."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert [e for e in errors if e != "hljs is not defined"] == []


def test_on_the_mkdocs_theme_its_shortcuts_and_table_styles_survive_search_off(mkdocs_realsite, offline_page):  # type: ignore[no-untyped-def]
    page = offline_page
    page.goto(mkdocs_realsite + "user-guide/configuration/")
    assert page.locator(".navbar " + INPUT).is_visible()
    assert "table" in (page.eval_on_selector("main table, div[role=main] table, table", "t => t.className") or "")
    following = page.eval_on_selector('.navbar a[rel="next"]', "a => a.href")
    page.keyboard.press("n")
    page.wait_for_url(following)
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.id") == "citesearch-input"
    ask(page, "google analytics")
    assert page.locator(OPTIONS).count() > 0
