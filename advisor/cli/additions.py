"""`gpu-advisor gpus add` and `models add`: a user's own GPUs and models, kept under the
advisor's home (<home>/catalog/gpus/added.yaml, models/added.yaml) and loaded with the catalog.

Every row passes the catalog's own checks before it is written; a built-in id is never replaced.
The file is written whole, then renamed, so a crash never leaves half a catalog.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
import yaml

from advisor.catalog import Catalog, load_catalog, user_catalog_dir
from advisor.errors import AdvisorError, CatalogError, InvalidInput
from advisor.hfconfig import model_row
from advisor.specs import GPU, Model

ADDED = "added.yaml"


def _read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(rows, list):
        raise CatalogError(f"{path} must be a list of entries.")
    return rows


def _add(kind: str, rows: list[dict[str, Any]]) -> list[str]:
    """Validate `rows` with the catalog loader (a scratch copy of the user's folder) and append
    them to the user's catalog; the ids added."""
    import tempfile

    table = {"GPU": "gpus", "model": "models"}[kind]
    folder = user_catalog_dir() / table
    path = folder / ADDED
    existing = _read_rows(path)
    catalog = load_catalog()
    taken = set(catalog.gpus if kind == "GPU" else catalog.models)
    for row in rows:
        if not isinstance(row, dict) or not row.get("id"):
            raise InvalidInput(f"Each {kind} needs an id (got {row!r:.80}).")
        if row["id"] in taken:
            raise InvalidInput(f"The catalog already has a {kind} with id {row['id']!r}; "
                               "give the new one another id.")  # fmt: skip
        taken.add(row["id"])
    merged = existing + rows
    with tempfile.TemporaryDirectory() as scratch:  # the loader's checks, on the result
        trial = Path(scratch) / table
        trial.mkdir()
        (trial / ADDED).write_text(yaml.safe_dump(merged, sort_keys=False), encoding="utf-8")
        try:
            Catalog.load(catalog.data_dir, Path(scratch))
        except CatalogError as exc:  # the user's row, not a broken install: exit 2, not 3
            problem = str(exc).split(": ", 1)[-1]
            raise InvalidInput(f"Not added: {problem}") from None
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{ADDED}.{os.getpid()}.tmp"
    tmp.write_text(yaml.safe_dump(merged, sort_keys=False, allow_unicode=True), encoding="utf-8")
    os.replace(tmp, path)
    return [r["id"] for r in rows]


@click.command("add")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def gpus_add(path: Path) -> None:
    """Add GPUs from a YAML file (one row, or a list of rows, with the fields of
    advisor/data/gpus/*.yaml) to your catalog under the advisor's home."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InvalidInput(f"{path} is not valid YAML: {getattr(exc, 'problem', exc)}.") from None
    rows = data if isinstance(data, list) else [data]
    added = _add("GPU", rows)
    click.echo(f"Added {', '.join(added)} to {user_catalog_dir() / 'gpus' / ADDED}.")


@click.command("add")
@click.option("--from-config", "config_path", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A Hugging Face config.json.")  # fmt: skip
@click.option("--name", help="The model's name (default: the config's _name_or_path or file).")
@click.option("--id", "model_id", help="The catalog id (default: from the name).")
@click.option("--params", type=click.IntRange(min=1), help="Total parameters, if you know them.")
def models_add(config_path: Path, name: str | None, model_id: str | None,
               params: int | None) -> None:  # fmt: skip
    """Add a model from its Hugging Face config.json to your catalog: the architecture is read
    and the parameter count computed, so `estimate` and `ask` can size it."""
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{config_path} is not JSON: {exc}.") from None
    if not isinstance(config, dict):
        raise InvalidInput(f"{config_path} is not a config.json (a JSON object).")
    label = name or str(config.get("_name_or_path") or config_path.parent.name or "My model")
    row = model_row(config, name=label, model_id=model_id, params=params,
                    source=f"your config.json ({config_path.resolve()})")  # fmt: skip
    try:
        (added,) = _add("model", [row])
    except AdvisorError:
        raise
    model = load_catalog().models[added]
    active = f", {model.active_params / 1e9:.2f}B active" if model.active_params else ""
    click.echo(
        f"Added {model.name} ({added}): {model.total_params / 1e9:.2f}B parameters{active}, "
        f"{model.num_layers} layers, {model.num_kv_heads} KV heads, context "
        f"{model.max_context:,}. Try: gpu-advisor estimate --model {added} --gpu rtx-4090"
    )


__all__ = ["GPU", "Model", "gpus_add", "models_add"]
