"""Engine releases and training recipes the Request can name: TensorRT-LLM before its XQA
kernel reads a grouped KV head once per query head; the published rows that show it."""

from __future__ import annotations

import pytest

from advisor.calculator import Request, estimate, factors
from advisor.calculator.factors import eager_collectives, kv_read_per_query_head, release
from advisor.catalog import load_catalog
from eval import calibration_classes as cc

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0.6.1", (0, 6, 1)), ("v0.9.0 (docs)", (0, 9, 0)), ("1.0", (1, 0)), (None, None),
     ("current", None)],
)  # fmt: skip
def test_a_release_is_the_first_dotted_number(text: str | None, expected: object) -> None:
    assert release(text) == expected


@pytest.mark.parametrize(
    ("engine", "version", "expected"),
    [("tensorrt-llm", "0.6.1", True), ("tensorrt-llm", "0.7.1", True),
     ("tensorrt-llm", "0.8.0", False), ("tensorrt-llm", "1.0", False),
     ("tensorrt-llm", None, False), ("vllm", "0.2.0", False)],
)  # fmt: skip
def test_only_tensorrt_llm_before_xqa_reads_kv_per_query_head(
    engine: str, version: str | None, expected: bool
) -> None:
    assert kv_read_per_query_head(engine, version) is expected


def _typical_decode(request: Request) -> float:
    e = estimate(request, catalog=CATALOG)
    assert e.decode_tokens_per_s
    return e.decode_tokens_per_s["typical"]


def _decode(model: str, version: str | None, context: int = 3072) -> float:
    return _typical_decode(
        Request(model, "h100-sxm5-80gb", num_gpus=2, precision="fp8", kv_cache="fp8",
                engine="tensorrt-llm", batch=64, context=context, engine_version=version)
    )  # fmt: skip


def test_a_pre_xqa_release_slows_grouped_query_models_at_long_context_only() -> None:
    # Llama-2-70B: 64 query heads over 8 KV heads; Llama-2-7B has one KV head per query head
    assert _decode("llama-2-70b", "0.6.1") < 0.6 * _decode("llama-2-70b", None)
    assert _decode("llama-2-70b", "0.6.1", 128) > 0.8 * _decode("llama-2-70b", None, 128)
    assert _decode("llama-2-7b", "0.6.1") == pytest.approx(_decode("llama-2-7b", None))
    assert _decode("llama-2-70b", "0.9.0") == pytest.approx(_decode("llama-2-70b", None))


def test_the_estimate_says_which_attention_it_assumed() -> None:
    e = estimate(
        Request("llama-2-70b", "h100-sxm5-80gb", num_gpus=2, precision="fp8",
                engine="tensorrt-llm", engine_version="0.6.1"),
        catalog=CATALOG,
    )  # fmt: skip
    assert any("once per query head" in a for a in e.assumptions)


# TensorRT-LLM docs/source/performance.md@138f96d (v0.6.1), H100 SXM FP8 static batches of
# Llama-2-70B and Falcon-180B generating 2048 tokens: the rows XQA's absence explains (without
# it they came out 1.5-2.8x too fast)
ROWS = {r["id"]: r for r in cc.read_rows()}


@pytest.mark.parametrize("row_id", ["L0010", "L0012", "L0014", "L0016"])
def test_tensorrt_llm_0_6_1_grouped_query_rows_within_30_percent(row_id: str) -> None:
    case = cc.Scorer(CATALOG).case(ROWS[row_id])
    assert case.predicted == pytest.approx(case.measured, rel=0.30)


def _exl2(version: str | None) -> float:
    return _typical_decode(
        Request("llama-2-13b", "rtx-3090", engine="exllamav2", precision="gptq", context=256,
                engine_version=version)
    )  # fmt: skip


def test_exllamav2_before_0_1_9_spends_its_readmes_measured_time_per_layer() -> None:
    # 40 layers x 13 us (factors.RELEASE_LAYER_MS): about 0.5 ms of a ~10 ms step
    old, new = _exl2("0.0.6"), _exl2(None)
    assert 1000 / old - 1000 / new == pytest.approx(40 * 0.013, rel=0.01)
    assert _exl2("0.1.9") == new == _exl2("0.2.0")


