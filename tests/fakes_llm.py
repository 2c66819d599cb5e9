"""A scripted chat model: replies from a list, records what it was sent. For plumbing tests of
the LLM path only; the real local model has its own tests (test_agent_local.py)."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChat(BaseChatModel):
    """Each call returns the next scripted reply: an AIMessage, or an exception to raise."""

    script: list[Any]
    sent: list[list[BaseMessage]] = Field(default_factory=list)
    tools_offered: list[int] = Field(default_factory=list)
    _offer: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        assert kwargs.get("tool_choice") == "auto"  # llama.cpp's server calls tools only then
        self.tools_offered.append(len(tools))
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:  # fmt: skip
        self.sent.append(list(messages))
        reply = self.script.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return ChatResult(generations=[ChatGeneration(message=reply)])


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{name}"}])
