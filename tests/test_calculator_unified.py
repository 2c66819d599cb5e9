"""A Mac's GPU holds the share of unified memory macOS lets it wire, not all of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from advisor.calculator.memory import METAL_WIRED_SHARE, capacity_gb
from advisor.catalog import Catalog


@pytest.mark.parametrize(("gpu", "share"), [("m4-max-128gb", 0.75), ("m1-max-32gb", 0.70)])
def test_a_mac_gpu_wires_part_of_its_memory(catalog: Catalog, gpu: str, share: float) -> None:
    mac = catalog.gpus[gpu]
    uncapped = replace(mac, compute_stack="cuda")  # the same memory with no macOS wiring limit
    assert capacity_gb(mac) == pytest.approx(capacity_gb(uncapped) * share)
    assert dict(METAL_WIRED_SHARE)[36.0] == 0.70


def test_other_unified_memory_is_not_capped(catalog: Catalog) -> None:
    spark = next(
        g for g in catalog.gpus.values() if g.unified_memory and g.compute_stack != "metal"
    )
    assert capacity_gb(spark) == pytest.approx(spark.memory_gb * 1.073741824, rel=0.05)
