"""What every interface shows besides the answer text: calculation receipts, sources, warnings
(made in advisor.transcript, given here through advisor.api) and the data behind the two charts.
Pure functions of an `Answer`; no web framework here, so the Gradio app and the Slack bot show
the same things."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.api import (
    ASSUMED_PREFIX,
    Answer,
    Receipt,
    inputs_text,
    receipts,
    receipts_markdown,
    sources_markdown,
    value_text,
    warnings_markdown,
)

__all__ = ["COMPARE_FIELDS", "MemoryBar", "Receipt", "comparison", "comparison_figure",
           "display_text", "documents_markdown", "inputs_text", "memory_bars", "memory_figure",
           "receipts", "receipts_markdown", "sources_markdown", "value_text",
           "warnings_markdown"]  # fmt: skip

# ---------------------------------------------------------------- chart data


@dataclass(frozen=True)
class MemoryBar:
    label: str
    breakdown_gb: dict[str, float]
    usable_gb: float
    fits: bool


def memory_bars(answer: Answer) -> list[MemoryBar]:
    """One bar per estimate in the answer (estimate, or the estimate behind a solve)."""
    bars = []
    for call in answer.tool_calls:
        if call.name not in ("estimate", "solve"):
            continue
        e = call.result.get("estimate", call.result)
        if "breakdown_gb" not in e:
            continue
        label = f"{e['model_name']} on {e['num_gpus']} x {e['gpu_name']}"
        bars.append(
            MemoryBar(label, dict(e["breakdown_gb"]), e["usable_memory_per_gpu_gb"], e["fits"])
        )
    return bars


COMPARE_FIELDS = {
    "memory_gb": "Memory (GB)",
    "bandwidth_gbs": "Bandwidth (GB/s)",
    "fp16_bf16_dense_tflops": "Dense BF16 TFLOPS",
    "usd_per_gpu_hour": "Median price (USD/GPU-hour)",
}


def comparison(
    answer: Answer, price: Callable[[str], float | None] | None = None
) -> list[dict[str, Any]]:
    """The GPUs an answer compares, with the chart's fields. `price(gpu_id)` gives the median
    rental price (the prices tool); the chart leaves the price out where none is on record."""
    rows: dict[str, dict[str, Any]] = {}
    for call in answer.tool_calls:
        if call.name != "compare_gpus":
            continue
        for g in call.result.get("gpus", []):
            rows[g["id"]] = {"gpu": g["name"], **{k: g.get(k) for k in COMPARE_FIELDS}}
            if price is not None:
                rows[g["id"]]["usd_per_gpu_hour"] = price(g["id"])
    return list(rows.values())


def memory_figure(bars: list[MemoryBar]) -> Any:
    """A stacked bar per estimate (GB per GPU by part) against the usable memory line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 2.2 + 0.8 * len(bars)))
    parts = list(dict.fromkeys(k for b in bars for k, v in b.breakdown_gb.items() if v > 0))
    for i, bar in enumerate(bars):
        left = 0.0
        for j, part in enumerate(parts):
            width = bar.breakdown_gb.get(part, 0.0)
            ax.barh(i, width, left=left, color=f"C{j}", label=part if i == 0 else None)
            left += width
        ax.plot([bar.usable_gb] * 2, [i - 0.45, i + 0.45], color="black", linewidth=2,
                label="usable memory" if i == 0 else None)  # fmt: skip
    ax.set_yticks(range(len(bars)), [b.label for b in bars])
    ax.set_xlabel("GB per GPU")
    ax.set_title("Memory needed vs usable")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=4, fontsize="small")
    fig.tight_layout()
    return fig


def comparison_figure(rows: list[dict[str, Any]]) -> Any:
    """One small panel per field, a bar per GPU; fields nobody has a value for are left out."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fields = [f for f in COMPARE_FIELDS if any(r.get(f) is not None for r in rows)]
    fig, axes = plt.subplots(1, len(fields), figsize=(3.2 * len(fields), 3), squeeze=False)
    for ax, field in zip(axes[0], fields, strict=True):
        names = [r["gpu"].replace("NVIDIA ", "") for r in rows]
        ax.bar(names, [r.get(field) or 0 for r in rows], color=[f"C{i}" for i in range(len(rows))])
        ax.set_title(COMPARE_FIELDS[field], fontsize="small")
        ax.tick_params(axis="x", labelrotation=30, labelsize="x-small")
    fig.tight_layout()
    return fig


def documents_markdown(report: dict[str, Any]) -> str:
    """What an upload did (Advisor.add_documents' report): documents added, unchanged, the
    claims audit of what was added (disagreements spelled out) and the files not added."""
    lines = []
    for row in report["added"]:
        verb = "Replaced" if row.get("replaced") else "Added"
        lines.append(f"- {verb} **{row['title']}** (`{row['doc_id']}`, {row['published']}, "
                     f"{row['passages']} passages) from {row['file']}")  # fmt: skip
    lines += [f"- Unchanged: {row['file']} is already in the index" for row in report["unchanged"]]
    if report["added"]:
        n = report["claim_counts"]
        lines.append(f"\nClaims audit of what was added: {len(report['claims'])} claims, "
                     f"{n['agrees']} agree, {n['disagrees']} disagree, {n['unchecked']} cannot "
                     "be checked.")  # fmt: skip
        lines += [f"- disagrees: {c['doc']} > {c['section']}: {c['gpu_text']} "
                  f"{c['field']} = {c['value']:g} {c['unit']}; {c['note']}"
                  for c in report["claims"] if c["status"] == "disagrees"]  # fmt: skip
    lines += [f"- **Not added:** {f['error']}" for f in report["failed"]]
    return "\n".join(lines)


def display_text(text: str) -> str:
    """An answer as the chat shows it: its line of assumed defaults ("Assumed, as the question
    did not say: a; b; c.") as a list, which reads on a phone where one long line does not. The
    words and numbers are the answer's own."""
    out = []
    for line in text.split("\n"):
        if line.startswith(ASSUMED_PREFIX) and "; " in line:
            items = line.removeprefix(ASSUMED_PREFIX).removesuffix(".").split("; ")
            head = ASSUMED_PREFIX.rstrip(": ")
            out.append(f"\n\n{head}:\n" + "\n".join(f"- {item}" for item in items) + "\n")
        else:
            out.append(line)
    return "\n".join(out)
