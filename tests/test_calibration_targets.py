"""The accuracy benchmark's targets hold (issue: calculator accuracy, measured).

Runs eval/calibration_benchmark.py's scoring in-process over the shared calibration table.
"""

from __future__ import annotations

import csv

import pytest

from eval.calibration_benchmark import CSV_PATH, _cases, score

TARGETS = {  # class: highest median APE allowed
    "decode tok/s": 15,
    "prefill tok/s": 25,
    "inference memory": 10,
    "fine-tuning memory": 20,
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, float]]:
    rows = list(csv.DictReader(CSV_PATH.open(encoding="utf-8")))
    cases, _ = _cases(rows)
    return score(cases)


@pytest.mark.parametrize(("cls", "limit"), TARGETS.items())
def test_median_error_targets(report: dict[str, dict[str, float]], cls: str, limit: float) -> None:
    assert report[cls]["rows"] >= 10
    assert report[cls]["calculator_median_ape"] <= limit


def test_fit_verdicts_at_least_95_percent_right(report: dict[str, dict[str, float]]) -> None:
    assert report["fit verdicts"]["calculator_right_pct"] >= 95


def test_better_than_both_baselines_on_every_class(report: dict[str, dict[str, float]]) -> None:
    for cls, entry in report.items():
        if cls == "fit verdicts":
            assert entry["calculator_right_pct"] > entry["naive_right_pct"], cls
            assert entry["calculator_right_pct"] > entry["gpu_poor_right_pct"], cls
        else:
            assert entry["calculator_median_ape"] < entry["naive_median_ape"], cls
            assert entry["calculator_median_ape"] < entry["gpu_poor_median_ape"], cls
