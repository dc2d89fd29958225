"""The search contract between the Python build and the browser widget.

Everything the widget relies on is named here once and written into
``search/manifest.json``; the widget refuses a manifest whose ``format``
it does not know.  Layout of ``site/search/`` (one set per language)::

    manifest.json                     fixed path, never cached
    termlist.<lang>.<hash>.json       which term file holds which terms, for some term files
    terms.<lang>.<hash>.json          postings and weights of a range of terms
    block.<lang>.<hash>.<n>.json      body postings of a frequent term, for a range of pages
    dict.<lang>.<hash>.<m><p|s><n>.json  terms of one length by start or end, for fuzzy expansion
    chunks/list.<hash>.json           the content hashes of some chunk groups
    chunks/<hash>.<n>.json            documents, anchors, headings and texts of a few refs

The lunr ref of chunk ``i`` is ``str(i)``: numeric refs keep the files small,
and the public ref ``doc_id#anchor`` is looked up in the chunk files.

A query fetches only the term files of its terms and assembles a partial
lunr.js index from them.  lunr scores a document by the dot product of the
query vector with the document's field vectors over the query's terms,
divided by the query vector's magnitude: the entries of other terms never
count, so the partial index scores exactly as the whole one would.

The manifest stays small whatever the size of the site (format 5): it names
lists of files, not the files, so a cold search reads the manifest, one term
list per query term, its term files, six dictionary files per word and the
chunk list and chunk files of the results it shows; a site ten times larger
has ten times more lists and dictionary files, each of them no larger.  Manifest, per language::

    {"documents": 12, "chunks_count": 80,
     "terms":      [["first term", "termlist.en.<hash>.json"], ...],  # UTF-16 order
     "dictionary": {"name": "dict.en.<hash>", "buckets": [[3, 1], [4, 2], ...]},
     "chunks":     {"per_file": 4, "files_per_group": 96, "groups_per_list": 16,
                    "lists": ["<hash>", ...]},
     "stemmers":   ["ru"]}  # the index holds Russian terms (the widget loads lunr.ru for a Russian query)

``termlist.<lang>.json`` is ``{"terms": [["first term", "terms.en.<hash>.json"], ...]}``;
its first term is the one the manifest gives it.  A term lives in the last
term file whose first term is not after it (terms ordered by UTF-16 code
units, as lunr.js orders them), found in the last term list whose first term
is not after it; the terms starting with a prefix are consecutive.
``terms.<lang>.json``::

    {"terms": [["term", term_index, "postings", ...one per field, "page postings"]]}

Each postings string is a list ``[ref, weight, ...]`` (below) written as whole
numbers, refs as the gap from the previous ref and weights (rounded to 3
decimals) in thousandths, each number in base-64 digits of ``POSTING_DIGITS``,
5 bits a digit, lowest first, a digit plus 32 when more digits follow
(``pipeline.index.encoded``, ``shards.decoded``): a third of the bytes of
the same list as JSON numbers, and ``n / 1000`` is the float the decimal
weight itself parses to, so both halves score as before.  A long list may
instead start with ``POSTING_TABLE_MARK``: then its numbers are ``n``, a
table of ``n`` weights in thousandths (most frequent first), then ref gaps
each followed by its weight's position in the table; a frequent term's
weights are a few hundred values repeated thousands of times.  Decoded::

    ["term", term_index, [ref, weight, ...], ...one list per field, [page, page_weight, ...]]

``term_index`` is the term's position in the whole index (lunr's ``_index``);
``weight`` the term's BM25 weight in that field of that chunk, as lunr.py
serialized it.  The last list holds the pages with the term: ``page`` is the
first ref of the page (a page's chunks are consecutive refs, so the page of
a ref is the largest page start not after it) and ``page_weight`` the BM25
weight of the term in the whole page (title, headings and bodies), which
ranks pages (``rank``).  It rides in the term files, so it is loaded with
the term, lazily, and costs no file of its own.

A term whose postings strings are longer than ``TERM_SPLIT_BYTES`` is split
(format 7): its row keeps the title and heading postings and the page
postings of the pages those are on (the *head pages*), and ends with
``[blocks name, first refs, largest page weight in thousandths]``; its body
postings and other page postings are in ``block.<lang>.<hash>.<n>.json`` =
``{"postings": ["body postings", "page postings"]}``, block ``n`` holding the
pages from its first ref (base-64 gaps, the first 0) to the next block's.
``shards.Term`` joins them back; ``rank.first_screen`` (and rank.js
``search``) reads only the blocks that prove the first screen.

Since format 8 a split row is ``["term", term_index, "", "", "", "head",
[blocks...]]``: its title, heading and page postings are one string, by
head page, in columns (``pipeline.index.head_numbers``, ``shards.head_lists``).
Its base-64 numbers are three weight tables (page, title, heading weights in
thousandths: the size ``n``, then ``n`` weights increasing, as gaps), the
number ``N`` of head pages, then: ``N`` gaps of the pages' first refs; ``N``
positions of their page weights; ``N`` shapes (twice the page's heading
postings, plus 1 when it has title postings); per titled page its number
of title runs (consecutive refs of one weight); per run the gap of its
first ref from the page's (from the previous run's last ref for the next
runs); per run its length less one; per run its weight's position; per
heading posting its ref's gap from the page's first ref (from the previous
heading ref for the next); per heading posting its weight's position.
lunr indexes the title with every chunk of a page, with one weight (one
field length), so a page's title postings are one run, and a page's first
ref is written once for its three lists; in columns, gzip finds more
repeats than in a page's numbers together (issue 19: the rows of
``request server`` were 70 KB gz of a cold search at 100,000 pages, 58 in format 8).

The dictionary serves typo tolerance (a query term's neighbours within one
edit), which every ranking asks for.  Its files are cut so that the
neighbours of a term live in few of them, whatever the vocabulary's size:
one edit leaves either the start or the end of a word intact (pigeonhole).
A term of ``m`` code points is in two files of its length: the file of its
first ``a(m)`` code points and the file of its last ``b(m)`` code points
(``dictionary_key_lengths``: ``a + b <= m - 1``, so even an adjacent
transposition, which changes two places, leaves one of the two keys whole).
The file of a key is its FNV-1a hash (over code points) modulo the number
of files of that length.  So the neighbours of a term of ``n`` code points
are in at most six files: the start and end files of lengths ``n - 1``,
``n`` and ``n + 1``.  Manifest::

    "dictionary": {"name": "dict.en.<hash>", "buckets": [[length, files], ...]}

and ``<name>.<length><p|s><file>.json`` (``p`` by start, ``s`` by end) is
``{"terms": [...]}`` in UTF-16 order; ``<hash>`` is one digest of all the
dictionary files of the language, so the names follow from a term alone.

The chunks of refs ``first`` to ``first + per_file - 1`` are in one file, and
the files of ``per_file * files_per_group`` consecutive refs share one content
hash; ``groups_per_list`` consecutive groups' hashes are in one chunk list,
``chunks/list.<hash>.json`` = ``{"groups": ["<hash>", ...]}``, named by the
manifest's ``lists``.  So a ref's file follows from the ref and its group's
list (``shards.chunk_file``).  ``chunks/<hash>.<n>.json``::

    {"first": 8,
     "docs":   [["guide/install", "Install", "guide/install.html"], ...],
     "chunks": [[doc, "anchor", ["Title", "H2", "H3"], "plain text"], ...],  # refs first, first+1, ...
     "bare":   [[row, n], ...]}  # only in a file with such a passage

``bare`` lists the passages (by position in ``chunks``) that stand for
``n`` *bare headings*: the ``n`` headings just above their own (the last
of the path), which have no text, hence no passage, of their own, and
whose first passage they are (``pipeline.bare_headings``); ``refine``
counts those headings as the passage's own section heading.  Readers that
predate it ignore it: no format change.

``doc`` indexes ``docs`` of the same file.  A docs row without a URL has
the URL ``id + PAGE_SUFFIX``, and ``0`` first in a heading path stands for
the page's title (``shards.chunk_row``): the title is the first heading of
most passages and the URL follows from the id on most sites.

lunr scores the passages; ``rank`` orders pages by named criteria, then
the passages inside each page, identically on both sides.
"""

