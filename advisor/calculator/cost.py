"""Cost from dated, sourced prices: per job, per million tokens, per month."""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.errors import InvalidInput
from advisor.specs import Price

# an assumed electricity price when the user gives none: the U.S. average retail price to
# residential customers, 2024 (EIA Electric Power Monthly, table 5.6.A: about 16.5 cents/kWh)
DEFAULT_USD_PER_KWH = 0.165
DEFAULT_TARIFF_SOURCE = "the U.S. average residential price of 2024 (EIA Electric Power Monthly)"
HOURS_PER_YEAR = 8760
HOURS_PER_MONTH = 730
# The service life a rent-or-buy verdict assumes when the question names none ("over the
# hardware's life"): the recovery period of computers and peripheral equipment, 5-year property
# under MACRS (IRS Publication 946). Resale value after it is left out.
SERVICE_LIFE_YEARS = 5
SERVICE_LIFE_SOURCE = "assumed: the 5-year recovery period of computers in IRS Publication 946"


@dataclass(frozen=True)
class PriceChoice:
    """The price a cost uses, with the spread of the other current ones."""

    price: Price
    low_usd: float
    median_usd: float
    high_usd: float
    count: int


def choose_price(prices: list[Price], offering: str = "on-demand") -> PriceChoice | None:
    """The median current price of an offering (falling back to any offering), or None. Each
    provider counts once, at its newest price (the cheapest of that day's, as a buyer picks the
    region): a cloud that lists many regions or dates would otherwise set the median alone.
    The spread (low, high) and the count are over every price of the offering."""
    pool = [p for p in prices if p.offering == offering] or prices
    pool = [p for p in pool if p.provider_class != "article"] or pool
    if not pool:
        return None
    newest: dict[str, Price] = {}
    for p in pool:
        held = newest.get(p.provider)
        if held is None or (p.date, -p.usd_per_gpu_hour) > (held.date, -held.usd_per_gpu_hour):
            newest[p.provider] = p
    by_provider = sorted(newest.values(), key=lambda p: p.usd_per_gpu_hour)
    median = by_provider[len(by_provider) // 2]
    ranked = sorted(p.usd_per_gpu_hour for p in pool)
    return PriceChoice(
        price=median,
        low_usd=ranked[0],
        median_usd=median.usd_per_gpu_hour,
        high_usd=ranked[-1],
        count=len(ranked),
    )


def job_cost_usd(usd_per_gpu_hour: float, num_gpus: int, hours: float) -> float:
    """cost = GPUs x price per GPU-hour x wall hours."""
    _check(usd_per_gpu_hour=usd_per_gpu_hour, hours=hours)
    return num_gpus * usd_per_gpu_hour * hours


# what a service bills by: the units its price is per
SERVICE_UNITS = ("audio minute", "audio hour", "image", "million tokens")


def service_cost_usd(usd_per_unit: float, units: float) -> float:
    """A pay-per-use service's bill (transcription per audio minute, images, API tokens):
    price per unit x units."""
    _check(usd_per_unit=usd_per_unit, units=units)
    return usd_per_unit * units


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


def paced_hours_h(seconds_per_item: float, items: float, num_gpus: int = 1) -> float:
    """A job's wall time at a pace the user measured: items x seconds per item / 3600, shared by
    GPUs working apart."""
    return seconds_per_item * items / 3600 / num_gpus


def paced_items(per_second: float, hours: float) -> float:
    """What a pace the user measured gets through in `hours` of wall time: items a second x the
    seconds."""
    return per_second * hours * 3600


# compute-optimal training tokens per parameter (Hoffmann et al. 2022, "Chinchilla")
CHINCHILLA_TOKENS_PER_PARAM = 20


def train_hours_at_mfu(
    params: float, tokens: float, tflops_per_gpu: float, mfu: float, num_gpus: int = 1
) -> dict[str, float]:
    """A training run's wall time at a model FLOPs utilisation the user states: 6 x parameters
    (active ones, for a mixture of experts) x tokens of work, at that share of the GPUs' dense
    peak together (Kaplan et al. 2020's 6N FLOPs per token, the figure MFU is defined against)."""
    flops = 6 * params * tokens
    rate = mfu * tflops_per_gpu * 1e12 * num_gpus
    hours = flops / rate / 3600
    return {"flops": flops, "zettaflops": flops / 1e21, "effective_tflops": rate / 1e12,
            "hours": hours, "days": hours / 24, "gpu_hours": hours * num_gpus}  # fmt: skip


def tokens_at_mfu(params: float, gpu_hours: float, tflops_per_gpu: float, mfu: float) -> float:
    """The training tokens `gpu_hours` buy at a stated MFU: the inverse of train_hours_at_mfu."""
    return gpu_hours * 3600 * mfu * tflops_per_gpu * 1e12 / (6 * params)


def streams_served(rate_per_s: float, streams: int, per_stream_per_s: float) -> dict[str, float]:
    """Live streams (cameras, feeds) against a throughput: the items a second they need in all
    (streams x each one's rate), whether the rate keeps up, and how many whole streams it
    serves."""
    needed = streams * per_stream_per_s
    return {"needed_per_s": needed, "keeps_up": float(rate_per_s >= needed),
            # (a rate read back from a pace, 420.0000001 or 419.9999999, is 420: 14 streams of 30)
            "streams_served": float(math.floor(rate_per_s / per_stream_per_s + 1e-9))}  # fmt: skip


def load_replicas(
    serving_tokens_per_s: float,
    requests_per_s: float,
    output_tokens: float,
    gpus_per_replica: int,
    usd_per_gpu_hour: float | None = None,
) -> dict[str, float | None]:
    """Copies of one serving setup a load takes: the output tokens a second it needs
    (requests x output tokens), the copies at each one's full-load rate, their GPUs, and what
    they cost an hour and a day around the clock at a price per GPU-hour."""
    needed = requests_per_s * output_tokens
    replicas = max(1, math.ceil(needed / serving_tokens_per_s))
    gpus = replicas * gpus_per_replica
    hourly = gpus * usd_per_gpu_hour if usd_per_gpu_hour is not None else None
    return {
        "needed_tokens_per_s": needed,
        "replicas": replicas,
        "gpus": gpus,
        "usd_per_hour": hourly,
        "usd_per_day": hourly * 24 if hourly is not None else None,
    }


def rate_from_bill(usd: float, num_gpus: int, hours: float) -> dict[str, float]:
    """What a bill for `num_gpus` GPUs over `hours` each comes to per GPU-hour."""
    gpu_hours = num_gpus * hours
    return {"usd_per_gpu_hour": usd / gpu_hours, "gpu_hours": gpu_hours, "hours": hours}


def carried_over(measured: float, from_rate: float, to_rate: float, is_time: bool) -> float:
    """A figure measured on one GPU carried to another by the ratio of their estimated speeds
    for the same job: a rate times to_rate / from_rate, a time divided by it."""
    _check(measured=measured, from_rate=from_rate, to_rate=to_rate)
    ratio = to_rate / from_rate
    return measured / ratio if is_time else measured * ratio


def cards_for_rate(per_card: float, needed: float, load: float = 0.8) -> dict[str, float]:
    """Cards that together give `needed` at `per_card` each (a rate measured on one card): at
    full load, and with each card kept at `load` of its rate for bursts."""
    _check(per_card=per_card, needed=needed, load=load)
    return {"cards": math.ceil(needed / per_card - 1e-9),
            "cards_with_headroom": math.ceil(needed / (per_card * load) - 1e-9)}  # fmt: skip


def users_at_pace(total: float, each: float, load: float = 0.8) -> dict[str, float]:
    """Users at once that a measured total rate serves at `each` apiece: at full load, and with
    the rate kept at `load` of itself for bursts."""
    _check(total=total, each=each, load=load)
    return {"users": math.floor(total / each + 1e-9),
            "users_with_headroom": math.floor(total * load / each + 1e-9)}  # fmt: skip


def hours_for_budget_h(budget_usd: float, usd_per_gpu_hour: float, num_gpus: int = 1) -> float:
    """GPU time a budget buys: budget / (price x GPUs), in wall hours."""
    _check(budget=budget_usd, usd_per_gpu_hour=usd_per_gpu_hour)
    return budget_usd / (usd_per_gpu_hour * num_gpus)


@dataclass(frozen=True)
class BreakEven:
    """When owning costs less than renting: the purchase is paid back by the rent saved per hour
    of use, less what owning costs per hour (electricity, hosting)."""

    hours: float | None  # None: owning never catches up (its hourly cost is at least the rent)
    saving_usd_per_hour: float  # rent - (power + hosting) per GPU-hour
    power_usd_per_hour: float
    months: float | None  # at hours_per_day of use


def break_even(
    purchase_usd: float,
    rent_usd_per_hour: float,
    power_w: float = 0.0,
    usd_per_kwh: float = 0.0,
    host_usd_per_hour: float = 0.0,
    hours_per_day: float = 24.0,
) -> BreakEven:
    """hours = purchase / (rent - power_kW x $/kWh - hosting), per GPU; months at hours_per_day.
    Resale value, interest and the admin time of owning are left out (they favour renting and
    buying respectively); the answer says so."""
    _check(purchase_usd=purchase_usd, rent_usd_per_hour=rent_usd_per_hour)
    if not 0 < hours_per_day <= 24:
        raise InvalidInput(f"hours per day must be above 0 and at most 24 (got {hours_per_day}).")
    if power_w < 0 or usd_per_kwh < 0 or host_usd_per_hour < 0:
        raise InvalidInput("Power, electricity price and hosting cost cannot be negative.")
    power = power_w / 1000 * usd_per_kwh
    saving = rent_usd_per_hour - power - host_usd_per_hour
    if saving <= 0:
        return BreakEven(None, saving, power, None)
    hours = purchase_usd / saving
    return BreakEven(hours, saving, power, hours / hours_per_day / (HOURS_PER_MONTH / 24))


def usd_per_million_tokens(usd_per_hour: float, tokens_per_s: float) -> float:
    """What a million tokens cost at a price per hour and a speed: price / (tok/s x 3,600) x 1e6."""
    _check(usd_per_hour=usd_per_hour, tokens_per_s=tokens_per_s)
    return usd_per_hour / (tokens_per_s * 3600) * 1e6


def usd_per_requests(usd_per_hour: float, requests_per_s: float, requests: float = 1.0) -> float:
    """What `requests` cost on a setup rented by the hour that serves `requests_per_s` at full
    load: price / (req/s x 3,600) x requests."""
    _check(usd_per_hour=usd_per_hour, tokens_per_s=requests_per_s)
    if requests <= 0:
        raise InvalidInput("requests must be positive.")
    return usd_per_hour / (requests_per_s * 3600) * requests


def electricity(power_w: float, hours: float, usd_per_kwh: float) -> tuple[float, float]:
    """(kWh, cost): a draw of `power_w` watts for `hours`, at a price per kWh."""
    if power_w <= 0 or hours <= 0 or usd_per_kwh < 0:
        raise InvalidInput("Power and hours must be positive and the price per kWh not negative.")
    kwh = power_w / 1000 * hours
    return kwh, kwh * usd_per_kwh


def _check(**values: float) -> None:
    for name, value in values.items():
        if not value > 0:
            raise InvalidInput(f"{name.replace('_', ' ')} must be positive (got {value}).")
