"""DeepSpeed ZeRO-Offload: the optimizer (and under ZeRO-3 the parameters) in CPU RAM, Adam
stepped on the CPU. Memory leaves the GPU and lands in host RAM; steps slow down; the CLI, the
tool, the chat and the leaner-recipe ladder all reach it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from advisor.agent.understand import _train_options
from advisor.calculator import Request, estimate, offload
from advisor.calculator.memory import training_memory
from advisor.calculator.precision import get_precision
from advisor.catalog import load_catalog
from advisor.cli import main
from advisor.errors import InvalidInput
from advisor.tools import estimate_workload

FULL_13B = {"model": "llama-2-13b", "gpu": "rtx-a6000", "workload": "finetune-full",
            "num_gpus": 2, "framework": "deepspeed"}  # fmt: skip


def test_constants_follow_their_sources() -> None:
    # ZeRO-Offload paper Table 4: CPU-Adam takes 2.57 s on 10B parameters, the median rate, on
    # the DGX-2's 12 channels of DDR4-2666 (Table 2): 30 bytes a parameter at 46% of 256 GB/s
    host_gbs, share = offload.DGX2_HOST_GBS, offload.CPU_ADAM_BANDWIDTH_SHARE
    assert host_gbs == pytest.approx(255.9, abs=0.1)
    assert share == pytest.approx(10e9 / 2.57 * 30 / 255.94e9, 1e-3)
    # ZeRO-Infinity section 5: 10-12 GB/s from CPU memory into one GPU over PCIe 3.0 x16
    pcie_gbs = offload.OFFLOAD_PCIE_SHARE * 16 * 0.985
    assert pcie_gbs == pytest.approx(12.0)
    # DeepSpeed's estimator: 16 bytes a parameter with the optimizer offloaded, 18 with the
    # parameters too (ZeRO-3 adds its 16-bit gradient buffer on the CPU, which it leaves out)
    assert offload.host_bytes_per_param(2, True, False) == 16
    assert offload.host_bytes_per_param(3, True, False) == 18
    assert offload.host_bytes_per_param(3, True, True) == 20


def _memory(**kw: Any) -> Any:
    model = load_catalog().get_model("llama-2-13b")
    args = {"method": "full", "precision": get_precision("bf16"), "optimizer": "adamw",
            "seq": 2048, "batch": 1, "checkpointing": True, "num_gpus": 2, "zero_stage": 3,
            "fused_optimizer": True, "zero3_sub_group": 1e9, **kw}  # fmt: skip
    return training_memory(model, **args)


def test_memory_falls_on_the_gpu_and_rises_on_the_host() -> None:
    plain = _memory()
    opt = _memory(offload_optimizer=True)
    both = _memory(offload_optimizer=True, offload_param=True)
    assert plain.total_gb > opt.total_gb > both.total_gb
    assert plain.host_gb == 0 < opt.host_gb < both.host_gb
    # what left the GPU: the fp32 master copy, the moments, the step's buffers, the gradients
    assert opt.breakdown_gb["optimizer_states"] == opt.breakdown_gb["optimizer_step"] == 0
    assert plain.breakdown_gb["optimizer_states"] > 50
    # ... and the 16-bit partitions with offload_param (the reduce bucket stays)
    assert both.breakdown_gb["weights"] < 0.1 < opt.breakdown_gb["weights"]
    # host RAM: 18 (then 20) bytes per parameter over the machine's two GPUs' partitions
    params = load_catalog().get_model("llama-2-13b").total_params
    assert opt.host_gb == pytest.approx(params * 18 / 1e9)
    assert both.host_gb == pytest.approx(params * 20 / 1e9)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"offload_param": True, "zero_stage": 2}, "ZeRO-3"),
        ({"offload_optimizer": True, "zero_stage": 1}, "ZeRO-2 and ZeRO-3"),
        ({"offload_optimizer": True, "optimizer": "adamw8bit"}, "CPU Adam"),
    ],
)
def test_offload_needs_its_zero_stage_and_cpu_adam(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        _memory(**kw)


def test_13b_on_two_a6000_fits_with_offload_and_not_without() -> None:
    without = estimate(Request(**FULL_13B))
    with_it = estimate(Request(**FULL_13B, offload_optimizer=True))
    assert not without.fits and without.memory_per_gpu_gb > 100
    assert with_it.fits and with_it.memory_per_gpu_gb < 20
    assert with_it.host_memory_gb == pytest.approx(234.3, abs=0.5)
    assert without.host_memory_gb is None


def test_host_ram_said_must_hold_it() -> None:
    small = estimate(Request(**FULL_13B, offload_optimizer=True, ram_gb=128))
    big = estimate(Request(**FULL_13B, offload_optimizer=True, ram_gb=512))
    assert not small.fits and big.fits
    assert small.memory_per_gpu_gb == big.memory_per_gpu_gb


def test_speed_with_offload_is_slower_when_both_fit() -> None:
    base = {**FULL_13B, "model": "llama-3.2-1b", "context": 1024}
    plain = estimate(Request(**base))
    opt = estimate(Request(**base, offload_optimizer=True))
    both = estimate(Request(**base, offload_optimizer=True, offload_param=True))
    assert plain.fits and opt.fits and both.fits
    speeds = [e.train_tokens_per_s["typical"] for e in (plain, opt, both)]  # type: ignore[index]
    assert speeds[0] > speeds[1] >= speeds[2]
    # a faster host (eight channels of DDR5) steps CPU Adam sooner
    fast = estimate(Request(**base, offload_optimizer=True, ram="ddr5-4800", ram_channels=8))
    assert fast.train_tokens_per_s["typical"] > speeds[1]  # type: ignore[index]


def test_assumptions_name_the_offload() -> None:
    e = estimate(Request(**FULL_13B, offload_optimizer=True, offload_param=True))
    notes = " | ".join(e.assumptions)
    assert "DeepSpeed ZeRO-Offload" in notes and "CPU RAM" in notes
    assert "DeepSpeedCPUAdam" in notes and "Table 4" in notes
    assert "parameter offload" in notes and "234" not in notes  # 20 bytes a parameter: 260
    assert "260 GB needed" in notes
    assert e.training_setup and "optimizer offloaded to CPU" in e.training_setup
    assert "parameters offloaded to CPU" in e.training_setup


def test_offload_means_deepspeed_zero3_unless_said() -> None:
    e = estimate(Request(**{**FULL_13B, "framework": None, "num_gpus": 1}, offload_optimizer=True))
    notes = " | ".join(e.assumptions)
    assert "ZeRO stage not given: 3" in notes and "DeepSpeed ZeRO" in notes
    with pytest.raises(InvalidInput, match="DeepSpeed"):
        estimate(Request(**{**FULL_13B, "framework": "torchtune"}, offload_optimizer=True))


def test_an_adapter_fine_tune_keeps_its_state_on_the_gpu() -> None:
    args = {**FULL_13B, "workload": "finetune-lora"}
    e = estimate(Request(**args, offload_optimizer=True))
    assert e.host_memory_gb is None
    assert any("modelled for full fine-tuning" in a for a in e.assumptions)


def test_13b_on_one_v100_32gb_as_the_zero_offload_paper_trains_it() -> None:
    # ZeRO-Offload paper (arXiv 2101.06840) Figure 7 and Table 3: a 13B model trains on one
    # 32 GB V100 with ZeRO-Offload (ZeRO-2) at micro-batch 4; PyTorch fits 1.4B at most
    args = {"model": "llama-2-13b", "gpu": "v100-sxm3-32gb", "workload": "finetune-full",
            "precision": "fp16", "batch": 4, "context": 1024, "zero_stage": 2,
            "framework": "deepspeed"}  # fmt: skip
    assert estimate(Request(**args, offload_optimizer=True)).fits
    assert not estimate(Request(**args)).fits


def test_tool_takes_the_options() -> None:
    result = estimate_workload(**FULL_13B, offload_optimizer=True, offload_param=True)
    assert result["fits"] and result["host_memory_gb"] > 250


def test_cli_flag(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["estimate", "--model", "llama-2-13b", "--gpu", "rtx-a6000", "--num-gpus", "2",
            "--workload", "finetune-full", "--framework", "deepspeed"]  # fmt: skip
    assert main([*args, "--offload-optimizer", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fits"] and data["host_memory_gb"] == pytest.approx(234.3, abs=0.5)
    assert main([*args, "--json"]) == 0
    assert not json.loads(capsys.readouterr().out)["fits"]
    assert main([*args, "--offload-optimizer", "--offload-param"]) == 0
    out = capsys.readouterr().out
    assert "Host RAM: 260.3 GB" in out and "FITS" in out


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("2x a6000 full fine-tune 13b with deepspeed zero-3 and cpu offload",
         {"offload_optimizer": True}),
        ("zero-offload llama 7b on a 4090", {"offload_optimizer": True}),
        ("zero3 offload a 13b", {"offload_optimizer": True}),
        ("offload the optimizer and offload params", {"offload_optimizer": True,
                                                       "offload_param": True}),
        ("deepspeed offload llama 13b", {"offload_optimizer": True}),
        ("offload parameters to cpu too", {"offload_param": True}),
        ("full fine-tune with activation offloading", {"activation_offload": True}),
        ("deepspeed with activation offloading", {"activation_offload": True}),
        ("offload activations to cpu", {"activation_offload": True}),
        ("without cpu offload", {}),
    ],
)  # fmt: skip
def test_chat_words(question: str, options: dict[str, Any]) -> None:
    said = dict(_train_options(question))
    assert {k: v for k, v in said.items() if k != "checkpointing"} == options


def test_chat_answers_yes(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "can 2x A6000 full fine-tune a 13B with deepspeed zero-3 and cpu offload?"
    )
    assert answer.text.startswith("**Yes")
    call = answer.tool_calls[0].to_dict()
    assert call["args"]["offload_optimizer"] is True
    assert "needed for the offloaded optimizer state" in answer.text
    assert answer.grounding_rate == 1.0


def test_leaner_ladder_offers_offload(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("can 2x RTX 3090 full fine-tune llama 2 13b?")
    assert "DeepSpeed ZeRO-3 and the optimizer offloaded to CPU RAM it fits" in answer.text
    assert "of system RAM for what is offloaded" in answer.text
    assert "trains slower" in answer.text
    assert answer.grounding_rate == 1.0
