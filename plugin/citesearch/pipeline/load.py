"""Load: find every Markdown document, read it, validate its front matter."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


from ..config import Config
from ..errors import Problem
from ..model import PUBLIC, Document
from .frontmatter import KNOWN_KEYS, split_front_matter, valid_id, validate_front_matter



@dataclass(frozen=True)
class Loaded:
    documents: tuple[Document, ...]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    assets: tuple[tuple[str, Path], ...]  # non-Markdown files to copy: (site path, source)


def find_sources(content_dir: Path) -> tuple[list[Path], list[Path], list[Path]]:
    """Every ``*.md``, every other file, and the folder symlinks left out; ``_`` and ``.`` names skipped.

    Folder symlinks are not followed, so a symlink loop cannot hang the walk.
    """
    markdown, other, linked = [], [], []
    for folder, dirs, files in os.walk(content_dir, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
        linked += [Path(folder) / d for d in dirs if (Path(folder) / d).is_symlink()]
        for name in sorted(files):
            if name.startswith(("_", ".")):
                continue
            path = Path(folder) / name
            (markdown if name.endswith(".md") else other).append(path)
    return sorted(markdown), sorted(other), sorted(linked)


def load_documents(content_dir: Path, config: Config) -> Loaded:
    """Read and validate every document; collect all problems instead of stopping at the first."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    documents: list[Document] = []
    markdown, other, linked = find_sources(content_dir)
    for path in linked:
        warnings.append(Problem(path.relative_to(content_dir).as_posix(), 1, "symlinked folder is not followed"))
    for path in markdown:
        rel = path.relative_to(content_dir).as_posix()
        doc = _load_one(path, rel, config, errors, warnings)
        if doc is not None:
            documents.append(doc)
    _check_duplicate_ids(documents, errors)
    assets = tuple(
        (p.relative_to(content_dir).as_posix(), p) for p in other if p.name != "citesearch.yml"
    )
    return Loaded(tuple(documents), tuple(errors), tuple(warnings), assets)


def _load_one(path: Path, rel: str, config: Config, errors: list, warnings: list) -> Document | None:
    try:
        data = path.read_bytes()
    except OSError as exc:
        errors.append(Problem(rel, 1, f"cannot read file: {exc.strerror or exc}"))
        return None
    if b"\x00" in data:
        errors.append(Problem(rel, 1, "binary file (contains NUL bytes), not Markdown"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        errors.append(Problem(rel, line, f"not valid UTF-8: byte 0x{data[exc.start]:02x} at column {column}"))
        return None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")

    front, body, body_line, fm_errors = split_front_matter(text, rel)
    errors.extend(fm_errors)
    if fm_errors:
        return None
    fields, problems = validate_front_matter(front, rel, config)
    if problems:
        errors.extend(problems)
        return None
    if not body.strip():
        warnings.append(Problem(rel, body_line, "document has no content"))
    too_deep = nesting_problem(body, body_line, rel)
    if too_deep:
        errors.append(too_deep)
        return None

    doc_id = fields.get("id")
    if doc_id is None:
        doc_id = id_from_path(rel)
        if doc_id is None:
            errors.append(Problem(rel, 1, "cannot derive an id from this file name; set 'id:' in the front matter"))
            return None
    return Document(
        id=doc_id,
        source=path,
        rel_path=rel,
        body=body,
        body_line=body_line,
        lang=fields.get("lang", config.lang),
        visibility=fields.get("visibility", PUBLIC),
        title=fields.get("title"),
        description=fields.get("description", ""),
        aliases=tuple(fields.get("aliases", ())),
        meta={k: v for k, v in front.items() if k not in KNOWN_KEYS},
    )


MAX_NESTING = 100
_QUOTE_PREFIX = re.compile(r"^(?:[ \t]*>)+")


def nesting_problem(body: str, body_line: int, rel: str) -> Problem | None:
    """Lists or quotes nested so deep that Markdown would exhaust Python's stack."""
    for number, line in enumerate(body.split("\n")):
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip(" "))
        quotes = _QUOTE_PREFIX.match(line)
        depth = max(indent // 4, quotes.group(0).count(">") if quotes else 0)
        if depth > MAX_NESTING:
            return Problem(rel, body_line + number, f"lists or quotes nested {depth} levels deep; at most {MAX_NESTING} can be rendered")
    return None


def id_from_path(rel: str) -> str | None:
    """``Guide/Install Notes.md`` -> ``guide/install-notes``; None when nothing usable is left."""
    stem = rel[: -len(".md")].lower()
    parts = []
    for part in stem.split("/"):
        slug = re.sub(r"[^a-z0-9._-]+", "-", part).strip("-.")
        if not slug:
            return None
        parts.append(slug)
    doc_id = "/".join(parts)
    return doc_id if valid_id(doc_id) else None


def _check_duplicate_ids(documents: list[Document], errors: list[Problem]) -> None:
    seen: dict[str, Document] = {}
    for doc in documents:
        first = seen.setdefault(doc.id, doc)
        if first is not doc:
            errors.append(Problem(doc.rel_path, 1, f"duplicate id '{doc.id}': also used by {first.rel_path}"))
