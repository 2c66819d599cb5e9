"""The figures a question asks for beside a concept or a choice of formats: the memory of one model
in each format set against another ("fp16 vs q4", "at bf16 and at int8"), a mixture of experts in
the format said, a model split over the cards said, what a context window of the length said
holds, and a training job's own state (weights, gradients, optimizer) summed."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


def _gb(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    assert found, text[:700]
    return float(found.group(1).replace(",", ""))


def test_one_model_in_two_formats_and_no_card_gives_the_need_of_each(
    rules_advisor: Advisor,
) -> None:
    text = rules_advisor.ask("mistral 7b - vram needed at fp16 versus q8?").text
    head = text.split("\n", 1)[0]
    sixteen = _gb(r"about ([\d.]+) GB in FP16", head)
    eight = _gb(r"about ([\d.]+) GB in Q8_0", head)
    assert 12 < sixteen < 18 and 6 < eight < 10 and eight < sixteen
    assert "- FP16: weights" in text and "- Q8_0: weights" in text


def test_formats_joined_by_and_at_are_weighed(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("gemma 2 9b, how much memory at bf16 and at int8?").text
    head = text.split("\n", 1)[0]
    assert "in BF16" in head and "in INT8" in head, text[:500]


def test_one_format_alone_is_no_weighing(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("how much vram for llama 3.1 8b in fp16?").text
    assert not text.startswith("**For inference,"), text[:300]


def test_a_mixture_of_experts_is_sized_in_the_format_said(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "how does a mixture of experts work? take mixtral 8x7b at q4_k_m: how much memory does it "
        "hold and how much does each token touch?"
    ).text
    line = next(ln for ln in text.splitlines() if ln.startswith("- Mixtral"))
    held = _gb(r"all ([\d.]+) GB of weights sit in memory in q4_k_m", line)
    read = _gb(r"each token reads about ([\d.]+) GB", line)
    # a quarter-ish of 16-bit (93 GB) held; each token reads the active share of it (12.9 / 46.7)
    assert 20 < held < 35
    assert read == pytest.approx(held * 12.9 / 46.7, rel=0.03)


def test_a_model_split_over_the_cards_said(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "what is tensor parallel vs splitting layers? say qwen2.5 32b in q4 over four cards, "
        "what lands on each?"
    ).text
    line = next(ln for ln in text.splitlines() if "split over 4 cards" in ln)
    whole = _gb(r"q4_k_m: ([\d.]+) GB of weights", line)
    each = _gb(r"each holds about ([\d.]+) GB", line)
    assert each == pytest.approx(whole / 4, rel=0.02)


@pytest.mark.parametrize(
    ("question", "context"),
    [
        ("i want the model to keep 16k tokens of chat history in mind", 16384),
        ("so it can hold 64k tokens of the codebase at once", 65536),
    ],
)
def test_tokens_held_at_once_are_the_context(catalog: Catalog, question: str, context: int) -> None:
    assert understand(question, catalog).context == context


def test_what_a_context_window_is_with_its_memory(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "what's a context window? and how much memory would qwen2.5 7b take to keep 16k tokens "
        "of my notes in mind at once?"
    ).text
    # the figure asked first, then what the concept is
    assert "A context window is how many tokens" in text, text[:300]
    assert "Qwen2.5-7B at 16,384 tokens of context: a KV cache of" in text.split("\n", 1)[0]


def test_a_context_window_said_as_a_setting_is_no_concept(catalog: Catalog) -> None:
    q = understand("does llama 3.1 8b fit on a 4060 ti 16gb with a 32k context window?", catalog)
    assert q.topic is None and q.intent == "fit"


def test_a_full_fine_tune_sums_its_training_state(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("full fine-tune of roberta-base with adamw: how much vram?").text
    parts = [
        _gb(rf"{name} ([\d.]+) GB", text) for name in ("weights", "gradients", "optimizer states")
    ]
    state = _gb(r"the training state: ([\d.]+) GB", text)
    assert state == pytest.approx(sum(parts), rel=0.02)


def test_a_chinese_explain_request_is_an_explanation(catalog: Catalog) -> None:
    q = understand(
        "可以解释一下混合专家模型吗？比如Mixtral 8x7B，请按Q4_K_M算一下显存。",  # noqa: RUF001
        catalog,
    )
    assert q.intent == "explain" and q.topic == "moe" and q.precision == "q4_k_m"


def test_a_pace_in_iterations_a_second_times_the_steps(rules_advisor: Advisor) -> None:
    # the run's steps, not its 50 hours of audio, are what the trainer's pace counts
    text = rules_advisor.ask(
        "fine-tuning whisper base on 50 hours of call-centre audio; HF trainer shows 4 "
        "iterations per second and max_steps is 9000. when does it finish?"
    ).text
    head = text.split("\n", 1)[0]
    assert "About 37.5 minutes at your own measured pace" in head, head  # 9,000 / 4 s
    assert "9,000 steps" in head


def test_one_gpu_of_the_instance_said_before_is_one_card(rules_advisor: Advisor) -> None:
    thread = "t-one-of-the-box"
    rules_advisor.ask("our team rents a p4d.24xlarge for experiments", thread_id=thread)
    text = rules_advisor.ask(
        "on just one GPU of that box, what tok/s for mistral 7b in bf16 with vllm, batch 1?",
        thread_id=thread,
    ).text
    assert "on one NVIDIA A100" in text.split("\n", 1)[0], text[:300]
