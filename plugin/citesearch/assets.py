"""The widget's shipped files: the theme's static folder plus ``contract.js``, generated.

``contract.js`` is written from ``engine/contract.py`` on every build, so the
browser reads the very constants the Python half wrote the index with; there
is no hand-kept JavaScript copy to go stale.

Our own scripts and style sheets ship minified (rjsmin, rcssmin: comments and
white space out, nothing renamed), made from the sources on every build, so
no minified copy is kept to go stale either: a cold search downloads the
widget before its first result (issue 19), and the comments that explain the
sources are a third of their gzipped bytes.  The vendored ``*.min.js`` files
ship as they are.  The Node tests run the minified modules (``tests/js``).
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin

from .engine import contract

CONTRACT_MODULE = "contract.js"
ENTRY_MODULE = "citesearch.js"  # the page's <script type="module">
# A static import of a sibling module (``import { x } from "./y.js";``); the
# search modules are loaded by ``import()`` calls, which this does not match.
STATIC_IMPORT = re.compile(r'^import\b[^;]*?["\']\./([\w.-]+\.js)["\']', re.M)
# The specifier of a static import or re-export of a sibling module.
SIBLING_SPECIFIER = re.compile(r'^((?:import|export)\b[^;]*?["\']\./[\w.-]+\.js)(["\'])', re.M)


@dataclass(frozen=True)
class WidgetAssets:
    files: dict[str, bytes | Path]  # path under the assets folder -> content or source file
    version: str  # hash of every file: a redeployed site never mixes old and new modules
    modules: tuple[str, ...]  # top-level ES modules: their sibling imports are stamped with the version
    # What every page loads before the box works: the entry module and its static
    # imports, preloaded so none waits for its parent. The search modules are
    # not: they load on the box's first focus, beside the manifest and lunr.
    preloads: tuple[str, ...]

    def read(self, name: str) -> bytes:
        return _content(self.files[name])


def _content(source: bytes | Path) -> bytes:
    return source if isinstance(source, bytes) else source.read_bytes()


def widget_assets(theme: Path) -> WidgetAssets:
    static = theme / "static"
    files: dict[str, bytes | Path] = {p.relative_to(static).as_posix(): p for p in sorted(static.rglob("*")) if p.is_file()}
    files[CONTRACT_MODULE] = contract.javascript().encode("utf-8")
    files = dict(sorted(files.items()))
    modules = tuple(name for name in files if name.endswith(".js") and "/" not in name)
    preloads = static_imports(files, ENTRY_MODULE)
    # The version hashes what ships, so a new minifier's output gets a new URL too.
    digest = hashlib.sha256()
    for name, source in files.items():
        digest.update(name.encode() + b"\0" + minified(name, _content(source)))
    version = digest.hexdigest()[:10]
    for name in modules:  # stamped in the source, where every import starts a line
        files[name] = versioned_imports(_content(files[name]), version)
    shipped = {name: minified(name, _content(source)) if minifiable(name) else source for name, source in files.items()}
    return WidgetAssets(shipped, version, modules, preloads)


def minifiable(name: str) -> bool:
    """Our own scripts and style sheets; the vendored ones come minified with their licence."""
    return "/" not in name and name.endswith((".js", ".css"))


@functools.lru_cache(maxsize=128)
def minified(name: str, source: bytes) -> bytes:
    """``source`` without comments and needless white space, the same bytes for the same source.

    Remembered: each build (and each MkDocs page hook) asks for the same
    modules, unstamped for the version and stamped to ship."""
    if not minifiable(name):
        return source
    minify = rjsmin.jsmin if name.endswith(".js") else rcssmin.cssmin
    return minify(source.decode("utf-8")).encode("utf-8")


def versioned_imports(module: bytes, version: str) -> bytes:
    """``module`` with its sibling imports stamped ``?v=<version>``, as the page
    stamps the entry module and ``widget-engine.js`` its ``import()`` calls:
    one URL per module whoever imports it, so a redeployed site never mixes
    old and new modules, and a page needs no import map (1 KB a page)."""
    return SIBLING_SPECIFIER.sub(lambda m: f"{m.group(1)}?v={version}{m.group(2)}", module.decode("utf-8")).encode("utf-8")


def static_imports(files: dict[str, bytes | Path], entry: str) -> tuple[str, ...]:
    """``entry`` and every module it imports statically, directly or not, sorted."""
    found, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name not in found and name in files:
            found.add(name)
            todo += STATIC_IMPORT.findall(_content(files[name]).decode("utf-8"))
    return tuple(sorted(found))
