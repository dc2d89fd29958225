// Reads {"pairs": [[text, query], ...], "prefix": bool} on stdin and writes
// quote.js's answer for each pair (marks as substrings of the sentence):
// the JS half of the quote parity test.
import { createRequire } from "node:module";
import { asset } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));
const { quote, sentences } = await import(asset("quote.js"));

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { pairs, prefix } = JSON.parse(input);
process.stdout.write(
  JSON.stringify(
    pairs.map(([text, query]) => {
      const found = quote(analyzer, text, query, { prefix });
      return {
        sentences: sentences(text).map(([a, b]) => text.slice(a, b)),
        quote: found && [found.sentence, found.marks.map(([a, b]) => found.sentence.slice(a, b)), found.kind, found.header],
      };
    }),
  ),
);
