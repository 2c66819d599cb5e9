"""Family calibration benchmark: the vision, transformer, diffusion and speech models of the
calculator against every published measurement it can map, in-sample and held out.

Maps each usable row of eval/calibration/workloads.csv and the ResNet-50 / BERT / Transformer-XL
training rows of ../shared/data/measured_calibration.csv to a calculator Request (family_rows.py)
and predicts the row's figure through `advisor.calculator.estimate()`. Per family and metric it
prints the rows, the in-sample median and p90 absolute percentage error, the median error when
the family's constants are refitted without the row's source (leave-one-source-out) or without its
GPU chip (leave-one-GPU-out; family_fit.py), the worst model, and two baselines: one measured
figure of the same model and setup on another GPU scaled by memory bandwidth, or by dense TFLOPS.
It checks that refitting on all rows reproduces the constants in the modules (and prints the
difference), and reports the issue's targets. Rows it cannot map are counted with their reason;
rows it maps but no fit uses (family_rows.not_fitted_reason) are listed with theirs.
Writes eval/results/calibration_families.md and .json.

    python eval/calibration_families.py
"""

from __future__ import annotations

import contextlib
import json
import math
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the checkout's packages first
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisor.calculator import Request, estimate
from advisor.catalog import Catalog, load_catalog
from advisor.specs import GPU
from eval.family_fit import FitSpec, Model, Param, patched, read, specs
from eval.family_rows import Case, Unmapped, load_cases, predict

RESULTS = Path(__file__).resolve().parent / "results"
TRAINING_METRICS = ("train_samples_per_s", "train_tokens_per_s")
FOLD_STEP = 1.25  # a fold's search starts from the all-rows fit with steps of 25%


def ape(predicted: float | None, measured: float) -> float | None:
    return None if predicted is None else abs(predicted / measured - 1) * 100


