"""One build's use of the cache: reuse what it can, record what it parsed, never fail the build."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Callable, Mapping, MutableMapping, Sequence, TypeVar

from ..config import Config
from ..errors import Problem
from ..model import Document, ParsedDocument
from ..pipeline import index, parse
from ..pipeline.spool import restored
from . import parse_cache, search_cache
from .codec import encode
from .keys import stage_key
from .locations import claim, read_only
from .parse_cache import Changes
from .store import DATABASE, CacheDamaged, Store, locked, remove

T = TypeVar("T")

# What can go wrong with a cache on disk: a full or read-only disk, a file where
# a folder should be, a lock held by another program, a damaged file.
CACHE_FAILURES = (OSError, sqlite3.Error, CacheDamaged)


class BuildCache:
    """``parse`` and ``search_files`` have the signatures ``assemble`` expects; one instance serves one build.

    The cache only saves time.  When it cannot be read or written, it is off
    for the rest of the build, one warning says why, and the build goes on.
    """

    def __init__(self, folder: Path, content_dir: Path, config: Config, *, reuse: bool = True):
        self.folder = folder
        self.content_dir = content_dir
        self.parse_key = stage_key(parse.CACHE_MODULES, parse.cache_inputs(config))
        self.reuse = reuse  # False (--no-cache): parse everything, still record the results
        self.enabled = True
        self.changes = Changes()
        self.warnings: list[Problem] = []

    def parse(
        self, documents: Sequence[Document], parser: parse.Parser, progress: parse.Progress | None = None
    ) -> list[ParsedDocument]:
        blocked = read_only(self.folder)
        if blocked is not None:
            self._disable(f"{blocked} is read-only")
        with contextlib.ExitStack() as held:  # the lock is held for the whole read-parse-write
            store = self._attempt(lambda: self._open(held)) if self.enabled else None
            if store is None:
                pages = parser.parse_many(documents, progress)
                self.changes = Changes(added=len(pages), parsed=len(pages))
                return pages
            urls = parser.links.urls
            reusable = self.reuse and store.key == self.parse_key
            plan = parse_cache.plan(documents, store.rows, reusable, urls, self.content_dir,
                                    content=store.with_content, kept=parser.kept)
            for rel_path in plan.malformed:
                self._warn(f"cached entry for {rel_path} was malformed; parsed it again")
            fresh = parser.parse_many(plan.stale, progress)
            pages = plan.merge(fresh)  # both kept as the parser keeps pages (spooled)
            self.changes = plan.changes
            rows = ((page.doc.id, encode(restored(page), digest, urls))
                    for page, digest in zip(fresh, plan.fresh_hashes()))
            self._attempt(lambda: store.save(self.parse_key, rows, plan.removed))
            return pages

    def search_files(self, pages: Sequence[ParsedDocument], default_lang: str, generator: dict,
                     into: MutableMapping[str, bytes | Path] | None = None) -> Mapping[str, bytes | Path]:
        """The search files, from the last build when nothing they depend on changed (see ``index.build_search_files``)."""
        searchable = index.search_pages(pages)
        if not self.enabled:
            return index.build_search_files(searchable, default_lang, generator, into)
        key = search_cache.search_key(searchable, default_lang, generator)
        if self.reuse:
            try:
                stored = self._attempt(lambda: search_cache.load(self.folder, key))
            except ValueError:
                self._warn("cached search index was unreadable; rebuilt it")
                stored = None
            if stored is not None:
                if into is None:
                    return stored
                into.update(stored)  # one file at a time (search_cache.StoredFiles)
                return {path: into[path] for path in stored}
        files = index.build_search_files(searchable, default_lang, generator, into)
        if self.enabled:
            self._attempt(lambda: search_cache.save(self.folder, key, files))
        return files

    def _open(self, held: contextlib.ExitStack) -> Store:
        held.enter_context(locked(self.folder))
        claim(self.folder)  # ours from now on: later builds may use it (see locations)
        path = self.folder / DATABASE
        try:
            store = Store(path)
        except CacheDamaged as exc:
            remove(path)
            store = Store(path)
            self._warn(f"build cache was unusable ({exc}); rebuilt it from scratch")
        held.callback(store.close)
        return store

    def _attempt(self, action: Callable[[], T]) -> T | None:
        """``action()``, or None once the cache has failed: it never fails the build."""
        try:
            return action()
        except CACHE_FAILURES as exc:
            self._disable(_reason(exc))
            return None

    def _disable(self, reason: str) -> None:
        if self.enabled:
            self.enabled = False
            self._warn(f"build cache disabled: {reason}; built without it")

    def _warn(self, message: str) -> None:
        self.warnings.append(Problem(str(self.folder / DATABASE), 1, message))


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot use {exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc) or type(exc).__name__
