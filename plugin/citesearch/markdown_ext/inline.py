"""Inline: Python-Markdown's inline patterns, without trying those that cannot match.

Python-Markdown tries every inline pattern on every piece of text, a Python
call each (14 patterns, ~20 calls per paragraph); most texts hold none of the
characters most patterns need, such as a backtick, a ``[`` or an ``&``.
``InlineExtension`` replaces the ``inline`` treeprocessor with one that skips
a pattern when its text lacks a character every match of that pattern's
regular expression contains.  Skipping is exactly what a failed try does
(the text is unchanged and the search restarts from 0 with the next pattern),
so the tree, and the HTML, is the same.

Only the regular expressions listed here, checked character by character
against Python-Markdown's own, have such a test; any other pattern (another
extension's, or one a later Python-Markdown changes) is tried as before.
"""

from __future__ import annotations

from typing import Callable

from markdown import Markdown, util
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor as InlinePattern, Pattern
from markdown.treeprocessors import InlineProcessor

# Regular expression of a pattern -> whether a text holds what every match needs.
_CAN_MATCH: dict[str, Callable[[str], bool]] = {
    r'(?:(?<!\\)((?:\\{2})+)(?=`+)|(?<!\\)`)': lambda text: "`" in text,  # backtick
    r'\\(.)': lambda text: "\\" in text,  # escape
    r'(?<!\!)\[': lambda text: "[" in text,  # reference, link, short_reference
    r'\!\[': lambda text: "![" in text,  # image_link, image_reference, short_image_ref
    r'<([A-Za-z][A-Za-z0-9+.-]*://[^<>]*)>': lambda text: "://" in text and "<" in text,  # autolink
    r'<([^<> !]+@[^@<> ]+)>': lambda text: "@" in text and "<" in text,  # automail
    '  \\n': lambda text: "  \n" in text,  # linebreak
    # html: every alternative starts with '<' and the whole ends with '>'.
    r'''(<(\/?+[a-zA-Z][^\s"'<>@]*+(?:\s+[^\s"'=<>]++(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s"'=<>]++))?+)*+\s*+/?'''
    r'''|!--(?:(?!<!--|-->).)*--|[?](?:(?!<[?]|[?]>).)*[?]|!\[CDATA\[(?:(?!<!\[CDATA\[|\]\]>).)*\]\])>)''':
        lambda text: "<" in text and ">" in text,
    r'(&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)': lambda text: "&" in text and ";" in text,  # entity
    r'\*|_': lambda text: "*" in text or "_" in text,  # em_strong
}


def can_match_test(pattern: Pattern) -> Callable[[str], bool] | None:
    """A quick test that is false only for texts the pattern cannot match; None to always try it."""
    if not isinstance(pattern, InlinePattern) or type(pattern).getCompiledRegExp is not Pattern.getCompiledRegExp:
        return None
    return _CAN_MATCH.get(pattern.compiled_re.pattern)


# The private methods replaced and called here; without them, the stock processor stays.
_HANDLE_INLINE = "_InlineProcessor__handleInline"
_APPLY_PATTERN = "_InlineProcessor__applyPattern"


class SkippingInlineProcessor(InlineProcessor):
    """Python-Markdown's ``InlineProcessor``, whose pattern loop skips patterns that cannot match."""

    def run(self, tree, ancestors=None):
        self.tries = [(pattern, can_match_test(pattern)) for pattern in self.inlinePatterns]
        return super().run(tree, ancestors)

    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        # InlineProcessor.__handleInline, plus the ``can_match`` test before each try.
        if isinstance(data, util.AtomicString):
            return data
        apply = getattr(self, _APPLY_PATTERN)
        tries = self.tries
        count = len(tries)
        startIndex = 0
        while patternIndex < count:
            pattern, can_match = tries[patternIndex]
            if can_match is not None and not can_match(data):
                patternIndex, startIndex = patternIndex + 1, 0  # what a try without a match returns
                continue
            data, matched, startIndex = apply(pattern, data, patternIndex, startIndex)
            if not matched:
                patternIndex += 1
        return data


class InlineExtension(Extension):
    """Python-Markdown extension: the same inline processing, faster (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:
        if hasattr(InlineProcessor, _HANDLE_INLINE) and hasattr(InlineProcessor, _APPLY_PATTERN):
            md.treeprocessors.register(SkippingInlineProcessor(md), "inline", 20)
