"""Parse results on disk while a build runs: each page's HTML and chunks, read back when rendered or indexed.

Held in memory from the parse to the end of the index stage, a page's HTML,
chunk texts and packed term counts were most of a large build's peak (~30 KB
a page: 3 GB for 100,000 pages).  A spooled page keeps in memory what the
link check, the nav and the search key's order need (document, title,
links, ids); its HTML, headings and chunks are one unnamed temporary file's
bytes, read with ``pread`` (so a forked render process reads them too) when
its page is rendered, its cache row written or its chunks indexed.  (Its
element ids go once the links are checked: ``build``.)
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import tempfile
from array import array
from typing import Iterator, Sequence

from ..model import Chunk, Heading, ParsedDocument


class PageSpool:
    """An append-only temporary file of pages' HTML and chunks; removed when closed or garbage-collected."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="citesearch-pages-")
        self._end = 0

    def put(self, page: ParsedDocument) -> ParsedDocument:
        """``page`` without its HTML, its chunks read from here when asked for (a spooled page as it is)."""
        if isinstance(page.chunks, SpooledChunks):
            return page
        html = self._write(pickle.dumps((page.html, page.headings), pickle.HIGHEST_PROTOCOL))  # what a page renders
        chunks = self._write(pickle.dumps(page.chunks, pickle.HIGHEST_PROTOCOL))
        return dataclasses.replace(page, html="", headings=(),  # type: ignore[arg-type]
                                   chunks=SpooledChunks(self, html, chunks, len(page.chunks)))

    def _write(self, data: bytes) -> tuple[int, int]:
        at = self._end
        done = 0
        while done < len(data):  # pwrite may write less than asked (a signal, a large write)
            done += os.pwrite(self._file.fileno(), memoryview(data)[done:], at + done)
        self._end += len(data)
        return at, len(data)

    def read(self, where: tuple[int, int]) -> bytes:
        at, length = where
        data = os.pread(self._file.fileno(), length, at)
        if len(data) != length:  # the file is ours alone, unlinked: only a failing disk gets here
            raise OSError(f"page spool: read {len(data)} bytes of {length}")
        return data

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> PageSpool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class SpooledChunks(Sequence[Chunk]):
    """A spooled page's chunks: its length known, its chunks read (each time) when indexed."""

    __slots__ = ("_spool", "_html", "_chunks", "_count")

    def __init__(self, spool: PageSpool, html: tuple[int, int], chunks: tuple[int, int], count: int):
        self._spool, self._html, self._chunks, self._count = spool, html, chunks, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i):
        return self.load()[i]

    def __iter__(self) -> Iterator[Chunk]:
        return iter(self.load())

    def load(self) -> tuple[Chunk, ...]:
        return pickle.loads(self._spool.read(self._chunks))

    def html_and_headings(self) -> tuple[str, tuple[Heading, ...]]:
        return pickle.loads(self._spool.read(self._html))


def with_html(page: ParsedDocument) -> ParsedDocument:
    """``page`` with its HTML and headings, read back from the spool (an unspooled page as it is)."""
    if isinstance(page.chunks, SpooledChunks):
        html, headings = page.chunks.html_and_headings()
        return dataclasses.replace(page, html=html, headings=headings)
    return page


def restored(page: ParsedDocument) -> ParsedDocument:
    """``page`` as it was parsed: HTML, headings and chunks in memory again."""
    if isinstance(page.chunks, SpooledChunks):
        return dataclasses.replace(with_html(page), chunks=page.chunks.load())
    return page


class ChunkRefs(Sequence[Chunk]):
    """The chunks with text of ``pages``, by ref (their position in the index), read a page at a time.

    Only each ref's page and position are kept (two ints); a spooled page's
    chunks are read when one of its refs is asked for, and only the last page
    read is held.  The index goes through the refs in order, a few times.
    """

    def __init__(self, pages: Sequence):
        self.pages = pages
        self._page = array("i")  # the page of each ref
        self._position = array("i")  # its position among that page's chunks
        for n, page in enumerate(pages):
            for position, chunk in enumerate(page.chunks):
                if chunk.text:
                    self._page.append(n)
                    self._position.append(position)
        self._held: tuple[int, Sequence[Chunk]] = (-1, ())
        self.owners = _Owners(self)
        # A build's pages: indexed once, by a process that ends (serve's stay in memory and are indexed again).
        self.spooled = any(isinstance(page.chunks, SpooledChunks) for page in pages)

    def __len__(self) -> int:
        return len(self._page)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[ref] for ref in range(*i.indices(len(self)))]
        n = self._page[i]
        if self._held[0] != n:
            chunks = self.pages[n].chunks
            self._held = (n, chunks.load() if isinstance(chunks, SpooledChunks) else chunks)
        return self._held[1][self._position[i]]

    def page_starts(self) -> list[int]:
        """The first ref of each page that has one, ascending."""
        pages = self._page
        return [ref for ref in range(len(pages)) if not ref or pages[ref - 1] != pages[ref]]


class _Owners(Sequence):
    """The page of each ref."""

    def __init__(self, refs: ChunkRefs):
        self._refs = refs

    def __len__(self) -> int:
        return len(self._refs)

    def __getitem__(self, ref):
        if isinstance(ref, slice):
            return [self[r] for r in range(*ref.indices(len(self)))]
        return self._refs.pages[self._refs._page[ref]]
