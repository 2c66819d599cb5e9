"""Writing answers from tool results: the verdict first (yes or no, which one, how many, how long,
how much), then the figures that decide it, then why, then the assumptions it rests on, once.

Every number printed here is a value of a tool result, of the question, or of a passage being
quoted, rounded for reading, so that the number guard can trace each one. Labels and units come
from the workload-family registry, never from a copy here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from advisor.answer import ASSUMED_PREFIX
from advisor.calculator import FAMILIES, METRICS
from advisor.calculator.base import one_epoch_assumed
from advisor.calculator.cost import HOURS_PER_MONTH
from advisor.calculator.precision import no_bf16_tensor

HELP = (
    'I answer questions about GPUs for machine learning: specs ("memory bandwidth of the '
    'L40?"), comparisons ("A100 40GB or L40 for serving Llama-2-13B?"), whether a model fits '
    '("Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"), speed, training time, rental '
    "and purchase cost, and which GPU to pick or buy, for LLMs, image models, Stable Diffusion "
    "and Whisper. Numbers come from the datasheet table and the calculator; passages from the "
    "articles are cited."
)
OUT_OF_SCOPE = (
    "That is outside what I know: I answer questions about GPUs for machine learning (specs, "
    "whether a model fits, speed, training time, rental and purchase cost, which GPU to pick)."
)
INVALID = (
    "I could not read a question in that. I answer questions about GPUs for machine learning "
    '(for example: "Will Llama-3-8B fit on an RTX 4090"). What would you like to know?'
)
ASK_BACK = (
    "To pick a GPU or check a fit I need the job: which model (e.g. Llama 3.1 8B, SDXL, "
    "ResNet-50, Whisper large-v3), what you do with it (run it, fine-tune it, train it), and "
    "whether you rent or buy, with any budget. Which model and job do you have in mind?"
)
CARD_UNKNOWN = (
    "Which graphics card does the machine have? That decides what it can run. To find out: on "
    "Windows, Task Manager > Performance > GPU (or Device Manager > Display adapters); on Linux, "
    "`nvidia-smi` or `lspci | grep -i vga`; a Dell or HP service tag on the vendor's support site "
    "lists the parts it shipped with. A machine with only the processor's graphics runs small "
    "models slowly on the CPU."
)
FIELD_LABELS: dict[str, tuple[str, str]] = {
    "memory_gb": ("memory", "GB"),
    "memory_type": ("memory type", ""),
    "bandwidth_gbs": ("memory bandwidth", "GB/s"),
    "fp16_bf16_dense_tflops": ("dense FP16/BF16 tensor", "TFLOPS"),
    "fp32_tflops": ("FP32 (non-tensor)", "TFLOPS"),
    "fp64_tflops": ("FP64", "TFLOPS"),
    "fp64_tensor_tflops": ("FP64 tensor", "TFLOPS"),
    "tf32_dense_tflops": ("dense TF32 tensor", "TFLOPS"),
    "int8_dense_tops": ("dense INT8 tensor", "TOPS"),
    "fp8_dense_tflops": ("dense FP8 tensor", "TFLOPS"),
    "tensor_cores": ("tensor cores", ""),
    "cuda_cores": ("CUDA cores", ""),
    "mig_max_instances": ("MIG instances", ""),
    "interconnect_gbs": ("GPU-to-GPU link", "GB/s"),
    "pcie": ("host link", ""),
    "tdp_w": ("board power", "W"),
    "form_factor": ("form factor", ""),
    "release_year": ("released", ""),
    "compute_stack": ("software stack", ""),
    "unified_memory": ("memory shared with the CPU", ""),
}
# the vendor stacks as their makers write them
STACK_NAMES = {"cuda": "CUDA", "rocm": "ROCm", "metal": "Metal", "oneapi": "oneAPI (XPU)"}
SUMMARY_FIELDS = ("memory_gb", "bandwidth_gbs", "fp16_bf16_dense_tflops", "tdp_w")


def num(value: float | None, unit: str = "") -> str:
    """A value rounded for reading: 2,039 / 48.3 / 5.70 / 0.0065; unit appended."""
    if value is None:
        return "n/a"
    magnitude = abs(value)
    if magnitude >= 100 or float(value).is_integer():
        text = f"{value:,.0f}"
    elif magnitude >= 10:
        text = f"{value:,.1f}"
    elif magnitude >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.2g}"  # two significant digits: 0.37, 0.0065
    if text == "1" and unit in _ONE_OF:  # "1 month", not "1 months"
        unit = _ONE_OF[unit]
    return f"{text} {unit}".strip()


_ONE_OF = {u: u[:-1] for u in ("hours", "days", "weeks", "months", "years", "minutes", "seconds")}


def exact(value: float | None, unit: str = "") -> str:
    """A datasheet figure as recorded (330.3 TFLOPS, 1,979 TFLOPS), not rounded for reading:
    the reader checks it against the datasheet."""
    if value is None:
        return "n/a"
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0")
    return f"{text} {unit}".strip()


def usd(value: float | None, sign: str = "$") -> str:
    """An amount of money; `sign`: the user's currency where the amount is theirs ("€250")."""
    if value is None:
        return "n/a"
    if sign[-1:].isalpha():  # a code or a word ("SGD", "kr"): apart from the figure
        sign += " "
    if value >= 100:
        return f"{sign}{value:,.0f}"
    if value >= 1:
        return f"{sign}{value:,.2f}"
    text = f"{value:.3g}"  # "$0.165", "$0.40", "$0.0065"
    return f"{sign}{text}0" if re.fullmatch(r"0\.\d", text) else f"{sign}{text}"


def gpus_phrase(n: int, name: str) -> str:
    name = name.removeprefix("a ")  # a generic GPU's name: "a 24 GB GPU"
    return f"one {name}" if n == 1 else f"{n:,} x {name}"


def count_words(n: int) -> str:
    """A small count in words ("two variants"): a count of what is listed, not a figure."""
    return {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}.get(n, "several")


# ---------------------------------------------------------------- datasheets


def field_value(sheet: dict[str, Any], field: str) -> str:
    """One datasheet field as words: '864 GB/s', 'HBM3', 'PCIe 4.0 x16'."""
    if field == "pcie":
        gen, lanes = sheet.get("pcie_gen"), sheet.get("pcie_lanes")
        return f"PCIe Gen {gen} x{lanes}" if gen and lanes else "n/a"
    if field == "interconnect_gbs":
        link = sheet.get("gpu_link")
        if link in ("switch", "bridge"):
            how = (
                "NVLink/fabric, all-to-all" if link == "switch" else "NVLink bridge, pairs of cards"
            )
            return (
                f"{num(sheet.get('gpu_link_gbs') or sheet.get('interconnect_gbs'), 'GB/s')} ({how})"
            )
        # (a card with no NVLink: what its slot moves each way, "PCIe 4.0 x16 only (no
        # NVLink), about 31.5 GB/s each way")
        slot = sheet.get("pcie_gbs_per_direction")
        each_way = f", about {num(slot, 'GB/s')} each way" if slot else ""
        if sheet.get("interconnect"):
            return str(sheet["interconnect"]) + each_way
        return "PCIe only" + each_way
    value = sheet.get(field)
    if field == "unified_memory":  # one pool the CPU and GPU share, or the card's own
        return "yes, unified" if value else "no, the card's own"
    if field == "compute_stack" and value:
        return STACK_NAMES.get(str(value), str(value))
    unit = FIELD_LABELS.get(field, (field, ""))[1]
    if value is None and field in _TENSOR_FIELDS and sheet.get("architecture") in PRE_VOLTA:
        return "none (no tensor cores)"  # NVIDIA's before Volta: a feature that did not exist
    if value is None and field == "fp8_dense_tflops" and sheet.get("architecture") in NO_FP8:
        return "none (no FP8 tensor cores)"
    if value is None:
        return "not published"
    if field == "release_year":  # a year, not a quantity: "2020", never "2,020"
        return f"on {sheet['launch_date']}" if sheet.get("launch_date") else f"in {int(value)}"
    if field == "fp64_tflops" and sheet.get("fp64_tensor_tflops"):
        # double precision on the tensor (matrix) cores as well: what dense FP64 linear algebra
        # reaches (A100: 9.7 vector, 19.5 on its tensor cores)
        cores = "matrix cores" if sheet.get("vendor") == "AMD" else "tensor cores"
        return f"{num(value, unit)} ({num(sheet['fp64_tensor_tflops'], unit)} on its FP64 {cores})"
    if (
        field == "mig_max_instances"
        and isinstance(value, int)
        and value >= 2
        and (smallest := sheet.get("mig_smallest_gb"))
    ):  # "how many MIG instances, and how many gigs does each of the smallest get?"
        return f"{value} (the smallest about {num(smallest, 'GB')} each)"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return num(value, unit)
    return str(value)


def figures_of(sheet: dict[str, Any], fields: Iterable[str]) -> str:
    """ "memory 141 GB; memory bandwidth 4,800 GB/s": a card's datasheet fields, labelled."""
    return "; ".join(f"{FIELD_LABELS[f][0]} {field_value(sheet, f)}" for f in fields)


def spec_lines(sheets: list[dict[str, Any]], fields: tuple[str, ...], variants: bool) -> str:
    """The asked fields first; variants that share a value are answered once. Several fields
    of one card are one line: "**NVIDIA H200 NVL 141GB**: memory 141 GB; memory bandwidth
    4,800 GB/s; MIG instances 7." """
    asked = [f for f in fields if f in FIELD_LABELS] or list(SUMMARY_FIELDS)
    if len(asked) >= 2 and (len(sheets) == 1 or not variants):
        return "\n".join(f"**{s['name']}**: {figures_of(s, asked)}." for s in sheets)
    lines = []
    for field in asked:
        label = FIELD_LABELS[field][0]
        values = {s["id"]: field_value(s, field) for s in sheets}
        if variants and len(set(values.values())) == 1:
            names = ", ".join(s["name"] for s in sheets)
            lines.append(
                f"**{label[:1].upper()}{label[1:]}: {next(iter(values.values()))}** on every "
                "variant "
                f"({names})."
            )
        else:
            for s in sheets:
                lines.append(f"**{s['name']}**: {label} {values[s['id']]}.")
    return "\n".join(lines)


PRE_VOLTA = ("Kepler", "Maxwell", "Pascal")  # NVIDIA generations below compute capability 7.0
# NVIDIA generations with tensor cores but no FP8 format (FP8 came with Hopper and Ada Lovelace)
NO_FP8 = ("Volta", "Turing", "Ampere")
_TENSOR_FIELDS = ("fp16_bf16_dense_tflops", "fp16_bf16_sparse_tflops", "tf32_dense_tflops",
                  "tf32_sparse_tflops", "fp8_dense_tflops", "int8_dense_tops", "int8_sparse_tops",
                  "tensor_cores")  # fmt: skip


def advice(sheet: dict[str, Any], reach: dict[str, dict[str, Any] | None],
           jobs: list[dict[str, Any]]) -> str:  # fmt: skip
    """The verdict on one GPU for ML from what it reaches: the largest LLM it runs in 4-bit and
    fine-tunes with QLoRA, then image generation and training speed."""
    run, tune = reach.get("run"), reach.get("fine-tune with QLoRA")
    name = sheet["name"]
    if run is None:
        head = (f"**Not for LLMs: the {name} cannot run even an 8B model in 4-bit** "
                f"({num(sheet['memory_gb'], 'GB')}).")  # fmt: skip
    elif tune is None:
        head = (
            f"**Yes, for small models: the {name} runs up to {run['model_name']} in 4-bit but "
            f"cannot fine-tune an 8B model with QLoRA** ({num(sheet['memory_gb'], 'GB')})."
        )
    else:
        head = (f"**Yes, within its {num(sheet['memory_gb'], 'GB')}: the {name} runs up to "
                f"{run['model_name']} in 4-bit and fine-tunes up to {tune['model_name']} "
                "with QLoRA.**")  # fmt: skip
    if (sheet.get("architecture") in PRE_VOLTA and not sheet.get("tensor_cores")
            and sheet.get("chip") != "GP100"):  # fmt: skip
        # no tensor cores and no double-rate FP16 (a P40, not a P100): 16-bit math runs at the
        # FP32 rate or below; vLLM needs compute capability 7.0 and up (vLLM's GPU installation
        # page), which no card before Volta has
        head += (
            f" But it has no tensor cores and no fast FP16 ({sheet.get('architecture')}): "
            f"16-bit work runs at its {num(sheet.get('fp32_tflops'), 'TFLOPS')} FP32 rate "
            "or slower, so image generation and training crawl, and vLLM does not support "
            "it; llama.cpp, which reads weights rather than computes, suits it best."
        )
    lines = []
    for label, e in (("Largest LLM it runs (4-bit GGUF)", run),
                     ("Largest it fine-tunes (QLoRA)", tune)):  # fmt: skip
        if e:
            figures = metrics_of(e)
            speed = f", about {num(figures[0][1]['typical'], figures[0][2])}" if figures else ""
            lines.append(f"- {label}: {e['model_name']}, {num(e['memory_per_gpu_gb'], 'GB')} of "
                         f"{num(e['usable_memory_per_gpu_gb'], 'GB')}{speed}.")  # fmt: skip
    for e in jobs:
        figures = metrics_of(e)
        per_image = [f for f in figures if f[2] == "s"]  # "17 s per image" reads better
        figures = per_image or figures
        if not e["fits"]:
            lines.append(f"- {e['model_name']} ({workload_label(e)}): does not fit.")
        elif figures:
            label, band_, unit = figures[0]
            lines.append(f"- {e['model_name']} ({workload_label(e)}): {label} about "
                         f"{num(band_['typical'], unit)}.")  # fmt: skip
    lines.append(sheet_summary(sheet))
    return head + "\n\n" + "\n".join(lines)


