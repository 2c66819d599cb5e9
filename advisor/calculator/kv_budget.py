"""The KV-cache budget: what one GPU leaves a serving engine's KV cache. Pure functions.

vLLM sizes its cache once, at start-up (EngineFactors.profiles_memory). It takes
gpu_memory_utilization of the card's total as CUDA reports it (memory.cuda_total_gb), then
subtracts:
- the weights;
- the memory outside PyTorch's allocator (CUDA context, NCCL buffers);
- the activation peak of a dummy forward it profiles;
- from 0.21 on, an estimate of the CUDA graphs it will capture.
What is left is the KV cache. Every start-up log in eval/calibration/vllm_kv_capacity.csv that
prints all of these figures (K001, K003, K011-K014, K022, K024-K029) closes that sum to 0.01 GiB.
The write-up beside it (vllm_kv_capacity.md) derives the constants below.

Other engines keep the calculator's older budget: their usable share of the card, less the
weights and their CUDA context (EngineFactors.usable_fraction, cuda_context_gb).
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.calculator.factors import EngineFactors, release
from advisor.calculator.memory import GB, GIB, cuda_total_gb, usable_gb, weight_bytes
from advisor.calculator.precision import Precision
from advisor.specs import GPU, Model

# Memory outside PyTorch's allocator, per GPU (vLLM's "non_torch_memory"). On one GPU it is the
# median of K003, K011, K012, K022, K025-K027 and K029 (0.03-0.16 GiB). The 1.79 GiB of K001 came
# from a development build of the profiler, and K020 shared its GPU with a training job. With
# NCCL between GPUs it is the median of K013 (0.30, TP 2), K014 (0.43, the driver rank of TP 4),
# K024 (0.55, TP 2) and K028 (0.54, TP 2).
NON_TORCH_GIB = 0.13
NON_TORCH_MULTI_GPU_GIB = 0.49
# The activation peak of the profiled forward depends on the engine's generation:
# - V0 (before 0.8) profiled max_num_batched_tokens over max_num_seqs, with logits only for each
#   sequence's last token. That is about 1.26 GiB for 7B-32B text models whatever their
#   vocabulary: K001 and K002 (Llama-3-8B, TP 1 and 2) and K013 (Qwen2.5-32B, TP 2) print 1.26,
#   and K012 (Qwen2.5-7B) prints 1.42; the median is 1.26. K011 (9.37) ran unstated batch flags
#   and is left out, as are the vision models K003 and K014.
# - V1, vLLM's default engine from 0.8.0 (its v1_user_guide, vllm PR #15064), adds a dummy
#   sampler run over max_num_seqs rows of full-vocabulary fp32 logits to its profile (vllm
#   PR #15357, where its maintainers say so). The peak then grows with max_num_seqs x the
#   vocabulary. On the H100 rows (K022-K028, vLLM's default of 1024 sequences there) it is the
#   same per vocabulary entry at hidden size 1024 and 5120, at TP 1 and 2, and at max_model_len
#   16k and 32k. The bytes per entry are the median of K022/K023 (39,407), K024 (40,520), K025
#   (39,850), K026 (39,293) and K027/K028 (39,858), here per sequence of the 1024. The one
#   multimodal row, K029 (17.4 KB per entry), is not a text model's.
# vLLM's default max_num_seqs is 1024 on a card whose CUDA total is at least 70 GiB and that is
# not an A100, and 256 on the others (vllm/engine/arg_utils.py: PR #16158 set 256 for all but
# the large cards, because V1's 1024 ran small cards out of memory; PR #17885 put the A100 with
# the small cards). So on an A100 or a consumer card the sampler's part is a quarter. A derived
# check, not fitted: K018 and K019 (V1 on 80 GB A100s, MoE models) leave 1.21 and 1.28 GiB
# beside their weights and KV cache, where this model holds back 2.0 and 2.6 GiB. It is
# cautious there by about 1 GiB, but it is nowhere near the 7.5-9.7 GiB of the H100 figure.
V0_ACTIVATION_GIB = 1.26
V1_SINCE = (0, 8)
V1_ACTIVATION_BYTES_PER_VOCAB = 39_850  # at 1024 sequences (K022-K028)
V1_MAX_NUM_SEQS = {"large": 1024, "small": 256}
LARGE_CARD_GIB = 70
# From 0.21 vLLM subtracts an estimate of its CUDA graphs before the KV cache. vLLM's own log
# says the estimate is "default since v0.21.0" (vLLM 0.27.1's start-up in gpustack/runner
# PR #251). Before that the graphs were captured after the budget was set, so actual use went
# above gpu_memory_utilization (the capture columns of K022-K029, -0.88 to +1.03 GiB, are not
# in those rows' budgets). No row gives the estimate. The value here is a round figure
# between the 0.36 GiB vLLM 0.27.1 estimated in that log and the 0.65 GiB that gemma-3-4b's
# graphs took in vllm PR #21489. It lies inside the write-up's 0.4-1 GiB.
CUDAGRAPH_ESTIMATE_SINCE = (0, 21)
CUDAGRAPH_ESTIMATE_GIB = 0.5
# Where the default gpu_memory_utilization leaves no room, people raise it: K029 (the llm-d
# Mistral-Small start-up) ran at 0.95, the highest share a start-up row shows. A request that
# fits only there is answered as fitting with that setting named (Estimate.engine_setting).
RAISED_UTILIZATION = 0.95


@dataclass(frozen=True)
class KVBudget:
    """One GPU's memory as a serving engine divides it before its KV cache, in decimal GB."""

    usable_gb: float  # the share of the card the engine lets itself use
    weights_gb: float  # this GPU's share of the weights
    non_torch_gb: float  # outside PyTorch's allocator (vLLM), or the engine's CUDA context
    activation_gb: float  # the profiled activation peak kept free (0 where none is profiled)
    cudagraph_gb: float  # the CUDA-graph estimate set aside (vLLM 0.21 and later)
    profiled: bool  # whether the engine sizes its cache from a start-up profile (vLLM)
    utilization: float = 0.0  # the gpu_memory_utilization it was sized at (profiled engines)

    @property
    def overhead_gb(self) -> float:
        """What the engine holds beside its weights, its KV cache and its activations."""
        return self.non_torch_gb + self.cudagraph_gb

    @property
    def kv_gb(self) -> float:
        """What is left for the KV cache (negative: the engine does not start)."""
        return self.usable_gb - self.weights_gb - self.overhead_gb - self.activation_gb


