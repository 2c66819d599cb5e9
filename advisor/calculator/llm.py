"""The LLM family: decoder language models (advisor/data/models/), for inference, serving and
fine-tuning. Memory from the exact architecture (memory.py), speed from the roofline with named,
calibrated factors (throughput.py, factors.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from advisor.calculator import (
    backends,
    factors,
    finetune,
    interconnect,
    kv_budget,
    memory,
    offload,
    throughput,
)
from advisor.calculator import host as host_mod
from advisor.calculator.base import Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import (
    DECODE_CALIBRATION,
    EAGER_ALLREDUCE_LATENCY,
    SPEED_BAND,
    TENSOR_PARALLEL_ENGINES,
    TRAIN_CALIBRATION,
    Calibration,
    EngineFactors,
    eager_collectives,
    engine_factors,
    generation,
    kv_read_per_query_head,
    release_layer_ms,
    tensor_parallel,
)
from advisor.calculator.precision import (
    NO_BF16_TENSOR,
    PRECISIONS,
    Precision,
    get_precision,
    is_exl2,
    kv_bytes,
)
from advisor.errors import InvalidInput
from advisor.specs import GPU, Model

TRAIN_METHODS = {"finetune-full": "full", "train": "full", "finetune-lora": "lora",
                 "finetune-qlora": "qlora"}  # fmt: skip

DEFAULT_OUTPUT_TOKENS = 256  # output tokens per request when serving and none are given
DEFAULT_CONTEXT = 4096  # a prompt's tokens when none are given (at most the model's window)
# a served request's prompt when no context is given: the random-dataset input length of the
# serving benchmarks (SGLang's bench_serving --random-input-len default, 1,024 tokens); the
# memory check keeps DEFAULT_CONTEXT, the longest prompt one sequence is sized for
SERVING_PROMPT_TOKENS = 1024
# llama.cpp's layers that the GPUs do not hold, run on the CPU from system RAM (host.py)
OFFLOADS = ("none", "layers")


def estimate(request: Request, model: Model, gpu: GPU, catalog: Any, notes: list[str]) -> Estimate:
    """Fit and speed of one LLM request (cost is added by the estimator)."""
    if model.generic:
        notes.append(model.notes or "generic model")
    if request.workload == "inference":
        return _inference(request, model, gpu, notes)
    return _training(request, model, gpu, notes)


def _default_precision(request: Request, model: Model | None = None) -> Precision:
    if request.precision:
        return get_precision(request.precision)
    default = {"finetune-qlora": "nf4", "inference": "bf16"}.get(request.workload, "bf16")
    engine = engine_factors(request.engine).name if request.engine else None
    if request.workload == "inference" and engine == "llama.cpp":
        default = "q4_k_m"
    elif request.workload == "inference" and model is not None:
        default = native_precision(model) or default
    return get_precision(default)


def native_precision(model: Model) -> str | None:
    """The precision of a model's published checkpoint when it is not 16-bit (gpt-oss ships
    MXFP4 experts, DeepSeek V3 FP8, Kimi K2 Thinking INT4): what serving it as released takes."""
    written = (model.weights_dtype or "").lower()
    for prefix, name in (("mxfp4", "mxfp4"), ("fp8", "fp8"), ("int4", "awq")):
        if written.startswith(prefix):
            return name
    return None


# Where each engine runs (its install docs): the software stacks it supports, and the oldest
# NVIDIA generation it still builds for (vLLM and SGLang need compute capability 7.0, TensorRT-LLM
# and AutoAWQ 7.5). transformers runs anywhere PyTorch does; llama.cpp everywhere.
ENGINE_STACKS = {
    "vllm": ("cuda", "rocm", "oneapi"),
    "sglang": ("cuda", "rocm"),
    "tensorrt-llm": ("cuda",),
    "lmdeploy": ("cuda",),
    "tgi": ("cuda", "rocm", "synapseai"),
    "exllamav2": ("cuda", "rocm"),
    "autoawq": ("cuda", "rocm"),
}
_TOO_OLD = {
    "vllm": ("Pascal",),
    "sglang": ("Pascal",),
    "lmdeploy": ("Pascal",),
    "tensorrt-llm": ("Pascal", "Volta"),
    "autoawq": ("Pascal", "Volta"),
}


# FP8 checkpoints in the serving engines: FP8 compute (W8A8) from Ada Lovelace on, weight-only
# W8A16 through the FP8 Marlin kernel from Turing (compute capability 7.5) on; nothing older
# (docs.vllm.ai features/quantization/fp8: "FP8 models will run on compute capability >= 7.5
# (Turing) as weight-only W8A16"; TensorRT-LLM's FP8 needs Ada or Hopper)
_FP8_ENGINES = ("vllm", "sglang", "lmdeploy", "tensorrt-llm", "tgi")
_NO_FP8_PATH = ("Pascal", "Volta", "Maxwell", "Kepler")

_STACK_NAMES = {"cuda": "CUDA", "rocm": "ROCm", "oneapi": "oneAPI", "metal": "Metal",
                "synapseai": "SynapseAI"}  # fmt: skip


def calibration_note(fit: Calibration | None, owner: str, kind: str) -> str:
    """How well `owner`'s `kind` estimates are calibrated, for the assumptions."""
    if fit is None:
        return f"no {kind} measurements of {owner}'s own: range -25% to +20%"
    plural = "s" * (fit.sources != 1)
    return (
        f"{owner}'s {kind} estimates are within {fit.median_ape:.0%} of {fit.rows} measurements "
        f"from {fit.sources} source{plural} (median); the range is their 10th-90th percentile"
    )


def runs_on(engine: str, gpu: GPU) -> str | None:
    """Why `engine` cannot run on `gpu`, or None when it can."""
    stacks = ENGINE_STACKS.get(engine)
    stack = gpu.compute_stack or "cuda"
    label = engine_factors(engine).label
    if stacks and stack not in stacks:
        return (
            f"{label} does not run on the {gpu.name} ({_STACK_NAMES.get(stack, stack)}); "
            "llama.cpp and transformers do"
        )
    gen = generation(gpu.architecture, gpu.memory_type)
    if gen in _TOO_OLD.get(engine, ()):
        return f"{label} no longer supports {gen} GPUs such as the {gpu.name}; llama.cpp does"
    return None


