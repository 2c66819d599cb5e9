"""The Gradio chat UI: `gpu-advisor ui` (and `make run`). It talks to the advisor only through
`advisor.api`; what it shows beside the answer comes from `ui.render`.

Answers stream in (the tool being run, then the checked text, paragraph by paragraph); each
answer takes a like or a dislike (the flag's reasons become the note), kept with the thread; the
conversation downloads as Markdown with its receipts and sources; example questions come from
the workload families the calculator knows; documents (Markdown, HTML, PDF) can be uploaded
into the search index. The layout narrows to one column on a phone.
"""

from __future__ import annotations

import logging
import re
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr

from advisor.api import ANSWER_ENGINES, Advisor, workload_families
from advisor.errors import AdvisorError
from ui import render

# questions about GPUs themselves, before any workload: specs, comparisons, prices
GENERAL_EXAMPLES = [
    "What is the memory bandwidth of the L40?",
    "Compare the A100 SXM4 80GB and the H100 SXM",
    "What will 100 hours on an RTX A6000 cost?",
]
# the dislike flag's reasons: kept as the note of a dislike
FEEDBACK_REASONS = ("Wrong number", "Missing source", "Hard to read", "Not what I asked")
UPLOAD_TYPES = [".md", ".markdown", ".html", ".htm", ".pdf"]
_TOOL_WORDS = {"search_corpus": "searching the articles", "gpu_specs": "reading the datasheet",
               "compare_gpus": "comparing datasheets", "estimate": "estimating memory and speed",
               "solve": "solving for the limit", "recommend_gpus": "ranking GPUs",
               "prices": "looking up prices"}  # fmt: skip
# the system's own fonts (the page then reads the same offline, and as a phone user expects);
# below 700 px one column, the chat first and full width; tables scroll inside their bubble.
# (Gradio scopes rules inside @media to its container; page padding is set outside, by width)
CSS = """
.gradio-container { --font: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans",
  "DejaVu Sans", Arial, sans-serif !important; }
#chat table { display: block; overflow-x: auto; max-width: 100%; }
#chat a, #sources-body, #receipts-body { overflow-wrap: anywhere; }
#receipts-body code, #chat code { white-space: pre-wrap; overflow-wrap: anywhere; }
#feedback-status { min-height: 0; }
.main.app { padding-left: clamp(8px, 2.5vw, 32px) !important;
  padding-right: clamp(8px, 2.5vw, 32px) !important; }
@media (max-width: 700px) {
  #chat { height: 70vh !important; }
  #top-row { flex-direction: column !important; gap: 8px !important; }
  #top-row > * { min-width: 100% !important; }
  #chat .message-row.bubble { max-width: 100% !important; margin-left: 0 !important;
    margin-right: 0 !important; }
  #chat .message { padding: 8px 10px !important; }
  #chat .message-wrap { font-size: 15px; line-height: 1.45; }
}
"""

Outputs = tuple[Any, ...]
log = logging.getLogger(__name__)


def example_groups() -> list[tuple[str, list[str]]]:
    """(label, questions): general GPU questions, then each workload family's own examples, as
    advisor.api lists them (a new family brings its examples with it)."""
    groups = [("GPUs and prices", list(GENERAL_EXAMPLES))]
    groups += [(f"{f['label']} workloads", list(f["examples"]))
               for f in workload_families() if f["examples"]]  # fmt: skip
    return groups


