"""Conversations kept by advisor.threads: each answered turn recorded with its answer, feedback
with its turn, the Markdown export; in memory, in SQLite and in a real PostgreSQL server."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from advisor import Advisor, InvalidInput
from advisor.config import conversation_store
from advisor.threads import StoreUnavailable, open_conversations, redacted
from tests.servers import free_port

FIT = "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"
SPEC = "What is the memory bandwidth of the L40?"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "threads.sqlite") if request.param == "sqlite" else "memory"


@pytest.fixture
def advisor(where: str, searcher: Any) -> Iterator[Advisor]:
    with Advisor(engine="rules", checkpoint=where, searcher=searcher) as advisor:
        yield advisor


def _thread(request: pytest.FixtureRequest) -> str:
    return f"t-{request.node.name}"  # one PostgreSQL server serves the whole run


def test_each_answered_turn_is_recorded_with_its_answer(
    advisor: Advisor, request: pytest.FixtureRequest
) -> None:
    thread = _thread(request)
    first = advisor.ask("Can I run Llama-3-8B on an L4?", thread_id=thread)
    second = advisor.ask("and the A10G?", thread_id=thread)
    turns = advisor.turns(thread)
    assert [t["turn"] for t in turns] == [0, 1]
    assert [t["question"] for t in turns] == ["Can I run Llama-3-8B on an L4?", "and the A10G?"]
    contexts = [t["context"] for t in turns]
    assert turns[0]["answer"] == first.to_dict() and turns[1]["answer"] == second.to_dict()
    # the record keeps what the next turn inherits: the follow-up kept the model, changed the GPU
    assert [m["ids"] for m in contexts[1]["models"]] == [m["ids"] for m in contexts[0]["models"]]
    assert contexts[0]["gpus"][0]["ids"] != contexts[1]["gpus"][0]["ids"]
    assert turns[1]["asked_at"].endswith("UTC") and turns[1]["feedback"] is None
    assert advisor.turns("never-asked") == []


def test_feedback_is_kept_with_its_turn_and_replaced_when_given_again(
    advisor: Advisor, request: pytest.FixtureRequest
) -> None:
    thread = _thread(request)
    advisor.ask(SPEC, thread_id=thread)
    advisor.ask(FIT, thread_id=thread)
    advisor.feedback(thread, 0, "like")
    advisor.feedback(thread, 1, "dislike", "  the  speed looks low\n")
    given = [t["feedback"] for t in advisor.turns(thread)]
    assert [(f["rating"], f["note"]) for f in given] == [
        ("like", ""), ("dislike", "the speed looks low")
    ]  # fmt: skip
    assert given[0]["given_at"].endswith("UTC")
    advisor.feedback(thread, 1, "LIKE")
    again = advisor.turns(thread)[1]["feedback"]
    assert (again["rating"], again["note"]) == ("like", "")


@pytest.mark.parametrize(
    ("thread", "turn", "rating", "note", "message"),
    [
        ("fb", 5, "like", "", "Thread 'fb' has no answered turn 5"),
        ("fb", -1, "like", "", "The turn is a number"),
        ("fb", True, "like", "", "The turn is a number"),
        ("fb", 0, "meh", "", "A rating is one of like, dislike"),
        ("fb", 0, "like", "x" * 2001, "over 2,000 characters"),
        ("fb", 0, "like", None, "note must be text"),
        ("", 0, "like", "", "A thread id is 1 to 200 characters"),
        ("nobody", 0, "like", "", "Thread 'nobody' has no answered turn 0"),
    ],
)
def test_feedback_that_cannot_be_kept_is_a_clear_error(
    where: str, searcher: Any, thread: str, turn: Any, rating: str, note: Any, message: str
) -> None:
    with Advisor(engine="rules", checkpoint=where, searcher=searcher) as advisor:
        advisor.ask(SPEC, thread_id="fb")
        with pytest.raises(InvalidInput, match=message):
            advisor.feedback(thread, turn, rating, note)


def test_export_is_markdown_with_receipts_sources_and_feedback(
    advisor: Advisor, request: pytest.FixtureRequest
) -> None:
    thread = _thread(request)
    advisor.ask(SPEC, thread_id=thread)
    advisor.ask(FIT, thread_id=thread)
    advisor.feedback(thread, 1, "dislike", "wanted the A5000 too")
    text = advisor.export(thread)
    headings = [
        (t.tag, tokens[i + 1].content)
        for tokens in [MarkdownIt().parse(text)]
        for i, t in enumerate(tokens)
        if t.type == "heading_open"
    ]
    assert headings == [
        ("h1", f"GPU Advisor conversation `{thread}`"),
        ("h2", f"1. {SPEC}"), ("h3", "Warnings"), ("h3", "Calculation receipts"),
        ("h3", "Sources"),
        ("h2", f"2. {FIT}"), ("h3", "Calculation receipts"), ("h3", "Sources"),
    ]  # fmt: skip
    assert "864 GB/s" in text and "**gpu_specs**" in text  # the answer and its receipt
    assert "- inputs: `model=llama-3-8b, gpu=rtx-a4000, workload=finetune-qlora" in text
    # the memory breakdown of the estimate: the weights as loaded, and PEFT's QLoRA upcast of
    # the embeddings to fp32 apart (in the weights from calc-2026.12.02e to stop 73)
    assert "weights 5.70 GB" in text and "upcast 3.15 GB" in text
    assert "**[1] " in text and "\n> " in text  # a source, quoted
    assert "_Feedback: dislike: wanted the A5000 too_" in text


def test_export_of_a_thread_with_no_turns_says_so(advisor: Advisor) -> None:
    assert "_No questions asked yet._" in advisor.export("empty-thread")
    with pytest.raises(InvalidInput, match="thread id"):
        advisor.export("x" * 201)


@pytest.mark.parametrize("where", ["sqlite", "postgres"], indirect=True)
def test_a_new_advisor_on_the_same_store_continues_the_thread(
    where: str, searcher: Any, request: pytest.FixtureRequest
) -> None:
    thread = _thread(request)
    with Advisor(engine="rules", checkpoint=where, searcher=searcher) as first:
        first.ask("Can I run Llama-3-8B on an L4?", thread_id=thread)
    with Advisor(engine="rules", checkpoint=where, searcher=searcher) as later:  # a restart
        follow = later.ask("and the A10G?", thread_id=thread)
        assert "Llama-3-8B fits on one NVIDIA A10G" in follow.text
        assert [t["turn"] for t in later.turns(thread)] == [0, 1]


def test_a_closed_advisor_opens_its_store_again_when_used(
    advisor: Advisor, request: pytest.FixtureRequest
) -> None:
    thread = _thread(request)
    advisor.ask("Can I run Llama-3-8B on an L4?", thread_id=thread)
    advisor.close()
    advisor.close()  # twice is harmless
    assert "NVIDIA A10G" in advisor.ask("and the A10G?", thread_id=thread).text  # memory kept too
    assert len(advisor.turns(thread)) == 2


@pytest.mark.parametrize("where", ["sqlite", "postgres"], indirect=True)
def test_turns_that_land_at_once_get_distinct_numbers(
    where: str, request: pytest.FixtureRequest
) -> None:
    opened = [open_conversations(where) for _ in range(4)]  # as four workers would
    stores = [c.turns for c in opened]
    thread = _thread(request)
    barrier = threading.Barrier(8)
    got: list[int] = []

    def add(n: int) -> None:
        barrier.wait()
        got.append(stores[n % 4].add(thread, f"q{n}", {"answer": f"a{n}"}, {"models": []}))

    workers = [threading.Thread(target=add, args=(n,)) for n in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(got) == list(range(8))
    assert sorted(t["question"] for t in stores[0].turns(thread)) == [f"q{n}" for n in range(8)]
    for conversations in opened:
        conversations.close()


def test_an_unreachable_database_is_one_line_without_the_password() -> None:
    url = f"postgresql://advisor:hunter2@127.0.0.1:{free_port()}/advisor"
    with pytest.raises(StoreUnavailable) as failed:
        Advisor(checkpoint=url).turns("t")
    message = str(failed.value)
    assert message.startswith(
        f"Cannot use the conversation database {redacted(url)} ("
    ) and message.endswith("Check ADVISOR_DATABASE_URL and that the server is running.")
    assert "hunter2" not in message and "\n" not in message
    assert (
        redacted(url) == f"postgresql://advisor@127.0.0.1:{url.split(':')[3].split('/')[0]}/advisor"
    )


def test_an_unwritable_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreUnavailable, match="Cannot open the conversation file"):
        open_conversations(tmp_path / "file" / "threads.sqlite")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "sqlite"),
        ({"ADVISOR_CHECKPOINT": "/srv/t.sqlite"}, "/srv/t.sqlite"),
        ({"ADVISOR_DATABASE_URL": "postgresql://u@h/db", "ADVISOR_CHECKPOINT": "/srv/t.sqlite"},
         "postgresql://u@h/db"),
        ({"ADVISOR_DATABASE_URL": "  "}, "sqlite"),
    ],
)  # fmt: skip
def test_the_store_is_chosen_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert conversation_store() == expected


def test_a_database_url_that_is_not_postgresql_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADVISOR_DATABASE_URL", "mysql://u@h/db")
    with pytest.raises(InvalidInput, match="must be a postgresql://"):
        conversation_store()


def test_the_cli_keeps_its_threads_in_the_configured_database(
    postgres_url: str, home: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from advisor.cli import main

    monkeypatch.setenv("ADVISOR_DATABASE_URL", postgres_url)
    assert main(["ask", "Can I run Llama-3-8B on an L4?", "--thread", "cli-pg"]) == 0
    assert main(["ask", "and the A10G?", "--thread", "cli-pg"]) == 0
    assert "Llama-3-8B fits on one NVIDIA A10G" in capsys.readouterr().out
    with Advisor(checkpoint=postgres_url) as advisor:
        turns = advisor.turns("cli-pg")
    assert [t["question"] for t in turns] == ["Can I run Llama-3-8B on an L4?", "and the A10G?"]
    assert not (home / "threads.sqlite").exists()  # nothing went to the SQLite default


def test_a_turn_recorded_without_its_context_is_understood_again(searcher: Any) -> None:
    from advisor.agent.turn import context_of

    old = {"question": "Can I run Llama-3-8B on an L4?", "context": None}
    assert [g["ids"] for g in context_of(old)["gpus"]] == [("l4",)]


class _BusyOnce:
    """A connection whose WAL switch finds the file locked `busy` times, then succeeds."""

    def __init__(self, busy: int, message: str = "database is locked") -> None:
        self.busy, self.message, self.calls = busy, message, 0

    def execute(self, sql: str) -> None:
        self.calls += 1
        if self.calls <= self.busy:
            raise sqlite3.OperationalError(self.message)


def test_the_wal_switch_waits_for_a_worker_starting_beside_it(monkeypatch: Any) -> None:
    from advisor import threads

    monkeypatch.setattr(threads.time, "sleep", lambda s: None)
    conn = _BusyOnce(busy=3)
    threads._wal(conn)  # type: ignore[arg-type]
    assert conn.calls == 4
    with pytest.raises(sqlite3.OperationalError):  # locked for good: the error, after the tries
        threads._wal(_BusyOnce(busy=99), tries=5)  # type: ignore[arg-type]
    other = _BusyOnce(busy=1, message="disk I/O error")
    with pytest.raises(sqlite3.OperationalError):  # another error: at once
        threads._wal(other)  # type: ignore[arg-type]
    assert other.calls == 1
