"""Stop 75, the kinds the spent blind sets (advice_fresh25 and 26, natural fresh22 and 23) showed:
a claim judged on the figure its job runs on; the card or question of the turn before kept when
"same card" or "same question" is said; a method switched "instead"; an amount set aside with
"not"; the card's own power bill; passes and runs counted; a later part of a message lending its
price to a short opener; MIG, NVLink and power asked in plain words; Macs named by product and
chip; English words that are no misspelt keyword; Uzbek, Galician, Esperanto, Amharic and Yoruba
words."""

from __future__ import annotations

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.names import suggest
from tests.asking import ask_grounded, head, thread_of


def test_a_training_claim_is_judged_on_the_tensor_rate(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my nephew says the rtx 5090 lists more fp32 tflops than "
                        "an a100 40gb, so it must train models faster than the a100. is he "
                        "right?").text  # fmt: skip
    # the A100 leads on the dense FP16/BF16 tensor rate (312 TFLOPS against the 5090's 209.5)
    assert head(text).startswith("**No: that is not right"), head(text)
    assert "the NVIDIA A100 SXM4 40GB comes out ahead" in head(text)
    text = ask_grounded(rules_advisor, "a guy on reddit said the rtx 4090 has more fp32 tflops "
                        "than the h100 sxm, so the 4090 would train llms faster than the h100. "
                        "is he right?").text  # fmt: skip
    assert head(text).startswith("**No: that is not right"), head(text)
    assert "989 TFLOPS" in text and "not the figure that job runs on" in text


def test_a_swap_claimed_faster_is_judged_by_the_card_moved_to(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "I own an rtx 3090. the salesman told me to trade it for "
                        "an rtx 4060 ti 16gb, so mistral 7b q4_k_m would reply quicker. is he "
                        "right?").text  # fmt: skip
    assert head(text).startswith("**No: that is not right"), head(text)


def test_same_card_and_same_question_keep_the_turn_before(catalog: Catalog) -> None:
    first = understand("the office box has an rtx 4060 ti 16gb. will qwen2.5 7b run ok?", catalog)
    q = understand("cheers. and qwen2.5 32b at q4, same card", catalog, first.context_dict())
    assert q.intent == "fit" and [g.ids for g in q.gpus] == [("rtx-4060-ti-16gb",)]
    first = understand("will gemma 2 27b fit on an l40s in q8_0 with llama.cpp?", catalog)
    q = understand("no wait, correction: an rtx a6000, not the l40s. same question.", catalog,
                   first.context_dict())  # fmt: skip
    assert q.intent == "fit" and [m.ids[0] for m in q.models] == ["gemma-2-27b"]
    assert [g.ids for g in q.gpus] == [("rtx-a6000",)]


def test_the_method_said_instead_replaces_the_one_set_aside(catalog: Catalog) -> None:
    first = understand("can i qlora mistral 7b on a rented 3090?", catalog)
    q = understand("actually lora adapters feel like a compromise, we would rather do a full "
                   "fine-tune of it instead. does that fit on one h100?", catalog,
                   first.context_dict())  # fmt: skip
    assert q.workload == "finetune-full" and q.precision != "nf4"


def test_an_amount_set_aside_with_not_is_no_budget(catalog: Catalog) -> None:
    q = understand("which card for llama 3.1 8b at home? my budget is $700, not $1,200", catalog)
    assert q.budget is not None and q.budget.usd == 700


def test_the_card_alone_leaves_the_rest_of_the_machine_out(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my gaming pc has a 4080 that will render around the clock "
                        "for 30 days. power is 25 cents a kwh. what does the gpu alone cost me "
                        "in electricity?").text  # fmt: skip
    assert "The CPU" not in text and "320 W" in head(text), head(text)


def test_passes_and_runs_are_counted(catalog: Catalog) -> None:
    q = understand("lora on llama 3.2 1b with 5 million tokens on an rtx 3060. how long would one "
                   "pass take?", catalog)  # fmt: skip
    assert q.epochs == 1
    q = understand("distilbert on a t4, 50,000 support tickets. how long if we go through all of "
                   "them four times?", catalog)  # fmt: skip
    assert q.epochs == 4
    q = understand("a rented l4 is $0.80/h. each job is 3 hours and we do 20 jobs a month. cost "
                   "per month?", catalog)  # fmt: skip
    assert q.hours is None and abs((q.use_hours_per_day or 0) * 730 / 24 - 60) < 0.5


