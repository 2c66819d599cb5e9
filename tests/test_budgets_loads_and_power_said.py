"""What the user said, kept: a purchase budget with no model named buys the most memory (it
decides which models run), a sum with no hour or month is spent on hardware, a speed wanted is
met, a monthly cloud budget holds the pick, a job's epochs stay in a cheaper option, a memory
size no variant of the card has is the card that has it, a price judged against the market, the
cards a power limit runs, the models a card runs, a request rate on two cards, what a larger
memory buys, the software side of an AMD card, a lighter recipe for an image model's LoRA, a
follow-up about the card just picked, the card's answer before the CPU's, other languages' words
for home and budget. Each phrasing is the test's own."""

from __future__ import annotations

import itertools
import re

from advisor.api import Advisor
from advisor.calculator.power import CPU_W, PLATFORM_W, PSU_LOAD_SHARE, cards_within
from advisor.tools import call_tool
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


def _gb_usable(text: str) -> float:
    found = re.search(r"the most memory the budget buys \(([\d.]+) GB usable\)", text)
    assert found, text
    return float(found.group(1))


def test_a_budget_with_no_model_buys_the_most_memory(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "got about 1,800 dollars for a graphics card to play with local "
                               "llms, recommendations?").text  # fmt: skip
    assert _head(text).startswith("**Pick "), text
    assert "up to " in _head(text), text  # the largest model it runs
    usable = _gb_usable(text)
    ranked = call_tool("recommend_gpus", {"model": "llama-3.1-8b", "precision": "q4_k_m",
                                          "max_purchase_usd": 1800, "max_gpus": 1,
                                          "vendor": "NVIDIA", "top": 40})["ranked"]  # fmt: skip
    assert usable >= max(r["usable_memory_per_gpu_gb"] for r in ranked) - 1.0, text
    assert "Ranked by memory in all, most first" in text


def test_most_memory_ranking_puts_the_largest_memory_first() -> None:
    result = call_tool("recommend_gpus", {"model": "llama-3.1-8b", "precision": "q4_k_m",
                                          "max_purchase_usd": 2500, "rank_by": "most_memory",
                                          "top": 10})  # fmt: skip
    totals = [r["num_gpus"] * r["usable_memory_per_gpu_gb"] for r in result["ranked"]]
    assert totals and all(a >= b - 2.0 for a, b in itertools.pairwise(totals)), totals
    assert "error" in call_tool("recommend_gpus", {"model": "llama-3.1-8b", "rank_by": "vram"})


def test_a_sum_with_no_span_is_spent_on_hardware(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what would it take to run deepseek r1 (the full 671b) on my own, "
                               "i can spend roughly $12k").text  # fmt: skip
    assert "to buy" in text and "/hour" not in _head(text), text


def test_a_speed_wanted_is_met_by_the_pick(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "least expensive rental setup for llama 3.1 70b that gives one "
                               "person 25 tokens/s").text  # fmt: skip
    found = re.search(r"about ([\d.,]+) tokens/s", _head(text))
    assert found and float(found.group(1).replace(",", "")) >= 25, text
    slow = call_tool("recommend_gpus", {"model": "llama-3.1-70b", "min_speed": 1e6, "top": 3})
    assert not slow["ranked"] and any("below the" in r["reason"] for r in slow["rejected"])


def test_a_monthly_cloud_budget_holds_the_pick(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "we'd like to host qwen2.5 7b for roughly 80 concurrent users "
                               "with vllm, $1,500 a month in the cloud, what gpu").text  # fmt: skip
    assert _head(text).startswith("**Yes:"), text
    month = re.search(r"costs about \$([\d,]+) a month", _head(text))
    assert month and float(month.group(1).replace(",", "")) <= 1500, text


