// citesearch reader widget: the search box in the page header.
// Nothing heavy loads until the box is first focused (or the URL has `?q=`);
// the widget finds its modules relative to its own URL, and the search folder
// and site root where the page's <meta name="citesearch:search"> says.

import { createEngine, LoadError, siblingUrl } from "./widget-engine.js";
import { strings } from "./widget-strings.js";
import { attachTheme } from "./widget-theme.js";
import { expandedPages, HIGHLIGHT_PARAM, keepFocus, renderResults, statusText } from "./widget-view.js";

const QUERY_PARAM = "q";
// Typing pauses this long before the URL takes the query.
const URL_PAUSE_MS = 300;
const ALL_LANGUAGES = "*";
// Pages per answer (ranking v2 counts pages, each with its first three
// passages): enough that several screens show without another search;
// "More results" asks for MORE_LIMIT more.
const LIMIT = 20;
const MORE_LIMIT = 20;
// Pages on the first screen, and per "More results".
const PAGES = 5;
// Results shown before the texts of the others are in.
const FIRST = 5;

const SEARCH_META = 'meta[name="citesearch:search"]';

// Resolved once against the page that loaded the widget: pages swapped in later
// without a reload (Material's instant navigation) keep the first page's <head>.
function searchLocation() {
  const meta = document.querySelector(SEARCH_META);
  if (!meta) return {}; // a page without the tag: the search folder beside assets/
  return { searchUrl: new URL(meta.content, document.baseURI), siteUrl: new URL(meta.dataset.root || "./", document.baseURI) };
}

const engine = createEngine(import.meta.url, searchLocation());

// Inputs that take no text: a clicked radio button (Material's content tabs
// and palette toggle) keeps the focus, and `/` must still reach the box.
const TEXTLESS_INPUT = /^(button|checkbox|color|file|hidden|image|radio|range|reset|submit)$/;

function isEditable(target) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.tagName === "INPUT") return !TEXTLESS_INPUT.test(target.type);
  return target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName);
}

function languageName(lang) {
  try {
    return new Intl.DisplayNames([lang], { type: "language" }).of(lang);
  } catch {
    return lang;
  }
}

function button(label, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = label;
  node.addEventListener("click", onClick);
  return node;
}

