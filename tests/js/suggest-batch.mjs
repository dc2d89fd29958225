// Reads {"cases": [[query, [text, ...]], ...]} on stdin and writes quote.js's
// `suggestion` of each as [query, [changed word, ...]] or null: the JS half of
// the did-you-mean vectors (engine/suggest.py is the Python half).
import { asset, shippedAnalyzer, stdinJson } from "./assets.mjs";
const { suggestion } = await import(asset("quote.js"));

const analyzer = await shippedAnalyzer();

const { cases } = await stdinJson();
process.stdout.write(
  JSON.stringify(
    cases.map(([query, texts]) => {
      const found = suggestion(analyzer, query, texts);
      return found && [found.query, found.changed.map(([a, b]) => found.query.slice(a, b))];
    }),
  ),
);
