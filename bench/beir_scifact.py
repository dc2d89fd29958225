"""BEIR SciFact: a public ranking benchmark, run on citesearch's own index and search.

    pip install pytrec-eval-terrier             # trec_eval's measures, as BEIR computes them
    python bench/beir_scifact.py                # this tree's engine
    python bench/beir_scifact.py --v1-plugin /tmp/v1/plugin   # and an older engine beside it
    BEIR_LAYOUTS="sentence-paragraph pages" python bench/beir_scifact.py   # one layout only

The 5,183 abstracts of SciFact (``../shared/beir-scifact``, read in place,
never copied) become pages of a citesearch index, built by
``pipeline.index.build_search_files`` (what ``citesearch build`` writes
under ``site/search/``), and each of the 300 judged test claims is searched
with ``engine.search.SiteSearch`` (what ``citesearch search`` runs).  The
ranked list is the pages in result order, the first 100.  Two layouts:

* **one passage per abstract**: the title and the whole abstract as one chunk;
* **sentence-paragraph pages**: the abstract split into sentences, grouped
  into three consecutive paragraphs (one chunk each), as real docs pages
  hold a few passages.

nDCG@10, Recall@100 and MRR@10 are trec_eval's ``ndcg_cut_10``,
``recall_100`` and ``recip_rank`` (on the run cut to its first 10) via
pytrec_eval, averaged over the 300 queries; queries without a result count
0; nDCG@10 is also given for the claims with even and with odd ids (a
constant chosen on one half is judged on the other).  Published nDCG@10
figures are printed beside them (from ``../shared/beir-scifact/README.md``).
The table goes to ``bench/RESULTS-beir.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from corpora import BENCH_DIR, REPO_DIR, SHARED_DIR

DATA = SHARED_DIR / "beir-scifact"
LAYOUTS = ("one passage per abstract", "sentence-paragraph pages")
PARAGRAPHS = 3
PUBLISHED = [("Lucene/Elasticsearch BM25 (BEIR paper)", 0.665), ("ZBSearch BM25", 0.672),
             ("MiniSearch", 0.624), ("lunr default pipeline", 0.616), ("Orama", 0.324), ("FlexSearch", 0.254)]
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def paragraphs(text: str, layout: str) -> list[str]:
    if layout == LAYOUTS[0]:
        return [text]
    sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
    count = min(PARAGRAPHS, len(sentences))
    bounds = [round(i * len(sentences) / count) for i in range(count + 1)]
    return [" ".join(sentences[a:b]) for a, b in zip(bounds, bounds[1:])]


def build_site(layout: str, site: Path) -> None:
    from citesearch.model import Chunk
    from citesearch.pipeline.index import SearchPage, build_search_files

    pages = []
    for doc in read_jsonl(DATA / "corpus.jsonl"):
        title = doc["title"] or doc["_id"]
        parts = [p for p in paragraphs(doc["text"], layout) if p.strip()] or [title]
        chunks = tuple(Chunk(doc["_id"], f"p{i}", (title,), text, "en") for i, text in enumerate(parts, 1))
        pages.append(SearchPage(doc["_id"], f"{doc['_id']}.html", title, "en", chunks))
    for name, data in build_search_files(pages, "en", {"name": "citesearch", "version": "bench"}).items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def run_layout(layout: str, queries: dict[str, str]) -> dict[str, dict[str, float]]:
    """Per query, the first 100 pages with a descending score (their rank)."""
    from citesearch.engine.search import SiteSearch

    with tempfile.TemporaryDirectory() as tmp:
        build_site(layout, Path(tmp))
        search = SiteSearch(Path(tmp))
        run = {}
        for n, (qid, text) in enumerate(queries.items()):
            if n % 50 == 0:
                print(f"{layout}: {n} of {len(queries)} claims", file=sys.stderr, flush=True)
            docs: list[str] = []
            if hasattr(search, "pages"):
                # v2: the pages of search(), without quoting their passages.
                pages, _, _ = search.pages(text, limit=100, prefix=False, per_page=1)
                docs = [shard.chunk(page.ref)[0][0] for shard, page in pages]
            else:  # v1 lists passages (300 reach ~100 abstracts)
                for result in search.search(text, limit=300, prefix=False).results:
                    if result.doc_id not in docs:
                        docs.append(result.doc_id)
            run[qid] = {doc: float(100 - rank) for rank, doc in enumerate(docs[:100])}
        return run


def measure(run: dict, qrels: dict) -> dict[str, float]:
    import pytrec_eval

    full = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100"}).evaluate(run)
    top10 = {q: dict(sorted(docs.items(), key=lambda d: -d[1])[:10]) for q, docs in run.items()}
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top10)
    n = len(qrels)  # a query without any result scores 0 on every measure
    found = {
        "nDCG@10": sum(full.get(q, {}).get("ndcg_cut_10", 0) for q in qrels) / n,
        "Recall@100": sum(full.get(q, {}).get("recall_100", 0) for q in qrels) / n,
        "MRR@10": sum(rr.get(q, {}).get("recip_rank", 0) for q in qrels) / n,
    }
    # The two halves by claim id: a constant chosen on the even ids is judged on the odd ones.
    for half, parity in (("even", 0), ("odd", 1)):
        claims = [q for q in qrels if int(q) % 2 == parity]
        found[f"nDCG@10 {half} ids"] = sum(full.get(q, {}).get("ndcg_cut_10", 0) for q in claims) / max(1, len(claims))
    return found


def evaluate() -> dict[str, dict[str, float]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in (DATA / "qrels_test.tsv").read_text().splitlines()[1:]:
        qid, doc, score = line.split("\t")
        qrels.setdefault(qid, {})[doc] = int(score)
    queries = {q["_id"]: q["text"] for q in read_jsonl(DATA / "queries.jsonl") if q["_id"] in qrels}
    if os.environ.get("BEIR_CLAIMS"):  # a partial run: the first N judged claims, in file order
        queries = dict(list(queries.items())[:int(os.environ["BEIR_CLAIMS"])])
        qrels = {q: qrels[q] for q in queries}
    found = {}
    layouts = [name for name in LAYOUTS if name in os.environ.get("BEIR_LAYOUTS", name)]
    for layout in sorted(layouts, key=lambda name: name != os.environ.get("BEIR_FIRST")):
        found[layout] = measure(run_layout(layout, queries), qrels)
        print(layout, found[layout], file=sys.stderr, flush=True)  # partial results of a long run
    return found


def in_child(plugin: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin), str(BENCH_DIR)])}
    done = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout)


def table(results: dict[str, dict]) -> str:
    lines = ["| system | layout | nDCG@10 | Recall@100 | MRR@10 | nDCG@10 even ids | nDCG@10 odd ids |",
             "|---|---|---|---|---|---|---|"]
    for system, by_layout in results.items():
        for layout, m in by_layout.items():
            halves = " | ".join(f"{m[f'nDCG@10 {h} ids']:.3f}" if f"nDCG@10 {h} ids" in m else "–" for h in ("even", "odd"))
            lines.append(f"| {system} | {layout} | {m['nDCG@10']:.3f} | {m['Recall@100']:.3f} | {m['MRR@10']:.3f} | {halves} |")
    for name, ndcg in PUBLISHED:
        lines.append(f"| {name} (published) | one document per abstract | {ndcg:.3f} | – | – | – | – |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--v1-plugin", type=Path, help="plugin/ folder of an older engine, measured beside this one")
    p.add_argument("--before-plugin", type=Path, help="plugin/ folder of this engine before a change, measured beside it")
    p.add_argument("--out", type=Path, default=BENCH_DIR / "RESULTS-beir.md")
    p.add_argument("--claims", type=int, help="only the first N judged claims (a partial run, said in the table)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.claims:
        os.environ["BEIR_CLAIMS"] = str(args.claims)
    if args.child:
        json.dump(evaluate(), sys.stdout)
        return
    results = {}
    if args.v1_plugin:
        results["citesearch v1"] = in_child(args.v1_plugin.resolve())
    if args.before_plugin:
        results["citesearch v2 before"] = in_child(args.before_plugin.resolve())
    results["citesearch v2"] = in_child(REPO_DIR / "plugin")
    text = table(results)
    scope = f"the first {args.claims} of the 300 judged claims" if args.claims else "all 300 judged claims"
    args.out.write_text(f"# BEIR SciFact test set (bench/beir_scifact.py)\n\ncitesearch rows: {scope}.\n\n" + text,
                        encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
