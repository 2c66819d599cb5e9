"""Published measurements the calculator must keep reproducing, each with its tolerance.

The test id names the source; the rows come from shared/data/measured_calibration.csv.
"""

from __future__ import annotations

import pytest

from advisor.calculator import memory, throughput
from advisor.calculator.estimator import Request, estimate
from advisor.calculator.factors import engine_factors
from advisor.calculator.precision import get_precision
from advisor.catalog import load_catalog

LLAMA_BENCH = "llama.cpp-README-llama-bench"


def _decode(
    model: str, gpu: str, precision: str, engine: str, context: int, batch: int = 1
) -> float:
    catalog = load_catalog()
    return throughput.decode_tokens_per_s(
        catalog.get_model(model), catalog.get_gpu(gpu), get_precision(precision),
        engine_factors(engine), batch=batch, context=context, kv_elem_bytes=2.0,
    ).typical  # fmt: skip


def _prefill(model: str, gpu: str, precision: str, engine: str, prompt: int) -> float:
    catalog = load_catalog()
    return throughput.prefill_tokens_per_s(
        catalog.get_model(model), catalog.get_gpu(gpu), get_precision(precision),
        engine_factors(engine), prompt=prompt, batch=1,
    ).typical  # fmt: skip


@pytest.mark.parametrize(
    ("model", "gpu", "precision", "engine", "context", "measured", "tolerance"),
    [
        pytest.param("llama-3-8b", "rtx-4090", "q4_k_m", "llama.cpp", 512, 127.74, 0.2,
                     id=f"{LLAMA_BENCH}-4090-llama3-8b-q4km-tg1024"),
        pytest.param("llama-3-8b", "a100-pcie-80gb", "fp16", "llama.cpp", 256, 54.84, 0.2,
                     id=f"{LLAMA_BENCH}-a100pcie-llama3-8b-f16-tg512"),
        pytest.param("llama-3-70b", "a100-pcie-80gb", "q4_k_m", "llama.cpp", 256, 22.31, 0.2,
                     id=f"{LLAMA_BENCH}-a100pcie-llama3-70b-q4km-tg512"),
        pytest.param("llama-2-13b", "a100-sxm4-80gb", "fp16", "hf", 768, 27.06, 0.3,
                     id="hf-generate-a100-llama2-13b-fp16-b1-512+512"),
        pytest.param("llama-3-8b", "rtx-a6000", "awq", "tensorrt-llm", 64, 93.63, 0.3,
                     id="llm-awq-README-TinyChat-a6000-llama3-8b-awq"),
        # single-stream vLLM and SGLang on GDDR cards (eval/calibration/llm.csv L1793, L1795,
        # L1812), context = prompt + half the output: 0.68 of the bandwidth (engine x generation)
        # predicted 0.72x, 0.80x and 0.84x of these
        pytest.param("llama-2-7b", "rtx-a6000", "fp16", "vllm", 124, 46.4, 0.2,
                     id="hamelsmu-llama-inference-vllm-a6000-llama2-7b-fp16-b1"),
        pytest.param("llama-2-7b", "rtx-6000-ada", "fp16", "vllm", 124, 53.6, 0.2,
                     id="hamelsmu-llama-inference-triton-vllm-rtx6000ada-llama2-7b-fp16-b1"),
        pytest.param("llama-3-8b", "a10", "fp16", "sglang", 136, 28.63, 0.2,
                     id="deepaksatna-llm-serving-benchmark-sglang-a10-llama3-8b-fp16-b1"),
    ],
)  # fmt: skip
def test_decode_speed(
    model: str, gpu: str, precision: str, engine: str, context: int, measured: float,
    tolerance: float,
) -> None:  # fmt: skip
    assert _decode(model, gpu, precision, engine, context) == pytest.approx(measured, rel=tolerance)


@pytest.mark.parametrize(
    ("model", "gpu", "precision", "prompt", "measured"),
    [
        pytest.param("llama-3-8b", "a100-pcie-80gb", "fp16", 1024, 7504.24,
                     id=f"{LLAMA_BENCH}-a100pcie-llama3-8b-f16-pp1024"),
        pytest.param("llama-3-8b", "rtx-4090", "q4_k_m", 1024, 6898.71,
                     id=f"{LLAMA_BENCH}-4090-llama3-8b-q4km-pp1024"),
        pytest.param("llama-3-70b", "a100-pcie-80gb", "q4_k_m", 4096, 653.2,
                     id=f"{LLAMA_BENCH}-a100pcie-llama3-70b-q4km-pp4096"),
    ],
)  # fmt: skip
def test_prefill_speed(model: str, gpu: str, precision: str, prompt: int, measured: float) -> None:
    assert _prefill(model, gpu, precision, "llama.cpp", prompt) == pytest.approx(measured, rel=0.25)


