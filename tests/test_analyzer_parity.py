"""Python and JavaScript analyse text identically.

* every code point assigned in Python's Unicode (normalised and analysed
  one at a time and in a few thousand random mixtures), and
* (marker ``corpus``) the whole vocabulary of the FastAPI docs in English,
  Russian and Chinese: 100% identical terms required.

One node process per batch (tests/js/analyze-batch.mjs).
"""

import json
import random
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from citesearch.engine import analyzer
from node_support import run_node, shipped_assets

TESTS = Path(__file__).parent
CORPORA = TESTS.parent.parent / "shared" / "corpora" / "fastapi-docs"


def python_side(text: str) -> dict:
    words = analyzer.words(text)
    return {
        "normalized": analyzer.normalize(text),
        "terms": [t for w in words for t in w.terms],
        "words": [text[w.start : w.end] for w in words],
    }


def node_side(texts: list[str]) -> list[dict]:
    return run_node("analyze-batch.mjs", {"texts": texts})


def differences(texts: list[str]) -> list[tuple[str, dict, dict]]:
    return [
        (text, py, js)
        for text, js in zip(texts, node_side(texts), strict=True)
        if (py := python_side(text)) != js
    ]


def assigned_code_points() -> list[str]:
    # Node's ICU knows a newer Unicode than Python 3.11 (14.0): characters
    # Python considers unassigned cannot be compared.
    return [
        chr(cp)
        for cp in range(sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) not in ("Cn", "Cs")
    ]


def test_every_assigned_code_point_is_analysed_alike():
    chars = assigned_code_points()
    diff = differences(chars)
    assert not diff, diff[:20]


def test_random_mixtures_with_combining_marks_are_analysed_alike():
    chars = assigned_code_points()
    marks = [c for c in chars if unicodedata.category(c).startswith("M")]
    everyday = list("aeiouyAZ зёЁЖ路径参数 _-.。ßİﬁ１") + ["\u0301", "\u0308", "😀"]
    rng = random.Random(20261202)
    texts = [
        "".join(rng.choice((chars, marks, everyday)[rng.randrange(3)]) for _ in range(rng.randint(1, 12)))
        for _ in range(5000)
    ]
    diff = differences(texts)
    assert not diff, diff[:20]


def vocabulary(lang: str) -> list[str]:
    words: set[str] = set()
    for path in sorted((CORPORA / lang).rglob("*.md")):
        words.update(path.read_text(encoding="utf-8").split())
    return sorted(words)


@pytest.mark.corpus
@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_corpus_vocabulary_is_analysed_identically(lang):
    if not (CORPORA / lang).is_dir():
        pytest.skip(f"corpus not found at {CORPORA / lang} (expected ../shared/corpora beside the repo)")
    words = vocabulary(lang)
    diff = differences(words)
    terms = {t for w in words for t in analyzer.analyze(w)}
    identical = 100 * (len(words) - len(diff)) / len(words)
    print(f"\n{lang}: {len(words)} distinct words, {len(terms)} distinct terms, {identical:.2f}% identical")
    assert not diff, diff[:20]


def test_both_sides_carry_the_same_name_and_version():
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    module = json.dumps((shipped_assets() / "analyzer.js").as_uri())
    script = f"import {{ NAME, VERSION }} from {module}; console.log(JSON.stringify([NAME, VERSION]))"
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [analyzer.NAME, analyzer.VERSION]
