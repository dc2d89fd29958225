// Usage: node site-search.mjs SITE_DIR < {"lang": "en", "queries": [...], "limit": 10}
// The browser's half of the search contract, run in Node on a built site:
// manifest -> shards.js (only the files each query needs) -> query.js -> public refs.
// Answers [{refs: [...], scores: [...], files: [names read for the query]}].
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createAnalyzer } from "../../theme/static/analyzer.js";
import * as query from "../../theme/static/query.js";
import { createShardedIndex } from "../../theme/static/shards.js";

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);
const searchDir = path.join(process.argv[2], "search");
const read = (name) => JSON.parse(readFileSync(path.join(searchDir, name), "utf8"));

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { lang, queries, limit } = JSON.parse(input);

const manifest = read("manifest.json");
const entry = manifest.languages[lang];
const answers = [];
for (const text of queries) {
  // A fresh index per query: each query reads only its own files.
  const files = [];
  const load = async (name) => (files.push(name), read(name));
  const index = createShardedIndex({ lunr, query, analyzer, entry, fields: manifest.fields, load });
  const hits = (await index.run(text, { prefix: true })).hits.slice(0, limit);
  const chunks = await Promise.all(hits.map((hit) => index.chunk(Number(hit.ref))));
  answers.push({
    refs: chunks.map((c) => `${c.doc.id}#${c.anchor}`),
    scores: hits.map((hit) => hit.score),
    files,
  });
}
process.stdout.write(JSON.stringify(answers));
