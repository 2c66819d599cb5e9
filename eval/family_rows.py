"""Published non-LLM measurements as calculator requests: the rows of the family benchmark.

Reads eval/calibration/workloads.csv and the ResNet-50 / BERT / Transformer-XL training rows of
../shared/data/measured_calibration.csv (or the byte-identical copy in tests/reference/) and turns
each row it can into a `Case`: the Request the row describes, the Estimate field its value is
compared with, and the value in that field's unit. A row it cannot map is counted with its reason;
nothing is guessed. Two conventions, each stated where it applies:

- a GPU named without its variant ("A100", "V100 16GB") maps to every catalog variant it may be;
  the row is kept only where the calculator's figures for them agree within VARIANT_SPREAD, and
  is then predicted by their geometric mean (the spread is the error the missing name can cause);
- an MLPerf Offline row has no batch: it is the saturated throughput, so it is mapped at
  OFFLINE_BATCH where the calculator's speed no longer depends on the batch (checked per row).

A row is scored but not fitted on where workloads.csv's `scored_only` column gives the reason (or
its note marks it confidence: low): see not_fitted_reason.
"""

from __future__ import annotations

import csv
import math
import os
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from advisor.calculator import Request, estimate
from advisor.calculator.host import CPU
from advisor.catalog import Catalog
from advisor.errors import AdvisorError

HERE = Path(__file__).resolve().parent
WORKLOADS_CSV = HERE / "calibration" / "workloads.csv"
SHARED = Path(os.environ.get("ADVISOR_SHARED_DIR", HERE.parent.parent / "shared"))
SHARED_CSV = SHARED / "data" / "measured_calibration.csv"
if not SHARED_CSV.is_file():  # a checkout alone: the copy kept with the tests
    SHARED_CSV = HERE.parent / "tests" / "reference" / "measured_calibration.csv"

VARIANT_SPREAD = 1.10  # variants of an unnamed GPU must agree within 10% to keep the row
OFFLINE_BATCH = {"vision": 256, "transformer": 64, "diffusion": 16}
OFFLINE_TOLERANCE = 0.03  # speed at twice OFFLINE_BATCH within 3%: saturated
GIB_IN_GB = 2**30 / 1e9

