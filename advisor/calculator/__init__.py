"""The deterministic calculator: memory, fit, speed and cost. Pure functions, no I/O."""

from advisor.calculator.estimator import (
    WORKLOADS,
    Estimate,
    Request,
    estimate,
    max_batch,
    max_context,
    min_gpus,
)
from advisor.calculator.factors import ENGINES, FORMULA_VERSION
from advisor.calculator.precision import PRECISIONS, get_precision

__all__ = [
    "ENGINES",
    "FORMULA_VERSION",
    "PRECISIONS",
    "WORKLOADS",
    "Estimate",
    "Request",
    "estimate",
    "get_precision",
    "max_batch",
    "max_context",
    "min_gpus",
]
