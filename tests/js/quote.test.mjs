import assert from "node:assert/strict";
import test from "node:test";
import { analyzer, vectors } from "./vectors.mjs";
import { asset } from "./assets.mjs";
const { quote, sentences } = await import(asset("quote.js"));

const cases = vectors("quotes");

for (const c of cases.sentences) {
  test(`sentences of ${JSON.stringify(c.text.slice(0, 30))}`, () => {
    assert.deepEqual(sentences(c.text).map(([a, b]) => c.text.slice(a, b)), c.sentences);
  });
}

for (const c of cases.quotes) {
  test(`quote for ${JSON.stringify(c.query)} in ${JSON.stringify(c.text.slice(0, 30))}`, () => {
    const found = quote(analyzer, c.text, c.query);
    if (c.sentence === null) {
      assert.equal(found, null);
      return;
    }
    assert.equal(found.sentence, c.sentence);
    assert.deepEqual(found.marks.map(([a, b]) => found.sentence.slice(a, b)), c.marks);
    assert.equal(found.kind, c.kind ?? "text");
    assert.equal(found.header, c.header ?? null);
  });
}
