"""The index builder's bulk helpers: weights rounded a field at once (each must be Python's ``round(w, 3)``), terms in UTF-16 order."""

from __future__ import annotations

import numpy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from citesearch.pipeline.lunr_index import in_utf16_order, rounded

# Halves and near-halves in thousandths (where ``rint(v * 1000)`` alone can pick the
# wrong side), exact binary halves like 0.0625, and BM25-sized weights.
_near_halves = st.builds(lambda k, nudge: (k + 0.5) / 1000 + nudge, st.integers(0, 200_000), st.sampled_from([0.0, 1e-17, -1e-17, 5e-16, -5e-16]))
_weights = st.one_of(st.floats(0, 500, allow_nan=False), _near_halves, st.builds(lambda m: m / 16, st.integers(0, 8000)))


@settings(max_examples=500, deadline=None)
@given(st.lists(_weights, min_size=1, max_size=50))
@example([0.0625, 0.0005, 0.0015, 1.0005, 2.675, 0.1235, 3.9995])
def test_rounded_is_pythons_round_to_three_decimals(values):
    got = rounded(numpy.array(values, dtype=numpy.float64)).tolist()
    assert got == [round(v, 3) for v in values]
    assert [repr(g) for g in got] == [repr(round(v, 3)) for v in values]  # the JSON bytes too


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", "z", "\ue000", "\uffff", "\U00010000", "\U0001f600", "é", "中"]), min_size=1)))
def test_terms_are_sorted_as_utf16_code_units(terms):
    assert in_utf16_order(terms) == sorted(terms, key=lambda term: term.encode("utf-16-be"))
