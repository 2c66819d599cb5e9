"""`gpu-advisor estimate`: fit, speed and cost for a model on a GPU, and the solvers."""

from __future__ import annotations

from typing import Any

import click

from advisor.calculator import (
    ALL_PRECISIONS,
    ENGINES,
    FAMILIES,
    FRAMEWORKS,
    OFFLOADS,
    WORKLOADS,
    Estimate,
    Request,
)
from advisor.calculator import estimator as calc
from advisor.calculator.backends import BACKEND_NAMES
from advisor.calculator.finetune import LORA_TARGETS, OPTIMIZERS
from advisor.calculator.interconnect import INTERCONNECT_HELP, NETWORKS
from advisor.calculator.precision import KV_BYTES, get_precision
from advisor.cli.render import console, print_json, table
from advisor.errors import InvalidInput

BREAKDOWN_LABELS = {
    "weights": "Weights",
    "kv_cache": "KV cache",
    "activations": "Activations",
    "gradients": "Gradients (beyond the activations they replace)",
    "optimizer_states": "Optimizer states",
    "optimizer_step": "Optimizer step workspace (foreach AdamW)",
    "adapters": "LoRA adapters (+ grads, states)",
    "peft_fp32_upcast": "Embedding and head upcast to fp32 (PEFT k-bit preparation)",
    "runtime_overhead": "Runtime / engine overhead",
    "denoiser": "Denoiser (UNet or transformer)",
    "text_encoders": "Text encoders",
    "vae": "VAE",
    "vae_decode": "VAE decode (peak)",
    "encoder": "Encoder",
    "decoder": "Decoder",
    "fp16_weight_copies": "fp16 weight copies (autocast)",
}


def _precision(value: str | None) -> str | None:
    """The precision as the calculator names it; a clear usage error for an unknown one."""
    if value is None:
        return None
    try:
        return get_precision(value).name
    except InvalidInput as exc:
        raise click.BadParameter(str(exc)) from None


