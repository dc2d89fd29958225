"""Where a site may be written: never over the content, never over a folder citesearch did not write.

A build replaces its output folder whole, so a careless ``--out`` could delete
the sources (``--out docs``, ``--out .``) or someone's unrelated files.  Every
site citesearch writes carries a small marker file at its root listing the
files it wrote; only a folder with the marker and nothing else, an empty
folder or no folder at all is ever replaced.  A file the marker does not list
(an upload added after ``cp -a site/. www/``) stops the build, named.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from ..engine.contract import MANIFEST_NAME, SEARCH_DIR
from ..errors import UsageError
from .source_files import read_regular, shown_name

MARKER_NAME = ".citesearch-site"
_MAX_MANIFEST_BYTES = 1 << 20  # a real manifest is a few hundred bytes
_MAX_MARKER_BYTES = 64 << 20  # the file list of a very large site is a few MB
# What markers said before they listed the files: such a site may be replaced by a build writing every file it holds.
LEGACY_MARKER_TEXT = b"This folder is a site written by citesearch; 'citesearch build' replaces it whole.\n"
MARKER_HEADER = (
    b"This folder is a site written by citesearch. 'citesearch build' replaces it, "
    b"unless it holds a file not listed below.\n\n"
)


def marker_text(written: Iterable[str]) -> bytes:
    """The marker of a site: the files written, sorted, so the site stays byte-identical from build to build."""
    return MARKER_HEADER + "".join(f"{rel}\n" for rel in sorted(written)).encode("utf-8", "surrogateescape")


def written_files(out: Path) -> frozenset[str] | None:
    """The files the marker in ``out`` lists; None for a site from before the list (or without a marker)."""
    try:
        if os.stat(out / MARKER_NAME).st_size > _MAX_MARKER_BYTES:
            raise UsageError(f"output folder {shown_name(out)} has a marker file {MARKER_NAME} too large to be citesearch's")
        text = read_regular(out / MARKER_NAME)
    except FileNotFoundError:
        return None
    if not text.startswith(MARKER_HEADER):
        return None
    return frozenset(text[len(MARKER_HEADER):].decode("utf-8", "surrogateescape").splitlines())


def foreign_files(out: Path, written: frozenset[str]) -> list[str]:
    """Files, symlinks and special files in ``out`` that are not in ``written`` (the marker aside), sorted."""
    found = []
    for folder, dirs, files in os.walk(out, onerror=_raise):
        rel_folder = os.path.relpath(folder, out)
        for name in [*files, *(d for d in dirs if os.path.islink(os.path.join(folder, d)))]:
            rel = name if rel_folder == "." else f"{rel_folder}/{name}"
            if rel not in written and rel != MARKER_NAME:
                found.append(rel)
    return sorted(found)


def _raise(exc: OSError) -> None:
    raise exc


def check_no_foreign_files(out: Path, written: frozenset[str] | None) -> None:
    """Refuse to replace a site holding files citesearch did not write.

    ``written`` is what the marker lists, or for a site marked before the list
    existed, what this build writes: nothing else may be lost.
    """
    if written is None:
        return
    foreign = foreign_files(out, written)
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise UsageError(
            f"output folder {shown_name(out)} holds {shown_name(foreign[0])}{more}, which citesearch did not write; "
            f"refusing to replace it: move such files out of {shown_name(out)}, or choose another --out"
        )


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


def check_output_folder_replaceable(out: Path, writing: frozenset[str] | None = None) -> None:
    """Only a missing folder, an empty one or a site citesearch wrote, holding nothing else, may be replaced.

    ``writing``: the files the build writes, once known; a site marked before
    markers listed files may lose none but those.
    """
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
    if not empty:
        listed = written_files(out)
        check_no_foreign_files(out, listed if listed is not None else writing)
