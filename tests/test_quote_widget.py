"""The results list in headless Chromium: grouped by page with "N more on this
page", "More results" beyond the first screen, an honest empty state with
"Did you mean", one-letter queries, and quotes of code and tables shown as
code lines and as a header row above the matching row."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import INPUT, OPTIONS, build_site, cli_search, serve, shown_results, status_text, type_query

pytestmark = pytest.mark.browser

BEACON_PAGES = 30  # pages with one passage about beacons, beside the page with many
MANY = 6  # passages about beacons on beacons.md

CODE_PAGE = """# Typer apps

Write the version beside the app.

```python
import typer

app = typer.Typer()
    __version__ = "0.1.0"
print("<img src=x onerror=alert(1)>")
```
"""

TABLE_PAGE = """# Anchors

What each edit does to the anchors of a page.

| Edit | Effect on anchors |
|------|-------------------|
| Add a section | None |
| Rename a heading | Its passages move to new slugs |
"""


@pytest.fixture(scope="module")
def results_site(tmp_path_factory):  # type: ignore[no-untyped-def]
    content = tmp_path_factory.mktemp("results-content")
    sections = "\n\n".join(f"## Tower {n}\n\nThe beacon of tower {n} burns at night." for n in range(MANY))
    (content / "beacons.md").write_text(f"# Beacons\n\n{sections}\n", encoding="utf-8")
    for n in range(BEACON_PAGES):
        (content / f"coast{n:02}.md").write_text(
            f"# Coast {n}\n\nA beacon stands on coast {n}. Ships sail past the harbour wall.\n", encoding="utf-8"
        )
    (content / "typer.md").write_text(CODE_PAGE, encoding="utf-8")
    (content / "anchors.md").write_text(TABLE_PAGE, encoding="utf-8")
    (content / "deploy.md").write_text("# Deploy\n\nInstall the helm chart on the cluster.\n", encoding="utf-8")
    (content / "citesearch.yml").write_text("title: Results\nlang: en\n", encoding="utf-8")
    site = build_site(content, tmp_path_factory.mktemp("results-site"))
    with serve(site) as url:
        yield site, url


def visible_options(page):  # type: ignore[no-untyped-def]
    return page.locator(f"{OPTIONS}:visible")


def test_a_page_shows_three_passages_and_opens_the_rest_on_demand(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    type_query(page, "beacon tower")
    first_group = page.locator("[data-citesearch] .citesearch-group").first
    assert first_group.locator(".citesearch-doc").inner_text() == "Beacons"
    assert first_group.locator("[role=option]:visible").count() == 3
    more = first_group.locator(".citesearch-more-here")
    assert more.inner_text() == f"{MANY - 3} more on this page"
    # The other pages follow right after the three, not after six weak ones.
    assert page.locator("[data-citesearch] .citesearch-group:visible").count() > 1
    more.click()
    # The other passages' texts may still be on their way (chunk files of 2 passages).
    expect(first_group.locator("[role=option]:visible")).to_have_count(MANY)
    assert not first_group.locator(".citesearch-more-here").is_visible()
    assert page.locator(INPUT).evaluate("node => node === document.activeElement")


def test_more_results_go_past_the_first_screen_until_every_page_is_shown(page, results_site):
    site, url = results_site
    expected = cli_search(site, "beacon", lang="en", limit=200)
    pages = list(dict.fromkeys(row["doc_id"] for row in expected["results"]))
    assert len(expected["results"]) > 20 and len(pages) > 20  # more than the old silent cap
    page.goto(url + "index.html")
    type_query(page, "beacon")
    groups = page.locator("[data-citesearch] .citesearch-group:visible")
    assert groups.count() == 5
    more = page.locator("[data-citesearch] .citesearch-more")
    clicks = 0
    while more.is_visible():
        shown = groups.count()
        more.click()
        page.wait_for_function(
            "n => document.querySelectorAll('[data-citesearch] .citesearch-group:not([hidden])').length > n", arg=shown
        )
        clicks += 1
        assert clicks < 20
    shown_pages = page.eval_on_selector_all(
        "[data-citesearch] .citesearch-group", "nodes => nodes.map(n => n.dataset.page.split(':')[1])"
    )
    assert shown_pages == pages  # every page, best first, in the command line's order
    # Keyboard navigation reaches the revealed results too.
    page.locator(INPUT).press("ArrowUp")
    last = page.locator(f"{OPTIONS}[aria-selected=true]")
    assert last.get_attribute("data-ref").split("#")[0] == pages[-1]


def test_no_exact_match_says_so_and_offers_the_index_spelling(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    type_query(page, "helmm chrt")
    assert status_text(page) == "Nothing matches “helmm chrt” exactly."
    assert page.locator(OPTIONS).count() == 0  # no fuzzy hits passed off as results
    suggestion = page.locator("[data-citesearch] .citesearch-suggestion")
    assert suggestion.inner_text() == "helm chart"
    assert suggestion.locator("em").all_inner_texts() == ["helm", "chart"]
    assert page.locator("[data-citesearch] .citesearch-retry").inner_text().startswith("Did you mean helm chart?")
    suggestion.click()
    page.wait_for_function("document.querySelector('[data-citesearch]').dataset.citesearchQuery === 'helm chart'")
    assert page.locator(INPUT).input_value() == "helm chart"
    first = shown_results(page)[0]
    assert first["quote"] == "Install the helm chart on the cluster."


def test_a_one_letter_query_highlights_whole_words_only(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    for query in ("a", "b"):
        type_query(page, query)
        rows = shown_results(page)
        if query == "a":
            assert rows and all(row["marked"] for row in rows)  # "A beacon stands on coast 0."
        for row in rows:
            quote = row["quote"] or ""
            for word in row["marked"]:
                assert word.lower() == query, (row, word)
            # Every marked letter stands alone: no letters of a longer word are marked.
            marks = page.eval_on_selector_all(
                f"{OPTIONS}[data-ref='{row['ref']}'] mark",
                "ms => ms.map(m => [m.previousSibling?.textContent.slice(-1) || '', m.nextSibling?.textContent[0] || ''])",
            )
            for before, after in marks:
                assert not before.isalpha() and not after.isalpha(), (quote, before, after)


def test_code_is_quoted_as_its_lines_in_monospace(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    type_query(page, "typer version")
    first = page.locator(OPTIONS).first
    code = first.locator("pre.citesearch-code code")
    assert code.count() == 1
    assert code.inner_text() == 'import typer\n\napp = typer.Typer()\n    __version__ = "0.1.0"'
    assert "monospace" in code.evaluate("node => getComputedStyle(node).fontFamily")
    assert code.locator("mark").all_inner_texts() == ["typer", "typer", "Typer", "version"]


def test_markup_inside_a_code_quote_stays_text(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    type_query(page, "onerror alert")
    code = page.locator(OPTIONS).first.locator("pre.citesearch-code")
    assert code.inner_text() == 'print("<img src=x onerror=alert(1)>")'
    assert page.locator("[data-citesearch] img").count() == 0
    page.wait_for_timeout(200)
    assert dialogs == []


def test_a_table_row_is_quoted_under_its_header_row(page, results_site):
    _, url = results_site
    page.goto(url + "index.html")
    type_query(page, "rename passages")
    table = page.locator(OPTIONS).first.locator("table.citesearch-table")
    assert table.locator("thead th").all_inner_texts() == ["Edit", "Effect on anchors"]
    assert table.locator("tbody td").all_inner_texts() == ["Rename a heading", "Its passages move to new slugs"]
    assert table.locator("mark").all_inner_texts() == ["Rename", "passages"]
