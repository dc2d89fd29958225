"""Chunking: whole blocks, nothing lost, stable anchors — as properties over generated documents."""

from __future__ import annotations

import re
from dataclasses import dataclass

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from markdown.treeprocessors import Treeprocessor

from citesearch.markdown_ext.chunk import EMPTY, Block, ChunkExtension, group_blocks
from citesearch.markdown_ext.text import collapsed_length

# --- a tiny model of a Markdown document, so every test knows the expected text -----------------

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)


@dataclass(frozen=True)
class Para:
    words: tuple[str, ...]

    def markdown(self, tag: str) -> str:
        return " ".join(self.words) + f" {tag}"

    def text(self, tag: str) -> str:
        return " ".join(self.words) + f" {tag}"


@dataclass(frozen=True)
class ListBlock:
    items: tuple[tuple[str, ...], ...]

    def markdown(self, tag: str) -> str:
        return "\n".join(f"- {' '.join(item)}" for item in self.items) + f" {tag}"

    def text(self, tag: str) -> str:
        return " ".join(" ".join(item) for item in self.items) + f" {tag}"


@dataclass(frozen=True)
class Code:
    lines: tuple[tuple[str, ...], ...]

    def markdown(self, tag: str) -> str:
        body = "\n".join(" ".join(line) for line in self.lines)
        return f"```\n{body}\n{tag}\n```"

    def text(self, tag: str) -> str:
        return " ".join(" ".join(line) for line in self.lines if line) + f" {tag}"


BLOCK = st.one_of(
    st.builds(Para, st.lists(WORD, min_size=1, max_size=60).map(tuple)),
    st.builds(ListBlock, st.lists(st.lists(WORD, min_size=1, max_size=8).map(tuple), min_size=1, max_size=6).map(tuple)),
    st.builds(Code, st.lists(st.lists(WORD, min_size=1, max_size=8).map(tuple), min_size=1, max_size=6).map(tuple)),
)
SECTION = st.tuples(st.sampled_from([2, 3]), st.lists(BLOCK, min_size=0, max_size=6))
DOC = st.tuples(st.lists(BLOCK, max_size=3), st.lists(SECTION, max_size=5))


def render(doc, budget: int = 200):
    """Markdown source, the expected text of each block in order, and the parsed chunks.

    Each block ends with a tag naming its section and position (``sec1b0z``), so
    its text is unique and does not change when other sections are edited.
    """
    intro, sections = doc
    parts, expected = [], []
    for j, block in enumerate(intro):
        parts.append(block.markdown(f"introb{j}z"))
        expected.append(block.text(f"introb{j}z"))
    for s, (level, blocks) in enumerate(sections):
        parts.append(f"{'#' * level} Section {s} {{ #sec{s} }}")
        for j, block in enumerate(blocks):
            parts.append(block.markdown(f"sec{s}b{j}z"))
            expected.append(block.text(f"sec{s}b{j}z"))
    source = "\n\n".join(parts) + "\n"
    md = markdown.Markdown(extensions=["toc", "fenced_code", "attr_list", ChunkExtension(budget=budget)])
    html = md.convert(source)
    return source, expected, md.citesearch_chunks.chunks, html


@settings(max_examples=60, deadline=None)
@given(DOC)
def test_chunking_loses_no_text_and_keeps_order(doc):
    _, expected, chunks, _ = render(doc)
    # Blocks end at line breaks inside a chunk; list items too; code keeps its
    # line breaks (U+2028) and indentation: compared with whitespace collapsed.
    assert " ".join(" ".join(c.text.split()) for c in chunks if c.text) == " ".join(expected)


@settings(max_examples=60, deadline=None)
@given(DOC)
def test_chunking_cuts_no_block(doc):
    _, expected, chunks, _ = render(doc)
    for text in expected:
        assert sum(text in " ".join(c.text.split()) for c in chunks) == 1, text


@settings(max_examples=60, deadline=None)
@given(DOC, st.integers(min_value=60, max_value=900))
def test_merged_chunks_fit_the_budget(doc, budget):
    _, expected, chunks, _ = render(doc, budget)
    for chunk in chunks:
        if chunk.blocks > 1:  # counted with whitespace collapsed: code keeps its indentation
            assert collapsed_length(chunk.text) <= budget


@settings(max_examples=60, deadline=None)
@given(DOC)
def test_anchors_are_unique_and_each_is_an_id_in_the_page(doc):
    _, _, chunks, html = render(doc)
    anchors = [c.anchor for c in chunks]
    assert len(anchors) == len(set(anchors))
    for anchor in anchors:
        assert html.count(f'id="{anchor}"') == 1


