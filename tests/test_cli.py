"""The catalog commands of the CLI: tables, JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.catalog import load_catalog
from advisor.cli import main
from tests.test_reference import GPU_ROWS

REFERENCE_COLUMNS = list(GPU_ROWS[0])


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_gpus_show_json_has_reference_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "gpus", "show", "a100-sxm4-80gb", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(REFERENCE_COLUMNS) | {"id", "name", "aliases", "source"} <= set(data)
    assert data["id"] == "a100-sxm4-80gb"
    assert data["memory_gb"] == 80 and data["bandwidth_gbs"] == 2039
    assert data["fp16_bf16_dense_tflops"] == 312 and data["tdp_w"] == 400
    assert "NVIDIA A100-SXM4-80GB" in data["aliases"]


def test_gpus_show_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gpus", "show", "L40S")
    assert code == 0
    assert "NVIDIA L40S" in out and "864 GB/s" in out and "362.05 TFLOPS" in out
    assert "Source" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("gpus", "show", "RTX 9999"), "Unknown GPU 'RTX 9999'. Did you mean:"),
        (("gpus", "show", "A100"), "GPU 'A100' is ambiguous"),
        (("gpus", "compare", "L4"), "at least two GPUs"),
        (("gpus", "compare", "L4", "H999"), "Unknown GPU 'H999'"),
        (("gpus", "list", "--min-memory", "-5"), "--min-memory"),
        (("gpus", "list", "--segment", "mainframe"), "mainframe"),
        (("gpus", "frobnicate"), "No such command 'frobnicate'"),
        (("models", "show", "gpt-17"), "Unknown model 'gpt-17'"),
        (("models", "show", "99999b"), "outside the sizes"),
        (("models", "show", "Mistral 7B"), "is ambiguous"),
        (("gpus", "show", ""), "Give a GPU name"),
    ],
)
def test_bad_input_is_one_line_on_stderr_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_gpus_compare_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gpus", "compare", "A100 SXM4 80GB", "L40S", "RTX 4090")
    assert code == 0
    assert "NVIDIA L40S" in out and "2039" in out and "1008" in out
    code, out, _ = run(capsys, "gpus", "compare", "h100-sxm5-80gb", "h200-sxm-141gb", "--json")
    assert [g["memory_gb"] for g in json.loads(out)] == [80, 141]


def test_gpus_list_filters_and_sort(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gpus", "list", "--min-memory", "80", "--sort", "memory", "--json")
    assert code == 0
    memories = [g["memory_gb"] for g in json.loads(out)]
    assert memories and min(memories) >= 80 and memories == sorted(memories, reverse=True)
    code, out, _ = run(capsys, "gpus", "list", "--vendor", "AMD")
    assert code == 0 and "mi300x" in out and "a100" not in out
    code, out, _ = run(capsys, "gpus", "list")
    assert f"{len(load_catalog().gpus)} GPUs" in out


def test_models_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "models", "list", "--moe", "--json")
    assert code == 0 and all(m["is_moe"] for m in json.loads(out))
    code, out, _ = run(capsys, "models", "show", "Llama 3 8B")
    assert code == 0 and "8,030,261,248" in out and "131,072" in out
    code, out, _ = run(capsys, "models", "show", "13b", "--json")
    data = json.loads(out)
    assert data["generic"] is True and data["total_params"] == 13_000_000_000


def test_bare_command_prints_summary_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    catalog = load_catalog()
    assert f"{len(catalog.gpus)} GPUs and {len(catalog.models)} models" in out
    assert "gpus" in out and "models" in out


def test_bare_group_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gpus")
    assert code == 0 and "compare" in out


def test_broken_data_file_exits_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "gpus.yaml").write_text("{broken", encoding="utf-8")
    monkeypatch.setenv("ADVISOR_DATA_DIR", str(tmp_path))
    code, out, err = run(capsys, "gpus", "list")
    assert code == 3 and out == ""
    assert err.startswith("gpu-advisor: data error:") and err.count("\n") == 1


def test_installed_console_script_end_to_end() -> None:
    """The real `gpu-advisor` entry point, in its own process."""
    script = Path(sys.executable).parent / "gpu-advisor"
    ok = subprocess.run(
        [str(script), "gpus", "show", "NVIDIA H100 80GB HBM3", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["bandwidth_gbs"] == 3350
    bad = subprocess.run(
        [str(script), "gpus", "show", "RTX 9999"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().startswith("gpu-advisor: Unknown GPU 'RTX 9999'")
    assert "Traceback" not in bad.stderr


def test_catalog_commands_do_not_import_heavy_libraries() -> None:
    code = (
        "import sys; from advisor.cli import main; main(['gpus', 'show', 'a100-sxm4-80gb']); "
        "main(['models', 'show', 'llama-3-8b']); "
        "heavy = {'torch', 'chromadb', 'langchain', 'langchain_core', 'langgraph', "
        "'sentence_transformers', 'transformers', 'gradio'}; "
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_prices_show_sourced_dated_rows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prices", "H100 SXM5", "--offering", "on-demand", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["gpu"] == "h100-sxm5-80gb" and data["prices"]
    for price in data["prices"]:
        assert price["offering"] == "on-demand" and price["use_for_estimates"] and price["latest"]
        assert price["source"] and price["date"] and price["usd_per_gpu_hour"] > 0
    code, out, _ = run(capsys, "prices", "L40S")
    assert code == 0 and "per GPU-hour" in out and "check the date and the source" in out


def test_prices_article_rows_only_with_all(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "prices", "RTX A6000", "--class", "article")
    assert code == 0 and "try --all" in out
    code, out, _ = run(capsys, "prices", "RTX A6000", "--class", "article", "--all", "--json")
    rows = json.loads(out)["prices"]
    assert rows and all(p["date"].startswith("undated") for p in rows)


def test_prices_for_a_gpu_without_any(capsys: pytest.CaptureFixture[str]) -> None:
    # a card no rental row prices (the RTX 3060 has had Vast.ai and RunPod rows since F0015)
    code, out, _ = run(capsys, "prices", "GTX 1650")
    assert code == 0 and "no rental prices" in out


def test_prices_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "prices", "A100")
    assert code == 2 and "ambiguous" in err
    code, _, err = run(capsys, "prices", "L4", "--class", "shop")
    assert code == 2 and "'shop'" in err
