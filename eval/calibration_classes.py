"""Per-class calibration benchmark of the LLM calculator on eval/calibration/llm.csv.

Every row of the sourced LLM table (eval/calibration/README.md) that can be read as a calculator
request is turned into one through the public door only (`advisor.calculator.Request` /
`estimate`, the catalog's `get_gpu` and `advisor.calculator.find_model`), put in one class by
`row_class` (engine, workload, metric, GPU count, framework / source), and scored three ways:

1. the calculator as shipped: median and p90 absolute percentage error (APE = |pred - meas| /
   meas) and the signed bias exp(median log(pred / meas)) - 1 ("+35%" = predicts 35% too high);
2. a rule of thumb on the same rows (below);
3. leave-one-source-out (LOSO): one multiplicative correction k = exp(median log(meas / pred))
   fitted on the other sources' rows of the class and applied to the held-out source's rows,
   beside the in-sample error with k fitted on every row of the class. A source is the row's
   `source` text before "@" (so each PEFT result file, MLPerf system and Axolotl example README
   counts as a source of its own).

Rows that cannot be scored are counted by reason, never guessed at.

    python -m eval.calibration_classes [--json PATH] [--md PATH]

How a row becomes a request (every choice the table's columns leave open)
---------------------------------------------------------------------------
Rows left out
    - metrics with no Estimate field: requests_per_s, total_tokens_per_s (no stated lengths),
      train_time_s, train_step_s, max_context, fits, speedup_vs_hf, vram_change_pct;
    - the LLaMA-Factory README "Hardware Requirement" rows (its own ESTIMATES), Axolotl's stated
      GPU requirements, and the row its note marks SUSPECT (warm-up);
    - speed rows their own source calls obsolete: the oobabooga comparison's llama.cpp rows
      (llama-cpp-python 0.2.11), whose Update 2 says llama.cpp PR #3776 makes them so (13B
      Q4_K_M decodes 30.8 tok/s there, beside 56.9 for ExLlamaV2 at 4.25 bits on the same card);
    - rows whose model is a mixture of experts the catalog lacks (Nemotron-3-Super, Granite-4.0
      Tiny): a dense stand-in of the same size would misstate speed and memory;
    - precisions the calculator cannot hold (EXL2 outside 4.0-4.25 bits, 2-bit, MLPerf "as
      submitted", "bf16 or fp8 (not specified)", MLPerf's mixed "fp4/fp8");
    - the TensorRT-LLM 0.5.0 TP>1 rows, whose note says per-GPU vs total is not stated;
    - TTFT measured at a concurrency above 1 (queueing, below);
    - speed rows measured through a hosted endpoint (the TGI rows of philschmid's SageMaker
      benchmark, `instance=ml.*`): their figures are k6 request latencies through SageMaker's
      HTTPS invocation divided by the tokens generated, so the endpoint's and the network's
      time per request is in every figure, and their ShareGPT prompts have no stated length;
    - PEFT adapters that are not LoRA (IA3, LoHa, LoKr, OFT, BOFT, VeRA, prompt tuning, LN tuning),
      LoRA that also trains the embedding and LM head (Qwen "LoRA (emb)"), GaLore, LISA,
      LLaMA-Pro, and ms-swift's flash_attn=off rows (and, for speed, LLaMA-Factory's "HF" rows,
      its transformers without FlashAttention-2): the Request cannot say any of these;
    - training speed over several nodes (the network between them is not stated; the Request's
      GPUs share one board's link), and torchtune's unpacked baseline (its batches are padded
      to the longest sample, not to max_seq_len);
    - rows lacking what their figure depends on: the prompt length of a TTFT, prefill,
      full-load serving or inference-memory figure (the Qwen(1) README's memory tables name
      only the tokens generated); the output length of a throughput that includes prefill; the
      concurrency of a TPOT measured at a request rate; the batch or sequence length of a
      training row (read from `options` when the columns are blank: batch / micro_batch / mbs,
      max_length / seq_len / max_seq_len / max_seq_length).

GPU (GPU_VARIANTS)
    A name without its variant ("A100 80GB": SXM4 or PCIe; "H100": SXM5, PCIe or NVL; "H200",
    "A800") maps to every catalog variant it may be, as eval/family_rows.py does: the row is kept
    only where the calculator's figures for the variants agree within 10% (memory always does),
    and is predicted by their geometric mean; the rule of thumb likewise. GPU strings naming no
    card ("unspecified (single GPU)") stand for a T4 and an A100 80GB; only memory rows survive.
    VRAM budgets ("24GB VRAM budget") and "any (estimate)" are not GPUs.
Model (MODEL_NAMES)
    The catalog's entry where `find_model` finds one (LLaMA-1 7B/13B are Llama-2's shape,
    "Mistral-7B" and OpenBuddy-Zephyr are Mistral-7B-v0.1); otherwise a generic dense model of
    the row's params_b ("7.72b"), whose layer shape (and vocabulary) is the nearest template's.
Engine (ENGINE_MAP)
    Speed rows run on the row's own engine where the calculator knows it (`ENGINES`: hf, vllm,
    llama.cpp, tensorrt-llm, sglang, lmdeploy, tgi, exllamav2, autoawq, mlc-llm); exllama ->
    vllm, and NIM -> tensorrt-llm (a compiled C++ runtime). Memory rows still map through
    ENGINE_MAP (tgi, sglang, exllamav2 -> vllm; lmdeploy -> tensorrt-llm), as
    eval/calibration_benchmark.py maps them, except AutoAWQ (MEMORY_ENGINES), whose fused layers
    the calculator models: a preallocated KV cache and attention scores held in full, and
    ExLlama v1 and v2 (as ExLlamaV2, MEMORY_STAND_INS): the input embedding in system RAM and
    scratch buffers sized for 2048-token input chunks. A speed
    row's `pp` option (TensorRT-LLM's "tp=1;pp=N" rows) is the Request's pipeline stages.
    ExLlama v1's prefill rows run as ExLlamaV2 (PREFILL_STAND_INS: the same dequantise-then-
    cublasHgemm prompt path). An AutoAWQ row's `kernel=gemv` is the Request's awq_version. A
    speed row's `engine_version` is the Request's engine_version where the row runs on its own
    engine (not a stand-in): TensorRT-LLM 0.6.1 has no XQA kernel and reads a grouped KV head
    once per query head (advisor/calculator/factors.py GROUPED_KV_READ_SINCE); ExLlamaV2 0.0.6
    (the oobabooga rows) predates the CUDA graphs and kernels of the 0.1.9 README table
    (RELEASE_LAYER_MS). A speed row whose options set a repetition, presence or frequency
    penalty (other than 1, 0, 0) is the Request's sampling_penalties (PENALTY_SAMPLER_MS).
    A llama.cpp row's `backend` option (cuda, rocm, vulkan, sycl, ipex-llm, metal: where its
    source names the backend) is the Request's backend (advisor/calculator/backends.py); a row
    that names none runs the default of its card's vendor.
Precision (PRECISION_MAP; the calculator's PRECISIONS)
    bf16 (pure), amp-bf16/fp16 -> bf16; f16 -> fp16; mxfp8 -> fp8; awq-* -> awq; gptq-4bit* ->
    gptq; gptq-int8 -> int8 (the only 8-bit weight format); "nf4 (load_in_4bit)" -> nf4-nodq
    (transformers' default has no double quantisation); fp4 / nvfp4 -> nvfp4 (4.5-bit weights,
    computed on FP4 tensor cores where the catalog gives the GPU an FP4 rate); exl2-<N>bpw ->
    the calculator's EXL2 average (6-bit head). Stand-ins, counted in the report: q4_k_s ->
    q4_0 (4.58 vs 4.55 bits); MLC q4 -> q4_0. GGUF q4_0, q4_k_m, q6_k and q8_0 are the
    calculator's own. "fp8 KV" in the precision, or
    kv_cache_dtype=fp8 in options, sets kv_cache fp8; Qwen's int8 KV-cache rows set q8_0.
    TensorRT-LLM's FP8 and FP4 rows run an FP8 KV cache: the batches of its FP8 tables could not
    hold theirs in 16 bits (L0005: 768 sequences x 256 tokens x 512 KiB of Llama-2-7B KV cache
    = 103 GB on an 80 GB H100; L0008, 48 x 4096 tokens, 103 GB; L0004, GPT-J 64 x 4096, 120 GB).
Fine-tuning
    Workload as in the row, except QLoRA on a GPTQ/AWQ/int8 base -> finetune-lora at that
    precision (the calculator's QLoRA is bitsandbytes 4-bit) and, for memory, full fine-tuning
    in fp8/mxfp8 (Megatron) -> bf16 (16-bit weights with fp32 masters; its speed rows keep fp8,
    which the calculator computes as fp8 linear layers). Framework
    (FRAMEWORK_MAP) to the calculator's: peft / hf-trainer / plain loop -> hf; deepspeed+... ->
    deepspeed; "ms-swift + DeepSpeed" -> deepspeed; "... + Megatron-LM" / NeMo -> megatron;
    unsloth (also the Unsloth+FA2 rows of LLaMA-Factory's table, engine unsloth) -> unsloth. A row
    whose engine is unsloth is in the Unsloth classes whichever launcher ran it (framework_group).
    Options the row states are passed on (otherwise the framework's recipe stands):
    gradient_checkpointing (offload = on + activation offload), activation_checkpointing,
    Megatron's recompute (selective = off: it recomputes only the attention core, full = on),
    activation_offloading, optimizer (adamw_bnb_8bit / adamw_8bit -> adamw8bit,
    paged_adamw_8bit -> paged_adamw8bit; 4-bit AdamW has no equivalent and is left to the
    framework), optimizer_in_bwd, chunked_cross_entropy ("no cut_cross_entropy" turns the fused
    loss off), torch.compile / compile, pure bf16 vs fp32 master weights (precision_mode, dtype,
    "bf16 (pure)"), zero_stage (Megatron's distributed optimizer = 1), tp / pp, LoRA rank
    (r, lora_r, lora_rank, rank) and targets (all linear -> all; q_proj,v_proj -> qv; qwen's
    c_attn and ms-swift's DEFAULT -> attention). DoRA, rsLoRA, LoRA-FA and AdaLoRA count as LoRA.
    Where a source profiles its own training script and the rows leave a setting unstated, the
    script's setting stands (SOURCE_RECIPES): the Qwen(1) README's finetune.py trains LoRA rank 64
    on every linear layer, and its Q-LoRA on the Int4 GPTQ checkpoint (-> finetune-lora at gptq).

What a figure is, and the prediction it is compared with
    - Units: GiB -> GB (x 1.0737); "per GPU" throughputs x num_gpus (the calculator's serving
      and training speeds are for all GPUs); memory "summed over GPUs" or "GPUs together" / n
      (the calculator's memory is per GPU).
    - tpot_ms (ms per output token) -> 1000 / tpot tokens/s of one stream.
    - Decode: per-stream tokens/s = decode_tokens_per_s / batch at batch = the row's batch or
      concurrency, context = prompt + output / 2 (the mean KV length while generating; prompt
      only when the output is not stated; output / 2 for llama-bench's empty prompt). A decode
      or concurrency row with no prompt length (ExLlamaV2 README, Qwen(1) README, TGI's and
      LMDeploy's ShareGPT prompts) assumes ASSUMED_PROMPT = 256 tokens (counted in the report):
      the weights dominate such a step, and the prefill of so short a prompt is a small share.
    - A throughput whose wall time includes prefill (output_tokens_per_s; notes saying "prefill
      included", "(prompt+generated tokens)/time", "over all users", "includes prefill"):
      per stream = output / (TTFT + output / per-stream decode), TTFT being the calculator's
      time_to_first_token_s for the prompts prefilled together (the whole static batch, or one
      prompt under online concurrency); the total is batch x per stream. This is the
      calculator's own serving formula at a stated batch, composed from two estimates.
    - AutoAWQ's decode figures are per-step (prefill excluded) and summed over the batch.
    - Full-load serving (no batch or concurrency: trtllm-bench at infinite rate) ->
      serving_tokens_per_s at context = prompt, output_tokens = output.
    - Prefill tok/s -> prefill_tokens_per_s at context = prompt, batch (AutoAWQ's README
      figures, each a freshly loaded model's first forward, add FIRST_FORWARD_S of one-off
      setup to the predicted time, for the calculator and the rule alike); TTFT -> the estimate's
      time_to_first_token_s (batch = the static batch, else 1): the engine's fixed per-request
      latency plus the prefill of the prompts sent together. A TTFT measured at a concurrency
      above 1 is not scored: it includes queueing behind the other requests' prefills, which
      depends on how the benchmark spaced their arrivals (not in the row). The vLLM Intel Arc
      rows (L0392-L0407) show it: 7.6-8.6 s at every concurrency x prompt length near 77k
      tokens, the prefill of half a wave of requests sent together, where one prompt takes
      0.1-1 s; NIM's (L0421-L0442) grow from 0.4 s to 89 s with the concurrency.
    - Inference memory -> memory_per_gpu_gb at context = prompt + output and the row's batch;
      AutoAWQ's README benchmark sizes its fused KV cache for the tokens generated and resets it
      when full (examples/benchmark.py, awq/modules/fused/attn.py): context = max(prompt,
      output) there (FIXED_CACHE_SOURCES). transformers rows dated before 4.36 (2023-12-07,
      DYNAMIC_CACHE_SINCE) ran its tuple cache, which a decode step copies whole (the Request's
      legacy_kv_cache); later ones its DynamicCache, which copies one layer at a time.
      A PyTorch allocator counter (max_memory_allocated / _reserved, "Peak Memory Active",
      "RESERVED") never holds the CUDA context, so the context (the runtime_overhead of the
      same request at bf16, which is the engine's CUDA context alone) is taken off; nvidia-smi
      figures and unstated counters keep it. Training memory likewise loses the breakdown's
      runtime_overhead for allocator counters (every torchtune figure is one: ALLOCATOR_SOURCES),
      and a reserved counter (max_memory_reserved,
      "RESERVED", and every ms-swift row: its trainers log max_memory_reserved) is compared with
      the calculator's `reserved_gb` of the step (the allocator's cache beside the tensors, the
      share the calculator's fit check leaves free, plus the loss's blocks it keeps under
      gradient checkpointing: the estimate's allocator_cache_gb), never more than the card's
      capacity less the CUDA context (the allocator gives cached blocks back first). Other
      training figures are compared with the tensors alone: the loss's cached blocks show in
      none of them (the Qwen README's, Axolotl's, torchtune's). Inference memory is not
      adjusted for it.
    - Training speed -> train_tokens_per_s; train_samples_per_s x sequence length, only where
      the sequence length is below the dataset's stated average sample length and the trainer
      cuts longer samples to it. ms-swift 1.x/2.x drops them instead (truncation_strategy
      'delete'), so none of its Benchmark.md samples/s rows gives tokens (DROPS_LONG_SAMPLES).

Rule of thumb (same rows; P = the row's params_b, bits = the mapped precision's bits per weight)
    decode and serving tok/s = batch x num_gpus x bandwidth x 0.55 / (P x bits / 8) (the set's
    bandwidth: the weights are split over the GPUs); prefill tok/s = 0.40 x dense 16-bit tensor
    TFLOPS (fp8 TFLOPS for fp8) x num_gpus / (2P); TTFT = prompt x batch / that rate; training
    tok/s = the same 0.40 x TFLOPS x num_gpus / (6P) for full fine-tuning and / (4P) for LoRA
    and QLoRA (the frozen base needs no weight gradients); inference memory = P x bits / 8 x 1.2;
    full fine-tuning = 16 bytes per parameter; LoRA = 16-bit weights x 1.2; QLoRA = the quantised
    base's weights x 1.2 + 2 GB; memory divided by num_gpus. Throughputs that include prefill
    compose these the same way as the calculator's. Full-load serving rows state no batch, so
    the rule has no figure for them (its column says on how many rows it was scored).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm  # type: ignore[import-untyped]

from advisor.calculator import (
    ENGINES,
    FORMULA_VERSION,
    PRECISIONS,
    WORKLOADS,
    Estimate,
    Request,
    estimate,
    find_model,
    reserved_gb,
)
from advisor.calculator.memory import capacity_gb
from advisor.calculator.precision import EXL2_BPW, get_precision, is_exl2
from advisor.catalog import Catalog, load_catalog
from advisor.errors import AdvisorError
from advisor.specs import GPU

HERE = Path(__file__).resolve().parent
CSV_PATH = HERE / "calibration" / "llm.csv"
RESULTS = HERE / "results"
COMMAND = "python -m eval.calibration_classes"
MIN_ROWS = 5  # classes with at least this many rows are marked in the report
VARIANT_SPREAD = 1.10  # variants of an unnamed GPU must agree within 10% to keep a row
GIB_IN_GB = 2**30 / 1e9
ASSUMED_PROMPT = 256  # decode rows that state no prompt length
ROT_MBU = 0.55  # the rule of thumb's share of bandwidth
ROT_MFU = 0.40  # and of dense tensor TFLOPS

# ---------------------------------------------------------------- classes

# (workload, metric) -> the task a row measures; any other pair is a metric not scored
TASKS: dict[tuple[str, str], str] = {
    ("decode", "tokens_per_s"): "decode",
    ("decode", "tpot_ms"): "decode",
    ("decode", "output_tokens_per_s"): "decode",
    ("serving", "output_tokens_per_s"): "serving",
    ("serving", "tpot_ms"): "serving",
    ("prefill", "tokens_per_s"): "prefill",
    ("ttft", "ttft_ms"): "ttft",
    ("inference-memory", "peak_memory_gb"): "memory",
    ("finetune-lora", "peak_memory_gb"): "lora-memory",
    ("finetune-qlora", "peak_memory_gb"): "qlora-memory",
    ("finetune-full", "peak_memory_gb"): "full-memory",
    **{
        (w, m): "train-speed"
        for w in ("finetune-lora", "finetune-qlora", "finetune-full")
        for m in ("train_tokens_per_s", "train_samples_per_s")
    },
}
FRAMEWORK_LABELS = {
    "hf": "HF PEFT/Trainer",
    "torchtune": "torchtune",
    "llama-factory": "LLaMA-Factory",
    "unsloth": "Unsloth",
    "ms-swift": "ms-swift",
    "megatron": "Megatron",
    "axolotl": "Axolotl",
}
# a row run on Unsloth's kernels (engine unsloth) is Unsloth's whoever launched it; otherwise
# a source decides the framework group first (the brief: ms-swift's Benchmark.md rows are
# ms-swift, torchtune's README rows torchtune, LLaMA-Factory's README rows LLaMA-Factory) ...
SOURCE_FRAMEWORKS = (
    ("modelscope/ms-swift", "ms-swift"),
    ("pytorch/torchtune", "torchtune"),
    ("hiyouga/LLaMA-Factory", "llama-factory"),
)
# ... then the first word of the framework column that names one (anything else is HF's stack)
FRAMEWORK_WORDS = (
    ("megatron", "megatron"),
    ("torchtune", "torchtune"),
    ("llama-factory", "llama-factory"),
    ("ms-swift", "ms-swift"),
    ("unsloth", "unsloth"),
    ("axolotl", "axolotl"),
)
QUANTISED = re.compile(r"awq|gptq|nf4|int8|bnb|exl2|q4|2-bit")


@dataclass(frozen=True)
class Rule:
    """One class: a row belongs to the first rule whose every given condition it meets."""

    name: str
    tasks: frozenset[str]
    engines: frozenset[str] | None = None
    quantised: bool | None = None
    multi_gpu: bool | None = None
    framework: str | None = None

    def matches(self, facts: Mapping[str, Any]) -> bool:
        return (
            facts["task"] in self.tasks
            and (self.engines is None or facts["engine"] in self.engines)
            and (self.quantised is None or facts["quantised"] == self.quantised)
            and (self.multi_gpu is None or facts["multi_gpu"] == self.multi_gpu)
            and (self.framework is None or facts["framework"] == self.framework)
        )


def _rule(name: str, tasks: str, engines: str | None = None, **kw: Any) -> Rule:
    return Rule(
        name, frozenset(tasks.split()), frozenset(engines.split()) if engines else None, **kw
    )


SPEED = "decode serving"
CLASS_RULES: tuple[Rule, ...] = (
    _rule("TTFT · TensorRT-LLM/NIM", "ttft", "tensorrt-llm nim"),
    _rule("TTFT · vLLM", "ttft", "vllm"),
    _rule("TTFT · SGLang", "ttft", "sglang"),
    _rule("TTFT · LMDeploy", "ttft", "lmdeploy"),
    _rule("HF transformers decode (16-bit, fp8)", "decode", "hf", quantised=False),
    _rule("quantised HF / AutoAWQ decode", "decode", "hf autoawq", quantised=True),
    # one GPU apart from tensor parallel, as for TensorRT-LLM: a TP step adds all-reduces over a
    # link (and, in old releases, per-layer host time) that a single GPU's share says nothing of
    _rule("vLLM decode (batch 1 / low concurrency)", "decode", "vllm", multi_gpu=False),
    _rule("vLLM decode, multi-GPU", "decode", "vllm", multi_gpu=True),
    # TensorRT-LLM's (and NIM's) single-GPU batch-1 decode apart from its full-load serving rows,
    # whose step is mostly compute: its decode bandwidth share is judged on these rows alone
    _rule("TensorRT-LLM/NIM decode, 1 GPU", "decode", "tensorrt-llm nim", multi_gpu=False),
    _rule("SGLang", SPEED, "sglang"),
    _rule("LMDeploy", SPEED, "lmdeploy"),
    _rule("TGI", SPEED, "tgi"),
    _rule("ExLlamaV2 decode", "decode", "exllamav2"),
    _rule("ExLlama v1 decode", "decode", "exllama"),
    _rule("MLC-LLM decode", "decode", "mlc-llm"),
    _rule("llama.cpp decode", "decode", "llama.cpp"),
    _rule("llama.cpp prefill", "prefill", "llama.cpp"),
    _rule("ExLlama v1/v2 prefill", "prefill", "exllamav2 exllama"),
    _rule("AutoAWQ prefill", "prefill", "autoawq"),
    _rule("HF transformers prefill", "prefill", "hf"),
    _rule("vLLM prefill", "prefill", "vllm"),
    _rule("TensorRT-LLM/NIM serving, 1 GPU", SPEED, "tensorrt-llm nim", multi_gpu=False),
    _rule("TensorRT-LLM/NIM serving, multi-GPU", SPEED, "tensorrt-llm nim", multi_gpu=True),
    _rule("vLLM serving", "serving", "vllm"),
    _rule("inference memory · HF", "memory", "hf"),
    _rule("inference memory · AutoAWQ", "memory", "autoawq"),
    _rule("inference memory · ExLlama v1/v2", "memory", "exllamav2 exllama"),
    _rule("inference memory · llama.cpp", "memory", "llama.cpp"),
    *(
        _rule(f"{method} peak memory · {label}", task, framework=fw)
        for task, method in (
            ("lora-memory", "LoRA"),
            ("qlora-memory", "QLoRA"),
            ("full-memory", "full fine-tune"),
        )
        for fw, label in FRAMEWORK_LABELS.items()
    ),
    *(
        _rule(f"training speed · {label}", "train-speed", framework=fw)
        for fw, label in FRAMEWORK_LABELS.items()
    ),
)
CLASS_NAMES = tuple(rule.name for rule in CLASS_RULES)
# unions reported beside the classes: name -> the prefix of the classes it gathers
AGGREGATES = {"TTFT · all engines": "TTFT · "}


def framework_group(row: Mapping[str, str]) -> str:
    if row["engine"] == "unsloth":  # Unsloth's kernels and recipe, whichever launcher ran them
        return "unsloth"
    for needle, group in SOURCE_FRAMEWORKS:
        if needle in row["source"]:
            return group
    text = row["framework"].lower()
    return next((group for word, group in FRAMEWORK_WORDS if word in text), "hf")


def row_class(row: Mapping[str, str]) -> str | None:
    """The class of a row, from its engine, workload, metric, GPU count and framework/source:
    the first of CLASS_RULES it meets, or None (its metric is not scored, or no class fits)."""
    task = TASKS.get((row["workload"], row["metric"]))
    if task is None:
        return None
    facts = {
        "task": task,
        "engine": "nim" if row["engine"].startswith("nim") else row["engine"],
        "quantised": bool(QUANTISED.search(row["precision"].lower())),
        "multi_gpu": (row["num_gpus"] or "1") != "1",
        "framework": framework_group(row),
    }
    return next((rule.name for rule in CLASS_RULES if rule.matches(facts)), None)


def source_key(row: Mapping[str, str]) -> str:
    """The source of a row: its `source` text before "@"."""
    return row["source"].split("@", 1)[0].strip()


# ---------------------------------------------------------------- statistics


def ape(predicted: float, measured: float) -> float:
    """Absolute percentage error as a fraction: |pred - meas| / meas."""
    return abs(predicted - measured) / abs(measured)


def bias(pairs: Sequence[tuple[float, float]]) -> float:
    """exp(median log(pred / meas)) - 1: +0.35 = the predictions run 35% high."""
    return math.exp(statistics.median(math.log(p / m) for p, m in pairs)) - 1


def p90(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def fit_k(pairs: Iterable[tuple[float, float]]) -> float:
    """The multiplicative correction exp(median log(meas / pred)) of (pred, meas) pairs."""
    return math.exp(statistics.median(math.log(m / p) for p, m in pairs))


@dataclass(frozen=True)
class Loso:
    loso_median_ape: float  # each source's rows corrected by k fitted on the others
    insample_median_ape: float  # every row corrected by k fitted on all rows
    k: float  # the in-sample correction
    ratio: float | None  # LOSO / in-sample (None when in-sample is 0: nothing to compare)


def loso(by_source: Mapping[str, Sequence[tuple[float, float]]]) -> Loso | None:
    """Leave-one-source-out with one multiplicative correction; None below two sources."""
    groups = {s: list(p) for s, p in by_source.items() if p}
    if len(groups) < 2:
        return None
    every = [pair for pairs in groups.values() for pair in pairs]
    k_all = fit_k(every)
    insample = statistics.median(ape(p * k_all, m) for p, m in every)
    held: list[float] = []
    for source, pairs in groups.items():
        k = fit_k(pair for other, rest in groups.items() if other != source for pair in rest)
        held += [ape(p * k, m) for p, m in pairs]
    out = statistics.median(held)
    return Loso(out, insample, k_all, out / insample if insample > 1e-9 else None)


# ---------------------------------------------------------------- reading rows


class Skip(Exception):
    """A row the benchmark cannot score; the message is the reason it is counted under."""


# GPU strings as the sources print them -> catalog ids (several: the variant is not named)
GPU_VARIANTS: dict[str, tuple[str, ...]] = {
    "A100 80GB": ("a100-sxm4-80gb", "a100-pcie-80gb"),
    "A100 (80GB implied)": ("a100-sxm4-80gb", "a100-pcie-80gb"),
    "A100 40GB": ("a100-sxm4-40gb", "a100-pcie-40gb"),
    "A100": ("a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb", "a100-pcie-80gb"),
    "H100 SXM 80GB": ("h100-sxm5-80gb",),
    "H100-SXM-80GB": ("h100-sxm5-80gb",),
    "H100 80GB": ("h100-sxm5-80gb", "h100-pcie-80gb"),
    "H100": ("h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb"),
    "H200": ("h200-sxm-141gb", "h200-nvl-141gb"),
    "H200-SXM-141GB-CTS": ("h200-sxm-141gb",),
    "A800 80GB": ("a800-sxm4-80gb", "a800-pcie-80gb"),
    "A800": ("a800-sxm4-80gb", "a800-pcie-80gb"),
    "B200-SXM-180GB": ("b200",),
    "GB200 192GB": ("gb200",),
    "GH200 Grace Hopper Superchip 144GB": ("gh200-144gb",),
    "RTX PRO 6000 Blackwell Server Edition 96GB": ("rtx-pro-6000-blackwell-server",),
    "DGX Spark (GB10, 128GB unified)": ("gb10",),
    "Instinct MI300X-NPS1-SPX-192GB-750W": ("mi300x",),
    "MI300X-NPS1-SPX-192GB-750W": ("mi300x",),
    "Instinct MI300X 192GB HBM3": ("mi300x",),
    "Instinct MI325X 256GB HBM3e": ("mi325x",),
    "M2 Ultra 76-Core GPU 192GB": ("m2-ultra-192gb",),
    "M3 Max 40-Core GPU 64GB": ("m3-max-64gb",),
    "M1 7-Core GPU 8GB": ("m1-8gb",),
    # names no card: memory does not depend on it (speed rows drop out on the spread)
    "unspecified (single GPU)": ("t4", "a100-sxm4-80gb"),
}
NOT_A_GPU = re.compile(r"VRAM budget|any \(estimate\)")
# models the catalog holds under another name (the same architecture)
MODEL_NAMES = {
    "Llama-7B (LLaMA-1)": "llama-2-7b",
    "Llama-13B (LLaMA-1)": "llama-2-13b",
    "Mistral-7B": "mistral-7b-v0.1",
    "OpenBuddy-Zephyr-7B (Mistral-7B based)": "mistral-7b-v0.1",
    "Olmo-3-7B-Instruct-SFT": "olmo-3-7b",
}
MOE_NAME = re.compile(r"MoE|-A\d+(\.\d+)?B\b")
ENGINE_MAP = {
    "hf": "hf",
    "autoawq": "hf",
    "vllm": "vllm",
    "sglang": "vllm",
    "tgi": "vllm",
    "exllamav2": "vllm",
    "exllama": "vllm",
    "llama.cpp": "llama.cpp",
    "tensorrt-llm": "tensorrt-llm",
    "lmdeploy": "tensorrt-llm",
    "mlc-llm": "tensorrt-llm",
    "nim": "tensorrt-llm",
}
# prefill rows of an engine the calculator lacks, run as the one whose prompt path it shares:
# ExLlama v1 as its successor ExLlamaV2 (each weight matrix dequantised to FP16, then cublasHgemm:
# github:turboderp/exllama exllama_ext/cuda_func/q4_matmul.cu); its decode rows keep ENGINE_MAP's
# vLLM, as its own mat-vec kernels are slower than ExLlamaV2's (L0681: 42.4 against 56.9 tok/s)
PREFILL_STAND_INS = {"exllama": "exllamav2"}
# engines whose memory the calculator models on their own (not as ENGINE_MAP's stand-in):
# AutoAWQ's fused layers keep a preallocated KV cache and materialise the attention scores
MEMORY_ENGINES = ("autoawq", "exllamav2")
# ExLlama v1 rows run as ExLlamaV2 for memory too: the same embedding in system RAM and scratch
# sized for 2048-token input chunks (advisor/calculator/memory.py HOST_EMBEDDING_ENGINES)
MEMORY_STAND_INS = {"exllama": "exllamav2"}
# AutoAWQ's examples/benchmark.py loads the model with max_new_tokens = n_generate, and its fused
# attention allocates the KV cache for that many positions and resets it when full rather than
# growing it (awq/modules/fused/attn.py): the cache holds n_generate tokens, not prompt + output
FIXED_CACHE_SOURCES = ("github:casper-hansen/AutoAWQ README.md",)
# AutoAWQ's examples/benchmark.py (v0.1.6) loads the model afresh for every round and times the
# prefill as the first forward of that model, after a warm-up of one torch.mm only: its prefill
# figures hold the one-off setup of a first call (L0782, Mixtral's first round, 32 tokens on 2
# RTX 4090s, 214 ms, is marked SUSPECT (warm-up); its second round, 64 tokens, L0785: 43 ms).
# Its size, from the README's own rows, not from the calculator: each of the 13 series measured
# at 64 and 2048 tokens (one model, packing and batch: L0710/L0713, L0716/L0719, L0722/L0725,
# L0728/L0731, L0734/L0737, L0740/L0743, L0746/L0749, L0752/L0755, L0758/L0761, L0764/L0767,
# L0770/L0773, L0776/L0779, L0785/L0800) split into a fixed time and a time per token: the
# median of the fixed times (-19 to 52 ms)
FIRST_FORWARD_SOURCES = ("github:casper-hansen/AutoAWQ README.md",)
FIRST_FORWARD_S = 0.035
# transformers 4.36 (2023-12-07) brought the DynamicCache, which grows one layer's tensors at a
# time; before it a decode step built a new tuple of every layer's cache while the old one was
# still referenced. transformers rows published before that day measured the tuple cache
DYNAMIC_CACHE_SINCE = "2023-12-07"
# vLLM captured its decode step (all-reduces included) in CUDA graphs from PR #1926, merged on
# 2023-12-17 (factors.CUDA_GRAPHS_SINCE: release 0.2.6). A vLLM row that names no release but was
# published before that day ran an earlier one (the Qwen(1) README's "vLLM (PyTorch 2.1.0, CUDA
# 11.8)", L0879, 2023-11-30): its Request names the last release without the graphs
# MLC LLM's decode step came in a CUDA graph with mlc_llm.build --use-cuda-graph, first in
# github:mlc-ai/llm-perf-bench's instructions on 2023-10-06 (commit 4dbf648, MLC 8e94910 of
# 2023-10-04); its rows published before ran builds without it (factors.RELEASE_LAYER_MS)
GRAPHS_SINCE = {
    "vllm": ("2023-12-17", "0.2.5 (before CUDA graphs)"),
    "mlc-llm": ("2023-10-04", "0.0 (before CUDA graphs)"),
}
# the row's precision -> (calculator precision, KV-cache type or None, stand-in note or None)
PRECISION_MAP: dict[str, tuple[str, str | None, str | None]] = {
    "bf16": ("bf16", None, None),
    "bf16 (pure)": ("bf16", None, None),
    "amp-bf16/fp16": ("bf16", None, None),
    "fp16": ("fp16", None, None),
    "f16": ("fp16", None, None),
    "fp8": ("fp8", None, None),
    "fp8 (TRT quantized, fp8 KV)": ("fp8", "fp8", None),
    "mxfp8": ("fp8", None, None),
    "mxfp4": ("mxfp4", None, None),
    "mxfp4 (native)": ("mxfp4", None, None),
    "fp4": ("nvfp4", None, None),
    "nvfp4": ("nvfp4", None, None),
    **{p: ("awq", None, None) for p in ("awq", "awq-4bit", "awq-int4", "awq-4bit-g128")},
    "awq-4bit-g32": ("awq", None, None),
    **{
        p: ("gptq", None, None)
        for p in ("gptq-int4", "gptq-4bit", "gptq-4bit-g128-actorder", "gptq-4bit-g32-actorder")
    },
    "gptq-int8": ("int8", None, None),
    "int8": ("int8", None, None),
    "nf4": ("nf4", None, None),
    "nf4 (load_in_4bit)": ("nf4-nodq", None, None),
    "q4_0": ("q4_0", None, None),
    "q4_k_m": ("q4_k_m", None, None),
    "q6_k": ("q6_k", None, None),
    "q8_0": ("q8_0", None, None),
    "q4_k_s": ("q4_0", None, "Q4_K_S as q4_0"),
    "q4 (MLC 4-bit)": ("q4_0", None, "MLC q4 as q4_0"),
    # TensorRT-LLM's default 4-bit weight-only (W4A16, per-channel): 4-bit weights, 16-bit math
    "int4 weight-only (W4A16, TRT-LLM INT4 default)": ("awq", None, "TRT-LLM INT4 W4A16 as awq"),
}
FRAMEWORK_MAP = (  # the framework column (lower case) -> the calculator's framework
    ("megatron", "megatron"),
    ("torchtune", "torchtune"),
    ("unsloth", "unsloth"),
    ("llama-factory", "llama-factory"),
    ("deepspeed", "deepspeed"),
    ("ms-swift", "ms-swift"),
    ("axolotl", "axolotl"),
)
OPTIMIZERS = {
    "adamw": "adamw",
    "adamw_torch": "adamw",
    "adamw_bnb_8bit": "adamw8bit",
    "adamw_8bit": "adamw8bit",
    "adamw-8bit": "adamw8bit",
    "paged_adamw_8bit": "paged_adamw8bit",
}
# Recipes a source's own scripts fix and its rows leave unstated (request mapping from the source):
# the Qwen(1) README profiles its finetune.py, whose LoraArguments default to lora_r=64 on
# c_attn, c_proj, w1, w2 (every linear layer of a Qwen block), and whose --q_lora loads the Int4
# GPTQ checkpoint (GPTQConfig(bits=4); finetune_qlora_single_gpu.sh: Qwen-7B-Chat-Int4), not a
# bitsandbytes 4-bit base (github:QwenLM/Qwen finetune.py, finetune/*.sh @2df8e8a)
SOURCE_RECIPES: dict[str, dict[str, Any]] = {
    "github:QwenLM/Qwen README.md": {"lora_rank": 64, "lora_targets": "all", "qlora_base": "gptq"},
}
# torchtune's README "Optimization flags" table adds one flag per row on top of the previous rows
LADDER = "each technique is added on top of the previous ones"
# Training speed in samples/s is tokens/s only where every sample is max_length long. ms-swift
# 1.x/2.x drops the samples longer than max_length instead (SftArguments.truncation_strategy =
# 'delete', swift/llm/utils/argument.py), so its Benchmark.md rows (engine_version "ms-swift
# 1.x/2.x") trained on the shorter samples of a set of 3234 +- 2548 tokens, of unstated mean.
# Read as max_length tokens a sample they pass the A100's peak: L1547 (LoRA, no checkpointing)
# 6.19 samples/s x 2048 = 12,677 tokens/s x 4 x 7.72e9 FLOPs = 391 TFLOPS against 312, and
# Qwen-1.8B's LoRA rows run 9.88, 9.90, 8.77 samples/s at max_length 512, 1024, 2048 (L1419-L1423).
DROPS_LONG_SAMPLES = ("ms-swift 1.x/2.x",)
NOT_LORA = {"IA3", "LOHA", "LOKR", "OFT", "BOFT", "VERA", "PROMPT_TUNING", "LN_TUNING"}
ALLOCATOR_COUNTER = re.compile(
    r"max_memory_allocated|max_memory_reserved|Peak Memory Active|RESERVED during"
)
# counters of the caching allocator's reserved memory (freed blocks it keeps included), by the
# row's note or by its source: ms-swift's trainers log torch.cuda.max_memory_reserved
# (swift/trainers get_max_cuda_memory for its Benchmark.md; the Megatron trainer's memory_GiB)
RESERVED_COUNTER = re.compile(r"max_memory_reserved|RESERVED during")
RESERVED_SOURCES = ("github:modelscope/ms-swift ",)
# sources whose training memory figures come from PyTorch's allocator counters even where a row's
# note does not name one: torchtune's recipes report memory only through torch.cuda's statistics
# (torchtune/training/memory.py get_memory_stats: peak_memory_active / _alloc / _reserved), so
# no torchtune figure holds the CUDA context; where the counter is not named, the allocated one
ALLOCATOR_SOURCES = ("github:pytorch/torchtune ",)
INCLUDES_PREFILL = re.compile(
    r"prefill included|includes prefill|\(prompt\+generated tokens\)/time|over all users|"
    r"encoded and generated|wall time includes prefill"
)
EXCLUDES_PREFILL = re.compile(r"per-step decode time|prompt processing excluded")

# reasons a row is not scored (the counts in the report)
R_METRIC = "metric not scored"
R_ESTIMATE = "an estimate or stated requirement in its source, not a measurement"
R_SUSPECT = "marked SUSPECT (warm-up) in its note"
R_OBSOLETE = "its source says the engine has since been sped up and the figure is obsolete"
R_CLASS = "no class for its engine and metric"
R_GPU_NONE = "GPU not named (a VRAM budget or 'any')"
R_GPU = "GPU not in the catalog"
R_SPREAD = "GPU variant not named and its variants differ by more than 10%"
R_MOE = "MoE model not in the catalog (a dense stand-in would misstate it)"
R_MODEL = "model not in the catalog and no size"
R_PRECISION = "precision the calculator cannot represent"
R_PER_GPU = "per-GPU vs total throughput not stated (TP>1)"
R_PROMPT = "prompt length not stated"
R_OUTPUT = "output length not stated"
R_CONCURRENCY = "concurrency not stated (request-rate benchmark)"
R_BATCH = "batch or sequence length not stated"
R_ENDPOINT = "measured through a hosted endpoint (SageMaker): endpoint and network time inside"
R_QUEUE = "TTFT at a concurrency above 1: queueing behind other requests, arrivals not stated"
R_SAMPLES = "tokens/s not derivable: max_length above the dataset's average sample"
R_DROPPED = "tokens/s not derivable: samples over max_length dropped, the rest of unstated length"
R_PADDED = "tokens/s not derivable: unpacked batches padded to samples of unstated length"
R_NODES = "training over several nodes: the network between them not stated"
R_METHOD = "tuning method or setting the Request cannot express"
R_CALC = "calculator refuses the request"


def _int(text: str) -> int | None:
    text = text.strip()
    return int(float(text)) if text and re.fullmatch(r"\d+(\.\d+)?", text) else None


def options(row: Mapping[str, str]) -> dict[str, str]:
    """The row's `options` as key -> value (a bare word maps to "")."""
    out: dict[str, str] = {}
    for part in row["options"].split(";"):
        key, _, value = part.partition("=")
        if key.strip():
            out[key.strip().lower()] = value.strip()
    return out


