"""What a concept is (advisor/data/glossary.yaml) leads an explain answer, with its figures on
real hardware and only article sentences that speak of it and of what was asked."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent import glossary
from advisor.agent.guard import read_numbers
from advisor.agent.understand import TOPIC_WORDS


def test_every_topic_has_an_entry_and_no_entry_states_a_figure() -> None:
    entries = glossary.entries()
    assert set(entries) == set(TOPIC_WORDS)
    for e in entries.values():
        # figures come from tools, never from the glossary's prose
        assert not read_numbers(e.lead) and not read_numbers(e.more), e.topic
        assert e.mentions


@pytest.mark.parametrize(
    ("question", "lead", "figure"),
    [
        ("ok so what even is tf32 and should i care", "**TF32 is", "156 TFLOPS"),
        ("how does the kv cache work and how much does it take for qwen2.5 72b at 32k",
         "**The KV cache", "GB for one sequence"),
        ("what's quantization actually doing to a model like llama 3 8b", "**Quantization",
         "in GGUF Q4_K_M"),
        ("mig, what is it", "**MIG (Multi-Instance GPU)", "instances of about"),
    ],
)  # fmt: skip
def test_a_concept_leads_with_what_it_is_and_shows_it_computed(
    question: str, lead: str, figure: str, rules_advisor: Any
) -> None:
    answer = rules_advisor.ask(question)
    assert answer.text.startswith(lead), answer.text[:200]
    assert figure in answer.text
    assert answer.grounding_rate == 1.0, [n.text for n in answer.numbers if n.provenance is None]


def test_two_memory_types_lead_with_the_faster_one_and_its_bandwidth(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("gddr6x vs hbm3 - is the difference real for llm inference?")
    head = answer.text.split("\n")[0]
    assert head.startswith("**HBM3 where bandwidth decides") and "(GDDR6X)" in head
    assert answer.grounding_rate == 1.0


def test_quoted_sentences_speak_of_the_concept_and_the_question(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("why does hbm matter for training big models")
    quoted = answer.text.split("From the articles:")[1:] if "From the articles:" in answer.text \
        else []  # fmt: skip
    for block in quoted:
        for line in block.strip().splitlines():
            assert "hbm" in line.lower()
    for cited in answer.citations:
        assert "hbm" in cited.text.lower()
