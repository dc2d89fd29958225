"""Load: find every Markdown document, read it, validate its front matter."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .config import LANG_RE, Config
from .errors import Problem
from .model import PUBLIC, VISIBILITIES, Document

ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
RESERVED_ID_PREFIXES = ("assets/", "search/")
KNOWN_KEYS = ("title", "id", "lang", "visibility", "aliases", "description")
_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)


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


def split_front_matter(text: str, rel: str) -> tuple[dict, str, int, list[Problem]]:
    """Return (front matter mapping, body, first body line, problems)."""
    if not text.startswith("---\n") and text.rstrip("\n") != "---":
        return {}, text, 1, []
    end = _FRONT_MATTER_END.search(text, 4)
    if end is None:
        return {}, text, 1, [Problem(rel, 1, "front matter starts with '---' but has no closing '---'")]
    raw = text[4 : end.start()]
    body = text[end.end() + 1 :] if end.end() < len(text) else ""
    body_line = text[: end.end()].count("\n") + 2
    try:
        front = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 2 + (mark.line if mark is not None else 0)
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return {}, body, body_line, [Problem(rel, line, f"invalid YAML in front matter: {reason}")]
    if front is None:
        front = {}
    if not isinstance(front, dict):
        return {}, body, body_line, [Problem(rel, 2, f"front matter must be a mapping of keys to values, got {_kind(front)}")]
    front = {str(k): v for k, v in front.items()}
    front["__lines__"] = _key_lines(raw)
    return front, body, body_line, []


def _key_lines(raw: str) -> dict[str, int]:
    """Line of each top-level front matter key, for messages."""
    lines = {}
    try:
        node = yaml.compose(raw)
    except yaml.YAMLError:
        return lines
    if isinstance(node, yaml.MappingNode):
        for key, _ in node.value:
            lines[str(key.value)] = key.start_mark.line + 2
    return lines


def validate_front_matter(front: dict, rel: str, config: Config) -> tuple[dict, list[Problem]]:
    lines = front.pop("__lines__", {})
    problems: list[Problem] = []
    fields: dict = {}

    def problem(key: str, message: str) -> None:
        problems.append(Problem(rel, lines.get(key, 2), message))

    for key in ("title", "id", "lang", "visibility", "description"):
        if key in front:
            value = front[key]
            if not isinstance(value, str):
                problem(key, f"'{key}' must be a string, got {_kind(value)}")
            else:
                fields[key] = value.strip() if key != "description" else value
    if "id" in fields and not ID_RE.match(fields["id"]):
        problem("id", f"'id' must be a lowercase slug like 'guide/install' (a-z, 0-9, '-', '_', '.', '/'), got '{fields['id']}'")
        fields.pop("id")
    if "id" in fields and fields["id"].startswith(RESERVED_ID_PREFIXES):
        problem("id", f"'id' '{fields.pop('id')}' is reserved for citesearch's own files (assets/, search/)")
    if "lang" in fields:
        fields["lang"] = fields["lang"].lower()
        if not LANG_RE.match(fields["lang"]):
            problem("lang", f"'lang' must be a language code like 'en', 'ru' or 'zh', got '{front['lang']}'")
    if "visibility" in fields and fields["visibility"] not in VISIBILITIES:
        hint = difflib.get_close_matches(fields["visibility"], VISIBILITIES, n=1)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
        problem("visibility", f"'visibility' must be 'public' or 'editor', got '{fields['visibility']}'{suggestion}")
    if "aliases" in front:
        aliases = front["aliases"]
        if isinstance(aliases, str):
            aliases = [aliases]
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            problem("aliases", f"'aliases' must be a list of old URLs, got {_kind(front['aliases'])}")
        else:
            fields["aliases"] = aliases
    if "title" in fields and not fields["title"]:
        problem("title", "'title' is empty")
    return fields, problems


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


def valid_id(doc_id: str) -> bool:
    return bool(ID_RE.match(doc_id)) and not doc_id.startswith(RESERVED_ID_PREFIXES)


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


def _kind(value: object) -> str:
    return {list: "a list", dict: "a mapping", str: "a string", int: "a number", float: "a number",
            bool: "true/false", type(None): "nothing"}.get(type(value), type(value).__name__)
