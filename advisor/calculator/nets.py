"""Image models (CNNs, ViTs, detectors) and classic transformers (BERT-style encoders,
Transformer-XL): training and inference throughput and memory.

A step's time per sample is a compute term plus a memory term, each on its own datasheet rate:

    seconds per sample = FLOPs / (tensor TFLOPS x e_compute) + bytes moved / (bandwidth x e_memory)

FLOPs are 2 x MACs per forward (x3 for training: forward and two backward products); the bytes
moved are the activations a sample writes and reads, which is why a CNN trains faster on a
card with more bandwidth even at equal TFLOPS. e_compute and e_memory are fitted per kind of
architecture (cnn, vit, encoder, transformer-xl) to published measurements
(eval/calibration_benchmark.py prints the fit and its leave-one-source-out error). Several
GPUs train data-parallel: each step adds the ring all-reduce of the gradients over the GPUs'
link (NVLink or PCIe), minus the part that overlaps with the backward pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.calculator.base import Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import generation
from advisor.calculator.memory import GB, capacity_gb
from advisor.calculator.precision import get_precision
from advisor.errors import InvalidInput
from advisor.specs import GPU, TransformerModel, VisionModel

# Fitted to published training throughput (eval/calibration: the Lambda benchmark rows of
# ../shared/data/measured_calibration.csv, the lambdal/deeplearning-benchmark, DeepLearningExamples
# and timm rows of eval/calibration/workloads.csv; single-GPU rows). (e_compute, e_memory):
# the share of dense tensor TFLOPS reached, and how many times the activations' bytes cross
# memory per step over the bandwidth reached (a factor, not a share).
EFFICIENCY = {
    "cnn": (0.95, 39.0),
    "vit": (0.72, 9.8),
    "hybrid": (0.72, 9.8),
    "encoder": (0.84, 13.6),
    "transformer-xl": (0.22, 45.0),
}
FP32_COMPUTE_BONUS = 1.5  # non-tensor FP32 runs nearer its (low) peak than tensor cores do
TENSORRT_SPEEDUP = 2.0  # TensorRT int8/fp16 engines against eager PyTorch (MLPerf vs timm rows)
FRAMEWORK = {"pytorch": 1.0, "tensorflow": 0.96}  # DLE ResNet-50: TF-XLA vs PyTorch, same GPUs
ALLREDUCE_OVERLAP = 0.7  # share of the gradient all-reduce hidden behind the backward pass
PCIE_GBS = {3: 16.0, 4: 32.0, 5: 64.0, 6: 128.0}  # per direction, x16
TRAIN_BYTES_PER_PARAM = {"sgd": 12.0, "adamw": 16.0, "lamb": 16.0}  # fp32 weights+grads+states
# elements kept for backward per forward activation element (a CNN keeps the BN and ReLU
# outputs besides each conv's; the transformer count is already Korthikanti's saved set)
SAVED_PER_ACTIVATION = {
    "cnn": 2.0,
    "vit": 1.5,
    "hybrid": 1.5,
    "encoder": 1.0,
    "transformer-xl": 1.0,
}
RUNTIME_GB = 1.0  # CUDA context, cuDNN workspaces
NET_BAND = (0.8, 1.2)


@dataclass(frozen=True)
class Work:
    flops: float  # per sample, training or inference
    activation_elems: float  # forward activation elements per sample
    tokens: int  # tokens per sample (1 for images)
    kind: str  # cnn | vit | hybrid | encoder | transformer-xl


def work(model: Any, request: Request, training: bool) -> Work:
    """FLOPs and activations of one sample at the requested resolution or sequence length."""
    factor = 3 if training else 1
    if isinstance(model, VisionModel):
        res = request.resolution or model.resolution
        scale = (res / model.resolution) ** 2
        acts = (model.activations_m or model.gmacs * 2.7) * 1e6 * scale
        return Work(factor * 2 * model.gmacs * 1e9 * scale, acts, 1, model.architecture)
    assert isinstance(model, TransformerModel)
    seq = _seq(model, request)
    memory = model.mem_len or 0
    h, layers = model.hidden_size, model.num_layers
    dense = model.params - model.vocab_size * h
    flops = factor * (2 * dense + 4 * layers * (seq + memory) * h) * seq
    acts = layers * seq * (17 * h + 2.5 * model.num_attention_heads * (seq + memory))
    return Work(flops, acts, seq, model.architecture)


def _seq(model: TransformerModel, request: Request) -> int:
    """Transformer-XL trains on its segment length; an encoder on 128 tokens unless told."""
    default = model.max_seq if model.architecture == "transformer-xl" else 128
    return min(request.context or default, model.max_seq)


def _rate(gpu: GPU, precision: str) -> tuple[float, float]:
    """(peak TFLOPS the precision computes at, bytes per activation element)."""
    fp32 = gpu.fp32_tflops or (gpu.fp16_bf16_dense_tflops or 1.0) / 4
    if precision in ("fp16", "bf16"):
        return (gpu.fp16_bf16_dense_tflops or fp32 * 2), 2.0
    if precision == "tf32":
        return (gpu.tf32_dense_tflops or fp32), 4.0
    if precision == "int8":
        return (gpu.int8_dense_tops or gpu.fp16_bf16_dense_tflops or fp32), 1.0
    if precision == "fp8":
        return (gpu.fp8_dense_tflops or gpu.fp16_bf16_dense_tflops or fp32), 1.0
    return fp32 * FP32_COMPUTE_BONUS, 4.0


def seconds_per_sample(w: Work, gpu: GPU, precision: str, training: bool, engine: str) -> float:
    e_compute, e_memory = EFFICIENCY[w.kind]
    peak, elem_bytes = _rate(gpu, precision)
    compute = w.flops / (peak * 1e12 * e_compute * _generation(gpu))
    memory = w.activation_elems * elem_bytes * e_memory / (gpu.bandwidth_gbs * 1e9)
    if training:
        return compute + memory
    # forward only: work() counted one pass; activations are written once, not kept for backward
    seconds = compute + memory / 3
    return seconds / TENSORRT_SPEEDUP if engine == "tensorrt" else seconds


def _generation(gpu: GPU) -> float:
    from advisor.calculator.factors import GENERATION_MFU

    return GENERATION_MFU.get(generation(gpu.architecture, gpu.memory_type), 0.8)


def link_gbs(gpu: GPU, num_gpus: int) -> tuple[float, str]:
    """Per-direction GB/s between GPUs for a ring all-reduce, and how they are linked."""
    pcie = PCIE_GBS.get(gpu.pcie_gen or 4, 32.0) * (gpu.pcie_lanes or 16) / 16
    if gpu.gpu_link == "switch" and gpu.gpu_link_gbs:
        return gpu.gpu_link_gbs / 2, "NVLink/fabric"
    if gpu.gpu_link == "bridge" and gpu.gpu_link_gbs and num_gpus == 2:
        return gpu.gpu_link_gbs / 2, "NVLink bridge"
    return pcie, f"PCIe Gen {gpu.pcie_gen or 4}"


def allreduce_seconds(params: int, gpu: GPU, num_gpus: int, grad_bytes: float) -> float:
    if num_gpus == 1:
        return 0.0
    bandwidth, _how = link_gbs(gpu, num_gpus)
    return 2 * (num_gpus - 1) / num_gpus * params * grad_bytes / (bandwidth * 1e9)


# ---------------------------------------------------------------- the estimate


def estimate(request: Request, model: Any, gpu: GPU, catalog: Any, notes: list[str]) -> Estimate:
    training = request.workload != "inference"
    precision = _precision(request, gpu, training, notes)
    engine = request.engine or "pytorch"
    framework = request.framework or "pytorch"
    if framework not in FRAMEWORK:
        raise InvalidInput(f"Framework must be one of {', '.join(FRAMEWORK)} for {model.name}.")
    w = work(model, request, training)
    n = request.num_gpus
    params = model.params
    per_sample = seconds_per_sample(w, gpu, precision, training, engine) / FRAMEWORK[framework]
    batch = request.batch
    step = batch * per_sample
    if training and n > 1:
        comm = allreduce_seconds(params, gpu, n, 2.0 if precision in ("fp16", "bf16") else 4.0)
        step += max(0.0, comm - ALLREDUCE_OVERLAP * step * 2 / 3)
        _bw, how = link_gbs(gpu, n)
        notes.append(f"data parallel over {n} GPUs: gradients all-reduced over {how} each step")
    rate = n * batch / step
    mem = _memory(model, w, request, precision, training)
    usable = capacity_gb(gpu) * (0.92 if training else 0.97)
    total = sum(mem.values())
    samples = Band.around(rate, NET_BAND)
    tokens = samples.scaled(w.tokens) if w.tokens > 1 else None
    hours = _job_hours(request, samples, notes) if training else None
    notes.append(
        f"{'training' if training else 'inference'} at {precision}"
        + (" (AMP mixed precision)" if precision in ("fp16", "bf16") and training else "")
        + f", batch {batch} per GPU, {framework}; speed from {w.flops / 1e9:,.1f} GFLOPs and "
        f"{w.activation_elems / 1e6:,.1f}M activations per sample on the card's tensor rate and "
        "memory bandwidth"
    )
    if isinstance(model, TransformerModel) and not request.context:
        notes.append(f"sequence length not given: {w.tokens} tokens assumed")
    return Estimate(
        model=model.id,
        model_name=model.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        num_gpus=n,
        workload=request.workload,
        precision=precision,
        engine=engine if not training else None,
        context=w.tokens if w.tokens > 1 else 0,
        batch=batch,
        fits=total <= usable,
        memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total,
        breakdown_gb=mem,
        assumptions=notes,
        family=_family(model),
        train_samples_per_s=samples.to_dict() if training else None,
        infer_samples_per_s=None if training else samples.to_dict(),
        train_tokens_per_s=tokens.to_dict() if tokens and training else None,
        job_hours=hours,
        resolution=(request.resolution or model.resolution)
        if isinstance(model, VisionModel)
        else None,
    )


def _family(model: Any) -> str:
    return "vision" if isinstance(model, VisionModel) else "transformer"


def _precision(request: Request, gpu: GPU, training: bool, notes: list[str]) -> str:
    if request.precision:
        name = get_precision(request.precision).name
        allowed = ("fp32", "tf32", "fp16", "bf16") + (() if training else ("int8", "fp8"))
        if name not in allowed:
            raise InvalidInput(f"Use one of {', '.join(allowed)} for this model (got {name}).")
        return name
    default = "fp16" if gpu.fp16_bf16_dense_tflops else "fp32"
    notes.append(
        f"precision not given: {default}" + (" (AMP)" if default == "fp16" else "") + " assumed"
    )
    return default


def _memory(
    model: Any, w: Work, request: Request, precision: str, training: bool
) -> dict[str, float]:
    elem = 2.0 if precision in ("fp16", "bf16") else 1.0 if precision in ("int8", "fp8") else 4.0
    batch = request.batch
    if training:
        optimizer = (
            "sgd" if isinstance(model, VisionModel) and model.architecture == "cnn" else "adamw"
        )
        states = model.params * TRAIN_BYTES_PER_PARAM[optimizer]
        activations = w.activation_elems * SAVED_PER_ACTIVATION[w.kind] * elem * batch
        return {
            "weights": model.params * 4 / GB,
            "gradients": model.params * 4 / GB,
            "optimizer_states": (states - 8 * model.params) / GB,
            "activations": activations / GB,
            "runtime_overhead": RUNTIME_GB,
        }
    return {
        "weights": model.params * elem / GB,
        "activations": w.activation_elems * elem * batch * 0.5 / GB,
        "runtime_overhead": RUNTIME_GB,
    }


def _job_hours(request: Request, samples: Band, notes: list[str]) -> dict[str, float] | None:
    if request.dataset_samples is None:
        return None
    epochs = request.epochs or 1.0
    total = request.dataset_samples * epochs
    notes.append(f"job: {epochs:g} epoch(s) of {request.dataset_samples:,.0f} samples")
    return samples.inverse().scaled(total / 3600).to_dict()


_SAMPLES = ("per million samples", 1e6)
VISION = Family(
    name="vision",
    label="image model",
    table="workloads/vision",
    model_cls=VisionModel,
    workloads={"train": "training", "inference": "inference", "finetune-full": "fine-tuning"},
    metrics={
        "train": (Metric("train_samples_per_s", "training throughput", "images/s", _SAMPLES),),
        "finetune-full": (
            Metric("train_samples_per_s", "training throughput", "images/s", _SAMPLES),
        ),
        "inference": (Metric("infer_samples_per_s", "inference throughput", "images/s", _SAMPLES),),
    },
    engines=("pytorch", "tensorrt", "onnxruntime"),
    precisions={
        "train": ("fp16", "bf16", "tf32", "fp32"),
        "finetune-full": ("fp16", "bf16", "tf32", "fp32"),
        "inference": ("fp16", "bf16", "int8", "fp8", "tf32", "fp32"),
    },
    estimate=estimate,
    reference_model="resnet-50",
    words=(
        r"\bresnet",
        r"\bvit\b",
        r"\bcnn\b",
        r"\bconv ?nets?\b",
        r"\bimage classification\b",
        r"\bcomputer vision\b",
        r"\bobject detection\b",
        r"\byolo",
        r"\bimagenet\b",
        r"\bcoco\b",
        r"\bconvnext\b",
        r"\befficientnet\b",
        r"\bdetector\b",
        r"\bcv\b",
    ),
    examples=(
        "How long does ResNet-50 take for 90 ImageNet epochs on 8 A100s?",
        "A4000 or A5000 for TensorFlow training?",
    ),
)
TRANSFORMER = Family(
    name="transformer",
    label="BERT-style transformer",
    table="workloads/transformer",
    model_cls=TransformerModel,
    workloads={"train": "training", "inference": "inference", "finetune-full": "fine-tuning"},
    metrics={
        "train": (
            Metric("train_samples_per_s", "training throughput", "sequences/s", _SAMPLES),
            Metric("train_tokens_per_s", "training throughput", "tokens/s"),
        ),
        "finetune-full": (
            Metric("train_samples_per_s", "fine-tuning throughput", "sequences/s", _SAMPLES),
        ),
        "inference": (
            Metric("infer_samples_per_s", "inference throughput", "sequences/s", _SAMPLES),
        ),
    },
    engines=("pytorch", "tensorrt", "onnxruntime"),
    precisions={
        "train": ("fp16", "bf16", "tf32", "fp32"),
        "finetune-full": ("fp16", "bf16", "tf32", "fp32"),
        "inference": ("fp16", "bf16", "int8", "fp8", "tf32", "fp32"),
    },
    estimate=estimate,
    reference_model="bert-large",
    words=(
        r"\bbert\b",
        r"\broberta\b",
        r"\bdeberta\b",
        r"\bdistilbert\b",
        r"\bsquad\b",
        r"\bsst-?2\b",
        r"\bglue\b",
        r"\btransformer-?xl\b",
        r"\btext classification\b",
    ),
    examples=("How fast does BERT-large fine-tune on an A100 vs a V100?",),
)