@pytest.mark.parametrize(
    ("request_", "measured_gb", "includes_context"),
    [
        # optimum's benchmark ran transformers 4.32 (Aug 2023): the tuple KV cache
        pytest.param(Request("llama-2-13b", "a100-sxm4-80gb", precision="fp16", context=1024,
                             batch=16, engine="hf", legacy_kv_cache=True), 53.99, True,
                     id="optimum-benchmark-hf-a100-llama2-13b-fp16-b16-512+512"),
        pytest.param(Request("llama-2-13b", "a100-sxm4-80gb", precision="gptq", context=1024,
                             batch=16, engine="hf", legacy_kv_cache=True), 34.78, True,
                     id="optimum-benchmark-hf-a100-llama2-13b-gptq-b16-512+512"),
        pytest.param(Request("llama-2-7b", "a100-sxm4-40gb", precision="bf16", context=512,
                             engine="hf"), 13.52, False, id="litgpt-generate-a100-llama2-7b-bf16"),
        pytest.param(Request("llama-2-70b", "a100-sxm4-40gb", precision="nf4", context=512,
                             engine="hf"), 37.21, False,
                     id="litgpt-generate-a100-llama2-70b-nf4-dq"),
    ],
)  # fmt: skip
def test_inference_memory(request_: Request, measured_gb: float, includes_context: bool) -> None:
    result = estimate(request_)
    predicted = result.memory_per_gpu_gb
    if not includes_context:  # torch.cuda.max_memory_allocated leaves the CUDA context out
        predicted -= result.breakdown_gb["runtime_overhead"]
    assert predicted == pytest.approx(measured_gb, rel=0.10)


@pytest.mark.parametrize(
    ("model", "method", "precision", "seq", "batch", "checkpointing", "measured_gb"),
    [
        pytest.param("llama-2-7b", "lora", "bf16", 1304, 1, False, 21.3,
                     id="litgpt-finetune-lora-a100-llama2-7b-b1"),
        pytest.param("llama-2-13b", "qlora", "nf4", 1304, 1, False, 22.55,
                     id="litgpt-finetune-qlora-a100-llama2-13b-nf4dq-b1"),
        pytest.param("llama-3-8b", "lora", "bf16", 512, 1, False, 19.73,
                     id="litgpt-config-hub-a10g-llama3-8b-lora"),
        pytest.param("llama-2-7b", "lora", "bf16", 2048, 4, True, 21.3,
                     id="torchtune-README-4090-llama2-7b-lora"),
        pytest.param("llama-2-7b", "qlora", "nf4", 2048, 4, True, 12.3,
                     id="torchtune-README-4090-llama2-7b-qlora"),
    ],
)  # fmt: skip
def test_finetune_memory(
    model: str, method: str, precision: str, seq: int, batch: int, checkpointing: bool,
    measured_gb: float,
) -> None:  # fmt: skip
    result = memory.training_memory(
        load_catalog().get_model(model), method=method, precision=get_precision(precision),
        optimizer="adamw", seq=seq, batch=batch, checkpointing=checkpointing,
    )  # fmt: skip
    allocated = result.total_gb - result.breakdown_gb["runtime_overhead"]
    assert allocated == pytest.approx(measured_gb, rel=0.15)


@pytest.mark.parametrize(
    ("request_", "fits"),
    [
        pytest.param(Request("llama-3-70b", "a100-sxm4-80gb", precision="fp16", context=1024,
                             engine="llama.cpp"), False, id=f"{LLAMA_BENCH}-70b-f16-a100-oom"),
        pytest.param(Request("llama-3-70b", "rtx-4090", precision="q4_k_m", context=1024,
                             engine="llama.cpp"), False, id=f"{LLAMA_BENCH}-70b-q4km-4090-oom"),
        pytest.param(Request("llama-3-70b", "a100-sxm4-80gb", precision="q4_k_m", context=8192,
                             engine="llama.cpp"), True, id=f"{LLAMA_BENCH}-70b-q4km-a100-fits"),
        pytest.param(Request("llama-3-8b", "rtx-3090", precision="fp16", context=8192,
                             engine="llama.cpp"), True, id=f"{LLAMA_BENCH}-8b-f16-3090-fits"),
        pytest.param(Request("llama-2-13b", "rtx-4090", precision="fp16", engine="hf",
                             context=512), False, id="llm-awq-README-13b-fp16-4090-oom"),
        pytest.param(Request("llama-2-7b", "a100-sxm4-40gb", workload="finetune-lora",
                             context=1304, batch=4, checkpointing=False), False,
                     id="litgpt-finetune-lora-a100-40gb-llama2-7b-b4-oom"),
    ],
)  # fmt: skip
def test_fit_verdicts(request_: Request, fits: bool) -> None:
    assert estimate(request_).fits is fits
