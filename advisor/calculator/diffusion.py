"""Text-to-image diffusion pipelines (Stable Diffusion 1.5/2.1/XL, SD3, FLUX): images per second,
seconds per image and denoising iterations per second at a resolution, step count and batch, and
peak memory with the text encoders and VAE, with or without CPU offload; LoRA and DreamBooth
fine-tuning memory and speed.

One denoising step runs the denoiser once per image and guidance branch (two with classifier-free
guidance); its MACs grow with the latent's pixels, and the self-attention share with their
square. A step costs its FLOPs at the card's dense 16-bit rate times an efficiency (by kind of
denoiser), the elements its ops write moved through memory (which is why an A100 runs SD 1.5
little faster than an RTX 3090 with four times its TFLOPS), and a fixed per-step time (kernel
launches, scheduler, Python), which is what dominates batch 1 on big cards. The image then passes
the VAE decoder, costed the same way. The constants are fitted to published tables
(eval/calibration/workloads.csv, diffusion rows); eval/calibration_families.py refits them and
prints their in-sample, leave-one-source-out and leave-one-GPU-out error.
"""

from __future__ import annotations

from typing import Any

from advisor.calculator.base import ONE_EPOCH_ASSUMED, Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import compute_share
from advisor.calculator.finetune import OPTIMIZER_LABELS
from advisor.calculator.memory import GB, capacity_gb
from advisor.calculator.precision import fp16_accumulate_gain, get_precision, half_tflops
from advisor.errors import InvalidInput
from advisor.specs import GPU, DiffusionModel

