"""Rules of GPU sizing that people ask about in so many words, each answered with a verdict
computed for what the question names.

"Do I get 2x tokens/s with a second card?", "does NVLink make two cards one big GPU?", "should I
compare GPUs by CUDA cores?", "why is this card slow for LLMs?", "is the 80GB one also faster?",
"does PCIe gen 3 matter?", "does FP8 make inference faster?", "why does fine-tuning need so much
more memory than inference?", "is MIG worth it for small models?". Each principle has a cue (the
words that ask it), the entities it needs, and an answer that leads with yes, no or the deciding
factor, then the computed figures that decide it (tool calls, so the number guard can trace
them), then why. A principle whose entities are missing answers None and the question goes to the
handler its other words choose.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from advisor.agent import compose as c
from advisor.agent.handlers import (
    DATA_PARALLEL_WHY,
    HOME_PRECISION,
    MONEY_ASKED,
    SAME_WITHIN,
    SUPPLY_SAID,
    VALUE_ASKED,
    YES_NO,
    Draft,
    billed_hours,
    cap_on_one,
    cards_under_limit,
    cpu_of_the_machine,
    electricity_bill,
    estimate_args,
    fine_asked,
    gpu_choices,
    gpus_named,
    largest_llm_each,
    memory_buys,
    multiple_asked,
    on_the_circuit,
    pcie_gbs,
    run_at_home,
    share_said,
    sized_at_home,
    supply_watts,
    typical_job_hours,
    watts_said,
)
from advisor.agent.query import SWAP_TO, GpuRef, ModelRef, Query, card_named_in
from advisor.agent.toolbox import REFERENCE_MEMORY, ToolBox
from advisor.agent.understand import ENGINE_WORDS, SLOT_ONLY, SLOT_POWER_W, gpu_mentions
from advisor.calculator.factors import TENSOR_PARALLEL_ENGINES
from advisor.catalog import load_catalog

REFERENCE_MODEL = ModelRef("Llama-3.1-8B", ("llama-3.1-8b",), "llm")  # an LLM job named by none
REFERENCE_TRAINING = ("resnet-50", "vision")  # a training job named by none: the articles' own

Answer = Callable[[Query, ToolBox], Draft | None]


Applies = Callable[[Query], bool]


def _one_gpu(query: Query) -> bool:
    """The question names a GPU (any count of one kind)."""
    return any(gpu_choices(g) for g in query.gpus)


def _named_model(query: Query) -> ModelRef | None:
    """The first LLM the question names (by name or by size), if any."""
    named = [m for m in query.models if m.family in (None, "llm") and (m.ids or m.size_b)]
    return named[0] if named else None


def _same_gpu(query: Query) -> bool:
    """One kind of GPU, whatever the count ("two 3090s", "a second 3090")."""
    return len(gpus_named(query)) == 1


def _not_training(query: Query) -> bool:
    """No training said: a model served (its KV cache, not a training step's activations)."""
    return query.workload in (None, "inference")


def _several(query: Query) -> bool:
    """More than one GPU in the job ("two 3090s", "4x a100", "on 8 gpus")."""
    return any((g.count or 1) > 1 for g in query.gpus) or (query.num_gpus or 1) > 1


def _link_only(query: Query) -> bool:
    """A GPU's links asked about for themselves, not for a job (that is the link intent's)."""
    return _one_gpu(query) and not query.models and not query.workload_given


def _unified(gpu_id: str) -> bool:
    """An Apple chip (its GPU shares the system's memory)."""
    return bool(load_catalog().gpus[gpu_id].unified_memory)


def _anything(query: Query) -> bool:
    return True


@dataclass(frozen=True)
class Principle:
    """A rule of sizing: the words that ask it, the intent such a question is (what the
    understanding step reports), when it applies, and its answer."""

    name: str
    kind: str  # the intent of the intent table this principle answers for
    cue: re.Pattern[str]
    answer: Answer
    applies: Applies = _one_gpu


# "how many MIG instances max can one A30 be carved into": the datasheet's count, not the idea
_MIG_COUNT = re.compile(r"\bhow many (?:mig )?(?:instances|slices|partitions)\b")


# "the same VRAM and bandwidth as the desktop 5090?": whether two cards are alike, asked
_SAME_AS = re.compile(
    r"\bsame (?!(?:price|cost|rate|money|budget|spend)\b)(?:[\w/-]+ (?:and |& )?){0,4}as\b"
)


def _mig_count_only(query: Query) -> bool:
    """ "how many MIG instances can one A30 be carved into?": the figure alone, no why."""
    low = query.low
    # (not "is that true? how many slices and how much memory each?": the whole answer)
    return bool(_MIG_COUNT.search(low)) and not re.search(
        r"\bexplain\w*|\bwhy\b|\btrue\b|\beach (?:person|user|of us)\b"
        r"|\bhow much (?:memory|vram) (?:per (?:slice|instance)|each (?:slice|instance|gets)"
        r"|each\W*$)",
        low,
    )


def _first_gpu(query: Query) -> tuple[GpuRef, str] | None:
    for ref in query.gpus:
        ids = gpu_choices(ref)
        if ids:
            return ref, ids[0]
    return None


# the job a data-parallel question about no model is sized on: a model each card holds a copy of
DATA_PARALLEL_MODEL = ModelRef("BERT-Large (uncased)", ("bert-large",), "transformer")


def _model(query: Query) -> ModelRef:
    return _named_model(query) or REFERENCE_MODEL


def _decode(e: dict[str, Any]) -> float | None:
    return (e.get("decode_tokens_per_s") or {}).get("typical")


def _draft(lines: list[str], model: ModelRef) -> Draft:
    """The answer's paragraphs, with the note on a reference model when one stood in."""
    note = _reference_note(model)
    return Draft("\n\n".join([*lines, note] if note else lines))


def _reference_note(model: ModelRef) -> str:
    if model is REFERENCE_MODEL or model is DATA_PARALLEL_MODEL:
        return f"Sized on {model.text}, as the question names no model."
    return ""


# ---------------------------------------------------------------- more GPUs, more speed?


def more_gpus(query: Query, box: ToolBox) -> Draft | None:
    """One card against N of the same on the question's job: the computed speed of each."""
    found = _first_gpu(query)
    if found is None:
        return None
    _ref, gpu = found
    counts = [g.count for g in query.gpus if g.count and g.count > 1]
    n = max([*counts, query.num_gpus or 0, 2])
    model = _job_model(query)
    asked = replace(query, workload=query.workload or "inference")
    one = box.call("estimate", estimate_args(asked, gpu, 1, model))
    many = box.call("estimate", estimate_args(asked, gpu, n, model))
    if "error" in one or "error" in many:
        return None
    cards = f"{n} x {many['gpu_name']}"
    if model.family == "diffusion" and asked.workload == "inference":
        if not one["fits"] and not (query.precision or model.precision):
            # as the card runs it (8-bit weights, as ComfyUI and Forge load FLUX on 24 GB)
            lighter = box.call("estimate", {**estimate_args(asked, gpu, 1, model),
                                            "precision": "fp8"})  # fmt: skip
            one = lighter if "error" not in lighter and lighter["fits"] else one
        return _draft([_one_picture_per_card(one, n, query.low)], model)
    if not many["fits"] and (home := sized_at_home(asked, model)) is not asked:
        # "gemma 27b on my 3090: a second one, twice as fast?": as it runs at home, in 4 bits
        alone, both = (box.call("estimate", estimate_args(home, gpu, k, model)) for k in (1, n))
        if "error" not in alone and "error" not in both and both["fits"]:
            one, many = alone, both
    if not many["fits"]:
        return Draft(f"**No: {many['model_name']} does not fit even on {cards}** "
                     f"({c.settings(many)}).\n\n{c.memory_line(many)}")  # fmt: skip
    key, unit = ("decode_tokens_per_s", "tokens/s")
    if many.get("workload") != "inference":
        key = "train_tokens_per_s" if many.get("train_tokens_per_s") else "train_samples_per_s"
        unit = "tokens/s" if key == "train_tokens_per_s" else "samples/s"
    fast = (many.get(key) or {}).get("typical")
    if not one["fits"]:
        head = (f"**The second card is what makes it run: {many['model_name']} does not fit on "
                f"one {one['gpu_name']}, and on {cards} it runs at about {c.num(fast, unit)}** "
                f"({c.settings(many)}).")  # fmt: skip
        return Draft("\n\n".join([head, c.memory_line(one)]))
    slow = (one.get(key) or {}).get("typical")
    if not slow or not fast:
        return None
    gain = fast / slow
    figures = (f"about {c.num(fast, unit)} on {cards} against {c.num(slow, unit)} on one "
               f"({c.settings(many)})")  # fmt: skip
    weights = one["breakdown_gb"].get("weights")
    if key == "decode_tokens_per_s" and weights:  # what every token reads, whatever the split
        figures += f"; every token reads all {c.num(weights, 'GB')} of weights"
    if gain >= 0.8 * n:
        head = f"**Yes, close to it: {figures}.**"
    elif gain >= 1.15:
        head = f"**No, not {n}x: some gain, {figures}.**"
    else:
        head = f"**No: {figures}.**"
    engine = str(many.get("engine") or "")
    if key == "decode_tokens_per_s" and engine not in TENSOR_PARALLEL_ENGINES:
        why = (
            "Split by layers (the default here), the cards work one after the other on each "
            "token: each reads its share of the weights at its own "
            f"{c.num(many['gpu_bandwidth_gbs'], 'GB/s')}, so a token takes about as long as on "
            "one card. A second card adds memory (a bigger model, a longer context, more "
            "requests at once), not single-stream speed; tensor parallelism (vLLM, "
            "TensorRT-LLM) splits every layer instead and gains some, paying an all-reduce "
            "over the link per layer."
        )
    elif key == "decode_tokens_per_s":
        why = (
            "Tensor parallelism splits every layer across the cards, so each reads only its "
            f"share of the weights at {c.num(many['gpu_bandwidth_gbs'], 'GB/s')}; every layer "
            f"then all-reduces its activations over the link ({many.get('interconnect') or 'PCIe'})"
            ", which eats into the gain."
        )
    else:
        why = (
            "Data-parallel training runs a copy per card and all-reduces the gradients once "
            "per step; the gain falls short of the card count by the time that exchange takes "
            "over the link."
        )
    parts = [head, why]
    return _draft(parts, model)


def _one_picture_per_card(one: dict[str, Any], n: int, low: str) -> str:
    """Image pipelines (diffusers, ComfyUI) run each picture's denoiser on one GPU: more cards
    do not pool their memory for it nor make one picture faster; each makes its own pictures,
    so pictures per hour add up."""
    per = c.metrics_of(one)
    rate = f" (about {c.ratio_figure(per[0][1]['typical'], per[0][2])} each)" if per else ""
    fits = "fits" if one["fits"] else "does not fit"
    need = (f"{one['model_name']} needs about {c.num(one['memory_per_gpu_gb'], 'GB')} on each "
            f"card ({fits} in the {c.usable(one)} on one "
            f"{one['gpu_name']})")  # fmt: skip
    if one["fits"] and re.search(r"\bthroughput\b|\bper (?:hour|minute|day)\b|\bbatch\w*"
                                 r"|\bmore (?:images|pictures|pics)\b", low):  # fmt: skip
        return (f"**Yes, for pictures per hour: {n} cards make {n} pictures at a time, each on "
                f"its own card{rate}; not for one picture, which runs on one GPU.** {need}; the "
                "cards run a copy of the pipeline each (or a queue per card).")  # fmt: skip
    return (
        f"**No: an image pipeline runs each picture's denoiser on one GPU, so {n} cards do "
        f"not add up their memory for it nor make one picture faster; {need}.** A second "
        f"card gives a second picture at the same time{rate}, with a second copy of the "
        "pipeline or a second queue (diffusers can place a text encoder on another card, "
        "not split the denoiser)."
    )


def _one_card_asked(q: Query) -> bool:
    """No second card in the question ("would a second 3090 make mixtral faster" is not)."""
    counts = [g.count or 1 for g in q.gpus] + [q.num_gpus or 1]
    more = re.search(r"\b(?:second|another|extra|more|two|2) (?:gpus?|cards?|\d{4}s?)\b",
                     q.low)  # fmt: skip
    return max(counts) == 1 and not more


# ---------------------------------------------------------------- mixture of experts


def experts(query: Query, box: ToolBox) -> Draft | None:
    """ "Qwen3-30B-A3B generates faster than Qwen3-14B though it's twice as big: why?": a
    mixture of experts reads only its active parameters per token."""
    specs = []
    for ref in query.models[:3]:
        if ref.ids and (ref.family or "llm") == "llm":
            sheet = box.call("model_specs", {"model": ref.ids[0]})
            if "error" not in sheet:
                specs.append((ref, sheet))
    moe = [(r, m) for r, m in specs if m.get("active_params") and m.get("num_experts")]
    if not moe:
        return None
    ref, m = moe[0]
    active, total = m["active_params"] / 1e9, m["total_params"] / 1e9
    name = m.get("name") or ref.text
    lines = [f"**Active parameters decide it: {name} is a mixture of experts; each token runs "
             f"{m['experts_per_token']} of its {m['num_experts']} experts, {c.num(active)}B of "
             f"its {c.num(total)}B parameters, so generating a token reads only those "
             "weights.**"]  # fmt: skip
    dense = [(r, d) for r, d in specs if not d.get("num_experts")]
    if dense:
        other = dense[0][1]
        lines.append(f"{other.get('name') or dense[0][0].text} is dense: every token reads all "
                     f"{c.num(other['total_params'] / 1e9)}B of its parameters.")  # fmt: skip
    found = _first_gpu(query)
    if found is not None:
        runs = [box.call("estimate", estimate_args(query, found[1], None, r))
                for r, _ in (moe[:1] + dense[:1])]  # fmt: skip
        if "error" in runs[0]:
            return None
        if not runs[0]["fits"]:  # "only 3B active, so it fits on my 8 GB card?": no, all is held
            from advisor.agent.handlers import fit

            held = fit(replace(query, models=(moe[0][0],)), box)
            head, _, rest = held.text.partition("\n\n")
            why = (f"Only {c.num(active)}B of its {c.num(total)}B parameters run per token, which "
                   f"sets its speed; its memory must hold all {c.num(total)}B.")  # fmt: skip
            return Draft("\n\n".join([head, why, rest]), held.citations, held.warnings)
        speeds = [(e["model_name"], _decode(e)) for e in runs if "error" not in e and e["fits"]]
        if speeds and all(v for _, v in speeds):
            said = " against ".join(f"about {c.num(v, 'tokens/s')} for {n}" for n, v in speeds)
            lines.append(f"Computed decode on the {runs[0]['gpu_name']} "
                         f"({c.num(runs[0]['gpu_bandwidth_gbs'], 'GB/s')}, {c.settings(runs[0])}):"
                         f" {said}.")  # fmt: skip
        if (read := _weights_read_per_token(runs)) is not None:
            lines.append(read)
    lines.append(f"Memory is another matter: all {c.num(total)}B parameters must be held, so it "
                 "needs the memory of a model its full size.")  # fmt: skip
    return Draft("\n\n".join(lines))


def _weights_read_per_token(runs: list[dict[str, Any]]) -> str | None:
    """ "Each token reads about 2.03 GB of Qwen3-30B-A3B's 18.5 GB of weights, against all
    19.7 GB of Qwen3-32B's": the bytes behind the two speeds (estimates of a mixture of experts
    and, when given, a dense model)."""
    moe = runs[0]
    active, held = moe.get("active_weights_gb"), (moe.get("breakdown_gb") or {}).get("weights")
    if "error" in moe or not (active and held):
        return None
    line = (f"Each token reads about {c.num(active, 'GB')} of {moe['model_name']}'s "
            f"{c.num(held, 'GB')} of weights")  # fmt: skip
    dense = runs[1] if len(runs) > 1 and "error" not in runs[1] else None
    if dense is not None and (whole := (dense.get("breakdown_gb") or {}).get("weights")):
        line += f", against all {c.num(whole, 'GB')} of {dense['model_name']}'s"
    return line + "."


# ---------------------------------------------------------------- which of two models


def model_choice(query: Query, box: ToolBox) -> Draft | None:
    """ "Whisper large-v3 or large-v3-turbo on my 6 GB laptop?": both models on the card, the
    faster one that fits first (speed and memory computed; quality is not measured here)."""
    found = _first_gpu(query)
    named = [m for m in query.models if m.ids]
    if found is None or len(named) != 2 or named[0].family != named[1].family:
        return None
    low = query.low
    a, b = (low.find(m.text.lower()) for m in named)
    between = low[min(a, b) : max(a, b)] if a >= 0 and b >= 0 else ""
    if not re.search(r"\bor\b|\bvs\.?\b|\bversus\b", between) or re.search(
        r"\b(?:together|both|at the same time|at once|alongside)\b", low
    ):
        return None  # "llama and qwen together on my 3090": both at once, not one of them
    runs = [box.call("estimate", estimate_args(query, found[1], None, m)) for m in named]
    if any("error" in e for e in runs) or not all(c.metrics_of(e) for e in runs):
        return None
    local = not query.precision and runs[0].get("family", "llm") == "llm"
    if local and not any(e["fits"] for e in runs) and runs[0]["workload"] == "inference":
        home = run_at_home(query)
        runs = [box.call("estimate", estimate_args(home, found[1], None, m)) for m in named]
        if any("error" in e for e in runs) or not all(c.metrics_of(e) for e in runs):
            return None
    fitting = [e for e in runs if e["fits"]]
    if not fitting:
        return None
    speed = {e["model_name"]: c.metrics_of(e)[0] for e in runs}
    best = max(fitting, key=lambda e: speed[e["model_name"]][1]["typical"])
    other = next(e for e in runs if e is not best)
    label, band, unit = speed[best["model_name"]]
    slow = speed[other["model_name"]][1]["typical"]
    if other["fits"]:
        head = (f"**{best['model_name']}: about {c.num(band['typical'] / slow)}x the "
                f"{label} of {other['model_name']} on the {best['gpu_name']}** "
                f"({c.ratio_figure(band['typical'], unit)} against "
                f"{c.ratio_figure(slow, unit)}; {c.settings(best)}).")  # fmt: skip
    else:
        head = (
            f"**{best['model_name']}: the one of the two that fits on the "
            f"{best['gpu_name']}** ({c.settings(best)}); {other['model_name']} does not."
        )
    if len({e.get("resolution") for e in runs}) > 1:  # "sdxl or sd 1.5": each at its own size
        head += " Each runs at its native size: " + ", ".join(
            f"{e['model_name']} {c.num(e['resolution'], 'px')}" for e in runs) + "."  # fmt: skip
    lines = [head, *(f"{e['model_name']}: {c.memory_line(e)}" for e in runs)]
    lines.append("Speed and memory are computed here; how the two compare in quality is not: "
                 "check their model cards and benchmarks for your task.")  # fmt: skip
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- NVLink pools memory?


# the link itself asked about: "do RTX 4090s connect over NVLink?", "joined by NVLink: is that
# right?", "does the 4090 even have nvlink"
_NVLINK_ASKED = re.compile(
    r"\b(?:do|does|can|are|is|have|has)\b[^.?!]{0,40}\b(?:connect\w*|join\w*|support\w*|have|has"
    r"|use|bridge\w*|link\w*)\b[^.?!]{0,20}\bnvlink\b|\bnvlink\b[^?]{0,80}\b(?:is (?:that|this|it)"
    r" (?:right|true|correct)|right\?|true\?)"
    r"|\b(?:can|could|should|do) (?:i|we|you) (?:just |simply )?nv ?link\b"  # "can i nvlink them"
)


def pooling(query: Query, box: ToolBox) -> Draft | None:
    """ "Do two bridged A6000s act like one 96 GB GPU?": no; what the link gives."""
    found = _first_gpu(query)
    if found is None:
        return None
    ref, gpu = found
    n = max(ref.count or 0, query.num_gpus or 0, 2)
    sheet = box.call("gpu_specs", {"gpu": gpu, "num_gpus": n})
    if "error" in sheet:
        return None
    name, memory = sheet["name"], sheet["memory_gb"]
    total = (sheet.get("totals") or {}).get("memory_gb", memory * n)
    two = f"{n} GPUs of {c.num(memory, 'GB')} each, not one of {c.num(total, 'GB')}"
    head = f"**No: {n} x {name} are {two}.**"
    job = None
    image = next((m for m in query.models if m.ids and m.family == "diffusion"), None)
    if image is not None:  # "a single SDXL render can use all 96 GB?": one card renders it
        return _image_on_one_card(query, box, image, gpu, sheet, n, two)
    if query.models:  # "can two 3090s pool their vram for a 70b?": the job decides the verdict
        # (over the link the cards have, not the NVLink a quote claims for them)
        e = box.call("estimate", estimate_args(replace(query, interconnect=None), gpu, n,
                                               _model(query)))  # fmt: skip
        if "error" not in e:
            job = e
            if e["fits"]:
                head = (f"**Yes, split across the cards: {e['model_name']} fits on {n} x {name}** "
                        f"({c.settings(e)}), though they stay {two}.")  # fmt: skip
            else:
                head = (f"**No: {e['model_name']} does not fit even split across {n} x {name}** "
                        f"({c.settings(e)}); they are {two}.")  # fmt: skip
    link = sheet.get("gpu_link_gbs")
    bridged = sheet.get("gpu_link") in ("bridge", "switch") and link
    if not bridged and _NVLINK_ASKED.search(query.low):
        # "they say the four are joined by NVLink: is that right?": the claim about the link first
        fit = head.replace("**", "").replace("Yes, split across the cards:", "Split across them,")
        fit = fit.replace("No: ", "", 1)
        either = re.search(
            r"\bnvlink or pcie\b|\bpcie or nvlink\b", query.low
        )  # no "no" to either/or
        said = "The" if either else "No: the"
        head = (
            f"**{said} {name} has no NVLink; the cards talk over PCIe.** {fit[0].upper()}{fit[1:]}"
        )
    lines = [head]
    if bridged:
        lines.append(
            f"Each card reads its own memory at {c.num(sheet['bandwidth_gbs'], 'GB/s')}; NVLink "
            f"joins them at {c.num(link, 'GB/s')}, far slower than that, so frameworks see two "
            "devices and a model must be split between them."
        )
    elif "has no NVLink" in head:  # (said already): the card's own memory only
        lines.append(f"Each card reads its own memory at {c.num(sheet['bandwidth_gbs'], 'GB/s')}.")
    else:
        lines.append(
            f"The {name} has no NVLink: the cards talk over PCIe, and each reads its own memory "
            f"at {c.num(sheet['bandwidth_gbs'], 'GB/s')}."
        )
    lines.append(
        f"Software can still use all {c.num(total, 'GB')}: it splits the model across the "
        "cards (llama.cpp layer split, vLLM tensor parallel, FSDP/DeepSpeed for training), "
        "and the link carries what crosses between them."
    )
    for other in [g for g in gpus_named(query) if g != gpu][:1]:
        # "four 4090s instead of one A100 80GB": the one card weighed against them
        one = box.call("gpu_specs", {"gpu": other})
        if "error" not in one:
            lines.append(f"The {one['name']} you weigh them against is one GPU of "
                         f"{c.num(one['memory_gb'], 'GB')}: a model up to about that size runs on "
                         "it whole, with no split.")  # fmt: skip
    if job:
        lines.append(c.memory_line(job))
    return Draft("\n\n".join(lines))


def _image_on_one_card(
    query: Query,
    box: ToolBox,
    model: ModelRef,
    gpu: str,
    sheet: dict[str, Any],
    n: int,
    two: str,
) -> Draft:
    """An image model on cards said to pool their memory: each image is rendered on one card,
    so what one card holds decides; more cards render more images at once."""
    e = box.call("estimate", estimate_args(replace(query, models=(model,)), gpu, 1, model))
    name = e["model_name"] if "error" not in e else model.text
    head = f"**No: a single {name} render runs on one card; {n} x {sheet['name']} are {two}.**"
    lines = [head]
    if "error" not in e:
        holds = "holds it" if e["fits"] else "does not hold it"
        lines.append(
            f"{e['model_name']} needs about {c.num(e['memory_per_gpu_gb'], 'GB')} "
            f"({c.settings(e)}); one {c.num(sheet['memory_gb'], 'GB')} card {holds}."
        )
    if sheet.get("gpu_link") in ("bridge", "switch") and sheet.get("gpu_link_gbs"):
        lines.append(f"NVLink joins the cards at {c.num(sheet['gpu_link_gbs'], 'GB/s')}, against "
                     f"the {c.num(sheet['bandwidth_gbs'], 'GB/s')} at which each reads its own "
                     "memory: it carries data between them, it does not merge them.")  # fmt: skip
    lines.append(
        "An image pipeline keeps each of its parts (text encoders, denoiser, VAE) whole on one "
        "card: a second card renders a second image at the same time, or holds another part, "
        "but one image's denoiser never spans both."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- compare by CUDA cores?


def core_counts(query: Query, box: ToolBox) -> Draft | None:
    """CUDA cores do not compare across generations: tensor throughput and bandwidth do, and
    the computed speed of a job settles it."""
    ids = list(dict.fromkeys(i for ref in query.gpus for i in gpu_choices(ref)[:1]))
    if not ids:
        return None
    head = ("**No: CUDA core counts do not compare across generations; deep learning runs on "
            "the tensor cores and is fed by memory bandwidth.**")  # fmt: skip
    lines = [head]
    if len(ids) >= 2:
        _model_id, family = REFERENCE_TRAINING
        job = box.call("compare_workload",
                       {"gpus": ids[:4], "workload": "train", "family": family})  # fmt: skip
        if "error" not in job:
            lines.append(c.job_ratio(job).replace("**", ""))
    for gid in ids[:4]:
        s = box.call("gpu_specs", {"gpu": gid})
        if "error" in s:
            continue
        cores = f"{s['cuda_cores']:,} CUDA cores, " if s.get("cuda_cores") else ""
        tensor = s.get("fp16_bf16_dense_tflops")
        tensor_text = (f"{c.num(tensor, 'TFLOPS')} dense FP16/BF16 tensor" if tensor
                       else "no FP16 tensor cores")  # fmt: skip
        lines.append(f"- {s['name']}: {cores}{tensor_text}, "
                     f"{c.num(s['bandwidth_gbs'], 'GB/s')} ({s.get('architecture')})")  # fmt: skip
    lines.append(
        "A core of one generation does different work per clock from another's, and the "
        "matrix multiplies of training and inference bypass the CUDA cores for the tensor cores."
    )
    return Draft("\n".join(lines[:1]) + "\n\n" + "\n".join(lines[1:]))


# ---------------------------------------------------------------- why bandwidth decides decode


def bandwidth(query: Query, box: ToolBox) -> Draft | None:
    """Decode reads every weight once per token: the card's bandwidth sets its speed."""
    found = _first_gpu(query)
    if found is None:
        return None
    _ref, gpu = found
    model = _model(query)
    asked = replace(query, workload="inference")
    e = box.call("estimate", estimate_args(asked, gpu, None, model))
    if "error" not in e and not e["fits"] and not query.precision:  # as people run it there
        quantised = replace(asked, precision="q4_k_m")
        e = box.call("estimate", estimate_args(quantised, gpu, None, model))
    if "error" in e:
        return None
    weights = e["breakdown_gb"].get("weights")
    speed = _decode(e)
    head = (f"**Memory bandwidth: the {e['gpu_name']} reads memory at "
            f"{c.num(e['gpu_bandwidth_gbs'], 'GB/s')}, and every generated token reads all of "
            f"{e['model_name']}'s weights ({c.num(weights, 'GB')} in {e['precision']}) "
            "once.**")  # fmt: skip
    lines = [head]
    if e["fits"] and speed:
        lines.append(f"Computed: about {c.num(speed, 'tokens/s')} for one stream "
                     f"({c.settings(e)}).")  # fmt: skip
        others = gpus_named(query)[1:2]
        f = box.call("estimate", estimate_args(asked, others[0], None, model)) if others else {}
        if f and "error" not in f and f["fits"] and _decode(f):
            lines.append(f"The {f['gpu_name']} reads at {c.num(f['gpu_bandwidth_gbs'], 'GB/s')}: "
                         f"about {c.num(_decode(f), 'tokens/s')} on the same job.")  # fmt: skip
            sheets = [box.call("gpu_specs", {"gpu": g}) for g in (gpu, others[0])]
            tf = [s.get("fp16_bf16_dense_tflops") for s in sheets if "error" not in s]
            if len(tf) == 2 and all(tf):
                lines.append(f"Compute does not decide it: {c.num(tf[0], 'TFLOPS')} dense "
                             f"FP16/BF16 on the {sheets[0]['name']} against "
                             f"{c.num(tf[1], 'TFLOPS')} on the {sheets[1]['name']}, which "
                             "decides prompt processing and large batches, not one stream's "
                             "tokens.")  # fmt: skip
    else:
        lines.append(f"{e['model_name']} does not fit on it ({c.settings(e)}).")
    lines.append(
        "Generating one token at a time multiplies a vector by each weight matrix: about two "
        "operations per weight read, far below what the tensor cores could do, so the time per "
        "token is the time to stream the weights. Memory size decides what fits; bandwidth "
        "decides how fast it decodes; compute decides prompt processing and large batches."
    )
    return _draft(lines, model)


# ---------------------------------------------------------------- will A be faster than B?

# "moving to L4", "switch to the h200", "upgrading to a 4090": the card the question is about
_MOVING_TO = re.compile(
    r"\b(?:mov\w*|switch\w*|upgrad\w*|migrat\w*"
    r"|(?:go|going|goes|jump\w*|step\w* up)(?=\s+from\b))\s+"
    # "upgrading from a 2080 ti to a 4070 ti super": the card after "to"
    r"(?:from\s+(?:\S+\s+){1,5}?)?(?:over\s+)?to\s+(?:the\s+|an?\s+)?(\S+)"
)


# the card the user thinks of getting: "i'm thinking of getting a mac mini with the m4 pro"
_GETTING = re.compile(
    r"\b(?:thinking (?:of|about)|considering|planning (?:on|to)|going to|want to|about to)\s+"
    r"(?:get(?:ting)?|buy(?:ing)?|order(?:ing)?)\b()"
)


def _subject_and_other(query: Query) -> tuple[str, str] | None:
    """(the GPU the question asks about, the one it is measured against): the card moved to,
    else the one named before "than", else the first named."""
    ids = gpus_named(query)
    if len(ids) < 2:
        return None
    low = query.low
    spots: dict[str, int] = {}
    for at, gpu in gpu_mentions(query.gpus, low):
        spots.setdefault(gpu, at)
    asked = re.search(r"\bthan\b|\bas (?:fast|quick) as\b", low)
    named_in_ask = asked and any(
        asked.start() - 40 <= at < asked.start() for at in spots.values()
    )  # "is a 3060 as fast as the 4090": the card of the clause, whatever is being bought
    moved = _MOVING_TO.search(low) or (None if named_in_ask else _GETTING.search(low))
    if moved:
        later = [(spots[g], g) for g in ids if spots.get(g, -1) >= moved.start(1)]
        if later:
            subject = min(later)[1]
            return subject, next(g for g in ids if g != subject)
    as_fast = re.search(r" as (?:fast|quick) as ", low)
    than = max(low.find(" than "), low.find(" over "), as_fast.start() if as_fast else -1)
    if than > 0:
        before = sorted((spots[g], g) for g in ids if 0 <= spots.get(g, -1) < than)
        after = [g for g in ids if spots.get(g, -1) > than]
        if before and after:  # the card named nearest before "than": the clause's own
            subject = before[-1][1]
            return subject, next(g for g in [*after, *ids] if g != subject)
        if len(before) >= 2:  # "buy a 4090, but is a 3060 as fast as it"
            return before[-1][1], before[-2][1]
    return ids[0], ids[1]


def _job_model(query: Query) -> ModelRef:
    """The model the question names, else its family's reference model, else an 8B LLM."""
    from advisor.agent.handlers import _family_of_job
    from advisor.calculator import FAMILIES

    if query.models and (query.models[0].ids or query.models[0].size_b):
        return query.models[0]
    hint = _family_of_job(query)
    if hint != "llm":
        ref = FAMILIES[hint].reference_model
        return ModelRef(ref, (ref,), hint)
    return REFERENCE_MODEL


# memory the reason for a card: "just for the vram", "for the extra memory", "mainly for the vram"
_MEMORY_MOTIVE = re.compile(
    r"\b(?:just |only |mainly |mostly |purely )?(?:for|because of) (?:the )?(?:extra |more |added "
    r"|bigger |larger )?(?:v?ram|memory)\b(?! bandwidth)"
)
_WORTH = re.compile(
    r"\bworth (?:it |the (?:upgrade|extra|money|premium) )?(?:over|vs\.?|versus|"
    r"compared to)\b"
    r"|\bworth (?:upgrading|switching|moving|going) (?:from|to)\b"  # "worth upgrading from X to Y"
    # "is the 3090 ti worth 300 euro more than the normal 3090"
    r"|\bworth (?:an? |the )?(?:extra |additional )?(?:[$€£]|eur )?\d[\d,.]*\s?k?\s?"
    r"(?:euros?|eur|usd"
    r"|dollars?|bucks|€)?\s?(?:more )?(?:than|over)\b"
)
# serving asked at scale: many requests at once, where the total served decides
_AT_SCALE = re.compile(
    r"\bat scale\b|\bmany (?:users|requests|customers)\b|\bconcurren\w*|\bthroughput\b"
    r"|\bin production\b|\b\d[\d,]* (?:concurrent )?(?:users|requests)\b|\bhigh[- ]traffic\b"
    r"|\bfull load\b|\blots of (?:users|requests)\b"
)
# "will it be about as fast as his": yes when within a tenth
_AS_FAST = re.compile(
    r"(?<!twice )(?<!times )(?<!half )(?<!\dx )"  # "twice as fast as" asks a multiple
    r"\b(?:about |nearly |almost |roughly |just |close to )?as (?:fast|quick) as\b"
)


def _weights_read(e: dict[str, Any]) -> str:
    """ " (the 16.1 GB of Llama-3.1-8B's weights in fp16)": what each token reads, when known."""
    weights = e.get("breakdown_gb", {}).get("weights")
    if not weights or not e.get("model_name"):
        return ""
    return f" (the {c.num(weights, 'GB')} of {e['model_name']}'s weights in {e['precision']})"


def faster_than(query: Query, box: ToolBox) -> Draft | None:
    """ "Will a 4060 Ti give me more tok/s than my 3060?", "will moving to L4 make it faster?":
    yes or no about the card asked about, from the job computed on both, and the figure that
    decides it (bandwidth for one stream's tokens, compute for the rest)."""
    pair = _subject_and_other(query)
    if pair is None or query.rps:  # "at 50 req/s": the load on each decides (handlers.compare)
        return None
    if _WORTH.search(query.low) and MONEY_ASKED.search(query.low):
        return None  # "worth it over a new 4070 ti super? used prices?": speed against price
    if any((ref.count or 1) > 1 for ref in query.gpus):
        return None  # "an a6000 vs 2x 3090s": setups at their counts (handlers.compare)
    model = _job_model(query)
    asked = replace(query, workload=query.workload or "inference")
    runs = [box.call("estimate", estimate_args(asked, g, None, model)) for g in pair]
    if any("error" in e for e in runs):
        return None
    llm = (model.family or "llm") == "llm"
    if not all(e["fits"] for e in runs) and llm and not (model.precision or query.precision):
        four = "q4_k_m" if runs[0].get("engine") in ("llama.cpp", "ollama") else "awq"
        runs = [box.call("estimate", estimate_args(replace(asked, precision=four), g, None,
                                                   model)) for g in pair]  # fmt: skip
        if any("error" in e for e in runs):
            return None
    a, b = runs
    metrics = [c.metrics_of(e) for e in runs]
    if not a["fits"] and not b["fits"]:
        return None  # "h200 worth it over h100 for 405b?": the setups that hold it compared
    if not a["fits"]:
        return _draft([f"**No: {a['model_name']} does not fit on the {a['gpu_name']}** "
                       f"({c.settings(a)}).", c.memory_line(a)], model)  # fmt: skip
    if not b["fits"] or not metrics[0] or not metrics[1]:
        return None
    label, band_a, unit = metrics[0][0]
    speed_a, speed_b = band_a["typical"], metrics[1][0][1]["typical"]
    ratio = speed_a / speed_b
    figures = (
        f"{c.ratio_figure(speed_a, unit)} on the {a['gpu_name']} against "
        f"{c.ratio_figure(speed_b, unit)} "
        f"on the {b['gpu_name']}, {label} of {a['model_name']} ({c.settings(a)})"
    )
    one_stream = a.get("workload") == "inference" and llm and (a.get("batch") or 1) <= 4
    decides = (f"; memory bandwidth decides it: {c.num(a['gpu_bandwidth_gbs'], 'GB/s')} against "
               f"{c.num(b['gpu_bandwidth_gbs'], 'GB/s')}" if one_stream else "")  # fmt: skip
    served = [float((e.get("serving_tokens_per_s") or {}).get("typical") or 0.0) for e in runs]
    scale = one_stream and bool(_AT_SCALE.search(query.low)) and all(served)
    if scale:
        # "for serving at scale": the total a card serves at full load, which the memory left
        # beside the weights for requests in flight decides, more than one stream's speed
        ratio = served[0] / served[1]
        figures = (
            f"{c.ratio_figure(served[0], 'tokens/s')} served at full load on the {a['gpu_name']} "
            f"({a['serving_batch']} requests in flight) against "
            f"{c.ratio_figure(served[1], 'tokens/s')} on the {b['gpu_name']} "
            f"({b['serving_batch']}), {a['model_name']} ({c.settings(a)})"
        )
        decides = (f"; memory decides how many requests fit beside the weights: "
                   f"{c.num(a['gpu_memory_gb'], 'GB')} against "
                   f"{c.num(b['gpu_memory_gb'], 'GB')}, and bandwidth paces each step: "
                   f"{c.num(a['gpu_bandwidth_gbs'], 'GB/s')} against "
                   f"{c.num(b['gpu_bandwidth_gbs'], 'GB/s')}")  # fmt: skip
    want = multiple_asked(query.low)
    if want and want > 1:  # "is the 4090 twice as fast as the 3090": the multiple against the ratio
        word = "Yes" if ratio >= 0.9 * want else "No"
        head = (f"**{word}: about {c.num(ratio)}x, against the {c.num(want)}x asked: "
                f"{figures}{decides}.**")  # fmt: skip
    elif _AS_FAST.search(query.low) and not _WORTH.search(query.low):
        if ratio > 1 / 1.1:
            head = f"**Yes: about {c.num(ratio)}x the speed, {figures}{decides}.**"
        else:
            head = (f"**No: the {b['gpu_name']} is about {c.num(1 / ratio)}x as fast: "
                    f"{figures}{decides}.**")  # fmt: skip
    elif _WORTH.search(query.low):  # "is a 4090 worth it over a 3090 for chat?"
        if ratio >= 1.3:
            head = f"**Yes, for speed: about {c.num(ratio)}x as fast: {figures}{decides}.**"
        elif ratio >= 1.1:
            head = f"**Only a little faster: about {c.num(ratio)}x, {figures}{decides}.**"
        elif ratio > 1 / 1.1:
            head = f"**No, not for speed: about the same, {figures}{decides}.**"
        else:
            head = f"**No: the {b['gpu_name']} is faster for this job: {figures}{decides}.**"
    elif re.search(
        r"\bhow much (?:faster|quicker|slower)\b|\bby how much\b|\bhow many times\b", query.low
    ):  # "how much faster is the 5090?": the multiple, no yes or no
        pace = "as fast" if ratio >= 1 else f"the speed of the {b['gpu_name']}"
        head = f"**About {c.num(ratio)}x {pace}: {figures}{decides}.**"
    elif ratio >= 1.1:
        head = f"**Yes: about {c.num(ratio)}x as fast: {figures}{decides}.**"
    elif ratio > 1 / 1.1:
        head = f"**No, not noticeably: about the same speed, {figures}{decides}.**"
    else:
        head = f"**No: the {b['gpu_name']} is faster for this job: {figures}{decides}.**"
    if scale:
        why = ("A server batches the requests in flight, so each weight read serves all of them: "
               "the more requests the memory left beside the weights holds (their KV caches), "
               "the more tokens each pass over the weights yields, until compute becomes the "
               "limit. One stream's speed follows the bandwidth alone.")  # fmt: skip
    elif one_stream:
        bw_a, bw_b = a["gpu_bandwidth_gbs"], b["gpu_bandwidth_gbs"]
        why = (f"The {a['gpu_name']} has {c.num(bw_a / bw_b)}x the memory bandwidth of the "
               f"{b['gpu_name']}. Generating tokens one at a time reads every weight once per "
               f"token{_weights_read(a)}, so the "
               "card that streams memory faster generates faster, whatever its compute or its "
               "age; more memory only decides what fits.")  # fmt: skip
        if (model.assumed or model is REFERENCE_MODEL) and llm:
            # "5090 over a 4090, 32gb vs 24gb?": what the memory buys
            sheets = [box.call("gpu_specs", {"gpu": g}) for g in pair]
            if reach := largest_llm_each(query, box, sheets):
                why += "\n\n" + memory_buys(reach)
                held = [e["model_name"] for _, e in reach]
                bigger = a["gpu_memory_gb"] > b["gpu_memory_gb"]
                if _MEMORY_MOTIVE.search(query.low) and bigger and len(set(held)) == 2:
                    # "worth going from a 3080 10gb to a 3090 just for the vram?": the memory
                    # leads, the speed after it
                    head = (f"**Yes, for the memory: the {a['gpu_name']} runs up to {held[0]} "
                            f"in 4-bit, the {b['gpu_name']} up to {held[1]}.** Speed is about "
                            f"{c.num(ratio)}x: {figures}{decides}.")  # fmt: skip
    else:
        sheets = [box.call("gpu_specs", {"gpu": g}) for g in pair]
        tf = [s.get("fp16_bf16_dense_tflops") for s in sheets if "error" not in s]
        if len(tf) < 2 or not all(tf):
            return _draft([head], model)
        why = (f"Compute decides most of it: {c.num(tf[0], 'TFLOPS')} dense FP16/BF16 on the "
               f"{a['gpu_name']} against {c.num(tf[1], 'TFLOPS')} on the {b['gpu_name']}; "
               f"memory bandwidth ({c.num(a['gpu_bandwidth_gbs'], 'GB/s')} against "
               f"{c.num(b['gpu_bandwidth_gbs'], 'GB/s')}) sets the pace of the memory-bound "
               "layers.")  # fmt: skip
    return _draft([p for p in (head, cap_on_one(query, box), why) if p], model)


# ---------------------------------------------------------------- does it keep up with a rate?

# a period's work said as things done in it: "5k images a day", "200 hours of audio per week"
_WORK_OF_A_PERIOD = (
    r"\b(?:images?|pictures?|pics|renders?|photos?|generations?|audio|recordings?|files|videos"
    r"|transcripts?|podcasts?|episodes?|calls?|documents?|docs|pages?|samples?)"
    r"\s?(?:a|per|each|every|/)\s?(?:day|hour|week|month)\b"
)
# whether the card does it, not whether its memory or the money does: "is one A10G enough"
_IS_ENOUGH = (
    r"(?<!long )(?<!big )(?<!vram )(?<!ram )(?<!memory )(?<!gb )\b(?:enough|suffic\w*|cope"
    r"|need more)\b(?! (?:vram|memory|ram|gb|room|money|budget))"
)
_PERIOD = re.compile(r"\b(?:a|per|each|every|an|/)\s?(hour|hr|day|week|month)\b|\b(daily|hourly|"
                     r"weekly|monthly)\b")  # fmt: skip
_PERIOD_HOURS = {"hour": 1.0, "hr": 1.0, "day": 24.0, "week": 168.0, "month": 730.0}


def _a(word: str) -> str:
    return "an" if word[0] in "aeiouh" and word != "hr" else "a"


def _work(query: Query) -> bool:
    """The question gives an amount of work: images, samples, hours of audio."""
    return bool(query.images or query.dataset_samples or query.audio_hours)


def keep_up(query: Query, box: ToolBox) -> Draft | None:
    """ "5,000 photos a day through SDXL: would one L4 keep up?": the work of one period
    computed on the card, against the period; how many cards when one does not."""
    found = _first_gpu(query)
    # the period of the work, not of a price ("an L4 at $0.80/hr ... 5,000 images a day")
    unpriced = re.sub(r"(?:\$|usd\s?)\s?\d[\d.,]*\s?(?:/|per|an?)\s?(?:h|hr|hour|day|month)\b",
                      " ", query.low)  # fmt: skip
    period = _PERIOD.search(unpriced)
    named = [m for m in query.models if m.ids]
    if found is None or not named or not period:
        return None
    model = named[0]
    job = replace(query, workload=query.workload or "inference")
    if model.family == "diffusion" and not query.images and query.dataset_samples:
        job = replace(job, images=query.dataset_samples, dataset_samples=None)
    count = found[0].count or 1
    e = box.call("estimate", estimate_args(job, found[1], count, model))
    if "error" in e:
        return None
    if not e["fits"]:
        where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
        return Draft(f"**No: {e['model_name']} does not fit on {where}** ({c.settings(e)}).")
    took = typical_job_hours(e)
    if not took:
        return None
    word = {"hr": "hour"}.get(period.group(1), period.group(1)) or {
        "daily": "day",
        "hourly": "hour",
        "weekly": "week",
        "monthly": "month",
    }[period.group(2)]
    span = _PERIOD_HOURS[word]
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    if took <= span:
        head = (f"**Yes: {where} does {_a(word)} {word}'s work in about {c.duration(took)}** "
                f"({c.settings(e)}), inside the {word}.")  # fmt: skip
        return Draft("\n\n".join([head, *c.speed_lines(e, first_only=True)]))
    head = (f"**No: {_a(word)} {word}'s work takes about {c.duration(took)} on {where}, "
            "longer than the "
            f"{word}** ({c.settings(e)}).")  # fmt: skip
    lines = [head, *c.speed_lines(e, first_only=True)]
    need = math.ceil(took * e["num_gpus"] / span)
    more = box.call("estimate", estimate_args(job, found[1], need, model))
    done = typical_job_hours(more)
    if done and more["fits"]:
        lines.append(f"{c.gpus_phrase(need, more['gpu_name'])} do it in about "
                     f"{c.duration(done)}.")  # fmt: skip
        price = query.user_price_usd_per_hour
        paid = price and box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": span,
                                                  "num_gpus": need})  # fmt: skip
        if paid and "error" not in paid:  # "at $1.006/h, enough or do we need more?"
            sign = query.currency
            lines[-1] += (f" At your {c.usd(price, sign)} an hour, the {need} around the clock "
                          f"cost {c.usd(paid['usd'], sign)} a {word}.")  # fmt: skip
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- would the smaller card do?

