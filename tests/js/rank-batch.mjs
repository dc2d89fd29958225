// Usage: node rank-batch.mjs < {"cases": [{"words": [...], "rows": [...], "scores": [[ref, score], ...]}]}
// Ranks each case with the shipped rank.js and prints, per case, its pages as
// [ref, criteria, [[passage ref, criteria], ...]]: the Node half of the
// ranking parity tests (tests/test_ranking.py).
import { asset, stdinJson } from "./assets.mjs";

const { rank } = await import(asset("rank.js"));

const { cases } = await stdinJson();
const answers = cases.map(({ words, rows, scores }) =>
  rank(words, rows, new Map(scores)).map((page) => [page.ref, page.criteria, page.passages.map((p) => [p.ref, p.criteria])]),
);
process.stdout.write(JSON.stringify(answers));
