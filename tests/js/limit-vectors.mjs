// tests/vectors/limits.json, with its compact texts expanded (a text, query
// or term is a string or a list of [text, times] parts), as tests/limit_vectors.py.
import { vectors } from "./vectors.mjs";

export const limits = vectors("limits");

export const expand = (value) =>
  typeof value === "string" ? value : value.map(([text, times]) => text.repeat(times)).join("");

export const analyzeCases = limits.analyze.map((c) => ({
  note: c.note,
  text: expand(c.text),
  terms: c.terms.map(expand),
}));

export const clauseCases = limits.clauses.map((c) => ({
  note: c.note,
  query: expand(c.query),
  prefix: c.prefix,
  clauses: c.clauses.map(([term, ...rest]) => [expand(term), ...rest]),
}));
