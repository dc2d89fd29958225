"""The widget ships minified (``assets.widget_assets``): smaller, the same modules."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from node_support import run_node, shipped_assets

from citesearch.assets import minifiable, widget_assets
from citesearch.engine import contract
from citesearch.pipeline.render import theme_dir

STATIC = theme_dir() / "static"


def _own(names) -> list[str]:
    return [name for name in names if minifiable(name)]


def test_every_own_script_and_style_sheet_ships_smaller_and_the_vendored_ones_as_they_are():
    assets = widget_assets(theme_dir())
    own = _own(assets.files)
    assert {"rank.js", "shards.js", "search.css", "contract.js"} <= set(own)
    sources = {name: (STATIC / name).read_bytes() for name in own if name != "contract.js"}
    sources["contract.js"] = contract.javascript().encode("utf-8")
    for name in own:
        assert len(assets.read(name)) < len(sources[name]), name
    gz = lambda data: len(gzip.compress(data, 9))  # noqa: E731
    # Comments and indentation are a third of the gzipped sources: a cold search downloads them all.
    assert sum(gz(assets.read(n)) for n in own) < 0.75 * sum(gz(sources[n]) for n in own)
    for name in assets.files:
        if name.startswith("vendor/"):
            assert assets.read(name) == (STATIC / name).read_bytes()


def test_the_same_sources_ship_the_same_bytes():
    one, two = widget_assets(theme_dir()), widget_assets(theme_dir())
    assert one.version == two.version
    assert {n: one.read(n) for n in one.files} == {n: two.read(n) for n in two.files}


def test_the_version_follows_what_ships_not_the_comments(tmp_path: Path):
    theme = tmp_path / "theme"
    shutil.copytree(theme_dir(), theme)
    before = widget_assets(theme)
    rank = theme / "static" / "rank.js"
    rank.write_text(rank.read_text(encoding="utf-8") + "\n// a comment\n", encoding="utf-8")
    assert widget_assets(theme).version == before.version  # what ships is the same: caches stay valid
    rank.write_text(rank.read_text(encoding="utf-8") + "\nexport const ADDED = 1;\n", encoding="utf-8")
    after = widget_assets(theme)
    assert after.version != before.version
    assert b"export const ADDED=1;" in after.read("rank.js")


def test_minified_modules_export_what_their_sources_export(tmp_path: Path):
    """Every module, imported in Node from the sources and from what ships:
    the same names, the same data values (rjsmin works on regular expressions, not a parse)."""
    sources = tmp_path / "sources"
    shutil.copytree(STATIC, sources)
    (sources / "contract.js").write_text(contract.javascript(), encoding="utf-8")
    modules = sorted(name for name in _own(widget_assets(theme_dir()).files) if name.endswith(".js"))
    from_sources = run_node("exports-batch.mjs", {"folder": str(sources), "modules": modules})
    shipped = run_node("exports-batch.mjs", {"folder": str(shipped_assets()), "modules": modules})
    assert shipped == from_sources
    assert sum("error" not in exports for exports in shipped.values()) >= 8  # most modules load outside a page
