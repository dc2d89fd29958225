"""citesearch.yml's ``languages`` (folders to languages) and ``markdown_extensions`` (as in mkdocs.yml),
syntax left raw reported once per site, and an ``index.html`` beside ``index.md``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from citesearch.errors import ConfigError, ContentError
from citesearch.pipeline import build as build_module


def write(content: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return content


def page_lang(site: Path, page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', (site / page).read_text(encoding="utf-8")).group(1)


def search(site: Path, query: str, lang: str = "en") -> list[str]:
    done = subprocess.run([sys.executable, "-m", "citesearch", "search", "--site", str(site), query, "--json",
                           "--lang", lang], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [hit["ref"] for hit in json.loads(done.stdout)["results"]]


def test_folders_give_their_documents_a_language_and_a_documents_own_lang_wins(tmp_path: Path):
    content = write(tmp_path / "content", {
        "citesearch.yml": "languages:\n  ru: ru\n  docs.ru: ru\n  zh: zh\n  zh/en-notes: en\n",
        "index.md": "# Home\n\nEnglish text.\n",
        "ru/index.md": "# Главная\n\nРусский текст о кошках.\n",
        "ru/english.md": "---\nlang: en\n---\n# English in ru\n\nText.\n",
        "docs.ru/guide.md": "# Руководство\n\nТекст.\n",
        "zh/index.md": "# 首页\n\n中文文本。\n",
        "zh/en-notes/a.md": "# Notes\n\nDeeper folder wins.\n",
        "rus/x.md": "# Not Russian\n\nA folder whose name only starts like ru.\n",
        "guide.ru.md": "# Суффикс\n\nСтраница с суффиксом языка.\n",
    })
    site = tmp_path / "site"
    build_module.build(content, site)
    langs = {page: page_lang(site, page) for page in (
        "index.html", "ru/index.html", "ru/english.html", "docs.ru/guide.html", "zh/index.html",
        "zh/en-notes/a.html", "rus/x.html", "guide.ru.html")}
    assert langs == {"index.html": "en", "ru/index.html": "ru", "ru/english.html": "en", "docs.ru/guide.html": "ru",
                     "zh/index.html": "zh", "zh/en-notes/a.html": "en", "rus/x.html": "en", "guide.ru.html": "ru"}
    assert any(ref.startswith("ru/index") for ref in search(site, "кошки", "ru"))  # analysed as Russian


@pytest.mark.parametrize(("yml", "message"), [
    ("languages: [ru]\n", "'languages' must map folders to language codes"),
    ("languages:\n  ru: Russian\n", "'languages': the language of 'ru' must be a code like 'en', 'ru' or 'zh', got 'Russian'"),
    ("languages:\n  ../ru: ru\n", "'languages': '../ru' must be a folder inside the content folder"),
    ("title: x\nmarkdown_extensions:\n  - admonition\n  - pymdownx.superfencs\n",
     "citesearch.yml:4: unknown Markdown extension 'pymdownx.superfencs'; did you mean 'pymdownx.superfences'?"),
    ("markdown_extensions:\n  - no_such_extension_anywhere\n",
     "citesearch.yml:2: unknown Markdown extension 'no_such_extension_anywhere' (is its package installed?)"),
    ("markdown_extensions:\n  - pymdownx.tabbed:\n      no_such_option: 1\n",
     "citesearch.yml:2: Markdown extension 'pymdownx.tabbed' does not accept these options"),
    ("markdown_extensions: pymdownx.tabbed\n", "citesearch.yml:1: 'markdown_extensions' must be a list"),
])
def test_a_bad_language_or_extension_is_a_configuration_error_naming_the_file_and_line(tmp_path: Path, yml, message):
    content = write(tmp_path / "content", {"citesearch.yml": yml, "index.md": "# A\n\nText.\n"})
    with pytest.raises(ConfigError) as caught:
        build_module.check(content, cache_dir=tmp_path / "cache")
    assert message in str(caught.value)
    assert str(content / "citesearch.yml") in str(caught.value)


PYMDOWNX_YML = """\
markdown_extensions:
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.blocks.admonition
  - pymdownx.details
  - pymdownx.snippets:
      base_path: [snippets]
