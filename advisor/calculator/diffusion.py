"""Text-to-image diffusion pipelines (Stable Diffusion 1.5/2.1/XL, SD3, FLUX): images per second,
seconds per image and denoising iterations per second at a resolution, step count and batch, and
peak memory with the text encoders and VAE, with or without CPU offload; LoRA and DreamBooth
fine-tuning memory and speed.

One denoising step runs the denoiser once per image and guidance branch (two with classifier-free
guidance); its MACs grow with the latent's pixels, and the self-attention share with their
square. A step costs its FLOPs at the card's dense FP16 rate times an efficiency, plus a fixed
per-step time (kernel launches, scheduler, Python), which is what dominates batch 1 on big cards.
The image then passes the VAE decoder. The constants are fitted to published tables
(eval/calibration/workloads.csv, diffusion rows; eval/calibration_benchmark.py prints the fit).
"""

from __future__ import annotations

from typing import Any

from advisor.calculator.base import Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import GENERATION_MFU, generation
from advisor.calculator.memory import GB, capacity_gb
from advisor.calculator.precision import get_precision
from advisor.errors import InvalidInput
from advisor.specs import GPU, DiffusionModel

# Fitted on the diffusers PyTorch 2.0 benchmark tables and the blog and doc tables of
# eval/calibration/workloads.csv (W0441-W0543, fp16/bf16, eager and compiled; W0528, a
# sequential-offload run, left out): median error 17% on 66 rows.
STEP_EFFICIENCY = 0.51  # share of dense FP16 TFLOPS a denoiser step reaches
STEP_OVERHEAD_S = 0.025  # fixed time per denoising step in eager PyTorch
COMPILED_OVERHEAD = 0.46  # torch.compile (and CUDA graphs) cut the per-step overhead to this share
VAE_INEFFICIENCY = 3.9  # the VAE decoder's large convolutions reach a quarter of the step's rate
GEFORCE_FP16 = 1.19  # GeForce/RTX cards: half-precision matmuls may accumulate in FP16 (2x rate)
LOW_POWER = 0.56  # 70-75 W cards (T4, L4, A2) cannot hold their peak clocks under this load
TENSORRT = 1.6  # TensorRT fp8/int8 pipelines against eager diffusers (MLPerf vs diffusers rows)
# Peak memory besides the weights: activations of one denoiser branch at 1024 px, and the VAE
# decode of one 1024 px image (SDXL A100 fp16 batch 4 with and without VAE slicing, W0522/W0531)
DENOISER_ACT_GB_1024 = 0.67
VAE_DECODE_GB_1024 = 2.1
RUNTIME_GB = 1.0
OFFLOADS = ("none", "model", "sequential")
DIFFUSION_BAND = (0.75, 1.25)


def _bytes(precision: str) -> float:
    return {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "nf4": 0.56}[precision]


def step_macs(model: DiffusionModel, resolution: int) -> float:
    """Denoiser MACs for one image and one guidance branch at `resolution`."""
    q = (resolution / model.native_resolution) ** 2
    share = model.attention_share
    return model.denoiser_gmacs * 1e9 * ((1 - share) * q + share * q * q)


def _rate(gpu: GPU, precision: str) -> float:
    peak = gpu.fp16_bf16_dense_tflops or (gpu.fp32_tflops or 1.0) * 2
    if precision == "fp32":
        peak = gpu.tf32_dense_tflops or gpu.fp32_tflops or peak / 4
    elif precision == "fp8" and gpu.fp8_dense_tflops:
        peak = gpu.fp8_dense_tflops
    peak *= GENERATION_MFU.get(generation(gpu.architecture, gpu.memory_type), 0.8)
    if gpu.segment in ("consumer", "laptop", "workstation") and precision in ("fp16", "bf16"):
        peak *= GEFORCE_FP16
    if (gpu.tdp_w or 1000) <= 75:
        peak *= LOW_POWER
    return peak * 1e12 * STEP_EFFICIENCY


