"""What a workstation draws at full load, and whether a power supply carries it.

The GPUs' board power comes from their datasheets; the rest are stated defaults, each replaced by
the user's own figure when given:

- CPU_W: a high-end desktop CPU flat out: AMD Ryzen 9 7950X package power limit (PPT) 230 W
  (amd.com product page), Intel Core i9-13900K maximum turbo power 253 W (intel.com ARK);
- OFFICE_CPU_W: the CPU of an office or small-form-factor desktop: Intel Core i5-12400
  processor base power 65 W (intel.com ARK), AMD Ryzen 5 5600 default TDP 65 W (amd.com);
- PLATFORM_W: motherboard, memory, drives and fans, an assumption;
- PSU_LOAD_SHARE: keep the sustained draw at or under 80% of the supply's rating, an assumption
  that leaves room for the millisecond power spikes of modern GPUs and keeps the supply efficient;
- CIRCUIT_CONTINUOUS_SHARE: a circuit carries a continuous load (three hours or more) of at most
  80% of its breaker's rating (US National Electrical Code 210.19(A)(1) and 210.20(A)).
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import InvalidInput

CPU_W = 230.0
OFFICE_CPU_W = 65.0
PLATFORM_W = 75.0
PSU_LOAD_SHARE = 0.8
CIRCUIT_CONTINUOUS_SHARE = 0.8


@dataclass(frozen=True)
class PowerBudget:
    gpus_w: float
    cpu_w: float
    platform_w: float
    total_w: float
    recommended_psu_w: float  # total over PSU_LOAD_SHARE
    psu_w: float | None = None
    verdict: str | None = None  # enough | tight | too small (when a supply is given)
    load_share: float = PSU_LOAD_SHARE
    circuit_w: float | None = None  # a circuit's amps x volts, when given
    circuit_continuous_w: float | None = None  # what it carries for hours on end
    circuit_verdict: str | None = None  # within | over for hours | over (the machine's total)
    circuit_spare_w: float | None = None  # what the continuous limit leaves beside the machine


def power_budget(
    gpu_w: float,
    num_gpus: int = 1,
    cpu_w: float | None = None,
    psu_w: float | None = None,
    circuit_a: float | None = None,
    circuit_v: float | None = None,
) -> PowerBudget:
    """The full-load draw of `num_gpus` GPUs of `gpu_w` board power with a CPU and the rest of
    the system, the supply it calls for, and how a given supply compares; with a circuit's amps
    and volts, what it carries and whether the machine stays within it for hours."""
    if (circuit_a is None) != (circuit_v is None) or any(
        v is not None and v <= 0 for v in (circuit_a, circuit_v)
    ):
        raise InvalidInput("A circuit takes both its amps and its volts, each above 0.")
    if gpu_w <= 0 or not 1 <= num_gpus <= 16:
        raise InvalidInput(f"Give a GPU board power above 0 and 1 to 16 GPUs (got {gpu_w} W, "
                           f"{num_gpus} GPUs).")  # fmt: skip
    if (cpu_w is not None and cpu_w <= 0) or (psu_w is not None and psu_w <= 0):
        raise InvalidInput("CPU and power supply watts must be above 0.")
    cpu = CPU_W if cpu_w is None else cpu_w
    gpus = gpu_w * num_gpus
    total = gpus + cpu + PLATFORM_W
    verdict = None
    if psu_w is not None:
        verdict = (
            "too small"
            if psu_w < total
            else "tight"
            if psu_w * PSU_LOAD_SHARE < total
            else "enough"
        )
    circuit = continuous = circuit_verdict = spare = None
    if circuit_a is not None and circuit_v is not None:
        circuit = circuit_a * circuit_v
        continuous = circuit * CIRCUIT_CONTINUOUS_SHARE
        circuit_verdict = (
            "within" if total <= continuous else "over for hours" if total <= circuit else "over"
        )
        spare = continuous - total
    return PowerBudget(gpus, cpu, PLATFORM_W, total, total / PSU_LOAD_SHARE, psu_w, verdict,
                       circuit_w=circuit, circuit_continuous_w=continuous,
                       circuit_verdict=circuit_verdict, circuit_spare_w=spare)  # fmt: skip


@dataclass(frozen=True)
class CardsWithin:
    num_gpus: int  # the most cards at full board power whose machine stays within the limit
    total_w: float  # that machine's full-load draw
    limit_w: float  # the draw allowed: the limit, or PSU_LOAD_SHARE of a supply's rating
    left_for_gpus_w: float  # the limit less the CPU and the rest of the system
    cap_w_for_one_more: float  # the board power each card is capped to for one card more
    one_more: int  # that count of cards: num_gpus + 1


def cards_within(
    gpu_w: float, limit_w: float, cpu_w: float | None = None, supply: bool = False
) -> CardsWithin:
    """How many GPUs of `gpu_w` board power a machine drawing at most `limit_w` at full load
    holds (with a CPU and the rest of the system), and the cap each card takes for one more.
    `supply`: `limit_w` is a power supply's rating, loaded to PSU_LOAD_SHARE of it."""
    if gpu_w <= 0 or limit_w <= 0 or (cpu_w is not None and cpu_w <= 0):
        raise InvalidInput("GPU board power, the power limit and CPU watts must be above 0.")
    cpu = CPU_W if cpu_w is None else cpu_w
    limit_w = limit_w * PSU_LOAD_SHARE if supply else limit_w
    left = limit_w - cpu - PLATFORM_W
    n = max(0, min(16, int(left // gpu_w)))
    return CardsWithin(n, n * gpu_w + cpu + PLATFORM_W, limit_w, left, max(left, 0.0) / (n + 1),
                       n + 1)  # fmt: skip
