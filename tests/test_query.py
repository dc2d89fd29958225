"""Queries: clause vectors, raw input that must not raise, and an end-to-end
search over a tiny index built in Python — answered identically by the
Python ``run()`` and by Node running the shipped query.js."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lunr.builder import Builder
from lunr.index import Index

from citesearch.engine import analyzer, contract, query
from limit_vectors import LIMITS, clause_cases
from node_support import run_node

TESTS = Path(__file__).parent
VECTORS = json.loads((TESTS / "vectors" / "queries.json").read_text(encoding="utf-8"))
CLAUSE_CASES = VECTORS["clauses"]
SEARCH = VECTORS["search"]


def as_lists(clauses):
    return [[c.term, c.required, c.wildcard_trailing, c.edit_distance] for c in clauses]


@pytest.mark.parametrize("case", CLAUSE_CASES, ids=lambda c: repr(c["query"]))
def test_clause_vectors(case):
    assert as_lists(query.clauses(case["query"], prefix=case["prefix"])) == case["clauses"]


@pytest.mark.parametrize("case", VECTORS["words"], ids=lambda c: c["query"])
def test_word_vectors(case):
    assert [list(w.terms) for w in query.words(case["query"], prefix=case["prefix"])] == case["words"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.sampled_from(["http://x", "foo:bar", "-", '"', "*", "~1", "^2", "+", "a:b:c", "\\"]))
def test_raw_input_never_raises(raw):
    for prefix in (True, False):
        for clause in query.clauses(raw, prefix=prefix):
            assert clause.term


def test_fuzzy_fallback_spares_cjk_short_and_wildcard_terms():
    items = query.clauses("路径 ab parameters")
    fuzzy = query.fuzzy_clauses(items)
    assert as_lists(fuzzy) == [
        ["路径", True, False, 0],
        ["ab", False, False, 0],
        ["paramet", False, False, 1],
    ]


def build_index(chunks) -> dict:
    """A serialized index the way the build makes one: empty pipelines,
    terms from our analyzer, invertedIndex in UTF-16 order for lunr.js."""
    builder = Builder()
    builder.pipeline.reset()
    builder.search_pipeline.reset()
    builder.ref("ref")
    for field in contract.FIELDS:
        builder.field(field, boost=contract.FIELD_BOOSTS[field])
    for i, chunk in enumerate(chunks):
        builder.add({"ref": str(i), **{f: analyzer.analyze(chunk[f]) for f in contract.FIELDS}})
    serialized = builder.build().serialize()
    serialized["invertedIndex"].sort(key=lambda entry: entry[0].encode("utf-16-be"))
    return json.loads(json.dumps(serialized))


@pytest.fixture(scope="module")
def serialized():
    return build_index(SEARCH["chunks"])


@pytest.fixture(scope="module")
def index(serialized):
    return Index.load(serialized)


@pytest.mark.parametrize("case", SEARCH["queries"], ids=lambda c: repr(c["query"]))
def test_search_vectors_top_hit(index, case):
    results = query.run(index, case["query"])
    top = results.hits[0].ref if results.hits else None
    assert top == case["top"]
    assert results.fuzzy == case.get("fuzzy", False)


@pytest.mark.parametrize("prefix", [True, False], ids=["prefix", "no-prefix"])
@pytest.mark.parametrize("group", SEARCH["equivalent"], ids=lambda g: "=".join(g))
def test_word_forms_find_the_same_chunks(index, group, prefix):
    refs = [[h.ref for h in query.run(index, q, prefix=prefix).hits] for q in group]
    assert refs[0] and all(r == refs[0] for r in refs)


def test_hits_are_ordered_by_score_then_numeric_ref(index):
    for case in SEARCH["queries"]:
        hits = query.run(index, case["query"]).hits
        assert list(hits) == sorted(hits, key=lambda h: (-h.score, int(h.ref)))


def test_search_never_uses_lunr_query_parser(index, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("raw query handed to Index.search")

    monkeypatch.setattr(Index, "search", refuse)
    for raw in ["http://x", "foo:bar", "-", "title:path", "pa*"]:
        query.run(index, raw)


@pytest.mark.parametrize("prefix", [True, False], ids=["prefix", "no-prefix"])
def test_node_and_python_return_the_same_refs_in_the_same_order(serialized, index, tmp_path, prefix):
    queries = [c["query"] for c in SEARCH["queries"]] + [q for g in SEARCH["equivalent"] for q in g]
    queries += [c["query"] for c in CLAUSE_CASES]
    path = tmp_path / "index.json"
    path.write_text(json.dumps(serialized, ensure_ascii=False), encoding="utf-8")
    from_node = run_node("search-batch.mjs", {"queries": queries, "prefix": prefix}, str(path), timeout=300)
    for raw, js in zip(queries, from_node, strict=True):
        py = query.run(index, raw, prefix=prefix)
        assert [h["ref"] for h in js["hits"]] == [h.ref for h in py.hits], raw
        assert js["fuzzy"] == py.fuzzy, raw
        assert [h["score"] for h in js["hits"]] == pytest.approx([h.score for h in py.hits], rel=1e-9), raw


# --- input limits (tests/vectors/limits.json, run by Node too) ---------------


def test_max_query_length_is_the_one_in_the_shared_vectors():
    assert contract.MAX_QUERY_LENGTH == LIMITS["max_query_length"]


@pytest.mark.parametrize("note,raw,prefix,expected", clause_cases(), ids=[c[0] for c in clause_cases()])
def test_limit_vectors(note, raw, prefix, expected):
    assert as_lists(query.clauses(raw, prefix=prefix)) == expected


def test_quotes_see_the_capped_query_too():
    assert query.query_terms("path" + " " * 10_000 + "parameters").terms == ("path",)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab 路é", min_size=200, max_size=2 * contract.MAX_QUERY_LENGTH))
def test_only_the_first_code_points_of_a_query_count(raw):
    capped = raw[: contract.MAX_QUERY_LENGTH]
    assert query.clauses(raw) == query.clauses(capped)
    assert all(len(c.term) <= contract.MAX_WORD_LENGTH for c in query.clauses(raw))


@pytest.mark.parametrize(
    "raw",
    ["q" * 10_000, "路径参数" * 2_500, "abcdefghijklmnopqrstuvwxyz" * 400, "path " + "x" * 10_000],
    ids=["10,000 letters", "10,000 ideographs", "10,400-letter alphabet", "a word then 10,000 letters"],
)
def test_an_overlong_query_searches_the_fixture_index_without_hanging(index, raw):
    # Before the caps, lunr built ~2·n² fuzzy states for an n-letter word:
    # 10,000 letters ran out of memory. Now the long word is not searched.
    expected = [h.ref for h in query.run(index, "path").hits] if raw.startswith("path ") else []
    assert [h.ref for h in query.run(index, raw).hits] == expected
