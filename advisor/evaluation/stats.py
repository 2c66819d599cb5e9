"""The one percentile rule the benchmarks and the evaluation report share."""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def p50_p95(values: Iterable[float]) -> tuple[float, float]:
    """Median, and the 95th percentile by nearest rank (the value at index 0.95 x (n - 1))."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]
