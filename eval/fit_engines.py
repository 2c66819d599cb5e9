"""Fit an engine's decode constants to its own rows of eval/calibration/llm.csv, and check them
by leaving one source out.

    python -m eval.fit_engines [ENGINE ...] [--json PATH] [--check]

For each engine the constants in FREE are searched over their grids (coordinate descent, two
passes) to minimise the median |log(predicted / measured)| over the engine's decode rows, scored
exactly as `python -m eval.calibration_classes` scores them. The decode bandwidth share is one
value per GPU generation with at least MIN_GEN_ROWS rows from MIN_GEN_SOURCES sources
(factors.EngineFactors.mbu_fitted); other generations keep the engine x generation prior.
Leave-one-source-out refits on the other sources and predicts the held-out one. The output gives
the values to write into advisor/calculator/factors.py with the row ids they were fitted on.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from advisor.calculator import factors
from advisor.calculator.factors import EngineFactors, generation
from advisor.catalog import Catalog, load_catalog
from eval import calibration_classes as cc

MIN_GEN_ROWS = 5
MIN_GEN_SOURCES = 2  # a generation's own bandwidth share needs rows from two sources
# ... except for an engine whose rows all come from one source, where that source's rows on a
# generation are better evidence than the share decode_mbu would carry over from another
# engine's or another card's fit: SGLang's are the Qwen speed benchmark's, on H20 cards
SINGLE_SOURCE_ENGINES = ("sglang",)
# the decode classes and the engine each row runs on
DECODE_TASKS = ("decode",)
GRIDS: dict[str, tuple[float, ...]] = {
    "layer_overhead_ms": (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2),
    "step_overhead_ms": (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0),
    "mbu": tuple(round(0.30 + 0.025 * i, 3) for i in range(27)),  # 0.30 .. 0.95
}
FREE: dict[str, tuple[str, ...]] = {
    "hf": ("layer_overhead_ms", "step_overhead_ms", "mbu"),
    "autoawq": ("layer_overhead_ms", "step_overhead_ms", "mbu"),
    "vllm": ("step_overhead_ms", "mbu"),
    # sglang: its bandwidth share on A100s is vLLM's (no rows of its own there)
    "sglang": ("step_overhead_ms", "mbu"),
    "lmdeploy": ("step_overhead_ms", "mbu"),
    "exllamav2": ("step_overhead_ms", "mbu"),
}
CHECK_ONLY = ("llama.cpp", "tensorrt-llm")  # scored by --check, fitted elsewhere
RESULTS = Path(__file__).resolve().parent / "results" / "fit_engines.json"


def engine_rows(rows: Sequence[Mapping[str, str]], engine: str) -> list[Mapping[str, str]]:
    """The decode rows measured on `engine` (the row's own engine column)."""
    out = []
    for row in rows:
        task = cc.TASKS.get((row["workload"], row["metric"]))
        if task in DECODE_TASKS and row["engine"].split(" ")[0] == engine:
            out.append(row)
    return out


def generations(
    rows: Sequence[Mapping[str, str]], catalog: Catalog, min_sources: int = MIN_GEN_SOURCES
) -> dict[str, int]:
    """Rows per GPU generation, for the generations with rows from `min_sources` sources."""
    counts: dict[str, int] = {}
    sources: dict[str, set[str]] = {}
    for row in rows:
        try:
            gpus = cc._gpus(row, catalog)
        except cc.Skip:
            continue
        gens = {generation(g.architecture, g.memory_type) for g in gpus}
        if len(gens) == 1:
            (gen,) = gens
            counts[gen] = counts.get(gen, 0) + 1
            sources.setdefault(gen, set()).add(cc.source_key(row))
    return {g: n for g, n in counts.items() if len(sources[g]) >= min_sources}


def plain_mbu(values: Mapping[str, float]) -> dict[str, float]:
    """The "mbu:GENERATION" entries of a fit's values."""
    return {k: v for k, v in values.items() if k.startswith("mbu:")}


def apply(engine: str, base: EngineFactors, values: Mapping[str, float]) -> None:
    plain: dict[str, Any] = {k: v for k, v in values.items() if not k.startswith("mbu:")}
    # generations fitted now, beside those the engine keeps (SGLang keeps vLLM's A100 share)
    shares = {**dict(base.mbu_fitted), **{k[4:]: v for k, v in plain_mbu(values).items()}}
    fitted = tuple(sorted(shares.items()))
    factors.ENGINE_FACTORS[engine] = replace(base, **plain, mbu_fitted=fitted)


def errors(rows: Sequence[Mapping[str, str]], catalog: Catalog) -> list[tuple[str, float]]:
    """(source, log(pred / meas)) of every row that scores."""
    cases, _ = cc.score_rows(rows, catalog)
    by_id = {row["id"]: cc.source_key(row) for row in rows}
    return [(by_id[c.id], math.log(c.predicted / c.measured)) for c in cases]


def loss(logs: Sequence[tuple[str, float]]) -> float:
    return statistics.median(abs(v) for _, v in logs) if logs else math.inf


def fit(
    engine: str, base: EngineFactors, rows: Sequence[Mapping[str, str]], catalog: Catalog,
    gens: Sequence[str],
) -> dict[str, float]:  # fmt: skip
    mbu = dict(base.mbu_fitted)
    values: dict[str, float] = {k: getattr(base, k) for k in FREE[engine] if k != "mbu"}
    if "mbu" in FREE[engine]:
        for gen in gens:
            prior = base.mbu * factors.GENERATION_MBU.get(gen, 0.6)
            values[f"mbu:{gen}"] = mbu.get(gen, round(prior, 3))
    for _ in range(2):
        for key in list(values):
            grid = GRIDS["mbu" if key.startswith("mbu:") else key]
            best = (math.inf, values[key])
            for candidate in grid:
                apply(engine, base, {**values, key: candidate})
                best = min(best, (loss(errors(rows, catalog)), candidate))
            values[key] = best[1]
    apply(engine, base, values)
    return values


def run(
    engine: str, rows: Sequence[Mapping[str, str]], catalog: Catalog, refit: bool = True
) -> dict[str, Any]:
    base = factors.ENGINE_FACTORS[engine]
    mine = engine_rows(rows, engine)
    least = 1 if engine in SINGLE_SOURCE_ENGINES else MIN_GEN_SOURCES
    gens = [g for g, n in generations(mine, catalog, least).items() if n >= MIN_GEN_ROWS]
    shipped = errors(mine, catalog)
    values = fit(engine, base, mine, catalog, gens) if refit else {}
    fitted = errors(mine, catalog) if refit else shipped
    sources = sorted({cc.source_key(r) for r in mine})
    held: list[float] = []
    per_source: dict[str, dict[str, float | int]] = {}
    for source in sources if len(sources) > 1 and refit else []:
        train = [r for r in mine if cc.source_key(r) != source]
        test = [r for r in mine if cc.source_key(r) == source]
        fit(engine, base, train, catalog, gens)
        logs = [v for _, v in errors(test, catalog)]
        held += logs
        factors.ENGINE_FACTORS[engine] = base
        before = [v for s, v in shipped if s == source]
        if logs:
            per_source[source] = {
                "rows": len(logs),
                "shipped": statistics.median(abs(math.exp(v) - 1) for v in before),
                "loso": statistics.median(abs(math.exp(v) - 1) for v in logs),
            }
    factors.ENGINE_FACTORS[engine] = base
    ratios = sorted(math.exp(-v) for _, v in fitted)  # measured / predicted
    return {
        "engine": engine,
        "rows": len(fitted),
        "row_ids": [r["id"] for r in mine],
        "sources": sources,
        "generations_fitted": gens,
        "values": values,
        "shipped_median_ape": ape([v for _, v in shipped]) if shipped else None,
        "fitted_median_ape": ape([v for _, v in fitted]) if fitted else None,
        "loso_median_ape": ape(held) if held else None,
        "per_source": per_source,
        # the band an estimate of this engine carries: 10th and 90th percentile of measured /
        # predicted over the fitted rows
        "band": [_quantile(ratios, 0.1), _quantile(ratios, 0.9)] if ratios else None,
    }


def ape(logs: Sequence[float]) -> float:
    """Median absolute percentage error of log(predicted / measured) values."""
    return statistics.median(abs(math.exp(v) - 1) for v in logs)


def _quantile(values: Sequence[float], q: float) -> float:
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


# constants fitted to a class of rows: name -> (class, constant, grid); a constant written
# "engine.attribute" is that engine's EngineFactors field, any other a module constant of factors
REQUEST_MS_GRID = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0)
CONSTANTS: dict[str, tuple[str, str, tuple[float, ...]]] = {
    "train": (
        "training speed · HF PEFT/Trainer",
        "TRAIN_LAYER_MS",
        (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0),
    ),
    "ttft-tensorrt-llm": (
        "TTFT · TensorRT-LLM/NIM",
        "tensorrt-llm.request_overhead_ms",
        REQUEST_MS_GRID,
    ),
    "ttft-lmdeploy": ("TTFT · LMDeploy", "lmdeploy.request_overhead_ms", REQUEST_MS_GRID),
}


