"""Query sets: a fixed list per corpus for browser timing, and relevance
queries sampled from the Markdown sources with a fixed seed.

Relevance queries come in two kinds, each knowing the document (and the
passage) it was made from:

- ``heading``: the text of an H2/H3 heading that occurs in one document only
  (headings such as "Summary" that every RFC has say nothing about the
  right document, so they are left out).
- ``words``: the two rarest words (fewest documents) of a sentence, in
  sentence order.  Chinese has no spaces, so there the query is the rarest
  run of 2-6 Han characters that stands between punctuation, spaces or
  Latin words (often one term, such as 请求体), not an arbitrary n-gram.
"""

from __future__ import annotations

import random
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


def doc_key(path: str) -> str:
    """One spelling for document ids, page URLs and source paths, so they compare."""
    path = path.split("#", 1)[0].split("?", 1)[0].strip("/")
    path = re.sub(r"\.(md|html)$", "", path)
    path = re.sub(r"(^|/)index$", "", path).strip("/")
    if not path:
        return "index"
    return re.sub(r"[^a-z0-9/]+", "-", path.lower()).strip("-")


CODE_SPAN = re.compile(r"`([^`]*)`")
KEPT = re.compile("\ue000(\\d+)\ue001")  # a kept code span's place while the markup around it goes


def clean_inline(text: str, keep_code: bool = False) -> str:
    """The text of inline Markdown as a page shows it.  Code spans say little
    about a sentence's wording (dropped), but are part of a heading (kept
    verbatim: ``target_feature`` keeps its underscore, which is code, not
    emphasis)."""
    text = re.sub(r"\{\s*#[^}]*\}", "", text)  # explicit heading ids
    spans: list[str] = []

    def keep(m: re.Match) -> str:
        spans.append(m.group(1))
        return f"\ue000{len(spans) - 1}\ue001"

    text = CODE_SPAN.sub(keep if keep_code else " ", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"[*_]{1,3}", "", text)
    text = KEPT.sub(lambda m: spans[int(m.group(1))], text)
    return re.sub(r"\s+", " ", text).strip(" #")


def parse(markdown: str) -> tuple[list[str], list[str]]:
    """Headings (H2/H3) and prose sentences of one document, markup removed."""
    headings, paragraphs, current = [], [], []
    in_fence = False
    for line in markdown.splitlines():
        if FENCE.match(line):
            # A code block ends the paragraph before it: the text after it is
            # another block (and passage), not the same sentence.
            if current:
                paragraphs.append(" ".join(current))
                current = []
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        m = HEADING.match(line)
        plain = line.strip()
        if m or not plain or plain[0] in "|<{/!>#[-*+=" or plain[:1].isdigit():
            if current:
                paragraphs.append(" ".join(current))
                current = []
            if m:
                headings.append(clean_inline(m.group(2), keep_code=True))
            continue
        current.append(plain)
    if current:
        paragraphs.append(" ".join(current))
    sentences = [
        s.strip()
        for p in paragraphs
        for s in SENTENCE_END.split(clean_inline(p))
        if s.strip()
    ]
    return headings, sentences


def terms(text: str, lang: str) -> list[str]:
    if lang == "zh":
        return [run for run in HAN.findall(text) if 2 <= len(run) <= 6]
    return [w.casefold() for w in WORD.findall(text)]


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


def relevance_queries(corpus: Corpus, files: list[Path], per_kind: int) -> list[Query]:
    heading_pool, sentence_pool = query_pools(corpus, files)
    rng = random.Random(f"{corpus.name}:{SEED}")
    pick = lambda pool: rng.sample(pool, min(per_kind, len(pool)))  # noqa: E731
    return pick(heading_pool) + pick(sentence_pool)


def judged_queries(corpus: Corpus, files: list[Path], sentences: int = 100, headings: int = 50,
                   words: int = 2) -> list[Query]:
    """The judged set of ``bench/quality.py``: ``headings`` heading queries and
    ``sentences`` known-item queries of a sentence's ``words`` rarest words,
    sampled with a seed of their own (the same set on every run)."""
    heading_pool, sentence_pool = query_pools(corpus, files, words)
    rng = random.Random(f"{corpus.name}:{SEED}:judged:{words}")
    chosen = rng.sample(sentence_pool, min(sentences, len(sentence_pool)))
    return rng.sample(heading_pool, min(headings, len(heading_pool))) + chosen


def query_pools(corpus: Corpus, files: list[Path], words: int = 2) -> tuple[list[Query], list[Query]]:
    """Every heading query and every sentence query of the corpus, deduplicated by text."""
    parsed = {}
    for rel in files:
        text = (corpus.source / rel).read_text(encoding="utf-8")
        parsed[rel.as_posix()] = parse(text)
    heading_docs: dict[str, set[str]] = {}
    df: Counter = Counter()
    for path, (headings, sentences) in parsed.items():
        for h in headings:
            heading_docs.setdefault(h.casefold(), set()).add(path)
        df.update(set(terms(" ".join(sentences + headings), corpus.lang)))

    heading_pool, sentence_pool = [], []
    for path, (headings, sentences) in sorted(parsed.items()):
        for h in headings:
            meaningful = HAN.search(h) if corpus.lang == "zh" else WORD.search(h)
            if len(heading_docs[h.casefold()]) == 1 and meaningful:
                heading_pool.append(Query(h, "heading", doc_key(path), heading=h))
        for s in sentences:
            if long_enough(s, corpus.lang):
                q = words_query(s, corpus.lang, df, max_df=max(2, 0.1 * len(parsed)), count=words)
                if q:
                    sentence_pool.append(Query(q, "words", doc_key(path), sentence=s))

    # Dedup by text: two identical queries would count one answer twice.
    heading_pool = list({q.text.casefold(): q for q in heading_pool}.values())
    sentence_pool = list({q.text.casefold(): q for q in sentence_pool}.values())
    return heading_pool, sentence_pool
