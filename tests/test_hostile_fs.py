"""Hostile or careless file systems: the build never deletes, leaks, hangs or prints a traceback.

Issue 10, classes 1-4 and the file-system part of 10: where the site may be
written, what is read as content, symlinks, special files, odd names and
failing disks.
"""

from __future__ import annotations

import errno
import hashlib
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesearch.cli import main
from citesearch.pipeline import source_files
from citesearch.pipeline import write as write_module
from citesearch.errors import UsageError
from citesearch.pipeline.output_folder import MARKER_NAME, check_output_folder

GOOD = "# Fine\n\nA good page.\n"
DRAFT = "---\nvisibility: editor\n---\n# Plan\n\nThe secret plan.\n"


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` with a digest of its bytes: proof that nothing changed."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def docs(tmp_path: Path, monkeypatch) -> Path:
    """A content folder ``docs`` in the current folder, with nothing else around it."""
    content = tmp_path / "docs"
    (content / "guide").mkdir(parents=True)
    (content / "index.md").write_text(GOOD, encoding="utf-8")
    (content / "guide" / "install.md").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return content


def run(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(["build", *argv])
    return code, capsys.readouterr().err.splitlines()


def run_in(folder: Path, monkeypatch, capsys, *argv: str) -> tuple[int, list[str]]:
    monkeypatch.chdir(folder)
    return run(capsys, *argv)


# -- class 1: the output folder never is, contains or sits inside the content folder


@pytest.mark.parametrize(
    "cwd,argv,message",
    [
        (".", ["docs", "--out", "docs"], "output folder docs is the content folder"),
        ("docs", ["--out", "."], "output folder . is the content folder"),
        (
            ".", ["docs", "--out", "."],
            "output folder . contains the content folder docs: replacing it would delete the content",
        ),
        ("docs", ["--out", "/"], "output folder / contains the content folder .: replacing it would delete the content"),
        (".", ["docs", "--out", "docs/site"], "output folder docs/site is inside the content folder docs"),
        ("docs", [], "output folder site is inside the content folder ."),
        ("docs", ["--role", "editor"], "output folder site-editor is inside the content folder ."),
    ],
    ids=["out is the content", "dot from inside", "dot from the parent", "root", "inside", "default inside", "editor"],
)
def test_an_output_folder_overlapping_the_content_is_refused_and_nothing_is_touched(
    docs, monkeypatch, capsys, cwd, argv, message
):
    before = tree(docs)
    code, err = run_in(docs.parent / cwd, monkeypatch, capsys, *argv)
    assert code == 2
    suggestion = os.path.relpath(docs.parent / ("site-editor" if "editor" in argv else "site"))
    assert err == [f"citesearch: error: {message}; choose an output folder outside the content folder, for example --out {suggestion}"]
    assert tree(docs) == before
    assert sorted(p.name for p in docs.parent.iterdir()) == ["docs"]


def test_an_output_folder_that_is_a_symlink_to_the_content_is_refused(docs, capsys):
    os.symlink("docs", "alias")
    code, err = run(capsys, "docs", "--out", "alias")
    assert code == 2
    assert err == [
        "citesearch: error: output folder alias is the content folder; "
        "choose an output folder outside the content folder, for example --out site"
    ]
    assert (docs / "index.md").read_text(encoding="utf-8") == GOOD


def test_a_non_empty_folder_citesearch_did_not_write_is_never_replaced(docs, capsys):
    other = Path("photos")
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8 precious")
    code, err = run(capsys, "docs", "--out", "photos")
    assert code == 2
    assert err == [
        "citesearch: error: output folder photos is not empty and was not written by citesearch; "
        "refusing to replace it (choose another --out, or empty the folder first)"
    ]
    assert (other / "holiday.jpg").read_bytes() == b"\xff\xd8 precious"


def test_an_empty_folder_and_citesearchs_own_site_are_replaced(docs, capsys):
    Path("site").mkdir()
    assert run(capsys, "docs", "--out", "site")[0] == 0
    assert (Path("site") / MARKER_NAME).is_file()
    (docs / "index.md").write_text("# Changed\n\nNew text.\n", encoding="utf-8")
    assert run(capsys, "docs", "--out", "site")[0] == 0
    assert "New text." in (Path("site") / "index.html").read_text(encoding="utf-8")


def test_a_site_built_before_the_marker_existed_is_still_replaced(docs, capsys):
    assert run(capsys, "docs", "--out", "site")[0] == 0
    (Path("site") / MARKER_NAME).unlink()  # what an older citesearch left: the manifest names its generator
    assert run(capsys, "docs", "--out", "site")[0] == 0
    assert (Path("site") / MARKER_NAME).is_file()


def test_the_marker_keeps_the_site_byte_identical_between_builds(docs, capsys):
    assert run(capsys, "docs", "--out", "one")[0] == 0
    assert run(capsys, "docs", "--out", "two")[0] == 0
    assert tree(Path("one")) == tree(Path("two"))


@pytest.mark.parametrize(
    "out,message",
    [
        ("notes.txt/site", "output folder notes.txt/site cannot be created: notes.txt is not a folder"),
        ("notes.txt", "output path notes.txt exists and is not a folder"),
    ],
)
def test_an_output_path_through_a_file_is_a_usage_error(docs, capsys, out, message):
    Path("notes.txt").write_text("keep me", encoding="utf-8")
    assert run(capsys, "docs", "--out", out) == (2, [f"citesearch: error: {message}"])
    assert Path("notes.txt").read_text(encoding="utf-8") == "keep me"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["docs", "link", "up", "..", ".", "new", "guide"]), min_size=0, max_size=6))
def test_an_accepted_output_folder_never_holds_content_and_never_lies_in_it(tmp_path, parts):
    """Whatever path leads there (symlinks, '..', '.'), replacing an accepted folder cannot touch the content."""
    root = tmp_path / "w"
    if not root.exists():
        (root / "docs" / "guide").mkdir(parents=True)
        (root / "docs" / "guide" / "page.md").write_text(GOOD, encoding="utf-8")
        os.symlink("docs", root / "link")
        os.symlink("..", root / "docs" / "up")  # a folder symlink inside the content, pointing above it
    out = root.joinpath(*parts)
    content = root / "docs"
    try:
        check_output_folder(out, content)
    except UsageError:
        return
    out_real, content_real = Path(os.path.realpath(out)), Path(os.path.realpath(content))
    assert out_real != content_real
    assert out_real not in content_real.parents and content_real not in out_real.parents
    assert not (out_real / "guide" / "page.md").exists()


# -- class 2: citesearch's own outputs are never read as content


def test_a_site_inside_the_content_folder_is_not_republished(docs, capsys):
    (docs / "plan.md").write_text(DRAFT, encoding="utf-8")
    assert run(capsys, "docs", "--out", "site-editor", "--role", "editor")[0] == 0
    os.rename("site-editor", docs / "site-editor")  # as an older citesearch allowed: `cd docs && citesearch build --role editor`
    (docs / "site-editor" / MARKER_NAME).unlink(missing_ok=True)  # and without the marker: recognised by its manifest
    code, err = run(capsys, "docs", "--out", "site")
    assert code == 0
    skipped = "site-editor:1: skipped: a site built by citesearch is not content; move it out of the content folder (warning)"
    assert skipped in err
    published = [p.relative_to("site").as_posix() for p in Path("site").rglob("*")]
    assert not [p for p in published if p.startswith("site-editor")]
    assert not any(b"secret plan" in p.read_bytes() for p in Path("site").rglob("*") if p.is_file())


# -- class 3: symlinks never lead out of the content folder


def test_symlinks_leading_outside_the_content_folder_are_errors_naming_the_file(docs, tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:password", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    os.symlink(secret, docs / "passwd.md")
    os.symlink(secret, docs / "guide" / "logo.png")
    os.symlink(tmp_path / "elsewhere", docs / "more")
    code, err = run(capsys, "docs", "--out", "site")
    assert code == 1
    assert err == [
        f"guide/logo.png:1: symlink leads outside the content folder (to {secret})",
        f"more:1: symlink leads outside the content folder (to {tmp_path / 'elsewhere'})",
        f"passwd.md:1: symlink leads outside the content folder (to {secret})",
        "citesearch: 3 error(s); nothing was written",
    ]
    assert not Path("site").exists()


def test_symlinks_that_stay_inside_the_content_folder_keep_working(docs, capsys):
    (docs / "logo.png").write_bytes(b"\x89PNG logo")
    os.symlink("../index.md", docs / "guide" / "start.md")
    os.symlink("../logo.png", docs / "guide" / "logo.png")
    assert run(capsys, "docs", "--out", "site")[0] == 0
    assert "A good page." in Path("site/guide/start.html").read_text(encoding="utf-8")
    assert Path("site/guide/logo.png").read_bytes() == b"\x89PNG logo"


# -- class 4: only regular files are read or copied


def test_a_fifo_named_md_is_an_error_and_never_hangs_the_build(docs, tmp_path):
    os.mkfifo(docs / "pipe.md")
    os.mkfifo(docs / "stream.bin")
    (docs / "old" / "search").mkdir(parents=True)
    os.mkfifo(docs / "old" / "search" / "manifest.json")  # where the walk looks for an older site's manifest
    # A child process with a deadline: before the fix, opening the FIFO waited for a writer forever.
    done = subprocess.run(
        [sys.executable, "-m", "citesearch", "build", "docs", "--out", "site"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "old/search/manifest.json:1: not a regular file (named pipe); only regular files are read",
        "pipe.md:1: not a regular file (named pipe); only regular files are read",
        "stream.bin:1: not a regular file (named pipe); only regular files are read",
        "citesearch: 3 error(s); nothing was written",
    ]


def test_a_fifo_or_folder_named_citesearch_yml_is_a_usage_error_not_a_hang_or_defaults(docs, tmp_path):
    # Before, anything but a regular file was taken for "no config": silently the defaults.
    os.mkfifo(docs / "citesearch.yml")
    done = subprocess.run(
        [sys.executable, "-m", "citesearch", "build", "docs", "--out", "site"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "citesearch: error: docs/citesearch.yml: not a regular file (named pipe); only regular files are read"
    ]
    os.unlink(docs / "citesearch.yml")
    (docs / "citesearch.yml").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "citesearch", "build", "docs", "--out", "site"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert (done.returncode, done.stderr.splitlines()) == (
        2, ["citesearch: error: docs/citesearch.yml: not a regular file (folder); only regular files are read"]
    )


def test_sockets_and_devices_are_errors_naming_the_file(docs, capsys):
    server = socket.socket(socket.AF_UNIX)
    server.bind("docs/guide/talk.md")  # relative: socket paths are limited to ~100 bytes
    expected = ["guide/talk.md:1: not a regular file (socket); only regular files are read"]
    try:
        os.mknod(docs / "zero.md", 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # like /dev/zero
        expected.append("zero.md:1: not a regular file (character device); only regular files are read")
    except PermissionError:
        pass  # no CAP_MKNOD here: the socket alone shows the rule
    try:
        code, err = run(capsys, "docs", "--out", "site")
    finally:
        server.close()
    assert code == 1
    assert err == sorted(expected) + [f"citesearch: {len(expected)} error(s); nothing was written"]


def test_a_file_swapped_for_a_fifo_after_the_check_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "late.md")
    with pytest.raises(source_files.NotRegularFile, match=r"not a regular file \(named pipe\)"):
        source_files.read_regular(tmp_path / "late.md")
    with pytest.raises(source_files.NotRegularFile):
        source_files.copy_regular(tmp_path / "late.md", tmp_path / "copy")


# -- class 10: names, folders and disks that fail


def test_file_and_folder_names_that_are_not_utf8_are_errors_shown_safely(docs, capsys):
    bad = os.fsdecode(b"caf\xe9")
    (docs / f"{bad}.md").write_text(GOOD, encoding="utf-8")
    (docs / f"{bad}.png").write_bytes(b"png")
    (docs / bad).mkdir()
    (docs / bad / "inner.md").write_text(GOOD, encoding="utf-8")
    code, err = run(capsys, "docs", "--out", "site")
    assert code == 1
    assert err == [
        "caf\\xe9:1: folder name is not valid UTF-8; rename it",
        "caf\\xe9.md:1: file name is not valid UTF-8; rename it",
        "caf\\xe9.png:1: file name is not valid UTF-8; rename it",
        "citesearch: 3 error(s); nothing was written",
    ]


def test_an_unreadable_sub_folder_is_an_error_not_silently_skipped(docs, capsys, monkeypatch):
    locked = docs / "guide"
    locked.chmod(0)
    real_scandir = os.scandir

    def scandir(path="."):  # root reads through chmod 0, so the refusal is simulated too
        if Path(path).absolute() == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    try:
        code, err = run(capsys, "docs", "--out", "site")
    finally:
        locked.chmod(0o755)
    assert code == 1
    assert err == ["guide:1: cannot read folder: Permission denied", "citesearch: 1 error(s); nothing was written"]


@pytest.mark.parametrize(
    "error,reason",
    [
        (OSError(errno.ENOSPC, "No space left on device"), "No space left on device"),
        (OSError(errno.EROFS, "Read-only file system", "site/index.html"), "Read-only file system (site/index.html)"),
    ],
    ids=["full disk", "read-only"],
)
def test_a_failing_disk_is_one_line_and_leaves_the_previous_site_and_no_temporary_folder(
    docs, capsys, monkeypatch, error, reason
):
    assert run(capsys, "docs", "--out", "site")[0] == 0
    before = tree(Path("site"))
    (docs / "index.md").write_text("# Changed\n\nNew.\n", encoding="utf-8")
    real_write = write_module._write_file  # how StagedSite writes a file's bytes

    def write_file(path, data):
        if os.path.basename(path) == "index.html":
            raise error
        return real_write(path, data)

    monkeypatch.setattr(write_module, "_write_file", write_file)
    code, err = run(capsys, "docs", "--out", "site")
    assert code == 2
    assert err == [f"citesearch: error: cannot write the site to site: {reason}; nothing was replaced"]
    assert tree(Path("site")) == before
    assert not list(Path(".").glob(".site.tmp-*")) and not list(Path(".").glob(".site.old-*"))


def test_an_os_error_no_check_foresaw_is_still_one_line_without_a_traceback(docs, capsys, monkeypatch):
    from citesearch.pipeline import build as build_module

    def failing_disk(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error", "docs/index.md")

    monkeypatch.setattr(build_module, "load_documents", failing_disk)
    assert run(capsys, "docs", "--out", "site") == (2, ["citesearch: error: Input/output error: docs/index.md"])


def test_an_output_folder_name_that_is_not_utf8_is_shown_safely(docs, capsys):
    other = Path(os.fsdecode(b"caf\xe9"))
    other.mkdir()
    (other / "menu.txt").write_text("keep", encoding="utf-8")
    code, err = run(capsys, "docs", "--out", str(other))
    assert code == 2
    assert err[0].startswith("citesearch: error: output folder caf\\xe9 is not empty and was not written by citesearch")


def test_a_read_only_output_location_is_refused_before_anything_is_built(docs, capsys, monkeypatch):
    Path("public").mkdir()
    real_access = os.access
    # root may write anywhere, so the read-only folder is simulated; a read-only mount answers the same.
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != Path("public") and real_access(path, mode, **kw))
    assert run(capsys, "docs", "--out", "public/site") == (
        2, ["citesearch: error: output folder public/site cannot be written: public is not writable"]
    )
    assert sorted(p.name for p in Path(".").iterdir()) == ["docs", "public"]  # no cache, no temporary folder


def test_an_unreadable_asset_is_a_content_error_naming_it_before_anything_is_written(docs, capsys, monkeypatch):
    (docs / "guide" / "diagram.svg").write_text("<svg/>", encoding="utf-8")
    real_access = os.access
    # root reads through chmod 0, so the missing permission is simulated.
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path).name != "diagram.svg" and real_access(path, mode, **kw))
    code, err = run(capsys, "docs", "--out", "site")
    assert code == 1
    assert err == ["guide/diagram.svg:1: cannot read file: Permission denied", "citesearch: 1 error(s); nothing was written"]