import json
import re

# 4: term rows end with page-level postings (ranking v2); chunk text keeps code
# lines and table cells (markdown_ext/text.py).
# 5: the manifest names lists of term, dictionary and chunk files, not the
# files: its size no longer grows with the site; the dictionary is cut by
# word start and end; postings are base-64 strings (issue 19: cold and site bytes).
# 6: a long postings list may give its weights through a table of its distinct
# weights (POSTING_TABLE_MARK): the frequent terms a cold search reads (issue 19).
# 7: a term of long postings is split (TERM_SPLIT_BYTES): its row holds its
# title and heading postings and the page postings of the pages they are on,
# the rest is in blocks by ref range, so a first screen reads a few (issue 19).
# 8: a split row's title, heading and page postings are one string by page,
# title postings as runs (a page's title weighs the same in each of its chunks).
FORMAT_VERSION = 8

SEARCH_DIR = "search"
MANIFEST_NAME = "manifest.json"
CHUNK_DIR = "chunks"

# lunr fields, in this order, and their boosts.
FIELDS = ("title", "heading", "body")
# No extra weight for titles and headings: they are indexed with every chunk of
# their page or section already, and boosting them on top ranked pages whose
# title merely shares a stem above the passage holding all the query words
# (bench: rare-word queries on rust-rfcs 22/40 -> 31/40 in the top 5).
FIELD_BOOSTS = {"title": 1, "heading": 1, "body": 1}

