"""Stop 76, the kinds the spent blind sets (advice_fresh29 and 30, natural fresh26 and 27) showed:
one user said in plain words; cents an hour; schedules said as weekday runs, months of the year,
weeks of days and times a year; two draws set side by side; the job's context and size reaching
a price comparison; a concept asked of the model the turn before named; the KV cache per
thousand tokens; the fewest cards asked as "the least"; a time of day to finish within; models
kept loaded while another runs; the bigger card asked as a need; quoted sparse rates; a second
card asked as a need or as a speed-up; "skip the cloud"; a file that fits offered; a card's
sheet beside its price; tabular data; Kurmanji and Papiamento words and the period said before
its hours; a context grown slow as the KV cache; weekdays over a month; one set against another
as a pick; a laptop card beside its desktop one; prices said without a currency; the slot's 75 W
for the card alone; "he's wrong, right?" answered yes when he is."""

from __future__ import annotations

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


def test_one_user_said_in_plain_words(catalog: Catalog) -> None:
    for said in ("what speed for qwen2.5 7b q4 on a 3060 12gb, only me typing at it",
                 "mistral 7b on ollama on my 4070, one person, me. tokens a second?",
                 "llama 3.1 8b fp8 on an l40s with vllm, requests come one at a time"):  # fmt: skip
        assert understand(said, catalog).concurrency == 1, said


def test_cents_an_hour_are_a_price(catalog: Catalog) -> None:
    q = understand("buy a used 4090 for 1.6k or rent one at 35c USD an hour? i use it 6 hrs "
                   "a week, when does buying win, no power", catalog)  # fmt: skip
    assert q.user_price_usd_per_hour == 0.35
    q = understand("rent an a6000 by the hour at 49 cents or buy one for $4,000, break even?",
                   catalog)  # fmt: skip
    assert q.user_price_usd_per_hour == 0.49


def test_schedules_in_the_words_people_use(rules_advisor: Advisor) -> None:
    # Tuesday to Saturday is 5 days a week; 8 hours each at $0.50 over a month of 52/12 weeks
    text = ask_grounded(rules_advisor, "renting an a10 at $0.50 an hour, on 8 hours a day, "
                        "tuesday to saturday. what's the monthly bill?").text  # fmt: skip
    assert head(text).startswith("**$86.67"), head(text)
    # March through May: 92 days of 10 hours at 300 W and $0.20/kWh
    text = ask_grounded(rules_advisor, "my 3080 pulls 300 watts 10 hours a day every day from "
                        "march through may, power is 20 cents a kwh. cost?").text  # fmt: skip
    assert "920 hours" in head(text) and "$55.20" in head(text), head(text)
    # 3 hours a week over the year: 156 hours at 400 W and £0.30/kWh
    text = ask_grounded(rules_advisor, "the workstation draws 400 w and runs 3 hours a week, all "
                        "year round. 30p a unit. yearly cost?").text  # fmt: skip
    assert "156 hours" in head(text) and "£18.72" in head(text), head(text)
    # 5 hours a day, 4 days a week, 3 weeks, two cards at $1.10: 60 hours each
    text = ask_grounded(rules_advisor, "two rented l40s at $1.10 an hour each, 5 hrs a day, 4 "
                        "days a week, 3 weeks. total?").text  # fmt: skip
    assert head(text).startswith("**$132"), head(text)


def test_runs_a_year_pace_a_break_even(rules_advisor: Advisor) -> None:
    asked = (
        "twice a year i fine-tune a 7b with lora, each run takes about ten hours on a "
        "rented a100 at $1.50 an hour. or i buy a 4090 for $2,000. how many years until "
        "buying pays off, ignoring power?"
    )
    text = ask_grounded(rules_advisor, asked).text
    # 20 hours a year against 1,333 hours to pay off: about 67 years
    assert "at 20.0 hours a year" in text or "66.7 years" in text, text[:600]


def test_two_draws_set_side_by_side(rules_advisor: Advisor) -> None:
    asked = (
        "my 3060 draws 170 W and the 4090 450 W. 5 hours a day every day at 25 cents a kwh. "
        "what's the yearly difference?"
    )
    text = ask_grounded(rules_advisor, asked).text
    # 280 W more x 1,825 h = 511 kWh, $127.75 at $0.25
    assert head(text).startswith("**About $128 more with the 4090 at 450 W**"), head(text)
    assert "511 kWh more" in head(text)


def test_two_draws_beside_two_cards_are_a_bill(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my 3090 draws 350 W vs the 4070's 200 W, 8h a day, "
                        "30c/kWh, savings per year?").text  # fmt: skip
    # 150 W x 2,920 h = 438 kWh, $131.40 at $0.30
    assert head(text).startswith("**About $131 more with the 3090 at 350 W**"), head(text)


