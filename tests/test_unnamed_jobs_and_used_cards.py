"""A calculator question that names nothing is asked back, not refused; cards bought second hand
are weighed as purchases, not by their rent; a training run said only to place the job after it
is not the job."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.compose import ASK_BACK, OUT_OF_SCOPE
from advisor.agent.understand import understand
from advisor.catalog import Catalog


@pytest.mark.parametrize(
    "question",
    [
        "would it even fit??",
        "ok so how fast would it run",
        "roughly how many tok/s would that give me",
        "Can they run it?",
        "a client asks for 'the best AI graphics card', no more detail. what should I reply?",
        "which card would you get for AI stuff",
    ],
)
def test_a_fit_or_speed_question_with_nothing_named_asks_for_the_job(
    rules_advisor: Any, question: str
) -> None:
    answer = rules_advisor.ask(question)
    assert answer.text == ASK_BACK


@pytest.mark.parametrize(
    "question",
    ["what's the weather in Oslo tomorrow?", "write me a poem about rain, will it fit a card?"],
)
def test_questions_outside_gpus_stay_outside(rules_advisor: Any, question: str) -> None:
    assert rules_advisor.ask(question).text == OUT_OF_SCOPE


def test_cards_found_second_hand_are_not_weighed_by_their_rent(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "titan rtx or tesla p40 for a cheap home box? both 24gb, both dirt cheap on ebay"
    )
    assert "Per rented dollar" not in answer.text
    assert "used" in answer.text  # the price on record to buy second hand is shown


def test_renting_the_same_two_cards_still_weighs_their_rent(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("A10 vs L4, which gives more bandwidth per dollar to rent?")
    assert "Per rented dollar" in answer.text


@pytest.mark.parametrize(
    ("question", "workload"),
    [
        ("after training we serve mistral 7b with vllm on one L40S: tokens/s?", "inference"),
        ("post-training eval of qwen2.5 7b on an a10g, how long for 5k prompts?", "inference"),
        ("once the fine-tune is finished, can llama 3.1 8b run on my 4060 ti 16gb?", "inference"),
        ("how long will fine-tuning llama 3.1 8b take on one a100?", "finetune"),
        ("fine-tune mistral 7b, then after training how much memory does it need?", "finetune"),
    ],
)
def test_a_training_run_said_as_done_is_not_the_job(
    catalog: Catalog, question: str, workload: str
) -> None:
    assert understand(question, catalog).workload == workload


def test_a_machine_no_one_rents_is_priced_to_buy_unless_renting_is_said(catalog: Catalog) -> None:
    assert understand("so what would a DGX Spark set me back?", catalog).intent == "buy"
    # a rent word keeps the rental question, even where no rental price is on record
    assert understand("how much is a DGX Spark to rent hourly?", catalog).intent == "cost"


def test_a_job_with_no_catalog_model_is_timed_on_the_card_named(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "how long to train a small segmentation cnn on 30k images at 512px for 50 epochs on "
        "my rtx 4070 ti?"
    )
    lead = answer.text.lstrip().splitlines()[0]
    assert "RTX 4070 Ti" in lead and "hours" in lead, lead  # the card named, not a ranking
    assert "stands in for the job" in answer.text
    assert "does not fit" not in lead  # a batch that fits is chosen when none was said
