"""Search quality on judged known-item queries: citesearch v1 vs v2 (vs the peers).

    python bench/quality.py --v1-plugin /tmp/v1/plugin        # v1 = an older checkout's plugin/
    python bench/quality.py --corpora fastapi-en --no-v1
    python bench/quality.py --peers                            # + Pagefind and MkDocs, in Chromium
    python bench/quality.py --held-out --peers                 # the held-out sites only (see below)

The judged sets (``queries.judged_queries``, seeded, the same on every run),
per corpus: 100 known-item queries of a sentence's two rarest words, 100 of
its three rarest words, and 50 section headings that occur in one document
only.  Each query knows its document and its sentence (or heading).

**Held-out sites** (``--held-out``, or their names in ``--corpora``: httpx-docs,
mkdocs-docs, typer-docs from ../shared/realsites; markdown-docs, Python-Markdown's
docs folder from its source distribution on PyPI; bem-ru, the Russian docs of
the BEM libraries from their npm tarballs): real projects' documentation,
judged the same way.  They measure what readers of a site we never saw get,
so they are reported and never used to choose a constant or a ranking
criterion: tune on the shared corpora (even ids), report those sets' odd ids,
and report the held-out sites as they fall.

Metrics, per set:

* **doc@1 / doc@5**: the query's document is the first / among the first five
  distinct pages in result order;
* **MRR**: the mean of 1/rank of the document among the first 10 pages (0
  beyond);
* **passage@5**: the document is among the first five pages and the passage
  a reader lands on there -- the first result of that page -- holds every
  word of the sentence (heading queries: its heading path ends with the
  heading, or holds it when the heading's section has no text of its own
  before its subsections), as ``relevance.passage_matches`` judges.

citesearch runs through ``SiteSearch`` (the code behind ``citesearch search``)
in a child process per version, each with its own ``plugin/`` on
``PYTHONPATH``; each version builds its own site (format 3 vs 4).  The
peers are measured from what their UI shows in Chromium (``browser.py``:
the first five pages only, so their MRR is MRR@5 and passage@5 is not
defined).  Everything is written under ``--work`` (default
``bench/work/quality``); the table goes to ``bench/RESULTS-quality.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import yaml

from corpora import BENCH_DIR, CORPORA, HELD_OUT, REPO_DIR, WORK_DIR, available, copy_markdown, markdown_files
from queries import TIMING_QUERIES, Query, doc_key, judged_queries
from relevance import passage_matches

SETS = (("words", 2), ("words3", 3))
PAGES = 10  # pages read per query: MRR is MRR@10


def judged(corpus, typos: bool = False) -> list[Query]:
    files = markdown_files(corpus.source)
    two = judged_queries(corpus, files, words=2)
    three = judged_queries(corpus, files, headings=0, words=3)
    found = two + [Query(q.text, "words3", q.doc, q.heading, q.sentence) for q in three]
    return found + typo_queries(corpus, two) if typos else found


def typo_queries(corpus, queries: list[Query]) -> list[Query]:
    """The two-word queries with one edit (a letter dropped, doubled or two
    swapped) in their longest word, seeded: does one typo still find the page?"""
    rng = random.Random(f"{corpus.name}:typo")
    result = []
    for q in queries:
        words = q.text.split()
        if q.kind != "words" or corpus.lang == "zh":
            continue
        i = max(range(len(words)), key=lambda n: len(words[n]))
        word = words[i]
        at = rng.randrange(1, len(word) - 1)
        edit = rng.choice(["drop", "double", "swap"])
        if edit == "drop":
            word = word[:at] + word[at + 1:]
        elif edit == "double":
            word = word[:at] + word[at] + word[at:]
        else:
            word = word[:at - 1] + word[at] + word[at - 1] + word[at + 1:]
        result.append(Query(" ".join(words[:i] + [word] + words[i + 1:]), "typo", q.doc, sentence=q.sentence))
    return result


def build(corpus, plugin: Path, site: Path, src: Path) -> None:
    if (site / "search" / "manifest.json").is_file():
        return
    if not src.is_dir():
        copy_markdown(corpus.source, markdown_files(corpus.source), src)
        (src / "citesearch.yml").write_text(
            yaml.safe_dump({"title": corpus.title, "lang": corpus.lang}, allow_unicode=True), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(plugin)}
    subprocess.run([sys.executable, "-m", "citesearch", "build", str(src), "--out", str(site),
                    "--cache-dir", str(site.with_suffix(".cache"))], env=env, check=True, capture_output=True)


def answers(plugin: Path, site: Path, queries: list[Query]) -> list[list[list]]:
    """Per query, ``[doc_id, heading path, text]`` of each result, from a child
    process running that version's ``SiteSearch``."""
    env = {**os.environ, "PYTHONPATH": str(plugin)}
    done = subprocess.run([sys.executable, __file__, "--answer", str(site)], env=env, check=True,
                          input=json.dumps([q.text for q in queries]), capture_output=True, text=True)
    return json.loads(done.stdout)


