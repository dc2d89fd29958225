"""The site nav as a tree of folders, and its HTML: whole on a small site, bounded on a big one.

A flat list of every page in every page grows with the square of the site
(7,424 pages in one folder: 315 KB of nav per page, 1.8 GB of site).  Up to
``FULL_LIMIT`` pages per language, every page shows the whole tree, its
folders collapsible and the current one open.  Above it, a page shows its
own folder around itself (``WINDOW`` pages each side), the first pages of
each folder above it, and at most ``MAX_FOLDERS`` sibling folders per level;
everything else is one link away on the generated folder listings, split into
pages of ``LISTING_SIZE`` entries.  No page's size depends on the page count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from markupsafe import escape

from .ui_words import words_for

FULL_LIMIT = 200  # pages of one language shown whole in every page
WINDOW = 7  # pages shown on each side of the current one in a big folder
ANCESTOR_PAGES = 5  # pages shown of each folder above the current one
MAX_FOLDERS = 10  # sub-folders shown per level before "all sections" (each ~110 bytes in every page)
LISTING_SIZE = 200  # entries per generated listing page
LISTING_NAME = "~index"  # '~' + a letter: no file name, slug or escaped id is ever spelt so


@dataclass(frozen=True)
class NavItem:
    title: str
    url: str  # site-relative
    lang: str


@dataclass
class Folder:
    path: str  # "" for the root, else "guide/sub"
    name: str
    pages: list[NavItem] = field(default_factory=list)
    folders: dict[str, "Folder"] = field(default_factory=dict)  # by name, in first-seen order
    count: int = 0  # pages here and below
    title: str = ""

    def walk(self) -> Iterable["Folder"]:
        yield self
        for child in self.folders.values():
            yield from child.walk()


def folder_of(url: str) -> str:
    return url.rsplit("/", 1)[0] if "/" in url else ""


def build_tree(items: Sequence[NavItem]) -> Folder:
    """Items grouped by folder, in the order given; a folder is titled by its index page, else its name."""
    root = Folder("", "")
    for item in items:
        node = root
        node.count += 1
        folder = folder_of(item.url)
        for name in folder.split("/") if folder else ():
            child = node.folders.get(name)
            if child is None:
                child = node.folders[name] = Folder(f"{node.path}/{name}".lstrip("/"), name)
            node = child
            node.count += 1
        node.pages.append(item)
    for node in root.walk():
        index = next((p for p in node.pages if p.url.rsplit("/", 1)[-1] == "index.html"), None)
        node.title = index.title if index is not None else node.name
    return root


def find(root: Folder, path: str) -> list[Folder]:
    """The folders from the root down to ``path`` (as far as it exists)."""
    chain = [root]
    for name in path.split("/") if path else ():
        child = chain[-1].folders.get(name)
        if child is None:
            break
        chain.append(child)
    return chain


def listing_url(path: str, number: int = 1, *, home: str | None = None) -> str:
    """Site path of page ``number`` of a folder's listing; the root's first is ``home`` when given."""
    if not path and number == 1 and home:
        return home
    name = LISTING_NAME if number == 1 else f"{LISTING_NAME}-{number}"
    return f"{path}/{name}.html" if path else f"{name}.html"


def _link(href: str, title: str, current: bool = False) -> str:
    marked = ' aria-current="page"' if current else ""
    return f'<li><a href="{escape(href)}"{marked}>{escape(title)}</a></li>'


def _folder_open(title: str, is_open: bool, extra: str = "") -> str:
    return (f'<li class="nav-folder"><details{" open" if is_open else ""}><summary>{escape(title)}{extra}</summary>'
            '<ul>')


_FOLDER_CLOSE = "</ul></details></li>"


def full_html(root: Folder, prefix: str, open_path: str | None) -> str:
    """The whole tree; the folders holding ``open_path`` open, the others closed."""
    out: list[str] = []

    def add(node: Folder) -> None:
        out.extend(_link(prefix + p.url, p.title) for p in node.pages)
        for child in node.folders.values():
            is_open = open_path is not None and (open_path == child.path or open_path.startswith(child.path + "/"))
            out.append(_folder_open(child.title, is_open))
            add(child)
            out.append(_FOLDER_CLOSE)

    add(root)
    return "".join(out)


WINDOW_MARK = "\0window\0"


def bounded_html(root: Folder, prefix: str, folder: str, lang: str, home: str | None) -> str:
    """The nav of a page in ``folder`` on a big site, with ``WINDOW_MARK`` where the page's neighbours go.

    Every level from the root down shows a few of its pages and folders; the
    folders on the way to the page are open, the others link to their listing.
    """
    words = words_for(lang)
    chain = find(root, folder)
    out: list[str] = []

    def more(node: Folder, text: str) -> None:
        out.append(f'<li class="nav-more"><a href="{escape(prefix + listing_url(node.path, home=home))}">{escape(text)}</a></li>')

    def level(depth: int) -> None:
        node = chain[depth]
        if depth == len(chain) - 1:
            out.append(WINDOW_MARK)
        else:
            out.extend(_link(prefix + p.url, p.title) for p in node.pages[:ANCESTOR_PAGES])
            if len(node.pages) > ANCESTOR_PAGES:
                more(node, words["all_pages"].format(n=len(node.pages)))
        children = list(node.folders.values())
        shown = children[:MAX_FOLDERS]
        on_path = chain[depth + 1] if depth + 1 < len(chain) else None
        if on_path is not None and on_path not in shown:
            shown.append(on_path)
        for child in shown:
            if child is on_path:
                out.append(_folder_open(child.title, True))
                level(depth + 1)
                out.append(_FOLDER_CLOSE)
            else:
                count = f' <span class="nav-count">{child.count:,}</span>'
                href = prefix + listing_url(child.path, home=home)
                out.append(f'<li class="nav-folder"><a href="{escape(href)}">{escape(child.title)}</a>{count}</li>')
        if len(children) > MAX_FOLDERS:
            more(node, words["all_sections"].format(n=len(children)))

    level(0)
    return "".join(out)


def window_html(node: Folder, prefix: str, current: str | None, lang: str, home: str | None,
                positions: dict[str, int]) -> str:
    """The current folder's pages around ``current``, with a link to the rest."""
    pages = node.pages
    if len(pages) <= 2 * WINDOW + 1:
        shown = pages
    else:
        at = positions.get(current, 0) if current is not None else 0
        start = max(0, min(at - WINDOW, len(pages) - 2 * WINDOW - 1))
        shown = pages[start : start + 2 * WINDOW + 1]
    # In the page's own folder the window's links are relative to it ("p.html",
    # not "../folder/p.html"): ~15 bytes a link on every page of a big site.
    inside = bool(node.path) and current is not None and folder_of(current) == node.path

    def href_of(url: str) -> str:
        return url[len(node.path) + 1 :] if inside else prefix + url

    html = "".join(_link(href_of(p.url), p.title, inside and p.url == current) for p in shown)
    if len(shown) < len(pages):
        words = words_for(lang)
        href = href_of(listing_url(node.path, home=home))
        html += f'<li class="nav-more"><a href="{escape(href)}">{escape(words["all_pages"].format(n=len(pages)))}</a></li>'
    return html