def _mlc(version: str | None) -> float:
    return _typical_decode(
        Request("llama-2-7b", "rtx-4090", engine="mlc-llm", precision="q4_0", context=256,
                engine_version=version)
    )  # fmt: skip


def test_mlc_llm_builds_before_cuda_graphs_launch_every_layers_kernels_from_the_host() -> None:
    # 32 layers x 11 us (factors.MLC_GRAPH_LAYER_MS): llm-perf-bench's Aug 2023 build (L1986)
    old, new = _mlc("0.0 (before CUDA graphs)"), _mlc(None)
    assert 1000 / old - 1000 / new == pytest.approx(32 * 0.011, rel=0.01)
    assert _mlc("0.1.0") == new
    # the benchmark names MLC rows dated before 2023-10-04 so, and leaves later ones as written
    assert cc._engine_version(ROWS["L1986"]) == "0.0 (before CUDA graphs)"
    assert cc._engine_version(ROWS["L1818"]) == ROWS["L1818"]["engine_version"]


def _activations(framework: str, workload: str, precision: str) -> float:
    e = estimate(
        Request("llama-3.1-8b", "a100-sxm4-80gb", workload=workload, precision=precision,
                context=2048, batch=2, framework=framework, checkpointing=False),
        catalog=CATALOG,
    )  # fmt: skip
    return e.breakdown_gb["activations"]


def test_only_bitsandbytes_qlora_layers_keep_more_for_backward() -> None:
    # torchtune's QLoRA runs on torchao's NF4Tensor (linear_nf4 saves its input only)
    tt_lora = _activations("torchtune", "finetune-lora", "bf16")
    assert _activations("torchtune", "finetune-qlora", "nf4") == pytest.approx(tt_lora)
    hf_lora = _activations("hf", "finetune-lora", "bf16")
    assert _activations("hf", "finetune-qlora", "nf4") > 1.2 * hf_lora


# TensorRT-LLM docs/source/blogs/XQA-kernel.md (v0.8a, FP8, H200, Llama-70B, 128 in / 2048 out):
# XQA raised throughput 1,227 -> 2,941 tok/s/GPU on 1 GPU (2.4x) and 13,232 -> 25,300 on 8 (1.9x).
# Not in llm.csv (no batch stated, "within the same latency budget"): the ratio is the check.
@pytest.mark.parametrize(("gpus", "speedup"), [(1, 2.4), (8, 1.9)])
def test_xqa_blog_speedup_within_15_percent(gpus: int, speedup: float) -> None:
    def serving(version: str | None) -> float:
        e = estimate(
            Request("llama-2-70b", "h200-sxm-141gb", num_gpus=gpus, precision="fp8",
                    kv_cache="fp8", engine="tensorrt-llm", context=128, output_tokens=2048,
                    engine_version=version),
            catalog=CATALOG,
        )  # fmt: skip
        assert e.serving_tokens_per_s
        return e.serving_tokens_per_s["typical"]

    assert serving(None) / serving("0.7.1") == pytest.approx(speedup, rel=0.15)


@pytest.mark.parametrize(
    ("engine", "version", "expected"),
    [("vllm", "0.2.0 (commit acbed3e)", True), ("vllm", "0.2.5", True), ("vllm", "0.2.6", False),
     ("vllm", "0.6.3", False), ("vllm", None, False), ("tensorrt-llm", "0.5.0", False)],
)  # fmt: skip
def test_only_vllm_before_cuda_graphs_issues_its_all_reduces_eagerly(
    engine: str, version: str | None, expected: bool
) -> None:
    assert eager_collectives(engine, version) is expected


@pytest.mark.parametrize(
    ("version", "expected"),
    [("0.2.0 (commit acbed3e)", 2.0), ("0.2.6", 2.0), ("0.2.7", 0.0), ("0.6.3", 0.0), (None, 0.0)],
)
def test_vllm_before_0_2_7_drives_its_tensor_parallel_workers_by_a_ray_call_a_step(
    version: str | None, expected: float
) -> None:
    assert factors.ray_dispatch_ms("vllm", version) == expected
    assert factors.ray_dispatch_ms("tensorrt-llm", "0.5.0") == 0.0
    # from 0.2.6 (CUDA graphs) to 0.2.7 (NCCL control plane) only the Ray call goes
    assert 1000 / _vllm_tp("0.2.6", 4) - 1000 / _vllm_tp("0.2.7", 4) == pytest.approx(2.0)
    assert _vllm_tp("0.2.6", 1) == _vllm_tp("0.2.7", 1)  # one GPU: no workers to call