def _answer(site: str) -> None:
    from citesearch.engine.search import SiteSearch

    search = SiteSearch(Path(site))
    out = []
    for text in json.loads(sys.stdin.read()):
        # v1 lists passages (50 reach ~10 pages), v2 pages (each with its passages).
        results = search.search(text, limit=50).results
        out.append([[r.doc_id, r.heading, search.text(r)] for r in results])
    json.dump(out, sys.stdout)


def scores(queries: list[Query], results: list[list[list]] | None, top_docs: dict | None = None) -> dict:
    """doc@1, doc@5, MRR and passage@5 of each kind of query."""
    table: dict[str, dict] = {}
    for i, query in enumerate(queries):
        if results is not None:
            docs, landed = [], {}
            for doc_id, heading, text in results[i]:
                key = doc_key(doc_id)
                if key not in landed:
                    docs.append(key)
                    landed[key] = (heading, text)
        else:
            docs, landed = top_docs.get(query.text, []), None
        docs = docs[:PAGES]
        rank = docs.index(query.doc) + 1 if query.doc in docs else 0
        row = table.setdefault(query.kind, {"n": 0, "doc@1": 0, "doc@5": 0, "MRR": 0.0, "passage@5": 0})
        row["n"] += 1
        row["doc@1"] += rank == 1
        row["doc@5"] += 0 < rank <= 5
        row["MRR"] += 1 / rank if rank else 0
        if landed is None:
            row["passage@5"] = None
        elif 0 < rank <= 5 and passage_matches(query, *landed[query.doc]):
            row["passage@5"] += 1
    return {kind: {k: (v / row["n"] if k != "n" and v is not None else v) for k, v in row.items()}
            for kind, row in table.items()}


def peer_top_docs(corpus, queries: list[Query], base: Path) -> dict[str, dict]:
    """Pagefind's and MkDocs' first five pages per query, from their UI in
    Chromium (``browser.py``'s harness, the sites ``systems.py`` builds)."""
    from playwright.sync_api import sync_playwright

    import peers
    from browser import NO_RESULT_MS, _clear, _search, cold_load, launch, top_docs
    from server import SiteServer
    from systems import finish_site, prepare

    bin_dir = peers.ensure()
    systems = [s for s in prepare(corpus, markdown_files(corpus.source), base / "peers", bin_dir)
               if s.name in ("pagefind", "mkdocs")]
    for system in systems:
        if not (system.site / system.page).is_file():
            for step in system.steps:
                subprocess.run(step, cwd=system.cwd, env=system.env, check=True, capture_output=True)
            finish_site(system, corpus)
    found: dict[str, dict] = {}
    with sync_playwright() as pw:
        chromium = launch(pw)
        for system in systems:
            tops = found[system.name] = {}
            with SiteServer(system.site) as server:
                error, page = cold_load(chromium, server, system, warm_up(corpus, queries))
                if page is None:
                    print(f"{corpus.name} {system.name}: {error}", file=sys.stderr)
                    del found[system.name]
                    continue
                for query in queries:
                    _clear(page, system)
                    tops[query.text] = top_docs(_search(page, system, query.text, NO_RESULT_MS)["links"])
                page.context.close()
        chromium.close()
    return found


def warm_up(corpus, queries: list[Query]) -> str:
    """The cold load's query, before the judged ones: the corpus's first timing
    query, or on a held-out site its first judged query, words of its own
    language found on a page (a Latin name finds nothing in MkDocs' Russian-only
    index, which would leave MkDocs out of the table)."""
    return TIMING_QUERIES[corpus.name][0] if corpus.name in TIMING_QUERIES else queries[0].text