# --- stability: edits elsewhere never move an anchor ---------------------------------------------

def anchors_by_section(doc) -> dict[str, list[tuple[str, str]]]:
    _, _, chunks, _ = render(doc)
    found: dict[str, list[tuple[str, str]]] = {}
    for chunk in chunks:
        found.setdefault(chunk.section, []).append((chunk.anchor, chunk.text))
    return found


@settings(max_examples=40, deadline=None)
@given(DOC, st.data())
def test_inserting_a_section_moves_no_other_anchor(doc, data):
    intro, sections = doc
    before = anchors_by_section(doc)
    position = data.draw(st.integers(min_value=0, max_value=len(sections)))
    new = (2, data.draw(st.lists(BLOCK, min_size=1, max_size=3)))
    edited = source_with_section(intro, sections, position, new)
    after = chunks_of(edited)
    for section, entries in before.items():
        assert after.get(section) == entries


@settings(max_examples=40, deadline=None)
@given(DOC, st.data())
def test_editing_or_appending_to_one_section_moves_no_anchor_elsewhere(doc, data):
    intro, sections = doc
    if not sections:
        return
    target = data.draw(st.integers(min_value=0, max_value=len(sections) - 1))
    level, blocks = sections[target]
    appended = data.draw(BLOCK)
    edited_sections = list(sections)
    edited_sections[target] = (level, [*blocks, appended])
    before = anchors_by_section((intro, sections))
    after = anchors_by_section((intro, edited_sections))
    for section, entries in before.items():
        if section == f"sec{target}":
            # appending keeps every earlier anchor of the section itself, too
            assert [a for a, _ in after[section][: len(entries)]] == [a for a, _ in entries]
        else:
            assert after.get(section) == entries


def source_with_section(intro, sections, position, new):
    parts = [block.markdown(f"introb{j}z") for j, block in enumerate(intro)]
    entries = [(f"sec{i}", s) for i, s in enumerate(sections)]
    entries.insert(position, ("inserted", new))
    for sid, (level, blocks) in entries:
        parts.append(f"{'#' * level} Section {{ #{sid} }}")
        parts += [block.markdown(f"{sid}b{j}z") for j, block in enumerate(blocks)]
    return "\n\n".join(parts) + "\n"


def chunks_of(source: str) -> dict[str, list[tuple[str, str]]]:
    md = markdown.Markdown(extensions=["toc", "fenced_code", "attr_list", ChunkExtension(budget=200)])
    md.convert(source)
    found: dict[str, list[tuple[str, str]]] = {}
    for chunk in md.citesearch_chunks.chunks:
        found.setdefault(chunk.section, []).append((chunk.anchor, chunk.text))
    return found


# --- the grouping rule itself ----------------------------------------------------------------------

def test_a_block_bigger_than_the_budget_is_a_chunk_alone():
    blocks = [Block("s", "a" * 10), Block("s", "b" * 50), Block("s", "c" * 10)]
    assert group_blocks(blocks, budget=30) == [[0], [1], [2]]


def test_blocks_of_different_sections_never_share_a_chunk():
    blocks = [Block("s1", "a"), Block("s2", "b")]
    assert group_blocks(blocks, budget=600) == [[0], [1]]


def test_small_blocks_merge_up_to_the_budget():
    blocks = [Block("s", "x" * 10)] * 5
    assert group_blocks(blocks, budget=31) == [[0, 1], [2, 3], [4]]  # 10 + 1 + 10 + 1 + 10 > 31
    assert group_blocks(blocks, budget=32) == [[0, 1, 2], [3, 4]]


def test_headings_give_their_id_to_the_anchor_and_explicit_ids_win():
    md = markdown.Markdown(extensions=["toc", "attr_list", ChunkExtension()])
    html = md.convert("Intro.\n\n## Getting Started\n\nText.\n\n## Other { #custom }\n\nMore.\n")
    anchors = [c.anchor for c in md.citesearch_chunks.chunks]
    assert anchors == ["top--1", "getting-started--1", "custom--1"]
    assert re.search(r'<p data-chunk="custom--1" id="custom--1">More.</p>', html)


def test_raw_html_and_fenced_code_are_wrapped_so_their_marks_survive():
    md = markdown.Markdown(extensions=["toc", "fenced_code", ChunkExtension(budget=10)])
    html = md.convert("## A\n\n<div class=\"x\">raw words here</div>\n\n```\ncode words\n```\n")
    assert '<div data-chunk="a--1" id="a--1"><div class="x">raw words here</div>' in html
    assert '<div data-chunk="a--2" id="a--2"><pre><code>code words' in html
    assert [c.text for c in md.citesearch_chunks.chunks] == ["raw words here", "\u2028code words"]