def _default_engine(request: Request, precision: Precision, gpu: GPU) -> str:
    exl2 = is_exl2(precision.name)  # ExLlamaV2's own format: only it loads one
    if request.engine:
        name = engine_factors(request.engine).name
        if exl2 and name != "exllamav2":
            raise InvalidInput(
                f"{precision.name} is an EXL2 file, which only ExLlamaV2 (or TabbyAPI, built on "
                "it) loads: leave the engine out or say exllamav2."
            )
        why = runs_on(name, gpu)
        if why:
            raise InvalidInput(why + ".")
        if request.backend and name != "llama.cpp":
            raise InvalidInput(
                f"A backend ({request.backend}) is llama.cpp's; {engine_factors(name).label} has "
                "none to choose."
            )
        return name
    if exl2:
        why = runs_on("exllamav2", gpu)
        if why:
            raise InvalidInput(why + ".")
        return "exllamav2"
    if request.backend or precision.family == "gguf" or runs_on("vllm", gpu):
        return "llama.cpp"
    if precision.family == "bnb-4bit":
        return "hf"  # bitsandbytes 4-bit runs in transformers
    return "vllm"


def _backend(
    request: Request, engine: EngineFactors, gpu: GPU, notes: list[str]
) -> backends.Backend | None:
    """llama.cpp's backend on this card (the one asked, else the vendor's default), said in the
    notes; None for the other engines."""
    if engine.name != "llama.cpp":
        return None
    backend = backends.backend_for(request.backend, gpu.compute_stack, f"the {gpu.name}")
    if backend is not None:
        notes.append(backends.backend_note(backend, gpu.compute_stack, bool(request.backend)))
    return backend


def _as_the_card_computes(precision: Precision, gen: str, gpu: GPU, notes: list[str]) -> Precision:
    """bf16 on a card with no bf16 tensor cores (Pascal, Volta, Turing) runs in fp16: the same
    memory, said in the notes."""
    if precision.name == "bf16" and gen in NO_BF16_TENSOR:
        notes.append(f"{gpu.name} has no bf16 tensor cores: fp16 used (same memory)")
        return get_precision("fp16")
    return precision


