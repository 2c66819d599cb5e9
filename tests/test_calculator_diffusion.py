"""Diffusion speed: which cards gain from FP16 accumulation (read from the datasheet, not the
segment), and the published rows W0900-W0941 of eval/calibration/workloads.csv (stable-fast,
fal-ai and sd-benchmarks READMEs)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from advisor.calculator import diffusion
from advisor.calculator.precision import fp16_accumulate_gain
from advisor.catalog import Catalog, load_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


# ---------------------------------------------------------------- FP16 accumulation


@pytest.mark.parametrize(
    ("gpu", "gain"),
    [
        # GeForce RTX: FP16 listed with FP32 accumulate at a quarter of the INT8 rate
        ("rtx-2080-ti", 2.0),
        ("rtx-3090", 2.0),
        ("rtx-4090", 2.0),
        ("rtx-5090", 2.0),
        ("rtx-4090-laptop", 2.0),
        # full-rate FP32 accumulate: the TITAN RTX (a consumer card), Quadro, RTX A and Ada
        ("titan-rtx", 1.0),
        ("quadro-rtx-8000", 1.0),
        ("rtx-a5000", 1.0),
        ("rtx-6000-ada", 1.0),
        ("a100-sxm4-80gb", 1.0),
        ("t4", 1.0),
        # no INT8 tensor cores: nothing to read, no gain
        ("gtx-1650", 1.0),
        ("gtx-1080-ti", 1.0),
        ("v100-sxm2-16gb", 1.0),
        ("rx-7900-xtx", 1.0),
    ],
)
def test_fp16_accumulate_gain_is_read_from_the_datasheet(catalog, gpu, gain):
    assert fp16_accumulate_gain(catalog.get_gpu(gpu)) == pytest.approx(gain, abs=0.02)


def test_the_gain_does_not_follow_the_segment(catalog):
    a5000 = catalog.get_gpu("rtx-a5000")
    assert fp16_accumulate_gain(replace(a5000, segment="consumer")) == 1.0
    rtx4090 = replace(catalog.get_gpu("rtx-4090"), segment="workstation")
    assert fp16_accumulate_gain(rtx4090) == pytest.approx(2.0, abs=0.01)


@pytest.mark.parametrize("gpu", ["titan-rtx", "gtx-1650", "gtx-1660-ti-laptop", "rtx-a5000"])
def test_no_fp16_bonus_where_the_datasheet_has_none(catalog, gpu):
    """The TITAN RTX and GTX 1650 once took the GeForce bonus by their segment: fp16 ran 1.92x
    the rate of bf16 on the same tensor cores."""
    card = catalog.get_gpu(gpu)
    assert diffusion._rate(card, "fp16") == pytest.approx(diffusion._rate(card, "bf16"))


@pytest.mark.parametrize("gpu", ["rtx-2080-ti", "rtx-3090", "rtx-4080", "rtx-4090"])
def test_geforce_fp16_runs_faster_than_its_listed_rate(catalog, gpu):
    card = catalog.get_gpu(gpu)
    ratio = diffusion._rate(card, "fp16") / diffusion._rate(card, "bf16")
    assert ratio == pytest.approx(2.0, abs=0.01)  # the FP16-accumulate rate, half the INT8 rate


# ---------------------------------------------------------------- published rows W0900-W0941


@pytest.fixture(scope="module")
def mapped(catalog):
    from eval.family_rows import load_cases

    cases, _ = load_cases(catalog)
    return {c.id: c for c in cases}


@pytest.mark.parametrize(
    ("row", "tolerance"),
    [
        ("W0912", 0.10),  # fal-ai, SD 1.5, A100 80GB, diffusers SDPA: 1.603 s end to end
        ("W0915", 0.15),  # fal-ai, SDXL, A100 80GB, diffusers SDPA: 5.932 s
        ("W0916", 0.20),  # fal-ai, SDXL, A100 80GB, compiled UNet: 5.216 s
        ("W0902", 0.10),  # stable-fast, SDXL, RTX 4080 (FP16 accumulate): 4.6 it/s
        ("W0921", 0.10),  # sd-benchmarks, SD 2.1 768 px, A100 40GB, compiled: 2.37 s
        ("W0928", 0.15),  # sd-benchmarks, SD 1.5, RTX 4090, compiled: 1.17 s
        ("W0937", 0.10),  # sd-benchmarks, SD 1.5, V100, xFormers: 2.96 s
        ("W0938", 0.20),  # sd-benchmarks, SD 1.5, T4 (70 W), xFormers: 7.83 s
    ],
)
def test_benchmark_readme_rows(catalog, mapped, row, tolerance):
    from eval.family_rows import predict

    case = mapped[row]
    assert predict(case, catalog) == pytest.approx(case.value, rel=tolerance)


def test_tensorrt_fp16_rows_are_scored_not_fitted(mapped):
    """TensorRT's fp16 engines run faster than the calculator's torch.compile-like pricing; the
    rows stay out of the fit (workloads.csv's scored_only) until TensorRT has its own factor."""
    new = [c for c in mapped.values() if "W0900" <= c.id <= "W0941"]
    trt = [c for c in new if c.request.engine == "tensorrt"]
    assert len(trt) == 8
    assert not any(c.fit for c in trt)
