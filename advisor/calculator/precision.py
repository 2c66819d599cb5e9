"""Number formats: how many bits a weight takes, and which tensor-core rate computes with it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.calculator.factors import generation
from advisor.errors import InvalidInput
from advisor.specs import GPU

# NVIDIA generations whose tensor cores have no bf16 (it came with Ampere: A100 whitepaper)
NO_BF16_TENSOR = ("Pascal", "Volta", "Turing")


def no_bf16_tensor(architecture: str, memory_type: str | None) -> bool:
    """A GPU with no bf16 tensor cores (Pascal, Volta, Turing), by its datasheet architecture."""
    return generation(architecture, memory_type) in NO_BF16_TENSOR


@dataclass(frozen=True)
class Precision:
    """A weight format. Bits are averages including scales and zero points."""

    name: str
    bits_linear: float  # transformer-block weights
    bits_embedding: float  # token embedding and LM head (many formats keep them 16-bit)
    compute: str  # tensor-core rate used for matmuls: fp64 | fp32 | fp16 | fp8 | int8
    family: str  # float | int8 | weight-only-4bit | gguf | bnb-4bit
    note: str

    @property
    def bytes_linear(self) -> float:
        return self.bits_linear / 8

    @property
    def bytes_embedding(self) -> float:
        return self.bits_embedding / 8


def _p(name: str, bits: float, embed: float, compute: str, family: str, note: str) -> Precision:
    return Precision(name, bits, embed, compute, family, note)


# Sources: CALCULATOR_NOTES.md (llama.cpp quantize table for Llama-3-8B; AWQ/GPTQ group-128 and
# bitsandbytes NF4 with double quantization); GGUF averages apply to every tensor of the file.
PRECISIONS: dict[str, Precision] = {
    p.name: p
    for p in (
        _p("fp64", 64, 64, "fp64", "float", "8 bytes per value (scientific codes)"),
        _p("fp32", 32, 32, "fp32", "float", "4 bytes per weight"),
        _p("tf32", 32, 32, "tf32", "float", "fp32 weights, matmuls and convolutions in TF32"),
        _p("bf16", 16, 16, "fp16", "float", "2 bytes per weight"),
        _p("fp16", 16, 16, "fp16", "float", "2 bytes per weight"),
        _p("fp8", 8.0, 16, "fp8", "float", "1 byte per weight; embedding and head stay 16-bit"),
        _p("int8", 8.1, 16, "int8", "int8", "8-bit weights plus per-channel scales"),
        _p("awq", 4.16, 16, "fp16", "weight-only-4bit", "4-bit group-128 with scales/zeros"),
        _p("gptq", 4.16, 16, "fp16", "weight-only-4bit", "4-bit group-128 with scales/zeros"),
        # OCP MX spec: 4-bit E2M1 elements sharing one 8-bit scale per block of 32 (4.25 bits);
        # gpt-oss ships its MoE experts this way and the rest in bf16 (its model card)
        _p("mxfp4", 4.25, 16, "fp16", "weight-only-4bit", "MXFP4 experts, other weights 16-bit"),
        # NVIDIA's NVFP4: E2M1 elements with an FP8 scale per block of 16 (4.5 bits); computed on
        # FP4 tensor cores where the GPU has them (Blackwell), else dequantised to 16 bits
        _p("nvfp4", 4.5, 16, "fp4", "fp4", "NVFP4 4-bit weights, FP8 scale per 16"),
        _p("nf4", 4.127, 16, "fp16", "bnb-4bit", "bitsandbytes NF4 with double quantization"),
        _p("nf4-nodq", 4.5, 16, "fp16", "bnb-4bit", "bitsandbytes NF4, fp32 absmax per 64"),
        _p("q2_k", 3.17, 3.17, "fp16", "gguf", "llama.cpp Q2_K file average"),
        _p("q3_k_m", 4.00, 4.00, "fp16", "gguf", "llama.cpp Q3_K_M file average"),
        _p("q4_0", 4.55, 4.55, "fp16", "gguf", "llama.cpp Q4_0 file average"),
        _p("q4_k_m", 4.85, 4.85, "fp16", "gguf", "llama.cpp Q4_K_M file average"),
        _p("q5_k_m", 5.70, 5.70, "fp16", "gguf", "llama.cpp Q5_K_M file average"),
        _p("q6_k", 6.57, 6.57, "fp16", "gguf", "llama.cpp Q6_K file average"),
        _p("q8_0", 8.51, 8.51, "fp16", "gguf", "llama.cpp Q8_0 file average"),
        # llama.cpp's i-quants at the bits per weight its quantize tool lists for each
        # (github:ggml-org/llama.cpp tools/quantize/quantize.cpp QUANT_OPTIONS)
        *(
            _p(name, bits, bits, "fp16", "gguf", f"llama.cpp {name.upper()} ({bits:g} bpw)")
            for name, bits in (
                ("iq1_s", 1.56),
                ("iq1_m", 1.75),
                ("iq2_xxs", 2.06),
                ("iq2_xs", 2.31),
                ("iq2_s", 2.5),
                ("iq2_m", 2.7),
                ("iq3_xxs", 3.06),
                ("iq3_xs", 3.3),
                ("iq3_s", 3.44),
                ("iq3_m", 3.66),
                ("iq4_xs", 4.25),
                ("iq4_nl", 4.5),
            )
        ),
    )
}

_ALIASES = {
    "float64": "fp64",
    "double": "fp64",
    "float32": "fp32",
    "f32": "fp32",
    "float16": "fp16",
    "f16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "e4m3": "fp8",
    "int4": "awq",
    "w4a16": "awq",
    "mx4": "mxfp4",
    "fp4": "nvfp4",
    "nv-fp4": "nvfp4",
    "4bit": "nf4",
    "4-bit": "nf4",
    "qlora": "nf4",
    "bnb4": "nf4",
    "8bit": "int8",
    "w8a8": "int8",
    "llm.int8": "int8",
    "q4": "q4_k_m",
    "q8": "q8_0",
    # Unsloth's dynamic GGUFs ("UD-Q2_K_XL") keep a few layers wider than the type they are
    # named for; with no average stated they count as that type
    "q2_k_xl": "q2_k",
    "q3_k_xl": "q3_k_m",
    "q4_k_xl": "q4_k_m",
    "q5_k_xl": "q5_k_m",
    "q6_k_xl": "q6_k",
    "q8_k_xl": "q8_0",
}

# KV-cache element sizes in bytes (q8_0 / q4_0 include their block scales).
KV_BYTES: dict[str, float] = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "q8_0": 1.0625}
KV_BYTES["q4_0"] = 0.5625


# ExLlamaV2's EXL2 files mix bit widths to an average the user picks ("4.65bpw"); the output
# (head) layer gets 6 bits by default (github:turboderp/exllamav2 convert.py, --head_bits
# default 6) and the input embedding stays 16-bit in system RAM (memory.HOST_EMBEDDING_ENGINES)
EXL2_BPW = re.compile(r"(?:exl2[_ -]?)?(\d(?:\.\d{1,3})?)[_ ]?bpw")
EXL2_HEAD_BITS = 6.0
EXL2_RANGE = (2.0, 8.0)  # the averages convert.py targets


def is_exl2(name: str) -> bool:
    """Whether `name` is the calculator's name of an EXL2 average ("exl2-4.65bpw")."""
    return name.startswith("exl2-")