# Passages of one page shown with their quotes; the page's other matching
# passages are listed by ref ("N more on this page").
PASSAGES_PER_PAGE = 3

# Characters of a content hash in a file name.
HASH_LENGTH = 16

HEADING_SEPARATOR = " › "

# The URL of a page whose chunk files give none: its id and this (a standalone build's page).
PAGE_SUFFIX = ".html"

# An answer's status: some result quotes a sentence with a query term, or none does.
STATUS_SUPPORTED = "supported"
STATUS_INSUFFICIENT = "insufficient"

# --- Input limits (mirrored in theme/static/query.js and analyzer.js; tied
# by tests/vectors/limits.json).  lunr's fuzzy matching builds an automaton
# of about 2·n² states for an n-character term (a 2,000-character word took
# 35 s and 700 MB), so neither side ever hands lunr an unbounded term.
# A query is cut to its first MAX_QUERY_LENGTH code points, like a search box
# with a maxlength; the cut text is then searched as if typed.
MAX_QUERY_LENGTH = 256
# A word (a non-CJK piece, normalised, in code points) longer than this is
# neither indexed nor searched: it is a token, hash or blob, not prose.  64
# keeps a SHA-256 in hex; CJK runs give bigrams and are never dropped.
MAX_WORD_LENGTH = 64


# Target sizes of the files a query fetches, in uncompressed bytes: a term
# file is ~2.5 KB gzipped (base-64 postings compress ~1.6x).  The manifest
# names term lists, not term files (format 5), so smaller files cost a
# longer term list, not a longer manifest.  Since long rows are split
# (format 7) a file is mostly the rows of terms the query did not ask for:
# at 16,000 bytes, 10 of the 13 KB gz of the file of "request" (10,000 pages).
TERMS_FILE_BYTES = 4_000
# A dictionary file (terms of one length by start or end): ~0.4 KB gzipped.
# Every word of a query reads six of them (its typo neighbours), so their size
# is paid on every cold search: 12 files for 2 words on 10,000 generated pages
# were 13.9 KB gz at 4,000 bytes, 5.1 KB at 1,000 (1,354 files instead of 348),
# at 600 (2,300 files).
DICTIONARY_FILE_BYTES = 600
# Chunks per chunk file (a chunk's text is ~400 bytes: a file is ~0.8 KB) and
# chunk files per content hash (384 refs, ~40 pages: an edit renames the 192
# files of its group; rust-rfcs: ~50 hashes).  A first screen reads the texts
# of its 10 pages' shown passages, one or two to a file: half the neighbours
# of 4 to a file (rust-rfcs chunk files 27.5 -> 21.2 KB gz, round 6).
CHUNKS_PER_FILE = 2
CHUNK_FILES_PER_GROUP = 192

# A list of files (term list, dictionary list) of about this many bytes: each
# entry is ~45 bytes, so ~90 files per list (~1.5 KB gzipped; every query
# word reads one).  Term files of 4,000 bytes: a 10,000-page site has ~3,700,
# ~40 lists in the manifest (1.4 KB gz); 100,000 pages ~10 times more.
LISTING_FILE_BYTES = 4_000
# Chunk group hashes per chunk list (17 bytes each, hex that hardly compresses:
# ~0.3 KB, ~0.2 KB gzipped).  A list names the files of 6,144 refs; a first
# screen of results is spread over ~10 lists whatever the site's size (8 of 15
# on 10,000 generated pages), so a list holds few hashes: 64 hashes of groups
# a quarter this size read ~8 KB gz there.  100,000 pages: ~150 lists, ~3 KB in the manifest.
CHUNK_GROUPS_PER_LIST = 16

