"""Titles and headings in the index are text a reader can see (markdown_ext.text.plain_text, title_text)."""

from __future__ import annotations

import unicodedata

from hypothesis import given, strategies as st

from citesearch.markdown_ext.text import plain_text, title_text

INVISIBLE = ("Cc", "Co", "Cn", "Cs")


@given(st.text())
def test_plain_text_has_no_invisible_characters_and_is_stable(text: str):
    plain = plain_text(text)
    assert not [c for c in plain if unicodedata.category(c) in INVISIBLE]
    assert plain == plain.strip() and "  " not in plain
    assert plain_text(plain) == plain


@given(st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1))
def test_visible_words_survive(word: str):
    assert plain_text(f"\x02{word}\ue157\x7f") == word


def test_titles_lose_markup_and_entities_but_keep_what_they_show():
    assert title_text("1.1 &nbsp; Binary search") == "1.1 Binary search"
    assert title_text("<b>Bold</b> &amp; <code>x &lt; y</code>") == "Bold & x < y"
    assert title_text("a < b and c > d") == "a < b and c > d"
