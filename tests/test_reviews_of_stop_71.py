"""Stop 71, the reviewers' kinds: a pre-training cluster sized for its deadline (hundreds of GPUs
as whole nodes on InfiniBand, its GPU-hours), a model the catalog lacks sized by the size said,
long times said in days too, the unit asked (latency, steps a second, seconds, hours of audio an
hour), fine-tuning methods weighed side by side, tokens to generate priced, money asked in another
currency converted, a follow-up that keeps the money asked or sets a card against the one before,
and a handler's fault answered in words."""

from __future__ import annotations

import re

import pytest

from advisor.agent.turn import Turn, answer_by_rules
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.calculator import interconnect
from advisor.catalog import Catalog
from advisor.tools import TOOLS
from tests.asking import ask_grounded, head, thread_of


def _count(text: str) -> int:
    found = re.match(r"\*\*([\d,]+) x ", text)
    assert found, text[:300]
    return int(found.group(1).replace(",", ""))


def test_a_pretraining_deadline_sizes_a_cluster_of_whole_nodes(rules_advisor: Advisor) -> None:
    # 6 x 8.03e9 x 15e12 = 7.2e23 FLOP; at 25-40% of 989 TFLOPS, 500k-800k H100-hours over 720 h
    text = ask_grounded(rules_advisor, "how many gpus would we need to pretrain llama 3 8b on "
                        "15T tokens within 30 days, h100s").text  # fmt: skip
    count = _count(text)
    assert 600 <= count <= 1300 and count % 8 == 0, head(text)
    assert "within 30 days" in head(text) and "InfiniBand" in head(text), head(text)
    assert "GPU-hours" in head(text)


def test_a_count_asked_as_a_number_needed_is_a_count(catalog: Catalog) -> None:
    query = understand("number of a100s needed to pretrain a 7b model on 2T tokens in 2 weeks",
                       catalog)  # fmt: skip
    assert query.intent == "solve" and query.target == "min_gpus"


def test_a_cluster_of_boards_runs_over_a_port_per_gpu() -> None:
    inside = interconnect.Link("switch", 300.0, "NVLink/NVSwitch")
    over = interconnect.across_nodes(inside, 2, "ib-hdr", gpus_per_node=8)
    assert over.gbs == pytest.approx(200.0)  # eight 200 Gb/s ports: 200 GB/s out of a node
    pcie = interconnect.Link("pcie", 32.0, "PCIe 4.0 x16")
    assert interconnect.across_nodes(pcie, 2, "ib-hdr", gpus_per_node=8).gbs == 25.0  # one port


def test_gpu_hours_of_a_model_no_card_holds_lead(rules_advisor: Advisor) -> None:
    # 6 x 175e9 x 300e9 = 3.15e23 FLOP: 200k-450k H100-hours at 20-45% of the dense peak
    text = ask_grounded(rules_advisor, "how many h100 hours to pretrain a 175b model on 300b "
                        "tokens?").text  # fmt: skip
    first = head(text)
    found = re.search(r"About ([\d,]+) GPU-hours", first)
    assert found and 200_000 <= int(found.group(1).replace(",", "")) <= 450_000, first


def test_a_sized_name_the_catalog_lacks_is_a_generic_model_of_that_size(catalog: Catalog) -> None:
    query = understand("what would it take to train gpt-3 175b from scratch", catalog)
    assert query.models[0].size_b == 175.0 and not query.models[0].suggestions


def test_a_full_fine_tune_said_in_brackets(catalog: Catalog) -> None:
    query = understand("fine-tune qwen2.5 14b (full) on 1B tokens, how many a100s", catalog)
    assert query.workload == "finetune-full"


def test_nodes_of_eight_with_a_full_ft_count_every_card(catalog: Catalog) -> None:
    query = understand("3 nodes of 8x h100, full-ft of a 70b: how long for 2B tokens", catalog)
    assert query.gpus[0].count == 24 and query.nodes == 3


def test_a_power_limit_on_every_card_is_no_supply(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "which psu do i need for 3x rtx 4090 if i power limit "
                        "them to 300w").text  # fmt: skip
    assert head(text).startswith("**About") and "capped at 300 W each" in head(text), head(text)


def test_a_models_size_is_no_price(catalog: Catalog) -> None:
    query = understand("rtx 6000 ada or rtx a6000 for 70b inference, is it worth the price?",
                       catalog)  # fmt: skip
    assert query.purchase_usd is None


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("bert-base inference latency on an l4, batch 1", r"\*\*About [\d.]+ ms per request\*\*"),
        ("training llama 3 8b lora on one h100 at batch 4 seq 4096: how many steps per second?",
         r"\*\*About [\d.]+ steps/s \([\d.]+ s per step\)\*\*"),
        ("how many seconds to make 500 sdxl images on an l40s", r"\*\*About [\d,]+ s\*\*"),
        ("how many hours of audio per hour can an a10g transcribe with whisper large v3",
         r"\*\*About [\d.]+ hours of audio per hour\*\*"),
    ],
)  # fmt: skip
def test_the_unit_asked_leads(rules_advisor: Advisor, question: str, pattern: str) -> None:
    text = ask_grounded(rules_advisor, question).text
    assert re.match(pattern, text), head(text)


