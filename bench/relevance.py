"""Relevance scores: is the right document (and passage) in the top 5?

Documents are scored the same way for every system, from what its search UI
shows in the browser (``browser.top_docs``: the first five distinct pages in
display order).  Passages are scored for citesearch only, through
``citesearch.engine.search.SiteSearch`` -- the object behind ``citesearch search
--json`` -- loaded once per site instead of once per query.  A passage is
right when one of the first five results (chunks) is in the right document
and either its heading path ends in the query's heading (heading queries) or
its text holds every word of the sentence the query was made from (words
queries).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from queries import HAN, WORD, Query, doc_key

TOP = 5


@dataclass(frozen=True)
class Score:
    hits: int
    total: int

    @property
    def share(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.hits}/{self.total}"


def score_docs(queries: list[Query], top_docs: dict[str, list[str]], kind: str | None = None) -> Score:
    chosen = [q for q in queries if kind in (None, q.kind)]
    hits = sum(q.doc in top_docs.get(q.text, [])[:TOP] for q in chosen)
    return Score(hits, len(chosen))


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text.casefold())


def _words(text: str) -> set[str]:
    """Words of four letters or more and every Han character.  Han runs are
    taken out before the words are: a run is not a word (Chinese spells out
    no word boundaries), and a sentence's run ``撰写本文时`` set off by markup
    the page drops is in the passage inside the run ``在撰写本文时``."""
    return {w.casefold() for w in WORD.findall(HAN.sub(" ", text))} | set("".join(HAN.findall(text)))


def passage_matches(query: Query, heading: list[str], text: str) -> bool:
    if query.kind == "heading":
        return bool(heading) and _squash(heading[-1]) == _squash(query.heading)
    return _words(query.sentence) <= _words(text)


def citesearch_passages(site: Path, queries: list[Query]) -> tuple[Score, dict[str, list[str]]]:
    """Passage score and, per query, the top documents the Python search gives."""
    from citesearch.engine.search import SiteSearch  # the working tree's, via sys.path

    search = SiteSearch(site)
    hits, docs_by_query = 0, {}
    for query in queries:
        answer = search.search(query.text, limit=50)
        docs: list[str] = []
        for r in answer.results:
            if doc_key(r.doc_id) not in docs:
                docs.append(doc_key(r.doc_id))
        docs_by_query[query.text] = docs[:TOP]
        for r in answer.results[:TOP]:
            if doc_key(r.doc_id) != query.doc:
                continue
            if passage_matches(query, r.heading, search_text(search, r)):
                hits += 1
                break
    return Score(hits, len(queries)), docs_by_query


def search_text(search, result) -> str:
    """The chunk text of a result, read from the site's text files."""
    return search.text(result)
