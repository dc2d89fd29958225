"""Links between documents: ``other.md#part`` becomes the other page's URL."""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as etree
from urllib.parse import unquote, urlsplit

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from ..model import Link
from ..pipeline.markdown_names import is_markdown


def relative_url(from_url: str, to_url: str) -> str:
    """URL of ``to_url`` as seen from the page at ``from_url`` (both site-relative)."""
    start = posixpath.dirname(from_url) or "."
    return posixpath.relpath(to_url, start)


class LinkTreeprocessor(Treeprocessor):
    def __init__(self, md: Markdown, extension: "LinkExtension"):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        ext = self.extension
        found: list[Link] = []
        for a in root.iter("a"):
            href = a.get("href")
            if not href:
                continue
            parts = urlsplit(href)
            if parts.scheme or parts.netloc:
                continue
            path = unquote(parts.path)
            if not path:
                if parts.fragment:
                    found.append(Link(href, None, parts.fragment))
                continue
            if not is_markdown(path):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(ext.page_path), path))
            found.append(Link(href, target, parts.fragment))
            target_url = ext.urls.get(target)
            if target_url is not None:
                new = relative_url(ext.page_url, target_url)
                a.set("href", new + (f"#{parts.fragment}" if parts.fragment else ""))
        self.md.citesearch_links = tuple(found)


class LinkExtension(Extension):
    """Rewrites relative ``.md`` links; ``md.citesearch_links`` lists them for checking.

    Set ``urls`` (content path -> page URL) once, and ``page_path``/``page_url``
    before converting each document.
    """

    def __init__(self, urls: dict[str, str] | None = None, **kwargs):
        self.urls = urls or {}
        self.page_path = ""
        self.page_url = ""
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # After inline patterns (20) created the <a> elements.
        md.treeprocessors.register(LinkTreeprocessor(md, self), "citesearch_links", 7)
        self.md = md
        self.reset()

    def reset(self) -> None:
        self.md.citesearch_links = ()
