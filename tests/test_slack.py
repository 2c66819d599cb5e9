"""The Slack bot end to end without the internet: signed events into the real Bolt app (HTTP
mode through its FastAPI endpoint, and Socket Mode over a loopback websocket), replies captured
by a fake Slack Web API on loopback."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from slack_sdk import WebClient

from advisor.answer import Answer
from advisor.errors import InvalidInput
from tests.fakes_slack import FakeSlack, FakeSocketMode, event, signed
from ui import slack

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TOKEN = "xoxb-test-token"


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    server = FakeSlack()
    yield server
    server.close()


def _bot(fake: FakeSlack, advisor: Any, limiter: slack.RateLimiter | None = None) -> Any:
    client = WebClient(token=TOKEN, base_url=fake.url)
    return slack.create_app(advisor, token=TOKEN, signing_secret=SECRET, client=client,
                            limiter=limiter)  # fmt: skip


@pytest.fixture
def http(fake: FakeSlack, rules_advisor: Any) -> TestClient:
    return TestClient(slack.http_app(_bot(fake, rules_advisor)))


def _post(http: TestClient, payload: dict[str, Any], secret: str = SECRET,
          timestamp: int | None = None) -> int:  # fmt: skip
    body = json.dumps(payload)
    return http.post(
        "/slack/events", content=body, headers=signed(body, secret, timestamp)
    ).status_code


def test_a_mention_is_answered_in_its_thread_with_blocks(http: TestClient, fake: FakeSlack,
                                                         rules_advisor: Any) -> None:  # fmt: skip
    question = "What is the memory bandwidth of the L40?"
    assert _post(http, event(f"<@UBOT> {question}", ts="1700000000.000100")) == 200
    (reply,) = fake.posted()
    assert reply["channel"] == "C1" and reply["thread_ts"] == "1700000000.000100"
    assert reply["_auth"] == f"Bearer {TOKEN}"
    blocks = reply["blocks"]
    expected = rules_advisor.ask(question)
    assert blocks[0]["text"]["text"] == slack.mrkdwn(expected.text)
    assert "864 GB/s" in blocks[0]["text"]["text"]
    warnings = [b for b in blocks if b["type"] == "section" and ":warning:" in b["text"]["text"]]
    assert len(warnings) == len(expected.warnings) > 0
    contexts = [b["elements"][0]["text"] for b in blocks if b["type"] == "context"]
    assert any(c.startswith("*gpu_specs* (gpu=l40)") for c in contexts)  # a receipt
    assert any("[1] *A100-SXM4-40GB vs. L40" in c for c in contexts)  # a source
    assert contexts[-1].startswith("rules engine")


def test_the_slack_thread_is_the_conversation(http: TestClient, fake: FakeSlack) -> None:
    _post(http, event("<@UBOT> Can I run Llama-3-8B on an L4?", ts="1700000100.000001"))
    fake.posted()
    follow = event("<@UBOT> and the A10G?", ts="1700000150.000001",
                   thread_ts="1700000100.000001")  # fmt: skip
    _post(http, follow)
    replies = fake.posted(count=2)
    assert replies[1]["thread_ts"] == "1700000100.000001"
    assert "Llama-3-8B fits on one NVIDIA A10G" in replies[1]["text"]


def test_direct_messages_are_answered_channel_chatter_is_not(
    http: TestClient, fake: FakeSlack
) -> None:
    _post(http, event("L40 bandwidth?", kind="message", channel_type="channel", ts="1.1"))
    _post(http, event("L40 bandwidth?", kind="message", channel_type="im", channel="D1", ts="1.2"))
    replies = fake.posted()
    time.sleep(0.5)  # the channel message, had it been answered, would be there by now
    assert [r["channel"] for r in fake.posted()] == ["D1"] and "864 GB/s" in replies[0]["text"]


@pytest.mark.parametrize(
    "extra",
    [{"bot_id": "BBOT", "user": "UBOT"}, {"bot_id": "B999"}, {"subtype": "bot_message"},
     {"subtype": "message_changed"}],
)  # fmt: skip
def test_bot_messages_and_edits_are_ignored(http: TestClient, fake: FakeSlack,
                                            extra: dict[str, Any]) -> None:  # fmt: skip
    _post(http, event("L40?", kind="message", channel_type="im", ts="2.1", **extra))
    _post(http, event("<@UBOT> L40?", ts="2.2", **extra))
    time.sleep(1.0)
    assert fake.posted(timeout=0) == []


@pytest.mark.parametrize(
    ("secret", "age_s"), [("wrong-secret", 0), (SECRET, 3600)], ids=["bad signature", "replayed"]
)
def test_unsigned_or_stale_requests_are_refused(http: TestClient, fake: FakeSlack, secret: str,
                                                age_s: int) -> None:  # fmt: skip
    status = _post(http, event("<@UBOT> L40?", ts="3.1"), secret, int(time.time()) - age_s)
    assert status == 401
    time.sleep(0.5)
    assert fake.posted(timeout=0) == []


def test_a_busy_user_is_asked_politely_to_wait(fake: FakeSlack, rules_advisor: Any) -> None:
    http = TestClient(slack.http_app(_bot(fake, rules_advisor, slack.RateLimiter(2, 60))))
    for i in range(3):
        _post(http, event("<@UBOT> L40 bandwidth?", ts=f"4.{i}"))
        fake.posted(count=i + 1)
    texts = [r["text"] for r in fake.posted(count=3)]
    assert "please wait a moment" in texts[2] and "864 GB/s" in texts[0]
    _post(http, event("<@UBOT> L40 bandwidth?", user="U2", ts="4.9"))  # someone else may ask
    assert "864 GB/s" in fake.posted(count=4)[3]["text"]


def test_the_rate_limit_window_slides() -> None:
    limiter = slack.RateLimiter(2, 60)
    assert limiter.allow("u", 0) and limiter.allow("u", 10) and not limiter.allow("u", 59)
    assert limiter.allow("u", 60.5)  # the first ask has left the window


def test_bad_input_gets_the_advisor_message(http: TestClient, fake: FakeSlack) -> None:
    _post(http, event("<@UBOT>   ", ts="5.1"))
    assert fake.posted()[0]["text"] == "Ask a question: the text is empty."


def test_socket_mode_answers_and_acknowledges(fake: FakeSlack, rules_advisor: Any) -> None:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    socket = FakeSocketMode()
    fake.socket_url = socket.url
    handler = SocketModeHandler(_bot(fake, rules_advisor), "xapp-test-token")
    handler.connect()  # type: ignore[no-untyped-call]
    try:
        socket.push(event("<@UBOT> What is the memory bandwidth of the L40?", ts="6.1"), "e1")
        (reply,) = fake.posted()
        assert reply["thread_ts"] == "6.1" and "864 GB/s" in reply["text"]
        assert {"envelope_id": "e1"} in socket.acks
        opened = [p for m, p in fake.calls if m == "apps.connections.open"]
        assert opened and opened[0]["_auth"] == "Bearer xapp-test-token"
    finally:
        handler.close()  # type: ignore[no-untyped-call]
        socket.close()


def test_tokens_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, fake: FakeSlack,
                                          rules_advisor: Any) -> None:  # fmt: skip
    monkeypatch.delenv("SLACK_BOT_TOKEN", raising=False)
    with pytest.raises(InvalidInput, match="SLACK_BOT_TOKEN"):
        slack.create_app(rules_advisor)
    monkeypatch.setenv("SLACK_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("SLACK_SIGNING_SECRET", SECRET)
    slack.create_app(rules_advisor, client=WebClient(base_url=fake.url))
    (method, params), *_ = fake.calls
    assert method == "auth.test" and params["_auth"] == f"Bearer {TOKEN}"  # the bot's token


def test_long_answers_fit_slack_limits() -> None:
    answer = Answer(text="x" * 10_000, warnings=["w"] * 80)
    blocks = slack.blocks(answer)
    assert len(blocks) == 50 and len(blocks[0]["text"]["text"]) <= 3000
    assert slack.mrkdwn("**Yes** and ## Head") == "*Yes* and ## Head"
    assert slack.mrkdwn("## Heading\ntext") == "*Heading*\ntext"


def test_secrets_never_reach_the_logs(
    fake: FakeSlack, rules_advisor: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")  # everything every library logs, at its most talkative
    http = TestClient(slack.http_app(_bot(fake, rules_advisor)))
    _post(http, event("<@UBOT> L40 bandwidth?", ts="7.1"))
    _post(http, event("<@UBOT> L40 bandwidth?", ts="7.2"), secret="wrong")
    fake.posted()
    assert caplog.records  # the libraries did log
    assert TOKEN not in caplog.text and SECRET not in caplog.text