function mountWidget(box) {
  const input = box.querySelector("input");
  const select = box.querySelector("select");
  const panel = box.querySelector(".citesearch-panel");
  const status = box.querySelector(".citesearch-status");
  const live = box.querySelector("[role=status]");
  const retry = box.querySelector(".citesearch-retry");
  const listbox = box.querySelector("[role=listbox]");
  let loading = null;
  let languages = [];
  let latest = 0; // only the newest search may render
  let limit = LIMIT; // pages asked for, for the query on screen
  let pages = PAGES;
  let shownQuery = null;
  const more = document.createElement("button");
  more.type = "button";
  more.className = "citesearch-more";
  more.hidden = true;
  keepFocus(more);
  listbox.after(more);
  let searched = null; // the text of the newest search, run or scheduled
  let active = -1;
  const ui = strings(box.dataset.pageLang || document.documentElement.lang);

  // Options the reader can reach: not behind "N more" or "More results".
  const options = () => [...listbox.querySelectorAll(".citesearch-group:not([hidden]) [role=option]:not([hidden])")];

  function open(visible) {
    panel.hidden = !visible;
    input.setAttribute("aria-expanded", String(visible && options().length > 0));
  }

  function activate(index, { scroll = true } = {}) {
    if (index < 0) {
      // Nothing selected (every search starts so): only the selected option changes.
      for (const node of listbox.querySelectorAll("[role=option][aria-selected=true]")) node.setAttribute("aria-selected", "false");
      active = -1;
      input.removeAttribute("aria-activedescendant");
      return;
    }
    const all = options();
    all.forEach((node, i) => node.setAttribute("aria-selected", String(i === index)));
    active = index;
    if (index < 0 || !all[index]) {
      input.removeAttribute("aria-activedescendant");
      return;
    }
    input.setAttribute("aria-activedescendant", all[index].id);
    if (scroll) all[index].scrollIntoView({ block: "nearest" });
  }

  function say(message) {
    status.textContent = message;
    live.textContent = message;
    open(true);
  }

  function ensureLoaded() {
    // The manifest and the search modules load side by side, not one after the other.
    loading ??= Promise.all([engine.manifest(), engine.modules()]).then(([manifest]) => {
      languages = Object.keys(manifest.languages);
      const pageLang = box.dataset.pageLang || document.documentElement.lang;
      const start = languages.includes(pageLang) ? pageLang : manifest.default_lang;
      if (languages.length > 1) {
        select.replaceChildren(
          ...languages.map((lang) => new Option(languageName(lang), lang, false, lang === start)),
          new Option(ui.allLanguages, ALL_LANGUAGES)
        );
        select.hidden = false;
      } else {
        select.replaceChildren(new Option(languageName(start), start, true, true));
      }
      select.value = start;
    });
    loading.catch(() => (loading = null)); // let a later focus retry
    return loading;
  }

  function chosenLanguages() {
    return select.value === ALL_LANGUAGES ? [...languages].sort() : [select.value]; // sorted, as the CLI merges them
  }

  function writeUrl(query) {
    const url = new URL(location.href);
    if (query) url.searchParams.set(QUERY_PARAM, query);
    else url.searchParams.delete(QUERY_PARAM);
    history.replaceState(history.state, "", url);
  }

  // The URL follows the box at a pause in typing: replaceState cost 2–3 ms
  // a keystroke, once before the results. Leaving the page (a result
  // followed by Enter or a click, a reload) writes a waiting query first.
  let pendingUrl = null;
  let urlTimer = 0;
  function flushUrl() {
    clearTimeout(urlTimer);
    if (pendingUrl !== null) writeUrl(pendingUrl);
    pendingUrl = null;
  }
  function scheduleUrl(query) {
    pendingUrl = query;
    clearTimeout(urlTimer);
    urlTimer = setTimeout(flushUrl, URL_PAUSE_MS);
  }

  // "Did you mean …?" (a fuzzy answer's words) and "Search all languages".
  async function retries(answer) {
    const offers = [];
    if (answer.fuzzy) {
      const { analyzer, quote } = await engine.modules();
      const found = quote.suggestion(analyzer, answer.query, answer.results.map((r) => r.text || ""));
      if (found) {
        const label = document.createDocumentFragment();
        let at = 0;
        for (const [start, end] of found.changed) {
          label.append(found.query.slice(at, start), Object.assign(document.createElement("em"), { textContent: found.query.slice(start, end) }));
          at = end;
        }
        label.append(found.query.slice(at));
        const pick = button("", () => {
          input.value = found.query;
          search();
        });
        pick.replaceChildren(label);
        pick.className = "citesearch-suggestion";
        const [before, after] = ui.didYouMean;
        const line = document.createElement("p");
        line.append(before, pick, after);
        offers.push(line);
      }
    }
    if (languages.length > 1 && select.value !== ALL_LANGUAGES) {
      offers.push(
        button(ui.searchAll, () => {
          select.value = ALL_LANGUAGES;
          search();
        })
      );
    }
    return offers;
  }

  function offer(offers) {
    retry.replaceChildren(...offers);
    retry.hidden = offers.length === 0;
  }

  function showMore(answer, hiddenPages) {
    // `total` counts pages found; results hold up to three passages of each fetched page.
    const fetchedPages = new Set(answer.results.map((result) => result.page)).size;
    const fetchedAll = fetchedPages >= (answer.total ?? fetchedPages);
    more.hidden = hiddenPages === 0 && fetchedAll;
    more.textContent = ui.moreResults;
  }

  more.addEventListener("click", () => {
    pages += PAGES;
    limit += MORE_LIMIT;
    search({ keep: true });
  });

  // The passages of a page beyond those listed ("N more on this page").
  const loadMore = (last) => engine.passages(searched, last.lang, last.moreRefs);

  // `keep`: the same query asking for more results (the opened pages stay open).
  async function search({ keep = false } = {}) {
    const typed = input.value;
    searched = typed;
    const query = typed.trim();
    const ticket = ++latest;
    scheduleUrl(query);
    if (!keep || shownQuery !== typed) {
      limit = LIMIT;
      pages = PAGES;
    }
    const expanded = keep ? expandedPages(listbox) : new Set();
    if (!query) {
      delete box.dataset.citesearchQuery;
      listbox.replaceChildren();
      retry.hidden = true;
      more.hidden = true;
      shownQuery = null;
      status.textContent = live.textContent = "";
      activate(-1);
      open(false);
      return;
    }
    try {
      await ensureLoaded();
      // The top results show as soon as their texts are in; the status, the
      // live region and the data attributes wait for the whole answer.
      const showFirst = (first) => {
        if (ticket !== latest || first.fuzzy) return;
        activate(-1);
        renderResults(listbox, first, { pages, ui, expanded, loadMore });
        status.textContent = ""; // the previous query's count no longer applies
        open(true);
      };
      // The raw value: a last word not followed by a space is prefix-matched.
      const answer = await engine.search(typed, { langs: chosenLanguages(), limit, first: FIRST, onFirst: showFirst });
      if (ticket !== latest) return;
      activate(-1);
      shownQuery = typed;
      if (answer.fuzzy) {
        // Passages with words one edit away are no answer: say so, and offer the words.
        const offers = await retries(answer);
        if (ticket !== latest) return; // a newer keystroke's answer is showing
        listbox.replaceChildren();
        more.hidden = true;
        offer(offers);
        say(ui.noExact(answer.query));
      } else {
        // Insufficient answers still list their sections, heading only: never a quote.
        const offers = answer.status === "insufficient" ? await retries(answer) : [];
        if (ticket !== latest) return;
        const { documents, hiddenPages } = renderResults(listbox, answer, { pages, ui, expanded, loadMore });
        showMore(answer, hiddenPages);
        offer(offers);
        say(statusText(answer, documents, ui));
      }
      box.dataset.citesearchStatus = answer.status; // "supported" | "insufficient", as the CLI says
      box.dataset.citesearchQuery = typed; // set last: lets tests and scripts wait for results
    } catch (error) {
      if (ticket !== latest) return;
      listbox.replaceChildren();
      retry.hidden = true;
      more.hidden = true;
      say(failureText(error));
      if (!(error instanceof LoadError)) console.error(error);
    }
  }

  function failureText(error) {
    const reason = error instanceof LoadError ? error.message : ui.unexpected;
    return ui.unavailable(reason) + (location.protocol === "file:" ? ui.fromDisk : "");
  }

  function follow(index) {
    const link = options()[index]?.querySelector("a");
    flushUrl(); // the page left keeps the query: Back shows it again
    if (link) location.assign(link.href);
  }

  // A pointer over the box (or a finger on it) is likely to focus it next: the
  // search files start loading then. Failures are reported on focus.
  const prefetch = () => ensureLoaded().catch(() => {});
  box.addEventListener("pointerenter", prefetch, { once: true });
  box.addEventListener("touchstart", prefetch, { once: true, passive: true });
  input.addEventListener("focus", () => {
    ensureLoaded().catch((error) => say(failureText(error)));
    if (input.value.trim() && (listbox.childElementCount || status.textContent)) open(true);
  });
  input.addEventListener("input", () => {
    // An input event that leaves the text as it was (a script re-dispatching
    // it) must not restart a search that is already loading.
    if (input.value === searched) return;
    // No debounce: with the files a query needs loaded, its results show on
    // this keystroke; otherwise it waits for those files only, and a newer
    // keystroke's answer always wins (`latest`).
    search();
  });
  select.addEventListener("change", () => search());
  input.addEventListener("keydown", (event) => {
    const count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!count) return;
      open(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      activate(active < 0 && step < 0 ? count - 1 : (active + step + count) % count);
    } else if (event.key === "Enter") {
      event.preventDefault();
      // Results still on screen from an older query are not what Enter means.
      const current = box.dataset.citesearchQuery === input.value;
      if (current && count && !panel.hidden) follow(Math.max(active, 0));
      else search();
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (!panel.hidden) {
        activate(-1);
        open(false);
      } else if (input.value) {
        input.value = ""; // a second Escape clears the box, as in the ARIA combobox pattern
        search();
      }
    }
  });
  listbox.addEventListener("click", flushUrl, { capture: true });
  addEventListener("pagehide", flushUrl);
  listbox.addEventListener("mousemove", (event) => {
    const option = event.target.closest("[role=option]");
    if (option) activate(options().indexOf(option), { scroll: false });
  });
  document.addEventListener("click", (event) => {
    if (box.isConnected && !box.contains(event.target)) open(false);
  });
  box.addEventListener("focusout", (event) => {
    if (!box.contains(event.relatedTarget)) open(false);
  });
  document.addEventListener("keydown", (event) => {
    const commandK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k";
    const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target);
    if ((commandK || slash) && box.isConnected) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });

  box.dataset.ready = "";
  const widget = {
    close() {
      activate(-1);
      open(false);
    },
    focus() {
      input.focus();
      input.select();
    },
  };
  const shared = new URL(location.href).searchParams.get(QUERY_PARAM);
  if (shared) {
    input.value = shared;
    search();
  } else if (input.value.trim()) {
    // Typed before this script ran (the box shows before the page's scripts
    // have loaded): the reader has waited long enough, no debounce.
    search();
  } else if (document.activeElement === input) {
    ensureLoaded().catch((error) => say(failureText(error)));
  }
  return widget;
}

