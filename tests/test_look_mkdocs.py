"""The built-in `mkdocs` theme with MkDocs' own search switched off: the theme's JS keeps
working (table styling, n/p/s/? shortcuts) and the box follows the theme's colours."""

from __future__ import annotations

import pytest

from browser_support import INPUT, OPTIONS, serve
from look_support import PANEL, WCAG_AA, ask, background, contrasts, document_width, mkdocs_build, write_pages

pytestmark = pytest.mark.browser

PAGES = {
    "index.md": "# Home\n\nThe albatross glides for hours.\n\n| bird | wingspan |\n|---|---|\n| albatross | 3.5 m |\n",
    "second.md": "# Second\n\nThe gannet dives from thirty metres.\n",
    "third.md": "# Third\n\nPuffins nest in burrows.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("mkdocs-theme")
    write_pages(folder / "docs", PAGES)
    # highlight.js would come from a CDN, which the test machine cannot reach.
    built = mkdocs_build(folder, {"site_name": "Birds", "plugins": ["citesearch"], "use_directory_urls": False,
                                  "nav": ["index.md", "second.md", "third.md"],
                                  "theme": {"name": "mkdocs", "highlightjs": False}})
    with serve(built) as url:
        yield url


def test_with_search_off_the_theme_styles_tables_and_its_shortcuts_work(site, page):  # type: ignore[no-untyped-def]
    # `page` fails the test on any uncaught error, base.js's included.
    page.goto(site + "second.html")
    page.wait_for_load_state("load")
    assert page.eval_on_selector("body", "b => b.innerHTML.includes('citesearch-theme-hook')")
    page.goto(site + "index.html")
    assert page.eval_on_selector("table", "t => [...t.classList]") == ["table", "table-striped", "table-hover"]
    page.keyboard.press("n")
    page.wait_for_url("**/second.html")
    page.keyboard.press("p")
    page.wait_for_url("**/index.html")
    page.keyboard.press("?")
    page.locator("#mkdocs_keyboard_modal").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.locator("#mkdocs_keyboard_modal").wait_for(state="hidden")
    page.keyboard.press("s")  # the theme's search key: our box, not an empty modal
    assert page.evaluate("document.activeElement.id") == "citesearch-input"
    assert page.locator("#mkdocs_search_modal").is_hidden()
    assert page.locator(".modal-backdrop").count() == 0


def test_a_shared_query_url_opens_the_results_not_the_theme_modal(site, page):  # type: ignore[no-untyped-def]
    page.goto(site + "index.html?q=gannet")
    page.wait_for_function("() => document.querySelector('[data-citesearch]').dataset.citesearchQuery === 'gannet'")
    assert page.locator(OPTIONS).count() > 0
    assert page.locator("#mkdocs_search_modal").is_hidden() and page.locator(".modal-backdrop").count() == 0


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_panel_follows_the_theme_colour_mode_and_marks_are_readable(site, browser, mode: str):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light" if mode == "dark" else "dark")
    page = context.new_page()
    try:
        page.goto(site + "index.html")
        page.evaluate("m => document.documentElement.setAttribute('data-bs-theme', m)", mode)  # as darkmode.js does
        ask(page, "albatross")
        assert background(page, PANEL) == background(page, "body")
        marked = contrasts(page, OPTIONS + " mark")
        assert marked and min(marked) >= WCAG_AA, marked
        assert min(contrasts(page, OPTIONS + " .citesearch-quote")) >= WCAG_AA
    finally:
        context.close()


def test_on_a_390px_phone_the_results_fill_the_screen(site, browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(site + "index.html")
        page.locator("[data-bs-target=\"#navbar-collapse\"]").click()  # the theme keeps its navbar, search included, in a menu
        page.locator(INPUT).wait_for(state="visible")
        ask(page, "albatross")
        assert page.locator("[data-citesearch]").bounding_box() == {"x": 0, "y": 0, "width": 390, "height": 844}
        assert document_width(page) <= 390
    finally:
        context.close()
