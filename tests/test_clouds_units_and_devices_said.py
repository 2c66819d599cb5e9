"""A cloud said once holds for the thread; a day's work stays a day's work in follow-ups; a rate
asked per minute or per hour is answered in that span; "real time" and "usable" get a yes or no;
a multiple of speed claimed for training is judged on both cards; a budget is no price paid;
"the cheaper one" is a card of the thread; phones and single-board computers are said to be out
of the catalog. Each phrasing is the test's own."""

from __future__ import annotations

import re

from advisor.api import Advisor
from advisor.catalog import load_catalog
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


def test_the_cloud_said_before_prices_the_follow_up(rules_advisor: Advisor) -> None:
    first, later = _thread(
        rules_advisor,
        "full finetune of mistral 7b on 300M tokens, rented on lambda - what's the bill?",
        "and what if it ran on 8 of the gpus?",
    )
    assert "Lambda" in first
    assert "Lambda's median" in _head(later), later
    # the figures under the lead are priced at the same cloud, not the market's median
    assert "(median price; Lambda" in later


def test_a_days_work_stays_a_rate_when_the_cost_is_asked_next(rules_advisor: Advisor) -> None:
    first, later, cloud = _thread(
        rules_advisor,
        "we get about 300 hours of podcast audio every day to transcribe with whisper large-v3, "
        "which gpus?",
        "what does that run per month?",
        "ok and on gcp?",
    )
    assert _head(first).startswith("**To keep up with 300 hours of audio a day")
    assert _head(later).startswith("**To keep up with 300 hours of audio a day") and "a month" in (
        _head(later)
    )
    assert "GCP's median price" in _head(cloud), cloud


def test_a_reaction_before_the_question_keeps_the_threads_job(rules_advisor: Advisor) -> None:
    *_, later = _thread(
        rules_advisor,
        "training resnet-50 on 20k images for 50 epochs on my rtx 3060, how long?",
        "way too slow. how long and how much on a rented a100 80gb?",
    )
    head = _head(later)
    assert "ResNet-50" in head and "A100" in head, later
    assert re.search(r"minutes|hours", head) and "for about $" in head, later


def test_a_rate_asked_per_minute_or_per_hour_is_said_in_it(rules_advisor: Advisor) -> None:
    minute = _ask(rules_advisor, "sd 1.5 on an rtx 4070, how many images a minute?").text
    assert re.search(r"\*\*Images per minute: about [\d.,]+ images/min", _head(minute)), minute
    hour = _ask(rules_advisor, "sdxl at 1024 on an l40s - images per hour?").text
    assert re.search(r"about [\d.,]+ images/h \([\d.,]+ images/h to", _head(hour)), hour
    tokens = _ask(rules_advisor, "qwen2.5 7b on a t4: how many tokens per minute?").text
    assert "tokens/min" in _head(tokens), tokens


def test_real_time_and_usable_get_a_yes_or_no_first(rules_advisor: Advisor) -> None:
    live = _ask(rules_advisor, "whisper medium on a gtx 1660 super, fast enough for realtime "
                "captions?").text  # fmt: skip
    assert re.match(r"\*\*(?:Yes: faster than|No: slower than|About) real time", live), live
    usable = _ask(rules_advisor, "is llama 3.1 8b at q4 usable on an rtx 3050 8gb?").text
    assert _head(usable).startswith(("**Yes", "**No")), usable


def test_a_multiple_claimed_for_training_is_judged_on_both(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "heard the h100 trains 3x quicker than an a100. true?").text
    verdict = re.match(r"\*\*(?:Yes|No): about ([\d.]+)x", text)
    assert verdict, text
    assert 1.5 < float(verdict.group(1)) < 4.0
    assert "does not fit" not in _head(text.split("\n\n", 1)[1])


def test_a_budget_is_no_price_paid(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "deciding between a 3090 and a 4080 super with ~$1500 budget, "
                "mainly for training small models").text  # fmt: skip
    assert "pays off after" not in text and "rather than renting" not in text
    assert "$1,500" in text


def test_the_cheaper_one_is_a_card_of_the_thread(rules_advisor: Advisor) -> None:
    *_, later = _thread(
        rules_advisor,
        "thinking of buying an rtx 4090 or an rtx 6000 ada for local models",
        "would the cheaper one run qwen2.5 32b at q4?",
    )
    catalog = load_catalog()
    cheaper = min(("rtx-4090", "rtx-6000-ada"),
                  key=lambda g: catalog.purchases_for(g)[0].usd)  # fmt: skip
    name = catalog.get_gpu(cheaper).name
    assert name in _head(later) and "of them" not in _head(later), later
    assert "'The cheaper one' read as" in later


