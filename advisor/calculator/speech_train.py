"""Whisper fine-tuning: memory and training speed (samples a second) of a full or LoRA fine-tune.

The recipe modelled is Hugging Face's Seq2SeqTrainer as the HF blog "Fine-Tune Whisper For
Multilingual ASR with Transformers" and the HF Whisper fine-tuning event run it: fp16 mixed
precision (fp32 weights, autocast), AdamW, gradient checkpointing on; LoRA as PEFT runs it
(Vaibhavs10/fast-whisper-finetuning: rank 32 on q_proj and v_proj, the base in 8 bits).

Every sample is one window of at most 30 s: the feature extractor pads it to 3,000 mel frames, so
the encoder runs its 1,500 frames whatever the clip's length (the event README: "the GPU memory
required by the models is the same for audio samples of any length"). The decoder runs over the
label tokens, padded to the batch's longest (LABEL_TOKENS unless `context` says).

Memory: the weights, gradients and optimizer states per trained parameter (as memory.py counts an
LLM's: fp32 master + 16-bit working copy, fp32 gradients, the optimizer's moments, and torch
AdamW's foreach step copy), the activations of the encoder (1,500 frames x d_model per layer)
and decoder (label tokens x d_model per layer, plus the cross-attention keys and values over the
1,500 frames), the loss's logits over the vocabulary, and the CUDA context. Speed: three forward
passes' FLOPs per sample (four with checkpointing), from the shapes, at the card's dense 16-bit
rate times TRAIN_MFU. The published figures are eval/calibration/workloads.csv W0866-W0879
(memory and fit statements W0866-W0875 and W0879, speed W0876-W0878); eval/family_rows.py leaves
them to tests/test_speech_training.py, which pins each against the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.calculator.base import ONE_EPOCH_ASSUMED, Band, Estimate, Request
from advisor.calculator.factors import compute_share
from advisor.calculator.finetune import OPTIMIZER_LABELS, OPTIMIZERS
from advisor.calculator.memory import GB, capacity_gb, foreach_step_bytes
from advisor.calculator.precision import get_precision, half_tflops
from advisor.errors import InvalidInput
from advisor.specs import GPU, SpeechModel

TRAIN_WORKLOADS = ("finetune-full", "finetune-lora")
# Label tokens a sample's decoder runs over when `context` is not given: the collator pads each
# batch to its longest transcript; Common Voice sentences are 10-40 tokens, the blog's generation
# cap is 225 and the model's 448. 128 is a batch of long sentences (or short paragraphs).
LABEL_TOKENS = 128
WINDOW_S = 30.0  # a sample is at most one 30-second window
# Activation bytes kept per token per hidden unit in one transformer block under 16-bit autocast,
# attention in a fused kernel (SDPA, transformers' default for Whisper since 4.37): Korthikanti
# et al.'s 34 s h for a GPT block, less nothing for Whisper's zero dropout (kept: the masks'
# share, 2 s h, covers the fp32 layer-norm inputs autocast keeps)
BLOCK_BYTES = 34.0
# the decoder's cross-attention adds, per layer: its query, output and norms over the labels
# (8 t h bytes) and the keys and values projected from the 1,500 encoder frames (2 x 2 S h)
CROSS_LABEL_BYTES = 8.0
CROSS_KV_BYTES = 4.0
# the convolutional stem: conv1 and GELU over 3,000 frames, conv2 and GELU over 1,500 (16-bit)
STEM_BYTES = 2 * (2 * 2 + 2)
# the loss over the vocabulary per label token: fp16 logits, their fp32 upcast and the
# log-softmax's gradient (2 + 4 + 4 bytes)
LOGIT_BYTES = 10.0
RUNTIME_GB = 0.6  # CUDA context and cuBLAS workspace (memory.training_memory's single-GPU 0.6 GB)
# Share of the dense 16-bit tensor rate a Hugging Face Whisper fine-tune reaches end to end
# (its wall time, evaluation and data loading included, as the published runs report it).
# Fitted: the median of the three speed rows W0876-W0878 (eval/calibration/workloads.csv), each
# row's FLOPs at this module's shapes against its samples a second:
#   W0876 small, A100 40GB, batch 64, 5,000 steps in about 8 h (event README) -> 0.061
#   W0877 medium, V100 16GB, batch 2 x 16, "upwards of 12 h" for 5,000 steps -> at most 0.195
#   W0878 large-v2, RTX A6000, batch 16, 7 h (a user's report; the blog's 4,000 steps) -> 0.184
# The small model's row (streaming, features computed on the fly) is held by its data loading,
# not its matmuls; the rows disagree by 3x and the band below is wide for it.
TRAIN_MFU = 0.184
TRAIN_BAND = (0.6, 1.6)
# bytes per parameter of each optimizer's moments, per 4 bytes of fp32 state (as memory.py)
_MOMENTS = {"adamw": 2.0, "paged_adamw": 2.0, "sgd": 1.0, "adafactor": 0.025}
_MOMENTS_8BIT = {"adamw8bit": 2.0, "paged_adamw8bit": 2.0}
LORA_RECIPE = "PEFT LoRA"


@dataclass(frozen=True)
class Shapes:
    """The parameter counts a training step's FLOPs and LoRA adapters follow from."""

    encoder_linear: int  # encoder blocks' matrices (attention and MLP)
    decoder_linear: int  # decoder blocks' matrices, self- and cross-attention and MLP
    cross_kv: int  # the cross-attention key and value matrices (run over the 1,500 frames)
    embedding: int  # token embedding (tied to the output projection)
    stem_macs: int  # the two convolutions per 30-second window


