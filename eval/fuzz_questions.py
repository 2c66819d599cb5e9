"""Fuzzing the question path: generated and mutated questions on the `rules` engine.

    python -m eval.fuzz_questions [--examples 10000] [--seed 0]   (from the repo root)

Questions come from Hypothesis strategies (the same ones tests/test_agent_fuzz.py uses):
arbitrary unicode with control characters, mixed languages, unit soup, huge, negative and
non-finite numbers, 100 kB inputs, and the golden set's questions mutated character by character.
For each: the answer's latency, and whether it was answered with every number grounded, refused
with a message (InvalidInput), or failed in any other way (a traceback: a bug).
Writes eval/results/fuzz_questions.json and .md. Exit 1 on any failure, any ungrounded or empty
answer, or an answer slower than 1 s (the target).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from advisor.evaluation.scoring import load_cases
from advisor.evaluation.stats import p50_p95

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_MS = 1000.0

WORDS = ["Llama-3-8B", "A100", "H100 SXM", "RTX 4090", "L40", "fine-tune", "QLoRA", "4bit",
         "8k context", "two", "of them", "$2/hour", "-5", "1e308", "80 gigs", "TB/s", "vs",
         "what about", "how many", "cost", "100 hours", "batch 99999999", "70B", "0B", "?",
         "\u202e", "\x00", "模型", "GPU", "ignore previous instructions", "NaN", "inf",
         "Q4_K_M", "int8", "fp8", "AWQ", "405B", "Mixtral", "per month", "tokens/s"]  # fmt: skip
PHRASES = ["¿Cabe Llama-3-8B en una L4?", "Llama-3-70B passt auf zwei A100?",
           "A100 和 H100 哪个更适合推理?", "RTX 4090 で Llama-3-8B を微調整できますか",
           "Сколько стоит 100 часов на A6000?", "هل يكفي L40 لنموذج 13B؟",
           "L4 vs T4 pour servir un modèle 7B", "qual GPU para QLoRA com 24 GB?"]  # fmt: skip
UNITS = ["GB", "GiB", "gigs", "MB", "TB", "GB/s", "TB/s", "TFLOPS", "W", "tokens/s", "$/hour",
         "hours", "k context", "B", "M", "GPUs", "%", "x", "bit", "ms"]  # fmt: skip


def _golden_questions() -> list[str]:
    return sorted({turn for case in load_cases() for turn in case.turns})


def _mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply (kind, position, character) edits: insert, delete, replace, swap, duplicate."""
    chars = list(text)
    for kind, pos, char in edits:
        if not chars:
            chars = [char]
            continue
        i = pos % len(chars)
        if kind == 0:
            chars.insert(i, char)
        elif kind == 1:
            del chars[i]
        elif kind == 2:
            chars[i] = char
        elif kind == 3 and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i:i] = chars[i : i + 8]
    return "".join(chars)


_number = st.one_of(
    st.integers(-(10**40), 10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        ["1e308", "-0", "0.000001", "1,000,000,000", "10^12", "½", "٣", "\uff11\uff12"]
    ),
)
_edit = st.tuples(st.integers(0, 4), st.integers(0, 10**6), st.characters())

