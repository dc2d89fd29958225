"""Typing gives the answer a fresh search gives.

A warm keystroke reuses what earlier keystrokes left behind in the widget's
engine: loaded term rows and blocks, chunk texts, remembered analyses, the
prefix rows of shorter queries.  None of it may change an answer: the site's
own widget-engine.js, typing each query key by key twice in one engine (as
bench/keystrokes.py does), must answer the whole text exactly as a fresh
engine does -- the same pages, passages, criteria, scores, quotes, "N more on
this page" and totals.  Runs in Node (tests/js/site-search.mjs).
"""

from __future__ import annotations

import sys

from conftest import REPO
from node_support import run_node

sys.path.insert(0, str(REPO / "bench"))
from queries import TIMING_QUERIES  # noqa: E402

LIMIT = 20  # the widget's first answer (citesearch.js LIMIT)


def answers(site, queries: list[str], typed: bool) -> list[dict]:
    found = run_node("site-search.mjs", {"lang": "en", "queries": queries, "limit": LIMIT, "typed": typed,
                                         "whole": True}, str(site))
    return [a["answer"] for a in found]


def test_a_query_typed_key_by_key_is_answered_as_a_fresh_search_of_it(content_built):
    # Our docs, with the timing queries' words (prefixes of words that are on
    # many pages, and words that are on none: the fuzzy fallback) and a query
    # typed after another, whose words the earlier one loaded.
    queries = TIMING_QUERIES["fastapi-en"] + TIMING_QUERIES["rust-rfcs"] + ["search index", "search"]
    typed = answers(content_built, queries, typed=True)
    fresh = answers(content_built, queries, typed=False)
    for query, warm, cold in zip(queries, typed, fresh, strict=True):
        assert warm == cold, query
    # Not vacuous: answers with many pages, quotes on them, and pages with more passages.
    assert max(len({r["doc"]["id"] for r in a["results"]}) for a in fresh) >= 10
    assert sum(r["quote"] is not None for a in fresh for r in a["results"]) > 100
    assert any(r["moreOnPage"] for a in fresh for r in a["results"])
