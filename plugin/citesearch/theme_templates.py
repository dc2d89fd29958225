"""The theme's Jinja templates, loaded without their indentation.

The templates are indented to be read, and every page of a site repeats
them: on a generated site of 100,000 pages the indentation alone was 18 MB
(180 bytes a page). The templates hold no ``<pre>`` or ``<textarea>`` and
their inline scripts are single lines, so the whitespace at the start of a
line is never significant in what they render; dropping it keeps every line
where it was, so template errors still name the right line.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)


def dedented(source: str) -> str:
    return _INDENT.sub("", source)


class ThemeLoader(jinja2.FileSystemLoader):
    def get_source(self, environment: jinja2.Environment, template: str):
        source, filename, uptodate = super().get_source(environment, template)
        return dedented(source), filename, uptodate


def theme_loader(theme: Path) -> ThemeLoader:
    """The loader of ``theme``'s templates folder."""
    return ThemeLoader(str(theme / "templates"))
