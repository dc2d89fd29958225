"""``analyze`` takes a shortcut for ASCII text; its terms must be those of the general path (``words``)."""

from __future__ import annotations

import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from citesearch.engine.analyzer import analyze, words
from citesearch.engine.contract import MAX_WORD_LENGTH

_ascii = st.text(alphabet=string.printable + "_\x00\x7f", max_size=200)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_ascii, st.text(max_size=60)))
@example("Running_fast: HTTP2 x" + "a" * MAX_WORD_LENGTH + " snake_case 3.14 don't")
@example("a" * (MAX_WORD_LENGTH + 1) + " ok " + "b" * MAX_WORD_LENGTH)
def test_analyze_gives_the_terms_of_words(text):
    assert analyze(text) == [term for word in words(text) for term in word.terms]