"""

PYMDOWNX_PAGE = """\
# Extensions

An introduction to the page.

## Tabs

=== "Python"

    ```python
    print("platypus in a tab")
    ```

=== "Shell"

    Run the wombat command.

## Blocks

/// note | Important
The narwhal lives in a block.
///

??? tip "More"
    The axolotl hides in details.

## Snippet

--8<-- "part.md"

## Fence

```python title="fence.py"
quokka = 1
```
"""


def test_a_standalone_site_renders_and_chunks_pymdownx_extensions(tmp_path: Path):
    content = write(tmp_path / "content", {"citesearch.yml": PYMDOWNX_YML, "index.md": PYMDOWNX_PAGE,
                                           "snippets/part.md": "The pangolin comes from a snippet.\n"})
    site = tmp_path / "site"
    result = build_module.build(content, site)
    assert not [w for w in result.warnings if "stay as text" in w.message]
    html = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="tabbed-set' in html and 'class="admonition note"' in html and "<details" in html
    assert "--8<--" not in html and "///" not in html and "===" not in html
    # every section is a passage of its own, and the words inside the extensions' markup are found there
    for word, section in [("platypus", "tabs"), ("wombat", "tabs"), ("narwhal", "blocks"), ("axolotl", "blocks"),
                          ("pangolin", "snippet"), ("quokka", "fence")]:
        # (the snippet's own file is a page too, and may rank first for its word)
        refs = [ref for ref in search(site, word) if ref.startswith("index#")]
        assert refs and refs[0].startswith(f"index#{section}"), (word, refs)


def test_syntax_no_extension_handles_is_one_warning_per_site_not_one_per_line(tmp_path: Path):
    block = "/// note\nText.\n///\n"
    content = write(tmp_path / "content", {
        "a.md": "# A\n\n" + block * 5 + "{* docs_src/app.py hl[3] *}\n",
        "b.md": "# B\n\n" + block,
        "c.md": "# C\n\n```\n/// not a block inside code\n```\n",
        "d.md": "# D\n\n" + block,
    })
    result = build_module.check(content, cache_dir=tmp_path / "cache")
    raw = sorted(str(w) for w in result.warnings if "stay as text" in w.message)
    assert raw == sorted([
        "a.md:3: '///' blocks (and 2 more documents) stay as text: add pymdownx.blocks to markdown_extensions in citesearch.yml",
        "a.md:18: '{* file *}' includes (FastAPI/typer docs) stay as text: add markdown_include_variants to markdown_extensions in citesearch.yml",
    ])


def test_an_index_html_beside_index_md_is_left_out_with_a_warning(tmp_path: Path):
    content = write(tmp_path / "content", {"index.md": "# From Markdown\n\nText.\n", "index.html": "<p>static</p>",
                                           "guide/index.md": "# Guide\n\nText.\n", "guide/index.html": "<p>old</p>"})
    site = tmp_path / "site"
    result = build_module.build(content, site)
    assert sorted(str(w) for w in result.warnings) == [
        "guide/index.html:1: left out of the site: the page of guide/index.md is written to guide/index.html; "
        "rename one of the two to keep both",
        "index.html:1: left out of the site: the page of index.md is written to index.html; rename one of the two to keep both",
    ]
    assert "From Markdown" in (site / "index.html").read_text(encoding="utf-8")


def test_extensions_given_as_a_mapping_like_typers_mkdocs_yml_and_a_failing_one_names_the_document(tmp_path: Path):
    content = write(tmp_path / "content", {
        "citesearch.yml": "markdown_extensions:\n  pymdownx.snippets:\n    check_paths: true\n  pymdownx.blocks.admonition:\n",
        "index.md": "# Home\n\n/// note\nA block.\n///\n",
        "broken.md": "# Broken\n\n--8<-- \"missing.md\"\n",
    })
    with pytest.raises(ContentError) as caught:
        build_module.build(content, tmp_path / "site")
    (problem,) = caught.value.problems
    assert str(problem).startswith("broken.md:1: a Markdown extension from citesearch.yml failed here: SnippetMissingError")
    assert not (tmp_path / "site").exists()
