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
// BM25 with passage coordination (`evidence_coord`) first, as rank.py
// `page_criteria` explains.
export const LONG_QUERY_WORDS = 5;

// ... after a page whose title or headings hold every word.
const WHOLE_HEADING = { name: "whole_heading", value: (p) => (p.heading === p.kinds.length ? 1 : 0), higherFirst: true };

// ... then page BM25 plus half the page BM25 of the words its best passage
// holds together (passage-level evidence), times 1 + the share of the
// query's reach that passage holds (rank.py `EVIDENCE_COORD`, `coverage`).
const PASSAGE_EVIDENCE_WEIGHT = 0.5;
const COVERAGE_WEIGHT = 1;
const EVIDENCE_COORD = { name: "evidence_coord",
  value: (p) => (p.evidence + PASSAGE_EVIDENCE_WEIGHT * p.passageEvidence) * (1 + COVERAGE_WEIGHT * p.coverage), higherFirst: true };
const COVERAGE = { name: "coverage", value: (p) => p.coverage, higherFirst: true };

export function pageCriteria(words) {
  if (words.length <= LONG_QUERY_WORDS) return PAGE_CRITERIA;
  return [WHOLE_HEADING, EVIDENCE_COORD, COVERAGE, ...PAGE_CRITERIA];
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

// `items` in the order of their keys (compareKeys), compared through one
// flat array of the keys' numbers: a keystroke sorts hundreds of pages and
// passages, and reading each key through its item cost more than the rest.
function sortedByKey(items, keyOf) {
  if (items.length < 2) return items;
  const width = keyOf(items[0]).length;
  const flat = new Float64Array(items.length * width);
  for (let n = 0; n < items.length; n++) {
    const key = keyOf(items[n]);
    if (key.length !== width || key.some((v) => typeof v !== "number")) return items.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    flat.set(key, n * width);
  }
  const order = Array.from(items.keys()).sort((a, b) => {
    for (let i = 0, x = a * width, y = b * width; i < width; i++) {
      if (flat[x + i] !== flat[y + i]) return flat[x + i] < flat[y + i] ? -1 : 1;
    }
    return 0;
  });
  return order.map((n) => items[n]);
}

// The evidence of every passage holding a query word. Per passage and word
// (at slot * words.length + i, a passage's slot given when it is first seen)
// in flat arrays: a short prefix touches thousands of passages, and objects
// per passage and word cost more to make and collect than the ranking itself.
//   exact / exactHeading: how many of the word's own terms the passage holds
//     (in the title or heading fields), a term counted once per row;
//   headingWeight: the summed weights of those in the title and heading fields;
//   other: the best of PREFIX / TYPO + 1 (0: none); otherHeading: 1 when
//     such a match was in a heading.
function collect(words, rows) {
  const width = words.length;
  const slots = new Map(); // ref -> slot
  const refs = [];
  const arrays = { exact: Int32Array, exactRow: Int32Array, exactHeading: Int32Array, headingRow: Int32Array,
    headingWeight: Float64Array, other: Int8Array, otherHeading: Uint8Array };
  let capacity = 0;
  const found = {};
  let exact, exactRow, exactHeading, headingRow, headingWeight, other, otherHeading;
  const grow = () => {
    capacity = Math.max(256, capacity * 2);
    for (const [name, Type] of Object.entries(arrays)) {
      const larger = new Type(capacity * width);
      if (found[name]) larger.set(found[name]);
      found[name] = larger;
    }
    ({ exact, exactRow, exactHeading, headingRow, headingWeight, other, otherHeading } = found);
  };
  grow();
  const pageWeights = new Map();
  const starts = new Set();
  rows.forEach((row, r) => {
    const [term, , title, heading, body, pages] = row;
    const kinds = [];
    words.forEach((word, i) => {
      const kind = matchKind(word, term);
      if (kind !== null) kinds.push([i, kind]);
    });
    if (!kinds.length) return;
    [title, heading, body].forEach((flat, f) => {
      const inHeading = f < 2;
      for (let j = 0; j < flat.length; j += 2) {
        const ref = flat[j];
        const weight = flat[j + 1];
        let slot = slots.get(ref);
        if (slot === undefined) {
          slot = refs.length;
          if (slot === capacity) grow();
          slots.set(ref, slot);
          refs.push(ref);
        }
        for (const [i, kind] of kinds) {
          const at = slot * width + i;
          if (kind === EXACT) {
            // Row numbers + 1: 0 is "no row yet".
            if (exactRow[at] !== r + 1) {
              exactRow[at] = r + 1;
              exact[at]++;
            }
            if (inHeading) {
              if (headingRow[at] !== r + 1) {
                headingRow[at] = r + 1;
                exactHeading[at]++;
              }
              headingWeight[at] += weight;
            }
          } else {
            if (other[at] === 0 || kind + 1 < other[at]) other[at] = kind + 1;
            if (inHeading) otherHeading[at] = 1;
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
  });
  return { ...found, width, slots, refs, starts: [...starts].sort((a, b) => a - b), pageWeights };
}

// The kind (EXACT, PREFIX, TYPO or null) by which a passage holds word `i`.
function kindIn(found, words, slot, i) {
  const at = slot * found.width + i;
  if (found.exact[at] === words[i].terms.length) return EXACT;
  return found.other[at] === 0 ? null : found.other[at] - 1;
}

// Whether a passage holds word `i` (of `kind`) in its title or headings.
function headingHolds(found, words, slot, i, kind) {
  const at = slot * found.width + i;
  return kind !== null && (found.exactHeading[at] === words[i].terms.length || found.otherHeading[at] === 1);
}

// BM25 of the query's own terms in the title and heading fields alone (rank.py `heading_weight`).
function headlineOf(found, words, slot) {
  let headline = 0.0;
  for (let i = 0; i < words.length; i++) {
    const at = slot * found.width + i;
    if (found.exactHeading[at] === words[i].terms.length) headline += found.headingWeight[at];
  }
  return headline;
}

// The facts of PASSAGE_CRITERIA but `score`.
function passageFacts(found, words, slot) {
  const kinds = words.map((_, i) => kindIn(found, words, slot, i));
  const headingWords = new Set();
  kinds.forEach((kind, i) => {
    if (headingHolds(found, words, slot, i, kind)) headingWords.add(i);
  });
  return { kinds, headingWords, heading: headingWords.size, headline: headlineOf(found, words, slot) };
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

// What each query word adds to the page's evidence (rank.py `word_evidence`).
function wordEvidence(words, weights) {
  return words.map((word, i) => evidence([word], [weights[i]]));
}

// The most each query word adds to a page's BM25, from [term, largest page
// weight] of every term the query reads (rank.py `word_reach`).
function wordReach(words, largest) {
  const exact = words.map(() => 0);
  const other = words.map(() => 0);
  for (const [term, weight] of largest) {
    words.forEach((word, i) => {
      const kind = matchKind(word, term);
      if (kind === EXACT) exact[i] += weight;
      else if (kind !== null) other[i] = Math.max(other[i], weight * PREFIX_BOOST);
    });
  }
  return words.map((_, i) => Math.max(exact[i], other[i]));
}

// [term, largest page weight] of whole rows (rank.py `largest_page_weights`).
function largestPageWeights(rows) {
  return rows.map((row) => {
    let largest = 0;
    for (let j = 1; j < row[5].length; j += 2) largest = Math.max(largest, row[5][j]);
    return [row[0], largest];
  });
}

// Pages best first, each {ref, criteria: [[name, value]], key, passages}.
// `scores`: lunr's score of each passage (a Map), or a function giving them
// for a list of refs (rank.py `rank`). No page criterion reads a score, so
// with `scoredPages` the function is asked only for the passages of the
// first `scoredPages` pages, and later pages list their passages in ref
// order without criteria: the pages a reader is shown are the same, and a
// keystroke is not slowed by ordering passages no one sees.
export function rank(words, rows, scores, { scoredPages = Infinity } = {}) {
  return listed(words, pageOrder(words, rows), scores, { scoredPages });
}

// The pages of `rank` in order, each {page: {ref, criteria, key}, members:
// [{ref, slot}]}, with the evidence their passages are ranked by (`found`):
// no passage listed yet, so the first screen (`firstScreen`) can order every
// page, keystroke after keystroke, and list the passages of its own pages only.
// `reach`: wordReach of the whole rows, given when `rows` hold a part of some
// postings (the first screen); else read from them.
function pageOrder(words, rows, reach = null) {
  const found = collect(words, rows);
  const { starts, pageWeights } = found;
  const criteria = pageCriteria(words);
  const long = criteria.includes(EVIDENCE_COORD);
  if (long && reach === null) reach = wordReach(words, largestPageWeights(rows));
  let reachTotal = 0.0; // summed in word order, as each passage's share is (rank.py `coverage`)
  if (long) for (const value of reach) reachTotal += value;
  // Each page's passages and what the page criteria read of them, built
  // passage by passage without keeping the passages' facts.
  const byPage = new Map();
  let start = 0;
  for (const ref of Int32Array.from(found.refs).sort()) {
    const slot = found.slots.get(ref);
    while (start + 1 < starts.length && starts[start + 1] <= ref) start++;
    let held = 0; // query words the passage holds
    for (let i = 0; i < words.length; i++) if (kindIn(found, words, slot, i) !== null) held++;
    if (held === 0) continue; // part of a CJK word only
    const page = starts[start];
    let facts = byPage.get(page);
    if (facts === undefined) {
      // perWord: only evidence_coord (long queries) reads what it gives.
      facts = { members: [], kinds: words.map(() => null), headingWords: words.map(() => false), proximity: 0, headline: -Infinity,
        perWord: long ? wordEvidence(words, pageWeights.get(page)) : null, passageEvidence: 0.0, reached: 0.0 };
      byPage.set(page, facts);
    }
    facts.members.push({ ref, slot });
    let carried = 0.0; // the page BM25 of the words this passage holds (rank.py `passage_evidence`)
    let reached = 0.0; // their reach (rank.py `coverage`)
    for (let i = 0; i < words.length; i++) {
      const kind = kindIn(found, words, slot, i);
      if (kind !== null && (facts.kinds[i] === null || kind < facts.kinds[i])) facts.kinds[i] = kind;
      if (headingHolds(found, words, slot, i, kind)) facts.headingWords[i] = true;
      if (kind !== null && long) {
        carried += facts.perWord[i];
        reached += reach[i];
      }
    }
    facts.passageEvidence = Math.max(facts.passageEvidence, carried);
    facts.reached = Math.max(facts.reached, reached);
    facts.proximity = Math.max(facts.proximity, held);
    facts.headline = Math.max(facts.headline, headlineOf(found, words, slot));
  }
  const pages = [];
  for (const [page, { members, kinds, headingWords, proximity, headline, passageEvidence, reached }] of byPage) {
    const facts = { kinds, proximity, heading: headingWords.filter(Boolean).length, headline, evidence: evidence(words, pageWeights.get(page)), passageEvidence,
      coverage: reachTotal ? reached / reachTotal : 0.0 };
    pages.push({ page: ranked(criteria, facts, page), members });
  }
  return { found, sorted: sortedByKey(pages, (p) => p.page.key) };
}

// `rank`'s pages from `pageOrder`: the first `scoredPages` with their
// passages scored and ordered, then, up to `listedPages`, the others with
// their passages in ref order.
function listed(words, { found, sorted }, scores, { scoredPages = Infinity, listedPages = Infinity } = {}) {
  const scored = Math.min(scoredPages, sorted.length);
  if (typeof scores === "function") scores = scores(sorted.slice(0, scored).flatMap(({ members }) => members.map((m) => m.ref)));
  return sorted.slice(0, listedPages).map(({ page, members }, n) => {
    if (n >= scored) return { ...page, passages: members.map(({ ref }) => ({ ref, criteria: [], key: [ref], passages: [] })) };
    const shown = members.map(({ ref, slot }) => ranked(PASSAGE_CRITERIA, { ...passageFacts(found, words, slot), score: scores.get(ref) ?? 0 }, ref));
    return { ...page, passages: sortedByKey(shown, (p) => p.key) };
  });
}

// --- Second stage (rank.py `refine`): the first screen of pages, by what
// their first passages say (`refinedRefs`).
// The first screen and the next pages (rank.py: a sentence query's page that
// the first stage puts 11th comes back by its sentence).
export const REFINED_PAGES = 11;
// The pages a reader sees first: refine reads their shown passages, and one
// passage of each page after them.
export const SCREEN_PAGES = 10;
// Passages read on each of the first WIDE_PAGES of those pages to choose the
// shown ones (rank.py: the passage whose sentence says the query is often a
// page's 4th or 5th).
export const REFINED_PASSAGES = 5;
export const WIDE_PAGES = 3;

// How many passages of the n-th page (from 0) `refine` reads.
export function readPerPage(n, perPage) {
  if (n < WIDE_PAGES) return Math.max(perPage, REFINED_PASSAGES);
  return n < SCREEN_PAGES ? perPage : Math.min(perPage, 1);
}

// The refs whose [heading path, text] `refine` reads.
export function refinedRefs(pages, perPage) {
  return pages.slice(0, REFINED_PAGES).flatMap((page, n) => page.passages.slice(0, readPerPage(n, perPage)).map((p) => p.ref));
}

function wordsIn(analyzer, words, text) {
  const terms = new Set(analyzer.analyze(text));
  const found = [...terms];
  return words.filter((w) => w.terms.every((t) => terms.has(t)) || w.prefixes.some((p) => found.some((t) => t.startsWith(p)))).length;
}

// The most query words one sentence of the passage holds (the sentence the
// quote cites; `heading`, a heading path or none, counts as one).
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

// How many of the typed forms `text` holds as typed; with `whole`, a CJK
// run only as a whole run of the text (rank.py `forms_in`).
export function formsIn(analyzer, forms, text, { whole = false } = {}) {
  const pieces = analyzer.pieces(text);
  const words = new Set(pieces.filter((p) => p.kind !== "cjk").map((p) => p.text));
  const runs = pieces.filter((p) => p.kind === "cjk").map((p) => p.text);
  let found = 0;
  for (const [kind, form, typing] of forms) {
    if (kind === "cjk") found += (whole ? runs.includes(form) : runs.some((run) => run.includes(form))) ? 1 : 0;
    else found += words.has(form) || (typing && [...words].some((w) => w.startsWith(form))) ? 1 : 0;
  }
  return found;
}

// [the most typed forms one unit of the passage (a sentence, a code line, a
// row; its heading path counts as one) holds as typed, the units of the text
// before the first that holds that many] (0 when the heading path holds them,
// or when it is 0; rank.py `sentence_forms_at`).
export function sentenceFormsAt(analyzer, forms, heading, text) {
  let best = heading.length ? formsIn(analyzer, forms, heading.join(" ")) : 0;
  let at = 0;
  quoteModule.units(text).forEach((unit, n) => {
    const found = formsIn(analyzer, forms, text.slice(unit.start, unit.end));
    if (found > best) [best, at] = [found, n];
  });
  return [best, at];
}

// The headings of a passage's path that are its own section's: the last, and
// the `bare` headings above it that it stands for (rank.py `own_headings`).
export function ownHeadings(heading, bare = 0) {
  return heading.slice(-1 - bare);
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
// Passages only: the largest share of the passage's own section heading (or
// of a bare heading it stands for) that the query makes up.
const SECTION = { name: "section", value: (p) => p.section, higherFirst: true };
// The most query words one sentence holds as typed.
const SENTENCE_FORMS = { name: "sentence_forms", value: (p) => p.sentence_forms, higherFirst: true };
// Typed words held whole: a CJK run as a whole run of the text (rank.py WHOLE).
const WHOLE = { name: "whole", value: (p) => p.whole, higherFirst: true };
// Passages only: the units of the text before the one that says every typed
// word, counted up to OPENING_UNITS, else 0 (rank.py OPENING): said at once first.
export const OPENING_UNITS = 3;
const OPENING = { name: "opening", value: (p) => p.opening, higherFirst: false };

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

// Passages: the words as typed, whole and said at once before heading words (rank.py).
export const REFINED_PASSAGE_CRITERIA = placed(PASSAGE_CRITERIA, {
  typos: SENTENCE, sentence: FORMS, forms: SENTENCE_FORMS, sentence_forms: WHOLE, whole: OPENING, exact: SECTION,
});
// Pages: the words as typed before heading words too, a CJK word whole
// before heading words (rank.py).
const REFINED_AFTER = {
  typos: SENTENCE, proximity: FORMS, forms: SENTENCE_FORMS, sentence_forms: WHOLE, exact: TITLE, title: FIT,
};
export const REFINED_PAGE_CRITERIA = placed(PAGE_CRITERIA, REFINED_AFTER);
const REFINED = ["sentence", "forms", "sentence_forms", "title", "fit", "whole"];

// `texts`: ref -> [heading path, text, bare] of the passages `refinedRefs`
// names (bare: the bare headings it stands for, 0 when left out).
export function refine(analyzer, pages, words, texts, queryText, { prefix = true, perPage }) {
  const forms = typedForms(analyzer, queryText, prefix);
  // In the order that ranked the pages for this query (a long query's evidence first).
  const pageCriteriaRefined = placed(pageCriteria(words), REFINED_AFTER);
  const refined = pages.slice(0, REFINED_PAGES).map((page, n) => {
    const read = readPerPage(n, perPage);
    const measured = [];
    const shown = page.passages.slice(0, read).map((p) => {
      const [heading, text, bare = 0] = texts.get(p.ref);
      const section = covered(analyzer, words, ownHeadings(heading, bare));
      const fit = covered(analyzer, words, heading);
      // The heading path is a sentence only of the passages under the heading
      // of that path the query fits best (rank.py).
      const named = section > 0 && section >= fit ? heading : [];
      const [said, opening] = sentenceFormsAt(analyzer, forms, named, text);
      const values = {
        sentence: sentenceWords(analyzer, words, named, text, queryText, prefix),
        forms: formsIn(analyzer, forms, [...heading, text].join(" ")),
        sentence_forms: said,
        opening: said === forms.length ? Math.min(opening, OPENING_UNITS) : 0,
        whole: formsIn(analyzer, forms, [...heading, text].join(" "), { whole: true }),
        title: heading.length && wordsIn(analyzer, words, heading[0]) === words.length ? 1 : 0,
        fit,
        section,
      };
      measured.push([values, heading]);
      return withValues(p, values, REFINED_PASSAGE_CRITERIA);
    });
    shown.sort((a, b) => compareKeys(a.key, b.key));
    const best = Object.fromEntries(REFINED.map((name) => [name, Math.max(...measured.map(([values]) => values[name]))]));
    // For the page, its title and headings are one of its sentences (a heading query's page).
    for (const [, heading] of measured) {
      best.sentence = Math.max(best.sentence, wordsIn(analyzer, words, heading.join(" ")));
      best.sentence_forms = Math.max(best.sentence_forms, heading.length ? formsIn(analyzer, forms, heading.join(" ")) : 0);
    }
    const withPassages = { ...page, passages: [...shown, ...page.passages.slice(read)] };
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

// A row's term without its postings, made once per row: a short prefix
// reaches many terms that the first pages do not hold, and the same row
// comes back keystroke after keystroke, so assemble's work on it is kept.
const emptied = new WeakMap();

// The rows with the postings of `refs` only; every term stays (rank.py
// `_only`): {parts, fresh: the rows made for these refs alone}. A row whose
// postings are all kept, or none, is a row made before.
function only(rows, refs) {
  const fresh = new Set();
  const parts = rows.map((row) => {
    let all = 0;
    let kept = 0;
    const lists = row.slice(2, -1).map((flat) => {
      const part = [];
      for (let j = 0; j < flat.length; j += 2) if (refs.has(flat[j])) part.push(flat[j], flat[j + 1]);
      all += flat.length;
      kept += part.length;
      return part;
    });
    if (kept === all) return row;
    if (kept === 0) {
      if (!emptied.has(row)) emptied.set(row, [row[0], row[1], ...lists, row[row.length - 1]]);
      return emptied.get(row);
    }
    const part = [row[0], row[1], ...lists, row[row.length - 1]];
    fresh.add(part);
    return part;
  });
  return { parts, fresh };
}

// --- The first screen from a part of the postings (format 7; rank.py
// `first_screen`): split term rows hold their title and heading postings, the
// body postings are in blocks by page range. Rank what is loaded, give every
// page not fully known the best key it could still reach, and load the blocks
// of the most promising pages until the first screen is known and beats every
// other page's best.

// The best value of each page criterion a page could reach (rank.py
// `_best_values`); a criterion with no bound here could be anything.
function bestValues(criteria, known, words, unknown, extra) {
  const value = (name) => known[name] ?? 0;
  const reach = Math.min(words, value("words") + unknown);
  const bounds = {
    words: reach,
    typos: Math.max(0, value("typos") - unknown),
    proximity: reach,
    heading: value("heading"),
    whole_heading: value("whole_heading"),
    exact: Math.min(words, value("exact") + unknown),
    headline: value("headline"),
    evidence: (value("evidence") + extra) * (1 + 1e-9) + 1e-12,
  };
  // A passage's words carry at most the page's BM25 and the query's reach (rank.py `_best_values`).
  bounds.coverage = 1.0;
  bounds.evidence_coord = bounds.evidence * (1 + PASSAGE_EVIDENCE_WEIGHT) * (1 + COVERAGE_WEIGHT);
  return criteria.map((c) => (c.name in bounds ? bounds[c.name] : c.higherFirst ? Infinity : -Infinity));
}

const keyOf = (criteria, values, ref) => [...values.map((v, i) => (criteria[i].higherFirst ? -v : v)), ref];

// typoOnly of the whole rows from the loaded part; null when only the whole
// rows can tell (rank.py `_typo_only`).
function typoOnlyOf(words, partial, openKinds) {
  const value = (page, name) => page.criteria.find(([n]) => n === name)[1];
  if (partial.some((p) => value(p, "typos") < value(p, "words"))) return false;
  if (!openKinds.length) return partial.length > 0;
  if (openKinds.some(([i, kind]) => kind === PREFIX || (kind === EXACT && words[i].terms.length === 1))) return false;
  return openKinds.some(([, kind]) => kind === EXACT) ? null : true;
}

// query.matches of the whole rows (lunr's fuzzy fallback) from the loaded
// part; null when only the whole rows can tell (rank.py `_matches`).
function matchesOf(rows, open, fields, items) {
  if (query.matches(rows, fields, items)) return true; // more postings never unmatch
  // A split row always has postings: any clause's split term may be the match.
  const split = open.some(([t]) => items.some((c) => t.row[0] === c.term || (c.wildcardTrailing && t.row[0].startsWith(c.term))));
  return items.some((c) => c.required) || split ? null : false;
}

async function firstScreen(lunr, analyzer, index, text, items, { prefix, pages }) {
  const terms = await index.terms([...items, ...query.fuzzyClauses(items)]);
  const words = query.words(analyzer, text, { prefix });
  const criteria = pageCriteria(words);
  const matching = terms.map((t) => words.flatMap((w, i) => {
    const kind = matchKind(w, t.row[0]);
    return kind === null ? [] : [[i, kind]];
  }));
  const reach = wordReach(words, terms.map((t) => [t.row[0], t.largest])); // a split row's largest is in its header
  const extra = (unknown) => [...unknown].reduce((sum, i) => sum + reach[i], 0);
  const wanted = Math.max(pages, 1);
  let rows, known, order, partial, fuzzy;
  for (;;) {
    rows = terms.map((t) => t.row);
    const open = terms.map((t, n) => [t, matching[n]]).filter(([t]) => !t.whole());
    order = pageOrder(words, rows, reach);
    partial = order.sorted.map(({ page }) => page);
    known = [];
    let hopes = [];
    for (const page of partial) {
      const unknown = new Set();
      for (const [t, m] of open) if (t.blockOf(page.ref) >= 0) for (const [i] of m) unknown.add(i);
      if (!unknown.size) {
        known.push(page);
        continue;
      }
      // A word adds to the page BM25 what it may still add: nothing when every term's page weight is in.
      const unweighed = new Set();
      for (const [t, m] of open) if (!t.pageKnown(page.ref)) for (const [i] of m) unweighed.add(i);
      const best = bestValues(criteria, Object.fromEntries(page.criteria), words.length, unknown.size, extra(unweighed));
      hopes.push({ key: keyOf(criteria, best, page.ref), page });
    }
    const unseen = new Set(open.flatMap(([, m]) => m.map(([i]) => i)));
    const unseenKey = unseen.size
      ? keyOf(criteria, bestValues(criteria, {}, words.length, unseen.size, extra(unseen)), -1)
      : null;
    const bar = known.length >= wanted ? known[wanted - 1].key : null;
    hopes = sortedByKey(hopes.filter((h) => bar === null || compareKeys(h.key, bar) < 0), (h) => h.key);
    const unseenFirst = unseenKey !== null && (bar === null || compareKeys(unseenKey, bar) < 0);
    if (hopes.length && !(unseenFirst && bar !== null)) {
      // The most promising pages' blocks.
      await Promise.all(open.map(([t]) => t.fill(hopes.slice(0, wanted).map((h) => t.blockOf(h.page.ref)).filter((b) => b >= 0))));
      continue;
    }
    fuzzy = typoOnlyOf(words, partial, open.flatMap(([, m]) => m));
    if (open.length && (unseenFirst || fuzzy === null || matchesOf(rows, open, index.fields.length, items) === null)) {
      // Pages in no block read so far could show, or the fallback is in question: the whole rows.
      await Promise.all(terms.map((t) => t.complete()));
      continue;
    }
    break;
  }
  // The first screen is the first `pages` pages of `partial` (every other
  // page's key is past the last of them), their postings all loaded: their
  // passages are ranked on the evidence collected for the order, as `rank`
  // would on the rows of their postings alone.
  const top = Math.min(pages, known.length);
  const scores = scorer(lunr, analyzer, index, rows, text, prefix);
  const ranked = listed(words, order, scores, { scoredPages: top, listedPages: top });
  return { pages: ranked, fuzzy: Boolean(fuzzy), total: partial.length };
}

// lunr's scores of some passages, on an index of their postings alone.
function scorer(lunr, analyzer, index, rows, text, prefix) {
  return (refs) => {
    const { parts, fresh } = only(rows, new Set(refs));
    const part = assemble(lunr, index.fields, parts, { fresh });
    const found = query.runOn(lunr, part, rows, analyzer, text, { prefix });
    return new Map(found.hits.map((hit) => [Number(hit.ref), hit.score]));
  };
}

// Rank the pages of one language (a shards.js index) for the reader's raw
// text (rank.py `search`): the term files of its terms, prefixes and typo
// neighbours are read, lunr scores the passages on them, `rank` orders them.
// With `pages`, only the first `pages` pages are ranked to the end, from as
// few blocks of split rows as prove them (`firstScreen`; rank.py
// `first_screen`): the same pages, criteria, passages and scores. `total`:
// the pages found (with `pages`: at least this many).
export async function search(lunr, analyzer, index, text, { prefix = true, pages = Infinity } = {}) {
  const items = query.clauses(analyzer, text, { prefix });
  if (!items.length) return { pages: [], fuzzy: false, total: 0 };
  if (Number.isFinite(pages)) return firstScreen(lunr, analyzer, index, text, items, { prefix, pages });
  const rows = await index.rows([...items, ...query.fuzzyClauses(items)]);
  const ranked = rank(query.words(analyzer, text, { prefix }), rows, scorer(lunr, analyzer, index, rows, text, prefix));
  return { pages: ranked, fuzzy: typoOnly(ranked), total: ranked.length };
}
