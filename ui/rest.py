"""The REST API (FastAPI): `gpu-advisor serve`. Every route goes through `advisor.api`.

    POST /v1/ask          {"question", "thread_id"?, "engine"?} -> the Answer JSON (as CLI --json)
    POST /v1/ask/stream   the same, as server-sent events: tool_start, tool_end, text, answer
    POST /v1/estimate     the calculator's estimate JSON
    GET  /v1/gpus         every GPU in the datasheet table
    GET  /v1/gpus/{id}    one GPU (any name the catalog knows)
    GET  /healthz         liveness, no key needed

With an API key configured (ADVISOR_API_KEY), /v1 routes need `Authorization: Bearer <key>` or
`X-API-Key: <key>`. Errors are JSON {"detail": "..."}: 400 bad input, 401 no or wrong key,
404 unknown GPU or model, 422 malformed request.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterator
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from advisor import __version__
from advisor.api import ENGINES, MAX_QUESTION_CHARS, Advisor
from advisor.errors import AdvisorError

Workload = Literal["inference", "finetune-full", "finetune-lora", "finetune-qlora"]
Engine = Literal["rules", "local", "openai", "ollama"]
assert set(Engine.__args__) == set(ENGINES)  # type: ignore[attr-defined]


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


class EstimateIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model: str = Field(min_length=1, max_length=200, examples=["Llama-3-8B"])
    gpu: str = Field(min_length=1, max_length=200, examples=["L40S"])
    workload: Workload = "inference"
    num_gpus: int = Field(default=1, ge=1, le=1024)
    precision: str | None = Field(default=None, max_length=40, examples=["bf16", "int4"])
    context: int | None = Field(default=None, ge=1, le=10_000_000)
    batch: int = Field(default=1, ge=1, le=100_000)
    engine: str | None = Field(default=None, max_length=40, examples=["vllm"])
    train_tokens: float | None = Field(default=None, gt=0, le=1e15)


class Problem(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    404: {"model": Problem},
}


def create_app(advisor: Advisor | None = None, *, api_key: str | None = None) -> FastAPI:
    """The app; `api_key` None means no key is asked for (fine on 127.0.0.1)."""
    adv = advisor or Advisor(checkpoint="sqlite")
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

    @app.post("/v1/estimate", responses=ERRORS, dependencies=guarded)
    def estimate(body: EstimateIn) -> dict[str, Any]:
        return _tool_result(adv.tool("estimate", body.model_dump(exclude_none=True)))

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
                event = {"type": "answer", "answer": event["answer"].to_dict()}
            yield f"event: {event['type']}\ndata: {json.dumps(event, default=str)}\n\n"
    except AdvisorError as exc:  # the stream has started: the error travels as an event
        yield f"event: error\ndata: {json.dumps({'type': 'error', 'detail': str(exc)})}\n\n"


__all__ = ["create_app"]
