"""Chunks as lists of analysed terms: the form lunr.py, the oracle of our index builder, takes.

The build itself carries term counts (``lunr_index.Counted``); these adapters
turn plain term lists into them, so the tests can hand both sides the same terms.
"""

from __future__ import annotations

import functools
from typing import Sequence

from citesearch.engine import analyzer
from citesearch.model import Chunk
from citesearch.pipeline.lunr_index import build_from_counts, counted, term_rows_from_counts

FieldTerms = tuple[tuple[str, ...], ...]  # one tuple of terms per contract field


@functools.lru_cache(maxsize=100_000)
def terms(text: str) -> tuple[str, ...]:
    """The analysed terms of a text (cached: titles and headings repeat on every chunk)."""
    return tuple(analyzer.analyze(text))


def field_terms(title: str, heading_text: str, text: str) -> FieldTerms:
    """The terms of each field of a chunk, in ``contract.FIELDS`` order."""
    return terms(title), terms(heading_text), terms(text)


def chunk_terms(chunk: Chunk) -> FieldTerms:
    """The chunk's terms, analysed again (to compare with the counts it carries)."""
    return field_terms(chunk.heading_path[0], chunk.heading_text, chunk.text)


def build_from_terms(documents: Sequence[FieldTerms]) -> dict:
    """The serialized index of documents given as their field terms; ref ``i`` is ``str(i)``."""
    return build_from_counts([tuple(map(counted, document)) for document in documents])


def term_rows_from_terms(documents: Sequence[FieldTerms]) -> list[list]:
    """``build_term_rows`` of documents given as their field terms."""
    return term_rows_from_counts([tuple(map(counted, document)) for document in documents])
