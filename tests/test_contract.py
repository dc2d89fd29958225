"""One search contract, two halves: `citesearch search --json` and the shipped JS in Node agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citesearch.cli import main
from conftest import REPO
from node_support import run_node

VECTORS = json.loads((REPO / "tests/vectors/search_queries.json").read_text(encoding="utf-8"))
SITE_SEARCH_JS = REPO / "tests/js/site-search.mjs"
LIMIT = 10


def python_answer(capsys, site: Path, lang: str, query: str) -> dict:
    # "--" ends the options, so input such as "-" or "--strict" is read as the query.
    assert main(["search", "--site", str(site), "--json", "--limit", str(LIMIT), "--lang", lang, "--", query]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] in ("supported", "insufficient")
    return answer


def node_answers(site: Path, lang: str, queries: list[str]) -> list[dict]:
    """Per query, from the site's own widget-engine.js: ``refs``, ``scores``, ``quotes``,
    ``status`` and the search ``files`` it read."""
    return run_node("site-search.mjs", {"lang": lang, "queries": queries, "limit": LIMIT}, str(site))


def assert_halves_agree(capsys, site: Path, lang: str, queries: list[str]) -> int:
    from_node = node_answers(site, lang, queries)
    found = 0
    for query, js in zip(queries, from_node, strict=True):
        answer = python_answer(capsys, site, lang, query)
        py = answer["results"]
        assert [r["ref"] for r in py] == js["refs"], f"{lang} query {query!r}"
        assert [r["score"] for r in py] == pytest.approx(js["scores"], abs=1e-6), f"{lang} query {query!r}"
        assert [r["quote"] for r in py] == js["quotes"], f"{lang} query {query!r}"
        assert answer["status"] == js["status"], f"{lang} query {query!r}"
        found += bool(py)
    return found


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_python_and_node_return_the_same_refs_in_order_on_the_fixture_site(capsys, basic_built, lang):
    queries = VECTORS["basic"][lang]
    assert assert_halves_agree(capsys, basic_built, lang, queries) >= len(queries) - 2


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_python_and_node_return_the_same_refs_in_order_on_our_own_docs(capsys, content_built, lang):
    queries = VECTORS["content"][lang]
    assert assert_halves_agree(capsys, content_built, lang, queries) == len(queries)


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_raw_reader_input_never_crashes_either_half(capsys, basic_built, lang):
    assert_halves_agree(capsys, basic_built, lang, VECTORS["raw_input"])


def test_node_loads_every_language_with_the_vendored_lunr(basic_built, content_built):
    for site in (basic_built, content_built):
        manifest = json.loads((site / "search/manifest.json").read_text())
        for lang in manifest["languages"]:
            assert len(node_answers(site, lang, ["a"])) == 1


@pytest.mark.corpus
@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_python_and_node_agree_on_the_fastapi_corpora(capsys, fastapi_sites, lang):
    queries = VECTORS[f"fastapi-docs/{lang}"][lang]
    assert assert_halves_agree(capsys, fastapi_sites[lang], lang, queries) == len(queries)


def test_every_file_a_build_writes_into_search_is_known_as_its_own(content_built):
    """Stale search files are found by name (MkDocs --dirty, citesearch index re-runs): a
    name the rule missed kept a removed page's terms (format 5's dictionary files did)."""
    from citesearch.engine import contract

    search = content_built / contract.SEARCH_DIR
    names = [p.relative_to(search).as_posix() for p in search.rglob("*") if p.is_file()]
    kinds = {name.split(".")[0].split("/")[0] for name in names}
    assert {"manifest", "terms", "termlist", "dict", "chunks"} <= kinds  # every kind of file is here
    assert [name for name in names if not contract.is_search_file(name)] == []
    # MkDocs' own search files, left on beside ours, are never taken for ours.
    for other in ("search_index.json", "worker.js", "lunr.js", "main.js", "terms.json"):
        assert not contract.is_search_file(other)
