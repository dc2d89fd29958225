"""Bare headings: a heading with no text of its own is the section of its first passage, in every reader and both halves."""

from __future__ import annotations

import json

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.extensions.toc import slugify_unicode

from citesearch import build
from citesearch.engine import rank
from citesearch.engine.query import words
from citesearch.engine.search import SiteSearch
from citesearch.html_site.command import index_site
from citesearch.markdown_ext.chunk import ChunkExtension
from citesearch.pipeline.bare_headings import bare_counts
from conftest import REPO
from node_support import run_node
from test_ranking import row

VECTORS = json.loads((REPO / "tests/vectors/bare_headings.json").read_text(encoding="utf-8"))


def chunks_of(source: str):
    chunker = ChunkExtension(budget=600)
    markdown.Markdown(extensions=["toc", chunker], extension_configs={"toc": {"slugify": slugify_unicode}}).convert(source)
    return chunker.result, [c for c in chunker.result.finish("doc", "en", "Page") if c.text]


def test_a_passage_stands_for_the_bare_headings_just_above_its_own():
    source = ("# Page\n\nIntro.\n\n## Ways\n\n### Create\n\nText A.\n\n### Other\n\nText B.\n\n"
              "## Plain\n\nText C.\n\n### Sub\n\nText D.\n\n## Outer\n\n### Middle\n\n#### Inner\n\nText E.\n")
    _, chunks = chunks_of(source)
    assert [(c.heading_path[-1], n) for c, n in zip(chunks, bare_counts(c.heading_path for c in chunks))] == [
        ("Page", 0), ("Create", 1), ("Other", 0), ("Plain", 0), ("Sub", 0), ("Inner", 2)]


# Headings of distinct texts (the counts compare heading paths: two sections of one parent
# with the same text count as one), levels 2-4, and paragraphs.
blocks = st.lists(st.one_of(st.integers(2, 4), st.just(0)), min_size=1, max_size=16)


@settings(max_examples=200, deadline=None)
@given(blocks)
def test_every_heading_without_a_passage_of_its_own_is_counted_once_by_the_first_passage_under_it(kinds):
    source = "\n\n".join(f"{'#' * k} Heading {n}" if k else f"Text {n}." for n, k in enumerate(kinds)) + "\n"
    result, chunks = chunks_of(source)
    counts = bare_counts(c.heading_path for c in chunks)
    raw = [r for r in result.chunks if r.text]
    own = {r.headings[-1] for r in raw if r.headings}
    under = {i for r in raw for i in r.headings[:-1]}  # headings with some passage below them
    counted = [i for r, n in zip(raw, counts) for i in r.headings[len(r.headings) - 1 - n:-1]]
    assert sorted(counted) == sorted(under - own)  # each bare heading once, never a heading with text
    for r, n in zip(raw, counts):  # by the first passage under it
        first = {i: min(k for k, q in enumerate(raw) if i in q.headings) for i in r.headings}
        assert all(first[i] == raw.index(r) for i in r.headings[len(r.headings) - 1 - n:-1])


def test_a_bare_heading_is_the_section_of_the_passage_that_stands_for_it_in_refine():
    # Two passages hold the query's words with equal weights; the second, scored lower, stands for the bare heading.
    qw = words("static properties", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}, heading=(0, 1)) for w in qw for t in w.terms]
    texts = {0: (["Page", "Instance properties", "Helpers"], "Static properties from an instance.", 0),
             1: (["Page", "Static properties", "Helpers"], "Available in a declaration.", 1)}
    (page,) = rank.refine(rank.rank(qw, rows, {0: 2.0, 1: 1.0}), qw, texts, "static properties", prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [1, 0]
    assert [p.explain()["section"] for p in page.passages] == [1.0, 0.0]
    unmarked = {ref: text[:2] for ref, text in texts.items()}  # no bare heading: the sibling's sentence wins
    (page,) = rank.refine(rank.rank(qw, rows, {0: 2.0, 1: 1.0}), qw, unmarked, "static properties", prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [0, 1]


def _markdown_site(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name, text in VECTORS["pages"].items():
        (src / name).write_text(text, encoding="utf-8")
    (src / "citesearch.yml").write_text("title: Fixture\nlang: en\n", encoding="utf-8")
    build(src, tmp_path / "site")
    return tmp_path / "site"


def _html_site(tmp_path):
    site = tmp_path / "html"
    site.mkdir()
    for name, text in VECTORS["pages"].items():
        body = markdown.Markdown(extensions=["toc"], extension_configs={"toc": {"slugify": slugify_unicode}}).convert(text)
        (site / name.replace(".md", ".html")).write_text(
            f'<!doctype html><html lang="en"><head><title>x</title></head><body><main>{body}</main></body></html>',
            encoding="utf-8")
    index_site(site)
    return site


def test_bare_heading_vectors_in_both_halves_and_both_chunkers(tmp_path):
    markdown_site, html_site = _markdown_site(tmp_path), _html_site(tmp_path)
    from_markdown, from_html = SiteSearch(markdown_site), SiteSearch(html_site)
    js = run_node("site-search.mjs", {"lang": "en", "queries": [c["query"] for c in VECTORS["cases"]], "limit": 10},
                  str(markdown_site))
    for case, from_js in zip(VECTORS["cases"], js, strict=True):
        results = from_markdown.search(case["query"]).results
        assert [r.ref for r in results] == from_js["refs"], case
        first = results[0]
        assert (first.ref, first.heading, first.bare) == (case["first"], case["heading"], case["bare"]), case["why"]
        # `citesearch index` of the same page as HTML: the same passage, standing for the same headings.
        html = from_html.search(case["query"]).results[0]
        assert (html.heading, html.bare, from_html.text(html)) == (first.heading, first.bare, from_markdown.text(first))
