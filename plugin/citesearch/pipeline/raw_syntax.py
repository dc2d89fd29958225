"""Syntax of Markdown extensions the site does not load: said once per site, not once per line.

typer's ``{* docs_src/… *}`` includes, ``///`` blocks, ``--8<--`` snippets and
``=== "Tab"`` stay plain text without their extension; an author who copied a
MkDocs site should hear why, and which extension to add to citesearch.yml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..config import Config
from ..errors import Problem
from ..model import Document


@dataclass(frozen=True)
class Syntax:
    what: str
    line: re.Pattern[str]
    extensions: tuple[str, ...]  # any of these (or a name starting with one) handles it
    trigger: str  # a document without this text cannot hold it


SYNTAXES = (
    Syntax("'{* file *}' includes (FastAPI/typer docs)", re.compile(r"^\s*\{\*.*\*\}\s*$"),
           ("markdown_include_variants",), "{*"),
    Syntax("'{!file!}' includes", re.compile(r"^\s*\{!.*!\}\s*$"), ("mdx_include", "markdown_include"), "{!"),
    Syntax("'--8<--' snippets", re.compile(r"^\s*-{1,}8<-{1,}"), ("pymdownx.snippets",), "8<"),
    Syntax("'///' blocks", re.compile(r"^\s*/{3,}\s*[\w-]+"), ("pymdownx.blocks",), "///"),
    Syntax("'=== \"Tab\"' tabs", re.compile(r'^===\+?\s+"'), ("pymdownx.tabbed",), "==="),
    Syntax("'??? note' collapsible blocks", re.compile(r"^\?\?\?\+?\s+\w"), ("pymdownx.details",), "???"),
)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def unhandled_syntax(documents: Sequence[Document], config: Config) -> list[Problem]:
    """One warning per kind of syntax no configured extension handles, at its first use, with the count."""
    loaded = [name for name, _ in config.markdown_extensions]
    wanted = [s for s in SYNTAXES if not any(name.startswith(ext) for name in loaded for ext in s.extensions)]
    first: dict[Syntax, tuple[str, int]] = {}
    counts: dict[Syntax, int] = {}
    for doc in documents:
        candidates = [s for s in wanted if s.trigger in doc.body]
        for syntax, line in _uses(doc, candidates):
            first.setdefault(syntax, (doc.rel_path, line))
            counts[syntax] = counts.get(syntax, 0) + 1
    problems = []
    for syntax, (path, line) in first.items():
        others = counts[syntax] - 1
        where = f" (and {others} more document{'s' if others > 1 else ''})" if others else ""
        problems.append(Problem(path, line, f"{syntax.what}{where} stay as text: add "
                                            f"{' or '.join(syntax.extensions)} to markdown_extensions in citesearch.yml"))
    return problems


def _uses(doc: Document, candidates: list[Syntax]) -> list[tuple[Syntax, int]]:
    """Each candidate syntax this document uses outside code fences, with the line of its first use."""
    if not candidates:
        return []
    found: dict[Syntax, int] = {}
    fence = ""
    for number, text in enumerate(doc.body.split("\n"), doc.body_line):
        opening = _FENCE.match(text)
        if opening:
            mark = opening.group(1)
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = ""
            continue
        if fence:
            continue
        for syntax in candidates:
            if syntax not in found and syntax.line.match(text):
                found[syntax] = number
    return list(found.items())