def shapes(model: SpeechModel) -> Shapes:
    d, ffn = model.d_model, model.ffn_dim
    block = 4 * d * d + 2 * d * ffn
    frames = model.max_source_positions
    stem = model.n_mels * 3 * d * 2 * frames + d * 3 * d * frames
    return Shapes(
        encoder_linear=model.encoder_layers * block,
        decoder_linear=model.decoder_layers * (block + 2 * d * d),
        cross_kv=model.decoder_layers * 2 * d * d,
        embedding=model.vocab_size * d,
        stem_macs=stem,
    )


def label_tokens(model: SpeechModel, request: Request) -> int:
    return min(request.context or LABEL_TOKENS, model.max_target_positions)


def forward_flops(model: SpeechModel, tokens: int) -> float:
    """FLOPs of one sample's forward pass: the encoder over its 1,500 frames (matrices, attention
    over the frames, the convolutional stem), the decoder over `tokens` label tokens (matrices,
    self-attention, cross-attention over the frames and its keys and values), the output layer."""
    s = shapes(model)
    frames, d = model.max_source_positions, model.d_model
    encoder = 2 * s.encoder_linear * frames + model.encoder_layers * 4 * frames**2 * d
    encoder += 2 * s.stem_macs
    decoder_matrices = s.decoder_linear - s.cross_kv
    decoder = 2 * decoder_matrices * tokens + 2 * s.cross_kv * frames
    decoder += model.decoder_layers * (4 * tokens**2 * d + 4 * tokens * frames * d)
    head = 2 * s.embedding * tokens
    return encoder + decoder + head


def lora_params(model: SpeechModel, rank: int, targets: str) -> int:
    """PEFT adapters of rank `rank`: q_proj and v_proj ("qv", the fast-whisper-finetuning
    recipe: 15,728,640 for large-v2 at rank 32), all four attention projections ("attention"),
    or those and fc1/fc2 ("all") in every encoder self-attention and decoder self- and
    cross-attention."""
    d, ffn = model.d_model, model.ffn_dim
    attentions = model.encoder_layers + 2 * model.decoder_layers
    per_projection = rank * 2 * d
    if targets == "qv":
        return attentions * 2 * per_projection
    adapters = attentions * 4 * per_projection
    if targets == "all":
        adapters += (model.encoder_layers + model.decoder_layers) * 2 * rank * (d + ffn)
    return adapters


def checkpointing_on(request: Request) -> bool:
    """Gradient checkpointing: on unless the request turns it off (the blog's and the event's
    recipes, and PEFT's k-bit preparation, turn it on)."""
    return request.checkpointing is not False


