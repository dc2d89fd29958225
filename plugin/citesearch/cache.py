"""Build cache: parse results of unchanged documents, kept in SQLite beside the content.

``<content>/.citesearch-cache/build.sqlite`` holds a ``documents`` table (id,
hash of everything the parser reads, metadata JSON, HTML body) and a ``chunks``
table (chunk id, doc id, payload JSON).  A revision fingerprint covers what
every cached row depends on -- parser code and library versions, the chunker
and analyzer versions, the theme and the config values the parser reads -- and
a row is only reused when its document hash matches and the links it rewrote
still point where they did.  The folder is dot-prefixed, so the loader skips it.

One build reads, parses what it must and writes in one transaction, under a
file lock, so two builds of one project take turns instead of interleaving.
A file that is not our database, or is damaged, is never trusted: it is
replaced and the build says so.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import lunr
import markdown

from .version import __version__

from .engine import analyzer

from .markdown_ext import chunk
from .pipeline.index import build_search_files, search_pages
from .config import Config
from .errors import Problem
from .model import Chunk, Document, Heading, Link, ParsedDocument
from .pipeline.parse import Parser

CACHE_DIR = ".citesearch-cache"
CACHE_FILE = "build.sqlite"
SEARCH_FILE = "search.json"  # the search files of the last build, keyed by everything they depend on
LOCK_FILE = "build.lock"
SCHEMA_VERSION = 1
# PRAGMA application_id: tells our database from any other SQLite file ("CSBC").
APPLICATION_ID = 0x43534243
# Modules whose code decides what the parser produces: editing them without a
# version bump must still invalidate the cache.
_PARSER_MODULES = (
    "pipeline/parse.py",
    "pipeline/frontmatter.py",
    "markdown_ext/chunk.py",
    "markdown_ext/links.py",
    "markdown_ext/text.py",
    "model.py",
    "cache.py",
)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    rel_path TEXT NOT NULL,
    hash TEXT NOT NULL,
    metadata TEXT NOT NULL,
    html TEXT NOT NULL
);
CREATE TABLE chunks (
    chunk_id TEXT NOT NULL,
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (doc_id, position)
);
"""

Progress = Callable[[str, int, int], None]


class CacheDamaged(Exception):
    """The cache file is not a citesearch build cache, or it is damaged."""


