"""Prices, paces and shares said in ways the parser once missed: a card's price after "at" beside
a rental rate, amounts in lakhs, a price "per GPU and hour", GPU-hours of use a week, a bill
split between people, a count asked of a measured rate over a month, steps timed in hours and
minutes, an image model's image timed, an instance's hourly price said in the next message, a
service's monthly fee said before the question, and "leave electricity out" said after the
question or in the turn before."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.tools import paced_count, rental_cost
from tests.asking import ask_grounded, thread_of


def test_a_cards_price_after_at_is_its_price_to_buy(catalog: Catalog) -> None:
    q = understand("5090 at $2,600 or rent one for $0.70/hr, when does owning win?", catalog)
    assert q.intent == "rent_or_buy"
    assert q.purchase_usd == 2600 and q.user_price_usd_per_hour == pytest.approx(0.70)
    assert q.budget is None  # the card's price, no limit to spend within


def test_a_new_rate_keeps_the_price_and_the_power_left_out(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "Thinking of a 4090 at $1,900 instead of renting at $0.38/h. Break-even? Skip electricity.",
        "oops, the rental is $0.50/h actually",
    )[-1]
    assert "$1,900 to buy (given by the user)" in text
    assert "3,800 hours" in text  # 1,900 / 0.50
    assert "electricity left out" in text


def test_another_card_after_a_break_even_is_the_same_question(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "4090 at $1,900 vs renting at $0.38/h, break-even? ignore power",
        "and what about a 3090?",
    )[-1]
    assert text.startswith("**Buying NVIDIA GeForce RTX 3090 pays off after")
    assert "$3,090" not in text  # the card's number is no amount of money


@pytest.mark.parametrize(
    ("said", "amount"), [("1.8 lakh", 180_000), ("2 lakhs", 200_000), ("1,5 crore", 15_000_000)]
)
def test_lakhs_and_crores_are_numbers(catalog: Catalog, said: str, amount: float) -> None:
    q = understand(f"buying a server for ₹{said}, or renting at ₹300/hour?", catalog)
    assert q.purchase_usd == amount, q.english


def test_a_hinglish_rent_or_buy_uses_the_lakh_price(rules_advisor: Advisor) -> None:
    question = ("4090 2 lakh mein buy karu ya ₹40/hour pe rent? kitne ghante baad buying sasta "
                "padega? bijli ignore karo")  # fmt: skip
    text = thread_of(rules_advisor, question)[-1]
    assert "5,000 hours" in text  # 200,000 / 40
    assert "INR 200,000 to buy (given by the user)" in text


def test_a_price_per_gpu_and_hour(catalog: Catalog) -> None:
    q = understand("Der Anbieter nimmt 2,10 € pro GPU und Stunde, 4 GPUs, 50 Stunden.", catalog)
    assert q.user_price_usd_per_hour == pytest.approx(2.10)
    assert q.currency.strip() == "€"


def test_gpu_hours_a_week_is_a_rate_of_use(catalog: Catalog) -> None:
    q = understand("we'd use it ~40 gpu-hours per week; buy a used A6000 for $3,000 or rent "
                   "at $0.45/h?", catalog)  # fmt: skip
    assert q.use_hours_per_day == pytest.approx(40 / 7)


def test_a_bill_split_between_people(rules_advisor: Advisor, catalog: Catalog) -> None:
    question = "4x A100 at $1.20/GPU-hr for 50 hours, split between 5 of us. cost?"
    assert understand(question, catalog).split_ways == 5
    text = ask_grounded(rules_advisor, question, "split-5").text
    assert "$240" in text and "Split 5 ways: **$48.00 each**" in text


def test_rental_cost_adds_each_share() -> None:
    assert rental_cost(2.0, 10, num_gpus=2, shares=4)["usd_each"] == pytest.approx(10.0)
    assert "error" in rental_cost(2.0, 10, shares=0)


def test_paced_count_is_the_rate_over_the_hours() -> None:
    assert paced_count(per_second=10, hours=2)["items"] == pytest.approx(72_000)
    assert "error" in paced_count(per_second=0, hours=2)


def test_tokens_a_measured_rate_makes_in_a_month(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "our TGI fleet pushes ~1,500 tokens/s total. over a 30-day month of nonstop load, how "
        "many tokens do we generate?",
        "tokens-month",
    ).text
    assert "3,888,000,000 tokens" in text  # 1,500 x 720 x 3,600


def test_images_a_measured_pace_makes(rules_advisor: Advisor) -> None:
    question = "one flux image takes 12 s on my card, how many images can it make in 10 hours?"
    text = ask_grounded(rules_advisor, question, "images-10h").text
    assert "3,000 images" in text


def test_steps_timed_carry_to_a_longer_schedule(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "the first 2,000 steps of my Llama 3 8B LoRA took 1 h 30 min on a single L40S",
        "how long for all 12,000 steps then?",
    )[-1]
    assert re.search(r"\*\*About 9(?:\.00?)? hours at your own measured pace", text), text


def test_an_image_models_image_timed(catalog: Catalog) -> None:
    q = understand("the 4090 does one SDXL 1024 px image at 25 steps in 2.5 s; 900 images on "
                   "it, how long?", catalog)  # fmt: skip
    assert q.seconds_per_item == pytest.approx(2.5)


def test_spot_against_on_demand_for_one_job(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "a 500 GPU-hour job: spot at $0.90/hr losing about 10% to preemptions, or on-demand at "
        "$2.10/hr? which is cheaper?",
        "spot-job",
    ).text
    assert text.startswith("**Spot is cheaper for the job:")
    assert "a month" not in text.split("\n")[0]


def test_an_instances_price_said_next_is_the_whole_instance(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "we're looking at a p4d.24xlarge for training",
        "it's $32.77/hr on-demand. 10 days nonstop, what's that, and per GPU-hour?",
    )[-1]
    assert "per node-hour" in text and "$4.10 per GPU-hour" in text


def test_a_service_fee_said_first_is_weighed_against_buying(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "right now we pay an OCR SaaS about $120 a month.",
        "if we buy an RTX 4060 Ti 16GB for $450 and self-host, after how many months is it paid "
        "off? no electricity please",
    )[-1]
    assert "3.75 months" in text, text


def test_power_left_out_when_said_after_the_question(catalog: Catalog) -> None:
    q = understand("used 3090 at $650 or rent at $0.22/hr? i train ~5 hours a day. when does it "
                   "pay off? ignore the electricity", catalog)  # fmt: skip
    assert q.no_power
