"""The number guard: every number in an answer must come from a tool result, a cited passage or
the question itself.

Numbers are read with their unit and normalised (TB/s -> GB/s, GiB -> GB, "8k" -> 8000,
"$1.5" -> 1.5 USD) so that "1.56 TB/s" in an answer matches 1555 GB/s in a tool result. A number
written with d decimals matches a source value that rounds to it at d decimals (but at most 10%
off: "1 TB/s" is not 864 GB/s), or lies within 1% of it. Names that carry digits (A100, Llama-3-8B,
RTX 4090, Qwen2.5) and citation markers ([2]) are not numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from advisor.specs import GPU, Model

# unit text (lower case) -> (family, multiplier to the family's base unit)
UNITS: dict[str, tuple[str, float]] = {
    "tb/s": ("bandwidth", 1000.0),
    "gb/s": ("bandwidth", 1.0),
    "gbps": ("bandwidth", 1.0),
    "gib": ("memory", 1.073741824),
    "gb": ("memory", 1.0),
    "mb": ("memory", 0.001),
    "tb": ("memory", 1000.0),
    "gigs": ("memory", 1.0),
    "gig": ("memory", 1.0),
    "tflops": ("flops", 1.0),
    "tops": ("flops", 1.0),
    "pflops": ("flops", 1000.0),
    "w": ("power", 1.0),
    "watts": ("power", 1.0),
    "kw": ("power", 1000.0),
    "tokens/s": ("rate", 1.0),
    "tok/s": ("rate", 1.0),
    "tokens/sec": ("rate", 1.0),
    "ms": ("time", 0.001),
    "s": ("time", 1.0),
    "seconds": ("time", 1.0),
    "hours": ("hours", 1.0),
    "minutes": ("hours", 1 / 60),
    "min": ("hours", 1 / 60),
    "hour": ("hours", 1.0),
    "h": ("hours", 1.0),
    "hrs": ("hours", 1.0),
    "days": ("hours", 24.0),
    "%": ("percent", 1.0),
    "x": ("ratio", 1.0),
    "percent": ("percent", 1.0),
    "usd": ("usd", 1.0),
    "$": ("usd", 1.0),
}
SCALE = {
    "k": 1e3,
    "m": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "t": 1e12,
}
RELATIVE_TOLERANCE = 0.01
ROUNDING_LIMIT = 0.10  # "1 TB/s" is not a rounding of 864 GB/s, though it is at 0 decimals


def _registry_units() -> dict[str, tuple[str, float]]:
    """The units the workload families report ("images/s", "sequences/s"), each its own
    family, so that a ratio of two such figures can be traced to them."""
    from advisor.calculator.families import METRICS

    units = {m.unit.lower() for m in METRICS.values() if m.unit}
    found = {u: (u, 1.0) for u in units if u not in UNITS and not u.isalpha()}
    for unit in [u for u in units if u.endswith("/s")]:  # "10.2 images/min" is 0.17 images/s
        family = UNITS.get(unit, (unit, 1.0))[0]
        found |= {f"{unit[:-2]}/min": (family, 1 / 60), f"{unit[:-2]}/h": (family, 1 / 3600)}
    return found


UNITS.update(_registry_units())
_UNIT_RE = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u != "$")
_SCALE_RE = "|".join(sorted(SCALE, key=len, reverse=True))
# currencies written by their ISO code before an amount ("INR 220,000", "CHF 2,500"), as the
# answers write the user's own money in a currency with no sign of its own
_MONEY_CODES = (
    "RUB|UAH|ILS|INR|TRY|KRW|THB|KZT|VND|PHP|NGN|IRR|BDT|GEL|CZK|PLN|HUF|RON|SAR|AED|IRT|JPY|CNY"
    "|CHF|KES|IDR|MYR|RSD|PKR|ZAR|AZN|UZS|SOM|ETB|GHS|AUD|NZD|CAD|SGD|HKD|EUR|GBP|BRL|SEK|NOK|DKK"
)
_NUMBER = re.compile(
    rf"(?P<dollar>[$£€¥₹₩₦₱₽₺₴₪]\s?|(?-i:(?:{_MONEY_CODES}) ))?"
    r"(?P<num>(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?)"
    r"(?:[eE](?P<exp>[-+]?\d{1,3})(?![\w.]))?"  # 1e-06, 2.5E9: one number, not "1" and "06"
    rf"(?:\s?(?P<scale>{_SCALE_RE})\b)?(?:\s?(?P<unit>{_UNIT_RE})(?![a-z]))?",
    re.IGNORECASE,
)
_LIST_MARKER = re.compile(r"^[ \t]*\d{1,2}[.)](?=[ \t])", re.MULTILINE)
# Words with digits that are names, not quantities: A100, L40S, Qwen2.5, fp16, q4_k_m, [2], and
# formats written in bits ("4-bit", "8 bit"; a 384-bit bus is a figure)
_NAME_LIKE = re.compile(
    r"\[\d+\]|\b[A-Za-z]+[-_]?\d[\w.]*|\b\d{1,2}[-\s]bits?\b"
    r"|\b(?:Llama|Qwen|Gemma|Phi|Mistral|Mixtral|DeepSeek|Yi|Falcon|GPT|OLMo|Ada|Gaudi|RTX|MI)"
    r"[-\s]?v?[\d.]*\d(?:[-\s](?:\d+[xX])?\d+(?:\.\d+)?[bBmM]\b)?",
    re.IGNORECASE,
)


def unit_scale(unit: str) -> tuple[str | None, float]:
    """(family, multiplier to the family's base unit) of a unit as written ("TB/s" ->
    ("bandwidth", 1000.0)); (None, 1.0) for a unit the guard does not know."""
    return UNITS.get(unit.strip().lower(), (None, 1.0))


@lru_cache(maxsize=1)
def _catalog_names() -> re.Pattern[str]:
    """Every GPU and model name and alias in the catalog (the image, BERT-style, diffusion and
    speech models too), longest first, separators loose."""
    from advisor.calculator import FAMILIES
    from advisor.calculator.families import models_of
    from advisor.catalog import load_catalog

    catalog = load_catalog()
    models = [m for fam in FAMILIES.values() for m in models_of(catalog, fam).values()]
    entries: list[GPU | Model] = [*catalog.gpus.values(), *models]
    names = {n for e in entries for n in (e.name, *e.aliases) if re.search(r"[A-Za-z]", n)}
    parts = [
        r"[-\s_]?".join(re.escape(w) for w in re.split(r"[-\s_]+", n))
        for n in sorted(names, key=len, reverse=True)
    ]
    return re.compile(r"(?<![\w.])(?:" + "|".join(parts) + r")(?![\w])", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    """One number as written, with its normalised value and unit family."""

    text: str
    value: float  # in the family's base unit (GB, GB/s, USD, ...)
    family: str | None  # None: a bare count
    step: float  # the rounding step as written: "16.1 GB" -> 0.1, "7B" -> 1e9


def read_numbers(text: str, *, skip_names: bool = True) -> list[Number]:
    """Every number in text, with unit. `skip_names` leaves out digits inside names (A100)."""
    masked = _mask_names(text) if skip_names else text
    found = []
    for match in _NUMBER.finditer(masked):
        raw = match.group("num").replace(",", "")
        exponent = int(match.group("exp") or 0)
        value = float(f"{raw}e{exponent}")  # 1e999 is inf, not an OverflowError
        decimals = (len(raw.split(".")[1]) if "." in raw else 0) - exponent
        scale = (match.group("scale") or "").lower()
        unit = (match.group("unit") or "").lower()
        multiplier = SCALE.get(scale, 1.0)
        family = None
        if match.group("dollar"):  # "$40", or another currency's amount: "£600", "€2.50"
            symbol = match.group("dollar").strip()
            family = "usd" if symbol == "$" else f"money {symbol}"
        elif unit:
            family, unit_multiplier = UNITS[unit]
            multiplier *= unit_multiplier
        step = float(f"1e{-decimals}") * multiplier
        written = text[match.start() : match.end()].strip()
        found.append(Number(written, value * multiplier, family, step))
    return found


def _mask_names(text: str) -> str:
    """Blank out words whose digits are part of a name, keeping offsets."""

    def blank(match: re.Match[str]) -> str:
        return " " * len(match.group(0))

    text = re.sub(r"https?://\S+|www\.\S+", blank, text)  # addresses are not quantities
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}\b", blank, text)  # nor are days ("2026-12-07")
    text = _LIST_MARKER.sub(blank, text)  # "2. **RTX A5000**": a list position, not a quantity
    return _NAME_LIKE.sub(blank, _catalog_names().sub(blank, text))


def source_numbers(*sources: Any) -> list[Number]:
    """Numbers from tool results (any JSON), passages and the question, all normalised."""
    found: list[Number] = []
    for source in sources:
        for value in _walk(source):
            if isinstance(value, bool):
                continue
            if isinstance(value, (int, float)):
                found.append(Number(str(value), float(value), None, 1e-6))
            elif isinstance(value, str):
                found.extend(read_numbers(value, skip_names=False))
    return found


def _walk(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _walk(item)
    elif value is not None and not isinstance(value, (str, int, float, bool)):
        yield json.dumps(value, default=str)
    else:
        yield value


def _conversions(number: Number) -> list[float]:
    """Factors that turn a written number into another value it can mean, each unit's usual
    slip (the number times the factor)."""
    factors = []
    if re.search(r"\dk\b", number.text, re.I):  # "8k context" is 8192 as often as 8000
        factors.append(1.024)
    if number.family == "memory":  # GiB written where GB meant, and the reverse
        factors += [1 / 1.073741824, 1.073741824]
    if number.family == "percent":
        factors.append(1 / 100)
    if number.family == "hours":
        factors += [3600, 60]  # tools give seconds and minutes too
        factors.append(1 / 24)  # and days: "833 days" of a tool's break_even_days
    if number.family == "time":
        factors += [1000, 1 / 3600]  # ms; seconds of an hours figure
    return factors


def matches(number: Number, source: float) -> bool:
    """True when `number` is `source` rounded as written (but never more than 10% off), within
    1% of it, or the same after a unit slip (GiB for GB, 8k for 8192, seconds of an hours
    figure: "0.37 s" written of 0.000101 h, rounded as written)."""
    scale = abs(source)
    for factor in (1.0, *_conversions(number)):
        for value in (number.value * factor, -number.value * factor):  # "6.7 GB short": -6.7
            diff = abs(value - source)
            if diff <= 1e-9 * max(1.0, scale) or diff <= RELATIVE_TOLERANCE * scale:
                return True
            # rounding as written holds in the unit written, and across the units of time
            # (a slip of GiB for GB is no rounding: "17 GB" is not 16.06 GB)
            if factor != 1.0 and number.family not in ("time", "hours"):
                continue
            step = number.step * abs(factor)
            if diff <= step / 2 * (1 + 1e-6) and diff <= ROUNDING_LIMIT * scale:
                return True
    return False


@dataclass(frozen=True)
class Check:
    """The guard's verdict on one text."""

    numbers: list[Number]
    grounded: list[tuple[Number, str]]  # (number, where it came from)
    ungrounded: list[Number]

    @property
    def ok(self) -> bool:
        return not self.ungrounded

    @property
    def rate(self) -> float:
        return 1.0 if not self.numbers else len(self.grounded) / len(self.numbers)


