"""Plain text of rendered Markdown elements, as readers see it."""

from __future__ import annotations

import copy
import html
from html import unescape
import re
import unicodedata
import xml.etree.ElementTree as etree
from html.parser import HTMLParser

# Python-Markdown leaves two kinds of placeholders in the tree until it serialises:
# raw HTML it stashed away, and backslash-escaped characters.
_STASH_RE = re.compile("\x02wzxhzdk:(\\d+)\x03")
_ESCAPE_RE = re.compile("\x02(\\d+)\x03")
# A third: "&" of an entity some extensions write (toc's "&para;" permalink, emoji, mailto), "&" at serialisation.
_AMP_ENTITY_RE = re.compile("\x02amp\x03(#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)?")

# The stored text of a chunk (engine/contract.py, FORMAT_VERSION 4): one line
# per block, so a quote never runs from one block into the next, whitespace
# collapsed to one space, except two kinds of lines, told apart by their
# first character (whitespace to the analyzer, so terms are unchanged):
#   CODE_LINE + line + CODE_LINE + line ...   a code block, lines and
#       indentation kept (trailing spaces and blank first/last lines dropped);
#   CELL + cell + CELL + cell ...             a table row; a table's first row
#       is its header.
# engine/quote.py reads them back to quote code as code and a row with its header.
CODE_LINE = "\u2028"
CELL = "\t"
BLOCK_TAGS = frozenset(
    "address article aside blockquote dd details div dl dt figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody "
    "tfoot thead tr ul".split()
)
SPACE_TAGS = frozenset(("br",))
CELL_TAGS = frozenset(("td", "th"))
_BREAK = "\u2029"  # marks a block boundary until normalise() turns it into "\n"
_CODE = "\x1e"  # opens a code block's raw text until normalise()
_CELL = "\x1f"  # opens a table cell until normalise()
_MARKERS = str.maketrans({_BREAK: " ", _CODE: " ", _CELL: " ", CODE_LINE: " "})
_SKIP_TAGS = frozenset(("script", "style", "template"))


