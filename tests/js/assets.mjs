// The widget's modules as a built site ships them: contract.js exists only
// there (generated from engine/contract.py), so the JS tests import the
// shipped files, never theme/static's sources. pytest sets CITESEARCH_ASSETS
// (tests/node_support.py writes citesearch.assets.widget_assets() to a folder).
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const assetsDir = process.env.CITESEARCH_ASSETS;
if (!assetsDir) {
  throw new Error("CITESEARCH_ASSETS is not set: run the JS tests through pytest (tests/test_js.py)");
}

export const asset = (name) => pathToFileURL(path.join(assetsDir, name)).href;

// Every *-batch.mjs reads one JSON document on stdin: a whole batch per process.
export async function stdinJson() {
  let input = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) input += chunk;
  return JSON.parse(input);
}

// The shipped analyzer over the vendored lunr, as the widget builds it.
export async function shippedAnalyzer() {
  const { createAnalyzer } = await import(asset("analyzer.js"));
  return createAnalyzer(createRequire(import.meta.url)("./load-vendor.cjs"));
}
