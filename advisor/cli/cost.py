"""`gpu-advisor cost break-even`: rent or buy, every input shown and changeable."""

from __future__ import annotations

from typing import Any

import click

from advisor.cli.render import print_json, table
from advisor.errors import InvalidInput


@click.group("cost")
def cost_group() -> None:
    """Money: rent or buy."""


@cost_group.command("break-even")
@click.option("--gpu", help="A GPU the catalog prices (purchase and rental); optional when you "
              "give both prices.")  # fmt: skip
@click.option("--purchase-usd", type=click.FloatRange(min=0.01), help="Price to buy one GPU.")
@click.option("--rent-usd-per-hour", type=click.FloatRange(min=0.0001), help="Rent per GPU-hour.")
@click.option("--rent-usd-per-month", type=click.FloatRange(min=0.01), help="Or a monthly bill.")
@click.option("--num-gpus", type=click.IntRange(1, 100_000), default=1, show_default=True)
@click.option("--usd-per-kwh", type=click.FloatRange(min=0), help="Electricity (default: US avg).")
@click.option("--host-usd-per-hour", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="The host machine's share, per GPU-hour.")  # fmt: skip
@click.option("--hours-per-day", type=click.FloatRange(0.1, 24), default=24.0, show_default=True)
@click.option("--hours-of-use", type=click.FloatRange(min=0.01), help="Compare over this much use.")
@click.option("--condition", type=click.Choice(["new", "used", "msrp"]), default="new",
              show_default=True)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def break_even_command(as_json: bool, **options: Any) -> None:
    """After how many hours of use buying costs less than renting."""
    from advisor.tools import break_even

    result = break_even(**{k: v for k, v in options.items() if v is not None})
    if "error" in result:
        raise InvalidInput(result["error"])
    if as_json:
        print_json(result)
        return
    hours = result["break_even_hours"]
    rows = [
        ("Purchase, per GPU", f"${result['purchase_usd']:,.2f}", result["sources"]["purchase"]),
        ("Rent, per GPU-hour", f"${result['rent_usd_per_hour']:,.3f}", result["sources"]["rent"]),
        ("Electricity, per GPU-hour", f"${result['power_usd_per_hour']:,.3f}",
         f"{result['power_w']:g} W at ${result['usd_per_kwh']:g}/kWh "
         f"({result['sources']['electricity']})"),
        ("Host share, per GPU-hour", f"${result['host_usd_per_hour']:,.3f}", "given"),
        ("Break-even", "never" if hours is None else f"{hours:,.0f} hours",
         "" if hours is None else f"{result['break_even_months']:.1f} months at "
         f"{result['hours_per_day']:g} h/day"),
    ]  # fmt: skip
    if over := result.get("over_use"):
        rows.append((f"Over {over['hours']:,.0f} hours", f"buy ${over['own_usd']:,.0f}",
                     f"rent ${over['rent_usd']:,.0f}: {over['cheaper']} is cheaper"))  # fmt: skip
    name = result.get("gpu_name") or "your prices"
    table(f"Rent or buy: {result['num_gpus']} x {name}", ("", "value", "from"), rows)
    click.echo(f"Left out: {result['left_out']}.")
