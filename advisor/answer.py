"""The answer every interface receives: text plus where each part of it came from."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# how an answer opens the line of defaults it assumed (the UI shows that line as a list)
ASSUMED_PREFIX = "Assumed, as the question did not say: "


@dataclass(frozen=True)
class Citation:
    """A passage the answer cites; always one that retrieval returned for this answer."""

    id: str
    doc: str
    title: str
    section: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ToolCall:
    name: str
    args: dict[str, Any]
    result: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class NumberRef:
    """A number in the answer text and its provenance ("tool:estimate", "passage:<id>",
    "question"), or None when the guard could not trace it."""

    text: str
    value: float
    unit: str | None
    provenance: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Answer:
    text: str
    citations: list[Citation] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    numbers: list[NumberRef] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    engine: str = "rules"
    latency_ms: float = 0.0
    thread_id: str | None = None

    @property
    def grounding_rate(self) -> float:
        """Share of the numbers in the text that trace to a tool, a passage or the question."""
        if not self.numbers:
            return 1.0
        return sum(n.provenance is not None for n in self.numbers) / len(self.numbers)

    def to_dict(self) -> dict[str, Any]:
        """The JSON every interface returns (CLI --json, REST, Slack, eval)."""
        return {
            "answer": self.text,
            "citations": [c.to_dict() for c in self.citations],
            "tool_calls": [t.to_dict() for t in self.tool_calls],
            "numbers": [n.to_dict() for n in self.numbers],
            "warnings": list(self.warnings),
            "engine": self.engine,
            "latency_ms": round(self.latency_ms, 1),
            "thread_id": self.thread_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        """The Answer that `to_dict()` wrote (a stored turn, an API response)."""
        return cls(
            text=str(data["answer"]),
            citations=[Citation(**c) for c in data.get("citations", [])],
            tool_calls=[ToolCall(**t) for t in data.get("tool_calls", [])],
            numbers=[NumberRef(**n) for n in data.get("numbers", [])],
            warnings=list(data.get("warnings", [])),
            engine=str(data.get("engine", "rules")),
            latency_ms=float(data.get("latency_ms", 0.0)),
            thread_id=data.get("thread_id"),
        )