def _get(name: str) -> float:
    engine, _, attribute = name.rpartition(".")
    if engine:
        return float(getattr(factors.ENGINE_FACTORS[engine], attribute))
    return float(getattr(factors, name))


def _set(name: str, value: float) -> None:
    engine, _, attribute = name.rpartition(".")
    if engine:
        changes: dict[str, Any] = {attribute: value}
        factors.ENGINE_FACTORS[engine] = replace(factors.ENGINE_FACTORS[engine], **changes)
    else:
        setattr(factors, name, value)


def run_constant(
    target: str, rows: Sequence[Mapping[str, str]], catalog: Catalog
) -> dict[str, Any]:
    """Fit one module constant of factors.py to its class, with leave-one-source-out."""
    cls, name, grid = CONSTANTS[target]
    mine = [r for r in rows if cc.row_class(r) == cls]
    shipped_value = _get(name)

    def best(train: Sequence[Mapping[str, str]]) -> float:
        scored = []
        for value in grid:
            _set(name, value)
            scored.append((loss(errors(train, catalog)), value))
        return min(scored)[1]

    _set(name, shipped_value)
    shipped = errors(mine, catalog)
    value = best(mine)
    _set(name, value)
    fitted = errors(mine, catalog)
    sources = sorted({source for source, _ in shipped})  # the sources of the rows scored
    held: list[float] = []
    for source in sources if len(sources) > 1 else []:
        _set(name, best([r for r in mine if cc.source_key(r) != source]))
        held += [v for _, v in errors([r for r in mine if cc.source_key(r) == source], catalog)]
    _set(name, shipped_value)
    return {
        "engine": target, "class": cls, "constant": name, "value": value,
        "rows": len(fitted), "row_ids": [r["id"] for r in mine], "sources": sources,
        "shipped_median_ape": ape([v for _, v in shipped]) if shipped else None,
        "fitted_median_ape": ape([v for _, v in fitted]) if fitted else None,
        "loso_median_ape": ape(held) if held else None,
    }  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engines", nargs="*")
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument(
        "--check", action="store_true", help="score the shipped constants only (no fit, no LOSO)"
    )
    args = parser.parse_args(argv)
    args.engines = args.engines or [*FREE, *(CHECK_ONLY if args.check else CONSTANTS)]
    catalog = load_catalog()
    rows = cc.read_rows()
    out = []
    for engine in args.engines:
        if engine in CONSTANTS:
            out.append(run_constant(engine, rows, catalog))
            shown = {k: v for k, v in out[-1].items() if k != "row_ids"}
            print(json.dumps(shown, indent=1), flush=True)
            continue
        if engine not in FREE and not (args.check and engine in factors.ENGINE_FACTORS):
            sys.exit(f"No free constants for {engine!r}; use one of {', '.join(FREE)}.")
        result = run(engine, rows, catalog, refit=not args.check)
        out.append(result)
        shown = {k: v for k, v in result.items() if k not in ("row_ids",)}
        print(json.dumps(shown, indent=1), flush=True)
    args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
