"""Load test: the REST server under concurrent clients on loopback, `rules` engine.

    python -m eval.load_rest [--clients 32] [--seconds 120]   (from the repo root)

Starts `gpu-advisor serve` as its own process (conversations in a fresh SQLite file, the
checkout's index) and warms it up twice: 40 questions one at a time, then the same N clients for
20 s (a server's threads each take their own memory arenas and caches the first time they are
busy: a step, not a leak). Then N client threads run for the given time, each asking the golden
set's questions in a seeded random order; one ask in five is a two-turn conversation (a question,
then a follow-up on the same thread). Records every request's latency and status, and samples the
server's resident memory (VmRSS) every 2 s. Writes eval/results/load_rest.json and .md. Exit 1
on any error, or resident memory growth of 10% or more over the measured run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from advisor.evaluation.scoring import load_cases
from advisor.evaluation.stats import p50_p95
from tests.servers import free_port, gpu_advisor, wait_for

RESULTS = Path(__file__).resolve().parent / "results"
FOLLOW_UPS = ["and the A10G?", "what about on two of them?", "and the A4000?"]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def client(url: str, questions: list[str], until: float, seed: int,
           records: list[dict[str, Any]]) -> None:  # fmt: skip
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as http:
        n = 0
        while time.monotonic() < until:
            n += 1
            thread = f"load-{seed}-{n}"
            turns = [rng.choice(questions)]
            if rng.random() < 0.2:
                turns.append(rng.choice(FOLLOW_UPS))
            for question in turns:
                started = time.perf_counter()
                try:
                    response = http.post("/v1/ask", json={"question": question,
                                                          "thread_id": thread})  # fmt: skip
                    ok = response.status_code == 200 and bool(response.json().get("answer"))
                    status = str(response.status_code)
                except httpx.HTTPError as exc:
                    ok, status = False, type(exc).__name__
                records.append({"ms": (time.perf_counter() - started) * 1000, "ok": ok,
                                "status": status, "question": question})  # fmt: skip


def _load(url: str, questions: list[str], clients: int, seconds: float,
          records: list[dict[str, Any]], pid: int, seed: int) -> list[float]:  # fmt: skip
    """`clients` threads asking until `seconds` have passed; the server's RSS every 2 s."""
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client, args=(url, questions, until, seed + i, records))
        for i in range(clients)
    ]
    for t in threads:
        t.start()
    samples = [rss_mb(pid)]
    while any(t.is_alive() for t in threads):
        time.sleep(2)
        samples.append(rss_mb(pid))
    return samples


def run(clients: int, seconds: float) -> dict[str, Any]:
    questions = sorted({case.turns[0] for case in load_cases()})
    port = free_port()
    home = tempfile.mkdtemp(prefix="advisor-load-")
    env = {"ADVISOR_HOME": home, "ADVISOR_CHECKPOINT": os.path.join(home, "threads.sqlite")}
    with gpu_advisor("serve", "--port", str(port), env=env) as server:
        url = f"http://127.0.0.1:{port}"
        wait_for(f"{url}/healthz", proc=server)
        with httpx.Client(base_url=url, timeout=120) as http:  # warm-up: model, index, caches
            for question in questions[:40]:
                http.post("/v1/ask", json={"question": question}).raise_for_status()
        rss_sequential = rss_mb(server.pid)
        warm: list[dict[str, Any]] = []
        _load(url, questions, clients, 20.0, warm, server.pid, seed=1000)
        rss_start = rss_mb(server.pid)
        records: list[dict[str, Any]] = []
        started = time.perf_counter()
        samples = _load(url, questions, clients, seconds, records, server.pid, seed=0)
        elapsed = time.perf_counter() - started
        rss_end = rss_mb(server.pid)
    times = sorted(r["ms"] for r in records)
    p50, p95 = p50_p95(times)
    errors = [r for r in records if not r["ok"]]
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; clients and server on the same machine",
        "clients": clients,
        "requested_seconds": seconds,
        "seconds": round(elapsed, 1),
        "requests": len(records),
        "errors": len(errors),
        "error_samples": errors[:10],
        "throughput_rps": round(len(records) / elapsed, 2),
        "latency_ms": {
            "p50": p50,
            "p95": p95,
            "p99": times[int(0.99 * (len(times) - 1))],
            "max": times[-1],
        },
        "warm_up_errors": sum(not r["ok"] for r in warm),
        "rss_mb": {
            "after_sequential_warm_up": round(rss_sequential, 1),
            "after_warm_up": round(rss_start, 1),
            "end": round(rss_end, 1),
            "max": round(max(samples), 1),
        },
        "rss_growth_pct": round(100 * (rss_end - rss_start) / rss_start, 2),
        "distinct_questions": len(questions),
    }


def write(report: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "load_rest.json").write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    lat, rss = report["latency_ms"], report["rss_mb"]
    lines = [
        "# REST load test (rules engine)",
        "",
        f"`python -m eval.load_rest --clients {report['clients']} --seconds "
        f"{report['requested_seconds']:.0f}`, {report['date']}, {report['machine']}.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| concurrent clients | {report['clients']} |",
        f"| duration | {report['seconds']} s |",
        f"| requests | {report['requests']:,} ({report['distinct_questions']} golden-set "
        "questions, one in five with a follow-up) |",
        f"| errors | {report['errors']} |",
        f"| throughput | {report['throughput_rps']} requests/s |",
        f"| latency p50 / p95 / p99 / max | {lat['p50']:.0f} / {lat['p95']:.0f} / "
        f"{lat['p99']:.0f} / {lat['max']:.0f} ms |",
        f"| server memory (RSS) after the one-at-a-time warm-up | "
        f"{rss['after_sequential_warm_up']} MB |",
        f"| server memory (RSS) after the concurrent warm-up / end / max | "
        f"{rss['after_warm_up']} / {rss['end']} / {rss['max']} MB |",
        f"| memory growth over the measured run | {report['rss_growth_pct']}% (target under 10%) |",
        f"| errors during the warm-up | {report['warm_up_errors']} |",
    ]
    (RESULTS / "load_rest.md").write_text("\n".join(lines) + "\n", "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    report = run(args.clients, args.seconds)
    write(report)
    print((RESULTS / "load_rest.md").read_text("utf-8"))
    failed = report["errors"] or report["warm_up_errors"] or report["rss_growth_pct"] >= 10
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
