"""The same questions through every door (Python API, CLI, REST, Slack, the UI's own HTTP API):
the numbers in the answers agree, because every interface asks through `advisor.api`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from slack_sdk import WebClient

from advisor.agent.guard import read_numbers
from advisor.api import Advisor
from advisor.cli import main
from tests.fakes_slack import FakeSlack, event, signed
from tests.servers import free_port
from ui import app as ui_app
from ui import rest, slack

QUESTIONS = [
    "What is the memory bandwidth of the L40?",
    "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?",
    "Compare the A100 SXM4 80GB and the H100 SXM",
    "What will 100 hours on an RTX A6000 cost?",
    "Will Llama-3-70B fit on two A100 80GB for inference?",
]
SECRET = "parity-secret"


def _values(text: str) -> list[float]:
    return [round(n.value, 6) for n in read_numbers(text)]


@pytest.fixture(scope="module")
def ui_client(searcher: Any) -> Iterator[Any]:
    from gradio_client import Client

    port = free_port()
    app = ui_app.build(Advisor(searcher=searcher)).queue()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield Client(f"http://127.0.0.1:{port}/", verbose=False)
    finally:
        app.close()


@pytest.mark.slow
def test_every_interface_gives_the_same_numbers(
    searcher: Any, home: Path, ui_client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = {q: Advisor(searcher=searcher).ask(q) for q in QUESTIONS}
    api = TestClient(rest.create_app(Advisor(searcher=searcher)))
    fake = FakeSlack()
    bot = slack.create_app(Advisor(searcher=searcher), token="xoxb-p", signing_secret=SECRET,
                           client=WebClient(base_url=fake.url))  # fmt: skip
    slack_http = TestClient(slack.http_app(bot))
    try:
        for i, question in enumerate(QUESTIONS):
            expected = reference[question]
            want = _values(expected.text)
            assert want, question  # each of these answers has numbers to compare

            assert main(["ask", "--json", question]) == 0
            cli = json.loads(capsys.readouterr().out)
            assert [round(n["value"], 6) for n in cli["numbers"]] == want, ("CLI", question)

            via_rest = api.post("/v1/ask", json={"question": question}).json()
            assert via_rest["numbers"] == cli["numbers"], ("REST", question)

            body = json.dumps(event(f"<@UBOT> {question}", ts=f"9.{i}"))
            slack_http.post("/slack/events", content=body, headers=signed(body, SECRET))
            posted = fake.posted(count=i + 1)[i]
            assert _values(posted["blocks"][0]["text"]["text"]) == want, ("Slack", question)

            chat = ui_client.predict(question, [], "rules", None, {}, api_name="/ask")[0]
            shown = chat[-1]["content"][0]["text"]
            assert _values(shown) == want, ("UI", question)
    finally:
        fake.close()
