"""``markdown_extensions`` in citesearch.yml: Python-Markdown extensions named the way mkdocs.yml names them.

    markdown_extensions:
      - pymdownx.superfences
      - pymdownx.tabbed: {alternate_style: true}
      - pymdownx.snippets: {base_path: [docs_src]}

Each one is loaded when the configuration is read, so a misspelt name or an
option the extension does not have is a configuration error on its line, not
a traceback in the middle of a build.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import pkgutil
from pathlib import Path
from typing import Mapping

import markdown


# citesearch's own extensions: given again in citesearch.yml, their options are
# merged, but the anchors and the table of contents stay citesearch's.
BUILT_IN = ("toc", "fenced_code", "tables", "admonition", "attr_list")
KEPT_OPTIONS = {"toc": ("slugify", "toc_depth", "permalink", "anchorlink")}
OWN_OPTIONS = {"toc": {"permalink": False, "anchorlink": False}}  # a '¶' would join every heading's text


def parse_extensions(raw: object, path: Path, line: int | None, item_lines: list[int]
                     ) -> tuple[tuple[tuple[str, Mapping[str, object]], ...], list[str]]:
    """The extensions and their options, from a list or a mapping; a problem per bad entry, as ``citesearch.yml:LINE: message``."""
    where = f"{path}:{line}" if line else str(path)
    if isinstance(raw, dict):  # mkdocs.yml's other spelling: {name: options, ...}
        raw = [{name: options} for name, options in raw.items()]
    if not isinstance(raw, list):
        return (), [f"{where}: 'markdown_extensions' must be a list of extension names (or {{name: options}}), got {brief(raw)}"]
    found: list[tuple[str, Mapping[str, object]]] = []
    problems: list[str] = []
    for i, item in enumerate(raw):
        item_where = f"{path}:{item_lines[i]}" if i < len(item_lines) else where
        options: object = {}
        if isinstance(item, dict) and len(item) == 1:
            (item, options), = item.items()
            options = {} if options is None else options
        if not isinstance(item, str) or not isinstance(options, dict):
            problems.append(f"{item_where}: 'markdown_extensions' entries must be a name or {{name: {{option: value}}}}, "
                            f"got {brief(item)}")
            continue
        if item == "pymdownx.snippets":
            options = _snippet_paths(options, path.parent)
        problem = _load_problem(item, options)
        if problem:
            problems.append(f"{item_where}: {problem}")
        else:
            found.append((item, dict(options)))
    return tuple(found), problems


def brief(value: object) -> str:
    """A value as quoted in a message, cut short (strict_yaml's, which parsing must not import)."""
    text = value if isinstance(value, str) else repr(value)
    return f"'{text[:60]}'" if len(text) <= 60 else f"'{text[:60]}…'"


def _snippet_paths(options: dict, folder: Path) -> dict:
    """Snippets' folders relative to citesearch.yml's, as mkdocs.yml's are to its own, whatever the working folder."""
    paths = options.get("base_path", ["."])
    paths = [paths] if isinstance(paths, str) else paths
    if not isinstance(paths, list):
        return options
    return {**options, "base_path": [str(folder / p) if isinstance(p, str) else p for p in paths]}


def _load_problem(name: str, options: dict) -> str | None:
    """Why Python-Markdown cannot load ``name`` with ``options``, or None."""
    try:
        markdown.Markdown(extensions=[name], extension_configs={name: options} if options else {})
    except (ImportError, AttributeError, ValueError):
        hint = difflib.get_close_matches(name, known_extensions(), n=1)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else " (is its package installed?)"
        return f"unknown Markdown extension {brief(name)}{suggestion}"
    except (KeyError, TypeError) as exc:
        return f"Markdown extension {brief(name)} does not accept these options: {exc}"
    except Exception as exc:  # an extension's own check of its options
        return f"Markdown extension {brief(name)} failed to load: {type(exc).__name__}: {exc}"
    return None


def known_extensions() -> list[str]:
    """Extension names installed: Python-Markdown's entry points and pymdown-extensions' modules."""
    names = {entry.name for entry in importlib.metadata.entry_points(group="markdown.extensions")}
    for package in ("pymdownx", "pymdownx.blocks"):
        try:
            found = importlib.import_module(package)
        except ImportError:
            continue
        names |= {f"{package}.{m.name}" for m in pkgutil.iter_modules(found.__path__) if not m.name.startswith("_")}
    return sorted(names)


def extension_list(configured: tuple[tuple[str, Mapping[str, object]], ...], own: dict[str, dict]) -> tuple[list[str], dict[str, dict]]:
    """The names to add after citesearch's own, and every extension's options merged."""
    names, configs = [], {name: dict(options) for name, options in own.items()}
    for name, options in configured:
        short = name.removeprefix("markdown.extensions.")
        if short in BUILT_IN:
            ours = {**OWN_OPTIONS.get(short, {}), **configs.get(short, {})}
            kept = {k: v for k, v in ours.items() if k in KEPT_OPTIONS.get(short, ())}
            configs[short] = {**configs.get(short, {}), **options, **kept}
        else:
            names.append(name)
            configs[name] = dict(options)
    return names, configs


def versions(configured: tuple[tuple[str, Mapping[str, object]], ...]) -> dict[str, str]:
    """The versions of the packages the configured extensions come from: a new one may render differently."""
    found = {}
    for name, _ in configured:
        package = {"pymdownx": "pymdown-extensions"}.get(name.split(".")[0], name.split(".")[0])
        try:
            found[name] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "?"
    return found
