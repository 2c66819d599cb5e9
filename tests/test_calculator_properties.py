"""Properties that must hold for every input (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from advisor.calculator import Request, estimate
from advisor.catalog import load_catalog
from advisor.errors import AdvisorError

CATALOG = load_catalog()
MODELS = sorted(CATALOG.models)
GPUS = sorted(CATALOG.gpus)
FLOAT_CHAIN = ["fp32", "bf16", "int8", "awq"]  # each holds its weights in fewer bytes
GGUF_CHAIN = ["q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k"]

models = st.sampled_from(MODELS)
gpus = st.sampled_from(GPUS)
contexts = st.integers(1, 200_000)
batches = st.integers(1, 256)
engines = st.sampled_from(["hf", "vllm", "llama.cpp", "tensorrt-llm"])
FAST = settings(max_examples=150, deadline=None)


def runs(gpu: str, engine: str) -> bool:
    """Whether the engine runs on that GPU at all (vLLM on an Apple GPU is a clear error)."""
    from advisor.calculator.llm import runs_on

    return runs_on(engine, CATALOG.gpus[gpu]) is None


@FAST
@given(models, gpus, contexts, contexts, batches, engines)
def test_more_context_never_lowers_memory(
    model: str, gpu: str, c1: int, c2: int, batch: int, engine: str
) -> None:
    assume(runs(gpu, engine))
    low, high = sorted((c1, c2))
    base = Request(model, gpu, context=low, batch=batch, engine=engine, precision="bf16")
    assert (
        estimate(replace(base, context=high)).memory_per_gpu_gb >= estimate(base).memory_per_gpu_gb
    )


@FAST
@given(models, gpus, batches, batches, engines)
def test_more_batch_never_lowers_memory(
    model: str, gpu: str, b1: int, b2: int, engine: str
) -> None:
    assume(runs(gpu, engine))
    low, high = sorted((b1, b2))
    base = Request(model, gpu, context=2048, batch=low, engine=engine, precision="bf16")
    assert estimate(replace(base, batch=high)).memory_per_gpu_gb >= estimate(base).memory_per_gpu_gb


@FAST
@given(models, gpus, st.sampled_from([FLOAT_CHAIN, GGUF_CHAIN]), st.data())
def test_lower_precision_never_raises_memory(
    model: str, gpu: str, chain: list[str], data: st.DataObject
) -> None:
    i = data.draw(st.integers(0, len(chain) - 2))
    engine = "llama.cpp" if chain is GGUF_CHAIN else "vllm"
    assume(runs(gpu, engine))
    higher = estimate(Request(model, gpu, precision=chain[i], engine=engine, context=1024))
    lower = estimate(Request(model, gpu, precision=chain[i + 1], engine=engine, context=1024))
    assert lower.memory_per_gpu_gb <= higher.memory_per_gpu_gb


@FAST
@given(models, gpus, st.integers(1, 8), st.integers(1, 8))
def test_more_gpus_never_raise_per_gpu_memory_under_tp(
    model: str, gpu: str, n1: int, n2: int
) -> None:
    from advisor.calculator.llm import _splits_heads

    assume(runs(gpu, "vllm"))
    low, high = sorted((n1, n2))
    # both counts tensor parallel inside one node: a count that does not split the heads runs
    # as pipeline stages, whose per-GPU memory is another layout's (activations not divided,
    # KV heads not copied), so 7 GPUs may hold more each than 6 (12 heads, 2 KV)
    spec = load_catalog().models[model]
    assume(all(n == 1 or _splits_heads(spec, n) for n in (low, high)))
    base = Request(model, gpu, precision="bf16", engine="vllm", context=4096, num_gpus=low)
    more = estimate(replace(base, num_gpus=high)).memory_per_gpu_gb
    assert more <= estimate(base).memory_per_gpu_gb + 1e-9


@FAST
@given(models, gpus, st.integers(1, 64), st.integers(1, 64))
def test_more_gpus_never_raise_per_gpu_memory_under_zero3(
    model: str, gpu: str, n1: int, n2: int
) -> None:
    low, high = sorted((n1, n2))
    assume(low > 1)  # going from 1 GPU to 2 adds communication buffers
    base = Request(model, gpu, workload="finetune-full", zero_stage=3, num_gpus=low, context=1024)
    more = estimate(replace(base, num_gpus=high)).memory_per_gpu_gb
    assert more <= estimate(base).memory_per_gpu_gb + 1e-9


@settings(max_examples=300, deadline=None)
@given(
    models, gpus,
    st.sampled_from(["inference", "finetune-full", "finetune-lora", "finetune-qlora"]),
    contexts, batches, st.integers(1, 16),
)  # fmt: skip
def test_every_valid_input_returns_a_result(
    model: str, gpu: str, workload: str, context: int, batch: int, num_gpus: int
) -> None:
    e = estimate(Request(model, gpu, workload=workload, context=context, batch=batch,
                         num_gpus=num_gpus))  # fmt: skip
    assert e.memory_per_gpu_gb > 0 and e.usable_memory_per_gpu_gb > 0
    speed = e.decode_tokens_per_s or e.train_tokens_per_s
    assert speed and speed["typical"] > 0


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.text(max_size=30), st.sampled_from(MODELS)),
    st.one_of(st.text(max_size=30), st.sampled_from(GPUS)),
    st.one_of(st.integers(), st.none()),
    st.integers(-10, 10**7),
    st.integers(-10, 5000),
    st.one_of(st.text(max_size=10), st.sampled_from(["bf16", "q4_k_m", "nf4"])),
)
def test_every_input_either_answers_or_raises_a_clear_error(
    model: str, gpu: str, context: int | None, batch: int, num_gpus: int, precision: str
) -> None:
    try:
        estimate(Request(model, gpu, context=context, batch=batch, num_gpus=num_gpus,
                         precision=precision or None))  # fmt: skip
    except AdvisorError as exc:
        assert str(exc)


@pytest.mark.parametrize("model", ["llama-3-8b", "deepseek-v3", "gemma-3-27b", "qwen3-30b-a3b"])
def test_memory_grows_linearly_in_batch_for_the_kv_cache(model: str) -> None:
    one = estimate(Request(model, "b200", batch=1, context=4096, engine="vllm", precision="bf16"))
    two = estimate(Request(model, "b200", batch=2, context=4096, engine="vllm", precision="bf16"))
    assert two.breakdown_gb["kv_cache"] == pytest.approx(2 * one.breakdown_gb["kv_cache"])


@FAST
@given(models, gpus, engines, st.sampled_from(["bf16", "nf4", "awq", "q4_k_m", "fp8"]),
       st.integers(1, 8), st.integers(16, 8192))  # fmt: skip
def test_full_load_serving_is_never_below_one_request_at_a_time(
    model: str, gpu: str, engine: str, precision: str, num_gpus: int, prompt: int
) -> None:
    # the broken invariant of issue 17: 70B nf4 on two 3090s served less at full load than
    # one request at a time
    from advisor.calculator import throughput
    from advisor.calculator.factors import engine_factors
    from advisor.calculator.precision import get_precision, kv_bytes

    m, g = CATALOG.models[model], CATALOG.gpus[gpu]
    try:
        p, e = get_precision(precision), engine_factors(engine)
    except AdvisorError:
        return
    args = {"prompt": prompt, "output": 256, "kv_elem_bytes": kv_bytes("bf16"),
            "num_gpus": num_gpus}  # fmt: skip
    try:
        one, _ = throughput.serving_tokens_per_s(m, g, p, e, batch=1, **args)
        full, batch = throughput.serving_tokens_per_s(m, g, p, e, **args)
    except AdvisorError:
        return  # a precision this GPU cannot run
    assert batch >= 1 and full.typical >= one.typical * (1 - 1e-9)


def test_70b_nf4_on_two_3090s_serves_at_least_one_request_at_a_time() -> None:
    # the case issue 17 found: at the KV pool's batch of 4, batched nf4 dequantisation in
    # transformers made the full-load figure lower than one request at a time
    from advisor.calculator import throughput
    from advisor.calculator.factors import engine_factors
    from advisor.calculator.precision import get_precision, kv_bytes

    e = estimate(Request("llama-2-70b", "rtx-3090", num_gpus=2, precision="nf4", engine="hf"))
    assert e.serving_tokens_per_s is not None
    m, g = CATALOG.models["llama-2-70b"], CATALOG.gpus["rtx-3090"]
    args = {"prompt": 4096, "output": 256, "kv_elem_bytes": kv_bytes("bf16"), "num_gpus": 2}
    single, _ = throughput.serving_tokens_per_s(m, g, get_precision("nf4"), engine_factors("hf"),
                                                batch=1, **args)  # fmt: skip
    assert e.serving_tokens_per_s["typical"] >= single.typical * (1 - 1e-9)
