"""The Gradio UI: its streaming handler, and the real app in Debian's headless Chromium."""

from __future__ import annotations

import itertools
import os
import shutil
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from advisor.api import Advisor, workload_families
from tests.servers import free_port, gpu_advisor, listening, wait_for
from ui import app as ui_app

REPO = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO / "build" / "screenshots"
CHROMIUM = os.environ.get("ADVISOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


FIT = "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"
SPEC = ui_app.GENERAL_EXAMPLES[0]  # "What is the memory bandwidth of the L40?"


def _download(button: Any) -> str:
    """The text of the file a DownloadButton offers (Gradio keeps a copy in its cache)."""
    return Path(button.value["path"]).read_text(encoding="utf-8")


def test_streaming_shows_tool_progress_then_the_checked_answer(rules_advisor: Any) -> None:
    updates = list(ui_app._respond(rules_advisor, FIT, [], "rules", None))
    chats = [u[0][-1]["content"] for u in updates]
    assert chats[0] == "_estimating memory and speed ..._"  # before any answer text
    texts = [c for c in chats if not c.endswith("..._")]
    assert len(texts) >= 3 and texts[0].startswith("**Yes: Llama-3-8B fits on one NVIDIA RTX")
    assert all(b.startswith(a) for a, b in itertools.pairwise(texts))  # it grows
    final = updates[-1]
    assert final[0][-1]["content"] == texts[-1]
    assert final[0][0] == {"role": "user", "content": FIT}
    # the receipts panel; no article speaks of fine-tuning on an A4000, so no source is cited
    assert "**estimate**" in final[4] and final[5] == "_No passage cited._"
    assert final[6].visible and not final[7].visible  # memory chart yes, comparison no
    assert final[8] == {"1": 0}  # the answer at chat index 1 is the thread's turn 0
    exported = _download(final[9])
    assert f"## 1. {FIT}" in exported and "### Calculation receipts" in exported


def test_one_session_is_one_conversation(rules_advisor: Any) -> None:
    first = list(ui_app._respond(rules_advisor, "Can I run Llama-3-8B on an L4?", [], "rules",
                                 None))[-1]  # fmt: skip
    thread = first[1]
    assert thread
    follow = list(ui_app._respond(rules_advisor, "and the A10G?", first[0], "rules", thread,
                                  first[8]))[-1]  # fmt: skip
    assert follow[1] == thread
    assert "Llama-3-8B fits on one NVIDIA A10G" in follow[0][-1]["content"]
    assert len(follow[0]) == 4  # both turns are in the chat
    assert follow[8] == {"1": 0, "3": 1}


def test_bad_input_is_said_in_the_chat(rules_advisor: Any) -> None:
    (update,) = list(ui_app._respond(rules_advisor, "   ", [], "rules", None))
    assert update[0][-1]["content"] == "**Cannot answer:** Ask a question: the text is empty."
    assert update[8] == {}  # nothing to rate


def test_an_engine_that_is_not_there_falls_back_with_a_warning(
    rules_advisor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_LLM_PATH", "/nonexistent/model.gguf")
    final = list(ui_app._respond(rules_advisor, SPEC, [], "local", None))[-1]
    assert "864 GB/s" in final[0][-1]["content"]
    assert "The local engine is not available" in final[3]


def test_examples_come_from_the_workload_families(monkeypatch: pytest.MonkeyPatch) -> None:
    groups = dict(ui_app.example_groups())
    for family in workload_families():
        assert groups[f"{family['label']} workloads"] == family["examples"]
    assert FIT in groups["LLM workloads"]
    extra = {"name": "speech", "label": "Speech", "workloads": {}, "engines": [],
             "examples": ["Can Whisper large-v3 run on a T4?"]}  # fmt: skip
    monkeypatch.setattr(ui_app, "workload_families", lambda: [*workload_families(), extra])
    assert ui_app.example_groups()[-1] == ("Speech workloads", extra["examples"])


@pytest.mark.parametrize(
    ("liked", "kept", "says"),
    [
        (True, ("like", ""), "Thanks: answer 1 is marked like."),
        (False, ("dislike", ""), "Thanks: answer 1 is marked dislike."),
        ("Wrong number", ("dislike", "Wrong number"), "marked dislike: Wrong number."),
        ("Like", ("like", ""), "marked like."),
    ],
)
def test_a_rating_is_kept_with_its_turn(
    rules_advisor: Any, liked: Any, kept: tuple[str, str], says: str
) -> None:
    final = list(ui_app._respond(rules_advisor, SPEC, [], "rules", None))[-1]
    thread, known = final[1], final[8]
    status, download = ui_app._rate(rules_advisor, thread, known, 1, liked)
    assert status.endswith(says)
    feedback = rules_advisor.turns(thread)[0]["feedback"]
    assert (feedback["rating"], feedback["note"]) == kept
    assert "_Feedback: " + (f"{kept[0]}: {kept[1]}" if kept[1] else kept[0]) in _download(download)


def test_only_answers_can_be_rated(rules_advisor: Any) -> None:
    assert ui_app._rate(rules_advisor, None, {}, 1, True)[0].startswith("Only the advisor's")
    final = list(ui_app._respond(rules_advisor, SPEC, [], "rules", None))[-1]
    assert ui_app._rate(rules_advisor, final[1], final[8], 0, True)[0].startswith("Only")
    assert ui_app._rate(rules_advisor, final[1], final[8], [1, 0], None)[0] == ""  # taken back
    assert rules_advisor.turns(final[1])[0]["feedback"] is None


# ---------------------------------------------------------------- the real app, in a browser


@contextmanager
def _served(advisor: Any) -> Iterator[str]:
    """The app on a free port, warmed up as `gpu-advisor ui` warms it (ui.app.launch)."""
    port = free_port()
    app = ui_app.build(advisor).queue()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
               css=ui_app.CSS)  # fmt: skip
    ui_app.warm(f"http://127.0.0.1:{port}/")
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        app.close()


@pytest.fixture(scope="module")
def app_url(rules_advisor: Any) -> Iterator[str]:
    rules_advisor.warm_up()  # as `gpu-advisor ui` does before it listens
    with _served(rules_advisor) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).is_file(), (
        f"No Chromium at {CHROMIUM}: apt-get install chromium (make test does), "
        "or set ADVISOR_CHROMIUM."
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# the answer's own text is on screen: a bot message that is not a tool-progress line
_FIRST_TEXT = """n => { const rows = document.querySelectorAll('#chat .message-row.bot-row');
  if (rows.length <= n) return false; const t = rows[n].innerText.trim();
  return t.length > 0 && !t.endsWith('...'); }"""


def _ask(page: Any, question: str, turn: int) -> tuple[str, float]:
    """Ask in the page; (the answer as shown, seconds from Enter to its first text chunk)."""
    box = page.locator("#question textarea")
    box.fill(question)
    started = time.perf_counter()
    box.press("Enter")
    page.wait_for_function(_FIRST_TEXT, arg=turn, timeout=60_000, polling=10)
    first_chunk_s = time.perf_counter() - started
    page.wait_for_function(  # ... and the event has finished (Gradio hides its status tracker)
        "() => document.querySelector(\"#chat [data-testid='status-tracker']\")"
        ".classList.contains('hide')",
        timeout=60_000,
    )
    bot = page.locator("#chat .message-row.bot-row").nth(turn)
    return str(bot.inner_text()), first_chunk_s


def _panel(page: Any, elem_id: str) -> str:
    panel = page.locator(f"#{elem_id}")
    body = page.locator(f"#{elem_id}-body")
    if not body.is_visible():
        panel.locator("button, .label-wrap").first.click()
    body.wait_for(state="visible", timeout=10_000)
    return str(body.inner_text())


def _feedback_status(page: Any, says: str) -> None:
    page.wait_for_function("s => document.querySelector('#feedback-status').innerText"
                           ".includes(s)", arg=says, timeout=30_000)  # fmt: skip


@pytest.mark.slow
def test_three_questions_in_a_real_browser(app_url: str, browser: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page = browser.new_page(viewport={"width": 1280, "height": 1800})
    page.goto(app_url)
    firsts = []

    spec, first = _ask(page, SPEC, 0)
    firsts.append(first)
    assert "864 GB/s" in spec
    assert "gpu_specs" in _panel(page, "receipts")
    assert "A100-SXM4-40GB vs. L40" in _panel(page, "sources")
    assert "datasheet value is the one to trust" in page.locator("#warnings").inner_text()

    fit, first = _ask(page, FIT, 1)
    firsts.append(first)
    assert "Yes: Llama-3-8B fits on one NVIDIA RTX A4000" in fit
    receipts = _panel(page, "receipts")
    # (PEFT's k-bit preparation, 3.15 GB in fp32, a part of its own since stop 73)
    assert "estimate" in receipts and "weights 5.70 GB" in receipts
    page.locator("#memory-chart img").first.wait_for(timeout=30_000)

    compare, first = _ask(page, "Compare the A100 SXM4 80GB and the H100 SXM", 2)
    firsts.append(first)
    assert "2,039 GB/s" in compare and "3,350 GB/s" in compare
    assert "compare_gpus" in _panel(page, "receipts")
    chart = page.locator("#compare-chart img").first
    chart.wait_for(timeout=30_000)
    assert chart.bounding_box()["height"] > 100  # a picture, not an empty frame

    # the rules engine's first text chunk is on screen within a second (typically 0.3 s; the
    # slowest of three may take longer when other processes load the 2 cores, never twice that)
    (REPO / "build").mkdir(exist_ok=True)
    (REPO / "build" / "ui_first_chunk.txt").write_text(
        " ".join(f"{s * 1000:.0f} ms" for s in firsts) + "\n"
    )
    assert sorted(firsts)[1] <= 1.0 and max(firsts) <= 2.0, firsts

    # like the first answer; dislike the second for a reason from the flag's menu
    page.locator('#chat button[aria-label="Like"]').nth(0).click()
    _feedback_status(page, "Thanks: answer 1 is marked like.")
    for attempt in range(3):  # a re-render of the chat under load can close the menu: reopen it
        page.locator('#chat button[aria-label="Feedback"]').nth(1).click()
        option = page.locator("#chat .extra-feedback-option:visible", has_text="Wrong number")
        try:
            option.click(timeout=5_000)
            break
        except PlaywrightTimeout:
            assert attempt < 2, "the feedback menu never stayed open"
    _feedback_status(page, "Thanks: answer 2 is marked dislike: Wrong number.")

    with page.expect_download() as download:
        page.locator("#export").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename.endswith(".md")
    assert [line for line in exported.splitlines() if line.startswith("## ")] == [
        f"## 1. {SPEC}", f"## 2. {FIT}", "## 3. Compare the A100 SXM4 80GB and the H100 SXM"
    ]  # fmt: skip
    assert exported.count("### Calculation receipts") == 3 and "**compare_gpus**" in exported
    assert "_Feedback: like_" in exported and "_Feedback: dislike: Wrong number_" in exported

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "ui-three-questions.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    page.close()


@pytest.mark.slow
def test_an_answer_reads_on_a_phone_width_screen(app_url: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 400, "height": 900}, device_scale_factor=2)
    page.goto(app_url)
    fit, first = _ask(page, FIT, 0)
    assert "Yes: Llama-3-8B fits on one NVIDIA RTX A4000" in fit and first <= 2.0
    # nothing wider than the screen: no sideways scrolling of the page
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    # the answer uses the width (one column) and its assumptions are a list, not one long line
    bubble = page.locator("#chat .message-row.bot-row").first.bounding_box()
    assert bubble["width"] >= 340, bubble
    items = page.locator("#chat .message-row.bot-row li")
    assert items.count() >= 2 and "sequence length 2048 tokens" in fit
    box = page.locator("#question").bounding_box()
    chat = page.locator("#chat").bounding_box()
    assert box["y"] > chat["y"] + chat["height"] - 5  # the question box right under the chat
    assert box["y"] < page.locator("#engine").bounding_box()["y"]  # before the settings
    # the chat scrolls to the end of an answer; a person scrolls back to its verdict to read it
    # (Gradio may scroll back to the end once more after the event: top it again until it stays)
    page.wait_for_function(
        "() => { const w = document.querySelector('#chat .bubble-wrap');"
        " const top = w.scrollTop === 0; w.scrollTop = 0; return top; }",
        polling=300,
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "ui-phone.png"
    page.screenshot(path=str(shot))  # what a phone shows: the first screen
    assert shot.stat().st_size > 20_000
    shutil.copyfile(shot, REPO / "docs" / "ui-phone.png")
    page.close()


@pytest.mark.slow
def test_documents_uploaded_in_the_browser_are_searched(
    browser: Any, corpus_index: Any, embedder: Any, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from advisor.config import Settings
    from advisor.retrieval.index import open_index
    from advisor.retrieval.search import LiveSearcher, Searcher
    from tests.documents import HTML, write

    shutil.copytree(corpus_index.store.root, tmp_path / "index")  # the session's stays as it is
    monkeypatch.setenv("ADVISOR_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "home"))
    live = LiveSearcher(Searcher(open_index(Settings.from_env(), embedder), embedder))
    box_html = write(tmp_path / "box.html", HTML)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100)
    with _served(Advisor(engine="rules", searcher=live)) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        page.goto(url)
        page.locator("#documents").locator("button, .label-wrap").first.click()
        page.locator("#upload input[type=file]").set_input_files([str(box_html), str(broken)])
        page.wait_for_function("() => document.querySelector('#upload-status').innerText"
                               ".includes('Not added')", timeout=60_000)  # fmt: skip
        status = page.locator("#upload-status").inner_text()
        assert "Added Inference box notes (box-html, 2024-06-02" in status
        assert "Not added: broken.pdf is not a readable PDF (" in status
        answer, _first = _ask(page, "Which rack serves our chat models, the wombat rack?", 0)
        assert "wombat" in answer
        assert "Inference box notes" in _panel(page, "sources")
        page.close()


@pytest.mark.slow
def test_gpu_advisor_ui_binds_loopback_and_asks_for_the_password(home: Path) -> None:
    port = free_port()
    env = {"ADVISOR_UI_PASSWORD": "correct horse"}
    with gpu_advisor("ui", "--port", str(port), env=env) as proc:
        wait_for(f"http://127.0.0.1:{port}/", proc=proc)
        assert listening(port) == {"0100007F"}  # 127.0.0.1 only
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/config")
        assert refused.value.code == 401
        login = urllib.request.Request(
            f"http://127.0.0.1:{port}/login",
            data=b"username=advisor&password=correct+horse",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        with urllib.request.urlopen(login) as signed_in:
            assert signed_in.status == 200
    assert "correct horse" not in (proc.stdout.read() if proc.stdout else "")


def test_a_bug_is_a_sentence_in_the_chat_not_a_traceback(
    rules_advisor: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(rules_advisor, "stream", broken)
    (update,) = list(ui_app._respond(rules_advisor, "L40?", [], "rules", None))
    assert update[0][-1]["content"].startswith("Sorry, something went wrong")
    assert "ZeroDivisionError" in caplog.text  # logged for the maintainers
