"""The search contract between the Python build and the browser widget.

Everything the widget relies on is named here once and written into
``search/manifest.json``; the widget refuses a manifest whose ``format``
it does not know.  Layout of ``site/search/``::

    manifest.json                     fixed path, never cached
    index.<lang>.<hash>.json          lunr.js 2.3.9 serialized index
    chunks.<lang>.<hash>.json         ref table: documents + chunks, no text
    text/<hash>.json                  the chunk texts of one document

``chunks.<lang>.json``::

    {"docs":   [{"id": "guide/install", "title": "Install",
                 "url": "guide/install.html", "text": "text/<hash>.json"}],
     "chunks": [[doc_index, "anchor", ["Title", "H2", "H3"]], ...]}

The lunr ref of chunk ``i`` is ``str(i)``: numeric refs keep the index small,
and the public ref ``doc_id#anchor`` is looked up in this table.

``text/<hash>.json``::

    {"doc": "guide/install", "chunks": {"anchor": "plain text", ...}}

Results are ordered by lunr score descending, ties by numeric ref ascending,
on both sides.
"""

FORMAT_VERSION = 1

SEARCH_DIR = "search"
MANIFEST_NAME = "manifest.json"
TEXT_DIR = "text"

# lunr fields, in this order, and their boosts.
FIELDS = ("title", "heading", "body")
# No extra weight for titles and headings: they are indexed with every chunk of
# their page or section already, and boosting them on top ranked pages whose
# title merely shares a stem above the passage holding all the query words
# (bench: rare-word queries on rust-rfcs 22/40 -> 31/40 in the top 5).
FIELD_BOOSTS = {"title": 1, "heading": 1, "body": 1}

# Characters of a content hash in a file name.
HASH_LENGTH = 16

HEADING_SEPARATOR = " › "


def index_name(lang: str, digest: str) -> str:
    return f"index.{lang}.{digest[:HASH_LENGTH]}.json"


def chunks_name(lang: str, digest: str) -> str:
    return f"chunks.{lang}.{digest[:HASH_LENGTH]}.json"


def text_name(digest: str) -> str:
    return f"{TEXT_DIR}/{digest[:HASH_LENGTH]}.json"


def public_ref(doc_id: str, anchor: str) -> str:
    """The ref readers and tests see: ``doc_id#anchor``."""
    return f"{doc_id}#{anchor}"
