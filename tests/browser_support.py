"""Helpers for the end-to-end widget tests: build a site with the real CLI,
serve it on 127.0.0.1, and drive Debian's Chromium through Playwright.

Browsers are never downloaded here: Playwright launches /usr/bin/chromium.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TESTS = Path(__file__).parent
FIXTURE_SITE = TESTS / "fixtures" / "widget-site"
ARTIFACTS = TESTS / "artifacts"
VECTORS = TESTS / "vectors" / "widget_queries.json"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citesearch", *args], capture_output=True, text=True, timeout=300
    )


def build_site(content: Path, out: Path) -> Path:
    done = run_cli("build", str(content), "--out", str(out))
    assert done.returncode == 0, f"build failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return out


def cli_search(site: Path, query: str, *, lang: str, limit: int, exact: bool = False) -> dict:
    """`citesearch search --json`; `exact` turns off the as-you-type prefix match of the last word."""
    flags = ["--exact"] if exact else []
    done = run_cli("search", "--site", str(site), query, "--json", "--limit", str(limit), "--lang", lang, *flags)
    assert done.returncode == 0, f"search failed ({done.returncode}):\n{done.stderr}"
    return json.loads(done.stdout)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


@contextlib.contextmanager
def serve(folder: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] = QuietHandler) -> Iterator[str]:
    """Serve `folder` on a free port of 127.0.0.1; yields the base URL."""
    handler = functools.partial(handler_class, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# --- pytest fixtures (made global by conftest.py) ----------------------------


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture content folder, built once per session with the real CLI."""
    return build_site(FIXTURE_SITE, tmp_path_factory.mktemp("widget") / "site")


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    with serve(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One Chromium for the whole session (Playwright's sync API allows one instance per process)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    """A fresh desktop page that fails the test on any uncaught page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


# --- driving the widget ------------------------------------------------------

BOX = "[data-citesearch]"
INPUT = "[data-citesearch] input"
OPTIONS = "[data-citesearch] [role=listbox] [role=option]"


def wait_for_answer(page, query: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the widget has rendered its answer for exactly `query` as typed."""
    page.wait_for_function("q => document.querySelector('[data-citesearch]').dataset.citesearchQuery === q", arg=query)


def type_query(page, query: str) -> None:  # type: ignore[no-untyped-def]
    """Type like a reader, key by key, and wait for the answer."""
    page.locator(INPUT).click()
    page.locator(INPUT).fill("")
    page.locator(INPUT).press_sequentially(query, delay=15)
    wait_for_answer(page, query)


def shown_results(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """The options on screen, in rank order: ref, heading, quote text, marked words."""
    rows = page.eval_on_selector_all(
        OPTIONS,
        """nodes => nodes.map(node => {
            const quote = node.querySelector('.citesearch-quote');
            return {
              ref: node.dataset.ref,
              rank: Number(node.dataset.rank),
              heading: node.querySelector('.citesearch-heading').textContent,
              quote: quote ? quote.textContent : null,
              marked: quote ? [...quote.querySelectorAll('mark')].map(m => m.textContent) : [],
              href: node.querySelector('a').href,
            };
        })""",
    )
    return sorted(rows, key=lambda row: row["rank"])


def status_text(page) -> str:  # type: ignore[no-untyped-def]
    return page.locator("[data-citesearch] .citesearch-status").inner_text()