def _exl2(bpw: float) -> Precision:
    return _p(f"exl2-{bpw:g}bpw", bpw, EXL2_HEAD_BITS, "fp16", "weight-only-4bit",
              f"ExLlamaV2 EXL2, {bpw:g} bits per weight on average, head layer 6 bits")  # fmt: skip


# a GGUF file whose average the user states: "UD-Q2_K_XL (2.51-bit dynamic)" is
# "q2_k_xl-2.51bpw" (its bits as said, on every tensor, the way a GGUF average is counted)
GGUF_AVERAGE = re.compile(r"((?:i?q\d)(?:_[a-z\d]+){0,2})-(\d(?:\.\d{1,3})?)bpw")
GGUF_RANGE = (1.0, 9.0)


def _gguf_average(kind: str, bpw: float) -> Precision:
    return _p(f"{kind}-{bpw:g}bpw", bpw, bpw, "fp16", "gguf",
              f"GGUF {kind.upper()}, {bpw:g} bits per weight on average (as stated)")  # fmt: skip


def get_precision(name: str) -> Precision:
    """The precision `name` denotes ('bf16', 'Q4_K_M', 'int4', 'exl2-4.65bpw', 'q2_k_xl-2.51bpw'
    ...); InvalidInput if unknown."""
    if isinstance(name, str) and (gguf := GGUF_AVERAGE.fullmatch(name.strip().lower())):
        bpw = float(gguf.group(2))
        if not GGUF_RANGE[0] <= bpw <= GGUF_RANGE[1]:
            raise InvalidInput(f"GGUF averages run from 1 to 9 bits per weight (got {name!r}).")
        return _gguf_average(gguf.group(1), bpw)
    if isinstance(name, str) and (exl2 := EXL2_BPW.fullmatch(name.strip().lower())):
        bpw = float(exl2.group(1))
        if not EXL2_RANGE[0] <= bpw <= EXL2_RANGE[1]:
            raise InvalidInput(f"EXL2 averages run from 2 to 8 bits per weight (got {name!r}).")
        return _exl2(bpw)
    key = name.strip().lower().replace("-", "_") if isinstance(name, str) else ""
    key = _ALIASES.get(key, _ALIASES.get(key.replace("_", "-"), key))
    by_key = {p.replace("-", "_"): p for p in PRECISIONS}
    if key not in by_key:
        known = ", ".join(PRECISIONS)
        raise InvalidInput(
            f"Unknown precision {name!r}; use one of {known}, exl2-<N>bpw or <gguf type>-<N>bpw."
        )
    return PRECISIONS[by_key[key]]


