"""One estimate: will a model fit on a GPU for a workload, how fast, and at what cost.

`estimate()` resolves names through the catalog, fills in stated defaults, and returns an
Estimate that carries every number's breakdown and assumptions. The solvers search the same
function for the largest context or batch and the fewest GPUs that fit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from advisor.calculator import cost, memory, throughput
from advisor.calculator.factors import FORMULA_VERSION, SPEED_BAND, engine_factors
from advisor.calculator.precision import Precision, get_precision, kv_bytes
from advisor.catalog import Catalog, load_catalog
from advisor.errors import InvalidInput
from advisor.specs import GPU, Model

WORKLOADS = ("inference", "finetune-full", "finetune-lora", "finetune-qlora")
MAX_CONTEXT = 10_000_000
MAX_BATCH = 100_000
MAX_GPUS = 1024


@dataclass(frozen=True)
class Request:
    """What to estimate. None means: use the stated default for this workload."""

    model: str
    gpu: str
    num_gpus: int = 1
    workload: str = "inference"
    precision: str | None = None
    context: int | None = None
    batch: int = 1
    engine: str | None = None
    kv_cache: str | None = None
    optimizer: str = "adamw"
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
    utilisation: float = 1.0


@dataclass(frozen=True)
class Estimate:
    """The answer, with how each number was made."""

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
    decode_tokens_per_s: dict[str, float] | None
    prefill_tokens_per_s: dict[str, float] | None
    time_to_first_token_s: dict[str, float] | None
    train_tokens_per_s: dict[str, float] | None
    cost: dict[str, Any] | None
    serving_tokens_per_s: dict[str, float] | None = None
    serving_batch: int | None = None
    train_hours: dict[str, float] | None = None
    assumptions: list[str] = field(default_factory=list)
    formula_version: str = FORMULA_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def estimate(request: Request, catalog: Catalog | None = None) -> Estimate:
    """Fit, speed and cost for one request; raises InvalidInput / UnknownGPU / ... on bad input."""
    catalog = catalog or load_catalog()
    _validate(request)
    model = catalog.get_model(request.model)
    gpu = catalog.get_gpu(request.gpu)
    assumptions: list[str] = []
    if model.generic:
        assumptions.append(model.notes or "generic model")
    if request.workload == "inference":
        result = _inference(request, model, gpu, assumptions)
    else:
        result = _training(request, model, gpu, assumptions)
    return _with_cost(result, request, catalog)


# ---------------------------------------------------------------- inference


def _default_precision(request: Request) -> Precision:
    if request.precision:
        return get_precision(request.precision)
    default = {"finetune-qlora": "nf4", "inference": "bf16"}.get(request.workload, "bf16")
    engine = engine_factors(request.engine).name if request.engine else None
    if request.workload == "inference" and engine == "llama.cpp":
        default = "q4_k_m"
    return get_precision(default)


def _default_engine(request: Request, precision: Precision) -> str:
    if request.engine:
        return engine_factors(request.engine).name
    if precision.family == "gguf":
        return "llama.cpp"
    if precision.family == "bnb-4bit":
        return "hf"  # bitsandbytes 4-bit runs in transformers
    return "vllm"


def _inference(request: Request, model: Model, gpu: GPU, notes: list[str]) -> Estimate:
    precision = _default_precision(request)
    engine = engine_factors(_default_engine(request, precision))
    if not request.engine:
        notes.append(f"engine not given: {engine.label} assumed for {precision.name}")
    if not request.precision:
        notes.append(f"precision not given: {precision.name} assumed")
    context = request.context or min(4096, model.max_context)
    if not request.context:
        notes.append(f"context not given: {context} tokens assumed")
    if context > model.max_context:
        notes.append(
            f"{context} tokens is beyond {model.name}'s trained context ({model.max_context})"
        )
    kv_type = request.kv_cache or ("fp32" if precision.name == "fp32" else "fp16")
    kv_elem = kv_bytes(kv_type)
    mem = memory.inference_memory(
        model, precision, engine,
        context=context, batch=request.batch, kv_elem_bytes=kv_elem, num_gpus=request.num_gpus,
    )  # fmt: skip
    usable = memory.usable_gb(gpu, engine)
    notes.extend(mem.assumptions)
    notes.append(
        f"usable memory: {gpu.memory_gb:g} GB card holds {memory.capacity_gb(gpu):.1f} GB; "
        f"{engine.label} uses {engine.usable_fraction:.0%} of it"
    )
    decode = throughput.decode_tokens_per_s(
        model, gpu, precision, engine,
        batch=request.batch, context=context, kv_elem_bytes=kv_elem, num_gpus=request.num_gpus,
    )  # fmt: skip
    prefill_s = throughput.prefill_seconds(
        model,
        gpu,
        precision,
        engine,
        prompt=context,
        batch=request.batch,
        num_gpus=request.num_gpus,
    )
    prefill = throughput.Band.around(context * request.batch / prefill_s)
    low, high = SPEED_BAND
    ttft = throughput.Band(prefill_s / high, prefill_s, prefill_s / low)
    output = request.output_tokens or 256
    serving, serving_batch = throughput.serving_tokens_per_s(
        model, gpu, precision, engine, prompt=context, output=output, kv_elem_bytes=kv_elem,
        num_gpus=request.num_gpus,
    )  # fmt: skip
    notes.append(
        f"full-load serving: {serving_batch} concurrent requests of {context} prompt + {output} "
        f"output tokens ({'given' if request.output_tokens else 'assumed'})"
    )
    notes.append(
        f"speed assumes {engine.label}: decode reads weights + KV cache at the card's bandwidth; "
        f"prefill at {throughput.dense_tflops(gpu, precision):g} dense TFLOPS"
        + ("; MoE: active parameters for speed, all parameters for memory" if model.is_moe else "")
    )
    total = mem.total_gb
    return Estimate(
        model=model.id, model_name=model.name, gpu=gpu.id, gpu_name=gpu.name,
        num_gpus=request.num_gpus, workload="inference", precision=precision.name,
        engine=engine.name, context=context, batch=request.batch, fits=total <= usable,
        memory_per_gpu_gb=total, usable_memory_per_gpu_gb=usable, headroom_gb=usable - total,
        breakdown_gb=mem.breakdown_gb, decode_tokens_per_s=decode.to_dict(),
        prefill_tokens_per_s=prefill.to_dict(), time_to_first_token_s=ttft.to_dict(),
        train_tokens_per_s=None, cost=None, assumptions=notes,
        serving_tokens_per_s=serving.to_dict(), serving_batch=serving_batch,
    )  # fmt: skip


# ---------------------------------------------------------------- training


def _training(request: Request, model: Model, gpu: GPU, notes: list[str]) -> Estimate:
    method = request.workload.removeprefix("finetune-")
    precision = _default_precision(request)
    if method == "qlora" and precision.family != "bnb-4bit":
        raise InvalidInput("QLoRA trains on a 4-bit base: use --precision nf4 (the default).")
    if method == "full" and precision.family not in ("float",):
        raise InvalidInput(
            f"Full fine-tuning updates every weight, which {precision.name} cannot hold; "
            "use bf16, fp16 or fp32 (or finetune-qlora for a 4-bit base)."
        )
    seq = request.context or min(2048, model.max_context)
    if not request.context:
        notes.append(f"sequence length not given: {seq} tokens assumed")
    checkpointing = request.checkpointing
    if checkpointing is None:
        checkpointing = method != "lora"
        notes.append(
            "gradient checkpointing not given: " + ("on" if checkpointing else "off") + " assumed"
        )
    zero = request.zero_stage
    if zero is None:
        # several GPUs: shard everything (DeepSpeed ZeRO-3 / FSDP), the usual way to spread a
        # model, frozen LoRA base included, that one GPU cannot hold
        zero = 3 if request.num_gpus > 1 else 0
    mem = memory.training_memory(
        model, method=method, precision=precision, optimizer=request.optimizer, seq=seq,
        batch=request.batch, checkpointing=checkpointing, lora_rank=request.lora_rank,
        lora_targets=request.lora_targets, num_gpus=request.num_gpus, zero_stage=zero,
        tp=request.tp, pp=request.pp,
    )  # fmt: skip
    notes.extend(mem.assumptions)
    usable = memory.training_usable_gb(gpu)
    capacity = memory.capacity_gb(gpu)
    notes.append(
        f"usable memory: {capacity:.1f} GB less {1 - usable / capacity:.0%} "
        "the allocator loses to fragmentation during training"
    )
    speed = throughput.train_tokens_per_s(
        model, gpu, precision, method=method, seq=seq, checkpointing=checkpointing,
        num_gpus=request.num_gpus,
    )  # fmt: skip
    notes.append("training speed: 6 x parameters FLOPs per token (4 x for LoRA), dense BF16 TFLOPS")
    budget = _train_tokens(request)
    hours = None
    if budget:
        hours = {k: budget / v / 3600 for k, v in speed.to_dict().items()}
        hours = {"low": hours["high"], "typical": hours["typical"], "high": hours["low"]}
        notes.append(f"wall time for {budget:,.0f} training tokens")
    total = mem.total_gb
    return Estimate(
        model=model.id, model_name=model.name, gpu=gpu.id, gpu_name=gpu.name,
        num_gpus=request.num_gpus, workload=request.workload, precision=precision.name,
        engine=None, context=seq, batch=request.batch, fits=total <= usable,
        memory_per_gpu_gb=total, usable_memory_per_gpu_gb=usable, headroom_gb=usable - total,
        breakdown_gb=mem.breakdown_gb, decode_tokens_per_s=None, prefill_tokens_per_s=None,
        time_to_first_token_s=None, train_tokens_per_s=speed.to_dict(), cost=None,
        assumptions=notes, train_hours=hours,
    )  # fmt: skip


def _train_tokens(request: Request) -> float | None:
    if request.epochs is not None or request.dataset_tokens is not None:
        if request.epochs is None or request.dataset_tokens is None:
            raise InvalidInput("Give both epochs and dataset tokens (or a total token budget).")
        return request.epochs * request.dataset_tokens
    return request.train_tokens


# ---------------------------------------------------------------- cost


def _with_cost(result: Estimate, request: Request, catalog: Catalog) -> Estimate:
    choice = cost.choose_price(catalog.prices_for(result.gpu), request.offering)
    if choice is None:
        return replace(result, assumptions=[*result.assumptions, "no rental price on record"])
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
    speed = result.train_tokens_per_s or result.decode_tokens_per_s
    if speed:
        costs["usd_per_million_tokens"] = cost.cost_per_million_tokens_usd(
            price, result.num_gpus, speed["typical"]
        )
    if result.train_hours:
        hours = result.train_hours["typical"]
        costs["job_hours"] = hours
        costs["usd_per_job"] = cost.job_cost_usd(price, result.num_gpus, hours)
    note = (
        f"price: median of {choice.count} current {request.offering} prices "
        f"(${choice.low_usd:.2f}-${choice.high_usd:.2f}/GPU-h); "
        f"median row {choice.price.provider}, {choice.price.date}"
    )
    return replace(result, cost=costs, assumptions=[*result.assumptions, note])


# ---------------------------------------------------------------- solvers


def max_context(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The longest context that fits, up to the model's trained context; None if none fits."""
    limit = (catalog or load_catalog()).get_model(request.model).max_context
    best = _search(request, "context", 1, limit, catalog)
    if best is not None and best.context == limit:
        note = f"the model's trained context ({limit:,} tokens) is the limit, not memory"
        best = replace(best, assumptions=[*best.assumptions, note])
    return best