def totals_line(sheet: dict[str, Any], fields: tuple[str, ...], bold: bool = True) -> str | None:
    """The asked figures summed over several GPUs: "4 x NVIDIA L40S: 1,400 W of board power"."""
    totals = sheet.get("totals") or {}
    asked = [f for f in (fields or ("memory_gb", "tdp_w")) if f in totals]
    if not asked:
        return None
    parts = [f"{num(totals[f], FIELD_LABELS[f][1])} {FIELD_LABELS[f][0]}" for f in asked]
    line = f"{totals['num_gpus']} x {sheet['name']}: {', '.join(parts)} in all."
    return f"**{line}**" if bold else line


def no_bf16(sheet: dict[str, Any]) -> bool:
    """A datasheet whose generation has no bf16 tensor cores (Pascal, Volta, Turing)."""
    return no_bf16_tensor(sheet.get("architecture") or "", sheet.get("memory_type"))


def sheet_summary(sheet: dict[str, Any]) -> str:
    parts = [f"{num(sheet['memory_gb'], 'GB')} {sheet.get('memory_type') or ''}".strip()]
    if sheet.get("unified_memory") and "unified" not in parts[0].lower():  # not said twice
        parts[0] += " of unified memory shared with the CPU"
    parts.append(f"{num(sheet['bandwidth_gbs'], 'GB/s')}")
    if sheet.get("fp16_bf16_dense_tflops"):
        # (a card with no bf16 tensor cores, a T4 or a V100: its tensor rate is FP16's alone)
        kind = "FP16" if no_bf16(sheet) else "FP16/BF16"
        parts.append(f"{num(sheet['fp16_bf16_dense_tflops'], 'TFLOPS')} dense {kind}")
    elif sheet.get("fp32_tflops"):  # no tensor cores (Pascal and before): its FP32 rate
        parts.append(f"{num(sheet['fp32_tflops'], 'TFLOPS')} FP32")
    if sheet.get("tdp_w"):
        parts.append(num(sheet["tdp_w"], "W"))
    return (
        f"{sheet['name']}: " + ", ".join(parts) + f"; {sheet['architecture']}, {sheet['segment']}."
    )


STACK_NOTES = {
    "rocm": "AMD GPU: ROCm instead of CUDA; PyTorch, vLLM and llama.cpp run, TensorRT-LLM does not",
    "oneapi": "Intel GPU: no CUDA; PyTorch XPU, IPEX-LLM and llama.cpp (SYCL or Vulkan) run",
    "metal": "Apple GPU: unified memory, no CUDA; llama.cpp (Metal) and MLX run, vLLM and "
    "bitsandbytes do not",
    "synapseai": "Intel Gaudi: SynapseAI stack, no CUDA; PyTorch and vLLM-Gaudi run",
}


# the software side asked of a card that is no CUDA card ("is ROCm ok?", "is AMD there yet?")
STACK_VERDICTS = {
    "rocm": "On the software, asked: for running models (llama.cpp and Ollama, vLLM, PyTorch) "
    "ROCm works on the cards AMD supports; fine-tuning libraries and newer kernels reach CUDA "
    "first and ROCm later, so NVIDIA is the easier path if you will train or use niche tools.",
    "oneapi": "On the software, asked: llama.cpp (SYCL or Vulkan), IPEX-LLM and PyTorch XPU run "
    "models; most training and serving tools assume CUDA, so expect more setup than on NVIDIA.",
    "metal": "On the software, asked: llama.cpp (Metal), Ollama and MLX run models well; CUDA-only "
    "tools (vLLM, bitsandbytes, most training recipes) do not run.",
}


def stack_note(sheet: dict[str, Any]) -> str | None:
    stack = sheet.get("compute_stack")
    note = STACK_NOTES.get(stack) if stack and stack != "cuda" else None
    if note and sheet.get("gpu_usable_gb"):  # a Mac: what its GPU may wire by default
        note += (f". By default the GPU may use about {num(sheet['gpu_usable_gb'], 'GB')} "
                 f"({num(sheet['gpu_usable_gib'])} GiB) of the {num(sheet['memory_gb'], 'GB')} "
                 "(the share of unified memory macOS wires to it; sysctl iogpu.wired_limit_mb "
                 "raises the limit)")  # fmt: skip
    return note


def stack_notes(sheets: list[dict[str, Any]]) -> list[str]:
    """Each software stack's note once, however many of its cards are shown; the default GPU
    share of each Mac's memory in the one note ("the m4 pro": three variants, one note)."""
    notes = []
    for stack in sorted({str(s.get("compute_stack")) for s in sheets} - {"None", "cuda"}):
        group = [s for s in sheets if s.get("compute_stack") == stack]
        shares = [s for s in group if s.get("gpu_usable_gb")]
        if len(shares) <= 1:
            notes += [n for n in {stack_note(s) for s in group} if n]
            continue
        each = ", ".join(f"about {num(s['gpu_usable_gb'], 'GB')} of the "
                         f"{num(s['memory_gb'], 'GB')}" for s in shares)  # fmt: skip
        notes.append(f"{STACK_NOTES[stack]}. By default the GPU may use {each} (the share of "
                     "unified memory macOS wires to it; sysctl iogpu.wired_limit_mb raises the "
                     "limit)")  # fmt: skip
    return sorted(notes)


def asked_line(sheets: list[dict[str, Any]], fields: tuple[str, ...]) -> str:
    """'**FP64: NVIDIA A100 SXM4 40GB 9.70 TFLOPS, NVIDIA H100 SXM5 80GB 34 TFLOPS.**'"""
    parts = []
    for field in fields:
        values = ", ".join(f"{s['name']} {field_value(s, field)}" for s in sheets)
        parts.append(f"{FIELD_LABELS[field][0]}: {values}")
    text = "; ".join(parts)
    return f"**{text[0].upper()}{text[1:]}.**"


def field_pick(sheets: list[dict[str, Any]], field: str) -> str | None:
    """ "**On FP64, the NVIDIA A100 SXM4 40GB leads: 9.70 TFLOPS against 7.80 TFLOPS.**": the
    card ahead on a figure where more is better, or None (power, or no difference)."""
    if field == "tdp_w":
        return None
    rows = [s for s in sheets if isinstance(s.get(field), int | float)]
    if len(rows) < 2 or len({s[field] for s in rows}) == 1:
        return None
    best = max(rows, key=lambda s: s[field])
    others = " and ".join(field_value(s, field) for s in rows if s is not best)
    label = FIELD_LABELS[field][0]
    return (f"**On {label}, the {best['name']} leads: {field_value(best, field)} against "
            f"{others}.**")  # fmt: skip


def variant_note(
    written: str,
    sheets: list[dict[str, Any]],
    fields: tuple[str, ...],
    same: bool,
    asked: tuple[str, ...] = (),
) -> str:
    """A name that covers several variants: the same on every figure shown, or read as the first
    with what the others differ on (and, when the figures asked are shared, that they are)."""
    names = ", ".join(s["name"] for s in sheets)
    if same:
        return f"'{written}' covers {names}: the same on every figure shown."
    differ = [f for f in fields if len({field_value(s, f) for s in sheets}) > 1]
    others = "; ".join(
        f"{FIELD_LABELS[f][0]} " + ", ".join(field_value(s, f) for s in sheets[1:]) for f in differ
    )
    labels = " and ".join(FIELD_LABELS[f][0] for f in asked)
    shared = (
        f"'{written}' covers {names}, the same on {labels}; "
        if asked
        else f"'{written}' is read as the {sheets[0]['name']}; "
    )
    table = f"the table shows the {sheets[0]['name']}; " if asked else ""
    return (
        f"{shared}{table}the other variants "
        f"({', '.join(s['name'] for s in sheets[1:])}) differ: {others}."
    )


def compare_table(sheets: list[dict[str, Any]], fields: tuple[str, ...]) -> str:
    rows = ["| | " + " | ".join(s["name"] for s in sheets) + " |", "|---" * (len(sheets) + 1) + "|"]
    tensor = "fp16_bf16_dense_tflops"
    if tensor in fields and "fp32_tflops" not in fields and any(not s.get(tensor) for s in sheets):
        # a card without 16-bit tensor units (Pascal, a GTX): its FP32 rate is the one to set
        # against the others
        at = fields.index(tensor) + 1
        fields = (*fields[:at], "fp32_tflops", *fields[at:])
    for field in fields:
        label = FIELD_LABELS[field][0]
        rows.append(f"| {label} | " + " | ".join(field_value(s, field) for s in sheets) + " |")
    return "\n".join(rows)


COMPARE_JOBS = (
    ("LLM inference", "bandwidth_gbs", "memory bandwidth decides decode speed"),
    ("training", "fp16_bf16_dense_tflops", "dense FP16/BF16 compute decides it"),
    ("large models", "memory_gb", "memory decides what fits"),
)


def job_ratio(result: dict[str, Any]) -> str:
    """ "For training ResNet-50 ...: the RTX A5000 is about 1.4x as fast": the job decides."""
    rows = sorted(result["gpus"], key=lambda r: -(r["speed"] or 0))
    counted = (result.get("num_gpus") or 1) == 1 and any((r.get("num_gpus") or 1) > 1 for r in rows)
    if counted:  # "2 x RTX 3090 vs one RTX A6000", "8 x A100 vs 8 x H100" (counts of each)
        rows = [{**r, "gpu_name": gpus_phrase(r["num_gpus"], r["gpu_name"]).removeprefix("one ")}
                for r in rows]  # fmt: skip
    best = rows[0]
    setting = f"{result['precision']}, batch {result['batch']}"
    if result.get("checkpointing"):
        setting += ", gradient checkpointing on"
    if result.get("framework"):
        setting += f", {result['framework']}"
    if (result.get("num_gpus") or 1) > 1:
        setting += f", {result['num_gpus']} GPUs each"
    what = f"{result['metric']} of {result['model_name']} ({setting})"
    if best["speed"] is None:
        return f"**None of them fits {result['model_name']} for this job** ({setting})."
    figures = "; ".join(
        (f"{r['gpu_name']} {ratio_figure(r['speed'], result['unit'])}"
         + (f" (over {r['interconnect']}{_link_figure(r)})" if r.get("interconnect") else ""))
        if r["speed"] else
        f"{r['gpu_name']} does not fit" for r in rows
    )  # fmt: skip
    fitting = [r for r in rows if r["speed"]]
    speedup = best["speedup"]
    if len(fitting) == 2:  # the ratio of the two figures as written ("231 against 76.9": 3.00x)
        shown = [float(num(r["speed"]).replace(",", "")) for r in fitting]
        if min(shown) > 0:
            speedup = max(shown) / min(shown)
    if len(fitting) == 1:
        head = f"**Pick the {best['gpu_name']}: the only one that fits"
    elif speedup < 1.005:
        head = "**They are as fast"
    elif speedup < 1.05:
        head = f"**They are about as fast: the {best['gpu_name']} by {num(speedup)}x"
    else:
        head = f"**Pick the {best['gpu_name']}: about {num(speedup)}x as fast"
    return head + f"** by the {what}: {figures}."


def work_per_dollar(result: dict[str, Any], provider: str | None = None) -> str:
    """ "Which is cheaper per training token?": the setups of a compare_workload result by what a
    unit of the work costs at their median rent; "" when fewer than two are priced."""
    rows = sorted((r for r in result["gpus"] if r.get("usd_per_unit")),
                  key=lambda r: r["usd_per_unit"])  # fmt: skip
    if len(rows) < 2 or len({r["cost_unit"] for r in rows}) != 1:
        return ""
    unit = rows[0]["cost_unit"]
    each = "; ".join(
        f"{gpus_phrase(r['num_gpus'], r['gpu_name'])} {usd(r['usd_per_unit'])} "
        f"({usd(r['usd_per_hour'])}/hour)" for r in rows
    )  # fmt: skip
    best = gpus_phrase(rows[0]["num_gpus"], rows[0]["gpu_name"]).removeprefix("one ")
    whose = f"{provider}'s median prices" if provider else "median prices"
    return f"**Cheaper {unit}: the {best}** ({whose}): {each}."


