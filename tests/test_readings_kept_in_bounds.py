"""Readings added for one phrasing that must not take over others: a count made over hours only
by what fits, a job of 24 hours done now and then (not around the clock), the span of a total
said outside the question, the PC's RAM and what a model leaves free (no memory kept back),
machines counted only when they hold the card named, amounts in rand beside model names, models
loaded together though "faster" is said, a 12-hour clock in the afternoon, a claim of "more"
between equal figures, and a price in one currency against the catalog's dollars."""

from __future__ import annotations

import pytest

from advisor.agent.understand import _rand, _span_asked, understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head


def test_a_count_over_hours_needs_the_model_to_fit(rules_advisor: Advisor) -> None:
    big = ask_grounded(rules_advisor, "how many tokens could llama 3 70b write on a single "
                       "4090 over 10 hours?").text  # fmt: skip
    assert "tokens in 10 hours" not in head(big) and "No" in head(big)
    small = ask_grounded(rules_advisor, "sdxl on a 4090 for an 8 hour shift, how many images "
                         "is that?").text  # fmt: skip
    assert "images in 8 hours" in head(small)


def test_a_rate_asked_beside_hours_stays_a_rate(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "sdxl on my 4090: how many images per minute? it runs "
                        "6 hours a day").text  # fmt: skip
    assert "images/min" in head(text) and "in 6 hours" not in head(text)


def test_a_day_long_job_done_now_and_then_is_not_around_the_clock(rules_advisor: Advisor) -> None:
    monthly = ask_grounded(rules_advisor, "each fine-tune runs 24 hours on my 4090 and I do one "
                           "a month. power per month at 0.30 per kwh?").text  # fmt: skip
    assert "$3.24" in head(monthly) and "around the clock" not in head(monthly)
    weekly = ask_grounded(rules_advisor, "a 24 hour render once a week on a 4090, what's that "
                          "a year in electricity at $0.15/kWh?").text  # fmt: skip
    assert "around the clock" not in head(weekly) and "$84" in head(weekly)


def test_the_span_of_a_total_said_outside_the_question() -> None:
    said = "we pay $30 a month for storage but i need the yearly figure. what does it come to?"
    assert _span_asked(said) == "year"
    assert _span_asked("what's the bill per month? we start later in the year") == "month"


@pytest.mark.parametrize(
    "question",
    [
        "the dataloader box needs 32 GB of RAM. biggest qwen2.5 on my 4090?",
        "windows already eats 16 gb of system ram, what's the largest model a 3090 runs?",
        "llama 3 8b at q4 leaves about 18 gb free on the card. can sdxl go on the 4090 too?",
    ],
)
def test_ram_and_what_a_model_leaves_are_not_memory_kept_back(
    catalog: Catalog, question: str
) -> None:
    assert understand(question, catalog).reserved_gb is None


def test_one_amount_kept_back_said_twice_counts_once(catalog: Catalog) -> None:
    said = "the desktop uses 1.5 gb of vram so I keep 1.5 gb free for it. biggest model on a 3060?"
    assert understand(said, catalog).reserved_gb == 1.5


@pytest.mark.parametrize(
    "question",
    [
        "we have 12 workstations with 64 GB RAM each; could one A6000 serve llama 3 8b to them?",
        "our 20 desktops (mostly idle after 6pm) could share an H100 server, how many users?",
    ],
)
def test_machines_count_cards_only_when_they_hold_the_card(catalog: Catalog, question: str) -> None:
    assert understand(question, catalog).gpus[0].count in (None, 1)


def test_machines_that_each_hold_the_card_count_it(catalog: Catalog) -> None:
    q = understand("all 14 seats (RTX 4060s) in the lab: power per month?", catalog)
    assert q.gpus[0].count == 14


@pytest.mark.parametrize(
    ("said", "amount"),
    [
        ("a used 3060 is R4500 on gumtree", "4500 ZAR"),
        ("a 4090 is about R38000 here", "38000 ZAR"),
        ("I can get a 3090 at R12000", "12000 ZAR"),
    ],
)
def test_rand_after_common_words(said: str, amount: str) -> None:
    assert amount in _rand(said)


@pytest.mark.parametrize(
    "said",
    ["cost of DeepSeek R1 per month on 8 H100s", "running R1 a day on an H200 node", "R9700 ok?"],
)
def test_model_and_card_names_are_no_rand(said: str) -> None:
    assert "ZAR" not in _rand(said)


def test_models_loaded_together_though_faster_is_said(catalog: Catalog) -> None:
    for question in (
        "i'd like llama 3.1 8b and sdxl resident at once on the 4090 so replies come faster. fit?",
        "whisper/llama 3 8b simultaneously on a 3060 12gb?",
        "llama 3 8b together with whisper large-v3 on one 3090?",
    ):
        assert understand(question, catalog).together, question


def test_an_afternoon_on_a_twelve_hour_clock_is_not_a_night(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the 4090 is busy 12:00 to 4:00 each afternoon. "
                        "electricity a month at $0.30/kWh?").text  # fmt: skip
    assert "16 hours" not in head(text)


def test_a_night_span_billed_over_a_month_is_each_night(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my 3090 trains overnight, 10pm to 6am, at $0.25/kWh. "
                        "cost per month?").text  # fmt: skip
    assert "243 hours" in head(text)


