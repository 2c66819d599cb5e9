"""A question in Spanish, Portuguese, Italian, German, French, Dutch, Polish, Turkish, Greek,
Hungarian or Arabic (and the commonest Japanese, Chinese, Korean and Thai words) read as
English: the words between the names and numbers (advisor/data/phrasebook.yaml) replaced by
the English the understanding step reads.
Names, numbers and units are left as they are."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

PHRASEBOOK = Path(__file__).resolve().parent.parent / "data" / "phrasebook.yaml"

# "la RTX 4060 Ti de 16GB", "una 4070 da 12 GB", "4k de contexto": the word between a name or a
# number and what it has is no word of the question
_OF = re.compile(
    r"(?<=\w) (?:de|da|di|del|della|com|con|mit|met|avec) (?=\d+(?:\.\d+)? ?(?:gb|g|gib|gigas?)\b)"
    r"|(?<=\d) (?:de|di|da) (?=[a-z])"
    r"|(?<=\dk) (?:de|di|da) (?=[a-z])",
    re.IGNORECASE,
)
# "por 450 dólares", "für 48.000 €": the price something goes for
_FOR_PRICE = re.compile(r"\b(?:por|pour|für|voor) (?=[$€]?\s?\d)", re.IGNORECASE)
# "per 200 ore" (Italian): for 200 hours ("ore" alone is an English word)
_ORE = re.compile(r"(?<=\d) ore\b|\bper (?=\d+ ore\b)", re.IGNORECASE)
# "52 episodios de 1 h 15 min cada uno": a thing's size or length after it
_OF_NUMBER = re.compile(r"(?<=[a-z]) (?:de|di|da|von|van|du|des) (?=\d)", re.IGNORECASE)
# "10k Beispiele à 512 Tokens", "10 000 exemples à 512 tokens": each of that many tokens
_EACH_OF = re.compile(r"(?<=[a-z]) (?:à|je) (?=\d+\s?(?:k\s?)?tokens?\b)", re.IGNORECASE)


# a number grouped in thousands by a space, a narrow space or a dot ("10 000", "1.000.000")
# (not "Llama 3 405B", "v3 671b": a version beside a size)
_THOUSANDS = re.compile(r"(?<![\w.,])\d{1,3}(?:[ .\u00a0\u202f]\d{3})+(?![\w]|[.,]\d)")


def _hours(match: re.Match[str]) -> str:
    """ "per 200 ore" (Italian): "for 200 hours"."""
    return "for " if match.group(0).lower().startswith("per") else " hours"


def plain(text: str) -> str:
    """`text` lower case without its accents ("Memória" -> "memoria"); Hangul syllables stay
    whole (NFKD would split each into its letters)."""
    parts = _HANGUL.split(text.lower())
    for n in range(0, len(parts), 2):  # the text between runs of Hangul
        decomposed = unicodedata.normalize("NFKD", parts[n])
        parts[n] = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(parts)


# Hangul syllables, Thai and Arabic letters are kept whole (NFKD would split a syllable into its
# letters; Thai writes its vowel signs and Arabic its short vowels as combining marks, which
# `plain` would drop)
_HANGUL = re.compile("([\uac00-\ud7af\u0e00-\u0e7f\u0600-\u06ff]+)")
# Chinese, Japanese, Korean and Thai characters: their words are written without spaces between
# them (Korean with some), so the phrasebook matches inside a run of them
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u0e00-\u0e7f"
_CJK = re.compile(f"[{CJK_CHARS}]")
# "2枚", "4张", "2장": so many cards (not "15000块", yuan)
# ("画像1枚あたり", "每张图": one image, not a card)
_CARDS = re.compile(r"(?<!\d)(\d{1,2})\s?(?:枚|张|張|台|장|대)(?!\s?(?:あたり|图|圖))")
# "两张3090", "四块4090", "双卡": a count written in Chinese numerals
_CJK_COUNTS = {"一": 1, "两": 2, "兩": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "八": 8}
_CJK_CARDS = re.compile(
    f"([{''.join(_CJK_COUNTS)}])(?:张|張|块|塊|枚|台)(?!\\s?(?:あたり|图|圖|画像|写真|照片))|(双|雙)卡"
)
# "画像は30枚", "30枚の画像", "30张图片": so many images, the same counters as cards
_IMAGES = re.compile(
    r"(?:画像|写真|图片|圖片|照片)\s?[はがを]?\s?(\d+)\s?(?:枚|张|張)(?!\s?あたり)"
    r"|(\d+)\s?(?:枚|张|張)\s?の?(?:画像|写真|图片|圖片|照片|图|圖)"
)


def _cjk_cards(match: re.Match[str]) -> str:
    return f" {_CJK_COUNTS.get(match.group(1) or '', 2)} cards "


@lru_cache(maxsize=1)
def _book() -> tuple[re.Pattern[str], dict[str, str]]:
    english: dict[str, str] = {}
    for row in yaml.safe_load(PHRASEBOOK.read_text(encoding="utf-8")):
        for phrase in row["say"]:
            # as the question is read: NFKC first (Thai's SARA AM is two characters after it)
            english.setdefault(plain(unicodedata.normalize("NFKC", phrase)), row["en"])
    said = sorted(english, key=len, reverse=True)  # the longest phrase wins
    words = "|".join(re.escape(p) for p in said if not _CJK.search(p))
    runs = "|".join(re.escape(p) for p in said if _CJK.search(p))  # no word boundary to find
    # a word after a French or Italian elision is a word ("l'entraînement", "dell'addestramento");
    # English has no word-initial l', d', qu' before one
    start = (
        r"(?:(?<![\w'\u2019])|(?<=\b[ldjn]['\u2019])|(?<=\bqu['\u2019])"
        r"|(?<=\b[dns]ell['\u2019])|(?<=\ball['\u2019]))"
    )
    pattern = start + "(?:" + words + r")(?![\w'])" + (f"|{runs}" if runs else "")
    return re.compile(pattern), english


# Spanish and Portuguese "mil" after a number is a thousand ("10 mil imagens"); in English slang
# it is a million, so it is read so only in a question in those languages
_MIL = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?) mil\b")


def _thousands(match: re.Match[str]) -> str:
    """ "10 mil" -> "10000", "2,5 mil" -> "2500" (a decimal comma, as those languages write)."""
    value = float(match.group(1).replace(",", ".")) * 1000
    return f"{value:.0f}"


def to_english(text: str) -> str:
    """`text` with the phrasebook's phrases in English; an English question comes back as it was.
    Matching is on the text without accents and in lower case; positions are kept, since the
    accents are dropped one character for one."""
    pattern, english = _book()
    text = _IMAGES.sub(lambda m: f" {m.group(1) or m.group(2)} images ", text)
    text = _CJK_CARDS.sub(_cjk_cards, _CARDS.sub(r" \1 cards ", text))
    flat = plain(text)
    if len(flat) != len(text):  # a character that NFKD splits into two letters ("ﬁ"): as it is
        return text
    out, last = [], 0
    for match in pattern.finditer(flat):
        said = english[match.group(0)]
        out += [text[last : match.start()], f" {said} " if _CJK.search(match.group(0)) else said]
        last = match.end()
    read = _ORE.sub(_hours, _OF.sub(" ", "".join([*out, text[last:]])))
    if out:  # another language's thousands: "10 000 exemples", "48.000 Euro", "10 mil imagens"
        read = _THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), read)
        read = _MIL.sub(_thousands, read)
    return _FOR_PRICE.sub("for ", _OF_NUMBER.sub(" of ", _EACH_OF.sub(" of ", read)))