def build(advisor: Advisor | None = None) -> gr.Blocks:
    """The app, not yet launched (tests launch it on a free port)."""
    adv = advisor or Advisor()

    with gr.Blocks(title="GPU Advisor") as app:
        gr.Markdown(
            "# GPU Advisor\nWhich GPU for this ML job, and will it fit? Every number comes from "
            "the calculator or a cited passage; the datasheet table is the authority."
        )
        thread = gr.State(None)  # one conversation per browser session
        turns = gr.State({})  # chat message index -> the thread's turn number
        with gr.Row(elem_id="top-row"):
            with gr.Column(scale=4):  # on a phone: the chat, then the question box under it
                rate_with = ("Like", "Dislike", *FEEDBACK_REASONS)
                chat = gr.Chatbot(label="Conversation", height=480, elem_id="chat",
                                  feedback_options=rate_with)  # fmt: skip
                question = gr.Textbox(placeholder="Ask about a GPU, a model, a fit, a price ...",
                                      show_label=False, elem_id="question",
                                      submit_btn="Ask")  # fmt: skip
            with gr.Column(scale=1, min_width=200):
                engine = gr.Dropdown(list(ANSWER_ENGINES), value=adv.engine, label="Engine",
                                     elem_id="engine")  # fmt: skip
                new = gr.Button("New conversation", elem_id="new")
                export = gr.DownloadButton("Download as Markdown", visible=False,
                                           elem_id="export")  # fmt: skip
                feedback = gr.Markdown(elem_id="feedback-status")
        for label, questions in example_groups():
            gr.Examples(questions, inputs=question, label=label)
        warnings = gr.Markdown(elem_id="warnings")
        with gr.Accordion("Calculation receipts", open=False, elem_id="receipts"):
            receipts = gr.Markdown(elem_id="receipts-body")
        with gr.Accordion("Sources", open=False, elem_id="sources"):
            sources = gr.Markdown(elem_id="sources-body")
        memory_chart = gr.Plot(label="Memory per GPU", visible=False, elem_id="memory-chart")
        compare_chart = gr.Plot(label="GPU comparison", visible=False, elem_id="compare-chart")
        with gr.Accordion("Your documents", open=False, elem_id="documents"):
            gr.Markdown(
                "Add Markdown, HTML or PDF files to the articles the advisor searches "
                "(as `gpu-advisor corpus add`); adding one again changes nothing."
            )
            upload = gr.File(file_count="multiple", file_types=UPLOAD_TYPES, label="Documents",
                             elem_id="upload")  # fmt: skip
            added = gr.Markdown(elem_id="upload-status")

        outputs = [chat, thread, question, warnings, receipts, sources, memory_chart,
                   compare_chart, turns, export]  # fmt: skip

        def respond(text: str, history: list[Any], chosen: str, thread_id: str | None,
                    known: dict[str, int]) -> Iterator[Outputs]:  # fmt: skip
            yield from _respond(adv, text, history or [], chosen, thread_id, known)

        def rate(data: gr.LikeData, thread_id: str | None, known: dict[str, int]) -> Outputs:
            return _rate(adv, thread_id, known or {}, data.index, data.liked)

        def add(files: list[Any] | None, progress: gr.Progress = gr.Progress()) -> str:  # noqa: B008
            return _add(adv, files or [], progress)

        question.submit(respond, [question, chat, engine, thread, turns], outputs,
                        api_name="ask")  # fmt: skip
        chat.like(rate, [thread, turns], [feedback, export], api_name="rate")
        upload.upload(add, upload, added, api_name="add_documents")
        new.click(lambda: ([], None, "", "", "", "", gr.Plot(visible=False),
                           gr.Plot(visible=False), {}, gr.DownloadButton(visible=False)),
                  None, outputs, api_name="new_conversation")  # fmt: skip
    return app  # type: ignore[no-any-return]  # gr.Blocks' __enter__ is untyped


def _respond(
    adv: Advisor, text: str, history: list[Any], engine: str, thread_id: str | None,
    known: dict[str, int] | None = None,
) -> Iterator[Outputs]:  # fmt: skip
    thread_id = thread_id or uuid.uuid4().hex
    known = dict(known or {})
    history = [*history, {"role": "user", "content": text}]
    rest = (gr.Plot(visible=False), gr.Plot(visible=False), known, gr.DownloadButton())

    def update(shown: str) -> Outputs:
        return (_with(history, shown), thread_id, "", "", "", "", *rest)

    try:
        shown = ""
        for event in adv.stream(text, thread_id=thread_id, engine=engine):
            if event["type"] == "tool_start":
                yield update(f"_{_TOOL_WORDS.get(event['name'], event['name'])} ..._")
            elif event["type"] == "text":
                shown += event["text"]
                yield update(render.display_text(shown))
            elif event["type"] == "answer":
                known[str(len(history))] = event["turn"]  # the answer's index in the chat
                yield _final(adv, history, event["answer"], thread_id, known)
    except AdvisorError as exc:  # bad input: said in the chat, never a traceback
        yield update(f"**Cannot answer:** {exc}")
    except Exception:  # a bug: logged for us, a plain sentence for the user
        log.exception("answering in the UI failed")
        yield update("Sorry, something went wrong answering that; please try again.")


