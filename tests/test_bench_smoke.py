"""The bench's smoke mode, citesearch only: keeps bench/run.py working in CI.

No timing assertions: only that every stage ran and produced figures.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not CORPORA.is_dir(), reason=f"no corpora at {CORPORA}"),
]


def run_smoke(tmp_path: Path, *extra: str) -> list[dict]:
    out = tmp_path / "RESULTS.md"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--smoke", "--systems", "citesearch",
         "--out", str(out), "--work", str(tmp_path / "work"), *extra],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| corpus | system |" in out.read_text(encoding="utf-8")
    return json.loads((tmp_path / "work" / "results.json").read_text(encoding="utf-8"))


def hits(cell: str) -> tuple[int, int]:
    found, total = cell.split("/")
    return int(found), int(total)


def test_smoke_builds_sizes_and_passages_without_peers(tmp_path):
    rows = run_smoke(tmp_path, "--no-browser", "--corpora", "fastapi-en,fastapi-zh")
    assert {(r["corpus"], r["system"]) for r in rows} == {
        (corpus, system)
        for corpus in ("fastapi-en", "fastapi-zh")
        for system in ("citesearch", "citesearch rebuild")
    }
    for row in rows:
        assert row["error"] == "", row
        assert row["build"]["seconds"] > 0 and row["build"]["peak_rss_mb"] > 0
        assert row["index_raw"] > row["index_gz"] > 0
    for row in (r for r in rows if r["system"] == "citesearch"):
        found, total = hits(row["passage"])
        assert total == 4 and found >= 1, row  # 2 heading + 2 words queries
        assert hits(row["doc_heading"])[1] == 2


@pytest.mark.browser
@pytest.mark.skipif(not shutil.which("chromium") and not Path("/usr/bin/chromium").exists(),
                    reason="no Debian chromium")
def test_smoke_in_the_browser_measures_the_widget(tmp_path):
    (row, _rebuild) = run_smoke(tmp_path, "--corpora", "fastapi-en")
    assert row["system"] == "citesearch" and row["browser_note"] == "", row
    assert row["cold_ms"] > 0
    assert 0 < row["cold_typed_ms"] <= row["cold_ms"]  # the same load, timed from the first keystroke
    assert row["cold_bytes"] >= row["cold_search_bytes"] > 0
    assert row["warm_ms"] is not None
    assert hits(row["doc_heading"])[0] >= 1, row


def test_pagefind_ui_is_added_to_a_mkdocs_page_as_its_docs_say(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    from systems import add_pagefind_ui

    page = ('<html><head><title>t</title>\n</head><body><nav>x</nav>\n'
            '<div class="col-md-9" role="main">\n<h1>Home</h1></div></body></html>')
    added = add_pagefind_ui(page, "../pagefind/")
    head, body = added.split("</head>")
    assert '<link href="../pagefind/pagefind-ui.css" rel="stylesheet">' in head
    assert '<script src="../pagefind/pagefind-ui.js"></script>' in head
    main = body.split('role="main">', 1)[1]
    assert main.lstrip().startswith('<div id="search"></div>') and "new PagefindUI" in main
    assert main.index("new PagefindUI") < main.index("<h1>Home</h1>")
    assert add_pagefind_ui(added, "../pagefind/") == added
    with pytest.raises(ValueError):
        add_pagefind_ui("<html><body>no main</body></html>", "pagefind/")
