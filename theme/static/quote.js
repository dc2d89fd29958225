// Cited snippets: the passage of a chunk that best matches a query.
// Mirrors plugin/citesearch/engine/quote.py (its docstring gives the rules):
// a sentence of prose, the matching lines of a code block (lines opened by
// CODE_LINE), or a table row with its header (cells opened by CELL); the
// candidate with the most distinct query terms, first on ties, verbatim.

import { queryTerms } from "./query.js";
import { withinOneEdit } from "./shards.js";
import { sentences as split, strip } from "./sentences.js";

export const CODE_LINE = "\u2028";
export const CELL = "\t";
export const MAX_CODE_LINES = 5;

// [{kind, start, end, header: [start, end] | null, isHeader}] in text order.
export function units(text) {
  const result = [];
  let header = null;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (text.startsWith(CELL, start) && start < end) {
      if (header === null) {
        header = [start + 1, end];
        result.push({ kind: "table", start: start + 1, end, header: null, isHeader: true });
      } else {
        result.push({ kind: "table", start: start + 1, end, header, isHeader: false });
      }
    } else {
      header = null;
      if (text.startsWith(CODE_LINE, start) && start < end) {
        for (let at = start; at < end; ) {
          let stop = text.indexOf(CODE_LINE, at + 1);
          if (stop < 0 || stop > end) stop = end;
          result.push({ kind: "code", start: at + 1, end: stop, header: null, isHeader: false });
          at = stop;
        }
      } else {
        for (const [a, b] of split(text, start, end)) result.push({ kind: "text", start: a, end: b, header: null, isHeader: false });
      }
    }
    start = end + 1;
  }
  return result;
}

// [[start, end], ...] verbatim sentence spans of prose text.
export function sentences(text) {
  return split(text);
}

// term -> the query terms it matches (an empty list for most); a passage's
// words repeat, so each term's answer is kept for the query.
function matcher(wanted) {
  const terms = new Set(wanted.terms);
  const known = new Map();
  return (term) => {
    let found = known.get(term);
    if (found === undefined) {
      found = terms.has(term) ? [term] : [];
      for (const p of wanted.prefixes) if (term.startsWith(p.text)) found.push(...p.terms);
      known.set(term, found);
    }
    return found;
  };
}

