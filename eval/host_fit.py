"""llama.cpp on the CPU: fit host.HOST_DECODE_SHARE and score the layer split against measurements.

`python -m eval.host_fit` reads eval/calibration/host.csv. Rows marked `fit` (CPU-only decode with
the RAM's kind, speed and channels known) give the share of the RAM's theoretical bandwidth that
llama.cpp's decode reaches: the calculator's weights and KV cache read per token x the measured
tokens/s / the RAM's bandwidth. The fitted share is the median of each source's median (one
vote a source); leave-one-source-out refits on the other sources' rows and predicts the source
held out. Rows marked `score` (some layers on a
GPU, the rest on the CPU) are predicted with the fitted share and scored, never fitted.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from advisor.calculator import Request, estimate, host
from advisor.catalog import load_catalog

ROWS = Path(__file__).parent / "calibration" / "host.csv"
# llama-bench's token generation runs from an empty prompt: a short context
CONTEXT = 128


def rows(use: str) -> list[dict[str, str]]:
    with ROWS.open(newline="") as f:
        return [r for r in csv.DictReader(f) if r["use"] == use]


def request(row: dict[str, str]) -> Request:
    cpu_only = row["setting"] == "cpu-only"
    return Request(
        model=row["model"],
        gpu="cpu" if cpu_only else row["gpu"],
        engine="llama.cpp",
        precision=row["precision"],
        context=CONTEXT,
        ram=row["ram"] or None,
        ram_channels=int(row["channels"]) if row["channels"] else None,
        gpu_layers=None if cpu_only else int(row["gpu_layers"]),
    )


def predicted(row: dict[str, str], share: float) -> float:
    """The estimate's decode tokens/s for the row with HOST_DECODE_SHARE = `share`."""
    kept = host.HOST_DECODE_SHARE
    host.HOST_DECODE_SHARE = share
    try:
        decode = estimate(request(row), load_catalog()).decode_tokens_per_s or {}
    finally:
        host.HOST_DECODE_SHARE = kept
    return float(decode["typical"])


def implied_share(row: dict[str, str]) -> float:
    """The share that makes the CPU-only estimate meet the row (decode is proportional to it)."""
    return float(row["decode_tokens_per_s"]) / predicted(row, 1.0)


def source(row: dict[str, str]) -> str:
    return row["source"].split("@")[0]


def error(pred: float, measured: float) -> float:
    return abs(pred / measured - 1)


def _median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def _by_source(fit: list[dict[str, str]], shares: dict[str, float], held: str = "") -> float:
    """The median of each source's median share: one vote a source, however many rows it has
    (four quantisations of one model on one machine are one measurement of that machine)."""
    per: dict[str, list[float]] = {}
    for r in fit:
        if source(r) != held:
            per.setdefault(source(r), []).append(shares[r["id"]])
    return _median(_median(v) for v in per.values())


def report() -> dict[str, Any]:
    fit = rows("fit")
    shares = {r["id"]: implied_share(r) for r in fit}
    share = _by_source(fit, shares)
    in_sample = [error(share / shares[r["id"]], 1.0) for r in fit]
    loso = []
    for held in {source(r) for r in fit}:
        s = _by_source(fit, shares, held)
        loso += [error(s / shares[r["id"]], 1.0) for r in fit if source(r) == held]
    scored = [(r, predicted(r, share)) for r in rows("score")]
    return {
        "share": share,
        "implied": shares,
        "in_sample": _median(in_sample),
        "loso": _median(loso),
        "scored": [(r["id"], p, float(r["decode_tokens_per_s"])) for r, p in scored],
        "scored_median": _median(error(p, float(r["decode_tokens_per_s"])) for r, p in scored),
    }


def main() -> None:
    result = report()
    print(f"host.HOST_DECODE_SHARE fitted: {result['share']:.3f} (in the code: "
          f"{host.HOST_DECODE_SHARE:g}) on {len(result['implied'])} CPU-only rows")  # fmt: skip
    for rid, s in result["implied"].items():
        print(f"  {rid}: implied share {s:.3f}")
    print(f"CPU-only decode: in-sample median error {result['in_sample']:.1%}, "
          f"leave-one-source-out {result['loso']:.1%}")  # fmt: skip
    print("Layer split (scored, not fitted), predicted vs measured tokens/s:")
    for rid, p, m in result["scored"]:
        print(f"  {rid}: {p:.2f} vs {m:.2f} ({p / m - 1:+.0%})")
    print(f"  median error {result['scored_median']:.1%} over {len(result['scored'])} rows")


if __name__ == "__main__":
    main()
