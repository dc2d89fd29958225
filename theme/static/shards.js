// One language's sharded index: fetches only the files a query needs and
// assembles them into a partial lunr index that scores exactly as the whole
// one (the layout and the reason are in plugin/citesearch/engine/contract.py).
// Mirrors plugin/citesearch/engine/shards.py.

import { CHUNK_DIR, DICTIONARY_BY_END, DICTIONARY_BY_START, PAGE_SUFFIX, POSTING_DIGITS, POSTING_TABLE_MARK } from "./contract.js";

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

// The chunk file of a ref, from a language's `chunks` manifest entry and the
// chunk list of the ref's group, read by `load` (chunk_file in engine/shards.py).
export async function chunkFile(chunks, ref, load) {
  const perGroup = chunks.per_file * chunks.files_per_group;
  const group = Math.floor(ref / perGroup);
  const list = chunks.lists[Math.floor(group / chunks.groups_per_list)];
  const { groups } = await load(`${CHUNK_DIR}/list.${list}.json`);
  const position = Math.floor((ref % perGroup) / chunks.per_file);
  return `${CHUNK_DIR}/${groups[group % chunks.groups_per_list]}.${position}.json`;
}

// Code points of a dictionary term's start and end keys (engine/contract.py).
function keyLengths(length) {
  const start = Math.max(1, Math.floor((length - 1) / 2));
  return [start, Math.max(1, length - 1 - start)];
}

// 32-bit FNV-1a over the code points of a key (contract.dictionary_key_hash).
function keyHash(codePoints) {
  let value = 2166136261;
  for (const char of codePoints) value = Math.imul(value ^ char.codePointAt(0), 16777619) >>> 0;
  return value;
}

// The dictionary files that hold every term within one edit of `term`: the
// start and end files of the lengths one shorter to one longer, in code
// points (dictionary_files in engine/shards.py). lunr.js's one-unit edits
// between whole strings are one code point edits, so they are all there.
export function dictionaryFiles(dictionary, term) {
  const buckets = new Map(dictionary.buckets);
  const chars = Array.from(term);
  const names = [];
  for (const length of [chars.length - 1, chars.length, chars.length + 1]) {
    if (!buckets.has(length)) continue;
    const [start, end] = keyLengths(length);
    for (const [kind, key] of [[DICTIONARY_BY_START, chars.slice(0, start)], [DICTIONARY_BY_END, chars.slice(-end)]]) {
      names.push(`${dictionary.name}.${length}${kind}${keyHash(key) % buckets.get(length)}.json`);
    }
  }
  return names;
}

// The value of each postings digit, by UTF-16 code (contract.POSTING_DIGITS).
const DIGIT_VALUES = new Map([...POSTING_DIGITS].map((digit, value) => [digit.charCodeAt(0), value]));

// The whole numbers of a postings string (contract.POSTING_DIGITS), from `start`.
function base64Numbers(text, start) {
  const numbers = [];
  let number = 0;
  let scale = 1;
  for (let i = start; i < text.length; i++) {
    const value = DIGIT_VALUES.get(text.charCodeAt(i));
    number += (value & 31) * scale;
    if (value & 32) {
      scale *= 32;
      continue;
    }
    numbers.push(number);
    number = 0;
    scale = 1;
  }
  return numbers;
}

// A term row as read (decoded in engine/shards.py): each postings string's
// base-64 numbers, refs from their gaps, weights from thousandths (n / 1000
// is the float the decimal parses to), or from the list's table of weights
// when the string starts with POSTING_TABLE_MARK.
export function decodeRow([term, termIndex, ...lists]) {
  return [
    term,
    termIndex,
    ...lists.map((text) => {
      const tabled = text.startsWith(POSTING_TABLE_MARK);
      const numbers = base64Numbers(text, tabled ? POSTING_TABLE_MARK.length : 0);
      const size = tabled ? numbers[0] : 0;
      const table = tabled ? numbers.slice(1, size + 1) : null;
      const flat = tabled ? numbers.slice(size + 1) : numbers;
      let ref = 0;
      for (let i = 0; i < flat.length; i += 2) {
        ref += flat[i];
        flat[i] = ref;
        flat[i + 1] = (tabled ? table[flat[i + 1]] : flat[i + 1]) / 1000;
      }
      return flat;
    }),
  ];
}

