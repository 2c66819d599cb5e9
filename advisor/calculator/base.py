"""The calculator's value types: what a request asks, what an estimate answers, and what a workload
family declares about itself (its workloads, metrics, engines and precisions).

Every family (advisor/calculator/families.py lists them) answers the same Request with the same
Estimate; a field a family does not use stays None. Units are in the field names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from advisor.calculator.factors import FORMULA_VERSION, SPEED_BAND

# what an estimate's assumptions say when a training job was given no epochs: one pass
ONE_EPOCH_ASSUMED = "epochs not given: 1 assumed"


def one_epoch_assumed(assumptions: list[str]) -> bool:
    """Whether a training estimate was sized as one pass because no epochs were given."""
    return ONE_EPOCH_ASSUMED in assumptions


if TYPE_CHECKING:
    from advisor.catalog import Catalog
    from advisor.specs import GPU


@dataclass(frozen=True)
class Band:
    """A figure with its low / typical / high range."""

    low: float
    typical: float
    high: float

    @classmethod
    def around(cls, typical: float, band: tuple[float, float] = SPEED_BAND) -> Band:
        low, high = band
        return cls(typical * low, typical, typical * high)

    def inverse(self) -> Band:
        """1 / x of each figure (a rate into a time): low and high swap."""
        return Band(1 / self.high, 1 / self.typical, 1 / self.low)

    def scaled(self, factor: float) -> Band:
        return Band(self.low * factor, self.typical * factor, self.high * factor)

    def to_dict(self) -> dict[str, float]:
        return {"low": self.low, "typical": self.typical, "high": self.high}


@dataclass(frozen=True)
class Request:
    """What to estimate. None means: use the stated default for this family and workload."""

    model: str
    gpu: str
    num_gpus: int = 1
    workload: str = "inference"
    precision: str | None = None
    context: int | None = None
    batch: int = 1
    engine: str | None = None
    kv_cache: str | None = None
    # transformers before 4.36 (and models' own remote code): a tuple KV cache, which a decode
    # step copies whole; None / False = its DynamicCache, which copies one layer at a time
    legacy_kv_cache: bool | None = None
    # AutoAWQ's weight packing ("version" in its quant_config): "gemm" (None) or "gemv", whose
    # prompt processing unpacks every weight once per token (throughput.AWQ_TOKENS_PER_UNPACK)
    awq_version: str | None = None
    # the engine's release ("0.6.1"); None = a current one. TensorRT-LLM before 0.8 (no XQA
    # kernel) reads a grouped KV head once per query head (factors.kv_read_per_query_head);
    # ExLlamaV2 before 0.1.9 spends more per layer per decode step (factors.release_layer_ms);
    # vLLM's KV budget follows its release's start-up profile (kv_budget.py)
    engine_version: str | None = None
    # repetition / presence / frequency penalties in the sampling parameters: the engine's sampler
    # counts every sequence's tokens over the vocabulary each decode step
    # (factors.PENALTY_SAMPLER_MS); None / False = sampling without them
    sampling_penalties: bool | None = None
    # llama.cpp's backend (backends.py: cuda, rocm, vulkan, sycl, ipex-llm, metal, cpu); None =
    # the default of the card's vendor (CUDA on NVIDIA, ROCm on Radeon, SYCL on Arc, Metal on a
    # Mac). Naming one implies the llama.cpp engine
    backend: str | None = None
    interconnect: str | None = None  # several GPUs: auto | nvlink | pcie (interconnect.py)
    # training over several machines: how many (num_gpus split evenly over them) and the network
    # between them (interconnect.NETWORKS: 10gbe, 100gbe, ib-hdr, ...)
    nodes: int = 1
    network: str | None = None
    optimizer: str | None = None  # LLM fine-tuning: None = the framework's recipe
    checkpointing: bool | None = None
    lora_rank: int = 16
    lora_targets: str = "all"
    zero_stage: int | None = None
    tp: int = 1
    pp: int = 1
    train_tokens: float | None = None
    epochs: float | None = None
    dataset_tokens: float | None = None
    output_tokens: int | None = None
    offering: str = "on-demand"
    provider: str | None = None  # priced at one cloud's rows ("AWS", "RunPod"), else the market's
    utilisation: float = 1.0
    # image, speech and classic-transformer families
    resolution: int | None = None  # image side in pixels
    steps: int | None = None  # diffusion denoising steps
    # CPU offload: diffusion none | model | sequential; LLM (llama.cpp) none | layers: the layers
    # the GPUs do not hold run on the CPU from system RAM (host.py)
    offload: str | None = None
    gpu_layers: int | None = None  # llama.cpp -ngl: layers on the GPUs (the rest on the CPU)
    # memory of each card kept for other work the user names (the OS and desktop of a Jetson, a
    # camera pipeline): out of what the job may use
    reserved_gb: float | None = None
    ram: str | None = None  # system RAM, "ddr5-5600" (host.py; None = a current desktop's)
    ram_channels: int | None = None  # its memory channels (None = a desktop's two)
    ram_gb: float | None = None  # its size: it must hold the CPU's layers (or all, gpu "cpu")
    framework: str | None = None  # training framework: pytorch | tensorflow | hf | torchtune ...
    # LLM fine-tuning memory options; None = what the framework's recipes do
    mixed_precision: bool | None = None  # False: pure bf16 (no fp32 master weights)
    optimizer_in_backward: bool | None = None
    chunked_loss: bool | None = None
    activation_offload: bool | None = None
    torch_compile: bool | None = None
    fused_optimizer: bool | None = None  # AdamW in one fused kernel (no foreach step copy)
    # DeepSpeed ZeRO-Offload (offload.py): the optimizer's states, fp32 master weights and
    # gradients in CPU RAM with Adam stepped on the CPU (ZeRO-2/3), and under ZeRO-3 the 16-bit
    # parameters too; either implies DeepSpeed at ZeRO-3 unless a stage is given
    offload_optimizer: bool | None = None
    offload_param: bool | None = None
    dataset_samples: float | None = None  # images or sequences in one epoch
    images: float | None = None  # images to generate
    audio_hours: float | None = None  # audio to transcribe
    beam_size: int | None = None  # speech decoding


@dataclass(frozen=True)
class Estimate:
    """The answer, with how each number was made. Speeds are {low, typical, high} bands."""

    model: str
    model_name: str
    gpu: str
    gpu_name: str
    num_gpus: int
    workload: str
    precision: str
    engine: str | None
    context: int
    batch: int
    fits: bool
    memory_per_gpu_gb: float
    usable_memory_per_gpu_gb: float
    headroom_gb: float
    breakdown_gb: dict[str, float]
    # generated tokens/s summed over the `batch` sequences (one sequence's: divide by batch)
    decode_tokens_per_s: dict[str, float] | None = None
    prefill_tokens_per_s: dict[str, float] | None = None
    time_to_first_token_s: dict[str, float] | None = None
    # one answer of the output length given, first token to last (per sequence of the batch)
    response_seconds: dict[str, float] | None = None
    train_tokens_per_s: dict[str, float] | None = None
    cost: dict[str, Any] | None = None
    serving_tokens_per_s: dict[str, float] | None = None
    serving_batch: int | None = None
    serving_prompt: int | None = None  # each served request's prompt tokens
    first_token_prompt: int | None = None  # the prompt time_to_first_token_s is the wait on
    train_hours: dict[str, float] | None = None
    assumptions: list[str] = field(default_factory=list)
    formula_version: str = FORMULA_VERSION
    family: str = "llm"
    train_samples_per_s: dict[str, float] | None = None
    infer_samples_per_s: dict[str, float] | None = None
    images_per_s: dict[str, float] | None = None
    seconds_per_image: dict[str, float] | None = None
    it_per_s: dict[str, float] | None = None
    audio_seconds_per_s: dict[str, float] | None = None
    job_hours: dict[str, float] | None = None  # wall time of the whole job asked for
    resolution: int | None = None
    steps: int | None = None
    # LLM fine-tuning: the framework and memory options the figures assume, when any was given
    training_setup: str | None = None
    interconnect: str | None = None  # the link tensor-parallel collectives run over
    # an engine setting the fit rests on, with what the default leaves: "--gpu-memory-utilization
    # 0.95 (at vLLM's default 0.9 it is 0.84 GB short)" (kv_budget.RAISED_UTILIZATION)
    engine_setting: str | None = None
    # data-parallel training: the share of each step spent waiting on the link (the gradient
    # all-reduce the backward pass does not hide)
    link_wait_share: float | None = None
    # LLM fine-tuning: what PyTorch's caching allocator keeps beyond memory_per_gpu_gb, which a
    # max_memory_reserved or nvidia-smi reading also counts (MemoryResult.allocator_cache_gb)
    allocator_cache_gb: float = 0.0
    # llama.cpp with layers in system RAM: how many the GPUs hold, what the rest take in RAM
    gpu_layers: int | None = None
    layers: int | None = None  # the model's, beside gpu_layers
    host_layers: int | None = None  # ... and those in system RAM, run by the CPU
    # llama.cpp: the system RAM its CPU layers take; a ZeRO-Offload fine-tune: the RAM one
    # machine needs for what its GPUs offloaded
    host_memory_gb: float | None = None
    backend: str | None = None  # llama.cpp's backend the speeds assume (backends.py)
    reserved_gb: float = 0.0  # memory of each card kept for other work, out of the usable

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class WorkloadKind:
    """A kind of job, whatever the family: how it is said, and the words that say it."""

    name: str
    label: str
    training: bool
    words: tuple[str, ...]  # regex fragments (lower case) a question uses for it


@dataclass(frozen=True)
class Metric:
    """One figure an estimate reports: the Estimate field it fills, how to say it, its unit."""

    key: str
    label: str
    unit: str
    # a cost per unit of work: (label, how many units, e.g. ("per 1,000 images", 1000))
    cost_per: tuple[str, float] | None = None
    # how people ask for this figure by name (a regex on the lowercased question): the figure
    # asked leads the answer ("seconds per image", "it/s", "time to first token")
    asked: str = ""


@dataclass(frozen=True)
class Family:
    """A family of workloads: its models' catalog table, the workloads it estimates, what each
    estimate reports, and the function that makes one."""

    name: str
    label: str  # "LLM", "image model" ...
    table: str  # the catalog table of its models
    model_cls: type
    workloads: dict[str, str]  # workload name -> how this family says it
    metrics: dict[str, tuple[Metric, ...]]  # workload name -> what its estimates report
    engines: tuple[str, ...]  # inference engines it knows (first = default)
    precisions: dict[str, tuple[str, ...]]  # workload name -> precisions it takes (first = default)
    estimate: Callable[[Request, Any, GPU, Catalog, list[str]], Estimate]
    reference_model: str  # the model a "which GPU is faster for this" comparison runs
    words: tuple[str, ...] = ()  # phrases that name the family in a question (regex fragments)
    examples: tuple[str, ...] = ()  # questions people ask about it (UI, help, docs)
    # per-GPU batch an answer assumes when the question gives none (workload -> batch); a
    # training step at batch 1 is no one's training run
    default_batch: tuple[tuple[str, int], ...] = ()
    frameworks: tuple[str, ...] = ()  # training frameworks it knows (first = default)
    offloads: tuple[str, ...] = ()  # CPU offload modes it models ("none" first)
    # its estimate on the CPU alone (device "cpu", from system RAM); None: GPUs only
    cpu_estimate: Callable[[Request, Any], Estimate] | None = None

    def workload_label(self, workload: str) -> str:
        return self.workloads.get(workload, workload)


def validate_choice(value: str, choices: tuple[str, ...] | list[str], what: str) -> str:
    """`value` if it is one of `choices`, else InvalidInput naming them."""
    from advisor.errors import InvalidInput

    if value not in choices:
        raise InvalidInput(f"Unknown {what} {value!r}; use one of {', '.join(choices)}.")
    return value
