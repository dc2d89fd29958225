"""Terminal-safe text: what a file name or page text says, never what it would make the terminal do.

A file named ``a\\x1b[2J.md`` or a page quoting ``\\x1b]0;…`` would clear the
screen, retitle the window or hide lines when printed raw.  Every message the
CLI prints goes through ``terminal_safe``: control characters (C0 but the
newline and tab, DEL, C1) and the bidirectional overrides that reorder what is shown
become visible escapes such as ``\\x1b`` and ``\\u202e``.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every character that would steer the terminal written as an escape."""
    return _UNSAFE.sub(_escape, text)