# "would an l4 do the job", "can a 4090 handle it", "is one a10 enough": the card put forward
_WOULD_DO = re.compile(
    r"\b(?:would|will|could|can|does|is|are)\s+(?:an?\s|the\s|one\s|a single\s"
    r"|just\s|our\s|my\s)?(\S+)"
)
_NEED_THE = re.compile(r"\b(?:need|require)\s+(?:an?\s|the\s|a whole\s|a full\s)?(\S+)")
_NEED_ASKED = re.compile(
    r"\b(?:do|does|would|will) (?:i|we|you|they|he|she|it|the \w+) (?:really |actually |even "
    r"|truly |honestly )?(?:need|require)\b"
)


def enough(query: Query, box: ToolBox) -> Draft | None:
    """ "Would an L4 do the job or do we really need the A100?": the job computed on both, and
    yes when the card put forward holds it, with what each takes and costs."""
    ids = gpus_named(query)
    if len(ids) < 2:
        return None
    low = query.low
    spots: dict[str, int] = {}
    mentions = list(gpu_mentions(query.gpus, low))
    for at, gpu in mentions:
        spots.setdefault(gpu, at)
    needed = _NEED_THE.search(low)
    put = next((g for m in _WOULD_DO.finditer(low) for g in ids if spots.get(g) == m.start(1)),
               None)  # fmt: skip
    if put is None and needed:
        put = next((g for g in ids if spots.get(g) != needed.start(1)), None)
    if put is None:
        return None
    other = next(g for g in ids if g != put)
    model = _job_model(query)
    asked = replace(query, workload=query.workload or "inference")
    runs = [box.call("estimate", estimate_args(asked, g, None, model)) for g in (put, other)]
    if any("error" in e for e in runs):
        return None
    a, b = runs
    # "do I really need the A100, or can my 4070 Super do it?": the need is what is asked first
    need = _NEED_ASKED.search(low)
    need_first = bool(need and needed and (needed.start(1), other) in mentions
                      and need.start() < min((m.start() for m in _WOULD_DO.finditer(low)
                                              if spots.get(put) == m.start(1)),
                                             default=len(low)))  # fmt: skip
    if not a["fits"]:
        verdict = (f"**Yes: you need the {b['gpu_name']}: {a['model_name']} does not fit on the "
                   f"{a['gpu_name']}**" if need_first else
                   f"**No: {a['model_name']} does not fit on the {a['gpu_name']}**")  # fmt: skip
        return _draft([f"{verdict} ({c.settings(a)}).", c.memory_line(a)], model)
    metrics = c.metrics_of(a)
    if not metrics:
        return None
    label, band, unit = metrics[0]
    theirs = c.metrics_of(b)[0][1]["typical"] if b["fits"] and c.metrics_of(b) else None
    pace = f"{label} about {c.num(band['typical'], unit)}"
    if theirs:
        pace += f" against {c.num(theirs, unit)} on the {b['gpu_name']}"
    weights = a["breakdown_gb"].get("weights")
    room = (f"it needs {c.num(a['memory_per_gpu_gb'], 'GB')} of its "
            f"{c.usable(a)}"
            + (f" (weights {c.num(weights, 'GB')})" if weights else ""))  # fmt: skip
    head = f"**Yes: the {a['gpu_name']} does the job** ({c.settings(a)}): {room}; {pace}."
    if need_first:
        head = (f"**No: you do not need the {b['gpu_name']}; the {a['gpu_name']} does the job** "
                f"({c.settings(a)}): {room}; {pace}.")  # fmt: skip
    lines = [head]
    hours = [typical_job_hours(e) for e in runs]
    if hours[0]:
        job = f"The whole job takes about {c.duration(hours[0])} on the {a['gpu_name']}"
        if hours[1]:
            job += f" and {c.duration(hours[1])} on the {b['gpu_name']}"
        lines.append(job + ".")
    prices = [(e.get("cost") or {}).get("usd_per_hour") for e in runs]
    if all(prices) and not (query.gpu_prices or query.user_price_usd_per_hour):
        lines.append(f"Renting: {c.usd(prices[0])}/hour for the {a['gpu_name']} against "
                     f"{c.usd(prices[1])}/hour for the {b['gpu_name']} "
                     "(median prices).")  # fmt: skip
    lines.append("The bigger card buys speed and headroom, not the ability to run the job; "
                 "pay for it when the time matters more than the price.")  # fmt: skip
    return _draft(lines, model)


# ---------------------------------------------------------------- same card? only more memory?


# the difference of two cards asked, no job named: "what's the difference between the H100
# PCIe and the H100 NVL?", "how do the a10 and a10g differ?"
_DIFFERENCE_ASKED = re.compile(
    # (not "eli5 the difference ... why is one pricier": the idea asked, explained)
    r"^(?!.*\b(?:why|explain\w*|eli5)\b)(?:"
    r"[^.?!]{0,30}\b(?:the )?differences? between\b(?![^?]*\b(?:for|when|with)\b)"
    r"|.*\bhow (?:do|does) (?:the )?[\w .-]{2,40} differ\b(?![^?]*\b(?:for|when|with)\b))"
)


def variants(query: Query, box: ToolBox) -> Draft | None:
    """Two GPUs people take for one ("A10 and A10G", "A100 40GB and 80GB"): what differs."""
    if any((g.count or 1) > 1 for g in query.gpus):
        return None  # "two 5060 Tis, 32 GB in total, the same as one 5090?": setups weighed
    if (
        query.follow_up
        and re.search(r"\b(?:faster|quicker|slower)\b", query.low)
        and not (re.search(r"\bsame\b|\bas (?:fast|quick)\b|\bmore (?:vram|memory)\b", query.low))
    ):
        return None  # "my 3090" then "selling a 3090 ti: is it any faster?": by speed  # fmt: skip
    ids = _two_variants(query, box)
    if ids is None:
        return None
    result = box.call("compare_gpus", {"gpus": ids})
    if "error" in result:
        return None
    a, b = result["gpus"][:2]
    fields = (("memory_gb", "memory", "GB"), ("bandwidth_gbs", "memory bandwidth", "GB/s"),
              ("fp16_bf16_dense_tflops", "dense FP16/BF16 tensor", "TFLOPS"),
              ("tdp_w", "board power", "W"))  # fmt: skip
    differ, same = [], []
    # "practically the same bandwidth": within SAME_WITHIN; "the same": 1%
    roughly = re.search(r"\b(?:about|practically|roughly|nearly|almost|pretty much|basically"
                        r"|essentially|more or less|virtually) the same\b", query.low)  # fmt: skip
    tolerance = SAME_WITHIN if roughly else 0.01
    for field, label, unit in fields:
        va, vb = a.get(field), b.get(field)
        if va is None or vb is None:
            continue
        if abs(va - vb) <= tolerance * max(va, vb):
            same.append(f"{label} {c.num(va, unit)}")
        else:
            differ.append((label, f"{label}: {c.num(va, unit)} against {c.num(vb, unit)}"))
    pair = f"the {a['name']} and the {b['name']}"
    chip = a.get("chip") if a.get("chip") and a.get("chip") == b.get("chip") else None
    same_chip = f"the same {chip} chip, set up differently: " if chip else ""
    asked = _fields_said_same(query.low)
    if re.search(r"\b(?:fast\w*|quick\w*|speed|perform\w*|slower)\b", query.low):
        asked = set()  # "same vram, are they equally fast?": the whole comparison below
    if asked and differ:  # "the same vram as the 3090, right?": judged on the figure named
        wrong = [(d, text) for d, text in differ if d in asked]
        # "... have the same vram, am I wrong?": yes means the claim fails
        flipped = bool(re.search(r"\b(?:am i|are we|is (?:he|she|it|that|this)|are they) "
                                 r"(?:\w+ )?(?:wrong|mistaken|off)\b", query.low))  # fmt: skip
        if wrong:
            head = (f"**{'Yes, wrong' if flipped else 'No'}: {pair} differ in "
                    f"{', '.join(d for d, _ in wrong)}** "
                    f"({'; '.join(text for _, text in wrong)}).")  # fmt: skip
        else:
            held = [f"{label} ({c.num(a[field], unit)})" if a[field] == b.get(field)
                    else f"{label} ({c.num(a[field], unit)} against {c.num(b[field], unit)})"
                    for field, label, unit in fields
                    if label in asked and a.get(field) is not None]  # fmt: skip
            same_word = "about the same" if roughly else "the same"
            head = (f"**{'No, that holds' if flipped else 'Yes'}: {pair} have {same_word} "
                    f"{', '.join(held)}.**")  # fmt: skip
        rest = [text for d, text in differ if d not in asked]
        lines = [head]
        if rest:
            lines.append("Beyond that they differ in " + "; ".join(rest) + ".")
        if not chip and a.get("chip") and b.get("chip"):
            lines.append(f"They are different chips: {a['chip']} and {b['chip']}.")
        return Draft("\n\n".join(lines))
    if not differ:
        head = f"**Yes: {pair} are the same on every figure here.**"
    elif [d for d, _ in differ] == ["memory"]:
        head = f"**Just more memory: {same_chip}{pair} differ only in {differ[0][1]}.**"
    else:
        other = [d for d, _ in differ if d != "memory"]
        memory_asked = re.search(r"\b(?:memory|vram|gb|gigs?)\b", query.low)
        what = "Not just more memory" if len(other) < len(differ) and memory_asked else "No"
        if _DIFFERENCE_ASKED.search(query.low) and not memory_asked:
            what = "They differ"  # "what's the difference between X and Y?": no yes or no asked
        if re.search(r"\b(?:is|are) (?:that|it|this|they|these|those) (?:\w+ )?(?:the )?same\b"
                     r"|" + _SAME_AS.pattern, query.low):  # fmt: skip
            what = "No"  # "is that the same chip and vram as my desktop 4090?"
        low = query.low
        speed_asked = re.search(r"\bsame (?:\w+ )?(?:speed|performance|throughput)\b"
                                r"|\bas fast\b|\bperform the same\b", low)  # fmt: skip
        rates = {"memory bandwidth", "dense FP16/BF16 tensor"} & {d for d, _ in differ}
        if chip and speed_asked and rates:  # "same chip, so same training speed, right?"
            what, same_chip = f"No: the same {chip} chip, set up differently, not at one speed", ""
        elif chip and re.search(r"\b(?:chips?|die|silicon|gpu core)\b", low):
            what, same_chip = f"Yes, the same {chip} chip, set up differently", ""
        named = other if what.startswith("Not just") else [d for d, _ in differ]
        lead = f"{what}: {same_chip}{pair}"
        if what == "They differ":  # no yes or no asked: the cards, then what sets them apart
            lead = f"{same_chip[0].upper()}{same_chip[1:]}{pair}" if same_chip else pair[0].upper(
                ) + pair[1:]  # fmt: skip
        head = (f"**{lead} differ in {', '.join(named)}** "
                f"({'; '.join(text for _, text in differ)}).")  # fmt: skip
        if not chip and a.get("chip") and b.get("chip"):
            head += f" They are different chips: {a['chip']} and {b['chip']}."
    lines = [head]
    if same:
        lines.append("The same: " + ", ".join(same) + ".")
    if any(d == "memory bandwidth" for d, _ in differ):
        lines.append("Memory bandwidth sets LLM decode speed and the memory-bound parts of "
                     "training, so the card with more of it is faster there.")  # fmt: skip
    if (job := _the_job_on_each(query, box, ids)) is not None:
        lines.insert(1, job)  # "... running llama 3.1 8b q8_0: will the p40 write any faster?"
    return Draft("\n\n".join(lines))


# the figure a "same ... as" claim names, by the label `variants` prints it under
_SAME_FIELD_WORDS = (
    ("memory bandwidth", r"bandwidth|memory speed"),
    (
        "memory",
        r"v?ram(?! (?:type|bus|clocks?|speed|chips?))"
        r"|memory(?! (?:bandwidth|speed|type|bus|clocks?|controller|interface|width|chips?|kind))"
        r"|gb|gigs?|capacity",
    ),
    ("dense FP16/BF16 tensor", r"tflops|compute|tensor (?:cores?|performance)|fp16|bf16"),
    (
        "board power",
        r"power(?! (?:supply|supplies|connectors?|plugs?|cables?|psu))|tdp|watts?"
        r"|wattage|power draw",
    ),
)


def _fields_said_same(low: str) -> set[str]:
    """The figures a claim of sameness names: "the same vram as", "same memory and tdp",
    "both have the same bandwidth?"; empty when none is named."""
    asked: set[str] = set()
    for m in re.finditer(r"\bsame\b(?=((?: [\w/-]+){1,5}))", low):
        words = m.group(1)
        if re.match(r" (?:card|gpu|chip|thing|one|model|silicon|die|product)s?\b", words):
            continue  # "the same card just with less memory?": the card, not one figure
        for label, pattern in _SAME_FIELD_WORDS:
            if re.search(rf"\b(?:{pattern})\b", words):
                asked.add(label)
                if label == "memory bandwidth":
                    words = re.sub(r"\bmemory (?=bandwidth|speed)", "", words)
    return asked


def _the_job_on_each(query: Query, box: ToolBox, ids: list[str]) -> str | None:
    """The language model the user runs, on each of the two cards: whether it fits and its
    decode speed, with the weights it reads per token."""
    model = _named_model(query)
    if model is None or model.family not in (None, "llm"):
        return None
    asked = replace(query, workload="inference")
    runs = [box.call("estimate", estimate_args(asked, gpu, None, model)) for gpu in ids]
    if any("error" in e for e in runs):
        return None
    each = []
    for e in runs:
        speed = (e.get("decode_tokens_per_s") or {}).get("typical")
        fits = e["fits"] and speed
        each.append(f"the {e['gpu_name']} about {c.num(speed, 'tokens/s')}" if fits
                    else f"the {e['gpu_name']}: does not fit")  # fmt: skip
    weights = runs[0]["breakdown_gb"].get("weights")
    return (
        f"For {runs[0]['model_name']} ({c.settings(runs[0])}), weights "
        f"{c.num(weights, 'GB')} read for every token: {'; '.join(each)}."
    )


