"""Load: find every Markdown document, read it, validate its front matter."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path


from ..config import Config, folder_language
from ..errors import Problem
from ..model import PUBLIC, Document
from .output_folder import is_citesearch_output
from .source_files import (
    folder_error, folder_problem, is_editor_leftover, is_utf8_name, leftovers_warning, outside_problem, read_regular,
    shown_name, source_problem, walk,
)
from .markdown_names import is_markdown, without_markdown_suffix
from .frontmatter import KNOWN_KEYS, RESERVED_ID_PREFIXES, split_front_matter, valid_id, validate_front_matter
from .limits import source_problems



@dataclass(frozen=True)
class Loaded:
    documents: tuple[Document, ...]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    assets: tuple[tuple[str, Path], ...]  # non-Markdown files to copy: (site path, source)


@dataclass
class Sources:
    """What the walk found: documents, assets, folder symlinks left out, and files that must not be read."""

    markdown: list[Path] = field(default_factory=list)
    other: list[Path] = field(default_factory=list)
    linked: list[Path] = field(default_factory=list)
    sites: list[Path] = field(default_factory=list)  # folders holding a site citesearch built: never content
    leftovers: list[Path] = field(default_factory=list)  # editors' backup and swap files: never published
    problems: list[Problem] = field(default_factory=list)


def find_sources(content_dir: Path) -> Sources:
    """Every Markdown file and every other file; ``_`` and ``.`` names, editor leftovers and citesearch's own outputs skipped.

    Folder symlinks are not followed, so a symlink loop cannot hang the walk.
    Symlinks that lead outside the content folder, special files (FIFOs,
    devices, sockets), unreadable folders and names that are not UTF-8 are
    problems naming the file, never silently skipped or read.
    """
    found = Sources()
    root_real = Path(os.path.realpath(content_dir))

    def rel(path: Path | str) -> str:
        return shown_name(Path(path).relative_to(content_dir).as_posix())

    def unreadable(exc: OSError) -> None:
        found.problems.append(Problem(rel(exc.filename), 1, folder_error(exc)))

    for folder, dirs, files in walk(content_dir, unreadable):
        kept = []
        for name in sorted(dirs):
            path = Path(folder) / name
            if name.startswith(("_", ".")):
                continue
            if not is_utf8_name(name):
                found.problems.append(Problem(rel(path), 1, "folder name is not valid UTF-8; rename it"))
            elif path.is_symlink():
                outside = outside_problem(path, root_real)
                if outside:
                    found.problems.append(Problem(rel(path), 1, outside))
                else:
                    found.linked.append(path)
            elif folder_problem(path):  # before looking inside it for a site's marker
                found.problems.append(Problem(rel(path), 1, folder_problem(path)))
            elif is_citesearch_output(path):  # a site built into the content is never republished
                found.sites.append(path)
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            path = Path(folder) / name
            if name.startswith(("_", ".")) or name == "citesearch.yml":
                continue
            if is_editor_leftover(name):
                found.leftovers.append(path)
                continue
            problem = "file name is not valid UTF-8; rename it" if not is_utf8_name(name) else source_problem(path, root_real)
            if problem:
                found.problems.append(Problem(rel(path), 1, problem))
            else:
                (found.markdown if is_markdown(name) else found.other).append(path)
    for paths in (found.markdown, found.other, found.linked, found.sites, found.leftovers):
        paths.sort()
    return found


def load_documents(content_dir: Path, config: Config) -> Loaded:
    """Read and validate every document; collect all problems instead of stopping at the first."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    documents: list[Document] = []
    sources = find_sources(content_dir)
    errors += sources.problems
    for path in sources.linked:
        warnings.append(Problem(path.relative_to(content_dir).as_posix(), 1, "symlinked folder is not followed"))
    for path in sources.sites:
        rel = path.relative_to(content_dir).as_posix()
        warnings.append(Problem(rel, 1, "skipped: a site built by citesearch is not content; move it out of the content folder"))
    if sources.leftovers:
        warnings.append(leftovers_warning([p.relative_to(content_dir).as_posix() for p in sources.leftovers]))
    for path in sources.markdown:
        rel = path.relative_to(content_dir).as_posix()
        doc = _load_one(path, rel, config, errors, warnings)
        if doc is not None:
            documents.append(doc)
    documents = _resolve_clashing_ids(documents)
    _check_duplicate_ids(documents, errors)
    assets = tuple((p.relative_to(content_dir).as_posix(), p) for p in sources.other)
    return Loaded(tuple(documents), tuple(errors), tuple(warnings), assets)


