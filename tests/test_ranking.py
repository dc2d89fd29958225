"""Ranking v2 (engine/rank.py, static/rank.js): pages by named criteria, then passages; both halves equal."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from citesearch.cli import main
from citesearch.engine import rank
from citesearch.engine.query import Word, words
from conftest import REPO
from node_support import run_node

VECTORS = json.loads((REPO / "tests/vectors/ranking.json").read_text(encoding="utf-8"))


def row(term: str, body: dict[int, float], pages: dict[int, float], title=(), heading=()) -> list:
    """A term row as the term files hold it: fields' [ref, weight, ...], then [page, weight, ...]."""
    flat = lambda d: [x for ref in sorted(d) for x in (ref, d[ref])]  # noqa: E731
    return [term, 0, flat(dict.fromkeys(title, 1.0)), flat(dict.fromkeys(heading, 1.0)), flat(body), flat(pages)]


def order(pages: list[rank.Ranked]) -> list[int]:
    return [page.ref for page in pages]


def test_a_page_with_every_word_beats_one_with_some_words_many_times():
    # Page 0 (refs 0-4) says "filter" and "array" in five passages; page 5 holds all three words once.
    query = words("filter arrays symbol")
    rows = [
        row("filter", {**{r: 3.0 for r in range(5)}, 5: 1.0}, {0: 4.0, 5: 1.0}),
        row("array", {**{r: 3.0 for r in range(5)}, 5: 1.0}, {0: 4.0, 5: 1.0}),
        row("symbol", {5: 1.0}, {5: 1.0}),
    ]
    assert order(rank.rank(query, rows, {r: 9.0 for r in range(5)})) == [5, 0]


def test_a_typo_finds_the_page_but_ranks_below_the_word_itself():
    query = words("parameter", prefix=False)
    rows = [row("paramet", {0: 0.5}, {0: 0.5}), row("paramt", {3: 5.0}, {3: 5.0})]  # 3: one edit away
    ranked = rank.rank(query, rows, {0: 0.5})
    assert order(ranked) == [0, 3]
    assert [page.explain()["typos"] for page in ranked] == [0, 1]
    assert not rank.typo_only(ranked)
    typo_only = rank.rank(query, rows[1:], {})
    assert order(typo_only) == [3] and rank.typo_only(typo_only)


def test_words_in_one_passage_beat_the_same_words_spread_over_a_page():
    query = words("borrow checker", prefix=False)
    rows = [row("borrow", {0: 2.0, 4: 1.0}, {0: 3.0, 4: 1.0}), row("checker", {1: 2.0, 4: 1.0}, {0: 3.0, 4: 1.0})]
    ranked = rank.rank(query, rows, {})
    assert order(ranked) == [4, 0]
    assert [page.explain()["proximity"] for page in ranked] == [2, 1]


def test_heading_words_break_a_tie_and_page_evidence_the_next():
    query = words("install", prefix=False)
    rows = [row("instal", {0: 1.0, 2: 1.0, 6: 1.0}, {0: 1.0, 2: 2.0, 6: 1.0}, heading=(6,))]
    assert order(rank.rank(query, rows, {})) == [6, 2, 0]


def test_refine_prefers_the_typed_form_then_the_title_then_the_heading_the_query_fits():
    # Two pages (refs 0 and 1) hold the stems of both words once, with equal weights: only the texts differ.
    def refined(query: str, texts: dict[int, tuple]) -> list[rank.Ranked]:
        qw = words(query, prefix=False)
        rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}) for w in qw for t in w.terms]
        return rank.refine(rank.rank(qw, rows, {}), qw, texts, query, prefix=False, per_page=3)

    forms = refined("declaration gives", {0: (["A"], "The declarations give it."), 1: (["B"], "A declaration gives it.")})
    assert order(forms) == [1, 0] and [p.explain()["forms"] for p in forms] == [2, 0]
    title = refined("anchors", {0: (["Other", "Anchors"], "Anchors move."), 1: (["Chunks and anchors"], "Anchors stay.")})
    assert order(title) == [1, 0] and [p.explain()["title"] for p in title] == [1, 0]
    fit = refined("pydantic models", {0: (["Form models", "Pydantic models for forms"], "Pydantic models."),
                                      1: (["Types", "Pydantic models"], "Pydantic models.")})
    assert order(fit) == [1, 0] and [p.explain()["fit"] for p in fit] == [1, 0.5]


