"""`citesearch index SITE` on small built sites the tests write: passages, safety, idempotence, drafts."""

from __future__ import annotations

import os
from pathlib import Path

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown.extensions.toc import slugify_unicode

from browser_support import run_cli
from citesearch.errors import ContentError, UsageError
from citesearch.html_site import command, limits
from citesearch.html_site.command import index_site
from citesearch.html_site.reader import IndexOptions, read_page
from citesearch.html_site.widget import WidgetTags
from citesearch.markdown_ext.chunk import ChunkExtension

WIDGET = WidgetTags.load()


def page(body: str, *, title: str = "Page", lang: str = "en", head: str = "") -> str:
    return (f'<!doctype html>\n<html lang="{lang}">\n<head><meta charset="utf-8"><title>{title}</title>{head}</head>\n'
            f"<body><header><a href='/'>Site</a></header>\n<main>{body}</main>\n<footer>Footer words</footer></body></html>\n")


def write_site(root: Path, pages: dict[str, str]) -> Path:
    for rel, html in pages.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): (b"->" + os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


def search_bytes(site: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((site / "search").rglob("*")) if p.is_file())


def small_site(root: Path) -> Path:
    return write_site(root, {
        "index.html": page("<h1>Home</h1><p>Welcome to the orchard manual.</p>"),
        "guide/index.html": page(
            "<h1 id='guide'>Guide<a class='headerlink' href='#guide'>¶</a></h1><p>Plant apple trees in spring.</p>"
            "<h2 id='pruning'>Pruning</h2><p>Prune pear trees in winter when they sleep.</p>"
            "<pre><code>shears --sharpen\n  --angle 20</code></pre>"
            "<h2>Harvest</h2><ul><li>Pick plums by hand.</li><li>Store quinces cold.</li></ul>"
            "<script>var secretScriptWord = 1;</script>"),
        "old.html": '<html><head><meta http-equiv="refresh" content="0; url=guide/"></head><body>Moved</body></html>',
        "404.html": page("<h1>Not found</h1><p>Nothing here.</p>"),
        "style.css": "body { color: black }\n",
        "overrides/main.html": "{% extends 'base.html' %}\n{% block content %}<p>Theme template</p>{% endblock %}\n",
    })


# --- passages: the Markdown chunker's rules --------------------------------------------------------------

MD_EXTENSIONS = ["toc", "fenced_code", "tables"]
MD_CONFIG = {"toc": {"slugify": slugify_unicode}}


def markdown_chunks(source: str, title: str):
    chunker = ChunkExtension(budget=120)
    md = markdown.Markdown(extensions=[*MD_EXTENSIONS, chunker], extension_configs=MD_CONFIG)
    md.convert(source)
    return chunker.result.finish("doc", "en", chunker.result.heading_title or title)


def html_chunks(source: str, title: str):
    html = markdown.Markdown(extensions=MD_EXTENSIONS, extension_configs=MD_CONFIG).convert(source)
    read = read_page(page(html, title=title), "doc.html", IndexOptions(budget=120, inject=False), WIDGET)
    return read.page.chunks if read.page else ()


words = st.lists(st.sampled_from(["apple", "pear", "plum", "tree", "Winter", "sleep", "ok", "яблоко", "梨子"]), min_size=1, max_size=12).map(" ".join)
blocks = st.one_of(
    words.map(lambda w: f"{w}."),
    st.lists(words, min_size=1, max_size=4).map(lambda items: "\n".join(f"- {i}" for i in items)),
    words.map(lambda w: f"```\n{w}\n  {w}\n```"),
    st.tuples(st.integers(1, 4), words).map(lambda t: f"{'#' * t[0]} {t[1]}"),
    words.map(lambda w: f"| a | b |\n|---|---|\n| {w} | x |"),
    words.map(lambda w: f"> {w}"),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(blocks, min_size=1, max_size=14))
def test_passages_of_the_built_html_are_the_markdown_chunkers_passages(parts):
    """The same document read from Markdown or from its HTML gives the same anchors, heading paths and texts."""
    source = "\n\n".join(parts) + "\n"
    expected = [(c.anchor, c.heading_path, c.text) for c in markdown_chunks(source, "Page") if c.text]
    assert [(c.anchor, c.heading_path, c.text) for c in html_chunks(source, "Page")] == expected


def test_sphinx_sections_give_their_ids_and_headerlinks_stay_out_of_the_text():
    body = ('<div role="main"><section id="intro"><h1>Intro<a class="headerlink" href="#intro">¶</a></h1>'
            '<p>First words.</p><section id="setup"><h2>Setup<a class="headerlink" href="#setup">¶</a></h2>'
            '<p>Run it.</p></section></section></div>')
    read = read_page(f"<html><body>{body}</body></html>", "a.html", IndexOptions(inject=False), WIDGET)
    assert [(c.anchor, c.heading_path, c.text) for c in read.page.chunks] == [
        ("intro--1", ("Intro",), "First words."), ("setup--1", ("Intro", "Setup"), "Run it.")]
    assert '<p data-chunk="setup--1" id="setup--1">Run it.</p>' in read.output


def test_every_anchor_is_an_id_in_the_page_and_blocks_with_their_own_id_keep_it():
    html = page("<h2 id='a'>A</h2><p id='mine'>Own id.</p><p>Second.</p><h2>B</h2>Loose <em>text</em> here.")
    read = read_page(html, "x.html", IndexOptions(inject=False), WIDGET)
    out = read.output
    for chunk in read.page.chunks:
        assert f'id="{chunk.anchor}"' in out
    assert 'id="mine"' in out and 'data-chunk="a--1"' in out
    assert [c.text for c in read.page.chunks] == ["Own id.\nSecond.", "Loose text here."]


def test_a_passage_id_survives_edits_elsewhere_on_the_page():
    before = page("<h2 id='a'>A</h2><p>Alpha words.</p><h2 id='b'>B</h2><p>Beta words.</p><p>More beta.</p>")
    after = page("<h2 id='a'>A</h2><p>Alpha words, edited at length.</p><p>A new alpha paragraph.</p>"
                 "<h2 id='new'>New</h2><p>Inserted.</p><h2 id='b'>B</h2><p>Beta words.</p><p>More beta.</p>")
    options = IndexOptions(inject=False, budget=12)
    anchors = lambda html: {c.text: c.anchor for c in read_page(html, "p.html", options, WIDGET).page.chunks}  # noqa: E731
    assert {t: a for t, a in anchors(after).items() if t.startswith(("Beta", "More"))} == \
           {t: a for t, a in anchors(before).items() if t.startswith(("Beta", "More"))}


# --- the command: files, idempotence, atomicity ------------------------------------------------------------

def test_index_writes_search_files_widget_and_ids_and_keeps_every_other_file(tmp_path):
    site = small_site(tmp_path / "public")
    before = snapshot(site)
    result = index_site(site)
    after = snapshot(site)
    assert result.pages == 2 and result.skipped == {"not a full page": 1, "not-found page": 1, "redirect": 1}
    assert after["style.css"] == before["style.css"]
    assert after["overrides/main.html"] == before["overrides/main.html"]  # a theme template Zensical copies
    assert after["old.html"] == before["old.html"] and after["404.html"] == before["404.html"]
    assert "search/manifest.json" in after and "assets/citesearch/citesearch.js" in after
    guide = after["guide/index.html"].decode()
    assert 'id="pruning--1"' in guide and guide.count("data-citesearch=") == 1
    assert b"secretScriptWord" not in search_bytes(site) and b"Footer words" not in search_bytes(site)
    assert not (site / ".citesearch-site").exists()  # the site stays the generator's
    answer = run_cli("search", "--site", str(site), "prune pear", "--json")
    assert '"guide/#pruning--1"' in answer.stdout or "pruning--1" in answer.stdout


def test_indexing_an_indexed_site_is_a_no_op_byte_for_byte_with_or_without_the_cache(tmp_path):
    site = small_site(tmp_path / "public")
    index_site(site)
    first = snapshot(site)
    again = index_site(site)
    assert again.read == 0 and again.rewritten == 0  # nothing parsed: the cache knew every page
    assert snapshot(site) == first
    index_site(site, no_cache=True)
    assert snapshot(site) == first


def test_a_fresh_build_of_the_generator_reuses_the_cache_and_gives_the_same_site(tmp_path):
    source = small_site(tmp_path / "source")
    site = tmp_path / "public"
    os.system(f"cp -r {source} {site}")
    index_site(site)
    first = snapshot(site)
    for rel, data in snapshot(source).items():  # the generator writes the same pages again
        (site / rel).write_bytes(data)
    again = index_site(site)
    assert again.read == 0
    assert snapshot(site) == first
    (site / "index.html").write_text(page("<h1>Home</h1><p>Welcome to the new orchard manual.</p>"), encoding="utf-8")
    edited = index_site(site)
    assert edited.read == 1 and edited.rewritten == 1  # only the changed page is parsed
    assert snapshot(site)["guide/index.html"] == first["guide/index.html"]


def test_an_unreadable_folder_stops_the_run_before_anything_is_replaced(tmp_path, monkeypatch):
    site = small_site(tmp_path / "public")
    before = snapshot(site)
    real_walk = os.walk

    def walk(top, onerror=None, followlinks=False):  # as os.walk reports a folder it cannot list (root lists all)
        for folder, dirs, files in real_walk(top, followlinks=followlinks):
            if folder.endswith("guide"):
                onerror(PermissionError(13, "Permission denied", folder))
                continue
            yield folder, dirs, files

    monkeypatch.setattr(command.os, "walk", walk)
    with pytest.raises(UsageError, match="cannot read .*guide: Permission denied; nothing was replaced"):
        index_site(site)
    monkeypatch.undo()
    assert snapshot(site) == before


def test_a_failed_run_leaves_the_site_as_it_was(tmp_path, monkeypatch):
    site = small_site(tmp_path / "public")
    before = snapshot(site)

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(command, "build_search_files", broken)
    with pytest.raises(OSError):
        index_site(site)
    assert snapshot(site) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".public")] == []