# The CSV's GPU strings, as printed by their sources, to catalog ids (several: variant not named).
GPUS: dict[str, tuple[str, ...]] = {
    "A100 SXM4 80GB": ("a100-sxm4-80gb",),
    "A100 80GB SXM": ("a100-sxm4-80gb",),
    "A100 SXM4 40GB": ("a100-sxm4-40gb",),
    "A100 40GB SXM": ("a100-sxm4-40gb",),
    "A100 PCIe 80GB": ("a100-pcie-80gb",),
    "A100 80GB PCIe": ("a100-pcie-80gb",),
    "A100 40GB PCIe": ("a100-pcie-40gb",),
    "A100 40GB": ("a100-sxm4-40gb", "a100-pcie-40gb"),
    "A100 80GB": ("a100-sxm4-80gb", "a100-pcie-80gb"),
    "A100": ("a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb", "a100-pcie-80gb"),
    "V100 SXM2 16GB": ("v100-sxm2-16gb",),
    "V100 SXM2 32GB": ("v100-sxm2-32gb",),
    "V100 16GB": ("v100-sxm2-16gb", "v100-pcie-16gb"),
    "V100 32GB": ("v100-sxm2-32gb", "v100-pcie-32gb"),
    "V100": ("v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-16gb", "v100-pcie-32gb"),
    "Tesla V100S 32GB": ("v100s-pcie-32gb",),
    # the DGX-2's V100 (SXM3, 350 W) and the DGX-2H's (450 W, higher clocks)
    "V100 SXM3 32GB (DGX-2)": ("v100-sxm3-32gb",),
    "V100 SXM3 32GB (DGX-2H)": ("v100-sxm3-32gb-h",),
    "H100 SXM5 80GB": ("h100-sxm5-80gb",),
    "H100 PCIe 80GB": ("h100-pcie-80gb",),
    "H100 NVL 94GB": ("h100-nvl-94gb",),
    "H100 80GB": ("h100-sxm5-80gb", "h100-pcie-80gb"),
    "H100": ("h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb"),
    "H200 SXM 141GB": ("h200-sxm-141gb",),
    "H200 NVL 141GB": ("h200-nvl-141gb",),
    "GH200 96GB": ("gh200-96gb",),
    "GH200 144GB": ("gh200-144gb",),
    "B200 SXM 192GB": ("b200",),  # the catalog's B200: 180 GB usable of the 192 GB stacks
    "B200 SXM 180GB": ("b200",),
    "GB200 186GB": ("gb200",),
    "T4 16GB": ("t4",),
    "T4": ("t4",),
    "L4 24GB": ("l4",),
    "A2 16GB": ("a2",),
    "A10": ("a10",),
    "A30 24GB": ("a30",),
    "A40 48GB": ("a40",),
    "L20 48GB": ("l20",),
    "L40 48GB": ("l40",),
    "L40S 48GB": ("l40s",),
    "RTX 3070 Ti 8GB": ("rtx-3070-ti",),
    "RTX 3090 24GB": ("rtx-3090",),
    "RTX 3090 Ti 24GB": ("rtx-3090-ti",),
    "RTX 3060 12GB": ("rtx-3060",),
    "RTX 3090": ("rtx-3090",),
    "RTX 4080 16GB": ("rtx-4080",),
    "RTX 4090 24GB": ("rtx-4090",),
    "RTX 4090": ("rtx-4090",),
    "RTX 5090 32GB": ("rtx-5090",),
    "RTX 2080 Ti 11GB": ("rtx-2080-ti",),
    "Titan RTX 24GB": ("titan-rtx",),
    "Quadro RTX 8000 48GB": ("quadro-rtx-8000",),
    "RTX A4500": ("rtx-a4500",),
    "RTX A5000": ("rtx-a5000",),
    "RTX A5000 24GB": ("rtx-a5000",),
    "RTX A5500": ("rtx-a5500",),
    "RTX A6000": ("rtx-a6000",),
    "RTX 6000 Ada": ("rtx-6000-ada",),
    "RTX 6000 Ada 48GB": ("rtx-6000-ada",),
    "RTX PRO 6000 Blackwell Max-Q 96GB": ("rtx-pro-6000-blackwell-max-q",),
    "RTX PRO 6000 Blackwell Server Edition 96GB": ("rtx-pro-6000-blackwell-server",),
    "MI325X 256GB": ("mi325x",),
    # memory rows of a source that names no GPU: memory does not depend on the card
    "not stated": ("t4", "a100-sxm4-80gb"),
}
# CPU rows (the calculator's device "cpu"; the request does not describe the CPU, so every one
# is predicted on the reference CPU, speech_cpu.REFERENCE_CPU): the CSV's CPU strings to the chip
# leave-one-GPU-out drops together
CPUS: dict[str, str] = {
    "Intel Core i7-12700K (8 threads)": "i7-12700k",
    "Intel Xeon Gold 6226R (8 threads)": "xeon-gold-6226r",
    "AMD Ryzen 5 5600G (4 threads)": "ryzen-5-5600g",
    "AMD Ryzen 5 5600G": "ryzen-5-5600g",
    "AMD Ryzen 5 5600U (4 threads)": "ryzen-5-5600u",
    "CPU (not stated)": "cpu",
}
# models the catalog holds under another id: the same architecture (the catalog's notes say so)
SAME_ARCHITECTURE = {"sd-1.4": "sd-1.5", "whisper-large": "whisper-large-v2"}
PRECISIONS = {"amp-fp16": "fp16", "amp-bf16": "bf16"}  # AMP is what these families call fp16
# metric -> (Estimate field, factor from the row's unit to the field's)
METRICS = {
    "train_samples_per_s": "train_samples_per_s",
    "train_tokens_per_s": "train_tokens_per_s",
    "infer_samples_per_s": "infer_samples_per_s",
    "images_per_s": "images_per_s",
    "seconds_per_image": "seconds_per_image",
    "it_per_s": "it_per_s",
    "peak_memory_gb": "memory_per_gpu_gb",
    "wall_time_s": "audio_seconds_per_s",  # derived: seconds of audio / wall seconds
}
# A source is one benchmark or publication: its rows share a harness, so leave-one-source-out
# drops them together (the Lambda rows of both CSVs are one benchmark).
SOURCES = (
    ("DeepLearningExamples", "nvidia-dle"),
    ("pytorch-image-models", "timm"),
    ("lambdal/deeplearning-benchmark", "lambda"),
    ("mlcommons/inference_results", "mlperf"),
    ("huggingface/diffusers", "diffusers-docs"),
    ("huggingface.co/blog", "hf-blog"),
    ("SYSTRAN/faster-whisper", "faster-whisper"),
    ("insanely-fast-whisper", "insanely-fast-whisper"),
    ("whisper-jax", "whisper-jax"),
    ("openai/whisper", "openai-whisper"),
    ("eval/device/measure_gpu.py", "own-device-runs"),
)


