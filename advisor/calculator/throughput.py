"""Speed: decode and prefill tokens/s, time to first token, serving and training throughput.

Decode is bandwidth-bound: each step reads the weights it needs and the KV cache. Prefill and
training are compute-bound on the dense tensor-core rate (never FP32 or sparse figures). MoE
models read and compute with their active parameters but hold all of them in memory.
"""

from __future__ import annotations

from advisor.calculator import factors, offload
from advisor.calculator.backends import Backend, decode_speed_factor
from advisor.calculator.base import Band
from advisor.calculator.factors import (
    BNB_BATCHED_DEQUANT_BYTES,
    DECODE_CALIBRATION,
    GENERATION_MBU,
    GENERATION_MFU,
    HBM_GENERATIONS,
    QUANT_LAYER_OVERHEAD_MS,
    SPEED_BAND,
    TRAIN_MBU,
    TRAIN_MFU,
    EngineFactors,
    generation,
    mbu_key,
    pipeline_stages,
    tensor_parallel,
)
from advisor.calculator.interconnect import Link, allreduce_seconds, link_for
from advisor.calculator.kv_budget import kv_budget
from advisor.calculator.memory import GB, kv_cache_bytes, weight_bytes
from advisor.calculator.precision import Precision, get_precision
from advisor.specs import GPU, Model

# GeForce cards compute FP16 with FP16 accumulation at twice the listed (FP32-accumulate) rate.
# Engines whose prompt processing multiplies in cublasHgemm (FP16 compute) reach it: llama.cpp's
# cuBLAS path, and ExLlama v1 and v2, which dequantise each weight matrix to FP16 and call
# cublasHgemm for prompts (github:turboderp/exllama exllama_ext/cuda_func/q4_matmul.cu,
# github:turboderp/exllamav2 exllamav2_ext/cuda/q_gemm.cu, above MAX_Q_GEMM_ROWS rows)
LLAMA_CPP_GEFORCE_FP16_ACCUMULATE = 2.0
FP16_ACCUMULATE_PREFILL_ENGINES = ("llama.cpp", "exllamav2")
DEQUANT_PREFILL_FACTOR = 0.75  # quantised weights are dequantised inside the matmuls
# llama.cpp's Metal mat-vec kernels unpack every GGUF weight (bits, block scales and mins) into
# fp32 on the shader ALUs, with no int8 dot product as CUDA's dp4a path has: an Apple GPU's decode
# of a quantised file is bound by that ALU work, not by its bandwidth. FLOPs at the datasheet fp32
# rate per weight of the mat-vecs (the input embedding is a row lookup) per step: the value that
# leaves no median bias on the 7 Q4_K_M rows (M1, M1 Max, M2 Ultra, M3 Max; Llama 3 8B and 70B,
# tg 512) of github:XiongjieDai/GPU-Benchmarks-on-LLM-Inference README.md, llm.csv L1782, L1783,
# L1785, L1786, L1788, L1790, L1792 (read as bandwidth-bound, the calculator had them up to 64%
# too fast)
METAL_GGUF_FLOPS_PER_WEIGHT = 34.0
# AutoAWQ 0.1.x unpacks its 4-bit weights on the CUDA cores inside the prompt's matmuls, again
# for every tile of token rows: the GEMM packing's kernel (awq_cuda/quantization/
# gemm_cuda_gen.cu, gemm_forward_4bit_cuda_m16n128k32) once per 16 tokens, the GEMV packing's
# about once per token (its prompt speed is near flat in the prompt length: 229 and 226 tok/s at
# 512 and 2048 tokens, llm.csv L0808, L0811). Where the card's fp32 rate is small beside its
# tensor cores (an A100: 19.5 against 312 TFLOPS) that unpacking, not the matmul, bounds the
# prompt. FLOPs per quantised weight unpacked, at the datasheet fp32 rate: the median of the
# three GEMV rows at 2048 tokens on an RTX 4090 (github:casper-hansen/AutoAWQ README.md
# @88e4c76, llm.csv L0713, L0731, L0743: 11.4, 13.1, 16.4); with it the GEMM rows of
# AquilaChat2-34B on an A100 (L0847, L0850, L0853, not fitted on) come out within 12%
AWQ_UNPACK_FLOPS_PER_WEIGHT = 13.1
AWQ_TOKENS_PER_UNPACK = {"gemm": 16, "gemv": 1}
# llama.cpp processes a prompt LLAMA_CPP_UBATCH tokens at a time (n_ubatch, default 512): each
# ubatch's attention without flash attention (llama-bench's default before 2025) moves the score
# matrix through memory, bytes per score (LLAMA_CPP_SCORE_BYTES). Metal's matmul writes it in
# fp32, soft-max reads and writes it, and the value matmul reads it: 16. CUDA (and HIP) run both
# matmuls in cuBLAS at fp16 (ggml-cuda.cu ggml_cuda_mul_mat_batched_cublas, GGML_PREC_DEFAULT as
# for Llama): K.Q writes fp16 (2) that a kernel converts to fp32 (reads 2, writes 4), soft-max
# reads and writes fp32 (8), the value matmul's input is converted back to fp16 (reads 4,
# writes 2) and read by the matmul (2): 24. Derived from the kernels, not fitted.
# Over a layer split the ubatches flow through the GPUs as a pipeline (pipeline parallelism,
# github:ggerganov/llama.cpp PR #6017, March 2024): n GPUs and m ubatches take (m + n - 1) / m
# of one GPU's share of the time.
LLAMA_CPP_UBATCH = 512
LLAMA_CPP_SCORE_BYTES = {"metal": 16.0, "cuda": 24.0}
TP_PREFILL_EFFICIENCY = 0.9
PIPELINE_PREFILL_GAIN = 0.3  # llama.cpp layer split: each extra GPU adds ~0.3x
# fp8 training over bf16 on the same GPU, end to end: Megatron-Bridge's performance guide gives
# 1.2-1.5x for its default recipe (fp8 in the linear layers only; github:NVIDIA-NeMo/
# Megatron-Bridge docs/performance-guide.md "Low Precision Training"), and ms-swift's
# examples/megatron/fp8.sh measures 17.5 -> 12.5 s/it (1.4x) for Qwen2.5-7B on 4 GPUs
FP8_TRAIN_SPEEDUP = 1.4
# torch.compile on an eager training step: the norms, activations, RoPE and residual adds between
# the matmuls fused into few kernels. Fitted on the one pair that differs by compile alone, the
# torchtune README's Llama-3.2-3B full fine-tune on an A100 with a packed dataset, without and with
# compile (eval/calibration/llm.csv L1617, L1619): 7075 -> 8998 tokens/s
COMPILE_TRAIN_SPEEDUP = 1.27
# An eager LoRA adapter (PEFT's LoraLayer: base(x) + B(A(dropout(x))) * scale) in bf16, bytes per
# token per adapted feature: forward, dropout reads and writes x and A reads it (6 per input
# feature), B writes its output and the add reads both and writes (8 per output feature), about
# 7 a feature; backward the gradients run the same path back and accumulate into dx, about 8.
# Derived from the kernels, not fitted. The recompute of gradient checkpointing repeats forward.
LORA_ADAPTER_BYTES = {"forward": 7.0, "backward": 8.0}