# Speed constants: fitted by eval/calibration_families.py to the diffusion speed rows of
# eval/calibration/workloads.csv (diffusers docs, HF blog, MLPerf and benchmark-README tables;
# the rows it maps are listed in eval/results/calibration_families.json).
# share of dense 16-bit TFLOPS a denoiser's matmuls and convolutions reach, by kind of denoiser:
# a UNet's many small convolutions and norms reach less than a transformer's large matmuls
STEP_EFFICIENCY = {
    # SD 1.5/2.1/XL rows: diffusers tables W0441-W0496 (the ToMe table's 'Vanilla' rows
    # W0480-W0487 ran without SDPA or xFormers: not mapped), HF blog W0509-W0528 (the SDXL
    # optimisation blog's rows at its notebook's 25 steps), MLPerf W0742-W0762, and (since
    # calc-2026.12.03d) the stable-fast, fal-ai and sd-benchmarks README rows W0900-W0941 (their
    # TensorRT fp16 rows scored, not fitted)
    "unet": 0.441,
    # FLUX.1-dev inference rows W0497-W0503 (SD3 and FLUX H100 rows name no variant); the LoRA
    # training row W0560 (a ~20 min wall time with saving and validation) is scored, not fitted
    "mmdit": 0.586,
}
# Training steps (LoRA, DreamBooth): fitted by eval/calibration_families.py to SimpleTuner's
# checkpointing sweep on an H100 and an L40S (rows W0782-W0793 of eval/calibration/workloads.csv:
# SD 1.5, SDXL and SD3.5-Medium, checkpointing on and off); the kohya and diffusers runs on
# GeForce cards (W0794-W0800, forum reports, confidence low) and the FLUX rows are scored, not
# fitted. At batch 1 a step is mostly fixed time: the H100 and the L40S take the same 0.6 s for
# an SDXL step, an SD 1.5 step a third of it, as their attention layers (70 and 16) go.
TRAIN_COMPUTE = 1.82  # the step's matmuls against the inference rate (_rate)
TRAIN_LAYER_S = 0.0063  # seconds per attention layer per launch pass
TRAIN_LAUNCH_PASSES = 4 / 3  # launch passes of a forward and backward, in forwards (not fitted)
FALLBACK_LAYERS = 24  # a denoiser whose layers are not recorded (the MMDiT depth of SD3-medium)
ACTIVATION_TRAFFIC = 1.25  # times each element a step writes crosses memory at full bandwidth
STEP_OVERHEAD_S = 0.0177  # fixed time per denoising step in eager PyTorch (launches, scheduler)
COMPILED = 0.650  # torch.compile fuses element-wise ops and captures the step: traffic and
# overhead fall to this share. TensorRT fuses the graph the same way and runs fp8/int8 UNets on
# the 8-bit tensor cores (_rate), which is all the MLPerf SDXL rows W0742-W0762 need: with the
# 8-bit rate no TensorRT factor of its own remains (it refitted to 0.89-1.0). TensorRT's fp16
# engines (W0914-W0936, scored, not fitted) run 1.3-2.0x faster than this prices them: not modelled
# GeForce RTX cards list their FP16 rate with FP32 accumulation, half their FP16-accumulate rate;
# FP16 matmuls may accumulate in FP16 at up to twice that (bf16 always accumulates in FP32).
# Which cards: the datasheet's INT8 rate against its FP16 rate (precision.fp16_accumulate_gain),
# not the segment: the TITAN RTX and the professional cards (RTX A5000, RTX 6000 Ada) list their
# full rate (the A5000 rows W0488-W0496 ran 30-70% slower than predicted with a bonus), and
# cards without INT8 tensor cores (GTX 16, Pascal) have none to gain. The whole gain is taken:
# fitted as a share of it (calc-2026.12.03d, on the fp16 rows of the RTX 2080 Ti, 3090, 4080 and
# 4090: W0462-W0476, W0509-W0513, W0900-W0903, W0928-W0929, W0940) it ran to the search's
# bound, past the 2x the tensor cores can give; it was 1.92 of the 2x before W0900-W0941.
LOW_POWER = 0.700  # 70-75 W cards (T4, L4, A2) cannot hold their peak clocks under this load
# Peak memory besides the weights: activations of one denoiser branch at 1024 px, and the VAE
# decode of one 1024 px image (the two phases never overlap: the peak is the larger). Fitted by
# eval/calibration_families.py to the diffusion inference memory rows.
# DENOISER_ACT is fitted only to rows that denoise several image-branches at once (W0525-W0529,
# SD3 W0532-W0534): at batch 1 without guidance the VAE decode is the peak whatever its value
# SDXL's diffusers pipeline decodes its VAE upcast to fp32 under fp16 (force_upcast). Tried in
# calc-2026.12.03d, not kept: counted in bytes (twice the 16-bit decode, constants refit) the
# memory rows scored 13.4% median error in-sample, 14.2% leaving a source out, 17.2% leaving a
# GPU out, against 5.2%, 8.5% and 7.2% with one 16-bit constant: the SDXL rows
# (max_memory_allocated) then want 2.05 GB per image and the FLUX rows (max_memory_reserved) 4.1
# GB for the same decoder, so the reserved-allocated gap, not modelled, is as likely a cause. In
# time (the decode at the TF32/FP32 rate) the speed rows refit in-sample to 10.5% / 11.0% / 13.3%
# median error (images/s, it/s, s/image) against 9.5% / 11.3% / 11.7% without: it prices Turing's
# fp32 decode (no TF32) far above the RTX 2080 Ti and T4 SDXL rows (W0509 1.29x, W0515 1.13x the
# measured time, against 1.09x and 0.94x). The fitted speed constants carry what it costs.
DENOISER_ACT_GB_1024 = 2.06  # SDXL A100 batch 4 rows W0525-W0529, SD3 and FLUX rows W0532-W0554
VAE_DECODE_GB_1024 = 4.11  # same rows (the SDXL blog's in GiB: max_memory_allocated / 1024**3)
# Training with gradient checkpointing: activations kept per 1024 px image. Not fitted (two FLUX
# LoRA memory rows: W0556 QLoRA with precomputed embeddings, W0559 fp8 LoRA).
TRAIN_ACT_GB_1024 = 1.0
RUNTIME_GB = 1.0
# Offloaded weights are copied from pageable host memory module by module (accelerate hooks), far
# below a pinned PCIe copy: fitted to the SDXL A100 40GB offload rows W0526 (model) and W0528
# (sequential) of the HF blog (at its notebook's 25 steps: 6.16 GB/s when 50 were assumed) and
# FLUX nf4 model offload on an RTX 4090, W0503 (diffusers docs)
HOST_COPY_GBS = 2.49
WRITTEN_PER_GMAC_M = 1.5  # elements written per GMAC where a model's count is not recorded
OFFLOADS = ("none", "model", "sequential")
LORA_WORKLOADS = ("finetune-lora", "finetune-qlora")
# optimizer state bytes per trainable parameter (diffusers' scripts default to 8-bit Adam here)
OPTIMIZER_STATE_BYTES = {
    "adamw": 8.0,
    "paged_adamw": 8.0,
    "adamw8bit": 2.0,
    "paged_adamw8bit": 2.0,
    "sgd": 4.0,
    "adafactor": 0.1,
}
DIFFUSION_BAND = (0.75, 1.25)


