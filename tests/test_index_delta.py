"""The page cache of `citesearch index` keeps a rewritten page as its differences from the generator's page:
always exactly the page, and a few KB where the page is large."""

from __future__ import annotations

import sqlite3
import zlib
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.html_site.cache import DATABASE, PageCache, page_key, page_rows
from citesearch.html_site.command import index_site
from citesearch.html_site.delta import SYNC, changed, delta
from citesearch.html_site.reader import IndexOptions, read_page
from citesearch.html_site.widget import WidgetTags

from test_index_site import page, snapshot, write_site

WIDGET = WidgetTags.load()
# HTML-like text with repeats (so a resync can be tempted by the wrong place) and non-ASCII characters
TEXT = st.text(alphabet=st.sampled_from(list('<p a="">/\n &;quot—é中\U0001f600x')), max_size=3000)


@st.composite
def edited(draw) -> tuple[str, str]:
    """A text and the same text with a few places changed: insertions, deletions, replacements."""
    old = draw(TEXT)
    new = old
    for _ in range(draw(st.integers(0, 12))):
        at = draw(st.integers(0, len(new)))
        cut = draw(st.integers(0, 40))
        new = new[:at] + draw(st.text(max_size=60)) + new[at + cut:]
    return old, new


@settings(max_examples=300, deadline=None)
@given(edited())
def test_the_differences_give_back_the_new_text_exactly(pair):
    old, new = pair
    ops = delta(old, new)
    assert ops is not None  # a dozen edits are far from MAX_STEPS
    assert changed(old, ops) == new


@settings(max_examples=200, deadline=None)
@given(TEXT, TEXT)
def test_two_unrelated_texts_too(old, new):
    ops = delta(old, new)
    assert ops is None or changed(old, ops) == new


def test_a_large_page_with_a_few_edits_is_kept_as_a_few_edits():
    old = "".join(f'<p class=x id=p{n}>Paragraph {n} says &quot;hello&quot; to the reader.</p>\n' for n in range(3000))
    new = old.replace("<p class=x id=p1000>", '<p class="x" id="p1000" data-chunk="a--1">').replace(
        "<p class=x id=p2000>", '<p class="x" id="p2000" data-chunk="b--1">').replace("&quot;hello&quot; to the reader.</p>\n<p class=x id=p2500>", '"hello" to the reader.</p>\n<p class="x" id="p2500">')
    new = new[:50_000] + '<div data-citesearch-widget="">' + "box " * 700 + "</div>" + new[50_000:]
    ops = delta(old, new)
    assert ops is not None and changed(old, ops) == new
    put_in = sum(len(op) for op in ops if isinstance(op, str))
    assert len(ops) < 40 and put_in < 2800 + 40 * SYNC  # the box and the attributes, not the page


def test_a_page_changed_all_over_is_kept_whole_and_every_reading_comes_back_exactly(tmp_path):
    old = "".join(f"<p>word {n:05d} and some text</p>" for n in range(5000))
    assert delta(old, old.replace("<p>", "<P>")) is None  # too many places: the whole page is stored
    body = "<h1>T</h1>" + old
    readings = {rel: (source.encode(), read_page(source, rel, IndexOptions(), WIDGET)) for rel, source in {
        "all-over.html": page(body).replace("<p>", "<P>").replace("</p>", "</P>"),  # rewritten all over by the serialiser
        "few.html": page(body),  # a few differences
        "same.html": read_page(page(body), "x.html", IndexOptions(), WIDGET).output,  # as written: left as it is
        "fragment.html": "<p>not a page</p>",
    }.items()}
    cache = PageCache(tmp_path / "cache")
    for rel, (source, read) in readings.items():
        written = read.output.encode() if read.output is not None else None
        for key, row in page_rows("stage", rel, source, read, written):
            cache.put_packed(key, row)
    cache.save()
    cache = PageCache(tmp_path / "cache")
    for rel, (source, read) in readings.items():
        assert cache.get(page_key("stage", rel, source), source) == read
        if read.output is not None:
            written = read.output.encode()
            assert cache.get(page_key("stage", rel, written), written) == replace(read, output=None)


def test_the_cache_keeps_a_large_page_as_its_differences_and_a_fresh_build_gets_the_same_pages(tmp_path):
    body = "".join(f"<h2>Part {n}</h2><p>Some &quot;quoted&quot; words about part {n}, with <a href=#p{n}>a link</a>. "
                   f"Plant tree {n} in spring, prune row {n * 7} in winter and pick its {n % 5} fruits when ripe; {n * 13} "
                   f"trees need {n * 3} litres of water a week, so the orchard of {n + 2} rows needs {n * 31} litres.</p>"
                   f"<p>Row {n} is {n * 17} metres long and holds {n * 11} trees; a tree of row {n} gives {n % 7 + 3} baskets "
                   f"of apples, {n % 4} of pears and one of plums when the summer of year {1990 + n} is warm enough.</p>"
                   f"<pre><code>let x = {n};</code></pre>" for n in range(300))
    generated = {"index.html": page("<h1>Home</h1><p>Welcome.</p>"), "big.html": page(f"<h1>Big</h1>{body}")}
    site = write_site(tmp_path / "public", generated)
    index_site(site)
    indexed = snapshot(site)
    rows = _rows(site.parent / "public.cache" / DATABASE)
    passages = max(rows)  # under the bytes written: big.html's passages
    assert len(indexed["big.html"]) > 100_000
    whole = len(zlib.compress(indexed["big.html"], 1))  # what the row under the generator's bytes held besides them
    # An edit every ~60 characters (ids, data-chunk, entities, quotes): the differences are most of a row's
    # size on this page (rust-rfcs, an edit per ~1,400 characters: 1.1 MB of differences for 17 MB of pages).
    assert sum(rows) - passages < whole * 3 // 4 + 2000

    write_site(site, generated)  # the generator builds the same pages again
    again = index_site(site)
    assert again.read == 0 and again.rewritten == 2  # every page from the cache's differences
    assert snapshot(site) == indexed


def _rows(database) -> list[int]:
    with sqlite3.connect(database) as db:
        sizes = sorted(len(value) for (value,) in db.execute("SELECT value FROM pages"))
    db.close()
    return sizes
