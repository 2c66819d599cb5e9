"""Breadth on names the catalog was not written from: eval/breadth/unseen.yaml lists 60 GPUs
and LLMs as people type them, with datasheet / config figures looked up independently of the
catalog (its header says how). Each name is asked the way a user would; it counts as right when
the advisor reads it as a catalog entry whose memory and bandwidth (GPUs) or parameter count
(models) agree with the list within 5%. For a name that stands for several variants ("p100"),
the advisor shows them all and asks which: right when one of them agrees.

    python -m eval.breadth_unseen      # prints the table, writes eval/results/breadth_unseen.*
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from advisor.agent.understand import understand
from advisor.calculator import FAMILIES
from advisor.calculator.families import models_of
from advisor.catalog import load_catalog

HERE = Path(__file__).resolve().parent
LIST = HERE / "breadth" / "unseen.yaml"
RESULTS = HERE / "results"
TOLERANCE = 0.05


def _close(value: float | None, truth: float | None) -> bool:
    return value is not None and truth is not None and abs(value - truth) <= TOLERANCE * truth


def _gpu_right(gpu: Any, entry: dict[str, Any]) -> bool:
    pairs = [(entry["memory_gb"], entry["bandwidth_gbs"])]
    if entry.get("per_gpu_memory_gb"):  # a board of several GPUs: per GPU or per board
        pairs.append((entry["per_gpu_memory_gb"], entry["per_gpu_bandwidth_gbs"]))
    return any(_close(gpu.memory_gb, m) and _close(gpu.bandwidth_gbs, b) for m, b in pairs)


def _params_b(model: Any) -> float | None:
    params = getattr(model, "total_params", None)
    return params / 1e9 if params else None


def score(catalog: Any) -> list[dict[str, Any]]:
    entries = yaml.safe_load(LIST.read_text(encoding="utf-8"))
    rows = []
    for entry in entries:
        asked = entry["asked_as"]
        if entry["kind"] == "gpu":
            refs = understand(f"what are the specs of the {asked}?", catalog).gpus
            ids = [i for r in refs for i in r.ids]
            found = [catalog.gpus[i] for i in ids]
            right = any(_gpu_right(g, entry) for g in found)
            read = ", ".join(f"{g.name} ({g.memory_gb:g} GB, {g.bandwidth_gbs:g} GB/s)"
                             for g in found[:4])  # fmt: skip
            truth = f"{entry['memory_gb']:g} GB, {entry['bandwidth_gbs']:g} GB/s"
        else:
            refs = understand(f"can I run {asked} on an H100?", catalog).models
            ids = [i for r in refs for i in r.ids]
            llms = models_of(catalog, FAMILIES["llm"])
            found = [llms[i] for i in ids if i in llms]
            right = any(_close(_params_b(m), entry["params_b"]) for m in found)
            read = ", ".join(f"{m.name} ({_params_b(m) or 0:.2f}B)" for m in found[:4])
            truth = f"{entry['params_b']:g}B"
        rows.append({"kind": entry["kind"], "asked_as": asked, "truth": truth,
                     "read_as": read or "(not read)", "right": right})  # fmt: skip
    return rows


def main() -> int:
    rows = score(load_catalog())
    lines = [
        "# Breadth on names the catalog was not written from",
        "",
        "`python -m eval.breadth_unseen`: each name of eval/breadth/unseen.yaml asked as a user "
        "would; right when the entry read agrees with the list's figures within 5%.",
        "",
    ]
    for kind in ("gpu", "model"):
        mine = [r for r in rows if r["kind"] == kind]
        n = sum(r["right"] for r in mine)
        lines.append(f"- {kind}s: {n} of {len(mine)} right ({n / len(mine):.0%})")
    total = sum(r["right"] for r in rows)
    lines += [f"- all: {total} of {len(rows)} right ({total / len(rows):.1%})", "",
              "| asked as | truth | read as | right |", "|---|---|---|---|"]  # fmt: skip
    for r in rows:
        mark = "yes" if r["right"] else "**no**"
        lines.append(f"| {r['asked_as']} | {r['truth']} | {r['read_as']} | {mark} |")
    text = "\n".join(lines) + "\n"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "breadth_unseen.md").write_text(text, encoding="utf-8")
    summary = {"right": total, "asked": len(rows), "rows": rows}
    (RESULTS / "breadth_unseen.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
