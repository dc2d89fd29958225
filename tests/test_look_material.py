"""The box looks and behaves native on Material for MkDocs: a small Material site with
sticky tabs, instant navigation, a default/slate palette toggle, admonitions and content tabs."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_support import INPUT, OPTIONS, serve
from look_support import (PANEL, WCAG_AA, ask, background, contrasts, document_width, mkdocs_build,
                          on_screen, write_pages)

pytest.importorskip("material")
pytestmark = pytest.mark.browser

PAGES = {
    "index.md": "# Birds\n\nWelcome to the albatross guide. Albatrosses glide for hours without flapping.\n\n"
                "| bird | wingspan |\n|---|---|\n| albatross | 3.5 m |\n",
    "petrels.md": "# Petrels\n\nPetrels are seabirds of the open ocean.\n\n## Feeding\n\n"
                  '!!! note "At sea"\n    The storm petrel patters on the water while it picks plankton from the surface.\n',
    "setup.md": "# Setup\n\nInstall the guide first.\n\n"
                '=== "Python"\n\n    Install the pelican package with pip and import it.\n\n'
                '=== "Shell"\n\n    Run the cormorant command to count the birds.\n\n'
                '??? tip "At night"\n    The nightjar hides in a note that starts closed.\n',
    "ru.md": "---\nlang: ru\n---\n# Птицы\n\nАльбатрос парит над океаном часами.\n",
}


@pytest.fixture(scope="module")
def material(tmp_path_factory):  # type: ignore[no-untyped-def]
    """(site, URL): built for the URL it is served at, as instant navigation requires."""
    folder = tmp_path_factory.mktemp("material")
    write_pages(folder / "docs", PAGES)
    (folder / "site").mkdir()
    with serve(folder / "site") as url:
        mkdocs_build(folder, {
            "site_name": "Birds", "site_url": url, "plugins": ["citesearch"],
            "theme": {"name": "material",
                      "features": ["navigation.tabs", "navigation.tabs.sticky", "navigation.instant"],
                      "palette": [{"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Dark"}},
                                  {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Light"}}]},
            "markdown_extensions": ["admonition", "attr_list", "tables", "pymdownx.superfences",
                                    "pymdownx.details", {"pymdownx.tabbed": {"alternate_style": True}}],
        })
        yield folder / "site", url


def scheme(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Switch Material's palette with its own toggle, as a reader does."""
    for _ in range(2):
        if page.evaluate("document.body.dataset.mdColorScheme") == name:
            return
        page.locator("[data-md-component=palette] label:not([hidden])").click()
    assert page.evaluate("document.body.dataset.mdColorScheme") == name


def test_the_box_sits_in_the_header_row_where_material_search_sits_and_adds_no_row(material, page):  # type: ignore[no-untyped-def]
    site, url = material
    html = (site / "index.html").read_text(encoding="utf-8")
    row = html[html.index('<nav class="md-header__inner'):]
    assert row.index("data-citesearch") < row.index("</nav>")  # in the first row, not under the sticky tabs
    page.goto(url)
    assert page.locator(".md-header__inner " + INPUT).is_visible()
    heights = page.evaluate("""() => ({
        header: document.querySelector('.md-header').getBoundingClientRect().height,
        rows: document.querySelector('.md-header__inner').getBoundingClientRect().height
              + document.querySelector('.md-tabs').getBoundingClientRect().height,
        box: document.querySelector('[data-citesearch]').getBoundingClientRect().bottom,
        row: document.querySelector('.md-header__inner').getBoundingClientRect().bottom})""")
    assert abs(heights["header"] - heights["rows"]) < 1  # two rows: the bar and the sticky tabs
    assert heights["box"] <= heights["row"]
    # The search icon, drawn from the field's text colour: Material's header text colour.
    icon = page.eval_on_selector(".citesearch-field", "el => getComputedStyle(el, '::before').maskImage || getComputedStyle(el, '::before').webkitMaskImage")
    assert "svg" in icon
    assert page.evaluate("""() => getComputedStyle(document.querySelector('.citesearch-field')).color
                                 === getComputedStyle(document.querySelector('.md-header')).color""")


@pytest.mark.parametrize("name", ["default", "slate"])
def test_highlighted_words_are_readable_and_the_panel_follows_the_page_scheme(material, browser, name: str):  # type: ignore[no-untyped-def]
    _, url = material
    # The OS says the opposite of the page: the panel must follow the page.
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  color_scheme="dark" if name == "default" else "light")
    page = context.new_page()
    try:
        page.goto(url)
        scheme(page, name)
        ask(page, "albatross")
        marked = contrasts(page, OPTIONS + " mark")
        assert marked and min(marked) >= WCAG_AA, f"highlighted words on {name}: contrast {marked}"
        quotes = contrasts(page, OPTIONS + " .citesearch-quote") + contrasts(page, PANEL + " .citesearch-status")
        assert min(quotes) >= WCAG_AA, f"quotes and status on {name}: contrast {quotes}"
        page_bg = background(page, "article")
        panel_bg = background(page, PANEL)
        assert all(abs(a - b) < 2 for a, b in zip(panel_bg, page_bg)), (panel_bg, page_bg)
    finally:
        context.close()