def ratio_figure(value: float, unit: str) -> str:
    """A speed beside a ratio: three significant digits below 1 (0.135 images/s), so the ratio
    can be read back from the figures shown."""
    return f"{value:.3g} {unit}".strip() if 0 < abs(value) < 1 else num(value, unit)


def ratio_head(sheets: list[dict[str, Any]]) -> str | None:
    """ "How much slower is the laptop one?": of two cards, how many times the other is ahead on
    each common job's deciding figure (None unless one card leads on all of them)."""
    # variants that share the deciding figures (a laptop card's 8 and 16 GB) are one side
    sides = {(s.get("bandwidth_gbs"), s.get("fp16_bf16_dense_tflops")): s for s in sheets}
    sheets = list(sides.values())
    if len(sheets) != 2:
        return None
    parts, ahead = [], set()
    for job, field, _why in COMPARE_JOBS[:2]:  # speed: bandwidth for decode, compute to train
        a, b = sheets[0].get(field), sheets[1].get(field)
        if not a or not b or a == b:
            continue
        fast, slow = (sheets[0], sheets[1]) if a > b else (sheets[1], sheets[0])
        ahead.add(fast["name"])
        values = " vs ".join(field_value(s, field) for s in (fast, slow))
        parts.append(f"{num(max(a, b) / min(a, b))}x for {job} ({FIELD_LABELS[field][0]} "
                     f"{values})")  # fmt: skip
    if not parts or len(ahead) != 1:
        return None
    fast_name = ahead.pop()
    slow_name = next(s["name"] for s in sheets if s["name"] != fast_name)
    first, _, rest = parts[0].partition(" for ")
    more = "".join(f", and {p}" for p in parts[1:])
    return (
        f"**The {fast_name} is about {first} as fast as the {slow_name} for {rest}{more}, as "
        "far as those figures decide it.**"
    )


def compare_head(sheets: list[dict[str, Any]], jobs_said: tuple[str, ...] = ()) -> str:
    """Which to pick for each common job, with the figure that decides it (the jobs the user
    said only, of COMPARE_JOBS, where the cards differ on them); cards that share the best
    figure (two variants of one chip) are picked together, and a figure every card shares is
    said level."""
    picks: dict[tuple[str, ...], list[str]] = {}
    level = []
    jobs = [j for j in COMPARE_JOBS if j[0] in jobs_said]
    if not jobs or all(len({s.get(field) for s in sheets}) == 1 for _job, field, _why in jobs):
        jobs = list(COMPARE_JOBS)  # none said, or the cards are level on those said
    for job, field, _why in jobs:
        values = {s["name"]: float(s[field]) for s in sheets if s.get(field) is not None}
        if len(values) < 2:
            continue
        best = (min if field == "tdp_w" else max)(values.values())
        ahead = tuple(name for name, v in values.items() if v == best)
        if len(ahead) == len(values):
            level.append(FIELD_LABELS[field][0])
        else:
            picks.setdefault(ahead, []).append(job)
    if not picks:
        return "**They are level on memory, bandwidth and compute.**"
    parts = []
    for names, job_names in picks.items():
        figures = []
        ordered = sorted(sheets, key=lambda s: s["name"] not in names)  # the picked card's first
        for job, field, _why in COMPARE_JOBS:
            if job in job_names:
                shown = " vs ".join(field_value(s, field) for s in ordered)
                figures.append(f"{FIELD_LABELS[field][0]} {shown}")
        which = " or the ".join(names)
        parts.append(f"the {which} for {' and '.join(job_names)} ({'; '.join(figures)})")
    even = f" Level on {' and '.join(level)}." if level else ""
    return "**Pick " + "; ".join(parts) + "." + even + "**"


# ---------------------------------------------------------------- estimates


SLOW_IMAGES_PER_S = 0.2  # slower than this, a pipeline's pace is said in seconds per image


def lead_metric(e: dict[str, Any], asked: str = "") -> tuple[str, dict[str, float], str]:
    """The figure one estimate's answer leads with: the one the question names, else the
    family's first, but seconds per image for a slow pipeline ("how fast is SDXL on an M2
    Pro?": 129 s an image, not 0.0078 images/s)."""
    family = FAMILIES.get(e.get("family", "llm"))
    named = family and any(m.asked and re.search(m.asked, asked)
                           for m in family.metrics.get(e["workload"], ()))  # fmt: skip
    metrics = metrics_of(e, asked)
    if metrics and metrics[0][2].endswith(("/min", "/h")):
        return metrics[0]  # "how many images per hour?": in the span asked
    slow = (e.get("images_per_s") or {}).get("typical", 1.0) < SLOW_IMAGES_PER_S
    pace = next((m for m in metrics if m[2] == "s" and "image" in m[0]), None)
    return pace if slow and pace and not named else metrics[0]


def metrics_named(e: dict[str, Any], asked: str) -> list[Any]:
    """The family's figures the question names by their words, in the order it names them
    ("faster for generation, and which for prompt processing": decode, then prefill)."""
    family = FAMILIES.get(e.get("family", "llm"))
    metrics = family.metrics.get(e["workload"], ()) if family and asked else ()
    found = [(m_.start(), m) for m in metrics if m.asked and (m_ := re.search(m.asked, asked))]
    return [m for _, m in sorted(found, key=lambda pair: pair[0])]


def metrics_of(e: dict[str, Any], asked: str = "") -> list[tuple[str, dict[str, float], str]]:
    """(label, band, unit) of every figure an estimate reports, in the family's order; the one
    the question `asked` (lowercased) names by its words first."""
    family = FAMILIES.get(e.get("family", "llm"))
    metrics = list(family.metrics.get(e["workload"], ())) if family else []
    named = metrics_named(e, asked)
    metrics = [*named, *(m for m in metrics if m not in named)]
    # the family's own metric: "images/s" for ViT inference, "sequences/s" for BERT's
    found = [(m.label, e[m.key], m.unit) for m in metrics if e.get(m.key)]
    per = _PER_SPAN.search(asked) if asked else None
    if per is None:
        return found
    # "how many images per minute": the per-second figure in the span asked, first
    noun = _RATE_NOUNS[per.group(1)[:3]]
    span = "min" if per.group(2).startswith("m") else "h"
    factor, word = (60, "minute") if span == "min" else (3600, "hour")
    spans = [(label.replace("per second", f"per {word}") if "per second" in label
              else f"{label} per {word}", {k: v * factor for k, v in b.items()},
              f"{unit[:-2]}/{span}")
             for label, b, unit in found
             if unit.endswith("/s") and unit.startswith(noun)]  # fmt: skip
    return [*spans[:1], *found] if spans else found


_RATE_NOUNS = {"ima": "images", "img": "images", "pic": "images", "tok": "tokens",
               "seq": "sequences", "sam": "sequences"}  # fmt: skip
# a rate asked per minute or per hour: "images per minute", "tokens/min", "imgs an hour"
_PER_SPAN = re.compile(
    r"\b(images?|imgs?|pictures?|pics?|tokens?|toks?|sequences?|samples?)\s?(?:per|a|an|/|each)"
    r"\s?(min(?:ute)?s?|h(?:ou)?rs?|hour|h)\b"
)


def _time_unit(hours: float) -> tuple[float, str]:
    """How to say a wall time: in hours, minutes or seconds, by its size."""
    if hours >= 1:
        return 1.0, "hours"
    if hours * 60 >= 2:
        return 60.0, "minutes"
    return 3600.0, "s"


def _in_days(hours: float) -> str:
    """A long wall time's days, said beside its hours ("about 1,604 hours (66.8 days)"): from
    three days to two years, where days are how people count a run."""
    return f"{num(hours / 24)} days" if 72 <= hours < 2 * 8760 else ""


def duration(hours: float) -> str:
    factor, unit = _time_unit(hours)
    value = num(hours * factor)
    if value == "1" and unit != "s":  # "1 hour"; "1 s" stays as it is
        unit = unit[:-1]
    days = _in_days(hours)
    return f"{value} {unit}" + (f" ({days})" if days else "")


def duration_band(b: dict[str, float]) -> str:
    """ "about 3.8 minutes (2.9-5.4)": the spread in the typical figure's unit."""
    factor, unit = _time_unit(b["typical"])
    days = _in_days(b["typical"])
    if days:
        return f"about {num(b['typical'], unit)} ({days}; {num(b['low'])}-{num(b['high'])} hours)"
    if factor == 1.0:
        return band(b, unit)
    low, high = num(b["low"] * factor, unit), num(b["high"] * factor, unit)
    seconds = (
        f", {num(b['typical'] * 3600, 's')}" if unit == "minutes" and b["typical"] < 1 / 6 else ""
    )
    return f"about {num(b['typical'] * factor, unit)} ({low} to {high}{seconds})"


def band(b: dict[str, float], unit: str) -> str:
    if unit.endswith(("/min", "/h")):  # a rate per minute or hour: each end in its unit
        return f"about {num(b['typical'], unit)} ({num(b['low'], unit)} to {num(b['high'], unit)})"
    return f"about {num(b['typical'], unit)} ({num(b['low'])}-{num(b['high'])})"


def workload_label(e: dict[str, Any]) -> str:
    family = FAMILIES.get(e.get("family", "llm"))
    return family.workload_label(e["workload"]) if family else e["workload"]


def settings(e: dict[str, Any]) -> str:
    parts = [e["precision"]]
    if e.get("family", "llm") == "llm":
        parts.append(f"context {e['context']:,}")
    if e.get("resolution"):
        parts.append(f"{e['resolution']:,} px")
    if e.get("steps"):
        parts.append(f"{e['steps']} step" + ("" if e["steps"] == 1 else "s"))
    parts.append(f"batch {e['batch']}")
    if e.get("engine"):
        parts.append(str(e["engine"]) + _backend_asked(e))
    if e.get("interconnect"):
        parts.append(f"over {e['interconnect']}")
    if e.get("training_setup"):
        parts.append(str(e["training_setup"]))
    return ", ".join(parts)


def _backend_asked(e: dict[str, Any]) -> str:
    """llama.cpp's backend, when the question named one (the vendor's default goes unsaid)."""
    said = next((a for a in e.get("assumptions", ()) if a.startswith("llama.cpp backend: ")), "")
    if not said or "not given" in said:
        return ""
    return f" ({said.removeprefix('llama.cpp backend: ').split(';')[0].split(' (')[0]})"


def usable(e: dict[str, Any]) -> str:
    """ "25.1 GB usable", and why that is more than a "24 GB" card has: datasheets count memory
    in binary gigabytes (GiB), the calculator in decimal ones."""
    text = f"{num(e['usable_memory_per_gpu_gb'], 'GB')} usable"
    nominal = e.get("gpu_memory_gb")
    if e.get("reserved_gb"):  # "reserving 4 GB for the OS": out of the card's usable memory
        kept = num(e["reserved_gb"], "GB")
        of = f"of its {num(nominal, 'GB')}, " if nominal else ""
        return text + f" ({of}{kept} kept for other work, as you said)"
    if nominal and e["usable_memory_per_gpu_gb"] > nominal:
        text += f" (the card's {num(nominal, 'GB')} are binary, {num(nominal * 1.073741824, 'GB')})"
    return text


def memory_line(e: dict[str, Any]) -> str:
    per = " per GPU" if e["num_gpus"] > 1 else ""
    nominal = e.get("gpu_memory_gb")
    below = nominal and nominal > e["usable_memory_per_gpu_gb"] and not e.get("reserved_gb")
    card = f" of its {num(nominal, 'GB')}" if below else ""
    head = f"Needs about {num(e['memory_per_gpu_gb'], 'GB')}{per} of {usable(e)}{card}"
    if not e["fits"]:
        head += f": {num(-e['headroom_gb'], 'GB')} short"
    elif e["headroom_gb"] >= 0.05:
        head += f", leaving {num(e['headroom_gb'], 'GB')} spare"
    if e["fits"] and e.get("engine_setting"):  # "fits only with --gpu-memory-utilization 0.95"
        head += f", only with {e['engine_setting']}"
    line = f"{head} ({breakdown(e)})."
    line += rule_of_thumb(e)
    if e.get("weights_alone_gb"):  # an image pipeline's models together
        line += f" The weights alone are {num(e['weights_alone_gb'], 'GB')}."
    return line + (f" {split_weights_line(e)}" if split_weights_line(e) else "")


def _link_figure(row: dict[str, Any]) -> str:
    """ ", 900 GB/s per GPU both ways": the link's figure as datasheets print it."""
    gbs = row.get("interconnect_gbs")
    return f", {num(gbs, 'GB/s')} per GPU both ways" if gbs else ""


def _use_rate(result: dict[str, Any]) -> str:
    """ "6 hours a day", or for a few hours a month "2 hours a month" (0.066 a day reads badly)."""
    if result["hours_per_day"] < 0.5 and result.get("hours_per_month"):
        return f"{num(result['hours_per_month'])} hours a month"
    return f"{num(result['hours_per_day'])} hours a day"


