"""citesearch.yml: one validated, frozen configuration object."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import yaml

from .pipeline.markdown_names import is_markdown
from .pipeline.source_files import read_regular
from .errors import ConfigError
from .strict_yaml import RejectedYAML, brief, load_strict

CONFIG_NAME = "citesearch.yml"
LANG_RE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")


@dataclass(frozen=True)
class NavEntry:
    path: str  # content-relative, posix, ends in .md
    title: str | None = None
    line: int = 1  # in citesearch.yml, for messages after loading


@dataclass(frozen=True)
class Config:
    """Every option, with its default and what it does."""

    #: Site title shown in every page header.
    title: str = "Documentation"
    #: Language of documents that do not set ``lang``.
    lang: str = "en"
    #: Absolute URL the site is published at; used for sitemap.xml and canonical links.
    base_url: str = ""
    #: Characters a chunk may hold before the next block starts a new chunk.
    chunk_budget: int = 600
    #: Largest Markdown document, in KiB, that a build accepts: bigger ones are errors,
    #: so one runaway file cannot take minutes and gigabytes.
    max_document_kib: int = 2048
    #: Ordered navigation; also the manifest of files that must exist.
    nav: tuple[NavEntry, ...] | None = None
    #: Where the config came from (None: defaults).
    source: Path | None = field(default=None, compare=False)


_KEYS = ("title", "lang", "base_url", "chunk_budget", "max_document_kib", "nav")


def load_config(content_dir: Path) -> Config:
    """Read ``citesearch.yml`` from the content folder; defaults when absent."""
    path = content_dir / CONFIG_NAME
    if not path.exists():
        return Config()
    try:
        # Never a FIFO or a device: one would hang the build, the other never end.
        text = read_regular(path).decode("utf-8")
        raw = load_strict(text)
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.start})") from exc
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", -1) + 1
        what = "" if isinstance(exc, RejectedYAML) else "invalid YAML: "
        raise ConfigError(f"{path}:{max(line, 1)}: {what}{getattr(exc, 'problem', None) or exc}") from None
    return parse_config(raw, path, _nav_lines(text))


def _nav_lines(text: str) -> list[int]:
    """The line of each ``nav`` entry, in order; ``load_strict`` has refused anything unsafe already."""
    node = yaml.compose(text)
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "nav" and isinstance(value, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in value.value]
    return []


def parse_config(raw: object, path: Path, nav_lines: Sequence[int] = ()) -> Config:
    if raw is None:
        return Config(source=path)
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of options, got {type(raw).__name__}")
    problems = []
    for key in raw:
        if key not in _KEYS:
            hint = difflib.get_close_matches(str(key), _KEYS, n=1)
            suggestion = f" (did you mean '{hint[0]}'?)" if hint else f" (known options: {', '.join(_KEYS)})"
            problems.append(f"unknown option {brief(key)}{suggestion}")
    values: dict[str, object] = {}
    for key in ("title", "lang", "base_url"):
        if key in raw:
            if not isinstance(raw[key], str):
                problems.append(f"'{key}' must be a string, got {type(raw[key]).__name__}")
            else:
                values[key] = raw[key]
    if "lang" in values and not LANG_RE.match(str(values["lang"])):
        problems.append(f"'lang' must be a lowercase language code like 'en' or 'zh', got {brief(values['lang'])}")
    if "base_url" in values and values["base_url"] and not re.match(r"^https?://", str(values["base_url"])):
        problems.append(f"'base_url' must start with http:// or https://, got {brief(values['base_url'])}")
    for key, minimum in (("chunk_budget", 50), ("max_document_kib", 1)):
        if key in raw:
            number = raw[key]
            if isinstance(number, bool) or not isinstance(number, int) or number < minimum:
                problems.append(f"'{key}' must be a whole number of at least {minimum}, got {brief(number, quoted=False)}")
            else:
                values[key] = number
    if "nav" in raw:
        nav, nav_problems = _parse_nav(raw["nav"], nav_lines)
        problems.extend(nav_problems)
        values["nav"] = nav
    if problems:
        raise ConfigError("\n".join(f"{path}: {p}" for p in problems))
    if values.get("base_url"):
        values["base_url"] = str(values["base_url"]).rstrip("/") + "/"
    return Config(source=path, **values)  # type: ignore[arg-type]


def _parse_nav(raw: object, lines: Sequence[int]) -> tuple[tuple[NavEntry, ...], list[str]]:
    if not isinstance(raw, list):
        return (), [f"'nav' must be a list of .md paths, got {type(raw).__name__}"]
    entries, problems = [], []
    for i, item in enumerate(raw):
        title = None
        if isinstance(item, dict) and len(item) == 1:
            (title, item), = item.items()
            title = str(title)
        if not isinstance(item, str) or not is_markdown(item):
            problems.append(f"'nav' entries must be .md paths (or {{Title: path.md}}), got {brief(item)}")
            continue
        entries.append(NavEntry(path=item.removeprefix("./"), title=title, line=lines[i] if i < len(lines) else 1))
    return tuple(entries), problems
