// The analyzer: text → index terms, identical to plugin/citesearch/analyzer.py.
//
// Contract (see the Python module's docstring for the why):
// 1. normalise each segment (a character and its following combining marks):
//    NFKC, casefold, lower-case, NFKC again, "ё" → "е"; keep the original
//    span of every normalised code unit so quotes can highlight the original;
// 2. split into runs of letters and digits ([\p{L}\p{N}]; underscore and
//    everything else separate), then cut each run where the script changes;
//    marks left after NFKC stay in the word but are dropped from its term;
// 3. Cyrillic piece → lunr-languages' Russian stemmer, CJK piece →
//    overlapping bigrams (a lone ideograph stays a unigram), any other piece
//    → lunr.stemmer, exactly. A non-CJK piece longer than MAX_WORD_LENGTH
//    code points is no word: neither indexed nor searched (a token or blob
//    would only feed lunr's quadratic fuzzy matching).
//
// `lunr` must carry lunr.stemmer; Russian words need lunr.stemmerSupport and
// lunr.ru too (the vendored lunr.stemmer.support.js and lunr.ru.js loaded
// after lunr.js), see createAnalyzer.

import { MAX_WORD_LENGTH } from "./contract.js";

export const NAME = "citesearch-multilingual";
export const VERSION = "3"; // 3: words longer than MAX_WORD_LENGTH are dropped

// Han ideographs (unified, extensions A–H, compatibility) plus 々 and 〇.
const CJK = "\\u3005\\u3007\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u{20000}-\\u{323af}";
const CYRILLIC = "\\u0400-\\u052f\\u1c80-\\u1c8f\\u1d2b\\u1d78\\ua640-\\ua69f";

// A piece: the longest run of letters and digits of one script class, with
// the combining marks that follow its letters. The lookaheads keep marks and
// unassigned code points inside the CJK and Cyrillic blocks from starting a
// letter, as in Python.
const PIECE = new RegExp(
  `((?:(?=[\\p{L}\\p{N}])[${CJK}])+)|((?:(?=[\\p{L}\\p{N}])[${CYRILLIC}]\\p{M}*)+)` +
    `|((?:(?![${CJK}${CYRILLIC}])[\\p{L}\\p{N}]\\p{M}*)+)`,
  "gu",
);
const MARKS = /\p{M}/gu;
const MARK = /^\p{M}$/u;
const ASCII = /^[\x00-\x7f]*$/;

