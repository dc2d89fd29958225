// Usage: node site-search.mjs SITE_DIR < {"lang": "en", "queries": [...], "limit": 10}
// The browser's half of the search contract, run in Node on a built site:
// manifest -> the language's shard -> lunr.Index.load -> query.js -> public refs.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createAnalyzer } from "../../theme/static/analyzer.js";
import { run } from "../../theme/static/query.js";

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
const index = lunr.Index.load(read(entry.index));
const table = read(entry.chunks);
const publicRef = (ref) => {
  const [docIndex, anchor] = table.chunks[Number(ref)];
  return `${table.docs[docIndex].id}#${anchor}`;
};
const answers = queries.map((query) =>
  run(lunr, index, analyzer, query, { prefix: true }).hits.slice(0, limit).map((hit) => publicRef(hit.ref)),
);
process.stdout.write(JSON.stringify(answers));
