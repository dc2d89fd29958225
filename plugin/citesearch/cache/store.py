"""The SQLite file of parse results, and the lock that makes builds take turns.

``build.sqlite`` holds a ``documents`` table (id, path, document hash,
metadata JSON, HTML body), a ``chunks`` table (chunk id, doc id, payload
JSON) and the key of the parse stage that made them.  A file that is not ours
or is damaged raises ``CacheDamaged``: it is never trusted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import orjson

from .codec import Row
from ..waiting import lock_exclusive
from .keys import SCHEMA_VERSION

DATABASE = "build.sqlite"
LOCK = "build.lock"
# PRAGMA application_id: tells our database from any other SQLite file ("CSBC").
APPLICATION_ID = 0x43534243
# The file lock already serialises our builds; only a foreign process holds SQLite's lock.
BUSY_SECONDS = 5

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


class CacheDamaged(Exception):
    """The cache file is not a citesearch build cache, or it is damaged."""


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Create the folder and hold its lock: one build at a time reads, parses and writes."""
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "a file is in the way of the cache folder", str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK, "a+b") as lock:  # closing the file releases the lock
        lock_exclusive(lock.fileno(), f"the build cache {folder}")
        yield


class Store:
    """An open, checked cache database and every row it holds (metadata only)."""

    def __init__(self, path: Path):
        if path.exists() and not path.is_file():
            raise IsADirectoryError(errno.EISDIR, "not a regular file", str(path))
        self.connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        try:
            self.key, self.rows = self._check_and_read()
        except BaseException as exc:
            self.connection.close()
            if _says_damaged(exc):
                raise CacheDamaged(str(exc) or type(exc).__name__) from exc
            raise

    def _check_and_read(self) -> tuple[str | None, dict[str, Row]]:
        db = self.connection
        db.execute("PRAGMA foreign_keys = ON")
        if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.executescript(_SCHEMA)
            return None, {}
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise CacheDamaged("not a citesearch build cache")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise CacheDamaged(f"cache format {version}, expected {SCHEMA_VERSION}")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise CacheDamaged(f"integrity check failed: {check}")
        found = db.execute("SELECT value FROM meta WHERE key = ?", ("key",)).fetchone()
        # Only what tells a row's document unchanged (``with_content`` reads the rest when it is reused):
        # every row's HTML and chunks would be the whole previous build in memory, and even the rows'
        # metadata alone, read before the pages made from them, stayed as a large build's heap holes
        # (~250 MB at 100,000 pages, the pages' strings pinning the rows' freed memory).
        rows = {
            doc_id: Row(rel_path, digest, None, None)
            for doc_id, rel_path, digest in db.execute("SELECT id, rel_path, hash FROM documents")
        }
        return (found[0] if found else None), rows

    def with_content(self, doc_id: str, row: Row) -> Row:
        """``row`` with its metadata, HTML and chunks, read now.  Raises sqlite3.Error, or ValueError on a damaged payload."""
        db = self.connection
        found = db.execute("SELECT metadata, html FROM documents WHERE id = ?", (doc_id,)).fetchone()
        metadata, html = (orjson.loads(found[0]), found[1]) if found else (None, None)
        chunks = [orjson.loads(payload) for (payload,) in
                  db.execute("SELECT payload FROM chunks WHERE doc_id = ? ORDER BY position", (doc_id,))]
        return Row(row.rel_path, row.hash, metadata, html, chunks)

    def save(self, key: str, fresh: Iterable[tuple[str, Row]], removed: Sequence[str]) -> None:
        """Record one build: one transaction, parameterised SQL only.  A new key drops every old row.

        ``fresh`` rows are written as they come (a generator: a large site's
        rows, HTML and chunk texts, are never all in memory at once).
        """
        db = self.connection
        db.execute("BEGIN IMMEDIATE")
        try:
            if key != self.key:
                db.execute("DELETE FROM chunks")
                db.execute("DELETE FROM documents")
            for doc_id in removed:
                self._delete(doc_id)
            for doc_id, row in fresh:
                self._delete(doc_id)
                db.execute(
                    "INSERT INTO documents (id, rel_path, hash, metadata, html) VALUES (?, ?, ?, ?, ?)",
                    (doc_id, row.rel_path, row.hash, _dumps(row.metadata), row.html),
                )
                db.executemany(
                    "INSERT INTO chunks (chunk_id, doc_id, position, payload) VALUES (?, ?, ?, ?)",
                    [(f"{doc_id}#{c['anchor']}", doc_id, i, _dumps(c)) for i, c in enumerate(row.chunks)],
                )
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ("key", key))
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # a full disk may have rolled it back already
                db.execute("ROLLBACK")
            raise

    def _delete(self, doc_id: str) -> None:
        self.connection.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
        self.connection.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def close(self) -> None:
        self.connection.close()


def remove(path: Path) -> None:
    """Delete a database file and its journals (not a folder: that raises OSError)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


def _says_damaged(exc: BaseException) -> bool:
    """Whether an error while reading is a verdict on the file, not on the disk or a lock.

    OperationalError also means "locked", "disk is full", "unable to open": the
    file may be fine.  Among them only a missing table or column says it is foreign.
    """
    if isinstance(exc, sqlite3.OperationalError):
        return "no such table" in str(exc) or "no such column" in str(exc)
    return isinstance(exc, (sqlite3.DatabaseError, ValueError, KeyError, TypeError))


def _dumps(data: object) -> str:
    """Compact JSON, as ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))`` writes it (rows hold no floats)."""
    return orjson.dumps(data).decode("utf-8")
