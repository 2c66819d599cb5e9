"""Paces, prices and limits said in ways the parser once missed: a transcription pace in minutes
per hour of audio (in words too), recordings of a stated average length, runs a day over a year,
amounts in rand and manat, questions in Afrikaans, Lithuanian, Tamil and Azerbaijani, a buyer who
is not the user, a context "for the conversation", a card's own number read as a count, GPU-hours
read as a price, a card that alone holds a job, a misfit asked as the cause, a power limit that
rules out the faster card, the cheapest card of a memory size, and a tax question."""

from __future__ import annotations

import re

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


@pytest.mark.parametrize(
    ("said", "seconds"),
    [
        ("an hour of audio takes three minutes to transcribe on my box", 180),
        ("the rented L4 needs 6 minutes per hour of audio", 360),
        ("it does 90 seconds for every hour of recordings", 90),
    ],
)
def test_a_pace_per_hour_of_audio(catalog: Catalog, said: str, seconds: float) -> None:
    q = understand(f"whisper large-v3: {said}. 120 hours of audio, how long?", catalog)
    assert q.seconds_per_item == pytest.approx(seconds)
    assert q.audio_hours == pytest.approx(120)


def test_recordings_of_an_average_length_after_other_words(rules_advisor: Advisor) -> None:
    question = ("one hour of audio takes five minutes with faster-whisper here. we have 20 "
                "interviews from the spring archive averaging 1 hour 30 minutes each. how long "
                "for all of them?")  # fmt: skip
    text = ask_grounded(rules_advisor, question).text
    assert re.match(r"\*\*About 2\.50? hours at your own measured pace", head(text))  # 30 h x 5 min


def test_runs_a_day_are_carried_over_the_year_asked(catalog: Catalog) -> None:
    q = understand("each nightly job takes 30 minutes on 2 L40S, 3 runs a day, at $1.10 per "
                   "GPU-hour: what's the yearly bill?", catalog)  # fmt: skip
    assert q.hours == pytest.approx(0.5 * 3 * 365)
    q = understand("each job takes 30 minutes on 2 L40S, 3 runs a day, $1.10 per GPU-hour. "
                   "monthly cost?", catalog)  # fmt: skip
    assert q.hours == pytest.approx(0.5 * 3 * 730 / 24)


@pytest.mark.parametrize(
    ("said", "amount"),
    [("vir R8 499,00", 8499), ("onder R30 000", 30000), ("it costs R1500", 1500)],
)
def test_rand_amounts(catalog: Catalog, said: str, amount: float) -> None:
    q = understand(f"RTX 4060 Ti 16GB {said}, goeie koop?", catalog)
    assert q.currency.strip() == "ZAR", q.english
    assert amount in (q.purchase_usd, q.budget.usd if q.budget else None), q.english


@pytest.mark.parametrize(
    "question", ["DeepSeek R1 671B on eight H200s: fits?", "AMD Radeon AI PRO R9700 memory?"]
)
def test_an_r_and_digits_in_a_name_is_no_rand(catalog: Catalog, question: str) -> None:
    q = understand(question, catalog)
    assert q.currency == "$" and (q.models or q.gpus), q.english


def test_an_afrikaans_power_bill_in_rand(rules_advisor: Advisor) -> None:
    question = (
        "My masjien met 'n RTX 3090 trek omtrent 450 W. Ek betaal R2,80 per kWh. As dit "
        "6 uur per dag en 30 dae loop, hoeveel kWh en hoeveel kos dit my per maand?"
    )
    text = ask_grounded(rules_advisor, question).text
    assert head(text).startswith("**About ZAR 227 of electricity**")  # 81 kWh x 2.80


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Kiek maždaug tokenų per sekundę duos Qwen2.5 7B Q4_K_M ant RTX 4070?", "speed"),
        (
            "Noriu apmokyti LoRA Llama 3.1 8B su 30 mln. tokenų ant RTX 4090. Kiek valandų "
            "užtruks?",
            "train_time",
        ),
        ("RTX 3060 12GB-də Mistral 7B Q4_K_M saniyədə neçə token verər?", "speed"),
        (
            "Hoe vinnig sal Llama 3.1 8B in Q4_K_M op 'n RTX 4060 Ti wees, tokens per sekonde?",
            "speed",
        ),
        ("RTX 4090-ல் Llama 3.1 8B Q4_K_M ஒரு வினாடிக்கு எத்தனை tokens கிடைக்கும்?", "speed"),
    ],
)
def test_questions_in_four_more_languages(catalog: Catalog, question: str, intent: str) -> None:
    q = understand(question, catalog)
    assert q.intent == intent, q.english
    assert q.gpus and q.models


def test_tamil_lakhs_are_numbers() -> None:
    assert "300000 sentences" in to_english("3 லட்சம் வாக்கியங்கள்")


def test_a_buyer_asking_is_no_purchase_of_the_user(catalog: Catalog) -> None:
    q = understand("buyer wants to know: llama 3.1 8b q4 on this 3060 12gb, tok/s?", catalog)
    assert q.intent == "speed"


def test_small_words_read(catalog: Catalog) -> None:
    assert understand("how far can I crank the context with qwen2.5 7b q4 on a 4070?",
                      catalog).target == "max_context"  # fmt: skip
    assert understand("phi-3 mini on a jetson orin nano with 2,048 tokens for the chat history?",
                      catalog).context == 2048  # fmt: skip
    assert (
        understand("a bloke on gumtree wants $600 for a 3090, fair?", catalog).condition == "used"
    )
    assert understand("got a deadstock A6000, still sealed. its tdp?", catalog).condition == "new"


