"""Rendering helpers shared by the CLI commands: values with units, JSON, rich tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click


def fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and value >= 100_000:
        text = f"{value:,}"
    elif isinstance(value, float):
        text = f"{value:g}"
    else:
        text = str(value)
    return f"{text} {unit}".strip()


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def console() -> Any:
    from rich.console import Console  # rich is only needed for tables

    return Console(soft_wrap=False)


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console().print(table)


def short_source(source: str) -> str:
    """The host of a URL source, or the start of any other source, to keep tables narrow."""
    if source.startswith(("http://", "https://")):
        return source.split("/")[2]
    return source if len(source) <= 40 else source[:39] + "…"
