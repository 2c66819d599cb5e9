"""An answer as a person checks it: the calculation receipts (each tool call: inputs, results,
memory breakdown, assumptions), the sources, and a whole conversation as a Markdown document.
Pure functions of `Answer`s; the UI, Slack and `Advisor.export` all show the same things."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.answer import Answer

# the parts of a tool result a receipt shows, in this order
_RESULT_KEYS = ("fits", "memory_per_gpu_gb", "usable_memory_per_gpu_gb", "headroom_gb",
                "solution", "summary_usd_per_gpu_hour", "count", "considered", "ruled_out",
                "leader_by_field", "tied_fields", "error")  # fmt: skip
_SPEC_KEYS = ("name", "memory_gb", "bandwidth_gbs", "fp16_bf16_dense_tflops", "tdp_w", "source")


@dataclass(frozen=True)
class Receipt:
    """One tool call, as a person checks it: what was asked, what was assumed, what came out."""

    tool: str
    inputs: dict[str, Any]
    results: dict[str, Any]
    breakdown_gb: dict[str, float]
    assumptions: list[str]


def receipts(answer: Answer) -> list[Receipt]:
    """One receipt per tool call of the answer, in the order they ran."""
    out = []
    for call in answer.tool_calls:
        result = call.result
        estimate = result.get("estimate", result)  # solve wraps its estimate
        inputs = {k: v for k, v in call.args.items() if k != "searcher" and v is not None}
        if call.name == "search_corpus":
            results: dict[str, Any] = {"passages": len(result.get("passages", []))}
        else:
            results = {k: result[k] for k in _RESULT_KEYS if k in result}
            if call.name == "recommend_gpus":
                ranked = result.get("ranked", [])
                results["ranked"] = [f"{r['num_gpus']} x {r['gpu_name']}" for r in ranked]
            if call.name == "gpu_specs" and "error" not in result:
                results = {k: result.get(k) for k in _SPEC_KEYS}
        out.append(
            Receipt(
                tool=call.name,
                inputs=inputs,
                results=results,
                breakdown_gb=dict(estimate.get("breakdown_gb") or {}),
                assumptions=list(estimate.get("assumptions") or []),
            )
        )
    return out


def receipts_markdown(answer: Answer) -> str:
    """The receipts as Markdown: one block per tool call."""
    if not answer.tool_calls:
        return "_No calculation: this answer comes from the articles only._"
    blocks = []
    for r in receipts(answer):
        lines = [f"**{r.tool}**", "", f"- inputs: `{inputs_text(r.inputs)}`"]
        lines += [f"- {k}: {value_text(v)}" for k, v in r.results.items()]
        if r.breakdown_gb:
            parts = " + ".join(f"{k} {v:.2f} GB" for k, v in r.breakdown_gb.items() if v > 0)
            lines.append(f"- memory per GPU: {parts}")
        lines += [f"- assumed: {a}" for a in r.assumptions]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def sources_markdown(answer: Answer) -> str:
    """The cited passages as Markdown: title, section, document and the passage quoted."""
    if not answer.citations:
        return "_No passage cited._"
    return "\n\n".join(
        f"**[{i}] {c.title}** / {c.section} (`{c.doc}`)\n\n> {_quote(c.text)}"
        for i, c in enumerate(answer.citations, 1)
    )


def warnings_markdown(answer: Answer) -> str:
    return "\n".join(f"- {w}" for w in answer.warnings) if answer.warnings else ""


def conversation_markdown(thread_id: str, turns: list[dict[str, Any]]) -> str:
    """A conversation as one Markdown document: per turn the question, the answer, its warnings,
    receipts and sources, and the feedback given. `turns` as `Advisor.turns()` gives them."""
    lines = [f"# GPU Advisor conversation `{thread_id}`", ""]
    if not turns:
        lines.append("_No questions asked yet._")
    for t in turns:
        answer = Answer.from_dict(t["answer"])
        asked = f"_Asked {t['asked_at']}; {answer.engine} engine._"
        lines += [f"## {t['turn'] + 1}. {_one_line(t['question'])}", "", asked, "", answer.text, ""]
        if answer.warnings:
            lines += ["### Warnings", "", warnings_markdown(answer), ""]
        lines += ["### Calculation receipts", "", receipts_markdown(answer), ""]
        lines += ["### Sources", "", sources_markdown(answer), ""]
        feedback = t.get("feedback")
        if feedback:
            note = f": {feedback['note']}" if feedback.get("note") else ""
            lines += [f"_Feedback: {feedback['rating']}{note}_", ""]
    return "\n".join(lines).rstrip() + "\n"


def inputs_text(args: dict[str, Any]) -> str:
    """A tool call's inputs on one line: "model=llama-3-8b, gpu=l4"."""
    return ", ".join(f"{k}={v}" for k, v in args.items())


def value_text(v: Any) -> str:
    """A result value as a receipt shows it (floats to 3 significant figures)."""
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, dict):
        return ", ".join(f"{k} {value_text(x)}" for k, x in v.items())
    if isinstance(v, list):
        return "; ".join(map(str, v))
    return str(v)


def _one_line(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _quote(text: str, limit: int = 600) -> str:
    return _one_line(text, limit)
