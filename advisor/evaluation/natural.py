"""The natural split of the golden set on an answer engine: questions in users' own words
(eval/golden/natural/), each scored twice, on what the advisor understood and on what it answered.

A case passes when every field its writer stated was understood (intent, GPUs with count and
variant, models, precision, quantities...; understanding.py), no GPU or model was read as another
entry, every number in the answer is grounded, and the answer meets the case's `expect`: the fit
verdict, asking back (`clarify`), declining (`refuse`), and each expected number within its
tolerance. Cases are split into dev and held-out by a hash of their id (understanding.split_of):
the parser was tuned looking at dev failures only, so held-out is the honest figure.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.agent.guard import read_verdict
from advisor.agent.understand import understand
from advisor.catalog import Catalog
from advisor.errors import InvalidInput
from advisor.evaluation.scoring import has_number
from advisor.evaluation.understanding import CaseScore, load_natural, score_case, split_of

SPLITS = (
    "dev",
    "held-out",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
    "fresh30",
    "fresh31",
    "fresh32",
    "fresh33",
    "fresh34",
    "fresh35",
    "fresh36",
    "fresh37",
    "fresh38",
    "fresh39",
    "fresh40",
    "fresh41",
)


@dataclass
class NaturalScore:
    id: str
    split: str
    turns: list[str]
    understood: CaseScore
    failures: list[str] = field(default_factory=list)
    grounding: float = 1.0
    latency_ms: float = 0.0
    answer: str | None = None

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "split": self.split,
            "turns": self.turns,
            "passed": self.passed,
            "failures": self.failures,
            "grounding": self.grounding,
            "latency_ms": round(self.latency_ms, 1),
            "answer": self.answer,
        }


def _understood(case: dict[str, Any], catalog: Catalog) -> CaseScore:
    previous = None
    query = None
    for turn in case["turns"]:
        try:
            query = understand(turn, catalog, previous)
        except InvalidInput:
            query = None
            break
        previous = query.context_dict()
    if query is None:  # refused before understanding: right only if the writer expected that
        got = CaseScore(case["id"], case["turns"][-1])
        intent = (case.get("query") or {}).get("intent")
        got.fields["intent"] = intent in ("invalid", "out_of_scope")
        return got
    return score_case(case, query, catalog)


def score_answer(case: dict[str, Any], ask: Callable[[list[str]], Any],
                 catalog: Catalog) -> NaturalScore:  # fmt: skip
    """Ask the case's turns on one thread (`ask(turns) -> Answer`) and score the last answer."""
    understood = _understood(case, catalog)
    result = NaturalScore(case["id"], split_of(case["id"]), case["turns"], understood)
    fails = result.failures
    fails += [f"understood {k}: {v}" for k, v in understood.details.items()]
    fails += [f"read as another entry: {w}" for w in understood.wrong_entities]
    expect = case.get("expect") or {}
    start = time.perf_counter()
    try:
        answer = ask(case["turns"])
    except InvalidInput as exc:
        result.latency_ms = (time.perf_counter() - start) * 1000
        result.answer = f"(refused) {exc}"
        if expect.get("verdict") not in (None, "refuse"):
            fails.append(f"refused ({exc}) where the case expects {expect['verdict']}")
        return result
    result.latency_ms = (time.perf_counter() - start) * 1000
    result.answer = answer.text
    result.grounding = answer.grounding_rate
    if answer.grounding_rate < 1.0:
        fails.append(f"ungrounded numbers: {[n.text for n in answer.numbers if not n.provenance]}")
    verdict = expect.get("verdict")
    asked_back = answer.text.rstrip().endswith("?")
    if verdict in ("fits", "does-not-fit"):
        said = read_verdict(answer.text)
        if said is not (verdict == "fits"):
            told = {True: "fits", False: "does-not-fit", None: "neither"}[said]
            fails.append(f"verdict: expected {verdict}, answer says {told}")
    elif verdict == "clarify" and not asked_back:
        fails.append("should ask what is meant")
    elif verdict == "refuse" and answer.numbers:
        fails.append("should decline, but answered with figures")
    for spec in expect.get("numbers", []):
        if not has_number(answer.text, spec):
            fails.append(f"missing number {spec.get('value')} {spec.get('unit', '')}".strip())
    return result


def run(ask: Callable[[list[str]], Any], catalog: Catalog,
        progress: Callable[[int, int], None] | None = None) -> list[NaturalScore]:  # fmt: skip
    cases = load_natural()
    scores = []
    for i, case in enumerate(cases, 1):
        scores.append(score_answer(case, ask, catalog))
        if progress:
            progress(i, len(cases))
    return scores


def summary(scores: list[NaturalScore]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for split in (*SPLITS, "all"):
        mine = [s for s in scores if split in ("all", s.split)]
        if not mine:
            continue
        fields = [ok for s in mine for ok in s.understood.fields.values()]
        out[split] = {
            "cases": len(mine),
            "passed": sum(s.passed for s in mine),
            "pass_rate": sum(s.passed for s in mine) / len(mine),
            "field_accuracy": sum(fields) / len(fields) if fields else 1.0,
            "wrong_entities": sum(len(s.understood.wrong_entities) for s in mine),
            "grounding": min(s.grounding for s in mine),
        }
    return out
