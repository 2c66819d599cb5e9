"""The engine fitting tool: which generations get a value of their own, and a scored check."""

from __future__ import annotations

import math

import pytest

from advisor.calculator import factors
from advisor.catalog import load_catalog
from eval import calibration_classes as cc
from eval import fit_engines as fe

CATALOG = load_catalog()
ROWS = cc.read_rows()


def _row(i: str, gpu: str, source: str) -> dict[str, str]:
    return {"id": i, "gpu": gpu, "source": f"{source}@abc", "engine": "vllm",
            "workload": "decode", "metric": "tokens_per_s"}  # fmt: skip


def test_a_generation_needs_rows_from_two_sources_to_get_its_own_value() -> None:
    one_source = [_row(f"L{i}", "A100 SXM4 80GB", "github:a/b x.md") for i in range(6)]
    assert fe.generations(one_source, CATALOG) == {}
    two = [*one_source, _row("L9", "A100 SXM4 80GB", "github:c/d y.md")]
    assert fe.generations(two, CATALOG) == {"Ampere-HBM": 7}


def test_engine_rows_are_the_engines_own_decode_rows() -> None:
    rows = fe.engine_rows(ROWS, "sglang")
    assert rows and all(r["engine"].startswith("sglang") for r in rows)
    assert all(cc.TASKS[(r["workload"], r["metric"])] == "decode" for r in rows)


@pytest.mark.parametrize(
    "engine", sorted(e for e in factors.DECODE_CALIBRATION if e != "llama.cpp")
)
def test_check_scores_the_shipped_constants_without_changing_them(engine: str) -> None:
    before = factors.ENGINE_FACTORS[engine]
    result = fe.run(engine, ROWS, CATALOG, refit=False)
    assert factors.ENGINE_FACTORS[engine] is before
    assert result["rows"] >= 10 and result["values"] == {}
    assert result["fitted_median_ape"] == result["shipped_median_ape"]
    low, high = result["band"]
    assert 0 < low <= 1 <= high and math.isfinite(high)
    # the calculator's band is the one this check prints (stale constants fail here)
    cal = factors.DECODE_CALIBRATION[engine]
    assert cal.rows == result["rows"]
    assert abs(cal.median_ape - result["shipped_median_ape"]) < 0.01
    assert abs(cal.high - max(high, 1.05)) < 0.01
