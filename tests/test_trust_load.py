"""Issue 21 (trust, round 3), what a careless content folder did to a real ``citesearch`` process.

Root errors only (3), draft copies under other names (6), every locale alike
(13), folders without permission (17) and folders 1,000 deep (18). Each test
runs the command as a reader would, in a child process.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesearch.pipeline.load import find_sources
from citesearch.pipeline.markdown_names import MARKDOWN_SUFFIXES, is_markdown, without_markdown_suffix
from citesearch.pipeline.source_files import walk

MARKER = "ZQX-SECRET-PLAN-7731"
DRAFT = f"---\nvisibility: editor\n---\n# Plan\n\nThe {MARKER} plan.\n"
PAGE = "# Page\n\nA public page.\n"


def citesearch(*args: str, cwd: Path, env: dict | None = None, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "citesearch", *args], cwd=cwd, env=env, capture_output=True, timeout=300
    )


def lines(stream: bytes) -> list[str]:
    return stream.decode("utf-8").splitlines()


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def site_files(site: Path) -> dict[str, str]:
    """Every file of a built site with a digest of its bytes."""
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*")) if p.is_file()
    }


# -- 3: one bad front matter value is one error, with no false follow-ups


@pytest.mark.parametrize("command", ["check", "build"])
def test_one_bad_front_matter_value_gives_its_own_error_and_no_false_follow_ups(tmp_path, command):
    write(tmp_path / "docs", {
        "citesearch.yml": "nav:\n  - index.md\n  - getting-started.md\n  - guide/usage.md\n",
        "index.md": "# Home\n\nStart with [getting started](getting-started.md) and its [install](getting-started.md#install).\n",
        "getting-started.md": "---\ntitle: Getting started\nvisibility: publci\n---\n# Getting started\n\n## Install { #install }\n\nRun it.\n",
        "guide/usage.md": "# Usage\n\nFirst [install](../getting-started.md#install), then [start](../getting-started.md).\n",
    })
    done = citesearch(command, "docs", *(["--out", "site"] if command == "build" else []), cwd=tmp_path)
    assert done.returncode == 1
    assert lines(done.stderr) == [
        "getting-started.md:3: 'visibility' must be 'public' or 'editor', got 'publci'; did you mean 'public'?",
        "citesearch: 1 error(s); nothing was written",
    ]
    assert not (tmp_path / "site").exists()


def test_a_really_missing_page_is_still_reported_beside_a_broken_one(tmp_path):
    write(tmp_path / "docs", {
        "citesearch.yml": "nav:\n  - index.md\n  - broken.md\n  - gone.md\n",
        "index.md": "# Home\n\nSee [broken](broken.md) and [gone](gone.md).\n",
        "broken.md": "---\ntitle: [oops\n---\n# Broken\n",
    })
    done = citesearch("check", "docs", cwd=tmp_path)
    assert done.returncode == 1
    assert lines(done.stderr) == [
        "index.md:3: broken link: gone.md does not exist (warning)",
        "broken.md:3: invalid YAML in front matter: expected ',' or ']', but got '<stream end>'",
        "citesearch.yml:4: nav lists gone.md, which does not exist",
        "citesearch: 2 error(s); nothing was written",
    ]


# -- 6: a draft's copies under other names are never published in any form

LEFTOVERS = ["#plan.md#", "plan.md.bak", "plan.md.orig", "plan.md.rej", "plan.md.swo", "plan.md.swp", "plan.md.tmp",
             "plan.md~", "~$plan.md"]
DRAFT_COPIES = {"plan.md": DRAFT, "Roadmap.MD": DRAFT, "notes.markdown": DRAFT, "ideas.mdown": DRAFT, ".#plan.md": DRAFT,
                **dict.fromkeys(LEFTOVERS, DRAFT)}


def test_draft_copies_and_other_markdown_extensions_never_reach_the_public_site(tmp_path):
    write(tmp_path / "docs", {"index.md": PAGE, **DRAFT_COPIES})
    done = citesearch("build", "docs", "--out", "site", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in lines(done.stderr) if line.endswith("(warning)")]
    assert warnings == [
        "#plan.md#:1: 9 editor backup, swap or lock files, never published: #plan.md#, plan.md.bak, plan.md.orig "
        "and 6 more (warning)"
    ]
    site = tmp_path / "site"
    for path in site.rglob("*"):
        assert not path.is_file() or MARKER.encode() not in path.read_bytes(), path
    published = set(site_files(site))
    assert not published & {*DRAFT_COPIES, "plan.html", "roadmap.html", "notes.html", "ideas.html"}


def test_markdown_under_any_extension_or_case_is_a_page_for_editors(tmp_path):
    write(tmp_path / "docs", {"index.md": "# Home\n\nSee [the roadmap](Roadmap.MD) and [notes](notes.markdown).\n",
                              **DRAFT_COPIES})
    done = citesearch("build", "docs", "--out", "site-editor", "--role", "editor", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site-editor"
    published = set(site_files(site))
    assert {"plan.html", "roadmap.html", "notes.html", "ideas.html"} <= published
    assert not published & set(DRAFT_COPIES)  # rendered as pages, never copied as they are
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="roadmap.html"' in home and 'href="notes.html"' in home



def test_two_pages_whose_names_differ_only_in_case_both_get_a_page(tmp_path):
    # Not a clash: the name the slug would merge takes its escaped id (issue 19), so neither page is lost.
    write(tmp_path / "docs", {"Plan.MD": "# Plan\n\nUpper.\n", "plan.md": "# plan\n\nLower.\n"})
    done = citesearch("build", "docs", "--out", "site", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pages = {name: (tmp_path / "site" / name).read_text(encoding="utf-8") for name in site_files(tmp_path / "site")
             if name.endswith(".html") and name not in ("index.html", "404.html")}
    assert len(pages) == 2 and "plan.html" in pages
    assert sum("Upper." in html for html in pages.values()) == 1 and "Lower." in pages["plan.html"]


# -- 13: the same behaviour in every locale


def locale_env(**settings: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING",
                                                                     "PYTHONCOERCECLOCALE"))}
    return {**env, **settings}


LOCALES = {
    "C.UTF-8": locale_env(LANG="C.UTF-8"),
    "C": locale_env(LANG="C", LC_ALL="C"),
    "C, UTF-8 mode off": locale_env(LANG="C", LC_ALL="C", PYTHONUTF8="0"),
    "POSIX, no coercion": locale_env(LANG="POSIX", LC_ALL="POSIX", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0"),
}


def test_non_ascii_names_queries_and_quotes_behave_the_same_in_every_locale(tmp_path):
    write(tmp_path / "docs", {
        "café.md": "# Café\n\nThe “quoted” crème brûlée › recipe.\n",
        "über/straße.md": "# Straße\n\nEine Straße mit „Anführungszeichen“ und crème.\n",
        "broken/naïve.md": "---\ndate: 2024-02-30\n---\n# Naïve\n",
    })
    answers = {}
    for name, env in LOCALES.items():
        work = tmp_path / re.sub(r"\W+", "-", name)
        shutil.copytree(tmp_path / "docs", work / "docs")
        shutil.rmtree(work / "docs" / "broken")
        built = citesearch("build", "docs", "--out", "site", cwd=work, env=env)
        checked = citesearch("check", str(tmp_path / "docs" / "broken"), "--cache-dir", "cache", cwd=work, env=env)
        searches = [citesearch("search", "--site", "site", query, *flags, cwd=work, env=env)
                    for query in ("crème", "“quoted”", "straße", "café brûlée") for flags in ((), ("--json",))]
        answers[name] = (
            built.returncode, re.sub(rb" in \d+\.\d+s", b"", built.stderr), site_files(work / "site"),
            checked.returncode, checked.stderr,
            [(s.returncode, s.stdout, s.stderr) for s in searches],
        )
    reference = answers["C.UTF-8"]
    assert reference[0] == 0 and reference[3] == 1
    assert "built 2 documents" in reference[1].decode()
    assert lines(reference[4])[0] == "naïve.md:2: front matter: invalid date '2024-02-30' (day is out of range for month); " \
                                     "quote it to keep it as text"
    assert reference[5][0][0] == 0 and "crème brûlée › recipe".encode() in reference[5][0][1]
    for name, answer in answers.items():
        assert answer == reference, name


# -- 17: a folder citesearch may not enter is a content error naming it


def without_permission_bypass() -> tuple[str, ...]:
    """A command prefix under which file permissions apply: root's bypass (CAP_DAC_*) dropped, else nothing."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    drop = "-dac_override,-dac_read_search"
    prefix = (setpriv, "--bounding-set", drop, "--inh-caps", drop) if setpriv else ()
    if not prefix or subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("root here cannot give up its permission bypass (no setpriv, or no CAP_SETPCAP)")
    return prefix