# The digits of the postings strings (base 64, URL- and JSON-safe).
POSTING_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
# A postings string starting with this mark gives its weights as positions in
# a table of the list's distinct weights, most frequent first (format 6).
POSTING_TABLE_MARK = "~"
# Lists of fewer postings are never written with a table; longer ones when it
# makes the string at least POSTING_TABLE_SAVING shorter.  A frequent term's
# body list holds ~11,000 postings and ~340 distinct weights (10,000
# generated pages): 12% fewer gzipped bytes; short lists gain nothing.
POSTING_TABLE_MIN = 128
POSTING_TABLE_SAVING = 0.1

# A term row whose postings strings are longer than this (in characters) is
# split (format 7): its row keeps the title and heading postings and the page
# postings of the pages they are on, and names its blocks: the body postings
# and the other page postings of consecutive pages, about TERM_BLOCK_BYTES
# each.  A first screen whose pages hold the query words in titles and
# headings is proven from the rows alone, and reads only the blocks of its
# pages (``rank.first_screen``).  A first screen's ten pages are in up to ten
# blocks of each word, whatever the site's size: small blocks, more files.
TERM_SPLIT_BYTES = 4_000
TERM_BLOCK_BYTES = 600

TERMS_KIND = "terms"
BLOCK_KIND = "block"
TERM_LIST_KIND = "termlist"
DICTIONARY_KIND = "dict"
DICTIONARY_BY_START = "p"
DICTIONARY_BY_END = "s"


def shard_name(kind: str, lang: str, digest: str) -> str:
    return f"{kind}.{lang}.{digest[:HASH_LENGTH]}.json"


def chunk_file_name(group_hash: str, position: int) -> str:
    return f"{CHUNK_DIR}/{group_hash}.{position}.json"


def dictionary_key_lengths(length: int) -> tuple[int, int]:
    """Code points of a dictionary term's start key and end key, ``a + b <= length - 1``
    from three code points on.

    Words of one or two code points keep one each: a fuzzy query term has at
    least three (``query.FUZZY_MIN_LENGTH``), and a word of two is then a
    deletion away, which leaves the first or the last code point whole.
    """
    start = max(1, (length - 1) // 2)
    return start, max(1, length - 1 - start)


def dictionary_key_hash(key: str) -> int:
    """32-bit FNV-1a over the code points of ``key`` (mirrored in shards.js)."""
    value = 2166136261
    for char in key:
        value = ((value ^ ord(char)) * 16777619) & 0xFFFFFFFF
    return value


def dictionary_file_name(name: str, length: int, kind: str, bucket: int) -> str:
    """A dictionary file, from the manifest's ``dictionary.name`` (``dict.<lang>.<hash>``)."""
    return f"{name}.{length}{kind}{bucket}.json"


def block_file_name(name: str, position: int) -> str:
    """Block ``position`` of a split term row (format 7), from the name its row
    gives (``block.<lang>.<hash>``)."""
    return f"{name}.{position}.json"


def chunk_list_name(list_hash: str) -> str:
    return f"{CHUNK_DIR}/list.{list_hash}.json"


# Every name above but the manifest's carries a content hash, before ".json" or
# before a dictionary file's ".<length><kind><bucket>.json".
_HASHED_FILE = re.compile(r"(?:^|[./])[0-9a-f]{%d}\.(?:[0-9a-z]+\.)?json$" % HASH_LENGTH)


def is_search_file(name: str) -> bool:
    """``name`` (relative to the search folder) is one a build writes there:
    the manifest or a content-hashed file.  A rebuild removes the ones it did
    not write again, so an old file never keeps text of a page now gone or a draft."""
    return name == MANIFEST_NAME or bool(_HASHED_FILE.search(name))



def public_ref(doc_id: str, anchor: str) -> str:
    """The ref readers and tests see: ``doc_id#anchor``."""
    return f"{doc_id}#{anchor}"


def javascript() -> str:
    """``contract.js``: every constant above as an ES module export, for the widget.

    Generated on every build (``assets.widget_assets``): the JavaScript half
    imports these instead of keeping its own copies.
    """
    lines = ["// Generated from citesearch/engine/contract.py on every build; do not edit.\n"]
    for name, value in globals().items():
        if name.isupper() and not name.startswith("_") and isinstance(value, (int, str, tuple, dict)):
            lines.append(f"export const {name} = {json.dumps(value, ensure_ascii=False)};\n")
    return "".join(lines)
