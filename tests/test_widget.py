"""The reader's search widget, end to end: the fixture site is built with the
real CLI, served on 127.0.0.1 and searched in headless Chromium."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from browser_support import (
    ARTIFACTS,
    INPUT,
    OPTIONS,
    VECTORS,
    build_site,
    cli_search,
    serve,
    shown_results,
    status_text,
    type_query,
    wait_for_answer,
)

pytestmark = pytest.mark.browser

WIDGET_LIMIT = 20  # results the widget shows (LIMIT in citesearch.js)
WIDGET_FIRST = 5  # results shown before the others' texts are in (FIRST in citesearch.js)
WIDGET_PAGES = 5  # pages rendered until "More results" (PAGES in citesearch.js)
REFINED_PAGES = 11  # pages ranking orders by their texts (engine/rank.py), whose texts come first


def quotes(page):  # type: ignore[no-untyped-def]
    return [row["quote"] for row in shown_results(page)]


def test_an_english_query_shows_the_sentence_that_answers_it(page, site_url):
    page.goto(site_url + "guide/install.html")
    type_query(page, "cache headers")
    first = shown_results(page)[0]
    assert first["ref"].startswith("guide/deploy#")
    assert first["quote"] == (
        "Set long cache headers for the hashed index files, since their names change whenever their content changes."
    )
    assert [word.lower() for word in first["marked"]] == ["cache", "headers"]
    assert first["heading"] == "Cache headers"
    assert re.fullmatch(r"\d+ results? in \d+ documents?\.", status_text(page))


def test_a_russian_query_on_a_russian_page_shows_the_russian_sentence(page, site_url):
    page.goto(site_url + "ru/ustanovka.html")
    type_query(page, "установить пакет")
    assert page.locator("[data-citesearch] select").input_value() == "ru"
    first = shown_results(page)[0]
    assert first["ref"].startswith("ru/ustanovka#")
    assert first["quote"] == "Чтобы установить пакет, выполните команду pip в терминале."
    assert first["marked"] == ["установить", "пакет"]
    # The widget speaks the page's language.
    assert re.fullmatch(r"Найдено результатов: \d+, документов: 1\.", status_text(page))
    assert page.locator("label[for=citesearch-input]").inner_text() == "Поиск по документации"


def test_a_chinese_query_shows_the_chinese_sentence(page, site_url):
    page.goto(site_url + "zh/anzhuang.html")
    type_query(page, "虚拟环境")
    first = shown_results(page)[0]
    assert first["ref"].startswith("zh/anzhuang#")
    assert first["quote"] == "首先为项目创建一个虚拟环境。"
    assert "".join(first["marked"]) == "虚拟环境"
    assert re.fullmatch(r"\d+ 条结果，来自 1 篇文档。", status_text(page))


def test_clicking_a_result_lands_on_the_passage_with_the_chunk_highlighted(page, site_url):
    page.goto(site_url + "index.html")
    type_query(page, "upgrade flag")
    first = page.locator(OPTIONS).first
    ref = first.get_attribute("data-ref")
    anchor = ref.split("#", 1)[1]
    href = first.locator("a").get_attribute("href")
    assert f"#{anchor}:~:text=To%20upgrade%20an%20existing%20installation%2C" in href
    first.locator("a").click()
    page.wait_for_url("**/guide/install.html?*")
    url = urlsplit(page.url)
    assert parse_qs(url.query)["h"] == ["upgrade flag"]
    assert page.evaluate("location.hash") == "#" + anchor
    page.wait_for_selector("[data-citesearch-landed]")
    blocks = page.locator(f'[data-chunk="{anchor}"]')
    assert blocks.count() >= 1
    for i in range(blocks.count()):
        assert "citesearch-landed" in blocks.nth(i).get_attribute("class")
    marked = page.locator(f'[data-chunk="{anchor}"] mark.citesearch-term').all_inner_texts()
    # Every occurrence in the passage: "To upgrade ..., run pip with the upgrade flag."
    assert [word.lower() for word in marked] == ["upgrade", "upgrade", "flag"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "widget-landing-desktop.png")
    # The landed passage is on screen.
    assert page.evaluate(
        "a => { const r = document.getElementById(a).getBoundingClientRect();"
        " return r.top >= 0 && r.top < innerHeight; }",
        anchor,
    )


def test_keyboard_alone_focuses_the_box_moves_through_results_and_opens_one(page, site_url):
    page.goto(site_url + "index.html")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "citesearch-input"
    page.keyboard.type("install")
    wait_for_answer(page, "install")
    box = page.locator(INPUT)
    assert box.get_attribute("aria-expanded") == "true"
    assert box.get_attribute("aria-controls") == page.locator("[role=listbox]").get_attribute("id")
    # The count is announced by a live region that is never inside a hidden container.
    live = page.locator("[data-citesearch] [role=status][aria-live=polite]")
    assert re.fullmatch(r"\d+ results? in \d+ documents?\.", live.text_content())
    assert live.evaluate("node => !node.closest('[hidden]')")
    assert box.get_attribute("aria-activedescendant") is None
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    second = page.locator(OPTIONS).nth(1)
    assert box.get_attribute("aria-activedescendant") == second.get_attribute("id")
    assert second.get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowUp")
    first = page.locator(OPTIONS).nth(0)
    assert box.get_attribute("aria-activedescendant") == first.get_attribute("id")
    page.keyboard.press("Escape")
    assert page.locator("[data-citesearch] .citesearch-panel").is_hidden()
    assert box.get_attribute("aria-expanded") == "false"
    assert box.input_value() == "install"
    page.keyboard.press("Escape")  # a second Escape clears the box
    assert box.input_value() == ""
    page.keyboard.type("install")
    wait_for_answer(page, "install")
    # Ctrl-K focuses the box from anywhere, even from another field.
    page.keyboard.press("Shift+Tab")  # back to the site title: focus leaves the widget, the panel closes
    assert page.evaluate("document.activeElement.id") != "citesearch-input"
    assert page.locator("[data-citesearch] .citesearch-panel").is_hidden()
    page.keyboard.press("Control+k")
    assert page.evaluate("document.activeElement.id") == "citesearch-input"
    page.keyboard.press("ArrowDown")
    expected = page.locator(OPTIONS).first.locator("a").get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(expected.split("#")[0] + "*")
    page.wait_for_selector("[data-citesearch-landed]")


def test_the_query_in_the_url_restores_the_search_after_reload(page, site_url):
    page.goto(site_url + "guide/configure.html")
    type_query(page, "language filter")
    before = shown_results(page)
    # Written at a pause in typing (citesearch.js `scheduleUrl`).
    page.wait_for_url(lambda url: parse_qs(urlsplit(url).query).get("q") == ["language filter"])
    page.reload()
    wait_for_answer(page, "language filter")
    assert page.locator(INPUT).input_value() == "language filter"
    assert shown_results(page) == before


def test_markup_inside_documents_is_shown_as_text_and_never_runs(page, site_url):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(site_url + "index.html")
    type_query(page, "payload")
    shown = " ".join(quote or "" for quote in quotes(page))
    assert "<img src=x onerror=alert(1)>" in shown
    assert "<script>alert(1)</script>" in shown
    assert page.locator("[data-citesearch] [role=listbox] img, [data-citesearch] [role=listbox] script").count() == 0
    # Land on the passage too: the landing marks must not turn text into markup.
    page.locator(OPTIONS).first.locator("a").click()
    page.wait_for_selector("[data-citesearch-landed]")
    assert page.locator("main img, main script").count() == 0
    page.wait_for_timeout(300)
    assert dialogs == []


def test_a_query_nothing_answers_says_so_and_offers_a_retry(page, site_url):
    page.goto(site_url + "index.html")
    type_query(page, "xylophone zeppelin")
    assert status_text(page) == "Nothing in these documents answers “xylophone zeppelin”."
    assert page.locator(OPTIONS).count() == 0
    retry = page.locator("[data-citesearch] .citesearch-retry button")
    assert "Search all languages" in retry.all_inner_texts()


def test_a_misspelled_query_says_nothing_matches_exactly_and_offers_the_spelling(page, site_url):
    page.goto(site_url + "index.html")
    type_query(page, "upgrde")
    assert status_text(page) == "Nothing matches “upgrde” exactly."
    # Sections with words one edit away are not passed off as answers.
    assert page.locator(OPTIONS).count() == 0
    assert page.locator("[data-citesearch] .citesearch-suggestion").inner_text() == "upgrade"


def test_searching_all_languages_finds_passages_in_other_languages(page, site_url):
    page.goto(site_url + "index.html")
    type_query(page, "установить")
    assert page.locator(OPTIONS).count() == 0
    page.get_by_role("button", name="Search all languages").click()
    page.wait_for_function("document.querySelectorAll('[role=option]').length > 0")
    assert page.locator("[data-citesearch] select").input_value() == "*"
    assert shown_results(page)[0]["ref"].startswith("ru/ustanovka#")


def test_an_index_that_cannot_be_fetched_gives_a_clear_message(page, site_url):
    page.route("**/search/manifest.json", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    page.locator(INPUT).click()
    message = page.locator("[data-citesearch] .citesearch-status")
    message.wait_for()
    assert message.inner_text().startswith("Search is unavailable: could not fetch ")
    assert "manifest.json (HTTP 404)" in message.inner_text()


def test_a_manifest_of_an_unknown_format_is_refused(page, site_url, built_site):
    manifest = json.loads((built_site / "search" / "manifest.json").read_text())
    manifest["format"] = 99
    page.route("**/search/manifest.json", lambda route: route.fulfill(json=manifest))
    page.goto(site_url + "index.html")
    page.locator(INPUT).click()
    page.locator("[data-citesearch] .citesearch-status").wait_for()
    assert "format 99 is not supported" in status_text(page)


def test_a_page_opened_from_disk_explains_that_search_needs_http(page, built_site):
    page.goto((built_site / "guide" / "install.html").as_uri())
    page.locator(INPUT).click()
    note = page.locator("[data-citesearch] .citesearch-offline")
    assert note.is_visible()
    assert "served over HTTP" in note.inner_text()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_results_list_fits_a_desktop_and_a_phone_screen(browser, site_url, scheme):
    ARTIFACTS.mkdir(exist_ok=True)
    screens = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}
    for name, viewport in screens.items():
        context = browser.new_context(viewport=viewport, color_scheme=scheme, is_mobile=name == "phone")
        page = context.new_page()
        page.goto(site_url + "index.html")
        type_query(page, "install")
        panel = page.locator("[data-citesearch] .citesearch-panel")
        box = panel.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.screenshot(path=ARTIFACTS / f"widget-results-{name}-{scheme}.png")
        context.close()


@pytest.mark.parametrize("finished", [False, True], ids=["while-typing", "word-finished"])
@pytest.mark.parametrize("vector", json.loads(VECTORS.read_text()), ids=lambda vector: vector["query"])
def test_the_widget_returns_the_same_refs_and_quotes_as_the_command_line(page, site_url, built_site, vector, finished):
    # While typing, the last word is also a prefix (the CLI's default); a
    # space after it finishes the word, as `--exact` does.
    expected = cli_search(built_site, vector["query"], lang=vector["lang"], limit=WIDGET_LIMIT, exact=finished)
    status = vector["status"]  # one status, or one per mode
    if isinstance(status, dict):
        status = status["word-finished" if finished else "while-typing"]
    assert expected["status"] == status, "the vector no longer exercises what it says"
    page.goto(site_url + vector["page"])
    type_query(page, vector["query"] + (" " if finished else ""))
    assert page.locator("[data-citesearch]").get_attribute("data-citesearch-status") == expected["status"]
    widget = [(row["ref"], row["quote"], row["marked"]) for row in shown_results(page)]
    if expected["fuzzy"]:  # no exact match: the widget offers a spelling, not the fuzzy hits
        assert widget == [] and page.locator("[data-citesearch] .citesearch-suggestion").count() == 1
        return
    cli = [
        (row["ref"], row["quote"], [row["quote"][start:end] for start, end in row["marks"]])
        for row in expected["results"] if row["page"] < WIDGET_PAGES  # later pages wait for "More results"
    ]
    assert widget == cli


def test_following_a_result_on_the_same_page_moves_the_highlight(page, site_url):
    page.goto(site_url + "guide/install.html")
    first = page.locator("[id^='upgrade--']").get_attribute("id")
    second = page.locator("[id^='install-with-pip--']").get_attribute("id")
    page.goto(f"{site_url}guide/install.html?h=pip#{first}")
    page.wait_for_selector(f"[data-citesearch-landed='{first}']")
    assert page.locator(f'[data-chunk="{first}"] mark.citesearch-term').all_inner_texts() == ["pip"]
    page.evaluate("anchor => { location.hash = anchor; }", second)  # same document: no reload
    page.wait_for_selector(f"[data-citesearch-landed='{second}']")
    assert page.locator(f'[data-chunk="{first}"].citesearch-landed, [data-chunk="{first}"] mark').count() == 0
    assert page.locator(f'[data-chunk="{second}"] mark.citesearch-term').all_inner_texts() == ["pip"]
    assert page.locator(f'[data-chunk="{first}"]').first.inner_text().startswith("To upgrade an existing installation")


def paths_requested_from(page, url: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The paths the page asks for, from its load on (the list grows); nothing of the search loads with the page."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    assert not [path for path in requested if "/search/" in path or "/vendor/" in path]
    return requested


def test_search_files_load_only_on_first_focus_and_text_only_for_shown_documents(page, site_url):
    requested = paths_requested_from(page, site_url + "index.html")
    # Pasted, one search (typed key by key, each prefix shows its own results and texts).
    page.locator(INPUT).click()
    page.locator(INPUT).fill("cache headers")
    wait_for_answer(page, "cache headers")
    loaded = {path.rsplit("/", 1)[-1] for path in requested}
    assert {"manifest.json", "lunr.min.js"} <= loaded
    # English words, an index without Russian terms: lunr's Russian stemmer is not loaded.
    assert not {"lunr.stemmer.support.min.js", "lunr.ru.min.js"} & loaded
    terms = [path for path in requested if "/search/terms." in path]
    assert terms and all("/search/terms.en." in path for path in terms), "only the page language's terms are fetched"
    # Typo tolerance is always on: the dictionary files of the query's word lengths, of its language only.
    assert all("/search/dict.en." in path for path in requested if "/search/dict." in path)
    # Texts: at most a file per shown passage (chunk lists, which name the files, apart).
    chunk_files = [path for path in requested if "/search/chunks/" in path and "/chunks/list." not in path]
    passages = page.locator("[data-citesearch] [role=listbox] [role=option]").count()
    assert 0 < len(chunk_files) == len(set(chunk_files)) <= passages


def test_an_index_built_by_another_analyzer_is_flagged_in_the_console(page, site_url, built_site):
    manifest = json.loads((built_site / "search" / "manifest.json").read_text())
    manifest["analyzer"] = {**manifest["analyzer"], "version": "0-other"}
    page.route("**/search/manifest.json", lambda route: route.fulfill(json=manifest))
    warnings: list[str] = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    page.goto(site_url + "index.html")
    type_query(page, "cache headers")
    assert any("0-other" in warning and "analyzer" in warning for warning in warnings)
    assert shown_results(page), "a mismatch is a warning, not a refusal"


def test_every_widget_module_is_fetched_with_the_build_version_so_a_redeploy_never_mixes_old_and_new(page, site_url):
    page.goto(site_url + "guide/install.html")
    type_query(page, "install")
    wait_for_answer(page, "install")
    scripts = page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name).filter(n => /\\/assets\\/[^/]+\\.js/.test(n))"
    )
    assert {url.split("/assets/")[1].split("?")[0] for url in scripts} >= {
        "citesearch.js", "widget-engine.js", "widget-view.js", "analyzer.js", "query.js", "quote.js"
    }
    assert all("?v=" in url for url in scripts), scripts


def box_modules():  # type: ignore[no-untyped-def]
    """The entry module and its static imports: what the box needs to work (and the theme's nav.js, loaded beside)."""
    from citesearch.assets import widget_assets
    from citesearch.pipeline.render import PAGE_MODULES, theme_dir

    return (*widget_assets(theme_dir()).preloads, *PAGE_MODULES)


def test_the_head_preloads_the_box_modules_and_the_search_modules_load_on_first_focus(page, site_url, built_site):
    html = (built_site / "guide" / "install.html").read_text(encoding="utf-8")
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    box = box_modules()
    assert "citesearch.js" in box and "widget-engine.js" in box and "analyzer.js" not in box
    assert sorted(url.split("assets/")[1].split("?")[0] for url in preloaded) == sorted(box)
    assert len({url.split("?")[1] for url in preloaded}) == 1  # every one stamped with the build's version
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site_url + "guide/install.html")
    page.wait_for_load_state("networkidle")
    modules = sorted(url.split("/assets/")[1] for url in requested if re.search(r"/assets/[^/]+\.js\?", url))
    # Before any search: the box's modules only, each once (preloads and imports resolve to the same URL).
    assert modules == sorted(url.split("assets/")[1] for url in preloaded)
    type_query(page, "install")
    again = sorted(url.split("/assets/")[1] for url in requested if re.search(r"/assets/[^/]+\.js", url))
    from citesearch.assets import widget_assets
    from citesearch.pipeline.render import theme_dir

    stamp = preloaded[0].split("?")[1]
    landing = "widget-landing.js"  # fetched only by a page opened from a result
    expected = sorted(f"{name}?{stamp}" for name in widget_assets(theme_dir()).modules if name != landing)
    assert again == expected, "each module once, stamped"
    page.goto(site_url + "guide/install.html?h=install#install")
    page.wait_for_load_state("networkidle")
    assert f"{landing}?{stamp}" in [url.split("/assets/")[1] for url in requested if "/assets/" in url]


