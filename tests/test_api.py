"""advisor.api: the one door. Answer shape, streaming, async, threads, bad input."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from advisor import Advisor, InvalidInput

KEYS = {"answer", "citations", "tool_calls", "numbers", "warnings", "engine", "latency_ms",
        "thread_id"}  # fmt: skip


def test_answer_to_dict_is_json_with_the_documented_keys(rules_advisor: Any) -> None:
    data = rules_advisor.ask("Can I run Llama-3-8B on an L40?").to_dict()
    assert set(data) == KEYS
    json.dumps(data)  # plain JSON all the way down
    assert data["engine"] == "rules" and data["latency_ms"] > 0
    assert {"id", "doc", "title", "section", "text"} == set(data["citations"][0])
    assert {"name", "args", "result"} == set(data["tool_calls"][0])
    assert {"text", "value", "unit", "provenance"} == set(data["numbers"][0])


@pytest.mark.parametrize(
    ("question", "message"),
    [("", "empty"), ("   \n\t", "empty"), ("x" * 5000, "limit is 4,000"), (None, "must be text")],
)
def test_bad_input_is_a_clear_error(rules_advisor: Any, question: Any, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        rules_advisor.ask(question)


def test_control_characters_are_dropped(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("What is the memory\x00 bandwidth of the\x1b L40?")
    assert "864 GB/s" in answer.text


def test_unknown_engine_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Unknown engine 'gpt'"):
        Advisor(engine="gpt")


def test_engine_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADVISOR_ENGINE", "ollama")
    assert Advisor().engine == "ollama"


def test_stream_yields_tool_events_then_text_then_the_answer(rules_advisor: Any) -> None:
    events = list(rules_advisor.stream("Can I run Llama-3-8B on an L4?"))
    kinds = [e["type"] for e in events]
    assert kinds[0] == "tool_start" and kinds[-1] == "answer"
    assert kinds.index("tool_end") < kinds.index("text")
    answer = events[-1]["answer"]
    assert "".join(e["text"] for e in events if e["type"] == "text") == answer.text
    starts = [e["name"] for e in events if e["type"] == "tool_start"]
    assert starts == [t.name for t in answer.tool_calls]


def test_stream_raises_bad_input_at_once(rules_advisor: Any) -> None:
    with pytest.raises(InvalidInput):
        rules_advisor.stream("")


def test_async_variants(rules_advisor: Any) -> None:
    async def run() -> tuple[Any, list[dict[str, Any]]]:
        answer = await rules_advisor.aask("What is the memory bandwidth of the L40?")
        events = [e async for e in rules_advisor.astream("And the L40S?")]
        return answer, events

    answer, events = asyncio.run(run())
    assert "864 GB/s" in answer.text and events[-1]["type"] == "answer"


def test_one_advisor_serves_many_threads_at_once(rules_advisor: Any) -> None:
    questions = [
        "What is the memory bandwidth of the L40?",
        "Can I run Llama-3-8B on an L4?",
        "Compare the H100 SXM and the H200 SXM",
        "What will 100 hours on an A6000 cost?",
    ]
    alone = {q: rules_advisor.ask(q).text for q in questions}
    with ThreadPoolExecutor(8) as pool:
        texts = list(pool.map(lambda i: (questions[i % 4], rules_advisor.ask(questions[i % 4],
                                          thread_id=f"c{i}").text), range(32)))  # fmt: skip
    assert all(text == alone[q] for q, text in texts)


def test_sqlite_threads_continue_in_a_new_advisor(tmp_path: Path, searcher: Any) -> None:
    store = tmp_path / "threads.sqlite"
    Advisor(checkpoint=store, searcher=searcher).ask(
        "Can I run Llama-3-8B on an L4?", thread_id="s1"
    )
    later = Advisor(checkpoint=store, searcher=searcher).ask("and the A10G?", thread_id="s1")
    assert "Llama-3-8B fits on one NVIDIA A10G" in later.text


def test_the_streamed_answer_carries_its_turn_in_the_thread(rules_advisor: Any) -> None:
    first = list(rules_advisor.stream("Can I run Llama-3-8B on an L4?", thread_id="turn-no"))
    second = list(rules_advisor.stream("and the A10G?", thread_id="turn-no"))
    assert (first[-1]["turn"], second[-1]["turn"]) == (0, 1)
    assert rules_advisor.turns("turn-no")[1]["answer"] == second[-1]["answer"].to_dict()
