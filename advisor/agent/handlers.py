"""The rules engine's answer for each intent: which tools to call for a Query, and what to write
from their results (compose.py). The intent table (intents.py) maps intents to these handlers.

An answer starts with the sentence that answers the question. Nothing is guessed silently: an
unknown name is answered with suggestions; variants that differ on the figures the answer uses
are each answered (and the user asked which they have, when the verdict differs); every default
the answer rests on is stated once.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from advisor.agent import compose as c
from advisor.agent import glossary
from advisor.agent.linker import NUMBER_WORDS
from advisor.agent.query import (
    BUDGET_HELD,
    RENT_SAID,
    SWAP_TO,
    Budget,
    GpuRef,
    ModelRef,
    Query,
    card_named_in,
)
from advisor.agent.synthesis import best_sentences, content_words
from advisor.agent.toolbox import REFERENCE_MEMORY, ToolBox
from advisor.agent.understand import (
    CHEAPER,
    EACH_DAY,
    EACH_PRICE,
    EACH_USERS_RATE,
    ENGINE_WORDS,
    EPOCH_PACE_SAID,
    HARDWARE_UNKNOWN,
    HOSTED,
    LEAVING,
    MADE_ASKED,
    NEED_A_GPU,
    NONSTOP,
    OFF_GRID,
    ON_PREMISES,
    PERIOD_HOURS,
    PRECISION_WORDS,
    REFERENCE_LLM,
    SAMPLER_STEPS,
    SECOND_SLOT,
    SECONDS_PER_DAY,
    TRAIN_OPTION_WORDS,
    UNNAMED_ASKED,
    WEEKDAYS,
    absent_kind,
    family_hint,
    gpu_mentions,
)
from advisor.answer import Citation
from advisor.calculator import FAMILIES, interconnect
from advisor.calculator.cost import (
    CHINCHILLA_TOKENS_PER_PARAM,
    DEFAULT_TARIFF_SOURCE,
    DEFAULT_USD_PER_KWH,
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    paced_hours_h,
)
from advisor.calculator.factors import TENSOR_PARALLEL_ENGINES
from advisor.calculator.llm import DEFAULT_OUTPUT_TOKENS, native_precision
from advisor.calculator.power import OFFICE_CPU_W
from advisor.calculator.precision import is_exl2, no_bf16_tensor
from advisor.catalog import load_catalog
from advisor.retrieval.claims import audit_claim, extract_claims
from advisor.specs import GPU, ExchangeRate

MAX_GPUS_PER_ANSWER = 4
FINETUNE_DEFAULT = "finetune-lora"
NODE_GPUS = interconnect.NODE_GPUS  # a job too big for one card is compared on a node of each


@dataclass
class Draft:
    """An answer before the number check: text, what it cites, what it warns about."""

    text: str
    citations: list[Citation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cite_more: bool = True  # passages about its GPUs and models may be cited beside it


# ---------------------------------------------------------------- shared steps


def unresolved(query: Query) -> str | None:
    """The question back, or the refusal, for a name that cannot be pinned down."""
    for gpu in query.gpus:
        if not gpu.ids:
            if gpu.note:  # the words contradict every variant of a known GPU
                return gpu.note
            if not gpu.suggestions:
                return (f"The catalog has no GPU called '{gpu.text}' and none close to it, so I "
                        "have no figures for it; name a GPU it has, or give its memory and "
                        "bandwidth.")  # fmt: skip
            return (f"Unknown GPU '{gpu.text}': the catalog has no GPU called that, so I have "
                    "no figures for it; give its memory and bandwidth, or did you mean: "
                    f"{', '.join(gpu.suggestions)}?")  # fmt: skip
    hosted = re.search(rf"\b(?:{HOSTED.pattern})(?![\w-])", query.low)
    if hosted and not query.models and query.intent in ("fit", "speed", "solve", "train_time",
                                                        "spec", "recommend", "search"):  # fmt: skip
        return _hosted_reply(hosted.group(0))  # "how much vram for claude 3.5 sonnet?"
    largest = query.intent == "solve" and query.target is None  # "the biggest Qwen2.5 I can run"
    for model in query.models:
        kind = None if model.ids or model.family == "llm" else absent_kind(model.text)
        if kind is not None:  # "wan 2.1 14b", "wav2vec2": a kind of model the catalog lacks
            return (f"'{model.text}' is {kind.kind}, and the catalog has none of that kind: no "
                    "measured memory or speed to size it with, so I will not guess. "
                    f"{kind.covered}")  # fmt: skip
        if not model.ids and model.size_b is None and not (largest and model.suggestions):
            if HOSTED.fullmatch(model.text.lower().strip()):  # "can a 4090 run gpt-4?"
                return _hosted_reply(model.text)
            if not model.suggestions:  # (no example figure: the reply states none it computed)
                return (f"The catalog has no model called '{model.text}' and none close to it, "
                        "so I have no figures to size it with; name a model it has, or give "
                        "its parameter count in billions.")  # fmt: skip
            options = ", ".join(model.suggestions)
            return f"I don't have a model called '{model.text}'. Did you mean: {options}?"
        if len(model.ids) > 1:
            return (
                f"'{model.text}' names more than one model ({', '.join(model.ids)}). "
                "Which one do you mean?"
            )
    return None


def _hosted_reply(name: str) -> str:
    """A model sold through an API, asked to run on a GPU: its weights are not published."""
    return (
        f"'{name}' is a hosted model: its weights are not published, so no GPU can run it "
        "on your own machine; you reach it only through its maker's API. Which open-weight "
        "model should I size instead (Llama, Qwen, Mistral, Gemma, gpt-oss, DeepSeek)?"
    )


def model_arg(model: ModelRef) -> str:
    return model.ids[0] if model.ids else f"{model.size_b:g}b"


def workload_of(query: Query) -> tuple[str, str | None]:
    """(workload for the calculator, the note when a fine-tune's method was assumed)."""
    workload = query.workload or "inference"
    if workload == "finetune":
        return FINETUNE_DEFAULT, (
            "Fine-tuning method not given: LoRA assumed (say 'full' or 'QLoRA' for the others)."
        )
    return workload, None


# formats only a language model is stored in (GGUF files, AWQ/GPTQ, bitsandbytes 4-bit, MX/NV FP4)
_LLM_ONLY_FORMAT = re.compile(r"^(?:i?q\d|awq|gptq|nf4|mxfp4|nvfp4)")


def precision_for(model: ModelRef, query: Query) -> str | None:
    """The model's own format, else the question's, unless that is an LLM-only format said for
    another model of the question ("YOLOv8 plus a 3B LLM at Q4": the Q4 is the LLM's)."""
    precision = model.precision or query.precision
    if precision and (model.family or "llm") != "llm" and _LLM_ONLY_FORMAT.match(precision):
        return None
    if precision is None and query.engine == "exllamav2" and (model.family or "llm") == "llm":
        return "gptq"  # ExLlamaV2 runs its EXL2 quants (about 4 bits, costed as GPTQ), not bf16
    if (precision == "nf4" and model.ids and (model.family or "llm") == "llm"
            and not _BNB_SAID.search(query.low)):  # fmt: skip
        # "gpt-oss-120b ... and in 4 bit?": a model published in 4 bits (MXFP4) runs as released
        native = native_precision(load_catalog().get_model(model.ids[0]))
        if native in ("mxfp4", "awq") and _FOUR_BITS_SAID.search(query.low):
            return native
        sheets = [load_catalog().get_gpu(i) for ref in query.gpus for i in ref.ids[:1]]
        return four_bits(query, sheets) or precision
    return precision


def four_bits(query: Query, sheets: list[Any]) -> str | None:
    """The format "4-bit" said with no method means on these cards, for inference: a desk
    card's a GGUF on llama.cpp (a follow-up's "and in 4-bit?" after desk cards), a server's
    AWQ weights in vLLM; None where bitsandbytes' NF4 is how it runs (a T4, as on Colab) or
    when no serving engine runs it."""
    if (query.workload or "inference") != "inference":
        return None
    if sheets and query.engine in (None, "llama.cpp", "ollama") and all(
            g.segment in _LOCAL_SEGMENTS for g in sheets):  # fmt: skip
        return "q4_k_m"
    served = query.engine in (None, "vllm", "sglang", "tgi", "lmdeploy")
    # (no card named: the ranking's cards are served as servers run them, AWQ on vLLM)
    recent = not any(no_bf16_tensor(g.architecture, g.memory_type) for g in sheets)
    return "awq" if served and recent else None


# 4 bits said with no method ("in 4 bit", "int4"), and bitsandbytes' NF4 said by name
_FOUR_BITS_SAID = re.compile(r"\b(?:4|four)[- ]?bits?\b|\bint4\b")
_BNB_SAID = re.compile(r"\bnf4\b|\bbnb\b|bitsandbytes|\bq?lora\b")


def _nodes_against_one(query: Query, box: ToolBox) -> str | None:
    """Training over several machines: its speed against one machine's cards alone, the
    network deciding whether the others add anything. None unless the job trains on cards
    counted over machines and both setups fit."""
    model = query.models[0] if query.models else None
    workload, _ = workload_of(query)
    if not (query.nodes and model and query.gpus and workload.startswith(("finetune", "train"))):
        return None
    ref = query.gpus[0]
    gpu = gpu_choices(ref)[0] if ref.ids else None
    count = ref.count or query.num_gpus
    if gpu is None or not count or not _over_the_network(query, count):
        return None
    args = estimate_args(query, gpu, count, model)
    shown = [call.args for call in box.calls if call.name == "estimate"
             and call.args.get("nodes") and call.args.get("num_gpus") == count
             and "error" not in call.result and call.result.get("fits")]  # fmt: skip
    if shown:  # at the batch the answer's own estimate settled on
        args["batch"] = shown[-1].get("batch", args.get("batch"))
    every = box.call("estimate", args)
    single = {**args, "num_gpus": count // query.nodes}
    single.pop("nodes", None)
    single.pop("network", None)
    one = box.call("estimate", single)
    if "error" in every or "error" in one or not (every["fits"] and one["fits"]):
        return None
    key = next((k for k in ("train_tokens_per_s", "train_samples_per_s")
                if (every.get(k) or {}).get("typical")), None)  # fmt: skip
    if key is None or not (one.get(key) or {}).get("typical"):
        return None
    unit = "tokens/s" if key == "train_tokens_per_s" else "samples/s"
    all_s, one_s = every[key]["typical"], one[key]["typical"]
    alone = c.gpus_phrase(one["num_gpus"], one["gpu_name"])
    net = every.get("interconnect") or "the network"
    asked = re.search(r"\b(?:worth|efficient\w*|help\w*|scale\w*|faster|speed ?up|gain|"
                      r"benefit|pay off|make sense)\b|^(?:can|could|will|would|is|are|does|do|"
                      r"should)\b", query.low)  # fmt: skip
    if not asked:
        word = (
            f"**Across the machines over {net}, all {every['num_gpus']} cards train "
            f"{c.num(all_s / one_s)}x as fast as one machine's {alone} alone"
        )
    elif all_s < one_s:
        word = (
            f"**No: over {net}, all {every['num_gpus']} cards train slower than one "
            f"machine's {alone} alone"
        )
    elif all_s < 1.5 * one_s:
        word = (
            f"**Barely: over {net}, all {every['num_gpus']} cards train only "
            f"{c.num(all_s / one_s)}x as fast as one machine's {alone} alone"
        )
    else:
        word = (
            f"**Yes: over {net}, all {every['num_gpus']} cards train "
            f"{c.num(all_s / one_s)}x as fast as one machine's {alone} alone"
        )
    return (
        f"{word}**: about {c.num(all_s, unit)} against {c.num(one_s, unit)} "
        f"({every['model_name']}, {c.settings(every)}). Each step's gradients (and, with "
        "the model sharded, its weights) cross the network between the machines, the "
        "slowest hop of the ring."
    )


def _over_the_network(query: Query, count: int | None, gpu: str | None = None) -> dict[str, Any]:
    """Cards over several machines ("two boxes with 4x 3090 each, 10GbE between"): the nodes
    and the network, when the count splits over them. No network said: a switch board's
    modules (SXM, OAM) are joined by the InfiniBand of their generation, as such clusters are
    built; other cards by 10 GbE; the answer says which (the estimate's assumptions)."""
    nodes = query.nodes
    if not nodes or not count or count % nodes or count <= nodes - 1:
        return {}
    if not workload_of(query)[0].startswith(("finetune", "train")):
        return {}  # "fits on one node, or do we need two with pipeline parallel?": the GPUs said
    card = _board_card(gpu) if gpu and not query.network else None
    fabric = _board_fabric(card) if card is not None else "10gbe"
    return {"nodes": nodes, "network": query.network or fabric}


# A cluster's fabric by the generation of its boards, when the question names none: the
# InfiniBand of the DGX of that generation (DGX-1 EDR, DGX A100 HDR, DGX H100 NDR, a port each)
_CLUSTER_NETWORK = {"Volta": "ib-edr", "CDNA 1": "ib-edr", "Ampere": "ib-hdr", "CDNA 2": "ib-hdr"}


def _board_fabric(card: GPU) -> str:
    """The InfiniBand a cluster of this board's generation is built on (NDR after Ampere)."""
    return _CLUSTER_NETWORK.get(card.architecture, "ib-ndr")


def _cluster_network(query: Query, gpu: str, count: int | None) -> dict[str, Any]:
    """A training run over more of a board's GPUs than one board holds ("979 x H100"), no nodes
    said: whole nodes of NODE_GPUS joined by the InfiniBand of their generation, as clusters
    of SXM/OAM boards are built (not one NVSwitch domain of any size)."""
    if query.nodes or not count or count <= NODE_GPUS or count % NODE_GPUS:
        return {}
    card = _board_card(gpu)
    if card is None:
        return {}
    if not workload_of(query)[0].startswith(("finetune", "train")):
        return {}
    return {"nodes": count // NODE_GPUS,
            "network": _board_fabric(card)}  # fmt: skip


def estimate_args(query: Query, gpu: str, count: int | None, model: ModelRef) -> dict[str, Any]:
    workload, _ = workload_of(query)
    args: dict[str, Any] = {"model": model_arg(model), "gpu": gpu, "workload": workload}
    precision = precision_for(model, query)
    if precision == "q4_k_m" and query.precision and query.precision.startswith(("q", "iq")):
        precision = query.precision  # "...-GGUF at Q6_K": the repo says GGUF, the file which
    optional: dict[str, Any] = {
        "num_gpus": count or query.num_gpus,
        "precision": precision,
        "context": query.context,
        "batch": default_batch(query, model, workload),
        "engine": _engine(query.engine, model),
        # an image model's diffusers offload (a llama.cpp layer split is no such thing)
        "offload": query.offload
        if model.family == "diffusion" and query.offload != "layers"
        else None,
        "train_tokens": query.train_tokens,
        "resolution": query.resolution,
        "steps": _sampler_steps(query),
        # (a speech fine-tune's epochs are passes over the hours of audio said)
        "epochs": query.epochs
        if query.dataset_samples or (query.audio_hours and workload.startswith("finetune"))
        else None,
        "dataset_samples": query.dataset_samples or _steps_as_samples(query, model, workload),
        "images": query.images,
        "audio_hours": query.audio_hours,
        "framework": query.framework if query.framework in _frameworks(model) else None,
        "interconnect": query.interconnect if (model.family or "llm") == "llm" else None,
        **(
            _over_the_network(query, count or query.num_gpus, gpu)
            or _cluster_network(query, gpu, count or query.num_gpus)
        ),
        "output_tokens": query.output_tokens if workload == "inference" else None,
        # "kv cache in fp8": an LLM's cache at that type when it serves
        "kv_cache": query.kv_cache
        if (model.family or "llm") == "llm" and workload == "inference"
        else None,
        "provider": query.provider,  # "... on lambda": priced at that cloud's rows
        "reserved_gb": query.reserved_gb if gpu != CPU else None,  # "4 GB kept for the OS"
        # llama.cpp's backend said ("ollama with vulkan on a 7900 xtx"), for llama.cpp only
        "backend": query.backend
        if (model.family or "llm") == "llm"
        and workload == "inference"
        and _engine(query.engine, model) in (None, "llama.cpp")
        and gpu != CPU
        else None,
    }
    if _layers_offloaded(query, model, workload):  # "split it between the GPU and the CPU"
        optional.update(offload="layers", engine=optional["engine"] or "llama.cpp")
    elif _OLLAMA.search(query.low) and _layers_offloaded(replace(query, offload="layers"), model,
                                                         workload):  # fmt: skip
        optional.update(offload="layers")  # ollama splits a model the card cannot hold itself
    if (
        query.gpu_layers is not None
        and (model.family or "llm") == "llm"
        and gpu != CPU
        and (workload == "inference" and query.engine in (None, "llama.cpp", "ollama"))
    ):  # "-ngl 40": that many layers on the card, the rest on the CPU
        optional.update(gpu_layers=query.gpu_layers, engine=optional["engine"] or "llama.cpp")
    split = optional.get("offload") or optional.get("gpu_layers") is not None
    if ((model.family or "llm") == "llm" and split) or gpu == CPU:
        optional.update(ram=query.ram, ram_channels=query.ram_channels, ram_gb=query.ram_gb)
    if gpu == CPU:
        optional.update(num_gpus=None)
    if workload.startswith(("finetune", "train")) and (model.family or "llm") == "llm":
        optional.update(dict(query.train_options))
    elif workload.startswith("finetune") and model.family == "diffusion":
        optional["optimizer"] = dict(query.train_options).get("optimizer")  # DreamBooth's Adam
    elif workload.startswith("finetune") and model.family == "speech":  # a Whisper fine-tune
        optional.update({k: v for k, v in query.train_options if k in _SPEECH_TRAIN_OPTIONS})
    llm_trained = workload.startswith(("finetune", "train")) and (model.family or "llm") == "llm"
    if llm_trained and query.steps:
        # "4000 steps at batch size 4": the run's tokens are its steps' sequences, whatever the
        # data set said before (a sequence at the context, 2,048 tokens when none is said)
        seq = query.context or TRAIN_SEQ_ASSUMED
        args["train_tokens"] = query.steps * (query.batch or 1) * seq
        optional.update(train_tokens=None, epochs=None, dataset_samples=None, steps=None)
    elif query.train_tokens and query.epochs:
        args["train_tokens"] = query.train_tokens * query.epochs
        # "50k samples avg 512 tokens, 2 epochs": the tokens in all, not the samples again
        optional.update(train_tokens=None, epochs=None, dataset_samples=None)
    args.update({k: v for k, v in optional.items() if v is not None})
    return args


CPU = "cpu"  # the estimate tool's device for a run on the CPU alone, from system RAM
# the memory options a Whisper fine-tune takes (speech_train.py)
_SPEECH_TRAIN_OPTIONS = ("optimizer", "checkpointing", "mixed_precision", "fused_optimizer")
TRAIN_SEQ_ASSUMED = 2048  # the sequence an LLM's training step is sized at, none said (llm.py)
ON_THE_CPU = ("llm", "speech")  # the families the calculator runs on the CPU alone
_OLLAMA = re.compile(r"\bollama\b")


def _layers_offloaded(query: Query, model: ModelRef, workload: str) -> bool:
    """An LLM run with its layers split between the GPU and system RAM: offload said, in
    llama.cpp (or ollama) or no engine said."""
    return (
        (model.family or "llm") == "llm"
        and workload == "inference"
        and query.offload in ("model", "sequential", "layers")
        and query.engine in (None, "llama.cpp", "ollama")
        and not _WHOLE_ON_GPU.search(query.low)
    )


# "can I keep ALL layers on the GPU, or am I forced to offload?": the whole-GPU fit is asked
_WHOLE_ON_GPU = re.compile(
    r"\ball (?:the |its |of the )?layers\b|\bfully\b|\bentirely\b|\bcompletely\b"
    r"|-ngl 99\b|\bwithout\b[^.?!]{0,25}\boffload|\bno (?:cpu |ram )?offload"
    r"|\bforced to (?:offload|split)\b|\bhave to (?:offload|split)\b"
)


def _frameworks(model: ModelRef) -> tuple[str, ...]:
    from advisor.calculator import FAMILIES

    return FAMILIES[model.family or "llm"].frameworks


def default_batch(query: Query, model: ModelRef, workload: str) -> int | None:
    """The batch the user gave (or their concurrency when serving), else the family's usual
    per-GPU training batch (the answer's settings show it)."""
    from advisor.calculator import FAMILIES

    if query.batch:
        return query.batch
    if workload == "inference" and query.concurrency:
        return query.concurrency
    if workload == "inference" and _ONE_AT_A_TIME.search(query.low):
        return None  # latency: one sample at a time
    if workload == "inference" and model.family == "speech" and _BATCHED.search(query.low):
        return BATCHED_SPEECH  # "batch transcription": faster-whisper's batched pipeline
    family = FAMILIES[model.family or "llm"]
    if workload != "inference" and model.ids:  # "train yolov8 on 20k images": its trainer's own
        from advisor.calculator.families import models_of
        from advisor.catalog import load_catalog

        own = getattr(models_of(load_catalog(), family).get(model.ids[0]), "train_batch", None)
        if own:
            return int(own)
    # pre-training timed or priced at a useful batch, not at one sequence a step of overhead (a
    # fit is judged at the batch that fits: one, with gradient accumulation for more)
    # ("bert-base inference on a T4, 1M sentences": a job of many samples runs batched)
    timed = query.intent not in ("fit", "solve", "spec") or bool(
        workload == "inference" and (query.dataset_samples or query.images)
    )
    if workload == "inference" and not timed:
        return None  # "SAM ViT-H on an 8gb card?": does one image fit, not a throughput batch
    return dict(family.default_batch).get(workload) or (
        _pretraining_default(workload, model) if timed else None
    )


# audio transcribed in bulk, not as it comes: "batch transcription", "batched", "offline"
_BATCHED = re.compile(
    r"\bbatch(?:ed)? (?:transcri\w*|jobs?|mode|processing|inference|runs?)\b|\bbatched\b"
    r"|\boffline\b|\bin bulk\b|\bbacklog\b|\barchive\b"
)
BATCHED_SPEECH = 16  # faster-whisper's BatchedInferencePipeline, as its README runs it


_ONE_AT_A_TIME = re.compile(
    r"\bone (?:image|sample|frame|request|sentence) at a time\b|\blatency\b|\breal[- ]?time\b"
    r"|\bsingle (?:image|sample|stream)\b|\bper (?:image|frame)\b|\bms\b"
    r"|\bfps\b|\bframes? (?:per|a|/) ?s(?:ec(?:ond)?)?\b"  # a camera's frames, one by one
)


def _engine(engine: str | None, model: ModelRef) -> str | None:
    """The engine the user named, if the model's family has it ("diffusers" for SDXL; "hf" is
    how some write diffusers too); else the family's default."""
    from advisor.calculator import FAMILIES

    engines = FAMILIES[model.family or "llm"].engines
    if engine == "hf" and "diffusers" in engines:
        return "diffusers"
    if engine == "hf" and "transformers" in engines:  # Whisper in transformers' pipeline
        return "transformers"
    return engine if engine in engines else None


def gpu_choices(ref: GpuRef) -> list[str]:
    return list(ref.ids[:MAX_GPUS_PER_ANSWER])


def gpus_named(query: Query) -> list[str]:
    """The first variant of each GPU named, once each."""
    return list(dict.fromkeys(gpu_choices(g)[0] for g in query.gpus if gpu_choices(g)))


def run_at_home(query: Query) -> Query:
    """The question sized as a model is run on a desktop card: a 4-bit GGUF on llama.cpp,
    unless the engine was said."""
    return replace(query, precision=HOME_PRECISION, engine=query.engine or "llama.cpp")


def _variants_note(ref: GpuRef, box: ToolBox) -> str:
    return f"'{ref.text}' covers {c.count_words(len(ref.ids))} variants; each is answered."


# ---------------------------------------------------------------- fixed replies


def greeting(query: Query, box: ToolBox) -> Draft:
    return Draft(c.HELP)


def out_of_scope(query: Query, box: ToolBox) -> Draft:
    return Draft(c.OUT_OF_SCOPE)


def invalid(query: Query, box: ToolBox) -> Draft:
    return Draft(c.INVALID)


# hardware that cannot exist: no GPUs or fewer than none, a card with (next to) no memory
_NO_GPUS = re.compile(r"(?<![\w.])(-\s?\d+|0)\s?(?:x\s?)?(?:gpus?|cards?)\b")
_NO_MEMORY = re.compile(
    r"(?<![\w.])(?:(-\s?\d+(?:\.\d+)?|0(?:\.0+)?)\s?(?:gb|gigs?)|(\d+(?:\.\d+)?)\s?(?:mb|kb))\b"
    r"(?:\s(?:of\s)?(?:vram|gpu|card|memory))?"
)


def impossible_hardware(query: Query) -> Draft | None:
    """ "llama 3 8b on -4 gpus", "a gpu with 1 MB of vram", "7b on a 0gb gpu": hardware no
    estimate can be made for, said so (with what runs instead), not a model's weights alone."""
    low = query.text.lower()  # (as written: the understanding blanks a negative number)
    count = _NO_GPUS.search(low)
    memory = _NO_MEMORY.search(low)
    if memory and memory.group(2) and not re.search(r"\b(?:vram|gpu|card)\b", low):
        memory = None  # "a 500 mb file": no card's memory
    if memory and memory.group(2) and query.gpus and not re.search(
            r"(?:vram|gpu|card|memory)$", memory.group(0)):  # fmt: skip
        memory = None  # "an OOM on my 4070 super, gnome takes about 500MB": a use of the card's
    if count is None and memory is None:
        return None
    said = (count or memory).group(0).strip()  # type: ignore[union-attr]
    return Draft(f"**No GPU setup to size: '{said}' is no card I can estimate for.** A GPU count "
                 "starts at one and a card's memory at a few gigabytes; with no GPU at all, a "
                 "model runs on the CPU from system RAM (ask for it on a CPU, with your RAM). Say "
                 "the card, or its memory in GB, and the count.")  # fmt: skip


# ---------------------------------------------------------------- datasheets


# moving from one card to another asked as raising a figure: "would replacing our H100s with
# H200s materially increase FP64 throughput?"
_RAISED = re.compile(
    r"\b(?:increase|raise|boost|improve|gain|more|higher|faster|better|upgrade)\w*\b"
)
_MOVE = re.compile(r"\b(?:replac\w*|switch\w*|mov(?:e|ing)|upgrad\w*|swap\w*|go(?:ing)? from)\b")
_MATERIALLY = re.compile(
    r"\b(?:material\w*|significant\w*|substantial\w*|meaningful\w*|noticeabl\w*|much|a lot)\b"
)
# CUDA code asked of a card that runs another stack: "will my .cu kernels run on the MI300X?"
_CUDA_CODE = re.compile(r"\bcuda\b|\bnvcc\b|\.cu\b")


def _figure_raised(query: Query, box: ToolBox) -> str | None:
    """ "Would replacing the H100 SXM with the H200 SXM raise FP64?": yes when the second card's
    figure is at least 10% higher, with both figures."""
    if not (len(query.gpus) == 2 and query.fields and YES_NO.search(query.low)
            and _RAISED.search(query.low) and _MOVE.search(query.low)):  # fmt: skip
        return None
    field = query.fields[0]
    if field not in c.FIELD_LABELS or not c.FIELD_LABELS[field][1]:
        return None
    sheets = [box.call("gpu_specs", {"gpu": gpu_choices(g)[0]}) for g in query.gpus]
    if any("error" in s for s in sheets) or not all(s.get(field) for s in sheets):
        return None
    old, new = (float(s[field]) for s in sheets)
    label, unit = c.FIELD_LABELS[field]
    material = bool(_MATERIALLY.search(query.low))  # "materially more": 10% or more
    up = new >= 1.1 * old if material else new > old
    return (f"**{'Yes' if up else 'No'}: {label} {c.num(new, unit)} on the {sheets[1]['name']} "
            f"against {c.num(old, unit)} on the {sheets[0]['name']}"
            + ("" if up or new <= old else "; not materially more") + ".**")  # fmt: skip


def _cuda_elsewhere(query: Query, box: ToolBox) -> str | None:
    """ "Will my hand-written CUDA kernels run on the MI300X unmodified?": no, another stack."""
    if not (query.gpus and YES_NO.search(query.low) and _CUDA_CODE.search(query.low)):
        return None
    sheet = box.call("gpu_specs", {"gpu": gpu_choices(query.gpus[0])[0]})
    stack = sheet.get("compute_stack") if "error" not in sheet else None
    if not stack or stack == "cuda":
        return None
    named = {"rocm": "ROCm (HIP)", "oneapi": "oneAPI (SYCL)", "metal": "Metal"}.get(stack, stack)
    port = (" CUDA source is ported to HIP (hipify-perl or hipify-clang convert most of it) and "
            "rebuilt with hipcc." if stack == "rocm" else "")  # fmt: skip
    return (
        f"**No: the {sheet['name']} runs {named}, not CUDA; CUDA kernels do not run on it "
        f"unmodified.**{port}"
    )


# compute figures a choice between cards can be made on alone (no LLM or training job said)
_PICK_ON_FIGURE = ("fp64_tflops", "fp64_tensor_tflops", "fp32_tflops", "tf32_tflops",
                   "int8_dense_tops", "fp8_dense_tflops")  # fmt: skip


def spec(query: Query, box: ToolBox) -> Draft:
    parts = []
    lead = _figure_raised(query, box) or _cuda_elsewhere(query, box)
    if lead:
        parts.append(lead)
    if query.requirements:  # "min. 80 GB, max. 600 W: compliant?": each card against them
        parts += _requirements_checked(query, box)
    elif len(query.gpus) == 1 and (YES_NO.search(query.low) or _CHECKED.search(query.low)):
        sheets = [box.call("gpu_specs", {"gpu": g}) for g in gpu_choices(query.gpus[0])]
        found = [s for s in sheets if "error" not in s]
        lead = _figures_checked(query, found) or _feature_said(query, found)
        parts += [lead] if lead else []
        if lead.startswith("**Yes") and "fp8_dense_tflops" in query.fields and found:
            parts += _fp8_pace(query, box, found[0]["id"])  # "...and does it speed things up?"
    for ref in query.gpus:
        count = ref.count or query.num_gpus or 1
        args: dict[str, Any] = {"num_gpus": count} if count > 1 else {}
        sheets = [box.call("gpu_specs", {"gpu": g, **args}) for g in gpu_choices(ref)]
        errors = [s["error"] for s in sheets if "error" in s]
        if errors:
            parts.append(errors[0])
            continue
        totals = c.totals_line(sheets[0], query.fields) if count > 1 else None
        if totals:  # "4 of them in one server, total power?"
            parts.append(totals)
        if not query.fields and len(sheets) > 1:  # "a100 specs": the variants side by side
            parts.append(f"**'{ref.text}' comes in {c.count_words(len(sheets))} variants:**")
            parts.append(c.compare_table(sheets, c.SUMMARY_FIELDS))
        elif query.fields or len(sheets) > 1:
            parts.append(c.spec_lines(sheets, query.fields, variants=ref.open_variant))
            if len(sheets) == 1:
                parts.append(c.sheet_summary(sheets[0]))
        else:  # "l40s specs?": the datasheet in one sentence, not four lines and a repeat
            parts.append("**" + c.sheet_summary(sheets[0]).replace(": ", ":** ", 1))
        parts += c.stack_notes(sheets)
        # "I'm on a 15A 120V circuit": what it leaves
        if (circuit := _circuit_drawn(query, box, sheets[0]["id"], count)) is not None:
            parts.append(_circuit_line(*circuit, count))
            drawn = circuit[2]
            if _CIRCUIT_ASKED.search(query.low):  # "can that circuit carry it?": its verdict first
                total = c.num(drawn["total_w"], "W")
                steady = c.num(drawn["circuit_continuous_w"], "W")
                lead = (f"**Yes: about {total} at full load, within the {steady} the circuit "
                        "carries for hours**" if drawn["circuit_verdict"] == "within" else
                        f"**No: about {total} at full load, more than the {steady} the circuit "
                        "carries for hours**")  # fmt: skip
                parts.insert(0, lead + ".")
        parts.append("Source: " + sheets[0]["source"].split(" ; ")[0])
    return Draft("\n\n".join(parts))


# a household or office circuit: "a 15A 120V circuit", "20 amp breaker at 230 V"
_CIRCUIT = re.compile(
    r"\b(\d{1,2})\s?(?:a|amps?|ampere\w*)\b[^.?!]{0,20}?\b(\d{3})\s?(?:v|volts?)\b"
    r"|\b(\d{3})\s?(?:v|volts?)\b[^.?!]{0,20}?\b(\d{1,2})\s?(?:a|amps?|ampere\w*)\b"
)


# whether the circuit holds asked: "can that circuit carry it", "will it trip the breaker"
_CIRCUIT_ASKED = re.compile(
    r"\b(?:can|could|will|would|does|is)\b[^.?!]{0,30}\b(?:circuit|breaker)\b[^.?!]{0,30}\b(?:carry"
    r"|handle|take|hold|cope|enough|ok|okay|fine)\b|\btrip\w*\b|\bcircuit\b[^.?!]{0,20}\benough\b"
)


def on_the_circuit(query: Query, box: ToolBox, gpu: str, count: int) -> str | None:
    """The circuit said, against the machine at full load (the cards' board power or the cap
    said on each, a desktop CPU and the rest): what it carries, what it carries for hours on end,
    and what is left."""
    found = _circuit_drawn(query, box, gpu, count)
    return None if found is None else _circuit_line(*found, count)


def _circuit_drawn(
    query: Query, box: ToolBox, gpu: str, count: int
) -> tuple[float, float, dict[str, Any]] | None:
    """(amps, volts, the system_power result) of the circuit said, or None."""
    said = _CIRCUIT.search(query.low)
    if said is None:
        return None
    amps = float(said.group(1) or said.group(4))
    volts = float(said.group(2) or said.group(3))
    capped = {"gpu_cap_w": query.draw_w} if query.draw_each and query.draw_w else {}
    drawn = box.call("system_power", {"gpu": gpu, "num_gpus": count, "circuit_a": amps,
                                      "circuit_v": volts, **capped})  # fmt: skip
    if "error" in drawn or drawn.get("circuit_w") is None:
        return None
    return amps, volts, drawn


def _circuit_line(amps: float, volts: float, drawn: dict[str, Any], count: int) -> str:
    """The circuit's sentence: what it carries, the machine's draw and the verdict."""
    what = c.gpus_phrase(count, drawn["gpu_name"])
    total, steady = drawn["total_w"], drawn["circuit_continuous_w"]
    verdict = {"within": f"within it, with about {c.num(drawn['circuit_spare_w'], 'W')} to spare",
               "over for hours": "over it for hours on end (within it for short bursts)",
               "over": "over it"}[drawn["circuit_verdict"]]  # fmt: skip
    return (
        f"A {c.num(amps, 'A')} circuit at {c.num(volts, 'V')} carries "
        f"{c.num(drawn['circuit_w'], 'W')}, {c.num(steady, 'W')} for a continuous load (80%). "
        f"A machine with {what} at full load draws about {c.num(total, 'W')} "
        f"({c.num(drawn['gpus_w'], 'W')} of board power, a desktop CPU at "
        f"{c.num(drawn['cpu_w'], 'W')}, {c.num(drawn['platform_w'], 'W')} for the rest): "
        f"{verdict}, less anything else on that circuit."
    )


def _requirements_checked(query: Query, box: ToolBox) -> list[str]:
    """Yes or no for the first card named (the one a bid offers), then each other card: every
    figure required against its datasheet value ("memory 96 GB against at least 80 GB"). A card
    whose variants differ on a required figure is left to the datasheet lines."""
    lines: list[str] = []
    for ref in query.gpus:
        sheets = [s for s in (box.call("gpu_specs", {"gpu": g}) for g in gpu_choices(ref))
                  if "error" not in s]  # fmt: skip
        if not sheets:
            continue
        checks = []
        for name, op, value in query.requirements:
            values = {s.get(name) for s in sheets}
            have = values.pop() if len(values) == 1 else None
            if not isinstance(have, (int, float)):
                break
            met = have >= value if op == ">=" else have <= value
            bound = "at least" if op == ">=" else "at most"
            label, unit = c.FIELD_LABELS[name]
            held = c.num(have, unit)
            if name == "interconnect_gbs" and not have:  # no NVLink: what links it instead
                held = f"none ({sheets[0].get('interconnect') or 'no NVLink'})"
            checks.append((met, f"{label} {held} against {bound} {c.num(value, unit)}"))
        else:
            name = sheets[0]["name"] if len(sheets) == 1 else ref.text
            failed = [said for met, said in checks if not met]
            if not checks:
                continue
            verdict = "No" if failed else "Yes"
            does = "does not meet the requirement" if failed else "meets the requirement"
            said = "; ".join(said for _met, said in checks)
            line = f"{verdict}: the {name} {does} ({said})."
            lines.append(f"**{line}**" if not lines else line)
    return lines


# architectures before each feature (public architecture whitepapers): tensor cores arrived
# with Volta, FP8 tensor math with Ada Lovelace and Hopper
_BEFORE_TENSOR_CORES = ("Kepler", "Maxwell", "Pascal")
_BEFORE_FP8 = (*_BEFORE_TENSOR_CORES, "Volta", "Turing", "Ampere")


def _figures_checked(query: Query, sheets: list[dict[str, Any]]) -> str:
    """ "Is it true that the RTX 5090 has 32 GB of GDDR7?": yes or no, each figure the user
    states of the card held against its datasheet (the articles' claims audit, on the question);
    "" when the question states no figure, or the variants named disagree."""
    low = query.low
    if not sheets or not _CHECKED.search(low) or _JUDGEMENT.search(low):
        return ""  # "does it have enough bandwidth at 360 GB/s for LLMs?": a judgement
    ids = {s["id"] for s in sheets}
    text = query.text  # the card as the datasheet names it, so the claims know whose figure
    for ref in query.gpus:
        text = text.replace(ref.text, f" {sheets[0]['name']} ")
    unnamed = low  # the words around the card, not its name ("the H100 PCIe has 3.35 TB/s")
    for ref in query.gpus:
        unnamed = unnamed.replace(ref.text.lower(), " ")
    terse = not re.search(r"nvlink|link|interconnect|pcie|infiniband|network", unnamed)
    base = query.gpus[0].base if len(query.gpus) == 1 else None
    claims = [
        # a name the card was read from in its setting ("the laptop RTX 4090" read as the laptop
        # GPU) but which alone names another: the claim is of the card asked about
        replace(claim, gpu_ids=tuple(ids)) if base and base in claim.gpu_text else claim
        for claim in extract_claims(text, terse=terse)
    ]
    claims = [cl for cl in claims if ids & set(cl.gpu_ids) and cl.field in c.FIELD_LABELS]
    verdicts = [v for v in map(audit_claim, claims) if v.status != "unchecked"]
    name = sheets[0]["name"] if len(sheets) == 1 else query.gpus[0].text
    if any(_variants_differ(v) for v in verdicts):
        # "is it true the A100 has 80 GB of HBM3?": the memory size said, which names variants,
        # says which the claim is about; the other figures are checked against those
        held = [v for v in verdicts if v.claim.field == "memory_gb" and v.status == "agrees"]
        kept = {i for v in held for i, x in v.datasheet.items() if _same(x, v.claim.value)}
        if not kept or kept == ids:
            return ""
        claims = [replace(cl, gpu_ids=tuple(i for i in cl.gpu_ids if i in kept)) for cl in claims]
        verdicts = [v for v in map(audit_claim, claims) if v.status != "unchecked"]
        if any(_variants_differ(v) for v in verdicts) or not _all_read(unnamed, verdicts):
            return ""
        sheets = [s for s in sheets if s["id"] in kept]
        size = held[0].claim
        name = (sheets[0]["name"] if len(sheets) == 1
                else f"{query.gpus[0].text} {c.num(float(size.value), size.unit)}")  # fmt: skip
    if not verdicts:
        return ""
    sheet = sheets[0]
    wrong = [v for v in verdicts if v.status == "disagrees" and not _rounded(v)]
    facts = "; ".join(f"{c.FIELD_LABELS[v.claim.field][0]} {c.field_value(sheet, v.claim.field)}"
                      for v in wrong or verdicts)  # fmt: skip
    if wrong:  # and what was said against it ("16 GB, not the 24 GB said")
        # in the question's own words only: "24 GB", not "1 TB/s" restated as "1,000 GB/s"
        stated = [c.num(v.claim.value, v.claim.unit) if isinstance(v.claim.value, (int, float))
                  else str(v.claim.value) for v in wrong]  # fmt: skip
        said = "; ".join(s for s in stated if s in query.text)
        said = f", not the {said} stated" if said else ""
        right = [v for v in verdicts if v not in wrong and isinstance(v.claim.value, (int, float))
                 and v.claim.field in {w.claim.field for w in wrong}]  # fmt: skip
        if right:  # "I read 864 GB/s, my colleague says 1,5 TB/s: who is right?"
            first = c.num(float(right[0].claim.value), right[0].claim.unit)
            return f"**The {first} is right: the {name}'s datasheet says {facts}{said}.**"
        return f"**No: the {name}'s datasheet says {facts}{said}.**"
    return f"**Yes: the {name}'s datasheet agrees ({facts}).**"


_STATED = re.compile(
    r"(?<![\w.])\d[\d,.]*\s?(?:tb/s|gb/s|gb|w|watts|tflops|tops)\b|\b(?:hbm|gddr)\w*"
)


def _all_read(text: str, verdicts: list[Any]) -> bool:
    """Whether a verdict is owed: besides the memory size that named the variants, another
    figure was checked, and no figure or memory type the question states went unread ("80 GB
    of type HBM3" with the type missed is no "Yes")."""
    if all(v.claim.field == "memory_gb" for v in verdicts):
        return False
    return len(_STATED.findall(text)) <= len(verdicts)


def _variants_differ(verdict: Any) -> bool:
    return len({str(x) for x in verdict.datasheet.values()}) > 1


def _same(value: Any, said: Any) -> bool:
    """A datasheet value and a figure said of it: equal, numbers within 2%."""
    if isinstance(value, (int, float)) and isinstance(said, (int, float)):
        return abs(value - said) <= 0.02 * abs(value)
    return str(value).lower() == str(said).lower()


# a figure put to the datasheet: "is it true that", "right?", "does it draw 700 W?"
_CHECKED = re.compile(
    r"\b(?:is (?:it|that|this)(?: (?:claim|statement|figure|number|spec))? (?:true|right"
    r"|correct|accurate)|true that"
    r"|(?:right|correct|true)\s?\?|\bwho(?:'s| is| has) right\b"
    # "isn't the 3090's bandwidth like 1.5 TB/s"
    r"|^\W*(?:is|are|does|was|has)n['\u2019]?t (?:the |an? )?"
    r"|\bwhich (?:one |figure )?is (?:right|correct)\b"
    # "tell me whether that statement is correct", "if this claim is accurate"
    r"|\b(?:whether|if) (?:that|this|the|their|his|her) (?:statement|claim|figure|spec|number"
    r"|brochure|ad|advert|listing) (?:is |was |holds )?(?:true|right|correct|accurate|up)\b"
    r"|(?:does|do|is|has) (?:the |a |an )?[\w -]{2,30}? (?:have|has|draw|use|pull|come with|ship"
    r" with|rated (?:at|for)) (?:only |just |really |about |around |the same |as much as )?~?\d)"
)
# a verdict on the figure asked, not the figure itself: "enough bandwidth at 360 GB/s?"
_JUDGEMENT = re.compile(
    r"\benough\b|\bsufficient\b|\bgood\b(?! (?:morning|afternoon|evening|day)\b)|\bfast\b"
    r"|\bworth\b|\btoo\b"
)


def _rounded(verdict: Any) -> bool:
    """A figure said in round numbers that the datasheet value rounds to: "3 TB/s" of an
    H100's 3,350 GB/s, "1 TB/s" of a 4090's 1,008 (half a unit of the last digit written, and
    within 12%)."""
    claim = verdict.claim
    values = [v for v in verdict.datasheet.values() if isinstance(v, (int, float))]
    if not values or not isinstance(claim.value, (int, float)) or claim.value <= 0:
        return False
    for said in re.finditer(r"(?<![\w.])\d[\d,]*(?:\.(\d+))?", claim.quote):  # the figure, in
        written = float(said.group(0).replace(",", ""))  # its unit: 3 (TB/s) for 3,000 GB/s
        if written > 0 and any(math.isclose(claim.value / written, s) for s in (1, 1000, 1e-3)):
            step = 0.5 * 10 ** -len(said.group(1) or "") * claim.value / written
            near = min(step, 0.12 * claim.value)  # "2 TB/s" is no round 1,555 GB/s
            return all(abs(v - claim.value) <= near for v in values)
    return False


_SPEED_UP = re.compile(r"\bspeed(?:s|ing)? (?:\w+ )?up\b|\bfaster\b|\bspeedup\b|\bquicker\b")


def _fp8_pace(query: Query, box: ToolBox, gpu: str) -> list[str]:
    """Whether FP8 makes inference faster on a card that has it: an 8B LLM's single-stream decode
    in FP8 against BF16 (decoding reads every weight per token, so half the bytes)."""
    if not _SPEED_UP.search(query.low):
        return []
    args = {"model": REFERENCE_LLM, "gpu": gpu, "workload": "inference", "engine": "vllm"}
    runs = [box.call("estimate", {**args, "precision": p}) for p in ("fp8", "bf16")]
    speeds = [(e.get("decode_tokens_per_s") or {}).get("typical") if "error" not in e else None
              for e in runs]  # fmt: skip
    if not all(speeds) or not all(e["fits"] for e in runs):
        return []
    eight, sixteen = speeds
    return [f"For inference, yes where decoding sets the pace: {runs[0]['model_name']} decodes "
            f"at about {c.num(eight, 'tokens/s')} in FP8 against {c.num(sixteen, 'tokens/s')} in "
            f"BF16 on it (one stream, vLLM): FP8 weights are half the bytes to read per token. "
            "Prompts and large batches gain from the FP8 tensor rate."]  # fmt: skip


def _feature_said(query: Query, sheets: list[dict[str, Any]]) -> str:
    """ "Does the A30 support MIG?", "does the A100 have FP8 tensor cores?": yes or no from the
    datasheet, or from the architecture where the datasheet has no figure because the feature
    did not exist yet; "" when neither decides, or the variants named disagree."""
    asked: list[str] = [f for f in ("fp8_dense_tflops", "mig_max_instances", "tensor_cores",
                                    "fp16_bf16_dense_tflops") if f in query.fields]  # fmt: skip
    low = query.low
    nvidia = all(str(s.get("vendor", "")).lower() == "nvidia" for s in sheets)
    supports = re.search(r"\b(?:support|have|has|take|use)s?\b", low)
    if not asked and nvidia and re.search(r"\bnvlink\b", low) and supports:
        asked = ["nvlink"]  # "does the H100 PCIe support NVLink?" (an NVIDIA link)
    for ref in query.gpus:
        low = low.replace(ref.text.lower(), " ")
    if not asked or not sheets or _MORE_THAN.search(low) or _SIZED.search(low):
        return ""  # "fewer than 7 MIG instances?", "is its MIG count 7?": a figure, not a feature
    field = asked[0]
    if field == "fp16_bf16_dense_tflops":
        # "is my 1080 ti any good for fp16 training?": a card with no FP16 tensor figure because
        # it has no tensor cores is a no; one with them is answered by its figure, not here
        if any(s.get(field) is not None for s in sheets):
            return ""
        field = "tensor_cores"
    said = {_has_feature(s, field) for s in sheets}
    if len(said) != 1 or None in said:
        return ""
    has = said.pop()
    sheet = sheets[0]
    name = sheet["name"] if len(sheets) == 1 else query.gpus[0].text
    what = {"fp8_dense_tflops": "FP8 tensor math", "mig_max_instances": "MIG",
            "tensor_cores": "tensor cores", "nvlink": "NVLink"}[field]  # fmt: skip
    if field == "nvlink":
        link = c.field_value(sheet, "interconnect_gbs")
        return (f"**Yes: the {name} has NVLink** (GPU-to-GPU link: {link})." if has else
                f"**No: the {name} has no NVLink**; its cards talk over PCIe.")  # fmt: skip
    if has:
        figure = c.field_value(sheet, field)
        return f"**Yes: the {name} has {what}** ({c.FIELD_LABELS[field][0]}: {figure})."
    arch = sheet.get("architecture")
    why = f"; the {arch} generation predates it" if arch else ""
    if field == "mig_max_instances":
        why = " (its datasheet lists no MIG partitioning)"
    tensor = c.field_value(sheet, "fp16_bf16_dense_tflops")
    best = (f" Its fastest tensor format is FP16/BF16 at {tensor} dense."
            if field == "fp8_dense_tflops" and isinstance(sheet.get("fp16_bf16_dense_tflops"),
                                                          (int, float)) else "")  # fmt: skip
    if field == "tensor_cores" and len(sheets) == 1 and sheet.get("fp32_tflops"):
        fp32 = c.field_value(sheet, "fp32_tflops")
        best = (" Mixed precision (FP16) gets no tensor-core speed-up on it: half-precision math "
                f"runs on its CUDA cores (FP32 rate {fp32}).")  # fmt: skip
    return f"**No: the {name} has no {what}**{why}.{best}"


# whether a named card has what is explained: "confirm whether this card possesses them"
_WHETHER_HAS = re.compile(
    r"\b(?:whether|if)\b[^.?!]{0,40}\b(?:has|have|possess\w*|comes? with|supports?|got)\b"
    r"|\b(?:does|do) (?:it|this|that|the|my|our|this particular)\b[^.?!]{0,40}\b(?:have|possess|"
    r"come with|support)\b"
)


def _card_has_it(query: Query, box: ToolBox) -> str | None:
    """Yes or no from the datasheet, first, when an explanation is asked with whether the card
    named has the feature ("what are tensor cores, and does the RTX 4000 Ada have them?")."""
    refs = [ref for ref in query.gpus if ref.ids]
    if len(refs) != 1 or not _WHETHER_HAS.search(query.low):
        return None
    sheet = box.call("gpu_specs", {"gpu": refs[0].ids[0]})
    if "error" in sheet:
        return None
    return _feature_said(query, [sheet]) or None


# a figure or a size in the question: "over 500", "count 7", "lower than its fp16"
_SIZED = re.compile(
    r"\b\d+\b(?!\s?(?:gb|gbyte|gib|g|w)\b)"
    r"|\b(?:count|number|over|under|above|below|at least|lower|higher)\b"
)


def _has_feature(sheet: dict[str, Any], field: str) -> bool | None:
    if field == "nvlink":  # a bridge or a switch fabric, whatever else the card has
        link = str(sheet.get("interconnect", "")).lower()  # not "PCIe only (no NVLink)"
        if re.search(r"not (?:functional|enabled|supported)|disabled", link):
            return False  # the Titan V's NVLink fingers do not work
        return bool(re.search(r"(?<!no )nvlink|nvswitch", link))
    value = sheet.get(field)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value > 0
    if value == "no" or value == 0:
        return False
    arch = str(sheet.get("architecture") or "")
    before = _BEFORE_FP8 if field == "fp8_dense_tflops" else _BEFORE_TENSOR_CORES
    if field != "mig_max_instances" and arch in before:
        return False
    return None


# ---------------------------------------------------------------- is it good for ML

# the rungs of what a GPU can do, smallest first: (what, workload, precision, models by size)
LADDER = (
    ("run", "inference", "q4_k_m",
     ("llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b")),
    ("fine-tune with QLoRA", "finetune-qlora", "nf4",
     ("llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b")),
)  # fmt: skip
REFERENCE_JOBS = (("sdxl", "inference", "diffusion"), ("resnet-50", "train", "vision"))
# a card asked about for vision training, no model named: "small cnns", "image classification"
_VISION_JOB = re.compile(
    r"\bcnns?\b|\bconv(?:olutional)? ?nets?\b|\bconvnets?\b|\bcomputer vision\b"
    r"|\bimage (?:classification|classifiers?|recognition)\b|\bresnets?\b"
)


def advice(query: Query, box: ToolBox) -> Draft:
    """ "Is the X good for deep learning?": what one GPU can do, from the largest reference
    models it runs and fine-tunes, then image generation and training speed, with its price."""
    if query.models and query.models[0].assumed and query.models[0].family != "llm":
        return fit(query, box)  # "good for stable diffusion?": that job on it, not a profile
    ref = query.gpus[0]
    gpu = gpu_choices(ref)[0]
    sheet = box.call("gpu_specs", {"gpu": gpu})
    if "error" in sheet:
        return Draft(sheet["error"])
    cuda_like = sheet.get("compute_stack") in ("cuda", "rocm")
    reach: dict[str, dict[str, Any] | None] = {}
    for what, workload, precision, ladder in LADDER:
        reach[what] = None
        if precision == "nf4" and not cuda_like:
            continue  # bitsandbytes' 4-bit kernels need CUDA (or ROCm)
        for model in ladder:
            args = {"model": model, "gpu": gpu, "workload": workload, "precision": precision}
            e = box.call("estimate", args)
            if "error" in e or not e["fits"]:
                break
            reach[what] = e
    from advisor.calculator import FAMILIES

    jobs = []
    for m, w, family in REFERENCE_JOBS:  # at the family's usual batch (ResNet-50 trains at 128)
        batch = dict(FAMILIES[family].default_batch).get(w)
        args = {"model": m, "gpu": gpu, "workload": w}
        job = box.call("estimate", {**args, "batch": batch} if batch else args)
        for smaller in (32, 8) if batch and w != "inference" else ():
            if "error" in job or job["fits"] or smaller >= (batch or 0):
                break  # a small card trains at a smaller batch rather than not at all
            job = box.call("estimate", {**args, "batch": smaller})
        jobs.append(job)
    text = c.advice(sheet, reach, [j for j in jobs if "error" not in j])
    vision = next((j for j in jobs if j.get("family") == "vision" and j.get("fits")), None)
    llms = re.search(r"\bllms?\b|\blanguage models?\b|\bchat\w*\b", query.low)
    if vision is not None and _VISION_JOB.search(query.low) and not llms:
        # "ok for learning pytorch and training small cnns?": the job said decides, not LLMs
        rate = c.metrics_of(vision)[0]
        text = (f"**Yes, for CNNs: the {sheet['name']} trains {vision['model_name']} at about "
                f"{c.num(rate[1]['typical'], rate[2])}** ({c.settings(vision)}); smaller "
                f"networks train faster still.\n\n" + text.replace("**", "", 2))  # fmt: skip
    training = query.workload in ("train", "finetune", "finetune-full")
    matrix_unknown = bool(sheet.get("tensor_cores"))  # matrix units, but no rate published
    if training and not sheet.get("fp16_bf16_dense_tflops") and sheet.get("fp32_tflops"):
        if matrix_unknown:  # an Arc A770's 512 XMX engines: their FP16 rate is not on record
            head, _, rest = text.partition("\n\n")
            text = (f"{head}\n\nIt has matrix units ({sheet['tensor_cores']:,}), but their 16-bit "
                    "rate is not on record, so its training figures use its FP32 rate of "
                    f"{c.num(sheet['fp32_tflops'], 'TFLOPS')}: a floor, not a forecast.\n\n"
                    + rest)  # fmt: skip
        else:
            # no tensor cores (before Volta): training runs at the FP32 rate, a fraction of a
            # tensor-core card's, whatever the memory lets it hold
            text = (f"**No, not for training: the {sheet['name']} has no tensor cores, so "
                    "training runs at its FP32 rate of "
                    f"{c.num(sheet['fp32_tflops'], 'TFLOPS')}.** It is still useful for "
                    "inference that fits its memory.\n\n" + text)  # fmt: skip
    notes = [n for n in (c.stack_note(sheet),) if n]
    price = price_note(query, box, gpu)
    judged, _, rest = (price or "").partition("\n\n")
    if (price and rest and judged.startswith("**") and not (query.models or query.workload_given)
            and not _ML_SAID.search(query.low)):  # fmt: skip
        # "someone's selling a 3090 for $600, decent?": no job said, so the price found is
        # what is asked; the card's reach follows it
        text, price = f"{judged}\n\n{text}", rest
    if price:
        notes.append(price)
    if len(ref.ids) > 1:
        notes.append(f"'{ref.text}' has {len(ref.ids)} variants; this is the {sheet['name']}.")
    return Draft("\n\n".join([text, *notes]))


def price_note(query: Query, box: ToolBox, gpu: str, buying: bool = False) -> str | None:
    """What the GPU costs: its median rental, or its dated purchase price when it has no rental
    (or the question buys)."""
    # a price the user found to buy at ("a p40 at $280, still usable?"): judged against the
    # purchase prices, not a rent
    buying = buying or bool(_quote_said(query) and not _RENT_SAID.search(query.low))
    price = {} if buying else box.call("prices", {"gpu": gpu})
    if query.provider and not buying:  # "on aws": that cloud's, where it rents the card
        theirs = box.call("prices", {"gpu": gpu, "provider": query.provider})
        if theirs.get("summary_usd_per_gpu_hour"):
            n = theirs["count"]
            return (f"To rent on {query.provider}: "
                    f"{c.usd(theirs['summary_usd_per_gpu_hour']['median'])} per hour (median of "
                    f"{n} current price{'s' if n > 1 else ''}).")  # fmt: skip
    if price.get("summary_usd_per_gpu_hour"):
        return (f"To rent: {c.usd(price['summary_usd_per_gpu_hour']['median'])} per hour "
                f"(median of {price['count']} current prices).")  # fmt: skip
    bought = box.call("purchase_prices", {"gpu": gpu})
    if bought.get("prices"):  # "they're like $300 now": that price against the ones on record
        judged = [
            re.sub(r"^\*\*(?:Yes|No): ", "**", line)  # (the card's verdict leads)
            for line in _against_quote(query, bought, query.condition or "new", box)
        ]
        return "\n\n".join([*judged, c.purchase(bought, query.condition or "new")])
    return None


# ---------------------------------------------------------------- does the link matter

LINK_REFERENCE_MODEL = "llama-3.1-8b"  # the job a link question about no model is sized on
# ... and the job of one about data-parallel training (MLPerf's and DLE's BERT-large pre-training)
LINK_REFERENCE_TRAINED = "bert-large"
_DATA_PARALLEL_SAID = re.compile(r"\bdata[- ]parallel\b|\bddp\b|\ball[- ]?reduce\b")
LINK_MATTERS = 0.15  # slower than this over PCIe, and NVLink is worth having


def link(query: Query, box: ToolBox) -> Draft:
    """ "Do I need an NVLink bridge for fine-tuning on 2x 3090s, or is PCIe fine?": the same job
    over PCIe and over NVLink, and the verdict from how much slower PCIe is."""
    ref = query.gpus[0]
    gpu = gpu_choices(ref)[0]
    sheet = box.call("gpu_specs", {"gpu": gpu})
    if "error" in sheet:
        return Draft(sheet["error"])
    count = ref.count or query.num_gpus or 2
    asked = replace(query, workload=query.workload or "finetune")
    training = asked.workload != "inference"
    if query.models:
        model = query.models[0]
    elif training and (_DATA_PARALLEL_SAID.search(query.low) or asked.workload == "train"):
        # ("do i need nvlink for multi gpu training with two 4090s": no model said, trained)
        # "is NVLink worth it for 8-GPU data parallel": a model each GPU holds a copy of, the
        # classic data-parallel benchmark (the reference job said in a note)
        model = ModelRef(LINK_REFERENCE_TRAINED, (LINK_REFERENCE_TRAINED,), "transformer")
        asked = replace(asked, workload="train")
    else:
        model = ModelRef(LINK_REFERENCE_MODEL, (LINK_REFERENCE_MODEL,), "llm")
    args = estimate_args(asked, gpu, count, model)  # the question's precision, context, options
    if args["workload"] == "inference":
        args.setdefault("engine", "vllm")  # tensor parallel: the link is on every token
    workload = args["workload"]
    pcie = box.call("estimate", {**args, "interconnect": "pcie"})
    if "error" in pcie:
        return Draft(pcie["error"])
    four_bit = ""
    if not pcie["fits"] and workload == "inference" and not query.precision:
        # "do I need nvlink for 2x3090 llama 70b?": in 16 bits it fits nowhere near, so the link
        # is weighed where such a pair runs it, in 4-bit weights
        quantised = box.call("estimate", {**args, "precision": "awq", "interconnect": "pcie"})
        if "error" not in quantised and quantised["fits"]:
            args, pcie = {**args, "precision": "awq"}, quantised
            four_bit = ("In 16 bits the model does not fit these cards, so the link is weighed in "
                        "4-bit (AWQ) weights, as such a pair runs it.")  # fmt: skip
    cards = f"{count} x {sheet['name']}"
    job = f"{c.workload_label(pcie)} of {pcie['model_name']} on {cards}"
    over = pcie.get("interconnect") or "PCIe"
    if not pcie["fits"]:  # the link is moot
        head = f"**{pcie['model_name']} does not fit on {cards} for {c.workload_label(pcie)}**"
        return Draft(f"{head} ({c.settings(pcie)}).\n\n{c.memory_line(pcie)}")
    together = box.call("gpu_specs", {"gpu": gpu, "num_gpus": count})
    total = None if "error" in together else c.totals_line(together, ("memory_gb",), bold=False)
    if pcie.get("link_wait_share") is not None:  # data parallel: the step's wait on the link
        bridged = sheet.get("gpu_link") == "switch" or (sheet.get("gpu_link") == "bridge"
                                                        and count == 2)  # fmt: skip
        nvlink = box.call("estimate", {**args, "interconnect": "nvlink"}) if bridged else None
        return _data_parallel_link(query, pcie, nvlink, box, args, job)
    if sheet.get("gpu_link") not in ("bridge", "switch"):
        head = f"**The {sheet['name']} has no NVLink: {job} runs over PCIe** ({over})."
        if workload == "inference" and str(pcie.get("engine")) not in TENSOR_PARALLEL_ENGINES:
            fine_said = fine_asked(query)  # split by layers: no matter
            head = (
                f"**{'Yes' if fine_said else 'No'}: PCIe is fine for {job}**: the "
                f"{sheet['name']} has no NVLink, and the model is split by layers ({over})."
            )
        return Draft("\n\n".join([head, *c.speed_lines(pcie, first_only=True),
                                   *([four_bit] if four_bit else []),
                                   _link_why(pcie, workload), *_pcie_line(box, sheet),
                                   *([total] if total else []),
                                   c.sheet_summary(sheet)]))  # fmt: skip
    if sheet.get("gpu_link") == "bridge" and count > 2:
        head = f"**An NVLink bridge joins only two cards: {job} crosses PCIe either way** ({over})."
        return Draft("\n\n".join([head, *c.speed_lines(pcie, first_only=True)]))
    nvlink = box.call("estimate", {**args, "interconnect": "nvlink"})
    key = "decode_tokens_per_s" if workload == "inference" else "train_tokens_per_s"
    slow, fast = (pcie.get(key) or {}).get("typical"), (nvlink.get(key) or {}).get("typical")
    if not slow or not fast:
        return Draft(c.memory_line(pcie))
    loss = 1 - slow / fast
    bridge = sheet.get("gpu_link_gbs")
    via = "PCIe" if over.lower() == "pcie" else f"PCIe ({over})"
    figures = (f"about {c.num(slow, 'tokens/s')} over {via} against "
               f"{c.num(fast, 'tokens/s')} over NVLink")  # fmt: skip
    fine_said = fine_asked(query)  # "is PCIe fine?": yes means fine
    if loss < LINK_MATTERS:
        head = (f"**{'Yes' if fine_said else 'No'}: PCIe is fine for {job}**: {figures}, "
                f"{c.num(slow / fast)}x the NVLink speed.")  # fmt: skip
    else:
        head = (f"**{'No' if fine_said else 'Yes'}: NVLink makes {job} "
                f"{c.num(fast / slow)}x as fast**: {figures}.")  # fmt: skip
    parts = [head, *([four_bit] if four_bit else []), _link_why(pcie, workload)]
    if bridge:
        pair = "the two cards of a bridge" if sheet.get("gpu_link") == "bridge" else "GPUs"
        parts.append(f"The {sheet['name']}'s NVLink: {c.num(bridge, 'GB/s')} between {pair}.")
    if total:
        parts.append(total)
    return Draft("\n\n".join(parts))


def _link_why(pcie: dict[str, Any], workload: str) -> str:
    """Why the link matters or not for the job: what crosses it, and how often."""
    layers = str(pcie.get("engine") or "") not in TENSOR_PARALLEL_ENGINES
    return (
        f"{pcie.get('engine') or 'This engine'} splits the model by layers: the cards work in "
        "turn, and per token only one layer's activations (kilobytes) cross the link, so its "
        "bandwidth hardly enters; the pair's gain is memory, not speed. Tensor parallelism "
        "(vLLM, TensorRT-LLM) all-reduces every layer for every token and is where a link shows."
        if workload == "inference" and layers
        else "Tensor-parallel inference all-reduces every layer's activations for every token, so "
        "the link's latency adds to each step; pipeline or single-card serving barely uses it."
        if workload == "inference"
        else "Data-parallel training all-reduces the gradients once per step, which backward "
        "mostly hides; the link matters when every layer crosses it: tensor-parallel inference, "
        "or sharded (ZeRO-3/FSDP) training of a model one card cannot hold."
    )


# why a link or a slot shows, or not, in data-parallel training (both answers that weigh one)
DATA_PARALLEL_WHY = (
    "Data-parallel training all-reduces the gradients once per step, and the backward pass "
    "hides most of it; a link shows when the model is large against the work of a step (a "
    "big model at a small batch per GPU), or when every layer crosses it (tensor-parallel "
    "inference, sharded ZeRO-3/FSDP training)."
)


def share_said(value: float) -> str:
    """A share of a step in whole percent ("under 1%" below one)."""
    return "under 1%" if value < 0.01 else f"{round(100 * value)}%"


# asked whether the link is good enough (yes = fine), not whether it holds the job back
_LINK_FINE_ASKED = re.compile(
    r"\b(?:fine|enough|ok|okay|sufficient|good enough|get away with|work\w* (?:ok|fine|well))\b"
)
_LINK_NEED_ASKED = re.compile(
    r"\b(?:need\w*|require\w*|worth|matter\w*|necessary|help\w*|bottleneck\w*|limit\w*|slow\w*"
    r"|hold\w* (?:\w+ )?back)\b"
)


def fine_asked(query: Query) -> bool:
    """Whether "yes" means the link is fine: the first of the two asks decides ("do I need an
    NVLink bridge, or is PCIe fine?" asks the need first)."""
    fine = _LINK_FINE_ASKED.search(query.low)
    need = _LINK_NEED_ASKED.search(query.low)
    return fine is not None and (need is None or fine.start() < need.start())


def _data_parallel_link(
    query: Query,
    e: dict[str, Any],
    nvlink: dict[str, Any] | None,
    box: ToolBox,
    args: dict[str, Any],
    job: str,
) -> Draft:
    """ "Is PCIe a bottleneck for DDP on 4x 3090s?": the share of each step spent waiting on the
    gradient all-reduce, and the cards' speed against as many times one card's."""
    share = e["link_wait_share"]
    label, rate, unit = c.lead_metric(e)
    one = box.call("estimate", {**args, "num_gpus": 1})
    alone = (c.lead_metric(one)[1] or {}).get("typical") if "error" not in one else None
    fine = share < LINK_MATTERS
    fine_said = fine_asked(query)
    verdict = "Yes" if fine == fine_said else "No"
    waits = (f"{'only ' if fine else ''}{share_said(share)} of each step of {job} waits on the "
             f"gradient all-reduce over {e['interconnect']}")  # fmt: skip
    head = f"**{verdict}: {waits}**"
    sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
    link = []
    if sheet.get("gpu_link") not in ("bridge", "switch") and "nvlink" in query.low:
        # "do i need nvlink ... two 4090s": a card that has none cannot be given one
        head = (f"**The {sheet.get('name', e['gpu_name'])} has no NVLink, so PCIe it is: "
                f"{waits}**")  # fmt: skip
        link = _pcie_line(box, sheet)
    if nvlink is not None and "error" not in nvlink and nvlink.get("link_wait_share") is not None:
        bridged = c.lead_metric(nvlink)[1]["typical"]
        head += (f"; over NVLink {share_said(nvlink['link_wait_share'])}, "
                 f"{c.num(bridged, unit)} against {c.num(rate['typical'], unit)}")  # fmt: skip
    lines = [head + "."]
    if alone:
        n = e["num_gpus"]
        lines.append(f"{label.capitalize()}: about {c.num(rate['typical'], unit)} on the {n} "
                     f"cards, {c.num(rate['typical'] / alone)}x one card's "
                     f"{c.num(alone, unit)} ({c.settings(e)}).")  # fmt: skip
    lines.append(DATA_PARALLEL_WHY)
    return Draft("\n\n".join([*lines, *link]))


def pcie_gbs(box: ToolBox, gen: int, lanes: int = 16) -> float | None:
    """What a PCIe slot of that generation and width moves each way (the pcie_links tool), or
    None when the tool refuses it."""
    links = box.call("pcie_links", {"gens": [gen], "lanes": lanes})
    return None if "error" in links else links["links"][0]["gbs"]


def _pcie_line(box: ToolBox, sheet: dict[str, Any]) -> list[str]:
    """What the cards' PCIe slots move each way, for a card with no NVLink: "PCIe 4.0 x16 moves
    about 31.5 GB/s each way"."""
    gen = sheet.get("pcie_gen") or 4
    gbs = pcie_gbs(box, gen)
    if gbs is None:
        return []
    return [f"PCIe {gen}.0 x16 moves about {c.num(gbs, 'GB/s')} each way between the cards."]


# ---------------------------------------------------------------- will it fit, how fast


# the CPU set against a card named: "cpu only vs a 3060", "how much faster than my cpu"
_AGAINST_THE_CPU = re.compile(r"\bvs\.?\b|\bversus\b|\bcompared?\b|\bfaster\b|\bslower\b|\bthan\b")


def _estimates(query: Query, box: ToolBox, model: ModelRef) -> list[dict[str, Any]]:
    results = []
    asked = dict.fromkeys((gpu, ref.count) for ref in query.gpus for gpu in gpu_choices(ref))
    for gpu, count in asked:  # a GPU named twice ("an a100 80gb ... the a100") is one row
        results.append(box.call("estimate", estimate_args(query, gpu, count, model)))
    against = not query.gpus or bool(_AGAINST_THE_CPU.search(query.low))
    if query.cpu_only and against and (model.family or "llm") in ON_THE_CPU:
        # "on cpu only vs a 3060, how much faster is the gpu": the CPU beside the card
        results.append(box.call("estimate", estimate_args(query, CPU, None, model)))
    elif not query.gpus and query.memory_gb:
        results.append(
            box.call("estimate", estimate_args(query, f"{query.memory_gb:g}gb", None, model))
        )
    return results


def _alternatives(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef, more_cards: bool = True
) -> list[str]:
    """What would change a 'no': more GPUs of the kind (unless not `more_cards`), or a 4-bit
    format for inference."""
    if e["fits"]:
        return []
    lines = []
    sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
    # a laptop's GPU or a Mac's memory comes one to a machine: "4 x the laptop GPU" helps no one
    alone = sheet.get("segment") == "laptop" or str(sheet.get("vendor", "")).startswith("Apple")
    needed = None if alone or not more_cards else (
        c.min_gpus_line(_fewest(query, box, e["gpu"], model)))  # fmt: skip
    if needed:
        lines.append(needed)
    if (
        e.get("family", "llm") == "llm"
        and e["workload"] == "inference"
        and e["precision"] in ("bf16", "fp16", "fp32", "fp8", "int8")
    ):
        four_bit = "q4_k_m" if e.get("engine") == "llama.cpp" else "awq"
        if (e["precision"] in ("bf16", "fp16") and sheet.get("fp8_dense_tflops")
                and e.get("engine") != "llama.cpp"):  # fmt: skip
            # a card with FP8 units: 8-bit weights first, nearer the 16-bit model than 4 bits
            eight = box.call("estimate", {**estimate_args(query, e["gpu"], e["num_gpus"], model),
                                          "precision": "fp8"})  # fmt: skip
            line = c.lower_precision_line(eight) if eight.get("fits") else None
            lines += [line] if line else []
        lower = box.call(
            "estimate",
            {**estimate_args(query, e["gpu"], e["num_gpus"], model), "precision": four_bit},
        )
        line = c.lower_precision_line(lower)
        limited = None
        if "error" not in lower and not lower["fits"] and lower["batch"] > 1:
            # "20 users on one L4 with vllm": in 4 bits, how many at once at that length
            limited = _concurrency_limited(replace(query, precision=four_bit), box, lower, model)
        if limited is not None:
            label = c.FORMAT_LABELS.get(four_bit, four_bit)
            said = limited[0].split("\n\n")[0].replace("**", "")
            lines.append(re.sub(r"^.*? fits on ", f"In {label} it fits on ", said, count=1))
        elif line:
            lines.append(line)
        if not lower.get("fits", True) and sheet.get("segment") in _LOCAL_SEGMENTS:
            lines += _smaller_gguf(query, box, e, model)
    if e.get("family", "llm") in ("llm", "diffusion", "speech") and e["workload"].startswith(
        "finetune"
    ):
        lines += _leaner_training(query, box, e, model)  # "a flux lora on 16 GB": with QLoRA
    if (e.get("family") in ("transformer", "vision") and not e["fits"]
            and e["workload"] in ("train", "finetune-full")):  # fmt: skip
        # "bert-large OOMs at batch 32 seq 512, options?": the batch that fits, the rest
        # made up by gradient accumulation
        lines += _batch_that_fits(query, box, e, model) or _accumulated(query, box, e, model)
    if (e.get("family") == "speech" and e["workload"] == "inference"
            and e["precision"] in ("fp16", "fp32", "bf16")):  # fmt: skip
        # "whisper large-v3 on a 4 GB card": faster-whisper's int8 weights, a quarter of fp32's
        eight = box.call("estimate", {**estimate_args(query, e["gpu"], e["num_gpus"], model),
                                      "precision": "int8"})  # fmt: skip
        if "error" not in eight and eight.get("fits"):
            pace = c.speed_lines(eight, first_only=True)
            lines.append(f"In int8 it fits: {c.num(eight['memory_per_gpu_gb'], 'GB')} of "
                         f"{c.num(eight['usable_memory_per_gpu_gb'], 'GB')} usable"
                         + (f"; {pace[0][0].lower()}{pace[0][1:]}" if pace else "."))  # fmt: skip
    offload = query.offload if query.offload != "layers" else None
    if e.get("family") == "diffusion" and e["workload"] == "inference" and not offload:
        lines += _in_fp8(query, box, e, model) + _offloaded(query, box, e, model)
    # a card with memory of its own (a Mac's or an APU's unified memory is the system RAM)
    unified = (
        str(sheet.get("vendor", "")).startswith("Apple")
        or "unified" in str(sheet.get("memory_type", "")).lower()
    )
    home = sheet.get("segment") in _LOCAL_SEGMENTS and not unified
    named_one = len(query.gpus) == 1 and (query.gpus[0].count or 1) == 1
    one_card = (named_one or (not query.gpus and bool(query.memory_gb))) and not query.num_gpus
    if home and one_card and e["num_gpus"] == 1 and e.get("gpu_layers") is None:
        # as ollama runs it on one card: the rest in system RAM
        lines += _split_with_ram(query, box, e, model)
    return lines


def _smaller_gguf(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """An LLM that a desk card does not hold even in 4 bits: the first smaller GGUF that it does
    hold whole (fewer bits cost some quality)."""
    if query.precision or model.precision or query.engine not in (None, "llama.cpp", "ollama"):
        return []
    base = {**estimate_args(query, e["gpu"], e["num_gpus"], model), "engine": "llama.cpp"}
    for quant in SMALLER_HOME_QUANTS:
        smaller = box.call("estimate", {**base, "precision": quant})
        if "error" in smaller or not smaller["fits"]:
            continue
        decode = (smaller.get("decode_tokens_per_s") or {}).get("typical")
        pace = f"; about {c.num(decode, 'tokens/s')}" if decode else ""
        need = f"{c.num(smaller['memory_per_gpu_gb'], 'GB')} of {c.usable(smaller)}"
        return [f"In {quant} (a smaller GGUF, at some cost in quality) it fits: {need}{pace}."]
    return []


_SPLIT_LINE = "With llama.cpp or ollama keeping what the card"


def _ram_split(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """llama.cpp's split of an LLM between the card and system RAM (a Q4_K_M GGUF unless a format
    was said), or None when it is not an LLM run that way or the split does not hold it."""
    if (
        e.get("family", "llm") != "llm"
        or e["workload"] != "inference"
        or query.engine not in (None, "llama.cpp", "ollama")
        or (query.batch or 1) > 1
    ):
        return None
    args = {
        **estimate_args(query, e["gpu"], e["num_gpus"], model),
        "offload": "layers",
        "engine": "llama.cpp",
        "ram": query.ram,
        "ram_channels": query.ram_channels,
    }
    if not (query.precision or model.precision):
        args["precision"] = "q4_k_m"
    split = box.call("estimate", {k: v for k, v in args.items() if v is not None})
    if "error" in split or not split["fits"] or split.get("gpu_layers") is None:
        return None
    return split


def _split_with_ram(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """An LLM too big for a desktop's card even in 4 bits, as ollama and llama.cpp run it: the
    layers the card does not hold in system RAM, run by the CPU (slow, but it runs)."""
    split = _ram_split(query, box, e, model)
    if split is None:
        return []
    pace = (
        f"; {c.band(split['decode_tokens_per_s'], 'tokens/s')}"
        if split.get("decode_tokens_per_s")
        else ""
    )  # (a card of a memory size: no speed)
    return [f"{_SPLIT_LINE} cannot hold in system RAM "
            f"({split['precision']}): {c.host_split(split)}{pace}"
            f"{c.ram_check(split, query.ram_gb)}."]  # fmt: skip


# diffusers' CPU offload, and what the web UIs call it
OFFLOADS = (
    ("model", "model CPU offload (diffusers enable_model_cpu_offload; --medvram in the web UIs)"),
    ("sequential", "sequential CPU offload (enable_sequential_cpu_offload; --lowvram)"),
)


def _in_fp8(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """An image model too big in 16 bits, with 8-bit weights (as ComfyUI and Forge load FLUX on
    24 GB cards): the fit and the pace, when that is what it takes."""
    if e["precision"] not in ("fp16", "bf16"):
        return []  # ("flux dev fp16 on 24G?": 16 bits said, and 8 bits is how people fit it)
    base = estimate_args(query, e["gpu"], e["num_gpus"], model)
    for precision, offload, said in _LIGHTER_WEIGHTS:
        args = {**base, "precision": precision} | ({"offload": offload} if offload else {})
        lighter = box.call("estimate", args)
        if "error" in lighter or not lighter["fits"]:
            continue
        pace = (lighter.get("seconds_per_image") or {}).get("typical")
        return [f"In {said} it fits: "
                f"{c.num(lighter['memory_per_gpu_gb'], 'GB')} of "
                f"{c.usable(lighter)}"
                + (f"; about {c.num(pace, 's')} per image" if pace else "") + "."]  # fmt: skip
    return []


# lighter weights for an image model, the nearest to 16 bits first: how ComfyUI, Forge and
# diffusers' quantised pipelines load FLUX and SD3 on 12-24 GB cards
_LIGHTER_WEIGHTS = (
    ("fp8", None, "fp8 (8-bit weights, as ComfyUI and Forge load it)"),
    ("fp8", "model", "fp8 with model CPU offload (8-bit weights, text encoders parked in RAM)"),
    ("nf4", None, "4-bit (NF4 weights, as Forge and diffusers' bitsandbytes pipelines load it)"),
    ("nf4", "model", "4-bit with model CPU offload (NF4 weights, text encoders parked in RAM)"),
)


def _offloaded(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """An image model too big for the card, as people run it there: with its parts kept in
    system RAM until each is needed (slower: the weights cross PCIe)."""
    for offload, words in OFFLOADS:
        args = {**estimate_args(query, e["gpu"], e["num_gpus"], model), "offload": offload}
        lighter = box.call("estimate", args)
        if "error" in lighter or not lighter["fits"]:
            continue
        pace = (lighter.get("seconds_per_image") or {}).get("typical")
        return [
            f"With {words} it fits on {c.gpus_phrase(lighter['num_gpus'], lighter['gpu_name'])}"
            f": {c.num(lighter['memory_per_gpu_gb'], 'GB')} of "
            f"{c.usable(lighter)}" + (f"; about {c.num(pace, 's')} per image" if pace else "") + "."
        ]
    return []


# memory options a fine-tune that does not fit can turn on, with the words that say so
LEANER = (
    ("finetune-full", {"mixed_precision": False, "optimizer": "adamw8bit", "checkpointing": True},
     "pure bf16 weights, 8-bit AdamW and gradient checkpointing"),
    # DeepSpeed ZeRO-3 with the optimizer in CPU RAM (ZeRO-Offload): the same mixed-precision
    # AdamW, paid for in host RAM and in steps bound by the CPU's Adam and PCIe (_offload_cost)
    ("finetune-full", {"offload_optimizer": True, "mixed_precision": True, "optimizer": "adamw"},
     "DeepSpeed ZeRO-3 and the optimizer offloaded to CPU RAM"),
    ("finetune-full", {"offload_optimizer": True, "offload_param": True, "mixed_precision": True,
                       "optimizer": "adamw"},
     "DeepSpeed ZeRO-3 and the optimizer and parameters offloaded to CPU RAM"),
    # the cheapest change first: checkpointing costs compute, not quality
    ("finetune-lora", {"checkpointing": True}, "gradient checkpointing on"),
    ("finetune-lora", {"workload": "finetune-qlora", "precision": "nf4"}, "QLoRA (a 4-bit base)"),
    ("finetune-qlora", {"checkpointing": True}, "gradient checkpointing on"),
    # Unsloth's recipe: its own kernels, checkpointing offloaded to system RAM, 8-bit AdamW
    ("finetune-qlora", {"framework": "unsloth"}, "Unsloth's QLoRA recipe"),
)  # fmt: skip


# a Whisper fine-tune's leaner recipes, the cheapest change first: checkpointing (the HF recipes'
# default), bitsandbytes' 8-bit AdamW (the HF Whisper event README's first memory tip), then
# LoRA, then LoRA on an 8-bit base (Vaibhavs10/fast-whisper-finetuning)
SPEECH_LEANER = (
    ("finetune-full", {"checkpointing": True}, "gradient checkpointing on"),
    ("finetune-full", {"optimizer": "adamw8bit"}, "8-bit AdamW (bitsandbytes)"),
    ("finetune-full", {"workload": "finetune-lora"}, "LoRA (PEFT)"),
    ("finetune-lora", {"precision": "int8"}, "an 8-bit base (bitsandbytes)"),
)  # fmt: skip


# an image model's full fine-tune (DreamBooth) that does not fit: its LoRA, as diffusers'
# examples train it (examples/dreambooth/train_dreambooth_lora_sdxl.py)
DIFFUSION_LEANER = (
    *(row for row in LEANER if row[0] == "finetune-full"),  # the full fine-tune's options first
    ("finetune-full", {"workload": "finetune-lora"}, "LoRA (DreamBooth with LoRA adapters)"),
    *(row for row in LEANER if row[0] != "finetune-full"),  # then as a language model's LoRA
)  # fmt: skip


# cards before compute capability 7.0, which Unsloth's and vLLM's kernels do not run on
_BEFORE_VOLTA = ("Pascal", "Maxwell", "Kepler")


def _leaner_training(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """A fine-tune that does not fit, with the memory options the question left unset."""
    said = {**dict(query.train_options), **({"framework": 1} if query.trainer else {})}
    sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
    stack = sheet.get("compute_stack")
    fp16_only = c.no_bf16(sheet)  # a T4, a V100: its recipes keep fp16
    # each step that does not fit is kept under the next: a LoRA that fits neither with
    # checkpointing nor as a QLoRA alone may fit as a QLoRA with checkpointing
    kept: dict[str, Any] = {}
    kept_words: list[str] = []
    current = e["workload"]
    lines: list[str] = []
    family = e.get("family")
    ladder = {"speech": SPEECH_LEANER, "diffusion": DIFFUSION_LEANER}.get(str(family), LEANER)
    for workload, options, words in ladder:
        if workload != current or any(k in said for k in options):
            continue
        if fp16_only:
            words = words.replace("bf16", "fp16")
        old_card = sheet.get("architecture") in _BEFORE_VOLTA
        if options.get("framework") == "unsloth" and (stack not in (None, "cuda") or old_card):
            continue  # Unsloth's kernels are CUDA's (Triton, compute capability 7.0 and up)
        if all(kept.get(k) == v for k, v in options.items()):
            continue  # already under it
        base = estimate_args(query, e["gpu"], e["num_gpus"], model)
        leaner = box.call("estimate", {**base, **kept, **options})
        if kept and "error" not in leaner and leaner["fits"]:
            alone = box.call("estimate", {**base, **options})  # the step alone, when it is enough
            if "error" not in alone and alone["fits"]:
                leaner, kept, kept_words = alone, {}, []
        if "error" not in leaner and leaner["fits"]:
            hours = (leaner.get("job_hours") or {}).get("typical")  # a job's size was said
            pace = (leaner.get("train_tokens_per_s") or {}).get("typical")
            took = (f"; the run takes about {c.duration(hours)}" if hours else
                    f"; it trains at about {c.num(pace, 'tokens/s')}" if pace else "")  # fmt: skip
            # (a framework's recipe, Unsloth's, brings its own 4-bit base and checkpointing)
            plain = not kept_words or "framework" in options
            recipe = words if plain else f"{words} with {' and '.join(kept_words)}"
            lines = [
                f"With {recipe} it fits on "
                f"{c.gpus_phrase(leaner['num_gpus'], leaner['gpu_name'])}"
                f": {c.num(leaner['memory_per_gpu_gb'], 'GB')} of "
                f"{c.usable(leaner)}{took}.{_offload_cost(leaner, e)}"
            ]
            break
        if "error" in leaner:
            break
        kept.update(options)
        kept_words.append(words)
        current = str(options.get("workload", current))
    return lines + _accumulated(query, box, e, model) + _shorter_samples(query, box, e, model)


def _offload_cost(leaner: dict[str, Any], e: dict[str, Any]) -> str:
    """What a ZeRO-Offload step of the ladder costs: the host RAM it needs and its pace."""
    host = leaner.get("host_memory_gb")
    if not host:
        return ""
    pace = (leaner.get("train_tokens_per_s") or {}).get("typical")
    was = (e.get("train_tokens_per_s") or {}).get("typical")
    slower = (f" It trains slower, about {c.num(pace, 'tokens/s')} against "
              f"{c.num(was, 'tokens/s')} if it fit on the GPUs alone: each step waits on the "
              "CPU's Adam step and the PCIe copies." if pace and was else "")  # fmt: skip
    return f" The machine needs {c.num(host, 'GB')} of system RAM for what is offloaded.{slower}"


def _accumulated(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """A batch said that does not fit: the same batch as steps of one sequence with gradient
    accumulation (what the trainer's accumulation setting is for), its memory and its time."""
    if not query.batch or e["batch"] <= 1:
        return []
    one = box.call("estimate", {**estimate_args(query, e["gpu"], e["num_gpus"], model),
                                "batch": 1})  # fmt: skip
    if "error" in one or not one["fits"]:
        return []
    hours = (one.get("job_hours") or {}).get("typical")
    took = f"; the run takes about {c.duration(hours)}" if hours else ""
    return [f"At batch 1 with {e['batch']} steps of gradient accumulation (the same batch of "
            f"{e['batch']}) it fits: {c.num(one['memory_per_gpu_gb'], 'GB')} of "
            f"{c.usable(one)}{took}."]  # fmt: skip


def _batch_that_fits(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """A training batch that does not fit: the largest that does, with gradient accumulation
    making up the batch set (the same samples per optimizer step)."""
    found = _max_batch(box, estimate_args(query, e["gpu"], e["num_gpus"], model))
    largest = found["solution"] if found else None
    if not largest or largest >= e["batch"]:
        return []
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    shorter = "smaller images" if e.get("family") == "vision" else "a shorter sequence"
    return [f"The largest batch that fits on {where} is {largest:,}; gradient accumulation "
            f"over several such steps makes up your batch of {e['batch']:,} (the same samples "
            f"per optimizer step, a little slower). Gradient checkpointing or {shorter} lets a "
            "larger batch fit."]  # fmt: skip


SHORTEST_USEFUL_SAMPLES = 256  # tokens: a fine-tune on shorter samples is no one's recipe


def _shorter_samples(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> list[str]:
    """A fine-tune that does not fit at the sequence length assumed: the longest samples that
    fit, as the recipe stands (QLoRA of a 70B on a 48 GB card at 1,024 tokens, say)."""
    if query.context:
        return []  # the user's own length: the fit answers for it
    args = {k: v for k, v in estimate_args(query, e["gpu"], e["num_gpus"], model).items()
            if k in SOLVE_ARGS}  # fmt: skip
    found = box.call("solve", {**args, "target": "max_context"})
    longest = found.get("solution") if "error" not in found else None
    if not longest or longest < SHORTEST_USEFUL_SAMPLES or longest >= e["context"]:
        return []
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    return [
        f"On samples of up to {longest:,} tokens (not the {e['context']:,} assumed) it fits on "
        f"{where}."
    ]


SOLVE_ARGS = ("model", "gpu", "workload", "num_gpus", "precision", "context", "batch", "engine",
               "optimizer", "checkpointing", "mixed_precision", "output_tokens",
               "resolution", "reserved_gb", "framework")  # fmt: skip


def _fewest(query: Query, box: ToolBox, gpu: str, model: ModelRef) -> dict[str, Any]:
    """The solve tool's answer: the fewest of `gpu` that hold the question's job."""
    args = {k: v for k, v in estimate_args(query, gpu, None, model).items()
            if k in SOLVE_ARGS and k != "num_gpus"}  # fmt: skip
    return box.call("solve", {**args, "target": "min_gpus"})


_TP_SAID = re.compile(r"\btensor[- _]parallel|\btp\b")  # "--tensor-parallel-size 3", "tp=3"


def _heads_split(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> Draft | None:
    """ "vllm serve ... --tensor-parallel-size 3": a serving engine gives each GPU an equal
    share of every layer's attention heads, so the GPU count must divide the head count
    (vLLM refuses to start otherwise); the counts that do, and pipeline stages for the rest."""
    n = e.get("num_gpus") or 1
    split_said = _TP_SAID.search(query.low)
    if (
        n < 2
        or not (query.engine or split_said)
        or not e["fits"]
        or e.get("workload") != "inference"
    ):
        return None  # the engine or the split said, and memory not the problem
    if e.get("engine") not in TENSOR_PARALLEL_ENGINES or e.get("family", "llm") != "llm":
        return None
    sheet = box.call("model_specs", {"model": e["model"]})
    heads: int = sheet.get("num_attention_heads") or 0
    kv: int = sheet.get("num_kv_heads") or 0

    def splits(k: int) -> bool:  # vLLM: heads divisible; KV heads divisible or replicated
        return heads > 0 and heads % k == 0 and (not kv or kv % k == 0 or k % kv == 0)

    if not heads or splits(n) or n > (sheet.get("num_layers") or n):
        return None
    fewer = max(k for k in range(1, n) if splits(k))
    why = (
        f"it has {heads} attention heads{f' ({kv} KV heads)' if kv else ''}, and "
        f"{e['engine']} gives each GPU an equal share of every layer's heads, so the GPU count "
        f"must divide {heads}"
    )
    if split_said:
        head = f"**No: tensor parallel over {n} GPUs does not work for {e['model_name']}: {why}.**"
    else:  # the engine was named, not the split: layers split over all of them work
        head = (
            f"**Yes, split by layers (pipeline parallel): {e['model_name']} fits on "
            f"{c.gpus_phrase(n, e['gpu_name'])} that way, but not with tensor parallel over "
            f"{n}: {why}.**"
        )
    lines = [head]
    if fewer > 1:
        args = estimate_args(query, e["gpu"], fewer, model)
        smaller = box.call("estimate", args)
        if "error" not in smaller:
            verdict = "fits" if smaller["fits"] else "does not fit"
            lines.append(f"Tensor parallel over {fewer} GPUs: {verdict} "
                         f"({c.num(smaller['memory_per_gpu_gb'], 'GB')} per GPU of "
                         f"{c.num(smaller['usable_memory_per_gpu_gb'], 'GB')} "
                         "usable).")  # fmt: skip
    lines.append(f"To use all {n}, split by layers instead (pipeline parallel, e.g. vLLM's "
                 f"--pipeline-parallel-size {n}), or use a GPU count that divides "
                 f"{heads}.")  # fmt: skip
    lines.append(c.memory_line(e))
    return Draft("\n\n".join(lines))


# "do we really need the H100 for this?": whether the card is more than the job needs
_NEED_ASKED = re.compile(
    r"\bdo (?:we|i|they|you) (?:really |actually |even |truly )?need\b"
    r"|\bis (?:it|that|an? \w+) (?:really )?necessary\b"
    # a claim to check: "my neighbour insists I'd need an H100 for this. Is that true?"
    r"|\b(?:i|we|you|one)(?:'d|\u2019d| would) (?:really |actually |absolutely )?need\b"
    r"(?=[^?]{0,200}\b(?:true|right|correct|so)\b)"
    # "my brother says i need an h100 for this. do i?": a claim of need, put to us
    r"|\b(?:says?|said|insists?|claims?|told (?:me|us)|reckons?)\b (?:that )?(?:i|we|you) "
    r"(?:really |absolutely )?(?:need|must have)\b(?=[^?]{0,120}\?)"
)


def _asked_card(query: Query) -> Query:
    """ "selling my three 3090s for one 5090: would a single 5090 hold it? yes or no": the one
    card the yes/no clause names is what is asked; the others are the story around it."""
    low = query.low
    clause = YES_NO.search(low)
    if clause is None or len(query.gpus) < 2:
        return query
    end = low.find("?", clause.start())
    asked = low[clause.start() : end if end > 0 else len(low)]
    named = [g for g in query.gpus if (w := _written(g, low)) and w in asked]
    return replace(query, gpus=(named[0],)) if len(named) == 1 else query


# the card a speed ratio of two models is read on when only a memory size is named: the two run
# on the same card, and their ratio follows their bytes and work per item, not the card
RACE_REFERENCE_GPU = "rtx-4090"


def sized_at_home(query: Query, model: ModelRef) -> Query:
    """The question as a model kept beside others on one card is sized: an LLM whose format and
    engine go unsaid as on a home box, a 4-bit GGUF on llama.cpp (ollama)."""
    unsaid = (model.family or "llm") == "llm" and not (model.precision or query.precision)
    if unsaid and _engine(query.engine, model) in (None, "llama.cpp", "ollama"):
        return replace(query, precision=HOME_PRECISION, engine="llama.cpp")
    return query


def _models_together(query: Query, box: ToolBox) -> Draft | None:
    """ "whisper large-v3 and llama 3.2 3b on the one 3060: all in vram at the same time?": each
    model's need on the card (or the memory said), added up by `memory_together` against what
    the card holds. None unless two or more of the models can be sized on one card."""
    models = list({model_arg(m): m for m in query.models if m.ids or m.size_b}.values())
    if (
        not 2 <= len(models) <= MAX_GPUS_PER_ANSWER
        or len(query.gpus) > 1
        or not (query.gpus or query.memory_gb)
    ):
        return None  # (more models than an answer lists: each one's own answer, not a part sum)
    ref = query.gpus[0] if query.gpus else None
    if ref is not None and not ref.ids:
        return None  # a card the catalog does not know: its own answer says so
    gpu = gpu_choices(ref)[0] if ref else f"{query.memory_gb:g}gb"
    estimates = [box.call("estimate", estimate_args(sized_at_home(query, m), gpu,
                                                    ref.count if ref else None, m))
                 for m in models]  # fmt: skip
    if any("error" in e or e["num_gpus"] > 1 for e in estimates):
        return None
    usable = min(e["usable_memory_per_gpu_gb"] for e in estimates)
    held = box.call("memory_together", {"needs_gb": [e["memory_per_gpu_gb"] for e in estimates],
                                        "usable_gb": usable})  # fmt: skip
    if "error" in held:
        return None
    names = [e["model_name"] for e in estimates]
    named = ", ".join(names[:-1]) + " and " + names[-1]
    where = c.gpus_phrase(1, estimates[0]["gpu_name"]) if ref else (
        f"a {c.num(query.memory_gb, 'GB')} card")  # fmt: skip
    room = next(e for e in estimates if e["usable_memory_per_gpu_gb"] == usable)
    total = c.num(held["total_gb"], "GB")
    if held["fits"]:
        head = (f"**Yes: {named} fit on {where} at the same time**: together about {total} of "
                f"{c.usable(room)}, leaving {c.num(held['spare_gb'], 'GB')} spare.")  # fmt: skip
    else:
        alone = [e["model_name"] for e in estimates if e["fits"]]
        head = (
            f"**No: {named} do not fit on {where} at the same time**: together they need about "
            f"{total} of {c.usable(room)}, {c.num(-held['spare_gb'], 'GB')} short."
            + (" Each fits alone: load them in turn." if len(alone) == len(estimates) else
               f" Alone, {' and '.join(alone)} fit{'s' if len(alone) == 1 else ''}; the other"
               f"{'s do' if len(estimates) - len(alone) > 1 else ' does'} not, as sized below."
               if alone else "")
        )  # fmt: skip
    lines = [f"- {e['model_name']}: {c.num(e['memory_per_gpu_gb'], 'GB')} ({c.settings(e)})"
             for e in estimates]  # fmt: skip
    unknown = [m.text for m in query.models if not (m.ids or m.size_b)]
    tail = ["Each runs in its own process, so each need above counts its own runtime overhead."]
    if unknown:
        tail.append(f"No catalog figures for {', '.join(unknown)}: not counted above.")
    return Draft("\n".join([head, "", *lines, "", *tail]))


def _models_raced(query: Query, box: ToolBox, models: list[ModelRef]) -> Draft | None:
    """ "On my 8GB card, which is faster: Whisper large-v3 or large-v3-turbo?": each model's
    headline speed on the card named (with a memory size only, their ratio on a reference card),
    the faster first, and whether each fits. None when the speeds cannot be set side by side."""
    if len(query.gpus) > 1 or not (query.gpus or query.memory_gb):
        return None
    ref = query.gpus[0] if query.gpus else None
    gpu = gpu_choices(ref)[0] if ref else RACE_REFERENCE_GPU
    count = ref.count if ref else None
    estimates = [box.call("estimate", estimate_args(query, gpu, count, m))
                 for m in models[:MAX_GPUS_PER_ANSWER]]  # fmt: skip
    if any("error" in e for e in estimates):
        return None
    heads = [c.metrics_of(e)[:1] for e in estimates]
    if not all(heads) or len({(h[0][0], h[0][2]) for h in heads}) != 1:
        return None  # no speed, or speeds of different kinds (tokens/s against images/s)
    label, _, unit = heads[0][0]
    rate = unit.endswith("/s")  # a rate (more is faster), or a time per item (less is faster)
    typical = [h[0][1]["typical"] for h in heads]
    order = sorted(range(len(estimates)), key=lambda i: -typical[i] if rate else typical[i])
    best, other = order[0], order[1]
    ratio = typical[best] / typical[other] if rate else typical[other] / typical[best]
    fast, slow = estimates[best], estimates[other]
    held = estimates
    if not ref:  # whether each fits the memory said, not the reference card
        sized = [box.call("estimate", estimate_args(query, f"{query.memory_gb:g}gb", None, m))
                 for m in models[:MAX_GPUS_PER_ANSWER]]  # fmt: skip
        held = sized if all("error" not in e for e in sized) else estimates
    lines = []
    if not held[best]["fits"]:  # the faster one does not fit: the one that runs leads
        where = (c.gpus_phrase(fast["num_gpus"], fast["gpu_name"]) if ref
                 else f"a {c.num(query.memory_gb, 'GB')} card")  # fmt: skip
        runs = (f"{slow['model_name']} is the one of the two that fits on {where}"
                if held[other]["fits"] else f"Neither fits on {where}")  # fmt: skip
        lines.append(
            f"**{runs}: {fast['model_name']} would be faster but needs "
            f"{c.num(held[best]['memory_per_gpu_gb'], 'GB')} in {held[best]['precision']}.**"
            # the two speeds (on the reference card when none is named)
            + (
                f" {label.capitalize()}: {c.num(typical[best], unit)} against "
                f"{c.num(typical[other], unit)}"
                + ("." if ref else f", on {c.gpus_phrase(1, fast['gpu_name'])} for reference.")
            )
        )
    elif ref and c.num(typical[best], unit) == c.num(typical[other], unit):
        # "whisper large-v2 vs large-v3 speed": one shape, one speed (no "faster ... 1.00x")
        where = c.gpus_phrase(fast["num_gpus"], fast["gpu_name"])
        lines.append(
            f"**{fast['model_name']} and {slow['model_name']} are as fast on {where}: {label} "
            f"about {c.num(typical[best], unit)} each.**"
        )
    elif ref:
        where = c.gpus_phrase(fast["num_gpus"], fast["gpu_name"])
        lines.append(
            f"**{fast['model_name']} is faster on {where}: {label} about "
            f"{c.num(typical[best], unit)} against {c.num(typical[other], unit)} for "
            f"{slow['model_name']} ({c.num(ratio)}x).**"
        )
    else:  # "on my 8GB card": the ratio holds on any card that holds both
        lines.append(
            f"**{fast['model_name']} is faster: about {c.num(ratio)}x the {label} of "
            f"{slow['model_name']} on the same card.** Your card's name gives its figures; on "
            f"{c.gpus_phrase(1, fast['gpu_name'])} for reference, {c.num(typical[best], unit)} "
            f"against {c.num(typical[other], unit)}."
        )
    read = [e for e in held if e.get("active_weights_gb")]
    for e in read:  # (the active parameter count, as the model's config gives it)
        box.call("model_specs", {"model": e["model"]})
    if read and unit == "tokens/s":
        # "qwen3 30b-a3b or qwen3 32b: which is faster?": a mixture of experts reads only its
        # active experts' weights for each token, which decoding waits on
        lines.append(
            "Each token reads only the active experts' weights: "
            + "; ".join(f"{e['model_name']} about {c.num(e['active_weights_gb'], 'GB')} a token "
                        f"({c.num(e['active_params_b'])}B active parameters)" for e in read)
            + "; the dense models read all their weights for every token."
        )  # fmt: skip
    lines.append("")
    lines += [
        f"- {e['model_name']}: {'fits' if e['fits'] else 'does not fit'}, "
        f"{c.num(e['memory_per_gpu_gb'], 'GB')} of {c.usable(e)}, weights "
        f"{c.num(e['breakdown_gb'].get('weights') or _pipeline_weights_gb(e), 'GB')} "
        f"({c.settings(e)})"
        for e in held
    ]
    return Draft("\n".join(lines))


def _models_on_card(query: Query, box: ToolBox) -> Draft | None:
    """ "for a 16GB card, which can I keep in fp16: SDXL or SD 3.5 Large?": each model on the one
    card (or memory size) named, those that fit first; None unless a choice between two or more
    models is asked."""
    low = query.low
    # named models, or sizes alone ("a 1B or a 3B on a T4?")
    models = list({model_arg(m): m for m in query.models if m.ids or m.size_b}.values())
    if len(models) < 2 or len(query.gpus) > 1 or not re.search(r"\bwhich\b|\bor\b|\bvs\b", low):
        return None
    if re.search(r"\bfaster\b|\bslower\b|\bquicker\b|\bspeed\b|\btok(?:en)?s?/s\b", low):
        return _models_raced(query, box, models)  # "qwen 7b vs llama 8b on a 4090: faster?"
    if not query.gpus and not query.memory_gb:
        return models_memory(query, box)  # "distil-large-v3 or large-v3: which is smaller?"
    ref = query.gpus[0] if query.gpus else None
    gpu = gpu_choices(ref)[0] if ref else f"{query.memory_gb:g}gb"
    estimates = [box.call("estimate", estimate_args(query, gpu, ref.count if ref else None, m))
                 for m in models[:MAX_GPUS_PER_ANSWER]]  # fmt: skip
    errors = [e["error"] for e in estimates if "error" in e]
    if errors:
        return Draft(errors[0])
    fitting = [e for e in estimates if e["fits"]]
    where = c.gpus_phrase(estimates[0]["num_gpus"], estimates[0]["gpu_name"])
    plain = not query.precision and all((m.family or "llm") == "llm" and not m.precision
                                        for m in models)  # fmt: skip
    lighter = ""
    if not fitting and plain:
        # "gemma 2 27b vs qwen 2.5 32b on a 24gb card": none in 16 bits; as people run them on
        # such a card, a 4-bit GGUF
        four = [box.call("estimate", {**estimate_args(query, gpu, ref.count if ref else None, m),
                                      "precision": HOME_PRECISION, "engine": "llama.cpp"})
                for m in models[:MAX_GPUS_PER_ANSWER]]  # fmt: skip
        if all("error" not in e for e in four) and any(e["fits"] for e in four):
            lighter = f" in {estimates[0]['precision']}; in {HOME_PRECISION} (a 4-bit GGUF)"
            estimates, fitting = four, [e for e in four if e["fits"]]
    if lighter:
        names = " and ".join(e["model_name"] for e in fitting)
        verb = "fits" if len(fitting) == 1 else "fit"
        head = f"**None of them fits on {where}{lighter}, {names} {verb}.**"
        paced = [e for e in fitting if e.get("decode_tokens_per_s")]
        if len(paced) >= 2:  # which runs better: the faster of those that fit
            quick = max(paced, key=lambda e: e["decode_tokens_per_s"]["typical"])
            head = head[:-2] + (f"; the faster there: {quick['model_name']}, about "
                                f"{c.num(quick['decode_tokens_per_s']['typical'], 'tokens/s')}"
                                ".**")  # fmt: skip
    elif fitting and len(fitting) < len(estimates):
        names = " and ".join(e["model_name"] for e in fitting)
        others = [e["model_name"] for e in estimates if not e["fits"]]
        head = (f"**{names} fit{'s' if len(fitting) == 1 else ''} on {where}; "
                f"{' and '.join(others)} do{'es' if len(others) == 1 else ''} not.**")  # fmt: skip
    elif fitting:
        head = f"**Both fit on {where}.**" if len(fitting) == 2 else f"**All fit on {where}.**"
    else:
        head = f"**None of them fits on {where}.**"
    lines = [
        f"- {e['model_name']}: {'fits' if e['fits'] else 'does not fit'}, "
        f"{c.num(e['memory_per_gpu_gb'], 'GB')} of "
        f"{c.usable(e)} ({c.settings(e)})"
        + (f"; weights {c.num(w, 'GB')}" if (w := c.weights_gb(e)) else "")
        + (f"; about {c.num(e['decode_tokens_per_s']['typical'], 'tokens/s')}"
           if lighter and e["fits"] and e.get("decode_tokens_per_s") else "")
        for e in sorted(estimates, key=lambda e: not e["fits"])
    ]  # fmt: skip
    return Draft("\n".join([head, "", *lines]))


# cards of different models run together: "a 4090 + 3090", "if I add a 7900 XT", "both cards"
MIXED_MAX = 8  # the most cards one machine holds, for a split over different ones
# a price of cards together: "(both on finn.no for 5200 kr together)", "$1,400 together"
_PRICED_TOGETHER = re.compile(
    r"(?:[$\u20ac\u00a3]\s?\d[\d,.]*\s?k?|\d[\d,.]*\s?k?\s?(?:kr|sek|nok|dkk|usd|eur|gbp|dollars?"
    r"|bucks|euros?|quid|pounds?|inr|rs|z\u0142|pln|chf|[$\u20ac\u00a3]))\s(?:all\s)?together\b"
)
_CARDS_TOGETHER = re.compile(
    # ("EUR 1,000 together": the two cards' price, no split of one model over them)
    # ("12+12 = 24 gb": memory summed, not two cards named with a plus)
    r"\b[a-z]{0,2}\d{2,4}\w*\s?[+&]\s?(?:an? |my )?(?:rtx |rx |gtx )?[a-z]{0,2}\d{2,4}\b(?!\s?=)"
    r"|(?<!\d )\btogether\b|\bcombined\b|\bcombo\b"
    r"|\b(?:use|using|run it on|with) (?:all|both) (?:three|four|of them|the cards|the gpus)\b"
    r"|\bboth (?:cards|gpus)\b|\buse (?:them )?both\b|\bcombine (?:them|the two)\b"
    r"|\bif i add\b|\badd(?:ing)? (?:a|an|my|the|another)\b|\balongside\b|\bplus (?:a|an|my)\b"
    r"|\bpaired with\b|\bin (?:one|the same) (?:rig|machine|box|pc|system|computer)\b"
    r"|\bsplit (?:across|between|over)\b|\bmixed (?:cards|gpus|setup)\b"
    r"|" + SECOND_SLOT  # "throw my old 3060 in the second slot": a card put beside the one there
)


# cards run one at a time to compare them: "both cards tested in the same PC"
_TESTED_APART = re.compile(
    r"\b(?:both|the two) (?:cards|gpus)\s(?:were\s|are\s)?(?:tested|benchmarked|measured|"
    r"compared|tried)\b[^.?!\n]{0,30}|\b(?:tested|benchmarked|measured) (?:them )?"
    r"(?:one at a time|separately|individually|in (?:the same|one) (?:pc|machine|box|rig|system))"
)


def _mixed_pair(query: Query, box: ToolBox) -> Draft | None:
    """ "llama 3.1 70b q4 on a 4090 + 3090 together?": an LLM's layers split over cards of
    different models in one machine (the mixed_cards tool, llama.cpp's layer split), one of each
    card said."""
    # ("2 4090s and a 3090, all three": each card as many times as said)
    ids = [gpu_choices(ref)[0] for ref in query.gpus if ref.ids for _ in range(ref.count or 1)]
    if (len(ids) < 2 or len(set(ids)) < 2 or len(query.models) != 1 or len(ids) > MIXED_MAX
            or (query.models[0].family or "llm") != "llm"
            or query.workload not in (None, "inference")
            or not _CARDS_TOGETHER.search(
                _TESTED_APART.sub(" ", _PRICED_TOGETHER.sub(" ", query.low)))):  # fmt: skip
        return None
    model = query.models[0]
    precision = query.precision or model.precision or HOME_PRECISION
    split = box.call("mixed_cards", {"model": model_arg(model), "gpus": ids,
                                     "precision": precision, "context": query.context})  # fmt: skip
    if "error" in split:
        return None
    many = Counter(g["gpu_name"] for g in split["gpus"])
    cards = " and the ".join(name if n == 1 else f"{n} x {name}" for name, n in many.items())
    verdict = "Yes" if split["fits"] else "No"
    fits = "fits" if split["fits"] else "does not fit"
    band = split["decode_tokens_per_s"]
    room = (f"{c.num(split['weights_and_kv_gb'], 'GB')} of weights and KV cache against "
            f"{c.num(split['room_gb'], 'GB')} of room on the cards.")  # fmt: skip
    said = f"({split['precision']}, context {split['context']:,}, llama.cpp splitting the layers)"
    if query.intent == "speed" and split["fits"]:  # "how fast on a 4090+3090": the pace first
        pace = c.band(band, "tokens/s")
        head = (f"**{pace[:1].upper()}{pace[1:]} for {split['model_name']} across the "
                f"{cards} together** {said}: it fits, {room}")  # fmt: skip
    else:
        head = (f"**{verdict}: {split['model_name']} {fits} across the {cards} together** "
                f"{said}: {room}")  # fmt: skip
    rows = [f"- {g['gpu_name']}: {c.num(100 * g['share'])}% of the layers, "
            f"{c.num(g['memory_gb'], 'GB')} of {c.num(g['usable_memory_gb'], 'GB')} usable"
            for g in split["gpus"]]  # fmt: skip
    speed = (f"Decode speed: {c.band(band, 'tokens/s')}: each token passes one card's layers, "
             "then the other's, each at its own memory bandwidth, so the slower card weighs in by "
             "the share it holds.") if split["fits"] else ""  # fmt: skip
    holds = [g for g in split["gpus"] if g["fits_alone"]]
    if holds and split["fits"]:  # "a 3090 and a 3060 for a 32b": the bigger card alone is faster
        best = max(holds, key=lambda g: g["decode_alone"])
        speed += (f" The {best['gpu_name']} alone holds it and decodes about "
                  f"{c.num(best['decode_alone'], 'tokens/s')}: faster than the split, so use "
                  "the second card only for what does not fit on the first.")  # fmt: skip
    note = ("Assumed: llama.cpp (or Ollama) splits the layers in proportion to each card's free "
            "memory (--tensor-split sets it); vLLM and TensorRT-LLM split each layer over "
            "identical cards only.")  # fmt: skip
    return Draft("\n\n".join(filter(None, [head, "\n".join(rows), speed, note])))


# one card shared by people, each with a job of their own: "a classroom of 25 students share one
# A100", "split it between the interns"
_PEOPLE_COUNTED = re.compile(
    r"\b(\d{1,3})\s(?:[a-z]+\s)?(?:students|interns|people|users|researchers"
    r"|engineers|scientists|pupils|members|kids|colleagues|devs)\b"
)
_SHARED_AMONG = re.compile(
    r"\b(?:share|sharing|shared|split|splitting|partition\w*|divide|carve)\b"
)


def _shared_by_people(query: Query, box: ToolBox) -> Draft | None:
    """ "Could 25 students share one A100 80GB for BERT-base fine-tuning? How would you split
    it?": each one's job on a MIG instance (the card's smallest), as many at once as it has
    instances, the rest taking turns; on a card without MIG, all the jobs' memory together
    against the card's."""
    counted = _PEOPLE_COUNTED.search(query.low)
    people = query.concurrency or (int(counted.group(1)) if counted else 0)
    if not (len(query.gpus) == 1 and (query.gpus[0].count or 1) == 1 and query.models
            and people > 1 and _SHARED_AMONG.search(query.low)):  # fmt: skip
        return None
    model = query.models[0]
    gpu = gpu_choices(query.gpus[0])[0]
    e = box.call("estimate", estimate_args(replace(query, concurrency=None), gpu, None, model))
    sheet = box.call("gpu_specs", {"gpu": gpu})
    if "error" in e or "error" in sheet or not e.get("fits"):
        return None
    need = e["memory_per_gpu_gb"]
    slices, smallest = sheet.get("mig_max_instances"), sheet.get("mig_smallest_gb")
    job = f"{e['model_name']} for {c.workload_label(e)} ({c.settings(e)})"
    if isinstance(slices, int) and slices > 1 and smallest and need <= smallest:
        rest = "the others taking turns" if people > slices else "one each"
        head = (f"**Yes, with MIG: the {sheet['name']} splits into up to {slices} instances of "
                f"about {c.num(smallest, 'GB')} each, and {job} needs about "
                f"{c.num(need, 'GB')}, so each instance runs one person's job: {slices} at once, "
                f"{rest}.**")  # fmt: skip
    else:
        together = box.call(
            "memory_together",
            {"needs_gb": [need] * people, "usable_gb": e["usable_memory_per_gpu_gb"]},
        )
        if "error" in together:
            return None
        word = "Yes" if together["fits"] else "Not all at once"
        mig = isinstance(slices, int) and slices > 1
        how = ("no MIG instance is that large" if mig else "it has no MIG") + ", so the jobs "
        head = (f"**{word}: {how}share the card's memory: {job} needs about "
                f"{c.num(need, 'GB')} each, {c.num(together['total_gb'], 'GB')} for all {people} "
                f"at once, against {c.num(e['usable_memory_per_gpu_gb'], 'GB')} usable"
                f"{'' if together['fits'] else '; the rest take turns'}.**")  # fmt: skip
    return Draft("\n\n".join([head, "MIG gives each instance its own memory and compute, so "
                               "one person's job cannot slow or crash another's; without it, "
                               "jobs on one card share its memory and take turns on its "
                               "compute."]))  # fmt: skip


def fit(query: Query, box: ToolBox, speed_first: bool = False) -> Draft:
    if not query.gpus and HARDWARE_UNKNOWN.search(query.low):
        # "good enough for the ai thing? its a dell, dont know whats inside it": its card first
        return Draft(c.CARD_UNKNOWN if query.models else f"{c.CARD_UNKNOWN}\n\n{c.ASK_BACK}")
    if _vague(query):
        return Draft(c.ASK_BACK)  # "will it fit?" with nothing named: which model, which card?
    if (mixed := _mixed_pair(query, box)) is not None:
        return mixed  # "70b q4 on a 4090 + 3090 together?": the layers split over both
    if (shared := _shared_by_people(query, box)) is not None:
        return shared  # "25 students share one A100 80GB for BERT fine-tuning: how to split?"
    if query.intent == "fit" and (carried := _measured_elsewhere(query, box)):
        return carried  # "my 3090 does SDXL in 14 s an image; on an A100?"
    if (weighed := _formats_weighed(query, box) or _engines_weighed(query, box)
            or _optimizers_weighed(query, box)
            or _streams_kept_up(query, box)) is not None:  # fmt: skip
        return weighed  # "gemma 2 27b on a 3090: q4 or q8, which one fits and how fast"
    if _per_token_asked(query) and query.follow_up and query.intent == "cost":
        # "... how many H100s? and cost per million tokens": the sizing is answered before
        lines = _token_costs(query, box)
        if lines:
            return Draft("\n".join(lines))
    if not speed_first and _job_sized(query) and (due := _deadline_judged(query, box)):
        return due  # "can a 4090 finish 20000 images in a week?": the deadline, yes or no
    draft = _fit(query, box, speed_first)
    if (nodes := _nodes_against_one(query, box)) is not None:
        head, _, rest = draft.text.partition("\n\n")  # "two boxes over 10GbE: worth it?"
        draft.text = f"{nodes}\n\n{head}\n\n{rest}" if rest else f"{nodes}\n\n{head}"
    if _per_token_asked(query):  # "cost per million tokens of an 8B on an H100?": that first
        lines = _token_costs(query, box)
        if lines:
            draft.text = "\n".join(lines) + "\n\n" + draft.text
    if _NEED_A_GPU.search(query.low) and not query.gpus:
        on_cpu = [
            call.result
            for call in box.calls
            if call.name == "estimate" and call.result.get("gpu") == CPU
        ]
        if on_cpu and on_cpu[0].get("fits") and draft.text.startswith("**"):
            # "do i even need a gpu for whisper small?": no, when the CPU alone runs it
            head = re.sub(r"^(?:Yes: |On the CPU alone, )", "", draft.text[2:])
            draft.text = f"**No GPU needed: {head}"
    if (batched := _batched_transcription(query, box)) is not None:
        draft.text += f"\n\n{batched}"
    if (bridged := _bridge_said(query, box)) is not None:
        draft.text += f"\n\n{bridged}"
    if (unquantised := _quantising_shown(query, box)) is not None:
        draft.text += f"\n\n{unquantised}"
    named = _CPU_NAMED.search(query.text)
    if named and any(call.name == "estimate" and call.result.get("gpu") == CPU
                     for call in box.calls):  # fmt: skip
        draft.text += (f"\n\nThe figures are for the CPU in brackets above, not your "
                       f"{named.group(0)}: the calculator has no table of CPU models; one with "
                       "as many cores and RAM as fast runs at about that pace.")  # fmt: skip
    return draft


# the optimizers the words name, in the order said: "will adamw fit or do i need 8bit adam?"
_OPTIMIZER_WORDS = [(str(value), re.compile(words)) for key, value, words in TRAIN_OPTION_WORDS
                    if key == "optimizer"]  # fmt: skip
_OPTIMIZER_LABELS = {"adamw": "AdamW", "adamw8bit": "8-bit AdamW", "paged_adamw": "paged AdamW",
                     "paged_adamw8bit": "paged 8-bit AdamW", "adafactor": "Adafactor",
                     "sgd": "SGD"}  # fmt: skip


def _optimizers_weighed(query: Query, box: ToolBox) -> Draft | None:
    """ "Full fine-tune of qwen2.5 1.5b on a 4090: will AdamW fit or do I need 8-bit Adam?": the
    training's memory with each optimizer named, in the order said, the verdict on each."""
    if (query.workload in (None, "inference") or len(query.gpus) != 1 or len(query.models) != 1
            or not query.models[0].ids or not re.search(r"\bor\b|\bvs\.?\b|\binstead\b",
                                                          query.low)):  # fmt: skip
        return None
    low, found = query.low, list[tuple[int, int, str]]()
    for value, words in _OPTIMIZER_WORDS:
        for m in words.finditer(low):
            # (a longer name said there already: "8bit adam" is no plain AdamW besides)
            if not any(s <= m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), value))
    names = list(dict.fromkeys(v for _, _, v in sorted(found)))
    if len(names) < 2:
        return None
    ref, model = query.gpus[0], query.models[0]
    base = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    rows = [box.call("estimate", {**base, "optimizer": name}) for name in names[:3]]
    if any("error" in e for e in rows):
        return None
    each = [(_OPTIMIZER_LABELS.get(n, n), e) for n, e in zip(names, rows, strict=False)]
    said = "; ".join(
        f"{'fits' if e['fits'] else 'does not fit'} with {label} "
        f"({c.num(e['memory_per_gpu_gb'], 'GB')} of {c.num(e['usable_memory_per_gpu_gb'], 'GB')} "
        "usable)" for label, e in each)  # fmt: skip
    fits = [label for label, e in each if e["fits"]]
    first = rows[0]
    where = c.gpus_phrase(first["num_gpus"], first["gpu_name"])
    if len(fits) == len(each):
        verdict = f"Yes with either: {first['model_name']} on {where}"
    elif fits:
        verdict = f"{'Yes' if each[0][1]['fits'] else 'No'} with {each[0][0]}, " + (
            f"{'yes' if each[1][1]['fits'] else 'no'} with {each[1][0]}: {first['model_name']} on "
            f"{where}"
        )
    else:
        verdict = f"No with any of them: {first['model_name']} on {where}"
    lines = [f"**{verdict}** ({c.settings(first)}): {said}.",
             "Plain AdamW keeps two fp32 states per trained weight (eight bytes); 8-bit AdamW "
             "keeps them in one byte each, a quarter of that, with about the same results.",
             c.memory_line(first)]  # fmt: skip
    return Draft("\n\n".join(line for line in lines if line))


def _bridge_said(query: Query, box: ToolBox) -> str | None:
    """ "4x A5000 with NVLink bridges in pairs: that's 96GB, so it fits?": what the bridge is
    (its bandwidth against the PCIe slot's) and what it is not (one pool of memory)."""
    if query.interconnect != "nvlink" or len(query.gpus) != 1:
        return None
    ref = query.gpus[0]
    count = ref.count or query.num_gpus or 1
    if count < 2 or not gpu_choices(ref):
        return None
    sheet = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]})
    if "error" in sheet or not sheet.get("gpu_link_gbs") or sheet.get("segment") == "datacenter":
        return None
    pairs = " in pairs" if count > 2 else ""
    slot = pcie_gbs(box, sheet.get("pcie_gen") or 4)
    against = f", against {c.num(slot, 'GB/s')} each way over a PCIe x16 slot" if slot else ""
    return (f"Your NVLink bridge joins the {sheet['name']} cards{pairs} at "
            f"{c.exact(sheet['gpu_link_gbs'], 'GB/s')}{against}; it speeds what crosses between "
            "them, but each card keeps its own memory: the memory in all holds a model only "
            "split across the cards (tensor or pipeline parallel), each holding its share, "
            "never as one large card.")  # fmt: skip


# a backlog of audio transcribed in batches: faster-whisper's batched pipeline, WhisperX
AUDIO_BATCH = 8


# what quantising does, asked of a model on a card: "what does quantising actually do?",
# "he quantised it to 4-bit"
_QUANTISING_SAID = re.compile(r"\bquanti[sz](?:e|ed|es|ing|ation)\b|\bquants?\b")


def _quantising_shown(query: Query, box: ToolBox) -> str | None:
    """A quantised LLM sized on a card, with quantising said: what the same weights take in 16
    bits, from the estimate (the figure that shows what quantising saved)."""
    if not _QUANTISING_SAID.search(query.low):
        return None
    sized = next((call for call in box.calls if call.name == "estimate"
                  and "error" not in call.result and call.result.get("family", "llm") == "llm"
                  and call.result.get("nominal_bytes_per_param", 2) < 2), None)  # fmt: skip
    if sized is None:
        return None
    e = sized.result
    full = box.call("estimate", {**sized.args, "precision": "bf16", "engine": "vllm"})
    if "error" in full:
        return None
    weights, whole = e["breakdown_gb"]["weights"], full["breakdown_gb"]["weights"]
    # (no verdict words: the answer's own verdict is the one for the question as asked)
    room = "within" if full["fits"] else "more than"
    return (
        f"Quantising stores each weight in fewer bits: in {e['precision']} the weights of "
        f"{e['model_name']} take {c.num(weights, 'GB')}; unquantised, at 2 bytes each "
        f"(bf16), they take {c.num(whole, 'GB')}, and the whole model would need "
        f"{c.num(full['memory_per_gpu_gb'], 'GB')}, {room} the {c.usable(full)} on "
        f"{c.gpus_phrase(full['num_gpus'], full['gpu_name'])}. Fewer bits per weight cost "
        "a little accuracy, more so below 4 bits."
    )


def _batched_transcription(query: Query, box: ToolBox) -> str | None:
    """ "500 hours of podcasts with whisper large-v3 on a 4090": a backlog, no batch said, is
    answered one file at a time; batched (AUDIO_BATCH segments at once, as faster-whisper's
    BatchedInferencePipeline and WhisperX run it) it is done sooner, said beside it."""
    if not (query.audio_hours and not query.batch and query.models and query.gpus):
        return None
    model = query.models[0]
    if model.family != "speech" or not model.ids:
        return None
    ref = query.gpus[0]
    args = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    one = box.call("estimate", args)
    if "error" in one or not one.get("fits") or one.get("batch") != 1 or not one.get("job_hours"):
        return None
    batched = box.call("estimate", {**args, "batch": AUDIO_BATCH})
    if "error" in batched or not batched.get("fits") or not batched.get("job_hours"):
        return None
    where = c.gpus_phrase(batched["num_gpus"], batched["gpu_name"])
    return (f"Batched, {AUDIO_BATCH} segments at once (faster-whisper's batched pipeline, "
            f"WhisperX), the backlog takes about {c.duration(batched['job_hours']['typical'])} "
            f"on {where} in place of {c.duration(one['job_hours']['typical'])} one file at a "
            "time.")  # fmt: skip


# a CPU model the user names: "a ryzen 7 5800x", "i7-12700k", "xeon gold 6338", "epyc 9654"
_CPU_NAMED = re.compile(
    r"\b(?:ryzen\s(?:threadripper\s)?(?:pro\s)?[3579]\s\d{4}\w*|threadripper\s(?:pro\s)?\d{4}\w*"
    r"|epyc\s\d{4}\w*|xeon\s(?:gold\s|silver\s|platinum\s|w-?)?\d{4,5}\w*"
    r"|core\s(?:ultra\s)?[3579]\s?\d{3}\w*|(?:core\s)?i[3579][- ]\d{4,5}\w*)\b",
    re.IGNORECASE,
)


# bits a weight of each format takes: formats of one width are one choice ("bf16 or fp16")
_FORMAT_BITS = {"fp32": 32, "tf32": 32, "fp64": 64, "bf16": 16, "fp16": 16, "fp8": 8, "int8": 8,
                "q8_0": 8, "q6_k": 6, "q5_k_m": 5, "q3_k_m": 3, "q2_k": 2}  # fmt: skip


def formats_weighed(query: Query) -> list[str]:
    """The two or three formats a question sets against each other, in the order said ("q4 or
    q8", "int8 vs fp16", "at bf16 and at int8"); none when it names one or none."""
    said = sorted((m.start(), m.end(), name) for name, pattern in PRECISION_WORDS
                  for m in re.finditer(pattern, query.low))  # fmt: skip
    # two formats of different widths set side by side
    weighed = any(_FORMAT_BITS.get(a[2]) != _FORMAT_BITS.get(b[2])
                  and re.fullmatch(r"\W*(?:or|vs\.?|versus|against|and|compared to|than|over"
                                   r"|instead of|rather than"
                                   r"|(?:worth it|better|faster) (?:over|than)"
                                   r"|or (?:just )?(?:stick|stay) (?:with|on))\W*"
                                   r"(?:(?:in|at|with|using|for)\W+)?",
                                   query.low[a[1] : b[0]])
                  for a, b in itertools.pairwise(said))  # fmt: skip
    names = list(dict.fromkeys(name for _a, _b, name in said))[:3]
    if not weighed or len({_FORMAT_BITS.get(n) for n in names}) < 2:
        return []
    return names


def _formats_sized(query: Query, box: ToolBox) -> Draft | None:
    """Formats set against each other for one model and no card ("how much vram for llama 3
    70b in fp16 vs q4?"): the memory each needs, in the order said."""
    if query.gpus or len(query.models) != 1 or not query.models[0].ids:
        return None
    if query.workload not in (None, "inference") or not (names := formats_weighed(query)):
        return None
    model = query.models[0]
    base = estimate_args(query, REFERENCE_MEMORY, None, model)
    rows = [box.call("estimate", {**base, "precision": p}) for p in names]
    if any("error" in e for e in rows):
        return None
    needs = [f"about {c.num(e['memory_per_gpu_gb'], 'GB')} in {c.FORMAT_LABELS.get(n, n.upper())}"
             for n, e in zip(names, rows, strict=True)]  # fmt: skip
    head = (f"**For inference, {rows[0]['model_name']} needs {', '.join(needs[:-1])} and "
            f"{needs[-1]} of GPU memory.**")  # fmt: skip
    lines = [
        f"- {c.FORMAT_LABELS.get(n, n.upper())}: {c.breakdown(e)} ({c.settings(e)})"
        for n, e in zip(names, rows, strict=True)
    ]
    return Draft("\n".join([head, "", *lines]))


def _formats_weighed(query: Query, box: ToolBox) -> Draft | None:
    """Two or three formats set against each other for one model on one card ("q4 or q8?",
    "fp16 vs int8"): whether each fits and its pace, in the order said."""
    if len(query.gpus) != 1 or len(query.models) != 1 or not query.models[0].ids:
        return _formats_sized(query, box)
    if query.workload not in (None, "inference"):
        return None  # "qlora ... nf4": a method's format, not two formats weighed
    names = formats_weighed(query)
    if not names:
        return None
    ref, model = query.gpus[0], query.models[0]
    base = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    rows = [box.call("estimate", {**base, "precision": p}) for p in names]
    if any("error" in e for e in rows):
        return None
    spilled = [e for e in rows if e.get("engine") == "llama.cpp"
               and (e.get("host_layers") or not any(r["fits"] for r in rows))]  # fmt: skip
    if spilled:  # a GGUF short of the card runs with layers in system RAM: the fit of the leanest
        # format says how (the others hold more of it in system RAM, slower)
        lean = min(names, key=lambda n: _FORMAT_BITS.get(n, 4.0))  # (the rest are 4-bit)
        draft = _fit(replace(query, precision=lean), box)
        larger = [c.FORMAT_LABELS.get(n, n.upper()) for n in names if n != lean]
        draft.text += (f"\n\n_Note: of the formats named, {c.FORMAT_LABELS.get(lean, lean.upper())}"
                       f" is the smallest; {c.series(larger)} would keep more of it in system "
                       "RAM, and run slower._")  # fmt: skip
        return draft
    offloaded = ""
    if model.family == "diffusion" and not query.offload and not any(e["fits"] for e in rows):
        # "FLUX dev on a 16 GB card, bf16 or fp8?": as ComfyUI runs it, the text encoders leave
        # the card once the prompt is encoded
        moved = [box.call("estimate", {**base, "precision": p, "offload": "model"}) for p in names]
        if all("error" not in e for e in moved) and any(e["fits"] for e in moved):
            rows, query = moved, replace(query, offload="model")
            offloaded = ("Loaded whole (every model on the card at once), neither fits; with model "
                         "offload (each model moved to the card only while it runs, as ComfyUI "
                         "does and diffusers' enable_model_cpu_offload): ")  # fmt: skip
    lines = []
    for name, e in zip(names, rows, strict=True):
        label = c.FORMAT_LABELS.get(name, name.upper())
        need = (f"{c.num(e['memory_per_gpu_gb'], 'GB')} of "
                f"{c.usable(e)}")  # fmt: skip
        if (w := c.weights_gb(e)) and not e["fits"]:  # the weights alone, the figure people check
            need += f"; weights {c.num(w, 'GB')}"
        pace = c.metrics_of(e)[:1]
        at = f", about {c.num(pace[0][1]['typical'], pace[0][2])}" if pace and e["fits"] else ""
        lines.append(f"{label} {'fits' if e['fits'] else 'does not fit'} ({need}{at})")
    fitting = [n for n, e in zip(names, rows, strict=True) if e["fits"]]
    where = c.gpus_phrase(rows[0]["num_gpus"], rows[0]["gpu_name"])
    if len(fitting) == len(names):
        verdict = "Yes, both fit" if len(names) == 2 else "Yes, all fit"
    elif not fitting:
        verdict = "No, neither fits" if len(names) == 2 else "No, none fits"
    else:
        unfit = [n for n in names if n not in fitting]
        verdict = (f"Yes in {', '.join(c.FORMAT_LABELS.get(n, n.upper()) for n in fitting)}, no "
                   f"in {', '.join(c.FORMAT_LABELS.get(n, n.upper()) for n in unfit)}")  # fmt: skip
    head = (f"**{offloaded}{verdict} on {where}:** " + "; ".join(lines)
            + f" ({rows[0]['model_name']}, {c.settings(rows[0])}).")  # fmt: skip
    # the estimate of the first format that fits, part by part, below the verdict
    detail = _fit(replace(query, precision=(fitting or names)[0]), box)
    body = detail.text.split("\n", 1)[1].strip() if "\n" in detail.text else ""
    return Draft("\n\n".join(filter(None, [head, body])), detail.citations, detail.warnings)


_NEED_A_GPU = re.compile(NEED_A_GPU)  # "do i even need a gpu?": the understanding step's words


def _per_token_asked(query: Query) -> bool:
    # (a price of one's own: for the one card named, "I rent an A10G at $1.01/hr")
    return bool(
        _PER_TOKENS.search(query.low)
        and (not query.user_price_usd_per_hour or len(query.gpus) == 1)
        and query.models
        and query.gpus
        and (query.models[0].family or "llm") == "llm"
    )


def _batched_as_run(
    query: Query, box: ToolBox, results: list[dict[str, Any]], model: ModelRef
) -> list[str]:
    """Each estimate at the batch its job runs at (in place): the largest that fits when the
    usual one does not, full batches for pre-training; the notes that say so."""
    notes: list[str] = []
    for i, e in enumerate(results):
        smaller = _largest_batch(query, box, e, model)
        if smaller is not None:
            card = smaller["gpu_name"]
            card = card if card.startswith("a ") else f"the {card}"  # "a 12 GB GPU": no "the"
            notes.append(f"Batch {smaller['batch']:,} per GPU on {card}, the "
                         f"largest power of two that fits: the usual {e['batch']:,} needs "
                         f"{c.num(e['memory_per_gpu_gb'], 'GB')}.")  # fmt: skip
            results[i] = smaller
        fuller = _pretraining_batch(query, box, e, model)
        if fuller is not None:
            notes.append(f"Batch {fuller['batch']:,} sequences per GPU: pre-training runs full "
                         "batches, the largest power of two that fits, up to the batch "
                         "pre-training runs take (say yours if it differs).")  # fmt: skip
            results[i] = fuller
        sharded = _sharded_batch(query, box, results[i], model)
        if sharded is not None:
            notes.append(f"Batch {sharded['batch']:,} sequences per GPU: a full fine-tune sharded "
                         f"over {sharded['num_gpus']} GPUs runs several per step (at one, each "
                         "step waits on gathering the shards), the largest power of two up to "
                         f"{SHARDED_MAX_BATCH} that fits (say yours if it differs).")  # fmt: skip
            results[i] = sharded
    return notes


SHARDED_MAX_BATCH = 8  # sequences per GPU a sharded (ZeRO/FSDP) full fine-tune is sized at


def _sharded_batch(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """A full fine-tune over several GPUs, no batch given: at one sequence per GPU a sharded
    step is bound by the all-gathers of the weights, so the estimate at the largest power-of-two
    batch up to SHARDED_MAX_BATCH that fits."""
    if "error" in e or not e["fits"] or query.batch or e.get("family", "llm") != "llm":
        return None
    if e["workload"] != "finetune-full" or e["num_gpus"] < 2 or e["batch"] > 1:
        return None
    args = estimate_args(query, e["gpu"], e["num_gpus"], model)
    found = _max_batch(box, args)
    most = found["solution"] if found else None
    if not most or most < 2:
        return None
    batch = 2 ** int(math.log2(min(int(most), SHARDED_MAX_BATCH)))
    fuller = box.call("estimate", {**args, "batch": batch})
    return fuller if "error" not in fuller and fuller.get("fits") else None


# the lead of an answer that cannot size a job on the CPU alone (an image or BERT-style model)
CPU_UNMODELLED = "**No estimate on the CPU alone for "


def _fit(query: Query, box: ToolBox, speed_first: bool = False) -> Draft:
    weighed = (_models_together(query, box) if query.together and query.intent == "fit" else None
               ) or _models_on_card(query, box)  # fmt: skip
    if weighed is not None:
        return weighed
    if not query.models:  # no model to fit (a follow-up that names none, say)
        return Draft("Which model? Name it (and how you run it) and I will size it on the "
                     "card.")  # fmt: skip
    model = query.models[0]
    if query.intent == "fit":  # (a comparison's fit keeps every card: "would a 3060 be an upgrade")
        query = _asked_card(query)
    if query.cpu_only and not query.gpus and (model.family or "llm") not in ON_THE_CPU:
        # "SD 1.5 on CPU only, 32gb ram": the RAM is no card's memory; the CPU is not modelled
        return Draft(f"{CPU_UNMODELLED}{model.text}**: the calculator models "
                     "GPUs for it (and LLMs and Whisper on the CPU). Name a GPU to size it, "
                     "or ask which GPU to use.", cite_more=False)  # fmt: skip
    results = _estimates(query, box, model)
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        return Draft(errors[0])
    if not results:
        return _memory_needed(query, box, model)
    split = None if speed_first else _heads_split(query, box, results[0], model)
    if split is not None:
        return split
    notes = _batched_as_run(query, box, results, model)
    if len(results) == 1:
        e = results[0]
        if e.get("gpu_layers") is not None and e["gpu"] != CPU and query.ram_gb:
            notes.append(f"System RAM: {c.num(e['host_memory_gb'], 'GB')} for the CPU's layers"
                         f"{c.ram_check(e, query.ram_gb)}.")  # fmt: skip
        low = query.low
        alone = e["num_gpus"] == 1  # (several desk cards run a model as one does: _as_run_locally)
        four = _as_run_locally(query, box, results, model) if not e["fits"] else None
        if four is not None:  # "can my 3070 run llama 3 8b?": as people run it
            notes.append(_run_locally_note(e, four[0]))
            results, e = four, four[0]
        one = _on_the_one(query, box, e, model) if alone and four is None and speed_first else None
        if one is not None:  # "gemma 2 27b on an A10G, tokens/s?": the one card, in 4 bits
            notes.append(f"In 4-bit (AWQ) on the one {e['gpu_name']} said: in {e['precision']} "
                         f"it needs {c.num(e['memory_per_gpu_gb'], 'GB')} and does not fit it "
                         "(say the format or the count if they differ).")  # fmt: skip
            results, e = [one], one
        if (
            speed_first
            and not e["fits"]
            and e.get("family") == "speech"
            and alone
            and e["workload"] == "inference"
            and not (query.precision or model.precision)
        ):
            # "whisper large-v3 on a 4 GB card, realtime?": the pace in int8, which fits
            eight = box.call("estimate", {**estimate_args(query, e["gpu"], 1, model),
                                          "precision": "int8"})  # fmt: skip
            if "error" not in eight and eight["fits"]:
                need = c.num(e["memory_per_gpu_gb"], "GB")
                notes.append(f"In int8 (faster-whisper's compute_type), which fits the "
                             f"{e['gpu_name']}: in {e['precision']} it needs {need} and does not "
                             "fit it.")  # fmt: skip
                results, e = [eight], eight
        # "what about on L4s instead?": several of the card, as many as hold the job
        plural = any(re.search(r"[a-z0-9]s$", g.text.lower()) and not g.count for g in query.gpus)
        spread = _on_the_fewest(query, box, e, model) if (speed_first or plural) and alone else None
        moved = _moved_note(e, spread) if spread is not None else ""
        if spread is not None:  # in fewer bits on the one card, beside the several that hold it
            moved += "".join(f" {line}" for line in _alternatives(query, box, e, model)
                             if not line.startswith("It would fit on"))  # fmt: skip
        if spread is not None:  # "throughput of a 70B at batch 64 on H100?": on as many as hold it
            results, e = [spread], spread
        limited = _concurrency_limited(query, box, e, model) if spread is None else None
        if limited is not None:  # "serve it to 50 users": how many at once, at that many
            lead, limit = limited
            results, e = [limit], limit
        # "can it run X, and how fast?": yes or no first ("in real time?" is the pace's to say)
        fit_asked = bool(YES_NO.search(low) and _RUN_WORDS.search(low)
                         and not re.search(r"real[- ]?time", low))  # fmt: skip
        other_ways = _alternatives(query, box, e, model)
        ram_split = next(
            (a for a in other_ways if a.startswith(_SPLIT_LINE) and "holds" in a), None
        )
        if (ram_split is None and not e["fits"] and not query.ram_gb
                and _runs_locally(query, box, e, model)):  # fmt: skip
            # "can my 4090 run llama 3 70b": not even 4 bits fit, so the split is how it runs
            ram_split = next((a for a in other_ways if a.startswith(_SPLIT_LINE)), None)
            split_only = ram_split is not None
        else:
            split_only = False
        if ram_split and (query.ram_gb or split_only):  # the split is the answer
            other_ways.remove(ram_split)
        text = c.fit_answer(e, [*notes, *other_ways],
                            speed_first and limited is None, fit_asked, asked=low)  # fmt: skip
        if (ram_split and (query.ram_gb or split_only) and not query.throughput_tok_s
                and text.startswith("**No: ")):  # fmt: skip
            kept = ram_split.replace(_SPLIT_LINE, "llama.cpp or ollama keep what the card", 1)
            yes = "Yes, with the RAM you have" if query.ram_gb else _split_verdict(
                _ram_split(query, box, e, model), _FIT_ASKED.search(low) is not None)  # fmt: skip
            text = (f"**{yes}**: {kept}\n\n"
                    + text.replace("**No: ", "**On the card alone, no: ", 1))  # fmt: skip
        text = _more_than_needed(query, results, text, box)
        if moved:  # why the figures are for several cards, right under them
            head, _, rest = text.partition("\n\n")
            text = f"{head}\n\n{moved}\n\n{rest}"
        if limited is not None:  # its own verdict, in place of the one for the batch it holds
            text = f"{lead}\n\n{text.partition(chr(10) * 2)[2]}"
        if slow := _slow_for_users(query, e):  # "20 users on one L4 with ollama, ok?": the pace
            head, _, rest = text.partition("\n\n")
            text = f"{head}\n\n{slow}\n\n{rest}"
        if completion := _for_completion(query, e):  # "fast enough for code autocomplete?"
            text = f"{completion}\n\n{text}"
        rate = _full_load_lead(query, e)
        if rate:  # "how many requests per second can one H100 handle": the rate first
            text = f"{rate}\n\n{text}"
        priced = _at_user_price(query, box, e)
        if priced is None and (_PRICE_ASKED.search(low) or _BUDGET_SAID.search(low)):
            # "on a budget": what the card costs to buy is part of the answer
            buying = bool(_BUY_WORDS.search(low) or _BUDGET_SAID.search(low))
            priced = price_note(query, box, e["gpu"], buying=buying)
        elif priced and (query.intent == "cost" or _PRICE_ASKED.search(low)):
            # "I rent a 4090 at $0.35/h: what would 1,200 hours of audio cost?": that, first
            return Draft(f"{priced}\n\n{text}")
        return Draft(text + ("\n\n" + priced if priced else ""))
    verdicts = {r["fits"] for r in results}
    if verdicts == {False} and len(query.gpus) == 1:  # "one H100 for 100 users at 32k": the
        limited = _concurrency_limited(query, box, results[0], model)  # first variant, in turns
        if limited is not None:
            lead, limit = limited
            text = c.fit_answer(limit, notes, False, False, asked=query.low)
            return Draft(f"{lead}\n\n{text.partition(chr(10) * 2)[2]}")
    moved = ""
    if speed_first and verdicts == {False}:  # "how fast is a 70B on an A100 80GB?": on as many
        held = [_on_the_fewest(query, box, r, model) for r in results]  # as hold it, each
        spread_all = [r for r in held if r is not None]
        if len(spread_all) == len(results):
            moved = (f"Not on one of them: it needs {c.num(results[0]['memory_per_gpu_gb'], 'GB')}"
                     "; the figures are for as many of each as hold it.")  # fmt: skip
            results = spread_all
            verdicts = {True}
            if (clustered := _on_a_cluster(query, box, results, model)) is not None:
                results = clustered
                moved = moved.replace(
                    "; the figures are for as many of each as hold it.",
                    "; a run this long is spread over a cluster: the figures are for as many of "
                    "each as finish it within about a month (its GPU-hours and cost hardly move "
                    "with the count).",
                )
    four = _as_run_locally(query, box, results, model) if verdicts == {False} else None
    if four is not None:  # "b580 or 4060 ti for a 14b": in 16 bits on none; as people run it
        notes.append(_run_locally_note(results[0], four[0], several=True))
        results, verdicts = four, {r["fits"] for r in four}
    if len(verdicts) > 1 and (_value_asked(query) or _FASTER_ASKED.search(query.low)):
        same = _four_bits_for_all(query, box, results, model)
        if same is not None:  # "l4 or t4 for a 7b, more tokens per dollar?": in the same format
            left = [e for e in results if not e["fits"]]
            notes.append(
                f"Compared in {c.FORMAT_LABELS.get(same[0]['precision'], same[0]['precision'])}, "
                f"which holds it on each: in {left[0]['precision']} it needs "
                f"{c.num(left[0]['memory_per_gpu_gb'], 'GB')} and does not fit the "
                + ", the ".join(e["gpu_name"] for e in left) + ".")  # fmt: skip
            results, verdicts = same, {True}
    alternatives: list[str] = _totals(box, results)
    if verdicts == {False}:  # what would fit, on the roomiest of them
        roomiest = max(results, key=lambda r: r["usable_memory_per_gpu_gb"])
        alternatives += _alternatives(query, box, roomiest, model)
        for e in results:  # and the leaner format that holds it on each of the others
            if e is not roomiest and not (query.precision or model.precision):
                alternatives += [
                    line
                    for line in _alternatives(query, box, e, model, more_cards=False)[:1]
                    if line.startswith("In ")
                ]
    elif len(verdicts) > 1 and not (query.precision or model.precision):
        # "rtx 4000 ada vs a4000 vs 4060 ti for a 7b chatbot": the cards left out, in the format
        # that holds it on them, the same words as one card's answer
        for e in results:
            if not e["fits"]:
                alternatives += _alternatives(query, box, e, model, more_cards=False)[:1]
    # (not "tokens per second": a rate)
    asks_time = bool(re.search(r"\bhow long\b|(?<!per )\bseconds?\b|\blatency\b"
                               r"|\bper image\b", query.low))  # fmt: skip
    # "2,000 hours of audio: is one A100 enough?": a job's size said, its time on each leads
    sized = all(r.get("job_hours") and r["fits"] for r in results) and bool(
        _JOB_TIME_ASKED.search(query.low)
    )
    priced_each = []  # "one a100 80gb ... time + cost at $1.79/hr?": each variant's job at it
    if query.user_price_usd_per_hour and len(query.gpus) == 1 and not query.price_per_node:
        priced_each = [p for e in results if (p := _at_user_price(query, box, e))]
        if priced_each:  # (the catalog's median rent is no price of this job)
            results = [{**e, "cost": None} for e in results]
    text = c.fit_table(results, [*dict.fromkeys(notes), *alternatives],
                       time_first=speed_first or sized,
                       prefer_time=asks_time, pick_asked=asks_pick(query),
                       asked=query.low, value=_value_asked(query))  # fmt: skip
    shared = _users_per_card(query, box, results, model) if verdicts == {False} else None
    if shared and len({g.base for g in query.gpus}) == 1:
        # "can one H100 handle 100 users?": the verdict on the card asked leads; its variants'
        # fleets after it
        text = f"{text}\n\n{shared}"
    elif shared:  # "200 concurrent users: L4s, A10Gs or one H100?": how many of each hold them
        text = f"{shared}\n\n{text}"
    loaded = [lead for r in results if (lead := _full_load_lead(query, r))]
    if loaded and not shared:  # "total across batch" on each variant or card named
        text = "\n".join(loaded) + f"\n\n{text}"
    if moved:  # why the figures are for several cards, right under them
        head, _, rest = text.partition("\n\n")
        text = f"{head}\n\n{moved}\n\n{rest}"
    if priced_each:
        text = "\n".join(priced_each) + f"\n\n{text}"
    if len(verdicts) > 1 and any(g.open_variant for g in query.gpus):
        text += "\n\nWhich one do you have?"
    return Draft(_more_than_needed(query, results, text, box))


def _users_per_card(
    query: Query, box: ToolBox, results: list[dict[str, Any]], model: ModelRef
) -> str | None:
    """ "Mistral 7B for 200 concurrent users: L4s, A10Gs or one H100?": no card holds every
    user's cache at full length at once; how many each holds, how many of each hold them all,
    and what those cost a month at the median rental price (the cheapest first)."""
    users = query.concurrency or 0
    if users < 2 or len(results) < 2:
        return None
    rows = []
    for e in results:
        limited = _concurrency_limited(query, box, e, model)
        if limited is None:
            continue
        held = limited[1]
        copies = math.ceil(users / held["batch"])
        count = copies * e["num_gpus"]
        if count > MAX_SERVING_GPUS:
            continue
        # at the hourly price the estimate beside it shows (its median on-demand offer)
        hourly = (e.get("cost") or {}).get("usd_per_gpu_hour")
        month: dict[str, Any] = {}
        if hourly:
            args = {"usd_per_gpu_hour": hourly, "hours": HOURS_PER_MONTH, "num_gpus": count}
            month = box.call("rental_cost", args)
        usd = float(month["usd"]) if "usd" in month else None
        rows.append((usd if usd is not None else math.inf, count, held, usd))
    if not rows:
        return None
    rows.sort(key=lambda r: (r[0], r[1]))
    _key, count, best, usd = rows[0]
    length = f"{best['context']:,} tokens"
    lines = [f"**{c.gpus_phrase(count, best['gpu_name'])[0].upper()}"
             f"{c.gpus_phrase(count, best['gpu_name'])[1:]} hold all {users:,} at once** at up to "
             f"{length} each"
             + (f", about {c.usd(usd)} a month at the median rental price" if usd else "")
             + "; shorter conversations fit more on each card:"]  # fmt: skip
    for _key, n, held, month_usd in rows:
        cost = f", {c.usd(month_usd)} a month" if month_usd else ""
        cards = "one card" if held["num_gpus"] == 1 else f"{held['num_gpus']} cards"
        lines.append(f"- {held['gpu_name']}: {held['batch']:,} at once on {cards}; "
                     f"{n} for all {users:,}{cost}")  # fmt: skip
    budget = query.budget or (Budget(query.monthly_usd, "rent", "month") if query.monthly_usd
                              else None)  # fmt: skip
    if usd and budget and budget.per == "month":
        side = "within" if usd <= budget.usd else "over"
        lines.append(f"That is {side} your {c.usd(budget.usd)} a month.")
    return "\n".join(lines)


MAX_SERVING_GPUS = 64  # more cards than this for one chat load is no answer anyone wants


def _concurrency_limited(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> tuple[str, dict[str, Any]] | None:
    """ "serve a 70B in AWQ for ~50 users on 2x A6000?": the weights fit and only the KV cache of
    every request at full length does not. An engine holds as many sequences as the cache has
    room for and queues the rest, so the answer is how many at once at that length (with the
    estimate at that many), and how long each may be with all of them at once."""
    kv = e["breakdown_gb"].get("kv_cache", 0.0)
    batch = e["batch"]
    if (e["fits"] or batch < 2 or kv <= 0 or e.get("family", "llm") != "llm"
            or e["workload"] != "inference"):  # fmt: skip
        return None
    room = e["usable_memory_per_gpu_gb"] - (e["memory_per_gpu_gb"] - kv)
    most = int(room / (kv / batch))
    if most < 1:
        return None  # the weights themselves, or not one request, do not fit
    args = estimate_args(query, e["gpu"], e["num_gpus"], model)
    held = None
    for n in range(most, max(most - 3, 0), -1):  # activations grow with the batch too
        tried = box.call("estimate", {**args, "batch": n})
        if "error" not in tried and tried["fits"]:
            held = tried
            break
    if held is None:
        return None
    length = (
        f"{e['context']:,}-token prompts and their {query.output_tokens:,}-token answers"
        if query.output_tokens
        else f"{e['context']:,} tokens"
    )
    solve = {k: v for k, v in args.items() if k in SOLVE_ARGS and k != "context"}
    found = box.call("solve", {**solve, "batch": batch, "target": "max_context"})
    each = found.get("solution") if "error" not in found else None
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    # half of them at once or more is a server that keeps up; fewer, one that queues most
    verdict = "Yes," if held["batch"] * 2 >= batch else "No, only"
    head = (f"**{verdict} {held['batch']:,} of the {batch:,} at a time: {e['model_name']} fits "
            f"on {where} with room in its KV cache for {held['batch']:,} "
            f"request{'s' if held['batch'] != 1 else ''} of {length} "
            "at once"
            + (f", or all {batch:,} at up to {each:,} tokens each" if each and each >= 256 else "")
            + f"** ({c.settings(held)}).")  # fmt: skip
    why = (f"All {batch:,} with {length} each would need "
           f"{c.num(e['memory_per_gpu_gb'], 'GB')} per GPU of "
           f"{c.usable(e)} (KV cache "
           f"{c.num(kv, 'GB')}"
           + (f" per GPU, {c.num(kv * e['num_gpus'], 'GB')} across the {e['num_gpus']}"
              if e["num_gpus"] > 1 else "")
           + "); a serving engine pages the cache and queues the requests beyond "
           "what it holds.")  # fmt: skip
    return f"{head}\n\n{why}", held


# the job's time decides: "one A100 enough?", "in time for friday", "how long"
_JOB_TIME_ASKED = re.compile(
    r"\benough\b|\bin time\b|\bdeadline\b|\bhow long\b|\bfinish\w*\b|\bby (?:monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|the weekend|next week)\b"
)


def _one_card_said(query: Query) -> bool:
    """One card said in words before its name: "on one 4090", "a single H100", "just one A100"
    (in this message or, for the card the thread carries, an earlier one)."""
    return any(g.one_said and (g.count or 1) == 1 for g in query.gpus)  # (understand._one_said)


def _moved_note(one: dict[str, Any], spread: dict[str, Any]) -> str:
    return (f"Not on one {one['gpu_name']}: it needs {c.num(one['memory_per_gpu_gb'], 'GB')} "
            f"there, more than its {c.usable(one)}; the "
            f"figures are for the {spread['num_gpus']} that hold it.")  # fmt: skip


def _on_the_fewest(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """A speed asked of a job one datacenter card does not hold, the card named with no count:
    the job on the fewest of that card that hold it (None when it fits, a count was said, one
    card was said in words, or the card is one people own one or two of)."""
    if e["fits"] or any(g.count for g in query.gpus) or query.num_gpus:
        return None
    if query.batch and e["batch"] > 1 and e["workload"] != "inference":
        # "4000 steps at batch 4" on a card that holds batch 1: the batch by gradient
        # accumulation there (the alternatives say so), not more cards
        one = box.call("estimate", {**estimate_args(query, e["gpu"], e["num_gpus"], model),
                                    "batch": 1})  # fmt: skip
        if "error" not in one and one["fits"]:
            return None
    if _one_card_said(query) or YES_NO.search(query.low):
        # "how fast is llama 3 70b on a single 4090?": that one card; "is an A100 enough? how
        # fast": the yes or no on it first
        return None
    sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
    if sheet.get("segment") == "datacenter":
        return _spread(query, box, e, model)
    if query.intent == "train_time" and sheet.get("segment") in ("consumer", "workstation"):
        # "how long would 20M tokens take" of a QLoRA no 4090 holds: on as many as a desktop
        # takes, when that is enough (eight 4090s in bf16 answer no one's question)
        spread = _spread(query, box, e, model)
        return spread if spread and spread["num_gpus"] <= WORKSTATION_MAX_GPUS else None
    return None


# nodes a training run is sized over when no count is said ("fully fine-tune a 70b on h100s":
# the fewest that hold it, 24 to 32 of them)
TRAINING_NODES = 8


def _spread(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """Estimate `e`'s job on the fewest of its card that hold it, up to a node for serving and
    TRAINING_NODES nodes for a training run (None if none)."""
    solved = _fewest(query, box, e["gpu"], model)
    most = NODE_GPUS * (1 if e["workload"] == "inference" else TRAINING_NODES)
    if "error" in solved or not solved.get("solution") or solved["solution"] > most:
        return None
    args = estimate_args(query, e["gpu"], None, model)
    spread = box.call("estimate", {**args, "num_gpus": solved["solution"]})
    if "error" in spread or not spread["fits"]:
        return None
    return _pretraining_batch(query, box, spread, model) or spread  # pre-training: full batches


_REQUESTS_ASKED = re.compile(
    r"\brequests? (?:per|a|/) ?(?:second|sec|s)\b|\breq(?:uests)?/s(?:ec)?\b|\brps\b|\bqps\b"
    r"|\bquer(?:y|ies) per second\b"
)


# the tokens a server makes in all, not one stream's: "tokens per second total across batch",
# "aggregate throughput", "throughput of an H100 serving ...", "batch inference"
_TOTAL_ASKED = re.compile(
    r"\b(?:total|aggregate|combined|overall|system)\b[^.?!]{0,30}?\b(?:throughput|tokens?\b|tok/s)"
    r"|\b(?:throughput|tokens?(?:/s| per second| a second)?)\b[^.?!]{0,30}?\b(?:in total|total"
    r"|aggregate|combined|across (?:the |all )?(?:batch|batches|requests|users|streams))\b"
    r"|\bthroughput\b[^.?!]{0,40}\bserving\b|\bserving\b[^.?!]{0,90}\bthroughput\b"
    r"|\b(?:at|under) (?:full|max(?:imum)?|peak|heavy) load\b|\bfully loaded\b"
    # "tokens per sec under load", "max throughput", "throughput 128 in 128 out" (the shape of a
    # serving benchmark: many requests of that many tokens in and out)
    r"|\bunder load\b|\bmax(?:imum)? throughput\b"
    r"|\bthroughput\b[^.?!]{0,50}?\b\d+\s?k?\s?(?:in|input)\b"
    r"|\b\d+\s?k?\s?(?:in|input)\b[^.?!]{0,30}\b\d+\s?k?\s?(?:out|output)\b[^.?!]{0,40}\bthroughput\b"
)


def _full_load_lead(query: Query, e: dict[str, Any]) -> str:
    """What one setup serves at full load, when that is what was asked: the requests a second
    (its serving throughput over one request's output tokens), or the output tokens a second of
    all the requests in flight together ("tokens per second total across batch")."""
    serving = (e.get("serving_tokens_per_s") or {}).get("typical")
    rate = e.get("serving_requests_per_s")
    low = query.low
    # ("~40k summaries a day at ~150 tokens each: enough?": a day's answers, a rate on average)
    daily = bool(query.rps) and bool(EACH_DAY.search(low))
    requests = _REQUESTS_ASKED.search(low) or daily
    total = _TOTAL_ASKED.search(low) or _AT_VOLUME.search(low)
    if not (serving and e["fits"] and (requests or total)) or query.batch:
        return ""
    output = e["output_tokens"]
    said = "" if query.output_tokens else " (assumed; say how long the answers are)"
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    flight = (
        f"{e['serving_batch']:,} requests in flight"
        if e.get("serving_batch")
        else "many requests in flight"
    )
    prompt = e.get("serving_prompt") or e["context"]
    lengths = f"{output:,} output tokens each{said}, {prompt:,}-token prompts"
    if requests and rate:
        # "is one 4090 enough for 50 req/s?": the rate said against the rate served
        verdict = ""
        if query.rps:
            verdict = ("Yes: " if rate >= query.rps else
                       f"No, not {c.num(query.rps)} a second: ")  # fmt: skip
        if daily and query.rps:  # the day's answers (as said), against the rate served
            day = f"{query.rps * SECONDS_PER_DAY:,.0f} a day"
            verdict = (f"Yes, for {day} on average: " if rate >= query.rps else
                       f"No, not {day}: ")  # fmt: skip
        return (
            f"**{verdict}{'a' if verdict else 'A'}bout {c.num(rate)} requests per second for "
            f"{e['model_name']} on "
            f"{where}** at full load: {c.num(serving, 'tokens/s')} of output with {flight}, "
            f"{lengths} ({c.settings(e)})."
        )
    one = (e.get("decode_tokens_per_s") or {}).get("typical")
    alone = f"; one stream alone decodes {c.num(one, 'tokens/s')}" if one else ""
    if one and (e.get("batch") or 1) > 1:  # the batch given: its decode, summed, no prompts read
        alone = (f"; decoding alone, without reading the prompts, {e['batch']:,} streams make "
                 f"{c.num(one, 'tokens/s')} in all")  # fmt: skip
    held = e.get("serving_batch") or 0
    tight = ""
    if held <= FEW_IN_FLIGHT:
        tight = (
            f" The memory left beside the weights holds only {held} requests' caches at "
            "that length; more cards, or shorter prompts, serve more."
        )
    return (
        f"**About {c.num(serving, 'tokens/s')} of output in total on {where} at full load** "
        f"({e['model_name']}, {e['precision']}, {e['engine']}): {flight}, {lengths}{alone}.{tight}"
    )


FEW_IN_FLIGHT = 4  # up to this many requests held at once, the memory is what limits a server


def _more_than_needed(query: Query, results: list[dict[str, Any]], text: str, box: ToolBox) -> str:
    """ "Do we really need the B200 for an 8B bot?": no, when the job fills under 40% of every
    card asked about; the fit follows as the figures."""
    low = query.low
    if _ENOUGH_OR_NEED.search(low) and (enough := _enough_or_more(query, results)):
        # "will a t4 be ok or do i need an a100": the first card's verdict leads
        return f"{enough}\n\n" + re.sub(r"\*\*Yes: (.*?)\*\*", r"\1", text, count=1)
    need = _NEED_ASKED.search(low)
    overkill = re.search(r"\boverkill\b", low)  # "would a B200 be overkill for a 7B?": yes
    # "should I buy the $5,000 Mac Studio just so an AI can write my listings?": a doubt of need
    doubt = _JUST_FOR.search(low)
    if need is None and not overkill and not doubt:
        return text
    after = low[need.end() : need.end() + 40] if need else ""  # "do we need it": the card
    if need and not doubt and not (re.match(r"\s*(?:it|that|this|them|one)\b", after)
                     or any(g.text.lower() in after for g in query.gpus)):  # fmt: skip
        return text
    if not all(r["fits"] and r.get("gpu_memory_gb") for r in results):
        return text
    e = max(results, key=lambda r: r["memory_per_gpu_gb"] / r["gpu_memory_gb"])
    if e["memory_per_gpu_gb"] / e["gpu_memory_gb"] >= 0.4:
        return text
    verdict = "Yes, overkill" if overkill and not need else "No"
    price = ""  # what the card said to be needed costs to buy, beside the verdict
    bought = box.call("purchase_prices", {"gpu": e["gpu"]})
    if "error" not in bought and bought.get("prices"):
        price = "\n\n" + c.purchase(bought)
    return (f"**{verdict}: {e['model_name']} needs about {c.num(e['memory_per_gpu_gb'], 'GB')}"
            f"{' per GPU' if e['num_gpus'] > 1 else ''}, and the {e['gpu_name']} has "
            f"{c.num(e['gpu_memory_gb'], 'GB')}: far more card than this job needs; a card with a "
            f"little more memory than the job needs will do.**{price}\n\n"
            + re.sub(r"\*\*Yes: (.*?)\*\*", r"\1", text, count=1))  # fmt: skip


# a purchase for one small job, doubted: "should i buy a 5090 just so i can transcribe ...",
# "is it worth getting an H100 just to run an 8B"
_JUST_FOR = re.compile(
    r"\b(?:should|would|do|is it worth) (?:i|we|it)?\s?(?:buy|buying|get|getting)\b[^?]{0,80}"
    r"\bjust (?:so|to|for)\b"
)
_LOCAL_SEGMENTS = ("consumer", "laptop", "workstation", "apple")
_SERVED = re.compile(
    r"\bserv(?:e|es|ing|er)\b|\bhost(?:ing)?\b|\bproduction\b|\bapi\b"
    r"|\bthroughput\b|\bconcurren\w*|\busers\b|\brequests\b|\bbatch\b"
)


CLUSTER_WALL_HOURS = 730.0  # a run spread over a cluster to end within about a month
CLUSTER_MAX_GPUS = 4096  # the largest cluster a run is spread over


def _on_a_cluster(
    query: Query, box: ToolBox, results: list[dict[str, Any]], model: ModelRef
) -> list[dict[str, Any]] | None:
    """ "Train an 8B on 15T tokens on H100s": a run of years on the fewest cards that hold it,
    with no count said, on as many of each (the fewest, doubled) as end it within about a month;
    None when the count was said or the run is short."""
    if any(g.count for g in query.gpus) or query.num_gpus:
        return None
    if not all((r.get("job_hours") or {}).get("typical", 0) > 12 * CLUSTER_WALL_HOURS
               for r in results):  # fmt: skip
        return None
    spread = []
    for r in results:
        n = r["num_gpus"]
        hours = r["job_hours"]["typical"] * n  # about the GPU-hours, at any count
        while n < CLUSTER_MAX_GPUS and hours / n > CLUSTER_WALL_HOURS:
            n *= 2
        e = box.call("estimate", estimate_args(query, r["gpu"], n, model))
        if "error" in e or not e["fits"] or not e.get("job_hours"):
            return None
        spread.append(e)
    return spread


def _as_run_locally(
    query: Query, box: ToolBox, results: list[dict[str, Any]], model: ModelRef
) -> list[dict[str, Any]] | None:
    """A model that fits none of several desktop cards in 16 bits, with no format said, sized
    as it is run on them: an LLM as a 4-bit GGUF on llama.cpp, an image model with 8-bit weights
    (as ComfyUI and Forge load FLUX on 24 GB); None when that fits none either."""
    first = results[0]
    family = first.get("family", "llm")
    if (
        query.precision
        or model.precision
        or query.engine not in (None, "llama.cpp", "ollama")
        or (query.batch or 1) > 1
        or _SERVED.search(query.low)  # a server for many: not a desktop's one stream
        or family not in ("llm", "diffusion")
        or first["workload"] != "inference"
        or first["precision"] not in ("bf16", "fp16")
    ):
        return None
    local = set()
    for e in results:
        sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
        # a desk card, or one only llama.cpp still runs (a Pascal P40 in a home server)
        by_gguf = family == "llm" and e.get("engine") == "llama.cpp"
        if "error" not in sheet and (sheet.get("segment") in _LOCAL_SEGMENTS or by_gguf):
            local.add(e["gpu"])
    # every card named a desk card; of a name left open, one variant ("rtx pro 6000": the
    # workstation editions, though a server edition shares the name)
    named = [gpu_choices(ref) for ref in query.gpus if ref.ids] or [[e["gpu"] for e in results]]
    if not all(local & set(ids) for ids in named):
        return None
    if family == "diffusion" and any(_pipeline_weights_gb(e) <= e["usable_memory_per_gpu_gb"]
                                     for e in results):  # fmt: skip
        return None  # its 16-bit weights fit: offloading the rest is how it runs (--medvram)
    home = run_at_home(query) if family == "llm" else replace(query, precision="fp8")
    four = _estimates(home, box, model)
    if any("error" in e for e in four) or not any(e["fits"] for e in four):
        return None
    return four


# engines for serving an LLM that the calculator tells apart (the others name a whole stack)
_LLM_ENGINES = {"vllm": "vLLM", "llama.cpp": "llama.cpp", "tensorrt-llm": "TensorRT-LLM",
                "sglang": "SGLang", "lmdeploy": "LMDeploy", "exllamav2": "ExLlamaV2", "tgi": "TGI",
                "mlx": "MLX", "hf": "HF transformers"}  # fmt: skip


_GPU_QUANTS = ("gptq", "awq", "exl2")  # 4-bit formats of the GPU engines, no GGUF


def _engine_format(engine: str, precision: str) -> str:
    """The 4-bit format an engine runs for a 4-bit format said: llama.cpp a GGUF (Q4_K_M), not
    GPTQ or EXL2; ExLlamaV2 GPTQ for a GGUF; vLLM and the others AWQ, not a GGUF or EXL2."""
    gguf = precision.startswith(("q2", "q3", "q4", "q5", "q6", "iq"))
    exl2 = is_exl2(precision)  # ExLlamaV2's own format, no other engine loads it
    if engine in ("llama.cpp", "ollama"):
        return "q4_k_m" if precision in _GPU_QUANTS or precision == "nf4" or exl2 else precision
    if gguf:
        return "gptq" if engine == "exllamav2" else "awq"
    if exl2 and engine != "exllamav2":
        return "awq"
    if precision == "nf4" and engine == "exllamav2":
        return "gptq"  # "exllamav2 ... at 4bit": its own 4-bit quants (costed as GPTQ), not NF4
    if precision == "nf4" and engine in ("vllm", "sglang", "tensorrt-llm", "lmdeploy", "tgi"):
        return "awq"  # a serving engine's 4 bits
    return precision


# a format each engine loads, as written: a GGUF's quant name, an EXL2's bits per weight, a
# serving engine's quantisation
_GGUF_SAID = re.compile(r"\bq([2-8])_(k(?:_[sml])?|0)\b")
_EXL2_SAID = re.compile(r"\b(\d(?:\.\d+)?)\s?bpw\b")
_SERVED_FORMAT_SAID = re.compile(r"\b(awq|gptq|fp8)\b")
_GGUF_OF = {("2", "k"): "q2_k", ("3", "k"): "q3_k_m", ("4", "0"): "q4_0", ("4", "k"): "q4_k_m",
            ("5", "k"): "q5_k_m", ("6", "k"): "q6_k", ("8", "0"): "q8_0"}  # fmt: skip


def _format_said_for(engine: str, low: str) -> str | None:
    """The format the question names that `engine` loads ("llama.cpp q8_0": Q8_0; "exllamav2
    8bpw": EXL2 at 8 bits), None when it names none of that engine's."""
    if engine in ("llama.cpp", "ollama"):
        m = _GGUF_SAID.search(low)
        return _GGUF_OF.get((m.group(1), m.group(2)[0])) if m else None
    if engine == "exllamav2":
        m = _EXL2_SAID.search(low)
        return f"exl2-{m.group(1)}bpw" if m else None
    m = _SERVED_FORMAT_SAID.search(low)
    return (
        m.group(1)
        if m and engine in ("vllm", "sglang", "tensorrt-llm", "lmdeploy", "tgi")
        else None
    )


_THROUGHPUT_ASKED = re.compile(r"\bthroughput\b|\bat (?:full )?load\b|\bmany (?:users|requests)\b")


def _engines_weighed(query: Query, box: ToolBox) -> Draft | None:
    """ "TensorRT-LLM vs vLLM for llama 3 8b on an H100 at batch 64, which?": the same model on
    the same card under each engine named (each in its own default format when none is said),
    the fastest first; None unless two LLM engines, a model and a card are named."""
    found = sorted((m.start(), name) for name, pattern in ENGINE_WORDS
                   if name in _LLM_ENGINES and (m := re.search(pattern, query.low)))  # fmt: skip
    engines = list(dict.fromkeys(name for _at, name in found))
    model = query.models[0] if query.models else None
    if len(engines) < 2 or model is None or (model.family or "llm") != "llm" or not query.gpus:
        return None
    ref = query.gpus[0]
    gpu = gpu_choices(ref)[0]
    # "llama 70b on H100": on as many of the card as hold it when one does not (said after)
    for count in [ref.count] if ref.count else [None, 2, 4, 8]:
        rows = []
        for engine in engines[:3]:
            args = {**estimate_args(replace(query, engine=engine), gpu, count, model),
                    "engine": engine}  # fmt: skip
            if args.get("precision"):  # "at 4bpw": each engine in its own 4-bit format
                args["precision"] = _engine_format(engine, args["precision"])
            # "exllamav2 8bpw vs llama.cpp q8_0": the format said for that engine, as said
            args["precision"] = _format_said_for(engine, query.low) or args.get("precision")
            e = box.call("estimate", args)
            if ("error" not in e and not e["fits"] and count is None and not query.precision
                    and not _format_said_for(engine, query.low)):  # fmt: skip
                # "vllm vs ollama for qwen 14b on a 4090": on the one card, each engine in its
                # own 4-bit format when 16 bits do not fit, before more cards
                quarter = box.call(
                    "estimate", {**args, "precision": _engine_format(engine, "q4_k_m")}
                )
                e = quarter if "error" not in quarter and quarter["fits"] else e
            if "error" not in e:
                rows.append(e)
        fitting = [e for e in rows if e["fits"] and e.get("decode_tokens_per_s")]
        if len(fitting) >= 2:
            break
    if len(fitting) < 2:
        return None
    # "throughput", with no batch said: the full-load serving figure, not one stream's decode
    loaded = (_THROUGHPUT_ASKED.search(query.low) and not query.batch
              and all(e.get("serving_tokens_per_s") for e in fitting))  # fmt: skip
    key = "serving_tokens_per_s" if loaded else "decode_tokens_per_s"
    what = "full-load serving throughput" if loaded else "decode speed"
    ranked = sorted(fitting, key=lambda e: -e[key]["typical"])
    best, next_ = ranked[0], ranked[1]
    ratio = best[key]["typical"] / next_[key]["typical"]
    name = {e["engine"]: _LLM_ENGINES.get(e["engine"], e["engine"]) for e in rows}
    each = "; ".join(
        f"{name[e['engine']]} ({e['precision']}) {c.num(e[key]['typical'])} "
        "tokens/s" for e in ranked)  # fmt: skip
    where = c.gpus_phrase(best["num_gpus"], best["gpu_name"])
    level = [e for e in ranked if best[key]["typical"] / e[key]["typical"] < 1.005]
    if ratio < 1.005 and len(level) < len(ranked):
        # "tensorrt-llm vs vllm vs sglang": two level, the third behind them
        behind = ranked[len(level)]
        ahead = c.num(best[key]["typical"] / behind[key]["typical"])
        return Draft(
            f"**{' and '.join(name[e['engine']] for e in level)} come out level on the {what}, "
            f"about {ahead}x that of {name[behind['engine']]}** for {best['model_name']} on "
            f"{where}: {each}. Measured gaps between these engines depend on the version, the "
            "batch and the prompt lengths."
        )
    if ratio < 1.005:  # "sglang vs vllm": the same figure on each, no pick
        return Draft(
            f"**They come out level on the {what}** "
            f"for {best['model_name']} on {where}: {each}. The calculator has no figure that sets "
            "them apart here; measured differences between these engines depend on the version, "
            "the batch and the prompt lengths."
        )
    streams = "" if best["batch"] == 1 or loaded else f" for {best['batch']:,} sequences together"
    head = (
        f"**Pick {name[best['engine']]}: about {c.num(ratio)}x the {what} of "
        f"{name[next_['engine']]}** for {best['model_name']} on {where}{streams}: {each}."
    )
    left = [name[e["engine"]] for e in rows if not e["fits"]]
    lines = [f"- **{name[e['engine']]}** ({e['precision']}): "
             f"{c.num(e['memory_per_gpu_gb'], 'GB')} of "
             f"{c.usable(e)}; decode speed {c.band(e['decode_tokens_per_s'], 'tokens/s')}"
             + (f"; full-load serving {c.band(e['serving_tokens_per_s'], 'tokens/s')} with "
                f"{e.get('serving_batch')} requests in flight" if loaded else "")
             for e in ranked]  # fmt: skip
    if left:
        lines.append(f"Does not fit under {', '.join(left)} as asked.")
    said = all(_format_said_for(e["engine"], query.low) for e in ranked)
    if len({e["precision"] for e in ranked}) > 1 and said:
        lines.append("The formats are the ones you named, so part of the gap is the formats' "
                     "sizes, not the engines.")  # fmt: skip
    elif len({e["precision"] for e in ranked}) > 1:
        lines.append(
            "The formats differ (each engine's usual one for this card): most of the gap "
            "is the format; name one to compare the engines like for like."
        )
    unfitted = [
        name[e["engine"]]
        for e in ranked
        if any("not fitted for this pair" in a for a in e.get("assumptions", []))
    ]
    if unfitted:  # a prior against a fit: no pick can rest on the gap
        head = (
            f"**{name[best['engine']]} comes out about {c.num(ratio)}x ahead here, but "
            f"{' and '.join(unfitted)} on this card rests on priors, not measurements: "
            f"treat the gap as unknown** ({best['model_name']} on {where}{streams}: {each})."
        )
    lines.append(
        "Each engine's speed is the calculator's figure for it on this card (the engine's own "
        "efficiency, its kernels for the format; calibrated where measurements exist); "
        "features (FP8, speculative decoding, build time) can matter more than the gap."
    )
    return Draft(head + "\n\n" + "\n".join(lines))


# a pace one reads along with (tokens/s): a split slower than this runs, but slowly
READING_TOK_S = 10.0
SLOW_FIRST_TOKEN_S = 10.0  # a first token later than this, and users see a stall


def _slow_for_users(query: Query, e: dict[str, Any]) -> str | None:
    """Users said, all served at once: when each gets less than a reading pace, or the last of
    them waits long for a first token, said beside the verdict that they fit."""
    batch = e.get("batch") or 1
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    first = (e.get("time_to_first_token_s") or {}).get("typical")
    if not (query.concurrency and batch > 1 and e.get("fits") and decode):
        return None
    each = decode / batch
    if each >= READING_TOK_S and not (first and first > SLOW_FIRST_TOKEN_S):
        return None
    said = [
        f"each gets about {c.num(each, 'tokens/s')}"
        + (" (below a reading pace, 10 tokens/s)" if each < READING_TOK_S else "")
    ]
    if first and first > SLOW_FIRST_TOKEN_S:
        said.append(f"the last prompt of a burst waits about {c.num(first, 's')} for its first "
                    "token")  # fmt: skip
    return (
        f"Slow with all {batch:,} at once: {' and '.join(said)}. It holds up when only a few "
        "of them ask at the same time; for many at once, a faster card or more of them."
    )


# inline completion in an editor: a suggestion is useful only if it appears as one types
_COMPLETION = re.compile(
    r"\bauto-?complet\w*|\b(?:code|tab|inline|fim) complet\w*|\bfill[- ]in[- ]the[- ]middle\b"
    r"|\bcopilot\b"
)
COMPLETION_FIRST_TOKEN_S = 1.0  # a suggestion later than this arrives after the typing moved on


def _for_completion(query: Query, e: dict[str, Any]) -> str | None:
    """ "Fast enough for coding autocomplete?": judged by the first token's delay after a prompt
    of the estimate's context (an editor sends the file around the cursor), not by the reading
    pace that suits a chat."""
    first = (e.get("time_to_first_token_s") or {}).get("typical")
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    if not (
        _COMPLETION.search(query.low) and first and decode and e.get("workload") == "inference"
    ):
        return None
    prompt = f"{e['context']:,}-token prompt"
    if first <= COMPLETION_FIRST_TOKEN_S:
        return (f"**Yes for autocomplete: the first token comes about {c.num(first, 's')} after "
                f"a {prompt}**, then {c.num(decode, 'tokens/s')}.")  # fmt: skip
    return (f"**Not for autocomplete: the first token comes about {c.num(first, 's')} after a "
            f"{prompt}, and a suggestion is useful only well under a second**; for chat, "
            f"{c.num(decode, 'tokens/s')} reads fine. Editors pair a small coder model "
            "for completion with the large one for chat.")  # fmt: skip


# a fit asked in so many words ("should fit on my 8gb", "fully in vram"), not whether it runs
_FIT_ASKED = re.compile(
    r"\bfit\w*\b|\b(?:fully|entirely|all) (?:in|on|into)\b|\b(?:no|without) (?:cpu )?offload"
)


def _split_verdict(split: dict[str, Any] | None, fit_asked: bool = False) -> str:
    """The first words for an LLM that runs only with layers in system RAM, from how it runs:
    nearly all on the card at a reading pace is a yes; a slow split is not the card running it;
    a fit asked is a no, with how it runs after."""
    pace = ((split or {}).get("decode_tokens_per_s") or {}).get("typical") or 0.0
    share = (split or {}).get("gpu_layers", 0) / max((split or {}).get("layers") or 1, 1)
    if split and split.get("host_layers") == 0:  # only the token embeddings stay in RAM
        return "Yes: all its layers fit on the card, as llama.cpp runs it"
    if fit_asked and pace >= READING_TOK_S:
        return "No: it does not fit on the card alone; it runs with part of it in system RAM"
    if pace >= READING_TOK_S and share >= 0.9:
        return "Yes, nearly all of it on the card, the rest in system RAM"
    if pace >= READING_TOK_S:
        return "Yes, with part of it in system RAM (not on the card alone)"
    return "No: not on the card alone; only with part of it in system RAM, slowly"


def _runs_locally(query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef) -> bool:
    """One LLM on one desk or laptop card, run by one user with no format or server engine
    said: as people run it there (a GGUF in llama.cpp, layers in system RAM when needed)."""
    said = query.precision or model.precision
    gguf = said is None or bool(re.fullmatch(r"i?q\d\w*", said))  # "at 4 bit" on a desk: Q4_K_M
    if (not gguf or query.engine not in (None, "llama.cpp", "ollama")
            or (query.batch or 1) > 1 or _SERVED.search(query.low) or e["num_gpus"] != 1
            or e.get("family", "llm") != "llm" or e["workload"] != "inference"):  # fmt: skip
        return False
    sheet = box.call("gpu_specs", {"gpu": e["gpu"]})
    return "error" not in sheet and sheet.get("segment") in _LOCAL_SEGMENTS


# which of the setups is faster, asked: compared where each runs the model, in one format
_FASTER_ASKED = re.compile(r"\b(?:faster|quicker|slower|fastest|speedier)\b|\bmore (?:tok|tokens)")


def _four_bits_for_all(
    query: Query, box: ToolBox, results: list[dict[str, Any]], model: ModelRef
) -> list[dict[str, Any]] | None:
    """An LLM served in 16 bits that fits only some of the cards compared, with no format said:
    every card in the 4-bit format its engine runs (AWQ, or a Q4_K_M GGUF on llama.cpp), when that
    holds it on each; None otherwise."""
    first = results[0]
    if (query.precision or model.precision or first.get("family", "llm") != "llm"
            or first["workload"] != "inference"
            or first["precision"] not in ("bf16", "fp16")):  # fmt: skip
        return None
    four_bit = "q4_k_m" if first.get("engine") == "llama.cpp" else "awq"
    four = _estimates(replace(query, precision=four_bit), box, model)
    if any("error" in e or not e["fits"] for e in four):
        return None
    return four


def _on_the_one(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """A speed asked of an LLM on "an A10G" (one card said with its article) that 16 bits do not
    fit: the job in 4-bit AWQ on that card when that holds it, in place of more cards."""
    said_one = _one_card_said(query) or any(
        re.search(rf"\b(?:an?|my|our|the)\s+(?:nvidia\s+)?{re.escape(g.text.lower())}\b(?!s)",
                  query.low) for g in query.gpus)  # fmt: skip
    if (not said_one or e["fits"] or query.precision or model.precision or query.num_gpus
            or any(g.count for g in query.gpus) or e.get("family", "llm") != "llm"
            or e["workload"] != "inference" or query.engine not in (None, "vllm")):  # fmt: skip
        return None
    four = box.call("estimate", {**estimate_args(query, e["gpu"], 1, model), "precision": "awq"})
    return four if "error" not in four and four["fits"] else None


def _run_locally_note(e: dict[str, Any], four: dict[str, Any], several: bool = False) -> str:
    """Why the answer is in a 4-bit GGUF: what 16 bits would need."""
    card = e["gpu_name"] if e["gpu_name"].startswith("a ") else f"the {e['gpu_name']}"
    where = "fits none of them" if several else f"does not fit {card}"  # "a 12 GB GPU": no "the"
    engine = f" ({four['engine']})" if four.get("engine") else ""
    return (f"In {four['precision']}{engine}, as a model is run on such cards: "
            f"in {e['precision']} it needs {c.num(e['memory_per_gpu_gb'], 'GB')}"
            f"{' per GPU' if e['num_gpus'] > 1 else ''} and {where} (say the format if it "
            "differs).")  # fmt: skip


def _totals(box: ToolBox, results: list[dict[str, Any]]) -> list[str]:
    """Sets of several GPUs set against other sets ("8x A100 or 4x H100"): what each set has in
    all, memory and what decides the job (bandwidth to run a model, compute to train one)."""
    sets = list(dict.fromkeys((e["gpu"], e["num_gpus"]) for e in results))
    if len(sets) < 2 or all(n == 1 for _, n in sets):
        return []
    # split by layers, a model runs no faster on more cards: only memory adds up for inference
    fields = ("memory_gb",) if results[0]["workload"] == "inference" else (
        "memory_gb", "fp16_bf16_dense_tflops")  # fmt: skip
    lines = []
    for gpu, n in sets:
        sheet = box.call("gpu_specs", {"gpu": gpu, "num_gpus": n}) if n > 1 else {}
        line = c.totals_line(sheet, fields, bold=False) if sheet else None
        if line and "error" not in sheet:
            lines.append(line)
    return lines


# a question answered by yes or no: it opens with an auxiliary verb, or a clause of it does
# ("i have a 3060. will it handle ..."), or it ends by asking for a judgement ("good pick?")
YES_NO = re.compile(
    r"(?:^\u00bf?|[.!?;:|\n\U0001F300-\U0001FAFF\u2600-\u27BF]['\")]*\s+\u00bf?|\s[-\u2014]+\s+"
    r"|,\s+)(?:so\s+|and\s+|but\s+)?"
    r"(?:is|are|does|do|can|could|will"
    r"|would|should|has|have|(?:is|are|does|do|was|has)n['\u2019]?t)\s+(?!there\b)"
    # ("can you tell me how much ...": a request, not a yes or no)
    r"(?!(?:you|u|ya|someone|anyone)\s+(?:please\s+|pls\s+|plz\s+)?(?:tell|say|give|show|explain"
    r"|help|list|estimate|calculate|work out|check|compare|recommend|suggest)\b)\w+"
    r"|\b(?:good (?:pick|idea|choice|buy|option|deal)|worth it|viable|a thing|any good|"
    r"realistic(?:ally)?|feasible|possible|doable)\W*$"
    # "dumb q but is the 3060 ti faster", "... that's fine right?", "..., correct?"
    r"|\s(?:but|so)\s+(?:is|are|does|do|can|could|will|would|should)\s+(?!there\b)\w+"
    r"|\b(?:right|correct|true|yeah|yes|ok|okay|or not|or no|isn'?t it|won'?t it|doesn'?t it)\W*$"
    r"|\b(?:y/n|yes/no|yes or no)\b"  # "... just for faster tok/s? y/n", "yes or no first"
    # "... and whether that machine would produce text as quickly as I can read it"
    r"|\bwhether (?:it|that|this|the|my|our|a|an)\b[^.?!]{0,30}?\b(?:would|will|can|could)\s\w+"
    r"|\b(?:possible|doable|feasible|viable) or (?:nah|not|no)\b"  # "possible or nah"
    # a tag question before an aside: "... right? that's what my prof said" (not "which is
    # right? A or B")
    r"|^(?![^?]*\b(?:which|what)\b)[^?]*\b(?:right|correct|true)\s?\?(?=\s+\w)"
    # "good for 70b models? everyone hypes it": a judgement asked, whatever follows
    r"|^(?![^?]*\b(?:which|what)\b)[^?]*\b(?:good|ok|okay|fine|usable|viable) (?:for|enough)\b"
    r"[^.?!]{0,40}\?"
    # a yes or no asked in the order of a statement: "It will fit in the card and can reach this
    # speed?", "this card can run it?"
    r"|(?:^|[.!?]\s+)(?:it|this|that|the card|my card|this card)\s(?:will|can|would|could)\s"
    r"(?:fit|run|hold|handle|reach|do|work)\b[^.?!]{0,80}\?\s*$"
)


# "can it run X?", "is it usable?" ask the fit
_RUN_WORDS = re.compile(
    r"\b(?:run|fit|load|hold|handle|usable|workable|doable|feasible|possible)\b"
)


# the work a dollar buys decides, not the speed alone: "cheaply", "best value", "bang for buck"
VALUE_ASKED = re.compile(
    r"\bcheap(?:er|est|ly)?\b|\b(?:best |better |good )?value(?: for (?:the )?money)?\b"
    r"|\bbang for (?:the |your )?bucks?\b|\bcost[- ]?effective\b|\bper dollar\b"
    r"|\b(?:better|best) deal\b"
    r"|\bprice[- /]performance\b|\bperf(?:ormance)? per (?:\$|dollar)|コスパ|性价比|性價比"
)


def _value_asked(query: Query) -> bool:
    """The pick by the rent of a unit of work, unless the cost per token already leads, or the
    cards are to be bought and no renting is said ("the better deal if i buy second hand"):
    then what each costs to buy decides (_bought_value)."""
    bought = _cards_bought(query) and not (_RENT_SAID.search(query.low) or query.providers)
    return bool(VALUE_ASKED.search(query.low)) and not _per_token_asked(query) and not bought


def _cards_bought(query: Query) -> bool:
    """The cards are to be bought: said so, asked as a purchase, or second hand (no one rents a
    used card: "both going for cheap on ebay")."""
    return bool(query.buying or query.intent == "buy" or query.condition == "used"
                or query.gpu_purchase_prices or _BUY_WORDS.search(query.low))  # fmt: skip


# a claim of parity between two cards: "as good as a 3090", "as quick as the one big one", "the
# same as the desktop", "on par with"
# two setups asked to be level (not "as good as", which the better one also is): "so the same
# speed?", "on par with", "basically a 3090"
SAME_ASKED = re.compile(
    r"\b(?:the )?same (?:speed|performance|thing)\b|\bthe same as\b|\bon (?:a )?par with\b"
    r"|\bequally (?:fast|quick)\b|\bbasically (?:an?|the same as) "
)
SAME_WITHIN = 0.1  # two figures within a tenth of each other are "about the same"
PARITY_ASKED = re.compile(
    r"\b(?:as (?:good|fast|quick|capable|strong|powerful)|(?:just )?as well) as\b"
    r"|\bthe same (?:as|thing|speed|performance)\b|\bsame (?:speed|performance|thing)\b"
    r"|\bon (?:a )?par with\b"
    # "'also 32 GB in total, so the same'. is that really the same?"
    r"|\b(?:is|are) (?:that|it|this|they|those) (?:really |actually |truly )?the same\b"
)


def asks_pick(query: Query) -> bool:
    """ "8x A100 or 4x H100 for this, which one?": the question asks for one of several, not for
    a yes or a no."""
    low = query.low
    # "g4dn.xlarge or g6.xlarge?", "cheapest box for ...": one of the named options
    asked = r"\bwhich\b|\bwhat should\b|\bbetter\b|\bcheapest\b"
    two = len({g.ids for g in query.gpus if g.ids}) >= 2  # "16gb or 32gb?" of one card: no pick
    either = two and re.search(r"\bor\b(?:[^.?!]|\.(?=\w)){0,60}\?", low)  # "or g6e.12xlarge?"
    # "is 2x4090 or 1x A6000 better for 70b?", "L4 or T4 for serving whisper cheaply": a choice,
    # though worded as a yes-or-no question or left without its question mark
    chosen = two and re.search(
        # "comparing L40S and A100 80GB for serving ...", "how much faster is the H100 really"
        r"\bcompar(?:e|ing|ison)\b|\bvs\.?\b|\bversus\b|\bhow much (?:faster|quicker|slower)\b"
        r"|\bor\b[^.?!]{0,60}\b(?:better|faster|cheaper|best|preferable|the way to go)\b"
        # "is a P40 as good as a 3090?": the pick settles the claim, its yes or no said first
        rf"|{PARITY_ASKED.pattern}"
        # "is it dumb to buy two 4060 tis instead of one 4090?": one set against the other
        r"|\b(?:dumb|stupid|silly|crazy|a bad idea|a mistake|smart|wise)\b[^.?!]{0,80}"
        r"\b(?:instead of|rather than|over)\b"
        r"|^\W*(?:(?:is|are|should i (?:get|buy|rent|use)) )?(?:(?:an?|the|one|\d+ ?x) ?)?"
        r"(?:[a-z]+ )?[a-z]*\d+[\w-]*(?: \w{1,5})? or\b",
        low,
    )
    # ("both on finn.no for 5200 kr together": the pair's price, not "does it fit on both?")
    unpriced = re.sub(r"\bboth\b(?=(?:\s\S+){0,4}\s(?:for|at)\s[$\u20ac\u00a3]?\s?\d)", " ", low)
    if chosen and not re.search(r"\beach of\b|\bboth\b|\beither\b", unpriced):
        return True
    return not YES_NO.search(low) and bool(re.search(asked, low) or either)


# "how much, and can it hold a 70b?": the price asked beside the fit
_PRICE_ASKED = re.compile(
    r"\bhow much\b(?!\s+(?:vram|memory|ram|gpu memory|context|faster|slower|bigger|space|"
    r"headroom|room|time|longer|does it need|do i need))|\bprice[ds]?\b|\bcosts?\b|\bpricing\b"
)
_BUDGET_SAID = re.compile(
    r"\bon a (?:tight |small |low )?budget\b|\bbudget (?:card|gpu|build|pick)"
)
_BUY_WORDS = re.compile(r"\bbuy\w*|\bpurchas\w*|\bdesktop\b|\blaptop\b|\bmsrp\b|\bretail\b")


PRETRAIN_MAX_BATCH = 64  # sequences per GPU per step: llm.c's GPT-2 recipe runs 64 x 1,024
PRETRAIN_MIN_BATCH = 8  # below this without checkpointing, recompute to fit a fuller batch


def _pretraining_batch(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """How long a pre-training run takes, no batch given: at one sequence per GPU it would be
    mostly per-step overhead, so the estimate at the largest power-of-two batch up to
    PRETRAIN_MAX_BATCH that fits (the largest that fits at all when the usual batch does not)."""
    if "error" in e or query.batch or e.get("family", "llm") != "llm":
        return None
    if e["workload"] != "train":
        return None
    if not e["fits"]:  # "a 125M GPT from scratch on a 4090": the usual batch's logits too big
        found = _max_batch(box, estimate_args(query, e["gpu"], e["num_gpus"], model))
        if found is None:
            return None
        batch = 2 ** int(math.log2(int(found["solution"])))
        args = estimate_args(query, e["gpu"], e["num_gpus"], model)
        fuller = box.call("estimate", {**args, "batch": batch})
        return fuller if "error" not in fuller and fuller.get("fits") else None
    args = estimate_args(query, e["gpu"], e["num_gpus"], model)
    # pre-training keeps every activation when a useful batch fits so (no recompute pass);
    # a checkpointing option the question states is kept
    tries = [args] if "checkpointing" in args else [{**args, "checkpointing": False}, args]
    for tried in tries:
        found = _max_batch(box, tried)
        most = found["solution"] if found else None
        if most and (most >= PRETRAIN_MIN_BATCH or tried is tries[-1]) and most >= 2:
            batch = 2 ** int(math.log2(min(int(most), PRETRAIN_MAX_BATCH)))
            fuller = box.call("estimate", {**tried, "batch": batch})
            return fuller if "error" not in fuller and fuller.get("fits") else None
    return None


def _largest_batch(
    query: Query, box: ToolBox, e: dict[str, Any], model: ModelRef
) -> dict[str, Any] | None:
    """A batch the question did not give, too big for the GPU: the estimate at the largest
    batch that fits (an image or BERT-style model trains and runs at any batch)."""
    if "error" in e or e["fits"] or query.batch or e.get("family", "llm") == "llm":
        return None
    args = estimate_args(query, e["gpu"], e["num_gpus"], model)
    found = _max_batch(box, args)
    if found is None:
        return None
    # the largest power of two that fits, as batches are set, with the job's own arguments
    # (epochs, data set) that the solver does not take: its time follows
    batch = 2 ** int(math.log2(int(found["solution"])))
    estimate = box.call("estimate", {**args, "batch": batch})
    return estimate if "error" not in estimate and estimate.get("fits") else None


def _max_batch(box: ToolBox, args: dict[str, Any]) -> dict[str, Any] | None:
    """The solve tool's largest batch for an estimate's arguments; None when nothing fits."""
    found = box.call("solve", {**{k: v for k, v in args.items() if k in SOLVE_ARGS and
                                  k != "batch"}, "target": "max_batch"})  # fmt: skip
    return found if "error" not in found and found.get("solution") else None


def _at_user_price(query: Query, box: ToolBox, e: dict[str, Any]) -> str | None:
    """The job's cost at the price the user gives ("at $3.50 per GPU-hour"), from its time."""
    hours = (e.get("job_hours") or e.get("train_hours") or {}).get("typical")
    price = query.user_price_usd_per_hour
    if not (hours and price and e.get("fits")):
        return None
    per_node = query.price_per_node
    result = box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": hours,
                                      "num_gpus": 1 if per_node else e["num_gpus"]})  # fmt: skip
    if "error" in result:
        return None
    return c.user_priced(result, e["gpu_name"], node=e["num_gpus"] if per_node else None,
                         sign=query.currency).replace("**", "**At your price: ", 1)  # fmt: skip


# the KV cache asked about by name: "how much vram for the kv cache", "kv cache size at 128k"
_KV_ASKED = re.compile(
    r"\b(?:how (?:much|big|large)|size of|vram (?:for|of)|memory (?:for|of)|what(?:'s| is))\s"
    r"(?:(?:does|will|would|is) )?(?:the |its |a )?kv[- ]?cache\b"
    r"|\bkv[- ]?cache (?:size|footprint|memory|usage|alone|takes?|needs?|uses?|at|in)\b"
    r"|\bkv\b(?= (?:size|memory|for))|\bhow (?:much|big|large)\b[^.?!]{0,25}\bkv[- ]?cache\b"
)


def _kv_per_token(query: Query, box: ToolBox) -> Draft | None:
    """ "how much kv cache per token for qwen2.5 72b and for mixtral 8x22b": each model's bytes
    of KV cache a token, in 16 bits (its config's layers, KV heads and head size)."""
    if not (_KV_ASKED.search(query.low) or re.search(r"\bkv\b", query.low)) or not re.search(
            r"\bper token\b|\ba token\b|\beach token\b", query.low):  # fmt: skip
        return None
    lines = []
    for ref in [m for m in query.models if m.ids and (m.family or "llm") == "llm"][:4]:
        sheet = box.call("model_specs", {"model": ref.ids[0]})
        per = sheet.get("kv_cache_bytes_per_token_bf16") if "error" not in sheet else None
        if per:
            lines.append(f"{sheet['name']}: {c.num(per)} bytes a token in bf16")
    if not lines:
        return None
    text = (f"**KV cache per token: {'; '.join(lines)}.** Times the tokens of context and "
            "the sequences served at once; an FP8 (or q8_0) cache halves it.")  # fmt: skip
    users = query.concurrency or query.batch
    model = next((m for m in query.models if m.ids and (m.family or "llm") == "llm"), None)
    if users and query.context and model is not None:
        # "... per token, and for 16 users at 32k?": the cache of that many sequences that long
        e = box.call("estimate", estimate_args(query, REFERENCE_MEMORY, None, model))
        kv = (e.get("breakdown_gb") or {}).get("kv_cache") if "error" not in e else None
        if kv:
            text += (f"\n\n**For {users:,} sequences of {query.context:,} tokens: about "
                     f"{c.num(kv * e['num_gpus'], 'GB')} of KV cache** in "
                     f"{e.get('kv_cache_precision') or 'bf16'} ({e['model_name']}).")  # fmt: skip
    return Draft(text)


def _memory_needed(query: Query, box: ToolBox, model: ModelRef) -> Draft:
    """ "Peak VRAM of faster-whisper large-v2?": the memory the job needs, named by no GPU."""
    if (per_token := _kv_per_token(query, box)) is not None:
        return per_token
    e = box.call("estimate", estimate_args(query, REFERENCE_MEMORY, None, model))
    if "error" in e:
        return Draft(e["error"])
    lines = [c.memory_needed(e)]
    if (methods := _methods_weighed(query, box, model)) is not None:
        lines.insert(0, methods)
    kv = e["breakdown_gb"].get("kv_cache")
    if kv and _PER_USER.search(query.low) and e["workload"] == "inference":
        # "memory per concurrent user with 8k context?": each user's KV cache, beside the weights
        weights = e["breakdown_gb"].get("weights", 0.0)
        lines.insert(0, f"**About {c.num(kv / e['batch'], 'GB')} per user**: the KV cache of one "
                        f"{e['context']:,}-token conversation, on top of "
                        f"{c.num(weights, 'GB')} of weights held once.")  # fmt: skip
    elif kv and _KV_ASKED.search(query.low) and e["workload"] == "inference":
        # "how much vram for the kv cache at 128k?": the cache first, the whole beside it
        held = "one sequence" if e["batch"] == 1 else f"{e['batch']} sequences"
        typed = f" in {query.kv_cache}" if query.kv_cache else ""
        lines.insert(0, f"**The KV cache takes about {c.num(kv, 'GB')}{typed}** for {held} of "
                        f"{e['context']:,} tokens ({e['precision']} weights beside it; the whole "
                        f"job below).")  # fmt: skip
    if (
        e.get("family", "llm") == "llm"
        and e["workload"] == "inference"
        and e["precision"] in ("bf16", "fp16", "fp32")
    ):
        # the 4-bit format the message names beside the 16 bits ("full 16-bit and the smaller
        # Q4_K_M people mention"), else AWQ
        named = re.search(r"\bq4_k_m\b|\bq4\b|\bgguf\b|\bollama\b|\bllama\.cpp\b", query.low)
        fmt = "q4_k_m" if named else "awq"
        four = box.call("estimate", {**estimate_args(query, REFERENCE_MEMORY, None, model),
                                     "precision": fmt})  # fmt: skip
        if "error" not in four:
            label = c.FORMAT_LABELS.get(fmt, fmt.upper())
            weights = four["breakdown_gb"].get("weights")
            held = f" ({c.num(weights, 'GB')} of it weights)" if weights else ""
            lines.append(f"In {label} it needs about {c.num(four['memory_per_gpu_gb'], 'GB')}"
                         f"{held}.")  # fmt: skip
    workload, _ = workload_of(query)
    args = {"model": model_arg(model), "workload": workload, "top": 3, "batch": e["batch"],
            "precision": e["precision"]}  # fmt: skip
    for key in ("context", "resolution", "steps"):  # the cards that hold the job sized above
        if e.get(key) and (key != "context" or e.get("family", "llm") in ("llm", "transformer")):
            args[key] = e[key]
    picks = box.call("recommend_gpus", args)
    if picks.get("ranked"):
        lines.append(c.holders(picks))
    return Draft("\n\n".join(lines))


# fine-tuning methods named to be weighed: "lora vs full", "qlora or lora", "full ft vs qlora"
_METHOD_WORDS = {
    "finetune-qlora": r"\bq-?lora\b",
    "finetune-lora": r"(?<![q-])\blora\b",
    "finetune-full": r"\bfull(?:[- ](?:fine-?tun\w*|ft|param\w*|weights?))?\b",
}
_WEIGHED = re.compile(r"\bvs\.?\b|\bversus\b|\bcompar\w*|\bdifference\b|\bagainst\b|\bor\b")


def _methods_weighed(query: Query, box: ToolBox, model: ModelRef) -> str | None:
    """ "lora vs full finetune mistral 7b, memory difference?": each fine-tuning method named,
    its memory beside the others', in the order said (the first's breakdown follows)."""
    if not (_WEIGHED.search(query.low) and (model.family or "llm") == "llm"):
        return None
    said = sorted((m.start(), name) for name, pattern in _METHOD_WORDS.items()
                  if (m := re.search(pattern, query.low)))  # fmt: skip
    if len(said) < 2:
        return None
    parts = []
    for _at, workload in said:
        args = {**estimate_args(query, REFERENCE_MEMORY, None, model), "workload": workload}
        args.pop("precision", None)  # each method's own format: QLoRA's 4-bit base
        e = box.call("estimate", args)
        if "error" in e:
            return None
        parts.append(f"{c.workload_label(e)} about {c.num(e['memory_per_gpu_gb'], 'GB')}")
    head = "; ".join(parts)
    return (
        f"**{e['model_name']}: {head[0].upper()}{head[1:]}** (context "
        f"{e['context']:,}, batch {e['batch']}; the first one's parts below)."
    )


_PER_USER = re.compile(
    r"\bper (?:concurrent |simultaneous |active )?(?:user|request|session|conversation|chat"
    r"|sequence|stream)\b|\beach (?:additional |extra )?(?:user|request|session|conversation)\b"
)


def _weights_gb(e: dict[str, Any]) -> float:
    """A model's weights in an estimate (its whole peak where no weights are broken out)."""
    return float(e["breakdown_gb"].get("weights", e["memory_per_gpu_gb"]))


def _pipeline_weights_gb(e: dict[str, Any]) -> float:
    """An image pipeline's weights: its denoiser, text encoders and VAE."""
    parts = e["breakdown_gb"]
    return float(sum(parts.get(k, 0.0) for k in ("denoiser", "text_encoders", "vae")))


def models_memory(query: Query, box: ToolBox) -> Draft:
    """ "Is distil-large-v3 about half the size of large-v3 in GPU memory?": each model's weights
    and peak on any GPU, the first against the second; yes or no when a half or a double was
    claimed (within a fifth of it)."""
    estimates = []
    for model in query.models[:MAX_GPUS_PER_ANSWER]:
        e = box.call("estimate", estimate_args(query, REFERENCE_MEMORY, None, model))
        if "error" in e:
            return Draft(e["error"])
        estimates.append(e)
    low = query.low
    which = _WHICH_MORE.search(low)
    if which:  # "which takes less memory?": the answer's model named first
        estimates.sort(key=_weights_gb, reverse=bool(which.group(1)))
    a, b = estimates[0], estimates[1]
    weights = [_weights_gb(e) for e in (a, b)]
    ratio = weights[0] / weights[1] if weights[1] else 0.0
    claim = re.search(r"\b(half|twice|double)\b|\b(bigger|larger|heavier)\b|\b(smaller|lighter)\b",
                      low)  # fmt: skip
    said = ""
    if claim and YES_NO.search(low):
        if claim.group(1):  # a half or a double, within a fifth of it
            want = 0.5 if claim.group(1) == "half" else 2.0
            yes = abs(ratio / want - 1) <= 0.2
        else:
            yes = ratio > 1 if claim.group(2) else ratio < 1
        said = "Yes: " if yes else "No: "
    head = (f"**{said}{a['model_name']} weighs {c.num(weights[0], 'GB')} against "
            f"{c.num(weights[1], 'GB')} for {b['model_name']} ({c.num(ratio)}x)**, "
            f"in {a['precision']}.")  # fmt: skip
    return Draft("\n\n".join([head, *(c.memory_needed(e) for e in estimates)]))


# a job's speed asked of "it" or in tokens, with no model named: "how fast would it run on my
# 4090?", "tokens per second on an a100?"
_JOB_UNNAMED = re.compile(
    r"\b(?:would|will|does|can|could) (?:it|this|that|mine) (?:run|go|do|generate|be)\b"
    r"|\btokens? (?:per|a|/) ?s(?:ec(?:ond)?)?\b|\btok/s\b|\bt/s\b"
)


def speed(query: Query, box: ToolBox) -> Draft:
    if carried := _measured_elsewhere(query, box) or _steps_carried(query, box):
        return carried  # "35 tok/s on our L40S: and on an H100?"
    if (_COST_WORDS.search(query.low) and not query.user_price_usd_per_hour
            and (loaded := _load_on_each(query, box)) is not None):  # fmt: skip
        return loaded  # "cheaper to serve mistral 7b at 15 req/s: l40s or a100?": each fleet
    if HOW_LONG.search(query.low) and (made := _tokens_generated(query, box, time_first=True)):
        return made  # "how long to generate 100k samples of 400 tokens on 8x h100"
    if (mixed := _mixed_pair(query, box)) is not None:
        return mixed  # "tok/s for a 70b on my 4090 plus a 3090?"
    if (engines := _engines_weighed(query, box)) is not None:
        return engines  # "TensorRT-LLM vs vLLM for llama 3 8b on an H100 at batch 64?"
    if (query.cpu_only and len(query.gpus) == 1 and query.models
            and (query.models[0].family or "llm") in ON_THE_CPU
            and query.workload in (None, "inference")):  # fmt: skip
        return fit(query, box)  # "faster-whisper on a 16-core CPU vs a T4": the CPU beside it
    if (made := _made_at_your_pace(query, box)) is not None:
        return made  # "2,400 tok/s in aggregate: how many tokens in a 30-day month?"
    if query.throughput_tok_s and query.output_tokens:  # "~18 tok/s; 2M tokens out: hours?"
        return _tokens_at_your_pace(query, box, query.output_tokens, query.throughput_tok_s)
    if query.seconds_per_item and _paced_items(query) and not query.models:
        return job_time(query, box)  # "6 frames per second; a 14-minute clip at 24 fps"
    if not query.models:  # "would moving to the 4500 Ada be a speed-up?": the cards side by side
        if len(gpus_named(query)) >= 2:
            return compare(query, box)
        if query.gpus and not query.fields and _JOB_UNNAMED.search(query.low):
            # "how fast would it run on my 4090?": a job's speed, and no job named to time
            return Draft("Which model? Name it (and how you run it) and I will give its speed "
                         "on the card.")  # fmt: skip
        return spec(query, box) if query.gpus else explain(query, box)
    judged = len(query.gpus) == 1 and all(m.assumed and m.family == "llm" for m in query.models)
    if judged and _JUDGED_FOR.search(query.low):
        return advice(query, box)  # "is the L4 any good for LLMs, or too slow?": its profile
    per_step = _ITERATIONS_SAID.search(query.low)  # "0.1 s/it": a sampler step's, no item's
    # "1.2 s/it with flux dev: 100 images?": an image is its sampler's steps at that pace
    imaged = query.images and query.models and query.models[0].family == "diffusion"
    if per_step and imaged and (paced := _image_at_step_pace(query, box, per_step)) is not None:
        return job_time(paced, box)
    if (query.seconds_per_item and not per_step) or query.user_price_usd_per_hour:
        return job_time(query, box)  # a pace or a price of theirs
    streams = _streams_kept_up(query, box)
    if streams is not None:  # "16 cameras at 30 fps: will one T4 keep up?"
        return streams
    if (more := _one_more_card(query, box)) is not None:
        return more  # "70b q4 on 2x 4090 at 18 tok/s: would a third one help?"
    if (due := _deadline_judged(query, box)) is not None:
        return due  # "5000 images by friday, 3 days from now: doable?"
    if (sized := _on_cards_of_that_memory(query, box, speed, "speed")) is not None:
        return sized  # "flux dev on a 12gb card: how slow per image?"
    draft = fit(query, box, speed_first=True)
    judged_speed = _measured_here(query, box)
    if judged_speed:  # "18 tok/s on my 3060: is that normal?": their figure against the estimate
        draft.text = f"{judged_speed}\n\n{draft.text}"
    return draft


# one card more than the user has: "would adding a third one help", "is another 3090 worth it"
_ONE_MORE = re.compile(
    r"\b(?:add(?:ing)?|buy(?:ing)?|get(?:ting)?|throw(?:ing)? in|put(?:ting)?|stick(?:ing)?"
    r"|slap(?:ping)?)\s(?:in\s)?(?:a\s)?(?:second|2nd|third|fourth|fifth|another|one more|an extra"
    r"|a 3rd|a 4th)\b"
    r"|\b(?:a\s)?(?:third|fourth|3rd|4th) (?:one|card|gpu)\b"
    r"|\bone more (?:card|gpu)\b|\banother (?:card|gpu|one)\b"
)


def _one_more_card(query: Query, box: ToolBox) -> Draft | None:
    """ "running a 70B q4 on 2x 4090 at 18 tok/s: would a third help?": the estimate on one card
    more against the cards said, with the user's own figure beside it."""
    ref = query.gpus[0] if len(query.gpus) == 1 else None
    if not (ref and ref.ids and query.models and _ONE_MORE.search(query.low)):
        return None
    have, model, gpu = ref.count or 1, query.models[0], gpu_choices(ref)[0]
    if have == 2 and re.search(r"\b(?:second|2nd)\b", query.low):
        have = 1  # "put a second 3090 in": the one held, and one more
    # (a model run at home with no format said: as people run it there, a 4-bit GGUF)
    sized = query if query.engine else sized_at_home(query, model)
    now, more = (
        box.call("estimate", estimate_args(sized, gpu, n, model)) for n in (have, have + 1)
    )
    if "error" in now or "error" in more or not more.get("fits"):
        return None
    rate = c.metrics_of(more)[:1]
    before = c.metrics_of(now)[:1] if now.get("fits") else []
    if not rate:
        return None
    label, band, unit = rate[0]
    gain = band["typical"] / before[0][1]["typical"] if before else None
    where = c.gpus_phrase(have + 1, more["gpu_name"])
    if gain is None:
        head = f"**Yes: {more['model_name']} fits on {where}, which it does not on {have}**"
    elif gain < 1.1:
        no = (
            "No, little"
            if re.search(r"\b(?:true|false|twice|double|2x)\b", query.low)
            else "Little"
        )
        head = (f"**{no} for speed: about {c.num(band['typical'], unit)} on {where} against "
                f"{c.num(before[0][1]['typical'], unit)} on {have}** ({label})")  # fmt: skip
    else:
        head = (
            f"**Yes: about {c.num(band['typical'], unit)} on {where} against "
            f"{c.num(before[0][1]['typical'], unit)} on {have} ({c.num(gain)}x)** ({label})"
        )
    yours = (f" Your measured {c.num(query.throughput_tok_s, 'tokens/s')} on {have} would change "
             "by about the same ratio." if query.throughput_tok_s and gain else "")  # fmt: skip
    why = (" Split by layers (llama.cpp, ollama), each token still passes through every card in "
           "turn, so a card more adds memory (room for a longer context or a larger quant), not "
           "speed; tensor parallel (vLLM, exllamav2) splits each layer and can speed it up."
           if more.get("engine") == "llama.cpp" else "")  # fmt: skip
    return Draft(f"{head} ({c.settings(more)}).{yours}{why}", cite_more=False)


# how many live streams one card takes: "how many streams per L4?", "how many cameras can it do"
_STREAMS_ASKED = re.compile(r"\bhow many (?:\w+ )?(?:streams?|cameras?|cams|feeds?)\b")
# "16 camera streams at 30fps", "8 feeds @ 25 fps each"
_STREAMS_AT = re.compile(
    r"(\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|twenty)\s"
    r"(?:\w+\s){0,2}?(?:streams?|cameras?|feeds?|cams?)\b(?:[^.?!\d]{0,20}?"
    r"(\d+(?:\.\d+)?)\s?(?:fps|frames? (?:a|per) second))?"
)
# live video said with no frame rate: "realtime on 4 camera streams"
_LIVE = re.compile(r"\breal[- ]?time\b|\blive\b|\bkeep up\b")
LIVE_FPS = 30.0  # frames a second of a camera stream when none is said
# a frame rate said: "30fps", "10 frames a second"
_FPS_SAID = re.compile(r"\b(\d+(?:\.\d+)?)\s?(?:fps|frames? (?:a|per) second)\b")
_ONE_STREAM_AT = re.compile(
    r"(?=.*\b(?:real[- ]?time|live|feed|video|stream|camera|cam|webcam|footage)\b).*?"
    + _FPS_SAID.pattern
)


_STREAM_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "twenty": 20}  # fmt: skip


def _streams_at_your_pace(query: Query, box: ToolBox, streams: int, fps: float) -> Draft | None:
    """ "Our engine takes 21 ms per frame, one at a time; a second camera, both at 30 fps: does
    one Orin keep up?": the frames a second the user's own time per frame makes, against what
    the streams need (the stream_load tool), with nothing batched."""
    each = query.seconds_per_item or 0.0
    load = box.call("stream_load", {"rate_per_s": 1 / each, "streams": streams,
                                    "per_stream_per_s": fps})  # fmt: skip
    if "error" in load:
        return None
    verdict = "Yes" if load["keeps_up"] else "No"
    where = _said(query.gpus[0]) if query.gpus else "the card"
    if _STREAMS_ASKED.search(query.low):  # "how many streams per L4?": the count leads
        return Draft(
            f"**About {c.num(load['streams_served'])} streams at {c.num(fps)} fps on one "
            f"{where}, at your own measured pace**: it processes about "
            f"{c.num(load['rate_per_s'])} frames a second one at a time.",
            cite_more=False,
        )
    return Draft(
        f"**{verdict}: at your own measured pace, one {where} "
        f"processes about {c.num(load['rate_per_s'])} frames a second one at a time, against the "
        f"{c.num(load['needed_per_s'])} that {streams} streams at {c.num(fps)} fps need; it keeps "
        f"up with {c.num(load['streams_served'])} of them.**",
        cite_more=False,
    )


def _streams_kept_up(query: Query, box: ToolBox) -> Draft | None:
    """Live video into an image model ("16 camera streams at 30 fps, will a T4 keep up?"): the
    card's throughput with a frame of each stream batched together, against the frames a
    second the streams need (the stream_load tool)."""
    # ("don't need 30fps, even ~10 fps would be plenty": the rate set aside is not the one)
    low = re.sub(r"\b(?:don'?t|do not|doesn'?t|does not|no) (?:really )?(?:need|require|want)\w* "
                 r"(?:the )?(?:full )?\d+(?:\.\d+)? ?fps\b", " ", query.low)  # fmt: skip
    said = _STREAMS_AT.search(low)
    model = query.models[0] if query.models else None
    # "yolo realtime at 30fps on a 1080p feed": one stream at the rate said ("YOLOv8m on a
    # Jetson: can we sustain 30 FPS?": frames a second of a vision model are a stream's)
    one = (
        None
        if said
        else _ONE_STREAM_AT.search(low)
        or (_FPS_SAID.search(low) if model is not None and model.family == "vision" else None)
    )
    if not ((said or one) and model and model.ids and len(query.gpus) == 1):
        return None
    if said and not said.group(2) and not _LIVE.search(query.low):
        return None
    word = said.group(1) if said else "1"
    streams = int(word) if word.isdigit() else _STREAM_WORDS[word]
    fps = float((said.group(2) if said else one.group(1) if one else None) or LIVE_FPS)
    ref = query.gpus[0]
    if query.seconds_per_item and query.seconds_per_item < 1:  # "takes 21 ms per frame"
        return _streams_at_your_pace(query, box, max(streams, query.concurrency or 1), fps)
    args = {**estimate_args(query, gpu_choices(ref)[0], ref.count, model), "batch": streams}
    e = box.call("estimate", args)
    rate = (e.get("infer_samples_per_s") or {}).get("typical") if "error" not in e else None
    if not rate or not e["fits"]:
        return None
    load = box.call("stream_load", {"rate_per_s": rate, "streams": streams,
                                    "per_stream_per_s": fps})  # fmt: skip
    if "error" in load:
        return None
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    verdict = "Yes" if load["keeps_up"] else "No"
    if streams == 1:
        head = (f"**{verdict}: {where} runs {e['model_name']} at about "
                f"{c.num(rate, 'images/s')}, against the {c.num(fps)} frames a second of the "
                f"stream** ({c.settings(e)}).")  # fmt: skip
    else:
        head = (f"**{verdict}: {where} runs {e['model_name']} at about "
                f"{c.num(rate, 'images/s')} with a frame of each of the {streams} streams "
                f"batched together, against the {c.num(load['needed_per_s'])} frames a second "
                f"{streams} streams at {c.num(fps)} fps need; it keeps up with about "
                f"{c.num(load['streams_served'])} of them** "
                f"({c.settings(e)}).")  # fmt: skip
    lines = [head, c.memory_line(e)]
    if said and not said.group(2):
        lines.append(f"Assumed, as the question did not say: {c.num(LIVE_FPS)} frames a second "
                     "per stream.")  # fmt: skip
    if not load["keeps_up"] and e.get("engine") == "tensorrt":
        lines.append("A lower frame rate per stream, a smaller input size, int8 instead of fp16 "
                     "or a smaller model raises what one card keeps up with.")  # fmt: skip
    elif not load["keeps_up"]:
        lines.append("A lower frame rate per stream, a smaller input size, or an inference "
                     "engine such as TensorRT in fp16 or int8 raises what one card keeps up "
                     "with; the estimate is for PyTorch.")  # fmt: skip
    return Draft("\n\n".join(lines))


# "is that normal / expected / too slow / something wrong?": a measured figure to be judged
_NORMAL_ASKED = re.compile(
    r"\bnormal\b|\bexpected\b|\breasonable\b|\btypical\b|\btoo (?:slow|low)\b|\bsomething wrong\b"
    r"|\b(?:sound|look|seem)s? (?:right|ok|okay|low|slow)\b"
    r"|\bis (?:that|this|it) (?:good|ok|okay|right|low|slow|fine|decent|bad|expected)\b"
    r"|\bshould (?:i|we) (?:be )?(?:get|expect|see)\w*\b|\bmisconfigur\w*|\bbottleneck\w*"
    # a complaint is a question too: "super slow, like 2 tok/s", "crawls"
    r"|\b(?:super|really|so|very|painfully|extremely|way too|unbearably|insanely) slow\b"
    r"|\bcrawl\w*|\bsluggish\b|\bslow as\b"
    # a figure claimed, judged: "is that even physically possible?", "realistic?", "is it broken"
    r"|\b(?:physically |even |actually |really )*(?:possible|plausible|realistic|believable"
    r"|legit)\b"
    r"|\b(?:broken|faulty|defective)\b"
)
# a figure someone else reports ("a youtube short claims", "my friend says"): "that", not "your"
_THEIR_FIGURE = re.compile(
    r"\bclaim\w*|\bsays?\b|\bsaid\b|\bvideo\b|\byoutube\w*|\btiktok|\bshorts?\b|\breddit\b"
    r"|\bsomeone\b|\bfriend\b|\bposted\b"
)


# how far outside the estimate's band a figure the user says may lie: rounded as read off a
# screen, and measured with some context already in the cache (llama.cpp's decode falls by a
# tenth or more as the cache fills)
SAID_SLACK = 0.2
FAR_ABOVE = 3.0  # a speed this many times the band's top is no run of the job said


def _measured_here(query: Query, box: ToolBox) -> str | None:
    """ "I get 18 tok/s on Llama 3 8B q8 with my 3060: normal?": the user's decode or training
    speed on the one card named, set against the estimate's range for the same job."""
    steps = _ITERATIONS_SAID.search(query.low)
    if steps and len(query.gpus) == 1 and query.models and _NORMAL_ASKED.search(query.low):
        return _steps_measured(query, box, steps)
    said = query.throughput_tok_s
    if not (said and len(query.gpus) == 1 and query.models and _NORMAL_ASKED.search(query.low)):
        return None
    if re.search(r"\bprompt\b|\bprefill\b|\bpp\d*\b|\bprocessing\b|\bingest", query.low):
        return None  # a prompt-processing figure is no decode speed
    model = query.models[0]
    if (model.family or "llm") != "llm":
        return None
    ref = query.gpus[0]
    args = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    e = box.call("estimate", args)
    sheet = box.call("gpu_specs", {"gpu": args["gpu"]})
    desk = query.engine is None and sheet.get("segment") in _LOCAL_SEGMENTS  # as run there
    local = (query.engine in ("llama.cpp", "ollama") or desk) and args.get(
        "workload"
    ) == "inference"
    if local and "error" not in e and not e["fits"]:  # "ollama, 70B on my 3060": as it runs, split
        e = box.call("estimate", {**args, "offload": "layers", "engine": "llama.cpp"})
    key = "decode_tokens_per_s" if e.get("workload") == "inference" else "train_tokens_per_s"
    band = e.get(key) if "error" not in e and e.get("fits") else None
    if not band:
        return None
    what = f"{e['model_name']} on {c.gpus_phrase(e['num_gpus'], e['gpu_name'])} ({c.settings(e)})"
    expected = f"the estimate for {what}: {c.band(band, 'tokens/s')}"
    # a figure people read off a screen and round ("like 2 tok/s"), SAID_SLACK either side
    if said < band["low"] * (1 - SAID_SLACK):
        causes = (
            " Common causes: layers left on the CPU (llama.cpp -ngl below the model's "
            "layers, or ollama offloading), a long context already in the cache, another "
            "program on the GPU, a power or thermal limit, or a PCIe slot with few lanes."
            if key == "decode_tokens_per_s"
            else " Common causes: a data loader that cannot keep up, gradient checkpointing or "
            "offload turned on, short sequences padded to a long length, or a power limit."
        )
        return f"**Your {c.num(said, 'tokens/s')} is low: below {expected}.**{causes}"
    # one stream's ceiling: every weight read once a token at the card's full bandwidth
    weights = (e.get("breakdown_gb") or {}).get("weights")
    top = (box.call("decode_ceiling", {"bandwidth_gbs": e["gpu_bandwidth_gbs"], "read_gb": weights})
           if weights and key == "decode_tokens_per_s" and e["num_gpus"] == 1
           and not e.get("host_layers") else {})  # fmt: skip
    most = top.get("tokens_per_s") if "error" not in top else None
    if said > band["high"] * FAR_ABOVE or (most and said > most):
        # "40 tok/s for a 70B q4 on one 4090", "a video claims 150 tok/s on a 3060": not that run
        whose = "that" if _THEIR_FIGURE.search(query.low) else "your"
        ceiling = (f" Decoding one stream reads every weight once a token: "
                   f"{c.num(e['gpu_bandwidth_gbs'], 'GB/s')} over {c.num(weights, 'GB')} of "
                   f"weights allows at most {c.num(most, 'tokens/s')} on this card."
                   if most else "")  # fmt: skip
        return (
            f"**No: {whose} {c.num(said, 'tokens/s')} is far above {expected}**: more than this "
            "card can read the weights for, so the run is likely not this model as said (a "
            "smaller model or a lower quant loaded; check what is loaded, e.g. `ollama ps`), or "
            f"the figure counts prompt processing or several requests together.{ceiling}"
        )
    if said > band["high"] * (1 + SAID_SLACK):
        return (
            f"**Your {c.num(said, 'tokens/s')} is above the range {expected}**: nothing wrong, "
            "or it counts several requests together (the estimate is one stream's)."
        )
    why = ""
    if e.get("gpu_layers") is not None and e.get("host_layers"):
        # "ollama 70b on my 4090 is super slow": the split sets the pace
        why = (f" {e['host_layers']} of its {e['layers']} layers sit in system RAM and run on the "
               "CPU, which reads them from RAM for every token: that sets the pace. Faster takes "
               "more GPU memory (a second card holds all the layers), a smaller quant, or a "
               "smaller model.")  # fmt: skip
    # (a small whole figure is rounded: "approx 3 tokens/s" may be 3.4)
    rounding = 0.5 if said == int(said) and said < 20 else 0.0
    if said + rounding < band["low"] * (1 - SAID_SLACK / 2):
        # "my 4070 gets 35 tok/s on an 8B q8, normal?": a little under
        return (f"**Close, a little below: your {c.num(said, 'tokens/s')} is under {expected}.** "
                "A long context already in the cache, a power or thermal limit, or the engine's "
                f"version covers that much.{why}")  # fmt: skip
    if not YES_NO.search(query.low):  # "super slow, like 2 tok/s": no question to say yes to
        return (f"**That is expected: {c.num(said, 'tokens/s')} is in the range of {expected}.**"
                f"{why}")  # fmt: skip
    return f"**Yes, {c.num(said, 'tokens/s')} is normal: {expected}.**{why}"


# a sampler's pace the user got: "2.5 it/s", "1.3 s/it"
_ITERATIONS_SAID = re.compile(
    r"(\d+(?:\.\d+)?)\s?(?:(it/s|its/s|iterations? (?:per|a) second)|(s/it|sec/it))\b"
)


def _steps_per_second(said: re.Match[str]) -> float:
    """A pace from _ITERATIONS_SAID in it/s ("1.3 s/it" is its inverse; 0 stays 0)."""
    rate = float(said.group(1))
    return 1 / rate if said.group(3) and rate else rate


def _image_at_step_pace(query: Query, box: ToolBox, said: re.Match[str]) -> Query | None:
    """The question with its seconds an image: the user's seconds a sampler step times the
    steps of an image (said, else the model's default)."""
    pace = _steps_per_second(said)
    step_s = 1 / pace if pace else 0.0
    gpu = gpu_choices(query.gpus[0])[0] if query.gpus else REFERENCE_MEMORY
    e = box.call("estimate", estimate_args(query, gpu, None, query.models[0]))
    steps = _sampler_steps(query) or (e.get("steps") if "error" not in e else None)
    if not steps or not step_s:
        return None
    return replace(query, seconds_per_item=step_s * steps)


def _as_held(query: Query, box: ToolBox, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """An image model's estimate as a card that runs it holds it, and how ("" as asked): the
    components moved to the CPU in turn (ComfyUI and the web UIs do so by themselves), else
    8-bit weights."""
    e, held = box.call("estimate", args), ""
    for how, alt in (
        ("with model CPU offload", {"offload": "model"}),
        ("in fp8", {"precision": "fp8"}),
    ):
        if "error" in e or e.get("fits") or query.offload or query.precision:
            break
        e, held = box.call("estimate", {**args, **alt}), f" {how}, as the card holds it"
    return e, held


def _owned(query: Query, refs: list[GpuRef]) -> list[GpuRef]:
    """The cards the user says are theirs ("my 3090", "our old L40S")."""
    low = query.low
    # ("we only have 1 PC with an RTX 4090": the card of the machine said to be had)
    mine = (
        r"(?:\b(?:my|our)\s(?:[\w-]+\s)?"
        r"|\b(?:i|we) (?:only |just |already )?(?:have|own|got|use|run)\b[^.?!,;]{0,30}?\s)"
    )
    return [r for r in refs if re.search(mine + re.escape(r.text.lower()), low)]


# a pace wanted, beside the one measured: "could a 4070 get me to like 5 it/s?"
_RATE_WANTED = re.compile(
    r"\b(?:get|reach|hit|do|make|bring)\b[^.?!]{0,15}?\b(?:to\s)?(?:like\s|about\s|around\s"
    r"|~\s?)?(\d+(?:\.\d+)?)\s?it/s"
)


def _steps_carried(query: Query, box: ToolBox) -> Draft | None:
    """ "I get 2.1 it/s on my old 2080: a 3090 or a 4070 Ti Super, at least 3x faster?": the
    user's denoising pace carried to each other card by the calculator's ratio for that image
    model, against the multiple wanted."""
    said = _ITERATIONS_SAID.search(query.low)
    model = query.models[0] if query.models else None
    if said is None or model is None or model.family != "diffusion" or len(query.gpus) < 2:
        return None
    owned = _owned(query, [r for r in query.gpus if r.ids])
    if len(owned) != 1:
        return None
    others = [r for r in query.gpus if r.ids and r is not owned[0]][:4]
    # the user runs it, so the card's pace is taken as estimated, whether or not the estimate
    # holds it in its memory (the web UIs offload and slice by themselves)
    mine = box.call("estimate", estimate_args(query, gpu_choices(owned[0])[0], None, model))
    if "error" in mine or not mine.get("it_per_s"):
        return None
    rate = _steps_per_second(said)
    times = multiple_asked(query.low)
    # (after the pace measured: "i get 1.2 it/s ... could a 4070 get me to like 5 it/s?")
    wanted = [
        float(m.group(1)) for m in _RATE_WANTED.finditer(query.low) if m.start() >= said.end()
    ]
    target = wanted[-1] if times is None and wanted and rate and wanted[-1] > rate else None
    rows = []
    for ref in others:
        e, how = _as_held(query, box, estimate_args(query, gpu_choices(ref)[0], None, model))
        if "error" in e or not e.get("fits") or not e.get("it_per_s"):
            continue
        pace = {"measured": rate, "from_rate": mine["it_per_s"]["typical"],
                "to_rate": e["it_per_s"]["typical"]}  # fmt: skip
        carried = box.call("carried_measurement", pace)
        rows.append((carried["ratio"], e, how, carried["value"]))
    if not rows:
        return None
    rows.sort(key=lambda r: -r[0])
    each = "; ".join(f"the {e['gpu_name']}{how} about {c.num(value, 'it/s')} "
                     f"({c.num(ratio)}x)" for ratio, e, how, value in rows)  # fmt: skip
    best_ratio, best, _, _ = rows[0]
    if target is not None:  # "get me to like 5 it/s": the pace wanted, reached or not
        reach = rate * best_ratio >= target * 0.95
        verdict, how = ("Yes", "reaching") if reach else ("No", "short of")
        head = f"**{verdict}: {each}, {how} the {c.num(target, 'it/s')} you want**"
    elif times is None:
        head = f"**Pick the {best['gpu_name']}: {each}**"
    elif best_ratio >= times:
        good = [e["gpu_name"] for ratio, e, *_ in rows if ratio >= times]
        head = (f"**Yes: {' and '.join(good)} reach{'es' if len(good) == 1 else ''} "
                f"{c.num(times)}x your {c.num(rate, 'it/s')} ({c.num(rate * times, 'it/s')}): "
                f"{each}**")  # fmt: skip
    else:
        head = (f"**No: neither reaches {c.num(times)}x your {c.num(rate, 'it/s')} "
                f"({c.num(rate * times, 'it/s')}): {each}**")  # fmt: skip
    return Draft(
        f"{head}, your {c.num(rate, 'it/s')} on the {mine['gpu_name']} carried over by the "
        "calculator's "
        f"ratio of the cards' denoising speeds for {mine['model_name']} ({c.settings(mine)})."
    )


def _steps_measured(query: Query, box: ToolBox, said: re.Match[str]) -> str | None:
    """ "my 3090 gets 2.5 it/s on SDXL at 1024, normal?": the user's denoising pace against the
    estimate's range for that image model and size on that card."""
    model = query.models[0]
    if model.family != "diffusion":
        return None
    ref = query.gpus[0]
    e, held = _as_held(query, box, estimate_args(query, gpu_choices(ref)[0], ref.count, model))
    band = e.get("it_per_s") if "error" not in e and e.get("fits") else None
    if not band:
        return None
    rate = _steps_per_second(said)
    what = (f"{e['model_name']} on {c.gpus_phrase(e['num_gpus'], e['gpu_name'])}{held} "
            f"({c.settings(e)})")  # fmt: skip
    expected = f"the estimate for {what}: {c.band(band, 'it/s')}"
    if rate < band["low"]:
        low = "a little low" if rate >= 0.85 * band["low"] else "low"
        return (f"**Your {c.num(rate, 'it/s')} is {low}: below {expected}.** Common causes: no "
                "memory-efficient attention (SDPA or xformers), fp32 weights or VAE, a low-VRAM "
                "or CPU-offload flag left on, a power or thermal limit, or a larger image or "
                "batch than the estimate's.")  # fmt: skip
    if rate > band["high"]:
        return (f"**Your {c.num(rate, 'it/s')} is above the range {expected}**: nothing wrong, "
                "perhaps a faster setup (TensorRT, compiled, fewer-bit weights).")  # fmt: skip
    return f"**Yes, {c.num(rate, 'it/s')} is normal: {expected}.**"


# a figure the user got ("we measured 35 tok/s", "my 3090 does 18 tok/s", "takes 14 hours")
_MEASURED = re.compile(
    r"\b(?:measured|benchmarked|clocked|getting|get|gets|got|seeing|see|saw|does|do|did|doing"
    r"|runs? at|running at|hits?|hitting|takes?|took|taking|averag\w+|manag\w+|push(?:es|ing)?"
    r"|deliver(?:s|ing)?|handles?|serves?|serving|benchmark\w*|tops out|maxes out|peaks? at"
    r"|gives?|giving"
    r"|sustain\w*)\b"
)
# a figure wanted, not had: "need at least 30 tok/s", "under 2 s an image", "deadline is 48 h"
_TARGET_SAID = re.compile(
    r"\b(?:need|needs|want|wants|require\w*|target\w*|goal|aim\w*|deadline|at least|minimum"
    r"|must|should (?:be|hit|reach)|sla|budget)\b|\b(?:under|below|within|less than) \d"
)
# "takes 14 hours per run", "a run takes 9 h", "an epoch is 40 min": the user's own time
_RUN_TAKES = re.compile(
    r"\b(?:takes?|took|taking|is|runs?|lasts?)\s(?:about |around |roughly |~)?\d[\d.,]*\s?"
    r"(?:hours?|hrs?|h|days?|minutes?|mins?)\b"
)


def _measured_elsewhere(query: Query, box: ToolBox) -> Draft | None:
    """A figure the user measured on one GPU and another GPU asked about ("we measured 35 tok/s
    on our L40S: how much would an H100 improve that?", "14 hours a run on a V100: and on an
    H100?"): their figure carried over by the calculator's ratio of the two GPUs' speeds for
    the same job. The GPU named first is the one measured."""
    refs = [g for g in query.gpus if g.ids]
    if len(refs) != 2 or refs[0].ids == refs[1].ids or not query.models:
        return None
    low = query.low
    if not _MEASURED.search(low) or _TARGET_SAID.search(low) or _per_token_asked(query):
        return None  # "I need at least 30 tok/s", "a 48-hour deadline": a target, not a measure
    training = (query.workload or "inference") != "inference"
    if query.throughput_tok_s:
        measured, unit, is_time = query.throughput_tok_s, "tokens/s", False
    elif query.seconds_per_item and not training:
        measured, unit, is_time = query.seconds_per_item, "s", True
    elif query.hours and training and _RUN_TAKES.search(query.low) and not query.epochs:
        measured, unit, is_time = query.hours, "hours", True
    elif query.hours and training and _epoch_time_said(low):  # "it takes 40 min per epoch"
        measured, unit, is_time = query.hours / (query.epochs or 1), "hours an epoch", True
        if measured < 2:
            measured, unit = measured * 60, "minutes an epoch"
    else:
        return None
    model = query.models[0]
    owned = _owned(query, refs)
    if len(owned) == 1 and owned[0] is refs[1]:
        refs.reverse()  # "would an H100 beat my L40S, which does 35 tok/s?": the L40S measured
    args = [estimate_args(query, gpu_choices(r)[0], r.count, model) for r in refs]
    mine, other = (box.call("estimate", a) for a in args)
    if "error" in mine or "error" in other:
        return None
    if training and not mine["fits"] and not query.batch and (most := _max_batch(box, args[0])):
        # the user runs it, so it fits: both at the largest power-of-two batch the measured card
        # holds ("40 min an epoch on a 6 GB laptop GPU"), not the family's usual batch
        batch = 2 ** int(math.log2(int(most["solution"])))
        mine, other = (box.call("estimate", {**a, "batch": batch}) for a in args)
        if "error" in mine or "error" in other:
            return None
    from advisor.calculator import FAMILIES

    family = FAMILIES[mine.get("family", "llm")]
    rates = [m for m in family.metrics.get(mine["workload"], ())
             if m.unit.endswith("/s") and mine.get(m.key) and other.get(m.key)]  # fmt: skip
    if not rates:
        return None
    rate = rates[0]
    low_rate, high_rate = mine[rate.key]["typical"], other[rate.key]["typical"]
    carried = box.call(
        "carried_measurement",
        {"measured": measured, "from_rate": low_rate, "to_rate": high_rate, "is_time": is_time},
    )
    if "error" in carried:
        return None
    where = c.gpus_phrase(other["num_gpus"], other["gpu_name"])
    ratio = carried["ratio"]
    pace = "faster" if ratio >= 1 else "slower"
    head = (f"**About {c.num(carried['value'], unit)} on {where}: your "
            f"{c.num(measured, unit)} on the {mine['gpu_name']}, carried over by the calculator's "
            f"ratio of the two ({c.num(ratio)}x, {pace}).**")  # fmt: skip
    times = multiple_asked(query.low)
    if times and times > 1:  # "would a 4090 double that?": the multiple asked, judged first
        word = "Yes" if ratio >= 0.9 * times else "No"
        head = (
            f"**{word}: about {c.num(ratio)}x, {'near' if word == 'Yes' else 'not'} the "
            f"{c.num(times)}x asked.** " + head.replace("**", "")
        )
    why = (f"The calculator's {rate.label} for {mine['model_name']} ({c.settings(mine)}): "
           f"{c.num(low_rate, rate.unit)} on the {mine['gpu_name']}, {c.num(high_rate, rate.unit)} "
           f"on {where}. Your own figure is kept, not the calculator's: it holds what the "
           "calculator does not know of your setup (engine version, data loading, settings), "
           "which the other GPU would share.")  # fmt: skip
    fits = ""
    if not mine["fits"]:  # run partly from system memory, a pace the ratio does not carry
        fits = (f"\n\nBy the calculator it does not fit on the {mine['gpu_name']} as set "
                f"({c.num(mine['memory_per_gpu_gb'], 'GB')} needed): if part of it runs from "
                "system memory, your figure is bound by that, and the other GPU's gain may "
                "differ.")  # fmt: skip
    if not other["fits"]:
        fits += (f"\n\nBy the calculator it does not fit on {where} as set "
                 f"({c.num(other['memory_per_gpu_gb'], 'GB')} needed).")  # fmt: skip
    return Draft(f"{head}\n\n{why}{fits}")


_JUDGED_FOR = re.compile(r"\b(?:any good|good (?:for|enough)|decent|usable|ok|okay|viable)\b")
# a pace each user gets: "at ~20 tok/s each", "20 tokens/s per user", "apiece"
_PACE_EACH = re.compile(r"\b(?:each|apiece|per (?:user|person|stream|request|seat|dev)|a head)\b")


def _users_at_pace_estimated(query: Query, box: ToolBox) -> Draft | None:
    """ "Serving qwen2.5-14b awq on vllm on one L4: how many concurrent users at ~20 tok/s
    each?": the most streams at once whose estimated pace each is at least the one said (each
    stream slows as the batch grows), within what memory holds (the max_batch solve)."""
    pace = query.throughput_tok_s
    if not (query.target == "max_batch" and pace and query.models and query.models[0].ids
            and len(query.gpus) == 1 and gpu_choices(query.gpus[0])
            and _PACE_EACH.search(query.low)):  # fmt: skip
        return None
    ref, model = query.gpus[0], query.models[0]
    args = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    held = box.call("solve", {**{k: v for k, v in args.items() if k != "batch"},
                              "target": "max_batch"})  # fmt: skip
    top = held.get("solution") if "error" not in held else None
    if not top:
        return None

    def each(batch: int) -> float | None:
        e = box.call("estimate", {**args, "batch": batch})
        if "error" in e:
            return None
        if batch == 1:
            return (e.get("decode_tokens_per_s") or {}).get("typical")
        return e.get("decode_tokens_per_s_each")

    first = each(1)
    if first is None:
        return None
    low, high = (1, top) if first >= pace else (0, 0)
    while low < high:  # the largest batch whose pace each is at least the one said
        mid = (low + high + 1) // 2
        got = each(mid)
        if got is not None and got >= pace:
            low = mid
        else:
            high = mid - 1
    e = held["estimate"]
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    if low == 0:
        return Draft(f"**None at {c.num(pace, 'tokens/s')} each: one stream alone gets about "
                     f"{c.num(first, 'tokens/s')} from {e['model_name']} on {where}** "
                     f"({c.settings(e)}).")  # fmt: skip
    at = each(low)
    if low == top and at is not None and at > pace:  # the card's memory, not the pace, stops it
        lines = [f"**About {low} users at once, each at about {c.num(at, 'tokens/s')}, above your "
                 f"{c.num(pace, 'tokens/s')}: memory sets the count** ({e['model_name']} on "
                 f"{where}; {c.settings({**e, 'batch': low})})."]  # fmt: skip
    else:
        lines = [f"**About {low} users at once at {c.num(pace, 'tokens/s')} each** from "
                 f"{e['model_name']} on {where} ({c.settings({**e, 'batch': low})}): at {low} "
                 f"streams each gets about {c.num(at, 'tokens/s')}."]  # fmt: skip
    if low < top and (more := each(low + 1)) is not None:
        lines.append(f"At {low + 1} streams each gets about {c.num(more, 'tokens/s')}, below "
                     "your pace; each stream slows as more share the card's memory "
                     "bandwidth.")  # fmt: skip
    if low < top:
        lines.append(f"Memory alone holds {top} streams at this context; the pace per user, "
                     "not memory, sets the count here.")  # fmt: skip
    else:
        lines.append(f"Memory sets the count: {top} streams at this context fill the card.")
    return Draft("\n\n".join(lines))


def solve(query: Query, box: ToolBox) -> Draft:
    counted = None  # "1400 W for the whole machine: how many 4090s?"
    if query.gpus and query.gpus[0].ids:
        counted = cards_under_limit(query, box, gpu_choices(query.gpus[0])[0])
    if counted is not None:
        return counted
    if (afforded := _cards_afforded(query, box)) is not None:
        return afforded  # "48k a month, 8 hours a day: how many H100s can we afford?"
    if (yours := _cards_for_your_rate(query, box)) is not None:
        return yours  # "1,800 tok/s on one A10G, we need 25k tok/s: how many A10Gs?"
    if (served := _users_at_your_total(query, box)) is not None:
        return served  # "2x L40S do 1800 tok/s aggregate: how many users at 30 tok/s each?"
    if (paced := _users_at_pace_estimated(query, box)) is not None:
        return paced  # "qwen 14b awq on vllm on one L4: how many users at ~20 tok/s each?"
    if _STREAMS_ASKED.search(query.low) and (streams := _streams_kept_up(query, box)):
        return streams  # "one L4 does 420 frames/s; each stream is 30 fps: how many streams?"
    deadline_at_mfu = query.mfu and query.hours and query.target in (None, "min_gpus")
    if deadline_at_mfu and (at_mfu := _at_stated_mfu(query, box)) is not None:
        return at_mfu  # "... assume 40% MFU" then "how many GPUs to finish in 2 weeks?"
    if query.target == "best_quant":
        best = _best_quant(query, box) if query.models else None
        if best is not None:  # "what quant should i use" for a model on a card
            return best
        # AWQ or GPTQ on vLLM, an image or speech model, no card named: what fits, or the sizes
        return fit(query, box) if query.models and (query.gpus or query.memory_gb) else (
            explain(query, box))  # fmt: skip
    if query.target is None and query.gpus and not any(m.ids for m in query.models):
        return _largest_model(query, box)  # "what's the biggest Qwen2.5 I can run on my 3090?"
    sized_llm = not query.cpu_only and _family_of_job(query) == "llm"
    if query.target is None and query.memory_gb and sized_llm and not query.models:
        # "the biggest model that fits in 16 GB of VRAM": on a card of that memory
        sized = GpuRef(text=f"{query.memory_gb:g} GB", ids=(f"{query.memory_gb:g}gb",),
                       count=query.num_gpus, generic=True)  # fmt: skip
        return _largest_model(replace(query, gpus=(sized,), memory_gb=None), box)
    if (query.models and not (query.gpus or query.memory_gb) and query.hours
            and query.target in (None, "min_gpus") and query.workload == "train"
            and sized_llm and not query.budget):  # fmt: skip
        # "how many gpus to train llama 3 405b from scratch in 1 month": a pre-training cluster
        # is counted in the card such runs are built on, said so
        query = replace(query, gpus=(GpuRef("H100", (PRETRAINING_GPU,), None),),
                        notes=(*query.notes, PRETRAINING_NOTE))  # fmt: skip
    if (query.models and query.hours and query.target in (None, "min_gpus")
            and query.workload == "train" and sized_llm and not query.train_tokens):  # fmt: skip
        # a pre-training deadline with no corpus said: a compute-optimal run's tokens, said
        models = load_catalog().models
        params_b = query.models[0].size_b or next(
            (models[i].total_params / 1e9 for i in query.models[0].ids[:1] if i in models), None
        )
        if params_b:
            tokens = CHINCHILLA_TOKENS_PER_PARAM * params_b * 1e9
            note = (f"No corpus said: a compute-optimal run assumed, {CHINCHILLA_TOKENS_PER_PARAM} "
                    f"tokens per parameter (Hoffmann et al., 2022), {tokens / 1e12:,.1f}T tokens "
                    "for this model; say yours.")  # fmt: skip
            query = replace(query, train_tokens=tokens, notes=(*query.notes, note))
            solved = solve(query, box)  # the run sized on those tokens, the assumptions said
            said = [n for n in (PRETRAINING_NOTE, note) if n in query.notes]
            solved.text += "".join(f"\n\n_Note: {n}_" for n in said)
            return solved
    if not query.models or not (query.gpus or query.memory_gb):
        return recommend(query, box)
    model = query.models[0]
    target = query.target or "min_gpus"
    named = gpus_named(query)
    if target == "min_gpus" and len(named) >= 2:  # "how many of each, the MI300X or the H100?"
        if (for_load := _load_on_each(query, box)) is not None:
            return for_load  # "50 req/s: how many H100s or L4s?": the fewest of each for it
        return _fewest_of_each(query, box, model, named[:3])
    ref = query.gpus[0] if query.gpus else None
    gpu = gpu_choices(ref)[0] if ref else f"{query.memory_gb:g}gb"
    daily = query.hours is None and query.per_day
    if target == "min_gpus" and (query.hours or daily) and ref is not None:
        # "50k images a day: how many T4s?": a day's work within the day
        within = replace(query, hours=24.0) if daily else query
        by_deadline = _gpus_for_deadline(within, box, gpu, model)
        if by_deadline is not None:  # "10,000 renders in an 8-hour window: how many 4090s?"
            return by_deadline
    full = estimate_args(query, gpu, ref.count if ref else None, model)
    args = {k: v for k, v in full.items() if k in SOLVE_ARGS}
    drop = {"min_gpus": "num_gpus", "max_context": "context", "max_batch": "batch"}[target]
    args.pop(drop, None)
    result = box.call("solve", {**args, "target": target})
    if "error" in result:
        return Draft(result["error"])
    local = _run_here(query, box, model, gpu) if result.get("solution") is None else None
    if local is not None and target == "max_context":
        # "what context can i push to?" on a desktop card 16 bits do not fit: as it is run there
        home = estimate_args(run_at_home(query), gpu, ref.count if ref else None, model)
        home = {k: v for k, v in home.items() if k in SOLVE_ARGS and k != drop}
        quantised = box.call("solve", {**home, "target": target})
        if "error" not in quantised and quantised.get("solution") is not None:
            return Draft(c.solved(quantised) + f"\n\nIn {HOME_PRECISION} (llama.cpp), as a model "
                         "is run on such a card: in 16 bits it does not fit.")  # fmt: skip
    job = _job_of_the_count(query, box, result, model, gpu)
    text = c.solved(result) + _job_on_the_fewest(job)
    if target == "min_gpus" and query.hours and query.workload == "train":
        text = (_beyond_the_largest_cluster(query, box, job) or "") + text
    if target == "max_batch":
        text += _pace_of_each(query, result)  # "... if i want under 50ms per token"
    if target == "max_batch" and _BATCH_ADVICE.search(query.low):
        # "what batch size should i use?" (and a data set's epoch at it, when one is said)
        text = _safe_batch(box, {**full, **args}, result, query.dataset_name) + text
    loaded = _copies_for_load(query, box, result, model, gpu) if target == "min_gpus" else None
    if target == "min_gpus" and not loaded:
        loaded = _copies_for_pace(query, box, result, args)
    return Draft(f"{loaded}\n\n{text}" if loaded else text)


MAX_COPIES = 32  # copies of a serving setup tried for a pace each user asks for


def _copies_for_pace(
    query: Query, box: ToolBox, result: dict[str, Any], args: dict[str, Any]
) -> str | None:
    """ "200 users at once, each wants ~20 tok/s: how many L40S?": the fewest cards that hold
    the model (with every user's KV cache) give each user less than that pace at once; copies
    of a setup behind a load balancer, each serving its share of the users, in the fewest cards
    in all that give each user the pace asked (copies of fewer cards tried as well)."""
    n, users, pace = result.get("solution"), query.concurrency, query.throughput_tok_s
    e = result.get("estimate") or {}
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    if not (n and users and users > 1 and pace and decode) or decode / users >= pace:
        return None
    best: tuple[int, int, int, dict[str, Any], float] | None = None  # cards, copies, share, ...
    for per_copy in sorted({k for k in (1, 2, 4, 8) if k < n} | {n}):
        for copies in range(2 if per_copy == n else 1, MAX_COPIES + 1):
            if best is not None and per_copy * copies >= best[0]:
                break
            share = math.ceil(users / copies)
            each = box.call("estimate", {**args, "num_gpus": per_copy, "batch": share})
            speed = (each.get("decode_tokens_per_s") or {}).get("typical")
            if "error" in each or not each.get("fits") or not speed:
                continue
            if speed / share >= pace:
                best = (per_copy * copies, copies, share, each, speed / share)
                break
    if best is None:
        return None
    cards, copies, share, each, got = best
    name = each["gpu_name"]
    setup = c.gpus_phrase(cards, name)
    return (f"**{setup[0].upper()}{setup[1:]} keep {c.num(pace, 'tokens/s')} for each of {users} "
            f"users at once**: {copies} copies of {c.gpus_phrase(each['num_gpus'], name)} behind a "
            f"load balancer, each serving {share} users at about {c.num(got, 'tokens/s')} each "
            f"({each['precision']}, {each['engine']}). The fewest that hold the model for all "
            f"{users}, {c.gpus_phrase(n, name)}, give each about "
            f"{c.num(decode / users, 'tokens/s')}.")  # fmt: skip


def _why_ahead(query: Query, box: ToolBox) -> str:
    """Why one card runs ahead of another: the figures that pace each kind of work, the card
    named before "than" first."""
    ids = gpus_named(query)[:2]
    than = query.low.find(" than ")
    after = [g for at, g in sorted(gpu_mentions(query.gpus, query.low)) if at > than]
    if after and after[0] == ids[0] and len(ids) == 2:
        ids = [ids[1], ids[0]]  # "why is a 3090 slower than the 4090": the 3090 first
    sheets = [box.call("gpu_specs", {"gpu": g}) for g in ids]
    if any("error" in s or not s.get("fp16_bf16_dense_tflops") for s in sheets):
        return ""
    a, b = sheets
    return (f"**Why, the {a['name']} against the {b['name']}: dense FP16/BF16 tensor "
            f"{c.num(a['fp16_bf16_dense_tflops'], 'TFLOPS')} against "
            f"{c.num(b['fp16_bf16_dense_tflops'], 'TFLOPS')}, memory bandwidth "
            f"{c.num(a['bandwidth_gbs'], 'GB/s')} against {c.num(b['bandwidth_gbs'], 'GB/s')}, "
            f"memory {c.num(a['memory_gb'], 'GB')} against {c.num(b['memory_gb'], 'GB')}.** "
            "Training, reading prompts and generating images run at the tensor rate; generating "
            "tokens one at a time reads every weight per token, at the memory bandwidth; the "
            "memory decides what fits.\n\n")  # fmt: skip


# one card ahead of another: "faster than", "so much better", "slower than"
_AHEAD = re.compile(r"\b(?:faster|slower|quicker|better|worse)\b.{0,60}\bthan\b")
HOW_LONG = re.compile(
    r"\bhow long\b|\bhow many (?:hours|days|minutes)\b|\bhow much time\b"
    # "gpu and time?", "cost and time": the time asked beside the pick
    r"|\b(?:and|&|\+) (?:the )?(?:time|duration)\b(?!\s(?:of day|zone|slot))"
)


def _daily_load(query: Query, box: ToolBox, result: dict[str, Any]) -> str | None:
    """ "500 hours of audio a day for a call center": the day's work is a rate, not one job; the
    copies of the pick that keep up with it around the clock (each kept at 80% of its rate for
    bursts) and what they rent for a month at the pick's median price."""
    ranked = result.get("ranked") or []
    if not ranked or not query.per_day or query.hours:
        return None
    pick = ranked[0]
    if query.audio_hours and pick.get("speed_unit") == "audio s/s":
        needed, what = query.audio_hours * 3600 / SECONDS_PER_DAY, "hours of audio"
        amount = query.audio_hours
    elif query.images and pick.get("speed_unit") == "images/s":
        needed, what, amount = query.images / SECONDS_PER_DAY, "images", query.images
    else:
        return None
    plan = box.call("cards_for_rate", {"per_card": pick["speed"], "needed": needed})
    if "error" in plan:
        return None
    copies = plan["cards_with_headroom"]
    where = c.gpus_phrase(copies * pick["num_gpus"], pick["gpu_name"])
    line = (
        f"**To keep up with {c.num(amount)} {what} a day: {where} running around the "
        f"clock** ({plan['cards']} at full load; each kept at 80% of its rate for bursts)"
    )
    if pick.get("usd_per_hour"):
        each = pick["usd_per_hour"] / pick["num_gpus"]
        month = box.call("rental_cost", {"usd_per_gpu_hour": each, "hours": HOURS_PER_MONTH,
                                         "num_gpus": copies * pick["num_gpus"]})  # fmt: skip
        if "error" not in month:
            whose = f"{query.provider}'s" if query.provider else "the"
            line += f", about {c.usd(month['usd'])} a month at {whose} median price"
    return line + "."


# a batch size asked as advice, not the limit: "what batch size should i use", "which bs works"
_BATCH_ADVICE = re.compile(r"\b(?:should|recommend\w*|use|works?|safe|fits?)\b")
BATCH_HEADROOM = 0.9  # an advised batch leaves a tenth of what fits spare (allocator, spikes)


def _safe_batch(
    box: ToolBox, args: dict[str, Any], result: dict[str, Any], data: str | None = None
) -> str:
    """The batch to use: the largest power of two within a tenth under the largest that fits (a
    batch that fills memory to the last megabyte fails on the next allocation spike); with a
    data set named (`data`), the time of one epoch of it at that batch."""
    most = result.get("solution")
    if not most or most < 2:
        return ""
    safe = 2 ** int(math.log2(most * BATCH_HEADROOM))
    e = box.call("estimate", {**args, "batch": safe})
    if "error" in e or not e["fits"]:
        return ""
    need, usable = c.num(e["memory_per_gpu_gb"], "GB"), c.num(e["usable_memory_per_gpu_gb"], "GB")
    hours = (e.get("job_hours") or {}).get("typical")
    epoch = (f" One epoch of {data} at that batch: about {c.duration(hours)}."
             if data and hours and (args.get("epochs") or 1) == 1 else "")  # fmt: skip
    return (f"**Use batch {e['batch']:,}**: the largest power of two that leaves memory spare "
            f"({need} of {usable} usable); {most:,} fills it.{epoch}\n\n")  # fmt: skip


# a pace each user asks for, in milliseconds a token: "under 50ms per token"
_MS_A_TOKEN = re.compile(r"(\d+(?:\.\d+)?)\s?ms\b(?:\s?(?:per|a|/)\s?(?:token|tok)\b)?")


def _pace_of_each(query: Query, result: dict[str, Any]) -> str:
    """The most sequences at once, against the pace each user asked for: whether each stream
    at that batch keeps it."""
    e = result.get("estimate") or {}
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    if not (query.throughput_tok_s and decode and result.get("solution")):
        return ""
    each = decode / result["solution"]
    said = _MS_A_TOKEN.search(query.low)
    asked = f"{said.group(1)} ms a token" if said else c.num(query.throughput_tok_s, "tokens/s")
    if each >= query.throughput_tok_s:
        return (f"\n\nAt that batch each stream gets about {c.num(each, 'tokens/s')}: within your "
                f"{asked}.")  # fmt: skip
    return (f"\n\nAt that batch each stream gets about {c.num(each, 'tokens/s')}, slower than "
            f"your {asked}: fewer at once keep that pace.")  # fmt: skip


def _copies_for_load(
    query: Query, box: ToolBox, result: dict[str, Any], model: ModelRef, gpu: str
) -> str | None:
    """ "50M tokens a day through a 70B: how many H100s?": the fewest that hold the model is one
    copy; as many copies as its full-load serving takes to meet the rate, said as an average
    over the day (peaks need more), and what they cost a day at the user's price or the median."""
    count = result.get("solution")
    # a total needed ("5000 tok/s aggregate"), not one stream's measured and wanted pace
    total = query.needed_tok_s and not query.throughput_tok_s
    if not ((query.rps or total) and count and (model.family or "llm") == "llm"):
        return None
    best = _load_plan(query, box, count, model, gpu)
    if best is None:
        return None
    load, e = best
    serving = e["serving_tokens_per_s"]["typical"]
    out = e.get("output_tokens") or query.output_tokens or 256
    asked = (f"the {c.num(query.needed_tok_s, 'tokens/s')} you need" if not query.rps
             else f"{c.num(query.rps)} requests a second of {out:,} output tokens")  # fmt: skip
    copies, count = load["replicas"], e["num_gpus"]
    whose = "your" if query.user_price_usd_per_hour else "the median"
    price = load["usd_per_hour"] / load["gpus"] if load["usd_per_hour"] else None
    daily = (f"; {c.usd(load['usd_per_day'])} a day around the clock at {whose} "
             f"{c.usd(price)} per GPU-hour" if price else "")  # fmt: skip
    if price and _MONTHLY_ASKED.search(query.low):  # "... how many L4s, and the monthly cost?"
        month = box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": HOURS_PER_MONTH,
                                         "num_gpus": load["gpus"]})  # fmt: skip
        if "error" not in month:
            daily += f", {c.usd(month['usd'])} a month"
    where = c.gpus_phrase(load["gpus"], e["gpu_name"])
    said = "" if query.context else " assumed: shorter ones need fewer"
    return (f"**{where[0].upper()}{where[1:]} for that load**"
            + (f" ({copies} copies of {count})" if copies > 1 and count > 1 else "")
            + f": {c.num(load['needed_tokens_per_s'], 'tokens/s')} of output on average "
            f"({asked}), each copy serving "
            f"about {c.num(serving, 'tokens/s')} at full load ({e['precision']}, {e['engine']}, "
            f"{e.get('serving_prompt') or e['context']:,}-token prompts{said}){daily}. Peaks "
            "above the day's average "
            "need more.")  # fmt: skip


def _api_or_rented(query: Query, box: ToolBox, usd_per_million: float) -> Draft | None:
    """A day of the question's load on the fewest GPUs that serve it, rented around the clock at
    the median price, against the same tokens at a token API's price."""
    model, gpu = query.models[0], gpu_choices(query.gpus[0])[0]
    held, plan = _fleet_for_load(query, box, gpu, model)
    if plan is None or not plan[0].get("usd_per_day"):
        return None
    load, _e = plan
    tokens = load["needed_tokens_per_s"] * SECONDS_PER_DAY / 1e6
    service = box.call("service_cost", {"usd_per_unit": usd_per_million, "units": tokens,
                                        "unit": "million tokens"})  # fmt: skip
    if "error" in service:
        return None
    what = (f"for a day of this load ({c.num(service['units'])} million tokens at your "
            f"{c.usd(usd_per_million)} per million tokens)")  # fmt: skip
    verdict = c.against_service(load["usd_per_day"], service["usd"], what)
    detail = _copies_for_load(query, box, held, model, gpu) or ""
    return Draft(f"{verdict}\n\n{detail}".rstrip())


def _api_against_token_rent(query: Query, box: ToolBox, usd_per_million: float) -> Draft | None:
    """The tokens said (a million when none) on the first setup of the card named that holds the
    model, rented at the median price and served at full load, against a token API's price;
    one request at a time beside it."""
    model = query.models[0]
    found = [e for e in _estimates(query, box, model) if "error" not in e]
    if found and not any(e["fits"] for e in found) and not query.num_gpus:
        # none holds it alone: the fewest of each that do ("rented a100s"), or twice as many
        # where those serve a million tokens for less (room for the batch a server runs)
        found = [x for e in found[:2] if (x := _spread(query, box, e, model)) is not None]
        found = [_best_served(query, box, e["gpu"], e["num_gpus"], model) for e in found]
        found = [e for e in found if "error" not in e]
    priced = [e for e in found if e["fits"] and (e.get("cost") or {}).get("usd_per_unit")
              and e["cost"].get("cost_unit") == "per million tokens"]  # fmt: skip
    if not priced:
        return None
    # the variant whose million tokens costs least
    e = min(priced, key=lambda e: e["cost"].get("usd_per_million_tokens_full_load")
            or e["cost"]["usd_per_unit"])  # fmt: skip
    millions = (query.train_tokens or 1e6) / 1e6
    full = e["cost"].get("usd_per_million_tokens_full_load")
    per_million = full or e["cost"]["usd_per_unit"]
    rented = box.call("service_cost", {"usd_per_unit": per_million, "units": millions,
                                       "unit": "million tokens"})  # fmt: skip
    service = box.call("service_cost", {"usd_per_unit": usd_per_million, "units": millions,
                                        "unit": "million tokens"})  # fmt: skip
    if "error" in rented or "error" in service:
        return None
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    load = "served at full load" if full else "one request at a time"
    what = (f"for {c.num(millions)} million tokens of {e['model_name']} ({where} {load} at the "
            f"median rent, your {c.usd(usd_per_million)} per million for the API)")  # fmt: skip
    verdict = c.against_service(rented["usd"], service["usd"], what)
    verdict = verdict.replace("The service is cheaper", "The API is cheaper", 1)
    speed = c.metrics_of(e)[0] if c.metrics_of(e) else None
    lines = [verdict]
    if full and speed:
        lines.append(
            f"A million tokens costs about {c.usd(full)} on {where} at full load "
            f"({c.num(e['serving_tokens_per_s']['typical'], 'tokens/s')} at "
            f"{c.usd(e['cost']['usd_per_hour'])}/hour) and {c.usd(e['cost']['usd_per_unit'])} "
            f"one request at a time ({c.num(speed[1]['typical'], speed[2])}); the rent is paid "
            "whether or not the requests come."
        )
    lines.append(f"({c.workload_label(e)}; {c.settings(e)})")
    return Draft("\n\n".join(lines))


_API_NAMED = re.compile(r"\bapis?\b|\bopenai\b|\bgpt-?\d|\bclaude\b|\bgemini\b|\bchatgpt\b"
                        r"|\banthropic\b|\bopenrouter\b|\btogether\.?ai\b|\bgroq\b"
                        r"|\bfireworks(?:\.ai)?\b")  # fmt: skip


def _api_bill_or_rented(query: Query, box: ToolBox) -> Draft | None:
    """ "5M tokens a day through gpt-4o-mini for $45 a month: would self-hosting llama 8b be
    cheaper?": the cheapest rented setup that serves the load around the clock, a month of it
    against the user's monthly API bill."""
    model = next((m for m in query.models if m.ids and (m.family or "llm") == "llm"), None)
    if not (query.monthly_usd and query.rps and model and not query.gpus
            and _API_NAMED.search(query.low)):  # fmt: skip
        return None
    found = box.call("recommend_gpus", {"model": model.ids[0], "requests_per_s": query.rps,
                                        "rank_by": "price", "top": 1})  # fmt: skip
    row = (found.get("ranked") or [None])[0] if "error" not in found else None
    if not row or not row.get("usd_per_month"):
        return None
    sign = query.currency
    verdict = c.against_service(row["usd_per_month"], query.monthly_usd,
                                f"for a month of your load on {row['gpu_name']}s")  # fmt: skip
    verdict = verdict.replace("The service is cheaper", "Your API is cheaper", 1)
    where = c.gpus_phrase(row["total_gpus"], row["gpu_name"])
    detail = (f"The cheapest rented setup that serves it: {where} ({row['precision']}) at "
              f"{c.usd(row['usd_per_hour'], sign)}/hour for all, around the clock "
              f"({c.usd(row['usd_per_month'], sign)} a month), serving about "
              f"{c.num(row['serving_tokens_per_s'], 'tokens/s')} at full load against your "
              f"average {c.num(row['load_tokens_per_s'], 'tokens/s')} of output; your API bill: "
              f"{c.usd(query.monthly_usd, sign)} a month. Self-hosting pays for the GPU's idle "
              "hours too; it wins only when the load keeps it busy.")  # fmt: skip
    return Draft(f"{verdict}\n\n{detail}", cite_more=False)


def _api_bill_against_cards(query: Query, box: ToolBox) -> Draft | None:
    """ "We spend $4,000 a month on OpenAI: would Llama 3.1 70B on rented H100s be cheaper?": no
    load said, so the fewest of the card named that hold the model, rented around the clock for a
    month, against the monthly API bill (the load decides whether they are busy enough)."""
    model = next((m for m in query.models if m.ids and (m.family or "llm") == "llm"), None)
    if not (query.monthly_usd and model and query.gpus and not query.rps
            and _API_NAMED.search(query.low)):  # fmt: skip
        return None
    gpu = gpu_choices(query.gpus[0])[0]
    solved = _fewest(query, box, gpu, model)
    count = solved.get("solution") if "error" not in solved else None
    if not count:
        return None
    rent = median_rent_of(box, gpu)
    if rent is None:
        return None
    month = box.call("rental_cost", {"usd_per_gpu_hour": rent[0], "hours": HOURS_PER_MONTH,
                                     "num_gpus": count})  # fmt: skip
    if "error" in month or not month.get("usd"):
        return None
    e = solved.get("estimate") or {}
    where = c.gpus_phrase(int(count), e.get("gpu_name") or gpu)
    verdict = c.against_service(month["usd"], query.monthly_usd,
                                f"for a month around the clock on {where}")  # fmt: skip
    verdict = verdict.replace("The service is cheaper", "Your API is cheaper", 1)
    return Draft(
        f"{verdict}\n\n{where} is the fewest that hold {e.get('model_name', model.text)} "
        f"({c.settings(e) if e else model.text}), at the median rent around the clock "
        f"({HOURS_PER_MONTH} hours). Self-hosting pays for idle hours too: it wins only when your "
        "load keeps the cards busy; say your requests a second or tokens a day to size it.",
        cite_more=False,
    )


_HOW_MANY_CARDS = re.compile(
    # (not "how many watts does it pull": the card's own draw)
    r"\bhow many\b(?!\s(?:watts?|w|amps?|volts?|kwh|hours?|gb|gigs?|tokens?)\b)"
    r"|\bmax(?:imum)? (?:number of )?(?:gpus|cards)\b"
)


def cards_under_limit(query: Query, box: ToolBox, gpu: str, supply: bool = False) -> Draft | None:
    """ "My power limit is 1000 W for the whole box: how many 3090s can I run?": the most cards
    at full board power whose machine stays within it, and the cap each takes for one more."""
    limit = query.max_power_w or watts_said(query.low)
    if limit is None or not _HOW_MANY_CARDS.search(query.low):
        return None
    p = box.call("system_power", {"gpu": gpu, "limit_w": limit, "limit_is_supply": supply})
    within = p.get("within_limit") if "error" not in p else None
    if not within:
        return None
    n, name, board = within["num_gpus"], p["gpu_name"], p["gpu_w"]
    rest = (f"{c.num(p['cpu_w'], 'W')} for a desktop CPU and {c.num(p['platform_w'], 'W')} for "
            f"the rest of the system")  # fmt: skip
    if n == 0:
        head = (f"**None at full power: {c.num(limit, 'W')} less {rest} leaves "
                f"{c.num(within['left_for_gpus_w'], 'W')}, under one {name}'s "
                f"{c.num(board, 'W')} board power.**")  # fmt: skip
    else:
        head = (f"**{n}: {c.gpus_phrase(n, name)} at {c.num(board, 'W')} each, with {rest}, "
                f"draw about {c.num(within['total_w'], 'W')} at full load, within "
                + (f"{c.num(within['limit_w'], 'W')}, 80% of your {c.num(limit, 'W')} supply "
                   "(headroom for spikes and efficiency).**" if supply
                   else f"your {c.num(limit, 'W')}.**"))  # fmt: skip
    lines = [head]
    if within["left_for_gpus_w"] > 0:
        lines.append(
            f"For {within['one_more']}, cap each card to about "
            f"{c.num(within['cap_w_for_one_more'], 'W')} "
            "(nvidia-smi -pl): token generation, bound by memory bandwidth, keeps most of its "
            "speed under a cap; prompt processing, training and image generation slow with the "
            "clocks."
        )
    return Draft("\n\n".join(lines))


# an office or small machine, whose CPU is no high-end desktop one: "the office pc", "SFF"
_OFFICE_PC = re.compile(
    r"\boffice (?:pc|computer|desktop|machine|box)\b|\bsff\b|\bsmall[- ]form[- ]factor\b"
    r"|\bmini[- ]?pc\b|\b(?:core )?i[35][- ]\d{4,5}(?!k)\b|\bryzen [35] \d{4}(?!x)\b"
)


def cpu_of_the_machine(query: Query) -> dict[str, float]:
    """The CPU's watts to count: an office one's when the machine is said to be one (an office
    or small-form-factor PC, a 65 W-class i3/i5 or Ryzen 3/5), else the tool's high-end one."""
    return {"cpu_w": OFFICE_CPU_W} if _OFFICE_PC.search(query.low) else {}


def _within_the_box(query: Query, box: ToolBox) -> str | None:
    """Two or more cards weighed under a cap on the whole machine's power ("the whole computer
    must use under 400 W: 4060 Ti 16GB or 3090?"): each machine's draw at full load, with a
    mainstream desktop CPU (a machine held to a few hundred watts has no high-end one) unless
    the question says a high-end one, and which stay within the cap; None when every card does
    (the cap decides nothing) or the cap is a power supply's rating (sized with headroom)."""
    limit = query.max_power_w
    named = [r for r in query.gpus if len(r.ids) == 1 and (r.count or 1) == 1]
    if not (limit and len(named) >= 2 and _WHOLE_BOX.search(query.low)):
        return None
    if SUPPLY_SAID.search(query.low):
        return None  # a power supply's rating is sized with headroom, elsewhere
    high_end = re.search(r"\b(?:i9|ryzen 9|threadripper|xeon|epyc)\b", query.low)
    cpu = {} if high_end else {"cpu_w": OFFICE_CPU_W}
    drawn = []
    for ref in named[:4]:
        p = box.call("system_power", {"gpu": ref.ids[0], **cpu})
        if "error" in p:
            return None
        drawn.append(p)
    within = [p for p in drawn if p["total_w"] <= limit]
    if len(within) == len(drawn):
        return None  # each stays within: the cap decides nothing, the question's own ask leads
    each = "; ".join(f"{p['gpu_name']} {c.num(p['gpu_w'], 'W')} board power, about "
                     f"{c.num(p['total_w'], 'W')} for the machine" for p in drawn)  # fmt: skip
    rest = (f"with a {c.num(drawn[0]['cpu_w'], 'W')} CPU and {c.num(drawn[0]['platform_w'], 'W')} "
            "for the rest of the system")  # fmt: skip
    if within:
        names = " and the ".join(p["gpu_name"] for p in within)
        head = (f"**Within your {c.num(limit, 'W')} for the whole machine: the {names}** "
                f"(at full load, {rest}): {each}.")  # fmt: skip
    else:
        head = (f"**None stays within your {c.num(limit, 'W')} at full load** ({rest}): "
                f"{each}; a power cap (nvidia-smi -pl) lowers a card's draw.")  # fmt: skip
    return head


def watts_said(low: str) -> float | None:
    """The first power said in watts ("1,600 W", "850w")."""
    found = re.search(r"(?<![\d,.])(\d,\d{3}|\d{3,4}(?:\.\d)?)\s?(k?w|watts?)\b", low)
    if not found:
        return None
    value = float(found.group(1).replace(",", ""))
    return value * 1000 if found.group(2) == "kw" else value


def _load_bill(query: Query, box: ToolBox) -> Draft | None:
    """A month of a serving load (a request rate, or tokens a second in all) on the GPU named:
    the fewest of it that serve the load, rented around the clock at the cloud's median price
    (the cloud named) or the market's."""
    if not ((query.rps or query.needed_tok_s) and len(query.gpus) == 1 and query.models):
        return None
    if query.user_price_usd_per_hour or (query.models[0].family or "llm") != "llm":
        return None
    if query.service_price or query.monthly_usd:
        return None  # a token API's price or a bill of theirs: set against it elsewhere
    model, gpu = query.models[0], gpu_choices(query.gpus[0])[0]
    held, plan = _fleet_for_load(query, box, gpu, model)
    if plan is None or not plan[0].get("usd_per_hour"):
        return None
    load, e = plan
    price, whose = load["usd_per_hour"] / load["gpus"], "the median"
    if query.providers:
        offered = box.call("prices", {"gpu": gpu, "provider": query.providers[0]})
        summary = offered.get("summary_usd_per_gpu_hour") if "error" not in offered else None
        if summary:
            price, whose = summary["median"], f"{query.providers[0]}'s median"
    month = box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": HOURS_PER_MONTH,
                                     "num_gpus": load["gpus"]})  # fmt: skip
    if "error" in month:
        return None
    where = c.gpus_phrase(load["gpus"], e["gpu_name"])
    head = (f"**About {c.usd(month['usd'])} a month for {where}** rented around the clock "
            f"({c.num(HOURS_PER_MONTH, 'hours')}) at {whose} {c.usd(price)} per GPU-hour: the "
            "fewest that serve the load.")  # fmt: skip
    detail = _copies_for_load(query, box, held, model, gpu) or ""
    return Draft(head + (f"\n\n{detail}" if detail else ""))


def _load_on_each(query: Query, box: ToolBox) -> Draft | None:
    """Two or more cards for an LLM served at a request rate: on each, the fewest GPUs that
    serve the load (copies of the fewest that hold the model) and their hourly rent; the
    cheaper setup for the load is the pick."""
    ids = gpus_named(query)
    if not (query.rps and query.models and len(ids) >= 2):
        return None
    model = query.models[0]
    if (model.family or "llm") != "llm":
        return None
    rows = []
    for gpu in ids[:4]:
        _held, plan = _fleet_for_load(query, box, gpu, model)
        if plan is not None and plan[0].get("usd_per_hour"):
            rows.append(plan)
    if len(rows) < 2:
        return None
    rows.sort(key=lambda p: p[0]["usd_per_hour"])
    (best, e), others = rows[0], rows[1:]
    out = e.get("output_tokens") or query.output_tokens or 256
    head = (f"**Pick the {e['gpu_name']} for {c.num(query.rps)} requests a second: "
            f"{c.gpus_phrase(best['gpus'], e['gpu_name'])} serve the load for "
            f"{c.usd(best['usd_per_hour'])}/hour, against "
            + "; ".join(f"{c.gpus_phrase(o['gpus'], f['gpu_name'])} for "
                        f"{c.usd(o['usd_per_hour'])}/hour" for o, f in others)
            + ".**")  # fmt: skip
    lines = [head]
    for load, f in rows:
        serving = f["serving_tokens_per_s"]["typical"]
        lines.append(f"- {c.gpus_phrase(load['gpus'], f['gpu_name'])}: {load['replicas']} "
                     f"cop{'y' if load['replicas'] == 1 else 'ies'} of {f['num_gpus']}, each "
                     f"serving about {c.num(serving, 'tokens/s')} at full load "
                     f"({f['precision']}, {f['engine']}); {c.usd(load['usd_per_day'])} a day "
                     "around the clock at the median price")  # fmt: skip
    said = "" if query.context else " (assumed: shorter prompts need fewer)"
    lines.append(
        f"The load: {c.num(best['needed_tokens_per_s'], 'tokens/s')} of output "
        f"({c.num(query.rps)} requests a second of {out:,} output tokens, "
        f"{e.get('serving_prompt') or e['context']:,}-token prompts{said}). Peaks above the "
        "average need more."
    )
    return Draft("\n".join(lines))


def _fleet_for_load(
    query: Query, box: ToolBox, gpu: str, model: ModelRef
) -> tuple[dict[str, Any], tuple[dict[str, Any], dict[str, Any]] | None]:
    """The fewest of `gpu` that hold the model (the solve tool's answer) and the load plan of
    copies of them (None when none serves)."""
    held = _fewest(query, box, gpu, model)
    count = held.get("solution") if "error" not in held else None
    return held, (_load_plan(query, box, count, model, gpu) if count else None)


def _load_plan(
    query: Query, box: ToolBox, count: int, model: ModelRef, gpu: str
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The fewest GPUs that serve the question's request rate: copies of `count` (the fewest that
    hold the model) or of wider setups up to a node, each at full load; (load_replicas result,
    the copy's estimate), None when none serves."""
    best = None  # (the load_replicas result, its estimate): a wider copy holds more cache
    for size in sorted({count, 2 * count, 4 * count, NODE_GPUS}):
        if size < count or size > max(count, NODE_GPUS):
            continue
        args = estimate_args(query, gpu, size, model)
        args.pop("batch", None)  # full load: the engine batches as many as fit
        e = box.call("estimate", args)
        serving = (e.get("serving_tokens_per_s") or {}).get("typical") if "error" not in e else 0
        if not serving:
            continue
        price = query.user_price_usd_per_hour or (e.get("cost") or {}).get("usd_per_gpu_hour")
        out = e.get("output_tokens") or query.output_tokens or 256
        load = box.call("load_replicas", {
            "serving_tokens_per_s": serving, "output_tokens": out,
            "requests_per_s": query.rps or (query.needed_tok_s or 0) / out,
            "gpus_per_replica": size, "usd_per_gpu_hour": price})  # fmt: skip
        if "error" not in load and (best is None or load["gpus"] < best[0]["gpus"]):
            best = (load, e)
    return best


def _job_of_the_count(
    query: Query, box: ToolBox, result: dict[str, Any], model: ModelRef, gpu: str
) -> dict[str, Any] | None:
    """The whole job estimated on the count solved (the solver takes no job size); None when
    the target is no count, or the job has no size or does not fit."""
    count = result.get("solution")
    if result.get("target") != "min_gpus" or not count:
        return None
    job = box.call("estimate", {**estimate_args(query, gpu, None, model), "num_gpus": count})
    return job if typical_job_hours(job) and job.get("fits") else None


def _job_on_the_fewest(job: dict[str, Any] | None) -> str:
    """ "How many H100s, and how long for 2B tokens?": the whole job on the count solved, its
    wall time and GPU-hours."""
    if job is None:
        return ""
    hours, count = job["job_hours"]["typical"], job["num_gpus"]
    gpu_hours = f", {c.num(hours * count, 'GPU-hours')}" if count > 1 else ""
    return (f"\n\nThe whole job on {c.gpus_phrase(count, job['gpu_name'])}: "
            f"{c.band(job['job_hours'], 'hours')} of wall time{gpu_hours}.")  # fmt: skip


def _run_here(query: Query, box: ToolBox, model: ModelRef, gpu: str) -> bool | None:
    """True when an LLM inference question about a desktop card says no format or engine (it is
    then sized as people run it there, in a 4-bit GGUF); None otherwise."""
    if (query.precision or model.precision or (model.family or "llm") != "llm"
            or query.engine not in (None, "llama.cpp", "ollama")
            or (query.workload or "inference") != "inference"
            or _SERVED.search(query.low)):  # fmt: skip
        return None
    sheet = box.call("gpu_specs", {"gpu": gpu})
    return True if sheet.get("segment") in _LOCAL_SEGMENTS else None


# GGUF quantisations, the most faithful first (bits per weight fall down the list)
QUANT_LADDER = ("q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k")


# a quantisation asked of another engine or format than GGUF: "AWQ or GPTQ on vLLM?"
_NOT_GGUF = re.compile(
    r"\bawq\b|\bgptq\b|\bexl2\b|\bbitsandbytes\b|\bbnb\b|\bfp8\b|\bvllm\b|\btensorrt|\bsglang\b"
    r"|\btgi\b|\blmdeploy\b|\bmlx\b"
)
# below this a GGUF quant loses noticeable quality: picked only when nothing above fits
LOWEST_ADVISED_QUANT = "q3_k_m"


def _best_quant(query: Query, box: ToolBox) -> Draft | None:
    """ "What quant should I use for Gemma 2 27B on my 3090?": the most faithful GGUF quant
    that fits with room to spare at the context asked (4,096 when none is), on llama.cpp, and
    the ones around it. None for a model no GGUF quant is made of (a diffusion or speech model),
    another engine or format asked, or no card or memory named."""
    model = query.models[0]
    engine = query.engine or "llama.cpp"
    if (model.family or "llm") != "llm" or engine not in ("llama.cpp", "ollama"):
        return None
    if _NOT_GGUF.search(query.low) or not (query.gpus or query.memory_gb):
        return None
    ref = query.gpus[0] if query.gpus else None
    gpu = gpu_choices(ref)[0] if ref else f"{query.memory_gb:g}gb"
    written = re.search(r"\b(\d{1,3})\s?gb\b", query.low)  # "an M2 macbook air 16gb"
    said = (ref.memory_gb if ref else None) or query.memory_gb or (
        float(written.group(1)) if written else None)  # fmt: skip
    if ref is not None and said and len(gpu_choices(ref)) > 1:
        sized = [g for g in gpu_choices(ref)
                 if box.call("gpu_specs", {"gpu": g}).get("memory_gb") == said]  # fmt: skip
        gpu = sized[0] if sized else gpu
    rows = []
    for quant in QUANT_LADDER:
        args = {**estimate_args(query, gpu, ref.count if ref else None, model),
                "workload": "inference"}  # fmt: skip
        args.update(precision=quant, engine="llama.cpp")
        e = box.call("estimate", args)
        if "error" not in e:
            rows.append((quant, e))
    fitting = [(q, e) for q, e in rows if e["fits"]]
    if not rows:
        return None
    where = c.gpus_phrase(rows[0][1]["num_gpus"], rows[0][1]["gpu_name"])
    asked = _unquantised_verdict(query, box, gpu, ref, model, where)
    if not fitting:
        smallest = rows[-1][1]
        return Draft(asked + f"**None of them: even {rows[-1][0].upper()} of "
                     f"{smallest['model_name']} "
                     f"needs {c.num(smallest['memory_per_gpu_gb'], 'GB')} on {where}, more than "
                     f"its {c.usable(smallest)}** "
                     f"({c.settings(smallest)}).")  # fmt: skip
    # room for the context to grow and the desktop: a quant that leaves under 1 GB (or 5%) is
    # said beside the one that leaves room, not picked
    advised = QUANT_LADDER[: QUANT_LADDER.index(LOWEST_ADVISED_QUANT) + 1]
    roomy = [(q, r) for q, r in fitting if q in advised
             and r["headroom_gb"] >= max(1.0, 0.05 * r["usable_memory_per_gpu_gb"])]  # fmt: skip
    quant, e = roomy[0] if roomy else fitting[0]
    tight = fitting[0] if roomy and fitting[0][0] != quant else None
    speed = (e.get("decode_tokens_per_s") or {}).get("typical")
    head = (
        f"**{quant.upper()}: the most faithful GGUF quant of {e['model_name']} that fits on "
        f"{where}" + (" with room to spare" if tight else "") + "**, "
        f"{c.num(e['memory_per_gpu_gb'], 'GB')} of "
        f"{c.usable(e)} at {e['context']:,} tokens of "
        f"context" + (f", about {c.num(speed, 'tokens/s')}" if speed else "") + " (llama.cpp)."
    )
    lines = [
        f"- {q.upper()}: {c.num(r['memory_per_gpu_gb'], 'GB')}, "
        + ("fits" if r["fits"] else "does not fit")
        + (
            f", about {c.num(r['decode_tokens_per_s']['typical'], 'tokens/s')}"
            if r["fits"] and r.get("decode_tokens_per_s")
            else ""
        )
        for q, r in rows
    ]
    why = ("Fewer bits per weight leave room for a longer context and read faster, at some loss "
           "of quality below 4 bits; the largest quant that fits with room for the context you "
           "need is the usual choice.")  # fmt: skip
    speeds = [round(r["decode_tokens_per_s"]["typical"], 2) for _q, r in rows
              if r["fits"] and r.get("decode_tokens_per_s")]  # fmt: skip
    apple = e["gpu_name"].startswith("Apple")
    if apple and len(speeds) > 2 and speeds.count(max(speeds)) > 1:  # the smaller no faster
        why = ("Fewer bits per weight leave room for a longer context, at some loss of quality "
               "below 4 bits; here the smaller files decode no faster: the card's decode of them "
               "is bound by unpacking the weights (llama.cpp's Metal kernels unpack each one on "
               "the shader ALUs), not by reading them, so the largest quant that fits with room "
               "for your context costs no speed.")  # fmt: skip
    if tight is not None:
        head += (f" {tight[0].upper()} fits too, with only "
                 f"{c.num(tight[1]['headroom_gb'], 'GB')} to spare.")  # fmt: skip
    if quant not in advised:
        head += (f" Below {LOWEST_ADVISED_QUANT.upper()} a model loses noticeable quality: a "
                 "smaller model at 4 bits is often the better choice.")  # fmt: skip
    return Draft("\n\n".join([asked + head, "\n".join(lines), why]))


def _unquantised_verdict(
    query: Query, box: ToolBox, gpu: str, ref: GpuRef | None, model: ModelRef, where: str
) -> str:
    """ "Will it run in fp16, and if not which quant?": the verdict on the precision said,
    first, before the quant that fits; empty when no 16- or 32-bit precision was said."""
    if query.precision not in ("fp16", "bf16", "fp32"):
        return ""
    args = {**estimate_args(query, gpu, ref.count if ref else None, model), "workload": "inference"}
    args.update(precision=query.precision, engine="llama.cpp")
    e = box.call("estimate", args)
    if "error" in e:
        return ""
    said = query.precision.upper() if query.precision != "bf16" else "BF16"
    if e["fits"]:
        return (f"**Yes in {said}: {e['model_name']} fits on {where}**, "
                f"{c.num(e['memory_per_gpu_gb'], 'GB')} of {c.usable(e)}; no quant is needed. "
                "If you want room for a longer context or more speed: ")  # fmt: skip
    return (f"**No in {said}: {e['model_name']} needs {c.num(e['memory_per_gpu_gb'], 'GB')} on "
            f"{where}, more than its {c.usable(e)}.** Instead: ")  # fmt: skip


_NOT_A_FAMILY = (
    "model",
    "models",
    "llm",
    "llms",
    "one",
    "thing",
    "local",
    "open",
    "possible",
    "dense",
    "quantized",
    "quantised",
    "i",
    "we",
    "that",
    "you",
)


def _largest_model(query: Query, box: ToolBox) -> Draft:
    """The largest catalog model that fits the card(s) named, at the precision asked or, when
    none is said, at Q4_K_M and at BF16; the next size up and what it would need."""
    ref = query.gpus[0]
    said = re.search(r"\b(?:biggest|largest)\s([a-z][\w.-]*)", query.low)
    family = next((m.text for m in query.models if m.suggestions), None) or (
        said.group(1) if said and said.group(1) not in _NOT_A_FAMILY else None
    )
    workload, _ = workload_of(query)
    inference = workload == "inference"
    sixteen = "bf16"
    if (box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}).get("tensor_formats") or {}).get(
        "bf16"
    ) is False:
        sixteen = "fp16"  # "a 1080 ti": no bf16 before Ampere, its 16 bits are fp16
    precisions = [query.precision] if query.precision or not inference else ["q4_k_m", sixteen]
    lines: list[str] = []
    for precision in precisions:
        args = {"gpu": gpu_choices(ref)[0], "precision": precision, "num_gpus": ref.count or 1,
                "context": query.context, "family": family, "workload": workload,
                "reserved_gb": query.reserved_gb}  # fmt: skip
        result = box.call("largest_model", {k: v for k, v in args.items() if v is not None})
        if "error" in result:
            return Draft(result["error"])
        e, above = result["estimate"], result["next_up"]
        label = c.FORMAT_LABELS.get(precision, precision.upper()) if precision else "Default"
        if e is not None and not inference:
            job = c.workload_label(e)
            label = f"{job[:1].upper()}{job[1:]}, {e['precision']}"
        if e is None:
            lines.append(f"{label}: no {family or 'catalog'} model fits.")
            continue
        where = c.gpus_phrase(ref.count or 1, e["gpu_name"])
        each = " on each" if ref.count and ref.count > 1 else ""
        line = (f"{label}: **{e['model_name']}** fits on {where} "
                f"({c.num(e['memory_per_gpu_gb'], 'GB')} of "
                f"{c.usable(e)}{each}, context "
                f"{e['context']:,})")  # fmt: skip
        if above:
            line += (f"; the next size up, {above['model_name']}, needs "
                     f"{c.num(above['memory_per_gpu_gb'], 'GB')}")  # fmt: skip
        lines.append(line + ".")
    head = lines[0] if len(lines) == 1 else "The largest that fits, by precision:"
    body = lines[1:] if len(lines) == 1 else [f"- {x}" for x in lines]
    card = (e or {}).get("gpu_memory_gb")
    if query.reserved_gb and card and card > query.reserved_gb:
        # "the OS uses 2.5 GB of the 8 GB, keep 1 GB spare: how much is left for the model?"
        body.append(f"Left for the model: the card's {c.num(card, 'GB')} less the "
                    f"{c.num(query.reserved_gb, 'GB')} you keep for other work = "
                    f"{c.num(card - query.reserved_gb, 'GB')}, before the runtime's own "
                    "overhead.")  # fmt: skip
    scope = f"among the catalog's {family} models" if family else "among the catalog's LLMs"
    text = "\n".join([head, *body, f"Largest by parameter count {scope}, one sequence, weights "
                                   f"all on the GPU."])  # fmt: skip
    return Draft(text, cite_more=False)  # a passage about the card says nothing of the sizes


ONE_STREAM_MAX_TOK_S = 300.0  # a pace wanted up to this is one stream's; more is a total


def _total_as_requests(query: Query) -> float | None:
    """A total of output tokens a second wanted, with no users or requests said ("serve llama
    3.1 8b at 1000 tokens/s total"), as requests a second of the replies said (or the serving
    estimate's DEFAULT_OUTPUT_TOKENS)."""
    wanted = query.needed_tok_s
    if not wanted or wanted <= ONE_STREAM_MAX_TOK_S or query.rps or query.concurrency:
        return None
    return wanted / (query.output_tokens or DEFAULT_OUTPUT_TOKENS)


MAX_DEADLINE_GPUS = 64  # the most GPUs a deadline answer counts up to (copies working apart)
# the card a pre-training cluster is counted in when the question names none
PRETRAINING_GPU = "h100-sxm5-80gb"
PRETRAINING_NOTE = ("No GPU named: counted in NVIDIA H100 SXM5 80GB boards, the usual card of "
                    "pre-training clusters (name yours for its count).")  # fmt: skip
MAX_CLUSTER_GPUS = interconnect.NODE_GPUS * 2048  # a run's cluster, up to the calculator's


def typical_job_hours(e: dict[str, Any]) -> float | None:
    """The typical hours of the whole job an estimate sized; None for an error or no job."""
    return None if "error" in e else (e.get("job_hours") or {}).get("typical")


def _beyond_the_largest_cluster(query: Query, box: ToolBox, e: dict[str, Any] | None) -> str | None:
    """A training deadline no cluster the calculator sizes meets ("405B from scratch in a
    month"): the GPUs it would take at the fewest's GPU-hours (`e`, the job on the count
    solved), spread over the hours given (no loss to scaling counted, so a floor), said beside
    the largest cluster sized."""
    hours = typical_job_hours(e) if e is not None else None
    if e is None or not hours or not query.hours:
        return None
    gpu_hours = hours * e["num_gpus"]
    # the cards whose hours within the deadline add up to the run's GPU-hours
    need = box.call("cards_for_rate", {"per_card": query.hours, "needed": gpu_hours})
    count = need.get("cards") if "error" not in need else None
    if not count or count <= MAX_CLUSTER_GPUS:
        return None
    return (
        f"**At least {c.num(count)} x {e['gpu_name']} to finish within "
        f"{c.duration(query.hours)}**: the run is about {c.num(gpu_hours, 'GPU-hours')} "
        f"on {e['num_gpus']} of them, over your {c.num(query.hours, 'hours')} (a floor: a "
        "cluster past the largest the calculator sizes loses more to communication).\n\n"
    )


def _gpus_for_deadline(
    query: Query, box: ToolBox, gpu: str, model: ModelRef | None
) -> Draft | None:
    """The fewest GPUs that finish the job within the hours given, in words (see _deadline_plan);
    the tool's error when the user's pace cannot be used."""
    plan = _deadline_plan(query, box, gpu, model)
    return plan if plan is None or isinstance(plan, Draft) else plan[1]


def finish_by(spans: str) -> str:
    """The run's end said against a time: "finish ... in a weekend", "done overnight", "trained
    by friday", "before monday"; `spans` the lengths of time that count ("weekend|night")."""
    return (
        r"\b(?:finish\w*|done|complete\w*|(?:fine-?)?tuned|trained|get through)\b[^.?!]{0,60}?"
        rf"\b(?:(?:within|in|over)\s(?:a|one|the|\d+)\s(?:{spans})s?"
        r"|overnight|(?:by|before) (?:tomorrow|monday|tuesday|wednesday|thursday|friday|saturday"
        r"|sunday|the weekend|the end of|next week|(?:the |tomorrow )?morning|(?:the )?next day"
        r"|(?:the )?weekend))\b"
    )


# a deadline for a job: any span ("finish 20000 images in a week")
FINISH_BY = finish_by("weekend|night|evening|day|week|month|hour|hr|h")
# a time said as a limit to finish by, not a span of use: "deadline is 3 weeks", "by friday"
_DEADLINE_SAID = re.compile(
    r"\bdeadline\b|\bdue\b|\bdoable\b|\b(?:in|enough) time\b|\b(?:make|meet|hit) (?:it|the date)\b"
    # "will it be done when i'm in at 8", "finished by the time we wake up"
    r"|\b(?:done|finished|ready|complete)\b[^.?!]{0,10}\b(?:when|by the time) (?:i|we)(?:'m| am"
    r"| are|'re)?\b"
    r"|\bby (?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|\bby (?:tomorrow|tonight|next week|the end|end of)|\bwithin\b|\bin (?:under|less than)\b|"
    + FINISH_BY
)


def _deadline_judged(query: Query, box: ToolBox, verdict_only: bool = False) -> Draft | None:
    """Yes or no: the job on the cards named (as many as said) against the deadline said, and,
    when they miss it, the fewest of that card that meet it; the job's estimate follows, unless
    `verdict_only` (the answer it leads goes on with a job estimate of its own)."""
    if not (query.hours and query.gpus and query.models and _DEADLINE_SAID.search(query.low)):
        return None
    if query.seconds_per_item or _GPU_HOURS_SAID.search(query.low):
        return None  # the user's own pace, or GPU-hours to spend: their handlers
    ref, model = query.gpus[0], query.models[0]
    if len(query.gpus) > 1 and len(owned := _owned(query, [g for g in query.gpus if g.ids])) == 1:
        ref = owned[0]  # "they say it needs 8x A100; we only have a 4090: can it finish in a week?"
    gpu, have = gpu_choices(ref)[0], ref.count or query.num_gpus or 1
    e = box.call("estimate", estimate_args(query, gpu, have, model))
    fuller = _pretraining_batch(query, box, e, model)  # pre-training runs full batches
    e = fuller if fuller is not None and typical_job_hours(fuller) else e
    hours = typical_job_hours(e)
    if hours is None or not e.get("fits") or (have > 1 and e["workload"] == "inference"):
        return None  # copies working apart, or a setup that cannot hold it: the plan's own
    if c.one_epoch(e):
        return None  # one epoch's time, the epochs not given: no verdict on the whole run
    yes = hours <= query.hours
    where = c.gpus_phrase(have, e["gpu_name"])
    # (the deadline as said, "3 weeks", not re-said in hours the question never wrote)
    head = (f"**{'Yes' if yes else 'No'}: about {c.duration(hours)} on {where}, "
            f"{'within' if yes else 'past'} your deadline.**")  # fmt: skip
    spent = (e.get("cost") or {}).get("usd_per_job")
    budget = query.budget
    if spent and budget and budget.per == "total" and budget.kind != "buy":
        # "enough time? budget is $25k": the job's rent at the median price against it
        under = spent <= budget.usd
        head += (f" The job rents for about {c.usd(spent)} at the median "
                 f"{c.usd(e['cost']['usd_per_gpu_hour'])} per GPU-hour, "
                 f"{'within' if under else 'over'} your {c.usd(budget.usd)}.")  # fmt: skip
    parts = [head]
    if not yes:
        plan = _deadline_plan(replace(query, num_gpus=None), box, gpu, model)
        parts += [plan[1].text.replace("**", "")] if isinstance(plan, tuple) else []
    if verdict_only:
        return Draft("\n\n".join(parts))
    job = fit(query, box, speed_first=True)
    return Draft("\n\n".join([*parts, job.text]), job.citations, job.warnings)


def _deadline_plan(
    query: Query, box: ToolBox, gpu: str, model: ModelRef | None
) -> tuple[int, Draft] | Draft | None:
    """The fewest GPUs that finish the job within the hours given: at the user's own measured pace
    (the items shared between the GPUs), else at the estimate's speed (copies of an inference
    job work apart; a training run scales over its GPUs as the estimate says)."""
    deadline = query.hours or 0.0
    items = _paced_items(query)
    if query.seconds_per_item and items:
        pace = {"seconds_per_item": query.seconds_per_item, "items": items}
        one = box.call("paced_time", {**pace, "num_gpus": 1})
        if "error" in one:
            return Draft(one["error"])
        count = max(1, math.ceil(one["hours"] / deadline - 1e-9))
        if count > MAX_DEADLINE_GPUS:
            return None
        done = box.call("paced_time", {**pace, "num_gpus": count})
        name = box.call("gpu_specs", {"gpu": gpu}).get("name", gpu)
        audio = bool(query.audio_hours) and items == query.audio_hours
        what = _pace_said(query, items)
        if audio:
            what = (f"{c.num(done['minutes_per_item'], 'minutes')} per hour of audio, "
                    f"{c.num(items, 'hours')} of audio")  # fmt: skip
        return count, Draft(
            f"**{c.gpus_phrase(count, name)} finish{'es' if count == 1 else ''} it in about "
            f"{c.duration(done['hours'])}**, within your {c.duration(deadline)}, at your own "
            f"measured pace ({what}, shared evenly). One GPU would take "
            f"{c.duration(one['hours'])}.",
            cite_more=False,
        )
    if model is None or not (model.ids or model.size_b):  # "a 1B model": a generic one of that size
        return None
    e = box.call("estimate", estimate_args(query, gpu, None, model))
    job = typical_job_hours(e)
    training = "error" not in e and e["workload"] not in ("inference",)
    if not job or (not e["fits"] and not training):
        return None  # a model one card cannot hold: the memory answer says how many
    base = 1  # the fewest cards that hold the job; a training run too big for one starts there
    if not e["fits"]:
        fewest = _fewest(query, box, gpu, model)
        if "error" in fewest or not fewest.get("solution"):
            return None
        base = fewest["solution"]
        e = box.call("estimate", estimate_args(query, gpu, base, model))
        job = typical_job_hours(e)
        if not job:
            return None
    fuller = _pretraining_batch(query, box, e, model)  # pre-training runs full batches
    settings = {}
    full_job = typical_job_hours(fuller) if fuller is not None else None
    if fuller is not None and full_job:
        e, job, settings = fuller, full_job, {"batch": fuller["batch"]}
    count = max(base, math.ceil(job * (base if training else 1) / deadline - 1e-9))
    if count > (MAX_CLUSTER_GPUS if training else MAX_DEADLINE_GPUS):
        return None
    took = job
    if not training:  # copies of an inference job work apart: each takes its share
        args = estimate_args(query, gpu, None, model)
        sized = ("images", "audio_hours", "dataset_samples")
        share = {k: v / count for k, v in args.items() if k in sized and v}
        part = box.call("estimate", {**args, **share}) if share else {}
        took = typical_job_hours(part) or job / count
    run = e
    if training:
        count = _whole_nodes(gpu, count)
    for _step in range(12 if training else 0):  # a run over N GPUs scales less than N
        run = box.call("estimate", {**estimate_args(query, gpu, count, model), **settings})
        if "error" in run:
            return None
        took = typical_job_hours(run) or job
        if took <= deadline or count > MAX_CLUSTER_GPUS:
            break
        # the shortfall scales the count (by one at least): a few steps reach thousands of GPUs
        count = _whole_nodes(gpu, max(count + 1, math.ceil(count * took / deadline)))
    if count > (MAX_CLUSTER_GPUS if training else MAX_DEADLINE_GPUS) or took > deadline:
        return None
    phrase = c.gpus_phrase(count, e["gpu_name"])
    # ("in a month" is said as a month, "in 2 weeks" as 2 weeks: not as the hours counted in)
    within = _span_said(deadline, query.low)
    head = f"**{phrase[0].upper()}{phrase[1:]} to finish within {within}**"
    held = " on them, the fewest that hold it in memory" if count == base > 1 else ""
    if count == base:
        text = f"{head}: about {c.duration(took)}{held} ({c.settings(e)})."
    elif training:  # a cluster's run: its GPU-hours, not the years a few cards would take
        text = (f"{head}: about {c.duration(took)} on {phrase} (one run over them, "
                f"{c.num(took * count)} GPU-hours; {c.settings(run)}).")  # fmt: skip
    else:
        text = (f"{head}: about {c.duration(took)} on {phrase} (copies working apart), against "
                f"{c.duration(job)} on {c.gpus_phrase(base, e['gpu_name'])} "
                f"({c.settings(e)}).")  # fmt: skip
    return count, Draft(text, cite_more=False)


def _board_card(gpu: str) -> GPU | None:
    """The card if it is a module of a switched board (SXM, OAM: NVSwitch or Infinity Fabric
    joining the board's GPUs), whose clusters are built of whole boards; None otherwise."""
    card = load_catalog().gpus.get(gpu)
    return card if card is not None and card.gpu_link == "switch" else None


def _whole_nodes(gpu: str, count: int) -> int:
    """A count of a board's GPUs past one board, rounded up to whole boards (nodes of
    NODE_GPUS): a cluster rents and wires them a node at a time."""
    if _board_card(gpu) is None or count <= NODE_GPUS:
        return count
    return math.ceil(count / NODE_GPUS) * NODE_GPUS


def _span_said(hours: float, low: str) -> str:
    """A deadline in words ("a month") or in the unit the question says it in ("2 weeks", "30
    days"), else its hours."""
    if hours in SPAN_WORDS:
        return SPAN_WORDS[hours]
    for size, unit in ((168.0, "weeks"), (24.0, "days")):
        said = re.search(rf"\b{unit[:-1]}s?\b", low)
        if said and hours >= 2 * size and (hours / size).is_integer():
            return f"{c.num(hours / size)} {unit}"
    return c.duration(hours)


def _fewest_of_each(query: Query, box: ToolBox, model: ModelRef, gpus: list[str]) -> Draft:
    """The fewest cards of each named GPU that hold the job, the fewest first."""
    solved = []
    for gpu in gpus:
        result = _fewest(query, box, gpu, model)
        if "error" in result:
            return Draft(result["error"])
        solved.append(result)
    held = sorted((r for r in solved if r["solution"]), key=lambda r: r["solution"])
    if not held:
        return Draft(c.solved(solved[0]))
    e = held[0]["estimate"]
    sets = " or ".join(f"{r['solution']} x {r['estimate']['gpu_name']}" for r in held)
    shared = {**e, "interconnect": None}  # each set has its own link
    lines = [f"**{e['model_name']} needs {sets}** for {c.workload_label(e)} "
             f"({c.settings(shared)})."]  # fmt: skip
    if e.get("weights_all_gpus_gb"):  # what is split over each set: the weights, whole
        lines[0] += f" Its weights are {c.num(e['weights_all_gpus_gb'], 'GB')} in all."
    for r in solved:
        f = r["estimate"]
        if not r["solution"]:
            lines.append(f"- {f['gpu_name']}: does not hold it on any number of GPUs considered.")
            continue
        speed = c.speed_lines(f)[:1]
        hourly = (f.get("cost") or {}).get("usd_per_hour")
        set_price = f"; {c.usd(hourly)}/hour for the set" if hourly else ""
        if mine := dict(query.gpu_prices).get(f["gpu"]):  # the user's own price for each card
            paid = box.call("rental_cost", {"usd_per_gpu_hour": mine, "hours": 1,
                                            "num_gpus": r["solution"]})  # fmt: skip
            if "error" not in paid:
                set_price = (f"; {c.usd(paid['usd'], query.currency)}/hour for the set at your "
                             f"{c.usd(mine, query.currency)} a card")  # fmt: skip
        lines.append(f"- **{r['solution']} x {f['gpu_name']}**: "
                     f"{c.num(f['memory_per_gpu_gb'], 'GB')} of "
                     f"{c.usable(f)} on each"
                     + (f"; {speed[0][0].lower()}{speed[0][1:].rstrip('.')}" if speed else "")
                     + set_price)  # fmt: skip
    priced = [(r["estimate"]["cost"]["usd_per_hour"], r) for r in held
              if (r["estimate"].get("cost") or {}).get("usd_per_hour")]  # fmt: skip
    if len(priced) >= 2 and re.search(r"\bcheap\w*|\bcost\w*|\bpric\w*|\bexpensive", query.low):
        # "how many of each, and which is cheaper?": the sets' rent an hour at median prices
        (low, cheap), (high, _dear) = (
            min(priced, key=lambda p: p[0]),
            max(priced, key=lambda p: p[0]),
        )
        lines.insert(1, f"Cheaper to rent: {cheap['solution']} x {cheap['estimate']['gpu_name']} "
                        f"at {c.usd(low)} an hour for the set, against {c.usd(high)} (median "
                        "prices; one stream's speed is below each).")  # fmt: skip
    return Draft("\n".join(lines))


# ---------------------------------------------------------------- comparisons


# the user fixes utilisation: "assuming equal MFU", "all else (MFU) equal"
_EQUAL_MFU = re.compile(
    r"\b(?:equal|same|identical|constant) (?:mfu|utili[sz]ation)\b"
    r"|\bmfu (?:is )?(?:equal|the same)\b|\ball else \(mfu\) (?:being )?equal\b"
)


def _at_equal_mfu(query: Query, box: ToolBox) -> Draft | None:
    """ "Which finishes sooner / gives more per dollar, assuming equal MFU?": at the same share
    of peak, work goes as the dense 16-bit tensor rate times the GPU count (per dollar: over the
    user's price); the calculator's own efficiencies are set aside, as the user asked."""
    if not _EQUAL_MFU.search(query.low) or len(query.gpus) != 2:
        return None
    if query.workload in (None, "inference") and query.models:
        return None  # decoding is bound by memory: utilisation of compute does not decide it
    prices = dict(query.gpu_prices)
    rows = []
    for ref in query.gpus:
        args: dict[str, Any] = {"gpu": gpu_choices(ref)[0]}
        if (ref.count or 1) > 1:
            args["num_gpus"] = ref.count
        sheet = box.call("gpu_specs", args)
        if "error" in sheet or not sheet.get("fp16_bf16_dense_tflops"):
            return None
        rows.append((ref.count or 1, sheet, prices.get(sheet["id"])))
    priced = all(p for *_, p in rows)

    def work(row: tuple[int, dict[str, Any], float | None]) -> float:
        count, sheet, price = row
        rate = float(count * sheet["fp16_bf16_dense_tflops"])
        return rate / (count * price) if priced and price else rate

    best = max(rows, key=work)
    other = min(rows, key=work)
    figures = "; ".join(
        f"{c.gpus_phrase(n, s['name'])} {c.num(s['fp16_bf16_dense_tflops'], 'TFLOPS')}"
        + (
            f" each, {c.num(s['totals']['fp16_bf16_dense_tflops'], 'TFLOPS')} together"
            if n > 1
            else ""
        )
        + (f" at {c.usd(p)}/hour each" if priced and p else "")
        for n, s, p in rows
    )
    if priced and len(rows) == 2:
        fast, slow = sorted(rows, key=lambda r: -r[1]["fp16_bf16_dense_tflops"])
        rate_x = fast[1]["fp16_bf16_dense_tflops"] / slow[1]["fp16_bf16_dense_tflops"]
        price_x = (fast[2] or 1) / (slow[2] or 1)
        head = (
            f"**The {best[1]['name']} gives more work per dollar at equal MFU: the "
            f"{fast[1]['name']} has {c.num(rate_x)}x the dense BF16 rate for "
            f"{c.num(price_x)}x the price**"
        )
    elif priced:
        head = f"**The {best[1]['name']} gives the most work per dollar at equal MFU**"
    else:
        head = (
            f"**{c.gpus_phrase(best[0], best[1]['name'])} finish sooner at equal MFU: about "
            f"{c.num(work(best) / work(other))}x the dense BF16 compute**"
        )
    return Draft(
        f"{head} (dense 16-bit tensor peak: {figures}).\n\n"
        "At equal model FLOPs utilisation the time for a fixed token budget goes as the "
        "peak rate of the cards together; FP8 or a different MFU would change this."
    )


def _second_verdict(text: str) -> str:
    """The fit table under a pick already made: its head a plain line, not a second verdict
    ("It depends on which ...", "Which one do you have?" after "Pick the A100 80GB")."""
    head, _, rest = text.partition("\n")
    if head.startswith("**"):
        head = re.sub(r"^\*\*(?:It depends on which|Pick the [^:*]+|Yes): (?:the fastest, and )?",
                      "", head)  # fmt: skip
        head = head.replace("**", "")
        head = head[:1].upper() + head[1:]
    rest = rest.replace("\n\nWhich one do you have?", "")
    return f"{head}\n{rest}" if rest else head


# a claim that one card has more (or less) of a datasheet figure than another
_MORE_THAN = re.compile(
    r"\b(?:(more|higher|bigger|larger|faster|greater|wider)|(less|lower|smaller|fewer|slower"
    r"|narrower))\b[^?.!]{0,40}?\bthan\b"
    r"|\b(match(?:es)?|equals?|keeps? up with|(?:is|are) as (?:fast|good|quick) as)\b"
    r"|\b(the same|identical)\b(?= (?:on|for|in|between) (?:both|the two|each|them)\b)"
)
MATCH_SHARE = 0.97  # "does the H20 match the H100 on BF16?": within 3% counts as a match


# "has over twice the memory of an H100", "about 2.4x the bandwidth", "nearly double"
_RATIO_CLAIM = re.compile(
    r"\b(?:(over|more than|at least)|(almost|nearly|close to)|about|roughly|around)?\s?"
    r"(twice|double|triple|(\d+(?:\.\d+)?)\s?(?:x|times)"
    r"|((?:one|two|three|four|five|six)(?: and a half)?) times)\s(?:as much|the|more)\b"
)
_TIMES_WORDS = {"one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "six": 6.0}
RATIO_SAID = 0.1  # "about twice": within a tenth of the ratio said


def _claimed(query: Query) -> list[GpuRef]:
    """The cards a claim can be about: each resolved one, and a name that covers variants
    ("NVIDIA's H200") unless one of its variants is also named ("below H100 pricing ... the
    H100 SXM": the SXM)."""
    return [
        g for g in query.gpus
        if g.resolved or (g.ids and not any(o is not g and o.ids and set(o.ids) < set(g.ids)
                                            for o in query.gpus))
    ]  # fmt: skip


def _ratio_holds(claim: re.Match[str], ratio: float) -> bool:
    """ "over twice", "almost two and a half times", "about 2.4x": the ratio said, against the
    ratio of the two datasheet figures."""
    if claim.group(5):  # "two and a half times"
        first = claim.group(5).split()[0]
        want = _TIMES_WORDS[first] + (0.5 if "half" in claim.group(5) else 0.0)
    else:
        want = {"twice": 2.0, "double": 2.0, "triple": 3.0}.get(claim.group(3)) or float(
            claim.group(4)
        )
    if claim.group(1):  # "over twice"
        return ratio > want
    if claim.group(2):  # "almost twice": a little under it
        return (1 - 2 * RATIO_SAID) * want <= ratio <= (1 + RATIO_SAID / 2) * want
    return abs(ratio / want - 1) <= RATIO_SAID


def _claim_checked(query: Query, sheets: list[dict[str, Any]], asked: tuple[str, ...]) -> str:
    """ "Does the RTX 5080 have more VRAM than the 4080 Super?", "The MI300X has almost two and a
    half times the memory of an H100. Accurate?": yes or no from the two datasheet figures, the
    card named before the comparison against the one after it ("is the bandwidth the same on
    both?": the two in the order named)."""
    # "the V100 beats the H100 at fp64": more than it
    low = re.sub(r"\b(?:beats?|outperforms?|outpaces?)\b", "is faster than", query.low)
    ratio = _RATIO_CLAIM.search(low)  # before "more than": "more than twice the memory of"
    claim = ratio or _MORE_THAN.search(low)
    if not (claim and YES_NO.search(low) and len(asked) == 1):
        return ""
    # each card by its name as written, or by its form-factor word alone ("than the sxm")
    said = {id(g): _written(g, low) for g in _claimed(query)}
    refs = [g for g in query.gpus if said.get(id(g))]
    if not ratio and claim.group(4):
        pair = sorted(refs, key=lambda g: low.find(said[id(g)]))
        subject, other = (pair[0], pair[1]) if len(pair) == 2 else (None, None)
    else:
        subject = max(refs, key=lambda g: low.rfind(said[id(g)], 0, claim.start()), default=None)
        other = next((g for g in refs if g is not subject and said[id(g)] in low[claim.end() :]),
                     None)  # fmt: skip
        if subject is not None and low.rfind(said[id(subject)], 0, claim.start()) < 0:
            subject = None
    if subject is None or other is None:
        return ""
    a = next((s for s in sheets if s["id"] in subject.ids), None)
    b = next((s for s in sheets if s["id"] in other.ids), None)
    field = asked[0]
    if (
        a is None
        or b is None
        or not isinstance(a.get(field), (int, float))
        or not isinstance(b.get(field), (int, float))
    ):
        return ""
    if ratio:
        if not b[field]:
            return ""
        more = _ratio_holds(ratio, a[field] / b[field])
    elif claim.group(4):  # the same: within 1%
        more = abs(a[field] - b[field]) <= 0.01 * max(abs(a[field]), abs(b[field]))
    elif claim.group(3):  # "does the H20 match the H100 SXM": as much, or all but
        more = a[field] >= MATCH_SHARE * b[field]
    else:
        more = a[field] > b[field] if claim.group(1) else a[field] < b[field]
    label = c.FIELD_LABELS[field][0]
    same = " (the same)" if a[field] == b[field] else ""
    return (f"**{'Yes' if more else 'No'}: {label} of the {a['name']} is "
            f"{c.field_value(a, field)}, against {c.field_value(b, field)} on the "
            f"{b['name']}{same}.**")  # fmt: skip


# "which one has more FP16 tensor TFLOPS?", "qual tem mais banda de memoria?"
_WHICH_MORE = re.compile(
    r"\b(?:which|qual|welche|quelle|cu[aá]l)\b[^?.!]{0,30}?\b(?:(more|higher|bigger|larger|greater"
    r"|wider|mais|maior|mehr|plus|m[aá]s)|(less|lower|smaller|fewer|narrower|menos|menor|weniger"
    r"|moins))\b"
)


def _which_has_more(query: Query, sheets: list[dict[str, Any]], asked: tuple[str, ...]) -> str:
    """ "g5.xlarge or g6.xlarge, which one has more FP16 tensor TFLOPS?": the card with the most
    (or least) of the one figure asked, named first, with every card's figure (per GPU)."""
    said = _WHICH_MORE.search(query.low)
    per = " per GPU" if any((g.count or 1) > 1 for g in query.gpus) else ""
    field = asked[0] if len(asked) == 1 else None
    valued = [s for s in sheets if field and isinstance(s.get(field), (int, float))]
    if not said or field is None or len(valued) < 2 or len(valued) != len(sheets):
        return ""
    best = (max if said.group(1) else min)(valued, key=lambda s: s[field])
    if sum(1 for s in valued if s[field] == best[field]) > 1:
        return (
            f"**The same {c.FIELD_LABELS[field][0]} on "
            + ", ".join(s["name"] for s in valued)
            + f": {c.field_value(best, field)}.**"
        )
    word = "more" if said.group(1) else "less"
    others = ", ".join(f"{c.field_value(s, field)} on the {s['name']}" for s in valued
                       if s is not best)  # fmt: skip
    return (f"**The {best['name']} has {word} {c.FIELD_LABELS[field][0]}{per}: "
            f"{c.field_value(best, field)}, against {others}.**")  # fmt: skip


def _written(ref: GpuRef, low: str) -> str:
    """How the question writes this card: its name, or its form-factor word alone ("the sxm"
    after "the h100 nvl"); "" when neither is in the text."""
    if ref.text.lower() in low:
        return ref.text.lower()
    bare = re.sub(r"^(?:nvidia|amd|intel|geforce)\s+", "", ref.text.lower())
    if bare and bare in low:  # "NVIDIA's H200"
        return bare
    for form in (ref.form_factor, ref.text.split()[-1]):
        form = (form or "").lower()
        if form in ("sxm", "sxm4", "sxm5", "pcie", "nvl") and re.search(rf"\b{form}\b", low):
            return form
    return ""


def _fields_of_each(query: Query, box: ToolBox) -> str:
    """The datasheet figures a question about a job also asks of the cards named, one line per
    figure ("memory bandwidth: A10 600 GB/s, L4 300 GB/s"); "" when none is asked."""
    asked = tuple(f for f in query.fields if f in c.FIELD_LABELS)
    if not asked or len(query.gpus) < 2:
        return ""
    sheets = [box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}) for ref in query.gpus[:4]]
    sheets = [s for s in sheets if "error" not in s]
    return c.spec_lines(sheets, asked, variants=False) if len(sheets) >= 2 else ""


# a card run below its board power: "a 3090 power capped to 250w", "undervolted to 280 W"
_CAPPED = re.compile(
    r"\b(?:cap(?:ped|ping)?|power[ -]?limit(?:ed)?|undervolt(?:ed|ing)?|"
    r"limited|pl)\b"
)


def cap_on_one(query: Query, box: ToolBox) -> str:
    """ "Does a 3090 capped to 250 W still beat a 4070 Ti Super for an 8B?": what the cap does
    to the card it is said of (the one named last before the watts), as the comparison's
    figures are at full board power. Empty when no card is capped."""
    cap = query.draw_w if query.draw_each else None
    if cap is None and not _WHOLE_BOX.search(query.low):
        cap = query.max_power_w  # "my 3090 is power limited to 250W"
    if not (cap and _CAPPED.search(query.low) and query.gpus):
        return ""
    watts = re.search(r"\d+(?:\.\d+)?\s?(?:w|watts?)\b", query.low)
    if watts is None:
        return ""
    before = [(query.low.rfind(ref.text.lower(), 0, watts.start()), ref) for ref in query.gpus]
    placed = [(at, ref) for at, ref in before if at >= 0]
    ref = max(placed, key=lambda p: p[0])[1] if placed else query.gpus[0]
    sheet = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]})
    board = sheet.get("tdp_w")
    if "error" in sheet or not board or cap >= board:
        return ""
    share = f"{c.num(cap / board)}x its {c.num(board, 'W')} board power"
    model = query.models[0] if query.models else None
    decode = query.workload == "inference" and (model is None or model.family in (None, "llm"))
    if decode:
        return (f"**Your {c.num(cap, 'W')} cap on the {sheet['name']}** ({share}) "
                "leaves token generation close to the figures above: decode is bound by memory "
                f"bandwidth ({c.num(sheet['bandwidth_gbs'], 'GB/s')}), which a cap does not "
                "lower. Prompt processing, which is bound by compute, slows some, usually far "
                "less than the power taken away.")  # fmt: skip
    return (
        f"**Your {c.num(cap, 'W')} cap on the {sheet['name']}** ({share}): the "
        "figures above are at full board power; this work is bound by compute, so the "
        "capped card runs slower clocks and loses some speed, usually far less than the "
        "power taken away, as clocks fall less than power."
    )


def _jobs_stated(query: Query) -> tuple[str, ...]:
    """The common jobs (compose.COMPARE_JOBS) the user stated for a comparison of cards: the
    job said (training of any kind, an LLM's inference), with what fits (memory), and any other
    the words name ("fine for training, or inference only?"); () when none was said."""
    if not query.workload_given or not query.workload:
        return ()
    llm = all((m.family or "llm") == "llm" for m in query.models)
    said = {"training"} if query.workload != "inference" else {"LLM inference"} if llm else set()
    if not said:
        return ()
    if re.search(r"\binference\b|\bserv(?:e|ing)\b|\bdecod\w*|\btok(?:en)?s?/s\b", query.low):
        said.add("LLM inference")
    if re.search(r"\btrain\w*|\bfine-?tun\w*", query.low):
        said.add("training")
    return (*sorted(said), "large models")


def compare(query: Query, box: ToolBox) -> Draft:
    if carried := _measured_elsewhere(query, box) or _steps_carried(query, box):
        return carried
    if (mixed := _mixed_pair(query, box)) is not None:
        return mixed  # "3090 & 4090 combo for 70b": the two cards together, not one against one
    if (engines := _engines_weighed(query, box)) is not None:
        return engines
    if not query.gpus and len({m.ids for m in query.models if m.ids}) >= 2:
        return models_memory(query, box)  # two models, no GPU: what each one weighs
    if (query.usd_per_kwh is not None and len([r for r in query.gpus if r.ids]) >= 2
            and not query.user_price_usd_per_hour and not query.draw_w):  # fmt: skip
        # "3090 vs 4060 ti at 0.35/kWh, cost per year": each card's bill first, then the two
        bill = electricity_bill(query, box, 1)
        side = compare(replace(query, usd_per_kwh=None), box)
        return Draft(f"{bill.text}\n\n{side.text}", side.citations, side.warnings)
    capped = _within_the_box(query, box)
    if capped is not None:  # "the whole computer must use under 400 W": that first
        side = compare(replace(query, max_power_w=None), box)
        # (the pick on speed alone, after the cap's: no second verdict against the first)
        text = re.sub(r"^\*\*(?:Yes: )?[Pp]ick the ([^:*]+): ([^*]+)\*\*",
                      r"Without the cap, the \1 would be the pick: \2", side.text)  # fmt: skip
        return Draft(f"{capped}\n\n{text}", side.citations, side.warnings)
    equal = _at_equal_mfu(query, box)
    if equal is not None:
        return equal
    if len(query.gpu_prices) >= 2:  # each card at the user's own price: work per dollar decides
        by_price = _priced_choice(query, box)
        if by_price is not None:
            return by_price
    if _bought_and_rented(query) and (query.purchase_usd or query.user_price_usd_per_hour):
        return rent_or_buy(query, box)  # "rent an H100 at $2.49/h vs buy a used 3090 for $700"
    if len(query.gpu_purchase_prices) >= 2:  # "used 3090 for $700 or a 4060 Ti for $450"
        to_buy = _priced_choice(query, box, bought=True)
        if to_buy is not None:
            return to_buy
    if (loaded := _load_on_each(query, box)) is not None:
        return loaded  # "H100 worth it over an A100 for a 13b at 50 req/s?": the load on each
    if (daily := _worth_the_difference(query, box)) is not None:
        return daily  # "is the 4090 worth it at 200 images a day?": each day's time and price
    sized = query.train_tokens or query.dataset_samples or query.images or query.audio_hours
    time_asked = bool(HOW_LONG.search(query.low)
                      or re.search(r"\bhow many (?:hours|days|weeks)\b", query.low))  # fmt: skip
    # ("would an A10G be meaningfully faster, and by how much?": the speed asked, not the cost)
    speed_only = bool(_FASTER_ASKED.search(query.low)) and not re.search(
        r"\bcheap\w*|\bcosts?\b|\bworth\b|\bprice\w*|\bmoney\b|\bvalue\b|\$", query.low
    )
    if sized and query.models and len(query.gpus) >= 2 and not query.user_price_usd_per_hour and (
            not time_asked) and not speed_only:  # fmt: skip
        # "H100 worth it over an A100 for pre-training a 1.3B on 30B tokens?": the whole job's
        # cost and time on each, the cheaper first
        costed = cost(query, box)
        lead = costed.text.split("\n", 1)[0]
        if "the job costs least there" in lead or "the job is done first there" in lead:
            return costed
    worth = _worth_the_price(query, box)
    if worth is not None:  # "is the 4090 worth the price premium over the 4080?"
        return worth
    if query.models:  # "is a 4090 faster than a 3090 for SDXL?": the model on each, ratio first
        assumed = all(m.assumed and m.family == "llm" for m in query.models)
        inferred = (query.workload or "inference") == "inference"  # (no GGUF is trained)
        if assumed and inferred and not query.precision and _all_local(
                box, gpus_named(query)[:4]):  # fmt: skip
            query = replace(query, precision="q4_k_m")  # "for local LLMs": as GGUFs are run
        draft = _fit(query, box)
        estimates = [call.result for call in box.calls if call.name == "estimate"]
        if _home_format_levels(query, box, estimates):
            # "M2 Ultra 192GB vs 2x 4090 for llama 3.1 70b": in 16 bits only one holds it, in
            # the 4-bit GGUF such machines run it both do: that is the comparison people mean
            query = replace(query, precision=HOME_PRECISION)
            draft = _fit(query, box)
            draft.text += (f"\n\nCompared in {HOME_PRECISION} (a GGUF in llama.cpp), as such "
                           "machines run it: in 16 bits it fits only some of them.")  # fmt: skip
            estimates = [call.result for call in box.calls if call.name == "estimate"]
        elif (leaner := _leaner_format_for_all(query, box, estimates)) is not None:
            # "2x A6000 or one A100 80GB for Mixtral, which should I get?": in 16 bits neither
            # holds it; in a format both hold, the comparison picks one
            query = replace(query, precision=leaner)
            draft = _fit(query, box)
            held = _held_in_16_bits(replace(query, precision=None), box)
            draft.text += f"\n\nCompared in {leaner.upper()}: {held}"
            estimates = [call.result for call in box.calls if call.name == "estimate"]
        alone = [e for e in estimates if "error" not in e and (e.get("num_gpus") or 1) == 1]
        if (_SPEED_UP.search(query.low) and not _all_local(box, gpus_named(query)[:4])
                and any(e["fits"] for e in alone) and not all(e["fits"] for e in alone)
                and not any(ref.count for ref in query.gpus) and not query.num_gpus):  # fmt: skip
            # "B200 vs H100 for training a 70B, what speedup?": one holds it, the other not;
            # the speedup people mean is node against node, 8 of each
            noded = replace(query, gpus=tuple(replace(ref, count=NODE_GPUS, ids=_board_module(
                box, ref.ids)) for ref in query.gpus))  # fmt: skip
            on_nodes = compare(noded, box)
            if on_nodes.text.startswith("**Pick"):
                on_nodes.text += (f"\n\n_Note: one card alone does not hold it on every side: "
                                  f"compared on a node of {NODE_GPUS} of each._")  # fmt: skip
                return on_nodes
        # "pretraining a 7B model": a generic one, sharded over the fewest that hold it
        named = query.models[0].ids or (query.models[0].size_b and query.workload != "inference")
        if (alone and named and not any(ref.count for ref in query.gpus)
                and not query.num_gpus):  # fmt: skip
            as_asked = [box.call("estimate", estimate_args(query, gpu, None, query.models[0]))
                        for ref in query.gpus for gpu in gpu_choices(ref)]  # fmt: skip
            holds = [bool(e.get("fits")) for e in as_asked]
            # datacenter cards are set side by side as many as hold it as asked (not the
            # alternatives' "with 8-bit AdamW it fits on one"); desk cards, where a leaner recipe
            # on one card is what people run, only when no recipe fits one
            desk = any(box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}).get("segment")
                       in _LOCAL_SEGMENTS for ref in query.gpus if ref.ids)  # fmt: skip
            none_holds = not any(e["fits"] for e in alone) if desk else not any(holds)
            money = _per_token_asked(query) or _COST_WORDS.search(query.low) or (
                VALUE_ASKED.search(query.low))  # fmt: skip
            # "h200 worth it over h100 for 405b fp8, or b200s?": the fewest of each that hold it;
            # "mi300x vs h100 for serving llama 3.1 70b, cost per million tokens": one holds it
            # alone, the other in twos, and the money is set on the fewest of each
            partly = any(holds) and not all(holds) and bool(money) and not desk
            if none_holds or partly:
                fewest = _fewest_setups(query, box, query.models[0])
                if fewest:
                    # (the one-card check below it is no second verdict: said as what it is)
                    single = re.sub(r"^\*\*No: ", "**On one card of each: ", draft.text)
                    return Draft(f"{fewest}\n\n{single}", draft.citations, draft.warnings)
        if _ENOUGH_OR_NEED.search(query.low) and _enough_or_more(query, estimates):
            return draft  # "will a t4 be ok or do i need an a100": the fit led with the first
        if HOW_LONG.search(query.low) and (timed := _job_time_of_each(box)):
            # "H100 vs A100 for 1B on 20B tokens: how many days each?": the job's time leads,
            # fastest first, in place of the comparison's own time line
            lead, _, rest = draft.text.partition("\n\n")
            body = rest if lead.startswith(("**The whole job:", "**One epoch:")) else draft.text
            return Draft(f"{timed}\n\n{body}", draft.citations, draft.warnings)
        ranked = "least rent" in draft.text.split("\n", 1)[0]  # the value pick leads already
        per_work = _COST_OF_WORK.search(query.low) and not _per_token_asked(query) and not ranked
        if per_work and (unit_costs := _work_cost_of_each(box)):  # "cost per hour of audio?"
            return Draft(f"{unit_costs}\n\n{draft.text}", draft.citations, draft.warnings)
        ratio = _model_ratio(query, box)
        figures = _fields_of_each(query, box)  # "... give me bandwidth and board power for both"
        # "which is cheaper per token?": the cost of a million tokens on each, first
        per_token = "\n".join(_token_costs(query, box)) if _per_token_asked(query) else ""
        if _value_asked(query) and "least rent" in draft.text.split("\n", 1)[0]:
            ratio = ""  # "A10G vs L4 vs T4 for whisper, best value?": the rent decides, not speed
        if not ratio:
            return Draft("\n\n".join(filter(None, [_per_units_cost(query, box), per_token,
                                                     draft.text, figures])),
                         draft.citations, draft.warnings)  # fmt: skip
        ratio = multiple_judged(query, box) + ratio  # "is the H100 really 3x faster?"
        rented = _RENT_SAID.search(query.low) or query.providers
        if VALUE_ASKED.search(query.low) and not rented and (
                bought := _bought_value(box, query.condition,
                                        dict(query.gpu_purchase_prices))):  # fmt: skip
            ratio = f"{bought}\n\n{ratio}"  # "which is the better value" of cards to buy
        second = _second_verdict(draft.text)
        capped = cap_on_one(query, box)
        per_unit = _per_units_cost(query, box)  # "cost per 1000 hours of audio": each card's
        text = "\n\n".join(filter(None, [per_unit, per_token, ratio, capped, figures, second]))
        return Draft(text, draft.citations, draft.warnings)
    asked = tuple(f for f in query.fields if f in c.FIELD_LABELS)
    shown = tuple(dict.fromkeys([*asked, *c.SUMMARY_FIELDS]))
    ids, notes = [], []
    for ref in query.gpus:
        choices = gpu_choices(ref)
        if ref.open_variant:
            sheets = [box.call("gpu_specs", {"gpu": g}) for g in choices]
            same = all(
                c.field_value(s, f) == c.field_value(sheets[0], f)
                for s in sheets
                for f in (asked or shown)
            )
            if same or len(choices) + len(query.gpus) > 4:
                # the table shows more figures than were asked: said when they differ
                every = all(
                    c.field_value(s, f) == c.field_value(sheets[0], f)
                    for s in sheets
                    for f in shown
                )
                notes.append(c.variant_note(ref.text, sheets, shown, every, asked if same else ()))
                choices = choices[:1]
        ids += choices
    ids = list(dict.fromkeys(ids))  # "H100 pricing ... the H100 SXM": one card, named twice
    narrowest = min(query.gpus, key=lambda g: len(g.ids))
    one_card = all(set(narrowest.ids) <= set(g.ids) for g in query.gpus)
    if one_card and len(query.providers) >= 2:
        # "hourly price of an H100 on lambda vs runpod vs aws p5": one card, clouds compared
        return cost(replace(query, gpus=(narrowest,), intent="cost"), box)
    result = box.call("compare_gpus", {"gpus": ids})
    if "error" in result:
        return Draft(result["error"])
    sheets = result["gpus"]
    head = c.compare_head(sheets, _jobs_stated(query))
    if (counted := _setups_counted(query, box, sheets)) is not None:
        head = counted  # "4x 4090 vs 1x h100": each setup's figures in all
    if c.HOW_MUCH_FASTER.search(query.low) and (ratio := c.ratio_head(sheets)):
        head = ratio  # "how much slower is the laptop one really": the ratios, first
    times = multiple_asked(query.low)
    if times and times > 1 and not query.models and (ratio := c.ratio_head(sheets)):
        # "swears an H100 is ten times the speed of a 4090 at everything": the claimed multiple
        # against the datasheet's ratios on each job's deciding figure
        ratios = [
            max(a, b) / min(a, b)
            for a, b in ((sheets[0].get(f), sheets[1].get(f)) for _j, f, _w in c.COMPARE_JOBS[:2])
            if a and b
        ]
        holds_up = bool(ratios) and min(ratios) >= 0.9 * times
        head = (f"**{'Yes' if holds_up else 'No'}, {'about' if holds_up else 'not'} "
                f"{c.num(times)}x on the datasheet.** {ratio}")  # fmt: skip
    within = _within_budget(query, box, ids)
    if within and 2 <= len(within[1]) < len(ids):  # the pick among the cards the budget buys
        kept = box.call("compare_gpus", {"gpus": within[1]})
        head = c.compare_head(kept["gpus"])
    elif within and len(within[1]) == 1:
        name = next(s["name"] for s in sheets if s["id"] == within[1][0])
        head = f"**Pick the {name}: the only one of them within the budget.**"
    # "4070 ti super or 4080 super? what's the TDP of the 4080 super": a pick asked, and a figure
    # ("fp64: a100 vs h100 vs mi300x" with no job said sets the cards side by side on that
    # figure: the pick is on it)
    choice = _CHOICE_SAID.search(_VS_ONLY.sub(" ", query.low) if not query.workload_given
                                 else query.low)  # fmt: skip
    chosen = bool(asked) and bool(choice)
    drawn = _less_power(query, box) if "tdp_w" in asked else None
    if drawn:  # "which one would be quieter and use less power?": that pick, by the watts
        chosen = False
    figures = c.asked_line(sheets, asked) if asked else ""
    listed = len(asked) >= 3  # "state, for each: memory, bandwidth, FP16, FP8 and power"
    if listed:
        figures = c.compare_table(sheets, shown)  # the figures asked are the table's first rows
    # ("which should we procure for double precision: L40S or A100?": a choice asked on a
    # compute figure of its own is made on that figure)
    on_figure = not chosen or (bool(asked) and asked[0] in _PICK_ON_FIGURE)
    if asked and on_figure and not {f for _job, f, _why in c.COMPARE_JOBS} & set(asked):
        # "how do they compare in FP64, for an ocean model?": the pick on the figure asked,
        # not on the LLM and training figures nobody asked about
        head = c.field_pick(sheets, asked[0]) or ""
    raised = _figure_raised(query, box) if asked else None  # "would moving to X raise FP64?"
    if raised:
        head = f"{raised}\n\n{figures}"
    elif asked and YES_NO.search(query.low) and re.search(
            r"\b(?:faster|quicker|better|slower)\b", query.low):  # fmt: skip
        # "is it actually any faster?? gimme bandwidth, tflops and power": the pick answers it
        head = "\n\n".join(filter(None, [head, drawn, figures]))
    elif asked:  # the asked figures lead: "FP64 of the A100 vs the H100"
        head = "\n\n".join(filter(None, [drawn, figures, head]))
        claim = None if drawn else (_claim_checked(query, sheets, asked)
                                    or _which_has_more(query, sheets, asked))  # fmt: skip
        head = f"{claim}\n\n{head}" if claim else head
    lines = [] if listed else [c.compare_table(sheets, shown)]
    priced = [(s, box.call("prices", {"gpu": s["id"]})) for s in sheets]
    cheap = [
        f"{s['name']} {c.usd(p['summary_usd_per_gpu_hour']['median'])}/hour"
        for s, p in priced
        if p.get("summary_usd_per_gpu_hour")
    ]
    if cheap:
        lines.append("Median rental: " + ", ".join(cheap) + ".")
    lines += notes
    stack = c.stack_notes(sheets)
    # "A4000 or A5000 for TensorFlow training?": the job's speed ratio leads, unless a figure
    # was asked ("does the H20 match the H100 on BF16, for training?")
    job = None if asked and not chosen else _job_ratio(query, box, ids)
    if job:
        job = multiple_judged(query, box) + job  # "is the H100 really 3x faster?"
    rented = _RENT_SAID.search(query.low) or query.providers
    valued = job and VALUE_ASKED.search(query.low) and not rented
    bought = (_bought_value(box, query.condition, dict(query.gpu_purchase_prices)) if valued
              else None)  # fmt: skip
    if bought:
        job = f"{bought}\n\n{job}"  # "which is the better value" of cards to buy
    lead = f"{job}\n\n{figures}" if job and figures else job or head
    buying = _cards_bought(query)
    value = None if job or buying else _value_asked(query) and _per_rented_dollar(
        query, box, ids, asked)  # fmt: skip
    if value:
        lead = f"{value}\n\n{lead}"  # "which has the best perf per dollar for fp16 training?"
    if within:
        lead = f"{within[0]}\n\n{lead}"  # "A6000 Ada vs L40S vs H100, budget ~10k per card"
    if stack and _SOFTWARE_ASKED.search(query.low):  # "or will the software bite us"
        return Draft("\n\n".join([lead, *stack, "\n".join(lines)]))
    return Draft(lead + "\n\n" + "\n".join([*lines, *stack]))


# the lower draw asked for: "which uses less power", "quieter", "more power efficient"
_LESS_POWER = re.compile(
    r"\b(?:less|lower|least|lowest|more|most|higher|fewer)\s(?:\w+\s)?(?:power|watts?|energy"
    r"|electricity)\b|\b(?:power|energy)[- ](?:efficient|hungry)\b|\bquiet\w*|\bnois\w+|\bloud\w*"
    # a hot, closed space: the card that sheds less heat
    r"|\b(?:poorly|badly|barely|not well|un)[- ]?ventilated\b|\bno (?:ventilation|airflow)\b"
    r"|\b(?:cupboard|closet)\b"
)
_NOISE = re.compile(r"\bquiet\w*|\bnois\w+|\bloud\w*")


def _less_power(query: Query, box: ToolBox) -> str | None:
    """ "M2 Ultra or 2x 4090: which would be quieter and use less power?": each setup's power
    (a card's times the cards in it) and the one that draws less; noise is not on record, and
    follows the heat a setup sheds."""
    if not _LESS_POWER.search(query.low) or len(query.gpus) < 2:
        return None
    rows = []
    for ref in query.gpus:
        sheet = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]})
        watts = sheet.get("tdp_w") if "error" not in sheet else None
        if not watts:
            return None
        count = ref.count or 1
        rows.append((watts * count, c.gpus_phrase(count, sheet["name"]), count))
    rows.sort()
    (low_w, low_name, _), rest = rows[0], rows[1:]
    others = " and ".join(f"{c.num(w, 'W')} for {name}" for w, name, _ in rest)
    summed = ", a card's times the cards" if any(n > 1 for *_, n in rows) else ""
    noise = ""
    if _NOISE.search(query.low):
        noise = (
            " Noise is not on record; a setup that sheds less heat needs less airflow, so "
            "the lower-power one is usually the quieter."
        )
    return (f"**Less power: {low_name}, {c.num(low_w, 'W')} against {others}** (board power"
            f"{summed}, at full load).{noise}")  # fmt: skip


def _bought_value(
    box: ToolBox, condition: str | None = None, yours: dict[str, float] | None = None
) -> str | None:
    """ "4090 vs 5090 vs 6000 Ada for training diffusion, which is the better value?": the job
    just compared on each card against its newest price to buy (new, else its launch price; a
    used one first when "used" is said; the user's price where given, `yours`), the most speed
    for each dollar first; cards that do not hold the job said as such."""
    compared = next((call.result for call in reversed(box.calls)
                     if call.name == "compare_workload" and "error" not in call.result),
                    None)  # fmt: skip
    if compared is None:
        return None
    rows, left = [], []
    for r in compared["gpus"]:
        if not r["speed"]:
            left.append(r["gpu_name"])
            continue
        if yours and r["gpu"] in yours:  # "5090 is 2800 and 4090 is 2000": their prices
            price: dict[str, Any] | None = {"usd": yours[r["gpu"]], "kind": "your price",
                                            "date": "given"}  # fmt: skip
        else:
            prices = box.call("purchase_prices", {"gpu": r["gpu"]}).get("prices") or []
            kinds = ("used", "new", "msrp") if condition == "used" else ("new", "msrp")
            price = next((p for kind in kinds for p in prices if p["kind"] == kind), None)
        if price is None:
            return None  # a card with no price to buy: no value to weigh
        rows.append((r["speed"] / price["usd"], r, price))
    if len(rows) < 2:
        return None
    rows.sort(key=lambda x: -x[0])
    unit = compared["unit"]
    said = {"new": "new", "used": "used", "msrp": "launch price"}
    each = [f"the {r['gpu_name']} {c.ratio_figure(r['speed'], unit)} for {c.usd(p['usd'])} "
            f"({said.get(p['kind'], p['kind'])}, {p['date']})"
            for _v, r, p in rows]  # fmt: skip
    out = f" The {', '.join(left)} does not hold it." if left else ""
    return (
        f"**Best value to buy: {each[0]}**, against {'; '.join(each[1:])} (by the "
        f"{compared['metric']} of {compared['model_name']}).{out}"
    )


# "worth the price difference if I only make 50 images a day": the day's work on each card
_WORTH_ASKED = re.compile(r"\bworth\b|\bjustif\w+|\bpays? off\b|\bmakes? sense\b")
_IMAGES_A_DAY = re.compile(
    r"(\d[\d,]*)\s(?:[a-z]+\s)?(?:images?|pictures?|pics|renders?|generations?|photos?)\s"
    r"(?:a|per|each|every|/)\s?day\b"
)


def _worth_the_difference(query: Query, box: ToolBox) -> Draft | None:
    """ "3090 or 4090 for SDXL: worth the difference at 50 images a day?": the day's images on
    each card (the time each takes a day) beside what each costs to buy, so the time saved is
    weighed against the money."""
    said = _IMAGES_A_DAY.search(query.low)
    models = [m for m in query.models if m.ids and m.family == "diffusion"]
    if not (said and models and len(query.gpus) == 2 and _WORTH_ASKED.search(query.low)):
        return None
    per_day = float(said.group(1).replace(",", ""))
    rows = []
    for ref in query.gpus:
        gpu = gpu_choices(ref)[0]
        e = box.call("estimate", estimate_args(query, gpu, ref.count, models[0]))
        pace = (e.get("seconds_per_image") or {}).get("typical") if "error" not in e else None
        if not pace or not e["fits"]:
            return None
        day = box.call("paced_time", {"seconds_per_item": pace, "items": per_day})
        bought = box.call("purchase_prices", {"gpu": gpu})
        price = c.purchase(bought, query.condition or "new").split("\n", 1)[0]
        rows.append((e, day, price))
    rows.sort(key=lambda r: r[1]["hours"])
    fast, slow = rows
    scale = "minutes" if slow[1]["hours"] < 1 else "hours"
    each = "; ".join(
        f"the {e['gpu_name']} {c.duration(day['hours'])} ({c.num(day['seconds_per_item'], 's')} "
        "an image)"
        for e, day, _p in rows
    )
    head = (f"**At {c.num(per_day)} images a day the {fast[0]['gpu_name']} saves {scale} a day, "
            f"not more: {each}** ({fast[0]['model_name']}, {c.settings(fast[0])}).")  # fmt: skip
    prices = [p for _e, _d, p in rows]
    return Draft("\n\n".join([head, "What each costs to buy:", *prices]))


# money said beside "worth": "worth the extra $", "worth the price", "the premium"
MONEY_ASKED = re.compile(
    r"\bextra (?:\$|money|cash|cost|dollars|bucks|\d)|\b(?:prices?|costs?|money|premium|markup"
    r"|savings?|saving)\b"
    r"|\$|\bmore expensive\b|\bcosts? more\b"
)
# "is the rtx 6000 ada worth it over two 4090s?": one desk card's worth against another's, as
# bought (datacenter cards are weighed on their rent and load)
_WORTH_OVER = re.compile(r"\bworth (?:it |getting |buying )?over\b")


def _prices_said(query: Query, ids: list[str]) -> dict[str, float]:
    """The price to buy the user gave for each card: each card's own, or the one price said
    ("a used 3090 for $650 or a new 4070 Super?") for the card named just before it."""
    if query.gpu_purchase_prices:
        return dict(query.gpu_purchase_prices)
    low = query.low
    if query.purchase_usd is None:
        # "P40 24gb for $180 - still worth it? or a 3060": a price said right after one card
        said_of = {}
        for ref, gid in zip(query.gpus, ids, strict=True):
            at = low.find(ref.text.lower())
            found = re.match(r"[^$.?!]{0,20}?\b(?:for|at|@|is|costs?|goes for)\s?(?:about |around |"
                             r"~)?\$\s?(\d[\d,]*(?:\.\d+)?)(k)?(?!\s?/|\s?(?:per|an?) )",
                             low[at + len(ref.text) :]) if at >= 0 else None  # fmt: skip
            if found:
                said_of[gid] = float(found.group(1).replace(",", "")) * (1000 if found.group(2)
                                                                         else 1)  # fmt: skip
        return said_of if len(said_of) == 1 else {}
    said = re.search(rf"(?<![\d.]){int(query.purchase_usd)}(?![\d])", low.replace(",", ""))
    if said is None:
        return {}
    at = said.start()
    before = [(low.replace(",", "").rfind(ref.text.lower(), 0, at), gid)
              for ref, gid in zip(query.gpus, ids, strict=True)]  # fmt: skip
    owner = max(before)
    return {owner[1]: query.purchase_usd} if owner[0] >= 0 else {}


def _condition_of(query: Query, ref: GpuRef) -> str | None:
    """ "used" or "new" said just before a card's name ("a used 3090 or a new 4070 Super")."""
    at = query.low.find(ref.text.lower())
    if at < 0:
        return None
    said = re.search(r"\b(used|second[- ]hand|refurbished|new|brand[- ]new)\b\W+(?:\w+\W+){0,2}$",
                     query.low[max(0, at - 30) : at])  # fmt: skip
    if said is None:
        return None
    return "new" if "new" in said.group(1) else "used"


# the launch price asked: "what did the 4090 launch at", "its MSRP", "list price at release"
_LAUNCH_ASKED = re.compile(
    r"\blaunch(?:ed)? (?:at|for|price)\b|\bmsrp\b|\blist price\b|\bprice at (?:launch|release)\b"
    r"|\brelease price\b"
)


_STREET_ASKED = re.compile(
    r"\bstreet\b|\bcurrent\w*\b|\bnow\b|\btoday\b|\bthese days\b"
    r"|\bgoing for\b|\bsells? for\b|\bgo(?:es)? for\b"
)


# "is the <first card> worth it": the first card named is the one asked about
_WORTH_OF_FIRST = re.compile(r"^\W*(?:is|are|would|will|does)\b")


def _worth_the_price(query: Query, box: ToolBox) -> Draft | None:
    """ "4090 vs 3090 for local LLMs, is the 4090 worth the extra $?": the job's speed on each
    set against what each costs to buy (the newest price of the condition asked, MSRP when no
    new one): worth it when the speed grows at least as much as the price."""
    if len(query.gpus) != 2 or not _WORTH_ASKED.search(query.low):
        return None
    named = [gpu_choices(ref)[0] for ref in query.gpus if ref.ids]
    if not MONEY_ASKED.search(query.low) and not (
            _WORTH_OVER.search(query.low) and _all_local(box, named)):  # fmt: skip
        return None
    if _RENT_SAID.search(query.low) or query.providers:
        return None  # "is renting a 5090 worth the extra $ on runpod?": the hourly prices
    ids = [gpu_choices(ref)[0] for ref in query.gpus]
    # "an A100 vs 2x used 3090s": each set at its own count, its price that many times
    counts = {gpu: ref.count or 1 for ref, gpu in zip(query.gpus, ids, strict=True)}
    # ("a6000 ada vs a6000 for 70b inference": a generic model of the size said)
    model = (query.models[0] if query.models and (query.models[0].ids or query.models[0].size_b)
             else None)  # fmt: skip
    if model is not None:
        workload = query.workload or "inference"
        if workload == "finetune":
            workload = FINETUNE_DEFAULT if model.family in (None, "llm") else "finetune-full"
        args: dict[str, Any] = {"gpus": ids, "workload": workload, "model": model_arg(model)}
    else:
        hint = _family_of_job(query)
        workload = query.workload or "inference"
        workload = workload if workload != "finetune" else "finetune-full"
        args = {"gpus": ids, "workload": workload, "family": hint}
    if any(n > 1 for n in counts.values()):
        args["counts"] = [counts[gpu] for gpu in ids]
    if precision := (precision_for(model, query) if model is not None else query.precision):
        args["precision"] = precision
    elif (
        model is None
        and args["family"] == "llm"
        and workload == "inference"
        and _all_local(box, ids)
    ):
        args["precision"] = "q4_k_m"  # LLMs on cards at home run as 4-bit GGUFs (llama.cpp)
    result = box.call("compare_workload", args)
    # no LLM named ("for local LLMs"): the reference model, as run at home when need be
    local = workload == "inference" and (
        (model is None and args["family"] == "llm")
        or (model is not None and (model.assumed or not model.ids))
    )
    if local and "error" not in result and not all(r["speed"] for r in result["gpus"]):
        # a card too small for the reference model in 16 bits: both in 4 bits, as run at home
        result = box.call("compare_workload", {**args, "precision": "q4_k_m"})
    if (
        model is None
        and workload in ("train", "finetune-full")
        and "error" not in result
        and not all(r["speed"] for r in result["gpus"])
    ):  # "B200 vs H200 for training": the reference LLM trained from scratch fits neither card;
        # fine-tuned, at the largest of batch 8, 4, 2 both hold, where the cards' compute shows
        # (at batch 1 the framework's per-layer host time can pace both alike)
        tuned = {**args, "workload": FINETUNE_DEFAULT}
        result = box.call("compare_workload", tuned)
        for batch in (8, 4, 2):
            larger = box.call("compare_workload", {**tuned, "batch": batch})
            if "error" not in larger and all(r["speed"] for r in larger["gpus"]):
                result = larger
                break
    if "error" in result or not all(r["speed"] for r in result["gpus"]):
        return None
    prices: dict[str, dict[str, Any]] = {}
    condition = query.condition or "new"
    yours = _prices_said(query, ids)
    for ref, gpu in zip(query.gpus, ids, strict=True):
        if gpu in yours:  # "a used 3090 for $650": the user's own price for that card
            prices[gpu] = {"usd": yours[gpu], "kind": "your price", "date": "given",
                           "source": "your figure"}  # fmt: skip
            if counts[gpu] > 1 and EACH_PRICE.search(query.low):
                # "two 5090s at $2500 each": the set costs that many times the price said
                whole = box.call("set_cost", {"usd_each": yours[gpu], "num_gpus": counts[gpu]})
                if "error" not in whole:
                    prices[gpu]["total_usd"] = whole["total_usd"]
            continue
        # (that many: the tool prices the set, each row's total_usd)
        bought = box.call("purchase_prices", {"gpu": gpu, "num_gpus": counts[gpu]})
        condition = _condition_of(query, ref) or query.condition or "new"
        listed = bought.get("prices") or []
        kinds = [p for p in listed if p["kind"] == condition] or [
            p for p in listed if p["kind"] == "msrp"
        ]
        pick = (kinds or listed or [None])[0]
        if pick is None:  # "B200 vs H200, worth ~2x the price?": cards rented, not bought
            return _worth_the_rent(query, box, result, ids)
        prices[gpu] = pick
    rows = sorted(result["gpus"], key=lambda r: -r["speed"])
    fast, slow = rows

    def setup(r: dict[str, Any]) -> str:  # "the RTX 3090", "2 x RTX 3090"
        n = counts[r["gpu"]]
        return f"the {r['gpu_name']}" if n == 1 else c.gpus_phrase(n, r["gpu_name"])

    def cost(r: dict[str, Any]) -> float:  # the set's price (a price the user said: as said)
        return float(prices[r["gpu"]].get("total_usd") or prices[r["gpu"]]["usd"])

    faster = fast["speed"] / slow["speed"]
    dearer = cost(fast) / cost(slow)
    # "is a used a6000 worth it vs 2x 3090s?": the answer is about the card asked of first
    # ("P40 for $180, worth it? or a 3060": the card the user priced is the one asked about)
    other = fast["gpu"] != ids[0] and bool(_WORTH_OF_FIRST.search(query.low) or ids[0] in yours)
    swap = SWAP_TO.search(query.low)
    moved_in = [r.ids[0] for r in query.gpus if swap and r.ids and r.text
                and card_named_in(r.text, swap.group("new"))]  # fmt: skip
    if moved_in and moved_in[0] in ids:
        # "swap the 3060 for a 4060 ti 8gb, worth it?": the card swapped in is the one asked of
        other = fast["gpu"] != moved_in[0]
    yes = "No" if other else "Yes"
    ratio = f"{c.num(faster)}x as fast for {c.num(dearer)}x the price"
    said = _PRICE_RATIO_SAID.search(query.low)
    if said:  # "is it worth ~2x the price?": the user's ratio decides, the record's beside it
        dearer = float(said.group(1))
        ratio = f"{c.num(faster)}x as fast for your {said.group(1)}x the price"
    if dearer <= 1:
        verdict = f"{yes}: {setup(fast)} is both faster and no dearer"
    elif faster >= dearer:
        verdict = f"{yes}: {setup(fast)} is {ratio}"
    elif other:
        verdict = f"Yes, on speed per dollar: {setup(fast)} is only {ratio}"
    else:
        verdict = f"Not on speed per dollar: {setup(fast)} is {ratio}"
    each = "; ".join(
        f"{setup(r)} {c.usd(cost(r))} "
        f"({prices[r['gpu']]['kind']}, {prices[r['gpu']]['date']}"
        + (
            f", {counts[r['gpu']]} x {c.usd(prices[r['gpu']]['usd'])}"
            if counts[r["gpu"]] > 1
            else ""
        )
        + ")"
        for r in rows
    )
    ratio = c.job_ratio(result).split("** by the ", 1)[-1]
    head = f"**{verdict}** by the {ratio}"
    sheets = [box.call("gpu_specs", {"gpu": r["gpu"]}) for r in rows]
    rates = "; ".join(
        f"the {sh['name']} {c.num(sh['bandwidth_gbs'], 'GB/s')} and "
        f"{c.num(sh['fp16_bf16_dense_tflops'], 'TFLOPS')}"
        for sh in sheets
        if "error" not in sh and sh.get("bandwidth_gbs") and sh.get("fp16_bf16_dense_tflops")
    )
    why = (f"Memory bandwidth paces decoding and the dense FP16 tensor rate paces prompts, "
           f"images and training: {rates}." if rates else "")  # fmt: skip
    decoded = [sh for sh in sheets if "error" not in sh and sh.get("bandwidth_gbs")]
    if result.get("unit") == "tokens/s" and workload == "inference" and len(decoded) == 2:
        # "all i do is local llm chat": decoding reads the weights, so bandwidth paces it,
        # said beside the verdict (the tensor rate, "2x the tflops", barely counts there)
        a, b = decoded
        head += (f" Decoding is paced by memory bandwidth: {c.num(a['bandwidth_gbs'], 'GB/s')} "
                 f"on the {a['name']} against {c.num(b['bandwidth_gbs'], 'GB/s')} on the "
                 f"{b['name']}, not by the tensor rate.")  # fmt: skip
        why = ""
    sources = "\n".join(f"- {r['gpu_name']}: {prices[r['gpu']]['source']}" for r in rows)
    alone = all(n == 1 for n in counts.values())  # (what one card's memory holds, each)
    room = what_more_memory_holds(query, box, sheets) if alone and (local or model is None) else ""
    return Draft("\n\n".join(filter(None, [head, room, why, f"To buy: {each}.\n{sources}"])))


# a price ratio the user states: "is it worth ~2x the price", "for 1.5x the cost"
_PRICE_RATIO_SAID = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:x|times)\s(?:the\s)?(?:price|cost|money)\b"
)


def _worth_the_rent(
    query: Query, box: ToolBox, result: dict[str, Any], ids: list[str]
) -> Draft | None:
    """Two cards with no price to buy on record (datacenter cards are rented): the job's speed
    on each against the median rent (or the price ratio the user states): worth it when the
    speed grows at least as much as the price."""
    if any((ref.count or 1) > 1 for ref in query.gpus):
        return None
    rent: dict[str, float] = {}
    for gpu in ids:
        offered = box.call("prices", {"gpu": gpu})
        summary = offered.get("summary_usd_per_gpu_hour") if "error" not in offered else None
        if not summary:
            return None
        rent[gpu] = summary["median"]
    fast, slow = sorted(result["gpus"], key=lambda r: -r["speed"])
    faster = fast["speed"] / slow["speed"]
    said = _PRICE_RATIO_SAID.search(query.low)
    dearer = float(said.group(1)) if said else rent[fast["gpu"]] / rent[slow["gpu"]]
    whose = f"your {said.group(1)}x the price" if said else f"{c.num(dearer)}x the median rent"
    if faster >= dearer:
        verdict = (f"Yes: the {fast['gpu_name']} is {c.num(faster)}x as fast for {whose}, "
                   "more work for each dollar")  # fmt: skip
    else:
        verdict = (f"Not on speed per dollar: the {fast['gpu_name']} is {c.num(faster)}x as fast "
                   f"for {whose}")  # fmt: skip
    ratio = c.job_ratio(result).split("** by the ", 1)[-1]
    medians = "; ".join(f"the {r['gpu_name']} {c.usd(rent[r['gpu']])}" for r in (fast, slow))
    record = rent[fast["gpu"]] / rent[slow["gpu"]]
    lines = [f"**{verdict}** by the {ratio}",
             f"Median rent per GPU-hour: {medians}."
             + (f" At those, the {fast['gpu_name']} is {c.num(record)}x the price." if said
                else "")]  # fmt: skip
    return Draft("\n\n".join(lines))


_MEMORY_WORDS = re.compile(r"\b\d+ ?(?:gb|gigs?)\b|\bvram\b|\bmemory\b|\bcapacity\b")


def what_more_memory_holds(query: Query, box: ToolBox, sheets: list[dict[str, Any]]) -> str:
    """ "Is the 5090's 32GB worth the extra $?": what the larger memory holds that the smaller
    does not, the largest LLM each runs in a 4-bit GGUF (as people run them at home)."""
    return memory_buys(largest_llm_each(query, box, sheets))


def largest_llm_each(
    query: Query, box: ToolBox, sheets: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Two cards of different memory, memory asked of: each card's sheet with the estimate of
    the largest LLM it runs in a 4-bit GGUF, the larger memory first; empty otherwise."""
    sizes = [sh.get("memory_gb") for sh in sheets if "error" not in sh]
    if len(sizes) != 2 or sizes[0] == sizes[1] or not _MEMORY_WORDS.search(query.low):
        return []
    found = []
    for sh in sorted(sheets, key=lambda sh: -(sh.get("memory_gb") or 0)):
        result = box.call("largest_model", {"gpu": sh["id"], "precision": "q4_k_m"})
        e = result.get("estimate") if "error" not in result else None
        if not e:
            return []
        found.append((sh, e))
    return found


def memory_buys(reach: list[tuple[dict[str, Any], dict[str, Any]]]) -> str:
    """The sentence of what each card's memory holds (largest_llm_each); empty for none."""
    if not reach:
        return ""
    each = [f"the {sh['name']} ({c.num(sh['memory_gb'], 'GB')}) holds up to "
            f"{e['model_name']} ({c.num(e['memory_per_gpu_gb'], 'GB')})"
            for sh, e in reach]  # fmt: skip
    return "What the memory buys, the largest LLM each runs in 4-bit (GGUF Q4_K_M): " + (
        "; ".join(each) + "."
    )


# a choice between the cards asked in so many words
_CHOICE_SAID = re.compile(r"\b(?:or|vs\.?|versus|which|should|better|pick|worth|get)\b")
_VS_ONLY = re.compile(r"\b(?:vs\.?|versus)\b")
# "is the software gonna bite us", "does ROCm work", "CUDA support": the stack is asked
_SOFTWARE_ASKED = re.compile(
    r"\b(?:software|rocm|cuda(?! cores?)|drivers?|ecosystem|compatib\w*|software stack|"
    r"support(?:ed)?)\b"
)


# money said as a cap on what to spend: "budget ~10k per card", "max $5,000 each", "under 2k"
_CAP_SAID = re.compile(
    r"\bbudget\w*|\bunder\b|\bbelow\b|\bmax\w*|\bup to\b|\bat most\b|\bno more than\b"
    r"|\bwithin\b|\bcap\b|\bper (?:card|gpu)\b|\beach\b|\ba card\b|\bspend\b|\bafford\b"
)


def _within_budget(query: Query, box: ToolBox, ids: list[str]) -> tuple[str, list[str]] | None:
    """Cards compared under a budget to buy ("budget ~10k per card", "5090 or two 4090s, budget
    4000"): which of the setups its money buys, each at its market price (market_price) times
    its count, unless the budget is said per card; the line and the ids of those it buys."""
    budget = query.budget
    if not (budget and budget.per == "total" and budget.kind != "rent" and len(ids) >= 2):
        return None
    if _RENT_SAID.search(query.low) or not _CAP_SAID.search(query.low) or query.currency != "$":
        return None  # "both ~$1k": the cards' price level, no budget
    per_card = bool(_PER_CARD_SAID.search(query.low))
    counts = {g: ref.count or 1 for ref in query.gpus for g in ref.ids}
    priced = []
    for gpu in ids[:4]:
        listed = box.call("purchase_prices", {"gpu": gpu}).get("prices") or []
        if (best := market_price(listed, query.condition)) is not None:
            count = 1 if per_card else counts.get(gpu, 1)
            priced.append((gpu, box.call("gpu_specs", {"gpu": gpu})["name"], best, count))
    if len(priced) < 2:
        return None

    def setup(name: str, price: dict[str, Any], count: int) -> str:
        if count == 1:
            return f"the {name} ({c.usd(price['usd'])} {price['kind']}, {price['date']})"
        return (f"{count} x {name} ({c.usd(price['usd'] * count)}: {c.usd(price['usd'])} each "
                f"{price['kind']}, {price['date']})")  # fmt: skip

    said = c.usd(budget.usd, query.currency) + (" a card" if per_card else "")
    inside = [setup(n, p, k) for _g, n, p, k in priced if p["usd"] * k <= budget.usd]
    over = [setup(n, p, k) for _g, n, p, k in priced if p["usd"] * k > budget.usd]
    kept = [g for g, _n, p, k in priced if p["usd"] * k <= budget.usd]
    if not inside:
        return f"**None of them is within your {said}**: " + "; ".join(over) + ".", kept
    tail = f"; over it: {'; '.join(over)}" if over else ""
    return f"**Within your {said}: {'; '.join(inside)}**{tail}.", kept


# a budget said per card: "budget ~10k per card", "max $5,000 each"
_PER_CARD_SAID = re.compile(r"\bper (?:card|gpu)\b|\beach\b|\ba card\b|\bapiece\b")


def _per_rented_dollar(
    query: Query, box: ToolBox, ids: list[str], asked: tuple[str, ...]
) -> str | None:
    """ "Best perf per dollar for fp16 training?": the figure that paces the job (dense 16-bit
    TFLOPS for training, bandwidth for decoding; the figure asked, when one is) per dollar an
    hour of each card's median rental."""
    training = (query.workload or "inference") != "inference"
    field = asked[0] if asked else "fp16_bf16_dense_tflops" if training else "bandwidth_gbs"
    result = box.call("value_per_dollar", {"gpus": ids[:4], "field": field})
    if "error" in result or result["best"] is None:
        return None
    label, unit = c.FIELD_LABELS.get(field, (field, ""))
    rows = [r for r in result["rows"] if r["per_usd_hour"]]
    best, rest = rows[0], rows[1:]
    others = "; ".join(f"the {r['name']} {c.num(r['per_usd_hour'])} ({c.num(r['value'], unit)} at "
                       f"{c.usd(r['usd_per_gpu_hour'])}/hour)" for r in rest)  # fmt: skip
    unpriced = [r["name"] for r in result["rows"] if not r["per_usd_hour"]]
    gap = f" No rental price on record for the {', '.join(unpriced)}." if unpriced else ""
    job = "training" if training else "decoding"
    return (
        f"**Per rented dollar, the {best['name']}: {c.num(best['per_usd_hour'])} {unit} of "
        f"{label} per dollar an hour** ({c.num(best['value'], unit)} at "
        f"{c.usd(best['usd_per_gpu_hour'])}/hour, median rental){'; ' if others else ''}"
        f"{others}. The {label} is what paces {job}; a job's own speed per dollar follows it "
        f"where that figure bounds the job.{gap}"
    )


def _job_ratio(query: Query, box: ToolBox, ids: list[str]) -> str | None:
    """The computed speed of each GPU on the job the question names, on the family's
    reference model when it names none."""
    from advisor.calculator import FAMILIES

    hint = _family_of_job(query)
    counts = _setup_counts(query, ids)
    said = family_hint(query.low) == "llm"  # "for local llms": the job named by its family
    catalog = load_catalog()
    if (hint == "llm" and not query.models and not said and not _LLM_SAID.search(query.low)
            and query.workload in ("train", "finetune") and not multiple_asked(query.low)
            and all(catalog.gpus[i].segment in ("consumer", "workstation") for i in ids
                    if i in catalog.gpus)):  # fmt: skip
        # "a4000 vs 3090 for training": desk cards, no model named, no LLM said; the reference
        # training benchmark of the articles and of the calibration rows (ResNet-50) decides it
        hint = "vision"
    if not (query.workload_given or hint != "llm" or counts or said) or len(ids) < 2:
        return None  # "what's better for whisper": the family names the job
    workload = query.workload or "inference"
    workload = workload if workload != "finetune" else "finetune-full"
    if hint != "llm" and workload not in FAMILIES[hint].workloads:
        workload = "train"
    args: dict[str, Any] = {"gpus": ids[:4], "workload": workload, "family": hint}
    local = hint == "llm" and workload == "inference" and _all_local(box, ids[:4])
    if query.precision == "nf4" and hint == "llm" and not _BNB_SAID.search(query.low):
        # "and in 4-bit?": as these cards run 4 bits (the fit below them says the same)
        catalog_sheets = [catalog.gpus[i] for i in ids[:4] if i in catalog.gpus]
        args["precision"] = four_bits(query, catalog_sheets) or query.precision
    elif query.precision:
        args["precision"] = query.precision
    elif local:
        args["precision"] = "q4_k_m"  # LLMs on cards at home run as 4-bit GGUFs (llama.cpp)
    if query.framework in ("pytorch", "tensorflow"):
        args["framework"] = query.framework
    if FAMILIES[hint].default_batch and workload != "inference":
        args["batch"] = query.batch or dict(FAMILIES[hint].default_batch).get(workload)
    if counts:  # "2x 4060 Ti or one 3090": each setup as said
        args["counts"] = counts[:4]
    elif (query.num_gpus or 1) > 1:
        args["num_gpus"] = query.num_gpus
    if query.provider:  # "p4d vs p5": AWS's prices
        args["provider"] = query.provider
    result = _at_training_batch(box, args, hint)
    sizes = {r.get("usable_memory_per_gpu_gb") for r in result.get("gpus", [])}
    fits_any = "error" not in result and any(r["speed"] for r in result["gpus"])
    if hint == "llm" and fits_any and (counts or (local and len(sizes) > 1)):
        # what the memory buys: "2x 4060 Ti or one 3090", "a 48 GB Mac or a 3090"
        held = _largest_of_each(query, box, ids[:4], (counts or [1] * len(ids))[:4])
        largest = "\n".join(line for line, *_ in held)
        ratio = c.job_ratio(result)
        roomy = max(held, key=lambda h: h[2], default=None)
        speed_asked = re.search(r"\b(?:faster|quicker|speed|tok(?:ens)?/s|tokens? per second"
                                r"|fits? (?:on )?both|(?:holds|fits on) (?:each|both|either))\b",
                                query.low)  # fmt: skip
        size_first = bool(_SIZE_FIRST.search(query.low))
        if (roomy and roomy[3] and len(held) >= 2 and not query.models
                and (not speed_asked or size_first)
                and roomy[2] >= 1.25 * min(h[2] for h in held)
                and not ratio.startswith(f"**Pick the {roomy[1].removeprefix('one ')}")
                ):  # fmt: skip
            # "2x 3090 or one 4090 for llms": no model said, the memory decides which models run
            # at all, the speed only how fast one both hold runs
            lead = "Pick the" if size_first else "For larger models, the"  # as they rank it
            ratio = (f"**{lead} {roomy[1].removeprefix('one ')}: "
                     f"{c.num(roomy[2], 'GB')} of memory runs up to {roomy[3]} in 4-bit.** On a "
                     "model every one of them holds, speed decides: "
                     + ratio.replace("**", "").replace("Pick the ", "the ", 1))  # fmt: skip
        return "\n".join(filter(None, [ratio, largest]))
    # ("is the H100 really 3x faster for training?": a multiple to judge needs the job's ratio)
    trained = (workload != "inference" and hint == "llm" and "num_gpus" not in args
               and bool(_LLM_SAID.search(query.low) or multiple_asked(query.low)))  # fmt: skip
    if trained and "error" not in result and not any(r["speed"] for r in result["gpus"]):
        # "H100 vs B200 for LLM training": the reference model trained on a node of each, at a
        # batch that keeps the shards' all-gathers from deciding
        node = {**args, "num_gpus": NODE_GPUS, "batch": query.batch or SHARDED_MAX_BATCH}
        result = box.call("compare_workload", node)
        while (
            not query.batch
            and node["batch"] > 1
            and "error" not in result
            and not all(r["speed"] for r in result["gpus"])
        ):
            # a node that holds the job at a smaller batch is no node that cannot run it ("is the
            # H100 really 3x faster?" needs both speeds): the batch each of them holds
            node = {**node, "batch": node["batch"] // 2}
            result = box.call("compare_workload", node)
    if "error" in result or not any(r["speed"] for r in result["gpus"]):
        return None  # none fits the family's reference model: the datasheets speak instead
    if VALUE_ASKED.search(query.low) and (per := c.work_per_dollar(result, query.provider)):
        return f"{per}\n\n{c.job_ratio(result)}"  # "which is cheaper per training token?"
    return c.job_ratio(result)


# "will a t4 be ok or do i need an a100", "is a 3060 enough or should i get a 4090"
_ENOUGH_OR_NEED = re.compile(
    r"\b(?:enough|ok|okay|fine|sufficient|suffice|do the job|cut it|handle it|work)\b[^?]{0,60}?"
    r"\bor (?:do|will|would|should|must) (?:i|we) (?:really |actually )?(?:need|have to|require"
    r"|go for|get|buy|rent|upgrade)\b"
)


# a multiple claimed, asked or wanted: "is the H100 really 3x faster", "twice as fast as the
# 3090?", "want something at least 3x faster"
_MULTIPLE_ASKED = re.compile(
    r"\bat least (\d+(?:\.\d+)?) ?(?:x|times)\b"
    r"|\b(\d+(?:\.\d+)?) ?(?:x|times) (?:faster|quicker|as fast|the speed)\b"
    r"|\b(twice|double) (?:as fast|as quick|the speed)\b"
    # "would a 4090 double that?" (a speed said before), "triple my tok/s"
    r"|\b(double|triple|quadruple)(?: (?:that|it|this)\b| (?:my|our|the|his|her|their) "
    r"(?:speed|tok\w*|t/s|it/s|throughput|performance|fps)\b)"
    # "several times faster", "an order of magnitude faster": a multiple in words
    # (not "how many times faster": a ratio asked)
    r"|(?<!\bhow )\b(several|a few|many|an order of magnitude) (?:times )?"
    r"(?:faster|quicker|as fast)\b"
    # "how much faster would the 4090 be, like is it double or wat?"
    r"|\b(?:is it|would it be|will it be|is that) (double|triple)\b"
    # "an H100 would answer six times faster": a multiple in words
    r"|\b(three|four|five|six|seven|eight|nine|ten) times (?:faster|quicker|as fast|the speed)\b"
    # "nvidia said the 5090 is 2x the 4090", "finish in half the time": a multiple claimed
    r"|\b(\d+(?:\.\d+)?) ?(?:x|times) (?:the|an?|my|our) (?=(?:[a-z]+ )?[a-z]{0,4}\d)"
    r"|\b(half|a third|a quarter) (?:of )?the time\b"
    # "the 5090 is literally double a 4090 at everything": a multiple of a card claimed
    r"|\b(twice|double|triple)(?= (?:an?|the|that of an?|that of the) (?:[a-z]+ )?[a-z]{0,4}\d)"
)
_TIMES_SAID = {"double": 2.0, "triple": 3.0, "quadruple": 4.0, "several": 3.0, "a few": 3.0,
               "many": 3.0, "an order of magnitude": 10.0, "three": 3.0, "four": 4.0,
               "five": 5.0, "six": 6.0, "seven": 7.0, "eight": 8.0, "nine": 9.0,
               "ten": 10.0, "half": 2.0, "a third": 3.0, "a quarter": 4.0,
               "twice": 2.0}  # fmt: skip


def multiple_asked(low: str) -> float | None:
    """The multiple of speed the words claim, ask or want (2 for "twice"), else None."""
    said = _MULTIPLE_ASKED.search(low)
    if said is None:
        return None
    if words := (said.group(4) or said.group(5) or said.group(6) or said.group(7) or said.group(9)
                 or said.group(10)):  # fmt: skip
        return _TIMES_SAID[words]
    return 2.0 if said.group(3) else float(said.group(1) or said.group(2) or said.group(8))


def _estimated_speeds(box: ToolBox) -> list[float]:
    """The speed of one job on each GPU estimated (the job's own metric, the first estimate of
    each GPU that holds it), when the estimates are of one job on two cards."""
    first: dict[str, dict[str, Any]] = {}
    for call in box.calls:
        e = call.result
        if call.name == "estimate" and "error" not in e and e.get("fits") and "gpu" in e:
            first.setdefault(e["gpu"], e)
    jobs = {(e.get("family"), e.get("workload"), e.get("model")) for e in first.values()}
    if len(first) != 2 or len(jobs) != 1:
        return []
    speeds = []
    for e in first.values():
        metrics = (
            FAMILIES[e["family"]].metrics.get(e["workload"])
            if e.get("family") in FAMILIES
            else None
        )
        value = e.get(metrics[0].key) if metrics else None
        speed = value.get("typical") if isinstance(value, dict) else value
        if not isinstance(speed, (int, float)) or speed <= 0:
            return []
        speeds.append(float(speed))
    return speeds


def parity_judged(query: Query, box: ToolBox) -> str:
    """ "two 4060 Ti = one 4090 for llama 8b, so the same speed?": yes or no by the two setups'
    speeds for the job just estimated (within a tenth is the same), before them; empty when no
    parity is asked or the speeds are not both at hand."""
    if not SAME_ASKED.search(query.low) or len(query.gpus) != 2:
        return ""
    speeds = _estimated_speeds(box)
    if len(speeds) < 2:
        return ""
    ratio = max(speeds) / min(speeds)
    if ratio <= 1 + SAME_WITHIN:
        return f"**Yes, about the same speed: within {c.num((ratio - 1) * 100)}%.**\n\n"
    return f"**No: about {c.num(ratio)}x apart.**\n\n"


# a multiple claimed of every figure: "double a 4090 at everything", "across the board"
_EVERY_FIGURE = re.compile(
    r"\b(?:at|in|on) every(?:thing| way| spec\w*| metric| front| figure)\b|\bacross the board\b"
    r"|\bin all (?:of )?(?:them|respects|specs)\b"
)


def _sheet_multiple(query: Query, box: ToolBox, times: float) -> str:
    """ "my mate says the 5090 is double a 4090 at everything - vram, bandwidth": the multiple
    against the datasheet ratio of each figure named (the headline figures when "everything"),
    the card named first over the other; empty unless two cards, no model and several figures."""
    figures = [f for f in query.fields if f in c.SUMMARY_FIELDS]
    if _EVERY_FIGURE.search(query.low):
        figures = list(dict.fromkeys([*figures, *c.SUMMARY_FIELDS[:3]]))
    if query.models or len(query.gpus) != 2 or len(figures) < 2:
        return ""
    subject, other = (box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}) for ref in query.gpus)
    if "error" in subject or "error" in other:
        return ""
    parts, holds = [], True
    for f in figures:
        a, b = subject.get(f), other.get(f)
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and b):
            continue
        holds = holds and a / b >= 0.9 * times
        parts.append(f"{c.FIELD_LABELS[f][0]} {c.field_value(subject, f)} against "
                     f"{c.field_value(other, f)} ({c.num(a / b)}x)")  # fmt: skip
    if len(parts) < 2:
        return ""
    word = "Yes: about" if holds else "No: not"
    return (f"**{word} {c.num(times)}x on the datasheet: the {subject['name']} over the "
            f"{other['name']}, {'; '.join(parts)}.**\n\n")  # fmt: skip


def multiple_judged(query: Query, box: ToolBox) -> str:
    """ "Is the H100 really 3x faster than the A100?": yes or no by the ratio just computed
    (within a tenth of the multiple counts as yes), before it; empty when none is asked."""
    times = multiple_asked(query.low)
    if times is None or times <= 1:
        return ""
    if sheet := _sheet_multiple(query, box, times):
        return sheet
    # (the last comparison in which both cards ran: a larger batch tried after may not fit one)
    compared = next((call.result for call in reversed(box.calls)
                     if call.name == "compare_workload" and "error" not in call.result
                     and sum(bool(r.get("speed")) for r in call.result["gpus"]) >= 2),
                    None)  # fmt: skip
    speeds = ([r["speed"] for r in compared["gpus"] if r.get("speed")] if compared
              else _estimated_speeds(box))  # fmt: skip
    if len(speeds) < 2:
        return ""
    ratio = max(speeds) / min(speeds)
    if ratio >= 0.9 * times:
        return f"**Yes: about {c.num(ratio)}x, near the {c.num(times)}x asked.**\n\n"
    return f"**No: about {c.num(ratio)}x, not {c.num(times)}x.**\n\n"


def _enough_or_more(query: Query, estimates: list[dict[str, Any]]) -> str:
    """That the first card named will do (it holds the job), and what the second adds (its
    speed against the first's, and each one's time for the job when one was sized); empty when
    the first does not hold it or the two cards' estimates are not both at hand."""
    if len(query.gpus) != 2:
        return ""
    first: dict[str, dict[str, Any]] = {}
    for e in estimates:
        if "gpu" in e and "error" not in e:
            first.setdefault(e["gpu"], e)
    pair = [next((first[g] for g in ref.ids if g in first), None) for ref in query.gpus]
    small, big = pair
    if small is None or big is None:
        return ""
    model = small["model_name"]
    if not small["fits"]:
        return ""  # the fit answer's own "No" (and the lighter formats that fit) leads
    head = (f"**Yes: the {small['gpu_name']} is enough: {model} fits in "
            f"{c.num(small['memory_per_gpu_gb'], 'GB')} of its {c.usable(small)}**")  # fmt: skip
    ours, theirs = c.metrics_of(small), c.metrics_of(big)
    if big["fits"] and ours and theirs and ours[0][2] == theirs[0][2] and ours[0][1]["typical"]:
        ratio = theirs[0][1]["typical"] / ours[0][1]["typical"]
        if ours[0][2] == "s":  # a time: the smaller the faster
            ratio = 1 / ratio
        head += f"; the {big['gpu_name']} is about {c.num(ratio)}x as fast"
        hours = typical_job_hours(small), typical_job_hours(big)
        if hours[0] and hours[1]:
            span = "one epoch" if c.one_epoch(small) else "the job"
            head += (f" ({span}: about {c.duration(hours[0])} against "
                     f"{c.duration(hours[1])})")  # fmt: skip
    return f"{head} ({c.settings(small)})."


def _job_time_of_each(box: ToolBox) -> str:
    """The whole job's time on each GPU estimated (its first setup, at the fullest batch the
    answer tried: pre-training runs full batches), fastest first, in days past two days; empty
    unless two or more fit the job."""
    first: dict[str, dict[str, Any]] = {}
    for call in box.calls:
        e = call.result
        if call.name != "estimate" or "gpu" not in e:
            continue
        was = first.setdefault(e["gpu"], e)
        same = (e["precision"], e["workload"], e.get("num_gpus")) == (
            was["precision"], was["workload"], was.get("num_gpus"))  # fmt: skip
        if same and e.get("fits") and (e.get("batch") or 1) > (was.get("batch") or 1):
            first[e["gpu"]] = e
    timed = sorted(((h, e) for e in first.values() if e.get("fits")
                    and (h := typical_job_hours(e))), key=lambda t: t[0])  # fmt: skip
    if len(timed) < 2:
        return ""

    def said(hours: float) -> str:
        return f"{c.num(hours / 24)} days" if hours >= 48 else c.duration(hours)

    each = "; ".join(f"{said(h)} on {c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])}"
                     for h, e in timed[:4])  # fmt: skip
    return f"**The whole job takes about {each}** ({c.settings(timed[0][1])})."


# the cost of the work asked, not of the hour: "cost per hour of audio", "cheapest per image"
_COST_OF_WORK = re.compile(
    r"\b(?:cost|price|\$|dollars?|cheapest|cheaper)\s(?:per|a|for each)\s(?:(?:1k|1,000|thousand|"
    r"hour of|minute of)\s)?(?:audio|images?|pictures?|samples?|sequences?|epochs?)\b"
    r"|\bcost[- ]effective\b|\bper (?:hour|minute) of audio\b"
)


def _work_cost_of_each(box: ToolBox) -> str:
    """The cost of a unit of the work on each GPU estimated (first setup of each) at its median
    rental price, cheapest first; empty unless two or more have one."""
    first: dict[str, dict[str, Any]] = {}
    for call in box.calls:
        e = call.result
        if call.name == "estimate" and "gpu" in e and e.get("fits"):
            first.setdefault(e["gpu"], e)
    priced = sorted(((cost["usd_per_unit"], cost, e) for e in first.values()
                     if (cost := e.get("cost") or {}).get("usd_per_unit")),
                    key=lambda t: t[0])  # fmt: skip
    if len(priced) < 2:
        return ""
    unit = priced[0][1].get("cost_unit", "")
    each = "; ".join(
        f"{c.usd(usd)} on {c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} "
        f"({c.usd(cost['usd_per_gpu_hour'])}/hour)"
        for usd, cost, e in priced[:4]
    )
    best = priced[0][2]["gpu_name"]
    return (f"**Cheapest {unit}: the {best}.** {each[0].upper()}{each[1:]}, at median rental "
            f"prices ({c.settings(priced[0][2])}).")  # fmt: skip


def _board_module(box: ToolBox, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The variants of a card that go on 8-GPU boards (SXM modules), when it has any: what a
    node of 8 of them is built from."""
    forms = {g: str(box.call("gpu_specs", {"gpu": g}).get("form_factor", "")) for g in ids}
    boards = tuple(g for g in ids if forms[g].startswith("SXM"))
    return boards or ids


def _home_format_levels(query: Query, box: ToolBox, estimates: list[dict[str, Any]]) -> bool:
    """An LLM named for inference on desk machines only, no precision said, that in 16 bits fits
    some of them and not others: compared in the home format instead (when that format fits
    all of them)."""
    if query.precision or query.workload not in (None, "inference") or query.engine:
        return False
    model = query.models[0] if query.models else None
    if not (model and (model.ids or model.size_b) and (model.family or "llm") == "llm"):
        return False  # (a size alone, "70b models", is a generic model of it)
    done = [e for e in estimates if "error" not in e and e.get("workload") == "inference"]
    if not (any(e["fits"] for e in done) and not all(e["fits"] for e in done)):
        return False
    if not _all_local(box, gpus_named(query)[:4]):
        return False
    for ref in query.gpus[:4]:
        args = estimate_args(replace(query, precision=HOME_PRECISION), gpu_choices(ref)[0],
                             ref.count, query.models[0])  # fmt: skip
        e = box.call("estimate", args)
        if "error" in e or not e["fits"]:
            return False
    return True


def _held_in_16_bits(query: Query, box: ToolBox) -> str:
    """ "in 16 bits none of them holds it as asked", or, where a name's other variant does ("a100
    over 5090 for qwen 32b"), which variants hold it."""
    model = query.models[0]
    held = []
    for ref in query.gpus[:4]:
        for gpu in gpu_choices(ref)[1:4]:  # the variants not compared
            e = box.call("estimate", estimate_args(query, gpu, ref.count, model))
            if "error" not in e and e["fits"]:
                held.append(e["gpu_name"])
    if not held:
        return "in 16 bits none of them holds it as asked."
    return (
        f"in 16 bits only the {c.series(held)} {'holds' if len(held) == 1 else 'hold'} it, "
        "of the variants the names cover."
    )


def _leaner_format_for_all(
    query: Query, box: ToolBox, estimates: list[dict[str, Any]]
) -> str | None:
    """An LLM for inference, no precision said, that in 16 bits fits none of the setups named:
    the first leaner format every one of them holds (FP8 where each card computes it, else
    4-bit: a GGUF on desk machines, AWQ on others); None when one fits already or none does."""
    if query.precision or query.workload not in (None, "inference") or len(query.gpus) < 2:
        return None
    model = query.models[0] if query.models else None
    if not (model and model.ids and (model.family or "llm") == "llm"):
        return None
    if not any(e.get("workload") == "inference" for e in estimates if "error" not in e):
        return None
    ids = [gpu_choices(ref)[0] for ref in query.gpus[:4]]
    for ref, gpu in zip(query.gpus[:4], ids, strict=False):  # as asked, on the setups named
        e = box.call("estimate", estimate_args(query, gpu, ref.count, model))
        if "error" in e or e["fits"]:
            return None
    local = _all_local(box, ids)
    fp8 = all(box.call("gpu_specs", {"gpu": g}).get("fp8_dense_tflops") for g in ids)
    formats = [HOME_PRECISION] if local else (["fp8"] if fp8 else []) + ["awq"]
    for fmt in formats:
        held = []  # a name whose variant was left open holds it when one of its variants does
        for ref in query.gpus[:4]:
            held.append(any(
                "error" not in (e := box.call("estimate", estimate_args(
                    replace(query, precision=fmt), gpu, ref.count, model))) and e["fits"]
                for gpu in gpu_choices(ref)))  # fmt: skip
        if all(held):
            return fmt
    return None


def _setups_counted(query: Query, box: ToolBox, sheets: list[dict[str, Any]]) -> str | None:
    """ "4x 4090 vs 1x h100 pcie": the pick among the setups as counted, each on its figures in
    all, and what a setup of several cards holds on each; None when every card is one."""
    refs = [r for r in query.gpus if r.ids][:4]
    if len(refs) < 2 or not any((r.count or 1) > 1 for r in refs):
        return None
    # each setup as its first variant ("1x a100 40gb": the SXM, as the table reads it)
    by_id = {s.get("id"): s for s in sheets}
    setups, split = [], []
    for ref in refs:
        gpu = gpu_choices(ref)[0]
        sheet = by_id.get(gpu) or box.call("gpu_specs", {"gpu": gpu})
        if "error" in sheet:
            return None
        n = ref.count or 1
        totals = box.call("gpu_specs", {"gpu": sheet["id"], "num_gpus": n}).get("totals") or {}
        if n == 1 or not totals:
            setups.append(sheet)
            continue
        summed = {f: totals[f] for _job, f, _why in c.COMPARE_JOBS if f in totals}
        setups.append({**sheet, **summed, "name": f"{n} x {sheet['name']}"})
        link = "NVLink" if sheet.get("gpu_link") == "switch" else "PCIe"
        split.append(f"the {n} x {sheet['name']} hold {c.num(sheet['memory_gb'], 'GB')} each, "
                     f"joined over {link}: a job that does not fit in one is split across them, "
                     "and waits on that link")  # fmt: skip
    head = c.compare_head(setups)
    return head + ("\n\nCounted in all: " + "; ".join(split) + "." if split else "")


def _all_local(box: ToolBox, ids: list[str]) -> bool:
    """Every card one a desk holds (consumer, workstation, laptop, a Mac): LLMs run as GGUFs."""
    segments = [box.call("gpu_specs", {"gpu": g}).get("segment") for g in ids]
    return all(s in _LOCAL_SEGMENTS for s in segments)


# the money side of a choice asked: "which gives lower total cost", "cheaper", "the bill"
_COST_WORDS = re.compile(r"\b(?:costs?|cheap\w*|pric\w*|bill|spend|budget)\b")


def _fewest_setups(query: Query, box: ToolBox, model: ModelRef) -> str:
    """A model no card named holds alone: the fewest of each card that hold it (up to two nodes
    of 8), compared on the job; empty unless two such setups exist."""
    ids = [gpu_choices(ref)[0] for ref in query.gpus if ref.ids][:4]
    if (not query.precision and (model.family or "llm") == "llm"
            and query.workload in (None, "inference") and _all_local(box, ids)):  # fmt: skip
        # "3090 vs 4090 for llama 3 70b at home": desk cards run it as a 4-bit GGUF over a few
        # of them, not in bf16 over eight
        query = replace(query, precision=HOME_PRECISION)
    setups = []
    for gpu in ids:
        solved = _fewest(query, box, gpu, model)
        if "error" not in solved and solved.get("solution") and solved["solution"] <= 2 * NODE_GPUS:
            setups.append((gpu, int(solved["solution"])))
    if len(setups) < 2:
        return ""
    args = estimate_args(query, setups[0][0], None, model)
    compared = {k: args[k] for k in ("workload", "model", "precision", "engine", "provider",
                                     "batch") if args.get(k)}  # fmt: skip
    result = box.call("compare_workload", {**compared, "gpus": [g for g, _ in setups],
                                           "counts": [n for _, n in setups]})  # fmt: skip
    if "error" in result or not any(r["speed"] for r in result["gpus"]):
        return ""
    fewest = ", ".join(c.gpus_phrase(r["num_gpus"], r["gpu_name"]) for r in result["gpus"])
    priced = VALUE_ASKED.search(query.low) or _COST_WORDS.search(query.low)
    per = ""
    if priced:  # each setup's own estimate: a served model priced at full load when load is said
        each = [_best_served(query, box, gpu, n, model) for gpu, n in setups]
        fitting = [e for e in each if "error" not in e and e.get("fits")]
        per = c.per_dollar(fitting, query.low) if len(fitting) == len(setups) else ""
        per = per or c.work_per_dollar(result, args.get("provider"))
    jobs = []
    if query.train_tokens or query.dataset_samples or query.images or query.audio_hours:
        # "time and cost estimate for each": the whole job on each setup, at its median rent
        for gpu, n in setups:
            e = box.call("estimate", estimate_args(query, gpu, n, model))
            if "error" in e or not e["fits"] or not e.get("job_hours"):
                continue
            paid = (e.get("cost") or {}).get("usd_per_job")
            jobs.append(f"- {c.gpus_phrase(n, e['gpu_name'])}: the whole job takes "
                        f"{c.duration_band(e['job_hours'])}"
                        + (f", about {c.usd(paid)} at the median rent" if paid else "")
                        + ".")  # fmt: skip
    if jobs:  # more of them split a data-parallel run: about as much less time, the same bill
        jobs.append(
            "More of each card shorten the run about in proportion (data parallel) "
            "for about the same bill."
        )
    held = (f"No single card named holds {result['model_name']}: the fewest of each that do are"
            if all(n > 1 for _, n in setups) else
            f"The fewest of each card named that hold {result['model_name']}:")  # fmt: skip
    ratio = c.job_ratio(result)
    if per:  # the money leads; the speed follows as a figure, not a second pick
        ratio = ratio.replace("**", "").replace("Pick the ", "Faster: the ", 1)
    elif c.MATTERS_ASKED.search(query.low) and len({n for _, n in setups}) > 1:
        # "a100 40gb vs 80gb for a 7b full fine-tune, does the extra memory matter?": yes, it
        # sets how many cards the job takes; the speed of those sets follows as a figure
        held = held.replace("No single card named holds", "**Yes, it matters: no single card "
                            "named holds", 1)  # fmt: skip
        return (f"{held} {fewest}.**\n"
                + ratio.replace("**", "").replace("Pick the ", "Faster: the ", 1)
                + "".join(f"\n{line}" for line in jobs))  # fmt: skip
    return (f"{per + chr(10) if per else ''}{ratio}\n{held} {fewest}."
            + "".join(f"\n{line}" for line in jobs))  # fmt: skip


def _best_served(query: Query, box: ToolBox, gpu: str, n: int, model: ModelRef) -> dict[str, Any]:
    """The estimate on `n` of a card, or on twice as many where that serves a million tokens at
    full load for less: the fewest that hold a model may leave too little memory for the KV
    cache of more than a request or two (a 70B in bf16 on 2 x H100), which a server would not
    run at."""
    fewest = box.call("estimate", estimate_args(query, gpu, n, model))
    if 2 * n > 2 * NODE_GPUS or "error" in fewest:
        return fewest
    more = box.call("estimate", estimate_args(query, gpu, 2 * n, model))
    now, doubled = ((e.get("cost") or {}).get("usd_per_million_tokens_full_load")
                    for e in (fewest, more))  # fmt: skip
    if "error" in more or now is None or doubled is None or doubled >= 0.9 * now:
        return fewest
    return more


def _setup_counts(query: Query, ids: list[str]) -> list[int] | None:
    """How many of each GPU the question sets side by side ("2x 4060 Ti 16GB or 1x 3090"), when
    the setups differ in count; None when each is one card (or all the same count)."""
    counts = {g: ref.count or 1 for ref in query.gpus for g in gpu_choices(ref)}
    said = [counts.get(g, 1) for g in ids]
    return said if len(set(said)) > 1 else None


# the size of model put before speed: "I care more about model size than speed", "vram over speed"
_SIZE_FIRST = re.compile(
    r"\b(?:care|caring) (?:more )?about (?:the )?(?:model size|size|memory|vram|capacity|bigger"
    r" models|larger models)\b[^.?!]{0,15}\b(?:more )?than (?:about )?(?:the )?"
    r"(?:speed|performance)"
    r"|\b(?:model size|size|memory|vram|capacity) (?:over|before|ahead of) (?:raw )?(?:speed"
    r"|performance)\b|\b(?:model size|memory|vram|capacity) matters? more\b"
)


def _largest_of_each(
    query: Query, box: ToolBox, ids: list[str], counts: list[int]
) -> list[tuple[str, str, float, str | None]]:
    """The memory in all and the largest LLM each setup runs in 4-bit, what a second card buys:
    (its line, the setup, its memory in GB, that model's name) of each."""
    lines: list[tuple[str, str, float, str | None]] = []
    for gpu, n in zip(ids, counts, strict=True):
        sheet = box.call("gpu_specs", {"gpu": gpu, "num_gpus": n})
        found = box.call("largest_model", {"gpu": gpu, "num_gpus": n, "precision": "q4_k_m"})
        if "error" in sheet or "error" in found:
            continue
        e = found["estimate"]
        where = c.gpus_phrase(n, sheet["name"])
        memory = c.num(sheet["memory_gb"] * n, "GB") + " of memory" + (" in all" if n > 1 else "")
        largest = f"runs up to {e['model_name']} in 4-bit" if e else "runs no catalog LLM"
        lines.append((f"- {where}: {memory}; {largest}.", where, sheet["memory_gb"] * n,
                      e["model_name"] if e else None))  # fmt: skip
    return lines


# a job's cost asked per N of its units: "cost per 1000 hours of audio", "per 10k images"
_PER_UNITS_ASKED = re.compile(
    r"\b(?:cost|price|\$|usd|cheaper|cheapest)\b[^.?!]{0,30}?\bper (?:([\d,]+)\s?(k)?\s?"
    r"(?:(?:audio )?(hours?|hrs?)(?: of (?:audio|speech|recordings?))?|(images?|pictures?))\b"
    # (the understanding step writes "per 1000 hours of audio" as "per hour (1000) of audio")
    r"|(hour) \(([\d,]+)\) of (?:audio|speech|recordings?))"
)


def _per_units_cost(query: Query, box: ToolBox) -> str:
    """ "a10g vs l4 for whisper, cost per 1000 hours of audio": the job's price per that many
    of its units on each card compared (at its median rent and computed pace), the cheaper
    first; empty when not asked or not priced."""
    asked = _PER_UNITS_ASKED.search(query.low)
    compared = next((call.result for call in reversed(box.calls)
                     if call.name == "compare_workload" and "error" not in call.result),
                    None)  # fmt: skip
    if asked is None or compared is None:
        return ""
    many = float((asked.group(1) or asked.group(6)).replace(",", "")) * (
        1000 if asked.group(2) else 1)  # fmt: skip
    unit = "audio hour" if asked.group(3) or asked.group(5) else "image"
    rows = [r for r in compared["gpus"] if r.get("usd_per_unit") and r.get("fits")
            and (r.get("cost_unit") or "").endswith(unit)]  # fmt: skip
    if len(rows) < 2:
        return ""
    costs = []
    for r in rows:
        bill = box.call("service_cost", {"usd_per_unit": r["usd_per_unit"], "units": many,
                                         "unit": unit})  # fmt: skip
        if "error" not in bill:
            costs.append((bill["usd"], r))
    if len(costs) < 2:
        return ""
    costs.sort(key=lambda x: x[0])
    each = "; ".join(f"{r['gpu_name']} {c.usd(usd)} ({c.usd(r['usd_per_hour'])}/hour)"
                     for usd, r in costs)  # fmt: skip
    return (
        f"**The {costs[0][1]['gpu_name']} is the cheaper per {c.num(many)} {unit}s**: "
        f"{each}, each at its median rent and computed pace."
    )


# the speed of one card against another asked: "faster", "quicker", "an upgrade", "tok/s"
_SPEED_ASKED_OF_TWO = re.compile(
    r"\b(?:faster|quicker|slower|speed|upgrade|tok(?:ens)?/s|tokens? (?:per|a) second)\b"
)


def _model_ratio(query: Query, box: ToolBox) -> str | None:
    """One model on two or more GPUs: the computed speed of each and the ratio."""
    ids = gpus_named(query)
    model = query.models[0]
    # (a size with no name, "a little 8B model", is the generic model of that size when the
    # speed is what is asked: "newer card, it's got to be faster at the typing-out part?")
    sized = bool(model.size_b) and bool(_SPEED_ASKED_OF_TWO.search(query.low))
    if len(ids) < 2 or len(query.models) > 1 or not (model.ids or sized):
        return None
    if any((ref.count or 1) > 1 for ref in query.gpus) or (query.num_gpus or 1) > 1:
        return None  # the comparison is of one GPU each; the fit answer covers the counts
    workload = query.workload or "inference"
    if workload == "finetune":
        workload = FINETUNE_DEFAULT if model.family == "llm" else "finetune-full"
    args: dict[str, Any] = {"gpus": ids[:4], "workload": workload, "model": model_arg(model)}
    if precision := precision_for(model, query):  # ("and in 4-bit?": as the fit below reads it)
        args["precision"] = precision
    # the batch said, else a trained model's own (YOLO's trainer: 16), as the fit answer takes it
    batch = query.batch if model.family in (None, "llm") else default_batch(query, model, workload)
    if model.family in (None, "llm") and workload == "inference" and not batch:
        # "200 concurrent users, 1,500 prompt + 300 output: L40S or H100?": each card holding
        # that many sequences at once, each as long as said
        batch = query.concurrency
        args.update({k: v for k, v in (("context", query.context),
                                       ("output_tokens", query.output_tokens)) if v})  # fmt: skip
    if query.context and "context" not in args:
        args["context"] = query.context  # "BERT-large at seq len 384": as the fit below runs it
    if batch:
        args["batch"] = batch
    result = _at_training_batch(box, args, model.family or "llm")
    while (not query.batch and query.context and workload != "inference"
           and args.get("batch", 1) > 1 and "error" not in result
           and not all(r["speed"] for r in result["gpus"])):  # fmt: skip
        # a batch the user did not say, too big for one card: each at the same smaller batch,
        # as the fit below takes the largest that fits ("BERT-large at 384 tokens: 4090 or A100")
        smaller = box.call("compare_workload", {**args, "batch": args["batch"] // 2})
        if "error" in smaller:
            break
        args, result = {**args, "batch": args["batch"] // 2}, smaller
    if "error" in result or not any(r["speed"] for r in result["gpus"]):
        return None  # none fits: the fit answer says so, and what would
    for ref in query.gpus:  # "h100 or a100 for a 70b": an A100 is the 80GB one that holds it
        first = gpu_choices(ref)[0] if ref.ids else None
        if not ref.open_variant or first not in args["gpus"] or any(
                r["speed"] for r in result["gpus"] if r["gpu"] == first):  # fmt: skip
            continue
        for other in gpu_choices(ref)[1:]:
            swapped = [other if g == first else g for g in args["gpus"]]
            tried = _at_training_batch(box, {**args, "gpus": swapped}, model.family or "llm")
            if "error" not in tried and any(r["speed"] for r in tried["gpus"] if r["gpu"] == other):
                args["gpus"], result = swapped, tried
                break
    return c.job_ratio(result)


# cards compared for fine-tuning an LLM with no batch said: a batch that keeps them computing
# (at batch 1 an eager step is bound by the host's per-layer launches, alike on every card)
COMPARE_TRAIN_BATCH = 8


def _at_training_batch(box: ToolBox, args: dict[str, Any], family: str) -> dict[str, Any]:
    """compare_workload on `args`; an LLM trained or fine-tuned with no batch given is compared at
    COMPARE_TRAIN_BATCH when every card that holds batch 1 also holds it."""
    result = box.call("compare_workload", args)
    if family != "llm" or args.get("batch") or args.get("workload") == "inference":
        return result
    if "error" in result:
        return result
    # every card alike: recomputing activations, as a fine-tuning recipe at that batch does
    fuller = box.call("compare_workload", {**args, "batch": COMPARE_TRAIN_BATCH,
                                           "checkpointing": True})  # fmt: skip
    if "error" in fuller:
        return result
    held = {r["gpu"] for r in result["gpus"] if r["speed"]}
    if held and held <= {r["gpu"] for r in fuller["gpus"] if r["speed"]}:
        return fuller
    return result


def _family_of_job(query: Query) -> str:
    """Which family a job without a model means: the words' hint, else image models for
    training named with a framework (TensorFlow, PyTorch), else LLMs."""
    hint = family_hint(query.low)
    if hint and hint != "llm":
        return hint
    if query.framework in ("pytorch", "tensorflow") and query.workload in ("train", "finetune"):
        return "vision"
    return "llm"


# ---------------------------------------------------------------- money


_ALWAYS_ON = re.compile(
    r"\bcan(?:'|no)?t scale (?:it |them )?(?:down )?to zero\b"
    # "running 24/7", not "reserved at $1.60/h (billed 24/7)": how a committed term bills
    r"|\balways[- ]on\b|(?<!billed )(?<!charged )(?<!bills )\b24/7\b|\baround the clock\b"
)
_PREEMPTED = re.compile(
    r"\blos(?:e|es|ing|t)\s(?:about |around |roughly |~)?(\d{1,2}(?:\.\d+)?)\s?%"
    r"[^.?!]{0,50}\b(?:preempt\w*|interrupt\w*|evict\w*|reclaim\w*)"
)


# whether an amount held pays for the job: "do the credits cover it", "is $500 enough", "top up"
_COVERED = re.compile(
    r"\bcover(?:s|ed)?\b|\benough\b|\bsuffic\w*|\btop[- ]?up\b|\bleft ?over\b|\bleft\b"
    r"|\bshort\b|\bstretch\b|\bwithin (?:the |my |our )?(?:budget|credits?|grant)\b"
)


def _price_terms(query: Query, box: ToolBox) -> Draft:
    """One GPU under several price terms ("1-yr reserved $2.20, on-demand $4.00, we use it 30% of
    the time"): a committed term bills every hour of the period for each GPU held, on-demand and
    spot bill the GPU-hours used; each term's bill, the cheaper one, and where they cross."""
    low = query.low
    monthly = re.search(r"\b(?:per|a|each|every) month\b|\bmonthly\b|/mo(?:nth)?\b", low)
    # "the 5,000 GPU-hours per month we use ... annual cost of each?": a year's bill of the
    # monthly use
    annual = re.search(r"\bannual\w*|\bper annum\b|\byearly\b|\b(?:per|each|every) (?:year|yr)\b",
                       low)  # fmt: skip
    yearly = bool(annual) or (not monthly and bool(re.search(r"\byears?\b|\byr\b", low)))
    months = 12.0 if yearly and monthly else 1.0  # the use said a month, billed for a year
    span, period = (8760.0, "year") if yearly else (HOURS_PER_MONTH, "month")
    count = _gpu_count(query)
    unit = "node" if query.price_per_node else "GPU"  # "$55.04/hr per instance": the node's
    count = 1 if query.price_per_node else count
    work = re.search(r"\bgpu[- ]?hours?\b|\bhours? of (?:\w+ )?(?:work|use|compute)\b", low)
    if _ALWAYS_ON.search(low):  # "utilisation is 45% but we can't scale to zero": all billed
        used = span * count
    elif query.use_hours_per_day is not None:  # "utilisation ~30%", "10 hours a day"
        used = query.use_hours_per_day * span / 24 * count
    elif query.hours and (work or query.hours <= span * count):  # "1,200 GPU-hours a month"
        used = query.hours * months
    else:  # "one H100 for 3 months": held the whole time
        used = span * count
    lost = _PREEMPTED.search(low)  # "with spot we lose about 15% of work to preemptions"
    share_lost = float(lost.group(1)) / 100 if lost and 0 < float(lost.group(1)) < 90 else 0.0
    held = count  # the GPUs a committed term holds: those said (use beyond them is capped)
    used = min(used, span * count)
    rows = []
    for term, price in query.price_options:
        billed = span * held if term == "reserved" else used
        if term == "spot" and share_lost:
            billed = used / (1 - share_lost)  # the work lost to preemptions, run again
        bill = box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": billed})
        if "error" in bill:
            return Draft(bill["error"])
        rows.append((term, price, billed, bill["usd"]))
    rows.sort(key=lambda r: r[3])
    best, other = rows[0], rows[1]
    # "job needs ~200 GPU-hours ... spot or on-demand?": one job's bill, no period's
    one_job = bool(
        query.hours and not monthly and not annual and all(r[0] != "reserved" for r in rows)
    )
    head = (f"**{best[0].capitalize()} is cheaper at your use: {c.usd(best[3])} a {period} against "
            f"{c.usd(other[3])} for {other[0]}**, {c.usd(other[3] - best[3])} a {period} "
            "less.")  # fmt: skip
    if one_job:
        head = (f"**{best[0].capitalize()} is cheaper for the job: {c.usd(best[3])} against "
                f"{c.usd(other[3])} for {other[0]}**, "
                f"{c.usd(other[3] - best[3])} less.")  # fmt: skip
    lines = [
        f"- {term}: {c.usd(price)}/hour x {c.num(billed, 'hours')}"
        + (f" (every hour of the {period}, for {held} {unit}{'s' if held > 1 else ''})"
           if term == "reserved" else " of use")
        + (f", {c.num(share_lost * 100)}% of the work lost to preemptions and run again"
           if term == "spot" and share_lost else "")
        + f" = {c.usd(bill)}"
        for term, price, billed, bill in rows
    ]  # fmt: skip
    committed = next((r for r in rows if r[0] == "reserved"), None)
    flexible = next((r for r in rows if r[0] != "reserved"), None)
    if committed and flexible and used < span * held:
        cross = box.call("rental_hours", {"budget_usd": committed[3],
                                          "usd_per_gpu_hour": flexible[1]})  # fmt: skip
        share = 100 * cross["hours"] / (span * held)
        of = f" ({c.num(share)}% of the {c.num(span, 'hours')})" if held == 1 else ""
        if share < 100:
            lines.append(f"They cross at {c.num(cross['hours'], 'hours')} of use a {period}"
                         f"{of}: below that {flexible[0]} costs less, above it reserved "
                         "does.")  # fmt: skip
        else:
            lines.append(f"Reserved never pays here: even used every hour of the {period}, "
                         f"{flexible[0]} costs less.")  # fmt: skip
    lines.append(f"Prices are yours, used as given, per {unit}-hour.")
    draft = Draft(head + "\n\n" + "\n".join(lines))
    draft.cite_more = False  # the user's own prices and arithmetic: no article speaks to them
    return draft


def _gpu_count(query: Query) -> int:
    """The GPUs the question counts: a count said with a GPU, else a loose count, else one."""
    return next((g.count for g in query.gpus if g.count), None) or query.num_gpus or 1


def _paced_items(query: Query) -> float | None:
    """What a pace the user gives counts: images, samples, hours of audio (an hour an item), or
    a training run's steps ("2.2 s/it, 3000 steps")."""
    training = query.workload not in (None, "inference")
    # "each step takes 1.2 s, 50,000 steps": a run's steps, with no job named
    untold = query.workload is None and not query.models
    steps = float(query.steps) if query.steps and (training or untold) else None
    samples = query.dataset_samples * (query.epochs or 1) if query.dataset_samples else None
    if steps and _PER_STEP.search(query.low):  # "2.3 it/s, 12,000 steps" of 200 hours of audio
        return steps
    return query.images or samples or query.audio_hours or steps  # "50,000 images, 5 epochs"


# a pace said per training step: "2.3 it/s", "1.8 s/it", "each step takes 0.9 s"
_PER_STEP = re.compile(
    r"\bit/s\b|\bs/it\b|\bsec/it\b|\b(?:per|each|every|a) (?:training )?(?:step|iteration)\b"
    r"|\b(?:iterations?|iters?|steps?) (?:per|a|/) ?(?:second|sec|s)\b"
)


def _steps_as_samples(query: Query, model: ModelRef, workload: str) -> float | None:
    """ "BERT-base pre-training, 1M steps at batch 256": the samples the steps see, steps x
    batch, for an encoder's or a vision net's training (a diffusion run times its steps itself;
    an LLM's run is sized in tokens)."""
    if not (query.steps and query.batch) or model.family in (None, "llm", "diffusion"):
        return None
    return float(query.steps * query.batch) if workload in ("train", "finetune") else None


def _sampler_steps(query: Query) -> int | None:
    """The denoising steps of an image; a training run's steps ("2000 steps of an SDXL LoRA")
    are its length, which the diffusion calculator times."""
    if query.steps and (query.workload or "inference") != "inference":
        return query.steps
    return query.steps if query.steps and query.steps <= SAMPLER_STEPS else None


def _pace_said(query: Query, items: float) -> str:
    """The items a pace counts and the pace, in the user's terms: "3,000 steps at 1.80 s each",
    "115,305,030 images at 1,200 a second"."""
    steps = bool(query.steps) and items == float(query.steps or 0)
    imaged = query.images or re.search(r"\bimages?\b|\bimgs?\b|\bpictures\b", query.low)
    framed = re.search(r"\bframes?\b|\bfps\b", query.low)
    noun = "steps" if steps else "frames" if framed and query.images else "images" if imaged else (
        "samples" if query.dataset_samples else "items")  # fmt: skip
    pace = query.seconds_per_item or 0.0
    rate = 1 / pace if pace else 0.0
    if 0 < pace < 1 and f"{rate:g}" in query.text.replace(",", ""):  # the rate as said
        return f"{c.num(items)} {noun} at {c.num(rate)} a second"
    return f"{c.num(items)} {noun} at {c.num(pace, 's')} each"


# a price offered, judged: "is $2.50/hr a good price for an H100?", "fair?", "a rip-off?"
_PRICE_JUDGED = re.compile(
    r"\bgood (?:price|deal|rate)\b|\bfair\b|\brip[- ]?off\b|\boverpriced\b|\bexpensive\b"
    r"|\breasonable\b|\bcheap\b|\bworth it\b|\bin line\b|\bmarket rate\b|\bgood value\b"
    r"|\bover-?pa(?:y|ying|id)\b|\bgoing rate\b|\bripped off\b|\bfleeced\b|\brobbed\b"
    r"|\btoo much\b"
)
# the price said is a whole machine's: "$28/hr for an 8xA100 box"
_WHOLE_MACHINE = re.compile(r"\b(?:box|node|server|machine|instance|cluster|rig|system|dgx|hgx)\b")
# ... unless said per GPU: "each", "per gpu" (_EACH_PRICE), "$2.50/gpu", "2.5 an hour per H100"
_EACH_PRICE = re.compile(r"\beach\b|\bapiece\b|\bper[- ]?(?:card|gpu)\b")
_PER_GPU_SAID = re.compile(_EACH_PRICE.pattern + r"|/\s?gpu\b|\bper (?:[a-z]+\s?)?\d{2,4}\w*\b")
_BOARD_SAID = re.compile(r"\bdgx\b|\bhgx\b")  # a board of eight, said by its name
GOING_RATE_BAND = 0.1  # within 10% of the median either way: the going rate


def _rental_quote_judged(query: Query, box: ToolBox, price: float, count: int) -> Draft | None:
    """An hourly rental price the user was offered, against the current prices on record for
    that card: per GPU-hour (a machine's price shared by its GPUs), where it falls in their
    range and against the median."""
    if not query.gpus or query.hours or query.models or not _PRICE_JUDGED.search(query.low):
        return None  # a job named: its fit and cost at that price answer it (job_time, fit)
    if count <= 1 and _BOARD_SAID.search(query.low):
        count = NODE_GPUS  # "$30/hr for a DGX H100": the 8 GPUs of its board
    gpu = gpu_choices(query.gpus[0])[0]
    rented = box.call("prices", {"gpu": gpu})
    summary = rented.get("summary_usd_per_gpu_hour")
    if "error" in rented or not summary:
        return None
    each_said = _PER_GPU_SAID.search(query.low)  # "$2.50/hr per gpu for the cluster"
    whole = (
        count > 1
        and not each_said
        and (query.price_per_node or bool(_WHOLE_MACHINE.search(query.low)))
    )
    each = _gpu_share(box, price, count) if whole else price
    if each is None:
        return None
    median, low, high = summary["median"], summary["low"], summary["high"]
    # asked of the bad case ("are we overpaying?", "is that a rip-off?"): yes when it is dear
    dear = bool(re.search(r"over-?pa(?:y|ying|id)|overpriced|rip-?off|too much|expensive"
                          r"|ripped off|fleeced|robbed",
                          query.low))  # fmt: skip
    if each > high:
        verdict = f"{'Yes' if dear else 'No'}, above every price on record"
    elif each > (1 + GOING_RATE_BAND) * median:
        verdict = f"{'Yes' if dear else 'No'}, above the going rate"
    elif each >= (1 - GOING_RATE_BAND) * median:
        verdict = "No, about the going rate" if dear else "About the going rate"
    else:
        verdict = "No, below the going rate" if dear else "Yes, a good price"
    sign = query.currency
    shared = (f" (your {c.usd(price, sign)} an hour for {count} GPUs, divided by {count})"
              if whole else "")  # fmt: skip
    text = (
        f"**{verdict}: {c.usd(each, sign)} per GPU-hour{shared} against a median of "
        f"{c.usd(median)} for the {rented['gpu_name']}** across {rented['count']} current prices "
        f"(from {c.usd(low)} to {c.usd(high)})."
    )
    if sign != "$":
        text += " Your price is not in dollars: the comparison takes the figures as they are."
    newest = c.rental(rented).split("\n\n")[-1]  # "Newest price: ...", with its source
    return Draft(text + "\n\n" + newest)


def _monthly_bill_judged(query: Query, box: ToolBox, count: int) -> Draft | None:
    """A monthly bill the user pays for GPUs named, judged per GPU-hour against the prices on
    record (around the clock unless the hours a day are said)."""
    counted = any(g.count for g in query.gpus) or query.num_gpus
    if not (query.monthly_usd and query.gpus and counted and _PRICE_JUDGED.search(query.low)):
        return None  # "$48k a month for A100s": how many is not said
    share = query.use_hours_per_day / 24 if query.use_hours_per_day else 1.0
    bill = box.call("bill_rate", {"usd": query.monthly_usd, "num_gpus": count,
                                  "hours": HOURS_PER_MONTH * share})  # fmt: skip
    if "error" in bill:
        return None
    judged = _rental_quote_judged(replace(query, hours=None), box, bill["usd_per_gpu_hour"], 1)
    if judged is None:
        return None
    sign = query.currency
    judged.text = judged.text.replace(
        " per GPU-hour against",
        f" per GPU-hour (your {c.usd(query.monthly_usd, sign)} a month over "
        f"{c.num(bill['gpu_hours'])} GPU-hours: {count} GPUs x {c.num(bill['hours'])} hours) "
        "against",
        1,
    )
    return judged


def _gpu_share(box: ToolBox, node_price: float, gpus: int) -> float | None:
    """A node's hourly price shared by its GPUs, from a tool call (the answer's figure is traced
    to it); None if the tool refuses."""
    result = box.call("rental_cost", {"usd_per_gpu_hour": node_price / gpus, "hours": 1})
    return None if "error" in result else float(result["usd_per_gpu_hour"])


# a price per GPU asked of a node's price: "what is that per GPU-hour?", "per card?"
# (the understanding step writes "per GPU-hour" as "per hour (gpu)")
_PER_GPU_ASKED = re.compile(
    r"\bper[- ](?:gpu|card)\b|\beach (?:gpu|card)\b|\bper hour \((?:gpu|card)\)"
)


def _service_bill(query: Query, box: ToolBox) -> dict[str, Any] | None:
    """The `service_cost` of the job's work (its audio, images or tokens) at the pay-per-use
    price the user sets against the GPU; None when no such price or no amount of work is said."""
    if query.service_price is None:
        return None
    price, unit = query.service_price
    tokens = query.output_tokens or query.train_tokens
    units = {
        "audio minute": query.audio_hours * 60 if query.audio_hours else None,
        "audio hour": query.audio_hours,
        "image": query.images or query.dataset_samples,  # "500 images", no model named
        "million tokens": tokens / 1e6 if tokens else None,
    }[unit]
    if not units:
        return None
    result = box.call("service_cost", {"usd_per_unit": price, "units": units, "unit": unit})
    return None if "error" in result else result


def _paced_hours(query: Query, count: int) -> float | None:
    """The hours of the job at the user's own pace: "each image takes 20 sec" x the images (an
    hour of audio counts as an item), or "we measured 1,200 tokens/s" for the tokens to run."""
    items = _paced_items(query)
    if query.seconds_per_item and items:
        return paced_hours_h(query.seconds_per_item, items, 1 if query.pace_whole else count)
    if query.throughput_tok_s and query.train_tokens:
        return query.train_tokens / query.throughput_tok_s / 3600
    return None


# the least a card can be had for: "cheapest way to rent 8xH100", "lowest price for an A100"
_CHEAPEST_WAY = re.compile(r"\bcheapest\b|\blowest (?:price|cost|rate)\b|\bleast expensive\b")


# the hours the GPUs do useful work: "cost per *useful* GPU-hour", "effective cost per GPU-hour"
_USEFUL_HOUR = re.compile(
    r"\b(?:useful|effective|utili[sz]ed|busy|productive|real)\W{0,2}\s?(?:cost\s)?(?:per|a|/)?\s?"
    r"\W{0,2}(?:gpu[- ]?)?hours?\b|\beffective (?:cost|price|rate)\b"
    # "at 35% utilisation, what does an idle gpu-hour cost us?": the same share, from its side
    r"|\b(?:idle|wasted|unused)\W{0,2}\s?(?:gpu[- ]?)?hours?\b"
)
_NODE_SAID = re.compile(r"\b(?:node|server|box|machine|instance|cluster)\b")


def _useful_hour_cost(query: Query, box: ToolBox) -> Draft | None:
    """ "Our 8xA100 node averages 35% utilisation at $14/hr: cost per useful GPU-hour?": the
    price over the GPUs (a node's price is all of them) and over the share of hours they work."""
    price, daily = query.user_price_usd_per_hour, query.use_hours_per_day
    if not (price and daily and daily < 24 and _USEFUL_HOUR.search(query.low)):
        return None
    count = (query.gpus[0].count if query.gpus else None) or query.num_gpus or 1
    # ("8x a100 node ... at $1.80/gpu-hour": a price said per GPU is no node's)
    per_gpu = re.search(r"\d\s?(?:/|per|an?)\s?gpu[- ]?(?:hours?|hrs?|h)\b|\d\s?per gpu\b"
                        r"|\d\s?per hour \(gpu\)", query.low)  # fmt: skip
    node = count > 1 and not per_gpu and (query.price_per_node
                                          or bool(_NODE_SAID.search(query.low)))  # fmt: skip
    gpus = count if node else 1
    share = daily / 24
    nominal = box.call("bill_rate", {"usd": price, "num_gpus": gpus, "hours": 1})
    useful = box.call("bill_rate", {"usd": price, "num_gpus": gpus, "hours": share})
    if "error" in nominal or "error" in useful:
        return None
    each = c.usd(nominal["usd_per_gpu_hour"])
    per = (f"your {c.usd(price)} an hour for the {count} GPUs is {each} per GPU-hour" if node
           else f"your {c.usd(price)} per GPU-hour")  # fmt: skip
    return Draft(
        f"**About {c.usd(useful['usd_per_gpu_hour'])} per useful GPU-hour**: {per}, and at "
        f"{c.num(share * 100)}% utilisation only that share of the hours you pay for does work "
        f"({c.usd(nominal['usd_per_gpu_hour'])} / {c.num(share)}).\n\nRaising the utilisation "
        "(queueing jobs, sharing the node, scaling down when idle) lowers it; on-demand rental "
        "billed only for busy hours is the same figure at 100%.",
        cite_more=False,
    )


# "how many sets can it get through per hour of GPU time?": recordings done in an hour
_HOW_MANY_AN_HOUR = re.compile(
    r"\bhow many\b[^.?!]{0,40}\b(?:per|an?|each|every|in an?|in one) (?:gpu[- ])?hour\b"
)


def recordings_an_hour(query: Query, box: ToolBox) -> Draft | None:
    """ "55x realtime ... my sets are 45 minutes: how many sets per hour of GPU time?": the
    recordings of that length one GPU gets through in an hour at the pace the user gives."""
    pace = query.seconds_per_item  # the seconds an hour of audio takes
    if not (pace and query.hours and _HOW_MANY_AN_HOUR.search(query.low)):
        return None
    if not any(m.family == "speech" for m in query.models) and "audio" not in query.low:
        return None
    result = box.call("paced_time", {"seconds_per_item": pace, "items": query.hours})
    if "error" in result:
        return None
    length = (c.num(query.hours * 60, "minutes") if query.hours < 2
              else c.num(query.hours, "hours"))  # fmt: skip
    return Draft(
        f"**About {c.num(result['jobs_per_hour'])} recordings of {length} each per hour of GPU "
        f"time**, at your {c.num(3600 / pace)}x real time: each takes "
        f"{c.num(result['minutes'], 'minutes')} of GPU time."
    )


def _job_sized(query: Query) -> bool:
    """A whole job's size was said: images, tokens, samples or hours of audio to get through."""
    return bool(query.images or query.train_tokens or query.dataset_samples or query.audio_hours)


# tokens counted in millions or more: "10M tokens output", "2 billion tokens"
_TOKENS_IN_ALL = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?(m|b|t|million|billion|trillion)\s"
    r"(?:output |generated )?tokens?\b"
)
_SCALE_WORDS = {"m": 1e6, "b": 1e9, "t": 1e12}


def _cluster_bill(query: Query, box: ToolBox) -> Draft | None:
    """The bill of a training run on the cluster that meets the deadline the thread set ("how
    many h100s to pretrain a 7b on 1T tokens in 30 days" then "and what would that cost?"): the
    deadline's count (_deadline_plan), its job at the median rent."""
    workload, _ = workload_of(query)
    if not (query.follow_up and query.hours and query.train_tokens and query.models
            and len(query.gpus) == 1 and not query.gpus[0].count and not query.num_gpus
            and workload.startswith(("train", "finetune"))):  # fmt: skip
        return None
    gpu, model = gpu_choices(query.gpus[0])[0], query.models[0]
    plan = _deadline_plan(query, box, gpu, model)
    if not isinstance(plan, tuple) or plan[0] < 2:
        return None
    count = plan[0]
    runs = [call.result for call in box.calls if call.name == "estimate"
            and call.args.get("num_gpus") == count and "error" not in call.result]  # fmt: skip
    run = runs[-1] if runs else {}
    bill = run.get("cost") or {}
    if not bill.get("usd_per_job"):
        return None
    head = (f"**About {c.usd(bill['usd_per_job'])} for the run on "
            f"{c.gpus_phrase(count, run['gpu_name'])}**, the fewest that finish within "
            f"{_span_said(query.hours, query.low)}, at the median "
            f"{c.usd(bill['usd_per_gpu_hour'])} per GPU-hour.")  # fmt: skip
    return Draft(f"{head}\n\n{plan[1].text.replace('**', '')}", cite_more=False)


def _tokens_generated(query: Query, box: ToolBox, time_first: bool = False) -> Draft | None:
    """ "What would 1 billion tokens cost on llama 70b with h100s?": the tokens to generate at the
    setup's serving rate at full load (and at one stream, its ceiling), on the fewest cards that
    hold the model, at the median rent per million tokens."""
    said = _TOKENS_IN_ALL.search(query.low)
    tokens = query.train_tokens or (
        float(said.group(1)) * _SCALE_WORDS[said.group(2)[0]] if said else None
    )
    if not (tokens and query.models and query.gpus and query.workload == "inference"):
        return None
    if tokens <= 1e6 or _PER_TOKENS.search(query.low):
        return None  # "what does a million tokens cost": the price per million, its own answer
    if query.output_tokens == tokens:  # the tokens in all, not each reply's
        query = replace(query, output_tokens=None)
    if query.throughput_tok_s or query.user_price_usd_per_hour or query.service_price:
        return None  # the user's own pace or price: their handlers
    model, ref = query.models[0], query.gpus[0]
    gpu = gpu_choices(ref)[0]
    e = box.call("estimate", estimate_args(query, gpu, ref.count, model))
    if "error" not in e and not ref.count:  # the fewest that hold it, or twice that if cheaper
        fewest = _fewest(query, box, gpu, model) if not e["fits"] else {"solution": 1}
        if "error" not in fewest and fewest.get("solution"):
            e = _best_served(query, box, gpu, fewest["solution"], model)
    costs = e.get("cost") or {} if "error" not in e and e.get("fits") else {}
    full, one = costs.get("usd_per_million_tokens_full_load"), costs.get("usd_per_million_tokens")
    serving = e.get("serving_tokens_per_s") if costs else None
    if not (full and one and serving):
        return None
    millions = tokens / 1e6
    bill = box.call("service_cost", {"usd_per_unit": full, "units": millions,
                                     "unit": "million tokens"})  # fmt: skip
    alone = box.call("service_cost", {"usd_per_unit": one, "units": millions,
                                      "unit": "million tokens"})  # fmt: skip
    took = box.call("paced_time", {"seconds_per_item": 1 / serving["typical"], "items": tokens})
    if any("error" in r for r in (bill, alone, took)):
        return None
    where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
    amount = next((f"{c.num(tokens / size)} {word}" for size, word in
                   ((1e12, "trillion"), (1e9, "billion"), (1e6, "million")) if tokens >= size),
                  c.num(tokens))  # fmt: skip
    if time_first:  # "how long to generate 100k samples of 400 tokens": the wall time leads
        head = (f"**About {c.duration(took['hours'])} to generate {amount} tokens on {where} kept "
                f"at full load** ({c.num(serving['typical'], 'tokens/s')} with "
                f"{e['serving_batch']} requests in flight; {e['model_name']}, {e['precision']}, "
                f"{e.get('engine') or 'vllm'}): about {c.usd(bill['usd'])} at "
                f"{c.usd(full)} per million tokens.")  # fmt: skip
    else:
        head = (f"**About {c.usd(bill['usd'])} for {amount} tokens generated on {where} kept "
                f"at full load** ({c.usd(full)} per million tokens, "
                f"{c.num(serving['typical'], 'tokens/s')} "
                f"with {e['serving_batch']} requests in flight: about {c.duration(took['hours'])} "
                f"of wall time; {e['model_name']}, {e['precision']}, "
                f"{e.get('engine') or 'vllm'}).")  # fmt: skip
    single = (f"One request at a time it is about {c.usd(alone['usd'])} ({c.usd(one)} per million "
              f"tokens): the work is cheap only when many requests share the cards.")  # fmt: skip
    price = (f"At the median rent of {c.usd(costs['usd_per_gpu_hour'])} per GPU-hour "
             f"({costs.get('price_provider', 'median')}, {costs.get('price_date', '')}); the "
             "tokens are counted as output, each request reading a "
             f"{e.get('serving_prompt') or 1024:,}-token prompt.")  # fmt: skip
    return Draft("\n\n".join([head, single, price]))


PRICE_GAP_WHY = (
    "Why they differ: the big clouds rent these cards in whole multi-GPU instances with their "
    "networking, support and uptime guarantees, and price in their own margins; marketplaces "
    "(Vast.ai and the like) broker cards from third-party hosts, with no guarantee of uptime, "
    "of the host's network, or that the machine stays yours. Spot and committed-use terms on "
    "the big clouds narrow the gap."
)
# a gap between prices asked about: "$2/hr on vast but $12 on aws, why?", "how come"
_PRICE_GAP_ASKED = re.compile(r"\bwhy\b|\bhow come\b|\bwhat explains\b|\bdifference\b")


def cost(query: Query, box: ToolBox) -> Draft:
    named = [r for r in query.gpus if r.ids]
    if (2 <= len(named) == len(query.providers) and not query.user_price_usd_per_hour
            and not query.gpu_prices and _PER_HOUR_ASKED.search(query.low)):  # fmt: skip
        # "a pair of 3090s per hour on vast vs an a100 on runpod": each on the cloud said with it
        return _rent_of_each(query, box, named[:4], query.hours or 1.0)
    if (len(query.providers) >= 2 and query.gpus and _PRICE_GAP_ASKED.search(query.low)
            and not query.hours):  # fmt: skip
        # "an H100 is $2/hr on vast but $12 on aws, why?": each cloud's prices, and what sets
        # them apart, not an hour count from the two figures
        plain = re.sub(_PRICE_GAP_ASKED.pattern, " ", query.read, flags=re.IGNORECASE)
        prices = cost(replace(query, user_price_usd_per_hour=None, budget=None, gpu_prices=(),
                              text=plain, english=plain), box)  # fmt: skip
        return Draft(f"{prices.text}\n\n{PRICE_GAP_WHY}", prices.citations, prices.warnings)
    if _job_sized(query) and (due := _deadline_judged(query, box, verdict_only=True)):
        # "can a 4090 finish 20000 images in a week, and the cost?": yes or no, then the bill
        costed = cost(replace(query, hours=None), box)
        return Draft(f"{due.text}\n\n{costed.text}", costed.citations, costed.warnings)
    if (at_mfu := _cost_at_stated_mfu(query, box)) is not None:
        return at_mfu  # "3B on 300B tokens, H100s at $2/hr, 40% MFU: compute and cost?"
    if (not query.user_price_usd_per_hour and not _PER_TOKENS.search(query.low)
            and (loaded := _load_on_each(query, box)) is not None):  # fmt: skip
        return loaded  # "which is cheaper for llama 3 8b at 20 req/s, L4 or A10G?": each fleet
    if (billed := _api_bill_against_cards(query, box)) is not None:
        return billed  # "$4,000 a month on openai: llama 70b on rented h100s cheaper?"
    if (useful := _useful_hour_cost(query, box)) is not None:
        return useful  # "35% utilisation at $14/hr for the node: per useful GPU-hour?"
    if (afforded_tokens := tokens_at_stated_mfu(query, box)) is not None:
        return afforded_tokens  # "$50k of credit at 40% MFU: how many tokens for a 1.3B?"
    if (afforded := _cards_afforded(query, box)) is not None:
        return afforded  # "$30k a month for GPUs: how many A100s is that?"
    if (served := _load_bill(query, box)) is not None:
        return served  # "100 req/s on A10Gs" then "and the monthly bill for that on aws?"
    if (generated := _tokens_generated(query, box)) is not None:
        return generated  # "what would 1 billion tokens cost on llama 70b with h100s"
    if (sized := _cluster_bill(query, box)) is not None:
        return sized  # "how many h100s to pretrain a 7b in 30 days" then "and the cost?"
    if (
        _quote_said(query)
        and len(query.gpus) == 1
        and query.models
        and not (query.hours or query.user_price_usd_per_hour or query.monthly_usd)
    ):
        return buy(query, box)  # "tesla p40 for $150, any good for 13b?": the quote and the job
    if not query.user_price_usd_per_hour and (worth := _worth_the_price(query, box)):
        return worth  # "is the 4090 worth the price premium over the 4080?"
    per_work = re.search(r"\bper (?:training |generated |output )?(?:token|image|sample|step)\b"
                         r"|\bcost[- ]?effective|\bper dollar\b", query.low)  # fmt: skip
    if (per_work and query.workload_given and not query.models and not query.user_price_usd_per_hour
            and len(gpus_named(query)) >= 2):  # fmt: skip
        # "H100 or A100 80GB: which is cheaper per token for training?": the job's speed on each
        # against its median rent (the family's reference model, no model being named)
        ratio = _job_ratio(query, box, gpus_named(query)[:4])
        if ratio is not None and re.search(r"\bper hour\b|\bhourly\b|\ban hour\b", query.low):
            # "cheaper per hour, and which per token?": the rents first, then the work's cost
            hourly = cost(replace(query, workload_given=False), box)
            return Draft(f"{hourly.text.split(chr(10) * 2)[0]}\n\n{ratio}", hourly.citations)
        if ratio is not None:
            return Draft(ratio)
    cheaper = query.follow_up and query.gpus and not query.models and CHEAPER.search(query.low)
    # "cheapest way to rent 8xH100 for a weekend?": the lowest offers, not the median
    cheapest = (len(query.gpus) == 1 and not query.models and not query.providers
                and not query.user_price_usd_per_hour and not query.price_options
                and "$" not in query.low and _CHEAPEST_WAY.search(query.low))  # fmt: skip
    if (cheaper or cheapest) and (offers := _cheaper_rental(query, box)):
        return offers  # "cheaper option?" after a card's price: its cheaper offers
    if not query.user_price_usd_per_hour and (carried := _measured_elsewhere(query, box)):
        return carried
    if len(query.price_options) >= 2:  # "reserved $2.20 or on-demand $4.00 at 30% use?"
        return _price_terms(query, box)
    if len(query.gpu_prices) >= 2:  # "h100 $2.50/hr, a100 $1.30/hr: which is cheaper per token?"
        draft = _priced_choice(query, box)
        if draft is not None:
            return draft
    if len(query.gpu_purchase_prices) >= 2 and not query.hours:
        # "a 4090 is €1800 and a 5090 is €2500, which is better value for llm": each at its price
        draft = _priced_choice(query, box, bought=True)
        if draft is not None:
            return draft
    price = query.user_price_usd_per_hour
    count = _gpu_count(query)
    if price is None and (judged := _monthly_bill_judged(query, box, count)):
        return judged  # "our monthly bill is $48k for 20 A100s around the clock: overpaying?"
    # an electricity bill when a price per kWh is known and no rental price is asked about
    if query.usd_per_kwh is not None and price is None and (query.gpus or query.draw_w):
        return electricity_bill(query, box, count)
    if (query.usd_per_kwh is None and price is None and query.gpus and query.gpus[0].ids
            and _POWER_BILL_ASKED.search(query.low)):  # fmt: skip
        return _energy_unpriced(query, box, count)
    api = query.service_price  # "the API charges $0.60 per 1M tokens": set against the GPU
    api = api if api and api[1] == "million tokens" else None
    if api and not price and query.rps and query.models and query.gpus:
        # "5M tokens a day of a 70B: rent H100s or an API at $0.60 per million?": a day of each
        versus = _api_or_rented(query, box, api[0])
        if versus is not None:
            return versus
    if api and not price and not query.rps and query.models and query.gpus:
        # "1M tokens of a 70B on rented H100s, or gpt-4o-mini at $0.60/M?": a million tokens
        versus = _api_against_token_rent(query, box, api[0])
        if versus is not None:
            return versus
    rent_on_record = None
    if price is None and query.throughput_tok_s and _PER_TOKENS.search(query.low):
        # "we measured ~2500 tok/s on one L40S: what's that per million tokens?": the card's
        # median rent over the speed the user measured
        rent_on_record = _median_rent(query, box)
    per_hour = price if price is not None else rent_on_record[0] if rent_on_record else None
    if per_hour and query.throughput_tok_s and (api or _PER_TOKENS.search(query.low)):
        gpu = _said(query.gpus[0]) if query.gpus else "GPU"
        node = count if query.price_per_node else None
        paid: dict[str, Any] = {"usd_per_gpu_hour": per_hour, "num_gpus": 1 if node else count,
                                "tokens_per_s": query.throughput_tok_s}  # fmt: skip
        if rent_on_record:
            paid["price_source"] = rent_on_record[1]
        result = box.call("token_cost", paid)
        if "error" in result:
            return Draft(result["error"])
        text = c.token_cost(result, gpu, node)
        if api:
            text = c.against_service(result["usd_per_million_tokens"], api[0],
                                     "per million tokens") + "\n\n" + text  # fmt: skip
        return Draft(text)
    if price is None and (priced := _gpu_hours_priced(query, box)):
        return priced  # "150k A100 hours: what would that cost?"
    hours = query.hours  # "6 hours per epoch, 3 epochs" is 18 hours already
    if hours is None:
        hours = _paced_hours(query, count)
    # (a budget's month with a price: the hours it buys, below)
    periods = [p for p in _RENT_PERIOD.finditer(query.low) if hours is None
               and not (query.budget and price is not None)
               and not _RATE_BEFORE.search(query.low[: p.start()])]  # fmt: skip
    words = [next(w for w in p.groups() if w) for p in periods]
    if query.use_hours_per_day:  # "9-5 every day, monthly?": the day is the rate's, not the bill's
        words = [w for w in words if not w.startswith("d")] or words
    used = ""
    if words:
        # "what does a 4090 cost per month to rent?": the period, around the clock, or for the
        # hours a day it is used ("9-5 on weekdays")
        hours = next(h for unit, h in _RENT_PERIOD_HOURS.items() if words[0].startswith(unit))
        if query.use_hours_per_day and not words[0].startswith("d"):
            hours = hours / 24 * query.use_hours_per_day
            span = next(n for u, n in _SPAN_NAMES.items() if words[0].startswith(u))
            used = f"Hours of use: {c.num(hours)} over the {span}, at the hours a day you said."
    gpu = _said(query.gpus[0]) if query.gpus else "GPU"
    per_node = query.price_per_node
    # "12 x g6e.xlarge at $1.86/hr": twelve instances of one GPU each, each at that price
    size = query.node_size if per_node and query.node_size and query.node_size <= count else None
    nodes = count // size if size and count % size == 0 else 1
    named = [r for r in query.gpus if r.ids]
    if price is not None and hours and len(named) >= 2 and _EACH_PRICE.search(query.low):
        return _rent_of_each(query, box, named[:4], hours)  # "and how much per month for each"
    if price is not None and hours:
        rate = query.exchange if query.currency == "$" else None
        shares = query.split_ways
        result = box.call(
            "rental_cost",
            {"usd_per_gpu_hour": price, "hours": hours, "num_gpus": nodes if per_node else count,
             **({"per_dollar": rate[1]} if rate else {}),
             **({"shares": shares} if shares else {})},
        )  # fmt: skip
        if "error" in result:
            return Draft(result["error"])
        node = (size or count) if per_node else None
        each = _gpu_share(box, price, node) if node and node > 1 else None
        text = c.user_priced(result, gpu, node=node, sign=query.currency, nodes=nodes, each=each)
        if query.tax_rate:  # "also tack on 9.75% sales tax pls": the bill with it, from the tool
            taxed = box.call(
                "rental_cost",
                {"usd_per_gpu_hour": price * (1 + query.tax_rate), "hours": hours,
                 "num_gpus": nodes if per_node else count},
            )  # fmt: skip
            if "error" not in taxed:
                text += (f" With your {c.num(query.tax_rate * 100)}% tax: "
                         f"**{c.usd(taxed['usd'], query.currency)}**.")  # fmt: skip
        if "usd_each" in result:  # "teammates are splitting it 4 ways, so also per person"
            text += (f" Split {result['shares']} ways: "
                     f"**{c.usd(result['usd_each'], query.currency)} each**.")  # fmt: skip
        if rate and "in_currency" in result:  # "... and in naira at ₦1,550 to $1?"
            text += (f" In {rate[0]} at your rate of {c.num(rate[1])} to the dollar: "
                     f"**{c.usd(result['in_currency'], rate[0] + ' ')}**.")  # fmt: skip
        if each is not None and node:  # "a 36 h run on a p5": 288 GPU-hours, traced to a tool
            whole = box.call("rental_cost", {"usd_per_gpu_hour": each, "hours": hours,
                                             "num_gpus": node * nodes})  # fmt: skip
            if "error" not in whole:
                text += f" In all: {c.num(whole['gpu_hours'], 'GPU-hours')}."
        service = _service_bill(query, box)
        if service is not None:  # "my SaaS charges $0.006 per audio minute: rent or SaaS?"
            what = f"for this job ({c.num(service['units'])} {service['unit']}s at your " \
                   f"{c.usd(service['usd_per_unit'])} per {service['unit']})"  # fmt: skip
            text = c.against_service(result["usd"], service["usd"], what) + "\n\n" + text
        budget = query.budget.usd if query.budget and query.budget.per == "total" else None
        if budget and _HOURS_ASKED.search(query.low):  # "... and how many hours would the
            # whole $500 grant pay for?": the budget's hours at the same price
            bought = box.call(
                "rental_hours",
                {"budget_usd": budget, "usd_per_gpu_hour": price,
                 "num_gpus": nodes if per_node else count},
            )  # fmt: skip
            if "error" not in bought:
                text += "\n\n" + c.budget_hours(bought, gpu, sign=query.currency)
        elif budget and _COVERED.search(query.low):  # "$20 in credits: do they cover it?"
            sign, spent = query.currency, result["usd"]
            verdict = (
                f"**Yes: your {c.usd(budget, sign)} covers it, with {c.usd(budget - spent, sign)} "
                "left over.**"
                if spent <= budget
                else f"**No: your {c.usd(budget, sign)} falls {c.usd(spent - budget, sign)} short: "
                "that is the top-up.**"
            )
            text = f"{verdict}\n\n{text}"
        return Draft(text)
    node_gpus = size or count
    asked = _PER_GPU_ASKED.search(query.low)
    if price is not None and per_node and node_gpus > 1 and asked and not query.budget:
        # "$21.96 an hour for a p4d.24xlarge: what is that per GPU-hour?"
        share, whole_price = _gpu_share(box, price, node_gpus), _gpu_share(box, price, 1)
        if share is not None and whole_price is not None:
            sign = query.currency
            return Draft(
                f"**{c.usd(share, sign)} per GPU-hour**: your {c.usd(whole_price, sign)} an hour "
                f"for a node of {node_gpus} x {gpu}, divided by {node_gpus}.",
                cite_more=False,
            )
    quoted = _rental_quote_judged(query, box, price, node_gpus) if price is not None else None
    if quoted is not None:  # "we got quoted $28/hr for an 8xA100 box, good price?"
        return quoted
    budget = query.budget.usd if query.budget and query.budget.per != "hour" else None
    if price is not None and budget:  # "5k a month: how many H100 hours at $2.50?"
        people = _SHARED_BY.search(query.low)  # "how many hours per student, 30 students"
        result = box.call(
            "rental_hours",
            {"budget_usd": budget, "usd_per_gpu_hour": price, "num_gpus": 1 if per_node else count,
             "shared_by": int(people.group(1) or people.group(2)) if people else 1},
        )  # fmt: skip
        if "error" in result:
            return Draft(result["error"])
        per = query.budget.per if query.budget else "total"
        return Draft(c.budget_hours(result, gpu, per=per, sign=query.currency))
    if budget and query.currency == "$" and query.gpus and _HOURS_ASKED.search(query.low):
        # "10k of credits: how many H100 hours is that?": at each variant's median price
        drafts = [_budget_at_median(query, box, choice, budget, count)
                  for ref in query.gpus for choice in gpu_choices(ref)[:4]]  # fmt: skip
        lines = [d for d in drafts if d]
        if lines:
            return Draft("\n\n".join(lines))
    if query.models and query.gpus:
        draft = fit(query, box)
        if _per_token_asked(query):  # fit() led with the cost of a million tokens
            return draft
        several = len(gpus_named(query)) >= 2 and _COST_OF_WORK.search(query.low)
        if several and (unit_costs := _work_cost_of_each(box)):  # "cost per audio hour, each?"
            return Draft(f"{unit_costs}\n\n{draft.text}", draft.citations, draft.warnings)
        model = query.models[0]
        found = [e for e in _estimates(query, box, model) if "error" not in e]
        _batched_as_run(query, box, found, model)  # the batch the answer below runs at
        if found and not any(e["fits"] for e in found):
            # "cost to full fine-tune llama 3 8b on 1B tokens on rented H100s": on as many as
            # hold it (each variant), when no count was said
            spread = [_on_the_fewest(query, box, e, model) for e in found]
            found = [e for e in spread if e is not None]
            _batched_as_run(query, box, found, model)  # sharded over several: fuller batches
            # ("llama 3 8b on 15T tokens on H100s": years on the fewest, a month on a cluster)
            found = _on_a_cluster(query, box, found, model) or found
            if found and len(query.gpus) == 1:  # the fit below on as many as the cost is for
                n = found[0]["num_gpus"]
                draft = fit(replace(query, gpus=tuple(replace(g, count=n) for g in query.gpus)),
                            box)  # fmt: skip
                # each variant's job at the count the fit lists ("3 x H100 NVL", not 2 above
                # and 3 below)
                at_n = {call.result["gpu"]: call.result for call in box.calls
                        if call.name == "estimate" and "error" not in call.result
                        and call.result.get("num_gpus") == n}  # fmt: skip
                found = [at_n.get(e["gpu"], e) for e in found]
        held = [e for e in found if e["fits"]]
        if query.user_price_usd_per_hour and held and "At your price" not in draft.text:
            # "I pay $2.49/h for an H100: a full fine-tune of a 7B on 1B tokens?": the job at
            # that price, on the first variant that holds it (the one the price is for)
            at_yours = _at_user_price(query, box, held[0])
            if at_yours is None and hours:  # "$2.49/h, 9-5 on weekdays: the monthly bill?"
                paid = box.call(
                    "rental_cost",
                    {
                        "usd_per_gpu_hour": query.user_price_usd_per_hour,
                        "hours": hours,
                        "num_gpus": held[0]["num_gpus"],
                    },
                )
                if "error" not in paid:
                    at_yours = c.user_priced(paid, held[0]["gpu_name"], sign=query.currency)
                    at_yours = at_yours.replace("**", "**At your price: ", 1)
                    at_yours += f" {used}" if used else ""
            if at_yours:
                draft.text = f"{at_yours}\n\n{draft.text}"
        jobs = [
            e
            for e in found
            if e["fits"]
            and (e.get("cost") or {}).get("usd_per_job")
            and not query.user_price_usd_per_hour  # a price given: the fit answer uses it
        ]
        if jobs:  # "how much to fine-tune X on 50k examples on a rented A100": the job's cost first
            lead = "\n".join(
                f"**{c.gpus_phrase(e['num_gpus'], e['gpu_name'])}: about "
                f"{c.usd(e['cost']['usd_per_job'])} for the job**, "
                f"{c.duration(e['job_hours']['typical'])} at {c.usd(e['cost']['usd_per_hour'])}"
                f"/hour ({e['cost'].get('basis', 'median price')})." for e in jobs[:4])  # fmt: skip
            if (spans := _days_of_work(query, box, jobs)) is not None:
                lead = f"{spans}\n\n{lead}"  # "3,000 images a day: the cost a month?"
            pick = (_sooner_job(query, jobs) or _cheaper_job(query, jobs)
                    or _budget_covers_job(query, jobs))  # fmt: skip
            if pick:  # the cost picks; the fit below says which is fastest, not a second pick
                draft.text = re.sub(r"^\*\*Pick the ([^:*]+): the fastest", r"**Fastest: the \1",
                                    draft.text)  # fmt: skip
            if all(e["num_gpus"] > 1 for e in jobs):
                # the jobs run on several of each card; "No" of one card each is no verdict
                draft.text = re.sub(r"^\*\*No: ", "**Not on one card: ", draft.text)
            draft.text = (f"{pick}\n\n" if pick else "") + lead + "\n\n" + draft.text
        elif hours and found and not query.user_price_usd_per_hour and not _per_token_asked(query):
            # "how much would 2 hours of that cost?": those hours of the setup, at the median
            e = next((e for e in found if e["fits"]), found[0])
            setup = {"gpu": e["gpu"], "hours": hours, "num_gpus": e["num_gpus"]}
            # "on AWS": that cloud's prices, where it has any for the card
            bill: dict[str, Any] = {}
            for provider in query.providers[:1]:
                bill = box.call("prices", {**setup, "provider": provider})
            missing = ""
            if not bill.get("rental_usd"):
                if query.providers:  # "a 4090 on AWS": none on record there, said
                    missing = (
                        f"\n\nNo {query.providers[0]} price on record for the "
                        f"{e['gpu_name']}: the median across providers instead."
                    )
                bill = box.call("prices", setup)
            if bill.get("rental_usd"):
                draft.text = c.rental(bill) + missing + "\n\n" + draft.text
        return draft
    if not query.gpus:
        return recommend(query, box)
    parts: list[str] = []
    leads: list[str] = []  # the cheapest of the clouds named, when several are
    medians: list[dict[str, Any]] = []  # each card's prices, to name the cheaper one
    renting = hours or RENT_SAID.search(query.low)
    for ref in query.gpus:
        for choice in gpu_choices(ref)[:2]:
            args: dict[str, Any] = {"gpu": choice}
            # "8x H100 per hour": the node's hour; "2x 4090 or one A6000": each its own count
            n = ref.count or (count if len(query.gpus) == 1 else 1)
            if hours or n > 1 or any((r.count or 1) > 1 for r in query.gpus):
                args.update(hours=hours or 1, num_gpus=n)
            if query.providers and not _ELSEWHERE.search(query.low):
                # "on AWS vs a cheaper one like RunPod": each cloud's own prices
                clouds = [box.call("prices", {**args, "provider": name})
                          for name in query.providers]  # fmt: skip
                # ("12 hours a day for two months" is 730 hours of use, not a month's clock)
                calendar = not query.use_hours_per_day
                if (
                    len(clouds) >= 2 and not hours and n == 1
                ):  # clouds set side by side: a line each
                    parts.append("\n".join(c.cloud_line(p) for p in clouds))
                else:
                    parts += [c.rental(p, calendar=calendar) for p in clouds]
                if len(clouds) >= 2 and not leads:
                    leads.append(_cheapest_cloud(clouds))
                if not any(p.get("summary_usd_per_gpu_hour") for p in clouds):
                    # "the bill at runpod rates" for a card RunPod does not list: the market's
                    median = box.call("prices", args)
                    if median.get("summary_usd_per_gpu_hour"):
                        parts[-1] += " At the median across the clouds that rent it instead:"
                        parts.append(c.rental(median, calendar=calendar))
                    elif "error" not in median:
                        parts[-1] += " Nor any other cloud's: the catalog rents it nowhere."
                continue
            rented = box.call("prices", args)
            if "error" not in rented and not renting:
                # "how much does the rtx 5090 cost?" (no renting said): what it costs to buy,
                # first, then the rent; ("what does a DGX Spark cost?": no rentals at all)
                bought = box.call("purchase_prices", {"gpu": choice, "num_gpus": ref.count or 1})
                if bought.get("prices"):
                    parts.append(c.purchase(bought, query.condition or "new"))
            parts.append(c.rental(rented, calendar=not query.use_hours_per_day))
            if rented.get("summary_usd_per_gpu_hour"):
                medians.append(rented)
    if not leads and len(query.gpus) >= 2 and len({p["gpu"] for p in medians}) >= 2:
        leads.append(_cheapest_card(medians))
    return Draft("\n\n".join([*filter(None, leads), *parts]))


# the period a day's work is costed over: "what would that cost a month", "per year"
_WORK_PERIOD = re.compile(
    r"\b(?:a|per|each|every|/)\s?(month|week|year)\b|\b(month|week|year)ly\b|\bannual(?:ly)?\b"
)


def _days_of_work(query: Query, box: ToolBox, jobs: list[dict[str, Any]]) -> str | None:
    """ "3,000 images a day with sdxl on a 4070 super: the cost a month to rent?": the day's job
    done every day of the period asked, at each setup's price."""
    # ("a month" read as its 730 hours is the bill's period, no span of use)
    if not query.per_day or (query.hours and query.hours not in PERIOD_HOURS):
        return None
    if re.search(r"\belectric\w*|\bpower bill\b|\bkwh\b|\benergy\b", query.low):
        return None  # the electricity of one's own card, not its rent
    asked = _WORK_PERIOD.search(query.low)
    if asked is None:
        return None
    period = asked.group(1) or asked.group(2) or "year"
    lines = []
    for e in jobs[:4]:
        hours = e["job_hours"]["typical"] * _DAYS_IN[period]
        bill = box.call("rental_cost", {"usd_per_gpu_hour": e["cost"]["usd_per_hour"]
                                        / e["num_gpus"], "hours": hours,
                                        "num_gpus": e["num_gpus"]})  # fmt: skip
        if "error" in bill:
            return None
        lines.append(
            f"**{c.gpus_phrase(e['num_gpus'], e['gpu_name'])}: about "
            f"{c.usd(bill['usd'])} a {period}**, the day's work "
            f"({c.duration(e['job_hours']['typical'])}) every day: "
            f"{c.num(hours, 'hours')} at {c.usd(e['cost']['usd_per_hour'])}/hour."
        )
    return "\n".join(lines)


def _budget_covers_job(query: Query, jobs: list[dict[str, Any]]) -> str | None:
    """ "Budget is $5k total: feasible?": the cheapest setup's job against the budget said."""
    budget = query.budget
    if budget is None or budget.per != "total" or budget.kind == "buy":
        return None
    cheapest = min(jobs, key=lambda e: e["cost"]["usd_per_job"])
    spent = cheapest["cost"]["usd_per_job"]
    where = c.gpus_phrase(cheapest["num_gpus"], cheapest["gpu_name"])
    if spent <= budget.usd:
        return (
            f"**Yes: about {c.usd(spent)} on {where}, within your {c.usd(budget.usd)}** "
            f"({c.duration(cheapest['job_hours']['typical'])} at the median rent)."
        )
    return (f"**No: about {c.usd(spent)} even on {where}, the cheapest, over your "
            f"{c.usd(budget.usd)}.**")  # fmt: skip


def _cheaper_job(query: Query, jobs: list[dict[str, Any]]) -> str:
    """Several cards named for one job ("on an H100 instead, is it cheaper overall?" after an
    A100): the card whose job costs least, against the least of each other card named."""
    best: dict[int, dict[str, Any]] = {}  # the cheapest variant of each card named
    for e in jobs:
        at = next((i for i, ref in enumerate(query.gpus) if e["gpu"] in ref.ids), None)
        if at is not None and (at not in best or _job_usd(e) < _job_usd(best[at])):
            best[at] = e
    if len(best) < 2:
        return ""
    ranked = sorted(best.values(), key=_job_usd)
    first = ranked[0]
    others = "; ".join(
        f"{c.usd(_job_usd(e))} on {c.gpus_phrase(e['num_gpus'], e['gpu_name'])} "
        f"({c.duration(e['job_hours']['typical'])})" for e in ranked[1:])  # fmt: skip
    chosen = c.gpus_phrase(first["num_gpus"], first["gpu_name"]).removeprefix("one ")
    # "is it cheaper?" of the card named first (the new one of a thread): yes or no
    word = ""
    if re.search(r"\b(?:is|would|will) (?:it|that|this)\b[^?.!]{0,30}\bcheaper\b", query.low):
        word = "Yes: p" if first is best.get(0) else "No: p"
    return (
        f"**{word or 'P'}ick the {chosen}: the job costs least there, "
        f"{c.usd(_job_usd(first))}** "
        f"({c.duration(first['job_hours']['typical'])}), against {others}."
    )


# the time that decides between setups: "which one finishes the run first", "which gets done
# sooner"
_SOONER_ASKED = re.compile(
    r"\b(?:finish\w*|done|complete\w*|ready|through)\b[^.?!]{0,25}?\b(?:first|sooner|faster"
    r"|quicker|earlier)\b|\bwhich\b[^.?!]{0,30}\b(?:sooner|quicker|faster)\b(?! per\b)"
)


def _sooner_job(query: Query, jobs: list[dict[str, Any]]) -> str:
    """Several cards named for one job and the time asked ("which one finishes the run first, and
    by how much?"): the card whose job ends first, against the fastest setup of each other."""
    if not _SOONER_ASKED.search(query.low):
        return ""
    best: dict[int, dict[str, Any]] = {}  # the fastest variant of each card named
    for e in jobs:
        at = next((i for i, ref in enumerate(query.gpus) if e["gpu"] in ref.ids), None)
        hours = e["job_hours"]["typical"]
        if at is not None and (at not in best or hours < best[at]["job_hours"]["typical"]):
            best[at] = e
    if len(best) < 2:
        return ""
    ranked = sorted(best.values(), key=lambda e: e["job_hours"]["typical"])
    first = ranked[0]
    took = first["job_hours"]["typical"]
    others = "; ".join(
        f"{c.duration(e['job_hours']['typical'])} on "
        f"{c.gpus_phrase(e['num_gpus'], e['gpu_name'])} "
        f"({c.num(e['job_hours']['typical'] / took)}x as long)" for e in ranked[1:])  # fmt: skip
    chosen = c.gpus_phrase(first["num_gpus"], first["gpu_name"]).removeprefix("one ")
    return (f"**Pick the {chosen}: the job is done first there, in about {c.duration(took)}**, "
            f"against {others}.")  # fmt: skip


def _job_usd(e: dict[str, Any]) -> float:
    return float(e["cost"]["usd_per_job"])


def _cheapest_card(priced: list[dict[str, Any]]) -> str:
    """ "MI300X or H100, which one is cheaper to rent?": the card with the lowest median hour,
    and the others'; setups of several cards ("2x 4090 or an A6000") by the whole setup's cost
    for the hours priced."""

    def whole(p: dict[str, Any]) -> dict[str, Any]:
        return p.get("rental_usd") or {}

    def cost_of(p: dict[str, Any]) -> float:
        return float(whole(p).get("median") or p["summary_usd_per_gpu_hour"]["median"])

    def setup(p: dict[str, Any]) -> str:
        return c.gpus_phrase(whole(p).get("num_gpus") or 1, p["gpu_name"])

    rows = sorted(priced, key=cost_of)
    hours = {whole(p).get("hours") for p in rows}
    said = whole(rows[0]).get("hours") or 1.0
    per = ("per GPU-hour" if hours == {None} else SPAN_WORDS.get(said) or (
        f"for {c.num(said, 'hours')}"))  # fmt: skip
    others = "; ".join(f"{setup(p)} {c.usd(cost_of(p))}" for p in rows[1:])
    return (
        f"**Cheaper to rent: {setup(rows[0])} at {c.usd(cost_of(rows[0]))} {per}**, by the "
        f"median of current prices; {others}."
    )


def _cheapest_cloud(priced: list[dict[str, Any]]) -> str:
    """ "Lambda vs RunPod vs Vast.ai, which is cheapest?": the cloud with the lowest median hour
    for the card, and the others' (those with no price on record said)."""
    rows = [(p["summary_usd_per_gpu_hour"]["median"], p) for p in priced if "error" not in p
            and (p.get("summary_usd_per_gpu_hour") or {}).get("median")]  # fmt: skip
    if not rows:
        return ""
    rows.sort(key=lambda r: r[0])
    best = rows[0][1]
    job = best.get("rental_usd") or {}
    total = f": {c.usd(job['median'])} for {c.num(job['hours'], 'hours')}" if (
        job.get("median") and job.get("hours")) else ""  # fmt: skip
    others = "; ".join(f"{p['provider']} {c.usd(m)}" for m, p in rows[1:])
    missing = [p.get("provider") for p in priced if all(p is not q for _m, q in rows)]
    none = f"; none on record from {', '.join(filter(None, missing))}" if missing else ""
    return (f"**Cheapest: {best['provider']} at {c.usd(rows[0][0])} per GPU-hour for the "
            f"{best['gpu_name']}{total}**, by the median of each cloud's current prices; "
            f"{others}{none}.")  # fmt: skip


# a cloud named as the one to leave: "I pay $1.99 on RunPod, what's cheaper elsewhere?"
_ELSEWHERE = re.compile(r"\belsewhere\b|\bother (?:providers|clouds|hosts|places)\b"
                        r"|\binstead of\b|\bcheaper than\b")  # fmt: skip
# the period a rental price is asked for: "per month", "a week", "monthly" (not "a year ago",
# "$1000 a month" of budget, "1000 images a day" of work: no figure just before it)
_RENT_PERIOD = re.compile(
    r"\b(?:per|a|an|each|every|/)\s?(month|mo|week|wk|day|year|yr)\b"
    r"(?!\s+ago\b)|\b(month|week|dai|year)ly\b|\b(annual)(?:ly)?\b"
)
# an amount of money or work just before the period: "$1000 a month", "1000 images a day"
_RATE_BEFORE = re.compile(
    r"(?:\$\s?\d[\d,.]*\s?k?|\d[\d,.]*\s?k?\s?(?:[a-z]+\s)?(?:images?|pictures?|renders?"
    r"|tokens?|requests?|hours?|users?|calls?|jobs?|videos?|dollars?|usd|bucks|eur\w*))\s*$"
)
_RENT_PERIOD_HOURS = {"mo": HOURS_PER_MONTH, "w": 7 * 24.0, "d": 24.0, "y": 12 * HOURS_PER_MONTH,
                      "annual": 12 * HOURS_PER_MONTH}  # fmt: skip
_SPAN_NAMES = {"mo": "month", "w": "week", "d": "day", "y": "year", "annual": "year"}
_HOURS_ASKED = re.compile(r"\bhow many (?:\w+ ){0,3}(?:gpu[- ])?hours?\b|\bhow long\b")


_PER_HOUR_ASKED = re.compile(r"\b(?:per|an?|/)\s?(?:hour|hr|h)\b|\bhourly\b")


def _rent_of_each(query: Query, box: ToolBox, refs: list[GpuRef], hours: float) -> Draft:
    """Each card's rent for the hours asked: at the user's price where one was said for it (a
    single price is the first card's), else the median on the cloud said beside it, else the
    median of all; the cheapest first."""
    own = dict(query.gpu_prices)
    clouds = query.providers if len(query.providers) == len(refs) else ()
    rows = []
    for i, ref in enumerate(refs):
        gpu = gpu_choices(ref)[0]
        mine = own.get(gpu) or (query.user_price_usd_per_hour if i == 0 and not own else None)
        if mine is not None:
            cost = box.call("rental_cost", {"usd_per_gpu_hour": mine, "hours": hours,
                                            "num_gpus": ref.count or 1})  # fmt: skip
            if "error" not in cost:
                rows.append((cost["usd"], f"{c.gpus_phrase(ref.count or 1, _said(ref))} at your "
                                          f"{c.usd(mine)} per GPU-hour"))  # fmt: skip
            continue
        args: dict[str, Any] = {"gpu": gpu, "hours": hours, "num_gpus": ref.count or 1}
        priced = box.call("prices", {**args, "provider": clouds[i]}) if clouds else {}
        where = f" on {clouds[i]}" if clouds else ""
        if "error" in priced or not priced.get("rental_usd"):
            priced, where = box.call("prices", args), ""
        if "error" in priced or not priced.get("rental_usd"):
            continue
        median = priced["summary_usd_per_gpu_hour"]["median"]
        rows.append((priced["rental_usd"]["median"],
                     f"{c.gpus_phrase(ref.count or 1, _said(ref))} at the median {c.usd(median)} "
                     f"per GPU-hour{where} ({priced['count']} current prices)"))  # fmt: skip
    if not rows:
        return Draft("No rental price for these cards: give one for each.")
    rows.sort(key=lambda r: r[0])
    each = "; ".join(f"{c.usd(usd)} for {what}" for usd, what in rows)
    return Draft(f"**About {each}**, for {c.num(hours, 'hours')} each.", cite_more=False)


def _budget_at_median(
    query: Query, box: ToolBox, gpu: str, budget: float, count: int
) -> str | None:
    """The hours a budget buys on `gpu` at its median current rental price."""
    rented = box.call("prices", {"gpu": gpu})
    summary = rented.get("summary_usd_per_gpu_hour")
    if "error" in rented or not summary:
        return None
    result = box.call("rental_hours", {"budget_usd": budget, "num_gpus": count,
                                       "usd_per_gpu_hour": summary["median"]})  # fmt: skip
    if "error" in result:
        return None
    per = query.budget.per if query.budget else "total"
    text = c.budget_hours(result, rented.get("gpu_name", gpu), per=per, price="the median current")
    span = f"current prices run from {c.usd(summary['low'])} to {c.usd(summary['high'])}"
    return f"{text.rstrip('.')}; {span}."


def _token_costs(query: Query, box: ToolBox) -> list[str]:
    """What a million output tokens cost on each card named at its median rental price: with
    as many sequences decoding together as its memory holds (a server under load), and for one
    stream (or at the batch the user gave)."""
    model = query.models[0]
    lines, costs = [], []
    for e in _estimates(query, box, model)[:4]:
        if "error" not in e and not e["fits"] and e["workload"] == "inference" and (
                e["num_gpus"] == 1 and len(query.gpus) > 1):  # fmt: skip
            # "h100 or b200, cheaper per token for a 70b?": the fewest of the card that hold it
            solved = _fewest(query, box, e["gpu"], model)
            if "error" not in solved and solved.get("solution"):
                e = box.call("estimate", estimate_args(query, e["gpu"], int(solved["solution"]),
                                                       model))  # fmt: skip
        if "error" in e or not e["fits"] or e["workload"] != "inference":
            continue
        one = (e.get("cost") or {}).get("usd_per_million_tokens")
        decode = (e.get("decode_tokens_per_s") or {}).get("typical")
        yours = query.user_price_usd_per_hour
        if yours and decode:  # "I rent an A10G at $1.01/hr": at that price, not the median
            mine = box.call("token_cost", {"usd_per_gpu_hour": yours, "tokens_per_s": decode,
                                           "num_gpus": e["num_gpus"]})  # fmt: skip
            one = None if "error" in mine else mine["usd_per_million_tokens"]
            e = {**e, "cost": {**(e.get("cost") or {}), "usd_per_gpu_hour": yours,
                               "usd_per_hour": yours * e["num_gpus"]}}  # fmt: skip
        if not one or not decode:
            continue
        where = c.gpus_phrase(e["num_gpus"], e["gpu_name"])
        where = where[0].upper() + where[1:]
        stream = "for one stream" if e["batch"] == 1 else f"at batch {e['batch']:,}"
        paid = (f"{c.num(decode, 'tokens/s')} at {c.usd(e['cost']['usd_per_hour'])}/hour, "
                f"{'your price' if yours else 'the median price'}")  # fmt: skip
        # a server under load: the estimate's own full-load figure (each request's prompt read
        # too), at the same hourly price
        rate = (e.get("serving_tokens_per_s") or {}).get("typical")
        together = e.get("serving_batch") or 1
        if not query.batch and rate and together > 1:
            hourly = e["cost"]["usd_per_gpu_hour"]
            priced = box.call("token_cost", {"usd_per_gpu_hour": hourly, "tokens_per_s": rate,
                                             "num_gpus": e["num_gpus"]})  # fmt: skip
            loaded = priced["usd_per_million_tokens"]
            lines.append(f"**{where}: about {c.usd(loaded)} per million output tokens with "
                         f"{together:,} requests in flight** ({c.num(rate, 'tokens/s')} at full "
                         f"load); {c.usd(one)} {stream} ({paid}).")  # fmt: skip
            costs.append((loaded, one, e["gpu_name"]))
        else:
            lines.append(f"**{where}: about {c.usd(one)} per million output tokens {stream}** "
                         f"({paid}).")  # fmt: skip
            costs.append((one, one, e["gpu_name"]))
    chosen = asks_pick(query) or re.search(r"\bcheap(?:er|est)\b", query.low)
    if chosen and len(costs) > 1 and len({n for _, _, n in costs}) == len(costs):
        # "which is cheaper per token?": the one whose million tokens cost least, as served
        # under load, and the same at one stream when that order differs
        loaded_pick = min(costs)[2]
        alone_pick = min(costs, key=lambda x: x[1])[2]
        same = "" if alone_pick == loaded_pick else f" (for one stream: the {alone_pick})"
        lines.insert(0, f"**Pick the {loaded_pick}: the lowest cost per million output "
                        f"tokens**{same}.")  # fmt: skip
    return lines


# datasheet rates a job can be bought by: "how much FP64 do I get per crown?"
_RATE_FIELDS = ("fp64_tflops", "fp64_tensor_tflops", "fp32_tflops", "tf32_dense_tflops",
                "int8_dense_tops", "fp8_dense_tflops", "fp16_bf16_dense_tflops")  # fmt: skip
_PER_MONEY = re.compile(
    r"\bper (?:dollar|euro|pound|crown|koruna|buck|franc|yen|rupee|\$|€|£|unit of (?:money|cost))"
    r"|\b(?:for|per) the (?:money|price)\b|\bper (?:[$€£]|usd|eur|czk|gbp)\b"
    r"|\bbang for (?:the|my|our) buck\b"
)


def _figure_per_price(query: Query, box: ToolBox, prices: dict[str, float]) -> Draft | None:
    """ "Our codes run in FP64: a new 5090 for 75,000 Kč or a used A100 for 190,000 Kč, how much
    FP64 per crown?": the figure asked, per unit of the user's prices (value_per_dollar), when
    the job is that figure and no model is named."""
    fields = [f for f in query.fields if f in _RATE_FIELDS]
    if not fields or len(prices) < 2 or any(m.ids for m in query.models):
        return None
    if not (_PER_MONEY.search(query.low) or fields[0] in ("fp64_tflops", "fp64_tensor_tflops")):
        return None
    result = box.call("value_per_dollar", {"gpus": list(prices)[:4], "field": fields[0],
                                           "user_prices": prices})  # fmt: skip
    if "error" in result:
        return None
    label, unit = c.FIELD_LABELS[fields[0]]
    sign = query.currency.strip()
    rows = result["rows"]
    best, rest = rows[0], rows[1:]
    each = "; ".join(f"{r['name']} {c.num(r['value'], unit)} for {c.usd(r['price'], sign)}, "
                     f"{c.num(r['per_thousand'], unit)} per {c.usd(1000, sign)}"
                     for r in rows)  # fmt: skip
    head = (f"**Pick the {best['name']} for {label}: {c.num(best['per_thousand'], unit)} per "
            f"{c.usd(1000, sign)} against {c.num(rest[0]['per_thousand'], unit)} on the "
            f"{rest[0]['name']}** ({each}).")  # fmt: skip
    if best["value"] < max(r["value"] for r in rows):
        top = max(rows, key=lambda r: r["value"])
        head += (f" The {top['name']} has more {label} in all ({c.num(top['value'], unit)}), "
                 "at a higher price for each unit of it.")  # fmt: skip
    return Draft(head + "\n\nPrices are yours, used as given; the figures are the datasheets'.")


def _priced_choice(query: Query, box: ToolBox, bought: bool = False) -> Draft | None:
    """Several GPUs at the user's own prices (to rent, or with `bought` to buy): the choice on
    the first job named (_priced_choice_on), then each other job named against every card."""
    draft = _priced_choice_on(query, box, bought)
    if draft is not None:
        prices = query.gpu_purchase_prices if bought else query.gpu_prices
        draft.text += _other_jobs_on_each(query, box, [g for g, _ in prices])
    return draft


def _priced_choice_on(query: Query, box: ToolBox, bought: bool = False) -> Draft | None:
    """Several GPUs, each at the user's own hourly price: the job computed on each, and which
    one does a unit of work for less (the speed ratio against the price ratio); `bought`: each
    at the user's price to buy ("used 3090 for $700 or a new 4060 Ti for $450"): the speed a
    dollar buys, and the memory each has."""
    if query.price_per_node or any((g.count or 1) > 1 for g in query.gpus):
        return None  # "8x H100 at $24/hr": a node's price, not each card's
    prices = dict(query.gpu_purchase_prices if bought else query.gpu_prices)
    if bought and (per_price := _figure_per_price(query, box, prices)) is not None:
        return per_price
    said = query.speedup_said
    if said and said[0] in prices and len(prices) == 2 and not bought:
        return _priced_at_said_speed(query, box, prices, said)
    # the first model named, or a size said ("32b models"): a generic model of that size
    model = next((m for m in query.models if m.ids or m.size_b), None)
    hint = model.family or "llm" if model else _family_of_job(query)
    workload = query.workload or "inference"
    if workload == "finetune":
        workload = FINETUNE_DEFAULT if hint == "llm" else "finetune-full"
    args: dict[str, Any] = {"gpus": list(prices)[:4], "workload": workload}
    args.update({"model": model_arg(model)} if model else {"family": hint})
    if precision := (precision_for(model, query) if model is not None else query.precision):
        args["precision"] = precision
    elif bought and hint == "llm" and workload == "inference":
        args["precision"] = HOME_PRECISION  # a card bought for local LLMs runs them in 4 bits
    if query.batch:
        args["batch"] = query.batch
    if query.context and hint == "llm":  # "32k of context", "samples of 400 tokens": as said
        args["context"] = query.context
    if (query.num_gpus or 1) > 1 and not bought:
        args["num_gpus"] = query.num_gpus  # "renting 4 GPUs ... H100 SXM at $2.69 or PCIe at $2.29"
    result = box.call("compare_workload", args)
    if bought and "error" not in result:
        holds = [r for r in result["gpus"] if r["speed"] and r["gpu"] in prices]
        short = [r for r in result["gpus"] if not r["speed"] and r["gpu"] in prices]
        if len(holds) == 1 and short:  # a card bought for a job it alone holds: that one
            one, other = holds[0], short[0]
            sheets = [box.call("gpu_specs", {"gpu": r["gpu"]}) for r in (one, other)]
            e = box.call(
                "estimate",
                {
                    **{k: v for k, v in args.items() if k != "gpus"},
                    "gpu": one["gpu"],
                    "precision": result["precision"],
                },
            )
            weights = (
                f" ({c.num(e['breakdown_gb']['weights'], 'GB')} of it weights)"
                if "error" not in e and e["breakdown_gb"].get("weights")
                else ""
            )
            sizes = (f" The {sheets[0]['name']} has {c.num(sheets[0]['memory_gb'], 'GB')}, the "
                     f"{sheets[1]['name']} {c.num(sheets[1]['memory_gb'], 'GB')}."
                     if all("error" not in x for x in sheets) else "")  # fmt: skip
            return Draft(
                f"**Pick the {one['gpu_name']}: the only one of them that holds "
                f"{result['model_name']} on the card** ({result['precision']}): it needs about "
                f"{c.num(one['memory_per_gpu_gb'], 'GB')}{weights}, against "
                f"{c.num(other['usable_memory_per_gpu_gb'], 'GB')} usable on the "
                f"{other['gpu_name']}.{sizes} On the {one['gpu_name']}"
                + (
                    f" ({c.num(sheets[0]['bandwidth_gbs'], 'GB/s')} of memory bandwidth)"
                    if "error" not in sheets[0] and sheets[0].get("bandwidth_gbs")
                    else ""
                )
                + f", about {c.ratio_figure(one['speed'], result['unit'])} at your "
                f"{c.usd(prices[one['gpu']], query.currency)}."
            )
    if ("error" not in result and sum(bool(r["speed"]) for r in result["gpus"]) < 2
            and "num_gpus" not in args):  # fmt: skip
        args["num_gpus"] = NODE_GPUS  # too big for one card: a node of each, same per-GPU price
        result = box.call("compare_workload", args)
    if "error" in result:
        return None
    rows = [r for r in result["gpus"] if r["speed"] and prices.get(r["gpu"], 0) > 0]
    if len(rows) < 2:
        return None
    unit = result["unit"]
    count = result.get("num_gpus") or 1
    metric = result["metric"]
    if (
        unit == "tokens/s"
        and workload == "inference"
        and not query.batch
        and (_SERVED.search(query.low) or re.search(r"\bper (?:million )?tokens?\b", query.low))
    ):  # "which is cheaper per token for serving?": each card at full load, not one stream
        loaded = _at_full_load(box, result, rows, count)
        if loaded is not None:
            rows, metric = loaded
    for r in rows:  # work per dollar: speed over the user's price
        r["price"] = prices[r["gpu"]]
    best = max(rows, key=lambda r: r["speed"] / r["price"])
    fast = max(rows, key=lambda r: r["speed"])
    slow = next(r for r in rows if r is not fast)
    what = f"{metric} of {result['model_name']} ({result['precision']}"
    what += f", {count} GPUs each)" if count > 1 else ")"
    sign = query.currency
    figures = "; ".join(f"{r['gpu_name']} {c.ratio_figure(r['speed'], unit)} at "
                        f"{c.usd(r['price'], sign)}{'' if bought else '/hour'}"
                        for r in rows)  # fmt: skip
    speed_x, price_x = fast["speed"] / slow["speed"], fast["price"] / slow["price"]
    if bought:
        # ("both are about $450": one price, the faster card is the pick at it)
        priced_as = ("at the same price" if abs(price_x - 1) < 1e-9
                     else f"for {c.num(price_x)}x the price")  # fmt: skip
        head = (f"**Pick the {best['gpu_name']}: more speed for the money at your prices, the "
                f"{fast['gpu_name']} {c.num(speed_x)}x as fast {priced_as}** (by the {what}: "
                f"{figures}).")  # fmt: skip
        sheets = [box.call("gpu_specs", {"gpu": r["gpu"]}) for r in rows]
        memory = "; ".join(f"{s.get('name')} {c.num(s.get('memory_gb'), 'GB')}, "
                           f"{c.num(s.get('bandwidth_gbs'), 'GB/s')}"
                           for s in sheets if "error" not in s)  # fmt: skip
        paces = f"Memory (the largest model each holds) and bandwidth (its decode speed): {memory}."
        if result.get("workload") != "inference" or (result.get("family") or "llm") != "llm":
            # training or an image model is bound by compute: the tensor rate (a card without
            # tensor cores, its FP32 rate) paces it
            compute = "; ".join(
                f"{s['name']} {c.num(s.get('fp32_tflops'), 'TFLOPS')} FP32 only (no tensor cores)"
                if s.get("architecture") in _BEFORE_TENSOR_CORES
                else f"{s['name']} {c.field_value(s, 'fp16_bf16_dense_tflops')}"
                for s in sheets if "error" not in s)  # fmt: skip
            paces = f"Compute (what paces this job): {compute}. Memory: {memory}."
        lines = [head, paces, "Prices are yours, used as given; speeds are computed."]
        needs = {r.get("memory_per_gpu_gb") for r in rows}
        if model is not None and model.ids and len(needs) == 1 and None not in needs:
            # "both sixteen gig, any difference?": what the job takes on each, held by both
            e = box.call(
                "estimate",
                {
                    **{k: v for k, v in args.items() if k not in ("gpus", "counts")},
                    "gpu": rows[0]["gpu"],
                    "precision": result["precision"],
                },
            )
            held = (e.get("breakdown_gb") or {}).get("weights") if "error" not in e else None
            share = f", {c.num(held, 'GB')} of it weights" if held else ""
            lines.insert(1, f"{result['model_name']} needs about "
                            f"{c.num(needs.pop(), 'GB')} ({result['precision']}{share}) on each: "
                            "both hold it, so speed and price decide.")  # fmt: skip
        return Draft("\n\n".join(lines))
    head = (f"**The {best['gpu_name']} is cheaper per unit of work at your prices: the "
            f"{fast['gpu_name']} is {c.num(speed_x)}x as fast for {c.num(price_x)}x the price** "
            f"(by the {what}: {figures}).")  # fmt: skip
    lines = [head]
    if _MONTHLY_WASTE.search(query.low):
        # "running round the clock ... what are we throwing away every month on the H100?": each
        # card's month at the user's price, and the difference
        months = [(r, box.call("rental_cost", {"usd_per_gpu_hour": r["price"],
                                               "hours": HOURS_PER_MONTH, "num_gpus": count}))
                  for r in rows]  # fmt: skip
        if all("error" not in m for _r, m in months):
            dear, cheap = (
                max(months, key=lambda x: x[1]["usd"]),
                min(months, key=lambda x: x[1]["usd"]),
            )
            more = dear[0]["price"] - cheap[0]["price"]
            gap = box.call("rental_cost", {"usd_per_gpu_hour": more, "hours": HOURS_PER_MONTH,
                                           "num_gpus": count})  # fmt: skip
            if "error" not in gap:
                lines.insert(0, f"**Around the clock, the {dear[0]['gpu_name']} costs "
                                f"{c.usd(dear[1]['usd'], sign)} a month against "
                                f"{c.usd(cheap[1]['usd'], sign)} for the {cheap[0]['gpu_name']}: "
                                f"{c.usd(gap['usd'], sign)} a month more "
                                f"({HOURS_PER_MONTH} hours at your prices).**")  # fmt: skip
                lines[1] = lines[1].replace("**", "")
    # the datasheet figure that paces the job: compute to train, bandwidth to decode
    field = "bandwidth_gbs" if result.get("workload") == "inference" else "fp16_bf16_dense_tflops"
    sheets = [box.call("gpu_specs", {"gpu": r["gpu"]}) for r in rows]
    paced = "; ".join(f"{s['name']} {c.field_value(s, field)}" for s in sheets if "error" not in s)
    if paced:
        lines.append(f"What paces it, {c.FIELD_LABELS[field][0]}: {paced}.")
    links = [c.field_value(s, "interconnect_gbs") for s in sheets if "error" not in s]
    if count > 1 and len(set(links)) > 1:  # "4 GPUs ... H100 SXM or H100 PCIe": their link too
        linked = "; ".join(f"{s['name']} {link}" for s, link in zip(sheets, links, strict=False))
        lines.append(f"Between the {count} cards of each: {linked}.")
    if unit == "tokens/s":
        each = []
        for r in rows:
            paid = box.call("token_cost", {"usd_per_gpu_hour": r["price"],
                                           "tokens_per_s": r["speed"],
                                           "num_gpus": count})  # fmt: skip
            if "error" not in paid:
                each.append(f"{r['gpu_name']} {c.usd(paid['usd_per_million_tokens'])}")
        if each:
            lines.append("Per million tokens at your prices: " + "; ".join(each) + ".")
    if job := _priced_job(query, box, rows, count, model):
        lines.insert(1, job)
    lines.append("Prices are yours, used as given, per GPU-hour; speeds are computed.")
    return Draft("\n\n".join(lines))


def _priced_job(
    query: Query, box: ToolBox, rows: list[dict[str, Any]], count: int, model: ModelRef | None
) -> str | None:
    """The whole job said ("3,000 samples of 400 tokens, 3 epochs") on each card at the user's
    price, with the memory it takes there; None when no job's size is said."""
    sized = query.train_tokens or query.dataset_samples or query.images or query.audio_hours
    if not (sized and model is not None and model.ids):
        return None
    each, memory = [], []
    for r in rows:
        e = box.call("estimate", estimate_args(query, r["gpu"], count, model))
        hours = typical_job_hours(e) if "error" not in e and e.get("fits") else None
        if hours is None:
            return None
        paid = box.call("rental_cost", {"usd_per_gpu_hour": r["price"], "hours": hours,
                                        "num_gpus": count})  # fmt: skip
        if "error" in paid:
            return None
        each.append(f"{c.duration(hours)} on the {r['gpu_name']}, "
                    f"{c.usd(paid['usd'], query.currency)}")  # fmt: skip
        memory.append((c.num(e["memory_per_gpu_gb"], "GB"), r["gpu_name"]))
    needs = (f"about {memory[0][0]} on each" if len({m for m, _ in memory}) == 1
             else ", ".join(f"{m} on the {name}" for m, name in memory))  # fmt: skip
    return f"The whole job: about {'; '.join(each)} at your prices. It needs {needs}."


# the month's difference asked: "what are we throwing away every month", "how much would we save
# a month", "overpaying monthly"
_MONTHLY_WASTE = re.compile(
    r"\b(?:throw\w* away|wast\w*|overpay\w*|sav(?:e|ing)|burn\w*|lose|losing)\b[^.?!]{0,40}"
    r"\b(?:a|per|every|each) month\b|\bmonthly\b[^.?!]{0,30}\b(?:saving|waste|difference)\b"
)


def _at_full_load(
    box: ToolBox, result: dict[str, Any], rows: list[dict[str, Any]], count: int
) -> tuple[list[dict[str, Any]], str] | None:
    """The rows of a decode comparison with each card's serving throughput at full load (as
    many requests in flight as the estimate holds) in place of one stream's speed."""
    out, batches = [], set()
    for r in rows:
        e = box.call(
            "estimate",
            {
                "model": result["model"],
                "gpu": r["gpu"],
                "num_gpus": count,
                "workload": "inference",
                "precision": result["precision"],
            },
        )
        rate = (e.get("serving_tokens_per_s") or {}).get("typical")
        if "error" in e or not rate:
            return None
        out.append({**r, "speed": rate})
        batches.add(e.get("serving_batch") or 1)
    held = f"{max(batches):,} requests in flight" if len(batches) == 1 else "as many requests "
    held += "" if len(batches) == 1 else "in flight as each holds"
    return out, f"serving throughput at full load ({held})"


def _hours_said_of(query: Query, low: str) -> str | None:
    """The card named nearest before the job's hours ("an H100 at $2/h and I'll need 40 hours")."""
    said = re.search(rf"(?<![\d.,]){query.hours:g}\s?(?:hours?|hrs?|h)\b", low)
    if not said:
        return None
    before = [(at, gid) for at, gid in gpu_mentions(query.gpus, low) if at < said.start()]
    if not before:
        return None
    between = low[before[-1][0] : said.start()]
    # (in the same sentence, and not "if the H100 is 2.5x faster, ... a 100 hour job")
    if re.search(r"[.?!;]\s|\d\s?(?:x|times)\s(?:faster|slower|quicker)", between):
        return None
    return before[-1][1]


def _priced_at_said_speed(query: Query, box: ToolBox, prices: dict[str, float],
                          said: tuple[str, float]) -> Draft:  # fmt: skip
    """ "A100 at $1.29/hr vs H100 at $2.99/hr, if the H100 is 2.5x faster, which is cheaper
    for a 100 A100-hour job?": the user's own ratio and prices, the job on each."""
    fast, ratio = said
    slow = next(g for g in prices if g != fast)
    names = {g: box.call("gpu_specs", {"gpu": g}).get("name", g) for g in prices}
    hours = query.hours or 1.0  # no job size: an hour of the slower card's work
    low = query.low
    fast_ref = next((g for g in query.gpus if g.ids and g.ids[0] == fast), None)
    if (
        query.hours
        and fast_ref
        and re.search(rf"{re.escape(fast_ref.text.lower())}[- ]hours?\b", low)
    ):
        hours = query.hours * ratio  # "a 100 h100-hour job": that much work on the slower card
    elif query.hours and _hours_said_of(query, low) == fast:
        # "an H100 at €2.20/h and I will need 40 hours; an A100 is 2.2 times slower": the
        # hours said beside the faster card are its own
        hours = query.hours * ratio
    costs = {
        slow: box.call("rental_cost", {"usd_per_gpu_hour": prices[slow], "hours": hours}),
        fast: box.call("rental_cost", {"usd_per_gpu_hour": prices[fast],
                                       "hours": hours / ratio}),
    }  # fmt: skip
    if any("error" in r for r in costs.values()):
        return Draft(next(r["error"] for r in costs.values() if "error" in r))
    total = {g: r["usd"] for g, r in costs.items()}
    pick = min(total, key=lambda g: total[g])
    job = "the job" if query.hours else f"an hour of the {names[slow]}'s work"
    sign = query.currency
    head = (f"**The {names[pick]}: {c.usd(total[pick], sign)} for {job} against "
            f"{c.usd(total[next(g for g in total if g != pick)], sign)}** at your prices and "
            f"your {ratio:g}x.")  # fmt: skip
    lines = [head,
             f"{c.num(hours)} hour{'' if hours == 1 else 's'} on the {names[slow]} at "
             f"{c.usd(prices[slow], sign)}/hour; the "
             f"{names[fast]}, {ratio:g}x as fast, does it in {c.num(hours / ratio)} hours at "
             f"{c.usd(prices[fast], sign)}/hour.",
             "Prices and the speed ratio are yours, used as given."]  # fmt: skip
    return Draft("\n\n".join(lines))


def _median_rent(query: Query, box: ToolBox) -> tuple[float, str] | None:
    """The median rent of the one card named, with where it comes from."""
    ids = gpu_choices(query.gpus[0]) if len(query.gpus) == 1 else []
    # (an open variant: its first, as elsewhere)
    return median_rent_of(box, ids[0]) if ids else None


def median_rent_of(box: ToolBox, gpu: str) -> tuple[float, str] | None:
    """A card's median on-demand rent per GPU-hour, with where it comes from; None unpriced."""
    offered = box.call("prices", {"gpu": gpu})
    summary = offered.get("summary_usd_per_gpu_hour") if "error" not in offered else None
    if not summary:
        return None
    return summary["median"], f"the median of {offered['count']} on-demand rental prices on record"


# "$ per 1M output tokens", "per million tokens", "/1M tok"; not "per m" (a month?)
_PER_TOKENS = re.compile(
    r"\bper (?:1m|million)\b|/\s?1m\b|\bper token\b"
    # "what would 1 million tokens cost to generate": the price of a million of them
    r"|\b(?:a|one|1)\s?(?:m|million) (?:output |generated )?tokens?\b(?=[^.?!]{0,40}\bcost)"
    r"|\bcost\w*\b[^.?!]{0,30}\b(?:a|one|1)\s?(?:m|million) (?:output |generated )?tokens?\b"
)


_OWNERSHIP = re.compile(
    r"\btco\b|\btotal cost of ownership\b|\b(?:card|gpu|hardware) (?:plus|and|\+) (?:its |the )?"
    r"(?:electricity|power)\b|\bincluding the (?:card|gpu|purchase)\b"
)


# the people a budget's hours are shared by, when the hours of each are asked: "how many hours
# is that per student if I have 30 students", "30 interns: how many hours each?"
_SHARED_BY = re.compile(
    r"\b(?:per|each|a) (?:student|person|user|intern|researcher|pupil|member|team|group)\b"
    r"[^.?!]{0,40}?\b(\d{1,4}) (?:students|people|users|interns|researchers|pupils|members|teams"
    r"|groups)\b"
    r"|\b(\d{1,4}) (?:students|people|users|interns|researchers|pupils|members|teams|groups)\b"
    r"[^.?!]{0,40}?\b(?:each|apiece|per (?:student|person|user|head))\b"
)


# the span a daily use is billed over: "4 hours a day ... what does that cost per year?"
_BILLED_OVER = re.compile(
    r"\b(?:per|a|each|every|in a|for a|over a)(?: \d\d[- ](?:day|night))?"
    r" (year|quarter|month|week)\b"
    r"|\b(annual(?:ly)?|yearly|quarterly|monthly"
    r"|weekly)\b"
)
# the period a bill's adjective names ("the yearly bill")
_PERIOD_OF = {"annual": "year", "annually": "year", "yearly": "year", "quarterly": "quarter",
              "monthly": "month", "weekly": "week"}  # fmt: skip
_DAYS_IN = {"year": HOURS_PER_MONTH * 12 / 24, "quarter": HOURS_PER_MONTH * 3 / 24,
            "month": HOURS_PER_MONTH / 24, "week": 7.0, "day": 1.0}  # fmt: skip
_A_DAYS_BILL = re.compile(
    r"\b(?:cost\w*|bill|spend|pay\w*|price)\b[^.?!]{0,20}\b(?:a|per|each) day\b"
    r"|\b(?:daily) (?:cost|bill)\b|\bper day\b[^.?!]{0,20}\b(?:and|an')\b"
)
HOURS_PER_DAY = 24.0
# a job of so many hours, not a machine running all day: "a 24-hour render", "a fine-tune takes"
_A_JOB = re.compile(
    r"\b(?:jobs?|fine-?tun\w*|renders?|batch(?:es)?|(?:a|one|each|per) (?:run|epoch)"
    r"|(?:takes|took) (?:about |around |~)?\d+(?:\.\d+)? ?(?:h|hrs?|hours?)\b"
    r"|\d+[- ]?(?:h|hr|hour) run)\b"
)
# a job done now and then: "I do one a month", "once a week", "my weekly batch job", "3 times a
# week", "a 10 hour job each week", "every two weeks" (not "the monthly cost": the span asked)
_NOW_AND_THEN = re.compile(
    r"\b(?:(once|twice|one|two|three|four|\d{1,2})(?: times)? (?:a|per|each|every)"
    r" (week|month|year)"
    r"|(weekly|monthly|fortnightly) (?:batch|job|run|render|fine-?tune|training|retrain\w*)"
    r"|(?:jobs?|runs?|renders?|fine-?tunes?) (?:each|every|per) (week|month|year)"
    r"|every (?:other|second|two|2) (week|weekend|month)s?)\b"
)


def _runs_over(query: Query, period: str) -> tuple[float, str] | None:
    """A job of the hours said done now and then, billed over the span asked: "a 24-hour job
    once a week: per year?" is 52 of them; "one a month: per month?" is one. None for a machine
    said to run all the time or every day."""
    often = _NOW_AND_THEN.search(query.low)
    if not (often and query.hours) or NONSTOP.search(query.low) or query.use_hours_per_day:
        return None
    if re.search(r"\b(?:24 ?(?:hours?|hrs?|h) straight|every day|daily)\b", query.low):
        return None
    said, unit, adjective, every, other = often.groups()
    unit = unit or every or _PERIOD_OF.get(adjective or "", "week")
    times = float(NUMBER_WORDS.get(said or "", 0) or {"once": 1, "twice": 2}.get(said or "", 0)
                  or (float(said) if said and said.isdigit() else 1))  # fmt: skip
    if adjective == "fortnightly":
        unit, times = "week", 0.5
    if other:  # "every other weekend", "every two weeks": once in two
        unit, times = ("week" if other == "weekend" else other), 0.5
    runs = times * _DAYS_IN[period] / _DAYS_IN[unit]
    return (
        query.hours * runs,
        f" ({c.duration(query.hours)} a time, {often.group(0)}, for a {period})",
    )


_MONTH_DAYS = re.compile(r"\b(2[89]|3[01])[- ](?:day|night) month\b|\bmonth \((2[89]|3[01]) days\)")


# the whole machine said, not its cards: "my 4x3090 rig", "the whole box", "the system"
_A_MACHINE_SAID = re.compile(
    r"\b(?:rig|box|whole (?:system|machine|pc)|system|workstation|build|pc)\b"
)


# the card's own share asked of a machine: "what does the card alone cost me", "only for the
# graphics card", "just the gpu"
_CARD_ALONE = re.compile(
    r"\b(?:card|gpu|graphics card|video ?card)s? (?:alone|only|by (?:it|them)sel(?:f|ves)"
    r"|on (?:its|their) own)\b|\b(?:only|just|solely) (?:for )?(?:the |my )?(?:card|gpu"
    r"|graphics card|video ?card)s?\b"
)


# the electricity itself asked, not a rental: "electricity cost per month of a 4090 24/7"
_POWER_BILL_ASKED = re.compile(
    r"\belectric\w*|\bpower (?:bill|cost)s?\b|\benergy (?:bill|cost)s?\b"
    r"|\bkwh\b|\bcost of running\b[^.?!]{0,40}\bat home\b"
)


def _energy_unpriced(query: Query, box: ToolBox, count: int) -> Draft:
    """ "monthly electricity of a 4090 running 24/7", no price per kWh said: the energy the
    cards take at their board power for the hours (a month when none is said), and the bill at
    an assumed tariff, said as assumed (cost.DEFAULT_USD_PER_KWH, its source)."""
    hours, over = billed_hours(query)
    setups = [r for r in query.gpus if r.ids][:4]
    if len(setups) >= 2 and not query.draw_w:  # "power draw difference between 3090 and 4090"
        each = _electricity_of_each(
            query, box, {"usd_per_kwh": DEFAULT_USD_PER_KWH, "hours": hours}, setups, over
        )
        tariff = c.usd(DEFAULT_USD_PER_KWH)
        text = each.text.replace(f"at your {tariff}/kWh", f"at the assumed {tariff}/kWh")
        return Draft(f"{text}\n\nAt {DEFAULT_TARIFF_SOURCE}, "
                     f"{c.usd(DEFAULT_USD_PER_KWH)} per kWh, each card at its board power (full "
                     "load; idle and lighter loads draw less). Your own price per kWh gives your "
                     "bill: say it, in your currency.")  # fmt: skip
    gpu = gpu_choices(query.gpus[0])[0]
    args = {"usd_per_kwh": DEFAULT_USD_PER_KWH, "hours": hours, "gpu": gpu, "num_gpus": count}
    if query.draw_w:
        args["power_w"] = query.draw_w
    used = box.call("electricity_cost", args)
    if "error" in used:
        return Draft(str(used["error"]))
    name = box.call("gpu_specs", {"gpu": gpu}).get("name", gpu)
    money = (f", about {c.usd(used['usd'])} at {DEFAULT_TARIFF_SOURCE}, "
             f"{c.usd(used['usd_per_kwh'])} per kWh")  # fmt: skip
    return Draft(
        f"**About {c.num(used['kwh'], 'kWh')} for "
        f"{c.num(hours, 'hours')} on {c.gpus_phrase(count, name)}{money}** at "
        f"{c.num(used['power_w'], 'W')} each (its board power, at full load; idle and lighter "
        "loads draw less). Your own price per kWh gives your bill: say it, in your currency. "
        "The rest of the machine (CPU, board, fans) adds to it."
    )


def _job_hours_of(query: Query, box: ToolBox, ref: GpuRef | None, count: int) -> float | None:
    """The hours of the job a thread sized (tokens, images, audio or samples said) on the card
    named, for a bill of that job; None when no job's size is said."""
    sized = query.train_tokens or query.images or query.audio_hours or query.dataset_samples
    if not (sized and ref is not None and ref.ids and query.models and not query.use_hours_per_day):
        return None
    e = box.call("estimate", estimate_args(query, gpu_choices(ref)[0], count, query.models[0]))
    return typical_job_hours(e) if "error" not in e and e.get("fits") else None


def electricity_bill(query: Query, box: ToolBox, count: int) -> Draft:
    """The electricity bill of the GPUs for the hours said (a month when none is said); hours a
    day with a year, month or week asked: that many days of them."""
    ref = query.gpus[0] if query.gpus else None
    hours, over = billed_hours(query)
    job = _job_hours_of(query, box, ref, count) if query.hours is None else None
    if job is not None:  # "... on 100M tokens" then "how much electricity is that": the job's
        hours = job
    spans = list(_BILLED_OVER.finditer(query.low))
    daily, span = query.use_hours_per_day, spans[-1] if spans else None
    # a draw said for all the GPUs ("the rig pulls 700W") is the total, not each one's
    total = bool(query.draw_w) and not query.draw_each
    args: dict[str, Any] = {"usd_per_kwh": query.usd_per_kwh, "hours": hours,
                            "num_gpus": 1 if total else count,
                            "other_w": query.other_w or 0.0}  # fmt: skip
    if query.idle_w and query.idle_hours:  # "~110W idle the other 18 hours"
        args |= {"idle_w": query.idle_w, "idle_hours": query.idle_hours}
    if ref is not None and ref.ids:
        args["gpu"] = gpu_choices(ref)[0]
    if query.draw_w:
        args["power_w"] = query.draw_w
    whole = ""
    if (ref is not None and ref.ids and not query.draw_w and not query.other_w
            and _A_MACHINE_SAID.search(query.low)
            and not _CARD_ALONE.search(query.low)):  # fmt: skip
        # "my 4x3090 rig ... electricity for a month": the machine's draw, CPU and the rest too
        rig = box.call("system_power", {"gpu": args["gpu"], "num_gpus": count})
        if "error" not in rig:
            args["other_w"] = rig["cpu_w"] + rig["platform_w"]
            whole = (
                f" The CPU ({c.num(rig['cpu_w'], 'W')}, a high-end desktop one) and the rest "
                f"({c.num(rig['platform_w'], 'W')}) are counted with the cards."
            )
    setups = [r for r in query.gpus if r.ids][:4]
    if len(query.draws_w) == 2 and query.usd_per_kwh and not query.other_w:
        # "115 W vs 350 W, 31 cents a kWh: the yearly difference?": each draw's bill
        return _electricity_of_draws(query, box, args, setups, over)
    if len(setups) >= 2 and not query.draw_w:  # "A6000 vs 2x 3090 ... and power?": each setup
        return _electricity_of_each(query, box, args, setups, over)
    result = box.call("electricity_cost", args)
    if "error" in result:
        return Draft(result["error"])
    mine = "your machine" if query.draw_w else "your GPU"  # "the Mac draws 60 W": no GPU named
    machine = c.gpus_phrase(count, _said(ref)) if ref else mine
    text = c.electricity(result, machine, sign=query.currency) + whole
    if daily and span:  # "per month (30 days), and per year?": each period asked
        # "what's that costin' me a day? an' a week?": a day's bill asked beside the period's
        asked_day = ["day"] if _A_DAYS_BILL.search(query.low) else []
        for period in dict.fromkeys([*asked_day, *(m.group(1) for m in spans if m.group(1))]):
            days = re.search(rf"\b{period}\s?\((\d+) days?\)", query.low)
            hours_in = daily * (float(days.group(1)) if days else _DAYS_IN[period])
            if abs(hours_in - result["hours"]) <= 0.05 * hours_in:
                continue  # the period the bill above is for
            other = box.call("electricity_cost", {**args, "hours": hours_in})
            if "error" not in other:
                bill, kwh = c.usd(other["usd"], query.currency), c.num(other["kwh"], "kWh")
                text += f"\nPer {period}: about {bill} ({kwh} over {c.num(hours_in, 'hours')})."
    if over:
        text = text.replace(
            f"for {c.num(result['hours'], 'hours')}",
            f"for {c.num(result['hours'], 'hours')}{over}",
            1,
        )
    low = query.low
    each = count > 1 and _EACH_PRICE.search(low)  # a price per card: no total said as traced
    if query.purchase_usd and _OWNERSHIP.search(low) and not each:  # the card and its power
        cards = query.purchase_usd
        sign = query.currency
        text = (f"**About {c.usd(cards + result['usd'], sign)} in all: {c.usd(cards, sign)} for "
                "the "
                f"hardware + {c.usd(result['usd'], sign)} of electricity** over "
                f"{c.num(result['hours'], 'hours')}.\n\n" + text)  # fmt: skip
    if job is not None:
        text += " The hours are the job's, as estimated for it on this card."
    elif query.hours is None and not query.use_hours_per_day:
        text += f" No duration was given: a month of {num_phrase(int(hours))} hours is assumed."
    return Draft(text)


def _one_side_in_dollars(sign: str, bought: bool, result: dict[str, Any]) -> str:
    """ "Rent or buy a 4090 for R35 000?": the user's price and the catalog's other side are in
    two currencies, so no break-even; the catalog's figure, in dollars, and what to give."""
    code = sign.strip()
    yours, other = ("price of the card", "rent by the hour") if bought else ("rent", "card's price")
    theirs = (f"The catalog's rent: {c.usd(result['rent_usd_per_hour'])}/hour."
              if bought and result.get("rent_usd_per_hour")
              else f"The catalog's price of the card: {c.usd(result['purchase_usd'])}."
              if not bought and result.get("purchase_usd") else "")  # fmt: skip
    return (
        f"**No break-even I can trust: your {yours} is in {code}, and the catalog's {other} is "
        f"in US dollars.** Give the {other} in {code} too (or both in dollars) and I will "
        f"work out when buying pays off. {theirs}"
    ).strip()


def billed_hours(query: Query) -> tuple[float, str]:
    """The hours an electricity bill is for, and how they were read (" (the hours a day you
    said, for a year)"): the hours said (a month when none is said); hours a day with a year,
    month or week asked: that many days of them."""
    hours, over = query.hours or HOURS_PER_MONTH, ""
    # the last span said is the bill's ("8 hours a day, 5 days a week: per year?")
    spans = list(_BILLED_OVER.finditer(query.low))
    daily, span = query.use_hours_per_day, spans[-1] if spans else None
    # "8 hours a day, 5 days a week: per year?": the days of the span (hours said for a month
    # of days, "for 30 days", stand)
    period = (span.group(1) or _PERIOD_OF[span.group(2)]) if span else None
    if period and daily and (query.hours is None or query.hours <= 7 * daily):
        hours, over = daily * _DAYS_IN[period], f" (the hours a day you said, for a {period})"
    elif period and not daily and (runs := _runs_over(query, period)):
        hours, over = runs  # "a 24-hour job once a week: per year?"
    elif daily and not span and query.hours == daily:  # "14h a day": the month's bill
        hours, over = daily * _DAYS_IN["month"], " (the hours a day you said, for a month)"
    elif (period and not daily and query.hours == HOURS_PER_DAY
          and not _A_JOB.search(query.low) and not _NOW_AND_THEN.search(query.low)):  # fmt: skip
        # "it will run 24 hours ... in a 30-day month?": around the clock, over the span asked
        days = _MONTH_DAYS.search(query.low) if period == "month" else None
        hours = HOURS_PER_DAY * (
            float(days.group(1) or days.group(2)) if days else _DAYS_IN[period]
        )
        over = f" (around the clock, for a {period})"
    return hours, over


def _electricity_of_each(
    query: Query, box: ToolBox, args: dict[str, Any], setups: list[GpuRef], over: str
) -> Draft:
    """The bill of each setup compared ("one A6000 or 2 x 3090"), each at its own count."""
    bills = []
    for ref in setups:
        n = ref.count or 1
        result = box.call("electricity_cost", {**args, "gpu": gpu_choices(ref)[0], "num_gpus": n})
        if "error" in result:
            return Draft(result["error"])
        bills.append((c.gpus_phrase(n, _said(ref)), result))
    bills.sort(key=lambda b: b[1]["usd"])
    sign = query.currency
    each = ", ".join(f"{c.usd(r['usd'], sign)} on {machine}" for machine, r in bills)
    hours = c.num(bills[0][1]["hours"], "hours")
    head = f"**About {each}** of electricity for {hours}{over}."
    if len(bills) == 2 and _SAVING.search(query.low):  # "how much would the lower-power one save?"
        (cheap, low), (dear, high) = bills
        cheap, dear = cheap.removeprefix("one "), dear.removeprefix("one ")
        head = (f"**The {cheap} saves about {c.usd(high['usd'] - low['usd'], sign)}** of "
                f"electricity over {hours}{over}: {c.usd(low['usd'], sign)} against "
                f"{c.usd(high['usd'], sign)} on the {dear}.")  # fmt: skip
    lines = [c.electricity(r, machine, sign=sign) for machine, r in bills]
    return Draft("\n\n".join([head, *lines]))


def _electricity_of_draws(
    query: Query, box: ToolBox, args: dict[str, Any], setups: list[GpuRef], over: str
) -> Draft:
    """The bills of two draws said side by side ("115 W vs 350 W"), each named by its card when
    the question names one for each, and the difference between them first."""
    bills = []
    for i, watts in enumerate(query.draws_w):
        result = box.call("electricity_cost", {**args, "power_w": watts, "num_gpus": 1})
        if "error" in result:
            return Draft(result["error"])
        name = _said(setups[i]) if len(setups) == len(query.draws_w) else None
        bills.append((f"the {name} at {c.num(watts, 'W')}" if name else c.num(watts, "W"),
                      result))  # fmt: skip
    (low_name, low), (high_name, high) = sorted(bills, key=lambda b: b[1]["usd"])
    sign, hours = query.currency, c.num(low["hours"], "hours")
    gap = box.call("electricity_cost", {**args, "num_gpus": 1,
                                        "power_w": high["power_w"] - low["power_w"]})  # fmt: skip
    if "error" in gap:
        return Draft(gap["error"])
    extra = c.num(gap["kwh"], "kWh")
    head = (f"**About {c.usd(gap['usd'], sign)} more with {high_name}** ({extra} "
            f"more) over {hours}{over}: {c.usd(high['usd'], sign)} against "
            f"{c.usd(low['usd'], sign)} with {low_name}, at your "
            f"{c.usd(low['usd_per_kwh'], sign)}/kWh.")  # fmt: skip
    lines = [c.electricity(r, "your machine", sign=sign) for _name, r in bills]
    return Draft("\n\n".join([head, *lines]))


# a saving asked between two setups' bills: "how much would the lower-power one save us?"
_SAVING = re.compile(r"\bsav(?:e|es|ing|ings)\b|\bdifference\b|\bhow much (?:less|cheaper)\b")


def _said(ref: GpuRef) -> str:
    """A GPU as the user named it, singular ("4090s" -> "4090"; "l40s" is the L40S)."""
    if any(re.search(r"\d+s$", gpu) for gpu in ref.ids):
        return ref.text
    return re.sub(r"(?<=\d)s$", "", ref.text)


def num_phrase(n: int) -> str:
    return "one" if n == 1 else str(n)


_LEAST_MEMORY = re.compile(
    r"\b(?:smallest|least|lowest|minimum|min)[- ](?:vram|memory)\b"
    r"|\bleast (?:amount of )?(?:vram|memory)\b|\bsmallest (?:single |one )?(?:gpu|card)\b"
)
# the least that does the job, not the best: "what gpu do I need", "minimum gpu", "enough for"
_LEAST_NEEDED = re.compile(
    r"\bwhat (?:gpu|card|graphics card|hardware)s? (?:do|would|will|should) (?:i|we) need\b"
    r"|\b(?:minimum|min|minimal|least powerful|entry[- ]level) (?:gpu|card|hardware|setup)\b"
    r"|\bwhat(?:'s| is) the minimum\b|\bbare minimum\b"
)
_CHEAPEST = re.compile(r"\bcheap\w*|\blowest (?:cost|price)\b|\bleast expensive\b")
_FASTEST = re.compile(
    r"\bfastest\b|\bquickest\b|\blowest (?:possible )?(?:[\w-]+ ){0,2}latency\b"
    r"|\b(?:best|minimum|min) latency\b|\bas fast as possible\b|\bmax(?:imum)? speed\b"
)


# a model hosted or rented with no load said is ranked by its hourly price among the setups
# that answer one user at least this fast (tokens/s): a product choice, about the pace
# of reading, so that eight old cards at 2 tokens/s are not the month's cheapest answer
HOSTED_FLOOR_TOK_S = 10.0


def _rank_by(query: Query) -> str | None:
    """ "cheapest way to ...": by price (by the cost of the work when a job's size is said: the
    cheapest card by the hour is no cheapest way to 100,000 images); "lowest possible
    single-stream latency": by speed."""
    low = query.low
    if _LEAST_MEMORY.search(low):
        return "memory"
    if _CHEAPEST.search(low):
        sized = (
            query.images
            or query.audio_hours
            or query.train_tokens
            or query.epochs
            or query.dataset_samples
        )
        # "cheapest per million tokens": the cost of the work, not of the hour
        per_work = _PER_TOKENS.search(low) or _AT_VOLUME.search(low)
        # "cheapest card for flux": images (or audio) are made by the piece, so the cheapest
        # card is the one each costs least on, not the slowest one by the hour
        by_piece = any(m.family in ("diffusion", "speech") for m in query.models)
        return "value" if (sized or per_work or by_piece) and not _bought(query) else "price"
    if _LEAST_NEEDED.search(low) and _bought(query):
        return "price"  # "run codellama 34b locally, what gpu do I need": the least that runs it
    if (_bought(query) and query.buying and not query.budget and query.models
            and (query.concurrency or query.rps)):  # fmt: skip
        # "llama 3.3 70b for my team of 10, on-prem: what hardware": the least that serves them
        # (each user at a reading pace at least), not the fastest money can buy
        return "price"
    loaded = query.concurrency or query.rps or query.needed_tok_s or query.per_day
    if (_MONTHLY_ASKED.search(low) or _ALWAYS_ON.search(low)) and not loaded and not _bought(query):
        # "how much per month to run llama 70b 24/7": a month's bill is the hourly price's, and
        # with no load said the cheapest setup that holds the model pays it
        return "price"
    if _TIGHT_BUDGET.search(low):
        return None  # "fastest way ..., budget is tight": the cost of the work decides
    return "speed" if _FASTEST.search(low) else None


# money said to be short: the cost of the work ranks, not speed at any price
_TIGHT_BUDGET = re.compile(
    r"\bbudget(?: is| was|'s)? (?:tight|limited|small|low)\b|\b(?:tight|limited|small|low|"
    r"shoestring) budget\b|\bon a budget\b|\bcan'?t (?:spend|afford) (?:much|a lot)\b"
)


# a field of ML named: the articles speak to "best gpu for deep learning"
_ML_SAID = re.compile(
    r"\b(?:ml|ai|llms?|deep learning|machine learning|training|inference|fine-?tun\w*|"
    r"diffusion|pytorch|tensorflow|cuda|models?|vision|nlp|gaming)\b"
)


def _ranked(box: ToolBox, args: dict[str, Any], cuda_first: bool) -> dict[str, Any]:
    """recommend_gpus on `args`, among NVIDIA's cards when the pick is to be a CUDA card."""
    return box.call("recommend_gpus", {**args, "vendor": "NVIDIA"} if cuda_first else args)


def _cheaper_in_four_bits(query: Query, box: ToolBox, args: dict[str, Any],
                          result: dict[str, Any], cuda_first: bool) -> str:  # fmt: skip
    """ "Cheapest way to run llama 3.3 70b at 20 tok/s": the pick in 16 bits, and the same
    ranking in 4-bit AWQ weights when its first setup rents for clearly less (quality said)."""
    top = result["ranked"][0] if result["ranked"] else None
    if (top is None or not _CHEAPEST.search(query.low) or "precision" in args or _bought(query)
            or args.get("workload") != "inference" or top.get("precision") not in ("bf16", "fp16")
            or not top.get("usd_per_hour") or "max_purchase_usd" in args):  # fmt: skip
        return ""
    image = bool(query.models) and query.models[0].family == "diffusion"
    # an image model's leaner format is 8-bit weights, as ComfyUI and Forge load FLUX
    four = {**args, "precision": "fp8" if image else "awq"}
    ranked = _ranked(box, four, cuda_first)
    best = (ranked.get("ranked") or [None])[0] if "error" not in ranked else None
    if not best or not best.get("usd_per_hour") or best["usd_per_hour"] > 0.8 * top["usd_per_hour"]:
        return ""
    if image and (best.get("usd_per_unit") or 0) > 0.8 * (top.get("usd_per_unit") or 0):
        return ""  # cheaper by the hour, dearer by the image
    # a serving load: every copy's cards ("20 x L4"), not one copy's
    where = c.gpus_phrase(best.get("total_gpus") or best["num_gpus"], best["gpu_name"])
    leaner = ("In fp8 (8-bit weights, as ComfyUI and Forge load it, a little quality lost)"
              if image else "In 4-bit (AWQ weights, a little quality lost)")  # fmt: skip
    return (f"\n\n{leaner} it is cheaper: {where} at "
            f"{c.usd(best['usd_per_hour'])}/hour, about {c.num(best['speed'], best['speed_unit'])}"
            ".")  # fmt: skip


def _one_card_needed(query: Query) -> bool:
    """ "What gpu do I need" for a home machine: the least that runs it, one card."""
    bought = query.location == "home" or (query.budget and query.budget.kind == "buy")
    need = _LEAST_NEEDED.search(query.low)
    return bool(need and re.search(r"\b(?:gpu|card)\b", need.group(0)) and not query.num_gpus
                and bought)  # fmt: skip


# renting as the other way: "best gpu on my 850w psu, or should i just use the cloud"
_OR_RENT = re.compile(r"\bor (?:\w+ ){0,4}(?:rent\w*|(?:the )?cloud)\b")


def cards_rented(low: str) -> bool:
    """The cards asked for are rented ("what gpu can i rent ..., a 400w psu at home"), not
    weighed against renting ("..., or should i just use the cloud")."""
    return bool(re.search(r"\brent\w*", low)) and not _OR_RENT.search(low)


# a server or a rack said: its supplies feed boards of any form ("two 2000w power supplies")
_A_SERVER = re.compile(r"\b(?:servers?|racks?|nodes?|chassis|data ?cent(?:er|re)s?|dgx|hgx)\b")


def _card_limits(query: Query, home_cap: bool = True) -> dict[str, Any]:
    """ "one PCIe datacenter GPU per server ... on a single card": the form factor and the count
    a recommendation must keep to (read from the words: the Query has no field for them yet)."""
    low = query.low
    limits: dict[str, Any] = {}
    if re.search(r"\b(?:single|one|1)[- ](?:\w+ ){0,2}(?:card|gpu)s?\b(?! (?:or|vs))", low):
        limits["max_gpus"] = 1
    if (
        re.search(
            r"\b(?:cheapest|smallest|least expensive) (?:[\w-]+ ){0,2}(?:gpu|card) "
            r"(?:that|which|to|i can|we can)\b",
            low,
        )
        and not query.num_gpus
    ):
        limits["max_gpus"] = 1  # "the cheapest gpu that can run llama 3 8b in fp16": one card
    bought = (query.location == "home" or query.buying
              or (query.budget and query.budget.kind == "buy"))  # fmt: skip
    if _one_card_needed(query):
        limits["max_gpus"] = 1  # "what gpu do I need" for a home machine: one card, the least
    one = re.search(  # "a gpu cluster", "a gpu server": a machine of several
        r"\ban? (?:[\w-]+ ){0,2}(?:card|gpu|graphics card)\b(?!s| (?:or|each|per|cluster|servers?"
        r"|nodes?|box|rig|farm|machine|workstation|rack)\b)",
        low,
    )
    if bought and one and not query.num_gpus:
        limits["max_gpus"] = 1  # "want a home card for QLoRA": one card, bought
    home = query.location == "home" or bool(
        query.budget and _bought(query) and query.budget.usd <= HOME_BUDGET_USD
    )
    if home_cap and home and "max_gpus" not in limits and not query.num_gpus:
        limits["max_gpus"] = HOME_MAX_GPUS  # "5k for a home rig": not eight budget cards
    # one machine built ("a shared box for the team", "building a server"), not a cluster
    boxed = re.search(r"\b(?:box|workstation|desktop|tower|rig|(?:a|one|our|my) (?:\w+ )?server)\b",
                      low)  # fmt: skip
    racked = re.search(r"\b(?:cluster|servers|racks?|nodes?|data ?cent(?:er|re))\b", low)
    if bought and boxed and not racked and "max_gpus" not in limits and not query.num_gpus:
        limits["max_gpus"] = WORKSTATION_MAX_GPUS  # "a shared box for the team": what one takes
    if home:
        limits["desktop"] = True  # no SXM or OAM module in a home machine
    form = re.search(r"\b(pcie|sxm)\b(?! (?:gen|[3-6]\.0|x\d|lanes?|slots?|risers?))", low)
    if form and not query.gpus:
        limits["form_factor"] = form.group(1).upper() if form.group(1) == "sxm" else "PCIe"
    elif (SUPPLY_SAID.search(low) and not query.gpus and not _A_SERVER.search(low)
          and not cards_rented(low)):  # fmt: skip
        limits["form_factor"] = "PCIe"  # "on a 550w psu": a card for a PC's slot, not a machine
    return limits


def _the_budget_buys(query: Query, box: ToolBox, result: dict[str, Any], model: ModelRef,
                     purchase: dict[str, Any]) -> str | None:  # fmt: skip
    """A cluster bought within a budget: the pick is the fewest cards that hold the job; the
    budget buys more of them (doublings, up to two nodes), and a training job runs faster on
    them. None for a home or one-box budget, a job not trained, or a budget that buys no more."""
    limit = purchase.get("max_purchase_usd")
    pick = result["ranked"][0] if result.get("ranked") else None
    workload, _ = workload_of(query)
    if not (limit and limit < 1e9 and pick and pick.get("purchase_usd")):
        return None
    if not workload.startswith(("train", "finetune")) or _card_limits(query).get("max_gpus"):
        return None
    each = pick["purchase_usd"] / pick["num_gpus"]
    n = pick["num_gpus"]
    while n * 2 <= 2 * NODE_GPUS and each * n * 2 <= limit * 1.0001:
        n *= 2
    if n == pick["num_gpus"]:
        return None
    priced = box.call("purchase_prices", {"gpu": pick["gpu"], "num_gpus": n,
                                          "condition": purchase.get("condition")})  # fmt: skip
    e = box.call("estimate", estimate_args(query, pick["gpu"], n, model))
    row = next((p for p in priced.get("prices", []) if p.get("total_usd")), None)
    if "error" in priced or "error" in e or not e["fits"] or row is None:
        return None
    key = "train_tokens_per_s" if (e.get("train_tokens_per_s") or {}).get("typical") else (
        "train_samples_per_s")  # fmt: skip
    speed = (e.get(key) or {}).get("typical")
    if not speed or row["total_usd"] > limit * 1.0001:
        return None
    unit = "tokens/s" if key == "train_tokens_per_s" else "samples/s"
    return (
        f"**Your {c.usd(limit)} buys {c.gpus_phrase(n, e['gpu_name'])}** "
        f"({c.usd(row['total_usd'])} at {c.usd(row['usd'])} each, {row['date']}): about "
        f"{c.num(speed, unit)} for this job ({c.settings(e)}), against the pick's "
        f"{c.num(pick['speed'], pick['speed_unit'])} on the fewest that hold it. Servers, "
        "networking and power come on top of the cards."
    )


def recommend(query: Query, box: ToolBox, **purchase: Any) -> Draft:
    if len(query.gpus) == 1 and LEAVING.search(query.low):
        query = replace(query, gpus=())  # "upgrading from my 2070 super": the card left behind
    beaten = None
    if query.follow_up and query.gpus and query.models and CHEAPER.search(query.low):
        beaten = query.gpus[0]  # "cheaper option?": the job ranked by price, the pick to beat
        query = replace(query, gpus=())
    if api := _api_bill_or_rented(query, box):
        return api  # "we pay $45 a month for gpt-4o-mini: would self-hosting be cheaper?"
    if query.cpu_only and query.models and not query.gpus and not purchase:
        return fit(query, box)  # "is an old laptop cpu enough for llama 3 8b?": the CPU alone
    if not query.models and not query.gpus and query.memory_gb and _CHEAPEST_WAY.search(query.low):
        if _RENT_SAID.search(query.low) or re.search(r"\bcloud\b", query.low):
            return _cheapest_rented_with_memory(query, box)  # "cheapest cloud gpu with 80gb"
        return _cheapest_with_memory(query, box)  # "cheapest way to get 24gb of vram? used ok"
    if not query.models and not query.gpus and _MEMORY_PER_DOLLAR.search(query.low):
        budget = query.budget.usd if query.budget and query.budget.per == "total" else None
        return _memory_per_dollar(query, box, {"max_purchase_usd": budget or 1e9,
                                               "condition": query.condition or "new"})  # fmt: skip
    named = query.models or query.gpus or query.budget or query.workload_given or query.topic
    if not named and not _ML_SAID.search(query.low):
        return Draft(c.ASK_BACK)  # "my job is too slow, give me a better gpu": which job?
    query, stand_in = _stood_in(query, box)
    if not purchase and not query.gpus and _bought(query):
        draft = _to_buy(query, box)  # "a $1,000 card for SDXL, which one?": priced to buy
        draft.text += stand_in
        return draft
    if (not query.models and not query.gpus and query.workload == "train" and query.train_tokens
            and _family_of_job(query) == "llm"):  # fmt: skip
        # "train a small gpt from scratch on 5b tokens, $2000 of cloud: which gpu?": a
        # pre-training run with no size said; GPT-2 small (124M, nanoGPT's) stands in, said so
        name = box.call("model_specs", {"model": PRETRAIN_STAND_IN}).get("name", PRETRAIN_STAND_IN)
        query = replace(query, models=(ModelRef(name, (PRETRAIN_STAND_IN,), "llm",
                                                assumed=True),))  # fmt: skip
        stand_in = (f"\n\n_Note: no model size named: {name} stands in for the run; say the "
                    "parameter count for yours._")  # fmt: skip
    if not query.models and not query.gpus and _LLM_JOB_SAID.search(query.low):
        # "best value for llm inference in the cloud?": an 8B LLM stands in, said so
        ref = LINK_REFERENCE_MODEL
        name = box.call("model_specs", {"model": ref}).get("name", ref)
        query = replace(query, models=(ModelRef(name, (ref,), "llm", assumed=True),))
        stand_in = f"\n\n_Note: no model named: {name} stands in for the job; name yours._"
    if not query.models:  # "the best AI graphics card?", nothing else: which job is asked back
        return explain(query, box) if named else Draft(c.ASK_BACK)
    alone = query
    query, beside, kept = _companions(query, box)
    also, apart, other = "", query, None
    if not beside:  # "8b llms locally and also sdxl": one card for each job in turn
        apart, other = _each_job_held(query, box)
    clouds = query.providers if not purchase and 2 <= len(query.providers) <= 3 else ()
    draft = (_on_each_cloud(apart, box, beaten, clouds) if clouds else None) or _recommend_for(
        apart, box, beaten, **purchase
    )
    if other is not None:
        held = not draft.text.startswith(c.NONE_MEETS)
        if not held:  # none holds the larger job too: the first job's own pick
            draft = _recommend_for(query, box, beaten, **purchase)
        also = _other_job_line(other, held)
    if beside and draft.text.startswith(c.NONE_MEETS):
        # no one card within the limits holds them all: that said, a card that runs each job in
        # turn, else the first model's own pick
        main = query.models[0]
        apart, other = _each_job_held(replace(alone, models=(main, *alone.models),
                                              together=False), box)  # fmt: skip
        draft = _recommend_for(apart, box, beaten, **purchase)
        turn = f"for {main.text} alone"
        if other is not None and not draft.text.startswith(c.NONE_MEETS):
            turn, also = "one that runs each in turn", _other_job_line(other, True)
        elif other is not None:
            draft = _recommend_for(replace(alone, models=(main, *alone.models)), box, beaten,
                                   **purchase)  # fmt: skip
        draft.text = (f"**No single card within your limits holds {main.text} with the other "
                      f"models loaded beside it** ({c.num(kept, 'GB')} kept for them); "
                      f"{turn}:\n\n{draft.text}")  # fmt: skip
        beside = ""
    draft.text += stand_in
    if also and not draft.text.startswith(c.NONE_MEETS):
        draft.text += "\n\n" + also
    if beside and "error" not in draft.text[:40]:
        draft.text += "\n\n" + beside + _together_on_pick(box, kept, draft.text.split("\n")[0])
    return draft


def _other_jobs_on_each(query: Query, box: ToolBox, gpus: list[str]) -> str:
    """ "mostly sdxl, and qwen2.5 14b locally: the 4070 laptop or the 4080 laptop?": a choice made
    on the first job named, then each other job's need against every card; "" when one job."""
    models = list({model_arg(m): m for m in query.models if m.ids or m.size_b}.values())
    lines = []
    for m in models[1:]:
        runs = [box.call("estimate", estimate_args(sized_at_home(query, m), g, None, m))
                for g in gpus[:MAX_GPUS_PER_ANSWER]]  # fmt: skip
        runs = [e for e in runs if "error" not in e]
        if len(runs) < 2:
            continue
        weights = runs[0]["breakdown_gb"].get("weights")
        share = f", {c.num(weights, 'GB')} of it weights" if weights else ""
        each = "; ".join(
            f"{'fits' if e['fits'] else 'does not fit'} on the {e['gpu_name']} "
            f"({c.num(e['usable_memory_per_gpu_gb'], 'GB')} usable)"
            for e in runs
        )
        lines.append(f"{runs[0]['model_name']} needs about "
                     f"{c.num(runs[0]['memory_per_gpu_gb'], 'GB')} ({c.settings(runs[0])}{share}): "
                     f"{each}.")  # fmt: skip
    return "".join(f"\n\n{line}" for line in lines)


# a card's nominal memory against a job's need: a 12 GB card holds about 12.4 GB usable (binary
# gigabytes, less the driver's share), so a need is met by cards of a little less
NOMINAL_OF_NEED = 0.95


def _each_job_held(query: Query, box: ToolBox) -> tuple[Query, dict[str, Any] | None]:
    """ "run 8b llms locally and also do sdxl images: which card?": jobs of different families
    run one at a time on the card, so the ranking (of the first model) keeps only cards with the
    memory the largest other job needs (its estimate, returned to be said after the ranking by
    _other_job_line). The query unchanged and None when one model, models of one family, or
    models kept loaded together."""
    models = list({model_arg(m): m for m in query.models if m.ids or m.size_b}.values())
    families = {m.family or "llm" for m in models}
    if len(models) < 2 or len(families) < 2 or query.together or query.gpus:
        return query, None
    needs = []
    for m in models[1:]:
        e = box.call("estimate", estimate_args(sized_at_home(query, m), COMPANION_CARD, None, m))
        if "error" not in e:
            needs.append(e)
    if not needs:
        return query, None
    most = max(needs, key=lambda e: e["memory_per_gpu_gb"])
    floor = most["memory_per_gpu_gb"] * NOMINAL_OF_NEED
    if floor <= (query.memory_gb or 0):
        return query, None
    return replace(query, memory_gb=floor), most


def _other_job_line(most: dict[str, Any], held: bool) -> str:
    """The largest other job named, said after the ranking: every card ranked holds it on its
    own (`held`), or none within the limits does and the pick is for the first job alone."""
    said = (f"{most['model_name']} on its own ({c.num(most['memory_per_gpu_gb'], 'GB')}; "
            f"{c.settings(most)}), the largest other job named")  # fmt: skip
    if held:
        return f"Each card above also holds {said}: cards with less memory were left out."
    return (
        f"No card within your limits also holds {said}; the pick above is for the first job alone."
    )


def _together_on_pick(box: ToolBox, kept: float, lead: str) -> str:
    """ "... and how much vram do the two take together?": the pick's need for the ranked model
    and the memory kept for the others, added on its card (the ranking whose first card the
    answer's `lead` names)."""
    ranked = next((call.result["ranked"] for call in box.calls
                   if call.name == "recommend_gpus" and call.result.get("ranked")
                   and call.result["ranked"][0]["gpu_name"] in lead), None)  # fmt: skip
    if not ranked:
        return ""
    pick = ranked[0]
    held = box.call(
        "memory_together",
        {
            "needs_gb": [pick["memory_per_gpu_gb"], kept],
            "usable_gb": pick["usable_memory_per_gpu_gb"] + kept,
        },
    )
    if "error" in held:
        return ""
    return (f" Together on the pick: about {c.num(held['total_gb'], 'GB')} of its "
            f"{c.num(held['usable_gb'], 'GB')} usable.")  # fmt: skip


# the cards named in the answer to a memory bought as cheaply as possible
CHEAPEST_SHOWN = 3


def _cheapest_with_memory(query: Query, box: ToolBox) -> Draft:
    """ "cheapest way to get 24gb of vram? used is fine": the cards with at least that memory,
    cheapest first at their newest price on record of the condition said (used also takes new
    cards; launch list prices only where a card has no other), each dated and sourced."""
    found = box.call("list_gpus", {"min_memory_gb": query.memory_gb,
                                   "top": 200})  # fmt: skip
    kinds = ("used", "new") if query.condition == "used" else ("new",)
    offers = []
    for row in found.get("gpus", []):
        newest = c.first_of_each_kind(
            box.call("purchase_prices", {"gpu": row["id"]}).get("prices", [])
        )
        held = [newest[k] for k in kinds if k in newest]
        if not held and newest.keys() == {"msrp"}:  # a launch list price, where no other is
            held = [newest["msrp"]]
        if held:
            offers.append((min(held, key=lambda p: p["usd"]), row["name"]))
    if not offers:
        return Draft(f"No purchase price on record for a card with {c.num(query.memory_gb, 'GB')} "
                     "or more.")  # fmt: skip
    offers.sort(key=lambda o: o[0]["usd"])
    best, name = offers[0]
    said = "used or new" if len(kinds) == 2 else "new"
    lines = [f"**Cheapest card with {c.num(query.memory_gb, 'GB')} or more on record ({said}): "
             f"the {name}, {c.usd(best['usd'])} {best['kind']}** ({best['date']}; "
             f"{best['source']})."]  # fmt: skip
    lines += [f"- {n}: {c.usd(p['usd'])} {p['kind']} ({p['date']}; {p['source']})"
              for p, n in offers[1:CHEAPEST_SHOWN]]  # fmt: skip
    lines.append("Prices are the newest on record for each card; street prices move, so check "
                 "a listing before you quote one.")  # fmt: skip
    return Draft("\n".join(lines))


def _cheapest_rented_with_memory(query: Query, box: ToolBox) -> Draft:
    """ "what is the cheapest cloud gpu with 80gb": the cards with at least that memory, by
    their median on-demand price per GPU-hour, with each one's cheapest current offer."""
    found = box.call("list_gpus", {"min_memory_gb": query.memory_gb, "top": 200})
    offers = []
    for row in found.get("gpus", []):
        priced = box.call("prices", {"gpu": row["id"]})
        summary = priced.get("summary_usd_per_gpu_hour")
        if summary:
            offers.append((summary["median"], summary["low"], priced["count"], row["name"]))
    if not offers:
        return Draft(f"No rental price on record for a card with {c.num(query.memory_gb, 'GB')} "
                     "or more.")  # fmt: skip
    offers.sort()
    median, low, count, name = offers[0]
    lines = [f"**Cheapest to rent with {c.num(query.memory_gb, 'GB')} or more: the {name}, "
             f"{c.usd(median)} per GPU-hour** (the median of {count} current prices, one per "
             f"provider counted; the cheapest offer {c.usd(low)})."]  # fmt: skip
    lines += [f"- {n}: {c.usd(m)} per GPU-hour (cheapest offer {c.usd(lo)})"
              for m, lo, _n, n in offers[1:CHEAPEST_SHOWN]]  # fmt: skip
    return Draft("\n".join(lines))


# two models set against each other, not run side by side ("which is better: X or Y")
_MODELS_WEIGHED = re.compile(r"\b(?:vs\.?|versus)\b|\bwhich (?:is|one|model|of (?:the|them))\b")


def _companions(query: Query, box: ToolBox) -> tuple[Query, str, float]:
    """ "a card for faster-whisper plus a 3B LLM, 24/7": one card runs every model named at
    once, so the ranking is for the LLM (or the first model) with each other model's need kept
    aside on the card (`reserved_gb`), said after the ranking."""
    models = list({model_arg(m): m for m in query.models if m.ids or m.size_b}.values())
    if len(models) < 2 or not query.together or _MODELS_WEIGHED.search(query.low):
        return query, "", 0.0
    main = next((m for m in models if (m.family or "llm") == "llm"), models[0])
    others = [m for m in models if m is not main]
    needs = []
    for m in others:
        e = box.call("estimate", estimate_args(sized_at_home(query, m), COMPANION_CARD, None, m))
        if "error" in e:
            return query, "", 0.0
        needs.append(e)
    kept = sum(e["memory_per_gpu_gb"] for e in needs)
    if len(needs) > 1:
        total = box.call(
            "memory_together",
            {
                "needs_gb": [e["memory_per_gpu_gb"] for e in needs],
                "usable_gb": needs[0]["usable_memory_per_gpu_gb"],
            },
        )
        kept = total.get("total_gb", kept)
    said = "; ".join(
        f"{e['model_name']} {c.num(e['memory_per_gpu_gb'], 'GB')} ("
        f"{c.num(e['breakdown_gb'].get('weights') or _pipeline_weights_gb(e), 'GB')} of it "
        f"weights; {c.settings(e)})" for e in needs)  # fmt: skip
    line = (f"Each card above also holds {said}, loaded beside {main.text} on the one card: "
            "that memory is set aside before the ranking.")  # fmt: skip
    rest = tuple(m for m in query.models if m is not main)
    home_box = query.location == "home" or _OLLAMA.search(query.low)
    if ((main.family or "llm") == "llm" and not (main.precision or query.precision) and home_box
            and _engine(query.engine, main) in (None, "llama.cpp", "ollama")):  # fmt: skip
        main = replace(main, precision=HOME_PRECISION)  # a home box: as people run it there
    return replace(query, models=(main, *rest), together=True,
                   reserved_gb=(query.reserved_gb or 0) + kept), line, kept  # fmt: skip


PRETRAIN_STAND_IN = "gpt2"  # a pre-training run with no size said: GPT-2 small, nanoGPT's
# an LLM job said with no model: "llm inference", "serving llms", "running local llms"
_LLM_JOB_SAID = re.compile(
    r"\b(?:llms?|language models?)\b[^.?!]{0,20}\b(?:inference|serving|hosting|chat\w*)\b"
    r"|\b(?:inference|serv\w+|host\w*|run\w*)\b[^.?!]{0,20}\b(?:llms?|language models?)\b"
)


def _stood_in(query: Query, box: ToolBox) -> tuple[Query, str]:
    """A job named by its kind and no model ("best gpu for training cnns", "a unet on 20k
    images"): the family's reference model stands in, with the note that says so; an LLM job
    keeps no model (its handlers assume one of their own)."""
    family = _family_of_job(query)
    if (family == "llm" and family_hint(query.low) is None and query.workload == "train"
            and query.workload_given and not re.search(
                r"\bclusters?\b|\bnodes?\b|\bdata ?cent(?:er|re)s?\b|\bracks?\b|\btokens?\b",
                query.low)):  # fmt: skip
        # "a card for training models at home": no LLM said, a CNN's training (a cluster's
        # grant, or training tokens, are an LLM's pre-training)
        family = "vision"
    if query.models or family == "llm":
        return query, ""
    from advisor.calculator import FAMILIES

    ref = FAMILIES[family].reference_model
    name = box.call("model_specs", {"model": ref}).get("name", ref)
    query = replace(query, models=(ModelRef(name, (ref,), family, assumed=True),))
    if query.workload is None and family in ("vision", "transformer"):
        query = replace(query, workload="train")  # "cnn coursework": such models are trained
    return query, f"\n\n_Note: no model named: {name} stands in for the job._"


def _on_each_cloud(
    query: Query, box: ToolBox, beaten: GpuRef | None, clouds: tuple[str, ...]
) -> Draft | None:
    """ "Cheapest gpu on runpod/vast for llama 3 8b?": the pick on each cloud named, at its own
    prices, the one whose pick rents for least an hour first (None unless two clouds rank
    something)."""
    picks: list[tuple[str, dict[str, Any], Draft]] = []
    for cloud in clouds:
        draft = _recommend_for(replace(query, providers=(cloud,)), box, beaten)
        ranked = [call.result["ranked"] for call in box.calls
                  if call.name == "recommend_gpus" and call.args.get("provider") == cloud
                  and (call.result.get("ranked") or [])]  # fmt: skip
        if ranked and ranked[-1][0].get("usd_per_hour"):
            picks.append((cloud, ranked[-1][0], draft))
    if len(picks) < 2:
        return None
    picks.sort(key=lambda p: p[1]["usd_per_hour"])
    each = "; ".join(
        f"{cloud}: {c.gpus_phrase(row['num_gpus'], row['gpu_name'])} at "
        f"{c.usd(row['usd_per_hour'])}/hour" for cloud, row, _d in picks)  # fmt: skip
    cloud, row, _d = picks[0]
    lead = (f"**The lowest hourly rent of the clouds named: "
            f"{c.gpus_phrase(row['num_gpus'], row['gpu_name'])} on {cloud}** (each cloud's "
            f"pick: {each}).")  # fmt: skip
    return Draft("\n\n".join([lead, *(d.text for _c, _r, d in picks)]),
                 [cite for _c, _r, d in picks for cite in d.citations])  # fmt: skip


def _recommend_for(query: Query, box: ToolBox, beaten: GpuRef | None, **purchase: Any) -> Draft:
    """The ranking for the job on the query's first model (`beaten`: the pick a "cheaper
    option?" must beat)."""
    model = query.models[0]
    workload, _ = workload_of(query)
    args: dict[str, Any] = {"model": model_arg(model), "workload": workload, "top": 3}
    budget = query.budget
    # "405B - minimum hardware to run it at all": the least memory, in the fewest bits people run
    at_all = bool(_AT_ALL.search(query.low)) and workload == "inference" and not purchase
    four_bits = at_all and (model.family or "llm") == "llm" and not precision_for(model, query)
    if four_bits:
        query = replace(query, precision="awq")
    optional = {
        "precision": precision_for(model, query),
        "context": query.context,
        "reserved_gb": query.reserved_gb,  # another model kept on the card ("whisper plus an 8B")
        # pre-training ranked at a useful batch, not one sequence a step of overhead
        "batch": default_batch(query, model, workload) or _pretraining_default(workload, model),
        "max_usd_per_hour": budget.usd
        if budget and budget.per == "hour"
        else _budget_per_hour(query),
        "max_power_w": None if _WHOLE_BOX.search(query.low) else query.max_power_w,
        # "the office circuit handles 600 W for the whole box": the cards' draw together
        "max_total_power_w": query.max_power_w if _WHOLE_BOX.search(query.low) else None,
        "segment": query.segment,
        "vendor": query.vendor,
        "min_memory_gb": query.memory_gb,
        # "cheaper option?" after a pick: the pick's own ranking (the cost of the work)
        "rank_by": None if beaten is not None else "memory" if at_all else _rank_by(query),
        **_card_limits(query),
        # "30M tokens, 3 epochs": the tokens in all, as the estimate takes them
        "train_tokens": query.train_tokens * (query.epochs or 1) if query.train_tokens else None,
        "resolution": query.resolution,
        "steps": _sampler_steps(query),
        "epochs": query.epochs if query.dataset_samples and not query.train_tokens else None,
        "dataset_samples": query.dataset_samples if not query.train_tokens else None,
        # ("1000 tokens/s total": a total wanted is replies of the length said, or the serving
        # estimate's, a second)
        "requests_per_s": (query.rps or _total_as_requests(query))
        if workload == "inference" and model.family in (None, "llm")
        else None,
        "output_tokens": query.output_tokens if query.rps or _total_as_requests(query) else None,
        # "cheapest way to run a 70b at 20 tok/s for one user": setups below it take more cards
        # (each of N users at that pace: N times it in all, the batch being the users)
        "min_speed": query.throughput_tok_s * (query.concurrency or 1)
        if query.throughput_tok_s
        and workload == "inference"
        and model.family in (None, "llm")
        and not query.needed_tok_s
        and not query.rps
        and (query.batch or 1) in (1, query.concurrency or 1)
        # "cheapest card that runs llama 3.1 8b at 50+ tok/s": one stream's pace wanted
        else query.needed_tok_s
        if query.needed_tok_s
        and query.needed_tok_s <= ONE_STREAM_MAX_TOK_S
        and not (query.rps or query.concurrency)
        and workload == "inference"
        and model.family in (None, "llm")
        # "cheapest card to serve mistral 7b to 50 users": each user a readable pace at least
        else HOSTED_FLOOR_TOK_S * (query.concurrency or 1)
        if (query.concurrency or 1) > 1
        and not query.rps
        and not query.needed_tok_s
        and workload == "inference"
        and model.family in (None, "llm")
        # (the cheapest by the hour, hosted or rented: "cheapest gpus to rent for a 70b")
        else HOSTED_FLOOR_TOK_S
        if _rank_by(query) == "price" and workload == "inference" and model.family in (None, "llm")
        # "flux dev at 1024 under 10 seconds per image": the image rate that time allows
        else 1 / query.seconds_per_item
        if query.seconds_per_item and workload == "inference" and model.family == "diffusion"
        else None,
        "images": query.images if model.family == "diffusion" else None,
        "audio_hours": query.audio_hours if model.family == "speech" else None,
        # "train a ViT-B/16 on imagenet in under a week": setups that finish within it
        # (an inference job's copies work apart: how many meet it is said after the pick)
        "max_hours": query.hours
        if _DEADLINE_SAID.search(query.low)
        and (query.images or query.audio_hours or query.train_tokens or query.dataset_samples)
        and not query.seconds_per_item
        and workload != "inference"
        else None,
        # "fine-tune llama 3 8b on aws": the GPUs that cloud rents, at its prices
        "provider": query.provider if not purchase else None,
        # "cheapest per million tokens for serving mistral 7b at high volume": at full load
        "full_load": True
        if _AT_VOLUME.search(query.low)
        and not query.rps
        and workload == "inference"
        and model.family in (None, "llm")
        else None,
        **purchase,
    }
    args.update({k: v for k, v in optional.items() if v is not None})
    if query.together and query.reserved_gb:
        args["max_gpus"] = 1  # every model on the one card
    if "max_hours" in args and "max_gpus" not in args and workload != "inference":
        args["max_gpus"] = MAX_DEADLINE_GPUS  # "pretrain a 7b on 1T tokens in a month": a cluster
    cuda_first = "vendor" not in args and not _OTHER_STACK.search(query.low)
    result = _ranked(box, args, cuda_first)
    if "error" in result:
        return Draft(result["error"])
    top = result["ranked"][0] if result["ranked"] else None
    slow = top is None or (top["speed_unit"] == "tokens/s" and top["speed"] < READING_TOK_S)
    if _one_card_needed(query) and slow and workload == "inference":
        # "what gpu do I need for a 70b at home": no one card runs it at a reading pace (a
        # unified-memory box at 5 tokens/s); two cards, as a home desktop takes
        two = {**args, "max_gpus": HOME_MAX_GPUS}
        wider = _ranked(box, two, cuda_first)
        if "error" not in wider and wider["ranked"]:
            result, args = wider, two
    month = budget.usd if budget and budget.per == "month" and budget.kind != "buy" else None
    over = result["ranked"] and (result["ranked"][0].get("usd_per_month") or 0) > (month or 1e18)
    if over and not purchase and "max_usd_per_hour" not in args and month:
        # "serving llama 3 8b, budget 2k/month": the best pick rented around the clock within it
        per_month = {**args, "max_usd_per_hour": month / HOURS_PER_MONTH}
        within = _ranked(box, per_month, cuda_first)
        if "error" not in within and within["ranked"]:
            result, args = within, per_month
    outside = None
    if cuda_first:  # the best of the other vendors, said after the CUDA pick
        every = box.call("recommend_gpus", args)
        if "error" not in every and every["ranked"] and not result["ranked"]:
            result, every = every, {"ranked": []}  # nothing with CUDA holds it
        outside = _outside_cuda(box, every, result)
    capped = "max_usd_per_hour" in args or "max_usd_per_job" in args
    lighter = ""
    if not result["ranked"] and capped and "precision" not in args and workload == "inference" \
            and (model.family or "llm") == "llm":  # fmt: skip
        # "405B for a weekend on $500": 16 bits is over it; 4-bit weights need fewer GPUs
        four = box.call("recommend_gpus", {**args, "precision": "awq"})
        if "error" not in four and four["ranked"]:
            result = four
            lighter = "Nothing within the budget in 16 bits; in 4-bit (AWQ) weights:\n\n"
    from advisor.calculator import FAMILIES

    family = FAMILIES.get(model.family or "llm", FAMILIES["llm"])
    job = f"{model.text} ({family.workload_label(workload)})"
    users = query.concurrency or 0
    best = result["ranked"][0] if result["ranked"] else {}
    if users > 1 and not query.batch and not query.rps and best.get("speed_each"):
        # "for ~50 internal users": each setup sized and ranked with them all decoding at once
        each = c.num(best["speed_each"], best["speed_unit"])
        job = (f"{model.text} served to {users:,} users at once ({family.workload_label(workload)}"
               f"; about {each} each on the pick)")  # fmt: skip
    if args.get("provider"):
        job += f" on {args['provider']} (the GPUs it rents, at its prices)"
    text = lighter + c.recommendation(result, job)
    text += _cheaper_in_four_bits(query, box, args, result, cuda_first)
    if (judged := _job_within_budget(query, box, result, model)) is not None:
        text = f"{judged}\n\n{text}"  # "1M SDXL images, $3k of cloud: feasible?"
    if _budget_per_hour(query) and result["ranked"] and query.budget and query.hours:
        pick = result["ranked"][0]  # "$500 for the weekend": the pick's rent over that span
        spent = box.call("rental_cost", {"usd_per_gpu_hour": pick["usd_per_hour"],
                                         "hours": query.hours})  # fmt: skip
        if "error" not in spent:
            where = c.gpus_phrase(pick["num_gpus"], pick["gpu_name"])
            text = (f"**About {c.usd(spent['usd'])} for your {c.num(query.hours, 'hours')} on "
                    f"{where}, within your {c.usd(query.budget.usd)}.**\n\n{text}")  # fmt: skip
    if (more := _the_budget_buys(query, box, result, model, purchase)) is not None:
        text += f"\n\n{more}"  # "$200k for a training cluster": the pick, as many as it buys
    if (daily := _daily_load(query, box, result)) is not None:
        text = f"{daily}\n\n{text}"  # "500 hours of audio a day": cards that keep up
    if (light := _light_load(query, box, result, model)) is not None:
        text = f"{light}\n\nIf you rent: {text}"  # "a hobby bot, 100 messages a day"
    if beaten is not None and result["ranked"]:
        text = _cheaper_than(result, beaten, text, box)
    sized = query.audio_hours or query.images or query.dataset_samples or query.train_tokens
    if query.hours and sized and result["ranked"] and not purchase:
        # "2,000 hours of audio, done in 3 days": as many of the pick as meet the deadline
        pick = result["ranked"][0]
        timed = _gpus_for_deadline(query, box, pick["gpu"], model)
        # the pick alone misses the time said: as many as meet it lead ("in a week on 20B tokens")
        missed = timed is not None and not timed.text.startswith(("**One ", "**one "))
        # (a pick of two that misses the time by years leads with the count that meets it)
        if timed is not None and (missed or (pick["num_gpus"] == 1
                                             and _HOW_MANY_CARDS.search(query.low))):  # fmt: skip
            text = f"{timed.text}\n\n{text}"  # "by end of month, how many gpus": the count leads
        elif timed is not None:
            text += "\n\n" + timed.text
    elif sized and result["ranked"] and HOW_LONG.search(query.low):
        # "which GPU should I rent for it, and how long will it take?": the job on the pick
        pick = result["ranked"][0]
        e = box.call("estimate", estimate_args(query, pick["gpu"], pick["num_gpus"], model))
        if "error" not in e and e["fits"] and e.get("job_hours"):
            text += (f"\n\n**On {c.gpus_phrase(e['num_gpus'], e['gpu_name'])}, the job takes "
                     f"{c.duration_band(e['job_hours'])}** ({c.settings(e)}).")  # fmt: skip
    monthly = result["ranked"][0].get("usd_per_month") if result["ranked"] else None
    pick = result["ranked"][0] if result["ranked"] else {}
    paid = query.monthly_usd
    budget = query.budget
    budget_month = budget.usd if budget and budget.per == "month" and budget.kind != "buy" else None
    if monthly and paid and not purchase and _PAYING_NOW.search(query.low):
        # "our bill on replicate is about $400/mo: would a dedicated GPU be cheaper?"
        cheaper = "Yes" if monthly < paid else "No"
        text = (
            f"**{cheaper}: the pick rented around the clock costs about {c.usd(monthly)} a "
            f"month, against your {c.usd(paid)}.**\n\n{text}"
        )
    elif monthly and budget_month and not purchase:
        # "$20k/month cloud budget to serve a 70b 24/7: is that enough?": the pick's month
        enough = "Yes" if monthly <= budget_month else "No"
        where = c.gpus_phrase(pick.get("total_gpus") or pick["num_gpus"], pick["gpu_name"])
        text = (f"**{enough}: {where} rented around the clock costs about {c.usd(monthly)} a "
                f"month, against your {c.usd(budget_month)}.**\n\n{text}")  # fmt: skip
    elif monthly and _MONTHLY_ASKED.search(query.low) and not purchase and not query.per_day:
        # "what's the monthly bill?": the pick rented around the clock, first (after a day's
        # work kept up with, which leads with its own month; copies of a setup counted whole)
        where = c.gpus_phrase(pick.get("total_gpus") or pick["num_gpus"], pick["gpu_name"])
        text = (f"**About {c.usd(monthly)} a month: {where} rented around the clock.**\n\n"
                f"{text}")  # fmt: skip
    service = _service_bill(query, box) if pick.get("unit") == "USD per job" else None
    if service is not None and pick.get("usd_per_unit"):
        # "a gpu or the openai api at $0.006/min? 1000 hours a month": the job on the pick,
        # rented for its hours, against the service's price for the same work
        what = (f"for this job ({c.num(service['units'])} {service['unit']}s at your "
                f"{c.usd(service['usd_per_unit'])} per {service['unit']})")  # fmt: skip
        text = c.against_service(pick["usd_per_unit"], service["usd"], what) + "\n\n" + text
    if result["ranked"] and _WHICH_CLOUD.search(query.low) and not args.get("provider"):
        # "... and on which provider": the clouds that rent the pick for least
        offers = cheapest_offers(box.call("prices", {"gpu": pick["gpu"]}))
        if offers:
            text += (f"\n\nWho rents the {pick['gpu_name']} for least (current offers per "
                     "GPU-hour): " + "; ".join(f"{p['provider']} {c.usd(p['usd_per_gpu_hour'])}"
                                              for p in offers) + ".")  # fmt: skip
    if pick and (stack := c.stack_note(box.call("gpu_specs", {"gpu": pick["gpu"]}))):
        text += f"\n\nThe pick is no CUDA card. {stack}."  # the software it runs
    if outside:
        text += f"\n\n{outside}"
    if four_bits:
        text += (
            "\n\nSized in 4-bit (AWQ), the least memory it is commonly served in; say bf16 "
            "or fp8 for those (their weights are about four and two times as large)."
        )
    return Draft(text)


# the least that runs it at all: "minimum hardware to run it at all", "bare minimum"
_AT_ALL = re.compile(
    r"\b(?:minimum|minimal|min|least)\b[^.?!]{0,40}\b(?:at all|even run|even load)\b"
    r"|\bbare minimum\b|\bat the very least\b"
)


# a power limit for the machine, not each card: "600 W for the whole box", "a 2 kW circuit"
SUPPLY_SAID = re.compile(r"\bpsu\b|\bpower ?suppl(?:y|ies)\b")  # the machine's power supply
# the supply a machine runs on: a PSU, or what powers it off the grid
OWN_SUPPLY = re.compile(SUPPLY_SAID.pattern + rf"|\b(?:{OFF_GRID})\b")


def supply_watts(low: str) -> float | None:
    """The watts said of the supply itself ("my psu is 650w", "300W of solar", "a 1000 W power
    supply"), not another figure said first ("under 250w per card, i have a 1000w psu")."""
    supply = f"(?:{OWN_SUPPLY.pattern})"
    m = re.search(rf"(\d[\d,]*(?:\.\d+)?)\s?(k)?\s?(?:w|watts?)\b\s(?:of\s)?(?:\w+\s)?{supply}"
                  rf"|{supply}[^.?!\d]{{0,25}}?(\d[\d,]*(?:\.\d+)?)\s?(k)?\s?(?:w|watts?)\b",
                  low)  # fmt: skip
    if m is None:
        return None
    value, kilo = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return float(value.replace(",", "")) * (1000 if kilo else 1)


_WHOLE_BOX = re.compile(
    r"\b(?:total|whole|entire|all together|combined|circuit|outlet|breaker|rack|box|rig|build"
    r"|system|solar|inverter|battery|generator|off[- ]grid)\b|" + SUPPLY_SAID.pattern
)


# words that open the choice beyond NVIDIA's CUDA cards: another vendor or its software named
_OTHER_STACK = re.compile(
    r"\b(?:amd|radeon|rocm|instinct|mi\d{3}\w*|intel|arc|gaudi|apple|macs?|macbook\w*|m[1-5]"
    r"|any vendor|non[- ]?nvidia|cuda or not)\b"
)


def _outside_cuda(box: ToolBox, every: dict[str, Any], cuda: dict[str, Any]) -> str | None:
    """The ranking over every vendor led by a card without CUDA: that card, said after the CUDA
    pick as the alternative it is (another software stack), with its figures."""
    if not every.get("ranked") or not cuda.get("ranked"):
        return None
    top = every["ranked"][0]
    if top["gpu"] in {r["gpu"] for r in cuda["ranked"]}:
        return None
    sheet = box.call("gpu_specs", {"gpu": top["gpu"]})
    stack = c.stack_note(sheet) if "error" not in sheet else None
    if not stack:
        return None
    price = ""
    if top.get("purchase_usd"):
        price = f" ({c.usd(top['purchase_usd'])} to buy)"
    elif top.get("usd_per_hour"):
        price = f" ({c.usd(top['usd_per_hour'])}/hour)"
    where = c.gpus_phrase(top["num_gpus"], top["gpu_name"])
    # its speed is the datasheet's: no measurement calibrates ROCm, oneAPI or Metal as CUDA's
    return (
        f"Outside CUDA, {where} would rank first on datasheet figures{price}; the pick above "
        f"is a CUDA card, as most ML software assumes. {stack}."
    )


def _job_within_budget(
    query: Query, box: ToolBox, result: dict[str, Any], model: ModelRef
) -> str | None:
    """ "1 million SDXL images, $3k of cloud: feasible?": the whole job's rent on the pick
    against the total to spend, and its wall time there (several cards in parallel share it)."""
    budget = query.budget
    pick = result["ranked"][0] if result.get("ranked") else None
    if not (pick and budget and budget.kind == "rent" and budget.per == "total" and not query.hours
            and pick.get("unit") == "USD per job" and pick.get("usd_per_unit") is not None
            and not pick.get("one_epoch")):  # fmt: skip
        return None
    spent, where = pick["usd_per_unit"], c.gpus_phrase(pick["num_gpus"], pick["gpu_name"])
    within = spent <= budget.usd
    e = box.call("estimate", estimate_args(query, pick["gpu"], pick["num_gpus"], model))
    hours = (e.get("job_hours") or {}).get("typical") if "error" not in e else None
    wall = (f"; {c.duration(hours)} of wall time there, shorter on several in parallel for the "
            "same rent" if hours else "")  # fmt: skip
    return (
        f"**{'Yes' if within else 'No'}: about {c.usd(spent)} for the whole job on {where}, "
        f"{'within' if within else 'over'} your {c.usd(budget.usd)}{wall}.**"
    )


# the cloud to rent from, asked: "on which provider", "what cloud should we use"
_WHICH_CLOUD = re.compile(r"\b(?:which|what|best|cheapest) (?:cloud|provider|host)s?\b")


# what the user pays today, not a limit: "our bill on replicate is $400/mo", "we spend 2k a month"
_PAYING_NOW = re.compile(
    r"\b(?:bill|invoice|paying|(?:we|i) pay|spend\w*|spent|costs? (?:us|me)|currently)\b"
)
# a load this small a share of one copy's rate leaves a rented card idle nearly all the time;
# the CPU alone serves it when the model fits a usual computer's RAM at a pace a reply can wait
# for (a 256-token reply in under a minute)
LIGHT_LOAD_SHARE = 0.05
LIGHT_LOAD_RAM_GB = 16.0
LIGHT_LOAD_MIN_TOKENS_PER_S = 5.0
# a reply's time or a speed wanted: "each answer in under 2 seconds", "fast replies"
_PACE_WANTED = re.compile(
    r"\b(?:under|below|within|less than|at most)\s\d[\d.]*\s?(?:s|sec\w*|ms|minutes?)\b"
    r"|\blatency\b|\bfast\b|\bquick\w*\b|\bsnappy\b|\breal[- ]?time\b|\btok\w*/s\b"
)


def _budget_per_hour(query: Query) -> float | None:
    """A total budget for a span of use with no job to size ("$500 for a weekend hackathon"):
    the rent an hour it allows over that span."""
    budget, sized = query.budget, query.train_tokens or query.images or query.audio_hours
    if not (budget and budget.per == "total" and budget.kind != "buy" and query.hours):
        return None
    if sized or query.dataset_samples or query.buying:
        return None  # a job's budget: the cost of the job decides, not an hour's rent
    return budget.usd / query.hours


def _pretraining_default(workload: str, model: ModelRef) -> int | None:
    """Pre-training ranked at a useful batch, not at one sequence a step of overhead."""
    return PRETRAIN_MIN_BATCH if workload == "train" and (model.family or "llm") == "llm" else None


def _light_load(query: Query, box: ToolBox, result: dict[str, Any], model: ModelRef) -> str | None:
    """A serving load far below what one copy serves ("a discord bot, 100 messages a day"):
    the model in 4 bits on the CPU alone, when it keeps up, before any rented card."""
    ranked = result.get("ranked") or []
    if not (query.rps and ranked and ranked[0].get("load_tokens_per_s")):
        return None
    if _PACE_WANTED.search(query.low) or query.concurrency or query.buying:
        return None  # a reply's time, many at once, or a card to buy: the CPU's pace is no answer
    best = ranked[0]
    if best["load_tokens_per_s"] > LIGHT_LOAD_SHARE * best["serving_tokens_per_s"]:
        return None
    args = {**estimate_args(query, CPU, None, model), "precision": "q4_k_m", "engine": "llama.cpp"}
    cpu = box.call("estimate", {k: v for k, v in args.items() if k not in ("batch", "concurrency")})
    if "error" in cpu or not cpu["fits"] or not cpu.get("decode_tokens_per_s"):
        return None
    pace = cpu["decode_tokens_per_s"]["typical"]
    if pace < max(2 * best["load_tokens_per_s"], LIGHT_LOAD_MIN_TOKENS_PER_S):
        return None
    if cpu["memory_per_gpu_gb"] > LIGHT_LOAD_RAM_GB:
        return None  # a 70B in 4 bits wants 40+ GB of RAM: no computer one already has
    monthly = best.get("usd_per_month")
    load = c.num(best["load_tokens_per_s"], "tokens/s")
    rent = f"; the pick below rented around the clock costs about {c.usd(monthly)} a month" if (
        monthly) else ""  # fmt: skip
    return (
        f"**No rented GPU needed for a load this light ({load} of output on average): the CPU "
        f"alone runs {cpu['model_name']} in 4 bits "
        f"({cpu['precision']}, llama.cpp) at about {c.num(pace, 'tokens/s')} in "
        f"{c.num(cpu['memory_per_gpu_gb'], 'GB')} of RAM**, so a computer you already have can "
        f"serve it (each reply takes longer than on a GPU){rent}."
    )


def cheapest_offers(priced: dict[str, Any], most: int = 3) -> list[dict[str, Any]]:
    """Each provider's lowest current price of a `prices` result, the cheapest `most` of them."""
    cheapest: dict[str, dict[str, Any]] = {}
    for p in sorted(priced.get("prices") or [], key=lambda p: p["usd_per_gpu_hour"]):
        if p.get("latest"):
            cheapest.setdefault(p["provider"], p)
    return list(cheapest.values())[:most]


def _cheaper_rental(query: Query, box: ToolBox) -> Draft | None:
    """A card's cheapest current offers, and the cards with as much memory that rent for less
    at their median: "cheaper option?" after a rental price, no job named to size."""
    gpu = gpu_choices(query.gpus[0])[0]
    count = query.gpus[0].count or 1
    hours = query.hours or 1
    priced = box.call("prices", {"gpu": gpu, "num_gpus": count, "hours": hours})
    summary = priced.get("summary_usd_per_gpu_hour") if "error" not in priced else None
    if not summary:
        return None
    offers = cheapest_offers(priced)
    job = f" for {c.num(hours, 'hours')}" if query.hours else " an hour"
    what = priced["gpu_name"] if count == 1 else f"{count} x {priced['gpu_name']}"
    rent = priced.get("rental_usd") or {}  # the tool's cost of the count for the hours
    lead = f"The same {what} for less: from" if query.follow_up else f"{what}: from"
    # the on-demand offer the low figure is (its provider named), spot offers listed apart
    steady = [p for p in priced.get("prices") or [] if p.get("latest")
              and "spot" not in str(p.get("offering") or "")]  # fmt: skip
    least = min(steady, key=lambda p: p["usd_per_gpu_hour"]) if steady else None
    whose = (
        f" ({least['provider']}, {least['date']})"
        if least
        and abs(least["usd_per_gpu_hour"] * count * hours - rent["low"]) <= 0.01 * rent["low"]
        else ""
    )
    lines = [f"**{lead} {c.usd(rent['low'])}{job}** "
             f"at its cheapest current on-demand offer{whose}, against {c.usd(rent['median'])} "
             "at the median; the cheapest offer of each provider:"]  # fmt: skip
    lines += [f"- {p['provider']} ({p.get('offering') or 'on-demand'}, {p['date']}): "
              f"{c.usd(p['usd_per_gpu_hour'])} per GPU-hour" for p in offers]  # fmt: skip
    if any("spot" in str(p.get("offering")) for p in offers):
        lines.append("Spot capacity is cheapest but can be taken back mid-run: checkpoint often.")
    sheet = box.call("gpu_specs", {"gpu": gpu})
    # the most rented cards of at least its memory (a rarely rented card has no median to trust)
    listed = box.call("list_gpus", {"min_memory_gb": sheet.get("memory_gb") or 0, "top": 40})
    others = []
    for row in listed.get("gpus", []):
        if row["id"] == gpu:
            continue
        other = box.call("prices", {"gpu": row["id"], "hours": hours, "num_gpus": count})
        median = (other.get("summary_usd_per_gpu_hour") or {}).get("median")
        if median and median < summary["median"]:
            others.append((median, row, (other.get("rental_usd") or {}).get("median")))
    others.sort(key=lambda m: m[0])
    if others:
        lines += ["", f"Other cards with at least its {c.num(sheet['memory_gb'], 'GB')} that rent "
                  "for less at their median:"]  # fmt: skip
        lines += [f"- {row['name']}: {c.usd(median)} per GPU-hour"
                  + (f", {c.usd(total)}{job}" if query.hours and total else "")
                  for median, row, total in others[:3]]  # fmt: skip
        lines.append("A different card runs at its own speed: name the job to compare the time.")
    return Draft("\n".join(lines))


WORKDAYS_A_MONTH = 365.25 * 5 / 7 / 12  # 21.7


# one stream's speed asked: "100 tok/s single-stream for one user"
_ONE_STREAM = re.compile(
    r"\bsingle[- ]?(?:stream|user|request|sequence)\b|\bone (?:user|stream)\b"
    r"|\bper (?:user|stream)\b|\bbatch (?:size )?1\b|\blatency\b"
)


# users at once: "8 users hitting it", "300 concurrent users", "50 devs"
_USERS_SAID = re.compile(
    r"(?<![\d.,])(\d[\d,]*)\s+(?:concurrent\s+|simultaneous\s+|active\s+|parallel\s+)?"
    r"(?:users|people|devs|developers|customers|clients|streams|sessions|requests)\b"
)
# a rate said of each user: "22 tok/s per user", "keep 20 tok/s each"
_EACH_RATE = (
    r"\s?(?:tok(?:en)?s?/s|t/s|tokens? (?:per|a) second)\s+"
    r"(?:per (?:user|person|stream|request)|each)\b"
)


def _users_said(low: str) -> list[int]:
    """The counts of users at once the words give, in order ("8 users ... 50 users")."""
    return [int(m.group(1).replace(",", "")) for m in _USERS_SAID.finditer(low)]


def _per_user_rates(query: Query) -> tuple[float, float, str] | None:
    """The totals a card must serve when the user gives rates per user ("22 tok/s per user with
    8 users; 50 users at 20 tok/s each"): (the measured card's total, the total needed, how);
    None unless users at once and a rate per user are said."""
    low = query.low
    counts = _users_said(low)
    measured, needed = query.throughput_tok_s, query.needed_tok_s
    if not counts or not measured:
        return None
    rates = [
        float(r) for r in re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:tok(?:en)?s?/s|t/s)\b", low)
    ]
    if needed is None and len(rates) >= 2 and rates[0] == measured:
        needed = rates[-1]  # "4 users at 30 tok/s each; for 40 users at 15 tok/s each"

    def each(rate: float | None) -> bool:
        return rate is not None and bool(re.search(rf"(?<![\d.]){rate:g}{_EACH_RATE}", low))

    if not (each(measured) or each(needed)):
        return None
    now, later = (counts[0], counts[-1]) if len(counts) > 1 else (None, counts[0])
    if each(measured) and now is None:
        return None  # "22 tok/s per user" with no count of the users it was measured with
    total = measured * now if each(measured) and now else measured
    wanted = needed if needed else (measured if each(measured) else None)
    if wanted is None:
        return None
    need_total = wanted * later if (each(needed) or not needed) else wanted
    how = (f"{c.num(total, 'tokens/s')} a card from your {c.num(measured, 'tokens/s')}"
           f"{f' x {now} users' if each(measured) and now else ''}; "
           f"{c.num(need_total, 'tokens/s')} needed for {later} users at "
           f"{c.num(wanted, 'tokens/s')} each")  # fmt: skip
    return total, need_total, how


# paces per user for the table when the user says none: a spread to choose from, not a claim
_READING_PACES = (10.0, 20.0, 30.0)


def _paces_for_users(query: Query, box: ToolBox) -> Draft | None:
    """A card's total rate the user measured and users at once to serve, no pace per user said
    ("1,200 tok/s aggregate on one A100: how many A100s for 300 concurrent users?"): the cards
    at a few paces a user may be served at, the user's measurement used as given."""
    low = query.low
    counts = _users_said(low)
    measured = query.throughput_tok_s
    if (len(counts) != 1 or not measured or query.needed_tok_s or not _MEASURED.search(low)
            or re.search(rf"(?<![\d.]){measured:g}{_EACH_RATE}", low)
            or EACH_USERS_RATE.search(low)):  # fmt: skip
        return None  # ("each wants ~20 tok/s": the pace asked, not a card's total measured)
    ref = query.gpus[0]
    per_card = measured / (ref.count or 1)
    users = counts[0]
    name = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}).get("name", ref.text)
    plans = []
    for pace in _READING_PACES:
        plan = box.call("cards_for_rate", {"per_card": per_card, "needed": pace * users})
        if "error" in plan:
            return None
        plans.append((pace, plan["cards"]))
    each = ", ".join(f"{c.gpus_phrase(n, name)} at {c.num(pace, 'tokens/s')} each"
                     for pace, n in plans)  # fmt: skip
    return Draft(
        f"**For {users} users at once, at your {c.num(per_card, 'tokens/s')} a card: {each}** "
        f"(each user's pace times {users}, over your measured total; say the pace you need).\n\n"
        "That holds with copies of the model behind a load balancer, at the prompt and reply "
        "lengths of your measurement; a card serving more users at once than when you measured "
        "delivers more in all, so these counts are an upper bound."
    )


# users asked of a setup: "how many users can it serve", "how many people at once"
_USERS_ASKED = re.compile(r"\bhow many (?:concurrent |simultaneous |parallel )?(?:users|people"
                          r"|clients|chats|sessions|streams)\b")  # fmt: skip
_EACH_PACE = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:tok(?:en)?s?/s|t/s|tokens? (?:per|a) sec(?:ond)?)\s?"
    r"(?:each|apiece|per (?:user|person|stream|head))\b"
)


def _users_at_your_total(query: Query, box: ToolBox) -> Draft | None:
    """A total the user measured on their setup and a pace each user gets ("2x L40S do about
    1800 tok/s aggregate on llama 8b: how many users at 30 tok/s each?"): the users are the
    total over the pace, the user's figure used as given."""
    each = _EACH_PACE.search(query.low)
    total = query.throughput_tok_s
    if not (each and total and _USERS_ASKED.search(query.low)) or float(each.group(1)) >= total:
        return None
    pace = float(each.group(1))
    plan = box.call("users_at_pace", {"total_per_s": total, "each_per_s": pace})
    if "error" in plan:
        return None
    ref = query.gpus[0] if query.gpus else None
    where = (f" on {ref.count} x {_said(ref)}" if ref and (ref.count or 1) > 1
             else f" on the {_said(ref)}" if ref else "")  # fmt: skip
    return Draft(
        f"**About {c.num(plan['users'])} users at once at {c.num(pace, 'tokens/s')} each: your "
        f"measured {c.num(total, 'tokens/s')}{where} over each user's pace; "
        f"{c.num(plan['users_with_headroom'])} with 20% kept for bursts.**\n\n"
        "That holds at the prompt and reply lengths you measured with; an engine that batches "
        "more users at once (vLLM) often delivers more in all, so this is a floor, not a ceiling."
    )


def _cards_for_your_rate(query: Query, box: ToolBox) -> Draft | None:
    """A rate the user measured on their card and a rate they need ("we measured 1,800 tok/s
    on one A10G; we need 25k tok/s peak: how many?"): the cards are the needed rate over the
    measured one, the user's figure used as given (it holds their engine, batch and lengths,
    which the calculator's own figure would not)."""
    if query.target not in (None, "min_gpus") or len(query.gpus) != 1:
        return None
    if (paces := _paces_for_users(query, box)) is not None:
        return paces  # "1,200 tok/s aggregate on one a100: how many for 300 users?"
    users = _per_user_rates(query)
    if users is not None:
        query = replace(query, throughput_tok_s=users[0], needed_tok_s=users[1])
    elif _ONE_STREAM.search(query.low):
        return None  # one stream's speed: more copies do not make it faster
    if not (query.needed_tok_s and query.throughput_tok_s and _MEASURED.search(query.low)):
        return None
    ref = query.gpus[0]
    gpu = gpu_choices(ref)[0]
    # a model one card holds: the rate shared by the cards measured; else each copy spans them
    one = box.call("estimate", estimate_args(query, gpu, None, query.models[0])) if (
        query.models) else {}  # fmt: skip
    per_copy = 1 if ref.count is None or one.get("fits", True) else ref.count
    measured, needed = query.throughput_tok_s / ((ref.count or 1) // per_copy), query.needed_tok_s
    if needed <= measured:
        return None
    plan = box.call("cards_for_rate", {"per_card": measured, "needed": needed})
    if "error" in plan:
        return None
    name = box.call("gpu_specs", {"gpu": gpu}).get("name", ref.text)
    if per_copy > 1:
        setup = f"copies of {c.gpus_phrase(per_copy, name)}"
        head = (
            f"**{plan['cards']} {setup} ({plan['cards'] * per_copy} cards) at full load, "
            f"{plan['cards_with_headroom']} copies to keep each at "
            f"{c.num(plan['load'] * 100)}% of its rate**: your {c.num(needed, 'tokens/s')} "
            f"needed over your {c.num(measured, 'tokens/s')} a copy, as you measured it."
        )
    else:
        head = (
            f"**{c.gpus_phrase(plan['cards'], name)} at full load, "
            f"{c.num(plan['cards_with_headroom'])} to keep each at "
            f"{c.num(plan['load'] * 100)}% of its rate**: your {c.num(needed, 'tokens/s')} "
            f"needed over your {c.num(measured, 'tokens/s')} a card, as you measured it."
        )
    if users is not None:  # how the users' rates became the cards' totals
        head = (f"{head[:-1]} ({users[2]}). Measured with fewer users at once than you plan, a "
                "card serving more at once delivers more in all: an upper bound.")  # fmt: skip
    return Draft(
        f"{head}\n\n"
        "That holds when the load is spread over copies of the model behind a load balancer, at "
        "the batch, prompt and reply lengths of your measurement: longer prompts or replies, or "
        "fewer requests at a time, lower what one copy does; no copy makes one stream faster."
    )


def _cards_afforded(query: Query, box: ToolBox) -> Draft | None:
    """How many of a card a budget pays for, no job named: a monthly budget over the month's
    hours of use (those said a day, on weekdays if said; around the clock if none) at its
    median rental price, or a budget to spend once over its purchase price."""
    budget = query.budget
    if not (budget and budget.per in ("month", "total") and len(query.gpus) == 1
            and not query.models):  # fmt: skip
        return None
    said = re.escape(query.gpus[0].text.lower())
    if query.user_price_usd_per_hour or not re.search(
        rf"\bhow many (?:more |x )?{said}(?!s?[- ](?:gpu[- ])?(?:hours?|hrs?)\b)"
        rf"|{said}s?\b[^.?!]{{0,30}}\bhow many\b(?! (?:hours|days|tokens|images))",
        query.low,
    ):
        return None  # "how many A100s", not "how many tokens per second on the A100"
    gpu = gpu_choices(query.gpus[0])[0]
    bought = re.search(r"\bbuy\w*|\bpurchas\w*", query.low) and not _RENT_SAID.search(query.low)
    buying = budget.kind == "buy" or (budget.per == "total" and (query.buying or bool(bought)))
    if buying:
        store = box.call("purchase_prices", {"gpu": gpu})
        listed = store.get("prices") or []
        kinds = [p for p in listed if p["kind"] == (query.condition or "new")] or listed
        if not kinds:
            return None
        each = kinds[0]
        n = int(budget.usd // each["usd"])
        if n == 0:
            return Draft(
                f"**Not one: the {store['gpu_name']} costs {c.usd(each['usd'])}** "
                f"({each['kind']}, {each['date']}), over your {c.usd(budget.usd)}."
            )
        return Draft(f"**{c.num(n)} x {store['gpu_name']}** for your {c.usd(budget.usd)}, at "
                     f"{c.usd(each['usd'])} each ({each['kind']}, {each['date']}, "
                     f"{each['source']}); the host machines, power and networking come on "
                     "top.")  # fmt: skip
    if budget.per != "month" or bought:
        return None
    # (the hours a day are an average over every day: on weekdays, five days' hours in seven)
    weekdays = bool(query.use_hours_per_day and WEEKDAYS.search(query.low))
    daily = (query.use_hours_per_day or 0) * (7 / 5 if weekdays else 1) or None
    days = WORKDAYS_A_MONTH if weekdays else HOURS_PER_MONTH / 24
    hours = daily * days if daily else HOURS_PER_MONTH
    priced = box.call("prices", {"gpu": gpu, "hours": hours})
    summary = priced.get("summary_usd_per_gpu_hour") if "error" not in priced else None
    if not summary:
        return None
    n = int(budget.usd // (summary["median"] * hours))
    most = int(budget.usd // (summary["low"] * hours))
    if n == 0:
        return Draft(f"**Not one {priced['gpu_name']} at the median price**: "
                     f"{c.usd(summary['median'] * hours)} a card for {c.num(hours)} hours a month "
                     f"at {c.usd(summary['median'])} per GPU-hour, over your "
                     f"{c.usd(budget.usd)}; the cheapest current offer, "
                     f"{c.usd(summary['low'])}, pays for {c.num(most)}.")  # fmt: skip
    use = (f"{c.num(daily)} hours a day on {c.num(days)} "
           f"{'weekdays' if days == WORKDAYS_A_MONTH else 'days'} a month" if daily else
           "around the clock" + ("" if NONSTOP.search(query.low) else
                                  " (say your hours a day if fewer)"))  # fmt: skip
    return Draft(
        f"**About {c.num(n)} x {priced['gpu_name']}** for {c.usd(budget.usd)} a month, used "
        f"{use}: {c.num(hours)} hours each at the median {c.usd(summary['median'])} per "
        f"GPU-hour ({c.usd(summary['median'] * hours)} a card a month; {priced['count']} "
        f"current prices). At the cheapest current offer, {c.usd(summary['low'])}, it pays for "
        f"up to {c.num(most)}."
    )


def _cheaper_than(result: dict[str, Any], beaten: GpuRef, text: str, box: ToolBox) -> str:
    """ "cheaper option?" after a pick: the ranking by price, led by whether anything beats it;
    when nothing does, what the pick costs at its cheapest current offer."""
    best = result["ranked"][0]
    same = best["gpu"] in beaten.ids and best["num_gpus"] == (beaten.count or 1)
    if not same:
        return text
    setup = c.gpus_phrase(best["num_gpus"], best["gpu_name"])
    priced = box.call("prices", {"gpu": best["gpu"], "num_gpus": best["num_gpus"], "hours": 1})
    summary = priced.get("summary_usd_per_gpu_hour") or {}
    low, median = summary.get("low"), summary.get("median")
    offer = (f" At its cheapest current offer, {c.usd(low)} per GPU-hour against the median "
             f"{c.usd(median)}, it costs {c.num(low / median * 100)}% as much."
             if low and median and low < median and "error" not in priced else "")  # fmt: skip
    lead = (
        f"**Nothing cheaper fits: {setup} is already the lowest-priced setup for this job** "
        f"at median prices.{offer} The next cheapest:"
    )
    per_unit, hourly = best.get("usd_per_unit"), best.get("usd_per_hour")
    by_hour = [r for r in result["ranked"][1:]
               if hourly and r.get("usd_per_hour") and r["usd_per_hour"] < hourly]  # fmt: skip
    if per_unit and best.get("unit", "").startswith("USD "):
        # "ok cheaper?" after a pick ranked on the work's cost: it is the least for the work
        # (a card cheaper by the hour is slower, and the same work costs more on it)
        unit = best["unit"].removeprefix("USD ")
        slower = ""
        if by_hour:
            slow = by_hour[0]
            more = f" ({c.usd(slow['usd_per_unit'])} {unit})" if slow.get("usd_per_unit") else ""
            slower = (f" Cheaper by the hour, {c.gpus_phrase(slow['num_gpus'], slow['gpu_name'])} "
                      f"at {c.usd(slow['usd_per_hour'])}/hour is slower, so the same work costs "
                      f"more on it{more}.")  # fmt: skip
        lead = (
            f"**Nothing does this work for less: {setup} is already the lowest cost "
            f"{unit}** at median prices ({c.usd(per_unit)}).{offer}{slower} The next cheapest "
            "for the work:"
        )
    rest = text.split("\n\n", 1)[1] if "\n\n" in text else ""
    return f"{lead}\n\n{rest}"


# a language model said in so many words ("LLM training", "pretraining a GPT")
_LLM_SAID = re.compile(r"\bllms?\b|\blanguage models?\b|\bgpt\b|\bllama\b|\btokens?\b")
# a server's load, unsized: its GPUs ranked by what they serve at full load
_AT_VOLUME = re.compile(
    r"\b(?:high|large|big|heavy|massive) (?:volume|throughput|traffic|load)\b|\bat scale\b"
    r"|\bin bulk\b|\bbatch (?:inference|processing|jobs?)\b|\bmax(?:imum)? throughput\b"
    r"|\boffline (?:inference|batch)\b|\bthroughput[- ]oriented\b"
    r"|\b(?:decent|good|solid|reasonable|plenty of|lots of) (?:throughput|volume)\b"
)
_MONTHLY_ASKED = re.compile(
    r"\bmonthly\b|\b(?:per|/) ?mo(?:nth)?\b|\b(?:bill|cost|costs|spend|pay|price)\b[^.?!]{0,20}"
    r"\b(?:a|each|every) month\b"
)


def buy(query: Query, box: ToolBox) -> Draft:
    """What to buy: dated purchase prices of the GPUs named (with the fit when a model is
    named), or the GPUs a purchase budget buys that run the job; rent-or-buy when a rental price
    is also given."""
    if query.user_price_usd_per_hour or (query.monthly_usd and query.purchase_usd):
        return rent_or_buy(query, box)
    if not query.gpus and not query.models and _MEMORY_PER_DOLLAR.search(query.low):
        return recommend(query, box)  # "cheapest GB of VRAM, used ok": the price of each GB
    condition = query.condition or "new"
    if _LAUNCH_ASKED.search(query.low) and not _STREET_ASKED.search(query.low):
        condition = "msrp"  # "what did the 4090 launch at": its MSRP first (beside a street
        # price asked, "and what's it going for now", the street price leads, the MSRP after)
    if _bought_and_rented(query) and (query.purchase_usd or query.user_price_usd_per_hour):
        return rent_or_buy(query, box)  # "rent an H100 at $2.49/h vs buy a used 3090 for $700"
    if len(query.gpu_purchase_prices) >= 2:  # "used 3090 for $700 or a 4060 Ti for $450"
        to_buy = _priced_choice(query, box, bought=True)
        if to_buy is not None:
            return to_buy
    if query.gpus:
        # "a used 3090 or a new 4070 Ti Super for local LLMs?": the pick for the job (the fit,
        # for one GPU), then what each costs
        parts = []
        # ("is an A6000 worth it, or get 2x 4090 instead?": a choice, weighed like a comparison)
        # ("one says the 5090, another a used A100: which is the right card for FP64?")
        chosen = len(query.gpus) >= 2 and re.search(
            r"\bor\b|\bvs\.?\b|\bversus\b|\binstead\b|\bwhich\b|\banother\b"
            # "is a used 3090 better than a new 4070 ti super for llms": weighed for the work
            r"|\b(?:better|faster|worse|slower)\b[^.?!]{0,40}\bthan\b",
            query.low,
        )
        if len(query.gpus) >= 2 and (query.models or query.workload_given or chosen):
            parts.append(compare(query, box).text)
        elif query.models:
            parts.append(fit(query, box).text)
        # (a comparison whose lead weighed the budget already: no line a card about it)
        weighed = bool(parts) and bool(_BUDGET_WEIGHED.match(parts[0]))
        lead = []
        judged: list[tuple[bool, str]] = []  # (within the budget, the setup at its price) of each
        budget = query.budget
        bought_with = budget and budget.per == "total" and budget.kind in ("buy", None)
        budget_usd = budget.usd if budget and bought_with else 0.0
        hourly = _HOURLY_ALSO.search(query.low)  # "how much per hour and how much to buy one"
        for ref in query.gpus[:MAX_GPUS_PER_ANSWER]:
            args: dict[str, Any] = {"num_gpus": ref.count} if (ref.count or 1) > 1 else {}
            for gpu in gpu_choices(ref)[:2]:
                priced = box.call("purchase_prices", {"gpu": gpu, **args})
                parts.append(c.purchase(priced, condition))
                if hourly:
                    parts.append(c.rental(box.call("prices", {"gpu": gpu})))
                lead += ([] if weighed else _against_budget(query, priced)) or _against_quote(
                    query, priced, condition, box
                )
                price = market_price(priced.get("prices", []), query.condition)
                if price is not None and budget_usd:
                    count = ref.count or 1
                    setup = f"{count} x {priced['gpu_name']}" if count > 1 else priced["gpu_name"]
                    judged.append((price["usd"] * count <= budget_usd,
                                   f"{setup} ({c.usd(price['usd'] * count)} {price['kind']}, "
                                   f"{price['date']})"))  # fmt: skip
        lead += _quote_with_tax(query, box)
        inside = [name for ok, name in judged if ok]
        compared = (
            bool(parts)
            and parts[0].startswith("**Pick the ")
            and not weighed
            and not query.purchase_usd
        )  # (a price paid is no budget: _against_quote)
        if compared and inside and len(inside) < len(judged):
            # "4090 or 3090, which would you buy with $1,200?": the pick among those the budget
            # buys; the comparison's own pick is the one without the budget
            over = ", ".join(name for ok, name in judged if not ok)
            lead.insert(0, f"**Pick the {' or the '.join(inside)}: the {over} is over your "
                           f"{c.usd(budget_usd)}.**")  # fmt: skip
            parts[0] = parts[0].replace("**Pick the ", "**Without the budget, pick the ", 1)
        elif compared and len(judged) >= 2 and not inside:
            each = "; the ".join(name for _ok, name in judged)
            lead.insert(0, f"**None of them is within your {c.usd(budget_usd)}** at the newest "
                           f"prices on record: the {each}.")  # fmt: skip
            parts[0] = parts[0].replace("**Pick the ", "**Without the budget, pick the ", 1)
        if parts and _MORE_THAN_NEEDED.match(parts[0]):
            # "just so ...?": the doubt answered first; a price it shows already is not repeated
            rest = [p for p in [*lead, *parts[1:]] if p.split("\n", 1)[0] not in parts[0]]
            lead, parts = [parts[0]], rest
        return Draft("\n\n".join([*lead, *parts]))
    return _to_buy(query, box)


# the lead of _more_than_needed: the card is more than the job needs
_MORE_THAN_NEEDED = re.compile(r"\*\*(?:No|Yes, overkill): [^*]*far more card than this job needs")


# a comparison's lead that weighed a budget (_within_budget)
_BUDGET_WEIGHED = re.compile(r"\*\*(?:Within your|None of them is within|Pick the [^*]*: the only "
                             r"one of them within)")  # fmt: skip
# an hour's rent asked beside the price to buy: "how much per hour and how much to buy one"
_HOURLY_ALSO = re.compile(r"\b(?:per|an|a|/)\s?(?:hour|hr)\b|\bhourly\b|\bto rent\b")
_RENT_SAID = re.compile(RENT_SAID.pattern + r"|\bjob\b")  # "for the job": a job is rented
# a card's own price capped, no renting said: "best gpu for stable diffusion under $500"
_CARD_UNDER = re.compile(
    r"\b(?:gpus?|cards?)\b(?:[^.?!]|\.\d){0,40}?\b(?:under|below|less than|for|within|up to"
    r"|with)\s?"
    r"(?:\$\s?\d|(?:eur|gbp)\s?\d|\d[\d,.]*\s?k?\s?(?:usd|dollars?|bucks|€|eur\w*)\b)"
    # "welche GPU für llama 3 8b, Budget 500 €", "which card? budget is about $700"
    # "budget 500k yen, which gpu for qwen2.5 32b": the budget first, the card asked after
    r"|\bbudget\b[^.?!]{0,30}\b(?:which|what|best|good)\s(?:gpu|card|graphics card)s?\b"
    r"|\b(?:gpus?|cards?)\b(?:[^.!]|\.\d){0,60}?\bbudget\b:?\s"
    r"(?:of |is |around |about |~ ?|max(?:imum)?\.? |up to |under |at most |tops )*"
    r"(?:\$\s?\d|(?:eur|gbp)\s?\d|\d[\d,.]*\s?k?\s?(?:usd|dollars?|bucks|€|eur\w*|£)?(?![\w/%]))"
)
CHEAPEST_CARD_USD = 150  # a cap below any card's price is a job's or a month's budget


def _bought(query: Query) -> bool:
    """The card is to be bought: said ("which should I buy"), or a budget to buy with, or a
    card's price capped with no rent said ("best gpu for stable diffusion under $500")."""
    budget = query.budget
    low = query.low
    capped = bool(budget and budget.kind is None and budget.per == "total"
                  and budget.usd >= CHEAPEST_CARD_USD
                  and _CARD_UNDER.search(low) and not _RENT_SAID.search(low)
                  and not re.search(r"\bfine-?tun\w*|\btrain\w*|\bjob\b", low))  # fmt: skip
    # "best GPU to run llama 3 70b locally", "for my home lab": a card to own, no rent said
    local = query.location == "home" and not _RENT_SAID.search(low) and not _SERVED.search(low)
    # "what hardware to run deepseek r1? budget around $10k": a sum with no hour, month or job
    # to spend it over is spent on hardware
    spent = bool(budget and budget.kind is None and budget.per == "total"
                 and budget.usd >= CHEAPEST_CARD_USD and query.hours is None
                 and (query.workload or "inference") == "inference" and not query.gpus
                 and not _RENT_SAID.search(low)
                 # ("the best setup for mixtral for 10 users, 10k budget": a machine to serve)
                 and (not _SERVED.search(low) or re.search(
                     r"\b(?:setup|rig|build|box|machine|workstation|hardware)\b", low))
                 )  # fmt: skip
    # "a good gpu for a small research lab, budget 15k": cards for a place of one's own
    owned_place = bool(budget and budget.kind is None and budget.per == "total"
                       and budget.usd >= CHEAPEST_CARD_USD and query.hours is None
                       and not query.gpus and not _RENT_SAID.search(low) and not query.providers
                       and not re.search(r"\bcloud\b|\bcredits?\b|\binstances?\b", low)
                       and re.search(r"\b(?:lab|office|on-?prem\w*|in-?house|server room"
                                     r"|workstation)\b", low))  # fmt: skip
    # "which would you get with $4,500 to spend": a card to own, at that price
    asked = bool(
        budget
        and budget.per == "total"
        and not _RENT_SAID.search(low)
        and re.search(r"\b(?:which|what) (?:would|should) (?:you|i|we) (?:buy|get)\b", low)
    )
    # "which graphics card to train YOLO on my dataset, budget 800 euros?": a card asked for,
    # with a card's price as the budget and no rent said (a bigger sum for a job is compute)
    card_priced = bool(
        budget and budget.kind is None and budget.per == "total"
        and CHEAPEST_CARD_USD <= budget.usd <= CARD_PRICED_BUDGET_USD
        and not _RENT_SAID.search(low) and not query.gpus
        and re.search(r"\b(?:which|what|best|recommend\w*)\b[^.?!]{0,30}\b(?:graphics card|gpu"
                      r"|card)s?\b"
                      # "recommend something for training GANs, single card, under 1000"
                      r"|\b(?:single|one) (?:gpu|card)\b(?! (?:instance|node|server|vm)\b)", low)
    )  # fmt: skip
    # "which mac for llama 70b": a Mac is a machine one owns (no cloud rents it by the hour here)
    mac = query.vendor == "Apple" and not _RENT_SAID.search(low)
    # "best gpu under $500?" then "what about used?": a second-hand card is one bought
    used = query.condition == "used" and not _RENT_SAID.search(low)
    # "data can't leave premises", "on-prem only": hardware of one's own, bought
    onprem = (
        query.location == "datacenter"
        and bool(re.search(ON_PREMISES, low))
        and not _RENT_SAID.search(low)
        and not query.providers
    )
    return query.buying or used or onprem or bool(budget and budget.kind == "buy") or (
        capped or local or spent or asked or card_priced or owned_place or mac)  # fmt: skip


# the most a budget said beside a card asked for is read as the card's price (above it, a sum
# for a training job is spent on rented compute): a high-end desktop card's price
CARD_PRICED_BUDGET_USD = 3000


# a budget for a whole machine ("$3000 to build a box for local LLMs"), not for the cards
_A_WHOLE_BOX = re.compile(
    r"\b(?:build(?:ing)?|whole|entire|complete|new|full) (?:\w+ )?(?:box|rig|pc|machine|system"
    r"|workstation|build|server)\b|\b(?:box|rig|pc|build|system) (?:for|to run)\b"
)


def _to_buy(query: Query, box: ToolBox) -> Draft:
    """The cards a purchase budget buys that run the job (no card named); second-hand ones when
    no new card is within the budget and the question did not say new."""
    draft = _to_buy_as(query, box)
    budget = query.budget
    if budget and not draft.text.startswith(c.NONE_MEETS) and _A_WHOLE_BOX.search(query.low):
        draft.text += ("\n\nThe budget above went to the cards alone; a whole box also needs a "
                       "CPU, board, RAM, storage, a power supply and a case, so leave room for "
                       "them (a cheaper pick, or used cards).")  # fmt: skip
    if query.condition or budget is None or not draft.text.startswith(c.NONE_MEETS):
        return draft
    used = _to_buy_as(replace(query, condition="used"), box)
    if used.text.startswith(c.NONE_MEETS):
        return draft
    used.text = f"**No new card within {c.usd(budget.usd)}; second hand:**\n\n{used.text}"
    return used


def _to_buy_as(query: Query, box: ToolBox) -> Draft:
    condition = query.condition or "new"
    said = query.budget
    if not query.models and said and said.per == "total" and said.kind != "rent":
        # "$3000 for a deep learning PC, what GPU": no job named, so the memory the budget buys
        # decides what it can train and run (an 8B LLM stands in for the speed, as said after)
        model = ModelRef("Llama-3.1-8B", (REFERENCE_LLM,), "llm", assumed=True)
        hint = _family_of_job(query)
        if hint != "llm":  # "to train vision models, $1500": that family's reference model
            from advisor.calculator import FAMILIES

            ref = FAMILIES[hint].reference_model
            model = ModelRef(box.call("model_specs", {"model": ref}).get("name", ref), (ref,),
                             hint, assumed=True)  # fmt: skip
        query = replace(query, models=(model,), workload=query.workload or "inference")
    if query.models:
        budget = query.budget.usd if query.budget and query.budget.per == "total" else None
        model = query.models[0]
        served = (query.concurrency or 1) > 1  # "20 devs at once": speed under load decides
        # ("cheapest card to buy that runs llama 3.1 8b at 50+ tok/s": one person's card)
        home = (query.location == "home" or query.vendor == "Apple"  # a Mac is a desk machine
                or (budget is not None and budget <= HOME_BUDGET_USD)
                or (budget is None and not served and query.location != "cloud"
                    and bool(_CHEAPEST_WAY.search(query.low))))  # fmt: skip
        no_budget = ""
        if home and budget is None:  # "best GPU to run 70b locally": what a home machine holds
            budget = HOME_BUDGET_USD
            no_budget = (f"\n\nNo budget given: cards up to {c.usd(HOME_BUDGET_USD)} in all, "
                         "as a home machine takes; say yours.")  # fmt: skip
        # (cards with no price on record stay in when the user gave no budget, and a laptop's
        # GPU, which is sold only inside a laptop: the budget is the laptop's, said after)
        laptop = bool(re.search(r"\blaptops?\b", query.low))
        bought = {"max_purchase_usd": budget or 1e9, "condition": condition,
                  "unpriced": query.budget is None or laptop}  # fmt: skip
        if laptop and query.budget is not None:
            no_budget += ("\n\nA laptop's GPU has no price of its own (it is sold inside the "
                          "laptop): the budget is not checked against it; compare whole "
                          "laptops with the card named.")  # fmt: skip
        if query.budget is None and not served and _rank_by(query) is None:
            # no budget (or one in a currency with no rate on record), no "fastest": the most
            # speed per dollar, not the fastest card at any price
            bought["rank_by"] = "per_dollar"
        unsaid = home and not (model.precision or query.precision) and model.family in (None, "llm")
        if unsaid and query.workload == "finetune":
            # "5k for a home rig to fine-tune 7-13b models": as people fine-tune at home, QLoRA,
            # on NVIDIA (bitsandbytes' and Unsloth's first platform) unless a vendor was said
            query = replace(query, workload="finetune-qlora", precision="nf4",
                            vendor=query.vendor or "NVIDIA")  # fmt: skip
            draft = recommend(query, box, **bought)
            draft.text += (
                "\n\nAssumed, as the question did not say: QLoRA (a 4-bit base), how "
                "people fine-tune on a home budget, on up to two NVIDIA cards; say LoRA or full "
                "for the others, or how many cards a bigger rig takes."
            )
            draft.text += no_budget
            return draft
        if model.assumed and _MEMORY_PER_DOLLAR.search(query.low):
            # "which gpu gives the most vram per dollar": the price of each GB, least first
            draft = _memory_per_dollar(query, box, bought)
            draft.text += no_budget
            return draft
        if unsaid and (query.workload or "inference") == "inference" and model.assumed and (
                not served):  # fmt: skip
            draft = _most_memory_bought(query, box, bought)
            draft.text += no_budget
            return draft
        if unsaid and (query.workload or "inference") == "inference":
            # a card bought for home runs LLMs as people run them there: a 4-bit GGUF; a model
            # too big for that at home ("deepseek r1 671b at home?"), in the smaller GGUFs
            # people run it in before none
            quant, draft = _in_a_gguf(query, box, bought)
            if quant != HOME_PRECISION and not draft.text.startswith(c.NONE_MEETS):
                draft.text = (f"**Not in {HOME_PRECISION} on up to two cards at home; in "
                              f"{quant}, a smaller GGUF that costs some quality:**\n\n"
                              + draft.text)  # fmt: skip
            else:
                quant = HOME_PRECISION
            draft.text += (f"\n\nAssumed, as the question did not say: {quant} (a GGUF in "
                           "llama.cpp), how models run on a home budget, on up to two cards; say "
                           "bf16 for 16-bit, or how many cards a bigger rig takes.")  # fmt: skip
            draft.text += no_budget
            return draft
        draft = recommend(query, box, **bought)
        unsaid_format = not (model.precision or query.precision)
        if draft.text.startswith(c.NONE_MEETS) and unsaid_format and model.family == "diffusion":
            # "best gpu for comfyui with flux under $1000": no card within it holds the model in
            # 16 bits; in 8-bit weights, as ComfyUI and Forge load it on such cards
            eight = recommend(replace(query, precision="fp8"), box, **bought)
            if not eight.text.startswith(c.NONE_MEETS):
                eight.text = ("**Nothing within the budget holds it in fp16; in fp8 (8-bit "
                              "weights, as ComfyUI and Forge load it on such cards):**\n\n"
                              + eight.text)  # fmt: skip
                draft = eight
        plain = not (model.precision or query.precision) and model.family in (None, "llm")
        if draft.text.startswith(c.NONE_MEETS) and plain and query.workload in (None, "inference"):
            # "deepseek r1 671b, I can spend $12k": nothing holds it in 16 or 8 bits within the
            # budget; the GGUFs people run such a model in, largest first
            quant, lighter = _in_a_gguf(query, box, bought)
            if not lighter.text.startswith(c.NONE_MEETS):
                lighter.text = (f"**Nothing within the budget holds it in 16 or 8 bits; in "
                                f"{quant} (a GGUF in llama.cpp, some quality lost):**\n\n"
                                + lighter.text)  # fmt: skip
                return lighter
        if home and "max_gpus" not in _card_limits(query, home_cap=False):
            draft.text += ("\n\nAt most two cards, as a home desktop takes; say how many a "
                           "bigger rig takes.")  # fmt: skip
        draft.text += no_budget
        return draft
    return explain(query, box)


def _in_a_gguf(query: Query, box: ToolBox, bought: dict[str, Any]) -> tuple[str, Draft]:
    """The pick in the largest GGUF that some card within the budget holds (Q4_K_M, then the
    smaller ones people run a big model in), with that GGUF; the smallest's "none" when none."""
    for quant in (HOME_PRECISION, *SMALLER_HOME_QUANTS):
        draft = recommend(replace(query, precision=quant), box, **bought)
        if not draft.text.startswith(c.NONE_MEETS):
            break
    return quant, draft


def _most_memory_bought(query: Query, box: ToolBox, bought: dict[str, Any]) -> Draft:
    """ "$1500 for a gpu to run local llms": no model named, so the memory decides which models
    a card runs: the most memory the budget buys, with the largest LLM it runs in a 4-bit GGUF."""
    query = replace(query, precision=HOME_PRECISION)
    start = len(box.calls)
    draft = recommend(query, box, **{**bought, "rank_by": "most_memory"})
    picks = next((call.result.get("ranked") for call in box.calls[start:]
                  if call.name == "recommend_gpus"), None)  # fmt: skip
    if picks and not draft.text.startswith(c.NONE_MEETS):
        top = picks[0]
        where = c.gpus_phrase(top["num_gpus"], top["gpu_name"])
        found = box.call("largest_model", {"gpu": top["gpu"], "num_gpus": top["num_gpus"],
                                           "precision": HOME_PRECISION})  # fmt: skip
        e = found.get("estimate") if "error" not in found else None
        said = f"**Pick {where}** for "
        if e and draft.text.startswith(said):
            draft.text = (
                f"**Pick {where}: the most memory the budget buys "
                f"({c.num(top['usable_memory_per_gpu_gb'], 'GB')} usable), and the memory "
                f"decides which models you can run: up to {e['model_name']} in {HOME_PRECISION} "
                f"({c.num(e['memory_per_gpu_gb'], 'GB')}).**\n\nSpeed, for "
                + draft.text[len(said) :]
            )
    draft.text += (
        f"\n\nAssumed, as the question did not say: {HOME_PRECISION} (a GGUF in "
        "llama.cpp), how models run at home; name a model for a pick by its speed."
    )
    return draft


# memory asked per dollar: "most vram per dollar", "cheapest GB of VRAM", "best $/GB"
_MEMORY_PER_DOLLAR = re.compile(
    r"\b(?:vram|memory|gb|gigs?)\s(?:per|for the|a|/)\s?(?:dollar|buck|\$|money|euro|pound)"
    r"|\b(?:cheapest|lowest)\s(?:price\s)?(?:per\s)?(?:gb|gig)\b|\$\s?/\s?gb\b"
    r"|\bper gb of (?:vram|memory)\b"
    r"|\bmost (?:vram|memory) for (?:the|my|your) (?:money|buck|budget)\b"
)


def _memory_per_dollar(query: Query, box: ToolBox, bought: dict[str, Any]) -> Draft:
    """ "Which GPU gives the most VRAM per dollar?": the cards by the purchase price of each GB
    of memory, least first, one card each (no model decides it)."""
    card = bool(re.search(r"\b(?:graphics )?cards?\b", query.low))
    ranked = box.call("recommend_gpus", {
        "model": REFERENCE_LLM, "workload": "inference", "precision": HOME_PRECISION,
        "max_gpus": 1, "top": 10 if card else 5, **bought, "rank_by": "memory_per_dollar",
        "vendor": query.vendor, "segment": query.segment,
    })  # fmt: skip
    rows = [r for r in ranked.get("ranked", []) if r.get("usd_per_memory_gb")]
    if card:  # "which consumer card ...": a card of its own memory, not a Mac or an APU's pool
        rows = [r for r in rows
                if not box.call("gpu_specs", {"gpu": r["gpu"]}).get("unified_memory")]  # fmt: skip
    if not rows:
        return Draft(f"{c.NONE_MEETS}: no card with a purchase price on record.")
    top = rows[0]
    head = (f"**Pick the {top['gpu_name']}: the least money per GB of memory, "
            f"{c.usd(top['usd_per_memory_gb'])} a GB** ({c.usd(top['purchase_usd'])} "
            f"{top.get('purchase_kind') or 'to buy'}).")  # fmt: skip
    lines = [head, ""]
    for i, r in enumerate(rows[1:5], 2):
        lines.append(f"{i}. the {r['gpu_name']}: {c.usd(r['usd_per_memory_gb'])} a GB "
                     f"({c.usd(r['purchase_usd'])})")  # fmt: skip
    lines.append("\nMemory decides which models a card runs at all; bandwidth, how fast. A cheap "
                 "GB on an old or slow card runs big models slowly: name a model for a pick by "
                 "its speed.")  # fmt: skip
    return Draft("\n".join(lines))


# the smaller GGUFs a model too big for a home machine in four bits is run in, largest first
SMALLER_HOME_QUANTS = ("q3_k_m", "q2_k")


def market_price(listed: list[dict[str, Any]], condition: str | None) -> dict[str, Any] | None:
    """The price a budget is weighed against, from a purchase_prices list (newest first): the
    newest of the condition said; none said, the cheaper of the newest new and the newest used
    (what the money buys today, not a low of years ago); else the launch list price. One rule
    for every budget line, so that two lines of an answer never weigh one card at two prices."""
    newest = {kind: next((p for p in listed if p.get("kind") == kind), None)
              for kind in ("new", "used", "msrp")}  # fmt: skip
    if condition in newest and newest[condition] is not None:
        return newest[condition]
    street = [p for p in (newest["new"], newest["used"]) if p is not None]
    return min(street, key=lambda p: p["usd"]) if street else newest["msrp"]


def _against_budget(query: Query, priced: dict[str, Any]) -> list[str]:
    """ "Is a 3090 worth it on a $700 budget?": the card's market price (market_price) against
    the budget the user gives."""
    budget = query.budget
    price = market_price(priced.get("prices", []), query.condition)
    if budget is None or budget.per != "total" or price is None or query.purchase_usd:
        return []
    if query.gpu_purchase_prices or query.currency != "$":
        # "a pair of P40s for £300 or a 3090 for £650, £700 budget": the user's own prices
        # decide, and a budget in pounds is not weighed against the record's dollars
        return []
    low = query.low
    if not BUDGET_WORDS.search(low) or EACH_PRICE.search(low):
        return []  # "$150 each", "worth 300 euro more": a price the user found, not a budget
    count = priced.get("num_gpus") or 1
    verdict = "Within" if price["usd"] * count <= budget.usd else "Over"
    each = " each" if count > 1 else ""
    return [f"**{verdict} your {c.usd(budget.usd)}: the {priced['gpu_name']} is "
            f"{c.usd(price['usd'])}{each} {price['kind']} ({price['date']}).**"]  # fmt: skip


def _quote_said(query: Query) -> float | None:
    """The price to buy a card the user found: the one said, or an amount said with no budget
    words ("is $2,500 for a new 4090 a ripoff?", "a p40 for $150")."""
    budget = query.budget
    if query.purchase_usd is None and budget and budget.per == "total" and budget.kind != "rent":
        return None if BUDGET_WORDS.search(query.low) else budget.usd
    return query.purchase_usd


# the ISO code of each sign `understand` gives the user's money ("€", "£", "R$"; the others are
# written as their code, "INR ")
_SIGN_CODES = {"€": "EUR", "£": "GBP", "R$": "BRL"}


# an amount written with its money, the sign or code before or after it
_MONEY_BESIDE = (
    ("EUR", r"€\s?{n}|{n}\s?(?:€|eur\b|euros?\b)"),
    ("GBP", r"£\s?{n}|{n}\s?(?:£|gbp\b|pounds?\b)"),
    ("kr", r"{n}\s?(?:kr\b|kronor\b|kroner\b)"),
    ("SEK", r"{n}\s?sek\b|\bsek\s?{n}"),
    ("NOK", r"{n}\s?nok\b|\bnok\s?{n}"),
    ("DKK", r"{n}\s?dkk\b|\bdkk\s?{n}"),
    ("CHF", r"{n}\s?chf\b|\bchf\s?{n}"),
)
# which crowns "kr" are, by the letters and words of the message
_CROWNS = (("SEK", r"[äö]|\b(?:och|köpa|hyra|timmen|månaden)\b"),
           ("NOK", r"\b(?:kjøpe|leie|timen|måneden|og)\b"),
           ("DKK", r"\b(?:købe|leje|timen|måneden|og)\b"))  # fmt: skip


def _bought_in_other_money(query: Query, box: ToolBox, purchase: float) -> tuple[float, str] | None:
    """A price to buy written in another money than the dollars the rest is in ("köpa ett RTX
    4090 för 22 000 kr eller hyra en A100 för 1,10 dollar i timmen"): that price in dollars at the
    rate on record (in_us_dollars), and a note saying so; None when it is in dollars."""
    if query.currency.strip() != "$":
        return None
    whole = f"{purchase:,.0f}" if purchase == int(purchase) else f"{purchase:,.2f}"
    digits = whole.split(",")
    number = r"(?<![\d.,])" + r"[ ,.\u00a0\u202f]?".join(digits) + r"(?:[.,]0{1,2})?(?![\d])"
    low = query.low
    code = next((c_ for c_, cue in _MONEY_BESIDE if re.search(cue.format(n=number), low)), None)
    if code == "kr":
        code = next((c_ for c_, cue in _CROWNS if re.search(cue, low)), None)
    if code is None:
        return None
    result = box.call("in_us_dollars", {"amount": purchase, "currency": code})
    if "usd" not in result:
        return None
    return result["usd"], (f"Your {c.num(purchase)} {code} to buy is about {c.usd(result['usd'])} "
                           f"{rate_said(result)}; the rest is in dollars.")  # fmt: skip


def currency_code(query: Query) -> str | None:
    """The ISO code of the user's money, where one is clear ("kr" alone is Swedish, Norwegian or
    Danish crowns: none, unless the message names which)."""
    sign = query.currency.strip()
    if sign == "kr":
        said = re.search(r"\b(sek|nok|dkk|kronor)\b", query.low)
        return (
            None if said is None else "SEK" if said.group(1) == "kronor" else said.group(1).upper()
        )
    return _SIGN_CODES.get(sign, sign if len(sign) == 3 and sign.isalpha() else None)


# spans of hours said in words: a bill "a month", a deadline "within a week"
SPAN_WORDS = {1.0: "an hour", 24.0: "a day", 168.0: "a week", float(HOURS_PER_MONTH): "a month"}


def has_rate(query: Query) -> bool:
    """Whether the user's money is another currency than the dollar with a rate on record."""
    code = currency_code(query)
    return code not in (None, "USD") and code in load_catalog().table(
        "exchange_rates", ExchangeRate
    )


def in_dollars(query: Query, box: ToolBox, amount: float) -> dict[str, Any] | None:
    """An amount in the user's money in US dollars at the rate on record (in_us_dollars's
    result), or None: the dollar itself, or a currency with no rate on record."""
    if not has_rate(query):
        return None
    result = box.call("in_us_dollars", {"amount": amount, "currency": currency_code(query)})
    return result if "usd" in result else None


def rate_said(result: dict[str, Any]) -> str:
    """Which rate an amount was turned into dollars at (an in_us_dollars result)."""
    return (f"at the European Central Bank's rate of {result['date']}, {result['per_usd']:.4g} "
            f"{result['currency']} to the dollar")  # fmt: skip


# currencies besides the dollar a price found is judged in ("a 4090 for 1800 euros, worth it?"),
# in dollars at the rate on record
NEAR_DOLLAR = ("€", "£")


def _quote_with_tax(query: Query, box: ToolBox) -> list[str]:
    """ "R189 500,00 excl. VAT ... what is it with VAT at 15%?": the quote with the tax the user
    states, in the quote's own currency (from set_cost)."""
    quote = _quote_said(query) if query.tax_rate and len(query.gpus) == 1 else None
    if not quote or quote <= 0 or query.tax_rate is None:
        return []
    count = query.gpus[0].count or 1
    taxed = box.call("set_cost", {"usd_each": quote, "num_gpus": count,
                                  "tax_rate": query.tax_rate})  # fmt: skip
    if "error" in taxed:
        return []
    sign = query.currency.strip()
    return [
        f"With your {c.num(query.tax_rate * 100)}% tax: "
        f"**{c.usd(taxed['total_with_tax_usd'], sign)}**"
        f" ({c.usd(taxed['total_usd'], sign)} + {c.usd(taxed['tax_usd'], sign)} tax)."
    ]


def _against_quote(query: Query, priced: dict[str, Any], condition: str, box: ToolBox) -> list[str]:
    """ "A reseller quotes $28,000 for a new H200: in line with the market?", "a used 3090 for
    $650, still a good deal?": the price the user found against the prices on record for that
    condition (within a tenth of their range is in line)."""
    low = query.low
    seen = _range_said(low)
    if seen and query.currency == "$" and len(query.gpus) == 1:
        return [_against_range(seen, priced, condition)]
    # ("a used 3090 for 4000 reais": any currency with a rate on record, said with the amount)
    rated = has_rate(query) and bool(query.purchase_usd)
    if not rated and not re.search(r"(?:[$€£]|\b(?:gbp|eur|usd) ?)\s?\d|\d\s?(?:k\b|dollars?|usd"
                                   r"|bucks|eur|euros?|gbp|pounds?|quid)", low):  # fmt: skip
        return []  # "and the A10G?": a price said before, for another card, is no quote here
    quote = _quote_said(query)
    sign = query.currency.strip()
    if (quote is None or quote <= 0 or (sign not in ("$", *NEAR_DOLLAR) and not rated)
            or _WOULD_PAY.search(low)):  # fmt: skip
        return []  # no price found, one in a currency with no rate on record, or what they'd pay
    if any((ref.count or 1) > 1 for ref in query.gpus) or not query.gpus:
        return []
    if len(query.gpus) > 1:  # "a used 3090 for $650 ... or a 4070 ti super?": the card priced
        owner = _prices_said(query, [gpu_choices(ref)[0] for ref in query.gpus])
        if priced.get("gpu") not in owner:
            return []
        quote = owner[priced["gpu"]]
        ref = next(r for r in query.gpus if priced["gpu"] in gpu_choices(r))
        condition = _condition_of(query, ref) or condition
    rows = [p for p in priced.get("prices", []) if p.get("kind") == condition]
    for other in ("used", "msrp") if not rows and query.condition is None else ():
        # "a p40 for 100 bucks" (no condition said) of a card sold only used now: the used ones;
        # "$900 for a 4080, fair?" with neither on record: its launch list price
        condition = other
        rows = [p for p in priced.get("prices", []) if p.get("kind") == condition]
        if rows:
            break
    if not rows:  # "a used A6000 for $3,200, fair?" with no used price on record: no verdict
        return [f"**No {condition} price on record for the {priced['gpu_name']} to judge "
                f"{c.usd(quote, query.currency.strip())} against**; the prices it has are "
                "below."]  # fmt: skip
    launch = condition == "msrp"
    if launch:
        condition = "launch list (MSRP)"
    cheapest = min(p["usd"] for p in rows)
    dearest = max(p.get("usd_max") or p["usd"] for p in rows)
    span = c.usd(cheapest) if cheapest == dearest else f"{c.usd(cheapest)}-{c.usd(dearest)}"
    newest = max(rows, key=lambda p: str(p["date"]))["date"]
    name, given = priced["gpu_name"], c.usd(quote, sign)

    def side(dollars: float) -> str:
        return "above" if dollars > dearest * 1.1 else "below" if dollars < cheapest * 0.9 else "in"

    converted = in_dollars(query, box, quote)
    if converted:  # "a used 3090 for 800 pounds": in dollars at the rate on record
        given += f" (about {c.usd(converted['usd'])} {rate_said(converted)})"
    elif sign != "$":
        return []  # (no rate on record for it)
    where = side(converted["usd"] if converted else quote)
    if where == "above":
        verdict = f"No: {given} is above the {condition} prices on record for the {name}"
    elif where == "below":
        market = "Below the launch price" if launch else "Below the market"
        verdict = f"{market}: {given} is under the {condition} prices on record for the {name}"
    else:
        verdict = f"Yes: {given} is in line with the {condition} prices on record for the {name}"
    return [f"**{verdict} ({span}, newest {newest}).**"]


# prices the user has seen, as a range: "seeing them from 600 to 900 on ebay", "$600-900 used"
_PRICE_RANGE = re.compile(
    r"(?:\bfrom |\bbetween )?[$€£]?\s?(\d[\d,]*(?:\.\d+)?)(k?)\s?(?:-|\u2013|to|and)\s?[$€£]?\s?"
    r"(\d[\d,]*(?:\.\d+)?)(k?)\b(?!\s?(?:gb|g\b|w\b|watts|hours|h\b|tok|it/s|%|x\b|b\b|images|samples|steps|epochs"
    r"|users|requests|gpus|cards|days|months|years))"
)
_MARKET_SAID = re.compile(
    r"[$€£]|\b(?:ebay|craigslist|marketplace|listings?|listed|selling|sold|go(?:ing)? for"
    r"|price[sd]?"
    r"|asking|offers?|dollars?|bucks|usd)\b"
)


def _range_said(low: str) -> tuple[float, float] | None:
    """The low and high of prices the user has seen ("from 600 to 900 on ebay"), in dollars;
    None when no range of money is said."""
    if not _MARKET_SAID.search(low):
        return None
    for m in _PRICE_RANGE.finditer(low):
        a = float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)
        b = float(m.group(3).replace(",", "")) * (1000 if m.group(4) or m.group(2) else 1)
        if 50 <= a < b <= 20 * a:
            return a, b
    return None


def _against_range(seen: tuple[float, float], priced: dict[str, Any], condition: str) -> str:
    """ "Seeing used 3090s from 600 to 900": where that range sits against the prices on record
    for the condition (below, within or above them)."""
    rows = [p for p in priced.get("prices", []) if p.get("kind") == condition]
    lo, hi = seen
    said = f"{c.usd(lo)}-{c.usd(hi)}"
    name = priced["gpu_name"]
    if not rows:
        return f"**No {condition} price on record for the {name} to judge {said} against.**"
    cheapest = min(p["usd"] for p in rows)
    dearest = max(p.get("usd_max") or p["usd"] for p in rows)
    span = c.usd(cheapest) if cheapest == dearest else f"{c.usd(cheapest)}-{c.usd(dearest)}"
    newest = max(rows, key=lambda p: str(p["date"]))["date"]
    where = f"the {condition} prices on record for the {name} ({span}, newest {newest})"
    if hi < cheapest * 0.9:
        return (f"**All of your {said} is below {where}: by them even {c.usd(hi)} is under the "
                f"market, and the low end is the better deal.**")  # fmt: skip
    if lo > dearest * 1.1:
        return f"**All of your {said} is above {where}: look for a lower price.**"
    return (f"**Your {said} spans {where}: under {c.usd(cheapest)} is below the market, over "
            f"{c.usd(dearest)} above it.**")  # fmt: skip


# what the user would pay, not a price found: "I'd pay $900 for a used 3090"
_WOULD_PAY = re.compile(r"\b(?:i'?d|we'?d|would|willing to|could|can|ready to) (?:\w+ )?pay\b")
# a budget said as one: "budget ~700", "under $2k", "can spend 1500", "max 900"
BUDGET_WORDS = re.compile(
    r"\bunder\b|\bbelow\b|\bmax(?:imum)?\b|\bat most\b|\bup to\b|" + BUDGET_HELD.pattern
)


HOME_BUDGET_USD = 10_000  # a purchase budget up to this is a home or desk machine
HOME_PRECISION = "q4_k_m"
# a card of ample memory on which a model kept beside another is sized (its need barely depends
# on the card)
COMPANION_CARD = "80gb"
HOME_MAX_GPUS = 2  # a home desktop takes one or two cards (say how many for a bigger rig)
WORKSTATION_MAX_GPUS = 4  # the cards a workstation takes: a job on more is a server's


# a share of the year asked as "after how many years": the rate of use, not a horizon
_UTILISATION_YEAR = re.compile(
    r"\b(?:utili[sz]ation|utili[sz]ed|busy)\b.{0,40}%.{0,200}\b(?:how many|after how long|when)\b"
    r"|%\s?of the (?:year|time)\b.{0,200}\b(?:how many (?:years|months)|after how long|when)\b"
)
# "over the hardware's life", "lifetime", "for depreciation": a horizon named, not its years
_LIFE = re.compile(
    r"\b(?:useful|service|expected|working|economic)\s(?:life|lifetime|lifespan)\b"
    r"|\b(?:its|the|their|our|a|his|her)\s(?:\w+'s\s)?(?:life|lifetime|lifespan)\b"
    r"|\blife(?:time|span)\b|\bdepreciation\b"
)


def rent_or_buy(query: Query, box: ToolBox) -> Draft:
    """After how many hours of use buying beats renting, from the user's figures where given
    (a purchase price, a rental price per hour, a monthly cloud bill) and the catalog's dated
    prices otherwise."""
    sides = _bought_and_rented(query)
    ref = sides[0] if sides else query.gpus[0] if query.gpus else None
    gpu = gpu_choices(ref)[0] if ref and ref.ids else None
    if ref and ref.ids and query.purchase_usd is None and len(gpu_choices(ref)) > 1:
        # "buying 4 a100s": the first variant with a price to buy new (or its launch price)
        kinds = (query.condition,) if query.condition else ("new", "msrp")
        gpu = next((g for g in gpu_choices(ref) if any(
            p["kind"] in kinds for p in box.call("purchase_prices", {"gpu": g}).get("prices", [])
        )), gpu)  # fmt: skip
    count = (ref.count if ref else None) or query.num_gpus or 1
    instead: Rented | None = None
    if sides and query.user_price_usd_per_hour is None and not query.monthly_usd:
        count = ref.count or _fewest_for_job(query, box, gpu) or 1  # type: ignore[union-attr]
        other = _rented_instead(query, box, sides[1], count)
        if isinstance(other, Draft):
            return other
        instead = other
    purchase = query.purchase_usd
    spend = None  # a budget to buy within, with no card named: the pick's limit, no price
    if purchase is None and query.budget and (query.budget.kind == "buy" or (
            query.budget.per == "total" and query.budget.kind != "rent")):  # fmt: skip
        purchase = query.budget.usd  # "4090 for 1800 or rent at 0.40/h": the price to buy
        if gpu is None and query.models and not query.gpus:
            # "5 engineers, qwen2.5-coder 32b: buy a box or rent? budget 15k"
            spend, purchase = purchase, None
    converted = _bought_in_other_money(query, box, purchase) if purchase else None
    if converted is not None:  # "köpa ett RTX 4090 för 22 000 kr eller hyra ... 1,10 dollar"
        draft = rent_or_buy(replace(query, purchase_usd=converted[0], budget=None), box)
        draft.text += f"\n\n_Note: {converted[1]}_"
        return draft
    low = query.low
    node = bool(purchase and re.search(
        r"\b(?:server|node|box|machine|rig|system|workstation)\b", low))  # fmt: skip
    rent = query.user_price_usd_per_hour
    if rent is not None and query.price_per_node and not sides:
        rent = rent / count  # (a price said of the rented card is that card's hour)
    # "buying 2x 4090 vs renting an A100 at $1.29/hr": one card rented for the cards bought
    one_rented = bool(sides and rent is not None and count > 1 and not sides[1].count
                      and re.search(rf"\b(?:an?|one|a single)\s+{re.escape(sides[1].text.lower())}",
                                    query.low))  # fmt: skip
    if one_rented and rent is not None:
        rent = rent / count
    fleet = ""
    if (
        rent is None
        and query.monthly_usd
        and not query.subscription
        and gpu
        and not (ref and ref.count)
        and not query.num_gpus
    ):
        # "burned 18k last month on runpod h100s": the cards that money rents around the clock
        # ("on aws": that cloud's median, where it rents the card)
        theirs = box.call("prices", {"gpu": gpu, "provider": query.provider}) if (
            query.provider) else {}  # fmt: skip
        where = f"{query.provider}'s median" if theirs.get("summary_usd_per_gpu_hour") else (
            "the median")  # fmt: skip
        rented = theirs if theirs.get("summary_usd_per_gpu_hour") else box.call(
            "prices", {"gpu": gpu})  # fmt: skip
        median = (rented.get("summary_usd_per_gpu_hour") or {}).get("median")
        if median:
            count = max(1, round(query.monthly_usd / (median * HOURS_PER_MONTH)))
            fleet = (f"Your {c.usd(query.monthly_usd)} a month rents about "
                     f"{c.gpus_phrase(count, box.call('gpu_specs', {'gpu': gpu})['name'])} around "
                     f"the clock at {where} {c.usd(median)} per GPU-hour: the comparison is "
                     "for buying as many.")  # fmt: skip
    monthly = query.monthly_usd / count if rent is None and query.monthly_usd else None
    each = re.search(r"\beach\b|\bapiece\b|\bper (?:gpu|card)\b(?![- ]?h)"
                     r"|/(?:gpu|card)\b(?![- ]?h)", query.low)  # fmt: skip
    # "buying them would be 30k total, renting 1.8/hr each": the "each" is the rent's
    total = re.search(r"\d\s?k?\s?(?:usd|dollars?)?\s?(?:in )?total\b|\bfor (?:both|all)\b", low)
    if purchase is not None and count > 1 and (node or not each or total):
        purchase = purchase / count  # "4 a100s for 60k", "a server for 90k": per GPU
    picked = ""
    if gpu is None and purchase is None and query.models and not query.gpus:
        # "rent or buy for sdxl lora training": the card to buy for the job (the most speed per
        # dollar among one or two cards of a home budget), weighed as rented against bought
        model = query.models[0]
        workload, _ = workload_of(query)
        said = precision_for(model, query)
        # one card, else two; a model too large for them in 16 bits is weighed in 4 bits, the
        # cheapest way to run it ("cheapest way to serve a 70b for a small team, rent or buy?")
        tries = [(1, said), (2, said)] + ([(2, "q4_k_m")] if said is None and workload ==
                                          "inference" else [])  # fmt: skip
        for cards, precision in tries:
            ranked = box.call("recommend_gpus", {
                "model": model_arg(model), "workload": workload, "max_gpus": cards, "top": 1,
                "max_purchase_usd": spend or HOME_BUDGET_USD, "rank_by": "per_dollar",
                "vendor": query.vendor or "nvidia", "max_usd_per_hour": 1000.0,  # rented too
                # (the users served, for a serving job: a fine-tune runs its own batch)
                "precision": precision,
                "batch": (query.concurrency or 1) if workload == "inference" else 1})  # fmt: skip
            if ranked.get("ranked"):
                best = ranked["ranked"][0]
                gpu, count = best["gpu"], best.get("num_gpus") or 1
                setup = f"the {best['gpu_name']}" if count == 1 else c.gpus_phrase(
                    count, best["gpu_name"])  # fmt: skip
                how = f" in {best['precision']}" if precision and not said else ""
                limit = (f"within your {c.usd(spend, query.currency)}" if spend
                         else f"up to {c.usd(HOME_BUDGET_USD)}")  # fmt: skip
                users = (
                    f", {query.concurrency} users at once"
                    if (query.concurrency or 1) > 1 and workload == "inference"
                    else ""
                )
                picked = (f"No card named: {setup}, the most speed per dollar among setups {limit} "
                          f"for {best.get('model_name') or model.text}{users}{how}; name yours "
                          "for its own break-even.")  # fmt: skip
                break
    if gpu is None and (purchase is None or (rent is None and monthly is None)):
        return Draft(
            "Which GPU, or what prices? Name the GPU (I use its dated purchase price and the "
            "median rental), or give both figures: what it costs to buy and to rent per hour."
        )
    args: dict[str, Any] = {"num_gpus": count, "condition": query.condition or "new"}
    if gpu:
        args["gpu"] = gpu
    if query.provider:  # "run an h100 24/7 on lambda vs buying one": Lambda's hour
        args["provider"] = query.provider
    if purchase is not None:
        args["purchase_usd"] = purchase
    if rent is not None:
        args["rent_usd_per_hour"] = rent
    if instead is not None:  # the other card's hour, shared over the cards bought
        args["rent_usd_per_hour"] = instead.usd_per_hour / count
    # a horizon said ("over a year"), not the month of a price ("$60 a month of colocation")
    span = _SPAN_SAID.search(re.sub(r"\$\s?\d[\d,.]*\s?(?:a|per|/)\s?month\b", " ", low))
    if monthly is not None:  # "we spend 9k a month on cloud A100s"
        args["rent_usd_per_month"] = monthly
    elif query.hours in (730.0, 8760.0) and NONSTOP.search(low) and not span:
        args["hours_per_day"] = 24.0  # "running 24/7, after how many hours": a rate, no horizon
    elif query.hours and not query.use_hours_per_day and _UTILISATION_YEAR.search(low):
        # "utilisation is 50% of the year: after how many years?": a rate of use, no horizon
        args["hours_per_day"] = query.hours / 365
    elif query.hours and not query.use_hours_per_day:  # "for 2 years at 60% of the time"
        args["hours_of_use"] = query.hours
    if query.use_hours_per_day:  # "we train maybe 2 weeks a month"
        args["hours_per_day"] = query.use_hours_per_day
        # "24/7" is a rate that says its own span (a month of it), no horizon of use
        nonstop = query.hours in (168.0, 730.0, 8760.0) and bool(NONSTOP.search(low))
        # hours past a month of the rate are its use over the horizon said: "over a year at 8
        # hours a day" (2,920), "5 hrs a week ... the grant runs three years" (780)
        # (not "100 hours every month": the month of the rate itself)
        month = HOURS_PER_MONTH / 24 * query.use_hours_per_day
        longer = bool(query.hours and query.hours > 1.02 * month)
        if longer and not nonstop:
            args["hours_of_use"] = query.hours
    job_line = ""
    cadence = _JOB_CADENCE.search(low)
    if gpu and cadence and not {"hours_per_day", "hours_of_use", "rent_usd_per_month"} & set(args):
        # "2000 hours of calls a month, rent or buy": the card's hours of use are the job's on
        # it at that cadence, not the hours of audio
        job_hours = _job_hours_of(query, box, GpuRef(gpu, (gpu,)), count)
        days, period = _CADENCE[(cadence.group(1) or cadence.group(2))[:3]]
        if job_hours:
            args["hours_per_day"] = min(24.0, job_hours / days)
            job_line = (f"The job at that rate: about {c.num(job_hours, 'hours')} of the card's "
                        f"time a {period}, {c.num(args['hours_per_day'], 'hours')} "
                        "a day.")  # fmt: skip
    elif gpu and not {"hours_per_day", "hours_of_use", "rent_usd_per_month"} & set(args):
        # "transcribe 500 hours of audio, rent or buy?": a job done once, its hours on the card
        job_hours = _job_hours_of(query, box, GpuRef(gpu, (gpu,)), count)
        if job_hours:
            args["hours_of_use"] = job_hours
            job_line = (f"The job: about {c.num(job_hours, 'hours')} of the card's time, "
                        "done once.")  # fmt: skip
    if query.usd_per_kwh is not None:
        args["usd_per_kwh"] = query.usd_per_kwh  # the user's electricity price, not the default
    if query.draw_w:  # "the box draws ~450 W loaded": the user's draw, shared over the cards
        args["power_w"] = query.draw_w if query.draw_each else query.draw_w / count
    if query.upkeep_usd_per_month:  # "$40 a month of colocation": owning's cost by the hour
        args["host_usd_per_hour"] = query.upkeep_usd_per_month / count / HOURS_PER_MONTH
    if query.no_power:
        args["usd_per_kwh"] = 0.0  # "please ignore electricity and hosting"
    # "250 000 ₽ or 60 ₽ an hour": no dollar tariff added to roubles; and a tariff in rand is no
    # dollar figure beside the catalog's dollar prices ("R3,15 per kWh" with no price of the user's)
    priced_by_user = purchase is not None and (rent is not None or monthly is not None)
    foreign_tariff = (query.currency != "$" and args.get("usd_per_kwh") and not priced_by_user
                      and not query.no_power)  # fmt: skip
    foreign_power = query.currency != "$" and ("usd_per_kwh" not in args or bool(foreign_tariff))
    if foreign_power:
        args["usd_per_kwh"] = 0.0
    # ("is buying +EV?", "is buying the card worth it??", "would buying my own make more sense?")
    side = re.search(r"\b(?:is|would|will|isn'?t) (?:it )?(?:(buying|owning|to buy)"
                     r"|(renting|to rent))\b[^?]{0,40}(?:\bcheaper\b|\bworth it\b|\+ev\b"
                     r"|\bmakes? (?:more )?sense\b|\bpay (?:off|for itself)\b"
                     r"|\bbetter (?:deal|value|option|idea)\b|\ba good idea\b)", low)  # fmt: skip
    # ("does buying make sense for us, or should we rent?": either side)
    either = re.search(r"\b(?:buy(?:ing)?|own(?:ing)?|rent(?:ing)?|leas(?:e|ing))\b"
                       r"(?:,? [\w-]+){0,6},? (?:or|vs\.?|versus) (?:should (?:i|we) |\w+ )?"
                       r"(?:buy|own|rent|leas)\w*\b", low)  # fmt: skip
    asked = None if side is None or either else "buy" if side.group(1) else "rent"
    if asked is None and not either and _PAYS_FOR_ITSELF.search(low):
        asked = "buy"  # "does a $4,200 server pay for itself within 3 years?": yes if buying wins
    should = _SHOULD_SIDE.search(low)  # "should i just rent a 4090 instead?"
    if side is None and not either and should:
        side, asked = should, "buy" if should.group(1) or should.group(3) else "rent"
    # "over the hardware's life", or which is cheaper at a stated rate of use with no horizon:
    # the verdict over a service life (the tool's, labelled as assumed)
    rate = "hours_per_day" in args and args["hours_per_day"] < 24
    if (
        "hours_of_use" not in args
        and monthly is None
        and (_LIFE.search(low) or (rate and (side or either or query.selling)))
    ):
        args["over_life"] = True
    result = box.call("break_even", args)
    if "error" in result:
        return Draft(result["error"])
    if monthly is not None and query.subscription and not NONSTOP.search(low):
        return Draft(c.subscription_even(result))  # a flat fee, whatever the hours of use
    if query.currency != "$" and (purchase is None) != (rent is None and monthly is None):
        return Draft(_one_side_in_dollars(query.currency, purchase is not None, result))
    text = c.break_even(result, asked, (instead.what, instead.terms) if instead else None,
                        sign=query.currency if priced_by_user or purchase is not None
                        or rent is not None or monthly is not None else "$",
                        selling=query.selling,
                        weeks=bool(re.search(r"\bweeks?\b", low)))  # fmt: skip
    if foreign_power and result.get("power_w"):
        text = text.replace(
            "; electricity left out, as asked",
            f"; electricity left out (your price per kWh in {query.currency.strip()} cannot sit "
            "beside the catalog's US-dollar prices: give the card's prices in the same currency "
            "to count it)"
            if foreign_tariff
            else f"; electricity left out (give your price per kWh in {query.currency.strip()} "
            "to count it: the catalog's tariff is in US dollars)",
        )
    text += f"\n{fleet}" if fleet else ""
    text += f"\n{job_line}" if job_line else ""
    if (NONSTOP.search(low) or query.use_hours_per_day == 24) and result.get("rent_usd_per_hour"):
        text += _a_year_nonstop(query, box, result)  # "it runs around the clock: keep renting?"
    if "purchase_usd" not in args and args.get("gpu") and result.get("purchase_usd"):
        # a break-even on the catalog's newest price: street prices move, the others beside it
        rows = box.call("purchase_prices", {"gpu": args["gpu"]})
        more = c.other_prices(rows, result["purchase_usd"]) if "error" not in rows else ""
        text += f"\n{more}" if more else ""
    if sides and one_rented and query.user_price_usd_per_hour:
        text += (
            f"\nRenting one {sides[1].text} at your {c.usd(query.user_price_usd_per_hour)} "
            f"an hour against the {count} cards bought (its hour shared over them)."
        )
    elif sides and rent is not None and count > 1:  # "4x L40S vs renting H100s at $2.2/h"
        text += (f"\nRenting as many {sides[1].text} ({count}) at your {c.usd(rent)} per "
                 "GPU-hour.")  # fmt: skip
    if sides and gpu:
        pace = _pace_apart(box, gpu, gpu_choices(sides[1])[0])
        text += f"\n{pace}" if pace else ""
    if picked:
        text += f"\n\n_Note: {picked}_"
    return Draft(text)


# a job's size said with its cadence: "2000 hours of calls a month", "500 images a day"
_JOB_CADENCE = re.compile(
    r"\b(?:a|per|each|every|/)\s?(day|week|month)\b|\b(daily|weekly|monthly)\b"
)
# the days of each cadence and its word, by the first three letters ("daily" is "dai")
_CADENCE = {"day": (1.0, "day"), "dai": (1.0, "day"), "wee": (7.0, "week"),
            "mon": (HOURS_PER_MONTH / 24, "month")}  # fmt: skip


def _a_year_nonstop(query: Query, box: ToolBox, result: dict[str, Any]) -> str:
    """A year of use around the clock, each way: the rent of every hour, against the price to buy
    and that year's electricity at the user's tariff (or the assumed one)."""
    rent = box.call("rental_cost", {"usd_per_gpu_hour": result["rent_usd_per_hour"],
                                    "hours": HOURS_PER_YEAR})  # fmt: skip
    power: dict[str, Any] = {"error": "electricity left out"}
    if result.get("usd_per_kwh") and result.get("power_w") and not query.no_power:
        power = box.call("electricity_cost", {"usd_per_kwh": result["usd_per_kwh"],
                                              "hours": HOURS_PER_YEAR,
                                              "power_w": result["power_w"]})  # fmt: skip
    if "error" in rent:
        return ""
    owned = f"{c.usd(result['purchase_usd'])} to buy"
    if "error" not in power:
        owned += f" plus {c.usd(power['usd'])} of electricity ({c.num(power['kwh'], 'kWh')})"
    return (f"\nA year around the clock ({c.num(HOURS_PER_YEAR, 'hours')}): "
            f"{c.usd(rent['usd'])} to rent, against {owned}.")  # fmt: skip


# what is bought asked of, as a yes or no: "does the server pay for itself?", "will it pay off?"
_PAYS_FOR_ITSELF = re.compile(
    # (not "when does buying pay off": after how long, no yes or no)
    r"(?<!when )(?<!how soon )(?<!how long )(?<!how long until )"
    r"\b(?:does|do|will|would|could|can|is)\b[^?.!]{0,50}"
    r"\b(?:pay (?:off|for (?:it|them)sel(?:f|ves))|break even)\b"
)
# one side asked as advice: "should i just rent a 4090 instead?", "should we buy our own?"
_SHOULD_SIDE = re.compile(
    r"\bshould (?:i|we) (?:just |rather |instead |simply )?(?:(buy|get|own)|(rent|lease))\b"
    r"|\b(?:(buy\w*|own\w*)|(rent\w*|leas\w*))\b[^.?!]{0,50}\binstead\b"
)


def _pace_apart(box: ToolBox, bought: str, rented: str) -> str | None:
    """An hour on one card is not an hour's work on another: their datasheet rates side by side
    (memory bandwidth paces decoding, dense FP16 tensor throughput training)."""
    own, other = box.call("gpu_specs", {"gpu": bought}), box.call("gpu_specs", {"gpu": rented})
    if "error" in own or "error" in other:
        return None
    theirs, ours, faster = [], [], set()
    for key, unit, job in (
        ("bandwidth_gbs", "GB/s of memory bandwidth", "decoding"),
        ("fp16_bf16_dense_tflops", "dense FP16 TFLOPS", "training"),
    ):
        if own.get(key) and other.get(key):
            theirs.append(f"{c.num(other[key])} {unit} ({job} pace)")
            ours.append(c.num(own[key]))
            faster.add(other[key] > own[key])
    if not theirs:
        return None
    hours = ("the hours the same jobs take depend on the job" if len(faster) > 1 else
             f"the same jobs take {'fewer' if faster.pop() else 'more'} hours on the rented "
             "card")  # fmt: skip
    return (
        f"An hour is not the same work on both: the {other['name']} has "
        f"{' and '.join(theirs)}, the {own['name']} {' and '.join(ours)}, so {hours}."
    )


# who does what to a card: "buy an RTX 6000 Ada", "keep renting an A100", "H100s in the cloud"
_BUY_WORD = r"buy\w*|purchas\w*|owning|get|getting"  # "i own a 4090": had, not bought
_RENT_WORD = r"rent\w*|leas\w*|cloud|hourly"


def _bought_and_rented(query: Query) -> tuple[GpuRef, GpuRef] | None:
    """Two cards, one to buy and one to rent ("rent an A100 6 h a day or buy an RTX 6000
    Ada?"): the verb nearest before each name says which (one said, the other is the rest)."""
    if len(query.gpus) != 2 or not all(ref.ids for ref in query.gpus):
        return None
    said = []
    for ref in query.gpus:
        at = query.low.find(ref.text.lower())
        before = query.low[max(at - 40, 0) : at]
        verbs = re.findall(rf"\b(?:({_BUY_WORD})|({_RENT_WORD}))\b", before)
        said.append(None if at < 0 or not verbs else "buy" if verbs[-1][0] else "rent")
    other = {"buy": "rent", "rent": "buy"}
    if said.count(None) == 1 and RENT_SAID.search(query.low):
        # one said: the other card is the other side (when renting is said at all: "got a used
        # 3090 ... or should i just get a 4070 ti super" buys both)
        known = next(s for s in said if s)
        said = [s or other[known] for s in said]
    if sorted(map(str, said)) != ["buy", "rent"]:
        return None
    first, second = query.gpus
    return (first, second) if said[0] == "buy" else (second, first)


def _fewest_for_job(query: Query, box: ToolBox, gpu: str | None) -> int | None:
    """The fewest of `gpu` that hold the model named (None without one, or past a node)."""
    if gpu is None or not query.models or not query.models[0].ids:
        return None
    solved = _fewest(query, box, gpu, query.models[0])
    n = solved.get("solution") if "error" not in solved else None
    return n if n and n <= 8 else None


@dataclass(frozen=True)
class Rented:
    """Another card rented in place of the one bought: its hour for all, and in words."""

    usd_per_hour: float
    what: str  # "renting 2 x NVIDIA H100 SXM5 80GB on Lambda"
    terms: str  # what, at which price, from how many prices


def _rented_instead(query: Query, box: ToolBox, ref: GpuRef, bought: int) -> Rented | Draft:
    """The rented card's hour (the count said, or the fewest that hold the model named, else as
    many as are bought) at its median current price, on the cloud named if one is, and its
    words for the answer."""
    gpu = gpu_choices(ref)[0]
    # ("buy 2x 3090 ... or rent an a100": the one card said with its article)
    one = re.search(rf"\b(?:an?|one|a single)\s+{re.escape(ref.text.lower())}\b(?!s)", query.low)
    count = ref.count or (1 if one else None) or _fewest_for_job(query, box, gpu) or bought
    args: dict[str, Any] = {"gpu": gpu, "num_gpus": count, "hours": 1}
    if query.providers:
        args["provider"] = query.providers[0]
    priced = box.call("prices", args)
    median = (priced.get("summary_usd_per_gpu_hour") or {}).get("median")
    if "error" in priced or not median:
        where = f" on {query.providers[0]}" if query.providers else ""
        return Draft(f"No current rental price for the {ref.text}{where}: give one (e.g. "
                     "'$2.10 an hour') and I will set it against buying.")  # fmt: skip
    what = c.gpus_phrase(count, priced.get("gpu_name") or gpu)
    where = f" on {query.providers[0]}" if query.providers else ""
    terms = (
        f"renting {what}{where} instead, at its median {c.usd(median)} per GPU-hour "
        f"({c.usd(median * count)}/hour for all; {priced['count']} current prices)"
    )
    return Rented(median * count, f"renting {what}{where}", terms)


# an epoch's own time said ("2 min 40 sec per epoch"), not "how long will one epoch take"
# "why can't my 8gb card run it", "what is eating all the vram": the fit, part by part
_WONT_RUN = re.compile(
    r"\bwhy (?:can'?t|cannot|won'?t|doesn'?t|does not|isn'?t|wont|cant)\b|\beating\b"
    r"|\bwhere does (?:the |all the |my )?(?:vram|memory) go\b"
)
# ("par epoch", "pro Epoche": the phrasebook reads the question, the handlers its words)
_PER_EPOCH = re.compile(
    r"(?:\bper|\beach|\ban|\bevery|\bpar|\bpor|/)\s?(?:full\s)?(?:epoch|[ée]poque|[ée]poca)\b"
    r"|\bpro epoche\b"
)


def _epoch_time_said(low: str) -> bool:
    """A time said of one epoch: "40 min per epoch", "one epoch takes 3 min 40 s" (not "how
    long will one epoch take?")."""
    return bool(_PER_EPOCH.search(low) or EPOCH_PACE_SAID.search(low))


# a flat monthly fee for a notebook service, not a bill that grows with the hours used
# a horizon of use, not the period of a rate ("22 days per month")
# the horizon a rent-or-buy question is weighed over: "over 3 years", "the grant runs three
# years", "for the next 18 months", "over a four-year horizon"
_SPAN_SAID = re.compile(
    r"(?<!days )(?<!day )\b(?:a|one|per|for a|for one|\d+|over|next) (?:years?|months?)\b"
)


# a speed said of training: "does about 900 tok/s training llama", "trains at 2,500 tok/s"
_TRAINING_PACE = re.compile(
    r"\btrain\w*\s(?:at |about |around |~)*\d[\d,.]*\s?k?\s?(?:tok|tokens|t)\s?(?:/|per)\s?s"
    r"|\d[\d,.]*\s?k?\s?(?:tok|tokens|t)\s?(?:/|per)\s?s(?:ec\w*)?\b[^.?!]{0,12}"
    r"\b(?:training|fine-?tuning|when training|of training)\b"
)


def _gpu_hours_priced(query: Query, box: ToolBox) -> Draft | None:
    """ "cost to train SD 1.5 from scratch, like the original's 150k A100 hours?": GPU-hours the
    user gives, at each variant's current rental prices (low, median, high); no estimate needed."""
    hours = query.hours
    said = _GPU_HOURS_SAID.search(query.low)
    # ("cheapest way to get 20 gpu hours on an a100": the price of those hours asked too)
    asked = query.intent == "cost" or _PRICE_ASKED.search(query.low) or _CHEAPEST.search(query.low)
    if not (hours and said and len(query.gpus) == 1 and asked):
        return None
    if query.user_price_usd_per_hour or query.budget:
        return None  # the user's price, or hours within a budget: the cost handler's
    if _ALLOCATION.search(query.low):
        return None  # "we have 10,000 H100 GPU-hours: enough for a 7B pretraining?": the job's
    rows: list[tuple[float, str]] = []
    clouds = query.providers or (None,)  # "the bill on the cheapest one" of the clouds named
    for provider in clouds:
        for gpu in gpu_choices(query.gpus[0]):
            args = {"gpu": gpu, "hours": hours, **({"provider": provider} if provider else {})}
            priced = box.call("prices", args)
            rent = priced.get("rental_usd") if "error" not in priced else None
            if not rent:
                continue
            median = priced["summary_usd_per_gpu_hour"]["median"]
            at = f" on {provider}" if provider else ""
            rows.append((rent["median"], f"{c.usd(rent['median'])} on the {priced['gpu_name']}{at} "
                         f"at its median {c.usd(median)} per GPU-hour ({c.usd(rent['low'])} to "
                         f"{c.usd(rent['high'])} across {priced['count']} current "
                         "prices)"))  # fmt: skip
    if not rows:
        return None
    if len(clouds) > 1 or _CHEAPEST.search(query.low):
        rows.sort(key=lambda r: r[0])  # the cheapest first, when the cheapest is asked
    lines = [line for _, line in rows]
    head = f"**About {lines[0]}** for your {c.num(hours)} GPU-hours."
    more = [f"- {line}." for line in lines[1:]]
    other = "Other clouds and variants:" if len(clouds) > 1 else "Other variants:"
    return Draft("\n".join([head, *(["", other, *more] if more else [])]))


@dataclass(frozen=True)
class MfuRun:
    """A training run at the user's MFU: the tool's result and the words for it."""

    run: dict[str, Any]  # the train_time_at_mfu result
    name: str  # the model's name
    sheet: dict[str, Any]  # the card's gpu_specs
    params: float  # billions, active ones
    tokens: float
    peak: float  # the dense TFLOPS per GPU it runs at
    fp8: bool

    def work(self, mfu: float) -> str:
        """ "6 x 1.3B parameters x 26B tokens of work at 40% of 312 TFLOPS dense BF16 per GPU
        (998 TFLOPS sustained in all)"."""
        return (f"{self.run['flops_per_token_per_param']} x {c.exact(self.params)}B parameters x "
                f"{c.num(self.tokens / 1e9)}B tokens of work at {c.num(mfu * 100)}% of "
                f"{c.exact(self.peak, 'TFLOPS')} dense {'FP8' if self.fp8 else 'BF16'} per GPU "
                f"({c.num(self.run['effective_tflops'], 'TFLOPS')} sustained in all)")  # fmt: skip


def _trained_params(box: ToolBox, model: ModelRef) -> tuple[float, str] | None:
    """The billions of parameters a token trains (the active ones of a mixture of experts) and
    the model's name: the catalog's, else the size said ("a 1.3B model")."""
    if model.ids:
        spec = box.call("model_specs", {"model": model.ids[0]})
        if "error" in spec:
            return None
        return (spec.get("active_params") or spec["total_params"]) / 1e9, spec["name"]
    if model.size_b:
        return model.size_b, f"a {model.size_b:g}B model"
    return None


def _mfu_run(query: Query, box: ToolBox, count: int | None = None) -> MfuRun | Draft | None:
    """The run of the question's model on its tokens at the MFU the user states, on `count` (or
    the count said, else one) of the first card named; None when any of them is missing."""
    model = query.models[0] if query.models else None
    tokens = (query.train_tokens or 0) * (query.epochs or 1)
    if not (query.mfu and model and tokens and query.gpus and query.gpus[0].ids):
        return None
    if (model.family or "llm") != "llm":
        return None
    trained = _trained_params(box, model)
    if trained is None:
        return None
    params, name = trained
    ref = query.gpus[0]
    count = count or ref.count or query.num_gpus or 1
    sheet = box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]})
    fp8 = bool(query.precision == "fp8" and sheet.get("fp8_dense_tflops"))
    peak = sheet.get("fp8_dense_tflops" if fp8 else "fp16_bf16_dense_tflops")
    if "error" in sheet or not peak:
        return None
    run = box.call("train_time_at_mfu", {"params_b": params, "tokens": tokens, "mfu": query.mfu,
                                         "tflops_per_gpu": peak, "num_gpus": count})  # fmt: skip
    if "error" in run:
        return Draft(run["error"])
    return MfuRun(run, name, sheet, params, tokens, peak, fp8)


def _wall(run: dict[str, Any]) -> str:
    """ "2.35 days (56.4 hours)", or hours alone under two days."""
    if run["hours"] >= 48:
        return f"{c.num(run['days'], 'days')} ({c.num(run['hours'], 'hours')})"
    return c.num(run["hours"], "hours")


def _at_stated_mfu(query: Query, box: ToolBox) -> Draft | None:
    """ "1.3B from scratch on 26B tokens, 8x A100, assuming 40% MFU: how many days?": 6 x the
    parameters x the tokens at the user's share of the cards' dense peak, said first; the
    calculator's own estimate (its calibrated efficiency) under it for comparison. With a
    deadline and no count ("how many GPUs to finish in 2 weeks?"): the fewest that make it."""
    found = _mfu_run(query, box)
    if not isinstance(found, MfuRun):
        return found
    assert query.mfu is not None
    ref = query.gpus[0]
    if query.hours and not (ref.count or query.num_gpus) and _DEADLINE_ASKED.search(query.low):
        count = max(1, math.ceil(found.run["gpu_hours"] / query.hours))
        within = _mfu_run(query, box, count)
        if isinstance(within, MfuRun):
            where = c.gpus_phrase(count, within.sheet["name"])
            return Draft(
                f"**{where[0].upper()}{where[1:]} finish in about {_wall(within.run)}, within "
                f"your deadline, at your {c.num(query.mfu * 100)}% MFU**: "
                f"{within.work(query.mfu)}; {c.num(within.run['gpu_hours'], 'GPU-hours')} in all."
                "\n\nMore GPUs than that finish sooner for about the same GPU-hours, as long as "
                "the MFU holds at that scale (a bigger cluster loses some to communication)."
            )  # fmt: skip
    count = ref.count or query.num_gpus or 1
    where = c.gpus_phrase(count, found.sheet["name"])
    head = (f"**About {_wall(found.run)} of wall time for {found.name} on {where} at your "
            f"{c.num(query.mfu * 100)}% MFU**: {found.work(query.mfu)}; "
            f"{c.num(found.run['gpu_hours'], 'GPU-hours')}.")  # fmt: skip
    priced = _mfu_bill(query, box, found, count)
    own = job_time(replace(query, mfu=None), box)
    return Draft(f"{head}{priced}\n\nThe calculator's own estimate, at the efficiency it is "
                 f"calibrated to rather than your MFU:\n\n{own.text}")  # fmt: skip


def _mfu_bill(query: Query, box: ToolBox, found: MfuRun, count: int) -> str:
    """What the run costs: at the user's price per GPU-hour, else the card's median rent."""
    price, whose = query.user_price_usd_per_hour, "your"
    if price is None:
        offered = box.call("prices", {"gpu": found.sheet["id"]})
        summary = offered.get("summary_usd_per_gpu_hour") if "error" not in offered else None
        if not summary:
            return ""
        price, whose = summary["median"], "the median"
    bill = box.call("rental_cost", {"usd_per_gpu_hour": price, "hours": found.run["hours"],
                                    "num_gpus": count})  # fmt: skip
    if "error" in bill:
        return ""
    return (
        f" It costs about {c.usd(bill['usd'])} at {whose} {c.usd(price)} per GPU-hour "
        "(the GPU-hours are the same on any count)."
    )


def _cost_at_stated_mfu(query: Query, box: ToolBox) -> Draft | None:
    """ "Pretrain a 3B on 300B tokens, H100s at $2/hr, assume 40% MFU: compute and cost?": the
    GPU-hours at the user's MFU and their bill, the wall time on the count said (else a node)."""
    count = (query.gpus[0].count if query.gpus else None) or query.num_gpus or NODE_GPUS
    found = _mfu_run(query, box, count)
    if not isinstance(found, MfuRun):
        return found
    assert query.mfu is not None
    bill = _mfu_bill(query, box, found, count)
    if not bill:
        return None
    where = c.gpus_phrase(count, found.sheet["name"])
    said = "" if (query.gpus[0].count or query.num_gpus) else " (no count said: a node of 8)"
    return Draft(
        f"**About {c.num(found.run['gpu_hours'], 'GPU-hours')} of {found.sheet['name']} at your "
        f"{c.num(query.mfu * 100)}% MFU.**{bill}\n\n"
        f"The work: {found.work(query.mfu)}, "
        f"{c.num(found.run['zettaflops'])} zettaFLOPs; on {where}{said} it takes "
        f"{_wall(found.run)}.",
        cite_more=False,
    )


# a count asked for a deadline: "how many GPUs to finish in 2 weeks?"
_DEADLINE_ASKED = re.compile(r"\bhow many\b|\bnumber of (?:gpus|cards)\b|\bfewest\b")


def _gpu_hours_spread(query: Query, box: ToolBox) -> Draft | None:
    """ "600 GPU-hours of jobs on the 16-GPU partition, packed back to back: how long?": the
    GPU-hours said, shared by the GPUs said with none idle (an hour of one GPU's work each)."""
    count = query.num_gpus or next((g.count for g in query.gpus if g.count), None)
    said = re.search(r"\bgpu[- ]?hours?\b", query.low)
    if not (query.hours and said and count and count > 1) or query.models or query.seconds_per_item:
        return None
    paced = box.call("paced_time", {"seconds_per_item": 3600, "items": query.hours,
                                    "num_gpus": count})  # fmt: skip
    if "error" in paced:
        return None
    cards = c.gpus_phrase(count, _said(query.gpus[0])) if query.gpus else f"{count} GPUs"
    return Draft(
        f"**About {c.duration(paced['hours'])} on {cards}**: {c.num(query.hours, 'GPU-hours')} of "
        f"work shared by {count} GPUs with none idle. Jobs that do not split evenly, or that each "
        "need several GPUs at once, leave some idle and take longer.",
        cite_more=False,
    )


def _gpu_hours_on_a_node(query: Query, box: ToolBox) -> Draft | None:
    """ "A 7B on 140B tokens: how many A100 GPU-hours?", no count said and no one card holds it:
    the run on one node of 8 of the card's board module (SXM) of most memory (or as many nodes
    as hold the model), whose GPU-hours change little with the count."""
    tokens = query.train_tokens
    if not (tokens and query.workload == "train" and c.GPU_HOURS_ASKED.search(query.low)):
        return None
    if len(query.gpus) != 1 or query.gpus[0].count or query.num_gpus or not query.models:
        return None
    ref = query.gpus[0]
    # the 8-GPU board's module (SXM) where the card has one, its largest memory
    sheets = [box.call("gpu_specs", {"gpu": gid}) for gid in _board_module(box, ref.ids)]
    sheets = [sh for sh in sheets if "error" not in sh]
    if not sheets:
        return None
    biggest = max(sheets, key=lambda sh: sh.get("memory_gb") or 0)
    held = _fewest(query, box, biggest["id"], query.models[0])
    fewest = held.get("solution") if "error" not in held else None
    if not fewest and not query.batch:  # a batch of full sequences no count holds: one each
        query = replace(query, batch=1)
        held = _fewest(query, box, biggest["id"], query.models[0])
        fewest = held.get("solution") if "error" not in held else None
    if not fewest or fewest == 1:
        return None  # one card holds it: its GPU-hours on each variant answer it
    count = NODE_GPUS * math.ceil(fewest / NODE_GPUS)
    one = GpuRef(text=biggest["name"], ids=(biggest["id"],), count=count)
    draft = job_time(replace(query, gpus=(one,)), box)
    draft.text += (f"\n\n_Note: no count said: on {count} x {biggest['name']} "
                   f"({count // NODE_GPUS} node{'s' if count > NODE_GPUS else ''} of "
                   f"{NODE_GPUS}); the GPU-hours change little with the count._")  # fmt: skip
    return draft


_TOKEN_COUNT_ASKED = re.compile(r"\bhow many (?:training )?tokens\b|\bhow much data\b")


def tokens_at_stated_mfu(query: Query, box: ToolBox) -> Draft | None:
    """ "$50k of credit, H100s at $2.49/hr, 40% MFU: how many tokens can we train a 1.3B on?":
    the GPU-hours the budget rents, at the user's share of the card's dense peak."""
    model = query.models[0] if query.models else None
    budget = query.budget.usd if query.budget and query.budget.per == "total" else None
    price = query.user_price_usd_per_hour
    if not (query.mfu and model and budget and price and query.gpus and query.gpus[0].ids):
        return None
    if not _TOKEN_COUNT_ASKED.search(query.low):
        return None
    trained = _trained_params(box, model)
    if trained is None:
        return None
    params = trained[0]
    sheet = box.call("gpu_specs", {"gpu": gpu_choices(query.gpus[0])[0]})
    peak = sheet.get("fp16_bf16_dense_tflops") if "error" not in sheet else None
    if not peak:
        return None
    run = box.call("tokens_for_budget_at_mfu", {
        "params_b": params, "budget_usd": budget, "usd_per_gpu_hour": price,
        "tflops_per_gpu": peak, "mfu": query.mfu})  # fmt: skip
    if "error" in run:
        return Draft(run["error"])
    optimal = "past" if run["tokens_per_param"] > run["chinchilla_tokens_per_param"] else "short of"
    return Draft(
        f"**About {c.num(run['tokens_b'])}B tokens** for a {c.exact(params)}B model: your "
        f"{c.usd(budget)} at {c.usd(price)} per GPU-hour rents {c.num(run['gpu_hours'])} "
        f"GPU-hours of the {sheet['name']}, each at your {c.num(query.mfu * 100)}% MFU of "
        f"{c.exact(peak, 'TFLOPS')} dense BF16, and a token costs "
        f"{run['flops_per_token_per_param']} x {c.exact(params)}B FLOPs."
        f"\n\nThat is {c.num(run['tokens_per_param'])} tokens per parameter, {optimal} "
        f"Chinchilla's compute-optimal {run['chinchilla_tokens_per_param']} (Hoffmann et al., "
        "2022).",
        cite_more=False,
    )


def job_time(query: Query, box: ToolBox) -> Draft:
    if carried := _measured_elsewhere(query, box):
        return carried  # "14 hours a run on a V100: how long on an H100?"
    if (stated := tokens_at_stated_mfu(query, box) or _at_stated_mfu(query, box)) is not None:
        return stated
    if (node := _gpu_hours_on_a_node(query, box)) is not None:
        return node
    if (shared := _gpu_hours_spread(query, box)) is not None:
        return shared
    if priced := _gpu_hours_priced(query, box):
        return priced
    if query.user_price_usd_per_hour and _paced_hours(query, 1):  # the user's pace and price
        return cost(query, box)
    items = _paced_items(query)
    if query.seconds_per_item and items:  # "a 45-minute episode took 3 minutes: and 2 hours?"
        return _at_your_pace(query, box, items)
    tokens = (query.train_tokens or 0) * (query.epochs or 1)
    if query.throughput_tok_s and tokens and _TRAINING_PACE.search(query.low):
        # "my rig does 900 tok/s training: 3 epochs of 40M?" (not an inference speed)
        return _tokens_at_your_pace(query, box, tokens, query.throughput_tok_s)
    # ("one epoch takes 3 min 40 s": a time said of it, not "how long will one epoch take?")
    if query.hours and query.epochs and (_epoch_time_said(query.low) or query.epoch_paced):
        # "2 min 40 sec per epoch, 300 epochs: how long?": the user's epoch time, times epochs
        each = query.hours / query.epochs * 3600
        epochs, turns = query.epochs, query.turns
        rounds = math.ceil(turns[0] / turns[1]) if turns else 1  # whole runs on each machine

        def per_epoch(paced: dict[str, Any]) -> str:
            minutes = paced["minutes_per_item"]
            said = c.num(each, "s") if minutes < 10 else c.num(minutes, "minutes")
            taking = (f" a run; {c.num(turns[0])} runs taking turns on {c.num(turns[1])} machines"
                      if turns else "")  # fmt: skip
            return f"{c.num(epochs)} epochs at {said} each{taking}"

        return _paced(box, each, epochs * rounds, 1, per_epoch)[0]
    if (sized := _on_cards_of_that_memory(query, box, job_time, "time")) is not None:
        return sized  # "is a single 24gb card enough and how long?"
    if (due := _deadline_judged(query, box)) is not None:
        return due  # "ETA on our 4 cards? the deadline is 3 weeks"
    if (leaner := _time_when_leaner(query, box)) is not None:
        return leaner  # "how long for 1500 steps?" of a LoRA that fits only as QLoRA
    stand_in = ""
    if query.gpus and not query.models:  # "a unet on 20k images on a 4070 ti: a few hours?"
        query, stand_in = _stood_in(query, box)
    if query.models and (query.gpus or query.memory_gb):
        draft = fit(query, box, speed_first=True)
        draft.text += stand_in
        verdict, spread = _within_allocation(query, box)
        if spread is not None:  # one card does not hold it: the job on those that do, below
            draft.text = c.fit_answer(spread, [], True, False, asked=query.low)
        if verdict:
            draft.text = f"{verdict}\n\n{draft.text}"
        return draft
    return recommend(query, box)


def _on_cards_of_that_memory(
    query: Query, box: ToolBox, answer: Callable[[Query, ToolBox], Draft], what: str
) -> Draft | None:
    """A time or speed asked of a card known only by its memory ("a 24gb card"): a pace needs a
    card's compute, so `answer` on the most rented cards of exactly that memory (NVIDIA's, the
    CUDA cards a job is written for, unless the user limits the choice to another maker)."""
    if not (query.models and not query.gpus and query.memory_gb):
        return None
    top = 2 if what == "time" else 1  # a speed on one card: its verdict, not a comparison
    cards = box.call("list_gpus", {"min_memory_gb": query.memory_gb, "top": top,
                                   "max_memory_gb": query.memory_gb,
                                   "vendor": query.vendor or "nvidia"})  # fmt: skip
    ids = tuple(g["id"] for g in cards.get("gpus", []))
    if not ids:
        return None
    said = GpuRef(text=f"{query.memory_gb:g} GB card", ids=ids, count=query.num_gpus)
    draft = answer(replace(query, gpus=(said,), memory_gb=None, num_gpus=None), box)
    names = " and the ".join(g["name"] for g in cards["gpus"])
    most = "the most rented cards" if len(ids) > 1 else "the most rented card"
    draft.text += (f"\n\n_Note: no card named: the {what} on the {names}, {most} of "
                   f"{query.memory_gb:g} GB._")  # fmt: skip
    return draft


def _time_when_leaner(query: Query, box: ToolBox) -> Draft | None:
    """An adapter fine-tune's time asked on one card that does not hold it as assumed: the time
    of the first leaner recipe (LEANER) that fits there, said as such; None when it fits as
    asked, the user set the memory options, several cards were said, or no recipe fits. (A
    full fine-tune that one card cannot hold is answered on the fewest cards that do.)"""
    gpus, model = gpus_named(query), query.models[0] if query.models else None
    if not (model and model.ids and len(gpus) == 1 and len(query.gpus) == 1):
        return None
    if query.workload not in ("finetune-lora", "finetune-qlora", "finetune"):
        return None
    if (query.gpus[0].count or 1) > 1 or (query.num_gpus or 1) > 1:
        return None
    if query.train_options or query.trainer or query.hours or query.budget:
        return None  # (GPU-hours or money to spend: weighed on the cards that hold it as asked)
    e = box.call("estimate", estimate_args(query, gpus[0], query.num_gpus, model))
    if "error" in e or e["fits"]:
        return None
    for kind, options, words in LEANER:
        if kind != e["workload"]:
            continue
        said = {k: v for k, v in options.items() if k in ("checkpointing", "optimizer",
                                                          "mixed_precision")}  # fmt: skip
        leaner = replace(
            query,
            workload=str(options.get("workload", query.workload)),
            precision=str(options["precision"]) if "precision" in options else query.precision,
            framework=str(options["framework"]) if "framework" in options else query.framework,
            train_options=tuple(said.items()),
        )
        tried = box.call("estimate", estimate_args(leaner, gpus[0], query.num_gpus, model))
        if "error" in tried or not tried["fits"]:
            continue
        draft = fit(leaner, box, speed_first=True)
        head, _, rest = draft.text.partition("\n\n")
        unfit = (f"The figures above are with {words}: as first assumed ({c.settings(e)}), "
                 f"{e['model_name']} does not fit on "
                 f"{c.gpus_phrase(e['num_gpus'], e['gpu_name'])} "
                 f"({c.num(e['memory_per_gpu_gb'], 'GB')} of {c.usable(e)}).")  # fmt: skip
        draft.text = "\n\n".join(filter(None, [head, unfit, rest]))
        return draft
    return None


# GPU-hours the user has to spend: "my allocation is 10,000 H100 GPU-hours. Enough to ...?"
_ALLOCATION = re.compile(
    r"\ballocation\b|\bquota\b|\bgranted\b|\bgiven\b|\bbudget\b|\benough\b"
    r"|\b(?:we|i) (?:have|got|get)\b|\bavailable\b|\bleft\b|\bremaining\b|\bcredits?\b"
)
_GPU_HOURS_SAID = re.compile(r"\bgpu[- ]?hours?\b|\b[a-z]{1,3}\d{2,4}[a-z]?[- ]hours?\b")


def _within_allocation(query: Query, box: ToolBox) -> tuple[str, dict[str, Any] | None]:
    """Yes or no: the job's hours on one GPU (the first estimate made) against the GPU-hours the
    user has, and how many times over they cover it; with the estimate on several GPUs when one
    does not hold the job (None when one does)."""
    low = query.low
    if not (query.hours and _GPU_HOURS_SAID.search(low) and _ALLOCATION.search(low)):
        return "", None
    done = [c.result for c in box.calls if c.name == "estimate" and "gpu" in c.result]
    if not done:
        return "", None
    spread_used = None
    shown = [r for r in done if r["gpu"] == done[0]["gpu"]][-1]  # the first card's last: shown
    if not shown.get("fits") and not query.num_gpus and query.models:
        # "1000 A100 hours for a 70B LoRA": on the fewest cards that hold it, the variant (of
        # those estimated) that spends the fewest GPU-hours
        firsts = {r["gpu"]: r for r in reversed(done)}.values()
        spreads = [s for r in firsts if (s := _spread(query, box, r, query.models[0]))]
        if spreads:
            spent = [(s.get("cost") or {}).get("job_gpu_hours") or math.inf for s in spreads]
            shown = spread_used = spreads[spent.index(min(spent))]
    if not shown.get("fits"):
        return "", None  # "does not fit" answers it; hours of a setup that cannot run do not
    job, name, count = typical_job_hours(shown), shown["gpu_name"], shown.get("num_gpus") or 1
    # on several GPUs (as many as hold the job) the allocation pays for each one's hours
    used = job if count == 1 else (shown.get("cost") or {}).get("job_gpu_hours")
    if not job or not used:
        return "", None
    where = (f"on one {name}" if count == 1 else
             f"on {c.gpus_phrase(count, name)}, {c.num(used, 'GPU-hours')}")  # fmt: skip
    enough = used <= query.hours
    times = f" ({c.num(query.hours / used)}x the job)" if count == 1 else ""
    return (
        f"**{'Yes' if enough else 'No'}: the job takes about {c.num(job, 'hours')} {where}, "
        f"against the {c.num(query.hours, 'hours')} of GPU time you have{times}.**"
    ), spread_used


# another step count asked beside a pace: "and if i bump it to 40 steps", "at 50 steps instead"
_STEPS_CHANGED = re.compile(
    r"\b(?:bump|rais|increas|go|push|set|chang|turn|crank|up)\w*\s(?:it\s|that\s|them\s)?"
    r"(?:up\s)?to\s(\d+)\s?steps\b|\b(?:at|with) (\d+) steps instead\b"
)


def _at_your_pace(query: Query, box: ToolBox, items: float) -> Draft:
    """The job's time at the pace the user measured, then the estimate beside it as a check."""
    count = _gpu_count(query)
    sharing = 1 if query.pace_whole else count  # a node's pace is already all of its GPUs'
    audio = bool(query.audio_hours) and items == query.audio_hours
    if sharing > 1:
        split = f", shared by {count} GPUs"
    else:
        split = f", the pace of all {count} GPUs together" if count > 1 else ""

    def said(paced: dict[str, Any]) -> str:
        what = (f"{c.num(items, 'hours')} of audio at {c.num(paced['minutes_per_item'], 'minutes')}"
                " per hour of audio" if audio else
                _pace_said(query, items))  # fmt: skip
        return what + split

    head, timed = _paced(box, query.seconds_per_item or 0.0, items, sharing, said)
    more = _STEPS_CHANGED.search(query.low)
    if timed and more and query.steps and query.seconds_per_item and query.images:
        # "4 it/s at 25 steps ... and if i bump it to 40 steps": an image's time grows with its
        # steps at the same it/s
        steps = int(next(g for g in more.groups() if g))
        each = query.seconds_per_item * steps / query.steps
        other = box.call("paced_time", {"seconds_per_item": each, "items": items,
                                        "num_gpus": sharing})  # fmt: skip
        if "error" not in other and steps != query.steps:
            head.text += (f" At {steps} steps: about {c.duration(other['hours'])} "
                          f"({c.num(each, 's')} an image at the same pace per step).")  # fmt: skip
    if timed and query.per_day and _CARDS_ASKED.search(query.low):
        return _cards_for_a_day(query, box, items, head)
    queued = _BACK_TO_BACK.search(query.low)
    queue = queued.group(1) if queued else "0"
    runs = int(queue) if queue.isdigit() else NUMBER_WORDS[queue]
    if timed and runs > 1:  # "and all 6 of the loras back to back?": the queue's time
        whole = box.call("paced_time", {"seconds_per_item": query.seconds_per_item,
                                        "items": items * runs, "num_gpus": sharing})  # fmt: skip
        if "error" not in whole:
            head.text += f" All {runs} back to back: about {c.duration(whole['hours'])}."
    if timed and query.models and (query.gpus or query.memory_gb):
        check = fit(query, box, speed_first=True).text
        return Draft(head.text + "\n\nThe estimate, as a check on that pace: " + check)
    return head


# how many cards a load takes: "the minimum number of L4s", "how many gpus would we need"
_CARDS_ASKED = re.compile(
    r"\bhow many\b|\b(?:minimum|smallest|fewest|least) (?:number of )?(?:\w+ ){0,2}?(?:gpus|cards"
    r"|[a-z]{1,4}\d{1,4}[a-z]?s)\b"
)


def _cards_for_a_day(query: Query, box: ToolBox, items: float, one: Draft) -> Draft:
    """A day's work at the user's pace ("2,000 hours of audio a day at 60x real time"): the fewest
    cards that finish it within the 24 hours of a day (or the hours a day said), each working
    apart on its share."""
    day = box.call("paced_time", {"seconds_per_item": query.seconds_per_item, "items": items})
    if "error" in day:
        return one
    window = query.use_hours_per_day or 24.0
    cards = max(1, math.ceil(day["hours"] / window - 1e-9))
    shared = box.call("paced_time", {"seconds_per_item": query.seconds_per_item, "items": items,
                                     "num_gpus": cards})  # fmt: skip
    if "error" in shared:
        return one
    name = next((g.text for g in query.gpus), "GPU")
    unit = "card" if cards == 1 else "cards"
    return Draft(
        f"**{cards} {name} {unit}**: a day's work takes about {c.duration(day['hours'])} of GPU "
        f"time at your own measured pace, so {cards} working apart finish it in about "
        f"{c.duration(shared['hours'])} of each {c.num(window)}-hour day.",
        cite_more=False,
    )


# several runs queued one after another: "queue all 6 of the character loras back to back"
_BACK_TO_BACK = re.compile(
    r"\b(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twelve) (?:(?:of (?:the|my|our) )?"
    r"(?:[\w-]+ ){0,2}(?:loras?|runs?|jobs?|models?|trainings?|fine-?tunes?|experiments?)\b"
    r"|of (?:them|these|those)\b)[^.?!]{0,30}\b(?:back[- ]to[- ]back|in a row|one after "
    r"(?:the )?(?:other|another)|sequentially|in sequence)"
)


def _paced(
    box: ToolBox,
    each: float,
    items: float,
    gpus: int,
    said: Callable[[dict[str, Any]], str],
    measured: str = "pace",
) -> tuple[Draft, bool]:
    """The `paced_time` tool's hours for `items` at the user's own `each` seconds, as the bold
    first line "About X at your own measured pace (what was said)", and True; the tool's error
    and False if the figures cannot be used. Arithmetic on the user's figures: nothing to cite."""
    paced = box.call("paced_time", {"seconds_per_item": each, "items": items, "num_gpus": gpus})
    if "error" in paced:
        return Draft(paced["error"]), False
    return Draft(f"**About {c.duration(paced['hours'])} at your own measured {measured}** "
                 f"({said(paced)}).", cite_more=False), True  # fmt: skip


def _tokens_at_your_pace(query: Query, box: ToolBox, tokens: float, speed: float) -> Draft:
    """The hours to generate `tokens` at the speed the user measured (tokens/s as given), over
    the streams run side by side when the speed is said per stream ("41 tok/s per stream, 6
    streams in parallel")."""
    streams = query.concurrency or 1
    if streams < 2 or not _PER_STREAM.search(query.low):
        streams = 1
    apart = f" per stream, {streams} streams side by side" if streams > 1 else ""
    return _paced(
        box,
        1 / speed,
        tokens,
        streams,
        lambda _: f"{c.num(tokens)} tokens at {c.num(speed)} tokens/s{apart}",
        "speed",
    )[0]


def _made_at_your_pace(query: Query, box: ToolBox) -> Draft | None:
    """ "Our cluster sustains 2,400 tokens/s: how many tokens in a 30-day month?": the count a
    pace the user measured gets through in the hours given (the `paced_count` tool)."""
    asked = MADE_ASKED.search(query.low)
    if not (asked and query.hours):
        return None
    said = asked.group(1) or _thing_paced(query.low)
    tokens = said.startswith("token")
    if tokens and query.throughput_tok_s:
        per_second, unit = query.throughput_tok_s, "tokens"
    elif not tokens and query.seconds_per_item:
        per_second, unit = 1 / query.seconds_per_item, said.rstrip("s") + "s"
    else:
        return _made_at_the_estimate(query, box, said)
    made = box.call("paced_count", {"per_second": per_second, "hours": query.hours})
    if "error" in made:
        return None
    pace = f"{c.num(made['per_second'])} {unit}/s"  # the pace as the tool took it
    return Draft(f"**About {c.num(made['items'], unit)} in {c.duration(query.hours)}** at your "
                 f"own measured {pace}, running the whole time.", cite_more=False)  # fmt: skip


def _thing_paced(low: str) -> str:
    """What a count asked without its noun is of ("how many can it make?"): the images, frames
    or tokens the message speaks of."""
    found = re.search(r"\b(images?|pictures?|renders?|frames?|tokens?|samples?)\b", low)
    return found.group(1) if found else "images"


def _made_at_the_estimate(query: Query, box: ToolBox, said: str) -> Draft | None:
    """ "How many SDXL images can a 4090 make in an 8-hour shift?": the estimate's pace on the
    card named, over the hours said (the `paced_count` tool on the estimated pace)."""
    if len(query.gpus) != 1 or not query.gpus[0].ids or len(query.models) != 1 or not query.hours:
        return None
    ref, model = query.gpus[0], query.models[0]
    args = estimate_args(query, gpu_choices(ref)[0], ref.count, model)
    e = box.call("estimate", args)
    if "error" not in e and not e.get("fits") and query.precision is None:
        # the format the card holds it in, as people run it: a GGUF 4-bit for a language model
        # on one card, fp8 for an image model
        lower = ({"precision": "q4_k_m", "engine": "llama.cpp"} if model.family in (None, "llm")
                 else {"precision": "fp8"} if model.family == "diffusion" else None)  # fmt: skip
        e = box.call("estimate", {**args, **lower}) if lower else e
    if "error" in e or not e.get("fits"):
        return None  # (a count made by what does not fit is no answer: the fit answer says so)
    images = (e.get("images_per_s") or {}).get("typical")
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    serving = (e.get("serving_tokens_per_s") or {}).get("typical")
    if images and not said.startswith("token"):
        per_second, unit, pace = images, "images", f"{c.num(images)} images/s"
    elif serving and said.startswith("token") and _TOTAL_ASKED.search(query.low):
        # "how many tokens at full load?": all the requests in flight together
        per_second, unit = serving, "tokens"
        pace = (f"{c.num(serving)} tokens/s with {e.get('serving_batch') or 'its'} requests in "
                "flight")  # fmt: skip
    elif decode and said.startswith("token"):
        per_second, unit, pace = decode, "tokens", f"{c.num(decode)} tokens/s for one stream"
    else:
        return None
    made = box.call("paced_count", {"per_second": per_second, "hours": query.hours,
                                    "pace_source": "estimated"})  # fmt: skip
    if "error" in made:
        return None
    head = (f"**About {c.num(made['items'], unit)} in {c.duration(query.hours)}** on "
            f"{c.gpus_phrase(ref.count or 1, e['gpu_name'])} at the estimated {pace} "
            f"({c.settings(e)}), running the whole time.")  # fmt: skip
    return Draft(f"{head}\n\n{c.memory_line(e)}")


_PER_STREAM = re.compile(  # the speed said of one stream: "41 tok/s per stream"
    r"(?:tok(?:en)?s?\s?/\s?s(?:ec)?|tokens? (?:per|a) second|t/s|tps)\s(?:per|each|a|for each|in "
    r"each|on each)\s(?:stream|request|user|seq\w*|session|worker)\b"
)


# ---------------------------------------------------------------- explanations


def _vague(query: Query) -> bool:
    """A few words with nothing to compute or look up: "which gpu is best", "will it fit?",
    or the calculator's question of nothing named: "how many tokens per second would I get?"."""
    named = query.gpus or query.models or query.memory_gb or query.topic or query.vendor
    # (a maker's cards: "what do the articles say about llms on amd gpus"; or a pace of the
    # user's own: "18 tok/s, 2 million tokens out: how many hours?")
    named = named or query.throughput_tok_s or query.output_tokens or query.seconds_per_item
    short = len(re.findall(r"[^\W_]+", query.text)) <= 6
    return not named and (short or bool(UNNAMED_ASKED.search(query.low)))


def _heads_explained(query: Query, box: ToolBox) -> Draft | None:
    """ "what does tensor-parallel-size do and why can't I use my 3 GPUs?": the split of every
    layer's heads, and whether the model's head count allows that many GPUs."""
    n = query.num_gpus or next((g.count for g in query.gpus if g.count), None)
    model = next((m for m in query.models if m.ids), None)
    said = _TP_SAID.search(query.low)
    if not (n and n > 1 and model and said and model.family in (None, "llm")):
        return None
    sheet = box.call("model_specs", {"model": model.ids[0]})
    heads, kv = sheet.get("num_attention_heads"), sheet.get("num_kv_heads")
    if "error" in sheet or not heads or heads % n == 0:
        return None
    return Draft(
        f"**Tensor parallel gives each GPU an equal share of every layer: its slice of the "
        f"attention heads and of the weight matrices, with an all-reduce between the GPUs after "
        f"each layer. {sheet['name']} has {heads} attention heads"
        f"{f' ({kv} KV heads)' if kv else ''}, and {n} does not divide {heads}, so a "
        f"tensor-parallel size of {n} is refused.**\n\n"
        f"Use a GPU count that divides {heads} for tensor parallel, or, to use all {n} GPUs, "
        f"split by layers instead (vLLM's --pipeline-parallel-size {n}): each GPU holds whole "
        "layers, and only the activations pass between them."
    )


def explain(query: Query, box: ToolBox) -> Draft:
    """The sentences of the articles that answer the question, each cited, with the datasheet
    figures of what it names; the catalog alone when the articles do not cover it."""
    if _vague(query):
        return Draft(c.ASK_BACK)
    heads = _heads_explained(query, box)
    if heads is not None:
        return heads
    if len(gpus_named(query)) == 2 and not query.topic and _AHEAD.search(query.low):
        # "why is the H100 so much faster than the A100 for training?": the two cards' figures
        # for the job say why, where article sentences would praise one of them
        versus = compare(query, box)
        versus.text = _why_ahead(query, box) + versus.text
        return versus
    if query.models and query.memory_gb and not query.gpus and _WONT_RUN.search(query.low):
        # "why can't my 8gb card run llama 2 13b? what eats the vram?": the fit, part by part
        return fit(query, box)
    result = box.call("search_corpus", {"query": query.read, "k": 6})
    passages = result.get("passages", [])
    emphasis = [*(g.text for g in query.gpus), *(m.text for m in query.models)]
    if query.topic:
        emphasis.append(query.topic.replace("_", " "))
    found = [(p["id"], p["text"], p["section"]) for p in passages]
    chosen = best_sentences(query.read, found, emphasis)
    concept = glossary.entry(query.topic)
    if concept is not None:
        explained = _concept(query, box, concept, chosen)
        if (said := _card_has_it(query, box)) is not None:  # "... and does this card have them?"
            explained.text = said + "\n\n" + explained.text
        return explained
    figures = _figures_for(query, box)
    weights = _weights_for(query, box)
    if query.models or query.gpus:  # a sentence about other hardware answers nothing asked
        chosen = [s for s in chosen if _mentions(s.text, query)]
    if weights and not chosen:  # "why does flux dev need more vram than sdxl?": the weights
        lead = "; ".join(weights)
        pipeline = any("denoiser" in line for line in weights)
        body = [f"**{lead}.**", "",
                "A model's weights take its parameter count times the bytes per parameter of "
                "the format they are stored in"
                + ("; an image pipeline adds its text encoders and VAE to the denoiser."
                   if pipeline else ".")]  # fmt: skip
        if figures:
            body += ["", "From the datasheet table:", *figures]
        return Draft("\n".join(body), cite_more=False)
    figures += ["", "The models' weights:", *(f"- {line}" for line in weights)] if weights else []
    if not chosen:
        head = "The articles do not cover this question"
        if figures:
            return Draft(head + "; from the datasheet table:\n\n" + "\n".join(figures))
        if query.vendor or re.search(r"\barticles?\b|\bsources?\b", query.low):
            # "what do the articles say about llms on amd gpus": said so, and what to ask instead
            maker = f" on {query.vendor} cards" if query.vendor else ""
            return Draft(f"{head}: no passage of the articles speaks to it{maker}. Name a "
                         "model and a card, and the calculator gives its fit, speed and "
                         "cost.")  # fmt: skip
        if re.search(r"\b(?:gpus?|cards?|graphics)\b", query.low) and not query.topic:
            return Draft(c.ASK_BACK)  # "get me a faster gpu": which job is it for?
        return Draft(head + ", and it names no GPU or model I can calculate for.")
    order = list(box.passages)
    lines = [f"{s.text} [{order.index(s.passage_id) + 1}]" for s in chosen]
    text = "**" + lines[0].replace(" [", "** [", 1) if " [" in lines[0] else lines[0]
    asked_lead = _asked_figures(query, box)  # "quantify its FP64 against an A100": them first
    body = [text, *lines[1:]] if asked_lead is None else [asked_lead, "", *lines]
    if figures:
        body += ["", "From the datasheet table:", *figures]
    body += ["", "The sentences are quoted from the cited articles as written."]
    cited = [box.citation(pid) for pid in dict.fromkeys(s.passage_id for s in chosen)]
    return Draft("\n".join(body), [q for q in cited if q is not None])


def _asked_figures(query: Query, box: ToolBox) -> str | None:
    """The datasheet figures a why-question asks of the cards it names, as one bold line
    ("**FP64: NVIDIA GeForce RTX 4090 1.29 TFLOPS, NVIDIA A100 ... 9.70 TFLOPS.**")."""
    asked = tuple(f for f in query.fields if f in c.FIELD_LABELS)
    ids = [gpu_choices(ref)[0] for ref in query.gpus][:4]
    if not asked or not ids:
        return None
    sheets = [box.call("gpu_specs", {"gpu": g}) for g in ids]
    return c.asked_line([s for s in sheets if "error" not in s], asked)


# a figure asked of the thing named, not what the concept is
_FIGURE_ASKED = re.compile(
    r"\bhow (?:much|many|big|large)\b|\bwhat(?:'s| is) the (?:size|amount)\b|\bhow fast\b"
)


def _concept(query: Query, box: ToolBox, concept: glossary.Entry, chosen: list[Any]) -> Draft:
    """What the concept is first, then its figures on real hardware, then at most two article
    sentences that speak of it (each cited); none when the articles say nothing on it."""
    lines = [f"**{concept.lead}**", "", concept.more]
    versus = _memory_types(query, box)
    figures = glossary.figures(concept.topic, query, box)
    if versus:
        lines = [versus, "", concept.lead, concept.more]
    else:
        figures += _figures_for(query, box)
    named = query.models or query.gpus
    how_it_works = re.search(r"\bhow (?:does|do|is)\b|\bwhat (?:is|are)\b|\bexplain\b", query.low)
    sized = _FIGURE_ASKED.search(query.low) or query.context or query.concurrency
    if figures and named and not versus and sized and not how_it_works:
        # "how much kv cache does llama 3 70b need at 128k?": the figure for it, then what it is
        first = figures[0].removeprefix("- ").rstrip(".")
        lines = [f"**{first}.**", "", concept.lead, concept.more]
        figures = figures[1:]
    if figures:
        lines += ["", *(f if f.startswith("- ") else f"- {f}" for f in figures)]
    words = [w.lower() for w in concept.mentions]
    asked = content_words(query.read) - content_words(" ".join(concept.mentions))
    quoted = [  # on the concept, and on something else the question asks too
        s for s in chosen
        if any(w in s.text.lower() for w in words) and asked & content_words(s.text)
    ][:2]  # fmt: skip
    order = list(box.passages)
    if quoted:
        lines += ["", "From the articles:"]
        lines += [f"- {s.text} [{order.index(s.passage_id) + 1}]" for s in quoted]
        lines += ["", "The sentences are quoted from the cited articles as written."]
    cited = [box.citation(pid) for pid in dict.fromkeys(s.passage_id for s in quoted)]
    return Draft("\n".join(lines), [q for q in cited if q is not None])


_MEMORY_TYPE = re.compile(r"\b(hbm\d?e?|gddr\d?x?)\b", re.IGNORECASE)
# one kind of memory said to be the only one of use: "only HBM cards are any use", "GDDR's just
# gaming memory"
_ONE_TYPE_ONLY = re.compile(
    r"\bonly (?:the )?(?:hbm|gddr)\w*\b|\b(?:hbm|gddr)\w*(?:'s| is| are)? (?:just|only|merely) "
    r"(?:for )?(?:gaming|games|graphics)\b|\b(?:hbm|gddr)\w*\b[^.?!]{0,30}\b(?:useless|no good|"
    r"no use|not good enough)\b"
)


def _type_name(kind: str) -> str:
    """ "hbm2e" -> "HBM2e", "gddr6x" -> "GDDR6X": as datasheets write them."""
    name = kind.upper()
    return name[:-1] + "e" if name.startswith("HBM") and name.endswith("E") else name


def _memory_types(query: Query, box: ToolBox) -> str | None:
    """ "GDDR6 vs HBM2e, does it matter?": the most rented GPU of each type and its bandwidth,
    the faster type first."""
    said = list(dict.fromkeys(_type_name(m.group(1)) for m in _MEMORY_TYPE.finditer(query.text)))
    if len(said) < 2:
        return None
    rows = []
    for kind in said[:2]:
        found = box.call("list_gpus", {"memory_type": kind, "top": 1}).get("gpus", [])
        if not found:
            return None
        rows.append((kind, found[0]))
    rows.sort(key=lambda r: -r[1]["bandwidth_gbs"])
    (fast, a), (slow, b) = rows
    if _ONE_TYPE_ONLY.search(query.low):  # "only HBM cards are any use, GDDR's just gaming"
        return (f"**No: {slow} cards run AI work too (LLMs, training, image generation); "
                f"{fast} is faster where bandwidth decides: the {a['name']} ({fast}) reads "
                f"memory at {c.num(a['bandwidth_gbs'], 'GB/s')} against "
                f"{c.num(b['bandwidth_gbs'], 'GB/s')} for the {b['name']} ({slow}).** What a "
                "card holds and how fast it reads it decide the job, not the memory's kind: "
                "compute-bound work (large-batch matrix multiplies, image generation) depends on "
                "bandwidth much less.")  # fmt: skip
    return (f"**{fast} where bandwidth decides: the {a['name']} ({fast}) reads memory at "
            f"{c.num(a['bandwidth_gbs'], 'GB/s')} against {c.num(b['bandwidth_gbs'], 'GB/s')} "
            f"for the {b['name']} ({slow}).** Bandwidth sets LLM decode speed and the "
            "memory-bound parts of training; compute-bound work (large-batch matrix "
            "multiplies, image generation) depends on it much less.")  # fmt: skip


def _figures_for(query: Query, box: ToolBox) -> list[str]:
    """Datasheet lines for what an explain question names: its GPUs, or for a memory type
    (HBM, GDDR) the two most rented GPUs that have it."""
    ids = [g for ref in query.gpus for g in gpu_choices(ref)[:2]][:4]
    if not ids and query.topic in ("hbm", "gddr"):
        for kind in ("hbm", "gddr"):
            found = box.call("list_gpus", {"memory_type": kind, "top": 1})
            ids += [g["id"] for g in found.get("gpus", [])]
    lines = []
    asked = [f for f in query.fields if f in c.FIELD_LABELS and f not in c.SUMMARY_FIELDS]
    for gid in ids:
        sheet = box.call("gpu_specs", {"gpu": gid})
        if "error" not in sheet:  # the figures asked ("its FP64 against an A100") beside it
            extra = c.figures_of(sheet, asked)
            lines.append("- " + c.sheet_summary(sheet) + (f" {extra}." if extra else ""))
    return lines


_HALF_SAID = re.compile(
    r"\b(?:fp16|bf16|float16|half[- ]precision|16[- ]?bits?|both ways|unquanti[sz]ed)\b"
    r"|\b(?:normal|full|original|regular|uncompressed|unquanti[sz]ed|non-quanti[sz]ed|proper"
    r"|real|full[- ]size|full[- ]fat) "
    r"(?:one|version|model|weights|precision|size)\b"
)
_PARTS = {"weights": "weights", "denoiser": "denoiser", "text_encoders": "text encoders",
          "vae": "VAE"}  # fmt: skip


def _weights_for(query: Query, box: ToolBox) -> list[str]:
    """The weights of the models an explain question names, in the format it names and in 16
    bits when it sets the two against each other ("why does int8 use less memory than fp16
    for large-v3? show the arithmetic"), an image pipeline's parts one by one."""
    formats: list[str | None] = list(formats_weighed(query)) or [query.precision]
    if (
        len(formats) == 1
        and query.precision not in (None, "fp16", "bf16")
        and _HALF_SAID.search(query.low)
    ):
        formats.append("fp16")
    lines = []
    for ref in [m for m in query.models if m.ids][:3]:
        for precision in formats:
            args = {"model": ref.ids[0], "gpu": REFERENCE_MEMORY, "precision": precision}
            e = box.call("estimate", {k: v for k, v in args.items() if v is not None})
            parts = {k: v for k, v in e.get("breakdown_gb", {}).items() if k in _PARTS}
            if "error" in e or not parts:
                continue
            said = " + ".join(f"{_PARTS[k]} {c.num(v, 'GB')}" for k, v in parts.items())
            total = e.get("weights_alone_gb", sum(parts.values()))
            whole = f" = {c.num(total, 'GB')}" if len(parts) > 1 else ""
            name = e.get("model_name", ref.text)
            lines.append(f"{name} in {e['precision']}: {said}{whole}")
    return lines


def _mentions(sentence: str, query: Query) -> bool:
    """Whether a sentence speaks of a GPU or model the question names."""
    low = sentence.lower()
    sizes = {s for ref in query.models for i in ref.ids
             for s in re.findall(r"(\d+(?:\.\d+)?)b\b", i)}  # fmt: skip
    sized = any(re.search(rf"(?<![\d.]){re.escape(s)}\s?-?(?:b|billion)\b", low) for s in sizes)
    if sizes and not sized and not query.gpus:
        return False  # "Llama-3-70B" says nothing of the Llama 3.1 8B asked about
    words = {w for ref in query.models for part in (ref.text, *ref.ids)
             for w in re.findall(r"[a-z][a-z0-9.]{2,}", part.lower())}  # fmt: skip
    words |= {w for ref in query.gpus for part in (ref.text, ref.base or "")
              for w in re.findall(r"[a-z]*\d+[a-z0-9]*|[a-z]{3,}", part.lower())}  # fmt: skip
    words -= {"large", "base", "small", "medium", "tiny", "instruct", "chat", "nvidia", "rtx"}
    # "the RTX 4090 Laptop GPU" is another card than the RTX 4090 asked about
    other = "" if "laptop" in query.low else r"(?! (?:laptop|mobile|max-q)\b)"
    return any(re.search(rf"(?<![\w.]){re.escape(w)}(?![\w]){other}", low) for w in words)


def _excerpt(text: str, limit: int = 400) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(". ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit].rsplit(" ", 1)[0]) + " ..."
