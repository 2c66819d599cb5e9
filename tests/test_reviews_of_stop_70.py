"""Stop 70, the reviewers' kinds: names and numbers read as said (a distill's size after the word
"distill", a letter o for a zero, a pace each user wants, users a day, cards per node), a run's
size said in a later sentence, the money asked for first (a million tokens' cost, a month's bill,
an hourly rate), serving sized for the pace asked, prices counted once per provider, and a
fine-tune judged with gradient checkpointing on when it fits neither way."""

from __future__ import annotations

import re

import pytest

from advisor.agent.guard import read_numbers
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.calculator.cost import choose_price
from advisor.catalog import Catalog
from advisor.specs import Price
from advisor.tools import TOOLS
from tests.asking import ask_grounded, head, thread_of


def test_a_distills_size_after_the_word_distill_is_that_distill(catalog: Catalog) -> None:
    query = understand("can i run deepseek r1 distill 32b on my macbook air m2 16gb", catalog)
    assert [m.ids for m in query.models] == [("deepseek-r1-distill-qwen-32b",)]
    query = understand("deepseek r1 distilled 14b on a 3060?", catalog)
    assert [m.ids for m in query.models] == [("deepseek-r1-distill-qwen-14b",)]


@pytest.mark.parametrize(("text", "card"), [("biggest model on a 4o90", "rtx-4090"),
                                            ("two 3o90s for llama 70b?", "rtx-3090"),
                                            ("is a 3o6o ti enough", "rtx-3060-ti")])  # fmt: skip
def test_a_letter_o_for_a_zero_in_a_cards_number(catalog: Catalog, text: str, card: str) -> None:
    assert any(card in g.ids for g in understand(text, catalog).gpus)


def test_a_pace_each_user_wants_is_no_total(catalog: Catalog) -> None:
    query = understand("i need to serve 200 users chatting at the same time with mistral 7b, "
                       "each wants ~20 tok/s. how many l40s", catalog)  # fmt: skip
    assert (query.concurrency, query.throughput_tok_s, query.needed_tok_s) == (200, 20.0, None)
    total = understand("we need 5000 tokens/sec aggregate for llama 8b, how many h100", catalog)
    assert total.needed_tok_s == 5000.0


def test_users_a_day_and_requests_each_are_no_users_at_once(catalog: Catalog) -> None:
    daily = "what's a good gpu for a small startup serving a 7b model to ~1000 daily users"
    assert understand(daily, catalog).concurrency is None
    each = "1000 daily active users, 20 requests each, llama 3 8b, which gpu"
    assert understand(each, catalog).concurrency is None
    assert understand("200 concurrent users on llama 3 8b", catalog).concurrency == 200


def test_cards_per_node_times_the_nodes(catalog: Catalog) -> None:
    query = understand("DeepSpeed ZeRO-3 full finetune of 70B on 2 nodes x 8 H100", catalog)
    assert query.gpus[0].count == 16 and query.nodes == 2


@pytest.mark.parametrize("text", ["kimi k2 how many h200", "deepseek r1 how many h100",
                                  "how many a100 for llama 405b"])  # fmt: skip
def test_how_many_of_a_card_said_once_asks_a_count(catalog: Catalog, text: str) -> None:
    query = understand(text, catalog)
    assert (query.intent, query.target) == ("solve", "min_gpus")


def test_a_runs_size_said_after_the_fit_is_timed(rules_advisor: Advisor, catalog: Catalog) -> None:
    text = "i wanna train a sdxl lora on my 3080 10gb, doable? how long for 3000 steps"
    assert understand(text, catalog).steps == 3000
    # (the run's time leads, "doable?" answered yes from its fit: stop 75)
    assert head(ask_grounded(rules_advisor, text).text).startswith("**Yes: about ")
    french = ("je veux entraîner un resnet50 sur 1 million d'images pendant 30 epochs sur une "
              "rtx 4080, combien de temps?")  # fmt: skip
    assert understand(french, catalog).dataset_samples == 1_000_000


def test_a_cost_per_thousand_images_is_no_resolution(catalog: Catalog) -> None:
    text = "images per hour with flux schnell on an H100, and cost per 1000 images?"
    assert understand(text, catalog).resolution is None
    assert understand("how long for a 768 image on sdxl", catalog).resolution == 768


def test_the_optimizers_memory_is_a_full_fine_tunes(rules_advisor: Advisor) -> None:
    text = "how much memory does the optimizer take for a 13B model with adam in fp32"
    answer = ask_grounded(rules_advisor, text).text
    assert "for full fine-tuning" in head(answer)
    assert "optimizer states 104 GB" in head(answer)  # 2 x 4 bytes x 13B


