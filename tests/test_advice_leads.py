"""What an advice answer leads with when the question weighs something: a smaller format that
fits, a card's format hardware asked beside a story about speed, the speed asked though a power
supply is mentioned, the memory a long context takes, the model the user runs on each of two
cards, the card's sheet beside a rent-or-buy, and the 16-bit weights beside a full fine-tune."""

from __future__ import annotations

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head


def test_a_smaller_format_weighed_leads_when_it_fits(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "mistral 7b in fp16 crawls on my 3060 8gb, like one word a "
                        "second. would a q4 gguf be the way to go?").text  # fmt: skip
    assert head(text).startswith("**Yes in 4-bit (GGUF Q4_K_M), no in fp16")


def test_format_hardware_asked_is_answered_before_its_speed(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "people say fp8 is way faster for llms. does an rtx 3080 "
                        "have fp8 tensor cores at all?").text  # fmt: skip
    assert head(text).startswith("**No") and "FP8" in head(text)


def test_a_supply_said_as_the_story_does_not_answer_a_speed_question(
    rules_advisor: Advisor,
) -> None:
    text = ask_grounded(rules_advisor, "tiny box, 280 W psu, so slot power only: rtx a2000 12gb "
                        "or rtx 2000 ada 16gb, which gives more tokens per second on llama 3.1 8b "
                        "q4_k_m?").text  # fmt: skip
    assert "supply" not in head(text) and "tokens/s" in head(text)


def test_what_eats_the_memory_at_a_long_context_is_the_kv_cache(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen2.5 7b q4_k_m on a 4060 ti 8gb, context bumped to "
                        "32768 and now it won't load. the gguf is 4.7gb, so what's using the rest "
                        "of the vram? would 16384 be ok?").text  # fmt: skip
    assert head(text).startswith("**The KV cache") and "16,384" in head(text)
    assert "At 16,384 tokens it" in text


def test_the_model_run_is_sized_on_each_of_two_cards(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "have a 3060 12gb doing mistral 7b q8_0 all day. a guy "
                        "sells a p40 24gb cheap, is it any faster for that?").text  # fmt: skip
    assert "tokens/s" in text[:900] and "read for every token" in text


def test_bs_followed_by_a_standard_number_is_no_batch(catalog: Catalog) -> None:
    q = understand("drafting reports to BS7671 with llama 3.1 8b on a 3090", catalog)
    assert q.batch is None


def test_a_full_fine_tune_shows_the_16_bit_weights(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "full fine-tune of qwen2.5 1.5b on one 3090, all weights, "
                        "will it fit?").text  # fmt: skip
    assert "16-bit weights alone are 3.09 GB" in text


def test_rent_or_buy_shows_the_cards_sheet(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "rent an L40S at $0.90/h or buy one for $8,000? we use it "
                        "6 hours a day").text  # fmt: skip
    assert "48 GB" in text


def test_work_a_month_at_the_cards_pace_is_its_use(catalog: Catalog) -> None:
    q = understand("about 40 hours of meeting recordings a month; the vendor says each hour of "
                   "audio takes roughly 3 minutes of gpu time. rent at $0.60/h or buy a 4060 "
                   "for $299?", catalog)  # fmt: skip
    assert q.use_hours_per_day is not None
    assert q.use_hours_per_day * 730 / 24 == pytest.approx(2.0, rel=0.01)


def test_a_few_hours_a_month_are_said_per_month(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "each render takes 30 seconds and we make 600 renders a "
        "month. rent at $0.50/h or buy a 4060 for $299, which makes sense?",
    ).text
    assert "5 hours a month" in head(text)
