"""Counts written in Chinese numerals and images counted in Japanese; a year said in Italian or
Spanish; a power bill of capped cards and the rest of the box; a supply for capped cards and the
circuit it hangs on; data-parallel and sharded training as full training; short follow-ups in
other languages and after a budget's pick; serving compared at full load; explain answers for
quantisation formats, prefill against decode, speed at long context and the KV-cache formula;
"full precision" for an LLM; one card said twice in a rent-or-buy; a pre-training batch that
fits; a fine-tune's time with the leaner recipe that fits; the picked card rented. Each phrasing
is the test's own."""

from __future__ import annotations

import re

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import load_catalog
from advisor.tools import call_tool
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


def _read(text: str):  # type: ignore[no-untyped-def]
    return understand(text, load_catalog())


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("两块4090跑Llama 3 70B够不够？", "rtx-4090", 2),  # noqa: RUF001
        ("四张A100 80GB训练一个13B模型要多久", "a100", 4),
        ("双卡3090能推理Qwen2.5-32B吗", "rtx-3090", 2),
    ],
)
def test_a_count_in_chinese_numerals_counts_the_cards(text: str, gpu: str, count: int) -> None:
    q = _read(text)
    assert q.gpus and q.gpus[0].ids[0].startswith(gpu), q.gpus
    assert q.gpus[0].count == count


def test_images_counted_with_the_card_counter_are_images_not_cards() -> None:
    assert "20 images" in to_english("写真20枚でSDXLのLoRAを作りたい")
    assert "12 images" in to_english("12张图片训练LoRA")
    q = _read("RTX 3090でFluxのLoRA学習、写真は25枚、どのくらい時間がかかる？")  # noqa: RUF001
    assert all(g.count is None for g in q.gpus), q.gpus
    # one image's time is still a rate per image, not a count of images
    assert "per image" in to_english("SDXLは3090で1枚あたり何秒？")  # noqa: RUF001


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Quanto mi costa una 3090 in un anno, 6 ore al giorno, a 0,28 €/kWh?", 6 * 365),
        ("¿Cuánto gasta una 4080 durante un año a 3 horas al día con luz a 0,20 €/kWh?", 3 * 365),
    ],
)
def test_a_year_said_in_another_language_bills_a_year(text: str, hours: float) -> None:
    q = _read(text)
    assert q.hours == pytest.approx(hours), (q.hours, q.use_hours_per_day)


def test_a_bill_of_capped_cards_counts_the_cap_and_the_rest(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "monthly electricity for three 4090s running nonstop, each power-limited to 300 W, "
        "everything else pulls about 200W, at $0.25/kWh?",
    ).text
    head = _head(text)
    watts = 3 * 300 + 200
    assert "1,100 W" in head, text
    assert f"${watts / 1000 * 730 * 0.25:,.0f}" in head, text


def test_a_supply_for_capped_cards_sizes_the_cap(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "two 3090s capped at 250W each — how big a PSU?").text
    head = _head(text)
    assert "capped at 250 W each" in head, text
    assert "500 W for 2 x" in head, text
    assert not head.startswith("**No"), text  # the cap is not a supply too small


def test_the_circuit_said_beside_a_supply_is_answered(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "psu size for a 4090 plus a 14900K? also is my 20 amp 120 volt breaker ok"
    ).text
    assert "A 20 A circuit at 120 V carries 2,400 W, 1,920 W for a continuous load" in text, text


@pytest.mark.parametrize(
    "text",
    [
        "does nvlink help two 3090s when fine-tuning a 1.3B with plain DDP?",
        "FSDP fine-tuning of a 13B across 8 A100s: how long for 200M tokens?",
    ],
)
def test_data_parallel_or_sharded_training_with_no_method_is_full(text: str) -> None:
    q = _read(text)
    assert q.workload == "finetune-full", q.workload
    assert any("full training assumed" in n for n in q.notes), q.notes


def test_a_method_said_beside_fsdp_stays() -> None:
    assert _read("qlora on a 70b with fsdp over 2 3090s").workload == "finetune-qlora"


def test_a_spanish_follow_up_keeps_the_card(rules_advisor: Advisor) -> None:
    _first, second = _thread(
        rules_advisor,
        "Tengo una RTX A6000. ¿Me cabe un fine-tuning completo de un modelo de 1B?",
        "¿y con QLoRA uno de 70B?",
    )
    head = _head(second)
    assert "RTX A6000" in head and "70B" in head and "QLoRA" in head, second
    assert "articles do not cover" not in second


def test_a_model_size_after_a_budget_pick_ranks_again_for_it(rules_advisor: Advisor) -> None:
    _first, second = _thread(
        rules_advisor,
        "what's the best card for running llms locally if i can spend 600 bucks?",
        "mainly 14b models tbh",
    )
    assert "articles do not cover" not in second, second
    assert "14b" in _head(second).lower() and "to buy" in _head(second), second


def test_serving_prices_compare_throughput_at_full_load(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "for serving qwen2.5 72b to our users: h100 at $2.50/h or a100 80gb at $1.40/h, which "
        "gives cheaper tokens?",
    ).text
    head = _head(text)
    assert "serving throughput at full load" in head, text
    assert "cheaper per unit of work" in head, text


