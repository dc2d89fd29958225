"""``analyze`` reads text whose only non-ASCII characters are separators (emoji, dashes, ``›``) as ASCII text.

Its terms must stay those of the general path (``words``), whatever characters sit next to each other.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from citesearch.engine.analyzer import analyze, words

# Separators and characters that only look like them: marks (which join the letters
# around them), characters that fold to letters (ligatures, the Kelvin sign, circled
# digits, superscripts), letters of other scripts, invisible formatting characters.
_TRICKY = ["›", "🌐", "✏", "\ufe0f", "…", "—", "’", "“", "─", "\u00ad", "\u200b", "\u00a0", "\u3000",
           "\ufb01", "\u212a", "①", "²", "é", "e\u0301", "\u0301", "ß", "İ", "ё", "п", "的", "〇", "_", "\U0001d400"]
_text = st.lists(st.one_of(st.sampled_from(_TRICKY), st.text(alphabet="abcXYZ019 -_.", max_size=6)), max_size=30).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_text)
@example("Tutorial › User Guide › 🌐 Translations ✏️ ok")
@example("a\u00adb c\ufb01d 🔧fix")
def test_text_with_separators_gives_the_terms_of_words(text):
    assert analyze(text) == [term for word in words(text) for term in word.terms]