// JavaScript has no casefold: these are the code points whose Python
// c.casefold().lower() differs from c.lower() (generated from Python 3.11,
// Unicode 14); every other code point folds with toLowerCase().
// tests/test_analyzer_parity.py checks every assigned code point.
const FOLD = {
  "\u00b5": "\u03bc", "\u00df": "ss", "\u0149": "\u02bcn", "\u017f": "s",
  "\u01f0": "j\u030c", "\u0345": "\u03b9", "\u0390": "\u03b9\u0308\u0301",
  "\u03b0": "\u03c5\u0308\u0301", "\u03c2": "\u03c3", "\u03d0": "\u03b2",
  "\u03d1": "\u03b8", "\u03d5": "\u03c6", "\u03d6": "\u03c0",
  "\u03f0": "\u03ba", "\u03f1": "\u03c1", "\u03f5": "\u03b5",
  "\u0587": "\u0565\u0582", "\u1c80": "\u0432", "\u1c81": "\u0434",
  "\u1c82": "\u043e", "\u1c83": "\u0441", "\u1c84": "\u0442",
  "\u1c85": "\u0442", "\u1c86": "\u044a", "\u1c87": "\u0463",
  "\u1c88": "\ua64b", "\u1e96": "h\u0331", "\u1e97": "t\u0308",
  "\u1e98": "w\u030a", "\u1e99": "y\u030a", "\u1e9a": "a\u02be",
  "\u1e9b": "\u1e61", "\u1e9e": "ss", "\u1f50": "\u03c5\u0313",
  "\u1f52": "\u03c5\u0313\u0300", "\u1f54": "\u03c5\u0313\u0301",
  "\u1f56": "\u03c5\u0313\u0342", "\u1f80": "\u1f00\u03b9",
  "\u1f81": "\u1f01\u03b9", "\u1f82": "\u1f02\u03b9",
  "\u1f83": "\u1f03\u03b9", "\u1f84": "\u1f04\u03b9",
  "\u1f85": "\u1f05\u03b9", "\u1f86": "\u1f06\u03b9",
  "\u1f87": "\u1f07\u03b9", "\u1f88": "\u1f00\u03b9",
  "\u1f89": "\u1f01\u03b9", "\u1f8a": "\u1f02\u03b9",
  "\u1f8b": "\u1f03\u03b9", "\u1f8c": "\u1f04\u03b9",
  "\u1f8d": "\u1f05\u03b9", "\u1f8e": "\u1f06\u03b9",
  "\u1f8f": "\u1f07\u03b9", "\u1f90": "\u1f20\u03b9",
  "\u1f91": "\u1f21\u03b9", "\u1f92": "\u1f22\u03b9",
  "\u1f93": "\u1f23\u03b9", "\u1f94": "\u1f24\u03b9",
  "\u1f95": "\u1f25\u03b9", "\u1f96": "\u1f26\u03b9",
  "\u1f97": "\u1f27\u03b9", "\u1f98": "\u1f20\u03b9",
  "\u1f99": "\u1f21\u03b9", "\u1f9a": "\u1f22\u03b9",
  "\u1f9b": "\u1f23\u03b9", "\u1f9c": "\u1f24\u03b9",
  "\u1f9d": "\u1f25\u03b9", "\u1f9e": "\u1f26\u03b9",
  "\u1f9f": "\u1f27\u03b9", "\u1fa0": "\u1f60\u03b9",
  "\u1fa1": "\u1f61\u03b9", "\u1fa2": "\u1f62\u03b9",
  "\u1fa3": "\u1f63\u03b9", "\u1fa4": "\u1f64\u03b9",
  "\u1fa5": "\u1f65\u03b9", "\u1fa6": "\u1f66\u03b9",
  "\u1fa7": "\u1f67\u03b9", "\u1fa8": "\u1f60\u03b9",
  "\u1fa9": "\u1f61\u03b9", "\u1faa": "\u1f62\u03b9",
  "\u1fab": "\u1f63\u03b9", "\u1fac": "\u1f64\u03b9",
  "\u1fad": "\u1f65\u03b9", "\u1fae": "\u1f66\u03b9",
  "\u1faf": "\u1f67\u03b9", "\u1fb2": "\u1f70\u03b9",
  "\u1fb3": "\u03b1\u03b9", "\u1fb4": "\u03ac\u03b9",
  "\u1fb6": "\u03b1\u0342", "\u1fb7": "\u03b1\u0342\u03b9",
  "\u1fbc": "\u03b1\u03b9", "\u1fbe": "\u03b9", "\u1fc2": "\u1f74\u03b9",
  "\u1fc3": "\u03b7\u03b9", "\u1fc4": "\u03ae\u03b9",
  "\u1fc6": "\u03b7\u0342", "\u1fc7": "\u03b7\u0342\u03b9",
  "\u1fcc": "\u03b7\u03b9", "\u1fd2": "\u03b9\u0308\u0300",
  "\u1fd3": "\u03b9\u0308\u0301", "\u1fd6": "\u03b9\u0342",
  "\u1fd7": "\u03b9\u0308\u0342", "\u1fe2": "\u03c5\u0308\u0300",
  "\u1fe3": "\u03c5\u0308\u0301", "\u1fe4": "\u03c1\u0313",
  "\u1fe6": "\u03c5\u0342", "\u1fe7": "\u03c5\u0308\u0342",
  "\u1ff2": "\u1f7c\u03b9", "\u1ff3": "\u03c9\u03b9",
  "\u1ff4": "\u03ce\u03b9", "\u1ff6": "\u03c9\u0342",
  "\u1ff7": "\u03c9\u0342\u03b9", "\u1ffc": "\u03c9\u03b9", "\ufb00": "ff",
  "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
  "\ufb05": "st", "\ufb06": "st", "\ufb13": "\u0574\u0576",
  "\ufb14": "\u0574\u0565", "\ufb15": "\u0574\u056b",
  "\ufb16": "\u057e\u0576", "\ufb17": "\u0574\u056d"
};

function foldChars(text) {
  let out = "";
  for (const ch of text) {
    const folded = FOLD[ch];
    out += folded === undefined ? ch.toLowerCase() : folded;
  }
  return out;
}

function cached(fn, limit = 65536) {
  let cache = new Map();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= limit) cache = new Map();
      value = fn(key);
      cache.set(key, value);
    }
    return value;
  };
}