def _bytes(precision: str) -> float:
    return {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "nf4": 0.56}[precision]


def step_macs(model: DiffusionModel, resolution: int) -> float:
    """Denoiser MACs for one image and one guidance branch at `resolution`."""
    q = (resolution / model.native_resolution) ** 2
    share = model.attention_share
    return model.denoiser_gmacs * 1e9 * ((1 - share) * q + share * q * q)


def _rate(gpu: GPU, precision: str, denoiser: str = "unet", engine: str = "diffusers") -> float:
    """FLOP/s a denoiser reaches. Weights stored in fp8, int8 or nf4 are dequantised to 16 bits
    for the matmuls (diffusers, quanto, torchao, bitsandbytes), so they compute at the 16-bit
    rate, except under TensorRT, whose fp8 and int8 engines run on the 8-bit tensor cores; fp32
    runs on TF32 tensor cores."""
    peak = half_tflops(gpu)
    if precision == "fp32":
        peak = gpu.tf32_dense_tflops or gpu.fp32_tflops or peak / 4
    elif engine == "tensorrt" and precision == "fp8":
        peak = gpu.fp8_dense_tflops or gpu.int8_dense_tops or peak
    elif engine == "tensorrt" and precision == "int8":
        peak = gpu.int8_dense_tops or peak
    peak *= compute_share(gpu.architecture, gpu.memory_type, 0.8)
    if precision == "fp16":
        peak *= fp16_accumulate_gain(gpu)
    if (gpu.tdp_w or 1000) <= 75:
        peak *= LOW_POWER
    return peak * 1e12 * STEP_EFFICIENCY.get(denoiser, STEP_EFFICIENCY["mmdit"])


def _traffic_s(written_m: float, scale: float, gpu: GPU, precision: str) -> float:
    """Seconds to move `written_m` million activation elements (times `scale`) through memory."""
    elem = 4.0 if precision == "fp32" else 2.0
    return written_m * 1e6 * scale * elem * ACTIVATION_TRAFFIC / (gpu.bandwidth_gbs * 1e9)


