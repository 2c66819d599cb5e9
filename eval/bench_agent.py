"""Benchmark: answer latency of the agent, per engine.

    python -m eval.bench_agent [--skip-local]   (from the repo root)

Measures, on this machine:
- rules engine, warm: p50 / p95 / max over the phrasings of tests/test_agent_understand.py (103),
  in process, after one warm-up question; retrieval and the calculator included.
  Target p50: 150 ms or less.
- cold `gpu-advisor ask`: wall time of a new process answering one question (imports, catalog,
  embedding model, index open), median of 5 runs, the index already built.
- local engine (Qwen2.5-Coder-1.5B-Instruct Q4_K_M in llama.cpp on the CPU): per-answer latency
  of the five questions of tests/test_agent_local.py, the model already loaded; and its load time.
Writes eval/results/agent_bench.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from advisor.api import Advisor
from advisor.evaluation.stats import p50_p95
from tests.test_agent_local import CASES as LOCAL_CASES
from tests.test_agent_understand import CASES

RESULTS = Path(__file__).resolve().parent / "results"
COLD_QUESTION = "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"


def _percentiles(times: list[float]) -> dict[str, float]:
    p50, p95 = p50_p95(times)
    return {"p50_ms": round(p50, 1), "p95_ms": round(p95, 1), "max_ms": round(max(times), 1),
            "n": len(times)}  # fmt: skip


def rules_warm() -> dict[str, Any]:
    advisor = Advisor(engine="rules")
    advisor.ask(COLD_QUESTION)  # warm-up: loads the embedding model, the index, BM25
    times = []
    for question, _intent, _expected in CASES:
        start = time.perf_counter()
        advisor.ask(question)
        times.append((time.perf_counter() - start) * 1000)
    return _percentiles(times)


def cold_ask(runs: int = 5) -> dict[str, Any]:
    script = shutil.which("gpu-advisor") or str(Path(sys.executable).parent / "gpu-advisor")
    walls = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "ADVISOR_HOME": home}
        subprocess.run([script, "ask", "hello"], env=env, check=True, capture_output=True)
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([script, "ask", COLD_QUESTION], env=env, check=True, capture_output=True)
            walls.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(walls), 2), "runs": [round(w, 2) for w in walls]}


def local() -> dict[str, Any]:
    advisor = Advisor(engine="local")
    start = time.perf_counter()
    advisor._get_model("local").invoke("Say OK.")  # load the GGUF and run one short prompt
    load_s = time.perf_counter() - start
    rows = []
    for question, tool, _must in LOCAL_CASES:
        answer = advisor.ask(question)
        rows.append(
            {
                "question": question,
                "expected_tool": tool,
                "engine": answer.engine,
                "tools": [t.name for t in answer.tool_calls],
                "grounding": answer.grounding_rate,
                "latency_s": round(answer.latency_ms / 1000, 1),
            }
        )
    latencies = [r["latency_s"] for r in rows]
    return {
        "load_and_first_prompt_s": round(load_s, 1),
        "answers": rows,
        "median_s": round(statistics.median(latencies), 1),
        "max_s": max(latencies),
    }


def write(results: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "agent_bench.json").write_text(json.dumps(results, indent=2) + "\n")
    r, c = results["rules_warm"], results["cold_ask"]
    lines = [
        "# Agent benchmark",
        "",
        f"Run {results['date']} on {results['machine']} (`python -m eval.bench_agent`).",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        f"| rules engine, warm, p50 over {r['n']} questions | {r['p50_ms']} ms | 150 ms |",
        f"| rules engine, warm, p95 / max | {r['p95_ms']} / {r['max_ms']} ms | |",
        f"| cold `gpu-advisor ask` (new process, index built), median of {len(c['runs'])} | "
        f"{c['median_s']} s | |",
    ]
    if "local" in results:
        loc = results["local"]
        lines.append(
            f"| local engine, model load + first prompt | {loc['load_and_first_prompt_s']} s | |"
        )
        lines.append(
            f"| local engine, per answer, median / max | {loc['median_s']} / {loc['max_s']} s | |"
        )
        lines += [
            "",
            "Local engine answers (Qwen2.5-Coder-1.5B-Instruct Q4_K_M, llama.cpp, CPU):",
            "",
            "| question | expected tool | tools called | engine | grounding | latency |",
            "|---|---|---|---|---|---|",
        ]
        for row in loc["answers"]:
            lines.append(
                f"| {row['question']} | {row['expected_tool']} | {', '.join(row['tools'])} "
                f"| {row['engine']} | {row['grounding']:.0%} | {row['latency_s']} s |"
            )
    (RESULTS / "agent_bench.md").write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-local", action="store_true", help="Leave out the local engine.")
    args = parser.parse_args()
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "rules_warm": rules_warm(),
        "cold_ask": cold_ask(),
    }
    print("rules warm:", results["rules_warm"], "\ncold ask:", results["cold_ask"], flush=True)
    if not args.skip_local:
        results["local"] = local()
        print("local:", results["local"], flush=True)
    write(results)


if __name__ == "__main__":
    main()