def _inference(request: Request, model: Model, gpu: GPU, notes: list[str]) -> Estimate:
    precision = _default_precision(request, model)
    engine = engine_factors(_default_engine(request, precision, gpu))
    gen = generation(gpu.architecture, gpu.memory_type)
    if precision.compute == "fp8" and engine.name in _FP8_ENGINES and gen in _NO_FP8_PATH:
        raise InvalidInput(
            f"{engine.label} has no FP8 path on the {gpu.name} ({gen}): FP8 weights need a "
            "Turing or newer NVIDIA GPU (weight-only on Turing and Ampere, FP8 compute from Ada "
            "Lovelace); run int8, GPTQ/AWQ or a GGUF on it instead."
        )
    precision = _as_the_card_computes(precision, gen, gpu, notes)  # engines cast bf16 to fp16
    if not request.engine:
        given = f"the {request.backend} backend" if request.backend else precision.name
        notes.append(f"engine not given: {engine.label} assumed for {given}")
    backend = _backend(request, engine, gpu, notes)
    if not request.precision and native_precision(model):
        notes.append(f"precision not given: {precision.name}, as the model is published, assumed")
    elif not request.precision:
        notes.append(f"precision not given: {precision.name} assumed")
    context = request.context or min(DEFAULT_CONTEXT, model.max_context)
    if not request.context:
        notes.append(f"context not given: {context} tokens assumed")
    if context > model.max_context:
        notes.append(
            f"{context} tokens is beyond {model.name}'s trained context ({model.max_context})"
        )
    kv_type = request.kv_cache or ("fp32" if precision.name == "fp32" else "fp16")
    kv_elem = kv_bytes(kv_type)
    pp = _pipeline(request, engine, notes, model)
    # the cache holds each sequence's prompt and its answer: an output length given adds to a
    # prompt's context (up to the model's window)
    held = min(context + (request.output_tokens or 0), max(context, model.max_context))
    if held > context:
        notes.append(f"KV cache for {held:,} tokens a sequence: {context:,} prompt + "
                     f"{held - context:,} output")  # fmt: skip
    budget = kv_budget.kv_budget(
        model, gpu, precision, engine, num_gpus=request.num_gpus,
        engine_version=request.engine_version,
    )  # fmt: skip
    mem = memory.inference_memory(
        model, precision, engine,
        context=held, batch=request.batch, kv_elem_bytes=kv_elem, num_gpus=request.num_gpus,
        legacy_cache=bool(request.legacy_kv_cache), pp=pp, budget=budget,
    )  # fmt: skip
    usable = budget.usable_gb
    setting = None
    # raised where the default leaves one sequence no room (a batch is served at the default:
    # fewer sequences fit there, as vLLM's max_num_seqs search finds)
    if budget.profiled and mem.total_gb > usable and request.batch == 1:
        raised = kv_budget.kv_budget(
            model, gpu, precision, engine, num_gpus=request.num_gpus,
            engine_version=request.engine_version, utilization=kv_budget.RAISED_UTILIZATION,
        )  # fmt: skip
        if mem.total_gb <= raised.usable_gb:
            setting = (f"--gpu-memory-utilization {raised.utilization:g} (at {engine.label}'s "
                       f"default {budget.utilization:g} it is {mem.total_gb - usable:.2f} GB "
                       "short)")  # fmt: skip
            notes.append(f"fits only with {setting}")
            budget, usable = raised, raised.usable_gb
    notes.extend(mem.assumptions)
    split = _host_split(request, model, gpu, engine, precision, mem, usable, notes)
    if split is not None:
        mem = split.memory
    if budget.profiled:
        notes.append(kv_budget.budget_note(budget, gpu, engine, request.engine_version))
    else:
        notes.append(
            f"usable memory: {gpu.memory_gb:g} GB card holds {memory.capacity_gb(gpu):.1f} GB"
            f"{memory.shared_with(gpu)}; {engine.label} uses {engine.usable_fraction:.0%} of it"
        )
    tp = tensor_parallel(engine, request.num_gpus, pp)
    link = interconnect.link_for(gpu, tp if pp > 1 else request.num_gpus, request.interconnect)
    over = None
    if tp > 1:
        over = link.short
        notes.append(f"tensor-parallel all-reduces over {link.label}")
    group = model.num_attention_heads // max(model.num_kv_heads, 1)
    if kv_read_per_query_head(engine.name, request.engine_version) and group > 1:
        notes.append(
            f"{engine.label} {request.engine_version}: decode attention reads each KV head once "
            f"per query head ({group} per group; the XQA kernel of 0.8 and later reads it once)"
        )
    if tp > 1 and eager_collectives(engine.name, request.engine_version):
        notes.append(
            f"{engine.label} {request.engine_version}: no CUDA graphs, each all-reduce issued "
            f"from every rank's host ({EAGER_ALLREDUCE_LATENCY:g}x the link's latency, "
            "factors.EAGER_ALLREDUCE_LATENCY)"
        )
    if tp > 1 and factors.ray_dispatch_ms(engine.name, request.engine_version):
        notes.append(
            f"{engine.label} {request.engine_version}: each decode step's inputs sent to the "
            f"tensor-parallel workers by a Ray call ({factors.RAY_DISPATCH_MS:g} ms a step, "
            "factors.RAY_DISPATCH_MS)"
        )
    penalty_ms = factors.penalty_sampler_ms(engine.name, model.vocab_size)
    if request.sampling_penalties and penalty_ms:
        notes.append(
            f"sampling penalties: {engine.label}'s sampler counts each sequence's tokens over the "
            f"{model.vocab_size:,}-token vocabulary, {penalty_ms:.1f} ms per sequence a step "
            "(factors.PENALTY_SAMPLER_MS)"
        )
    if release_layer_ms(engine.name, request.engine_version):
        notes.append(
            f"{engine.label} {request.engine_version}: "
            f"{release_layer_ms(engine.name, request.engine_version) * 1000:.0f} us more per "
            "layer per decode step than current releases (factors.RELEASE_LAYER_MS)"
        )
    penalties = bool(request.sampling_penalties)
    decode = throughput.decode_tokens_per_s(
        model, gpu, precision, engine, batch=request.batch, context=context,
        kv_elem_bytes=kv_elem, num_gpus=request.num_gpus, link=link, pp=pp,
        engine_version=request.engine_version, penalties=penalties, backend=backend,
    )  # fmt: skip
    awq = request.awq_version
    prefill_s = throughput.prefill_seconds(
        model, gpu, precision, engine, prompt=context, batch=request.batch,
        num_gpus=request.num_gpus, link=link, pp=pp, awq_version=awq,
    )  # fmt: skip
    # the first token after a prompt of the length said, else after a chat's prompt (the
    # serving figure's): a context assumed for memory is no prompt anyone waits on
    asked = context if request.context else min(context, SERVING_PROMPT_TOKENS)
    first_s = throughput.time_to_first_token_seconds(
        model, gpu, precision, engine, prompt=asked, batch=request.batch,
        num_gpus=request.num_gpus, link=link, pp=pp, awq_version=awq,
    )  # fmt: skip
    if split is not None:  # the CPU's share of each token, and its weights over PCIe per prompt
        decode, crossing = split.slowed(decode, request.batch, context, gpu)
        prefill_s += crossing
        first_s += crossing
    prefill = Band.around(context * request.batch / prefill_s)
    low, high = SPEED_BAND
    ttft = Band(first_s / high, first_s, first_s / low)
    output = request.output_tokens or DEFAULT_OUTPUT_TOKENS
    full, full_batch = throughput.serving_tokens_per_s(
        model, gpu, precision, engine, prompt=asked, output=output, kv_elem_bytes=kv_elem,
        num_gpus=request.num_gpus, link=link, pp=pp, awq_version=awq,
        engine_version=request.engine_version, penalties=penalties, backend=backend,
    )  # fmt: skip
    lengths = (
        f"{asked} prompt" + ("" if request.context else " (assumed)") + f" + {output} output "
        f"tokens ({'given' if request.output_tokens else 'assumed'})"
    )
    serving: Band | None = full
    serving_batch: int | None = full_batch
    if split is not None:  # a split model is one person's, not a server's
        serving, serving_batch = None, None
    elif request.batch > 1:  # the batch given is the concurrency served; full load beside it
        serving, serving_batch = throughput.serving_tokens_per_s(
            model, gpu, precision, engine, prompt=asked, output=output,
            kv_elem_bytes=kv_elem, num_gpus=request.num_gpus, link=link, batch=request.batch,
            pp=pp, awq_version=awq, engine_version=request.engine_version, penalties=penalties,
            backend=backend,
        )  # fmt: skip
        notes.append(
            f"serving at the {request.batch} concurrent requests given, of {lengths}; at full "
            f"load ({full_batch} requests) about {full.typical:,.0f} tokens/s"
        )
    else:
        notes.append(f"full-load serving: {full_batch} concurrent requests of {lengths}")
    if request.batch > 1:
        notes.append(
            f"decode: {decode.typical:,.0f} tokens/s summed over the {request.batch} sequences, "
            f"{decode.typical / request.batch:,.1f} tokens/s each"
        )
    calibration = DECODE_CALIBRATION.get(engine.name)
    notes.append(
        "decode bandwidth share "
        f"{throughput.decode_mbu(engine, gen, throughput.is_hbm(gpu), gpu.id)[1]}; "
        + calibration_note(calibration, engine.label, "decode")
    )
    notes.append(
        f"speed assumes {engine.label}: decode reads weights + KV cache at the card's bandwidth; "
        f"prefill at {throughput.dense_tflops(gpu, precision):g} dense TFLOPS"
        + ("; MoE: active parameters for speed, all parameters for memory" if model.is_moe else "")
    )
    response = None
    if request.output_tokens:  # one answer of the length given: its first token, then the rest
        per_seq = {k: v / request.batch for k, v in decode.to_dict().items()}
        response = {
            "low": ttft.low + request.output_tokens / per_seq["high"],
            "typical": ttft.typical + request.output_tokens / per_seq["typical"],
            "high": ttft.high + request.output_tokens / per_seq["low"],
        }
        notes.append(f"time per answer: time to first token + {request.output_tokens:,} output "
                     "tokens at one sequence's decode speed")  # fmt: skip
    total = mem.total_gb
    return Estimate(
        model=model.id, model_name=model.name, gpu=gpu.id, gpu_name=gpu.name,
        num_gpus=request.num_gpus, workload="inference", precision=precision.name,
        engine=engine.name, context=context, batch=request.batch,
        fits=total <= usable and not (split and split.ram_short),
        memory_per_gpu_gb=total, usable_memory_per_gpu_gb=usable, headroom_gb=usable - total,
        engine_setting=setting,
        breakdown_gb=mem.breakdown_gb, decode_tokens_per_s=decode.to_dict(),
        prefill_tokens_per_s=prefill.to_dict(), time_to_first_token_s=ttft.to_dict(),
        response_seconds=response, train_tokens_per_s=None, cost=None, assumptions=notes,
        serving_tokens_per_s=serving.to_dict() if serving else None,
        serving_batch=serving_batch, serving_prompt=asked if serving else None,
        first_token_prompt=asked,
        interconnect=over, gpu_layers=split.gpu_layers if split else None,
        layers=split.layers if split else None,
        host_layers=split.layers - split.gpu_layers if split else None,
        host_memory_gb=split.host_gb if split else None,
        backend=backend.name if backend else None,
    )  # fmt: skip


