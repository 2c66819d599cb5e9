"""Figures the user states, used as stated: a model FLOPs utilisation for a training run, a
request rate beside two cards to count, one card's price to buy beside another card, the length
of the samples in German; a model of a stated size on MIG slices; a narrow slot for data-parallel
training with no card named; the token cost asked after a sizing. Each phrasing is the test's
own."""

from __future__ import annotations

import math
import re

import pytest

from advisor.agent.understand import _mfu_said
from advisor.api import Advisor
from advisor.tools import call_tool
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


@pytest.mark.parametrize(
    ("said", "share"),
    [
        ("how long at 38% mfu", 0.38),
        ("assume an MFU of 50%", 0.5),
        ("our runs hit mfu ~ 42 %", 0.42),
        ("with 0.35 MFU", 0.35),
        ("at 45 % model flops utilization", 0.45),
        ("assuming equal mfu on both", None),
        ("what mfu is realistic on h100s", None),
    ],
)
def test_a_utilisation_said_is_read_as_a_share(said: str, share: float | None) -> None:
    assert _mfu_said(said.lower()) == share


def test_the_mfu_tool_is_six_n_d_over_the_share_of_peak() -> None:
    run = call_tool(
        "train_time_at_mfu",
        {"params_b": 7.0, "tokens": 2e12, "tflops_per_gpu": 989.0, "mfu": 0.5, "num_gpus": 512},
    )
    assert run["hours"] == pytest.approx(6 * 7e9 * 2e12 / (0.5 * 989e12 * 512) / 3600)
    assert run["gpu_hours"] == pytest.approx(run["hours"] * 512)
    assert "error" in call_tool(
        "train_time_at_mfu", {"params_b": 7.0, "tokens": 1e9, "tflops_per_gpu": 989.0, "mfu": 40}
    )


def test_a_stated_mfu_sets_the_training_time(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "pretraining a 3B decoder on 60B tokens with 16 H100 SXM, we usually get 38% MFU. "
        "how many days?",
    ).text
    head = _head(text)
    hours = 6 * 3e9 * 60e9 / (0.38 * 989e12 * 16) / 3600
    assert "at your 38% MFU" in head, text
    assert f"{hours / 24:.2f} days" in head, text
    assert "The calculator's own estimate" in text  # its own figure under the user's


def test_a_request_rate_counts_each_card_named(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "we expect ~30 requests per second on mistral 7b, prompts around 800 tokens and answers "
        "of 150. how many A10Gs vs L40S would that take?",
    ).text
    head = _head(text)
    assert head.startswith("**Pick the"), text
    assert "30 requests a second" in head
    assert re.search(r"\d+ x NVIDIA A10G", text) and re.search(r"\d+ x NVIDIA L40S", text), text


def test_the_cost_asked_after_a_sizing_is_not_a_second_fit(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "20 req/s for llama 3.1 8b, 300 tokens in and 300 out. how many L4s or H100s? "
        "also what's the cost per million tokens",
    ).text
    assert "per million output tokens" in text
    assert "fits on each of them" not in text, text


def test_one_cards_price_said_is_its_price(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "found a tesla p40 at $200 on ebay. worth it for local llms or should i get a 3060 12gb?",
    ).text
    assert "$200 (your price" in text, text
    assert "5,699" not in text.split("To buy:")[0]  # not judged at its launch price


def test_german_samples_of_a_length_set_the_tokens(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "Wie lange dauert eine Epoche LoRA mit Mistral 7B auf einer RTX 4090 bei 10.000 "
        "Beispielen mit je ca. 1.000 Tokens?",
    ).text
    assert "context 1,000" in text, text
    assert "2,048" not in text


def test_a_sized_model_on_mig_slices_says_which_precision_fits(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "could we host a 7b model in every MIG slice of an H100 80GB?").text
    assert _head(text).startswith("**No, not in the smallest slices"), text
    assert re.search(r"In (?:8-bit|4-bit \(AWQ\)) weights it fits every slice", text), text


