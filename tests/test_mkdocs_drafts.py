"""Drafts whose front matter MkDocs cannot read never reach a plugin build (issue 21.5).

MkDocs ignores front matter it cannot parse and publishes the file, front matter
and all, as page text; the plugin makes each case an error naming the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_support import mkdocs, write_project

SECRET = "quokkanebula"
BODY = f"# Secret plans\n\nThe {SECRET} launch is not public.\n"
# name -> (draft source, line the error names)
UNREADABLE = {
    "colon in a value": (f"---\nvisibility: editor\ntitle: Q3: plan\n---\n{BODY}", 3),
    "tab indentation": (f"---\nvisibility: editor\ntags:\n\t- a\n---\n{BODY}", 4),
    "invalid date": (f"---\nvisibility: editor\ndate: 2024-02-30\n---\n{BODY}", 1),
    "blank line before ---": (f"\n---\nvisibility: editor\n---\n{BODY}", 2),
    "no line break after closing ---": (f"---\nvisibility: editor\n---", 1),
    "not a mapping": (f"---\n- visibility: editor\n---\n{BODY}", 1),
    "duplicate visibility": (f"---\nvisibility: editor\nvisibility: public\n---\n{BODY}", 3),
    "never closed": (f"---\nvisibility: editor\n\n{BODY}", 1),
}


def leaks(site: Path) -> list[str]:
    if not site.exists():
        return []
    return [str(p) for p in site.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]


@pytest.mark.parametrize("case", list(UNREADABLE))
def test_unreadable_front_matter_is_an_error_naming_the_file_not_a_public_page(tmp_path: Path, case: str):
    draft, line = UNREADABLE[case]
    if case == "no line break after closing ---":
        draft = f"---\nvisibility: editor\ntitle: {SECRET}\n---"
    config = write_project(tmp_path, {"index.md": "# Home\n\nPublic.\n", "plans.md": draft})
    done = mkdocs(config)  # no --strict: an error all the same
    assert done.returncode != 0, done.stderr
    assert f"plans.md:{line}: front matter" in done.stderr
    assert "Traceback" not in done.stderr
    assert leaks(tmp_path / "site") == []


def test_a_rebuild_with_an_unreadable_draft_added_leaves_no_trace_of_it(tmp_path: Path):
    config = write_project(tmp_path, {"index.md": "# Home\n\nPublic.\n"})
    assert mkdocs(config).returncode == 0
    (tmp_path / "docs" / "plans.md").write_text(UNREADABLE["colon in a value"][0], encoding="utf-8")
    assert mkdocs(config).returncode != 0
    assert leaks(tmp_path / "site") == []  # MkDocs itself empties site/ before plugins see the files


@pytest.mark.parametrize(("front", "message"), [
    ("draft: true", None),
    ("ｖｉｓｉｂｉｌｉｔｙ: editor", "plans.md:1: unknown key 'ｖｉｓｉｂｉｌｉｔｙ'; did you mean 'visibility'?"),
    ("draft: maybe", "plans.md:1: 'draft' must be true or false, got 'maybe'"),
])
def test_drafts_marked_otherwise_are_left_out_or_refused(tmp_path: Path, front: str, message: str | None):
    config = write_project(tmp_path, {"index.md": "# Home\n\nPublic.\n", "plans.md": f"---\n{front}\n---\n{BODY}"})
    done = mkdocs(config, "--strict")
    if message is None:
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "site" / "index.html").is_file()
    else:
        assert done.returncode != 0 and message in done.stderr
    assert leaks(tmp_path / "site") == []
