"""Accuracy benchmark: the calculator against published measurements, beside two baselines.

Reads ../shared/data/measured_calibration.csv (or $ADVISOR_SHARED_DIR/data/..., else the
byte-identical copy in tests/reference/), turns each row
it can into a calculator request, and prints per metric class the rows used and the median and
90th-percentile absolute percentage error (APE) of the calculator, of the naive roofline
`bandwidth * 0.55 / weight bytes`, and of a gpu_poor-style formula set, all computed in this run.
Fit verdicts are scored as the share of rows right. Writes eval/results/calibration_report.md and
.json. Rows it cannot map (encoder-decoder models, GPUs not in the catalog, unstated batch) are
counted with their reason, never guessed.

    python eval/calibration_benchmark.py [--details CLASS]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from advisor.calculator import finetune, memory, throughput
from advisor.calculator.estimator import Request, estimate
from advisor.calculator.factors import FORMULA_VERSION, engine_factors
from advisor.calculator.precision import Precision, get_precision, kv_bytes
from advisor.catalog import load_catalog
from advisor.errors import AdvisorError
from advisor.specs import GPU, Model

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("ADVISOR_SHARED_DIR", HERE.parent.parent / "shared"))
CSV_PATH = SHARED / "data" / "measured_calibration.csv"
if not CSV_PATH.is_file():  # a checkout alone: the byte-identical copy kept with the tests
    CSV_PATH = HERE.parent / "tests" / "reference" / "measured_calibration.csv"
RESULTS = HERE / "results"

GPU_NAMES = {
    "A100 80GB SXM": "a100-sxm4-80gb",
    "A100 80GB PCIe": "a100-pcie-80gb",
    "A100 40GB SXM": "a100-sxm4-40gb",
    "A100 40GB PCIe": "a100-pcie-40gb",
    "A100 80GB": "a100-sxm4-80gb",
    "A100 40GB": "a100-sxm4-40gb",
    "A100": "a100-sxm4-80gb",
    "H100 80GB SXM": "h100-sxm5-80gb",
    "V100 32GB": "v100-sxm2-32gb",
}
MODEL_NAMES = {
    "Llama-7B": "llama-2-7b",  # LLaMA v1: same shape as Llama 2 7B
    "Llama-13B": "llama-2-13b",
    "Mistral-7B-v0.2": "mistral-7b-v0.3",  # v0.3 only adds 768 vocabulary rows
}
# Sources that ran transformers before 4.36 (its tuple KV cache, which a decode step copies whole;
# the Request's legacy_kv_cache): optimum's GPTQ benchmark at 0963862 (2023-08-25, transformers
# 4.32's GPTQ integration; the DynamicCache came in 4.36, 2023-12-07)
TUPLE_CACHE_SOURCES = ("huggingface/optimum/blob/096386299309ec9c4c737c9e5ce260008c48fad7",)
CLASSES = (
    "decode tok/s",
    "prefill tok/s",
    "serving throughput",
    "inference memory",
    "fine-tuning memory",
    "training speed",
    "fit verdicts",
)


@dataclass(frozen=True)
class Case:
    """One measurement turned into something the calculator and the baselines can predict."""

    cls: str
    row: dict[str, str]
    measured: float
    predict: Callable[[], float]
    naive: Callable[[], float]
    gpu_poor: Callable[[], float]


# ---------------------------------------------------------------- reading rows


def _gpu(text: str) -> tuple[GPU, int]:
    match = re.match(r"^(.*?)(?: x(\d+))?$", text.strip())
    assert match
    name, count = match.group(1), int(match.group(2) or 1)
    catalog = load_catalog()
    return catalog.get_gpu(GPU_NAMES.get(name, name)), count


def _model(name: str, params_b: str) -> Model:
    catalog = load_catalog()
    if "/" in name and not name.startswith(("meta-llama", "Qwen")):
        if name.startswith("bigcode"):
            return catalog.generic_model(float(params_b))
        raise AdvisorError(f"not a decoder LLM in scope: {name}")
    clean = re.sub(r"\s*\(.*?\)", "", name)
    clean = MODEL_NAMES.get(clean, clean)
    try:
        return catalog.get_model(clean)
    except AdvisorError:
        return catalog.generic_model(float(params_b))


def _precision(text: str) -> tuple[Precision, str | None]:
    """(weight precision, KV-cache type or None) from the table's free-text precision."""
    t = text.upper()
    kv = "fp8" if "FP8 KV" in t else ("q4_0" if "KV4" in t else None)
    for needle, name in (
        ("Q4_K_M", "q4_k_m"), ("Q4_0", "q4_0"), ("NF4-DQ", "nf4"), ("NESTED", "nf4"),
        ("NF4", "nf4-nodq"), ("FP4", "nf4-nodq"), ("4BIT", "nf4-nodq"),
        ("AWQ", "awq"), ("W4A16", "awq"), ("W4A8", "awq"), ("Q4F16", "awq"), ("GPTQ", "gptq"),
        ("INT8", "int8"), ("W8A8", "int8"), ("8-BIT", "int8"), ("FP8", "fp8"), ("FP32", "fp32"),
        ("BF16", "bf16"), ("FP16", "fp16"), ("F16", "fp16"),
    ):  # fmt: skip
        if needle in t:
            return get_precision(name), kv
    raise AdvisorError(f"precision not mapped: {text}")