def test_out_writes_elsewhere_and_never_inside_the_site(tmp_path):
    site = small_site(tmp_path / "public")
    before = snapshot(site)
    index_site(site, tmp_path / "indexed")
    assert snapshot(site) == before
    assert (tmp_path / "indexed" / "search" / "manifest.json").is_file()
    with pytest.raises(UsageError, match="inside"):
        index_site(site, site / "sub")


# --- drafts, hostile pages ----------------------------------------------------------------------------------

def test_no_byte_of_an_editor_page_a_noindex_page_or_an_excluded_page_reaches_the_search_files(tmp_path):
    site = small_site(tmp_path / "public")
    write_site(site, {
        "draft.html": page("<h1>Draft zanzibarword</h1><p>Secret plan quixoticword.</p>",
                           head='<meta name="citesearch" content="editor">'),
        "hidden.html": page("<h1>Hidden</h1><p>Private note xylophoneword.</p>", head='<meta name="robots" content="noindex, nofollow">'),
        "wip.html": page("<h1>Work</h1><p>Unfinished jabberwockword.</p>").replace("<body>", '<body class="draft">'),
        "part.html": page("<h1>Part</h1><p>Public text.</p><div data-citesearch-ignore><p>Ignored gobbledyword.</p></div>"),
    })
    drafts = {rel: (site / rel).read_bytes() for rel in ("draft.html", "hidden.html", "wip.html")}
    result = index_site(site, options=IndexOptions(exclude=(".draft",)))
    found = search_bytes(site)
    for word in (b"zanzibarword", b"quixoticword", b"xylophoneword", b"jabberwockword", b"gobbledyword", b"Draft", b"wip", b"hidden"):
        assert word not in found
    for rel in ("draft", "hidden", "wip"):
        assert f'"{rel}'.encode() not in found
    for rel, data in drafts.items():
        assert (site / rel).read_bytes() == data  # left as the generator wrote them
    assert result.skipped["editor-only page"] == 1 and result.skipped["noindex page"] == 1 and result.skipped["excluded"] == 1
    assert b"Public text" in found


