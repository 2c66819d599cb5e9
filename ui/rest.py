"""The REST API (FastAPI): `gpu-advisor serve`. Every route goes through `advisor.api`.

    POST /v1/ask          {"question", "thread_id"?, "engine"?} -> the Answer JSON (as CLI --json)
    POST /v1/ask/stream   the same, as server-sent events: tool_start, tool_end, text, answer
                          (with its turn number in the thread, for feedback)
    POST /v1/estimate     the calculator's estimate JSON
    GET  /v1/gpus         every GPU in the datasheet table
    GET  /v1/gpus/{id}    one GPU (any name the catalog knows)
    GET  /v1/threads/{id}            the thread's answered turns, each with its feedback
    POST /v1/threads/{id}/feedback   {"turn", "rating": "like"|"dislike", "note"?}
    GET  /v1/threads/{id}/export     the conversation as Markdown, receipts and sources included
    GET  /healthz         liveness, no key needed

With an API key configured (ADVISOR_API_KEY), /v1 routes need `Authorization: Bearer <key>` or
`X-API-Key: <key>`. Errors are JSON {"detail": "..."}: 400 bad input, 401 no or wrong key,
404 unknown GPU or model, 422 malformed request.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Path, Request
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, create_model

from advisor import __version__
from advisor.api import (
    ANSWER_ENGINES,
    LIMITS,
    MAX_QUESTION_CHARS,
    RATINGS,
    WORKLOADS,
    Advisor,
    tool_functions,
    tool_parameters,
)
from advisor.config import conversation_store
from advisor.errors import AdvisorError

# choices come from the registries, never a copy: a new workload or engine appears here by itself
Workload = Literal[WORKLOADS]  # type: ignore[valid-type]
Engine = Literal[ANSWER_ENGINES]  # type: ignore[valid-type]
Rating = Literal[RATINGS]  # type: ignore[valid-type]
ThreadId = Annotated[str, Path(min_length=1, max_length=200)]


class AskIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # at least one visible character: all-blank or control-only text is not a question
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                          pattern=r"[^\s\x00-\x1f\x7f]",
                          examples=["Can I run Llama-3-8B on an L4?"])  # fmt: skip
    thread_id: str | None = Field(default=None, min_length=1, max_length=200)
    engine: Engine | None = None


class Citation(BaseModel):
    id: str
    doc: str
    title: str
    section: str
    text: str


class ToolCall(BaseModel):
    name: str
    args: dict[str, Any]
    result: dict[str, Any]


class NumberRef(BaseModel):
    text: str
    value: float
    unit: str | None
    provenance: str | None


class AnswerOut(BaseModel):
    answer: str
    citations: list[Citation]
    tool_calls: list[ToolCall]
    numbers: list[NumberRef]
    warnings: list[str]
    engine: str
    latency_ms: float
    thread_id: str | None


def _estimate_model() -> type[BaseModel]:
    """The /v1/estimate body: the estimate tool's own parameters, the workload as an enum."""
    fields: dict[str, Any] = {}
    for p in tool_parameters(tool_functions()["estimate"]):
        annotation = Workload if p.name == "workload" else p.annotation
        default = ... if p.default is p.empty else p.default
        if annotation is str:
            fields[p.name] = (str, Field(min_length=1, max_length=200))
        elif p.name in LIMITS:  # the calculator's own bounds
            low, high = LIMITS[p.name]
            fields[p.name] = (annotation, Field(default=default, ge=low, le=high))
        elif annotation == str | None:
            fields[p.name] = (annotation, Field(default=default, max_length=40))
        else:
            fields[p.name] = (annotation, default)
    return create_model(
        "EstimateIn", __config__=ConfigDict(extra="forbid", allow_inf_nan=False), **fields
    )


EstimateIn = _estimate_model()


class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"


class FeedbackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turn: int = Field(ge=0, le=100_000, description="0 for the thread's first answer")
    rating: Rating
    note: str = Field(default="", max_length=2000)


class TurnOut(BaseModel):
    turn: int
    question: str
    answer: AnswerOut
    asked_at: str
    feedback: dict[str, str] | None  # rating, note, given_at


class ThreadOut(BaseModel):
    thread_id: str
    turns: list[TurnOut]


