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

from markdown import Markdown

from ..markdown_ext.chunk import EMPTY, ChunkExtension


class PageChunker(ChunkExtension):
    def __init__(self, budget: int) -> None:
        super().__init__(budget=budget)
        self.armed = False

    def arm(self) -> None:
        """The next ``Markdown`` made is the page MkDocs is about to render."""
        self.armed = True
        self.result = EMPTY

    def extendMarkdown(self, md: Markdown) -> None:
        if not self.armed:
            return  # a fragment another plugin converts (a docstring), or a page nobody armed for
        self.armed = False
        super().extendMarkdown(md)