def inference_seconds(
    model: DiffusionModel, request: Request, gpu: GPU, precision: str
) -> tuple[float, float]:
    """(seconds per denoising step, seconds per batch of images: text encoders, every step and
    the VAE decode) for one GPU; each step runs the denoiser once per image and guidance branch."""
    resolution = request.resolution or model.native_resolution
    steps = request.steps or model.default_steps
    batch = request.batch
    engine = request.engine or "diffusers"
    branches = 2 if model.guidance == "cfg" else 1
    rate = _rate(gpu, precision, model.denoiser, engine)
    vae_rate = _rate(gpu, precision)  # the VAE is a convolutional net like a UNet
    q = (resolution / model.native_resolution) ** 2
    written = model.denoiser_written_m or model.denoiser_gmacs * WRITTEN_PER_GMAC_M
    fused = COMPILED if engine in ("pytorch-compile", "tensorrt") else 1.0
    step = 2 * step_macs(model, resolution) * branches * batch / rate
    step += fused * (_traffic_s(written, q * branches * batch, gpu, precision) + STEP_OVERHEAD_S)
    copy = HOST_COPY_GBS * 1e9
    offload = 0.0
    if request.offload == "sequential":  # every layer's weights cross PCIe each step
        step += model.denoiser_params * _bytes(precision) / copy
        offload = (model.text_encoder_params + model.vae_params) * _bytes(precision) / copy
    elif request.offload == "model":  # each component comes in once and goes back out
        offload = 2 * _weight_bytes(model, precision) / copy
    vae_written = model.vae_decode_written_m or model.vae_decode_gmacs * WRITTEN_PER_GMAC_M
    vae = 2 * model.vae_decode_gmacs * 1e9 * q * batch / vae_rate
    vae += _traffic_s(vae_written, q * batch, gpu, precision)
    text = 2 * model.text_encoder_gmacs * 1e9 * branches / vae_rate
    return step, steps * step + vae + text + offload


def train_checkpointing(request: Request) -> bool:
    """Gradient checkpointing in a training step: on unless the request turns it off (the
    training memory model keeps checkpointed activations, TRAIN_ACT_GB_1024)."""
    return request.checkpointing is not False


def train_samples_per_s(model: DiffusionModel, request: Request, gpu: GPU, precision: str) -> float:
    """LoRA or DreamBooth training images per second on one GPU: the step's matmuls at the
    inference rate (TRAIN_COMPUTE of it), then its fixed time, a launch pass over every
    attention layer for the forward and backward (TRAIN_LAUNCH_PASSES) and one more when
    gradient checkpointing runs the forward again. The backward costs two forwards, or one under
    LoRA (the frozen base's weight gradients are skipped)."""
    resolution = request.resolution or model.native_resolution
    lora = request.workload in LORA_WORKLOADS
    again = 1 if train_checkpointing(request) else 0
    flops = 2 * step_macs(model, resolution) * request.batch * ((3 if lora else 4) + again)
    layers = model.transformer_layers or FALLBACK_LAYERS
    fixed = TRAIN_LAYER_S * layers * (TRAIN_LAUNCH_PASSES + again)
    step = TRAIN_COMPUTE * flops / _rate(gpu, precision, model.denoiser) + fixed
    return request.batch / step


def memory(model: DiffusionModel, request: Request, precision: str) -> dict[str, float]:
    """Peak GB on one GPU by component."""
    resolution = request.resolution or model.native_resolution
    if request.workload == "inference":
        branches = 2 if model.guidance == "cfg" else 1
        return _inference_memory(
            model, precision, resolution, request.batch, branches, request.offload or "none"
        )
    lora = request.workload in LORA_WORKLOADS
    # the published QLoRA recipe (diffusers' FLUX QLoRA, W0556: ~9 GB on an RTX 4090) computes
    # the prompt embeddings beforehand: no text encoder on the GPU while the denoiser trains
    cached = request.workload == "finetune-qlora"
    return _training_memory(
        model,
        precision,
        resolution,
        request.batch,
        lora,
        request.lora_rank,
        request.optimizer,
        cached,
        pure=request.mixed_precision is False,
    )


