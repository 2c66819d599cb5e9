"""What a GPU concept is, in the team's plain words (advisor/data/glossary.yaml), and the figures
that show it on real hardware: a GPU the question names, else a reference GPU that has the
feature, each figure from a tool call so the number guard traces it. The explain answer leads
with the entry and quotes only the article sentences that speak of the concept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from advisor.agent import compose as c
from advisor.agent.query import Query
from advisor.agent.toolbox import REFERENCE_MEMORY, ToolBox

GLOSSARY = Path(__file__).resolve().parent.parent / "data" / "glossary.yaml"


@dataclass(frozen=True)
class Entry:
    topic: str
    lead: str
    more: str
    mentions: tuple[str, ...]


@lru_cache(maxsize=1)
def entries() -> dict[str, Entry]:
    rows = yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))
    return {r["topic"]: Entry(r["topic"], r["lead"], r["more"], tuple(r["mentions"])) for r in rows}


def entry(topic: str | None) -> Entry | None:
    return entries().get(topic or "")


# ---------------------------------------------------------------- figures

Figures = Callable[[Query, ToolBox, str], list[str]]


def _sheet(query: Query, box: ToolBox, reference: str) -> dict[str, Any] | None:
    gpu = next((ref.ids[0] for ref in query.gpus if ref.ids), reference)
    sheet = box.call("gpu_specs", {"gpu": gpu})
    return None if "error" in sheet else sheet


def _rates(field: str, base: str, what: str, reference: str) -> Figures:
    """A GPU's rate in one format against another ("TF32 156 against FP32 19.5 TFLOPS")."""

    def figures(query: Query, box: ToolBox, _topic: str) -> list[str]:
        s = _sheet(query, box, reference)
        if s is None:
            return []
        if not s.get(field):
            return [f"The {s['name']} has no {what}."]
        return [
            f"On the {s['name']}: {c.num(s[field], 'TFLOPS')} {what} against "
            f"{c.num(s[base], 'TFLOPS')} {BASE_LABELS[base]}."
        ]

    return figures


BASE_LABELS = {
    "fp32_tflops": "FP32 without tensor cores",
    "fp16_bf16_dense_tflops": "dense FP16/BF16",
}


def _link(query: Query, box: ToolBox, _topic: str) -> list[str]:
    s = _sheet(query, box, "h100-sxm5-80gb")
    if s is None or not s.get("gpu_link_gbs_per_direction"):
        return []
    pcie = box.call("pcie_links", {"gens": [s.get("pcie_gen") or 4]})
    each = s["gpu_link_gbs_per_direction"]
    # (the datasheet quotes both directions together: the H100's "900 GB/s")
    lines = [f"On the {s['name']}: NVLink {c.num(2 * each, 'GB/s')} in both directions together "
             f"({c.num(each, 'GB/s')} each way)"]  # fmt: skip
    if "error" not in pcie:
        row = pcie["links"][0]
        lines[0] += f", against {c.num(row['gbs'], 'GB/s')} each way for PCIe {row['gen']}.0 x16."
    return lines


def _mig(query: Query, box: ToolBox, _topic: str) -> list[str]:
    s = _sheet(query, box, "a100-sxm4-80gb")
    if s is None:
        return []
    if not isinstance(s.get("mig_max_instances"), int):
        return [f"The {s['name']} has no MIG."]
    size = s.get("mig_smallest_gb")
    each = f" of about {c.num(size, 'GB')} each" if size else ""
    return [f"On the {s['name']}: up to {s['mig_max_instances']} instances{each}."]


