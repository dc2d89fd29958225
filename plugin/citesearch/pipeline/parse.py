"""Parse: Markdown -> HTML body, headings, chunks and links, one document at a time."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Sequence

import markdown
from markdown.extensions.toc import slugify_unicode

from ..markdown_ext.blocks import BlockExtension
from ..markdown_ext.chunk import ChunkExtension, ChunkResult
from ..config import Config
from ..errors import Problem
from ..markdown_ext.inline import InlineExtension
from ..markdown_ext.links import LinkExtension
from ..model import Chunk, Document, ParsedDocument
from ..progress import Progress
from .lunr_index import field_counts, packed
from .markdown_names import without_markdown_suffix
from .spool import PageSpool
from .workers import PARALLEL_MIN_DOCUMENTS, die_with_parent, fork_is_safe

from ..markdown_ext import chunk as chunk_extension
from ..markdown_ext import configured

# What a parse result depends on besides its Document; the build cache keys on
# it, so editing anything else (the theme, the analyzer) re-parses nothing.
CACHE_MODULES = (__name__, "citesearch.markdown_ext.blocks", "citesearch.markdown_ext.chunk", "citesearch.markdown_ext.inline",
                 "citesearch.markdown_ext.configured",
                 "citesearch.markdown_ext.links", "citesearch.markdown_ext.text", "citesearch.model", "citesearch.engine.contract",
                 "citesearch.pipeline.markdown_names")


def cache_inputs(config: Config) -> dict:
    inputs = {"markdown": markdown.__version__, "chunker": chunk_extension.CHUNKER_VERSION,
              "chunk_budget": config.chunk_budget}
    if config.markdown_extensions:  # absent otherwise: existing caches stay valid
        inputs["extensions"] = [[name, dict(options)] for name, options in config.markdown_extensions]
        inputs["extension_versions"] = configured.versions(config.markdown_extensions)
    return inputs


# Called as progress(stage, done, total) while documents are parsed.


class DocumentTooComplex(Exception):
    """Markdown ran out of stack on this document (the loader rejects the usual causes)."""

    def __init__(self, problem: Problem):
        super().__init__(problem)  # the only argument, so the exception pickles across processes
        self.problem = problem


class Parser:
    """One configured Markdown instance, reset between documents (building it is slow)."""

    def __init__(self, config: Config, urls: dict[str, str], spool: PageSpool | None = None):
        self.config = config
        self.spool = spool  # where parse_many puts each page's HTML and chunks as it comes (none: kept in memory)
        self.links = LinkExtension(urls)
        added, configs = configured.extension_list(
            config.markdown_extensions, {"toc": {"slugify": slugify_unicode, "toc_depth": "2-3"}})
        self.md = markdown.Markdown(
            extensions=[
                "toc",
                "fenced_code",
                "tables",
                "admonition",
                "attr_list",
                *added,  # from citesearch.yml, as mkdocs.yml names them
                InlineExtension(),  # the same inline patterns, skipping those that cannot match
                BlockExtension(),  # the same block processors, skipping those that cannot apply
                self.links,
                ChunkExtension(budget=config.chunk_budget),
            ],
            extension_configs=configs,
            output_format="html",
        )

    def parse(self, doc: Document) -> ParsedDocument:
        self.md.reset()
        self.links.page_path = doc.rel_path
        self.links.page_url = doc.url
        try:
            html = self.md.convert(doc.body)
        except RecursionError:
            raise DocumentTooComplex(Problem(doc.rel_path, doc.body_line, "document is nested too deeply to render")) from None
        except Exception as exc:
            if not self.config.markdown_extensions:
                raise
            # A configured extension failed (a missing include, say): name the document, not a traceback.
            message = f"a Markdown extension from citesearch.yml failed here: {type(exc).__name__}: {exc}"
            raise DocumentTooComplex(Problem(doc.rel_path, doc.body_line, message)) from None
        result: ChunkResult = self.md.citesearch_chunks
        title = doc.title or result.heading_title or fallback_title(doc)
        return ParsedDocument(
            doc=doc,
            title=title,
            html=html,
            headings=result.headings,
            chunks=_with_terms(result.finish(doc.id, doc.lang, title)),
            links=self.md.citesearch_links,
            ids=result.ids,
        )

    def parse_many(self, documents: Sequence[Document], progress: Progress | None = None) -> list[ParsedDocument]:
        """Parse documents in order; large builds use every core, with identical results."""
        workers = min(os.cpu_count() or 1, 8)
        if workers < 2 or not fork_is_safe() or len(documents) < PARALLEL_MIN_DOCUMENTS:
            pages = []
            for i, doc in enumerate(documents):
                pages.append(self.kept(self.parse(doc)))
                if progress:
                    progress("parse", i + 1, len(documents))
            return pages
        context = multiprocessing.get_context("fork")
        # Longest first, in small batches: no worker is left alone with a long
        # document at the end while the other core idles.  Results go back in order.
        order = sorted(range(len(documents)), key=lambda i: -len(documents[i].body))
        pages: list[ParsedDocument | None] = [None] * len(documents)
        # The forked workers already hold the documents: only their positions
        # travel, and only what parsing adds comes back (not the source again).
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                 initargs=(self.config, self.links.urls, documents, os.getpid())) as pool:
            parsed = pool.map(_parse_in_worker, order, chunksize=4)
            for done, (i, fields) in enumerate(zip(order, parsed), 1):
                pages[i] = self.kept(_received(documents[i], fields))
                if progress:
                    progress("parse", done, len(documents))
        return pages  # type: ignore[return-value]  # every slot filled


    def kept(self, page: ParsedDocument) -> ParsedDocument:
        """``page`` as the build holds it until the end: spooled to disk when there is a spool."""
        return page if self.spool is None else self.spool.put(page)


_worker_parser: Parser | None = None
_worker_documents: Sequence[Document] = ()


def _start_worker(config: Config, urls: dict[str, str], documents: Sequence[Document], parent: int) -> None:
    global _worker_parser, _worker_documents
    die_with_parent(parent)
    _worker_parser = Parser(config, urls)
    _worker_documents = documents


def _parse_in_worker(position: int) -> tuple:
    """The fields of the page after its Document (the parent has that already)."""
    assert _worker_parser is not None
    page = _worker_parser.parse(_worker_documents[position])
    return tuple(getattr(page, name) for name in _AFTER_DOC)


_AFTER_DOC = tuple(f.name for f in dataclasses.fields(ParsedDocument) if f.name != "doc")


def _received(doc: Document, fields: tuple) -> ParsedDocument:
    """A page from a worker: its Document joined again, its terms packed (numbers of shared strings)."""
    page = ParsedDocument(doc, **dict(zip(_AFTER_DOC, fields)))
    chunks = tuple(dataclasses.replace(c, terms=packed(c.terms)) if c.terms else c for c in page.chunks)
    return dataclasses.replace(page, chunks=chunks)


def _with_terms(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """Chunks carrying their term counts: analysis runs here, in the parse workers."""
    return tuple(
        dataclasses.replace(c, terms=field_counts(c.heading_path[0], c.heading_text, c.text, cache_text=False))
        for c in chunks
    )


def fallback_title(doc: Document) -> str:
    stem = without_markdown_suffix(doc.rel_path.rsplit("/", 1)[-1])
    return stem.replace("-", " ").replace("_", " ").strip() or doc.id
