"""The sharded index scores exactly as the whole lunr index, in lunr.js and lunr.py,
and a damaged site is refused with one clear message."""

from __future__ import annotations

import itertools
import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lunr.index import Index

from citesearch import assemble, load_config
from citesearch.cli import main
from citesearch.engine import contract, query, shards
from citesearch.pipeline import index as index_module
from citesearch.pipeline.index import build_search_files, search_pages
from citesearch.pipeline.lunr_index import build_lunr_index
from conftest import BASIC_SITE, REPO, corpus
from node_support import run_node

VECTORS = json.loads((REPO / "tests/vectors/search_queries.json").read_text(encoding="utf-8"))

# Prefixes, typos (the fuzzy fallback), CJK bigrams and lone ideographs, Russian forms.
EXTRA_QUERIES = {
    "en": ["anch", "an", "con", "stable anch", "anchr", "confgiuration", "serch indx", "the a of", "zzzzqx", "x"],
    "ru": ["парамет", "параметры", "поиск", "поск", "документац", "и в на"],
    "zh": ["路径", "路", "搜索", "参", "索引文件", "搜", "citesarch", "manifst", "serch 搜索"],
}


@dataclass(frozen=True)
class TwoIndexes:
    """One site's search files and, per language, the whole lunr index built apart."""

    site: Path
    full: dict[str, Path]  # lang -> serialized whole index
    terms: dict[str, list[str]]  # lang -> every indexed term
    loaded: dict = field(default_factory=dict)  # lang -> the whole index, loaded in lunr.py


def _two_indexes(content: Path, out: Path, tiny: bool = True) -> TwoIndexes:
    assembled = assemble(content, load_config(content))
    pages = search_pages(assembled.pages)
    with pytest.MonkeyPatch.context() as patch:
        # Tiny files, so that prefixes and fuzzy neighbours span many of them.
        for name, size in (("TERMS_FILE_BYTES", 300), ("DICTIONARY_FILE_BYTES", 200), ("LISTING_FILE_BYTES", 100),
                           ("CHUNKS_PER_FILE", 2), ("CHUNK_FILES_PER_GROUP", 2), ("CHUNK_GROUPS_PER_LIST", 1),
                           ("POSTING_TABLE_MIN", 2), ("POSTING_TABLE_SAVING", -1),
                           ("TERM_SPLIT_BYTES", 60), ("TERM_BLOCK_BYTES", 40)) if tiny else ():
            patch.setattr(contract, name, size)
        files = build_search_files(pages, "en", {"name": "test"})
    for name, data in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    manifest = json.loads(files["search/manifest.json"])
    entry = manifest["languages"]["en"]
    read = lambda name: json.loads(files[f"search/{name}"])  # noqa: E731
    assert len(shards.term_files(entry, read)) > 5
    lists = [text for _, name in shards.term_files(entry, read) for row in read(name)["terms"] for text in row[2:6]]
    assert any(text.startswith(contract.POSTING_TABLE_MARK) for text in lists)  # both kinds of postings strings
    assert any(text and not text.startswith(contract.POSTING_TABLE_MARK) for text in lists)
    if tiny:  # every level of the layout holds several files, split term rows too (format 7)
        assert len(entry["terms"]) > 2 and len(entry["chunks"]["lists"]) > 1
        assert entry["chunks_count"] < 100 or any(name.startswith(f"search/{contract.BLOCK_KIND}.") for name in files)
    full, terms = {}, {}
    for lang in sorted({page.lang for page in pages}):
        chunks = [c for page in pages if page.lang == lang for c in page.chunks if c.text]
        serialized = build_lunr_index(chunks)
        full[lang] = out / f"full.{lang}.json"
        full[lang].write_text(json.dumps(serialized, ensure_ascii=False), encoding="utf-8")
        terms[lang] = [term for term, _ in serialized["invertedIndex"]]
    return TwoIndexes(out, full, terms)


@pytest.fixture(scope="module")
def content_indexes(tmp_path_factory) -> TwoIndexes:
    return _two_indexes(REPO / "content", tmp_path_factory.mktemp("content-shards"))