def kv_budget(
    model: Model,
    gpu: GPU,
    precision: Precision,
    engine: EngineFactors,
    *,
    num_gpus: int = 1,
    engine_version: str | None = None,
    utilization: float | None = None,
) -> KVBudget:
    """What each GPU of `num_gpus` holds back before `engine`'s KV cache, and what it leaves.
    The fit check (memory.inference_memory with this budget) and the serving pool
    (throughput.serving_tokens_per_s) both read it. `engine_version` picks the vLLM release
    modelled; none given means the current one. `utilization`: a gpu_memory_utilization other
    than the engine's default (RAISED_UTILIZATION where the default leaves no room)."""
    weights = weight_bytes(model, precision) / num_gpus / GB
    if not engine.profiles_memory:
        return KVBudget(usable_gb(gpu, engine), weights, engine.cuda_context_gb, 0.0, 0.0, False)
    non_torch = NON_TORCH_MULTI_GPU_GIB if num_gpus > 1 else NON_TORCH_GIB
    number = release(engine_version)
    if number is not None and number < V1_SINCE:
        activation = V0_ACTIVATION_GIB * GIB
    else:  # the full vocabulary's logits on every GPU: not split by tensor parallel (K024, K028)
        share = default_max_num_seqs(gpu) / V1_MAX_NUM_SEQS["large"]
        activation = V1_ACTIVATION_BYTES_PER_VOCAB * model.vocab_size * share
    graphs = CUDAGRAPH_ESTIMATE_GIB if number is None or number >= CUDAGRAPH_ESTIMATE_SINCE else 0
    used = utilization or engine.usable_fraction
    return KVBudget(
        usable_gb(gpu, engine, used), weights, non_torch * GIB / GB, activation / GB,
        graphs * GIB / GB, True, used,
    )  # fmt: skip


def default_max_num_seqs(gpu: GPU) -> int:
    """The max_num_seqs vLLM (V1) picks for the card when none is given."""
    large = cuda_total_gb(gpu) * GB / GIB >= LARGE_CARD_GIB and "a100" not in gpu.name.lower()
    return V1_MAX_NUM_SEQS["large" if large else "small"]


def budget_note(budget: KVBudget, gpu: GPU, engine: EngineFactors, version: str | None) -> str:
    """How a profiling engine arrived at its KV cache, for the assumptions."""
    number = release(version)
    release_said = f" {version}" if version else " (a current release)"
    sampler = (
        "" if number is not None and number < V1_SINCE
        else f", its sampler sized for {default_max_num_seqs(gpu)} sequences"
    )  # fmt: skip
    graphs = f", {budget.cudagraph_gb:.2f} GB for its CUDA graphs" if budget.cudagraph_gb else ""
    return (
        f"{engine.label}{release_said} takes gpu_memory_utilization {budget.utilization:g} "
        f"of the {cuda_total_gb(gpu) * GB / GIB:.2f} GiB CUDA reports on "
        f"{'' if gpu.generic else 'the '}{gpu.name} ({budget.usable_gb * GB / GIB:.1f} GiB, "
        f"{budget.usable_gb:.1f} GB). Before its KV cache it holds back the weights "
        f"({budget.weights_gb:.2f} GB), {budget.non_torch_gb:.2f} GB outside PyTorch and "
        f"the {budget.activation_gb:.2f} GB activation peak of its start-up profile{sampler}"
        f"{graphs}. That leaves {budget.kv_gb:.2f} GB for the KV cache (kv_budget.py)"
    )
