// Sentences of prose: where a quote may start and end.
// Mirrors plugin/citesearch/engine/sentences.py (its docstring gives the
// rules); tests/vectors/quotes.json holds both halves to the same answers.

// Spelled out rather than \s / trim(): JavaScript and Python disagree on a
// few characters (U+001C–U+001F, U+FEFF, U+180E).
export const WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const CLOSERS = "\"'\\u201d\\u2019\\u00bb)\\uff09\\u300d\\u300f\\u300b\\u3011\\u3009\\]";
const CLOSER_CHARS = new RegExp(`[${CLOSERS}]+$`);
const WHITESPACE = new RegExp(`[${WS}]`);
const MARK = new RegExp(
  `(?:[.!?\\u2026]+[${CLOSERS}]*(?=[${WS}]|$))|(?:[\\u3002\\uff01\\uff1f]+|\\u2026\\u2026)[${CLOSERS}]*|\\n`,
  "gu",
);

// Lower-case, without their final dot. They never end a sentence.
const ABBREVIATIONS = new Set(
  ("e.g i.e cf vs mr mrs ms dr prof fig figs approx ca resp incl esp viz eq eqs vol pp " +
    "т.е т.к т.н напр см ср рис табл гл стр им проф").split(" "),
);
// End a sentence only before a capital letter (or the end of the text).
const AMBIGUOUS = new Set("etc др т.д т.п".split(" "));

const isWordChar = (c) => /^[\p{L}\p{N}]$/u.test(c);
const isLetter = (c) => /^\p{L}$/u.test(c);

// The code point ending at `end` (Python indexes code points).
function charBefore(text, end) {
  const low = text.charCodeAt(end - 1);
  const pair = end >= 2 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(end - 2) >= 0xd800 && text.charCodeAt(end - 2) <= 0xdbff;
  return pair ? text.slice(end - 2, end) : text.slice(end - 1, end);
}

// The letters, digits and dots before `end`, lower-cased; a single letter
// and dot before them joins ("т. е" → "т.е").
function wordBefore(text, end) {
  let start = end;
  for (let c; start > 0 && ((c = charBefore(text, start)) === "." || isWordChar(c)); ) start -= c.length;
  const word = text.slice(start, end).toLowerCase();
  if (
    word.length === 1 &&
    start >= 3 &&
    text[start - 1] === " " &&
    text[start - 2] === "." &&
    isLetter(text[start - 3]) &&
    (start === 3 || !isWordChar(text[start - 4]))
  ) {
    return `${text[start - 3].toLowerCase()}.${word}`;
  }
  return word;
}

// The next character after whitespace, as a whole code point ("" at the end).
function nextChar(text, at, end) {
  while (at < end && WHITESPACE.test(text[at])) at++;
  return at < end ? String.fromCodePoint(text.codePointAt(at)) : "";
}

const category = {
  lower: (c) => /^[\p{Ll}\p{Nd}]$/u.test(c),
  upper: (c) => c === "" || /^[\p{Lu}\p{Lt}]$/u.test(c),
};

function ends(text, match, end) {
  const mark = match[0];
  if (mark === "\n" || "\u3002\uff01\uff1f".includes(mark[0]) || mark.startsWith("\u2026\u2026")) return true;
  const core = mark.replace(CLOSER_CHARS, "");
  if (!".\u2026".includes(core[core.length - 1])) return true; // ! and ? always end one
  const following = nextChar(text, match.index + mark.length, end);
  if (following && category.lower(following)) return false;
  if (core !== ".") return true;
  const word = wordBefore(text, match.index);
  const last = word.slice(word.lastIndexOf(".") + 1); // "v1.2.3" → "3", "т.д" → "д"
  if (AMBIGUOUS.has(word)) return category.upper(following);
  if (ABBREVIATIONS.has(word)) return false;
  return !(Array.from(last).length === 1 && isLetter(last)); // initials, "т."
}

const LEADING = new RegExp(`^[${WS}]+`);
const TRAILING = new RegExp(`[${WS}]+$`);

// [start, end] without the whitespace at either side.
export function strip(text, start, end) {
  const part = text.slice(start, end);
  const lead = (part.match(LEADING) || [""])[0].length;
  if (lead === part.length) return [start, start];
  const trail = (part.match(TRAILING) || [""])[0].length;
  return [start + lead, end - trail];
}

// [[start, end], ...] verbatim sentence spans of text.slice(start, end),
// surrounding whitespace excluded.
export function sentences(text, start = 0, end = text.length) {
  const spans = [];
  const part = start === 0 && end === text.length ? text : text.slice(0, end);
  MARK.lastIndex = start;
  let at = start;
  for (let match; (match = MARK.exec(part)); ) {
    if (ends(part, match, end)) {
      spans.push(strip(text, at, match.index + match[0].length));
      at = match.index + match[0].length;
    }
  }
  spans.push(strip(text, at, end));
  return spans.filter(([a, b]) => a < b);
}