@pytest.fixture(scope="module")
def basic_indexes(tmp_path_factory) -> TwoIndexes:
    return _two_indexes(BASIC_SITE, tmp_path_factory.mktemp("basic-shards"))


@pytest.fixture(scope="module")
def fastapi_en_indexes(tmp_path_factory) -> TwoIndexes:
    """The real English FastAPI docs, files of the shipped sizes."""
    content = tmp_path_factory.mktemp("fastapi-en") / "content"
    shutil.copytree(corpus("fastapi-docs/en"), content)
    content.chmod(0o755)
    (content / "citesearch.yml").write_text("title: fastapi\nlang: en\n", encoding="utf-8")
    return _two_indexes(content, tmp_path_factory.mktemp("fastapi-en-shards"), tiny=False)


def generated_queries(terms: list[str], count: int, seed: int) -> list[str]:
    """Words of the index, cut short (prefix), with a typo (fuzzy), and mixed."""
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(1, 3)):
            word = rng.choice(terms)
            roll = rng.random()
            if roll < 0.3 and len(word) > 2:
                word = word[: rng.randint(1, len(word) - 1)]
            elif roll < 0.5 and len(word) > 3:
                i = rng.randrange(len(word))
                word = word[:i] + rng.choice("aeiouxz") + word[i + 1 :]
            words.append(word)
        result.append(" ".join(words))
    return result


def queries_for(indexes: TwoIndexes, vectors: str, lang: str) -> list[str]:
    return VECTORS[vectors][lang] + VECTORS["raw_input"] + EXTRA_QUERIES[lang] + generated_queries(indexes.terms[lang], 80, 11)


def node_answers(indexes: TwoIndexes, lang: str, queries: list[str], prefix: bool) -> tuple[list, list]:
    payload = {"queries": queries, "prefix": prefix}
    whole = run_node("search-batch.mjs", payload, str(indexes.full[lang]), timeout=600)
    sharded = run_node("search-batch.mjs", payload, "--shards", str(indexes.site), lang, timeout=600)
    return whole, sharded


@pytest.mark.parametrize("prefix", [True, False], ids=["prefix", "exact"])
@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_lunr_js_scores_on_shards_equal_the_whole_index(content_indexes, lang, prefix):
    queries = queries_for(content_indexes, "content", lang)
    whole, sharded = node_answers(content_indexes, lang, queries, prefix)
    fuzzy = 0
    for text, expected, found in zip(queries, whole, sharded, strict=True):
        assert found == expected, text  # refs, scores (exact floats) and the fuzzy flag
        fuzzy += expected["fuzzy"]
    assert fuzzy, "some queries exercise the fuzzy fallback"


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_lunr_js_scores_on_shards_equal_the_whole_index_on_the_fixture_site(basic_indexes, lang):
    queries = queries_for(basic_indexes, "basic", lang)
    whole, sharded = node_answers(basic_indexes, lang, queries, True)
    assert sharded == whole


@pytest.mark.corpus
def test_lunr_js_scores_on_shards_equal_the_whole_index_on_a_real_corpus(fastapi_en_indexes):
    queries = VECTORS["fastapi-docs/en"]["en"] + COMMON + generated_queries(fastapi_en_indexes.terms["en"], 150, 5)
    whole, sharded = node_answers(fastapi_en_indexes, "en", queries, True)
    for text, expected, found in zip(queries, whole, sharded, strict=True):
        assert found == expected, text


COMMON = ["the and of to", "a", "is it", "dependencies", "dependancy injecton", "respons", "oauth2 passw"]


