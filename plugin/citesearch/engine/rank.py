"""Ranking v2: pages first, by named criteria, then the passages inside each page.

Mirrored by ``theme/static/rank.js``.  lunr finds and scores passages
(chunks) as before; this module decides the order, from what the term files
already hold: for each term, the passages with it per field and the pages
with it and their page-level BM25 weight (``contract``).

A query word matches a passage in one of three ways, best first:

* ``exact``: its own term (a CJK word: all of its bigrams);
* ``prefix``: a term starting with the word being typed;
* ``typo``: a term one edit away.  Typo tolerance is always on, but a word
  found only through a typo counts against the page (criterion ``typos``),
  so a page with the word itself always ranks above.

Pages are ordered by ``PAGE_CRITERIA``, a list of small named functions
compared one after the other (the way Algolia breaks ties and Lucene adds
coordination and proximity to BM25): the first that differs decides.  The
passages of a page are ordered by ``PASSAGE_CRITERIA`` the same way.  The
last resort is the smaller ref: the earlier page, the earlier passage.

The first screen (``refine``) is then re-ordered with what the texts of its
shown passages say: ``sentence`` (the query words one sentence holds),
``forms`` (words found as the reader typed them, not only by stem) and, for
pages, ``title`` (the page title holds every query word) and ``fit`` (the
largest share of a title or heading the query makes up).

Order of the criteria: measured with ``bench/quality.py`` (known-item
sentence and heading queries on the shared corpora; RESULTS-quality.md).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Callable, Sequence

from . import analyzer, query, quote
from .query import PREFIX_BOOST, Word
from .shards import ShardedIndex, assemble, within_one_edit

EXACT, PREFIX, TYPO = 0, 1, 2


def match_kind(word: Word, term: str) -> int | None:
    """How ``term`` matches ``word``: EXACT, PREFIX, TYPO or None."""
    if term in word.terms:
        return EXACT
    if any(term.startswith(text) for text in word.prefixes):
        return PREFIX
    if word.fuzzy and within_one_edit(word.terms[0], term):
        return TYPO
    return None


@dataclass
class _WordInPassage:
    exact: set = field(default_factory=set)  # exact terms found (a CJK word needs all)
    exact_heading: set = field(default_factory=set)  # ... in the title or heading fields
    heading_weight: float = 0.0  # their BM25 weights in those fields
    other: int | None = None  # best of PREFIX / TYPO
    other_heading: bool = False


@dataclass
class PassageEvidence:
    """What one passage holds of each query word."""

    ref: int
    score: float  # lunr's score (0 when only a typo or prefix lunr left out found it)
    words: list[_WordInPassage]

    def kind(self, i: int, word: Word) -> int | None:
        found = self.words[i]
        return EXACT if len(found.exact) == len(word.terms) else found.other

    def in_heading(self, i: int, word: Word) -> bool:
        found = self.words[i]
        return len(found.exact_heading) == len(word.terms) or found.other_heading

    def heading_weight(self, words: Sequence[Word]) -> float:
        """BM25 of the query's own terms in the title and heading fields alone:
        lunr's field weights favour the shorter heading that holds them."""
        return sum(found.heading_weight for found, word in zip(self.words, words)
                   if len(found.exact_heading) == len(word.terms))


@dataclass(frozen=True)
class Ranked:
    """A passage or a page with the values of its criteria, in criteria order."""

    ref: int  # the passage's ref; a page's first ref
    criteria: tuple[tuple[str, float], ...]
    key: tuple  # sorts best first
    passages: tuple["Ranked", ...] = ()

    def explain(self) -> dict[str, float]:
        return dict(self.criteria)


@dataclass(frozen=True)
class Criterion:
    name: str
    value: Callable  # evidence -> number
    higher_first: bool = True  # False: fewer is better (typos)


# --- Passage criteria: on one passage's kinds (per word: EXACT/PREFIX/TYPO/None).


def _count(kinds: Sequence[int | None], test: Callable[[int], bool]) -> int:
    return sum(1 for kind in kinds if kind is not None and test(kind))


PASSAGE_CRITERIA = (
    # Distinct query words the passage holds, in any form.
    Criterion("words", lambda p: _count(p["kinds"], lambda k: True)),
    # Words it holds only through a typo: the word itself first.
    Criterion("typos", lambda p: _count(p["kinds"], lambda k: k == TYPO), higher_first=False),
    # Words in the page title or the passage's headings.
    Criterion("heading", lambda p: p["heading"]),
    # Words it holds by their own term (not a prefix or a typo).
    Criterion("exact", lambda p: _count(p["kinds"], lambda k: k == EXACT)),
    # lunr's BM25 score of the passage.
    Criterion("score", lambda p: p["score"]),
)