def kv_bytes(name: str) -> float:
    key = name.strip().lower()
    if key not in KV_BYTES:
        raise InvalidInput(f"Unknown KV-cache type {name!r}; use one of {', '.join(KV_BYTES)}.")
    return KV_BYTES[key]


def tensor_formats(gpu: GPU) -> dict[str, bool | None]:
    """Whether `gpu` computes bf16, tf32 and fp8 on its tensor cores: True, False, or None where
    the catalog cannot tell (a figure the datasheet table leaves empty on a non-NVIDIA part).
    bf16 follows the generation (NO_BF16_TENSOR); tf32 and fp8 follow the datasheet's figures."""
    nvidia = gpu.vendor == "NVIDIA"
    bf16 = (gpu.architecture not in NO_BF16_TENSOR) if nvidia else None
    return {
        "bf16": bf16 if gpu.fp16_bf16_dense_tflops else (False if nvidia else None),
        "tf32": True if gpu.tf32_dense_tflops else (False if nvidia else None),
        "fp8": True if gpu.fp8_dense_tflops else (False if nvidia else None),
    }


# Pascal chips other than GP100 run FP16 at 1/64 of their FP32 rate ("FP16 Throughput on GP104:
# Good for Compatibility (and Not Much Else)", https://www.anandtech.com/show/10325/
# the-nvidia-geforce-gtx-1080-and-1070-founders-edition-review/5; GP106 "29.86 GFLOPS (1:64)"
# in https://sysrqmts.com/fr/gpus/compare/nvidia-geforce-gtx-1050-mobile-vs-nvidia-geforce-gtx-
# 1650-mobile): half-precision work runs at the FP32 rate there, or slower
_SLOW_HALF_CHIPS = ("GP102", "GP104", "GP106", "GP107", "GP108")


def half_tflops(gpu: GPU) -> float:
    """The 16-bit rate a framework reaches: the tensor rate where the datasheet has one; else
    FP16x2 packed math (twice FP32: GP100, Turing TU11x, RDNA, Xe), except consumer Pascal,
    whose FP16 is slower than its FP32, so it computes at the FP32 rate."""
    if gpu.fp16_bf16_dense_tflops:
        return gpu.fp16_bf16_dense_tflops
    fp32 = gpu.fp32_tflops or 1.0
    return fp32 if (gpu.chip or "").startswith(_SLOW_HALF_CHIPS) else fp32 * 2


def fp16_accumulate_gain(gpu: GPU) -> float:
    """How much faster than its listed 16-bit tensor rate `gpu` runs FP16 matmuls that accumulate
    in FP16, read from the datasheet: NVIDIA tensor cores run INT8 at twice their FP16-accumulate
    rate, so where the listed rate (FP16 with FP32 accumulate) is below half the INT8 rate the card
    halves FP32 accumulation (GeForce RTX 20-50: 4x; TITAN RTX, Quadro, RTX A/Ada/PRO, data-centre
    parts: 2x, no gain). No INT8 tensor figure (GTX 16, Pascal, Volta): 1."""
    half, int8 = gpu.fp16_bf16_dense_tflops, gpu.int8_dense_tops
    if not half or not int8:
        return 1.0
    return max(1.0, int8 / 2 / half)
