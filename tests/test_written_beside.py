"""StagedSite.written_beside: files a forked process writes while the caller goes on making the next."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from citesearch.errors import UsageError
from citesearch.pipeline import write as write_module
from citesearch.pipeline.write import StagedSite

# Larger than the pipe (1 MB) and its frames; empty; a name that is not ASCII; a nested folder.
FILES = {
    "search/big.json": bytes(range(256)) * 12_000,
    "search/empty.json": b"",
    "search/é/ü.json": "ünïcode".encode("utf-8"),
    **{f"search/{n:03d}.json": f"file {n}".encode() * n for n in range(300)},
}


def files_on_disk(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def forks(monkeypatch):
    counted: list[int] = []
    real = StagedSite.fill_in_child
    monkeypatch.setattr(StagedSite, "fill_in_child", lambda self, fill: counted.append(1) or real(self, fill))
    return counted


@pytest.fixture
def may_fork(monkeypatch):
    """This process as a run of ``index`` is when the writer forks: no other thread.  The whole suite's
    served sites leave threads in the test process, which would make every run here write in-process."""
    monkeypatch.setattr(write_module, "fork_is_safe", lambda: True)


def test_files_put_beside_are_all_on_disk_with_their_sizes_when_the_block_ends(tmp_path, forks, may_fork):
    out = tmp_path / "site"
    out.mkdir()  # a site another tool made (owned=False): replaced whole
    with StagedSite(out, owned=False) as site:
        with site.written_beside() as files:
            for rel, data in FILES.items():
                files[rel] = data
            assert files["search/big.json"] == FILES["search/big.json"]  # still readable here
        assert site.sizes == {rel: len(data) for rel, data in FILES.items()}
        site.publish()
    assert forks == [1]
    assert files_on_disk(out) == FILES


def test_a_failing_disk_in_the_writer_is_one_usage_error_and_nothing_is_replaced(tmp_path, forks, may_fork, monkeypatch):
    out = tmp_path / "site"
    out.mkdir()
    (out / "old.html").write_text("old")
    real_write = write_module._write_file

    def write_file(path, data):  # runs in the forked writer
        if path.endswith("/150.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(path, data)

    monkeypatch.setattr(write_module, "_write_file", write_file)
    with pytest.raises(UsageError, match="No space left on device; nothing was replaced"):
        with StagedSite(out, owned=False) as site:
            with site.written_beside() as files:
                for rel, data in FILES.items():  # the writer stops at 150: the rest meet a closed pipe
                    files[rel] = data
            site.publish()
    assert forks == [1]
    assert files_on_disk(out) == {"old.html": b"old"}
    assert not list(tmp_path.glob(".site.tmp-*"))


def test_a_failure_while_the_files_are_made_leaves_no_writer_and_no_temporary_folder(tmp_path, forks, may_fork):
    out = tmp_path / "site"
    with pytest.raises(ZeroDivisionError):
        with StagedSite(out, owned=False) as site:
            with site.written_beside() as files:
                files["search/a.json"] = b"a"
                children = list(site._children)
                1 / 0
    assert forks == [1] and len(children) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(children[0], os.WNOHANG)  # killed and waited for
    assert not out.exists() and not list(tmp_path.glob(".site.tmp-*"))


def test_with_another_thread_running_the_files_are_written_here_without_forking(tmp_path, forks):
    out = tmp_path / "site"
    out.mkdir()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, name="another thread")
    other.start()
    try:
        with StagedSite(out, owned=False) as site:
            with site.written_beside() as files:
                for rel, data in FILES.items():
                    files[rel] = data
            site.publish()
    finally:
        stop.set()
        other.join()
    assert forks == []
    assert files_on_disk(out) == FILES
