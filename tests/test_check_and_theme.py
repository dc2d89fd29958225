"""`citesearch check` validates like a build without writing; a broken template is a message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citesearch import ContentError, build
from citesearch.cli import main
from citesearch.pipeline import build as build_module
from citesearch.pipeline.render import theme_dir


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_reports_what_build_would_and_writes_no_site(basic_copy: Path, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (basic_copy / "broken.md").write_text("# Broken\n\nSee [gone](gone.md).\n", encoding="utf-8")

    assert main(["check", str(basic_copy)]) == 0
    err = capsys.readouterr().err
    assert "broken.md:3: broken link: gone.md does not exist (warning)" in err
    assert "nothing written" in err
    assert not (tmp_path / "site").exists()

    assert main(["check", str(basic_copy), "--strict"]) == 1
    assert "broken.md:3: broken link: gone.md does not exist (warning, --strict)" in capsys.readouterr().err


def test_check_fails_on_content_errors_like_build(basic_copy: Path, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (basic_copy / "bad.md").write_text("---\nvisibility: publci\n---\nBody.\n", encoding="utf-8")
    assert main(["check", str(basic_copy)]) == 1
    assert "bad.md:2: 'visibility' must be 'public' or 'editor'" in capsys.readouterr().err
    assert main(["build", str(basic_copy), "--out", str(tmp_path / "site")]) == 1
    assert not (tmp_path / "site").exists()


def _theme_with(tmp_path: Path, template: str, text: str) -> Path:
    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    (theme / "templates" / template).write_text(text, encoding="utf-8")
    return theme


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<html>\n{% if title %}\n<p>never closed</p>\n", (
                "page.html:2: template error: Unexpected end of template. Jinja was looking for the following"
                " tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'."
            ),),
        ("<html>\n\n{{ no_such_variable }}\n", "page.html:3: template error: 'no_such_variable' is undefined"),
    ],
    ids=["syntax", "undefined"],
)
def test_a_broken_template_is_reported_as_template_line_message(basic_copy: Path, tmp_path: Path, text: str, expected: str):
    theme = _theme_with(tmp_path, "page.html", text)
    with pytest.raises(ContentError) as caught:
        build(basic_copy, tmp_path / "site", theme=theme, no_cache=True)
    assert [str(p) for p in caught.value.problems] == [f"{theme / 'templates' / expected}"]
    assert not (tmp_path / "site").exists()


def test_cli_build_prints_a_template_error_not_a_traceback(tmp_path: Path, basic_copy: Path, monkeypatch, capsys):
    site = tmp_path / "site"
    assert main(["build", str(basic_copy), "--out", str(site)]) == 0
    before = _files(site)
    theme = _theme_with(tmp_path, "page.html", "{{ content | no_such_filter }}\n")
    monkeypatch.setattr(build_module, "theme_dir", lambda: theme)
    capsys.readouterr()

    assert main(["build", str(basic_copy), "--out", str(site), "--no-cache"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"{theme / 'templates' / 'page.html'}:1: template error: No filter named 'no_such_filter'." in err
    assert _files(site) == before


def test_alias_problems_name_the_alias_line_from_the_loaded_front_matter(basic_copy: Path, tmp_path: Path, capsys):
    # The alias text also appears earlier in the file: searching the source for
    # it (as check once did) blamed the title's line.
    (basic_copy / "b.md").write_text("# B\n\nPage b.\n", encoding="utf-8")
    (basic_copy / "a.md").write_text(
        "---\ntitle: Moved from b\naliases:\n  - ok/one\n  - b\n---\nBody.\n", encoding="utf-8"
    )
    assert main(["check", str(basic_copy)]) == 1
    assert "a.md:5: alias 'b' collides with the page b.html" in capsys.readouterr().err


def test_a_missing_nav_entry_is_blamed_on_its_own_line(tmp_path: Path, capsys):
    # The path also appears earlier in the file: searching the text for it (as
    # check once did, re-reading citesearch.yml) blamed the title's line.
    content = tmp_path / "content"
    content.mkdir()
    (content / "ok.md").write_text("# Ok\n\nFine.\n", encoding="utf-8")
    (content / "citesearch.yml").write_text("title: Notes on lost.md\nnav:\n  - ok.md\n  - lost.md\n", encoding="utf-8")
    assert main(["check", str(content)]) == 1
    assert "citesearch.yml:4: nav lists lost.md, which does not exist" in capsys.readouterr().err.splitlines()
