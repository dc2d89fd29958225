"""Source checks with a whole-text shortcut before the line walk (heading ids, nesting depth): the answer must not change."""

from __future__ import annotations

import contextlib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.pipeline import heading_ids, limits

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


_nesting_lines = st.builds(
    lambda quotes, blanks, tail: "".join(quotes) + blanks + tail,
    st.lists(st.sampled_from([">", " >", "\t>", "> "]), max_size=110),
    st.text(" \t", max_size=420),
    st.sampled_from(["", "x", ">", "- item"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_nesting_lines, max_size=4))
def test_nesting_shortcut_finds_what_the_line_walk_finds(lines):
    body = "\n".join(lines)
    fast = limits.nesting_problem(body, 1, "a.md")
    never = re.compile("(?!)")  # no shortcut: every line walked
    with _patched(limits, _DEEP_LINE_FIRST=re.compile(""), _DEEP_LINE_NEXT=never):
        assert limits.nesting_problem(body, 1, "a.md") == fast


_deep_pieces = st.builds(
    lambda marker, count: marker * count,
    st.sampled_from([">", " >", "\t>", " ", "\t", "x"]), st.sampled_from([0, 1, 4, 100, 101, 102, 404]),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_deep_pieces, max_size=3).map("".join), max_size=4), st.sampled_from(["\n", "\r\n", "\n\n"]))
def test_deep_lines_are_found_where_multiline_caret_finds_them(lines, newline):
    body = newline.join(lines)
    caret = re.compile(r"^[ \t]{101,}", re.MULTILINE).search(body) or re.compile(r"^(?:[ \t]*>){101}", re.MULTILINE).search(body)
    assert limits._has_deep_line(body) == bool(caret)


@contextlib.contextmanager
def _patched(module, **values):
    saved = {name: getattr(module, name) for name in values}
    for name, value in values.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