def estimate(
    request: Request, model: DiffusionModel, gpu: GPU, catalog: Any, notes: list[str]
) -> Estimate:
    precision = _precision(request, notes)
    resolution = request.resolution or model.native_resolution
    steps = request.steps or model.default_steps
    batch = request.batch
    offload = request.offload or "none"
    if not request.resolution:
        notes.append(f"resolution not given: {resolution} px assumed (the model's native size)")
    if not request.steps and request.workload == "inference":
        notes.append(f"steps not given: {steps} assumed (the pipeline's default)")
    branches = 2 if model.guidance == "cfg" else 1
    rate = _rate(gpu, precision)
    engine = request.engine or "diffusers"
    overhead = STEP_OVERHEAD_S * (
        COMPILED_OVERHEAD if engine in ("pytorch-compile", "tensorrt") else 1
    )
    if request.workload == "inference":
        flops = 2 * step_macs(model, resolution) * branches * batch
        step = flops / rate + overhead
        if engine == "tensorrt":
            step /= TENSORRT
        q = (resolution / model.native_resolution) ** 2
        vae = 2 * model.vae_decode_gmacs * 1e9 * q * batch * VAE_INEFFICIENCY / rate
        text = 2 * model.text_encoder_gmacs * 1e9 * branches / rate
        if offload == "sequential":  # every layer's weights cross PCIe each step
            step += _weight_bytes(model, precision) / 25e9
        per_batch = steps * step + vae + text
        per_image = Band.around(per_batch / batch, DIFFUSION_BAND)
        images = per_image.inverse()
        it = Band.around(1 / step, DIFFUSION_BAND)
        mem = _inference_memory(model, precision, resolution, batch, branches, offload)
        notes.append(
            f"{steps} steps x {branches} denoiser pass(es) of "
            f"{step_macs(model, resolution) / 1e9:,.0f} GMACs at {resolution} px, then the VAE; "
            f"{engine}, {offload} CPU offload"
        )
        metrics: dict[str, Any] = {
            "images_per_s": (images.scaled(request.num_gpus)).to_dict(),
            "seconds_per_image": per_image.to_dict(),
            "it_per_s": it.to_dict(),
        }
        hours = None
        if request.images:
            hours = per_image.scaled(request.images / request.num_gpus / 3600).to_dict()
            notes.append(f"job: {request.images:,.0f} images")
    else:
        lora = request.workload == "finetune-lora"
        flops = 2 * step_macs(model, resolution) * batch * (3 if not lora else 2.5)
        step = flops / rate + 3 * overhead
        samples = Band.around(batch / step, DIFFUSION_BAND)
        mem = _training_memory(model, precision, resolution, batch, lora, request.lora_rank)
        notes.append(
            ("LoRA" if lora else "DreamBooth (full denoiser)") + f" training at "
            f"{resolution} px, batch {batch}, gradient checkpointing, 8-bit Adam"
        )
        metrics = {"train_samples_per_s": samples.scaled(request.num_gpus).to_dict()}
        hours = None
    usable = capacity_gb(gpu) * 0.95
    total = sum(mem.values())
    return Estimate(
        model=model.id,
        model_name=model.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        num_gpus=request.num_gpus,
        workload=request.workload,
        precision=precision,
        engine=engine,
        context=0,
        batch=batch,
        fits=total <= usable,
        memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total,
        breakdown_gb=mem,
        assumptions=notes,
        family="diffusion",
        job_hours=hours,
        resolution=resolution,
        steps=steps,
        **metrics,
    )


def _precision(request: Request, notes: list[str]) -> str:
    if request.precision:
        name = get_precision(request.precision).name
        if name not in ("fp32", "fp16", "bf16", "fp8", "int8", "nf4"):
            raise InvalidInput(
                f"Diffusion pipelines run in fp32, fp16, bf16, fp8, int8 or nf4 (got {name})."
            )
        return name
    notes.append("precision not given: fp16 assumed")
    return "fp16"


