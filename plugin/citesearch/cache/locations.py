"""Where the build cache lives: beside the output, never inside the content."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from ..errors import UsageError

# Where earlier versions kept the cache: inside the content folder.  Nothing
# reads or writes it any more (the loader skips dot folders); it can be deleted.
LEGACY_DIR = ".citesearch-cache"


def for_output(out: Path) -> Path:
    """``site`` -> ``site.cache``: beside the output, so content stays untouched."""
    if not out.name:  # "." or "/": name it after the folder it stands for
        out = Path(os.path.abspath(out))
    return out.parent / f"{out.name or 'site'}.cache"


def for_preview(content_dir: Path) -> Path:
    """``serve`` has no output folder: one cache per content folder in the user's cache."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    content = os.path.abspath(content_dir)
    name = f"{Path(content).name or 'root'}-{hashlib.sha256(content.encode()).hexdigest()[:16]}"
    return root / "citesearch" / name


def check_location(cache_dir: Path, content_dir: Path, out: Path | None = None) -> None:
    """Refuse a cache folder where it would write into the sources or be replaced with the site."""
    cache = Path(os.path.realpath(cache_dir))
    for role, folder in (("content", content_dir), ("output", out)):
        if folder is not None and _within(cache, Path(os.path.realpath(folder))):
            raise UsageError(
                f"cache folder {cache_dir} is inside the {role} folder {folder}; choose one outside it with --cache-dir"
            )


def read_only(folder: Path) -> Path | None:
    """The folder, or the nearest existing folder above it, when nobody may write to it.

    Checked by mode bits as well as ``os.access``, which says yes to root:
    a folder made read-only on purpose stays untouched even then.
    """
    for candidate in (folder, *folder.absolute().parents):
        try:
            mode = candidate.stat().st_mode
        except OSError:
            continue
        if not stat.S_ISDIR(mode):
            return None  # a file in the way: creating the folder fails with a clear OSError
        writable = stat.S_IMODE(mode) & 0o222 and os.access(candidate, os.W_OK)
        return None if writable else candidate
    return None


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
