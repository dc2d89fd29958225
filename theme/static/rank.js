// Ranking v2: pages first, by named criteria, then the passages inside each
// page. Mirrors plugin/citesearch/engine/rank.py, whose docstring explains
// the criteria and why they come in this order; shared vectors
// (tests/vectors/ranking.json) hold the two halves equal.

import * as query from "./query.js";
import * as quoteModule from "./quote.js";
import { PREFIX_BOOST } from "./query.js";
import { assemble, lastNotAfter, withinOneEdit } from "./shards.js";

export const EXACT = 0;
export const PREFIX = 1;
export const TYPO = 2;

// How `term` matches `word`: EXACT, PREFIX, TYPO or null.
export function matchKind(word, term) {
  if (word.terms.includes(term)) return EXACT;
  if (word.prefixes.some((text) => term.startsWith(text))) return PREFIX;
  if (word.fuzzy && withinOneEdit(word.terms[0], term)) return TYPO;
  return null;
}

const count = (kinds, test) => kinds.filter((k) => k !== null && test(k)).length;

// {name, value(facts), higherFirst}: compared one after the other.
export const PASSAGE_CRITERIA = [
  { name: "words", value: (p) => count(p.kinds, () => true), higherFirst: true },
  { name: "typos", value: (p) => count(p.kinds, (k) => k === TYPO), higherFirst: false },
  { name: "heading", value: (p) => p.heading, higherFirst: true },
  { name: "exact", value: (p) => count(p.kinds, (k) => k === EXACT), higherFirst: true },
  { name: "score", value: (p) => p.score, higherFirst: true },
];

export const PAGE_CRITERIA = [
  { name: "words", value: (p) => count(p.kinds, () => true), higherFirst: true },
  { name: "typos", value: (p) => count(p.kinds, (k) => k === TYPO), higherFirst: false },
  { name: "proximity", value: (p) => p.proximity, higherFirst: true },
  { name: "heading", value: (p) => p.heading, higherFirst: true },
  { name: "exact", value: (p) => count(p.kinds, (k) => k === EXACT), higherFirst: true },
  { name: "evidence", value: (p) => p.evidence, higherFirst: true },
];

// A claim or a question (more than LONG_QUERY_WORDS distinct words): page
// BM25 (`evidence`) first, as rank.py `page_criteria` explains.
export const LONG_QUERY_WORDS = 5;

// ... after a page whose title or headings hold every word.
const WHOLE_HEADING = { name: "whole_heading", value: (p) => (p.heading === p.kinds.length ? 1 : 0), higherFirst: true };

export function pageCriteria(words) {
  if (words.length <= LONG_QUERY_WORDS) return PAGE_CRITERIA;
  const evidenceFirst = PAGE_CRITERIA.filter((c) => c.name === "evidence");
  return [WHOLE_HEADING, ...evidenceFirst, ...PAGE_CRITERIA.filter((c) => c.name !== "evidence")];
}

function ranked(criteria, facts, ref, passages = []) {
  const values = criteria.map((c) => c.value(facts));
  const key = [...values.map((v, i) => (criteria[i].higherFirst ? -v : v)), ref];
  return { ref, criteria: criteria.map((c, i) => [c.name, values[i]]), key, passages };
}

export function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

const best = (kinds) => {
  const present = kinds.filter((k) => k !== null);
  return present.length ? Math.min(...present) : null;
};

// The evidence of every passage holding a query word, and the page weights.
function collect(words, rows, scores) {
  const passages = new Map();
  const pageWeights = new Map();
  const starts = new Set();
  for (const row of rows) {
    const [term, , title, heading, body, pages] = row;
    const kinds = [];
    words.forEach((word, i) => {
      const kind = matchKind(word, term);
      if (kind !== null) kinds.push([i, kind]);
    });
    if (!kinds.length) continue;
    [title, heading, body].forEach((flat, f) => {
      const inHeading = f < 2;
      for (let j = 0; j < flat.length; j += 2) {
        const ref = flat[j];
        let passage = passages.get(ref);
        if (!passage) {
          passage = {
            ref,
            score: scores.get(ref) ?? 0,
            words: words.map(() => ({ exact: new Set(), exactHeading: new Set(), other: null, otherHeading: false })),
          };
          passages.set(ref, passage);
        }
        for (const [i, kind] of kinds) {
          const found = passage.words[i];
          if (kind === EXACT) {
            found.exact.add(term);
            if (inHeading) found.exactHeading.add(term);
          } else {
            found.other = found.other === null ? kind : Math.min(found.other, kind);
            found.otherHeading = found.otherHeading || inHeading;
          }
        }
      }
    });
    for (let j = 0; j < pages.length; j += 2) {
      const page = pages[j];
      const weight = pages[j + 1];
      starts.add(page);
      if (!pageWeights.has(page)) pageWeights.set(page, words.map(() => [new Map(), 0.0]));
      const perWord = pageWeights.get(page);
      for (const [i, kind] of kinds) {
        if (kind === EXACT) perWord[i][0].set(term, weight);
        else perWord[i][1] = Math.max(perWord[i][1], weight);
      }
    }
  }
  return { passages, starts: [...starts].sort((a, b) => a - b), pageWeights };
}

// Page BM25 of the query (rank.py `evidence`).
export function evidence(words, weights) {
  let total = 0.0;
  words.forEach((word, i) => {
    const [exact, other] = weights[i];
    if (exact.size === word.terms.length) {
      for (const term of word.terms) total += exact.get(term);
    } else {
      total += other * PREFIX_BOOST;
    }
  });
  return total;
}