def _gpus(row: Mapping[str, str], catalog: Catalog) -> list[GPU]:
    text = row["gpu"].strip()
    if NOT_A_GPU.search(text):
        raise Skip(R_GPU_NONE)
    try:
        return [catalog.get_gpu(name) for name in GPU_VARIANTS.get(text, (text,))]
    except AdvisorError:
        raise Skip(R_GPU) from None


def _model(row: Mapping[str, str], catalog: Catalog) -> tuple[str, bool]:
    """(the Request's model text, whether it is a generic stand-in of the row's size)."""
    name = MODEL_NAMES.get(row["model"], row["model"])
    try:
        _fam, model = find_model(name, catalog)
        return model.id, False
    except AdvisorError:
        pass
    if MOE_NAME.search(row["model"]) or "(MoE" in row["note"]:
        raise Skip(R_MOE)
    size = row["params_b"].strip()
    try:
        find_model(f"{size}b", catalog)
    except AdvisorError:
        raise Skip(R_MODEL) from None
    return f"{size}b", True


def _precision(row: Mapping[str, str]) -> tuple[str, str | None, str | None]:
    found = PRECISION_MAP.get(row["precision"].strip())
    if found is None and EXL2_BPW.fullmatch(row["precision"].strip().lower()):
        try:  # the calculator's own EXL2 average, within the widths convert.py targets
            found = (get_precision(row["precision"]).name, None, None)
        except AdvisorError:
            raise Skip(R_PRECISION) from None
    if found is None:
        raise Skip(R_PRECISION)
    name, kv, stand_in = found
    if name not in PRECISIONS and not is_exl2(name):
        raise Skip(R_PRECISION)
    opts = options(row)
    if opts.get("kv_cache_dtype", "").startswith("fp8"):
        kv = "fp8"
    if "KV-cache quantization Yes" in row["note"]:
        kv = "q8_0"
    if row["engine"].startswith("tensorrt-llm") and name in ("fp8", "nvfp4") and kv is None:
        kv = "fp8"  # its FP8 tables run an FP8 KV cache (module docstring)
    return name, kv, stand_in


