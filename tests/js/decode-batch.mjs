// Usage: node decode-batch.mjs < [row, ...]
// Prints each term row as the shipped shards.js decodes it (a split row: its
// head, as Term reads it): the Node half of the postings strings tests
// (tests/test_shards.py).
import { asset } from "./assets.mjs";

const { decodeRow, Term } = await import(asset("shards.js"));

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(JSON.parse(input).map((row) => (row.length > 6 ? new Term(row, null).head : decodeRow(row)))));