// The title, heading, body (none) and page postings of a split row's head
// (format 8; head_lists in engine/shards.py): three weight tables (increasing,
// as gaps), then
// columns: per head page its gap, weight and shape (heading postings × 2,
// plus 1 when it has title runs), per titled page its runs, per run its gap,
// length less one and weight, per heading posting its gap and weight.
export function headLists(text) {
  const numbers = base64Numbers(text, 0);
  let at = 0;
  const column = (size) => numbers.slice(at, (at += size));
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  const tables = [0, 1, 2].map(() => {
    let weight = 0;
    return column(column(1)[0]).map((gap) => (weight += gap) / 1000);
  });
  const count = column(1)[0];
  const [gaps, weights, shapes] = [column(count), column(count), column(count)];
  const runCounts = column(sum(shapes.map((shape) => shape & 1)));
  const runs = sum(runCounts);
  const [runGaps, runExtras, runWeights] = [column(runs), column(runs), column(runs)];
  const headings = sum(shapes.map((shape) => shape >> 1));
  const [headingGaps, headingWeights] = [column(headings), column(headings)];
  const [title, heading, pages] = [[], [], []];
  let [page, r, j, titled] = [0, 0, 0, 0];
  shapes.forEach((shape, k) => {
    page += gaps[k];
    pages.push(page, tables[0][weights[k]]);
    let last = page;
    for (let n = shape & 1 ? runCounts[titled++] : 0; n > 0; n--, r++) {
      const first = last + runGaps[r];
      last = first + runExtras[r];
      for (let ref = first; ref <= last; ref++) title.push(ref, tables[1][runWeights[r]]);
    }
    last = page;
    for (let n = shape >> 1; n > 0; n--, j++) heading.push((last += headingGaps[j]), tables[2][headingWeights[j]]);
  });
  return [title, heading, [], pages];
}

// A term's row as loaded so far (`row`, decoded, in the usual shape; Term in
// engine/shards.py). A split row (format 7) starts with its title and heading
// postings and the page postings of the pages they are on (one string by page
// since format 8: `headLists`); `fill` adds blocks (body postings and the
// other page postings of a range of pages) until `whole()`. A row that is not
// split is whole.
export class Term {
  constructor(row, file) {
    this.file = file;
    this.head = row.length > 6 ? [row[0], row[1], ...headLists(row[5])] : decodeRow(row);
    this.blocks = new Map();
    if (row.length > 6) {
      const [name, gaps, largest] = row[6];
      this.name = name;
      let first = 0;
      this.firsts = base64Numbers(gaps, 0).map((gap) => (first += gap));
      this.largest = largest / 1000;
      this.headPages = new Set(this.head[5].filter((_, j) => j % 2 === 0));
    } else {
      this.headPages = new Set();
      this.name = null;
      this.firsts = [];
      this.largest = 0;
      const pages = this.head[5];
      for (let j = 1; j < pages.length; j += 2) this.largest = Math.max(this.largest, pages[j]);
    }
    this.row = this.head;
  }

  whole() {
    return this.blocks.size === this.firsts.length;
  }

  // The block holding `page`'s postings when it is not loaded yet, else -1.
  blockOf(page) {
    if (this.whole()) return -1;
    const block = lastNotAfter(this.firsts, page);
    return this.blocks.has(block) ? -1 : block;
  }

  // Whether `page`'s page posting (or its absence) is loaded.
  pageKnown(page) {
    return this.headPages.has(page) || this.blockOf(page) < 0;
  }

  // Loads `blocks` and joins the row once: joining after each block made
  // reading a frequent term whole quadratic in its blocks.
  async fill(blocks) {
    const wanted = [...new Set(blocks)].filter((n) => !this.blocks.has(n));
    if (!wanted.length) return;
    const data = await Promise.all(wanted.map((n) => this.file(`${this.name}.${n}.json`)));
    wanted.forEach((n, k) => this.blocks.set(n, decodeRow(["", 0, ...data[k].postings]).slice(2)));
    const order = [...this.blocks.keys()].sort((a, b) => a - b);
    const body = order.flatMap((n) => this.blocks.get(n)[0]);
    const pairs = [];
    const addPairs = (flat) => {
      for (let j = 0; j < flat.length; j += 2) pairs.push([flat[j], flat[j + 1]]);
    };
    addPairs(this.head[5]);
    for (const n of order) addPairs(this.blocks.get(n)[1]);
    pairs.sort((a, b) => a[0] - b[0]);
    this.row = [...this.head.slice(0, 4), body, pairs.flat()];
  }

  async complete() {
    await this.fill(this.firsts.map((_, n) => n));
    return this.row;
  }
}

// What assembling needs of a row, worked out once per row (a parsed term
// file's rows come back keystroke after keystroke): its lunr posting (never
// changed by lunr, so indexes share it) and, per field/ref it occurs in,
// the vector key and weight.
const preparedRows = new WeakMap();

function preparing(fields, row) {
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
  return { fields, posting, keys, weights };
}

function prepared(fields, row) {
  let found = preparedRows.get(row);
  if (found === undefined || found.fields !== fields) {
    found = preparing(fields, row);
    preparedRows.set(row, found);
  }
  return found;
}

