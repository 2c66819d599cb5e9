"""What the model sees: tool results shortened and labelled, the question's entities as a hint,
and the arguments the question states filled into a small model's tool calls."""

from __future__ import annotations

import json
import re
from typing import Any

from advisor.agent.handlers import FINETUNE_DEFAULT
from advisor.agent.query import Query
from advisor.agent.toolbox import ToolBox

# What the model reads costs time: a prompt is read at about 20 tokens/s on 2 cores, so
# results are cut to what an answer needs.
_KEEP = {
    "gpu_specs": (
        "name",
        "memory_gb",
        "memory_type",
        "bandwidth_gbs",
        "fp16_bf16_dense_tflops",
        "fp8_dense_tflops",
        "tdp_w",
        "cuda_cores",
        "architecture",
        "segment",
    ),
    "estimate": (
        "model_name",
        "gpu_name",
        "num_gpus",
        "workload",
        "precision",
        "context",
        "batch",
        "fits",
        "memory_per_gpu_gb",
        "usable_memory_per_gpu_gb",
        "headroom_gb",
        "breakdown_gb",
        "decode_tokens_per_s",
        "train_tokens_per_s",
        "cost",
    ),
}


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items() if "source" not in k}
    if isinstance(value, list):
        return [_round(v) for v in value[:5]]
    return value


def view(name: str, result: dict[str, Any], box: ToolBox) -> str:
    """A tool result as the model reads it: short, rounded, passages numbered for citing."""
    if "error" in result:
        return f"Error: {result['error']}"
    if name == "search_corpus":
        order = list(box.passages)
        lines = []
        for p in result["passages"]:
            text = re.sub(r"\s+", " ", p["text"])[:600]
            lines.append(f'[{order.index(p["id"]) + 1}] {p["title"]} / {p["section"]}: "{text}"')
        return "\n".join(lines) or "No passages found."
    if name == "prices":
        return json.dumps(_round(_price_view(result)))
    if name == "compare_gpus":  # the datasheet fields a comparison turns on, not every row
        gpus = [{k: g[k] for k in _KEEP["gpu_specs"] if k in g} for g in result["gpus"]]
        return json.dumps(_round({**result, "gpus": gpus}))
    keep = _KEEP.get(name)
    shown = {k: result[k] for k in keep if k in result} if keep else result
    if name == "estimate" and isinstance(shown.get("cost"), dict):
        shown["cost"] = {
            k: shown["cost"].get(k)
            for k in ("usd_per_hour", "usd_per_million_tokens", "usd_per_job")
        }
    return json.dumps(_round(shown))


_FROM_QUESTION = {
    "estimate": ("workload", "precision", "context", "batch", "num_gpus", "engine"),
    "solve": ("workload", "precision", "context", "batch", "engine"),
    "recommend_gpus": ("workload", "precision", "context", "batch", "max_usd_per_hour"),
    "prices": ("hours", "num_gpus"),
    "electricity_cost": ("usd_per_kwh", "hours", "num_gpus"),
    "break_even": ("usd_per_kwh",),
}


# what the question states overrides a model's argument ("QLoRA", "in fp8", "8k context")
_SAID = ("workload", "precision", "context", "batch")


def with_question_defaults(name: str, args: dict[str, Any], query: Query | None) -> dict[str, Any]:
    """Arguments a small model leaves out but the question states (QLoRA, 8k context, two
    GPUs, 100 hours) are filled in from the parsed question. The model's own values stand,
    except against what the user said in so many words: a model that calls "full fine-tuning"
    for a question about QLoRA gets QLoRA."""
    if query is None:
        return args
    counts = [g.count for g in query.gpus if g.count]
    for key in _FROM_QUESTION.get(name, ()):
        value = getattr(query, key, None)
        if key == "num_gpus" and value is None and counts:
            value = counts[0]
        if key == "workload" and value == "finetune":
            value = FINETUNE_DEFAULT
        said = key in _SAID and (
            key != "workload" or (query.workload_given and query.workload != "finetune")
        )
        if value is not None and (args.get(key) in (None, "") or said):
            args[key] = value
    for key in _STATED_ONLY.get(name, ()):  # a job size the question never gave is invented
        if args.get(key) is not None and getattr(query, key, None) is None:
            del args[key]
    stated = {
        **dict(query.train_options),
        "interconnect": query.interconnect,
        "nodes": query.nodes,
        "kv_cache": query.kv_cache,
        "network": query.network or ("10gbe" if query.nodes else None),  # as the rules say
    }
    for key in QUESTION_ONLY.get(name, ()):
        args.pop(key, None)
        if stated.get(key) is not None:
            args[key] = stated[key]
    return args


# arguments only the question sets: not offered to the model (a 1.5B model would guess them), and
# filled in from the parsed question when it states them
QUESTION_ONLY = {
    "estimate": (
        "mixed_precision",
        "optimizer",
        "checkpointing",
        "lora_targets",
        "optimizer_in_backward",
        "chunked_loss",
        "activation_offload",
        "torch_compile",
        "fused_optimizer",
        "offload_optimizer",
        "offload_param",
        "interconnect",
        "pp",
        "nodes",
        "network",
        "kv_cache",
    ),
}


# arguments a small model adds unasked (epochs=1 on a fit question, which then fails for want of
# a dataset size; batch 16 on a QLoRA fit, which then does not fit): kept only when the question
# states them, else the calculator's defaults apply
_STATED_ONLY = {
    "estimate": ("epochs", "dataset_samples", "images", "audio_hours", "batch", "context"),
}


def _price_view(result: dict[str, Any]) -> dict[str, Any]:
    """Prices with the meaning in the keys, so a small model cannot take a total for a rate."""
    view: dict[str, Any] = {
        "gpu": result.get("gpu_name"),
        "usd_per_gpu_hour": result.get("summary_usd_per_gpu_hour"),
        "prices_on_record": result.get("count"),
    }
    rent = result.get("rental_usd")
    if rent:
        key = f"total_usd_for_{rent['hours']:g}_hours_on_{rent['num_gpus']}_gpus"
        view[key] = {k: rent[k] for k in ("median", "low", "high")}
    return view


def entities(query: Query) -> str:
    """What the question names, resolved by the catalog: helps a small model fill arguments."""
    parts = []
    if query.gpus:
        names = [g.ids[0] if g.resolved else g.text for g in query.gpus]
        parts.append("GPUs: " + ", ".join(names))
        counts = [str(g.count) for g in query.gpus if g.count]
        if counts:
            parts.append("GPU counts: " + ", ".join(counts))
    for model in query.models[:2]:
        if model.resolved:
            parts.append(f"model: {model.ids[0]}")
        elif model.size_b:
            parts.append(f"model: {model.size_b:g}b")
    if query.workload:
        parts.append(f"workload: {query.workload}")
    if query.user_price_usd_per_hour is not None:
        parts.append(f"price the user gives: ${query.user_price_usd_per_hour:g} per GPU-hour")
    return ("\nThe question names (catalog ids): " + "; ".join(parts) + ".") if parts else ""
