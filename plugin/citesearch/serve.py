"""Serve: preview a site locally, rebuild on save, reload the open pages.

The site is served from memory: every rebuild assembles a complete new set of
files and swaps it in with one assignment, so a request sees either the old
site or the new one, never a half-written mix, and only paths the build made
can be answered (no file system path is ever built from a URL).  A failed
rebuild keeps the last good site and tells the open pages, which show the
errors (file:line) over the page until the next good build.

Only requests addressed to the preview itself are answered (``Host`` is
localhost, a loopback address or ``--host``, with the port): a web page on
another origin could otherwise point its own name at 127.0.0.1 (DNS
rebinding) and read the editor's drafts.
"""

from __future__ import annotations

import errno
import http.server
import ipaddress
import json
import mimetypes
import os
import posixpath
import re
import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping
from urllib.parse import unquote, urlsplit

import watchfiles

from .pipeline.build import ROLES, Assembled, prepare
from .cache import LEGACY_DIR, check_location, for_preview
from .errors import CitesearchError, UsageError
from .model import EDITOR
from .pipeline.source_files import read_regular
from .pipeline.render import theme_dir

EVENTS_PATH = "/__citesearch/events"
SCRIPT_PATH = "/__citesearch/livereload.js"
KEEPALIVE_SECONDS = 15
# A client that sends or reads nothing for this long is let go: it must not hold a thread forever.
CLIENT_TIMEOUT_SECONDS = 10
# Connections the kernel queues while every thread is busy accepting; the stdlib's 5 turned away a page load's burst.
LISTEN_BACKLOG = 1024
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml"}

Log = Callable[[str], None]


@dataclass(frozen=True)
class State:
    """What the open pages need to know: the last good build and the current errors."""

    version: int  # bumped on every rebuild attempt, good or bad
    build: str  # id of the last good build ("" before the first one)
    files: Mapping[str, bytes | Path] = field(default_factory=dict)
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # of the last good build, "path:line: message"

    def event(self) -> bytes:
        data = json.dumps(
            {"build": self.build, "errors": list(self.errors), "warnings": list(self.warnings)}, ensure_ascii=False
        )
        return f"event: state\ndata: {data}\n\n".encode("utf-8")


