// Usage: node refine-batch.mjs < {"cases": [{"query", "prefix", "words", "rows", "scores", "texts": [[ref, [heading, text]], ...]}]}
// Ranks each case with the shipped rank.js, refines the first screen with the
// passages' texts, and prints per case its pages as
// [ref, criteria, [[passage ref, criteria], ...]]: the Node half of the
// refine parity test (tests/test_ranking.py).
import { createRequire } from "node:module";
import { asset, stdinJson } from "./assets.mjs";

const { createAnalyzer } = await import(asset("analyzer.js"));
const { rank, refine } = await import(asset("rank.js"));
const analyzer = createAnalyzer(createRequire(import.meta.url)("./load-vendor.cjs"));

const { cases } = await stdinJson();
const answers = cases.map(({ query, prefix, words, rows, scores, texts }) => {
  const pages = rank(words, rows, new Map(scores));
  return refine(analyzer, pages, words, new Map(texts), query, { prefix, perPage: 3 }).map((page) => [
    page.ref,
    page.criteria,
    page.passages.map((p) => [p.ref, p.criteria]),
  ]);
});
process.stdout.write(JSON.stringify(answers));
