"""The one door: every interface (CLI, UI, REST, Slack, MCP, eval) asks through `Advisor`.

    from advisor import Advisor
    adv = Advisor(engine="rules")
    ans = adv.ask("Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?", thread_id="t1")
    print(ans.text, ans.citations, ans.numbers)

One Advisor may be shared across threads; the index, the embedding model and any LLM load once,
on first use. Conversations are kept per thread_id (advisor.threads): in memory by default, in a
SQLite file (`checkpoint="sqlite"` or a path) so a later process continues them, or in
PostgreSQL (`checkpoint="postgresql://..."`) so workers on several hosts share them. Each
answered turn is recorded with its receipts and sources: `turns()`, `feedback()`, `export()`.
"""

from __future__ import annotations

import asyncio
import os
import queue
import re
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from advisor.answer import ASSUMED_PREFIX, Answer, Citation, NumberRef, ToolCall
from advisor.calculator import ALL_PRECISIONS, LIMITS, WORKLOADS
from advisor.calculator import ENGINES as INFERENCE_ENGINES
from advisor.config import ANSWER_ENGINES
from advisor.errors import InvalidInput
from advisor.threads import RATINGS, Conversations, check_feedback, open_conversations
from advisor.transcript import (
    Receipt,
    conversation_markdown,
    inputs_text,
    receipts,
    receipts_markdown,
    sources_markdown,
    value_text,
    warnings_markdown,
)

MAX_QUESTION_CHARS = 4000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _clean(question: object) -> str:
    if not isinstance(question, str):
        raise InvalidInput("The question must be text.")
    text = _CONTROL.sub(" ", question).strip()
    if not text:
        raise InvalidInput("Ask a question: the text is empty.")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidInput(
            f"The question is {len(text):,} characters; the limit is "
            f"{MAX_QUESTION_CHARS:,}. Shorten it."
        )
    return text


def _engine(name: str | None) -> str:
    engine = (name or os.environ.get("ADVISOR_ENGINE") or "rules").strip().lower()
    if engine not in ANSWER_ENGINES:
        raise InvalidInput(f"Unknown engine {engine!r}; use one of {', '.join(ANSWER_ENGINES)}.")
    return engine


