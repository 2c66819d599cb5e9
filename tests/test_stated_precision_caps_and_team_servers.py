"""A precision said beside "which quant": its verdict first; a power cap said of one card in a
comparison; two setups that hold a model in 16 bits neither, compared in a format both hold; a
team's server under a budget ranked by its speed under load, not by memory. Each phrasing is the
test's own."""

from __future__ import annotations

import re

import pytest

from advisor.api import Advisor
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head


def test_a_16_bit_precision_said_with_which_quant_gets_its_verdict_first(
    rules_advisor: Advisor,
) -> None:
    text = _ask(rules_advisor, "my 4060 ti has 16gb - can qwen 2.5 14b go on it at fp16? "
                               "otherwise which quant would u pick").text  # fmt: skip
    first = _head(text)
    assert first.startswith("**No in FP16"), first
    assert "GGUF quant" in first and "Q8_0" not in first.split("Instead")[1][:20], first


def test_a_model_that_fits_in_bf16_leads_with_that_verdict(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Phi-3 mini in bf16 on an RTX 3090, or should I quantize? "
                               "what quant is best").text  # fmt: skip
    first = _head(text)
    assert first.startswith("**Yes") and "bf16" in first.lower(), first
    assert "GGUF quant" not in first  # the 16-bit verdict leads, not a quant


def test_no_precision_said_keeps_the_quant_ladder_alone(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "which gguf quant of gemma 2 27b should i run on a 3090").text
    assert not re.match(r"\*\*(?:Yes|No) in ", text), _head(text)
    assert "GGUF quant" in _head(text)


def test_a_power_cap_on_one_card_in_a_comparison_is_spoken_to(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "my 3090 is power limited to 250W, is it still faster than a "
                               "4070 ti super at llama 3 8b token generation?").text  # fmt: skip
    capped = next(p for p in text.split("\n\n") if p.startswith("**Your 250 W cap"))
    assert "RTX 3090" in capped and "0.71x its 350 W" in capped, capped
    assert "bandwidth" in capped


def test_no_cap_said_adds_no_cap_paragraph(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "3090 vs 4070 ti super for llama 3 8b token generation").text
    assert "cap on the" not in text


def test_two_setups_too_small_in_16_bits_are_compared_in_a_format_both_hold(
    rules_advisor: Advisor,
) -> None:
    text = _ask(rules_advisor, "mixtral 8x7b: a pair of rtx a6000s or one a100 80gb, which "
                               "would you get for inference").text  # fmt: skip
    first = _head(text)
    assert first.startswith("**Pick the NVIDIA A100"), first
    assert "(awq," in first
    assert "in 16 bits none of them holds it as asked" in text


def test_a_precision_said_is_not_swapped_for_a_leaner_format(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "mixtral 8x7b in bf16: two A6000 or a single A100 80GB?").text
    assert _head(text).startswith("**No"), _head(text)
    assert "Compared in AWQ" not in text


@pytest.mark.parametrize(
    "question",
    [
        "budget 15k eur for a box that serves a code assistant to 20 engineers at once, what do "
        "we buy",
    ],
)
def test_a_team_server_is_ranked_by_speed_under_load(rules_advisor: Advisor, question: str) -> None:
    text = _ask(rules_advisor, question).text
    first = _head(text)
    assert "most memory the budget buys" not in first, first
    assert "served to 20 users at once" in first, first
    assert "GB10" not in first  # 273 GB/s: the slowest of the large-memory boxes under load


def test_no_users_said_still_ranks_a_budget_by_memory(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "I have $4000 for a GPU to play with local LLMs, what should I "
                               "get").text  # fmt: skip
    assert "most memory the budget buys" in _head(text), _head(text)


def test_tensor_or_pipeline_parallel_is_computed_both_ways(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "we have 4 rtx 4090s in one box, no nvlink obviously. for "
        "serving qwen2.5 72b with vllm is TP or PP the better split?",
    ).text
    first = _head(text)
    assert "tensor parallel" in first and "pipeline stages" in first, first
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    assert any(r.startswith("- 4-way tensor parallel: one stream") for r in rows), rows
    assert any(r.startswith("- 4 pipeline stages: one stream") for r in rows), rows
    found = {r.split(":")[0]: re.findall(r"about ([\d,.]+) tokens/s", r) for r in rows}
    speeds = {k: [float(x.replace(",", "")) for x in v] for k, v in found.items()}
    tp, pp = speeds["- 4-way tensor parallel"], speeds["- 4 pipeline stages"]
    assert tp[0] > pp[0]  # one stream: every card reads its share of each token at once
    assert pp[1] > tp[1]  # full load over PCIe through host memory: the stages gain


def test_the_pipeline_stages_reach_the_estimate_tool() -> None:
    from advisor.tools import call_tool

    args = {"model": "llama-3.3-70b", "gpu": "l40s", "num_gpus": 4}
    tp, pp = call_tool("estimate", args), call_tool("estimate", {**args, "pp": 4})
    assert pp["decode_tokens_per_s"]["typical"] < tp["decode_tokens_per_s"]["typical"]
    assert any("4 pipeline stages" in a for a in pp["assumptions"])


