"""The pipeline, top to bottom: load -> parse (and chunk) -> render -> index -> write."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, MutableMapping, Sequence

from ..version import __version__
from ..cache import BuildCache, Changes, check_location, for_output, for_preview
from .check import Origin, check_aliases, check_file_folder_collisions, check_links, check_nav, output_paths
from ..config import Config, load_config
from ..errors import ContentError, Problem, UsageError
from .index import index_documents
from .load import load_documents
from .raw_syntax import unhandled_syntax
from ..model import EDITOR, PUBLIC, Document, ParsedDocument
from ..progress import Progress
from . import parse as parsing
from .parse import DocumentTooComplex, Parser
from .measured import MeasuredSite
from .output_folder import check_output_folder
from .site_names import name_length_problems
from .spool import PageSpool, with_html
from .write import StagedSite

ROLES = (PUBLIC, EDITOR)
DEFAULT_OUT = {PUBLIC: "site", EDITOR: "site-editor"}

@dataclass(frozen=True)
class BuildResult:
    out: Path | None  # None for ``check``, which writes nothing
    role: str
    documents: int
    chunks: int
    index_bytes: int
    warnings: tuple[Problem, ...]
    seconds: float
    files: int = 0
    changes: Changes = field(default_factory=Changes)  # documents added/changed/removed/unchanged


@dataclass(frozen=True)
class Assembled:
    """A whole site in memory: what ``write`` puts on disk."""

    files: Mapping[str, bytes | Path]  # a StagedSite (on disk) for ``build``
    pages: tuple[ParsedDocument, ...]  # without their HTML when a child process rendered them (see assemble)
    warnings: tuple[Problem, ...]
    errors: tuple[Problem, ...] = field(default=())
    changes: Changes = field(default_factory=Changes)  # compared with the build cache; empty without one
    cache_warnings: tuple[Problem, ...] = ()  # also in ``warnings``; serve shows only these on every save


def assemble(
    content_dir: Path,
    config: Config,
    role: str = PUBLIC,
    *,
    theme: Path | None = None,
    extra_head: str = "",
    progress: Progress | None = None,
    parse: Callable[[Sequence[Document], Parser], list[ParsedDocument]] | None = None,
    index: Callable[[Sequence[ParsedDocument], str, dict, MutableMapping[str, bytes | Path]],
                    Mapping[str, bytes | Path]] | None = None,
    files: MutableMapping[str, bytes | Path] | None = None,
) -> Assembled:
    """Load, parse, check, index and render everything into ``files`` (default: a dict in memory).

    Nothing is rendered unless the content is free of errors; ``build`` passes a
    ``StagedSite``, which writes each file to a temporary folder as it comes.
    A build's or check's pages wait on disk for the render and the index
    (``spool``; the returned pages' chunks can no longer be read); serve's stay in memory.
    """
    if role not in ROLES:
        raise UsageError(f"unknown role '{role}' (choose public or editor)")
    with contextlib.ExitStack() as held:
        spool = held.enter_context(PageSpool()) if isinstance(files, (StagedSite, MeasuredSite)) else None
        return _assemble(content_dir, config, role, theme, extra_head, progress, parse, index, files, spool)


def _assemble(content_dir: Path, config: Config, role: str, theme: Path | None, extra_head: str,
              progress: Progress | None, parse, index, files: MutableMapping[str, bytes | Path] | None,
              spool: PageSpool | None) -> Assembled:
    loaded = load_documents(content_dir, config)
    errors = list(loaded.errors)
    warnings = list(loaded.warnings)

    included = [d for d in loaded.documents if role == EDITOR or not d.is_editor_only]
    kept = {id(d) for d in included}  # by identity: comparing Documents field by field was O(n^2) bodies
    hidden = [d for d in loaded.documents if id(d) not in kept]
    failed = {p.path for p in loaded.errors}  # files that exist but failed to load: no follow-up errors about them
    nav_errors, nav_warnings = check_nav(config, [d for d in loaded.documents], failed)
    errors += nav_errors
    warnings += nav_warnings
    warnings += unhandled_syntax(included, config)

    parser = Parser(config, {d.rel_path: d.url for d in included}, spool)
    try:
        pages = (parse or parse_all)(included, parser, progress)
    except DocumentTooComplex as exc:
        return Assembled({}, (), tuple(sorted(warnings)), tuple(sorted([*errors, exc.problem])))
    release_freed_memory()  # what unpickling the workers' pages and saving them to the cache left behind
    link_errors, link_warnings = check_links(pages, hidden, failed)
    errors += link_errors
    warnings += link_warnings

    taken = output_paths(pages) | {"index.html", "404.html", "sitemap.xml"}
    redirects, alias_errors = check_aliases(pages, taken)
    errors += alias_errors
    if errors:
        return Assembled({}, tuple(pages), tuple(sorted(warnings)), tuple(sorted(errors)))
    assets = loaded.assets
    if spool is not None:  # the sources' text and the pages' ids, needed no more once links are checked: ~8 KB a page
        del loaded, included
        pages = [replace(page, doc=replace(page.doc, body=""), ids=frozenset()) for page in pages]
        release_freed_memory()

    from .render import Renderer, build_nav, sitemap  # Jinja: imported after the parse workers are forked

    renderer = Renderer(config, theme or theme_dir(), editor=role == EDITOR, extra_head=extra_head)
    nav = build_nav(pages, config)
    # Every generated file, as its path and how to make it: the paths are checked for
    # clashes before anything is made, from the very list the rendering goes through.
    makers: dict[str, Callable[[], bytes | Path]] = {
        page.doc.url: functools.partial(_rendered_page, renderer, page, nav) for page in pages
    }
    renderer.home_url = None if "index.html" in makers else "index.html"  # a document is the front page
    makers.setdefault("index.html", functools.partial(renderer.home, nav))
    for listing in renderer.listings(nav):  # a big site's folders, each listed on pages of their own
        makers.setdefault(listing.url, functools.partial(renderer.listing, listing))
    makers.setdefault("404.html", renderer.not_found)
    for path, page in sorted(redirects.items()):
        makers[path] = functools.partial(renderer.redirect, path, page.doc.url, page.title)
    makers["sitemap.xml"] = functools.partial(sitemap, sorted(p.doc.url for p in pages), config.base_url)
    for name, source in renderer.assets.files.items():
        makers[f"assets/{name}"] = lambda source=source: source  # a file of the theme, copied as it is
    site_paths = list(makers)
    files = {} if files is None else files

    def render(into: MutableMapping[str, bytes | Path]) -> None:
        for path, make in makers.items():
            into[path] = make()

    # Pages are rendered while the search files are made, unless their paths
    # clash: a clash is a content error, found before the first file is written.
    # (A page never clashes with a search file: .html pages, search/ files.)
    rendered: Callable[[bool], None] | None = None
    if not _clashes(site_paths, pages, redirects, assets)[0]:
        if isinstance(files, StagedSite) and len(pages) >= parsing.PARALLEL_MIN_DOCUMENTS and _two_cores():
            rendered = files.fill_in_child(render)  # on the other core
            # The child has the pages' HTML: here it is needed no more (~6 MB on fastapi-en).
            makers.clear()
            pages = [replace(page, html="") for page in pages]
            release_freed_memory()
        else:
            render(files)
            rendered = lambda report=True: None  # noqa: E731
            if isinstance(files, MeasuredSite):  # check: what build's child would have, no page is kept here
                makers.clear()
                pages = [replace(page, html="") for page in pages]
                release_freed_memory()
    generator = {"name": "citesearch", "version": __version__}
    search = (index or index_documents)(pages, config.lang, generator, files)  # written into files as made
    release_freed_memory()
    clash_errors, content_files = _clashes([*site_paths, *search], pages, redirects, assets, warnings)
    errors += clash_errors
    if errors or rendered is None:  # (without clashes among the pages, the search files add no other)
        if rendered is not None:
            rendered(False)
        return Assembled({}, tuple(pages), tuple(sorted(warnings)), tuple(sorted(errors)))
    del search
    rendered(True)
    files.update(content_files)
    return Assembled(files, tuple(pages), tuple(sorted(warnings)), ())


def _rendered_page(renderer, page: ParsedDocument, nav) -> bytes:
    return renderer.page(with_html(page), nav)  # a spooled page's HTML read back for this page alone


def _two_cores() -> bool:
    return (os.cpu_count() or 1) >= 2 and parsing.fork_is_safe()


def _clashes(generated: list[str], pages: Sequence[ParsedDocument], redirects: dict[str, ParsedDocument],
             content: Iterable[tuple[str, Path]], warnings: list[Problem] | None = None,
             ) -> tuple[list[Problem], list[tuple[str, Path]]]:
    """The clashes among the site's paths, and the content's own files that can join them.

    A file where a Markdown document's page goes (``index.html`` beside
    ``index.md``) is left out with a warning, as MkDocs does; a clash with
    citesearch's own files is an error.  Warnings go into ``warnings`` when given.
    """
    origins = site_origins(generated, pages, redirects)  # before the content's own files join
    errors, content_files = [], []
    for rel, source in content:
        origin = origins.get(rel)
        if origin is not None and origin.subject.startswith("its page"):
            if warnings is not None:
                warnings.append(Problem(rel, 1, f"left out of the site: {origin.what} is written to {rel}; "
                                                f"rename one of the two to keep both"))
        elif origin is not None:
            errors.append(Problem(rel, 1, f"file collides with the generated {rel}"))
        else:
            content_files.append((rel, source))
            origins[rel] = Origin(rel, f"the file {rel}")
    return errors + check_file_folder_collisions(origins) + name_length_problems(origins), content_files


def theme_dir() -> Path:
    """``render.theme_dir``, imported when the pages are rendered: parse workers need no Jinja (~7 MB each)."""
    from . import render

    return render.theme_dir()


def release_freed_memory() -> None:
    """Give the heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing).

    The allocator keeps what a stage freed in holes between live objects, and
    the resident size counts them: trimmed between stages, the next stage's
    peak starts from what is really alive.
    """
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)  # the C library the process runs on
    if trim is not None:
        trim(0)


def site_origins(generated: Iterable[str], pages: Sequence[ParsedDocument],
                 redirects: dict[str, ParsedDocument]) -> dict[str, Origin]:
    """Each generated site path with the document it comes from (none: citesearch's own file)."""
    origins = dict.fromkeys(generated, Origin(None, "a file citesearch writes"))
    for page in pages:
        rel = page.doc.rel_path
        origins[page.doc.url] = Origin(rel, f"the page of {rel}", f"its page {page.doc.url}")
    for path, page in redirects.items():
        rel = page.doc.rel_path
        origins[path] = Origin(rel, f"a redirect for an alias of {rel}", f"its alias {path}")
    return origins


def parse_all(documents: Sequence[Document], parser: Parser, progress: Progress | None = None) -> list[ParsedDocument]:
    return parser.parse_many(documents, progress)


def prepare(
    content_dir: Path,
    role: str,
    cache_dir: Path,
    *,
    theme: Path | None = None,
    extra_head: str = "",
    progress: Progress | None = None,
    no_cache: bool = False,
    files: MutableMapping[str, bytes | Path] | None = None,
) -> Assembled:
    """The one entry ``build``, ``check`` and ``serve`` share: config, cache, every stage but publishing.

    Parse results of unchanged documents come from the build cache in
    ``cache_dir``; ``no_cache`` parses everything again (and refreshes the cache).
    The site's files go into ``files`` (see ``assemble``).
    """
    if not content_dir.is_dir():
        raise UsageError(f"content folder not found: {content_dir}")
    if role not in ROLES:
        raise UsageError(f"unknown role '{role}' (choose public or editor)")
    config = load_config(content_dir)
    cache = BuildCache(cache_dir, content_dir, config, reuse=not no_cache)
    assembled = assemble(
        content_dir, config, role, theme=theme, extra_head=extra_head, progress=progress,
        parse=cache.parse, index=cache.search_files, files=files,
    )
    cache_warnings = tuple(cache.warnings)
    return replace(
        assembled, warnings=assembled.warnings + cache_warnings, changes=cache.changes, cache_warnings=cache_warnings
    )


def check(
    content_dir: Path | str = ".",
    *,
    role: str = PUBLIC,
    strict: bool = False,
    progress: Progress | None = None,
    cache_dir: Path | str | None = None,
) -> BuildResult:
    """Everything ``build`` checks, without writing a site; raise ContentError on errors.

    With no output folder to sit beside, the cache is serve's (the user's cache folder).
    """
    started = time.perf_counter()
    content_dir = Path(content_dir)
    cache_dir = Path(cache_dir) if cache_dir is not None else for_preview(content_dir)
    check_location(cache_dir, content_dir)
    with MeasuredSite() as site:
        prepared = prepare(content_dir, role, cache_dir, progress=progress, files=site)
    return _result(_without_errors(prepared, strict), None, role, started)


def build(
    content_dir: Path | str = ".",
    out: Path | str | None = None,
    *,
    role: str = PUBLIC,
    strict: bool = False,
    progress: Progress | None = None,
    no_cache: bool = False,
    theme: Path | None = None,
    cache_dir: Path | str | None = None,
) -> BuildResult:
    """Build the site; raise ContentError (and write nothing) when the content has errors.

    The build cache lives in ``cache_dir`` (default: beside the output, ``<out>.cache``).
    """
    started = time.perf_counter()
    content_dir = Path(content_dir)
    if role not in ROLES:
        raise UsageError(f"unknown role '{role}' (choose public or editor)")
    out = Path(out) if out is not None else Path(DEFAULT_OUT[role])
    check_output_folder(out, content_dir, DEFAULT_OUT[role])
    cache_dir = Path(cache_dir) if cache_dir is not None else for_output(out)
    check_location(cache_dir, content_dir, out)
    with StagedSite(out) as site:  # removed, and the old site kept, unless published
        prepared = prepare(content_dir, role, cache_dir, theme=theme, progress=progress, no_cache=no_cache, files=site)
        assembled = _without_errors(prepared, strict)
        site.publish()
    return _result(assembled, out, role, started)


def _without_errors(assembled: Assembled, strict: bool) -> Assembled:
    """The site when it may be written; ContentError (errors, and warnings under --strict) otherwise."""
    problems = list(assembled.errors)
    if strict:
        problems += [Problem(w.path, w.line, f"{w.message} (warning, --strict)") for w in assembled.warnings]
    if problems:
        raise ContentError(problems, () if strict else assembled.warnings)
    return assembled


def _result(assembled: Assembled, out: Path | None, role: str, started: float) -> BuildResult:
    files = assembled.files
    sizes = files.sizes if isinstance(files, (StagedSite, MeasuredSite)) else {
        p: len(d) for p, d in files.items() if isinstance(d, bytes)}
    search_bytes = sum(size for p, size in sizes.items() if p.startswith("search/"))
    return BuildResult(
        out=out,
        role=role,
        documents=len(assembled.pages),
        chunks=sum(len(p.chunks) for p in assembled.pages),
        index_bytes=search_bytes,
        warnings=assembled.warnings,
        seconds=time.perf_counter() - started,
        files=len(assembled.files),
        changes=assembled.changes,
    )
