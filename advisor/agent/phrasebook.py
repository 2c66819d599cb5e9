"""A question in Spanish, Portuguese, Italian, German, French, Dutch, Polish, Turkish, Greek,
Hungarian, Arabic, Russian, Czech, Romanian, Norwegian, Bengali, Swahili, Tagalog, Indonesian,
Malay, Icelandic, Serbian, Urdu, Afrikaans, Lithuanian, Tamil or Azerbaijani (and the commonest
Japanese, Chinese, Korean and Thai words) read as English: the words
between the names and numbers (advisor/data/phrasebook.yaml) replaced by the English the
understanding step reads. Names, numbers and units are left as they are."""

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
_FOR_PRICE = re.compile(r"\b(?:por|pour|für|voor|за) (?=[$€₽]?\s?\d)", re.IGNORECASE)
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
    """`text` lower case without its accents ("Memória" -> "memoria"); Hangul syllables, Thai,
    Arabic and Bengali letters stay whole (NFKD would split each into its letters)."""
    parts = _HANGUL.split(text.lower())
    for n in range(0, len(parts), 2):  # the text between runs of Hangul
        decomposed = unicodedata.normalize("NFKD", parts[n])
        parts[n] = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(parts)


# Hangul syllables, Thai, Arabic and the Indian scripts (Devanagari to Sinhala) letters are kept
# whole (NFKD would split a syllable into its letters; Thai writes its vowel signs, Arabic its
# short vowels and the Indian scripts their viramas and vowel signs as combining marks, which
# `plain` would drop)
_HANGUL = re.compile("([\uac00-\ud7af\u0e00-\u0e7f\u0600-\u06ff\u0900-\u0dff]+)")
# Bengali, Tamil (and Telugu, Kannada and Malayalam): their vowel signs are marks, no word
# characters to `\w`, so a phrase in any is a whole word when no character of those scripts
# (letter, sign or digit) is beside it
BENGALI = "\u0900-\u0dff"  # (Devanagari to Sinhala: Hindi's, Gujarati's, Punjabi's too)
_BENGALI = re.compile(f"[{BENGALI}]")
_BENGALI_RUN = re.compile(f"[{BENGALI}]+")
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


def _either(phrases: list[str]) -> str:
    """The phrases as one alternation, grouped by their first character, each group in the order
    given (the longest first): at each place the regex tries only the phrases that begin with the
    character there, not all four thousand; what matches is the same."""
    groups: dict[str, list[str]] = {}
    for phrase in phrases:
        groups.setdefault(phrase[0], []).append(re.escape(phrase[1:]))
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items())


@lru_cache(maxsize=1)
def _book() -> tuple[re.Pattern[str], dict[str, str]]:
    english: dict[str, str] = {}
    for row in yaml.safe_load(PHRASEBOOK.read_text(encoding="utf-8")):
        for phrase in row["say"]:
            # as the question is read: NFKC first (Thai's SARA AM is two characters after it)
            english.setdefault(plain(unicodedata.normalize("NFKC", phrase)), row["en"])
    said = sorted(english, key=len, reverse=True)  # the longest phrase wins
    words = _either([p for p in said if not _CJK.search(p) and not _BENGALI.search(p)])
    runs = _either([p for p in said if _CJK.search(p)])  # no word boundary to find
    bengali = _either([p for p in said if _BENGALI.search(p)])
    # a word after a French or Italian elision is a word ("l'entraînement", "dell'addestramento");
    # English has no word-initial l', d', qu' before one
    start = (
        r"(?:(?<![\w'\u2019])|(?<=\b[ldjn]['\u2019])|(?<=\bqu['\u2019])"
        r"|(?<=\b[dns]ell['\u2019])|(?<=\ball['\u2019]))"
    )
    pattern = start + "(?:" + words + r")(?![\w'])" + (f"|{runs}" if runs else "")
    if bengali:
        pattern += f"|(?<![\\w{BENGALI}])(?:{bengali})(?![\\w{BENGALI}])"
    return re.compile(pattern), english


