"""One-document edit -> new site in ``citesearch serve``: the rebuild after a save.

    python bench/edit_latency.py --corpora fastapi-en,rust-rfcs --edits 5

Runs serve's own rebuild (``serve.Preview.rebuild``) in this process, as the
server does after its watcher reports a save: a first build warms the cache,
then each edit appends a paragraph with a new word to one document and times
the rebuild until the new site is swapped in (wall and this process's CPU).
Left out: the watcher's 50 ms grouping of a burst and the page's reload;
``tests/test_serve.py`` prints the whole save -> reload time in Chromium.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from corpora import CORPORA, REPO_DIR, WORK_DIR, available, copy_markdown, markdown_files
from report import load_average

# The document edited in each corpus: a mid-sized page.
EDITED = {"fastapi-en": "tutorial/path-params.md", "fastapi-ru": "tutorial/path-params.md",
          "fastapi-zh": "tutorial/path-params.md", "rust-rfcs": "0002-rfc-process.md"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default="fastapi-en,rust-rfcs")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--work", type=Path, default=WORK_DIR)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_DIR / "plugin"))  # measure the working tree's citesearch
    from citesearch.serve import Preview

    wanted = [c.strip() for c in args.corpora.split(",")]
    print(f"load average before {load_average()}")
    print("| corpus | documents | first build s | edit rebuild s (median) | cpu s (median) | all edits s |")
    print("|---|---|---|---|---|---|")
    for corpus in available(CORPORA):
        if corpus.name not in wanted:
            continue
        content = args.work.resolve() / corpus.name / "edit-src"
        files = markdown_files(corpus.source)
        copy_markdown(corpus.source, files, content)
        (content / "citesearch.yml").write_text(f"title: {corpus.name}\nlang: {corpus.lang}\n", encoding="utf-8")
        preview = Preview(content, cache_dir=content.parent / "edit-cache")
        started = time.perf_counter()
        assert preview.rebuild(), f"{corpus.name}: the first build failed"
        first = time.perf_counter() - started
        edited = content / EDITED[corpus.name]
        original = edited.read_text(encoding="utf-8")
        walls, cpus = [], []
        for n in range(args.edits):
            edited.write_text(f"{original}\n\nAn edit adds the word benchedit{n} here.\n", encoding="utf-8")
            wall, cpu = time.perf_counter(), time.process_time()
            assert preview.rebuild(), f"{corpus.name}: rebuild after edit {n} failed"
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        edited.write_text(original, encoding="utf-8")
        print(f"| {corpus.name} | {len(files)} | {first:.2f} | {statistics.median(walls):.2f} | "
              f"{statistics.median(cpus):.2f} | {', '.join(f'{w:.2f}' for w in walls)} |")
    print(f"load average after {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
