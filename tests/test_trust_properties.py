"""Invariants of the small guards behind issue 21 (points 14 and 20), checked on generated input."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings, strategies as st

from citesearch.engine.site_files import nesting_depth
from citesearch.terminal import terminal_safe

BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_terminal_safe_text_steers_nothing_and_keeps_every_visible_character(text):
    shown = terminal_safe(text)
    for char in shown:
        assert char in "\n\t" or unicodedata.category(char) != "Cc", repr(shown)
        assert char not in BIDI_CONTROLS
    unsafe = {c for c in text if (unicodedata.category(c) == "Cc" and c not in "\n\t") or c in BIDI_CONTROLS}
    if not unsafe:
        assert shown == text  # names and page text without controls print unchanged


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.sampled_from('ab"\\[]{}:,\u00e9\n')),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='ab"\\[{', max_size=4), inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_nesting_depth_is_the_depth_json_would_parse(value, ascii_only):
    """Brackets inside strings (escaped quotes and backslashes included) never count."""
    text = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
    assert nesting_depth(text) == _depth(value)
