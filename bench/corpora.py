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

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
WORK_DIR = BENCH_DIR / "work"
# The shared material sits beside the repository; a worktree elsewhere names it.
SHARED_DIR = Path(os.environ.get("CITESEARCH_SHARED", REPO_DIR.parent / "shared"))
CORPORA_DIR = SHARED_DIR / "corpora"


@dataclass(frozen=True)
class Corpus:
    name: str  # short label used in tables and folder names
    source: Path  # read-only folder of Markdown files
    lang: str  # default document language
    title: str


CORPORA = (
    Corpus("fastapi-en", CORPORA_DIR / "fastapi-docs" / "en", "en", "FastAPI (en)"),
    Corpus("fastapi-ru", CORPORA_DIR / "fastapi-docs" / "ru", "ru", "FastAPI (ru)"),
    Corpus("fastapi-zh", CORPORA_DIR / "fastapi-docs" / "zh", "zh", "FastAPI (zh)"),
    Corpus("rust-rfcs", CORPORA_DIR / "rust-rfcs", "en", "Rust RFCs"),
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
    return [c for c in corpora if c.source.is_dir()]
