"""`gpu-advisor gpus`, `models` and `prices`: the catalog, straight from the data files.

These import nothing heavier than PyYAML, click and rich, so they answer in a fraction of a second.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from advisor.calculator.families import FAMILIES, find_model, models_of
from advisor.catalog import SEGMENTS, load_catalog
from advisor.cli.additions import gpus_add, models_add
from advisor.cli.render import fmt, print_json, short_source, table
from advisor.specs import GPU, Model

# (field, label, unit) rows of `gpus show` / `gpus compare`, in reading order.
GPU_ROWS: tuple[tuple[str, str, str], ...] = (
    ("vendor", "Vendor", ""),
    ("architecture", "Architecture", ""),
    ("chip", "Chip", ""),
    ("segment", "Segment", ""),
    ("memory_gb", "Memory", "GB"),
    ("memory_type", "Memory type", ""),
    ("bandwidth_gbs", "Memory bandwidth", "GB/s"),
    ("fp16_bf16_dense_tflops", "FP16/BF16 tensor, dense", "TFLOPS"),
    ("fp16_bf16_sparse_tflops", "FP16/BF16 tensor, 2:4 sparse", "TFLOPS"),
    ("fp8_dense_tflops", "FP8 tensor, dense", "TFLOPS"),
    ("int8_dense_tops", "INT8 tensor, dense", "TOPS"),
    ("tf32_dense_tflops", "TF32 tensor, dense", "TFLOPS"),
    ("fp32_tflops", "FP32 (non-tensor)", "TFLOPS"),
    ("fp64_tflops", "FP64", "TFLOPS"),
    ("cuda_cores", "CUDA cores / stream processors", ""),
    ("tensor_cores", "Tensor / matrix cores", ""),
    ("tdp_w", "Max board power", "W"),
    ("interconnect", "Interconnect", ""),
    ("interconnect_gbs", "GPU-to-GPU bandwidth", "GB/s"),
    ("mig_max_instances", "MIG instances", ""),
    ("form_factor", "Form factor", ""),
    ("release_year", "Released", ""),
    ("confidence", "Confidence", ""),
)

MODEL_ROWS: tuple[tuple[str, str, str], ...] = (
    ("family", "Family", ""),
    ("architecture", "Architecture", ""),
    ("total_params", "Parameters (total)", ""),
    ("active_params", "Parameters (active per token)", ""),
    ("num_layers", "Layers", ""),
    ("hidden_size", "Hidden size", ""),
    ("num_attention_heads", "Attention heads", ""),
    ("num_kv_heads", "KV heads", ""),
    ("head_dim", "Head dim", ""),
    ("attention_type", "Attention", ""),
    ("intermediate_size", "MLP intermediate size", ""),
    ("num_experts", "Experts", ""),
    ("experts_per_token", "Experts per token", ""),
    ("kv_lora_rank", "MLA KV rank", ""),
    ("vocab_size", "Vocabulary", ""),
    ("tie_word_embeddings", "Tied embeddings", ""),
    ("max_context", "Max context", "tokens"),
    ("sliding_window", "Sliding window", "tokens"),
    ("kv_cache_bytes_per_token_bf16", "KV cache per token (bf16)", "bytes"),
    ("license", "License", ""),
    ("hf_repo", "Hugging Face repo", ""),
    ("confidence", "Confidence", ""),
)


def _params_b(model: Model) -> str:
    return f"{model.total_params / 1e9:.2f}B"


# ---------------------------------------------------------------- gpus


@click.group()
def gpus() -> None:
    """GPU datasheets: list, show, compare, add."""


@gpus.command("list")
@click.option("--vendor", help="NVIDIA, AMD or Intel.")
@click.option("--segment", type=click.Choice(SEGMENTS, case_sensitive=False))
@click.option("--min-memory", type=click.FloatRange(min=0), help="At least this many GB.")
@click.option("--max-memory", type=click.FloatRange(min=0), help="At most this many GB.")
@click.option("--architecture", help="e.g. Hopper, Ampere, 'Ada Lovelace'.")
@click.option(
    "--sort",
    type=click.Choice(["catalog", "memory", "bandwidth", "tflops", "name"]),
    default="catalog",
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def gpus_list(
    vendor: str | None,
    segment: str | None,
    min_memory: float | None,
    max_memory: float | None,
    architecture: str | None,
    sort: str,
    as_json: bool,
) -> None:
    """List GPUs, optionally filtered."""
    found = load_catalog().list_gpus(
        vendor=vendor,
        segment=segment,
        min_memory_gb=min_memory,
        max_memory_gb=max_memory,
        architecture=architecture,
    )
    sort_keys = {
        "memory": lambda g: -g.memory_gb,
        "bandwidth": lambda g: -g.bandwidth_gbs,
        "tflops": lambda g: -(g.fp16_bf16_dense_tflops or 0),
        "name": lambda g: g.name.lower(),
    }
    if sort in sort_keys:
        found.sort(key=sort_keys[sort])
    if as_json:
        print_json([g.to_dict() for g in found])
        return
    rows = [
        (
            g.id,
            g.name,
            fmt(g.memory_gb),
            fmt(g.bandwidth_gbs),
            fmt(g.fp16_bf16_dense_tflops),
            fmt(g.tdp_w),
            g.segment,
        )
        for g in found
    ]
    columns = ("id", "name", "GB", "GB/s", "BF16 TFLOPS", "W", "segment")
    table(f"{len(found)} GPUs", columns, rows)


@gpus.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def gpus_show(name: str, as_json: bool) -> None:
    """Show one GPU's datasheet values and their source."""
    gpu = load_catalog().get_gpu(name)
    if as_json:
        print_json(gpu.to_dict())
        return
    rows = [(label, fmt(getattr(gpu, f), unit)) for f, label, unit in GPU_ROWS]
    rows += [("Aliases", ", ".join(gpu.aliases)), ("Notes", gpu.notes or "-")]
    rows.append(("Source", gpu.source))
    table(f"{gpu.name} ({gpu.id})", ("field", "value"), rows)


