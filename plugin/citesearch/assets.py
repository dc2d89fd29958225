"""The widget's shipped files: the theme's static folder plus ``contract.js``, generated.

``contract.js`` is written from ``engine/contract.py`` on every build, so the
browser reads the very constants the Python half wrote the index with; there
is no hand-kept JavaScript copy to go stale.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .engine import contract

CONTRACT_MODULE = "contract.js"


@dataclass(frozen=True)
class WidgetAssets:
    files: dict[str, bytes | Path]  # path under the assets folder -> content or source file
    version: str  # hash of every file: a redeployed site never mixes old and new modules
    modules: tuple[str, ...]  # top-level ES modules, for the page's import map

    def read(self, name: str) -> bytes:
        source = self.files[name]
        return source if isinstance(source, bytes) else source.read_bytes()


def widget_assets(theme: Path) -> WidgetAssets:
    static = theme / "static"
    files: dict[str, bytes | Path] = {p.relative_to(static).as_posix(): p for p in sorted(static.rglob("*")) if p.is_file()}
    files[CONTRACT_MODULE] = contract.javascript().encode("utf-8")
    files = dict(sorted(files.items()))
    digest = hashlib.sha256()
    for name, source in files.items():
        digest.update(name.encode() + b"\0" + (source if isinstance(source, bytes) else source.read_bytes()))
    modules = tuple(name for name in files if name.endswith(".js") and "/" not in name)
    return WidgetAssets(files, digest.hexdigest()[:10], modules)
