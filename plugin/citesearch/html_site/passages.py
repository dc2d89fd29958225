"""Passages of a built HTML page, cut by the Markdown chunker's rules and marked in the page.

The content is walked as the chunker walks a Markdown tree: a heading opens a
section; every other element is a block, kept whole (paragraphs, lists, code,
tables, admonitions), except the wrappers that hold headings (``section``,
``div``, ``article``...), which are walked into, since generators such as
Sphinx nest sections.  Blocks go through ``chunk.cut``, the very function the
Markdown chunker uses, so anchors are ``<section id>--<n>``: a heading's own
id (or its ``<section id>``'s), else a slug of its text written into the
page.  Each block gets ``data-chunk``; the first block of a chunk gets the
anchor as its id, or, when it has an id of its own, an empty marker element
just before it carries the anchor.

Marks from an earlier run are removed first (``unmark``), so indexing an
indexed page cuts the very same passages: the page comes out byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from markdown.extensions.toc import slugify_unicode, unique
from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..markdown_ext.chunk import CHUNK_ATTR, TOP_SECTION, Block, ChunkResult, cut
from ..markdown_ext.text import BLOCK_TAGS, CELL_TAGS, SKIP_TAGS, SPACE_TAGS, closer, code_block, normalise, opener
from ..model import Heading

ANCHOR_MARKER = "data-citesearch-anchor"  # the empty element that carries an anchor for a block with its own id
HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
HEADING_SELECTOR = "h1, h2, h3, h4, h5, h6"
# Text-level elements: consecutive ones (and loose text) between blocks make one block together.
INLINE_TAGS = frozenset(
    "a abbr b bdi bdo br cite code data dfn em i img kbd mark q s samp small span strong sub sup time u var wbr "
    "del ins label input button select textarea picture audio video object iframe math".split()
)
# Wrappers walked into when they hold a heading; any other element is a block kept whole.
WRAPPERS = frozenset("div section article main body header footer aside form hgroup search center".split())
SKIPPED = SKIP_TAGS | {"noscript", "-comment"}
# Wrappers walked into, at most (one Python frame each); deeper ones are blocks. Real pages: under 10.
MAX_WRAPPER_DEPTH = 100
# Elements whose text is not simply their text nodes run together: a separator before or after
# them (``opener``/``closer``), a code block, or text left out.  An element with none of these
# inside gives its text by Lexbor in one call instead of a Python step per node (most of a page).
_SPECIAL_SELECTOR = ", ".join(sorted(BLOCK_TAGS | SPACE_TAGS | CELL_TAGS | (SKIPPED - {"-comment"})))


@dataclass(frozen=True)
class _Item:
    """A block: its elements (one, or a run of text-level nodes), its text, its section and heading path."""

    nodes: tuple[LexborNode, ...]
    block: Block
    path: tuple[int, ...]


class _Walk:
    def __init__(self, doc: LexborHTMLParser, roots: list[LexborNode], ignored: list[LexborNode]):
        self.doc = doc
        self.ignored = {node.mem_id for node in ignored}  # every element whose text is not content
        self.nested = _holders(roots, ignored)  # every element whose text needs a step per node
        self.taken = {node.attrs.get("id") for node in doc.css("[id]")}
        self.headings: list[Heading] = []
        self.open_path: list[int] = []
        self.section = TOP_SECTION
        self.items: list[_Item] = []

    def container(self, parent: LexborNode, depth: int = 0) -> None:
        run: list[LexborNode] = []
        for child in parent.iter(include_text=True):
            tag = child.tag
            if child.is_text_node:
                if run or (child.text_content or "").strip():
                    run.append(child)
                continue
            if tag in SKIPPED or child.mem_id in self.ignored:
                continue
            if tag in INLINE_TAGS:
                run.append(child)
                continue
            self.flush(run)
            run = []
            if tag in HEADINGS:
                self.heading(child)
            elif tag in WRAPPERS and depth < MAX_WRAPPER_DEPTH and self.holds_heading(child):
                self.container(child, depth + 1)
            else:
                self.add((child,))
        self.flush(run)

    def holds_heading(self, node: LexborNode) -> bool:
        return any(h.mem_id not in self.ignored for h in node.css(HEADING_SELECTOR))

    def flush(self, run: list[LexborNode]) -> None:
        while run and run[-1].is_text_node and not (run[-1].text_content or "").strip():
            run.pop()  # whitespace before the next block belongs to no block
        if run:
            self.add(tuple(run))

    def add(self, nodes: tuple[LexborNode, ...]) -> None:
        text = normalise("".join(text_parts(nodes, self.ignored, self.nested)))
        self.items.append(_Item(nodes, Block(self.section, text), tuple(self.open_path)))

    def heading(self, node: LexborNode) -> None:
        level = int(node.tag[1])
        text = normalise("".join(text_parts((node,), self.ignored, self.nested)))
        while self.open_path and self.headings[self.open_path[-1]].level >= level:
            self.open_path.pop()
        self.headings.append(Heading(level, self.heading_id(node, text), text))
        self.open_path.append(len(self.headings) - 1)
        self.section = self.headings[-1].id or TOP_SECTION

    def heading_id(self, node: LexborNode, text: str) -> str:
        """The heading's id; its section's (Sphinx puts it there); else a new slug, written into the page."""
        own = node.attrs.get("id")
        if own:
            return own
        parent = node.parent
        if parent is not None and parent.tag == "section" and parent.attrs.get("id") and _same(_first_element(parent), node):
            return parent.attrs["id"]
        slug = unique(slugify_unicode(text, "-") or "section", self.taken)
        node.attrs["id"] = slug
        return slug


def _same(a: LexborNode | None, b: LexborNode) -> bool:
    return a is not None and a.mem_id == b.mem_id  # selectolax makes a new wrapper per lookup


def _first_element(parent: LexborNode) -> LexborNode | None:
    for child in parent.iter(include_text=False):
        if child.tag not in SKIPPED:
            return child
    return None


def _holders(roots: list[LexborNode], ignored: Iterable[LexborNode]) -> set[int]:
    """mem_id of every element with a special element (``_SPECIAL_SELECTOR``) or an ignored one inside it."""
    holders: set[int] = set()
    for node in ignored:
        _add_ancestors(node, holders)
    for root in roots:
        for node in root.css(_SPECIAL_SELECTOR):
            _add_ancestors(node, holders)
    return holders


def _add_ancestors(node: LexborNode, holders: set[int]) -> None:
    parent = node.parent
    while parent is not None and parent.mem_id not in holders:
        holders.add(parent.mem_id)
        parent = parent.parent


def text_parts(nodes: Iterable[LexborNode], ignored: set[int], nested: set[int], raw: bool = False) -> list[str]:
    """The text of the nodes as ``element_text`` reads a tree, before ``normalise`` (no recursion: deep pages).

    A <pre> is a code block: every character of its text, no separators (``raw``).  An element
    ``nested`` says holds nothing special gives all its text at once (``LexborNode.text``).
    """
    parts: list[str] = []
    stack: list[tuple[LexborNode, bool]] = [(node, False) for node in reversed(list(nodes))]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            parts.append(closer(node.tag))
        elif node.is_text_node:
            parts.append(node.text_content or "")
        elif node.is_element_node and node.tag not in SKIPPED and node.mem_id not in ignored:
            if node.mem_id not in nested:
                text = node.text(deep=True)
                if raw:
                    parts.append(text)
                elif node.tag == "pre":
                    parts.append(code_block(text))
                else:
                    parts.append(opener(node.tag))
                    parts.append(text)
                    parts.append(closer(node.tag))
            elif raw:
                stack.extend((child, False) for child in reversed(list(node.iter(include_text=True))))
            elif node.tag == "pre":
                parts.append(code_block("".join(text_parts(node.iter(include_text=True), ignored, nested, raw=True))))
            else:
                parts.append(opener(node.tag))
                stack.append((node, True))
                stack.extend((child, False) for child in reversed(list(node.iter(include_text=True))))
    return parts


def unmark(doc: LexborHTMLParser) -> None:
    """Remove the marks an earlier run wrote (chunk attributes, anchors, marker elements)."""
    for marker in doc.css(f"[{ANCHOR_MARKER}]"):
        marker.decompose()
    for node in doc.css(f"[{CHUNK_ATTR}]"):
        attrs = node.attrs
        if attrs.get("id") == attrs.get(CHUNK_ATTR):
            del attrs["id"]
        del attrs[CHUNK_ATTR]


def cut_passages(doc: LexborHTMLParser, roots: list[LexborNode], ignored: list[LexborNode], budget: int) -> ChunkResult:
    """Cut the roots' content into chunks and mark every block in the page (``doc`` is changed)."""
    walk = _Walk(doc, roots, ignored)
    for root in roots:
        walk.container(root)
    items = walk.items
    chunks, marks = cut([item.block for item in items], [item.path for item in items], budget)
    ids = walk.taken  # every id of the page: those it had, the headings' new slugs, and the anchors below
    for item, (anchor, first) in zip(items, marks):
        elements = [node for node in item.nodes if node.is_element_node]
        for node in elements:
            node.attrs[CHUNK_ATTR] = anchor
        if not first:
            continue
        ids.add(anchor)
        if elements and _same(elements[0], item.nodes[0]) and not elements[0].attrs.get("id"):
            elements[0].attrs["id"] = anchor
        else:  # the block has an id of its own, or starts with loose text: a marker before it
            marker = doc.create_node("span")
            marker.attrs["id"] = anchor
            marker.attrs[ANCHOR_MARKER] = ""
            item.nodes[0].insert_before(marker)
    return ChunkResult(tuple(walk.headings), tuple(chunks), frozenset(ids))
