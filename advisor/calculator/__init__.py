"""The deterministic calculator: memory, fit, speed and cost. Pure functions, no I/O.

Workload families (families.py) declare what they estimate; `estimate()` answers any of them.
"""

from advisor.calculator.base import Band, Estimate, Family, Metric, Request, WorkloadKind
from advisor.calculator.estimator import LIMITS, estimate, max_batch, max_context, min_gpus
from advisor.calculator.factors import FORMULA_VERSION
from advisor.calculator.families import (
    ALL_PRECISIONS,
    ENGINES,
    FAMILIES,
    FRAMEWORKS,
    METRICS,
    OFFLOADS,
    WORKLOAD_KINDS,
    WORKLOADS,
    find_model,
)
from advisor.calculator.memory import reserved_gb
from advisor.calculator.precision import PRECISIONS, get_precision

__all__ = [
    "ALL_PRECISIONS",
    "ENGINES",
    "FAMILIES",
    "FORMULA_VERSION",
    "FRAMEWORKS",
    "LIMITS",
    "METRICS",
    "OFFLOADS",
    "PRECISIONS",
    "WORKLOADS",
    "WORKLOAD_KINDS",
    "Band",
    "Estimate",
    "Family",
    "Metric",
    "Request",
    "WorkloadKind",
    "estimate",
    "find_model",
    "get_precision",
    "max_batch",
    "max_context",
    "min_gpus",
    "reserved_gb",
]
