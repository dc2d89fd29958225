"""Runs the JavaScript half of the contract: ``node --test tests/js/``."""

import shutil
import subprocess
from pathlib import Path

import pytest

from node_support import node_env

JS_TESTS = Path(__file__).parent / "js"


def test_node_tests_pass():
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        ["node", "--test", str(JS_TESTS) + "/"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        env=node_env(),
    )
    if done.returncode != 0:
        pytest.fail(f"node --test failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}", pytrace=False)
