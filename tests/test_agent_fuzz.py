"""Any text at all: the rules engine answers (grounded) or says clearly what is wrong.

The strategies are eval/fuzz_questions.py's (unicode and control characters, mixed languages,
unit soup, huge and non-finite numbers, 100 kB inputs, mutated golden questions). CI runs 800
of them here; the 10,000-question run with its latency figures is that benchmark's."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from advisor.errors import InvalidInput
from eval.fuzz_questions import _mutate, classify, questions

_THREADS = itertools.count()


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck))
@given(question=questions)
def test_any_question_gets_a_grounded_answer_or_a_clear_error(
    rules_advisor: Any, question: str
) -> None:
    # a thread of its own: what other tests asked before must not change what is tested here
    result = classify(rules_advisor, question, f"fuzz-{next(_THREADS)}")
    assert result["outcome"] in ("answered", "refused"), (result["outcome"], result["detail"])


def test_a_100_kb_question_is_refused_in_words(rules_advisor: Any) -> None:
    try:
        rules_advisor.ask("Can I run Llama-3-8B on an L4? " * 3500)
    except InvalidInput as exc:
        assert "limit is 4,000" in str(exc)
    else:
        raise AssertionError("a 100 kB question was answered")


def test_a_numbered_list_is_not_read_as_quantities(rules_advisor: Any) -> None:
    # found by the fuzzer: "2." in a ranked list was an ungrounded number
    answer = rules_advisor.ask("cheapest gpu for a 1B model")
    assert answer.grounding_rate == 1.0 and "\n2. " in answer.text


@pytest.mark.parametrize("question", ["M1MAX;À1G", "M1MAX;À01G"])
def test_a_number_inside_a_word_of_another_alphabet_is_no_size(
    rules_advisor: Any, question: str
) -> None:
    # found by the fuzzer: "À01G" was read as a "1 GB" M1 Max, a size the reply then stated
    answer = rules_advisor.ask(question, thread_id=f"alphabet-{question}")
    assert answer.grounding_rate == 1.0 and "1 GB" not in answer.text


def test_a_model_replaced_in_a_later_clause_takes_its_note_along(rules_advisor: Any) -> None:
    # found by the fuzzer: "Mixtral 4B" read as a generic 4B (its note quoting Mixtral's 46.7B)
    # was replaced by the earlier clause's model, and the note's figure had no source left
    answer = rules_advisor.ask("¿Cabe Llama-3-8B? L-8B ¿ L ? Mixtral 4B", thread_id="note-drop")
    assert answer.grounding_rate == 1.0 and "46.7B" not in answer.text


def test_mutations_edit_the_text() -> None:
    assert _mutate("abc", [(0, 0, "x")]) == "xabc"
    assert _mutate("abc", [(1, 1, "x")]) == "ac"
    assert _mutate("abc", [(2, 2, "x")]) == "abx"
    assert _mutate("abc", [(3, 0, "x")]) == "bac"
    assert _mutate("", [(1, 5, "x")]) == "x"