def test_a_concurrency_said_sizes_each_card_compared(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "we expect about 60 people chatting at once with llama 3.1 8b, 3k prompt + 500 out. "
        "is an L4 enough, or should it be an L40S?",
    ).text
    head = _head(text)
    assert "batch 60" in head or "all 60" in head, text
    assert "(bf16, batch 1)" not in head, text  # not one stream's speed


def test_output_tokens_after_a_plus_are_read() -> None:
    q = _read("1k prompt + 250 output tokens per request, 40 users on a 4090 with llama 8b")
    assert q.output_tokens == 250


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        ("awq vs gptq vs gguf — which should a 3090 box use?", "quant_formats"),
        ("my llama chat gets slower the longer the conversation goes, why?", "context_speed"),
        ("q4 or q8 for a 13b, and what do the names like Q5_K_M mean?", "quantization"),
    ],
)  # fmt: skip
def test_explain_topics_are_read(text: str, topic: str) -> None:
    assert _read(text).topic == topic


def test_quant_formats_are_explained_with_each_size(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "awq vs gptq vs gguf — which should a 3090 box use, and why?").text
    assert _head(text).startswith("**GPTQ, AWQ and GGUF"), text
    assert re.search(r"in GPTQ 4-bit, [\d.]+ GB in AWQ 4-bit, [\d.]+ GB in GGUF Q4_K_M", text)


def test_prefill_and_decode_are_explained_with_both_speeds(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "on an A100, why is prompt prefill compute-bound but decode bandwidth-bound?"
    ).text
    assert _head(text).startswith("**Prompt processing is bound by compute"), text
    assert "NVIDIA A100" in _head(text) and "prompt processing about" in text, text
    bare = _ask(rules_advisor, "what makes prefill compute-bound, decoding memory-bound?").text
    assert "as the question names no GPU" in bare, bare


def test_speed_at_long_context_is_explained_with_two_contexts(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "why does generation slow down with a longer context on a 3090?")
    text = text.text
    assert _head(text).startswith("**Each new token reads the KV cache"), text
    assert "RTX 3090" in text and "at 2,048 tokens" in text, text


def test_the_kv_cache_formula_is_worked_for_the_model(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "explain the kv cache formula with mistral 7b at 32k").text
    spec = call_tool("model_specs", {"model": "mistral-7b-v0.3"})
    assert (
        f"2 (a key and a value) x {spec['num_layers']} layers x {spec['num_kv_heads']} KV heads "
        f"x {spec['head_dim']} dimensions x 2 bytes (bf16) = "
        f"{spec['kv_cache_bytes_per_token_bf16']:,} bytes"
    ) in text, text


def test_full_precision_of_an_llm_run_is_its_16_bit_weights() -> None:
    assert _read("can qwen2.5 7b run at full precision on a 4090?").precision == "bf16"
    assert _read("full precision fine-tune of a 1B on a 4090").precision == "fp32"
    assert _read("qwen2.5 7b in fp32 on a 4090").precision == "fp32"


def test_one_card_said_twice_in_a_rent_or_buy_is_one_card() -> None:
    q = _read(
        "renting an A100 at $1.50/hr, 8 hrs a day for a year, or buying an A100 80GB for $15k?"
    )
    assert len(q.gpus) == 1 and q.intent == "rent_or_buy", (q.gpus, q.intent)
    versus = _read("A100 vs A100 80GB for a 34b, which?")
    assert len(versus.gpus) == 2


def test_pretraining_runs_at_the_largest_batch_that_fits(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "how long to pretrain a 150M model from scratch on 5B tokens with one 3090?"
    ).text
    assert "does not fit" not in _head(text), text
    assert "pre-training runs full batches" in text, text


