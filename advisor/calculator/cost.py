"""Cost from dated, sourced prices: per job, per million tokens, per month."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import InvalidInput
from advisor.specs import Price

HOURS_PER_MONTH = 730


@dataclass(frozen=True)
class PriceChoice:
    """The price a cost uses, with the spread of the other current ones."""

    price: Price
    low_usd: float
    median_usd: float
    high_usd: float
    count: int


def choose_price(prices: list[Price], offering: str = "on-demand") -> PriceChoice | None:
    """The median current price of an offering (falling back to any offering), or None."""
    pool = [p for p in prices if p.offering == offering] or prices
    pool = [p for p in pool if p.provider_class != "article"] or pool
    if not pool:
        return None
    ranked = sorted(pool, key=lambda p: p.usd_per_gpu_hour)
    median = ranked[len(ranked) // 2]
    return PriceChoice(
        price=median,
        low_usd=ranked[0].usd_per_gpu_hour,
        median_usd=median.usd_per_gpu_hour,
        high_usd=ranked[-1].usd_per_gpu_hour,
        count=len(ranked),
    )


def job_cost_usd(usd_per_gpu_hour: float, num_gpus: int, hours: float) -> float:
    """cost = GPUs x price per GPU-hour x wall hours."""
    _check(usd_per_gpu_hour=usd_per_gpu_hour, hours=hours)
    return num_gpus * usd_per_gpu_hour * hours


def cost_per_million_tokens_usd(
    usd_per_gpu_hour: float, num_gpus: int, tokens_per_s: float
) -> float:
    """1e6 x GPUs x price / 3600 / tokens per second."""
    return cost_per_units_usd(usd_per_gpu_hour, num_gpus, tokens_per_s, 1e6)


def cost_per_units_usd(
    usd_per_gpu_hour: float, num_gpus: int, units_per_s: float, units: float
) -> float:
    """The cost of `units` units of work (tokens, images, seconds of audio) at a rate:
    units x GPUs x price / 3600 / units per second."""
    _check(usd_per_gpu_hour=usd_per_gpu_hour, rate=units_per_s)
    return units * num_gpus * usd_per_gpu_hour / 3600 / units_per_s


def monthly_cost_usd(usd_per_gpu_hour: float, num_gpus: int, utilisation: float = 1.0) -> float:
    """A month of 730 hours at the given share of the time rented."""
    if not 0 < utilisation <= 1:
        raise InvalidInput(
            "Utilisation must be above 0 and at most 1 (e.g. 0.5 for half the time)."
        )
    return num_gpus * usd_per_gpu_hour * HOURS_PER_MONTH * utilisation


def _check(**values: float) -> None:
    for name, value in values.items():
        if not value > 0:
            raise InvalidInput(f"{name.replace('_', ' ')} must be positive (got {value}).")