def check(text: str, sources: dict[str, list[Number]]) -> Check:
    """Trace every number in text to a named source ("tool:estimate", "passage:...", "question")."""
    numbers = read_numbers(text)
    grounded, ungrounded = [], []
    for number in numbers:
        where = next(
            (
                name
                for name, values in sources.items()
                if any(matches(number, s.value) for s in values)
            ),
            None,
        )
        if where is None:
            ungrounded.append(number)
        else:
            grounded.append((number, where))
    for number in [n for n in ungrounded if n.family in ("ratio", "percent")]:
        figures = [n for n, _ in grounded if number.family == "ratio" or n.family == "hours"]
        if _quotient_of(number, figures):  # "1.4x": 102 over 70.5 tokens/s; "55% of the hours"
            ungrounded.remove(number)
            grounded.append((number, "ratio of two figures in the answer"))
    for number in [n for n in ungrounded if n.family in SUMMED]:
        if _sum_of(number, [n for n, _ in grounded]):  # "$8,683: $7,500 + $1,183"
            ungrounded.remove(number)
            grounded.append((number, "sum of two figures in the answer"))
        elif _difference_of(number, [n for n, _ in grounded]):  # "saves $24,384" of two bills
            ungrounded.remove(number)
            grounded.append((number, "difference of two figures in the answer"))
    return Check(numbers, grounded, ungrounded)


