// Landing on a result: the link carries the query (`?h=`) before `#anchor`;
// the page then highlights every block of that chunk and marks the query's
// words in it. Marks are made by splitting text nodes, never with innerHTML.

import { HIGHLIGHT_PARAM } from "./widget-view.js";

export function landingTarget(href) {
  const url = new URL(href);
  const query = url.searchParams.get(HIGHLIGHT_PARAM);
  // Browsers strip a `:~:text=` directive from location.hash; others may not.
  const anchor = decodeURIComponent(url.hash.slice(1).split(":~:")[0]);
  return query && anchor ? { query, anchor } : null;
}

export function chunkBlocks(root, anchor) {
  return [...root.querySelectorAll(`[data-chunk="${CSS.escape(anchor)}"]`)];
}

// [start, end] ranges of the query's words in `text`, sentence by sentence,
// as quote.js marks them — the same words the result list marked.
function wordRanges(text, query, { analyzer, quote }) {
  const ranges = [];
  for (const [at, end] of quote.sentences(text)) {
    const quoted = quote.quote(analyzer, text.slice(at, end), query);
    if (quoted) ranges.push(...quoted.marks.map(([start, stop]) => [at + start, at + stop]));
  }
  return ranges;
}

function markWords(block, query, modules) {
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement.closest("script, style, mark") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  let count = 0;
  for (const node of nodes) {
    // From the last range back, so earlier offsets stay valid while splitting.
    for (const [start, end] of wordRanges(node.data, query, modules).reverse()) {
      const word = node.splitText(start);
      word.splitText(end - start);
      const mark = document.createElement("mark");
      mark.className = "citesearch-term";
      word.replaceWith(mark);
      mark.append(word);
      count += 1;
    }
  }
  return count;
}

// Undoes an earlier landing on this page.
function clearLanding(root) {
  for (const mark of root.querySelectorAll("mark.citesearch-term")) {
    const parent = mark.parentNode;
    mark.replaceWith(...mark.childNodes);
    parent.normalize();
  }
  for (const block of root.querySelectorAll(".citesearch-landed")) block.classList.remove("citesearch-landed");
  delete root.dataset.citesearchLanded;
}

// The radio input that shows `panel`, if `panel` is one tab of a set of
// content tabs drawn by CSS from checked radios: pymdownx.tabbed (both
// styles, as MkDocs, Material and Zensical render it) and sphinx-design.
function tabRadio(panel) {
  if (panel.matches(".tabbed-set > .tabbed-content > .tabbed-block")) {
    // Alternate style: the n-th block is shown by the set's n-th radio.
    const set = panel.parentElement.parentElement;
    const index = [...panel.parentElement.children].indexOf(panel);
    return set.querySelectorAll(":scope > input[type=radio]")[index] || null;
  }
  if (panel.matches(".tabbed-set > .tabbed-content, .sd-tab-set > .sd-tab-content")) {
    // Classic style: radio, label, panel, in turn; the label names its radio.
    const label = panel.previousElementSibling;
    const radio = label?.tagName === "LABEL" && document.getElementById(label.htmlFor);
    return radio?.type === "radio" ? radio : null;
  }
  return null;
}

// A passage in a closed <details> or an unselected content tab cannot be
// seen, and a link to it scrolls nowhere: open and select what hides it.
// Returns whether anything was hidden.
export function reveal(block) {
  let hidden = false;
  for (let node = block; node && node !== document.body; node = node.parentElement) {
    if (node.tagName === "DETAILS" && !node.open) {
      node.open = true;
      hidden = true;
    }
    const radio = tabRadio(node);
    if (radio && !radio.checked) {
      radio.checked = true;
      // Material moves its tab indicator on the change, as after a click.
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      hidden = true;
    }
  }
  return hidden;
}

// Highlights the chunk named in the URL; returns the number of blocks found.
// A chunk may hold a whole tab set or note: what is revealed is where its
// first marked word is. `onRevealed(element)` is called with that word when it
// was hidden (see `reveal`): the page could not scroll to it by itself.
export async function highlightLanding(root, href, loadModules, onRevealed = () => {}) {
  clearLanding(root);
  const target = landingTarget(href);
  if (!target) return 0;
  const blocks = chunkBlocks(root, target.anchor);
  if (!blocks.length) return 0;
  for (const block of blocks) block.classList.add("citesearch-landed");
  const modules = await loadModules(target.query); // lunr.ru for a Russian query
  for (const block of blocks) markWords(block, target.query, modules);
  const shown = blocks.map((block) => block.querySelector("mark.citesearch-term") || block);
  const hidden = shown.filter(reveal);
  if (hidden.length) onRevealed(hidden[0]);
  root.dataset.citesearchLanded = target.anchor;
  return blocks.length;
}
