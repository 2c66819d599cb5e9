"""ui.render: receipts, sources, warnings and chart data, from real rules-engine answers."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.answer import Answer, ToolCall
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
