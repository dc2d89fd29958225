// Reads {"texts": [...]} on stdin, writes {"terms": [[...], ...],
// "normalized": [...]} on stdout: the JS half of the parity tests, one
// process for a whole batch.
import { createRequire } from "node:module";
import { createAnalyzer } from "../../theme/static/analyzer.js";

const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
const analyzer = createAnalyzer(lunr);

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { texts } = JSON.parse(input);
process.stdout.write(
  JSON.stringify({
    terms: texts.map((t) => analyzer.analyze(t)),
    normalized: texts.map((t) => analyzer.normalize(t)),
  }),
);
