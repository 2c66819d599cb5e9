"""Whisper fine-tuning (advisor/calculator/speech_train.py): memory, speed, the published rows
W0866-W0879 of eval/calibration/workloads.csv, and the ways in (tool, CLI, rules engine)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.api import Advisor
from advisor.calculator import speech_train
from advisor.calculator.base import Request
from advisor.calculator.estimator import estimate, max_batch
from advisor.catalog import load_catalog
from advisor.cli import main
from advisor.specs import SpeechModel
from advisor.tools import estimate_workload

ROWS = Path(__file__).resolve().parents[1] / "eval" / "calibration" / "workloads.csv"
SIZES = ("whisper-tiny", "whisper-base", "whisper-small", "whisper-medium", "whisper-large-v3")


def full(model: str, gpu: str, **kw: Any):
    return estimate(Request(model=model, gpu=gpu, workload="finetune-full", **kw))


def speech_model(name: str) -> SpeechModel:
    return load_catalog().table("workloads/speech", SpeechModel)[name]


# ---------------------------------------------------------------- memory and speed


def test_memory_grows_with_model_size() -> None:
    sizes = [full(m, "a100-sxm4-80gb", batch=16).memory_per_gpu_gb for m in SIZES]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)


@pytest.mark.parametrize("checkpointing", [True, False])
def test_memory_grows_with_batch(checkpointing: bool) -> None:
    batches = (1, 4, 16, 64)
    mems = [
        full("whisper-small", "h100-sxm", batch=b, checkpointing=checkpointing).memory_per_gpu_gb
        for b in batches
    ]
    assert mems == sorted(mems) and mems[0] < mems[-1]


def test_checkpointing_keeps_far_fewer_activations() -> None:
    on = full("whisper-large-v3", "h100-sxm", batch=16)
    off = full("whisper-large-v3", "h100-sxm", batch=16, checkpointing=False)
    assert off.breakdown_gb["activations"] > 5 * on.memory_per_gpu_gb / 10
    assert on.memory_per_gpu_gb < off.memory_per_gpu_gb


def test_large_v3_batch_16_does_not_fit_24_gb_small_fits_16_gb() -> None:
    # the brief's case; the sourced rows below say the same: large-v2 full fine-tuning is out of
    # memory on a 16 GB T4 and at batch 1 on a 24 GB card (W0873, W0875), small runs batch 16 on
    # 16 GB cards (W0866, W0870)
    assert not full("whisper-large-v3", "rtx-4090", batch=16, checkpointing=False).fits
    assert not full("whisper-large-v3", "rtx-4090", batch=16).fits
    assert full("whisper-small", "t4", batch=16).fits
    assert full("whisper-small", "v100-sxm2-16gb", batch=16).fits


def test_eight_bit_adam_fits_large_v3_on_a_4090() -> None:
    lean = full("whisper-large-v3", "rtx-4090", batch=16, optimizer="adamw8bit")
    assert lean.fits and lean.breakdown_gb["optimizer_states"] == pytest.approx(
        1_543_490_560 * 2 / 1e9
    )


def test_foreach_adamw_step_copy_counted_and_fused_drops_it() -> None:
    foreach = full("whisper-large-v3", "a100-sxm4-80gb", batch=1)
    fused = full("whisper-large-v3", "a100-sxm4-80gb", batch=1, fused_optimizer=True)
    assert foreach.breakdown_gb["optimizer_step"] == pytest.approx(1_543_490_560 * 4 / 1e9)
    assert fused.memory_per_gpu_gb < foreach.memory_per_gpu_gb


def test_lora_adapters_match_peft_count() -> None:
    # fast-whisper-finetuning README: "trainable params: 15728640" for large-v2, r=32, q_proj/v_proj
    assert speech_train.lora_params(speech_model("whisper-large-v2"), 32, "qv") == 15_728_640


def test_lora_and_8bit_base_need_less() -> None:
    args = {"model": "whisper-large-v3", "gpu": "t4", "batch": 8}
    full_ft = estimate(Request(workload="finetune-full", **args)).memory_per_gpu_gb
    lora = estimate(Request(workload="finetune-lora", **args)).memory_per_gpu_gb
    int8 = estimate(Request(workload="finetune-lora", precision="int8", **args)).memory_per_gpu_gb
    assert int8 < lora < full_ft


def test_flops_from_the_shapes() -> None:
    # large-v2, 128 label tokens: the encoder's matrices over 1,500 frames dominate
    model = speech_model("whisper-large-v2")
    flops = speech_train.forward_flops(model, 128)
    encoder_matrices = 2 * 32 * (4 * 1280**2 + 2 * 1280 * 5120) * 1500
    assert encoder_matrices < flops < 1.6 * encoder_matrices
    assert speech_train.forward_flops(model, 256) > flops


def test_speed_scales_with_gpu_and_checkpointing() -> None:
    a100 = full("whisper-medium", "a100-sxm4-80gb", batch=16).train_samples_per_s["typical"]
    h100 = full("whisper-medium", "h100-sxm", batch=16).train_samples_per_s["typical"]
    t4 = full("whisper-medium", "t4", batch=16).train_samples_per_s["typical"]
    off = full("whisper-medium", "a100-sxm4-80gb", batch=16, checkpointing=False)
    assert t4 < a100 < h100
    assert off.train_samples_per_s["typical"] == pytest.approx(a100 * 4 / 3)


def test_job_hours_from_audio_hours() -> None:
    e = full("whisper-small", "a100-sxm4-80gb", batch=16, audio_hours=100.0, epochs=2.0)
    rate = e.train_samples_per_s["typical"]
    assert e.job_hours is not None
    assert e.job_hours["typical"] == pytest.approx(100 * 3600 / 30 * 2 / rate / 3600)


def test_largest_batch_solver_runs() -> None:
    best = max_batch(Request("whisper-small", "t4", workload="finetune-full"))
    assert best is not None and best.batch >= 16


def test_invalid_inputs_say_what_to_use() -> None:
    from advisor.errors import InvalidInput

    with pytest.raises(InvalidInput, match="full fine-tuning runs"):
        full("whisper-small", "t4", precision="int8")
    with pytest.raises(InvalidInput, match="does not estimate 'finetune-qlora'"):
        estimate(Request("whisper-small", "t4", workload="finetune-qlora"))


# ---------------------------------------------------------------- inference unchanged


@pytest.mark.parametrize(
    ("kw", "memory_gb", "audio_s_per_s"),
    [
        # values of main at 691bd46, before speech_train.py
        ({"model": "whisper-large-v3", "gpu": "t4"}, 4.69748672, 10.400351591118703),
        (
            {"model": "whisper-large-v3", "gpu": "rtx-4090", "batch": 8,
             "engine": "faster-whisper", "precision": "int8"},
            4.97753536, 86.99875399157501,
        ),
    ],
)  # fmt: skip
def test_inference_estimates_unchanged(kw: dict[str, Any], memory_gb: float, audio_s_per_s: float):
    e = estimate(Request(**kw))
    assert e.memory_per_gpu_gb == pytest.approx(memory_gb)
    assert e.audio_seconds_per_s["typical"] == pytest.approx(audio_s_per_s)


# ---------------------------------------------------------------- the published rows

# row -> (request, how the estimate is scored). 2022-23 runs used transformers' own AdamW
# (optim adamw_hf, one tensor at a time): scored with fused_optimizer (no foreach copy).
HF22 = {"fused_optimizer": True}
FITS_ROWS = {
    "W0866": ("whisper-small", "v100-sxm2-16gb", "finetune-full", 16, HF22),
    "W0867": ("whisper-medium", "v100-sxm2-16gb", "finetune-full", 2, HF22),
    "W0868": ("whisper-small", "a100-sxm4-40gb", "finetune-full", 64, HF22),
    "W0869": ("whisper-medium", "a100-sxm4-40gb", "finetune-full", 32, HF22),
    "W0870": ("whisper-small", "t4", "finetune-full", 16, HF22),  # the blog's Colab GPU
    "W0872": ("whisper-large-v2", "t4", "finetune-lora", 24, {"precision": "int8", "lora_rank": 32,
                                                              "lora_targets": "qv"}),
    "W0873": ("whisper-large-v2", "t4", "finetune-full", 1, HF22),
    "W0875": ("whisper-large-v2", "rtx-4090", "finetune-full", 1, HF22),  # a 24 GB card
}  # fmt: skip
# (request, predicted / published band): low-confidence statements, the ratio in the comment
MEMORY_ROWS = {
    # 5.2 GB against "8GB" (batch not in the table; 0.65x)
    "W0871": (("whisper-large-v2", "t4", "finetune-lora", 8,
               {"precision": "int8", "lora_rank": 32, "lora_targets": "qv"}), (0.6, 0.7)),
    # ~24 GB stated for large-v2 with no batch; batch 1 is 31.5 GB (1.31x)
    "W0874": (("whisper-large-v2", "a100-sxm4-80gb", "finetune-full", 1, {}), (1.25, 1.4)),
    # 44.8 GB as nvidia-smi showed it (cache and evaluation included): 31.5 GB allocated (0.70x)
    "W0879": (("whisper-large-v2", "rtx-a6000", "finetune-full", 16, {}), (0.65, 0.75)),
}  # fmt: skip
SPEED_ROWS = {
    # streaming, features on the fly: the data loading, not the matmuls, holds it (3.0x)
    "W0876": (("whisper-small", "a100-sxm4-40gb", "finetune-full", 64, HF22), (2.5, 3.5)),
    # "upwards of 12 hours": an upper bound the estimate stays under (0.94x)
    "W0877": (("whisper-medium", "v100-sxm2-16gb", "finetune-full", 2, HF22), (0.85, 1.0)),
    # the median row TRAIN_MFU was fitted on (1.00x)
    "W0878": (("whisper-large-v2", "rtx-a6000", "finetune-full", 16, {}), (0.97, 1.03)),
}  # fmt: skip


def _rows() -> dict[str, dict[str, str]]:
    with ROWS.open(newline="") as f:
        return {r["id"]: r for r in csv.DictReader(f) if "W0866" <= r["id"] <= "W0879"}


def _run(spec: tuple[str, str, str, int, dict[str, Any]]):
    model, gpu, workload, batch, kw = spec
    return estimate(Request(model=model, gpu=gpu, workload=workload, batch=batch, **kw))


def test_every_row_is_scored_here_and_sourced() -> None:
    rows = _rows()
    assert set(rows) == set(FITS_ROWS) | set(MEMORY_ROWS) | set(SPEED_ROWS)
    for row in rows.values():
        assert row["source"] and "confidence:" in row["note"]
        assert row["workload"] in speech_train.TRAIN_WORKLOADS


@pytest.mark.parametrize("row_id", sorted(FITS_ROWS))
def test_fit_statements(row_id: str) -> None:
    row = _rows()[row_id]
    model, _gpu, workload, batch, _kw = FITS_ROWS[row_id]
    assert row["metric"] == "train_fits" and row["workload"] == workload
    assert row["batch"] == str(batch) and model.startswith(row["model"])
    assert _run(FITS_ROWS[row_id]).fits is (row["value"] == "1")


@pytest.mark.parametrize("row_id", sorted(MEMORY_ROWS))
def test_memory_statements(row_id: str) -> None:
    row = _rows()[row_id]
    spec, (low, high) = MEMORY_ROWS[row_id]
    assert row["metric"] == "train_memory_gb"
    ratio = _run(spec).memory_per_gpu_gb / float(row["value"])
    assert low <= ratio <= high


@pytest.mark.parametrize("row_id", sorted(SPEED_ROWS))
def test_speed_rows(row_id: str) -> None:
    row = _rows()[row_id]
    spec, (low, high) = SPEED_ROWS[row_id]
    assert row["metric"] == "train_samples_per_s" and row["batch"] == str(spec[3])
    ratio = _run(spec).train_samples_per_s["typical"] / float(row["value"])
    assert low <= ratio <= high


def test_family_rows_leave_them_to_this_file() -> None:
    from eval.family_rows import Unmapped, _case

    with pytest.raises(Unmapped, match="test_speech_training"):
        _case(_rows()["W0866"], load_catalog())


# ---------------------------------------------------------------- ways in


def test_tool_estimates_a_whisper_fine_tune() -> None:
    out = estimate_workload(
        model="whisper large v3", gpu="RTX 4090", workload="finetune-full", batch=16
    )
    assert out["family"] == "speech" and out["fits"] is False
    assert set(out["train_samples_per_s"]) == {"low", "typical", "high"}
    lora = estimate_workload(model="whisper-large-v3", gpu="T4", workload="finetune-lora", batch=8)
    assert lora["fits"] is True


def test_cli_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["estimate", "--model", "whisper-large-v3", "--gpu", "RTX 4090",
                 "--workload", "finetune-full", "--batch", "16", "--optimizer", "adamw8bit",
                 "--audio-hours", "50", "--json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["family"] == "speech" and data["fits"] is True
    assert data["job_hours"]["typical"] > 0


@pytest.fixture(scope="module")
def advisor() -> Advisor:
    return Advisor("rules")


def test_chat_question_gets_a_verdict_and_a_leaner_recipe(advisor: Advisor) -> None:
    text = advisor.ask("can i fine tune whisper large v3 on a single 4090?").text
    assert text.startswith("**No")
    assert "full fine-tuning" in text and "GB" in text
    assert "With 8-bit AdamW" in text and "it fits" in text


def test_chat_question_yes(advisor: Advisor) -> None:
    text = advisor.ask("can I fine-tune whisper small on a 16GB T4?").text
    assert text.startswith("**Yes") and "samples/s" in text


def test_chat_lora_question(advisor: Advisor) -> None:
    text = advisor.ask("can i lora fine tune whisper large-v2 on a T4?").text
    assert text.startswith("**Yes") and "LoRA fine-tuning" in text


@pytest.mark.parametrize(
    ("question", "workload"),
    [
        ("train whisper small on 50 hours of our call recordings on an rtx 3090, how long?",
         "finetune-full"),
        ("fine tune whisper large-v3 with lora on a 3090, does it fit?", "finetune-lora"),
        # "training videos" are what is transcribed, not a training run
        ("transcribe 500 hours of training videos with whisper large-v3 on a T4, how long?",
         "inference"),
    ],
)  # fmt: skip
def test_the_job_asked(question: str, workload: str) -> None:
    from advisor.agent.understand import understand

    assert understand(question, load_catalog()).workload == workload
