"""Cited snippets, Python side (tests/js/quote.test.mjs runs the same vectors)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch import quote

VECTORS = json.loads((Path(__file__).parent / "vectors" / "quotes.json").read_text(encoding="utf-8"))


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


sentence_text = st.lists(
    st.sampled_from(["Path", " ", "parameters", ".", "!", "?", "。", "路径参数", "\n", "\u3000", "\"", "»", "e.g", "参数"]),
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
def test_quote_is_one_of_the_sentences_with_marks_inside_it(text, query):
    found = quote.quote(text, query)
    if found is None:
        return
    assert found.sentence in [text[a:b] for a, b in quote.sentences(text)]
    assert found.marks
    previous_end = 0
    for start, end in found.marks:
        assert previous_end <= start < end <= len(found.sentence)
        previous_end = end
