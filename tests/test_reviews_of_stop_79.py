"""Stop 79, the kinds the spent blind sets (natural fresh34, advice_fresh35) showed: a ticket's
number is no count; "approx 3 tokens/s" is no context; a claimed multiple ("the 5090 is 2x the
4090", "in half the time"); days of the week listed and weekends counted; a quarter; a month of
days; hours a year as a rate of use; an hourly price named before its amount; dinars in fils;
the Turkmen manat and Turkmen words; a supply beside a buy-or-rent question; a reported claim
checked ("is this correct?"); "about the same" within a tenth; "computing power"; a variant said
in a later mention; decimals and YOLO sizes said in words; a family and its size said apart; a
message written in lines; spaced thousands before a count of things; a machine whose card the user
does not know; the card the user has, against a deadline, beside one a claim names."""

from __future__ import annotations

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head


def test_a_tickets_number_is_no_count(catalog: Catalog) -> None:
    q = understand("Issue #2210: a Jetson AGX Orin 64GB runs qwen2.5 32b q4_k_m at about 4 "
                   "tokens/s. Normal?", catalog)  # fmt: skip
    assert len(q.gpus) == 1 and q.gpus[0].count is None, q.gpus
    assert q.context is None and q.throughput_tok_s == 4
    # a count still reads: "3 A100s", "4 x 2k tokens" as each sequence's length
    assert understand("3 A100s for llama 70b", catalog).gpus[0].count == 3
    assert understand("batch of 4 x 2k tokens on a 4090, llama 8b", catalog).context == 2048


def test_a_claimed_multiple_is_no_count(catalog: Catalog, rules_advisor: Advisor) -> None:
    for said in (
        "a youtuber says the H200 is 2x the H100, true for llama 70b serving?",
        "apparently the 5080 is 1.5 times the 4080 for sdxl, so my renders halve?",
    ):
        q = understand(said, catalog)
        assert len(q.gpus) == 2 and all(g.count is None for g in q.gpus), (said, q.gpus)
    text = ask_grounded(rules_advisor, "my mate reckons the 5090 is 2x the 4090, so my lora "
                        "fine-tunes of llama 8b finish in half the time?").text  # fmt: skip
    assert head(text).startswith(("**No: about", "**Yes: about")), head(text)
    assert "2x" in head(text)


def test_days_listed_quarters_and_months_of_days(catalog: Catalog) -> None:
    for said, hours in (
        ("renting a 4090 at $0.35/hr, saturdays and sundays 7 hours each, for 5 weekends", 70),
        ("an A10 at $0.75/h, 2 hours on tue, thu and sat, for 4 weeks, total?", 24),
        ("an L4 at $0.80/hr, 6 hours a day, monday to thursday, for one quarter", 312),
        ("an A40 at $0.40 per hour, 10 hours a day every day of the week, bill?", 70),
    ):
        assert understand(said, catalog).hours == hours, said


