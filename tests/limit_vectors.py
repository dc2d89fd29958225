"""tests/vectors/limits.json, with its compact texts expanded.

A text, query or term there is a string or a list of ``[text, times]``
parts, so that a 10,000-character query stays one readable line.
"""

from __future__ import annotations

import json
from pathlib import Path

LIMITS = json.loads((Path(__file__).parent / "vectors" / "limits.json").read_text(encoding="utf-8"))


def expand(value: str | list) -> str:
    return value if isinstance(value, str) else "".join(text * times for text, times in value)


def analyze_cases() -> list[tuple[str, str, list[str]]]:
    """(note, text, terms) per case."""
    return [(c["note"], expand(c["text"]), [expand(t) for t in c["terms"]]) for c in LIMITS["analyze"]]


def clause_cases() -> list[tuple[str, str, bool, list[list]]]:
    """(note, query, prefix, [[term, required, wildcard_trailing, edit_distance]]) per case."""
    return [
        (c["note"], expand(c["query"]), c["prefix"], [[expand(term), *rest] for term, *rest in c["clauses"]])
        for c in LIMITS["clauses"]
    ]
