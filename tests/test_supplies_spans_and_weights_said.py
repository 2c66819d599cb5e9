"""Stop 68: spans said as "all year" or "for a week", supplies off the grid and PSUs as limits on
the cards, two formats set against each other in other words, and the weights behind an answer
said (an image pipeline's in all, each compared model's, a format's by hand)."""

from __future__ import annotations

import pytest

from advisor.agent.understand import _duration_hours, understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("how much would it cost to rent a 4090 all year", 8760.0),
        ("rent an h100 all year", 8760.0),
        ("rent an h100 all week", 168.0),
        ("i'd run a 4090 8 hours a day all week", 56.0),
        ("8 hours a day for a week on a 4090", 56.0),
        ("6h a day all year round on a 3090", 2190.0),
        ("my 4090 runs 10 hours a day all month", 10 * 730 / 24),
        ("running an a100 all month", 730.0),
        ("power bill running a 3090 all week nonstop", 168.0),
    ],
)
def test_spans_said_with_all_or_for_a(text: str, hours: float) -> None:
    assert _duration_hours(text, None) == pytest.approx(hours)


@pytest.mark.parametrize("text", ["it costs $3.10 an hour", "it is 2 a day", "at 1,200 a month"])
def test_prices_per_period_are_no_spans(text: str) -> None:
    assert _duration_hours(text, None) is None


@pytest.mark.parametrize(
    ("text", "watts"),
    [
        ("off grid with 300W of solar, which gpu for whisper large v3?", 300.0),
        ("my solar setup gives me 400 W, what card for stable diffusion", 400.0),
        ("my inverter is rated 600 watts, can i run a 4090", 600.0),
        ("a solar trap hub with a hard 15 W power cap, which jetson for yolov8s?", 15.0),
    ],
)
def test_a_supply_off_the_grid_is_a_power_limit(catalog: Catalog, text: str, watts: float) -> None:
    assert understand(text, catalog).max_power_w == watts


def test_an_inverter_is_checked_like_a_psu(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "my inverter is rated 600 watts, can i run a 4090").text
    assert head(answer).startswith("**No: 600 W is less than the system draws")


def test_a_pick_off_the_grid_leaves_room_for_the_rest_of_the_machine(
    rules_advisor: Advisor,
) -> None:
    answer = ask_grounded(rules_advisor, "off grid with 800w of solar, which gpu for llama 8b").text
    assert "Cards up to 495 W of board power: what a 800 W supply leaves" in answer
    assert "W board power" in head(answer)  # each pick's draw, the limit being power


def test_a_supply_at_home_does_not_limit_a_rented_card(rules_advisor: Advisor) -> None:
    answer = ask_grounded(
        rules_advisor, "what gpu can i rent for llama 70b, i only have a 400w psu at home"
    ).text
    assert head(answer).startswith("**Pick") and "board power" not in head(answer)


def test_a_psu_pick_is_a_card_for_a_slot(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "best gpu for local llms on a 550w psu?").text
    assert "Jetson" not in head(answer) and "GB10" not in answer
    # a server's supplies feed boards of any form
    served = ask_grounded(rules_advisor, "our server has two 2000w power supplies, which gpus "
                          "should we use to train a 13b model").text  # fmt: skip
    assert "GeForce" not in head(served)


def test_formats_set_against_each_other_in_other_words(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "is fp8 worth it over bf16 for llama 3.1 8b on an h100, "
                          "how much memory in each").text  # fmt: skip
    assert head(answer).startswith("**Yes, both fit") and "BF16 fits" in head(answer)
    # a GGUF short of the card runs with layers in system RAM: the fit says so, not "neither"
    spilled = ask_grounded(rules_advisor, "q4 over q8 for qwen 14b on a 3060 12gb with "
                           "llama.cpp").text  # fmt: skip
    assert not head(spilled).startswith("**No, neither fits")


@pytest.mark.parametrize(
    "text",
    ["how pricey is an h100 by the hour", "l4 hourly rate on gcp?",
     "whats the damage for an a100 for a day", "what do i pay per month for an a10g"],
)  # fmt: skip
def test_a_price_asked_in_other_words_is_a_cost(catalog: Catalog, text: str) -> None:
    assert understand(text, catalog).intent == "cost"


def test_by_the_hour_asks_the_rent(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "how pricey is an h100 by the hour").text
    assert "per GPU-hour" in head(answer)


@pytest.mark.parametrize(
    "text",
    ["would a 4090 get through a qlora of llama 3 8b on 50k samples before monday",
     "train resnet50 on imagenet with 8 a100s, whats the turnaround",
     "how quickly can 2 4090s finish a lora on a 13b with 100k rows"],
)  # fmt: skip
def test_a_run_timed_in_other_words_is_a_time_to_train(catalog: Catalog, text: str) -> None:
    assert understand(text, catalog).intent == "train_time"


