"""The pipeline end to end on the basic fixture site."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from citesearch import ContentError, build
from citesearch.engine import contract
from citesearch.engine.shards import chunk_file, chunk_row, decoded, term_files
from conftest import BASIC_SITE, REPO


def tree_digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_every_public_document_becomes_a_page_at_its_id(basic_built: Path):
    for page in ("index.html", "guide/install.html", "guide/usage.html", "ru/index.html", "zh/index.html"):
        assert (basic_built / page).is_file(), page
    assert not (basic_built / "_partial.html").exists()
    assert (basic_built / "img/logo.svg").is_file()


def reader(site: Path):
    return lambda name: json.loads((site / "search" / name).read_text(encoding="utf-8"))


def test_every_chunk_anchor_is_an_id_in_its_page_and_marks_its_blocks(basic_built: Path):
    manifest = json.loads((basic_built / "search/manifest.json").read_text())
    for entry in manifest["languages"].values():
        for ref in range(entry["chunks_count"]):
            data = json.loads((basic_built / "search" / chunk_file(entry["chunks"], ref, reader(basic_built))).read_text())
            (_id, _title, url), (_doc, anchor, _heading), _text = chunk_row(data, ref)
            html = (basic_built / url).read_text()
            assert f'id="{anchor}"' in html
            assert f'data-chunk="{anchor}"' in html


def test_relative_markdown_links_point_at_pages(basic_built: Path):
    index = (basic_built / "index.html").read_text()
    assert 'href="guide/install.html#requirements"' in index
    usage = (basic_built / "guide/usage.html").read_text()
    assert 'href="../index.html"' in usage
    assert 'href="install.html"' not in usage  # usage.md links to usage.md only in its own folder


def test_manifest_names_every_shard_by_content_hash(basic_built: Path):
    manifest = json.loads((basic_built / "search/manifest.json").read_text())
    assert manifest["format"] == contract.FORMAT_VERSION
    assert sorted(manifest["languages"]) == ["en", "ru", "zh"]
    for lang, entry in manifest["languages"].items():
        read = reader(basic_built)
        for kind, names in (("termlist", [name for _, name in entry["terms"]]),
                            ("terms", [name for _, name in term_files(entry, read)])):
            for name in names:
                data = (basic_built / "search" / name).read_bytes()
                assert name.split(".")[-2] == hashlib.sha256(data).hexdigest()[:16]
                assert name.startswith(f"{kind}.{lang}.")
        # The dictionary files: one hash of all of them, in order of length, start/end, file.
        dictionary = entry["dictionary"]
        assert dictionary["name"].startswith(f"dict.{lang}.")
        parts = {}
        for path in (basic_built / "search").glob(f"{dictionary['name']}.*.json"):
            length, kind, bucket = re.fullmatch(r"(\d+)([ps])(\d+)", path.name.split(".")[-2]).groups()
            parts[(int(length), kind, int(bucket))] = path.read_bytes()
        assert sorted({length for length, *_ in parts}) == [length for length, _ in dictionary["buckets"]]
        assert hashlib.sha256(b"\0".join(parts[k] for k in sorted(parts))).hexdigest()[:16] == dictionary["name"].split(".")[-1]
        # The chunk files of a group of refs: one hash of all their bytes, in order.
        chunks = entry["chunks"]
        per_group = chunks["per_file"] * chunks["files_per_group"]
        groups = [group for name in chunks["lists"] for group in read(f"chunks/list.{name}.json")["groups"]]
        for name in chunks["lists"]:
            data = (basic_built / "search" / f"chunks/list.{name}.json").read_bytes()
            assert hashlib.sha256(data).hexdigest()[:16] == name
        for group, digest in enumerate(groups):
            refs = range(group * per_group, min((group + 1) * per_group, entry["chunks_count"]))
            names = sorted({chunk_file(chunks, ref, read) for ref in refs}, key=lambda n: int(n.split(".")[-2]))
            bodies = [(basic_built / "search" / name).read_bytes() for name in names]
            assert hashlib.sha256(b"\0".join(bodies)).hexdigest()[:16] == digest


def test_the_index_has_no_positions_and_numeric_refs(basic_built: Path):
    manifest = json.loads((basic_built / "search/manifest.json").read_text())
    entry = manifest["languages"]["en"]
    assert manifest["fields"] == ["title", "heading", "body"]
    terms = []
    for first, name in term_files(entry, reader(basic_built)):
        rows = json.loads((basic_built / "search" / name).read_text())["terms"]
        assert rows[0][0] == first
        assert all(isinstance(postings, str) for row in rows for postings in row[2:])  # base-64 strings (contract.py)
        for term, term_index, *per_field, per_page in map(decoded, rows):
            assert len(per_field) == 3  # then the page-level postings (format 4, contract.py)
            for flat in (*per_field, per_page):
                assert all(isinstance(ref, int) for ref in flat[::2])
            terms.append(term)
    assert terms == sorted(terms, key=lambda t: t.encode("utf-16-be"))


def test_alias_writes_a_redirect_to_the_moved_page(basic_built: Path):
    redirect = (basic_built / "old/setup.html").read_text()
    assert 'content="0; url=../guide/install.html"' in redirect
    assert 'href="../guide/install.html"' in redirect
    assert '<link rel="canonical" href="https://docs.example.org/guide/install.html">' in redirect


def test_editor_documents_leave_no_byte_in_a_public_build(basic_built: Path):
    for path in basic_built.rglob("*"):
        if path.is_file():
            assert b"EDITORSECRET" not in path.read_bytes(), path
            assert b"editorsecret" not in path.read_bytes().lower(), path


def test_editor_build_includes_drafts_with_a_banner_and_noindex(tmp_path: Path):
    out = tmp_path / "editor"
    build(BASIC_SITE, out, role="editor")
    page = (out / "drafts/secret.html").read_text()
    assert "Editor-only draft" in page
    assert '<meta name="robots" content="noindex, nofollow">' in page


def test_same_input_gives_byte_identical_site_from_any_directory(tmp_path: Path):
    outs = []
    for n, seed in enumerate(("1", "4242")):
        cwd = tmp_path / f"cwd{n}"
        cwd.mkdir()
        out = tmp_path / f"out{n}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run(
            [sys.executable, "-m", "citesearch", "build", str(BASIC_SITE), "--out", str(out)],
            cwd=cwd, env=env, check=True, capture_output=True,
        )
        outs.append(tree_digest(out))
    assert outs[0] == outs[1]
    assert len(outs[0]) > 20


def test_a_failed_build_leaves_the_previous_site_untouched(basic_copy: Path, tmp_path: Path):
    out = tmp_path / "site"
    build(basic_copy, out)
    before = tree_digest(out)
    (basic_copy / "guide/broken.md").write_text("---\nvisibility: publci\n---\n# Broken\n")
    with pytest.raises(ContentError):
        build(basic_copy, out)
    assert tree_digest(out) == before
    assert not list(tmp_path.glob(".site.tmp-*"))


def test_a_rebuild_replaces_the_site_and_drops_removed_pages(basic_copy: Path, tmp_path: Path):
    out = tmp_path / "site"
    build(basic_copy, out)
    (basic_copy / "guide/usage.md").unlink()
    text = (basic_copy / "guide/install.md").read_text().replace("[usage](usage.md)", "usage")
    (basic_copy / "guide/install.md").write_text(text)
    build(basic_copy, out)
    assert not (out / "guide/usage.html").exists()
    assert (out / "guide/install.html").exists()


def test_site_is_world_readable(basic_built: Path):
    assert basic_built.stat().st_mode & 0o755 == 0o755


def test_theme_assets_and_vendored_lunr_are_copied(basic_built: Path):
    assert (basic_built / "assets/vendor/lunr.min.js").is_file()
    assert (basic_built / "assets/site.css").is_file()
    page = (basic_built / "guide/install.html").read_text()
    assert 'src="../assets/citesearch.js?v=' in page
    assert (REPO / "theme/static/vendor/lunr.min.js").read_bytes() == (basic_built / "assets/vendor/lunr.min.js").read_bytes()


def test_contract_js_is_generated_from_the_python_contract_into_every_site(basic_built: Path):
    from citesearch.assets import minified
    from citesearch.engine import contract

    shipped = (basic_built / "assets/contract.js").read_text(encoding="utf-8")
    assert shipped == minified("contract.js", contract.javascript().encode("utf-8")).decode("utf-8")
    for name in ("FORMAT_VERSION", "MAX_QUERY_LENGTH"):
        assert re.search(rf"export const {name} ?= ?{getattr(contract, name)};", shipped)
    assert not (REPO / "theme/static/contract.js").exists(), "no hand-kept copy beside the generated one"
    page = (basic_built / "guide/install.html").read_text()
    assert "importmap" not in page  # the modules import each other stamped with the version instead
    version = re.search(r'citesearch\.js\?v=(\w+)"', page).group(1)
    assert re.search(rf'from ?"\./contract\.js\?v={version}";', (basic_built / "assets/query.js").read_text(encoding="utf-8"))


def test_parsing_on_several_cores_gives_the_same_site(tmp_path: Path, monkeypatch):
    import citesearch.pipeline.parse
    import citesearch.pipeline.workers

    build(BASIC_SITE, tmp_path / "one", no_cache=True)
    monkeypatch.setattr(citesearch.pipeline.parse, "PARALLEL_MIN_DOCUMENTS", 1)
    monkeypatch.setattr(citesearch.pipeline.parse.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(citesearch.pipeline.workers.threading, "active_count", lambda: 1)  # other tests' servers
    forked = []
    real_pool = citesearch.pipeline.parse.ProcessPoolExecutor
    monkeypatch.setattr(citesearch.pipeline.parse, "ProcessPoolExecutor", lambda *a, **k: forked.append(1) or real_pool(*a, **k))
    build(BASIC_SITE, tmp_path / "many", no_cache=True)
    assert forked, "the documents were parsed in worker processes"
    assert tree_digest(tmp_path / "one") == tree_digest(tmp_path / "many")
