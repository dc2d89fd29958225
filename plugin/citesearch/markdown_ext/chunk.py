"""Chunk: group the blocks of each section into citable passages with stable anchors.

Runs as a Python-Markdown extension (a treeprocessor right after ``toc``), so any
Python-Markdown based generator (citesearch itself, the MkDocs plugin) produces
the same finished chunks: ``ChunkResult.finish`` needs only a page's id,
language and title, not a citesearch ``Document``.  The anchor of a
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

from ..engine.contract import HEADING_SEPARATOR
from ..model import Chunk, Heading
from .text import collapsed_length, element_text, heading_text, stash_index

# 2: blocks and list items end at line breaks; 3: headings without permalinks or
# control characters; 4: code lines and table cells kept
CHUNKER_VERSION = "4"
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

    @property
    def title_heading(self) -> int | None:
        return page_heading(self.headings)

    @property
    def heading_title(self) -> str | None:
        """The page's own H1 text, when it has one (see ``page_heading``)."""
        index = self.title_heading
        return self.headings[index].text if index is not None else None

    def finish(self, doc_id: str, lang: str, title: str) -> tuple[Chunk, ...]:
        """The citable chunks of the page: heading paths start at ``title``."""
        title_heading = self.title_heading
        finished = []
        for raw in self.chunks:
            names = tuple(self.headings[i].text for i in raw.headings if i != title_heading)
            finished.append(Chunk(
                doc_id=doc_id,
                anchor=raw.anchor,
                heading_path=(title, *names),
                text=raw.text,
                lang=lang,
                heading_text=HEADING_SEPARATOR.join(names),
            ))
        return tuple(finished)


EMPTY = ChunkResult((), (), frozenset())


def page_heading(headings: Sequence[Heading]) -> int | None:
    """Index of the heading that is the page's own title: a first heading that is the only H1.

    Documents with several H1s (RFC style: "# Summary", "# Motivation") use them
    as sections; their title comes from front matter or the file name instead.
    """
    h1s = [i for i, h in enumerate(headings) if h.level == 1]
    return h1s[0] if h1s == [0] else None


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
        # Whitespace collapsed: code keeps its indentation in the text, and
        # counting it would move chunk boundaries (and anchors) of every page with code.
        length = collapsed_length(block.text)
        same_section = bool(groups) and blocks[groups[-1][0]].section == block.section
        if same_section and (length == 0 or size + 1 + length <= budget):
            groups[-1].append(i)
            size += (1 + length) if length else 0
        else:
            groups.append([i])
            size = length
    return groups


def cut(blocks: Sequence[Block], paths: Sequence[tuple[int, ...]], budget: int) -> tuple[list[RawChunk], list[tuple[str, bool]]]:
    """The chunks of a page's blocks, and each block's mark: (its chunk's anchor, first block of it?).

    ``paths[i]`` is the open heading path of block ``i``.  The one rule set for
    every reader: Markdown (below) and built HTML (``pipeline.html_passages``).
    """
    chunks: list[RawChunk] = []
    marks: list[tuple[str, bool]] = [("", False)] * len(blocks)
    per_section: dict[str, int] = {}
    for group in group_blocks(blocks, budget):
        first = blocks[group[0]]
        position = per_section.get(first.section, 0) + 1
        per_section[first.section] = position
        anchor = anchor_for(first.section, position)
        text = "\n".join(blocks[i].text for i in group if blocks[i].text)
        chunks.append(RawChunk(anchor, first.section, paths[group[0]], text, len(group)))
        for n, i in enumerate(group):
            marks[i] = (anchor, n == 0)
    return chunks, marks


class ChunkTreeprocessor(Treeprocessor):
    def __init__(self, md: Markdown, extension: "ChunkExtension"):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        stash = self.md.htmlStash.rawHtmlBlocks
        toc = self.md.treeprocessors["toc"] if "toc" in self.md.treeprocessors else None
        permalink_class = getattr(toc, "permalink_class", "headerlink")
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
                headings.append(Heading(level, element.get("id", ""), heading_text(element, stash, permalink_class)))
                open_path.append(len(headings) - 1)
                section = headings[-1].id or TOP_SECTION
                continue
            elements.append(element)
            blocks.append(Block(section, element_text(element, stash)))
            paths.append(tuple(open_path))

        chunks, block_marks = cut(blocks, paths, self.extension.budget)
        marks = {id(element): mark for element, mark in zip(elements, block_marks)}  # id(element) -> (anchor, first block?)
        root[:] = [_marked(child, *marks[id(child)]) if id(child) in marks else child for child in root]

        ids = frozenset(el.get("id") for el in root.iter() if el.get("id"))
        self.extension.publish(ChunkResult(tuple(headings), tuple(chunks), ids))


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
    """Python-Markdown extension: after ``convert()``, the page's ``ChunkResult`` is
    both ``md.citesearch_chunks`` and this extension's ``result``.

    ``result`` serves hosts that make a new ``Markdown`` per page from one
    extension instance and drop it after converting (MkDocs).
    """

    def __init__(self, budget: int = DEFAULT_BUDGET, **kwargs):
        self.budget = budget
        self.result = EMPTY
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        self.md = md
        md.registerExtension(self)
        # Priority 5 like toc, registered after it: runs once toc gave the headings
        # their ids, and before any later processor at 5 (MkDocs collects the page's
        # anchors there, so links to passages pass its anchor validation).
        md.treeprocessors.register(ChunkTreeprocessor(md, self), "citesearch_chunk", 5)
        self.reset()

    def publish(self, result: ChunkResult) -> None:
        self.result = result
        self.md.citesearch_chunks = result

    def reset(self) -> None:
        # Markdown skips the treeprocessors for blank input: start every document empty.
        self.publish(EMPTY)
