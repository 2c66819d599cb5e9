"""`gpu-advisor eval`: ask every golden case, score it, write the report, gate on thresholds.

Writes eval/reports/<engine>.md and .json, and two plots: pass rate per category and the
latency distribution. Multi-turn cases are asked on one thread; the last answer is scored.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from advisor.api import Advisor
from advisor.config import eval_dir
from advisor.evaluation.natural import run as natural_run
from advisor.evaluation.natural import summary as natural_summary
from advisor.evaluation.scoring import (
    BLIND,
    CATEGORIES,
    REPORTED_ONLY,
    Case,
    Score,
    load_cases,
    score,
)
from advisor.evaluation.stats import p50_p95
from advisor.evaluation.understanding import BLIND_SPLITS, split_of

# the CI gate: the rules engine must pass 95% of the cases; every engine must ground every
# number and cite only retrieved passages
THRESHOLDS = {
    "rules": {"pass_rate": 0.95, "grounding": 1.0, "citation_integrity": 1.0},
    "llm": {"grounding": 1.0, "citation_integrity": 1.0},
}


@dataclass
class Report:
    engine: str
    scores: list[Score]
    judge: dict[str, Any] | None = None
    natural: list[Any] | None = None  # natural.NaturalScore of the natural split, when run

    def summary(self) -> dict[str, Any]:
        gated = [s for s in self.scores if s.case.category not in REPORTED_ONLY]
        n = len(gated)
        p50, p95 = p50_p95(s.latency_ms for s in self.scores) if n else (None, None)
        tools = [s.tool_right for s in self.scores if s.tool_right is not None]
        per_category: dict[str, dict[str, Any]] = {}
        for category in CATEGORIES:
            mine = [s for s in self.scores if s.case.category == category]
            if mine:
                per_category[category] = {
                    "cases": len(mine),
                    "passed": sum(s.passed for s in mine),
                    "pass_rate": sum(s.passed for s in mine) / len(mine),
                }
                if category in REPORTED_ONLY:  # dev: failures read while improving; held-out: not
                    for half, key in (("dev", "dev"), ("held-out", "held_out")):
                        part = [s for s in mine if split_of(s.case.id) == half]
                        per_category[category][key] = f"{sum(s.passed for s in part)}/{len(part)}"
        return {
            "engine": self.engine,
            "cases": n,
            "passed": sum(s.passed for s in gated),
            "pass_rate": sum(s.passed for s in gated) / n if n else 0.0,
            "grounding": min((s.grounding for s in self.scores), default=1.0),
            "grounding_mean": statistics.fmean(s.grounding for s in self.scores) if n else 1.0,
            "citation_integrity": min((s.citation_integrity for s in self.scores), default=1.0),
            "tool_choice_accuracy": sum(tools) / len(tools) if tools else None,
            "fallbacks": sum(s.fallback for s in self.scores),
            "latency_p50_ms": None if p50 is None else round(p50, 1),
            "latency_p95_ms": None if p95 is None else round(p95, 1),
            "per_category": per_category,
            "judge_faithfulness": self.judge,
            "natural": natural_summary(self.natural) if self.natural else None,
        }

    def failures_against_thresholds(self) -> list[str]:
        limits = THRESHOLDS["rules" if self.engine == "rules" else "llm"]
        summary = self.summary()
        return [
            f"{name} {summary[name]:.3f} is below {limit}"
            for name, limit in limits.items()
            if summary[name] < limit
        ]


def run_cases(
    cases: list[Case],
    advisor: Advisor,
    engine: str,
    progress: Callable[[int, int], None] | None = None,
) -> list[Score]:
    scores = []
    for i, case in enumerate(cases, 1):
        thread = f"eval-{engine}-{case.id}-{time.time_ns()}"
        start = time.perf_counter()
        answer = None
        for turn in case.turns:
            answer = advisor.ask(turn, thread_id=thread, engine=engine)
        assert answer is not None
        scores.append(score(case, answer, (time.perf_counter() - start) * 1000, engine))
        if progress:
            progress(i, len(cases))
    return scores


def judge_faithfulness(scores: list[Score], engine: str) -> dict[str, Any]:
    """An LLM's yes/no on whether each answer says only what its tool results and cited
    passages support.
    Reported, never gated: a small judge is itself unreliable."""
    from advisor.agent.llm import chat_model

    model = chat_model(engine)
    verdicts = []
    for s in scores:
        if s.answer is None:
            continue
        results = [t.result for t in s.answer.tool_calls if t.name != "search_corpus"]
        evidence = json.dumps(results, default=str)[:3000]
        quoted = "\n".join(f"[{i}] {c.text[:600]}" for i, c in enumerate(s.answer.citations, 1))
        prompt = (
            f"Tool results:\n{evidence}\n\nCited passages:\n{quoted or '(none)'}\n\n"
            f"Answer:\n{s.answer.text[:2000]}\n\nIs every claim in the answer supported by "
            "the tool results or the cited passages? Reply yes or no."
        )
        reply = str(model.invoke(prompt).content).strip().lower()
        verdicts.append(reply.startswith("yes"))
    share = sum(verdicts) / len(verdicts) if verdicts else None
    return {"judge": engine, "answers": len(verdicts), "faithful_share": share}


def run_natural(advisor: Advisor, engine: str,
                progress: Callable[[int, int], None] | None = None) -> list[Any]:  # fmt: skip
    """The natural split (eval/golden/natural/), each case on its own thread."""
    from advisor.catalog import load_catalog

    def ask(turns: list[str]) -> Any:
        thread = f"natural-{engine}-{time.time_ns()}"
        answer = None
        for turn in turns:
            answer = advisor.ask(turn, thread_id=thread, engine=engine)
        return answer

    return natural_run(ask, load_catalog(), progress)


def run(
    engine: str = "rules",
    category: str | None = None,
    subset: bool = False,
    judge: str | None = None,
    out: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    advisor: Advisor | None = None,
    with_natural: bool | None = None,
) -> Report:
    """The golden set on one engine; the natural split too when `with_natural` (by default on
    the rules engine over the whole set: a local LLM takes minutes per case)."""
    cases = load_cases()
    if category:
        if category not in CATEGORIES:
            raise ValueError(f"Unknown category {category!r}; use one of {', '.join(CATEGORIES)}.")
        cases = [c for c in cases if c.category == category]
    if subset:
        cases = [c for c in cases if c.id in SUBSET]
    advisor = advisor or Advisor(engine=engine)
    report = Report(engine, run_cases(cases, advisor, engine, progress))
    if with_natural is None:
        with_natural = engine == "rules" and not category and not subset
    if with_natural:
        report.natural = run_natural(advisor, engine, progress)
    if judge:
        report.judge = judge_faithfulness(report.scores, judge)
    write(report, out or eval_dir() / "reports", suffix="-subset" if subset else "")
    return report


# the cases the local engine answers in CI (one or two per kind of question; each takes
# about half a minute on 2 CPU cores)
SUBSET = {
    "spec-l40-bandwidth",
    "spec-h100-sxm-memory",
    "spec-4090-tdp",
    "cmp-h100-h200",
    "cmp-a5000-a4000",
    "cost-a6000-100h",
    "cost-h100-hour",
    "inf-8b-a100-80",
    "train-qlora-8b-a4000",
    "qual-nvlink",
    "wrong-l40-bandwidth",
    "adv-ignore-l40",
}


# ---------------------------------------------------------------- the report


def write(report: Report, out: Path, suffix: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    name = f"{report.engine}{suffix}"
    summary = report.summary()
    data = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "summary": summary,
        "thresholds": THRESHOLDS["rules" if report.engine == "rules" else "llm"],
        "below_thresholds": report.failures_against_thresholds(),
        "cases": [s.to_dict() for s in report.scores],
        "natural_cases": [s.to_dict() for s in report.natural or []],
    }
    (out / f"{name}.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    plots = _plots(report, out, name)
    (out / f"{name}.md").write_text(_markdown(data, plots), encoding="utf-8")


def _markdown(data: dict[str, Any], plots: list[str]) -> str:
    s = data["summary"]
    tool = s["tool_choice_accuracy"]
    lines = [
        f"# Evaluation: {s['engine']} engine",
        "",
        f"Run {data['date']} on {data['machine']} (`gpu-advisor eval --engine {s['engine']}`).",
        "",
        f"- gated cases: {s['cases']}, passed: {s['passed']} (**{s['pass_rate']:.1%}**)",
        *(
            f"- {name} (newer cases, reported, not gated): {row['passed']} of {row['cases']} "
            f"passed (**{row['pass_rate']:.1%}**; dev half {row['dev']}, held-out half "
            f"{row['held_out']})"
            for name, row in s["per_category"].items()
            if name in REPORTED_ONLY
        ),
        f"- grounding: lowest {s['grounding']:.1%}, mean {s['grounding_mean']:.1%} of the numbers "
        "in an answer trace to a tool result, a cited passage or the question",
        f"- citation integrity: lowest {s['citation_integrity']:.1%}",
        f"- tool-choice accuracy: {'n/a' if tool is None else f'{tool:.1%}'} (answers the "
        "engine wrote itself)",
        f"- answers refused by the guard and replaced by the rules answer: {s['fallbacks']}",
        f"- latency per case: p50 {s['latency_p50_ms']} ms, p95 {s['latency_p95_ms']} ms",
        f"- thresholds: {data['thresholds']}; below: {data['below_thresholds'] or 'none'}",
    ]
    if judged := s["judge_faithfulness"]:
        share = judged["faithful_share"]
        lines.append(
            f"- faithfulness by an LLM judge ({judged['judge']} engine; reported, not gated): "
            + (f"{share:.0%} of {judged['answers']} answers" if share is not None else "no answers")
        )
    if nat := s.get("natural"):
        for split, row in nat.items():
            lines.append(
                f"- natural split, {split}: {row['passed']} of {row['cases']} passed "
                f"(**{row['pass_rate']:.1%}**; understanding {row['field_accuracy']:.1%} of "
                f"fields, {row['wrong_entities']} entities read as another, lowest grounding "
                f"{row['grounding']:.0%}); reported, not gated"
            )
    lines += ["", "| category | cases | passed | pass rate |", "|---|---|---|---|"]
    for category, row in s["per_category"].items():
        lines.append(f"| {category} | {row['cases']} | {row['passed']} | {row['pass_rate']:.0%} |")
    lines += [""] + [f"![{p}]({p})" for p in plots]
    # the blind sets' failures stay out of the printed report (they are in the JSON): read, they
    # would no longer measure questions the advisor was not tuned on
    failing = [c for c in data["cases"] if not c["passed"] and c["category"] not in BLIND]
    lines += ["", f"## Failing cases ({len(failing)}, blind sets left out)", ""]
    for c in failing:
        lines += [
            f"### {c['id']} ({c['category']})",
            "",
            "Asked: " + " / ".join(f"“{t}”" for t in c["turns"]),
            "",
            "Why: " + "; ".join(c["failures"]),
            "",
            "Answer:",
            "",
            "> " + (c["answer"] or "").replace("\n", "\n> "),
            "",
        ]
    natural_failing = [
        c
        for c in data.get("natural_cases", [])
        if not c["passed"] and c["split"] not in BLIND_SPLITS
    ]
    if natural_failing:
        lines += ["", f"## Natural split: failing cases ({len(natural_failing)})", ""]
        for c in natural_failing:
            lines.append(f"- {c['id']} ({c['split']}): “{c['turns'][-1][:160]}”: "
                         + "; ".join(c["failures"]))  # fmt: skip
    return "\n".join(lines) + "\n"


def _plots(report: Report, out: Path, name: str) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = report.summary()["per_category"]
    made = []
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.barh(list(summary), [r["pass_rate"] * 100 for r in summary.values()], color="#4c72b0")
    ax.set_xlim(0, 100)
    ax.set_xlabel("cases passed (%)")
    ax.set_title(f"Pass rate per category: {report.engine} engine")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(out / f"{name}-pass-rate.png", dpi=100)
    plt.close(fig)
    made.append(f"{name}-pass-rate.png")
    fig, ax = plt.subplots(figsize=(8, 3))
    ax.hist([s.latency_ms for s in report.scores], bins=30, color="#55a868")
    ax.set_xlabel("latency per case (ms)")
    ax.set_ylabel("cases")
    ax.set_title(f"Latency: {report.engine} engine")
    fig.tight_layout()
    fig.savefig(out / f"{name}-latency.png", dpi=100)
    plt.close(fig)
    made.append(f"{name}-latency.png")
    return made
