"""Build the real MkDocs projects in ../shared/realsites with ``plugins: [citesearch]``.

    site = build_realsite("mkdocs", tmp_path)      # tmp_path/project (a copy), tmp_path/site

Each project is copied (../shared is read-only and shared), its mkdocs.yml gets
``citesearch`` in place of ``search`` (or added where there is no ``search``),
every other plugin kept, and the real ``mkdocs build`` runs in a subprocess
(PYTHONPATH inherited, so the worktree's citesearch is the one loaded).
Tests skip when the shared folder is absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml



def _find_realsites() -> Path:
    """``../shared/realsites`` beside the checkout, or beside a folder above it (worktrees live in a subfolder)."""
    for folder in Path(__file__).resolve().parents[1:]:
        if (folder / "shared" / "realsites").is_dir():
            return folder / "shared" / "realsites"
    return Path(__file__).resolve().parents[2] / "shared" / "realsites"


REALSITES = _find_realsites()
NAMES = ("httpx", "mkdocs", "typer")
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


def realsite(name: str) -> Path:
    """The shared project folder, or a skip when the shared material is absent."""
    path = REALSITES / name
    if not (path / "mkdocs.yml").is_file():
        pytest.skip(f"shared real site not found at {path}")
    return path


def copy_realsite(name: str, dest: Path) -> Path:
    """A private copy of the project at ``dest/project`` (its mkdocs.yml untouched)."""
    project = dest / "project"
    shutil.copytree(realsite(name), project)
    return project


def use_citesearch(project: Path, options: dict | None = None, *, first: bool = False) -> None:
    """Rewrite ``project/mkdocs.yml``: ``citesearch`` instead of ``search``, every other plugin kept.

    ``first`` puts citesearch before every other plugin (plugin order must not matter).
    """
    config = project / "mkdocs.yml"
    settings = yaml.load(config.read_text(encoding="utf-8"), Loader=_TagKeepingLoader)
    entry = {"citesearch": options} if options else "citesearch"
    # No `plugins:` key means MkDocs' default, [search].
    plugins = settings.get("plugins", ["search"])
    if isinstance(plugins, dict):  # the mapping form (typer): name -> options
        plugins = [{name: value} if value else name for name, value in plugins.items()]
    kept = [p for p in plugins if _plugin_name(p) != "search"]
    at = 0 if first else next((i for i, p in enumerate(plugins) if _plugin_name(p) == "search"), len(kept))
    settings["plugins"] = [*kept[:at], entry, *kept[at:]]
    config.write_text(yaml.dump(settings, Dumper=_TagKeepingDumper, allow_unicode=True, sort_keys=False),
                      encoding="utf-8")


def mkdocs_build(project: Path, site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``mkdocs build`` of ``project`` into ``site``.

    It runs in the project folder, as its maintainers run it (typer's includes
    are relative to it), with ``-P``: the mkdocs realsite holds MkDocs' own
    source in ``mkdocs/``, which ``python -m`` would otherwise import from the
    working directory instead of the installed MkDocs.
    """
    return subprocess.run(
        [sys.executable, "-P", "-m", "mkdocs", "build", "-f", str(project / "mkdocs.yml"), "-d", str(site), *args],
        capture_output=True, text=True, timeout=900, env=ENV, cwd=project,
    )


def build_realsite(name: str, dest: Path, *, search: str = "citesearch", options: dict | None = None,
                   first: bool = False) -> Path:
    """Copy realsite ``name`` into ``dest``, build it with citesearch, return the site folder.

    ``search="own"`` builds it with its own mkdocs.yml unchanged (the baseline).
    """
    project = copy_realsite(name, dest)
    if search == "citesearch":
        use_citesearch(project, options, first=first)
    site = dest / "site"
    done = mkdocs_build(project, site)
    assert done.returncode == 0, f"mkdocs build of {name} failed ({done.returncode}):\n{done.stderr[-6000:]}"
    return site


def _plugin_name(entry: object) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))  # type: ignore[call-overload]


class _Tagged:
    """A YAML node with an application tag (``!ENV``, ``!!python/name:``), written back as it was read."""

    def __init__(self, tag: str, node: yaml.Node) -> None:
        self.tag, self.node = tag, node


class _TagKeepingLoader(yaml.SafeLoader):
    pass


class _TagKeepingDumper(yaml.SafeDumper):
    pass


_TagKeepingLoader.add_multi_constructor("!", lambda loader, suffix, node: _Tagged("!" + suffix, node))
_TagKeepingLoader.add_multi_constructor(
    "tag:yaml.org,2002:python/", lambda loader, suffix, node: _Tagged("tag:yaml.org,2002:python/" + suffix, node))
_TagKeepingDumper.add_representer(_Tagged, lambda dumper, value: _retag(value))


def _retag(value: _Tagged) -> yaml.Node:
    node = value.node
    node.tag = value.tag
    return node


def index_entries(site: Path):
    """Every passage of a built site's index as ``(title, heading path, url, text)``, read by the search engine."""
    from citesearch.engine.search import SiteSearch

    search = SiteSearch(site)
    for lang, shard in search.shards.items():
        for ref in range(search.manifest["languages"][lang]["chunks_count"]):
            (_, title, url), (_, anchor, headings), text = shard.chunk(ref)
            yield title, tuple(headings), f"{url}#{anchor}", text
