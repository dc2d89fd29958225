"""A parse result <-> a cache row of JSON values, and whether a row's links still hold."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Chunk, Document, Heading, Link, ParsedDocument


@dataclass
class Row:
    """One cached document, as the store reads and writes it."""

    rel_path: str
    hash: str  # keys.document_hash of the Document it was parsed from
    metadata: dict | None  # None until read (``Store.with_content``), as the HTML and chunks
    html: str | None
    chunks: list[dict] = field(default_factory=list)


def encode(page: ParsedDocument, digest: str, urls: dict[str, str]) -> Row:
    metadata = {
        "title": page.title,
        "headings": [[h.level, h.id, h.text] for h in page.headings],
        "links": [[link.href, link.target, link.fragment] for link in page.links],
        "ids": sorted(page.ids),
        # The URL each linked document had when this HTML was made: links are
        # rewritten to it, so the row is stale once any of them moves.
        "link_urls": {link.target: urls.get(link.target) for link in page.links if link.target},
    }
    # Chunk.terms is derived and recomputed when needed: not stored.
    chunks = [
        {"anchor": c.anchor, "heading_path": list(c.heading_path), "text": c.text, "heading_text": c.heading_text}
        for c in page.chunks
    ]
    return Row(page.doc.rel_path, digest, metadata, page.html, chunks)


def decode(doc: Document, row: Row) -> ParsedDocument:
    """Raises KeyError, TypeError or ValueError on a malformed row."""
    meta = row.metadata
    return ParsedDocument(
        doc=doc,
        title=_text(meta["title"]),
        html=_text(row.html),
        headings=tuple(Heading(level, id_, text) for level, id_, text in meta["headings"]),
        chunks=tuple(
            Chunk(
                doc_id=doc.id,
                anchor=_text(c["anchor"]),
                heading_path=tuple(c["heading_path"]),
                text=_text(c["text"]),
                lang=doc.lang,
                heading_text=_text(c["heading_text"]),
            )
            for c in row.chunks
        ),
        links=tuple(Link(href, target, fragment) for href, target, fragment in meta["links"]),
        ids=frozenset(meta["ids"]),
    )


def links_unchanged(row: Row, urls: dict[str, str]) -> bool:
    """Every document this row links to still has the URL its HTML points at."""
    return all(urls.get(target) == url for target, url in row.metadata["link_urls"].items())


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {type(value).__name__}")
    return value
