"""Front matter: split it from the body, parse it safely, validate every key.

Every problem names the line of the key it is about, so an author can jump to it.
"""

from __future__ import annotations

import difflib
import re

import yaml

from ..config import LANG_RE, Config
from ..errors import Problem
from ..model import VISIBILITIES
from ..strict_yaml import RejectedYAML, brief, load_strict

ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
RESERVED_ID_PREFIXES = ("assets/", "search/")
KNOWN_KEYS = ("title", "id", "lang", "visibility", "aliases", "description")
# Keys other generators use to keep a page unpublished; here they would be kept as metadata and the page published.
_HIDING_KEYS = ("draft", "hidden", "private", "unlisted", "unpublished")
_SHOWING_KEYS = ("published", "visible")  # the same, inverted: anything but true hides
MAX_FRONT_MATTER_KIB = 64
_FRONT_MATTER_START = re.compile(r"---[ \t]*(?:\n|$)")  # trailing blanks are invisible, so still front matter
_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
# A known key at the start of a line ("Visibility : editor" too): front matter whatever the fences say.
_ANY_KEY_LINE = re.compile(r"[A-Za-z_][\w-]*[ \t]*:")
_KEY_LINE = re.compile(r"(?i)(?:" + "|".join(KNOWN_KEYS) + r")[ \t]*:(?:[ \t]|$)")
# Any key as YAML would read it ("key: value", "key:"), but not "http://..." at the start of a body.
_YAML_KEY_LINE = re.compile(r"[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|$)")


def split_front_matter(text: str, rel: str) -> tuple[dict, str, int, list[Problem]]:
    """Return (front matter mapping, body, first body line, problems)."""
    text = text.removeprefix("\ufeff")
    opening = _FRONT_MATTER_START.match(text)
    if opening is None:
        unopened = _unopened_front_matter(text, rel)
        return {}, text, 1, [unopened] if unopened else []
    end = _FRONT_MATTER_END.search(text, opening.end())
    if end is None:
        return {}, text, 1, [Problem(rel, 1, "front matter starts with '---' but has no closing '---'")]
    raw = text[opening.end() : end.start()]
    if len(raw) > MAX_FRONT_MATTER_KIB * 1024:  # PyYAML is slow: parse a sane amount only (the body has its own limit)
        return {}, text, 1, [Problem(rel, 1, f"front matter is {len(raw) // 1024:,} KiB; at most {MAX_FRONT_MATTER_KIB} KiB is read")]
    body = text[end.end() + 1 :] if end.end() < len(text) else ""
    body_line = text[: end.end()].count("\n") + 2
    if text.startswith("...", end.start()):
        leaked = _keys_after_document_end(body, body_line, text[: end.start()].count("\n") + 1, rel)
        if leaked:
            return {}, body, body_line, [leaked]
    try:
        front = load_strict(raw, first_line=2)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 2 + (mark.line if mark is not None else 0)
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        what = "front matter" if isinstance(exc, RejectedYAML) else "invalid YAML in front matter"
        return {}, body, body_line, [Problem(rel, line, f"{what}: {reason}")]
    if front is None:
        front = {}
    if not isinstance(front, dict):
        return {}, body, body_line, [Problem(rel, 2, f"front matter must be a mapping of keys to values, got {_kind(front)}")]
    front = {str(k): v for k, v in front.items()}
    front["__lines__"] = _key_lines(raw)
    return front, body, body_line, []


def _keys_after_document_end(body: str, body_line: int, end_line: int, rel: str) -> Problem | None:
    """Keys right after a '...' that ended the front matter early: they would be published as text.

    YAML ends a document at '...', so in ``title: A / ... / visibility: editor / ---``
    the visibility is page text. The first paragraph after '...' is looked at: a key
    on its first line, or a known key on any line, is an error.
    """
    lines = body.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None
    for i in range(first, len(lines)):
        line = lines[i]
        if not line.strip():
            break
        key = _KEY_LINE.match(line) or (i == first and _YAML_KEY_LINE.match(line))
        if key:
            name = key.group(0).rstrip(" \t:")
            return Problem(rel, body_line + i, f"front matter ended by '...' on line {end_line}, so {brief(name)} would be "
                                               "published as page text; remove the '...' line")
    return None