@dataclass(frozen=True)
class Case:
    """One published figure and the request that reproduces it."""

    id: str
    family: str
    model: str  # catalog id
    gpus: tuple[str, ...]  # catalog ids the row's GPU may be (one when named exactly)
    source: str  # source group (leave-one-source-out drops a whole group)
    metric: str  # Estimate field
    value: float  # in the Estimate field's unit
    request: Request  # gpu is filled per variant
    fit: bool  # fitted on: every row without a reason below
    label: str  # the row as the report shows it
    offline: bool = False  # MLPerf Offline: mapped at OFFLINE_BATCH (see the module docstring)
    cpu: str = ""  # a CPU row: the CPU measured (gpus is the device "cpu")
    scored_only: str = ""  # why the row is scored but not fitted on (not_fitted_reason)

    @property
    def chip(self) -> str:
        """The GPU chip, for leave-one-GPU-out: every variant of a card goes out together (a CPU
        row: its CPU)."""
        if self.cpu:
            return self.cpu
        first = self.gpus[0]
        # "-h": a higher-clocked board of the same chip (the DGX-2H's V100 SXM3)
        return re.sub(r"-(sxm\d?|pcie|nvl|server|max-q)?-?(\d+gb)?(-h)?$", "", first) or first

    @property
    def kind(self) -> str:
        return "memory" if self.metric == "memory_per_gpu_gb" else "speed"


def source_group(source: str) -> str:
    for key, name in SOURCES:
        if key in source:
            return name
    return source.split("/")[2] if "://" in source else source.split(" ")[0]


def load_cases(catalog: Catalog) -> tuple[list[Case], Counter[str]]:
    """Every mapped row of both CSVs, and the unmapped rows counted by reason."""
    cases: list[Case] = []
    skipped: Counter[str] = Counter()
    with WORKLOADS_CSV.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    redone = {m.group(1): r["id"] for r in rows if (m := REDERIVED.search(r["note"]))}
    with SHARED_CSV.open(encoding="utf-8") as handle:
        shared = [_shared_row(r, i) for i, r in enumerate(csv.DictReader(handle), 1) if _classic(r)]
    for row in shared:
        if row["id"] in redone:  # its figure re-derived from the raw log: the workloads.csv row
            skipped[f"{row['family']}: {SUPERSEDED}"] += 1
        else:
            rows.append(row)
    for row in rows:
        try:
            case = _case(row, catalog)
        except Unmapped as why:
            skipped[f"{row['family']}: {why}"] += 1
            continue
        cases.append(case)
    return cases, skipped


# A workloads.csv row that re-derives a shared-table row from its raw log names it ("Re-derives
# shared row S308"); the shared row (read-only) is then left out, so the figure counts once. The
# Lambda run_squad.py rows are such: the csv's figure times the run from before its first
# iteration, start-up included (eval/calibration/README.md, source 5).
REDERIVED = re.compile(r"Re-derives shared row (S\d{3})\b")
SUPERSEDED = "shared row re-derived from its raw log in workloads.csv (counted there)"


class Unmapped(Exception):
    """Why a row does not become a Case."""


def _classic(row: dict[str, str]) -> bool:
    return row["workload"] == "training" and any(
        row["model"].startswith(m) for m in ("ResNet-50", "BERT-", "Transformer-XL large")
    )