def _load_one(path: Path, rel: str, config: Config, errors: list, warnings: list) -> Document | None:
    try:
        data = read_regular(path)
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
    source_errors = source_problems(body, body_line, rel, config)  # size, quadratic Markdown, heading ids
    if source_errors:
        errors.extend(source_errors)
        return None

    doc_id = fields.get("id")
    if doc_id is None:
        doc_id = id_from_path(rel) or escaped_id(rel)  # '[.md', '!.md', 'Установка.md': nothing left by the slug
        if not valid_derived_id(doc_id):
            errors.append(Problem(rel, 1, "cannot derive an id from this file name; set 'id:' in the front matter"))
            return None
    return Document(
        id=doc_id,
        source=path,
        rel_path=rel,
        body=body,
        body_line=body_line,
        lang=fields.get("lang") or language_of(rel, config),
        visibility=fields.get("visibility", PUBLIC),
        title=fields.get("title"),
        description=fields.get("description", ""),
        aliases=tuple(fields.get("aliases", ())),
        lines=fields["lines"],
        meta={k: v for k, v in front.items() if k not in KNOWN_KEYS},
    )


# Languages a ``page.ru.md`` suffix names on its own (mkdocs-static-i18n's suffix layout): the analyzer's.
SUFFIX_LANGUAGES = ("en", "ru", "zh")


def language_of(rel: str, config: Config) -> str:
    """A document's language without ``lang:``: its name's suffix, its folder's, or the site's."""
    stem = rel.rsplit("/", 1)[-1][: -len(".md")]
    suffix = stem.rsplit(".", 1)[-1].lower() if "." in stem else ""
    if suffix in SUFFIX_LANGUAGES or suffix in {lang for _, lang in config.languages}:
        return suffix
    return folder_language(rel, config) or config.lang


def id_from_path(rel: str) -> str | None:
    """``Guide/Install Notes.md`` -> ``guide/install-notes``; None when nothing usable is left."""
    stem = without_markdown_suffix(rel).lower()
    parts = []
    for part in stem.split("/"):
        slug = re.sub(r"[^a-z0-9._-]+", "-", part).strip("-.")
        if not slug:
            return None
        parts.append(slug)
    doc_id = "/".join(parts)
    return doc_id if valid_id(doc_id) else None


def escaped_id(rel: str) -> str:
    """The id of a file whose slug is empty or taken: its own name, every other character escaped.

    ``clang++.md`` -> ``clang~2b~2b``, ``[.md`` -> ``~5b``, ``Tool.md`` -> ``~54ool``.  Letters,
    digits and ``. _ -`` (not first) stay; any other character becomes ``~`` and the hex of each
    of its UTF-8 bytes.  Two different names never give one id, no escaped id is a slug (slugs
    have no ``~``), and the result needs no quoting in a URL and no case on disk.
    """
    parts = []
    for part in rel[: -len(".md")].split("/"):
        parts.append("".join(
            char if char in _SAFE_ANYWHERE or (i and char in "._-") else "".join(f"~{b:02x}" for b in char.encode())
            for i, char in enumerate(part)
        ))
    return "/".join(parts)


_SAFE_ANYWHERE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ESCAPED_ID = re.compile(r"^[a-z0-9~][a-z0-9._~-]*(/[a-z0-9~][a-z0-9._~-]*)*$")


def valid_derived_id(doc_id: str) -> bool:
    """A slug, or an escaped name, outside citesearch's own folders."""
    return bool(_ESCAPED_ID.match(doc_id)) and not doc_id.startswith(RESERVED_ID_PREFIXES)


def _resolve_clashing_ids(documents: list[Document]) -> list[Document]:
    """Files whose slugs clash: the file named exactly like the id keeps it, the others take their escaped id.

    ``clang.md`` stays ``clang``; ``clang++.md``, whose slug is also ``clang``, becomes
    ``clang~2b~2b``.  An id set in front matter is never changed (see ``_check_duplicate_ids``).
    """
    by_id: dict[str, list[Document]] = {}
    for doc in documents:
        by_id.setdefault(doc.id, []).append(doc)
    resolved = []
    for doc in documents:
        rivals = by_id[doc.id]
        if len(rivals) > 1 and "id" not in doc.lines and doc.rel_path[: -len(".md")] != doc.id:
            escaped = escaped_id(doc.rel_path)
            if valid_derived_id(escaped):
                doc = replace(doc, id=escaped)
        resolved.append(doc)
    return resolved


def _check_duplicate_ids(documents: list[Document], errors: list[Problem]) -> None:
    """Ids that still clash: set in front matter, or a file's own name; both files named, and what to change."""
    seen: dict[str, Document] = {}
    for doc in documents:
        first = seen.setdefault(doc.id, doc)
        if first is doc:
            continue
        if "id" in doc.lines:
            fix = "change the 'id:' of one of them" if "id" in first.lines else "change this 'id:'"
        elif "id" in first.lines:
            fix = f"change the 'id:' of {first.rel_path}"
        else:
            fix = f"rename {doc.rel_path}"
        errors.append(Problem(doc.rel_path, doc.lines.get("id", 1), f"duplicate id '{doc.id}': also used by {first.rel_path}; {fix}"))
