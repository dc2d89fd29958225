// Landing on a result: the link carries the query (`?h=`) before `#anchor`;
// the page then highlights every block of that chunk and marks the query's
// words in it. Marks are made by splitting text nodes, never with innerHTML.

export const HIGHLIGHT_PARAM = "h";

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

// Highlights the chunk named in the URL; returns the number of blocks found.
export async function highlightLanding(root, href, loadModules) {
  clearLanding(root);
  const target = landingTarget(href);
  if (!target) return 0;
  const blocks = chunkBlocks(root, target.anchor);
  if (!blocks.length) return 0;
  for (const block of blocks) block.classList.add("citesearch-landed");
  const modules = await loadModules();
  for (const block of blocks) markWords(block, target.query, modules);
  root.dataset.citesearchLanded = target.anchor;
  return blocks.length;
}