def _final(
    adv: Advisor, history: list[Any], answer: Any, thread_id: str, known: dict[str, int]
) -> Outputs:
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
        _with(history, render.display_text(answer.text)),
        thread_id,
        "",
        f"**Warnings**\n\n{warnings}" if warnings else "",
        render.receipts_markdown(answer),
        render.sources_markdown(answer),
        memory,
        compare,
        known,
        gr.DownloadButton(value=export_file(adv, thread_id), visible=True),
    )


def _rate(adv: Advisor, thread_id: str | None, known: dict[str, int], index: Any,
          liked: bool | str | None) -> Outputs:  # fmt: skip
    """A like, a dislike or a dislike's reason on one answer, kept with the thread."""
    position = index[0] if isinstance(index, list | tuple) else index
    turn = known.get(str(position))
    if thread_id is None or turn is None:
        return "Only the advisor's answers can be rated.", gr.DownloadButton()
    if liked is True or liked == "Like":
        rating, note = "like", ""
    elif liked is False or liked == "Dislike":
        rating, note = "dislike", ""
    elif isinstance(liked, str) and liked:
        rating, note = "dislike", liked
    else:  # a rating taken back: the last one given stays on record
        return "", gr.DownloadButton()
    try:
        adv.feedback(thread_id, turn, rating, note)
    except AdvisorError as exc:
        return f"Feedback not kept: {exc}", gr.DownloadButton()
    said = f"{rating}: {note}" if note else rating
    thanks = f"Thanks: answer {turn + 1} is marked {said}."
    return thanks, gr.DownloadButton(value=export_file(adv, thread_id), visible=True)


def export_file(adv: Advisor, thread_id: str) -> str:
    """The conversation as a Markdown file to download (rewritten after each answer and each
    rating, so the download is always the conversation as it stands)."""
    folder = Path(tempfile.gettempdir()) / "gpu-advisor-exports" / re.sub(r"\W", "_", thread_id)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "gpu-advisor-conversation.md"
    path.write_text(adv.export(thread_id), encoding="utf-8")
    return str(path)


def _add(adv: Advisor, files: list[Any], progress: Any) -> str:
    """Add uploaded documents to the index; what was added, the claims audit, what failed."""
    if not files:
        return ""
    # Gradio keeps each upload under its original file name (in a temp folder of its own), so
    # the doc id and the messages name the file as the person knows it
    paths = [Path(f if isinstance(f, str) else f.name) for f in files]

    def update(stage: str, done: int, total: int) -> None:
        progress((done, total) if total else None, desc=stage)

    try:
        report = adv.add_documents(list(paths), progress=update)
    except AdvisorError as exc:
        return f"**Not added:** {exc}"
    except Exception:
        log.exception("adding documents in the UI failed")
        return "Sorry, something went wrong adding those documents; please try again."
    return render.documents_markdown(report)


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
    app = build(advisor).queue()
    app.launch(
        server_name=host,
        server_port=port,
        auth=("advisor", password) if password else None,
        show_error=False,
        footer_links=["api"],
        css=CSS,
        prevent_thread_lock=True,
    )
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # noqa: S104  # a bind-all address
    warm(f"http://{local}:{port}/", password)
    app.block_thread()


def warm(url: str, password: str | None = None) -> None:
    """Send the app one event through its own queue: Gradio's first event in a process costs
    about half a second more than the rest, and the first person to ask should not pay it."""
    from gradio_client import Client

    try:
        auth = ("advisor", password) if password else None
        Client(url, auth=auth, verbose=False).predict(api_name="/new_conversation")
    except Exception:  # a warm-up only: the app serves either way
        log.warning("warming up the UI failed", exc_info=True)