def rule_of_thumb(e: dict[str, Any]) -> str:
    """The size worked out by hand, when the estimate's differs from it: parameters x nominal
    bytes (the estimate counts the format's scales and 16-bit embeddings), or 16 bytes per
    parameter for a full fine-tune."""
    if e.get("model_states_rule_gb"):
        every = " in all" if (e.get("num_gpus") or 1) > 1 else ""
        return (f" By the usual rule of 16 bytes per parameter (weights, gradients, Adam), the "
                f"{num(e['params_b'])}B parameters need {num(e['model_states_rule_gb'], 'GB')}"
                f"{every} before activations"
                + (f"; the 16-bit weights alone are {num(e['weights_16bit_gb'], 'GB')}."
                   if e.get("weights_16bit_gb") else "."))  # fmt: skip
    nominal = e.get("weights_nominal_gb")
    weights = e["breakdown_gb"].get("weights", 0) * (e.get("num_gpus") or 1)
    if not nominal or abs(weights - nominal) <= 0.01 * nominal:
        return ""
    per = e["nominal_bytes_per_param"]
    unit = "byte" if per == 1 else "bytes"
    why = ""
    if per < 2 and weights > nominal:  # over GPUs, the split line gives the weights in all
        why = (
            f"; the {num(weights, 'GB')} above adds the format's scales and the layers kept "
            "in 16 bits"
            if (e.get("num_gpus") or 1) == 1
            else "; the format's scales and the layers kept in 16 bits add the rest"
        )
    return (f" By hand, {num(e['params_b'])}B parameters x {num(per)} {unit} = "
            f"{num(nominal, 'GB')} of weights{why}.")  # fmt: skip


def split_weights_line(e: dict[str, Any]) -> str | None:
    """Inference over N GPUs splits the weights (tensor parallel): their size in all."""
    if not e.get("weights_all_gpus_gb"):
        return None
    kv = e.get("kv_cache_all_gpus_gb") or 0
    together = num(e["weights_all_gpus_gb"] + kv, "GB")
    cache = f" and the KV cache {num(kv, 'GB')} ({together} together)" if kv >= 0.005 else ""
    return (f"The weights are {num(e['weights_all_gpus_gb'], 'GB')}{cache} in all, split across "
            f"the {e['num_gpus']} GPUs.")  # fmt: skip


def speed_lines(e: dict[str, Any], first_only: bool = False, asked: str = "") -> list[str]:
    lines = []
    for label, b, unit in metrics_of(e, asked):
        text = f"{label.capitalize()}: {band(b, unit)}"
        serving = METRICS.get("serving_tokens_per_s")
        if serving and label == serving.label and e.get("serving_batch"):
            n = e["serving_batch"]
            text += f" with {n} request{'s' if n != 1 else ''} in flight"
            prompt = e.get("serving_prompt") or e.get("context")
            if prompt:  # why it can be below one stream's decode speed
                text += (f" (output tokens, counting the time to read each "
                         f"{prompt:,}-token prompt)")  # fmt: skip
        first = METRICS.get("time_to_first_token_s")
        if first and label == first.label and e.get("first_token_prompt"):
            text += f" after a {e['first_token_prompt']:,}-token prompt"  # the wait is the prompt's
        decode = METRICS.get("decode_tokens_per_s")
        if decode and label == decode.label and e.get("batch", 1) > 1 and b:
            each = e.get("decode_tokens_per_s_each") or b["typical"] / e["batch"]
            text += f" for {e['batch']} sequences together, {num(each, unit)} each"
        lines.append(text + ".")
        if first_only:
            break
    if not first_only and e.get("precision") == "fp8" and e.get("gpu_fp8_tflops", 1) is None:
        # "llama 8b in fp8 on my 3090": the Marlin path, FP8 weights with 16-bit math
        lines.append(f"The {e['gpu_name']} has no FP8 tensor cores: the FP8 weights run "
                     "weight-only, the math at 16 bits, so decode gains from the smaller weights "
                     "and prompt processing does not.")  # fmt: skip
    if e.get("job_hours"):
        whole = "One epoch (say how many the run has)" if one_epoch(e) else "Whole job"
        lines.append(f"{whole}: {duration_band(e['job_hours'])} of wall time.")
    return lines


def defaults_line(e: dict[str, Any]) -> str | None:
    """The defaults this estimate assumed (what the question did not say), once."""
    said = [a for a in e.get("assumptions", []) if " not given" in a or a.startswith("generic")]
    if not said:
        return None
    short = [re.sub(r" assumed(?= for|$)", "", re.sub(r" not given: ", " ", a)) for a in said]
    return ASSUMED_PREFIX + "; ".join(short) + "."


def cost_line(e: dict[str, Any]) -> str | None:
    c = e.get("cost")
    if not c or c.get("usd_per_hour") is None:
        return None
    gpus = "one GPU" if e["num_gpus"] == 1 else f"{e['num_gpus']} GPUs"
    text = f"Renting {gpus}: {usd(c['usd_per_hour'])}/hour"
    if c.get("usd_per_job") is not None:
        text += f", about {usd(c['usd_per_job'])} for the job"
    elif c.get("usd_per_unit") is not None:
        text += f", about {usd(c['usd_per_unit'])} {c.get('cost_unit', '')}".rstrip()
        loaded = c.get("usd_per_million_tokens_full_load")
        if (
            loaded
            and c.get("cost_unit") == "per million tokens"
            and loaded < 0.8 * c["usd_per_unit"]
        ):
            # one stream's tokens pay for the whole card: at full load the same card's hour is
            # shared by every request in flight (the serving throughput above)
            streams = "one stream" if e.get("batch", 1) == 1 else f"batch {e['batch']}"
            text += f" at {streams}, {usd(loaded)} at full load"
    return text + f" (median price; {c.get('price_provider', '')}, {c.get('price_date', '')})."


def host_split(e: dict[str, Any]) -> str | None:
    """llama.cpp with layers in system RAM: how the model is split (None when it is not)."""
    n = e.get("gpu_layers")
    if n is None or e["gpu"] == "cpu":
        return None
    where = gpus_phrase(e["num_gpus"], e["gpu_name"])
    rest = e["host_layers"]
    if not rest:  # every layer on the card; the token embedding and the output head are not
        return (f"all {n} of its layers on {where}, the token embedding and the output head "
                f"({num(e['host_memory_gb'], 'GB')}) in system RAM, run by the CPU")  # fmt: skip
    return (f"{n} of its {e['layers']} layers on {where}, the other {rest} "
            f"({num(e['host_memory_gb'], 'GB')}) in system RAM, run by the CPU")  # fmt: skip


def ram_check(e: dict[str, Any], ram_gb: float | None) -> str:
    """Whether the machine's RAM, as the user gives it, holds the CPU's layers."""
    if not ram_gb or not e.get("host_memory_gb"):
        return ""
    left = ram_gb - e["host_memory_gb"]
    if left >= 4:
        return f" (your {num(ram_gb, 'GB')} of RAM holds them)"
    return (f" (your {num(ram_gb, 'GB')} of RAM is too little for them beside the system: "
            "expect swapping)")  # fmt: skip


# a rate asked by its unit: "how many sequences/sec", "images per second", "throughput"
_RATE_UNIT_ASKED = re.compile(
    r"^(?![^?]*\b(?:how long|how many (?:hours|days|minutes)|when)\b)"
    r"(?:.*\bhow many (?:sequences?|seqs?|images?|imgs?|samples?|tokens?|toks?|frames?)\b"
    r"|.*\b(?:sequences?|seqs?|images?|imgs?|samples?|tokens?|toks?|frames?)\s?(?:/|per\s)\s?"
    r"(?:s|sec|second)\s?\?|.*\bthroughput\b)",
    re.DOTALL,
)


def one_epoch(e: dict[str, Any]) -> bool:
    """A training job sized as one pass because the question gave no epochs."""
    return one_epoch_assumed(e.get("assumptions", []))


def fit_head(e: dict[str, Any]) -> str:
    split = host_split(e)
    if split and e["fits"]:  # the card alone does not hold it: said, then how it runs anyway
        where = gpus_phrase(e["num_gpus"], e["gpu_name"])
        return (f"**Yes, split: {e['model_name']} does not fit on {where} alone; it runs with "
                f"{split}** ({workload_label(e)}, {settings(e)}).")  # fmt: skip
    if split and e["memory_per_gpu_gb"] <= e["usable_memory_per_gpu_gb"]:
        return (f"**No, not in the RAM you have: {e['model_name']} would run with {split}, more "
                f"than your RAM holds beside the system** ({workload_label(e)}, "
                f"{settings(e)}).")  # fmt: skip
    if e["gpu"] == "cpu":  # llama.cpp or Whisper on the CPU alone: the RAM it needs, its pace
        need = num(e["memory_per_gpu_gb"], "GB")
        first = metrics_of(e)[:1]
        pace = band(first[0][1], first[0][2]) if first else "a pace not estimated"
        said = e["usable_memory_per_gpu_gb"] != e["memory_per_gpu_gb"]  # a RAM size was given
        if not e["fits"]:
            lead = (
                f"No: {e['model_name']} needs {need} of RAM on the CPU alone, more than the "
                f"{num(e['usable_memory_per_gpu_gb'], 'GB')} free"
            )
        elif said:
            lead = f"Yes: {e['model_name']} runs on the CPU alone in {need} of RAM, at {pace}"
        else:
            does = "generates" if e.get("decode_tokens_per_s") else "runs at"
            lead = f"On the CPU alone, {e['model_name']} needs {need} of RAM and {does} {pace}"
        return f"**{lead}** ({e['gpu_name']}; {settings(e)})."
    verdict = "Yes" if e["fits"] else "No"
    fits = "fits on" if e["fits"] else "does not fit on"
    where = gpus_phrase(e["num_gpus"], e["gpu_name"])
    setting = e.get("engine_setting") if e["fits"] else None  # "... only with a setting raised"
    only = f", only with {setting.split(' (')[0]}" if setting else ""
    return (
        f"**{verdict}: {e['model_name']} {fits} {where} for {workload_label(e)}{only}** "
        f"({settings(e)})."
    )


def memory_needed(e: dict[str, Any]) -> str:
    """What a job needs on any GPU: the peak and its parts, then the defaults it rests on."""
    parts = breakdown(e)
    head = (
        f"**{e['model_name']} needs about {num(e['memory_per_gpu_gb'], 'GB')} of GPU memory for "
        f"{workload_label(e)}** ({settings(e)}): {parts}."
    )
    lines = [head]
    defaults = defaults_line(e)
    if defaults:
        lines.append(defaults)
    return "\n\n".join(lines)


def holders(result: dict[str, Any]) -> str:
    """The GPUs (and how many) that hold a job, best first, each with its speed and price."""
    rows = []
    for r in result["ranked"]:
        row = (
            f"{gpus_phrase(r['num_gpus'], r['gpu_name'])} (about {num(r['speed'], r['speed_unit'])}"
        )
        if r.get("usd_per_hour") is not None:
            row += f", {usd(r['usd_per_hour'])}/hour"
        rows.append(row + ")")
    return f"GPUs that hold it, ranked by {result['ranking']}: " + "; ".join(rows) + "."


# one user's share asked: "per user", "each", "per person"
_EACH_ASKED = re.compile(r"\bper (?:user|person|head|stream|request|seat)\b|\beach\b")
# audio transcribed as fast as it plays, asked: "in real time?", "live", "realtime"
_REAL_TIME = re.compile(r"\breal[- ]?time\b|\btemps r[ée]el\b|\btiempo real\b|\bechtzeit\b")


