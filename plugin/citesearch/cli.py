"""Command line: the only place that prints messages and chooses exit codes."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Sequence

from .version import __version__
from .errors import CitesearchError, ContentError
from .terminal import terminal_safe

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with one clear line
        self.print_usage(sys.stderr)
        print(f"citesearch: error: {terminal_safe(message)}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _port(text: str) -> int:
    """A TCP port for --port (0: any free one)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or int(digits) > 65535:
        raise argparse.ArgumentTypeError(f"port must be a whole number from 0 to 65535, got {text[:20]!r}")
    return int(digits)


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="citesearch", description="Static sites with cited-snippet search.")
    parser.add_argument("--version", action="version", version=f"citesearch {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    build = commands.add_parser("build", help="build the site from a folder of Markdown")
    build.add_argument("dir", nargs="?", default=".", type=Path, help="content folder (default: .)")
    build.add_argument("--out", type=Path, help="output folder (default: site, or site-editor for --role editor)")
    build.add_argument("--role", choices=("public", "editor"), default="public")
    build.add_argument("--strict", action="store_true", help="treat every warning as an error")
    build.add_argument("--no-cache", action="store_true", help="ignore the build cache and rebuild everything")
    build.add_argument("--cache-dir", type=Path, help="build cache folder (default: OUT.cache beside the output)")

    check = commands.add_parser("check", help="check the content like a build would, without writing anything")
    check.add_argument("dir", nargs="?", default=".", type=Path, help="content folder (default: .)")
    check.add_argument("--role", choices=("public", "editor"), default="public")
    check.add_argument("--strict", action="store_true", help="treat every warning as an error")
    check.add_argument(
        "--cache-dir", type=Path, help="build cache folder (default: serve's, one per content folder in ~/.cache/citesearch)"
    )

    serve = commands.add_parser("serve", help="preview locally with live reload")
    serve.add_argument("dir", nargs="?", default=".", type=Path)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--role", choices=("public", "editor"), default="editor")
    serve.add_argument(
        "--cache-dir", type=Path, help="build cache folder (default: one per content folder in ~/.cache/citesearch)"
    )

    index = commands.add_parser("index", help="add cited-snippet search to a site another generator built")
    index.add_argument("site", type=Path, help="the built site (HTML pages)")
    index.add_argument("--out", type=Path, help="write the indexed site here (default: SITE itself)")
    index.add_argument("--root-selector", help="CSS selector of the content (default: [data-citesearch-body], main, [role=main], article)")
    index.add_argument("--exclude", action="append", default=[], metavar="CSS", help="leave out what matches (a whole page when it holds the content)")
    index.add_argument("--lang-from", choices=("html", "folder"), default="html", help="page language from <html lang> or the first folder")
    index.add_argument("--inject", action=argparse.BooleanOptionalAction, default=True, help="put the search box into every page (default)")
    index.add_argument("--slot", metavar="CSS", help="element that gets the box (default: the page's header, else a fixed corner)")
    index.add_argument("--strict", action="store_true", help="treat every warning as an error")
    index.add_argument("--no-cache", action="store_true", help="read every page again")
    index.add_argument("--cache-dir", type=Path, help="page cache folder (default: OUT.cache beside the site)")

    search = commands.add_parser("search", help="search a built site like a reader")
    search.add_argument("query")
    search.add_argument("--site", type=Path, default=Path("site"))
    search.add_argument("--json", action="store_true", help="print the answer as JSON")
    search.add_argument("--limit", type=int, default=10, help="pages to list, each with its best passages (default 10)")
    search.add_argument("--explain", action="store_true", help="print the ranking criteria that placed each result")
    search.add_argument("--lang", help="search only documents in this language")
    search.add_argument("--exact", action="store_true", help="do not treat the last word as a prefix")
    return parser


def run() -> None:
    """The ``citesearch`` command: ``main()``, then exit without tearing the interpreter down.

    Freeing every object of a finished build (caches, modules) took ~0.1 s CPU
    of a fastapi-en build; nothing is left to clean up: files and the cache
    are closed, worker processes joined.  (``main`` returns, for callers in
    the same process.)
    """
    _same_in_every_locale()
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (``| head``) has nothing more to say
            stream.flush()
    os._exit(code)


def _same_in_every_locale() -> None:
    """Run in Python's UTF-8 mode whatever the locale: file names, arguments and output are UTF-8.

    Under ``LANG=C`` without UTF-8 mode, Python decodes file names as ASCII, so
    ``café.md`` looks undecodable, and printing a quote mark crashes.  The
    command starts again in UTF-8 mode (what ``PYTHONUTF8=1`` does; the
    arguments keep their bytes), and output that still cannot be encoded
    (``PYTHONIOENCODING=ascii``) is escaped, never a traceback.
    """
    restarted = os.environ.get("PYTHONUTF8") == "1"  # (``-X utf8=0`` given too: never a second restart)
    if sys.getfilesystemencoding().lower() not in ("utf-8", "utf8") and os.name == "posix" and not restarted:
        os.execve(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]], {**os.environ, "PYTHONUTF8": "1"})
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):  # replaced or closed streams: left as they are
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    from .waiting import set_notice

    set_notice(lambda message: _say(f"citesearch: {message}", flush=True))  # a build waiting on another says so
    try:
        return {"build": _build, "check": _check, "serve": _serve, "search": _search, "index": _index}[args.command](args)
    except ContentError as exc:
        for warning in exc.warnings:
            _say(f"{warning} (warning)")
        for problem in exc.problems:
            _say(str(problem))
        print(f"citesearch: {len(exc.problems)} error(s); nothing was written", file=sys.stderr)
        return EXIT_CONTENT
    except CitesearchError as exc:
        _say(f"citesearch: error: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:  # a disk or permission failure no check foresaw: still one line, never a traceback
        where = f": {exc.filename}" if exc.filename else ""
        _say(f"citesearch: error: {exc.strerror or exc}{where}")
        return EXIT_USAGE


def _say(text: str, stream=None, *, flush: bool = False) -> None:
    """Print one message (stderr unless told): names and page text escaped, never steering the terminal."""
    print(terminal_safe(text), file=stream or sys.stderr, flush=flush)


def _build(args) -> int:
    from .pipeline.build import build
    from .progress import terminal_progress

    with terminal_progress(sys.stderr) as progress:
        result = build(
            args.dir, args.out, role=args.role, strict=args.strict, progress=progress, no_cache=args.no_cache,
            cache_dir=args.cache_dir,
        )
    for warning in result.warnings:
        _say(f"{warning} (warning)")
    _say(f"citesearch: built {summary(result)} -> {result.out} in {result.seconds:.2f}s")
    return EXIT_OK


def _check(args) -> int:
    from .pipeline.build import check
    from .progress import terminal_progress

    with terminal_progress(sys.stderr) as progress:
        result = check(args.dir, role=args.role, strict=args.strict, progress=progress, cache_dir=args.cache_dir)
    for warning in result.warnings:
        _say(f"{warning} (warning)")
    print(f"citesearch: checked {summary(result)}; nothing written, in {result.seconds:.2f}s", file=sys.stderr)
    return EXIT_OK


def summary(result) -> str:
    """The one line a build reports: documents by change, chunks, index size, warnings."""
    c = result.changes
    return (
        f"{result.documents} documents ({c.added} added, {c.changed} changed, {c.removed} removed, "
        f"{c.unchanged} unchanged; {c.parsed} parsed), {result.chunks} chunks, "
        f"search index {result.index_bytes / 1024:.0f} KiB, {len(result.warnings)} warnings"
    )


def _index(args) -> int:
    from .html_site.command import index_site, paste_lines
    from .html_site.reader import IndexOptions

    options = IndexOptions(root_selector=args.root_selector, exclude=tuple(args.exclude), lang_from=args.lang_from,
                           inject=args.inject, slot=args.slot)
    result = index_site(args.site, args.out, options, strict=args.strict, cache_dir=args.cache_dir, no_cache=args.no_cache)
    for warning in result.warnings:
        print(f"{warning} (warning)", file=sys.stderr)
    skipped = ", ".join(f"{count} {reason}" for reason, count in result.skipped.items()) or "none"
    print(f"citesearch: indexed {result.pages} pages ({result.read} read, {result.rewritten} rewritten; skipped: {skipped}), "
          f"{result.chunks} chunks, search index {result.index_bytes / 1024:.0f} KiB, {len(result.warnings)} warnings "
          f"-> {result.out} in {result.seconds:.2f}s", file=sys.stderr)
    if not args.inject:
        print("citesearch: add these two lines to the theme (the first in <head>, the second where the box goes):", file=sys.stderr)
        for line in paste_lines():
            print(line)
    return EXIT_OK


def _serve(args) -> int:
    from .serve import serve

    def log(message: str) -> None:
        _say(f"citesearch: {message}", flush=True)

    return serve(args.dir, host=args.host, port=args.port, role=args.role, log=log, cache_dir=args.cache_dir)


def _search(args) -> int:
    from .engine.search import SiteSearch
    from .engine.quote import quote_lines

    if args.limit < 1:
        print("citesearch: error: --limit must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    answer = SiteSearch(args.site).search(args.query, limit=args.limit, lang=args.lang, prefix=not args.exact)
    if args.json:
        print(answer.to_json())
        return EXIT_OK
    _say(answer.message, sys.stdout)
    if answer.suggestion:  # as the widget offers it: the pages below were found through typos alone
        _say(f"Did you mean “{answer.suggestion}”?", sys.stdout)
    for result in answer.results:  # page text: the site's author chose it, not the reader's terminal
        _say(f"\n{' › '.join(result.heading)}  [{result.url}]", sys.stdout)
        _say(quote_lines(result) if result.quote else "  (no sentence quotes the query)", sys.stdout)
        if args.explain:
            _say(f"  page {result.page + 1}: {_criteria(result.page_criteria)}", sys.stdout)
            more = f"; {result.more_on_page} more on this page" if result.more_on_page else ""
            _say(f"  passage: {_criteria(result.criteria)}{more}", sys.stdout)
            if result.bare:  # its section criterion counts them as its own heading
                _say(f"  stands for the bare heading{'s' if result.bare > 1 else ''} "
                     f"{' › '.join(result.heading[-1 - result.bare:-1])}: its first passage, the heading has no text", sys.stdout)
    return EXIT_OK


def _criteria(values: dict) -> str:
    return ", ".join(f"{name} {value:g}" for name, value in values.items())