def dense_tflops(gpu: GPU, precision: Precision) -> float:
    """The tensor-core rate a precision computes at (weight-only formats compute in 16-bit)."""
    fp16 = gpu.fp16_bf16_dense_tflops or gpu.fp32_tflops or 1.0
    if precision.compute == "fp8" and gpu.fp8_dense_tflops:
        return gpu.fp8_dense_tflops
    if precision.compute == "fp4" and gpu.fp4_dense_tflops:
        return gpu.fp4_dense_tflops
    if precision.compute == "int8" and gpu.int8_dense_tops:
        return min(gpu.int8_dense_tops, 2 * fp16)
    if precision.compute in ("fp32", "tf32"):
        return gpu.tf32_dense_tflops or gpu.fp32_tflops or fp16 / 4
    if precision.compute == "fp64":  # FP64 tensor cores where the datasheet has them
        return gpu.fp64_tensor_tflops or gpu.fp64_tflops or (gpu.fp32_tflops or fp16 / 4) / 64
    return fp16


def _active_weight_bytes(model: Model, precision: Precision, batch: int) -> float:
    """Weight bytes one decode step reads: MoE reads only the experts its tokens route to.

    The input embedding is a row lookup: a step reads one row of the table per token, not the
    table. Where the LM head is tied to it the head's mat-vec reads the whole matrix, so it is
    read once either way; an untied table is read only in the batch's rows."""
    total = weight_bytes(model, precision)
    lookup = 0.0
    if not model.tie_word_embeddings:
        rows = model.vocab_size - min(batch, model.vocab_size)
        lookup = rows * model.hidden_size * precision.bytes_embedding
    if not model.is_moe or not model.num_experts or not model.active_params:
        return total - lookup
    experts, k = model.num_experts, model.experts_per_token or 1
    # total = shared + X and active = shared + X*k/E, so the routed experts hold X parameters
    expert_params = (model.total_params - model.active_params) * experts / (experts - k)
    shared = model.total_params - expert_params
    touched = 1 - (1 - k / experts) ** batch  # share of experts some token in the batch uses
    bytes_per_param = total / model.total_params
    return (shared + expert_params * touched) * bytes_per_param - lookup