def test_a_cheaper_option_keeps_the_jobs_epochs(rules_advisor: Advisor) -> None:
    _first, cheaper = _thread(
        rules_advisor,
        "cost of a lora fine-tune of llama 3.1 8b on an h100 in the cloud, 20M tokens of data, "
        "4 epochs?",
        "anything cheaper?",
    )
    job = re.search(r"\$([\d.,]+) for the whole job", _head(cheaper))
    assert job, cheaper
    row = re.search(r"about ([\d,]+) tokens/s, \$([\d.]+)/hour", _head(cheaper))
    assert row, cheaper
    speed, hourly = float(row.group(1).replace(",", "")), float(row.group(2))
    expected = 80e6 / speed / 3600 * hourly  # the 4 epochs of 20M tokens at that pace and price
    assert abs(float(job.group(1).replace(",", "")) - expected) <= 0.05 * expected, cheaper


def test_a_memory_size_no_variant_has_is_the_card_that_has_it(rules_advisor: Advisor) -> None:
    _first, other = _thread(rules_advisor, "does an h100 hold llama 3.1 70b in fp8?",
                            "what about the 141 gb one")  # fmt: skip
    assert "H200" in other and "The catalog has no H100" not in other, other


def test_a_rental_price_is_judged_when_asked_if_dear(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "paying 5.20/hr for an A100 80gb on some cloud, am i being "
                               "ripped off?").text  # fmt: skip
    assert _head(text).startswith("**Yes"), text
    assert "median" in _head(text)


def test_the_cards_a_power_limit_runs(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "our room gives the whole machine 1400 watts max, how many "
                               "4090s can go in it?").text  # fmt: skip
    n = (1400 - CPU_W - PLATFORM_W) // 450
    assert _head(text).startswith(f"**{n:.0f}:"), text
    assert "cap each card to about" in text
    within = cards_within(450, 1600, supply=True)
    assert within.limit_w == 1600 * PSU_LOAD_SHARE
    assert within.total_w <= within.limit_w < within.total_w + 450
    assert cards_within(450, 300).num_gpus == 0
    assert "within_limit" in call_tool("system_power", {"gpu": "rtx-4090", "limit_w": 1400})


