"""Every value of the reference tables is in advisor/data, unchanged."""

from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from advisor.catalog import load_catalog
from tests.conftest import REFERENCE_DIR, SHARED_DATA

GPU_ROWS = list(csv.DictReader((REFERENCE_DIR / "gpu_specs_reference.csv").open(encoding="utf-8")))
MODEL_ROWS = list(csv.DictReader((REFERENCE_DIR / "models_reference.csv").open(encoding="utf-8")))
GPU_RENAMED = {"gpu_id": "id", "gpu_name": "name"}

# models_reference.csv column -> models.yaml field, for the columns stored as they are
MODEL_FIELDS = {
    "hf_repo": "hf_repo",
    "family": "family",
    "hf_architecture": "architecture",
    "total_params": "total_params",
    "checkpoint_params": "checkpoint_params",
    "text_decoder_params": "text_decoder_params",
    "active_params": "active_params",
    "num_hidden_layers": "num_layers",
    "hidden_size": "hidden_size",
    "num_attention_heads": "num_attention_heads",
    "num_key_value_heads": "num_kv_heads",
    "head_dim": "head_dim",
    "attention_type": "attention_type",
    "intermediate_size": "intermediate_size",
    "moe_intermediate_size": "moe_intermediate_size",
    "shared_expert_intermediate_size": "shared_expert_intermediate_size",
    "num_experts": "num_experts",
    "num_experts_per_tok": "experts_per_token",
    "n_shared_experts": "num_shared_experts",
    "first_k_dense_replace": "first_k_dense_replace",
    "kv_lora_rank": "kv_lora_rank",
    "q_lora_rank": "q_lora_rank",
    "qk_rope_head_dim": "qk_rope_head_dim",
    "qk_nope_head_dim": "qk_nope_head_dim",
    "v_head_dim": "v_head_dim",
    "vocab_size": "vocab_size",
    "tie_word_embeddings": "tie_word_embeddings",
    "max_position_embeddings": "max_context",
    "rope_theta": "rope_theta",
    "attention_bias": "attention_bias",
    "kv_cache_bytes_per_token_bf16": "kv_cache_bytes_per_token_bf16",
    "license": "license",
    "release_year": "release_year",
    "confidence": "confidence",
    "notes": "notes",
}


def _expected(cell: str, actual: Any) -> Any:
    """The reference cell in the type the catalog stores ('192 (q/k ...)' reads as 192)."""
    if cell == "":
        return None
    if isinstance(actual, bool):
        return cell == "true"
    if isinstance(actual, int | float) and not isinstance(actual, bool):
        match = re.match(r"-?\d+(\.\d+)?", cell)
        assert match, f"reference cell {cell!r} is not numeric"
        return float(match.group(0))
    return cell


def _gpu_cases() -> list[Any]:
    return [
        pytest.param(row["gpu_id"], column, cell, id=f"{row['gpu_id']}-{column}")
        for row in GPU_ROWS
        for column, cell in row.items()
    ]


@pytest.mark.parametrize(("gpu_id", "column", "cell"), _gpu_cases())
def test_gpu_value_equals_reference(gpu_id: str, column: str, cell: str) -> None:
    gpu = load_catalog().gpus[gpu_id]
    actual = getattr(gpu, GPU_RENAMED.get(column, column))
    expected = _expected(cell, actual)
    if isinstance(expected, float):
        assert float(actual) == expected
    else:
        assert actual == expected


def test_every_reference_gpu_is_in_the_catalog() -> None:
    assert len(GPU_ROWS) == 35
    assert {row["gpu_id"] for row in GPU_ROWS} <= set(load_catalog().gpus)


def _model_cases() -> list[Any]:
    return [
        pytest.param(row["model"], column, row[column], id=f"{row['model']}-{column}")
        for row in MODEL_ROWS
        for column in MODEL_FIELDS
    ]


@pytest.mark.parametrize(("model_name", "column", "cell"), _model_cases())
def test_model_value_equals_reference(model_name: str, column: str, cell: str) -> None:
    model = load_catalog().models[model_name.lower()]
    actual = getattr(model, MODEL_FIELDS[column])
    expected = _expected(cell, actual)
    if isinstance(expected, float):
        assert float(actual) == expected
    else:
        assert actual == expected