def per_gpu_unit(row: Mapping[str, str]) -> bool:
    unit = row["unit"].lower()
    return "per gpu" in unit or "/gpu" in unit


# ---------------------------------------------------------------- predictors


class Primitives(Protocol):
    """What a predictor answers; `speed` composes a row's figure from these."""

    def decode(self, context: int, batch: int) -> float | None:
        """Generated tokens/s summed over `batch` sequences at `context` tokens of history."""

    def prefill_seconds(self, prompt: int, batch: int) -> float | None:
        """Seconds to the first token of `batch` prompts of `prompt` tokens."""

    def serving(self, prompt: int, output: int) -> float | None:
        """Output tokens/s under full load."""


@dataclass(frozen=True)
class RuleOfThumb:
    """The rule of thumb's primitives for one row on one GPU (None: a field is missing)."""

    gpu: GPU
    params: float  # parameters
    bits: float  # bits per weight of the precision
    num_gpus: int
    fp8: bool

    def decode(self, context: int, batch: int) -> float | None:
        del context  # the rule ignores the KV cache
        if self.gpu.generic or not self.params:
            return None
        weights = self.params * self.bits / 8
        return batch * self.num_gpus * self.gpu.bandwidth_gbs * 1e9 * ROT_MBU / weights

    def tflops(self) -> float | None:
        if self.gpu.generic:
            return None
        if self.fp8 and self.gpu.fp8_dense_tflops:
            return self.gpu.fp8_dense_tflops
        return self.gpu.fp16_bf16_dense_tflops

    def prefill_seconds(self, prompt: int, batch: int) -> float | None:
        tflops = self.tflops()
        if tflops is None or not self.params:
            return None
        rate = ROT_MFU * tflops * 1e12 * self.num_gpus / (2 * self.params)
        return prompt * batch / rate

    def serving(self, prompt: int, output: int) -> float | None:
        del prompt, output  # no batch stated: the rule has no figure
        return None


