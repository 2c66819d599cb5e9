"""Beyond one host: API workers (`gpu-advisor serve` processes) sharing conversations and
feedback through a real PostgreSQL server (ADVISOR_DATABASE_URL). A thread started on one
worker continues on another, and `kill -9` of a worker in the middle of an answer loses no
earlier turn."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests import servers

pytestmark = pytest.mark.slow


def _call(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        raw = response.read().decode()
    return json.loads(raw) if response.headers.get_content_type() == "application/json" else raw


def _ask(port: int, question: str, thread: str, **extra: Any) -> str:
    return str(_call(port, "/v1/ask", {"question": question, "thread_id": thread, **extra})
               ["answer"])  # fmt: skip


def test_two_workers_share_threads_and_a_killed_worker_loses_no_earlier_turn(
    postgres_url: str, home: Path
) -> None:
    with servers.stalling_llm_server() as (llm_url, llm):
        env = {
            "ADVISOR_DATABASE_URL": postgres_url,
            "OPENAI_BASE_URL": llm_url,  # only the killed answer asks it (engine openai)
            "OPENAI_API_KEY": "not-needed",
            "ADVISOR_LLM_MODEL": "stalling",
            "ADVISOR_LLM_TIMEOUT": "120",
        }
        a_port, b_port, c_port = (servers.free_port() for _ in range(3))
        with (
            servers.gpu_advisor("serve", "--port", str(a_port), env=env) as a,
            servers.gpu_advisor("serve", "--port", str(b_port), env=env) as b,
        ):
            servers.wait_for(f"http://127.0.0.1:{a_port}/healthz", proc=a)
            servers.wait_for(f"http://127.0.0.1:{b_port}/healthz", proc=b)

            thread = "across-workers"
            assert "Llama-3-8B fits on one NVIDIA L4" in _ask(
                a_port, "Can I run Llama-3-8B on an L4?", thread
            )
            assert "Llama-3-8B fits on one NVIDIA A10G" in _ask(b_port, "and the A10G?", thread)
            _call(b_port, f"/v1/threads/{thread}/feedback", {"turn": 0, "rating": "like"})

            # worker A starts a third answer and is killed while it waits for the model
            def doomed_answer() -> None:
                with contextlib.suppress(OSError):  # the connection dies with the worker
                    _ask(a_port, "what about on two of them?", thread, engine="openai")

            doomed = threading.Thread(target=doomed_answer, daemon=True)
            doomed.start()
            assert llm.arrived.wait(60), "worker A never reached the model"
            os.kill(a.pid, signal.SIGKILL)
            a.wait(30)
            doomed.join(30)
            assert a.returncode == -signal.SIGKILL

            kept = _call(b_port, f"/v1/threads/{thread}")["turns"]
            assert [t["question"] for t in kept] == ["Can I run Llama-3-8B on an L4?",
                                                     "and the A10G?"]  # fmt: skip
            assert kept[0]["feedback"]["rating"] == "like"
            third = _ask(b_port, "what about on two of them?", thread)  # the context survived
            assert "two NVIDIA A10G" in third or "2 x NVIDIA A10G" in third

        # a worker started afterwards (another host, as far as it knows) sees all of it
        with servers.gpu_advisor("serve", "--port", str(c_port), env=env) as c:
            servers.wait_for(f"http://127.0.0.1:{c_port}/healthz", proc=c)
            turns = _call(c_port, f"/v1/threads/{thread}")["turns"]
            assert [t["turn"] for t in turns] == [0, 1, 2]
            exported = _call(c_port, f"/v1/threads/{thread}/export")
            assert exported.count("### Calculation receipts") == 3
            assert "_Feedback: like_" in exported
            assert "what about on two of them?" in exported
    assert not (home / "threads.sqlite").exists()  # nothing went to the SQLite default
