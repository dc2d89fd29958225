// The widget's modules as a built site ships them: contract.js exists only
// there (generated from engine/contract.py), so the JS tests import the
// shipped files, never theme/static's sources. pytest sets CITESEARCH_ASSETS
// (tests/node_support.py writes citesearch.assets.widget_assets() to a folder).
import path from "node:path";
import { pathToFileURL } from "node:url";

export const assetsDir = process.env.CITESEARCH_ASSETS;
if (!assetsDir) {
  throw new Error("CITESEARCH_ASSETS is not set: run the JS tests through pytest (tests/test_js.py)");
}

export const asset = (name) => pathToFileURL(path.join(assetsDir, name)).href;