@dataclass
class CalcInference:
    """The calculator's primitives for one inference row on one GPU, through estimate()."""

    base: Request
    run: Callable[[Request], Estimate]

    def _at(self, **changes: Any) -> Estimate:
        return self.run(replace(self.base, **changes))

    def decode(self, context: int, batch: int) -> float | None:
        band = self._at(context=max(context, 1), batch=batch).decode_tokens_per_s
        return band["typical"] if band else None

    def prefill_seconds(self, prompt: int, batch: int) -> float | None:
        band = self._at(context=max(prompt, 1), batch=batch).time_to_first_token_s
        return band["typical"] if band else None

    def prefill_rate(self, prompt: int, batch: int) -> float | None:
        band = self._at(context=max(prompt, 1), batch=batch).prefill_tokens_per_s
        return band["typical"] if band else None

    def serving(self, prompt: int, output: int) -> float | None:
        band = self._at(context=max(prompt, 1), output_tokens=max(output, 1)).serving_tokens_per_s
        return band["typical"] if band else None


@dataclass(frozen=True)
class Shape:
    """What an inference speed row measures, in terms of decode and prefill."""

    kind: str  # decode | prefill | ttft | full-load
    prompt: int
    output: int
    batch: int  # sequences decoding together
    prefill_batch: int  # prompts prefilled together before the first token
    per_stream: bool  # per sequence (else summed over the batch)
    with_prefill: bool  # the wall time includes the prefill
    first_call_s: float = 0.0  # one-off setup inside a prefill figure (FIRST_FORWARD_S)

    @property
    def context(self) -> int:
        return self.prompt + self.output // 2 if self.output else self.prompt