def decode_step_seconds(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    batch: int,
    context: int,
    kv_elem_bytes: float,
    num_gpus: int = 1,
    link: Link | None = None,
    pp: int = 1,
    engine_version: str | None = None,
    penalties: bool = False,
    backend: Backend | None = None,
) -> float:
    """Seconds for one decode step of `batch` sequences at `context` tokens of history.

    Tensor parallel adds two all-reduces per layer of the batch's hidden states over the link
    the GPUs share (interconnect.py): a fixed latency each, and bytes that grow with the batch.
    A serving engine's `pp` pipeline stages each hold 1/pp of the layers and pass the batch along
    in min(pp, batch) micro-batches: a stage reads its weights once per micro-batch, so a step
    reads the weights pp times over pp GPUs (as much time as one GPU reading them once), while
    the KV cache and the compute are shared by the stages working at once. An older
    `engine_version` pays what that release lacked (factors.kv_read_per_query_head,
    factors.release_layer_ms, factors.eager_collectives). Sampling `penalties` add the
    sampler's count of each sequence's tokens over the vocabulary (factors.penalty_sampler_ms).
    A llama.cpp `backend` other than the card's default divides the step by its fitted speed-up
    on that vendor's cards (backends.decode_speed_factor), never below the time to read the
    step's bytes at the datasheet bandwidth.
    """
    gen = generation(gpu.architecture, gpu.memory_type)
    tp = tensor_parallel(engine, num_gpus, pp)
    busy = min(pipeline_stages(engine, num_gpus, pp), batch)  # stages working at once
    weights = _active_weight_bytes(model, precision, batch) / tp
    batched_4bit = precision.family in ("bnb-4bit", "weight-only-4bit") and batch > 1
    if engine.name == "hf" and (batched_4bit or precision.compute == "fp8"):
        # dequantised to 16 bits every step (block-wise FP8 at every batch)
        weights += model.params_per_token * BNB_BATCHED_DEQUANT_BYTES / tp
    kv = kv_cache_bytes(model, context, batch, kv_elem_bytes, tp=tp) / busy
    # Weight reads are layer-sized matrices whose achieved bandwidth depends on the engine and
    # the generation (one fitted value where there is one); the batched KV-cache read streams
    # at the engine's attention-kernel efficiency.
    bandwidth = gpu.bandwidth_gbs * 1e9 * engine.mbu
    t_memory = weights / (gpu.bandwidth_gbs * 1e9 * decode_mbu(engine, gen, is_hbm(gpu), gpu.id)[0])
    per_head = factors.kv_read_per_query_head(engine.name, engine_version)
    t_kv = kv * kv_traffic(model, engine, per_head) / bandwidth
    attn_flops = mla_decode_attention_flops(model, engine, context, batch, tp) / busy
    mfu_attn = engine.prefill_mfu * GENERATION_MFU.get(gen, 0.7)
    t_attn = attn_flops / ((gpu.fp16_bf16_dense_tflops or 1.0) * 1e12 * mfu_attn)
    t_memory += max(t_kv, t_attn)  # the attention kernel: its reads or its matmuls
    flops = 2 * model.params_per_token * batch / tp / busy
    mfu = engine.prefill_mfu * GENERATION_MFU.get(gen, 0.7)  # as prefill's: applied once
    t_compute = flops / (dense_tflops(gpu, precision) * 1e12 * mfu)
    if gen == "Apple" and precision.family == "gguf":
        alu = (gpu.fp32_tflops or gpu.fp16_bf16_dense_tflops or 1.0) * 1e12
        lookup = 0 if model.tie_word_embeddings else model.vocab_size * model.hidden_size
        unpack = (model.params_per_token - lookup) * METAL_GGUF_FLOPS_PER_WEIGHT / tp
        t_compute = max(t_compute, unpack / alu)
    layers = model.num_layers
    older = factors.release_layer_ms(engine.name, engine_version)
    host_ms = layers * (engine.layer_overhead_ms + older)
    if engine.name == "hf":
        quant = "fp8" if precision.compute == "fp8" else precision.family
        host_ms += layers * QUANT_LAYER_OVERHEAD_MS.get(quant, 0.0)
    if model.is_moe and model.num_experts:
        host_ms += layers * model.num_experts * engine.expert_ms
    overhead_ms = engine.step_overhead_ms
    if model.is_moe and model.num_experts and engine.name in factors.TENSOR_PARALLEL_ENGINES:
        # a routed layer's small kernels (router, top-k, token sort, grouped GEMMs, the shared
        # expert), each waited on: a time per MoE layer beside the bytes (factors.MOE_LAYER_MS)
        overhead_ms += (layers - (model.first_k_dense_replace or 0)) * factors.MOE_LAYER_MS
    if penalties:
        overhead_ms += batch * factors.penalty_sampler_ms(engine.name, model.vocab_size)
    if tp > 1:  # workers driven by a Ray call each step (factors.ray_dispatch_ms)
        overhead_ms += factors.ray_dispatch_ms(engine.name, engine_version)
    gpu_s = max(t_memory, t_compute)
    if engine.host_overlap:  # the GPU runs while Python issues the next kernels
        gpu_s = max(gpu_s, host_ms / 1000)
    else:
        overhead_ms += host_ms
    eager = factors.eager_collectives(engine.name, engine_version)
    comm_s = _tp_allreduce_seconds(model, gpu, -(-batch // busy), tp, link, eager)
    # a layer split (tp == 1) reads every layer once per step, one GPU after another
    step = gpu_s + overhead_ms / 1000 + comm_s
    speedup = decode_speed_factor(backend, gpu.compute_stack)
    if speedup != 1.0:  # never faster than reading the step's bytes at the datasheet bandwidth
        step = max(step / speedup, (weights + kv) / (gpu.bandwidth_gbs * 1e9))
    return step


def mla_decode_attention_flops(
    model: Model, engine: EngineFactors, context: int, batch: int, tp: int = 1
) -> float:
    """Tensor-core FLOPs of one decode step's attention over a multi-head latent (MLA) cache,
    per GPU.

    Served MLA absorbs the up-projections into the query and the output: every query head takes
    a dot product with each cached latent (kv_lora_rank + qk_rope_head_dim values) and sums the
    latents back (kv_lora_rank), 2 x (2 x kv_lora_rank + rope) FLOPs per head per cached token,
    where a GQA head reads its own keys. All heads share one latent, so a step does ~240 FLOPs
    per byte of a 16-bit cache at 128 heads, past the ridge of every card (an H20's is 37).
    vLLM's MLA decode kernels (FlashMLA, github:deepseek-ai/FlashMLA: its flashmla and
    flashmla_sparse backends, factors.MLA_TILED_ENGINES) tile a sequence's query heads 64 to a
    block (MLA_HEAD_TILE): a tensor-parallel rank holding fewer heads computes a full tile
    (github:vllm-project/recipes DeepSeek/DeepSeek-V3_2.md: "TP=8 yields only 16 heads
    (128/8) per rank but is padded to 64 heads, incurring overhead"). 0 for other attention."""
    if model.attention_type != "MLA" or not model.kv_lora_rank or not model.qk_rope_head_dim:
        return 0.0
    heads = -(-model.num_attention_heads // max(tp, 1))
    if engine.name in factors.MLA_TILED_ENGINES:
        heads = max(heads, factors.MLA_HEAD_TILE)
    windowed = model.sliding_window_layers or 0
    window = model.sliding_window or context
    tokens = (model.num_layers - windowed) * context + windowed * min(context, window)
    per_token = 2 * (2 * model.kv_lora_rank + model.qk_rope_head_dim)
    return float(tokens * batch * heads * per_token)


def _tp_allreduce_seconds(
    model: Model, gpu: GPU, tokens: int, tp: int, link: Link | None, eager: bool = False
) -> float:
    """Tensor parallel: two all-reduces per layer of `tokens` hidden states over the GPUs' link
    (`eager`: issued from each rank's host, factors.EAGER_ALLREDUCE_LATENCY)."""
    if tp <= 1:
        return 0.0
    link = link or link_for(gpu, tp)
    scale = factors.EAGER_ALLREDUCE_LATENCY if eager else 1.0
    nbytes = tokens * model.hidden_size * 2
    return 2 * model.num_layers * allreduce_seconds(nbytes, tp, link, scale)


def decode_mbu(
    engine: EngineFactors, gen: str, hbm: bool | None = None, card: str | None = None
) -> tuple[float, str]:
    """The share of datasheet bandwidth the engine's weight reads reach on this generation,
    and where it comes from (for the assumptions).

    Applied once: the engine's own fit on this generation; else its fit on a generation of the
    same memory kind (`hbm`: an engine's kernels stream HBM about as well on an H100 as on the
    A100 it was fitted on, where the engine x generation prior would charge the engine's batch-1
    share twice, GENERATION_MBU holding llama.cpp's: vLLM's 0.85 on an A100 instead of 0.8 x 0.6
    = 0.48 on an H100); else, on a GDDR card, its fit on an HBM one (the same double charge:
    vLLM's 0.8 x Ampere GDDR's 0.85 = 0.68 on an A10G, where its single-stream rows on GDDR
    cards reach 0.8 of the datasheet with the step's fixed time inside; batch-1 reads stream
    GDDR at least as well as HBM, llama.cpp reaching 0.80 of an A6000's and 0.50 of an A100's:
    its fits, factors.py); else the engine x generation prior. A GDDR fit is not carried to HBM.
    Eager engines (transformers, AutoAWQ) keep the prior: their fitted shares also absorb host
    time on the rows' machines. An engine whose own share is 1 (llama.cpp) takes GENERATION_MBU
    as it is where it has no fit: there is no share charged twice to avoid."""
    cards = dict(engine.mbu_cards)
    if card in cards:  # a fit on this one card (the H20): its own, never carried
        return cards[card], f"{engine.name} on the {card}: {cards[card]:.2f}, fitted (factors.py)"
    fitted = dict(engine.mbu_fitted)
    gen = mbu_key(gen, hbm)  # a generation of both memory kinds: its GDDR cards' own key
    if gen in fitted:
        return fitted[gen], f"{engine.name} on {gen}: {fitted[gen]:.2f}, fitted (factors.py)"
    kind = _memory_kind(gen, gen in HBM_GENERATIONS if hbm is None else hbm)
    kin = [(g, v) for g, v in engine.mbu_fitted if _memory_kind(g, g in HBM_GENERATIONS) == kind]
    if kind == "GDDR" and not kin:
        kin = [(g, v) for g, v in engine.mbu_fitted if g in HBM_GENERATIONS]
    # an eager engine's fit also holds its host time; an engine whose own share is 1 (llama.cpp)
    # has GENERATION_MBU itself as its prior, with no share charged twice to avoid
    if kin and not engine.host_overlap and engine.mbu < 1.0:
        source, value = kin[0]
        source_kind = _memory_kind(source, source in HBM_GENERATIONS)
        both = f"{kind} both" if source_kind == kind else f"{source_kind}, carried to {kind}"
        return (
            value,
            f"{engine.name} on {gen}: {value:.2f}, its fit on {source} ({both}; factors.py)",
        )
    prior = engine.mbu * GENERATION_MBU.get(gen, 0.6)
    return prior, (
        f"{engine.name} on {gen}: {prior:.2f} = engine {engine.mbu:g} x generation "
        f"{GENERATION_MBU.get(gen, 0.6):g} (not fitted for this pair)"
    )


def _memory_kind(gen: str, hbm: bool) -> str:
    return "HBM" if hbm else "unified memory" if gen == "Apple" else "GDDR"


def is_hbm(gpu: GPU) -> bool:
    """Whether the card's memory is HBM (the memory kind decode_mbu carries a fit across)."""
    return (gpu.memory_type or "").upper().startswith("HBM")


def decode_ceiling(bandwidth_gbs: float, read_gb: float) -> float:
    """One stream's decode bound by memory bandwidth alone (the roofline): each token reads
    `read_gb` (every weight once, and the KV cache when counted) at the card's full bandwidth."""
    return bandwidth_gbs / read_gb


def kv_traffic(model: Model, engine: EngineFactors, per_query_head: bool = False) -> float:
    """Bytes moved per byte of KV cache in a decode step: 1 for a paged/fused attention kernel;
    for transformers' eager cache, the read, the torch.cat copy (read + write) and, with grouped
    KV heads, repeat_kv's write and read of every query head's copy. `per_query_head`: an
    attention kernel that gives each query head its own thread block (TensorRT-LLM's masked MHA
    before its XQA kernel, factors.kv_read_per_query_head) reads a grouped KV head once for every
    query head of its group."""
    group = model.num_attention_heads / max(model.num_kv_heads, 1)
    if model.attention_type == "MLA":
        group = 1.0
    if not engine.kv_repeat:
        return max(group, 1.0) if per_query_head else 1.0
    return 3.0 + (2.0 * group if group > 1 else 0.0)


def decode_tokens_per_s(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    batch: int,
    context: int,
    kv_elem_bytes: float,
    num_gpus: int = 1,
    link: Link | None = None,
    pp: int = 1,
    engine_version: str | None = None,
    penalties: bool = False,
    backend: Backend | None = None,
) -> Band:
    """Generated tokens/s summed over the batch, within the band its engine's measured rows
    give (DECODE_CALIBRATION) where it has them."""
    step = decode_step_seconds(
        model, gpu, precision, engine, batch=batch, context=context,
        kv_elem_bytes=kv_elem_bytes, num_gpus=num_gpus, link=link, pp=pp,
        engine_version=engine_version, penalties=penalties, backend=backend,
    )  # fmt: skip
    calibration = DECODE_CALIBRATION.get(engine.name)
    band = (calibration.low, calibration.high) if calibration else SPEED_BAND
    return Band.around(batch / step, band)


def prefill_seconds(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    prompt: int,
    batch: int,
    num_gpus: int = 1,
    link: Link | None = None,
    pp: int = 1,
    awq_version: str | None = None,
) -> float:
    """Seconds to process `batch` prompts of `prompt` tokens.

    Compute-bound on the dense tensor rate, but never faster than one read of the weights (short
    prompts are bandwidth-bound). Causal attention adds 2 x layers x prompt^2 x hidden FLOPs per
    prompt with a fused kernel; llama.cpp computes the full masked score matrix (4x). AutoAWQ's
    4-bit kernels also unpack the weights on the CUDA cores once per tile of tokens
    (AWQ_TOKENS_PER_UNPACK by `awq_version`), which bounds cards with few of them.
    Tensor parallel all-reduces every token's hidden state twice per layer over the link.
    """
    gen = generation(gpu.architecture, gpu.memory_type)
    tokens = prompt * batch
    flops: float = 2 * model.params_per_token * tokens
    scores_s = 0.0
    if engine.name == "llama.cpp":
        # LLAMA_CPP_UBATCH tokens at a time, each attending to the whole cache so far with the
        # full score matrix (no causal skip): prompt x (prompt + ubatch) / 2 scores a head, two
        # matmuls over them, and the fp32 matrix itself through memory (LLAMA_CPP_SCORE_BYTES)
        ubatch = min(prompt, LLAMA_CPP_UBATCH)
        scores = model.num_layers * prompt * (prompt + ubatch) / 2 * batch
        flops += 4 * scores * model.hidden_size
        heads = model.num_attention_heads
        per_score = LLAMA_CPP_SCORE_BYTES["metal" if gen == "Apple" else "cuda"]
        scores_s = scores * heads * per_score / (gpu.bandwidth_gbs * 1e9)
    else:
        flops += 2 * model.num_layers * prompt * prompt * model.hidden_size * batch
    peak = dense_tflops(gpu, precision)
    if engine.name in FP16_ACCUMULATE_PREFILL_ENGINES and gpu.segment in ("consumer", "laptop"):
        peak *= LLAMA_CPP_GEFORCE_FP16_ACCUMULATE
    rate = peak * 1e12 * engine.prefill_mfu * GENERATION_MFU.get(gen, 0.7)
    fitted = dict((g, (share, per_watt)) for g, share, per_watt in engine.prefill_fitted)
    if gen in fitted:  # a generation with rows: the share it reaches, within its board power
        share, per_watt = fitted[gen]
        rate = peak * 1e12 * share
        if gpu.tdp_w:
            rate = min(rate, gpu.tdp_w * per_watt * 1e12)
    dequantised = precision.compute == "fp4" and not gpu.fp4_dense_tflops
    if precision.family in ("gguf", "weight-only-4bit", "bnb-4bit") or dequantised:
        rate *= DEQUANT_PREFILL_FACTOR
    tp = tensor_parallel(engine, num_gpus, pp)
    stages = pipeline_stages(engine, num_gpus, pp)
    if num_gpus == 1:
        speedup = 1.0
    elif tp > 1 or stages > 1:  # a serving engine's pipeline fills with one prompt a stage
        speedup = tp * (TP_PREFILL_EFFICIENCY if tp > 1 else 1.0) * min(stages, batch)
    elif engine.name == "llama.cpp":  # layer split: its ubatches flow through the GPUs
        micro = -(-tokens // LLAMA_CPP_UBATCH)
        speedup = num_gpus * micro / (micro + num_gpus - 1)
    else:  # layer split: GPUs overlap only as far as the engine pipelines micro-batches
        speedup = 1 + PIPELINE_PREFILL_GAIN * (num_gpus - 1)
    compute_s = flops / (rate * speedup) + scores_s / speedup
    if engine.name == "autoawq" and precision.family == "weight-only-4bit":
        tile = AWQ_TOKENS_PER_UNPACK[awq_version or "gemm"]
        unpacks = -(-tokens // tile) * _quantised_params(model) * AWQ_UNPACK_FLOPS_PER_WEIGHT
        alu = (gpu.fp32_tflops or peak / 2) * 1e12 * speedup
        compute_s = max(compute_s, unpacks / alu)
    read_s = weight_bytes(model, precision) / (gpu.bandwidth_gbs * 1e9 * engine.mbu * num_gpus)
    comm_s = _tp_allreduce_seconds(model, gpu, -(-tokens // min(stages, batch)), tp, link)
    return max(compute_s, read_s) + comm_s + engine.step_overhead_ms / 1000


def _quantised_params(model: Model) -> float:
    """Parameters a token's matmuls read in a weight-only 4-bit checkpoint: all but the input
    embedding and the LM head, which stay 16-bit (one matrix where they are tied)."""
    embeddings = model.vocab_size * model.hidden_size * (1 if model.tie_word_embeddings else 2)
    return max(model.params_per_token - embeddings, 0.0)


def time_to_first_token_seconds(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    prompt: int,
    batch: int,
    num_gpus: int = 1,
    link: Link | None = None,
    pp: int = 1,
    awq_version: str | None = None,
) -> float:
    """Seconds from a request to its first token: the engine's fixed per-request latency
    (EngineFactors.request_overhead_ms) plus the prefill of the `batch` prompts sent together.
    Queueing behind other requests is not in it."""
    prefill = prefill_seconds(
        model, gpu, precision, engine, prompt=prompt, batch=batch, num_gpus=num_gpus, link=link,
        pp=pp, awq_version=awq_version,
    )  # fmt: skip
    return engine.request_overhead_ms / 1000 + prefill


def prefill_tokens_per_s(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    prompt: int,
    batch: int,
    num_gpus: int = 1,
    link: Link | None = None,
) -> Band:
    seconds = prefill_seconds(
        model, gpu, precision, engine, prompt=prompt, batch=batch, num_gpus=num_gpus, link=link
    )
    return Band.around(prompt * batch / seconds)


def train_tokens_per_s(
    model: Model,
    gpu: GPU,
    precision: Precision,
    *,
    method: str,
    seq: int,
    checkpointing: bool,
    num_gpus: int = 1,
    batch: int | None = None,
    eager: bool = True,
    trainable: float | None = None,
    zero_stage: int = 0,
    tp: int = 1,
    pp: int = 1,
    compiled: bool = False,
    lora_rank: int | None = None,
    link: Link | None = None,
    band: tuple[float, float] = SPEED_BAND,
    offload_optimizer: bool = False,
    offload_param: bool = False,
    host_gbs: float = 0.0,
) -> Band:
    """Training tokens/s over all GPUs, within `band` (its framework's residuals).

    Compute: 6P FLOPs per token for full fine-tuning; LoRA skips the weight gradients of the
    frozen base but still computes the activation gradients through it (4P); checkpointing
    recomputes the forward (+2P); attention adds 6 x layers x seq x hidden per token (12 with
    recompute). fp8 training computes the linear layers in fp8 (train_tflops); torch.compile
    fuses an eager framework's element-wise work between them (COMPILE_TRAIN_SPEEDUP). An eager
    LoRA runs each adapter beside its frozen layer as separate memory-bound kernels (dropout,
    the rank-r matmuls, the add): LORA_ADAPTER_BYTES per adapted input and output feature per
    token, the `trainable` / `lora_rank` features, at the step's bandwidth. With `batch`
    (sequences per GPU per step) a step also takes at least its memory traffic: the weights read
    once per pass (forward, backward, and the recompute; a 4-bit base is dequantised to 16 bits
    on each), and the host time of an eager framework issuing each layer's kernels
    (TRAIN_LAYER_MS per layer per pass), whichever is longest (a fused framework such as
    Megatron-Core has no such host time); then the optimizer reads and writes the states of the
    weights this GPU holds (1 / (tp x pp) of them, and 1 / num_gpus of them once ZeRO shards
    the states). Over several GPUs, data parallelism all-reduces the `trainable` parameters' bf16
    gradients of each model-parallel shard over the GPUs' link (ZeRO-3 / FSDP also gathers the
    weights on every pass); what backward (two thirds of the compute) cannot hide adds to the
    step, instead of a flat scaling factor. DeepSpeed's ZeRO-Offload (`offload_optimizer`,
    `offload_param`, with the host's RAM at `host_gbs` GB/s) steps Adam on the CPU instead and
    adds its PCIe traffic (offload.step_seconds).
    """
    p = model.params_per_token
    per_token = (6 if method == "full" else 4) * p + 6 * model.num_layers * seq * model.hidden_size
    if checkpointing:
        per_token += 2 * p
    rate = train_tflops(gpu, precision, eager) * 1e12 * TRAIN_MFU[method]
    if compiled and eager:
        rate *= COMPILE_TRAIN_SPEEDUP
    bandwidth = gpu.bandwidth_gbs * 1e9 * TRAIN_MBU
    token_s = per_token / rate  # one token's compute, plus its adapters' traffic
    if method != "full" and trainable and lora_rank and eager and not compiled:
        adapter = LORA_ADAPTER_BYTES["forward"] * (2 if checkpointing else 1)
        token_s += trainable / lora_rank * (adapter + LORA_ADAPTER_BYTES["backward"]) / bandwidth
    scaling = num_gpus * (0.9 if num_gpus > 1 else 1.0)
    if batch is None:
        return Band.around(scaling / token_s, band)
    tokens = batch * seq
    passes = 2 + (1 if method == "full" else 0) + (1 if checkpointing else 0)
    dequantised = precision.family in ("bnb-4bit", "weight-only-4bit")
    per_weight = precision.bytes_linear + (4.0 if dequantised else 0.0)
    weights_s = passes * model.params_per_token * per_weight / bandwidth
    host_s = passes * model.num_layers * factors.TRAIN_LAYER_MS / 1000 if eager else 0.0
    compute_s = tokens * token_s
    step = max(compute_s, weights_s, host_s)
    model_parallel = max(1, tp * pp)
    if method == "full":  # AdamW with fp32 master weights: read 16 bytes, write 14, per weight
        held = model.total_params / model_parallel
        if zero_stage >= 1:  # each data-parallel rank steps its shard of the states
            held /= max(1, num_gpus // model_parallel)
        if offload_optimizer or offload_param:
            step += offload.step_seconds(
                held, model.total_params, num_gpus=num_gpus, gpu=gpu, host_gbs=host_gbs,
                compute_s=compute_s, fetches=2 + (1 if checkpointing else 0),
                offload_optimizer=offload_optimizer, offload_param=offload_param,
            )  # fmt: skip
        if not offload_optimizer:
            step += held * 30 / bandwidth
    replicas = num_gpus // model_parallel
    if num_gpus == 1 or replicas <= 1:
        return Band.around(num_gpus * tokens / step, band)
    link = link or link_for(gpu, num_gpus)
    grads = (trainable or model.total_params) * 2 / model_parallel
    comm_s = allreduce_seconds(grads, replicas, link)
    if zero_stage >= 3:  # each pass gathers the sharded weights (half an all-reduce's traffic)
        gathered = model.total_params * precision.bytes_linear / model_parallel
        comm_s += passes * allreduce_seconds(gathered, replicas, link) / 2
    exposed = max(0.0, comm_s - 2 / 3 * compute_s)
    return Band.around(num_gpus * tokens / (step + exposed), band)


def train_tflops(gpu: GPU, precision: Precision, eager: bool = True) -> float:
    """The dense TFLOPS a training step computes at, before the method's share (TRAIN_MFU).

    fp8 training (Transformer Engine) runs only the linear layers in fp8, beside the casts and
    scaling it adds, and keeps attention and the element-wise work in 16 bits: a step gains
    FP8_TRAIN_SPEEDUP over bf16, not the fp8 tensor cores' 2x. An eager framework loses the
    generation's share of peak (GENERATION_MFU, as prefill does); a fused one (Megatron-Core:
    Transformer Engine kernels, CUDA graphs) reaches the method's share on every generation.
    """
    bf16 = dense_tflops(gpu, get_precision("bf16"))
    if precision.compute == "fp8" and gpu.fp8_dense_tflops:
        peak = min(gpu.fp8_dense_tflops, bf16 * FP8_TRAIN_SPEEDUP)
    else:
        peak = dense_tflops(gpu, precision)
    if not eager:
        return peak
    return peak * GENERATION_MFU.get(generation(gpu.architecture, gpu.memory_type), 0.7)


def serving_tokens_per_s(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    prompt: int,
    output: int,
    kv_elem_bytes: float,
    num_gpus: int = 1,
    batch: int | None = None,
    link: Link | None = None,
    pp: int = 1,
    awq_version: str | None = None,
    engine_version: str | None = None,
    penalties: bool = False,
    backend: Backend | None = None,
) -> tuple[Band, int]:
    """Output tokens/s of a batch of requests: prefill them, then decode `output` steps.

    With no batch given: the best throughput of any batch the engine's KV pool holds
    (kv_budget.kv_budget: what is left after the weights and what the engine holds back; up to
    the engine's limit), the throughput under full load. A server is never run at
    a concurrency slower than one at a time, so this is never below the batch-1 figure (where
    batched 4-bit dequantisation costs more than batching saves, the best batch is small).
    Returns the band and the batch it assumed.
    """
    tp = tensor_parallel(engine, num_gpus, pp)
    stages = pipeline_stages(engine, num_gpus, pp)

    def rate(b: int) -> float:
        prefill = prefill_seconds(
            model, gpu, precision, engine, prompt=prompt, batch=b, num_gpus=num_gpus, link=link,
            pp=pp, awq_version=awq_version,
        )  # fmt: skip
        step = decode_step_seconds(
            model, gpu, precision, engine, batch=b, context=prompt + output // 2,
            kv_elem_bytes=kv_elem_bytes, num_gpus=num_gpus, link=link, pp=pp,
            engine_version=engine_version, penalties=penalties, backend=backend,
        )  # fmt: skip
        return b * output / (prefill + output * step)

    if batch is None:
        budget = kv_budget(
            model, gpu, precision, engine, num_gpus=num_gpus, engine_version=engine_version
        )
        free = budget.kv_gb * GB
        per_seq = kv_cache_bytes(model, prompt + output, 1, kv_elem_bytes, tp=tp, pp=stages)
        most = max(1, min(engine.max_batch, int(free // max(per_seq, 1.0))))
        tried = {b: rate(b) for b in sorted({most, *(2**i for i in range(most.bit_length()))})}
        batch = max(tried, key=lambda b: tried[b])
        return Band.around(tried[batch]), batch
    return Band.around(rate(batch)), batch
