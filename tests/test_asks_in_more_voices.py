"""Questions the parser once misread, in the voices of a newer blind set: Icelandic, Serbian and
Urdu words of a GPU question; asks of a limit said another way ("how far can I push num_ctx",
"how many players can chat at once"); a bound on speed; a stack asked ("is it CUDA or that ROCm
thing"); things timed ("coded 1,000 responses in 3 min 20 s"); a pick asked beside a why; a
feature confirmed beside an explanation; an upgrade judged on the size of its lead; and vLLM's
start-up reserve, where a raised gpu_memory_utilization is what makes a model fit."""

from __future__ import annotations

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("Hvað er mikið minni á RTX 4080 og hvað tekur það mörg vött?", {"memory_gb", "tdp_w"}),
        ("Koliko memorije ima RTX 3090 i koliko vati vuče?", {"memory_gb", "tdp_w"}),
        ("RTX 4070 میں میموری کتنی ہے؟", {"memory_gb"}),
        ("Radeon RX 7900 XTX: how much vram, and is it CUDA or that ROCm thing?",
         {"memory_gb", "compute_stack"}),
        ("L4 vs T4 for training a detector: memory and FP16 numbers side by side?",
         {"memory_gb", "fp16_bf16_dense_tflops"}),
    ],
)  # fmt: skip
def test_datasheet_fields_asked_in_more_ways(
    catalog: Catalog, question: str, fields: set[str]
) -> None:
    q = understand(question, catalog)
    assert fields <= set(q.fields), (q.fields, q.english)


def test_icelandic_mig_is_me_not_a_slice() -> None:
    english = to_english("Rafmagnið kostar mig 30 kr./kWh og skjákortið er 350 W.")
    assert "mig" not in english.lower().split()


def test_urdu_rupees_and_lakhs(catalog: Catalog) -> None:
    q = understand("میرا بجٹ Rs 2,00,000 ہے۔ LLM کے لیے کون سا کارڈ خریدوں؟", catalog)  # noqa: RUF001
    assert q.intent == "recommend" and q.currency.strip() == "PKR"
    assert q.budget is not None and q.budget.usd == 200_000
    english = to_english("ڈیٹا تقریباً 20 لاکھ tokens کا ہے")
    assert "2000000 tokens" in english


def test_a_rate_said_before_its_amount_in_urdu(catalog: Catalog) -> None:
    q = understand(
        "L40S فی گھنٹہ 300 روپے میں ملتا ہے۔ روزانہ 6 گھنٹے، پانچ دن: کتنے روپے؟",  # noqa: RUF001
        catalog,
    )
    assert q.user_price_usd_per_hour == 300 and q.use_hours_per_day == 6


@pytest.mark.parametrize(
    ("question", "target"),
    [
        ("qwen2.5 7b q4 in ollama on my 3060 12gb: how far can i push num_ctx before it "
         "spills?", "max_context"),
        ("how many students can chat at once with llama 3 8b awq on one L4 before the kv cache "
         "fills, 2k tokens each?", "max_batch"),
    ],
)  # fmt: skip
def test_limits_asked_another_way(catalog: Catalog, question: str, target: str) -> None:
    q = understand(question, catalog)
    assert (q.intent, q.target) == ("solve", target)


def test_each_conversations_length_is_the_context(catalog: Catalog) -> None:
    q = understand("vllm, 8b model, conversations are under 8k tokens, how many fit on a 4090?",
                   catalog)  # fmt: skip
    assert q.context == 8192


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("what's the difference between prefill and decode?", "explain"),
        ("batch-1 decode upper bound for Mistral 7B fp16 on an RTX 4090, bandwidth roofline?",
         "speed"),
        ("under 300 W, single PCIe card, max batch 1 decode speed on Qwen2.5-32B AWQ: which "
         "SKU?", "recommend"),
        ("we'll buy one new card under $1,500 for point-cloud segmentation training, "
         "which one?", "recommend"),
        ("$400 of credits, H100s at $2.50/hour: how many hours of fine-tuning does that "
         "buy?", "cost"),
        ("FLUX.1-dev in bf16 on a 4080 SUPER 16GB: can the model be held entirely in the "
         "card's memory?", "fit"),
    ],
)  # fmt: skip
def test_what_is_asked(catalog: Catalog, question: str, intent: str) -> None:
    assert understand(question, catalog).intent == intent


def test_things_timed_are_a_pace_not_the_job(catalog: Catalog) -> None:
    q = understand("the 4090 classified 2,000 support tickets in 4 min 10 s with our 8B model. "
                   "we have 600,000 tickets. how long at that pace?", catalog)  # fmt: skip
    assert q.seconds_per_item == pytest.approx(250 / 2000)
    assert q.dataset_samples == 600_000
    assert q.hours is None  # the 4 min 10 s timed the pace


def test_items_timed_then_priced(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "an L4 summarized 500 documents in 10 min. 90,000 documents to go at $0.80 per GPU-hour: "
        "time and cost?",
        "timed-priced",
    ).text
    assert "30 hours" in text and "$24.00" in text  # 90,000 x 1.2 s; x $0.80


def test_an_hour_of_audio_timed_with_words_between(catalog: Catalog) -> None:
    q = understand("whisper on my T4 did one hour of our weekly club meeting recordings, took 9 "
                   "minutes. 100 hours to go?", catalog)  # fmt: skip
    assert q.seconds_per_item == pytest.approx(540)


def test_days_then_hours_a_day(catalog: Catalog) -> None:
    q = understand("running it for four days, 9 hours a day at $1.10/hr. total?", catalog)
    assert q.hours == pytest.approx(36)


