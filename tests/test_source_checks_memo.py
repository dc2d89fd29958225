"""Source checks are remembered across loads (``serve`` loads every document on each save).

What is remembered must follow every edit: a new problem shows on the next
load, a fixed one goes away, and lines move with the front matter.
"""

from __future__ import annotations

from citesearch.config import Config
from citesearch.pipeline.load import load_documents

CLEAN = "# Title\n\n## One { #same }\n\ntext\n\n## Two { #other }\n\nmore\n"
DUPLICATE = CLEAN.replace("#other", "#same")


def _errors(content, config=Config()):
    return [(p.path, p.line, p.message.split(";")[0]) for p in load_documents(content, config).errors]


def test_edits_between_loads_are_checked_again(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(CLEAN, encoding="utf-8")
    assert _errors(tmp_path) == []
    page.write_text(DUPLICATE, encoding="utf-8")
    assert _errors(tmp_path) == [("page.md", 7, "heading id 'same' is already used by the heading on line 3")]
    page.write_text(CLEAN, encoding="utf-8")
    assert _errors(tmp_path) == []


def test_same_body_under_longer_front_matter_reports_the_new_lines(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(DUPLICATE, encoding="utf-8")
    assert [line for _, line, _ in _errors(tmp_path)] == [7]
    page.write_text("---\ntitle: T\n---\n" + DUPLICATE, encoding="utf-8")
    assert [line for _, line, _ in _errors(tmp_path)] == [10]


def test_same_body_in_another_file_is_blamed_on_that_file(tmp_path):
    (tmp_path / "a.md").write_text(DUPLICATE, encoding="utf-8")
    assert [path for path, _, _ in _errors(tmp_path)] == ["a.md"]
    (tmp_path / "a.md").rename(tmp_path / "b.md")
    assert [path for path, _, _ in _errors(tmp_path)] == ["b.md"]


def test_a_new_size_limit_applies_to_unchanged_documents(tmp_path):
    (tmp_path / "page.md").write_text(CLEAN + "x" * 3000, encoding="utf-8")
    assert _errors(tmp_path) == []
    assert [m for _, _, m in _errors(tmp_path, Config(max_document_kib=2))] == ["document is 3 KiB"]