def test_peer_to_peer_on_geforce_is_explained_with_its_answer_first(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "is peer-to-peer between gpus even enabled on consumer cards like "
                               "my two 4090s?").text  # fmt: skip
    first = _head(text)
    assert "off for GeForce" in first and "host's memory" in first, first
    assert "tinygrad/open-gpu-kernel-modules" in text


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("my mac studio m2 ultra have 128gb, can it hold a 70b in q8?", "m2-ultra-128gb"),
        ("mini with an M4 Pro having 24 GB: enough for qwen 14b?", "m4-pro-24gb"),
    ],
)
def test_a_macs_memory_said_with_have_picks_its_variant(text: str, gpu: str) -> None:
    from advisor.agent.understand import understand
    from advisor.catalog import load_catalog

    assert understand(text, load_catalog()).gpus[0].ids == (gpu,)


def test_a_cluster_budget_says_how_many_of_the_pick_it_buys(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "our lab got a $200,000 grant for a training cluster. which "
                               "gpus do we buy?").text  # fmt: skip
    line = next(p for p in text.split("\n\n") if p.startswith("**Your $200,000 buys"))
    count = int(re.search(r"buys (\d+) x", line).group(1))  # type: ignore[union-attr]
    pick = int(re.search(r"\*\*Pick (\d+) x", text).group(1))  # type: ignore[union-attr]
    assert count > pick
    speeds = [float(x.replace(",", "")) for x in re.findall(r"about ([\d,.]+) tokens/s", line)]
    speeds += [float(x.replace(",", "")) for x in re.findall(r"pick's ([\d,.]+) tokens/s", line)]
    assert speeds[0] > speeds[1]  # more of the cards train faster


def test_a_home_budget_adds_no_cluster_line(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "$3000 to spend on a gpu for qlora fine tuning at home").text
    assert "Your $3,000 buys" not in text and "Pick" in text


@pytest.mark.parametrize(
    ("text", "prices"),
    [
        (
            "rtx 4090 at 1650 or a used 3090 at 700 - better value for local llms?",
            (("rtx-4090", 1650.0), ("rtx-3090", 700.0)),
        ),
        (
            "second hand 3090 going for 680 vs new 4070 ti super for 800, which one do i buy",
            (("rtx-3090", 680.0), ("rtx-4070-ti-super", 800.0)),
        ),
    ],
)
def test_bare_numbers_after_cards_to_buy_are_their_prices(
    text: str, prices: tuple[tuple[str, float], ...]
) -> None:
    from advisor.agent.understand import understand
    from advisor.catalog import load_catalog

    assert understand(text, load_catalog()).gpu_purchase_prices == prices


@pytest.mark.parametrize(
    "text",
    [
        "4090 for 30 minutes vs 3090 for 60 minutes, which finishes the lora first",
        "a100 at 300 w vs h100 at 350 w, which is more efficient",
    ],
)
def test_numbers_with_units_after_cards_are_not_prices(text: str) -> None:
    from advisor.agent.understand import understand
    from advisor.catalog import load_catalog

    assert understand(text, load_catalog()).gpu_purchase_prices == ()


def test_a_size_said_is_the_job_of_a_priced_choice(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "4090 at 1800 or used 3090 at 750, mostly for running 32b models "
                               "in ollama, some sdxl too. which is better value").text  # fmt: skip
    first = _head(text)
    assert first.startswith("**Pick the NVIDIA GeForce RTX 3090"), first
    assert "32B" in first and "$1,800" in first and "$750" in first


@pytest.mark.parametrize(
    "question",
    [
        "need a card to train vision models on, 1200 dollar budget, what do i get",
        "Qual GPU devo comprar para treinar modelos de visão com orçamento de 1200 dólares?",
        "best graphics card for training cnns, under 1200",
    ],
)
def test_a_vision_job_to_buy_for_is_sized_on_a_vision_model(
    rules_advisor: Advisor, question: str
) -> None:
    first = _head(_ask(rules_advisor, question).text)
    assert first.startswith("**Pick") and "ResNet-50 (training)" in first, first
    assert "Llama" not in first


def test_a_family_named_with_no_model_is_ranked_on_its_stand_in(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what's a good gpu to rent for training convnets").text
    assert _head(text).startswith("**Pick") and "ResNet-50" in _head(text)
    assert "ResNet-50 stands in for the job" in text


@pytest.mark.parametrize(
    ("text", "usd"),
    [
        ("best gpu for training cnns under 800", 800.0),
        ("which card should i get for local llms, around 1,500", 1500.0),
    ],
)
def test_a_bare_budget_for_a_card_is_read(text: str, usd: float) -> None:
    from advisor.agent.understand import understand
    from advisor.catalog import load_catalog

    budget = understand(text, load_catalog()).budget
    assert budget is not None and budget.usd == usd and budget.per == "total"


@pytest.mark.parametrize("text", ["best gpu under 300w for training", "which gpu for 1024 px sdxl"])
def test_watts_and_pixels_are_no_budget(text: str) -> None:
    from advisor.agent.understand import understand
    from advisor.catalog import load_catalog

    assert understand(text, load_catalog()).budget is None
