"""Stop 71, the reviewers' kinds: a pre-training cluster sized for its deadline (hundreds of GPUs
as whole nodes on InfiniBand, its GPU-hours), a model the catalog lacks sized by the size said,
long times said in days too, the unit asked (latency, steps a second, seconds, hours of audio an
hour), fine-tuning methods weighed side by side, tokens to generate priced, money asked in another
currency converted, a follow-up that keeps the money asked or sets a card against the one before,
and a handler's fault answered in words."""

from __future__ import annotations

import re

import pytest

from advisor.agent.turn import Turn, answer_by_rules
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.calculator import interconnect
from advisor.catalog import Catalog
from advisor.tools import TOOLS
from tests.asking import ask_grounded, head, thread_of


def _count(text: str) -> int:
    found = re.match(r"\*\*([\d,]+) x ", text)
    assert found, text[:300]
    return int(found.group(1).replace(",", ""))


def test_a_pretraining_deadline_sizes_a_cluster_of_whole_nodes(rules_advisor: Advisor) -> None:
    # 6 x 8.03e9 x 15e12 = 7.2e23 FLOP; at 25-40% of 989 TFLOPS, 500k-800k H100-hours over 720 h
    text = ask_grounded(rules_advisor, "how many gpus would we need to pretrain llama 3 8b on "
                        "15T tokens within 30 days, h100s").text  # fmt: skip
    count = _count(text)
    assert 600 <= count <= 1300 and count % 8 == 0, head(text)
    assert "within 30 days" in head(text) and "InfiniBand" in head(text), head(text)
    assert "GPU-hours" in head(text)


def test_a_count_asked_as_a_number_needed_is_a_count(catalog: Catalog) -> None:
    query = understand("number of a100s needed to pretrain a 7b model on 2T tokens in 2 weeks",
                       catalog)  # fmt: skip
    assert query.intent == "solve" and query.target == "min_gpus"


def test_a_cluster_of_boards_runs_over_a_port_per_gpu() -> None:
    inside = interconnect.Link("switch", 300.0, "NVLink/NVSwitch")
    over = interconnect.across_nodes(inside, 2, "ib-hdr", gpus_per_node=8)
    assert over.gbs == pytest.approx(200.0)  # eight 200 Gb/s ports: 200 GB/s out of a node
    pcie = interconnect.Link("pcie", 32.0, "PCIe 4.0 x16")
    assert interconnect.across_nodes(pcie, 2, "ib-hdr", gpus_per_node=8).gbs == 25.0  # one port


def test_gpu_hours_of_a_model_no_card_holds_lead(rules_advisor: Advisor) -> None:
    # 6 x 175e9 x 300e9 = 3.15e23 FLOP: 200k-450k H100-hours at 20-45% of the dense peak
    text = ask_grounded(rules_advisor, "how many h100 hours to pretrain a 175b model on 300b "
                        "tokens?").text  # fmt: skip
    first = head(text)
    found = re.search(r"About ([\d,]+) GPU-hours", first)
    assert found and 200_000 <= int(found.group(1).replace(",", "")) <= 450_000, first


def test_a_sized_name_the_catalog_lacks_is_a_generic_model_of_that_size(catalog: Catalog) -> None:
    query = understand("what would it take to train gpt-3 175b from scratch", catalog)
    assert query.models[0].size_b == 175.0 and not query.models[0].suggestions


def test_a_full_fine_tune_said_in_brackets(catalog: Catalog) -> None:
    query = understand("fine-tune qwen2.5 14b (full) on 1B tokens, how many a100s", catalog)
    assert query.workload == "finetune-full"


def test_nodes_of_eight_with_a_full_ft_count_every_card(catalog: Catalog) -> None:
    query = understand("3 nodes of 8x h100, full-ft of a 70b: how long for 2B tokens", catalog)
    assert query.gpus[0].count == 24 and query.nodes == 3


def test_a_power_limit_on_every_card_is_no_supply(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "which psu do i need for 3x rtx 4090 if i power limit "
                        "them to 300w").text  # fmt: skip
    assert head(text).startswith("**About") and "capped at 300 W each" in head(text), head(text)


def test_a_models_size_is_no_price(catalog: Catalog) -> None:
    query = understand("rtx 6000 ada or rtx a6000 for 70b inference, is it worth the price?",
                       catalog)  # fmt: skip
    assert query.purchase_usd is None


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("bert-base inference latency on an l4, batch 1", r"\*\*About [\d.]+ ms per request\*\*"),
        ("training llama 3 8b lora on one h100 at batch 4 seq 4096: how many steps per second?",
         r"\*\*About [\d.]+ steps/s \([\d.]+ s per step\)\*\*"),
        ("how many seconds to make 500 sdxl images on an l40s", r"\*\*About [\d,]+ s\*\*"),
        ("how many hours of audio per hour can an a10g transcribe with whisper large v3",
         r"\*\*About [\d.]+ hours of audio per hour\*\*"),
    ],
)  # fmt: skip
def test_the_unit_asked_leads(rules_advisor: Advisor, question: str, pattern: str) -> None:
    text = ask_grounded(rules_advisor, question).text
    assert re.match(pattern, text), head(text)


def test_a_long_wall_time_says_its_days() -> None:
    from advisor.agent import compose as c

    assert c.duration(100.0) == "100 hours (4.17 days)" and c.duration(30.0) == "30 hours"


def test_fine_tuning_methods_weighed_side_by_side(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qlora vs full fine-tune of mistral 7b, how much vram "
                        "each?").text  # fmt: skip
    first = head(text)
    assert "QLoRA fine-tuning about" in first and "full fine-tuning about" in first, first
    sizes = [float(x) for x in re.findall(r"about ([\d.]+) GB", first)]
    assert len(sizes) == 2 and sizes[0] < sizes[1] / 4, first  # 4-bit base vs 16 bytes a param


def test_tokens_to_generate_are_priced_at_full_load(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what does it cost to generate 3 billion tokens with "
                        "qwen2.5 7b on rented a100s?").text  # fmt: skip
    first = head(text)
    assert first.startswith("**About $") and "3 billion tokens" in first, first
    assert "One request at a time" in text


def test_a_price_asked_in_another_currency_leads_in_it(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "what does a new rtx 4090 cost", "and in pounds?")
    assert answers[-1].startswith("**About £"), head(answers[-1])


def test_a_follow_up_keeps_the_money_asked(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "cost per million tokens for llama 3.1 8b on an a100 at "
                        "full load", "and on an l40s?")  # fmt: skip
    assert "per million" in head(answers[-1]) and "L40S" in head(answers[-1]), head(answers[-1])


def test_a_card_set_against_the_one_before(rules_advisor: Advisor) -> None:
    answers = thread_of(rules_advisor, "is a used 3090 for 650 dollars a good buy",
                        "vs a new 4070 super?")  # fmt: skip
    assert "3090" in head(answers[-1]) and "4070 SUPER" in head(answers[-1]), head(answers[-1])


def test_a_floor_on_speed_said_with_a_plus(catalog: Catalog) -> None:
    query = understand("cheapest gpu to buy for mistral 7b at 40+ tok/s", catalog)
    assert query.needed_tok_s == 40.0


def test_a_handlers_fault_is_answered_in_words(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.agent import rules
    from advisor.agent.toolbox import ToolBox

    def broken(*_args: object) -> None:
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(rules, "answer", broken)
    turn = Turn(box=ToolBox())
    turn.query = understand("is a 3090 good for llama 8b", catalog)
    answer_by_rules(turn)
    assert turn.draft is not None and "internal error (ZeroDivisionError)" in turn.draft.text
    assert "step_rate" in TOOLS