def test_a_fine_tunes_time_uses_the_leaner_recipe_that_fits(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how long for 800 steps of a flux dev lora on a 4070 12gb?").text
    assert _head(text).startswith("**About"), text
    assert "The figures above are with QLoRA (a 4-bit base): as first assumed" in text, text


def test_the_picked_card_rented_prices_the_job(rules_advisor: Advisor) -> None:
    _first, second = _thread(
        rules_advisor,
        "which gpu for a lora of llama 3 8b on 50k samples of about 1k tokens?",
        "and renting that, what's the total?",
    )
    assert "for the job" in _head(second), second


def test_a_two_card_purchase_must_be_a_quarter_faster() -> None:
    ranked = call_tool(
        "recommend_gpus",
        {"model": "llama-2-13b", "workload": "inference", "precision": "q4_k_m",
         "max_purchase_usd": 500, "top": 8},
    )  # fmt: skip
    rows = ranked["ranked"]
    assert any(r["num_gpus"] > 1 for r in rows), rows  # a pair is within the budget
    for i, above in enumerate(rows):
        for below in rows[i + 1 :]:
            if above["num_gpus"] > below["num_gpus"]:  # more cards ranked above fewer
                assert above["speed"] >= below["speed"] * 1.25 / 1.05, (above, below)


def test_a_home_pick_with_no_budget_leaves_out_unpriced_datacenter_cards(
    rules_advisor: Advisor,
) -> None:
    text = _ask(rules_advisor, "1000W circuit in my flat, best setup for local LLMs under it?")
    text = text.text
    assert not re.search(r"H100|H200|B200|A100", _head(text)), text


def test_a_gddr_blackwell_card_draws_an_image_faster_than_ada_by_its_compute() -> None:
    result = call_tool("compare_workload", {"gpus": ["rtx-5090", "rtx-4090"], "model": "sdxl"})
    speed = {r["gpu"]: r["speed"] for r in result["gpus"]}
    sheets = {g: call_tool("gpu_specs", {"gpu": g}) for g in speed}
    compute = (sheets["rtx-5090"]["fp16_bf16_dense_tflops"]
               / sheets["rtx-4090"]["fp16_bf16_dense_tflops"])  # fmt: skip
    assert speed["rtx-5090"] / speed["rtx-4090"] == pytest.approx(compute, rel=0.1)


def test_the_most_users_are_held_to_the_pace_each_asked(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "max parallel sessions for qwen2.5 7b on one A100 80GB in vllm, keeping it below 40 ms "
        "per token?",
    ).text
    assert re.search(
        r"each stream gets about [\d.]+ tokens/s(: within|, slower than) your 40 ms", text
    )


def test_a_batch_advised_with_a_data_set_gives_its_epoch(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "what batch size can i use for resnet50 on a 4090, and how long is one epoch "
        "of imagenet at it?",
    ).text
    assert re.search(r"\*\*Use batch \d+\*\*.*One epoch of ImageNet-1k at that batch: about", text)


def test_a_speed_on_a_card_known_by_its_memory_is_paced_on_such_a_card(
    rules_advisor: Advisor,
) -> None:
    text = _ask(rules_advisor, "mistral 7b q8_0 with 6gb vram and 16gb ram, how many tok/s?").text
    assert "tokens/s" in _head(text), text
    assert "the most rented card of 6 GB" in text, text


def test_a_cpu_asked_beside_a_card_is_answered_for_the_cpu(rules_advisor: Advisor) -> None:
    _first, second = _thread(
        rules_advisor,
        "vram needed for whisper medium?",
        "and for large-v3? would it run on a cpu too?",
    )
    assert "On the CPU alone" in second, second


def test_preference_tuning_doubles_the_sequences_and_says_the_reference() -> None:
    lora = _read("ORPO or DPO on qwen2.5 7b with lora, batch size 4, 3090 ok?")
    assert lora.batch == 8
    assert any("adapters switched off" in n for n in lora.notes), lora.notes
    full = _read("full DPO of a 3B on an A100 80GB")
    assert full.batch == 2
    assert any("frozen reference copy" in n for n in full.notes), full.notes


def test_can_i_run_it_and_which_quant_is_one_quant_answer(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "qwen2.5 14b on my 3060 12gb? which quant would even work").text
    assert "the most faithful GGUF quant" in _head(text), text
    assert "On the card alone" not in text, text


def test_a_power_cap_for_training_is_answered_for_compute(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "if i cap my 4090 at 320w how much slower will lora training get?")
    head = _head(text.text)
    assert head.startswith("**Some, for training: it is bound by compute"), text.text
    assert "320 W is 0.71x" in head, text.text


def test_running_out_of_memory_at_long_context_is_the_kv_cache(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "my 7b in 4bit loads fine on 12gb but goes out of memory at 32k context, why"
    ).text
    assert _head(text).startswith("**The KV cache"), text


def test_a_sample_length_said_with_a_french_or_german_each_is_read() -> None:
    assert _read("1 Epoche mit 20k Beispielen à 1024 Tokens auf einer 4090?").context == 1024
    assert _read("un epoch de 5000 exemples à 256 tokens sur une 3060").context == 256


def test_a_format_said_keeps_its_fit_beside_the_quant_ladder(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "mistral 7b on a 3060 12gb in fp16? if not, which quant?").text
    assert "fp16" in _head(text) or "does not fit" in _head(text), text
    assert "the most faithful GGUF quant" in text, text


def test_the_fewest_of_each_says_which_set_rents_for_less(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "llama 3.1 405b in bf16: how many A100 80GB vs how many H200 do i need, and which one "
        "costs less?",
    ).text
    assert re.search(r"^Cheaper to rent: \d+ x .+ at \$[\d,.]+ an hour for the set", text, re.M)


def test_the_rent_and_the_cost_per_training_token_are_both_answered(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor,
        "L40S or A100 80GB: which rents for less per hour, and which trains cheaper per token?",
    ).text
    assert text.startswith("**Cheaper to rent:"), text
    assert "Cheaper per million tokens" in text, text


def test_a_card_asked_with_a_cards_price_as_budget_is_bought(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "qual placa de vídeo para treinar YOLO com um orçamento de 700 €?")
    assert "to buy" in _head(text.text) and "/hour" not in _head(text.text), text.text
    rented = _ask(rules_advisor, "which gpu should i rent to fine-tune llama 8b, budget $300").text
    assert "to buy" not in _head(rented), rented