# Spanish and Portuguese "mil" after a number is a thousand ("10 mil imagens"); in English slang
# it is a million, so it is read so only in a question in those languages
_MIL = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?) mil\b")


def _thousands(match: re.Match[str]) -> str:
    """ "10 mil" -> "10000", "2,5 mil" -> "2500" (a decimal comma, as those languages write)."""
    value = float(match.group(1).replace(",", ".")) * 1000
    return f"{value:.0f}"


def _scaled(value: str, scale: float) -> str:
    """ "2" and a lakh -> "200000", "1,5" and a crore -> "15000000"."""
    return f"{float(value.replace(',', '.')) * scale:.0f}"


# Bengali counts in lakhs (100,000) and crores (10,000,000) after the number ("২ লাখ টাকা",
# "1.5 কোটি"); a counter after a number is no word ("২টি কার্ড": two cards); "in 3 hours" is the
# hour's locative ("৩ ঘণ্টায়"), which alone is "per hour" ("ঘণ্টায় ৫০ টাকা")
_BN_SCALE = {"লাখ": 1e5, "লক্ষ": 1e5, "কোটি": 1e7}
_BN_SCALED = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?(লাখ|লক্ষ|কোটি)(?:ের|এর)?(?![্য])")
_BN_COUNTER = re.compile(r"(?<=\d)\s?(?:টি|টা|টো)(?![\w\u0980-\u09ff])")
_BN_IN = {unicodedata.normalize("NFKC", said): unit for said, unit in (
    ("ঘণ্টায়", "ঘণ্টা"), ("ঘন্টায়", "ঘন্টা"), ("দিনে", "দিন"), ("সপ্তাহে", "সপ্তাহ"), ("মাসে", "মাস"),
    ("বছরে", "বছর"), ("মিনিটে", "মিনিট"), ("সেকেন্ডে", "সেকেন্ড"))}  # fmt: skip
_BN_IN_TIME = re.compile(f"(?<=\\d)\\s?({'|'.join(_BN_IN)})(?![\\w{BENGALI}])")
# Bengali says the rate before the amount ("ঘণ্টায় 2 ডলার", "দিনে 8 ঘণ্টা", "প্রতি ইউনিট 0.12 ডলার"):
# the amount first, as English says it ("2 dollars per hour")
_BN_RATE = re.compile(
    unicodedata.normalize(
        "NFKC",
        r"(ঘণ্টায়|ঘন্টায়|প্রতি ঘণ্টায়|প্রতি ঘন্টায়|দিনে|প্রতিদিন|প্রতি দিন|সপ্তাহে|মাসে|প্রতি মাসে|বছরে"
        r"|প্রতি ইউনিট|ইউনিট প্রতি)\s((?:\$\s?)?\d+(?:[.,]\d+)?(?:\s?(?:ঘণ্টা|ঘন্টা|দিন|ডলার|ডলারে|টাকা"
        rf"|টাকায়|BDT|\$))?)(?![\w{BENGALI}])",
    )
)
# Swahili says what it counts before the number ("saa 10", "picha elfu 50", "tokeni milioni 50",
# "laki 3", "dola 2"): the number first, as the other languages say it; "elfu" (1,000) and
# "laki" (100,000) as their value, "dola" (dollars) as "$"; "kadi mbili za RTX 3090": 2 x
_SW_NUM = r"\d+(?:[.,]\d+)?"
_SW_END = r"(?![\w]|[.,]\d)"  # a full stop or comma after the number ends it
_SW_COUNT = {"mbili": "2", "tatu": "3", "nne": "4", "nane": "8"}
_SW_SCALED = re.compile(rf"\b(elfu|laki|dola)\s({_SW_NUM}){_SW_END}", re.IGNORECASE)
_SW_MILLIONS = re.compile(rf"\b(milioni|bilioni)\s({_SW_NUM}){_SW_END}", re.IGNORECASE)
_SW_CARDS = re.compile(
    r"\b(?:kadi\s(\d+|mbili|tatu|nne|nane)|gpu\s(mbili|tatu|nne|nane))\s(?:za|ya)\s", re.IGNORECASE
)
_SW_FIRST = re.compile(
    r"\b(saa|siku|mwezi|miezi|mwaka|miaka|dakika|sekunde|kadi|picha|tokeni|epoki|shilingi)\s"
    rf"({_SW_NUM}(?:\s(?:milioni|bilioni))?|mbili|tatu|nne|nane){_SW_END}",
    re.IGNORECASE,
)


