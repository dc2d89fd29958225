"""``citesearch index SITE``: add passage ids, the search files and the box to a site another generator built.

Every file of the site is carried into a temporary folder beside the output
(pages rewritten, everything else linked or copied as it is), the search
files and the widget's assets are added, and the folder is swapped in whole:
a run that fails leaves the site as it was.  Nothing is written outside the
output folder; symlinks are carried as links, never followed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import sqlite3
import stat
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterator, Mapping

from ..cache import search_cache
from ..cache.keys import stage_key
from ..cache.locations import check_location, for_output
from ..config import LANG_RE
from ..engine import contract
from ..errors import ContentError, Problem, UsageError
from ..model import Chunk
from ..pipeline.index import ChunkFilesByLanguage, SearchPage, build_search_files
from ..pipeline.lunr_index import PageVocabulary, field_counts, numbered, packed, renumber
from ..pipeline.output_folder import MARKER_NAME, check_output_folder
from ..pipeline.source_files import read_regular, shown_name
from ..pipeline.workers import PARALLEL_MIN_DOCUMENTS, die_with_parent, fork_is_safe
from ..pipeline.write import StagedSite
from ..version import __version__
from .cache import PageCache, page_key, page_rows
from .reader import IndexOptions, ReadPage, read_page
from .widget import ASSETS_DIR, WidgetTags

GENERATOR = {"name": "citesearch-index", "version": __version__}
CACHE_MODULES = ("citesearch.html_site.reader", "citesearch.html_site.passages", "citesearch.html_site.widget",
                 "citesearch.html_site.limits", "citesearch.html_site.cache", "citesearch.html_site.delta",
                 "citesearch.markdown_ext.chunk", "citesearch.markdown_ext.text", "citesearch.model", "citesearch.widget_tags")
PAGE_SUFFIXES = (".html", ".htm")
_HTML_LANG = re.compile(rb"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z_-]+)", re.IGNORECASE)


@dataclass(frozen=True)
class IndexResult:
    out: Path
    pages: int  # pages indexed
    chunks: int
    index_bytes: int
    read: int  # pages parsed this run (the others came from the cache)
    rewritten: int  # pages whose bytes changed
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> pages not indexed
    warnings: tuple[Problem, ...] = ()
    seconds: float = 0.0


def index_site(
    site: Path | str,
    out: Path | str | None = None,
    options: IndexOptions = IndexOptions(),
    *,
    strict: bool = False,
    cache_dir: Path | str | None = None,
    no_cache: bool = False,
) -> IndexResult:
    """Index ``site`` in place (or into ``out``); pages that cannot be read are warnings (errors with ``strict``)."""
    started = time.perf_counter()
    site = Path(site)
    if site.is_symlink() or not site.is_dir():
        raise UsageError(f"site folder {shown_name(site)} is not a folder" + (" (a symlink: pass the folder it points to)" if site.is_symlink() else ""))
    out = Path(out) if out is not None else site
    in_place = os.path.realpath(out) == os.path.realpath(site)
    if not in_place:
        check_output_folder(out, site, f"{site.name}-indexed")
    cache_dir = Path(cache_dir) if cache_dir is not None else for_output(out)
    check_location(cache_dir, site, out)
    _check_selectors(options)
    if options.default_lang == IndexOptions.default_lang:
        options = replace(options, default_lang=_site_lang(site))
    widget = WidgetTags.load()
    stage = stage_key(CACHE_MODULES, {"options": asdict(options), "widget": widget.assets.version})

    warnings: list[Problem] = []
    cache = None
    if not no_cache:
        try:
            cache = PageCache(cache_dir)
        except (OSError, sqlite3.Error) as exc:
            warnings.append(Problem(shown_name(cache_dir), 1, f"index cache disabled: {exc}; indexed without it"))
    pages: list[SearchPage] = []
    skipped: Counter[str] = Counter()
    rewritten = 0
    staged = _InPlace(out) if in_place else StagedSite(out)
    with staged, contextlib.ExitStack() as held:
        staged._folder()  # made before the readers fork: they write the pages they rewrite into it
        job = _Job(options, widget, stage if cache is not None else None, staged)
        entries = walk_site(site, warnings)
        # First each page's key and cached reading (its bytes are not kept: a large site's pages would all
        # be in memory); the pages the cache does not know are read in order, on two processes, as they come.
        # Without a cache, or with an empty one (a first run), no page is read or hashed for it here.
        lookup = cache is not None and not cache.empty
        known: dict[str, ReadPage | None] = {}
        for rel, path, kind in entries:
            if kind == "file" and rel.lower().endswith(PAGE_SUFFIXES):
                known[rel] = _cached(cache, stage, rel, path) if lookup else None  # type: ignore[arg-type]
        todo = [(rel, path) for rel, path, _ in entries if rel in known and known[rel] is None]
        # What the search files need of each page that needs no later one, made as the page comes, while the
        # readers read the next ones: its chunk files (written by this process) and its share of the memo's key.
        chunk_files = ChunkFilesByLanguage(staged.written_now())
        key = search_cache.SearchKey(options.default_lang, GENERATOR) if cache is not None else None
        fresh = held.enter_context(read_pages(todo, job))
        for rel, path, kind in entries:
            if kind == "link":
                staged.link(rel, path) if isinstance(staged, _InPlace) else _symlink(staged, rel, path)
                continue
            if rel not in known:
                _carry(staged, rel, path, in_place)
                continue
            result = known.pop(rel)
            output, written = None, None
            if result is None:
                read_now = next(fresh)
                result, written = read_now.result, read_now.written
                if result.page is not None:
                    _received(result.page, read_now.terms)
                if cache is not None:
                    for row_key, row in read_now.packed:
                        cache.put_packed(row_key, row)
            else:
                if result.output is not None:
                    output = result.output.encode()
                if cache is not None and output is not None:  # the page as written: known to the next run too
                    cache.put(page_key(stage, rel, output), replace(result, output=None))
            if result.problem:
                line, message = result.problem
                warnings.append(Problem(rel, line, message))
            if result.page is not None:
                pages.append(result.page)
                chunk_files.add(result.page)
                if key is not None:
                    key.add(result.page)
            elif result.skipped:
                skipped[result.skipped] += 1
            if written is not None:  # the reader wrote it
                rewritten += 1
                staged.sizes[rel] = written
            elif output is not None:
                rewritten += 1
                staged[rel] = output
            else:
                _carry(staged, rel, path, in_place)
        read = len(todo)
        held.close()  # the readers are done: no thread of theirs is left, so the search files' writer may fork
        if strict and warnings:
            raise ContentError([Problem(w.path, w.line, f"{w.message} (warning, --strict)") for w in warnings])
        search = _search_files(pages, options.default_lang, chunk_files, key, cache_dir if cache is not None else None,
                               warnings, staged)
        index_bytes = sum(staged.sizes[name] for name in search)
        for name in widget.assets.files:
            staged[f"{ASSETS_DIR}/{name}"] = widget.assets.read(name)
        staged.publish()
    if cache is not None:
        try:
            cache.save()
        except (OSError, sqlite3.Error) as exc:
            warnings.append(Problem(shown_name(cache_dir), 1, f"index cache not saved: {exc}"))
    return IndexResult(
        out=out, pages=len(pages), chunks=sum(len(p.chunks) for p in pages),
        index_bytes=index_bytes, read=read, rewritten=rewritten,
        skipped=dict(sorted(skipped.items())), warnings=tuple(sorted(warnings)), seconds=time.perf_counter() - started,
    )


def _search_files(pages: list[SearchPage], default_lang: str, chunk_files: ChunkFilesByLanguage,
                  key: search_cache.SearchKey | None, cache_dir: Path | None, warnings: list[Problem],
                  staged: StagedSite) -> Mapping[str, bytes]:
    """The search files, written into ``staged``: from the last run when no page's passages changed (the build
    cache's memo), else made, and written by a second process as they are made.  ``chunk_files``: those made
    (and written) as the pages came; ``key``: the memo's key of the pages (None: no cache)."""
    if cache_dir is not None and key is not None:
        try:
            stored = search_cache.load(cache_dir, key.hexdigest())
        except (OSError, ValueError):
            stored = None
        made = chunk_files.folder.written()
        if stored is not None and all(path in stored for path in made):  # the same pages make the same files
            for path in stored:  # one file at a time from the memo (search_cache.StoredFiles)
                if path not in made:
                    staged[path] = stored[path]
            return stored
    with staged.written_beside() as into:
        files = build_search_files(pages, default_lang, GENERATOR, into, chunk_files=chunk_files)
        if cache_dir is not None and key is not None:  # while the last files are written
            try:
                search_cache.save(cache_dir, key.hexdigest(), files)
            except OSError as exc:
                warnings.append(Problem(shown_name(cache_dir), 1, f"index cache not saved: {exc.strerror or exc}"))
    return files