def test_a_query_typed_before_the_widget_script_runs_is_searched_when_it_does(page, site_url):
    held = []
    page.route("**/assets/citesearch.js*", lambda route: held.append(route))
    # The page is parsed and shows the box while the widget's script is still on its way.
    page.goto(site_url + "index.html", wait_until="domcontentloaded")
    page.locator(INPUT).fill("cache headers")
    page.wait_for_timeout(300)
    assert held and page.locator("[data-citesearch]").get_attribute("data-ready") is None
    held[0].continue_()
    wait_for_answer(page, "cache headers")
    assert shown_results(page)


def test_a_pointer_over_the_box_starts_loading_the_search_before_it_is_focused(page, site_url):
    requested = paths_requested_from(page, site_url + "index.html")
    page.locator(INPUT).hover()
    page.wait_for_load_state("networkidle")
    loaded = {path.rsplit("/", 1)[-1] for path in requested}
    assert {"manifest.json", "lunr.min.js", "analyzer.js", "shards.js"} <= loaded
    assert not [path for path in requested if "/search/terms." in path], "no query yet: no term file"
    assert page.evaluate("document.activeElement.id") != "citesearch-input"
    type_query(page, "cache headers")
    assert shown_results(page)


MANY_PASSAGES = 24  # more pages than the first screen ranking reads (REFINED_PAGES), in several text files


