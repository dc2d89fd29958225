"""The peers' own virtualenv, ``bench/.venv``: created and filled on demand.

Pinned to what was measured; Pagefind's PyPI package brings its binary as a
wheel (``pagefind_bin_extended``: the build with Chinese segmentation).
``lunr[languages]`` is what MkDocs asks for when ``prebuild_index: python``
is used with a language other than English.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

from corpora import BENCH_DIR

VENV = BENCH_DIR / ".venv"
REQUIREMENTS = ["mkdocs==1.6.*", "pagefind[extended]==1.5.*", "lunr[languages]==0.8.*"]


def venv_bin() -> Path:
    return VENV / "bin"


def _has_all() -> bool:
    python = venv_bin() / "python"
    if not python.exists():
        return False
    probe = "import mkdocs, pagefind, pagefind_bin_extended, lunr, nltk"
    return subprocess.run([str(python), "-c", probe], capture_output=True).returncode == 0


def ensure() -> Path:
    if not _has_all():
        print(f"bench: installing peers into {VENV} ...", file=sys.stderr)
        venv.create(VENV, with_pip=True, clear=False)
        subprocess.run(
            [str(venv_bin() / "python"), "-m", "pip", "install", "-q", *REQUIREMENTS],
            check=True,
        )
    return venv_bin()


def versions() -> dict[str, str]:
    script = (
        "import importlib.metadata as m\n"
        "for n in ('mkdocs','pagefind','pagefind_bin_extended','lunr','nltk'):\n"
        "    print(n, m.version(n))"
    )
    out = subprocess.run([str(venv_bin() / "python"), "-c", script],
                         capture_output=True, text=True, check=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())