// Pages best first, each {ref, criteria: [[name, value]], key, passages}.
export function rank(words, rows, scores) {
  const { passages, starts, pageWeights } = collect(words, rows, scores);
  const byPage = new Map();
  for (const ref of [...passages.keys()].sort((a, b) => a - b)) {
    const passage = passages.get(ref);
    const kinds = words.map((word, i) => {
      const found = passage.words[i];
      return found.exact.size === word.terms.length ? EXACT : found.other;
    });
    if (kinds.every((k) => k === null)) continue; // part of a CJK word only
    const headingWords = new Set();
    words.forEach((word, i) => {
      const found = passage.words[i];
      if (kinds[i] !== null && (found.exactHeading.size === word.terms.length || found.otherHeading)) headingWords.add(i);
    });
    const facts = { kinds, headingWords, heading: headingWords.size, score: passage.score };
    const page = starts[lastNotAfter(starts, ref)];
    if (!byPage.has(page)) byPage.set(page, []);
    byPage.get(page).push({ facts, ranked: ranked(PASSAGE_CRITERIA, facts, ref) });
  }
  const pages = [];
  for (const [page, members] of byPage) {
    members.sort((a, b) => compareKeys(a.ranked.key, b.ranked.key));
    const headingWords = new Set(members.flatMap((m) => [...m.facts.headingWords]));
    const facts = {
      kinds: words.map((_, i) => best(members.map((m) => m.facts.kinds[i]))),
      proximity: Math.max(...members.map((m) => count(m.facts.kinds, () => true))),
      heading: headingWords.size,
      evidence: evidence(words, pageWeights.get(page)),
    };
    pages.push(ranked(pageCriteria(words), facts, page, members.map((m) => m.ranked)));
  }
  return pages.sort((a, b) => compareKeys(a.key, b.key));
}

// --- Second stage (rank.py `refine`): the first screen of pages, by what
// their shown passages say; their texts are loaded for the quotes anyway.
export const REFINED_PAGES = 10;

function wordsIn(analyzer, words, text) {
  const terms = new Set(analyzer.analyze(text));
  const found = [...terms];
  return words.filter((w) => w.terms.every((t) => terms.has(t)) || w.prefixes.some((p) => found.some((t) => t.startsWith(p)))).length;
}

// The most query words one sentence of the passage holds (the sentence the
// quote cites; its heading path counts as one).
export function sentenceWords(analyzer, words, heading, text, queryText, prefix) {
  const found = quoteModule.quote(analyzer, text, queryText, { prefix });
  const inHeading = wordsIn(analyzer, words, heading.join(" "));
  return found ? Math.max(inHeading, wordsIn(analyzer, words, found.sentence)) : inHeading;
}

const SENTENCE = { name: "sentence", value: (p) => p.sentence, higherFirst: true };

function withValue(item, name, value, after, criteria) {
  const values = [...item.criteria];
  values.splice(values.findIndex(([n]) => n === after) + 1, 0, [name, value]);
  const ordered = values.map(([n]) => criteria.find((c) => c.name === n));
  const key = [...values.map(([, v], i) => (ordered[i].higherFirst ? -v : v)), item.ref];
  return { ...item, criteria: values, key };
}

// `texts`: ref -> [heading path, text] of each refined page's first
// `perPage` passages.
export function refine(analyzer, pages, words, texts, queryText, { prefix = true, perPage }) {
  const refined = pages.slice(0, REFINED_PAGES).map((page) => {
    const shown = page.passages.slice(0, perPage).map((p) => {
      const [heading, text] = texts.get(p.ref);
      return withValue(p, "sentence", sentenceWords(analyzer, words, heading, text, queryText, prefix), "typos",
        [...PASSAGE_CRITERIA, SENTENCE]);
    });
    shown.sort((a, b) => compareKeys(a.key, b.key));
    const best = Math.max(...shown.map((p) => p.criteria.find(([n]) => n === "sentence")[1]));
    const withPassages = { ...page, passages: [...shown, ...page.passages.slice(perPage)] };
    return withValue(withPassages, "sentence", best, "typos", [...PAGE_CRITERIA, WHOLE_HEADING, SENTENCE]);
  });
  refined.sort((a, b) => compareKeys(a.key, b.key));
  const later = pages.slice(REFINED_PAGES).map((page) => withValue(page, "sentence", 0, "typos", [...PAGE_CRITERIA, WHOLE_HEADING, SENTENCE]));
  return [...refined, ...later];
}

// Every page was found through typos alone.
export function typoOnly(pages) {
  const value = (page, name) => page.criteria.find(([n]) => n === name)[1];
  return pages.length > 0 && pages.every((p) => value(p, "typos") === value(p, "words"));
}

// Rank the pages of one language (a shards.js index) for the reader's raw
// text (rank.py `search`): the term files of its terms, prefixes and typo
// neighbours are read, lunr scores the passages on them, `rank` orders them.
export async function search(lunr, analyzer, index, text, { prefix = true } = {}) {
  const items = query.clauses(analyzer, text, { prefix });
  if (!items.length) return { pages: [], fuzzy: false };
  const rows = await index.rows([...items, ...query.fuzzyClauses(items)]);
  const found = query.run(lunr, assemble(lunr, index.fields, rows), analyzer, text, { prefix });
  const scores = new Map(found.hits.map((hit) => [Number(hit.ref), hit.score]));
  const pages = rank(query.words(analyzer, text, { prefix }), rows, scores);
  return { pages, fuzzy: typoOnly(pages) };
}
