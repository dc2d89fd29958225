// Reads {"pairs": [[text, query], ...], "prefix": bool} on stdin and writes
// quote.js's answer for each pair (marks as substrings of the sentence):
// the JS half of the quote parity test.
import { asset, shippedAnalyzer, stdinJson } from "./assets.mjs";
const { quote, sentences } = await import(asset("quote.js"));

const analyzer = await shippedAnalyzer();

const { pairs, prefix } = await stdinJson();
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
