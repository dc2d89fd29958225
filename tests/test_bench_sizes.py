"""bench/sizes.py --cold: a built site's cold search, per request and kind of file.

Keeps the probe the cold-bytes figures come from (bench/RESULTS-cold.md) working;
no size is asserted, only that every request is counted once, under its kind.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_every_request_of_a_cold_search_is_counted_once_under_its_kind(basic_built: Path):
    done = subprocess.run([sys.executable, str(REPO / "bench" / "sizes.py"), str(basic_built), "--cold", "install"],
                          cwd=REPO / "bench", capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    requests = re.findall(r"^\s*([\d.]+) KB gz\s+[\d.]+ KB raw  (\S+)$", done.stdout, re.M)
    total = re.search(r"KB gz in (\d+) requests before the first result", done.stdout)
    assert total and int(total.group(1)) == len(requests) > 0
    kinds = dict(re.findall(r"^  (\w[\w ]*?)\s+[\d.]+ KB gz  \((\d+) files\)$", done.stdout, re.M))
    assert sum(map(int, kinds.values())) == len(requests)
    assert {"widget", "manifest", "term lists", "term files", "dictionary", "chunk files"} <= set(kinds)
    assert any(path.startswith("/search/chunks/") for _, path in requests)  # the first result's text
