// Usage: node site-search.mjs SITE_DIR < {"lang": "en", "queries": [...], "limit": 10}
// The browser's half of the search contract, run in Node on a built site by
// the site's own shipped widget-engine.js -- the very module the widget calls --
// with the two browser facilities it uses shimmed: fetch (of file: URLs) and
// classic <script> loading (for lunr and its plugins).
// Answers, per query, {refs, scores, quotes, status, files: search files read}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";

const site = path.resolve(process.argv[2]);
const searchDir = path.join(site, "search");
let files = [];

globalThis.window = globalThis;
globalThis.fetch = async (url) => {
  const file = fileURLToPath(url);
  files.push(path.relative(searchDir, file).split(path.sep).join("/"));
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { ok: false, status: 404 };
  }
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};
globalThis.document = {
  createElement: () => ({}),
  head: {
    append(script) {
      // A classic script runs on the global object, as in a page.
      try {
        vm.runInThisContext(readFileSync(fileURLToPath(script.src), "utf8"), { filename: script.src.toString() });
        queueMicrotask(script.onload);
      } catch (error) {
        queueMicrotask(() => script.onerror(error));
      }
    },
  },
};

const assetsUrl = pathToFileURL(path.join(site, "assets", "citesearch.js"));
const { createEngine } = await import(new URL("widget-engine.js", assetsUrl).href);

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { lang, queries, limit, typed = false, whole = false } = JSON.parse(input);

// `typed`: one engine for every query, as in one page, each query typed key by
// key twice (as bench/keystrokes.py does: the second pass is warm), the
// answer of its whole text kept. `answer`: the whole answer (with `typed` or
// `whole`).
const engine = typed ? createEngine(assetsUrl) : null;
const answers = [];
for (const text of queries) {
  // A fresh engine per query, as in a fresh page: each query reads only its own files.
  files = [];
  let answer;
  if (typed) {
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 1; i <= text.length; i++) answer = await engine.search(text.slice(0, i), { langs: [lang], limit, prefix: true });
    }
  } else {
    answer = await createEngine(assetsUrl).search(text, { langs: [lang], limit, prefix: true });
  }
  answers.push({
    refs: answer.results.map((r) => r.ref),
    scores: answer.results.map((r) => r.score),
    quotes: answer.results.map((r) => r.quote),
    status: answer.status,
    files: files.filter((name) => !name.startsWith("..")),
    answer: typed || whole ? answer : undefined,
  });
}
process.stdout.write(JSON.stringify(answers));