def _weight_bytes(model: DiffusionModel, precision: str) -> float:
    return (model.denoiser_params + model.text_encoder_params + model.vae_params) * _bytes(
        precision
    )


def _inference_memory(
    model: DiffusionModel, precision: str, resolution: int, batch: int, branches: int, offload: str
) -> dict[str, float]:
    q = (resolution / 1024) ** 2
    elem = _bytes(precision) / 2
    weights = {
        "denoiser": model.denoiser_params * _bytes(precision) / GB,
        "text_encoders": model.text_encoder_params * _bytes(precision) / GB,
        "vae": model.vae_params * _bytes(precision) / GB,
    }
    if offload == "model":  # one component on the GPU at a time
        largest = max(weights, key=weights.__getitem__)
        weights = {k: (v if k == largest else 0.0) for k, v in weights.items()}
    elif offload == "sequential":  # one layer at a time
        weights = {k: 0.0 for k in weights} | {"weights_in_flight": 0.5}
    return {
        **weights,
        "activations": DENOISER_ACT_GB_1024 * q * batch * branches * max(elem, 1.0),
        "vae_decode": VAE_DECODE_GB_1024 * q * batch * max(elem, 1.0),
        "runtime_overhead": RUNTIME_GB,
    }


def _training_memory(
    model: DiffusionModel, precision: str, resolution: int, batch: int, lora: bool, rank: int
) -> dict[str, float]:
    q = (resolution / 1024) ** 2
    params = model.denoiser_params
    if lora:
        trainable = params * rank / 4000  # adapters on the attention projections
        frozen = params * _bytes(precision)
        states = trainable * 16
    else:
        trainable = params
        frozen = 0.0
        states = params * (4 + 4 + 2)  # fp32 weights and gradients, 8-bit Adam moments
    return {
        "denoiser": frozen / GB,
        "trainable_and_optimizer": states / GB,
        "text_encoders_and_vae": (model.text_encoder_params + model.vae_params) * 2 / GB,
        "activations": DENOISER_ACT_GB_1024 * 1.5 * q * batch,  # checkpointed
        "runtime_overhead": RUNTIME_GB,
    }


_IMAGES = ("per 1,000 images", 1000.0)
FAMILY = Family(
    name="diffusion",
    label="image generation (diffusion)",
    table="workloads/diffusion",
    model_cls=DiffusionModel,
    workloads={
        "inference": "image generation",
        "finetune-lora": "LoRA fine-tuning",
        "finetune-full": "DreamBooth (full) fine-tuning",
    },
    metrics={
        "inference": (
            Metric("images_per_s", "images per second", "images/s", _IMAGES),
            Metric("seconds_per_image", "time per image", "s"),
            Metric("it_per_s", "denoising speed", "it/s"),
        ),
        "finetune-lora": (Metric("train_samples_per_s", "training speed", "images/s"),),
        "finetune-full": (Metric("train_samples_per_s", "training speed", "images/s"),),
    },
    engines=("diffusers", "pytorch-compile", "tensorrt"),
    precisions={
        "inference": ("fp16", "bf16", "fp8", "int8", "nf4", "fp32"),
        "finetune-lora": ("fp16", "bf16", "fp8", "nf4"),
        "finetune-full": ("fp16", "bf16"),
    },
    estimate=estimate,
    reference_model="sdxl",
    words=(
        r"\bstable diffusion\b",
        r"\bsdxl\b",
        r"\bsd ?1\.5\b",
        r"\bsd ?3",
        r"\bflux\b",
        r"\bimage gen\w*\b",
        r"\bgenerat\w* images?\b",
        r"\btext[- ]to[- ]image\b",
        r"\btxt2img\b",
        r"\bcomfy ?ui\b",
        r"\bautomatic1111\b",
        r"\ba1111\b",
        r"\bforge\b",
        r"\bdreambooth\b",
        r"\bkohya\b",
        r"\bdiffusion\b",
    ),
    examples=(
        "Does SDXL fit on an 8 GB card without offload?",
        "How many SDXL images per hour on an L4?",
    ),
)
