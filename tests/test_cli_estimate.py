"""`gpu-advisor estimate`: the contract scripts and the evaluation depend on."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main

CONTRACT_KEYS = {
    "model", "gpu", "num_gpus", "fits", "memory_per_gpu_gb", "usable_memory_per_gpu_gb",
    "breakdown_gb", "decode_tokens_per_s", "prefill_tokens_per_s", "train_tokens_per_s",
    "assumptions",
}  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "estimate", "--model", "Llama 3 8B", "--gpu", "RTX A4000",
        "--workload", "finetune-qlora", "--json",
    )  # fmt: skip
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) >= CONTRACT_KEYS
    assert data["model"] == "llama-3-8b" and data["gpu"] == "rtx-a4000"
    assert isinstance(data["fits"], bool) and data["decode_tokens_per_s"] is None
    assert set(data["train_tokens_per_s"]) == {"low", "typical", "high"}


@pytest.mark.parametrize(
    "precision",
    ["fp32", "bf16", "fp16", "fp8", "int8", "q2_k", "q3_k_m", "q4_0", "q4_k_m", "q5_k_m", "q6_k",
     "q8_0", "awq", "gptq", "nf4"],
)  # fmt: skip
def test_every_contract_precision_is_accepted(
    capsys: pytest.CaptureFixture[str], precision: str
) -> None:
    code, out, _ = run(
        capsys, "estimate", "--model", "13b", "--gpu", "L40S", "--precision", precision, "--json"
    )
    assert code == 0 and json.loads(out)["precision"] == precision


@pytest.mark.parametrize("engine", ["hf", "vllm", "llama.cpp", "tensorrt-llm"])
def test_every_engine_is_accepted(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    code, out, _ = run(capsys, "estimate", "--model", "qwen2.5-7b", "--gpu", "L4",
                       "--engine", engine, "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["engine"] == engine


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "estimate", "--model", "llama-3-70b", "--gpu", "A100 SXM4 80GB")
    assert code == 0
    assert "DOES NOT FIT" in out and "Weights" in out and "Assumptions:" in out


@pytest.mark.parametrize(
    ("flag", "gpus", "key", "expected"),
    [("--max-context", "2", "context", 8192), ("--min-gpus", "1", "num_gpus", 2)],
)
def test_solvers(
    capsys: pytest.CaptureFixture[str], flag: str, gpus: str, key: str, expected: int
) -> None:
    code, out, _ = run(capsys, "estimate", "--model", "llama-3-70b", "--gpu", "H100 SXM5",
                       "--precision", "bf16", "--num-gpus", gpus, flag, "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["solver"] == flag[2:]
    assert data["solution"] == expected == data[key] and data["fits"]


def test_solver_with_no_solution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "estimate", "--model", "llama-3.1-405b", "--gpu", "rtx 4090",
                       "--max-batch")  # fmt: skip
    assert code == 0 and "none" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--model", "llama-3-8b", "--gpu", "RTX 9999"), "Unknown GPU 'RTX 9999'"),
        (("--model", "llama-3-8b", "--gpu", "A100"), "ambiguous"),
        (("--model", "gpt-17", "--gpu", "L4"), "Unknown model"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--batch", "0"), "--batch"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--context", "-5"), "--context"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--precision", "fp3"), "--precision"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--workload", "pretrain"), "--workload"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--num-gpus", "0"), "--num-gpus"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--workload", "finetune-full",
          "--precision", "q4_k_m"), "Full fine-tuning"),
        (("--model", "llama-3-8b", "--gpu", "L4", "--workload", "finetune-lora",
          "--epochs", "2"), "epochs"),
        (("--gpu", "L4",), "--model"),
    ],
)  # fmt: skip
def test_bad_input_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "estimate", *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_fused_optimizer_flag_drops_the_foreach_step_copy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ("estimate", "--model", "qwen2.5-7b", "--gpu", "H100 SXM5 80GB", "--workload",
            "finetune-full", "--framework", "hf", "--context", "512", "--json")  # fmt: skip
    _, out, _ = run(capsys, *base)
    foreach = json.loads(out)
    _, out, _ = run(capsys, *base, "--fused-optimizer")
    fused = json.loads(out)
    _, out, _ = run(capsys, *base, "--foreach-optimizer")
    assert json.loads(out)["memory_per_gpu_gb"] == foreach["memory_per_gpu_gb"]
    assert foreach["breakdown_gb"]["optimizer_step"] > 0  # HF Trainer's adamw_torch: foreach
    assert fused["breakdown_gb"]["optimizer_step"] == 0
    assert fused["memory_per_gpu_gb"] < foreach["memory_per_gpu_gb"]


def test_an_exl2_average_is_a_precision_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "estimate", "--model", "qwen2.5-32b", "--gpu", "RTX 4090",
                       "--precision", "EXL2-4.25bpw", "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["precision"] == "exl2-4.25bpw" and data["engine"] == "exllamav2"
    code, out, err = run(capsys, "estimate", "--model", "qwen2.5-32b", "--gpu", "RTX 4090",
                         "--precision", "exl2-1.5bpw")  # fmt: skip
    assert code == 2 and "2 to 8 bits per weight" in err and "Traceback" not in err