def _sw_scaled(match: re.Match[str]) -> str:
    """ "elfu 50" -> "50000", "laki 2" -> "200000", "dola 2" -> "$2"."""
    word, number = match.group(1).lower(), match.group(2)
    return f"${number}" if word == "dola" else _scaled(number, 1e3 if word == "elfu" else 1e5)


def _swahili(text: str) -> str:
    """A Swahili count with its number first: "picha elfu 50" -> "50000 picha"."""
    text = _SW_MILLIONS.sub(r"\2 \1", _SW_SCALED.sub(_sw_scaled, text))
    text = _SW_CARDS.sub(lambda m: f"{_SW_COUNT.get((m[1] or m[2]).lower(), m[1])} x ", text)
    return _SW_FIRST.sub(r"\2 \1", text)


# Norwegian hours and years after a number ("100 timer", "3 år") and "per time" (per hour), read
# only in a question the phrasebook has already read ("timer" and "time" are English words too;
# "per time step" stays)
# (and units that are English words or parts of names alone, read only after a number:
# Afrikaans "12 ure" (hours), Azerbaijani "30 gün" (days, "gun" without its accent) and "320 Vt"
# (watts, not "VT-d"))
_NB_HOURS = re.compile(
    r"(?<=\d) (timer|ure)\b|(?<=\d) (år)\b|\b(per time)\b(?!\s?(?:steps?|units?|slots?|periods?"
    r"|windows?|frames?|series|intervals?|spans?|budgets?|limits?))|(?<=\d) (gün)(?!\w)"
    r"|(?<=\d) ?(vt)\b",
    re.IGNORECASE,
)


def _nb_hours(match: re.Match[str]) -> str:
    units = (" hours", " years", "per hour", " days", " watts")
    return next(unit for unit, said in zip(units, match.groups(), strict=True) if said)


