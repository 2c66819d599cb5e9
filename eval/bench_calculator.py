"""Benchmark: time per estimate (target: well under a millisecond).

Run with `python eval/bench_calculator.py [--calls N]`. Prints the figures and writes them to
eval/results/calculator_bench.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from advisor.calculator import Request, estimate, max_context, min_gpus
from advisor.catalog import load_catalog

RESULTS = Path(__file__).resolve().parent / "results"
CASES = {
    "inference, 8B bf16 on RTX 4090 (vLLM)": Request("llama-3-8b", "rtx-4090"),
    "inference, 70B AWQ on A100 80GB": Request("llama-3-70b", "a100-sxm4-80gb", precision="awq"),
    "inference, MoE 8x7B fp8 on 2 H100": Request(
        "mixtral-8x7b", "h100-sxm5-80gb", precision="fp8", num_gpus=2
    ),
    "QLoRA 8B on RTX A4000": Request("llama-3-8b", "rtx-a4000", workload="finetune-qlora"),
    "full fine-tune 70B on 8 H100, ZeRO-3": Request(
        "llama-3-70b", "h100-sxm5-80gb", workload="finetune-full", num_gpus=8
    ),
}


def per_call_us(request: Request, calls: int) -> float:
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            estimate(request)
        runs.append((time.perf_counter() - start) / calls * 1e6)
    return round(statistics.median(runs), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    _ = load_catalog().prices  # load once, as a running advisor has
    results = {label: per_call_us(request, args.calls) for label, request in CASES.items()}
    start = time.perf_counter()
    max_context(Request("llama-3.1-8b", "rtx-4090", precision="bf16"))
    solver_ms = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    min_gpus(Request("llama-3.1-405b", "h100-sxm5-80gb"))
    min_gpus_ms = (time.perf_counter() - start) * 1e3
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "estimate_us_median_of_5": results,
        "max_context_solver_ms": round(solver_ms, 2),
        "min_gpus_solver_ms": round(min_gpus_ms, 2),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "calculator_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "# Calculator benchmark",
        "",
        f"{report['date']} on {report['machine']}; `python eval/bench_calculator.py`.",
        "",
        "| estimate | microseconds per call |",
        "|---|---|",
        *(f"| {label} | {us} |" for label, us in results.items()),
        "",
        f"`max_context` solver (binary search): {report['max_context_solver_ms']} ms; "
        f"`min_gpus` solver: {report['min_gpus_solver_ms']} ms.",
    ]
    text = "\n".join(lines) + "\n"
    (RESULTS / "calculator_bench.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
