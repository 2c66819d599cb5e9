"""One turn of a conversation: what it builds up, and the two steps every engine shares.

    understand (the question, with what the thread's last turn left) -> Turn.query
    answer by the rules engine                                       -> Turn.draft

The rules engine runs these two steps and nothing else. The LLM engines run them as nodes of the
LangGraph graph (graph.py), which adds the model, its tool calls and the guard; that graph (and
LangChain) is imported only when an LLM engine answers, so a rules answer starts quickly.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from advisor.agent import rules
from advisor.agent.query import Query
from advisor.agent.toolbox import ToolBox
from advisor.agent.understand import understand
from advisor.catalog import load_catalog

_log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import BaseMessage


EARLIER_SAID = 3  # the thread's last turns whose user figures an answer may repeat


@dataclass
class Turn:
    """What one turn builds up: the parsed query, the tool record, the model's messages."""

    box: ToolBox
    model: BaseChatModel | None = None
    query: Query | None = None
    messages: list[BaseMessage] = field(default_factory=list)
    draft: rules.Draft | None = None
    rounds: int = 0
    attempts: int = 0
    problem: str | None = None  # why the last written answer was refused, told to the model
    warnings: list[str] = field(default_factory=list)
    engine_used: str = "rules"
    context_in: dict[str, Any] | None = None  # what the thread's last turn left this one
    earlier: tuple[str, ...] = ()  # the thread's last user questions, oldest first

    def said(self, question: str) -> str:
        """The user's own words an answer may repeat, for every engine's number check: this
        question with what the understanding step carried (Query.said), and the thread's last
        EARLIER_SAID questions ("£450 for a used a4000, 50,000 emails" then "what about on two
        of them?")."""
        own = self.query.said(question) if self.query is not None else question
        return " ".join([*self.earlier[-EARLIER_SAID:], own])


def plan(turn: Turn, question: str, context: dict[str, Any] | None) -> None:
    """Understand the question; `context` is what the thread's last turn left (its entities)."""
    turn.context_in = context
    turn.query = understand(question, load_catalog(), context)


def answer_by_rules(turn: Turn) -> None:
    """The rules engine's answer; a fault inside it is said in plain words with its kind and
    logged, never raised at the user (a bot or a chat window gets an answer either way)."""
    assert turn.query is not None
    try:
        turn.draft = rules.answer(turn.query, turn.box)
    except Exception as exc:  # any handler's fault: the turn still answers
        _log.exception("rules engine failed on %r", turn.query.text)
        turn.draft = rules.Draft(
            "**I could not work this one out: the advisor hit an internal error "
            f"({type(exc).__name__}).** Asking one thing at a time, or naming the GPU and the "
            "model, may get an answer; the fault has been logged.",
            warnings=[f"internal error: {type(exc).__name__}: {exc}"],
        )


def context_after(turn: Turn) -> dict[str, Any]:
    """What this turn leaves the next: its query as understood, and the GPU it picked when the
    question named none (a follow-up's "that" or "4 of them")."""
    assert turn.query is not None
    context = turn.query.context_dict()
    # the words of the ask ("per million tokens at full load"), for a follow-up that swaps only
    # a card or the hours ("and on an h100?") and keeps the question
    context["asked"] = turn.query.text[:400]
    before = (turn.context_in or {}).get("gpus") or []
    if (
        turn.query.follow_up
        and before
        and turn.query.gpus
        and {tuple(g["ids"]) for g in before} != {g.ids for g in turn.query.gpus}
    ):
        # "ok and on a 4090 instead?" after an A100: the cards before, for "which is cheaper"
        context["earlier_gpus"] = before
    picks = [c.result for c in turn.box.calls
             if c.name == "recommend_gpus" and (c.result.get("ranked") or [])]  # fmt: skip
    if picks and not turn.query.gpus:
        # the ranking whose first row the answer leads with (a ranking run again under a
        # budget or with more cards replaces the first)
        head = turn.draft.text.split("\n", 1)[0] if turn.draft else ""
        shown = [p for p in picks if p["ranked"][0]["gpu_name"] in head]
        # (an answer that leads with no card, "Whisper large-v3 needs about 4.7 GB", picked none)
        if shown or turn.query.intent in ("recommend", "buy"):
            best = (shown or picks)[0]["ranked"][0]
            context["picked"] = {k: best[k] for k in ("gpu", "gpu_name", "num_gpus", "precision")}
            # "what gpu and how long?": the time was asked of the pick, and is of the next card
            context["picked"]["timed"] = bool(re.search(r"\bhow long\b", turn.query.text.lower()))
    elif turn.query.gpus and turn.draft and (lead := _LEAD_PICK.match(turn.draft.text)):
        # "A100, H100 or L40S: which is cheapest overall?" then "how long on the cheapest one?":
        # the card of the named ones that the answer leads with
        gpus = load_catalog().gpus
        named = [i for g in turn.query.gpus for i in g.ids if i in gpus]
        chosen = next((i for i in named if gpus[i].name == lead.group(2)), None)
        if chosen:
            count = int(lead.group(1)) if lead.group(1) else None
            head = turn.draft.text.split("\n", 1)[0]
            by = ("cost" if re.search(r"costs? least|cheapest|lowest cost", head)
                  else "speed" if re.search(r"\bfast", head) else "other")  # fmt: skip
            context["winner"] = {"gpu": chosen, "gpu_name": gpus[chosen].name, "num_gpus": count,
                                 "by": by}  # fmt: skip
    return context


# an answer that leads with one of the cards named: "**Pick the NVIDIA H100 NVL 94GB (per GPU):",
# "**Pick 2 x NVIDIA GeForce RTX 3090:"
_LEAD_PICK = re.compile(r"\*\*Pick (?:the |one )?(?:(\d+) x )?(.+?)(?::| for | -|\*\*)")


def context_of(record: dict[str, Any]) -> dict[str, Any]:
    """What a recorded turn leaves the next one; a turn recorded before contexts were kept
    (stores from before 2026-11-28) is understood again from its question."""
    if record.get("context") is not None:
        return record["context"]  # type: ignore[no-any-return]
    return understand(record["question"], load_catalog()).context_dict()