def test_devices_outside_the_catalog_are_said_to_be(rules_advisor: Advisor) -> None:
    for question in ("could an orange pi 5 run tinyllama?", "gemma 2 2b on a pixel 8 pro?"):
        text = _ask(rules_advisor, question).text
        assert text.startswith("The catalog covers GPUs"), text
        assert "Pick" not in text and "tokens/s" not in text


def test_a_gguf_file_name_with_a_release_is_that_release(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "mistral-7b-instruct-v0.2.Q4_K_S.gguf on a 6gb 2060, will it "
                "fit?").text  # fmt: skip
    assert "Mistral-7B-Instruct-v0.2" in _head(text), text
    assert "Did you mean" not in text


def test_suggestions_name_each_model_once(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how much vram for mistral-7b-v0.9 at fp16?").text
    said = re.search(r"Did you mean: (.+)\?", text)
    if said:  # a name the catalog lacks: no name twice among the suggestions
        names = [n.strip() for n in said.group(1).split(",")]
        assert len(names) == len(set(names)), text


def test_serving_setups_are_ranked_by_what_they_serve_at_once(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "which is better for serving llama 3.3 70b at fp8: a single h100 "
                "sxm or a pair of h100 pcie cards?").text  # fmt: skip
    assert _head(text).startswith("**Pick the 2 x NVIDIA H100 PCIe"), text
    assert "serving throughput" in text


def test_a_scaling_claim_stays_off_a_one_card_answer(rules_advisor: Advisor) -> None:
    answer = _ask(rules_advisor, "a100 80gb or h100 for serving mistral 7b?")
    assert not any(re.search(r"\b[48]\s?[x\u00d7]", w) for w in answer.warnings), answer.warnings


def test_a_model_too_big_for_home_in_four_bits_is_sized_smaller(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what would it take to run deepseek v3 locally at my house").text
    assert _head(text).startswith("**Not in q4_k_m on up to two cards at home; in q"), text
    assert "**Pick " in text and "No GPU meets every constraint" not in text


def test_instances_are_priced_at_their_cloud_per_unit_of_work(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "p4de.24xlarge or p5.48xlarge - which one gives more training "
                "tokens per dollar?").text  # fmt: skip
    head = re.match(r"\*\*Cheaper per million tokens: the (.+?)\*\* \(AWS's median prices\)", text)
    assert head and "H100" in head.group(1), text
    assert "does not fit" not in text.split("\n\n")[1]


def test_several_clusters_compared_per_dollar(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "for llama 3.1 405b serving, is mi300x or h100 the better deal "
                "per dollar?").text  # fmt: skip
    # served: each cluster's rent per million tokens at full load
    assert _head(text).startswith("**Pick the 8 x AMD Instinct MI300X: the least rent per million "
                                  "tokens served at full load**"), text  # fmt: skip


def test_one_card_or_more_asks_about_the_one(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "can qwen2.5 72b at q4 run on a single rtx 6000 ada or do i need "
                "two?").text  # fmt: skip
    head = _head(text)
    assert head.startswith(("**Yes", "**No")) and "2 x" not in head, text


def test_the_samples_length_is_the_sequence_length(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "qlora on mistral 7b, 20k examples averaging 300 tokens, 2 epochs, "
                "on a 3090: time?").text  # fmt: skip
    assert "context 300" in _head(text), text


def test_mil_is_a_thousand_in_spanish_and_portuguese() -> None:
    from advisor.agent.understand import understand

    catalog = load_catalog()
    query = understand("quanto tempo para gerar 5 mil imagens com sdxl numa rtx 4090?", catalog)
    assert query.images == 5000
    query = understand("how long to make 2 mil images with sdxl on a 4090", catalog)
    assert query.images == 2_000_000  # in English it stays a million


def test_hours_asked_in_a_speech_thread_are_hours_of_audio(rules_advisor: Advisor) -> None:
    *_, later = _thread(
        rules_advisor,
        "faster-whisper on my 3090 does an hour of audio in about 4 minutes",
        "how long for 2,000 hours on two of them?",
    )
    assert _head(later).startswith("**About 66.7 hours at your own measured pace"), later


def test_cloud_credits_buy_hours(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "have 5k in gcp credits, how many a100 hours is that?").text
    assert re.match(r"\*\*[\d,]+ hours on one NVIDIA A100", text), text


def test_a_comparison_names_its_pick_with_the_ratio(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "comparing rtx 4090 and rtx 3090 for running qwen2.5 14b "
                "q4").text  # fmt: skip
    assert re.match(r"\*\*(?:Pick the|They are)", text), text


def test_a_cloud_without_the_card_falls_back_to_the_market(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "rtx a6000 for 100 hours on aws, how much?").text
    assert "At the median across the clouds that rent it instead" in text, text
    assert re.search(r"\$[\d,.]+ for 100 hours", text), text


def test_batch_transcription_is_batched(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "t4 or l4 for batched whisper large-v3 jobs, cost per audio "
                "hour?").text  # fmt: skip
    assert "batch 16" in text, text