def _vllm_tp(version: str | None, gpus: int) -> float:
    e = estimate(
        Request("llama-2-70b", "a10g", num_gpus=gpus, precision="fp16", engine="vllm",
                context=135, engine_version=version),
        catalog=CATALOG,
    )  # fmt: skip
    assert e.decode_tokens_per_s
    return e.decode_tokens_per_s["typical"]


@pytest.mark.parametrize("gpus", [4, 8])
def test_vllm_0_2_0_tensor_parallel_pays_its_eager_all_reduces_per_layer(gpus: int) -> None:
    # 80 layers x 2 all-reduces x (3.385 - 1) x 65 us over PCIe = 24.8 ms a step, at any TP degree
    # (llm-perf-bench: ~0.5 ms per layer above the weights' read at 2, 4 and 8 A10Gs), and the
    # 2 ms Ray call that sent each step's inputs to the workers before 0.2.7. Re-pinned at
    # calc-2026.12.03a: the graph-captured PCIe latency was fitted on MLC's A10G rows (80 -> 65
    # us) and the eager multiple kept the eager all-reduce at 220 us (2.75 -> 3.385), so the gap
    # to a graph-captured step grows from 22.4 to 24.8 ms
    old, new = _vllm_tp("0.2.0", gpus), _vllm_tp(None, gpus)
    assert 1000 / old - 1000 / new == pytest.approx(160 * 2.385 * 0.065 + 2.0, rel=0.01)
    assert any("no CUDA graphs" in a for a in _assumptions("0.2.0", gpus))
    assert any("by a Ray call" in a for a in _assumptions("0.2.0", gpus))
    assert _vllm_tp("0.2.0", 1) == _vllm_tp(None, 1)  # one GPU: no collectives


def _assumptions(version: str, gpus: int) -> list[str]:
    e = estimate(
        Request("llama-2-70b", "a10g", num_gpus=gpus, precision="fp16", engine="vllm",
                context=135, engine_version=version),
        catalog=CATALOG,
    )  # fmt: skip
    return list(e.assumptions)


@pytest.mark.parametrize(
    ("row_id", "version"),
    [("L0879", "0.2.5 (before CUDA graphs)"), ("L1796", "0.2.0 (commit acbed3e)")],
)  # fmt: skip
def test_a_vllm_row_without_its_release_dated_before_the_graphs_runs_the_release_before(
    row_id: str, version: str
) -> None:
    assert cc._engine_version(ROWS[row_id]) == version


def _step_ms(model: str, engine: str, penalties: bool) -> float:
    e = estimate(
        Request(model, "a100-sxm4-80gb", precision="bf16", engine=engine, context=1024,
                sampling_penalties=penalties),
        catalog=CATALOG,
    )  # fmt: skip
    assert e.decode_tokens_per_s
    return 1000 / e.decode_tokens_per_s["typical"]


def test_sampling_penalties_cost_vllm_a_step_in_proportion_to_the_vocabulary() -> None:
    # Qwen2.5's 151,936-token vocabulary: the fitted 2 ms; Llama 2's 32,000: 32000/151936 of it
    qwen = _step_ms("qwen2.5-7b", "vllm", True) - _step_ms("qwen2.5-7b", "vllm", False)
    llama = _step_ms("llama-2-7b", "vllm", True) - _step_ms("llama-2-7b", "vllm", False)
    assert qwen == pytest.approx(2.0, rel=0.01)
    assert llama == pytest.approx(2.0 * 32000 / 151936, rel=0.01)
    # an engine without a fitted value pays nothing
    assert _step_ms("qwen2.5-7b", "tensorrt-llm", True) == _step_ms(
        "qwen2.5-7b", "tensorrt-llm", False
    )
    # the calibration rows that state penalties pass them on
    rows = [r for r in cc.read_rows() if cc._penalties(r)]
    assert rows and all(r["engine"] == "vllm" for r in rows)
