"""A GPU that shares its memory with the CPU holds only part of it: a Mac's GPU the share macOS
lets it wire, a PC's integrated GPU its firmware's share, others what the CPU leaves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from advisor.calculator import Request, estimate
from advisor.calculator.memory import METAL_WIRED_SHARE, capacity_gb
from advisor.catalog import Catalog


@pytest.mark.parametrize(("gpu", "share"), [("m4-max-128gb", 0.75), ("m1-max-32gb", 0.70)])
def test_a_mac_gpu_wires_part_of_its_memory(catalog: Catalog, gpu: str, share: float) -> None:
    mac = catalog.gpus[gpu]
    # the same memory on a card of its own, with no macOS wiring limit
    uncapped = replace(mac, compute_stack="cuda", unified_memory=False)
    assert capacity_gb(mac) == pytest.approx(capacity_gb(uncapped) * share)
    assert dict(METAL_WIRED_SHARE)[36.0] == 0.70


@pytest.mark.parametrize(("gpu", "holds_gb"), [("gb10", 128.0), ("jetson-agx-orin-64gb", 64.0),
                                              ("ryzen-ai-max-395-128gb", 96.0)])  # fmt: skip
def test_other_unified_memory_leaves_the_cpu_its_share(
    catalog: Catalog, gpu: str, holds_gb: float
) -> None:
    # a card of its own holds its binary gigabytes; a shared pool never more than its size said,
    # and the Strix Halo's firmware gives its GPU at most 96 of 128 GB
    part = catalog.gpus[gpu]
    assert capacity_gb(part) == pytest.approx(holds_gb)
    assert capacity_gb(replace(part, unified_memory=False)) > part.memory_gb


def test_a_fit_on_shared_memory_says_why_it_holds_less(catalog: Catalog) -> None:
    e = estimate(Request("llama-3.1-70b", "ryzen-ai-max-395-128gb", precision="q4_k_m"))
    assert any("the share the firmware assigns the integrated GPU" in a for a in e.assumptions)
