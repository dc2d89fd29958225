"""The judged queries' source text (bench/queries.py): what a page shows, so the judge asks for what is there."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import queries  # noqa: E402
from corpora import Corpus  # noqa: E402
from relevance import _words, passage_matches  # noqa: E402


def test_a_heading_keeps_the_underscores_of_its_code_and_drops_emphasis():
    headings, _ = queries.parse("## The `target_feature` value in `#[cfg]`\n\n## A *very* __bold__ `__init__` move\n")
    assert headings == ["The target_feature value in #[cfg]", "A very bold __init__ move"]


def test_a_sentence_does_not_run_across_a_code_block():
    text = "It might turn into the following:\n```rust\nlet x = 1;\n```\nIt is untested whether this works.\n"
    _, sentences = queries.parse(text)
    assert sentences == ["It might turn into the following:", "It is untested whether this works."]


def test_an_underscore_inside_a_word_stays_and_emphasis_goes():
    headings, sentences = queries.parse("### site_url\n\nSet the [site_url] of the _whole_ site, as __bold__ says it.\n")
    assert headings == ["site_url"]
    assert sentences == ["Set the [site_url] of the whole site, as bold says it."]


def test_attribute_lists_are_markup_not_words():
    text = ("## Phases of processing {: #stages }\n\n"
            "Read the [CLI Options](options.md){.internal-link target=_blank} page first, then the { .label } rest.\n")
    headings, sentences = queries.parse(text)
    assert headings == ["Phases of processing"]
    assert sentences == ["Read the CLI Options page first, then the rest."]


def test_an_api_directive_and_its_options_make_no_sentence():
    text = ("::: mkdocs.plugins.BasePlugin.on_startup\n    options:\n        show_root_heading: false\n"
            "        show_root_toc_entry: false\n\n::: httpx.Client\n    :docstring:\n    :members: headers cookies params\n\n"
            "The client keeps its connections open between several requests.\n")
    assert queries.parse(text)[1] == ["The client keeps its connections open between several requests."]


def test_comments_styles_and_html_blocks_make_no_sentence():
    text = ("<!--\nThis note for editors is never shown on the page.\n\nNor is this paragraph of it.\n-->\n"
            "<style>\nlabel { color: #000000; font-weight: 600; display: inline-block; }\n\n</style>\n"
            "<div class=\"card\">\nA card whose words the page lays out apart.\n</div>\n\n"
            "Readers see this sentence.\n")
    assert queries.parse(text)[1] == ["Readers see this sentence."]


def test_indented_code_is_not_prose_but_an_admonitions_body_is():
    text = ("Write this:\n\n    import bleach\n    from bleach_whitelist import markdown_tags\n\n"
            "!!! note \"Title\"\n\n    This is not a CommonMark implementation at all.\n\n"
            "        indented = code(inside, the_note)\n\nBack to prose.\n")
    assert queries.parse(text)[1] == ["Write this:", "This is not a CommonMark implementation at all.", "Back to prose."]


def test_a_table_and_its_entities_make_no_sentence():
    text = ("Option | Effect\n-------|-------\n&nbsp; &nbsp; [Abbreviations] | adds abbreviations\n\n"
            "A&nbsp;sentence after the table.\n")
    assert queries.parse(text)[1] == ["A sentence after the table."]


def test_a_list_items_lines_go_with_it_and_its_paragraphs_are_prose():
    text = ("* Various bug fixes have been made. See the [commit\n  log](https://github.com/x/y/commits/master) for a\n"
            "  complete history.\n\n    A later paragraph of the item is prose.\n\n        but_this = 'is code'\n"
            "## A heading right after a list\n")
    headings, sentences = queries.parse(text)
    assert sentences == ["A later paragraph of the item is prose."]
    assert headings == ["A heading right after a list"]


def test_a_table_without_a_leading_pipe_is_a_table_as_python_markdown_renders_it():
    # rust-rfcs 1252-open-options: once read as the sentence "creation mode | file exists | ... | Unix | ...
    # OPEN_EXISTING |", which made the query `unix openexisting`; the page shows a table.
    text = ("The following table shows the flags.\n\n"
            "creation mode                | file exists | file does not exist | Unix              | Windows       |\n"
            ":----------------------------|-------------|---------------------|:------------------|:--------------|\n"
            "not set (open existing)      | open        | fail                |                   | OPEN_EXISTING |\n"
            ".create(true)                | open        | create              | O_CREAT           | OPEN_ALWAYS   |\n\n"
            "Case | Problem\n---- | -------\n 1   | `Self: Sized` required\n\nAn example of each case follows.\n")
    page = markdown.markdown(text, extensions=["tables"])
    assert page.count("<table>") == 2
    assert queries.parse(text)[1] == ["The following table shows the flags.", "An example of each case follows."]


def test_front_matter_is_not_prose():
    text = "---\ntitle: A title that is only metadata of the page\n---\n\nThe page says this.\n"
    assert queries.parse(text)[1] == ["The page says this."]


def test_a_folders_readme_is_its_index_page_as_mkdocs_publishes_it():
    assert queries.doc_key("dev-guide/README.md") == queries.doc_key("dev-guide/index.html") == "dev-guide"
    assert queries.doc_key("README.md") == "index"


def test_a_bare_headings_section_is_landed_on_in_a_subsection_and_no_other_heading_is():
    text = "## Build directories\n\n### theme\n\nSets the theme.\n\n## Preview\n\nServes the site.\n\n### dev_addr\n"
    assert queries.bare_headings(text) == {"Build directories"}
    bare = queries.Query("Build directories", "heading", "config", heading="Build directories", bare=True)
    full = queries.Query("Preview", "heading", "config", heading="Preview")
    assert passage_matches(bare, ["Configuration", "Build directories", "theme"], "Sets the theme.")
    assert not passage_matches(full, ["Configuration", "Preview", "dev_addr"], "")
    assert passage_matches(full, ["Configuration", "Preview"], "Serves the site.")
    assert not passage_matches(bare, ["Configuration", "Preview"], "Serves the site.")


def test_an_empty_anchor_or_comment_under_a_heading_leaves_it_bare():
    # bem-core's inherit.ru.md: `<a name="runmode-declare"></a>` between a heading and its first subheading.
    text = ('### Способы использования функции\n\n<a name="runmode-declare"></a>\n\n#### Объявление базового класса\n\n'
            "Текст.\n\n### Обзор\n\n<!-- note -->\n\n#### Пример\n\n### Описание\n\n<a href=\"#x\">ссылка</a>\n\n#### Ещё\n")
    assert queries.bare_headings(text) == {"Способы использования функции", "Обзор"}


def test_a_chinese_sentence_whose_code_spans_the_judge_dropped_matches_the_passage_that_shows_them():
    _, sentences = queries.parse("在标签指定`name`属性的情况下，`v-model`的值为当前标签的`name`\n")
    query = queries.Query("在标签指定", "words", "tabbar", sentence=sentences[0])
    assert passage_matches(query, ["Tabbar"], "在标签指定name属性的情况下，v-model的值为当前标签的name")
    assert not passage_matches(query, ["Tabbar"], "在标签指定name属性的情况下")


def write_pages(folder: Path, pages: list[str]) -> list[Path]:
    for i, page in enumerate(pages):
        (folder / f"p{i}.md").write_text(page, encoding="utf-8")
    return [Path(f"p{i}.md") for i in range(len(pages))]


def test_a_chinese_runs_rarity_counts_every_page_that_shows_it_inside_a_longer_run(tmp_path):
    # 使用 ("use") stands alone between commas only on p0, but nine more pages say it inside 我们使用它;
    # 签名校验 is on p0 alone.  The rarest run of p0's sentence is 签名校验, as a reader searching finds it.
    files = write_pages(tmp_path, ["使用，签名校验，这里有很多汉字组成的句子。\n"] + ["我们使用它来做很多事情吧。\n"] * 9)
    _, pool = queries.query_pools(Corpus("zh-test", tmp_path, "zh", "zh"), files)
    assert [(q.text, q.doc) for q in pool] == [("签名校验", "p0")]


def test_a_sentence_whose_runs_every_page_shows_makes_no_query(tmp_path):
    files = write_pages(tmp_path, ["使用，请求，这里有很多汉字组成的句子。\n"] + ["我们使用它来做请求的事情。\n"] * 9)
    assert queries.query_pools(Corpus("zh-test", tmp_path, "zh", "zh"), files)[1] == []


def test_a_sentence_query_names_one_document(tmp_path):
    # "exercise caution" is the rarest pair of a sentence on p0 and of one on p1: it names no one page.
    # p2 says "hidden fragile" twice: one page, one query.
    filler = ("Plugins should change configuration when they must. Themes override base template. "
              "Each thing shown this page only. Another listed here.")
    files = write_pages(tmp_path, [
        "Plugins should exercise caution when they change configuration.\n",
        "Themes must exercise caution when they override base template.\n",
        "Each hidden fragile thing is shown on this page only.\n\nAnother hidden fragile thing is listed here.\n",
    ] + [f"{filler}\n"] * 17)
    _, pool = queries.query_pools(Corpus("en-test", tmp_path, "en", "en"), files)
    assert {(q.text, q.doc) for q in pool} == {("hidden fragile", "p2")}
    assert len(queries.draw(pool, 10, "seed")) == 1


def test_a_set_drawn_keeps_every_query_a_pool_change_does_not_touch():
    pool = [queries.Query(f"w{i} x{i}", "words", f"page{i % 37}", sentence=f"Sentence {i} of the page.")
            for i in range(400)]
    drawn = queries.draw(pool, 100, "seed")
    assert len(drawn) == 100 and queries.draw(pool[::-1], 100, "seed") == drawn  # the pool's order says nothing
    untouched = [q for q in pool if q not in drawn]
    assert queries.draw([q for q in pool if q not in untouched[:40]], 100, "seed") == drawn
    fewer = queries.draw([q for q in pool if q != drawn[0]], 100, "seed")
    assert fewer[:99] == drawn[1:]
    assert queries.draw(pool, 100, "other seed") != drawn
    assert queries.draw(pool, 0, "seed") == []


def test_a_set_drawn_holds_one_query_of_a_text():
    pool = [queries.Query("same words", "words", f"page{i}", sentence=f"Sentence {i}.") for i in range(5)]
    assert len(queries.draw(pool + [queries.Query("other", "words", "p", sentence="S.")], 10, "seed")) == 2


# --- every word the judge asks for is on the page -----------------------------------------------------

PROSE = ["reader", "sentence", "client", "timeout", "heading", "plugin", "theme", "server", "request", "answer"]
HIDDEN = ["bleach", "whitelist", "docstring", "members", "options", "toggle", "colour", "editor", "secret", "style"]
prose_words = st.lists(st.sampled_from(PROSE), min_size=6, max_size=9).map(" ".join)
hidden_words = st.lists(st.sampled_from(HIDDEN), min_size=3, max_size=6).map(" ".join)


@st.composite
def inline(draw) -> str:
    """A prose line: words a reader sees, marked up in the ways real docs mark them up."""
    words = draw(prose_words).split()
    at = draw(st.integers(0, len(words) - 1))
    words[at] = draw(st.sampled_from([
        "_{w}_", "**{w}**", "{w}_{w}", "[{w}](https://example.org/{h}_{h}/{h}){{.internal-link target=_blank}}",
        "`{h}`", "{w}&nbsp;{w}", "<kbd>{w}</kbd>",
    ])).format(w=words[at], h=draw(st.sampled_from(HIDDEN)))
    return " ".join(words) + "."


@st.composite
def block(draw) -> str:
    h = draw(hidden_words)
    return draw(st.sampled_from([
        "{p}\n", "{p}\n{p}\n", "## {p} {{: #{h0} }}\n", "```\n{h}\n```\n", "Code:\n\n    {h}\n    {h}\n",
        "* {p}\n  {p} [{h0}\n  {h0}](https://{h0}.org/{h0}) {h}\n\n    {p}\n\n        {h}\n",
        "!!! note \"{p}\"\n\n    {p}\n\n        {h}\n", "!!! note\n    {p}\n",
        "{h0} | {h0}\n---|---\n{h} | &nbsp; {h}\n", "<!--\n{h}\n\n{h}\n-->\n", "<style>\n{h}\n\n{h}\n</style>\n",
        "<div class=\"{h0}\">\n{h}\n</div>\n",
    ])).format(p=draw(inline()), h=h, h0=h.split()[0])


def shown(page: str, code_spans: bool) -> set[str]:
    """The words a reader sees on a rendered page outside code blocks, comments
    and styles; inside code spans too when ``code_spans`` (a heading keeps its code)."""
    hidden = r"<(pre|style|script)\b.*?</\1>|<!--.*?-->" + ("" if code_spans else r"|<code>.*?</code>")
    return _words(html.unescape(re.sub(r"<[^>]+>", "", re.sub(hidden, " ", page, flags=re.S))))


@settings(max_examples=300, deadline=None)
@given(st.lists(block(), min_size=1, max_size=6))
def test_every_word_of_a_judged_sentence_or_heading_is_shown_on_the_page(blocks):
    text = "\n".join(blocks)
    page = markdown.markdown(text, extensions=["admonition", "attr_list", "tables", "fenced_code"])
    headings, sentences = queries.parse(text)
    assert _words(" ".join(sentences)) <= shown(page, code_spans=False)
    assert _words(" ".join(headings)) <= shown(page, code_spans=True)


def test_a_passage_holds_a_chinese_sentence_whose_run_markup_set_apart():
    # The page drops the markup around 撰写本文时, which the judge's sentence
    # keeps as a run of its own; the passage says 在撰写本文时 in one run.
    import relevance

    sentence = "不过，在 撰写本文时 ，Swagger UI 并不支持显示 JSON Schema 中数据的多个示例。"
    query = queries.Query("撰写本文时", "words", "tutorial/schema-extra-example", sentence=sentence)
    page = "这样做时，这些示例会成为一部分。\n不过，在撰写本文时，Swagger UI 并不支持显示 JSON Schema 中数据的多个示例。"
    assert relevance.passage_matches(query, [], page)
    assert not relevance.passage_matches(query, [], page.replace("撰写", "编写"))
    assert not relevance.passage_matches(query, [], page.replace("Swagger", "Redoc"))