def _model_memory(query: Query, box: ToolBox, topic: str) -> list[str]:
    """Weights in 16 and 4 bits (quantization), or the KV cache at the question's context."""
    model = next((m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")), None)
    model = model or "llama-3.1-8b"
    args: dict[str, Any] = {"model": model, "gpu": REFERENCE_MEMORY, "workload": "inference"}
    if topic == "kv_cache":
        args["context"] = query.context or 32768
        # (the weights in the format the thread runs: "llama 3.1 8b q4_k_m at 32k")
        held = query.precision if query.precision in ("q4_k_m", "q8_0", "fp8", "awq") else "bf16"
        e = box.call("estimate", {**args, "precision": held})
        if "error" in e:
            return []
        lines = [f"{e['model_name']} at {e['context']:,} tokens of context: a KV cache of "
                 f"{c.num(e['breakdown_gb']['kv_cache'], 'GB')} for one sequence, beside "
                 f"{c.num(e['breakdown_gb']['weights'], 'GB')} of weights in "
                 f"{e['precision']}."]  # fmt: skip
        spec = box.call("model_specs", {"model": model})
        per_token = spec.get("kv_cache_bytes_per_token_bf16")
        if (
            spec.get("attention_type") in ("GQA", "MHA", "MQA")
            and per_token
            and not spec.get("sliding_window")
        ):  # the plain formula; MLA and sliding windows keep less
            small = box.call("estimate", {**args, "precision": "bf16", "context": 1000})
            per_thousand = (
                f", {c.num(small['breakdown_gb']['kv_cache'], 'GB')} per {small['context']:,} "
                "tokens"
                if "error" not in small
                else ""
            )  # "how much memory does each thousand tokens take?"
            lines.append(
                f"Per token: 2 (a key and a value) x {spec['num_layers']} layers x "
                f"{spec['num_kv_heads']} KV heads x {spec['head_dim']} dimensions x 2 bytes "
                f"(bf16) = {per_token:,} bytes{per_thousand}; times the tokens of context, "
                "times the sequences at once (an FP8 cache halves it)."
            )
        users = query.concurrency or query.batch
        if users and users > 1:  # "with 16 concurrent users": one cache each, weights once
            many = box.call("estimate", {**args, "precision": "bf16", "batch": users})
            if "error" not in many:
                lines.insert(0, f"{e['model_name']} at {e['context']:,} tokens of context for "
                                f"{users} sequences at once: a KV cache of "
                                f"{c.num(many['breakdown_gb']['kv_cache'], 'GB')}, beside "
                                f"{c.num(e['breakdown_gb']['weights'], 'GB')} of weights held "
                                "once.")  # fmt: skip
        return lines
    other = next((m for m in query.models if m.ids and m.family not in (None, "llm")), None)
    if other is not None:  # "faster-whisper in int8 instead of fp16": that model's two sizes
        sizes = []
        for precision in ("fp16", "int8"):
            e = box.call("estimate", {**args, "model": other.ids[0], "precision": precision})
            if "error" in e or "weights" not in e["breakdown_gb"]:
                return []
            sizes.append(f"{c.num(e['breakdown_gb']['weights'], 'GB')} in {precision}")
        return [f"{e['model_name']}'s weights: " + ", ".join(sizes) + "."]
    full = box.call("estimate", {**args, "precision": "bf16"})
    eight = box.call("estimate", {**args, "precision": "q8_0"})
    four = box.call("estimate", {**args, "precision": "q4_k_m"})
    if "error" in full or "error" in four or "error" in eight:
        return []
    return [f"{full['model_name']}'s weights: {c.num(full['breakdown_gb']['weights'], 'GB')} in "
            f"bf16, {c.num(eight['breakdown_gb']['weights'], 'GB')} in GGUF Q8_0, "
            f"{c.num(four['breakdown_gb']['weights'], 'GB')} in GGUF Q4_K_M."
            + _by_hand([full, eight, four])]  # fmt: skip


def _by_hand(rows: list[dict[str, Any]]) -> str:
    """ " By hand, 7.25B parameters x 2, 1 and 0.5 bytes: 14.5, 7.25 and 3.62 GB (...)": the
    sizes worked from the parameter count, as people check them; empty when not known."""
    if not all(e.get("params_b") and e.get("weights_nominal_gb") for e in rows):
        return ""
    per = c.series([c.num(e["nominal_bytes_per_param"]) for e in rows])
    sizes = c.series([c.num(e["weights_nominal_gb"]) for e in rows])
    return (
        f" By hand, {c.num(rows[0]['params_b'])}B parameters x {per} bytes: {sizes} GB (a "
        "format's scales and the layers it keeps in 16 bits add the rest)."
    )


def _fp8(query: Query, box: ToolBox, topic: str) -> list[str]:
    """FP8's rate against BF16 on an H100, and a model's weights in each when one is named
    ("how much memory Llama 3.1 70B needs in each")."""
    lines = _FP8_RATES(query, box, topic)
    model = next((m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")), None)
    if model is None:
        return lines
    args = {"model": model, "gpu": REFERENCE_MEMORY, "workload": "inference"}
    rows = [box.call("estimate", {**args, "precision": p}) for p in ("bf16", "fp8")]
    if any("error" in e for e in rows):
        return lines
    sizes = ", ".join(f"{c.num(e['breakdown_gb']['weights'], 'GB')} in {e['precision']}"
                      for e in rows)  # fmt: skip
    return [*lines, f"{rows[0]['model_name']}'s weights: {sizes}." + _by_hand(rows)]


def _asked_model(query: Query) -> str:
    return next((m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")),
                "llama-3.1-8b")  # fmt: skip


def _formats(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """A model's weights in each four-bit format against bf16."""
    args = {"model": _asked_model(query), "gpu": REFERENCE_MEMORY, "workload": "inference"}
    sizes = []
    for precision, label in (("bf16", "bf16"), ("gptq", "GPTQ 4-bit"), ("awq", "AWQ 4-bit"),
                             ("q4_k_m", "GGUF Q4_K_M")):  # fmt: skip
        e = box.call("estimate", {**args, "precision": precision})
        if "error" in e:
            return []
        sizes.append(f"{c.num(e['breakdown_gb']['weights'], 'GB')} in {label}")
    return [f"{e['model_name']}'s weights: " + ", ".join(sizes) + "."]


def _context_speed(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """One model's decode speed and KV cache at a short and a long context."""
    gpu = next((ref.ids[0] for ref in query.gpus if ref.ids), "rtx-4090")
    long = max(query.context or 32768, 8192)
    args = {"model": _asked_model(query), "gpu": gpu, "workload": "inference", "precision": "bf16"}
    short_e = box.call("estimate", {**args, "context": 2048})
    long_e = box.call("estimate", {**args, "context": long})
    rows = []
    for e in (short_e, long_e):
        decode = e.get("decode_tokens_per_s")
        if "error" in e or not decode:
            return []
        rows.append(
            f"about {c.num(decode['typical'], 'tokens/s')} at {e['context']:,} tokens "
            f"(KV cache {c.num(e['breakdown_gb']['kv_cache'], 'GB')})"
        )
    e = short_e
    return [
        f"{e['model_name']} in bf16 on the {e['gpu_name']}: "
        + ", against ".join(rows)
        + f", beside {c.num(e['breakdown_gb']['weights'], 'GB')} of weights."
    ]


def _pcie(query: Query, box: ToolBox, _topic: str) -> list[str]:
    links = box.call("pcie_links", {"gens": [3, 4, 5]})
    if "error" in links:
        return []
    return ["Each way, x16: " + "; ".join(f"PCIe {r['gen']}.0 {c.num(r['gbs'], 'GB/s')}"
                                          for r in links["links"]) + "."]  # fmt: skip


def _experts(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """A mixture-of-experts model's parameters in all and per token, and its weights in the
    format said (bf16 when none is)."""
    named = [m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")]
    specs = [box.call("model_specs", {"model": m}) for m in [*named, "mixtral-8x7b"]]
    spec = next((s for s in specs if s.get("is_moe") and s.get("active_params")), None)
    if spec is None:
        return []
    args = {"model": spec["id"], "gpu": REFERENCE_MEMORY, "workload": "inference"}
    full = box.call("estimate", {**args, "precision": query.precision or "bf16"})
    if "error" in full or "active_weights_nominal_gb" not in full:
        return []
    fmt, weights = full["precision"], full["breakdown_gb"]["weights"]
    read = full.get("active_weights_gb") or full["active_weights_nominal_gb"]
    return [
        f"{spec['name']}: {spec['total_params'] / 1e9:.1f}B parameters in all, "
        f"{spec['active_params'] / 1e9:.1f}B active per token ({spec['experts_per_token']} of "
        f"{spec['num_experts']} experts); all {c.num(weights, 'GB')} of weights sit in memory "
        f"in {fmt}, while each token reads about {c.num(read, 'GB')} of them (the active "
        "parameters' share)."
    ]


def _training_memory(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """A model's weights for inference against what a full fine-tune with AdamW holds."""
    model = next((m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")), None)
    args = {"model": model or "llama-3.1-8b", "gpu": REFERENCE_MEMORY, "precision": "bf16"}
    served = box.call("estimate", {**args, "workload": "inference"})
    trained = box.call("estimate", {**args, "workload": "finetune-full"})
    if "error" in served or "error" in trained:
        return []
    parts = {k: trained["breakdown_gb"].get(k, 0.0)
             for k in ("weights", "gradients", "optimizer_states")}  # fmt: skip
    weights = served["breakdown_gb"]["weights"]
    return [
        f"{served['model_name']}: {c.num(weights, 'GB')} of weights to serve in bf16; a full "
        f"fine-tune with AdamW in mixed precision holds weights {c.num(parts['weights'], 'GB')} "
        f"(the FP32 master and a 16-bit copy) + gradients {c.num(parts['gradients'], 'GB')} + "
        f"optimizer states {c.num(parts['optimizer_states'], 'GB')}, before activations."
    ]


def _decode_bound(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """A model's weights, read once per token, against a card's bandwidth and the decode speed
    the calculator gives it: why one stream's tokens/s follow the bandwidth."""
    s = _sheet(query, box, "rtx-4090")
    if s is None:
        return []
    model = _asked_model(query)
    e = box.call("estimate", {"model": model, "gpu": s["id"], "precision": "bf16",
                              "workload": "inference", "engine": "vllm"})  # fmt: skip
    speed = (e.get("decode_tokens_per_s") or {}).get("typical") if "error" not in e else None
    if not speed or not e["fits"]:
        return []
    return [f"{e['model_name']} in bf16 on the {s['name']}: each token reads all "
            f"{c.num(e['breakdown_gb']['weights'], 'GB')} of weights through "
            f"{c.num(s['bandwidth_gbs'], 'GB/s')}, and the card's "
            f"{c.num(s['fp16_bf16_dense_tflops'], 'TFLOPS')} sit mostly idle: about "
            f"{c.num(speed, 'tokens/s')} for one stream."]  # fmt: skip


def _split_across(query: Query, box: ToolBox, _topic: str) -> list[str]:
    """A model named with several cards (two when no count is said): its weights, and what each
    card holds when they are split (tensor parallel splits every layer, pipeline parallel the
    stack of layers: either way each card holds about its share)."""
    model = next((m.ids[0] for m in query.models if m.ids and m.family in (None, "llm")), None)
    if model is None:
        return []
    count = next((g.count for g in query.gpus if g.count), None) or query.num_gpus or 2
    args: dict[str, Any] = {"model": model, "gpu": REFERENCE_MEMORY, "workload": "inference"}
    if query.precision:
        args["precision"] = query.precision
    if query.context:
        args["context"] = query.context
    split = box.call("estimate", {**args, "num_gpus": count})
    if "error" in split or "weights_all_gpus_gb" not in split:
        return []
    weights = split["weights_all_gpus_gb"]  # the whole model's, summed over its cards
    line = (
        f"{split['model_name']} in {split['precision']}: {c.num(weights, 'GB')} of weights; "
        f"split over {count} cards, each holds about "
        f"{c.num(split['breakdown_gb']['weights'], 'GB')} of them, "
        f"{c.num(split['memory_per_gpu_gb'], 'GB')} with its share of the KV cache and its own "
        f"runtime ({c.settings(split)})."
    )
    card = next((g.memory_gb for g in query.gpus if g.memory_gb), None)
    if card:  # "on a pair of 24 GB cards": whether each share fits
        room = "fits on" if split["memory_per_gpu_gb"] <= card * 0.97 else "is more than"
        line += f" That {room} a {c.num(card, 'GB')} card."
    return [line]


_FP8_RATES = _rates("fp8_dense_tflops", "fp16_bf16_dense_tflops", "dense FP8", "h100-sxm5-80gb")
FIGURES: dict[str, Figures] = {
    "multi_gpu": _split_across,
    "memory_bandwidth": _decode_bound,
    "tf32": _rates("tf32_dense_tflops", "fp32_tflops", "dense TF32 tensor", "a100-sxm4-80gb"),
    "fp8": _fp8,
    "sparsity": _rates(
        "fp16_bf16_sparse_tflops", "fp16_bf16_dense_tflops", "sparse FP16/BF16", "a100-sxm4-80gb"
    ),
    "tensor_cores": _rates(
        "fp16_bf16_dense_tflops", "fp32_tflops", "dense FP16/BF16 tensor", "rtx-4090"
    ),
    "nvlink": _link,
    "mig": _mig,
    "kv_cache": _model_memory,
    "context_window": lambda query, box, _topic: _model_memory(query, box, "kv_cache"),
    "quant_formats": _formats,
    "context_speed": _context_speed,
    "quantization": _model_memory,
    # "why does vram matter more than tflops for llama 3 70b?": the model's sizes say it
    "vram_matters": lambda query, box, _topic: (
        _model_memory(query, box, "quantization") if query.models else []
    ),
    "pcie": _pcie,
    "moe": _experts,
    "training_memory": _training_memory,
}


def figures(topic: str, query: Query, box: ToolBox) -> list[str]:
    found = FIGURES.get(topic)
    return found(query, box, topic) if found else []
