"""Cross-document checks: links, anchors, aliases and the nav manifest."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Collection, Mapping, Sequence
from urllib.parse import urlsplit

from ..config import Config
from ..strict_yaml import brief
from ..errors import Problem
from ..model import Document, ParsedDocument


def line_of(doc: Document, needle: str) -> int:
    """Source line of the first occurrence of ``needle`` in the body (else the body's first line)."""
    position = doc.body.find(needle)
    return doc.body_line + (doc.body[:position].count("\n") if position >= 0 else 0)


def unread(path: str, failed: Collection[str]) -> bool:
    """Whether ``path`` is, or lies in a folder that is, a source that failed to load (its error already said so)."""
    return any(path == f or path.startswith(f + "/") for f in failed)


def check_links(
    pages: Sequence[ParsedDocument], hidden: Sequence[Document], failed: Collection[str] = ()
) -> tuple[list[Problem], list[Problem]]:
    """Broken links and anchors are warnings; a link to a left-out editor document is an error.

    A link to a file that failed to load (``failed``: the paths of the load errors) is
    not reported again: the file exists, and its own error is the one to fix.
    """
    errors: list[Problem] = []
    warnings: list[Problem] = []
    by_path = {p.doc.rel_path: p for p in pages}
    hidden_paths = {d.rel_path: d for d in hidden}
    for page in pages:
        doc = page.doc
        for link in page.links:
            line = line_of(doc, link.href)
            if link.target is None:
                if link.fragment not in page.ids:
                    warnings.append(Problem(doc.rel_path, line, f"link to missing anchor '#{link.fragment}' on this page"))
                continue
            if link.target in hidden_paths:
                errors.append(Problem(doc.rel_path, line, f"public page links to editor-only document {link.target}"))
                continue
            target = by_path.get(link.target)
            if target is None and unread(link.target, failed):
                continue
            if target is None:
                warnings.append(Problem(doc.rel_path, line, f"broken link: {link.target} does not exist"))
            elif link.fragment and link.fragment not in target.ids:
                warnings.append(Problem(doc.rel_path, line, f"broken link: {link.target} has no anchor '#{link.fragment}'"))
    return errors, warnings


def alias_path(alias: str) -> str | None:
    """Site path of a redirect page for an old URL; None when it points outside the site."""
    parts = urlsplit(alias)
    if parts.scheme or parts.netloc or parts.query or parts.fragment or "\\" in alias:
        return None
    path = parts.path.lstrip("/")
    if not path or path.endswith("/"):
        path += "index.html"
    if not path.endswith(".html"):
        path += ".html"
    normal = posixpath.normpath(path)
    if normal != path or normal.startswith("../") or normal == "..":
        return None
    return normal


def check_aliases(pages: Sequence[ParsedDocument], taken: set[str]) -> tuple[dict[str, ParsedDocument], list[Problem]]:
    """Redirect pages to write, by site path; collisions and escapes are errors."""
    redirects: dict[str, ParsedDocument] = {}
    owners: dict[str, str] = {}
    errors: list[Problem] = []
    for page in pages:
        doc = page.doc
        for i, alias in enumerate(doc.aliases):
            line = doc.lines.get(f"aliases[{i}]", doc.lines.get("aliases", 1))
            path = alias_path(alias)
            if path is None:
                errors.append(Problem(doc.rel_path, line, f"alias {brief(alias)} must be a path inside the site (no scheme, host or '..')"))
            elif path in taken:
                errors.append(Problem(doc.rel_path, line, f"alias {brief(alias)} collides with the page {path}"))
            elif path in owners:
                errors.append(Problem(doc.rel_path, line, f"alias {brief(alias)} is also an alias of {owners[path]}"))
            else:
                owners[path] = doc.rel_path
                redirects[path] = page
    return redirects, errors


def check_nav(
    config: Config, documents: Sequence[Document], failed: Collection[str] = ()
) -> tuple[list[Problem], list[Problem]]:
    """Listed but missing: error (a lost file). Present but unlisted: warning.

    A listed file that failed to load (``failed``) is not missing: its own error says what is wrong.
    """
    if config.nav is None or config.source is None:
        return [], []
    source = config.source.name
    present = {d.rel_path for d in documents}
    listed = {entry.path for entry in config.nav}
    errors = [
        Problem(source, entry.line, f"nav lists {entry.path}, which does not exist")
        for entry in config.nav
        if entry.path not in present and not unread(entry.path, failed)
    ]
    warnings = [
        Problem(d.rel_path, 1, f"{d.rel_path} is not listed in nav")
        for d in documents
        if d.rel_path not in listed
    ]
    return errors, warnings


@dataclass(frozen=True)
class Origin:
    """Where a site path comes from: the content file to blame (None: citesearch's own), and what it is."""

    source: str | None
    what: str  # "the page of a.md", "the file a.html", "a file citesearch writes"
    subject: str = "file"  # how its own source calls it: "file", "its page b/c.html", "its redirect old.html"


def check_file_folder_collisions(origins: Mapping[str, Origin]) -> list[Problem]:
    """Site paths that would have to be a file and a folder at once (``a.html`` and ``a.html/x.png``).

    Each clash is blamed on a content file, so the author knows what to rename.
    """
    errors: list[Problem] = []
    for path, origin in origins.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            holder = origins.get(folder)
            if holder is None:
                continue
            if origin.source is not None:
                errors.append(Problem(origin.source, 1, f"{origin.subject} would be written inside {folder}, which is "
                                                        f"{holder.what}; rename the folder {folder}"))
            elif holder.source is not None:
                errors.append(Problem(holder.source, 1, f"{folder} collides with the folder {folder}/ that "
                                                        "citesearch writes its own files into; rename it"))
            break  # the shallowest clash says it all
    return list(dict.fromkeys(errors))  # a file where citesearch's folder goes clashes with each file in it: once


def output_paths(pages: Sequence[ParsedDocument]) -> set[str]:
    return {p.doc.url for p in pages}


__all__ = ["check_links", "check_aliases", "check_nav", "check_file_folder_collisions", "Origin", "alias_path", "line_of", "output_paths"]
