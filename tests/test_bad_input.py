"""Bad input: every case gets a clear ``path:line: message`` and the right exit code."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from citesearch.cli import main

GOOD = "---\ntitle: Fine\n---\n\n# Fine\n\nA good page.\n"

# (case, files to write, exact lines expected on stderr)
CASES = [
    (
        "invalid yaml",
        {"a.md": "---\ntitle: [unclosed\n---\nBody.\n"},
        ["a.md:3: invalid YAML in front matter: expected ',' or ']', but got '<stream end>'"],
    ),
    (
        "front matter that is not a mapping",
        {"a.md": "---\n- just\n- a list\n---\nBody.\n"},
        ["a.md:2: front matter must be a mapping of keys to values, got a list"],
    ),
    (
        "wrong field types",
        {"a.md": "---\ntitle: Fine\naliases: 3\nlang: [en]\n---\nBody.\n"},
        [
            "a.md:3: 'aliases' must be a list of old URLs, got a number",
            "a.md:4: 'lang' must be a string, got a list",
        ],
    ),
    (
        "a visibility typo",
        {"a.md": "---\nvisibility: publci\n---\nBody.\n"},
        ["a.md:2: 'visibility' must be 'public' or 'editor', got 'publci'; did you mean 'public'?"],
    ),
    (
        "unclosed front matter",
        {"a.md": "---\ntitle: Fine\n\nBody without an end.\n"},
        ["a.md:1: front matter starts with '---' but has no closing '---'"],
    ),
    (
        "non-UTF-8 bytes",
        {"a.md": b"# Title\n\nCaf\xe9 au lait.\n"},
        ["a.md:3: not valid UTF-8: byte 0xe9 at column 4"],
    ),
    # -- engineer A (issue 10, file-system safety): names that are not UTF-8, shown with \x escapes.
    # Symlinks, special files and output folders need more than file contents: tests/test_hostile_fs.py.
    (
        "a file name that is not UTF-8",
        {os.fsdecode(b"caf\xe9.md"): "Body.\n"},
        ["caf\\xe9.md:1: file name is not valid UTF-8; rename it"],
    ),
    (
        "a folder name that is not UTF-8",
        {os.fsdecode(b"caf\xe9") + "/a.md": GOOD},
        ["caf\\xe9:1: folder name is not valid UTF-8; rename it"],
    ),
    # -- end of engineer A's rows
    (
        "a binary file named .md",
        {"a.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
        ["a.md:1: binary file (contains NUL bytes), not Markdown"],
    ),
    (
        "duplicate ids from two paths",
        {"a.md": "---\nid: same\n---\nOne.\n", "b.md": "---\nid: same\n---\nTwo.\n"},
        ["b.md:2: duplicate id 'same': also used by a.md; change the 'id:' of one of them"],
    ),
    (
        "an id that tries to escape the output folder",
        {"a.md": "---\nid: ../../etc/passwd\n---\nBody.\n"},
        ["a.md:2: 'id' must be a lowercase slug like 'guide/install' (a-z, 0-9, '-', '_', '.', '/'), got '../../etc/passwd'"],
    ),
    (
        "an id in citesearch's own folders",
        {"a.md": "---\nid: search/manifest\n---\nBody.\n"},
        ["a.md:2: 'id' 'search/manifest' is reserved for citesearch's own files (assets/, search/)"],
    ),
    (
        "an alias that escapes the site",
        {"a.md": "---\naliases: ['../outside']\n---\nBody.\n"},
        ["a.md:2: alias '../outside' must be a path inside the site (no scheme, host or '..')"],
    ),
    (
        "an alias that is an absolute URL",
        {"a.md": "---\naliases: ['https://evil.example/x']\n---\nBody.\n"},
        ["a.md:2: alias 'https://evil.example/x' must be a path inside the site (no scheme, host or '..')"],
    ),
    (
        "an alias that collides with a page",
        {"a.md": "---\naliases: [b]\n---\nBody.\n", "b.md": GOOD},
        ["a.md:2: alias 'b' collides with the page b.html"],
    ),
    (
        "two documents claiming one alias",
        {"a.md": "---\naliases: [old]\n---\nA.\n", "b.md": "---\naliases: [old.html]\n---\nB.\n"},
        ["b.md:2: alias 'old.html' is also an alias of a.md"],
    ),
    (
        "deeply nested lists",
        {"a.md": "".join("    " * d + f"- level {d}\n" for d in range(120))},
        ["a.md:102: lists or quotes nested 101 levels deep; at most 100 can be rendered"],
    ),
    (
        "a public page linking to an editor-only document",
        {"a.md": "# A\n\nSee [the plan](plan.md).\n", "plan.md": "---\nvisibility: editor\n---\nSecret plan.\n"},
        ["a.md:3: public page links to editor-only document plan.md"],
    ),
    (
        "a file in the folder citesearch writes its search files into",
        {"search/a.md": "Body.\n"},
        ["search/a.md:1: cannot derive an id from this file name; set 'id:' in the front matter"],
    ),
    # --- B (issue 10): front matter that would publish a draft, YAML bombs, heavy Markdown, heading ids ---
    (
        "front matter opened with a trailing space",
        {"a.md": "--- \nVisibility: editor\n---\nSecret.\n"},
        ["a.md:2: unknown key 'Visibility'; did you mean 'visibility'?"],
    ),
    (
        "a misspelt visibility key",
        {"a.md": "---\ntitle: Plan\nvisiblity: editor\n---\nSecret.\n"},
        ["a.md:3: unknown key 'visiblity'; did you mean 'visibility'?"],
    ),
    (
        "a duplicate front matter key",
        {"a.md": "---\nvisibility: editor\ntitle: Plan\nvisibility: public\n---\nSecret.\n"},
        ["a.md:4: front matter: duplicate key 'visibility' (also on line 2)"],
    ),
    (
        "another tool's draft flag",
        {"a.md": "---\ndraft: true\n---\nSecret.\n"},
        ["a.md:2: 'draft: true' does not hide a page in citesearch; write 'visibility: editor' to keep it out of the public site"],
    ),
    (
        "front matter after blank lines",
        {"a.md": "\n---\nvisibility: editor\n---\nSecret.\n"},
        ["a.md:2: front matter must start on line 1; remove the blank lines before '---'"],
    ),
    (
        "front matter keys without the opening ---",
        {"a.md": "visibility: editor\n---\nSecret.\n"},
        ["a.md:1: this looks like front matter but has no '---' line above it"],
    ),
    (
        "a YAML alias bomb in front matter",
        {"a.md": "---\ntitle: T\na: &a [x, x, x]\nb: [*a, *a, *a]\n---\nBody.\n"},
        ["a.md:3: front matter: anchors ('&a') are not allowed; write the value out"],
    ),
    (
        "a document over the size limit",
        {"citesearch.yml": "max_document_kib: 1\n", "a.md": "word " * 500},
        ["a.md:1: document is 2 KiB; at most 1 KiB can be built (max_document_kib in citesearch.yml)"],
    ),
    (
        "a paragraph of open brackets",
        {"a.md": "# A\n\n" + "[" * 3000 + "\n"},
        ["a.md:3: too many '[' without a matching ']' (or nested too deep) in one paragraph to render; escape literal ones as '\\['"],
    ),
    (
        "setext headings without blank lines",
        {"a.md": "# A\n\nIntro.\n\n" + "t\n=\n" * 2100},
        ["a.md:5: 2100 headings, rules or admonitions in one paragraph are too many to render; put blank lines between them"],
    ),
    (
        "tags that never close",
        {"a.md": "<a " * 2100},
        ["a.md:1: too many '<' starting a tag that is never closed with '>' in one paragraph to render; write '&lt;' instead"],
    ),
    (
        "duplicate explicit heading ids",
        {"a.md": "# A\n\n## One { #x }\n\nText.\n\n## Two { #x }\n\nMore.\n"},
        ["a.md:7: heading id 'x' is already used by the heading on line 3; each heading needs its own id"],
    ),
    # --- end of B's rows ---
    # A site path cannot be a file and a folder at once: caught as content, not as a failed write.
    (
        "an asset folder named like a page",
        {"a.md": GOOD, "a.html/x.png": b"\x89PNG"},
        ["a.html/x.png:1: file would be written inside a.html, which is the page of a.md; rename the folder a.html"],
    ),
    (
        "a page inside a folder named like a page",
        {"a.md": GOOD, "a.html/b.md": GOOD},
        ["a.html/b.md:1: its page a.html/b.html would be written inside a.html, which is the page of a.md; "
         "rename the folder a.html"],
    ),
    (
        "an asset folder named like an alias",
        {"a.md": "---\naliases: [old]\n---\nBody.\n", "old.html/x.png": b"\x89PNG"},
        ["old.html/x.png:1: file would be written inside old.html, which is a redirect for an alias of a.md; "
         "rename the folder old.html"],
    ),
    (
        "an asset folder named like the generated home page",
        {"index.html/x.png": b"\x89PNG"},
        ["index.html/x.png:1: file would be written inside index.html, which is a file citesearch writes; "
         "rename the folder index.html"],
    ),
    (
        "a file where citesearch's search folder goes",
        {"search": "not a folder"},
        ["search:1: search collides with the folder search/ that citesearch writes its own files into; rename it"],
    ),
    # --- issue 21 (trusta): root errors only, other Markdown extensions, invalid dates, '...' in front matter ---
    (
        "bad front matter in a page that nav lists and others link to: the root error only",
        {
            "citesearch.yml": "nav:\n  - ok.md\n  - guide.md\n  - sub/deep.md\n",
            "guide.md": "---\ntitle: Guide\nlang: [en]\n---\n# Guide\n\n## Setup\n",
            "sub/deep.md": "---\ntitle: [unclosed\n---\n# Deep\n",
            "links.md": "See [guide](guide.md), [setup](guide.md#setup) and [deep](sub/deep.md).\n",
        },
        [
            "guide.md:3: 'lang' must be a string, got a list",
            "sub/deep.md:3: invalid YAML in front matter: expected ',' or ']', but got '<stream end>'",
        ],
    ),
    (
        "a draft saved as .markdown, linked from a public page",
        {"a.md": "# A\n\nSee [the notes](notes.markdown).\n", "notes.markdown": "---\nvisibility: editor\n---\nSecret.\n"},
        ["a.md:3: public page links to editor-only document notes.markdown"],
    ),
    (
        "a date that does not exist in front matter",
        {"a.md": "---\ntitle: Plan\ndate: 2024-02-30\n---\nBody.\n"},
        ["a.md:3: front matter: invalid date '2024-02-30' (day is out of range for month); quote it to keep it as text"],
    ),
    (
        "a time that does not exist in front matter",
        {"a.md": "---\nupdated: 2024-01-31 25:00:00\n---\nBody.\n"},
        ["a.md:2: front matter: invalid date '2024-01-31 25:00:00' (hour must be in 0..23); quote it to keep it as text"],
    ),
    (
        "front matter ended early by '...' with visibility after it",
        {"a.md": "---\ntitle: Plan\n...\nvisibility: editor\n---\nSecret.\n"},
        ["a.md:4: front matter ended by '...' on line 3, so 'visibility' would be published as page text; remove the '...' line"],
    ),
    (
        "front matter ended early by '...' with any key after it",
        {"a.md": "---\ntitle: Plan\n...\n\nstatus: draft\n"},
        ["a.md:5: front matter ended by '...' on line 3, so 'status' would be published as page text; remove the '...' line"],
    ),
    # --- end of issue 21 (trusta) rows
    # --- trustb (issue 21: 8, 12, 20): whole-document raw HTML, names too long to write, control characters ---
    (
        "an unclosed tag in every paragraph",
        {"a.md": "# A\n\nIntro.\n\n" + "</a\n\n" * 2000},
        ["a.md:5: too many '<' starting a tag, comment or processing instruction that is never closed with '>' "
         "in this document to render; write '&lt;' instead"],
    ),
    (
        "a file name with an escape character",
        {"a\x1b[2Jb.md": "---\nvisibility: publci\n---\nBody.\n"},
        ["a\\x1b[2Jb.md:2: 'visibility' must be 'public' or 'editor', got 'publci'; did you mean 'public'?"],
    ),
    (
        "a page name over 255 bytes",
        {"x" * 252 + ".md": GOOD},
        ["x" * 252 + ".md:1: its page " + "x" * 252 + ".html would have a name of 257 bytes; file systems allow at most "
         "255 bytes per name: shorten the file name, or set a shorter 'id:' or alias"],
    ),
    (
        "an alias over 255 bytes",
        {"a.md": "---\naliases: [" + "y" * 260 + "]\n---\nBody.\n"},
        ["a.md:1: its alias " + "y" * 260 + ".html would have a name of 265 bytes; file systems allow at most "
         "255 bytes per name: shorten the file name, or set a shorter 'id:' or alias"],
    ),
    (
        "a site path too long to write",
        {"/".join(["d" * 200] * 16) + "/a.md": GOOD},
        ["/".join(["d" * 200] * 16) + "/a.md:1: its page " + "/".join(["d" * 200] * 16) + "/a.html would have a path "
         "of 3,222 bytes; at most 3,072 can be written: use fewer or shorter folders"],
    ),
    # --- end of trustb's rows ---
]


def write(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


@pytest.mark.parametrize("case,files,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_with_file_and_line(tmp_path, capsys, case, files, expected):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, **files})
    out = tmp_path / "site"
    assert main(["build", str(content), "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    errors = [line for line in err if not line.endswith("(warning)")]
    assert errors[:-1] == expected
    assert errors[-1] == f"citesearch: {len(expected)} error(s); nothing was written"
    assert not out.exists()


@pytest.mark.parametrize("case,files,expected", CASES, ids=[c[0] for c in CASES])
def test_check_reports_every_error_build_would(tmp_path, capsys, case, files, expected):
    """`check` passing while `build` fails (names too long to write, say) would make it worthless."""
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, **files})
    assert main(["check", str(content), "--cache-dir", str(tmp_path / "cache")]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if not line.endswith("(warning)")]
    assert errors == [*expected, f"citesearch: {len(expected)} error(s); nothing was written"]


def test_every_error_is_listed_at_once_with_the_rest_of_the_site_checked(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, **CASES[0][1], "b.md": "---\nvisibility: edtor\n---\n", "c.md": b"\xff"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "a.md:3: invalid YAML" in err and "b.md:2: 'visibility'" in err and "c.md:1: not valid UTF-8" in err
    assert "3 error(s)" in err


@pytest.mark.parametrize(
    "files,warning",
    [
        ({"empty.md": ""}, "empty.md:1: document has no content (warning)"),
        ({"only.md": "---\ntitle: Only front matter\n---\n"}, "only.md:4: document has no content (warning)"),
        ({"a.md": "See [missing](nowhere.md).\n"}, "a.md:1: broken link: nowhere.md does not exist (warning)"),
        ({"a.md": "See [part](ok.md#nope).\n"}, "a.md:1: broken link: ok.md has no anchor '#nope' (warning)"),
        ({"a.md": "Jump [here](#nowhere).\n"}, "a.md:1: link to missing anchor '#nowhere' on this page (warning)"),
    ],
)
def test_soft_problems_are_warnings_and_strict_makes_them_errors(tmp_path, capsys, files, warning):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, **files})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0
    assert warning in capsys.readouterr().err.splitlines()
    assert main(["build", str(content), "--out", str(tmp_path / "strict"), "--strict"]) == 1
    assert warning.replace(" (warning)", " (warning, --strict)") in capsys.readouterr().err.splitlines()
    assert not (tmp_path / "strict").exists()


def test_a_symlink_loop_in_content_does_not_hang_the_build(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD})
    os.symlink(content, content / "loop")
    os.symlink(content / "self.md", content / "self.md")
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert "loop:1: symlinked folder is not followed (warning)" in err
    assert "self.md:1: cannot read file: Too many levels of symbolic links" in err


def test_raw_html_is_kept_in_pages_but_scripts_never_reach_the_search_text(tmp_path):
    content = tmp_path / "content"
    write(content, {"a.md": "# A\n\n<div class=\"x\">visible<script>alert('boom')</script></div>\n\nAfter.\n"})
    out = tmp_path / "site"
    assert main(["build", str(content), "--out", str(out)]) == 0
    assert "<script>alert('boom')</script>" in (out / "a.html").read_text()
    texts = "".join(p.read_text() for p in (out / "search/chunks").iterdir())
    assert "visible" in texts and "alert" not in texts


def test_a_twenty_megabyte_document_builds_in_bounded_memory(tmp_path):
    paragraph = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor. " * 10
    body = "".join(f"## Part {i}\n\n{paragraph}\n\n" for i in range(20_000_000 // (len(paragraph) + 20)))
    write(tmp_path / "content", {"big.md": "# Big\n\n" + body, "citesearch.yml": "max_document_kib: 32768\n"})
    # A child process, so its peak memory is measured alone.
    subprocess.run(
        [sys.executable, "-m", "citesearch", "build", str(tmp_path / "content"), "--out", str(tmp_path / "site")],
        check=True, capture_output=True,
    )
    assert (tmp_path / "site/big.html").stat().st_size > 20_000_000
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kib < 2 * 1024 * 1024, f"peak memory {peak_kib / 1024:.0f} MiB for a 20 MB document"


def test_config_errors_exit_2_with_a_suggestion(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "citesearch.yml": "titel: Docs\nchunk_budget: -5\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "unknown option 'titel' (did you mean 'title'?)" in err
    assert "'chunk_budget' must be a whole number of at least 50, got -5" in err


def test_a_date_that_does_not_exist_in_citesearch_yml_is_a_located_config_error(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "citesearch.yml": "title: Docs\nreleased: 2024-02-30\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"citesearch: error: {content / 'citesearch.yml'}:2: invalid date '2024-02-30' (day is out of range for month); "
        "quote it to keep it as text"
    ]


def test_front_matter_ended_by_dots_still_builds_when_no_key_follows(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"a.md": "---\ntitle: Dotted\ndate: 2024-02-29\n...\n\nNote the body.\n",
                    "b.md": "---\ntitle: Link\n...\nhttps://example.org is where it lives.\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 0
    assert "https://example.org is where it lives." in (tmp_path / "site/b.html").read_text(encoding="utf-8")
    html = (tmp_path / "site/a.html").read_text(encoding="utf-8")
    assert "<title>Dotted" in html and "Note the body." in html and "title:" not in html


def test_nav_lists_a_missing_file_is_an_error_and_an_unlisted_file_a_warning(tmp_path, capsys):
    content = tmp_path / "content"
    write(content, {"ok.md": GOOD, "extra.md": GOOD, "citesearch.yml": "nav:\n  - ok.md\n  - lost.md\n"})
    assert main(["build", str(content), "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert "citesearch.yml:3: nav lists lost.md, which does not exist" in err
    assert "extra.md:1: extra.md is not listed in nav (warning)" in err


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main(["build", str(tmp_path / "missing")]) == 2
    assert "content folder not found" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["build", "--role", "admin"])
    assert exc.value.code == 2


# --- serve --port (issue 10, class 10): a usage error, never a traceback -----

SERVE_PORT_CASES = [
    ("70000", "citesearch: error: argument --port: port must be a whole number from 0 to 65535, got '70000'"),
    ("-1", "citesearch: error: argument --port: port must be a whole number from 0 to 65535, got '-1'"),
    ("http", "citesearch: error: argument --port: port must be a whole number from 0 to 65535, got 'http'"),
    ("80.5", "citesearch: error: argument --port: port must be a whole number from 0 to 65535, got '80.5'"),
]


@pytest.mark.parametrize("port,expected", SERVE_PORT_CASES, ids=[c[0] for c in SERVE_PORT_CASES])
def test_a_port_out_of_range_or_not_a_number_exits_2(tmp_path, capsys, port, expected):
    write(tmp_path, {"ok.md": GOOD})
    with pytest.raises(SystemExit) as exc:
        main(["serve", str(tmp_path), f"--port={port}"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == expected