@dataclass
class Changes:
    """What one build found, compared with the previous build recorded in the cache."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    parsed: int = 0  # documents actually parsed this build (the rest came from the cache)


@dataclass
class _Row:
    rel_path: str
    hash: str
    metadata: dict
    html: str
    chunks: list = field(default_factory=list)


def cache_path(content_dir: Path) -> Path:
    return content_dir / CACHE_DIR / CACHE_FILE


def fingerprint(config: Config, theme: Path) -> str:
    """Everything a cached parse result depends on besides the document itself."""
    here = Path(__file__).parent
    code = hashlib.sha256()
    for name in _PARSER_MODULES:
        code.update(name.encode() + b"\0" + (here / name).read_bytes())
    parts = {
        "schema": SCHEMA_VERSION,
        "citesearch": __version__,
        "markdown": markdown.__version__,
        "parser_code": code.hexdigest(),
        "chunker": chunk.CHUNKER_VERSION,
        "analyzer": [analyzer.NAME, analyzer.VERSION],
        "theme": theme_digest(theme),
        "config": {"chunk_budget": config.chunk_budget, "lang": config.lang},
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


# Modules whose code decides what the search files hold.
_INDEX_MODULES = ("pipeline/index.py", "pipeline/lunr_index.py", "engine/contract.py", "engine/analyzer.py", "engine/stemmer_en.py")


def search_key(pages: Sequence[ParsedDocument], default_lang: str, generator: dict) -> str:
    """Hash of everything ``index.build_search_files`` reads."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _INDEX_MODULES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    head = [lunr.__VERSION__, analyzer.NAME, analyzer.VERSION, default_lang, generator]
    digest.update(json.dumps(head, sort_keys=True).encode())
    for page in pages:
        doc = page.doc
        chunks = [[c.anchor, c.heading_path, c.heading_text, c.text, c.lang] for c in page.chunks]
        digest.update(json.dumps([doc.id, page.title, doc.url, doc.lang, chunks], ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()


def theme_digest(theme: Path) -> str:
    digest = hashlib.sha256()
    for folder in ("templates", "static"):
        root = theme / folder
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            if path.is_file():
                digest.update(f"{folder}/{path.relative_to(root).as_posix()}".encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def document_hash(doc: Document) -> str:
    """Hash of every Document field the parser reads."""
    parts = [doc.id, doc.rel_path, doc.title, doc.lang, doc.body]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()


class BuildCache:
    """``parse`` has the signature ``assemble`` expects; one instance serves one build."""

    def __init__(self, content_dir: Path, config: Config, theme: Path, *, reuse: bool = True):
        self.content_dir = content_dir
        self.path = cache_path(content_dir)
        self.fingerprint = fingerprint(config, theme)
        self.reuse = reuse  # False (--no-cache): parse everything, still record the results
        self.changes = Changes()
        self.warnings: list[Problem] = []

    def parse(self, documents: Sequence[Document], parser: Parser, progress: Progress | None = None) -> list[ParsedDocument]:
        if _read_only(self.content_dir):
            self._warn(f"build cache disabled: {self.content_dir} is read-only")
            return self._parse_uncached(documents, parser, progress)
        try:
            self.path.parent.mkdir(exist_ok=True)
            lock = open(self.path.parent / LOCK_FILE, "a+b")
        except OSError as exc:  # e.g. a read-only content folder: build without a cache
            self._warn(f"build cache disabled, cannot write {self.path.parent}: {exc.strerror or exc}")
            return self._parse_uncached(documents, parser, progress)
        with lock:  # held for the whole read-parse-write; closing the file releases it
            fcntl.flock(lock, fcntl.LOCK_EX)
            return self._parse_locked(documents, parser, progress)

    def search_files(self, pages: Sequence[ParsedDocument], default_lang: str, generator: dict) -> dict[str, bytes]:
        """The search files, from the last build when nothing they depend on changed.

        Indexing is most of a rebuild's time; when no chunk changed, the index
        cannot have changed either.
        """
        key = search_key(pages, default_lang, generator)
        stored = self.path.parent / SEARCH_FILE
        if self.reuse and stored.is_file():
            try:
                memo = json.loads(stored.read_text(encoding="utf-8"))
                if memo.get("key") == key:
                    return {name: text.encode("utf-8") for name, text in memo["files"].items()}
            except (OSError, ValueError, AttributeError, KeyError, TypeError):
                self._warn("cached search index was unreadable; rebuilt it")
        files = build_search_files(search_pages(pages), default_lang, generator)
        if not _read_only(self.content_dir) and stored.parent.is_dir():
            partial = stored.with_suffix(f".tmp-{os.getpid()}")
            memo = {"key": key, "files": {name: data.decode("utf-8") for name, data in files.items()}}
            try:
                partial.write_text(json.dumps(memo, ensure_ascii=False), encoding="utf-8")
                os.replace(partial, stored)  # atomic: a concurrent build reads the old or the new memo
            except OSError:
                partial.unlink(missing_ok=True)
        return files

    def _parse_uncached(self, documents, parser, progress) -> list[ParsedDocument]:
        pages = parser.parse_many(documents, progress)
        self.changes = Changes(added=len(pages), parsed=len(pages))
        return pages

    def _parse_locked(self, documents, parser, progress) -> list[ParsedDocument]:
        try:
            connection, stored_fingerprint, rows = _open(self.path)
        except CacheDamaged as exc:
            self._warn(f"build cache was unusable ({exc}); rebuilt it from scratch")
            _remove(self.path)
            connection, stored_fingerprint, rows = _open(self.path)
        with contextlib.closing(connection):
            reusable = self.reuse and stored_fingerprint == self.fingerprint
            urls = parser.links.urls
            reused: dict[int, ParsedDocument] = {}
            for i, doc in enumerate(documents):
                digest = document_hash(doc)
                row = rows.get(doc.id)
                if row is not None and reusable and row.hash == digest:
                    page = self._reuse(doc, row, urls)
                    if page is not None:
                        reused[i] = page
                self._count(row, digest)
            stale = [doc for i, doc in enumerate(documents) if i not in reused]
            fresh = parser.parse_many(stale, progress)
            parsed = iter(fresh)
            pages = [reused[i] if i in reused else next(parsed) for i in range(len(documents))]
            removed = self._removed(rows, documents)
            self.changes.removed = len(removed)
            self.changes.parsed = len(fresh)
            _save(connection, self.fingerprint, stored_fingerprint != self.fingerprint, fresh, removed, urls)
        return pages

    def _reuse(self, doc: Document, row: _Row, urls: dict[str, str]) -> ParsedDocument | None:
        """The cached parse of ``doc``; None when its links moved or the row is malformed."""
        try:
            return _from_row(doc, row) if _links_unchanged(row.metadata, urls) else None
        except (KeyError, TypeError, ValueError, AttributeError):
            self._warn(f"cached entry for {doc.rel_path} was malformed; parsed it again")
            return None

    def _count(self, row: _Row | None, digest: str) -> None:
        if row is None:
            self.changes.added += 1
        elif row.hash != digest:
            self.changes.changed += 1
        else:
            self.changes.unchanged += 1

    def _removed(self, rows: dict[str, _Row], documents: Sequence[Document]) -> list[str]:
        """Cached documents whose file is gone, or whose file now has another id.

        A file that still exists but was left out of this build (an editor-only
        draft in a public build, a file with a front matter error) keeps its row.
        """
        current_ids = {d.id for d in documents}
        current_paths = {d.rel_path for d in documents}
        return sorted(
            doc_id
            for doc_id, row in rows.items()
            if doc_id not in current_ids
            and (row.rel_path in current_paths or not (self.content_dir / row.rel_path).is_file())
        )

    def _warn(self, message: str) -> None:
        self.warnings.append(Problem(f"{CACHE_DIR}/{CACHE_FILE}", 1, message))


def _read_only(folder: Path) -> bool:
    """A folder whose permissions grant nobody write access; checked by its mode bits
    because ``os.access`` says yes to root, and shared corpora must stay untouched."""
    try:
        return stat.S_IMODE(folder.stat().st_mode) & 0o222 == 0 or not os.access(folder, os.W_OK)
    except OSError:
        return True


def _open(path: Path) -> tuple[sqlite3.Connection, str | None, dict[str, _Row]]:
    """Connect, check the file is ours and intact, and read every row."""
    try:
        connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    except sqlite3.Error as exc:
        raise CacheDamaged(str(exc)) from exc
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        if _is_empty(connection):
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.executescript(_SCHEMA)
            return connection, None, {}
        application_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if application_id != APPLICATION_ID:
            raise CacheDamaged("not a citesearch build cache")
        if version != SCHEMA_VERSION:
            raise CacheDamaged(f"cache format {version}, expected {SCHEMA_VERSION}")
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise CacheDamaged(f"integrity check failed: {check}")
        return connection, *_read(connection)
    except (sqlite3.Error, ValueError, KeyError, TypeError) as exc:
        connection.close()
        raise CacheDamaged(str(exc) or type(exc).__name__) from exc
    except CacheDamaged:
        connection.close()
        raise


def _is_empty(connection: sqlite3.Connection) -> bool:
    return connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0


def _read(connection: sqlite3.Connection) -> tuple[str | None, dict[str, _Row]]:
    found = connection.execute("SELECT value FROM meta WHERE key = ?", ("fingerprint",)).fetchone()
    rows = {
        doc_id: _Row(rel_path, digest, json.loads(metadata), html)
        for doc_id, rel_path, digest, metadata, html in connection.execute(
            "SELECT id, rel_path, hash, metadata, html FROM documents"
        )
    }
    for doc_id, payload in connection.execute("SELECT doc_id, payload FROM chunks ORDER BY doc_id, position"):
        rows[doc_id].chunks.append(json.loads(payload))
    return (found[0] if found else None), rows


def _save(
    connection: sqlite3.Connection,
    new_fingerprint: str,
    invalidate: bool,
    fresh: Sequence[ParsedDocument],
    removed: Sequence[str],
    urls: dict[str, str],
) -> None:
    """Record this build's parse results: one transaction, parameterised SQL only."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if invalidate:
            connection.execute("DELETE FROM chunks")
            connection.execute("DELETE FROM documents")
        for doc_id in removed:
            connection.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            connection.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
        for page in fresh:
            doc = page.doc
            connection.execute("DELETE FROM chunks WHERE doc_id = ?", (doc.id,))
            connection.execute(
                "INSERT OR REPLACE INTO documents (id, rel_path, hash, metadata, html) VALUES (?, ?, ?, ?, ?)",
                (doc.id, doc.rel_path, document_hash(doc), _dumps(_metadata(page, urls)), page.html),
            )
            connection.executemany(
                "INSERT INTO chunks (chunk_id, doc_id, position, payload) VALUES (?, ?, ?, ?)",
                [(f"{doc.id}#{c.anchor}", doc.id, i, _dumps(_chunk_payload(c))) for i, c in enumerate(page.chunks)],
            )
        connection.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ("fingerprint", new_fingerprint)
        )
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _metadata(page: ParsedDocument, urls: dict[str, str]) -> dict:
    return {
        "title": page.title,
        "headings": [[h.level, h.id, h.text] for h in page.headings],
        "links": [[link.href, link.target, link.fragment] for link in page.links],
        "ids": sorted(page.ids),
        # The URL each linked document had when this HTML was made: links are
        # rewritten to it, so the row is stale once any of them moves.
        "link_urls": {link.target: urls.get(link.target) for link in page.links if link.target},
    }


def _chunk_payload(c: Chunk) -> dict:
    return {"anchor": c.anchor, "heading_path": list(c.heading_path), "text": c.text, "heading_text": c.heading_text}


def _links_unchanged(metadata: dict, urls: dict[str, str]) -> bool:
    return all(urls.get(target) == url for target, url in metadata["link_urls"].items())


def _from_row(doc: Document, row: _Row) -> ParsedDocument:
    meta = row.metadata
    return ParsedDocument(
        doc=doc,
        title=meta["title"],
        html=row.html,
        headings=tuple(Heading(level, id_, text) for level, id_, text in meta["headings"]),
        chunks=tuple(
            Chunk(
                doc_id=doc.id,
                anchor=c["anchor"],
                heading_path=tuple(c["heading_path"]),
                text=c["text"],
                lang=doc.lang,
                heading_text=c["heading_text"],
            )
            for c in row.chunks
        ),
        links=tuple(Link(href, target, fragment) for href, target, fragment in meta["links"]),
        ids=frozenset(meta["ids"]),
    )


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
