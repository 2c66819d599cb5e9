"""What a blind round found answered beside the point: a follow-up that only changes the count,
the KV cache's type or the condition bought; throughput per dollar of a served model; a card's
price with no renting said; a token API's price against rented cards; two cards' yearly power
bill. Each phrasing is the test's own."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import _kv_cache_said, understand
from advisor.api import Advisor
from advisor.catalog import load_catalog
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("what if the kv cache is fp8", "fp8"),
        ("serve it with an fp8 kv cache", "fp8"),
        ("vllm --kv-cache-dtype fp8_e5m2", "fp8"),
        ("llama-server -ctk q8_0 -ctv q8_0", "q8_0"),
        ("quantised kv to 4 bit", "q4_0"),
        ("how big is the kv cache at 128k", None),
    ],
)
def test_the_kv_cache_type_is_read_as_said(text: str, kind: str | None) -> None:
    assert _kv_cache_said(text) == kind


def test_a_count_needed_in_a_follow_up_reprices_the_rental(rules_advisor: Advisor) -> None:
    answers = _thread(rules_advisor, "whats 8x h100 for ten days going to run us",
                      "and if we just need 4?")  # fmt: skip
    assert "8 x NVIDIA H100" in _head(answers[0]), answers[0][:200]
    assert "4 x NVIDIA H100" in _head(answers[1]), answers[1][:200]


def test_a_count_of_hours_in_a_follow_up_is_no_gpu_count() -> None:
    catalog = load_catalog()
    first = understand("rent 2x a100 80gb for a day, cost?", catalog)
    then = understand("what if we need 6 hours more", catalog, first.context_dict())
    assert [g.count for g in then.gpus] == [2]


def test_a_fp8_kv_cache_follow_up_halves_the_cache(rules_advisor: Advisor) -> None:
    answers = _thread(rules_advisor, "kv cache size for qwen2.5 72b at 64k context in bf16?",
                      "now with the kv cache in fp8")  # fmt: skip

    def cache(text: str) -> float:
        found = re.search(r"KV cache takes about ([\d.]+) GB", text)
        assert found, text[:300]
        return float(found.group(1))

    assert cache(answers[1]) == pytest.approx(cache(answers[0]) / 2, rel=0.02)
    assert "in fp8" in _head(answers[1])


def test_buying_used_after_a_pick_redoes_the_pick_used(rules_advisor: Advisor) -> None:
    answers = _thread(rules_advisor, "best card for training models at home, max $700",
                      "and second hand?")  # fmt: skip
    assert _head(answers[1]).startswith("**Pick"), answers[1][:300]
    assert "used" in answers[1]


def test_throughput_per_dollar_when_serving_ranks_at_full_load(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "for hosting qwen2.5 32b behind an api, is an l40s or an a100 "
                               "80gb sxm better throughput per dollar").text  # fmt: skip
    assert "served at full load" in _head(text), text[:400]


def test_a_card_price_with_no_renting_said_gives_the_price_to_buy(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what does a 4090 go for these days?").text
    first = text.split("\n\n")[0]
    assert re.search(r"\$[\d,]+ (?:new|used)|MSRP", first), text[:300]
    # (stop 77: "what does it go for" is read as "how much is it", the price to buy alone)
    same = _ask(rules_advisor, "how much is a 4090 these days?").text.split("\n\n")[0]
    assert first == same, (first, same)


def test_renting_said_keeps_the_rent_alone(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how much is it to rent an rtx 4090 for a month").text
    assert "to buy" not in text.lower() and " new**" not in text, text[:300]


def test_a_token_api_price_is_set_against_rented_cards(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "is it cheaper to push 10M tokens of llama 3.1 70b through "
                               "rented a100s or through an api charging $0.90 per 1m tokens?"
                ).text  # fmt: skip
    first = _head(text)
    assert re.match(r"\*\*(?:The API|Renting the GPU) is cheaper for 10 million tokens", first), (
        first
    )
    assert "one request at a time" in text


def test_two_cards_power_bill_for_a_year_at_a_stated_rate(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "always-on llm box, power is 0.28/kwh, what's the yearly "
                               "electricity for a 4090 compared to a 3060 12gb").text  # fmt: skip
    bills = re.findall(r"About \$([\d,]+) of electricity\*\* \(([\d,]+) kWh\)", text)
    assert len(bills) == 2, text[:600]
    assert "8,760 hours" in text
    assert _head(text).startswith("**About $"), text[:300]  # the bills lead, not the watts


def test_a_time_asked_in_french_of_a_sized_run_gives_the_time(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "combien de temps faut-il pour entraîner bert-base sur 2 "
                               "millions de phrases avec une rtx 4090 ?").text  # fmt: skip
    assert re.match(r"\*\*(?:One epoch: about|About [\d.]+ hours)", _head(text)), text[:300]


def test_a_pascal_card_lists_its_sixteen_bit_models_in_fp16(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "got an old titan xp 12gb lying around, which llms would run?").text
    assert "FP16:" in text and "BF16" not in text, text[:500]


def test_an_image_model_too_big_in_the_16_bits_said_offers_8_bits(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "will flux.1 dev in bf16 run on a 4090?").text
    assert _head(text).startswith("**No"), text[:300]
    assert "In fp8" in text and "it fits" in text


def test_the_card_a_budget_buys_is_picked_of_two(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "about 1300 dollars for the card, 4090 or 3090 for "
                               "training loras?").text  # fmt: skip
    # (each at its price on record since stop 73)
    assert re.match(
        r"\*\*Pick the NVIDIA GeForce RTX 3090 \(\$[\d,]+ \w+, [\d-]+\): the NVIDIA "
        r"GeForce RTX 4090 \(\$[\d,]+ \w+, [\d-]+\) is over",
        _head(text),
    ), text[:300]
    assert "Without the budget, pick the" in text


def test_which_would_you_buy_after_a_comparison_picks_one_of_the_two(
    rules_advisor: Advisor,
) -> None:
    answers = _thread(rules_advisor, "7900 xtx vs rtx 4080 super for local llms",
                      "alright, which one should i get with 1100 bucks?")  # fmt: skip
    first = _head(answers[1])
    assert re.search(r"7900 XTX|4080 SUPER", first), answers[1][:300]
    assert "4070" not in first and "3090" not in first


def test_training_models_with_none_named_stands_in_an_image_model(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what should i buy to train neural nets at home, up to $900").text
    assert "from scratch" not in text and "stands in for the job" in text, text[:400]
    assert _head(text).startswith("**Pick"), text[:300]


def test_two_clouds_written_with_a_slash_are_each_ranked(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "cheapest thing on vast/runpod that holds mistral 7b in "
                               "bf16?").text  # fmt: skip
    assert _head(text).startswith("**The lowest hourly rent of the clouds named"), text[:300]
    assert "on Vast.ai" in text and "on RunPod" in text


def test_a_maximum_power_said_of_each_card_caps_the_pick() -> None:
    q = understand("maximum power 250w a card, what's best for whisper large", load_catalog())
    assert q.max_power_w == 250 and q.draw_w is None


def test_why_decoding_is_bandwidth_bound_shows_it_on_a_card(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "eli5 why llm decoding is limited by memory bandwidth and not "
                               "by flops").text  # fmt: skip
    assert re.search(r"on the NVIDIA GeForce RTX 4090: each token reads all [\d.]+ GB", text), text[
        :600
    ]
    assert "Batching" in text


def test_a_squad_fine_tune_runs_the_reference_recipe(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "roughly how long does fine-tuning bert base on squad take on "
                               "one rtx 3090?").text  # fmt: skip
    assert re.match(r"\*\*(?:The whole job: about|About [\d.]+ (?:minutes|hours))", _head(text)), (
        text[:300]
    )
    assert "2 epochs of SQuAD v1.1 at 384-token sequences" in text
