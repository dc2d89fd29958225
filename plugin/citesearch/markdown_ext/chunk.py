"""Chunk: group the blocks of each section into citable passages with stable anchors.

Runs as a Python-Markdown extension (a treeprocessor after ``toc``), so any
Python-Markdown based generator can produce the same chunks.  The anchor of a
chunk is ``<section id>--<n>``: the id of the heading that opens its section
and the chunk's position inside that section.  Edits to one section therefore
never move the anchors of another, and appending to a section only adds anchors.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from typing import Sequence

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from ..model import Heading
from .text import element_text, stash_index

CHUNKER_VERSION = "2"  # 2: blocks and list items end at line breaks
DEFAULT_BUDGET = 600
TOP_SECTION = "top"  # section of the blocks before the first heading
CHUNK_ATTR = "data-chunk"
_HEADING_RE = re.compile(r"^h([1-6])$")


@dataclass(frozen=True)
class Block:
    """What the grouping needs to know about one top-level block."""

    section: str
    text: str


@dataclass(frozen=True)
class RawChunk:
    anchor: str
    section: str
    headings: tuple[int, ...]  # indexes into ChunkResult.headings: the open heading path
    text: str
    blocks: int


@dataclass(frozen=True)
class ChunkResult:
    headings: tuple[Heading, ...]
    chunks: tuple[RawChunk, ...]
    ids: frozenset[str]


def anchor_for(section: str, position: int) -> str:
    return f"{section}--{position}"


def group_blocks(blocks: Sequence[Block], budget: int) -> list[list[int]]:
    """Indexes of the blocks of each chunk, in order.

    Consecutive blocks of one section share a chunk while their text fits the
    budget; a block bigger than the budget is a chunk alone; blocks are never cut.
    """
    groups: list[list[int]] = []
    size = 0
    for i, block in enumerate(blocks):
        length = len(block.text)
        same_section = bool(groups) and blocks[groups[-1][0]].section == block.section
        if same_section and (length == 0 or size + 1 + length <= budget):
            groups[-1].append(i)
            size += (1 + length) if length else 0
        else:
            groups.append([i])
            size = length
    return groups


class ChunkTreeprocessor(Treeprocessor):
    def __init__(self, md: Markdown, budget: int):
        super().__init__(md)
        self.budget = budget

    def run(self, root: etree.Element) -> None:
        stash = self.md.htmlStash.rawHtmlBlocks
        headings: list[Heading] = []
        open_path: list[int] = []  # heading indexes of the current section's ancestry
        section = TOP_SECTION
        elements: list[etree.Element] = []
        blocks: list[Block] = []
        paths: list[tuple[int, ...]] = []
        for element in list(root):
            level = _heading_level(element)
            if level:
                while open_path and headings[open_path[-1]].level >= level:
                    open_path.pop()
                headings.append(Heading(level, element.get("id", ""), element_text(element, stash)))
                open_path.append(len(headings) - 1)
                section = headings[-1].id or TOP_SECTION
                continue
            elements.append(element)
            blocks.append(Block(section, element_text(element, stash)))
            paths.append(tuple(open_path))

        chunks: list[RawChunk] = []
        marks: dict[int, tuple[str, bool]] = {}  # id(element) -> (anchor, first block?)
        per_section: dict[str, int] = {}
        for group in group_blocks(blocks, self.budget):
            first = blocks[group[0]]
            position = per_section.get(first.section, 0) + 1
            per_section[first.section] = position
            anchor = anchor_for(first.section, position)
            text = "\n".join(blocks[i].text for i in group if blocks[i].text)
            chunks.append(RawChunk(anchor, first.section, paths[group[0]], text, len(group)))
            for n, i in enumerate(group):
                marks[id(elements[i])] = (anchor, n == 0)
        root[:] = [_marked(child, *marks[id(child)]) if id(child) in marks else child for child in root]

        ids = frozenset(el.get("id") for el in root.iter() if el.get("id"))
        self.md.citesearch_chunks = ChunkResult(tuple(headings), tuple(chunks), ids)


def _heading_level(element: etree.Element) -> int:
    match = _HEADING_RE.match(element.tag) if isinstance(element.tag, str) else None
    return int(match.group(1)) if match else 0


def _marked(element: etree.Element, anchor: str, first_block: bool) -> etree.Element:
    """The block with the chunk marker (and the anchor id on the chunk's first block).

    A raw-HTML placeholder is replaced wholesale when Markdown serialises, and a
    block with its own id keeps it; both are wrapped in a div that carries the marks.
    """
    target = element
    if (stash_index(element.text) is not None and len(element) == 0) or (first_block and element.get("id")):
        target = etree.Element("div")
        target.append(element)
        target.tail, element.tail = element.tail, None
    target.set(CHUNK_ATTR, anchor)
    if first_block:
        target.set("id", anchor)
    return target


class ChunkExtension(Extension):
    """Python-Markdown extension: after ``convert()``, ``md.citesearch_chunks`` holds the chunks."""

    def __init__(self, budget: int = DEFAULT_BUDGET, **kwargs):
        self.budget = budget
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        self.md = md
        md.registerExtension(self)
        # After toc (5), which gives headings their ids; before unescape (0).
        md.treeprocessors.register(ChunkTreeprocessor(md, self.budget), "citesearch_chunk", 4)
        self.reset()

    def reset(self) -> None:
        # Markdown skips the treeprocessors for blank input: start every document empty.
        self.md.citesearch_chunks = ChunkResult((), (), frozenset())
