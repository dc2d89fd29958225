"""Shared fixtures: paths to the repo, fixture sites and the shared corpora."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

# Browser fixtures for every test module, so they exist once per session.
from browser_support import browser, built_site, page, site_url  # noqa: F401

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
BASIC_SITE = FIXTURES / "sites" / "basic"
CORPORA = REPO.parent / "shared" / "corpora"


def corpus(name: str) -> Path:
    path = CORPORA / name
    if not path.is_dir():
        pytest.skip(f"shared corpus not found at {path}")
    return path


def pytest_configure(config):
    """The serve tests stop ``citesearch serve`` with Ctrl+C, as a user does.  A shell that starts the suite in
    the background (``cmd &``) ignores SIGINT in it, and every process it starts inherits that: a handler
    here (reset to the default in each process started) lets Ctrl+C reach them as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def private_user_cache(tmp_path_factory):
    """``serve`` keeps its build cache in the user's cache folder: the tests get their own."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
    yield
    patch.undo()


@pytest.fixture
def basic_copy(tmp_path: Path) -> Path:
    """A private copy of the basic fixture site, free to edit."""
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target, ignore=shutil.ignore_patterns(".citesearch-cache"))
    return target


@pytest.fixture(scope="session")
def basic_built(tmp_path_factory) -> Path:
    """The basic fixture site, built once per session (public role)."""
    from citesearch import build

    out = tmp_path_factory.mktemp("basic") / "site"
    build(BASIC_SITE, out)
    return out


def build_corpus(tmp_path_factory, name: str, lang: str) -> Path:
    """A shared corpus copied beside a citesearch.yml (the corpora are read-only) and built."""
    from citesearch import build

    source = corpus(name)
    work = tmp_path_factory.mktemp(name.replace("/", "-"))
    content = work / "content"
    shutil.copytree(source, content)
    content.chmod(0o755)  # the corpora are read-only; the build cache needs a writable folder
    (content / "citesearch.yml").write_text(f"title: {name}\nlang: {lang}\n", encoding="utf-8")
    build(content, work / "site")
    return work / "site"


@pytest.fixture(scope="session")
def fastapi_sites(tmp_path_factory) -> dict[str, Path]:
    return {lang: build_corpus(tmp_path_factory, f"fastapi-docs/{lang}", lang) for lang in ("en", "ru", "zh")}


@pytest.fixture(scope="session")
def content_built(tmp_path_factory) -> Path:
    from citesearch import build

    out = tmp_path_factory.mktemp("content") / "site"
    build(REPO / "content", out)
    return out