PAGE_CRITERIA = (
    # Distinct query words anywhere on the page: coverage first, so a page
    # with every word beats one with a part of them many times.
    Criterion("words", lambda p: _count(p["kinds"], lambda k: True)),
    # Words found on the page only through a typo.
    Criterion("typos", lambda p: _count(p["kinds"], lambda k: k == TYPO), higher_first=False),
    # Proximity: the most query words one passage holds together.
    Criterion("proximity", lambda p: p["proximity"]),
    # Words in the title or a heading of the page's matching passages.
    Criterion("heading", lambda p: p["heading"]),
    # Words found by their own term rather than a prefix of one.
    Criterion("exact", lambda p: _count(p["kinds"], lambda k: k == EXACT)),
    # The best passage's BM25 in its title and headings alone: a page titled
    # or headed by the query's words before one that names them in a longer
    # title ("请求体" before "请求体 - 多个参数"), and into the refined first screen.
    Criterion("headline", lambda p: p["headline"]),
    # Evidence across the page's passages: BM25 with the page as the document.
    Criterion("evidence", lambda p: p["evidence"]),
)


def _key(criteria: Sequence[Criterion], values: Sequence[float], ref: int) -> tuple:
    return (*(-v if c.higher_first else v for c, v in zip(criteria, values)), ref)


def _ranked(criteria: Sequence[Criterion], facts: dict, ref: int, passages=()) -> tuple[tuple, Ranked]:
    values = [c.value(facts) for c in criteria]
    key = _key(criteria, values, ref)
    return key, Ranked(ref, tuple((c.name, v) for c, v in zip(criteria, values)), key, passages)


def _best(kinds: Sequence[int | None]) -> int | None:
    present = [k for k in kinds if k is not None]
    return min(present) if present else None


def collect(words: Sequence[Word], rows: Sequence[list], scores: dict[int, float]):
    """The evidence of every passage holding a query word, and the page weights.

    Returns ``(passages, page_starts, page_weights)``: ``page_weights[page][i]``
    is ``(exact weights by term, best other weight)`` of word ``i``.
    """
    passages: dict[int, PassageEvidence] = {}
    page_weights: dict[int, list] = {}
    starts: set[int] = set()
    for row in rows:
        term, per_field, pages = row[0], row[2:5], row[5]
        kinds = [(i, kind) for i, word in enumerate(words) if (kind := match_kind(word, term)) is not None]
        if not kinds:
            continue
        for f, flat in enumerate(per_field):
            heading = f < 2  # title or heading field
            for ref, weight in zip(flat[::2], flat[1::2]):
                passage = passages.get(ref)
                if passage is None:
                    passage = passages[ref] = PassageEvidence(ref, scores.get(ref, 0.0), [_WordInPassage() for _ in words])
                for i, kind in kinds:
                    found = passage.words[i]
                    if kind == EXACT:
                        found.exact.add(term)
                        if heading:
                            found.exact_heading.add(term)
                            found.heading_weight += weight
                    else:
                        found.other = kind if found.other is None else min(found.other, kind)
                        found.other_heading = found.other_heading or heading
        for page, weight in zip(pages[::2], pages[1::2]):
            starts.add(page)
            per_word = page_weights.setdefault(page, [[{}, 0.0] for _ in words])
            for i, kind in kinds:
                if kind == EXACT:
                    per_word[i][0][term] = weight
                else:
                    per_word[i][1] = max(per_word[i][1], weight)
    return passages, sorted(starts), page_weights


def evidence(words: Sequence[Word], weights: list) -> float:
    """Page BM25 of the query: per word, its own terms' page weights, else its
    best prefix or typo neighbour's, weighed ``PREFIX_BOOST`` as lunr weighs
    a prefix clause."""
    total = 0.0
    for word, (exact, other) in zip(words, weights):
        if len(exact) == len(word.terms):
            for term in word.terms:
                total += exact[term]
        else:
            total += other * PREFIX_BOOST
    return total


