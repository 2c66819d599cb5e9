"""Writing answers from tool results. Every number printed here is a value of a tool result (or
of a passage being quoted), rounded for reading, so the number guard can trace each one."""

from __future__ import annotations

import re
from typing import Any

HELP = (
    'I answer questions about GPUs for ML: specs ("memory bandwidth of the L40?"), comparisons '
    '("A100 40GB or L40 for serving Llama-2-13B?"), whether a model fits ("Can I fine-tune '
    'Llama-3-8B with QLoRA on an RTX A4000?"), speed, rental cost ("What will a week on an '
    'A6000 cost?") and which GPU to pick. Numbers come from the datasheet table and the '
    "calculator; passages from the articles are cited."
)
FIELD_LABELS = {
    "memory_gb": ("memory", "GB"),
    "bandwidth_gbs": ("memory bandwidth", "GB/s"),
    "fp16_bf16_dense_tflops": ("dense FP16/BF16 tensor", "TFLOPS"),
    "tdp_w": ("board power", "W"),
    "cuda_cores": ("CUDA cores", ""),
    "tensor_cores": ("tensor cores", ""),
}
WORKLOAD_LABELS = {
    "inference": "inference",
    "finetune-full": "full fine-tuning",
    "finetune-lora": "LoRA fine-tuning",
    "finetune-qlora": "QLoRA fine-tuning",
}


def num(value: float | None, unit: str = "") -> str:
    """A value rounded for reading: 2,039 / 48.3 / 5.70 / 0.0065; unit appended."""
    if value is None:
        return "n/a"
    magnitude = abs(value)
    if magnitude >= 100 or float(value).is_integer():
        text = f"{value:,.0f}"
    elif magnitude >= 10:
        text = f"{value:,.1f}"
    elif magnitude >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.2g}"  # two significant digits: 0.37, 0.0065
    return f"{text} {unit}".strip()


