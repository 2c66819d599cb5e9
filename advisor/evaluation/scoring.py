"""Scoring one answer against one golden case, deterministically.

A case (eval/golden/*.yaml) says what a right answer must contain: numbers with unit and
tolerance (or a range), a fit verdict, documents it must cite, words it must say, claims it must
not make, whether it must ask back, and the tool it should call. Every answer is also measured
for grounding (share of its numbers traced to a tool result, a cited passage or the question)
and citation integrity (every citation is a passage retrieval returned for it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.agent.guard import read_numbers, read_verdict, unit_scale
from advisor.answer import ASSUMED_PREFIX, Answer
from advisor.config import eval_dir

CATEGORIES = (
    "spec",
    "comparison",
    "inference_fit",
    "training_fit",
    "throughput",
    "cost",
    "recommendation",
    "qualitative",
    "multi_turn",
    "unknown",
    "article_wrong",
    "adversarial",
    "workloads",
    "purchase",
    "advice",
    "advice_fresh",
    "advice_fresh2",
    "advice_fresh3",
    "advice_fresh4",
    "advice_fresh5",
    "advice_fresh6",
    "advice_fresh7",
    "advice_fresh8",
    "advice_fresh9",
    "advice_fresh10",
    "advice_fresh11",
    "advice_fresh12",
    "advice_fresh13",
    "advice_fresh14",
    "advice_fresh15",
    "advice_fresh16",
    "advice_fresh17",
    "advice_fresh18",
    "advice_fresh19",
    "advice_fresh20",
    "advice_fresh21",
    "advice_fresh22",
    "advice_fresh23",
    "advice_fresh24",
    "advice_fresh25",
    "advice_fresh26",
    "advice_fresh27",
    "advice_fresh28",
    "advice_fresh29",
    "advice_fresh30",
    "advice_fresh31",
    "advice_fresh32",
    "advice_fresh33",
    "advice_fresh34",
    "advice_fresh35",
    "advice_fresh36",
    "advice_fresh37",
    "advice_fresh38",
    "advice_fresh39",
    "advice_fresh40",
    "advice_fresh41",
    "advice_dev",
)
# categories written after the gate was set (image, diffusion and speech models; buying; advice
# and advice_fresh, the latter written blind by a tester who never read the advisor's code
# and explanations scored on the answer's shape): reported on their own lines, not gated yet;
# advice_fresh2 was a second blind set (stop 24, read and tuned on at stop 26), advice_fresh3 the
# third (stop 26, read at stop 27); advice_fresh4 the fourth (stop 27, read at stop 28);
# advice_fresh5 the fifth (stop 28, read at stop 29); advice_fresh6 the sixth (stop 29, read at
# stop 30); advice_fresh7 the seventh (stop 30, read at stop 31); advice_fresh8 the eighth
# (stop 31, read at stop 32); advice_fresh9 the ninth (stop 32, read at stop 33);
# advice_fresh10 the tenth (stop 33, read at stop 34); advice_fresh11 the eleventh (stop 34,
# read at stop 35); advice_fresh12 the twelfth (stop 35, read at stop 36); advice_fresh13 the
# thirteenth (stop 36, read at stop 37); advice_fresh14 the fourteenth (stop 37, read and tuned
# on at stop 56); advice_fresh15 the fifteenth (stop 57, written blind by a helper session,
# scored once before any change made for it; read and tuned on at stop 58); advice_fresh16
# (stop 57, written blind, scored once, then read and tuned on); advice_fresh17 (stop 58,
# written blind by a helper session, scored once) and advice_fresh18 (stop 59, the same): blind,
# their failures kept out of the printed report; advice_fresh19 (stop 62, written blind by a
# helper session, scored once on the code before the stop, then read and tuned on);
# advice_fresh20 (stop 63, the same), advice_fresh21 (stop 64, the same), advice_fresh22 (stop
# 65, the same); advice_fresh23 (stop 66, written blind by a helper session, scored once on the
# code before the stop and once at its end): blind; advice_fresh24 (stop 67, the same) and
# advice_fresh25 (stop 68, the same), advice_fresh26 (stop 69, the same), advice_fresh27 (stop
# 70, the same), advice_fresh28 (stop 71, the same), advice_fresh29 (stop 72, the same) and
# advice_fresh30 (stop 73, the same), advice_fresh31 (stop 74, the same), advice_fresh32 (stop
# 75, the same), advice_fresh33 (stop 76, the same), advice_fresh34 (stop 77, the same),
# advice_fresh35 and advice_fresh36 (stop 78, the same), advice_fresh37 (stop 79, the same),
# advice_fresh38 (stop 80, the same), advice_fresh39 (stop 81, the same), advice_fresh40 (stop 82,
# the same), advice_fresh41 (stop 83, the same): blind
REPORTED_ONLY = ("workloads", "purchase", "advice", "advice_fresh", "advice_fresh2",
                 "advice_fresh3", "advice_fresh4", "advice_fresh5", "advice_fresh6",
                 "advice_fresh7", "advice_fresh8", "advice_fresh9", "advice_fresh10",
                 "advice_fresh11", "advice_fresh12", "advice_fresh13",
                 "advice_fresh14", "advice_fresh15", "advice_fresh16",
                 "advice_fresh17", "advice_fresh18", "advice_fresh19", "advice_fresh20",
                 "advice_fresh21", "advice_fresh22", "advice_fresh23", "advice_fresh24",
                 "advice_fresh25", "advice_fresh26", "advice_fresh27", "advice_fresh28",
                 "advice_fresh29", "advice_fresh30", "advice_fresh31", "advice_fresh32",
                 "advice_fresh33", "advice_fresh34", "advice_fresh35",
                 "advice_fresh36", "advice_fresh37",
                 "advice_fresh38", "advice_fresh39", "advice_fresh40",
                 "advice_fresh41", "advice_dev")  # fmt: skip
# advice sets whose failures stay out of the printed report (advice_fresh17, 18, 23 and 24 were
# blind until stop 74, advice_fresh25 to 28 until stop 75, advice_fresh29 and 30 until stop 76,
# advice_fresh31 and 33 until stop 77, advice_fresh32 and 34 until stop 78, advice_fresh35 until
# stop 79, advice_fresh36 until stop 80, advice_fresh37 until stop 81, advice_fresh38 until stop 82,
# advice_fresh39 until stop 83, then read and tuned on:
# their scores at the start of that stop are in its closing note)
BLIND: tuple[str, ...] = (
    "advice_fresh40",
    "advice_fresh41",
)
EXPECT_KEYS = {
    "tool", "numbers", "verdict", "cite_docs", "must_say", "must_not_say", "clarify",
    # the shape of an advice or explain answer
    "pick", "figures", "cite_about", "no_note_about", "max_chars",
}  # fmt: skip
PICK_WITHIN = 400  # characters: the verdict or pick leads the answer


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    turns: list[str]
    expect: dict[str, Any]
    derivation: str


def load_cases(folder: Path | None = None) -> list[Case]:
    """Every case of every category file, checked for shape; ids are unique."""
    folder = folder or eval_dir() / "golden"
    cases: list[Case] = []
    for category in CATEGORIES:
        path = folder / f"{category}.yaml"
        for row in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            where = f"{path.name}: case {row.get('id', '?')}"
            turns = row.get("turns")
            if (
                not isinstance(turns, list)
                or not turns
                or not all(isinstance(t, str) for t in turns)
            ):
                raise ValueError(f"{where}: turns must be a non-empty list of questions")
            expect = row.get("expect") or {}
            unknown = set(expect) - EXPECT_KEYS
            if unknown or not expect:
                raise ValueError(
                    f"{where}: expect needs some of {sorted(EXPECT_KEYS)}, not {unknown}"
                )
            if not str(row.get("derivation", "")).strip():
                raise ValueError(f"{where}: write down how the expected values were derived")
            cases.append(Case(row["id"], category, turns, expect, row["derivation"]))
    ids = [c.id for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"Duplicate case ids: {sorted(duplicates)}")
    return cases


# ---------------------------------------------------------------- one answer


def expected_number(spec: dict[str, Any]) -> tuple[float, float, str | None]:
    """(low, high, unit family) of an expected number, in the guard's base units."""
    unit = str(spec.get("unit", ""))
    family, multiplier = unit_scale(unit)
    scale = re.fullmatch(r"([BM])(?: params| parameters)?", unit)
    if scale:  # parameters, "3.35B": the guard reads the letter as a scale
        family, multiplier = None, {"B": 1e9, "M": 1e6}[scale.group(1)]
    if "min" in spec:
        return spec["min"] * multiplier, spec["max"] * multiplier, family
    value = spec["value"] * multiplier
    tol = spec.get("tol", 0.02) * abs(value)
    return value - tol, value + tol, family