def test_a_narrow_slot_with_no_card_named_is_sized_on_a_common_one(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor, "my board runs two gpus at pcie 3.0 x8 each, does that hurt ddp training?"
    ).text
    assert "waits on the gradient all-reduce" in _head(text), text
    assert "no card named" in text
    assert "Which model" not in text


def test_a_price_ratio_said_decides_worth_it(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "h200 vs b200 for llm training, worth paying 1.8x the price?").text
    head = _head(text)
    assert re.match(r"\*\*(?:Yes|Not on speed per dollar): the NVIDIA B200", head), text
    assert "your 1.8x the price" in head
    assert "batch 1)" not in head  # compared where compute shows, not launch-bound batch 1


def test_local_machines_are_compared_in_the_format_they_run(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "m3 ultra 96gb or two rtx 3090s for qwen2.5 72b, which runs it faster?"
    ).text
    assert "(q4_k_m" in _head(text), text
    assert "as such machines run it" in text


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        (
            "would deepseek coder v2 lite on my 3060 12gb work for copilot-style code completion",
            None,
        ),
        ("gonna run codestral 22b on a 4070 ti super 16gb for tab completion in neovim, ok?", None),
    ],
)
def test_completion_is_judged_by_the_first_token(
    rules_advisor: Advisor, question: str, lead: str | None
) -> None:
    text = _ask(rules_advisor, question).text
    head = _head(text)
    assert re.match(r"\*\*(?:Yes|Not) for autocomplete: the first token comes about", head), text
    first = float(re.search(r"about ([\d.]+) s after", head).group(1))  # type: ignore[union-attr]
    assert head.startswith("**Yes") == (first <= 1.0)


def test_minutes_asked_in_japanese_are_the_job_time(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "RTX 3090でwhisper large-v3を使って2時間の音声を文字起こしすると何分かかる?"
    ).text
    assert re.match(r"\*\*About [\d.]+ minutes", _head(text)), text


def test_two_prices_said_side_by_side_belong_to_the_cards_in_order(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor,
        "4080 super or 4090 for local llms? i can get them for about $950 vs $1,750",
    ).text
    head = _head(text)
    assert "at your prices" in head, text
    assert "$950" in head and "$1,750" in head


def test_a_chinchilla_run_is_twenty_tokens_a_parameter(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "roughly how many H100 GPU-hours for a chinchilla optimal 7B model?"
    ).text
    assert "twenty training tokens per parameter" in text and "140B tokens for 7B" in text, text
    assert re.search(r"[\d,]+ GPU-hours", _head(text)), text
    assert "no count said: on 8 x NVIDIA H100 SXM5" in text


def test_a_budget_at_a_stated_mfu_buys_tokens(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "with 20k dollars of a100 time at $1.50 per hour and 45% MFU, how many tokens can we "
        "pretrain a 500M model on?",
    ).text
    tokens = 20000 / 1.5 * 3600 * 0.45 * 312e12 / (6 * 0.5e9)
    assert _head(text).startswith(f"**About {tokens / 1e9:,.0f}B tokens"), text
    assert "tokens per parameter" in text


def test_the_cost_of_a_useful_gpu_hour_divides_by_the_busy_share(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor,
        "we rent a 4x H100 box for $11/hr and it's busy maybe 40% of the time. effective cost "
        "per gpu hour?",
    ).text
    assert _head(text).startswith(f"**About ${11 / 4 / 0.4:.2f} per useful GPU-hour"), text


def test_exllamav2_runs_its_own_quants(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how fast is qwen2.5 32b in exllamav2 on a single 4090?").text
    assert "(inference, gptq," in _head(text), text
    assert "EXL2 quants" in text


def test_a_speedup_where_one_card_alone_holds_it_is_node_against_node(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor, "how much faster is H200 than A100 for LoRA tuning a 70b model?"
    ).text
    head = _head(text)
    assert head.startswith("**Pick the 8 x NVIDIA H200 SXM"), text
    assert "8 x NVIDIA A100 SXM4" in head
    assert "Which one do you have" not in text


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("annual electricity cost of two 4090s running nonstop at $0.25/kWh?", 8760),
        ("our A6000 runs about 10 hours a day, what's the yearly power bill at 0.2 per kwh", 3650),
    ],
)
def test_a_power_bills_period_said_by_its_adjective(
    rules_advisor: Advisor, question: str, hours: int
) -> None:
    text = _ask(rules_advisor, question).text
    assert f"for {hours:,} hours" in _head(text), text


