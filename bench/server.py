"""A threaded static file server on 127.0.0.1 that counts what it sends.

The browser figures need "bytes transferred until the first results are
shown"; counting at the server (headers included; no compression unless asked
for, as ``http.server`` does not compress) is exact and independent of Chromium's
cache bookkeeping.  Each response is logged with its finish time so bytes
can be cut off at the moment the page showed its first result.
"""

from __future__ import annotations

import functools
import gzip
import io
import threading
import time
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class Sent:
    path: str
    bytes: int
    finished: float  # time.time() when the response was written


class _CountingWriter:
    def __init__(self, raw):
        self.raw = raw
        self.count = 0

    def write(self, data):
        self.count += len(data)
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


_COMPRESSIBLE = {".html", ".js", ".mjs", ".json", ".css", ".svg", ".xml", ".txt", ".wasm"}


@functools.lru_cache(maxsize=None)
def _gzipped(path: Path, mtime: float) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def __init__(self, *args, log: list[Sent], lock: threading.Lock, compress: bool = False, **kwargs):
        self._log, self._lock, self._compress = log, lock, compress
        super().__init__(*args, **kwargs)

    def send_head(self):
        """With ``compress``, text files go out gzipped (-6) when the browser accepts it, as a web server would."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (self._compress and path.suffix in _COMPRESSIBLE and path.is_file()
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = _gzipped(path, path.stat().st_mtime)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def setup(self):
        super().setup()
        self.wfile = _CountingWriter(self.wfile)

    def handle_one_request(self):
        before = self.wfile.count
        super().handle_one_request()
        sent = self.wfile.count - before
        if sent and getattr(self, "path", None):
            with self._lock:
                self._log.append(Sent(unquote(urlsplit(self.path).path), sent, time.time()))

    def log_message(self, *args):  # keep the bench output readable
        pass


class SiteServer:
    def __init__(self, root: Path, *, compress: bool = False):
        self.root = root
        self.log: list[Sent] = []
        self._lock = threading.Lock()
        handler = functools.partial(_Handler, directory=str(root), log=self.log, lock=self._lock, compress=compress)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def reset(self) -> None:
        with self._lock:
            self.log.clear()

    def sent_until(self, epoch: float) -> list[Sent]:
        with self._lock:
            return [s for s in self.log if s.finished <= epoch]
