"""ui.render: receipts, sources, warnings and chart data, from real rules-engine answers."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.answer import ASSUMED_PREFIX, Answer, ToolCall
from ui import render

FIT = "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"
COMPARE = "Compare the A100 SXM4 80GB and the H100 SXM"
SPEC = "What is the memory bandwidth of the L40?"


@pytest.fixture(scope="module")
def answers(rules_advisor: Any) -> dict[str, Answer]:
    return {q: rules_advisor.ask(q) for q in (FIT, COMPARE, SPEC)}


def test_a_fit_receipt_shows_inputs_verdict_breakdown_and_assumptions(
    answers: dict[str, Answer],
) -> None:
    receipt = next(r for r in render.receipts(answers[FIT]) if r.tool == "estimate")
    assert receipt.inputs == {"model": "llama-3-8b", "gpu": "rtx-a4000",
                              "workload": "finetune-qlora", "precision": "nf4"}  # fmt: skip
    assert receipt.results["fits"] is True
    estimate = next(t for t in answers[FIT].tool_calls if t.name == "estimate").result
    assert receipt.breakdown_gb == estimate["breakdown_gb"]
    assert receipt.assumptions == estimate["assumptions"] and receipt.assumptions
    text = render.receipts_markdown(answers[FIT])
    # (PEFT's k-bit preparation, 3.15 GB in fp32, a part of its own since stop 73)
    assert "**estimate**" in text and "weights 5.70 GB" in text and "assumed: " in text
    assert "gradients 0.00 GB" not in text  # parts that are zero are left out


def test_the_memory_bar_is_the_estimate_against_usable_memory(answers: dict[str, Answer]) -> None:
    (bar,) = render.memory_bars(answers[FIT])
    estimate = next(t for t in answers[FIT].tool_calls if t.name == "estimate").result
    assert bar.label == "Llama-3-8B on 1 x NVIDIA RTX A4000"
    assert bar.usable_gb == estimate["usable_memory_per_gpu_gb"] and bar.fits
    figure = render.memory_figure([bar])
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == [bar.label]
    assert render.memory_bars(answers[SPEC]) == []  # no estimate, no memory chart


def test_a_comparison_has_the_datasheet_fields_and_the_price(answers: dict[str, Answer]) -> None:
    prices = {"a100-sxm4-80gb": 1.8, "h100-sxm5-80gb": None}
    rows = render.comparison(answers[COMPARE], price=prices.get)
    assert [r["gpu"] for r in rows] == ["NVIDIA A100 SXM4 80GB", "NVIDIA H100 SXM5 80GB"]
    assert rows[0]["bandwidth_gbs"] == 2039 and rows[1]["bandwidth_gbs"] == 3350
    assert rows[0]["usd_per_gpu_hour"] == 1.8 and rows[1]["usd_per_gpu_hour"] is None
    figure = render.comparison_figure(rows)
    assert [ax.get_title() for ax in figure.axes] == list(render.COMPARE_FIELDS.values())
    assert render.comparison(answers[FIT]) == []


def test_sources_and_warnings_come_from_the_answer(answers: dict[str, Answer]) -> None:
    answer = answers[SPEC]
    sources = render.sources_markdown(answer)
    for c in answer.citations:
        assert c.title in sources and c.section in sources
    assert (
        answer.warnings
        and render.warnings_markdown(answer).count("\n- ") == len(answer.warnings) - 1
    )


def test_an_answer_without_tools_or_citations_says_so() -> None:
    bare = Answer(text="Hello")
    assert "No calculation" in render.receipts_markdown(bare)
    assert "No passage" in render.sources_markdown(bare)
    assert render.warnings_markdown(bare) == ""


def test_a_tool_error_shows_in_its_receipt() -> None:
    call = ToolCall("gpu_specs", {"gpu": "RTX 9999"}, {"error": "Unknown GPU 'RTX 9999'."})
    (receipt,) = render.receipts(Answer(text="x", tool_calls=[call]))
    assert receipt.results == {"error": "Unknown GPU 'RTX 9999'."}


def test_the_assumptions_line_is_shown_as_a_list_with_the_same_words(
    answers: dict[str, Answer],
) -> None:
    from advisor.agent.guard import read_numbers

    text = answers[FIT].text
    shown = render.display_text(text)
    line = next(li for li in text.splitlines() if li.startswith(ASSUMED_PREFIX))
    items = line.removeprefix(ASSUMED_PREFIX).removesuffix(".").split("; ")
    head = ASSUMED_PREFIX.rstrip(": ")
    assert f"\n\n{head}:\n" + "\n".join(f"- {i}" for i in items) in shown
    assert [n.value for n in read_numbers(shown)] == [n.value for n in read_numbers(text)]
    assert render.display_text(answers[SPEC].text) == answers[SPEC].text  # nothing to list
    assert render.display_text(ASSUMED_PREFIX + "one only.") == ASSUMED_PREFIX + "one only."


def test_an_upload_report_says_what_was_added_audited_and_refused() -> None:
    report = {
        "added": [{"doc_id": "box-html", "title": "Box notes", "published": "2024-06-02",
                   "passages": 2, "file": "box.html", "replaced": False},
                  {"doc_id": "rb-pdf", "title": "Runbook", "published": "2025-03-14",
                   "passages": 9, "file": "rb.pdf", "replaced": True}],
        "unchanged": [{"doc_id": "n-md", "file": "n.md"}],
        "failed": [{"file": "/x/broken.pdf", "error": "broken.pdf is not a readable PDF (EOF)."}],
        "claims": [{"status": "agrees"}, {"status": "disagrees", "doc": "rb-pdf",
                    "section": "Page 5", "gpu_text": "the A100 80GB", "field": "bandwidth_gbs",
                    "value": 3000.0, "unit": "GB/s", "note": "datasheet says 2039"}],
        "claim_counts": {"agrees": 1, "disagrees": 1, "unchecked": 0},
    }  # fmt: skip
    assert render.documents_markdown(report).splitlines() == [
        "- Added **Box notes** (`box-html`, 2024-06-02, 2 passages) from box.html",
        "- Replaced **Runbook** (`rb-pdf`, 2025-03-14, 9 passages) from rb.pdf",
        "- Unchanged: n.md is already in the index",
        "",
        "Claims audit of what was added: 2 claims, 1 agree, 1 disagree, 0 cannot be checked.",
        "- disagrees: rb-pdf > Page 5: the A100 80GB bandwidth_gbs = 3000 GB/s; datasheet says "
        "2039",
        "- **Not added:** broken.pdf is not a readable PDF (EOF).",
    ]
