"""Deciding-factor answers (advisor/agent/principles.py) and answer shapes (compose.py,
handlers.py): the verdict or the deciding factor first, then the datasheet or computed figures
that decide it. The real rules engine, catalog and calculator; questions worded apart from the
golden advice sets, which measure the same answers on questions this file never saw."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent import compose as c
from advisor.agent.understand import understand
from advisor.tools import call_tool


def _grounded(answer: Any) -> None:
    assert answer.grounding_rate == 1.0, [n.text for n in answer.numbers if n.provenance is None]


def _sheet(gpu: str) -> dict[str, Any]:
    return call_tool("gpu_specs", {"gpu": gpu})


def _head(answer: Any) -> str:
    return answer.text[:400]


def test_a_datasheet_figure_is_written_as_recorded() -> None:
    assert c.exact(330.3, "TFLOPS") == "330.3 TFLOPS"
    assert c.exact(1979, "TFLOPS") == "1,979 TFLOPS"
    assert c.exact(0.25) == "0.25"
    assert c.num(330.3) == "330"  # the reading form rounds; exact() does not


def test_nvlink_against_pcie_explains_poor_multi_gpu_scaling(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "how come tensor parallelism on 8 rtx 3090s scales so badly compared to 8 h100 sxm?"
    )
    head = _head(answer)
    assert head.startswith("**NVLink against PCIe"), head
    assert c.num(_sheet("h100-sxm5-80gb")["gpu_link_gbs"], "GB/s") in head
    assert "PCIe 4.0 x16" in head
    _grounded(answer)


def test_a_card_without_mig_is_told_so_with_a_card_that_has_it(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("could i split a 3090 with mig for two users on my team?")
    assert answer.text.startswith("**No: the NVIDIA GeForce RTX 3090 has no MIG.**")
    assert "7 instances" in answer.text
    _grounded(answer)


def test_isolated_tenants_pick_the_card_with_mig(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "l40s or a100 80gb for serving several customers that need isolation from each other?"
    )
    head = _head(answer)
    assert head.startswith("**The NVIDIA A100"), head
    assert "has no MIG" in head
    _grounded(answer)


def test_a_card_without_bf16_gives_the_fp16_and_fp32_rates(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("is bf16 supported on a v100 for training?")
    sheet = _sheet("v100-sxm2-32gb")
    assert answer.text.startswith("**No"), answer.text[:200]
    assert c.exact(sheet["fp32_tflops"], "TFLOPS") in answer.text
    _grounded(answer)


def test_a_card_without_fp8_names_its_fastest_format_and_the_reference_card(
    rules_advisor: Any,
) -> None:
    answer = rules_advisor.ask("can an a6000 run fp8 like the l40s can?")
    assert answer.text.startswith("**No"), answer.text[:200]
    assert "fastest tensor format is FP16/BF16" in answer.text
    assert c.exact(_sheet("l40s")["fp8_dense_tflops"], "TFLOPS") in answer.text
    _grounded(answer)


def test_int8_speed_names_the_int8_tensor_rate(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("is int8 any faster than fp16 on an l4?")
    assert c.exact(_sheet("l4")["int8_dense_tops"], "TOPS") in answer.text
    _grounded(answer)


def test_one_slow_training_card_is_set_against_its_architectures_flagship(
    rules_advisor: Any,
) -> None:
    answer = rules_advisor.ask("why is the h800 fine for serving but poor at training?")
    assert answer.text.startswith("**Compute"), answer.text[:200]
    answer = rules_advisor.ask("why would an l4 be bad for training big models?")
    head = _head(answer)
    assert head.startswith("**Compute") and "the Ada Lovelace card with the most compute" in head
    _grounded(answer)


def test_many_users_share_one_weight_read(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "how is it that with 30 concurrent requests on my a100 the total throughput climbs but "
        "per-request tokens/s hardly drops, serving mistral 7b?"
    )
    head = _head(answer)
    assert head.startswith("**Memory bandwidth"), head
    assert c.num(_sheet("a100-sxm4-40gb")["bandwidth_gbs"], "GB/s") in head or "2,039" in head
    _grounded(answer)


def test_prompt_processing_is_compute_bound_and_generation_bandwidth_bound(
    rules_advisor: Any,
) -> None:
    answer = rules_advisor.ask(
        "why is prompt processing on my 3090 so much faster than generating tokens with qwen2.5 7b?"
    )
    head = _head(answer)
    assert head.startswith("**Prompt processing is bound by compute"), head
    assert "936 GB/s" in head
    _grounded(answer)


def test_kv_cache_per_token_follows_the_kv_heads(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "how come the kv cache of llama 2 13b is way bigger per token than mistral 7b's?"
    )
    head = _head(answer)
    assert head.startswith("**Grouped-query attention (GQA)"), head
    assert "8 KV heads" in head and "40" in head
    _grounded(answer)


def test_a_mac_holds_what_a_card_cannot_by_unified_memory(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("why can a 64gb mac studio load a 70b at 4 bit when my 3090 cannot?")
    head = _head(answer)
    assert head.startswith("**Unified memory"), head
    assert "64 GB" in head and "24 GB" in head
    _grounded(answer)


def test_memory_is_parameters_times_bytes(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("how would i calculate the memory qwen2.5 14b needs?")
    head = _head(answer)
    assert head.startswith("**Parameters times bytes per parameter"), head
    assert "two bytes" in head and "half a byte" in head
    _grounded(answer)


def test_mixed_precision_needs_tensor_cores(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "why is fp16 training on my rtx 3080 so much faster than on my gtx 1080?"
    )
    head = _head(answer)
    assert head.startswith("**Tensor cores"), head
    assert c.exact(_sheet("gtx-1080")["fp32_tflops"], "TFLOPS") in head
    _grounded(answer)


def test_power_decides_a_datacenter_inference_card(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("why would a host pick the t4 over a 3090 given the power?")
    head = _head(answer)
    assert head.startswith("**Power"), head
    assert "70 W" in head and "350 W" in head
    _grounded(answer)


def test_sets_of_several_gpus_show_their_totals_and_the_pick_leads(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "for training a 3b model from scratch, 16x a100 sxm4 80gb or 8x h200 - which one?"
    )
    assert answer.text.startswith("**Pick the"), answer.text[:200]
    totals = call_tool("gpu_specs", {"gpu": "h200-sxm-141gb", "num_gpus": 8})["totals"]
    assert c.num(totals["fp16_bf16_dense_tflops"], "TFLOPS") in answer.text
    lines = [li for li in answer.text.splitlines() if li.strip()]
    assert len(lines) == len(set(lines))  # a note shared by every row is said once
    _grounded(answer)


def test_a_model_too_big_even_in_4_bit_says_so_with_its_weights(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("will mixtral 8x7b fit on a 12gb 3060?")
    assert answer.text.startswith("**No"), answer.text[:200]
    assert "Even in 4-bit" in answer.text and "(weights" in answer.text
    _grounded(answer)


def test_can_it_run_and_how_fast_leads_with_the_fit(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("can a 4090 run mistral 7b, and how fast does it go?")
    assert answer.text.startswith("**Yes, it fits. "), answer.text[:200]
    _grounded(answer)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("why does fsdp over 4 l40s scale worse than over 4 a100 sxm", "interconnect"),
        ("my 3080 trains with amp much faster than my 1080 ti, why?", "tensor_cores"),
        ("why is prefill so quick but decoding slow on a 4090 for llama 3 8b", "prefill_decode"),
        ("why choose an l4 over a 4090 if power is a concern?", "power_efficiency"),
    ],
)
def test_deciding_factor_questions_find_their_principle(
    question: str, kind: str, catalog: Any
) -> None:
    from advisor.agent import principles

    query = understand(question, catalog)
    found = principles.find(query, question.lower())
    assert found is not None and found.name == kind


@pytest.mark.parametrize(
    "question",
    [
        "how fast is prompt processing on a 4090 for llama 3 8b?",  # a speed, not a why
        "what is the power draw of an l4 and a 4090?",  # a spec
        "4x a100 vs 4x h100 for training a 7b",  # a comparison
    ],
)
def test_plain_questions_are_not_taken_by_the_new_principles(question: str, catalog: Any) -> None:
    from advisor.agent import principles

    query = understand(question, catalog)
    found = principles.find(query, question.lower())
    new = ("interconnect", "tensor_cores", "batching", "prefill_decode", "kv_heads",
           "unified_memory", "weights_rule", "power_efficiency")  # fmt: skip
    assert found is None or found.name not in new


def test_a_narrow_slot_states_its_rate_against_a_full_one(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "four 3060 12gb cards on pcie 3.0 x1 risers with vllm tensor parallel for a 13b awq, ok?"
    )
    rates = call_tool("pcie_links", {"gens": [3], "lanes": 1})["links"][0]["gbs"]
    assert f"PCIe 3.0 x1 slot moves {c.num(rates, 'GB/s')}" in answer.text, answer.text
    _grounded(answer)


def test_a_second_card_answer_names_the_weights_every_token_reads(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("would a second 3090 double my tok/s on mistral 7b in bf16?")
    assert "every token reads all" in answer.text.split("\n")[0], answer.text[:300]
    _grounded(answer)


def test_a_low_precision_without_its_tensor_cores_names_a_card_that_has_them(
    rules_advisor: Any,
) -> None:
    answer = rules_advisor.ask(
        "will fp8 make qwen2.5 14b faster on our a10s, like it does on the l40s?"
    )
    assert "has no FP8 tensor cores" in answer.text, answer.text[:300]
    assert f"{c.exact(_sheet('l40s')['fp8_dense_tflops'], 'TFLOPS')} FP8 dense" in answer.text
    _grounded(answer)


def test_a_sparse_figure_set_against_the_dense_one_is_explained(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "the h100 sxm page lists 1,979 tflops bf16 while papers use 989 for mfu, which is right?"
    )
    assert answer.text.startswith("**It is the sparse figure"), answer.text[:200]
    _grounded(answer)


def test_image_generation_rows_show_the_tensor_rate(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("l4 or a10 for serving flux dev images?")
    for gpu in ("l4", "a10"):
        assert c.num(_sheet(gpu)["fp16_bf16_dense_tflops"], "TFLOPS") in answer.text
    _grounded(answer)


def test_a_gpu_named_twice_is_one_row(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "we rent an h100 80gb for whisper large-v3 batch jobs. could an a10 replace the h100?"
    )
    rows = [li for li in answer.text.splitlines() if li.startswith("- **")]
    assert len(rows) == len(set(rows)), answer.text
    _grounded(answer)


def test_an_fp64_job_between_two_cards_picks_the_higher_fp64_rate(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("for a double precision fem code, a6000 or a used p100?")
    head = _head(answer)
    assert head.startswith("**The NVIDIA Tesla P100"), head
    assert c.num(_sheet("rtx-a6000")["fp64_tflops"], "TFLOPS") in head
    _grounded(answer)


def test_a_card_asked_about_on_a_budget_gives_its_purchase_price(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("rtx 3060 12gb on a tight budget for mistral 7b, does it fit?")
    assert answer.text.startswith("**Yes"), answer.text[:200]
    assert "$" in answer.text and "Source:" in answer.text
    _grounded(answer)


def test_a_duration_of_one_is_singular_in_hours_not_in_seconds() -> None:
    assert c.duration(1.0) == "1 hour"
    assert c.duration(1 / 3600) == "1 s"
    assert c.duration(1.5) == "1.50 hours"
