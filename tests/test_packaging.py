"""The wheel is the product: build it, install it in a fresh venv, build a site from elsewhere."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import BASIC_SITE, REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(REPO)],
        check=True, capture_output=True,
    )
    (found,) = dist.glob("citesearch-*.whl")
    return found


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
    # System site packages supply the dependencies offline; the package itself comes from the wheel.
    venv.create(env_dir, with_pip=True, system_site_packages=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [env_dir / "bin" / "citesearch", "build", str(BASIC_SITE), "--out", "out"],
        cwd=elsewhere, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    where = subprocess.run(
        [python, "-c", "import citesearch.pipeline.render as r; print(r.theme_dir())"], cwd=elsewhere, capture_output=True, text=True
    ).stdout.strip()
    assert where.startswith(str(env_dir)), where  # the theme came from the wheel, not the checkout
    assert (elsewhere / "out/assets/vendor/lunr.min.js").is_file()
    assert (elsewhere / "out/search/manifest.json").is_file()
