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
