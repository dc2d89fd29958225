// The widget's own words, in the page's language (English when it has none
// of these). Counts are written as "label: n" in Russian to avoid plural forms.

const STRINGS = {
  en: {
    results: (n, d, fuzzy) =>
      `${n} ${n === 1 ? "result" : "results"} in ${d} ${d === 1 ? "document" : "documents"}` +
      `${fuzzy ? " (no exact match; showing close spellings)" : ""}.`,
    nothing: (q) => `Nothing in these documents answers “${q}”.`,
    mention: "Sections that mention its words, without a quotable sentence:",
    noExact: (q) => `Nothing matches “${q}” exactly.`,
    didYouMean: ["Did you mean ", "?"],
    moreOnPage: (n) => `${n} more on this page`,
    moreResults: "More results",
    searchAll: "Search all languages",
    allLanguages: "All languages",
    unavailable: (reason) => `Search is unavailable: ${reason}.`,
    unexpected: "an unexpected error",
    fromDisk: " Pages opened from disk cannot load it: serve the site over HTTP.",
  },
  ru: {
    results: (n, d, fuzzy) =>
      `Найдено результатов: ${n}, документов: ${d}${fuzzy ? " (точных совпадений нет, показаны похожие написания)" : ""}.`,
    nothing: (q) => `В этих документах нет ответа на «${q}».`,
    mention: "Разделы, где встречаются эти слова, без подходящей цитаты:",
    noExact: (q) => `Точных совпадений с «${q}» нет.`,
    didYouMean: ["Возможно, вы имели в виду ", "?"],
    moreOnPage: (n) => `Ещё на этой странице: ${n}`,
    moreResults: "Ещё результаты",
    searchAll: "Искать на всех языках",
    allLanguages: "Все языки",
    unavailable: (reason) => `Поиск недоступен: ${reason}.`,
    unexpected: "непредвиденная ошибка",
    fromDisk: " Страницы, открытые с диска, не могут его загрузить: откройте сайт через HTTP.",
  },
  zh: {
    results: (n, d, fuzzy) => `${n} 条结果，来自 ${d} 篇文档${fuzzy ? "（没有完全匹配，显示拼写相近的结果）" : ""}。`,
    nothing: (q) => `这些文档中没有回答“${q}”的内容。`,
    mention: "提到这些词的章节（没有可引用的句子）：",
    noExact: (q) => `没有与“${q}”完全匹配的内容。`,
    didYouMean: ["您是不是要找 ", "？"],
    moreOnPage: (n) => `本页还有 ${n} 条`,
    moreResults: "更多结果",
    searchAll: "搜索所有语言",
    allLanguages: "所有语言",
    unavailable: (reason) => `搜索不可用：${reason}。`,
    unexpected: "意外错误",
    fromDisk: "从磁盘直接打开的页面无法加载搜索：请通过 HTTP 访问站点。",
  },
};

export function strings(lang) {
  return STRINGS[(lang || "").toLowerCase().split("-")[0]] || STRINGS.en;
}
