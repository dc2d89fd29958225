"""The analyzer: text → index terms, identical to ``theme/static/analyzer.js``.

The contract, step by step (the JavaScript module follows the same steps):

1. **Normalise** each *segment* (a character and the combining marks that
   follow it) with NFKC, then casefold, then lower-case, NFKC again, then
   ``ё`` → ``е``.
   Working per segment keeps a map from every normalised character back to
   the original text, so callers can highlight the original characters.
   (``casefold`` alone can leave upper-case letters — Cherokee folds to
   upper case — and lunr.py's Tokenizer would lower-case them again.)
2. **Split** the normalised text into runs of letters and digits
   (``[^\\W_]`` here, ``[\\p{L}\\p{N}]`` in JavaScript); everything else,
   underscore included, separates.  A run is then cut where the script
   class changes, so ``query-параметры`` and ``使用Pydantic模型`` yield one
   piece per script.  Combining marks left after NFKC (Russian stress
   marks: ``ударе́ние``) stay inside the word but are dropped from its term.
3. **Terms** per piece: Cyrillic → Russian Snowball; CJK ideographs →
   overlapping character bigrams (a lone ideograph stays a unigram); any
   other piece (Latin, digits, …) → lunr.js's English stemmer exactly.
   A non-CJK piece longer than ``contract.MAX_WORD_LENGTH`` code points
   (after step 2, marks dropped) is no word at all: a token, hash or base64
   blob is neither indexed nor searched, and never reaches the stemmer or
   lunr's quadratic fuzzy matching.

No stop words: the same list would have to live on both sides, and lunr's
scoring already discounts frequent terms.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache


from . import stemmer_en
from .contract import MAX_WORD_LENGTH
from .mark_ranges import mark_ranges

NAME = "citesearch-multilingual"
VERSION = "3"  # 3: words longer than MAX_WORD_LENGTH are dropped

# Han ideographs (unified, extensions A–H, compatibility) plus 々 and 〇.
CJK_RANGES = "\u3005\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af"
CYRILLIC_RANGES = "\u0400-\u052f\u1c80-\u1c8f\u1d2b\u1d78\ua640-\ua69f"



@dataclass(frozen=True)
class Word:
    """A word of the original text: ``text[start:end]`` and its terms."""

    start: int
    end: int
    terms: tuple[str, ...]


@dataclass(frozen=True)
class Piece:
    """One script's share of a run of letters and digits, normalised."""

    start: int  # offsets into the original text
    end: int
    kind: str  # "cjk", "cyrillic" or "other"
    text: str  # normalised


@lru_cache(maxsize=65536)
def _fold_segment(segment: str) -> str:
    folded = unicodedata.normalize("NFKC", segment).casefold().lower()
    # Case folding can undo composition (ß + accent → s + s + accent):
    # compose again so that normalising twice changes nothing.
    return unicodedata.normalize("NFKC", folded).replace("ё", "е")


@lru_cache(maxsize=4096)
def _is_mark(char: str) -> bool:
    return unicodedata.category(char)[0] == "M"


def _segments(text: str):
    """(start, end) of each character with its following combining marks."""
    start = 0
    for i in range(1, len(text)):
        if not _is_mark(text[i]):
            yield start, i
            start = i
    if text:
        yield start, len(text)


class _CharFolds(dict):
    """code point → its folded segment, for ``str.translate``; filled lazily."""

    def __missing__(self, code_point: int) -> str:
        folded = self[code_point] = _fold_segment(chr(code_point))
        return folded


_CHAR_FOLDS = _CharFolds()


@lru_cache(maxsize=1)
def _mark_class() -> str:
    """A character class of every combining mark (``re`` has no ``\\p{M}``)."""
    return "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in mark_ranges()) + "]"


@lru_cache(maxsize=1)
def _marks() -> re.Pattern[str]:
    return re.compile(_mark_class())


@lru_cache(maxsize=2)
def _piece_pattern(marked: bool) -> re.Pattern[str]:
    """A piece: the longest run of letters and digits ([^\\W_]) of one script
    class, with the combining marks that follow its letters.  The lookaheads
    keep marks and unassigned code points inside the CJK and Cyrillic blocks
    from starting a letter, as in JavaScript.  (Text without marks gets the
    same pattern without the slow mark class.)"""
    marks = _mark_class() + "*" if marked else ""
    return re.compile(
        f"(?P<cjk>(?:(?=[^\\W_])[{CJK_RANGES}])+)"
        f"|(?P<cyrillic>(?:(?=[^\\W_])[{CYRILLIC_RANGES}]{marks})+)"
        f"|(?P<other>(?:[^\\W_{CJK_RANGES}{CYRILLIC_RANGES}]{marks})+)"
    )