class Preview:
    """The content folder, its last good site in memory, and the pages waiting for news."""

    def __init__(
        self, content_dir: Path, role: str = EDITOR, *, theme: Path | None = None, log: Log | None = None,
        cache_dir: Path | None = None,
    ):
        if not content_dir.is_dir():
            raise UsageError(f"content folder not found: {content_dir}")
        if role not in ROLES:
            raise UsageError(f"unknown role '{role}' (choose public or editor)")
        self.content_dir = content_dir
        self.role = role
        self.theme = theme or theme_dir()
        self.cache_dir = cache_dir or for_preview(content_dir)  # serve has no output folder to sit beside
        check_location(self.cache_dir, content_dir)
        self.log = log or (lambda message: None)
        self.session = secrets.token_hex(4)  # build ids differ across server restarts
        self.state = State(version=0, build="")
        self.changed = threading.Condition()
        self.closing = False
        self._builds = 0
        self._warned: frozenset[str] = frozenset()  # warnings printed already: each save lists only new ones
        self._building = threading.Lock()

    def rebuild(self) -> bool:
        """Build into memory; swap the result in when it is good, else publish the errors."""
        with self._building:
            started = time.perf_counter()
            build_id = f"{self.session}-{self._builds + 1}"
            assembled, errors = self._assemble(build_id)
            seconds = time.perf_counter() - started
            if errors or assembled is None:
                for warning in assembled.cache_warnings if assembled else ():
                    self.log(f"{warning} (warning)")
                self._publish(State(
                    self.state.version + 1, self.state.build, self.state.files, tuple(errors), self.state.warnings
                ))
                self.log(f"rebuild failed in {seconds:.2f}s, still serving the last good site:")
                for error in errors:
                    self.log(f"  {error}")
                return False
            self._builds += 1
            warnings = tuple(str(warning) for warning in assembled.warnings)
            self._publish(State(self.state.version + 1, build_id, _pinned(assembled.files), (), warnings))
            new = [warning for warning in warnings if warning not in self._warned]
            for warning in new:
                self.log(f"{warning} (warning)")
            self._warned = frozenset(warnings)
            c = assembled.changes
            chunks = sum(len(page.chunks) for page in assembled.pages)
            listed = len(warnings) - len(new)
            self.log(
                f"built {len(assembled.pages)} documents ({c.added} added, {c.changed} changed, "
                f"{c.removed} removed, {c.unchanged} unchanged; {c.parsed} parsed), {chunks} chunks, "
                f"{len(warnings)} warnings{f' ({listed} as listed before)' if listed else ''} in {seconds:.2f}s"
            )
            return True

    def _assemble(self, build_id: str) -> tuple[Assembled | None, list[str]]:
        """The whole site in memory, with the live-reload script in every page, or the errors."""
        head = f'<meta name="citesearch-build" content="{build_id}">\n<script src="{SCRIPT_PATH}" defer></script>\n'
        try:
            assembled = prepare(self.content_dir, self.role, self.cache_dir, theme=self.theme, extra_head=head)
            return assembled, [str(problem) for problem in assembled.errors]
        except CitesearchError as exc:
            return None, str(exc).splitlines()
        except Exception as exc:  # a bug must not take the preview down: show it, keep serving
            self.log(traceback.format_exc().rstrip())
            return None, [f"internal error while building: {type(exc).__name__}: {exc}"]

    def _publish(self, state: State) -> None:
        with self.changed:
            self.state = state
            self.changed.notify_all()

    def wait_for_news(self, seen: int, timeout: float) -> State | None:
        """The state once its version differs from ``seen``; None on timeout or shutdown."""
        with self.changed:
            self.changed.wait_for(lambda: self.closing or self.state.version != seen, timeout)
            return None if self.closing or self.state.version == seen else self.state

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()

    def run(self, stop_event: threading.Event | None = None) -> None:
        """Build once the watcher is up (so no save is missed), then after every burst of saves.

        watchfiles groups a burst (changes less than ``step`` ms apart) into one
        batch, and keeps collecting while a rebuild runs.
        """
        ignore = watchfiles.DefaultFilter(ignore_dirs=(*watchfiles.DefaultFilter.ignore_dirs, LEGACY_DIR))
        paths = [self.content_dir] + ([self.theme] if self.theme.is_dir() else [])
        first = True
        for changes in watchfiles.watch(
            *paths, watch_filter=ignore, step=50, rust_timeout=250, yield_on_timeout=True,
            stop_event=stop_event, raise_interrupt=False,
        ):
            if first:
                first = False
                self.rebuild()
                self.log("watching for changes; press Ctrl+C to stop")
            elif changes:
                names = sorted({_shown(Path(path), self.content_dir) for _, path in changes})
                self.log(f"changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
                self.rebuild()


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root.absolute()).as_posix()
    except ValueError:
        return path.as_posix()


def site_path(url_path: str) -> str | None:
    """The site file a request path names; None for anything outside the site."""
    path = unquote(urlsplit(url_path).path)
    if "\\" in path or "\0" in path or not path.startswith("/"):
        return None
    rel = path.lstrip("/")
    if rel == "" or rel.endswith("/"):
        rel += "index.html"
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    return rel


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})
# host, or [IPv6], then an optional port; no user info, path or spaces.
_HOST_HEADER = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[^\s:/@\[\]]+))(?::(?P<port>[0-9]{1,5}))?")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the preview on this computer."""
    host = host.strip("[]").lower()
    return host in LOOPBACK_NAMES or (_is_ip(host) and ipaddress.ip_address(host).is_loopback)


def host_allowed(header: str | None, bound_host: str, port: int) -> bool:
    """Whether a request's ``Host`` header names this preview.

    Allowed: localhost, 127.0.0.1, [::1] and the bound host, each with the
    server's port (no port only on port 80); when bound to every interface
    (0.0.0.0), any IP address too, since a DNS-rebinding page always reaches
    the server under a name of its own, never under an IP address.
    """
    match = _HOST_HEADER.fullmatch(header or "")
    if match is None:
        return False
    name = (match["v6"] or match["name"]).lower()
    if (int(match["port"]) if match["port"] else 80) != port:
        return False
    bound = bound_host.strip("[]").lower()
    if name in LOOPBACK_NAMES or name == bound:
        return True
    return bound in WILDCARD_HOSTS and _is_ip(name)


