"""A ``PageVocabulary`` (numbers looked up at C speed) numbers a page's terms as ``packed`` numbers them in a plain dict."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.pipeline import lunr_index

_field = st.lists(st.tuples(st.sampled_from(["a", "b", "ab", "é", "\U0001f600", "data", "x1"]), st.integers(1, 9)),
                  max_size=5, unique_by=lambda pair: pair[0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_field, _field, _field), max_size=8))
def test_packed_in_a_page_vocabulary_is_packed_term_by_term(chunks):
    counts = [tuple((tuple(t for t, _ in field), tuple(n for _, n in field)) for field in fields) for fields in chunks]
    one_by_one: dict[str, int] = {}
    expected = [lunr_index.packed(c, one_by_one) for c in counts]
    vocabulary = lunr_index.PageVocabulary()
    assert [lunr_index.packed(c, vocabulary) for c in counts] == expected
    assert list(vocabulary.items()) == list(one_by_one.items())
    assert list(one_by_one.values()) == list(range(len(one_by_one)))