def _engine(framework: str) -> str:
    f = framework.lower()
    if "llama.cpp" in f:
        return "llama.cpp"
    if "transformers" in f or "litgpt" in f:
        return "hf"
    if any(k in f for k in ("tensorrt", "qserve", "lmdeploy", "mlc", "tinychat", "llm-awq")):
        return "tensorrt-llm"
    if "vllm" in f or "exllama" in f:
        return "vllm"
    return "hf"


def _seq(text: str) -> tuple[int, int]:
    """(prompt tokens, generated tokens) from '512/512', '1024', 'prompt~7/256', '<=1304 ...'."""
    nums = [int(n) for n in re.findall(r"\d+", text)]
    if not nums:
        raise AdvisorError(f"sequence length not stated: {text!r}")
    if "/" in text:
        return nums[0], nums[1]
    return nums[0], 0


def _batch(text: str) -> int | None:
    if text.strip().isdigit():
        return int(text)
    if text.strip().startswith("max"):
        return None
    raise AdvisorError(f"batch not stated: {text!r}")


# ---------------------------------------------------------------- baselines


def _naive_decode(gpu: GPU, model: Model, precision: Precision) -> float:
    return gpu.bandwidth_gbs * 1e9 * 0.55 / memory.weight_bytes(model, precision)


def _gpu_poor_kv(model: Model, context: int, batch: int) -> float:
    """gpu_poor sizes the KV cache from the hidden size, ignoring GQA."""
    return 2 * model.num_layers * model.hidden_size * context * batch * 2


def _gpu_poor_inference_gb(model: Model, precision: Precision, context: int, batch: int) -> float:
    activations = batch * context * model.hidden_size * 2 * 2
    total = memory.weight_bytes(model, precision) + _gpu_poor_kv(model, context, batch)
    return (total + activations) / 1e9 + 0.5


def _gpu_poor_training_gb(model: Model, method: str, seq: int, batch: int) -> float:
    p = model.total_params
    act = model.num_layers * seq * batch * model.hidden_size * 34  # GPT-3 formula, no flash
    act += model.num_layers * 5 * model.num_attention_heads * seq * seq * batch
    if method == "full":
        return (p * (2 + 2 + 6) + act) / 1e9
    base = p * (0.5 if method == "qlora" else 2)
    return (base + act + 0.02 * p * 16) / 1e9


def _fp32_rate(gpu: GPU) -> float:
    return (gpu.fp32_tflops or 1.0) * 1e12


# ---------------------------------------------------------------- cases


def _cases(rows: list[dict[str, str]]) -> tuple[list[Case], Counter[str]]:
    cases: list[Case] = []
    skipped: Counter[str] = Counter()
    for row in rows:
        try:
            case = _case(row)
        except (AdvisorError, ValueError) as exc:
            skipped[_reason(str(exc))] += 1
            continue
        if case is None:
            skipped["metric or workload not in a scored class"] += 1
        else:
            cases.append(case)
    return cases, skipped


def _reason(text: str) -> str:
    for key in ("Unknown GPU", "not a decoder", "batch not stated", "sequence length not stated"):
        if key in text:
            return {"Unknown GPU": "GPU not in the catalog (or a VRAM budget, not a GPU)"}.get(
                key, key
            )
    return text[:60]