def print_failures(corpus: str, system: str, queries: list[Query], results: list[list[list]]) -> None:
    """The queries a system does not answer first, or whose landed passage misses: what to look at."""
    for query, found in zip(queries, results):
        docs, landed = [], {}
        for doc_id, heading, text in found:
            if doc_key(doc_id) not in landed:
                docs.append(doc_key(doc_id))
                landed[doc_key(doc_id)] = (heading, text)
        first = docs[:1] == [query.doc]
        passage = query.doc in docs[:5] and passage_matches(query, *landed[query.doc])
        if not (first and passage):
            rank = docs.index(query.doc) + 1 if query.doc in docs[:PAGES] else 0
            print(f"{corpus} {system} {query.kind} rank={rank} passage={passage} {query.text!r} -> {query.doc}"
                  f" | first: {docs[:3]} | sentence: {(query.sentence or query.heading)[:120]!r}", file=sys.stderr)


KINDS = (("words", "2 rarest words"), ("words3", "3 rarest words"), ("heading", "heading"),
         ("typo", "2 words, one typo"))


def table(rows: list[tuple[str, str, dict]]) -> str:
    lines = ["| corpus | system | queries | n | doc@1 | doc@5 | MRR | passage@5 |", "|---|---|---|---|---|---|---|---|"]
    for corpus, system, by_kind in rows:
        for kind, label in KINDS:
            if kind not in by_kind:
                continue
            s = by_kind[kind]
            passage = "–" if s["passage@5"] is None else f"{s['passage@5']:.2f}"
            lines.append(f"| {corpus} | {system} | {label} | {s['n']} | {s['doc@1']:.2f} | {s['doc@5']:.2f} | "
                         f"{s['MRR']:.3f} | {passage} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpora", nargs="*", default=[c.name for c in CORPORA],
                   choices=[c.name for c in CORPORA + HELD_OUT])
    p.add_argument("--held-out", action="store_true", help="the held-out sites (never tuned on) instead")
    p.add_argument("--v1-plugin", type=Path, help="plugin/ folder of the older engine (e.g. a worktree at e260677)")
    p.add_argument("--peers", action="store_true", help="also Pagefind and MkDocs, in Chromium")
    p.add_argument("--only-peers", action="store_true", help="Pagefind and MkDocs only")
    p.add_argument("--smoke", type=int, help="only the first N queries of each corpus")
    p.add_argument("--typos", action="store_true", help="also the two-word queries with one typo")
    p.add_argument("--kinds", nargs="*", help="only these kinds of query (words, words3, heading, typo)")
    p.add_argument("--work", type=Path, default=WORK_DIR / "quality")
    p.add_argument("--out", type=Path, default=BENCH_DIR / "RESULTS-quality.md")
    p.add_argument("--failures", action="store_true",
                   help="print each query whose page is not first or whose landed passage misses, with the first pages")
    p.add_argument("--answer", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.answer:
        return _answer(args.answer)
    versions = [("citesearch v2", REPO_DIR / "plugin", "v2")]
    if args.v1_plugin:
        versions.insert(0, ("citesearch v1", args.v1_plugin.resolve(), "v1"))
    rows = []
    names = [c.name for c in HELD_OUT] if args.held_out else args.corpora
    for corpus in available([c for c in CORPORA + HELD_OUT if c.name in names]):
        base = args.work / corpus.name
        queries = [q for q in judged(corpus, args.typos) if not args.kinds or q.kind in args.kinds][: args.smoke]
        (base).mkdir(parents=True, exist_ok=True)
        (base / "judged.json").write_text(json.dumps([asdict(q) for q in queries], ensure_ascii=False, indent=1))
        for name, plugin, folder in [] if args.only_peers else versions:
            build(corpus, plugin, base / folder, base / "src")
            found = answers(plugin, base / folder, queries)
            rows.append((corpus.name, name, scores(queries, found)))
            if args.failures:
                print_failures(corpus.name, name, queries, found)
            print(table(rows[-1:]), file=sys.stderr)
        if args.peers or args.only_peers:
            for name, top in peer_top_docs(corpus, queries, base).items():
                rows.append((corpus.name, name, scores(queries, None, top)))
                print(table(rows[-1:]), file=sys.stderr, flush=True)
    text = table(rows)
    args.out.write_text("# Search quality: judged known-item queries (bench/quality.py)\n\n" + text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
