// Usage: node dictionary-batch.mjs < {"dictionary": {...}, "terms": [...]}
// Prints, per term, the dictionary files the shipped shards.js reads for its
// neighbours: the Node half of the dictionary layout test (tests/test_shards.py).
import { asset, stdinJson } from "./assets.mjs";

const { dictionaryFiles } = await import(asset("shards.js"));

const { dictionary, terms } = await stdinJson();
process.stdout.write(JSON.stringify(terms.map((term) => dictionaryFiles(dictionary, term))));