def _unopened_front_matter(text: str, rel: str) -> Problem | None:
    """Front matter that would be published as text: '---' after blank lines, or keys with no '---'.

    Either way ``visibility: editor`` would end up on the public page, so it is an error.
    """
    stripped = text.lstrip(" \t\n")
    line = text[: len(text) - len(stripped)].count("\n") + 1
    opening = _FRONT_MATTER_START.match(stripped)
    if opening and line > 1 and _ANY_KEY_LINE.match(stripped, opening.end()):
        return Problem(rel, line, "front matter must start on line 1; remove the blank lines before '---'")
    if line == 1 and _KEY_LINE.match(stripped):
        return Problem(rel, 1, "this looks like front matter but has no '---' line above it")
    return None


def _key_lines(raw: str) -> dict[str, int]:
    """Line of each top-level front matter key, for messages."""
    lines = {}
    try:
        node = yaml.compose(raw)
    except yaml.YAMLError:
        return lines
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines[str(key.value)] = key.start_mark.line + 2
            if isinstance(value, yaml.SequenceNode):  # each alias gets its own line in messages
                for i, item in enumerate(value.value):
                    lines[f"{key.value}[{i}]"] = item.start_mark.line + 2
    return lines


def validate_front_matter(front: dict, rel: str, config: Config) -> tuple[dict, list[Problem]]:
    lines = front.pop("__lines__", {})
    problems: list[Problem] = []
    fields: dict = {}

    def problem(key: str, message: str) -> None:
        problems.append(Problem(rel, lines.get(key, 2), message))

    for key in front:
        if key not in KNOWN_KEYS:
            doubt = _doubtful_key(key, front[key], front.get("visibility"))
            if doubt:
                problem(key, doubt)
    for key in ("title", "id", "lang", "visibility", "description"):
        if key in front:
            value = front[key]
            if not isinstance(value, str):
                problem(key, f"'{key}' must be a string, got {_kind(value)}")
            else:
                fields[key] = value.strip() if key != "description" else value
    if "id" in fields and not ID_RE.match(fields["id"]):
        problem("id", f"'id' must be a lowercase slug like 'guide/install' (a-z, 0-9, '-', '_', '.', '/'), got {brief(fields['id'])}")
        fields.pop("id")
    if "id" in fields and fields["id"].startswith(RESERVED_ID_PREFIXES):
        problem("id", f"'id' {brief(fields.pop('id'))} is reserved for citesearch's own files (assets/, search/)")
    if "lang" in fields:
        fields["lang"] = fields["lang"].lower()
        if not LANG_RE.match(fields["lang"]):
            problem("lang", f"'lang' must be a language code like 'en', 'ru' or 'zh', got {brief(front['lang'])}")
    if "visibility" in fields and fields["visibility"] not in VISIBILITIES:
        hint = difflib.get_close_matches(fields["visibility"], VISIBILITIES, n=1)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
        problem("visibility", f"'visibility' must be 'public' or 'editor', got {brief(fields['visibility'])}{suggestion}")
    if "aliases" in front:
        aliases = front["aliases"]
        if isinstance(aliases, str):
            aliases = [aliases]
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            problem("aliases", f"'aliases' must be a list of old URLs, got {_kind(front['aliases'])}")
        else:
            fields["aliases"] = aliases
    if "title" in fields and not fields["title"]:
        problem("title", "'title' is empty")
    fields["lines"] = lines
    return fields, problems


def _doubtful_key(key: str, value: object, visibility: object) -> str | None:
    """Why an unknown key must not silently become metadata, or None when it may.

    A misspelt known key (``Visibility``, ``visiblity``) or another tool's way
    of hiding a page (``draft: true``) would otherwise publish a draft.
    """
    normal = key.strip().casefold().replace("-", "_")
    near = normal if normal in KNOWN_KEYS else next(iter(difflib.get_close_matches(normal, KNOWN_KEYS, n=1, cutoff=0.8)), None)
    if near:
        return f"unknown key {brief(key)}; did you mean '{near}'?"
    hides = normal in _HIDING_KEYS and value not in (False, None, "false", "no") or normal in _SHOWING_KEYS and value is not True
    if hides and visibility != "editor":
        return f"'{brief(key, quoted=False)}: {brief(value, quoted=False)}' does not hide a page in citesearch; write 'visibility: editor' to keep it out of the public site"
    return None


def valid_id(doc_id: str) -> bool:
    return bool(ID_RE.match(doc_id)) and not doc_id.startswith(RESERVED_ID_PREFIXES)


def _kind(value: object) -> str:
    return {list: "a list", dict: "a mapping", str: "a string", int: "a number", float: "a number",
            bool: "true/false", type(None): "nothing"}.get(type(value), type(value).__name__)
