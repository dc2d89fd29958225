"""The plain data the pipeline stages hand to each other."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

PUBLIC = "public"
EDITOR = "editor"
VISIBILITIES = (PUBLIC, EDITOR)


@dataclass(frozen=True)
class Document:
    """A Markdown source after loading: front matter read and validated."""

    id: str
    source: Path  # absolute path of the .md file
    rel_path: str  # content-relative posix path, as shown in messages
    body: str  # Markdown after the front matter
    body_line: int  # 1-based line of the source where ``body`` starts
    lang: str
    visibility: str
    title: str | None  # from front matter; None means "derive from the first H1"
    description: str = ""
    aliases: tuple[str, ...] = ()
    meta: Mapping[str, object] = field(default_factory=dict)  # unknown front matter keys
    # Source line of each front matter key (and "aliases[0]"...), for messages after loading.
    lines: Mapping[str, int] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """Site-relative URL of the page."""
        return page_url(self.id)

    @property
    def is_editor_only(self) -> bool:
        return self.visibility == EDITOR


def page_url(doc_id: str) -> str:
    return f"{doc_id}.html"


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    text: str


@dataclass(frozen=True)
class Chunk:
    """One citable passage: whole consecutive blocks of one section."""

    doc_id: str
    anchor: str
    heading_path: tuple[str, ...]  # (title, H2, H3, ...)
    text: str  # whitespace-normalised plain text
    lang: str
    heading_text: str = ""  # the headings of the path below the title, for the index
    # Analysed terms of the index fields (title, heading, body), computed in the parse
    # workers so both cores share the analysis; None when not computed (e.g. cached).
    # Per field: the distinct terms in first-seen order and the count of each (all
    # the index needs; ``lunr_index.counted``), or the same packed into an array (``lunr_index.packed``,
    # pages from the parse workers).  Derived, so left out of equality.
    terms: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] | array | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Link:
    """A link from one document to another document (or to itself)."""

    href: str
    target: str | None  # content-relative path of the target .md; None = same page
    fragment: str


@dataclass(frozen=True)
class ParsedDocument:
    """A document after Markdown: its HTML body, headings, chunks and links."""

    doc: Document
    title: str
    html: str
    headings: tuple[Heading, ...]
    chunks: tuple[Chunk, ...]
    links: tuple[Link, ...]
    ids: frozenset[str]  # every element id in the body, for anchor checks
