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


def test_a_why_question_that_asks_figures_leads_with_them(rules_advisor: Any) -> None:
    answer = rules_advisor.ask(
        "Why is a 4090 a poor pick for our fp64 fluid solver when its fp32 number is huge? "
        "Put its FP64 next to an A100's."
    )
    first = answer.text.lstrip().splitlines()[0]
    assert first.startswith("**") and "FP64" in first, first
    assert "1.29 TFLOPS" in first and "9.70 TFLOPS" in first, first


def test_a_sentence_about_the_laptop_card_does_not_speak_of_the_desktop_one() -> None:
    from advisor.agent.handlers import _mentions
    from advisor.agent.query import GpuRef, Query

    desktop = Query(
        text="is the rtx 4090 fast?", intent="spec", gpus=(GpuRef("rtx 4090", ("rtx-4090",)),)
    )
    assert not _mentions("The RTX 4090 Laptop GPU suits mobile workstations.", desktop)
    assert _mentions("The RTX 4090 has 24 GB of GDDR6X.", desktop)
    laptop = Query(
        text="rtx 4090 laptop any good?", intent="spec", gpus=(GpuRef("rtx 4090", ("rtx-4090",)),)
    )
    assert _mentions("The RTX 4090 Laptop GPU suits mobile workstations.", laptop)
