"""Running the JavaScript half of a contract: one Node process per batch, JSON in and out."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


@functools.cache
def shipped_assets() -> Path:
    """The widget's files exactly as a build ships them, ``contract.js`` included, in a folder."""
    from citesearch.assets import widget_assets
    from citesearch.pipeline.render import theme_dir

    folder = Path(tempfile.mkdtemp(prefix="citesearch-assets-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    assets = widget_assets(theme_dir())
    for name in assets.files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(assets.read(name))
    return folder


def node_env() -> dict[str, str]:
    """Environment for a Node process: where the tests/js scripts find the shipped modules."""
    return {**os.environ, "CITESEARCH_ASSETS": str(shipped_assets())}


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
        env=node_env(),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