def fit_answer(e: dict[str, Any], alternatives: list[str], speed_first: bool = False,
               fit_asked: bool = False, asked: str = "") -> str:  # fmt: skip
    """One model on one GPU: the verdict (or, `speed_first`, the speed or the job's time, led by
    "Yes, it fits." when `fit_asked`: "can it run X, and how fast?"; the figure the question
    `asked` names by its words first), then the figures."""
    speed = speed_lines(e, asked=asked) if e["fits"] else []
    job = e.get("job_hours") or e.get("train_hours")
    rate_asked = _RATE_UNIT_ASKED.search(asked)
    if speed_first and speed and job and not rate_asked:  # "how long": the wall time leads
        where = gpus_phrase(e["num_gpus"], e["gpu_name"])
        gpu_hours = (e.get("cost") or {}).get("job_gpu_hours")
        across = (f"; {num(gpu_hours, 'GPU-hours')} across the {e['num_gpus']}"
                  if gpu_hours and e["num_gpus"] > 1 else "")  # fmt: skip
        span = "per epoch (the epochs not given)" if one_epoch(e) else "of wall time"
        head = (
            f"**{duration_band(job).capitalize()} {span} for {e['model_name']} "
            f"on {where}**{across} "
            f"({workload_label(e)}, {settings(e)})."
        )
        if across and not one_epoch(e) and GPU_HOURS_ASKED.search(asked):
            # "how many H100 hours to train ...": the GPU-hours lead, the wall time beside them
            head = (f"**About {num(gpu_hours, 'GPU-hours')} across the {e['num_gpus']} GPUs** "
                    f"({e['model_name']} on {where}; {duration_band(job)} of wall time; "
                    f"{workload_label(e)}, {settings(e)}).")  # fmt: skip
        rest = [line for line in speed if not line.startswith("Whole job:")]
        lines = [f"It fits: {memory_line(e)[0].lower()}{memory_line(e)[1:]}", *rest]
    elif speed_first and speed:
        where = gpus_phrase(e["num_gpus"], e["gpu_name"])
        label, b, unit = lead_metric(e, asked)
        rest = [line for line in speed if not line.startswith(f"{label.capitalize()}:")]
        split = host_split(e)
        shared = unit == "tokens/s" and (e.get("batch") or 1) > 1 and _EACH_ASKED.search(asked)
        figure = band(b, unit)
        if shared and label == "decode speed":
            # "how many tokens/sec per user if 10 people use it": each one's share, first
            n = e["batch"]
            figure = (f"about {num(b['typical'] / n, unit)} for each of {n} users at once "
                      f"({num(b['typical'], unit)} in all)")  # fmt: skip
        head = (
            f"**{label.capitalize()}: {figure} for {e['model_name']} "
            + (f"with {split}" if split else f"on {where}")
            + f"** ({workload_label(e)}, {settings(e)})."
        )
        fits = "On the GPU it" if split else "It"
        lines = [f"{fits} fits: {memory_line(e)[0].lower()}{memory_line(e)[1:]}", *rest]
    else:
        head = fit_head(e)
        lines = [memory_line(e), *speed]
    if speed_first and speed and fit_asked and host_split(e):
        # "does this model even fit on 8gb?" when it runs only half in system RAM: no, on the
        # card alone; the pace of the split follows
        head = "**No, not on the card alone: it runs split with system RAM. " + head[2:]
    elif speed_first and speed and fit_asked:
        head = "**Yes, it fits. " + head[2:]
    elif speed_first and speed and not job and _REAL_TIME.search(asked):
        _label, pace, pace_unit = metrics_of(e)[0]
        if pace_unit == "audio s/s":
            # "is a 3060 enough for whisper in real time?": an audio second a second or more
            word = ("Yes: faster than" if pace["low"] >= 1
                    else "No: slower than" if pace["high"] < 1 else "About")  # fmt: skip
            head = f"**{word} real time. " + head[2:]
    lines += alternatives
    cost = cost_line(e) if e["fits"] else None
    if cost:
        lines.append(cost)
    defaults = defaults_line(e)
    if defaults:
        lines.append(defaults)
    return head + "\n\n" + "\n".join(lines)


# "which gives more throughput per dollar for serving": the price of a token at full load
_LOAD_ASKED = re.compile(r"\bthroughput\b|\bserv(?:e|es|ing)\b|\bat (?:full )?load\b"
                         r"|\b(?:many|concurrent) (?:users|requests)\b")  # fmt: skip


def per_dollar(fitting: list[dict[str, Any]], asked: str = "") -> str:
    """ "L4 or T4 for whisper, cheaply?": the pick by what a unit of work costs at each card's
    median rent, as each estimate prices it (per audio hour, per million tokens, per 1,000
    images); an LLM served ("throughput per dollar serving it") at its full-load throughput;
    "" without such a price for each."""
    costs = [e.get("cost") or {} for e in fitting]
    units = {c.get("cost_unit") for c in costs}
    if len(fitting) < 2 or None in units or len(units) != 1:
        return ""
    unit = units.pop()
    loaded = [c.get("usd_per_million_tokens_full_load") for c in costs]
    if _LOAD_ASKED.search(asked) and unit == "per million tokens" and all(loaded):
        per_m = {id(e): e["cost"]["usd_per_million_tokens_full_load"] for e in fitting}
        ranked = sorted(fitting, key=lambda e: per_m[id(e)])
        each = "; ".join(
            f"{gpus_phrase(e['num_gpus'], e['gpu_name'])} {usd(per_m[id(e)])} "
            f"({num(e['serving_tokens_per_s']['typical'], 'tokens/s')} at full load, "
            f"{usd(e['cost']['usd_per_hour'])}/hour)"
            for e in ranked
        )
        best = gpus_phrase(ranked[0]["num_gpus"], ranked[0]["gpu_name"]).removeprefix("one ")
        return (f"**Pick the {best}: the least rent per million tokens served at full load** "
                f"(median prices): {each}")  # fmt: skip
    ranked = sorted(fitting, key=lambda e: e["cost"]["usd_per_unit"])
    each = "; ".join(
        f"{gpus_phrase(e['num_gpus'], e['gpu_name'])} {usd(e['cost']['usd_per_unit'])} "
        f"({num(m[0][1]['typical'], m[0][2])} at {usd(e['cost']['usd_per_hour'])}/hour)"
        for e in ranked
        if (m := metrics_of(e))
    )
    best = gpus_phrase(ranked[0]["num_gpus"], ranked[0]["gpu_name"]).removeprefix("one ")
    return f"**Pick the {best}: the least rent {unit}** (median prices): {each}"


# a deployment's month asked: "cheaper per month running 24/7", "monthly", "around the clock"
_MONTH_ASKED = re.compile(
    r"\b(?:per|a|each|every|/)\s?month\b|\bmonthly\b|\b24\s?/\s?7\b|\baround the clock\b"
)


def _per_month(fitting: list[dict[str, Any]]) -> str:
    """ "g5.12xlarge vs g6e.xlarge for a 13b, which is cheaper per month running 24/7?": the pick
    by a month of each setup's rent around the clock (the estimate's month at its price); ""
    without a month's price for each."""
    months = [(e.get("cost") or {}).get("usd_per_month") for e in fitting]
    if len(fitting) < 2 or None in months:
        return ""
    ranked = sorted(fitting, key=lambda e: e["cost"]["usd_per_month"])
    each = "; ".join(
        f"{gpus_phrase(e['num_gpus'], e['gpu_name'])} {usd(e['cost']['usd_per_month'])} "
        f"({usd(e['cost']['usd_per_hour'])}/hour)"
        for e in ranked
    )
    best = gpus_phrase(ranked[0]["num_gpus"], ranked[0]["gpu_name"]).removeprefix("one ")
    basis = ranked[0]["cost"].get("basis") or "median prices"
    return f"**Pick the {best}: the least rent a month** around the clock ({basis}): {each}"


def _card_of(gpu: str) -> str:
    """A catalog id without its variant's words: "a100-sxm4-80gb" and "a100-pcie-40gb" are one
    card ("a100"), "rtx-4090" and "rtx-3090" two."""
    return re.sub(r"-(?:sxm\d?|pcie|nvl|laptop|max-q)?-?(?:\d+gb)?$", "", gpu) or gpu


# the money a job costs, asked beside its time: "how long and how much", "time and cost"
_COST_ASKED = re.compile(
    r"\bhow much\b(?!\s(?:memory|vram|ram|gpu memory|time|longer|faster|slower|space))"
    r"|\bcosts?\b|\bprice\b|\bbill\b|\bdollars?\b|\$"
)


def _job_usd(e: dict[str, Any]) -> float | None:
    return (e.get("cost") or {}).get("usd_per_job")


# GPU-hours asked, not the wall time: "how many h100 hours", "gpu-hours for a 7b on 1T tokens"
GPU_HOURS_ASKED = re.compile(
    r"\bgpu[- ]?(?:hours?|hrs?|h)\b|\bhow many (?:[a-z]{1,4}\s?\d{2,4}\w*|gpu)[- ]hours?\b"
    r"|\b[a-z]{1,3}\d{2,4}[a-z]{0,3}[- ](?:hours|hrs)\b"  # "how many H100 hours to train"
)


def _gpu_hours(e: dict[str, Any]) -> str:
    """Several GPUs' hours of a job together, what a GPU-hour budget counts: " (147 GPU-hours)"."""
    gpu_hours = (e.get("cost") or {}).get("job_gpu_hours")
    if e["num_gpus"] <= 1 or not gpu_hours:
        return ""
    return f" ({num(gpu_hours, 'GPU-hours')})"


# whether a choice makes a difference: "40gb or 80gb - does it matter for 13b inference"
MATTERS_ASKED = re.compile(
    r"\b(?:does|do|would|will) (?:it|that|this|they|the(?: [\w-]+){1,2}) (?:really |even "
    r"|actually )?matter\b|\bmakes? (?:a|any) (?:real )?difference\b"
)


# a ratio asked: "how much faster", "how many times faster", "how much slower is the laptop"
HOW_MUCH_FASTER = re.compile(
    r"\bhow (?:much|many times) (?:faster|slower|quicker|better)\b|\b(?:speed ?up|ratio)\b"
    # "how many 4090s to match one h100": the one card's multiple of the other
    r"|\bhow many [\w.-]+ (?:\w+ )?(?:to|would it take to|does it take to) (?:match|equal"
    r"|replace|beat|keep up with)\b"
    r"|\bhow (?:big|large|much) (?:of )?a gap\b"
)


def _each(e: dict[str, Any], metric: tuple[str, dict[str, float], str]) -> str:
    """A decode speed summed over a batch: what each sequence gets, beside it."""
    if metric[1] is not e.get("decode_tokens_per_s") or (e.get("batch") or 1) <= 1:
        return ""
    return f" ({num(metric[1]['typical'] / e['batch'], metric[2])} each)"