def median(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return statistics.median(kept) if kept else None


def p90(values: Iterable[float | None]) -> float | None:
    kept = sorted(v for v in values if v is not None)
    return kept[min(len(kept) - 1, math.ceil(0.9 * len(kept)) - 1)] if kept else None


def _predict_all(cases: list[Case], catalog: Catalog, skipped: Counter[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for case in cases:
        try:
            out[case.id] = predict(case, catalog)
        except Unmapped as why:
            skipped[f"{case.family}: {why}"] += 1
    return out


def _held_out(
    model: Model, base: dict[Param, float], group: Callable[[Case], str], catalog: Catalog
) -> dict[str, float]:
    """Each group's rows predicted by constants refitted without the group."""
    out: dict[str, float] = {}
    for name in sorted({group(row[0]) for row in model.rows}):
        values = model.fit(lambda c, name=name: group(c) != name, base, FOLD_STEP)  # type: ignore[misc]
        with patched(values):
            for case, *_rest in model.rows:
                if group(case) == name:
                    with contextlib.suppress(Unmapped):  # variants disagree under these constants
                        out[case.id] = predict(case, catalog)
    return out


def _consistency(model: Model, predicted: dict[str, float]) -> float:
    """Largest relative gap between the fit's pure function and estimate() on the same row."""
    gap = 0.0
    for row in model.rows:
        pure, case = model.predict(row), row[0]
        if pure is not None and case.id in predicted:
            gap = max(gap, abs(pure / predicted[case.id] - 1))
    return gap


# ---------------------------------------------------------------- baselines


def _peak(gpu: GPU, precision: str) -> float | None:
    fp16 = gpu.fp16_bf16_dense_tflops
    return {
        "fp32": gpu.fp32_tflops,
        "tf32": gpu.tf32_dense_tflops or gpu.fp32_tflops,
        "int8": gpu.int8_dense_tops or fp16,
        "fp8": gpu.fp8_dense_tflops or fp16,
    }.get(precision, fp16)


def _spec(case: Case, catalog: Catalog, what: str) -> float | None:
    if case.cpu:  # no datasheet: the request does not describe the CPU
        return None
    values = []
    for gid in case.gpus:
        gpu = catalog.get_gpu(gid)
        value = (
            gpu.bandwidth_gbs if what == "bandwidth" else _peak(gpu, case.request.precision or "")
        )
        if not value:
            return None
        values.append(math.log(value))
    return math.exp(sum(values) / len(values))


def baseline(case: Case, cases: list[Case], catalog: Catalog, what: str) -> float | None:
    """The median over the same model and setup measured on other GPU chips, each scaled by the
    ratio of `what` (bandwidth or dense TFLOPS at the row's precision); batch may differ."""
    if case.kind != "speed":
        return None
    key = _setup(case)
    mine = _spec(case, catalog, what)
    guesses = []
    for other in cases:
        if other.chip == case.chip or _setup(other) != key:
            continue
        theirs = _spec(other, catalog, what)
        if mine and theirs:
            guesses.append(other.value * mine / theirs)
    return statistics.median(guesses) if guesses else None


def _setup(case: Case) -> tuple[Any, ...]:
    r = case.request
    return (case.model, case.metric, replace(r, gpu="", batch=1))


# ---------------------------------------------------------------- targets


def _targets(rows: list[dict[str, Any]], catalog: Catalog) -> list[str]:
    lines = []
    classic = [r for r in rows if r["family"] in ("vision", "transformer")]
    classic = [r for r in classic if r["metric"] in TRAINING_METRICS]
    for fold in ("loso", "logo"):
        by_model: dict[str, list[float]] = defaultdict(list)
        for r in classic:
            if r[fold] is not None:
                by_model[r["model"]].append(r[fold])
        overall = median(v for vs in by_model.values() for v in vs)
        worst = max(by_model.items(), key=lambda kv: statistics.median(kv[1]))
        scored = sum(1 for r in classic if r[fold] is not None and not r["fit"])
        lines.append(
            f"classic training throughput, {fold.upper()}: median {_pct(overall)} over "
            f"{sum(map(len, by_model.values()))} rows ({scored} scored, not fitted) "
            f"(target <= 12%); worst model {worst[0]} "
            f"{_pct(statistics.median(worst[1]))} (target <= 20%): "
            + ", ".join(f"{m} {_pct(statistics.median(v))}" for m, v in sorted(by_model.items()))
        )
    sd = [r for r in rows if r["model"] in ("sd-1.5", "sdxl") and r["kind"] == "speed"]
    for metric in ("images_per_s", "seconds_per_image", "it_per_s"):
        chosen = [r for r in sd if r["metric"] == metric]
        if chosen:
            within = sum(1 for r in chosen if r["in_sample"] <= 25)
            lines.append(
                f"SD 1.5/SDXL {metric}: {within} of {len(chosen)} rows within 25% in-sample "
                f"(median {_pct(median(r['in_sample'] for r in chosen))}, LOSO median "
                f"{_pct(median(r['loso'] for r in chosen))})"
            )
    memory = [r for r in rows if r["kind"] == "memory" and not r["cpu"]]
    for label, chosen in (
        ("Whisper memory", [r for r in memory if r["family"] == "speech"]),
        ("SDXL memory", [r for r in memory if r["model"] == "sdxl"]),
    ):
        within = sum(1 for r in chosen if r["in_sample"] <= 15)
        lines.append(
            f"{label}: {within} of {len(chosen)} rows within 15% (median "
            f"{_pct(median(r['in_sample'] for r in chosen))}, LOSO "
            f"{_pct(median(r['loso'] for r in chosen))}): "
            + ", ".join(f"{r['id']} {r['in_sample']:.0f}%" for r in chosen)
        )
    lines += _whisper_cpu(rows)
    lines.append(_whisper_relative_speeds(catalog))
    for model, gpu, offload, want in (
        ("sdxl", "rtx-3070", "none", False),
        ("sd-1.5", "rtx-3070", "none", True),
    ):
        result = estimate(Request(model, gpu, precision="fp16", offload=offload), catalog)
        lines.append(
            f"fit verdict {model} fp16 on {result.gpu_name} (8 GB), offload {offload}: "
            f"{'fits' if result.fits else 'does not fit'} ({result.memory_per_gpu_gb:.1f} GB), "
            + ("right" if result.fits == want else "WRONG")
        )
    return lines


# The openai/whisper README's "Relative speed" column: each size against the large model,
# "measured by transcribing English speech on a A100" (github:openai/whisper
# README.md@0033c7ff6e813c01265a3f291b85cb4ab2e8940a). Scored, never fitted: the speech constants
# come from 32-layer rows only. "large" is large-v3 there (whisper/__init__.py).
WHISPER_RELATIVE_SPEED = {
    "whisper-tiny": 10.0,
    "whisper-base": 7.0,
    "whisper-small": 4.0,
    "whisper-medium": 2.0,
    "whisper-large-v3-turbo": 8.0,
}


def _whisper_relative_speeds(catalog: Catalog) -> str:
    def speed(model: str) -> float:
        result = estimate(Request(model, "a100-sxm4-40gb", engine="openai-whisper"), catalog)
        assert result.audio_seconds_per_s is not None
        return float(result.audio_seconds_per_s["typical"])

    large = speed("whisper-large-v3")
    parts, errors = [], []
    for model, stated in WHISPER_RELATIVE_SPEED.items():
        ratio = speed(model) / large
        errors.append(abs(ratio - stated) / stated * 100)
        parts.append(f"{model} {ratio:.1f}x (README ~{stated:g}x)")
    return (
        "Whisper relative speed vs large-v3, openai-whisper on an A100 (README, scored not "
        f"fitted): median error {_pct(median(errors))}: " + ", ".join(parts)
    )


def _whisper_cpu(rows: list[dict[str, Any]]) -> list[str]:
    """Whisper on the CPU alone, every row: the fitted ones (the faster-whisper README's
    i7-12700K table) and the other CPUs' (scored, not fitted), each with its in-sample error."""
    lines = []
    for kind, label in (("speed", "audio s/s"), ("memory", "RAM GB")):
        chosen = [r for r in rows if r["cpu"] and r["kind"] == kind]
        for fitted in (True, False):
            group = [r for r in chosen if r["fit"] == fitted]
            if not group:
                continue
            lines.append(
                f"Whisper on the CPU, {label}, {'fitted' if fitted else 'scored, not fitted'}: "
                f"median {_pct(median(r['in_sample'] for r in group))} over {len(group)} rows: "
                + ", ".join(
                    f"{r['id']} {r['label']} {r['engine']} {r['measured']:.3g} vs "
                    f"{r['predicted']:.3g} ({r['in_sample']:.0f}%)"
                    for r in group
                )
            )
    return lines


def _structure(rows: list[dict[str, Any]]) -> list[str]:
    """Where the classic training error sits: its held-out medians and the in-sample signed
    median (model over measured) by source, precision, framework and GPU count."""
    classic = [r for r in rows if r["family"] in ("vision", "transformer")]
    classic = [r for r in classic if r["metric"] in TRAINING_METRICS]
    lines = []
    for key in ("source", "precision", "framework", "num_gpus"):
        groups: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for r in classic:
            groups[r[key]].append(r)
        parts = []
        for name, group in sorted(groups.items(), key=lambda kv: str(kv[0])):
            bias = statistics.median(r["predicted"] / r["measured"] - 1 for r in group) * 100
            parts.append(
                f"{name} ({len(group)}): LOSO {_pct(median(r['loso'] for r in group))}, "
                f"LOGO {_pct(median(r['logo'] for r in group))}, in-sample bias {bias:+.0f}%"
            )
        lines.append(f"by {key.replace('_', ' ')}: " + "; ".join(parts))
    return lines


def _rows(count: int) -> str:
    return f"{count} row" + ("" if count == 1 else "s")


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}%"


# ---------------------------------------------------------------- report


def run() -> dict[str, Any]:
    catalog = load_catalog()
    cases, skipped = load_cases(catalog)
    predicted = _predict_all(cases, catalog, skipped)
    cases = [c for c in cases if c.id in predicted]
    loso: dict[str, float] = {}
    logo: dict[str, float] = {}
    fits = []
    covered: set[str] = set()
    for spec in specs(catalog):
        model = Model(spec, cases, catalog)
        covered |= {row[0].id for row in model.rows}
        module = {p: read(p) for p in spec.params}
        refit = model.fit(lambda c: True, module)
        fits.append(_fit_summary(spec, module, refit, _consistency(model, predicted)))
        loso |= _held_out(model, refit, lambda c: c.source, catalog)
        logo |= _held_out(model, refit, lambda c: c.chip, catalog)
    rows = []
    for case in cases:
        rows.append({
            "id": case.id, "family": case.family + (" (CPU)" if case.cpu else ""),
            "cpu": case.cpu, "engine": case.request.engine or "", "model": case.model,
            "metric": case.metric,
            "kind": case.kind, "source": case.source, "chip": case.chip, "label": case.label,
            "precision": case.request.precision or "fp16",
            "framework": case.request.framework or "pytorch", "num_gpus": case.request.num_gpus,
            "fit": case.fit, "scored_only": case.scored_only,
            "measured": case.value, "predicted": predicted[case.id],
            "in_sample": ape(predicted[case.id], case.value),
            "loso": ape(loso.get(case.id), case.value), "logo": ape(logo.get(case.id), case.value),
            "bandwidth_baseline": ape(baseline(case, cases, catalog, "bandwidth"), case.value),
            "tflops_baseline": ape(baseline(case, cases, catalog, "tflops"), case.value),
        })  # fmt: skip
    return {
        "table": _table(rows),
        "targets": _targets(rows, catalog),
        "structure": _structure(rows),
        "fits": fits,
        "scored_only": _scored_only(cases, covered),
        "skipped": dict(skipped.most_common()),
        "rows": rows,
    }


NOT_COVERED = "no fit covers its workload or metric (scored in-sample only)"


def _scored_only(cases: list[Case], covered: set[str]) -> list[dict[str, Any]]:
    """The rows no fit uses, by family and reason (its words before a colon: a row's own
    details follow them and are in its entry of the rows): those the data marks (scored in every
    split) and those no FitSpec covers (scored in-sample only)."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for case in cases:
        reason = case.scored_only or ("" if case.id in covered else NOT_COVERED)
        if reason:
            head = reason.split(": ", 1)[0]
            groups[(case.family + (" (CPU)" if case.cpu else ""), head)].append(case.id)
    return [
        {"family": family, "reason": reason, "rows": ids}
        for (family, reason), ids in sorted(groups.items())
    ]


def _fit_summary(
    spec: FitSpec, module: dict[Param, float], refit: dict[Param, float], gap: float
) -> dict[str, Any]:
    return {
        "fit": spec.name,
        "pure_vs_estimate_max_gap": gap,
        "constants": [
            {
                "name": p.name,
                "module": module[p],
                "refit": refit[p],
                "diff_pct": (refit[p] / module[p] - 1) * 100,
            }
            for p in spec.params
        ],
    }


def _table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["family"], row["metric"])].append(row)
    table = []
    for (family, metric), group in sorted(groups.items()):
        by_model: dict[str, list[float]] = defaultdict(list)
        for row in group:
            by_model[row["model"]].append(
                row["logo"] if row["logo"] is not None else row["in_sample"]
            )
        worst = max(by_model.items(), key=lambda kv: statistics.median(kv[1]))
        table.append({
            "family": family, "metric": metric, "rows": len(group),
            "in_sample_median": median(r["in_sample"] for r in group),
            "in_sample_p90": p90(r["in_sample"] for r in group),
            "loso_median": median(r["loso"] for r in group),
            "logo_median": median(r["logo"] for r in group),
            "worst_model": f"{worst[0]} {statistics.median(worst[1]):.0f}%",
            "bandwidth_baseline": median(r["bandwidth_baseline"] for r in group),
            "bandwidth_baseline_rows": sum(r["bandwidth_baseline"] is not None for r in group),
            "tflops_baseline": median(r["tflops_baseline"] for r in group),
        })  # fmt: skip
    return table


def markdown(report: dict[str, Any]) -> str:
    out = [
        "# Family calibration benchmark",
        "",
        "Median / p90 absolute % error of `estimate()` against published measurements; LOSO and "
        "LOGO refit the family's constants without the row's source or GPU chip. Baselines: one "
        "measured figure of the same model and setup on another GPU scaled by bandwidth or by "
        "dense TFLOPS (median over the other GPUs' rows; rows with such a figure in brackets).",
        "",
        "| family | metric | rows | in-sample median | p90 | LOSO median | LOGO median | "
        "worst model (LOGO) | bandwidth baseline | TFLOPS baseline |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for t in report["table"]:
        out.append(
            f"| {t['family']} | {t['metric']} | {t['rows']} | {_pct(t['in_sample_median'])} | "
            f"{_pct(t['in_sample_p90'])} | {_pct(t['loso_median'])} | {_pct(t['logo_median'])} | "
            f"{t['worst_model']} | {_pct(t['bandwidth_baseline'])} "
            f"({t['bandwidth_baseline_rows']}) | {_pct(t['tflops_baseline'])} |"
        )
    out += ["", "## Targets (issue 19)", ""] + [f"- {line}" for line in report["targets"]]
    out += ["", "## Classic training error by setup", ""]
    out += [f"- {line}" for line in report.get("structure", [])]
    out += ["", "## Refit on all rows vs the modules' constants", ""]
    for fit in report["fits"]:
        out.append(
            f"- {fit['fit']} (pure function vs estimate(): max gap "
            f"{fit['pure_vs_estimate_max_gap']:.1e}): "
            + ", ".join(
                f"{c['name']} {c['module']:.4g} -> {c['refit']:.4g} ({c['diff_pct']:+.1f}%)"
                for c in fit["constants"]
            )
        )
    marked = report.get("scored_only", [])
    out += [
        "",
        "## Rows scored, not fitted",
        "",
        f"{sum(len(g['rows']) for g in marked)} rows are predicted but no fit uses them: those "
        "the data marks (workloads.csv's scored_only column, or a note's confidence: low) in "
        "every split, the others in-sample only.",
        "",
    ]
    out += [
        f"- {g['family']}, {_rows(len(g['rows']))} ({', '.join(g['rows'])}): {g['reason']}"
        for g in marked
    ]
    out += ["", "## Rows not mapped", ""]
    out += [f"- {count} {reason}" for reason, count in report["skipped"].items()]
    return "\n".join(out) + "\n"


def main() -> None:
    report = run()
    RESULTS.mkdir(exist_ok=True)
    text = markdown(report)
    (RESULTS / "calibration_families.md").write_text(text, encoding="utf-8")
    (RESULTS / "calibration_families.json").write_text(
        json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(text)


if __name__ == "__main__":
    main()
