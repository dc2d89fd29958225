// Renders search results as DOM nodes. Content only ever enters the page as
// text nodes (never innerHTML), so markup inside documents is shown literally.

import { HEADING_SEPARATOR } from "./contract.js";

// A result link carries the query in this parameter before its `#anchor`;
// the page it opens highlights the passage (widget-landing.js).
export const HIGHLIGHT_PARAM = "h";

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children); // strings become text nodes
  return node;
}

// The sentence with its matched words wrapped in <mark>.
export function markedText(text, marks) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const [start, end] of marks) {
    if (start < at) continue; // overlapping marks: keep the first
    fragment.append(text.slice(at, start), element("mark", {}, text.slice(start, end)));
    at = end;
  }
  fragment.append(text.slice(at));
  return fragment;
}

// Characters that end or split a text directive must be percent-encoded.
function directiveText(text) {
  return encodeURIComponent(text).replace(/-/g, "%2D");
}

// `:~:text=` for the quote: the whole sentence when short, else its first and
// last words (a text directive must match whole words of the rendered page).
export function textFragment(sentence) {
  const words = sentence.split(/\s+/).filter(Boolean);
  if (sentence.length <= 80 || words.length < 10) return `:~:text=${directiveText(sentence)}`;
  const start = words.slice(0, 4).join(" ");
  const end = words.slice(-4).join(" ");
  return `:~:text=${directiveText(start)},${directiveText(end)}`;
}

// The link of a result, with the query for the landing page's highlight.
// The parts without the query are kept per recent (url, anchor, quote):
// they come back keystroke after keystroke. A URL with a query string of its
// own takes the long way (its parameters are re-encoded with ours).
const HREF_PARTS = 1000;
const hrefParts = new Map();

function hrefAround(result) {
  const key = `${result.url}\u0000${result.anchor}\u0000${result.quote ?? ""}`;
  let parts = hrefParts.get(key);
  if (parts === undefined) {
    const url = new URL(result.url);
    url.hash = result.anchor + (result.quote ? textFragment(result.quote) : "");
    const href = url.href;
    const hash = href.indexOf("#");
    parts = result.url.includes("?") ? null : hash < 0 ? [href, ""] : [href.slice(0, hash), href.slice(hash)];
    if (hrefParts.size >= HREF_PARTS) hrefParts.delete(hrefParts.keys().next().value);
    hrefParts.set(key, parts);
  }
  return parts;
}

let lastParam = { query: null, text: "" };

export function resultHref(result, query) {
  const parts = hrefAround(result);
  if (lastParam.query !== query) lastParam = { query, text: String(new URLSearchParams([[HIGHLIGHT_PARAM, query]])) };
  if (parts) return `${parts[0]}?${lastParam.text}${parts[1]}`;
  const url = new URL(result.url);
  url.searchParams.set(HIGHLIGHT_PARAM, query);
  url.hash = result.anchor + (result.quote ? textFragment(result.quote) : "");
  return url.href;
}

function headingPath(result) {
  const path = result.heading.length > 1 ? result.heading.slice(1) : result.heading;
  return path.join(HEADING_SEPARATOR);
}

// Chunk text marks code lines and table cells (markdown_ext/text.py).
const CODE_LINE = "\u2028";
const CELL = "\t";

// Marks of `text` that fall inside [start, end), shifted to start there.
function marksWithin(marks, start, end) {
  return marks.filter(([a, b]) => a < end && b > start).map(([a, b]) => [Math.max(a, start) - start, Math.min(b, end) - start]);
}

// A code quote: its lines in a <pre>, line breaks and indentation kept.
function codeQuote(result) {
  // U+2028 and "\n" are one UTF-16 unit each: the marks' offsets still hold.
  const text = result.quote.split(CODE_LINE).join("\n");
  return element("pre", { class: "citesearch-quote citesearch-code" }, element("code", {}, markedText(text, result.marks)));
}

function tableRow(cellTag, row, marks) {
  const cells = [];
  let at = 0;
  for (const cell of row.split(CELL)) {
    cells.push(element(cellTag, {}, markedText(cell, marksWithin(marks, at, at + cell.length))));
    at += cell.length + 1;
  }
  return element("tr", {}, ...cells);
}

// A table quote: the matching row under its header row, never one flat line.
function tableQuote(result) {
  const header = result.quoteHeader ?? null;
  const rows = header === null
    ? [element("thead", {}, tableRow("th", result.quote, result.marks))]
    : [element("thead", {}, tableRow("th", header, [])), element("tbody", {}, tableRow("td", result.quote, result.marks))];
  return element("table", { class: "citesearch-quote citesearch-table" }, ...rows);
}

function quoteNode(result) {
  if (result.quoteKind === "code") return codeQuote(result);
  if (result.quoteKind === "table") return tableQuote(result);
  return element("span", { class: "citesearch-quote" }, markedText(result.quote, result.marks));
}