def _case(row: dict[str, str]) -> Case | None:
    workload, metric, value = row["workload"], row["metric"], float(row["value"])
    if "SUSPECT" in row["note"]:
        raise AdvisorError("marked SUSPECT in its source")
    if metric in ("images_per_s", "sequences_per_s", "max_seq_len_fit"):
        return None
    gpu, n = _gpu(row["gpu"])
    if "Transformer-XL" in row["model"]:
        raise AdvisorError("not a decoder LLM in scope: Transformer-XL (recurrent memory)")
    model = _model(row["model"], row["params_b"])
    precision, kv_type = _precision(row["precision"])
    if workload.startswith("inference"):
        return _inference_case(row, gpu, n, model, precision, kv_type, value)
    if workload.startswith("finetune"):
        return _training_case(row, gpu, n, model, precision, value)
    if workload == "training" and metric == "tokens_per_s":
        return _training_case(row, gpu, n, model, precision, value)
    return None


def _inference_case(
    row: dict[str, str], gpu: GPU, n: int, model: Model, precision: Precision,
    kv_type: str | None, value: float,
) -> Case | None:  # fmt: skip
    engine = engine_factors(_engine(row["framework"]))
    metric, workload = row["metric"], row["workload"]
    kv_type = kv_type or ("fp32" if precision.name == "fp32" else "fp16")
    kv = kv_bytes(kv_type)
    seq_text = row["seq_len"] or ("512" if metric in ("peak_mem_gb", "fits") else "")
    prompt, gen = _seq(seq_text) if seq_text else (128, 128)
    batch = _batch(row["batch"])
    naive = lambda: _naive_decode(gpu, model, precision)  # noqa: E731
    request = Request(  # the memory and fit rows ask the calculator's estimate()
        model.id if not model.generic else f"{model.total_params / 1e9}b", gpu.id,
        num_gpus=n, precision=precision.name, context=prompt + gen, batch=batch or 1,
        engine=engine.name, kv_cache=kv_type,
        legacy_kv_cache=any(s in row["source"] for s in TUPLE_CACHE_SOURCES),
    )  # fmt: skip
    if metric == "tokens_per_s" and workload == "inference-decode":
        assert batch is not None
        # llama-bench tg N generates N tokens from an empty context: the mean history is N/2
        context = prompt + gen // 2 if gen else max(prompt // 2, 1)
        return Case(
            "decode tok/s", row, value,
            lambda: throughput.decode_tokens_per_s(
                model, gpu, precision, engine, batch=batch, context=context, kv_elem_bytes=kv,
                num_gpus=n,
            ).typical,
            lambda: naive(),
            lambda: batch * min(
                gpu.bandwidth_gbs * 1e9 / memory.weight_bytes(model, precision),
                _fp32_rate(gpu) / (2 * model.params_per_token),
            ),
        )  # fmt: skip
    if workload == "inference-prefill" and metric in ("tokens_per_s", "ttft_ms"):
        b = batch or 1
        measured = value if metric == "tokens_per_s" else prompt * b / (value / 1000)
        return Case(
            "prefill tok/s", row, measured,
            lambda: throughput.prefill_tokens_per_s(
                model, gpu, precision, engine, prompt=prompt, batch=b, num_gpus=n
            ).typical,
            lambda: naive(),
            lambda: _fp32_rate(gpu) * n / (2 * model.params_per_token),
        )  # fmt: skip
    if metric == "output_tokens_per_s":
        return Case(
            "serving throughput", row, value,
            lambda: throughput.serving_tokens_per_s(
                model, gpu, precision, engine, prompt=prompt, output=gen or 128,
                kv_elem_bytes=kv, num_gpus=n, batch=batch,
            )[0].typical,
            lambda: naive(),
            lambda: min(gpu.bandwidth_gbs * 1e9 / memory.weight_bytes(model, precision),
                        _fp32_rate(gpu) / (2 * model.params_per_token)),
        )  # fmt: skip
    if metric == "peak_mem_gb":
        b = batch or 1
        incl_context = "incl. CUDA" in row["note"]

        def predict() -> float:
            result = estimate(request)
            total = result.memory_per_gpu_gb
            if not incl_context:
                total -= engine.cuda_context_gb
            return total

        return Case(
            "inference memory", row, value, predict,
            lambda: memory.weight_bytes(model, precision) * 1.2 / 1e9,
            lambda: _gpu_poor_inference_gb(model, precision, prompt + gen, b),
        )  # fmt: skip
    if metric == "fits":
        b = batch or 1
        return Case(
            "fit verdicts", row, value,
            lambda: float(estimate(request).fits),
            lambda: float(memory.weight_bytes(model, precision) * 1.2 / 1e9 <= gpu.memory_gb * n),
            lambda: float(
                _gpu_poor_inference_gb(model, precision, prompt + gen, b) <= gpu.memory_gb * n
            ),
        )  # fmt: skip
    return None


