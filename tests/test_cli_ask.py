"""`gpu-advisor ask`, `chat` and `llm`: the CLI contract of the conversational commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli import main

KEYS = {"answer", "citations", "tool_calls", "numbers", "warnings", "engine", "latency_ms",
        "thread_id"}  # fmt: skip


def test_ask_json_has_the_documented_keys(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--json", "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == KEYS and data["engine"] == "rules"
    assert data["answer"].startswith("**Yes: Llama-3-8B fits on one NVIDIA RTX A4000")


def test_ask_prints_text_sources_and_engine(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "What is the memory bandwidth of the L40?"]) == 0
    out = capsys.readouterr().out
    assert "864 GB/s" in out and "Sources:" in out and "Warning:" in out
    assert "[rules engine; tools: gpu_specs, search_corpus;" in out


def test_thread_continues_across_invocations(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", "--thread", "t1", "Can I run Llama-3-8B on an L4?"]) == 0
    capsys.readouterr()
    assert main(["ask", "--thread", "t1", "--json", "and the A10G?"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "Llama-3-8B fits on one NVIDIA A10G" in data["answer"]
    assert (home / "threads.sqlite").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", ""], "empty"),
        (["ask", "x" * 5000], "limit"),
        (["ask", "--engine", "nope", "hi"], "Unknown engine"),
    ],
)
def test_bad_input_exits_2_with_one_line(home: Path, capsys: pytest.CaptureFixture[str],
                                         args: list[str], message: str) -> None:  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_chat_repl_remembers_the_conversation(home: Path, tmp_path: Path) -> None:
    import os

    env = {**os.environ, "ADVISOR_HOME": str(home), "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "advisor.cli", "chat"],
        input="Can I run Llama-3-8B on an L4?\n\nand the A10G?\nexit\n",
        capture_output=True, text=True, env=env, timeout=120, check=True,
    )  # fmt: skip
    assert "fits on one NVIDIA L4" in run.stdout
    assert "fits on one NVIDIA A10G" in run.stdout


def test_llm_path_prints_where_the_model_lives(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["llm", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(
        home / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
    )