def _two_gpus_or_sizes(query: Query) -> bool:
    """Two GPUs, or one name written with two memory sizes ("A100 40GB vs 80GB")."""
    ids = {gpu_choices(g)[0] for g in query.gpus if gpu_choices(g)}
    return len(ids) >= 2 or (len(ids) == 1 and len(set(_SIZES.findall(query.low))) >= 2)


_SIZES = re.compile(r"\b(\d{2,3}) ?(?:gb|g|gigs?)\b")


def _two_variants(query: Query, box: ToolBox) -> list[str] | None:
    ids = list(dict.fromkeys(i for ref in query.gpus for i in gpu_choices(ref)[:1]))
    if len(ids) >= 2:
        return ids[:2]
    if len(query.gpus) != 1:
        return None
    ref = query.gpus[0]  # "a100 40gb vs 80gb": one name, two memory sizes
    sizes = [float(s) for s in _SIZES.findall(query.low)]
    if len(set(sizes)) < 2 or not ref.base:
        return None
    picked: list[str] = []
    for size in dict.fromkeys(sizes):
        found = box.call("list_gpus", {"min_memory_gb": size, "max_memory_gb": size, "top": 50})
        match = [g for g in found.get("gpus", []) if _same_base(g, ref.base)]
        if picked:  # the second of the same form factor as the first (SXM with SXM)
            form = _form(picked[0])
            match.sort(key=lambda g: _form(g["id"]) != form)
        if match:
            picked.append(match[0]["id"])
    return picked[:2] if len(picked) >= 2 else None


def _form(gpu_id: str) -> str:
    return next((f for f in ("sxm", "pcie", "nvl") if f in gpu_id), "")


def _same_base(row: dict[str, Any], base: str) -> bool:
    words = re.findall(r"[a-z0-9]+", base.lower())
    name = row.get("name", "").lower()
    return all(re.search(rf"\b{re.escape(w)}\b", name) for w in words)


# ---------------------------------------------------------------- PCIe generation


# the slot asked about as good enough ("will it run fine in the PCIe 3.0 slot?"), not as a loss
# ("does PCIe 3.0 bottleneck it?")
_RUNS_FINE = re.compile(
    r"\b(?:run|work|be|perform|do)s? (?:just )?(?:fine|ok(?:ay)?|alright|all right|good|well)\b"
    r"|\b(?:is|will) (?:it|that|this) (?:be )?(?:fine|ok(?:ay)?|alright|enough)\b"
    r"|\bok(?:ay)? to (?:use|put|run)\b|\bcompatible\b|\bbackwards? compatible\b"
)
_HURTS = re.compile(
    r"\bbottleneck\w*|\bslow\w*|\blos(?:e|ing|s)\b|\bhurt\w*|\bmatters?\b|\bdifference\b"
    r"|\bpenalt\w*|\bimpact\w*|\bhold\w* (?:it|them) back\b"
)