def has_number(text: str, spec: dict[str, Any]) -> bool:
    low, high, family = expected_number(spec)
    for number in read_numbers(text):
        if family is not None and number.family not in (family, None):
            continue
        if low <= number.value <= high:
            return True
    return False


@dataclass
class Score:
    case: Case
    answer: Answer | None
    failures: list[str] = field(default_factory=list)
    grounding: float = 1.0
    citation_integrity: float = 1.0
    tool_right: bool | None = None
    latency_ms: float = 0.0
    fallback: bool = False  # the evaluated engine's answer was refused; the rules answer given

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "category": self.case.category,
            "turns": self.case.turns,
            "passed": self.passed,
            "failures": self.failures,
            "grounding": self.grounding,
            "citation_integrity": self.citation_integrity,
            "tool_right": self.tool_right,
            "latency_ms": round(self.latency_ms, 1),
            "fallback": self.fallback,
            "answer": self.answer.text if self.answer else None,
            "engine": self.answer.engine if self.answer else None,
        }


def score(case: Case, answer: Answer, latency_ms: float, engine: str | None = None) -> Score:
    """Check one answer (the last turn's) against its case. With `engine`, an answer another
    engine wrote (the rules fallback) does not count for or against that engine's tool choice."""
    result = Score(case, answer, latency_ms=latency_ms, grounding=answer.grounding_rate)
    result.fallback = engine is not None and answer.engine != engine
    text = answer.text
    expect = case.expect
    retrieved = {
        p["id"]
        for t in answer.tool_calls
        if t.name == "search_corpus"
        for p in t.result.get("passages", [])
    }
    if answer.citations:
        good = sum(c.id in retrieved for c in answer.citations)
        result.citation_integrity = good / len(answer.citations)
    fails = result.failures
    for spec in expect.get("numbers", []):
        if not has_number(text, spec):
            shown = spec.get("value", f"{spec.get('min')}-{spec.get('max')}")
            fails.append(f"missing number {shown} {spec.get('unit', '')}".strip())
    if "verdict" in expect:
        said = read_verdict(text)
        want = expect["verdict"] == "fits"
        if said is not want:
            told = {True: "fits", False: "does-not-fit", None: "neither"}[said]
            fails.append(f"verdict: expected {expect['verdict']}, answer says {told}")
    cited = {c.doc for c in answer.citations}
    for doc in expect.get("cite_docs", []):
        if doc not in cited:
            fails.append(f"does not cite {doc}")
    for words in expect.get("must_say", []):
        # "(?i)bf16|bfloat16": some writers give a regular expression, marked by its flag
        said = bool(re.search(words, text)) if words.startswith("(?") else (
            words.lower() in text.lower())  # fmt: skip
        if not said:
            fails.append(f"does not say {words!r}")
    for pattern in expect.get("must_not_say", []):
        if re.search(pattern, text, re.IGNORECASE):
            fails.append(f"says what it must not: /{pattern}/")
    if "pick" in expect:
        head = text[:PICK_WITHIN]
        pick = re.escape(str(expect["pick"]))
        # whole words, but a memory size may run on into its unit ("80" of "A100 80GB", "24" of
        # "M4 (24GB)"), never into more digits or letters ("80" is not "800", "80.5"; "4090" is
        # not "4090D")
        numeric = str(expect["pick"]).isdigit()
        unit = r"(?:(?!\w|[.,]\d)|(?=(?:gb|gib|tb|g)\b))"
        pattern = rf"(?<![\w.,]){pick}{unit}" if numeric else rf"(?<!\w){pick}(?!\w)"
        if not re.search(pattern, head, re.IGNORECASE):
            fails.append(f"the pick {expect['pick']!r} is not in the first {PICK_WITHIN} chars")
    for spec in expect.get("figures", []):
        if not has_number(text, spec):
            shown = spec.get("value", f"{spec.get('min')}-{spec.get('max')}")
            fails.append(f"missing figure {shown} {spec.get('unit', '')}".strip())
    if expect.get("cite_about") and answer.citations:
        words = [str(w).lower() for w in expect["cite_about"]]  # "4090" may load as a number
        about = sum(any(w in c.text.lower() for w in words) for c in answer.citations)
        if about * 2 < len(answer.citations):
            fails.append(f"only {about} of {len(answer.citations)} citations speak of {words}")
    notes = [li for li in text.splitlines() if "Note:" in li or li.startswith(ASSUMED_PREFIX)]
    for topic in expect.get("no_note_about", []):
        if any(topic.lower() in li.lower() for li in notes):
            fails.append(f"a note about {topic!r}, which the question did not ask about")
    if "max_chars" in expect and len(text) > expect["max_chars"]:
        fails.append(f"{len(text)} characters, over {expect['max_chars']}")
    if expect.get("clarify") and not text.rstrip().endswith("?"):
        fails.append("should ask which one is meant")
    if "tool" in expect:
        names = [t.name for t in answer.tool_calls]
        result.tool_right = None if result.fallback else expect["tool"] in names
        if expect["tool"] not in names:
            fails.append(f"did not call {expect['tool']} (called {names or 'nothing'})")
    if result.grounding < 1.0:
        bad = [n.text for n in answer.numbers if n.provenance is None]
        fails.append(f"ungrounded numbers: {bad}")
    if result.citation_integrity < 1.0:
        fails.append("cites a passage that was not retrieved")
    return result