const foldSegment = cached((segment) =>
  // Case folding can undo composition (ß + accent → s + s + accent):
  // compose again so that normalising twice changes nothing.
  foldChars(segment.normalize("NFKC")).normalize("NFKC").replace(/ё/g, "е"),
);

// Each character with the combining marks that follow it.
function segments(text) {
  const result = [];
  let start = 0;
  let i = 0;
  for (const ch of text) {
    if (i > 0 && !MARK.test(ch)) {
      result.push([start, i]);
      start = i;
    }
    i += ch.length;
  }
  if (text.length) result.push([start, text.length]);
  return result;
}

// The normalised text and, per normalised code unit, its original span.
function normaliseWithMap(text) {
  if (ASCII.test(text)) return { norm: text.toLowerCase(), starts: null, ends: null };
  let norm = "";
  const starts = [];
  const ends = [];
  for (const [start, end] of segments(text)) {
    const folded = foldSegment(text.slice(start, end));
    norm += folded;
    for (let k = 0; k < folded.length; k++) {
      starts.push(start);
      ends.push(end);
    }
  }
  return { norm, starts, ends };
}

// In code points, like Python's len(); UTF-16 length is an upper bound.
const tooLong = (piece) => piece.length > MAX_WORD_LENGTH && Array.from(piece).length > MAX_WORD_LENGTH;

// [{kind, text (without marks), at, end (in the normalised text), span}]
function rawPieces(text) {
  const { norm, starts, ends } = normaliseWithMap(text);
  const span = starts === null ? (a, b) => [a, b] : (a, b) => [starts[a], ends[b - 1]];
  const result = [];
  for (const m of norm.matchAll(PIECE)) {
    const kind = m[1] !== undefined ? "cjk" : m[2] !== undefined ? "cyrillic" : "other";
    // Marks NFKC could not compose (Russian stress marks, the dot of a
    // folded İ) belong to the word but not to its term.
    const piece = m[0].replace(MARKS, "");
    if (kind !== "cjk" && tooLong(piece)) continue;
    result.push({ kind, text: piece, at: m.index, end: m.index + m[0].length, span });
  }
  return result;
}

// lunr.ru (and lunr.stemmer.support.js) may load after the analyzer is made:
// the widget loads them only for a query with a Russian word. Until then a
// Russian word of a text is left unstemmed (`stemsRussian()` is false): a term
// is of one script, so no term of a query without Cyrillic can be Cyrillic,
// stemmed or not. Whoever keeps analyses must drop them once it turns true.
export function createAnalyzer(lunr) {
  if (!lunr || !lunr.stemmer) throw new Error("createAnalyzer needs lunr");
  const stemWith = (fn) => cached((word) => fn(new lunr.Token(word)).toString() || word);
  const stemEnglish = stemWith(lunr.stemmer);
  let stemRussian = null;

  function stemsRussian() {
    if (stemRussian === null && lunr.ru && lunr.ru.stemmer) stemRussian = stemWith(lunr.ru.stemmer);
    return stemRussian !== null;
  }

  function stem(piece, kind) {
    if (kind !== "cyrillic") return stemEnglish(piece);
    return stemsRussian() ? stemRussian(piece) : piece;
  }

  function normalize(text) {
    return normaliseWithMap(text).norm;
  }

  // [{start, end, kind, text}]: normalised pieces with original offsets.
  function pieces(text) {
    return rawPieces(text).map(({ kind, text: piece, at, end: to, span }) => {
      const [start, end] = span(at, to);
      return { start, end, kind, text: piece };
    });
  }

  function words(text) {
    const result = [];
    for (const { kind, text: piece, at, end: to, span } of rawPieces(text)) {
      if (kind !== "cjk") {
        const [start, end] = span(at, to);
        result.push({ start, end, terms: [stem(piece, kind)] });
        continue;
      }
      const chars = Array.from(piece); // ideographs beyond the BMP are two units
      if (chars.length === 1) {
        const [start, end] = span(at, at + piece.length);
        result.push({ start, end, terms: [piece] });
        continue;
      }
      let offset = at;
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i] + chars[i + 1];
        const [start, end] = span(offset, offset + bigram.length);
        result.push({ start, end, terms: [bigram] });
        offset += chars[i].length;
      }
    }
    return result;
  }

  function analyze(text) {
    return words(text).flatMap((w) => w.terms);
  }

  return { name: NAME, version: VERSION, analyze, words, pieces, normalize, stem, stemsRussian };
}