def test_the_mkdocs_plugin_and_citesearch_index_put_the_same_widget_tags_into_a_page():
    from selectolax.lexbor import LexborHTMLParser

    from citesearch.mkdocs_plugin import Widget

    html = "<!doctype html><html lang=\"ru\"><head><title>T</title></head><body><main><h1>A</h1><p>Words.</p></main></body></html>"
    by_mkdocs = Widget.load(WIDGET.assets_dir, WIDGET.search_dir).inject(html, "../", "ru")
    by_index = read_page(html, "guide/a.html", IndexOptions(), WIDGET).output

    def widget(page_html: str) -> tuple:
        doc = LexborHTMLParser(page_html)
        for name in ("data-citesearch-widget", "data-theme-adapter"):  # index's mark for re-runs; each adapter's theme
            for node in doc.css(f"[{name}]"):
                del node.attrs[name]
        box = doc.css_first("[data-citesearch]")
        return ([node.html for node in doc.head.iter()], box.html if box else None,
                [node.html for node in doc.css("body script")])

    head, box, scripts = widget(by_index)
    assert (head, box, scripts) == widget(by_mkdocs)
    assert any("modulepreload" in tag for tag in head) and 'data-page-lang="ru"' in box and "citesearch.js?v=" in scripts[-1]


def test_an_exclude_selector_that_matches_inside_the_content_leaves_that_part_out_not_the_page():
    # Lexbor's css_matches is also true when the selector matches something inside the node: a page
    # holding one excluded note must still be indexed, the note alone left out.
    html = page("<h1>Orchard</h1><p>Graft apple trees in spring.</p><div class='note'><p>Internal marzipanword.</p></div>"
                "<p>Water the young trees.</p>")
    read = read_page(html, "orchard.html", IndexOptions(exclude=(".note",)), WIDGET)
    assert read.skipped == "" and read.page is not None
    text = " ".join(chunk.text for chunk in read.page.chunks)
    assert "Graft apple trees" in text and "Water the young trees" in text and "marzipanword" not in text
    around = read_page(html.replace("<body>", "<body class='note-page'>"), "orchard.html",
                       IndexOptions(exclude=(".note-page",)), WIDGET)
    assert around.skipped == "excluded" and around.page is None and around.output is None