def _code_block(raw: str) -> str:
    lines = [line.translate(_MARKERS).rstrip() for line in raw.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "".join(CODE_LINE + line for line in lines)


def _row(part: str) -> str:
    cells = [" ".join(cell.split()) for cell in part.split(_CELL)]
    if not cells[0]:
        cells.pop(0)
    return "".join(CELL + cell for cell in cells) if any(cells) else ""


def _block(part: str) -> str:
    if part.startswith(_CODE):
        return _code_block(part[1:])
    if _CELL in part:
        return _row(part)
    return " ".join(part.split())


def normalise(text: str) -> str:
    """Collapse whitespace to one space, and block boundaries to one line break
    (code blocks and table rows as the format above says)."""
    if _BREAK not in text:
        return " ".join(text.translate(_MARKERS).split())
    # A part of whitespace alone (every marker is whitespace) is no line: most parts, between nested blocks.
    return "\n".join(filter(None, [_block(part) for part in text.split(_BREAK) if part and not part.isspace()]))


def collapsed_length(text: str) -> int:
    """Length of ``text`` with all whitespace collapsed (the length chunk budgets count)."""
    return len(" ".join(text.split()))


def element_text(element: etree.Element, stash: list) -> str:
    """Whitespace-normalised text of an element, block children separated by spaces."""
    parts: list[str] = []
    _collect(element, stash, parts)
    return normalise("".join(parts))


_SEPARATORS = {**{tag: " " for tag in SPACE_TAGS}, **{tag: _BREAK for tag in BLOCK_TAGS}}
SKIP_TAGS = _SKIP_TAGS  # elements whose text readers never see
_OPENERS = {**_SEPARATORS, **{tag: _CELL for tag in CELL_TAGS}}
_CLOSERS = {**_SEPARATORS, **{tag: "" for tag in CELL_TAGS}}

# For readers of other trees (built HTML) that must give exactly the text ``element_text`` gives:
# an element's text goes between opener(tag) and closer(tag), except a <pre>'s, which is code_block(raw).


def opener(tag: str) -> str:
    """What stands before an element's text: a block boundary, a space, a table cell's start or nothing."""
    return _OPENERS.get(tag, "")


def closer(tag: str) -> str:
    """What stands after an element's text: a block boundary, a space or nothing."""
    return _CLOSERS.get(tag, "")


def code_block(raw: str) -> str:
    """A <pre> given every character of its text (no separators, entities decoded): one block of code lines."""
    return _BREAK + _CODE + raw + _BREAK


def _raw_text(element: etree.Element, stash: list) -> str:
    """Every character inside ``element`` (a <pre>), placeholders resolved, no separators."""
    parts = []
    for piece in element.itertext():
        parts.append(resolve(piece, stash) if "\x02" in piece else piece)
    return html.unescape("".join(parts)) if element.find(".//code") is not None else "".join(parts)


def _collect(element: etree.Element, stash: list, parts: list[str]) -> None:
    # Runs on every element of every page: placeholders are looked for before calling resolve().
    tag = element.tag
    tail = element.tail
    if tag in _SKIP_TAGS:
        if tail:
            parts.append(resolve(tail, stash) if "\x02" in tail else tail)
        return
    if tag == "pre":
        parts.append(code_block(_raw_text(element, stash)))
        if tail:
            parts.append(resolve(tail, stash) if "\x02" in tail else tail)
        return
    tagged = isinstance(tag, str)
    parts.append(_OPENERS.get(tag, "") if tagged else "")
    text = element.text
    if text:
        if "\x02" in text:
            text = resolve(text, stash)
        # Markdown stores code spans already HTML-escaped (&lt;); readers see "<".
        parts.append(html.unescape(text) if tag == "code" else text)
    for child in element:
        _collect(child, stash, parts)
    parts.append(_CLOSERS.get(tag, "") if tagged else "")
    if tail:
        parts.append(resolve(tail, stash) if "\x02" in tail else tail)


_MAX_STASH_DEPTH = 8


def resolve(text: str, stash: list, depth: int = 0) -> str:
    """Replace Markdown's placeholders with the text they stand for.

    Stashed HTML can itself hold placeholders: a fenced block inside a raw
    ``<div>`` is stashed first, then the whole div with the block's
    placeholder in it.  They are resolved in turn (a few levels at most).
    """
    if "\x02" not in text:
        return text

    def stashed(match: re.Match) -> str:
        index = int(match.group(1))
        if index >= len(stash) or depth >= _MAX_STASH_DEPTH:
            return ""
        raw = stash[index]
        if isinstance(raw, etree.Element):
            return _BREAK + element_text(raw, stash) + _BREAK
        return html_text(resolve(str(raw), stash, depth + 1))

    text = _STASH_RE.sub(stashed, text)
    text = _AMP_ENTITY_RE.sub(lambda m: unescape("&" + (m.group(1) or "")), text)
    return _ESCAPE_RE.sub(lambda m: chr(int(m.group(1))), text)


# Text a reader never sees as such: control characters, private-use code points (icon-font
# glyphs, shown as tofu without the font), unassigned ones and lone surrogates.
_INVISIBLE_CATEGORIES = frozenset(("Cc", "Co", "Cn", "Cs"))


def plain_text(text: str) -> str:
    """One line of text as a reader sees it: no control or private-use characters, spaces collapsed."""
    if not text.isprintable():
        text = "".join(" " if unicodedata.category(c) in _INVISIBLE_CATEGORIES else c for c in text)
    return " ".join(text.split())


def title_text(title: str) -> str:
    """A page title (nav entries may hold markup and entities: ``1.1 &nbsp; Binary search``) as plain text."""
    return plain_text(html_text(title))


def heading_text(element: etree.Element, stash: list, permalink_class: str = "headerlink") -> str:
    """A heading's text without its permalink (toc's ``¶``, a custom symbol or an icon)."""
    if not any(_is_permalink(a, permalink_class) for a in element.iter("a")):
        return plain_text(element_text(element, stash))
    heading = copy.deepcopy(element)
    for parent in list(heading.iter()):
        for index, child in reversed(list(enumerate(parent))):
            if _is_permalink(child, permalink_class):
                # toc's permalink_leading puts the heading text in the link's tail.
                tail = child.tail or ""
                if index:
                    parent[index - 1].tail = (parent[index - 1].tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
                parent.remove(child)
    return plain_text(element_text(heading, stash))


def _is_permalink(element: etree.Element, permalink_class: str) -> bool:
    classes = (element.get("class") or "").split()
    return element.tag == "a" and (permalink_class in classes or "headerlink" in classes)


def stash_index(text: str | None) -> int | None:
    """The stash index when the text is nothing but one raw-HTML placeholder."""
    if not text:
        return None
    match = _STASH_RE.fullmatch(text.strip())
    return int(match.group(1)) if match else None


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._pre = 0  # inside <pre>: text kept raw, tags add nothing

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self._skip += 1
        elif tag == "pre":
            self._pre += 1
            if self._pre == 1:
                self.parts.append(_BREAK + _CODE)
        elif not self._pre:
            self.parts.append(_OPENERS.get(tag, ""))

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag == "pre":
            if self._pre:
                self._pre -= 1
                if not self._pre:
                    self.parts.append(_BREAK)
        elif not self._pre:
            self.parts.append(_CLOSERS.get(tag, ""))

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


# A fenced code block as Python-Markdown stashes it: its text has no tag, its attributes are plain.
_CODE_BLOCK = re.compile(r'<pre(?: [a-z-]+="[^"<>&]*")*><code(?: [a-z-]+="[^"<>&]*")*>([^<]*)</code></pre>')


def html_text(html: str) -> str:
    """Text of an HTML fragment: tags dropped, entities decoded, scripts skipped."""
    if "<" not in html and "&" not in html:
        return html
    code = _CODE_BLOCK.fullmatch(html)
    if code:  # most stashed fragments: what the parser below gives, without running it
        return code_block(unescape(code.group(1)))
    return parsed_html_text(html)


def parsed_html_text(html: str) -> str:
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)
