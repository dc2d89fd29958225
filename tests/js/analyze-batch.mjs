// Reads {"texts": [...]} on stdin and writes, per text, its normalised form,
// its terms and the original substring of each word: the JS half of the
// analyzer parity tests, one process for a whole batch.
import { shippedAnalyzer, stdinJson } from "./assets.mjs";

const analyzer = await shippedAnalyzer();

const { texts } = await stdinJson();
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
