"""The Gradio chat UI: `gpu-advisor ui` (and `make run`). It talks to the advisor only through
`advisor.api`; what it shows beside the answer comes from `ui.render`."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from typing import Any

import gradio as gr

from advisor.api import ANSWER_ENGINES, Advisor
from advisor.errors import AdvisorError
from ui import render

EXAMPLES = [
    "What is the memory bandwidth of the L40?",
    "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?",
    "Compare the A100 SXM4 80GB and the H100 SXM",
    "Will Llama-3-70B fit on two A100 80GB for inference?",
    "What will 100 hours on an RTX A6000 cost?",
]
_TOOL_WORDS = {"search_corpus": "searching the articles", "gpu_specs": "reading the datasheet",
               "compare_gpus": "comparing datasheets", "estimate": "estimating memory and speed",
               "solve": "solving for the limit", "recommend_gpus": "ranking GPUs",
               "prices": "looking up prices"}  # fmt: skip

Outputs = tuple[Any, ...]
log = logging.getLogger(__name__)


def build(advisor: Advisor | None = None) -> gr.Blocks:
    """The app, not yet launched (tests launch it on a free port)."""
    adv = advisor or Advisor()

    with gr.Blocks(title="GPU Advisor") as app:
        gr.Markdown(
            "# GPU Advisor\nWhich GPU for this ML job, and will it fit? Every number comes from "
            "the calculator or a cited passage; the datasheet table is the authority."
        )
        thread = gr.State(None)  # one conversation per browser session
        with gr.Row():
            chat = gr.Chatbot(label="Conversation", height=440, elem_id="chat", scale=4)
            with gr.Column(scale=1, min_width=200):
                engine = gr.Dropdown(list(ANSWER_ENGINES), value=adv.engine, label="Engine",
                                     elem_id="engine")  # fmt: skip
                new = gr.Button("New conversation", elem_id="new")
        question = gr.Textbox(placeholder="Ask about a GPU, a model, a fit, a price ...",
                              show_label=False, elem_id="question", submit_btn="Ask")  # fmt: skip
        gr.Examples(EXAMPLES, inputs=question, label="Try")
        warnings = gr.Markdown(elem_id="warnings")
        with gr.Accordion("Calculation receipts", open=False, elem_id="receipts"):
            receipts = gr.Markdown(elem_id="receipts-body")
        with gr.Accordion("Sources", open=False, elem_id="sources"):
            sources = gr.Markdown(elem_id="sources-body")
        memory_chart = gr.Plot(label="Memory per GPU", visible=False, elem_id="memory-chart")
        compare_chart = gr.Plot(label="GPU comparison", visible=False, elem_id="compare-chart")

        outputs = [chat, thread, question, warnings, receipts, sources, memory_chart,
                   compare_chart]  # fmt: skip

        def respond(text: str, history: list[Any], chosen: str, thread_id: str | None
                    ) -> Iterator[Outputs]:  # fmt: skip
            yield from _respond(adv, text, history or [], chosen, thread_id)

        question.submit(respond, [question, chat, engine, thread], outputs, api_name="ask")
        new.click(lambda: ([], None, "", "", "", "", gr.Plot(visible=False),
                           gr.Plot(visible=False)), None, outputs,
                  api_name="new_conversation")  # fmt: skip
    return app  # type: ignore[no-any-return]  # gr.Blocks' __enter__ is untyped


def _respond(
    adv: Advisor, text: str, history: list[Any], engine: str, thread_id: str | None
) -> Iterator[Outputs]:
    thread_id = thread_id or uuid.uuid4().hex
    history = [*history, {"role": "user", "content": text}]
    hidden = (gr.Plot(visible=False), gr.Plot(visible=False))
    try:
        events = adv.stream(text, thread_id=thread_id, engine=engine)
        shown = ""
        for event in events:
            if event["type"] == "tool_start":
                status = f"_{_TOOL_WORDS.get(event['name'], event['name'])} ..._"
                yield (_with(history, status), thread_id, "", "", "", "", *hidden)
            elif event["type"] == "text":
                shown += event["text"]
                yield (_with(history, shown), thread_id, "", "", "", "", *hidden)
            elif event["type"] == "answer":
                yield _final(adv, history, event["answer"], thread_id)
    except AdvisorError as exc:  # bad input: said in the chat, never a traceback
        yield (_with(history, f"**Cannot answer:** {exc}"), thread_id, "", "", "", "", *hidden)
    except Exception:  # a bug: logged for us, a plain sentence for the user
        log.exception("answering in the UI failed")
        sorry = "Sorry, something went wrong answering that; please try again."
        yield (_with(history, sorry), thread_id, "", "", "", "", *hidden)


def _final(adv: Advisor, history: list[Any], answer: Any, thread_id: str) -> Outputs:
    bars = render.memory_bars(answer)
    rows = render.comparison(answer, price=lambda gpu: _median_price(adv, gpu))
    memory = gr.Plot(render.memory_figure(bars), visible=True) if bars else gr.Plot(visible=False)
    compare = (
        gr.Plot(render.comparison_figure(rows), visible=True)
        if len(rows) >= 2
        else gr.Plot(visible=False)
    )
    warnings = render.warnings_markdown(answer)
    return (
        _with(history, answer.text),
        thread_id,
        "",
        f"**Warnings**\n\n{warnings}" if warnings else "",
        render.receipts_markdown(answer),
        render.sources_markdown(answer),
        memory,
        compare,
    )


def _median_price(adv: Advisor, gpu: str) -> float | None:
    result = adv.tool("prices", {"gpu": gpu})
    summary = result.get("summary_usd_per_gpu_hour") or {}
    median = summary.get("median")
    return float(median) if median is not None else None


def _with(history: list[Any], text: str) -> list[Any]:
    return [*history, {"role": "assistant", "content": text}]


def launch(advisor: Advisor | None = None, *, host: str, port: int,
           password: str | None = None) -> None:  # fmt: skip
    """Serve the app until interrupted; with a password, sign-in as user "advisor"."""
    build(advisor).queue().launch(
        server_name=host,
        server_port=port,
        auth=("advisor", password) if password else None,
        show_error=False,
        footer_links=["api"],
    )
