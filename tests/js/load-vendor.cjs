// Loads the shipped lunr.js 2.3.9 and lunr-languages' Russian stemmer in
// Node exactly as the browser does (classic scripts on one lunr object).
const path = require("node:path");

if (!process.env.CITESEARCH_ASSETS) throw new Error("CITESEARCH_ASSETS is not set: run through pytest");
const vendor = path.join(process.env.CITESEARCH_ASSETS, "vendor");
const lunr = require(path.join(vendor, "lunr.min.js"));
require(path.join(vendor, "lunr.stemmer.support.min.js"))(lunr);
require(path.join(vendor, "lunr.ru.min.js"))(lunr);

module.exports = lunr;