def test_a_request_to_tell_is_no_yes_or_no(rules_advisor: Advisor) -> None:
    text = "can u tell me how much vram for llama3 8b and also how fast on a 3090 and a 4090"
    lead = head(ask_grounded(rules_advisor, text).text)
    assert not lead.startswith(("**No", "**Yes")) and lead.startswith("**Pick the")


def test_a_pick_split_by_the_work_is_no_yes_or_no(rules_advisor: Advisor) -> None:
    lead = head(
        ask_grounded(rules_advisor, "should i swap my 3080 for a 4070 super? yes or no").text
    )
    assert lead.startswith("**It depends on the work: pick the NVIDIA GeForce RTX 3080 10GB")
    # each pick's deciding figure first: the 3080's 760 GB/s against the 4070 SUPER's 504
    assert "memory bandwidth 760 GB/s vs 504 GB/s" in lead


def test_the_cost_of_a_million_tokens_leads(rules_advisor: Advisor) -> None:
    text = ("how much would 1 million tokens cost to generate with llama 8b on a rented 4090? one "
            "number")  # fmt: skip
    lead = head(ask_grounded(rules_advisor, text).text)
    assert re.match(r"\*\*One NVIDIA GeForce RTX 4090: about \$[\d.]+ per million output tokens",
                    lead)  # fmt: skip


def test_a_million_tokens_at_one_stream_and_at_full_load(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "can a 3090 run llama 3 8b").text
    line = next(x for x in text.splitlines() if x.startswith("Renting one GPU"))
    one, loaded = re.search(r"\$([\d.]+) per million tokens at one stream, \$([\d.]+) at full "
                            r"load", line).groups()  # fmt: skip
    assert float(loaded) < float(one)


def test_an_hourly_rate_asked_is_a_price(rules_advisor: Advisor, catalog: Catalog) -> None:
    assert understand("what's the h100 nvl hourly rate", catalog).intent == "cost"
    lead = head(ask_grounded(rules_advisor, "what's the h100 nvl hourly rate").text)
    assert "per GPU-hour" in lead


def test_a_months_bill_with_no_load_is_the_cheapest_usable_setups(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how much per month to run llama 3.1 70b 24/7 on rented "
                        "gpus").text  # fmt: skip
    assert re.match(r"\*\*About \$[\d,]+ a month: .+ rented around the clock\.\*\*", text)
    assert "Ranked by hourly rental price" in text
    speed = re.search(r"about ([\d.]+) tokens/s", text.split("\n\n")[1])
    assert speed and float(speed.group(1)) >= 10  # a pace a reader keeps up with


def test_users_at_a_pace_each_are_served_by_copies(rules_advisor: Advisor) -> None:
    text = ("i need to serve 200 users chatting at the same time with mistral 7b, each wants ~20 "
            "tok/s. how many l40s")  # fmt: skip
    lead = head(ask_grounded(rules_advisor, text).text)
    found = re.match(r"\*\*(\d+) x NVIDIA L40S keep 20 tokens/s for each of 200 users at once\*\*"
                     r": (\d+) copies of (one|\d+ x) NVIDIA L40S .* about ([\d.]+) tokens/s each",
                     lead)  # fmt: skip
    assert found, lead
    assert float(found.group(4)) >= 20


def test_a_speed_asked_after_a_misfit_leads_with_the_way_it_runs(rules_advisor: Advisor) -> None:
    _, then = thread_of(rules_advisor, "can i run sdxl on a 3060 ti", "how many images per minute")
    # (the pace per minute asked, with its time per image beside it)
    assert re.match(r"\*\*About [\d.]+ images/min \([\d.]+ s per image\) in fp8 with model CPU "
                    r"offload; as it is, in fp16, it does not fit\.\*\*", then)  # fmt: skip


