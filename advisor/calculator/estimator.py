"""One estimate: will a model fit on a GPU for a workload, how fast, and at what cost.

`estimate()` resolves names through the catalog, fills in stated defaults, and returns an
Estimate that carries every number's breakdown and assumptions. The solvers search the same
function for the largest context or batch and the fewest GPUs that fit.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from advisor.calculator import cost, interconnect, memory, throughput
from advisor.calculator.base import Estimate, Family, Request, validate_choice
from advisor.calculator.factors import TENSOR_PARALLEL_ENGINES
from advisor.calculator.families import FAMILIES, find_model
from advisor.calculator.host import CPU
from advisor.calculator.interconnect import NODE_GPUS
from advisor.catalog import Catalog, load_catalog
from advisor.errors import InvalidInput

MAX_CONTEXT = 10_000_000
MAX_BATCH = 100_000
MAX_GPUS = 16384  # a pre-training cluster's size (Meta trained Llama 3 405B on 16K H100s)
# the range of every numeric input (the REST schema reads it too); None means: not given
LIMITS: dict[str, tuple[float, float]] = {
    "num_gpus": (1, MAX_GPUS),
    "nodes": (1, MAX_GPUS),
    "batch": (1, MAX_BATCH),
    "lora_rank": (1, 4096),
    "tp": (1, MAX_GPUS),
    "pp": (1, MAX_GPUS),
    "context": (1, MAX_CONTEXT),
    "output_tokens": (1, MAX_CONTEXT),
    "train_tokens": (1, 1e16),
    "epochs": (0, 1e6),
    "dataset_tokens": (1, 1e16),
    "dataset_samples": (1, 1e13),
    "images": (1, 1e12),
    "audio_hours": (0, 1e9),
    "resolution": (64, 8192),
    "steps": (1, 1_000_000),  # a sampler's steps, or a diffusion training run's
    "beam_size": (1, 64),
    "gpu_layers": (0, 10_000),
    "ram_gb": (1, 1e5),
}
REQUIRED = ("num_gpus", "batch", "lora_rank", "tp", "pp", "nodes")
WHOLE = ("num_gpus", "nodes", "batch", "lora_rank", "tp", "pp", "context", "output_tokens",
         "resolution", "steps", "beam_size", "gpu_layers")  # fmt: skip
# yes/no options; None means: the default of the family or framework
SWITCHES = ("checkpointing", "mixed_precision", "optimizer_in_backward", "chunked_loss",
            "activation_offload", "torch_compile", "fused_optimizer", "offload_optimizer",
            "offload_param")  # fmt: skip


def estimate(request: Request, catalog: Catalog | None = None) -> Estimate:
    """Fit, speed and cost for one request; raises InvalidInput / UnknownGPU / ... on bad input.

    The model decides the workload family (families.py); the family makes the estimate and
    this adds the cost from dated, sourced prices."""
    catalog = catalog or load_catalog()
    fam, model = find_model(request.model, catalog)
    _validate(request, fam)
    if request.gpu == CPU:  # "llama.cpp on a 7950X", "whisper with no GPU": system RAM alone
        if fam.cpu_estimate is None:
            on_cpu = " and ".join(f.label for f in FAMILIES.values() if f.cpu_estimate)
            raise InvalidInput(
                f"On a CPU alone the calculator runs {on_cpu} models, not {fam.label} models."
            )
        return fam.cpu_estimate(request, model)
    gpu = catalog.get_gpu(request.gpu)
    result = fam.estimate(request, model, gpu, catalog, [])
    if request.reserved_gb:
        result = _kept_for_other_work(result, request.reserved_gb)
    if gpu.generic:  # only its memory is known: the fit stands, no speed, no price
        speeds: dict[str, Any] = {m.key: None for group in fam.metrics.values() for m in group}
        note = f"{gpu.name}: only its memory is known, so no speed or cost is estimated"
        return replace(result, **speeds, job_hours=None, train_hours=None,
                       assumptions=[*result.assumptions, note])  # fmt: skip
    return _with_cost(result, request, catalog)


def _kept_for_other_work(result: Estimate, reserved_gb: float) -> Estimate:
    """The estimate with `reserved_gb` of each card kept for other work: less usable memory, and
    the fit judged on what is left. (A serving engine's batch that fills the card is sized on
    the whole card: at full load it holds fewer requests than the figure says.)"""
    usable = max(0.0, result.usable_memory_per_gpu_gb - reserved_gb)
    note = f"{reserved_gb:g} GB of each card kept for other work, as said"
    return replace(result, usable_memory_per_gpu_gb=usable, headroom_gb=usable -
                   result.memory_per_gpu_gb, fits=result.memory_per_gpu_gb <= usable,
                   reserved_gb=reserved_gb, assumptions=[*result.assumptions, note])  # fmt: skip


# ---------------------------------------------------------------- cost


def _with_cost(result: Estimate, request: Request, catalog: Catalog) -> Estimate:
    rows = catalog.prices_for(result.gpu, provider=request.provider)  # "on aws": that cloud's
    choice = cost.choose_price(rows, request.offering)
    if choice is None:
        at = f" on {request.provider}" if request.provider else ""
        return replace(result, assumptions=[*result.assumptions, f"no rental price{at} on record"])
    price = choice.median_usd
    costs: dict[str, Any] = {
        "usd_per_gpu_hour": price,
        "usd_per_gpu_hour_range": [choice.low_usd, choice.high_usd],
        "prices_considered": choice.count,
        "price_source": choice.price.source,
        "price_date": choice.price.date,
        "price_provider": choice.price.provider,
        "usd_per_hour": price * result.num_gpus,
        "usd_per_month": cost.monthly_cost_usd(price, result.num_gpus, request.utilisation),
        "utilisation": request.utilisation,
    }
    if request.provider:  # what the answer says the price is
        costs["basis"] = f"{choice.price.provider}'s median of {choice.count} current prices"
    for metric in FAMILIES[result.family].metrics.get(result.workload, ()):
        band = getattr(result, metric.key)
        if metric.cost_per and band:  # the first metric with a unit of work prices the work
            label, units = metric.cost_per
            costs["usd_per_unit"] = cost.cost_per_units_usd(
                price, result.num_gpus, band["typical"], units
            )
            costs["cost_unit"] = label
            if label == "per million tokens":  # the LLM key scripts have read since 0.1
                costs["usd_per_million_tokens"] = costs["usd_per_unit"]
            break
    if result.job_hours:
        hours = result.job_hours["typical"]
        costs["job_hours"] = hours
        costs["job_gpu_hours"] = hours * result.num_gpus  # what an allocation is counted in
        costs["usd_per_job"] = cost.job_cost_usd(price, result.num_gpus, hours)
    note = (
        f"price: median of {choice.count} current {request.offering} prices "
        f"(${choice.low_usd:.2f}-${choice.high_usd:.2f}/GPU-h); "
        f"median row {choice.price.provider}, {choice.price.date}"
        + (f" ({request.provider}'s prices only)" if request.provider else "")
    )
    return replace(result, cost=costs, assumptions=[*result.assumptions, note])


# ---------------------------------------------------------------- solvers


def max_context(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The longest context that fits, up to the model's trained context; None if none fits."""
    fam, model = find_model(request.model, catalog or load_catalog())
    if fam.name != "llm":
        raise InvalidInput(f"The longest context applies to language models, not {model.name}.")
    limit = model.max_context
    best = _search(request, "context", 1, limit, catalog)
    if best is not None and best.context == limit:
        note = f"the model's trained context ({limit:,} tokens) is the limit, not memory"
        best = replace(best, assumptions=[*best.assumptions, note])
    return best


