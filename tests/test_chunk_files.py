"""Chunk files made as pages come (``citesearch index``) are the files a whole build makes of the same pages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.engine import contract
from citesearch.model import Chunk
from citesearch.pipeline.index import ChunkFilesByLanguage, SearchPage, build_search_files

GENERATOR = {"name": "test", "version": "1"}
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "retry", "timeout"]


def _page(n: int, lang: str, texts: list[str]) -> SearchPage:
    doc_id = f"p{n}"
    chunks = tuple(Chunk(doc_id, f"a{k}", (f"Page {n}", f"Part {k}"), text, lang, f"Part {k}") for k, text in enumerate(texts))
    return SearchPage(doc_id, f"{doc_id}.html" if n % 3 else f"{doc_id}/", f"Page {n}", lang, chunks)


pages_strategy = st.lists(
    st.tuples(st.sampled_from(["en", "ru"]),
              st.lists(st.one_of(st.just(""), st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)), max_size=7)),
    min_size=1, max_size=12,
).map(lambda specs: [_page(n, lang, texts) for n, (lang, texts) in enumerate(specs)])


@settings(max_examples=60, deadline=None)
@given(pages=pages_strategy, per_group=st.integers(1, 4))
def test_chunk_files_made_page_by_page_are_the_whole_builds(pages, per_group):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contract, "CHUNK_FILES_PER_GROUP", per_group)  # groups end inside pages and across them
        _check_made_page_by_page(pages)


def _check_made_page_by_page(pages: list[SearchPage]) -> None:
    whole = build_search_files(pages, "en", GENERATOR)
    early: dict[str, bytes] = {}
    made = ChunkFilesByLanguage(early)
    for page in pages:
        made.add(page)
    later: dict[str, bytes] = {}
    files = build_search_files(pages, "en", GENERATOR, later, chunk_files=made)
    assert dict(files) == whole
    assert set(early) | set(later) == set(whole) and not set(early) & set(later)
    # Every full group was made before the last page: the files of (refs // group) groups per language.
    group = contract.CHUNKS_PER_FILE * contract.CHUNK_FILES_PER_GROUP
    refs = {lang: sum(1 for p in pages if p.lang == lang for c in p.chunks if c.text) for lang in {p.lang for p in pages}}
    made_early = [name for name in early if name.startswith(f"{contract.SEARCH_DIR}/chunks/")]
    assert len(made_early) == sum(count // group for count in refs.values()) * contract.CHUNK_FILES_PER_GROUP
