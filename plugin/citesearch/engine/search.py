"""The readers' search from Python: the same index, analysis, ranking and quotes as the widget."""

from __future__ import annotations

import heapq
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from . import analyzer, contract, query, quote, rank, suggest
from .shards import ShardedIndex, chunk_bare, chunk_row
from .site_files import SiteFiles, check_manifest
from ..errors import UsageError



DAMAGED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


@dataclass(frozen=True)
class Result:
    ref: str
    doc_id: str
    title: str
    heading: list[str]
    url: str
    lang: str
    score: float
    quote: str | None
    marks: list[list[int]]
    # Ranking v2: results come grouped by page, best page first.
    page: int = 0  # the page's rank among the pages found (0 = best)
    more_on_page: int = 0  # set on a page's last result: its matching passages not listed
    criteria: dict = None  # the values of rank.PASSAGE_CRITERIA that placed the passage in its page
    page_criteria: dict = None  # the values of rank.PAGE_CRITERIA that placed its page
    quote_kind: str = "text"  # "code": lines split by quote.CODE_LINE; "table": cells split by quote.CELL
    quote_header: str | None = None  # a quoted table row's header row
    bare: int = 0  # the bare headings above its own that the passage stands for (``rank.own_headings``)


@dataclass(frozen=True)
class Answer:
    query: str
    status: str
    message: str
    fuzzy: bool
    results: list[Result]
    pages: int = 0  # pages found; results list the first ``limit`` of them
    suggestion: str | None = None  # "Did you mean …?" when every page was found through typos alone

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2)


class Shard:
    """One language of a built site; its files are read when a query needs them."""

    def __init__(self, lang: str, entry: dict, fields: list[str], read):
        self.lang = lang
        self.read = read
        self.index = ShardedIndex(entry, fields, read)

    def chunk(self, ref: int) -> tuple[list, list, str]:
        """``(doc, chunk, text)`` of a ref: ``[id, title, url]``, ``[doc, anchor, heading]``."""
        data = self.read(self.index.chunk_file(ref))
        return chunk_row(data, ref)

    def bare(self, ref: int) -> int:
        """The bare headings a ref stands for (``shards.chunk_bare``)."""
        return chunk_bare(self.read(self.index.chunk_file(ref)), ref)


