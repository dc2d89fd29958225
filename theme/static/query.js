// Queries: raw reader input → lunr query clauses → ranked hits.
// Mirrors plugin/citesearch/query.py (its docstring explains the clauses).
// Raw input never reaches lunr's query parser (idx.search throws on
// "http://x", "foo:bar", "-"): terms come from the analyzer and are added
// with the query API, pipeline off.

// MAX_QUERY_LENGTH: only the first code points of the input count, like a
// search box's maxlength. Words longer than MAX_WORD_LENGTH are dropped by the
// analyzer: lunr's fuzzy matching builds ~2·n² states for an n-character
// term, and one 10,000-character word froze the tab for 23 s.
import { MAX_QUERY_LENGTH } from "./contract.js";

// A shorter prefix would expand to a large share of the vocabulary.
export const PREFIX_MIN_LENGTH = 2;
// Weight of a prefix clause: the words the reader may still be typing
// towards count, but a chunk with the word itself ranks first.
export const PREFIX_BOOST = 0.1;
export const FUZZY_EDIT_DISTANCE = 1;
// Within one edit, a term of one or two characters matches most short words.
export const FUZZY_MIN_LENGTH = 3;

const codePoints = (text) => Array.from(text).length;

// The part of the reader's input that is searched.
export function capped(query) {
  if (query.length <= MAX_QUERY_LENGTH) return query; // UTF-16 length bounds code points
  return Array.from(query.slice(0, 2 * MAX_QUERY_LENGTH)).slice(0, MAX_QUERY_LENGTH).join("");
}

export function bigrams(text) {
  const chars = Array.from(text);
  if (chars.length === 1) return [text];
  const result = [];
  for (let i = 0; i + 1 < chars.length; i++) result.push(chars[i] + chars[i + 1]);
  return result;
}

const isLoneCjk = (piece) => piece.kind === "cjk" && codePoints(piece.text) === 1;

function pieceTerms(analyzer, piece) {
  // Each bigram once, as query.py: a run repeating one (数据结构中使用数据类) must still match.
  return piece.kind === "cjk" ? [...new Set(bigrams(piece.text))] : [analyzer.stem(piece.text, piece.kind)];
}

function piecePrefixes(analyzer, query, pieces, i, prefix) {
  const piece = pieces[i];
  if (isLoneCjk(piece)) {
    // Ideographs are indexed inside bigrams: a lone one is a prefix.
    return [{ text: piece.text, terms: [piece.text] }];
  }
  if (prefix && i === pieces.length - 1 && piece.kind !== "cjk" && piece.end === query.length) {
    // Still typing this word. A wildcard skips the stemmer: prefix the
    // stem, so every form of a word is one query, and the raw form too
    // when the stemmer changed more than the ending (happy → happi).
    const [term] = pieceTerms(analyzer, piece);
    const texts = piece.text.startsWith(term) ? [term] : [term, piece.text];
    return texts.filter((text) => codePoints(text) >= PREFIX_MIN_LENGTH).map((text) => ({ text, terms: [term] }));
  }
  return [];
}

function prefixes(analyzer, query, pieces, prefix) {
  return pieces.flatMap((_, i) => piecePrefixes(analyzer, query, pieces, i, prefix));
}

// The distinct words of the query as the ranking counts them (query.py
// `words`): {terms (all needed for an exact match), prefixes, fuzzy}.
export function words(analyzer, rawQuery, { prefix = true } = {}) {
  const query = capped(rawQuery);
  const pieces = analyzer.pieces(query);
  const found = new Map();
  pieces.forEach((piece, i) => {
    const terms = pieceTerms(analyzer, piece);
    const key = terms.join("\u0000");
    let texts = piecePrefixes(analyzer, query, pieces, i, prefix).map((p) => p.text);
    const fuzzy = piece.kind !== "cjk" && codePoints(terms[0]) >= FUZZY_MIN_LENGTH;
    if (found.has(key)) texts = [...new Set([...found.get(key).prefixes, ...texts])];
    found.set(key, { terms, prefixes: texts, fuzzy });
  });
  return [...found.values()];
}

// {terms: [distinct terms], prefixes: [{text, terms}]}: what a quote needs.
export function queryTerms(analyzer, rawQuery, { prefix = true } = {}) {
  const query = capped(rawQuery);
  const pieces = analyzer.pieces(query);
  const terms = [...new Set(pieces.flatMap((p) => pieceTerms(analyzer, p)))];
  return { terms, prefixes: prefixes(analyzer, query, pieces, prefix) };
}