def test_runs_a_month_carried_to_a_rent_or_buy_with_a_price_said_later(
    rules_advisor: Advisor,
) -> None:
    _first, second = thread_of(
        rules_advisor,
        "i rent an rtx 4090 at $0.50/h for sdxl lora training. one run is 4 hours and i do 10 runs "
        "a month. monthly cost?",
        "ok and if i keep that up for 3 years? a 4090 costs $2,100 where i live. buy or rent?",
    )
    assert head(second).startswith("**Renting is cheaper over your 1,440 hours"), second
    assert "$2,100 to buy (given by the user)" in second


def test_a_day_count_is_given_before_electricity_too(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "used 3090 for $800 or rent one at 25 cents an hour, 5 "
                        "hours a day. when does buying pay off in days?").text  # fmt: skip
    assert "3,200 hours (640 days" in head(text), head(text)


def test_mig_asked_in_plain_words(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we got one h100 80gb for a workshop of five teams, each "
                        "running phi-3 mini. can the card be carved into pieces so every team "
                        "has a slice of its own?").text  # fmt: skip
    assert "MIG" in head(text) and "7 instances" in head(text), head(text)


def test_nvlink_said_as_a_verb_is_answered_no_first(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "have two rtx 3080s. could i nvlink them into one 20gb card "
                        "for mistral 7b?").text  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 3080"), head(text)


def test_power_off_the_grid_shows_each_cards_draw(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "our cabin runs on a battery bank. for whisper small, an "
                        "rtx 3060 or an rtx 4060?").text  # fmt: skip
    assert "Board power (the most each draws)" in text and "115 W" in text, text[:600]


def test_a_mac_named_by_product_and_chip_is_that_chip(catalog: Catalog) -> None:
    q = understand("a mac studio with an m2 ultra or a 4090 for llama 70b?", catalog)
    assert {i for g in q.gpus for i in g.ids} >= {"m2-ultra-192gb"}
    assert not any("m3-ultra-512gb" in g.ids for g in q.gpus)


def test_a_mac_faster_than_a_card_is_explained_by_bandwidth(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "why does my friend's m2 max macbook spit out tokens faster "
                        "than my rtx 4060 8gb with mistral 7b, when the nvidia has way more "
                        "tflops?").text  # fmt: skip
    assert head(text).startswith("**Memory bandwidth:"), head(text)


def test_english_words_are_no_misspelt_keywords(catalog: Catalog) -> None:
    q = understand("how long to fine-tune bert-base on 10,000 reviews if we run through them "
                   "twice on a t4?", catalog)  # fmt: skip
    assert q.epochs == 2 and "throughput" not in q.low


def test_an_unknown_card_is_offered_no_unrelated_names(catalog: Catalog) -> None:
    index = {"ryzenaimax3958060s128gb": ["ryzen-ai-max-395-128gb"], "rtx4080super": ["x"]}
    assert suggest("k80s", index) == []


def test_words_of_uzbek_galician_esperanto_amharic_and_yoruba() -> None:
    assert "8 hours a day" in to_english("RTX 3090 kuniga 8 soat ishlaydi")
    assert "only the graphics card" in to_english("Canto me custa só a tarxeta gráfica?")
    assert "tokens" in to_english("16 000 ĵetonojn da kunteksto")
    assert "FP8" in to_english("Qwen ሞዴልን በFP8 ማስኬድ").split()
    said = to_english("RTX 3090 tí wọ́n ti lò tẹ́lẹ̀, tàbí RTX 4060 Ti tuntun?")
    assert "used" in said and "RTX 4060 Ti" in said and "3090 ti" not in said.lower()


def test_esperanto_users_and_context_reach_the_fit(catalog: Catalog) -> None:
    q = understand("Ni volas servi Llama 3.1 70B en FP8 al dudek samtempaj uzantoj, ĉiu kun ĝis "
                   "4 000 ĵetonoj da kunteksto. Ĉu unu H200 141GB sufiĉas?", catalog)  # fmt: skip
    assert q.concurrency == 20 and q.context == 4000 and q.precision == "fp8"


def test_a_cpu_model_number_is_no_card(catalog: Catalog) -> None:
    q = understand("psu is 650w and the cpu a ryzen 5 7600. can it run an rtx 4070 super?", catalog)
    assert [g.ids for g in q.gpus] == [("rtx-4070-super",)]


def test_an_apple_chip_said_as_a_laptop_is_that_chip(catalog: Catalog) -> None:
    q = understand("the m3 max laptop with 64gb or a desktop 4090 for qwen2.5 32b q4?", catalog)
    assert ("m3-max-64gb",) in [g.ids for g in q.gpus] and not any(g.note for g in q.gpus)


def test_a_method_set_aside_with_not_the(catalog: Catalog) -> None:
    q = understand("we tried a full fine-tune of mistral 7b, not the lora thing, on a 3090 and it "
                   "ran out of memory. would batch size 1 fix it?", catalog)  # fmt: skip
    assert q.workload == "finetune-full"


