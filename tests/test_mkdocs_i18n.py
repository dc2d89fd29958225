"""mkdocs-static-i18n builds each language in turn; every language stays searchable (issue 21.10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_support import cli_search
from mkdocs_support import mkdocs, write_project

pytest.importorskip("mkdocs_static_i18n")

PAGES = {
    "index.md": "# Home\n\nThe albatross flies over the open sea.\n",
    "index.fr.md": "# Accueil\n\nLe pélican plane au-dessus de la lagune.\n",
    "guide.md": "# Guide\n\nThe heron waits in the reeds.\n",
    "guide.fr.md": "# Guide\n\nLe flamant attend dans les roseaux.\n",
    "only.md": "# Only in English\n\nThe cormorant page has no translation.\n",
}
I18N = {"i18n": {"docs_structure": "suffix", "languages": [
    {"locale": "en", "default": True, "name": "English", "build": True},
    {"locale": "fr", "name": "Français", "build": True},
]}}


@pytest.mark.parametrize("plugins", [["citesearch", I18N], [I18N, "citesearch"]], ids=["citesearch first", "i18n first"])
def test_every_language_is_searchable_after_the_i18n_builds(tmp_path: Path, plugins: list):
    config = write_project(tmp_path, PAGES, theme={"name": "material"}, plugins=plugins)
    done = mkdocs(config, "--strict")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    manifest = json.loads((site / "search" / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["languages"]) == ["en", "fr"] and manifest["default_lang"] == "en"
    expected = {"albatross": ("", "en"), "heron": ("guide/", "en"), "pélican": ("fr/", "fr"), "flamant": ("fr/guide/", "fr")}
    for word, (url, lang) in expected.items():
        results = cli_search(site, word, lang=lang, limit=5, exact=True)["results"]
        assert [(r["url"].split("#")[0], r["lang"]) for r in results] == [(url, lang)], word
    # The untranslated page is built in both languages but indexed once, in English.
    assert (site / "fr" / "only" / "index.html").is_file()
    found = [r["url"] for lang in ("en", "fr") for r in cli_search(site, "cormorant", lang=lang, limit=5, exact=True)["results"]]
    assert [url.split("#")[0] for url in found] == ["only/"]
    # Pages of every language point at the one search folder.
    assert 'content="../search/"' in (site / "fr" / "index.html").read_text(encoding="utf-8")
