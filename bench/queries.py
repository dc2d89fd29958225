"""Query sets: a fixed list per corpus for browser timing, and relevance
queries sampled from the Markdown sources with a fixed seed.

Relevance queries come in two kinds, each knowing the document (and the
passage) it was made from:

- ``heading``: the text of an H2/H3 heading that occurs in one document only
  (headings such as "Summary" that every RFC has say nothing about the
  right document, so they are left out).
- ``words``: the two rarest words (fewest documents) of a sentence, in
  sentence order, when no sentence of another document gives the same
  words.  Chinese has no spaces, so there the query is the rarest run of
  2-6 Han characters that stands between punctuation, spaces or Latin
  words (often one term, such as 请求体), not an arbitrary n-gram.
  A run's documents are those that show its characters anywhere, inside
  longer runs too, as a reader finds them: 使用 ("use") stands alone in few
  sentences but is said on most pages, so it is never "rare".

Each set is drawn by a seeded hash of each candidate's identity (its page and
its sentence or heading), the N smallest: a later change to the pool (a page
added, a parsing fix) keeps every query it does not touch.

Both are made only from text a reader sees on the page (``parse``): real
sites' Markdown holds front matter, comments, styles, indented code, tables,
attribute lists and API-generator directives (``::: module.Class`` with its
options), none of which a query may come from.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from corpora import Corpus

SEED = 7

TIMING_QUERIES = {
    "fastapi-en": ["dependencies", "response model", "background tasks", "CORS",
                   "OAuth2 password", "path parameters", "websockets", "testing"],
    "fastapi-ru": ["зависимости", "модель ответа", "фоновые задачи", "параметры пути",
                   "безопасность", "тестирование", "заголовки", "валидация"],
    "fastapi-zh": ["依赖项", "响应模型", "后台任务", "路径参数",
                   "安全", "测试", "请求体", "中间件"],
    "rust-rfcs": ["lifetime elision", "trait objects", "const generics", "async await",
                  "pattern matching", "borrow checker", "procedural macros", "unsafe"],
}

HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
HAN = re.compile(r"[\u3400-\u9fff]+")
WORD = re.compile(r"[^\W\d_]{4,}")
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


@dataclass(frozen=True)
class Query:
    text: str
    kind: str  # "heading" | "words"
    doc: str  # expected document: path without .md
    heading: str = ""  # heading queries: the heading text
    sentence: str = ""  # words queries: the sentence the words come from
    bare: bool = False  # heading queries: its section has no text before its first subsection


def doc_key(path: str) -> str:
    """One spelling for document ids, page URLs and source paths, so they compare.
    A folder's ``README.md`` is its index page, as MkDocs publishes it
    (``dev-guide/README.md`` -> ``dev-guide/``)."""
    path = path.split("#", 1)[0].split("?", 1)[0].strip("/")
    path = re.sub(r"\.(md|html)$", "", path)
    path = re.sub(r"(^|/)(index|readme)$", "", path, flags=re.IGNORECASE).strip("/")
    if not path:
        return "index"
    return re.sub(r"[^a-z0-9/]+", "-", path.lower()).strip("-")


CODE_SPAN = re.compile(r"`([^`]*)`")
KEPT = re.compile("\ue000(\\d+)\ue001")  # a kept code span's place while the markup around it goes
# attr_list's braces ({#id}, {: #id }, { .label .pending }, {.internal-link target=_blank}): markup, not text;
# a brace of prose ({name}, {exc.request.url!r}) stays.
ATTR_LIST = re.compile(r"\{:?\s*[#.][^}]*\}|\{:[^}]*\}|\{\s*[\w-]+=[^}]*\}")
# Emphasis: any run of asterisks; underscores only at a word's edge, since an underscore inside a word
# (site_url, show_root_heading) is shown as written by Python-Markdown and every CommonMark renderer.
EMPHASIS = re.compile(r"\*{1,3}|(?<![^\W_])_{1,3}|_{1,3}(?![^\W_])")


def clean_inline(text: str, keep_code: bool = False) -> str:
    """The text of inline Markdown as a page shows it.  Code spans say little
    about a sentence's wording (dropped), but are part of a heading (kept
    verbatim: ``target_feature`` keeps its underscore, which is code, not
    emphasis)."""
    text = ATTR_LIST.sub("", text)
    spans: list[str] = []

    def keep(m: re.Match) -> str:
        spans.append(m.group(1))
        return f"\ue000{len(spans) - 1}\ue001"

    text = CODE_SPAN.sub(keep if keep_code else " ", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = EMPHASIS.sub("", text)
    text = html.unescape(KEPT.sub(lambda m: spans[int(m.group(1))], text))  # &nbsp; is a space, not "nbsp"
    return re.sub(r"\s+", " ", text).strip(" #")


# Blocks whose lines a reader never sees as prose, or not as one sentence; each runs to a blank line.
# The first line of a list item, a table row or a quote is left out (a sentence made of it would start
# mid-item); its continuation lines go with it, else they make a sentence of half a link or half an item.
LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])(\s|$)")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$")  # under a table's header row
DIRECTIVE = re.compile(r"^\s*:::")  # mkdocstrings / mkautodoc: the page shows the API's text, not this
HTML_BLOCK = re.compile(r"^\s*<")
CONTAINER = re.compile(r"^(!!!|\?\?\?\+?|===) ")  # admonitions, collapsible blocks, content tabs
# Raw HTML whose inside is never text on the page, whatever blank lines it holds.
HIDDEN_HTML = {"<!--": "-->", "<style": "</style>", "<script": "</script>"}


def indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def parse(markdown: str) -> tuple[list[str], list[str]]:
    """Headings (H2/H3) and prose sentences of one document, markup removed.
    Only text a reader sees on the page counts: not front matter, comments,
    raw HTML, fenced or indented code, nor the directives of API generators."""
    headings, paragraphs, current = [], [], []
    lines = markdown.splitlines()
    if lines and lines[0].strip() == "---":  # YAML front matter: the page's metadata
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() in ("---", "...")), 0)
        lines = lines[end + 1:]
    in_fence, skip_block, hidden_until, code_indent = False, False, "", None
    prose_indent, blank_before = 0, True

    def end_paragraph() -> None:
        if current:
            paragraphs.append(" ".join(current))
            current.clear()

    for line in lines:
        plain = line.strip()
        if hidden_until:
            hidden_until = "" if hidden_until in line else hidden_until
            continue
        if code_indent is not None and (not plain or indent(line) >= code_indent):
            continue  # inside an indented code block
        code_indent = None
        if FENCE.match(line):
            # A code block ends the paragraph before it: the text after it is
            # another block (and passage), not the same sentence.
            end_paragraph()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if not plain:
            end_paragraph()
            skip_block, blank_before = False, True
            continue
        if blank_before and indent(line) >= prose_indent + 4:
            # Indented code (after a blank line, four columns in from the prose around it).  An
            # admonition's or a tab's body set off by a blank line looks the same and is left out too.
            end_paragraph()
            code_indent = prose_indent + 4
            continue
        blank_before = False
        opener = next((o for o in HIDDEN_HTML if plain.lower().startswith(o)), None)
        if opener:
            end_paragraph()
            hidden_until = "" if HIDDEN_HTML[opener] in plain[len(opener):] else HIDDEN_HTML[opener]
            continue
        m = HEADING.match(line)
        if m:  # a heading also ends a list or a table above it
            end_paragraph()
            headings.append(clean_inline(m.group(2), keep_code=True))
            skip_block, prose_indent = False, indent(line)
            continue
        if skip_block:
            continue
        wide = line.expandtabs(4)
        item = LIST_ITEM.match(wide)
        if item or DIRECTIVE.match(line) or HTML_BLOCK.match(line) or plain[0] in "|>":
            end_paragraph()
            skip_block = True
            if item:  # the item's later paragraphs stand at its text's column; its code four further in
                prose_indent = len(wide) - len(wide[item.end():].lstrip())
            continue
        if TABLE_RULE.match(line):  # the paragraph so far was the table's header row
            current.clear()
            skip_block = True
            continue
        prose_indent = indent(line)
        if plain[0] in "{/!#[=-*+" or plain[0].isdigit():  # one line of markup: snippets, admonition titles
            end_paragraph()
            if CONTAINER.match(plain):  # its body is prose four columns in, its code four further
                prose_indent += 4
            continue
        current.append(plain)
    end_paragraph()
    sentences = [
        s.strip()
        for p in paragraphs
        for s in SENTENCE_END.split(clean_inline(p))
        if s.strip()
    ]
    return headings, sentences


ANY_HEADING = re.compile(r"^(#{1,6})\s+\S")


# A line the page does not show: an empty anchor (`<a name="runmode-declare"></a>`, a link target
# older docs put under a heading) or an HTML comment on one line.
INVISIBLE_LINE = re.compile(r"\s*(?:<a\s[^>]*>\s*</a>|<!--.*?-->)\s*$", re.IGNORECASE)


def bare_headings(markdown: str) -> set[str]:
    """The H2/H3 headings (as ``parse`` gives them) whose next line with visible text
    is a deeper heading: their section has no passage of its own, only subsections."""
    bare = set()
    lines = [line for line in markdown.splitlines() if line.strip() and not INVISIBLE_LINE.match(line)]
    for line, after in zip(lines, lines[1:]):
        m, deeper = HEADING.match(line), ANY_HEADING.match(after)
        if m and deeper and len(deeper.group(1)) > len(m.group(1)):
            bare.add(clean_inline(m.group(2), keep_code=True))
    return bare


def terms(text: str, lang: str) -> list[str]:
    if lang == "zh":
        return [run for run in HAN.findall(text) if 2 <= len(run) <= 6]
    return [w.casefold() for w in WORD.findall(text)]


def shown_terms(text: str, lang: str) -> set[str]:
    """Every term a page shows, for its document frequency.  Chinese: every run
    of 2-6 Han characters inside the page's runs, since a reader (and any
    search) finds 使用 in 使用方法 as well; elsewhere the words themselves."""
    if lang != "zh":
        return set(terms(text, lang))
    return {run[i:i + n] for run in HAN.findall(text) for n in range(2, 7) for i in range(len(run) - n + 1)}


def long_enough(sentence: str, lang: str) -> bool:
    if lang == "zh":
        return sum(len(r) for r in HAN.findall(sentence)) >= 12
    return len(WORD.findall(sentence)) >= 6


def words_query(sentence: str, lang: str, df: Counter, max_df: float, count: int = 2) -> str | None:
    """None when the sentence has no rare word (one in at most ``max_df`` documents)."""
    found = list(dict.fromkeys(terms(sentence, lang)))
    if not found or min(df[t] for t in found) > max_df:
        return None
    if lang == "zh":
        return min(found, key=lambda t: df[t]) if found else None
    if len(found) < count:
        return None
    rarest = sorted(found, key=lambda t: (df[t], found.index(t)))[:count]
    return " ".join(sorted(rarest, key=found.index))


def draw(pool: list[Query], count: int, seed: str) -> list[Query]:
    """The ``count`` queries of ``pool`` whose identity (page, then sentence or
    heading) hashes smallest under ``seed``, in that order.  Unlike sampling by
    position, a query's place depends on itself alone: a pool change keeps
    every query it does not touch (and may add or drop only the ones it does)."""
    def key(q: Query) -> str:
        return hashlib.sha256(f"{seed}\0{q.doc}\0{q.sentence or q.heading}".encode()).hexdigest()

    chosen: dict[str, Query] = {}  # by text: two identical queries would count one answer twice
    for q in sorted(pool, key=key):
        if len(chosen) == count:
            break
        chosen.setdefault(q.text.casefold(), q)
    return list(chosen.values())


def relevance_queries(corpus: Corpus, files: list[Path], per_kind: int) -> list[Query]:
    heading_pool, sentence_pool = query_pools(corpus, files)
    seed = f"{corpus.name}:{SEED}"
    return draw(heading_pool, per_kind, seed) + draw(sentence_pool, per_kind, seed)


def judged_queries(corpus: Corpus, files: list[Path], sentences: int = 100, headings: int = 50,
                   words: int = 2) -> list[Query]:
    """The judged set of ``bench/quality.py``: ``headings`` heading queries and
    ``sentences`` known-item queries of a sentence's ``words`` rarest words,
    drawn with a seed of their own (the same set on every run)."""
    heading_pool, sentence_pool = query_pools(corpus, files, words)
    seed = f"{corpus.name}:{SEED}:judged:{words}"
    return draw(heading_pool, headings, seed) + draw(sentence_pool, sentences, seed)


def query_pools(corpus: Corpus, files: list[Path], words: int = 2) -> tuple[list[Query], list[Query]]:
    """Every heading query and every sentence query of the corpus (``draw`` keeps one of a text)."""
    parsed, bare = {}, {}
    for rel in files:
        text = (corpus.source / rel).read_text(encoding="utf-8")
        parsed[rel.as_posix()] = parse(text)
        bare[rel.as_posix()] = bare_headings(text)
    heading_docs: dict[str, set[str]] = {}
    df: Counter = Counter()
    for path, (headings, sentences) in parsed.items():
        for h in headings:
            heading_docs.setdefault(h.casefold(), set()).add(path)
        df.update(shown_terms(" ".join(sentences + headings), corpus.lang))

    heading_pool, sentence_pool = [], []
    for path, (headings, sentences) in sorted(parsed.items()):
        for h in headings:
            meaningful = HAN.search(h) if corpus.lang == "zh" else WORD.search(h)
            if len(heading_docs[h.casefold()]) == 1 and meaningful:
                heading_pool.append(Query(h, "heading", doc_key(path), heading=h, bare=h in bare[path]))
        for s in sentences:
            if long_enough(s, corpus.lang):
                q = words_query(s, corpus.lang, df, max_df=max(2, 0.1 * len(parsed)), count=words)
                if q:
                    sentence_pool.append(Query(q, "words", doc_key(path), sentence=s))
    # A known-item query names one document: the rarest words of sentences on two pages (two pages that say
    # "exercise caution") find either, and judging one of them right would be a coin toss, as for headings.
    sentence_docs: dict[str, set[str]] = {}
    for q in sentence_pool:
        sentence_docs.setdefault(q.text.casefold(), set()).add(q.doc)
    return heading_pool, [q for q in sentence_pool if len(sentence_docs[q.text.casefold()]) == 1]
