"""The Markdown fast paths (inline patterns, block processors): the same HTML, chunks and links as Python-Markdown's own."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.extensions.toc import slugify_unicode
from markdown.inlinepatterns import InlineProcessor as InlinePattern

from citesearch.markdown_ext.blocks import BlockExtension, can_apply_test
from citesearch.markdown_ext.chunk import ChunkExtension
from citesearch.markdown_ext.inline import InlineExtension, SkippingInlineProcessor, can_match_test
from citesearch.markdown_ext import text as text_module
from citesearch.markdown_ext.links import LinkExtension
from citesearch.markdown_ext.text import html_text, normalise, parsed_html_text

# Pieces that start, end or break inline matches, so generated text hits every pattern and its edges.
PIECES = [
    "`", "``", "\\", "\\\\", "\\`", "[", "]", "(", ")", "!", "![", "<", ">", "&", ";", "#", ":", "/", "@", "*", "**",
    "_", "__", " ", "  \n", "\n", "\n\n", "a", "word", "Ünï", "12", "&amp;", "&#35;", "&#x41;", "&nbsp", "http://x.y/z",
    "<http://x.y>", "<a@b.c>", "a@b.c", "[a]", "[a](b.md#c)", "[a](http://u 'T')", "[a][r]", "\n\n[r]: http://u\n",
    "![i](s.png)", "![i][r]", "<b>", "</b>", "<span class=\"x\">", "<!-- c -->", "<?p ?>", "<![CDATA[x]]>",
    "`co*de`", "*em*", "**st**", "_u_", "{: #i }", "# ", "\n## H ", "\n- ", "\n1. ", "> ", "\n!!! note\n    ",
    "\n```\n", "\n    ", "|", "\n| a | b |\n|---|---|\n| c | d |\n", "\x02", "\x03", "\n---\n", "\n* * *\n", "\n___",
    "-", "\n===\n", "\n> q", ">", "\n    - i", "]:", "[r]:", " [r]: <u> \"t\"\n", "\n\t", "|x|\n", "| a |\n| - |", "a|b\n-|-\n", "|-|",
]
SOURCE = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def converter(fast: bool) -> markdown.Markdown:
    """The Markdown configuration the build uses, with or without the fast paths."""
    return markdown.Markdown(
        extensions=["toc", "fenced_code", "tables", "admonition", "attr_list",
                    *([InlineExtension(), BlockExtension()] if fast else []),
                    LinkExtension({"b.md": "b.html"}), ChunkExtension(budget=40)],
        extension_configs={"toc": {"slugify": slugify_unicode, "toc_depth": "2-3"}},
        output_format="html",
    )


SLOW, FAST = converter(False), converter(True)


def convert(md: markdown.Markdown, source: str):
    md.reset()
    return md.convert(source), md.citesearch_chunks, md.citesearch_links, md.toc_tokens


@settings(max_examples=400, deadline=None)
@given(SOURCE)
def test_the_fast_path_gives_what_python_markdown_gives(source):
    assert convert(FAST, source) == convert(SLOW, source)


def test_the_build_uses_the_fast_paths():
    from citesearch.config import Config
    from citesearch.pipeline.parse import Parser

    md = Parser(Config(), {}).md
    assert isinstance(md.treeprocessors["inline"], SkippingInlineProcessor)
    assert md.parser.parseBlocks.__func__ is FAST.parser.parseBlocks.__func__
    assert not isinstance(SLOW.treeprocessors["inline"], SkippingInlineProcessor)


def test_every_pattern_of_the_build_has_a_quick_test():
    # Fails when Python-Markdown changes a pattern's expression: check its new one, then update _CAN_MATCH.
    missing = [name for name in FAST.inlinePatterns._priority if can_match_test(FAST.inlinePatterns[name.name]) is None]
    assert missing == []


PATTERN_TEXT = st.text(alphabet="`\\[]()!<>&;#:/@*_ \n\tax1?-=\"'|", max_size=30) | SOURCE


@pytest.mark.parametrize("name", [item.name for item in FAST.inlinePatterns._priority])
@settings(max_examples=300, deadline=None)
@given(text=PATTERN_TEXT)
def test_a_quick_test_is_false_only_where_the_pattern_cannot_match(name, text):
    pattern = FAST.inlinePatterns[name]
    if pattern.compiled_re.search(text):
        assert can_match_test(pattern)(text)


def test_a_quick_test_holds_on_every_pair_of_pieces():
    texts = [a + b for a in PIECES for b in PIECES]
    for item in FAST.inlinePatterns._priority:
        pattern = FAST.inlinePatterns[item.name]
        can_match = can_match_test(pattern)
        wrong = [text for text in texts if pattern.compiled_re.search(text) and not can_match(text)]
        assert wrong == [], item.name


def test_text_without_marks_tries_no_pattern(monkeypatch):
    tried = []
    original = SkippingInlineProcessor._InlineProcessor__applyPattern

    def counting(self, pattern, *args):
        tried.append(pattern)
        return original(self, pattern, *args)

    monkeypatch.setattr(SkippingInlineProcessor, "_InlineProcessor__applyPattern", counting)
    assert "<p" in convert(FAST, "plain words, nothing to match.")[0]
    assert tried == []
    convert(FAST, "a [link](b.md) here")
    assert {FAST.inlinePatterns["link"], FAST.inlinePatterns["reference"]} <= set(tried)


class Percent(InlinePattern):
    def handleMatch(self, m, data):
        return "PERCENT", m.start(0), m.end(0)


def test_patterns_without_a_quick_test_are_always_tried():
    md = converter(True)
    md.inlinePatterns.register(Percent(r"%%"), "percent", 175)
    known = markdown.inlinepatterns.EscapeInlineProcessor(r"\\(.)", md)
    known.compiled_re = re.compile(r"\\(.)|~")  # same class, another expression: no quick test
    md.inlinePatterns.register(known, "escape", 180)
    assert can_match_test(md.inlinePatterns["percent"]) is None
    assert can_match_test(md.inlinePatterns["escape"]) is None
    assert ">a PERCENT b</p>" in convert(md, "a %% b")[0]


def test_the_block_processors_that_search_whole_blocks_have_a_quick_test():
    # Fails when Python-Markdown changes one of them: check it again, then update _CAN_APPLY.
    quick = [type(processor).__name__ for processor in FAST.parser.blockprocessors if can_apply_test(processor)]
    assert quick == ["TableProcessor", "HashHeaderProcessor", "HRProcessor", "BlockQuoteProcessor", "ReferenceProcessor"]


@pytest.mark.parametrize("name", ["TableProcessor", "HashHeaderProcessor", "HRProcessor", "BlockQuoteProcessor"])
@settings(max_examples=300, deadline=None)
@given(block=PATTERN_TEXT)
def test_a_block_processor_is_skipped_only_where_its_test_is_false(name, block):
    processor = next(p for p in FAST.parser.blockprocessors if type(p).__name__ == name)
    if not can_apply_test(processor)(block):
        assert not processor.test(etree.Element("div"), block)


@settings(max_examples=300, deadline=None)
@given(block=PATTERN_TEXT)
def test_the_reference_processor_is_skipped_only_where_it_gives_the_block_back(block):
    md = converter(True)
    processor = next(p for p in md.parser.blockprocessors if type(p).__name__ == "ReferenceProcessor")
    if not can_apply_test(processor)(block):
        blocks = [block, "next"]
        assert processor.run(etree.Element("div"), blocks) is False
        assert blocks == [block, "next"] and md.references == {}


def test_plain_paragraphs_ask_no_skippable_processor(monkeypatch):
    asked = []
    for processor in FAST.parser.blockprocessors:
        if can_apply_test(processor):
            monkeypatch.setattr(processor, "test", lambda parent, block, name=type(processor).__name__: asked.append(name))
    convert(FAST, "A paragraph.\n\nAnother one, no marks.")
    assert asked == []
    convert(FAST, "# A heading\n\n> a quote")
    assert {"HashHeaderProcessor", "BlockQuoteProcessor"} <= set(asked)


# --- plain text of stashed code blocks, and whitespace normalising -------------------------------

CODE = st.text(alphabet="ab <>&;#x\"'\n\t\u2029é", max_size=30)


@settings(max_examples=300, deadline=None)
@given(code=CODE, language=st.sampled_from(["", "rust", "c++", "a-b"]), attributes=st.sampled_from(["", ' id="i"', ' class="x y"']))
def test_a_stashed_code_block_reads_as_the_html_parser_reads_it(code, language, attributes):
    md = markdown.Markdown(extensions=["fenced_code", "attr_list"])
    fence = "```" + ("{ ." + language + attributes.replace(' id="i"', " #i").replace(' class="x y"', " .x") + " }" if attributes else language)
    md.convert(f"{fence}\n{code}\n```\n")
    for raw in md.htmlStash.rawHtmlBlocks:
        assert html_text(raw) == parsed_html_text(raw)
    for raw in [f'<pre{attributes}><code class="language-{language}">{html.escape(code)}</code></pre>',
                f"<pre><code{attributes}>{code}</code></pre>", f"<pre><code>{code}</code></pre>\n"]:
        assert html_text(raw) == parsed_html_text(raw)


def test_code_blocks_skip_the_html_parser(monkeypatch):
    monkeypatch.setattr(text_module, "parsed_html_text", lambda raw: pytest.fail(raw))
    assert html_text('<pre class="p"><code class="language-rust">a &lt; b &amp;&amp; c\n</code></pre>') == "\u2029\x1ea < b && c\n\u2029"


def slow_normalise(text: str) -> str:
    lines = (" ".join(part.split()) for part in text.split("\u2029"))
    return "\n".join(line for line in lines if line)


@given(st.text(alphabet=" \t\n\u2029\u00a0\u3000ab", max_size=40))
def test_normalise_is_the_line_by_line_rule(text):
    assert normalise(text) == slow_normalise(text)
