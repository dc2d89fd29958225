"""What a ``mkdocs build --dirty`` leaves behind of pages that are gone.

``--dirty`` keeps the site folder: the HTML of a page deleted since the last
build, or turned into a draft, stays there with all its text. The last build's
chunk files list the URL of every page it indexed, so the plugin removes those
pages' HTML when they are no longer documentation pages of this build.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..engine import contract


def previous_page_urls(search_folder: Path) -> set[str]:
    """URLs of the pages the last build indexed (from its chunk files; none if there is no such build)."""
    urls: set[str] = set()
    for path in sorted((search_folder / contract.CHUNK_DIR).glob("*.json")):
        try:
            docs = json.loads(path.read_bytes()).get("docs", [])
            urls.update(row[2] for row in docs if isinstance(row, list) and len(row) > 2 and isinstance(row[2], str))
        except (OSError, ValueError, AttributeError):
            continue  # not a file of ours
    return urls


def remove_pages(site: Path, urls: set[str]) -> list[str]:
    """Remove the HTML of pages at ``urls`` (site-relative, as MkDocs' ``page.url``); returns those removed."""
    removed = []
    root = site.resolve()
    for url in sorted(urls):
        path = (site / (url + "index.html" if url == "" or url.endswith("/") else url)).resolve()
        if path.suffix == ".html" and path.is_relative_to(root) and path.is_file():
            path.unlink()
            removed.append(url)
    return removed