def _normalise_with_map(text: str) -> tuple[str, list[int] | None, list[int] | None]:
    """The normalised text and, per normalised character, its original span
    (None: the same offsets as the original)."""
    if text.isascii():  # NFKC and casefold are plain lower() here
        return text.lower(), None, None
    if not _marks().search(text):
        # Every segment is one character: fold them at C speed, and if no
        # character grew, offsets are unchanged.
        norm = text.translate(_CHAR_FOLDS)
        if len(norm) == len(text):
            return norm, None, None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for start, end in _segments(text):
        folded = _fold_segment(text[start:end])
        parts.append(folded)
        starts.extend([start] * len(folded))
        ends.extend([end] * len(folded))
    return "".join(parts), starts, ends


def normalize(text: str) -> str:
    """Step 1 of the contract alone (exposed for the parity tests)."""
    return _normalise_with_map(text)[0]


def _raw_pieces(text: str):
    """Steps 1 and 2: (kind, piece without its marks, its start and end in
    the normalised text, a function mapping a normalised slice to its
    original span)."""
    norm, starts, ends = _normalise_with_map(text)
    marked = not norm.isascii() and _marks().search(norm) is not None

    def span(a: int, b: int) -> tuple[int, int]:
        if starts is None or ends is None:
            return a, b
        return starts[a], ends[b - 1]

    for m in _piece_pattern(marked).finditer(norm):
        piece = m.group()
        if marked:
            # Marks NFKC could not compose (Russian stress marks, the dot
            # of a folded İ) belong to the word but not to its term.
            piece = _marks().sub("", piece)
        if len(piece) > MAX_WORD_LENGTH and m.lastgroup != "cjk":
            continue
        yield m.lastgroup or "other", piece, m.start(), m.end(), span


def pieces(text: str) -> list[Piece]:
    """The normalised pieces of ``text`` with their original offsets."""
    return [
        Piece(*span(a, b), kind, piece) for kind, piece, a, b, span in _raw_pieces(text)
    ]


@lru_cache(maxsize=1)
def _russian():  # type: ignore[no-untyped-def]
    # Imported on first use: snowballstemmer loads all its ~30 languages (~3 MB), and a
    # build's main process, whose parse workers do the analysing, need never pay for them.
    import snowballstemmer

    return snowballstemmer.stemmer("russian")


@lru_cache(maxsize=65536)
def stem(piece: str, kind: str) -> str:
    """The term of a Cyrillic or other (non-CJK) piece."""
    term = _russian().stemWord(piece) if kind == "cyrillic" else stemmer_en.stem(piece)
    return term or piece


def bigrams(piece: str) -> list[str]:
    """Overlapping character bigrams; a lone character stays a unigram."""
    if len(piece) == 1:
        return [piece]
    return [piece[i : i + 2] for i in range(len(piece) - 1)]


def words(text: str) -> list[Word]:
    """The words of ``text`` in order, with offsets into ``text``.

    A CJK piece gives one word per bigram (overlapping), so a quote can
    highlight just the characters that match.
    """
    result = []
    for kind, piece, a, b, span in _raw_pieces(text):
        if kind != "cjk":
            result.append(Word(*span(a, b), (stem(piece, kind),)))
        elif len(piece) == 1:
            result.append(Word(*span(a, a + 1), (piece,)))
        else:
            for i in range(len(piece) - 1):
                result.append(Word(*span(a + i, a + i + 2), (piece[i : i + 2],)))
    return result


_ASCII_PIECE = re.compile(r"[a-z0-9]+")  # _piece_pattern's pieces of lowercase ASCII text
_WORD_CHAR = re.compile(r"[^\W_]")  # what a piece is made of


class _Separators(dict):
    """code point → " " for a character that can only separate words, else the
    character itself; for ``str.translate``, filled lazily.

    Such a character is no combining mark (marks may join the letters around
    them), and its folded form (step 1) is not empty and has neither a letter
    or digit nor a mark: every piece ends before it, as at a space.  Emoji,
    dashes, quotes and the ``›`` of heading paths are most of the non-ASCII
    characters of English docs.
    """

    def __missing__(self, code_point: int) -> str:
        char = chr(code_point)
        folded = _fold_segment(char)
        separates = not _is_mark(char) and folded and not _WORD_CHAR.search(folded) and not _marks().search(folded)
        result = self[code_point] = " " if separates else char
        return result


