"""The chunker, applied to the Markdown of pages only.

MkDocs builds each page's ``Markdown`` from ``config.markdown_extensions``, and
so do other plugins for their own fragments: mkdocstrings converts every
docstring with that list, and a chunked docstring (``<div data-chunk>``) breaks
its ``strip_paragraph`` ("Markdown failed to strip top-level tags"), besides
polluting the page's chunks. The plugin arms the chunker just before MkDocs
renders a page; the first ``Markdown`` made after that is the page's (MkDocs
makes it first thing in ``Page.render``, before any nested conversion of that
page can start), and every other instance the extension is given to stays
untouched.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor

from ..markdown_ext.chunk import EMPTY, ChunkExtension
from ..model import Chunk

# Material's pragma: `## Section { data-search-exclude }` (attr_list) keeps that section out of search.
EXCLUDE_ATTR = "data-search-exclude"
_HEADING = re.compile(r"h[1-6]$")


class PageChunker(ChunkExtension):
    def __init__(self, budget: int) -> None:
        super().__init__(budget=budget)
        self.armed = False
        self.excluded_sections: frozenset[str] = frozenset()

    def arm(self) -> None:
        """The next ``Markdown`` made is the page MkDocs is about to render."""
        self.armed = True
        self.result = EMPTY
        self.excluded_sections = frozenset()

    def searchable(self, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
        """The chunks outside sections whose heading has Material's ``data-search-exclude``."""
        if not self.excluded_sections:
            return chunks
        return tuple(c for c in chunks if c.anchor.rsplit("--", 1)[0] not in self.excluded_sections)

    def extendMarkdown(self, md: Markdown) -> None:
        if not self.armed:
            return  # a fragment another plugin converts (a docstring), or a page nobody armed for
        self.armed = False
        super().extendMarkdown(md)
        # After the chunker (5): headings have their ids, sections their anchors.
        md.treeprocessors.register(_ExcludedSections(md, self), "citesearch_excluded_sections", 4.9)


class _ExcludedSections(Treeprocessor):
    def __init__(self, md: Markdown, chunker: PageChunker) -> None:
        super().__init__(md)
        self.chunker = chunker

    def run(self, root: etree.Element) -> None:
        self.chunker.excluded_sections = frozenset(
            el.get("id", "") for el in root
            if isinstance(el.tag, str) and _HEADING.match(el.tag) and EXCLUDE_ATTR in el.attrib  # its value is None
        )
