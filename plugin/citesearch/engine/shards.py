"""One language's sharded index: the files a query needs, assembled into a partial lunr index.

Mirrored by ``theme/static/shards.js``; the layout is in ``contract``.  The
partial index holds every term a clause of the query can match (exact terms,
every term with a prefix, every dictionary term within one edit) with its
postings and weights, and lunr itself expands and scores the clauses, so
scores are those of the whole index.
"""

from __future__ import annotations

import bisect
from typing import Callable, Iterable

import lunr
from lunr.index import Index

from . import contract, query

Load = Callable[[str], dict]  # search-relative file name -> parsed JSON


def utf16_key(term: str) -> bytes:
    """lunr.js orders terms by UTF-16 code units; the files follow it."""
    return term.encode("utf-16-be")


def utf16_length(term: str) -> int:
    return len(term.encode("utf-16-le")) // 2


def within_one_edit(a: str, b: str) -> bool:
    """Levenshtein distance with adjacent transpositions <= 1: every term
    lunr's fuzzy match (edit distance 1) can reach."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    if len(a) == len(b):
        return a[1:] == b[1:] or (len(a) >= 2 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:])
    return a[1:] == b if len(a) > len(b) else b[1:] == a


def chunk_file(chunks: dict, ref: int) -> str:
    """The chunk file of ``ref``, from a language's ``chunks`` manifest entry."""
    per_group = chunks["per_file"] * chunks["files_per_group"]
    return contract.chunk_file_name(chunks["groups"][ref // per_group], ref % per_group // chunks["per_file"])


class ShardedIndex:
    """Fetches term files on demand; every file is read once."""

    def __init__(self, entry: dict, fields: list[str], load: Load):
        self.entry = entry
        self.fields = fields
        self.load = load
        self.firsts = [utf16_key(first) for first, _ in entry["terms"]]
        self.files: dict[str, dict] = {}
        self._near: dict[str, list[str]] = {}  # term -> its neighbours within one edit
        self._grouped: dict[str, dict[tuple, list[str]]] = {}

    def _file(self, name: str) -> dict:
        if name not in self.files:
            self.files[name] = self.load(name)
        return self.files[name]

    def _term_file(self, term: str) -> int | None:
        position = bisect.bisect_right(self.firsts, utf16_key(term)) - 1
        return position if position >= 0 else None

    def _prefix_files(self, prefix: str) -> list[int]:
        first = self._term_file(prefix)
        found = [] if first is None else [first]
        start = 0 if first is None else first + 1
        for position in range(start, len(self.firsts)):
            if not self.entry["terms"][position][0].startswith(prefix):
                break
            found.append(position)
        return found

    def _neighbours(self, term: str) -> list[str]:
        """Dictionary terms within one edit (lengths in UTF-16 units, as the
        files are cut; a code point edit moves that length by up to 2).

        Remembered per term, and only likely terms are compared: one code
        point longer or shorter, and (the term has three or more) sharing
        its first or its last code point, as every term one edit from it
        does.  A long query's words each scanned whole files.
        """
        if term not in self._near:
            length = utf16_length(term)
            names = [name for low, high, name in self.entry["dictionary"] if low <= length + 2 and high >= length - 2]
            found: dict[str, None] = {}
            for name in names:
                groups = self._groups(name)
                for n in (len(term) - 1, len(term), len(term) + 1):
                    if len(term) < 3:
                        likely = groups.get((n,), ())
                    else:
                        likely = [*groups.get((n, term[0], ""), ()), *groups.get((n, "", term[-1]), ())]
                    found.update((other, None) for other in likely if within_one_edit(term, other))
            self._near[term] = list(found)
        return self._near[term]

    def _groups(self, name: str) -> dict[tuple, list[str]]:
        """A dictionary file's terms by length in code points, and by length
        and first, or last, code point."""
        if name not in self._grouped:
            grouped: dict[tuple, list[str]] = {}
            for other in self._file(name)["terms"]:
                for key in ((len(other),), (len(other), other[:1], ""), (len(other), "", other[-1:])):
                    grouped.setdefault(key, []).append(other)
            self._grouped[name] = grouped
        return self._grouped[name]

    def plan(self, items: Iterable[query.Clause]) -> tuple[list[str], Callable[[str], bool]]:
        """The term files holding every term the clauses can match, and a test
        of those terms (exact terms, prefixes, neighbours within one edit)."""
        exact: set[str] = set()
        prefixes: list[str] = []
        positions: set[int] = set()
        for clause in items:
            if clause.wildcard_trailing:
                prefixes.append(clause.term)
                positions.update(self._prefix_files(clause.term))
                continue
            terms = self._neighbours(clause.term) if clause.edit_distance else [clause.term]
            exact.update(terms)
            positions.update(p for p in map(self._term_file, terms) if p is not None)
        names = [self.entry["terms"][p][1] for p in sorted(positions)]
        return names, lambda term: term in exact or any(term.startswith(prefix) for prefix in prefixes)

    def rows(self, items: Iterable[query.Clause]) -> list[list]:
        """The rows of the terms the clauses can match, in term order."""
        names, wanted = self.plan(items)
        return [row for name in names for row in self._file(name)["terms"] if wanted(row[0])]

    def index(self, items: Iterable[query.Clause]) -> Index:
        """Only the matching terms of the files: a smaller index loads faster."""
        return assemble(self.fields, self.rows(items))


def assemble(fields: list[str], rows: list[list]) -> Index:
    """A lunr index of some terms, their original term indices and weights."""
    inverted, vectors = [], {}
    for term, term_index, *per_field in sorted(rows, key=lambda row: utf16_key(row[0])):
        posting: dict = {"_index": term_index}
        for field, flat in zip(fields, per_field):
            posting[field] = {str(ref): {} for ref in flat[::2]}
            for ref, weight in zip(flat[::2], flat[1::2]):
                vectors.setdefault(f"{field}/{ref}", []).append((term_index, weight))
        inverted.append([term, posting])
    field_vectors = [[key, [x for pair in sorted(pairs) for x in pair]] for key, pairs in vectors.items()]
    return Index.load(
        {
            "version": lunr.__TARGET_JS_VERSION__,
            "fields": fields,
            "fieldVectors": field_vectors,
            "invertedIndex": inverted,
            "pipeline": [],
        }
    )


def run(sharded: ShardedIndex, text: str, *, prefix: bool = True) -> query.Results:
    """``query.run`` on the partial index of the query's terms: the same hits
    and scores as on the whole index."""
    items = query.clauses(text, prefix=prefix)
    if not items:
        return query.Results((), False)
    found = query.run(sharded.index(items), text, prefix=prefix)
    if found.hits and not found.fuzzy:
        return found
    # Exact terms found nothing: the fuzzy fallback needs every neighbour too.
    return query.run(sharded.index(items + query.fuzzy_clauses(items)), text, prefix=prefix)
