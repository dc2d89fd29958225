"""Did-you-mean, one contract in two halves: ``engine/suggest.py`` and quote.js's
``suggestion`` give the same suggestion for the same query and fuzzy texts
(``tests/vectors/suggestions.json``, and random cases made from them)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.engine.suggest import suggestion
from conftest import REPO
from node_support import run_node

CASES = json.loads((REPO / "tests/vectors/suggestions.json").read_text(encoding="utf-8"))["cases"]


def python_half(query: str, texts: list[str]):
    found = suggestion(query, texts)
    return found and [found.query, [found.query[a:b] for a, b in found.changed]]


def test_both_halves_give_each_vector_its_expected_suggestion():
    node = run_node("suggest-batch.mjs", {"cases": [[c["query"], c["texts"]] for c in CASES]})
    for case, from_node in zip(CASES, node, strict=True):
        assert python_half(case["query"], case["texts"]) == case["expected"], case["query"]
        assert from_node == case["expected"], case["query"]


WORDS = sorted({w for c in CASES for text in [c["query"], *c["texts"]] for w in text.split()})


@settings(max_examples=5, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
                          st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), max_size=4)),
                min_size=40, max_size=40))
def test_python_and_node_suggest_alike_on_random_cases(drawn):
    # One node run for a batch of 40 random cases: the words of the vectors, typos and all.
    cases = [[" ".join(query), [" ".join(text) for text in texts]] for query, texts in drawn]
    node = run_node("suggest-batch.mjs", {"cases": cases})
    assert [python_half(q, t) for q, t in cases] == node
