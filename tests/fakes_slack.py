"""A fake Slack on loopback: the Web API (what the bot calls, recorded) and a Socket Mode
websocket (events pushed to the bot, acknowledgements recorded). Nothing leaves the machine."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BOT_USER = "UBOT"


class FakeSlack:
    """Answers Web API methods ({"ok": true}) and records every call as (method, params)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.socket_url = ""
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                method = self.path.rsplit("/", 1)[-1]
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                if "json" in (self.headers.get("Content-Type") or ""):
                    params = json.loads(raw or "{}")
                else:
                    params = {k: v[0] for k, v in urllib.parse.parse_qs(raw).items()}
                params["_auth"] = self.headers.get("Authorization", "")
                with fake._lock:
                    fake.calls.append((method, params))
                body = {"ok": True}
                if method == "auth.test":
                    body |= {"user_id": BOT_USER, "bot_id": "BBOT", "team_id": "T1"}
                elif method == "chat.postMessage":
                    body |= {"ts": f"{time.time():.6f}", "channel": params.get("channel")}
                elif method == "apps.connections.open":
                    body |= {"url": fake.socket_url}
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def posted(self, timeout: float = 60.0, count: int = 1) -> list[dict[str, Any]]:
        """The chat.postMessage calls, waiting until there are `count` of them."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                found = [p for m, p in self.calls if m == "chat.postMessage"]
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def signed(body: str, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """The headers Slack sends with an event: v0 HMAC-SHA256 of "v0:<ts>:<body>"."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": f"v0={digest}",
        "Content-Type": "application/json",
    }


def event(text: str, *, kind: str = "app_mention", user: str = "U1", channel: str = "C1",
          ts: str = "1700000000.000100", **extra: Any) -> dict[str, Any]:  # fmt: skip
    """An Events API envelope as Slack posts it."""
    inner = {"type": kind, "user": user, "text": text, "ts": ts, "channel": channel,
             "team": "T1", **extra}  # fmt: skip
    return {"token": "x", "team_id": "T1", "api_app_id": "A1", "type": "event_callback",
            "event_id": f"Ev{abs(hash((text, ts, user))) % 10**9}", "event_time": int(time.time()),
            "event": inner}  # fmt: skip


class FakeSocketMode:
    """A Socket Mode endpoint: sends `hello`, then each queued envelope; records the acks."""

    def __init__(self) -> None:
        import websockets

        self.acks: list[dict[str, Any]] = []
        self._outbox: asyncio.Queue[dict[str, Any]] | None = None
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def handler(ws: Any) -> None:
            await ws.send(json.dumps({"type": "hello", "num_connections": 1}))
            assert self._outbox is not None

            async def pump() -> None:
                assert self._outbox is not None
                while True:
                    await ws.send(json.dumps(await self._outbox.get()))

            task = asyncio.ensure_future(pump())
            try:
                async for message in ws:
                    self.acks.append(json.loads(message))
            except websockets.ConnectionClosed:
                pass  # the bot hung up without a close frame: its handler was closed
            finally:
                task.cancel()

        async def start() -> None:
            self._outbox = asyncio.Queue()
            self._server = await websockets.serve(handler, "127.0.0.1", 0)
            port = self._server.sockets[0].getsockname()[1]
            self.url = f"ws://127.0.0.1:{port}/"
            ready.set()

        threading.Thread(target=self._loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(start(), self._loop)
        ready.wait(10)

    def push(self, payload: dict[str, Any], envelope_id: str = "env-1") -> None:
        envelope = {"envelope_id": envelope_id, "type": "events_api", "payload": payload,
                    "accepts_response_payload": False}  # fmt: skip
        assert self._outbox is not None
        self._loop.call_soon_threadsafe(self._outbox.put_nowait, envelope)

    def close(self) -> None:
        self._server.close()
        self._loop.call_soon_threadsafe(self._loop.stop)
