"""Follow-ups that change one thing of the thread's question: another card for the job a pick
was made for, more of the pick, a variant said before the card's name, fewer hours a day of the
same run. Each phrasing is the test's own."""

from __future__ import annotations

import re

from advisor.api import Advisor


def test_a_card_named_after_a_pick_is_that_card_for_the_job(rules_advisor: Advisor) -> None:
    thread = "t-card-after-pick"
    first = rules_advisor.ask("what gpu setup for serving qwen 2.5 72b to 10 people?",
                              thread_id=thread).text  # fmt: skip
    later = rules_advisor.ask("what about the a100 80gb one, is one enough?", thread_id=thread)
    assert later.text.split("\n", 1)[0] != first.split("\n", 1)[0]
    assert "Qwen2.5-72B" in later.text.split("\n")[0] and "NVIDIA A100" in later.text


def test_more_of_the_pick_times_the_job_on_them(rules_advisor: Advisor) -> None:
    thread = "t-more-of-pick"
    rules_advisor.ask("best gpu to train resnet-50 on 200k of my own images?", thread_id=thread)
    text = rules_advisor.ask("and with 4 of them?", thread_id=thread).text
    assert re.match(r"\*\*About [\d.]+ (?:minutes|hours|s)\b.* on 4 x ", text)


def test_a_variant_said_before_the_cards_name(rules_advisor: Advisor) -> None:
    thread = "t-variant-before"
    rules_advisor.ask("can a 3080 10gb run sdxl?", thread_id=thread)
    text = rules_advisor.ask("and the 12gb version of the 3080?", thread_id=thread).text
    assert "RTX 3080 12GB" in text.split("\n", 1)[0]


def test_fewer_hours_a_day_of_the_same_run(rules_advisor: Advisor) -> None:
    thread = "t-hours-a-day"
    week = rules_advisor.ask("cost to rent h100s for a full fine-tune of llama 3 8b for a week?",
                             thread_id=thread).text  # fmt: skip
    cards = re.search(r" on (\d+ x|one) NVIDIA H100", week.split("\n", 1)[0])
    text = rules_advisor.ask("and if we only run it 10h a day?", thread_id=thread).text
    head = text.split("\n", 1)[0]
    assert "for 70 hours" in head and cards and f" on {cards.group(1)} NVIDIA H100" in head
