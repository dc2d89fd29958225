import assert from "node:assert/strict";
import test from "node:test";
import { analyzeCases, limits } from "./limit-vectors.mjs";
import { analyzer, lunr, vectors } from "./vectors.mjs";
import { asset } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));
const { MAX_WORD_LENGTH } = await import(asset("contract.js"));

const { cases } = vectors("analyzer");

for (const c of cases) {
  test(`analyze ${JSON.stringify(c.text.slice(0, 30))}`, () => {
    assert.deepEqual(analyzer.analyze(c.text), c.terms);
  });
  if (c.words) {
    test(`words of ${JSON.stringify(c.text.slice(0, 30))} point at the original text`, () => {
      assert.deepEqual(analyzer.words(c.text).map((w) => c.text.slice(w.start, w.end)), c.words);
    });
  }
}

test("Russian forms of one word share a term", () => {
  assert.equal(new Set(analyzer.analyze("параметр параметров параметры")).size, 1);
});

test("ё and е spellings share a term", () => {
  assert.deepEqual(analyzer.analyze("развёртывание"), analyzer.analyze("развертывание"));
});

test("English stems come from lunr.stemmer itself", () => {
  for (const word of ["key", "deploy", "may", "happy", "fly", "models", "running"]) {
    assert.deepEqual(analyzer.analyze(word), [lunr.stemmer(new lunr.Token(word)).toString()]);
  }
});

test("analyze is the flattened terms of words, in order, non-empty and lower-case", () => {
  for (const c of cases) {
    const words = analyzer.words(c.text);
    assert.deepEqual(analyzer.analyze(c.text), words.flatMap((w) => w.terms));
    for (const w of words) {
      assert.ok(0 <= w.start && w.start < w.end && w.end <= c.text.length);
      for (const t of w.terms) assert.ok(t && t === t.toLowerCase());
    }
  }
});

test("name and version are those of the contract", () => {
  assert.equal(analyzer.name, "citesearch-multilingual");
  assert.ok(analyzer.version);
});

test("an analyzer made before lunr.ru loads analyses English, and leaves Russian words unstemmed until it loads", () => {
  const early = { stemmer: lunr.stemmer, Token: lunr.Token };
  const analyzer = createAnalyzer(early);
  const full = createAnalyzer(lunr);
  assert.deepEqual(analyzer.analyze("cached headers"), full.analyze("cached headers"));
  assert.equal(analyzer.stemsRussian(), false);
  // Unstemmed, still Cyrillic: no term of a query without a Russian word can equal it.
  assert.deepEqual(analyzer.analyze("поиска headers"), ["поиска", ...full.analyze("headers")]);
  assert.notDeepEqual(full.analyze("поиска"), ["поиска"]);
  early.ru = lunr.ru; // the widget loads it for a query with a Russian word
  assert.equal(analyzer.stemsRussian(), true);
  assert.deepEqual(analyzer.analyze("поиск документов"), full.analyze("поиск документов"));
});

// --- input limits (tests/vectors/limits.json) --------------------------------

test("MAX_WORD_LENGTH is the contract's", () => {
  assert.equal(MAX_WORD_LENGTH, limits.max_word_length);
});

for (const c of analyzeCases) {
  test(`limits: ${c.note}`, () => {
    assert.deepEqual(analyzer.analyze(c.text), c.terms);
  });
}
