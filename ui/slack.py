"""The Slack bot (Slack Bolt): `gpu-advisor slack [--mode socket|http]`.

It answers app mentions and direct messages in a thread; the Slack thread is the advisor's
conversation, so follow-ups in the thread remember the GPUs and model. Bot messages (its own
included) are ignored. Each user may ask RATE_LIMIT questions per RATE_WINDOW_S seconds; past
that the bot says so politely. Tokens come from the environment only: SLACK_BOT_TOKEN, and
SLACK_SIGNING_SECRET (HTTP mode: every request's signature is verified) or SLACK_APP_TOKEN
(Socket Mode). Everything is asked through `advisor.api`.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import defaultdict, deque
from typing import Any

from fastapi import FastAPI, Request, Response
from slack_bolt import App
from slack_bolt.adapter.fastapi import SlackRequestHandler
from slack_sdk import WebClient

from advisor.api import Advisor, Answer
from advisor.config import secret
from advisor.errors import AdvisorError
from ui import render

RATE_LIMIT = 6
RATE_WINDOW_S = 60.0
_MENTION = re.compile(r"<@[A-Z0-9]+>")
_SECTION_CHARS = 2900  # Slack's limit for a section's text is 3,000
log = logging.getLogger(__name__)


class RateLimiter:
    """At most `limit` asks per user in any `window_s` seconds."""

    def __init__(self, limit: int = RATE_LIMIT, window_s: float = RATE_WINDOW_S) -> None:
        self.limit, self.window_s = limit, window_s
        self._times: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, user: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._times[user]
            while times and now - times[0] >= self.window_s:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True


def create_app(
    advisor: Advisor | None = None,
    *,
    token: str | None = None,
    signing_secret: str | None = None,
    client: WebClient | None = None,
    limiter: RateLimiter | None = None,
) -> App:
    """The Bolt app. Tokens default to the environment; `client` points the Web API elsewhere
    (the tests' fake Slack on loopback)."""
    adv = advisor or Advisor(checkpoint="sqlite")
    limiter = limiter or RateLimiter()
    token = token or secret("SLACK_BOT_TOKEN", required="The Slack bot")
    client = client or WebClient()
    client.token = client.token or token
    app = App(
        signing_secret=signing_secret or secret("SLACK_SIGNING_SECRET") or "",
        client=client,  # Bolt takes the bot token from its client
        request_verification_enabled=True,
    )

    def answer(event: dict[str, Any], say: Any) -> None:
        if event.get("bot_id") or event.get("subtype"):
            return  # bots (this one too), edits, joins: not questions
        user = event.get("user") or "?"
        thread_ts = event.get("thread_ts") or event["ts"]
        if not limiter.allow(user):
            say(text=f"<@{user}> you have asked {limiter.limit} questions in the last "
                     f"{limiter.window_s:.0f} seconds; please wait a moment and ask again.",
                thread_ts=thread_ts)  # fmt: skip
            return
        question = _MENTION.sub(" ", event.get("text") or "").strip()
        thread = f"slack-{event.get('team', '')}-{event.get('channel', '')}-{thread_ts}"
        try:
            reply = adv.ask(question, thread_id=thread)
        except AdvisorError as exc:
            say(text=str(exc), thread_ts=thread_ts)
            return
        except Exception:
            log.exception("answering a Slack message failed")
            say(text="Sorry, something went wrong answering that; please try again.",
                thread_ts=thread_ts)  # fmt: skip
            return
        say(text=mrkdwn(reply.text)[:_SECTION_CHARS], blocks=blocks(reply), thread_ts=thread_ts)

    @app.event("app_mention")
    def on_mention(event: dict[str, Any], say: Any) -> None:
        answer(event, say)

    @app.event("message")
    def on_message(event: dict[str, Any], say: Any) -> None:
        if event.get("channel_type") == "im":  # in channels, only mentions are for the bot
            answer(event, say)

    return app


def blocks(answer: Answer) -> list[dict[str, Any]]:
    """Block Kit: the answer, warnings, one context block per calculation, the sources."""
    out: list[dict[str, Any]] = [_section(mrkdwn(answer.text))]
    for warning in answer.warnings:
        out.append(_section(f":warning: {mrkdwn(warning)}"))
    for r in render.receipts(answer):
        facts = [f"*{r.tool}* ({render.inputs_text(r.inputs)})"]
        facts += [f"{k}: {render.value_text(v)}" for k, v in r.results.items()]
        out.append(_context(" · ".join(facts)))
    if answer.citations:
        out.append({"type": "divider"})
        for i, c in enumerate(answer.citations, 1):
            out.append(_context(f"[{i}] *{c.title}* / {c.section} (`{c.doc}`)"))
    out.append(_context(f"{answer.engine} engine · {answer.latency_ms:.0f} ms"))
    return out[:50]  # Slack's limit per message


def mrkdwn(text: str) -> str:
    """Markdown as Slack writes it: **bold** is *bold*; tables and headings stay as text."""
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", text)
    return re.sub(r"^#+\s*(.+)$", r"*\1*", text, flags=re.MULTILINE)


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:_SECTION_CHARS]}}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text[:_SECTION_CHARS]}]}


def http_app(app: App) -> FastAPI:
    """HTTP mode: a FastAPI app taking Slack's events at POST /slack/events (signature checked
    by Bolt against SLACK_SIGNING_SECRET)."""
    handler = SlackRequestHandler(app)
    api = FastAPI(title="GPU Advisor Slack events")

    @api.post("/slack/events")
    async def events(request: Request) -> Response:
        return await handler.handle(request)

    return api


def serve(
    mode: str, advisor: Advisor | None = None, *, host: str = "127.0.0.1", port: int = 3000
) -> None:
    """Run until interrupted: "socket" (needs SLACK_APP_TOKEN) or "http"."""
    if mode == "http":
        import uvicorn

        secret("SLACK_SIGNING_SECRET", required="Slack HTTP mode")
        uvicorn.run(http_app(create_app(advisor)), host=host, port=port, log_level="warning")
    else:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        app_token = secret("SLACK_APP_TOKEN", required="Slack Socket Mode")
        handler = SocketModeHandler(create_app(advisor), app_token)
        handler.start()  # type: ignore[no-untyped-call]
