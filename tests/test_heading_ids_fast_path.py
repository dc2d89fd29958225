"""Duplicate heading ids: documents with no id attribute anywhere skip the line walk; the answer must not change."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.pipeline import heading_ids

_lines = st.sampled_from([
    "# Title { #a }", "## Two {: #a .x }", "Setext { #b }", "===", "---", "text {#a}", "```", "~~~", "    code { #a }",
    "", "## Plain", "{ #a", "}", "## x { #b } ##", "#a}", "{\t#a}",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_lines, max_size=14))
def test_same_problems_with_and_without_the_shortcut(lines):
    body = "\n".join(lines)
    fast = heading_ids.duplicate_heading_ids(body, 1, "a.md")
    shortcut = heading_ids._ATTR_ID_ANYWHERE
    heading_ids._ATTR_ID_ANYWHERE = re.compile("")  # always "maybe": every line is walked
    try:
        assert heading_ids.duplicate_heading_ids(body, 1, "a.md") == fast
    finally:
        heading_ids._ATTR_ID_ANYWHERE = shortcut