def test_a_long_wall_time_says_its_days() -> None:
    from advisor.agent import compose as c

    assert c.duration(100.0) == "100 hours (4.17 days)" and c.duration(30.0) == "30 hours"


def test_fine_tuning_methods_weighed_side_by_side(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qlora vs full fine-tune of mistral 7b, how much vram "
                        "each?").text  # fmt: skip
    first = head(text)
    assert "QLoRA fine-tuning about" in first and "full fine-tuning about" in first, first
    sizes = [float(x) for x in re.findall(r"about ([\d.]+) GB", first)]
    assert len(sizes) == 2 and sizes[0] < sizes[1] / 4, first  # 4-bit base vs 16 bytes a param


def test_tokens_to_generate_are_priced_at_full_load(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what does it cost to generate 3 billion tokens with "
                        "qwen2.5 7b on rented a100s?").text  # fmt: skip
    first = head(text)
    assert first.startswith("**About $") and "3 billion tokens" in first, first
    assert "One request at a time" in text


def test_a_price_asked_in_another_currency_leads_in_it(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "what does a new rtx 4090 cost", "and in pounds?")
    assert answers[-1].startswith("**About £"), head(answers[-1])


def test_a_follow_up_keeps_the_money_asked(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "cost per million tokens for llama 3.1 8b on an a100 at "
                        "full load", "and on an l40s?")  # fmt: skip
    assert "per million" in head(answers[-1]) and "L40S" in head(answers[-1]), head(answers[-1])


def test_a_card_set_against_the_one_before(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "is a used 3090 for 650 dollars a good buy",
                        "vs a new 4070 super?")  # fmt: skip
    assert "3090" in head(answers[-1]) and "4070 SUPER" in head(answers[-1]), head(answers[-1])


def test_a_floor_on_speed_said_with_a_plus(catalog: Catalog) -> None:
    query = understand("cheapest gpu to buy for mistral 7b at 40+ tok/s", catalog)
    assert query.needed_tok_s == 40.0


