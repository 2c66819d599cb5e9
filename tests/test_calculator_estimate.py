"""estimate(): defaults stated, MoE handled, validation, solvers, cost."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from advisor.calculator import FORMULA_VERSION, Request, estimate, max_batch, max_context, min_gpus
from advisor.calculator.cost import (
    choose_price,
    cost_per_million_tokens_usd,
    job_cost_usd,
    monthly_cost_usd,
)
from advisor.catalog import load_catalog
from advisor.errors import AdvisorError, AmbiguousGPU, InvalidInput, UnknownGPU, UnknownModel

REQUIRED_KEYS = {
    "model", "gpu", "num_gpus", "fits", "memory_per_gpu_gb", "usable_memory_per_gpu_gb",
    "breakdown_gb", "decode_tokens_per_s", "prefill_tokens_per_s", "train_tokens_per_s",
    "assumptions",
}  # fmt: skip


def test_inference_estimate_carries_breakdown_assumptions_and_version() -> None:
    e = estimate(Request("llama-3-8b", "rtx-4090"))
    data = e.to_dict()
    assert set(data) >= REQUIRED_KEYS
    assert e.formula_version == FORMULA_VERSION
    assert sum(e.breakdown_gb.values()) == pytest.approx(e.memory_per_gpu_gb)
    assert e.headroom_gb == pytest.approx(e.usable_memory_per_gpu_gb - e.memory_per_gpu_gb)
    assert e.fits and e.train_tokens_per_s is None
    band = e.decode_tokens_per_s
    assert band and band["low"] < band["typical"] < band["high"]
    notes = " ".join(e.assumptions)
    for stated in ("engine not given", "precision not given", "context not given", "price:"):
        assert stated in notes


def test_defaults_follow_the_precision() -> None:
    assert estimate(Request("llama-3-8b", "rtx-4090", precision="q4_k_m")).engine == "llama.cpp"
    assert estimate(Request("llama-3-8b", "rtx-4090", precision="nf4")).engine == "hf"
    assert estimate(Request("llama-3-8b", "rtx-4090", workload="finetune-qlora")).precision == "nf4"


def test_moe_memory_uses_total_and_speed_uses_active_parameters() -> None:
    mixtral = estimate(Request("mixtral-8x7b", "h100-sxm5-80gb", precision="fp8", batch=1))
    dense_47b = estimate(Request("47b", "h100-sxm5-80gb", precision="fp8", batch=1))
    assert mixtral.breakdown_gb["weights"] == pytest.approx(46.7 * 1.0, rel=0.05)
    assert mixtral.decode_tokens_per_s and dense_47b.decode_tokens_per_s
    assert mixtral.decode_tokens_per_s["typical"] > 2 * dense_47b.decode_tokens_per_s["typical"]
    assert "MoE" in " ".join(mixtral.assumptions)


def test_training_estimate() -> None:
    e = estimate(
        Request("llama-3-8b", "a100-sxm4-80gb", workload="finetune-full", epochs=1,
                dataset_tokens=1e8)
    )  # fmt: skip
    assert not e.fits  # 8B full fine-tuning with AdamW does not fit one 80 GB card
    assert e.train_tokens_per_s and e.train_hours and e.cost
    assert e.train_hours["typical"] == pytest.approx(1e8 / e.train_tokens_per_s["typical"] / 3600)
    assert e.cost["usd_per_job"] == pytest.approx(
        e.cost["usd_per_gpu_hour"] * e.train_hours["typical"]
    )
    sharded = estimate(replace(Request("llama-3-8b", "a100-sxm4-80gb", workload="finetune-full"),
                               num_gpus=4))  # fmt: skip
    assert sharded.fits and "ZeRO-3" in " ".join(sharded.assumptions)


def test_tensor_and_pipeline_parallel_split_training_memory() -> None:
    base = Request("llama-3-70b", "h100-sxm5-80gb", workload="finetune-lora", num_gpus=8,
                   zero_stage=0)  # fmt: skip
    split = estimate(replace(base, tp=4, pp=2))
    assert split.breakdown_gb["weights"] == pytest.approx(
        estimate(base).breakdown_gb["weights"] / 8
    )
    assert "4-way tensor x 2-way pipeline" in " ".join(split.assumptions)
    # left to the default, several GPUs shard the frozen LoRA base too (ZeRO-3 / FSDP)
    sharded = estimate(replace(base, zero_stage=None))
    assert "ZeRO-3" in " ".join(sharded.assumptions)
    assert sharded.breakdown_gb["weights"] == pytest.approx(split.breakdown_gb["weights"])
    with pytest.raises(InvalidInput, match="needs at least"):
        estimate(replace(base, tp=8, pp=2))


def test_generic_model_sizes_work_and_say_so() -> None:
    e = estimate(Request("a 13B model", "a100-sxm4-40gb"))
    assert e.model == "generic-13b" and "assumed" in " ".join(e.assumptions)


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        (Request("llama-3-8b", "rtx 9999"), UnknownGPU),
        (Request("llama-9-8b", "l4"), UnknownModel),
        (Request("llama-3-8b", "A100"), AmbiguousGPU),
        (Request("llama-3-8b", "l4", workload="pretrain"), InvalidInput),
        (Request("llama-3-8b", "l4", batch=0), InvalidInput),
        (Request("llama-3-8b", "l4", batch=-3), InvalidInput),
        (Request("llama-3-8b", "l4", num_gpus=0), InvalidInput),
        (Request("llama-3-8b", "l4", num_gpus=10**6), InvalidInput),
        (Request("llama-3-8b", "l4", context=0), InvalidInput),
        (Request("llama-3-8b", "l4", context=10**9), InvalidInput),
        (Request("llama-3-8b", "l4", precision="fp3"), InvalidInput),
        (Request("llama-3-8b", "l4", engine="ollama-turbo"), InvalidInput),
        (Request("llama-3-8b", "l4", kv_cache="int2"), InvalidInput),
        (Request("llama-3-8b", "l4", workload="finetune-full", precision="awq"), InvalidInput),
        (Request("llama-3-8b", "l4", workload="finetune-qlora", precision="bf16"), InvalidInput),
        (Request("llama-3-8b", "l4", workload="finetune-lora", epochs=2), InvalidInput),
        (Request("llama-3-8b", "l4", workload="finetune-lora", train_tokens=-5), InvalidInput),
        (Request("llama-3-8b", "l4", workload="finetune-lora", optimizer="lion"), InvalidInput),
        (Request("llama-3-8b", "l4", utilisation=0), InvalidInput),
        (Request("llama-3-8b", "l4", lora_targets="everything"), InvalidInput),
        (Request("99999b", "l4"), InvalidInput),
    ],
)
def test_invalid_requests_raise_clear_errors(request_: Request, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        estimate(request_)
    assert isinstance(info.value, AdvisorError) and str(info.value)


def test_solvers() -> None:
    base = Request("llama-3-8b", "rtx-4090", precision="bf16", engine="vllm")
    longest = max_context(base)
    assert longest and longest.fits and longest.context == 8192  # capped at the trained context
    assert "trained context" in " ".join(longest.assumptions)
    widest = max_batch(replace(base, context=8192))
    assert widest and widest.fits
    assert not estimate(replace(base, context=8192, batch=widest.batch + 1)).fits
    fewest = min_gpus(Request("llama-3.1-405b", "h100-sxm5-80gb", precision="bf16"))
    assert fewest and fewest.fits and fewest.num_gpus == 16
    assert max_context(Request("llama-3.1-405b", "rtx-4090")) is None


def test_cost_formulas() -> None:
    assert job_cost_usd(2.0, 4, 10) == 80
    assert cost_per_million_tokens_usd(3.6, 1, 1000) == pytest.approx(1.0)
    assert monthly_cost_usd(1.0, 2, 0.5) == 730
    with pytest.raises(InvalidInput):
        job_cost_usd(-1, 1, 1)
    with pytest.raises(InvalidInput):
        monthly_cost_usd(1.0, 1, 1.5)


def test_price_choice_is_the_median_current_price_with_source_and_date() -> None:
    prices = load_catalog().prices_for("h100-sxm5-80gb")
    choice = choose_price(prices)
    assert choice and choice.low_usd <= choice.median_usd <= choice.high_usd
    assert choice.price.source and choice.price.date and choice.count >= 5
    assert choose_price([]) is None
    e = estimate(Request("llama-3-8b", "h100-sxm5-80gb"))
    assert e.cost and e.cost["price_source"] and e.cost["price_date"]
    # a card no rental row prices (the RTX 3060 has been priced since the F rows)
    none = estimate(Request("llama-3-8b", "rtx-3050-8gb", precision="q4_k_m"))
    assert none.cost is None and "no rental price" in none.assumptions[-1]


def test_every_catalog_gpu_has_a_generation_with_speed_factors() -> None:
    from advisor.calculator.factors import GENERATION_MBU, GENERATION_MFU, generation

    for gpu in load_catalog().gpus.values():
        gen = generation(gpu.architecture, gpu.memory_type)
        assert gen in GENERATION_MBU and gen in GENERATION_MFU, (gpu.id, gpu.architecture)


@pytest.mark.parametrize(
    ("architecture", "memory", "key"),
    [("Pascal", "GDDR5X", "Pascal"), ("RDNA 3.5", "LPDDR5X", "RDNA"), ("Apple M4", None, "Apple"),
     ("Xe2", "GDDR6", "Xe"), ("Ampere", "HBM2e", "Ampere-HBM"), ("Ampere", "GDDR6X", "Ampere"),
     ("Blackwell (GB20x, sm_120)", "GDDR7", "Blackwell"), ("CDNA 3", "HBM3", "CDNA")],
)  # fmt: skip
def test_an_architecture_maps_to_its_generation(architecture: str, memory: str, key: str) -> None:
    from advisor.calculator.factors import generation

    assert generation(architecture, memory) == key


def test_a_gpu_known_only_by_its_memory_still_gets_a_fit(rules_advisor: Any) -> None:
    from advisor.calculator.factors import generation

    generic = load_catalog().generic_gpu(8)
    assert generation(generic.architecture, generic.memory_type) == "Ampere"
    answer = rules_advisor.ask("will stable diffusion 1.5 run on an 8 gig card? fp16")
    assert answer.text.startswith("**Yes: Stable Diffusion 1.5 fits on one 8 GB GPU")


def test_an_architecture_with_no_factors_is_an_error_not_a_guess() -> None:
    from advisor.calculator.factors import generation

    with pytest.raises(InvalidInput, match="No speed factors for the 'Kepler' architecture"):
        generation("Kepler", "GDDR5")


def test_apple_decode_follows_the_published_llama_cpp_rows() -> None:
    # eval/calibration/llm.csv L1783, L1786: llama.cpp Metal, Llama 3 8B Q4_K_M, tg 512
    for gpu, measured in (("m1-max-64gb", 35.73), ("m2-ultra-192gb", 78.81)):
        e = estimate(Request(model="llama-3-8b", gpu=gpu, precision="q4_k_m", engine="llama.cpp",
                             context=512))  # fmt: skip
        assert e.decode_tokens_per_s is not None
        assert 0.6 < measured / e.decode_tokens_per_s["typical"] < 1.4, (gpu, e.decode_tokens_per_s)