def estimate(
    request: Request, model: DiffusionModel, gpu: GPU, catalog: Any, notes: list[str]
) -> Estimate:
    precision = _precision(request, notes)
    resolution = request.resolution or model.native_resolution
    steps = request.steps or model.default_steps
    batch = request.batch
    offload = request.offload or "none"
    engine = request.engine or "diffusers"
    if not request.resolution:
        notes.append(f"resolution not given: {resolution} px assumed (the model's native size)")
    if not request.steps and request.workload == "inference":
        notes.append(f"steps not given: {steps} assumed (the pipeline's default)")
    branches = 2 if model.guidance == "cfg" else 1
    mem = memory(model, request, precision)
    shown_steps: int | None = steps
    if request.workload == "inference":
        step, per_batch = inference_seconds(model, request, gpu, precision)
        per_image = Band.around(per_batch / batch, DIFFUSION_BAND)
        images = per_image.inverse()
        it = Band.around(1 / step, DIFFUSION_BAND)
        notes.append(
            f"{steps} steps x {branches} denoiser pass(es) of "
            f"{step_macs(model, resolution) / 1e9:,.0f} GMACs at {resolution} px, then the VAE; "
            f"{engine}, {offload} CPU offload"
        )
        if precision in ("fp8", "int8", "nf4") and engine != "tensorrt":
            notes.append(f"{precision} weights computed at 16 bits (weight-only quantisation)")
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
        lora = request.workload in LORA_WORKLOADS
        samples = Band.around(train_samples_per_s(model, request, gpu, precision), DIFFUSION_BAND)
        notes.append(
            ("LoRA" if lora else "DreamBooth (full denoiser)") + f" training at "
            f"{resolution} px, batch {batch}, gradient checkpointing "
            + ("on" if train_checkpointing(request) else "off")
            + ("" if request.checkpointing is not None else " (not given)")
            + ", "
            + OPTIMIZER_LABELS.get(request.optimizer or "adamw8bit", "8-bit AdamW")
            + (", prompt embeddings precomputed" if request.workload == "finetune-qlora" else "")
        )
        metrics = {"train_samples_per_s": samples.scaled(request.num_gpus).to_dict()}
        hours = None
        shown_steps = request.steps  # a training run's optimizer steps, not a sampler's
        if shown_steps:  # "an SDXL LoRA for 2,000 steps": the run's time, batch images a step
            per_step = samples.scaled(request.num_gpus / batch).inverse()
            hours = per_step.scaled(shown_steps / 3600).to_dict()
            notes.append(f"job: {shown_steps:,} training steps of batch {batch}")
        elif request.dataset_samples:  # "30 photos, 100 epochs": every image that many times
            epochs = request.epochs or 1.0
            if request.epochs is None:  # one pass, said as assumed (as the other families say it)
                notes.append(ONE_EPOCH_ASSUMED)
            seen = request.dataset_samples * epochs
            hours = samples.scaled(request.num_gpus).inverse().scaled(seen / 3600).to_dict()
            notes.append(f"job: {epochs:g} epoch(s) of {request.dataset_samples:,.0f} images")
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
        steps=shown_steps,
        **metrics,
    )


def _precision(request: Request, notes: list[str]) -> str:
    if request.workload == "finetune-qlora":  # the frozen denoiser in bitsandbytes NF4
        return "nf4"
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
    """The peak phase: denoising (denoiser activations) or the VAE decode, whichever is larger,
    with the weights on the GPU during it (all of them; one component under model offload)."""
    q = (resolution / 1024) ** 2
    act = max(_bytes(precision) / 2, 1.0)  # activations stay 16-bit under 8- and 4-bit weights
    weights = {
        "denoiser": model.denoiser_params * _bytes(precision) / GB,
        "text_encoders": model.text_encoder_params * _bytes(precision) / GB,
        "vae": model.vae_params * _bytes(precision) / GB,
    }
    phases = {
        "activations": ("denoiser", DENOISER_ACT_GB_1024 * q * batch * branches * act),
        "vae_decode": ("vae", VAE_DECODE_GB_1024 * q * batch * act),
    }
    if offload == "model":  # one component on the GPU at a time
        peak = max(phases, key=lambda k: weights[phases[k][0]] + phases[k][1])
        if weights["text_encoders"] > weights[phases[peak][0]] + phases[peak][1]:
            return {"text_encoders": weights["text_encoders"], "runtime_overhead": RUNTIME_GB}
        weights = {k: (v if k == phases[peak][0] else 0.0) for k, v in weights.items()}
    else:
        peak = max(phases, key=lambda k: phases[k][1])
        if offload == "sequential":  # one layer at a time
            weights = {k: 0.0 for k in weights} | {"weights_in_flight": 0.5}
    return {**weights, peak: phases[peak][1], "runtime_overhead": RUNTIME_GB}