_SEPARATORS = _Separators()


def analyze(text: str) -> list[str]:
    """The index terms of ``text`` in order, duplicates kept.

    The same as the terms of :func:`words`, without building the words (the
    build analyses every chunk).
    """
    text = _ascii_spaced(text)
    if text.isascii():
        # Steps 1 and 2 on ASCII: lower(), then runs of letters and digits, all
        # "other" pieces; most chunks of English docs, in a fifth of the time.
        return [stem(piece, "other") for piece in _ASCII_PIECE.findall(text.lower()) if len(piece) <= MAX_WORD_LENGTH]
    terms: list[str] = []
    for kind, piece, _, _, _ in _raw_pieces(text):
        if kind != "cjk":
            terms.append(stem(piece, kind))
        else:
            terms.extend(bigrams(piece))
    return terms


def term_counts(text: str) -> dict[str, int]:
    """How often each term of ``analyze(text)`` occurs, in first-seen order (``Counter(analyze(text))``).

    ASCII text (most chunks, and those whose other characters are quotes,
    dashes, emoji...) is split at C speed (``bytes.translate``, then ``split``)
    and its words mapped to terms by a dict that stems each word the first
    time it is seen: no Python step per word.  Other text: its pieces are
    counted first and each distinct one analysed once.  Either way the terms
    come in first-seen order: a term first appears with the first word that
    gives it.
    """
    ascii_words = _ascii_words(text)
    if ascii_words is not None:
        counts = Counter(map(_ASCII_TERMS.__getitem__, ascii_words))
        counts.pop("", None)  # words longer than MAX_WORD_LENGTH
        return counts
    counts = {}
    get = counts.get
    for (kind, piece), n in Counter((kind, piece) for kind, piece, _, _, _ in _raw_pieces(text)).items():
        for term in (stem(piece, kind),) if kind != "cjk" else bigrams(piece):
            counts[term] = get(term, 0) + n
    return counts


def _ascii_words(text: str) -> list[bytes] | None:
    """The words of ``text`` (its pieces, lower-cased) as ASCII bytes, when its non-ASCII characters only
    separate words (``_ascii_spaced``); else None.

    Such a text's UTF-8 bytes are its words between bytes that all separate (a non-ASCII character is
    encoded in bytes from 0x80 up): it need not be translated character by character first.
    """
    data = text.encode("utf-8", "surrogatepass")
    if len(data) != len(text):
        others = set(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))  # the non-ASCII characters
        if "\ufe0f" in others:  # a separator only after a separator: the text itself tells
            spaced = _ascii_spaced(text)
            if not spaced.isascii():
                return None
            data = spaced.encode()
        elif any(_SEPARATORS[ord(char)] != " " for char in others):
            return None
    return data.translate(_ASCII_WORDS).split()


# ASCII letters and digits lower-cased, every other byte a space: ``split`` then gives _ASCII_PIECE's pieces.
_ASCII_WORDS = bytes(byte if chr(byte).isalnum() else 32 for byte in range(128)).lower() + b" " * 128
_ASCII_BYTES = bytes(range(128))


class _AsciiTerms(dict):
    """An ASCII word (bytes) → its term, or "" for a word too long to be one; filled as words are met."""

    LIMIT = 200_000  # words kept: a large site's vocabulary without growing for ever

    def __missing__(self, word: bytes) -> str:
        if len(self) >= self.LIMIT:
            self.clear()
        piece = word.decode("ascii")
        term = self[word] = stem(piece, "other") if len(piece) <= MAX_WORD_LENGTH else ""
        return term


_ASCII_TERMS = _AsciiTerms()


def _ascii_spaced(text: str) -> str:
    """``text``, or the same words as ASCII text when its only non-ASCII characters separate words."""
    if not text.isascii():
        spaced = text.translate(_SEPARATORS)
        if "\ufe0f" in spaced:
            # The emoji presentation selector, a mark, after a separator (✏️):
            # it composes with nothing, so the pair separates like the first alone.
            spaced = spaced.replace(" \ufe0f", " ")
        if spaced.isascii():  # ASCII words between separators: the same pieces
            return spaced
    return text
