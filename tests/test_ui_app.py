"""The Gradio UI: its streaming handler, and the real app in Debian's headless Chromium."""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import free_port, gpu_advisor, listening, wait_for
from ui import app as ui_app

REPO = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO / "build" / "screenshots"
CHROMIUM = os.environ.get("ADVISOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def test_streaming_shows_tool_progress_then_the_checked_answer(rules_advisor: Any) -> None:
    updates = list(ui_app._respond(rules_advisor, ui_app.EXAMPLES[1], [], "rules", None))
    chats = [u[0][-1]["content"] for u in updates]
    assert chats[0] == "_estimating memory and speed ..._"  # before any answer text
    final = updates[-1]
    assert final[0][-1]["content"].startswith("**Yes: Llama-3-8B fits on one NVIDIA RTX A4000")
    assert final[0][0] == {"role": "user", "content": ui_app.EXAMPLES[1]}
    assert "**estimate**" in final[4] and "[1]" in final[5]
    assert final[6].visible and not final[7].visible  # memory chart yes, comparison no


def test_one_session_is_one_conversation(rules_advisor: Any) -> None:
    first = list(ui_app._respond(rules_advisor, "Can I run Llama-3-8B on an L4?", [], "rules",
                                 None))[-1]  # fmt: skip
    thread = first[1]
    assert thread
    follow = list(ui_app._respond(rules_advisor, "and the A10G?", first[0], "rules", thread))[-1]
    assert follow[1] == thread
    assert "Llama-3-8B fits on one NVIDIA A10G" in follow[0][-1]["content"]
    assert len(follow[0]) == 4  # both turns are in the chat


def test_bad_input_is_said_in_the_chat(rules_advisor: Any) -> None:
    (update,) = list(ui_app._respond(rules_advisor, "   ", [], "rules", None))
    assert update[0][-1]["content"] == "**Cannot answer:** Ask a question: the text is empty."


def test_an_engine_that_is_not_there_falls_back_with_a_warning(
    rules_advisor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_LLM_PATH", "/nonexistent/model.gguf")
    final = list(ui_app._respond(rules_advisor, ui_app.EXAMPLES[0], [], "local", None))[-1]
    assert "864 GB/s" in final[0][-1]["content"]
    assert "The local engine is not available" in final[3]


# ---------------------------------------------------------------- the real app, in a browser


@pytest.fixture(scope="module")
def app_url(rules_advisor: Any) -> Iterator[str]:
    port = free_port()
    app = ui_app.build(rules_advisor).queue()
    app.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        app.close()


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


def _ask(page: Any, question: str, turn: int) -> str:
    box = page.locator("#question textarea")
    box.fill(question)
    box.press("Enter")
    bot = page.locator("#chat .message-row.bot-row").nth(turn)
    bot.wait_for(timeout=60_000)  # the first update of this turn is there ...
    page.wait_for_function(  # ... and the event has finished (Gradio hides its status tracker)
        "() => document.querySelector(\"#chat [data-testid='status-tracker']\")"
        ".classList.contains('hide')",
        timeout=60_000,
    )
    return str(bot.inner_text())


def _panel(page: Any, elem_id: str) -> str:
    panel = page.locator(f"#{elem_id}")
    body = page.locator(f"#{elem_id}-body")
    if not body.is_visible():
        panel.locator("button, .label-wrap").first.click()
    body.wait_for(state="visible", timeout=10_000)
    return str(body.inner_text())


@pytest.mark.slow
def test_three_questions_in_a_real_browser(app_url: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1800})
    page.goto(app_url)

    spec = _ask(page, "What is the memory bandwidth of the L40?", 0)
    assert "864 GB/s" in spec
    assert "gpu_specs" in _panel(page, "receipts")
    assert "A100-SXM4-40GB vs. L40" in _panel(page, "sources")
    assert "datasheet value is the one to trust" in page.locator("#warnings").inner_text()

    fit = _ask(page, "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?", 1)
    assert "Yes: Llama-3-8B fits on one NVIDIA RTX A4000" in fit
    receipts = _panel(page, "receipts")
    assert "estimate" in receipts and "weights 5.70 GB" in receipts
    page.locator("#memory-chart img").first.wait_for(timeout=30_000)

    compare = _ask(page, "Compare the A100 SXM4 80GB and the H100 SXM", 2)
    assert "2,039 GB/s" in compare and "3,350 GB/s" in compare
    assert "compare_gpus" in _panel(page, "receipts")
    chart = page.locator("#compare-chart img").first
    chart.wait_for(timeout=30_000)
    assert chart.bounding_box()["height"] > 100  # a picture, not an empty frame

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "ui-three-questions.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
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
