"""Where a site may be written: never over the content, never over a folder citesearch did not write.

A build replaces its output folder whole, so a careless ``--out`` could delete
the sources (``--out docs``, ``--out .``) or someone's unrelated files.  Every
site citesearch writes carries a small marker file at its root; only a folder
with the marker, an empty folder or no folder at all is ever replaced.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..engine.contract import MANIFEST_NAME, SEARCH_DIR
from ..errors import UsageError
from .source_files import read_regular, shown_name

MARKER_NAME = ".citesearch-site"
_MAX_MANIFEST_BYTES = 1 << 20  # a real manifest is a few hundred bytes
# Fixed text, so the site stays byte-identical from build to build.
MARKER_TEXT = b"This folder is a site written by citesearch; 'citesearch build' replaces it whole.\n"


def is_citesearch_output(folder: Path) -> bool:
    """True for a site citesearch wrote: the marker, or the manifest of a site built before the marker existed."""
    if (folder / MARKER_NAME).is_file():
        return True
    manifest_path = folder / SEARCH_DIR / MANIFEST_NAME
    try:
        if os.stat(manifest_path).st_size > _MAX_MANIFEST_BYTES:  # not ours: never read a huge file to find out
            return False
        manifest = json.loads(read_regular(manifest_path))  # a FIFO here must not hang the walk
        return manifest.get("generator", {}).get("name") == "citesearch"
    except (OSError, ValueError, AttributeError):
        return False


def check_output_folder(out: Path, content_dir: Path, default_name: str = "site") -> None:
    """Refuse an output folder whose replacement would destroy content or files citesearch did not write."""
    _check_apart_from_content(out, content_dir, default_name)
    try:
        check_output_folder_replaceable(out)
    except OSError as exc:
        raise UsageError(f"cannot use output folder {shown_name(out)}: {exc.strerror or exc}") from None


def _check_apart_from_content(out: Path, content_dir: Path, default_name: str) -> None:
    out_real = Path(os.path.realpath(out))
    content_real = Path(os.path.realpath(content_dir))
    if out_real == content_real:
        problem = "is the content folder"
    elif out_real in content_real.parents:
        problem = f"contains the content folder {shown_name(content_dir)}: replacing it would delete the content"
    elif content_real in out_real.parents:
        problem = f"is inside the content folder {shown_name(content_dir)}"
    else:
        return
    raise UsageError(
        f"output folder {shown_name(out)} {problem}; choose an output folder outside the content folder, "
        f"for example --out {_beside(content_real, default_name)}"
    )


def _beside(content_real: Path, name: str) -> str:
    """A suggested output folder next to the content folder, as the user would type it."""
    suggestion = content_real.parent / name
    if suggestion == content_real:
        suggestion = content_real.parent / f"{name}-out"
    return shown_name(os.path.relpath(suggestion))


def check_output_folder_replaceable(out: Path) -> None:
    """Only a missing folder, an empty one or a site citesearch wrote may be replaced."""
    existing = next((p for p in (out, *out.parents) if p.exists() or p.is_symlink()), None)
    if existing is not None and existing != out and not existing.is_dir():
        raise UsageError(f"output folder {shown_name(out)} cannot be created: {shown_name(existing)} is not a folder")
    holder = out.parent if existing == out else existing  # where the temporary folder (or the parents) will be made
    if holder is not None and not os.access(holder, os.W_OK | os.X_OK):  # fail before the build, not after it
        raise UsageError(f"output folder {shown_name(out)} cannot be written: {shown_name(holder)} is not writable")
    if existing != out:
        return
    if out.is_symlink():
        raise UsageError(f"output folder {shown_name(out)} is a symlink; pass the folder it points to instead")
    if not out.is_dir():
        raise UsageError(f"output path {shown_name(out)} exists and is not a folder")
    try:
        with os.scandir(out) as entries:
            empty = next(entries, None) is None
    except OSError as exc:
        raise UsageError(f"cannot read output folder {shown_name(out)}: {exc.strerror}") from None
    if not empty and not is_citesearch_output(out):
        raise UsageError(
            f"output folder {shown_name(out)} is not empty and was not written by citesearch; "
            "refusing to replace it (choose another --out, or empty the folder first)"
        )
