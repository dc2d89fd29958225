"""MkDocs' and Material's search front matter, as the plugin honours it.

``search: {exclude: true}``: the page is built and linked as usual, but none of
it is indexed. ``search: {boost: 2}``: lunr's document boost, as Material's
search applies it: every index weight of the page's passages (and, with page
ranking, of the page) is multiplied by the boost. Ranking compares those
weights, so a boost above 1 lifts the page among pages that match the query
as well, and one below 1 lowers it; it never makes a page match that does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mkdocs.exceptions import PluginError

MAX_BOOST = 1000.0


@dataclass(frozen=True)
class SearchMeta:
    exclude: bool = False
    boost: float = 1.0


def search_meta(meta: dict, src_uri: str) -> SearchMeta:
    """The page's ``search:`` front matter; a value MkDocs' or Material's search would not accept is an error."""
    value = meta.get("search")
    if value is None:
        return SearchMeta()
    if not isinstance(value, dict):
        raise PluginError(f"{src_uri}:1: 'search' must be a mapping such as 'search: {{exclude: true}}' "
                          f"or 'search: {{boost: 2}}', got {value!r}")
    exclude = value.get("exclude", False)
    if not isinstance(exclude, bool):
        raise PluginError(f"{src_uri}:1: 'search: exclude' must be true or false, got {exclude!r}")
    boost = value.get("boost", 1)
    if isinstance(boost, bool) or not isinstance(boost, (int, float)) or not math.isfinite(boost) \
            or not 0 < boost <= MAX_BOOST:
        raise PluginError(f"{src_uri}:1: 'search: boost' must be a number above 0 and at most {MAX_BOOST:g}, got {boost!r}")
    return SearchMeta(exclude, float(boost))