def python_hits(indexes: TwoIndexes, lang: str, text: str) -> tuple[query.Results, query.Results]:
    """Hits of the whole index and of the shards, in lunr.py."""
    whole = indexes.loaded
    if lang not in whole:
        whole[lang] = Index.load(json.loads(indexes.full[lang].read_text(encoding="utf-8")))
    manifest = json.loads((indexes.site / "search/manifest.json").read_text(encoding="utf-8"))
    read = lambda name: json.loads((indexes.site / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    sharded = shards.ShardedIndex(manifest["languages"][lang], manifest["fields"], read)
    return query.run(whole[lang], text), shards.run(sharded, text)


@pytest.mark.parametrize("lang", ["en", "ru", "zh"])
def test_lunr_py_scores_on_shards_equal_the_whole_index(content_indexes, lang):
    for text in queries_for(content_indexes, "content", lang):
        expected, found = python_hits(content_indexes, lang, text)
        assert found == expected, text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_query_of_index_words_scores_the_same_on_shards(content_indexes, data):
    lang = data.draw(st.sampled_from(["en", "ru", "zh"]))
    words = st.sampled_from(content_indexes.terms[lang])
    edited = st.tuples(words, st.integers(0, 12), st.sampled_from(["", "e", "x", "я", "的"])).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    text = " ".join(data.draw(st.lists(st.one_of(words, edited), min_size=1, max_size=3)))
    expected, found = python_hits(content_indexes, lang, text)
    assert found == expected


def test_a_query_reads_only_the_term_files_of_its_terms(content_indexes):
    manifest = json.loads((content_indexes.site / "search/manifest.json").read_text(encoding="utf-8"))
    entry = dict(manifest["languages"]["en"])
    # Cut the English terms into one file per term, to see which files a query reads.
    read_site = lambda name: json.loads((content_indexes.site / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    rows = [row for _, name in shards.term_files(entry, read_site) for row in read_site(name)["terms"]]
    files = {f"t{i}": {"terms": [row]} for i, row in enumerate(rows)}
    # One term list per ten files, so a query reads the lists of its terms only.
    for start in range(0, len(rows), 10):
        files[f"list{start}"] = {"terms": [[row[0], f"t{i}"] for i, row in enumerate(rows) if start <= i < start + 10]}
    entry["terms"] = [[rows[start][0], f"list{start}"] for start in range(0, len(rows), 10)]
    read_names: list[str] = []

    def read(name):
        read_names.append(name)
        if name in files:
            return files[name]
        return json.loads((content_indexes.site / "search" / name).read_text(encoding="utf-8"))

    found = shards.run(shards.ShardedIndex(entry, manifest["fields"], read), "stable anchors", prefix=False)
    assert found.hits and not found.fuzzy
    terms_read = sorted(files[name]["terms"][0][0] for name in read_names if name.startswith("t"))
    assert terms_read == ["anchor", "stabl"]
    lists_read = [name for name in read_names if name.startswith("list")]
    assert len(lists_read) == len(set(lists_read)) <= 2


# --- a damaged site: one clear message, exit 2, no traceback -------------------


@pytest.fixture
def site_copy(content_built, tmp_path) -> Path:
    target = tmp_path / "site"
    shutil.copytree(content_built / "search", target / "search")
    return target


def search_fails(capsys, site: Path, query_text: str = "stable anchors") -> str:
    assert main(["search", "--site", str(site), "--", query_text]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def manifest_of(site: Path) -> dict:
    return json.loads((site / "search/manifest.json").read_text(encoding="utf-8"))


def test_search_without_a_manifest_says_to_build(capsys, site_copy):
    (site_copy / "search/manifest.json").unlink()
    assert "no search index at" in search_fails(capsys, site_copy)


@pytest.mark.parametrize("garbage", [b"{not json", b"\xff\xfe\x00", b"[1, 2]", b'{"format": 2}', b"null"])
def test_search_with_a_garbled_manifest_is_refused(capsys, site_copy, garbage):
    (site_copy / "search/manifest.json").write_bytes(garbage)
    message = search_fails(capsys, site_copy)
    assert "manifest.json" in message and "rebuild the site" in message


def test_search_with_an_unknown_format_names_both_versions(capsys, site_copy):
    manifest = manifest_of(site_copy)
    manifest["format"] = 1
    (site_copy / "search/manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert f"index format 1, this citesearch reads {contract.FORMAT_VERSION}" in search_fails(capsys, site_copy)


def test_search_with_a_missing_file_names_it(capsys, site_copy):
    read = lambda name: json.loads((site_copy / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    for _, name in shards.term_files(manifest_of(site_copy)["languages"]["en"], read):
        (site_copy / "search" / name).unlink()
    message = search_fails(capsys, site_copy)
    assert "/search/terms.en." in message and "missing" in message


def test_search_with_a_missing_chunk_file_names_it(capsys, site_copy):
    shutil.rmtree(site_copy / "search/chunks")
    message = search_fails(capsys, site_copy)
    assert "/search/chunks/" in message and "missing" in message


def test_every_ref_is_in_the_chunk_file_its_number_names(content_indexes):
    """The file of a ref follows from the ref (no lookup file): every ref of
    every language is found, once, in the file ``chunk_file`` names."""
    manifest = json.loads((content_indexes.site / "search/manifest.json").read_text(encoding="utf-8"))
    read = lambda name: json.loads((content_indexes.site / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    for entry in manifest["languages"].values():
        seen = []
        for ref in range(entry["chunks_count"]):
            data = read(shards.chunk_file(entry["chunks"], ref, read))
            assert data["first"] <= ref < data["first"] + len(data["chunks"])
            seen.append((data["first"], ref - data["first"]))
        assert len(set(seen)) == entry["chunks_count"]
        names = {p.name for p in (content_indexes.site / "search/chunks").iterdir()}
        assert {shards.chunk_file(entry["chunks"], ref, read).split("/")[1] for ref in range(entry["chunks_count"])} <= names


def test_search_with_a_file_of_the_wrong_shape_is_refused(capsys, site_copy):
    read = lambda name: json.loads((site_copy / "search" / name).read_text(encoding="utf-8"))  # noqa: E731
    for _, name in shards.term_files(manifest_of(site_copy)["languages"]["en"], read):
        (site_copy / "search" / name).write_text('{"terms": [["anchor", 1]]}', encoding="utf-8")
    assert "damaged search files" in search_fails(capsys, site_copy)


def osa_distance(a: str, b: str) -> int:
    """Levenshtein with adjacent transpositions, by the textbook table."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@given(st.text("abcя的", max_size=6), st.text("abcя的", max_size=6))
def test_within_one_edit_is_an_edit_distance_of_at_most_one(a, b):
    assert shards.within_one_edit(a, b) == (osa_distance(a, b) <= 1)


# --- the dictionary's pigeonhole layout (contract.py) --------------------------

LETTERS = "abeoя的😀"  # ASCII, Cyrillic, CJK and an astral code point (two UTF-16 units)


def one_edits(word: str) -> set[str]:
    """Every word one substitution, insertion, deletion or adjacent transposition away."""
    found = set()
    for i in range(len(word) + 1):
        for letter in LETTERS:
            found.add(word[:i] + letter + word[i:])
            if i < len(word):
                found.add(word[:i] + letter + word[i + 1 :])
        if i < len(word):
            found.add(word[:i] + word[i + 1 :])
        if i + 1 < len(word):
            found.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    return found - {word}


def dictionary_of(words: list[str]) -> tuple[dict, dict[str, list[str]]]:
    files: dict[str, bytes] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contract, "DICTIONARY_FILE_BYTES", 12)  # a few words per file: many files per length
        entry = index_module._dictionary_files("en", words, files)
    return entry, {name: json.loads(data)["terms"] for name, data in files.items()}


@settings(max_examples=200, deadline=None)
@given(st.text(LETTERS, min_size=2, max_size=9), st.lists(st.text(LETTERS, min_size=1, max_size=10), max_size=40), st.data())
def test_every_word_one_edit_from_a_query_term_is_in_the_files_the_term_names(word, others, data):
    """One edit leaves a word's start or its end whole: the few files named
    from the query term hold every dictionary word within one edit of it."""
    query_term = data.draw(st.sampled_from(sorted(w for w in one_edits(word) if len(w) >= query.FUZZY_MIN_LENGTH) or [word]))
    entry, files = dictionary_of(sorted({word, *others}))
    named = shards.dictionary_files(entry, query_term)
    assert len(named) <= 6 and set(named) <= set(files)
    found = {w for name in named for w in files[name]}
    assert word in found or len(query_term) < query.FUZZY_MIN_LENGTH
    # Each word is filed twice (by start and by end), in files of its own length.
    assert sorted(w for terms in files.values() for w in terms) == sorted(2 * sorted({word, *others}))


def test_shards_js_names_the_same_dictionary_files():
    words = sorted({w for seed in ("anchor", "stable", "параметр", "搜索引擎", "a😀b", "😀😀x") for w in {seed, *one_edits(seed)}})
    entry, files = dictionary_of(words)
    terms = [w for w in words if len(w) >= query.FUZZY_MIN_LENGTH] + ["zzzz", "😀ab"]
    expected = [shards.dictionary_files(entry, term) for term in terms]
    assert run_node("dictionary-batch.mjs", {"dictionary": entry, "terms": terms}) == expected
    assert any(len(names) == 6 for names in expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 10**7)), max_size=30), st.integers(0, 10**6))
def test_postings_strings_give_back_the_refs_and_weights(pairs, start):
    """Ref gaps and thousandths in base-64 digits: the same ints and floats come back,
    each weight the float its 3-decimal JSON number parses to."""
    refs = list(itertools.accumulate([start] + [gap + 1 for gap, _ in pairs[1:]]))[: len(pairs)]
    flat = [x for ref, (_, milli) in zip(refs, pairs) for x in (ref, json.loads(f"{milli // 1000}.{milli % 1000:03}"))]
    row = ["term", 7, flat, [], flat[:2]]
    written = index_module.encoded(row)
    assert all(set(text) <= set(contract.POSTING_DIGITS) for text in written[2:])
    assert shards.decoded(json.loads(json.dumps(written))) == row


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.sampled_from([1021, 734, 912, 5, 0, 10**6, 1377])), min_size=1, max_size=300),
       st.lists(st.integers(0, 10**7), max_size=30), st.integers(0, 10**6), st.integers(1, 4))
def test_weight_tables_give_back_the_same_refs_and_weights(common, rare, start, table_min):
    """A long list of a few weights repeated is written with a table of its weights;
    it reads back exactly the row it would without one."""
    row, written = _row_and_written(common, rare, start, table_min)
    # Weights of 2+ digits written as 1-digit positions save ~25% a posting: from
    # 40 postings on that outweighs the table (<= 22 characters), whatever the gaps.
    if len(common) >= 40 and not rare and all(milli >= 32 * 16 for _, milli in common):
        assert written[2].startswith(contract.POSTING_TABLE_MARK)
    assert shards.decoded(written) == row


def _row_and_written(common, rare, start, table_min) -> tuple[list, list]:
    pairs = [*common, *((gap, milli) for gap, milli in zip(range(1, 100), rare))]
    refs = list(itertools.accumulate([start, *(gap for gap, _ in pairs[1:])]))
    flat = [x for ref, (_, milli) in zip(refs, pairs) for x in (ref, json.loads(f"{milli // 1000}.{milli % 1000:03}"))]
    row = ["term", 3, flat, flat[:4], [], flat[-6:]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contract, "POSTING_TABLE_MIN", table_min)
        return row, json.loads(json.dumps(index_module.encoded(row)))


def test_shards_js_reads_postings_strings_as_python_does():
    rng = random.Random(6)
    cases = []
    for _ in range(200):
        weights = [rng.choice([0, 5, 734, 912, 1021, 1377, 10**6]) for _ in range(3)]
        common = [(rng.randint(1, 40), rng.choice(weights)) for _ in range(rng.randint(1, 300))]
        rare = [rng.randint(0, 10**7) for _ in range(rng.choice([0, 0, 5, 60]))]
        cases.append(_row_and_written(common, rare, rng.randint(0, 10**6), rng.randint(1, 4)))
    assert sum(written[2].startswith(contract.POSTING_TABLE_MARK) for _, written in cases) > 50
    assert sum(not written[2].startswith(contract.POSTING_TABLE_MARK) for _, written in cases) > 20
    assert run_node("decode-batch.mjs", [written for _, written in cases]) == [row for row, _ in cases]


# --- Format 8: a split row's title, heading and page postings, one string by page.

_head_weights = st.sampled_from([0, 5, 734, 912, 1021, 1377, 10**6])


@st.composite
def _head_postings(draw) -> tuple[list[int], list[int], list[int]]:
    """Title, heading and page postings (weights in thousandths) of a split row's head
    pages: each page some chunks, title postings on any of them (runs of one weight or
    not), heading postings on any of them."""
    title: list[int] = []
    heading: list[int] = []
    pages: list[int] = []
    page = draw(st.integers(0, 1000))
    for _ in range(draw(st.integers(0, 12))):
        chunks = draw(st.integers(1, 40))
        title_weight = draw(_head_weights)
        for ref in sorted(draw(st.sets(st.integers(0, chunks - 1), max_size=chunks))):
            title += [page + ref, title_weight if draw(st.integers(0, 9)) else draw(_head_weights)]
        for ref in sorted(draw(st.sets(st.integers(0, chunks - 1), max_size=chunks))):
            heading += [page + ref, draw(_head_weights)]
        pages += [page, draw(_head_weights)]
        page += chunks + draw(st.integers(0, 5000))
    return title, heading, pages


def _head_row(title: list[int], heading: list[int], pages: list[int]) -> list:
    head = index_module.base64_numbers(index_module.head_numbers(title, heading, pages))
    return json.loads(json.dumps(["term", 3, "", "", "", head, ["block.en.0123456789abcdef", "A", 1]]))


def _floats(flat: list[int]) -> list:
    return [x / 1000 if i % 2 else x for i, x in enumerate(flat)]


@settings(max_examples=300, deadline=None)
@given(_head_postings())
def test_a_split_rows_head_gives_back_its_title_heading_and_page_postings(postings):
    title, heading, pages = postings
    assert shards.Term(_head_row(title, heading, pages), None).head == ["term", 3, *map(_floats, (title, heading, [], pages))]


def test_a_page_title_over_many_chunks_is_one_run_in_its_split_row():
    """lunr indexes a page's title with each of its chunks, with one weight: the
    head writes it once per page, and reads back every chunk's posting."""
    chunks = 60
    title = [x for ref in range(100, 100 + chunks) for x in (ref, 1021)]
    one_page = index_module.head_numbers(title, [], [100, 734])
    # Tables, one page (first ref 100, weight 0, shape 1: a title, no heading), its one run: gap 0, length, weight 0.
    assert one_page == [1, 734, 1, 1021, 0, 1, 100, 0, 1, 1, 0, chunks - 1, 0]
    row = _head_row(title, [130, 912], [100, 734])
    assert shards.Term(row, None).head[2] == _floats(title)
    assert len(row[5]) < len(index_module.encoded(["term", 3, _floats(title)])[2]) / 5


def test_shards_js_reads_split_row_heads_as_python_does():
    rng = random.Random(8)
    rows = []
    for _ in range(150):
        pages, title, heading, page = [], [], [], rng.randint(0, 500)
        for _ in range(rng.randint(0, 10)):
            chunks, weight = rng.randint(1, 30), rng.choice([5, 734, 1021, 10**6])
            first = rng.randint(0, chunks - 1)
            title += [x for ref in range(page + first, page + chunks) for x in (ref, weight if rng.random() < 0.9 else 912)]
            heading += [x for ref in sorted(rng.sample(range(page, page + chunks), rng.randint(0, chunks))) for x in (ref, rng.choice([0, 377, 1377]))]
            pages += [page, rng.randint(0, 10**5)]
            page += chunks + rng.randint(0, 3000)
        rows.append(_head_row(title, heading, pages))
    expected = [shards.Term(row, None).head for row in rows]
    assert sum(len(head[2]) > 40 for head in expected) > 50
    assert run_node("decode-batch.mjs", rows) == expected
