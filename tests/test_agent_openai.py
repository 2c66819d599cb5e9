"""The `openai` engine against a real OpenAI-compatible server: llama.cpp's server on loopback
serving the same local GGUF. The `ollama` engine is the same client with another base URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from advisor.agent.llm import chat_model
from tests import servers
from tests.test_agent_local import MODEL

pytestmark = [pytest.mark.llm, pytest.mark.slow]


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    assert MODEL.is_file(), f"run `gpu-advisor llm pull` first (model expected at {MODEL})"
    with servers.llama_server(str(MODEL)) as (url, _process):
        yield url


def test_openai_engine_answers_through_a_real_server(
    llama_server: str, searcher: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.api import Advisor

    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "local-gguf")
    monkeypatch.setenv("ADVISOR_LLM_TIMEOUT", "300")
    answer = Advisor(engine="openai", searcher=searcher).ask(
        "What is the memory bandwidth of the L40?"
    )
    assert "gpu_specs" in [t.name for t in answer.tool_calls]
    assert answer.grounding_rate == 1.0
    assert "864" in answer.text
    assert answer.engine == "openai", answer.warnings


def test_a_server_that_is_not_there_gives_the_rules_answer(
    searcher: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.api import Advisor

    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{servers.free_port()}/v1")
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "anything")
    answer = Advisor(engine="openai", searcher=searcher).ask("What is the L40's bandwidth?")
    assert answer.engine == "rules" and "864 GB/s" in answer.text
    assert any("openai engine failed" in w for w in answer.warnings)


def test_engine_configuration_errors_say_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(Exception, match="ADVISOR_LLM_MODEL"):
        chat_model("openai")
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "gpt-x")
    with pytest.raises(Exception, match="OPENAI_API_KEY"):
        chat_model("openai")


def test_ollama_engine_uses_its_openai_compatible_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box:11434")
    model = chat_model("ollama")
    assert str(model.openai_api_base) == "http://gpu-box:11434/v1"  # type: ignore[attr-defined]
    assert model.model_name == "qwen2.5:1.5b-instruct"  # type: ignore[attr-defined]
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "llama3.1:8b")
    assert chat_model("ollama").model_name == "llama3.1:8b"  # type: ignore[attr-defined]
    assert os.environ["OLLAMA_HOST"] == "gpu-box:11434"
