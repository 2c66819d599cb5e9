"""Whisper on the CPU alone (device "cpu"): RAM and speed by engine, from the same windows as on a
GPU (speech.py).

Each 30-second window runs the encoder once over 1,500 frames: its matmuls at the CPU's
arithmetic rate (int8 weights at the int8 rate, where the CPU has one), its attention over the
frames in fp32, which no CPU engine quantises. The decoder then writes about one token per
0.3 s of speech, one step at a time: each step reads the decoder's weights from system RAM (the
host's bandwidth, host.py), computes them for every beam of every window, and pays the engine's
fixed time per step, which scales with the decoder's depth as on a GPU.

The Request does not describe the CPU, so the compute is the reference CPU's: the machine of the
faster-whisper README's CPU table, a desktop CPU with 8 threads like the i7-12700K. The RAM it
reads the decoder from is the request's (`ram`, `ram_channels`), or a current desktop's (the
README does not say its machine's; the fit takes that default, 2-channel DDR5-5600). The
constants are fitted to that table (eval/calibration/workloads.csv W0801-W0814);
eval/calibration_families.py refits them and prints every CPU row's in-sample error, with the
other CPUs' rows (Xeon Gold 6226R, Ryzen 5 5600G / 5600U; W0815-W0827) and whisper.cpp's
README sizes (W0828-W0832) scored, not fitted.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.calculator import host as host_mod
from advisor.calculator.base import Band, Estimate, Request
from advisor.calculator.memory import GB
from advisor.calculator.precision import get_precision
from advisor.calculator.speech import (
    ENGINES,
    REFERENCE_DECODER_LAYERS,
    TOKENS_PER_WINDOW,
    WINDOW_S,
    _decoder_params,
    _encoder_params,
)
from advisor.errors import InvalidInput
from advisor.specs import SpeechModel

CPU = host_mod.CPU


@dataclass(frozen=True)
class HostCPU:
    """The CPU a request runs on: the threads the engine uses and their peak arithmetic rates."""

    name: str
    threads: int
    fp32_gflops: float  # those threads' peak, all of them busy
    int8_gops: float

    @property
    def label(self) -> str:
        return f"{self.threads} threads of an {self.name}"


# The faster-whisper README's CPU machine: "Executed with 8 threads on an Intel Core i7-12700K"
# (github:SYSTRAN/faster-whisper README.md@65882eee). 8 threads on its 8 performance cores, each
# with two 256-bit FMA units (32 fp32 FLOP a cycle) at about 4.7 GHz with all of them busy;
# AVX-VNNI's vpdpbusd does 4 int8 multiply-adds per 32-bit lane where an FMA does one: 4x the
# fp32 rate. The efficiencies below are fitted against these peaks, so a clock off by some
# percent moves them, not the estimates.
REFERENCE_CPU = HostCPU("Intel Core i7-12700K", 8, 8 * 32 * 4.7, 4 * 8 * 32 * 4.7)

# Share of the reference CPU's peak the matmuls reach (encoder and decoder alike), and the share
# of the int8 rate's 4x over fp32 that CTranslate2's int8 matmuls keep (it quantises each
# matmul's input on the fly and dequantises its output): fitted by eval/calibration_families.py
# to the i7-12700K rows with the engines' per-step times below.
CPU_MATMUL_EFFICIENCY = 0.174
CPU_INT8_SHARE = 0.198


@dataclass(frozen=True)
class CpuEngine:
    """An engine as it runs on a CPU: the precisions it runs there, what its decoder caches hold,
    its fixed time per decoder step and the RAM its runtime takes besides the model."""

    name: str
    precisions: tuple[str, ...]  # first: the one assumed when none is said
    token_overhead_ms: float  # per decoder step of a 32-layer decoder (scales with the depth)
    runtime_gb: float  # the process: interpreter, libraries, audio decoding, allocator slack
    cache_bytes: float  # key/value caches: CTranslate2 and PyTorch keep fp32 on a CPU, ggml f16
    # whisper.cpp sizes its self-attention cache up front: the text context padded to 256 (512
    # positions) for each decoder, and beam + 2 decoders under beam search ("factor =
    # n_decoders_cur > 1 ? n_decoders_cur + 2 : 1", github:ggml-org/whisper.cpp
    # src/whisper.cpp@233fe1fc whisper_full_with_state); 0: the tokens written so far
    self_cache_positions: int = 0


# token_overhead_ms and runtime_gb fitted by eval/calibration_families.py to the faster-whisper
# README's i7-12700K table (small, beam 5; W0801-W0814).
CPU_ENGINES: dict[str, CpuEngine] = {
    e.name: e
    for e in (
        # faster-whisper's own advice for a CPU is int8 (README: device="cpu", compute_type="int8");
        # CTranslate2 refuses float16 there ("... do not support efficient float16 computation")
        CpuEngine("faster-whisper", ("int8", "fp32"), 78.9, 1.24, 4.0),
        # ggml's models ship f16 (ggml-small.bin: 466 MiB), computed in fp32; q8_0 is its int8,
        # assumed to keep CTranslate2's share of the int8 rate (no CPU measurement of it)
        CpuEngine("whisper.cpp", ("fp16", "int8", "fp32"), 71.3, 0.321, 2.0, 512),
        # "FP16 is not supported on CPU; using FP32 instead" (whisper/transcribe.py)
        CpuEngine("openai-whisper", ("fp32",), 373.0, 0.813, 4.0),
    )
}
# engines the calculator does not run on a CPU, and why
NOT_ON_CPU = {
    "tensorrt": "TensorRT-LLM runs on NVIDIA GPUs only",
    "transformers": "no published CPU measurement of Hugging Face transformers' Whisper to "
    "calibrate it on",
}
# Wider than on a GPU (speech.SPEECH_BAND): the request does not say the CPU. The current
# releases' rows on other CPUs (faster-whisper on a Xeon Gold 6226R and Ryzen 5 5600G / 5600U,
# openai-whisper on the 5600G) come within 25% of the reference CPU's figures
CPU_SPEECH_BAND = (0.6, 1.4)
SCORE_BYTES = 4.0  # the encoder's attention scores, fp32 in every CPU engine (no fused attention)


def _weight_bytes(precision: str) -> float:
    return {"fp32": 4.0, "int8": 1.0}.get(precision, 2.0)


def _encoder_attention_flops(model: SpeechModel) -> float:
    """Scores and their weighted sum over the frames, every encoder layer: 2 x 2 x frames^2 x d."""
    frames = model.max_source_positions
    return 4.0 * frames * frames * model.d_model * model.encoder_layers


def _matmul_rate(cpu: HostCPU, precision: str) -> float:
    """FLOP/s the CPU's matmuls reach with weights at `precision` (fp16 and fp32 alike: no x86
    desktop CPU computes in fp16, ggml widens f16 weights to fp32)."""
    peak = cpu.fp32_gflops
    if precision == "int8":
        peak += (cpu.int8_gops - cpu.fp32_gflops) * CPU_INT8_SHARE
    return peak * 1e9 * CPU_MATMUL_EFFICIENCY


def _scores_gb(model: SpeechModel) -> float:
    """One encoder layer's attention scores for a window: every head's frames x frames."""
    return model.num_attention_heads * model.max_source_positions**2 * SCORE_BYTES / GB


def cache_gb(model: SpeechModel, engine: CpuEngine, batch: int, beam: int) -> float:
    """The decoder's key/value caches of `batch` windows: cross-attention over the encoder's
    frames (a copy per beam where the engine repeats it: openai-whisper) and self-attention."""
    cross = model.max_source_positions * (beam if ENGINES[engine.name].cross_cache_per_beam else 1)
    own = TOKENS_PER_WINDOW
    if engine.self_cache_positions:
        own = engine.self_cache_positions * (beam + 2 if beam > 1 else 1)
    per_position = 2 * model.decoder_layers * model.d_model * engine.cache_bytes
    return (cross + own) * per_position * batch / GB


def window_seconds(
    model: SpeechModel,
    engine: CpuEngine,
    precision: str,
    batch: int,
    beam: int,
    ram: host_mod.HostMemory,
    cpu: HostCPU = REFERENCE_CPU,
) -> float:
    """Seconds the CPU takes to transcribe `batch` 30-second windows at once."""
    rate, fp32 = _matmul_rate(cpu, precision), _matmul_rate(cpu, "fp32")
    encoder = 2 * _encoder_params(model) * model.max_source_positions / rate
    encoder += _encoder_attention_flops(model) / fp32
    decoder = _decoder_params(model)
    # each step reads the decoder's weights and the windows' cross-attention keys and values
    cache = cache_gb(model, engine, batch, beam) * GB
    read = host_mod.host_token_seconds(decoder * _weight_bytes(precision) + cache, ram)
    flops = 2 * decoder * batch * beam / rate
    overhead = engine.token_overhead_ms / 1000 * model.decoder_layers / REFERENCE_DECODER_LAYERS
    return encoder * batch + TOKENS_PER_WINDOW * (max(read, flops) + overhead)


def memory(
    model: SpeechModel, engine: CpuEngine, precision: str, batch: int, beam: int
) -> dict[str, float]:
    """RAM in GB: the weights at `precision`, the decoder caches of `batch` windows, one encoder
    layer's attention scores per window (computed layer by layer) and the engine's process."""
    return {
        "weights": model.params * _weight_bytes(precision) / GB,
        "kv_cache": cache_gb(model, engine, batch, beam),
        "activations": _scores_gb(model) * batch,
        "runtime_overhead": engine.runtime_gb,
    }


def cpu_engine(name: str | None) -> CpuEngine:
    """The engine `name` as it runs on a CPU (None: faster-whisper), or InvalidInput saying why
    the calculator does not run it there."""
    name = name or "faster-whisper"
    if name in NOT_ON_CPU:
        label = ENGINES[name].label if name in ENGINES else name
        raise InvalidInput(
            f"{label} is not estimated on a CPU: {NOT_ON_CPU[name]}. On a CPU alone the "
            f"calculator runs Whisper in {', '.join(CPU_ENGINES)}."
        )
    if name not in CPU_ENGINES:
        raise InvalidInput(f"Speech engines on a CPU: {', '.join(CPU_ENGINES)} (got {name!r}).")
    return CPU_ENGINES[name]


def estimate(request: Request, model: SpeechModel) -> Estimate:
    """Whisper on the CPU alone: RAM (`ram_gb`, if said, holds it or not) and audio seconds a
    second, on the reference CPU with the request's RAM."""
    engine = cpu_engine(request.engine)
    label = ENGINES[engine.name].label
    if request.num_gpus != 1:
        raise InvalidInput("A CPU-only estimate is for one machine (num_gpus 1).")
    precision = get_precision(request.precision).name if request.precision else engine.precisions[0]
    if precision not in engine.precisions:
        raise InvalidInput(
            f"{label} runs {', '.join(engine.precisions)} on a CPU (got {precision})."
        )
    notes = [] if request.engine else [f"engine not given: {label} assumed"]
    if not request.precision:
        notes.append(f"precision not given: {precision} assumed ({label} on a CPU)")
    beam, batch = request.beam_size or 5, request.batch
    ram = host_mod.host_memory(request.ram, request.ram_channels)
    seconds = window_seconds(model, engine, precision, batch, beam, ram)
    rate = Band.around(WINDOW_S * batch / seconds, CPU_SPEECH_BAND)
    mem = memory(model, engine, precision, batch, beam)
    total = sum(mem.values())
    usable = (request.ram_gb - host_mod.HOST_RESERVED_GB) if request.ram_gb else total
    notes += [
        f"CPU not described: the compute of a desktop CPU with {REFERENCE_CPU.threads} threads "
        f"like the {REFERENCE_CPU.name.removeprefix('Intel Core ')} (the faster-whisper "
        "README's CPU benchmark machine); a CPU with fewer or slower cores is slower",
        f"{label} on the CPU alone, {precision}, beam {beam}, {batch} window(s) of 30 s at "
        f"once; about {TOKENS_PER_WINDOW} tokens per window, the decoder's weights read from "
        f"{ram.label} system RAM each token",
    ]
    notes += host_mod.ram_notes(request.ram, request.ram_gb, ram.label, "the run")
    hours = None
    if request.audio_hours:
        hours = rate.inverse().scaled(request.audio_hours).to_dict()
        notes.append(f"job: {request.audio_hours:,.6g} hours of audio")
    return Estimate(
        model=model.id, model_name=model.name, gpu=CPU,
        gpu_name=f"CPU ({REFERENCE_CPU.label}) with {ram.label} RAM", num_gpus=1,
        workload="inference", precision=precision, engine=engine.name, context=0, batch=batch,
        fits=total <= usable, memory_per_gpu_gb=total, usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total, breakdown_gb=mem, assumptions=notes, family="speech",
        audio_seconds_per_s=rate.to_dict(), job_hours=hours, host_memory_gb=total,
    )  # fmt: skip
