"""Questions as people ask them about money and rates: a token load a day beside its prompt
length, a "cheaper?" follow-up, one card bought against another rented, the cards a monthly
budget pays for, whether a dearer card is worth its price, a sampler's it/s checked, the KV cache
asked by name, a job costed on the cloud named, and counts written with spaces in other
languages. Each phrasing here is the test's own."""

from __future__ import annotations

import math
import re

import pytest

from advisor.agent.handlers import ToolBox
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


def _head(advisor: Advisor, question: str) -> str:
    return advisor.ask(question).text.split("\n", 1)[0]


def _thread(advisor: Advisor, *turns: str) -> str:
    thread = None
    for turn in turns:
        answer = advisor.ask(turn, thread_id=thread)
        thread = answer.thread_id
    return answer.text


def test_tokens_a_day_beside_a_prompt_length_count_prompt_and_reply(catalog: Catalog) -> None:
    q = understand("roughly 30 million tokens per day through qwen2.5 14b, each prompt around "
                   "3k tokens, replies 500 -- what do we need?", catalog)  # fmt: skip
    assert q.output_tokens == 500 and q.context in (3000, 3072)
    assert q.rps == pytest.approx(30e6 / 86_400 / (q.context + 500))
    # said as generated tokens, the day's count is replies only
    gen = understand("we generate 5M output tokens/day with mistral 7b, prompts 1k tokens, "
                     "which gpu?", catalog)  # fmt: skip
    assert gen.rps == pytest.approx(5e6 / 86_400 / (gen.output_tokens or 256))


def test_a_day_of_input_tokens_is_neither_a_prompt_length_nor_a_model(catalog: Catalog) -> None:
    q = understand("classifying 90M input tokens a day with llama 3 8b, 1k-token prompts, "
                   "a couple of tokens out", catalog)  # fmt: skip
    assert q.context in (1000, 1024)
    assert [m.ids for m in q.models] == [("llama-3-8b",)]
    assert q.rps == pytest.approx(90e6 / 86_400 / q.context)