def max_batch(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The largest batch that fits, or None if batch 1 does not."""
    return _search(request, "batch", 1, MAX_BATCH, catalog)


def min_gpus(request: Request, catalog: Catalog | None = None) -> Estimate | None:
    """The fewest GPUs (1 to 1024) that fit, or None."""
    for n in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
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


def _validate(request: Request) -> None:
    if request.workload not in WORKLOADS:
        raise InvalidInput(
            f"Unknown workload {request.workload!r}; use one of {', '.join(WORKLOADS)}."
        )
    checks = (
        ("num_gpus", request.num_gpus, 1, MAX_GPUS),
        ("batch", request.batch, 1, MAX_BATCH),
        ("lora_rank", request.lora_rank, 1, 4096),
        ("tp", request.tp, 1, MAX_GPUS),
        ("pp", request.pp, 1, MAX_GPUS),
    )
    for name, value, low, high in checks:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InvalidInput(
                f"{name} must be a whole number from {low} to {high} (got {value!r})."
            )
    if request.context is not None and not (
        isinstance(request.context, int) and 1 <= request.context <= MAX_CONTEXT
    ):
        raise InvalidInput(
            f"context must be from 1 to {MAX_CONTEXT:,} tokens (got {request.context!r})."
        )
    if request.lora_targets not in memory.LORA_TARGETS:
        raise InvalidInput(f"LoRA targets must be one of {', '.join(memory.LORA_TARGETS)}.")
    for name in ("train_tokens", "epochs", "dataset_tokens"):
        value = getattr(request, name)
        if value is not None and not (isinstance(value, int | float) and 0 < value < 1e16):
            raise InvalidInput(
                f"{name.replace('_', ' ')} must be a positive number (got {value!r})."
            )
    if request.output_tokens is not None and not 1 <= request.output_tokens <= MAX_CONTEXT:
        raise InvalidInput(f"output tokens must be from 1 to {MAX_CONTEXT:,}.")