def test_code_keeps_its_lines_and_indentation_and_rows_their_cells():
    # The text format of markdown_ext/text.py: quotes show code as code and a row with its header.
    md = markdown.Markdown(extensions=["toc", "fenced_code", "tables", ChunkExtension()])
    md.convert("Intro.\n\n```python\n\ndef f(x):\n    return  x < 1   \n\n```\n\n    indented\n      block\n\n"
               "| a | b |\n|---|---|\n| 1 |  |\n|  |  |\n")
    assert md.citesearch_chunks.chunks[0].text == (
        "Intro.\n\u2028def f(x):\u2028    return  x < 1\n\u2028indented\u2028  block\n\ta\tb\n\t1\t")


def test_blocks_and_list_items_end_at_line_breaks_in_the_chunk_text():
    md = markdown.Markdown(extensions=["toc", "tables", ChunkExtension()])
    md.convert("First   paragraph\nsoft wrapped.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert md.citesearch_chunks.chunks[0].text == "First paragraph soft wrapped.\none\ntwo\n\ta\tb\n\t1\t2"


# --- finished chunks for any host --------------------------------------------------------------------

def test_finished_chunks_need_only_an_id_a_language_and_a_title():
    md = markdown.Markdown(extensions=["toc", ChunkExtension()])
    md.convert("# Install\n\nIntro.\n\n## With pip\n\nRun it.\n\n### Offline\n\nCopy it.\n")
    result = md.citesearch_chunks
    assert result.heading_title == "Install"
    chunks = result.finish("guide/install", "en", "Installing")
    assert [(c.doc_id, c.lang, c.anchor) for c in chunks] == [
        ("guide/install", "en", "install--1"), ("guide/install", "en", "with-pip--1"), ("guide/install", "en", "offline--1")]
    # The page's own H1 is the title, not a section of the path.
    assert [c.heading_path for c in chunks] == [
        ("Installing",), ("Installing", "With pip"), ("Installing", "With pip", "Offline")]
    assert chunks[2].heading_text == "With pip › Offline"


def test_pages_with_several_h1s_have_no_heading_title_and_keep_them_in_the_path():
    md = markdown.Markdown(extensions=["toc", ChunkExtension()])
    md.convert("# Summary\n\nShort.\n\n# Motivation\n\nWhy.\n")
    result = md.citesearch_chunks
    assert result.heading_title is None
    assert [c.heading_path for c in result.finish("rfc", "en", "RFC 1")] == [("RFC 1", "Summary"), ("RFC 1", "Motivation")]


def test_one_extension_instance_reports_every_page_of_a_host_that_drops_its_markdown():
    # MkDocs builds a new Markdown per page from the same extension instances.
    extension = ChunkExtension()
    seen = []
    for source in ["## A\n\nFirst page.\n", "", "## B\n\nThird page.\n"]:
        markdown.Markdown(extensions=["toc", extension]).convert(source)
        seen.append(extension.result)
    assert [c.anchor for c in seen[0].chunks] == ["a--1"]
    assert seen[1] == EMPTY  # a blank page does not inherit the page before it
    assert [c.text for c in seen[2].chunks] == ["Third page."]


class _CollectIds(Treeprocessor):
    def run(self, root):
        self.ids = {el.get("id") for el in root.iter() if el.get("id")}


def test_passage_ids_exist_for_a_host_processor_registered_at_toc_priority():
    # MkDocs collects a page's anchors (for its link validation) at priority 5, after toc.
    md = markdown.Markdown(extensions=["toc", ChunkExtension()])
    collect = _CollectIds(md)
    md.treeprocessors.register(collect, "host_anchors", 5)
    md.convert("## Setup\n\nText.\n")
    assert {"setup", "setup--1"} <= collect.ids


def test_a_fenced_block_inside_raw_html_reaches_the_text_not_its_placeholder():
    # Python-Markdown stashes the fenced block, then the whole <div> with the
    # block's placeholder inside it (FastAPI's "termy" consoles): the chunk text
    # once read "\x02wzxhzdk:0\x03" where the command should be.
    source = '<div class="termy">\n\n```console\n$ pip install "fastapi[standard]"\n```\n\n</div>\n\nAfter it.\n'
    texts = [text for chunks in chunks_of(source).values() for _, text in chunks]
    assert texts == ['\u2028$ pip install "fastapi[standard]"\nAfter it.']
