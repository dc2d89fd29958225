"""`citesearch serve`: live reload, error overlay, safe paths; end to end in Chromium."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from browser_support import shown_results, type_query
from citesearch import build, cache
from citesearch.serve import Preview, site_path
from conftest import BASIC_SITE
from serve_support import ServeProcess

OVERLAY = "#citesearch-build-error"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(BASIC_SITE, target, ignore=shutil.ignore_patterns(cache.LEGACY_DIR))
    return target


@pytest.fixture
def served(content: Path):
    server = ServeProcess(content)
    server.wait_for("built ")
    yield server
    assert server.stop() == 0, "\n".join(server.lines)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def raw_get(base_url: str, path: str) -> int:
    """Status of a request sent exactly as written (no client-side '..' clean-up)."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


# --- paths ------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_path, expected",
    [
        ("/", "index.html"),
        ("/guide/install.html", "guide/install.html"),
        ("/guide/", "guide/index.html"),
        ("/assets/site.css?v=1", "assets/site.css"),
        ("/../pyproject.toml", None),
        ("/guide/../../pyproject.toml", None),
        ("/%2e%2e/pyproject.toml", None),
        ("/assets/..%2f..%2fpyproject.toml", None),
        ("/a//b.html", None),
        ("/a\\..\\b.html", None),
        ("/x%00.html", None),
    ],
)
def test_request_paths_map_only_to_files_inside_the_site(request_path, expected):
    assert site_path(request_path) == expected


def test_a_request_outside_the_site_gets_404(served):
    assert raw_get(served.url, "/guide/install.html") == 200
    for path in ("/../pyproject.toml", "/../../../etc/passwd", "/assets/%2e%2e/%2e%2e/pyproject.toml"):
        assert raw_get(served.url, path) == 404, path


# --- serving ----------------------------------------------------------------


def test_serve_shows_editor_only_documents_with_a_banner_and_noindex(served):
    status, html = get(served.url + "drafts/secret.html")
    assert status == 200
    assert "editor-banner" in html and 'content="noindex' in html
    assert "/__citesearch/livereload.js" in html


def test_serve_with_the_public_role_leaves_editor_documents_out(content):
    server = ServeProcess(content, "--role", "public")
    try:
        server.wait_for("built ")
        assert get(server.url + "drafts/secret.html")[0] == 404
        assert get(server.url + "guide/usage.html")[0] == 200
    finally:
        assert server.stop() == 0


def test_a_build_never_contains_the_live_reload_script(content, tmp_path):
    build(content, tmp_path / "site", role="editor")
    for path in (tmp_path / "site").rglob("*"):
        if path.is_file():
            assert b"__citesearch" not in path.read_bytes() and b"livereload" not in path.read_bytes(), path


def test_a_port_in_use_is_a_clear_error(content):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "citesearch", "serve", str(content), "--port", str(port)],
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 2
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr


def test_serve_binds_to_localhost_by_default(served):
    assert served.url.startswith("http://127.0.0.1:")


def test_a_failed_rebuild_keeps_the_last_good_site_and_reports_file_and_line(content):
    preview = Preview(content)
    assert preview.rebuild()
    good = preview.state
    assert good.build and not good.errors and "guide/usage.html" in good.files
    usage = content / "guide" / "usage.md"
    fixed = usage.read_text(encoding="utf-8")
    usage.write_text("---\ntitle: [unclosed\n---\n" + fixed, encoding="utf-8")
    assert not preview.rebuild()
    broken = preview.state
    assert broken.build == good.build and broken.files is good.files
    assert broken.version == good.version + 1
    assert any(error.startswith("guide/usage.md:3:") for error in broken.errors), broken.errors
    usage.write_text(fixed + "\nMended.\n", encoding="utf-8")
    assert preview.rebuild()
    assert not preview.state.errors and preview.state.build != good.build
    assert b"Mended." in preview.state.files["guide/usage.html"]


def test_a_broken_theme_template_is_reported_with_its_line(content, tmp_path):
    from citesearch.pipeline.render import theme_dir

    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    preview = Preview(content, theme=theme)
    assert preview.rebuild()
    template = theme / "templates" / "page.html"
    template.write_text(template.read_text(encoding="utf-8") + "{% if %}\n", encoding="utf-8")
    assert not preview.rebuild()
    line = len(template.read_text(encoding="utf-8").splitlines())
    assert preview.state.errors[0].startswith(f"{template}:{line}: "), preview.state.errors
    assert "guide/usage.html" in preview.state.files, "the last good site is still served"