def activation_bytes(model: SpeechModel, tokens: int, batch: int, checkpointing: bool) -> float:
    """Activations of `batch` samples kept for backward. Checkpointed (transformers checkpoints
    each encoder and decoder layer): every layer's 16-bit input, the encoder's output, and one
    layer's working set while it recomputes; else every layer's working set."""
    frames, d = model.max_source_positions, model.d_model
    encoder_layer = BLOCK_BYTES * frames * d
    decoder_layer = (BLOCK_BYTES + CROSS_LABEL_BYTES) * tokens * d + CROSS_KV_BYTES * frames * d
    stem = STEM_BYTES * frames * d
    logits = LOGIT_BYTES * tokens * model.vocab_size
    if checkpointing:
        inputs = 2 * d * (model.encoder_layers * frames + model.decoder_layers * tokens + frames)
        held = inputs + max(encoder_layer, decoder_layer)
    else:
        held = model.encoder_layers * encoder_layer + model.decoder_layers * decoder_layer
    return (held + stem + logits) * batch


def memory(model: SpeechModel, request: Request, precision: str) -> tuple[dict[str, float], str]:
    """Peak GB by component, and how the trained weights are held."""
    optimizer = request.optimizer or "adamw"
    if optimizer not in OPTIMIZERS:
        raise InvalidInput(f"Optimizers: {', '.join(OPTIMIZERS)} (got {optimizer!r}).")
    tokens = label_tokens(model, request)
    lora = request.workload == "finetune-lora"
    mixed = request.mixed_precision is not False and precision in ("fp16", "bf16")
    copy = 0.0  # autocast's 16-bit copies of the fp32 weights, held through forward/backward
    if lora:  # frozen base, fp32 adapters under autocast
        state = 4.0
        trainable = lora_params(model, request.lora_rank, request.lora_targets)
        s = shapes(model)
        linear = s.encoder_linear + s.decoder_linear
        if precision == "int8":  # bitsandbytes int8 linear layers; PEFT's k-bit preparation
            # casts the rest (norms, embedding and the tied proj_out) to fp32
            base = linear * 1.0 + (model.params - linear) * 4.0
            how = "frozen base in 8 bits (bitsandbytes, PEFT's k-bit preparation)"
        else:
            base = model.params * 2.0
            how = f"frozen base in {precision}"
        weights = base + trainable * state
        how += (
            f"; LoRA rank {request.lora_rank} on {request.lora_targets} projections = "
            f"{trainable / 1e6:.1f}M trainable parameters in fp32"
        )
    elif mixed:
        state = 4.0
        trainable = model.params
        weights = trainable * state
        copy = trainable * 2.0
        how = "fp16 mixed precision: fp32 weights (16-bit copies under autocast), fp32 gradients"
    else:
        state = get_precision(precision).bytes_linear
        trainable = model.params
        weights = trainable * state
        how = f"pure {precision} weights, gradients and optimizer states"
    if optimizer in _MOMENTS_8BIT:
        moments = trainable * _MOMENTS_8BIT[optimizer]
    else:
        moments = trainable * _MOMENTS[optimizer] * state
    grads = trainable * state
    step = foreach_step_bytes(optimizer, trainable, state, request.fused_optimizer is True)
    activations = activation_bytes(model, tokens, request.batch, checkpointing_on(request))
    out = {"weights": weights / GB, "optimizer_states": moments / GB}
    # Two peaks, never at once: forward and backward hold autocast's 16-bit weight copies and the
    # activations; the optimizer step, after backward has freed both, holds the gradients and
    # (torch AdamW's foreach path) a copy of the second moments. The trainer sets the gradients
    # to None after each step, so they are gone before the next forward.
    if copy + activations >= grads + step:
        out |= {"fp16_weight_copies": copy / GB} if copy else {}
        out["activations"] = activations / GB
        after = (grads + step) / GB
        how += f"; peak in forward/backward (the optimizer step's {after:.1f} GB after)"
    else:
        out |= {"gradients": grads / GB, "optimizer_step": step / GB}
        how += (
            f"; peak in the optimizer step (forward/backward's {(copy + activations) / GB:.1f} GB "
            "of activations and weight copies freed by then)"
        )
    out["runtime_overhead"] = RUNTIME_GB
    return out, how


