"""The figures that decide a pick, said beside it: setups compared as counted (four cards against
one), the memory of several cards in all, FP64 on the tensor or matrix cores, FP8 math or its
absence when FP8 is asked, what paces a job priced per unit of work, the full-load total when
serving at scale is asked, the price of a card said to be needed, whether a model fits under a
power cap, and why one image render does not span two bridged cards."""

from __future__ import annotations

import re

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


def _head(text: str) -> str:
    return text.split("\n", 1)[0]


def test_hungarian_counts_are_read(catalog: Catalog) -> None:
    q = understand("két RTX 4090 vagy egy RTX 6000 Ada?", catalog)
    assert q.gpus[0].count == 2 and (q.gpus[1].count or 1) == 1


def test_setups_are_picked_on_their_figures_in_all(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("2x 3090 vs 1x a100 40gb for our group, mostly training").text
    head = _head(text)
    # two 3090s: 2 x 71 TFLOPS = 142 against the A100's 312; 48 GB against 40 GB
    assert "2 x NVIDIA GeForce RTX 3090" in head and "48 GB vs 40 GB" in head, head
    assert "joined over PCIe" in text


def test_several_cards_show_their_memory_in_all(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("qwen2.5 72b at q4_k_m: three 3090s or two a6000s?").text
    assert "(24 GB each, 72 GB in all" in text and "(48 GB each, 96 GB in all" in text, text[:900]


def test_fp64_shows_the_tensor_core_rate_beside_the_vector_rate(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("fp64 of the h100 sxm vs the a100 sxm 80gb?").text
    assert "(67 TFLOPS on its FP64 tensor cores)" in text
    assert "(19.5 TFLOPS on its FP64 tensor cores)" in text


def test_fp8_asked_shows_which_card_has_fp8_math(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "serving qwen2.5 7b in fp8 with vllm: L4 or A10G, which is faster?"
    ).text
    assert re.search(r"NVIDIA L4\*\* \([^)]*FP8 [\d.,]+ TFLOPS\)", text), text[:900]
    assert "no FP8 tensor cores: weight-only FP8" in text  # the A10G is Ampere


def test_a_compute_bound_job_priced_per_unit_shows_its_tflops(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "training job, compute bound. L40S at $0.99/h or A100 80GB at $1.40/h: cheaper per job?"
    ).text
    assert "What paces it, dense FP16/BF16 tensor:" in text
    assert "312 TFLOPS" in text and "362 TFLOPS" in text


def test_serving_at_scale_is_judged_at_full_load(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "is an h200 worth it over an h100 for serving llama 3.3 70b in fp8 to lots of users?"
    ).text
    head = _head(text)
    assert "served at full load" in head and "requests in flight" in head, head
    assert "141 GB against 80 GB" in head


def test_a_card_said_to_be_needed_shows_its_price(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "my brother says i need an h100 to run stable diffusion at home. do i?"
    ).text
    assert text.startswith("**No:"), text[:200]
    assert re.search(r"\*\*NVIDIA H100 [^*]*: \$[\d,]+", text), text[:700]


def test_a_power_capped_card_says_whether_the_model_fits(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "our box caps the gpu at 72 W. is an L4 ok for qwen2.5 14b in fp8 under that cap?"
    ).text
    assert re.search(r"Needs about [\d.]+ GB of [\d.]+ GB usable", text), text[:900]


def test_one_image_render_does_not_span_bridged_cards(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "if i nvlink two 3090s, can one flux render use all 48gb like a single gpu?"
    ).text
    head = _head(text)
    assert head.startswith("**No: a single FLUX.1 [dev] render") and "not one of 48 GB" in head, (
        head
    )
    assert "NVLink joins the cards at" in text
