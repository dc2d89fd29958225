"""Which documents the cache can answer, which must be parsed, and what changed since the last build."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..model import Document, ParsedDocument
from .codec import Row, decode, links_unchanged
from .keys import document_hash


@dataclass
class Changes:
    """What one build found, compared with the previous build recorded in the cache."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    parsed: int = 0  # documents actually parsed this build (the rest came from the cache)


@dataclass
class Plan:
    """One build's documents, split into those the cache answers and those to parse."""

    documents: Sequence[Document]
    hashes: list[str]
    reused: dict[int, ParsedDocument]
    removed: list[str]  # ids of cached documents to drop
    changes: Changes
    malformed: list[str] = field(default_factory=list)  # rel paths whose row could not be read

    @property
    def stale(self) -> list[Document]:
        return [doc for i, doc in enumerate(self.documents) if i not in self.reused]

    def merge(self, fresh: Sequence[ParsedDocument]) -> list[ParsedDocument]:
        """Every page in document order: the reused ones and ``fresh`` (parsed from ``stale``)."""
        parsed = iter(fresh)
        self.changes.parsed = len(fresh)
        return [self.reused[i] if i in self.reused else next(parsed) for i in range(len(self.documents))]

    def fresh_hashes(self) -> list[str]:
        """The document hash of each page ``merge`` takes from ``fresh``, in order."""
        return [digest for i, digest in enumerate(self.hashes) if i not in self.reused]


def plan(
    documents: Sequence[Document], rows: dict[str, Row], reusable: bool, urls: dict[str, str], content_dir: Path,
    *, content: Callable[[str, Row], Row] = lambda doc_id, row: row,
    kept: Callable[[ParsedDocument], ParsedDocument] = lambda page: page,
) -> Plan:
    """Reuse a row when its document is unchanged and every page it links to kept its URL.

    ``content`` gives an unchanged document's row its metadata, HTML and chunks (``Store.with_content``);
    ``kept`` is how the build holds the page made from it (``Parser.kept``):
    one row's content is in memory at a time.
    """
    changes = Changes()
    hashes = [document_hash(doc) for doc in documents]
    reused: dict[int, ParsedDocument] = {}
    malformed: list[str] = []
    for i, (doc, digest) in enumerate(zip(documents, hashes)):
        row = rows.get(doc.id)
        if row is None:
            changes.added += 1
            continue
        if row.hash != digest:
            changes.changed += 1
            continue
        changes.unchanged += 1
        if not reusable:
            continue
        try:
            row = content(doc.id, row)
            if links_unchanged(row, urls):
                reused[i] = kept(decode(doc, row))
        except (KeyError, TypeError, ValueError, AttributeError, sqlite3.Error):
            malformed.append(doc.rel_path)
    removed = _removed(rows, documents, content_dir)
    changes.removed = len(removed)
    return Plan(documents, hashes, reused, removed, changes, malformed)


def _removed(rows: dict[str, Row], documents: Sequence[Document], content_dir: Path) -> list[str]:
    """Cached documents whose file is gone, or whose file now has another id.

    A file that still exists but was left out of this build (an editor-only
    draft in a public build, a file with a front matter error) keeps its row.
    """
    current_ids = {d.id for d in documents}
    current_paths = {d.rel_path for d in documents}
    return sorted(
        doc_id
        for doc_id, row in rows.items()
        if doc_id not in current_ids and (row.rel_path in current_paths or not (content_dir / row.rel_path).is_file())
    )