def _training_memory(
    model: DiffusionModel,
    precision: str,
    resolution: int,
    batch: int,
    lora: bool,
    rank: int,
    optimizer: str | None = None,
    embeddings_cached: bool = False,
    pure: bool = False,
) -> dict[str, float]:
    """Peak GB of a training run with gradient checkpointing; the text encoders stay on the GPU
    in 16 bits unless the prompt embeddings were computed beforehand (`embeddings_cached`). A full
    fine-tune keeps fp32 weights and gradients (mixed precision), or 16-bit ones when `pure`
    (kohya sd-scripts' --full_bf16, how SDXL is fine-tuned fully on 24 GB cards)."""
    q = (resolution / 1024) ** 2
    params = model.denoiser_params
    state = OPTIMIZER_STATE_BYTES.get(optimizer or "adamw8bit", OPTIMIZER_STATE_BYTES["adamw8bit"])
    if lora:
        trainable = params * rank / 4000  # adapters on the attention projections
        # fp8 training keeps 16-bit weights and casts them per matmul; nf4 (QLoRA) stores 4-bit
        frozen = params * (2.0 if precision == "fp8" else _bytes(precision))
        states = trainable * (4 + 4 + state)  # fp32 adapters and gradients, optimizer state
    else:
        frozen = 0.0
        held = 2 if pure else 4  # weights and gradients: 16-bit when pure, else fp32
        states = params * (held + held + state)  # and the optimizer state
    text = 0.0 if embeddings_cached else model.text_encoder_params
    return {
        "denoiser": frozen / GB,
        "trainable_and_optimizer": states / GB,
        "text_encoders_and_vae": (text + model.vae_params) * 2 / GB,
        "activations": TRAIN_ACT_GB_1024 * q * batch,  # checkpointed
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
        "finetune-qlora": "QLoRA fine-tuning (4-bit base)",
        "finetune-full": "DreamBooth (full) fine-tuning",
    },
    metrics={
        "inference": (
            Metric(
                "images_per_s",
                "images per second",
                "images/s",
                _IMAGES,
                asked=r"\bimages? (?:per|a|an|/) ?(?:second|sec|s)\b|\bimg/s\b",
            ),
            Metric(
                "seconds_per_image",
                "time per image",
                "s",
                # "seconds per 1024x1024 image", "how slow is it": the time per image
                asked=r"\b(?:seconds?|secs?|s) (?:per|an?|for (?:one|an?|each)) (?:\d+\s?(?:x\s?"
                r"\d+|px) )?(?:image|img|picture|pic|render|generation|icon|sprite|asset|photo"
                r"|thumbnail|texture|tile)"
                r"|\bs/img\b|\bsec/img\b"
                r"|how (?:long|many seconds)\b[^?.]{0,40}\b(?:per|one|an?|each|single) (?:\d+\s?"
                r"(?:x\s?\d+|px) )?(?:image|img|picture|pic|render|icon|sprite|asset|photo)"
                r"|\bhow slow\b|何秒",
            ),
            Metric(
                "it_per_s",
                "denoising speed",
                "it/s",
                asked=r"\bit/s\b|\bits/s\b|\biterations? (?:per|a) ?(?:second|sec)\b",
            ),
        ),
        "finetune-lora": (Metric("train_samples_per_s", "training speed", "images/s"),),
        "finetune-qlora": (Metric("train_samples_per_s", "training speed", "images/s"),),
        "finetune-full": (Metric("train_samples_per_s", "training speed", "images/s"),),
    },
    engines=("diffusers", "pytorch-compile", "tensorrt"),
    precisions={
        "inference": ("fp16", "bf16", "fp8", "int8", "nf4", "fp32"),
        "finetune-lora": ("fp16", "bf16", "fp8", "nf4"),
        "finetune-qlora": ("nf4",),
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
    offloads=OFFLOADS,
)
