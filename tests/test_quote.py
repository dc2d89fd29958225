"""Cited snippets, Python side (tests/js/quote.test.mjs runs the same vectors)."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.engine import quote
from node_support import run_node

TESTS = Path(__file__).parent
CORPORA = TESTS.parent.parent / "shared" / "corpora" / "fastapi-docs"
VECTORS = json.loads((TESTS / "vectors" / "quotes.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS["sentences"], ids=lambda c: repr(c["text"][:30]))
def test_sentence_vectors(case):
    text = case["text"]
    assert [text[a:b] for a, b in quote.sentences(text)] == case["sentences"]


@pytest.mark.parametrize("case", VECTORS["quotes"], ids=lambda c: repr(c["query"]))
def test_quote_vectors(case):
    found = quote.quote(case["text"], case["query"])
    if case["sentence"] is None:
        assert found is None
        return
    assert found is not None
    assert found.sentence == case["sentence"]
    assert [found.sentence[a:b] for a, b in found.marks] == case["marks"]
    assert found.kind == case.get("kind", "text")
    assert found.header == case.get("header")


sentence_text = st.lists(
    st.sampled_from([
        "Path", " ", "parameters", ".", "!", "?", "。", "路径参数", "\n", "\u3000", "\"", "»", "e.g", "参数",
        "\t", "\u2028", "…", "т. е.", "etc.", "3.11", "J.", "」",
    ]),
    max_size=25,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(sentence_text | st.text(max_size=60))
def test_sentences_are_ordered_disjoint_and_stripped(text):
    spans = quote.sentences(text)
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        part = text[start:end]
        assert part == part.strip(quote.WHITESPACE)
        previous_end = end


@settings(max_examples=300, deadline=None)
@given(sentence_text, st.sampled_from(["path", "param", "路径参数", "参", "parameters ", "-"]))
def test_quote_is_verbatim_inside_one_block_with_marks_inside_it(text, query):
    found = quote.quote(text, query)
    if found is None:
        return
    assert any(found.sentence in line for line in text.split("\n"))
    if found.kind == "text":
        assert found.sentence in [text[a:b] for a, b in quote.sentences(text)]
    if found.header is not None:
        assert "\n" + quote.CELL + found.header + "\n" in "\n" + text + "\n"
    assert found.marks
    previous_end = 0
    for start, end in found.marks:
        assert previous_end <= start < end <= len(found.sentence)
        previous_end = end


def node_quotes(pairs, prefix):
    return run_node("quote-batch.mjs", {"pairs": pairs, "prefix": prefix})


def python_quote(text, query, prefix):
    found = quote.quote(text, query, prefix=prefix)
    return {
        "sentences": [text[a:b] for a, b in quote.sentences(text)],
        "quote": found and [found.sentence, [found.sentence[a:b] for a, b in found.marks], found.kind, found.header],
    }


def assert_same_quotes(pairs):
    for prefix in (True, False):
        for (text, query), js in zip(pairs, node_quotes(pairs, prefix), strict=True):
            assert python_quote(text, query, prefix) == js, (text, query, prefix)


def test_node_quotes_the_same_sentences_and_marks():
    texts = [c["text"] for c in VECTORS["quotes"]] + [c["text"] for c in VECTORS["sentences"]]
    queries = sorted({c["query"] for c in VECTORS["quotes"]} | {"路", "参", "Path", "pa", "ё"})
    assert_same_quotes([[t, q] for t in texts for q in queries])


@pytest.mark.corpus
@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_node_quotes_corpus_paragraphs_the_same(lang):
    folder = CORPORA / lang
    if not folder.is_dir():
        pytest.skip(f"corpus not found at {folder} (expected ../shared/corpora beside the repo)")
    paragraphs = [
        p for path in sorted(folder.rglob("*.md")) for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()
    ]
    rng = random.Random(lang)
    pairs = []
    for text in rng.sample(paragraphs, min(500, len(paragraphs))):
        words = text.split()
        query = " ".join(rng.sample(words, min(len(words), rng.randint(1, 3))))
        pairs.append([text, query[: rng.randint(1, len(query))] if rng.random() < 0.3 else query])
    assert_same_quotes(pairs)
