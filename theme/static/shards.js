// One language's sharded index: fetches only the files a query needs and
// assembles them into a partial lunr index that scores exactly as the whole
// one (the layout and the reason are in plugin/citesearch/engine/contract.py).
// Mirrors plugin/citesearch/engine/shards.py.

import { CHUNK_DIR } from "./contract.js";

// Levenshtein distance with adjacent transpositions <= 1: every term lunr's
// fuzzy match (edit distance 1) can reach. Lengths in UTF-16 units, as lunr.js.
export function withinOneEdit(a, b) {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < Math.min(a.length, b.length) && a[start] === b[start]) start++;
  a = a.slice(start);
  b = b.slice(start);
  if (a.length === b.length) {
    return a.slice(1) === b.slice(1) || (a.length >= 2 && a[0] === b[1] && a[1] === b[0] && a.slice(2) === b.slice(2));
  }
  return a.length > b.length ? a.slice(1) === b : b.slice(1) === a;
}

// Position of the last key not after `key` (terms compare by UTF-16 units, the
// order of the term files; refs as numbers), -1 when every key is after it.
export function lastNotAfter(keys, key) {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (key < keys[middle]) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}

// The chunk file of a ref, from a language's `chunks` manifest entry
// (chunk_file in engine/shards.py).
export function chunkFile(chunks, ref) {
  const perGroup = chunks.per_file * chunks.files_per_group;
  const position = Math.floor((ref % perGroup) / chunks.per_file);
  return `${CHUNK_DIR}/${chunks.groups[Math.floor(ref / perGroup)]}.${position}.json`;
}

// What assembling needs of a row, worked out once per row (a parsed term
// file's rows come back keystroke after keystroke): its lunr posting (never
// changed by lunr, so indexes share it) and, per field/ref it occurs in,
// the vector key and weight.
const preparedRows = new WeakMap();

function prepared(fields, row) {
  let found = preparedRows.get(row);
  if (found === undefined || found.fields !== fields) {
    const [, termIndex, ...perField] = row;
    const posting = { _index: termIndex };
    const keys = [];
    const weights = [];
    fields.forEach((field, f) => {
      const refs = {};
      const flat = perField[f];
      for (let i = 0; i < flat.length; i += 2) {
        refs[flat[i]] = {};
        keys.push(`${field}/${flat[i]}`);
        weights.push(flat[i + 1]);
      }
      posting[field] = refs;
    });
    found = { fields, posting, keys, weights };
    preparedRows.set(row, found);
  }
  return found;
}

// A lunr index of some terms, with their original term indices and weights.
export function assemble(lunr, fields, rows) {
  const sorted = [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const invertedIndex = [];
  const vectors = new Map();
  for (const row of sorted) {
    const { posting, keys, weights } = prepared(fields, row);
    const termIndex = row[1];
    for (let k = 0; k < keys.length; k++) {
      const pairs = vectors.get(keys[k]);
      if (pairs === undefined) vectors.set(keys[k], [[termIndex, weights[k]]]);
      else pairs.push([termIndex, weights[k]]);
    }
    invertedIndex.push([row[0], posting]);
  }
  const fieldVectors = [...vectors].map(([key, pairs]) => [key, pairs.sort((a, b) => a[0] - b[0]).flat()]);
  return lunr.Index.load({ version: lunr.version, fields, fieldVectors, invertedIndex, pipeline: [] });
}

// `load(name)` → Promise of a search file's JSON; each file is loaded once.
// `query` is query.js, `analyzer` from analyzer.js.
export function createShardedIndex({ lunr, query, analyzer, entry, fields, load }) {
  const files = new Map();
  const file = (name) => {
    if (!files.has(name)) {
      const promise = load(name);
      files.set(name, promise);
      promise.catch(() => files.delete(name));
    }
    return files.get(name);
  };
  const firsts = entry.terms.map(([first]) => first);
  const termFile = (term) => lastNotAfter(firsts, term);

  function prefixFiles(prefix) {
    const first = termFile(prefix);
    const found = first >= 0 ? [first] : [];
    for (let p = first + 1; p < firsts.length && firsts[p].startsWith(prefix); p++) found.push(p);
    return found;
  }

  // Every keystroke asks again for the neighbours of the words already typed:
  // each term's are looked up once (a failed load is forgotten).
  const neighbourLists = new Map();
  function neighbours(term) {
    if (!neighbourLists.has(term)) {
      const names = entry.dictionary
        .filter(([low, high]) => low <= term.length + 1 && high >= term.length - 1)
        .map(([, , name]) => name);
      const promise = Promise.all(names.map(file)).then((dictionaries) =>
        dictionaries.flatMap((d) => d.terms.filter((other) => withinOneEdit(term, other))),
      );
      neighbourLists.set(term, promise);
      promise.catch(() => neighbourLists.delete(term));
    }
    return neighbourLists.get(term);
  }

  // The term files holding every term the clauses can match, and a test of
  // those terms (exact terms, prefixes, neighbours within one edit).
  async function plan(items) {
    const exact = new Set();
    const prefixes = [];
    const positions = new Set();
    const lists = await Promise.all(
      items.map(async (c) => {
        if (c.wildcardTrailing) {
          prefixes.push(c.term);
          return prefixFiles(c.term);
        }
        const terms = c.editDistance > 0 ? await neighbours(c.term) : [c.term];
        for (const term of terms) exact.add(term);
        return terms.map(termFile).filter((p) => p >= 0);
      }),
    );
    for (const list of lists) for (const p of list) positions.add(p);
    const names = [...positions].sort((a, b) => a - b).map((p) => entry.terms[p][1]);
    const wanted = (term) => exact.has(term) || prefixes.some((prefix) => term.startsWith(prefix));
    return { names, wanted };
  }

  // The rows of the terms the clauses can match, in term order.
  async function rows(items) {
    const { names, wanted } = await plan(items);
    const data = await Promise.all(names.map(file));
    return data.flatMap((d) => d.terms.filter((row) => wanted(row[0])));
  }

  // Only the matching terms of the files: a smaller index loads faster.
  async function index(items) {
    return assemble(lunr, fields, await rows(items));
  }

  // query.run on the partial index of the query's terms: the same hits and
  // scores as on the whole index.
  async function run(text, options = {}) {
    const items = query.clauses(analyzer, text, options);
    if (!items.length) return { hits: [], fuzzy: false };
    const found = query.run(lunr, await index(items), analyzer, text, options);
    if (found.hits.length && !found.fuzzy) return found;
    // Exact terms found nothing: the fuzzy fallback needs every neighbour too.
    const wider = await index([...items, ...query.fuzzyClauses(items)]);
    return query.run(lunr, wider, analyzer, text, options);
  }

  // {doc: {id, title, url}, anchor, heading, text} of a ref: one file, named by the ref alone.
  async function chunk(ref) {
    const data = await file(chunkFile(entry.chunks, ref));
    const [docIndex, anchor, heading, text] = data.chunks[ref - data.first];
    const [id, title, url] = data.docs[docIndex];
    return { doc: { id, title, url }, anchor, heading, text };
  }

  return { run, rows, chunk, fields };
}
