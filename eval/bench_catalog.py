"""Benchmark: how fast the catalog answers, cold (a new process per command) and warm (in-process).

Run with `make bench` (or `python eval/bench_catalog.py [--runs N]`). Prints the figures and writes
them to eval/results/catalog_bench.json and .md. Target (issue 2): `gpu-advisor gpus show
a100-sxm4-80gb` answers in well under a second.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from advisor.catalog import Catalog
from advisor.config import PACKAGE_DATA_DIR
from advisor.errors import AdvisorError

RESULTS = Path(__file__).resolve().parent / "results"
COMMANDS = {
    "gpus show a100-sxm4-80gb": ["gpus", "show", "a100-sxm4-80gb"],
    "gpus show a100-sxm4-80gb --json": ["gpus", "show", "a100-sxm4-80gb", "--json"],
    "gpus compare 'A100 SXM4 80GB' L40S": ["gpus", "compare", "A100 SXM4 80GB", "L40S"],
    "models show 'Llama 3 8B'": ["models", "show", "Llama 3 8B"],
}


def _summary(seconds: list[float]) -> dict[str, float]:
    return {
        "min_s": round(min(seconds), 4),
        "median_s": round(statistics.median(seconds), 4),
        "max_s": round(max(seconds), 4),
    }


def cold_cli(runs: int) -> dict[str, dict[str, float]]:
    script = shutil.which("gpu-advisor") or str(Path(sys.executable).parent / "gpu-advisor")
    results = {}
    for label, args in COMMANDS.items():
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([script, *args], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        results[label] = _summary(times)
    return results


def _per_call_us(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        with contextlib.suppress(AdvisorError):
            fn()
    return round((time.perf_counter() - start) / calls * 1e6, 2)


def warm_lookups(calls: int) -> dict[str, float]:
    start = time.perf_counter()
    catalog = Catalog.load(PACKAGE_DATA_DIR)
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    _ = catalog.prices
    prices_s = time.perf_counter() - start
    return {
        "load_gpus_and_models_ms": round(load_s * 1e3, 1),
        "load_prices_ms": round(prices_s * 1e3, 1),
        "get_gpu_by_id_us": _per_call_us(lambda: catalog.get_gpu("a100-sxm4-80gb"), calls),
        "get_gpu_by_alias_us": _per_call_us(
            lambda: catalog.get_gpu("NVIDIA A100-SXM4-80GB"), calls
        ),
        "get_gpu_ambiguous_us": _per_call_us(lambda: catalog.get_gpu("A100"), calls),
        "get_gpu_unknown_with_suggestions_us": _per_call_us(
            lambda: catalog.get_gpu("RTX 9999"), max(calls // 20, 1)
        ),
        "get_model_by_alias_us": _per_call_us(lambda: catalog.get_model("llama3.1:8b"), calls),
        "get_model_generic_size_us": _per_call_us(lambda: catalog.get_model("13b"), calls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20, help="cold CLI runs per command")
    parser.add_argument("--calls", type=int, default=20000, help="warm lookups per measurement")
    args = parser.parse_args()
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "cold_cli_runs": args.runs,
        "cold_cli": cold_cli(args.runs),
        "warm": warm_lookups(args.calls),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "catalog_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "# Catalog benchmark",
        "",
        f"{report['date']} on {report['machine']}; `python eval/bench_catalog.py`.",
        "",
        f"Cold CLI (new process each time, {args.runs} runs):",
        "",
        "| command | min s | median s | max s |",
        "|---|---|---|---|",
    ]
    for label, s in report["cold_cli"].items():
        lines.append(f"| `gpu-advisor {label}` | {s['min_s']} | {s['median_s']} | {s['max_s']} |")
    lines += ["", "Warm, in-process:", "", "| measure | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in report["warm"].items()]
    text = "\n".join(lines) + "\n"
    (RESULTS / "catalog_bench.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
