"""The lunr.js 2.3.9 index of a list of chunks: terms, postings and BM25 field vectors."""

from __future__ import annotations

import contextlib
import functools
from typing import Sequence

import lunr.builder
from lunr.builder import Builder
from lunr.token import Token

from ..engine import analyzer, contract
from ..model import Chunk


@functools.lru_cache(maxsize=100_000)
def terms(text: str) -> tuple[str, ...]:
    """The analysed terms of a text.

    Cached: a page's title and headings repeat on each of its chunks, and
    ``serve`` rebuilds the index on every save while most chunks stay the same.
    """
    return tuple(analyzer.analyze(text))


def build_lunr_index(chunks: Sequence[Chunk]) -> dict:
    """A lunr.js 2.3.9 serialized index; the ref of ``chunks[i]`` is ``str(i)``.

    Terms come from our analyzer, so lunr's own pipelines stay empty and the
    browser runs the very same analysis before querying.
    """
    with _pretokenized_fields():
        return _build(chunks)


@contextlib.contextmanager
def _pretokenized_fields():
    """Hand lunr.py our terms as they are.

    Builder.add() sends every field through lunr's Tokenizer, which for a list
    deep-copies an empty metadata dict per term: a third of the index time.
    Our fields already are lists of final terms, so wrap them directly.
    """
    original = lunr.builder.Tokenizer
    lunr.builder.Tokenizer = lambda terms, *args, **kwargs: [Token(term, {}) for term in terms]
    try:
        yield
    finally:
        lunr.builder.Tokenizer = original


def _build(chunks: Sequence[Chunk]) -> dict:
    builder = Builder()
    builder.ref("ref")
    for field in contract.FIELDS:
        builder.field(field, boost=contract.FIELD_BOOSTS[field])
    for i, chunk in enumerate(chunks):
        builder.add(
            {
                "ref": str(i),
                "title": terms(chunk.heading_path[0]),
                "heading": terms(chunk.heading_text),
                "body": terms(chunk.text),
            }
        )
    serialized = builder.build().serialize()
    # lunr.py sorts terms by code point; lunr.js inserts them into its token set
    # in UTF-16 order and throws "Out of order word insertion" otherwise.
    serialized["invertedIndex"].sort(key=lambda entry: entry[0].encode("utf-16-be"))
    return serialized
