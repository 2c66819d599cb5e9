"""Models kept on one card at once (a speech model beside a chat model, asked as a fit or as a
card to buy), a card the catalog lacks said beside a purchase, a decode roofline asked, why one
card's memory is faster than another's, which TFLOPS figure a training run is held to, a card
offered in two memory sizes, an image model that only fits with its parts offloaded, and a few
words the parser once missed (a Serbian "and how long", "one chat at a time", a hamfest seller)."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.tools import decode_ceiling, memory_together
from tests.asking import ask_grounded, head, thread_of


def test_memory_together_adds_the_needs() -> None:
    held = memory_together([4.5, 3.0, 1.5], 10.0)
    assert held["total_gb"] == pytest.approx(9.0)
    assert held["spare_gb"] == pytest.approx(1.0) and held["fits"]
    assert not memory_together([6.0, 6.0], 10.0)["fits"]
    assert "error" in memory_together([6.0], 10.0)  # one model is no sharing
    assert "error" in memory_together([6.0, -1.0], 10.0)


def test_decode_ceiling_is_bandwidth_over_bytes_read() -> None:
    bound = decode_ceiling(1000.0, 8.0, estimate_tokens_per_s=100.0)
    assert bound["tokens_per_s"] == pytest.approx(125.0)
    assert bound["share_percent"] == pytest.approx(80.0)
    assert "error" in decode_ceiling(0.0, 8.0)


@pytest.mark.parametrize(
    "question",
    [
        "can whisper medium and qwen2.5 7b both stay loaded on my 4070 at the same time?",
        "I want to keep SDXL and Llama 3.1 8B resident together on a 3090. enough room?",
        "phi-3 mini plus whisper small simultaneously on an 8gb card, ok?",
    ],
)
def test_models_named_together_are_read_as_kept_at_once(catalog: Catalog, question: str) -> None:
    q = understand(question, catalog)
    assert q.together and len(q.models) == 2, (q.models, q.english)
    assert q.intent == "fit"


def test_one_model_or_a_choice_is_not_kept_together(catalog: Catalog) -> None:
    assert not understand("will llama 3.1 8b fit on a 3060 at the same time as my game?",
                          catalog).together  # fmt: skip
    assert not understand("qwen2.5 7b or llama 3.1 8b on a 3060: which one fits?", catalog).together


def test_two_models_on_one_card_add_up(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "can whisper medium and qwen2.5 7b both stay loaded on my "
                        "rtx 4070 at the same time?").text  # fmt: skip
    assert head(text).startswith("**Yes: ") and "at the same time" in head(text)
    lines = [ln for ln in text.splitlines() if ln.startswith("- ")]
    assert len(lines) == 2 and any("Whisper" in ln for ln in lines)
    assert any("Qwen2.5-7B" in ln and "q4_k_m" in ln for ln in lines)  # run as at home
    needs = [float(re.search(r": ([\d.]+) GB", ln).group(1)) for ln in lines]
    together = float(re.search(r"together about ([\d.]+) GB", text).group(1))
    assert together == pytest.approx(sum(needs), rel=0.02)


def test_too_much_for_one_card_says_no_and_how_short(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "flux dev and llama 3.1 8b loaded simultaneously on a "
                        "12gb 3060?").text  # fmt: skip
    assert head(text).startswith("**No: ") and "short" in head(text)


def test_a_card_to_buy_for_two_models_keeps_room_for_both(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what card should I get for a home box that runs whisper "
                        "large-v3 plus a 7B chat model, 75 W max?").text  # fmt: skip
    assert text.startswith("**Pick one ")
    assert "also holds Whisper large-v3" in text
    kept = float(re.search(r"also holds Whisper large-v3 ([\d.]+) GB", text).group(1))
    first = re.search(r"it needs about ([\d.]+) GB in (\w+)", text)
    assert first is not None and first.group(2) == "q4_k_m"
    others = re.findall(r"^\d\. one .*?: ([\d.]+) GB of ([\d.]+) GB usable", text, re.M)
    for need, usable in others:  # what each card keeps for the LLM is what is left of it
        assert float(need) + kept <= float(usable) + kept + 1e-9
        assert float(need) <= float(usable)


def test_a_card_the_catalog_lacks_does_not_stop_a_purchase(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "my uncle can give me his old Quadro K2200, or I spend up "
        "to $600 on something for stable diffusion xl. what should i buy?",
    ).text
    assert "Unknown GPU" not in text and text.startswith("**Pick ")
    assert "no figures for the 'Quadro K2200'" in text


def test_a_roofline_asked_gives_the_bandwidth_bound(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "what's the theoretical max decode tok/s for mistral 7b "
        "q8_0 on a 3090, bandwidth roofline only, leave out kv reads",
    ).text
    line = next(ln for ln in text.split("\n\n") if "Bandwidth ceiling" in ln)
    bound = float(re.search(r"about ([\d.]+) tokens/s", line).group(1))
    read = float(re.search(r"over ([\d.]+) GB read per token", line).group(1))
    assert bound == pytest.approx(936 / read, rel=0.02)  # the 3090's 936 GB/s
    assert "KV cache reads left out" in line


def test_why_one_cards_memory_is_faster_names_the_kinds(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how come the old V100 moves memory faster than my new RTX "
                        "4080? what's different about the memory?").text  # fmt: skip
    assert text.startswith("**The memory differs in kind:")
    assert "HBM2" in head(text) and "GDDR6X" in head(text)


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        (
            "my RTX 4090 spec sheet lists 82.6 TFLOPS FP32 and a much bigger tensor number. we "
            "train with bf16 autocast: which of these figures is our real ceiling?",
            "**The tensor figure",
        ),
        (
            "L40S: which tflops figure applies when we train a CNN in plain fp32, the tensor one?",
            "**In plain FP32 the ceiling is the FP32 figure",
        ),
    ],
)
def test_the_peak_a_training_run_is_held_to(rules_advisor: Advisor, question: str,
                                            lead: str) -> None:  # fmt: skip
    text = ask_grounded(rules_advisor, question).text
    assert text.startswith(lead)
    assert "structured sparsity" in text


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        (
            "the store has the RTX 4060 Ti with either 8GB or 16GB, is one faster?",
            {"rtx-4060-ti-8gb", "rtx-4060-ti-16gb"},
        ),
        ("rtx 3060 8gb or 12gb version for lora training?", {"rtx-3060-8gb", "rtx-3060"}),
    ],
)
def test_a_card_in_two_memory_sizes_is_both(catalog: Catalog, question: str,
                                            ids: set[str]) -> None:  # fmt: skip
    q = understand(question, catalog)
    assert {g.ids[0] for g in q.gpus if len(g.ids) == 1} == ids


def test_an_image_model_that_fits_only_offloaded_says_so(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "flux.1 dev on my 16gb 4060 ti: should I grab the bf16 or "
                        "the fp8 weights?").text  # fmt: skip
    assert re.search(r"(?i)\byes in fp8\b", head(text)) and "offload" in head(text)
    said = ask_grounded(rules_advisor, "flux dev, bf16 vs fp8 checkpoint, on a 16gb 5060 ti: "
                        "which one?").text  # fmt: skip
    assert re.search(r"(?i)\byes in fp8\b", head(said)) and "offload" in head(said)


def test_a_serbian_and_how_long_follows_the_training_job(rules_advisor: Advisor) -> None:
    answers = thread_of(
        rules_advisor,
        "Treniram YOLOv8 na 50.000 slika, 30 epoha, na RTX 4070. Koliko bi to otprilike trajalo?",
        "A koliko bi trajalo na L40S?",
    )
    assert "of wall time" in head(answers[0])
    assert "of wall time" in head(answers[1]) and "L40S" in head(answers[1])


def test_small_words_of_use_and_condition(catalog: Catalog) -> None:
    q = understand("llama 3.1 8b on a 4060 ti, just one chat at a time, how many tok/s?", catalog)
    assert q.concurrency == 1
    q = understand("a seller at the swap meet asks $300 for a 3090, fair?", catalog)
    assert q.condition == "used"


def test_a_served_pick_names_its_kv_cache(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "which gpu to rent for qwen2.5 7b in bf16 on vllm with 30 "
                        "users at once, 8k context each?").text  # fmt: skip
    assert re.search(r"[\d.]+ GB the KV cache of the 30 sequences served at once", head(text))


def test_a_break_even_on_a_catalog_price_shows_the_other_prices(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "rent at $0.40/h or buy a 5060 ti 16gb? we'd use it about "
                        "40 hours a year").text  # fmt: skip
    line = next(ln for ln in text.splitlines() if ln.startswith("Other prices on record: "))
    assert re.search(r"\bMSRP \$[\d,]+ \(\d{4}-\d{2}\)", line)
    used = re.search(r"\$([\d,]+) to buy \((\w+),", text)
    assert used is not None and f"{used.group(2)} ${used.group(1)}" not in line  # not said twice