def test_a_build_while_serving_leaves_the_cache_and_both_sites_valid(served, content, tmp_path):
    usage = content / "guide" / "usage.md"
    edit(usage, "Searching works offline", "Searching works offline, even on trains")
    built = subprocess.run(
        [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(tmp_path / "site")],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stderr
    served.wait_for("built ")
    assert "even on trains" in get(served.url + "guide/usage.html")[1]
    assert "even on trains" in (tmp_path / "site" / "guide" / "usage.html").read_text(encoding="utf-8")
    again = build(content, tmp_path / "site")
    assert again.changes.parsed == 0 and not again.warnings


def test_a_burst_of_saves_is_one_rebuild(content):
    log: list[str] = []
    preview = Preview(content, log=log.append)
    stop = threading.Event()
    runner = threading.Thread(target=preview.run, args=(stop,))
    runner.start()
    try:
        deadline = time.monotonic() + 60
        while not any("watching" in line for line in log) and time.monotonic() < deadline:
            time.sleep(0.05)
        first = preview.state.version
        for i in range(10):  # an editor's "save all"
            (content / "guide" / f"new-{i}.md").write_text(f"# New page {i}\n\nText {i}.\n", encoding="utf-8")
        while preview.state.version == first and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)  # room for any straggling rebuild
    finally:
        stop.set()
        runner.join(timeout=60)
    rebuilds = preview.state.version - first
    assert rebuilds == 1, log  # writes closer than watchfiles' 50 ms step are one batch
    assert all(f"guide/new-{i}.html" in preview.state.files for i in range(10))


# --- in the browser -----------------------------------------------------------


def wait_for_text(page, text: str, timeout_ms: float = 60_000) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function("t => document.body && document.body.innerText.includes(t)", arg=text, timeout=timeout_ms)


@pytest.mark.browser
def test_saving_a_document_reloads_the_page_and_search_finds_the_new_word(page, served, content):  # noqa: F811
    page.goto(served.url + "guide/usage.html")
    page.evaluate("window.notReloadedYet = true")
    edit(content / "guide" / "usage.md", "Readers type a question;", "Readers type a question about quetzalcoatls;")
    wait_for_text(page, "quetzalcoatls")
    assert page.evaluate("window.notReloadedYet") is None, "the page itself reloaded"
    type_query(page, "quetzalcoatls")
    results = shown_results(page)
    assert results, "the new word is in the index"
    link = urlsplit(results[0]["href"])
    assert link.path == "/guide/usage.html" and link.fragment.startswith("searching--1"), results
    assert "quetzalcoatls" in results[0]["quote"]


@pytest.mark.browser
def test_a_broken_front_matter_shows_an_overlay_until_it_is_fixed(page, served, content):  # noqa: F811
    page.goto(served.url + "guide/usage.html")
    usage = content / "guide" / "usage.md"
    original = usage.read_text(encoding="utf-8")
    usage.write_text("---\ntitle: [unclosed\n---\n" + original, encoding="utf-8")
    overlay = page.locator(OVERLAY)
    overlay.wait_for(state="visible", timeout=60_000)
    assert "guide/usage.md:3:" in overlay.inner_text()
    assert "Readers type a question" in page.locator("main").inner_text(), "the last good page stays"
    page.get_by_role("button", name="Hide").click()
    assert page.locator(OVERLAY).count() == 0
    usage.write_text("---\ntitle: [still unclosed\n---\n" + original, encoding="utf-8")
    overlay.wait_for(state="visible", timeout=60_000)  # the next failed build shows it again
    usage.write_text(original.replace("Readers type", "Readers now type"), encoding="utf-8")
    wait_for_text(page, "Readers now type")
    overlay.wait_for(state="detached", timeout=60_000)


@pytest.mark.browser
def test_a_page_opened_while_the_build_is_broken_shows_the_overlay(page, served, content):  # noqa: F811
    usage = content / "guide" / "usage.md"
    usage.write_text("---\nvisibility: secret\n---\n# Usage\n", encoding="utf-8")
    served.wait_for("rebuild failed")
    page.goto(served.url + "guide/usage.html")
    overlay = page.locator(OVERLAY)
    overlay.wait_for(state="visible", timeout=30_000)
    assert "guide/usage.md:2: 'visibility' must be 'public' or 'editor'" in overlay.inner_text()
    time.sleep(0.5)  # no reload loop while nothing changes
    assert page.locator(OVERLAY).count() == 1


# --- real corpora: save -> reload latency ---------------------------------------

CORPORA = {"fastapi-docs/en": "index", "rust-rfcs": "0001-private-fields"}


@pytest.mark.corpus
@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_a_save_reloads_a_page_of_a_real_corpus(page, tmp_path, capsys, name):  # noqa: F811
    from conftest import corpus

    content = tmp_path / "content"  # the test edits a document; the corpora are read-only
    shutil.copytree(corpus(name), content, ignore=shutil.ignore_patterns(cache.LEGACY_DIR))
    for folder in [content, *content.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o755)
    doc_id = CORPORA[name]
    source = content / f"{doc_id}.md"
    server = ServeProcess(content)
    try:
        server.wait_for("built ", timeout=900)
        page.goto(server.url + f"{doc_id}.html")
        latencies = []
        for i in range(3):
            word = f"zanzibarite{i}x"
            with source.open("a", encoding="utf-8") as markdown:
                markdown.write(f"\n\nA sentence about {word}.\n")
            saved = time.perf_counter()
            wait_for_text(page, word, timeout_ms=300_000)
            latencies.append(time.perf_counter() - saved)
        server.wait_for("built ")
        rebuilds = [line for line in server.lines if "built " in line]
    finally:
        assert server.stop() == 0
    with capsys.disabled():
        print(f"\n{name}: save -> reload {', '.join(f'{s:.2f}s' for s in latencies)}; {rebuilds[0]}; {rebuilds[-1]}")
    assert "1 changed" in rebuilds[-1] and "1 parsed" in rebuilds[-1]