@dataclass(frozen=True)
class HostSplit:
    """llama.cpp's layers split between the GPUs and the CPU (host.py)."""

    gpu_layers: int
    layers: int
    host_gb: float  # the CPU's layers with their KV cache, and the embeddings, in system RAM
    ram_short: bool  # the machine's RAM, when given, cannot hold them beside the system
    read_gb: float  # what the CPU reads per token: its layers (a MoE: their active experts), head
    gpu_read_share: float  # the GPUs' share of what a whole-GPU decode step reads
    host: host_mod.HostMemory
    memory: memory.MemoryResult  # what stays on each GPU

    def slowed(self, decode: Band, batch: int, prompt: int, gpu: GPU) -> tuple[Band, float]:
        """Decode with the CPU's layers read from RAM each step, and the seconds a prompt spends
        copying them to the GPU (llama.cpp runs a prompt's matmuls there, LLAMA_CPP_UBATCH
        tokens at a time)."""
        step = self.gpu_read_share * batch / decode.typical + host_mod.host_token_seconds(
            self.read_gb * memory.GB, self.host
        )
        lanes = interconnect.PCIE_LANE_GBS.get(gpu.pcie_gen or 4, interconnect.PCIE_LANE_GBS[4])
        copies = -(-prompt // throughput.LLAMA_CPP_UBATCH)
        crossing = copies * self.host_gb / (lanes * (gpu.pcie_lanes or 16))
        return Band.around(batch / step, SPEED_BAND), crossing


def _host_split(
    request: Request,
    model: Model,
    gpu: GPU,
    engine: EngineFactors,
    precision: Precision,
    mem: memory.MemoryResult,
    usable: float,
    notes: list[str],
) -> HostSplit | None:
    """The layers llama.cpp keeps on the GPUs when the rest go to system RAM: the number asked
    (`gpu_layers`, its -ngl), or with offload "layers" as many as fit (as ollama chooses).

    A layer is its block's weights and KV cache; the token embedding and the output head are not
    layers. llama.cpp moves the output head to the GPU only with every layer (-ngl above the
    layer count), so a split model reads the head from RAM on every token."""
    if request.gpu_layers is None and request.offload != "layers":
        return None
    if "unified" in (gpu.memory_type or "").lower():
        return None  # a Mac's or an APU's GPU memory is the system RAM: no other RAM to fill
    if engine.name != "llama.cpp":
        raise InvalidInput(
            f"Layers in system RAM run on the CPU in llama.cpp (and ollama), not {engine.label}."
        )
    layers = model.num_layers
    parts = mem.breakdown_gb
    edge, head = _edge_gb(model, precision, parts, request.num_gpus)
    per_layer = (parts["weights"] - edge + parts["kv_cache"]) / layers  # per GPU
    fixed = mem.total_gb - parts["weights"] - parts["kv_cache"]
    if request.gpu_layers is None:  # as many as fit; the head too when every layer does
        if host_mod.layers_on_gpu(per_layer, fixed + edge, usable, layers) == layers:
            return None  # it fits whole: nothing in RAM
        n = host_mod.layers_on_gpu(per_layer, fixed, usable, layers)
    elif request.gpu_layers > layers:
        return None  # -ngl above the layer count (99): every layer and the head on the GPUs
    else:
        n = request.gpu_layers  # -ngl equal to the layer count still leaves the head in RAM
    host = host_mod.host_memory(request.ram, request.ram_channels)
    share = n / layers
    breakdown = {
        **parts,
        "weights": (parts["weights"] - edge) * share,
        "kv_cache": parts["kv_cache"] * share,
    }
    host_gb = ((layers - n) * per_layer + edge) * request.num_gpus
    blocks = _read_per_token_gb(model, parts, edge, 0.0)  # the layers' part of a decode step
    whole = blocks + head
    read_gb = ((layers - n) / layers * blocks + head) * request.num_gpus
    notes.append(
        f"llama.cpp with {n} of {layers} layers on the GPU{'s' if request.num_gpus > 1 else ''} "
        f"(-ngl {n}): the other {layers - n} with their KV cache, the token embedding and the "
        f"output head ({host_gb:.1f} GB) stay in {host.label} system RAM, and the CPU reads "
        f"its {read_gb:.1f} GB a token at {host_mod.HOST_DECODE_SHARE:.0%} of that bandwidth "
        "(host.HOST_DECODE_SHARE)"
    )
    if request.ram is None:
        notes.append(f"system RAM not given: {host.label} assumed")
    short = bool(request.ram_gb and host_gb > request.ram_gb - HOST_RESERVED_GB)
    if request.ram_gb:
        room = "too little for" if short else "room for"
        notes.append(f"{request.ram_gb:g} GB of RAM, {HOST_RESERVED_GB:g} GB of it kept by the "
                     f"system: {room} the CPU's layers")  # fmt: skip
    return HostSplit(n, layers, host_gb, short, read_gb, share * blocks / whole, host,
                     replace(mem, breakdown_gb=breakdown))  # fmt: skip


def _edge_gb(
    model: Model, precision: Precision, parts: dict[str, float], num_gpus: int
) -> tuple[float, float]:
    """The token embedding and output head in `parts`' weights (GB a GPU), and the head alone:
    one vocab x hidden matrix read whole per token (a tied model's head is its embedding)."""
    matrix = model.vocab_size * model.hidden_size * precision.bytes_embedding / memory.GB
    matrices = 1 if model.tie_word_embeddings else 2
    return min(parts["weights"], matrix * matrices / num_gpus), matrix / num_gpus


def _read_per_token_gb(
    model: Model, parts: dict[str, float], edge: float = 0.0, head: float = 0.0
) -> float:
    """What one decode step reads: the layers' weights (a MoE: its active experts) and KV cache,
    and the output head (`edge`: the embedding and head in `parts`' weights, read apart)."""
    active = min(model.params_per_token / max(model.total_params, 1), 1.0)
    return (parts["weights"] - edge) * active + parts["kv_cache"] + head


CPU = host_mod.CPU
HOST_RESERVED_GB = host_mod.HOST_RESERVED_GB


def cpu_estimate(request: Request, model: Model) -> Estimate:
    """An LLM in llama.cpp on the CPU alone: memory in system RAM (`ram_gb`, if said, holds it
    or not) and decode at the RAM's bandwidth (host.py). No prompt speed: that is the CPU's
    compute, which the calculator does not model."""
    notes = [model.notes or "generic model"] if model.generic else []
    if request.engine and engine_factors(request.engine).name != "llama.cpp":
        raise InvalidInput("On a CPU alone the calculator models llama.cpp (and ollama).")
    backends.backend_for(request.backend, backends.CPU_STACK, "a CPU alone")
    if request.workload != "inference":
        raise InvalidInput("On a CPU alone the calculator models inference, not training.")
    if request.num_gpus != 1:
        raise InvalidInput("A CPU-only estimate is for one machine (num_gpus 1).")
    engine = engine_factors("llama.cpp")
    precision = get_precision(request.precision or "q4_k_m")
    if not request.precision:
        notes.append(f"precision not given: {precision.name} assumed (a GGUF for llama.cpp)")
    context = request.context or min(DEFAULT_CONTEXT, model.max_context)
    if not request.context:
        notes.append(f"context not given: {context} tokens assumed")
    mem = memory.inference_memory(
        model, precision, engine, context=context, batch=request.batch,
        kv_elem_bytes=kv_bytes(request.kv_cache or "fp16"),
    )  # fmt: skip
    parts = {**mem.breakdown_gb, "runtime_overhead": 0.0}  # no CUDA context
    total = sum(parts.values())
    host = host_mod.host_memory(request.ram, request.ram_channels)
    edge, head = _edge_gb(model, precision, parts, 1)
    read = _read_per_token_gb(model, parts, edge, head)
    step = host_mod.host_token_seconds(read * memory.GB, host)
    decode = Band.around(request.batch / step, SPEED_BAND)
    usable = (request.ram_gb - HOST_RESERVED_GB) if request.ram_gb else total
    notes.append(
        f"llama.cpp on the CPU alone: every weight read from {host.label} system RAM per token, "
        f"at {host_mod.HOST_DECODE_SHARE:.0%} of its bandwidth (host.HOST_DECODE_SHARE)"
    )
    notes += host_mod.ram_notes(request.ram, request.ram_gb, host.label, "the model")
    return Estimate(
        model=model.id, model_name=model.name, gpu=CPU, gpu_name=f"CPU with {host.label} RAM",
        num_gpus=1, workload="inference", precision=precision.name, engine=engine.name,
        context=context, batch=request.batch, fits=total <= usable, memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable, headroom_gb=usable - total, breakdown_gb=parts,
        decode_tokens_per_s=decode.to_dict(), assumptions=notes, gpu_layers=0,
        layers=model.num_layers, host_layers=model.num_layers, host_memory_gb=total,
        backend=backends.CPU_STACK,
    )  # fmt: skip


def _splits_heads(model: Model, tp: int) -> bool:
    """Whether `tp`-way tensor parallel splits the model's attention heads evenly, as vLLM and
    TensorRT-LLM require (query heads a multiple of tp; KV heads a multiple of tp, or tp a
    multiple of them when each KV head is copied to several GPUs)."""
    kv = max(model.num_kv_heads, 1)
    return model.num_attention_heads % tp == 0 and (kv % tp == 0 or tp % kv == 0)


def _pipeline(request: Request, engine: EngineFactors, notes: list[str], model: Model) -> int:
    """The pipeline stages an inference request asks (`pp`): a serving engine's micro-batched
    pipeline over num_gpus / pp-way tensor parallel groups. Unasked, a serving engine on more
    GPUs than one node holds runs a stage per node (interconnect.NODE_GPUS); on a count that
    does not split the heads (3 GPUs, 64 heads), a stage per GPU."""
    pp = request.pp
    serving = engine.name in TENSOR_PARALLEL_ENGINES
    if pp <= 1 and serving and request.nodes > 1:
        notes.append(
            f"{request.num_gpus} GPUs over {request.nodes} nodes: tensor parallel inside each "
            f"node, {request.nodes} pipeline stages across them"
        )
        return request.nodes
    uneven = request.num_gpus > 1 and not _splits_heads(model, request.num_gpus)
    if pp <= 1 and serving and uneven and request.num_gpus <= interconnect.NODE_GPUS:
        notes.append(
            f"{request.num_gpus}-way tensor parallel does not split {model.name}'s "
            f"{model.num_attention_heads} attention heads ({model.num_kv_heads} KV) evenly, "
            f"which {engine.label} requires: {request.num_gpus} pipeline stages instead "
            "(one GPU each)"
        )
        return request.num_gpus
    nodes, rest = divmod(request.num_gpus, interconnect.NODE_GPUS)
    if pp <= 1 and nodes > 1 and not rest and serving:
        notes.append(
            f"{request.num_gpus} GPUs as {nodes} nodes of {interconnect.NODE_GPUS}: "
            f"{interconnect.NODE_GPUS}-way tensor parallel inside each node, {nodes} pipeline "
            "stages across them (NVLink does not reach beyond a node)"
        )
        return nodes
    if pp <= 1:
        return 1
    if not serving:
        raise InvalidInput(
            f"{engine.label} splits a model's layers across GPUs on its own; pipeline stages "
            f"(pp) are for {', '.join(TENSOR_PARALLEL_ENGINES)}."
        )
    if request.num_gpus % pp:
        raise InvalidInput(f"{pp} pipeline stages do not divide {request.num_gpus} GPUs evenly.")
    tp = request.num_gpus // pp
    notes.append(
        f"speed with {pp} pipeline stages"
        + (f" of {tp}-way tensor parallel" if tp > 1 else " (no tensor parallel)")
        + ": each stage holds its share of the layers and works on its own micro-batch"
    )
    return pp


# ---------------------------------------------------------------- training


def _training(request: Request, model: Model, gpu: GPU, notes: list[str]) -> Estimate:
    method = TRAIN_METHODS[request.workload]
    precision = _default_precision(request)
    gen = generation(gpu.architecture, gpu.memory_type)
    precision = _as_the_card_computes(precision, gen, gpu, notes)  # a T4 trains in fp16
    if method == "qlora" and precision.family != "bnb-4bit":
        raise InvalidInput("QLoRA trains on a 4-bit base: use --precision nf4 (the default).")
    if method == "full" and precision.family not in ("float",):
        raise InvalidInput(
            f"Full fine-tuning updates every weight, which {precision.name} cannot hold; "
            "use bf16, fp16 or fp32 (or finetune-qlora for a 4-bit base)."
        )
    seq = request.context or min(2048, model.max_context)
    if not request.context:
        notes.append(f"sequence length not given: {seq} tokens assumed")
    if method != "full" and (request.offload_optimizer or request.offload_param):
        notes.append("CPU offload of the optimizer or parameters is modelled for full "
                     f"fine-tuning; this {'QLoRA' if method == 'qlora' else 'LoRA'} keeps its "
                     "small adapter state on the GPU")  # fmt: skip
        request = replace(request, offload_optimizer=None, offload_param=None)
    framework, optimizer = _offload_stack(request, notes)
    options = finetune.resolve(
        framework, method, mixed_precision=request.mixed_precision,
        checkpointing=request.checkpointing, optimizer=optimizer,
        optimizer_in_backward=request.optimizer_in_backward, chunked_loss=request.chunked_loss,
        activation_offload=request.activation_offload, compiled=request.torch_compile,
        fused_optimizer=request.fused_optimizer,
    )  # fmt: skip
    offloading = bool(request.offload_optimizer or request.offload_param)
    options = replace(options, offload_optimizer=bool(request.offload_optimizer),
                      offload_param=bool(request.offload_param))  # fmt: skip
    checkpointing = options.checkpointing
    label = options.framework.label
    loss = "fused" if options.fused_loss else "chunked" if options.chunked_loss else "plain"

    def step_memory(zero: int, checkpointing: bool) -> memory.MemoryResult:
        return memory.training_memory(
            model, method=method, precision=precision, optimizer=options.optimizer, seq=seq,
            batch=request.batch, checkpointing=checkpointing, lora_rank=request.lora_rank,
            lora_targets=request.lora_targets, num_gpus=request.num_gpus, zero_stage=zero,
            tp=request.tp, pp=request.pp, mixed_precision=options.mixed_precision,
            optimizer_in_backward=options.optimizer_in_backward, loss=loss,
            activation_offload=options.activation_offload, compiled=options.compiled,
            fused_optimizer=options.fused_optimizer,
            zero3_sub_group=options.framework.zero3_sub_group,
            qlora_extra_saved=options.framework.qlora_extra_saved,
            kbit_upcast=options.framework.kbit_upcast,
            offload_optimizer=options.offload_optimizer, offload_param=options.offload_param,
        )  # fmt: skip

    usable = memory.training_usable_gb(gpu)

    def plan(checkpointing: bool) -> tuple[int, memory.MemoryResult, str | None]:
        """The ZeRO stage (as given, else plain data parallel where a copy fits on each GPU,
        else the framework's sharding) and the step's memory."""
        if request.zero_stage is not None:
            return request.zero_stage, step_memory(request.zero_stage, checkpointing), None
        if offloading:  # DeepSpeed offloads from ZeRO-3, parameters only there
            why = "ZeRO stage not given: 3, DeepSpeed's stage for offloading to the CPU"
            return 3, step_memory(3, checkpointing), why
        if request.num_gpus == 1 or request.tp * request.pp > 1:
            return 0, step_memory(0, checkpointing), None
        copy = step_memory(0, checkpointing)
        if copy.total_gb <= usable:
            return 0, copy, "ZeRO stage not given: 0, plain data parallel (a copy per GPU)"
        zero = options.framework.zero_stage
        why = f"ZeRO stage not given: {zero} ({label}), the model sharded over the GPUs"
        return zero, step_memory(zero, checkpointing), why

    zero, mem, zero_note = plan(checkpointing)
    inside = interconnect.link_for(gpu, request.num_gpus // request.nodes, request.interconnect)
    if (request.checkpointing is None and not checkpointing and zero > 0
            and request.zero_stage is None and inside.kind != "switch"):  # fmt: skip
        # a copy too big only without recompute: over PCIe, gathering the sharded weights each
        # step costs more than recomputing the activations, so each GPU keeps a whole copy
        zero_on, mem_on, note_on = plan(True)
        if zero_on == 0 and mem_on.total_gb <= usable:
            checkpointing, zero, mem, zero_note = True, 0, mem_on, note_on
            options = replace(options, checkpointing=True)
            notes.append("gradient checkpointing not given: on, so each GPU holds a whole copy "
                         "(plain data parallel) rather than sharding the model over "
                         f"{inside.short}")  # fmt: skip
    if request.checkpointing is None and not checkpointing and mem.total_gb > usable:
        # what anyone does when a step runs out of memory: recompute instead of storing
        zero_on, mem_on, note_on = plan(True)
        # (and when it does not fit either way, the smaller of the two is the one to judge)
        if mem_on.total_gb < mem.total_gb:
            checkpointing, zero, mem, zero_note = True, zero_on, mem_on, note_on
            options = replace(options, checkpointing=True)
            notes.append(
                "gradient checkpointing not given: on, recomputing activations to make room"
            )
    half = "fp16" if gen in NO_BF16_TENSOR else "bf16"  # a T4's fine-tune computes in fp16
    setup = f"{label}: {options.describe(method, half)}"
    stated = framework or len(options.defaulted) < len(finetune.OPTION_WORDS)
    if not framework:
        described = options.describe(method, half)
        notes.append(f"framework not given: {label} assumed" if stated
                     else f"{label} (framework not given): {described}")  # fmt: skip
    else:
        notes.append(setup)
    if stated and options.defaulted:
        notes.append(
            f"{label} defaults (not given): "
            + ", ".join(finetune.OPTION_WORDS[k] for k in options.defaulted)
        )
    if zero_note:
        notes.append(zero_note)
    notes.extend(mem.assumptions)
    capacity = memory.capacity_gb(gpu)
    notes.append(
        f"usable memory: {capacity:.1f} GB less {1 - usable / capacity:.0%} "
        "the allocator loses to fragmentation during training"
    )
    link = interconnect.across_nodes(
        inside, request.nodes, request.network, request.num_gpus // request.nodes
    )
    over = link.short if request.num_gpus > 1 else None
    if over:
        notes.append(f"gradients and sharded weights cross {link.label}")
    fit = TRAIN_CALIBRATION.get(options.framework.name)
    notes.append(calibration_note(fit, label, "training speed"))
    host = host_mod.host_memory(request.ram, request.ram_channels) if offloading else None
    speed = throughput.train_tokens_per_s(
        model, gpu, precision, method=method, seq=seq, checkpointing=checkpointing,
        num_gpus=request.num_gpus, batch=request.batch, eager=options.framework.eager,
        trainable=None if method == "full" else memory.lora_params(
            model, request.lora_rank, request.lora_targets),
        zero_stage=zero, tp=request.tp, pp=request.pp, compiled=options.compiled,
        lora_rank=request.lora_rank, link=link,
        band=(fit.low, fit.high) if fit else SPEED_BAND,
        offload_optimizer=options.offload_optimizer, offload_param=options.offload_param,
        host_gbs=host.gbps if host else 0.0,
    )  # fmt: skip
    host_fits = True
    if host:
        notes.extend(_offload_notes(request, host, options, mem.host_gb))
        if request.ram_gb:
            host_fits = mem.host_gb <= request.ram_gb - HOST_RESERVED_GB
    rate = "dense BF16 TFLOPS"
    if precision.compute == "fp8" and gpu.fp8_dense_tflops:
        rate = f"fp8 linear layers ({throughput.FP8_TRAIN_SPEEDUP:.1f}x BF16)"
    notes.append(
        "training speed: 6 x parameters FLOPs per token (4 x for LoRA, + 2 x with recompute), "
        + rate
    )
    budget = _train_tokens(request)
    if budget is None and request.dataset_samples:  # "50k examples": each a full sequence
        budget = request.dataset_samples * seq * (request.epochs or 1)
        notes.append(f"average sample length not given: {seq:,} tokens (a full sequence, an "
                     f"upper bound) assumed for each of the {request.dataset_samples:,.0f} "
                     "samples")  # fmt: skip
    hours = None
    if budget:
        hours = {k: budget / v / 3600 for k, v in speed.to_dict().items()}
        hours = {"low": hours["high"], "typical": hours["typical"], "high": hours["low"]}
        notes.append(f"wall time for {budget:,.0f} training tokens")
    total = mem.total_gb
    return Estimate(
        model=model.id, model_name=model.name, gpu=gpu.id, gpu_name=gpu.name,
        num_gpus=request.num_gpus, workload=request.workload, precision=precision.name,
        engine=None, context=seq, batch=request.batch, fits=total <= usable and host_fits,
        memory_per_gpu_gb=total, usable_memory_per_gpu_gb=usable, headroom_gb=usable - total,
        breakdown_gb=mem.breakdown_gb, decode_tokens_per_s=None, prefill_tokens_per_s=None,
        time_to_first_token_s=None, train_tokens_per_s=speed.to_dict(), cost=None,
        assumptions=notes, train_hours=hours, job_hours=hours,
        training_setup=setup if stated else None, interconnect=over,
        allocator_cache_gb=mem.allocator_cache_gb,
        host_memory_gb=mem.host_gb if offloading else None,
    )  # fmt: skip


# frameworks that run DeepSpeed's ZeRO configs (its offload_optimizer / offload_param)
_DEEPSPEED_RUNNERS = ("hf", "deepspeed", "axolotl", "llama-factory", "ms-swift")


def _offload_stack(request: Request, notes: list[str]) -> tuple[str | None, str | None]:
    """The framework and optimizer a fine-tune runs: as asked, except that CPU offload is
    DeepSpeed's (the HF Trainer's or no framework said: DeepSpeed ZeRO) and steps its CPU Adam."""
    if not (request.offload_optimizer or request.offload_param):
        return request.framework, request.optimizer
    runs = finetune.find_framework(request.framework).name
    if runs not in _DEEPSPEED_RUNNERS:
        raise InvalidInput(
            "CPU offload of the optimizer or parameters is DeepSpeed ZeRO's (offload_optimizer, "
            f"offload_param); {finetune.find_framework(request.framework).label} does not run "
            f"it. Use one of {', '.join(_DEEPSPEED_RUNNERS)}."
        )
    framework = "deepspeed" if runs == "hf" else request.framework
    if runs == "hf":
        notes.append("CPU offload asked: DeepSpeed ZeRO under the HF Trainer (its config's "
                     "offload_optimizer / offload_param)")  # fmt: skip
    optimizer = request.optimizer
    if request.offload_optimizer and optimizer is None:
        optimizer = "adamw"  # DeepSpeedCPUAdam
    return framework, optimizer


def _offload_notes(
    request: Request, host: host_mod.HostMemory, options: finetune.TrainOptions, host_gb: float
) -> list[str]:
    """What a ZeRO-Offload estimate assumed of the step and the machine."""
    notes = []
    if options.offload_optimizer:
        notes.append(
            "ZeRO-Offload speed: each step sends the 16-bit gradients down PCIe (hidden under "
            "backward where it can be), steps Adam on the CPU at "
            f"{offload.CPU_ADAM_BANDWIDTH_SHARE:.0%} of the RAM's bandwidth (DeepSpeedCPUAdam, "
            "ZeRO-Offload paper Table 4) and sends the weights back up; once per optimizer "
            "step, so gradient accumulation spreads it"
        )
    if options.offload_param:
        notes.append("parameter offload: every forward and backward pass fetches the 16-bit "
                     "weights up PCIe, prefetched under the compute")  # fmt: skip
    if request.ram is None:
        notes.append(f"system RAM not given: {host.label} assumed for the CPU's Adam step")
    offloaded = "optimizer state" if options.offload_optimizer else "parameters"
    if request.ram_gb:
        notes.append(f"{request.ram_gb:g} GB of RAM, {HOST_RESERVED_GB:g} GB of it kept by the "
                     f"system, against {host_gb:.0f} GB of offloaded {offloaded}")  # fmt: skip
    else:
        notes.append(f"system RAM size not given: {host_gb:.0f} GB needed for the offloaded "
                     f"{offloaded} (DeepSpeed ZeRO-Offload)")  # fmt: skip
    return notes


def _train_tokens(request: Request) -> float | None:
    if request.dataset_samples and request.dataset_tokens is None:
        return request.train_tokens  # "50k examples, 3 epochs": the samples' tokens, below
    if request.epochs is not None or request.dataset_tokens is not None:
        if request.epochs is None or request.dataset_tokens is None:
            raise InvalidInput("Give both epochs and dataset tokens (or a total token budget).")
        return request.epochs * request.dataset_tokens
    return request.train_tokens


_TOKENS = ("per million tokens", 1e6)
_INFERENCE_PRECISIONS = tuple(p for p in PRECISIONS if p != "tf32")
FAMILY = Family(
    name="llm",
    label="LLM",
    table="models",
    model_cls=Model,
    workloads={
        "inference": "inference",
        "finetune-full": "full fine-tuning",
        "finetune-lora": "LoRA fine-tuning",
        "finetune-qlora": "QLoRA fine-tuning",
        "train": "training from scratch",
    },
    metrics={
        "inference": (
            # summed over the batch's sequences (one sequence's: divide by the batch), so the
            # cost per million tokens is the batch's
            Metric(
                "decode_tokens_per_s",
                "decode speed",
                "tokens/s",
                _TOKENS,
                asked=r"\b(?:token |text )?generation (?:speed|rate|throughput)\b"
                r"|\bfor (?:token |text )?generation\b|\bdecod(?:e|ing) (?:speed|rate)\b"
                r"|\btg\d{3}\b",
            ),
            Metric(
                "response_seconds",
                "time per answer",
                "s",
                asked=r"\bhow long (?:per|for (?:an?|each|one|the)|(?:does|will|would) (?:an?|each"
                r"|one|the) )\s?(?:answer|reply|response|completion|generation)|\btime (?:per|for "
                r"(?:an?|each|one)) (?:answer|reply|response)|\b(?:answer|reply|response) time\b",
            ),
            Metric(
                "time_to_first_token_s",
                "time to first token",
                "s",
                asked=r"\bttft\b|\btime to (?:the )?first token|\bfirst[- ]token latency",
            ),
            Metric(
                "prefill_tokens_per_s",
                "prompt processing",
                "tokens/s",
                asked=r"\bprefill\b|\bprompt (?:processing|eval\w*)\b|\bpp\d{3}",
            ),
            Metric(
                "serving_tokens_per_s",
                "serving throughput",
                "tokens/s",
                # "... for serving llama 70b, which wins": many requests at once, not one
                asked=r"\btotal throughput\b|\bserving throughput\b|\bfor serving\b"
                r"|\bserv(?:e|ing) (?:\d+|many|multiple|lots of) (?:users|requests|clients)\b",
            ),
        ),
        **{
            w: (Metric("train_tokens_per_s", "training speed", "tokens/s", _TOKENS),)
            for w in TRAIN_METHODS
        },
    },
    engines=(
        "vllm",
        "hf",
        "llama.cpp",
        "tensorrt-llm",
        "sglang",
        "lmdeploy",
        "tgi",
        "exllamav2",
        "autoawq",
        "mlc-llm",
    ),
    frameworks=tuple(finetune.FRAMEWORKS),
    precisions={
        "inference": ("bf16", *(p for p in _INFERENCE_PRECISIONS if p != "bf16")),
        "finetune-full": ("bf16", "fp16", "fp32"),
        "train": ("bf16", "fp16", "fp32"),
        "finetune-lora": ("bf16", *(p for p in _INFERENCE_PRECISIONS if p != "bf16")),
        "finetune-qlora": ("nf4", "nf4-nodq"),
    },
    estimate=estimate,
    reference_model="llama-3.1-8b",
    words=(r"\bllms?\b", r"\blanguage models?\b", r"\bchat ?bots?\b"),
    examples=(
        "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?",
        "How fast does Llama 3.1 70B run on two A100 80GB with vLLM?",
        "Cheapest GPU to serve Qwen2.5-32B in AWQ?",
    ),
    offloads=OFFLOADS,
    cpu_estimate=cpu_estimate,
)
