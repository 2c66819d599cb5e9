"""A list of datasheet figures asked of the cards named is answered with those figures first,
whatever concept the list's words touch ("power cap", "where supported", "shared")."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.understand import understand
from advisor.catalog import Catalog


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        (
            "for the audit: the L40S's memory, memory bandwidth, power cap and dense FP8, please",
            "spec",
        ),
        (
            "Jetson Orin NX 16GB for our drone: shared memory size, bandwidth, module power and "
            "fp16 tensor rate?",
            "spec",
        ),
        (
            "might buy a 4060 Ti 16GB next week. how much vram, what bandwidth, and what TDP?",
            "spec",
        ),
        (
            "list for each of the A100 PCIe 80GB and H100 PCIe: VRAM, bandwidth, BF16 dense, "
            "FP8 dense where supported, max power",
            "compare",
        ),
    ],
)
def test_three_or_more_figures_of_named_cards_are_a_datasheet_question(
    catalog: Catalog, question: str, intent: str
) -> None:
    q = understand(question, catalog)
    assert q.intent == intent, (q.intent, q.fields)
    assert len(q.fields) >= 3


def test_a_list_of_figures_for_two_cards_opens_with_those_figures(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "We must record, for the V100 SXM2 32GB and the H100 SXM5: memory, memory bandwidth, "
        "dense FP16 tensor, dense FP8 tensor (where it exists) and board power."
    )
    first = answer.text.lstrip().splitlines()[0]
    assert "V100" in first and "memory bandwidth" in first and "board power" in first, first
    # a card of a generation without FP8 says so, rather than "not published"
    assert "dense FP8 tensor none (no FP8 tensor cores)" in first, first


def test_a_formal_comparison_of_two_cards_opens_with_the_table(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "Please document the differences between the A100 PCIe 80GB and the H100 PCIe 80GB: "
        "for each, memory capacity, bandwidth, dense BF16, dense FP8 and board power."
    )
    assert answer.text.lstrip().startswith("|"), answer.text[:300]
    fp8 = next(line for line in answer.text.splitlines() if line.startswith("| dense FP8"))
    assert "none (no FP8 tensor cores)" in fp8 and "TFLOPS" in fp8


def test_several_figures_of_one_card_are_one_line(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "ticket from the physics group: the H100 NVL's per-GPU memory, bandwidth, its power cap "
        "and how many MIG slices it takes"
    )
    first = answer.text.lstrip().splitlines()[0]
    for label in ("memory", "memory bandwidth", "board power", "MIG instances"):
        assert label in first, first
