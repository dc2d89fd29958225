// Cited snippets: the sentence of a chunk that best matches a query.
// Mirrors plugin/citesearch/quote.py: sentences end at . ! ? followed by
// whitespace or the end, at 。！？, or at a line break (the end of a block); closing quotes/brackets stay with the
// sentence; the quote is the sentence with the most distinct query terms
// (first on ties), verbatim but for surrounding whitespace.

import { queryTerms } from "./query.js";

// Spelled out rather than \s / trim(): JavaScript and Python disagree on a
// few characters (U+001C–U+001F, U+FEFF, U+180E).
const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const CLOSERS = "\"'\\u201d\\u2019\\u00bb)\\uff09\\u300d\\u300f\\]";
// Chunk text has a line break only where a block (paragraph, list item, row) ends.
const END = new RegExp(`[.!?]+[${CLOSERS}]*(?=[${WS}]|$)|[\\u3002\\uff01\\uff1f]+[${CLOSERS}]*|\\n`, "g");
const LEADING = new RegExp(`^[${WS}]+`);
const TRAILING = new RegExp(`[${WS}]+$`);

function strip(text, start, end) {
  const part = text.slice(start, end);
  const lead = (part.match(LEADING) || [""])[0].length;
  if (lead === part.length) return [start, start];
  const trail = (part.match(TRAILING) || [""])[0].length;
  return [start + lead, end - trail];
}

// [[start, end], ...] verbatim sentence spans, surrounding whitespace excluded.
export function sentences(text) {
  const spans = [];
  let start = 0;
  for (const m of text.matchAll(END)) {
    const end = m.index + m[0].length;
    spans.push(strip(text, start, end));
    start = end;
  }
  spans.push(strip(text, start, text.length));
  return spans.filter(([a, b]) => a < b);
}

function matcher(wanted) {
  const terms = new Set(wanted.terms);
  return (term) => {
    const found = terms.has(term) ? [term] : [];
    for (const p of wanted.prefixes) if (term.startsWith(p.text)) found.push(...p.terms);
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

// {sentence, marks: [[start, end], ...]} (offsets into sentence) or null.
export function quote(analyzer, text, query, { prefix = true } = {}) {
  const wanted = queryTerms(analyzer, query, { prefix });
  if (!wanted.terms.length) return null;
  const units = matcher(wanted);
  let best = null;
  let bestCount = 0;
  for (const [start, end] of sentences(text)) {
    const sentence = text.slice(start, end);
    const found = new Set();
    const spans = [];
    for (const word of analyzer.words(sentence)) {
      const matched = word.terms.flatMap(units);
      if (matched.length) {
        matched.forEach((u) => found.add(u));
        spans.push([word.start, word.end]);
      }
    }
    if (found.size > bestCount) {
      best = { sentence, marks: merge(spans) };
      bestCount = found.size;
    }
  }
  return best;
}
