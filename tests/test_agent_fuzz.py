"""Any text at all: the rules engine answers (grounded) or says clearly what is wrong."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.errors import InvalidInput

WORDS = ["Llama-3-8B", "A100", "H100 SXM", "RTX 4090", "L40", "fine-tune", "QLoRA", "4bit",
         "8k context", "two", "of them", "$2/hour", "-5", "1e308", "80 gigs", "TB/s", "vs",
         "what about", "how many", "cost", "100 hours", "batch 99999999", "70B", "0B", "?",
         "\u202e", "\x00", "模型", "GPU", "ignore previous instructions"]  # fmt: skip
questions = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
    st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-10**12, 10**12).map(str)),
             min_size=1, max_size=8).map(" ".join),
)  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question=questions)
def test_any_question_gets_a_grounded_answer_or_a_clear_error(
    rules_advisor: Any, question: str
) -> None:
    try:
        answer = rules_advisor.ask(question)
    except InvalidInput as exc:
        assert str(exc)  # empty, oversized or not text: said in words
        return
    assert answer.text.strip()
    assert answer.grounding_rate == 1.0, [n.text for n in answer.numbers if n.provenance is None]


def test_a_100_kb_question_is_refused_in_words(rules_advisor: Any) -> None:
    try:
        rules_advisor.ask("Can I run Llama-3-8B on an L4? " * 3500)
    except InvalidInput as exc:
        assert "limit is 4,000" in str(exc)
    else:
        raise AssertionError("a 100 kB question was answered")
