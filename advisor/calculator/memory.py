"""GPU memory for inference and training, per GPU, with a named breakdown. Pure functions.

All sizes are bytes inside and decimal GB (1e9 bytes) in results. A card's marketed "GB" is close
to binary GiB (an "80 GB" A100 reports 81,920 MiB), so capacity is converted, not copied.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from advisor.calculator import offload as zero_offload
from advisor.calculator.factors import (
    COMPILED_LAYER_SHARE,
    LOGIT_BYTES,
    LOSS_CHUNKS,
    QLORA_ACTIVATION_FACTOR,
    TENSOR_PARALLEL_ENGINES,
    TRAINING_USABLE_FRACTION,
    EngineFactors,
    tensor_parallel,
)
from advisor.calculator.finetune import LORA_TARGETS, OPTIMIZER_LABELS, OPTIMIZERS

__all__ = ["LORA_TARGETS", "METHODS", "OPTIMIZERS", "MemoryResult", "reserved_gb"]
from advisor.calculator.precision import Precision
from advisor.errors import InvalidInput
from advisor.specs import GPU, Model

if TYPE_CHECKING:  # kv_budget builds on this module
    from advisor.calculator.kv_budget import KVBudget

GB = 1e9
GIB = 2**30
CAPACITY_REPORTED = 0.995  # nvidia-smi shows a little less than the marketed GiB (H100: 81,559 MiB)
# CUDA's total for a card (torch.cuda.mem_get_info, which vLLM logs as total_gpu_memory) is below
# nvidia-smi's: the median gap between the logged totals in eval/calibration/vllm_kv_capacity.csv
# and capacity_gb. H100 79.18 GiB (K022-K030) is 0.42 below, 79.22 (K001, K003) 0.38; A100 40GB
# 39.50 (K011) is 0.30 below, 39.38 (K014) 0.42; L40S 44.42 (K013) 0.36; RTX 3090 23.58 (K008)
# 0.30. K012's RTX 4060, logged under WSL at 8.00, is left out.
CUDA_RESERVED_GIB = 0.38
METHODS = ("full", "lora", "qlora")
# Engines whose prefill attention materialises the scores (no flash kernel), bytes per score:
# AutoAWQ's fused attention (awq/modules/fused/attn.py) computes Q.K^T in fp16 and keeps it
# while softmax runs on an fp32 copy into an fp32 result (2 + 4 + 4 bytes at the peak)
ATTENTION_SCORE_BYTES = {"autoawq": 10.0}
# Engines that fuse q, k and v into one matrix when they load a model: AutoAWQ's fuser builds
# every fused block (torch.cat of the three projections' weights, zeros and scales) while the
# model still holds the old layers, and swaps the model's layers only at the end
# (github:casper-hansen/AutoAWQ awq/models/llama.py LlamaFuser.fuse_transformer,
# awq/utils/fused_utils.py fuse_qkv @5c7e368), so loading peaks with a second copy of every
# attention projection beside the weights and the fused KV cache. (A checkpoint that already
# holds one qkv matrix, MPT's or Falcon's, has nothing to concatenate; the catalog does not say
# which do, so those get the copy too: the AutoAWQ README's MPT-7B rows, L0759-L0836, run 8-39%
# high with it, 8-28% without)
FUSED_QKV_ENGINES = ("autoawq",)
# ExLlama (v1 and v2) keeps the input embedding in system RAM (ExLlamaV2Embedding loads it to the
# CPU) and sizes fixed scratch buffers for its longest input chunk, max_input_len (2048 tokens by
# default, ExLlamaV2Config): the MLP's state and two intermediate-width buffers at that many
# tokens, one MLP matrix dequantised to fp16 (temp_dq), and the attention's score buffer of
# heads x max_attention_size (2048^2) fp16 values (exllamav2 mlp.py and attn.py
# scratch_space_fixed, temp_attn_size). Derived from the code, not fitted.
HOST_EMBEDDING_ENGINES = ("exllamav2",)
EXLLAMA_MAX_INPUT_LEN = 2048
EXLLAMA_MAX_ATTENTION_SIZE = 2048**2
# PyTorch's caching allocator keeps the loss's freed vocabulary-sized blocks under gradient
# checkpointing, bytes per vocabulary entry per token of the batch (see `allocator_cache_bytes`).
# Physics puts it near one more copy of each block the plain loss frees (bf16 logits and their
# shifted copy 2 + 2, the fp32 upcast 4, log-softmax 4, its two fp32 gradients 4 + 4 = 20).
# 20 was chosen from 12 / 16 / 20 / 24 by the median error on the 62 ms-swift LoRA peak-memory
# rows of eval/calibration/llm.csv (Benchmark.md, max_memory_reserved; all but L1548 with
# checkpointing: L1396-L1510, L1542-L1573): 9.3% / 9.1% / 6.0% / 6.7%. Its 9 QLoRA rows
# (L1398-L1418), left out of the choice, go from 35% to 12%. One source: no other in the file
# reports max_memory_reserved of a checkpointed step.
CHECKPOINTED_LOSS_CACHE_BYTES = 20.0
# DeepSpeed ZeRO-3 with bf16/fp16 mixed precision (github:deepspeedai/DeepSpeed @6d7b44a, v0.12.6:
# deepspeed/runtime/engine.py, zero/stage3.py, zero/partition_parameters.py; the HF Trainer's
# "auto" values from transformers integrations/deepspeed.py):
# - under ZeRO the gradients accumulate in the model's 16-bit dtype (engine.get_data_types), in
#   one flat buffer of each GPU's partition (grad_partitions_flat_buffer), beside the fp32 master
#   weights and Adam moments;
# - step() releases every gathered weight (_partition_all_parameters), then updates one
#   sub-group of sub_group_size parameters (default 1e9) at a time: it flattens the sub-group's
#   16-bit gradients and upcasts that copy to fp32 (_prepare_fp32_grad_for_sub_group), 16-bit
#   plus fp32 bytes per parameter at that moment, ZERO3_STEP_GRAD_BYTES beside the 16-bit copy;
# - initialize_optimizer_states() runs one step on zero gradients to create the Adam moments:
#   every sub-group's fp32 .grad is a view of one fp32 buffer the size of the largest sub-group's
#   partition (largest_numel over ds_tensor.ds_numel), and nothing clears them, so the buffer is
#   held through the first forward and backward until the first real step has replaced every
#   sub-group's .grad (ZERO3_INIT_GRAD_BYTES per parameter of the largest sub-group): a run's
#   peak, which its first step reaches, holds it (the same code in v0.10.0, v0.12.x, v0.14.0 and
#   master);
# - forward and backward gather each module's weights whole in new 16-bit buffers (even on one
#   GPU), the next ones up to stage3_prefetch_bucket_size ahead (HF "auto": 0.9 x hidden^2);
# - the reduce bucket (__ipg_bucket_flat_buffer, reduce_bucket_size 16-bit values; HF "auto":
#   hidden^2) is held throughout.
ZERO3_STEP_GRAD_BYTES = 4.0
ZERO3_INIT_GRAD_BYTES = 4.0
ZERO3_PREFETCH_HIDDEN_SQ = 0.9
ZERO3_REDUCE_BUCKET_HIDDEN_SQ = 1.0


@dataclass(frozen=True)
class MemoryResult:
    """Bytes per GPU by named component, and how they were made.

    `allocator_cache_gb` is what PyTorch's caching allocator keeps beside those tensors beyond
    its usual share (`allocator_cache_bytes`): a max_memory_reserved or nvidia-smi reading
    counts it, but the allocator gives cached blocks back and retries before it runs out of
    memory, so it is not in `total_gb` nor in the fit check.
    """

    breakdown_gb: dict[str, float]
    assumptions: list[str] = field(default_factory=list)
    allocator_cache_gb: float = 0.0
    # ZeRO-Offload: the host RAM one machine needs for what its GPUs offloaded (offload.py)
    host_gb: float = 0.0

    @property
    def total_gb(self) -> float:
        return sum(self.breakdown_gb.values())


# ---------------------------------------------------------------- parameters and weights


def embedding_params(model: Model) -> int:
    """Token embedding plus an untied LM head."""
    return model.vocab_size * model.hidden_size * (1 if model.tie_word_embeddings else 2)


def weight_bytes(model: Model, precision: Precision) -> float:
    """Bytes of all weights at `precision` (MoE: every expert is in memory)."""
    embed = embedding_params(model)
    block = max(model.total_params - embed, 0)
    return block * precision.bytes_linear + embed * precision.bytes_embedding


# macOS lets the GPU wire only part of a Mac's unified memory by default (Metal's
# recommendedMaxWorkingSetSize): about 70% on Macs of 36 GB or less, about 75% above (the notes
# of advisor/data/gpus/apple.yaml, with their sources); it can be raised by hand (sysctl
# iogpu.wired_limit_mb, MLX's set_wired_limit), which the answer does not assume
METAL_WIRED_SHARE = ((36.0, 0.70), (float("inf"), 0.75))
# A PC's integrated GPU gets the share of system memory its firmware assigns: at most 96 GB of a
# 128 GB Ryzen AI Max+ 395 (the sources of advisor/data/gpus/amd.yaml's Strix Halo entry)
APU_VRAM_SHARE = 0.75


def capacity_gb(gpu: GPU) -> float:
    """What the card really holds, in decimal GB.

    Datacenter cards with GDDR memory run with ECC on, which reserves 1/16 of it (a "16 GB" T4
    shows 15,360 MiB); HBM carries its ECC bits separately. A Mac's GPU gets the share of unified
    memory macOS lets it wire; other unified-memory parts share theirs with the CPU and the
    operating system, so they hold at most the decimal size (a PC's integrated GPU only its
    firmware's share).
    """
    ecc = (
        15 / 16 if gpu.segment == "datacenter" and (gpu.memory_type or "").startswith("GDDR") else 1
    )
    wired = 1.0
    if gpu.compute_stack == "metal":
        wired = next(share for limit, share in METAL_WIRED_SHARE if gpu.memory_gb <= limit)
    elif gpu.unified_memory:
        share = APU_VRAM_SHARE if gpu.segment == "consumer" else 1.0
        wired = share * GB / (GIB * CAPACITY_REPORTED)
    return gpu.memory_gb * GIB * CAPACITY_REPORTED * ecc * wired / GB


def shared_with(gpu: GPU) -> str:
    """Why a unified-memory part holds less than its size, for the estimate's assumptions."""
    if gpu.compute_stack == "metal":
        return " (the share macOS lets the GPU wire)"
    if gpu.unified_memory:
        return (" (the share the firmware assigns the integrated GPU)" if gpu.segment == "consumer"
                else " (shared with the CPU and the operating system)")  # fmt: skip
    return ""


def cuda_total_gb(gpu: GPU) -> float:
    """The card's total as CUDA reports it (CUDA_RESERVED_GIB below capacity_gb), decimal GB."""
    return capacity_gb(gpu) - CUDA_RESERVED_GIB * GIB / GB


def usable_gb(gpu: GPU, engine: EngineFactors, fraction: float | None = None) -> float:
    """The memory the engine lets itself use on one card: vLLM's gpu_memory_utilization of the
    total CUDA reports (EngineFactors.profiles_memory), the other engines' share of capacity;
    `fraction`: a share other than the engine's default (a raised gpu_memory_utilization)."""
    total = cuda_total_gb(gpu) if engine.profiles_memory else capacity_gb(gpu)
    return total * (fraction or engine.usable_fraction)


def shared_card(needs_gb: Sequence[float], usable_gb: float) -> dict[str, float | bool]:
    """Several models kept on one card at once (a speech model, a chat model and a voice, each
    served by its own process with its own CUDA context): their needs add up."""
    total = math.fsum(needs_gb)
    return {"total_gb": total, "spare_gb": usable_gb - total, "fits": total <= usable_gb}


def training_usable_gb(gpu: GPU) -> float:
    """What a training step may allocate before the allocator's fragmentation runs it out."""
    return capacity_gb(gpu) * TRAINING_USABLE_FRACTION


def reserved_gb(allocated_gb: float, cache_gb: float = 0.0, limit_gb: float = math.inf) -> float:
    """What PyTorch's caching allocator holds (torch.cuda.max_memory_reserved, the figure
    ms-swift's and PEFT's training logs print) for a training step whose tensors peak at
    `allocated_gb` (CUDA context excluded): the freed blocks it keeps for reuse take the same
    share that `training_usable_gb` leaves free of the card, so a step fits exactly when its
    reserved memory fills the card; plus the loss's blocks it keeps under gradient
    checkpointing (`cache_gb`, MemoryResult.allocator_cache_gb). It gives cached blocks back
    rather than run out, so it never holds more than the card leaves it (`limit_gb`: capacity
    less the CUDA context): ms-swift's largest readings on 80 GB A100s stop at 78.4-78.8 GiB
    (eval/calibration/llm.csv L1412, L1416, L1478) where capacity_gb less 0.6 GB of context
    is 79.0 GiB."""
    cached = allocated_gb / TRAINING_USABLE_FRACTION + cache_gb
    return min(cached, max(limit_gb, allocated_gb))


# ---------------------------------------------------------------- KV cache


def kv_bytes_per_token_per_layer(model: Model, kv_elem_bytes: float) -> float:
    if model.attention_type == "MLA" and model.kv_lora_rank and model.qk_rope_head_dim:
        return (model.kv_lora_rank + model.qk_rope_head_dim) * kv_elem_bytes
    return 2 * model.num_kv_heads * model.head_dim * kv_elem_bytes


def kv_cache_bytes(
    model: Model, context: int, batch: int, kv_elem_bytes: float, tp: int = 1, pp: int = 1
) -> float:
    """KV cache per GPU for `batch` sequences of `context` tokens.

    GQA/MQA through num_kv_heads, MLA through its latent size, sliding-window layers capped at
    the window. Tensor parallel splits KV heads (at least one per rank); pipeline splits layers.
    """
    windowed = model.sliding_window_layers or 0
    window = model.sliding_window or context
    tokens = (model.num_layers - windowed) * context + windowed * min(context, window)
    per_token_layer = kv_bytes_per_token_per_layer(model, kv_elem_bytes)
    if model.attention_type != "MLA" and tp > 1:
        per_token_layer *= math.ceil(model.num_kv_heads / tp) / model.num_kv_heads
    return tokens * per_token_layer * batch / pp


# ---------------------------------------------------------------- inference


def inference_memory(
    model: Model,
    precision: Precision,
    engine: EngineFactors,
    *,
    context: int,
    batch: int,
    kv_elem_bytes: float,
    num_gpus: int = 1,
    legacy_cache: bool = False,
    pp: int = 1,
    budget: KVBudget | None = None,
) -> MemoryResult:
    """Memory per GPU to serve `batch` sequences of `context` tokens.

    An engine that grows its KV cache by copying (transformers' torch.cat, kv_copy_factor) holds
    the old and the new copy of what it is growing: one layer's cache in transformers'
    DynamicCache (4.36 on), which replaces each layer's tensors in turn, or the whole cache with
    the tuple cache before it (`legacy_cache`), whose old tuple stays referenced until the
    step's forward returns the new one. `pp`: a serving engine's pipeline stages, each a
    num_gpus / pp-way tensor parallel group. An engine that sizes its KV cache from a start-up
    profile (vLLM) holds the activation peak and the overhead of its `budget`
    (kv_budget.kv_budget) whatever the batch, so the request fits exactly when its KV cache
    fits in the budget's.
    """
    assumptions = []
    tp = tensor_parallel(engine, num_gpus, pp)
    pp = num_gpus // tp  # a layer split (tp 1) gives each GPU its share of the layers
    if num_gpus > 1:
        how = "tensor parallel" if tp > 1 else "layers split across GPUs"
        if tp > 1 and pp > 1:
            how = f"{tp}-way tensor x {pp}-way pipeline parallel"
        assumptions.append(f"{num_gpus} GPUs, {how} ({engine.label} default)")
    weights = weight_bytes(model, precision) / num_gpus
    if engine.name in HOST_EMBEDDING_ENGINES:
        weights -= model.vocab_size * model.hidden_size * precision.bytes_embedding / num_gpus
        assumptions.append(f"{engine.label} keeps the input embedding in system RAM")
    kv = kv_cache_bytes(model, context, batch, kv_elem_bytes, tp=tp, pp=pp)
    kv_peak = kv
    if engine.kv_copy_factor > 1:
        copied = kv if legacy_cache else kv / max(model.num_layers, 1)
        kv_peak += copied * (engine.kv_copy_factor - 1)
        what = "the whole cache (tuple cache)" if legacy_cache else "one layer at a time"
        assumptions.append(f"{engine.label} copies the KV cache as it grows: {what}")
    activations = _inference_activation_bytes(model, engine, context, batch) / tp
    if engine.name == "exllamav2":
        scratch = exllama_scratch_bytes(model)
        activations = max(activations, scratch)
        assumptions.append(
            f"{engine.label}'s scratch buffers for {EXLLAMA_MAX_INPUT_LEN}-token input chunks: "
            f"{scratch / GB:.2f} GB"
        )
    score_bytes = ATTENTION_SCORE_BYTES.get(engine.name, 0.0)
    if score_bytes:
        # one layer's scores at a time: batch x heads x context x context
        activations += batch * model.num_attention_heads * context**2 * score_bytes / tp
        assumptions.append(
            f"{engine.label} materialises the attention scores of the prompt (no flash kernel): "
            f"{batch} x {model.num_attention_heads} heads x {context}^2 x {score_bytes:g} bytes"
        )
    if engine.name in FUSED_QKV_ENGINES:
        heads = model.num_attention_heads + 2 * model.num_kv_heads
        qkv = model.num_layers * model.hidden_size * heads * model.head_dim
        copy = qkv * precision.bytes_linear / num_gpus
        if copy > activations:  # the load's peak passes the run's
            activations = copy
            assumptions.append(
                f"{engine.label} fuses q, k and v while it loads: a second copy of them "
                f"({copy / GB:.2f} GB) is the peak beyond the weights and the KV cache"
            )
    overhead = engine.cuda_context_gb * GB
    if precision.family in ("bnb-4bit", "int8"):
        overhead += 3 * model.hidden_size * _mlp_width(model) * 2  # dequantised weight buffers
    if budget is not None and budget.profiled:  # what its start-up profile set aside
        activations = budget.activation_gb * GB
        overhead = budget.overhead_gb * GB
    breakdown = {
        "weights": weights / GB,
        "kv_cache": kv_peak / GB,
        "activations": activations / GB,
        "runtime_overhead": overhead / GB,
    }
    assumptions.append(
        f"weights at {precision.name} ({precision.bits_linear:g} bits per block weight, "
        f"{precision.bits_embedding:g} for embedding/head)"
    )
    assumptions.append(
        f"KV cache for {batch} x {context} tokens at {kv_elem_bytes:g} bytes per value"
        + (
            f", sliding window {model.sliding_window} on some layers"
            if model.sliding_window
            else ""
        )
    )
    return MemoryResult(breakdown, assumptions)


def _mlp_width(model: Model) -> int:
    if model.is_moe and model.moe_intermediate_size:
        width = model.moe_intermediate_size * (model.experts_per_token or 1)
        return width + (model.shared_expert_intermediate_size or 0)
    return model.intermediate_size or 4 * model.hidden_size


def exllama_scratch_bytes(model: Model) -> float:
    """ExLlama's fixed scratch (HOST_EMBEDDING_ENGINES note): the MLP's buffers at
    max_input_len tokens and one dequantised MLP matrix, beside the attention's score buffer."""
    width = _mlp_width(model)
    mlp = EXLLAMA_MAX_INPUT_LEN * (model.hidden_size + 2 * width) * 2
    mlp += model.hidden_size * width * 2  # temp_dq: the largest MLP matrix in fp16
    return mlp + model.num_attention_heads * EXLLAMA_MAX_ATTENTION_SIZE * 2


def _inference_activation_bytes(
    model: Model, engine: EngineFactors, context: int, batch: int
) -> float:
    """Peak transient tensors of a prefill: one layer's working set and the last-token logits."""
    tokens = batch * context
    if engine.name in TENSOR_PARALLEL_ENGINES:  # servers: chunked prefill
        tokens = min(tokens, 8192)  # chunked prefill / max_num_batched_tokens
    elif engine.name == "llama.cpp":
        tokens = min(tokens, 512)  # n_ubatch
    layer = tokens * (2 * _mlp_width(model) + 4 * model.hidden_size) * 2
    logits = batch * model.vocab_size * 4
    if engine.name == "llama.cpp":
        logits = 512 * model.vocab_size * 4
    return layer + logits


# ---------------------------------------------------------------- training


def lora_params(model: Model, rank: int, targets: str) -> int:
    """Trainable adapter parameters: rank x (in + out) for each targeted linear of each layer."""
    h, q = model.hidden_size, model.num_attention_heads * model.head_dim
    kv = model.num_kv_heads * model.head_dim
    attention = {"q": (h, q), "k": (h, kv), "v": (h, kv), "o": (q, h)}
    mlp_i = _mlp_width(model)
    mlp = {"gate": (h, mlp_i), "up": (h, mlp_i), "down": (mlp_i, h)}
    chosen = {"qv": ("q", "v"), "attention": tuple(attention), "all": (*attention, *mlp)}[targets]
    shapes = {**attention, **mlp}
    return model.num_layers * sum(rank * (shapes[n][0] + shapes[n][1]) for n in chosen)


def training_activation_bytes(
    model: Model,
    seq: int,
    batch: int,
    checkpointing: bool,
    flash_attention: bool = True,
    *,
    loss: str = "plain",
    offload: bool = False,
    compiled: bool = False,
    layer_factor: float = 1.0,
) -> float:
    """Saved activations of a Llama-style block in bf16, plus the loss over the vocabulary.

    Per layer the backward pass keeps the norm/QKV/attention/output inputs (about 18 s*b*h bytes)
    and the gated MLP's four intermediate tensors (8 s*b*i bytes). Without a fused (flash or
    memory-efficient) attention kernel the scores, softmax and dropout mask add 5*a*s^2*b bytes
    (Korthikanti et al.); bitsandbytes 4-bit layers keep more (`layer_factor`). Checkpointing
    keeps only each layer's input (2 s*b*h) plus one layer's
    full working set; offloading moves those inputs to CPU memory, leaving two layers' worth on
    the GPU. The loss holds LOGIT_BYTES per vocabulary entry per token ("plain"), or the bf16
    logits whole and the fp32 part one chunk at a time ("chunked"), or nothing per vocabulary
    entry when the LM head and the loss are fused ("fused": _loss_bytes_per_entry).
    torch.compile fuses a layer's pointwise ops, so fewer of its intermediate tensors are saved
    (COMPILED_LAYER_SHARE).
    """
    sb = seq * batch
    layer: float = sb * (18 * model.hidden_size + 8 * _mlp_width(model))
    if compiled:
        layer *= COMPILED_LAYER_SHARE
    if not flash_attention:
        layer += 5 * model.num_attention_heads * seq * seq * batch
    if checkpointing:
        kept_layers = 2 if offload else model.num_layers
        stored = kept_layers * sb * model.hidden_size * 2 + layer
    else:
        stored = model.num_layers * layer
    return stored * layer_factor + sb * model.vocab_size * _loss_bytes_per_entry(loss, compiled)


def kbit_upcast_bytes(
    model: Model, seq: int, batch: int, checkpointing: bool, *, offload: bool = False
) -> tuple[float, float]:
    """What PEFT's prepare_model_for_kbit_training adds to a QLoRA step: (weights, activations).

    It casts every weight that is not 4-bit to fp32 (peft/utils/other.py: "cast all non INT8
    parameters to fp32"): the token embedding and an untied LM head take 4 bytes per parameter
    instead of 2 (the norms are small). Under autocast the LM head's matmul computes in bf16
    from a bf16 copy of its fp32 weight, made per call (autocast caches only the casts of
    weights that require grad) and saved for backward, since the hidden states entering it
    require grad: one more vocabulary x hidden matrix at 2 bytes. The embedding's output is
    fp32, and each layer adds its bf16 attention and MLP outputs to it, so the residual stream
    stays fp32: gradient checkpointing keeps each layer's input at 4 bytes per value, not 2
    (without checkpointing the norms keep fp32 copies of their inputs either way). Derived from
    the code, not fitted; checked on the Unsloth README's Hugging Face + FA2 context-length
    tiers (eval/calibration/llm.csv L2045-L2050, L2053; class "QLoRA peak memory · HF
    PEFT/Trainer"): their line starts at 9.70 GiB at no tokens, 2.6 GiB above the 7.1 GiB the
    calculator gave a Llama 3.1 8B QLoRA without the upcast, and climbs 2.65 MB per token, above
    its 2.11 (2.37 with it). Those rows went from 0.75-0.84x of the tier to 0.91-1.02x (the tier
    bounds the peak from above), the class from 10.0% median error (leaving a source out 1.91x
    in-sample) to 7.1% (1.13x); no other class moves (Axolotl, LLaMA-Factory, ms-swift,
    torchtune and Unsloth do not run it; the Qwen README's Q-LoRA is on a GPTQ base, which
    PEFT does not upcast)."""
    weights = embedding_params(model) * 2.0 + model.vocab_size * model.hidden_size * 2.0
    if not checkpointing:
        return weights, 0.0
    kept_layers = 2 if offload else model.num_layers
    return weights, kept_layers * seq * batch * model.hidden_size * 2.0


def _loss_bytes_per_entry(loss: str, compiled: bool = False) -> float:
    """Bytes per vocabulary entry per token the loss holds at its peak. A compiled chunked loss
    (torchtune's CEWithChunkedOutputLoss with compile on: torch.compile wraps its per-chunk
    compute_cross_entropy, the fp32 upcast and the log-softmax fused into kernels that reduce each
    row in registers and recompute in backward from the saved bf16 chunk) adds to the bf16 logits
    only one chunk's bf16 gradient at a time: 2 + 2 / LOSS_CHUNKS. Derived from the kernels, not
    fitted; checked on torchtune's compiled LoRA and QLoRA rows (llm.csv L1608, L1612, L1630,
    L1632, "Peak Memory Active"): 7-12% high, from 13-34%; its compiled full fine-tunes with
    the chunked loss (L1620-L1628) move 0-6% lower).

    A loss fused with the LM head (Apple's Cut Cross Entropy, which Axolotl's cut_cross_entropy
    and Unsloth since December 2024 run) computes each block of logits in on-chip memory and
    keeps only a log-sum-exp per token, so nothing per vocabulary entry stays in GPU memory.
    Derived from the kernel, not fitted (it was one chunk of LOGIT_BYTES before); checked on the
    Unsloth README's Llama 3.1 8B / 3.3 70B context-length tiers (eval/calibration/llm.csv
    L2038-L2044, L2051-L2052: QLoRA peak memory · Unsloth median 27.5% -> 11.0%, predicted below
    the tier, which bounds the peak from above) and Axolotl's QLoRA example READMEs (10.9% ->
    7.0%)."""
    if loss == "chunked" and compiled:
        return 2 + 2 / LOSS_CHUNKS
    return {
        "plain": LOGIT_BYTES,
        "chunked": 2 + (LOGIT_BYTES - 2) / LOSS_CHUNKS,
        "fused": 0.0,
    }[loss]


def allocator_cache_bytes(
    model: Model,
    seq: int,
    batch: int,
    checkpointing: bool,
    *,
    loss: str = "plain",
    backward_bytes: float = 0.0,
) -> float:
    """What PyTorch's caching allocator keeps beyond the live tensors because of the loss.

    The loss's vocabulary-sized blocks are freed before backward. Without checkpointing the next
    step asks for the same tensors in the same order and gets the same blocks back. With it,
    backward recomputes each layer inside those freed blocks, and the long-lived tensors made
    meanwhile (gradients, then optimizer states) settle in pieces of them, so the next step's
    loss opens new segments: torch.cuda.max_memory_reserved and nvidia-smi count those blocks
    about twice (CHECKPOINTED_LOSS_CACHE_BYTES). Gradients allocated during backward
    (`backward_bytes`: a full fine-tune's) fill the freed blocks instead. ms-swift's Qwen-7B-Chat
    LoRA at 2048 tokens shows it (eval/calibration/llm.csv): 29.8 GB reserved with
    checkpointing (L1396) for 20.3 GB of tensors, 40.5 GB without it (L1548) for 35.6 GB, the
    allocator's usual share.
    """
    if not checkpointing:
        return 0.0
    share = _loss_bytes_per_entry(loss) / LOGIT_BYTES  # a chunked loss frees smaller blocks
    blocks = seq * batch * model.vocab_size * CHECKPOINTED_LOSS_CACHE_BYTES * share
    return max(blocks - backward_bytes, 0.0)


def foreach_step_bytes(
    optimizer: str, params: float, state_bytes: float, fused: bool = False
) -> float:
    """Transient bytes of one optimizer step over `params` parameters: torch AdamW's foreach
    path writes sqrt(exp_avg_sq) for the whole dtype group to a new list (one second-moment
    copy at `state_bytes` per parameter); fused kernels, bitsandbytes' 8-bit and paged
    optimizers, SGD and Adafactor update in place."""
    if fused or optimizer != "adamw":
        return 0.0
    return params * state_bytes


def training_memory(
    model: Model,
    *,
    method: str,
    precision: Precision,
    optimizer: str,
    seq: int,
    batch: int,
    checkpointing: bool,
    lora_rank: int = 16,
    lora_targets: str = "all",
    mixed_precision: bool = True,
    num_gpus: int = 1,
    zero_stage: int = 0,
    tp: int = 1,
    pp: int = 1,
    flash_attention: bool = True,
    optimizer_in_backward: bool = False,
    loss: str = "plain",
    activation_offload: bool = False,
    compiled: bool = False,
    fused_optimizer: bool = False,
    zero3_sub_group: float = 0.0,
    qlora_extra_saved: bool = True,
    kbit_upcast: bool = False,
    offload_optimizer: bool = False,
    offload_param: bool = False,
) -> MemoryResult:
    """Memory per GPU for one training step of full fine-tuning, LoRA or QLoRA.

    Trainable parameters cost, per parameter: with mixed precision an fp32 master copy beside the
    16-bit working copy (4 + 2), fp32 gradients (4) and fp32 Adam moments (8); in pure 16-bit
    everything at 2 bytes and the moments at 4. 8-bit Adam keeps 2 bytes of moments; a paged
    optimizer's states live in CUDA managed memory, which bitsandbytes pages to the host when
    the GPU runs short, so they are listed but never make a step run out. An optimizer stepped
    in backward frees each gradient as soon as it is applied: only the largest tensor's gradient
    is ever held.

    PyTorch's AdamW steps all parameters of a dtype together (foreach kernels) and writes
    sqrt(exp_avg_sq) to a new tensor list before dividing by it: for the step it holds one more
    copy of the second moments (`foreach_step_bytes`). A fused AdamW (torch's fused=True,
    DeepSpeed's FusedAdam, apex/Transformer Engine in Megatron) updates in one kernel and holds
    none. The step runs after backward has freed the activations, so the copy sits beside the
    gradients, not beside the activations. DeepSpeed ZeRO-1 and up partition the fp32 master
    weights with the optimizer states they belong to; ZeRO-3 also partitions the 16-bit copy.
    DeepSpeed's ZeRO-3 (`zero3_sub_group` > 0, its sub_group_size) keeps the gradients in 16
    bits and adds its own buffers (ZERO3_STEP_GRAD_BYTES).

    DeepSpeed's ZeRO-Offload (`offload_optimizer`, ZeRO-2/3) keeps the fp32 master weights, the
    Adam moments and the fp32 gradient partitions in host RAM and steps Adam there, so none of
    them, nor the step's buffers, stays on the GPU; `offload_param` (ZeRO-3) moves the 16-bit
    partitions there too, leaving the layers being gathered. `host_gb` is the RAM one machine
    needs for them (offload.py).
    """
    if method not in METHODS:
        raise InvalidInput(f"Unknown training method {method!r}; use one of {', '.join(METHODS)}.")
    if optimizer not in OPTIMIZERS:
        raise InvalidInput(f"Unknown optimizer {optimizer!r}; use one of {', '.join(OPTIMIZERS)}.")
    if zero_stage not in (0, 1, 2, 3):
        raise InvalidInput("ZeRO stage must be 0, 1, 2 or 3 (3 is FSDP full sharding).")
    if tp * pp > num_gpus:
        raise InvalidInput(f"tp x pp = {tp * pp} needs at least that many GPUs (got {num_gpus}).")
    offloaded = offload_optimizer or offload_param
    if offloaded:
        wrong = zero_offload.check(zero_stage, offload_optimizer, offload_param)
        if method != "full":
            wrong = "CPU offload of the optimizer or parameters is modelled for full fine-tuning."
        elif optimizer != "adamw" and offload_optimizer:
            wrong = "Optimizer offload steps DeepSpeed's CPU Adam: use the adamw optimizer."
        if wrong:
            raise InvalidInput(wrong)
    assumptions: list[str] = []
    model_split = tp * pp
    if model_split > 1:
        assumptions.append(f"model split {tp}-way tensor x {pp}-way pipeline parallel")
    dp = max(num_gpus // model_split, 1)
    if method != "full":  # adapters: fp32 under autocast, or bf16 like the rest
        weight_b = grad_b = state_scale = 4.0 if mixed_precision else 2.0
        scheme = "fp32 adapters under autocast" if mixed_precision else "pure bf16 adapters"
    elif mixed_precision and precision.name in ("bf16", "fp16"):
        weight_b, grad_b, state_scale = 4.0 + 2.0, 4.0, 4.0
        scheme = "mixed precision: fp32 master weights + 16-bit working copy, fp32 gradients"
    else:
        weight_b = grad_b = state_scale = precision.bytes_linear
        scheme = f"pure {precision.name} weights, gradients and optimizer states"
    deepspeed3 = (zero3_sub_group > 0 or offloaded) and zero_stage == 3 and method == "full"
    if deepspeed3 and weight_b > precision.bytes_linear:  # 16-bit gradient partitions
        grad_b = precision.bytes_linear
    moments = {"adamw": 2 * state_scale, "adamw8bit": 2.0, "sgd": state_scale, "adafactor": 0.1,
               "paged_adamw": 2 * state_scale, "paged_adamw8bit": 2.0}[optimizer]  # fmt: skip
    master = 0.0  # fp32 master weights beside a 16-bit working copy (sharded from ZeRO-1)
    if method == "full":
        trainable = model.total_params
        weights: float = trainable * weight_b
        if weight_b > precision.bytes_linear:
            master = trainable * (weight_b - precision.bytes_linear)
            weights -= master
        adapters = 0.0
        assumptions.append(scheme)
    else:
        trainable = lora_params(model, lora_rank, lora_targets)
        weights = weight_bytes(model, precision)
        adapters = trainable * weight_b
        assumptions.append(
            f"frozen base at {precision.name}; LoRA rank {lora_rank} on {lora_targets} linear "
            f"layers = {trainable / 1e6:.1f}M trainable parameters ({scheme})"
        )
    upcast_weights = upcast_activations = 0.0
    if method == "qlora" and kbit_upcast:
        upcast_weights, upcast_activations = kbit_upcast_bytes(
            model, seq, batch, checkpointing, offload=activation_offload
        )
        assumptions.append(
            "PEFT's k-bit preparation: the embedding, LM head and norms in fp32 and the "
            f"head's bf16 copy kept for backward ({upcast_weights / GB:.1f} GB more), the "
            "residual stream in fp32"
        )
    # the largest tensor: the embedding (full), one layer's adapters (LoRA)
    largest = (
        model.vocab_size * model.hidden_size
        if method == "full"
        else trainable / max(model.num_layers, 1)
    )
    grads = (largest if optimizer_in_backward else trainable) * grad_b
    backward_grads = grads  # allocated during backward, wherever they end up listed
    if optimizer_in_backward:
        assumptions.append("optimizer stepped in backward: one tensor's gradient held at a time")
    states = trainable * moments
    step = foreach_step_bytes(
        optimizer, largest if optimizer_in_backward else trainable, state_scale, fused_optimizer
    )
    if step:
        assumptions.append(
            f"{OPTIMIZER_LABELS[optimizer]} step with foreach kernels: one more copy of the "
            f"second moments ({step / GB:.1f} GB) while it steps"
        )
    paged = optimizer.startswith("paged")
    if method != "full":  # the adapters' own copies travel with the base's split
        adapters += grads + (0.0 if paged else states)
        grads = 0.0
        states = states if paged else 0.0
    weights /= model_split
    upcast_weights /= model_split
    master /= model_split
    adapters /= model_split
    grads /= model_split
    states /= model_split
    step /= model_split
    backward_grads /= model_split  # ZeRO-2/3 still make each one whole before reducing it
    if dp > 1 and zero_stage:
        states /= dp
        master /= dp
        step /= dp
        if zero_stage >= 2:
            grads /= dp
        if zero_stage >= 3:
            weights /= dp
            upcast_weights /= dp
        assumptions.append(f"ZeRO-{zero_stage} over {dp} data-parallel GPUs")
    host = 0.0
    if offloaded:  # what leaves the GPU, and what one machine's RAM holds instead
        ranks = zero_offload.ranks_per_host(num_gpus)
        per_param = zero_offload.host_bytes_per_param(zero_stage, offload_optimizer, offload_param)
        host = trainable / model_split / dp * per_param * ranks
        moved = []
        if offload_optimizer:
            master = states = step = grads = 0.0
            zero3_sub_group = 0.0  # the step's fp32 upcast and its buffers are the CPU's
            moved.append("fp32 master weights, Adam moments and gradient partitions")
        if offload_param:
            weights = upcast_weights = 0.0
            moved.append(f"{precision.name} weight partitions")
        assumptions.append(
            "DeepSpeed ZeRO-Offload: " + " and ".join(moved) + f" in CPU RAM ({per_param:g} "
            f"bytes a parameter: {host / GB:.0f} GB on the machine for its {ranks} GPU"
            + ("s" * (ranks > 1))
            + f"; DeepSpeed's estimator asks {zero_offload.ESTIMATOR_BUFFER_FACTOR:g}x for "
            f"staging buffers, {host * zero_offload.ESTIMATOR_BUFFER_FACTOR / GB:.0f} GB)"
            + (", Adam stepped on the CPU (DeepSpeedCPUAdam)" if offload_optimizer else "")
        )
    weights += master
    gathered = init_buffer = 0.0
    if deepspeed3:
        sub_group = min(zero3_sub_group, trainable / model_split / dp)
        step += sub_group * (precision.bytes_linear + ZERO3_STEP_GRAD_BYTES)
        init_buffer = sub_group * ZERO3_INIT_GRAD_BYTES
        hidden_sq = model.hidden_size**2
        bucket = ZERO3_REDUCE_BUCKET_HIDDEN_SQ * hidden_sq * precision.bytes_linear
        weights += bucket
        # the largest module gathered whole (the vocabulary matrix) and the prefetch bucket
        gathered = (largest / tp + ZERO3_PREFETCH_HIDDEN_SQ * hidden_sq) * precision.bytes_linear
        stepped = (
            f"{precision.name} gradient partitions; the step upcasts "
            f"{sub_group / 1e9:.2g}B parameters' gradients at a time to fp32 "
            f"({sub_group * (precision.bytes_linear + ZERO3_STEP_GRAD_BYTES) / GB:.1f} GB); "
            f"its optimizer's fp32 zero-gradient buffer ({init_buffer / GB:.1f} GB) is held "
            "until the first step; "
            if sub_group
            else ""
        )
        assumptions.append(
            f"DeepSpeed ZeRO-3: {stepped}"
            f"{gathered / GB:.1f} GB of gathered {precision.name} weights in forward and "
            f"backward, a {bucket / GB:.2f} GB reduce bucket"
        )
    if paged:
        assumptions.append(
            f"{optimizer}: {states / GB:.1f} GB of optimizer state in managed memory that pages "
            "to the host when the GPU runs short (not counted)"
        )
        states = 0.0
    states += init_buffer
    activations = (
        training_activation_bytes(
            model,
            seq,
            batch,
            checkpointing,
            flash_attention,
            loss=loss,
            offload=activation_offload,
            compiled=compiled,
            layer_factor=QLORA_ACTIVATION_FACTOR
            if method == "qlora" and qlora_extra_saved
            else 1.0,
        )
        / tp
        + upcast_activations / tp
        + gathered
    )
    loss_words = {"plain": "", "chunked": ", chunked cross-entropy",
                  "fused": ", loss fused with the LM head"}[loss]  # fmt: skip
    assumptions.append(
        f"activations for batch {batch} x {seq} tokens, gradient checkpointing "
        + ("on" if checkpointing else "off")
        + (" (offloaded to CPU)" if activation_offload and checkpointing else "")
        + loss_words
        + (", torch.compile" if compiled else "")
        + ("" if flash_attention else ", attention scores stored (no fused attention kernel)")
    )
    # Backward frees each layer's activations as it makes that layer's gradients, and the
    # gradients of the last step are gone before the next forward: the peak holds the larger
    # of the two, not their sum.
    if grads and activations:
        assumptions.append(
            f"gradients ({grads / GB:.1f} GB) fill memory as backward frees the activations "
            f"({activations / GB:.1f} GB): the peak holds the larger"
        )
    # ... except the output projection's: its gradient (vocabulary x hidden, a full fine-tune's
    # first) is made in the loss's backward, before any layer's activations are freed. Not
    # fitted; on the full fine-tune classes of eval/calibration_classes.py it moves torchtune
    # 11.4% -> 9.4% median error (the compiled ladder L1620-L1628 0.84-0.96x -> 0.88-1.00x) and
    # ms-swift's leave-one-source-out 10.3% -> 7.5%
    head_grad = model.vocab_size * model.hidden_size * grad_b / tp if method == "full" else 0.0
    grads_beyond = max(grads - activations, head_grad)
    step_beyond = max(grads + step - activations, head_grad) - grads_beyond
    overhead = 0.6 * GB + (0.5 * GB if num_gpus > 1 else 0.0)
    cache = (
        allocator_cache_bytes(
            model, seq, batch, checkpointing, loss=loss, backward_bytes=backward_grads
        )
        / tp
    )
    if cache:
        assumptions.append(
            f"a max_memory_reserved or nvidia-smi reading shows about {cache / GB:.1f} GB more: "
            "the caching allocator keeps the loss's freed blocks, which checkpointed layers "
            "recompute inside (given back before it runs out of memory)"
        )
    breakdown = {
        "weights": weights / GB,
        # (PEFT's k-bit preparation: the embedding and head in fp32, apart from the weights as
        # loaded, so that the weights read as the checkpoint's and the upcast as the recipe's)
        "peft_fp32_upcast": upcast_weights / GB,
        "gradients": grads_beyond / GB,
        "optimizer_states": states / GB,
        "optimizer_step": step_beyond / GB,
        "adapters": adapters / GB,
        "activations": activations / GB,
        "runtime_overhead": overhead / GB,
    }
    return MemoryResult(breakdown, assumptions, allocator_cache_gb=cache / GB, host_gb=host / GB)