def test_a_load_with_both_lengths_said_does_not_ask_for_them(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("serve 4 requests a second of mistral 7b, 2k-token prompts and "
                             "replies of about 300 tokens: cheapest gpus?").text  # fmt: skip
    assert "replies of 300" in text and "say yours" not in text


def test_a_thousands_space_in_another_language_is_one_count(catalog: Catalog) -> None:
    q = understand("Wie lange dauert ein LoRA-Finetuning von Llama 3 8B auf einer A100 mit "
                   "25 000 Beispielen?", catalog)  # fmt: skip
    assert q.dataset_samples == 25_000


def test_samples_of_a_length_set_the_sequence_length(catalog: Catalog) -> None:
    q = understand("lora on mistral 7b, 8k examples of about 1k tokens each, one 4090: time?",
                   catalog)  # fmt: skip
    assert q.context in (1000, 1024)


def test_users_at_once_after_a_single_stream_are_a_batch_not_cards(
    rules_advisor: Advisor,
) -> None:
    text = _thread(rules_advisor, "qwen2.5 32b awq on one a100 80gb, tok/s for one user?",
                   "and for 32 simultaneous users?")  # fmt: skip
    head = text.split("\n", 1)[0]
    assert "32 x" not in head and "batch 32" in head


def test_cheaper_after_a_pick_for_a_job_ranks_by_price(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "which gpu to serve phi-3 mini?", "anything cheaper?")
    head = text.split("\n", 1)[0]
    first = rules_advisor.ask("which gpu to serve phi-3 mini?").text.split("\n", 1)[0]
    picked = re.search(r"\*\*Pick (.+?)\*\*", first)
    assert picked is not None
    # the same pick is not offered again as the cheaper one
    nothing = ("**Nothing cheaper fits", "**Nothing does this work for less")
    assert head.startswith(nothing) or picked.group(1) not in head


def test_cheaper_after_a_rental_price_lists_its_lower_offers(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "hourly price of an H100 PCIe?",
                   "50 hours of it, how much?", "is there a cheaper option?")  # fmt: skip
    assert text.startswith("**The same NVIDIA H100 PCIe 80GB for less: from $")
    assert "for 50 hours" in text.split("\n", 1)[0]
    assert text.count("\n- ") >= 1


def test_buying_one_card_against_renting_another_prices_the_other(
    rules_advisor: Advisor,
) -> None:
    text = rules_advisor.ask("we rent an L40S about 5 hours a day; would buying an RTX A6000 "
                             "be cheaper over time?").text  # fmt: skip
    head = text.split("\n", 1)[0]  # the verdict over a service life leads, naming both
    assert head.startswith("**Yes: buying NVIDIA RTX A6000 rather than renting one NVIDIA L40S"), (
        head
    )
    box = ToolBox()
    median = box.call("prices", {"gpu": "l40s"})["summary_usd_per_gpu_hour"]["median"]
    assert f"median ${median:.2f} per GPU-hour" in text
    assert "An hour is not the same work on both" in text


def test_a_monthly_budget_counts_the_cards_it_rents(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("finance gave us $30k/month for GPUs; we'd use them 10 hours a "
                             "day, Monday to Friday. How many A100 80GB is that?").text  # fmt: skip
    box = ToolBox()
    hours = 10 * 365.25 * 5 / 7 / 12
    median = box.call("prices", {"gpu": "a100-sxm4-80gb"})["summary_usd_per_gpu_hour"]["median"]
    assert text.startswith(f"**About {math.floor(30_000 / (median * hours))} x NVIDIA A100")
    assert "weekdays" in text


def test_worth_the_extra_money_weighs_speed_against_price(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "rtx 4080 or 4090 for running local llms -- is the 4090 worth "
                                "the price premium?")  # fmt: skip
    m = re.search(r"is ([\d.]+)x as fast for ([\d.]+)x the price", head)
    assert m is not None
    faster, dearer = float(m.group(1)), float(m.group(2))
    assert head.startswith("**Yes") == (faster >= dearer)


def test_a_samplers_pace_is_judged_against_the_estimate(rules_advisor: Advisor) -> None:
    slow = _head(rules_advisor, "SD 1.5 at 512px on my 3060 12gb runs 1.2 it/s, is that "
                                "normal?")  # fmt: skip
    assert slow.startswith("**Your 1.20 it/s is low")
    fast = _head(rules_advisor, "sd 1.5 on a 3060 12gb: 0.05 s/it, is that right?")
    assert "Your 20 it/s is above the range" in fast


def test_the_kv_cache_asked_by_name_leads(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("how big does the kv cache get for mistral 7b at a 32k "
                             "context?").text  # fmt: skip
    head = text.split("\n", 1)[0]
    kv = re.search(r"KV cache (?:of|takes about) ([\d.]+) GB", head)
    assert kv is not None and 3.5 < float(kv.group(1)) < 4.5  # 32 layers x 8 heads x 128 x 2 x 2
    text = rules_advisor.ask("llama 3 8b with 64k tokens of context: how much memory is the kv "
                             "cache?").text  # fmt: skip
    head, rest = text.split("\n", 1)
    kv = re.search(r"kv cache ([\d.]+) GB", rest)
    assert head.startswith("**The KV cache takes about") and kv and kv.group(1) in head


def test_an_image_model_too_big_in_16_bits_is_offered_in_fp8(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("will flux.1 dev run on an A10G?").text  # 24 GB, a cloud card
    assert "In fp8 (8-bit weights" in text and "it fits" in text


def test_a_job_on_a_named_cloud_is_costed_at_its_prices(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "what would a lora fine-tune of llama 3 8b on 50k samples "
                                "cost on a lambda H100?")  # fmt: skip
    assert "Lambda's median of" in head


def test_a_version_beside_a_size_is_not_joined_as_thousands(catalog: Catalog) -> None:
    q = understand("Wie viele H100 brauche ich für Llama 3 405B?", catalog)
    assert q.models and q.models[0].ids and "405b" in q.models[0].ids[0]


def test_how_much_alone_after_a_memory_question_is_no_price(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "mistral 7b kv cache at 32k tokens, how much?")
    assert "KV cache" in head and "Pick" not in head


def test_requests_as_a_peak_is_no_rate(catalog: Catalog) -> None:
    q = understand("500 requests as our busiest hour for llama 3 8b, which gpu?", catalog)
    assert q.rps is None


def test_renting_worth_the_extra_is_no_purchase_comparison(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("is renting an H100 worth the extra $ over an A100 on "
                             "vast?").text  # fmt: skip
    assert "To buy:" not in text


def test_a_monthly_budget_beside_another_count_is_no_card_count(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "with $3000 a month, how many images a day can an L40S "
                                "make with sdxl?")  # fmt: skip
    assert not re.match(r"\*\*About \d+ x", head)


def test_a_split_fills_the_card_with_layers_and_leaves_the_head_in_ram() -> None:
    from advisor.calculator import Request, estimate

    e = estimate(Request(model="llama-3-70b", gpu="rtx-3090", engine="llama.cpp",
                         precision="q4_k_m", offload="layers"))  # fmt: skip
    whole = estimate(Request(model="llama-3-70b", gpu="rtx-3090", engine="llama.cpp",
                             precision="q4_k_m"))  # fmt: skip
    layer = (whole.breakdown_gb["weights"] + whole.breakdown_gb["kv_cache"]) / 80
    # one more layer would not fit beside the ones there: the card is filled with layers
    assert e.memory_per_gpu_gb <= e.usable_memory_per_gpu_gb < e.memory_per_gpu_gb + layer


def test_seconds_a_step_times_the_steps_gives_an_images_time(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "sdxl on my 3060 is 2 s/it at 30 steps, how long for 60 "
                                "images?")  # fmt: skip
    assert "60 images at 60.0 s each" in head or "60 images at 60 s each" in head


def test_the_kv_cache_for_many_users_is_one_cache_each(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "qwen2.5 7b kv cache, 4k context, 32 users hitting it at the "
                                "same time?")  # fmt: skip
    one = re.search(r"a KV cache of ([\d.]+) GB for one sequence",
                    rules_advisor.ask("qwen2.5 7b kv cache, 4k context?").text)  # fmt: skip
    many = re.search(r"for 32 sequences at once: a KV cache of ([\d.]+) GB", head)
    assert one and many and float(many.group(1)) == pytest.approx(32 * float(one.group(1)),
                                                                  rel=0.05)  # fmt: skip


def test_an_image_model_on_a_desktop_card_is_sized_in_the_format_that_fits(
    rules_advisor: Advisor,
) -> None:
    head = _head(rules_advisor, "does flux.1 dev work on an rtx 3090 24gb?")
    assert head.startswith("**Yes") and "fp8" in head


def test_is_that_slow_asks_for_a_judgement(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "sd 1.5 512px on a 3060 12gb at 3 it/s, is it slow?")
    assert re.match(r"\*\*Your 3(?:\.00)? it/s is", head)