def test_the_supply_is_weighed_for_the_card_swapped_in(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "thinking of replacing my 3060 with an rtx 4090. the psu is "
                        "a 650 watt one. is 650 enough for the 4090?").text  # fmt: skip
    assert head(text).startswith("**No: 650 W is less than") and "4090" in head(text), head(text)


def test_a_second_card_beside_mine_doubles_the_load(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "i have a 3080 on a 1000w psu. can i put a second one next "
                        "to mine on the same psu?").text  # fmt: skip
    assert "2 x NVIDIA GeForce RTX 3080" in head(text), head(text)


def test_rand_grouped_by_commas_is_money(catalog: Catalog) -> None:
    q = understand("shop has an rtx 5060 ti 16gb for R8,999 and an rtx 5070 for R11,499. which "
                   "for sdxl?", catalog)  # fmt: skip
    assert [g.ids[0] for g in q.gpus] == ["rtx-5060-ti-16gb", "rtx-5070"]
    assert q.currency.strip() == "ZAR"


def test_a_calendar_span_counts_its_days(catalog: Catalog) -> None:
    q = understand("an a10g at $1.01/hr around the clock from march 1 to april 9, total?", catalog)
    assert q.hours == 40 * 24


def test_hours_a_night_on_some_nights_a_week(catalog: Catalog) -> None:
    q = understand("a cloud gpu at $0.40 an hour, 2 hours a night, 5 nights a week, for 8 weeks: "
                   "total cost?", catalog)  # fmt: skip
    assert q.hours == 80


def test_a_bot_that_writes_songs_is_a_job(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a song lyrics bot on mistral 7b q4, about 6 requests a "
                        "minute, answers around 200 tokens. can my rtx 3060 keep "
                        "up?").text  # fmt: skip
    assert head(text).startswith("**Yes: one NVIDIA GeForce RTX 3060"), head(text)


def test_a_swap_to_a_slower_card_is_no_upgrade(rules_advisor: Advisor) -> None:
    _first, second = thread_of(
        rules_advisor,
        "our helpdesk bot runs qwen2.5 7b q4_k_m on an rtx 3070.",
        "a vendor says swap the 3070 for an rtx 4060 since it's newer and faster. worth it?",
    )
    assert head(second).startswith("**No:"), head(second)


def test_two_cards_of_the_same_total_memory_are_weighed_as_setups(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "instead of one rtx 4090, two rtx 4060 ti 16gb cards, 'also "
        "32 gb so the same'. for qwen2.5 14b q4, is that really the same?",
    ).text
    assert head(text).startswith("**No: pick the NVIDIA GeForce RTX 4090"), head(text)


def test_no_power_cable_leaves_the_slots_75_watts(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "small office pc, the psu has no pcie power cable. for "
                        "whisper small, an rtx a2000 12gb or an rtx 3060 12gb, which of the two "
                        "should i order?").text  # fmt: skip
    lead = "**Pick the NVIDIA RTX A2000 12GB: within the slot's 75 W (no power cable)**"
    assert head(text).startswith(lead), head(text)


def test_formats_of_the_job_are_no_concept_asked(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor,
        "vllm, fp8 weights, llama 3.1 70b, 12 concurrent requests "
        "of 4k tokens, bf16 kv cache. an h100 80gb or an h200? which, why.",
    ).text
    assert head(text).startswith("**Pick the NVIDIA H200"), head(text)


def test_the_months_difference_at_the_users_prices(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we rent an a100 80gb at $1.80 an hour round the clock for "
                        "a small mistral 7b chat; an l4 is $0.60 an hour. how much are we wasting "
                        "every month on the a100?").text  # fmt: skip
    assert head(text).startswith("**Around the clock, the NVIDIA A100"), head(text)
    assert "$876 a month more" in head(text), head(text)


def test_scots_hours_and_nights(catalog: Catalog) -> None:
    q = understand("ah'd rent a cloud gpu at £0.50 an oor, 2 oors a nicht, 5 nichts a week, fur 3 "
                   "weeks. how much is that?", catalog)  # fmt: skip
    assert q.user_price_usd_per_hour == 0.5 and q.hours == 30


def test_rounds_explained_as_epochs_and_the_size_of_a_model_no_variant(catalog: Catalog) -> None:
    q = understand("train a resnet-50 for 15 rounds (i think they call them epochs) on 3,000 "
                   "photos on an rtx 4070", catalog)  # fmt: skip
    assert q.epochs == 15
    first = understand("i run phi-3 mini on my m1 with 8 gigs", catalog)
    q = understand("and the 14b one at q4, would it fit there too?", catalog, first.context_dict())
    assert [g.ids for g in q.gpus] == [("m1-8gb",)]