// Boxes not mounted yet: the page's, then any that a theme's page swap brought in.
function mountAll() {
  for (const box of document.querySelectorAll("[data-citesearch]:not([data-ready])")) attachTheme(box, mountWidget(box));
}
mountAll();
// The landing code is fetched only for a page opened from a result (the
// query in its URL) or one showing an earlier landing to clear: most page
// views never need it (1.5 KB gzipped before the first search result).
async function land({ scroll = false } = {}) {
  try {
    const root = document.querySelector("#content") || document.body;
    if (!new URL(location.href).searchParams.has(HIGHLIGHT_PARAM) && !root.dataset.citesearchLanded) return;
    const { highlightLanding, landingTarget } = await import(siblingUrl("widget-landing.js", import.meta.url));
    let revealed = null; // a word the page hid in a closed note or another tab
    const blocks = await highlightLanding(root, location.href, engine.modulesFor, (word) => { revealed = word; });
    const target = revealed || (scroll && blocks ? document.getElementById(landingTarget(location.href).anchor) : null);
    // After the navigation's own scrolling, which runs once this page is announced.
    // A revealed word to the middle: a fixed header does not cover it.
    const where = revealed ? { block: "center" } : undefined;
    if (target) requestAnimationFrame(() => setTimeout(() => target.scrollIntoView(where), 0));
  } catch (error) {
    console.warn("citesearch: could not highlight the passage:", error);
  }
}
// Material for MkDocs' instant navigation swaps pages in without a reload and
// announces each one (the first included) on its document$ observable. It does
// not scroll to a fragment it cannot find by id (`#anchor:~:text=…`): we do.
let swaps = 0;
if (window.document$?.subscribe) {
  window.document$.subscribe(() => {
    mountAll();
    land({ scroll: swaps++ > 0 });
  });
}
else land();
// A result on the page already shown differs only by its fragment: no reload.
addEventListener("hashchange", land);
