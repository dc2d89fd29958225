// Usage: node dictionary-batch.mjs < {"dictionary": {...}, "terms": [...]}
// Prints, per term, the dictionary files the shipped shards.js reads for its
// neighbours: the Node half of the dictionary layout test (tests/test_shards.py).
import { asset } from "./assets.mjs";

const { dictionaryFiles } = await import(asset("shards.js"));

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { dictionary, terms } = JSON.parse(input);
process.stdout.write(JSON.stringify(terms.map((term) => dictionaryFiles(dictionary, term))));
