"""The wheel is the product: build it, install it in a fresh venv, build a site from elsewhere.

The venv is isolated (no system site packages): that is what a reader who
follows the install guide has, whatever Python runs the tests (a venv, a conda
environment, CI's system Python). Its dependencies are the ones this test run
already has, found by the wheel's own ``Requires-Dist`` and handed to the venv
by a ``.pth`` file, so pip resolves them without a package index; a dependency
this run lacks is fetched from the index like a reader's would be.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import venv
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

from conftest import BASIC_SITE, REPO

# `pip install citesearch` (a bare name, maybe with extras or a version) asks a package index, which has no citesearch.
_FROM_AN_INDEX = re.compile(r"pip3? install(?:\s+-[-\w=]+)*\s+[\"']?citesearch(?:\[[^\]]*\])?[\"']?(?!\s*@)(?=[\s<>=!~;`]|$)")
# A reader's shell: no PYTHONPATH leading back to this checkout (a developer's may).
READER_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, made as the install guide says: ``python -m build --wheel``."""
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(REPO)],
        check=True, capture_output=True,
    )
    (found,) = dist.glob("citesearch-*.whl")
    return found


def requirements(wheel: Path) -> list[str]:
    """The distribution names the wheel depends on (its ``Requires-Dist`` without extras)."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = HeaderParser().parsestr(archive.read(name).decode("utf-8"))
    return [
        re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
        for requirement in metadata.get_all("Requires-Dist") or []
        if "extra ==" not in requirement
    ]


def fresh_venv(env_dir: Path, wheel: Path) -> Path:
    """An isolated venv with the wheel pip-installed into it, dependencies resolved; returns its python."""
    venv.create(env_dir, with_pip=True)  # no system site packages: what a reader's fresh venv holds
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], capture_output=True, text=True, check=True,
        env=READER_ENV,
    ).stdout.strip()
    folders, missing = set(), []
    for name in requirements(wheel):
        try:
            folders.add(str(importlib.metadata.distribution(name).locate_file("")))
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    # Where this run's copies of the dependencies live; listed after the venv's own folder, so the wheel comes first.
    (Path(site) / "citesearch-test-dependencies.pth").write_text("".join(f"{f}\n" for f in sorted(folders)), encoding="utf-8")
    offline = [] if missing else ["--no-index", "--find-links", str(wheel.parent)]
    subprocess.run([python, "-m", "pip", "install", "-q", *offline, str(wheel)], check=True, env=READER_ENV)
    return python


def test_the_theme_and_vendored_lunr_are_inside_the_wheel(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "citesearch/theme/templates/base.html",
        "citesearch/theme/static/citesearch.js",
        "citesearch/theme/static/analyzer.js",
        "citesearch/theme/static/vendor/lunr.min.js",
        "citesearch/theme/static/vendor/LICENSE.lunr",
        "citesearch/cli.py",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("tests/", "content/", "bench/")) for n in names)


def test_the_installed_wheel_builds_a_site_from_another_directory(wheel: Path, tmp_path: Path):
    env_dir = tmp_path / "venv"
    python = fresh_venv(env_dir, wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [env_dir / "bin" / "citesearch", "build", str(BASIC_SITE), "--out", "out"],
        cwd=elsewhere, capture_output=True, text=True, env=READER_ENV,
    )
    assert done.returncode == 0, done.stderr
    where = subprocess.run(
        [python, "-c", "import citesearch.pipeline.render as r; print(r.theme_dir())"], cwd=elsewhere, capture_output=True, text=True,
        env=READER_ENV,
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where  # the theme came from the wheel, not the checkout
    assert (elsewhere / "out/assets/vendor/lunr.min.js").is_file()
    assert (elsewhere / "out/search/manifest.json").is_file()


def test_the_docs_never_tell_readers_to_install_from_a_package_index():
    """No index has citesearch: the docs say how to install from a checkout, a wheel or the repository."""
    pages = [REPO / "README.md", *sorted((REPO / "content").rglob("*.md"))]
    wrong = [
        f"{page.relative_to(REPO)}:{number}: {line.strip()}"
        for page in pages
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if _FROM_AN_INDEX.search(line)
    ]
    assert wrong == []
    guide = (REPO / "content/getting-started.md").read_text(encoding="utf-8")
    for route in ("python -m build --wheel", "pip install dist/citesearch-", "pip install ./citesearch", "pip install \"git+"):
        assert route in guide, route  # the routes this file's wheel test and a reader take


@pytest.mark.parametrize(
    "line,asks_an_index",
    [
        ("$ pip install citesearch", True),
        ("pip install citesearch mkdocs mkdocs-material", True),
        ("pip install -U citesearch==0.1", True),
        ("pip install 'citesearch[test]'", True),
        ("$ pip install ./citesearch", False),
        ("$ pip install dist/citesearch-0.1.0-py3-none-any.whl", False),
        ('$ pip install "git+https://example.org/citesearch.git"', False),
        ("pip install citesearch-docs-theme", False),
        ("pip install -e .", False),
    ],
)
def test_the_docs_check_tells_an_index_install_from_a_path_or_url(line: str, asks_an_index: bool):
    assert bool(_FROM_AN_INDEX.search(line)) is asks_an_index