# Indonesian and Malay scale words after a number: "ribu" or "rb" (a thousand) as its value ("45
# ribu", "45rb" -> "45000"), "juta" or "jt" and "miliar" as English says them ("50 juta token" ->
# "50 million", "7 miliar parameter" -> "7 billion": a model's size stays one)
_ID_SCALED = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?) ?(ribu|rb|juta|jt|miliar|milyar)\b(?!-)", re.IGNORECASE
)
# South Asian amounts in lakhs and crores written in Latin letters ("1.8 lakh", "2 lakhs", "1.2
# crore", "3 lac"): the number itself
_LAKH = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?) ?((?:INR|Rs\.?|PKR|₹) ?)?(lakhs?|lacs?|crores?)\b"
    r"(?: (rupees?|rs\b\.?|inr\b|pkr\b|taka\b))?",  # "1.5 lakh rupees": the currency after
    re.IGNORECASE,
)
_LAKH_CURRENCY = {"r": "INR", "i": "INR", "p": "PKR", "t": "BDT"}
_LAKH_SCALE = {"l": 1e5, "c": 1e7}
# Azerbaijani's case and copula endings joined to a name, a number or a currency code by a hyphen
_AZ_SUFFIX = re.compile(
    r"(?<=[A-Za-z0-9])-(?:dir|dır|dur|dür|tir|tır|li|lı|lu|lü|da|də|dan|dən|ya|yə|nı|ni|nu|nü|nin"  # noqa: RUF001
    r"|nın|un|ün|ın|in|u|ü|ı|i|a|ə)(?![\w-])"  # noqa: RUF001
)
# a case ending joined to a name by a colon (Finnish, Swedish): "RTX 4090:n", "A100:lla", "VRAM:ia"
# (the case endings only, not an Ollama tag: "phi3:medium", "granite4:micro")
_CASE_SUFFIX = re.compile(
    r"(?<=[A-Z0-9]):(?:n|a|ä|ia|iä|ta|tä|na|nä|lla|llä|lle|ssa|ssä|sta|stä|lta|ltä|ksi|en|an|ar"
    r"|or|s|t|e|i)\b"
)
# kilowatt-hours and watts written in Cyrillic ("кВт·ч", "кВт·год", "320 Вт"): the units as
# English writes them, in any language that writes them so
_KWH = re.compile(
    r"(?<![\w])[кk][вb][тt]\s?[·⋅∙*/\-]?\s?(?:ч|год|час|сағ)(?:ин[аиу]?|ов|а|ат)?(?![\w])",  # noqa: RUF001
    re.IGNORECASE,
)
_WATTS_CYRILLIC = re.compile(r"(?<=\d)\s?(к?)Вт\b", re.IGNORECASE)
# Tamil's lakh and crore after a number ("2 லட்சம் வாக்கியங்கள்": 200,000 sentences)
_TA_LAKH = re.compile(r"(?<=\d) ?(லட்சம்|கோடி)")


# Urdu says the rate before the amount ("روزانہ 10 گھنٹے": 10 hours a day, "فی گھنٹہ 520 روپے":
# 520 rupees an hour), writes Pakistan's rupee as روپے and counts in lakhs (لاکھ)
# (the letters Urdu has and Arabic and Persian do not: yeh barree, noon ghunna, tteh, ddal, rreh,
# heh goal; the understanding step reads "Rs" as Pakistan's rupee beside them)
URDU_LETTERS = re.compile("[\u06d2\u06ba\u0679\u0688\u0691\u06c1]")
_UR_DAILY = re.compile(r"روزانہ\s?(\d+(?:[.,]\d+)?)\s?(?:گھنٹے|گھنٹہ)")
_UR_HOURLY = re.compile(r"فی\s?گھنٹ[ہے]\s?(\d[\d,.]*)\s?(?:روپے|روپیہ|PKR)")
_UR_RUPEES = re.compile(r"(\d[\d,.]*)\s?(?:روپے|روپیہ)")
_UR_LAKH = re.compile(r"(?<![\d.,])(\d+(?:[.,]\d+)?)\s?لاکھ")


# Icelandic "mig" (me: "kostar mig", "Mig langar") is no MIG slice; written in lower case or
# capitalised, in a question with Icelandic letters
_IS_LETTERS = re.compile("[þðÞÐæÆ]")
_IS_MIG = re.compile(r"\b(?:mig|Mig)\b")


def _urdu(text: str) -> str:
    """Urdu's rates, rupees and lakhs in the order and numbers English writes them."""
    if not URDU_LETTERS.search(text):
        return text
    text = _UR_LAKH.sub(lambda m: _scaled(m.group(1), 1e5), text)
    text = _UR_DAILY.sub(r"\1 hours a day", text)
    text = _UR_HOURLY.sub(r"\1 PKR per hour", text)
    return _UR_RUPEES.sub(r"\1 PKR", text)


# Hinglish says the price before the verb: "4090 2 lakh mein buy karu" (buy a 4090 for 2 lakh)
_HI_PRICE_FIRST = re.compile(
    r"(?<![\w.,])(\d[\d,.]*)\s?((?:INR|Rs\.?|₹)\s?)?(?:mein|me|mai)\s(?:buy|kharid|khareed)\w*"
    r"(?:\s(?:karu\w*|karoon|kar\s?lu\w*|lu|loon))?\b",
    re.IGNORECASE,
)