def test_on_a_390px_phone_the_page_stays_390px_wide_and_the_results_fill_the_screen(material, browser):  # type: ignore[no-untyped-def]
    _, url = material
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(url)
        assert document_width(page) <= 390
        icon = page.locator("[data-citesearch]").bounding_box()
        assert icon and icon["x"] + icon["width"] <= 390 and icon["width"] < 60  # Material's search icon size
        ask(page, "albatross")
        assert document_width(page) <= 390
        sheet = page.locator("[data-citesearch]").bounding_box()
        assert sheet == {"x": 0, "y": 0, "width": 390, "height": 844}
        assert on_screen(page, PANEL, 390) and on_screen(page, "[data-citesearch] .citesearch-lang", 390)
        assert page.locator("[data-citesearch] .citesearch-lang").is_visible()  # two languages: the menu shows
        page.locator("[data-citesearch] .citesearch-close").click()
        assert page.locator(PANEL).is_hidden()
        assert page.locator("[data-citesearch]").bounding_box()["width"] < 60  # back to the icon
    finally:
        context.close()


def test_the_language_menu_does_not_resize_the_box(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url)
    page.locator(INPUT).click()  # in use, the box widens as Material's own search does
    page.locator("[data-citesearch] .citesearch-lang").wait_for(state="visible")
    sizes = page.evaluate("""async () => {
        const menu = document.querySelector('[data-citesearch] .citesearch-lang');
        const size = () => { const r = document.querySelector('[data-citesearch]').getBoundingClientRect(); return [r.width, r.height]; };
        const shown = size();
        menu.hidden = true;
        const hidden = size();
        menu.hidden = false;
        return {shown, hidden};
    }""")
    assert sizes["shown"] == sizes["hidden"]
    # Not a browser-default control on the blue bar: transparent, in the header's text colour.
    style = page.eval_on_selector("[data-citesearch] .citesearch-lang",
                                  "el => [getComputedStyle(el).backgroundColor, getComputedStyle(el).borderTopWidth]")
    assert style == ["rgba(0, 0, 0, 0)", "0px"]


def test_a_result_followed_through_instant_navigation_leaves_the_panel_closed(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url)
    page.evaluate("window.__samePage = true")
    ask(page, "storm petrel plankton")
    page.locator(OPTIONS).first.locator("a").click()
    page.wait_for_function("() => document.querySelector('.citesearch-landed')")
    assert page.evaluate("window.__samePage") is True  # swapped in by Material, no reload
    assert "petrels" in page.url
    assert page.locator(PANEL).is_hidden()
    assert page.locator(INPUT).get_attribute("aria-expanded") == "false"
    ask(page, "cormorant")  # still answers on the swapped-in page
    assert page.locator(OPTIONS).count() > 0


def test_a_landed_admonition_is_highlighted_over_material_own_admonition_style(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url)
    ask(page, "storm petrel plankton")
    page.locator(OPTIONS).first.locator("a").click()
    landed = page.locator(".admonition.citesearch-landed")
    landed.wait_for()
    assert landed.locator("mark.citesearch-term").count() > 0
    style_of = """el => { const s = getComputedStyle(el);
        const probe = document.createElement('div'); probe.style.color = 'var(--md-accent-fg-color)';
        document.body.append(probe); const accent = getComputedStyle(probe).color; probe.remove();
        return {shadow: s.boxShadow, accent}; }"""
    # Material animates an admonition's box-shadow: wait for the end of that transition, not its middle.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"() => {{ const s = ({style_of})(document.querySelector('.admonition.citesearch-landed'));"
            " return s.shadow.includes(s.accent); }",
            timeout=5000,
        )
    style = landed.evaluate(style_of)
    assert style["accent"] in style["shadow"], style  # the accent edge, not Material's plain admonition shadow
    assert min(contrasts(page, ".admonition.citesearch-landed mark.citesearch-term")) >= WCAG_AA


def test_slash_focuses_the_box_after_a_content_tab_was_clicked(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url + "setup/")
    page.get_by_text("Shell", exact=True).click()
    assert page.evaluate("document.activeElement.type") == "radio"  # the tab's own input has the focus
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "citesearch-input"
    # The palette toggle is a radio button too.
    page.locator("[data-md-component=palette] label:not([hidden])").click()
    page.keyboard.press("Escape")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "citesearch-input"


IN_VIEW = """selector => { const el = document.querySelector(selector);
    const box = el && el.getBoundingClientRect();
    return !!box && el.checkVisibility() && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight; }"""


def test_a_result_in_an_unselected_tab_selects_the_tab_and_scrolls_to_the_passage(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url)
    ask(page, "cormorant")
    link = page.locator(OPTIONS).first.locator("a")
    page.goto(link.evaluate("a => a.href"))  # a fresh load of the link, as from another site
    page.wait_for_function(IN_VIEW, arg=".tabbed-block mark.citesearch-term")
    assert page.evaluate("[...document.querySelectorAll('.tabbed-set > input')].map(i => i.checked)") == [False, True]


def test_a_link_into_a_closed_note_opens_it_and_scrolls_to_the_passage(material, page):  # type: ignore[no-untyped-def]
    _, url = material
    page.goto(url)
    ask(page, "nightjar")
    # The link as a reader copies it from the address bar, which drops the
    # `:~:text=` directive: Chromium's own opening of a closed <details> that
    # the directive points into does not run.
    link = page.locator(OPTIONS).first.locator("a").evaluate("a => a.href").split(":~:")[0]
    page.goto(link)
    page.wait_for_function(IN_VIEW, arg="details mark.citesearch-term")
    assert page.locator("details:has(mark.citesearch-term)").evaluate("d => d.open")
