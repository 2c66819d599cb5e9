"""Links between GPUs as data, and the speed properties that must hold over them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.calculator import Request, estimate, throughput
from advisor.calculator.factors import engine_factors
from advisor.calculator.interconnect import allreduce_seconds, link_for
from advisor.calculator.precision import get_precision, kv_bytes
from advisor.catalog import load_catalog
from advisor.errors import AdvisorError, InvalidInput

CATALOG = load_catalog()
GPU = CATALOG.gpus
SOME = settings(max_examples=120, deadline=None)
BIG_MODELS = sorted(m for m, v in CATALOG.models.items() if v.total_params >= 7e9)


@pytest.mark.parametrize(
    ("gpu", "n", "choice", "kind"),
    [
        ("h100-sxm5-80gb", 8, "auto", "switch"),
        ("a100-sxm4-80gb", 4, "auto", "switch"),
        ("a100-pcie-80gb", 2, "auto", "pcie"),  # a bridge is an optional part
        ("a100-pcie-80gb", 2, "nvlink", "bridge"),
        ("a100-pcie-80gb", 4, "nvlink", "pcie"),  # bridges join pairs only
        ("rtx-3090", 2, "nvlink", "bridge"),
        ("rtx-4090", 2, "auto", "pcie-host"),  # peer-to-peer is off on GeForce 40
        ("l40s", 4, "auto", "pcie"),
        ("h100-sxm5-80gb", 1, "auto", "none"),
    ],
)
def test_the_link_follows_the_data_and_the_request(
    gpu: str, n: int, choice: str, kind: str
) -> None:
    assert link_for(GPU[gpu], n, choice).kind == kind


def test_nvlink_on_a_card_without_it_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="no NVLink"):
        link_for(GPU["rtx-4090"], 2, "nvlink")
    with pytest.raises(InvalidInput, match="Interconnect must be"):
        estimate(Request("llama-3-70b", "a100-pcie-80gb", num_gpus=2, interconnect="infiniband"))


def test_allreduce_cost_grows_with_bytes_and_shrinks_with_bandwidth() -> None:
    nvswitch, pcie = link_for(GPU["h100-sxm5-80gb"], 4), link_for(GPU["l40s"], 4)
    small, large = 16 * 8192 * 2, 256 * 8192 * 2
    assert allreduce_seconds(large, 4, pcie) > allreduce_seconds(small, 4, pcie)
    assert allreduce_seconds(large, 4, nvswitch) < allreduce_seconds(large, 4, pcie)
    assert allreduce_seconds(large, 1, pcie) == 0.0


def test_tensor_parallel_over_pcie_is_slower_than_over_a_bridge_and_says_so() -> None:
    base = Request("llama-3-70b", "a100-pcie-80gb", num_gpus=2, engine="vllm", precision="fp16",
                   context=2048)  # fmt: skip
    pcie = estimate(base)
    bridge = estimate(replace(base, interconnect="nvlink"))
    assert pcie.serving_tokens_per_s and bridge.serving_tokens_per_s
    assert pcie.serving_tokens_per_s["typical"] < bridge.serving_tokens_per_s["typical"]
    assert any("PCIe 4.0 x16" in a for a in pcie.assumptions)
    assert any("NVLink bridge" in a for a in bridge.assumptions)


def _decode(model: str, gpu: object, n: int, batch: int, context: int, engine: str = "vllm",
            interconnect: str | None = None) -> float:  # fmt: skip
    g = gpu if not isinstance(gpu, str) else GPU[gpu]
    return throughput.decode_tokens_per_s(
        CATALOG.models[model], g, get_precision("bf16"),  # type: ignore[arg-type]
        engine_factors(engine), batch=batch, context=context, kv_elem_bytes=kv_bytes("bf16"),
        num_gpus=n, link=link_for(g, n, interconnect),  # type: ignore[arg-type]
    ).typical  # fmt: skip


@SOME
@given(st.sampled_from(sorted(CATALOG.models)), st.sampled_from(sorted(GPU)),
       st.integers(1, 256), st.integers(1, 32_768), st.floats(1.01, 3.0))  # fmt: skip
def test_more_bandwidth_is_never_slower(
    model: str, gpu: str, batch: int, context: int, more: float
) -> None:
    g = GPU[gpu]
    try:
        slow = _decode(model, g, 1, batch, context)
    except AdvisorError:
        return
    fast = _decode(model, replace(g, bandwidth_gbs=g.bandwidth_gbs * more), 1, batch, context)
    assert fast >= slow * (1 - 1e-9)


@SOME
@given(st.sampled_from(sorted(CATALOG.models)), st.sampled_from(sorted(GPU)),
       st.integers(1, 64), st.integers(1, 16_384), st.integers(1, 16_384))  # fmt: skip
def test_more_context_is_never_faster(
    model: str, gpu: str, batch: int, context: int, more: int
) -> None:
    try:
        short = _decode(model, gpu, 1, batch, context)
    except AdvisorError:
        return
    assert _decode(model, gpu, 1, batch, context + more) <= short * (1 + 1e-9)


NVSWITCH = sorted(g for g, v in GPU.items() if v.gpu_link == "switch" and v.gpu_link_gbs)


@SOME
@given(st.sampled_from(BIG_MODELS), st.sampled_from(NVSWITCH), st.sampled_from([1, 2, 4]),
       st.integers(1, 256), st.sampled_from(["vllm", "tensorrt-llm"]))  # fmt: skip
def test_more_gpus_over_nvswitch_are_never_slower_at_the_same_batch(
    model: str, gpu: str, n: int, batch: int, engine: str
) -> None:
    try:
        fewer = _decode(model, gpu, n, batch, 2048, engine)
    except AdvisorError:
        return
    more = _decode(model, gpu, 2 * n, batch, 2048, engine)
    # a step may lose at most what the larger group's all-reduces cost: on a very fast card
    # (Rubin, 22 TB/s) a 7B model's weight reads take less than 2 x layers collective latencies
    spec = CATALOG.models[model]
    link = link_for(GPU[gpu], 2 * n)
    collectives = 2 * spec.num_layers * allreduce_seconds(batch * spec.hidden_size * 2, 2 * n, link)
    assert batch / more <= batch / fewer + collectives + 1e-12


@SOME
@given(st.sampled_from(BIG_MODELS), st.sampled_from(["a100-pcie-80gb", "rtx-3090", "rtx-a6000"]),
       st.integers(1, 256))  # fmt: skip
def test_a_bridge_is_never_slower_than_pcie(model: str, gpu: str, batch: int) -> None:
    try:
        pcie = _decode(model, gpu, 2, batch, 2048, interconnect="pcie")
    except AdvisorError:
        return
    assert _decode(model, gpu, 2, batch, 2048, interconnect="nvlink") >= pcie * (1 - 1e-9)


@pytest.mark.parametrize(
    ("choice", "gbs"),
    [
        ("pcie-x1", 1.969),  # a mining riser: one PCIe 4.0 lane
        ("pcie3-x8", 8 * 0.985),
        ("pcie5-x16", 16 * 1.969),  # a slot faster than the card runs at the card's rate
        ("pcie4", 16 * 1.969),
    ],
)
def test_a_narrower_slot_is_the_link_at_its_lanes(choice: str, gbs: float) -> None:
    link = link_for(GPU["l40s"], 4, choice)
    assert link.kind == "pcie" and link.gbs == pytest.approx(gbs, rel=1e-3)


def test_prompts_over_x1_risers_are_far_slower_and_decode_a_little() -> None:
    base = Request("llama-3-70b", "l40s", num_gpus=4, engine="vllm", precision="awq")
    full, riser = estimate(base), estimate(replace(base, interconnect="pcie-x1"))
    prefill = [e.prefill_tokens_per_s["typical"] for e in (riser, full)]  # type: ignore[index]
    decode = [e.decode_tokens_per_s["typical"] for e in (riser, full)]  # type: ignore[index]
    assert prefill[0] < 0.5 * prefill[1]
    assert 0.7 * decode[1] < decode[0] <= decode[1]
    assert "x1" in (riser.interconnect or "")
    with pytest.raises(InvalidInput, match="pcie-x1"):
        link_for(GPU["l40s"], 2, "pcie-x3")


def test_more_gpus_than_a_node_serve_as_pipeline_stages_of_whole_nodes():
    # NVLink joins the 8 GPUs of one board; 24 H100s are 3 nodes: 8-way tensor parallel in each,
    # 3 pipeline stages across, so one stream decodes no faster than on one node
    base = Request("llama-3.1-405b", "h100-sxm5-80gb", precision="bf16", engine="vllm")
    node = estimate(replace(base, num_gpus=8), CATALOG)
    three = estimate(replace(base, num_gpus=24), CATALOG)
    assert any("3 nodes of 8" in a for a in three.assumptions)
    assert three.decode_tokens_per_s["typical"] <= node.decode_tokens_per_s["typical"] * 1.01
    # the KV heads split 8 ways, the layers 3 ways: a third of one node's cache per GPU
    assert three.breakdown_gb["kv_cache"] == pytest.approx(node.breakdown_gb["kv_cache"] / 3)
    # an explicit split is kept
    asked = estimate(replace(base, num_gpus=24, pp=6), CATALOG)
    assert not any("nodes of 8" in a for a in asked.assumptions)


def test_the_fewest_gpus_beyond_a_node_are_whole_nodes_not_the_next_power_of_two():
    from advisor.calculator.estimator import min_gpus

    # 405B in bf16 is ~811 GB of weights: 16 A100 40GBs hold 50.7 GB each (too much), 24 fit
    request = Request("llama-3.1-405b", "a100-sxm4-40gb", precision="bf16", engine="vllm")
    best = min_gpus(request, CATALOG)
    assert best is not None and best.num_gpus == 24
    assert not estimate(replace(request, num_gpus=16), CATALOG).fits