def test_a_passage_with_the_words_as_typed_beats_one_with_their_stems_in_its_headings():
    qw = words("bytes streamed", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}, heading=(0,)) for w in qw for t in w.terms]
    texts = {0: (["Page", "Stream Bytes"], "Stream bytes instead of strings."),
             1: (["Page", "A custom response"], "The data bytes were streamed.")}
    (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 1.0}), qw, texts, "bytes streamed", prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [1, 0]
    assert [(p.explain()["forms"], p.explain()["heading"]) for p in page.passages] == [(2, 0), (1, 2)]


def test_the_passage_saying_the_words_as_typed_is_found_below_the_shown_ones():
    # Six passages of one page; lunr prefers 0-3 (heading words, higher scores), which hold the words by stem
    # only; passage 4 says them as typed.  The first pages' first REFINED_PASSAGES passages are read, so 4 is
    # shown first; 5 (beyond them, though it says them too) keeps its place.
    assert rank.REFINED_PASSAGES == 5
    qw = words("declaration gives", prefix=False)
    refs = range(6)
    rows = [row(t, dict.fromkeys(refs, 1.0), {0: 1.0}, heading=(0, 1, 2, 3)) for w in qw for t in w.terms]
    texts = {ref: (["Page", "Declare"], "Declarations give data.") for ref in range(4)}
    texts[4] = texts[5] = (["Page", "Data validation"], "The same type declaration gives you validation.")
    ranked = rank.rank(qw, rows, {0: 6.0, 1: 5.0, 2: 4.0, 3: 3.0, 4: 2.0, 5: 1.0})
    assert rank.refined_refs(ranked, 3) == [0, 1, 2, 3, 4]
    (page,) = rank.refine(ranked, qw, {ref: texts[ref] for ref in rank.refined_refs(ranked, 3)},
                          "declaration gives", prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [4, 0, 1, 2, 3, 5]
    assert page.explain()["forms"] == 2


def test_only_the_first_pages_read_more_passages_than_they_show():
    # Fourteen pages of five passages each (page p: refs 10p..10p+4): the first WIDE_PAGES have five read, the
    # others of the first SCREEN_PAGES three (the passages shown), the next ones up to REFINED_PAGES one, the last none.
    qw = words("alpha", prefix=False)
    refs = [10 * p + i for p in range(14) for i in range(5)]
    rows = [row("alpha", dict.fromkeys(refs, 1.0), {10 * p: 14.0 - p for p in range(14)})]
    ranked = rank.rank(qw, rows, {})
    read = rank.refined_refs(ranked, 3)
    wide, screen, refined = rank.WIDE_PAGES, rank.SCREEN_PAGES, rank.REFINED_PAGES
    assert (wide, screen, refined) == (3, 10, 11)
    assert [len([r for r in read if r // 10 == p]) for p in range(14)] == [5] * wide + [3] * (screen - wide) + [1] * (
        refined - screen) + [0] * (14 - refined)
    assert [r for r in read if r // 10 >= screen] == [10 * p for p in range(screen, refined)]  # each page's first


def beyond_the_screen_case(typed: tuple[int, ...]) -> dict:
    """Twelve pages of three passages (page p: refs 10p..10p+2), ordered by page BM25; every passage holds the
    words by stem, those ``typed`` say them as typed."""
    qw = words("declaration gives", prefix=False)
    refs = [10 * p + i for p in range(12) for i in range(3)]
    rows = [row(t, dict.fromkeys(refs, 1.0), {10 * p: 12.0 - p for p in range(12)}) for w in qw for t in w.terms]
    texts = {r: (["Page", "Data"], "The type declaration gives validation.") if r in typed
             else (["Page", "Declare"], "Declarations give data.") for r in refs}
    return {"query": "declaration gives", "prefix": False, "rows": rows, "texts": texts,
            "scores": {r: 3.0 - r % 10 for r in refs}}


def _refined(case: dict) -> list[rank.Ranked]:
    qw = words(case["query"], prefix=False)
    ranked = rank.rank(qw, case["rows"], case["scores"])
    assert order(ranked) == [10 * p for p in range(12)]
    texts = {ref: case["texts"][ref] for ref in rank.refined_refs(ranked, 3)}
    return rank.refine(ranked, qw, texts, case["query"], prefix=False, per_page=3)


def test_a_page_beyond_the_first_screen_comes_back_by_its_sentence():
    # The 11th page's first passage says the words as typed: refined, it comes first; the 12th's is not read.
    pages = _refined(beyond_the_screen_case((100, 110)))
    assert order(pages) == [100] + [10 * p for p in range(10)] + [110]
    assert [p.explain()["forms"] for p in pages] == [2] + [0] * 11
    assert pages[0].passages[0].ref == 100
    # Beyond the first screen only a page's first passage is read: its second saying the words leaves it in place.
    assert order(_refined(beyond_the_screen_case((101,)))) == [10 * p for p in range(12)]


def test_a_heading_is_a_sentence_only_under_the_heading_the_query_fits_best():
    # Every passage of the page "Path Parameters" has the title in its heading path.  The passage lunr prefers
    # sits under "Path parameters containing paths", whose text does not say "parameter": its heading does not
    # make it a sentence of both words (the title fits the query better), the passage saying them comes first.
    def passages(query: str, texts: dict[int, tuple]) -> list[rank.Ranked]:
        qw = words(query, prefix=False)
        rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}, heading=(0, 1)) for w in qw for t in w.terms]
        (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 1.0}), qw, texts, query, prefix=False, per_page=3)
        return page.passages

    path = passages("path parameters", {0: (["Path Parameters", "Path parameters containing paths"],
                                            "Say you have a path operation with a path /files/{file_path}."),
                                        1: (["Path Parameters", "Path convertor"],
                                            "You can declare a path parameter containing a path.")})
    assert [p.ref for p in path] == [1, 0] and [p.explain()["sentence"] for p in path] == [2, 1]
    # A query naming a section (its heading the best fit on its path) still lands there, though another
    # passage's text says both words.
    fuzzy = passages("fuzzy matching", {0: (["Searching", "Typos and fuzzy matching"], "A word matches a typo."),
                                        1: (["Searching", "Sharing"], "The URL keeps it: ?q=fuzzy+matching.")})
    assert [p.ref for p in fuzzy] == [0, 1] and [p.explain()["sentence"] for p in fuzzy] == [2, 2]


