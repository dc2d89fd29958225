// Usage: node search-batch.mjs INDEX.json < {"queries": [...], "prefix": bool}
// Loads a lunr index serialized by the Python build and answers each query
// with the shipped query.js: the Node half of the end-to-end parity test.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createAnalyzer } from "../../theme/static/analyzer.js";
import { run } from "../../theme/static/query.js";

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);
const index = lunr.Index.load(JSON.parse(readFileSync(process.argv[2], "utf8")));

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { queries, prefix } = JSON.parse(input);
process.stdout.write(JSON.stringify(queries.map((q) => run(lunr, index, analyzer, q, { prefix }))));
