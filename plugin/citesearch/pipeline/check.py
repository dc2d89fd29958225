"""Cross-document checks: links, anchors, aliases and the nav manifest."""

from __future__ import annotations

import posixpath
from typing import Sequence
from urllib.parse import urlsplit

from ..config import Config
from ..strict_yaml import brief
from ..errors import Problem
from ..model import Document, ParsedDocument


def line_of(doc: Document, needle: str) -> int:
    """Source line of the first occurrence of ``needle`` in the body (else the body's first line)."""
    position = doc.body.find(needle)
    return doc.body_line + (doc.body[:position].count("\n") if position >= 0 else 0)


def check_links(pages: Sequence[ParsedDocument], hidden: Sequence[Document]) -> tuple[list[Problem], list[Problem]]:
    """Broken links and anchors are warnings; a link to a left-out editor document is an error."""
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


def check_nav(config: Config, documents: Sequence[Document]) -> tuple[list[Problem], list[Problem]]:
    """Listed but missing: error (a lost file). Present but unlisted: warning."""
    if config.nav is None or config.source is None:
        return [], []
    source = config.source.name
    present = {d.rel_path for d in documents}
    listed = {entry.path for entry in config.nav}
    errors = [
        Problem(source, entry.line, f"nav lists {entry.path}, which does not exist")
        for entry in config.nav
        if entry.path not in present
    ]
    warnings = [
        Problem(d.rel_path, 1, f"{d.rel_path} is not listed in nav")
        for d in documents
        if d.rel_path not in listed
    ]
    return errors, warnings


def output_paths(pages: Sequence[ParsedDocument]) -> set[str]:
    return {p.doc.url for p in pages}


__all__ = ["check_links", "check_aliases", "check_nav", "alias_path", "line_of", "output_paths"]
