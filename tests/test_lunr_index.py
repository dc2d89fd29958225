"""Our index builder against lunr.py's Builder, the oracle: identical serialized indexes.

lunr.js scores with the serialized weights as they are, so "identical" means
every term, term index, posting and rounded weight, in the same order.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json

import lunr.builder
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lunr.builder import Builder
from lunr.token import Token

from citesearch.config import Config
from citesearch.engine import contract
from citesearch.model import Chunk
from citesearch.pipeline.index import dumps
from citesearch.pipeline.load import load_documents
from citesearch.pipeline.lunr_index import build_lunr_index, build_term_rows, counted
from citesearch.pipeline.parse import Parser
from conftest import corpus
from index_support import build_from_terms, chunk_terms, term_rows_from_terms


@contextlib.contextmanager
def _pretokenized_fields():
    """Hand lunr.py our terms as they are (its Tokenizer would split and lowercase them)."""
    original = lunr.builder.Tokenizer
    lunr.builder.Tokenizer = lambda terms, *args, **kwargs: [Token(term, {}) for term in terms]
    try:
        yield
    finally:
        lunr.builder.Tokenizer = original


def oracle(documents) -> dict:
    """lunr.py's serialized index of documents given as field terms, terms in UTF-16 order."""
    builder = Builder()
    builder.ref("ref")
    for field in contract.FIELDS:
        builder.field(field, boost=contract.FIELD_BOOSTS[field])
    with _pretokenized_fields():
        for i, fields in enumerate(documents):
            builder.add({"ref": str(i), **dict(zip(contract.FIELDS, fields))})
        serialized = builder.build().serialize()
    serialized["invertedIndex"].sort(key=lambda entry: entry[0].encode("utf-16-be"))
    return serialized


def assert_identical(ours: dict, theirs: dict) -> None:
    assert ours == theirs
    assert dumps(ours) == dumps(theirs)  # key order too: the site must not change by a byte


def rows_of(serialized: dict) -> list[list]:
    """The serialized index turned around, by term: what the term rows must hold."""
    weights = {field_ref: dict(zip(v[::2], v[1::2])) for field_ref, v in serialized["fieldVectors"]}
    return [
        [term, posting["_index"], *(
            [x for ref in sorted(posting[field], key=int) for x in (int(ref), weights[f"{field}/{ref}"][posting["_index"]])]
            for field in serialized["fields"]
        )]
        for term, posting in serialized["invertedIndex"]
    ]


# --- generated inputs ------------------------------------------------------------------------------

# Few distinct terms, so terms repeat within and across fields and documents;
# astral and BMP characters so the UTF-16 order differs from the code point order.
_terms = st.lists(st.sampled_from(["a", "b", "ab", "z", "é", "\uff5e", "\U0001f600", "data", "x1"]), max_size=12)
_documents = st.lists(st.tuples(_terms, _terms, _terms), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_documents)
def test_generated_indexes_match_lunr_py(documents):
    expected = oracle(documents)
    assert_identical(build_from_terms(documents), expected)
    assert term_rows_from_terms(documents) == rows_of(expected)


def test_weights_follow_field_length_and_term_frequency():
    # A known case worked out by hand from lunr's BM25: the term in the short body weighs more.
    index = build_from_terms([((), (), ("cat",)), ((), (), ("cat", "dog", "dog", "eel"))])
    vectors = dict(index["fieldVectors"])
    assert vectors["body/0"][1] > vectors["body/1"][1]
    assert vectors["title/0"] == []
    assert_identical(index, oracle([((), (), ("cat",)), ((), (), ("cat", "dog", "dog", "eel"))]))


def test_no_chunks_give_an_empty_index():
    index = build_lunr_index([])
    assert index["fieldVectors"] == [] and index["invertedIndex"] == []
    assert build_term_rows([]) == []


def test_terms_from_the_parser_are_the_terms_analysed_here():
    chunk = Chunk("a", "x", ("Running Title",), "Cats were running", "en", "Sub › Heading")
    analysed = chunk_terms(chunk)
    assert analysed == (("run", "titl"), ("sub", "head"), ("cat", "were", "run"))
    carried = dataclasses.replace(chunk, terms=tuple(map(counted, analysed)))
    assert carried == chunk  # derived data: equality ignores it
    assert build_lunr_index([carried]) == build_lunr_index([chunk])


# --- the shared corpora ----------------------------------------------------------------------------

def corpus_chunks(name: str, lang: str) -> dict[str, list[Chunk]]:
    """The indexed chunks of a corpus by language, as ``index.build_shard`` takes them."""
    content = corpus(name)
    config = Config(lang=lang)
    loaded = load_documents(content, config)
    parser = Parser(config, {d.rel_path: d.url for d in loaded.documents})
    by_lang: dict[str, list[Chunk]] = {}
    for page in parser.parse_many(loaded.documents):
        by_lang.setdefault(page.doc.lang, []).extend(c for c in page.chunks if c.text)
    return by_lang


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name,lang",
    [("fastapi-docs/en", "en"), ("fastapi-docs/ru", "ru"), ("fastapi-docs/zh", "zh"), ("rust-rfcs", "en")],
)
def test_corpus_indexes_match_lunr_py(name, lang):
    for chunks in corpus_chunks(name, lang).values():
        assert chunks
        ours = build_lunr_index(chunks)
        assert_identical(ours, oracle([chunk_terms(c) for c in chunks]))
        assert json.loads(dumps(ours)) == ours
        assert build_term_rows(chunks) == rows_of(ours)