def test_the_models_a_card_runs(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what models could my old 1080 ti even handle with llama.cpp").text
    assert "The largest that fits" in text and "4-bit (GGUF Q4_K_M)" in text, text


def test_a_request_rate_on_two_cards_is_the_load_on_each(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "l40s vs a100 80gb for serving mistral 7b at 30 requests per "
                               "second, which is the better deal").text  # fmt: skip
    assert _head(text).startswith("**Pick the "), text
    assert "requests a second" in _head(text) and "/hour" in _head(text), text
    assert text.count("copies of") + text.count("copy of") >= 2, text


def test_what_a_larger_memory_buys_beside_the_speed(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "5090 or 4090 for running llms, does the 32gb matter").text
    assert "What the memory buys" in text or text.count("runs up to") >= 2, text


def test_the_software_side_of_an_amd_card_when_asked(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "thinking of a radeon 7900 xtx for qwen 2.5 14b in ollama, is "
                               "rocm usable these days?").text  # fmt: skip
    assert "On the software, asked" in text and "ROCm" in text, text
    plain = _ask(rules_advisor, "will qwen 2.5 14b run on a radeon 7900 xtx").text
    assert "On the software, asked" not in plain


def test_an_image_models_lora_gets_a_lighter_recipe(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "lora training flux dev on a 16gb 4060 ti, possible?").text
    assert "With QLoRA (a 4-bit base) it fits" in text, text


def test_a_follow_up_about_the_card_just_picked(rules_advisor: Advisor) -> None:
    _pick, flux = _thread(rules_advisor, "best card under $900 for sdxl",
                          "would it also run flux dev?")  # fmt: skip
    assert "No GPU meets every constraint" not in flux, flux
    assert "fits" in flux and "fp8" in flux, flux


def test_the_cards_answer_leads_before_the_cpus(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "fine-tuning distilbert for sentiment on 50k reviews, do i even "
                               "need a gpu? or would a t4 on colab be fine").text  # fmt: skip
    assert not text.startswith("**No estimate on the CPU alone"), text
    assert "T4" in _head(text), text


def test_other_languages_words_for_home_and_budget(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Welche GPU für Llama 3 70B zu Hause? Budget 2500 Dollar").text
    assert "to buy" in _head(text) and "/hour" not in _head(text), text
    speed = _ask(rules_advisor, "用3090跑Llama-3-8B能有多少token每秒").text
    assert "tokens/s" in _head(text + speed) and "3090" in _head(speed), speed


def test_one_video_stream_at_a_frame_rate_is_judged(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "will an rtx 3060 do yolov8n detection live on a 4k webcam at "
                               "60 fps?").text  # fmt: skip
    assert _head(text).startswith(("**Yes: ", "**No: ")), text
    assert "60 frames a second" in _head(text) and "640 px" in _head(text), text


def test_a_served_request_is_sized_on_a_benchmark_prompt_unless_said() -> None:
    from advisor.calculator.llm import DEFAULT_CONTEXT, SERVING_PROMPT_TOKENS

    plain = call_tool("estimate", {"model": "llama-3.1-8b", "gpu": "l40s"})
    long = call_tool("estimate", {"model": "llama-3.1-8b", "gpu": "l40s",
                                  "context": DEFAULT_CONTEXT})  # fmt: skip
    assert plain["serving_prompt"] == SERVING_PROMPT_TOKENS < plain["context"]
    assert long["serving_prompt"] == DEFAULT_CONTEXT
    # the memory check keeps the longer prompt; the load of shorter ones is served faster
    assert plain["memory_per_gpu_gb"] == long["memory_per_gpu_gb"]
    assert plain["serving_tokens_per_s"]["typical"] > long["serving_tokens_per_s"]["typical"]


def test_engines_compared_each_in_its_own_four_bit_format(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "for a 32b model at 4.0bpw on my 4090, exllamav2 or llama.cpp "
                               "faster?").text  # fmt: skip
    assert "llama.cpp** (q4_k_m)" in text and "ExLlamaV2** (exl2-4bpw)" in text, text
    assert "llama.cpp** (gptq)" not in text


def test_a_serving_job_stated_with_a_pace_per_token_is_a_pick(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "hosting qwen2.5 32b on vllm for 16 concurrent users, need "
                               "below 40 ms per token").text  # fmt: skip
    assert _head(text).startswith("**Pick "), text
    each = re.search(r"about ([\d.]+) tokens/s each", _head(text))
    assert each and float(each.group(1)) >= 1000 / 40, text


def test_a_load_carries_to_another_card_and_its_monthly_bill(rules_advisor: Advisor) -> None:
    _first, other, bill = _thread(
        rules_advisor,
        "our api does ~60 requests/sec on llama 3.1 8b, 400 tokens in and 150 out; how many "
        "l40s cards?",
        "and with h100s instead?",
        "monthly cost of that?",
    )
    assert "for that load" in _head(other) and "H100" in _head(other), other
    count = re.search(r"for (\d+) x NVIDIA H100", _head(bill)) or re.search(
        r"for one NVIDIA H100", _head(bill))  # fmt: skip
    assert count and "a month" in _head(bill), bill


def test_a_memory_size_after_a_desk_card_is_the_desk_card_that_has_it(
    rules_advisor: Advisor,
) -> None:
    _first, other = _thread(rules_advisor, "can a 4090 do a full sdxl dreambooth?",
                            "what about the 48 gig one")  # fmt: skip
    assert "RTX 6000 Ada" in _head(other), other


def test_which_would_you_buy_is_a_new_pick_at_the_budget(rules_advisor: Advisor) -> None:
    *_, pick = _thread(rules_advisor, "is a 3090 enough to fine-tune sdxl fully (dreambooth)?",
                       "which would you get with $4,500 to spend")  # fmt: skip
    assert _head(pick).startswith("**Pick ") and "to buy" in _head(pick), pick


def test_two_cards_when_no_one_card_runs_it_at_a_reading_pace(rules_advisor: Advisor) -> None:
    pick, more = _thread(rules_advisor, "what card do i need to run qwen2.5 72b at home",
                         "and with 2 of them?")  # fmt: skip
    speed = re.search(r"about ([\d.]+) tokens/s", _head(pick))
    assert speed and float(speed.group(1)) >= 10, pick
    assert "q4_k_m" in _head(more), more  # the pick's format carried, not 16 bits


def test_engines_weighed_at_full_load_when_throughput_is_asked(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "sglang or vllm for mistral 7b on an a100 80gb, max throughput?"
    ).text
    assert "full-load serving throughput" in _head(text), text


def test_two_models_on_a_desk_card_are_weighed_in_four_bits(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "which of mixtral 8x7b or llama 3.3 70b will work on a 32gb "
                               "card").text  # fmt: skip
    assert "in q4_k_m (a 4-bit GGUF)" in _head(text), text


def test_a_training_job_on_two_cards_is_costed_on_each(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "l40s vs h100 for a full finetune of a 1b model on 5B tokens, "
                               "which is cheaper in the end").text  # fmt: skip
    assert "the job costs least there" in _head(text), text


def test_one_rented_card_against_two_bought(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "buy two 3090s for $1,600 or rent a single h100 at $2.20/hr, "
                               "about 4 hours a day, when does buying win?").text  # fmt: skip
    assert "Renting one" in text and "Renting as many" not in text, text


def test_the_cards_that_hold_a_bert_job_are_sized_at_its_sequence(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "memory needed to fine-tune bert-base, batch 16, sequences of "
                               "512 tokens, full fp32").text  # fmt: skip
    need = re.search(r"needs about ([\d.]+) GB", _head(text))
    assert need, text
    held = re.search(r"GPUs that hold it[^:]*: one ([^()]+?) \(", text)
    assert held, text
    from advisor.catalog import load_catalog

    gpus = [g for g in load_catalog().gpus.values() if g.name == held.group(1).strip()]
    assert gpus and gpus[0].memory_gb >= float(need.group(1)), text


def test_clouds_set_side_by_side_are_a_line_each(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "a100 80gb hourly on runpod vs lambda, who's cheaper").text
    assert _head(text).startswith("**Cheapest: "), text
    assert text.count("Newest price:") == 0 and text.count("\n- ") >= 2, text


def test_a_memory_size_asked_for_llms_in_general_is_what_it_runs(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "are 12 gigs enough for local llms or is that useless").text
    assert "The largest that fits" in text or "the largest that fits" in text, text


def test_a_datasheet_field_asked_beside_a_job_leads(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "whats the bandwidth on an l40s vs an a100 80gb and what does it "
                               "mean for llama 3 8b tokens/s").text  # fmt: skip
    assert _head(text).startswith("**Memory bandwidth: "), text


def test_the_cheapest_way_says_what_four_bits_cost(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "cheapest way to host qwen2.5 72b for myself at ~15 tokens/s, "
                               "renting").text  # fmt: skip
    # 16 bits on the pick: bf16, or fp16 on a card without bf16 (since the F price rows the
    # cheapest rent for a 72B in 16 bits is eight Turing TITAN RTX, which have no bf16)
    assert re.search(r"in (bf16|fp16)", _head(text)), text
    four = re.search(r"In 4-bit \(AWQ weights[^)]*\) it is cheaper: .+? at \$([\d.]+)/hour", text)
    pick = re.search(r"\$([\d.]+)/hour", _head(text))
    assert four and pick and float(four.group(1)) <= 0.8 * float(pick.group(1)), text


def test_a_full_image_model_fine_tune_gets_the_pure_bf16_recipe(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "full fine-tune of sdxl (not lora) on a 24gb 3090, doable?").text
    assert "With pure bf16 weights, 8-bit AdamW" in text, text
    plain = call_tool("estimate", {"model": "sdxl", "gpu": "rtx-3090", "workload": "finetune-full"})
    pure = call_tool("estimate", {"model": "sdxl", "gpu": "rtx-3090", "workload": "finetune-full",
                                  "mixed_precision": False})  # fmt: skip
    assert pure["memory_per_gpu_gb"] < plain["memory_per_gpu_gb"] - 8, (plain, pure)