def test_a_cards_own_number_is_no_count(catalog: Catalog) -> None:
    q = understand("they quote a box with three RTX 5090 cards joined by NVLink, true?", catalog)
    assert q.num_gpus in (None, 3) and all(g.count in (None, 3) for g in q.gpus)


def test_gpu_hours_are_no_price_to_buy(catalog: Catalog) -> None:
    q = understand("we train for about 250 GPU-hours a year; an L40S rents at $0.90/h, or buy "
                   "one used?", catalog)  # fmt: skip
    assert q.purchase_usd is None


def test_the_one_card_that_holds_the_job_is_the_pick(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "used 3090 for $650 or a new 4070 for $550 to keep gemma 2 "
                        "27b q4 fully on the card?").text  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 3090: the only one of them")


def test_a_misfit_asked_as_the_cause_is_answered_yes(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen2.5 72b q4_k_m on my 3090 runs at 1 tok/s. is that "
                        "because it doesn't fit on the card?").text  # fmt: skip
    assert text.startswith("**Yes: ") and "does not fit" in head(text)


def test_a_power_limit_rules_out_the_faster_card(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "my UPS gives at most 450 W and the PC without the gpu "
        "draws 150 W. mistral 7b q4: RTX 4090 or RTX 4060 Ti 16GB?",
    ).text
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 4060 Ti 16GB: within your 450 W")
    assert "Without the power limit, the NVIDIA GeForce RTX 4090" in text


def test_the_cheapest_card_of_a_memory_size(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "cheapest way to get 48gb of vram? used is fine, need a "
                        "dated price").text  # fmt: skip
    assert head(text).startswith("**Cheapest card with 48 GB or more on record (used or new)")
    said = re.findall(r"\$([\d,]+(?:\.\d+)?) (?:used|new|msrp)", text)
    prices = [float(p.replace(",", "")) for p in said]
    assert prices == sorted(prices) and len(prices) >= 2


def test_a_tax_question_is_outside_the_advisor(catalog: Catalog) -> None:
    q = understand("can I deduct the 4090 workstation on this year's taxes or depreciate it?",
                   catalog)  # fmt: skip
    assert q.intent == "out_of_scope"


def test_two_figures_quoted_the_sparse_one_named(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my a100 datasheet shows 312 and 624 tflops bf16. which "
                        "one is real for training?").text  # fmt: skip
    assert head(text).startswith("**The dense figure, 312 TFLOPS,")


def test_a_power_bill_asked_after_a_pick_is_answered_as_a_bill(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "Which card for Llama 3.1 8B on a $2,000 budget? Also, if "
                        "the box draws 350 W for 10 hours a day, 20 days a month, at 20 cents "
                        "per kWh, what's the monthly electricity?").text  # fmt: skip
    assert text.startswith("**Pick ")
    assert "**About $14.00 of electricity** (70 kWh)" in text  # 350 W x 200 h x $0.20


def test_prices_said_over_three_turns_make_the_break_even(rules_advisor: Advisor) -> None:
    answers = thread_of(
        rules_advisor,
        "Thinking of buying an RTX 4090 here, it costs 2,400 EUR.",
        "Alternatively I could rent one for 0.60 EUR an hour.",
        "After how many hours does owning win? Leave electricity out.",
    )
    assert "4,000 hours" in head(answers[-1])  # 2,400 / 0.60


def test_a_fit_then_how_long_is_a_question_of_time(catalog: Catalog) -> None:
    q = understand("Our 3090 idles at night. Could it fine-tune Llama 3.2 1B fully on 500 million "
                   "tokens in one night? How many hours would that be?", catalog)  # fmt: skip
    assert q.intent == "train_time"


def test_a_card_set_aside_in_a_follow_up(catalog: Catalog) -> None:
    first = understand("biggest qwen2.5 32b quant for one 3080?", catalog)
    q = understand("actually he has a 3090 not a 3080. does q4_k_m fit?", catalog,
                   first.context_dict())  # fmt: skip
    assert [g.ids for g in q.gpus] == [("rtx-3090",)] and q.models and q.intent == "fit"


def test_a_roofline_beside_an_explanation(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "Why is decode memory bound? Back-of-envelope: Qwen2.5 "
        "14B in bf16 on one A100 80GB, the theoretical max tokens/s?",
    ).text
    assert "**Bandwidth ceiling (roofline) for one stream: about " in text
    line = next(p for p in text.split("\n\n") if "Bandwidth ceiling" in p)
    assert "2,039 GB/s" in line  # the A100 SXM4 80GB's, not an example card's


def test_a_long_document_sets_the_context(catalog: Catalog) -> None:
    q = understand("our contracts can run to 120,000 tokens. the kv cache for llama 3.1 8b on "
                   "one of them?", catalog)  # fmt: skip
    assert q.context == 120_000


def test_a_slow_link_once_loaded_is_no_slowdown(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "my 3060 sits in a pcie 3.0 x4 slot. with llama 3.1 8b q4 "
        "fully loaded, does the narrow link cut my tokens per second?",
    ).text
    assert text.startswith("**No")


def test_renting_around_the_clock_is_set_against_a_year_owned(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "renting a 4090 24/7 at $0.35/h, or buy one for $1,800? "
                        "power is $0.20/kWh").text  # fmt: skip
    line = next(ln for ln in text.splitlines() if ln.startswith("A year around the clock"))
    assert "$3,066 to rent" in line  # 0.35 x 8,760
    assert "$1,800 to buy plus $" in line


def test_money_said_beside_a_card_to_buy_and_none_named_is_a_budget(catalog: Catalog) -> None:
    q = understand("if we bought a gpu for the home pc, what would you suggest for roughly $400 "
                   "to run phi-3 mini in fp16?", catalog)  # fmt: skip
    assert q.intent == "recommend" and q.budget is not None and q.budget.usd == 400
    assert q.purchase_usd is None