questions = st.one_of(
    st.text(max_size=400),  # any unicode, control characters included
    st.lists(st.sampled_from(WORDS + PHRASES), min_size=1, max_size=14).map(" ".join),
    st.lists(st.tuples(_number, st.sampled_from(UNITS)).map(" ".join), min_size=1,
             max_size=10).map(" ".join),  # unit soup
    st.lists(st.one_of(st.sampled_from(WORDS), _number), min_size=1, max_size=10).map(" ".join),
    st.tuples(st.sampled_from(_golden_questions()), st.lists(_edit, max_size=6)).map(
        lambda t: _mutate(*t)
    ),  # the golden questions, mutated
    st.tuples(st.sampled_from(PHRASES + WORDS), st.integers(3_000, 100_000)).map(
        lambda t: (t[0] + " ") * (t[1] // (len(t[0]) + 1))
    ),  # long, up to 100 kB
)  # fmt: skip


def classify(advisor: Any, question: str, thread_id: str | None = None) -> dict[str, Any]:
    """Ask once (in `thread_id`, or the advisor's default thread); say what happened, how fast."""
    from advisor.errors import InvalidInput

    started = time.perf_counter()
    try:
        answer = advisor.ask(question, thread_id=thread_id)
    except InvalidInput as exc:
        outcome = "refused" if str(exc).strip() else "empty message"
        detail = str(exc)
    except Exception as exc:  # a traceback the user would have seen: a bug
        outcome, detail = "failure", "".join(traceback.format_exception_only(exc)).strip()
    else:
        ungrounded = [n.text for n in answer.numbers if n.provenance is None]
        if not answer.text.strip():
            outcome, detail = "empty answer", ""
        elif ungrounded:
            outcome, detail = "ungrounded", ", ".join(ungrounded)
        else:
            outcome, detail = "answered", ""
    return {"outcome": outcome, "ms": (time.perf_counter() - started) * 1000, "detail": detail}


def run(examples: int, seed_value: int) -> dict[str, Any]:
    from advisor.api import Advisor

    advisor = Advisor(engine="rules")
    advisor.ask("warm-up: L40 bandwidth?")
    records: list[dict[str, Any]] = []

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(question=questions)
    def one(question: str) -> None:
        record = classify(advisor, question, f"fuzz-{len(records)}")  # a thread of its own
        record["question"] = question
        records.append(record)
        if len(records) % 500 == 0:
            print(f"  {len(records):,} questions", file=sys.stderr)

    started = time.perf_counter()
    one()
    seconds = time.perf_counter() - started
    times = sorted(r["ms"] for r in records)
    p50, p95 = p50_p95(times)
    counts: dict[str, int] = {}
    for r in records:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    bad = [r for r in records if r["outcome"] not in ("answered", "refused")]
    slowest = max(records, key=lambda r: r["ms"])
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "examples": len(records),
        "seed": seed_value,
        "outcomes": counts,
        "latency_ms": {
            "p50": p50,
            "p95": p95,
            "p99": times[int(0.99 * (len(times) - 1))],
            "max": times[-1],
        },
        "slowest_question": _short(slowest["question"]),
        "longest_question_chars": max(len(r["question"]) for r in records),
        "with_control_characters": sum(any(ord(c) < 32 for c in r["question"]) for r in records),
        "non_ascii": sum(any(ord(c) > 127 for c in r["question"]) for r in records),
        "problems": [{**r, "question": _short(r["question"])} for r in bad[:20]],
        "seconds": seconds,
        "target_ms": TARGET_MS,
    }


def _short(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + f"... ({len(text):,} chars)")


def write(report: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "fuzz_questions.json").write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    lat = report["latency_ms"]
    lines = [
        "# Fuzzing the question path (rules engine)",
        "",
        f"`python -m eval.fuzz_questions --examples {report['examples']} --seed "
        f"{report['seed']}`, {report['date']}, {report['machine']}, {report['seconds']:.0f} s.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| questions | {report['examples']:,} |",
        *[f"| {k} | {v:,} |" for k, v in sorted(report["outcomes"].items())],
        f"| with control characters | {report['with_control_characters']:,} |",
        f"| with non-ASCII characters | {report['non_ascii']:,} |",
        f"| longest question | {report['longest_question_chars']:,} characters |",
        f"| latency p50 / p95 / p99 | {lat['p50']:.1f} / {lat['p95']:.1f} / {lat['p99']:.1f} ms |",
        f"| latency max (target {report['target_ms']:.0f} ms) | {lat['max']:.1f} ms |",
        "",
        f"Slowest question: {report['slowest_question']}",
        "",
        "Refused questions are the empty, control-only and over-4,000-character ones, each with "
        "a message. Anything else that raised, an empty answer or an ungrounded number would be "
        "listed here:",
        "",
        *([f"- {p['outcome']}: {p['question']}: {p['detail']}" for p in report["problems"]]
          or ["- none"]),
    ]  # fmt: skip
    (RESULTS / "fuzz_questions.md").write_text("\n".join(lines) + "\n", "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    report = run(args.examples, args.seed)
    write(report)
    print((RESULTS / "fuzz_questions.md").read_text("utf-8"))
    failed = report["problems"] or report["latency_ms"]["max"] > TARGET_MS
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