def test_a_claim_of_more_between_equal_figures_is_not_right(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "4090 vs 3090 memory: I say the 4090 has more VRAM. "
                        "am I right?").text  # fmt: skip
    assert head(text).startswith("**No")


def test_am_i_wrong_is_answered_on_the_claim(rules_advisor: Advisor) -> None:
    right = ask_grounded(rules_advisor, "4090 vs 3090 bandwidth, I think the 4090 has more "
                         "bandwidth. am I wrong?").text  # fmt: skip
    assert head(right).startswith("**No: you are right")


def test_a_price_in_rand_is_not_set_against_dollar_rent(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "rent or buy a 4090 for R35 000? about 5 hours a "
                        "day").text  # fmt: skip
    assert "No break-even" in head(text) and "ZAR 35,000 to own" not in text


@pytest.mark.parametrize(
    ("said", "hours"),
    [
        ("an A100 for two and a half days at $1.80/h, total?", 60.0),
        ("half a week on a rented H100 at $2.20 an hour", 84.0),
        ("the last fine-tune ran 1d 4h on an L40S at $0.90/h, what did it cost?", 28.0),
        ("a 2h15 job on an A10G at $1.00/h", 2.25),
        ("we'd keep one L4 for the whole of Q3 at $0.70/h", 2190.0),
    ],
)
def test_times_said_in_words_or_short_forms(catalog: Catalog, said: str, hours: float) -> None:
    assert understand(said, catalog).hours == pytest.approx(hours, rel=0.01)


def test_sessions_a_week_of_so_long_each_are_hours_a_week(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "4 lab sessions a week, 1.5 h each, on a rented 4090 at "
                        "$0.40/h: what's that per month?").text  # fmt: skip
    assert "26 hours" in head(text)  # 6 hours a week, 52 weeks over 12 months


def test_hours_on_named_days_are_hours_a_week(catalog: Catalog) -> None:
    q = understand("the 3090 trains 6 hours every saturday and sunday, kwh at 0.25, monthly?",
                   catalog)  # fmt: skip
    assert q.hours == pytest.approx(52.0) and q.intent == "cost"  # 12 hours a week, for a month


def test_a_job_every_other_weekend_over_a_year(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "renders every other weekend, about 30 hours, on my 4090, "
                        "$0.20 per kwh. per year?").text  # fmt: skip
    assert "782 hours" in head(text)


def test_a_tariff_said_after_the_unit_without_a_currency(catalog: Catalog) -> None:
    q = understand("4090 about 7h a day, kwh price 0.27, monthly?", catalog)
    assert q.usd_per_kwh == 0.27 and q.intent == "cost"


@pytest.mark.parametrize(
    "said",
    [
        "the 4090 stays on 24 hours, what's the monthly cost at $0.30/kWh?",
        "3090 on for 24 hours straight, monthly bill at 0.25 per kwh?",
        "our 4090 serves 24 hours a day, weekly reports go out on fridays. power per month at "
        "0.25/kWh?",
        "night tariff 11pm-7am is 0.12/kWh; the 4090 runs 24/7. monthly bill?",
    ],
)
def test_a_machine_on_all_day_is_billed_all_month(rules_advisor: Advisor, said: str) -> None:
    assert "730 hours" in head(ask_grounded(rules_advisor, said).text)


@pytest.mark.parametrize(
    ("said", "hours"),
    [
        ("twice a week I run a 6 hour job on a 3090, electricity per month at 0.30/kWh?", "52.1"),
        ("a 24-hour run every two weeks on my 4090, electricity per year at 0.3/kWh?", "626"),
        ("the 3090 renders 23:00-05:00 on sundays only, monthly electricity at 0.3/kWh?", "26"),
    ],
)
def test_jobs_done_now_and_then(rules_advisor: Advisor, said: str, hours: str) -> None:
    assert f"{hours} hours" in head(ask_grounded(rules_advisor, said).text)


def test_rand_weighed_against_rand_is_read(catalog: Catalog) -> None:
    q = understand("used 3090 for R14 000 vs a new 4070 at R12 500, which one?", catalog)
    assert q.currency.strip() == "ZAR" and len(q.gpus) == 2


def test_a_claim_of_sameness_between_equal_figures_holds(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "3090 vs 4090 memory: I reckon they have the same vram. "
                        "am I right?").text  # fmt: skip
    assert head(text).startswith("**Yes: you are right")


def test_memory_the_user_leaves_free_is_kept(catalog: Catalog) -> None:
    q = understand("largest llama that runs on my 3090 while leaving 4 GB free?", catalog)
    assert q.reserved_gb == 4.0
    two = understand("the os takes 1 gb of vram and I keep 1 gb spare for obs. biggest model on "
                     "a 3060?", catalog)  # fmt: skip
    assert two.reserved_gb == 2.0


def test_a_count_over_hours_in_the_format_the_card_holds(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how many tokens can mistral 7b write in 6 hours on a "
                        "3060 12gb?").text  # fmt: skip
    assert "tokens in 6 hours" in head(text) and "q4_k_m" in head(text)


def test_a_bill_per_quarter(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "two 4090s about 10 h a day, power at 0.20 a kwh. what's "
                        "that per quarter?").text  # fmt: skip
    assert "912 hours" in head(text) and "for a quarter" in head(text)