@pytest.mark.parametrize("row", MODEL_ROWS, ids=[row["model"] for row in MODEL_ROWS])
def test_model_sliding_window_and_source(row: dict[str, str]) -> None:
    model = load_catalog().models[row["model"].lower()]
    window = row["sliding_window"]
    effective = window.isdigit() and int(window) < int(row["max_position_embeddings"])
    assert model.sliding_window == (int(window) if effective else None)
    if model.sliding_window is not None:
        assert model.sliding_window_layers is not None
        assert 0 < model.sliding_window_layers <= model.num_layers
    assert model.source.startswith(row["hf_config_url"])


@pytest.mark.parametrize("model_id", sorted(load_catalog().models))
def test_kv_cache_bytes_follow_from_the_architecture(model_id: str) -> None:
    """2 (K and V) x layers x KV heads x head dim x 2 bytes; MLA caches rank + rope dims."""
    m = load_catalog().models[model_id]
    if m.attention_type == "MLA":
        assert m.kv_lora_rank is not None and m.qk_rope_head_dim is not None
        computed = m.num_layers * (m.kv_lora_rank + m.qk_rope_head_dim) * 2
    else:
        computed = 2 * m.num_layers * m.num_kv_heads * m.head_dim * 2
    assert computed == m.kv_cache_bytes_per_token_bf16


def test_catalog_covers_the_models_the_issue_names() -> None:
    models = load_catalog().models
    assert len(models) >= 40
    wanted = [
        "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b",
        "llama-3.1-70b", "llama-3.1-405b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b",
        "mistral-7b-v0.1", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-0.5b", "qwen2.5-72b",
        "qwen3-0.6b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b", "gemma-2-9b", "gemma-3-27b",
        "phi-3-mini-4k", "phi-3.5-mini", "phi-4", "deepseek-v3", "deepseek-r1",
        "deepseek-r1-distill-llama-8b", "falcon-40b", "yi-34b", "codellama-34b", "gpt-j-6b",
    ]  # fmt: skip
    assert [w for w in wanted if w not in models] == []


COPIES = ["gpu_specs_reference.csv", "models_reference.csv", "measured_calibration.csv",
          "prices_reference.csv"]  # fmt: skip


@pytest.mark.parametrize("name", COPIES)
def test_reference_copies_are_the_shared_tables(name: str) -> None:
    """Byte-identical to ../shared/data where it is beside the checkout; unedited (the sha256
    recorded when copied) everywhere."""
    copy = (REFERENCE_DIR / name).read_bytes()
    if (SHARED_DATA / name).is_file():
        assert copy == (SHARED_DATA / name).read_bytes(), f"tests/reference/{name} is stale"
    sums = dict(
        line.split()[::-1] for line in (REFERENCE_DIR / "SHA256SUMS").read_text().splitlines()
    )
    assert hashlib.sha256(copy).hexdigest() == sums[name], f"tests/reference/{name} was edited"


PRICES_CSV: Path = REFERENCE_DIR / "prices_reference.csv"


def test_prices_trace_to_the_shared_price_table() -> None:
    """Each R price keeps its reference row's value, date and source."""
    prices = [p for p in load_catalog().prices if p.ref.startswith("R")]
    path = PRICES_CSV
    rows = {r["row_id"]: r for r in csv.DictReader(path.open(encoding="utf-8"))}
    for price in prices:
        row = rows[price.ref]
        assert price.usd_per_gpu_hour == float(row["usd_per_gpu_hour"]), price.ref
        assert price.date == row["date"], price.ref
        assert price.source == row["source"], price.ref


def test_prices_read_from_a_source_file_name_it_at_a_commit() -> None:
    """F prices (read for GPUs the shared table does not price) name one file at one commit,
    a dated snapshot, and the figures read; none repeats a GPU the shared table prices."""
    prices = load_catalog().prices
    refs = [p.ref for p in prices]
    assert len(refs) == len(set(refs)) and all(re.fullmatch(r"[RF]\d{4}", r) for r in refs)
    shared = {p.gpu for p in prices if p.ref.startswith("R")}
    read = [p for p in prices if p.ref.startswith("F")]
    assert len(read) >= 80 and len({p.gpu for p in read}) >= 50
    for price in read:
        assert price.gpu not in shared, price.ref
        assert re.fullmatch(r"github\.com/\S+ \S+ @[0-9a-f]{40}( .+)?", price.source), price.ref
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", price.date), price.ref
        assert str(price.usd_per_gpu_hour) in price.derivation, price.ref
