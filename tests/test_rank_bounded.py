"""rank.py's first screen from a part of the postings (format 7) is the whole rows' first screen.

A long term row is split (``contract.TERM_SPLIT_BYTES``): its title and
heading postings stay in the row, its body postings go into blocks by page
range.  ``rank.first_screen`` reads blocks only until the first ``n`` pages
are proven; its pages, criteria, passages and lunr scores must be those of
``rank.search`` on the whole rows, on sites built with small split sizes
(every frequent term split into many blocks) and on a shared corpus at the
shipped sizes, for whole words, prefixes, typos and common words.
(The JavaScript half: tests/test_rank_lazy.py, tests/js/lazy-rank.mjs.)
"""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesearch.engine import contract, rank, shards
from conftest import corpus
from test_rank_lazy import COMMON, build_split, content_split, drawn_queries, fastapi_queries  # noqa: F401 (a fixture)


def reading(site, lang: str, log: list):
    search = site / contract.SEARCH_DIR
    manifest = json.loads((search / contract.MANIFEST_NAME).read_text(encoding="utf-8"))

    def load(name):
        log.append(name)
        return json.loads((search / name).read_text(encoding="utf-8"))

    return shards.ShardedIndex(manifest["languages"][lang], manifest["fields"], load)


def compare(site, lang: str, queries: list[str], prefix: bool, sizes=(1, 10, 20)) -> tuple[int, int]:
    """Asserts the first screens equal; returns (blocks the whole rows are in, blocks read) at 10 pages."""
    whole_blocks = read_blocks = 0
    for text in queries:
        whole_log: list = []
        whole = rank.search(reading(site, lang, whole_log), text, prefix=prefix, pages=max(sizes))
        for n in sizes:
            log: list = []
            found = rank.first_screen(reading(site, lang, log), text, prefix=prefix, pages=n)
            assert found.pages == whole.pages[:n], (text, n)
            assert found.fuzzy == whole.fuzzy, text
            assert len(found.pages) <= found.total <= len(whole.pages), text
            if n == 10:
                whole_blocks += sum(name.startswith(contract.BLOCK_KIND) for name in whole_log)
                read_blocks += sum(name.startswith(contract.BLOCK_KIND) for name in log)
    return whole_blocks, read_blocks


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_first_screen_is_the_whole_rows_first_screen_on_our_docs(content_split, data):  # noqa: F811 (the fixture)
    lang, queries, prefix = drawn_queries(data, 15)
    compare(content_split, lang, queries, prefix=prefix)


@pytest.fixture(scope="module")
def fastapi_split(tmp_path_factory):
    content = tmp_path_factory.mktemp("fastapi-split-src") / "content"
    shutil.copytree(corpus("fastapi-docs/en"), content)
    content.chmod(0o755)
    (content / "citesearch.yml").write_text("title: fastapi\nlang: en\n", encoding="utf-8")
    return build_split(tmp_path_factory, content, 400, 100, "fastapi-split")


@pytest.mark.corpus
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_first_screen_is_the_whole_rows_first_screen_on_fastapi(fastapi_split, data):
    queries, prefix = fastapi_queries(data, 15)
    compare(fastapi_split, "en", queries + COMMON, prefix=prefix)


@pytest.mark.corpus
def test_first_screen_reads_fewer_blocks_on_fastapi(fastapi_split):
    # Frequent words whose first pages hold them in titles and headings.
    whole, read = compare(fastapi_split, "en", ["request body", "response", "dependencies", "security"], prefix=False)
    assert 0 < read < whole, (read, whole)


# Claims and questions (more than five distinct words) rank by ``evidence_coord`` first.
LONG = ["The heading path is what a search result shows above the quoted sentence.",
        "how do I keep draft pages out of the public build",
        "a failed build leaves the previous site folder untouched",
        "which generators can citesearch index after they build a site"]


def test_first_screen_of_long_queries_is_the_whole_rows_first_screen(content_split):  # noqa: F811 (the fixture)
    compare(content_split, "en", LONG, prefix=False)
    compare(content_split, "en", LONG, prefix=True)
