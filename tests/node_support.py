"""Running the JavaScript half of a contract: one Node process per batch, JSON in and out."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


def run_node(script: str, payload: object, *args: str, timeout: int = 600) -> object:
    """Run ``tests/js/<script>`` with ``payload`` as JSON on stdin; return its JSON output."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        ["node", str(JS_TESTS / script), *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