def _shared_row(row: dict[str, str], number: int) -> dict[str, str]:
    """A shared-CSV training row in the workloads.csv shape."""
    model = row["model"]
    family = "vision" if model.startswith("ResNet") else "transformer"
    mid = {"ResNet-50": "resnet-50", "BERT-large": "bert-large", "BERT-base": "bert-base"}.get(
        model.split(" ")[0], "transformer-xl-large"
    )
    precision = "amp-fp16" if "AMP" in row["precision"] else "tf32"
    metric = "train_tokens_per_s" if row["metric"] == "tokens_per_s" else "train_samples_per_s"
    seq = row["seq_len"] if family == "transformer" else ""
    if mid == "transformer-xl-large" and not seq and "lambdal/" in row["source"]:
        # Lambda's benchmark runs the large model at --tgt_len 256 --mem_len 256, not the
        # recipe's 384 (github:lambdal/deeplearning-benchmark config_v2
        # PyTorch_transformerxllarge_*_PARAMS and its result logs). It also leaves out
        # --adaptive, so its 268k-token softmax is full width (520M parameters against the
        # adaptive model's 285M): the catalog's full-softmax variant.
        seq = "256"
        mid = "transformer-xl-large-full-softmax"
    return {
        "id": f"S{number:03d}", "family": family, "model": mid, "gpu": row["gpu"],
        "num_gpus": "1", "precision": precision, "workload": "train", "batch": row["batch"],
        "resolution": "224" if family == "vision" else "", "seq_len": seq, "steps": "",
        "engine": "pytorch", "metric": metric, "value": row["value"], "unit": "",
        "framework": row["framework"], "source": row["source"], "note": row["note"],
        "scored_only": "",
    }  # fmt: skip


def _case(row: dict[str, str], catalog: Catalog) -> Case:
    family, note = row["family"], row["note"]
    if family == "speech" and row["workload"].startswith("finetune"):
        # fit statements and end-to-end runs; speech_train.py's constant names its rows
        raise Unmapped("Whisper fine-tuning rows are scored by tests/test_speech_training.py")
    if row["metric"] not in METRICS:
        raise Unmapped(f"metric {row['metric']} has no Estimate field (utterances, not audio)")
    if row["metric"] == "infer_samples_per_s" and family == "speech":
        raise Unmapped("MLPerf Whisper counts utterances, not seconds of audio")
    cpu = CPUS.get(row["gpu"], "")
    if cpu and family != "speech":
        raise Unmapped(f"CPU rows are modelled for speech and LLMs, not {family}")
    if not cpu and row["gpu"] not in GPUS:
        raise Unmapped(f"GPU {row['gpu']!r} not in the catalog")
    model = SAME_ARCHITECTURE.get(row["model"], row["model"])
    try:
        catalog_family, _ = _find(model, catalog)
    except AdvisorError:
        raise Unmapped(f"model {row['model']} not in the catalog") from None
    if catalog_family != family:
        raise Unmapped(f"model {row['model']} is in the {catalog_family} family")
    gpus = (CPU,) if cpu else GPUS[row["gpu"]]
    fields: dict[str, Any] = {"model": model, "gpu": gpus[0]}
    fields["num_gpus"] = int(row["num_gpus"] or 1)
    fields.update(_family_fields(family, row, note))
    offline = bool(fields.pop("offline", False))
    value = float(row["value"])
    if row["metric"] == "peak_memory_gb" and row["unit"] == "GiB":
        value *= GIB_IN_GB
    if row["metric"] == "wall_time_s":
        value = _audio_seconds(note) / value
    request = Request(**fields)
    label = f"{row['model']} {row['gpu']} x{fields['num_gpus']} {row['precision']} b{row['batch']}"
    scored_only = not_fitted_reason(row)
    return Case(
        id=row["id"],
        family=family,
        model=model,
        gpus=gpus,
        source=source_group(row["source"]),
        metric=METRICS[row["metric"]],
        value=value,
        request=request,
        fit=not scored_only,
        label=label,
        offline=offline,
        cpu=cpu,
        scored_only=scored_only,
    )


LOW_CONFIDENCE = "the source's figure is marked low confidence (its note says why)"


def not_fitted_reason(row: dict[str, str]) -> str:
    """Why a row is scored but not fitted on ("" if it is fitted on): workloads.csv's
    `scored_only` column, which states it for each such row (a figure that is sound but not what
    the constants describe, such as another CPU than the reference one, or a wall time whose
    start-up the steady rate does not pay), or else a row its note marks confidence: low (those
    of the shared table included). The benchmark predicts these rows in every split (in-sample,
    leave-one-source-out, leave-one-GPU-out) and lists them with their reasons; no fit sees
    them."""
    reason = row.get("scored_only", "").strip()
    if reason:
        return reason
    return LOW_CONFIDENCE if "confidence: low" in row["note"] else ""


def _find(model: str, catalog: Catalog) -> tuple[str, Any]:
    from advisor.calculator.families import find_model

    fam, found = find_model(model, catalog)
    return fam.name, found


