// Usage: node search-batch.mjs INDEX.json < {"queries": [...], "prefix": bool}
//    or: node search-batch.mjs --shards SITE_DIR LANG < {...}
// Answers each query with the shipped query.js ({hits: [{ref, score}], fuzzy}),
// either on a whole lunr index serialized by the Python build, or on the
// built site's sharded index through shards.js (one fresh index per query,
// so each reads only its own files): the Node half of the parity tests.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { asset, stdinJson } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));
const query = await import(asset("query.js"));
const { createShardedIndex } = await import(asset("shards.js"));

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

const { queries, prefix } = await stdinJson();

let answers;
if (process.argv[2] === "--shards") {
  const searchDir = path.join(process.argv[3], "search");
  const manifest = readJson(path.join(searchDir, "manifest.json"));
  const entry = manifest.languages[process.argv[4]];
  const load = async (name) => readJson(path.join(searchDir, name));
  answers = [];
  for (const q of queries) {
    const index = createShardedIndex({ lunr, query, analyzer, entry, fields: manifest.fields, load });
    answers.push(await index.run(q, { prefix }));
  }
} else {
  const index = lunr.Index.load(readJson(process.argv[2]));
  answers = queries.map((q) => query.run(lunr, index, analyzer, q, { prefix }));
}
process.stdout.write(JSON.stringify(answers));
