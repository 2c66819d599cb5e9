"""The few named efficiency factors the calculator fits to published measurements.

Each factor belongs to an engine or to a GPU generation, never to a single measurement; the
accuracy benchmark (eval/calibration_benchmark.py) reports how well this small set reproduces the
measured table. Change a factor, re-run the benchmark, and commit its report with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import InvalidInput

FORMULA_VERSION = "calc-2026.11.2"  # .2: generations of their own for Apple, Pascal, RDNA, Xe
LLM_ENGINES = ("hf", "vllm", "llama.cpp", "tensorrt-llm")


@dataclass(frozen=True)
class EngineFactors:
    """How one inference engine uses memory and time."""

    name: str
    label: str
    cuda_context_gb: float  # CUDA context, cuBLAS workspace, graphs: per GPU
    usable_fraction: float  # share of the card the engine lets itself use
    kv_copy_factor: float  # >1 where the KV cache is copied while it grows (HF DynamicCache)
    mbu: float  # memory-bandwidth utilisation of a decode step (before the generation factor)
    step_overhead_ms: float  # fixed time per decode step (launches, sampling, Python)
    layer_overhead_ms: float  # extra time per layer per decode step (eager frameworks)
    prefill_mfu: float  # share of dense tensor TFLOPS reached by prefill
    max_batch: int  # most sequences the engine batches by default


ENGINE_FACTORS: dict[str, EngineFactors] = {
    e.name: e
    for e in (
        EngineFactors("hf", "Hugging Face transformers (eager)", 0.6, 0.97, 2.0, 0.90, 2.0, 0.30,
                      0.45, 64),
        EngineFactors("vllm", "vLLM", 1.0, 0.90, 1.0, 0.80, 1.5, 0.0, 0.55, 256),
        EngineFactors("llama.cpp", "llama.cpp (CUDA, full offload)", 0.4, 0.98, 1.0, 1.0, 2.5,
                      0.0, 0.40, 1),
        EngineFactors("tensorrt-llm", "TensorRT-LLM", 0.8, 0.95, 1.0, 0.85, 1.0, 0.0, 0.60,
                      2048),
    )
}  # fmt: skip

# Achieved share of datasheet bandwidth / compute by GPU generation (memory controllers, clocks
# under load). HBM parts reach less of their very high peak at batch 1 than GDDR parts.
GENERATION_MBU = {
    "Volta": 0.75,
    "Turing": 0.80,
    "Ampere-HBM": 0.55,
    "Ampere": 0.85,
    "Ada Lovelace": 0.92,
    "Hopper": 0.60,
    "Blackwell": 0.60,
    "CDNA": 0.55,
    "Gaudi": 0.55,
    # Apple M-series GPUs (unified LPDDR): 0.85 x 0.892, the median of measured / computed over
    # the 11 llama.cpp Metal decode rows of M1, M1 Max, M2 Ultra and M3 Max (Llama 3 8B and 70B,
    # Q4_K_M and F16, tg 512) in github:XiongjieDai/GPU-Benchmarks-on-LLM-Inference README.md
    # @00dd2bdeb2404263f22bd6c1cd46ce397e341db5; eval/calibration/llm.csv L1782-L1792
    "Apple": 0.76,
    # Not fitted (too few rows in the calibration set): taken as Ampere GDDR's, the value these
    # generations had before they had keys of their own
    "Pascal": 0.85,
    "RDNA": 0.85,
    "Xe": 0.85,
}
GENERATION_MFU = {
    "Volta": 0.85,
    "Turing": 0.75,
    "Ampere-HBM": 1.0,
    "Ampere": 1.0,
    "Ada Lovelace": 0.95,
    "Hopper": 0.80,
    "Blackwell": 0.75,
    "CDNA": 0.60,
    "Gaudi": 0.65,
    # not fitted (no rows): Ampere GDDR's, as above
    "Apple": 1.0,
    "Pascal": 1.0,
    "RDNA": 1.0,
    "Xe": 1.0,
}

# Extra time per layer per decode step for quantised kernels that dequantise on the fly.
QUANT_LAYER_OVERHEAD_MS = {"bnb-4bit": 0.2, "int8": 0.9, "weight-only-4bit": 0.05, "gguf": 0.0}
# In transformers, 4-bit kernels (bitsandbytes, AutoGPTQ exllama) are fused for batch 1 only;
# larger batches dequantise every weight to 16-bit each step (write + read 4 bytes per weight).
BNB_BATCHED_DEQUANT_BYTES = 4.0

# Training: share of dense BF16 TFLOPS reached, by method (Megatron reports 42-54% for large
# dense runs; single-GPU LoRA and QLoRA runs reach less).
TRAIN_MFU = {"full": 0.50, "lora": 0.60, "qlora": 0.55}

# bitsandbytes 4-bit layers keep extra tensors for backward: QLoRA activations run ~1.27x LoRA's.
QLORA_ACTIVATION_FACTOR = 1.27

# The loss over the vocabulary, bytes per vocabulary entry per token of a batch: bf16 logits, their
# fp32 upcast, log-softmax and the gradients back (transformers' loss upcasts the logits whole).
# Physics bounds it between 8 and 16; 12 was chosen from 8 / 12 / 16 by the median error on the
# 56 transformers LoRA and QLoRA peak-memory rows of eval/calibration/llm.csv (Qwen README
# L0946-L1034, PEFT method_comparison L1727-L1753): 15% / 10% / 11% (LoRA), 22% / 21% / 21%.
LOGIT_BYTES = 12.0
# torch.compile keeps this share of a layer's saved activations (pointwise ops fused): fitted on
# the torchtune README memory table, Llama-3.2-3B full fine-tune on an A100 without and with
# compile (eval/calibration/llm.csv L1616, L1618): 64.4 -> 54.8 GB, all of it activations.
COMPILED_LAYER_SHARE = 0.65
# torchtune's CEWithChunkedOutputLoss: the fp32 part of the loss one chunk of tokens at a time.
LOSS_CHUNKS = 8

# Training allocates and frees large tensors every step; PyTorch's caching allocator then holds
# about 5-10% more than it has allocated, and an OOM comes when the reserved memory is full.
TRAINING_USABLE_FRACTION = 0.92

# Bands around the typical figure (low, high) for speed estimates.
SPEED_BAND = (0.75, 1.2)


ENGINE_ALIASES = {
    "transformers": "hf",
    "llamacpp": "llama.cpp",
    "llama-cpp": "llama.cpp",
    "trt": "tensorrt-llm",
    "trt-llm": "tensorrt-llm",
    "tensorrt": "tensorrt-llm",
}


def tensor_parallel(engine: EngineFactors, num_gpus: int) -> int:
    """How many ways an engine splits each layer: vLLM and TensorRT-LLM shard tensors across
    GPUs; transformers and llama.cpp give each GPU whole layers (a pipeline, tp = 1)."""
    return num_gpus if engine.name in ("vllm", "tensorrt-llm") else 1


def engine_factors(engine: str) -> EngineFactors:
    key = engine.strip().lower().replace("_", "-")
    key = ENGINE_ALIASES.get(key, key)
    if key not in ENGINE_FACTORS:
        raise InvalidInput(f"Unknown engine {engine!r}; use one of {', '.join(LLM_ENGINES)}.")
    return ENGINE_FACTORS[key]


def generation(architecture: str, memory_type: str | None) -> str:
    """The generation key of a GPU, from its datasheet architecture and memory type. An
    architecture no table knows is an error, not a silent guess."""
    arch = architecture.lower()
    for word, key in _GENERATION_WORDS:
        if word in arch:
            return key
    if "ampere" in arch or arch == "unknown":  # unknown: a GPU known only by its memory
        return "Ampere-HBM" if (memory_type or "").upper().startswith("HBM") else "Ampere"
    raise InvalidInput(
        f"No speed factors for the {architecture!r} architecture; the calculator knows "
        f"{', '.join(sorted({k for _w, k in _GENERATION_WORDS} | {'Ampere'}))}."
    )


# datasheet architecture words -> generation key (first match wins: "RDNA 3.5" is RDNA)
_GENERATION_WORDS = (
    ("pascal", "Pascal"),
    ("volta", "Volta"),
    ("turing", "Turing"),
    ("ada", "Ada Lovelace"),
    ("hopper", "Hopper"),
    ("blackwell", "Blackwell"),
    ("rubin", "Blackwell"),  # no rows yet: taken as its predecessor's
    ("cdna", "CDNA"),
    ("rdna", "RDNA"),
    ("gaudi", "Gaudi"),
    ("xe", "Xe"),
    ("apple", "Apple"),
)