function merge(spans) {
  const merged = [];
  for (const [start, end] of spans) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

// Bounded memo: the oldest entry goes first.
function remember(cache, key, value, limit) {
  if (cache.size >= limit) cache.delete(cache.keys().next().value);
  cache.set(key, value);
  return value;
}

// Splitting and analysing a passage does not depend on the query, and while
// a reader types the same passages come back keystroke after keystroke: the
// units of each recently used text, with their words, are kept per analyzer,
// up to a number of texts and of characters (a few long passages must not
// hold much memory); the least recently used goes first, so the passages
// every keystroke shows stay while a new page's come and go.
const ANALYSED_TEXTS = 1000;
const ANALYSED_CHARS = 500000;
const analysedTexts = new WeakMap();

function analysedUnits(analyzer, text) {
  if (!analysedTexts.has(analyzer)) analysedTexts.set(analyzer, { texts: new Map(), chars: 0 });
  const cache = analysedTexts.get(analyzer);
  const found = cache.texts.get(text);
  if (found) {
    cache.texts.delete(text); // now the most recently used
    cache.texts.set(text, found);
    return found;
  }
  const analysed = units(text).map((unit) => ({ unit, words: analyzer.words(text.slice(unit.start, unit.end)) }));
  while (cache.texts.size && (cache.texts.size >= ANALYSED_TEXTS || cache.chars + text.length > ANALYSED_CHARS)) {
    const oldest = cache.texts.keys().next().value;
    cache.chars -= oldest.length;
    cache.texts.delete(oldest);
  }
  cache.texts.set(text, analysed);
  cache.chars += text.length;
  return analysed;
}

// The ranking (rank.js `sentenceWords`) and the results quote the same
// passages for one query: the quotes of the latest query are kept.
const QUOTED_TEXTS = 500;
let quoted = { analyzer: null, query: null, prefix: null, wanted: null, texts: new Map() };

function forQuery(analyzer, query, prefix) {
  if (quoted.analyzer !== analyzer || quoted.query !== query || quoted.prefix !== prefix) {
    const wanted = queryTerms(analyzer, query, { prefix });
    quoted = { analyzer, query, prefix, wanted, matches: matcher(wanted), texts: new Map() };
  }
  return quoted;
}

// {sentence, marks: [[start, end], ...] (offsets into sentence), kind:
// "text" | "code" | "table", header: string | null} or null. The answer is
// shared between callers: read it, never change it.
export function quote(analyzer, text, query, { prefix = true } = {}) {
  const memo = forQuery(analyzer, query, prefix);
  if (memo.texts.has(text)) return memo.texts.get(text);
  return remember(memo.texts, text, quoteUnits(analyzer, text, memo.wanted, memo.matches), QUOTED_TEXTS);
}

function quoteUnits(analyzer, text, wanted, matches) {
  if (!wanted.terms.length) return null;
  const scored = analysedUnits(analyzer, text).map(({ unit, words }) => {
    const found = new Set();
    const spans = [];
    for (const word of words) {
      let hit = false;
      for (const term of word.terms) {
        for (const u of matches(term)) {
          found.add(u);
          hit = true;
        }
      }
      if (hit) spans.push([unit.start + word.start, unit.start + word.end]);
    }
    return { unit, found, spans };
  });

  let best = null;
  let bestKey = [0, false];
  scored.forEach(({ unit, found, spans }, i) => {
    if (!found.size) return;
    let { start, end } = unit;
    if (unit.kind === "code") {
      // The matching lines of this block from this one on, up to MAX_CODE_LINES.
      found = new Set(found);
      spans = [...spans];
      let last = unit.end;
      for (const other of scored.slice(i + 1, i + MAX_CODE_LINES)) {
        if (other.unit.kind !== "code" || other.unit.start !== last + 1) break; // another block
        last = other.unit.end;
        if (other.found.size) {
          other.found.forEach((u) => found.add(u));
          spans.push(...other.spans);
          end = other.unit.end;
        }
      }
    } else if (unit.kind === "text") {
      [start, end] = strip(text, start, end);
    }
    const key = [found.size, !unit.isHeader];
    if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] && !bestKey[1])) {
      best = {
        sentence: text.slice(start, end),
        marks: merge(spans.filter(([a, b]) => start <= a && b <= end).map(([a, b]) => [a - start, b - start])),
        kind: unit.kind,
        header: unit.header ? text.slice(unit.header[0], unit.header[1]) : null,
      };
      bestKey = key;
    }
  });
  return best;
}

// "Did you mean …?": when no word of a query is in the index, the fuzzy
// fallback finds passages with words one edit away. Those passages are not
// answers; the words are the suggestion. Each query word becomes the spelling
// of the index term within one edit that those passages use most (the first
// seen on ties), as the pages spell it, so the suggestion reads as a word.

// The suggested query and the [start, end] spans of its changed words, or
// null when no word changes. `texts`: the chunk texts of the fuzzy answer.
export function suggestion(analyzer, query, texts) {
  const spellings = new Map(); // term -> Map(lower-cased word -> count), in order seen
  for (const text of texts) {
    for (const word of analyzer.words(text)) {
      const spelled = text.slice(word.start, word.end).toLowerCase();
      for (const term of word.terms) {
        if (!spellings.has(term)) spellings.set(term, new Map());
        const counts = spellings.get(term);
        counts.set(spelled, (counts.get(spelled) || 0) + 1);
      }
    }
  }
  let suggested = "";
  let at = 0;
  const changed = [];
  for (const word of analyzer.words(query)) {
    const [term] = word.terms;
    if (word.terms.length !== 1 || spellings.has(term)) continue; // CJK bigrams, or a known word
    let best = null;
    let bestCount = 0;
    for (const [other, counts] of spellings) {
      if (!withinOneEdit(term, other)) continue;
      for (const [spelled, count] of counts) {
        if (count > bestCount) [best, bestCount] = [spelled, count];
      }
    }
    if (best === null) continue;
    suggested += query.slice(at, word.start);
    changed.push([suggested.length, suggested.length + best.length]);
    suggested += best;
    at = word.end;
  }
  if (!changed.length) return null;
  return { query: suggested + query.slice(at), changed };
}
