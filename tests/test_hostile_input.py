"""Hostile or careless input (issue 10, classes 5, 6, 8 and heading ids): a message, never a leak, hang or traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.cli import main
from citesearch.config import Config
from citesearch.pipeline.frontmatter import split_front_matter, validate_front_matter
from citesearch.pipeline.limits import quadratic_problem

GOOD = "---\ntitle: Fine\n---\n\n# Fine\n\nA good page.\n"
DRAFT_BODY = "Secret launch plan.\n"


def write(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def site_text(out: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in sorted(out.rglob("*")) if p.is_file())


# Class 5: front matter that is not recognised publishes a draft.

@pytest.mark.parametrize("opening", ["--- \n", "---\t\n", "\ufeff---\n", "\ufeff---  \n"], ids=["space", "tab", "bom", "bom+spaces"])
def test_front_matter_with_trailing_blanks_or_a_bom_keeps_the_draft_out_of_the_public_site(tmp_path, opening):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "plan.md": f"{opening}visibility: editor\n---\n{DRAFT_BODY}"})
    assert main(["build", str(content), "--out", str(tmp_path / "public")]) == 0
    public = site_text(tmp_path / "public")
    assert "Secret launch" not in public and "visibility" not in public
    assert main(["build", str(content), "--out", str(tmp_path / "editor"), "--role", "editor"]) == 0
    assert "Secret launch" in site_text(tmp_path / "editor")


_blank = st.text(" \t", max_size=3)


@settings(max_examples=200, deadline=None)
@given(
    bom=st.booleans(),
    open_blank=_blank,
    close_blank=_blank,
    close=st.sampled_from(["---", "..."]),
    key=st.sampled_from(["visibility", "Visibility", "VISIBILITY", "visiblity", "visibilty", " visibility"]),
    value=st.sampled_from(["editor", "Editor", "editor ", "'editor'", "true", "[editor]", ""]),
    before=st.sampled_from(["", "title: T\n", "author: me\n"]),
)
def test_a_document_meant_as_a_draft_is_a_draft_or_an_error_never_public(bom, open_blank, close_blank, close, key, value, before):
    text = ("\ufeff" if bom else "") + f"---{open_blank}\n{before}{key}: {value}\n{close}{close_blank}\n{DRAFT_BODY}"
    front, body, _, problems = split_front_matter(text, "a.md")
    if not problems:
        fields, problems = validate_front_matter(front, "a.md", Config())
    assert problems or fields.get("visibility") == "editor"
    assert DRAFT_BODY in body and "visibility" not in body.lower()


@pytest.mark.parametrize("flag", ["draft: true", "hidden: yes", "private: 1", "unlisted: true", "published: false", "visible: no", "Draft: True"])
def test_another_tools_way_of_hiding_a_page_is_an_error_not_a_published_page(tmp_path, capsys, flag):
    content = tmp_path / "content"
    write(content, {"a.md": f"---\ntitle: Plan\n{flag}\n---\n{DRAFT_BODY}"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    assert "a.md:3: '" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_huge_front_matter_is_refused_before_yaml_parses_it(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"a.md": "---\ntitle: T\nnotes: [" + "1, " * 30_000 + "1]\n---\nBody.\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    assert capsys.readouterr().err.splitlines()[0] == "a.md:1: front matter is 87 KiB; at most 64 KiB is read"


def test_truly_unknown_keys_are_still_kept_as_metadata(tmp_path):
    content = tmp_path / "content"
    write(content, {"a.md": "---\nhide:\n  - navigation\nauthor: me\ndraft: false\n---\n# A\n\nText.\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0


# Class 8: YAML bombs and unbounded values.

def config_error(tmp_path: Path, capsys, config: str) -> str:
    """What a build with this citesearch.yml prints; it must exit 2."""
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "citesearch.yml": config})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 2
    return capsys.readouterr().err


def billion_laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [" + ",".join([f"*{previous}"] * 9) + "]")
    return "\n".join(lines) + "\ntitle: *i\n"


@pytest.mark.parametrize(
    "config,expected",
    [
        (billion_laughs(), "citesearch.yml:1: anchors ('&a') are not allowed; write the value out"),
        ("title: Docs\nbase: &b x\n", "citesearch.yml:2: anchors ('&b') are not allowed; write the value out"),
        ("title: A\nlang: en\ntitle: B\n", "citesearch.yml:3: duplicate key 'title' (also on line 1)"),
        ("chunk_budget: " + "9" * 5000 + "\n", "citesearch.yml:1: number too large"),
        ("nav: " + "[" * 200 + "]" * 200 + "\n", "citesearch.yml:1: values nested more than 50 levels deep"),
    ],
    ids=["billion laughs", "an anchor", "duplicate key", "a 5000-digit number", "deep nesting"],
)
def test_hostile_yaml_in_the_config_exits_2_with_one_short_line(tmp_path, capsys, config, expected):
    assert config_error(tmp_path, capsys, config) == f"citesearch: error: {tmp_path}/content/{expected}\n"


@pytest.mark.parametrize(
    "config,expected",
    [
        ("chunk_budget: [" + "1, " * 20_000 + "1]\n", "'chunk_budget' must be a whole number of at least 50, got <list>"),
        ("lang: " + "x" * 100_000 + "\n", "'lang' must be a lowercase language code like 'en' or 'zh', got 'xxxxxxxxxx"),
        ("nav:\n  - " + "y" * 100_000 + "\n", "'nav' entries must be .md paths (or {Title: path.md}), got 'yyyyyyyyyy"),
        ("z" * 1000 + ": 1\n", "unknown option 'zzzzzzzzz"),
        ("max_document_kib: 0\n", "'max_document_kib' must be a whole number of at least 1, got 0"),
    ],
    ids=["a list", "a long string", "a long nav entry", "a long key", "a zero size limit"],
)
def test_config_messages_quote_user_values_briefly(tmp_path, capsys, config, expected):
    err = config_error(tmp_path, capsys, config)
    assert expected in err
    assert len(err) < 300


# Class 6: sizes and Markdown that Python-Markdown renders in quadratic time.

def test_the_default_size_limit_rejects_a_document_just_over_two_mib(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "big.md": "word " * (2 * 1024 * 1024 // 5) + "overflow" * 200})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "big.md:1: document is 2,050 KiB; at most 2,048 KiB can be built (max_document_kib in citesearch.yml)"
    )


def test_the_size_limit_can_be_raised_in_the_config(tmp_path):
    content = tmp_path / "content"
    write(content, {"citesearch.yml": "max_document_kib: 2\n", "a.md": "# A\n\n" + "word " * 300 + "\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0


@pytest.mark.parametrize(
    "paragraph",
    [
        "[" * 3000,
        "[" * 2500 + "]" * 2500,
        "[](" * 2000,
        "<a " * 2100,
        "t\n=\n" * 2100,
        "# h\n" * 2100,
        "* * *\n" * 2100,
        "!!! note\n" * 2100,
        "\\" * 40_000,
        "`a` " * 14_000,
    ],
    ids=["open brackets", "nested brackets", "open link targets", "open tags", "setext headings", "atx headings", "rules",
         "admonitions", "backslashes", "code spans"],
)
def test_each_quadratic_path_is_caught_at_the_line_it_starts(paragraph):
    body = "# Title\n\nFine text.\n\n" + paragraph + "\n\nAfter.\n"
    problem = quadratic_problem(body, 10, "a.md")
    assert problem is not None and problem.line == 14


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["[", "]", "(", ")", "](", "<a", ">", " ", "word", "\n", "\n\n", "# h\n", "***\n"]), max_size=400))
def test_ordinary_sized_paragraphs_are_never_rejected(pieces):
    # Anything under 2,000 characters per paragraph is cheap for every path, whatever it holds.
    assert quadratic_problem("".join(pieces)[:1999], 1, "a.md") is None


def test_a_blank_line_ends_the_work_of_every_quadratic_path(tmp_path):
    # The same characters, split into paragraphs, render quickly and are accepted.
    content = tmp_path / "content"
    write(content, {"a.md": "# A\n\n" + "\n\n".join(["[" * 60 + " <a " * 20 + "\nt\n="] * 40) + "\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0


# Duplicate explicit heading ids.

def test_heading_ids_in_fenced_code_are_not_headings(tmp_path):
    content = tmp_path / "content"
    code = "```markdown\n## A { #x }\n```\n\n~~~~\n## B { #x }\n~~~~\n"
    write(content, {"a.md": "# A\n\n## Real { #x }\n\n" + code})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0


def test_duplicate_setext_and_atx_heading_ids_name_both_lines(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"a.md": "Intro { #top }\n============\n\nText.\n\n### Again {: #top .wide }\n\nMore.\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "a.md:6: heading id 'top' is already used by the heading on line 1; each heading needs its own id"
    )
