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

# Block boundaries become line breaks in the text, so a quote never runs from
# one block into the next; cells and <br> only separate words.
BLOCK_TAGS = frozenset(
    "address article aside blockquote dd details div dl dt figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody "
    "tfoot thead tr ul".split()
)
SPACE_TAGS = frozenset(("br", "td", "th"))
_BREAK = "\u2029"  # marks a block boundary until normalise() turns it into "\n"
_SKIP_TAGS = frozenset(("script", "style", "template"))


def normalise(text: str) -> str:
    """Collapse whitespace to one space, and block boundaries to one line break."""
    if _BREAK not in text:
        return " ".join(text.split())
    return "\n".join(filter(None, [" ".join(part.split()) for part in text.split(_BREAK)]))


def element_text(element: etree.Element, stash: list) -> str:
    """Whitespace-normalised text of an element, block children separated by spaces."""
    parts: list[str] = []
    _collect(element, stash, parts)
    return normalise("".join(parts))


_SEPARATORS = {**{tag: " " for tag in SPACE_TAGS}, **{tag: _BREAK for tag in BLOCK_TAGS}}


def _collect(element: etree.Element, stash: list, parts: list[str]) -> None:
    # Runs on every element of every page: placeholders are looked for before calling resolve().
    tag = element.tag
    tail = element.tail
    if tag in _SKIP_TAGS:
        if tail:
            parts.append(resolve(tail, stash) if "\x02" in tail else tail)
        return
    separator = _SEPARATORS.get(tag, "") if isinstance(tag, str) else ""
    parts.append(separator)
    text = element.text
    if text:
        if "\x02" in text:
            text = resolve(text, stash)
        # Markdown stores code spans already HTML-escaped (&lt;); readers see "<".
        parts.append(html.unescape(text) if tag == "code" else text)
    for child in element:
        _collect(child, stash, parts)
    parts.append(separator)
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

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self._skip += 1
        else:
            self.parts.append(_BREAK if tag in BLOCK_TAGS else " " if tag in SPACE_TAGS else "")

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        else:
            self.parts.append(_BREAK if tag in BLOCK_TAGS else " " if tag in SPACE_TAGS else "")

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
        return _BREAK + unescape(code.group(1)) + _BREAK
    return parsed_html_text(html)


def parsed_html_text(html: str) -> str:
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)