def _family_fields(family: str, row: dict[str, str], note: str) -> dict[str, Any]:
    precision = PRECISIONS.get(row["precision"], row["precision"])
    workload = {"train": "train", "inference": "inference", "transcribe": "inference"}.get(
        row["workload"], row["workload"]
    )
    fields: dict[str, Any] = {"workload": workload, "precision": precision}
    engine = row["engine"]
    batch = row["batch"]
    if family in ("vision", "transformer"):
        if engine in ("tensorflow", "tensorflow-xla"):
            fields["framework"] = "tensorflow-xla" if _dle_tf_bert_xla(row) else engine
        elif engine == "pytorch" and _channels_last(row):
            fields["framework"] = "pytorch-channels-last"
        elif engine == "tensorrt":
            fields["engine"] = "tensorrt"
        elif engine != "pytorch":
            raise Unmapped(f"engine {engine} not modelled for {family} models")
        if row["resolution"] and family == "vision":
            fields["resolution"] = int(row["resolution"].split("x")[0])
        if row["seq_len"] and family == "transformer":
            fields["context"] = int(row["seq_len"])
        if "binned by length" in note:
            raise Unmapped("sequences binned by length: padded length not stated")
    elif family == "diffusion":
        fields.update(_diffusion_fields(row, note, precision))
    else:
        fields.update(_speech_fields(row, note))
        batch = batch or ("1" if engine == "openai-whisper" else "")
    if not batch:
        if "mlcommons" not in row["source"]:
            raise Unmapped("per-GPU batch not stated")
        batch = str(OFFLINE_BATCH.get(family, 0) or "")
        if not batch:
            raise Unmapped("MLPerf Offline row without a batch convention for this family")
        fields["offline"] = True
    fields["batch"] = int(batch)
    return fields


# DLE's TensorFlow BERT tables (TF1 and TF2) ran XLA-compiled, though the rows' engine column
# says tensorflow: training with scripts/run_pretraining_lamb.sh and scripts/run_squad.sh, whose
# use_xla defaults to "true", inference with scripts/finetune_inference_benchmark.sh, which passes
# --use_xla (TensorFlow/ and TensorFlow2/LanguageModeling/BERT/scripts
# @729963dd47e7c8bd462ad10bfac7a7b0b604e6dd; the READMEs' examples say "with XLA").
DLE_TF_BERT = ("TensorFlow/LanguageModeling/BERT/", "TensorFlow2/LanguageModeling/BERT/")


def _dle_tf_bert_xla(row: dict[str, str]) -> bool:
    return any(path in row["source"] for path in DLE_TF_BERT)


# DLE PyTorch ConvNets run AMP in channels_last: `memory_format: nhwc` for every platform's AMP
# config of these models (github:NVIDIA/DeepLearningExamples
# PyTorch/Classification/ConvNets/configs.yml@097c7ff917b7c56246590b1246a8f5bd8957c534); their
# TF32/FP32 configs and Lambda's runs of the same code (no --memory-format) stay NCHW. DLE's
# PyTorch EfficientNet trains AMP in NHWC too: "We use NHWC data layout when training using Mixed
# Precision" (PyTorch/Classification/ConvNets/efficientnet/README.md, Model overview); its README
# says so of training only, so its AMP inference rows stay NCHW
CHANNELS_LAST_DLE = ("resnet50v1.5", "resnext101-32x4d")
CHANNELS_LAST_DLE_TRAINING = ("efficientnet",)
# timm's benchmark tables name the layout in the file name (results/benchmark-train-amp-nhwc-...:
# benchmark.py --channels-last)
TIMM_NHWC = "pytorch-image-models results/benchmark-"


def _timm_nhwc(row: dict[str, str]) -> bool:
    return TIMM_NHWC in row["source"] and "-nhwc-" in row["source"]


def _channels_last(row: dict[str, str]) -> bool:
    models = CHANNELS_LAST_DLE + (CHANNELS_LAST_DLE_TRAINING if row["workload"] == "train" else ())
    if row.get("framework") == "pytorch-channels-last":  # a row that says so (our own runs)
        return True
    return _timm_nhwc(row) or (
        row["precision"] in ("amp-fp16", "fp16")
        and "PyTorch/Classification/ConvNets/" in row["source"]
        and any(f"ConvNets/{m}/" in row["source"] for m in models)
    )


