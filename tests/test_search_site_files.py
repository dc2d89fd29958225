"""`citesearch search --site` on a hostile site folder: one clear line, exit 2, never a hang or a traceback (issue 21, point 14).

The manifest names the files a query reads; a site from elsewhere can name
files outside it, put a FIFO or /dev/zero in their place, nest JSON until the
parser's stack runs out, or set numbers the reader divides by.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

QUERY = "offline"


def search(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citesearch", "search", "--site", str(site), QUERY, "--lang", "en"],
        capture_output=True, text=True, timeout=60,  # a hang guard: a FIFO once blocked forever
    )


def manifest(site: Path) -> dict:
    return json.loads((site / "search" / "manifest.json").read_text(encoding="utf-8"))


def save_manifest(site: Path, data: dict) -> None:
    (site / "search" / "manifest.json").write_text(json.dumps(data), encoding="utf-8")


def term_file(site: Path) -> Path:
    return site / "search" / manifest(site)["languages"]["en"]["terms"][0][1]


def rename_term_file(site: Path, name: str) -> None:
    data = manifest(site)
    data["languages"]["en"]["terms"][0][1] = name
    save_manifest(site, data)


def set_chunks(site: Path, key: str, value) -> None:
    data = manifest(site)
    data["languages"]["en"]["chunks"][key] = value
    save_manifest(site, data)


def replace_term_file(site: Path, make: Callable[[Path], None]) -> None:
    path = term_file(site)
    path.unlink()
    make(path)


def sparse_file(path: Path) -> None:
    path.touch()
    os.truncate(path, 100 << 20)  # 100 MiB of nothing, taking no disk


def secret(site: Path) -> Path:
    path = site.parent / "secret.json"
    path.write_text('{"terms": [["offline", 0, [0, 1.0], [0, 1.0], [0, 1.0]]]}', encoding="utf-8")
    return path


# (case, how to damage the site, the error line after "citesearch: error: " -- {site} and {term} filled in)
CASES = [
    ("an absolute file name", lambda s: rename_term_file(s, "/etc/passwd"),
     "{site}/search: the manifest names '/etc/passwd', not a file of the search folder: rebuild the site"),
    ("a file name leading up", lambda s: rename_term_file(s, "../../secret.json"),
     "{site}/search: the manifest names '../../secret.json', not a file of the search folder: rebuild the site"),
    ("a chunk list leading up", lambda s: set_chunks(s, "lists", ["../../x"]),
     "{site}/search: the manifest names 'chunks/list.../../x.json', not a file of the search folder: rebuild the site"),
    ("a symlink out of the site", lambda s: replace_term_file(s, lambda p: os.symlink(secret(s), p)),
     "{term}: leads outside the search folder (to {secret}): rebuild the site"),
    ("a symlink to /dev/zero", lambda s: replace_term_file(s, lambda p: os.symlink("/dev/zero", p)),
     "{term}: leads outside the search folder (to /dev/zero): rebuild the site"),
    ("a FIFO", lambda s: replace_term_file(s, os.mkfifo),
     "{term}: not a regular file (a pipe, device or folder): rebuild the site"),
    ("a huge file", lambda s: replace_term_file(s, sparse_file),
     "{term}: 104,857,600 bytes, a search file has at most 67,108,864: rebuild the site"),
    ("deeply nested JSON", lambda s: replace_term_file(s, lambda p: p.write_text("[" * 100_000 + "]" * 100_000)),
     "{term}: JSON nested 100000 levels deep, a search file nests at most 32: rebuild the site"),
    ("a term file that is not an object", lambda s: replace_term_file(s, lambda p: p.write_text("[1, 2]")),
     "{term}: a search file holds a JSON object, this holds list: rebuild the site"),
    ("per_file: 0", lambda s: set_chunks(s, "per_file", 0),
     "{site}/search/manifest.json: damaged manifest (en: chunks 'per_file' must be a whole number of at least 1, "
     "got 0), rebuild the site"),
    ("files_per_group: a string", lambda s: set_chunks(s, "files_per_group", "24"),
     "{site}/search/manifest.json: damaged manifest (en: chunks 'files_per_group' must be a whole number of at least 1, "
     "got '24'), rebuild the site"),
    ("a nested manifest", lambda s: (s / "search" / "manifest.json").write_text("[" * 50_000 + "]" * 50_000),
     "{site}/search/manifest.json: JSON nested 50000 levels deep, a search file nests at most 32: rebuild the site"),
]


@pytest.fixture
def site(basic_built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "site"
    shutil.copytree(basic_built, copy)
    return copy


def test_the_untouched_site_answers(site):
    done = search(site)
    assert done.returncode == 0, done.stderr
    assert "offline" in done.stdout


@pytest.mark.parametrize("case,damage,expected", CASES, ids=[c[0] for c in CASES])
def test_a_hostile_site_folder_is_one_clear_error(site, case, damage, expected):
    term = term_file(site)
    damage(site)
    done = search(site)
    line = expected.format(site=site, term=term, secret=site.parent / "secret.json")
    assert (done.returncode, done.stderr.splitlines()) == (2, [f"citesearch: error: {line}"])
    assert "Traceback" not in done.stderr
