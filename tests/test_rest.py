"""The REST API: routes, errors, the API key, server-sent events, schemathesis over the OpenAPI
schema, and `gpu-advisor serve` as a real server on loopback."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from tests.servers import free_port, gpu_advisor, listening, wait_for
from ui.rest import create_app

KEYS = {"answer", "citations", "tool_calls", "numbers", "warnings", "engine", "latency_ms",
        "thread_id"}  # fmt: skip


@pytest.fixture(scope="module")
def client(rules_advisor: Any) -> TestClient:
    return TestClient(create_app(rules_advisor))


def test_ask_returns_the_answer_json_of_the_api(client: TestClient, rules_advisor: Any) -> None:
    question = "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"
    response = client.post("/v1/ask", json={"question": question, "thread_id": "rest-1"})
    assert response.status_code == 200
    data = response.json()
    assert set(data) == KEYS and data["thread_id"] == "rest-1"
    expected = rules_advisor.ask(question).to_dict()
    assert data["answer"] == expected["answer"]
    assert data["numbers"] == expected["numbers"] and data["tool_calls"] == expected["tool_calls"]


def test_a_thread_continues_across_requests(client: TestClient) -> None:
    client.post("/v1/ask", json={"question": "Can I run Llama-3-8B on an L4?", "thread_id": "r2"})
    data = client.post("/v1/ask", json={"question": "and the A10G?", "thread_id": "r2"}).json()
    assert "Llama-3-8B fits on one NVIDIA A10G" in data["answer"]


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({"question": "   "}, 422, "should match pattern"),
        ({"question": ""}, 422, "at least 1 character"),
        ({"question": "x" * 4001}, 422, "at most 4000 characters"),
        ({"question": "hi", "engine": "gpt-9"}, 422, "'rules', 'local', 'openai' or 'ollama'"),
        ({"question": "hi", "colour": "red"}, 422, "Extra inputs are not permitted"),
        ({}, 422, "Field required"),
    ],
)
def test_bad_asks_get_clear_errors(client: TestClient, body: dict[str, Any], status: int,
                                   detail: str) -> None:  # fmt: skip
    response = client.post("/v1/ask", json=body)
    assert response.status_code == status
    assert detail in json.dumps(response.json())


def test_estimate_gpus_and_gpu(client: TestClient, rules_advisor: Any) -> None:
    body = {"model": "Llama-3-8B", "gpu": "L4", "workload": "finetune-qlora"}
    estimate = client.post("/v1/estimate", json=body).json()
    assert estimate == rules_advisor.tool("estimate", body)
    assert estimate["fits"] is True and estimate["gpu"] == "l4"
    gpus = client.get("/v1/gpus").json()["gpus"]
    assert len(gpus) == len(rules_advisor.gpus()) > 50
    assert client.get("/v1/gpus/L40").json()["bandwidth_gbs"] == 864


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "detail"),
    [
        ("get", "/v1/gpus/RTX%209999", None, 404, "Unknown GPU 'RTX 9999'. Did you mean"),
        ("get", "/v1/gpus/A100", None, 400, "ambiguous"),
        ("post", "/v1/estimate", {"model": "gpt-17", "gpu": "L4"}, 404, "Unknown model"),
        ("post", "/v1/estimate", {"model": "Llama-3-8B", "gpu": "L4", "num_gpus": 0}, 422,
         "greater than or equal to 1"),
        ("post", "/v1/estimate", {"model": "Llama-3-8B", "gpu": "L4", "workload": "bake"}, 422,
         "finetune-qlora"),
    ],
)  # fmt: skip
def test_calculator_input_is_validated(client: TestClient, method: str, path: str,
                                       body: dict[str, Any] | None, status: int,
                                       detail: str) -> None:  # fmt: skip
    response = client.request(method, path, json=body)
    assert response.status_code == status
    assert detail in json.dumps(response.json())


def test_stream_sends_tool_events_then_text_then_the_answer(client: TestClient) -> None:
    question = {"question": "What is the memory bandwidth of the L40?"}
    with client.stream("POST", "/v1/ask/stream", json=question) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [
            json.loads(line[6:]) for line in response.iter_lines() if line.startswith("data: ")
        ]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "tool_start" and kinds[-1] == "answer" and "text" in kinds
    text = "".join(e["text"] for e in events if e["type"] == "text")
    assert text == events[-1]["answer"]["answer"] and "864 GB/s" in text
    assert events[-1]["turn"] == 0  # a new thread's first answer
    assert client.post("/v1/ask/stream", json={"question": " "}).status_code == 422


def test_an_api_key_guards_v1_but_not_healthz(rules_advisor: Any) -> None:
    guarded = TestClient(create_app(rules_advisor, api_key="s3cret-key"))
    assert guarded.get("/healthz").status_code == 200
    assert guarded.get("/v1/gpus").status_code == 401
    assert guarded.get("/v1/gpus", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert (
        guarded.get("/v1/gpus", headers={"Authorization": "Bearer s3cret-key"}).status_code == 200
    )
    assert guarded.get("/v1/gpus", headers={"X-API-Key": "s3cret-key"}).status_code == 200
    refused = guarded.post("/v1/ask", json={"question": "L40?"})
    assert refused.status_code == 401 and "API key" in refused.json()["detail"]


def test_openapi_lists_every_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) == {"/healthz", "/v1/ask", "/v1/ask/stream", "/v1/estimate", "/v1/gpus",
                          "/v1/gpus/{gpu_id}", "/v1/threads/{thread_id}",
                          "/v1/threads/{thread_id}/feedback",
                          "/v1/threads/{thread_id}/export"}  # fmt: skip


def test_a_thread_its_feedback_and_its_export(client: TestClient) -> None:
    client.post("/v1/ask", json={"question": "What is the memory bandwidth of the L40?",
                                 "thread_id": "rest-fb"})  # fmt: skip
    turns = client.get("/v1/threads/rest-fb").json()["turns"]
    assert [t["turn"] for t in turns] == [0] and "864 GB/s" in turns[0]["answer"]["answer"]
    body = {"turn": 0, "rating": "dislike", "note": "cite the datasheet"}
    given = client.post("/v1/threads/rest-fb/feedback", json=body)
    assert given.status_code == 200 and given.json() == {"status": "ok"}
    feedback = client.get("/v1/threads/rest-fb").json()["turns"][0]["feedback"]
    assert (feedback["rating"], feedback["note"]) == ("dislike", "cite the datasheet")
    exported = client.get("/v1/threads/rest-fb/export")
    assert exported.headers["content-type"].startswith("text/markdown")
    assert "### Calculation receipts" in exported.text and "_Feedback: dislike" in exported.text
    assert client.get("/v1/threads/nobody").json() == {"thread_id": "nobody", "turns": []}


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"turn": 3, "rating": "like"}, 400, "has no answered turn 3"),
        ({"turn": 0, "rating": "meh"}, 422, "like"),
        ({"turn": -1, "rating": "like"}, 422, "greater than or equal to 0"),
        ({"turn": 0, "rating": "like", "note": "x" * 2001}, 422, "2000"),
        ({"turn": 0, "rating": "like", "extra": 1}, 422, "extra"),
    ],
)
def test_bad_feedback_gets_a_clear_error(client: TestClient, body: dict[str, Any], status: int,
                                         says: str) -> None:  # fmt: skip
    client.post("/v1/ask", json={"question": "L40 bandwidth?", "thread_id": "rest-bad-fb"})
    response = client.post("/v1/threads/rest-bad-fb/feedback", json=body)
    assert response.status_code == status and says in json.dumps(response.json()["detail"])


# ---------------------------------------------------------------- schemathesis


@pytest.fixture(scope="module")
def api_schema(rules_advisor: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(rules_advisor))


ROUTES = [("POST", "/v1/ask"), ("POST", "/v1/ask/stream"), ("POST", "/v1/estimate"),
          ("GET", "/v1/gpus"), ("GET", "/v1/gpus/{gpu_id}"), ("GET", "/healthz"),
          ("GET", "/v1/threads/{thread_id}"), ("POST", "/v1/threads/{thread_id}/feedback"),
          ("GET", "/v1/threads/{thread_id}/export")]  # fmt: skip


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_the_api_keeps_its_schema_for_any_input(api_schema: Any, method: str, path: str) -> None:
    """Requests generated from the OpenAPI schema (valid and not): never a 5xx, and every
    response as the schema documents it. (The strategy API: schemathesis' own pytest fixture
    loader does not run on pytest 9.)"""
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    def check(case: Any) -> None:
        case.call_and_validate(excluded_checks=excluded)

    # a schema cannot say which names are ambiguous ("A100": 400 with the choices), nor which
    # turns a thread has, so there a schema-valid request may be refused; the other checks run
    refusable = ("/v1/estimate", "/v1/gpus/{gpu_id}", "/v1/threads/{thread_id}/feedback")
    excluded = [positive_data_acceptance] if path in refusable else []

    check()


# ---------------------------------------------------------------- the real server


@pytest.mark.slow
def test_gpu_advisor_serve_on_loopback(home: Path) -> None:
    port = free_port()
    with gpu_advisor("serve", "--port", str(port), env={"ADVISOR_API_KEY": "k-123"}) as proc:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc=proc)
        assert listening(port) == {"0100007F"}  # 127.0.0.1 only, by default
        ask = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/ask",
            data=json.dumps({"question": "What is the memory bandwidth of the L40?"}).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer k-123"},
        )
        with urllib.request.urlopen(ask, timeout=120) as response:
            assert "864 GB/s" in json.loads(response.read())["answer"]
        assert (home / "threads.sqlite").is_file()  # conversations kept across restarts
    assert "k-123" not in (proc.stdout.read() if proc.stdout else "")