def rank(words: Sequence[Word], rows: Sequence[list], scores: dict[int, float]) -> list[Ranked]:
    """Pages best first, each with its passages best first."""
    passages, starts, page_weights = collect(words, rows, scores)
    by_page: dict[int, list] = {}
    for ref in sorted(passages):
        passage = passages[ref]
        kinds = [passage.kind(i, w) for i, w in enumerate(words)]
        if all(kind is None for kind in kinds):
            continue  # part of a CJK word only
        heading = {i for i, w in enumerate(words) if kinds[i] is not None and passage.in_heading(i, w)}
        facts = {"kinds": kinds, "heading_words": heading, "heading": len(heading),
                 "headline": passage.heading_weight(words), "score": passage.score}
        page = starts[bisect.bisect_right(starts, ref) - 1]
        by_page.setdefault(page, []).append((facts, _ranked(PASSAGE_CRITERIA, facts, ref)))
    pages = []
    for page, members in by_page.items():
        members.sort(key=lambda m: m[1][0])
        facts = {
            "kinds": [_best([m[0]["kinds"][i] for m in members]) for i in range(len(words))],
            "proximity": max(_count(m[0]["kinds"], lambda k: True) for m in members),
            "heading": len(set().union(*(m[0]["heading_words"] for m in members))),
            "headline": max(m[0]["headline"] for m in members),
            "evidence": evidence(words, page_weights[page]),
        }
        pages.append(_ranked(PAGE_CRITERIA, facts, page, tuple(m[1][1] for m in members)))
    pages.sort(key=lambda p: p[0])
    return [ranked for _, ranked in pages]


# --- Second stage: the first screen of pages, by what their shown passages say.

# Pages re-ordered by sentence evidence: the first screen, whose shown
# passages' texts are loaded for their quotes anyway (no extra file).
REFINED_PAGES = 10


def _words_in(words: Sequence[Word], text: str) -> int:
    terms = set(analyzer.analyze(text))
    return sum(1 for w in words if all(t in terms for t in w.terms)
               or any(t.startswith(p) for p in w.prefixes for t in terms))


def sentence_words(words: Sequence[Word], heading: Sequence[str], text: str, query_text: str, prefix: bool) -> int:
    """Proximity at its finest: the most query words one sentence of the
    passage holds (the sentence ``quote`` would cite; its heading path counts
    as one), by their own term or a prefix."""
    found = quote.quote(text, query_text, prefix=prefix)
    in_heading = _words_in(words, " ".join(heading))
    return max(in_heading, _words_in(words, found.sentence)) if found else in_heading


def typed_forms(query_text: str, prefix: bool) -> list[tuple[str, str, bool]]:
    """The distinct words of the query as typed (normalised, not stemmed):
    ``(kind, text, still typing)``."""
    text = query.capped(query_text)
    pieces = analyzer.pieces(text)
    forms = {}
    for i, piece in enumerate(pieces):
        typing = prefix and i == len(pieces) - 1 and piece.kind != "cjk" and piece.end == len(text)
        forms[(piece.kind, piece.text)] = forms.get((piece.kind, piece.text), False) or typing
    return [(kind, text, typing) for (kind, text), typing in forms.items()]


def forms_in(forms: Sequence[tuple[str, str, bool]], text: str) -> int:
    """How many of the typed ``forms`` ``text`` holds as typed: a word as a
    whole word (the one being typed: a word starting with it), a CJK run
    unbroken (its bigrams may be scattered in a passage that matches)."""
    pieces = analyzer.pieces(text)
    words = {p.text for p in pieces if p.kind != "cjk"}
    runs = [p.text for p in pieces if p.kind == "cjk"]
    found = 0
    for kind, form, typing in forms:
        if kind == "cjk":
            found += any(form in run for run in runs)
        else:
            found += form in words or (typing and any(w.startswith(form) for w in words))
    return found


def covered(words: Sequence[Word], heading: Sequence[str]) -> float:
    """The largest share of one heading's terms (the page title, a section
    heading of the passage) that the query words it holds make up: 1 when the
    query is that heading, in any order and form.  A word counts when the
    heading holds all of it (a CJK word: every bigram)."""
    best = 0.0
    for text in heading:
        terms = set(analyzer.analyze(text))
        held = set()
        for w in words:
            mine = {t for t in terms if t in w.terms or any(t.startswith(p) for p in w.prefixes)}
            own = set(w.terms)
            if mine and (mine & own == own or not mine <= own):
                held |= mine
        if terms:
            best = max(best, len(held) / len(terms))
    return best


def _with(ranked: Ranked, values: dict[str, float], criteria: Sequence[Criterion]) -> Ranked:
    """``ranked`` with the ``values`` of criteria it was not ranked by, each
    in its place in ``criteria``."""
    known = {**ranked.explain(), **values}
    ordered = [c for c in criteria if c.name in known]
    named = tuple((c.name, known[c.name]) for c in ordered)
    return Ranked(ranked.ref, named, _key(ordered, [v for _, v in named], ranked.ref), ranked.passages)


