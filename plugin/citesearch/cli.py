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

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with one clear line
        self.print_usage(sys.stderr)
        print(f"citesearch: error: {message}", file=sys.stderr)
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

    search = commands.add_parser("search", help="search a built site like a reader")
    search.add_argument("query")
    search.add_argument("--site", type=Path, default=Path("site"))
    search.add_argument("--json", action="store_true", help="print the answer as JSON")
    search.add_argument("--limit", type=int, default=10)
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
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (``| head``) has nothing more to say
            stream.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return {"build": _build, "check": _check, "serve": _serve, "search": _search}[args.command](args)
    except ContentError as exc:
        for warning in exc.warnings:
            print(f"{warning} (warning)", file=sys.stderr)
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"citesearch: {len(exc.problems)} error(s); nothing was written", file=sys.stderr)
        return EXIT_CONTENT
    except CitesearchError as exc:
        print(f"citesearch: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:  # a disk or permission failure no check foresaw: still one line, never a traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"citesearch: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_USAGE


def _build(args) -> int:
    from .pipeline.build import build
    from .progress import terminal_progress

    with terminal_progress(sys.stderr) as progress:
        result = build(
            args.dir, args.out, role=args.role, strict=args.strict, progress=progress, no_cache=args.no_cache,
            cache_dir=args.cache_dir,
        )
    for warning in result.warnings:
        print(f"{warning} (warning)", file=sys.stderr)
    print(f"citesearch: built {summary(result)} -> {result.out} in {result.seconds:.2f}s", file=sys.stderr)
    return EXIT_OK


def _check(args) -> int:
    from .pipeline.build import check
    from .progress import terminal_progress

    with terminal_progress(sys.stderr) as progress:
        result = check(args.dir, role=args.role, strict=args.strict, progress=progress, cache_dir=args.cache_dir)
    for warning in result.warnings:
        print(f"{warning} (warning)", file=sys.stderr)
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


def _serve(args) -> int:
    from .serve import serve

    def log(message: str) -> None:
        print(f"citesearch: {message}", file=sys.stderr, flush=True)

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
    print(answer.message)
    for result in answer.results:
        print(f"\n{' › '.join(result.heading)}  [{result.url}]")
        print(quote_lines(result) if result.quote else "  (no sentence quotes the query)")
    return EXIT_OK