@gpus.command("compare")
@click.argument("names", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def gpus_compare(names: tuple[str, ...], as_json: bool) -> None:
    """Compare two or more GPUs side by side."""
    if len(names) < 2:
        raise click.UsageError("Give at least two GPUs to compare.")
    catalog = load_catalog()
    found: list[GPU] = [catalog.get_gpu(n) for n in names]
    if as_json:
        print_json([g.to_dict() for g in found])
        return
    rows = [
        (f"{label} ({unit})" if unit else label, *(fmt(getattr(g, f)) for g in found))
        for f, label, unit in GPU_ROWS
    ]
    table("GPU comparison (datasheet values)", ("", *(g.name for g in found)), rows)


# ---------------------------------------------------------------- models


@click.group()
def models() -> None:
    """Model architectures of every workload family: list, show, add."""


@models.command("list")
@click.option("--family", help="e.g. 'Llama 3', Qwen3, Gemma.")
@click.option("--workload-family", "workload_family",
              type=click.Choice(list(FAMILIES)), help="llm, vision, transformer, ...")  # fmt: skip
@click.option("--min-params", type=click.FloatRange(min=0), help="At least this many billion.")
@click.option("--max-params", type=click.FloatRange(min=0), help="At most this many billion.")
@click.option("--moe/--dense", default=None, help="Only mixture-of-experts, or only dense.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def models_list(
    family: str | None,
    workload_family: str | None,
    min_params: float | None,
    max_params: float | None,
    moe: bool | None,
    as_json: bool,
) -> None:
    """List the models of every workload family (LLMs, image, BERT-style, diffusion, speech),
    optionally filtered."""
    catalog = load_catalog()
    llm_only = family is not None or moe is not None
    found: list[tuple[str, Any]] = []
    for fam in FAMILIES.values():
        if workload_family not in (None, fam.name) or (llm_only and fam.name != "llm"):
            continue
        if fam.name == "llm":
            rows = catalog.list_models(family=family, min_params_b=min_params,
                                       max_params_b=max_params, moe=moe)  # fmt: skip
        else:
            rows = [m for m in models_of(catalog, fam).values()
                    if _within(_size(m), min_params, max_params)]  # fmt: skip
        found += [(fam.name, m) for m in rows]
    if as_json:
        print_json([{"workload_family": f, **m.to_dict()} for f, m in found])
        return
    table_rows = [(m.id, f, f"{_size(m) / 1e9:.3g}B" if _size(m) else "-", m.name)
                  for f, m in found]  # fmt: skip
    table(f"{len(found)} models", ("id", "family", "params", "name"), table_rows)


def _size(model: Any) -> float:
    for name in ("total_params", "params", "denoiser_params"):
        if getattr(model, name, None):
            return float(getattr(model, name))
    return 0.0


def _within(size: float, low_b: float | None, high_b: float | None) -> bool:
    return (low_b is None or size >= low_b * 1e9) and (high_b is None or size <= high_b * 1e9)


@models.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def models_show(name: str, as_json: bool) -> None:
    """Show one model's architecture, of any family (or a generic size such as '13b')."""
    fam, model = find_model(name, load_catalog())
    if fam.name != "llm":
        data = {"workload_family": fam.name, **dataclasses.asdict(model)}
        if as_json:
            print_json(data)
            return
        shown = [(k, fmt(v)) for k, v in data.items() if v is not None and k != "aliases"]
        table(f"{model.name} ({model.id}, {fam.label})", ("field", "value"), shown)
        return
    if as_json:
        print_json(model.to_dict())
        return
    rows = [(label, fmt(getattr(model, f), unit)) for f, label, unit in MODEL_ROWS]
    rows += [("Notes", model.notes or "-"), ("Source", model.source)]
    table(f"{model.name} ({model.id}, {_params_b(model)})", ("field", "value"), rows)


# ---------------------------------------------------------------- prices


@click.command("prices")
@click.argument("gpu_name", metavar="GPU")
@click.option("--offering", help="on-demand, spot, reserved, managed, serverless ...")
@click.option(
    "--class",
    "provider_class",
    type=click.Choice(["hyperscaler", "gpu-cloud", "marketplace", "article"]),
    help="Kind of provider.",
)
@click.option("--all", "show_all", is_flag=True, help="Include older and unreliable rows.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def prices(
    gpu_name: str, offering: str | None, provider_class: str | None, show_all: bool, as_json: bool
) -> None:
    """Rental prices for one GPU in USD per GPU-hour, each with its date and source."""
    catalog = load_catalog()
    gpu = catalog.get_gpu(gpu_name)
    rows = catalog.prices_for(gpu.id, estimates_only=not show_all, latest_only=not show_all)
    if offering:
        rows = [p for p in rows if p.offering == offering.lower()]
    if provider_class:
        rows = [p for p in rows if p.provider_class == provider_class]
    if as_json:
        print_json({"gpu": gpu.id, "prices": [p.to_dict() for p in rows]})
        return
    if not rows:
        if catalog.prices_for(gpu.id, estimates_only=False, latest_only=False):
            click.echo(f"No prices for {gpu.name} match; try --all or another offering.")
        else:
            click.echo(f"The price table has no rental prices for {gpu.name}.")
        return
    table_rows = [
        (
            p.provider,
            p.offering,
            f"${p.usd_per_gpu_hour:.2f}"
            + (f"-{p.usd_per_gpu_hour_max:.2f}" if p.usd_per_gpu_hour_max else ""),
            p.instance or "-",
            p.date,
            short_source(p.source),
        )
        for p in rows
    ]
    columns = ("provider", "offering", "$/GPU-h", "instance", "date", "source")
    low, high = min(p.usd_per_gpu_hour for p in rows), max(p.usd_per_gpu_hour for p in rows)
    table(
        f"{gpu.name}: {len(rows)} prices, ${low:.2f} to ${high:.2f} per GPU-hour",
        columns,
        table_rows,
    )
    click.echo("Prices move fast: check the date and the source before you spend.")


gpus.add_command(gpus_add)
models.add_command(models_add)
