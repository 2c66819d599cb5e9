"""The calculator's estimates against our own GPU measurements (eval/device/results/*.json):
python -m eval.device.compare prints the table and writes eval/results/device_h200.md.

Each row is one measured setup; the estimate is estimate_workload() on the same model, GPU, batch,
sequence length, precision and options. Memory is compared in GiB as measured
(torch.cuda.max_memory_allocated, which leaves out the CUDA context)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from advisor.tools import estimate_workload

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent / "results" / "device_h200.md"
GPU = "h200-sxm-141gb"


def _runs() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted((HERE / "results").glob("h200_run*.json")):
        rows += json.loads(path.read_text())["rows"]
    return rows


def _mean(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.mean(r[key] for r in rows)


def _typical(value: Any) -> float:
    return float(value["typical"] if isinstance(value, dict) else value)


def cases() -> list[tuple[str, float, dict[str, Any], str]]:
    """(setup, measured, estimate arguments, estimate field or 'memory')."""
    runs = _runs()
    out: list[tuple[str, float, dict[str, Any], str]] = []

    def of(kind: str, **match: Any) -> list[dict[str, Any]]:
        return [r for r in runs if r.get("kind") == kind
                and all(r.get(k) == v for k, v in match.items())]  # fmt: skip

    res = of("resnet50")
    train = {"model": "resnet-50", "precision": "fp16", "batch": 256, "resolution": 224,
             "framework": "pytorch-channels-last"}  # fmt: skip
    out.append(
        (
            "ResNet-50 training, AMP, b256, NHWC (images/s)",
            _mean(res, "train_images_per_s"),
            {**train, "workload": "train"},
            "train_samples_per_s",
        )
    )
    out.append(
        (
            "ResNet-50 inference, AMP, b256, NHWC (images/s)",
            _mean(res, "infer_images_per_s"),
            {**train, "workload": "inference"},
            "infer_samples_per_s",
        )
    )
    out.append(
        (
            "ResNet-50 training peak memory (GiB)",
            res[0]["peak_gib"],
            {**train, "workload": "train"},
            "memory",
        )
    )
    for size, seq, batch in (("base", 128, 32), ("large", 384, 16)):
        got = of("bert-finetune", model=f"bert-{size}")
        args = {"model": f"bert-{size}", "workload": "finetune-full", "precision": "bf16",
                "batch": batch, "context": seq}  # fmt: skip
        out.append(
            (
                f"BERT-{size} fine-tune, seq {seq}, b{batch} (sequences/s)",
                _mean(got, "train_sequences_per_s"),
                args,
                "train_samples_per_s",
            )
        )
        out.append((f"BERT-{size} fine-tune peak memory (GiB)", got[0]["peak_gib"], args, "memory"))
    for model, seq, batch, ckpt in (("llama-3.2-1b", 1024, 4, False),
                                    ("llama-3.1-8b", 1024, 1, True),
                                    ("llama-3.1-8b", 2048, 4, True)):  # fmt: skip
        got = of("hf-peft-lora", model=model, seq_len=seq, batch=batch,
                 gradient_checkpointing=ckpt)  # fmt: skip
        args = {"model": model, "workload": "finetune-lora", "precision": "bf16", "batch": batch,
                "context": seq, "checkpointing": ckpt, "lora_targets": "all",
                "framework": "peft"}  # fmt: skip
        what = f"LoRA {model}, seq {seq}, b{batch}, checkpointing {'on' if ckpt else 'off'}"
        out.append(
            (f"{what} (tokens/s)", _mean(got, "train_tokens_per_s"), args, "train_tokens_per_s")
        )
        out.append((f"{what} peak memory (GiB)", got[0]["peak_gib"], args, "memory"))
    for model, seq, batch, ckpt in (("qwen2.5-0.5b", 1024, 4, False),
                                    ("llama-3.2-1b", 1024, 4, True)):  # fmt: skip
        got = of("full-finetune", model=model, seq_len=seq, batch=batch)
        args = {"model": model, "workload": "finetune-full", "precision": "bf16", "batch": batch,
                "context": seq, "checkpointing": ckpt, "framework": "hf"}  # fmt: skip
        what = f"full fine-tune {model}, seq {seq}, b{batch}"
        out.append(
            (f"{what} (tokens/s)", _mean(got, "train_tokens_per_s"), args, "train_tokens_per_s")
        )
        out.append((f"{what} peak memory (GiB)", got[0]["peak_gib"], args, "memory"))
    for row in of("hf-decode"):
        if row in runs[: len(of("hf-decode"))]:
            context = row["input_len"] + row["output_len"]
            args = {"model": row["model"], "workload": "inference", "precision": "bf16",
                    "batch": row["batch"], "context": context, "engine": "hf"}  # fmt: skip
            out.append(
                (
                    f"HF inference {row['model']}, b{row['batch']}, {context} tokens: peak "
                    "memory (GiB)",
                    row["peak_gib"],
                    args,
                    "memory",
                )
            )
    return out


def run() -> list[tuple[str, float, float]]:
    rows = []
    for what, measured, args, field in cases():
        result = estimate_workload(gpu=GPU, **args)
        if field == "memory":
            estimate = result["memory_per_gpu_gb"] / 1.073741824  # GB to GiB
        else:
            estimate = _typical(result[field])
        rows.append((what, measured, estimate))
    return rows


def markdown(rows: list[tuple[str, float, float]]) -> str:
    lines = [
        "# The calculator against our own H200 measurements",
        "",
        "Printed by `python -m eval.device.compare` from `eval/device/results/h200_run*.json` "
        "(see eval/device/README.md). The measurements were taken after every constant was "
        "fitted: this is held-out error. Memory is torch's allocated peak (no CUDA context).",
        "",
        "| setup | measured | estimate | error |",
        "|---|---:|---:|---:|",
    ]
    speed, memory = [], []
    for what, measured, estimate in rows:
        error = estimate / measured - 1
        (memory if "memory" in what else speed).append(abs(error))
        lines.append(f"| {what} | {measured:,.1f} | {estimate:,.1f} | {error:+.0%} |")
    lines += [
        "",
        f"Median absolute error: speed {statistics.median(speed):.0%} over {len(speed)} setups, "
        f"memory {statistics.median(memory):.0%} over {len(memory)}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    text = markdown(run())
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
