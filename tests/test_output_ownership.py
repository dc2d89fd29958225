"""What a build may replace: only files citesearch wrote, in the output and in the cache (issue 21: points 9, 19).

The site's marker lists the files written; a file it does not list (an
upload added after ``cp -a site/. www/``) stops the build, named, and is kept.
The cache folder carries a cache directory tag; a folder holding another
program's ``build.sqlite`` or ``search.json``, or anything else (``--cache-dir .``),
is refused before anything is touched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from citesearch.cache.locations import TAG, TAG_NAME
from citesearch.pipeline.output_folder import LEGACY_MARKER_TEXT, MARKER_NAME
from conftest import BASIC_SITE


@pytest.fixture
def work(tmp_path: Path, monkeypatch) -> Path:
    shutil.copytree(BASIC_SITE, tmp_path / "docs", ignore=shutil.ignore_patterns(".citesearch-cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def citesearch(*args: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-m", "citesearch", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stderr.splitlines()


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- 19: the output folder ------------------------------------------------------------


def test_a_copied_site_with_uploads_added_is_not_replaced_and_the_uploads_are_kept(work):
    assert citesearch("build", "docs", "--out", "site")[0] == 0
    shutil.copytree("site", "www")  # cp -a site/. www/
    Path("www/uploads").mkdir()
    Path("www/uploads/photo.jpg").write_bytes(b"\xff\xd8 a photo")
    Path("www/robots.txt").write_text("User-agent: *\n", encoding="utf-8")
    before = tree(Path("www"))
    (work / "docs" / "index.md").write_text("# Changed\n\nNew text.\n", encoding="utf-8")
    assert citesearch("build", "docs", "--out", "www") == (2, [
        "citesearch: error: output folder www holds robots.txt (and 1 more), which citesearch did not write; "
        "refusing to replace it: move such files out of www, or choose another --out"
    ])
    assert tree(Path("www")) == before
    Path("www/robots.txt").unlink()
    assert citesearch("build", "docs", "--out", "www") == (2, [
        "citesearch: error: output folder www holds uploads/photo.jpg, which citesearch did not write; "
        "refusing to replace it: move such files out of www, or choose another --out"
    ])
    shutil.rmtree("www/uploads")
    code, err = citesearch("build", "docs", "--out", "www")
    assert code == 0, err
    assert "New text." in Path("www/index.html").read_text(encoding="utf-8")


def test_a_symlink_added_to_a_site_is_a_foreign_file(work):
    assert citesearch("build", "docs", "--out", "site")[0] == 0
    os.symlink(work / "docs", "site/sources")
    assert citesearch("build", "docs", "--out", "site") == (2, [
        "citesearch: error: output folder site holds sources, which citesearch did not write; "
        "refusing to replace it: move such files out of site, or choose another --out"
    ])
    assert Path("site/sources").is_symlink()


def test_a_page_removed_from_the_content_is_removed_from_the_site(work):
    assert citesearch("build", "docs", "--out", "site")[0] == 0
    listed = Path("site", MARKER_NAME).read_text(encoding="utf-8").splitlines()
    assert "guide/usage.html" in listed and "index.html" in listed and MARKER_NAME not in listed
    (work / "docs" / "guide" / "usage.md").unlink()
    code, err = citesearch("build", "docs", "--out", "site")
    assert code == 0, err
    assert not Path("site/guide/usage.html").exists()


def test_a_site_marked_before_markers_listed_files_loses_only_what_the_build_writes_again(work):
    assert citesearch("build", "docs", "--out", "site")[0] == 0
    Path("site", MARKER_NAME).write_bytes(LEGACY_MARKER_TEXT)
    assert citesearch("build", "docs", "--out", "site")[0] == 0, "every file is one the build writes"
    Path("site", MARKER_NAME).write_bytes(LEGACY_MARKER_TEXT)
    Path("site/upload.pdf").write_bytes(b"%PDF precious")
    assert citesearch("build", "docs", "--out", "site") == (2, [
        "citesearch: error: output folder site holds upload.pdf, which citesearch did not write; "
        "refusing to replace it: move such files out of site, or choose another --out"
    ])
    assert Path("site/upload.pdf").read_bytes() == b"%PDF precious"


# --- 9: the cache folder --------------------------------------------------------------

REFUSED = "refusing to use it as the build cache: choose another --cache-dir, or an empty or new folder"


def test_a_foreign_database_and_its_journal_are_never_deleted(work):
    Path("tool").mkdir()
    with sqlite3.connect("tool/build.sqlite") as db:
        db.execute("CREATE TABLE jobs (id INTEGER)")
    db.close()
    Path("tool/build.sqlite-journal").write_bytes(b"journal")
    before = tree(Path("tool"))
    assert citesearch("build", "docs", "--out", "site", "--cache-dir", "tool") == (2, [
        f"citesearch: error: cache folder tool holds build.sqlite, which citesearch did not write; {REFUSED}"
    ])
    assert tree(Path("tool")) == before and not Path("site").exists()


def test_a_foreign_search_json_is_never_overwritten(work):
    Path("tool").mkdir()
    Path("tool/search.json").write_text('{"mine": true}', encoding="utf-8")
    for command in (["build", "docs", "--out", "site"], ["check", "docs"]):
        assert citesearch(*command, "--cache-dir", "tool") == (2, [
            f"citesearch: error: cache folder tool holds search.json, which citesearch did not write; {REFUSED}"
        ])
    assert Path("tool/search.json").read_text(encoding="utf-8") == '{"mine": true}'


def test_the_current_folder_as_cache_is_refused(work):
    Path("notes.txt").write_text("mine", encoding="utf-8")
    assert citesearch("build", "docs", "--out", "site", "--cache-dir", ".") == (2, [
        f"citesearch: error: cache folder . holds docs, which citesearch did not write; {REFUSED}"
    ])
    assert sorted(os.listdir(".")) == ["docs", "notes.txt"]


def test_an_empty_or_new_cache_folder_is_tagged_and_used_again(work):
    Path("empty").mkdir()
    for folder in ("empty", "new/cache"):
        assert citesearch("build", "docs", "--out", "site", "--cache-dir", folder)[0] == 0
        assert Path(folder, TAG_NAME).read_bytes() == TAG
        code, err = citesearch("build", "docs", "--out", "site", "--cache-dir", folder)
        assert code == 0 and "0 parsed" in err[-1], err


def test_a_cache_an_older_citesearch_left_is_still_used(work):
    assert citesearch("build", "docs", "--out", "site")[0] == 0
    Path("site.cache", TAG_NAME).unlink()  # its lock, its database and the search memo beside it
    code, err = citesearch("build", "docs", "--out", "site")
    assert code == 0 and "0 parsed" in err[-1], err
    assert Path("site.cache", TAG_NAME).read_bytes() == TAG


def test_another_tools_cache_tag_does_not_make_a_folder_ours(work):
    Path("target").mkdir()
    Path("target", TAG_NAME).write_bytes(b"Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n")
    assert citesearch("build", "docs", "--out", "site", "--cache-dir", "target") == (2, [
        f"citesearch: error: cache folder target holds {TAG_NAME}, which citesearch did not write; {REFUSED}"
    ])
