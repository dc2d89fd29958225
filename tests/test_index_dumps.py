"""The search files' JSON: ``index.dumps`` must write what ``json.dumps`` compact, non-ASCII writes, byte for byte."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.pipeline.index import dumps

# What the search files hold: text (any character but a lone surrogate), ints,
# weights rounded to 3 decimals, lists and string-keyed objects.
_text = st.text(st.characters(blacklist_categories=("Cs",)))
_weights = st.builds(lambda v: round(v, 3), st.floats(0, 1e6))
_scalars = st.one_of(_text, st.integers(-(2**53), 2**53), _weights, st.none(), st.booleans())
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner), st.dictionaries(_text, inner)), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_dumps_is_compact_json_without_ascii_escapes(value):
    assert dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
