"""The standalone theme on a 390 px phone: the results are a full-screen sheet, and the
box keeps its size when the language menu appears (issue 21.4)."""

from __future__ import annotations

import pytest

from browser_support import INPUT, OPTIONS, build_site, serve
from look_support import PANEL, ask, document_width, on_screen

pytestmark = pytest.mark.browser

BOX = "[data-citesearch]"
MENU = "[data-citesearch] .citesearch-lang"


@pytest.fixture
def phone(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_the_box_keeps_its_size_when_the_language_menu_appears(site_url, browser, viewport):  # type: ignore[no-untyped-def]
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(site_url + "index.html")
        before = page.locator(BOX + " .citesearch-field").bounding_box()
        page.locator(INPUT).focus()
        page.locator(MENU).wait_for(state="visible")  # the fixture site has three languages
        if width > 600:  # on a phone, focus opens the sheet: the size changes on purpose
            assert page.locator(BOX + " .citesearch-field").bounding_box() == before
        page.locator(INPUT).press_sequentially("install", delay=10)
        page.wait_for_function("() => document.querySelector('[data-citesearch]').dataset.citesearchQuery === 'install'")
        field = page.locator(BOX + " .citesearch-field").bounding_box()
        menu = page.locator(MENU).bounding_box()
        text = page.eval_on_selector(INPUT, "el => el.clientWidth - parseFloat(getComputedStyle(el).paddingRight)")
        assert menu["x"] >= field["x"] + text - 1  # the menu sits inside the field's end, past the typed text
        assert menu["x"] + menu["width"] <= field["x"] + field["width"] + 0.5
    finally:
        context.close()


def test_on_a_phone_the_results_are_a_full_screen_sheet_with_a_way_back(site_url, phone):  # type: ignore[no-untyped-def]
    phone.goto(site_url + "index.html")
    assert document_width(phone) <= 390
    ask(phone, "install")
    assert phone.locator(OPTIONS).count() > 0
    assert phone.locator(BOX).bounding_box() == {"x": 0, "y": 0, "width": 390, "height": 844}
    panel = phone.locator(PANEL).bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390 and panel["y"] + panel["height"] <= 844
    assert on_screen(phone, MENU, 390)
    assert document_width(phone) <= 390
    # The sheet scrolls on its own; the page behind it does not move.
    assert phone.evaluate("scrollY") == 0
    phone.locator(BOX + " .citesearch-close").tap()
    assert phone.locator(PANEL).is_hidden()
    assert phone.locator(BOX).bounding_box()["height"] < 100  # back in the header
    # A tap on a result lands on its passage, and the sheet gives way to the page,
    # also when the passage is on the page already shown (only the fragment changes).
    for _ in range(2):
        ask(phone, "install")
        phone.locator(OPTIONS).first.locator("a").tap()
        phone.wait_for_function("() => document.querySelector('.citesearch-landed')")
        assert phone.locator(PANEL).is_hidden()
        assert phone.locator(BOX).bounding_box()["height"] < 100


def test_on_a_desktop_the_results_stay_a_dropdown(page, site_url):  # type: ignore[no-untyped-def]
    page.goto(site_url + "index.html")
    ask(page, "install")
    box = page.locator(BOX).bounding_box()
    assert box["height"] < 100 and box["width"] < 1280
    assert page.locator(BOX + " .citesearch-close").is_hidden()


def test_a_link_into_a_classic_content_tab_selects_that_tab(tmp_path, page):  # type: ignore[no-untyped-def]
    """pymdownx.tabbed's classic markup (radio, label, panel in turn), in a standalone build."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "citesearch.yml").write_text("title: Tabs\nmarkdown_extensions:\n  - pymdownx.superfences\n"
                                            "  - pymdownx.tabbed:\n      alternate_style: false\n", encoding="utf-8")
    (content / "index.md").write_text('# Setup\n\nInstall the guide first.\n\n'
                                      '=== "Python"\n\n    Install the pelican package with pip.\n\n'
                                      '=== "Shell"\n\n    Run the cormorant command to count the birds.\n',
                                      encoding="utf-8")
    site = build_site(content, tmp_path / "site")
    with serve(site) as url:
        page.goto(url + "index.html")
        ask(page, "cormorant")
        link = page.locator(OPTIONS).first.locator("a").evaluate("a => a.href").split(":~:")[0]
        page.goto(link)
        page.wait_for_function("() => document.querySelector('.tabbed-content mark.citesearch-term')?.checkVisibility()")
        assert page.evaluate("[...document.querySelectorAll('.tabbed-set > input')].map(i => i.checked)") == [False, True]
