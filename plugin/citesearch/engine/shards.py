"""One language's sharded index: the files a query needs, assembled into a partial lunr index.

Mirrored by ``theme/static/shards.js``; the layout is in ``contract``.  The
partial index holds every term a clause of the query can match (exact terms,
every term with a prefix, every dictionary term within one edit) with its
postings and weights, and lunr itself expands and scores the clauses, so
scores are those of the whole index.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
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


def chunk_file(chunks: dict, ref: int, load: Load) -> str:
    """The chunk file of ``ref``, from a language's ``chunks`` manifest entry
    and the chunk list of the ref's group (read by ``load``)."""
    per_group = chunks["per_file"] * chunks["files_per_group"]
    group = ref // per_group
    listed = load(contract.chunk_list_name(chunks["lists"][group // chunks["groups_per_list"]]))["groups"]
    return contract.chunk_file_name(listed[group % chunks["groups_per_list"]], ref % per_group // chunks["per_file"])


def dictionary_files(dictionary: dict, term: str) -> list[str]:
    """The dictionary files that hold every term within one edit of ``term``."""
    buckets = dict(dictionary["buckets"])
    names = []
    for length in (len(term) - 1, len(term), len(term) + 1):
        if length in buckets:
            start, end = contract.dictionary_key_lengths(length)
            for kind, key in ((contract.DICTIONARY_BY_START, term[:start]), (contract.DICTIONARY_BY_END, term[-end:])):
                bucket = contract.dictionary_key_hash(key) % buckets[length]
                names.append(contract.dictionary_file_name(dictionary["name"], length, kind, bucket))
    return names


def chunk_row(data: dict, ref: int) -> tuple[list, list, str]:
    """``([id, title, url], [doc, anchor, heading path], text)`` of ``ref`` in
    its chunk file, the implied URL and title filled in (``contract``)."""
    doc, anchor, heading, text = data["chunks"][ref - data["first"]]
    doc_id, title, *url = data["docs"][doc]
    if heading and heading[0] == 0:
        heading = [title, *heading[1:]]
    return [doc_id, title, url[0] if url else doc_id + contract.PAGE_SUFFIX], [doc, anchor, heading], text


def chunk_bare(data: dict, ref: int) -> int:
    """The bare headings ``ref`` stands for, from its chunk file's ``bare``: 0 when not listed (``contract``)."""
    return dict(data.get("bare", ())).get(ref - data["first"], 0)


def term_files(entry: dict, load: Load) -> list[list]:
    """Every ``[first term, term file]`` of a language, in term order, from its term lists."""
    return [listed for _, name in entry["terms"] for listed in load(name)["terms"]]


_DIGIT_VALUES = {digit: value for value, digit in enumerate(contract.POSTING_DIGITS)}


def base64_numbers(text: str) -> list[int]:
    """The whole numbers of a postings string (``pipeline.index.base64_numbers`` undone)."""
    numbers, number, shift = [], 0, 0
    for digit in text:
        value = _DIGIT_VALUES[digit]
        number |= (value & 31) << shift
        if value & 32:
            shift += 5
        else:
            numbers.append(number)
            number = shift = 0
    return numbers


def decoded(row: list) -> list:
    """A term row as read (``pipeline.index.encoded`` undone): refs from their
    gaps, weights from thousandths or from the list's weight table."""
    lists = []
    for text in row[2:]:
        if text.startswith(contract.POSTING_TABLE_MARK):
            numbers = base64_numbers(text[1:])
            table, flat = numbers[1 : numbers[0] + 1], numbers[numbers[0] + 1 :]
            flat[1::2] = [table[position] for position in flat[1::2]]
        else:
            flat = base64_numbers(text)
        flat[0::2] = accumulate(flat[0::2])
        flat[1::2] = [weight / 1000 for weight in flat[1::2]]
        lists.append(flat)
    return [row[0], row[1], *lists]


def head_lists(text: str) -> list[list]:
    """The title, heading, body (none) and page postings of a split row's
    head (format 8, ``contract``; ``pipeline.index.head_numbers`` undone)."""
    numbers = base64_numbers(text)
    tables, at = [], 0
    for _ in range(3):
        size = numbers[at]
        tables.append([weight / 1000 for weight in accumulate(numbers[at + 1 : at + 1 + size])])
        at += 1 + size
    page_weights, title_weights, heading_weights = tables

    def column(size: int) -> list[int]:
        nonlocal at
        at += size
        return numbers[at - size : at]

    count = column(1)[0]
    gaps, weights, shapes = column(count), column(count), column(count)
    run_counts = column(sum(shape & 1 for shape in shapes))
    runs = sum(run_counts)
    run_gaps, run_extras, run_weights = column(runs), column(runs), column(runs)
    headings = sum(shape >> 1 for shape in shapes)
    heading_gaps, heading_positions = column(headings), column(headings)
    title: list = []
    heading: list = []
    pages: list = []
    page = r = j = titled = 0
    for gap, position, shape in zip(gaps, weights, shapes):
        page += gap
        pages += (page, page_weights[position])
        last = page
        for _ in range(run_counts[titled] if shape & 1 else 0):
            first, last = last + run_gaps[r], last + run_gaps[r] + run_extras[r]
            weight = title_weights[run_weights[r]]
            title += [x for ref in range(first, last + 1) for x in (ref, weight)]
            r += 1
        titled += shape & 1
        last = page
        for _ in range(shape >> 1):
            last += heading_gaps[j]
            heading += (last, heading_weights[heading_positions[j]])
            j += 1
    return [title, heading, [], pages]


class Term:
    """A term's row as loaded so far (``row``, decoded, in the usual shape).

    A split row (format 7, ``contract.TERM_SPLIT_BYTES``) starts with its
    title and heading postings and the page postings of the pages they are
    on (one string by page since format 8: ``head_lists``); ``load`` adds
    blocks (body postings and the other page postings of a range of pages)
    until ``whole``.  A row that is not split is whole.
    """

    def __init__(self, row: list, load: Load):
        self.load = load
        self.head = [row[0], row[1], *head_lists(row[5])] if len(row) > 6 else decoded(row)
        self.blocks: dict[int, list] = {}
        if len(row) > 6:
            self.name, gaps, largest = row[6]
            self.firsts = list(accumulate(base64_numbers(gaps)))
            self.largest = largest / 1000
            self.head_pages = set(self.head[5][::2])
        else:
            self.head_pages = set()
            self.name, self.firsts = None, []
            self.largest = max(self.head[5][1::2], default=0.0)
        self.row = self.head

    def whole(self) -> bool:
        return len(self.blocks) == len(self.firsts)

    def block_of(self, page: int) -> int | None:
        """The block holding ``page``'s postings when it is not loaded yet, else None."""
        if self.whole():
            return None
        block = bisect.bisect_right(self.firsts, page) - 1
        return None if block in self.blocks else block

    def page_known(self, page: int) -> bool:
        """Whether ``page``'s page posting (or its absence) is loaded."""
        return page in self.head_pages or self.block_of(page) is None

    def fill(self, blocks: Iterable[int]) -> None:
        """Load ``blocks`` (``{"postings": [body postings, page postings]}`` each)
        and join the row once: joining after each block made reading a
        frequent term whole quadratic in its blocks."""
        wanted = sorted(set(blocks) - self.blocks.keys())
        for block in wanted:
            self.blocks[block] = decoded(["", 0, *self.load(contract.block_file_name(self.name, block))["postings"]])[2:]
        if not wanted:
            return
        body = [x for n in sorted(self.blocks) for x in self.blocks[n][0]]
        pages = sorted([*zip(self.head[5][::2], self.head[5][1::2]),
                        *(pair for part in self.blocks.values() for pair in zip(part[1][::2], part[1][1::2]))])
        self.row = [*self.head[:4], body, [x for pair in pages for x in pair]]

    def complete(self) -> list:
        self.fill(range(len(self.firsts)))
        return self.row


def last_not_after(keys: list, key) -> int:
    """Position of the last key not after ``key``, -1 when every key is after it."""
    return bisect.bisect_right(keys, key) - 1


class ShardedIndex:
    """Fetches term lists and term files on demand; every file is read once."""

    def __init__(self, entry: dict, fields: list[str], load: Load):
        self.entry = entry
        self.fields = fields
        self.load = load
        self.lists = entry["terms"]  # [[first term, term list file], ...]
        self.list_firsts = [utf16_key(first) for first, _ in self.lists]
        self.files: dict[str, dict] = {}
        self.firsts: dict[int, list[bytes]] = {}  # term list position -> its files' first terms
        self._near: dict[str, list[str]] = {}  # term -> its neighbours within one edit
        self._terms: dict[str, Term] = {}  # term -> its row as loaded so far

    def _file(self, name: str) -> dict:
        if name not in self.files:
            self.files[name] = self.load(name)
        return self.files[name]

    def chunk_file(self, ref: int) -> str:
        return chunk_file(self.entry["chunks"], ref, self._file)

    def _listed(self, position: int) -> list[list]:
        """The ``[first term, term file]`` entries of a term list."""
        listed = self._file(self.lists[position][1])["terms"]
        if position not in self.firsts:
            self.firsts[position] = [utf16_key(first) for first, _ in listed]
        return listed

    def _term_file(self, term: str) -> tuple[int, int] | None:
        """(term list, entry) of the file that would hold ``term``."""
        key = utf16_key(term)
        position = last_not_after(self.list_firsts, key)
        if position < 0:
            return None
        self._listed(position)
        entry = last_not_after(self.firsts[position], key)
        return (position, entry) if entry >= 0 else None

    def _prefix_files(self, prefix: str) -> list[tuple[int, int]]:
        """Every file that may hold a term starting with ``prefix``: the file of
        the prefix itself, then the files whose first term starts with it, in
        the term list of the prefix and the lists after it that start with it."""
        key = utf16_key(prefix)
        start = last_not_after(self.list_firsts, key)
        last = start
        while last + 1 < len(self.lists) and self.lists[last + 1][0].startswith(prefix):
            last += 1
        found = []
        for position in range(max(start, 0), last + 1):
            listed = self._listed(position)
            own = last_not_after(self.firsts[position], key) if position == start else -1
            found += [(position, e) for e, (first, _) in enumerate(listed) if e == own or first.startswith(prefix)]
        return found

    def _neighbours(self, term: str) -> list[str]:
        """Dictionary terms within one edit: in the start and end files of the
        lengths one shorter to one longer (``contract``).  Remembered per term:
        a long query's words, and every keystroke, ask again."""
        if term not in self._near:
            self._near[term] = [other for name in dictionary_files(self.entry["dictionary"], term)
                                for other in self._file(name)["terms"] if within_one_edit(term, other)]
        return self._near[term]

    def plan(self, items: Iterable[query.Clause]) -> tuple[list[str], Callable[[str], bool]]:
        """The term files holding every term the clauses can match, and a test
        of those terms (exact terms, prefixes, neighbours within one edit)."""
        exact: set[str] = set()
        prefixes: list[str] = []
        positions: set[tuple[int, int]] = set()
        for clause in items:
            if clause.wildcard_trailing:
                prefixes.append(clause.term)
                positions.update(self._prefix_files(clause.term))
                continue
            terms = self._neighbours(clause.term) if clause.edit_distance else [clause.term]
            exact.update(terms)
            positions.update(p for p in map(self._term_file, terms) if p is not None)
        names = [self._listed(p)[e][1] for p, e in sorted(positions)]
        return names, lambda term: term in exact or any(term.startswith(prefix) for prefix in prefixes)

    def terms(self, items: Iterable[query.Clause]) -> list[Term]:
        """The terms the clauses can match, in term order, split ones as loaded so far."""
        names, wanted = self.plan(items)
        found = []
        for name in names:
            for row in self._file(name)["terms"]:
                if wanted(row[0]):
                    if row[0] not in self._terms:
                        self._terms[row[0]] = Term(row, self._file)
                    found.append(self._terms[row[0]])
        return found

    def rows(self, items: Iterable[query.Clause]) -> list[list]:
        """The rows of the terms the clauses can match, in term order, whole."""
        return [term.complete() for term in self.terms(items)]

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