def test_a_handlers_fault_is_answered_in_words(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.agent import rules
    from advisor.agent.toolbox import ToolBox

    def broken(*_args: object) -> None:
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(rules, "answer", broken)
    turn = Turn(box=ToolBox())
    turn.query = understand("is a 3090 good for llama 8b", catalog)
    answer_by_rules(turn)
    assert turn.draft is not None and "internal error (ZeroDivisionError)" in turn.draft.text
    assert "step_rate" in TOOLS


def test_a_layer_split_fills_each_card_by_its_room() -> None:
    from advisor.calculator.mixed import SplitCard, layer_split

    band = {"low": 10.0, "typical": 20.0, "high": 30.0}
    slow = {"low": 5.0, "typical": 10.0, "high": 15.0}
    split = layer_split([SplitCard("a", 24.0, 1.0, band), SplitCard("b", 12.0, 1.0, slow)], 30.0)
    assert split.fits and split.shares == pytest.approx((23 / 34, 11 / 34))
    # a step is each card's share at its own pace: 1 / (23/34 / 20 + 11/34 / 10)
    assert split.decode["typical"] == pytest.approx(1 / (23 / 34 / 20 + 11 / 34 / 10))
    assert not layer_split([SplitCard("a", 24.0, 1.0, band), SplitCard("b", 12.0, 1.0, slow)],
                           35.0).fits  # fmt: skip


def test_two_different_cards_together_hold_what_neither_does(rules_advisor: Advisor) -> None:
    # 70B at Q4_K_M: about 42.8 GB of weights, more than one 24 GB card, less than two
    text = ask_grounded(rules_advisor, "could i run llama 3.1 70b in q4 on my 4090 plus a "
                        "3090 in one rig? speed?").text  # fmt: skip
    # (the pace asked leads since stop 72)
    assert "Llama-3.1-70B across the" in head(text) and "it fits" in head(text), head(text)
    speed = re.search(r"(?i)about ([\d.]+) tokens/s", text)
    assert speed and 12 <= float(speed.group(1)) <= 25, text  # ~0.7 x 936 GB/s / 42.8 GB ~ 15-20


def test_engines_weighed_in_the_formats_said_for_each(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "exllamav2 at 6bpw or llama.cpp at q6_k for mistral 7b "
                        "on a 3090, which decodes faster?").text  # fmt: skip
    assert "(exl2-6bpw)" in head(text) and "(q6_k)" in head(text), head(text)
    assert "the ones you named" in text


def test_a_prefill_time_asked_leads_with_the_time(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "prefill time for a 60k token transcript with qwen2.5 "
                        "7b on an l4?").text  # fmt: skip
    assert re.match(r"\*\*About [\d.]+ (?:s|minutes) to read the 61,440-token prompt\*\*", text), (
        head(text)
    )


def test_a_cards_nodes_asked_are_whole_nodes(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qlora of llama 3.1 405b, how many h100 nodes do we "
                        "need?").text  # fmt: skip
    assert re.match(r"\*\*\d+ nodes? of 8\*\*", text), head(text)


def test_an_instance_priced_by_another_ones_rows_says_so(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how much is a g6e.2xlarge a month on aws").text
    assert "not of the g6e.2xlarge asked about" in text, text


def test_a_yolo_run_on_custom_images_is_ultralytics_default_epochs(catalog: Catalog) -> None:
    query = understand("how long would yolov8s take to train on 12k of my own images on a 4070",
                       catalog)  # fmt: skip
    assert query.epochs == 100.0 and any("Ultralytics' default" in n for n in query.notes)


def test_cards_ram_short_of_an_offload_is_said(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "zero-3 with cpu offload, full fine-tune a 13b on one "
                        "3090 with 64gb of ram, possible?").text  # fmt: skip
    assert "Your 64 GB of RAM is short as well" in text, text[:600]


def test_hours_a_weekend_over_a_year_are_the_hours_of_use(catalog: Catalog) -> None:
    query = understand("buy or rent a 3090 if i game-train on it 12h per weekend for two years",
                       catalog)  # fmt: skip
    assert query.hours == pytest.approx(12 * 730.0 * 24 / 168, rel=0.02)  # 104 weekends x 12


def test_what_the_articles_say_is_quoted(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what do the articles say about the rtx a6000 for "
                        "training?").text  # fmt: skip
    assert "quoted from the cited articles" in text, text


def test_a_card_name_ends_before_the_article(catalog: Catalog) -> None:
    query = understand("is the h100 the best card for pretraining?", catalog)
    assert [g.text for g in query.gpus] == ["h100"] and query.intent == "advice"


def test_rent_or_buy_with_no_card_weighs_a_card_picked_for_the_job(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "rent or buy, for running mistral 7b at home").text
    assert "pays off after about" in text and "No card named: the NVIDIA" in text, text[:400]


@pytest.mark.parametrize(
    ("question", "code", "amount"),
    [
        ("budget 1.5 lakh rupees, which gpu for mistral 7b", "INR", 150_000.0),
        ("20万円で買えるGPUでllama 3 8bを動かしたい", "JPY", 200_000.0),
        ("budget 10k AUD for a home llm box, which gpu", "AUD", 10_000.0),
        ("gpu for qwen 14b under ¥300,000", "JPY", 300_000.0),
    ],
)  # fmt: skip
def test_budgets_in_other_money(catalog: Catalog, question: str, code: str, amount: float) -> None:
    query = understand(question, catalog)
    assert query.currency.strip() == code and query.budget is not None
    assert query.budget.usd == pytest.approx(amount)


def test_a_tariff_said_as_power_is_no_budget(catalog: Catalog) -> None:
    query = understand("rent or buy a 4090 for flux, power costs 0.15 usd", catalog)
    assert query.usd_per_kwh == 0.15 and query.budget is None
    assert understand("what's that at 0.35 CHF/kWh", catalog).usd_per_kwh == 0.35


def test_an_image_size_is_no_count_of_images(catalog: Catalog) -> None:
    query = understand("sdxl 1024x1024 images, 2 million of them, cost on an l40s?", catalog)
    assert query.images != 1024.0 and query.resolution == 1024


def test_a_deadlines_cluster_is_the_one_billed(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "how many h100s to pretrain a 3b on 600B tokens in 2 "
                        "weeks", "and what would that cost?")  # fmt: skip
    first = re.match(r"\*\*([\d,]+) x ", answers[0])
    assert first, head(answers[0])
    assert f"on {first.group(1)} x NVIDIA H100" in head(answers[1]), head(answers[1])


def test_users_served_cheapest_keep_a_readable_pace(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "cheapest cloud setup to serve qwen2.5 7b to 40 "
                        "people at once").text  # fmt: skip
    each = re.search(r"about ([\d.]+) tokens/s each", head(text))
    assert each and float(each.group(1)) >= 10, head(text)


def test_a_count_asked_with_its_month_leads_with_the_bill(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "to serve llama 3.1 70b to 150 users at once, how many "
                        "h100s do we need and what is that per month?").text  # fmt: skip
    assert re.match(r"\*\*About \$[\d,]+ a month on \d+ x NVIDIA H100", text), head(text)


def test_a_per_token_budget_gets_a_verdict(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we need under 50ms per token for mistral 7b, does an "
                        "l4 manage it?").text  # fmt: skip
    assert re.match(
        r"\*\*(?:Yes|No): about [\d.]+ ms per token, (?:within|over) your 50 ms", text
    ), head(text)


def test_images_a_minute_asked_lead(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "sdxl on an rtx 4090, how many images per minute?").text
    assert re.match(r"\*\*(?:About|Images per minute: about) [\d.]+ images/min", text), head(text)
    german = ask_grounded(rules_advisor, "Flux Schnell auf einer RTX 4080 Super: wie viele Bilder "
                          "pro Minute?").text  # fmt: skip
    assert re.match(r"\*\*(?:About|Images per minute: about) [\d.]+ images/min", german), head(
        german
    )
