"""The page cache of ``citesearch index``: a page read once is not parsed again while its bytes stay the same.

Keyed by the page's path and bytes and by the code and options that read it
(``cache.keys.stage_key``).  A page is stored twice: under the bytes the
generator wrote and under the bytes ``index`` wrote, so both a fresh build of
the generator and a second ``index`` over an indexed site find it.  Under the
generator's bytes the page as written is kept as its differences from them
(``delta``) and the key of the other row: a few KB, not the page and its
passages again.  Rows no
run used are dropped, so the cache holds one site.  Like the build cache, it
only saves time: when it cannot be used, one warning says why and the run
goes on without it.
"""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from dataclasses import replace
from pathlib import Path

import orjson

from ..cache.locations import claim
from ..model import Chunk
from ..pipeline.index import SearchPage
from .delta import changed, delta
from .reader import ReadPage

DATABASE = "index.sqlite"
APPLICATION_ID = 0x43534958  # "CSIX": tells our file from any other SQLite file


def page_key(stage: str, rel: str, data: bytes) -> str:
    return hashlib.sha256(stage.encode() + b"\0" + rel.encode() + b"\0" + data).hexdigest()


class PageCache:
    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        claim(folder)  # ours: later runs may use it (cache/locations.py)
        self.db = sqlite3.connect(folder / DATABASE, isolation_level=None)
        (app,) = self.db.execute("PRAGMA application_id").fetchone()
        if app not in (0, APPLICATION_ID):
            raise sqlite3.DatabaseError(f"{folder / DATABASE} is not a citesearch index cache")
        self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        self.db.execute("CREATE TABLE IF NOT EXISTS pages (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
        (self.empty,) = self.db.execute("SELECT NOT EXISTS (SELECT 1 FROM pages)").fetchone()  # a first run: nothing to look up
        self.used: set[str] = set()
        self.new: dict[str, bytes] = {}

    def get(self, key: str, source: bytes) -> ReadPage | None:
        """The reading stored under ``key``: ``page_key`` of ``source``, the page's bytes."""
        data = self._row(key)
        if data is None or "written" not in data:
            return None if data is None else decode(data)
        read = self._row(data["written"])  # a page the reading rewrote: its reading is under the bytes written
        if read is None:
            return None
        return replace(decode(read), output=changed(source.decode(), data["changes"]))

    def _row(self, key: str) -> dict | None:
        row = self.db.execute("SELECT value FROM pages WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        self.used.add(key)
        return orjson.loads(zlib.decompress(row[0]))

    def put(self, key: str, read: ReadPage) -> None:
        if key not in self.used:  # a key names its reading: a row used (or made) this run is the same row
            self.put_packed(key, pack(read))

    def put_packed(self, key: str, packed: bytes) -> None:
        """Store what ``pack`` made (the readers pack the pages they read: compressing is most of storing)."""
        self.used.add(key)
        self.new[key] = packed

    def save(self) -> None:
        """Store this run's pages and forget every page it did not see."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT OR REPLACE INTO pages VALUES (?, ?)", sorted(self.new.items()))
            self.db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
            self.db.execute("DELETE FROM used")
            self.db.executemany("INSERT INTO used VALUES (?)", [(key,) for key in self.used])
            self.db.execute("DELETE FROM pages WHERE key NOT IN (SELECT key FROM used)")
        self.db.close()


def page_rows(stage: str, rel: str, source: bytes, read: ReadPage, written: bytes | None) -> tuple[tuple[str, bytes], ...]:
    """(key, row) of a page's reading, under the bytes read (``source``) and the bytes written, if it was rewritten.

    Under the bytes read, a rewritten page is kept as its differences from them and the key of the other
    row (which holds the passages): a few KB, not the page and its passages again.
    """
    key = page_key(stage, rel, source)
    if written is None or read.output is None:
        return ((key, pack(read)),)
    written_key = page_key(stage, rel, written)
    changes = delta(source.decode(), read.output)
    first = pack(read) if changes is None else zlib.compress(orjson.dumps({"written": written_key, "changes": changes}), 1)
    return ((key, first), (written_key, pack(replace(read, output=None))))


def pack(read: ReadPage) -> bytes:
    return zlib.compress(encode(read), 1)


def encode(read: ReadPage) -> bytes:
    page = read.page
    return orjson.dumps({
        "page": None if page is None else [page.doc_id, page.url, page.title, page.lang,
                                           [[c.anchor, list(c.heading_path), c.text, c.heading_text] for c in page.chunks]],
        "output": read.output,
        "skipped": read.skipped,
        "problem": read.problem,
    })


def decode(data: dict) -> ReadPage:
    """The reading ``encode`` stored (parsed)."""
    page = None
    if data["page"] is not None:
        doc_id, url, title, lang, chunks = data["page"]
        page = SearchPage(doc_id, url, title, lang, tuple(
            Chunk(doc_id, anchor, tuple(path), text, lang, heading_text) for anchor, path, text, heading_text in chunks
        ))
    problem = tuple(data["problem"]) if data["problem"] else None
    return ReadPage(page, data["output"], data["skipped"], problem)  # type: ignore[arg-type]