def test_an_image_model_no_card_holds_in_16_bits_is_picked_in_8(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what's the best gpu for comfyui with flux under $1000").text
    assert head(text).startswith("**Nothing within the budget holds it in fp16; in fp8")
    assert "in fp8" in text.split("\n\n")[1]


def test_a_mac_for_a_70b_is_sized_as_macs_run_it(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how much unified memory do i need on a mac for llama 3.3 "
                        "70b").text  # fmt: skip
    assert head(text).startswith("**Pick one Apple ") and "in q4_k_m" in head(text)


def test_the_cheapest_cloud_card_of_a_memory_is_rented(rules_advisor: Advisor) -> None:
    lead = head(ask_grounded(rules_advisor, "what is the cheapest cloud gpu with 80gb").text)
    assert lead.startswith("**Cheapest to rent with 80 GB or more: the ") and "per GPU-hour" in lead


def _price(provider: str, usd: float, date: str = "2026-01-01") -> Price:
    return Price(ref=f"{provider}-{usd}", gpu="rtx-4090", gpu_as_listed="RTX 4090",
                 form_factor="PCIe", form_factor_stated=True, provider=provider,
                 provider_class="gpu-cloud", offering="on-demand", usd_per_gpu_hour=usd,
                 usd_per_gpu_hour_max=None, instance=None, gpus_per_instance=None, region=None,
                 date=date, source="test", derivation="test", confidence="high",
                 use_for_estimates=True, latest=True, notes=None)  # fmt: skip


def test_each_provider_counts_once_in_the_median() -> None:
    # one cloud listing five regions at $5 would set the median alone; each provider once,
    # at its newest price (the cheapest of that day's), the median is the middle provider's
    rows = [_price("Big", 5.0), _price("Big", 5.0), _price("Big", 5.2), _price("Big", 4.8),
            _price("A", 1.0), _price("B", 2.0), _price("A", 3.0, "2025-01-01")]  # fmt: skip
    choice = choose_price(rows)
    assert choice is not None
    assert choice.median_usd == 2.0 and choice.low_usd == 1.0 and choice.high_usd == 5.2
    assert choice.count == 7


def test_the_price_lookup_and_an_estimates_cost_agree() -> None:
    for gpu in ("a100-pcie-80gb", "h100-nvl", "rtx-4090"):
        priced = TOOLS["prices"](gpu=gpu)
        estimate = TOOLS["estimate"](model="llama-3.1-8b", gpu=gpu)
        assert priced["summary_usd_per_gpu_hour"]["median"] == estimate["cost"]["usd_per_gpu_hour"]


def test_an_amount_written_with_its_currency_code_is_money() -> None:
    numbers = read_numbers("at INR 220,000 and at INR 85,000; GPU 0")
    assert [(n.value, n.family) for n in numbers[:2]] == [(220000.0, "money INR"),
                                                          (85000.0, "money INR")]  # fmt: skip


def test_a_price_ratio_in_rupees_is_grounded(rules_advisor: Advisor) -> None:
    text = "a 4090 costs ₹2,20,000 here, a 3090 used is ₹85,000. which for llm inference?"
    answer = ask_grounded(rules_advisor, text).text
    assert "2.59x the price" in head(answer) and "taken as $" not in answer


def test_a_fine_tune_that_fits_neither_way_is_judged_with_checkpointing() -> None:
    args = {"model": "llama-3-8b", "workload": "finetune-lora", "batch": 8, "context": 2048}
    small = TOOLS["estimate"](gpu="a100-sxm4-40gb", **args)
    large = TOOLS["estimate"](gpu="a100-sxm4-80gb", **args)
    assert not small["fits"] and large["fits"]
    assert small["memory_per_gpu_gb"] == pytest.approx(large["memory_per_gpu_gb"])


MOST_AT_ONCE = [
    "max concurrency for mixtral 8x7b on 2x a100 80gb at 8k context",
    "how many concurrent users can one h100 serve with llama 3 70b",
]


@pytest.mark.parametrize("text", MOST_AT_ONCE)
def test_the_most_users_at_once_is_the_largest_batch(catalog: Catalog, text: str) -> None:
    query = understand(text, catalog)
    assert (query.intent, query.target) == ("solve", "max_batch")


def test_a_model_published_in_4_bits_stays_in_them(rules_advisor: Advisor) -> None:
    _, then = thread_of(rules_advisor, "gpt-oss-120b on a single h100?", "and in 4 bit?")
    assert "(mxfp4," in head(then)
    assert "(q4_k_m," in head(ask_grounded(rules_advisor, "llama 3 8b on a 3060 in 4 bit").text)


def test_one_users_share_leads_when_asked(rules_advisor: Advisor) -> None:
    text = "how many tokens/sec can i get per user if 10 people use llama 3.1 8b on my 4090"
    lead = head(ask_grounded(rules_advisor, text).text)
    each, total = re.search(r"about ([\d.]+) tokens/s for each of 10 users at once \(([\d,]+) "
                            r"tokens/s in all\)", lead).groups()  # fmt: skip
    assert abs(float(each) * 10 - float(total.replace(",", ""))) < 1


def test_a_second_model_said_with_and_also_is_sized_beside_the_first(
    rules_advisor: Advisor,
) -> None:
    text = "will an rtx 4060 laptop run whisper large and also sdxl?"
    lead = head(ask_grounded(rules_advisor, text).text)
    assert lead.startswith("**No: Whisper large-v3 and Stable Diffusion XL 1.0 do not fit")
    assert "Alone, Whisper large-v3 fits; the other does not" in lead


def test_4_bits_on_a_server_card_are_awq_in_vllm(rules_advisor: Advisor) -> None:
    turns = thread_of(rules_advisor, "does qwen2.5 72b fit on an a100 80gb", "and in 4 bit?",
                      "how fast would that be")  # fmt: skip
    assert "awq, context 4,096, batch 1, vllm" in head(turns[2])
    qlora = ask_grounded(rules_advisor, "qlora llama 3 8b in 4 bit on an a100").text
    assert "(nf4," in head(qlora)


def test_each_cards_price_in_pounds_is_weighed(rules_advisor: Advisor, catalog: Catalog) -> None:
    text = "£500 for a used 3090 vs £1600 for a 4090, worth the extra for llms?"
    assert understand(text, catalog).gpu_purchase_prices == (("rtx-3090", 500.0),
                                                             ("rtx-4090", 1600.0))  # fmt: skip
    lead = head(ask_grounded(rules_advisor, text).text)
    assert lead.startswith("**Pick the NVIDIA GeForce RTX 3090: more speed for the money")
    assert "3.20x the price" in lead
    value = head(ask_grounded(rules_advisor, "a 4090 is €1800 and a 5090 is €2500 which is "
                              "better value for llm").text)  # fmt: skip
    assert value.startswith("**Pick the NVIDIA GeForce RTX 5090: more speed for the money")


def test_credits_in_pounds_buy_hours_at_the_rate_on_record(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "i have £400 of credits, how many h100 hours is that").text
    assert re.match(r"\*\*\d+ hours on one NVIDIA H100 SXM5 80GB\*\*: \$544 at the median", text)
    assert "Your budget of 400 GBP is taken as $544" in text


def test_how_many_of_a_memory_variant_then_is_a_count(rules_advisor: Advisor) -> None:
    _, then = thread_of(rules_advisor, "full finetune llama 3.1 8b, how much vram",
                        "how many a100 80gb then?")  # fmt: skip
    assert re.match(r"\*\*Llama-3.1-8B needs \d+ x NVIDIA A100 SXM4 80GB\*\* for full fine-tuning",
                    then)  # fmt: skip


def test_engines_in_their_own_4_bit_formats_and_a_tie_said(rules_advisor: Advisor) -> None:
    text = "exllamav2 vs llama.cpp for a 13b at 4bit on a 3090, which is faster"
    lead = head(ask_grounded(rules_advisor, text).text)
    assert "ExLlamaV2 (gptq)" in lead and "llama.cpp (q4_k_m)" in lead and "(nf4)" not in lead
    level = head(
        ask_grounded(rules_advisor, "sglang vs vllm throughput for llama 3.1 8b on h100").text
    )
    assert level.startswith("**They come out level on the full-load serving throughput**")


def test_a_macs_variants_share_one_software_note(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "whats the memory bandwidth of the m4 pro").text
    assert text.count("Apple GPU: unified memory") == 1
    assert "about 17.9 GB of the 24 GB" in text and "about 51.3 GB of the 64 GB" in text


def test_the_one_card_check_beside_the_fewest_of_each_is_no_second_verdict(
    rules_advisor: Advisor,
) -> None:
    text = ask_grounded(rules_advisor, "h100 sxm vs h200 for llama 405b fp8, how many of each").text
    assert "the fewest of each that do are 8 x NVIDIA H100 SXM5 80GB, 4 x NVIDIA H200" in text
    assert "**On one card of each: Llama-3.1-405B does not fit" in text
    assert "**No: Llama-3.1-405B" not in text


def test_electricity_with_no_tariff_is_its_energy(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "monthly cost to run a 4090 24/7 at home electricity").text
    # (since stop 72 with the bill at the assumed U.S. average tariff beside it)
    assert head(text).startswith("**About 328 kWh for 730 hours on one NVIDIA GeForce RTX 4090")
    assert "per GPU-hour" not in text  # no rental price in its place


def test_a_deadline_of_a_month_is_said_as_one(rules_advisor: Advisor) -> None:
    text = "how many H100s to pretrain a 7b model on 1T tokens in a month"
    assert "to finish within a month**" in head(ask_grounded(rules_advisor, text).text)
