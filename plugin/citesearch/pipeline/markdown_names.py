"""Which file names are Markdown: the usual extensions, in any case.

'Roadmap.MD' and 'notes.markdown' are pages, never files copied as they are
(a draft copied verbatim would publish its 'visibility: editor' text).
"""

from __future__ import annotations

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mdtxt", ".mdtext")


def markdown_suffix(name: str) -> str | None:
    """The Markdown extension ``name`` ends with, as written (``.MD``), or None."""
    lower = name.lower()
    return next((name[-len(s):] for s in MARKDOWN_SUFFIXES if lower.endswith(s) and len(name) > len(s)), None)


def is_markdown(name: str) -> bool:
    return markdown_suffix(name) is not None


def without_markdown_suffix(path: str) -> str:
    suffix = markdown_suffix(path)
    return path[: -len(suffix)] if suffix else path
