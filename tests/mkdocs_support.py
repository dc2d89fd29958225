"""Small MkDocs projects written by a test, built by the real ``mkdocs build`` in a subprocess."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import yaml

from browser_support import OPTIONS, type_query

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


def mkdocs(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(config), *args],
        capture_output=True, text=True, timeout=600, env=ENV,
    )


def write_project(folder: Path, pages: dict[str, str | bytes], **settings: object) -> Path:
    """``folder/docs`` holding ``pages`` (path -> text or bytes) and ``folder/mkdocs.yml``; returns the config."""
    for name, content in pages.items():
        path = folder / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    config = folder / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "Test", "plugins": ["citesearch"], **settings}, allow_unicode=True),
                      encoding="utf-8")
    return config


def land_from_the_box(page, url: str, query: str, *, reload: bool = True) -> str:  # type: ignore[no-untyped-def]
    if reload:
        page.goto(url)
    type_query(page, query)
    first = page.locator(OPTIONS).first
    assert first.locator(".citesearch-quote").inner_text().strip()
    anchor = first.get_attribute("data-ref").split("#", 1)[1]
    first.locator("a").click()
    page.wait_for_function("a => document.querySelector(`[data-chunk='${a}'].citesearch-landed`)", arg=anchor)
    in_view = page.evaluate(
        """a => { const r = document.getElementById(a).getBoundingClientRect();
                  return r.bottom > 0 && r.top < innerHeight; }""",
        anchor,
    )
    assert in_view, f"#{anchor} is not in view after landing"
    return anchor


@contextlib.contextmanager
def page_with_theme_errors(browser, theirs):  # type: ignore[no-untyped-def]
    """A desktop page that fails on an uncaught error, unless ``theirs(error)`` says the theme's own script threw it.

    The mkdocs theme's base.js throws when MkDocs' search plugin is off (it opens a
    modal that is not there), with or without citesearch.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error}\n{error.stack}"))
    yield page
    context.close()
    ours = [e for e in errors if "/assets/citesearch/" in e or not theirs(e)]
    assert not ours, f"uncaught errors in the page: {ours}"
