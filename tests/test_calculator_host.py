"""llama.cpp with layers in system RAM, and on the CPU alone (advisor/calculator/host.py): the
split, its speed between the two memories, the RAM said, and the calibration rows' fit."""

from __future__ import annotations

import pytest

from advisor.calculator import Request, estimate, host
from advisor.errors import InvalidInput
from eval import host_fit


def _split(**kw: object) -> object:
    base = {"model": "llama-3-70b", "gpu": "rtx-4090", "engine": "llama.cpp", "precision": "q4_k_m"}
    return estimate(Request(**{**base, **kw}))  # type: ignore[arg-type]


def test_the_layers_that_do_not_fit_go_to_ram_and_the_card_stays_within_its_memory() -> None:
    e = _split(offload="layers")
    assert e.fits and 0 < e.gpu_layers < e.layers == 80
    assert e.memory_per_gpu_gb <= e.usable_memory_per_gpu_gb
    whole = _split()
    assert not whole.fits
    # the weights on the card and in RAM add up to the whole model's
    held = e.breakdown_gb["weights"] + e.breakdown_gb["kv_cache"] + e.host_memory_gb
    assert held == pytest.approx(whole.breakdown_gb["weights"] + whole.breakdown_gb["kv_cache"])
    assert e.serving_tokens_per_s is None  # one person's setup, no server's figure


def test_a_split_runs_between_the_cpu_alone_and_the_card_alone() -> None:
    split = _split(offload="layers").decode_tokens_per_s["typical"]
    cpu = _split(gpu_layers=0).decode_tokens_per_s["typical"]
    small = estimate(Request(model="llama-3-8b", gpu="rtx-4090", engine="llama.cpp",
                             precision="q4_k_m"))  # fmt: skip
    assert cpu < split < small.decode_tokens_per_s["typical"]
    # more layers on the card, faster; faster RAM, faster
    assert _split(gpu_layers=20).decode_tokens_per_s["typical"] < split
    slow = _split(offload="layers", ram="ddr4-2400").decode_tokens_per_s["typical"]
    wide = _split(offload="layers", ram="ddr5-6400", ram_channels=8).decode_tokens_per_s["typical"]
    assert slow < split < wide


def test_one_layer_left_in_ram_keeps_the_embedding_and_output_head_there_too() -> None:
    # Llama 3 8B's 128k-token vocabulary: each of its two 4096-wide matrices is about as big as
    # a layer, and llama.cpp puts the head on the GPU only with every layer
    whole = estimate(Request(model="llama-3-8b", gpu="rtx-4090", engine="llama.cpp",
                             precision="q4_k_m"))  # fmt: skip
    one_off = estimate(Request(model="llama-3-8b", gpu="rtx-4090", engine="llama.cpp",
                               precision="q4_k_m", gpu_layers=31))  # fmt: skip
    layer = (whole.breakdown_gb["weights"] + whole.breakdown_gb["kv_cache"]) / 32
    assert one_off.host_layers == 1
    assert one_off.host_memory_gb > 2 * layer
    # the head read from RAM each token costs more than a 32nd of the speed
    ratio = one_off.decode_tokens_per_s["typical"] / whole.decode_tokens_per_s["typical"]
    assert ratio < 0.8


def test_a_mixture_of_experts_reads_only_its_active_experts_from_ram() -> None:
    moe = estimate(Request(model="mixtral-8x7b", gpu="cpu", ram="ddr5-5600"))
    dense = estimate(Request(model="llama-2-70b", gpu="cpu", ram="ddr5-5600"))
    # Mixtral's 47B weights are 2/3 of the 70B's, its active ~13B far less than that
    assert moe.decode_tokens_per_s["typical"] > 3 * dense.decode_tokens_per_s["typical"]


def test_the_cpu_alone_holds_the_model_in_ram_or_says_it_does_not() -> None:
    roomy = estimate(Request(model="llama-3-70b", gpu="cpu", ram_gb=128))
    tight = estimate(Request(model="llama-3-70b", gpu="cpu", ram_gb=32))
    assert roomy.fits and not tight.fits
    assert roomy.gpu_name.startswith("CPU with 2-channel DDR5-5600")
    assert roomy.time_to_first_token_s is None  # the CPU's compute is not modelled


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (
            Request(model="llama-3-70b", gpu="rtx-4090", engine="vllm", offload="layers"),
            "llama.cpp",
        ),
        (Request(model="sdxl", gpu="cpu"), "On a CPU alone the calculator runs LLM and speech"),
        (Request(model="llama-3-8b", gpu="cpu", ram="hbm3"), "DDR5-5600"),
        (Request(model="llama-3-8b", gpu="cpu", ram_channels=3), "channels"),
        (Request(model="sdxl", gpu="rtx-4090", offload="layers"), "offload"),
    ],
)
def test_bad_offload_requests_are_refused_in_words(request_: Request, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        estimate(request_)


def test_ram_is_read_from_its_kind_speed_and_channels() -> None:
    assert host.host_memory("DDR5-5600", 2).gbps == pytest.approx(89.6)
    assert host.host_memory("ddr4", 4).gbps == pytest.approx(102.4)
    assert host.host_memory(None, None).ram == host.DEFAULT_RAM


def test_the_share_in_the_code_is_the_one_the_rows_fit() -> None:
    result = host_fit.report()
    assert result["share"] == pytest.approx(host.HOST_DECODE_SHARE, abs=0.01)
    # CPU-only decode held out by source, and layer splits never fitted, within a third
    assert result["loso"] < 0.35
    assert result["scored_median"] < 0.25