def test_a_passage_whose_one_sentence_says_the_words_as_typed_comes_first():
    # Both passages hold both words as typed and one sentence holds both stems; in the passage lunr prefers,
    # no one sentence says both as typed ("certificate" in one, "certificates" in the next).
    qw = words("termination certificates", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}) for w in qw for t in w.terms]
    texts = {0: (["Page", "Renewal"], "Termination of the certificate renewal. Other certificates stay."),
             1: (["Page", "Proxy"], "The Termination Proxy has access to the certificates.")}
    (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 1.0}), qw, texts, "termination certificates",
                          prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [1, 0]
    assert [[p.explain()[c] for c in ("sentence", "forms", "sentence_forms")] for p in page.passages] == [[2, 2, 2], [2, 2, 1]]


def test_a_passage_that_says_the_query_at_once_comes_before_one_that_says_it_further_down():
    # Both passages have a sentence saying both words as typed; lunr prefers the one that says it in its
    # fifth sentence.  Said at once (within OPENING_UNITS units) comes first; past them, lunr's score decides.
    qw = words("parameter cookies", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}) for w in qw for t in w.terms]
    late = "It reads headers. It reads status. It reads more. It filters. Declare a parameter for cookies."
    texts = {0: (["Page", "Headers"], late), 1: (["Page", "Use"], "You declare a parameter as for cookies. Then more.")}

    def order(texts):
        (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 1.0}), qw, texts, "parameter cookies",
                              prefix=False, per_page=3)
        return [(p.ref, p.explain()["opening"]) for p in page.passages]

    assert order(texts) == [(1, 0), (0, rank.OPENING_UNITS)]
    far = {0: texts[0], 1: (["Page", "Use"], "One. Two. Three. Four. You declare a parameter as for cookies.")}
    assert order(far) == [(0, rank.OPENING_UNITS), (1, rank.OPENING_UNITS)]
    # A passage saying only a part of the query at once is not the answer: no one sentence says both.
    part = {0: texts[0], 1: (["Page", "Use"], "Cookies first. Then a parameter.")}
    assert order(part) == [(0, rank.OPENING_UNITS), (1, 0)]


