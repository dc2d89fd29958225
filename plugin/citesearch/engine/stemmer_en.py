"""An exact Python port of lunr.js 2.3.9's ``lunr.stemmer`` (Porter).

lunr.py ships its own Porter stemmer, but it is a different implementation
and disagrees with the browser on words like ``key``, ``deploy``, ``may``,
``happy`` and ``fly`` (the y→i rule).  The index is built in Python and
queried in JavaScript, so the build must stem exactly as lunr.js does: this
module copies its regexes and steps one for one (see
``theme/static/vendor/lunr.min.js``, ``lunr.stemmer``).

JavaScript regexes without the ``u`` flag see UTF-16 code units, so a word
holding a character outside the BMP is stemmed as a string of surrogates, as
lunr.js does, and converted back afterwards.
"""

from __future__ import annotations

import re
from functools import lru_cache

_STEP2 = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}

_STEP3 = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}

_c = "[^aeiou]"  # consonant
_v = "[aeiouy]"  # vowel
_C = _c + "[^aeiouy]*"  # consonant sequence
_V = _v + "[aeiou]*"  # vowel sequence

# JS `$` never matches before a trailing newline; Python's does, hence \Z.
_re_mgr0 = re.compile("^(" + _C + ")?" + _V + _C)  # [C]VC... is m>0
_re_meq1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + r")?\Z")  # m=1
_re_mgr1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)  # m>1
_re_s_v = re.compile("^(" + _C + ")?" + _v)  # vowel in stem

_re_1a = re.compile(r"^(.+?)(ss|i)es\Z", re.S)
_re2_1a = re.compile(r"^(.+?)([^s])s\Z", re.S)
_re_1b = re.compile(r"^(.+?)eed\Z", re.S)
_re2_1b = re.compile(r"^(.+?)(ed|ing)\Z", re.S)
_re_1b_2 = re.compile(r".\Z", re.S)
_re2_1b_2 = re.compile(r"(at|bl|iz)\Z")
_re3_1b_2 = re.compile(r"([^aeiouylsz])\1\Z")
_re4_1b_2 = re.compile("^" + _C + _v + r"[^aeiouwxy]\Z")

_re_1c = re.compile(r"^(.+?[^aeiou])y\Z", re.S)
_re_2 = re.compile(
    r"^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization"
    r"|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)\Z",
    re.S,
)
_re_3 = re.compile(r"^(.+?)(icate|ative|alize|iciti|ical|ful|ness)\Z", re.S)
_re_4 = re.compile(
    r"^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti"
    r"|ous|ive|ize)\Z",
    re.S,
)
_re2_4 = re.compile(r"^(.+?)(s|t)(ion)\Z", re.S)

_re_5 = re.compile(r"^(.+?)e\Z", re.S)
_re_5_1 = re.compile(r"ll\Z")
_re3_5 = re.compile("^" + _C + _v + r"[^aeiouwxy]\Z")



def _drop_last(w: str) -> str:
    return _re_1b_2.sub("", w, count=1)


def _porter(w: str) -> str:
    if len(w) < 3:
        return w

    firstch = w[:1]
    if firstch == "y":
        w = "Y" + w[1:]

    # Step 1a
    if _re_1a.search(w):
        w = _re_1a.sub(r"\1\2", w, count=1)
    elif _re2_1a.search(w):
        w = _re2_1a.sub(r"\1\2", w, count=1)

    # Step 1b
    fp = _re_1b.search(w)
    if fp:
        if _re_mgr0.search(fp.group(1)):
            w = _drop_last(w)
    else:
        fp = _re2_1b.search(w)
        if fp:
            stem = fp.group(1)
            if _re_s_v.search(stem):
                w = stem
                if _re2_1b_2.search(w):
                    w = w + "e"
                elif _re3_1b_2.search(w):
                    w = _drop_last(w)
                elif _re4_1b_2.search(w):
                    w = w + "e"

    # Step 1c
    fp = _re_1c.search(w)
    if fp:
        w = fp.group(1) + "i"

    # Step 2
    fp = _re_2.search(w)
    if fp and _re_mgr0.search(fp.group(1)):
        w = fp.group(1) + _STEP2[fp.group(2)]

    # Step 3
    fp = _re_3.search(w)
    if fp and _re_mgr0.search(fp.group(1)):
        w = fp.group(1) + _STEP3[fp.group(2)]

    # Step 4
    fp = _re_4.search(w)
    if fp:
        if _re_mgr1.search(fp.group(1)):
            w = fp.group(1)
    else:
        fp = _re2_4.search(w)
        if fp:
            stem = fp.group(1) + fp.group(2)
            if _re_mgr1.search(stem):
                w = stem

    # Step 5
    fp = _re_5.search(w)
    if fp:
        stem = fp.group(1)
        if _re_mgr1.search(stem) or (
            _re_meq1.search(stem) and not _re3_5.search(stem)
        ):
            w = stem

    if _re_5_1.search(w) and _re_mgr1.search(w):
        w = _drop_last(w)

    # and turn initial Y back to y
    if firstch == "y":
        w = "y" + w[1:]

    return w


def _to_utf16_units(word: str) -> str:
    """The word as JavaScript sees it: one Python character per code unit."""
    data = word.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(data[i : i + 2], "little")) for i in range(0, len(data), 2))


def _from_utf16_units(units: str) -> str:
    data = b"".join(ord(u).to_bytes(2, "little") for u in units)
    return data.decode("utf-16-le", "surrogatepass")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Stem one lower-case word exactly as lunr.js 2.3.9 does."""
    if word.isascii() or max(word) <= "\uffff":
        return _porter(word)
    return _from_utf16_units(_porter(_to_utf16_units(word)))
