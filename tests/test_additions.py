"""A user's own GPUs and models (`gpus add`, `models add --from-config`) and rent-or-buy from
the command line; the parameter count read from config.json checked against the catalog's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.catalog import load_catalog
from advisor.cli import main
from advisor.hfconfig import count_params

# the shapes of five published config.json files (the catalog rows' sources)
CONFIGS = {
    "llama-3-8b": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                       num_key_value_heads=8, intermediate_size=14336, vocab_size=128256),
    "mistral-7b-v0.3": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                            num_key_value_heads=8, intermediate_size=14336, vocab_size=32768),
    "qwen2.5-7b": dict(model_type="qwen2", hidden_size=3584, num_hidden_layers=28,
                       num_attention_heads=28, num_key_value_heads=4, intermediate_size=18944,
                       vocab_size=152064),
    "mixtral-8x7b": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                         num_key_value_heads=8, intermediate_size=14336, vocab_size=32000,
                         num_local_experts=8, num_experts_per_tok=2),
    "qwen3-8b": dict(model_type="qwen3", hidden_size=4096, num_hidden_layers=36,
                     num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                     intermediate_size=12288, vocab_size=151936),
}  # fmt: skip


@pytest.mark.parametrize("model_id", list(CONFIGS))
def test_the_parameter_count_of_a_config_matches_the_catalog(model_id: str) -> None:
    assert count_params(CONFIGS[model_id]) == load_catalog().models[model_id].total_params


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "home"))
    return tmp_path


def test_a_model_added_from_its_config_is_sized_by_estimate(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / "config.json"
    config.write_text(json.dumps({**CONFIGS["llama-3-8b"], "_name_or_path": "acme/ft-8b",
                                  "max_position_embeddings": 131072}))  # fmt: skip
    assert main(["models", "add", "--from-config", str(config), "--id", "acme-ft"]) == 0
    assert "8.03B parameters" in capsys.readouterr().out
    assert main(["estimate", "--model", "acme-ft", "--gpu", "rtx-4090", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fits"] is True
    # the same id again, and a built-in id, are refused in words
    assert main(["models", "add", "--from-config", str(config), "--id", "acme-ft"]) == 2
    assert main(["models", "add", "--from-config", str(config), "--id", "llama-3-8b"]) == 2
    assert "already has a model" in capsys.readouterr().err
    config.write_text(json.dumps({"hidden_size": 8}))
    assert main(["models", "add", "--from-config", str(config)]) == 2
    assert "lacks num_hidden_layers" in capsys.readouterr().err


def test_a_gpu_row_is_checked_then_added(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import dataclasses

    import yaml

    fields = dataclasses.asdict(load_catalog().gpus["rtx-4090"])
    row = {k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}
    row.update(id="my-4090-48gb", name="Modded RTX 4090 48GB", aliases=["4090 48gb mod"],
               memory_gb=48)  # fmt: skip
    bad = home / "bad.yaml"
    bad.write_text("id: broken\nname: Broken\n")
    assert main(["gpus", "add", str(bad)]) == 2
    assert "field 'aliases' is missing" in capsys.readouterr().err
    good = home / "gpu.yaml"
    good.write_text(yaml.safe_dump(row))
    assert main(["gpus", "add", str(good)]) == 0
    capsys.readouterr()
    assert main(["gpus", "show", "my-4090-48gb", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["memory_gb"] == 48
    assert not (home / "home" / "catalog" / "gpus" / "bad.yaml").exists()


def test_break_even_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["cost", "break-even", "--purchase-usd", "1800", "--rent-usd-per-hour", "0.69"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["break_even_hours"] == pytest.approx(1800 / 0.69)  # no GPU: no power
    assert main(["cost", "break-even", "--gpu", "rtx 4090", "--usd-per-kwh", "0.30",
                 "--rent-usd-per-hour", "0.40", "--json"]) == 0  # fmt: skip
    result = json.loads(capsys.readouterr().out)
    saving = 0.40 - 0.45 * 0.30  # 450 W board power at $0.30/kWh
    assert result["break_even_hours"] == pytest.approx(result["purchase_usd"] / saving)
    assert main(["cost", "break-even"]) == 2
