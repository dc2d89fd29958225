// Shared helpers for the node tests: the vendored lunr, our analyzer, and
// the vectors in tests/vectors/ that pytest reads too.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { asset } from "./assets.mjs";
const { createAnalyzer } = await import(asset("analyzer.js"));

export const lunr = createRequire(import.meta.url)("./load-vendor.cjs");
export const analyzer = createAnalyzer(lunr);

export function vectors(name) {
  return JSON.parse(readFileSync(new URL(`../vectors/${name}.json`, import.meta.url), "utf8"));
}