def test_a_machine_being_built_is_bought_and_holds_few_cards(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "putting together a shared server for 6 researchers to run mistral small 24b, which "
        "gpus should go in it?",
    ).text
    head = _head(text)
    assert "to buy" in head and "/hour" not in head, text
    count = re.match(r"\*\*Pick (\d+) x ", head)
    assert count is None or int(count.group(1)) <= 4, head


@pytest.mark.parametrize(
    ("question", "yes"),
    [
        ("can llama.cpp use my 4070 ti and an old 2080 ti together? how is the model split", True),
        ("thinking of combining a 3060 12gb and a 3060 ti in ollama to run qwen2.5 72b", False),
    ],
)
def test_two_different_cards_split_the_layers(
    rules_advisor: Advisor, question: str, yes: bool
) -> None:
    text = _ask(rules_advisor, question).text
    head = _head(text)
    assert "llama.cpp splits the model's layers across the" in head, text
    assert head.startswith("**Yes:") == yes, head
    assert "GB in all)" in head


def test_one_more_card_joins_the_comparison_and_used_prices_weigh_it(
    rules_advisor: Advisor,
) -> None:
    _first, more, used = _thread(
        rules_advisor,
        "3090 or 4090 for sdxl image generation, how much quicker is the 4090?",
        "what about the 4080?",
        "which is the better deal if i buy second hand",
    )
    assert "NVIDIA GeForce RTX 4080" in _head(more) and "RTX 3090" in _head(more), more
    assert _head(used).startswith("**Best value to buy:"), used
    assert "(used, " in _head(used)


def test_a_mac_instead_keeps_the_budget_and_the_job(rules_advisor: Advisor) -> None:
    first, mac = _thread(
        rules_advisor,
        "about 4k to spend on a box to run 70b models locally, what gpus?",
        "would getting a mac be smarter for that money?",
    )
    assert "whole box also needs a CPU" in first, first
    assert re.match(r"\*\*Pick one Apple ", _head(mac)), mac


def test_a_supply_asked_after_a_bill_is_sized_once(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "running 3x 4090 around the clock at 28c/kwh, what's that a month? also what psu for "
        "that build",
    ).text
    assert _head(text).startswith("**About $"), text
    assert "of power supply**" in text
    assert text.count("of electricity**") == 1


def test_a_card_against_the_cpu_for_whisper(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "whisper medium with faster-whisper: my ryzen cpu or an rtx 3060, how big a gap?",
    ).text
    head = _head(text)
    assert re.match(r"\*\*About [\d.]+x: [\d.]+ audio s/s on the NVIDIA GeForce RTX 3060 12GB ",
                    head), text  # fmt: skip
    assert "on the CPU" in head
    assert head.count("audio s/s") == 2


def test_two_engines_are_weighed_in_the_format_said(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "sglang vs vllm for qwen2.5 32b in fp8 on an h100, which decodes faster?"
    ).text
    head = _head(text)
    assert "SGLang" in head and "vLLM" in head, text
    assert "bf16" not in head


def test_a_stated_mfu_prices_the_run_and_counts_for_a_deadline(rules_advisor: Advisor) -> None:
    costed, counted = _thread(
        rules_advisor,
        "pretraining a 2B model on 200B tokens, A100 80GB at $1.40/hr, we assume 42% MFU. "
        "total compute cost?",
        "how many gpus do we need to be done in 10 days?",
    )
    gpu_hours = 6 * 2e9 * 200e9 / (0.42 * 312e12) / 3600
    assert _head(costed).startswith(f"**About {gpu_hours:,.0f} GPU-hours"), costed
    assert f"${gpu_hours * 1.4:,.0f}" in costed
    count = math.ceil(gpu_hours / 240)
    assert _head(counted).startswith(f"**{count} x NVIDIA A100"), counted
    assert "within your deadline" in _head(counted)