def _lakhs(match: re.Match[str]) -> str:
    """ "1.8 lakh" -> "180000"; "1.8 INR lakh" (the currency moved after the number) -> "180000
    INR"."""
    value = _scaled(match.group(1), _LAKH_SCALE[match.group(3)[0].lower()])
    if match.group(4):  # "1.5 lakh rupees" -> "150000 INR"
        return f"{value} {_LAKH_CURRENCY[match.group(4)[0].lower()]}"
    if match.group(2):
        return f"{value} {match.group(2).strip()}"
    # "1.8 lakh mein" (Hinglish: for 1.8 lakh): a price, in rupees, not a count of lakhs
    priced = re.match(r"\s?(?:mein|me|mai)\b", match.string[match.end() :], re.IGNORECASE)
    return f"{value} INR" if priced else value


_ID_SCALE = {"juta": "million", "jt": "million", "miliar": "billion", "milyar": "billion"}
# "VRAM-nya", "TDP-nya", "GB-nya": Indonesian's "its" joined by a hyphen, no part of the word
_NYA = re.compile(r"(?<=\w)-nya\b", re.IGNORECASE)


def _id_scaled(match: re.Match[str]) -> str:
    number, word = match.group(1), match.group(2).lower()
    return f"{number} {_ID_SCALE[word]}" if word in _ID_SCALE else _scaled(number, 1e3)


# Indonesian and Malay hours and days after a number or a slash ("40 jam", "3 hari",
# "45.000/jam"), read only in a question the phrasebook has already read ("jam" is an English
# word, "Hari" a name); "Rp45.000" has its thousands read as any other amount's
_ID_TIME = re.compile(r"(?<=\d) ?(jam|hari)\b|(?<=/)(jam|hari)\b", re.IGNORECASE)
_RP = re.compile(r"(?<=\brp)(\.?)(?=\d{1,3}(?:\.\d{3})+\b)", re.IGNORECASE)


def _id_time(match: re.Match[str]) -> str:
    if match.group(2):  # "/jam": per hour
        return "hour" if match.group(2).lower() == "jam" else "day"
    return " hours" if match.group(1).lower() == "jam" else " days"


# a rate said before its amount, as Hungarian, Bengali and others say it ("óránként 260 Ft" ->
# "per hour 260 Ft", "napi 5 órát" -> "per day 5 hours"): the amount first, as English says it
_RATE_FIRST = re.compile(
    r"\bper (hour|day|week|month|year|kwh)\s+(\d[\d.,]*\s+(?:hours|days|weeks|months)\b"
    r"|(?:[$€£₹₩₱₦]\s?)?\d[\d.,]*(?:\s?(?:ft|[a-z]{3}|บาท|원|円|元|zł|kč|lei)(?![a-z]))?"
    r"(?:-\w+)?)",
    re.IGNORECASE,
)


# Korean days counted after a number, before a space or the end ("22일 쓰면"); with a particle
# after it ("22일에") it is a date
_KO_DAYS = re.compile(r"(?<=\d)\s?일(?![\uac00-\ud7af])")


# a combining mark after a Latin letter that NFC cannot fold into it (Yoruba's "ẹ́": a dot below
# and an acute): dropped, so that the text and its plain form keep one character for one
_LOOSE_MARK = re.compile(r"(?<=[A-Za-z\u00c0-\u024f\u1e00-\u1eff])[\u0300-\u036f]+")
# a name or number written onto a word of a script with prefixes (Ethiopic, Hebrew, Arabic,
# Devanagari): "በFP8", "לRTX 4090"
_GLUED = re.compile(
    r"(?<=[\u1200-\u137f\u0590-\u05ff\u0600-\u06ff\u0900-\u097f])(?=[A-Za-z0-9])"
    r"|(?<=[A-Za-z0-9])(?=[\u1200-\u137f\u0900-\u097f])"
)
# Uzbek puts the period first: "kuniga 10 soat" (10 hours a day), "oyiga 22 kun" (22 days a month)
_UZ_DAILY = re.compile(r"\b(kuniga|kunda|oyiga)\s(\d+(?:[.,]\d+)?)\s(?:soat|kun)\b", re.IGNORECASE)


