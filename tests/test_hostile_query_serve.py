"""Issue 10, classes 7 and 9: hostile queries and a hostile web page.

* An over-long query or word (2,000 letters took 35 s / 700 MB in
  ``citesearch search``; a 10,000-letter ``?q=`` froze the reader's tab):
  both sides answer at once, with the outcome the caps define
  (tests/vectors/limits.json pins the caps themselves).
* ``citesearch serve`` answers only requests addressed to itself, so a page
  on another origin cannot read the drafts through DNS rebinding, and warns
  when it listens beyond this computer.
"""

from __future__ import annotations

import http.client
import json
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from browser_support import OPTIONS, shown_results, status_text, wait_for_answer
from citesearch.serve import host_allowed, serve
from serve_support import ServeProcess

# Deterministic letters with little repetition, like the probes.
LONG_WORD = "".join("qwertyuiopasdfghjklzxcvbnm"[(i * 7 + i // 26) % 26] for i in range(10_000))
# Headroom for Python, lunr and the index; before the caps, lunr's fuzzy
# automaton for LONG_WORD alone needed several GB.
MEMORY_LIMIT = 1024**3


def search_in_bounded_memory(site: Path, query: str, *options: str) -> subprocess.CompletedProcess[str]:
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "citesearch", "search", "--site", str(site), "--json", *options, query],
        capture_output=True, text=True, timeout=600, preexec_fn=limit_memory, check=False,
    )


# --- class 7: queries --------------------------------------------------------


@pytest.mark.parametrize(
    "query, same_as",
    [(LONG_WORD, None), ("install " + LONG_WORD, "install"), ("路径参数" * 2_500, "路径参数" * 64)],
    ids=["a 10,000-letter word", "a word, then 10,000 letters", "10,000 ideographs"],
)
def test_an_over_long_query_is_answered_in_bounded_memory(basic_built, query, same_as):
    done = search_in_bounded_memory(basic_built, query)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    if same_as is None:
        assert answer["status"] == "insufficient" and answer["results"] == []
    else:
        # The long word is dropped and the reader is no longer typing the word
        # before it: that word counts whole, as with --exact, not as a prefix.
        expected = json.loads(search_in_bounded_memory(basic_built, same_as, "--exact").stdout)
        assert [r["ref"] for r in answer["results"]] == [r["ref"] for r in expected["results"]]
        assert answer["results"] or same_as != "install"


@pytest.mark.browser
def test_a_shared_link_with_a_10000_letter_word_is_answered_and_the_tab_stays_usable(page, site_url):
    page.goto(site_url + "index.html?q=" + LONG_WORD)
    wait_for_answer(page, LONG_WORD)
    assert status_text(page).startswith("Nothing in these documents answers")
    assert page.locator(OPTIONS).count() == 0
    # The same tab still searches: the words before a long one count.
    page.goto(site_url + "index.html?q=cache%20headers%20" + LONG_WORD)
    wait_for_answer(page, "cache headers " + LONG_WORD)
    first = shown_results(page)[0]
    assert first["ref"].startswith("guide/deploy#")
    assert [word.lower() for word in first["marked"]] == ["cache", "headers"]


# --- class 9: serve and DNS rebinding ----------------------------------------


@pytest.mark.parametrize(
    "header, bound, allowed",
    [
        ("127.0.0.1:8000", "127.0.0.1", True),
        ("localhost:8000", "127.0.0.1", True),
        ("LocalHost:8000", "127.0.0.1", True),
        ("[::1]:8000", "127.0.0.1", True),
        ("docs.internal:8000", "docs.internal", True),  # the --host it was started with
        ("evil.example:8000", "127.0.0.1", False),  # a rebinding page's own name
        ("localhost.evil.example:8000", "127.0.0.1", False),
        ("localhost:8001", "127.0.0.1", False),  # another port
        ("localhost", "127.0.0.1", False),  # no port means 80
        ("user@localhost:8000", "127.0.0.1", False),
        ("localhost:8000/x", "127.0.0.1", False),
        ("", "127.0.0.1", False),
        (None, "127.0.0.1", False),
        ("192.168.1.20:8000", "127.0.0.1", False),
        ("192.168.1.20:8000", "0.0.0.0", True),  # every interface: any address of this machine
        ("[fe80::1]:8000", "0.0.0.0", True),
        ("evil.example:8000", "0.0.0.0", False),
    ],
)
def test_only_requests_addressed_to_the_preview_are_allowed(header, bound, allowed):
    assert host_allowed(header, bound, 8000) is allowed


def request(url: str, path: str, host: str) -> tuple[int, str, str]:
    """Status, content type and body of a GET sent with this exact Host header."""
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        answer = connection.getresponse()
        kind = answer.getheader("Content-Type", "")
        body = answer.read(4096).decode("utf-8", "replace")
        return answer.status, kind, body
    finally:
        connection.close()


def test_a_page_under_another_name_cannot_read_drafts_or_events_from_the_preview(basic_copy):
    server = ServeProcess(basic_copy)
    try:
        server.wait_for("built ")
        port = server.url.rstrip("/").rsplit(":", 1)[1]
        for path in ("/drafts/secret.html", "/", "/__citesearch/events", "/__citesearch/livereload.js"):
            status, kind, body = request(server.url, path, f"evil.example:{port}")
            assert (status, kind) == (403, "text/plain; charset=utf-8"), path
            assert "EDITORSECRET" not in body
            assert body == (
                "403 Forbidden: this citesearch preview only answers requests for its own address "
                "(localhost, 127.0.0.1, [::1] or the --host it was started with), so that no other web site "
                f"can read your drafts. Open http://127.0.0.1:{port}/ or restart serve with --host set to "
                "the name you use.\n"
            )
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            status, _, body = request(server.url, "/drafts/secret.html", host)
            assert status == 200 and "EDITORSECRET" in body, host
        assert not any("warning: --host" in line for line in server.lines)
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("role, drafts", [("editor", True), ("public", False)])
def test_listening_on_every_interface_warns_on_one_line(basic_copy, role, drafts):
    lines: list[str] = []
    stop = threading.Event()
    done = threading.Event()

    def log(message: str) -> None:
        lines.append(message)
        if message.startswith("built "):
            stop.set()
            done.set()

    options = {"host": "0.0.0.0", "port": 0, "role": role, "log": log, "stop_event": stop}
    thread = threading.Thread(target=serve, args=(basic_copy,), kwargs=options, daemon=True)
    thread.start()
    assert done.wait(120), lines
    thread.join(60)
    warning = (
        "warning: --host 0.0.0.0 exposes this preview, "
        + ("its editor-only drafts included " if drafts else "")
        + "to every machine that can reach this one on the network; use --host 127.0.0.1 to keep it private"
    )
    assert warning in lines
