"""Asking the advisor as a test does: every figure of an answer grounded, threads of turns, an
answer's first line."""

from __future__ import annotations

import time
from typing import Any

from advisor.api import Advisor


def ask_grounded(advisor: Advisor, question: str, thread: str | None = None) -> Any:
    """The answer, after checking that every figure in it comes from a tool or the question."""
    answer = advisor.ask(question, thread_id=thread)
    assert answer.grounding_rate == 1.0, answer.text
    return answer


def thread_of(advisor: Advisor, *turns: str) -> list[str]:
    """The answers to the turns of one new thread, in order."""
    thread = f"t-{time.time_ns()}"
    return [ask_grounded(advisor, turn, thread).text for turn in turns]


def head(text: str) -> str:
    """An answer's first line: its verdict."""
    return text.split("\n", 1)[0]
