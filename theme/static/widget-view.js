// Renders search results as DOM nodes. Content only ever enters the page as
// text nodes (never innerHTML), so markup inside documents is shown literally.

import { HEADING_SEPARATOR } from "./contract.js";
import { HIGHLIGHT_PARAM } from "./widget-landing.js";

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

export function resultHref(result, query) {
  const url = new URL(result.url);
  url.searchParams.set(HIGHLIGHT_PARAM, query);
  url.hash = result.anchor + (result.quote ? textFragment(result.quote) : "");
  return url.href;
}

function headingPath(result) {
  const path = result.heading.length > 1 ? result.heading.slice(1) : result.heading;
  return path.join(HEADING_SEPARATOR);
}

function option(result, rank, query) {
  const link = element(
    "a",
    { class: "citesearch-hit", href: resultHref(result, query), tabindex: "-1" },
    element("span", { class: "citesearch-heading" }, headingPath(result))
  );
  if (result.quote !== null) {
    link.append(element("span", { class: "citesearch-quote" }, markedText(result.quote, result.marks)));
  }
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

// Groups keep the rank order of their best result; options inside a group
// keep their own rank order.
export function renderResults(listbox, answer) {
  const groups = new Map();
  answer.results.forEach((result, rank) => {
    const key = `${result.lang}:${result.doc.id}`;
    if (!groups.has(key)) {
      const labelId = `citesearch-group-${groups.size}`;
      const group = element(
        "div",
        { role: "group", class: "citesearch-group", "aria-labelledby": labelId, lang: result.lang },
        element("div", { id: labelId, class: "citesearch-doc", role: "presentation" }, result.doc.title)
      );
      groups.set(key, group);
    }
    groups.get(key).append(option(result, rank, answer.query));
  });
  listbox.replaceChildren(...groups.values());
  return groups.size;
}

export function statusText(answer, documents, ui) {
  const count = answer.results.length;
  if (answer.status === "insufficient") {
    const nothing = ui.nothing(answer.query);
    if (!count) return nothing;
    return `${nothing} ${answer.fuzzy ? ui.similar : ui.mention}`;
  }
  return ui.results(count, documents, answer.fuzzy);
}
