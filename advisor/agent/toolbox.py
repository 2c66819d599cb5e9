"""Runs tools for an engine and keeps the record an answer is checked against."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.agent import guard
from advisor.answer import Citation, NumberRef, ToolCall
from advisor.tools import call_tool

Emit = Callable[[dict[str, Any]], None]
# a GPU roomy enough for anything, for the tools' generic "<N>gb" GPU: what a job needs, on none
REFERENCE_MEMORY = "2000gb"


@dataclass
class ToolBox:
    """Every tool call of one answer, and every passage retrieval returned."""

    searcher: Any = None
    emit: Emit | None = None  # told of every tool start and end (Advisor.stream)
    calls: list[ToolCall] = field(default_factory=list)
    passages: dict[str, dict[str, Any]] = field(default_factory=dict)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.emit:
            self.emit({"type": "tool_start", "name": name, "args": args})
        run_args = dict(args)
        if name == "search_corpus" and self.searcher is not None:
            run_args["searcher"] = self.searcher
        try:
            result = call_tool(name, run_args)
        except Exception as exc:
            result = {"error": f"{name} failed: {exc}"}
        for passage in result.get("passages", []) if name == "search_corpus" else []:
            self.passages[passage["id"]] = passage
        self.calls.append(ToolCall(name, dict(args), result))
        if self.emit:
            self.emit({"type": "tool_end", "name": name, "result": result})
        return result

    def reset(self) -> None:
        """Forget every call and passage: an answer started over (the rules fallback)."""
        self.calls.clear()
        self.passages.clear()

    def citation(self, passage_id: str) -> Citation | None:
        """A citation for a passage retrieval returned; None for any other id."""
        p = self.passages.get(passage_id)
        if p is None:
            return None
        return Citation(p["id"], p["doc"], p["title"], p["section"], p["text"])

    def uncited_homes(self, text: str, cited: list[Citation]) -> dict[str, int]:
        """Numbers of `text` found only in passages retrieved but not cited: number -> the
        passage's [n] marker, so that a model can be told which passage to cite."""
        cited_ids = {c.id for c in cited}
        homes = {
            str(marker): guard.read_numbers(p["text"], skip_names=False)
            for marker, (pid, p) in enumerate(self.passages.items(), 1)
            if pid not in cited_ids
        }
        return {n.text: int(where) for n, where in guard.check(text, homes).grounded}

    def sources(self, question: str, cited: list[Citation]) -> dict[str, list[guard.Number]]:
        """Where numbers may come from: the tools' arguments and results, the cited passages
        and the question."""
        from advisor.agent.understand import normalise

        found: dict[str, list[guard.Number]] = {
            # as written and as read (NFKC reads the fraction "¾" as the digits 3 and 4)
            "question": [
                *guard.read_numbers(question, skip_names=False),
                *guard.read_numbers(normalise(question), skip_names=False),
            ]
        }
        for i, call in enumerate(self.calls):
            if call.name == "search_corpus":
                continue  # passages count only when cited
            found[f"tool:{call.name}#{i + 1}"] = guard.source_numbers(call.result, call.args)
        for c in cited:
            # a cited passage grounds its own numbers and the datasheet values its claims were
            # checked against ("the article says 1TB/s; the datasheet 864 GB/s")
            audit = [
                claim.get("datasheet") for claim in self.passages.get(c.id, {}).get("claims", [])
            ]
            found[f"passage:{c.id}"] = [
                *guard.read_numbers(c.text, skip_names=False),
                *guard.source_numbers(audit),
            ]
        return found

    def check(
        self, text: str, question: str, cited: list[Citation]
    ) -> tuple[guard.Check, list[NumberRef]]:
        """The guard's verdict on `text`, and its numbers with their provenance."""
        result = guard.check(text, self.sources(question, cited))
        where = {id(n): w for n, w in result.grounded}
        refs = [NumberRef(n.text, n.value, n.family, where.get(id(n))) for n in result.numbers]
        return result, refs
