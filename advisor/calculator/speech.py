"""Whisper speech recognition: memory and speed (seconds of audio transcribed per second) by engine.

Whisper cuts audio into 30-second windows. Each window runs the encoder once over 1,500 frames
(compute-bound), then the decoder writes about one token per 0.3 s of speech, one step at a time:
each step reads the decoder's weights (bandwidth-bound) and pays the engine's fixed time per
token, which dominates on any recent card (faster-whisper is about as fast on an RTX 3070 Ti as on
a V100S). That time is kernel launches and bookkeeping layer by layer, so it scales with the
decoder's depth: large-v3-turbo (4 decoder layers) and distil-large-v3 (2) write their tokens
several times faster than large-v3 (32) on the same encoder. Beam search decodes its beams as one
batch; batched engines decode several windows at once. The engine constants are fitted to the
faster-whisper, insanely-fast-whisper and whisper-jax tables of eval/calibration/workloads.csv
(W0562-W0598); eval/calibration_families.py refits them and prints their in-sample,
leave-one-source-out and leave-one-GPU-out error. On the CPU alone (device "cpu"): speech_cpu.py.
Fine-tuning (full or LoRA): speech_train.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.calculator import speech_train
from advisor.calculator.base import Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import compute_share
from advisor.calculator.memory import GB, capacity_gb
from advisor.calculator.precision import get_precision, half_tflops
from advisor.errors import InvalidInput
from advisor.specs import GPU, SpeechModel

WINDOW_S = 30.0
TOKENS_PER_WINDOW = 90  # ~3 tokens per second of speech (English, Whisper's tokenizer)
ENCODER_EFFICIENCY = 0.0972  # fitted with ENGINES' token overheads (see below)
# The engines' per-token times were fitted on 32-layer decoders (large-v2, large-v3): a decoder
# of L layers pays L/32 of them. Scored, not fitted: the openai/whisper README's relative speeds
# on an A100 (tiny ~10x, base ~7x, small ~4x, medium ~2x, turbo ~8x the large model;
# eval/calibration_families.py prints predicted against stated).
REFERENCE_DECODER_LAYERS = 32


@dataclass(frozen=True)
class SpeechEngine:
    name: str
    label: str
    token_overhead_ms: float  # fixed time per decoder step (Python, beam bookkeeping, launches)
    weights_fp32: bool  # loads fp32 weights whatever the compute precision (openai-whisper)
    overhead_gb: float  # CUDA context, workspaces (besides weights and decoder caches)
    precisions: tuple[str, ...]
    # openai-whisper's load_model() maps the fp16 checkpoint onto the GPU (torch.load with
    # map_location=device), builds the fp32 model and moves it there while the checkpoint is still
    # referenced: 2 bytes per parameter more at load, which PyTorch's caching allocator keeps
    # reserved afterwards (github:openai/whisper whisper/__init__.py load_model)
    load_copy_bytes: float = 0.0
    # openai-whisper's beam search repeats the audio features per beam (decoding.py
    # DecodingTask.run@0060c61, "repeat the audio & text tensors by the group size"), so each
    # beam holds its own cross-attention cache; CTranslate2 and whisper.cpp share one per window
    cross_cache_per_beam: bool = False


# token_overhead_ms fitted by eval/calibration_families.py to the speed rows W0562-W0595
# (faster-whisper README: RTX 3070 Ti and V100S, 13 min of audio, beam 5; insanely-fast-whisper
# and whisper-jax tables: A100); overhead_gb to the memory rows W0563-W0581 (faster-whisper
# README VRAM columns, all large-v2; the openai-whisper one on W0563 and W0577: 0.73 GB once its
# load-time checkpoint copy and per-beam cross caches are counted, against 1.22 without) with the
# decoder caches (kv_cache_gb) counted apart, so that
# the openai/whisper README's sizes tiny to large (W0599-W0604, scored, not fitted) follow from
# the architecture; the TensorRT engine has no rows.
ENGINES: dict[str, SpeechEngine] = {
    e.name: e
    for e in (
        SpeechEngine(
            "faster-whisper",
            "faster-whisper (CTranslate2)",
            18.1,
            False,
            1.35,
            ("fp16", "int8", "fp32"),
        ),
        SpeechEngine(
            "openai-whisper",
            "openai-whisper (PyTorch)",
            74.5,
            True,
            0.732,
            ("fp16", "fp32"),
            load_copy_bytes=2.0,
            cross_cache_per_beam=True,
        ),
        SpeechEngine(
            "transformers", "Hugging Face transformers", 79.6, False, 1.86, ("fp16", "bf16", "fp32")
        ),
        SpeechEngine("whisper.cpp", "whisper.cpp", 17.8, False, 0.98, ("fp16", "int8")),
        SpeechEngine("tensorrt", "TensorRT-LLM Whisper", 4.0, False, 1.5, ("fp16", "int8")),
    )
}
# the engine a card's compute stack runs when none is named: CTranslate2 (faster-whisper) has no
# Metal backend, whisper.cpp has (its per-token constant is the one fitted on CUDA rows)
STACK_DEFAULT = {"metal": "whisper.cpp"}
CUDA_ONLY = ("faster-whisper", "tensorrt")  # engines with no Metal backend (CPU on a Mac)
# Each window in flight holds its decoder's key/value cache in 16 bits: the cross-attention keys
# and values over the 1,500 encoder frames in every decoder layer (0.25 GB for large-v2, 10 MB for
# tiny) and the self-attention cache of the tokens written so far. Beams share their window's
# cross-attention cache: faster-whisper's batch-8 rows (W0571, W0575) add 0.23 GB per window at
# beam 5, the cross cache of one sequence.
KV_BYTES = 2.0
SPEECH_BAND = (0.7, 1.3)


def _encoder_params(model: SpeechModel) -> float:
    d, ffn = model.d_model, model.ffn_dim
    return model.encoder_layers * (4 * d * d + 2 * d * ffn)


def _decoder_params(model: SpeechModel) -> float:
    return model.params - _encoder_params(model)


def window_seconds(
    model: SpeechModel, gpu: GPU, engine: SpeechEngine, precision: str, batch: int, beam: int
) -> float:
    """Seconds to transcribe `batch` 30-second windows at once."""
    peak = half_tflops(gpu)
    if precision == "fp32":
        peak = gpu.fp32_tflops or peak / 4
    peak *= compute_share(gpu.architecture, gpu.memory_type, 0.8)
    encoder = 2 * _encoder_params(model) * model.max_source_positions * batch
    encoder_s = encoder / (peak * 1e12 * ENCODER_EFFICIENCY)
    weight_bytes = {"fp32": 4.0, "int8": 1.0}.get(precision, 2.0)
    if engine.weights_fp32:
        weight_bytes = 4.0 if precision == "fp32" else 2.0
    read = _decoder_params(model) * weight_bytes / (gpu.bandwidth_gbs * 1e9 * 0.6)
    flops = 2 * _decoder_params(model) * batch * beam / (peak * 1e12 * 0.3)
    overhead = engine.token_overhead_ms / 1000 * model.decoder_layers / REFERENCE_DECODER_LAYERS
    step = max(read, flops) + overhead
    return encoder_s + TOKENS_PER_WINDOW * step


def kv_cache_gb(model: SpeechModel, batch: int, cross_copies: int = 1) -> float:
    """Decoder key/value caches of `batch` windows: cross-attention over the encoder frames
    (`cross_copies` of it per window: an engine that repeats it per beam) and self-attention over
    the tokens a window writes."""
    positions = model.max_source_positions * cross_copies + TOKENS_PER_WINDOW
    return 2 * model.decoder_layers * positions * model.d_model * KV_BYTES * batch / GB


def memory(
    model: SpeechModel,
    engine: SpeechEngine,
    precision: str,
    batch: int,
    beam: int = 1,
    half_weights: bool = False,
) -> dict[str, float]:
    """Peak GB: the weights as the engine holds them, the decoder caches of `batch` windows and
    the engine's fixed runtime (CUDA context, workspaces). `half_weights`: openai-whisper's model
    cast to fp16 (model.half(), loaded on the CPU first) instead of load_model()'s fp32 weights
    and its checkpoint copy."""
    fp32 = engine.weights_fp32 and not half_weights
    weight_bytes = 4.0 if fp32 else {"fp32": 4.0, "int8": 1.0}.get(precision, 2.0)
    out = {"weights": model.params * weight_bytes / GB}
    if fp32 and engine.load_copy_bytes:
        out["load_copy"] = model.params * engine.load_copy_bytes / GB
    copies = beam if engine.cross_cache_per_beam else 1
    out["kv_cache"] = kv_cache_gb(model, batch, copies)
    out["runtime_overhead"] = engine.overhead_gb
    return out


def estimate(
    request: Request, model: SpeechModel, gpu: GPU, catalog: Any, notes: list[str]
) -> Estimate:
    if request.workload in speech_train.TRAIN_WORKLOADS:  # a fine-tune: speech_train.py
        return speech_train.estimate(request, model, gpu, catalog, notes)
    stack = gpu.compute_stack or "cuda"
    name = request.engine or STACK_DEFAULT.get(stack, "faster-whisper")
    if name not in ENGINES:
        raise InvalidInput(f"Speech engines: {', '.join(ENGINES)} (got {name!r}).")
    if name in CUDA_ONLY and stack == "metal":
        notes.append(f"{ENGINES[name].label} has no Metal backend (on a Mac it runs on the CPU, "
                     "which the calculator models only as a desktop x86 CPU, device 'cpu'): the "
                     "figures are whisper.cpp's, which runs on the GPU")  # fmt: skip
        name = "whisper.cpp"
    engine = ENGINES[name]
    precision = get_precision(request.precision).name if request.precision else "fp16"
    if precision not in engine.precisions:
        raise InvalidInput(f"{engine.label} runs {', '.join(engine.precisions)} (got {precision}).")
    if not request.engine:
        notes.append(f"engine not given: {engine.label} assumed")
    if not request.precision:
        notes.append("precision not given: fp16 assumed")
    beam = request.beam_size or 5
    batch = request.batch
    seconds = window_seconds(model, gpu, engine, precision, batch, beam)
    rate = Band.around(WINDOW_S * batch / seconds * request.num_gpus, SPEECH_BAND)
    half = request.mixed_precision is False and engine.weights_fp32
    mem = memory(model, engine, precision, batch, beam, half)
    if half:
        notes.append("weights cast to fp16 (model.half()), not load_model()'s fp32 copy")
    notes.append(
        f"{engine.label}, {precision}, beam {beam}, {batch} window(s) of 30 s at once; "
        f"about {TOKENS_PER_WINDOW} tokens per window"
    )
    hours = None
    if request.audio_hours:
        hours = rate.inverse().scaled(request.audio_hours).to_dict()
        notes.append(f"job: {request.audio_hours:,.6g} hours of audio")
    usable = capacity_gb(gpu) * 0.97
    total = sum(mem.values())
    return Estimate(
        model=model.id,
        model_name=model.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        num_gpus=request.num_gpus,
        workload=request.workload,
        precision=precision,
        engine=name,
        context=0,
        batch=batch,
        fits=total <= usable,
        memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total,
        breakdown_gb=mem,
        assumptions=notes,
        family="speech",
        audio_seconds_per_s=rate.to_dict(),
        job_hours=hours,
    )


def _cpu_estimate(request: Request, model: SpeechModel) -> Estimate:
    # the CPU model builds on this module's windows and caches: imported when first asked
    from advisor.calculator import speech_cpu

    return speech_cpu.estimate(request, model)


_SAMPLES = ("per million samples", 1e6)  # a sample: one clip of up to 30 s
FAMILY = Family(
    name="speech",
    label="speech recognition",
    table="workloads/speech",
    model_cls=SpeechModel,
    workloads={
        "inference": "transcription",
        "finetune-full": "full fine-tuning",
        "finetune-lora": "LoRA fine-tuning",
    },
    metrics={
        "inference": (
            Metric(
                "audio_seconds_per_s",
                "transcription speed",
                "audio s/s",
                ("per audio hour", 3600.0),
            ),
        ),
        "finetune-full": (Metric("train_samples_per_s", "training speed", "samples/s", _SAMPLES),),
        "finetune-lora": (Metric("train_samples_per_s", "training speed", "samples/s", _SAMPLES),),
    },
    engines=tuple(ENGINES),
    precisions={
        "inference": ("fp16", "int8", "bf16", "fp32"),
        "finetune-full": ("fp16", "bf16", "fp32"),
        "finetune-lora": ("fp16", "bf16", "int8"),
    },
    # the HF blog's Whisper recipe: 16 samples a step (gradient checkpointing on, fp16)
    default_batch=(("finetune-full", 16), ("finetune-lora", 16)),
    estimate=estimate,
    cpu_estimate=_cpu_estimate,
    reference_model="whisper-large-v3",
    words=(
        r"\bwhisper\b",
        r"\btranscri\w*",
        r"\bspeech[- ]to[- ]text\b",
        r"\basr\b",
        r"\bspeech recognition\b",
        r"\bpodcasts?\b",
        r"\baudio\b",
    ),
    examples=(
        "How much memory does Whisper large-v3 need with faster-whisper int8?",
        "How fast does whisper large-v3 transcribe on a T4?",
        "Can I fine-tune Whisper large-v3 on a single RTX 4090?",
    ),
)