@dataclass(frozen=True)
class Listing:
    """One page of a folder's generated listing."""

    url: str
    folder: Folder
    number: int
    pages: int  # how many listing pages the folder has
    entries: tuple[tuple[str, str, int | None], ...]  # (href, title, pages below: None for a page)
    crumbs: tuple[tuple[str, str], ...]  # (href, title) of the folders above
    previous: str | None
    next: str | None


def listings(root: Folder, home: str | None, root_title: str) -> list[Listing]:
    """Every folder's listing, split into pages of ``LISTING_SIZE`` entries: the folders first, then the pages."""
    found: list[Listing] = []

    def add(node: Folder, crumbs: tuple[tuple[str, str], ...]) -> None:
        url = listing_url(node.path, home=home)
        entries = [(listing_url(c.path, home=home), c.title, c.count) for c in node.folders.values()]
        entries += [(p.url, p.title, None) for p in node.pages]
        count = max(1, -(-len(entries) // LISTING_SIZE))
        for number in range(1, count + 1):
            found.append(Listing(
                listing_url(node.path, number, home=home), node, number, count,
                tuple(entries[(number - 1) * LISTING_SIZE : number * LISTING_SIZE]), crumbs,
                listing_url(node.path, number - 1, home=home) if number > 1 else None,
                listing_url(node.path, number + 1, home=home) if number < count else None,
            ))
        for child in node.folders.values():
            add(child, (*crumbs, (url, node.title or root_title)))

    add(root, ())
    return found
