// The search half of the widget: loads the contract modules (analyzer.js,
// query.js, quote.js, shards.js) and, per query, only the search files it needs
// (shards.js), and answers with the same ranked refs, scores and quotes as
// `citesearch search --json`. Everything is fetched lazily, once per page,
// relative to the widget's own URL; independent files in parallel.

import { FORMAT_VERSION, PASSAGES_PER_PAGE, STATUS_INSUFFICIENT, STATUS_SUPPORTED } from "./contract.js";

const VENDOR_SCRIPTS = ["vendor/lunr.min.js"];
// Loaded only for a query with a Russian word: 5 KB gzipped that an English
// query never needs, even on a site with Russian texts (analyzer.js).
const RUSSIAN_SCRIPTS = ["vendor/lunr.stemmer.support.min.js", "vendor/lunr.ru.min.js"];

export class LoadError extends Error {}

// The page loads the widget as citesearch.js?v=<build>; its siblings get the
// same stamp so a rebuilt site never mixes old and new modules.
export function siblingUrl(path, moduleUrl) {
  return new URL(path + new URL(moduleUrl).search, moduleUrl);
}

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    // Downloaded in parallel, run in insertion order (lunr before its plugins).
    script.async = false;
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new LoadError(`could not load ${url}`));
    document.head.append(script);
  });
}

async function fetchJson(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new LoadError(`could not fetch ${url} (${error.message})`);
  }
  if (!response.ok) throw new LoadError(`could not fetch ${url} (HTTP ${response.status})`);
  return response.json();
}

// Remembers a promise per key; a failed load is forgotten so it can be retried.
function once(cache, key, load) {
  if (!cache.has(key)) {
    const promise = load();
    cache.set(key, promise);
    promise.catch(() => cache.delete(key));
  }
  return cache.get(key);
}

// Per keystroke the query is cut into pieces several times, and the ranking
// analyses the heading path and quoted sentence of each shown passage; while
// a reader types these are mostly the same texts. The answers for recently
// used texts are kept, the least recently used going first (callers only
// read them).
const REMEMBERED_TEXTS = 1000;

function remembering(analyse) {
  const answers = new Map();
  return (text) => {
    let found = answers.get(text);
    if (found === undefined) {
      found = analyse(text);
      if (answers.size >= REMEMBERED_TEXTS) answers.delete(answers.keys().next().value);
    } else {
      answers.delete(text); // now the most recently used
    }
    answers.set(text, found);
    return found;
  };
}

const rememberingAnalyses = (analyzer) => ({
  ...analyzer,
  analyze: remembering(analyzer.analyze),
  pieces: remembering(analyzer.pieces),
  unremembered: analyzer,
});