// A lunr index of some terms, with their original term indices and weights.
// `fresh`: rows made for this index alone (a part of a row's postings), not
// worth remembering.
export function assemble(lunr, fields, rows, { fresh = null } = {}) {
  const sorted = [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const invertedIndex = [];
  const vectors = new Map();
  for (const row of sorted) {
    const { posting, keys, weights } = fresh?.has(row) ? preparing(fields, row) : prepared(fields, row);
    const termIndex = row[1];
    for (let k = 0; k < keys.length; k++) {
      const pairs = vectors.get(keys[k]);
      if (pairs === undefined) vectors.set(keys[k], [[termIndex, weights[k]]]);
      else pairs.push([termIndex, weights[k]]);
    }
    invertedIndex.push([row[0], posting]);
  }
  const fieldVectors = [];
  for (const [key, pairs] of vectors) {
    if (pairs.length > 1) pairs.sort((a, b) => a[0] - b[0]);
    const elements = new Array(2 * pairs.length);
    for (let k = 0; k < pairs.length; k++) {
      elements[2 * k] = pairs[k][0];
      elements[2 * k + 1] = pairs[k][1];
    }
    fieldVectors.push([key, elements]);
  }
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
  // entry.terms: [first term, term list]; a term list: [first term, term file].
  const listFirsts = entry.terms.map(([first]) => first);
  const listed = async (position) => (await file(entry.terms[position][1])).terms;

  // [term list, entry] of the file that would hold `term`, or null.
  async function termFile(term) {
    const position = lastNotAfter(listFirsts, term);
    if (position < 0) return null;
    const at = lastNotAfter((await listed(position)).map(([first]) => first), term);
    return at >= 0 ? [position, at] : null;
  }

  // Every file that may hold a term starting with `prefix`: the file of the
  // prefix itself, then the files whose first term starts with it, in the
  // term list of the prefix and the lists after it that start with it.
  async function prefixFiles(prefix) {
    const start = lastNotAfter(listFirsts, prefix);
    let last = start;
    while (last + 1 < listFirsts.length && listFirsts[last + 1].startsWith(prefix)) last++;
    const found = [];
    for (let position = Math.max(start, 0); position <= last; position++) {
      const firsts = (await listed(position)).map(([first]) => first);
      const own = position === start ? lastNotAfter(firsts, prefix) : -1;
      firsts.forEach((first, at) => {
        if (at === own || first.startsWith(prefix)) found.push([position, at]);
      });
    }
    return found;
  }

  // Every keystroke asks again for the neighbours of the words already typed:
  // each term's are looked up once (a failed load is forgotten).
  const neighbourLists = new Map();
  function neighbours(term) {
    if (!neighbourLists.has(term)) {
      const promise = Promise.all(dictionaryFiles(entry.dictionary, term).map(file)).then((dictionaries) =>
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
    const lists = await Promise.all(
      items.map(async (c) => {
        if (c.wildcardTrailing) {
          prefixes.push(c.term);
          return prefixFiles(c.term);
        }
        const terms = c.editDistance > 0 ? await neighbours(c.term) : [c.term];
        for (const term of terms) exact.add(term);
        return (await Promise.all(terms.map(termFile))).filter((p) => p !== null);
      }),
    );
    const positions = new Map(); // "list,entry" -> [list, entry], each file once
    for (const list of lists) for (const p of list) positions.set(p.join(), p);
    const sorted = [...positions.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const names = await Promise.all(sorted.map(async ([position, at]) => (await listed(position))[at][1]));
    const wanted = (term) => exact.has(term) || prefixes.some((prefix) => term.startsWith(prefix));
    return { names, wanted };
  }

  // A term's row is decoded once: the same decoded row comes back keystroke
  // after keystroke, so assemble's per-row work is kept too.
  const loadedTerms = new Map();
  function term(row) {
    if (!loadedTerms.has(row[0])) loadedTerms.set(row[0], new Term(row, file));
    return loadedTerms.get(row[0]);
  }

  // The terms the clauses can match, in term order, split ones as loaded so far.
  async function terms(items) {
    const { names, wanted } = await plan(items);
    const data = await Promise.all(names.map(file));
    return data.flatMap((d) => d.terms.filter((row) => wanted(row[0])).map(term));
  }

  // The rows of the terms the clauses can match, in term order, whole.
  async function rows(items) {
    return Promise.all((await terms(items)).map((t) => t.complete()));
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

  // {doc: {id, title, url}, anchor, heading, text, bare} of a ref: one file, named by the ref alone.
  async function chunk(ref) {
    const data = await file(await chunkFile(entry.chunks, ref, file));
    const [docIndex, anchor, path, text] = data.chunks[ref - data.first];
    // bare: the bare headings it stands for, 0 when not listed (chunk_bare in engine/shards.py).
    const listed = (data.bare || []).find(([row]) => row === ref - data.first);
    const bare = listed ? listed[1] : 0;
    const [id, title, url = id + PAGE_SUFFIX] = data.docs[docIndex];
    // 0 first in a heading path is the page's title (chunk_row in engine/shards.py).
    const heading = path.length && path[0] === 0 ? [title, ...path.slice(1)] : path;
    return { doc: { id, title, url }, anchor, heading, text, bare };
  }

  return { run, rows, terms, chunk, fields };
}