def usd(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 100:
        return f"${value:,.0f}"
    return f"${value:,.2f}" if value >= 1 else f"${value:.3g}"


def _gpus(n: int, name: str) -> str:
    return f"one {name}" if n == 1 else f"{n} x {name}"


# ---------------------------------------------------------------- specs


def spec(sheet: dict[str, Any], fields: tuple[str, ...]) -> str:
    if "error" in sheet:
        return str(sheet["error"])
    name = sheet["name"]
    asked = [f for f in fields if sheet.get(f) is not None]
    lines = []
    if asked:
        said = "; ".join(f"{FIELD_LABELS[f][0]} {num(sheet[f], FIELD_LABELS[f][1])}" for f in asked)
        lines.append(f"**{name}**: {said} (datasheet).")
    summary = [
        f"{num(sheet['memory_gb'], 'GB')} {sheet.get('memory_type') or ''}".strip(),
        f"{num(sheet['bandwidth_gbs'], 'GB/s')} bandwidth",
    ]
    if sheet.get("fp16_bf16_dense_tflops"):
        summary.append(f"{num(sheet['fp16_bf16_dense_tflops'], 'TFLOPS')} dense FP16/BF16")
    if sheet.get("tdp_w"):
        summary.append(f"{num(sheet['tdp_w'], 'W')}")
    lead = "Datasheet" if asked else f"**{name}** (datasheet)"
    lines.append(f"{lead}: {', '.join(summary)}; {sheet['architecture']}, {sheet['segment']}.")
    lines.append(f"Source: {sheet['source']}")
    return "\n".join(lines)


def comparison(result: dict[str, Any], priced: dict[str, dict[str, Any]]) -> str:
    if "error" in result:
        return str(result["error"])
    gpus = result["gpus"]
    head = "| | " + " | ".join(g["name"] for g in gpus) + " |"
    rows = [head, "|---" * (len(gpus) + 1) + "|"]
    for f, (label, unit) in FIELD_LABELS.items():
        if f in ("cuda_cores", "tensor_cores"):
            continue
        rows.append(f"| {label} | " + " | ".join(num(g.get(f), unit) for g in gpus) + " |")
    price_cells = []
    for g in gpus:
        summary = priced.get(g["id"], {}).get("summary_usd_per_gpu_hour")
        price_cells.append(f"{usd(summary['median'])}/h" if summary else "no price")
    rows.append("| median rental | " + " | ".join(price_cells) + " |")
    names = {g["id"]: g["name"] for g in gpus}
    leads = result.get("leader_by_field", {})
    said = [f"{FIELD_LABELS[f][0]}: {names[g]}" for f, g in leads.items() if f in FIELD_LABELS]
    level = [FIELD_LABELS[f][0] for f in result.get("tied_fields", {}) if f in FIELD_LABELS]
    text = "\n".join(rows)
    if said:
        text += "\n\nAhead on " + "; ".join(said) + " (lower is better for power)."
    if level:
        text += "\n\nLevel on " + ", ".join(level) + "."
    return text + "\n\nAll values from the datasheet table; prices are current on-demand medians."


# ---------------------------------------------------------------- fit, speed, cost


def _band(band: dict[str, float], unit: str) -> str:
    return f"about {num(band['typical'], unit)} ({num(band['low'])}-{num(band['high'])})"


def _speed(e: dict[str, Any]) -> str | None:
    if e.get("train_tokens_per_s"):
        text = f"Training speed: {_band(e['train_tokens_per_s'], 'tokens/s')}."
        if e.get("train_hours"):
            text += f" Wall time: about {num(e['train_hours']['typical'], 'hours')}."
        return text
    if e.get("decode_tokens_per_s"):
        text = f"Decode speed per sequence: {_band(e['decode_tokens_per_s'], 'tokens/s')}"
        if e.get("time_to_first_token_s"):
            text += f"; time to first token about {num(e['time_to_first_token_s']['typical'], 's')}"
        if e.get("serving_tokens_per_s") and e.get("serving_batch"):
            text += (
                f"; serving {e['serving_batch']} sequences at once about "
                f"{num(e['serving_tokens_per_s']['typical'], 'tokens/s')} in total"
            )
        return text + "."
    return None


def fit(e: dict[str, Any], speed_first: bool = False) -> str:
    workload = WORKLOAD_LABELS.get(e["workload"], e["workload"])
    where = _gpus(e["num_gpus"], e["gpu_name"])
    verdict = "Yes" if e["fits"] else "No"
    fits = "fits on" if e["fits"] else "does not fit on"
    settings = f"{e['precision']}, context {e['context']:,}, batch {e['batch']}"
    head = f"**{verdict}: {e['model_name']} {fits} {where} for {workload}** ({settings})."
    per = "per GPU " if e["num_gpus"] > 1 else ""
    need = (
        f"It needs about {num(e['memory_per_gpu_gb'], 'GB')} {per}of the "
        f"{num(e['usable_memory_per_gpu_gb'], 'GB')} usable"
    )
    need += (
        f", leaving {num(e['headroom_gb'], 'GB')} spare."
        if e["fits"]
        else f", {num(-e['headroom_gb'], 'GB')} short."
    )
    parts = [p for p in e["breakdown_gb"].items() if p[1] > 0]
    breakdown = " + ".join(f"{k.replace('_', ' ')} {num(v, 'GB')}" for k, v in parts)
    lines = [head, need, f"Memory: {breakdown}."]
    speed = _speed(e) if e["fits"] else None
    if speed:
        lines.insert(0 if speed_first else 3, speed)
    cost = e.get("cost")
    if cost and e["fits"]:
        lines.append(_cost_line(e, cost))
    if e.get("assumptions"):
        lines.append("Assumptions: " + "; ".join(e["assumptions"]) + ".")
    return (
        "\n\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:])
        if len(lines) > 3
        else "\n\n".join(lines)
    )


def _cost_line(e: dict[str, Any], cost: dict[str, Any]) -> str:
    gpus = "one GPU" if e["num_gpus"] == 1 else f"{e['num_gpus']} GPUs"
    text = f"Cost: {usd(cost['usd_per_hour'])}/hour for {gpus}"
    if cost.get("usd_per_job") is not None:
        text += f"; about {usd(cost['usd_per_job'])} for the job"
    elif cost.get("usd_per_million_tokens") is not None:
        made = "trained on" if e.get("train_tokens_per_s") else "generated"
        text += f"; about {usd(cost['usd_per_million_tokens'])} per million tokens {made}"
    return (
        text
        + f" ({cost.get('price_provider', 'median price')}, {cost.get('price_date', 'undated')})."
    )


def fit_table(results: list[dict[str, Any]]) -> str:
    first = results[0]
    workload = WORKLOAD_LABELS.get(first["workload"], first["workload"])
    lines = [
        f"**{first['model_name']}, {workload}** ({first['precision']}, context "
        f"{first['context']:,}, batch {first['batch']}):",
        "",
    ]
    for e in results:
        verdict = "fits" if e["fits"] else "does not fit"
        line = (
            f"- **{_gpus(e['num_gpus'], e['gpu_name'])}**: {verdict}: "
            f"{num(e['memory_per_gpu_gb'], 'GB')} of "
            f"{num(e['usable_memory_per_gpu_gb'], 'GB')} usable"
        )
        speed = e.get("decode_tokens_per_s") or e.get("train_tokens_per_s")
        if e["fits"] and speed:
            line += f"; about {num(speed['typical'], 'tokens/s')}"
        if e.get("cost") and e["cost"].get("usd_per_hour") is not None:
            line += f"; {usd(e['cost']['usd_per_hour'])}/hour"
        lines.append(line)
    fitting = [e for e in results if e["fits"]]
    if fitting:
        key = "decode_tokens_per_s" if first["workload"] == "inference" else "train_tokens_per_s"
        fastest = max(fitting, key=lambda e: (e.get(key) or {}).get("typical", 0))
        lines += ["", f"Fastest that fits: {fastest['gpu_name']}."]
    else:
        lines += ["", "None of them fits as asked; try more GPUs or a lower precision."]
    assumptions = first.get("assumptions", [])
    if assumptions:
        lines += [
            "",
            "Assumptions: " + "; ".join(a for a in assumptions if not a.startswith("price")) + ".",
        ]
    return "\n".join(lines)


def min_gpus_line(result: dict[str, Any]) -> str:
    if "error" in result:
        return str(result["error"])
    e = result["estimate"]
    if result["solution"] is None:
        return f"It does not fit on any number of {e['gpu_name']} the calculator considers."
    line = (
        f"It would fit on {_gpus(result['solution'], e['gpu_name'])} "
        f"({num(e['memory_per_gpu_gb'], 'GB')} per GPU)."
    )
    activations = (e.get("breakdown_gb") or {}).get("activations", 0.0)
    if result["solution"] > 8 and activations > e["memory_per_gpu_gb"] / 2:
        # sharding spreads weights and optimizer states, never a GPU's own activations
        line += (
            f" Most of that is activations ({num(activations, 'GB')} per GPU), which more GPUs "
            "do not shrink: gradient checkpointing or a shorter sequence cuts them."
        )
    return line


def estimate_cost(e: dict[str, Any]) -> str:
    cost = e.get("cost")
    head = fit(e)
    if not cost:
        return head + f"\n\nNo rental price on record for the {e['gpu_name']}."
    lines = [head, ""]
    if cost.get("usd_per_month") is not None:
        lines.append(f"Renting it around the clock: about {usd(cost['usd_per_month'])} a month.")
    return "\n".join(lines)


def rental(result: dict[str, Any]) -> str:
    if "error" in result:
        return str(result["error"])
    summary = result.get("summary_usd_per_gpu_hour")
    name = result.get("gpu_name", result["gpu"])
    if not summary:
        return f"No current rental price on record for the {name}."
    count = result["count"]
    text = (
        f"**{name}**: {usd(summary['median'])} per GPU-hour at the median of {count} current "
        f"prices (range {usd(summary['low'])}-{usd(summary['high'])})."
    )
    rent = result.get("rental_usd")
    if rent:
        what = _gpus(rent["num_gpus"], name)
        text += (
            f"\n\n{num(rent['hours'], 'hours')} on {what}: about {usd(rent['median'])} at the "
            f"median price ({usd(rent['low'])} to {usd(rent['high'])})."
        )
    newest = result["prices"][0]
    text += f"\n\nNewest price: {newest['provider']}, {newest['date']} ({newest['source']})."
    return text


def solved(result: dict[str, Any]) -> str:
    e = result["estimate"]
    where = _gpus(e["num_gpus"], e["gpu_name"])
    target, solution = result["target"], result["solution"]
    workload = WORKLOAD_LABELS.get(e["workload"], e["workload"])
    if solution is None:
        what = {
            "max_context": "even a short context",
            "max_batch": "even batch 1",
            "min_gpus": "any number of GPUs the calculator considers",
        }[target]
        return (
            f"**{e['model_name']} does not fit on {where} for {workload}** with {what} at "
            f"{e['precision']}.\n\n" + fit(e)
        )
    if target == "max_context":
        text = (
            f"**Longest context that fits: {solution:,} tokens** for {e['model_name']} on "
            f"{where} ({workload}, {e['precision']}, batch {e['batch']})."
        )
    elif target == "max_batch":
        text = (
            f"**Largest batch that fits: {solution}** sequences of {e['context']:,} tokens for "
            f"{e['model_name']} on {where} ({e['precision']})."
        )
    else:
        text = (
            f"**{e['model_name']} needs {solution} x {e['gpu_name']}** for {workload} "
            f"({e['precision']}, context {e['context']:,})."
        )
    return text + "\n\n" + fit(e)


def recommendation(result: dict[str, Any]) -> str:
    ranked = result["ranked"]
    if not ranked:
        reasons = "; ".join(f"{r['gpu']}: {r['reason']}" for r in result["rejected"][:5])
        return f"No GPU meets every constraint. {reasons}."
    lines = [f"Ranked by {result['ranking']}:", ""]
    for i, row in enumerate(ranked, 1):
        line = (
            f"{i}. **{_gpus(row['num_gpus'], row['gpu_name'])}**: "
            f"{num(row['memory_per_gpu_gb'], 'GB')} of "
            f"{num(row['usable_memory_per_gpu_gb'], 'GB')} "
            f"usable; about {num(row['speed'], row['speed_unit'])}"
        )
        if row.get("usd_per_hour") is not None:
            line += f"; {usd(row['usd_per_hour'])}/hour"
        if row.get("usd_per_unit") is not None:
            line += f" ({usd(row['usd_per_unit'])} {row['unit']})"
        lines.append(line)
    lines += ["", f"{result['considered']} GPUs considered; {result['ruled_out']} ruled out."]
    return "\n".join(lines)


# ---------------------------------------------------------------- passages


def _excerpt(text: str, limit: int = 400) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(". ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit].rsplit(" ", 1)[0]) + " ..."


def extractive(passages: list[dict[str, Any]], query: Any) -> str:
    lines = ["From the articles:", ""]
    for i, p in enumerate(passages[:2], 1):
        lines.append(f"> {_excerpt(p['text'])} [{i}]")
        lines.append("")
    missing = "it names no GPU and model pair I can run the calculator on"
    lines.append(
        f"I could not compute an answer for this question ({missing}); the passages above "
        "are quoted as written and may disagree with the datasheet."
    )
    return "\n".join(lines)


def claim_warning(passage: dict[str, Any], claim: dict[str, Any]) -> str:
    return (
        f"The article '{passage['title']}' ({passage['section']}) says \"{claim['quote']}\"; "
        f"{claim['note']}. The datasheet value is the one to trust."
    )
