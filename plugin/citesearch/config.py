"""citesearch.yml: one validated, frozen configuration object."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

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
    #: Language of the documents under a folder, as (folder, language), deepest folder first;
    #: a document's own ``lang`` wins, then its deepest folder listed here, then ``lang``.
    languages: tuple[tuple[str, str], ...] = ()
    #: Python-Markdown extensions added to citesearch's own, as in mkdocs.yml: (name, options).
    markdown_extensions: tuple[tuple[str, Mapping[str, object]], ...] = ()
    #: Where the config came from (None: defaults).
    source: Path | None = field(default=None, compare=False)


_KEYS = ("title", "lang", "base_url", "chunk_budget", "max_document_kib", "nav", "languages", "markdown_extensions")


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
    lines = {"markdown_extensions": _item_lines(text, "markdown_extensions")}
    return parse_config(raw, path, _item_lines(text, "nav"), key_lines=_key_lines(text), item_lines=lines)


def _item_lines(text: str, option: str) -> list[int]:
    """The line of each item of a list or mapping option, in order; ``load_strict`` has refused anything unsafe already."""
    value = _key_lines(text, nodes=True).get(option)
    if isinstance(value, yaml.SequenceNode):
        return [item.start_mark.line + 1 for item in value.value]
    if isinstance(value, yaml.MappingNode):
        return [key.start_mark.line + 1 for key, _ in value.value]
    return []


def _key_lines(text: str, *, nodes: bool = False) -> dict:
    """Each top-level option's line (or, with ``nodes``, its value's YAML node)."""
    node = yaml.compose(text)
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {key.value: value if nodes else key.start_mark.line + 1 for key, value in node.value}


def parse_config(raw: object, path: Path, nav_lines: Sequence[int] = (), *, key_lines: Mapping[str, int] | None = None,
                 item_lines: Mapping[str, list[int]] | None = None) -> Config:
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
    if "languages" in raw:
        languages, language_problems = _parse_languages(raw["languages"])
        problems.extend(language_problems)
        values["languages"] = languages
    if "markdown_extensions" in raw:
        from .markdown_ext.configured import parse_extensions  # imports Python-Markdown: only when asked for

        line = (key_lines or {}).get("markdown_extensions")
        extensions, extension_problems = parse_extensions(raw["markdown_extensions"], path, line,
                                                          (item_lines or {}).get("markdown_extensions", []))
        problems.extend(extension_problems)
        values["markdown_extensions"] = extensions
    if problems:
        raise ConfigError("\n".join(p if p.startswith(f"{path}:") else f"{path}: {p}" for p in problems))
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



def _parse_languages(raw: object) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """``{ru: ru, docs.ru: ru, zh/guide: zh}``: folder (relative to the content) -> language code."""
    if not isinstance(raw, dict):
        return (), [f"'languages' must map folders to language codes, like {{ru: ru, zh: zh}}, got {brief(raw)}"]
    found, problems = [], []
    for folder, lang in raw.items():
        name = str(folder).strip().strip("/").removeprefix("./")
        if not name or name.startswith("/") or ".." in name.split("/") or "\\" in name:
            problems.append(f"'languages': {brief(folder)} must be a folder inside the content folder, like 'ru' or 'docs/zh'")
        elif not isinstance(lang, str) or not LANG_RE.match(lang.lower()):
            problems.append(f"'languages': the language of {brief(folder)} must be a code like 'en', 'ru' or 'zh', got {brief(lang)}")
        else:
            found.append((name, lang.lower()))
    found.sort(key=lambda pair: (-pair[0].count("/"), pair[0]))  # the deepest folder first
    return tuple(found), problems


def folder_language(rel: str, config: Config) -> str | None:
    """The language ``languages`` gives the document at ``rel``: its deepest listed folder's."""
    for folder, lang in config.languages:
        if rel.startswith(folder + "/"):
            return lang
    return None
