"""Queries: raw reader input → lunr query clauses → ranked hits.

Mirrored by ``theme/static/query.js``.  Raw input is never handed to lunr's
query parser (``index.search``): it throws on ``http://x``, ``foo:bar`` or
``-``.  Instead the input goes through the analyzer and each term becomes a
clause built with lunr's query API, with the pipeline off (the terms are
already analysed).

Clauses, in query order:

* a Latin/Cyrillic/other word → its stem, optional (lunr ranks by how many
  and which terms match);
* a CJK word → all of its bigrams, required: ``路径参数`` must not match a
  chunk that only mentions ``参数``;
* a lone CJK character → the unigram and the character as a prefix, both
  optional, since ideographs are indexed as bigrams;
* search as you type: when the query ends inside its last word, that word
  also matches as a prefix.  A wildcard term skips the stemmer, so the
  prefix is the word's stem (``параметры`` → ``параметр*``, ``парамет`` →
  ``парамет*``), plus its normalised raw form when the stemmer changed more
  than the ending (``happy`` → ``happi*`` and ``happy*``).  Prefixing the
  stem rather than the raw word keeps every form of a word one query:
  ``параметр``, ``параметров`` and ``параметры`` find the same chunks.

Only the first ``contract.MAX_QUERY_LENGTH`` code points of the input count
(like a search box's maxlength), and the analyzer drops words longer than
``contract.MAX_WORD_LENGTH``: lunr's fuzzy matching builds about 2·n²
automaton states for an n-character term, so an unbounded word froze both
sides for tens of seconds.

Prefix clauses weigh ``PREFIX_BOOST``.  When nothing matches, :func:`run`
retries once with edit distance 1 on the optional, non-wildcard terms of
three characters or more (fuzzy fallback).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from lunr.index import Index
from lunr.query import Query, QueryPresence

from . import analyzer
from .contract import MAX_QUERY_LENGTH

# A shorter prefix would expand to a large share of the vocabulary.
PREFIX_MIN_LENGTH = 2
# Weight of a prefix clause: the words the reader may still be typing
# towards count, but a chunk with the word itself ranks first
# (``параметры`` before ``параметризовать``).
PREFIX_BOOST = 0.1
FUZZY_EDIT_DISTANCE = 1
# Within one edit, a term of one or two characters matches most short words.
FUZZY_MIN_LENGTH = 3


@dataclass(frozen=True)
class Clause:
    term: str
    required: bool
    wildcard_trailing: bool
    edit_distance: int


@dataclass(frozen=True)
class Hit:
    ref: str
    score: float


@dataclass(frozen=True)
class Results:
    hits: tuple[Hit, ...]
    fuzzy: bool  # the hits come from the edit-distance fallback


@dataclass(frozen=True)
class Prefix:
    """A raw prefix that also matches, standing in for ``terms``."""

    text: str
    terms: tuple[str, ...]


@dataclass(frozen=True)
class QueryTerms:
    """What a quote needs: the query's distinct terms, and its prefixes (a
    text term starting with ``prefix.text`` counts as matching
    ``prefix.terms``)."""

    terms: tuple[str, ...]
    prefixes: tuple[Prefix, ...]


def capped(query: str) -> str:
    """The part of the reader's input that is searched: its first
    ``MAX_QUERY_LENGTH`` code points."""
    return query[:MAX_QUERY_LENGTH]


def _is_lone_cjk(piece: analyzer.Piece) -> bool:
    return piece.kind == "cjk" and len(piece.text) == 1


def _piece_terms(piece: analyzer.Piece) -> list[str]:
    if piece.kind == "cjk":
        # Each bigram once: a word matches when every one of its distinct terms is found, and a run
        # that repeats one (数据结构中使用数据类 has 数据 twice) matched nothing at all.
        return list(dict.fromkeys(analyzer.bigrams(piece.text)))
    return [analyzer.stem(piece.text, piece.kind)]


def _piece_prefixes(query: str, pieces: list[analyzer.Piece], i: int, prefix: bool) -> list[Prefix]:
    piece = pieces[i]
    if _is_lone_cjk(piece):
        # Ideographs are indexed inside bigrams: a lone one is a prefix.
        return [Prefix(piece.text, (piece.text,))]
    if prefix and i == len(pieces) - 1 and piece.kind != "cjk" and piece.end == len(query):
        # Still typing this word.
        (term,) = _piece_terms(piece)
        texts = [term] if piece.text.startswith(term) else [term, piece.text]
        return [Prefix(text, (term,)) for text in texts if len(text) >= PREFIX_MIN_LENGTH]
    return []


def _prefixes(query: str, pieces: list[analyzer.Piece], prefix: bool) -> list[Prefix]:
    return [p for i in range(len(pieces)) for p in _piece_prefixes(query, pieces, i, prefix)]


@dataclass(frozen=True)
class Word:
    """One word of the query, as the ranking counts it.

    ``terms``: its index terms, all needed for an exact match (one stem, or a
    CJK word's bigrams); ``prefixes``: texts a term may start with (the word
    being typed, a lone ideograph); ``fuzzy``: index terms one edit from
    ``terms[0]`` match it as a typo.
    """

    terms: tuple[str, ...]
    prefixes: tuple[str, ...]
    fuzzy: bool


def words(query: str, *, prefix: bool = True) -> list[Word]:
    """The distinct words of ``query`` (two forms with one stem are one word)."""
    query = capped(query)
    pieces = analyzer.pieces(query)
    found: dict[tuple[str, ...], Word] = {}
    for i, piece in enumerate(pieces):
        terms = tuple(_piece_terms(piece))
        texts = tuple(p.text for p in _piece_prefixes(query, pieces, i, prefix))
        fuzzy = piece.kind != "cjk" and len(terms[0]) >= FUZZY_MIN_LENGTH
        if terms in found:
            texts = tuple(dict.fromkeys(found[terms].prefixes + texts))
        found[terms] = Word(terms, texts, fuzzy)
    return list(found.values())


def query_terms(query: str, *, prefix: bool = True) -> QueryTerms:
    query = capped(query)
    pieces = analyzer.pieces(query)
    terms = tuple(dict.fromkeys(t for p in pieces for t in _piece_terms(p)))
    return QueryTerms(terms, tuple(_prefixes(query, pieces, prefix)))


def clauses(query: str, *, prefix: bool = True) -> list[Clause]:
    """The lunr clauses for ``query``; never raises, may be empty."""
    query = capped(query)
    pieces = analyzer.pieces(query)
    result: list[Clause] = []
    for piece in pieces:
        required = piece.kind == "cjk" and not _is_lone_cjk(piece)
        for term in _piece_terms(piece):
            result.append(Clause(term, required, False, 0))
    for p in _prefixes(query, pieces, prefix):
        result.append(Clause(p.text, False, True, 0))
    return _deduplicate(result)


def _deduplicate(items: list[Clause]) -> list[Clause]:
    seen: set[tuple[str, bool]] = set()
    result = []
    for clause in items:
        key = (clause.term, clause.wildcard_trailing)
        if key not in seen:
            seen.add(key)
            result.append(clause)
    return result


def fuzzy_clauses(items: list[Clause]) -> list[Clause]:
    """The fallback: optional exact terms of three characters or more get an
    edit distance; required (CJK) and short terms stay exact; prefix
    wildcards are dropped (lunr cannot combine a wildcard with an edit
    distance)."""
    return [
        replace(clause, edit_distance=FUZZY_EDIT_DISTANCE)
        if not clause.required and len(clause.term) >= FUZZY_MIN_LENGTH
        else clause
        for clause in items
        if not clause.wildcard_trailing
    ]


def _search(index: Index, items: list[Clause]) -> tuple[Hit, ...]:
    query = index.create_query()
    for clause in items:
        query.term(
            clause.term,
            presence=QueryPresence.REQUIRED if clause.required else QueryPresence.OPTIONAL,
            wildcard=Query.WILDCARD_TRAILING if clause.wildcard_trailing else Query.WILDCARD_NONE,
            edit_distance=clause.edit_distance,
            use_pipeline=False,
            boost=PREFIX_BOOST if clause.wildcard_trailing else 1,
        )
    matches = index.query(query)
    hits = (Hit(m["ref"], m["score"]) for m in matches)
    return tuple(sorted(hits, key=lambda h: (-h.score, int(h.ref))))


def matches(rows: Sequence[list], fields: int, items: list[Clause]) -> bool:
    """Whether lunr finds any passage for ``items`` in the index of these
    term rows (``[term, index, per field [ref, weight, ...]...]``), without
    building it: a passage with every required term, or else with any term
    a clause expands to.  ``run``'s test for its fuzzy fallback."""

    def refs(clause: Clause) -> set:
        found = set()
        for row in rows:
            if row[0] == clause.term or (clause.wildcard_trailing and row[0].startswith(clause.term)):
                for flat in row[2:2 + fields]:
                    found.update(flat[::2])
        return found

    required = [refs(c) for c in items if c.required]
    if required:
        return bool(set.intersection(*required))
    return any(refs(c) for c in items)


def run_on(index: Index, whole: Sequence[list], fields: int, query: str, *, prefix: bool = True) -> Results:
    """``run`` on ``index``, a part of the index of the term rows ``whole``
    (every term, the postings of some passages): those passages get the
    scores ``run`` gives them on the whole index, whose lunr query vector
    is the same, and the fallback is taken when the whole finds nothing
    (``fuzzy`` then says whether these passages were found)."""
    items = clauses(query, prefix=prefix)
    if not items:
        return Results((), False)
    if matches(whole, fields, items):
        return Results(_search(index, items), False)
    fallback = fuzzy_clauses(items)
    if not fallback or fallback == items:
        return Results((), False)
    hits = _search(index, fallback)
    return Results(hits, bool(hits))


def run(index: Index, query: str, *, prefix: bool = True) -> Results:
    """Search ``index`` for the reader's raw ``query``."""
    items = clauses(query, prefix=prefix)
    if not items:
        return Results((), False)
    hits = _search(index, items)
    if hits:
        return Results(hits, False)
    fallback = fuzzy_clauses(items)
    if not fallback or fallback == items:
        return Results((), False)
    hits = _search(index, fallback)
    return Results(hits, bool(hits))
