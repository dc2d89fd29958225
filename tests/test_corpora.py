"""Real, messy Markdown: the shared corpora build, and search answers readers in three languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citesearch import build
from citesearch.engine.search import SiteSearch
from conftest import corpus

pytestmark = pytest.mark.corpus


def refs(site: Path, query: str, limit: int = 50, lang: str | None = None) -> list[str]:
    """Every passage found on the first ``limit`` pages.  Not only the three
    shown a page: which of its first passages show depends on the words as
    typed (``forms``), which differ between the word forms compared here."""
    found = SiteSearch(site).search(query, limit=limit, lang=lang, prefix=False, per_page=10_000)
    return [r.ref for r in found.results]


def test_rust_rfcs_build(tmp_path):
    result = build(corpus("rust-rfcs"), tmp_path / "site")
    assert result.documents > 600
    assert result.chunks > 10_000
    assert SiteSearch(tmp_path / "site").search("trait objects").status == "supported"


def test_fastapi_english_builds_and_answers_with_a_quote(fastapi_sites):
    answer = SiteSearch(fastapi_sites["en"]).search("path parameters", prefix=False)
    assert answer.status == "supported"
    assert answer.results[0].doc_id.startswith("tutorial/path-params")
    assert answer.results[0].quote and "path parameter" in answer.results[0].quote.lower()


# --- Russian ---------------------------------------------------------------------------------------

def test_russian_word_forms_return_the_same_chunks(fastapi_sites):
    site = fastapi_sites["ru"]
    forms = [sorted(refs(site, q)) for q in ("параметр", "параметров", "параметры")]
    assert forms[0] and forms[0] == forms[1] == forms[2]


def test_yo_and_ye_spellings_return_the_same_results(fastapi_sites):
    site = fastapi_sites["ru"]
    assert refs(site, "развёртывание") == refs(site, "развертывание") != []


def test_a_hyphenated_mixed_script_query_works(fastapi_sites):
    site = fastapi_sites["ru"]
    found = SiteSearch(site).search("query-параметры", prefix=False)
    assert found.status == "supported"
    assert any("query" in (r.quote or "").lower() and "параметр" in (r.quote or "").lower() for r in found.results)


# --- Chinese ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "query,page",
    [
        ("路径参数", "tutorial/path-params"),
        # A one-term query ties on every criterion of the first stage but the last (page BM25, where a longer
        # page using the term as often wins); `title` (the page title holds every query word) and `fit` (the
        # share of a title or heading the query makes up) put the page titled by the term first: '请求体'
        # before '请求体 - 多个参数', '依赖项' before the home page's section '依赖'.
        ("请求体", "tutorial/body"),
        ("依赖", "tutorial/dependencies/index"),
    ],
)
def test_a_chinese_term_ranks_its_defining_page_first(fastapi_sites, query, page):
    first = SiteSearch(fastapi_sites["zh"]).search(query, prefix=False).results[0]
    assert first.doc_id == page, (query, first.ref, first.quote)


def test_a_mixed_english_chinese_query_finds_pydantic_models(fastapi_sites):
    answer = SiteSearch(fastapi_sites["zh"]).search("pydantic 模型", prefix=False)
    assert answer.status == "supported"
    top = answer.results[:5]
    # Each quote holds the Chinese word, or sits under a heading that does (the section "Pydantic 模型",
    # which the query fits exactly, comes first; its first sentence names Pydantic alone).
    assert all("模型" in (r.quote or "") or "模型" in r.heading[-1] for r in top if r.quote)
    assert any("pydantic" in (r.quote or "").lower() and "模型" in (r.quote or "") for r in top)


def test_english_words_in_chinese_pages_are_stemmed_alike(fastapi_sites):
    site = fastapi_sites["zh"]
    assert set(refs(site, "models")) == set(refs(site, "model")) != set()


def test_manifest_lists_one_shard_per_language(fastapi_sites):
    for lang, site in fastapi_sites.items():
        manifest = json.loads((site / "search/manifest.json").read_text())
        assert list(manifest["languages"]) == [lang]