# The criteria of the second stage, in their places among the first's.
SENTENCE = Criterion("sentence", lambda p: p["sentence"])
# Query words the passage holds as the reader typed them, not only by stem:
# "declaration gives" finds the sentence that says it, not "declares ... give".
FORMS = Criterion("forms", lambda p: p["forms"])
# The page title holds every query word: the page about "anchors" (titled
# "Chunks and anchors") before another page's section "Anchors".
TITLE = Criterion("title", lambda p: p["title"])
# The largest share of a heading (the page title, a heading over a shown
# passage) that the query words make up: a query that is a title or a
# heading finds that page before pages naming its words in a longer title or
# heading ("请求体" before "请求体 - 多个参数"; "Pydantic models" before
# "Query Parameters with a Pydantic Model").
FIT = Criterion("fit", lambda p: p["fit"])


def _placed(criteria: Sequence[Criterion], after: dict[str, Criterion]) -> tuple[Criterion, ...]:
    placed = []
    for c in criteria:
        placed.append(c)
        while c.name in after:
            c = after[c.name]
            placed.append(c)
    return tuple(placed)


REFINED_PASSAGE_CRITERIA = _placed(PASSAGE_CRITERIA, {"typos": SENTENCE, "exact": FORMS})
REFINED_PAGE_CRITERIA = _placed(PAGE_CRITERIA, {"typos": SENTENCE, "exact": FORMS, "forms": TITLE, "title": FIT})
REFINED = ("sentence", "forms", "title", "fit")


def refine(pages: list[Ranked], words: Sequence[Word], texts: dict[int, tuple], query_text: str, *,
           prefix: bool = True, per_page: int) -> list[Ranked]:
    """The first ``REFINED_PAGES`` pages re-ordered with ``sentence``,
    ``forms``, ``title`` and ``fit`` (``REFINED_PAGE_CRITERIA``), from the ``(heading
    path, text)`` of each page's first ``per_page`` passages, which are
    re-ordered by them too; a page takes the best value of its shown passages.
    Later pages keep their order, with 0 for these criteria (not looked at)."""
    forms = typed_forms(query_text, prefix)
    refined = []
    for page in pages[:REFINED_PAGES]:
        shown, measured = [], []
        for p in page.passages[:per_page]:
            heading, text = texts[p.ref]
            values = {"sentence": sentence_words(words, heading, text, query_text, prefix),
                      "forms": forms_in(forms, " ".join((*heading, text))),
                      "title": int(_words_in(words, heading[0]) == len(words)) if heading else 0,
                      "fit": covered(words, heading)}
            measured.append(values)
            shown.append(_with(p, values, REFINED_PASSAGE_CRITERIA))
        shown.sort(key=lambda p: p.key)
        best = {name: max(values[name] for values in measured) for name in REFINED}
        page = Ranked(page.ref, page.criteria, page.key, (*shown, *page.passages[per_page:]))
        refined.append(_with(page, best, REFINED_PAGE_CRITERIA))
    refined.sort(key=lambda p: p.key)
    later = [_with(page, dict.fromkeys(REFINED, 0), REFINED_PAGE_CRITERIA) for page in pages[REFINED_PAGES:]]
    return refined + later


def typo_only(pages: Sequence[Ranked]) -> bool:
    """Every page was found through typos alone: the reader is told the search guessed."""
    return bool(pages) and all(p.explain()["typos"] == p.explain()["words"] for p in pages)


@dataclass(frozen=True)
class Found:
    pages: list[Ranked]
    fuzzy: bool  # every page was found through typos alone


def search(sharded: ShardedIndex, text: str, *, prefix: bool = True) -> Found:
    """Rank the pages of one language for the reader's raw ``text``.

    The term files of the query's terms, prefixes and typo neighbours are
    read; lunr scores the passages on them exactly as on the whole index
    (``query.run``, whose fuzzy fallback scores typo-only passages), and
    ``rank`` orders them.
    """
    items = query.clauses(text, prefix=prefix)
    if not items:
        return Found([], False)
    rows = sharded.rows(items + query.fuzzy_clauses(items))
    found = query.run(assemble(sharded.fields, rows), text, prefix=prefix)
    pages = rank(query.words(text, prefix=prefix), rows, {int(hit.ref): hit.score for hit in found.hits})
    return Found(pages, typo_only(pages))