ROUNDING_LIMIT_SPAN = 1.1  # a quotient of rounded figures is trusted within a tenth of it

# units whose figures add up: a card's price and its electricity, two memories
SUMMED = ("usd", "memory", "power", "hours")


def _sum_of(total: Number, figures: list[Number]) -> bool:
    """True when a written figure is two grounded figures of its unit added up."""
    same = [f for f in figures if f.family == total.family]
    return any(matches(total, a.value + b.value) for i, a in enumerate(same) for b in same[i + 1 :])


def _difference_of(gap: Number, figures: list[Number]) -> bool:
    """True when a written figure is one grounded figure of its unit less another (a saving
    between two bills, the room left between a need and a card)."""
    same = [f for f in figures if f.family == gap.family]
    return any(matches(gap, a.value - b.value) for a in same for b in same if a.value > b.value)


def _quotient_of(ratio: Number, figures: list[Number]) -> bool:
    """True when a written ratio is one grounded figure over another of the same unit, as
    written or within what their rounding allows ("2.09x" of 0.039 over 0.019 images/s: each
    rounded to two digits, their quotient lies between 1.97 and 2.14)."""
    scale = 100.0 if ratio.family == "percent" else 1.0  # "55% of the 8,760 hours"
    return any(
        matches(ratio, scale * a.value / b.value) or _within_rounding(ratio, a, b, scale)
        for a in figures
        for b in figures
        if a is not b and a.family is not None and a.family == b.family and b.value
    )


