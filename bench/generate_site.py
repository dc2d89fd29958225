"""A large generated documentation site: Markdown for citesearch, the same pages as HTML for Pagefind.

    python bench/generate_site.py OUT --pages 10000
    python bench/generate_site.py OUT --html-only   # render OUT/md again (timed by large_site.py)

Deterministic: page ``n`` depends only on ``n`` (its own seeded generator),
so any two runs, and any two sizes, agree on the pages they share.  Pages sit
in folders of 100 (``section-07/page-0712.md``) with an ``index.md`` at the
top; each has a title, 3-6 sections with paragraphs, some H3s, lists and
code blocks.  Paragraphs and headings mix English, Russian and Chinese
(about 60/20/20), words drawn from Zipf-distributed vocabularies with
inflected forms, as real documentation repeats a few words often and many
rarely.

``OUT/md`` holds the Markdown (and a ``citesearch.yml``); ``OUT/html`` the
same pages converted by Python-Markdown into a minimal page whose article is
``<main role="main">``, for Pagefind to index without a site generator in
front of it.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path

import markdown

PAGES_PER_FOLDER = 100

_EN_WORDS = """
the of and to in is for that with on as by this be are from it or an at can not your you use
request response server client path query parameter body header cookie token user model schema
field value type default error status code route function class method object string number list
dictionary file data database session connection query test tests testing config configuration
settings option options dependency dependencies install package module import export build deploy
container image volume network port proxy cache memory thread process worker async await event
loop callback handler middleware router endpoint operation security password hash validate
validation serialize document documentation example examples tutorial guide reference version
release change update upgrade feature features support trait lifetime borrow compiler macro crate
generic generics closure iterator pattern match enum struct impl unsafe pointer reference slice
vector string syntax semantics proposal motivation drawbacks alternatives unresolved questions
""".split()
_EN_SYLLABLES = "ar be co de en fi ga ho in ja ki lo mi no pa qu ro si ta un ve wo xy ze".split()
_EN_SUFFIXES = ["", "", "", "s", "ing", "ed", "er", "ation"]

_RU_WORDS = """
и в не на что с по это как для из от к быть то он при вы мы запрос ответ сервер клиент путь
параметр тело заголовок пользователь модель схема поле значение тип ошибка статус код функция
класс метод объект строка число список словарь файл данные база сессия соединение тест настройка
зависимость установка пакет модуль импорт сборка развёртывание контейнер образ сеть порт кэш
память поток процесс событие обработчик маршрут операция безопасность пароль проверка документ
пример руководство версия изменение обновление возможность поддержка
""".split()
_RU_STEMS = "работ дел зна говор дума смотр ход вид пис чита стро прав счита реша".split()
_RU_ENDINGS = ["а", "ы", "у", "ой", "ами", "ах", "ать", "ает", "али", "ение", "ения", "ениями", "ный", "ная", "ные"]

_ZH_CHARS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过"
    "子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体"
    "制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内"
    "数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提"
    "直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计"
    "请求参数路径响应服务器客户端模型字段类型错误状态代码函数依赖安装部署容器缓存安全密码验证文档示例教程"
)

_CODE = [
    "def handler(request):\n    return {\"status\": \"ok\"}",
    "fn main() {\n    let v: Vec<u32> = (0..10).collect();\n    println!(\"{:?}\", v);\n}",
    "$ pip install package\n$ run --port 8000",
    "SELECT id, name FROM users WHERE active = 1;",
]


def _zipf_weights(n: int) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank + 1) for rank in range(n)))


def _vocabularies() -> dict[str, tuple[list[str], list[float]]]:
    """Each language's words, most frequent first, with cumulative Zipf weights."""
    pseudo = random.Random(11)
    english = list(_EN_WORDS)
    while len(english) < 6000:  # the long tail of rare words and names
        stem = "".join(pseudo.choice(_EN_SYLLABLES) for _ in range(pseudo.randint(2, 4)))
        english.append(stem + pseudo.choice(_EN_SUFFIXES))
    russian = list(_RU_WORDS)
    russian += [stem + ending for stem in _RU_STEMS for ending in _RU_ENDINGS]
    while len(russian) < 2500:
        stem = "".join(pseudo.choice("бвгдзклмнпрстф") + pseudo.choice("аеиоу") for _ in range(pseudo.randint(2, 3)))
        russian.append(stem + pseudo.choice(_RU_ENDINGS))
    chinese = [pseudo.choice(_ZH_CHARS) + pseudo.choice(_ZH_CHARS) for _ in range(2500)]
    return {lang: (words, _zipf_weights(len(words))) for lang, words in
            (("en", english), ("ru", russian), ("zh", chinese))}