def test_hostile_pages_are_named_with_their_line_and_left_as_they_are(tmp_path, monkeypatch):
    site = small_site(tmp_path / "public")
    deep = "<html><body><main>\n<p>fine</p>\n" + "<div>" * 6000 + "deep" + "</div>" * 6000 + "</main></body></html>"
    nested = "<html><body><main>" + "<div>" * 900 + "<h2>Down here</h2><p>Deep nested words.</p>" + "</div>" * 900 + "</main></body></html>"
    write_site(site, {"deep.html": deep, "nested.html": nested, "broken.html": "<html><main><h2>Broken</h3><p>unclosed <b>bold <i>words</main></p></div>"})
    (site / "latin1.html").write_bytes(b"<html><body>\n\n<main>caf\xe9</main></body></html>")
    (site / "big.html").write_text(page("<p>" + "word " * 25000 + "</p>"), encoding="utf-8")
    secret = tmp_path / "secret.html"
    secret.write_text(page("<p>outsideword</p>"), encoding="utf-8")
    (site / "link.html").symlink_to(secret)
    monkeypatch.setattr(limits, "MAX_PAGE_BYTES", 100_000)
    before = snapshot(site)
    result = index_site(site)
    messages = {str(w) for w in result.warnings}
    assert "deep.html:3: elements nested more than 1000 levels deep; at most 1000 are read; left as it is" in messages
    assert "latin1.html:3: page is not UTF-8 text (byte 0xe9); left as it is" in messages
    assert any(m.startswith("big.html:1: page is 0.1 MiB; at most ") and m.endswith("MiB are indexed; left as it is") for m in messages)
    assert any(m.startswith("link.html:1: symlink leads outside the site") for m in messages)
    after = snapshot(site)
    for rel in ("deep.html", "latin1.html", "big.html", "link.html"):
        assert after[rel] == before[rel]
    assert os.readlink(site / "link.html") == str(secret)  # carried as a link, never read
    assert b"outsideword" not in search_bytes(site)
    assert b"unclosed bold words" in search_bytes(site)  # broken markup is read as a browser reads it
    assert b"Deep nested words." in search_bytes(site)  # 900 levels: read (as one block below 100 wrappers)
    assert secret.read_text(encoding="utf-8") == page("<p>outsideword</p>")


def test_strict_turns_warnings_into_errors_and_writes_nothing(tmp_path):
    site = small_site(tmp_path / "public")
    (site / "latin1.html").write_bytes(b"<main>caf\xe9</main>")
    before = snapshot(site)
    with pytest.raises(ContentError) as raised:
        index_site(site, strict=True)
    assert "latin1.html:1: page is not UTF-8" in str(raised.value)
    assert snapshot(site) == before


# --- the command line ---------------------------------------------------------------------------------------

def test_cli_no_inject_prints_the_two_lines_and_leaves_the_box_out(tmp_path):
    site = small_site(tmp_path / "public")
    done = run_cli("index", str(site), "--no-inject")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith('<meta name="citesearch:search" content="/search/"')
    assert "data-citesearch" in lines[1] and lines[1].endswith("</script>")
    assert "data-citesearch=" not in (site / "guide" / "index.html").read_text(encoding="utf-8")
    assert 'id="pruning--1"' in (site / "guide" / "index.html").read_text(encoding="utf-8")
    assert "indexed 2 pages" in done.stderr and "1 redirect" in done.stderr


def test_cli_bad_selector_and_missing_site_are_usage_errors(tmp_path):
    site = small_site(tmp_path / "public")
    done = run_cli("index", str(site), "--exclude", "div[")
    assert done.returncode == 2 and "--exclude 'div[' is not a CSS selector" in done.stderr
    done = run_cli("index", str(tmp_path / "nothing"))
    assert done.returncode == 2 and "is not a folder" in done.stderr


def test_languages_from_html_lang_or_from_folders(tmp_path):
    site = write_site(tmp_path / "public", {
        "index.html": page("<h1>Home</h1><p>English words.</p>"),
        "ru/index.html": page("<h1>Дом</h1><p>Русские слова.</p>", lang="ru"),
        "zh/index.html": page("<h1>家</h1><p>中文的词语。</p>", lang="en"),
    })
    index_site(site, tmp_path / "by-html")
    index_site(site, tmp_path / "by-folder", IndexOptions(lang_from="folder"))
    import json
    html_langs = json.loads((tmp_path / "by-html" / "search" / "manifest.json").read_text())["languages"]
    folder_langs = json.loads((tmp_path / "by-folder" / "search" / "manifest.json").read_text())["languages"]
    assert sorted(html_langs) == ["en", "ru"] and sorted(folder_langs) == ["en", "ru", "zh"]
