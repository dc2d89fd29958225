"""The widget ranks lazily without changing what a reader is shown.

rank.js's ``search(..., {pages: n})`` scores and orders the passages of the
first ``n`` pages only (as rank.py's ``scored_pages``); the widget asks for the
pages it can show.  On real sites and real queries -- every keystroke of the
benchmark's typed queries, and words of the site drawn by Hypothesis, whole,
cut short as while typing, or one edit away -- the lazy ranking must give the
eager one's page order and criteria, and on its first ``n`` pages the same
passages in the same order with the same criteria, before and after the
second stage (``refine``).  The comparison runs in Node (tests/js/lazy-rank.mjs).
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, build_corpus, corpus
from node_support import run_node

sys.path.insert(0, str(REPO / "bench"))
from queries import TIMING_QUERIES  # noqa: E402

# 0 and 1: nothing or only the best page scored; 10: the refined first
# screen; 20: the widget's first answer (citesearch.js LIMIT).
SIZES = [0, 1, 3, 10, 20]
WORD = re.compile(r"[^\W\d_]{2,}|[\u3400-\u9fff]{1,4}")


def keystrokes(queries: list[str]) -> list[str]:
    return sorted({q[:i] for q in queries for i in range(1, len(q) + 1) if q[:i].strip()})


def differences(site, lang: str, queries: list[str], prefix: bool) -> list[tuple[str, dict]]:
    answers = run_node("lazy-rank.mjs", {"queries": queries, "prefix": prefix, "pages": SIZES, "perPage": 3},
                       str(site), lang)
    return [(q, a) for q, a in zip(queries, answers, strict=True)]


def assert_same(site, lang: str, queries: list[str], prefix: bool) -> list[dict]:
    found = differences(site, lang, queries, prefix)
    wrong = [(q, n, why) for q, a in found for n, why in a["differences"].items() if why]
    assert not wrong, wrong[:5]
    return [a for _, a in found]


def site_words(files) -> list[str]:
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted(files))
    return sorted(set(WORD.findall(text)))


def typed(words: list[str]):
    word = st.sampled_from(words)
    cut = st.tuples(word, st.integers(1, 6)).map(lambda t: t[0][: t[1]])  # still typing
    edited = st.tuples(word, st.integers(0, 8), st.sampled_from(["", "e", "x", "я", "的"])).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1:])  # one edit: the fuzzy fallback
    return st.lists(st.one_of(word, cut, edited), min_size=1, max_size=4).map(" ".join)


CONTENT_LANGS = {"en": REPO / "content", "ru": REPO / "content" / "ru", "zh": REPO / "content" / "zh"}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_lazy_ranking_shows_what_eager_ranking_shows_on_our_docs(content_built, data):
    lang = data.draw(st.sampled_from(sorted(CONTENT_LANGS)))
    queries = data.draw(st.lists(typed(site_words(CONTENT_LANGS[lang].glob("*.md"))), min_size=25, max_size=25))
    assert_same(content_built, lang, queries, prefix=data.draw(st.booleans()))


def test_lazy_ranking_shows_what_eager_ranking_shows_on_every_keystroke_of_our_docs(content_built):
    answers = assert_same(content_built, "en", keystrokes(TIMING_QUERIES["fastapi-en"]), prefix=True)
    # Not vacuous: some keystrokes find more pages than the refined first screen.
    assert max(a["pages"] for a in answers) > 10


@pytest.fixture(scope="module")
def fastapi_en(tmp_path_factory):
    return build_corpus(tmp_path_factory, "fastapi-docs/en", "en")


@pytest.mark.corpus
def test_lazy_ranking_shows_what_eager_ranking_shows_on_every_keystroke_of_fastapi(fastapi_en):
    answers = assert_same(fastapi_en, "en", keystrokes(TIMING_QUERIES["fastapi-en"]), prefix=True)
    assert max(a["pages"] for a in answers) > max(SIZES)


@pytest.mark.corpus
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_lazy_ranking_shows_what_eager_ranking_shows_on_fastapi_words(fastapi_en, data):
    queries, prefix = fastapi_queries(data, 25)
    assert_same(fastapi_en, "en", queries, prefix=prefix)


def fastapi_queries(data, count: int) -> tuple[list[str], bool]:
    """``count`` queries typed from the words of the English FastAPI docs, and ``prefix``."""
    words = site_words(corpus("fastapi-docs/en").rglob("*.md"))
    return data.draw(st.lists(typed(words), min_size=count, max_size=count)), data.draw(st.booleans())


# --- Format 7: split term rows, read a block at a time (rank.js / rank.py first screen).


def build_split(tmp_path_factory, content, split: int, block: int, name: str):
    """A site whose long term rows are split at small sizes: most query terms come in blocks."""
    from citesearch import build
    from citesearch.engine import contract

    out = tmp_path_factory.mktemp(name) / "site"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contract, "TERM_SPLIT_BYTES", split)
        patch.setattr(contract, "TERM_BLOCK_BYTES", block)
        build(content, out)
    assert len(list((out / "search").glob("block.*.json"))) > 50
    return out


@pytest.fixture(scope="module")
def content_split(tmp_path_factory):
    return build_split(tmp_path_factory, REPO / "content", 200, 60, "content-split")


# Common words: a first screen no block proves, read whole.
COMMON = ["the a of", "the and of", "и в на", "search index", "搜索"]


def drawn_queries(data, count: int) -> tuple[str, list[str], bool]:
    """A language of our docs, ``count`` queries typed from its words plus COMMON, and ``prefix``."""
    lang = data.draw(st.sampled_from(sorted(CONTENT_LANGS)))
    queries = data.draw(st.lists(typed(site_words(CONTENT_LANGS[lang].glob("*.md"))), min_size=count, max_size=count))
    return lang, queries + COMMON, data.draw(st.booleans())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_first_screen_from_blocks_shows_what_whole_rows_show_on_our_docs(content_split, data):
    lang, queries, prefix = drawn_queries(data, 25)
    assert_same(content_split, lang, queries, prefix=prefix)


def test_first_screen_from_blocks_on_every_keystroke_of_our_docs(content_split):
    answers = assert_same(content_split, "en", keystrokes(TIMING_QUERIES["fastapi-en"]), prefix=True)
    assert max(a["pages"] for a in answers) > 10
    # Not vacuous: some first screens were proven without reading every block.
    assert any(a["blocks"]["1"] < a["blocks_whole"] for a in answers)


def test_first_screen_from_blocks_of_long_queries(content_split):  # noqa: F811 (the fixture)
    from test_rank_bounded import LONG  # claims and questions: evidence_coord first

    assert_same(content_split, "en", LONG, prefix=False)