def test_the_weights_behind_an_answer_are_said(rules_advisor: Advisor) -> None:
    lora = ask_grounded(rules_advisor, "I want to train SDXL LoRAs at 1024px. RTX 5070 or RTX "
                        "5070 Ti?").text  # fmt: skip
    assert "The weights alone are 6.94 GB." in lora
    # a full fine-tune's trained denoiser is among its optimizer's bytes: no partial sum
    full = ask_grounded(rules_advisor, "dreambooth sdxl on a 3090 - vram?").text
    assert "The weights alone" not in full
    two = ask_grounded(rules_advisor, "for a 16GB card, which one can I keep entirely in fp16, "
                       "SDXL or SD 3.5 Large?").text  # fmt: skip
    assert "; weights 6.94 GB" in two
    held = ask_grounded(rules_advisor, "explain like im 12 what quantization does: why does "
                        "mistral 7b run on an 8 gb card in 4-bit but not fp16?").text  # fmt: skip
    assert "By hand, 7.25B parameters x 2, 1 and 0.5 bytes: 14.5, 7.25 and 3.62 GB" in held


def test_a_mixture_of_experts_says_the_bytes_each_token_reads(rules_advisor: Advisor) -> None:
    asked = (
        "On my Mac mini M4 Pro (48 GB) Qwen3-30B-A3B is much faster than Qwen3-32B at "
        "Q4_K_M. why is it so much quicker?"
    )
    answer = ask_grounded(rules_advisor, asked).text
    assert "Each token reads about 2.03 GB of Qwen3-30B-A3B's" in answer


def test_a_variant_that_holds_it_in_16_bits_is_named(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "any reason to pick a100 over 5090 for qwen 32b").text
    assert "in 16 bits only the NVIDIA A100 SXM4 80GB and NVIDIA A100 PCIe 80GB hold it" in answer
    assert "none of them holds" not in answer


def test_a_days_work_is_costed_over_the_period_asked(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "i make 3,000 images a day with sdxl on a 4070 super, "
                          "what would that cost a month to rent").text  # fmt: skip
    assert "a month**, the day's work" in head(answer)
    # asked after the pick: the cards that keep up with the day, a month's rent (no deadline)
    first = rules_advisor.ask("i make 3,000 images a day with sdxl, which gpu", thread_id="days")
    then = rules_advisor.ask("what would that cost a month to rent", thread_id="days")
    assert first.text and then.grounding_rate == 1.0
    assert head(then.text).startswith("**To keep up with 3,000 images a day")


@pytest.mark.parametrize(
    ("text", "watts"),
    [("my rack has a 2 kW circuit, best gpus for serving llama 70b", 2000.0),
     ("a generator-powered cabin, hard ceiling of 100 W for the whole compute unit: which gpu "
      "for yolo?", 100.0)],
)  # fmt: skip
def test_a_circuit_or_a_ceiling_is_a_power_limit(catalog: Catalog, text: str, watts: float) -> None:
    assert understand(text, catalog).max_power_w == watts


def test_an_l40s_is_not_written_back_as_an_l40(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "l40s for a month at 0.9 an hour").text
    assert "one l40s" in head(answer)


def test_two_ggufs_short_of_the_card_get_the_smaller_ones_fit(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "llama 3 70b Q4_K_M or Q8_0 on a 3090?").text
    assert "(q4_k_m)" in head(answer) and "system RAM" in head(answer)
    assert "4-bit (GGUF Q4_K_M) is the smallest; Q8_0 would keep more of it in system RAM" in answer


def test_a_span_before_the_hours_a_day_stays_the_span() -> None:
    assert _duration_hours("how much to rent a 3090 all month, i use it 6 hours a day", None) == (
        pytest.approx(730.0)
    )


def test_the_supply_is_the_figure_said_of_it(rules_advisor: Advisor) -> None:
    from advisor.agent.handlers import supply_watts

    assert supply_watts("best gpu for llama 13b under 250w per card, i have a 1000w psu") == 1000
    assert supply_watts("my psu is 650w") == 650
    answer = ask_grounded(rules_advisor, "best gpu for llama 70b on my 850w psu, or should i just "
                          "use the cloud").text  # fmt: skip
    assert "Cards up to 545 W of board power: what a 850 W supply leaves" in answer


def test_a_price_asked_in_another_currency_says_it_is_in_dollars(rules_advisor: Advisor) -> None:
    answer = ask_grounded(rules_advisor, "hourly rate of a 4090 in euros").text
    assert "a dollar is 0.8503 EUR at the European Central Bank's rate of 2026-05-08" in answer
    assert "European Central Bank" not in ask_grounded(rules_advisor, "hourly rate of a 4090").text
