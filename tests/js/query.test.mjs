import assert from "node:assert/strict";
import test from "node:test";
import { analyzer, lunr, vectors } from "./vectors.mjs";
import { clauseCases as limitCases, limits } from "./limit-vectors.mjs";
import { asset } from "./assets.mjs";
const { clauses, fuzzyClauses, queryTerms, run, words } = await import(asset("query.js"));
const { FIELD_BOOSTS, FIELDS, MAX_QUERY_LENGTH } = await import(asset("contract.js"));

const { clauses: clauseCases, search, words: wordCases } = vectors("queries");
const asLists = (items) => items.map((c) => [c.term, c.required, c.wildcardTrailing, c.editDistance]);

for (const c of clauseCases) {
  test(`clauses of ${JSON.stringify(c.query)} (prefix ${c.prefix})`, () => {
    assert.deepEqual(asLists(clauses(analyzer, c.query, { prefix: c.prefix })), c.clauses);
  });
}

test("word vectors: each word's terms as query.py gives them", () => {
  for (const c of wordCases) {
    assert.deepEqual(words(analyzer, c.query, { prefix: c.prefix }).map((w) => w.terms), c.words, c.query);
  }
});

test("fuzzy fallback spares CJK, short and wildcard terms", () => {
  assert.deepEqual(asLists(fuzzyClauses(clauses(analyzer, "路径 ab parameters"))), [
    ["路径", true, false, 0],
    ["ab", false, false, 0],
    ["paramet", false, false, 1],
  ]);
});

// The same fixture chunks indexed by lunr.js's own builder, fed our terms and
// the contract's fields and boosts:
// the JS side reaches the same top hits on its own. (The Python-built index
// is checked against Python's ranking by tests/test_query.py.)
function buildIndex(chunks) {
  return lunr(function () {
    this.pipeline.reset();
    this.searchPipeline.reset();
    this.ref("ref");
    for (const field of FIELDS) this.field(field, { boost: FIELD_BOOSTS[field] });
    chunks.forEach((chunk, i) => {
      this.add({
        ref: String(i),
        title: analyzer.analyze(chunk.title),
        heading: analyzer.analyze(chunk.heading),
        body: analyzer.analyze(chunk.body),
      });
    });
  });
}

const index = buildIndex(search.chunks);

for (const c of search.queries) {
  test(`search ${JSON.stringify(c.query)} ranks ${c.top} first`, () => {
    const results = run(lunr, index, analyzer, c.query);
    assert.equal(results.hits.length ? results.hits[0].ref : null, c.top);
    assert.equal(results.fuzzy, c.fuzzy ?? false);
  });
}

for (const group of search.equivalent) {
  for (const prefix of [true, false]) {
    test(`${group.join(" = ")} find the same chunks (prefix ${prefix})`, () => {
      const refs = group.map((q) => run(lunr, index, analyzer, q, { prefix }).hits.map((h) => h.ref));
      assert.ok(refs[0].length);
      for (const r of refs) assert.deepEqual(r, refs[0]);
    });
  }
}

test("raw input never throws and never reaches lunr's query parser", () => {
  const guarded = Object.create(index);
  guarded.search = () => assert.fail("raw query handed to idx.search");
  for (const raw of ["http://x", "foo:bar", "-", '"', "*", "~1", "^2", "+", "title:path", "", "   ", "a:b:c\\"]) {
    run(lunr, guarded, analyzer, raw);
    run(lunr, guarded, analyzer, raw, { prefix: false });
  }
});

test("hits are ordered by score, then numeric ref", () => {
  for (const c of search.queries) {
    const { hits } = run(lunr, index, analyzer, c.query);
    const sorted = [...hits].sort((a, b) => b.score - a.score || Number(a.ref) - Number(b.ref));
    assert.deepEqual(hits, sorted);
  }
});

// --- input limits (tests/vectors/limits.json) --------------------------------

test("MAX_QUERY_LENGTH is the contract's", () => {
  assert.equal(MAX_QUERY_LENGTH, limits.max_query_length);
});

for (const c of limitCases) {
  test(`limits: ${c.note}`, () => {
    assert.deepEqual(asLists(clauses(analyzer, c.query, { prefix: c.prefix })), c.clauses);
  });
}

test("quotes see the capped query too: no term from beyond the cap", () => {
  const { terms } = queryTerms(analyzer, "path" + " ".repeat(10000) + "parameters");
  assert.deepEqual(terms, ["path"]);
});

test("a 10,000-letter word and 10,000 CJK characters search the fixture index without a hit or a hang", () => {
  for (const raw of ["q".repeat(10000), "路径参数".repeat(2500), "abcdefghijklmnopqrstuvwxyz".repeat(400)]) {
    assert.deepEqual(run(lunr, index, analyzer, raw).hits, []);
  }
});
