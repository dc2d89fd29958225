"""Index: chunks -> lunr.js-compatible index shards, chunk tables and texts, per language."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Iterable, Sequence

import lunr

from ..engine import analyzer, contract
from ..model import Chunk, ParsedDocument
from .lunr_index import build_lunr_index

# What the search files depend on besides the pages; the build cache reuses the
# last build's files while none of it (nor any page field) changed.
CACHE_MODULES = (__name__, "citesearch.pipeline.lunr_index", "citesearch.engine.analyzer",
                 "citesearch.engine.stemmer_en", "citesearch.engine.contract", "citesearch.model")


def cache_inputs(default_lang: str, generator: dict) -> dict:
    return {"lunr": lunr.__VERSION__, "analyzer": [analyzer.NAME, analyzer.VERSION],
            "default_lang": default_lang, "generator": generator}


@dataclass(frozen=True)
class SearchPage:
    """What the index stage needs of a page, whoever produced its chunks."""

    doc_id: str
    url: str  # site-relative URL of the page
    title: str
    lang: str
    chunks: tuple[Chunk, ...]


def search_pages(pages: Iterable[ParsedDocument]) -> list[SearchPage]:
    return [SearchPage(p.doc.id, p.doc.url, p.title, p.doc.lang, p.chunks) for p in pages]


def dumps(data: object) -> bytes:
    """Compact, deterministic JSON as UTF-8 bytes."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class LanguageShard:
    lang: str
    files: dict[str, bytes]  # search-relative path -> bytes
    entry: dict  # this language's entry in the manifest


def build_shard(lang: str, pages: Iterable[SearchPage]) -> LanguageShard:
    """Index, chunk table and per-document texts of one language."""
    files: dict[str, bytes] = {}
    docs, table, chunks = [], [], []
    for page in pages:
        indexed = [c for c in page.chunks if c.text]
        text = dumps({"doc": page.doc_id, "chunks": {c.anchor: c.text for c in indexed}})
        text_name = contract.text_name(digest(text))
        files[text_name] = text
        doc_index = len(docs)
        docs.append({"id": page.doc_id, "title": page.title, "url": page.url, "text": text_name})
        for chunk in indexed:
            table.append([doc_index, chunk.anchor, list(chunk.heading_path)])
            chunks.append(chunk)
    index_bytes = dumps(build_lunr_index(chunks))
    table_bytes = dumps({"docs": docs, "chunks": table})
    index_name = contract.index_name(lang, digest(index_bytes))
    table_name = contract.chunks_name(lang, digest(table_bytes))
    files[index_name] = index_bytes
    files[table_name] = table_bytes
    entry = {
        "index": index_name,
        "chunks": table_name,
        "documents": len(docs),
        "chunks_count": len(chunks),
    }
    return LanguageShard(lang, files, entry)


def index_documents(pages: Sequence[ParsedDocument], default_lang: str, generator: dict) -> dict[str, bytes]:
    """``build_search_files`` of parsed Markdown documents."""
    return build_search_files(search_pages(pages), default_lang, generator)


def build_search_files(pages: Sequence[SearchPage], default_lang: str, generator: dict) -> dict[str, bytes]:
    """Every file of ``site/search/``, keyed by path relative to the site root."""
    by_lang: dict[str, list[SearchPage]] = {}
    for page in pages:
        by_lang.setdefault(page.lang, []).append(page)
    shards = [build_shard(lang, by_lang[lang]) for lang in sorted(by_lang)]
    files: dict[str, bytes] = {}
    for shard in shards:
        files.update(shard.files)
    revision = hashlib.sha256()
    for name in sorted(files):
        revision.update(name.encode() + b"\0" + files[name])
    manifest = {
        "format": contract.FORMAT_VERSION,
        "revision": revision.hexdigest()[: contract.HASH_LENGTH],
        "generator": generator,
        "analyzer": {"name": analyzer.NAME, "version": analyzer.VERSION},
        "fields": list(contract.FIELDS),
        "default_lang": default_lang,
        "languages": {shard.lang: shard.entry for shard in shards},
    }
    files[contract.MANIFEST_NAME] = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
    return {f"{contract.SEARCH_DIR}/{name}": data for name, data in files.items()}