class Advisor:
    """Answers questions; see the module docstring."""

    def __init__(
        self,
        engine: str | None = None,
        *,
        checkpoint: str | Path | None = None,
        searcher: Any = None,
    ) -> None:
        self.engine = _engine(engine)
        self._checkpoint = checkpoint
        self._searcher = searcher
        self._lock = threading.RLock()
        self._graph: Any = None
        self._store: Conversations | None = None
        self._models: dict[str, Any] = {}

    # -- resources, loaded once

    def _get_graph(self) -> Any:
        with self._lock:
            if self._graph is None:
                from advisor.agent.graph import build

                self._graph = build()
            return self._graph

    def _conversations(self) -> Conversations:
        with self._lock:
            if self._store is None:
                self._store = open_conversations(self._checkpoint)
            return self._store

    def _get_searcher(self) -> Any:
        with self._lock:
            if self._searcher is None:
                from advisor.tools import _default_searcher

                self._searcher = _default_searcher()
            return self._searcher

    def _get_model(self, engine: str) -> Any:
        with self._lock:
            if engine not in self._models:
                from advisor.agent.llm import chat_model

                self._models[engine] = chat_model(engine)
            return self._models[engine]

    # -- asking

    def ask(
        self,
        question: str,
        thread_id: str | None = None,
        engine: str | None = None,
        *,
        _emit: Any = None,
    ) -> Answer:
        """Answer one question, continuing the conversation `thread_id` if given."""
        return self._ask(question, thread_id, engine, _emit)[0]

    def _ask(
        self, question: str, thread_id: str | None, engine: str | None, emit: Any
    ) -> tuple[Answer, int]:
        """The answer and its turn number in the thread (0 for the first)."""
        from advisor.agent.toolbox import ToolBox
        from advisor.agent.turn import Turn

        text = _clean(question)
        chosen = _engine(engine) if engine else self.engine
        started = time.perf_counter()
        box = ToolBox(searcher=self._get_searcher(), emit=emit)
        thread = thread_id or uuid.uuid4().hex
        earlier = self._conversations().turns.turns(thread) if thread_id else []
        asked = tuple(str(r.get("question", "")) for r in earlier)
        turn = Turn(box=box, earlier=asked)
        warnings: list[str] = []
        if chosen != "rules":
            try:
                turn.model = self._get_model(chosen)
            except InvalidInput as exc:
                warnings.append(
                    f"The {chosen} engine is not available ({exc}); this is the rules "
                    "engine's answer."
                )
                chosen = "rules"
        try:
            self._turn(text, chosen, turn, earlier)
        except Exception as exc:
            if chosen == "rules":
                raise
            warnings.append(
                f"The {chosen} engine failed ({type(exc).__name__}: {exc}); this is "
                "the rules engine's answer."
            )
            box.reset()
            turn = Turn(box=box, earlier=asked)
            self._turn(text, "rules", turn, earlier)
        answer = self._answer(text, turn, thread, warnings, started)
        # one record per turn, in one transaction: the answer and what the next turn inherits
        # (a crash before it loses this answer only, never an earlier turn)
        from advisor.agent.turn import context_after

        context = context_after(turn)
        number = self._conversations().turns.add(thread, text, answer.to_dict(), context)
        return answer, number

    def _turn(self, question: str, engine: str, turn: Any, earlier: list[dict[str, Any]]) -> None:
        """Answer with `engine`; `earlier` are the thread's answered turns, oldest first."""
        from advisor.agent.turn import answer_by_rules, context_of, plan

        context = context_of(earlier[-1]) if earlier else None
        if engine == "rules":  # the two steps alone: no graph, no LangChain to import
            plan(turn, question, context)
            answer_by_rules(turn)
            return
        state = {"question": question, "engine": engine, "context": context,
                 "history": _history(earlier)}  # fmt: skip
        self._get_graph().invoke(state, {"configurable": {"turn": turn}})

    def _answer(
        self,
        question: str,
        turn: Any,
        thread: str,
        warnings: list[str],
        started: float,
    ) -> Answer:
        draft = turn.draft
        _check, numbers = turn.box.check(draft.text, turn.said(question), draft.citations)
        all_warnings = _unique(
            [
                *warnings,
                *turn.warnings,
                *draft.warnings,
                *_claim_warnings(draft, turn.box, _answer_gpus(turn), turn.query),
            ]
        )
        answer = Answer(
            text=draft.text,
            citations=list(draft.citations),
            tool_calls=list(turn.box.calls),
            numbers=numbers,
            warnings=all_warnings,
            engine=turn.engine_used,
            latency_ms=(time.perf_counter() - started) * 1000,
            thread_id=thread,
        )
        return answer

    def stream(
        self, question: str, thread_id: str | None = None, engine: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """Events as the answer is made: tool_start, tool_end, text (chunks of the checked
        answer), then {"type": "answer", "answer": Answer}. Text is released only after the
        number guard has passed it, so nothing unchecked is ever shown."""
        _clean(question)  # bad input fails here, at the call, before any thread starts
        return self._events(question, thread_id, engine)

    def _events(self, question: str, thread_id: str | None,
                engine: str | None) -> Iterator[dict[str, Any]]:  # fmt: skip
        events: queue.Queue[dict[str, Any]] = queue.Queue()
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                result["answer"], result["turn"] = self._ask(
                    question, thread_id, engine, events.put
                )
            except Exception as exc:
                result["error"] = exc
            events.put({"type": "_done"})

        threading.Thread(target=work, daemon=True).start()
        while (event := events.get())["type"] != "_done":
            yield event
        if "error" in result:
            raise result["error"]
        answer: Answer = result["answer"]
        for chunk in re.split(r"(?<=\n\n)", answer.text):
            if chunk:
                yield {"type": "text", "text": chunk}
        yield {"type": "answer", "answer": answer, "turn": result["turn"]}

    async def aask(
        self, question: str, thread_id: str | None = None, engine: str | None = None
    ) -> Answer:
        return await asyncio.to_thread(self.ask, question, thread_id, engine)

    async def astream(
        self, question: str, thread_id: str | None = None, engine: str | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        iterator = self.stream(question, thread_id, engine)
        done = object()
        while (event := await asyncio.to_thread(next, iterator, done)) is not done:
            yield event  # type: ignore[misc]

    def close(self) -> None:
        """Free the conversation store's connections (a PostgreSQL pool's threads too); the
        Advisor opens them again if it is used afterwards. `with Advisor(...) as adv:` calls it."""
        with self._lock:
            if self._store is not None and self._store.where != "memory":  # memory: keep it
                self._store.close()
                self._store = None  # the graph holds no store: it stays built

    def __enter__(self) -> Advisor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def warm_up(self) -> None:
        """Load the index (building it if there is none), the embedding model, the catalog and the
        conversation store (and an LLM engine's graph) now, so that a server's first answer is as
        quick as the rest."""
        self._conversations()
        if self.engine != "rules":
            self._get_graph()
        # one search loads the embedding model, one estimate the catalog and the price table;
        # tools run outside any thread, so nothing is recorded
        self.tool("search_corpus", {"query": "GPU memory bandwidth", "k": 1})
        self.tool("estimate", {"model": "llama-3-8b", "gpu": "l4"})

    def tool(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run one of the advisor's tools directly (tool_functions(): the calculator, prices,
        corpus search), as an agent's tool call does. Bad input comes back as {"error": "..."}."""
        from advisor.tools import call_tool

        args = {} if arguments is None else arguments
        if name == "search_corpus" and isinstance(args, dict):
            args = {**args, "searcher": self._get_searcher()}  # the Advisor's index, not a caller's
        return call_tool(name, args)

    def add_documents(self, paths: list[str | Path], progress: Any = None) -> dict[str, Any]:
        """Add Markdown, HTML or PDF files to the search index, as `gpu-advisor corpus add`:
        {"added", "unchanged", "failed" (file, error), "claims" (the audit of what was added),
        "claim_counts", "index", "seconds"}. `progress(stage, done, total)` follows it. The
        next answer already searches the new passages."""
        from advisor.config import Settings
        from advisor.retrieval.documents import add_documents
        from advisor.retrieval.embed import default_embedder

        files = [Path(p) for p in paths]
        report = add_documents(files, Settings.from_env(), default_embedder(), progress=progress)
        refresh = getattr(self._get_searcher(), "refresh", None)
        if report.added and callable(refresh):
            refresh()
        return report.to_dict()

    def gpus(self) -> list[dict[str, Any]]:
        """Every GPU in the datasheet table, as the `gpu_specs` tool gives each."""
        from advisor.catalog import list_gpus

        return [gpu.to_dict() for gpu in list_gpus()]

    def history(self, thread_id: str) -> list[dict[str, str]]:
        """The questions and answers of a thread so far."""
        return _history(self._conversations().turns.turns(_thread(thread_id)))

    def turns(self, thread_id: str) -> list[dict[str, Any]]:
        """Every answered turn of a thread, oldest first: {"turn", "question", "answer" (the
        Answer's JSON), "context" (what the next turn inherits: the question as understood),
        "asked_at", "feedback" ({"rating", "note"} or None)}."""
        return self._conversations().turns.turns(_thread(thread_id))

    def feedback(self, thread_id: str, turn: int, rating: str, note: str = "") -> None:
        """Keep a like or dislike (and an optional note) with turn `turn` (0 for the first) of
        a thread; giving it again replaces it. InvalidInput for a turn that is not there."""
        rating, note = check_feedback(rating, note)
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            raise InvalidInput("The turn is a number: 0 for the first answer of the thread.")
        self._conversations().turns.feedback(_thread(thread_id), turn, rating, note)

    def export(self, thread_id: str) -> str:
        """The conversation as Markdown: each question and answer with its warnings, the
        calculation receipts (tool calls: inputs and results), the sources and the feedback."""
        thread = _thread(thread_id)
        return conversation_markdown(thread, self.turns(thread))


def _history(turns: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"q": t["question"], "a": t["answer"]["answer"][:2000]} for t in turns]


def workload_families() -> list[dict[str, Any]]:
    """Every workload family the calculator knows: name, label, workloads (name -> label),
    engines and example questions, for interfaces that list them."""
    from advisor.calculator import FAMILIES

    return [
        {"name": f.name, "label": f.label, "workloads": dict(f.workloads),
         "engines": list(f.engines), "examples": list(f.examples)}
        for f in FAMILIES.values()
    ]  # fmt: skip


def _thread(thread_id: object) -> str:
    if not isinstance(thread_id, str) or not thread_id.strip() or len(thread_id) > 200:
        raise InvalidInput("A thread id is 1 to 200 characters of text.")
    return thread_id


def _claim_warnings(draft: Any, box: Any, gpus: set[str], query: Any = None) -> list[str]:
    """The datasheet's word on the wrong spec claims of the cited passages that concern the
    answer: a claim the answer quotes, or one about a GPU the answer speaks of (both GPUs of a
    ratio), or any when the answer is about no GPU in particular. A passage cited for an H100
    price keeps quiet about its A100s; one cited for a single card keeps quiet about how 8 of
    them scale, and one cited for an LLM about a ResNet-50 figure."""
    from advisor.agent.compose import claim_warning

    several = query is not None and (
        any((g.count or 1) > 1 for g in query.gpus) or (query.num_gpus or 1) > 1
    )
    models = [_plain_name(m.text) for m in query.models] if query is not None else []

    def concerns(claim: dict[str, Any]) -> bool:
        if not gpus or (claim.get("quote") and claim["quote"].strip() in draft.text):
            return True  # an answer about no GPU in particular, or one that quotes the claim
        if max(claim.get("count") or 1, claim.get("other_count") or 1) > 1 and not several:
            return False  # "8x PCIe A100s ... 4x NVLink A100s" under a one-card answer
        if claim.get("model") and models and _plain_name(claim["model"]) not in models:
            return False  # a ResNet-50 ratio under a question about an LLM
        sides = [claim.get("gpu_ids") or [], claim.get("other_ids") or []]
        return all(gpus.intersection(ids) for ids in sides if ids)

    out = []
    for c in draft.citations:
        passage = box.passages.get(c.id, {})
        for claim in passage.get("claims", []):
            if claim["status"] == "disagrees" and concerns(claim):
                out.append(claim_warning(passage, claim))
    return out


def _plain_name(text: str) -> str:
    """A model's name in letters and digits only: "ResNet-50" and "resnet 50" are one."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _answer_gpus(turn: Any) -> set[str]:
    """The catalog GPUs a turn's answer speaks of: those the question named and those its tool
    calls were asked about."""
    from advisor.catalog import load_catalog

    known = load_catalog().gpus
    found: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, str):
            if value in known:
                found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list | tuple):
            for item in value:
                collect(item)

    if turn.query is not None:
        found.update(turn.query.gpu_ids)
    for call in turn.box.calls:  # a search's GPU too: "what do the articles say of the L40?"
        collect(call.args)
    return found


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def tool_functions() -> dict[str, Any]:
    """The tools as plain typed functions (name -> function), for interfaces that publish them
    (the MCP server). Their docstrings are the contract."""
    from advisor.tools import TOOLS

    return dict(TOOLS)


def tool_parameters(fn: Any) -> list[Any]:
    """A tool's parameters as a client gives them (advisor.tools.tool_parameters)."""
    from advisor.tools import tool_parameters as parameters

    return parameters(fn)


__all__ = [
    "ALL_PRECISIONS",
    "ANSWER_ENGINES",
    "ASSUMED_PREFIX",
    "INFERENCE_ENGINES",
    "LIMITS",
    "RATINGS",
    "WORKLOADS",
    "Advisor",
    "Answer",
    "Citation",
    "NumberRef",
    "Receipt",
    "ToolCall",
    "inputs_text",
    "receipts",
    "receipts_markdown",
    "sources_markdown",
    "tool_functions",
    "tool_parameters",
    "value_text",
    "warnings_markdown",
    "workload_families",
]
