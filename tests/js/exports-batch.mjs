// What each module of a folder exports: names, and the values that are data
// (functions by name only). stdin: {"folder": ..., "modules": [...]}.
// Used to check the minified modules the site ships export what their sources do.
import path from "node:path";
import { pathToFileURL } from "node:url";

const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => resolve(text));
}));
const out = {};
for (const name of input.modules) {
  try {
    const module = await import(pathToFileURL(path.join(input.folder, name)).href);
    out[name] = Object.fromEntries(Object.keys(module).sort().map((key) => {
      const value = module[key];
      return [key, typeof value === "function" ? `function/${value.length}` : JSON.stringify(value) ?? String(value)];
    }));
  } catch (error) {
    out[name] = { error: String(error.message) };
  }
}
process.stdout.write(JSON.stringify(out));
