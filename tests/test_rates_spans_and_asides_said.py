"""Rates of use written short, spans asked later at the same rate, machines priced to buy, counts
of units, prices asked beside datasheet figures, quoted sparse figures, recordings an hour, and
words that only look like ML ("32 amp", "is it a joke"). Each phrasing is the test's own."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.tools import break_even, paced_time, purchase_prices


def _ask(advisor: Advisor, *turns: str) -> str:
    thread = f"t-{abs(hash(turns))}"
    answer = None
    for turn in turns:
        answer = advisor.ask(turn, thread_id=thread)
    assert answer is not None
    assert answer.grounding_rate == 1.0, [n.text for n in answer.numbers if not n.provenance]
    return answer.text


@pytest.mark.parametrize(
    ("said", "per_day"),
    [("about 14 hr/wk on it", 2.0), ("we use 73 h/mo", 73 / (730 / 24)), ("3 hrs/day", 3.0)],
)
def test_short_periods_are_rates_of_use(catalog: Catalog, said: str, per_day: float) -> None:
    q = understand(f"rent an a6000 at $0.80/hr or buy one at $4,500, {said}", catalog)
    assert q.use_hours_per_day == pytest.approx(per_day, rel=0.01)


def test_a_users_draw_prices_the_owners_electricity() -> None:
    mine = break_even(purchase_usd=6000, rent_usd_per_hour=1.0, usd_per_kwh=0.2, power_w=500)
    board = break_even(gpu="rtx-a6000", purchase_usd=6000, rent_usd_per_hour=1.0, usd_per_kwh=0.2)
    assert mine["power_usd_per_hour"] == pytest.approx(0.1)
    assert board["power_usd_per_hour"] == pytest.approx(0.3 * 0.2)
    assert mine["break_even_hours"] == pytest.approx(6000 / 0.9)


def test_a_break_even_takes_the_draw_said_of_the_whole_box(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "thinking of an L40S box for $11,000 vs renting at $1.40/hr. we'd use it 30 hr/wk, the "
        "whole machine pulls ~600 W, power is $0.20/kWh. when does buying win?",
    )
    assert "600 W, your draw" in text
    assert "12.5 hours" not in text  # no longer read as "30 hours" in all
    assert re.search(r"at 4\.29 hours a day", text), text


def test_a_later_span_keeps_the_weekly_rate(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "two H100s at $2.50 per GPU-hour, 20 hours per week for 4 weeks: total? and if the "
        "project runs 12 weeks instead?",
    )
    assert "$400" in text  # 2 x 2.50 x 80 h
    assert "$1,200" in text  # 2 x 2.50 x 240 h, not every hour of 12 weeks
    assert "2,016 h" not in text


def test_a_years_rent_beside_a_break_even(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "a rig for $3,000 or a cloud GPU at $0.50/h, about 10 hours a week. when does buying "
        "pay off? also what would a year of renting come to?",
    )
    assert "$261" in text  # 0.5 x 10/7 x 365
    assert "pays off after about 6,000 hours" in text


@pytest.mark.parametrize(
    ("question", "figure"),
    [
        ("what does an nvidia dgx spark cost these days?", "$3,999"),
        ("whats a mac studio with the m3 ultra 512gb go for, roughly what does it cost", "$9,500"),
    ],
)
def test_machines_no_one_rents_are_priced_to_buy(
    rules_advisor: Advisor, catalog: Catalog, question: str, figure: str
) -> None:
    assert understand(question, catalog).intent == "buy"
    assert figure in _ask(rules_advisor, question)


def test_a_rented_card_still_costs_its_hour(catalog: Catalog) -> None:
    assert understand("what does an H100 cost per hour on runpod?", catalog).intent == "cost"


def test_units_and_totals_are_counts(rules_advisor: Advisor, catalog: Catalog) -> None:
    q = understand("what would six units of the RTX 6000 Ada cost us?", catalog)
    assert q.gpus[0].count == 6 or q.num_gpus == 6
    text = _ask(rules_advisor, "price of a DGX Spark, and the total for three?")
    assert "3 x NVIDIA GB10" in text and "$11,997" in text


def test_a_price_range_makes_a_range_total() -> None:
    rows = purchase_prices(gpu="h100-sxm5-80gb", num_gpus=4)["prices"]
    ranged = [r for r in rows if r.get("usd_max")]
    assert ranged and all(r["total_usd_max"] == r["usd_max"] * 4 for r in ranged)


def test_the_launch_price_asked_beside_the_datasheet(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "3090 vs 4090: memory bandwidth and tdp of each, plus their launch msrp"
    )
    assert "936 GB/s" in text and "1,008 GB/s" in text
    assert "$1,499 launch list price (MSRP)" in text and "$1,599 launch list price" in text


def test_each_kind_of_price_is_shown() -> None:
    from advisor.agent import compose as c

    text = c.purchase(purchase_prices(gpu="rtx-5090"), "used")
    assert "launch list price (MSRP) $1,999" in text and "new $" in text


def test_a_cap_written_as_less_or_equal(catalog: Catalog) -> None:
    q = understand("which cloud gpu at <= $0.60/hr can fine-tune qwen2.5 7b with qlora?", catalog)
    assert q.budget is not None and q.budget.per == "hour" and q.budget.usd == 0.6


def test_an_adjective_is_no_whisper_size(catalog: Catalog) -> None:
    q = understand(
        "whisper medium for captions and a tiny vocoder model after it, $500 card?", catalog
    )
    assert [m.ids for m in q.models] == [("whisper-medium",)]
    q = understand("faster-whisper: small or base on a jetson orin nano?", catalog)
    assert {m.ids[0] for m in q.models} == {"whisper-small", "whisper-base"}


def test_a_context_said_loosely(catalog: Catalog) -> None:
    q = understand("mixtral 8x7b q4 on two 3090s, context is fine around 16k", catalog)
    assert q.context == 16384


def test_the_whisper_named_later_is_the_one_explained(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "what's the difference between fp16 or int8 for whisper? we use whisper base on a "
        "raspberry-pi-sized box. how big is whisper base in each?",
    )
    assert "large-v3 assumed" not in text
    assert "Whisper base" in text and "in int8" in text


def test_a_quoted_int8_figure_is_checked_as_sparse(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "the spec sheet for the L40S says 1,466 INT8 TOPS. is that a sparse number? what is "
        "the dense one?",
    )
    assert text.startswith("**It is the sparse figure")
    assert "733 TOPS" in text


def test_recordings_an_hour_at_the_users_pace(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "faster-whisper does about 40x realtime on our T4. the podcast episodes are 30 minutes "
        "long. how many episodes can it do per gpu hour?",
    )
    assert text.startswith("**About 80 recordings of 30 minutes each per hour of GPU time**")
    assert paced_time(seconds_per_item=90, items=0.5)["jobs_per_hour"] == pytest.approx(80)


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("what size breaker for a 40 amp run to the garage", "out_of_scope"),
        ("Sent from my Galaxy", "invalid"),
        ("write 3 tweets announcing our bakery's new sourdough", "out_of_scope"),
        ("what does q8 even mean", "explain"),
    ],
)
def test_what_is_ours_and_what_is_not(catalog: Catalog, question: str, intent: str) -> None:
    got = understand(question, catalog).intent
    assert got == intent or (intent == "explain" and got == "search"), got


def test_a_figure_of_speech_keeps_the_question(catalog: Catalog) -> None:
    q = understand("can a 3060 run sdxl at all, or is 12gb a joke these days?", catalog)
    assert q.intent == "fit" and q.models and q.gpus


def test_amp_set_in_code_is_still_amp(catalog: Catalog) -> None:
    q = understand("yolov8s `batch=32 amp=True` on a 4070: images/s?", catalog)
    assert q.precision == "fp16"


def test_ollama_misspelt(catalog: Catalog) -> None:
    q = understand("gemma3 4b in olama on my 1650, fast enough?", catalog)
    assert q.engine in ("ollama", "llama.cpp") and q.precision == "q4_k_m"


def test_how_many_watts_is_no_count_of_cards(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how many watts does a 4070 super pull, will my 650w psu do?")
    assert not text.startswith("**None")
    assert "220 W" in text


def test_a_foreign_budget_still_buys_a_card(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "мой бюджет 90 000 ₽ на видеокарту для llama 3.1 8b в q4_k_m через llama.cpp. какую "
        "видеокарту купить?",
    )
    assert "to buy" in text and "speed per dollar" in text
    assert "not filtered by it" in text


def test_a_purchase_with_no_budget_ranks_by_value(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "which gpu should i buy for mistral 7b in q4_k_m with llama.cpp?")
    assert "Ranked by speed per dollar" in text
    assert "within the budget" not in text


@pytest.mark.parametrize(
    ("written", "amount"),
    [
        ("a card for NZ$1,400", "1,400 NZD"),
        ("budget is AU$ 3,000", "3,000 AUD"),
        ("Ksh. 45,000 per month", "45,000 KES"),
        ("৳২,৫০,০০০ বাজেট", "250000 BDT"),  # noqa: RUF001
        ("about 2 lakh: ₹2,00,000", "200000 INR"),
    ],
)
def test_more_currencies_and_lakh_grouping(written: str, amount: str) -> None:
    from advisor.agent.understand import normalise

    assert amount in normalise(written), normalise(written)


def test_us_dollars_stay_dollars() -> None:
    from advisor.agent.understand import normalise

    assert "$2.10" in normalise("US$2,10 an hour") and "SGD" not in normalise("US$2,10 an hour")


def test_amounts_at_the_users_exchange_rate(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "should i buy a used 3090 for KSh 130,000 or rent one at $0.30 an hour? i'd use it "
        "about 4 hours a day. 1 USD is 130 KES here. ignore the electricity bill",
    )
    assert "130,000 KES is $1,000" in text
    assert "pays off after about 3,333 hours" in text


def test_amounts_in_two_currencies_with_no_rate_are_not_mixed(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "buy a 4080 super for ₦2,400,000 or rent one at $0.35/h?")
    assert "2,400,000 NGN is left out" in text
    assert "$2,400,000" not in text


def test_a_card_bought_off_a_friend_is_second_hand(catalog: Catalog) -> None:
    assert understand("picked up a 2080 ti from my cousin for $300, vram?", catalog).condition == (
        "used"
    )
    assert understand("bought a 4070 from the shop, bandwidth?", catalog).condition is None