def _uz_daily(m: re.Match[str]) -> str:
    """ "kuniga 10 soat" -> "10 hours a day", "oyiga 22 kun" -> "22 days a month"."""
    return f"{m.group(2)} {'hours a day' if m.group(1).startswith('kun') else 'days a month'}"


# a thing and then "what it is" (Vietnamese "X là gì", "X là cái gì"): asked as "what is X"
_VI_WHAT_IS = re.compile(r"\b([A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,2}) là (?:cái )?gì\b")


def to_english(text: str) -> str:
    """`text` with the phrasebook's phrases in English; an English question comes back as it was.
    Matching is on the text without accents and in lower case; positions are kept, since the
    accents are dropped one character for one."""
    pattern, english = _book()
    if _LOOSE_MARK.search(text):  # "tí wọ́n ti lò tẹ́lẹ̀" (Yoruba): marks with no letter of their own
        text = _LOOSE_MARK.sub("", unicodedata.normalize("NFC", text))
    text = _GLUED.sub(" ", text)  # "በFP8" (Amharic), "בRTX" (Hebrew): a prefix on a name
    text = _UZ_DAILY.sub(_uz_daily, text)
    if ":" in text:
        text = _CASE_SUFFIX.sub("", text)
    if "т" in text or "Т" in text:  # noqa: RUF001 (Cyrillic: "кВт·ч", "320 Вт")
        text = _WATTS_CYRILLIC.sub(lambda m: " kW" if m.group(1) else " W", _KWH.sub("kWh", text))
    if _BENGALI.search(text):  # as the phrasebook is read: NFKC ("য়" is two characters after it)
        text = _BENGALI_RUN.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)
        text = _BN_SCALED.sub(lambda m: _scaled(m.group(1), _BN_SCALE[m.group(2)]) + " ", text)
        text = _BN_IN_TIME.sub(lambda m: " " + _BN_IN[m.group(1)], _BN_COUNTER.sub(" ", text))
        text = _BN_RATE.sub(r"\2 \1", text)
    text = _urdu(_swahili(_ID_SCALED.sub(_id_scaled, _NYA.sub("", text))))
    if " là " in text:  # "MIG là cái gì" (Vietnamese): "what is MIG", the word order of English
        text = _VI_WHAT_IS.sub(r"what is \1", text)
    if ("mig" in text or "Mig" in text) and _IS_LETTERS.search(text):
        text = _IS_MIG.sub("me", text)
    if "ə" in text:  # "RTX 4070 SUPER-li", "0,084 AZN-dir", "5090-u": a name or amount as it is
        text = _AZ_SUFFIX.sub("", text)
    text = _TA_LAKH.sub(lambda m: " lakh" if m.group(1) == "லட்சம்" else " crore", text)
    if re.search("la(?:kh|c)|crore", text, re.IGNORECASE):
        text = _LAKH.sub(_lakhs, text)
    if "me" in text or "mai" in text:
        text = _HI_PRICE_FIRST.sub(lambda m: f"buy it for {m.group(1)} {m.group(2) or ''}", text)
    if "일" in text:  # "한 달에 22일 쓰면": 22 days (not "22일에", the 22nd)
        text = _KO_DAYS.sub(" days ", text)
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
        read = _ID_TIME.sub(_id_time, _RP.sub(r"\1 ", read))
        read = _THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), read)
        read = _MIL.sub(_thousands, read)
        read = _NB_HOURS.sub(_nb_hours, read)
        read = _RATE_FIRST.sub(r"\2 per \1", read)
    return _FOR_PRICE.sub("for ", _OF_NUMBER.sub(" of ", _EACH_OF.sub(" of ", read)))