def train_samples_per_s(model: SpeechModel, request: Request, gpu: GPU, precision: str) -> float:
    """Samples (30-second windows) a second on one GPU: a forward, a backward of twice its
    FLOPs (a LoRA's frozen weights skip their weight gradients: one forward's) and one more
    forward when checkpointing recomputes, at the card's dense 16-bit rate x TRAIN_MFU."""
    tokens = label_tokens(model, request)
    passes = (2 if request.workload == "finetune-lora" else 3) + (
        1 if checkpointing_on(request) else 0
    )
    flops = passes * forward_flops(model, tokens)
    peak = half_tflops(gpu) if precision != "fp32" else (gpu.fp32_tflops or half_tflops(gpu) / 4)
    # the image and speech families' generation share (relative to Ampere HBM = 1.0)
    peak *= compute_share(gpu.architecture, gpu.memory_type, 1.0)
    return peak * 1e12 * TRAIN_MFU / flops


def _precision(request: Request, notes: list[str]) -> str:
    lora = request.workload == "finetune-lora"
    allowed = ("fp16", "bf16", "int8") if lora else ("fp16", "bf16", "fp32")
    if request.precision:
        name = get_precision(request.precision).name
        if name not in allowed:
            raise InvalidInput(
                f"Whisper {'LoRA' if lora else 'full'} fine-tuning runs {', '.join(allowed)} "
                f"(got {name})."
            )
        return name
    notes.append("precision not given: fp16 assumed")
    return "fp16"


def estimate(
    request: Request, model: SpeechModel, gpu: GPU, catalog: Any, notes: list[str]
) -> Estimate:
    """A Whisper fine-tune on `request.num_gpus` x `gpu` (data parallel: each GPU holds it all)."""
    if request.workload not in TRAIN_WORKLOADS:
        raise InvalidInput(f"Whisper training workloads: {', '.join(TRAIN_WORKLOADS)}.")
    precision = _precision(request, notes)
    tokens = label_tokens(model, request)
    mem, how = memory(model, request, precision)
    rate = train_samples_per_s(model, request, gpu, precision) * request.num_gpus
    samples = Band.around(rate, TRAIN_BAND)
    optimizer = request.optimizer or "adamw"
    checkpointing = checkpointing_on(request)
    notes.append(
        f"Hugging Face Seq2SeqTrainer: {how}; {OPTIMIZER_LABELS[optimizer]}"
        + (" (not given)" if request.optimizer is None else "")
        + f"; gradient checkpointing {'on' if checkpointing else 'off'}"
        + (" (not given: the HF recipes turn it on)" if request.checkpointing is None else "")
        + f"; batch {request.batch} per GPU"
    )
    notes.append(
        f"each sample a 30 s window (1,500 encoder frames) and {tokens} label tokens"
        + (" (not given)" if not request.context else "")
        + f"; {forward_flops(model, tokens) / 1e12:.2f} TFLOPs a forward pass"
    )
    hours = _job_hours(request, samples, notes)
    usable = capacity_gb(gpu) * 0.92
    total = sum(mem.values())
    return Estimate(
        model=model.id,
        model_name=model.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        num_gpus=request.num_gpus,
        workload=request.workload,
        precision=precision,
        engine=None,
        context=tokens,
        batch=request.batch,
        fits=total <= usable,
        memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total,
        breakdown_gb=mem,
        assumptions=notes,
        family="speech",
        train_samples_per_s=samples.to_dict(),
        job_hours=hours,
    )


def _job_hours(request: Request, samples: Band, notes: list[str]) -> dict[str, float] | None:
    """Hours for epochs of `dataset_samples`, or of `audio_hours` cut into 30-second windows
    (the fewest samples that audio makes: shorter clips are more samples, each padded to 30 s)."""
    count = request.dataset_samples
    if count is None and request.audio_hours:
        count = request.audio_hours * 3600 / WINDOW_S
        notes.append(
            f"{request.audio_hours:,.6g} hours of audio as {count:,.0f} windows of 30 s "
            "(shorter clips make more samples, each padded to 30 s)"
        )
    if count is None:
        return None
    epochs = request.epochs or 1.0
    if request.epochs is None:
        notes.append(ONE_EPOCH_ASSUMED)
    notes.append(f"job: {epochs:g} epoch(s) of {count:,.0f} samples")
    return samples.inverse().scaled(count * epochs / 3600).to_dict()