@click.command("estimate")
@click.option("--model", "model", required=True, help="Catalog name or a size such as '13b'.")
@click.option("--gpu", "gpu", required=True, help="Any GPU name the catalog resolves.")
@click.option("--num-gpus", type=click.IntRange(1, 1024), default=1, show_default=True)
@click.option("--workload", type=click.Choice(WORKLOADS), default="inference", show_default=True)
@click.option(
    "--precision",
    callback=lambda _ctx, _param, value: _precision(value),
    help=f"One of {', '.join(ALL_PRECISIONS)}, an EXL2 average such as exl2-4.65bpw, or a GGUF "
    "type at a stated average such as q2_k_xl-2.51bpw.",
)
@click.option("--context", type=click.IntRange(1, 10_000_000), help="Tokens (sequence length).")
@click.option("--batch", type=click.IntRange(1, 100_000), default=1, show_default=True)
@click.option("--engine", type=click.Choice(ENGINES), help="Inference engine.")
@click.option(
    "--backend",
    type=click.Choice(BACKEND_NAMES, case_sensitive=False),
    help="llama.cpp's backend (default: the card vendor's own: CUDA, ROCm, SYCL, Metal).",
)
@click.option("--kv-cache", type=click.Choice(list(KV_BYTES)), help="KV-cache element type.")
@click.option(
    "--interconnect",
    metavar="LINK",
    help=f"Several GPUs: how they talk: {INTERCONNECT_HELP} (default auto: NVLink/NVSwitch "
    "boards, else PCIe at the card's lanes).",
)
@click.option("--optimizer", type=click.Choice(OPTIMIZERS), help="Fine-tuning optimizer.")
@click.option("--checkpointing/--no-checkpointing", default=None, help="Gradient checkpointing.")
@click.option("--lora-rank", type=click.IntRange(1, 4096), default=16, show_default=True)
@click.option(
    "--lora-targets",
    type=click.Choice(LORA_TARGETS),
    default="all",
    show_default=True,
    help="LoRA on all linear layers, attention only, or q and v.",
)
@click.option(
    "--mixed-precision/--pure-bf16",
    "mixed_precision",
    default=None,
    help="Fine-tuning: fp32 master weights, or pure bf16.",
)
@click.option(
    "--optimizer-in-backward/--no-optimizer-in-backward",
    default=None,
    help="Fine-tuning: step the optimizer in backward (no gradient buffer).",
)
@click.option(
    "--chunked-loss/--no-chunked-loss", default=None, help="Fine-tuning: chunked cross-entropy."
)
@click.option(
    "--activation-offload/--no-activation-offload",
    default=None,
    help="Fine-tuning: checkpointed activations in CPU memory.",
)
@click.option(
    "--offload-optimizer/--no-offload-optimizer",
    default=None,
    help="Full fine-tuning: DeepSpeed ZeRO-Offload, optimizer states, fp32 master weights and "
    "gradients in CPU RAM, Adam on the CPU (ZeRO-2/3; ZeRO-3 if --zero is not given).",
)
@click.option(
    "--offload-param/--no-offload-param",
    default=None,
    help="Full fine-tuning: DeepSpeed ZeRO-3 parameter offload, the 16-bit weights in CPU RAM too.",
)
@click.option(
    "--torch-compile/--no-torch-compile", default=None, help="Fine-tuning: torch.compile."
)
@click.option(
    "--fused-optimizer/--foreach-optimizer",
    default=None,
    help="Fine-tuning: AdamW in one fused kernel, or torch's foreach step (one more state copy).",
)
@click.option("--zero", "zero_stage", type=click.IntRange(0, 3), help="ZeRO stage (3 = FSDP).")
@click.option("--tp", type=click.IntRange(1, 1024), default=1, help="Training: tensor parallel.")
@click.option("--pp", type=click.IntRange(1, 1024), default=1, help="Pipeline stages.")
@click.option(
    "--nodes", type=click.IntRange(1, 1024), default=1, help="Machines the GPUs span (training)."
)
@click.option(
    "--network",
    type=click.Choice(list(NETWORKS)),
    help="With --nodes: the network between the machines.",
)
@click.option("--train-tokens", type=click.FloatRange(min=1), help="Training token budget.")
@click.option(
    "--epochs", type=click.FloatRange(min=0, min_open=True), help="With --dataset-tokens."
)
@click.option("--dataset-tokens", type=click.FloatRange(min=1), help="Tokens in one epoch.")
@click.option("--output-tokens", type=click.IntRange(1, 10_000_000), help="Serving: tokens out.")
@click.option("--resolution", type=click.IntRange(64, 8192), help="Diffusion: image side (px).")
@click.option("--steps", type=click.IntRange(1, 1000), help="Diffusion: denoising steps.")
@click.option(
    "--offload",
    type=click.Choice(OFFLOADS),
    help="CPU offload: diffusion model/sequential; LLM in llama.cpp layers (the rest in RAM).",
)
@click.option("--gpu-layers", type=click.IntRange(0, 10_000), help="llama.cpp -ngl (rest on CPU).")
@click.option("--ram", help="System RAM for llama.cpp's CPU layers, e.g. ddr5-5600.")
@click.option("--ram-channels", type=click.IntRange(1, 24), help="System RAM channels.")
@click.option(
    "--ram-gb", type=click.FloatRange(1, 1e5), help="System RAM size: must hold the CPU's share."
)
@click.option(
    "--framework",
    type=click.Choice(FRAMEWORKS),
    help="Training framework (each LLM fine-tuning framework brings its recipes' memory options).",
)
@click.option("--dataset-samples", type=click.FloatRange(min=1), help="Images or sequences/epoch.")
@click.option("--images", type=click.FloatRange(min=1), help="Diffusion: images to generate.")
@click.option("--audio-hours", type=click.FloatRange(min=0.001), help="Speech: hours of audio.")
@click.option("--beam-size", type=click.IntRange(1, 64), help="Speech: beam width.")
@click.option("--offering", default="on-demand", show_default=True, help="Price offering.")
@click.option(
    "--utilisation", type=click.FloatRange(0.01, 1.0), default=1.0, show_default=True,
    help="Share of the month the GPUs are rented, for the monthly cost.",
)  # fmt: skip
@click.option("--max-context", "solve", flag_value="max-context", help="Solve: longest context.")
@click.option("--max-batch", "solve", flag_value="max-batch", help="Solve: largest batch.")
@click.option("--min-gpus", "solve", flag_value="min-gpus", help="Solve: fewest GPUs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def estimate_command(solve: str | None, as_json: bool, **options: Any) -> None:
    """Will MODEL fit on GPU for a workload, how fast, and at what cost."""
    request = Request(**options)
    solution: int | None = None
    if solve:
        solver = {"max-context": calc.max_context, "max-batch": calc.max_batch}.get(
            solve, calc.min_gpus
        )
        solved = solver(request)
        field = {"max-context": "context", "max-batch": "batch", "min-gpus": "num_gpus"}[solve]
        if solved is not None:
            solution = getattr(solved, field)
        result = solved or calc.estimate(request)
    else:
        result = calc.estimate(request)
    if as_json:
        data = result.to_dict()
        if solve:
            data["solver"] = solve
            data["solution"] = solution
        print_json(data)
        return
    if solve:
        _print_solution(solve, solution, result)
    _print_estimate(result)


def _print_solution(solve: str, solution: int | None, result: Estimate) -> None:
    what = {"max-context": "Longest context", "max-batch": "Largest batch",
            "min-gpus": "Fewest GPUs"}[solve]  # fmt: skip
    if solution is None:
        click.echo(f"{what} that fits: none. Even the smallest setting does not fit.")
    else:
        unit = {"max-context": " tokens", "max-batch": " sequences", "min-gpus": " GPUs"}[solve]
        click.echo(f"{what} that fits: {solution:,}{unit} (estimate at that setting below).")


def _print_estimate(e: Estimate) -> None:
    gpus = f"{e.num_gpus} x {e.gpu_name}" if e.num_gpus > 1 else e.gpu_name
    setting = f"{e.precision}" + (f", {e.engine}" if e.engine else "")
    verdict = "FITS" if e.fits else "DOES NOT FIT"
    console().print(
        f"[bold]{e.model_name} on {gpus}[/bold] ({e.workload}, {setting}{_shape(e)}, "
        f"batch {e.batch})\n[bold]{verdict}[/bold]: {e.memory_per_gpu_gb:.2f} GB per GPU of "
        f"{e.usable_memory_per_gpu_gb:.2f} GB usable ({e.headroom_gb:+.2f} GB headroom)"
    )
    if e.gpu_layers is not None and e.layers and e.host_memory_gb is not None:
        where = "the CPU alone" if e.gpu == "cpu" else f"{e.gpu_layers} of {e.layers} on the GPU"
        console().print(f"Layers: {where}; {e.host_layers} ({e.host_memory_gb:.1f} GB) "
                        "in system RAM, run by the CPU")  # fmt: skip
    elif e.host_memory_gb is not None:  # a ZeRO-Offload fine-tune
        console().print(f"Host RAM: {e.host_memory_gb:.1f} GB on the machine for the "
                        "offloaded optimizer/parameters")  # fmt: skip
    rows = [
        (BREAKDOWN_LABELS.get(k, k), f"{v:.2f}") for k, v in e.breakdown_gb.items() if v > 0.005
    ]
    rows.append(("Total per GPU", f"{e.memory_per_gpu_gb:.2f}"))
    table("Memory per GPU (GB)", ("component", "GB"), rows)
    speed = []
    metrics = FAMILIES[e.family].metrics.get(e.workload, ())
    extra = [("train_hours", "Training wall time", "hours"), ("job_hours", "Job", "hours")]
    for key, label, unit in [(m.key, m.label, m.unit) for m in metrics] + extra:
        band = getattr(e, key, None)
        if band:
            speed.append(
                (f"{label} ({unit})", *(_num(band[k]) for k in ("low", "typical", "high")))
            )
    table("Speed", ("", "low", "typical", "high"), speed)
    if e.cost:
        c = e.cost
        lines = [
            ("$/GPU-hour (median)", f"${c['usd_per_gpu_hour']:.2f}"),
            ("$/hour, all GPUs", f"${c['usd_per_hour']:.2f}"),
            (f"$/month at {c['utilisation']:.0%}", f"${c['usd_per_month']:,.0f}"),
        ]
        if "usd_per_million_tokens" in c:
            lines.append(("$/million tokens", f"${c['usd_per_million_tokens']:.3f}"))
        if "usd_per_job" in c:
            lines.append((f"Job ({c['job_hours']:.1f} h)", f"${c['usd_per_job']:,.2f}"))
        lines.append(("Price source", f"{c['price_provider']}, {c['price_date']}"))
        table("Cost", ("", "USD"), lines)
    click.echo("Assumptions:")
    for note in e.assumptions:
        click.echo(f"  - {note}")
    click.echo(f"Formula {e.formula_version}; GB = 1e9 bytes.")


def _shape(e: Estimate) -> str:
    if e.family == "llm":
        return f", context {e.context:,}"
    if e.resolution:
        return f", {e.resolution} px" + (f", {e.steps} steps" if e.steps else "")
    return ""


def _num(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