// `searchUrl`/`siteUrl`: where the page says the search folder and the site
// root are (generators other than citesearch put them elsewhere).
export function createEngine(assetsUrl, { searchUrl = new URL("../search/", assetsUrl), siteUrl = new URL("../", assetsUrl) } = {}) {
  const cache = new Map();
  let analyzerChecked = false;
  let searchFetches = 0; // search files fetched so far: a search that fetched some is cold
  let lastCold = true; // the last search fetched search files (or none ran yet)
  const asset = (path) => siblingUrl(path, assetsUrl);

  const manifest = () =>
    once(cache, "manifest", async () => {
      const data = await fetchJson(new URL("manifest.json", searchUrl));
      if (data.format !== FORMAT_VERSION) {
        throw new LoadError(`search index format ${data.format} is not supported (widget reads format ${FORMAT_VERSION})`);
      }
      return data;
    });

  const modules = () =>
    once(cache, "modules", async () => {
      // lunr.js and its plugins are classic scripts that attach to window.lunr;
      // everything downloads at once.
      const scripts = Promise.all(VENDOR_SCRIPTS.map((path) => loadScript(asset(path))));
      const imports = Promise.all(
        ["analyzer.js", "query.js", "quote.js", "shards.js", "rank.js"].map((name) =>
          import(asset(name)).catch((error) => {
            throw new LoadError(`could not load ${name} (${error.message})`);
          })
        )
      );
      const [, [analyzerModule, query, quote, shards, rank]] = await Promise.all([scripts, imports]);
      const lunr = window.lunr;
      return { lunr, analyzer: rememberingAnalyses(analyzerModule.createAnalyzer(lunr)), query, quote, shards, rank };
    });

  const shard = (lang) =>
    once(cache, `shard:${lang}`, async () => {
      const [mods, data] = await Promise.all([modules(), manifest()]);
      const entry = data.languages[lang];
      if (!entry) throw new LoadError(`the site has no search index for language "${lang}"`);
      const load = (name) => {
        searchFetches++;
        return fetchJson(new URL(name, searchUrl));
      };
      const { lunr, query, analyzer } = mods;
      const index = mods.shards.createShardedIndex({ lunr, query, analyzer, entry, fields: data.fields, load });
      // ref -> {doc, anchor, heading, text} of every passage whose file is in.
      return { lang, index, chunks: new Map() };
    });

  // lunr.ru for Russian words, once lunr itself has run. The texts analysed
  // before it came hold their Russian words unstemmed: a new analyzer, so no
  // analysis kept for the old one (here, in quote.js) is read again.
  const russian = () =>
    once(cache, "russian", async () => {
      const mods = await modules();
      await Promise.all(RUSSIAN_SCRIPTS.map((path) => loadScript(asset(path))));
      mods.analyzer = rememberingAnalyses(mods.analyzer.unremembered);
    });

  // The modules, with lunr.ru when `text` has a Russian word.
  async function modulesFor(text) {
    const mods = await modules();
    if (mods.analyzer.pieces(text).some((piece) => piece.kind === "cyrillic")) await russian();
    return mods;
  }

  // Loads everything a search in `langs` for `text` needs and warns once when
  // the index was built by another analyzer than the one this page runs.
  async function prepare(langs, text) {
    const [data, mods] = await Promise.all([manifest(), modulesFor(text)]);
    const built = data.analyzer || {};
    if (!analyzerChecked && (built.name !== mods.analyzer.name || built.version !== mods.analyzer.version)) {
      console.warn(
        `citesearch: index built with analyzer ${built.name} ${built.version}, ` +
          `page runs ${mods.analyzer.name} ${mods.analyzer.version}; results may be incomplete`
      );
    }
    analyzerChecked = true;
    return { mods, shards: await Promise.all(langs.map(shard)) };
  }

  // A passage's record, once its file is in (kept: a warm keystroke reads
  // it without waiting).
  async function chunkOf(shard, ref) {
    if (!shard.chunks.has(ref)) shard.chunks.set(ref, await shard.index.chunk(ref));
    return shard.chunks.get(ref);
  }

  // Ranked pages of every shard (rank.js): the first screen refined by the
  // texts of its shown passages; across languages, each keeps its order and
  // they interleave by the criteria, then language order, then ref.
  // Only the pages that can be shown are ranked to the end (their passages
  // scored and ordered, the first screen refined): the first `limit` of the
  // merged languages are among each one's first `limit`.
  async function rankPages(mods, shards, text, { prefix, perPage, limit }) {
    const words = mods.query.words(mods.analyzer, text, { prefix });
    const pages = Math.max(limit, mods.rank.REFINED_PAGES);
    const answers = await Promise.all(
      shards.map(async (shard) => {
        const found = await mods.rank.search(mods.lunr, mods.analyzer, shard.index, text, { prefix, pages });
        const refs = mods.rank.refinedRefs(found.pages, perPage);
        const chunks = await Promise.all(refs.map((ref) => chunkOf(shard, ref)));
        const texts = new Map(refs.map((ref, i) => [ref, [chunks[i].heading, chunks[i].text, chunks[i].bare]]));
        return { pages: mods.rank.refine(mods.analyzer, found.pages, words, texts, text, { prefix, perPage }), fuzzy: found.fuzzy, total: found.total };
      })
    );
    const lists = shards.map((shard, order) =>
      answers[order].pages.map((page) => ({ shard, page, key: [...page.key.slice(0, -1), order, page.ref] }))
    );
    const ranked = [];
    const heads = lists.map(() => 0);
    for (;;) {
      let pick = -1;
      lists.forEach((list, i) => {
        if (heads[i] < list.length && (pick < 0 || mods.rank.compareKeys(list[heads[i]].key, lists[pick][heads[pick]].key) < 0)) pick = i;
      });
      if (pick < 0) break;
      ranked.push(lists[pick][heads[pick]++]);
    }
    // `total`: the pages found, at least (a first screen proven from a part of the postings, rank.js `search`).
    return { ranked, fuzzy: answers.some((found) => found.fuzzy), total: answers.reduce((sum, found) => sum + found.total, 0) };
  }

  // Absolute page URLs, per page URL of the index.
  const pageUrls = new Map();
  const pageUrl = (url) => {
    if (!pageUrls.has(url)) pageUrls.set(url, new URL(url, siteUrl).href);
    return pageUrls.get(url);
  };

  // A result of one passage: its page, anchor, heading path and quote, then
  // `extra`. The quote is made when first read: an answer lists 20 pages and
  // the first screen shows 5 (widget-view.js renders no more), so most
  // results of a keystroke are never quoted.
  function passageResult(mods, shard, passage, text, prefix, extra = {}) {
    const { doc, anchor, heading, text: chunkText } = shard.chunks.get(passage.ref);
    let quoted;
    const quote = () => (quoted === undefined ? (quoted = mods.quote.quote(mods.analyzer, chunkText, text, { prefix })) : quoted);
    const criteria = Object.fromEntries(passage.criteria);
    return {
      ref: `${doc.id}#${anchor}`,
      doc,
      anchor,
      heading,
      lang: shard.lang,
      score: criteria.score,
      url: pageUrl(doc.url),
      get quote() { return quote() ? quote().sentence : null; },
      get marks() { return quote() ? quote().marks : []; },
      get quoteKind() { return quote() ? quote().kind : "text"; },
      get quoteHeader() { return quote() ? quote().header : null; },
      text: chunkText,
      criteria,
      ...extra,
    };
  }

  // Results grouped by page, best page first: the first `limit` pages, each
  // with its first `perPage` passages; a page's last result carries
  // `moreOnPage` and `moreRefs` (its other matching passages, best first, for
  // `passages`). `prefix`: the last word may still be being typed (query.js
  // only treats it so when the text does not end in whitespace).
  // `onFirst(answer)`, when given, gets the answer's first `first` results as
  // soon as their texts are in (the same ranks and quotes as in the full
  // answer), so they can show before the texts of lower-ranked results arrive.
  async function search(text, { langs, limit = 10, perPage = PASSAGES_PER_PAGE, prefix = true, first = 5, onFirst = null } = {}) {
    const { mods, shards } = await prepare(langs, text);
    const items = (ranked, count) => ranked.slice(0, count).flatMap(({ shard, page }, position) => {
      const passages = page.passages.slice(0, perPage);
      const pageCriteria = Object.fromEntries(page.criteria);
      return passages.map((passage, n) => {
        const more = n === passages.length - 1 ? page.passages.slice(passages.length).map((p) => p.ref) : [];
        return { shard, passage, extra: { page: position, pageCriteria, moreOnPage: more.length, moreRefs: more } };
      });
    });
    const result = ({ shard, passage, extra }) => passageResult(mods, shard, passage, text, prefix, extra);
    const answerOf = ({ fuzzy, total }, results) => {
      const status = results.some((r) => r.quote !== null) ? STATUS_SUPPORTED : STATUS_INSUFFICIENT;
      return { query: text.trim(), status, fuzzy, results, total };
    };
    const withText = async (item) => {
      await chunkOf(item.shard, item.passage.ref);
      return result(item);
    };
    const inAlready = (list) => list.every(({ shard, passage }) => shard.chunks.has(passage.ref));
    // Cold (search files had to be fetched): the first results come from the
    // refined first screen alone, which rank.js proves from fewer blocks of the
    // frequent words' postings than the pages after it need; they are the
    // whole answer's first results. Warm, the whole answer shows at once.
    // While typing on warm files (the last search fetched none) the screen is
    // not ranked twice.
    let shownFirst = false;
    const screen = mods.rank.REFINED_PAGES;
    const fetched = searchFetches;
    if (onFirst && limit > screen && lastCold) {
      const early = await rankPages(mods, shards, text, { prefix, perPage, limit: screen });
      const top = items(early.ranked, screen);
      if (top.length > first && searchFetches !== fetched) {
        onFirst(answerOf(early, await Promise.all(top.slice(0, first).map(withText))));
        shownFirst = true;
      }
    }
    const ranking = await rankPages(mods, shards, text, { prefix, perPage, limit });
    lastCold = searchFetches !== fetched;
    const shown = items(ranking.ranked, limit);
    const answer = (results) => answerOf(ranking, results);
    // Warm: every text is in, the answer is made at once (shown once).
    if (inAlready(shown)) return answer(shown.map(result));
    // Requested in rank order: the top results' files are asked for first.
    const pending = shown.map(withText);
    const all = Promise.all(pending); // handles every rejection, even one before the first results are in
    if (onFirst && !shownFirst && pending.length > first) onFirst(answer(await Promise.all(pending.slice(0, first))));
    return answer(await all);
  }

  // The results of more passages of one page (`moreRefs` of a result of `lang`).
  async function passages(text, lang, refs, { prefix = true } = {}) {
    const { mods, shards } = await prepare([lang], text);
    await Promise.all(refs.map((ref) => chunkOf(shards[0], ref)));
    return refs.map((ref) => passageResult(mods, shards[0], { ref, criteria: [] }, text, prefix));
  }

  return { manifest, modules, modulesFor, search, passages };
}
