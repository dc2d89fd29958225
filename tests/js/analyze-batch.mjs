// Reads {"texts": [...]} on stdin and writes, per text, its normalised form,
// its terms and the original substring of each word: the JS half of the
// analyzer parity tests, one process for a whole batch.
import { createRequire } from "node:module";
import { asset } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { texts } = JSON.parse(input);
process.stdout.write(
  JSON.stringify(
    texts.map((text) => {
      const words = analyzer.words(text);
      return {
        normalized: analyzer.normalize(text),
        terms: words.flatMap((w) => w.terms),
        words: words.map((w) => text.slice(w.start, w.end)),
      };
    }),
  ),
);