def _within_rounding(ratio: Number, a: Number, b: Number, scale: float) -> bool:
    """True when the ratio lies between the least and the most that a over b can be, given the
    step each was rounded to, and that span is narrow (within a tenth either way)."""
    below = b.value - b.step / 2
    if below <= 0 or a.value <= 0:
        return False
    low = scale * (a.value - a.step / 2) / (b.value + b.step / 2)
    high = scale * (a.value + a.step / 2) / below
    mid = scale * a.value / b.value
    if high > ROUNDING_LIMIT_SPAN * mid or low < mid / ROUNDING_LIMIT_SPAN:
        return False
    return low - ratio.step / 2 <= ratio.value <= high + ratio.step / 2


_NO = re.compile(
    r"^\W*no\b|\b(?:does not|doesn't|won't|will not|cannot|can't|can not|would not|wouldn't)"
    r"\s+(?:\w+\s+){0,2}?(?:fit|run|be run|be fine-tuned|fine-tune|train|serve|load|hold)\b"
    r"|\bnot (?:enough|sufficient)\b|\binsufficient\b|\btoo (?:big|large)\b",
    re.IGNORECASE,
)
_YES = re.compile(
    r"^\W*yes\b|\b(?:fits|will fit|can fit|would fit|can run|can serve|can fine-tune|can train"
    r"|can be fine-tuned|can be run)\b",
    re.IGNORECASE,
)


def read_verdict(text: str) -> bool | None:
    """The fit verdict an answer states: True (fits), False (does not), None (says neither)."""
    if _NO.search(text):
        return False
    if _YES.search(text):
        return True
    return None
