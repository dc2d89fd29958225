// Usage: node lazy-rank.mjs SITE_DIR LANG < {"queries": [...], "prefix": bool, "pages": [n, ...], "perPage": 3}
// (SITE_DIR may be a search folder's parent built with small split rows: format 7's blocks.)
// For each query on a built site's sharded index, ranks every page eagerly
// (every passage scored by lunr on the whole index of the query's rows, as
// rank.js's `search` did before it became lazy) and lazily
// (`search(..., {pages: n})`), refines both, and reports, per n, where the
// lazy ranking differs from the eager one on its first n pages (the pages a
// reader can be shown) or in the page order: the Node test that keeps
// rank.js's laziness from changing results (tests/test_rank_lazy.py).
// Answers, per query, {pages: pages found, scored: refs the eager ranking
// scored, differences: {n: null | "what differs"}, blocks: {n: block files the
// lazy ranking read}, blocks_whole: those the whole rows are in}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { asset } from "./assets.mjs";
import { analyzer, lunr } from "./vectors.mjs";

const query = await import(asset("query.js"));
const rank = await import(asset("rank.js"));
const { assemble, createShardedIndex } = await import(asset("shards.js"));
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { queries, prefix, pages: sizes, perPage } = JSON.parse(input);

const searchDir = path.join(process.argv[2], "search");
const manifest = readJson(path.join(searchDir, "manifest.json"));
const load = async (name) => readJson(path.join(searchDir, name));
let blocksRead = 0; // block files a lazy index read (format 7)
const counted = (name) => {
  if (name.startsWith("block.")) blocksRead++;
  return load(name);
};
const open = (read = counted) => createShardedIndex({ lunr, query, analyzer, entry: manifest.languages[process.argv[3]], fields: manifest.fields, load: read });
// The eager ranking reads every row whole; each lazy one starts from a fresh
// index, so it reads only the blocks it proves its first screen with.
const index = open(load);

async function eager(text) {
  const items = query.clauses(analyzer, text, { prefix });
  if (!items.length) return { pages: [], fuzzy: false };
  const rows = await index.rows([...items, ...query.fuzzyClauses(items)]);
  const found = query.run(lunr, assemble(lunr, index.fields, rows), analyzer, text, { prefix });
  const scores = new Map(found.hits.map((hit) => [Number(hit.ref), hit.score]));
  const pages = rank.rank(query.words(analyzer, text, { prefix }), rows, scores);
  return { pages, fuzzy: rank.typoOnly(pages) };
}

// What the second stage reads: the heading path and text of the first
// screen's shown passages.
async function refined(text, pages) {
  const refs = rank.refinedRefs(pages, perPage);
  const texts = new Map();
  for (const ref of refs) {
    const { heading, text: body, bare } = await index.chunk(ref);
    texts.set(ref, [heading, body, bare]);
  }
  return rank.refine(analyzer, pages, query.words(analyzer, text, { prefix }), texts, text, { prefix, perPage });
}

const shown = (page) => JSON.stringify([page.ref, page.criteria, page.key, page.passages.map((p) => [p.ref, p.criteria, p.key])]);

// `part` holds the first n pages only (a first screen proven from a part of
// the postings: rank.js `search` with `pages`).
function difference(whole, part, n, stage) {
  whole = whole.slice(0, n);
  if (whole.length !== part.length) return `${stage}: ${part.length} pages, not ${whole.length}`;
  for (let i = 0; i < whole.length; i++) {
    if (whole[i].ref !== part[i].ref) return `${stage}: page ${i} is ${part[i].ref}, not ${whole[i].ref}`;
    if (JSON.stringify([whole[i].criteria, whole[i].key]) !== JSON.stringify([part[i].criteria, part[i].key])) {
      return `${stage}: page ${i} has criteria ${JSON.stringify(part[i].criteria)}, not ${JSON.stringify(whole[i].criteria)}`;
    }
    if (whole[i].passages.length !== part[i].passages.length) return `${stage}: page ${i} lists ${part[i].passages.length} passages`;
    if (i < n && shown(whole[i]) !== shown(part[i])) return `${stage}: page ${i} is ranked ${shown(part[i])}, not ${shown(whole[i])}`;
  }
  return null;
}

const answers = [];
for (const text of queries) {
  const whole = await eager(text);
  const wholeRefined = await refined(text, whole.pages);
  const differences = {};
  const blocks = {};
  let blocksWhole = 0;
  {
    blocksRead = 0;
    await open().rows(query.clauses(analyzer, text, { prefix }).flatMap((c, _, all) => (c === all[0] ? [...all, ...query.fuzzyClauses(all)] : [])));
    blocksWhole = blocksRead;
  }
  for (const n of sizes) {
    blocksRead = 0;
    // The widget asks for at least the refined first screen (widget-engine.js `rankPages`).
    const part = await rank.search(lunr, analyzer, open(), text, { prefix, pages: n });
    differences[n] =
      (part.fuzzy !== whole.fuzzy ? `fuzzy ${part.fuzzy}` : null) ??
      (part.total < part.pages.length || part.total > whole.pages.length ? `total ${part.total} of ${whole.pages.length}` : null) ??
      difference(whole.pages, part.pages, n, "rank") ??
      (n >= rank.REFINED_PAGES ? difference(wholeRefined, await refined(text, part.pages), n, "refine") : null);
    blocks[n] = blocksRead;
  }
  answers.push({ pages: whole.pages.length, scored: whole.pages.reduce((sum, p) => sum + p.passages.length, 0), differences, blocks, blocks_whole: blocksWhole });
}
process.stdout.write(JSON.stringify(answers));