def speed(shape: Shape, p: Primitives) -> float | None:
    """The row's figure from a predictor's primitives (calculator or rule of thumb)."""
    if shape.kind == "full-load":
        return p.serving(shape.prompt, shape.output)
    if shape.kind == "ttft":
        seconds = p.prefill_seconds(shape.prompt, shape.prefill_batch)
        return None if seconds is None else seconds * 1000
    if shape.kind == "prefill":
        tokens = shape.prompt * shape.batch
        if isinstance(p, CalcInference):
            rate = p.prefill_rate(shape.prompt, shape.batch)
            seconds = None if rate is None else tokens / rate
        else:
            seconds = p.prefill_seconds(shape.prompt, shape.batch)
        return None if seconds is None else tokens / (seconds + shape.first_call_s)
    total = p.decode(shape.context, shape.batch)
    if total is None:
        return None
    stream: float = total / shape.batch
    if shape.with_prefill:
        first = p.prefill_seconds(shape.prompt, shape.prefill_batch)
        if first is None:
            return None
        stream = shape.output / (first + shape.output / stream)
    return stream if shape.per_stream else stream * shape.batch


# ---------------------------------------------------------------- cases

Predict = Callable[[GPU], float | None]  # a row's figure on one catalog GPU (None: no figure)


@dataclass(frozen=True)
class Case:
    """One scored row: the measured figure (in the calculator's unit) and the two predictions."""

    id: str
    cls: str
    source: str
    measured: float
    predicted: float
    rule: float | None
    unit: str
    notes: tuple[str, ...] = ()  # stand-ins and assumptions this row rests on


