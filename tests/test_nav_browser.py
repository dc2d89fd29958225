"""The site nav in Chromium: a big site's nav by keyboard, the phone menu, the theme's words and its icon.

The site is generated: more pages in one folder than a page lists whole, so
the nav is the bounded one, plus a small Russian and Chinese part.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import QuietHandler, build_site, serve
from citesearch.pipeline import nav

pytestmark = pytest.mark.browser

PAGES = nav.FULL_LIMIT + 40


@pytest.fixture(scope="module")
def nav_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    content = tmp_path_factory.mktemp("nav") / "content"
    (content / "cmd").mkdir(parents=True)
    (content / "ru").mkdir()
    (content / "zh").mkdir()
    (content / "index.md").write_text("# Home\n\nWelcome.\n", encoding="utf-8")
    for n in range(PAGES):
        (content / "cmd" / f"c{n:04d}.md").write_text(f"# Command {n}\n\nRun command {n}.\n\n## Usage\n\nText.\n",
                                                      encoding="utf-8")
    (content / "ru" / "index.md").write_text("---\nlang: ru\n---\n# Главная\n\nТекст.\n\n## Раздел\n\nЕщё.\n", encoding="utf-8")
    (content / "zh" / "index.md").write_text("---\nlang: zh\n---\n# 首页\n\n文本。\n\n## 部分\n\n更多。\n", encoding="utf-8")
    return build_site(content, content.parent / "site")


@pytest.fixture(scope="module")
def nav_url(nav_site: Path):  # type: ignore[no-untyped-def]
    with serve(nav_site) as url:
        yield url


def test_the_nav_of_a_big_folder_is_reachable_by_keyboard_and_leads_to_the_folder_listing(page, nav_url):
    page.goto(nav_url + "cmd/c0100.html")
    assert page.locator(".site-nav a").count() < 40  # not the 240 pages
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.getAttribute('href') || document.activeElement.tagName"))
        if reached[-1] == "~index.html":  # links in the page's own folder are relative to it
            break
    assert "c0100.html" in reached  # the current page, with its neighbours
    assert reached[-1] == "~index.html", reached
    page.keyboard.press("Enter")
    page.wait_for_url("**/cmd/~index.html")
    assert page.locator("main .doc-list a").count() == nav.LISTING_SIZE
    page.locator("a[rel=next]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/cmd/~index-2.html")
    assert page.locator("main .doc-list a").count() == PAGES - nav.LISTING_SIZE


def test_on_a_phone_the_nav_is_behind_a_menu_button_that_opens_and_closes_by_keyboard(browser, nav_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(nav_url + "cmd/c0100.html")
        button = page.locator(".nav-toggle")
        assert button.is_visible() and button.inner_text() == "Menu"
        assert not page.locator(".site-nav").is_visible()
        assert page.evaluate("document.documentElement.scrollHeight") < 1200  # the content comes first
        button.focus()
        page.keyboard.press("Enter")
        assert button.get_attribute("aria-expanded") == "true"
        current = page.locator('.site-nav a[aria-current="page"]')
        assert current.is_visible()
        box = current.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        current.focus()
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
        assert not page.locator(".site-nav").is_visible()
        assert page.evaluate("document.activeElement.className") == "nav-toggle"
    finally:
        context.close()


def test_on_a_desktop_the_nav_is_open_and_the_menu_button_hidden(page, nav_url):
    page.goto(nav_url + "index.html")
    assert page.locator(".site-nav").is_visible()
    assert not page.locator(".nav-toggle").is_visible()


@pytest.mark.parametrize(("path", "skip", "toc", "menu"), [
    ("ru/index.html", "Перейти к содержанию", "На этой странице", "Меню"),
    ("zh/index.html", "跳到正文", "本页内容", "菜单"),
    ("cmd/c0001.html", "Skip to content", "On this page", "Menu"),
])
def test_the_theme_speaks_the_page_language(page, nav_url, path, skip, toc, menu):
    page.goto(nav_url + path)
    assert page.locator(".skip-link").text_content() == skip
    assert page.locator(".page-toc-title").text_content() == toc
    assert page.locator(".nav-toggle").text_content() == menu


class RecordingHandler(QuietHandler):
    """Records every request the server answers, with its status: Playwright does not report favicon fetches."""

    answered: list[tuple[int, str]] = []

    def log_request(self, code: object = "-", size: object = "-") -> None:
        self.answered.append((int(getattr(code, "value", code)), self.path))


def test_no_page_asks_for_a_file_the_site_does_not_have(page, nav_site):
    RecordingHandler.answered = []
    with serve(nav_site, RecordingHandler) as url:
        for path in ("index.html", "cmd/c0003.html", "cmd/~index.html", "ru/index.html", "404.html"):
            page.goto(url + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)  # the icon is fetched after the load
    missing = [path for code, path in RecordingHandler.answered if code >= 400]
    assert missing == []
    assert any(path.startswith("/assets/favicon.svg") for _, path in RecordingHandler.answered)
