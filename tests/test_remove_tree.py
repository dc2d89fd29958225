"""remove_tree: a folder removed whole, several files at a time, never following a symlink out of it."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from citesearch.pipeline import remove_tree as module
from citesearch.pipeline.remove_tree import remove_tree


def outside(tmp_path: Path) -> Path:
    keep = tmp_path / "outside"
    (keep / "folder").mkdir(parents=True)
    (keep / "folder" / "precious.txt").write_text("keep me")
    (keep / "file.txt").write_text("keep me too")
    return keep


def test_a_wide_and_deep_tree_is_removed_and_the_symlinks_in_it_are_not_followed(tmp_path, monkeypatch):
    monkeypatch.setattr(module, "_OPEN_FOLDERS", 3)  # folders held open at once: the limit is reached often
    keep = outside(tmp_path)
    tree = tmp_path / "tree"
    for i in range(40):  # wide: many folders of files
        folder = tree / f"wide-{i}" / "inner"
        folder.mkdir(parents=True)
        for j in range(5):
            (folder / f"page-{j}.html").write_bytes(b"x" * (j * 1000))
    deep = tree
    for i in range(60):  # deep: each folder opened through its parent
        deep = deep / f"d{i}"
        deep.mkdir()
        (deep / "f").write_text(str(i))
    (tree / "link-to-folder").symlink_to(keep / "folder")
    (deep / "link-to-file").symlink_to(keep / "file.txt")
    (tree / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tree / "fifo")

    remove_tree(tree)

    assert not tree.exists() and not tree.is_symlink()
    assert (keep / "folder" / "precious.txt").read_text() == "keep me"
    assert (keep / "file.txt").read_text() == "keep me too"
    # Joined: the process may fork its workers again. (Other tests' threads, a served site's, may run.)
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("citesearch-remove")]


def test_a_symlink_given_as_the_folder_is_not_followed(tmp_path):
    keep = outside(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(keep / "folder")
    remove_tree(link)  # as shutil.rmtree(ignore_errors=True): the link is left, what it leads to untouched
    assert (keep / "folder" / "precious.txt").read_text() == "keep me"


def test_a_missing_folder_is_no_error(tmp_path):
    remove_tree(tmp_path / "gone")
    assert not (tmp_path / "gone").exists()