// [{term, required, wildcardTrailing, editDistance}]; never throws.
export function clauses(analyzer, rawQuery, { prefix = true } = {}) {
  const query = capped(rawQuery);
  const pieces = analyzer.pieces(query);
  const result = [];
  for (const piece of pieces) {
    const required = piece.kind === "cjk" && !isLoneCjk(piece);
    for (const term of pieceTerms(analyzer, piece)) {
      result.push({ term, required, wildcardTrailing: false, editDistance: 0 });
    }
  }
  for (const p of prefixes(analyzer, query, pieces, prefix)) {
    result.push({ term: p.text, required: false, wildcardTrailing: true, editDistance: 0 });
  }
  const seen = new Set();
  return result.filter((c) => {
    const key = `${c.wildcardTrailing ? "*" : "="}${c.term}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// The fallback: optional exact terms of three characters or more get an
// edit distance; required (CJK) and short terms stay exact; prefix
// wildcards are dropped (lunr cannot combine a wildcard with a distance).
export function fuzzyClauses(items) {
  return items
    .filter((c) => !c.wildcardTrailing)
    .map((c) =>
      !c.required && codePoints(c.term) >= FUZZY_MIN_LENGTH
        ? { ...c, editDistance: FUZZY_EDIT_DISTANCE }
        : c,
    );
}

function search(lunr, index, items) {
  const matches = index.query((q) => {
    for (const c of items) {
      const options = {
        fields: index.fields,
        presence: c.required ? lunr.Query.presence.REQUIRED : lunr.Query.presence.OPTIONAL,
        wildcard: c.wildcardTrailing ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE,
        usePipeline: false,
        boost: c.wildcardTrailing ? PREFIX_BOOST : 1,
      };
      // lunr.js goes fuzzy whenever the key exists, even at 0, and a fuzzy
      // term loses its wildcard: only set it when it is wanted.
      if (c.editDistance > 0) options.editDistance = c.editDistance;
      q.term(c.term, options);
    }
  });
  return matches
    .map((m) => ({ ref: m.ref, score: m.score }))
    .sort((a, b) => b.score - a.score || Number(a.ref) - Number(b.ref));
}

const sameClauses = (a, b) =>
  a.length === b.length &&
  a.every((c, i) => c.term === b[i].term && c.required === b[i].required &&
    c.wildcardTrailing === b[i].wildcardTrailing && c.editDistance === b[i].editDistance);

// Whether lunr finds any passage for `items` in the index of these term rows
// ([term, index, per field [ref, weight, ...]...]), without building it: a
// passage with every required term, or else with any term a clause expands
// to (query.py `matches`, `run`'s test for its fuzzy fallback).
export function matches(rows, fields, items) {
  const expands = (c, row) => row[0] === c.term || (c.wildcardTrailing && row[0].startsWith(c.term));
  const found = (row) => {
    for (let f = 2; f < 2 + fields; f++) if (row[f].length) return true;
    return false;
  };
  const required = items.filter((c) => c.required);
  if (!required.length) return items.some((c) => rows.some((row) => expands(c, row) && found(row)));
  let common = null; // the passages with every required term so far
  for (const c of required) {
    const refs = new Set();
    for (const row of rows) {
      if (!expands(c, row)) continue;
      for (let f = 2; f < 2 + fields; f++) {
        const flat = row[f];
        for (let j = 0; j < flat.length; j += 2) if (common === null || common.has(flat[j])) refs.add(flat[j]);
      }
    }
    if (!refs.size) return false;
    common = refs;
  }
  return true;
}

// `run` on `index`, a part of the index of the term rows `whole` (every term,
// the postings of some passages): those passages get the scores `run` gives
// them on the whole index, whose lunr query vector is the same, and the
// fallback is taken when the whole finds nothing (query.py `run_on`).
export function runOn(lunr, index, whole, analyzer, query, { prefix = true } = {}) {
  const items = clauses(analyzer, query, { prefix });
  if (!items.length) return { hits: [], fuzzy: false };
  if (matches(whole, index.fields.length, items)) return { hits: search(lunr, index, items), fuzzy: false };
  const fallback = fuzzyClauses(items);
  if (!fallback.length || sameClauses(fallback, items)) return { hits: [], fuzzy: false };
  const hits = search(lunr, index, fallback);
  return { hits, fuzzy: hits.length > 0 };
}

// {hits: [{ref, score}], fuzzy}: score descending, ties by numeric ref.
export function run(lunr, index, analyzer, query, { prefix = true } = {}) {
  const items = clauses(analyzer, query, { prefix });
  if (!items.length) return { hits: [], fuzzy: false };
  const hits = search(lunr, index, items);
  if (hits.length) return { hits, fuzzy: false };
  const fallback = fuzzyClauses(items);
  if (!fallback.length || sameClauses(fallback, items)) return { hits: [], fuzzy: false };
  const fuzzyHits = search(lunr, index, fallback);
  return { hits: fuzzyHits, fuzzy: fuzzyHits.length > 0 };
}