class Handler(http.server.BaseHTTPRequestHandler):
    server: "PreviewServer"
    server_version = "citesearch-serve"
    timeout = CLIENT_TIMEOUT_SECONDS  # per socket operation; the event stream waits on builds, not on the socket

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def _answer(self, *, body: bool) -> None:
        if not host_allowed(self.headers.get("Host"), self.server.bound_host, self.server.server_address[1]):
            return self._send(403, "text/plain; charset=utf-8", self.server.wrong_host_message(), body)
        request_path = urlsplit(self.path).path
        if request_path == EVENTS_PATH:
            return self._events() if body else self._send(200, "text/event-stream", b"", body)
        if request_path == SCRIPT_PATH:
            return self._send(200, "text/javascript", self.server.script.read_bytes(), body)
        state = self.server.preview.state
        if not state.build:  # no good build yet: an empty page that shows the errors
            page = f"<!doctype html><title>Build failed</title>{self.server.preview_head}<body></body>"
            return self._send(503, "text/html; charset=utf-8", page.encode(), body)
        rel = site_path(self.path)
        data = _read(state.files.get(rel)) if rel is not None else None
        if data is None:
            return self._send(404, "text/html; charset=utf-8", _read(state.files.get("404.html")) or b"Not found", body)
        kind = _TYPES.get(posixpath.splitext(rel)[1]) or mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/json", "image/svg+xml"):
            kind += "; charset=utf-8"
        self._send(200, kind, data, body)

    def _send(self, status: int, kind: str, data: bytes, body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _events(self) -> None:
        """Server-sent events: the current state now, then every change."""
        preview = self.server.preview
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        state = preview.state
        try:
            self.wfile.write(state.event())
            seen = state.version
            while not preview.closing:
                news = preview.wait_for_news(seen, KEEPALIVE_SECONDS)
                if news is None:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    self.wfile.write(news.event())
                    seen = news.version
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet: the terminal shows builds
        pass


def _pinned(files: Mapping[str, bytes | Path]) -> dict[str, bytes | Path]:
    """The site with each file copied from disk named by its real path, as the build checked it."""
    return {rel: Path(os.path.realpath(source)) if isinstance(source, Path) else source for rel, source in files.items()}


def _read(source: bytes | Path | None) -> bytes | None:
    """A file of the last good build; None for one gone, or reached through a symlink since that build.

    After a failed rebuild the last good site is still served, and its files
    are read from disk: a file or folder swapped since for a symlink (out of
    the content, say) would otherwise be served by the very preview whose
    build refused it.
    """
    if source is None or isinstance(source, bytes):
        return source
    if os.path.realpath(source) != str(source):
        return None
    try:
        return read_regular(source)  # never blocks on a file swapped for a FIFO since the build
    except OSError:  # an asset deleted since the last build
        return None


class PreviewServer(http.server.ThreadingHTTPServer):
    daemon_threads = True  # open event streams must not keep the process alive
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: tuple[str, int], preview: Preview):
        self.preview = preview
        self.bound_host = address[0]
        self.script = theme_dir() / "serve" / "livereload.js"
        self.preview_head = f'<script src="{SCRIPT_PATH}" defer></script>'
        super().__init__(address, Handler)

    def handle_error(self, request, client_address) -> None:
        """A client that went away or stalled is routine: no traceback; anything else is a bug worth one."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def wrong_host_message(self) -> bytes:
        own = f"http://127.0.0.1:{self.server_address[1]}/" if self.bound_host in WILDCARD_HOSTS else self.url
        return (
            "403 Forbidden: this citesearch preview only answers requests for its own address "
            "(localhost, 127.0.0.1, [::1] or the --host it was started with), so that no other web site "
            f"can read your drafts. Open {own} or restart serve with --host set to the name you use.\n"
        ).encode("utf-8")


def open_server(preview: Preview, host: str, port: int) -> PreviewServer:
    try:
        return PreviewServer((host, port), preview)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use; stop the other server or pick another with --port") from exc
        if exc.errno == errno.EACCES:
            raise UsageError(f"not allowed to listen on port {port}; pick one above 1023 with --port") from exc
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


def serve(
    content_dir: Path | str = ".",
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    role: str = EDITOR,
    log: Log | None = None,
    stop_event: threading.Event | None = None,
    cache_dir: Path | str | None = None,
) -> int:
    """Serve until interrupted; every save rebuilds and reloads the open pages."""
    preview = Preview(Path(content_dir), role, log=log, cache_dir=Path(cache_dir) if cache_dir else None)
    server = open_server(preview, host, port)  # before building: a busy port fails at once
    thread = threading.Thread(target=server.serve_forever, name="citesearch-serve", daemon=True)
    thread.start()
    try:
        preview.log(f"serving {preview.content_dir} ({role} role) at {server.url}")
        if not is_loopback(host):
            drafts = "its editor-only drafts included " if role == EDITOR else ""
            preview.log(
                f"warning: --host {host} exposes this preview, {drafts}to every machine that can reach this one "
                "on the network; use --host 127.0.0.1 to keep it private"
            )
        preview.run(stop_event)
    except KeyboardInterrupt:
        pass  # Ctrl+C is how a preview ends
    finally:
        preview.close()
        server.shutdown()
        server.server_close()
        thread.join()
    return 0