def test_a_price_comparison_sizes_the_job_said(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qlora of mistral small on 2,000 support tickets (about "
                        "300 tokens each, 2 epochs). a rented l4 at $0.70/hr or an h100 at "
                        "$2.50/hr, which is cheaper for the whole job?").text  # fmt: skip
    assert "The whole job: about" in text and "at your prices" in text, text[:900]
    assert "context 300" in text or "(nf4)" in text


def test_a_price_comparison_keeps_the_context_said(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen3 14b q4_k_m with 32k of context: rtx 5070 12gb at "
                        "$620 or rtx 5060 ti 16gb at $470, which should i buy?").text  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 5060 Ti 16GB"), head(text)


def test_a_concept_asked_of_the_model_before(rules_advisor: Advisor) -> None:
    _first, second = thread_of(
        rules_advisor,
        "will the gemma 3 12b q4 gguf fit my 3060 12gb?",
        "ok. what does the q4 part even mean? how big is the real one?",
    )
    assert "Gemma-3-12B's weights" in head(second) and "in bf16" in head(second), head(second)


def test_the_kv_cache_per_thousand_tokens(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what is the kv cache, simply? for qwen2.5 7b how much "
                        "memory do a thousand tokens take?").text  # fmt: skip
    assert "per 1,000 tokens" in text, text


def test_the_least_cards_is_a_count_asked(catalog: Catalog) -> None:
    for said in ("serving qwen2.5 72b in fp8 on vllm, whats the least h100s we need",
                 "the fewest of them 3090s i'd need for llama 3.3 70b at q8"):  # fmt: skip
        q = understand(said, catalog)
        assert q.intent == "solve" and q.target == "min_gpus", said


def test_a_time_of_day_to_finish_within(rules_advisor: Advisor) -> None:
    _first, second = thread_of(rules_advisor, "i have a 4070 ti super for pictures.",
                              "sdxl at 1024, 30 steps, 300 images for the catalogue. how many "
                              "seconds for each image? can it be done in one morning?")  # fmt: skip
    assert "per image**" in head(second), head(second)
    assert "**Yes: about" in second and "within your deadline" in second, second[:600]


def test_a_model_kept_loaded_while_another_runs(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "on my 4090, can whisper large-v3 run while llama 3.1 8b "
                        "q4 is still loaded, or do i have to unload it?").text  # fmt: skip
    assert head(text).startswith("**Yes: ") and "at the same time" in head(text), head(text)


def test_the_bigger_card_asked_as_a_need(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "do we actually need the h100, or can our rtx 4080 "
                        "train a resnet-50 on 10,000 images for 30 epochs?").text  # fmt: skip
    assert head(text).startswith("**No: you do not need the NVIDIA H100"), head(text)


def test_a_quoted_sparse_rate_is_called_out(rules_advisor: Advisor) -> None:
    asked = (
        "the spec sheet says 624 tflops for the a100 and 165 for the 4090, so the a100 is "
        "almost 4x faster. fair comparison?"
    )
    text = ask_grounded(rules_advisor, asked).text
    assert head(text).startswith("**No: the 624 TFLOPS quoted for the NVIDIA A100"), head(text)
    assert "sparse" in head(text)
    text = ask_grounded(rules_advisor, "h200 is 3958 tflops and the h100 989, so the h200 is 4x "
                        "faster, right?").text  # fmt: skip
    assert head(text).startswith("**No: the 3,958 TFLOPS quoted for the NVIDIA H200"), head(text)


def test_a_second_card_asked_as_a_need(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "mistral 7b q4 on one rtx 3060 12gb for our office bot, "
                        "three colleagues use it at once with 4k chats. my boss thinks we need "
                        "a second 3060, do we?").text  # fmt: skip
    assert head(text).startswith("**No, one is enough: "), head(text)


def test_a_second_card_asked_as_a_speed_up_runs_as_at_home(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen2.5 32b runs on my 3090. will it go twice as fast if "
                        "i stick a second 3090 in?").text  # fmt: skip
    assert head(text).startswith("**No"), head(text)
    assert "q4_k_m" in head(text)


def test_skipping_the_cloud_is_no_rent(catalog: Catalog) -> None:
    q = understand("skip the cloud: two used 3090s at $700 each or one a6000 at $3,500 for "
                   "llama 3.3 70b q4, which is better?", catalog)  # fmt: skip
    assert q.location != "cloud"


def test_a_file_that_fits_is_offered(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen2.5 14b in q8_0 crawls on my 12 gb 3060, why so "
                        "slow? should i grab a smaller file?").text  # fmt: skip
    assert head(text).startswith("**Use the "), head(text)


def test_a_cards_sheet_beside_its_price(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "shop wants $1,100 for a 4080 super, fair price? and how "
                        "much vram does it have").text  # fmt: skip
    assert "16 GB GDDR6X" in text, text[:600]


def test_counts_before_an_adjective_and_folk_at_once(catalog: Catalog) -> None:
    q = understand("3 old p40s in a drawer: can they hold llama 3.3 70b q4 split across them?",
                   catalog)  # fmt: skip
    assert [g.count for g in q.gpus] == [3]
    q = understand("llama 3.1 8b on an l4, up to six folk chat with it at once", catalog)
    assert q.concurrency == 6
    q = understand("you there?", catalog)
    assert q.intent == "greeting"


def test_thousands_with_dots_before_pictures(catalog: Catalog) -> None:
    q = understand("resnet-50 on an rtx 4000 ada, 45.000 pictures, 10 epochs. how long?", catalog)
    assert q.dataset_samples == 45000


def test_bf16_against_plain_fp32(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "does the a5000 do bf16, and how much faster is that "
                        "than fp32 on paper?").text  # fmt: skip
    assert head(text).startswith("**Yes: ") and "in plain FP32" in head(text), head(text)


def test_tabular_data_needs_no_gpu(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "our accountant has 4 years of invoices in excel and "
                        "wants to predict next quarter's cash flow. do we really need to buy an "
                        "rtx 6000 ada for that?").text  # fmt: skip
    assert head(text).startswith("**No: rows and columns"), head(text)
    assert "NVIDIA RTX 6000 Ada" in text


def test_kurmanji_and_the_period_said_first(catalog: Catalog) -> None:
    q = understand("RTX 4070 bi 25.000 TL ye, li cloudê saetê 9 TL ye. Ez ê hefteyê 10 saetan bi "
                   "kar bînim. Piştî çend saetan kirîn erzantir dibe?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy" and q.use_hours_per_day is not None
    assert abs(q.use_hours_per_day * 7 - 10) < 0.01
    q = understand("5 days a week 8 hours on an l4 at $0.70 an hour: monthly bill?", catalog)
    assert q.hours is not None and q.hours > 100  # the days of the week kept
    q = understand("Kîjan zûtir perwerde dike: RTX 4070 an RTX 3080 ji bo ResNet-50?", catalog)
    assert q.workload in ("train", "finetune") and len(q.gpus) == 2


def test_the_context_grown_slow_is_the_kv_cache_of_the_model_before(rules_advisor: Advisor) -> None:
    _first, second = thread_of(
        rules_advisor,
        "running qwen2.5 7b q4_k_m on my 3060 12gb with a 32k window for a support bot",
        "as the chat gets longer the replies get slow. why? how much memory does the 32k context "
        "take?",
    )
    assert head(second).startswith("**Qwen2.5-7B at 32,768 tokens of context: a KV cache of")
    assert "of weights in q4_k_m" in head(second) and "grows with context length" in second


def test_papiamento_words(catalog: Catalog) -> None:
    q = understand("Dikon e kontesta ta bai mas i mas poko poko? Kuantu memoria e kontekst di "
                   "16k ta kome pa Llama 3.1 8B?", catalog)  # fmt: skip
    assert q.topic == "kv_cache" and q.context == 16384


def test_weekdays_only_billed_over_a_month(catalog: Catalog) -> None:
    q = understand("the 4090 box runs 6h on weekdays only at 0.30 eur per kwh. monthly cost?",
                   catalog)  # fmt: skip
    assert q.hours is not None and 120 < q.hours < 140  # 6 h x 5/7 of a month's days


def test_one_set_against_another_is_a_pick(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "would it be a mistake to get three 3060 12gb cards "
                        "instead of one rtx 3090 for 32b models at q4?").text  # fmt: skip
    assert head(text).startswith("**Pick the "), head(text)


def test_the_desktop_one_beside_a_laptop_card(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the guy at the store says the rtx 4080 laptop is basically "
                        "the same thing as the desktop card. true?").text  # fmt: skip
    assert head(text).startswith("**No: ") and "NVIDIA GeForce RTX 4080 16GB" in head(text)


def test_prices_said_without_their_currency(catalog: Catalog) -> None:
    q = understand("rent 2 a100s for 3 days at 1.35 each per hour, total?", catalog)
    assert q.user_price_usd_per_hour == 1.35
    q = understand("for lora training, a used 3090 at 700 or a new 4070 super at 600?", catalog)
    assert q.resolution is None
    q = understand("sdxl on a 3090 at 768, how many seconds an image?", catalog)
    assert q.resolution == 768


def test_better_for_the_money_between_two_cards_is_a_comparison(catalog: Catalog) -> None:
    q = understand("what's better for the money, a new 4070 ti super or a used 3090?", catalog)
    assert q.intent == "compare"


def test_the_slot_alone_powers_a_card_of_75_w_or_less(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "no 6-pin cable on my office pc's psu. is the pcie slot "
                        "enough for an rtx a2000?").text  # fmt: skip
    assert head(text).startswith("**Yes: the NVIDIA RTX A2000"), head(text)
    text = ask_grounded(rules_advisor, "my psu has no power connectors for a gpu, could it still "
                        "take a 4060?").text  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 4060 draws 115 W"), head(text)


def test_he_is_wrong_right_is_answered_yes_when_he_is(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my cousin says the rtx 3060 12gb is the same as a 3080 "
                        "for ai since both have 12gb. he's wrong, right?").text  # fmt: skip
    assert head(text).startswith("**Yes: that is wrong: "), head(text)