@pytest.mark.parametrize("mode", [0o644, 0o111], ids=["listable, not searchable", "searchable, not listable"])
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_folder_without_permission_is_a_content_error_not_exit_2(tmp_path, mode, command):
    prefix = without_permission_bypass()
    write(tmp_path / "docs", {  # listed in nav and linked to: the folder's error is the only one (point 3)
        "citesearch.yml": "nav:\n  - index.md\n  - sub/page.md\n  - sub/inner/deeper.md\n",
        "index.md": "# Home\n\nSee [the page](sub/page.md).\n", "sub/page.md": PAGE, "sub/inner/deeper.md": PAGE,
    })
    locked = tmp_path / "docs" / "sub"
    locked.chmod(mode)
    try:
        refused = [subprocess.run([*prefix, *tool, str(path)], capture_output=True).returncode != 0
                   for tool, path in ((("ls",), locked), (("cat",), locked / "page.md"))]
        assert any(refused)  # the child really meets the permission (root's bypass is gone)
        done = citesearch(command, "docs", *(["--out", "site"] if command == "build" else []), cwd=tmp_path, prefix=prefix)
    finally:
        locked.chmod(0o755)
    assert (done.returncode, lines(done.stderr)) == (
        1, ["sub:1: cannot read folder: Permission denied", "citesearch: 1 error(s); nothing was written"]
    )
    assert not (tmp_path / "site").exists()


