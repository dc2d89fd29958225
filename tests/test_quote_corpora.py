"""Every quote is verbatim from its page: over the shared corpora's query sets
(bench/queries.py: known-item sentence and heading queries, fixed seed, plus
the timing queries), every result's quote is a slice of its chunk's text, a
table row's header is a row of the same table, and code is quoted as code."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from citesearch.engine import quote
from citesearch.engine.search import SiteSearch
from conftest import build_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import corpora as bench_corpora  # noqa: E402
import queries as bench_queries  # noqa: E402

PER_KIND = 60


def corpus_queries(name: str) -> list[str]:
    corpus = next(c for c in bench_corpora.CORPORA if c.name == name)
    if not corpus.source.is_dir():
        pytest.skip(f"shared corpus not found at {corpus.source}")
    found = bench_queries.relevance_queries(corpus, bench_corpora.markdown_files(corpus.source), PER_KIND)
    texts = [q.text for q in found] + bench_queries.TIMING_QUERIES[name]
    # As typed: the last word cut short (prefix matching).
    return texts + [t[: max(2, len(t) * 2 // 3)] for t in texts[::4]]


def check_quotes(site: Path, texts: list[str]) -> Counter:
    search = SiteSearch(site)
    kinds: Counter = Counter()
    for text in texts:
        for result in search.search(text, limit=20).results:
            if result.quote is None:
                continue
            chunk = search.text(result)
            assert result.quote in chunk, (text, result.ref)
            lines = chunk.split("\n")
            if result.quote_kind == "text":
                assert "\n" not in result.quote and not result.quote.startswith((quote.CODE_LINE, quote.CELL))
            elif result.quote_kind == "code":
                assert any(line.startswith(quote.CODE_LINE) and result.quote in line for line in lines), (text, result.ref)
            else:
                assert quote.CELL + result.quote in lines, (text, result.ref)
                if result.quote_header is not None:
                    assert quote.CELL + result.quote_header in lines, (text, result.ref)
            for start, end in result.marks:
                assert 0 <= start < end <= len(result.quote)
            kinds[result.quote_kind] += 1
    return kinds


@pytest.mark.corpus
@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_fastapi_quotes_are_verbatim(fastapi_sites, lang):
    kinds = check_quotes(fastapi_sites[lang], corpus_queries(f"fastapi-{lang}"))
    assert kinds["text"] > 100, kinds
    if lang != "zh":  # Chinese queries are Han words, which code rarely holds
        # The docs are half code: some answers must be quoted as code lines.
        assert kinds["code"] > 10, kinds


@pytest.mark.corpus
def test_rust_rfc_quotes_are_verbatim(tmp_path_factory):
    site = build_corpus(tmp_path_factory, "rust-rfcs", "en")
    kinds = check_quotes(site, corpus_queries("rust-rfcs"))
    assert kinds["text"] > 100 and kinds["code"] > 10 and kinds["table"] > 0, kinds
