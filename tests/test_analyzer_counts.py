"""``term_counts`` counts the words before stemming them; it must give ``Counter(analyze(text))`` exactly, order included."""

from __future__ import annotations

import string
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from citesearch.engine import analyzer
from citesearch.engine.analyzer import analyze, term_counts
from citesearch.engine.contract import MAX_WORD_LENGTH
from citesearch.pipeline.lunr_index import counted, text_counts

# Words that share a stem in another form (run/running/runs), repeat, or stem to another word's term
# (stemming "generalization" and "general" differ, "caresses"/"caress" agree): the first-seen order is at stake.
_WORDS = ["Running", "run", "runs", "caresses", "caress", "Path", "path", "параметры", "параметр", "ёлка", "елка",
          "路径参数", "路径", "参数路径", "使用Pydantic模型", "✏️", "✏", "\ufe0f", "é", "\u0301", "ﬁle", "İstanbul", "ß",
          "a" * MAX_WORD_LENGTH, "b" * (MAX_WORD_LENGTH + 1), "я" * (MAX_WORD_LENGTH + 1), "路" * (MAX_WORD_LENGTH + 1),
          "snake_case", "HTTP2", "3.14", "don't", "—", "›", "😀"]
_SEPARATORS = [" ", "  ", "\n", "-", "_", "。", ", ", "\u00a0"]
_mixed = st.lists(st.sampled_from(_WORDS) | st.sampled_from(_SEPARATORS), max_size=40).map("".join)
_ascii = st.text(alphabet=string.ascii_letters[:6] + "ing s_-.\n0", max_size=300)  # few letters: words repeat


@settings(max_examples=500, deadline=None)
@given(st.one_of(_mixed, _ascii, st.text(max_size=80)))
@example("Running runs run; running RUN ran")
@example("✏️ Edit ✏️ edit, параметры Параметры 路径参数路径")
@example(" ".join(["x" * MAX_WORD_LENGTH, "x" * (MAX_WORD_LENGTH + 1), "x" * MAX_WORD_LENGTH]))
def test_term_counts_are_the_counted_terms_in_first_seen_order(text):
    expected = Counter(analyze(text))
    counts = term_counts(text)
    assert list(counts.items()) == list(expected.items())
    assert text_counts(text) == counted(analyze(text))


def test_term_counts_stay_right_when_the_word_memo_is_cleared_part_way(monkeypatch):
    monkeypatch.setattr(analyzer._AsciiTerms, "LIMIT", 3)  # cleared every few words, mid-text
    monkeypatch.setattr(analyzer, "_ASCII_TERMS", analyzer._AsciiTerms())
    text = "Running runs the runner; " + "x" * (MAX_WORD_LENGTH + 1) + " ran running RUNS caresses caress a b c d"
    assert list(term_counts(text).items()) == list(Counter(analyze(text)).items())
    assert len(analyzer._ASCII_TERMS) <= 3


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\ud800\udfff"), max_size=40))
def test_term_counts_of_any_code_points_even_lone_surrogates(text):
    assert list(term_counts(text).items()) == list(Counter(analyze(text)).items())