# -- 18: folders 1,000 deep


def nest(root: Path, depth: int, files: dict[str, str]) -> Path:
    """``root/d/d/.../d`` (``depth`` folders) holding ``files``, made without recursion."""
    folder = root
    for _ in range(depth):
        folder = folder / "d"
        os.mkdir(folder)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def unnest(folder: Path) -> None:
    """Remove what ``nest`` made, deepest first: shutil.rmtree (pytest's clean-up of old temporary
    folders, in every later session on the machine) recurses, and 1,000 levels end in a RecursionError."""
    while folder.name == "d":
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        folder = folder.parent


@pytest.fixture
def thousand_deep(tmp_path):
    write(tmp_path / "docs", {"index.md": PAGE})
    deepest = nest(tmp_path / "docs", 1000, {"page.md": PAGE})
    yield tmp_path
    unnest(deepest)


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_folder_1000_levels_deep_is_an_error_naming_it_not_a_recursion_error(thousand_deep, command):
    tmp_path = thousand_deep
    done = citesearch(command, "docs", *(["--out", "site"] if command == "build" else []), cwd=tmp_path)
    assert (done.returncode, lines(done.stderr)) == (
        1, ["d/" * 100 + "d:1: folder nested more than 100 levels deep; move its files higher up",
            "citesearch: 1 error(s); nothing was written"]
    )


def test_a_folder_100_levels_deep_builds_and_is_searchable(tmp_path):
    write(tmp_path / "docs", {"index.md": PAGE})
    nest(tmp_path / "docs", 100, {"page.md": "# Deep\n\nThe zebra lives deep down.\n"})
    assert citesearch("build", "docs", "--out", "site", cwd=tmp_path).returncode == 0
    assert (tmp_path / "site" / ("d/" * 100 + "page.html")).is_file()
    found = citesearch("search", "--site", "site", "zebra", cwd=tmp_path)
    assert f"[{'d/' * 100}page.html#deep--1]" in found.stdout.decode()


# -- invariants of the walk and of the names it sorts

_PART = st.text("abcXY._-", min_size=1, max_size=4).filter(lambda s: s not in (".", ".."))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_PART, min_size=1, max_size=4), max_size=12))
def test_the_walk_sees_what_os_walk_sees(tmp_path_factory, paths):
    root = tmp_path_factory.mktemp("tree")
    for parts in paths:
        folder = root.joinpath(*parts[:-1])
        if any(p.is_file() for p in [folder, *folder.parents] if root in p.parents):
            continue  # a file already holds that name
        folder.mkdir(parents=True, exist_ok=True)
        if not (folder / parts[-1]).is_dir():
            (folder / parts[-1]).write_text("x", encoding="utf-8")
    def listing(walker):
        return sorted((folder, sorted(dirs), sorted(files)) for folder, dirs, files in walker)
    assert listing(walk(root, print)) == listing(os.walk(root))


@settings(max_examples=200, deadline=None)
@given(st.text("abc-_ é", min_size=1, max_size=8), st.sampled_from(MARKDOWN_SUFFIXES), st.lists(st.booleans(), min_size=9, max_size=9))
def test_markdown_is_recognised_by_any_suffix_in_any_case(stem, suffix, upper):
    cased = "".join(c.upper() if u else c for c, u in zip(suffix, upper + [False] * 9))
    name = stem + cased
    assert is_markdown(name) and without_markdown_suffix(name) == stem


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["plan.md", "Roadmap.MD", "notes.markdown"]),
       st.sampled_from(["{}~", "#{}#", "~${}", "{}.bak", "{}.BAK", "{}.orig", "{}.rej", "{}.swp", "{}.swo", "{}.tmp",
                        "{}.save", "{}.old", "{}.backup"]))
def test_an_editor_leftover_of_any_draft_is_neither_a_page_nor_a_file_to_copy(tmp_path_factory, draft, pattern):
    root = tmp_path_factory.mktemp("leftover")
    (root / pattern.format(draft)).write_text(DRAFT, encoding="utf-8")
    found = find_sources(root)
    assert (found.markdown, found.other, [p.name for p in found.leftovers]) == ([], [], [pattern.format(draft)])