def _training_case(
    row: dict[str, str], gpu: GPU, n: int, model: Model, precision: Precision, value: float
) -> Case | None:
    workload, metric = row["workload"], row["metric"]
    method = {"finetune-full": "full", "finetune-lora": "lora", "finetune-qlora": "qlora"}.get(
        workload, "full"
    )
    if method == "lora" and precision.family != "float":
        method = "qlora" if precision.family == "bnb-4bit" else method
    text = row["precision"].upper()
    batch = _batch(row["batch"])
    if batch is None:
        raise AdvisorError("batch not stated")
    seq = _seq(row["seq_len"])[0] if row["seq_len"] else 512
    framework = row["framework"].lower()
    checkpointing = "torchtune" in framework or "unsloth" in framework
    # PEFT's prepare_model_for_kbit_training turns gradient checkpointing on by default
    checkpointing = checkpointing or ("peft" in framework and method == "qlora")
    if " GC" in text or text.endswith("GC"):
        checkpointing = "NO GC" not in text
    if "offload" in text.lower() or "paged" in text.lower():
        raise AdvisorError("CPU-offloaded or paged optimizer: not modelled")
    optimizer = "adamw8bit" if "8BIT" in text.replace(" ", "") and "ADAMW" in text else "adamw"
    if method == "qlora" and precision.family != "bnb-4bit":
        precision = get_precision("nf4")
    if method == "full" and precision.family != "float":
        raise AdvisorError("full fine-tuning on a quantised base")
    zero = 3 if n > 1 else 0
    # HF transformers before SDPA support (2023, bitsandbytes 0.39) stored attention scores
    flash = "0.39" not in framework and "(2023" not in framework
    store = precision if method != "full" else get_precision("bf16" if "BF16" in text else "fp16")
    mixed = "BF16 FULL" not in text and "BF16-TRUE" not in text
    # torchtune trains in pure bf16 (advisor/calculator/finetune.py); these rows' README
    # predates its chunked loss, so the loss is the plain one
    tune = finetune.resolve("torchtune" if "torchtune" in framework else None, method)
    mixed = mixed and tune.mixed_precision
    loss = "plain"

    def mem() -> float:
        return memory.training_memory(
            model, method=method, precision=store, optimizer=optimizer, seq=seq, batch=batch,
            checkpointing=checkpointing, num_gpus=n, zero_stage=zero, mixed_precision=mixed,
            flash_attention=flash, loss=loss,
        ).total_gb  # fmt: skip

    if metric == "peak_mem_gb":
        return Case(
            "fine-tuning memory", row, value, lambda: mem() - 0.6,
            lambda: model.total_params * (4 if method == "full" else 1.2 * store.bytes_linear)
            / 1e9,
            lambda: _gpu_poor_training_gb(model, method, seq, batch),
        )  # fmt: skip
    if metric == "fits":
        usable = memory.training_usable_gb(gpu)
        naive_need = model.total_params * (4 if method == "full" else 1.2 * store.bytes_linear)
        return Case(
            "fit verdicts", row, value, lambda: float(mem() <= usable),
            lambda: float(naive_need / 1e9 <= gpu.memory_gb),
            lambda: float(_gpu_poor_training_gb(model, method, seq, batch) <= gpu.memory_gb),
        )  # fmt: skip
    if metric == "tokens_per_s":
        if workload == "training":  # DeepLearningExamples rows: plain training at their precision
            precision = get_precision("fp32" if "FP32" in text else "fp16")
        return Case(
            "training speed", row, value,
            lambda: throughput.train_tokens_per_s(
                model, gpu, precision if method == "full" else get_precision("bf16"),
                method=method, seq=seq, checkpointing=checkpointing, num_gpus=n,
            ).typical,
            lambda: _naive_decode(gpu, model, precision),
            lambda: _fp32_rate(gpu) * n / (6 * model.params_per_token),
        )  # fmt: skip
    return None


# ---------------------------------------------------------------- scoring


