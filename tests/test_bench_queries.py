"""The judged queries' source text (bench/queries.py): what a page shows, so the judge asks for what is there."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import queries  # noqa: E402


def test_a_heading_keeps_the_underscores_of_its_code_and_drops_emphasis():
    headings, _ = queries.parse("## The `target_feature` value in `#[cfg]`\n\n## A *very* __bold__ `__init__` move\n")
    assert headings == ["The target_feature value in #[cfg]", "A very bold __init__ move"]


def test_a_sentence_does_not_run_across_a_code_block():
    text = "It might turn into the following:\n```rust\nlet x = 1;\n```\nIt is untested whether this works.\n"
    _, sentences = queries.parse(text)
    assert sentences == ["It might turn into the following:", "It is untested whether this works."]


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