@dataclass
class Scorer:
    """Turns rows into Cases through estimate(); holds the catalog and a cache of estimates."""

    catalog: Catalog
    cache: dict[Request, Estimate] = field(default_factory=dict)

    def run(self, request: Request) -> Estimate:
        if request not in self.cache:
            try:
                self.cache[request] = estimate(request, catalog=self.catalog)
            except AdvisorError:
                raise Skip(R_CALC) from None
        return self.cache[request]

    def case(self, row: Mapping[str, str]) -> Case:
        """The row as a Case, or Skip(reason)."""
        task = TASKS.get((row["workload"], row["metric"]))
        if task is None:
            raise Skip(R_METRIC)
        note = row["note"]
        if note.startswith("ESTIMATE") or "(requirement)" in note:
            raise Skip(R_ESTIMATE)
        if "SUSPECT" in note:
            raise Skip(R_SUSPECT)
        if "should make these values obsolete" in note:
            raise Skip(R_OBSOLETE)
        if options(row).get("instance", "").startswith("ml."):
            raise Skip(R_ENDPOINT)
        cls = row_class(row)
        if cls is None:
            raise Skip(R_CLASS)
        gpus = _gpus(row, self.catalog)
        model, generic = _model(row, self.catalog)
        precision, kv, stand_in = _precision(row)
        generic_note = "model not in the catalog: generic of its size" if generic else None
        notes = tuple(n for n in (stand_in, generic_note) if n)
        n = _int(row["num_gpus"]) or 1
        if task in ("lora-memory", "qlora-memory", "full-memory", "train-speed"):
            measured, predict, rule = self._training(row, task, model, precision, n)
        elif task == "memory":
            measured, predict, rule = self._inference_memory(row, model, precision, kv, n)
        else:
            measured, predict, rule, extra = self._inference_speed(row, model, precision, kv, n)
            notes += extra
        values = [predict(gpu) for gpu in gpus]
        if any(v is None or v <= 0 for v in values):
            raise Skip(R_CALC)
        clean = [float(v) for v in values if v is not None]
        if max(clean) / min(clean) > VARIANT_SPREAD:
            raise Skip(R_SPREAD)
        rules = [rule(gpu) for gpu in gpus]
        rule_value = None if any(r is None or r <= 0 for r in rules) else _geomean(rules)
        return Case(
            row["id"], cls, source_key(row), measured, _geomean(clean), rule_value,
            "GB" if "memory" in task else "ms" if task == "ttft" else "tokens/s", notes,
        )  # fmt: skip

    # -- inference speed

    def _inference_speed(
        self, row: Mapping[str, str], model: str, precision: str, kv: str | None, n: int
    ) -> tuple[float, Predict, Predict, tuple[str, ...]]:
        if "per-GPU vs total not stated" in row["note"] and n > 1:
            raise Skip(R_PER_GPU)
        metric = row["metric"]
        shape, notes = self._shape(row)
        value = float(row["value"])
        if metric == "tpot_ms":
            value = 1000 / value
        elif per_gpu_unit(row):
            value *= n
        name = row["engine"].split(" ")[0]
        engine = name if name in ENGINES else ENGINE_MAP[name]
        if shape.kind == "prefill":
            engine = PREFILL_STAND_INS.get(name, engine)
        assert engine in ENGINES, engine
        pp = _int(options(row).get("pp", "")) or 1
        base = Request(
            model, "", num_gpus=n, workload="inference", precision=precision, engine=engine,
            kv_cache=kv, pp=pp if pp > 1 and n % pp == 0 else 1,
            awq_version="gemv" if options(row).get("kernel") == "gemv" else None,
            engine_version=_engine_version(row) if engine == name else None,
            sampling_penalties=_penalties(row) or None,
            backend=options(row).get("backend") if engine == "llama.cpp" else None,
        )  # fmt: skip

        def predict(gpu: GPU) -> float | None:
            return speed(shape, CalcInference(replace(base, gpu=gpu.id), self.run))

        def rule(gpu: GPU) -> float | None:
            return speed(shape, self._rot(row, gpu, precision, n))

        return value, predict, rule, notes

    def _shape(self, row: Mapping[str, str]) -> tuple[Shape, tuple[str, ...]]:
        metric, task = row["metric"], TASKS[(row["workload"], row["metric"])]
        notes: tuple[str, ...] = ()
        prompt, output = _int(row["input_len"]), _int(row["output_len"]) or 0
        batch, concurrency = _int(row["batch"]), _int(row["concurrency"])
        opts = options(row)
        static = batch is not None and "max_batch" not in opts
        streams = batch if static else concurrency
        if prompt is None and "empty prompt" in row["note"]:
            prompt = 0
        if prompt is None and (
            task in ("ttft", "prefill")
            or (task == "serving" and not streams and metric != "tpot_ms")
        ):
            raise Skip(R_PROMPT)  # the figure is mostly prefill, or a full load of such prompts
        if task == "ttft":
            if not static and (concurrency or 1) > 1:
                raise Skip(R_QUEUE)
            return Shape("ttft", prompt or 1, output, 1, batch if static and batch else 1,
                         True, False), notes  # fmt: skip
        if task == "prefill":
            first = FIRST_FORWARD_S if row["source"].startswith(FIRST_FORWARD_SOURCES) else 0.0
            return Shape(
                "prefill", prompt or 1, 0, batch or 1, batch or 1, False, False, first
            ), notes  # fmt: skip
        if streams is None:
            if task == "serving" and metric == "tpot_ms":
                raise Skip(R_CONCURRENCY)
            if task == "serving":
                if not output:
                    raise Skip(R_OUTPUT)
                return Shape("full-load", prompt or 1, output, 1, 1, False, True), notes
            streams = 1
        if prompt is None:
            prompt = ASSUMED_PROMPT
            notes = (f"prompt length not stated: {ASSUMED_PROMPT} tokens assumed",)
        if metric == "output_tokens_per_s":
            with_prefill = not EXCLUDES_PREFILL.search(row["note"])
        else:
            with_prefill = bool(INCLUDES_PREFILL.search(row["note"]))
        if with_prefill and not output:
            raise Skip(R_OUTPUT)
        return Shape(
            "decode", prompt, output, streams, streams if static else 1,
            metric != "output_tokens_per_s", with_prefill,
        ), notes  # fmt: skip

    def _rot(self, row: Mapping[str, str], gpu: GPU, precision: str, n: int) -> RuleOfThumb:
        try:
            params = float(row["params_b"]) * 1e9
        except ValueError:
            params = 0.0
        return RuleOfThumb(gpu, params, get_precision(precision).bits_linear, n, precision == "fp8")

    # -- memory

    def _inference_memory(
        self, row: Mapping[str, str], model: str, precision: str, kv: str | None, n: int
    ) -> tuple[float, Predict, Predict]:
        measured = _memory_gb(row, n)
        if _int(row["input_len"]) is None:
            raise Skip(R_PROMPT)  # the prompt's KV cache and prefill working set are in the peak
        prompt, output = _int(row["input_len"]) or 0, _int(row["output_len"]) or 0
        if not prompt + output:
            raise Skip(R_BATCH)
        name = row["engine"].split(" ")[0]
        engine = name if name in MEMORY_ENGINES else ENGINE_MAP[name]
        engine = MEMORY_STAND_INS.get(name, engine)
        allocator = bool(ALLOCATOR_COUNTER.search(row["note"]))
        context = prompt + output
        if row["source"].startswith(FIXED_CACHE_SOURCES) and output:
            context = max(prompt, output)
        legacy = engine == "hf" and row["date"] < DYNAMIC_CACHE_SINCE
        base = Request(
            model, "", num_gpus=n, workload="inference", precision=precision, engine=engine,
            kv_cache=kv, context=context, batch=_int(row["batch"]) or 1, legacy_kv_cache=legacy,
        )  # fmt: skip

        def predict(gpu: GPU) -> float:
            request = replace(base, gpu=gpu.id)
            total = self.run(request).memory_per_gpu_gb
            if allocator:  # the CUDA context alone: the runtime overhead of the bf16 twin
                twin = self.run(replace(request, precision="bf16"))
                total -= twin.breakdown_gb.get("runtime_overhead", 0.0)
            return total

        def rule(gpu: GPU) -> float | None:
            rot = self._rot(row, gpu, precision, n)
            return rot.params * rot.bits / 8 * 1.2 / 1e9 / n if rot.params else None

        return measured, predict, rule

    # -- training

    def _training(
        self, row: Mapping[str, str], task: str, model: str, precision: str, n: int
    ) -> tuple[float, Predict, Predict]:
        opts = options(row)
        workload = row["workload"]
        assert workload in WORKLOADS
        _check_method(row, opts)
        batch = _int(row["batch"]) or _first_int(opts, ("batch", "micro_batch", "mbs"))
        seq = _int(row["seq_len"]) or _first_int(
            opts, ("max_length", "seq_len", "max_seq_len", "max_seq_length")
        )
        if batch is None or seq is None:
            raise Skip(R_BATCH)
        # a cap, not the length trained: where the note gives the tokens trained over the steps
        # (PEFT's method comparison), the mean sequence is tokens / steps / batch
        trained = re.search(r"train total tokens (\d+)", row["note"])
        steps = re.search(r"(\d+) steps", row["note"])
        if task == "train-speed" and trained and steps:
            seq = max(1, round(int(trained.group(1)) / int(steps.group(1)) / batch))
        recipe = SOURCE_RECIPES.get(source_key(row), {})
        if workload == "finetune-qlora" and "qlora_base" in recipe:
            precision = recipe["qlora_base"]
        if workload == "finetune-qlora" and precision not in ("nf4", "nf4-nodq"):
            workload = "finetune-lora"  # LoRA on a GPTQ/AWQ/int8 base
        # the calculator's full fine-tuning memory is 16/32-bit; its speed computes fp8 GEMMs
        # (Transformer Engine's fp8 training of 16-bit weights), and the rule keeps fp8's TFLOPS
        fp8_full = workload == "finetune-full" and precision == "fp8"
        calc_precision = "bf16" if fp8_full and task != "train-speed" else precision
        request = _train_request(row, opts, model, workload, calc_precision, n, batch, seq)
        method_params = 6 if workload == "finetune-full" else 4
        if task == "train-speed":
            measured = float(row["value"])
            # torchtune's ladder starts unpacked (L1615, "Baseline"): each batch is padded to its
            # longest sample, not to max_seq_len, so its tokens per step are not batch x
            # max_seq_len; "+ Packed Dataset" (L1617) then trains 3.4x the tokens/s
            if LADDER in row["note"] and "packed" not in opts:
                raise Skip(R_PADDED)
            # LLaMA-Factory's comparison names the attention in the method: "HF" (L1664, L1670)
            # is transformers without FlashAttention-2, beside "HF+FA2" (L1666,
            # flash_attention_2=on); attention without flash is skipped as for ms-swift's rows
            if opts.get("method") == "HF":
                raise Skip(R_METHOD)
            # the Request's GPUs share one board's link (interconnect.link_for); rows over
            # several nodes ("2 node(s) x 2 GPU(s)", "interconnect_detail=unknown (2 nodes)",
            # L0989-L0999) all-reduce over a network they do not name
            nodes = re.search(r"(\d+) node\(s\)", row["note"])
            if nodes and int(nodes.group(1)) > 1:
                raise Skip(R_NODES)
            if row["metric"] == "train_samples_per_s":
                if row["engine_version"].startswith(DROPS_LONG_SAMPLES):
                    raise Skip(R_DROPPED)
                average = re.search(r"avg (\d+) tokens/sample", row["note"])
                if average and seq > int(average.group(1)):
                    raise Skip(R_SAMPLES)
                measured *= seq
            elif per_gpu_unit(row):
                measured *= n

            def predict(gpu: GPU) -> float | None:
                band = self.run(replace(request, gpu=gpu.id)).train_tokens_per_s
                return band["typical"] if band else None

            def rule(gpu: GPU) -> float | None:
                rot = self._rot(row, gpu, precision, n)
                tflops = rot.tflops()
                if tflops is None or not rot.params:
                    return None
                return ROT_MFU * tflops * 1e12 * n / (method_params * rot.params)

            return measured, predict, rule

        measured = _memory_gb(row, n)
        reserved = bool(RESERVED_COUNTER.search(row["note"])) or row["source"].startswith(
            RESERVED_SOURCES
        )
        allocator = (
            reserved
            or bool(ALLOCATOR_COUNTER.search(row["note"]))
            or row["source"].startswith(ALLOCATOR_SOURCES)
        )

        def predict_memory(gpu: GPU) -> float:
            result = self.run(replace(request, gpu=gpu.id))
            total = result.memory_per_gpu_gb
            context = result.breakdown_gb.get("runtime_overhead", 0.0)
            if allocator:
                total -= context
            if not reserved:
                return total
            # the allocator reserves at most what the card leaves beside the CUDA context
            return reserved_gb(total, result.allocator_cache_gb, capacity_gb(gpu) - context)

        def rule_memory(gpu: GPU) -> float | None:
            rot = self._rot(row, gpu, precision, n)
            if not rot.params:
                return None
            if task == "full-memory":
                need = 16 * rot.params
            elif task == "lora-memory":
                need = 2 * rot.params * 1.2
            else:
                need = rot.params * rot.bits / 8 * 1.2
            return need / 1e9 / n + (2.0 if task == "qlora-memory" else 0.0)

        return measured, predict_memory, rule_memory


