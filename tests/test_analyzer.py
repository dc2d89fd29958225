"""The analyzer contract, Python side (the JS side runs the same vectors in
tests/js/analyzer.test.mjs; tests/test_analyzer_parity.py compares both)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lunr.stemmer import PorterStemmer
from lunr.tokenizer import Tokenizer

from citesearch.engine import analyzer, stemmer_en

VECTORS = json.loads((Path(__file__).parent / "vectors" / "analyzer.json").read_text(encoding="utf-8"))
CASES = VECTORS["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:30] or "empty" for c in CASES])
def test_vector_terms(case):
    assert analyzer.analyze(case["text"]) == case["terms"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if "words" in c], ids=lambda c: c["text"][:30]
)
def test_vector_words_point_at_the_original_text(case):
    text = case["text"]
    assert [text[w.start : w.end] for w in analyzer.words(text)] == case["words"]


def test_russian_forms_of_one_word_share_a_term():
    assert len(set(analyzer.analyze("параметр параметров параметры"))) == 1


def test_yo_and_ye_spellings_share_a_term():
    assert analyzer.analyze("развёртывание") == analyzer.analyze("развертывание")


def test_hyphenated_mixed_script_query_gives_usable_terms():
    terms = analyzer.analyze("query-параметры")
    assert terms == analyzer.analyze("query") + analyzer.analyze("параметры")
    assert all(terms)


def test_plural_and_singular_stem_alike():
    assert analyzer.analyze("models") == analyzer.analyze("model")


def test_cjk_run_becomes_overlapping_bigrams_and_lone_ideograph_a_unigram():
    assert analyzer.analyze("路径参数") == ["路径", "径参", "参数"]
    assert analyzer.analyze("路") == ["路"]


def test_nfkc_and_casefold():
    assert analyzer.analyze("ＰＡＴＨ") == analyzer.analyze("path")
    assert analyzer.analyze("STRASSE") == analyzer.analyze("straße")


def test_english_stemmer_is_lunr_js_not_lunr_py():
    # lunr.py's own Porter stems these differently from lunr.js in the
    # browser; the index must use the browser's stems.
    lunr_py = PorterStemmer()
    for word, js_stem in {"key": "key", "deploy": "deploy", "may": "may"}.items():
        assert stemmer_en.stem(word) == js_stem
        assert lunr_py.stem(word) != js_stem


def test_english_stemmer_stems_astral_words_as_utf16_like_javascript():
    # "𐐨" (Deseret, outside the BMP) is two UTF-16 code units: JavaScript
    # sees a word of length 3, not a two-letter word it would leave alone.
    assert stemmer_en.stem("𐐨s") == "𐐨"


def test_name_and_version_are_set():
    assert analyzer.NAME and analyzer.VERSION


texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
    max_size=60,
) | st.lists(
    st.sampled_from(["Path", "параметры", "路径参数", "ё", "é", "\u0301", "ﬁ", "_", "-", " ", "。", "Ｆ", "😀", "İ", "ß"]),
    max_size=12,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_terms_are_nonempty_lowercase_and_survive_lunr_tokenizer(text):
    terms = analyzer.analyze(text)
    assert all(terms)
    assert all(t == t.lower() for t in terms)
    assert [str(token) for token in Tokenizer(terms)] == terms


@settings(max_examples=300, deadline=None)
@given(texts)
def test_words_are_ordered_spans_whose_terms_make_up_analyze(text):
    words = analyzer.words(text)
    assert analyzer.analyze(text) == [t for w in words for t in w.terms]
    starts = [w.start for w in words]
    assert starts == sorted(starts)
    for w in words:
        assert 0 <= w.start < w.end <= len(text)
        assert w.terms


@settings(max_examples=200, deadline=None)
@given(texts)
def test_analysis_is_idempotent_on_its_own_normal_form(text):
    assert analyzer.analyze(analyzer.normalize(text)) == analyzer.analyze(text)


# --- input limits (tests/vectors/limits.json, run by Node too) ---------------

from citesearch.engine import contract  # noqa: E402
from limit_vectors import LIMITS, analyze_cases  # noqa: E402


def test_max_word_length_is_the_one_in_the_shared_vectors():
    assert contract.MAX_WORD_LENGTH == LIMITS["max_word_length"]


@pytest.mark.parametrize("note,text,terms", analyze_cases(), ids=[c[0] for c in analyze_cases()])
def test_limit_vectors(note, text, terms):
    assert analyzer.analyze(text) == terms


# Runs of one letter (words of 1 to 100 letters), separators and marks.
long_words = st.lists(
    st.builds(lambda letter, times: letter * times, st.sampled_from(["a", "é", "я", "𐐀", "1"]), st.integers(1, 100))
    | st.sampled_from([" ", "-", "路径参数" * 20, "\u0301"]),
    max_size=6,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(long_words)
def test_no_term_is_longer_than_the_maximum_word(text):
    # A term can never come from a word of more than MAX_WORD_LENGTH code points.
    words = analyzer.words(text)
    for piece in analyzer.pieces(text):
        assert piece.kind == "cjk" or len(piece.text) <= contract.MAX_WORD_LENGTH
    assert all(len(t) <= contract.MAX_WORD_LENGTH for w in words for t in w.terms)
