"""A long query (a 15-word claim) is searched fast without changing what is found.

``rank.search(..., pages=n)`` scores and orders only the passages of the first
``n`` pages, on an index of their postings alone, and ``ShardedIndex`` looks up
typo neighbours among likely terms only: both must give exactly what the
whole computation gives.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from citesearch.engine import query, rank, shards
from conftest import REPO
from test_shards import TwoIndexes, _two_indexes


@pytest.fixture(scope="module")
def content_indexes(tmp_path_factory) -> TwoIndexes:
    return _two_indexes(REPO / "content", tmp_path_factory.mktemp("content-long-queries"))


def sharded(indexes: TwoIndexes, lang: str) -> shards.ShardedIndex:
    manifest = json.loads((indexes.site / "search/manifest.json").read_text(encoding="utf-8"))
    read = lambda name: json.loads((indexes.site / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    return shards.ShardedIndex(manifest["languages"][lang], manifest["fields"], read)


def edited_words(terms: list[str]):
    words = st.sampled_from(terms)
    edited = st.tuples(words, st.integers(0, 12), st.sampled_from(["", "e", "x", "я", "的"])).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1:])
    return st.one_of(words, edited, st.sampled_from(["the", "of", "a", "и", "的"]))


def as_data(page: rank.Ranked) -> tuple:
    return page.ref, page.criteria, [(p.ref, p.criteria) for p in page.passages]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_scoring_only_the_first_pages_ranks_them_as_scoring_all(content_indexes, data):
    lang = data.draw(st.sampled_from(["en", "ru", "zh"]))
    text = " ".join(data.draw(st.lists(edited_words(content_indexes.terms[lang]), min_size=1, max_size=16)))
    prefix = data.draw(st.booleans())
    index = sharded(content_indexes, lang)
    whole = rank.search(index, text, prefix=prefix)
    for n in (0, 1, 3, 10):
        part = rank.search(index, text, prefix=prefix, pages=n)
        assert part.fuzzy == whole.fuzzy
        assert [p.key for p in part.pages] == [p.key for p in whole.pages]
        assert [as_data(p) for p in part.pages[:n]] == [as_data(p) for p in whole.pages[:n]], (text, n)
        assert [len(p.passages) for p in part.pages] == [len(p.passages) for p in whole.pages]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_lunr_finds_something_exactly_when_query_matches_says_so(content_indexes, data):
    from lunr.index import Index

    lang = data.draw(st.sampled_from(["en", "ru", "zh"]))
    text = " ".join(data.draw(st.lists(edited_words(content_indexes.terms[lang]), min_size=1, max_size=4)))
    items = query.clauses(text, prefix=data.draw(st.booleans()))
    if not items:
        return
    whole = content_indexes.loaded.setdefault(
        lang, Index.load(json.loads(content_indexes.full[lang].read_text(encoding="utf-8"))))
    rows = sharded(content_indexes, lang).rows(items)
    assert query.matches(rows, 3, items) == bool(query._search(whole, items)), text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_typo_neighbours_are_every_dictionary_term_within_one_edit(content_indexes, data):
    lang = data.draw(st.sampled_from(["en", "ru", "zh"]))
    term = data.draw(edited_words(content_indexes.terms[lang]))
    # Only a clause term of FUZZY_MIN_LENGTH or more code points is ever fuzzy
    # (query.clauses), and the dictionary layout relies on it (contract).
    assume(len(term) >= query.FUZZY_MIN_LENGTH)
    index = sharded(content_indexes, lang)
    dictionary = content_indexes.terms[lang]  # every term of the language's index
    expected = {t for t in dictionary if shards.within_one_edit(term, t)}
    assert set(index._neighbours(term)) == expected
    assert set(index._neighbours(term)) == expected  # remembered


def test_a_long_query_ranks_pages_by_page_bm25_alike_in_python_and_node():
    from node_support import run_node
    from test_ranking import _word, random_case
    import random

    rng = random.Random(6)
    text = "alpha beta gamma delta betas gam alpho"
    cases = [{**random_case(rng), "query": text} for _ in range(150)]
    words = query.words(text)
    assert len(words) > rank.LONG_QUERY_WORDS
    payload = [{"words": [_word(w) for w in words], "rows": c["rows"],
                "scores": [[ref, score] for ref, score in c["scores"].items()]} for c in cases]
    from_node = run_node("rank-batch.mjs", {"cases": payload})
    for case, js in zip(cases, from_node, strict=True):
        pages = rank.rank(words, case["rows"], case["scores"])
        assert [p.key for p in pages] == sorted(p.key for p in pages)
        for page in pages:
            names = [name for name, _ in page.criteria]
            assert names[:2] == ["whole_heading", "evidence_coord"]
        py = [[p.ref, [list(c) for c in p.criteria], [[q.ref, [list(c) for c in q.criteria]] for q in p.passages]]
              for p in pages]
        assert py == js, case


def test_a_long_question_lists_the_same_results_in_citesearch_search_and_the_widget(capsys, content_built):
    from node_support import run_node
    from test_ranking import search_json

    text = "how do I make the search index smaller for a large site"
    assert len(query.words(text)) > rank.LONG_QUERY_WORDS
    answer = search_json(capsys, content_built, "en", text)
    (js,) = run_node("site-search.mjs", {"lang": "en", "queries": [text], "limit": 10}, str(content_built))
    assert answer["results"] and [r["ref"] for r in answer["results"]] == js["refs"]
    assert list(answer["results"][0]["page_criteria"])[:2] == ["whole_heading", "evidence_coord"]


def _row(term: str, body: dict[int, float], pages: dict[int, float]) -> list:
    flat = lambda d: [x for ref in sorted(d) for x in (ref, d[ref])]  # noqa: E731
    return [term, 0, [], [], flat(body), flat(pages)]


def test_a_long_query_prefers_the_page_whose_words_meet_in_one_passage_over_a_slightly_higher_page_bm25():
    words = query.words("alpha bravo cobalt delta magnet fjord", prefix=False)  # no two one edit apart
    assert len(words) > rank.LONG_QUERY_WORDS
    # Page 0 (refs 0-2) holds the six words two by two; page 3 holds them all in one passage, with a page
    # BM25 a little lower.  Passage evidence: 3.0 + ½ × 1.0 (two words' page BM25) = 3.5 < 2.9 + ½ × 2.9 = 4.35;
    # coverage (each word's reach 0.5): a third of the query against all of it, × (1 + coverage).
    terms = [w.terms[0] for w in words]
    rows = [_row(t, {i // 2: 1.0, 3: 1.0}, {0: 0.5, 3: 2.9 / 6}) for i, t in enumerate(terms)]
    ranked = rank.rank(words, rows, {})
    assert [p.ref for p in ranked] == [3, 0]
    coord = [(p.explain()["evidence_coord"], p.explain()["coverage"], p.explain()["evidence"], p.explain()["proximity"])
             for p in ranked]
    assert coord == [(pytest.approx(8.7), 1.0, pytest.approx(2.9), 6),
                     (pytest.approx(3.5 * 4 / 3), pytest.approx(1 / 3), pytest.approx(3.0), 2)]
    # A short query keeps the criteria it had: no passage coordination, page BM25 last.
    short = query.words("alpha bravo cobalt", prefix=False)
    assert [c.name for c in rank.page_criteria(short)] == [c.name for c in rank.PAGE_CRITERIA]
    assert "evidence_coord" not in rank.rank(short, rows, {})[0].explain()


def test_passage_evidence_weighs_the_words_a_passage_holds_by_their_page_bm25_not_their_number():
    words = query.words("alpha bravo cobalt delta magnet fjord", prefix=False)
    terms = [w.terms[0] for w in words]
    # Page 0's passage 0 holds four common words (0.25 each), passage 1 the two rare ones (1.5 each); page 3
    # (rare words 1.6 each: page BM25 4.2 > 4.0) holds the common words in passage 3 and the rare ones apart.
    # Counting words (four in one passage on both) page 3 wins; by their weight page 0: 4 + ½ × 3 > 4.2 + ½ × 1.6,
    # and by their reach (0.25 and 1.6 a word): page 0's passage 1 holds 3.2 of 4.2, page 3's best 1.6.
    body = [{0: 1.0, 3: 1.0}] * 4 + [{1: 1.0, 4: 1.0}, {1: 1.0, 5: 1.0}]
    pages = [{0: 0.25, 3: 0.25}] * 4 + [{0: 1.5, 3: 1.6}] * 2
    ranked = rank.rank(words, [_row(t, b, w) for t, b, w in zip(terms, body, pages)], {})
    assert [(p.ref, p.explain()["proximity"]) for p in ranked] == [(0, 4), (3, 4)]
    assert [p.explain()["coverage"] for p in ranked] == [pytest.approx(3.2 / 4.2), pytest.approx(1.6 / 4.2)]
    assert [p.explain()["evidence_coord"] for p in ranked] == [pytest.approx(5.5 * (1 + 3.2 / 4.2)),
                                                              pytest.approx(5.0 * (1 + 1.6 / 4.2))]


def test_coverage_counts_the_rare_words_of_the_query_that_a_page_weighs_lightly():
    words = query.words("alpha bravo cobalt delta magnet fjord", prefix=False)
    terms = [w.terms[0] for w in words]
    # alpha and bravo are rare (page 6, about them, weighs each 2.0: their reach), the other four common (0.5).
    # Page 0 holds alpha and bravo in passage 0, lightly weighed (0.7 each), the common words in passage 1;
    # page 3 weighs the common words more (0.5 each, passage 3) and holds alpha alone (passage 4).
    # Round 8's rule: page 3, 2.7 + ½ × 2.0 = 3.7 > page 0, 2.6 + ½ × 1.4 = 3.3.  Page 0's passage holds
    # two thirds of the query's reach (4.0 of 6.0), page 3's best a third: 3.3 × 5/3 = 5.5 > 3.7 × 4/3.
    rare = [({0: 1.0, 4: 1.0, 6: 1.0}, {0: 0.7, 3: 0.7, 6: 2.0}), ({0: 1.0, 6: 1.0}, {0: 0.7, 6: 2.0})]
    common = [({1: 1.0, 3: 1.0}, {0: 0.3, 3: 0.5})] * 4
    ranked = rank.rank(words, [_row(t, b, w) for t, (b, w) in zip(terms, rare + common)], {})
    assert [p.ref for p in ranked] == [6, 0, 3]
    facts = [(p.explain()["evidence_coord"], p.explain()["coverage"]) for p in ranked[1:]]
    assert facts == [(pytest.approx(5.5), pytest.approx(2 / 3)), (pytest.approx(3.7 * 4 / 3), pytest.approx(1 / 3))]