class Problem(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    404: {"model": Problem},
}


def create_app(advisor: Advisor | None = None, *, api_key: str | None = None) -> FastAPI:
    """The app; `api_key` None means no key is asked for (fine on 127.0.0.1)."""
    adv = advisor or Advisor(checkpoint=conversation_store())
    app = FastAPI(title="GPU Advisor", version=__version__,
                  description="Which GPU for this ML job, and will it fit?")  # fmt: skip

    def authorised(request: Request) -> None:
        if api_key is None:
            return
        given = request.headers.get("x-api-key") or ""
        bearer = request.headers.get("authorization") or ""
        if bearer.lower().startswith("bearer "):
            given = given or bearer[7:].strip()
        if not hmac.compare_digest(given.encode(), api_key.encode()):
            raise HTTPException(401, "Missing or wrong API key (Authorization: Bearer <key>).")

    guarded = [Depends(authorised)]

    @app.exception_handler(AdvisorError)
    async def advisor_error(_request: Request, exc: AdvisorError) -> JSONResponse:
        status = 404 if isinstance(exc, KeyError) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__, "engine": adv.engine}

    @app.post("/v1/ask", response_model=AnswerOut, responses=ERRORS, dependencies=guarded)
    def ask(body: AskIn) -> dict[str, Any]:
        return adv.ask(body.question, thread_id=body.thread_id, engine=body.engine).to_dict()

    @app.post("/v1/ask/stream", responses=ERRORS, dependencies=guarded,
              response_class=StreamingResponse)  # fmt: skip
    def ask_stream(body: AskIn) -> StreamingResponse:
        events = adv.stream(body.question, thread_id=body.thread_id, engine=body.engine)
        return StreamingResponse(_sse(events), media_type="text/event-stream")

    @app.get("/v1/threads/{thread_id}", response_model=ThreadOut, responses=ERRORS,
             dependencies=guarded)  # fmt: skip
    def thread(thread_id: ThreadId) -> dict[str, Any]:
        return {"thread_id": thread_id, "turns": adv.turns(thread_id)}

    @app.post("/v1/threads/{thread_id}/feedback", responses=ERRORS, dependencies=guarded)
    def feedback(thread_id: ThreadId, body: FeedbackIn) -> dict[str, str]:
        adv.feedback(thread_id, body.turn, body.rating, body.note)
        return {"status": "ok"}

    @app.get("/v1/threads/{thread_id}/export", responses=ERRORS, dependencies=guarded,
             response_class=MarkdownResponse)  # fmt: skip
    def export(thread_id: ThreadId) -> MarkdownResponse:
        return MarkdownResponse(adv.export(thread_id))

    @app.post("/v1/estimate", responses=ERRORS, dependencies=guarded)
    def estimate(body: EstimateIn) -> dict[str, Any]:  # type: ignore[valid-type]
        args = body.model_dump(exclude_none=True)  # type: ignore[attr-defined]
        return _tool_result(adv.tool("estimate", args))

    @app.get("/v1/gpus", dependencies=guarded)
    def gpus() -> dict[str, Any]:
        return {"gpus": adv.gpus()}

    @app.get("/v1/gpus/{gpu_id}", responses=ERRORS, dependencies=guarded)
    def gpu(gpu_id: str) -> dict[str, Any]:
        return _tool_result(adv.tool("gpu_specs", {"gpu": gpu_id}))

    return app


def _tool_result(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        unknown = result["error"].startswith(("Unknown GPU", "Unknown model"))
        raise HTTPException(404 if unknown else 400, result["error"])
    return result


def _sse(events: Iterator[dict[str, Any]]) -> Iterator[str]:
    try:
        for event in events:
            if event["type"] == "answer":
                event = {"type": "answer", "answer": event["answer"].to_dict(),
                         "turn": event["turn"]}  # fmt: skip
            yield f"event: {event['type']}\ndata: {json.dumps(event, default=str)}\n\n"
    except AdvisorError as exc:  # the stream has started: the error travels as an event
        yield f"event: error\ndata: {json.dumps({'type': 'error', 'detail': str(exc)})}\n\n"


__all__ = ["create_app"]