def max_batch(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The largest batch that fits, or None if batch 1 does not."""
    return _search(request, "batch", 1, MAX_BATCH, catalog)


def min_gpus(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The fewest GPUs (1 to 1024) that fit, or None. Within a node, engines that shard each
    layer (vLLM, TensorRT-LLM ...) and tensor- or pipeline-parallel training take powers of two,
    the splits a head count divides; an engine that gives each GPU whole layers (llama.cpp,
    transformers) takes any count up to 16 ("three 3090s hold a 72B at Q4_K_M"), and training
    sharded by ZeRO or FSDP any count up to a node (they shard over any number of ranks).
    Beyond one node, whole nodes of 8 up to 128 GPUs (three nodes serve as three pipeline
    stages, train as 24 data-parallel ranks), then powers of two."""
    first = estimate(replace(request, num_gpus=1), catalog)
    if first.fits:
        return first
    counts: tuple[int, ...] = (2, 4, 8)
    layers_split = first.engine and first.engine not in TENSOR_PARALLEL_ENGINES
    if first.workload == "inference" and first.family == "llm" and layers_split:
        counts = tuple(range(2, 2 * NODE_GPUS + 1))
    elif first.workload != "inference" and request.tp * request.pp == 1:
        counts = tuple(range(2, NODE_GPUS + 1))  # ZeRO or FSDP shards over any count of ranks
    nodes = [n for n in range(2 * NODE_GPUS, 128 + 1, NODE_GPUS) if n > counts[-1]]
    for n in (*counts, *nodes, 256, 512, 1024):
        result = estimate(replace(request, num_gpus=n), catalog)
        if result.fits:
            return result
    return None


def _search(
    request: Request, name: str, low: int, high: int, catalog: Catalog | None
) -> Estimate | None:
    best = None
    while low <= high:
        mid = (low + high) // 2
        trial = replace(request, context=mid) if name == "context" else replace(request, batch=mid)
        result = estimate(trial, catalog)
        if result.fits:
            best, low = result, mid + 1
        else:
            high = mid - 1
    return best


def _validate(request: Request, fam: Family) -> None:
    if request.workload not in fam.workloads:
        raise InvalidInput(
            f"The calculator does not estimate {request.workload!r} for {fam.label} models; "
            f"it covers {', '.join(fam.workloads)} for them."
        )
    if request.engine is not None and fam.name != "llm":  # LLM engine names have aliases
        validate_choice(request.engine, fam.engines, f"engine for {fam.label} models")
    for name, (low, high) in LIMITS.items():
        value = getattr(request, name)
        if value is None and name not in REQUIRED:
            continue
        whole = name in WHOLE
        kind = (int,) if whole else (int, float)
        if (
            not isinstance(value, kind)
            or isinstance(value, bool)
            or not low <= value <= high
            or (not whole and not value > 0)
        ):
            what = "a whole number" if whole else "a number"
            raise InvalidInput(
                f"{name.replace('_', ' ')} must be {what} from {low:,} to {high:,} (got {value!r})."
            )
    for name in SWITCHES:
        if getattr(request, name) not in (None, True, False):
            raise InvalidInput(f"{name.replace('_', ' ')} must be true, false or not given.")
    if request.num_gpus % request.nodes:
        raise InvalidInput(
            f"{request.num_gpus} GPUs do not split evenly over {request.nodes} nodes."
        )
    if request.network is not None and request.network not in interconnect.NETWORKS:
        raise InvalidInput(
            f"Unknown network {request.network!r}; use one of {', '.join(interconnect.NETWORKS)}."
        )
    if request.lora_targets not in memory.LORA_TARGETS:
        raise InvalidInput(f"LoRA targets must be one of {', '.join(memory.LORA_TARGETS)}.")
    offloads = fam.offloads
    if request.offload is not None and request.offload not in offloads:
        raise InvalidInput(
            f"offload for {fam.label} models must be one of {', '.join(offloads)} "
            f"(got {request.offload!r})."
            if offloads
            else f"The calculator has no CPU offload for {fam.label} models."
        )
    versions = throughput.AWQ_TOKENS_PER_UNPACK
    if request.awq_version not in (None, *versions):
        raise InvalidInput(
            f"AWQ version must be one of {', '.join(versions)} (got {request.awq_version!r})."
        )
