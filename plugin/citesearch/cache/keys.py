"""Cache keys: hashes of what a stage's output depends on, as the stage declares it.

A stage (``pipeline/parse.py``, ``pipeline/index.py``) lists the modules whose
code makes its output (``CACHE_MODULES``) and the versions and settings that
code reads (``cache_inputs(...)``); the cache only hashes them.  Hashing the
code means an edit without a version bump still invalidates what it made.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Iterable

from ..model import Document
from ..version import __version__

# Bumped when the cache's own layout changes (tables, row encoding).
SCHEMA_VERSION = 2


def stage_key(modules: Iterable[str], inputs: dict) -> str:
    """Hash of a stage's declared code and inputs, plus citesearch's version and the cache layout."""
    digest = hashlib.sha256()
    for name in modules:
        source = Path(importlib.import_module(name).__file__ or "")
        digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
    head = {"citesearch": __version__, "schema": SCHEMA_VERSION, "inputs": inputs}
    digest.update(canonical(head))
    return digest.hexdigest()


def document_hash(doc: Document) -> str:
    """Hash of every Document field the parser reads."""
    return hashlib.sha256(canonical([doc.id, doc.rel_path, doc.title, doc.lang, doc.body_line, doc.body])).hexdigest()


def canonical(data: object) -> bytes:
    """One byte string per value: sorted keys, UTF-8."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
