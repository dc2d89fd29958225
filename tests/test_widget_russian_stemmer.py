"""lunr.ru loads only for a query with a Russian word, even when the index
holds Russian terms: the Russian words of the texts an English query quotes
cannot match its terms (a term is of one script). Once a Russian query loads
it, no analysis made without it may be read again."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from browser_support import OPTIONS, build_site, cli_search, serve, shown_results, type_query

pytestmark = pytest.mark.browser

RUSSIAN_SCRIPTS = {"lunr.stemmer.support.min.js", "lunr.ru.min.js"}
LIMIT = 20
# One passage of an English page says the same in both languages.
MIXED = (
    "# Install notes\n\n"
    "Install the package with pip before the first run. "
    "Чтобы установить пакет, выполните команду pip в терминале.\n\n"
    "## Upgrades\n\nRun pip with the upgrade flag to upgrade the package.\n"
)


@pytest.fixture(scope="module")
def mixed_site(tmp_path_factory):  # type: ignore[no-untyped-def]
    content = tmp_path_factory.mktemp("mixed-scripts")
    (content / "citesearch.yml").write_text("title: Mixed\nlang: en\n", encoding="utf-8")
    (content / "install.md").write_text(MIXED, encoding="utf-8")
    (content / "other.md").write_text("# Other\n\nThe terminal shows the package list.\n", encoding="utf-8")
    site = build_site(content, tmp_path_factory.mktemp("mixed-scripts-site"))
    with serve(site) as url:
        yield site, url


def shown_as_cli(page, site, query: str) -> list[dict]:  # type: ignore[no-untyped-def]
    shown = shown_results(page)
    expected = cli_search(site, query, lang="en", limit=LIMIT)["results"]
    assert [(row["ref"], row["quote"]) for row in shown] == [
        (row["ref"], row["quote"]) for row in expected[: len(shown)]
    ]
    return shown


def test_an_english_query_on_an_index_with_russian_terms_quotes_without_the_russian_stemmer(page, mixed_site):
    site, url = mixed_site
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path.rsplit("/", 1)[-1]))
    page.goto(url + "install.html")
    type_query(page, "install package")
    first = shown_as_cli(page, site, "install package")[0]
    assert first["quote"] == "Install the package with pip before the first run."
    assert not RUSSIAN_SCRIPTS & set(requested)


def test_a_russian_query_after_an_english_one_stems_the_texts_the_english_one_analysed(page, mixed_site):
    site, url = mixed_site
    page.goto(url + "install.html")
    # The passage's text is analysed (its Russian words unstemmed) for this query...
    type_query(page, "install package")
    assert shown_results(page)[0]["quote"] == "Install the package with pip before the first run."
    # ...and again, stemmed, for a Russian one.
    type_query(page, "установить пакеты")
    first = shown_as_cli(page, site, "установить пакеты")[0]
    assert first["quote"] == "Чтобы установить пакет, выполните команду pip в терминале."
    assert first["marked"] == ["установить", "пакет"]


def test_landing_from_a_russian_query_marks_the_russian_words(page, mixed_site):
    _, url = mixed_site
    page.goto(url + "other.html")
    type_query(page, "установить пакеты")
    first = page.locator(OPTIONS).first
    anchor = first.get_attribute("data-ref").split("#", 1)[1]
    page.goto(first.locator("a").evaluate("a => a.href"))  # a new document: nothing loaded yet
    page.wait_for_selector("[data-citesearch-landed]")
    marked = page.locator(f'[data-chunk="{anchor}"] mark.citesearch-term').all_inner_texts()
    assert marked == ["установить", "пакет"]
