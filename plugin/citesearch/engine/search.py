"""The readers' search from Python: the same index, analysis, ranking and quotes as the widget."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from . import analyzer, contract, quote
from .shards import ShardedIndex, chunk_file, run as run_sharded
from .site_files import SiteFiles, check_manifest
from ..errors import UsageError



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


@dataclass(frozen=True)
class Answer:
    query: str
    status: str
    message: str
    fuzzy: bool
    results: list[Result]

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, indent=2)


class Shard:
    """One language of a built site; its files are read when a query needs them."""

    def __init__(self, lang: str, entry: dict, fields: list[str], read):
        self.lang = lang
        self.read = read
        self.index = ShardedIndex(entry, fields, read)
        self.chunks = entry["chunks"]

    def chunk(self, ref: int) -> tuple[list, list, str]:
        """``(doc, chunk, text)`` of a ref: ``[id, title, url]``, ``[doc, anchor, heading]``."""
        data = self.read(chunk_file(self.chunks, ref))
        row = data["chunks"][ref - data["first"]]
        return data["docs"][row[0]], row[:3], row[3]


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

    def _read(self, name: str):
        """A search file, parsed once; a missing or garbled file is a usage error."""
        if name not in self._files:
            self._files[name] = self._site_files.read_json(name)  # inside search/, regular, bounded
        return self._files[name]

    def search(self, text: str, *, limit: int = 10, lang: str | None = None, prefix: bool = True) -> Answer:
        if lang is not None and lang not in self.shards:
            raise UsageError(f"no documents in language '{lang}' (this site has: {', '.join(sorted(self.shards))})")
        shards = [self.shards[lang]] if lang else [self.shards[k] for k in sorted(self.shards)]
        try:
            hits, fuzzy = [], False
            for order, shard in enumerate(shards):
                found = run_sharded(shard.index, text, prefix=prefix)
                fuzzy = fuzzy or found.fuzzy
                hits += [(-hit.score, order, int(hit.ref), shard, hit) for hit in found.hits]
            hits.sort(key=lambda h: h[:3])
            results = [self._result(shard, hit, text, prefix) for *_, shard, hit in hits[:limit]]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            # Valid JSON of the wrong shape: a file from another build or tool.
            raise UsageError(f"{self.search_dir}: damaged search files ({exc.__class__.__name__}: {exc}), rebuild the site") from None
        if any(r.quote for r in results):
            quoted = sum(1 for r in results if r.quote)
            status, message = contract.STATUS_SUPPORTED, f"{quoted} of {len(results)} passages quote the query."
        else:
            status = contract.STATUS_INSUFFICIENT
            message = f"The documents hold nothing that answers “{text.strip()}”."
        return Answer(text, status, message, fuzzy, results)

    def text(self, result: Result) -> str:
        """The whole chunk text of a result this search returned."""
        return self._texts[(result.lang, result.ref)]

    def _result(self, shard: Shard, hit, text: str, prefix: bool) -> Result:
        (doc_id, title, url), (_, anchor, heading), chunk_text = shard.chunk(int(hit.ref))
        found = quote.quote(chunk_text, text, prefix=prefix)
        self._texts[(shard.lang, contract.public_ref(doc_id, anchor))] = chunk_text
        return Result(
            ref=contract.public_ref(doc_id, anchor),
            doc_id=doc_id,
            title=title,
            heading=heading,
            url=f"{url}#{anchor}",
            lang=shard.lang,
            score=round(hit.score, 6),
            quote=found.sentence if found else None,
            marks=[list(m) for m in found.marks] if found else [],
        )
