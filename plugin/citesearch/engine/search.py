"""The readers' search from Python: the same index, analysis, ranking and quotes as the widget."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path

from lunr.index import Index

from . import analyzer, contract, query, quote
from ..errors import UsageError

SUPPORTED = "supported"
INSUFFICIENT = "insufficient"


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
    """One language of a built site, loaded on demand."""

    def __init__(self, search_dir: Path, lang: str, entry: dict):
        self.search_dir = search_dir
        self.lang = lang
        self.entry = entry
        self._texts: dict[str, dict] = {}

    @cached_property
    def index(self) -> Index:
        return Index.load(self._read(self.entry["index"]))

    @cached_property
    def table(self) -> dict:
        return self._read(self.entry["chunks"])

    def text(self, doc: dict, anchor: str) -> str:
        name = doc["text"]
        if name not in self._texts:
            self._texts[name] = self._read(name)
        return self._texts[name]["chunks"].get(anchor, "")

    def _read(self, name: str) -> dict:
        return json.loads((self.search_dir / name).read_text(encoding="utf-8"))


class SiteSearch:
    def __init__(self, site: Path | str):
        self.search_dir = Path(site) / contract.SEARCH_DIR
        manifest_path = self.search_dir / contract.MANIFEST_NAME
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError(f"no search index at {manifest_path}: build the site first") from None
        if manifest.get("format") != contract.FORMAT_VERSION:
            raise UsageError(f"{manifest_path}: index format {manifest.get('format')!r}, this citesearch reads {contract.FORMAT_VERSION}")
        if manifest.get("analyzer") != {"name": analyzer.NAME, "version": analyzer.VERSION}:
            raise UsageError(f"{manifest_path}: built with analyzer {manifest.get('analyzer')}, rebuild the site")
        self.manifest = manifest
        self.shards = {lang: Shard(self.search_dir, lang, entry) for lang, entry in manifest["languages"].items()}

    def search(self, text: str, *, limit: int = 10, lang: str | None = None, prefix: bool = True) -> Answer:
        if lang is not None and lang not in self.shards:
            raise UsageError(f"no documents in language '{lang}' (this site has: {', '.join(sorted(self.shards))})")
        shards = [self.shards[lang]] if lang else [self.shards[k] for k in sorted(self.shards)]
        hits, fuzzy = [], False
        for order, shard in enumerate(shards):
            found = query.run(shard.index, text, prefix=prefix)
            fuzzy = fuzzy or found.fuzzy
            hits += [(-hit.score, order, int(hit.ref), shard, hit) for hit in found.hits]
        hits.sort(key=lambda h: h[:3])
        results = [self._result(shard, hit, text, prefix) for *_, shard, hit in hits[:limit]]
        if any(r.quote for r in results):
            quoted = sum(1 for r in results if r.quote)
            status, message = SUPPORTED, f"{quoted} of {len(results)} passages quote the query."
        else:
            status = INSUFFICIENT
            message = f"The documents hold nothing that answers “{text.strip()}”."
        return Answer(text, status, message, fuzzy, results)

    def _result(self, shard: Shard, hit, text: str, prefix: bool) -> Result:
        doc_index, anchor, heading = shard.table["chunks"][int(hit.ref)]
        doc = shard.table["docs"][doc_index]
        found = quote.quote(shard.text(doc, anchor), text, prefix=prefix)
        return Result(
            ref=contract.public_ref(doc["id"], anchor),
            doc_id=doc["id"],
            title=doc["title"],
            heading=heading,
            url=f"{doc['url']}#{anchor}",
            lang=shard.lang,
            score=round(hit.score, 6),
            quote=found.sentence if found else None,
            marks=[list(m) for m in found.marks] if found else [],
        )
