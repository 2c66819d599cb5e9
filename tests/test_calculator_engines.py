"""Engines as fitted: host-bound eager decode, transformers' KV traffic, bands from residuals,
and training steps bounded by memory and host time."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from advisor.calculator import ENGINES, Request, estimate, throughput
from advisor.calculator.factors import DECODE_CALIBRATION, TRAIN_CALIBRATION, engine_factors
from advisor.calculator.precision import get_precision, kv_bytes
from advisor.catalog import load_catalog
from advisor.errors import InvalidInput
from eval import calibration_classes as cc

CATALOG = load_catalog()
A100 = CATALOG.gpus["a100-sxm4-80gb"]
ROWS = {r["id"]: r for r in cc.read_rows()}


def _decode(model: str, engine: str, context: int = 1024, gpu: object = A100) -> float:
    return throughput.decode_tokens_per_s(
        CATALOG.models[model], gpu, get_precision("bf16"), engine_factors(engine),  # type: ignore[arg-type]
        batch=1, context=context, kv_elem_bytes=kv_bytes("bf16"),
    ).typical  # fmt: skip


@pytest.mark.parametrize("engine", ["sglang", "lmdeploy", "tgi", "exllamav2", "autoawq", "mlc-llm"])
def test_every_engine_estimates(engine: str) -> None:
    assert engine in ENGINES
    e = estimate(Request("llama-3-8b", "rtx-4090", engine=engine, precision="awq", context=2048))
    assert e.engine == engine and e.decode_tokens_per_s and e.decode_tokens_per_s["typical"] > 0


def test_only_serving_engines_split_layers_across_gpus() -> None:
    two = dict(num_gpus=2, precision="bf16", context=2048)
    vllm = estimate(Request("llama-3-70b", "h100-sxm5-80gb", engine="vllm", **two))  # type: ignore[arg-type]
    hf = estimate(Request("llama-3-70b", "h100-sxm5-80gb", engine="hf", **two))  # type: ignore[arg-type]
    assert any("tensor-parallel all-reduces" in a for a in vllm.assumptions)
    assert not any("tensor-parallel" in a for a in hf.assumptions)


def test_a_small_model_in_transformers_is_bound_by_the_host_not_the_memory() -> None:
    # the GPU's bandwidth hardly matters when Python issues every layer's kernels
    slow = _decode("qwen2.5-0.5b", "hf")
    fast = _decode("qwen2.5-0.5b", "hf", gpu=replace(A100, bandwidth_gbs=A100.bandwidth_gbs * 2))
    assert fast == pytest.approx(slow, rel=0.02)
    assert _decode("qwen2.5-0.5b", "vllm") > 3 * slow


def test_transformers_pays_for_its_kv_cache_copies_at_long_context() -> None:
    # Qwen2.5-7B: 28 query heads share 4 KV heads, so repeat_kv moves 7 copies per step
    hf_drop = _decode("qwen2.5-7b", "hf", 1024) / _decode("qwen2.5-7b", "hf", 30_000)
    vllm_drop = _decode("qwen2.5-7b", "vllm", 1024) / _decode("qwen2.5-7b", "vllm", 30_000)
    assert hf_drop > 1.2 and hf_drop > 2 * (vllm_drop - 1) + 1


@pytest.mark.parametrize("engine", sorted(DECODE_CALIBRATION))
def test_a_decode_band_is_its_engines_residuals(engine: str) -> None:
    cal = DECODE_CALIBRATION[engine]
    band = throughput.decode_tokens_per_s(
        CATALOG.models["llama-3-8b"], A100, get_precision("bf16"), engine_factors(engine),
        batch=1, context=1024, kv_elem_bytes=2.0,
    )  # fmt: skip
    assert band.low == pytest.approx(band.typical * cal.low)
    assert band.high == pytest.approx(band.typical * cal.high)
    assert cal.low < 1 < cal.high and cal.rows >= 10
    e = estimate(Request("llama-3-8b", "a100-sxm4-80gb", engine=engine, precision="bf16"))
    assert any(f"{cal.rows} measurements" in a for a in e.assumptions)


def _train(batch: int, seq: int, **kw: object) -> float:
    return throughput.train_tokens_per_s(
        CATALOG.models["llama-3.1-8b"], A100, get_precision("bf16"), method="lora", seq=seq,
        checkpointing=True, batch=batch, **kw,  # type: ignore[arg-type]
    ).typical  # fmt: skip


def test_short_training_steps_are_bound_by_host_and_memory_not_compute() -> None:
    unbounded = _train(64, 4096)
    assert _train(1, 128) < 0.5 * unbounded  # 128 tokens a step cannot fill an A100
    assert _train(1, 128, eager=False) > _train(1, 128)  # a fused framework has no host time


@pytest.mark.parametrize("seq", [64, 256, 1024, 4096])
def test_a_bigger_batch_never_trains_fewer_tokens_per_second(seq: int) -> None:
    rates = [_train(b, seq) for b in (1, 2, 4, 8, 16)]
    assert all(b >= a * (1 - 1e-9) for a, b in itertools.pairwise(rates))


def _train_on(gpu: str, n: int, interconnect: str | None = None) -> float:
    e = estimate(Request("llama-3.1-8b", gpu, num_gpus=n, workload="finetune-full", batch=2,
                         context=2048, interconnect=interconnect))  # fmt: skip
    assert e.train_tokens_per_s is not None
    return e.train_tokens_per_s["typical"]


def test_data_parallel_scaling_follows_the_link_not_a_constant() -> None:
    # ZeRO-3 over eight PCIe cards gathers 16 GB of weights on every pass; NVSwitch hides it.
    # ZeRO also shards the optimizer step, so n GPUs may pass n x one GPU that steps every state
    nvswitch = _train_on("h100-sxm5-80gb", 8) / _train_on("h100-sxm5-80gb", 1)
    pcie = _train_on("l40s", 8) / _train_on("l40s", 1)
    assert 7 < nvswitch <= 8 * 1.25
    assert pcie < nvswitch
    bridge = _train_on("a100-pcie-80gb", 2, "nvlink") / _train_on("a100-pcie-80gb", 1)
    plain = _train_on("a100-pcie-80gb", 2, "pcie") / _train_on("a100-pcie-80gb", 1)
    assert plain <= bridge <= 2 * 1.25


def _full_70b(gpu: str = "h100-sxm5-80gb", **kw: object) -> float:
    return throughput.train_tokens_per_s(
        CATALOG.models["llama-3-70b"], CATALOG.gpus[gpu], get_precision(str(kw.pop("precision",
        "bf16"))), method="full", seq=4096, checkpointing=False, batch=1, eager=False,
        num_gpus=32, **kw,  # type: ignore[arg-type]
    ).typical  # fmt: skip


def test_each_gpu_steps_only_the_optimizer_states_it_holds() -> None:
    # tp x pp split the weights; ZeRO-1 (Megatron's distributed optimizer) splits their states
    assert _full_70b(tp=4, pp=4) > _full_70b()
    assert _full_70b(tp=4, pp=4, zero_stage=1) > _full_70b(tp=4, pp=4)


def test_fp8_training_gains_its_measured_speedup_not_the_tensor_cores_2x() -> None:
    # Megatron-Bridge SFT of Llama-3-70B on 32 H100s in fp8: 1638 tokens/s/GPU (llm.csv L1759)
    fp8 = _full_70b(precision="fp8", tp=4, pp=4, zero_stage=1)
    bf16 = _full_70b(tp=4, pp=4, zero_stage=1)
    assert 1.3 < fp8 / bf16 < throughput.FP8_TRAIN_SPEEDUP + 1e-9
    assert fp8 / 32 == pytest.approx(1638, rel=0.15)
    gpu = CATALOG.gpus["h100-sxm5-80gb"]
    peak = throughput.train_tflops(gpu, get_precision("fp8"), eager=False)
    assert peak == pytest.approx(gpu.fp16_bf16_dense_tflops * throughput.FP8_TRAIN_SPEEDUP)


def test_megatron_recomputes_nothing_unless_asked_and_compile_speeds_an_eager_step() -> None:
    def rate(**kw: object) -> float:
        e = estimate(Request("llama-3.2-3b", "a100-sxm4-80gb", workload="finetune-full",
                             batch=2, context=4096, **kw))  # type: ignore[arg-type]  # fmt: skip
        assert e.train_tokens_per_s is not None
        return e.train_tokens_per_s["typical"]

    mega = estimate(Request("llama-3-8b", "h100-sxm5-80gb", num_gpus=8, workload="finetune-full",
                            framework="megatron", batch=1, context=4096))  # fmt: skip
    assert "gradient checkpointing off" in (mega.training_setup or "")
    # torchtune's README: Llama-3.2-3B on an A100, 7075 -> 8998 tokens/s with compile (L1617-9)
    eager = rate(framework="torchtune", checkpointing=False, torch_compile=False)
    compiled = rate(framework="torchtune", checkpointing=False, torch_compile=True)
    assert compiled / eager == pytest.approx(throughput.COMPILE_TRAIN_SPEEDUP, rel=0.05)
    assert eager == pytest.approx(7075, rel=0.15)


def test_an_apple_gpu_runs_llama_cpp_not_vllm() -> None:
    e = estimate(Request("llama-3-8b", "m2-ultra-192gb"))
    assert e.engine == "llama.cpp"
    with pytest.raises(InvalidInput, match=r"vLLM does not run on the Apple .*Metal"):
        estimate(Request("llama-3-8b", "m3-max-128gb", engine="vllm"))


def test_an_old_card_gets_an_engine_that_still_supports_it_and_fp16_for_bf16() -> None:
    e = estimate(Request("llama-3-70b", "p40", num_gpus=8))
    assert e.engine == "llama.cpp" and e.precision == "fp16"
    assert any("no bf16 tensor cores" in a for a in e.assumptions)
    with pytest.raises(InvalidInput, match="no longer supports Pascal"):
        estimate(Request("llama-3-8b", "p40", engine="vllm"))
    assert estimate(Request("llama-3-8b", "t4", engine="vllm")).precision == "fp16"


def test_a_given_batch_is_the_concurrency_served_with_full_load_beside_it() -> None:
    one = estimate(Request("llama-3-8b", "a100-sxm4-80gb", engine="vllm", precision="bf16"))
    sixteen = estimate(
        Request("llama-3-8b", "a100-sxm4-80gb", engine="vllm", precision="bf16", batch=16)
    )
    assert sixteen.serving_batch == 16
    assert one.serving_batch and one.serving_batch > 16  # no batch given: full load
    assert one.serving_tokens_per_s and sixteen.serving_tokens_per_s
    assert sixteen.serving_tokens_per_s["typical"] < one.serving_tokens_per_s["typical"]
    assert any("at full load" in a for a in sixteen.assumptions)


def test_a_training_band_is_its_frameworks_residuals() -> None:
    cal = TRAIN_CALIBRATION["hf"]
    e = estimate(Request("llama-3-8b", "a100-sxm4-80gb", workload="finetune-lora", batch=4))
    band = e.train_tokens_per_s
    assert band and band["low"] == pytest.approx(band["typical"] * cal.low)
    assert band["high"] == pytest.approx(band["typical"] * cal.high)
    assert any(f"{cal.rows} measurements" in a for a in e.assumptions)
    other = estimate(Request("llama-3-8b", "a100-sxm4-80gb", workload="finetune-lora", batch=4,
                             framework="axolotl"))  # fmt: skip
    assert any("no training speed measurements" in a for a in other.assumptions)


def test_eager_lora_adapters_cost_their_memory_traffic_and_compile_fuses_it() -> None:
    model = CATALOG.models["llama-3.1-8b"]
    from advisor.calculator.memory import lora_params

    def rate(rank: int, targets: str, **kw: object) -> float:
        return throughput.train_tokens_per_s(
            model, A100, get_precision("bf16"), method="lora", seq=4096, checkpointing=True,
            batch=1, trainable=lora_params(model, rank, targets), lora_rank=rank,
            **kw,  # type: ignore[arg-type]
        ).typical  # fmt: skip

    bare = throughput.train_tokens_per_s(
        model, A100, get_precision("bf16"), method="lora", seq=4096, checkpointing=True, batch=1
    ).typical
    # every linear layer adapted: ~15% slower than the matmuls alone; q and v only: ~2%
    assert 0.8 < rate(64, "all") / bare < 0.9
    assert rate(8, "qv") / bare > 0.97
    assert rate(64, "all") == pytest.approx(rate(8, "all"))  # traffic scales with features, not r
    assert rate(64, "all", compiled=True) == pytest.approx(bare * throughput.COMPILE_TRAIN_SPEEDUP)


def _prefill_rate(engine: str, gpu: str, precision: str, prompt: int, **kw: object) -> float:
    model, card = CATALOG.models["llama-2-13b"], CATALOG.gpus[gpu]
    seconds = throughput.prefill_seconds(
        model, card, get_precision(precision), engine_factors(engine), prompt=prompt, batch=1,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return prompt / seconds


def test_exllama_prompts_multiply_in_fp16_accumulate_on_geforce_cards() -> None:
    # cublasHgemm: twice the listed (fp32-accumulate) tensor rate on a GeForce card only
    geforce = _prefill_rate("exllamav2", "rtx-3090", "gptq", 3200)
    assert geforce / _prefill_rate("vllm", "rtx-3090", "gptq", 3200) > 1.8
    assert _prefill_rate("exllamav2", "a100-sxm4-80gb", "gptq", 3200) == pytest.approx(
        _prefill_rate("vllm", "a100-sxm4-80gb", "gptq", 3200), rel=0.02
    )


def test_autoawq_prompts_are_bound_by_unpacking_the_weights_where_cuda_cores_are_few() -> None:
    # GEMM packing: unpacked once per 16 tokens; an A100's fp32 rate is 1/16 of its tensor rate
    m = CATALOG.models["llama-2-13b"]
    quantised = m.params_per_token - 2 * m.vocab_size * m.hidden_size  # untied embedding and head
    unpack_s = quantised / 16 * throughput.AWQ_UNPACK_FLOPS_PER_WEIGHT / 19.5e12
    gemm_a100 = _prefill_rate("autoawq", "a100-sxm4-40gb", "awq", 2048)
    assert gemm_a100 == pytest.approx(1 / unpack_s, rel=0.02)
    assert gemm_a100 < _prefill_rate("vllm", "a100-sxm4-40gb", "awq", 2048) / 2
    # on an RTX 4090 (fp32 half its tensor rate) the matmul still bounds the GEMM packing
    unpack_4090 = quantised / 16 * throughput.AWQ_UNPACK_FLOPS_PER_WEIGHT / 82.6e12
    assert _prefill_rate("autoawq", "rtx-4090", "awq", 2048) < 0.5 / unpack_4090
    # GEMV packing: unpacked once per token, so its prompt speed hardly grows with the prompt
    gemv = [_prefill_rate("autoawq", "rtx-4090", "awq", p, awq_version="gemv") for p in (512, 2048)]
    assert gemv[1] == pytest.approx(gemv[0], rel=0.05) and gemv[1] < 1000
    hf = [_prefill_rate("hf", "rtx-4090", "awq", 2048, awq_version=v) for v in ("gemv", "gemm")]
    assert hf[0] == hf[1]  # AutoAWQ's kernels only


def test_the_awq_packing_travels_from_the_request_to_the_prompt_speed() -> None:
    base = Request("llama-2-13b", "rtx-4090", engine="autoawq", precision="awq", context=2048)
    gemm, gemv = estimate(base), estimate(replace(base, awq_version="gemv"))
    assert gemv.prefill_tokens_per_s["typical"] < gemm.prefill_tokens_per_s["typical"] / 2
    assert gemv.time_to_first_token_s["typical"] > 2 * gemm.time_to_first_token_s["typical"]
    assert gemv.decode_tokens_per_s == gemm.decode_tokens_per_s
    with pytest.raises(InvalidInput, match="AWQ version"):
        estimate(replace(base, awq_version="marlin"))


def test_mlc_llm_reaches_the_generations_share_where_tensorrt_llm_pays_its_own_on_top() -> None:
    # a compiled runtime in a CUDA graph: GENERATION_MBU's batch-1 share once, not 0.85 x it
    gddr = CATALOG.gpus["a10g"]
    ratio = _decode("llama-2-7b", "mlc-llm", gpu=gddr) / _decode(
        "llama-2-7b", "tensorrt-llm", gpu=gddr
    )
    assert 1.05 < ratio < 1 / 0.85 + 0.01
    two = estimate(Request("llama-2-70b", "a10g", engine="mlc-llm", num_gpus=4, precision="fp16"))
    assert any("tensor-parallel all-reduces" in a for a in two.assumptions)


# mlc-ai/llm-perf-bench README (@d401356): MLC LLM decode, batch 1, one GPU or 2-8 A10Gs over PCIe
@pytest.mark.parametrize("row_id", ["L1816", "L1819", "L1823", "L1829", "L1834"])
def test_mlc_llm_perf_bench_rows_within_15_percent(row_id: str) -> None:
    case = cc.Scorer(CATALOG).case(ROWS[row_id])
    assert case.predicted == pytest.approx(case.measured, rel=0.15)


def test_llama_cpp_prompts_are_bound_by_board_power_in_fitted_generations() -> None:
    # RTX 6000 Ada and RTX 4090: the same AD102 chip, 364 vs 330 TFLOPS, 300 W vs 450 W; the
    # power bound puts the 4090 ahead, as llama-bench measures (llm.csv L1880, L1916: 9382 vs
    # 6663 tok/s at pp 512); the datasheet rate alone put the 6000 Ada ahead
    ada = CATALOG.gpus["rtx-6000-ada"]
    assert _prefill_rate("llama.cpp", "rtx-4090", "fp16", 512) > 1.2 * _prefill_rate(
        "llama.cpp", "rtx-6000-ada", "fp16", 512
    )
    # halving the board power halves a power-bound prompt (the attention traffic aside)
    half = replace(ada, tdp_w=(ada.tdp_w or 0) / 2)
    engine = engine_factors("llama.cpp")
    assert 1.8 < _llama_cpp_prompt_s(half, engine) / _llama_cpp_prompt_s(ada, engine) <= 2.0
    # a generation with no fitted rows (Turing) keeps the engine's share x the generation's factor
    unfitted = replace(engine, prefill_fitted=())
    t4, geforce = CATALOG.gpus["t4"], CATALOG.gpus["rtx-4090"]
    assert _llama_cpp_prompt_s(t4, engine) == _llama_cpp_prompt_s(t4, unfitted)
    assert _llama_cpp_prompt_s(geforce, engine) != _llama_cpp_prompt_s(geforce, unfitted)


def _llama_cpp_prompt_s(card: object, engine: object) -> float:
    return throughput.prefill_seconds(
        CATALOG.models["llama-2-13b"], card, get_precision("fp16"), engine,  # type: ignore[arg-type]
        prompt=512, batch=1,
    )  # fmt: skip


def test_llama_cpp_cuda_attention_moves_more_bytes_per_score_than_metal() -> None:
    # cuBLAS's fp16 K.Q result is converted to fp32 and soft-max's output back to fp16: 24 bytes a
    # score on CUDA against Metal's 16 (fp32 throughout)
    assert throughput.LLAMA_CPP_SCORE_BYTES == {"metal": 16.0, "cuda": 24.0}
    short, long = (_prefill_rate("llama.cpp", "rtx-4090", "fp16", n) for n in (512, 8192))
    # llm.csv L1880, L1883: 9382 -> 4744 tok/s from pp 512 to pp 8192 (0.51)
    assert 0.45 < long / short < 0.6


def test_blackwell_gddr7_cards_decode_at_a_gddr_share() -> None:
    catalog = load_catalog()

    def decode(gpu: str) -> float:
        request = Request("qwen2.5-14b", gpu, precision="q4_k_m", engine="llama.cpp", context=512)
        band = estimate(request, catalog).decode_tokens_per_s
        assert band is not None
        return float(band["typical"])

    # more bandwidth of the same kind of memory decodes faster: the RTX 5070 Ti (896 GB/s, GDDR7)
    # against the RTX 4070 Ti SUPER (672 GB/s, GDDR6X); the 5090 against the 4090
    assert decode("rtx-5070-ti") > decode("rtx-4070-ti-super")
    assert decode("rtx-5090") > 1.4 * decode("rtx-4090")
    llama_cpp = engine_factors("llama.cpp")
    gddr, hbm = (throughput.decode_mbu(llama_cpp, "Blackwell", hbm=k)[0] for k in (False, True))
    assert gddr > hbm
