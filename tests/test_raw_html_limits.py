"""Raw HTML never closed with '>' is bounded over the whole document, not per paragraph (issue 21, point 8).

Python-Markdown's raw HTML preprocessor scans each unclosed ``<a ``, ``</a``,
``<?x`` or ``<![CDATA[`` to the next '>' of the document, across blank lines:
one per paragraph took 35 s for 64 KiB and over 90 s for 128 KiB.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MESSAGE = (
    "a.md:5: too many '<' starting a tag, comment or processing instruction that is never closed with '>' "
    "in this document to render; write '&lt;' instead"
)


def build(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text(body, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "citesearch", "build", str(content), "--out", str(tmp_path / "site")],
        capture_output=True, text=True, timeout=60,  # a hang guard, not a timing: it used to take minutes
    )


@pytest.mark.parametrize("opening", ["<a ", "</a", "<?x", "<![CDATA[", "<!x"])
def test_128_kib_of_unclosed_markup_one_per_paragraph_fails_fast_with_the_line(tmp_path, opening):
    unit = f"{opening}\n\nword\n\n"
    done = build(tmp_path, "# A\n\nIntro.\n\n" + unit * (128 * 1024 // len(unit)))
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [MESSAGE, "citesearch: 1 error(s); nothing was written"]
    assert not (tmp_path / "site").exists()


def test_closed_markup_in_every_paragraph_still_builds(tmp_path):
    unit = "<b>bold</b> and <!-- a note --> and <?php echo 1 ?> and\n> a quote\n\n"
    done = build(tmp_path, "# A\n\nIntro.\n\n" + unit * (128 * 1024 // len(unit)))
    assert done.returncode == 0, done.stderr
    assert "<b>bold</b>" in (tmp_path / "site" / "a.html").read_text(encoding="utf-8")