_VOCABULARIES = _vocabularies()


def _words(rng: random.Random, lang: str, count: int) -> list[str]:
    words, weights = _VOCABULARIES[lang]
    return rng.choices(words, cum_weights=weights, k=count)


def _language(rng: random.Random) -> str:
    return rng.choices(("en", "ru", "zh"), weights=(60, 20, 20))[0]


def _sentence(rng: random.Random, lang: str) -> str:
    words = _words(rng, lang, rng.randint(6, 16))
    if lang == "zh":
        return "".join(words) + "。"
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    lang = _language(rng)
    return " ".join(_sentence(rng, lang) for _ in range(rng.randint(2, 5)))


def _heading(rng: random.Random) -> str:
    lang = _language(rng)
    words = _words(rng, lang, rng.randint(2, 4))
    return ("".join(words) if lang == "zh" else " ".join(words)).capitalize()


def page_markdown(n: int) -> str:
    """Page ``n``: the same text for the same ``n``, whatever the size of the site."""
    rng = random.Random(f"citesearch-bench-page-{n}")
    lines = [f"# {_heading(rng)} {n}", "", _paragraph(rng), ""]
    for _ in range(rng.randint(3, 6)):
        lines += [f"## {_heading(rng)}", "", _paragraph(rng), ""]
        if rng.random() < 0.3:
            lines += [f"- {_sentence(rng, _language(rng))}" for _ in range(rng.randint(2, 5))] + [""]
        if rng.random() < 0.25:
            lines += ["```", rng.choice(_CODE), "```", ""]
        for _ in range(rng.choice((0, 0, 1, 2))):
            lines += [f"### {_heading(rng)}", "", _paragraph(rng), ""]
    return "\n".join(lines)


def page_path(n: int, per_folder: int = PAGES_PER_FOLDER) -> str:
    return f"section-{n // per_folder:03d}/page-{n:05d}.md"


HTML_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><main role="main">
{body}
</main></body></html>
"""


def generate(out: Path, pages: int, per_folder: int = PAGES_PER_FOLDER) -> None:
    """The Markdown pages and their citesearch.yml, under ``out/md``."""
    md_dir = out / "md"
    md_dir.mkdir(parents=True, exist_ok=True)
    (md_dir / "citesearch.yml").write_text("title: Generated\nlang: en\n", encoding="utf-8")
    documents = {"index.md": "# Generated documentation\n\n" + page_markdown(-1).split("\n", 1)[1]}
    documents.update((page_path(n, per_folder), page_markdown(n)) for n in range(pages))
    for rel, text in documents.items():
        target = md_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def render_html(out: Path) -> int:
    """``out/md`` to ``out/html`` with Python-Markdown: the least a site generator does before Pagefind runs."""
    md_dir, html_dir = out / "md", out / "html"
    converter = markdown.Markdown(extensions=["fenced_code", "tables"])
    count = 0
    for source in sorted(md_dir.rglob("*.md")):
        text = source.read_text(encoding="utf-8")
        page = html_dir / source.relative_to(md_dir).with_suffix(".html")
        page.parent.mkdir(parents=True, exist_ok=True)
        title = text.split("\n", 1)[0].lstrip("# ")
        page.write_text(HTML_PAGE.format(title=title, body=converter.reset().convert(text)), encoding="utf-8")
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write md/ and html/ into")
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--per-folder", type=int, default=PAGES_PER_FOLDER,
                        help="pages per folder (a number above --pages puts them all in one folder)")
    parser.add_argument("--no-html", action="store_true", help="only the Markdown")
    parser.add_argument("--html-only", action="store_true", help="only render the existing out/md to out/html")
    args = parser.parse_args(argv)
    if args.html_only:
        print(f"{render_html(args.out)} pages rendered into {args.out / 'html'}", file=sys.stderr)
        return 0
    generate(args.out, args.pages, args.per_folder)
    if not args.no_html:
        render_html(args.out)
    print(f"{args.pages + 1} pages in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