def fit_table(results: list[dict[str, Any]], alternatives: list[str],
              time_first: bool = False, prefer_time: bool = False,
              pick_asked: bool = False, asked: str = "", value: bool = False) -> str:  # fmt: skip
    """One model on several GPUs (or variants): the verdict over all of them first (the pick,
    when the question asks which one), then a row each with the figures that decide it (memory
    and bandwidth, need, speed or job time, price)."""
    first = results[0]
    if len({e.get("interconnect") for e in results}) > 1:  # the settings shared by every row
        first = {**first, "interconnect": None}
    fitting = [e for e in results if e["fits"]]
    metric = metrics_of(first, asked)
    named = bool(metric) and metric[0] != metrics_of(first)[0]  # the question named its figure
    what = f"{first['model_name']} for {workload_label(first)}"
    best = None
    if fitting and metric:
        # the estimate's own field of the first figure (one asked per minute is none of them)
        key, unit = next((k, m[2]) for m in metric for k in METRICS if first.get(k) == m[1])
        sign = -1 if unit == "s" else 1  # a time: the least is the fastest
        best = max(fitting, key=lambda e: sign * (e.get(key) or {}).get("typical", 0))
        top = (best.get(key) or {}).get("typical", 0)
        tied = [e for e in fitting if abs((e.get(key) or {}).get("typical", 0) - top) <= 0.01 * top]
        if len({(_card_of(e["gpu"]), e["num_gpus"]) for e in tied}) > 1:
            # as fast as each other at these settings: no fastest to name (variants of one card
            # tied are that card)
            best = None
    if len(fitting) == len(results) and time_first and metric:  # "how fast / how long" leads
        pick = next((i for i, m in enumerate(metric) if m[2] == "s" and prefer_time), 0)
        pick = 0 if named else pick
        label = metric[pick][0]
        per = ", ".join(
            f"{num(m[pick][1]['typical'], m[pick][2])}{_each(e, m[pick])} on "
            + (
                f"the {e['gpu_name']}"
                if e["num_gpus"] == 1
                else gpus_phrase(e["num_gpus"], e["gpu_name"])
            )
            for e in results
            if (m := metrics_of(e, asked))
        )
        rate_asked = _RATE_UNIT_ASKED.search(asked)
        if all(e.get("job_hours") for e in results) and not rate_asked:
            label, unit = ("one epoch", "hours") if one_epoch(first) else ("the whole job", "hours")
            billed = bool(_COST_ASKED.search(asked))  # "how long and how much on an a100?"
            per = ", ".join(
                f"{duration(e['job_hours']['typical'])} on "
                f"{gpus_phrase(e['num_gpus'], e['gpu_name'])}{_gpu_hours(e)}"
                + (f" for about {usd(job)}" if billed and (job := _job_usd(e)) else "")
                for e in results
            )
            if GPU_HOURS_ASKED.search(asked) and all(
                _gpu_hours(e) or e["num_gpus"] == 1 for e in results
            ):
                # "roughly how many h100 hours": the GPU-hours lead, the wall time after each
                label = "the whole job"
                per = ", ".join(
                    f"{num(e['job_hours']['typical'], 'GPU-hours')} on the {e['gpu_name']}"
                    if e["num_gpus"] == 1
                    else f"{num((e.get('cost') or {})['job_gpu_hours'], 'GPU-hours')} on "
                    f"{gpus_phrase(e['num_gpus'], e['gpu_name'])} "
                    f"({duration(e['job_hours']['typical'])} of wall time)"
                    for e in results
                )
        head = f"**{label.capitalize()}: about {per}** ({what}; {settings(first)})."
    elif (len(fitting) == len(results) and pick_asked and value and _MONTH_ASKED.search(asked)
          and _per_month(fitting)):  # fmt: skip
        head = _per_month(fitting) + f" ({what}; {settings(first)})."
    elif len(fitting) == len(results) and pick_asked and value and per_dollar(fitting, asked):
        head = per_dollar(fitting, asked) + f" ({what}; {settings(first)})."
    elif len(fitting) == len(results) and pick_asked and best and len(results) > 1:
        chosen = gpus_phrase(best["num_gpus"], best["gpu_name"]).removeprefix("one ")
        slowest = min(fitting, key=lambda e: sign * (e.get(key) or {}).get("typical", 0))
        low_top = (slowest.get(key) or {}).get("typical", 0)
        # (the ratio of the figures as written: "0.5 against 0.44" is 1.14x, not their 1.15x)
        said, said_low = (float(num(v).replace(",", "")) for v in (top, low_top or 1.0))
        ratio = said / said_low if sign > 0 and low_top and said_low else None
        # (the two figures said beside their ratio: the rows below may show another of them)
        than = (f" ({num(ratio)}x the {gpus_phrase(slowest['num_gpus'], slowest['gpu_name'])}: "
                f"{num(top, unit)} against {num(low_top, unit)})"
                .replace("the one ", "the ") if ratio and ratio >= 1.05 else "")  # fmt: skip
        head = (f"**Pick the {chosen}: the fastest{than}, and {what} fits on each of them** "
                f"({settings(first)}).")  # fmt: skip
        if MATTERS_ASKED.search(asked) and than:  # "40gb or 80gb, does it matter for 13b?"
            head = (f"**For fitting, no: {what} fits on each of them; for speed, the {chosen} is "
                    f"the fastest{than}** ({settings(first)}).")  # fmt: skip
        unpriced = [e["gpu_name"] for e in results if not (e.get("cost") or {}).get("cost_unit")]
        if value and unpriced:  # "the cheaper option?": said why speed decides instead
            head += (f" No rental price on record for the {', '.join(unpriced)}, so the cost "
                     "of the work cannot be compared.")  # fmt: skip
    elif len(fitting) == len(results) == 2 and best and HOW_MUCH_FASTER.search(asked):
        # "cpu only vs a 3060, how much faster is the gpu": the ratio, with the two figures
        other = next(e for e in fitting if e is not best)
        low_top = (other.get(key) or {}).get("typical", 0)
        ratio = (top / low_top if sign > 0 else low_top / top) if low_top and top else None
        pair = " against ".join(
            f"{num(e[key]['typical'], unit)} on the {gpus_phrase(e['num_gpus'], e['gpu_name'])}"
            .replace("the one ", "the ") for e in (best, other)
        )  # fmt: skip
        head = (f"**About {num(ratio)}x: {pair}** ({what}; {settings(first)})." if ratio
                else f"**Yes: {what} fits on each of them** ({settings(first)}).")  # fmt: skip
    elif len(fitting) == len(results):
        head = f"**Yes: {what} fits on each of them** ({settings(first)})"
        head += f"; fastest: {best['gpu_name']}." if best and len(results) > 1 else "."
    elif fitting:
        names = [gpus_phrase(e["num_gpus"], e["gpu_name"]).removeprefix("one ") for e in fitting]
        held = ", ".join(names)
        chosen = series([n if e["num_gpus"] > 1 else f"the {n}"
                         for n, e in zip(names, fitting, strict=True)])  # fmt: skip
        # variants of one card ("M2 Pro (16GB)", "(32GB)") ask which; different cards do not
        kinds = {_card_of(e["gpu"]) for e in results}
        lead = (f"Pick {chosen}" if len(fitting) == 1 and pick_asked
                else f"Only {chosen}" if len(kinds) > 1 else "It depends on which")  # fmt: skip
        verb = "hold" if len(fitting) > 1 else "holds"
        head = (f"**Only {chosen} {verb} {what}**, of the cards named ({settings(first)})."
                if lead.startswith("Only") else
                f"**{lead}: {what} fits on {held} only** ({settings(first)}).")  # fmt: skip
    else:
        head = (
            f"**No: {first['model_name']} does not fit on any of them for "
            f"{workload_label(first)} as asked** ({settings(first)}): it needs "
            f"{num(first['memory_per_gpu_gb'], 'GB')} per GPU."
        )
    lines = []
    for e in results:
        verdict = "fits" if e["fits"] else "does not fit"
        sheet = ""
        if e.get("gpu_memory_gb") and e.get("gpu_bandwidth_gbs"):
            memory = num(e["gpu_memory_gb"], "GB")
            if e.get("gpu_memory_all_gb"):  # several cards: each one's, and all of them
                memory += f" each, {num(e['gpu_memory_all_gb'], 'GB')} in all"
            sheet = f" ({memory}, {num(e['gpu_bandwidth_gbs'], 'GB/s')})"
            # training and image generation are bound by compute: the tensor rate decides
            compute_bound = e["workload"] != "inference" or e.get("family", "llm") != "llm"
            if compute_bound and e.get("gpu_fp16_tflops"):
                sheet = sheet[:-1] + f", {num(e['gpu_fp16_tflops'], 'TFLOPS')})"
            elif compute_bound and e.get("gpu_fp32_tflops"):  # no 16-bit tensor units (Pascal)
                sheet = sheet[:-1] + f", {num(e['gpu_fp32_tflops'], 'TFLOPS')} FP32 only)"
            if e.get("precision") == "fp8" and "gpu_fp8_tflops" in e:  # FP8 math, or weights only
                fp8 = e["gpu_fp8_tflops"]
                sheet = sheet[:-1] + (f", FP8 {num(fp8, 'TFLOPS')})" if fp8 else
                                      ", no FP8 tensor cores: weight-only FP8)")  # fmt: skip
        line = (
            f"- **{gpus_phrase(e['num_gpus'], e['gpu_name'])}**{sheet}: {verdict}, "
            f"{num(e['memory_per_gpu_gb'], 'GB')} of {usable(e)}"
        )
        if e["fits"] and e.get("engine_setting"):
            line += f", only with {e['engine_setting'].split(' (')[0]}"
        figures = metrics_of(e, asked)
        if e["fits"] and e.get("job_hours") and time_first:
            span = "one epoch" if one_epoch(e) else "the job"
            line += f"; {span} takes about {duration(e['job_hours']['typical'])}"
            if figures:  # the pace behind it: "at about 93 sequences/s"
                line += f" at about {num(figures[0][1]['typical'], figures[0][2])}"
        elif e["fits"] and figures:  # the figure that decides, and a second one named
            shown = figures[: max(1, min(2, len(metrics_named(e, asked))))]
            line += "".join(
                f"; {label} about {num(b['typical'], unit)}" for label, b, unit in shown
            )
        if e.get("cost") and e["cost"].get("usd_per_hour") is not None:
            line += f"; {usd(e['cost']['usd_per_hour'])}/hour"
        lines.append(line)
    whole = [e for e in results if e["num_gpus"] == 1]
    if len(results) > 1 and len({round(e["memory_per_gpu_gb"], 2) for e in results}) == 1:
        alone = (f" The weights alone are {num(first['weights_alone_gb'], 'GB')}."
                 if first.get("weights_alone_gb") else "")  # fmt: skip
        lines.append(f"Where the {num(first['memory_per_gpu_gb'], 'GB')} goes, on each: "
                     f"{breakdown(first)}.{rule_of_thumb(first)}{alone}")  # fmt: skip
        split = split_weights_line(first)
        if split and all(e["num_gpus"] == first["num_gpus"] for e in results):
            lines.append(split)
    elif whole and len(whole) < len(results):  # split rows differ: the whole model, on one GPU
        lines.append(f"Where the {num(whole[0]['memory_per_gpu_gb'], 'GB')} goes on one GPU: "
                     f"{breakdown(whole[0])}.{rule_of_thumb(whole[0])}")  # fmt: skip
    elif len(results) > 1 and (holds := next((e for e in results if e["fits"]), None)):
        # the cards hold back different amounts (vLLM's start-up reserve grows with a large
        # card's default batch): the parts on the first that fits
        lines.append(f"Where the {num(holds['memory_per_gpu_gb'], 'GB')} goes on the "
                     f"{holds['gpu_name']}: {breakdown(holds)}.{rule_of_thumb(holds)}")  # fmt: skip
    lines += alternatives
    defaults = defaults_line(first)
    if defaults:
        lines.append(defaults)
    return head + "\n\n" + "\n".join(lines)