def test_a_cjk_word_said_whole_comes_before_a_heading_that_holds_it_in_a_longer_run():
    # 攻击 whole in a sentence (between ） and 。) and in the heading 攻击示例 over a passage that says it
    # only inside 攻击者: the heading's word counts after the word said whole.
    qw = words("攻击", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0}, heading=(0,)) for w in qw for t in w.terms]
    texts = {0: (["检查", "攻击示例"], "假设有一个攻击者。"), 1: (["检查", "风险"], "可防御一类（CSRF）攻击。")}
    (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 1.0}), qw, texts, "攻击", prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [1, 0]
    assert [[p.explain()[c] for c in ("whole", "heading")] for p in page.passages] == [[1, 0], [0, 1]]


def test_a_cjk_word_on_its_own_beats_the_same_run_inside_a_longer_one():
    # 类型 in a longer run (类型提示, a compound) and on its own between code and punctuation: all else tied.
    qw = words("类型", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}) for w in qw for t in w.terms]
    texts = {0: (["甲"], "使用类型提示声明参数。"), 1: (["乙"], "参数还可以声明为 bool 类型，并自动转换。")}
    pages = rank.refine(rank.rank(qw, rows, {}), qw, texts, "类型", prefix=False, per_page=3)
    assert order(pages) == [1, 0]
    assert [(p.explain()["forms"], p.explain()["whole"]) for p in pages] == [(1, 1), (1, 0)]
    # ... and before the page holding the run in a heading: CJK text spells out no word boundary.
    headed = [row(t, {0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}, heading=(0,)) for w in qw for t in w.terms]
    texts[0] = (["甲", "类型提示"], texts[0][1])
    first_stage = rank.rank(qw, headed, {})
    assert order(first_stage) == [0, 1]
    pages = rank.refine(first_stage, qw, texts, "类型", prefix=False, per_page=3)
    assert order(pages) == [1, 0]
    assert [(p.explain()["whole"], p.explain()["heading"]) for p in pages] == [(1, 0), (0, 1)]
    # A word of a spaced script is already a whole word: ``whole`` is ``forms`` there.
    forms = rank.typed_forms("declaration gives", False)
    for text in ("A declaration gives it.", "The declarations give it.", "declaration"):
        assert rank.forms_in(forms, text, whole=True) == rank.forms_in(forms, text)


def test_a_heading_query_lands_on_the_section_it_names_not_a_sub_section():
    # One page, three passages with both words: under a sub-section of "Import the dependencies", in that
    # section itself, in another section.  Their first-stage order is by lunr's score (highest first).
    qw = words("import the dependencies", prefix=False)
    rows = [row(t, {0: 1.0, 1: 1.0, 2: 1.0}, {0: 1.0}, heading=(0, 1, 2)) for w in qw for t in w.terms]
    texts = {0: (["Page", "Import the dependencies", "How imports work"], "Import the dependencies."),
             1: (["Page", "Other"], "Import the dependencies."),
             2: (["Page", "Import the dependencies"], "Import the dependencies.")}
    (page,) = rank.refine(rank.rank(qw, rows, {0: 3.0, 1: 2.0, 2: 1.0}), qw, texts, "import the dependencies",
                          prefix=False, per_page=3)
    assert [p.ref for p in page.passages] == [2, 0, 1]
    assert [p.explain()["section"] for p in page.passages] == [1.0, 1 / 3, 0.0]  # "How imports work": 1 of 3


def random_case(rng: random.Random) -> dict:
    """Term rows of a few pages, with typo and prefix neighbours, and lunr scores."""
    vocabulary = ["alpha", "alpho", "beta", "betas", "gamma", "gam", "delta"]
    chunks = rng.randint(1, 12)
    starts = sorted({0, *rng.sample(range(chunks), rng.randint(0, min(4, chunks)))})
    page_of = lambda ref: max(s for s in starts if s <= ref)  # noqa: E731
    rows = []
    for term in sorted(rng.sample(vocabulary, rng.randint(1, len(vocabulary)))):
        fields = [{rng.randrange(chunks): rng.choice([0.5, 1.25, 2.0]) for _ in range(rng.randint(0, 4))}
                  for _ in range(3)]
        refs = set().union(*fields)
        if refs:
            pages = {page_of(ref): rng.choice([0.3, 1.1, 2.7]) for ref in sorted(refs)}
            rows.append(row(term, fields[2], pages, title=tuple(fields[0]), heading=tuple(fields[1])))
    query = rng.choice(["alpha beta", "gamma", "alpha beta gam", "delta alph", "betas delta gamma"])
    scores = {rng.randrange(chunks): rng.choice([0.1, 3.5, 7.0]) for _ in range(rng.randint(0, 5))}
    return {"query": query, "rows": rows, "scores": scores}