class SiteSearch:
    def __init__(self, site: Path | str):
        self.search_dir = Path(site) / contract.SEARCH_DIR
        manifest_path = self.search_dir / contract.MANIFEST_NAME
        self._files: dict[str, object] = {}
        self._site_files = SiteFiles(self.search_dir)
        if not manifest_path.is_file():
            raise UsageError(f"no search index at {manifest_path}: build the site first")
        manifest = self._read(contract.MANIFEST_NAME)
        if not isinstance(manifest, dict) or manifest.get("format") != contract.FORMAT_VERSION:
            found = manifest.get("format") if isinstance(manifest, dict) else None
            raise UsageError(f"{manifest_path}: index format {found!r}, this citesearch reads {contract.FORMAT_VERSION}: rebuild the site")
        if manifest.get("analyzer") != {"name": analyzer.NAME, "version": analyzer.VERSION}:
            raise UsageError(f"{manifest_path}: built with analyzer {manifest.get('analyzer')}, rebuild the site")
        check_manifest(manifest, manifest_path)  # before any arithmetic or file name uses it
        self.manifest = manifest
        self._texts: dict[tuple[str, str], str] = {}  # (lang, public ref) -> text of a result
        try:
            self.shards = {
                lang: Shard(lang, entry, list(manifest["fields"]), self._read)
                for lang, entry in manifest["languages"].items()
            }
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise UsageError(f"{manifest_path}: damaged manifest ({exc.__class__.__name__}: {exc}), rebuild the site") from None

    def _damaged(self, exc: Exception) -> UsageError:
        # Valid JSON of the wrong shape: a file from another build or tool.
        return UsageError(f"{self.search_dir}: damaged search files ({exc.__class__.__name__}: {exc}), rebuild the site")

    def _read(self, name: str):
        """A search file, parsed once; a missing or garbled file is a usage error."""
        if name not in self._files:
            self._files[name] = self._site_files.read_json(name)  # inside search/, regular, bounded
        return self._files[name]

    def pages(self, text: str, *, limit: int = 10, lang: str | None = None, prefix: bool = True,
              per_page: int = contract.PASSAGES_PER_PAGE) -> tuple[list[tuple[Shard, rank.Ranked]], int, bool]:
        """The first ``limit`` pages in result order, with their shard; the
        number of pages found; whether they were found through typos alone."""
        if lang is not None and lang not in self.shards:
            raise UsageError(f"no documents in language '{lang}' (this site has: {', '.join(sorted(self.shards))})")
        shards = [self.shards[lang]] if lang else [self.shards[k] for k in sorted(self.shards)]
        try:
            ranked, fuzzy, total = [], False, 0
            # Only the pages that can be shown are ordered to the end (their
            # passages scored, the second stage's value set): the first
            # ``limit`` of the merged languages are among each one's first ``limit``.
            shown_pages = max(limit, rank.REFINED_PAGES)
            for order, shard in enumerate(shards):
                found = rank.search(shard.index, text, prefix=prefix, pages=shown_pages)
                fuzzy = fuzzy or found.fuzzy
                total += len(found.pages)
                texts = {ref: _heading_and_text(shard, ref) for ref in rank.refined_refs(found.pages, per_page)}
                refined = rank.refine(found.pages[:shown_pages], query.words(text, prefix=prefix), texts, text,
                                      prefix=prefix, per_page=per_page)
                ranked.append([(page.key[:-1], order, page.ref, shard, page) for page in refined])
            # Each language keeps its order; languages interleave by the criteria.
            pages = [(shard, page) for *_, shard, page in heapq.merge(*ranked, key=lambda p: p[:3])]
        except DAMAGED as exc:
            raise self._damaged(exc) from None
        return pages[:limit], total, fuzzy

    def search(self, text: str, *, limit: int = 10, lang: str | None = None, prefix: bool = True,
               per_page: int = contract.PASSAGES_PER_PAGE) -> Answer:
        """The first ``limit`` pages, each with its first ``per_page`` passages."""
        pages, total, fuzzy = self.pages(text, limit=limit, lang=lang, prefix=prefix, per_page=per_page)
        try:
            results = []
            for position, (shard, page) in enumerate(pages):
                shown = page.passages[:per_page]
                for n, passage in enumerate(shown):
                    more = len(page.passages) - len(shown) if n == len(shown) - 1 else 0
                    results.append(self._result(shard, passage, text, prefix, position, more, page))
        except DAMAGED as exc:
            raise self._damaged(exc) from None
        if any(r.quote for r in results):
            quoted = sum(1 for r in results if r.quote)
            status, message = contract.STATUS_SUPPORTED, f"{quoted} of {len(results)} passages quote the query."
        else:
            status = contract.STATUS_INSUFFICIENT
            message = f"The documents hold nothing that answers “{text.strip()}”."
        found = suggest.suggestion(text, (self.text(r) for r in results)) if fuzzy else None
        return Answer(text, status, message, fuzzy, results, total, found.query if found else None)

    def text(self, result: Result) -> str:
        """The whole chunk text of a result this search returned."""
        return self._texts[(result.lang, result.ref)]

    def _result(self, shard: Shard, passage: rank.Ranked, text: str, prefix: bool, position: int, more: int,
                page: rank.Ranked) -> Result:
        (doc_id, title, url), (_, anchor, heading), chunk_text = shard.chunk(passage.ref)
        found = quote.quote(chunk_text, text, prefix=prefix)
        self._texts[(shard.lang, contract.public_ref(doc_id, anchor))] = chunk_text
        return Result(
            ref=contract.public_ref(doc_id, anchor),
            doc_id=doc_id,
            title=title,
            heading=heading,
            url=f"{url}#{anchor}",
            lang=shard.lang,
            score=round(passage.explain()["score"], 6),
            quote=found.sentence if found else None,
            marks=[list(m) for m in found.marks] if found else [],
            page=position,
            more_on_page=more,
            criteria=_rounded(passage.explain()),
            page_criteria=_rounded(page.explain()),
            quote_kind=found.kind if found else "text",
            quote_header=found.header if found else None,
            bare=shard.bare(passage.ref),
        )


def _rounded(criteria: dict) -> dict:
    return {name: round(value, 6) if isinstance(value, float) else value for name, value in criteria.items()}


def _heading_and_text(shard: Shard, ref: int) -> tuple[list, str, int]:
    """What ``refine`` reads of a passage: its heading path, its text, the bare headings it stands for."""
    _, (_, _, heading), text = shard.chunk(ref)
    return heading, text, shard.bare(ref)