def series(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return " and ".join(items) if len(items) <= 2 else f"{', '.join(items[:-1])} and {items[-1]}"


def weights_gb(e: dict[str, Any]) -> float | None:
    """The weights an estimate holds: an LLM's or other model's, or an image pipeline's models
    together (the tool's "weights_alone_gb"); None when it names none."""
    parts = e.get("breakdown_gb", {})
    if "weights" in parts:
        return float(parts["weights"])
    return e.get("weights_alone_gb")


# a part of an estimate's memory whose key says too little as written
_PART_WORDS = {"peft_fp32_upcast": "embedding and head upcast to fp32 by PEFT's k-bit preparation"}


def breakdown(e: dict[str, Any]) -> str:
    """ "weights 16.1 GB + kv cache 0.54 GB + ...": the parts of an estimate's memory."""
    parts = [(k, v) for k, v in e["breakdown_gb"].items() if v >= 0.005]
    said = [f"{_PART_WORDS.get(k, k.replace('_', ' '))} {num(v, 'GB')}" for k, v in parts]
    if e.get("training_state_gb") and "optimizer_states" in dict(parts):  # a training job's own
        last = max(i for i, (k, _) in enumerate(parts) if k == "optimizer_states")
        said[last] += f" (the training state: {num(e['training_state_gb'], 'GB')})"
    return " + ".join(said)


def min_gpus_line(result: dict[str, Any]) -> str | None:
    if "error" in result or result.get("solution") is None:
        return None
    e = result["estimate"]
    return (
        f"It would fit on {gpus_phrase(result['solution'], e['gpu_name'])} "
        f"({num(e['memory_per_gpu_gb'], 'GB')} per GPU)."
    )


FORMAT_LABELS = {"awq": "4-bit (AWQ)", "gptq": "4-bit (GPTQ)", "q4_k_m": "4-bit (GGUF Q4_K_M)"}


def lower_precision_line(e: dict[str, Any]) -> str | None:
    """The same job in a 4-bit format: it fits, or even then does not (with its weights' size,
    the figure people check)."""
    if e.get("error"):
        return None
    label = FORMAT_LABELS.get(e["precision"], e["precision"])
    usable = num(e["usable_memory_per_gpu_gb"], "GB")
    need = f"{num(e['memory_per_gpu_gb'], 'GB')} of {usable} usable"
    where = gpus_phrase(e["num_gpus"], e["gpu_name"])
    if not e.get("fits"):
        return (f"Even in {label} it does not fit on {where}: {need} "
                f"(weights {num(e['breakdown_gb']['weights'], 'GB')}).")  # fmt: skip
    decode = (e.get("decode_tokens_per_s") or {}).get("typical")
    streams = e.get("batch") or 1
    one = "for one stream" if streams == 1 else f"for {streams} streams together"
    pace = (
        f"; about {num(decode, 'tokens/s')} {one}, as its "
        f"{num(e['gpu_bandwidth_gbs'], 'GB/s')} of memory bandwidth allows"
        if decode
        else ""
    )
    return f"In {label} it fits on {where}: {need}{pace}."


def solved(result: dict[str, Any]) -> str:
    e = result["estimate"]
    where = gpus_phrase(e["num_gpus"], e["gpu_name"])
    target, solution = result["target"], result["solution"]
    if solution is None:
        what = {
            "max_context": "even a short context",
            "max_batch": "even batch 1",
            "min_gpus": "any number of GPUs the calculator considers",
        }[target]
        return (
            f"**No: {e['model_name']} does not fit on {where} for {workload_label(e)}** with "
            f"{what} at {e['precision']}.\n\n{memory_line(e)}"
        )
    if target == "max_context":
        head = (
            f"**Longest context that fits: {solution:,} tokens** for {e['model_name']} on "
            f"{where} ({workload_label(e)}, {e['precision']}, batch {e['batch']})."
        )
    elif target == "max_batch":
        head = (
            f"**Largest batch that fits: {solution}** for {e['model_name']} on {where} "
            f"({workload_label(e)}, {settings(e)})."
        )
    else:
        head = (
            f"**{e['model_name']} needs {solution} x {e['gpu_name']}** for {workload_label(e)} "
            f"({settings(e)})."
        )
    lines = [memory_line(e), *speed_lines(e)[:1]]
    defaults = defaults_line(e)
    if defaults:
        lines.append(defaults)
    return head + "\n\n" + "\n".join(lines)


# ---------------------------------------------------------------- prices


# rental periods said in words: an hour, or a calendar period used around the clock
_PERIODS = {1.0: "an hour", 24.0: "a day (24 hours)", 168.0: "a week (168 hours)",
            float(HOURS_PER_MONTH): f"a month ({HOURS_PER_MONTH} hours)",
            12.0 * HOURS_PER_MONTH: f"a year ({12 * HOURS_PER_MONTH:,} hours)"}  # fmt: skip


def cloud_line(result: dict[str, Any]) -> str:
    """One cloud's prices for a card, in a line: "- Lambda, NVIDIA H100 SXM5 80GB: $4.09 per
    GPU-hour at the median of 4 prices ($2.49-$4.29), newest 2026-09-20"."""
    summary = result.get("summary_usd_per_gpu_hour")
    name = result.get("gpu_name", result.get("gpu", ""))
    if "error" in result or not summary:
        return f"- {result.get('provider', '')}, {name}: no current price on record"
    newest = result["prices"][0]
    return (f"- {result.get('provider') or newest['provider']}, {name}: {usd(summary['median'])} "
            f"per GPU-hour at the median of {result['count']} price"
            f"{'s' if result['count'] != 1 else ''} ({usd(summary['low'])}-{usd(summary['high'])}),"
            f" newest {newest['date']}")  # fmt: skip


def rental(result: dict[str, Any], user_price: float | None = None, calendar: bool = True) -> str:
    """One GPU's current rental prices; with hours, the bill for them (said as a day, a week or
    a month when they are one around the clock and `calendar`)."""
    if "error" in result:
        return str(result["error"])
    summary = result.get("summary_usd_per_gpu_hour")
    name = result.get("gpu_name", result["gpu"])
    provider = result.get("provider")  # one cloud's prices only
    if not summary:
        at = f"{provider} " if provider else ""
        return f"No current {at}rental price on record for the {name}."
    rent = result.get("rental_usd")
    if rent:
        what = gpus_phrase(rent["num_gpus"], name)
        hours = f"for {num(rent['hours'], 'hours')}"
        span = _PERIODS.get(rent["hours"], hours) if calendar else hours
        job = (
            "an hour"
            if rent["hours"] == 1
            else "over it"
            if rent["hours"] in _PERIODS
            else "for the job"
        )
        lead = f"On {provider}: about" if provider else "About"
        prices = f"{provider} prices" if provider else "prices"
        # (one cloud's prices: its newest, not a median of its own older ones)
        at = f"{provider}'s newest price of" if provider else "the median current price of"
        head = (
            f"**{lead} {usd(rent['median'])} {span} on {what}** at "
            f"{at} {usd(summary['median'])} per GPU-hour (from "
            f"{usd(summary['low'])} to {usd(summary['high'])} across {result['count']} {prices}: "
            f"{usd(rent['low'])} to {usd(rent['high'])} {job})."
        )
    else:
        at = (f"{provider}'s newest of its {result['count']} current prices" if provider
              else f"the median of {result['count']} current prices")  # fmt: skip
        head = (
            f"**{name}: {usd(summary['median'])} per GPU-hour** at {at} (range "
            f"{usd(summary['low'])}-{usd(summary['high'])})."
        )
    newest = result["prices"][0]
    return head + f"\n\nNewest price: {newest['provider']}, {newest['date']} ({newest['source']})."


def user_priced(
    result: dict[str, Any],
    gpu: str,
    node: int | None = None,
    sign: str = "$",
    nodes: int = 1,
    each: float | None = None,
) -> str:
    """A rental cost at the user's price, in the user's currency (`sign`); `node`: the price was
    for a whole node (an instance) of that many GPUs, `nodes` of them rented; `each`: that
    price per GPU-hour."""
    n = result["num_gpus"]
    price = usd(result["usd_per_gpu_hour"], sign)
    if node:
        what = "one node" if nodes == 1 else f"{nodes} nodes"
        times = "" if nodes == 1 else f" x {nodes}"
        per_gpu = ""
        if each is not None:  # "$21.96 an hour for a p4d: what is that per GPU-hour?"
            per_gpu = f" That is {usd(each, sign)} per GPU-hour ({price} / {node})."
        return (
            f"**{usd(result['usd'], sign)}** for {num(result['hours'], 'hours')} on {what} of "
            f"{node} x {gpu} at your price of {price} per node-hour ({price} x "
            f"{num(result['hours'])} h{times}).{per_gpu}"
        )
    what = f"one {gpu}" if n == 1 else f"{n} x {gpu}"
    gpu_hours = ""
    if n > 1 and "gpu_hours" in result:  # "8 A100s for 36 h": 288 GPU-hours
        gpu_hours = f"; {num(result['gpu_hours'], 'GPU-hours')}"
    return (
        f"**{usd(result['usd'], sign)}** for {num(result['hours'], 'hours')} on {what} at your "
        f"price of {price} per GPU-hour ({price} x {num(result['hours'])} h x {n}{gpu_hours})."
    )


def budget_hours(result: dict[str, Any], gpu: str, per: str = "total", sign: str = "$",
                 price: str = "your") -> str:  # fmt: skip
    """The hours a budget buys; `price`: whose price it is ("your", "the median current")."""
    n = result["num_gpus"]
    span = " a month" if per == "month" else ""
    what = f"one {gpu}" if n == 1 else f"{n} x {gpu}"
    text = (
        f"**{num(result['hours'], 'hours')}{span} on {what}**: "
        f"{usd(result['budget_usd'], sign)} at "
        f"{price} price of {usd(result['usd_per_gpu_hour'], sign)} per GPU-hour"
    )
    if n > 1:
        text += f" ({num(result['gpu_hours'], 'GPU-hours')})"
    if result.get("shared_by", 1) > 1:  # "how many hours is that per student, 30 students"
        text += (f"; {num(result['hours_each'], 'hours')} each for {result['shared_by']} people "
                 "sharing it evenly")  # fmt: skip
    return text + "."


def _age(months: int) -> str:
    """The age the tool gave: its age_months, or its whole age_years from two years on."""
    if months <= 0:
        return "this month"
    if months < 24:
        return f"{months} months old"
    return f"{months // 12} years old"


def first_of_each_kind(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The first price row of each kind (msrp, new, used) in the order given: with
    purchase_prices' rows, newest first, the newest of each."""
    first: dict[str, dict[str, Any]] = {}
    for p in rows:
        first.setdefault(p["kind"], p)
    return first


def other_prices(result: dict[str, Any], used_usd: float) -> str:
    """The newest price of each other kind on record (purchase_prices' rows), beside a figure
    that rests on one catalog price: "Other prices on record: MSRP $429 (2025-04); used $600
    (2026-09)." Empty when there is none."""
    kinds = {"msrp": "MSRP", "new": "new", "used": "used"}
    shown = [f"{kinds.get(k, k)} {usd(p['usd'])} ({p['date']})"
             for k, p in first_of_each_kind(result.get("prices", [])).items()
             if not math.isclose(p["usd"], used_usd, rel_tol=1e-6)]  # (the price used)  # fmt: skip
    return "Other prices on record: " + "; ".join(shown) + "." if shown else ""


def purchase(result: dict[str, Any], condition: str = "new") -> str:
    """Dated prices to buy one GPU, the asked condition first, each with its age."""
    if "error" in result:
        return str(result["error"])
    name = result["gpu_name"]
    rows = result["prices"]
    if not rows:
        return f"No purchase price on record for the {name}."
    order = {"new": 1, "msrp": 2, "used": 3} | {condition: 0}
    rows = sorted(rows, key=lambda p: order.get(p["kind"], 9))  # newest first within a kind
    best = rows[0]
    kinds = {"msrp": "launch list price (MSRP)", "new": "new", "used": "used"}
    span = f"-{usd(best['usd_max'])}" if best.get("usd_max") else ""
    head = (
        f"**{name}: {usd(best['usd'])}{span} {kinds[best['kind']]}** ({best['date']}, "
        f"{_age(best['age_months'])}; {best['seller_class']})."
    )
    if best.get("total_usd"):
        top = f"-{usd(best['total_usd_max'])}" if best.get("total_usd_max") else ""
        head = (
            f"**{result['num_gpus']} x {name}: {usd(best['total_usd'])}{top} "
            f"{kinds[best['kind']]}** ({usd(best['usd'])}{span} each; {best['date']}, "
            f"{_age(best['age_months'])}; "
            f"{best['seller_class']})."
        )
    # the newest of each other kind first (a launch price is on show beside the street prices),
    # then more of the same, three in all
    rest = rows[1:]
    firsts = [p for k, p in first_of_each_kind(rest).items() if k != best["kind"]]
    shown = (firsts + [p for p in rest if p not in firsts])[:3]
    others = [
        f"{kinds[p['kind']]} {usd(p['usd'])}{'-' + usd(p['usd_max']) if p.get('usd_max') else ''}"
        f" ({p['date']})"
        for p in sorted(shown, key=rest.index)
    ]
    lines = [head]
    if others:
        lines.append("Other prices on record: " + "; ".join(others) + ".")
    lines.append(f"Source: {best['source']}")
    return "\n".join(lines)


def subscription_even(result: dict[str, Any]) -> str:
    """Buying against a flat monthly fee: the months of fees the price equals, before
    electricity, which grows with the hours of use while the fee does not."""
    name = result.get("gpu_name") or "the GPU"
    src = result["sources"]
    months = result["months_before_power"]
    head = (f"**About {num(months, 'months')} of the subscription pay for {name}** "
            f"({usd(result['purchase_usd'])} to buy, {src['purchase']}, against "
            f"{usd(result['rent_usd_per_hour'] * 730)} a month), before electricity.")  # fmt: skip
    if not (result["power_w"] and result["usd_per_kwh"]):
        return head
    return (f"{head} Owning also costs {usd(result['power_usd_per_hour'])} per hour of use in "
            f"electricity ({num(result['power_w'], 'W')} at {usd(result['usd_per_kwh'])}/kWh, "
            f"{src['electricity']}), while the fee stays the same however much you use it: the "
            "more hours a day the card runs, the later buying pays off; say your hours a day "
            "for the exact month.")  # fmt: skip


def break_even(
    result: dict[str, Any],
    asked: str | None = None,
    instead: tuple[str, str] | None = None,
    sign: str = "$",
    selling: bool = False,
    weeks: bool = False,
) -> str:
    """When buying pays off; `instead`: another card rented in its place (what, and its terms);
    `weeks`: the weeks of use said too (asked in weeks);
    `sign`: the user's currency, in which the prices they gave are written; `selling`: the card
    is the user's own, its sale price standing as the price to buy (keeping it is owning)."""

    def money(value: float, source: str) -> str:
        return usd(value, sign if source == "given by the user" else "$")

    name = result.get("gpu_name") or "the GPU"
    n = result["num_gpus"]
    what = name if n == 1 else f"{n} x {name}"
    hours = result["break_even_hours"]
    src = result["sources"]
    bought = money(result["purchase_usd"], src["purchase"])
    to_buy = "the card fetches" if selling else "to buy"
    basis = (
        f"{bought} {to_buy} ({src['purchase']}) against "
        f"{money(result['rent_usd_per_hour'], src['rent'])} per GPU-hour to rent ({src['rent']})"
    )
    if instead:
        basis = f"{bought} {to_buy} ({src['purchase']}) against {instead[1]}"
        what += f" rather than {instead[0]}"
    power = ""
    if result["power_w"] and not result["usd_per_kwh"]:
        power = "; electricity left out, as asked"
    elif result["power_w"]:
        power = (
            f"; owning costs {money(result['power_usd_per_hour'], src['electricity'])}/hour in "
            f"electricity ({num(result['power_w'], 'W')}{', your draw,' if 'power' in src else ''}"
            f" at {money(result['usd_per_kwh'], src['electricity'])}/kWh, "
            f"{src['electricity']})"
        )
    if result.get("host_usd_per_hour"):  # "$40 a month of colocation"
        power += (f"; and {usd(result['host_usd_per_hour'])}/hour of upkeep (your monthly figure "
                  "spread over the month's hours)")  # fmt: skip
    if hours is None:
        return (
            f"**Renting stays cheaper** for {what}: running it costs as much per hour as "
            f"renting it ({basis}{power})."
        )
    months = result["break_even_months"]
    years = f", {num(result['break_even_years'])} years," if months >= 12 else ""
    # "i generate about 6 hours a day": the days of that use first
    days = (f"{num(result['break_even_days'], 'days')}, "
            if result.get("break_even_days") and result["hours_per_day"] < 24 else "")  # fmt: skip
    if days and weeks and result.get("break_even_weeks"):  # "how many weeks is that?"
        days += f"{num(result['break_even_weeks'], 'weeks')}, "
    head = (
        f"**{'Keeping the' if selling else 'Buying'} {what} pays off after about "
        f"{num(hours, 'hours')} of use** "
        f"({days}{num(months, 'months')}{years} at {_use_rate(result)})"
    )
    if n > 1:  # "break-even in GPU-hours": the hours of all the GPUs together
        head += f"; {num(result['break_even_gpu_hours'], 'GPU-hours')} across the {n}"
    if result["power_w"] and result["usd_per_kwh"] and result.get("hours_before_power"):
        # (its days too, where the use is hours a day: "in hours and in days?")
        days_before = (f"{num(result['days_before_power'], 'days')}, "
                       if days and result.get("days_before_power") else "")  # fmt: skip
        head += (
            f"; {num(result['hours_before_power'], 'hours')} "
            f"({days_before}{num(result['months_before_power'], 'months')}"
            + (
                f", {num(result['weeks_before_power'], 'weeks')}"
                if weeks and result.get("weeks_before_power") and result["hours_per_day"] < 24
                else ""
            )
            + (
                f", {num(result['years_before_power'])} years"
                if result.get("years_before_power") and result["months_before_power"] >= 12
                else ""
            )
            + (f", {num(result['gpu_hours_before_power'], 'GPU-hours')}" if n > 1 else "")
            + ") before electricity"
        )
    lines = [head + ".", ""]
    if over := result.get("over_use"):
        winner = "Buying" if over["cheaper"] == "buy" else "Renting"
        # "is buying cheaper for this project? yes or no": the answer to the side asked about
        said = "" if asked is None else ("Yes: " if asked == over["cheaper"] else "No: ")
        span = f"your {num(over['hours'], 'hours')} of use"
        if over.get("life_years"):  # no horizon said: a service life, labelled as assumed
            span = f"a {num(over['life_years'])}-year life at {_use_rate(result)}"
        side = winner.lower() if said else winner
        if selling and not said:  # "sell or keep?": the pick said as one of the two
            side = "Keep it: owning" if winner == "Buying" else "Sell it: renting"
        if instead and over.get("life_years"):  # "buying an A6000 rather than renting an L40S"
            side = f"{side} {what}" if winner == "Buying" else f"{side} {instead[0]}"
        lines.insert(
            0,
            f"**{said}{side} is cheaper over {span}**: "
            f"{usd(over['own_usd'], sign)} to own against {usd(over['rent_usd'], sign)} to rent"
            + (f" ({src['life']})." if over.get("life_years") else "."),
        )
    lines.append(f"Per GPU: {basis}{power}.")
    if not over and result["hours_per_day"] < 24 and result.get("rent_usd_per_year"):
        # "15 hours a week ... at what point does buying win?": a year of that use, rented
        lines.append(f"A year at {_use_rate(result)} ({num(result['hours_per_year'], 'hours')}) "
                     f"rents for {money(result['rent_usd_per_year'], src['rent'])}.")  # fmt: skip
    if over and over.get("months", 0) >= 2:  # "per month over 5 years": the purchase spread out
        lines.append(
            f"A month, over {num(over['months'], 'months')}: "
            f"{usd(over['own_usd_per_month'], sign)} to own (the price spread over them"
            + (", with electricity" if result["power_w"] and result["usd_per_kwh"] else "")
            + f") against {usd(over['rent_usd_per_month'], sign)} to rent."
        )
    if not result["power_w"]:
        lines.append("Electricity is not counted: name the GPU to include its board power.")
    lines.append(f"Left out: {result['left_out']}.")
    if selling:
        lines.append(
            "The price the card fetches stands as its price to buy: keeping it forgoes it."
        )
    return "\n".join(lines)


LONG_CONTEXT_SHARE = 0.1  # a KV cache this share of a pick's need is named beside the weights
LONG_CONTEXT_TOKENS = 4096  # or the cache of a context longer than the usual default


def recommendation(result: dict[str, Any], job: str) -> str:
    ranked = result["ranked"]
    if not ranked:
        said = {r["reason"] for r in result["rejected"]}
        if len(said) == 1 and len(result["rejected"]) > 1:  # one reason rules them all out
            return f"{NONE_MEETS} for {job}: {next(iter(said)).rstrip('.')}."
        reasons = "; ".join(f"{r.get('gpu_name') or r['gpu']}: {r['reason']}"
                            for r in result["rejected"][:4])  # fmt: skip
        return f"{NONE_MEETS} for {job}. {reasons}."
    best = ranked[0]
    if best.get("replicas"):
        return _sized_for_load(result, job)
    need = ""
    trained = "train" in str(best.get("speed_label", ""))
    if best.get("precision") and best.get("memory_total_gb") and best["num_gpus"] > 1 and trained:
        # each training card holds its own copy of the base: the sum would count it twice
        need = (f" (about {num(best['memory_per_gpu_gb'], 'GB')} on each card in "
                f"{best['precision']})")  # fmt: skip
    elif best.get("precision") and best.get("memory_total_gb"):
        weights = best.get("weights_gb") or 0.0
        inside = 0 < weights < best["memory_total_gb"]
        of = f", {num(weights, 'GB')} of it weights" if inside else ""
        denoiser = best.get("denoiser_gb")
        if of and denoiser and denoiser < weights:  # an image model: its denoiser's share
            of += f", the denoiser (UNet or transformer) alone {num(denoiser, 'GB')}"
        kv, streams = best.get("kv_cache_gb") or 0.0, best.get("batch") or 1
        if of and streams > 1 and kv:  # "20 players at once": their caches beside the weights
            of += f", {num(kv, 'GB')} the KV cache of the {streams:,} sequences served at once"
        elif (
            of
            and best.get("context")
            and (
                kv >= LONG_CONTEXT_SHARE * best["memory_total_gb"]
                or best["context"] > LONG_CONTEXT_TOKENS
            )
        ):
            # "with 32k context": a KV cache that is a good part of the need, named
            of += f", {num(kv, 'GB')} its KV cache at {best['context']:,} tokens"
        nominal = best.get("weights_nominal_gb")
        if of and nominal and abs(weights - nominal) > 0.01 * nominal:  # the size worked by hand
            per = best["nominal_bytes_per_param"]
            of += (f"; by hand, {num(best['params_b'])}B parameters x {num(per)} "
                   f"{'byte' if per == 1 else 'bytes'} = {num(nominal, 'GB')}")  # fmt: skip
        need = (f" (it needs about {num(best['memory_total_gb'], 'GB')} in {best['precision']}"
                f"{of})")  # fmt: skip
    head = (
        f"**Pick {gpus_phrase(best['num_gpus'], best['gpu_name'])}** for {job}{need}: about "
        f"{num(best['speed'], best['speed_unit'])}"
    )
    # ranked among cards to buy: their price to buy, not a rent beside it
    bought = "purchase price" in str(result.get("ranking", ""))
    if best.get("usd_per_hour") is not None and not bought:
        head += f", {usd(best['usd_per_hour'])}/hour"
    if best.get("usd_per_unit") is not None and not bought:
        whole = "for one epoch (no epochs given)" if best.get("one_epoch") else "for the whole job"
        unit = best["unit"].replace("USD ", "").replace("per job", whole)
        head += f", {usd(best['usd_per_unit'])} {unit}"
    if best.get("purchase_usd") is not None:
        head += (
            f", {usd(best['purchase_usd'])} to buy ({best['purchase_kind']}, "
            f"{best['purchase_date']})"
        )
    powered = bool(result.get("power_limit_w") or result.get("total_power_limit_w"))
    if powered and best.get("board_power_w"):  # a limit on power asked: each card's draw
        head += f", {_board_power(best)}"
    head += "."
    lines = []
    for i, row in enumerate(ranked[1:], 2):
        line = (
            f"{i}. {gpus_phrase(row['num_gpus'], row['gpu_name'])}: "
            f"{num(row['memory_per_gpu_gb'], 'GB')} of "
            f"{num(row['usable_memory_per_gpu_gb'], 'GB')} "
            f"usable; about {num(row['speed'], row['speed_unit'])}"
        )
        if row.get("usd_per_hour") is not None and not bought:
            line += f"; {usd(row['usd_per_hour'])}/hour"
        if row.get("purchase_usd") is not None:
            line += f"; {usd(row['purchase_usd'])} to buy ({row['purchase_date']})"
        if powered and row.get("board_power_w"):
            line += f"; {_board_power(row)}"
        lines.append(line)
    lines.append(
        f"Ranked by {result['ranking']}; {result['considered']} GPUs considered, "
        f"{result['ruled_out']} ruled out."
    )
    return head + "\n\n" + "\n".join(lines)


def _board_power(row: dict[str, Any]) -> str:
    """ "200 W board power", "2 x 300 W board power": a ranked setup's datasheet draw."""
    each = num(row["board_power_w"], "W")
    return f"{each} board power" if row["num_gpus"] == 1 else (
        f"{row['num_gpus']} x {each} board power")  # fmt: skip


def _sized_for_load(result: dict[str, Any], job: str) -> str:
    """GPUs for a serving load: the cheapest set of copies that covers it, then the others."""

    def setup(row: dict[str, Any]) -> str:
        copies, per_copy = row["replicas"], row["num_gpus"]
        if copies == 1:
            return gpus_phrase(per_copy, row["gpu_name"])
        each = "one model copy on each" if per_copy == 1 else f"{copies} copies of {per_copy}"
        return f"{row['total_gpus']} x {row['gpu_name']} ({each})"

    ranked = result["ranked"]
    best = ranked[0]
    price = f", {usd(best['usd_per_hour'])}/hour" if best.get("usd_per_hour") is not None else ""
    head = (
        f"**Pick {setup(best)}** for {job}: {num(best['load_tokens_per_s'], 'tokens/s')} of "
        f"output needed, each copy serving about {num(best['serving_tokens_per_s'], 'tokens/s')} "
        f"at full load{price}."
    )
    lines = []
    for i, row in enumerate(ranked[1:], 2):
        line = f"{i}. {setup(row)}: about {num(row['serving_tokens_per_s'], 'tokens/s')} a copy"
        if row.get("usd_per_hour") is not None:
            line += f"; {usd(row['usd_per_hour'])}/hour"
        lines.append(line)
    lines.append(
        f"Sized for prompts of {best['prompt_tokens']:,} tokens and replies of "
        f"{best['output_tokens']:,}"
        f"{' (say yours: shorter prompts need fewer GPUs)' if best.get('lengths_assumed') else ''}"
        ". Ranked by "
        f"{result['ranking']}; {result['considered']} GPUs considered, {result['ruled_out']} "
        "ruled out."
    )
    return head + "\n\n" + "\n".join(lines)


# ---------------------------------------------------------------- passages


NONE_MEETS = "**No GPU meets every constraint**"  # a recommendation's lead when none does


def claim_warning(passage: dict[str, Any], claim: dict[str, Any]) -> str:
    return (
        f"The article '{passage['title']}' ({passage['section']}) says \"{claim['quote']}\"; "
        f"{claim['note']}. The datasheet value is the one to trust."
    )


def electricity(result: dict[str, Any], machine: str, sign: str = "$") -> str:
    """An electricity bill: the answer, then the draw, the hours and the user's price (in the
    user's currency, `sign`); `machine`: what it runs on, as the user named it ("2 x 3090")."""
    n, each, other = result["num_gpus"], result["power_w"], result["other_w"]
    draw = num(each, "W") if n == 1 else f"{n} x {num(each, 'W')}"
    draw += f" + {num(other, 'W')} for the rest" if other else ""
    stated = result["power_source"] == "given by the user"
    whose = "as you state" if stated else "datasheet board power, the most the card draws"
    total = f" = {num(result['total_w'], 'W')}" if n > 1 or other else ""
    idle = ""
    if result.get("idle_w") and result.get("idle_hours"):
        idle = (f", and {num(result['idle_w'], 'W')} idle (as you state) for the other "
                f"{num(result['idle_hours'], 'hours')}")  # fmt: skip
    return (
        f"**About {usd(result['usd'], sign)} of electricity** ({num(result['kwh'], 'kWh')}): "
        f"{draw} ({whose}){total} for {num(result['hours'], 'hours')}{idle} at your "
        f"{usd(result['usd_per_kwh'], sign)}/kWh, on {machine}."
    )


def against_service(gpu_usd: float, service_usd: float, what: str) -> str:
    """The verdict of a GPU against a pay-per-use service (transcription, image or token API),
    both costed on the same work: which is cheaper and by how much."""
    if gpu_usd <= service_usd:
        who, times = "Renting the GPU is cheaper", service_usd / gpu_usd
    else:
        who, times = "The service is cheaper", gpu_usd / service_usd
    return (f"**{who} {what}: {usd(gpu_usd)} on the GPU against {usd(service_usd)} for the "
            f"service ({num(times)}x).**")  # fmt: skip


def token_cost(result: dict[str, Any], gpu: str, node: int | None = None) -> str:
    """The cost of a million tokens at the user's price and speed; `node`: the price was for a
    whole node of that many GPUs."""
    price = usd(result["usd_per_gpu_hour"])
    yours = result.get("price_source", "given by the user") == "given by the user"
    whose = "your" if yours else "the median rent,"
    paid = (
        f"one node of {node} x {gpu} ({whose} {price} per node-hour)"
        if node
        else f"{gpus_phrase(result['num_gpus'], gpu)} ({whose} {price} per GPU-hour)"
    )
    return (
        f"**About {usd(result['usd_per_million_tokens'])} per million tokens**: "
        f"{usd(result['usd_per_hour'])} an hour for {paid} over "
        f"{num(result['tokens_per_hour'])} tokens an hour (your "
        f"{num(result['tokens_per_s'], 'tokens/s')})."
        + ("" if yours else f" The price: {result['price_source']}.")
    )