def _ranked(case: dict) -> list[rank.Ranked]:
    return rank.rank(words(case["query"]), case["rows"], case["scores"])


@given(st.randoms(use_true_random=False).map(random_case))
@settings(max_examples=200)
def test_pages_are_sorted_by_their_criteria_and_each_passage_is_listed_once(case):
    pages = _ranked(case)
    assert [p.key for p in pages] == sorted(p.key for p in pages)
    passages = [p.ref for page in pages for p in page.passages]
    assert len(passages) == len(set(passages))
    for page in pages:
        assert all(p.ref >= page.ref for p in page.passages)
        assert [p.key for p in page.passages] == sorted(p.key for p in page.passages)
        assert page.explain()["proximity"] == max(p.explain()["words"] for p in page.passages)


def _word(word: Word) -> dict:
    return {"terms": list(word.terms), "prefixes": list(word.prefixes), "fuzzy": word.fuzzy}


def test_python_and_node_rank_random_cases_alike():
    rng = random.Random(18)
    cases = [random_case(rng) for _ in range(300)]
    payload = [{"words": [_word(w) for w in words(c["query"])], "rows": c["rows"],
                "scores": [[ref, score] for ref, score in c["scores"].items()]} for c in cases]
    from_node = run_node("rank-batch.mjs", {"cases": payload})
    for case, js in zip(cases, from_node, strict=True):
        py = [[p.ref, [list(c) for c in p.criteria], [[q.ref, [list(c) for c in q.criteria]] for q in p.passages]]
              for p in _ranked(case)]
        assert py == js, case


SAMPLE_TEXTS = ["The alpha betas declare it.", "Alphas beta: declared.", "Gamma and delta, said the gam.",
                "请求体 与 路径参数", "请求 的 体", "请求体参数。请求体", "使用请求体，Fine. 请求体参数", "Обработка запросов и запрос", "delta alpho gamma",
                "Gamma. Delta. Said. The alpha declared it.", "One. Two. Three. Four. Alpha declared."]


def test_python_and_node_refine_random_cases_alike():
    # sentence, forms, sentence_forms, title, fit, whole and section come from the passages' texts and headings: both halves must agree.
    rng = random.Random(5)
    cases = []
    for _ in range(120):
        case = random_case(rng)
        case["query"] = rng.choice([case["query"], "alpha declared", "请求体", "запросы alpha", "gamma delt"])
        prefix = rng.random() < 0.5
        refs = {ref for row_ in case["rows"] for flat in row_[2:5] for ref in flat[::2]}
        texts = {}
        for ref in refs:  # heading path, text and the bare headings it stands for (own_headings)
            heading = [rng.choice(SAMPLE_TEXTS) for _ in range(rng.randint(1, 3))]
            texts[ref] = (heading, rng.choice(SAMPLE_TEXTS), rng.randrange(len(heading)))
        cases.append({**case, "prefix": prefix, "texts": texts})
    # Eight pages whose 5th passage alone says the words as typed: read (and shown first) on the first WIDE_PAGES only.
    refs = [10 * p + i for p in range(8) for i in range(5)]
    heading = tuple(r for r in refs if r % 10 < 4)
    cases.append({"query": "declaration gives", "prefix": False, "scores": {r: 5.0 - r % 10 for r in refs},
                  "rows": [row(t, dict.fromkeys(refs, 1.0), {10 * p: 8.0 - p for p in range(8)}, heading=heading)
                           for w in words("declaration gives", prefix=False) for t in w.terms],
                  "texts": {r: (["Page", "Declare"], "Declarations give data.") if r % 10 < 4
                            else (["Page", "Data"], "The type declaration gives validation.") for r in refs}})
    cases += [beyond_the_screen_case((100, 110)), beyond_the_screen_case((101,))]  # beyond the first screen
    qw = words("类型", prefix=False)  # a CJK word whole before the page with it in a longer heading run
    cases.append({"query": "类型", "prefix": False, "scores": {},
                  "rows": [row(t, {0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}, heading=(0,)) for w in qw for t in w.terms],
                  "texts": {0: (["甲", "类型提示"], "使用类型提示声明参数。"), 1: (["乙"], "参数还可以声明为 bool 类型，并自动转换。")}})
    payload = [{"query": c["query"], "prefix": c["prefix"], "rows": c["rows"],
                "words": [_word(w) for w in words(c["query"], prefix=c["prefix"])],
                "scores": [[ref, score] for ref, score in c["scores"].items()],
                "texts": [[ref, list(t)] for ref, t in c["texts"].items()]} for c in cases]
    from_node = run_node("refine-batch.mjs", {"cases": payload})
    for case, js in zip(cases, from_node, strict=True):
        qw = words(case["query"], prefix=case["prefix"])
        pages = rank.refine(rank.rank(qw, case["rows"], case["scores"]), qw, case["texts"], case["query"],
                            prefix=case["prefix"], per_page=3)
        py = [[p.ref, [list(c) for c in p.criteria], [[q.ref, [list(c) for c in q.criteria]] for q in p.passages]]
              for p in pages]
        assert py == js, case