def test_a_month_of_the_days_said(catalog: Catalog) -> None:
    q = understand("an A10G at $1.00/hr, 12 hrs a day, what's that a month, 28 days?", catalog)
    assert q.hours == pytest.approx(12 * 28)


def test_a_fit_asked_after_a_bill_in_one_message(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "an L40S at $0.90/hr for 100 hours, what's the total? also would qwen2.5 14b in bf16 "
        "even fit on that card?",
        "bill-then-fit",
    ).text
    assert "$90" in text and "Qwen2.5-14B fits on one NVIDIA L40S" in text


def test_the_rest_of_the_machine_said_with_another(catalog: Catalog) -> None:
    q = understand("two 4090s at 400 W each, plus the rest of the machine another 150 W, 24/7, "
                   "$0.20/kWh: monthly bill?", catalog)  # fmt: skip
    assert q.other_w == 150 and q.intent == "cost"


def test_a_pick_asked_beside_a_why(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "Qwen2.5-14B at Q6_K with 16k context: RTX 4070 SUPER (12GB, faster) or RTX 4060 Ti "
        "16GB (slower)? which one, and why does VRAM matter more than speed here?",
        "pick-why",
    ).text
    assert text.startswith("**Pick the NVIDIA GeForce RTX 4060 Ti 16GB")


def test_a_feature_confirmed_beside_its_explanation(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor, "what is MIG, and could you confirm whether the A30 supports it?", "mig-a30"
    ).text
    assert text.startswith("**Yes: the NVIDIA A30")


def test_an_upgrade_judged_on_the_size_of_its_lead(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "our U-Net segmentation trains on an RTX A5000 in bf16.",
        "would moving to an RTX 4500 Ada be a meaningful speed-up for that training, or a "
        "sidegrade?",
    )[-1]
    first = head(text)
    assert "RTX A5000" in text and "RTX 4500 Ada" in text
    # the segmentation U-Net computed on each (its activations make it bound by memory
    # bandwidth: 768 GB/s against 432 GB/s), or a verdict
    assert first.startswith(("**No: a small step", "**Yes", "**Training throughput")), first
    assert "LLM inference" not in first  # the training said, not every common job


def test_vllm_fits_only_with_a_raised_memory_share(rules_advisor: Advisor) -> None:
    question = "can two H100 SXM run llama 3 70b in bf16 with vllm?"
    text = ask_grounded(rules_advisor, question, "vllm-raised").text
    first = head(text)
    assert first.startswith("**Yes") and "--gpu-memory-utilization 0.95" in first


def test_a_point_cloud_is_no_cloud(catalog: Catalog) -> None:
    q = understand("buying one card, new, up to $3,000, for point-cloud work and YOLO training; "
                   "what should we get?", catalog)  # fmt: skip
    assert q.intent == "recommend"


def test_a_batch_said_roughly(catalog: Catalog) -> None:
    q = understand("measured 1,800 tok/s in all on an L40S (vLLM, batch ~32) at $1.10/hr: $ per "
                   "million tokens?", catalog)  # fmt: skip
    assert q.batch == 32


def test_the_one_card_is_no_variant(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "our nodes have 4x H100 SXM5 80GB. llama 3.3 70b in bf16 with vllm across the four?",
        "and an AWQ build of it instead, would that fit on the one card?",
    )[-1]
    assert "which" not in head(text).lower() and "H100 SXM5 80GB" in text


def test_a_short_context_within_a_count_of_tokens(catalog: Catalog) -> None:
    q = understand("Boleh tak saya jalankan Mistral 7B Q4_K_M pada RTX 3060, konteks pendek je, "
                   "dalam 3 ribu token?", catalog)  # fmt: skip
    assert q.context == 3000


def test_a_draw_said_of_one_card_is_not_the_next_ones(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "my RTX 4060 Ti (160 W) runs 10 hours a day; power is $0.25/kWh. monthly cost, 30 days?",
        "and if I swap it for an RTX 3090, same hours?",
    )[-1]
    assert "350 W" in text and "160 W" not in text  # the 3090's own board power


def test_streams_at_the_users_own_time_per_frame(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "our yolov8n engine on a Jetson Orin Nano 8GB takes 40 ms per frame, one at a time. we "
        "want three cameras at 15 fps each. can it keep up?",
        "streams-pace",
    ).text
    assert head(text).startswith("**No: at your own measured pace")
    assert "25 frames a second" in text and "45" in text  # 1 / 0.04; 3 x 15


def test_an_amd_card_the_catalog_lacks_is_said_unknown(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what's the board power of the Radeon RX 570?",
                        "rx-570").text  # fmt: skip
    assert text.startswith("Unknown GPU 'RX 570'")


def test_an_icelandic_follow_up_keeps_the_machine_and_model(catalog: Catalog) -> None:
    first = understand("Kemst Qwen2.5 14B í Q4_K_M fyrir á Mac mini með M4 Pro og 24 GB minni?",
                       catalog)  # fmt: skip
    assert [g.ids for g in first.gpus] == [("m4-pro-24gb",)]
    then = understand("Frábært, takk. En hversu marga tóka á sekúndu má ég búast við þegar hún "
                      "skrifar svar?", catalog, first.context_dict())  # fmt: skip
    assert then.intent == "speed" and then.models and then.gpus


def test_the_saving_between_two_cards_bills(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "RTX 4000 Ada or RTX 3090 for the lab box: at 1,000 hours a year and $0.20 per kWh, how "
        "much would the lower-power one save on electricity?",
        "saving-two",
    ).text
    assert head(text).startswith(
        "**The RTX 4000 Ada saves about $44.00**"
    )  # (350 - 130) W x 1,000 h