def _ape(predicted: float, measured: float) -> float:
    return abs(predicted - measured) / abs(measured) * 100


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def score(cases: list[Case]) -> dict[str, dict[str, float]]:
    by_class: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_class[case.cls].append(case)
    report: dict[str, dict[str, float]] = {}
    for cls in CLASSES:
        group = by_class.get(cls, [])
        if not group:
            continue
        entry: dict[str, float] = {"rows": len(group)}
        for label in ("calculator", "naive", "gpu_poor"):
            fn = {"calculator": "predict", "naive": "naive", "gpu_poor": "gpu_poor"}[label]
            values = [getattr(c, fn)() for c in group]
            if cls == "fit verdicts":
                right = [round(v) == round(c.measured) for v, c in zip(values, group, strict=True)]
                entry[f"{label}_right_pct"] = 100 * sum(right) / len(right)
            else:
                apes = [_ape(v, c.measured) for v, c in zip(values, group, strict=True)]
                entry[f"{label}_median_ape"] = statistics.median(apes)
                entry[f"{label}_p90_ape"] = _p90(apes)
        report[cls] = entry
    return report


def details(cases: list[Case], cls: str) -> list[str]:
    lines = []
    for case in (c for c in cases if c.cls == cls):
        predicted = case.predict()
        r = case.row
        if cls == "fit verdicts":
            error = abs(predicted - case.measured) * 100
        else:
            error = _ape(predicted, case.measured)
        lines.append(
            f"{error:6.1f}%  pred {predicted:10.2f}  meas "
            f"{case.measured:10.2f}  {r['gpu']} | {r['model']} | {r['precision']} | b{r['batch']} "
            f"s{r['seq_len']} | {r['framework']}"
        )
    return sorted(lines, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", metavar="CLASS", help="print every row of one class")
    args = parser.parse_args()
    if not CSV_PATH.is_file():
        raise SystemExit(f"{CSV_PATH} not found: set ADVISOR_SHARED_DIR to the shared folder.")
    rows = list(csv.DictReader(CSV_PATH.open(encoding="utf-8")))
    cases, skipped = _cases(rows)
    if args.details:
        print("\n".join(details(cases, args.details)))
        return
    report = score(cases)
    out = {
        "formula_version": FORMULA_VERSION,
        "source": "shared/data/measured_calibration.csv",
        "rows_in_table": len(rows),
        "rows_scored": len(cases),
        "skipped": dict(skipped.most_common()),
        "classes": report,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "calibration_report.json").write_text(json.dumps(out, indent=2) + "\n")
    text = _markdown(out)
    (RESULTS / "calibration_report.md").write_text(text)
    print(text)


def _markdown(out: dict[str, object]) -> str:
    classes = out["classes"]
    assert isinstance(classes, dict)
    lines = [
        "# Calculator accuracy against published measurements",
        "",
        f"Formula version {out['formula_version']}; `python eval/calibration_benchmark.py`; "
        f"{out['rows_scored']} of {out['rows_in_table']} rows of {out['source']} scored.",
        "",
        "APE = absolute percentage error. Baselines computed in the same run: naive = "
        "`bandwidth x 0.55 / weight bytes` (and weights x 1.2 for memory); gpu_poor-style = KV "
        "from hidden size, FP32 non-tensor TFLOPS for compute, Adam at 6 bytes/param.",
        "",
        "| class | rows | calculator median / p90 APE | naive median / p90 | gpu_poor-style "
        "median / p90 |",
        "|---|---|---|---|---|",
    ]
    for cls, e in classes.items():
        if cls == "fit verdicts":
            lines.append(
                f"| {cls} | {e['rows']:.0f} | {e['calculator_right_pct']:.1f}% right | "
                f"{e['naive_right_pct']:.1f}% right | {e['gpu_poor_right_pct']:.1f}% right |"
            )
        else:
            cells = [
                f"{e[f'{k}_median_ape']:.1f}% / {e[f'{k}_p90_ape']:.1f}%"
                for k in ("calculator", "naive", "gpu_poor")
            ]
            lines.append(f"| {cls} | {e['rows']:.0f} | " + " | ".join(cells) + " |")
    lines += ["", "Rows not scored, by reason:", ""]
    skipped = out["skipped"]
    assert isinstance(skipped, dict)
    lines += [f"- {reason}: {count}" for reason, count in skipped.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
