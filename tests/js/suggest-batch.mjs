// Reads {"cases": [[query, [text, ...]], ...]} on stdin and writes quote.js's
// `suggestion` of each as [query, [changed word, ...]] or null: the JS half of
// the did-you-mean vectors (engine/suggest.py is the Python half).
import { createRequire } from "node:module";
import { asset } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));
const { suggestion } = await import(asset("quote.js"));

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { cases } = JSON.parse(input);
process.stdout.write(
  JSON.stringify(
    cases.map(([query, texts]) => {
      const found = suggestion(analyzer, query, texts);
      return found && [found.query, found.changed.map(([a, b]) => found.query.slice(a, b))];
    }),
  ),
);