def _engine_version(row: Mapping[str, str]) -> str | None:
    """The row's engine release for the Request; an undated-release row of an engine that
    gained CUDA graphs later, published before them, names the release before (GRAPHS_SINCE)."""
    version = row["engine_version"] or None
    since = GRAPHS_SINCE.get(row["engine"])
    # its own release leads the text ("0.2.0 (commit ...)", "vLLM 0.6.3"); a number after
    # another name is not it ("vLLM (PyTorch 2.1.0, CUDA 11.8)")
    own = re.match(rf"(?:{re.escape(row['engine'])}\s*)?v?\d+\.\d", version or "", re.I)
    if since and own is None and row["date"] and row["date"] < since[0]:
        return since[1]
    return version


NEUTRAL_PENALTIES = {"repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0}


def _penalties(row: Mapping[str, str]) -> bool:
    """Whether the row's sampling parameters set a penalty (a value other than the neutral one)."""
    opts = options(row)
    stated = {k: re.match(r"-?\d+(\.\d+)?", opts.get(k, "")) for k in NEUTRAL_PENALTIES}
    return any(
        m is not None and float(m.group(0)) != NEUTRAL_PENALTIES[k] for k, m in stated.items()
    )


def _geomean(values: Sequence[float | None]) -> float:
    clean = [float(v) for v in values if v is not None]
    return math.exp(sum(math.log(v) for v in clean) / len(clean))


def _first_int(opts: Mapping[str, str], keys: Sequence[str]) -> int | None:
    return next((v for v in (_int(opts.get(k, "")) for k in keys) if v is not None), None)


def _memory_gb(row: Mapping[str, str], n: int) -> float:
    value = float(row["value"]) * (GIB_IN_GB if row["unit"] == "GiB" else 1.0)
    if re.search(r"summed over (all )?GPUs|GPUs together", row["note"]):
        value /= n
    return value


def _check_method(row: Mapping[str, str], opts: Mapping[str, str]) -> None:
    """Skip what the Request cannot express: non-LoRA adapters, LoRA(emb), GaLore, LISA,
    LLaMA-Pro, freeze-tuning (only the last layers trained), attention without flash."""
    if opts.get("peft_type", "LORA").upper() in NOT_LORA:
        raise Skip(R_METHOD)
    if "lora_trains_embedding_and_lm_head" in opts:
        raise Skip(R_METHOD)
    exp = " ".join(opts.get(k, "") for k in ("exp", "tuner", "method"))
    if any(word in exp for word in ("galore", "lisa", "llamapro", "freeze")):
        raise Skip(R_METHOD)
    if opts.get("flash_attn", "on").lower() == "off":
        raise Skip(R_METHOD)


def _train_request(
    row: Mapping[str, str], opts: Mapping[str, str], model: str, workload: str,
    precision: str, n: int, batch: int, seq: int,
) -> Request:  # fmt: skip
    text = row["framework"].lower()
    framework = next((fw for word, fw in FRAMEWORK_MAP if word in text), "hf")
    if row["engine"] == "unsloth":
        framework = "unsloth"
    recipe = SOURCE_RECIPES.get(source_key(row), {})
    kw: dict[str, Any] = {k: v for k, v in recipe.items() if k in ("lora_rank", "lora_targets")}
    if LADDER in row["note"]:  # a flag the ladder has not added yet is off
        kw.update(
            checkpointing=False, chunked_loss=False, torch_compile=False, optimizer="adamw",
            optimizer_in_backward=False, activation_offload=False,
        )  # fmt: skip
    gc = (opts.get("gradient_checkpointing") or opts.get("activation_checkpointing", "")).lower()
    if gc in ("on", "true", "offload"):
        kw["checkpointing"] = True
    elif gc in ("off", "false"):
        kw["checkpointing"] = False
    # Megatron's selective recompute recomputes only the attention core, which a flash kernel
    # never stores: every other activation is kept, as without checkpointing
    recompute = opts.get("recompute", "").lower()
    if recompute in ("selective", "full"):
        kw["checkpointing"] = recompute == "full"
    if gc == "offload" or opts.get("activation_offloading") == "on":
        kw["activation_offload"] = True
    mode = opts.get("precision_mode", "") + opts.get("dtype", "") + row["precision"]
    if "pure" in mode:
        kw["mixed_precision"] = False
    elif "fp32 master" in mode:
        kw["mixed_precision"] = True
    if opts.get("optimizer", "").lower() in OPTIMIZERS:
        kw["optimizer"] = OPTIMIZERS[opts["optimizer"].lower()]
    if opts.get("optimizer_in_bwd") == "on":
        kw["optimizer_in_backward"] = True
    if opts.get("chunked_cross_entropy") == "on":
        kw["chunked_loss"] = True
    if "no cut_cross_entropy (commented out)" in opts:
        kw["chunked_loss"] = False
    compiled = opts.get("torch.compile", opts.get("compile", "")).lower()
    if compiled in ("on", "true", "false"):
        kw["torch_compile"] = compiled != "false"
    if "zero_stage" in opts:
        kw["zero_stage"] = _int(opts["zero_stage"])
    elif "distributed_optimizer(zero-1)" in opts:
        kw["zero_stage"] = 1
    tp, pp = _int(opts.get("tp", "")) or 1, _int(opts.get("pp", "")) or 1
    if tp * pp <= n:
        kw.update(tp=tp, pp=pp)
    rank = _first_int(opts, ("r", "lora_r", "lora_rank", "rank"))
    if rank:
        kw["lora_rank"] = rank
    targets = " ".join(
        opts.get(k, "") for k in ("targets", "target", "lora_target", "lora_layers")
    ).lower()
    targets += " all" if "all linear" in opts else ""
    if "all" in targets:
        kw["lora_targets"] = "all"
    elif "q and v" in targets or re.fullmatch(r"\s*(q_proj,v_proj|v_proj,q_proj)\s*", targets):
        kw["lora_targets"] = "qv"
    elif "default" in targets or "c_attn" in targets:
        kw["lora_targets"] = "attention"
    return Request(
        model, "", num_gpus=n, workload=workload, precision=precision, context=seq, batch=batch,
        framework=framework, **kw,
    )  # fmt: skip


# ---------------------------------------------------------------- scoring


def read_rows(path: Path = CSV_PATH) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def score_rows(
    rows: Sequence[Mapping[str, str]], catalog: Catalog, *, progress: bool = False
) -> tuple[list[Case], Counter[str]]:
    """Every row as a Case, or counted under the reason it is not scored."""
    scorer = Scorer(catalog)
    cases: list[Case] = []
    skipped: Counter[str] = Counter()
    for row in tqdm(rows, desc="rows", unit="row", file=sys.stderr, disable=not progress):
        try:
            cases.append(scorer.case(row))
        except Skip as reason:
            skipped[str(reason)] += 1
    return cases, skipped


def summarise(group: Sequence[Case]) -> dict[str, Any]:
    """The figures of one class (or of any set of cases)."""
    pairs = [(c.predicted, c.measured) for c in group]
    apes = [ape(p, m) for p, m in pairs]
    by_source: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for c in group:
        by_source[c.source].append((c.predicted, c.measured))
    ruled = [c for c in group if c.rule is not None]
    rule_apes = [ape(c.rule, c.measured) for c in ruled if c.rule is not None]
    source_apes = {s: statistics.median(ape(p, m) for p, m in v) for s, v in by_source.items()}
    worst = max(source_apes, key=lambda s: source_apes[s])
    fit = loso(by_source)
    return {
        "rows": len(group),
        "sources": len(by_source),
        "median_ape": statistics.median(apes),
        "p90_ape": p90(apes),
        "bias": bias(pairs),
        "rule_rows": len(ruled),
        "rule_median_ape": statistics.median(rule_apes) if rule_apes else None,
        "rule_p90_ape": p90(rule_apes) if rule_apes else None,
        "rule_bias": bias([(c.rule, c.measured) for c in ruled if c.rule]) if ruled else None,
        "calculator_median_ape_on_rule_rows": (
            statistics.median(ape(c.predicted, c.measured) for c in ruled) if ruled else None
        ),
        "loso_median_ape": fit.loso_median_ape if fit else None,
        "insample_median_ape": fit.insample_median_ape if fit else None,
        "insample_k": fit.k if fit else None,
        "loso_over_insample": fit.ratio if fit else None,
        "worst_source": worst,
        "worst_source_median_ape": source_apes[worst],
    }


def report(cases: Sequence[Case], skipped: Counter[str], rows_in_file: int) -> dict[str, Any]:
    by_class: dict[str, list[Case]] = defaultdict(list)
    for c in cases:
        by_class[c.cls].append(c)
    classes = {name: summarise(by_class[name]) for name in CLASS_NAMES if by_class.get(name)}
    for name, prefix in AGGREGATES.items():
        members = [c for c in cases if c.cls.startswith(prefix)]
        if members:
            classes[name] = summarise(members) | {"aggregate": True}
    by_source: dict[str, list[Case]] = defaultdict(list)
    for c in cases:
        by_source[c.source].append(c)
    sources = {
        s: {
            "rows": len(group),
            "median_ape": statistics.median(ape(c.predicted, c.measured) for c in group),
            "classes": sorted({c.cls for c in group}),
        }
        for s, group in sorted(by_source.items())
    }
    notes = Counter(n for c in cases for n in c.notes)
    return {
        "command": COMMAND,
        "formula_version": FORMULA_VERSION,
        "input": str(CSV_PATH.relative_to(HERE.parent)),
        "rows_in_file": rows_in_file,
        "rows_scored": len(cases),
        "rows_not_scored": sum(skipped.values()),
        "not_scored": dict(skipped.most_common()),
        "assumptions": dict(notes.most_common()),
        "classes_without_rows": [n for n in CLASS_NAMES if n not in classes],
        "classes": classes,
        "sources": sources,
        "cases": [
            {
                "id": c.id,
                "class": c.cls,
                "measured": _sig(c.measured),
                "predicted": _sig(c.predicted),
                "rule": None if c.rule is None else _sig(c.rule),
                "unit": c.unit,
            }
            for c in cases
        ],
    }


def _sig(value: float) -> float:
    return float(f"{value:.6g}")


# ---------------------------------------------------------------- Markdown


def _pct(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value * 100:+.0f}%" if signed else f"{value * 100:.1f}%"


def _short(source: str, width: int = 60) -> str:
    text = re.sub(r"^github:", "", source)
    return text if len(text) <= width else text[: width - 1] + "…"


def markdown(out: Mapping[str, Any], runtime_s: float | None = None) -> str:
    classes: Mapping[str, Mapping[str, Any]] = out["classes"]
    lines = [
        "# LLM calculator: calibration by class",
        "",
        f"`{out['command']}` · formula version {out['formula_version']} · input "
        f"`{out['input']}`: {out['rows_in_file']} rows, {out['rows_scored']} scored, "
        f"{out['rows_not_scored']} not scored"
        + (f" · {runtime_s:.0f} s" if runtime_s is not None else "")
        + ".",
        "",
        "APE = |predicted - measured| / measured. Bias = exp(median log(pred/meas)) - 1 "
        "(+35% = predicts 35% too high). Rule of thumb: decode/serving = batch x GPUs x "
        "bandwidth x 0.55 / weight bytes; prefill and training = 0.40 x dense 16-bit (fp8) "
        "TFLOPS x GPUs / (2P prefill, 6P full, 4P LoRA/QLoRA); memory = weights x 1.2, 16 B/param "
        "full, 16-bit weights x 1.2 LoRA, quantised base x 1.2 + 2 GB QLoRA (module docstring). "
        "LOSO: one factor k = exp(median log(meas/pred)) fitted without the held-out source; "
        "in-sample: k fitted on all rows of the class. A source is the `source` text before "
        "'@'. ✓ = at least 5 rows.",
        "",
        "| class | ≥5 | rows | sources | median APE | p90 APE | bias | rule of thumb median "
        "(p90) | LOSO median | in-sample median | LOSO / in-sample | worst source (median APE) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, e in classes.items():
        rule = f"{_pct(e['rule_median_ape'])} ({_pct(e['rule_p90_ape'])})"
        if e["rule_rows"] < e["rows"]:
            rule += f" on {e['rule_rows']} rows"
        ratio = e["loso_over_insample"]
        lines.append(
            f"| {'**' + name + '**' if e.get('aggregate') else name} | "
            f"{'✓' if e['rows'] >= MIN_ROWS else ''} | {e['rows']} | {e['sources']} | "
            f"{_pct(e['median_ape'])} | {_pct(e['p90_ape'])} | {_pct(e['bias'], True)} | "
            f"{rule} | {_pct(e['loso_median_ape'])} | {_pct(e['insample_median_ape'])} | "
            f"{'n/a' if ratio is None else f'{ratio:.2f}'} | "
            f"{_short(e['worst_source'], 48)} ({_pct(e['worst_source_median_ape'])}) |"
        )
    if out["classes_without_rows"]:
        lines += ["", "Classes with no scored rows: " + ", ".join(out["classes_without_rows"])]
    lines += ["", "## Rows not scored, by reason", ""]
    lines += [f"- {reason}: {count}" for reason, count in out["not_scored"].items()]
    if out["assumptions"]:
        lines += ["", "## Stand-ins and assumptions in scored rows", ""]
        lines += [f"- {note}: {count} rows" for note, count in out["assumptions"].items()]
    lines += [
        "",
        "## Sources (as shipped)",
        "",
        "| source | rows | median APE |",
        "|---|---|---|",
    ]
    ordered = sorted(out["sources"].items(), key=lambda kv: -kv[1]["median_ape"])
    lines += [f"| {_short(s, 90)} | {e['rows']} | {_pct(e['median_ape'])} |" for s, e in ordered]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--json", type=Path, default=RESULTS / "calibration_classes.json")
    parser.add_argument("--md", type=Path, default=RESULTS / "calibration_classes.md")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = read_rows()
    cases, skipped = score_rows(rows, load_catalog(), progress=True)
    out = report(cases, skipped, len(rows))
    runtime = time.perf_counter() - started
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    text = markdown(out)
    args.md.parent.mkdir(parents=True, exist_ok=True)
    args.md.write_text(text, encoding="utf-8")
    print(text)
    print(f"runtime {runtime:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
