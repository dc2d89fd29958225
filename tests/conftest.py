"""Shared fixtures: paths to the repo, fixture sites and the shared corpora."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
BASIC_SITE = FIXTURES / "sites" / "basic"
CORPORA = REPO.parent / "shared" / "corpora"


def corpus(name: str) -> Path:
    path = CORPORA / name
    if not path.is_dir():
        pytest.skip(f"shared corpus not found at {path}")
    return path


@pytest.fixture
def basic_copy(tmp_path: Path) -> Path:
    """A private copy of the basic fixture site, free to edit."""
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target)
    return target


@pytest.fixture(scope="session")
def basic_built(tmp_path_factory) -> Path:
    """The basic fixture site, built once per session (public role)."""
    from citesearch import build

    out = tmp_path_factory.mktemp("basic") / "site"
    build(BASIC_SITE, out)
    return out