@pytest.fixture(scope="module")
def many_results_site(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Documents whose passages about lighthouses fill several text files."""
    content = tmp_path_factory.mktemp("many-results")
    for n in range(MANY_PASSAGES):
        # The first documents say the word more often: they rank first.
        mentions = " ".join(["The lighthouse keeper climbs the stairs."] * max(1, 6 - n))
        filler = " ".join(f"Sentence {i} of document {n} describes the harbour wall." for i in range(8))
        (content / f"doc{n:02}.md").write_text(f"# Document {n}\n\n{mentions} {filler}\n", encoding="utf-8")
    site = build_site(content, tmp_path_factory.mktemp("many-results-site"))
    with serve(site) as url:
        yield site, url


def chunk_file_of_each_ref(site):  # type: ignore[no-untyped-def]
    from citesearch.engine.shards import chunk_file

    entry = json.loads((site / "search" / "manifest.json").read_text())["languages"]["en"]
    files = {}
    for ref in range(entry["chunks_count"]):
        name = chunk_file(entry["chunks"], ref, lambda n: json.loads((site / "search" / n).read_text()))
        data = json.loads((site / "search" / name).read_text())
        doc_index, anchor, *_ = data["chunks"][ref - data["first"]]
        files[f"{data['docs'][doc_index][0]}#{anchor}"] = name
    return files


def test_the_top_results_show_before_the_texts_of_lower_ranked_ones_arrive(page, many_results_site):
    site, url = many_results_site
    expected = cli_search(site, "lighthouse", lang="en", limit=WIDGET_LIMIT)
    refs = [row["ref"] for row in expected["results"]]
    files = chunk_file_of_each_ref(site)
    # Ranking reads the texts of the first screen of pages (rank.REFINED_PAGES); the later pages' wait.
    first_screen = [row["ref"] for row in expected["results"] if row["page"] < REFINED_PAGES]
    first_files = {files[ref] for ref in first_screen}
    later_files = {files[ref] for ref in refs[len(first_screen):]} - first_files
    assert len(refs) > WIDGET_FIRST and later_files, "the query no longer needs texts beyond the top results'"
    held = []

    def hold_later_chunks(route):  # type: ignore[no-untyped-def]
        if urlsplit(route.request.url).path.split("/search/", 1)[1] in later_files:
            held.append(route)
        else:
            route.continue_()

    page.route("**/search/chunks/*", hold_later_chunks)
    page.goto(url + "doc00.html")
    page.locator(INPUT).click()
    page.locator(INPUT).fill("lighthouse")  # one search: typing key by key answers each prefix
    page.wait_for_function(f"document.querySelectorAll({json.dumps(OPTIONS)}).length === {WIDGET_FIRST}")
    assert [row["ref"] for row in shown_results(page)] == refs[:WIDGET_FIRST]
    assert held, "lower-ranked chunk files were asked for and are still held back"
    # Not yet the answer: no count is announced, scripts waiting for it keep waiting.
    assert page.locator("[data-citesearch]").get_attribute("data-citesearch-query") is None
    assert page.locator("[data-citesearch] [role=status]").text_content() == ""
    for route in held:
        route.continue_()
    wait_for_answer(page, "lighthouse")
    shown = shown_results(page)
    rendered = [row for row in expected["results"] if row["page"] < WIDGET_PAGES]  # the rest: "More results"
    assert len(refs) > len(rendered)
    assert [row["ref"] for row in shown] == [row["ref"] for row in rendered]
    assert [row["quote"] for row in shown] == [row["quote"] for row in rendered]
    assert page.locator("[data-citesearch] .citesearch-more").is_visible()


def test_an_input_event_that_leaves_the_text_unchanged_does_not_restart_the_search(page, site_url):
    page.goto(site_url + "index.html")
    type_query(page, "install")
    before = shown_results(page)
    # A search needs no fetch here (every file is cached): had the event scheduled
    # one, it would have answered by the time a longer timer, set after it, fires.
    answered = page.evaluate("""async () => {
        const box = document.querySelector('[data-citesearch]');
        delete box.dataset.citesearchQuery;
        box.querySelector('input').dispatchEvent(new Event('input', {bubbles: true}));
        await new Promise(resolve => setTimeout(resolve, 1000));
        return box.dataset.citesearchQuery ?? null;
    }""")
    assert answered is None
    assert shown_results(page) == before


def test_mkdocs_pages_preload_the_box_modules_at_the_urls_the_modules_import():
    from citesearch.mkdocs_plugin import Widget

    widget = Widget.load("assets/citesearch", "search")
    html = widget.inject("<html><head></head><body><main></main></body></html>", "../", "en")
    assert "importmap" not in html  # the modules import each other stamped with the version
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    # A preload is used only if its URL is the very one imported: stamped like the page's script.
    assert all(url.endswith(f"?v={widget.tags.version}") for url in preloaded)
    # The box's modules; not the standalone theme's nav.js, which MkDocs pages never load.
    from citesearch.assets import widget_assets
    from citesearch.pipeline.render import theme_dir

    assert sorted(url.split("citesearch/")[1].split("?")[0] for url in preloaded) == sorted(widget_assets(theme_dir()).preloads)