def test_hours_a_year_and_an_hourly_price_said_first(catalog: Catalog) -> None:
    q = understand("buy an L40S for $8,000 or rent it at $1.10/h? we need ~900 GPU-hours a year. "
                   "after how many years does buying win?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy" and q.use_hours_per_day is not None
    assert abs(q.use_hours_per_day * 365 - 900) < 1
    for said in ("the hourly rate of an A100 is $1.79. 40 hours, total?",
                 "A100: per-hour price 1.79 EUR, 40 hours, what's the total?"):  # fmt: skip
        assert understand(said, catalog).user_price_usd_per_hour == 1.79, said


def test_dinars_in_fils_and_the_turkmen_manat(catalog: Catalog) -> None:
    q = understand("my rig pulls 450 watts for 6 hours a day over 30 days; electricity is 85 "
                   "fils a kWh in Kuwait. cost in dinars?", catalog)  # fmt: skip
    assert q.currency.strip() == "KWD" and q.usd_per_kwh == 0.085 and q.hours == 180
    q = understand("Bir A100 kartyň bir sagatlyk bahasy 12 manat. Günde 5 sagat, 10 gün, jemi "
                   "näçe manat?", catalog)  # fmt: skip
    assert q.currency.strip() == "TMT" and q.user_price_usd_per_hour == 12
    assert understand("Salam, RTX 3090-yň ýadynyň göwrümi näçe?", catalog).gpus[0].ids == (
        "rtx-3090",
    )


def test_a_supply_said_beside_buy_or_rent(catalog: Catalog) -> None:
    q = understand("our workstation already has a 1300W PSU. an RTX 5090 is €2,600 or we rent "
                   "one at €0.70/h, 4 h a day for 3 years. rent or buy?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy"
    assert understand("will a 650w psu run a 4070 ti super?", catalog).intent == "spec"


def test_a_reported_claim_checked(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the reseller tells us an A10 is slower than a T4 for "
                        "llm inference. Is that correct?").text  # fmt: skip
    assert head(text).startswith("**No: that is not right"), head(text)
    text = ask_grounded(rules_advisor, "a forum post says the 7900 XTX has roughly the same "
                        "memory bandwidth as the 4090 - is that accurate?").text  # fmt: skip
    assert head(text).startswith("**Yes"), head(text)
    assert "960 GB/s" in text and "1,008 GB/s" in text


def test_computing_power_and_a_variant_said_later(catalog: Catalog) -> None:
    q = understand("does the L20 have more computing power than the H100? compare it with the "
                   "H100 PCIe please", catalog)  # fmt: skip
    assert "fp16_bf16_dense_tflops" in q.fields and "tdp_w" not in q.fields
    assert [g.ids for g in q.gpus][-1] == ("h100-pcie-80gb",) and len(q.gpus) == 2


def test_numbers_and_sizes_said_in_words(catalog: Catalog) -> None:
    for said, model in (
        ("can the llama three point one with seventy billion run on two 3090s", "llama-3.1-70b"),
        ("yolo eight, the nano one, on a jetson orin nano at 30 fps?", "yolov8n"),
        ("we use mistral, the 7b one, in 8 bit on a 3060", "mistral-7b-v0.3"),
    ):
        q = understand(said, catalog)
        assert q.models and q.models[0].ids[:1] == (model,), (said, q.models)
    assert understand("llama 3 8b on a card with sixteen gigabytes, fits?", catalog).memory_gb == 16


def test_a_message_in_lines_and_spaced_thousands(catalog: Catalog) -> None:
    q = understand("Setup:\n- 25 000 scans, 256 px\n- a U-Net\n- 40 epochs\n- one RTX 4080\n"
                   "Training time?", catalog)  # fmt: skip
    assert q.models and q.models[0].ids == ("unet-segmentation",)
    assert q.dataset_samples == 25_000


def test_a_machine_whose_card_is_unknown_is_asked_back(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "can the old HP in our back office run a chatbot for the "
                        "front desk? honestly no idea what's inside it").text  # fmt: skip
    assert text.startswith("Which graphics card"), text[:200]


def test_the_card_had_against_a_deadline(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "our advisor insists ResNet-50 on ImageNet for 90 epochs "
                        "needs 8x H100. we only have one RTX 3090. can it be done within two "
                        "weeks?").text  # fmt: skip
    assert "RTX 3090" in head(text) and head(text).startswith("**Yes"), head(text)


def test_spans_of_years_with_days_a_week(catalog: Catalog) -> None:
    for said, hours in (
        ("an A10 at $0.75/h, 3 hrs a day, 4 days a week, what is that over a year?", 624),
        ("a 3090 for $0.22 an hour, 2 hours a day, 5 days a week, for 2 years", 1040),
        ("4 hours per day, all 365 days, for 3 years, on an L4 at $0.80/h. total?", 4380),
    ):
        assert understand(said, catalog).hours == hours, said


def test_bits_said_in_words(catalog: Catalog) -> None:
    for said, precision in (("mixtral 8x7b in four bits on two 3090s?", "q4_k_m"),
                            ("gemma 2 9b at eight-bit on a 4060 ti 16gb", "q8_0")):  # fmt: skip
        assert understand(said, catalog).precision == precision, said


def test_a_supply_limit_counts_every_card_of_a_set(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the rack's UPS takes 1200 W at most. for qwen 2.5 72b in "
                        "4-bit: 4x RTX 3090 or one RTX 6000 Ada?").text  # fmt: skip
    assert "4 x 350 W = 1,400 W" in text and head(text).startswith("**Pick the NVIDIA RTX 6000"), (
        head(text)
    )


def test_the_same_speed_asked_without_a_verb(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a guy on discord says two 4060 ti 16gb = one 4090 for "
                        "llama 3.1 8b q4. so same speed then?").text  # fmt: skip
    assert head(text).startswith(("**No: pick the NVIDIA GeForce RTX 4090", "**No: about")), head(
        text
    )


def test_a_sparse_rate_explained(rules_advisor: Advisor) -> None:
    asked = ("the B200 page says 4500 TFLOPS FP16 with an asterisk, 'with sparsity'. what does "
             "that mean, what's the real figure?")  # fmt: skip
    text = ask_grounded(rules_advisor, asked).text
    assert "4,500 TFLOPS" in head(text) and "2,250 TFLOPS" in head(text), head(text)
    text = ask_grounded(rules_advisor, "the H100 sheet says 3958 TFLOPS for FP8 with a star: "
                        "'with sparsity'. what's the real number?").text  # fmt: skip
    assert "1,979 TFLOPS" in head(text), head(text)


def test_mixed_precision_on_one_card_explained(rules_advisor: Advisor) -> None:
    asked = ("turned on AMP on my 3060 and resnet training got about 2x quicker. how does that "
             "work, what's going on in the gpu?")  # fmt: skip
    text = ask_grounded(rules_advisor, asked).text
    assert "RTX 3060" in head(text) and "FP16" in head(text), head(text)


def test_sides_pixels_shops_and_prices_that_are_no_budget(catalog: Catalog) -> None:
    assert understand("flux schnell, 768 by 1344, 4 steps on a 4080: seconds per image?",
                      catalog).resolution == 768  # fmt: skip
    assert understand("resnet-18 at 160 pixels, 30 epochs, 9,000 images on a 3060", catalog
                      ).resolution == 160  # fmt: skip
    assert understand("best buy has the 5080 for $1,399, fair price?", catalog).condition == "new"
    for said in (
        "i need posters for the $2 taco night. sdxl on my 3060, seconds per picture?",
        "two a4000s (both on kleinanzeigen for 900 EUR together), llama 8b speed?",
    ):
        assert understand(said, catalog).budget is None, said
    q = understand("a seller wants $1,100 for a used 3090, is that a rip off?", catalog)
    assert q.intent == "buy"


def test_two_cards_with_figures_and_which_is_better_compare(catalog: Catalog) -> None:
    q = understand("found an A2 and a T4 on ebay. which is the better buy? memory and watts",
                   catalog)  # fmt: skip
    assert q.intent == "compare" and "tdp_w" in q.fields


def test_a_long_context_and_a_year_of_use_are_shown(rules_advisor: Advisor) -> None:
    asked = "one card for qwen2.5 72b q4_k_m with 64k context, llama.cpp, budget $12k, which one?"
    text = ask_grounded(rules_advisor, asked).text
    assert "its KV cache at 65,536 tokens" in head(text), head(text)
    text = ask_grounded(rules_advisor, "buy an RTX 4090 for $1,900 or rent one at $0.45/hr? about "
                        "12 hours a week. when does buying pay off?").text  # fmt: skip
    assert "A year at" in text and "rents for $" in text, text