def _diffusion_fields(row: dict[str, str], note: str, precision: str) -> dict[str, Any]:
    lowered = note.lower()
    if "without sdpa" in lowered or row["id"] in VANILLA_ATTENTION:
        raise Unmapped("attention without SDPA/xFormers (pre-PyTorch 2 pipelines) not modelled")
    if "vae slicing" in lowered:
        raise Unmapped("VAE slicing not modelled")
    if row["engine"] not in ("diffusers", "pytorch-compile", "tensorrt"):
        raise Unmapped(f"engine {row['engine']} not modelled for diffusion")
    if precision == "fp8" and "activation" in lowered:
        raise Unmapped("fp8 compute (dynamic activation quantisation) not modelled for diffusers")
    if precision == "int4":
        if "nf4" not in lowered:
            raise Unmapped("int4 other than bitsandbytes NF4 not modelled")
        precision = "nf4"
    fields: dict[str, Any] = {"precision": precision, "engine": row["engine"]}
    if row["workload"] == "finetune-lora" and "qlora" in lowered:
        fields["workload"] = "finetune-qlora"  # the recipe with precomputed prompt embeddings
    if row["resolution"]:
        sides = [int(s) for s in row["resolution"].split("x")]
        # a non-square image as the square of the same pixel count
        fields["resolution"] = round(math.sqrt(sides[0] * sides[-1]))
    if row["steps"]:
        fields["steps"] = int(row["steps"])
    if "gradient checkpointing off" in lowered:  # training rows say it either way
        fields["checkpointing"] = False
    elif "gradient checkpointing on" in lowered:
        fields["checkpointing"] = True
    if "sequential cpu offload" in lowered:
        fields["offload"] = "sequential"
    elif "model cpu offload" in lowered:
        fields["offload"] = "model"
    return fields


# rows whose pipeline ran attention as plain matmuls (2022 diffusers; the SDXL blog's first rows)
VANILLA_ATTENTION = frozenset({"W0477", "W0478", "W0519", "W0520", "W0521", "W0522"})


def _speech_fields(row: dict[str, str], note: str) -> dict[str, Any]:
    engine = row["engine"]
    if engine not in ("faster-whisper", "openai-whisper", "transformers", "whisper.cpp"):
        raise Unmapped(f"engine {engine} not modelled for speech")
    beam = re.search(r"beam(?:[ _]size)? \[?(\d+)", note)
    # transformers' pipeline and openai-whisper's transcribe() decode greedily unless told
    fields: dict[str, Any] = {"engine": engine, "beam_size": int(beam.group(1)) if beam else 1}
    if "fp16 weights" in note:  # openai-whisper cast with model.half() (Request.mixed_precision)
        fields["mixed_precision"] = False
    if "ggml f16 weights" in note:  # a whisper.cpp row labelled by its fp32 arithmetic
        fields["precision"] = "fp16"
    return fields


def _audio_seconds(note: str) -> float:
    found = re.search(r"\(?(\d+) s\)? of (?:pre-loaded )?audio", note)
    if not found:
        raise Unmapped("audio length not stated")
    return float(found.group(1))


# ---------------------------------------------------------------- predictions


def predict(case: Case, catalog: Catalog) -> float:
    """The calculator's typical figure for the case through `estimate()`; several GPU variants:
    their geometric mean, or Unmapped where they disagree by more than VARIANT_SPREAD."""
    values = [_predict_one(case, gpu, catalog) for gpu in case.gpus]
    if max(values) / min(values) > VARIANT_SPREAD:
        raise Unmapped(
            f"GPU variant not named and its variants differ by more than {VARIANT_SPREAD - 1:.0%}"
        )
    if case.offline:  # saturated throughput: the figure must not move with the batch
        doubled = replace(case, request=replace(case.request, batch=2 * case.request.batch))
        again = _predict_one(doubled, case.gpus[0], catalog)
        if abs(again / values[0] - 1) > OFFLINE_TOLERANCE:
            raise Unmapped("MLPerf Offline: the calculator's speed still moves with the batch")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _predict_one(case: Case, gpu: str, catalog: Catalog) -> float:
    request = replace(case.request, gpu=gpu)
    try:
        result = estimate(request, catalog)
    except AdvisorError as error:
        raise Unmapped(f"calculator refuses the request: {error}") from None
    figure = getattr(result, case.metric)
    if figure is None:
        raise Unmapped(f"the estimate has no {case.metric}")
    return float(figure["typical"] if isinstance(figure, dict) else figure)