def pcie_generation(query: Query, box: ToolBox) -> Draft | None:
    """One GPU's PCIe generation barely matters once the job is on the card."""
    low = query.low
    said = re.findall(r"\bgen ?([3-6])\b|\bpcie ?([3-6])(?:\.0)?\b|\b([3-6])\.0\b", low)
    gens = sorted({int(g) for group in said for g in group if g})
    width = re.search(r"\bx(1|2|4|8)\b", low)
    if _several(query) or len(query.gpus) > 1:
        return None  # GPUs talking to each other: the link question (intents: link)
    lanes = {"lanes": int(width.group(1))} if width else {}
    links = box.call("pcie_links", {"gens": gens or [3, 4, 5], **lanes})
    if "error" in links:
        return None
    rates = "; ".join(f"PCIe {r['gen']}.0 x{r['lanes']}: {c.num(r['gbs'], 'GB/s')} each way"
                      for r in links["links"])  # fmt: skip
    head = ("**No, not much for one GPU that holds its job: PCIe carries the input batches and "
            f"the one-time model load, not the work** ({rates}).")  # fmt: skip
    if _RUNS_FINE.search(low) and not _HURTS.search(low):
        # "will it run fine in the PCIe 3.0 slot?": the same answer, said the way it was asked
        head = ("**Yes, it runs fine: for one GPU that holds its job the slot barely matters; "
                f"PCIe carries the input batches and the one-time model load, not the work** "
                f"({rates}).")  # fmt: skip
    lines = [head]
    found = _first_gpu(query)
    if found:
        sheet = box.call("gpu_specs", {"gpu": found[1]})
        if "error" not in sheet and sheet.get("pcie_gen"):
            lines.append(f"The {sheet['name']} has a PCIe {sheet['pcie_gen']}.0 "
                         f"x{sheet.get('pcie_lanes') or 16} interface and reads its own memory "
                         f"at {c.num(sheet['bandwidth_gbs'], 'GB/s')}.")  # fmt: skip
    lines.append(
        "A training step moves a batch of inputs (megabytes) while the GPU computes for tens "
        "of milliseconds, so a slower slot costs little; loading the weights takes twice as "
        "long on half the bandwidth, once. It matters when data crosses the slot all the "
        "time: layers offloaded to CPU memory, several GPUs exchanging gradients or "
        "activations without NVLink, or a data loader that streams from host memory at the "
        "link's limit."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- lower precision, faster?


def precision_speed(query: Query, box: ToolBox) -> Draft | None:
    """FP8 (or 4-bit) against 16-bit on one GPU: decode and prompt speed of each, computed."""
    found = _first_gpu(query)
    if found is None:
        return None
    if len(gpus_named(query)) > 1 and re.search(r"\bwhich\b|\b(?:or|vs\.?|versus)\b", query.low):
        return None  # "in fp8: L4 or A10G, which is faster?": the cards compared, in that format
    _ref, gpu = found
    named = [p for p in _PRECISIONS.findall(query.low)]
    low = _precision_of(named[0]) if named else None
    if low is None or low in ("bf16", "fp16"):
        return None
    high = "bf16"
    model = _model(query)
    asked = replace(query, workload="inference", precision=None)
    args = estimate_args(asked, gpu, None, model)
    quick = box.call("estimate", {**args, "precision": low})
    if "error" in quick:
        return None
    base = box.call("estimate", {**args, "precision": high, "engine": quick.get("engine")})
    fast, slow = _decode(quick), _decode(base)
    if "error" in base or not fast or not slow:
        return None
    gain = fast / slow
    verdict = "Yes" if gain >= 1.1 else "No"
    head = (f"**{verdict}: {quick['model_name']} decodes at about "
            f"{c.num(fast, 'tokens/s')} in {low} against "
            f"{c.num(slow, 'tokens/s')} in {high} on the {quick['gpu_name']}**, "
            f"{c.num(gain)}x.")  # fmt: skip
    lines = [head]
    sheet = box.call("gpu_specs", {"gpu": gpu})
    rate = _LOW_RATES.get(low[:4])
    if "error" not in sheet and rate:
        field, unit, name = rate
        if sheet.get(field):
            lines.append(f"Its {name} tensor rate is {c.exact(sheet[field], unit)} dense against "
                         f"{c.exact(sheet['fp16_bf16_dense_tflops'], 'TFLOPS')} for FP16/BF16, "
                         "which speeds prompt processing, large batches and encoder models "
                         "such as BERT, all bound by compute.")  # fmt: skip
        else:
            lines.append(f"The {sheet['name']} has no {name} tensor cores{_instead(sheet, low)}: "
                         f"{name} weights still halve the bytes read per token, but the math "
                         "runs at 16-bit.")  # fmt: skip
            for other in gpus_named(query)[1:2]:
                ref = box.call("gpu_specs", {"gpu": other})
                if "error" not in ref and ref.get(field):
                    lines.append(f"The {ref['name']} has them: {c.exact(ref[field], unit)} "
                                 f"{name} dense.")  # fmt: skip
    lines.append(
        f"Decode reads every weight once per token: {c.num(quick['breakdown_gb']['weights'], 'GB')}"
        f" in {low} against {c.num(base['breakdown_gb']['weights'], 'GB')} in {high}, so fewer "
        "bytes per weight means more tokens per second, less what dequantising costs."
    )
    return _draft(lines, model)


# the low-precision formats with their own tensor rate: (datasheet field, unit, name)
_LOW_RATES = {
    "fp8": ("fp8_dense_tflops", "TFLOPS", "FP8"),
    "int8": ("int8_dense_tops", "TOPS", "INT8"),
}
_PRECISIONS = re.compile(r"\b(fp8|int8|int4|fp4|nvfp4|mxfp4|4-?bit|8-?bit|awq|gptq|q4_k_m|q8_0)\b")


def _precision_of(word: str) -> str | None:
    return {"4bit": "int4", "4-bit": "int4", "8bit": "int8", "8-bit": "int8", "awq": "awq",
            "gptq": "gptq", "fp4": "nvfp4"}.get(word, word)  # fmt: skip


# ---------------------------------------------------------------- why training needs more memory


def training_memory(query: Query, box: ToolBox) -> Draft | None:
    """Full fine-tuning against inference for the same model: where the memory goes."""
    model = _model(query)
    base = replace(query, precision=None)
    run = box.call("estimate", estimate_args(replace(base, workload="inference"),
                                             REFERENCE_MEMORY, None, model))  # fmt: skip
    tune = box.call("estimate", estimate_args(replace(base, workload="finetune-full"),
                                              REFERENCE_MEMORY, None, model))  # fmt: skip
    if "error" in run or "error" in tune:
        return None
    parts = tune["breakdown_gb"]
    head = (f"**The optimizer and gradients: full fine-tuning of {tune['model_name']} needs "
            f"about {c.num(tune['memory_per_gpu_gb'], 'GB')} against "
            f"{c.num(run['memory_per_gpu_gb'], 'GB')} to run it** "
            f"(weights {c.num(run['breakdown_gb']['weights'], 'GB')} in "
            f"{run['precision']}).")  # fmt: skip
    breakdown = " + ".join(f"{k.replace('_', ' ')} {c.num(v, 'GB')}"
                           for k, v in parts.items() if v >= 0.005)  # fmt: skip
    lines = [head, f"Fine-tuning ({c.settings(tune)}): {breakdown}."]
    lines.append(
        "Running a model keeps its weights and a KV cache. Training with AdamW also keeps a "
        "gradient for every weight, two optimizer states per weight (in fp32) and, in mixed "
        "precision, an fp32 master copy, plus the activations saved for the backward pass. "
        "LoRA and QLoRA avoid most of it by training small adapters on a frozen (or 4-bit) "
        "base; 8-bit or paged optimizers, pure bf16 and gradient checkpointing cut the rest."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- MIG for small models


# how many isolated slices are wanted: "our 30 students each get their own slice", "16 users"
_MIG_WANTED = re.compile(
    r"\b(\d{1,4}) (?!(?:gb|gib|g|b|k|m)\b)(?:[\w-]+ )?(?:students|users|people|models|slices"
    r"|instances|tenants|pupils"
    r"|researchers|engineers|devs|developers|interns|notebooks|jobs|teams)\b"
)


def mig(query: Query, box: ToolBox) -> Draft | None:
    """MIG slices for many small models or users: the slice count and size, and whether a model
    fits; between two cards, the one with MIG."""
    ids = gpus_named(query)
    if not ids:
        return None
    sheets = [box.call("gpu_specs", {"gpu": gpu}) for gpu in ids[:2]]
    if any("error" in s for s in sheets):
        return None
    sliced = [s for s in sheets if _mig_slices(s) >= 2]
    if len(sheets) == 2 and len(sliced) == 1:
        return _mig_pick(sliced[0], next(s for s in sheets if s is not sliced[0]))
    sheet = sheets[0]
    slices = _mig_slices(sheet)
    if slices < 2:
        ref = box.call("gpu_specs", {"gpu": MIG_REFERENCE})
        where = ("" if "error" in ref else
                 f" MIG is a datacenter feature: the {ref['name']} splits into up to "
                 f"{int(_mig_slices(ref))} instances.")  # fmt: skip
        return Draft(f"**No: the {sheet['name']} has no MIG.**{where}\n\nOn it, the users or "
                     "models share the one card as separate processes (CUDA MPS shares it more "
                     "fairly, time-slicing takes turns), with no hardware isolation of memory or "
                     "faults; a per-process memory cap in the framework is only a soft "
                     "limit.")  # fmt: skip
    smallest = sheet.get("mig_smallest_gb")
    # "a p4d.24xlarge", "our 4x A100 box": every card of the machine splits
    cards = max(1, next((g.count for g in query.gpus if g.count), None) or 1)
    wanted = _MIG_WANTED.search(query.low)  # "could our 30 students each get their own slice"
    if wanted and int(wanted.group(1)) == cards:  # "30 students ... one A100": no 30 cards
        cards = 1
    together = box.call("gpu_specs", {"gpu": sheet["id"], "num_gpus": cards}) if cards > 1 else {}
    total = (together.get("totals") or {}).get("mig_instances")
    if total and not (wanted and int(wanted.group(1)) > total):
        size = f" of about {c.num(smallest, 'GB')}" if smallest else ""
        return Draft(f"**Yes: MIG splits each of the {cards} x {sheet['name']} into up to "
                     f"{int(slices)} instances{size}, {total} isolated slices in all, each with "
                     "its own compute, cache and memory bandwidth.**")  # fmt: skip
    if wanted and int(wanted.group(1)) > slices:
        size = f" of about {c.num(smallest, 'GB')}" if smallest else ""
        return Draft(f"**No: MIG splits the {sheet['name']} into at most {int(slices)} "
                     f"instances{size}, not {wanted.group(1)}; that many isolated slices take "
                     "several such cards.** Beyond the slices, users share a slice (or the whole "
                     "card) as separate processes, without MIG's isolation.\n\n"
                     + c.sheet_summary(sheet))  # fmt: skip
    head = (f"**Yes, for many small models: MIG splits the {sheet['name']} into up to "
            f"{int(slices)} instances")  # fmt: skip
    head += f" of about {c.num(smallest, 'GB')} each" if smallest else ""
    head += ", each with its own compute, cache and memory bandwidth.**"
    lines = [head]
    # ("a 7B model in each one": a generic model of the size said)
    model = next((m for m in query.models if m.ids or m.size_b), None)
    if model and smallest:
        # (one model in each slice: "each of 7 interns their own mistral 7b" is no batch of 7)
        one = replace(query, workload="inference", concurrency=None, batch=None)
        e = box.call("estimate", estimate_args(one, f"{smallest:g}gb", None, model))
        if "error" not in e and e["fits"]:  # the model asked of a slice: the verdict first
            weights = e["breakdown_gb"].get("weights")
            share = f", {c.num(weights, 'GB')} of it weights" if weights else ""
            lines = [f"**Yes: {e['model_name']} needs about {c.num(e['memory_per_gpu_gb'], 'GB')}"
                     f"{share} ({c.settings(e)}), and it fits in one of the smallest slices: MIG "
                     f"splits the {sheet['name']} into up to {int(slices)} instances of about "
                     f"{c.num(smallest, 'GB')} each, with their own compute, cache and memory "
                     f"bandwidth.**{c.rule_of_thumb(e)}"]  # fmt: skip
        elif "error" not in e:  # the plan as asked does not work: say so first
            room = "no slice holds it"
            fitting = [p for p in MIG_PROFILES if p[1] * smallest >= e["memory_per_gpu_gb"]]
            if fitting and slices >= 7:  # the profiles of a 7-slice card (A100, H100, H200)
                g, mem_slices, most = fitting[0]
                big = box.call("estimate", {**estimate_args(one,
                                                            f"{mem_slices * smallest:g}gb", None,
                                                            model)})  # fmt: skip
                if "error" not in big and big["fits"]:
                    each = "one instance" if most == 1 else f"up to {most} instances"
                    room = (f"{each} of the {g}g profile (about "
                            f"{c.num(mem_slices * smallest, 'GB')} each) "
                            f"{'holds' if most == 1 else 'hold'} it")  # fmt: skip
            weights = e["breakdown_gb"].get("weights")
            share = f", {c.num(weights, 'GB')} of it weights" if weights else ""
            lines = [f"**No, not in the smallest slices: {e['model_name']} needs about "
                     f"{c.num(e['memory_per_gpu_gb'], 'GB')}{share} ({c.settings(e)}), and the "
                     f"{sheet['name']} splits into up to {int(slices)} instances of about "
                     f"{c.num(smallest, 'GB')}; {room}.**"]  # fmt: skip
            if not query.precision:  # in 8 or 4 bits it may fit every slice: say which
                lines += _mig_quantised(query, box, model, smallest)
    lines.append(
        "Isolation is the gain: one model's burst or crash does not slow or kill the others, and "
        "each gets a fixed share. One process serving them all can batch across models and use "
        "idle compute, but latency then depends on the neighbours."
    )
    return Draft("\n\n".join(lines))


def _mig_quantised(query: Query, box: ToolBox, model: ModelRef, smallest: float) -> list[str]:
    """The first of 8-bit and 4-bit weights (vLLM's int8 and AWQ) in which the model fits the
    smallest slice, as a line; none when neither does."""
    for precision, said in (("int8", "8-bit"), ("awq", "4-bit (AWQ)")):
        args = estimate_args(replace(query, workload="inference", precision=precision),
                             f"{smallest:g}gb", None, model)  # fmt: skip
        e = box.call("estimate", args)
        if "error" not in e and e["fits"]:
            return [
                f"In {said} weights it fits every slice: about "
                f"{c.num(e['memory_per_gpu_gb'], 'GB')} of {c.usable(e)} ({c.settings(e)})."
            ]
    return []


MIG_REFERENCE = "h100-sxm5-80gb"  # the MIG card named when the one asked about has none
# The MIG profiles of a 7-slice card as (compute slices, memory slices of the 8, most instances):
# 1g.10gb x7, 2g.20gb x3, 3g.40gb x2, 7g.80gb x1 on an H100 80GB (NVIDIA MIG user guide,
# "Supported MIG profiles"; the A100 and H200 tables have the same shape)
MIG_PROFILES = ((1, 1, 7), (2, 2, 3), (3, 4, 2), (7, 8, 1))


def _mig_slices(sheet: dict[str, Any]) -> float:
    slices = sheet.get("mig_max_instances")
    return slices if isinstance(slices, int | float) else 0


def _mig_pick(sliced: dict[str, Any], other: dict[str, Any]) -> Draft:
    """Two cards for isolated tenants: the one with MIG."""
    size = sliced.get("mig_smallest_gb")
    each = f" (the smallest {c.num(size, 'GB')} each)" if size else ""
    head = (f"**The {sliced['name']}: it has MIG, up to {int(_mig_slices(sliced))} "
            f"hardware-isolated instances{each}, each with its own memory, cache and compute; "
            f"the {other['name']} has no MIG.**")  # fmt: skip
    why = ("On a card without MIG the tenants share it as processes (CUDA MPS or time-slicing): "
           "one tenant's burst slows the others and a crash or a memory leak can take them all "
           "down. MIG fixes each tenant's share of memory and compute in hardware.")  # fmt: skip
    return Draft("\n\n".join([head, why]))


# ---------------------------------------------------------------- NVLink against PCIe


def link_speed(query: Query, box: ToolBox) -> Draft | None:
    """ "How much faster is NVLink on an H100 SXM than PCIe 5?": both links each way."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet:
        return None
    said = re.search(r"\bpcie? ?(?:gen ?)?([3-6])\b|\bgen ?([3-6])\b", query.low)
    gen = int(next(g for g in said.groups() if g)) if said else sheet.get("pcie_gen") or 4
    pcie = pcie_gbs(box, gen)
    if pcie is None:
        return None
    name = sheet["name"]
    nvlink = sheet.get("gpu_link_gbs_per_direction")
    if sheet.get("gpu_link") not in ("bridge", "switch") or not nvlink:
        return Draft(f"**The {name} has no NVLink: its GPUs talk over PCIe {gen}.0 x16, "
                     f"{c.num(pcie, 'GB/s')} each way.**")  # fmt: skip
    kind = "NVLink (through NVSwitch, to every GPU of the board)" if sheet["gpu_link"] == "switch" \
        else "NVLink bridge (between two cards)"  # fmt: skip
    head = (f"**About {c.num(nvlink / pcie)}x: the {name}'s {kind} moves "
            f"{c.num(nvlink, 'GB/s')} each way ({c.num(sheet['gpu_link_gbs'], 'GB/s')} both "
            f"ways) against {c.num(pcie, 'GB/s')} each way for PCIe {gen}.0 x16.**")  # fmt: skip
    if sheet.get("pcie_p2p") is False:
        head += (" Cards like this one have PCIe peer-to-peer turned off, so their PCIe traffic "
                 "goes through host memory, which halves that.")  # fmt: skip
    lines = [
        head,
        "It matters where GPUs exchange data on every step: tensor-parallel inference and "
        "sharded training (FSDP, ZeRO-3) of models no single GPU holds. Data-parallel training "
        "of a model each GPU holds hides most of its gradient exchange behind the backward "
        "pass, and one GPU never uses the link.",
    ]
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- power supply


def _supply_asked(low: str) -> bool:
    """The supply asked about, not said as the box's story: "300 W PSU, slot power only ...
    which one spits out text quicker?" asks the speed."""
    asked = re.findall(r"(?:[^.?!]|(?<=\d)\.(?=\d))*\?", low)  # ("llama 3.1 8b": one sentence)
    supply = rf"(?:{SUPPLY_SAID.pattern}|\bwatt\w*|\b\d{{3,4}} ?w\b)"
    verb = r"\b(?:enough|handle|carry|cope|suffice|sufficient|ok|okay|fine|cut it|support|need)\b"
    if any(re.search(rf"{supply}[^.?!]{{0,40}}{verb}|{verb}[^.?!]{{0,30}}{supply}", a)
           for a in asked):  # fmt: skip
        return True
    said = re.search(rf"{supply}", low)
    if said and any(
        re.search(
            r"\b(?:is|are|will|would) (?:a |my |the )?\d{3,4}\s?(?:w|watts?)?"
            r" (?:be )?(?:enough|ok|okay|fine|sufficient)\b",
            a,
        )
        for a in asked
    ):
        return True  # "the psu is a 650 watt one. is 650 enough for the 4090?"
    speed = (  # ("which of the two should I order?": a pick, the supply one of its limits)
        r"\b(?:quicker|faster|slower|speed|tok\w*/s|tokens? (?:per|a) second|which (?:one|card)"
        r"|which of (?:the|them|these|those)|should i (?:order|buy|get|pick))\b"
        # "(i9, 1000W PSU) ... buy or rent, which works out cheaper?": the money asked
        r"|\b(?:buy\w*|purchas\w*) or rent\w*|\brent\w* or (?:buy\w*|purchas\w*)|\bcheaper\b"
        r"|\bbreak[- ]?even\b|\bpays? (?:itself )?off\b"
    )
    return not any(re.search(speed, a) for a in asked)


# a second card beside the one the user has: "next to mine", "alongside my 3090", "add a second"
_BESIDE_MINE = re.compile(
    r"\b(?:next to|beside|alongside|along with|with) (?:mine|my (?:own|current|other|\w+))\b"
    r"|\b(?:a|the) second (?:one|card|gpu)\b|\badd (?:another|a second)\b"
    r"|\bboth (?:cards|of them)\b"
)


def power_supply(query: Query, box: ToolBox) -> Draft | None:
    """ "Can a 1000 W PSU handle two 4090s?": the full-load draw against the supply."""
    swap = SWAP_TO.search(query.low)
    moved_in = next((g for g in query.gpus if swap and g.ids and g.text
                     and card_named_in(g.text, swap.group("new"))), None)  # fmt: skip
    if moved_in is not None and len(query.gpus) >= 2:
        # "swap that 3060 out for a 5090 ... is 750 W enough?": the card going in is the load
        query = replace(query, gpus=(moved_in,))
    found = _first_gpu(query)
    if found is None:
        return None
    ref, gpu = found
    if SLOT_ONLY.search(query.low) and len(gpus_named(query)) == 1:
        # "is the slot enough for a T4? no power cable": the card alone on the slot's 75 W
        sheet = box.call("system_power", {"gpu": gpu, "limit_w": SLOT_POWER_W})
        if "error" not in sheet and sheet.get("gpu_w"):
            sheet = {**sheet, "name": sheet["gpu_name"], "tdp_w": sheet["gpu_w"]}
            within = sheet["tdp_w"] <= SLOT_POWER_W
            head = (f"**Yes: the {sheet['name']} draws {c.num(sheet['tdp_w'], 'W')} (its board "
                    f"power), within the slot's {c.num(SLOT_POWER_W, 'W')}, so it needs no power "
                    "cable.**" if within else
                    f"**No: the {sheet['name']} draws {c.num(sheet['tdp_w'], 'W')} (its board "
                    f"power), more than the slot's {c.num(SLOT_POWER_W, 'W')}: it needs a PCIe "
                    "power cable from the supply.**")  # fmt: skip
            why = ("A PCIe x16 slot delivers at most 75 W (the PCI Express CEM specification); the "
                   "rest of the machine draws from the supply as before.")  # fmt: skip
            return Draft(f"{head}\n\n{why}", cite_more=False)
    if (counted := cards_under_limit(query, box, gpu, supply=True)) is not None:
        return counted  # "how many 4090s can a 1600 W supply run?"
    n = max(ref.count or 1, query.num_gpus or 1)
    if _BESIDE_MINE.search(query.low):
        n = max(n, 2)  # "slap his 3090 in next to mine on the same psu": two of them
    capped = {"gpu_cap_w": query.draw_w} if query.draw_each and query.draw_w else {}
    # the supply's own watts first: "my card draws 320w and my psu is 650w" (a draw said too)
    psu = query.max_power_w or supply_watts(query.low) or watts_said(query.low)
    if capped and psu == query.draw_w:
        psu = None  # "power limited to 300 W each": the cards' cap, not a supply
    if psu and len(gpus_named(query)) >= 2:
        if not re.search(r"\bor\b|\bwhich\b|\bvs\.?\b|\beither\b", query.low):
            return None  # "a 3090 plus a 4090 together": both draw at once, not one or the other
        return _supply_choice(query, box, n, psu)
    office = cpu_of_the_machine(query)  # "cpu is an i5 12400": an office CPU's watts
    p = box.call("system_power", {"gpu": gpu, "num_gpus": n, **capped, **office,
                                  **({"psu_w": psu} if psu else {})})  # fmt: skip
    if "error" in p:
        return None
    cap = f", capped at {c.num(p['gpu_w'], 'W')} each" if capped else ""
    draw = (f"{c.num(p['gpus_w'], 'W')} for {n} x {p['gpu_name']}{cap} + {c.num(p['cpu_w'], 'W')} "
            f"CPU + {c.num(p['platform_w'], 'W')} for the rest = {c.num(p['total_w'], 'W')} at "
            "full load")  # fmt: skip
    if p["verdict"] == "too small":  # (and the supply that carries it, as a buyer asks next)
        head = (f"**No: {c.num(psu, 'W')} is less than the system draws** ({draw}); about "
                f"{c.num(p['recommended_psu_w'], 'W')} of supply keeps it at "
                f"{c.num(100 * p['load_share'])}% of the rating.")  # fmt: skip
    elif p["verdict"] == "tight":
        head = (f"**Only just: {c.num(psu, 'W')} carries it, with little headroom** ({draw}; "
                f"{c.num(p['recommended_psu_w'], 'W')} keeps the supply at "
                f"{c.num(100 * p['load_share'])}%).")  # fmt: skip
    elif p["verdict"] == "enough":
        head = f"**Yes: {c.num(psu, 'W')} carries it with headroom** ({draw})."
    else:
        head = (f"**About {c.num(p['recommended_psu_w'], 'W')} of power supply** ({draw}, kept "
                f"at {c.num(100 * p['load_share'])}% of the supply's rating).")  # fmt: skip
    lines = [
        head,
        f"{_CPU_SAID[bool(office)]} (say yours if it differs); GPUs spike above their board "
        "power for milliseconds, which the margin below the supply's rating covers. Capping "
        "the cards' power (nvidia-smi -pl) trades a little speed for a lot of watts.",
    ]
    if (circuit := on_the_circuit(query, box, gpu, n)) is not None:
        lines.insert(1, circuit)  # "and will my 15A 120V circuit handle it?"
    billed = re.search(
        r"\bkwh\b|\belectric\w*|\bbill\b|\bcost\b|\bper month\b|\bmonthly\b", query.low
    )  # (a price carried from a part before: its bill is there)
    if query.usd_per_kwh and not query.draw_w and billed:  # "... and its cost per month at 15c"
        rest = replace(query, other_w=(query.other_w or 0.0) + p["cpu_w"] + p["platform_w"])
        bill = electricity_bill(rest, box, n)
        lines.insert(1, bill.text + " The CPU and the rest are counted at the figures above.")
    return Draft("\n\n".join(lines))


def _supply_choice(query: Query, box: ToolBox, n: int, psu: float) -> Draft | None:
    """ "4-GPU tower on one 1,600 W supply: the 600 W edition or the 300 W Max-Q?": each card's
    full-load system draw against the supply; of those it carries, the most compute."""
    rows = []
    office = cpu_of_the_machine(query)
    for gpu in gpus_named(query)[:3]:
        p = box.call("system_power", {"gpu": gpu, "num_gpus": n, "psu_w": psu, **office})
        sheet = box.call("gpu_specs", {"gpu": gpu})
        if "error" in p or "error" in sheet:
            return None
        rows.append((p, sheet))
    carried = [r for r in rows if r[0]["verdict"] != "too small"]
    cabled = [r for r in carried if r[1]["tdp_w"] > SLOT_POWER_W]
    if SLOT_ONLY.search(query.low):  # "no PCIe power cable": only a card the slot powers
        carried = [r for r in carried if r[1]["tdp_w"] <= SLOT_POWER_W]
    best = max(carried or rows, key=lambda r: r[1].get("fp16_bf16_dense_tflops") or 0)
    draws = "; ".join(f"{n} x {p['gpu_name']}: {c.num(p['total_w'], 'W')} at full load"
                      for p, _ in rows)  # fmt: skip
    if not carried and cabled and SLOT_ONLY.search(query.low):
        head = (f"**Neither: with no power cable, the slot's {c.num(SLOT_POWER_W, 'W')} powers "
                f"none of them** ({draws}).")  # fmt: skip
    elif not carried:
        head = f"**Neither: every choice draws more than the {c.num(psu, 'W')} supply** ({draws})."
    else:
        head = (f"**The {best[0]['gpu_name']}: {n} of them with the rest of the system draw "
                f"{c.num(best[0]['total_w'], 'W')}, which the {c.num(psu, 'W')} supply carries"
                f"** ({draws}).")  # fmt: skip
    lines = [head]
    if carried and SLOT_ONLY.search(query.low) and cabled:  # the cards the slot cannot power
        lines.append("With no PCIe power cable, " + "; ".join(
            f"the {s['name']} ({c.num(s['tdp_w'], 'W')} of board power) needs one: more than "
            f"the slot's {c.num(SLOT_POWER_W, 'W')}" for _, s in cabled) + ".")  # fmt: skip
    top = max(rows, key=lambda r: r[1].get("fp16_bf16_dense_tflops") or 0)
    tf, top_tf = best[1].get("fp16_bf16_dense_tflops"), top[1].get("fp16_bf16_dense_tflops")
    if carried and tf and top_tf and top is not best:
        lines.append(f"It keeps {c.num(tf / top_tf)}x of the peak dense FP16/BF16 per card "
                     f"({c.num(tf, 'TFLOPS')} against {c.num(top_tf, 'TFLOPS')} on the "
                     f"{top[1]['name']}) at {c.num(best[1]['tdp_w'], 'W')} against "
                     f"{c.num(top[1]['tdp_w'], 'W')} of board power.")  # fmt: skip
    lines.append(f"{_CPU_SAID[bool(office)]} (say yours if it differs); GPUs spike above their "
                 "board power for milliseconds, which the margin below the supply's rating "
                 "covers.")  # fmt: skip
    return Draft("\n\n".join(lines))


_CPU_SAID = {
    False: "The CPU figure is a high-end desktop CPU at its limit",
    True: "The CPU figure is an office desktop CPU at a mainstream desktop chip's base power",
}


# ---------------------------------------------------------------- a power cap, a lower-power model


def _name(box: ToolBox, gpu: str) -> str:
    return str(box.call("gpu_specs", {"gpu": gpu}).get("name", gpu))


def _bill_at_cap(query: Query, box: ToolBox, gpu: str) -> Draft | None:
    """A power cap asked after an electricity bill (the price per kWh and the hours carried in
    the thread): the bill at the cap against the bill at board power."""
    cap = watts_said(query.low)
    if not (cap and query.usd_per_kwh is not None and query.follow_up and query.hours):
        return None
    count = next((g.count for g in query.gpus if g.count), None) or query.num_gpus or 1
    hours, _ = billed_hours(query)  # the hours of the bill the thread gave ("8 hrs a day: a year")
    args = {"usd_per_kwh": query.usd_per_kwh, "hours": hours, "num_gpus": count, "gpu": gpu,
            "other_w": query.other_w or 0.0}  # fmt: skip
    # the draw the user said of each card ("2x 3090 at 350w each"), else the board power
    said = query.draw_w if query.draw_w and query.draw_w != cap and (
        query.draw_each or count == 1) else None  # fmt: skip
    uncapped = {**args, "power_w": said} if said else args
    board, capped = (box.call("electricity_cost", uncapped),
                     box.call("electricity_cost", {**args, "power_w": cap}))  # fmt: skip
    if "error" in board or "error" in capped:
        return None
    sign = query.currency
    rest = f" and {c.num(query.other_w, 'W')} for the rest" if query.other_w else ""
    against = (
        f"at the {c.num(board['power_w'], 'W')} you state"
        if said
        else f"at the {c.num(board['power_w'], 'W')} board power"
    )
    return Draft(
        f"**About {c.usd(capped['usd'], sign)} ({c.num(capped['kwh'], 'kWh')}) at "
        f"{c.num(cap, 'W')} each, against {c.usd(board['usd'], sign)} "
        f"({c.num(board['kwh'], 'kWh')}) {against}** "
        f"({c.gpus_phrase(count, _name(box, gpu))}{rest}, "
        f"{c.num(hours, 'hours')} at your {c.usd(query.usd_per_kwh, sign)}/kWh"
        + (
            ")."
            if said
            else "; the board power is the most the card draws, so the real saving is smaller "
            "when it runs below it)."
        )
        + "\n\n"
        "A cap lowers the clocks under load: compute-bound work (training, prompt processing, "
        "image generation) slows roughly with the clock, while token generation, bound by memory "
        "bandwidth, barely changes.",
        cite_more=False,
    )


def _training_at_cap(query: Query, box: ToolBox, gpu: str) -> Draft | None:
    """A power cap asked for training (or image generation): compute-bound work, which slows
    with the clocks the cap allows. The loss is less than the cap's share of the board power
    (clocks fall less than power under a cap), and no calibrated figure of it exists, so the
    answer gives the cap's share and the speed at board power, not a guessed loss."""
    trained = (query.workload or "").startswith(("finetune", "train"))
    if not (trained or (query.models and query.models[0].family == "diffusion")):
        return None
    cap, sheet = watts_said(query.low), box.call("gpu_specs", {"gpu": gpu})
    board = sheet.get("tdp_w")
    if "error" in sheet or not (cap and board and cap < board):
        return None
    model = _model(query) if (query.models or not trained) else REFERENCE_MODEL
    e = box.call("estimate", estimate_args(query, gpu, None, model))
    job = "training" if trained else "image generation"
    pace = ""
    if "error" not in e and e.get("fits"):
        unit = "images/s" if e.get("images_per_s") else "tokens/s"
        rate = (e.get("images_per_s") or e.get("train_tokens_per_s") or {}).get("typical")
        pace = (f" At the {c.num(board, 'W')} board power, {e['model_name']} ({c.settings(e)}) "
                f"runs at about {c.num(rate, unit)}." if rate else "")  # fmt: skip
    return Draft(
        f"**Some, for {job}: it is bound by compute, which slows with the clocks a cap allows; "
        f"{c.num(cap, 'W')} is {c.num(cap / board)}x the {sheet['name']}'s "
        f"{c.num(board, 'W')} board power, and the speed lost is usually far less than the "
        f"power taken away, as clocks fall less than power.**{pace}\n\n"
        "Token generation one stream at a time is the exception: it is bound by memory "
        "bandwidth, which a cap does not lower. Set the cap with nvidia-smi -pl and time a few "
        "hundred steps either way to measure your own loss.",
        cite_more=False,
    )


def power_limit(query: Query, box: ToolBox) -> Draft | None:
    """ "Can I power-limit my 3090 to 250 W without losing token speed?", "is the 300 W Max-Q
    half as fast as the 600 W card?": decode follows bandwidth, which power does not change;
    compute-bound work follows clocks."""
    ids = gpus_named(query)
    if not ids:
        return None
    if (counted := cards_under_limit(query, box, ids[0])) is not None:
        return counted  # "1000 W for the whole box: how many 3090s?"
    if (billed := _bill_at_cap(query, box, ids[0])) is not None:
        return billed  # "my bill is ...; would undervolting to 280 W each change that?"
    if (trained := _training_at_cap(query, box, ids[0])) is not None:
        return trained  # "280 W on my 3090: how much do I lose for training?"
    model = _model(query)
    asked = replace(query, workload="inference")
    rows = []
    for gpu in ids[:2]:
        e = box.call("estimate", estimate_args(asked, gpu, None, model))
        if "error" in e or not e["fits"] or not _decode(e):
            return None
        sheet = box.call("gpu_specs", {"gpu": gpu})
        rows.append((e, sheet))
    (e, sheet) = rows[0]
    decode = f"{c.num(_decode(e), 'tokens/s')}"
    if len(rows) == 2:
        (f, other) = rows[1]
        same = abs(sheet["bandwidth_gbs"] - other["bandwidth_gbs"]) <= 0.02 * other["bandwidth_gbs"]
        low, high = sorted(rows, key=lambda r: r[1]["tdp_w"] or 0)
        if same:
            head = (f"**No: for token generation they are close: both read memory at "
                    f"{c.num(sheet['bandwidth_gbs'], 'GB/s')}, and decode is bound by bandwidth, "
                    f"not by board power ({c.num(low[1]['tdp_w'], 'W')} against "
                    f"{c.num(high[1]['tdp_w'], 'W')}).**")  # fmt: skip
        else:
            head = (f"**Bandwidth decides token generation, not power: "
                    f"{c.num(sheet['bandwidth_gbs'], 'GB/s')} on the {sheet['name']} against "
                    f"{c.num(other['bandwidth_gbs'], 'GB/s')} on the "
                    f"{other['name']}.**")  # fmt: skip
        lines = [head, f"Computed decode of {e['model_name']} ({c.settings(e)}): about {decode} "
                 f"on the {e['gpu_name']}, {c.num(_decode(f), 'tokens/s')} on the "
                 f"{f['gpu_name']}."]  # fmt: skip
        tf = [r[1].get("fp16_bf16_dense_tflops") for r in (low, high)]
        if all(tf) and tf[0] != tf[1]:
            lines.append(f"The lower-power card runs slower clocks ({c.num(tf[0], 'TFLOPS')} "
                         f"against {c.num(tf[1], 'TFLOPS')} dense FP16/BF16 on the datasheets): "
                         "prompt processing, training and image generation, which are "
                         "compute-bound, slow by about that ratio.")  # fmt: skip
    else:
        cap = watts_said(query.low)
        board = sheet.get("tdp_w")
        capped = f" to {c.num(cap, 'W')}" if cap else ""
        # "without losing much speed?" asks yes; "is it half as fast?" asks no
        text = query.low
        slower = "without" not in text and re.search(
            r"\b(?:half|slower|twice as slow|worse|hurt\w*|los[et]\w*|drop\w*|tank\w*|"
            r"cripple\w*|kill\w*)\b",
            text,
        )
        word = "No, not much for token generation" if slower else "Mostly yes for token generation"
        head = (f"**{word}: decode is bound by memory bandwidth "
                f"({c.num(sheet['bandwidth_gbs'], 'GB/s')} on the {sheet['name']}), which a power "
                f"cap{capped} does not lower.**")  # fmt: skip
        if cap and board and cap < 0.98 * board:  # the cap as a share of the board power
            head = head[:-2] + (f" The cap is {c.num(cap / board)}x the {c.num(board, 'W')} "
                                "board power.**")  # fmt: skip
        lines = [head, f"Computed at the {c.num(board, 'W')} board power, {e['model_name']} "
                 f"({c.settings(e)}) decodes at about {decode}, and processes prompts at about "
                 f"{c.num(e['prefill_tokens_per_s']['typical'], 'tokens/s')}."]  # fmt: skip
        lines.append(c.memory_line(e))  # whether it fits at all: a cap does not change that
        lines.append(
            "A power cap lowers the clocks under load: compute-bound work (prompt processing, "
            "large batches, training, image generation) slows most, roughly in step with the "
            "clock, while generating tokens one at a time keeps most of its speed. Set it with "
            "nvidia-smi -pl and measure your own loss."
        )
    return _draft(lines, model)


# ---------------------------------------------------------------- does FlashAttention run on it?

# The architectures FlashAttention's CUDA kernels build for (Dao-AILab/flash-attention README,
# "Installation and features": FlashAttention-2 on Ampere, Ada and Hopper, Turing on 1.x only
# (Blackwell is not named there, so a Blackwell card is not answered from this table);
# FlashAttention-3 on Hopper; the ROCm build on MI200 and MI300, CDNA 2 and 3)
_FLASH_ARCHS = {
    2: ("Ampere", "Ada Lovelace", "Hopper", "CDNA 2", "CDNA 3"),
    3: ("Hopper",),
}


def flash_attention(query: Query, box: ToolBox) -> Draft | None:
    """ "Is FA2 just not supported on the T4?": the card's architecture against the ones the
    FlashAttention version builds for."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet:
        return None
    low = query.low
    version = 3 if re.search(r"\b(?:fa3|flash[- _]?attn[- _]?3|flash[- _]?attention[- _]?3)\b",
                             low) else 2  # fmt: skip
    arch = str(sheet.get("architecture") or "").split(" (")[0]  # "Blackwell (sm_100)"
    if arch == "Blackwell":
        return None  # the README names no Blackwell support: not answered from it
    runs = arch in _FLASH_ARCHS[version]
    named = [a for a in _FLASH_ARCHS[version] if not a.startswith("CDNA")]
    where = ", ".join(named) + (" and AMD's CDNA Instinct cards (ROCm build)" if version == 2
                                else "")  # fmt: skip
    if runs:
        head = (f"**Yes: the {sheet['name']} ({arch}) is one of the architectures "
                f"FlashAttention-{version} builds for ({where}).**")  # fmt: skip
        why = ("An error then comes from the install: a wheel built for another CUDA or PyTorch "
               "version, or a dtype other than fp16/bf16.")  # fmt: skip
    else:
        head = (f"**No: FlashAttention-{version} does not run on the {sheet['name']} ({arch}); "
                f"its kernels build for {where} only.**")  # fmt: skip
        why = (
            "Use PyTorch's scaled-dot-product attention (attn_implementation='sdpa'), which "
            "picks a memory-efficient kernel the card supports"
            + (", or FlashAttention 1.x, which supports Turing." if arch == "Turing" else ".")
        )
    return Draft("\n\n".join([head, why, c.sheet_summary(sheet)]))


# ---------------------------------------------------------------- does it do bf16 / fp8 / tf32?

_FORMAT_WORDS = {"bf16": r"bf16|bfloat16|bfloat", "fp8": r"fp8|float8", "tf32": r"tf32"}
FORMAT_ASKED = re.compile(rf"\b(?:{'|'.join(_FORMAT_WORDS.values())})\b")
FLASH_WORDS = r"\bflash[- _]?(?:attn|attention)\w*|\bfa[23]\b"  # FlashAttention named
_TRAINING_SAID = re.compile(r"\b(?:pre-?train\w*|train\w*|fine-?tun\w*)\b")
_SUPPORT_OR_DEFAULT = re.compile(r"\b(?:support\w*|defaults?|capable)\b")
# the format against plain FP32, a choice asked: "bf16 mixed precision or plain fp32?"
_PLAIN = r"(?:(?:plain|pure|full|just|regular|standard) )*"  # "or just plain fp32"
_OR_FP32 = re.compile(
    rf"\bor {_PLAIN}(?:fp32|float32)\b"
    r"|\b(?:fp32|float32|full precision) or\b"
)


# whether a card has the format in hardware, asked in so many words: "does my 3090 have FP8
# hardware?" (the format's speed-up told beside it is the story, not the question)
_FORMAT_HARDWARE_ASKED = re.compile(
    r"\b(?:does|do|has|have|is there)\b[^.?!]{0,30}\b(?:have|has|got|any)\s(?:native\s|real\s)?"
    r"(?:fp8|fp4|nvfp4|bf16|bfloat16|int8|tf32)\s(?:hardware|tensor cores?|support|units?|cores?)\b"
)
_SUPPORT_ASKED = re.compile(
    r"\bsupport\w*|\bcapable\b|\bcompatible\b|\bnative\w*|\bfaster\b|\bslower\b|\btrue\b"
)
# the job in a format asked, not the format: "possible? how slow", "does it fit", "doable"
_JOB_IN_FORMAT = re.compile(
    r"\bpossible\b|\bdoable\b|\bfits?\b|\bhow (?:slow|fast|long)\b|\bspeed\b|\bit/s\b"
    r"|\btok(?:ens)?/s\b|\bload\b|\bwork\b"
)


_SIZE_IN_FORMAT = re.compile(r"\d\s?b[\s-](?:bf16|bfloat16|fp8|float8)\b")


def _format_of_card(query: Query) -> bool:
    """A card's formats asked, not a model's job in one ("flux.1 dev fp8 on a 4070 super,
    possible? how slow" is the job; "does the 4070 support fp8" the format)."""
    low = query.low
    named = any(m.ids for m in query.models)
    job = named and bool(_JOB_IN_FORMAT.search(low)) and not _SUPPORT_ASKED.search(low)
    # "100 concurrent users on llama 3 70b fp8": the format the model is served in, a job
    job = job or (named and (query.concurrency is not None or bool(_SIZE_IN_FORMAT.search(low))))
    # "qlora on mistral 7b on my 2080 ti, doable? or no bf16 support": the job, the format after
    asked = named and (
        (
            bool(_JOB_ASKED.search(low))
            and (query.workload_given or bool(re.search(r"\bhow much (?:vram|memory)\b", low)))
        )
        or bool(_ROOM_ASKED.search(low))
    )
    return _one_gpu(query) and not job and not asked


_JOB_ASKED = re.compile(
    r"\b(?:doable|possible|feasible|can i|could i|will it|would it|enough|how much (?:vram|memory)"
    r"|(?:have|need) to use)\b"
)
# the model's room on the card asked in so many words: "can the model be held entirely in the
# card's memory?", "will it fit?"
_ROOM_ASKED = re.compile(r"\b(?:fits?|be held|held entirely|entirely in|all of it on)\b")


# a number format claimed or asked of a card's hardware: "the 3090 does fp8 natively like the
# 4090, yes?", "it has fp8 tensor cores, right?", "fp8 in hardware"
_FORMAT_IN_HARDWARE = re.compile(
    r"\b(?:does|do|has|have|got|runs?|supports?)\s(?:\w+\s){0,2}?(?:bf16|bfloat16|fp8|float8)\b"
    r"(?:\s(?:math|compute|matmuls?))?\s(?:in hardware|natively|native\w*|tensor cores?)\b"
    r"|\b(?:bf16|bfloat16|fp8|float8)\s(?:in hardware|natively|hardware support)\b"
)


def precision_support(query: Query, box: ToolBox) -> Draft | None:
    """ "Does the T4 do bf16?", "can the A100 run FP8?": the tensor cores' formats."""
    low = query.low
    asked = [f for f, words in _FORMAT_WORDS.items() if re.search(rf"\b(?:{words})\b", low)]
    ids = gpus_named(query)
    if not asked or not ids or not query.gpus:
        return None
    asked.sort(key=lambda f: re.search(rf"\b(?:{_FORMAT_WORDS[f]})\b", low).start())  # type: ignore[union-attr]
    # the cards asked about are those named before the format ("can my 2080 ti or my 3090 do
    # bf16"), each of their variants (their figures differ); a card named after it ("fp8 like
    # the H100") is the reference, its first variant
    at = re.search(rf"\b(?:{_FORMAT_WORDS[asked[0]]})\b", low).start()  # type: ignore[union-attr]
    if claimed := _FORMAT_IN_HARDWARE.search(low):  # "... so the 3080 does fp8 in hardware"
        at = claimed.start()
    refs = [g for g in query.gpus if gpu_choices(g)]
    before = [g for g in refs if 0 <= low.find(g.text.lower()) < at] or refs
    # ("the 3090 does fp8 natively like the 4090, yes?": the card after "like" is the reference)
    likened = [g for g in before if re.search(rf"\b(?:like|as|unlike) (?:the |an? |my |our )?"
                                               rf"{re.escape(g.text.lower())}\b", low)]  # fmt: skip
    before = [g for g in before if g not in likened] or before
    subject = list(dict.fromkeys(i for g in before for i in gpu_choices(g)[:3]))[:4]
    cards = list(dict.fromkeys([*subject, *(i for i in ids if i not in subject)]))[:5]
    lines, verdicts, missing = [], [], []
    read: dict[str, dict[str, Any]] = {}  # the sheets, once each
    for gpu in cards:
        sheet = read[gpu] = box.call("gpu_specs", {"gpu": gpu})
        if "error" in sheet:
            return None
        arch = sheet.get("architecture")
        for fmt in asked:
            has = sheet["tensor_formats"].get(fmt)
            if has is None:
                return None
            if gpu in subject:
                verdicts.append(has)
            if has:
                figure = {"bf16": sheet.get("fp16_bf16_dense_tflops"),
                          "tf32": sheet.get("tf32_dense_tflops"),
                          "fp8": sheet.get("fp8_dense_tflops")}[fmt]  # fmt: skip
                lines.append(f"the {sheet['name']} ({arch}) computes {fmt.upper()} on its "
                             f"tensor cores: {c.exact(figure, 'TFLOPS')} dense")  # fmt: skip
                continue
            missing.append(fmt)
            lines.append(f"the {sheet['name']} ({arch}) has no {fmt.upper()} tensor cores"
                         f"{_instead(sheet, fmt)}")  # fmt: skip
    mixed = "It depends on the card" if len(subject) > 1 else "Partly"
    word = "Yes" if all(verdicts) else "No" if not any(verdicts) else mixed
    head = f"**{word}: {lines[0]}.**"
    if (asked[0] == "bf16" and all(verdicts) and _OR_FP32.search(low)
            and _TRAINING_SAID.search(low) and not _SUPPORT_OR_DEFAULT.search(low)):  # fmt: skip
        # "bf16 mixed precision or plain fp32 for pretraining?": a choice, the format the
        # tensor cores run (not "does it support bf16 or just fp32", "the default")
        fp32 = read[subject[0]].get("fp32_tflops")
        if fp32:
            head = (f"**BF16 mixed precision: {lines[0]}, against {c.exact(fp32, 'TFLOPS')} in "
                    "plain FP32.** Master weights and the optimizer stay in FP32, so training "
                    "quality matches FP32 runs, while activations take half the "
                    "memory.")  # fmt: skip
    elif (asked[0] in ("bf16", "tf32") and all(verdicts) and _AGAINST_FP32.search(low)
          and (fp32 := read[subject[0]].get("fp32_tflops"))):  # fmt: skip
        # "does the 3090 do bf16? and how much faster is it than plain fp32?": both rates
        head = f"**{word}: {lines[0]}, against {c.exact(fp32, 'TFLOPS')} in plain FP32.**"
    if re.search(r"\bwhy\b|\bhow come\b", low) and not any(verdicts):
        head = f"**Because {lines[0]}.**"  # "3x slower with bfloat16 on the T4, why?"
    bullets = "\n".join(f"- {line[0].upper()}{line[1:]}." for line in lines[1:])
    parts = [head, bullets] if bullets else [head]
    smaller = _format_saves(query, box, subject[0], missing)
    if smaller:
        parts.append(smaller)
    if "fp8" in missing and not any(verdicts):  # where the format starts, in the card's segment
        first = read[subject[0]]
        next_id = _FP8_NEXT.get(str(first.get("segment")), "rtx-4090")
        newer = box.call("gpu_specs", {"gpu": next_id})
        if newer.get("fp8_dense_tflops") and next_id not in cards:  # (not a card named already)
            parts.append(
                f"FP8 tensor cores came with Ada Lovelace and Hopper: the {newer['name']} "
                f"computes FP8 at {c.exact(newer['fp8_dense_tflops'], 'TFLOPS')} dense "
                f"(FP16/BF16: {c.exact(newer['fp16_bf16_dense_tflops'], 'TFLOPS')})."
            )
    for fmt in dict.fromkeys(missing):
        parts.append({
            "bf16": "A framework may still accept bf16 on such a card and run it without the "
                    "tensor cores (emulated or in FP32), far slower; on it, train in FP16 "
                    "mixed precision with a loss scaler instead.",
            "fp8": "FP8 weights can still be stored and dequantised to 16 bits for the math "
                   "(weight-only), which saves memory but not compute.",
            "tf32": "FP32 math then runs on the CUDA cores at the FP32 rate; use FP16 mixed "
                    "precision for tensor-core speed.",
        }[fmt])  # fmt: skip
    return Draft("\n\n".join(parts))


# the first cards with FP8 tensor cores, by the segment of a card without them
_FP8_NEXT = {"datacenter": "h100-sxm5-80gb", "workstation": "rtx-6000-ada"}


def _format_saves(query: Query, box: ToolBox, gpu: str, missing: list[str]) -> str | None:
    """ "fp8 FLUX on a 3090": what the format the card cannot compute in still saves, the
    model's weights in it against 16 bits."""
    if "fp8" not in missing or not query.models or not query.models[0].ids:
        return None
    sizes = []
    model = replace(query.models[0], precision=None)  # ("flux fp8": each format in turn)
    for fmt in ("fp8", "bf16"):
        args = estimate_args(replace(query, precision=fmt), gpu, None, model)
        e = box.call("estimate", args)
        if "error" in e or not e.get("breakdown_gb"):
            return None
        sizes.append((e["model_name"], next(iter(e["breakdown_gb"].items()))))
    (name, (part, small)), (_, (_, big)) = sizes
    params = e.get("params_b")
    by_hand = (f" By hand, {c.num(params)}B parameters x 1 byte = {c.num(params, 'GB')} in FP8 "
               f"against x 2 bytes = {c.num(2 * params, 'GB')}: half, before the layers a "
               "format keeps in 16 bits." if params else "")  # fmt: skip
    return (
        f"So it is only smaller: the {name} {part} "
        f"{'take' if part.endswith('s') else 'takes'} {c.num(small, 'GB')} in FP8 "
        f"against {c.num(big, 'GB')} in 16 bits.{by_hand}"
    )


# the format set against plain FP32: "how much faster in bf16 vs plain fp32", "than fp32"
_AGAINST_FP32 = re.compile(
    r"\b(?:vs\.?|versus|than|compared (?:to|with)|over|against)\s(?:plain |regular |normal |full )?"
    r"(?:fp32|float32|32[- ]?bit)\b"
)


def _instead(sheet: dict[str, Any], fmt: str) -> str:
    """What a card without the tensor format asked for computes instead, from its datasheet."""
    fp16, fp32 = sheet.get("fp16_bf16_dense_tflops"), sheet.get("fp32_tflops")
    if fmt == "bf16" and fp16:
        plain = f", against {c.exact(fp32, 'TFLOPS')} in plain FP32" if fp32 else ""
        return f"; its 16-bit tensor figure, {c.exact(fp16, 'TFLOPS')}, is FP16{plain}"
    if fp16:
        return f"; its fastest tensor format is FP16/BF16, {c.exact(fp16, 'TFLOPS')} dense"
    return ""


# ---------------------------------------------------------------- why slow for training?


def _said_slower(query: Query) -> str | None:
    """The GPU the question calls the slower one ("our L40S boxes are slower than the A100s",
    "the H100 trains faster than the H20"), by where the GPUs sit around the comparison."""
    low = query.low
    m = re.search(r"\b(slower|worse|behind|faster|quicker|better)\b", low)
    refs = [(low.find(g.text.lower()), gpu_choices(g)[0]) for g in query.gpus if gpu_choices(g)]
    if not m or len(refs) < 2 or any(at < 0 for at, _ in refs):
        return None
    before = [gpu for at, gpu in sorted(refs) if at < m.start()]
    if not before:
        return None
    first, other = before[-1], next(gpu for _, gpu in refs if gpu != before[-1])
    return first if m.group(1) in ("slower", "worse", "behind") else other


def compute_bound(query: Query, box: ToolBox) -> Draft | None:
    """ "Why is the H20 so slow for training when it has more bandwidth?": training is
    matrix multiplies, bound by dense tensor throughput."""
    ids = gpus_named(query)
    if not ids:
        return None
    sheets = [box.call("gpu_specs", {"gpu": gpu}) for gpu in ids[:2]]
    if any("error" in s or not s.get("fp16_bf16_dense_tflops") for s in sheets):
        return None
    if len(sheets) == 2:
        sheets.sort(key=lambda sheet: sheet["fp16_bf16_dense_tflops"])
        said = _said_slower(query)
        if said is not None and said != sheets[0]["id"]:
            return None  # the card said to be slower has the more compute: not this rule
    first = sheets[0]
    tf, bw = first["fp16_bf16_dense_tflops"], first["bandwidth_gbs"]
    if len(sheets) == 2:
        other = sheets[1]
        head = (f"**Compute: training is bound by dense tensor throughput, and the "
                f"{first['name']} has {c.num(tf, 'TFLOPS')} dense FP16/BF16 against "
                f"{c.num(other['fp16_bf16_dense_tflops'], 'TFLOPS')} on the {other['name']} "
                f"({c.num(bw, 'GB/s')} against {c.num(other['bandwidth_gbs'], 'GB/s')} of "
                "bandwidth, which decides decode, not training).**")  # fmt: skip
    else:
        head = (f"**Compute: training is bound by dense tensor throughput, and the "
                f"{first['name']} has {c.num(tf, 'TFLOPS')} dense FP16/BF16; its "
                f"{c.num(bw, 'GB/s')} of bandwidth decides decode, not training.**")  # fmt: skip
        top = _flagship(first, box)
        if top is not None:
            head += (f" The {top['name']}, the {first.get('architecture')} card with the most "
                     f"compute, has {c.num(top['fp16_bf16_dense_tflops'], 'TFLOPS')} at "
                     f"{c.num(top['bandwidth_gbs'], 'GB/s')}.")  # fmt: skip
    why = (
        "A training step multiplies large matrices: about six operations per parameter per "
        "token (forward and backward), many operations per byte read, so the step time "
        "follows the tensor cores' rate. Generating tokens one at a time is the opposite: "
        "about two operations per weight read, bound by bandwidth. A card built for inference "
        "with little compute trains slowly however much memory and bandwidth it has."
    )
    return Draft("\n\n".join([head, why]))


def _flagship(sheet: dict[str, Any], box: ToolBox) -> dict[str, Any] | None:
    """The datasheet of the card of the same architecture with the most dense FP16/BF16 compute
    (the first listed of equals), when that is not this card: what the architecture can do."""
    rows = [g for g in load_catalog().gpus.values()
            if g.architecture == sheet.get("architecture") and not g.generic
            and g.fp16_bf16_dense_tflops]  # fmt: skip
    if not rows:
        return None
    top = max(rows, key=lambda g: g.fp16_bf16_dense_tflops or 0)
    if top.id == sheet["id"] or top.fp16_bf16_dense_tflops <= sheet["fp16_bf16_dense_tflops"]:
        return None
    found = box.call("gpu_specs", {"gpu": top.id})
    return None if "error" in found else found


# ---------------------------------------------------------------- narrow slots, several cards


def _not_a_job_over_several(query: Query) -> bool:
    """ "Is PCIe 4.0 fine for DDP training BERT-large on 8 4090s": a job over several cards is
    the link's question (what share of a step waits on it), not the slot's generation."""
    return not (_several(query) and query.models and query.workload not in (None, "inference"))


def _narrow_slot(query: Query) -> bool:
    return bool(_several(query) and query.interconnect and "-x" in query.interconnect)


def _slot_for_training(query: Query, box: ToolBox, ref: GpuRef, gpu: str) -> Draft | None:
    """ "Do PCIe 3.0 x8 slots hurt training on 2x 3090?": the share of a data-parallel step that
    waits on the gradient all-reduce over the slot said and over the card's own x16 (a model
    each card holds: the one named, else BERT-large)."""
    model = query.models[0] if query.models else DATA_PARALLEL_MODEL
    args = estimate_args(replace(query, workload="train"), gpu, ref.count or query.num_gpus,
                         model)  # fmt: skip
    narrow = box.call("estimate", {**args, "interconnect": query.interconnect})
    full = box.call("estimate", {**args, "interconnect": "pcie"})
    runs = (narrow, full)
    if any("error" in e or e.get("link_wait_share") is None for e in runs):
        return None
    label, rate, unit = c.lead_metric(narrow)
    wide = c.lead_metric(full)[1]["typical"]
    share = narrow["link_wait_share"]
    verdict = "Not much" if share < 0.15 else "Yes"
    cards = c.gpus_phrase(narrow["num_gpus"], narrow["gpu_name"])
    head = (f"**{verdict}: over {narrow['interconnect']}, {share_said(share)} of each step of "
            f"training {narrow['model_name']} on {cards} waits on the gradient all-reduce, "
            f"against {share_said(full['link_wait_share'])} "
            f"over {full['interconnect']}** ({label}: {c.num(rate['typical'], unit)} against "
            f"{c.num(wide, unit)}; {c.settings(narrow)}).")  # fmt: skip
    return _draft([head, DATA_PARALLEL_WHY], model)


# ---------------------------------------------------------------- two different cards, one model


def _engines_named(query: Query) -> bool:
    """Two engines or more named ("TensorRT-LLM vs vLLM for a 70b in fp8"): the engines are
    weighed, in the format said, not the format against 16 bits."""
    return sum(bool(re.search(pattern, query.low)) for _name, pattern in ENGINE_WORDS) >= 2


def _two_different_cards(query: Query) -> bool:
    """Two different cards named (no counts) for an LLM run: "a 3090 + a 3060 together"."""
    ids = {gpu_choices(ref)[0] for ref in query.gpus if ref.ids}
    return (len(query.gpus) == 2 and len(ids) == 2 and query.workload in (None, "inference")
            and query.engine in (None, "llama.cpp", "ollama")
            and all(m.family in (None, "llm") for m in query.models))  # fmt: skip


def mixed_cards(query: Query, box: ToolBox) -> Draft | None:
    """ "Can I use a 3090 and a 3060 together in llama.cpp, and how does it split?": yes, by
    layers in proportion to memory; what the two hold together, and what paces a token."""
    sheets = [box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}) for ref in query.gpus]
    if any("error" in sh or not sh.get("memory_gb") for sh in sheets):
        return None
    big, small = sorted(sheets, key=lambda sh: -sh["memory_gb"])
    total = big["memory_gb"] + small["memory_gb"]
    held = box.call("largest_model", {"gpu": f"{total:g}gb", "precision": HOME_PRECISION})
    e = held.get("estimate") if "error" not in held else None
    if not e:
        return None
    head = (f"**{{yes}}: llama.cpp splits the model's layers across the {big['name']} and the "
            f"{small['name']}, by default in proportion to their memory "
            f"({c.num(big['memory_gb'], 'GB')} and {c.num(small['memory_gb'], 'GB')}, "
            f"{c.num(total, 'GB')} in all)**; `--tensor-split` sets the shares by hand, and "
            "`-sm row` splits each layer instead (for cards of about the same speed).")  # fmt: skip
    fits = (f"In {c.num(total, 'GB')}, the largest LLM in {HOME_PRECISION} is {e['model_name']} "
            f"({c.num(e['memory_per_gpu_gb'], 'GB')})")  # fmt: skip
    model = next((m for m in query.models if m.ids or m.size_b), None)
    yes = "Yes"
    if model is not None:
        # (the two cards' memory as one pool: "both" counts them, not two of each)
        args = estimate_args(replace(query, precision=query.precision or HOME_PRECISION,
                                     num_gpus=None), f"{total:g}gb", 1, model)  # fmt: skip
        args.pop("offload", None)  # on the two cards' memory alone, no layers in system RAM
        asked = box.call("estimate", {**args, "engine": "llama.cpp"})
        if "error" not in asked:
            verb = "fits" if asked["fits"] else "does not fit"
            yes = "Yes" if asked["fits"] else f"No for {asked['model_name']}, though"
            weights = (asked.get("breakdown_gb") or {}).get("weights")
            of_it = f"; weights {c.num(weights, 'GB')}" if weights else ""
            fits += (f"; {asked['model_name']} {verb} ({c.num(asked['memory_per_gpu_gb'], 'GB')}"
                     f" of {c.usable(asked)}, {asked['precision']}{of_it})")  # fmt: skip
    pace = (f"The layers take turns: each token runs the {big['name']}'s share at "
            f"{c.num(big['bandwidth_gbs'], 'GB/s')}, then the {small['name']}'s at "
            f"{c.num(small['bandwidth_gbs'], 'GB/s')}, so the pace lands between the two cards' "
            "own, and the slower card's share is the slow part; keep the smaller card's share "
            "small when the model fits without all of it.")  # fmt: skip
    return Draft("\n\n".join([head.format(yes=yes), fits + ".", pace]))


def _one_card_slot(query: Query) -> bool:
    return bool(_one_gpu(query) and not _several(query) and query.models
                and query.interconnect and "-x" in query.interconnect)  # fmt: skip


def one_card_slot(query: Query, box: ToolBox) -> Draft | None:
    """ "the 4090 only fits on a riser in a PCIe 3.0 x4 slot: will SDXL's it/s tank?": one card
    holding the model runs it from its own memory; the narrow slot slows the load (the weights
    cross it once), not the steps."""
    found = _first_gpu(query)
    slot = re.match(r"pcie(\d?)-x(\d+)", query.interconnect or "")
    if found is None or slot is None:
        return None
    gpu = found[1]
    asked = replace(query, workload=query.workload or "inference", interconnect=None)
    e = box.call("estimate", estimate_args(asked, gpu, 1, query.models[0]))
    sheet = box.call("gpu_specs", {"gpu": gpu})
    if "error" in e or "error" in sheet or not e["fits"] or e.get("host_layers"):
        return None  # layers or parts kept in system RAM cross the slot every step
    weights = e.get("weights_nominal_gb") or (e.get("breakdown_gb") or {}).get("weights")
    own = int(sheet.get("pcie_gen") or 4)
    gen, lanes = int(slot.group(1) or own), int(slot.group(2))
    slow, fast = pcie_gbs(box, min(gen, own), lanes), pcie_gbs(box, own)
    if not weights or slow is None or fast is None:
        return None
    verdict = "Yes" if fine_asked(query) else "No"
    head = (f"**{verdict}: once {e['model_name']} is loaded, one {e['gpu_name']} runs it from its "
            f"own memory; PCIe {min(gen, own)}.0 x{lanes} ({c.num(slow, 'GB/s')} each way, "
            f"against {c.num(fast, 'GB/s')} at PCIe {own}.0 x16) slows the load, not the steps: "
            f"its {c.num(weights, 'GB')} of weights cross it once.**")  # fmt: skip
    pace = c.speed_lines(e, first_only=True)
    why = ("The slot matters where data crosses it every step: layers or model parts kept in "
           "system RAM (llama.cpp's partial offload, diffusers' CPU offload, --medvram), or "
           "several cards splitting one model.")  # fmt: skip
    return Draft("\n\n".join([head, *pace, why]))


SLOT_REFERENCE_GPU = "rtx-3090"  # the card sized when a slot question names none


def _layer_split_slot(query: Query, box: ToolBox, narrow: dict[str, Any], full: dict[str, Any],
                      decode: float) -> Draft | None:  # fmt: skip
    """ "The second 3090 runs at x4 through the chipset: will it tank llama.cpp's tokens/s on a
    70B split across both?": a split by layers passes only each token's activations between the
    cards, so decode is the same over the narrow slot; its width, and where it does show."""
    slot = re.search(r"pcie(\d)-x(\d+)", str(query.interconnect))
    if slot is None or str(full.get("engine")) in TENSOR_PARALLEL_ENGINES:
        return None
    gen, lanes = int(slot.group(1)), int(slot.group(2))
    narrow_gbs, full_gbs = pcie_gbs(box, gen, lanes), pcie_gbs(box, gen)
    if narrow_gbs is None or full_gbs is None:
        return None
    cards = c.gpus_phrase(full["num_gpus"], full["gpu_name"])
    verdict = "Yes" if fine_asked(query) else "No"
    head = (
        f"**{verdict}: {full['engine']} splits {full['model_name']} by layers over {cards}, so "
        f"only each token's activations (a few kilobytes) cross the slot: decode about "
        f"{c.num(decode, 'tokens/s')} over x{lanes} as over x16** ({c.settings(full)})."
    )
    return Draft("\n\n".join([
        head,
        f"A PCIe {gen}.0 x{lanes} slot moves {c.num(narrow_gbs, 'GB/s')} each way, against "
        f"{c.num(full_gbs, 'GB/s')} for x16: loading the weights onto that card takes longer, "
        "and an engine that splits every layer across the cards (tensor parallelism: vLLM, "
        "TensorRT-LLM) would wait on it for every token.",
        c.memory_line(full),
    ]))  # fmt: skip


def slot_width(query: Query, box: ToolBox) -> Draft | None:
    """Several cards on x1 risers or x4 slots: the same job over the stated slots and over
    full ones. Tensor parallelism all-reduces activations every layer: prompts suffer most."""
    found = _first_gpu(query)
    if found is None and query.workload not in (None, "inference") and not query.gpus:
        # "x8 vs x16 for 2 GPUs training with DDP", no card named: on a common desktop card
        ref = GpuRef(SLOT_REFERENCE_GPU, (SLOT_REFERENCE_GPU,), count=query.num_gpus)
        draft = _slot_for_training(query, box, ref, SLOT_REFERENCE_GPU)
        if draft is not None:
            draft.text += ("\n\n_Note: no card named: sized on the RTX 3090, a common card of "
                           "such rigs; a faster card waits a larger share._")  # fmt: skip
        return draft
    if found is None:
        return None
    ref, gpu = found
    model = _model(query)
    asked = replace(query, workload=query.workload or "inference")
    if asked.workload != "inference":  # data-parallel training: its wait on the slot
        return _slot_for_training(query, box, ref, gpu)
    args = estimate_args(asked, gpu, ref.count, model)
    narrow = box.call("estimate", args)
    full = box.call("estimate", {k: v for k, v in args.items() if k != "interconnect"})
    if "error" in narrow or "error" in full or not narrow["fits"]:
        return None
    if narrow.get("workload") != "inference":
        return None
    slow_p, fast_p = (
        narrow["prefill_tokens_per_s"]["typical"],
        full["prefill_tokens_per_s"]["typical"],
    )
    slow_d, fast_d = _decode(narrow), _decode(full)
    if not (slow_p and fast_p and slow_d and fast_d):
        return None
    if narrow.get("interconnect") is None or (slow_p, slow_d) == (fast_p, fast_d):
        # the engine does not talk over the slot (llama.cpp's layer split): said, with the slot
        return _layer_split_slot(query, box, narrow, full, fast_d)
    cards = f"{narrow.get('num_gpus') or ref.count} x {narrow['gpu_name']}"
    verdict = "No" if slow_p < 0.5 * fast_p else "Mostly yes"
    head = (f"**{verdict}: over {narrow.get('interconnect')}, {cards} process prompts at about "
            f"{c.num(slow_p, 'tokens/s')} against {c.num(fast_p, 'tokens/s')} over "
            f"{full.get('interconnect')}; decode holds up better, "
            f"{c.num(slow_d, 'tokens/s')} against {c.num(fast_d, 'tokens/s')}** "
            f"({c.settings(narrow)}).")  # fmt: skip
    ttft = [(e.get("time_to_first_token_s") or {}).get("typical") for e in (narrow, full)]
    lines = [head]
    slot = re.search(r"pcie(\d)-x(\d+)", str(query.interconnect))
    if slot:  # the stated slot against a full one, each way
        gen, lanes = int(slot.group(1)), int(slot.group(2))
        narrow_gbs, full_gbs = pcie_gbs(box, gen, lanes), pcie_gbs(box, gen)
        if narrow_gbs is not None and full_gbs is not None:
            lines.append(f"A PCIe {gen}.0 x{lanes} slot moves {c.num(narrow_gbs, 'GB/s')} each "
                         f"way, against {c.num(full_gbs, 'GB/s')} for x16.")  # fmt: skip
    if all(ttft):
        lines.append(f"Time to first token: about {c.num(ttft[0], 's')} against "
                     f"{c.num(ttft[1], 's')}.")  # fmt: skip
    lines.append(
        "Tensor parallelism splits every layer across the cards, so every layer all-reduces "
        "its activations over the link: a few kilobytes per generated token, but megabytes "
        "per layer for a long prompt, which a narrow slot carries slowly. Splitting by layers "
        "(pipeline, or llama.cpp's default) sends far less between the cards."
    )
    return _draft(lines, model)


# ---------------------------------------------------------------- context, quantisation, offload


def context_memory(query: Query, box: ToolBox) -> Draft | None:
    """ "Why does VRAM explode at 128k context?": the KV cache grows with every token."""
    model = _named_model(query) or REFERENCE_MODEL
    found = _first_gpu(query)
    gpu = found[1] if found else "h100-sxm5-80gb"  # a GPU only sizes usable memory here
    asked = replace(query, workload="inference", context=query.context or 131072)
    # a shorter context the user weighs ("... 65536 ... would 8192 work?"), else the default
    other = _shorter_context(query.low, asked.context or 131072)
    long = box.call("estimate", estimate_args(asked, gpu, None, model))
    short = box.call("estimate", estimate_args(replace(asked, context=other or 4096), gpu, None,
                                               model))  # fmt: skip
    if "error" in long or "error" in short:
        return None
    kv, kv_short = long["breakdown_gb"].get("kv_cache"), short["breakdown_gb"].get("kv_cache")
    weights = long["breakdown_gb"].get("weights")
    if not kv or not kv_short:
        return None
    head = (f"**The KV cache: {long['model_name']} keeps the keys and values of every token, "
            f"{c.num(kv, 'GB')} at {long['context']:,} tokens against {c.num(kv_short, 'GB')} "
            f"at {short['context']:,}, on top of its {c.num(weights, 'GB')} of weights** "
            f"({c.settings(long)}).")  # fmt: skip
    if other and found:  # "would 8192 work?": that context on the card
        verdict = "fits" if short["fits"] else "does not fit either"
        line = c.memory_line(short)
        head += f"\n\nAt {short['context']:,} tokens it {verdict}: {line[0].lower()}{line[1:]}"
    why = (
        "Each layer stores a key and a value vector per token and per KV head, so the cache "
        "grows in step with the context and the batch. A quantised cache (eight-bit) halves it; "
        "grouped-query attention (fewer KV heads) is why newer models need less per token."
    )
    return _with_fit(head, long if found else None, " that", why, model)


def _shorter_context(low: str, longest: int) -> int | None:
    """Another context length said, shorter than the one asked: "would 8192 work?", "or 16k"."""
    for m in re.finditer(
        r"(?<![\d.,$])(\d{1,3})k\b|(?<![\d.,$])(\d{4,6})\b(?!\s?(?:mhz|w\b|gb|mb))", low
    ):
        value = int(m.group(1)) * 1024 if m.group(1) else int(m.group(2))
        if 512 <= value < longest and value % 256 == 0:
            return value
    return None


def _with_fit(head: str, e: dict[str, Any] | None, what: str, why: str, model: ModelRef) -> Draft:
    """The lead, whether the estimate `e` fits on its GPU (when one was named), why, and the
    note on a reference model."""
    lines = [head]
    if e is not None:
        verdict = "fits" if e["fits"] else "does not fit"
        line = c.memory_line(e)
        lines.append(f"On the {e['gpu_name']}{what} {verdict}: {line[0].lower()}{line[1:]}")
    lines.append(why)
    return _draft(lines, model)


def quantisation(query: Query, box: ToolBox) -> Draft | None:
    """ "How does a 13B fit on my 12 GB card when it needs 26 GB?": fewer bits per weight."""
    model = _named_model(query) or REFERENCE_MODEL
    found = _first_gpu(query)
    gpu = found[1] if found else "rtx-4090"
    asked = replace(query, workload="inference", precision=None)
    args = estimate_args(asked, gpu, None, model)
    full = box.call("estimate", {**args, "precision": "bf16"})
    four = box.call("estimate", {**args, "precision": "q4_k_m", "engine": "llama.cpp"})
    if "error" in full or "error" in four:
        return None
    w16, w4 = full["breakdown_gb"]["weights"], four["breakdown_gb"]["weights"]
    head = (f"**4-bit quantization: each weight is stored in about 4 bits instead of 16, so "
            f"{full['model_name']}'s weights take about {c.num(w4, 'GB')} (q4_k_m) instead of "
            f"{c.num(w16, 'GB')} in bf16.**")  # fmt: skip
    why = (
        "Weights are grouped in small blocks, each stored as low-bit integers with a scale; "
        "the GPU turns them back into 16-bit numbers as it computes. Quality drops a little at "
        "4 bits and more below; decoding gets faster too, as fewer bytes are read per token."
    )
    return _with_fit(head, four if found else None, ", q4_k_m", why, model)


def offload(query: Query, box: ToolBox) -> Draft | None:
    """ "Why does my 70B crawl on a 4090 when a 13B flies?", "why is SDXL so slow on my 3070?":
    what does not fit in VRAM runs from system RAM."""
    found = _first_gpu(query)
    named = [m for m in query.models if m.ids or m.size_b]
    if found is None or not named:
        return None
    model = named[0]
    llm = (model.family or "llm") == "llm"
    job = replace(query, workload="inference" if llm else (query.workload or "inference"))
    args = estimate_args(job, found[1], None, model)
    whole = {k: v for k, v in args.items() if k not in ("offload", "gpu_layers", "ram_gb")}
    e = box.call("estimate", whole)  # on the card alone: whether it fits there is the question
    if "error" in e:
        return None
    if e["fits"]:
        return bandwidth(query, box) if llm else None  # it fits: the card's bandwidth sets it
    weights = e["breakdown_gb"].get("weights")
    share = f", {c.num(weights, 'GB')} of it weights" if weights else ""
    head = (f"**It does not fit in VRAM, so part of it runs from system RAM (CPU offload): "
            f"{e['model_name']} needs about {c.num(e['memory_per_gpu_gb'], 'GB')}{share} "
            f"({c.settings(e)}), and the {e['gpu_name']} has "
            f"{c.usable(e)}.**")  # fmt: skip
    if llm:
        why = (f"The card reads its own memory at {c.num(e['gpu_bandwidth_gbs'], 'GB/s')}; the "
               "offloaded layers are read from system RAM, an order of magnitude slower, every "
               "token, and the slowest part sets the pace (the GPU then idles, waiting). A "
               "smaller model or quant that fits, or a second card, keeps every layer on the "
               "GPU.")  # fmt: skip
        split = box.call("estimate", {**whole, "offload": "layers", "engine": "llama.cpp"})
        if "error" not in split and split.get("gpu_layers") is not None:
            why += (f" Split as llama.cpp and ollama run it: {c.host_split(split)}; "
                    f"{c.band(split['decode_tokens_per_s'], 'tokens/s')}.")  # fmt: skip
        if (smaller := _format_offered(query, box, whole, e)) is not None:
            return Draft("\n\n".join([smaller, head.replace("**", ""), why]))
    else:
        why = (f"{c.memory_line(e)} What does not fit is moved between system RAM and the card "
               "over PCIe at every step (the UI's low-VRAM mode, or the driver spilling into "
               "shared memory), which is far slower than the card's own "
               f"{c.num(e['gpu_bandwidth_gbs'], 'GB/s')}. A card with enough memory, a smaller "
               "resolution or a lower precision keeps it all on the GPU.")  # fmt: skip
    return Draft("\n\n".join([head, why]))


# a smaller format the user weighs: "should I be using the fp16 or a Q4_K_M gguf instead?"
_SMALLER_FORMAT = re.compile(
    r"\b(?:or|instead|switch\w* to|go (?:with|for)|use|try|should i)\b[^.?!]{0,30}?"
    r"\b(q[2-8]_k(?:_[sml])?|q[48]_0|q[2-8]|[48]-?bit|awq|gptq|gguf|exl2)\b"
)
# "should I pick a different file?", "is there a smaller version I can use?"
_OTHER_FILE = re.compile(
    r"\b(?:different|other|another|smaller|lighter)\s(?:gguf\s)?(?:file|quant\w*|version|gguf"
    r"|download|format)\b|\bwhich (?:file|quant|gguf)\b"
)
# the common GGUF files, largest first: the first that fits is the one to take
_GGUF_LADDER = ("q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m")
_GGUF_DEFAULT = {"q4": "q4_k_m", "q5": "q5_k_m", "q6": "q6_k", "q8": "q8_0", "4bit": "q4_k_m",
                 "4-bit": "q4_k_m", "8bit": "q8_0", "8-bit": "q8_0", "gguf": "q4_k_m",
                 "awq": "q4_k_m", "gptq": "q4_k_m", "exl2": "q4_k_m"}  # fmt: skip


def _format_offered(
    query: Query, box: ToolBox, whole: dict[str, Any], e: dict[str, Any]
) -> str | None:
    """The smaller format the user weighs, when the model fits the card in it: the pick first;
    "should I pick a different file?": the largest common GGUF that fits."""
    said = _SMALLER_FORMAT.search(query.low)
    if said is not None:
        fmt = _GGUF_DEFAULT.get(said.group(1), said.group(1))
        small = box.call("estimate", {**whole, "precision": fmt, "engine": "llama.cpp"})
    elif _OTHER_FILE.search(query.low):
        tried = [(f, box.call("estimate", {**whole, "precision": f, "engine": "llama.cpp"}))
                 for f in _GGUF_LADDER if f != e.get("precision")]  # fmt: skip
        fmt, small = next(((f, r) for f, r in tried if "error" not in r and r["fits"]),
                          ("", {"error": "none fits"}))  # fmt: skip
    else:
        return None
    if "error" in small or not small["fits"]:
        return None
    w_small, w_full = small["breakdown_gb"].get("weights"), e["breakdown_gb"].get("weights")
    speed = (small.get("decode_tokens_per_s") or {}).get("typical")
    short = fmt.split("_")[0].upper()  # "Q4" of Q4_K_M, as people say it
    label = f"the {short} quant, {fmt.upper()}" if short != fmt.upper() else f"the {short}"
    return (f"**Use {label}: {small['model_name']}'s weights are "
            f"{c.num(w_small, 'GB')} in {fmt} against {c.num(w_full, 'GB')} in "
            f"{e['precision']}, so it fits on the {small['gpu_name']} "
            f"({c.num(small['memory_per_gpu_gb'], 'GB')} of {c.usable(small)}) and runs at about "
            f"{c.num(speed, 'tokens/s')} with every layer on the card.**")  # fmt: skip


# ---------------------------------------------------------------- FP64, SXM modules


def double_precision(query: Query, box: ToolBox) -> Draft | None:
    """ "Is a 4090 any good for FP64 CFD?": its FP64 rate against its FP32 rate and against
    the datacenter cards built for double precision."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet or not sheet.get("fp64_tflops") or not sheet.get("fp32_tflops"):
        return None
    fp64, fp32 = sheet["fp64_tflops"], sheet["fp32_tflops"]
    share = fp32 / fp64
    good = share <= 4  # HPC parts run FP64 at half (or a quarter) of FP32
    refs = [box.call("gpu_specs", {"gpu": g}) for g in FP64_REFERENCES if g != sheet["id"]]
    refs = [r for r in refs if "error" not in r]
    head = (f"**{'Yes' if good else 'No'}: the {sheet['name']} computes "
            f"{c.num(fp64, 'TFLOPS')} in FP64 against {c.num(fp32, 'TFLOPS')} in FP32, "
            f"{share:.0f}x less.**")  # fmt: skip
    lines = [head]
    if refs:
        lines.append("Cards built for double precision: " + "; ".join(
            f"{r['name']} {c.num(r['fp64_tflops'], 'TFLOPS')} FP64"
            + (f" ({c.num(r['fp64_tensor_tflops'], 'TFLOPS')} on its FP64 tensor cores)"
               if r.get("fp64_tensor_tflops") else "")
            for r in refs) + ".")  # fmt: skip
    lines.append(
        "Consumer and workstation cards keep only a few FP64 units per multiprocessor, so "
        "double-precision solvers (CFD, FEM, molecular dynamics in FP64) run far below the "
        "card's FP32 figure; machine learning does not use FP64."
    )
    return Draft("\n\n".join(lines))


FP64_REFERENCES = ("a100-sxm4-80gb", "h100-sxm5-80gb")  # the datacenter FP64 parts


def double_precision_pick(query: Query, box: ToolBox) -> Draft | None:
    """ "4090 or a used V100 for an FP64 CFD solver?": the card with the higher FP64 rate, each
    card's FP64 against its FP32."""
    sheets = [box.call("gpu_specs", {"gpu": g}) for g in gpus_named(query)[:3]]
    if len(sheets) < 2 or any("error" in s or not s.get("fp64_tflops") for s in sheets):
        return None
    sheets.sort(key=lambda s: -s["fp64_tflops"])
    best, rest = sheets[0], sheets[1:]
    # (with the rate on FP64 tensor or matrix cores beside it where the card has them)
    others = "; ".join(f"{c.field_value(s, 'fp64_tflops')} on the {s['name']}" for s in rest)
    head = (f"**The {best['name']}: {c.field_value(best, 'fp64_tflops')} in FP64 (double "
            f"precision) against {others}.**")  # fmt: skip
    rates = "; ".join(f"{s['name']} {c.num(s['fp64_tflops'], 'TFLOPS')} FP64 against "
                      f"{c.num(s['fp32_tflops'], 'TFLOPS')} FP32" for s in sheets
                      if s.get("fp32_tflops"))  # fmt: skip
    lines = [head, f"Each card's FP64 against its FP32: {rates}."]
    lines.append(
        "Datacenter compute parts keep FP64 units at a half or a third of the FP32 rate; "
        "consumer cards keep a few, so double-precision solvers run far below their FP32 "
        "figure. Machine learning runs in FP16/BF16 on the tensor cores and does not use FP64."
    )
    return Draft("\n\n".join(lines))


def module_form(query: Query, box: ToolBox) -> Draft | None:
    """ "Can I put an SXM H100 in my workstation?": an SXM module needs its baseboard."""
    found = _first_gpu(query)
    if found is None or _form(found[1]) != "sxm":
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet:
        return None
    head = (f"**No: the {sheet['name']} is an SXM module ({sheet.get('form_factor')}, "
            f"{c.num(sheet['tdp_w'], 'W')}); it mounts on an HGX or DGX baseboard that feeds "
            "it power and NVLink, not in a PCIe slot.**")  # fmt: skip
    lines = [head]
    other = box.call("gpu_specs", {"gpu": f"{found[0].base} PCIe"}) if found[0].base else {}
    if other and "error" not in other:
        lines.append(f"The card for a PCIe slot is the {other['name']} "
                     f"({c.num(other['tdp_w'], 'W')}, {other.get('form_factor')}).")  # fmt: skip
    lines.append(
        "Adapter boards that take one SXM module and present it as a PCIe card exist, but they "
        "need their own power delivery and cooling for the module's full board power."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- datasheet figures out of reach

_SPARSE_FIELDS = (  # (dense field, sparse field or None when sparse is twice dense, format)
    ("fp16_bf16_dense_tflops", "fp16_bf16_sparse_tflops", "FP16/BF16"),
    ("fp8_dense_tflops", None, "FP8"),
    ("fp4_dense_tflops", None, "FP4"),
    ("tf32_dense_tflops", "tf32_sparse_tflops", "TF32"),
    ("int8_dense_tops", "int8_sparse_tops", "INT8"),
)
# "can I compare those two numbers directly": the quoted figure set against another card's
_COMPARED = re.compile(r"\bcompar\w*|\bsame thing\b|\bapples\b|\b\d+x faster\b|\bfaster\b")


# a number format written between a figure and its unit: "1,321 INT8 TOPS"
_FORMAT_WORD = r"(?:(?:int8|int4|fp8|fp16|bf16|fp4|tf32)\s)?"
# a throughput figure the user quotes: "1,979 teraflops", "2070 TFLOPS", "624 tops"
_QUOTED_FIGURE = re.compile(
    rf"\b(\d[\d,]*(?:\.\d+)?)\s?{_FORMAT_WORD}(?:t(?:era)?(?:flops|ops)?\b|tf\b)"
)


# "a petaflop of AI performance", "1.4 PFLOPS": thousands of TFLOPS
_QUOTED_PETA = re.compile(r"\b(a|one|\d[\d,]*(?:\.\d+)?)\s?(?:peta-?flops?|pflops?)\b")


def _said_figures(text: str) -> list[float]:
    low = text.lower()
    peta = [1.0 if x in ("a", "one") else float(x.replace(",", ""))
            for x in _QUOTED_PETA.findall(low)]  # fmt: skip
    return [float(x.replace(",", "")) for x in _QUOTED_FIGURE.findall(low)] + [
        1000 * x for x in peta
    ]


def _formats_beside_figures(low: str, sheet: dict[str, Any] | None = None) -> set[str]:
    """The number formats written next to a quoted TFLOPS figure ("1,979 teraflops' for FP16",
    "1321 TFLOPS FP8"), not elsewhere in the message; with `sheet`, only beside figures of that
    card ("Thor does 2070 TFLOPS, our 4090 is 165 FP16 TFLOPS": the FP16 is the 4090's)."""
    found = set()
    rates = [x for k, v in (sheet or {}).items()
             if isinstance(v, int | float) and k.endswith(("_tflops", "_tops"))
             for x in (v, 2 * v)]  # (a sparse rate is twice the dense one)  # fmt: skip
    for m in _QUOTED_FIGURE.finditer(low):
        value = float(m.group(1).replace(",", ""))
        if sheet is not None and not any(abs(value - r) <= 0.03 * r for r in rates if r):
            continue
        beside = low[max(0, m.start() - 12) : m.end() + 16]
        found |= set(re.findall(r"\b(fp16|bf16|fp8|fp4|tf32|int8)\b", beside))
    return {"fp16" if f == "bf16" else f for f in found}


def sparse_figure(query: Query, box: ToolBox) -> Draft | None:
    """ "The datasheet says 1,466 TFLOPS but I measure 600", "is 1,979 the dense or the sparse
    figure?", "Thor does 2070 TFLOPS, can I compare that with my 4090's 165?": which line of the
    datasheet the figure is (format, dense or with 2:4 structured sparsity)."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet:
        return None
    said = _said_figures(query.text)
    low = query.low
    near = _formats_beside_figures(low, sheet)
    named = [f for f in _SPARSE_FIELDS if f[2].split("/")[0].lower() in near]
    # the format the user names beside the figure, only (1,979 is FP16 sparse and FP8 dense; a
    # 4090's "1,321 FP8" is the FP16-accumulate rate the catalog does not hold: no other format
    # stands in for it); a format said of another card's figure does not count
    fields = named or list(_SPARSE_FIELDS)
    # the card's headline dense FP16/BF16 rate is that rate, not another format's sparse one (a
    # 5090's "210 TFLOPS" is its dense FP16/BF16, not TF32 with sparsity)
    headline = sheet.get("fp16_bf16_dense_tflops")
    dense_said = {x for x in said if headline and abs(x - headline) <= 0.03 * headline}
    for dense_key, sparse_key, fmt in fields:
        dense = sheet.get(dense_key)
        if not dense:
            continue
        sparse = sheet.get(sparse_key) if sparse_key else None
        sparse = sparse or (2 * dense if sheet.get("vendor") == "NVIDIA" else None)
        unit = "TOPS" if fmt == "INT8" else "TFLOPS"
        quoted = next((x for x in said if sparse and abs(x - sparse) <= 0.03 * sparse
                       and x not in dense_said), None)  # fmt: skip
        if quoted is None:
            if any(abs(x - dense) <= 0.03 * dense for x in said) and re.search(r"\bspars", low):
                head = (f"**Dense: the {sheet['name']}'s {c.num(dense, unit)} {fmt} is the dense "
                        f"figure; with two-of-four structured sparsity the datasheet says "
                        f"{c.num(sparse, unit)}.**")  # fmt: skip
                return Draft(head)
            continue
        what = (f"the {sheet['name']}'s {c.num(quoted, unit)} is {fmt} with structured "
                f"sparsity (two of every four weights zero); dense, a plain matrix multiply "
                f"peaks at {c.num(dense, unit)} {fmt}")  # fmt: skip
        lower = [
            f"{c.num(sheet[k], 'TFLOPS')} {f}"
            for k, _, f in _SPARSE_FIELDS[:3]
            if f != fmt and sheet.get(k) and sheet[k] < dense
        ]
        if lower:
            what += f" ({', '.join(lower)})"
        others = [g for g in query.gpus[1:] if gpu_choices(g)]
        if _COMPARED.search(low) or others:
            lines = [f"**No, not directly: {what}.**"]
            for ref in others:
                other = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]})
                if "error" not in other and other.get("fp16_bf16_dense_tflops"):
                    lines.append(
                        f"The like-for-like figure is dense FP16/BF16: {sheet['name']} "
                        f"{c.num(sheet['fp16_bf16_dense_tflops'], 'TFLOPS')}, {other['name']} "
                        f"{c.num(other['fp16_bf16_dense_tflops'], 'TFLOPS')}. For generating "
                        f"tokens the memory bandwidth decides more than compute: "
                        f"{c.num(sheet['bandwidth_gbs'], 'GB/s')} against "
                        f"{c.num(other['bandwidth_gbs'], 'GB/s')}."
                    )
            return Draft("\n\n".join(lines))
        head = f"**It is the sparse figure: {what}.**"
        why = (
            "Ampere and newer tensor cores can skip half of the weights when they are "
            "pruned in a fixed two-in-four pattern, and datasheets lead with that doubled "
            "rate. An ordinary benchmark multiplies dense matrices, so the dense figure is "
            "its ceiling, and real kernels reach a share of it that falls with clocks under "
            "power and heat limits."
        )
        return Draft("\n\n".join([head, why]))
    return None


def tf32_speed(query: Query, box: ToolBox) -> Draft | None:
    """ "My FP32 model trains faster than the FP32 spec says": TF32 on the tensor cores."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    if "error" in sheet or not sheet.get("tf32_dense_tflops") or not sheet.get("fp32_tflops"):
        return None
    head = (f"**TF32: on the {sheet['name']} FP32 matrix multiplies and convolutions can run "
            f"on the tensor cores in TF32, {c.num(sheet['tf32_dense_tflops'], 'TFLOPS')} dense, "
            f"against {c.num(sheet['fp32_tflops'], 'TFLOPS')} for plain FP32.**")  # fmt: skip
    why = (
        "TF32 keeps FP32's range with a shorter mantissa. PyTorch uses it for convolutions by "
        "default (cuDNN) and for matrix multiplies when allowed "
        "(torch.backends.cuda.matmul.allow_tf32, or torch.set_float32_matmul_precision('high')), "
        "so an FP32 model beats the FP32 datasheet figure without any change to its code."
    )
    return Draft("\n\n".join([head, why]))


# ---------------------------------------------------------------- the link between GPUs


def interconnect(query: Query, box: ToolBox) -> Draft | None:
    """ "Tensor parallel over 4x 4090 barely beats one card, 4x A100 SXM scales: why?": the
    link between the GPUs, NVLink against PCIe, each from its datasheet."""
    named = [(gpu_choices(g)[0], g.count or query.num_gpus or 1) for g in query.gpus
             if gpu_choices(g)]  # fmt: skip
    if not named:
        return None
    parts, kinds = [], []
    for gpu, count in list(dict.fromkeys(named))[:2]:
        sheet = box.call("gpu_specs", {"gpu": gpu})
        if "error" in sheet:
            return None
        link = sheet.get("gpu_link") if sheet.get("gpu_link_gbs") else None
        if link == "switch" or (link == "bridge" and count <= 2):
            kinds.append(True)
            through = " through NVSwitch" if link == "switch" else " over a bridge"
            parts.append(f"the {sheet['name']} GPUs are joined by NVLink{through} at "
                         f"{c.num(sheet['gpu_link_gbs'], 'GB/s')} per GPU (both ways)")  # fmt: skip
            continue
        kinds.append(False)
        gen = sheet.get("pcie_gen") or 4
        links = box.call("pcie_links", {"gens": [gen], "lanes": sheet.get("pcie_lanes") or 16})
        if "error" in links:
            return None
        pairs = (f" (an NVLink bridge, {c.num(sheet['gpu_link_gbs'], 'GB/s')}, joins only pairs)"
                 if link == "bridge" else "")  # fmt: skip
        text = (f"the {sheet['name']} GPUs talk over PCIe {gen}.0 "
                f"x{links['links'][0]['lanes']}, {c.num(links['links'][0]['gbs'], 'GB/s')} each "
                f"way{pairs}")  # fmt: skip
        if sheet.get("pcie_p2p") is False:
            text += ", with peer-to-peer off, so through host memory"
        parts.append(text)
    lead = "NVLink against PCIe" if len(set(kinds)) == 2 else "The interconnect"
    head = f"**{lead}: {'; '.join(parts)}.**"
    why = ("Splitting a model over GPUs makes them exchange data on every step: tensor "
           "parallelism all-reduces the activations twice per layer for every token, and sharded "
           "training (FSDP, ZeRO-3) gathers the weights and reduce-scatters the gradients every "
           "step. Over PCIe that exchange takes longer than the compute it feeds, so adding cards "
           "adds little; over NVLink it hides behind the compute. Without NVLink, split by layers "
           "(pipeline parallelism) or run one copy of the model per card.")  # fmt: skip
    return Draft(f"{head}\n\n{why}")


def _split_job(query: Query) -> bool:
    """Two or more GPUs in a job split across them (a count or two kinds)."""
    return _several(query) and bool(gpus_named(query))


# ---------------------------------------------------------------- batching, prefill, decode


# the card a "why is decode bandwidth-bound" question naming none is shown on
PHASES_REFERENCE_GPU = "h100-sxm5-80gb"


def _served(query: Query, box: ToolBox, reference: str | None = None) -> dict[str, Any] | None:
    """The question's model (or the reference LLM) run on its first GPU (else on `reference`,
    when given), for inference."""
    found = _first_gpu(query)
    gpu = found[1] if found is not None else reference
    if gpu is None:
        return None
    e = box.call("estimate", estimate_args(replace(query, workload="inference"), gpu, None,
                                           _model(query)))  # fmt: skip
    return None if "error" in e or not e["fits"] or not _decode(e) else e


def batching(query: Query, box: ToolBox) -> Draft | None:
    """ "Throughput goes up 20x with more users but each user's tokens/s barely drops: how?":
    decode is bound by reading the weights, and one read serves the whole batch."""
    e = _served(query, box)
    if e is None:
        return None
    weights = e["breakdown_gb"]["weights"]
    head = (f"**Memory bandwidth: every decode step reads all {c.num(weights, 'GB')} of "
            f"{e['model_name']}'s weights ({e['precision']}) at "
            f"{c.num(e['gpu_bandwidth_gbs'], 'GB/s')} on the {e['gpu_name']}, and that one read "
            "serves every sequence in the batch; the "
            f"{c.num(e['gpu_fp16_tflops'], 'TFLOPS')} of dense compute mostly "
            "waits.**")  # fmt: skip
    lines = [head]
    serving = (e.get("serving_tokens_per_s") or {}).get("typical")
    if serving:
        lines.append(f"Computed ({c.settings(e)}): about {c.num(_decode(e), 'tokens/s')} for one "
                     f"stream, about {c.num(serving, 'tokens/s')} in all with "
                     f"{e.get('serving_batch')} requests in flight.")  # fmt: skip
    lines.append(
        "A batch of sequences turns each matrix-vector product into a small matrix product: the "
        "step still takes about the time to stream the weights, now shared by all. Per-user "
        "speed falls once the batch's KV-cache reads and its compute grow to rival the weight "
        "read, at large batches and long contexts."
    )
    return _draft(lines, _model(query))


def prefill_decode(query: Query, box: ToolBox) -> Draft | None:
    """ "The prompt is processed in under a second, but generation is only 55 tok/s: why?":
    prefill is bound by compute, decode by bandwidth (on a reference card when none is
    named)."""
    e = _served(query, box, PHASES_REFERENCE_GPU)
    if e is None:
        return None
    head = (f"**Prompt processing is bound by compute, generation by memory bandwidth: the "
            f"{e['gpu_name']} multiplies all the prompt's tokens at once at up to "
            f"{c.exact(e['gpu_fp16_tflops'], 'TFLOPS')} dense FP16/BF16, but generates one token "
            f"at a time, each reading all {c.num(e['breakdown_gb']['weights'], 'GB')} of "
            f"{e['model_name']}'s weights at "
            f"{c.num(e['gpu_bandwidth_gbs'], 'GB/s')}.**")  # fmt: skip
    lines = [head, f"Computed ({c.settings(e)}): prompt processing about "
             f"{c.num(e['prefill_tokens_per_s']['typical'], 'tokens/s')}, generation about "
             f"{c.num(_decode(e), 'tokens/s')}."]  # fmt: skip
    lines.append(
        "A prompt's tokens go through each weight matrix together, many operations per byte "
        "read, so the tensor cores set the pace; a generated token needs the one before it, "
        "about two operations per weight read, so the memory sets it. Batching requests or "
        "speculative decoding shares each weight read among more tokens."
    )
    if _first_gpu(query) is None:
        lines.append(f"Shown on the {e['gpu_name']}, as the question names no GPU.")
    return _draft(lines, _model(query))


# ---------------------------------------------------------------- KV cache per token


def kv_heads(query: Query, box: ToolBox) -> Draft | None:
    """ "Why does Llama 2 7B's KV cache take 4x more per token than Llama 3 8B's?": the KV
    heads per layer (grouped-query attention), from each model's config."""
    named = [m for m in query.models if m.ids][:2]
    if len(named) < 2:
        return None
    specs = [box.call("model_specs", {"model": m.ids[0]}) for m in named]
    if any("error" in s or not s.get("num_kv_heads") for s in specs):
        return None
    big, small = sorted(specs, key=lambda s: -(s.get("kv_cache_bytes_per_token_bf16") or 0))
    context = query.context or min(s.get("max_context") or 4096 for s in specs)
    caches = []
    for spec in (big, small):
        e = box.call("estimate", {"model": spec["id"], "gpu": REFERENCE_MEMORY,
                                  "workload": "inference", "context": context})  # fmt: skip
        if "error" in e:
            return None
        caches.append(e["breakdown_gb"].get("kv_cache"))
    head = (f"**Grouped-query attention (GQA): {small['name']} keeps keys and values for "
            f"{small['num_kv_heads']} KV heads per layer, shared by its "
            f"{small['num_attention_heads']} query heads; {big['name']} keeps them for all "
            f"{big['num_kv_heads']}.**")  # fmt: skip
    layers = {big["num_layers"], small["num_layers"]}
    depth = (f"{big['num_layers']} layers each" if len(layers) == 1
             else f"{big['num_layers']} and {small['num_layers']} layers")  # fmt: skip
    lines = [head, f"Per token (bf16, {depth}): "
             f"{big['kv_cache_bytes_per_token_bf16']:,} bytes for {big['name']} against "
             f"{small['kv_cache_bytes_per_token_bf16']:,} for {small['name']}; at {context:,} "
             f"tokens of context, {c.num(caches[0], 'GB')} against {c.num(caches[1], 'GB')} per "
             "sequence."]  # fmt: skip
    lines.append(
        "The cache holds a key and a value vector per layer, per KV head and per token, so it "
        "scales with the KV heads, not with the parameter count. GQA lets groups of query heads "
        "share one KV head, at little cost in quality."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- unified memory


def unified_memory(query: Query, box: ToolBox) -> Draft | None:
    """ "How can a 128 GB MacBook run 70B models my 4090 can't?": the Mac's GPU uses all of its
    unified memory; the card has only its own."""
    cards = [g for g in gpus_named(query) if not _unified(g)]
    macs = _macs(query, box)
    if not cards or not macs:
        return None
    card = box.call("gpu_specs", {"gpu": cards[0]})
    if "error" in card:
        return None
    model = _model(query)
    args = estimate_args(replace(query, workload="inference", precision=None), cards[0], None,
                         model)  # fmt: skip
    e = box.call("estimate", {**args, "precision": "q4_k_m", "engine": "llama.cpp"})
    on_mac = box.call("estimate", {**args, "gpu": macs[0]["id"], "precision": "q4_k_m",
                                   "engine": "llama.cpp"})  # fmt: skip
    memory = macs[0]["memory_gb"]
    names = ", ".join(f"{m['name']} {c.num(m['bandwidth_gbs'], 'GB/s')}" for m in macs)
    head = (f"**Unified memory: a Mac's GPU uses the same {c.num(memory, 'GB')} as its CPU, "
            f"while the {card['name']} has {c.num(card['memory_gb'], 'GB')} of its "
            "own.**")  # fmt: skip
    lines = [head]
    if "error" not in e and "error" not in on_mac:
        lines.append(f"{e['model_name']} in 4-bit (q4_k_m) needs about "
                     f"{c.num(e['memory_per_gpu_gb'], 'GB')} (weights "
                     f"{c.num(e['breakdown_gb']['weights'], 'GB')}): it "
                     f"{'fits' if e['fits'] else 'does not fit'} on the card, and "
                     f"{'fits' if on_mac['fits'] else 'does not fit'} in the "
                     f"{c.num(on_mac['usable_memory_per_gpu_gb'], 'GB')} a Mac with "
                     f"{c.num(memory, 'GB')} lets its GPU use.")  # fmt: skip
    fastest = max(macs, key=lambda m: m["bandwidth_gbs"])
    mac_first = fastest["bandwidth_gbs"] > card["bandwidth_gbs"]
    faster = f"the {fastest['name']}" if mac_first else "the card"
    lines.append(f"Speed is another matter: the {card['name']} reads its memory at "
                 f"{c.num(card['bandwidth_gbs'], 'GB/s')}; the Apple chips: {names}. Once a "
                 f"model fits both, {faster} decodes faster (each token reads every weight, "
                 "so the memory bandwidth sets the pace); when it does not fit the card, the "
                 "layers left over run from system RAM over PCIe, far slower than the "
                 "Mac.")  # fmt: skip
    if _SPEED_WHY.search(query.low):
        # "the Mac writes faster than my 4060 Ti, yet the card has more teraflops: why?": the
        # pace is the memory bandwidth's, first
        slow, quick = (card, fastest) if mac_first else (fastest, card)
        lines.insert(0, f"**Memory bandwidth: generating text reads every weight for each token, "
                        f"so the {quick['name']} ({c.num(quick['bandwidth_gbs'], 'GB/s')}) "
                        f"outpaces the {slow['name']} ({c.num(slow['bandwidth_gbs'], 'GB/s')}) "
                        "whatever their TFLOPS; the TFLOPS figure sets how fast a prompt is read "
                        "and training, not the pace of the answer.**")  # fmt: skip
        lines[1] = lines[1].replace("**", "")
    return _draft(lines, model)


# a speed asked of a Mac set against a card: "writes faster than my PC", "more teraflops"
_SPEED_WHY = re.compile(
    r"\b(?:faster|quicker|slower|speed|tokens? (?:per|a|/) ?s\w*|tok/s|t?flops|teraflops)\b"
)


def _macs(query: Query, box: ToolBox) -> list[dict[str, Any]]:
    """The Apple chips the question means: those it names, else those with the memory it says
    (a MacBook's are the Pro and Max chips)."""
    named = [box.call("gpu_specs", {"gpu": g}) for g in gpus_named(query)]
    named = [s for s in named if "error" not in s and s.get("unified_memory")]
    if named:
        return named
    size = re.search(r"\b(\d{2,3}) ?(?:gb|g|gigs?)\b", query.low)
    if not size:
        return []
    found = box.call("list_gpus", {"vendor": "apple", "min_memory_gb": float(size.group(1)),
                                   "max_memory_gb": float(size.group(1)), "top": 20})  # fmt: skip
    rows = found.get("gpus", [])
    if re.search(r"\b(?:macbook|laptop)\b", query.low):
        rows = [r for r in rows if "ultra" not in r["name"].lower()]
    return sorted(rows, key=lambda r: r["bandwidth_gbs"])


# ---------------------------------------------------------------- memory from the parameters


# the size of the weights the user gives beside what the card shows: "the weights are only 5gb",
# "a 4.9 GB gguf", "the model file is 5gb"
_WEIGHTS_SAID = re.compile(
    r"\b(?:weights?|model file|file|gguf|checkpoint)\b[^.?!,]{0,25}?\b(\d+(?:\.\d+)?)"
    r" ?(?:gb|gigs?)\b"
    r"|\b(\d+(?:\.\d+)?) ?(?:gb|gigs?) (?:of )?(?:weights?|model file|file|gguf|checkpoint)\b"
)
# the formats a weights size is matched against, each with the engine that runs it
_FORMATS_BY_SIZE = (("bf16", None), ("fp8", None), ("q8_0", "llama.cpp"), ("q4_k_m", "llama.cpp"))
_PREALLOCATES = ("vllm", "sglang", "tensorrt-llm")  # engines that take the card's memory up front
_ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM"}


def memory_use(query: Query, box: ToolBox) -> Draft | None:
    """ "Why does my 8b model use 14gb when the weights are only 5gb?": what the memory holds
    beside the weights (the KV cache for the context set, activations, the runtime), the cache
    at the model's full context, and an engine's reservation of the card up front."""
    model = _named_model(query)
    if model is None:
        return None
    found = _first_gpu(query)
    gpu = found[1] if found else REFERENCE_MEMORY
    sized = not found and query.memory_gb  # "on my 24gb card": a card of that size
    gpu = f"{query.memory_gb:g}gb" if sized else gpu
    asked = replace(query, workload="inference")
    args = estimate_args(asked, gpu, None, model)
    said = _WEIGHTS_SAID.search(query.low)
    if said and not (query.precision or model.precision):
        # the format whose weights come nearest the size the user gives
        weights = float(said.group(1) or said.group(2))
        tried = []
        for precision, engine in _FORMATS_BY_SIZE:
            e = box.call(
                "estimate",
                {
                    **args,
                    "precision": precision,
                    **({"engine": query.engine or engine} if engine else {}),
                },
            )
            if "error" not in e:
                tried.append(e)
        if not tried:
            return None
        e = min(tried, key=lambda t: abs(t["breakdown_gb"]["weights"] - weights))
    else:
        e = box.call("estimate", args)
        if "error" in e:
            return None
    parts = e["breakdown_gb"]
    head = (f"**The weights are only part of it: {e['model_name']} in {e['precision']} takes "
            f"about {c.num(e['memory_per_gpu_gb'], 'GB')} at {e['context']:,} tokens of "
            f"context** ({c.breakdown(e)}).")  # fmt: skip
    lines = [head]
    engine = str(e.get("engine") or "")
    specs = box.call("model_specs", {"model": e["model"]})
    longest = specs.get("max_context") if "error" not in specs else None
    if engine in _PREALLOCATES:
        longest = None  # its cache is the reservation below, not a context set at load
    elif longest and longest > e["context"]:
        full = box.call("estimate", {**args, "precision": e["precision"], "engine": e["engine"],
                                     "context": longest})  # fmt: skip
        if "error" not in full and full["breakdown_gb"].get("kv_cache"):
            lines.append(
                f"The KV cache holds the keys and values of every token in the context, and "
                f"llama.cpp, Ollama and LM Studio allocate it for the whole context set when the "
                f"model loads: {c.num(parts.get('kv_cache', 0), 'GB')} at "
                f"{e['context']:,} tokens, {c.num(full['breakdown_gb']['kv_cache'], 'GB')} at "
                f"the model's full {longest:,}, which would make "
                f"{c.num(full['memory_per_gpu_gb'], 'GB')} in all.")  # fmt: skip
    reserved = next((a for a in e.get("assumptions", []) if "gpu_memory_utilization" in a), None)
    if engine in _PREALLOCATES and reserved and (found or sized):
        # "why is vllm eating 21gb of my 24gb card?": the engine's reservation first
        lines[0] = (f"**{_ENGINE_NAMES[engine]} takes about "
                    f"{c.num(e['usable_memory_per_gpu_gb'], 'GB')} of the card up front, whatever "
                    "the model needs, and fills what the weights leave with KV-cache blocks**; "
                    "the model "
                    f"itself needs about {c.num(e['memory_per_gpu_gb'], 'GB')} in "
                    f"{e['precision']} at {e['context']:,} tokens of context "
                    f"({c.breakdown(e)}).")  # fmt: skip
    if engine not in _PREALLOCATES and not (longest and longest > e["context"]):
        lines.append(
            "The KV cache holds the keys and values of every token in the context, and "
            "llama.cpp, Ollama and LM Studio allocate it for the whole context set when "
            "the model loads: a long context setting takes memory before any is used."
        )
    if engine in _PREALLOCATES and reserved and (found or sized):  # (not on a stand-in)
        lines.append(f"{reserved.split(' (kv_budget.py)')[0]}: a serving engine takes that share "
                     "of the card up front and fills it with KV-cache blocks, so the card shows "
                     "it in use whatever the model needs.")  # fmt: skip
    else:
        lines.append(
            "A serving engine (vLLM, SGLang, TensorRT-LLM) goes further: it reserves "
            "most of the card up front (vLLM's --gpu-memory-utilization) and fills it "
            "with KV-cache blocks, so the card shows nearly full whatever the model."
        )
    lines.append(
        "The runtime's own overhead (the CUDA context and kernels) counts too, and "
        "nvidia-smi shows what the process reserved, not what the model uses."
    )
    return Draft("\n\n".join(lines))


def weights_rule(query: Query, box: ToolBox) -> Draft | None:
    """ "How do I know how much VRAM a model needs?": parameters times bytes per parameter,
    computed for the model named in three precisions, plus the cache and overhead."""
    model = _named_model(query)
    if model is None:
        return None
    args = estimate_args(replace(query, workload="inference", precision=None, gpus=()),
                         REFERENCE_MEMORY, None, model)  # fmt: skip
    rows = []
    for precision, engine in (("bf16", None), ("int8", None), ("q4_k_m", "llama.cpp")):
        e = box.call("estimate", {**args, "precision": precision,
                                  **({"engine": engine} if engine else {})})  # fmt: skip
        if "error" in e:
            return None
        rows.append(e)
    full, eight, four = (e["breakdown_gb"]["weights"] for e in rows)
    head = (f"**Parameters times bytes per parameter: {rows[0]['model_name']}'s weights take "
            f"about {c.num(full, 'GB')} at two bytes each (bf16), {c.num(eight, 'GB')} at one "
            f"byte (8-bit) and {c.num(four, 'GB')} at about half a byte (4-bit, "
            "q4_k_m).**")  # fmt: skip
    e = rows[0]
    lines = [head, f"Then add the KV cache, which grows with the context and the requests at "
             f"once, and the runtime's overhead: in bf16 ({c.settings(e)}) about "
             f"{c.num(e['memory_per_gpu_gb'], 'GB')} in all ({c.breakdown(e)})."]  # fmt: skip
    lines.append(
        "A card holds the model when its memory exceeds that total with a little to "
        "spare; a smaller format or a shorter context brings the total down."
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- mixed precision against FP32

# mixed precision weighed against FP32 for a job: "is it worth switching on AMP for bert-base on
# our V100s, speed-wise?", "how much faster is mixed precision than fp32 for resnet-50?"
_HALF_WORDS = r"(?:amp|mixed[- ]precision|fp16|bf16|half[- ]precision|autocast)"
_FP32_WORDS = r"(?:fp32|float32|full precision|single precision)"


def _model_job(query: Query) -> bool:
    return _one_gpu(query) and any(m.ids for m in query.models)


def mixed_precision_gain(query: Query, box: ToolBox) -> Draft | None:
    """The job's speed in mixed precision and in FP32 on the card named, the verdict on their
    ratio first, with the tensor-core rates that make it and the memory each takes."""
    ids = gpus_named(query)
    model = next((m for m in query.models if m.ids), None)
    if not ids or model is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": ids[0]})
    if "error" in sheet:
        return None
    formats = sheet.get("tensor_formats") or {}
    half = "bf16" if "bf16" in query.low and formats.get("bf16") else "fp16"
    runs = {}
    for precision in ("fp32", half):
        args = estimate_args(replace(query, precision=precision), ids[0], None, model)
        args["precision"] = precision
        e = box.call("estimate", args)
        if "error" in e or not c.metrics_of(e, ""):
            return None
        runs[precision] = e
    label, fast, unit = c.metrics_of(runs[half], "")[0]
    slow = c.metrics_of(runs["fp32"], "")[0][1]
    if not fast or not slow or not slow.get("typical"):
        return None
    gain = fast["typical"] / slow["typical"]
    word = "Yes" if gain >= 1.25 else "No"
    if not (YES_NO.search(query.low) or re.search(r"\bworth\b|\byes\b", query.low)):
        word = f"About {c.num(gain)}x faster"  # "how much faster ...": the ratio is the answer
    name = half.upper()
    lines = [
        f"**{word}: about {c.num(fast['typical'], unit)} with {name} mixed precision against "
        f"{c.num(slow['typical'], unit)} in FP32 on the {sheet['name']}"
        f"{'' if word.startswith('About') else f' ({c.num(gain)}x)'}, "
        f"{label} of {runs[half]['model_name']} ({c.settings(runs[half])}).**"
    ]
    tensor = c.exact(sheet.get("fp16_bf16_dense_tflops"), "TFLOPS")
    rates = (f"The tensor cores compute {name} at {tensor} dense against "
             f"{c.exact(sheet.get('fp32_tflops'), 'TFLOPS')} in FP32")  # fmt: skip
    if sheet.get("tf32_dense_tflops"):
        rates += (f" ({c.exact(sheet['tf32_dense_tflops'], 'TFLOPS')} when FP32 matmuls run as "
                  "TF32)")  # fmt: skip
    lines[0] += (
        " " + rates + "; the job gains less than that ratio, as the steps that only move memory "
        "(normalisation, activations, the optimizer) gain only from the halved bytes."
    )
    lines.append(
        f"Memory: {c.num(runs[half]['memory_per_gpu_gb'], 'GB')} with {name} against "
        f"{c.num(runs['fp32']['memory_per_gpu_gb'], 'GB')} in FP32; master weights and the "
        "optimizer stay in FP32, so accuracy matches FP32 runs"
        + (" (FP16 needs a loss scaler, which AMP adds)." if half == "fp16" else ".")
    )
    return Draft("\n\n".join(lines))


# ---------------------------------------------------------------- tensor cores, mixed precision


def tensor_cores(query: Query, box: ToolBox) -> Draft | None:
    """ "Why does my 2080 Ti train with AMP 3x faster than my 1080 Ti at the same FP32?":
    mixed precision runs on tensor cores, which one card has and the other lacks."""
    ids = gpus_named(query)
    sheets = [box.call("gpu_specs", {"gpu": g}) for g in ids[:2]]
    if not sheets or any("error" in s or not s.get("fp32_tflops") for s in sheets):
        return None
    with_tc = [s for s in sheets if s.get("fp16_bf16_dense_tflops")]
    without = [s for s in sheets if not s.get("fp16_bf16_dense_tflops")]
    if len(sheets) == 1 and with_tc:
        # "fp16=True on the T4 took the epoch from 21 to 7 minutes: how is it 3x faster?"
        has = with_tc[0]
        ratio = has["fp16_bf16_dense_tflops"] / has["fp32_tflops"]
        head = (f"**Tensor cores: in FP16 the {has['name']} multiplies on its tensor cores at "
                f"{c.exact(has['fp16_bf16_dense_tflops'], 'TFLOPS')} dense, against "
                f"{c.exact(has['fp32_tflops'], 'TFLOPS')} in FP32 on its ordinary cores: "
                f"{c.num(ratio)}x on paper.**")  # fmt: skip
        why = ("Mixed precision (fp16=True) runs the matrix multiplies in FP16 on the tensor "
               "cores and halves the bytes each activation moves; a whole step also spends time "
               "in memory-bound layers, the optimizer and the data loader, which gain less, so "
               "the run speeds up by less than the paper ratio.")  # fmt: skip
        return Draft(f"{head}\n\n{why}")
    if not without:
        return None
    lacking = without[0]
    if with_tc:
        has = with_tc[0]
        head = (f"**Tensor cores: with mixed precision the {has['name']} multiplies in FP16 on "
                f"its tensor cores at {c.exact(has['fp16_bf16_dense_tflops'], 'TFLOPS')} dense; "
                f"the {lacking['name']} has none and stays near its FP32 rate, "
                f"{c.exact(lacking['fp32_tflops'], 'TFLOPS')} (the {has['name']}: "
                f"{c.exact(has['fp32_tflops'], 'TFLOPS')} in FP32).**")  # fmt: skip
    else:
        head = (f"**No tensor cores: the {lacking['name']} ({lacking.get('architecture')}) runs "
                f"mixed precision without them, near its FP32 rate of "
                f"{c.exact(lacking['fp32_tflops'], 'TFLOPS')}.**")  # fmt: skip
    why = ("FP32 figures count the ordinary cores. Automatic mixed precision runs the matrix "
           "multiplies in FP16 or BF16, which tensor cores (Volta and newer) compute several "
           "times faster, and halves the bytes moved per activation; a card without them gains "
           "only the memory saving.")  # fmt: skip
    return Draft(f"{head}\n\n{why}")


def peak_that_applies(query: Query, box: ToolBox) -> Draft | None:
    """ "the A5000 lists 27.8 TFLOPS FP32 but also 'tensor performance': which is the ceiling our
    AMP training runs against?": the tensor cores' dense rate when the job multiplies in 16
    bits (the sparse figure is 2:4 sparsity, which training does not use), the FP32 figure
    when it stays in FP32."""
    found = _first_gpu(query)
    if found is None:
        return None
    sheet = box.call("gpu_specs", {"gpu": found[1]})
    dense, fp32 = sheet.get("fp16_bf16_dense_tflops"), sheet.get("fp32_tflops")
    if "error" in sheet or not (dense and fp32):
        return None
    name = sheet["name"]
    half = re.search(rf"\b{_HALF_WORDS}\b", query.low)
    sparse = sheet.get("fp16_bf16_sparse_tflops")
    quoted = re.findall(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:tflops|tf)?\b", query.low)
    if sparse and any(abs(float(x) - sparse) <= 0.03 * sparse for x in quoted):
        # "330 tflops in one place and 165 somewhere else: which one's real?": the sparse one
        head = (f"**The dense figure, {c.exact(dense, 'TFLOPS')}, is the one training runs "
                f"against: the {c.exact(sparse, 'TFLOPS')} on the {name}'s sheet counts "
                "structured sparsity (two of every four weights zero), which training does not "
                "use.**")  # fmt: skip
        return Draft(f"{head}\n\nWith mixed precision (FP16/BF16) the matrix multiplies run on "
                     f"the tensor cores at up to that dense rate; in plain FP32 the ceiling is "
                     f"{c.exact(fp32, 'TFLOPS')}. A real run reaches a fraction of it: layers "
                     "that move more bytes than they multiply wait on memory.")  # fmt: skip
    if half:
        said = half.group(0).upper() if len(half.group(0)) <= 4 else half.group(0)  # "AMP", "BF16"
        head = (f"**The tensor figure: with {said} the "
                f"matrix multiplies run on the tensor cores, so the ceiling is the {name}'s dense "
                f"FP16/BF16 tensor rate, {c.exact(dense, 'TFLOPS')}, not the "
                f"{c.exact(fp32, 'TFLOPS')} FP32 (non-tensor) figure.**")  # fmt: skip
    else:
        head = (f"**In plain FP32 the ceiling is the FP32 figure, {c.exact(fp32, 'TFLOPS')} on the "
                f"{name}; with mixed precision (AMP) the matrix multiplies move to the tensor "
                f"cores, whose dense FP16/BF16 rate is {c.exact(dense, 'TFLOPS')}.**")  # fmt: skip
    lines = [head, ""]
    tf32 = sheet.get("tf32_dense_tflops")
    if not half and tf32:
        lines.append(f"PyTorch runs convolutions in TF32 on the tensor cores by default on this "
                     f"card ({c.exact(tf32, 'TFLOPS')} dense), and matrix multiplies too when "
                     "torch.backends.cuda.matmul.allow_tf32 is on.")  # fmt: skip
    if sparse:
        lines.append(f"The larger tensor figure on the datasheet, {c.exact(sparse, 'TFLOPS')}, "
                     "counts structured sparsity (two of every four weights zero), which "
                     "training does not use: plan with the dense figure.")  # fmt: skip
    lines.append("A real run reaches a fraction of it: layers that move more bytes than they "
                 "multiply (normalisation, activations, small convolutions) wait on memory, and "
                 "the data pipeline must keep up.")  # fmt: skip
    return Draft("\n".join(lines))


# ---------------------------------------------------------------- power and efficiency


def power_efficiency(query: Query, box: ToolBox) -> Draft | None:
    """ "Why do clouds deploy 72 W L4s instead of 4090s?": board power and form factor, each
    with the compute it buys, from the datasheets."""
    ids = gpus_named(query)
    sheets = [box.call("gpu_specs", {"gpu": g}) for g in ids[:2]]
    if len(sheets) < 2 or any("error" in s or not s.get("tdp_w") for s in sheets):
        return None
    low, high = sorted(sheets, key=lambda s: s["tdp_w"])
    if low["tdp_w"] == high["tdp_w"]:
        return None

    def side(s: dict[str, Any]) -> str:
        return (f"the {s['name']} draws {c.num(s['tdp_w'], 'W')} for "
                f"{c.num(s['fp16_bf16_dense_tflops'], 'TFLOPS')} dense FP16/BF16 "
                f"({s.get('form_factor')})")  # fmt: skip

    head = (f"**Power: {side(low)}, against {side(high)}; "
            f"{c.num(high['tdp_w'] / low['tdp_w'])}x the power for "
            f"{c.num(high['fp16_bf16_dense_tflops'] / low['fp16_bf16_dense_tflops'])}x the "
            "compute.**")  # fmt: skip
    lines = [head]
    lines.append(f"A server's power and cooling budget, and its slots, decide how many cards it "
                 f"holds: low-power cards pack densely and cost less to run per unit of work. "
                 f"The trade-off is bandwidth for one stream's decode: "
                 f"{c.num(low['bandwidth_gbs'], 'GB/s')} on the {low['name']} against "
                 f"{c.num(high['bandwidth_gbs'], 'GB/s')} on the {high['name']}.")  # fmt: skip
    return Draft("\n\n".join(lines))


def cuda_support(query: Query, box: ToolBox) -> Draft | None:
    """ "Does the Arc B580 run CUDA?": CUDA is NVIDIA's; any other GPU runs its own stack."""
    sheet = box.call("gpu_specs", {"gpu": gpus_named(query)[0]})
    if "error" in sheet or not sheet.get("compute_stack"):
        return None
    if sheet["compute_stack"] == "cuda":
        return Draft(f"**Yes: the {sheet['name']} is an NVIDIA GPU, and CUDA runs on it.**")
    return Draft(
        f"**No: CUDA runs only on NVIDIA GPUs, and the {sheet['name']} is not one.** "
        f"{c.stack_note(sheet)}: code written for CUDA runs there only through the frameworks "
        "that support that stack."
    )


def ecc_accuracy(query: Query, box: ToolBox) -> Draft | None:
    """ "ECC VRAM makes the model train more accurately": ECC corrects bit flips in memory; the
    arithmetic, and so the model, is the same without it."""
    return Draft(
        "**No: ECC memory does not make a model train more accurately.** ECC detects and corrects "
        "rare bit flips in memory: it guards long runs and shared servers against a silent "
        "corruption or a crash, while the arithmetic, and so the model it trains, is the same "
        "without it. For training speed, memory bandwidth and tensor throughput decide, not ECC "
        "(each card's datasheet below)."
    )


def ecc_needed(query: Query, box: ToolBox) -> Draft | None:
    """ "Do we really need ECC for our chatbot?": not for serving; worth having for multi-day
    training runs and shared or bit-exact work."""
    low = query.low
    trains = query.workload not in (None, "inference") or re.search(
        r"\btrain\w*|\bfine-?tun\w*|\bpre-?train\w*", low
    )
    if trains:
        head = ("**Not required, but worth having for long training runs.** ECC detects and "
                "corrects rare bit flips in memory: on a run of days a flip can crash it or "
                "silently corrupt a checkpoint, so datacenter training cards carry it; frequent "
                "checkpoints give most of the same safety on cards without it.")  # fmt: skip
    else:
        head = ("**No: inference does not need ECC memory.** ECC detects and corrects rare bit "
                "flips in memory; when serving a model, a flip at worst spoils one reply or "
                "stops the process, which a restart mends, and cards without ECC serve models "
                "every day. It earns its price on multi-day training runs, shared servers and "
                "work that must be bit-exact (scientific computing, regulated "
                "records).")  # fmt: skip
    below = " (each card's datasheet below)" if query.gpus else ""
    return Draft(head + " Speed and what fits come from memory size, bandwidth and tensor "
                 f"throughput, not ECC{below}.")  # fmt: skip


# ---------------------------------------------------------------- tensor or pipeline parallel


def tp_or_pp(query: Query, box: ToolBox) -> Draft | None:
    """ "Tensor parallel or pipeline parallel for a 70B on 4 L40S without NVLink?": the same
    cards computed both ways (and half and half where the count allows), one stream's speed and
    the full-load throughput of each, on the link the cards have."""
    found = _first_gpu(query)
    if found is None or not query.models or not query.models[0].ids:
        return None
    ref, gpu = found
    n = max(ref.count or 0, query.num_gpus or 0)
    model = query.models[0]
    if n < 2 or (model.family or "llm") != "llm":
        return None
    asked = replace(query, workload="inference")
    if asked.engine not in (None, "vllm", "sglang", "tensorrt-llm", "tgi", "lmdeploy"):
        return None  # llama.cpp splits layers its own way (handlers: the layer split)
    base = estimate_args(asked, gpu, n, model)
    tp = box.call("estimate", base)
    if "error" not in tp and not tp["fits"] and not (query.precision or model.precision):
        lean = {**base, "precision": "awq"}  # the 4-bit format such cards serve a big model in
        tp = box.call("estimate", lean)
        base = lean
    if "error" in tp or not tp["fits"]:
        return None
    ways = [(f"{n}-way tensor parallel", tp)]
    stages = [n] + ([n // 2] if n >= 4 and n % 2 == 0 else [])
    for pp in stages:
        e = box.call("estimate", {**base, "pp": pp})
        if "error" not in e and e["fits"]:
            label = (f"{pp} pipeline stages" if pp == n
                     else f"{pp} pipeline stages of {n // pp}-way tensor parallel")  # fmt: skip
            ways.append((label, e))
    if len(ways) < 2:
        return None

    def speed(e: dict[str, Any], key: str) -> float:
        return float((e.get(key) or {}).get("typical") or 0.0)

    one = max(ways, key=lambda w: speed(w[1], "decode_tokens_per_s"))
    full = max(ways, key=lambda w: speed(w[1], "serving_tokens_per_s"))
    where = f"{n} x {tp['gpu_name']}"
    if one[0] == full[0]:
        head = (f"**{one[0][0].upper() + one[0][1:]} on {where}, both for one stream and at "
                f"full load** ({tp['model_name']}, {c.settings(tp)}).")  # fmt: skip
    else:
        head = (f"**{one[0][0].upper() + one[0][1:]} for one stream's speed, {full[0]} for the "
                f"most tokens at full load** on {where} ({tp['model_name']}, "
                f"{c.settings(tp)}).")  # fmt: skip
    rows = [f"- {label}: one stream about {c.num(speed(e, 'decode_tokens_per_s'), 'tokens/s')}; "
            f"at full load about {c.num(speed(e, 'serving_tokens_per_s'), 'tokens/s')}"
            for label, e in ways]  # fmt: skip
    why = ("Tensor parallel splits every layer across the cards, so all of them read their share "
           "of each token's weights at once, but they exchange activations twice per layer over "
           "the link; pipeline parallel gives each card whole layers, so one stream's token "
           "passes the cards one after another at one card's pace, and only one activation "
           "crosses per stage, while at full load the stages work on different requests at "
           "once. The slower the link (PCIe, and PCIe through host memory where peer-to-peer "
           "is off), the more pipeline stages gain under load. vLLM and TensorRT-LLM advise "
           "tensor parallel inside a node and pipeline stages across nodes.")  # fmt: skip
    return _draft([head, "\n".join(rows), why], model)


# ---------------------------------------------------------------- the table


# ---------------------------------------------------------------- tabular data


def tabular(query: Query, box: ToolBox) -> Draft | None:
    """ "We have six years of till records in a spreadsheet: do we need an H100 to forecast
    sales?": rows and columns are no job for a GPU."""
    lines = ["**No: rows and columns from a spreadsheet or a CSV are tabular data, and their "
             "usual models (a seasonal time-series model for a forecast, gradient-boosted trees "
             "such as XGBoost or LightGBM, a regression) train in seconds to minutes on an "
             "ordinary CPU.** A GPU pays off for deep networks on images, text or audio, or for "
             "tabular sets of many millions of rows."]  # fmt: skip
    for gpu in gpus_named(query)[:2]:  # the card put forward, for what it is built for
        sheet = box.call("gpu_specs", {"gpu": gpu})
        if "error" not in sheet:
            lines.append(f"The {sheet['name']} is built to train and serve large neural "
                         "networks; a job of this size would leave it idle.")  # fmt: skip
    return Draft("\n\n".join(lines), cite_more=False)


def _cues(*patterns: str) -> re.Pattern[str]:
    # ("." crosses a line break as it crosses a full stop: a message written in lines)
    return re.compile("|".join(patterns), re.DOTALL)


_GPU_NOUN = r"(?:gpu|card|\d{4}|a\d{2,4}|h\d{3}|l\d{1,2}s?|one)s?"
# fmt: off
PRINCIPLES: tuple[Principle, ...] = (
    Principle("mixed_precision_gain", "speed", _cues(
        rf"\bworth\b.{{0,30}}\b(?:switching|turning|enabling|using|going)\b.{{0,15}}\b{_HALF_WORDS}",
        rf"\b(?:faster|quicker|speed-?up|gain)\b.{{0,40}}\b{_HALF_WORDS}\b.{{0,25}}\b(?:than|vs\.?"
        rf"|versus|over|against|compared to)\b.{{0,10}}\b{_FP32_WORDS}",
        rf"\b{_HALF_WORDS}\b.{{0,10}}\b(?:vs\.?|versus|against)\b.{{0,10}}\b{_FP32_WORDS}\b.{{0,60}}"
        r"\b(?:speed|faster|throughput|train\w*|images/s|it/s)",
        rf"\b{_FP32_WORDS}\b.{{0,10}}\b(?:vs\.?|versus|against)\b.{{0,10}}\b{_HALF_WORDS}\b.{{0,60}}"
        r"\b(?:speed|faster|throughput|train\w*|images/s|it/s)",
        # "would turning on amp speed up training ... vs plain fp32?"
        rf"\b(?:turn\w* on|switch\w* (?:on|to)|enabl\w*)\s{_HALF_WORDS}\b.{{0,60}}\b(?:speed\w*"
        r"|faster|quicker)\b",
        rf"\b{_HALF_WORDS}\b.{{0,60}}\b(?:speed\w*|faster|quicker)\b.{{0,60}}\b(?:vs\.?|than|over"
        rf"|against)\s(?:plain |pure |full )?{_FP32_WORDS}",
    ), mixed_precision_gain, _model_job),
    Principle("tp_or_pp", "compare", _cues(
        r"\btensor[- ]?parallel\w*\b.{0,80}\bpipeline[- ]?parallel\w*\b",
        r"\bpipeline[- ]?parallel\w*\b.{0,80}\btensor[- ]?parallel\w*\b",
        r"\btp\b.{0,20}\b(?:or|vs\.?|versus)\b.{0,20}\bpp\b",
        r"\bpp\b.{0,20}\b(?:or|vs\.?|versus)\b.{0,20}\btp\b",
    ), tp_or_pp, lambda q: _one_gpu(q) and bool(q.models)),
    Principle("ecc_accuracy", "explain", _cues(
        r"\becc\b.{0,60}\b(?:makes?|gives?|improves?|means?)\b.{0,50}\b(?:accura\w*"
        r"|better (?:results|models?|training))",
        r"\b(?:train\w*|models?)\b.{0,40}\bmore accura\w*.{0,60}\becc\b",
    ), ecc_accuracy, lambda q: True),
    Principle("ecc_needed", "explain", _cues(
        # (asked, not "policy requires ECC for customer data": a requirement stated)
        r"\b(?:do|does|would|will|should)\s(?:we|i|you|they|it|one)\s(?:really\s|actually\s)?"
        r"(?:need|require|want)\b.{0,25}\becc\b",
        r"\becc\b.{0,30}\b(?:needed|necessary|required|essential|worth (?:it|the|paying))\b",
        r"\bbecause of (?:the )?ecc\b",
    ), ecc_needed, lambda q: not re.search(
        r"\bwhich\b[^.?!]{0,30}\b(?:has|have|supports?)\b", q.low
    )),
    Principle("cuda_support", "spec", _cues(
        r"\b(?:run|runs|running|roda|rodar|corre|support|supports|supported|have|has|use|uses"
        r"|work with|works with|compatible with)\s(?:\w+\s)?cuda\b"
        r"(?!\s?(?:cores?|version|toolkit))",
        r"\bcuda\b(?!\s?cores?)[^?.!]{0,20}\b(?:support\w*|compatib\w*)\b",
    ), cuda_support),
    Principle("pooling", "explain", _cues(
        # "I have 2x 3060 12GB. Can I combine them to run a 24GB model?"
        r"\b(?:combine|pool|merge|stack|link|use)\s(?:them|both|the two|the cards|those|these)\b"
        r"[^.?!]{0,30}\b\d+ ?gb\s(?:model|llm)\b",
        r"\b(?:act|work|behave|show up|appear|look|seen|treated|count)s?\s+(?:as|like)\s+"
        r"(?:one|a single|1|a)\b",
        r"\bpool(?:ed|ing|s)?\b.{0,25}\b(?:memory|vram)\b",
        r"\b(?:two|2|both|pair of|\d+ ?x)\s(?:[\w-]+\s){0,2}?[\w-]*s\b[^.?!]{0,60}"
        r"\b(?:into|as) (?:one|a single|1) (?:big )?"
        r"(?:\d+ ?gb )?(?:gpu|card|device)\b",  # "two 4090s NVLinked into one 48GB GPU"
        # "got two 4090s. can i nvlink them into one 48gb card for a 70b?"
        r"\bnv ?link\w*\b[^.?!]{0,30}\b(?:into|as) (?:one|a single|1) (?:big )?(?:\d+ ?gb )?"
        r"(?:gpu|card|device)\b",
        r"\b(?:memory|vram)\b.{0,25}\bpool(?:ed|ing)?\b",
        r"(?<!in the )(?<!in their )(?<!in our )(?<!in my )(?<!in your )"
        r"\b(?:combine|combined|add up|adds up|merge|merged|shared?)\b.{0,25}\b(?:memory|vram)\b",
        r"\b(?:memory|vram)\b.{0,25}\b(?:combine|combined|add up|adds up|merge|stack)",
        # "do they become one 48gb gpu?"
        # "can one render use all 48gb like a single gpu?"
        r"\buse (?:all|the full|the whole|both)\b[^.?!]{0,25}\b(?:like|as) (?:one|a single|1)\b",
        r"\b(?:become|becomes|turn into|turns into|merge into|merges into)\s(?:one|a single|1)"
        r"\s(?:big\s)?(?:\d+ ?gb\s)?(?:gpu|card|device)\b",
        # "kaggle 2x T4 = one 32gb gpu?", "two 3090s equal one 48 GB card?"
        r"\b(?:\d+ ?x|two|2|both)\s?(?:[\w-]+\s?){0,2}(?:=|equals?|is the same as|same as)\s?"
        r"(?:one|a single|1|a)\s(?:\d+ ?gb\s)?(?:gpu|card|device)\b",
        # "... and run a 60GB model as if it were one GPU"
        r"\bas if (?:it|they) (?:were|was|is|are) (?:one|a single|1) (?:big )?"
        r"(?:gpu|card|device)\b",
    ), pooling),
    Principle("interconnect", "explain", _cues(
        r"^(?=.*\b(?:why|how come)\b).*\b(?:tensor[- ]parallel\w*|tp|fsdp|zero-?3|deepspeed|"
        r"all-?reduce|multi-?gpu|data[- ]parallel\w*|pipeline[- ]parallel\w*)\b.{0,120}"
        r"\b(?:barely|slow\w*|scal\w*|worse|gap|faster)\b",
    ), interconnect, _split_job),
    # ("fp16=True took the epoch from 21 to 7 min, how is it 3x faster?": why, in other words)
    Principle("tensor_cores", "explain", _cues(
        r"^(?=.*\b(?:why|how come|how (?:is|does|can) (?:it|that|this)"
        r"|what(?:'s| is) (?:actually )?happening)\b)"
        r".*\b(?:amp|mixed[- ]precision|fp16|half[- ]precision)\b"
        r".{0,120}\b(?:faster|slower|speed\w*|quicker)\b",
        r"^(?=.*\b(?:why|how come|how (?:is|does|can) (?:it|that|this)"
        r"|what(?:'s| is) (?:actually )?happening)\b)"
        r".*\b(?:faster|slower|speed\w*|quicker)\b.{0,80}"
        r"\b(?:amp|mixed[- ]precision|fp16|half[- ]precision)\b",
    ), tensor_cores),
    Principle("batching", "explain", _cues(
        r"^(?=.*\b(?:why|how)\b).*\b(?:throughput|tokens?/s|tok/s)\b.{0,100}\b(?:users?|"
        r"concurren\w*|batch\w*|requests?)\b.{0,100}\b(?:barely|hardly|doesn'?t|does not|same|"
        r"flat|drop\w*)\b",
        r"^(?=.*\b(?:why|how)\b).*\b(?:more|concurrent) (?:users|requests)\b.{0,80}"
        r"\bthroughput\b.{0,80}\b(?:barely|hardly|doesn'?t|does not|same|flat)\b",
        # "one request gets 35 tok/s, 32 in parallel get 800: why does batching scale like that"
        r"\bwhy\b.{0,40}\bbatch\w*\b.{0,30}\bscal\w*",
        r"\b(?:parallel|concurrent|batched) (?:requests|users|streams)\b.{0,60}\b\d+ ?"
        r"(?:tok(?:ens)?/s|t/s)\b.{0,80}\bwhy\b",
    ), batching),
    Principle("prefill_decode", "explain", _cues(
        r"^(?=.*\b(?:why|how come|lopsided)\b).*\b(?:prompts?|prefill|pp)\b.{0,120}"
        r"\b(?:generat\w*|decod\w*|output|tg)\b",
        # "what makes prefill compute-bound while decode is memory-bound?"
        r"^(?=.*\b(?:prefill\w*|prompt processing)\b)(?=.*\b(?:decod\w*|generat\w*)\b)"
        r".*\b(?:compute|memory|bandwidth)[- ]bound\b",
    ), prefill_decode, _anything),  # no GPU named: shown on a reference card
    Principle("kv_heads", "explain", _cues(
        r"^(?=.*\b(?:why|how come)\b).*\bkv[- ]?cache\b.{0,120}\b(?:per token|more memory|"
        r"bigger|larger|smaller|less|\d+ ?x)\b",
    ), kv_heads, lambda q: len([m for m in q.models if m.ids]) >= 2),
    Principle("unified_memory", "explain", _cues(
        r"^(?=.*\b(?:how|why)\b).*\b(?:mac\w*|apple|m[1-5] ?(?:pro|max|ultra))\b.{0,120}"
        r"\b(?:can'?t|cannot|won'?t|doesn'?t|does not|faster)\b",
    ), unified_memory, lambda q: any(not _unified(i) for i in gpus_named(q))),
    Principle("memory_use", "explain", _cues(
        # "why does my 8b model use 14gb when the weights are only 5gb?", "why is my 7b taking
        # 20gb of vram in vllm", "where does all the vram go?"
        r"\bwhy\b[^?]{0,80}\b(?:use[sd]?|using|taking|eat\w*|occup\w*|consum\w*|allocat\w*"
        r"|show\w*|hog\w*|fill\w*|takes? up|grab\w*)\b[^?]{0,40}\b\d+(?:\.\d+)? ?(?:gb|gigs?|%)"
        r"(?![^?]{0,40}\b(?:context|ctx|train\w*|fine-?tun\w*)\b)",
        r"\b\d+(?:\.\d+)? ?(?:gb|gigs?)\b[^?]{0,60}\b(?:weights?|model file|gguf|file)\b[^?]{0,20}"
        r"\b(?:only|just|are|is)\b[^?]{0,10}\b\d",
        # "llama 3 8b q4 is 4.7gb but lm studio shows 9gb used, why?", "the gguf is 4.4gb but
        # it eats 8gb of vram?"
        r"\b(?:gguf|file|weights?|model)\b[^?]{0,20}\b(?:is|are)\s(?:only\s|just\s)?\d+(?:\.\d+)?"
        r" ?(?:gb|gigs?)\b[^?]{0,15}\bbut\b[^?]{0,40}\b(?:use[sd]?|using|shows?|says|eats?|takes?"
        r"|grabs?|fills?)\b[^?]{0,20}\b\d+(?:\.\d+)? ?(?:gb|gigs?)\b",
        r"\b(?:vllm|sglang|tgi)\b[^?]{0,20}\b(?:grabs?|takes?|uses?|reserves?|eats?)\b[^?]{0,10}"
        r"\b\d+ ?%",
        # "why does vllm take 20gb on my 4090": what an engine holds on the card
        r"\bwhy\b[^?]{0,30}\b(?:vllm|sglang|tgi|ollama|llama\.?cpp|lm studio|exllama\w*)\b"
        r"[^?]{0,20}\b(?:takes?|uses?|needs?|grabs?|reserves?|eats?)\b[^?]{0,10}"
        r"\b\d+(?:\.\d+)? ?(?:gb|gigs?|%)",
        r"\bwhere (?:does|did) (?:the|all the|all my|my) (?:v?ram|memory) go\b",
        # "on my 3060 uses 11gb, why? the gguf is 4.9gb"
        r"\b(?:use[sd]?|using|takes?|taking|eat\w*|occup\w*|hog\w*|fill\w*|shows?)\b"
        r"(?:[^?.]|\.(?=\d)){0,15}\b\d+(?:\.\d+)? ?(?:gb|gigs?)\b(?:[^?.]|\.(?=\d)){0,25}"
        r"\b(?:why|how come)\b",
        r"\bmore (?:v?ram|memory) than (?:the )?(?:weights|model (?:file|size)|file size)\b",
    ), memory_use, lambda q: _named_model(q) is not None and not q.train_tokens
       and not re.search(r"\b(?:context|ctx)\b", q.low)  # the cache of a context: below
       # "why is my 70b so slow ... it uses 46gb": the speed is asked, not the memory
       and not re.search(r"\b(?:slow\w*|fast\w*|speed|latency|tok\w*/s|t/s)\b", q.low)
       # a download, the disk or system RAM: not the card's memory
       and not re.search(r"\b(?:disk|space|download\w*|storage|ssd|system ram|ram to load"
                         r"|pull)\b", q.low)),
    Principle("weights_rule", "explain", _cues(
        r"\bhow (?:do|can|would|should) (?:i|you|we|one) (?:know|tell|figure out|calculate|"
        r"estimate|work out|compute)\b.{0,40}\b(?:vram|memory)\b",
        r"\b(?:eli5|explain)\b.{0,60}\b(?:vram|memory)\b.{0,40}\b(?:needs?|requires?|takes?)\b",
    ), weights_rule, lambda q: _named_model(q) is not None and q.topic != "kv_cache"),
    Principle("experts", "explain", _cues(
        # "the 30B-A3B generates way faster than the 14B: isn't that backwards? what explains it"
        r"\b(?:faster|quicker|more tok\w*)\b.{0,160}\b(?:why|how come|how is (?:that|it)|"
        r"backwards|explain\w*|what gives)\b",
        r"\b(?:why|how come|how (?:is|can) (?:it|that|a \w+))\b.{0,80}\b(?:faster|quicker)\b",
        r"\bactive (?:params|parameters)\b|\bexperts?\b.{0,40}\b(?:faster|speed|tok\w*)\b",
    ), experts, lambda q: bool(q.models) and _one_card_asked(q)),
    Principle("model_choice", "compare", _cues(
        # "should I use whisper large-v3 or the large-v3-turbo one", "sdxl or sd 1.5 on a 3060?"
        r"\b(?:should|shall|do) (?:i|we) (?:use|go with|run|pick|choose)\b.{0,80}\bor\b",
        r"\bwhich (?:model|one|version|size)\b.{0,40}\b(?:use|run|pick|better|faster)\b",
    ), model_choice, lambda q: len([m for m in q.models if m.ids]) == 2 and _one_gpu(q)),
    Principle("more_gpus", "speed", _cues(
        r"\b(?:double(?![- ]precision)|twice|two times|2 ?times)\b.{0,40}\b(?:speed|tokens?|t/s"
        r"|tok/s|throughput|fast\w*|performance|it/s)",
        r"\b(?:get|gives?|see|means?|be) 2 ?x\b"
        r"(?!\s?(?:rtx|gtx|rx|nvidia|amd|tesla|quadro|gpus?|cards?"
        r"|[a-z]{0,3}\d{2,4}))",
        r"\b2 ?x (?:the |my |as )?(?:speed|tokens?|t/s|tok/s|throughput|performance|fast)",
        r"\b(?:speed|tokens?/s|t/s|tok/s|throughput|performance)\b.{0,20}\b(?:double|twice)\b",
        r"\b(?:second|another|2nd|extra|more)\s+" + _GPU_NOUN + r"\b.{0,60}\b(?:faster|speed|"
        r"tokens?/s|t/s|tok/s|quicker)",
        r"\b(?:faster|quicker) than (?:a single|just one|only one|one|1)\b",
    ), more_gpus, _same_gpu),
    Principle("tabular", "advice", _cues(
        # "six years of daily till records in a spreadsheet ... do we actually need one?"
        r"\b(?:spreadsheets?|excel|csv files?|tabular|till records|sales (?:data|figures|records)"
        r"|xgboost|lightgbm|random forests?|linear regression)\b[^?]{0,300}\b(?:need|require|worth"
        r"|buy|have to)\b",
        r"\b(?:need|require|have to buy)\b[^?]{0,200}\b(?:spreadsheets?|excel|csv|tabular"
        r"|till records|xgboost|lightgbm)\b",
    ), tabular, lambda q: not q.models),
    Principle("core_counts", "explain", _cues(
        r"\b(?:cuda|shader|stream) cores?\b.{0,80}\b(?:faster|better|matter\w*|compar\w*|so it|"
        r"must|mean\w*|indicat\w*|tell)",
        r"\b(?:compar\w*|judg\w*|go by|rank\w*)\b.{0,40}\b(?:cuda |shader )?core counts?\b",
        r"\b(?:compar\w*|judg\w*|go by|rank\w*)\b.{0,40}\bby (?:cuda |shader )?cores?\b",
    ), core_counts),
    Principle("keep_up", "speed", _cues(
        r"\bkeep (?:up|pace)\b",
        # "5k images a day: is one A10G enough or do we need more?", "can one L4 cope with 300
        # hours of audio a week?": the work of a period and whether the card does it
        rf"{_WORK_OF_A_PERIOD}[^?]{{0,80}}?{_IS_ENOUGH}",
        rf"{_IS_ENOUGH}[^?]{{0,60}}?{_WORK_OF_A_PERIOD}",
        r"\b(?:handle|manage|cope with|get through)\s(?:that|the|this|our|such a)\s(?:load|volume|"
        r"throughput|rate|amount)\b",
    ), keep_up, lambda q: _one_gpu(q) and _work(q) and len({g.ids for g in q.gpus}) == 1),
    Principle("enough", "compare", _cues(
        # "would an l4 do the job or do we really need the a100?", "can a 4090 handle it, or
        # do we need an h100"
        r"\b(?:would|will|could|can|does|is)\s(?:an?\s|the\s|one\s|a single\s|just\s)?\S+\s"
        r"(?:\S+\s){0,3}?(?:do|handle|cut it|be enough|suffice|be fine|manage|work)\b.{0,80}"
        r"\b(?:or|instead of|rather than)\b",
        r"\bdo (?:we|i|you) (?:really |actually |even )?need (?:an? |the )?\S+.{0,40}\b(?:or|"
        r"would|could|can|will)\b.{0,40}\b(?:do|enough|suffice|handle|fine|train|run|cope|manage"
        r"|fine-?tune)\b",
    ), enough, lambda q: len(gpus_named(q)) >= 2),
    Principle("faster_than", "compare", _cues(
        # "will a 4060 ti give me more tok/s than my 3060?", "does the h200 generate faster
        # than the h100?", "will moving to L4 make generation noticeably faster?"
        r"^(?!.*\b(?:why|which)\b)(?=.*\b(?:will|would|does|do|is|are|can|could)\b)"
        r".*\b(?:faster|quicker|more "
        r"(?:tok(?:ens)?/s|t/s|tokens|it/s|images|throughput|speed)|outperform\w*)\b.{0,80}"
        r"\bthan\b",
        r"\b(?:mov\w*|switch\w*|upgrad\w*|migrat\w*)\s+(?:over\s+)?to\b.{0,80}\b(?:faster|"
        r"quicker|speed\w* up|more (?:tok(?:ens)?/s|t/s|tokens|throughput))\b",
        r"\b(?:twice|\d+(?:\.\d+)? ?(?:x|times)) as (?:fast|quick) as\b",  # "twice as fast as"
        # "will it be about as fast as his for sdxl?"
        r"^(?!.*\b(?:why|which)\b).*\b(?:will|would|is|are|can|could)\b.{0,40}"
        + _AS_FAST.pattern,
        _WORTH.pattern  # "is a 4090 worth it over a 3090 for llm chat"
        + r".{0,120}\b(?:llms?|chat|tok\w*|t/s|inference|decode|generat\w*|train\w*|images?"
        r"|sd\w*|diffusion|whisper)\b",
    ), faster_than, lambda q: len(gpus_named(q)) >= 2 and not _rate_asked(q)
       and not VALUE_ASKED.search(q.low)  # "which is the best value": the rent decides
       # "a used 3090 for $650 worth it over a new 4070 super?": the price said decides
       and not (q.purchase_usd or q.gpu_purchase_prices)),
    Principle("variants", "compare", _cues(
        r"\bsame (?:thing|gpu|card|chip|as|silicon|die)\b",
        _SAME_AS.pattern,  # "same VRAM and bandwidth as the 5090", not "the same price as"
        r"\bidentical\b",
        r"\bjust (?:more|a bigger|extra|bigger) (?:memory|vram)\b",
        r"\bonly (?:more )?(?:memory|vram)\b",
        r"\balso faster\b",
        r"\bany faster\b",
        r"\brebrand\w*\b",
        # "the 3090 and 3090 ti have the same tdp right": a claim on one figure
        r"^(?!.*\b(?:which|what|how|why)\b).*\b(?:have|has|got|share|with|is|are)\b (?:the )?"
        r"same (?:amount of )?(?:v?ram|memory|(?:memory )?bandwidth|tdp|power|wattage|tflops)\b"
        r"(?! (?:supply|supplies|connectors?|type|bus|clocks?|psu))",
        # "4070 ti and 4070 ti super same memory?"
        r"\bsame (?:v?ram|memory|(?:memory )?bandwidth|tdp|wattage|tflops)\s?\?",
        # "what's the difference between the H100 PCIe and H100 NVL?", "how do they differ"
        # (not "... for llama 70b inference": a job's difference, compared on it)
        _DIFFERENCE_ASKED.pattern,
    ), variants, lambda q: _two_gpus_or_sizes(q) and not _FORMAT_IN_HARDWARE.search(q.low)),
    Principle("precision_speed", "speed", _cues(
        r"\b(?:fp8|int8|int4|fp4|nvfp4|4-?bit|8-?bit)\b.{0,60}\b(?:faster|quicker|slower|"
        r"speed ?ups?)\b",
        r"\b(?:faster|quicker|speed ?ups?)\b.{0,40}\b(?:fp8|int8|int4|fp4|nvfp4)\b",
        r"\b(?:fp8|int8|int4|fp4|nvfp4|4-?bit|8-?bit)\b.{0,30}\b(?:vs|versus|than|compared)\b"
        r".{0,20}\b(?:bf16|fp16|fp32|16-?bit)\b.{0,60}\b(?:speed|fast|tokens?|throughput)",
    ), precision_speed, lambda q: _one_gpu(q) and all(m.family in (None, "llm") for m in q.models)
       and _job_model(q).family not in ("speech", "diffusion") and not _engines_named(q)
       and not _FORMAT_HARDWARE_ASKED.search(q.low)),
    Principle("mixed_cards", "fit", _cues(
        r"\b(?:two |2 )?(?:different|mixed|mismatched|unmatched)\b.{0,20}\b(?:gpus|cards)\b",
        r"\b(?:mix(?:ing)?|combin\w+|pair(?:ing)?|together)\b.{0,40}\b(?:llama\.?cpp|ollama"
        r"|split)\b",
        r"\b(?:llama\.?cpp|ollama)\b.{0,40}\b(?:together|mix\w*|combin\w+)\b",
        r"\bhow (?:does|will|would) (?:it|llama\.?cpp|ollama) split\b",
        # "can I use an RTX 3090 and RTX 4090 together for one model?"
        r"\b(?:use|run|put|combine)\b.{0,50}\btogether\b.{0,30}\b(?:one|a single|the same|a)"
        r" (?:model|llm)\b",
        r"\btogether\b.{0,10}\b(?:for|on|to run) (?:one|a single|the same) (?:model|llm)\b",
    ), mixed_cards, _two_different_cards),
    Principle("slot_width", "fit", _cues(
        r"\bx(?:1|2|4|8)\b", r"\b[1248]x (?:pci-?e )?(?:risers?|slots?|lanes?)\b", r"\brisers?\b",
    ), slot_width, _narrow_slot),
    Principle("one_card_slot", "fit", _cues(
        r"\bx(?:1|2|4|8)\b", r"\b[1248]x (?:pci-?e )?(?:risers?|slots?|lanes?)\b", r"\brisers?\b",
        r"\bchipset (?:slot|lanes)\b",
    ), one_card_slot, _one_card_slot),
    Principle("pcie_generation", "explain", _cues(
        r"\b(?:pcie?|pci express) ?(?:gen ?)?[3-6](?:\.0)?\b.{0,50}\b(?:vs|versus|or|matter\w*|"
        r"bottleneck\w*|slow\w*|difference|hurt|affect|enough|fine|ok|penalty)",
        r"\bgen ?[3-6]\b.{0,40}\b(?:vs|versus|or)\b.{0,10}\bgen ?[3-6]\b",
        r"\bgen ?[3-6]\b.{0,40}\b(?:matter\w*|bottleneck\w*|slow\w*|hurt|penalty)",
        r"\bx(?:4|8|16) (?:lanes?|slot)\b.{0,40}\b(?:matter\w*|bottleneck|slow\w*|enough|fine)",
        r"\bslot\b.{0,40}\bx(?:1|4|8)\b.{0,60}\b(?:matter\w*|bottleneck\w*|slow\w*|hurt|affect|penalty)",
        # "once it's loaded, does that slow link actually cut my tokens/sec?"
        # "does running a gpu at x8 instead of x16 hurt llm speed", "will the x4 link tank it"
        r"\bx(?:1|2|4|8|16)\b.{0,40}\b(?:hurt|tank\w*|slow\w*|matter\w*|bottleneck\w*|affect\w*"
        r"|penalt\w*|cripple\w*|kill\w*)\b",
        r"\b(?:link|slot|bus|lanes?|pcie|pci-?e|riser)\b.{0,30}\b(?:cut|hurt|reduce|lower|drop|slow"
        r"|tank)"
        r"\w*\b.{0,20}\b(?:tok\w*|speed|t/s|throughput|inference|generation)",
        # "am I losing much speed with the old slot?", "is the x8 link costing me performance"
        r"\b(?:los(?:e|ing)|cost\w*(?: me| us)?)\b.{0,20}\b(?:speed|performance|perf|tok\w*"
        r"|throughput)\b.{0,40}\b(?:slot|link|bus|lanes?|pcie|pci-?e|riser|board)\b",
    ), pcie_generation, _not_a_job_over_several),
    Principle("precision_support", "spec", _cues(
        # (not "support" the noun: "2B tokens of our support transcripts, bf16")
        r"\b(?:support(?!\s(?:transcripts?|tickets?|calls?|chats?|teams?|data|docs?|emails?|logs?"
        r"|agents?|requests?|staff|desk|conversations?)\b)|supports|supported|handle|capable of"
        r"|compatible with)\b.{0,40}\b(?:bf16|"
        r"bfloat16|fp8|float8|tf32)\b",
        # "does the t4 actually do bf16", "can an a100 run fp8", "is bfloat16 training possible"
        r"\b(?:can|could|does|do|will)\b[\w\s.-]{0,30}?\b(?:do|run|use|have|compute in|train in)\s"
        r"(?:the |our |this |an? )?(?:native\s)?(?:bf16|bfloat16|fp8|float8|tf32)\b",
        r"\b(?:bf16|fp8|tf32)\s?=\s?true\b",
        _FORMAT_IN_HARDWARE.pattern,
        # "bf16 mixed precision or plain fp32?", "fp32 or bf16 for pretraining?": a choice
        rf"\b(?:bf16|bfloat16)\b[^?.]{{0,40}}\bor {_PLAIN}"
        r"(?:fp32|float32)\b|\b(?:fp32|float32)\b[^?.]{0,20}\bor (?:\w+ )?(?:bf16|bfloat16)\b",
        r"\b(?:set|use|enable|turn on)\s(?:bf16|bfloat16|fp8|tf32)\b",
        r"\b(?:bf16|bfloat16|fp8|float8|tf32)\b.{0,25}\b(?:support\w*|capable|compatible|possible"
        r"|work\w*)\b",
        # "'fp8 is faster': is that true on my card?", "3x slower on the t4 ... autocast bfloat16"
        r"\b(?:bf16|bfloat16|fp8|float8)\b.{0,25}\b(?:is|runs?|trains?|goes) (?:\w+ )?(?:faster|"
        r"quicker|slower)\b.{0,80}\b(?:true|really|actually|my card|on my)\b",
        r"\b(?:\d(?:\.\d)?x |much |way )?slower\b.{0,160}\b(?:dtype\s?=\s?)?(?:torch\.)?"
        r"(?:bfloat16|bf16)\b",
    ), precision_support, _format_of_card),
    Principle("compute_bound", "explain", _cues(
        r"\bwhy\b.{0,80}\b(?:slow\w*|bad|crawl\w*|poor\w*|worse|weak|sluggish)\b.{0,60}"
        r"\b(?:train\w*|pre-?train\w*|fine-?tun\w*)\b",
        r"\bwhy\b.{0,60}\b(?:train\w*|pre-?train\w*|fine-?tun\w*)\b.{0,60}\b(?:slow\w*|crawl"
        r"\w*|poor\w*|worse|weak|sluggish)\b",
        r"^(?=.*\bwhy\b).*\b(?:slow\w*|crawl\w*|worse)\b.{0,60}\b(?:train\w*|fine-?tun\w*)\b",
    ), compute_bound),
    Principle("training_memory", "explain", _cues(
        r"\bwhy\b.{0,80}\b(?:fine-?tun\w*|train\w*)\b.{0,80}"
        r"\b(?:vram|memory(?! bandwidth)|more|much)\b",
        r"\b(?:fine-?tun\w*|train\w*)\b.{0,40}\b(?:so much|way more|more|\d+x)\b.{0,20}"
        r"\b(?:vram|memory)\b.{0,40}\b(?:than|vs|compared)\b.{0,30}\b(?:run\w*|inference)",
    ), training_memory, _anything),
    Principle("mig", "explain", _cues(
        r"\bmig\b.{0,80}\b(?:worth|should|small models?|several|bunch|multiple|lots of|many "
        r"(?:small )?models|share|sharing|slices?|carve|split|partition\w*|people|users|team\w*"
        r"|isolat\w*)\b",
        r"\b(?:worth|should|small models?|several|bunch|multiple|lots of|carve|split|partition|"
        r"slice)\b.{0,80}\bmig\b",
        r"\b(?:teams?|tenants?|users|people|customers|departments?|groups?|clients?|projects?"
        r"|students)\b.{0,80}\bisolat\w*",
        r"\bisolat\w*.{0,80}\b(?:teams?|tenants?|users|people|customers|departments?|groups?"
        r"|clients?|projects?|students)\b",
        # "can one H100 be partitioned so each department gets its own isolated slice?"
        r"\b(?:partition\w*|carv\w+|split)\b.{0,60}\b(?:isolated|own) (?:slices?|instances?"
        r"|partitions?|pieces?)\b",
        # "could we chop that one GPU into seven separate bits", "split into separate GPUs"
        r"\b(?:split|chop|carv|divid|partition|cut|slic)\w*\b.{0,40}\binto\b.{0,25}"
        r"\b(?:separate|several|multiple|smaller|isolated|virtual|\d+|two|three|four|five|six"
        r"|seven|eight)\b.{0,15}\b(?:gpus?|bits|parts|pieces|slices|instances|partitions|cards"
        r"|chunks)\b",
        # "I've read the A100 can be cut into pieces", "could each group have a slice of its own"
        r"\b(?:cut|split|chop|carv\w*|divid\w*|partition\w*|slic\w*)\b.{0,20}\binto (?:pieces"
        r"|slices|parts|chunks|bits|smaller (?:gpus|ones))\b",
        r"\bslice of (?:its|their|his|her|our|my) own\b",
        # "can I divide my rtx 3090 between two students?"
        r"\b(?:divid|split|partition|carv|shar)\w* (?:up )?(?:the |a |one |this |that |our |my )?"
        r"(?:(?:rtx|nvidia|geforce) )?(?:gpu|card|[a-z]{0,2}\d{3,4}\w*)\b.{0,15}\b(?:between|among)"
        r" (?:\d+|two|three|four|five|six|seven|eight|several|many|multiple|the|my|our)\b",
        # "can the card be divided so each student has a separate part?"
        r"\b(?:card|gpu)s? be (?:divided|split|partitioned|carved|shared out)\b.{0,60}"
        r"\b(?:each|separate|own|students?|users?|people|parts?)\b",
    ), mig, lambda q: _one_gpu(q) and not q.target and not _mig_count_only(q)),
    Principle("link_speed", "spec", _cues(
        r"\bnv ?link\b.{0,60}\b(?:faster|quicker|vs|versus|compared|than|against)\b.{0,30}"
        r"\bpcie?\b",
        r"\bpcie?\b.{0,40}\b(?:vs|versus|compared|than|against)\b.{0,30}\bnv ?link\b",
    ), link_speed, _link_only),
    Principle("power_limit", "speed", _cues(
        r"\bpower[- ]?(?:limit\w*|cap\w*)\b",
        r"\bundervolt\w*\b",
        r"\bnvidia-smi -pl\b",
        r"\b(?:limit\w*|cap|capp(?:ed|ing)|throttl\w*)\b.{0,25}\b(?:to|at) (?:like |about |around "
        r"|~)?\d{3} ?"
        r"(?:w|watts?)\b",
        r"\bmax-?q\b.{0,80}\b(?:half|slower|faster|speed|as fast|perform\w*)\b",
        r"\b(?:\d{3} ?w|watts?|tdp)\b.{0,60}\b(?:half as fast|twice as fast|half the speed)\b",
    ), power_limit, lambda q: (
        _one_gpu(q)
        and not (len(q.gpus) >= 2 and q.fields)  # not a choice
        and not re.search(r"\bpsu\b|\bpower suppl(?:y|ies)\b", q.low)  # the cap sizes a supply
        and not (q.usd_per_kwh is not None and not q.follow_up)  # the cap sizes a bill
        # "what's its power limit / TDP and how much VRAM?": the datasheet's figure asked
        and not ("tdp_w" in q.fields and not q.draw_w and not q.max_power_w and re.search(
            r"\b(?:what(?:'s| is| are)?|how (?:high|much)|tell me)\b[^.?!]{0,40}\bpower[- ]?"
            r"(?:limit|cap)\b", q.low))
    )),
    Principle("flash_attention", "spec", _cues(
        FLASH_WORDS,
    ), flash_attention, lambda q: _one_gpu(q) and not q.models),  # not a setting of a job
    Principle("double_precision", "advice", _cues(
        r"\b(?:double[- ]precision|fp64)\b.{0,60}\b(?:good|any good|suitable|decent|worth|usable"
        r"|viable|sensible|reasonable|appropriate)\b",
        r"\b(?:good|any good|suitable|decent|worth|usable|viable|sensible|reasonable|appropriate)"
        r"\b.{0,60}\b(?:double[- ]precision|fp64)\b",
    ), double_precision, lambda q: len(q.gpus) == 1 and _one_gpu(q)),
    Principle("double_precision_pick", "compare", _cues(
        r"\b(?:double[- ]precision|fp64)\b.{0,80}\b(?:solvers?|sim\w*|cfd|fem|hpc|physics|"
        r"molecular|non[- ]negotiable|required|needs?)\b",
        r"\b(?:solvers?|sim\w*|cfd|fem|hpc|physics|molecular)\b.{0,40}\b(?:double[- ]precision|"
        r"fp64)\b",
    ), double_precision_pick, lambda q: len(gpus_named(q)) >= 2),
    Principle("module_form", "advice", _cues(
        # (within one sentence: "Tower, quiet hour on nights. Request comparison H100 SXM5 ..."
        # is an air-traffic voice, no PC tower)
        r"\bsxm\w*\b[^.?!]{0,80}\b(?:workstation|desktop|tower|pc|pcie slot|motherboard|stick"
        r"|plug|put|install|my (?:rig|box|server))\b",
        r"\b(?:workstation|desktop|tower|pc|pcie slot|motherboard|stick|plug|put|install)\b"
        r"[^.?!]{0,60}\bsxm\w*\b",
    ), module_form),
    Principle("sparse_figure", "explain", _cues(
        rf"\b\d[\d,]*(?:\.\d+)?\s?{_FORMAT_WORD}t(?:flops|ops)\b.{{0,80}}\b(?:only|tops out"
        r"|max(?:es)? out|peaks?|reach\w*|get|measur\w*|benchmark\w*|broken|never)\b",
        # "quotes '1,979 teraflops' for FP16: the dense or the sparsity figure?"
        rf"\b\d[\d,]*(?:\.\d+)?\s?{_FORMAT_WORD}t(?:era)?(?:flops|ops)\b.{{0,120}}"
        r"\b(?:dense|sparse|sparsity)\b",
        r"\b(?:a|one|\d[\d,]*(?:\.\d+)?)\s?(?:peta-?flops?|pflops?)\b.{0,160}"
        r"\b(?:dense|sparse|sparsity|compare|comparable)\b",
        # "Thor does 2070 TFLOPS ... can I compare those two numbers directly"
        r"\b\d[\d,]*(?:\.\d+)?\s?t(?:era)?(?:flops|ops)\b.{0,160}\b(?:compare|comparable"
        r"|\d+x faster|same thing|something else)\b",
        # "the datasheet says 624 tflops but everyone computes mfu against 312"
        r"\b\d[\d,]*(?:\.\d+)?\s?t(?:flops|ops)\b.{0,40}\b(?:but|yet|while|whereas)\b.{0,80}"
        r"\b\d[\d,]*\b",
    ), sparse_figure),
    Principle("peak_that_applies", "explain", _cues(
        # "which of those numbers is the ceiling our training actually runs against?"
        r"^(?!.*\b(?:fp8|int8|fp4|nvfp4|int4|fp6)\b)(?=.*\b(?:fp32|tensor)\b).*\b(?:which|what)"
        r" (?:of (?:those|these|the) )?(?:two )?"
        r"(?:numbers?|figures?|specs?|tflops|ratings?|values?)\b.{0,60}\b(?:ceiling|upper bound"
        r"|bound|limit|runs? against|applies|appl(?:y|ies) to|relevant|matters?|counts?"
        r"|should i (?:use|trust|plan))\b",
        # "330 tflops fp16 in one place and 165 somewhere else? which one's real for training"
        r"^(?!.*\b(?:fp8|int8|fp4|nvfp4|int4|fp6)\b)(?=.*\b(?:tflops|fp16|bf16|tensor)\b)"
        r".*\bwhich (?:one'?s|one is|is|number is|figure is"
        r"|of them is) (?:the )?(?:real|right|correct|true|accurate|actual)\b",
    ), peak_that_applies),
    Principle("tf32_speed", "explain", _cues(
        r"\bfp32\b.{0,60}\b(?:faster|quicker|more)\b.{0,40}\b(?:than|spec\w*|tflops|datasheet)",
    ), tf32_speed),
    Principle("power_efficiency", "explain", _cues(
        r"^(?=.*\b(?:why|how come)\b)(?=.*\b(?:instead of|rather than|over|vs|versus|than)\b)"
        r".*\b(?:\d{2,3} ?w|watts?|power|efficien\w*|per watt)\b",
    ), power_efficiency, lambda q: len(gpus_named(q)) >= 2),
    Principle("power_supply", "spec", _cues(
        r"\bpsu\b",
        r"\bpower supply\b",
        r"\b(?:how many|what) watt\w*\b.{0,40}\b(?:need|build|rig|system|workstation|server)\b",
        r"\bwattage\b.{0,40}\b(?:need|enough|handle|require)",
        r"\b\d{3,4} ?(?:w|watts?)\b.{0,30}\b(?:enough|handle|sufficient|ok|okay|fine(?![- ]?tun)"
        r"|cut it)\b",  # (not "fine-tune")
        # a supply off the grid, its watts said, asked whether it runs a card: "my inverter is
        # rated 600 watts, can i run a 4090", "can my 1000w generator power two 3090s"
        r"\b(?:inverter|solar|battery bank|generator)\b[^.?!]{0,40}\b\d[\d,.]*\s?k?(?:w|watts?)\b"
        r"[^.?!]{0,30}\b(?:(?:can|could|will|would|does|is)\b[^.?!]{0,25}\b(?:run|power|handle"
        r"|carry|cope|support)|enough)\b",
        r"\b(?:can|could|will|would)\b[^.?!]{0,20}\b\d[\d,.]*\s?k?(?:w|watts?)\s(?:of\s)?"
        r"(?:inverter|solar|battery bank|generator)\b",
        # "a 300w inverter on the 24v bank ... will the inverter handle it"
        r"\b(?:can|could|will|would|does|is)\s(?:the|my|our|this|that)\s(?:inverter|generator|ups"
        r"|battery bank|solar setup)\s(?:handle|power|run|carry|cope|support|take|be enough"
        r"|enough)\b",
    ), power_supply, lambda q: _supply_asked(q.low)),
    Principle("context_memory", "explain", _cues(
        r"\b(?:context|ctx)\b.{0,60}\b(?:vram|memory)\b.{0,40}\b(?:explod\w*|blow\w*|grow\w*|"
        r"balloon\w*|jump\w*|increas\w*|spike\w*|so much|huge)",
        r"\b(?:vram|memory)\b.{0,40}\b(?:explod\w*|blow\w*|grow\w*|balloon\w*|jump\w*|"
        r"spike\w*)\b.{0,60}\b(?:context|ctx|\d+k)\b",
        r"\bwhy\b.{0,60}\b(?:longer|long|bigger|\d+k) (?:context|ctx)\b.{0,40}\b(?:vram|memory)",
        r"\b(?:context|ctx)\b.{0,30}\b(?:more|so much|extra|lots of|tons of)\b.{0,10}"
        r"\b(?:vram|memory)\b",
        # "I set the context to 65536 ... the file is under 5GB, so what is eating the memory?"
        r"^(?=.*\b(?:context|ctx)\b).*\b(?:what(?:'s| is)|where(?:'s| is| does))\b.{0,15}"
        r"\b(?:eating|using|taking|filling|hogging|chewing|going|the rest)\b.{0,30}"
        r"\b(?:memory|vram)\b",
        # "in 8bit it should be 13gb, so why does it still OOM at long context"
        r"\b(?:oom\w*|out of (?:memory|vram)|runs? out of (?:memory|vram))\b.{0,30}"
        r"\b(?:at |with |on )?(?:long(?:er)? (?:context|ctx|prompts?|conversations?)"
        r"|\d+k (?:context|ctx|tokens))",
    ), context_memory, _not_training),
    Principle("quantisation", "explain", _cues(
        # what quantisation is, asked alone, is the glossary's; how it fits a big model, here
        r"\bquanti[sz]\w*\b.{0,60}\b(?:let|lets|make|makes|allow\w*)\b.{0,30}\b\d+(?:\.\d+)?b\b",
        r"\bhow (?:does|can|do) (?:a |an |the )?\d+(?:\.\d+)?b\b.{0,40}\bfit\b.{0,60}\b(?:supposed"
        r"|need|needs|should)\b",
    ), quantisation, _anything),
    Principle("offload", "explain", _cues(
        r"\bwhy\b.{0,60}\b(?:crawl\w*|slow\w*|sluggish|so slow|snail|forever|ages|so long)\b",
        # "why is llama 70b running at like 1.5 tok/s on my 4090": the pace said is the complaint
        r"\bwhy\b.{0,80}\b(?:at|only|just|getting|get|like|~)\s?(?:like\s|~)?\d+(?:\.\d+)?\s?"
        r"(?:tok(?:ens)?/s|t/s|it/s|tps|(?:s(?:ec(?:onds?)?)?|min(?:utes?)?)(?:/| per | an? )"
        r"(?:image|img|pic|it))",
    ), offload, lambda q: _one_gpu(q) and any(m.ids or m.size_b for m in q.models)),
    Principle("bandwidth", "explain", _cues(
        r"\bwhy\b.{0,60}\b(?:slow|slower|sluggish)\b.{0,60}\b(?:llms?|decode|tokens?|inference|"
        r"generat\w*|chat)",
        r"\bwhy\b.{0,50}\bbandwidth\b.{0,40}\b(?:matter\w*|important|decode|llms?|tokens?)",
        r"\bbandwidth\b.{0,30}\b(?:matter\w*|important)\b.{0,40}\b(?:llms?|decode|tokens?|"
        r"inference)",
        # "why is generating tokens limited by the memory bandwidth and not the TFLOPS?"
        r"^(?=.*\bwhy\b)(?!.*\b(?:pcie|nvlink|interconnect|network|infiniband)\b).*"
        r"\b(?:generat\w*|decod\w*|tokens?)\b.{0,40}\b(?:limited|bound"
        r"|bottleneck\w*|capped)\b.{0,30}\bbandwidth\b",
    ), bandwidth),
)
# fmt: on


def _rate_asked(query: Query) -> bool:
    """ "the A100 is faster than the H100 for fp64 right?": a datasheet rate, no job to size."""
    rates = [f for f in query.fields if f.endswith(("_tflops", "_tops"))]
    return bool(rates) and not query.models


def find(query: Query, low: str) -> Principle | None:
    """The principle the question asks about in so many words, if its entities are there."""
    return next((p for p in _cued(low) if p.applies(query)), None)


@lru_cache(maxsize=256)
def _cued(low: str) -> tuple[Principle, ...]:
    """The principles whose words a text says, in order (asked several times of one question
    while its intent is found)."""
    return tuple(p for p in PRINCIPLES if p.cue.search(low))
