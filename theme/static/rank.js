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
  { name: "headline", value: (p) => p.headline, higherFirst: true },
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
function collect(words, rows) {
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
        const weight = flat[j + 1];
        let passage = passages.get(ref);
        if (!passage) {
          passage = {
            ref,
            words: words.map(() => ({ exact: new Set(), exactHeading: new Set(), headingWeight: 0.0, other: null, otherHeading: false })),
          };
          passages.set(ref, passage);
        }
        for (const [i, kind] of kinds) {
          const found = passage.words[i];
          if (kind === EXACT) {
            found.exact.add(term);
            if (inHeading) {
              found.exactHeading.add(term);
              found.headingWeight += weight;
            }
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
// `scores`: lunr's score of each passage (a Map), or a function giving them
// for a list of refs (rank.py `rank`). No page criterion reads a score, so
// with `scoredPages` the function is asked only for the passages of the
// first `scoredPages` pages, and later pages list their passages in ref
// order without criteria: the pages a reader is shown are the same, and a
// keystroke is not slowed by ordering passages no one sees.
export function rank(words, rows, scores, { scoredPages = Infinity } = {}) {
  const { passages, starts, pageWeights } = collect(words, rows);
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
    // BM25 of the query's own terms in the title and heading fields alone (rank.py `heading_weight`).
    let headline = 0.0;
    words.forEach((word, i) => {
      const found = passage.words[i];
      if (found.exactHeading.size === word.terms.length) headline += found.headingWeight;
    });
    const facts = { kinds, headingWords, heading: headingWords.size, headline };
    const page = starts[lastNotAfter(starts, ref)];
    if (!byPage.has(page)) byPage.set(page, []);
    byPage.get(page).push({ ref, facts });
  }
  const pages = [];
  const criteria = pageCriteria(words);
  for (const [page, members] of byPage) {
    const headingWords = new Set(members.flatMap((m) => [...m.facts.headingWords]));
    const facts = {
      kinds: words.map((_, i) => best(members.map((m) => m.facts.kinds[i]))),
      proximity: Math.max(...members.map((m) => count(m.facts.kinds, () => true))),
      heading: headingWords.size,
      headline: Math.max(...members.map((m) => m.facts.headline)),
      evidence: evidence(words, pageWeights.get(page)),
    };
    pages.push({ page: ranked(criteria, facts, page), members });
  }
  pages.sort((a, b) => compareKeys(a.page.key, b.page.key));
  const scored = Math.min(scoredPages, pages.length);
  if (typeof scores === "function") scores = scores(pages.slice(0, scored).flatMap(({ members }) => members.map((m) => m.ref)));
  return pages.map(({ page, members }, n) => {
    if (n >= scored) return { ...page, passages: members.map(({ ref }) => ({ ref, criteria: [], key: [ref], passages: [] })) };
    const shown = members.map(({ ref, facts }) => ranked(PASSAGE_CRITERIA, { ...facts, score: scores.get(ref) ?? 0 }, ref));
    return { ...page, passages: shown.sort((a, b) => compareKeys(a.key, b.key)) };
  });
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

// The distinct words of the query as typed (normalised, not stemmed):
// [kind, text, still typing] (rank.py `typed_forms`).
export function typedForms(analyzer, queryText, prefix) {
  const text = query.capped(queryText);
  const pieces = analyzer.pieces(text);
  const forms = new Map();
  pieces.forEach((piece, i) => {
    const typing = prefix && i === pieces.length - 1 && piece.kind !== "cjk" && piece.end === text.length;
    const key = `${piece.kind}\u0000${piece.text}`;
    forms.set(key, [piece.kind, piece.text, (forms.get(key)?.[2] ?? false) || typing]);
  });
  return [...forms.values()];
}

// How many of the typed forms `text` holds as typed (rank.py `forms_in`).
export function formsIn(analyzer, forms, text) {
  const pieces = analyzer.pieces(text);
  const words = new Set(pieces.filter((p) => p.kind !== "cjk").map((p) => p.text));
  const runs = pieces.filter((p) => p.kind === "cjk").map((p) => p.text);
  let found = 0;
  for (const [kind, form, typing] of forms) {
    if (kind === "cjk") found += runs.some((run) => run.includes(form)) ? 1 : 0;
    else found += words.has(form) || (typing && [...words].some((w) => w.startsWith(form))) ? 1 : 0;
  }
  return found;
}

// The largest share of one heading's terms that the query words it holds
// make up (rank.py `covered`).
export function covered(analyzer, words, heading) {
  let best = 0.0;
  for (const text of heading) {
    const terms = new Set(analyzer.analyze(text));
    const held = new Set();
    for (const w of words) {
      const mine = [...terms].filter((t) => w.terms.includes(t) || w.prefixes.some((p) => t.startsWith(p)));
      const own = mine.filter((t) => w.terms.includes(t));
      if (mine.length && (new Set(own).size === new Set(w.terms).size || own.length < mine.length)) {
        for (const t of mine) held.add(t);
      }
    }
    if (terms.size) best = Math.max(best, held.size / terms.size);
  }
  return best;
}

function withValues(item, values, criteria) {
  const known = new Map([...item.criteria, ...Object.entries(values)]);
  const ordered = criteria.filter((c) => known.has(c.name));
  const named = ordered.map((c) => [c.name, known.get(c.name)]);
  const key = [...named.map(([, v], i) => (ordered[i].higherFirst ? -v : v)), item.ref];
  return { ...item, criteria: named, key };
}

// The criteria of the second stage, in their places among the first's (rank.py).
const SENTENCE = { name: "sentence", value: (p) => p.sentence, higherFirst: true };
const FORMS = { name: "forms", value: (p) => p.forms, higherFirst: true };
const TITLE = { name: "title", value: (p) => p.title, higherFirst: true };
const FIT = { name: "fit", value: (p) => p.fit, higherFirst: true };
// Passages only: the share of the passage's own section heading that the query makes up.
const SECTION = { name: "section", value: (p) => p.section, higherFirst: true };

function placed(criteria, after) {
  const result = [];
  for (let c of criteria) {
    result.push(c);
    while (after[c.name]) {
      c = after[c.name];
      result.push(c);
    }
  }
  return result;
}

// Passages: the words as typed before heading words (rank.py).
export const REFINED_PASSAGE_CRITERIA = placed(PASSAGE_CRITERIA, { typos: SENTENCE, sentence: FORMS, exact: SECTION });
// Pages: the words as typed before heading words too (rank.py).
const REFINED_AFTER = { typos: SENTENCE, proximity: FORMS, exact: TITLE, title: FIT };
export const REFINED_PAGE_CRITERIA = placed(PAGE_CRITERIA, REFINED_AFTER);
const REFINED = ["sentence", "forms", "title", "fit"];

// `texts`: ref -> [heading path, text] of each refined page's first
// `perPage` passages.
export function refine(analyzer, pages, words, texts, queryText, { prefix = true, perPage }) {
  const forms = typedForms(analyzer, queryText, prefix);
  // In the order that ranked the pages for this query (a long query's evidence first).
  const pageCriteriaRefined = placed(pageCriteria(words), REFINED_AFTER);
  const refined = pages.slice(0, REFINED_PAGES).map((page) => {
    const measured = [];
    const shown = page.passages.slice(0, perPage).map((p) => {
      const [heading, text] = texts.get(p.ref);
      const values = {
        sentence: sentenceWords(analyzer, words, heading, text, queryText, prefix),
        forms: formsIn(analyzer, forms, [...heading, text].join(" ")),
        title: heading.length && wordsIn(analyzer, words, heading[0]) === words.length ? 1 : 0,
        fit: covered(analyzer, words, heading),
        section: covered(analyzer, words, heading.slice(-1)),
      };
      measured.push(values);
      return withValues(p, values, REFINED_PASSAGE_CRITERIA);
    });
    shown.sort((a, b) => compareKeys(a.key, b.key));
    const best = Object.fromEntries(REFINED.map((name) => [name, Math.max(...measured.map((values) => values[name]))]));
    const withPassages = { ...page, passages: [...shown, ...page.passages.slice(perPage)] };
    return withValues(withPassages, best, pageCriteriaRefined);
  });
  refined.sort((a, b) => compareKeys(a.key, b.key));
  const zero = Object.fromEntries(REFINED.map((name) => [name, 0]));
  const later = pages.slice(REFINED_PAGES).map((page) => withValues(page, zero, pageCriteriaRefined));
  return [...refined, ...later];
}

// Every page was found through typos alone.
export function typoOnly(pages) {
  const value = (page, name) => page.criteria.find(([n]) => n === name)[1];
  return pages.length > 0 && pages.every((p) => value(p, "typos") === value(p, "words"));
}

// The rows with the postings of `refs` only; every term stays (rank.py `_only`).
function only(rows, refs) {
  const keep = (flat) => {
    const kept = [];
    for (let j = 0; j < flat.length; j += 2) if (refs.has(flat[j])) kept.push(flat[j], flat[j + 1]);
    return kept;
  };
  return rows.map((row) => [row[0], row[1], ...row.slice(2, -1).map(keep), row[row.length - 1]]);
}

// Rank the pages of one language (a shards.js index) for the reader's raw
// text (rank.py `search`): the term files of its terms, prefixes and typo
// neighbours are read, lunr scores the passages on them, `rank` orders them.
// With `pages`, only the passages of the first `pages` pages are scored and
// ordered (`rank`'s `scoredPages`), on an index of their postings alone: the
// same scores, without lunr matching every passage a short prefix touches.
export async function search(lunr, analyzer, index, text, { prefix = true, pages = Infinity } = {}) {
  const items = query.clauses(analyzer, text, { prefix });
  if (!items.length) return { pages: [], fuzzy: false };
  const rows = await index.rows([...items, ...query.fuzzyClauses(items)]);
  const scores = (refs) => {
    const part = assemble(lunr, index.fields, only(rows, new Set(refs)));
    const found = query.runOn(lunr, part, rows, analyzer, text, { prefix });
    return new Map(found.hits.map((hit) => [Number(hit.ref), hit.score]));
  };
  const ranked = rank(query.words(analyzer, text, { prefix }), rows, scores, { scoredPages: pages });
  return { pages: ranked, fuzzy: typoOnly(ranked) };
}
