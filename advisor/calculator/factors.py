"""The few named efficiency factors the calculator fits to published measurements.

Each factor belongs to an engine or to a GPU generation, never to a single measurement; the
accuracy benchmark (eval/calibration_benchmark.py) reports how well this small set reproduces the
measured table. Change a factor, re-run the benchmark, and commit its report with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import InvalidInput

# .3: engines fitted per generation (eval/fit_engines.py), fine-tuning frameworks and options,
# links between GPUs as data; .4: time to first token with the engine's per-request latency,
# pipeline stages for serving engines, decode bandwidth share applied once (a fit carried to
# cards of its memory kind), decode compute with the generation's MFU; .6: llama.cpp on Apple
# bound by GGUF unpacking, transformers' cache copied a layer at a time, AutoAWQ's fuse copy and
# 0.1.x unpack bound, ExLlama prefill on fp16-accumulate GEMMs, DeepSpeed ZeRO-3 buffers,
# Transformer-XL output layers, TensorRT at small batches, encoder GEMM width and score traffic;
# .9: vLLM before CUDA graphs (eager all-reduce), MLC-LLM as its own engine, torchtune's fused
# chunked cross-entropy, TensorFlow image models in NHWC, TF1 mixed precision's fp32 softmax;
# .10: vLLM's sampling penalties and pre-0.2.7 Ray dispatch as step terms (fixed step 4 -> 2 ms),
# llama.cpp prompt processing by 512-token ubatch, ExLlama's embedding in system RAM and input
# scratch, ConvNeXt's pointwise layers as linear layers (no NCHW penalty), nets refit with the
# DGX-2 rows, diffusion and Whisper at the FP32 rate on consumer Pascal (FP16 at 1/64 there);
# .29: DeepSpeed ZeRO-3's fp32 zero-gradient buffer held until the first step, the fewest GPUs
# for an engine that splits whole layers (llama.cpp, transformers) searched over every count to 8;
# .29b: classic models' data-parallel all-reduce costed from fp32 gradient bytes over the link
# (exposed share fitted), TF1 mixed precision keeping a fitted share of the step at 32 bits;
# .29c: nets refit after the family rows' fixes (DLE EfficientNet AMP in NHWC, W0144's batch)
# .29d: llama.cpp's CUDA prompt bound by board power per generation, its score matrix at 24 bytes
# (fp16 <-> fp32 conversions around cuBLAS), MLC LLM builds before CUDA graphs (both together)
# .30: unified memory outside macOS holds at most its decimal size (the CPU and the operating
# system take the rest), a PC's integrated GPU its firmware's share (Strix Halo: 96 of 128 GB)
# .30b: Blackwell's GDDR7 cards decode at their own bandwidth share, not the B200's
# .30d: diffusion training steps pay a fixed time per attention layer and launch pass, and
# gradient checkpointing's second forward; an answer's time for the output length given;
# training sharded by ZeRO/FSDP takes any GPU count up to a node
# .30e: llama.cpp layers in system RAM (host.py), an LLM on the CPU alone
# .30f: a split keeps the token embedding and output head in RAM and reads the head per token;
# HOST_DECODE_SHARE refit (0.64)
# .12.01: a serving engine on a GPU count that does not split the attention heads (3 GPUs, 64
# heads) runs a pipeline stage per GPU, as vLLM and TensorRT-LLM refuse such tensor parallel
# .12.01b: Whisper on the CPU alone (speech_cpu.py): a reference 8-thread desktop CPU's compute
# and the RAM's bandwidth, fitted to the faster-whisper README's i7-12700K table
# .12.01d: decode bandwidth shares of Radeon RDNA (0.74, llama.cpp's ROCm rows) and Intel Arc
# Xe (0.41, upstream llama.cpp's Vulkan and SYCL rows) fitted, no longer Ampere GDDR's 0.85
# .12.02: llama.cpp's backend an input (backends.py): the vendor's own by default, Vulkan and
# IPEX-LLM decode faster by a factor fitted on their rows; Xe refit on its SYCL rows (0.38)
# .12.02b: TGI decodes at vLLM's carried bandwidth share, and its releases before 2.0 (no CUDA
# graphs) pay a launch time per layer (TGI_GRAPH_LAYER_MS)
# .12.02c: TRAIN_LAYER_MS refit (4.0 -> 2.5 ms) with Qwen-1.8B's own shape in the catalog and the
# PEFT method-comparison speed rows re-derived without their test-set generation
# .12.02d: a loss fused with the LM head (Cut Cross Entropy: Unsloth, Axolotl) holds nothing per
# vocabulary entry; Unsloth's QLoRA layers are its own (no bitsandbytes Linear4bit extras)
# .12.02e: a decode step reads one row of an untied input-embedding table per token, not the
# table (hf, autoawq and exllamav2 decode constants and the Apple share refit); a QLoRA through
# PEFT's prepare_model_for_kbit_training holds its non-4-bit weights and residual stream in fp32
# .12.02f: Blackwell's GDDR cards take Ada's compute share in the image and speech families
# .12.03o1: DeepSpeed ZeRO-Offload (offload_optimizer, offload_param): the offloaded states leave
# the GPU for host RAM, and a step adds CPU Adam and its PCIe copies (offload.py)
# .12.03a: llama.cpp's decode bandwidth shares on Ampere (HBM and GDDR) and Ada its own, refit on
# its CUDA rows without the input-embedding read (Pascal follows Ampere's); a PCIe all-reduce's
# latency fitted on MLC LLM's tensor-parallel rows (65 us, 42 us on a consumer card's desktop)
# .12.03s1: Whisper fine-tuning (speech_train.py)
# .12.03c: all of the above, merged
# .12.03d: diffusion: the FP16-accumulate gain is read from the datasheet (INT8 rate against the
# FP16 rate: GeForce RTX only, not the TITAN RTX or GTX 16) and taken whole; speed constants
# refit with the benchmark-README rows W0900-W0941 (SDXL's fp32 VAE decode tried, not kept)
# .12.04a: EXL2 is a precision of its own (exl2-<N>bpw, head layer 6 bits, ExLlamaV2 only); FP8
# weights need Turing or newer in the serving engines; the ExLlamaV2 decode band on its 33 rows
# .12.05a: the TensorRT-LLM decode band on its 23 rows (L2150-L2167 added, not fitted on)
# .12.05b: the ExLlamaV2 decode band on its 39 rows (L2168-L2176 added, not fitted on); a pair of
# cards sold bridged (the H100 NVL) talks over its NVLink bridge unless PCIe is said; SGLang's
# H20-fitted share is the H20's alone (an H100 or H200 takes its A100 HBM share)
# .12.06: a fine-tune that fits neither way is judged with gradient checkpointing on (the
# smaller of the two), not off; calibration rows L2177-L2206 added (not fitted on)
# .12.06a: an RDMA fabric between SXM/OAM boards has a port per GPU (the DGX A100's and DGX
# H100's eight compute ports), so a node's bandwidth out is its ports' together; a fine-tune over
# PCIe keeps a copy per GPU with gradient checkpointing on rather than ZeRO-3 when only that fits
# .12.06b: a serving engine's decode step spends a fixed time in each routed MoE layer
# (MOE_LAYER_MS); calibration rows L2207-L2249 added (large MoE models, collected at stop 72)
# .12.06c: the time to first token waits on the prompt said, else on a chat's 1,024 tokens (the
# serving figure's), not on the 4,096-token context assumed for memory; PEFT's fp32 upcast of
# the embeddings is a part of a QLoRA's memory of its own (peft_fp32_upcast), not in the
# weights; an encoder at inference holds one layer's activations (nets._memory), not all
# .12.06d: a decode step's attention over an MLA latent cache takes the longer of its reads and
# its tensor-core FLOPs (every query head against every cached latent), vLLM's ranks computing
# at least a 64-head tile (throughput.mla_decode_attention_flops)
FORMULA_VERSION = "calc-2026.12.06d"
LLM_ENGINES = ("hf", "vllm", "llama.cpp", "tensorrt-llm", "sglang", "lmdeploy", "tgi", "exllamav2",
               "autoawq", "mlc-llm")  # fmt: skip


@dataclass(frozen=True)
class EngineFactors:
    """How one inference engine uses memory and time."""

    name: str
    label: str
    cuda_context_gb: float  # CUDA context, cuBLAS workspace, graphs: per GPU
    usable_fraction: float  # share of the card the engine lets itself use
    kv_copy_factor: float  # >1 where the KV cache is copied while it grows (HF's torch.cat)
    mbu: float  # memory-bandwidth utilisation of a decode step (before the generation factor)
    step_overhead_ms: float  # fixed time per decode step (launches, sampling, Python)
    layer_overhead_ms: float  # extra time per layer per decode step (eager frameworks)
    prefill_mfu: float  # share of dense tensor TFLOPS reached by prefill
    max_batch: int  # most sequences the engine batches by default
    # Eager engines issue every kernel from Python: that host time runs beside the GPU's, and
    # a step takes the longer of the two (small models are host-bound), not their sum.
    host_overlap: bool = False
    expert_ms: float = 0.0  # host time per expert per MoE layer (a Python loop over experts)
    # transformers' attention copies the growing KV cache each step (torch.cat: read + write)
    # and expands grouped KV heads to every query head (repeat_kv: write + read per group)
    kv_repeat: bool = False
    # decode bandwidth share by GPU generation where it was fitted (one value, not a product of
    # an engine and a generation factor); other generations use mbu x GENERATION_MBU
    mbu_fitted: tuple[tuple[str, float], ...] = ()
    # the same fitted on one card whose rows do not speak for its generation (catalog id: the
    # H20, a Hopper card capped in compute, for SGLang); never carried to other cards
    mbu_cards: tuple[tuple[str, float], ...] = ()
    # fixed time a request waits before its first token beyond its prefill: tokenising,
    # scheduling, setting up the request's first step (time to first token = this + prefill)
    request_overhead_ms: float = 0.0
    # prefill by GPU generation where it was fitted: (generation, share of the dense tensor
    # rate, sustained TFLOPS per watt of board power); the rate is the lesser of the two, in
    # place of prefill_mfu x GENERATION_MFU (other generations)
    prefill_fitted: tuple[tuple[str, float, float], ...] = ()
    # sizes its KV cache at start-up from a profiled forward (vLLM): usable_fraction is then
    # its gpu_memory_utilization of the total CUDA reports, and kv_budget.py replaces
    # cuda_context_gb and the per-request activations with what that profile holds back
    profiles_memory: bool = False


ENGINE_FACTORS: dict[str, EngineFactors] = {
    e.name: e
    for e in (
        # expert_ms: transformers loops over every expert of an MoE layer in Python; Qwen3-30B-A3B
        # (48 layers x 128 experts) decodes 1.9 tok/s in bf16 on an H20 (llm.csv L1388, one row)
        # hf, vllm and autoawq decode constants: `python -m eval.fit_engines` on each engine's
        # decode rows of eval/calibration/llm.csv (eval/results/fit_engines.json lists the row
        # ids and the leave-one-source-out check). hf: 117 rows, 4 sources (Qwen README
        # L0855-L0877, Qwen2.5 speed benchmark L1060-L1310 and L1334-L1390, oobabooga L0699).
        # Refit at calc-2026.12.02e, when a decode step stopped reading the untied input
        # embedding (`python -m eval.fit_engines hf`): the Ampere-HBM share 0.575 -> 0.55 (the
        # fixed costs unchanged), median error over the 117 rows 20.5% either way; class
        # "quantised HF / AutoAWQ decode" 20.4% with the read fixed and the old share -> 19.0%
        # (19.3% before the fix), "HF transformers decode (16-bit, fp8)" 12.0% -> 12.3%
        EngineFactors("hf", "Hugging Face transformers (eager)", 0.6, 0.97, 2.0, 0.90, 3.0, 0.80,
                      0.45, 64, host_overlap=True, expert_ms=0.085, kv_repeat=True,
                      mbu_fitted=(("Ampere-HBM", 0.55),)),
        # vllm: 86 rows, 4 sources, 84 of them the Qwen2.5 speed benchmark (vLLM 0.6-era, A100).
        # Its fixed step, 2 ms, is what the single-stream rows of the three sources that sample
        # without penalties (L0583, L1793, L1795) and the Qwen2.5 rows, whose script samples
        # with them (PENALTY_SAMPLER_MS, 2 ms more on its 0.5B-model rows), agree on: with 4 ms
        # and no penalty term, leaving a source out gave 14.1% against 8.6% in-sample in the
        # class "vLLM decode (batch 1 / low concurrency)", now 6.5% against 8.0%. Its A100
        # share carries to the other HBM cards (throughput.decode_mbu): Llama-3-8B bf16 at
        # batch 1 on an H100 SXM ~130 tok/s (public vLLM runs ~110-130); the vLLM 0.19 H100 rows
        # at concurrency 8 and ~20k-token prompts (L0378, L0381: 15.2 and 12.9 ms per token, bf16
        # and fp8 KV cache; not scored, the H100 variant is not named) come out at 15.5 and
        # 11.6 ms on an H100 SXM. The share
        # carries to GDDR cards too (engine x generation charged the batch-1 share twice there:
        # 0.68 of an A10G's 600 GB/s, Mistral-7B fp16 at 24.6 tok/s), checked on rows it was not
        # fitted on: single-stream vLLM on an RTX A6000 and an RTX 6000 Ada (L1793, L1795:
        # 0.72x and 0.80x of measured -> 0.87x and 0.90x; 0.94x and 1.00x with the 2 ms step),
        # SGLang on an A10 (L1812-L1813: 0.84x and 0.88x -> 1.04x and 1.08x), vLLM on Intel's
        # Arc Pro B60 (class "vLLM serving", 12 rows: median error 17.6% -> 11.1%; 8.3% with the
        # 2 ms step)
        # Its memory: usable_fraction is gpu_memory_utilization's default (0.9) and the KV cache
        # gets what the start-up profile leaves (profiles_memory, kv_budget.py: fitted on
        # eval/calibration/vllm_kv_capacity.csv); cuda_context_gb is not used for its budget
        EngineFactors("vllm", "vLLM", 1.0, 0.90, 1.0, 0.80, 2.0, 0.0, 0.55, 256,
                      mbu_fitted=(("Ampere-HBM", 0.85),), profiles_memory=True),
        # llama.cpp's prompt path (cuBLAS fp16 GEMMs between fp32 elementwise kernels) keeps
        # the tensor cores busy enough that a card's board power, not its datasheet rate (quoted
        # at the boost clock), bounds it: an RTX 6000 Ada (300 W) reaches 0.29 of its 364 TFLOPS
        # where an RTX 4090 (450 W) reaches 0.46 of the same chip's 330 and an RTX 4000 Ada
        # (130 W) 0.61 of its 82, all at 0.33-0.40 TFLOPS per watt of matmul work. Per
        # generation (prefill_fitted): at most 0.70 of the dense rate, and TDP x TFLOPS per watt
        # (the energy per FLOP of the chip's process: Samsung 8N Ampere 0.26, TSMC N7 A100 0.45,
        # 4N Ada 0.40, Hopper 0.55), fitted on the 139 single-GPU pp 512-8192 rows of llama-bench
        # (b2824-b2837) of github:XiongjieDai/GPU-Benchmarks-on-LLM-Inference README.md
        # (llm.csv L1845-L1983: 16 cards, Llama-3-8B Q4_K_M / F16 and 70B Q4_K_M; median error
        # 21% -> 6%). Hopper rests on one card (H100 PCIe, 350 W); A100 SXM (400 W) measures
        # as its 300 W PCIe sibling, so its cap is not binding power alone (+15-30% there).
        # Generations without rows keep prefill_mfu x GENERATION_MFU
        # Its decode bandwidth share on NVIDIA's Ampere (HBM and GDDR) and Ada cards is its own,
        # fitted at calc-2026.12.03a on its CUDA rows (median of measured / predicted to 1, the
        # fixed 2.5 ms step kept): until then those generations' GENERATION_MBU priors were
        # llama.cpp's, set when a decode step still read the untied input-embedding table
        # (calc-2026.12.02e stopped that: Llama-3's 128k x 4096 table is 6.5% of the 8B's bytes),
        # and the rows ran 6-10% fast. Fitted on shared/data/measured_calibration.csv's llama.cpp
        # (CUDA) decode rows, all XiongjieDai/GPU-Benchmarks-on-LLM-Inference (Dec 2023 LLaMA 2
        # table @eafac9d, May 2024 LLaMA 3 notebooks and overview table, llama-bench tg512-8192,
        # 1-6 GPUs layer-split) plus mlc-ai/llm-perf-bench@0274600's 2023 build on an RTX 3090 Ti
        # and llm.csv L1993 (RTX 3090, 2026 build, kickstart-berlin issue #58): Ampere-HBM 17 rows
        # (A100 80GB PCIe, 1 and 4 GPUs) 0.55 -> 0.495; Ampere 11 rows of 3 sources (RTX 3080,
        # 3090, 3090 Ti, 4x/6x RTX 3090, 4x A40) 0.85 -> 0.80; Ada 18 rows (RTX 4090, 4070 Ti,
        # RTX 4000/5000 Ada, 4x L40S, 4x RTX 4090) 0.92 -> 0.905. The other engines keep
        # GENERATION_MBU as their prior (MLC LLM's and LMDeploy's rows measure 3-4% faster than
        # llama.cpp's shares would give them); llama.cpp on other generations takes
        # GENERATION_MBU as it is (throughput.decode_mbu does not carry these fits)
        EngineFactors("llama.cpp", "llama.cpp (all layers on the GPU)", 0.4, 0.98, 1.0, 1.0, 2.5,
                      0.0, 0.40, 1,
                      mbu_fitted=(("Ada Lovelace", 0.905), ("Ampere", 0.80), ("Ampere-HBM", 0.495)),
                      prefill_fitted=(("Ampere", 0.70, 0.26), ("Ampere-HBM", 0.70, 0.45),
                                      ("Ada Lovelace", 0.70, 0.40), ("Hopper", 0.70, 0.55))),
        # request_overhead_ms (tensorrt-llm, lmdeploy): `python -m eval.fit_engines
        # ttft-tensorrt-llm ttft-lmdeploy` on the classes "TTFT · TensorRT-LLM/NIM" (12 rows,
        # TensorRT-LLM performance.md low-latency table L0027-L0040: 22% -> 10% median error)
        # and "TTFT · LMDeploy" (19 rows, lmdeploy a100_fp16.md L0601-L0638: 19% either way).
        # tensorrt-llm's decode share is not fitted: its batch-1 decode rows are two, from one
        # source (TensorRT-LLM blogs/H100vsA100.md, v0.5.0, GPT-J 6B, batch 1, 128-token prompt;
        # L1994-L1995, class "TensorRT-LLM/NIM decode, 1 GPU"), below fit_engines' 5 rows from 2
        # sources a generation. At the prior (mbu x GENERATION_MBU) they measure 0.89x (H100
        # SXM fp8, 185 tok/s) and 1.52x (A100 SXM fp16, 111 tok/s) of the estimate, median
        # error 23.6% (`python -m eval.fit_engines tensorrt-llm --check`). The A100 row alone
        # puts the Ampere-HBM share at 0.75 (L1995 0.99x), but decode_mbu would carry that to
        # Hopper, where the only row (fp8) then measures 0.66x; the project's quantization blog
        # (blogs/quantization-in-TRT-LLM.md, release not stated) ran GPT-J at batch 1 in fp8 only
        # 1.40x faster than fp16 on an H100, which puts fp16 at ~132 tok/s, a share of ~0.55, not
        # 0.75 (a ratio at a 1024-token prompt, not a row). The rows do not support a
        # Hopper share above the prior's 0.51, so the prior stays: no source with a stated GPU
        # variant and precision gives a later release's batch-1 decode on an H100. Jan's
        # TensorRT-LLM 0.7.1 AWQ rows (L2100-L2102: RTX 4090, 3090, 4070 Laptop) make the class
        # 5 rows from 2 sources; they measure 1.19-1.34x the estimate (the GDDR priors, 0.78 on
        # Ada and 0.72 on Ampere, run slow), but give Ada 2 rows and Ampere GDDR 1, one source,
        # and an engine share of 1.0 (GENERATION_MBU as it is) moves the serving and TTFT classes
        # away (eval/calibration/README.md, "Gaps and cautions"): the prior stays. Rows found
        # afterwards and not fitted on (L2150-L2167: an A10G in fp16 and a Jetson AGX Orin in
        # 4-bit) measure it at 0.85-1.06x, Gemma-3-1B aside (1.4x): class 11.6% on 23 rows
        EngineFactors("tensorrt-llm", "TensorRT-LLM", 0.8, 0.95, 1.0, 0.85, 1.0, 0.0, 0.60,
                      2048, request_overhead_ms=3.0),
        # engines whose own rows are few take the constants of the engine they are built like
        # until fitted: SGLang and TGI like vLLM (paged KV, CUDA graphs, continuous batching),
        # LMDeploy's TurboMind like TensorRT-LLM (compiled C++), ExLlamaV2 like vLLM but one
        # stream at a time, AutoAWQ like transformers with fused layers and its own KV cache
        # sglang: vLLM's bandwidth share on A100s (no rows of its own there); its step and its
        # H20 share fitted on its 24 decode rows (one source, the Qwen speed benchmark
        # L1331-L1394, so not checked by leaving a source out). Those rows are all H20s, which
        # reach ~40% of their 4.0 TB/s in every engine of that benchmark (transformers' Qwen3-32B
        # bf16, L1379: 26 tok/s = 1.7 TB/s): the share is the H20's own (mbu_cards), and an H100
        # or H200 takes the A100's HBM share as vLLM does (until calc-2026.12.05b the H20's 0.375
        # stood for all of Hopper: 2 x H100 decoded Qwen2.5-72B at half vLLM's speed)
        EngineFactors("sglang", "SGLang", 1.0, 0.90, 1.0, 0.80, 2.0, 0.0, 0.55, 256,
                      mbu_fitted=(("Ampere-HBM", 0.85),), mbu_cards=(("h20", 0.375),)),
        # tgi: vLLM's fitted A100 share (carried, not fitted on TGI's rows: TGI's flash models
        # decode through vLLM's paged-attention kernel and the same PyTorch GEMVs), which
        # decode_mbu carries to GDDR as for vLLM. Checked on the class "TGI" of
        # eval/calibration_classes.py: TGI 2.4.1 on an A10 (L1814-L1815, CUDA graphs) at the
        # prior 0.8 x Ampere's 0.85 measured 1.15x and 1.10x of the estimate, 0.93x and 0.89x
        # with the carried share; TGI 1.0.1's single-request rows on A100s (L2032-L2037) need
        # its release's launch time as well (TGI_GRAPH_LAYER_MS)
        EngineFactors("tgi", "Text Generation Inference", 1.0, 0.90, 1.0, 0.80, 1.5, 0.0, 0.55,
                      256, mbu_fitted=(("Ampere-HBM", 0.85),)),
        EngineFactors("lmdeploy", "LMDeploy (TurboMind)", 0.8, 0.95, 1.0, 0.85, 1.0, 0.0, 0.60,
                      256, request_overhead_ms=1.0),
        # exllamav2, refit at calc-2026.12.02e (`python -m eval.fit_engines exllamav2`, when a
        # decode step stopped reading the input embedding, which ExLlamaV2 keeps in system RAM
        # anyway) on its 22 decode rows, 3 sources (README L0647-L0668, oobabooga L0693-L0708,
        # llm-perf-bench L1835-L1838): with two sources on Ada (README and llm-perf-bench 4090
        # rows) Ada has a share of its own, 0.875, and Ampere's goes 0.875 -> 0.75 (step 0.5 ms
        # unchanged): median error 11.9% with the old constants -> 5.3% (6.7% before the fix);
        # leaving a source out in fit_engines 24.5% (the README's 14 rows, left out, 61%: the
        # other two sources alone put Ada's share too low); class "ExLlamaV2 decode" 5.3%,
        # leaving a source out 7.7% against 5.2% in-sample (1.47). A second run of the fitter
        # from these values goes on to 0.725 and 0.85 (3.8% in-sample), but the class's
        # leave-one-source-out then reaches 1.56x in-sample, over issue 17's 1.5: the first
        # run's values are kept (eval/results/fit_engines.json holds that run). The first fit,
        # below, on
        # calibration before the fix:
        # exllamav2: `python -m eval.fit_engines exllamav2` on its 18 decode rows, 2 sources
        # (exllamav2 README L0647-L0668 on a 3090 Ti and a 4090, oobabooga L0693-L0708 on a 3090):
        # 24% -> 7% median error; the Ampere share carries to Ada (GDDR both). The sources
        # disagree by ~1.3x: the README's figures are v0.1.9's (Aug 2024, CUDA graphs) at an
        # unstated, short context; oobabooga's are 0.0.6 through text-generation-webui's
        # streaming loop (logits copied to the host and sampled there each token) after a
        # 3200-token prompt of a model without grouped KV heads (30% of a step's bytes are KV
        # cache). The release accounts for ~5% of it (RELEASE_LAYER_MS); the rest is not in the
        # Request, so leaving one source out gave 20%. A third source, not fitted on
        # (llm-perf-bench's ExLlamaV2 column, Oct 2023 HEAD, L1835-L1838: 1.01-1.16x), brings
        # that to 9.7% (22 rows: "ExLlamaV2 decode" in eval/calibration_classes.py)
        EngineFactors("exllamav2", "ExLlamaV2", 0.5, 0.97, 1.0, 0.80, 0.5, 0.0, 0.55, 1,
                      mbu_fitted=(("Ada Lovelace", 0.875), ("Ampere", 0.75))),
        # mlc-llm: TVM-compiled kernels run from a CUDA graph (mlc_llm.build --use-cuda-graph),
        # tensor parallel over its own NCCL runtime; otherwise TensorRT-LLM's constants. Its
        # engine share is 1 (not fitted): a compiled runtime with no host time in its step
        # reaches the generation's batch-1 share, which GENERATION_MBU holds from llama.cpp's
        # rows, as llama.cpp's own engine share is 1; TensorRT-LLM's 0.85 on top of it charged
        # the batch-1 share twice (0.72 of an A10G's bandwidth). Checked, not fitted, on MLC's
        # 15 decode rows of eval/calibration/llm.csv (llm-perf-bench L1816-L1834, 13 scored,
        # 1-8 GPUs; MLC blog L0568-L0569): 0.80-0.86x of measured with TensorRT-LLM's share.
        # Leaving a source out (class "MLC-LLM decode") fails by hardware, not by source: the
        # two are one measurement campaign (the README repeats the blog's 2x RTX 4090 figures),
        # and the blog's rows are the workstation pairs (2x RTX 4090, peer-to-peer off; 2x
        # 7900 XTX on ROCm, no CUDA graphs), the README's the single cards and the cloud A10Gs.
        # Solved from the rows (share and fixed step from each card's 7B and 13B pair: 3090 Ti
        # 0.89 and 1.1 ms, 4090 0.89 and 0.7 ms), a tensor-parallel step spends 42-44 us per
        # all-reduce beyond its weight reads on the 4090 pair (L0568-L0569) and 61-81 us (median
        # 74) on 2-8 A10Gs (L1823-L1834): the link's 80 us fits the cloud instances, not the
        # workstation, whose cards have no peer-to-peer at all (q4f16_1 at 4.5 bits a weight). The
        # blog names the host as the cause on its cloud machines (of its 8x A100 runs: "PCIe and
        # the host CPU ... performance could degrade by up to 30% when the CPU is busy with tasks
        # from other tenants"); no Request field says whose host it is, so the 4090 and 7900 XTX
        # pairs stayed 0.82x and 0.81x (estimate / measured). Since calc-2026.12.03a the card's
        # segment stands for the host (interconnect.DESKTOP_PCIE_LATENCY_S, 42 us on a consumer
        # card's desktop, fitted on these three rows; 65 us on the A10Gs, fitted on theirs): the
        # pairs measure 0.99x, 1.01x and 0.94x, the class 3.7% median error (was 5.9%)
        EngineFactors("mlc-llm", "MLC LLM", 0.8, 0.95, 1.0, 1.0, 1.0, 0.0, 0.60, 256),
        # autoawq: 53 rows, 2 sources (AutoAWQ README L0709-L0852, oobabooga L0675, L0690);
        # refit at calc-2026.12.02e (decode no longer reads the input embedding): step 2.0 ->
        # 2.5 ms, Ampere share 0.80 -> 0.825, median error 15.9% with the old constants ->
        # 12.9% (11.4% before the fix); fit_engines' leave-one-source-out 53% (21% before: the
        # oobabooga source alone is 2 rows), the class's ("quantised HF / AutoAWQ decode") 18.2%
        # against 17.9% in-sample
        EngineFactors("autoawq", "AutoAWQ (fused layers)", 0.6, 0.97, 1.0, 0.90, 2.5, 0.0, 0.45,
                      64, host_overlap=True, mbu_fitted=(("Ampere", 0.825),)),
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
    # Blackwell's GDDR7 cards (RTX 50 series, RTX PRO): throughput.decode_mbu takes this key for
    # a Blackwell card without HBM (the 0.60 above is the B200's HBM3e). Checked on the 5
    # llama.cpp Q4_K_M batch-1 decode rows of eval/calibration/llm.csv L1988-L1992 (RTX 5090 x4,
    # RTX 5060 Ti 16GB; 3 sources): at 0.60 they measured 1.45-1.73x the estimate. Taken as Ada's
    # GDDR share, 0.92: the rows then measure 1.02-1.23x, median 1.03 (0.95 would centre them,
    # but three of the five rows are one source's; the 8B rows sit 21-23% above either way).
    # TensorRT-LLM's 84 full-load serving rows on the RTX PRO 6000 (L0155-L0336) were matched
    # at the old share: its multi-GPU class moves from 12.9% to 17.9% median error (a refit of
    # that engine's serving factors is open)
    "Blackwell-GDDR": 0.92,
    "CDNA": 0.55,
    "Gaudi": 0.55,
    # Apple M-series GPUs (unified LPDDR): fitted on the 4 bandwidth-bound llama.cpp Metal decode
    # rows, F16 on M1 Max, M2 Ultra and M3 Max (Llama 3 8B and 70B, tg 512) in
    # github:XiongjieDai/GPU-Benchmarks-on-LLM-Inference README.md
    # @00dd2bdeb2404263f22bd6c1cd46ce397e341db5 (eval/calibration/llm.csv L1784, L1787, L1789,
    # L1791): 0.76 x 1.09, their median of measured / computed, was 0.83; refit at
    # calc-2026.12.02e, when decode stopped reading the input-embedding table: at 0.83 they
    # measured 0.88-1.05x (median 0.97), at 0.80 0.91-1.09x (median 1.00). The same table's
    # Q4_K_M rows are bound by the shader ALUs instead (throughput.METAL_GGUF_FLOPS_PER_WEIGHT)
    "Apple": 0.80,
    # Not fitted: taken as Ampere GDDR's, the value it had before it had a key of its own (0.85,
    # llama.cpp's Ampere GDDR share then; since calc-2026.12.03a llama.cpp's own Ampere fit, 0.80:
    # factors.ENGINE_FACTORS["llama.cpp"]). Its only rows are two llama.cpp CUDA rows on a Tesla
    # P40 from one source (llama.cpp PR #4766, Jan 2024, Llama-2-7B Q4_0 and Q4_K_S tg128;
    # eval/calibration/llm.csv L2018-L2019), which measure 0.87x and 0.83x the estimate at 0.85
    # and 0.92x and 0.88x at 0.80; no second source was found
    "Pascal": 0.80,
    # Radeon RDNA 2/3/4 (GDDR6): fitted on llama.cpp's ROCm/HIP batch-1 decode rows, the default
    # backend on Radeon (backends.py): L1996-L1997 (W7900, RX 7900 XTX; the r/LocalLLaMA
    # "compute and memory bandwidth efficiency" table, b4008, Llama-2-7B Q4_0 tg128), L1999-L2000
    # (RX 7900 XTX, llama.cpp issue #20934, March 2026), L2002 and L2004 (RX 9070 XT, issue
    # #26663, b10298, Qwen3 8B/4B Q4_K_M) and L2010 (RX 6700 XT, PR #5835, ROCm 6.0): 7 rows,
    # 4 sources. At 0.85 they measured 0.74-1.06x the estimate, median 0.90; at 0.74 0.82-1.18x,
    # median 1.00 (since calc-2026.12.02e, decode no longer reading the input-embedding table,
    # 0.80-1.11x, median 0.985: 0.72 would centre them, but moves the class "llama.cpp decode"
    # from 6.8% to 7.3-8.1% median error with the Vulkan factors refit beside it, so 0.74 stays).
    # Its 8 Vulkan rows (L1998, L2001, L2003, L2005-L2009) decode faster on the
    # same cards (1.05-1.53x at 0.74): that is backends.py's Vulkan factor on ROCm cards, not
    # this share. ROCm itself has improved: the Nov-2024 rows (L1996-L1997) sit at 0.82x, the
    # 2026 ones at 0.98-1.18x. Checked, not fitted, on MLC LLM's ROCm rows on one RX 7900 XTX
    # (L1843-L1844, Aug 2023, whose engine share is 1): 0.81x -> 0.90x of measured /
    # estimated; its tensor-parallel pair (L0570) 1.14x -> 1.24x. The Ryzen AI Max (Strix
    # Halo, RDNA 3.5 on LPDDR5X) shares the key; it has no rows
    "RDNA": 0.74,
    # Intel Arc Alchemist / Battlemage (GDDR6): fitted on upstream llama.cpp's SYCL batch-1
    # decode rows, the default backend on Intel cards (backends.py), on an Arc A770 16GB: L2012
    # (the r/LocalLLaMA table's comment by easyfab, b3999, Llama-2-7B Q4_0 tg128) and L2014
    # (SYCL.md's 2025.2 news table, after the Q4_0 reorder): 2 rows, 2 sources. At 0.41 (its
    # value when it was fitted on the Vulkan rows too) they measured 0.81x and 1.07x, median
    # 0.94; at 0.38 0.87x and 1.14x, median 1.00 (0.85x and 1.12x, median 0.99, since
    # calc-2026.12.02e stopped reading the input-embedding table: kept, as RDNA's). The other
    # builds on Arc are backends.py's
    # factors: Vulkan (L2011, L2015-L2016) and Intel's IPEX-LLM build (L2013, L2017, 1.7x
    # upstream SYCL). Upstream has improved: the Nov-2024 rows sit below the 2025 ones
    "Xe": 0.38,
}


def compute_share(architecture: str, memory_type: str | None, default: float) -> float:
    """GENERATION_MFU of a card for the image and speech families: its generation's share of
    peak, the GDDR cards of a generation with both memory kinds on their own key."""
    gen = generation(architecture, memory_type)
    gddr = f"{gen}-GDDR"
    if gddr in GENERATION_MFU and not (memory_type or "").upper().startswith("HBM"):
        return GENERATION_MFU[gddr]
    return GENERATION_MFU.get(gen, default)


def mbu_key(gen: str, hbm: bool | None) -> str:
    """The GENERATION_MBU key of a card: a generation with cards of both memory kinds has its
    own key for the GDDR ones ("Blackwell-GDDR" for an RTX 5090 beside the B200's "Blackwell")."""
    gddr = f"{gen}-GDDR"
    return gddr if hbm is False and gddr in GENERATION_MBU else gen


# generations whose GPUs have HBM (V100, A100, H100/H200/H20, MI200/MI300, Gaudi): an engine's
# bandwidth share fitted on one of them is carried to the other HBM cards it has no fit for
# (throughput.decode_mbu)
HBM_GENERATIONS = frozenset({"Volta", "Ampere-HBM", "Hopper", "CDNA", "Gaudi"})
GENERATION_MFU = {
    "Volta": 0.85,
    "Turing": 0.75,
    "Ampere-HBM": 1.0,
    "Ampere": 1.0,
    "Ada Lovelace": 0.95,
    "Hopper": 0.80,
    "Blackwell": 0.75,
    # Blackwell's GDDR7 cards (GB20x: RTX 5090, RTX PRO 6000) reach the compute share of Ada's
    # GDDR cards, not the B200's: the one diffusion row on them, W0762 (MLPerf v5.1 SDXL, 8 x
    # RTX PRO 6000, eval/calibration/workloads.csv), measured 1.47x the estimate at 0.75 and
    # 1.16x at this share. Not fitted (one row): taken as Ada's. Used by the image and speech
    # families (compute_share); the LLM paths keep the generation's key, which TensorRT-LLM's
    # serving rows on the RTX PRO 6000 (llm.csv L0155-L0336) are matched at
    "Blackwell-GDDR": 0.95,
    "CDNA": 0.60,
    "Gaudi": 0.65,
    # not fitted (no rows): Ampere GDDR's, as above
    "Apple": 1.0,
    "Pascal": 1.0,
    "RDNA": 1.0,
    "Xe": 1.0,
}

# Extra time per layer per decode step for quantised kernels that dequantise on the fly.
# fp8: transformers' fine-grained FP8 quantises activations and dequantises weights in extra
# kernels: Qwen3-0.6B on an H20 takes 40.7 ms per token in fp8 against 17.1 ms in bf16 (28 layers,
# host-bound: eval/calibration/llm.csv L1334, L1336): (40.7 - 17.1) / 28 = 0.84 ms per layer.
QUANT_LAYER_OVERHEAD_MS = {"bnb-4bit": 0.2, "int8": 0.9, "weight-only-4bit": 0.05, "gguf": 0.0,
                           "fp8": 0.84}  # fmt: skip
# In transformers, 4-bit kernels (bitsandbytes, AutoGPTQ exllama) are fused for batch 1 only;
# larger batches dequantise every weight to 16-bit each step (write + read 4 bytes per weight).
BNB_BATCHED_DEQUANT_BYTES = 4.0

# Training: share of dense BF16 TFLOPS reached, by method (Megatron reports 42-54% for large
# dense runs; single-GPU LoRA and QLoRA runs reach less). An eager LoRA's adapters are memory
# traffic of their own (throughput.LORA_ADAPTER_BYTES), not a lower share.
TRAIN_MFU = {"full": 0.50, "lora": 0.60, "qlora": 0.55}
# A training step's weight reads reach this share of bandwidth (the decode prior of Ampere HBM).
TRAIN_MBU = 0.55
# Host time per layer per pass of an eager training step (kernel launches, hooks, checkpointing
# from Python), fitted by `python -m eval.fit_engines train` on the 64 transformers/PEFT training
# speed rows of eval/calibration/llm.csv (Qwen README L0899-L1059 on one node, PEFT method
# comparison L1726-L1754), refitted beside the LoRA adapters' traffic, and again (4.0 -> 2.5) once
# Qwen-1.8B had its own 24 layers in the catalog (a 16-layer generic stand-in before) and the PEFT
# rows were re-derived from their training windows (their train_time held the test-set
# generation): the two sources now agree (Qwen README ~1.7 ms per layer and pass at 256 tokens
# for 1.8B, 7B and 14B alike; PEFT's Llama-3.2-3B LoRA rows ~2.1 ms): median error 11.5%
# in-sample, 13.3% leaving a source out (class "training speed · HF PEFT/Trainer" of
# eval/calibration_classes.py: 11.5%, leaving a source out 16.2%, 1.40x in-sample).
TRAIN_LAYER_MS = 2.5

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


@dataclass(frozen=True)
class Calibration:
    """How a class of estimates compares with its measured rows (llm.csv): an engine's decode,
    a framework's training speed."""

    rows: int
    sources: int
    median_ape: float  # median |predicted - measured| / measured
    low: float  # 10th percentile of measured / predicted (at most 0.95)
    high: float  # 90th percentile (at least 1.05)


# `python -m eval.fit_engines --check` (eval/results/engine_bands.json): engines with at least 10
# decode rows of their own; a decode estimate's band is its engine's, others keep SPEED_BAND
# (TGI: 9 scored rows of 4 sources, class "TGI" of eval/calibration_classes.py, below the 10;
# its SageMaker endpoint rows are not scored)
# (llama.cpp's: its 45 llama.cpp decode rows of 9 sources in shared/data/measured_calibration.csv,
# scored by eval/calibration_benchmark.py)
DECODE_CALIBRATION = {
    "hf": Calibration(117, 4, 0.205, 0.63, 1.60),
    "autoawq": Calibration(53, 2, 0.129, 0.62, 1.18),
    # (since calc-2026.12.06b: the large MoE rows L2207-L2249 added; SGLang's low end is DeepSeek-R1
    # at one stream on 16 H100s over two nodes, L2207-L2211, 2.6x fast)
    "vllm": Calibration(105, 10, 0.078, 0.76, 1.12),
    "sglang": Calibration(31, 4, 0.140, 0.40, 1.16),
    # (33 rows since calc-2026.12.04a: EXL2 rows scored at their own width, not as GPTQ; 39 of 5
    # sources since calc-2026.12.05b, premAI-io/benchmarks' A100 rows L2168-L2175 added)
    "exllamav2": Calibration(39, 5, 0.066, 0.75, 1.05),
    "llama.cpp": Calibration(45, 9, 0.040, 0.91, 1.07),
    # (since stop 68: 23 scored rows, L1994-L2102 and L2150-L2167; 7 source files of 4
    # publications, the four LLM-serve result files counted apart)
    "tensorrt-llm": Calibration(25, 9, 0.142, 0.72, 1.25),
}
# (MLC LLM keeps SPEED_BAND: all 16 of its scored rows, llm-perf-bench L1816-L1834 and the MLC
# blog L0568-L0570, measured 1.04-1.21x its typical figure, a band that would not hold it)
# Training speed by framework, from `python -m eval.calibration_classes` (the classes "training
# speed · HF PEFT/Trainer", "· torchtune" and "· Megatron" in
# eval/results/calibration_classes.json): a training estimate's band is its framework's
# 10th-90th percentile of measured / predicted
TRAIN_CALIBRATION = {
    "hf": Calibration(64, 8, 0.138, 0.72, 1.48),
    "torchtune": Calibration(14, 1, 0.103, 0.79, 1.98),
    "megatron": Calibration(10, 1, 0.062, 0.88, 1.34),
}


# Releases from which an engine's decode attention reads each grouped KV head once for all the
# query heads of its group. TensorRT-LLM's generation-phase masked MHA gives every query head its
# own thread block, which reads its KV head again; its XQA kernel (GQA/MQA generation, release
# 0.8: docs/source/blogs/XQA-kernel.md, "Llama-70B on H200 up to 2.4x increased throughput",
# 1,227 -> 2,941 tok/s/GPU at 128/2048 tokens) reads it once. A request naming an older release
# (Request.engine_version) pays the group's reads (throughput.kv_traffic); none named = current.
GROUPED_KV_READ_SINCE = {"tensorrt-llm": (0, 8)}


def release(version: str | None) -> tuple[int, ...] | None:
    """The first dotted release number in `version` ("v0.6.1", "0.9.0 (docs)") as a tuple of
    ints, or None when it names none."""
    match = re.search(r"\d+(?:\.\d+)+", version or "")
    return tuple(int(part) for part in match.group(0).split(".")) if match else None


# Host and kernel time per layer per decode step that an engine's older releases add to the current
# one's. ExLlamaV2 before 0.1.9 ran its decode step without CUDA graphs and with older kernels:
# its README's own speed table, measured on the same RTX 3090 Ti and 4090 in Sept 2023 (commit
# c240eb0, the "V2" columns) and in Aug 2024 (373bcc1, released in v0.1.9: "Update benchmarks after
# graphs"), differs by a median 13 us per layer over its 22 model x card pairs (11 models, 1.1B to
# 70B; 7B EXL2 4.0 bpw 164 -> 185 t/s on the 3090 Ti). Fitted on those README commits, not on
# eval/calibration/llm.csv rows (which hold the 2024 table, L0647-L0668).
# MLC LLM's builds before mlc_llm.build --use-cuda-graph launched every kernel of a decode step
# from the host: github:mlc-ai/llm-perf-bench README.md measured the same four pairs (Llama-2
# 7B and 13B q4f16_1 on an RTX 3090 Ti and an RTX 4090) with MLC commit 502f680 (Aug 2023, no
# CUDA graph: 167f82b, llm.csv L1984-L1987) and with 8e94910 (Oct 2023, --use-cuda-graph:
# 4dbf648, L1816-L1819): MLC_GRAPH_LAYER_MS per layer is the value that leaves the August rows
# the October rows' median bias (-4%). MLC had no numbered release then; the numbered ones
# (0.1 on) all build with the graph, so a build before it is named as release 0.0
MLC_GRAPH_LAYER_MS = 0.011
# Text Generation Inference before 2.0 decoded without CUDA graphs by default (experimental and
# opt-in from 1.4, github:huggingface/text-generation-inference PR #1428; default from PR #1703,
# 2024-04-04, released in 2.0): every kernel of a layer launched from the Python shard. Fitted
# (median over the rows of the per-layer gap between the measured step and the estimate without
# it) on the 6 TGI 1.0.1 rows of github:eugenesiow/LLM-Insights inference/README.md (llm.csv
# L2032-L2037: A100 SXM 80GB, 7B-70B, 1 and 2 GPUs; per-layer gaps 0.06-0.18 ms, the 0.18 the
# MPT-7B row, a model TGI 1.0 runs outside its flash path). That source's rows time the whole
# request through the chat API, so the value also holds their prefill and HTTP time; checked on
# the one TGI 0.9 row not fitted on (L1794, hamelsmu/llama-inference, RTX A6000): the estimate
# 2.1x its measured speed without it, 1.9x with it (that row stays unexplained: the same
# benchmark's vLLM 0.1 row, L1793, is within 6%)
TGI_GRAPH_LAYER_MS = 0.097
RELEASE_LAYER_MS = {
    "exllamav2": ((0, 1, 9), 0.013),
    "mlc-llm": ((0, 1), MLC_GRAPH_LAYER_MS),
    "tgi": ((2, 0), TGI_GRAPH_LAYER_MS),
}


def release_layer_ms(engine: str, version: str | None) -> float:
    """Extra ms per layer per decode step of `engine` at release `version` (RELEASE_LAYER_MS);
    0 when no release is named or it is as recent as the calculator's fit."""
    found = RELEASE_LAYER_MS.get(engine)
    number = release(version)
    if found is None or number is None or number >= found[0]:
        return 0.0
    return found[1]


# Releases from which an engine captures its decode step in a CUDA graph, the tensor-parallel
# NCCL all-reduces with it. vLLM's came with PR #1926 (github:vllm-project/vllm, merged
# 2023-12-17, first released in 0.2.6). Before it every all-reduce was a torch.distributed call
# issued eagerly by each rank's own Python process (Ray workers): a rendezvous of hosts, not of
# kernels, so the collective's latency is paid EAGER_ALLREDUCE_LATENCY times the link's
# graph-captured latency (interconnect.ALLREDUCE_LATENCY_S). A multiple, not an added time: the
# NCCL proxy and the hosts' handshakes run over the same link. Fitted (median of measured over
# predicted step time, solved for the multiple) on the 8 A10G rows of
# github:mlc-ai/llm-perf-bench README.md@d401356 (vLLM 0.2.0, batch 1, PCIe, tp 2/4/8,
# Llama-2-70B and CodeLlama-34B, fp16 and AWQ: llm.csv L1799-L1801, L1805-L1807, L1809-L1810),
# whose step exceeds the weights' read by ~0.5 ms per layer at 2, 4 and 8 GPUs alike (MLC-LLM on
# the same machines, CUDA graphs, ~0.15 ms: two graph-captured all-reduces). Not fitted on, and
# checked: the RTX 4090 pairs (L1808, L1811) and the Qwen(1) README's vLLM over NVLink on two
# A100s (L0879, dated 2023-11-30, before the graphs). Fitted as 2.75 x 80 us; when the PCIe
# latency was fitted on MLC's rows (80 -> 65 us, calc-2026.12.03a) the multiple became 3.385, the
# same 220 us an eager all-reduce over the A10Gs' PCIe (the fitted rows' estimates unchanged).
CUDA_GRAPHS_SINCE = {"vllm": (0, 2, 6)}
EAGER_ALLREDUCE_LATENCY = 3.385


# Releases from which an engine's tensor-parallel workers get each decode step's inputs over
# NCCL from a driver in the engine's own process. vLLM's came with PR #2221
# (github:vllm-project/vllm "Use NCCL instead of ray for control-plane communication to remove
# serialization overhead", merged 2024-01-03, first released in 0.2.7); before it every step
# was a Ray remote call to each worker actor, its inputs serialised: fixed ms per step on top of
# the engine's step_overhead_ms at tp > 1. Fitted beside EAGER_ALLREDUCE_LATENCY (median of
# measured over predicted) on the class "vLLM decode, multi-GPU" of eval/calibration_classes.py
# (the 11 rows named there: llm-perf-bench's vLLM 0.2.0 on A10G and RTX 4090, L1799-L1811, and
# the Qwen(1) README's Qwen-72B on two A100s, L0879), once the single-stream rows had put
# vLLM's own step at 2 ms.
RAY_DISPATCH_SINCE = {"vllm": (0, 2, 7)}
RAY_DISPATCH_MS = 2.0


def ray_dispatch_ms(engine: str, version: str | None) -> float:
    """Extra ms per decode step of `engine` at release `version` with tensor parallel workers
    driven by Ray calls (a release before RAY_DISPATCH_SINCE); 0 when no release is named."""
    since = RAY_DISPATCH_SINCE.get(engine)
    number = release(version)
    return RAY_DISPATCH_MS if since and number is not None and number < since else 0.0


def eager_collectives(engine: str, version: str | None) -> bool:
    """Whether `engine` at release `version` issues its decode step's all-reduces eagerly (a
    release before CUDA_GRAPHS_SINCE); False when no release is named."""
    since = CUDA_GRAPHS_SINCE.get(engine)
    number = release(version)
    return since is not None and number is not None and number < since


def kv_read_per_query_head(engine: str, version: str | None) -> bool:
    """Whether `engine` at release `version` reads a grouped KV head once per query head in
    decode (a release before GROUPED_KV_READ_SINCE); False when no release is named."""
    since = GROUPED_KV_READ_SINCE.get(engine)
    number = release(version)
    return since is not None and number is not None and number < since


# Sampling penalties (repetition, presence, frequency), ms per sequence per decode step at a
# vocabulary of PENALTY_VOCAB entries, scaled by the model's vocabulary. vLLM's sampler (before
# its CUDA kernel for them, github:vllm-project/vllm PR #18437, 2025-05: "took a long time,
# especially for small models") builds each sequence's prompt and output token ids into padded
# tensors on the host and counts them over the vocabulary ([sequences, vocab] scatters and
# masks) every step, outside the CUDA graph. Fitted beside vLLM's step_overhead_ms on the class
# "vLLM decode (batch 1 / low concurrency)" of eval/calibration_classes.py: the Qwen2.5 speed
# benchmark's vLLM 0.6.3 rows (llm.csv L1084-L1287, 84 rows, A100 80GB, Qwen2.5 0.5B-72B, whose
# script samples with repetition_penalty=0.1, presence and frequency penalties -2.0,
# github:QwenLM/Qwen2.5 examples/speed-benchmark/speed_benchmark_vllm.py) take the same fixed
# step as the three sources that sample without penalties (L0583, L1793, L1795) plus this.
PENALTY_SAMPLER_MS = {"vllm": 2.0}
PENALTY_VOCAB = 151_936


def penalty_sampler_ms(engine: str, vocab_size: int) -> float:
    """Extra ms per sequence per decode step of `engine`'s sampler with sampling penalties on
    (PENALTY_SAMPLER_MS); 0 for an engine without a fitted value."""
    return PENALTY_SAMPLER_MS.get(engine, 0.0) * vocab_size / PENALTY_VOCAB


ENGINE_ALIASES = {
    "transformers": "hf",
    "llamacpp": "llama.cpp",
    "llama-cpp": "llama.cpp",
    "trt": "tensorrt-llm",
    "trt-llm": "tensorrt-llm",
    "tensorrt": "tensorrt-llm",
    "mlc": "mlc-llm",
    "mlc-chat": "mlc-llm",
}


# A serving engine's decode step through a routed MoE layer launches a run of small kernels the
# step waits on (router, top-k, token sort and alignment, the grouped expert GEMMs and their
# activation quantisation, the shared expert): a fixed time per MoE layer beside the bytes read.
# Fitted on the SGLang rows of large MoE models in eval/calibration/llm.csv, the joint median of
# measured / predicted to 1: L1392-L1393 (Qwen3-235B-A22B on 8 and 4 H20s, SGLang 0.4.6) and
# L2217-L2224 (DeepSeek-R1-0528 on 8 H200s, SGLang 0.5.7, 8-64 requests in flight; InferenceX
# issue 870). Without it those rows ran 46% and 37% fast; left out in turn, the Qwen3 rows alone
# fit 0.045 ms (the DeepSeek rows then 15% fast) and the DeepSeek rows alone 0.09 ms (the Qwen3
# rows 23% slow). Not fitted on, and still 2.0-2.6x fast with it: DeepSeek-R1 at one stream on
# 16 H100s over two nodes (SGLang, July 2025, L2207-L2211) and in AWQ on vLLM (L2212-L2216)
MOE_LAYER_MS = 0.055

# FlashMLA's decode kernel computes a sequence's query heads in blocks of 64 (throughput.
# mla_decode_attention_flops): from its kernel, not fitted. The engines whose MLA decode runs it
# (vLLM's default MLA backends on Hopper and its DeepSeek-V3.2 sparse one; SGLang's and
# TensorRT-LLM's own kernels are not held to it here)
MLA_HEAD_TILE = 64
MLA_TILED_ENGINES = ("vllm",)

TENSOR_PARALLEL_ENGINES = ("vllm", "tensorrt-llm", "sglang", "tgi", "lmdeploy", "mlc-llm")


def tensor_parallel(engine: EngineFactors, num_gpus: int, pp: int = 1) -> int:
    """How many ways an engine splits each layer: the serving engines shard tensors across GPUs
    (over num_gpus / pp of them when `pp` pipeline stages are asked); transformers, AutoAWQ,
    ExLlamaV2 and llama.cpp give each GPU whole layers (tp = 1)."""
    return max(1, num_gpus // max(pp, 1)) if engine.name in TENSOR_PARALLEL_ENGINES else 1


def pipeline_stages(engine: EngineFactors, num_gpus: int, pp: int = 1) -> int:
    """Pipeline stages that work on different micro-batches at once: a serving engine's `pp`;
    a layer split (llama.cpp, transformers) runs its GPUs one after the other, so 1."""
    return max(pp, 1) if engine.name in TENSOR_PARALLEL_ENGINES and num_gpus > 1 else 1


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
