"""``check`` renders every file a build would, and keeps none of them: it costs no more memory than ``build``.

It kept the whole rendered site in a dict (1.8 GB on a 7,424-page folder where
build peaked at 149 MB); ``bench/check_memory.py`` measures both.
"""

from __future__ import annotations

from pathlib import Path

from citesearch.pipeline import build as build_module


def _checked(content: Path, tmp_path: Path, monkeypatch) -> build_module.Assembled:  # type: ignore[no-untyped-def]
    """What ``check`` had assembled when it returned."""
    seen: list[build_module.Assembled] = []
    real = build_module._without_errors

    def keep(assembled: build_module.Assembled, strict: bool) -> build_module.Assembled:
        seen.append(assembled)
        return real(assembled, strict)

    monkeypatch.setattr(build_module, "_without_errors", keep)
    build_module.check(content, cache_dir=tmp_path / "check.cache")
    return seen[0]


def _many_pages(folder: Path, count: int) -> Path:
    folder.mkdir()
    for n in range(count):
        (folder / f"p{n:03d}.md").write_text(f"# Page {n}\n\nSome text about page {n}.\n", encoding="utf-8")
    return folder


def test_check_keeps_no_rendered_file_and_no_page_html(tmp_path: Path, monkeypatch):
    content = _many_pages(tmp_path / "content", 60)  # enough for the parallel paths
    assembled = _checked(content, tmp_path, monkeypatch)
    kept = [path for path in assembled.files if isinstance(assembled.files.get(path), (bytes, str))]
    assert kept == []
    assert all(page.html == "" for page in assembled.pages)
    assert len(assembled.pages) == 60


def test_check_counts_the_very_files_and_index_bytes_build_writes(basic_copy: Path, tmp_path: Path):
    checked = build_module.check(basic_copy, cache_dir=tmp_path / "check.cache")
    built = build_module.build(basic_copy, tmp_path / "site", cache_dir=tmp_path / "build.cache")
    on_disk = [p for p in (tmp_path / "site").rglob("*") if p.is_file() and p.name != ".citesearch-site"]
    assert checked.files == built.files == len(on_disk)
    assert checked.index_bytes == built.index_bytes > 0