function option(result, rank, query) {
  const link = element(
    "a",
    { class: "citesearch-hit", href: resultHref(result, query), tabindex: "-1" },
    element("span", { class: "citesearch-heading" }, headingPath(result))
  );
  if (result.quote !== null) link.append(quoteNode(result));
  return element(
    "div",
    {
      id: `citesearch-option-${rank}`,
      class: "citesearch-option",
      role: "option",
      "aria-selected": "false",
      "data-ref": result.ref,
      "data-rank": String(rank),
      lang: result.lang,
    },
    link
  );
}

// What an option shows besides its rank and link's query.
const optionKey = (result) =>
  JSON.stringify([result.ref, result.lang, result.heading, result.quote, result.marks, result.quoteKind, result.quoteHeader]);

// listbox -> Map(optionKey -> option node) of the answer on screen: a
// keystroke that leaves a result as it was moves its node instead of
// building it again (only its rank and link change).
const listedOptions = new WeakMap();

function reusedOption(previous, key, result, rank, query) {
  const node = previous.get(key);
  if (!node) return option(result, rank, query);
  previous.delete(key); // one node, one place
  node.id = `citesearch-option-${rank}`;
  node.setAttribute("aria-selected", "false");
  node.dataset.rank = String(rank);
  node.firstChild.setAttribute("href", resultHref(result, query));
  return node;
}

// [{key, results: [[result, rank], ...]}]: one entry per page, in the rank
// order of each page's best passage; passages keep their rank order.
export function pagesOf(results) {
  const pages = new Map();
  results.forEach((result, rank) => {
    const key = `${result.lang}:${result.doc.id}`;
    if (!pages.has(key)) pages.set(key, { key, results: [] });
    pages.get(key).results.push([result, rank]);
  });
  return [...pages.values()];
}

// A button in the panel must not take the focus from the search box: the
// arrow keys and Enter keep working after a click.
export function keepFocus(node) {
  node.addEventListener("mousedown", (event) => event.preventDefault());
}

// "N more on this page": the engine lists a page's first passages and names
// the rest (`moreOnPage`, `moreRefs` on the page's last result); `load(result)`
// fetches them, and they are inserted as options above the button.
function moreOnPage(group, last, ui, load, makeOption) {
  const more = element("button", { type: "button", class: "citesearch-more-here", tabindex: "-1" }, ui.moreOnPage(last.moreOnPage));
  keepFocus(more);
  const reveal = async () => {
    more.disabled = true;
    const results = await load(last);
    more.before(...results.map(makeOption));
    more.hidden = true; // not removed: a click outside the box closes the panel
    group.dataset.expanded = "";
  };
  more.addEventListener("click", (event) => {
    event.preventDefault();
    reveal().catch((error) => console.error(error));
  });
  return { more, reveal };
}

// Renders the answer grouped by page: the first `pages` pages shown, each
// with the passages the engine listed and "N more on this page" (`loadMore`
// fetches the rest; pages in `expanded` open at once). Later pages are not
// rendered ("More results" renders the answer again with more pages): their
// results are never read, so never quoted (widget-engine.js). Returns
// {documents: pages in the answer, hiddenPages: those not rendered}.
export function renderResults(listbox, answer, { pages = Infinity, ui = null, expanded = new Set(), loadMore = null } = {}) {
  let nextRank = answer.results.length; // loaded passages rank after the listed ones
  const makeOption = (result) => option(result, nextRank++, answer.query);
  const previous = listedOptions.get(listbox) ?? new Map();
  const listed = new Map();
  const listOption = ([result, rank]) => {
    const key = optionKey(result);
    const node = reusedOption(previous, key, result, rank, answer.query);
    listed.set(key, node);
    return node;
  };
  const all = pagesOf(answer.results);
  const groups = all.slice(0, pages).map((page, index) => {
    const labelId = `citesearch-group-${index}`;
    const first = page.results[0][0];
    const last = page.results[page.results.length - 1][0];
    const group = element(
      "div",
      { role: "group", class: "citesearch-group", "aria-labelledby": labelId, lang: first.lang, "data-page": page.key },
      element("div", { id: labelId, class: "citesearch-doc", role: "presentation" }, first.doc.title)
    );
    group.append(...page.results.map(listOption));
    if (last.moreOnPage > 0 && ui && loadMore) {
      const { more, reveal } = moreOnPage(group, last, ui, loadMore, makeOption);
      group.append(more);
      if (expanded.has(page.key)) reveal().catch((error) => console.error(error));
    }
    return group;
  });
  listbox.replaceChildren(...groups);
  listedOptions.set(listbox, listed);
  return { documents: all.length, hiddenPages: all.length - groups.length };
}

export function expandedPages(listbox) {
  return new Set([...listbox.querySelectorAll(".citesearch-group[data-expanded]")].map((g) => g.dataset.page));
}

export function statusText(answer, documents, ui) {
  const count = answer.results.length;
  if (answer.status === "insufficient") {
    const nothing = ui.nothing(answer.query);
    if (!count) return nothing;
    return `${nothing} ${ui.mention}`;
  }
  return ui.results(count, documents, answer.fuzzy);
}