def search_json(capsys, site, lang: str, query: str) -> dict:
    assert main(["search", "--site", str(site), "--json", "--lang", lang, "--", query]) == 0
    return json.loads(capsys.readouterr().out)


def test_ranking_vectors_on_our_own_docs_in_both_halves(capsys, content_built):
    for case in VECTORS["content"]:
        answer = search_json(capsys, content_built, case["lang"], case["query"])
        (js,) = run_node("site-search.mjs", {"lang": case["lang"], "queries": [case["query"]], "limit": 10},
                         str(content_built))
        assert [r["ref"] for r in answer["results"]] == js["refs"], case
        if case["first"]:
            assert answer["results"][0]["doc_id"] == case["first"], case["why"]
        if case.get("passage"):
            assert answer["results"][0]["heading"][-1] == case["passage"], case["why"]


def test_results_come_grouped_by_page_with_the_rest_counted(capsys, content_built):
    answer = search_json(capsys, content_built, "en", "search")
    pages = [r["page"] for r in answer["results"]]
    assert pages == sorted(pages) and len(set(pages)) == min(answer["pages"], 10)
    for page in set(pages):
        shown = [r for r in answer["results"] if r["page"] == page]
        assert len(shown) <= 3 and len({r["doc_id"] for r in shown}) == 1
        assert all(r["more_on_page"] == 0 for r in shown[:-1])
    assert any(r["more_on_page"] for r in answer["results"]), "a common word leaves passages unlisted"


def test_explain_prints_the_criteria_that_placed_each_result(capsys, content_built):
    assert main(["search", "--site", str(content_built), "--lang", "en", "--explain", "fuzzy matching"]) == 0
    out = capsys.readouterr().out
    assert ("page 1: words 2, typos 0, sentence 2, proximity 2, forms 2, sentence_forms 2, whole 2, heading 2, exact 2, "
            "title 0, fit 0.5, headline") in out
    assert ("passage: words 2, typos 0, sentence 2, forms 2, sentence_forms 2, whole 2, opening 0, heading 2, exact 2, "
            "section ") in out


def test_search_says_did_you_mean_when_only_typos_found_pages(capsys, tmp_path):
    # As the widget does (test_quote_widget): the fuzzy pages are not answers, their words are the suggestion.
    content, site = tmp_path / "content", tmp_path / "site"
    content.mkdir()
    (content / "deploy.md").write_text("# Deploy\n\nInstall the helm chart on the cluster.\n", encoding="utf-8")
    (content / "boats.md").write_text("# Boats\n\nShips sail past the harbour wall.\n", encoding="utf-8")
    (content / "citesearch.yml").write_text("title: T\nlang: en\n", encoding="utf-8")
    assert main(["build", str(content), "--out", str(site)]) == 0
    capsys.readouterr()
    assert main(["search", "--site", str(site), "helmm chrt"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["The documents hold nothing that answers “helmm chrt”.", "Did you mean “helm chart”?"]
    assert search_json(capsys, site, "en", "helmm chrt")["suggestion"] == "helm chart"
    # A query the pages hold as typed gets no suggestion, even with one unknown word.
    assert search_json(capsys, site, "en", "helm chrt")["suggestion"] is None
    assert main(["search", "--site", str(site), "ships harbour"]) == 0
    assert "Did you mean" not in capsys.readouterr().out