@dataclass(frozen=True)
class _Job:
    """What the readers read pages with; ``stage`` is the cache's key of the reading (None: no cache)."""

    options: IndexOptions
    widget: WidgetTags
    stage: str | None
    staged: StagedSite  # where a page read and rewritten is written, by its reader


@dataclass(frozen=True)
class _ReadNow:
    """A page read this run: its reading (terms counted, no output), the bytes of the page it wrote, and its cache rows."""

    result: ReadPage
    written: int | None  # None: the page is left as it is
    packed: tuple[tuple[str, bytes], ...]  # (key, PageCache row) under the bytes read, and the bytes written
    terms: tuple[str, ...]  # the page's terms, by their numbers in its chunks' packed counts


_JOB: _Job | None = None  # what forked workers read pages with


@contextlib.contextmanager
def read_pages(todo: list[tuple[str, Path]], job: _Job) -> Iterator[Iterator[_ReadNow]]:
    """Each page read, in order.

    On two forked processes (as the build's parse workers) when there are enough pages to pay for them;
    the readers also write the pages they rewrite, count each chunk's terms and pack the cache rows, so
    both cores share that work too.
    """
    global _JOB
    _JOB = job
    try:
        if len(todo) < PARALLEL_MIN_DOCUMENTS or (os.cpu_count() or 1) < 2 or not fork_is_safe():
            yield (_read_file(rel, path) for rel, path in todo)
            return
        with multiprocessing.get_context("fork").Pool(2, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            yield pool.imap(_read_file_star, todo, chunksize=2)
    finally:
        _JOB = None


def _read_file_star(item: tuple[str, Path]) -> _ReadNow:
    return _read_file(*item)


def _read_file(rel: str, path: Path) -> _ReadNow:
    assert _JOB is not None
    data = read_regular(path)
    result = _read(data, rel, _JOB.options, _JOB.widget)
    output = result.output.encode() if result.output is not None else None
    rows = page_rows(_JOB.stage, rel, data, result, output) if _JOB.stage is not None else ()
    if output is not None:  # written here: a large site's pages (~100 MB) are not sent back to the main process
        _JOB.staged[rel] = output
    terms: tuple[str, ...] = ()
    if result.page is not None:
        chunks, terms = _with_terms(result.page.chunks)
        result = replace(result, page=replace(result.page, chunks=chunks))
    return _ReadNow(replace(result, output=None), len(output) if output is not None else None, rows, terms)


def _with_terms(chunks: tuple[Chunk, ...]) -> tuple[tuple[Chunk, ...], tuple[str, ...]]:
    """Chunks carrying their term counts (``lunr_index.field_counts``) packed in the page's own numbers, and the
    page's terms by number: each term crosses to the main process once a page, as a few ints per chunk."""
    vocabulary = PageVocabulary()
    counted = tuple(replace(c, terms=packed(field_counts(c.heading_path[0], c.heading_text, c.text, cache_text=False), vocabulary))
                    for c in chunks)
    return counted, tuple(vocabulary)


def _received(page: SearchPage, terms: tuple[str, ...]) -> None:
    """A page from a reader: its terms put in this process's numbers, as the build's parse results are
    (``lunr_index.packed``), in place: the page was made for this loop alone (unpickled, or read just now)."""
    numbers = numbered(terms)
    for chunk in page.chunks:
        renumber(chunk.terms, numbers)  # type: ignore[arg-type]  # packed by the reader


def _cached(cache: PageCache, stage: str, rel: str, path: Path) -> ReadPage | None:
    """The page's reading from the cache, if it knows the page's bytes."""
    data = read_regular(path)
    return cache.get(page_key(stage, rel, data), data)


def _read(data: bytes, rel: str, options: IndexOptions, widget: WidgetTags) -> ReadPage:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return ReadPage(None, None, "unreadable", (line, f"page is not UTF-8 text (byte 0x{data[exc.start]:02x}); left as it is"))
    return read_page(text, rel, options, widget, size=len(data))


def walk_site(site: Path, warnings: list[Problem]):
    """(site path, file, "file" | "link") of everything to carry over, sorted; symlinks are never followed."""
    root_real = Path(os.path.realpath(site))
    found = []
    def unreadable(error: OSError) -> None:  # a folder left out would be lost when the site is swapped
        raise UsageError(f"cannot read {shown_name(error.filename)}: {error.strerror}; nothing was replaced")

    for folder, dirs, files in os.walk(site, onerror=unreadable, followlinks=False):
        base = Path(folder)
        # Site paths by strings (a rerun walks the 14,000 search files it then leaves out: a relative_to each was
        # most of the walk), the folder's own once.
        inside = os.path.relpath(folder, site).replace(os.sep, "/")
        prefix = "" if inside == "." else f"{inside}/"
        for name in [*dirs, *files]:
            rel = prefix + name
            if _ours(rel):
                continue
            path = base / name
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                real = Path(os.path.realpath(path))
                if real != root_real and root_real not in real.parents:
                    warnings.append(Problem(rel, 1, f"symlink leads outside the site (to {shown_name(real)}); carried as a link, not read"))
                found.append((rel, path, "link"))
            elif stat.S_ISREG(mode):
                found.append((rel, path, "file"))
            elif not stat.S_ISDIR(mode):
                warnings.append(Problem(rel, 1, "not a regular file; left out"))
        dirs[:] = sorted(d for d in dirs if not (base / d).is_symlink() and not _ours(f"{prefix}{d}/"))
    return sorted(found)


def _ours(rel: str) -> bool:
    """A file an earlier run wrote and this one writes anew."""
    if rel == MARKER_NAME or rel == f"{ASSETS_DIR}/" or rel.startswith(f"{ASSETS_DIR}/"):
        return True
    prefix = f"{contract.SEARCH_DIR}/"
    # What an earlier run wrote, made anew by this one: never carried over.
    return rel.startswith(prefix) and contract.is_search_file(rel[len(prefix):])


def _carry(staged: StagedSite, rel: str, path: Path, in_place: bool) -> None:
    if in_place:
        staged.link(rel, path)  # type: ignore[attr-defined]
    else:
        staged[rel] = path


def _symlink(staged: StagedSite, rel: str, path: Path) -> None:
    dest = staged._folder() / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(os.readlink(path), dest)


class _InPlace(StagedSite):
    """The site replaced by its indexed copy: every file of it is carried into the new folder, so
    nothing is lost; no ownership marker (the site stays the generator's)."""

    def __init__(self, out: Path):
        super().__init__(out, owned=False)

    def link(self, rel: str, source: Path) -> None:
        """A hard link to the file (a symlink stays a symlink): the old folder is deleted after the swap."""
        dest = self._folder() / rel
        with self._reported():
            dest.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                os.symlink(os.readlink(source), dest)
                return
            try:
                os.link(source, dest, follow_symlinks=False)
            except OSError:
                self[rel] = source
                return
            self.sizes[rel] = dest.stat().st_size


def _check_selectors(options: IndexOptions) -> None:
    from selectolax.lexbor import LexborHTMLParser

    probe = LexborHTMLParser("<p></p>")
    for flag, selector in [("--root-selector", options.root_selector), ("--slot", options.slot),
                           *(("--exclude", s) for s in options.exclude)]:
        if selector is None:
            continue
        try:
            probe.css(selector)
        except Exception as exc:  # noqa: BLE001 - selectolax raises several types for a bad selector
            raise UsageError(f"{flag} {selector!r} is not a CSS selector ({exc})") from None


def _site_lang(site: Path) -> str:
    """The language of the home page (``<html lang>``), the default for pages that name none."""
    try:
        home = site / "index.html"
        head = read_regular(home)[:4096] if home.is_file() and not home.is_symlink() else b""
    except OSError:
        head = b""
    match = _HTML_LANG.search(head)
    code = match.group(1).decode().lower().replace("_", "-") if match else ""
    return code if LANG_RE.match(code) else "en"


def paste_lines(root: str = "/") -> tuple[str, str]:
    """For --no-inject: the widget's tags for a theme's <head>, and the box with its script (site served at ``root``)."""
    widget = WidgetTags.load()
    return "".join(widget.head(root).splitlines()), " ".join(widget.box("en").split()) + widget.script(root).strip()
