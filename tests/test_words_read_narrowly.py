"""Words that once read too much: models weighed against each other are not kept on one card, an
"R" before a card's number is no rand, a tariff in rand does not sit beside dollar prices, the
tokens a model is trained on are no context, the span a bill is asked over, a card set aside is
not its Ti, someone who "wants to know" sells nothing, and short English words in other
languages' lists. Also: machines that each hold one card, a run of 24 hours billed over a
month, memory kept for the OS in the largest model that fits, and a card the catalog lacks
offered only names of its own line."""

from __future__ import annotations

import re

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import _span_asked, understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


@pytest.mark.parametrize(
    "question",
    [
        "mistral 7b, qwen2.5 7b and phi-3 mini: which of all three fits on my 3060 12gb?",
        "qwen2.5 7b or gemma 2 9b on a 4060 ti together with 16k context, does it fit?",
        "llama 3.1 8b and mistral 7b on the same card, a 4090: which is faster?",
    ],
)
def test_models_weighed_are_not_kept_together(catalog: Catalog, question: str) -> None:
    q = understand(question, catalog)
    assert len(q.models) >= 2 and not q.together, q.english


def test_models_that_both_stay_loaded_are_kept_together(catalog: Catalog) -> None:
    for question in (
        "can qwen2.5 7b and sdxl both stay loaded on a 4090, or do I need two cards?",
        "faster-whisper plus a 3B LLM on one card around the clock: what to buy?",
    ):
        assert understand(question, catalog).together, question


@pytest.mark.parametrize(
    "question",
    ["Is R9700 any good for local LLMs?", "Is R200 faster than B200?"],
)
def test_a_capital_r_before_a_number_without_money_words_is_no_rand(
    catalog: Catalog, question: str
) -> None:
    assert understand(question, catalog).currency == "$"


def test_rand_a_seller_wants_is_the_price(catalog: Catalog) -> None:
    q = understand("a guy on gumtree wants R6 500 for his 3060, good deal?", catalog)
    assert q.currency.strip() == "ZAR" and q.purchase_usd == 6500
    assert q.intent == "buy"


def test_rand_by_the_hour_is_a_rent(catalog: Catalog) -> None:
    q = understand("buy a 4090 for R35 000 or rent one at R8 an hour?", catalog)
    assert q.user_price_usd_per_hour == 8 and q.purchase_usd == 35000


def test_a_rand_tariff_is_left_out_beside_dollar_prices(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "should I buy a 4090 or rent one? about 6 hours a day for "
                        "two years, and power costs R3,15 per kWh here").text  # fmt: skip
    assert "electricity left out" in text and "ZAR" in text
    assert "ZAR 3,130" not in text  # the catalog's dollars are not called rand
    mine = ask_grounded(rules_advisor, "buy a 4090 for R35 000 or rent at R8 an hour? 6 hours a "
                        "day, power is R3,15 per kWh").text  # fmt: skip
    assert "ZAR 3.15/kWh" in mine  # all the user's own rand: the tariff counts


def test_tokens_to_train_on_are_no_context(catalog: Catalog) -> None:
    for question in (
        "I want to fine-tune llama 3 8b on 500,000 tokens of chat history, can a 4090 do it?",
        "got 500,000 tokens of chat history to fine-tune llama 3 8b on. 4090 ok?",
    ):
        assert understand(question, catalog).context is None, question
    assert understand("llama 3 8b with 8k tokens of chat history on a 4060, fits?",
                      catalog).context == 8192  # fmt: skip


def test_the_span_asked_is_the_questions() -> None:
    assert _span_asked("what's the bill per month? we may add cards later in the year") == "month"
    assert _span_asked("four runs a day every day of the year at $1.60/gpu-h, total?") == "year"
    assert _span_asked("how much a year? right now it's about $300 a month") == "year"


def test_a_card_set_aside_is_not_its_ti(catalog: Catalog) -> None:
    q = understand("it's the 3090, not the 3090 ti. does a 70b at q4 fit on two?", catalog)
    assert [g.ids for g in q.gpus] == [("rtx-3090",)]


def test_someone_who_wants_to_know_sells_nothing(catalog: Catalog) -> None:
    q = understand("someone wants to know which GPU to get for llama 3 8b under $1000", catalog)
    assert q.condition is None
    assert understand("seller asking $650 for a 3090, worth it?", catalog).condition == "used"


def test_a_price_offered_and_should_i_is_a_buy(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my mate wants $400 for his 3080, should i?").text
    assert head(text).startswith("**Yes: $400 is in line with the used prices")


def test_short_words_of_other_languages_read_only_after_numbers() -> None:
    assert to_english("does my board support VT-d for passthrough?") == (
        "does my board support VT-d for passthrough?"
    )
    said = to_english("Die kaart trek 320 Vt, hoeveel kos dit per maand vir 12 ure per dag?")
    assert "320 watts" in said and "12 hours" in said
    assert "30 days" in to_english("30 gün, gündə 8 saat, nə qədər başa gələr?")


def test_machines_that_each_hold_a_card_are_counted(rules_advisor: Advisor) -> None:
    said = ("we have 12 workstations with a 3090 each, each box pulls 450 W, 10 hours a day at "
            "0.25 per kwh. the monthly power bill?")  # fmt: skip
    text = ask_grounded(rules_advisor, said).text
    assert "12 x 450 W" in head(text) and "on 12 x 3090" in head(text)


def test_twenty_four_hours_over_a_month_is_around_the_clock(rules_advisor: Advisor) -> None:
    said = ("my 4070 super box will run 24 hours, pulling about 320 W in all, at $0.084 per kWh. "
            "kWh and money in a 30-day month?")  # fmt: skip
    text = ask_grounded(rules_advisor, said).text
    assert "720 hours" in head(text) and "$19.35" in head(text)
    one = ask_grounded(rules_advisor, "a 24 hour training job on a 4090 at 0.30 per kwh: power "
                       "cost?").text  # fmt: skip
    assert "for 24 hours" in head(one)


def test_memory_kept_for_the_os_is_out_of_the_largest_model(rules_advisor: Advisor) -> None:
    free = ask_grounded(rules_advisor, "biggest model I can run on a 3060 12gb at q4_k_m?").text
    kept = ask_grounded(rules_advisor, "biggest model I can run on a 3060 12gb at q4_k_m if the os "
                        "uses 2.5 gb and I keep 1 gb spare?").text  # fmt: skip
    assert "3.50 GB kept for other work" in kept
    assert "12 GB less the 3.50 GB you keep for other work = 8.50 GB" in kept
    biggest = re.compile(r"\*\*(.+?)\*\* fits")
    assert biggest.search(free).group(1) != biggest.search(kept).group(1)


def test_a_card_the_catalog_lacks_is_offered_only_its_own_line(rules_advisor: Advisor) -> None:
    k80 = ask_grounded(rules_advisor, "what's the memory bandwidth of a tesla k80?").text
    assert "no GPU called" in k80 and "H800" not in k80
    rx = ask_grounded(rules_advisor, "radeon rx 5700 xt 8gb for stable diffusion, ok?").text
    assert "no GPU called" in rx and "Radeon RX" in rx and "Quadro" not in rx


def test_a_price_then_a_rent_in_azerbaijani_make_a_break_even(rules_advisor: Advisor) -> None:
    last = thread_of(
        rules_advisor,
        "RTX 5090 almaq istəyirəm, qiyməti 8 000 AZN-dir.",
        "Alternativ olaraq 5090-u saatı 2 AZN-ə icarəyə götürə bilərəm.",  # noqa: RUF001
        "Neçə saatdan sonra almaq sərfəli olur? Elektrik xərcini nəzərə almayın.",  # noqa: RUF001
    )[-1]
    assert "4,000 hours" in head(last)


def test_whose_claim_is_right_leads(rules_advisor: Advisor) -> None:
    claim = "my brother reckons his old A100 40GB has more memory bandwidth than my RTX 5090."
    text = ask_grounded(rules_advisor, f"{claim} I say the 5090 has more. am I right?").text
    assert head(text) == "**Yes: you are right.**"
    theirs = ask_grounded(rules_advisor, f"{claim} is he right?").text
    assert head(theirs).startswith("**No: ") and "1,555 GB/s" in head(theirs)


def test_a_quote_that_claims_nvlink_is_answered_on_the_link_first(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the vendor quotes four RTX 4090s joined by NVLink into one "
                        "memory pool for llama 3.3 70b in fp8. is that right?").text  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 4090 has no NVLink")
    assert "fits on 4 x NVIDIA GeForce RTX 4090" in head(text)  # over PCIe, split across them


def test_a_name_with_a_case_ending_after_a_colon_is_the_card(catalog: Catalog) -> None:
    q = understand("Mikä on RTX 4090:n muistikaista?", catalog)
    assert [g.ids for g in q.gpus] == [("rtx-4090",)]


def test_a_tariff_beside_a_card_in_an_unread_language_is_a_bill(rules_advisor: Advisor) -> None:
    said = ("Скільки коштуватиме електроенергія на місяць, якщо RTX 3090 працює постійно, а "  # noqa: RUF001
            "кВт·год коштує 4,32 грн?")  # fmt: skip
    text = ask_grounded(rules_advisor, said).text
    assert "of electricity" in head(text) and "UAH 4.32/kWh" in head(text)


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("used 3090 $600 worth it?", 600),
        ("4090 for $1,899, worth it?", 1899),
        ("is a used 4090 for CHF 1'299.\u2013 a good deal?", 1299),
    ],
)
def test_a_price_said_beside_the_card_is_judged(
    catalog: Catalog, question: str, price: int
) -> None:
    q = understand(question, catalog)
    assert q.intent == "buy" and q.purchase_usd == price, (q.intent, q.purchase_usd)


def test_whole_units_written_with_a_dash_are_the_amount(catalog: Catalog) -> None:
    q = understand("budget is 2.500,- EUR for a card for llama 3 8b", catalog)
    assert q.budget is not None and q.budget.usd == 2500


def test_a_dollar_sign_after_a_cards_number_is_not_its_price(catalog: Catalog) -> None:
    q = understand("used 3090 $600 worth it?", catalog)
    assert q.budget is None or q.budget.usd != 3090


def test_a_card_named_after_an_open_pick_is_the_one_asked_about(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "which cloud gpu do we rent for a double-precision solver? "
                        "the cheapest on our list is the L40S. is that a bad idea? give me its "
                        "fp64 figure").text  # fmt: skip
    assert "FP64 1.43 TFLOPS" in head(text)


def test_how_many_a_card_makes_in_a_shift_is_a_count(rules_advisor: Advisor) -> None:
    text = ask_grounded(
        rules_advisor, "how many sdxl images can a 4090 make in an 8-hour shift?"
    ).text
    assert re.match(r"\*\*About [\d,]+ images in 8 hours\*\* on one NVIDIA GeForce RTX 4090", text)
    mine = ask_grounded(rules_advisor, "my 4090 takes 11 seconds per sdxl image. how many can it "
                        "make overnight, from 10pm to 6am?").text  # fmt: skip
    assert head(mine).startswith("**About 2,618 images in 8 hours** at your own measured")


def test_a_span_over_midnight_is_its_hours_and_office_hours_stay_a_rate() -> None:
    from advisor.agent.understand import normalise

    assert normalise("overnight, from 10pm to 6am") == "overnight, 8 hours"
    assert normalise("22:00-06:00 every night") == "8 hours every night"
    for kept in ("open 9 to 5", "9am till 5pm", "2 to 4 GPUs", "7-8B models"):
        assert normalise(kept) == kept


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("cloud T4 at $0.35/h for 2 hours every week, for the whole year (52 weeks): total?", 104),
        ("festival week (6 days), an L4 at $0.80/hr for about 2 hours per night. total?", 12),
        ("an A40 at $0.44/hr, roughly 250 hours per term, for three terms. total?", 750),
        ("a 4090 at $0.59/hr, 25 podcasts, about 2 hrs of processing each. the bill?", 50),
        ("an A10G at $1.01/hr, a full 24h shift every third day, over 30 days. total?", 240),
        ("an H100 at $2/h, 8 hours a day, 5 days a week, for 4 weeks: total?", 160),
    ],
)
def test_hours_counted_over_things_or_units(catalog: Catalog, question: str, hours: int) -> None:
    assert understand(question, catalog).hours == hours


def test_a_new_price_after_a_pause_redoes_the_sum(rules_advisor: Advisor) -> None:
    last = thread_of(
        rules_advisor,
        "an A10G at $1.01/hr, a 24h shift every third day. what's that over 30 days?",
        "wait, let me check the price with the provider first.",
        "ok they came back: $0.75/hr now, same pattern over 30 days. total?",
    )[-1]
    assert head(last).startswith("**$180** for 240 hours")


def test_weeks_asked_of_a_break_even_are_given(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a 4070 super costs $629 or I rent one at $0.20 an hour, "
                        "3 hours a night, 6 nights a week. when does buying pay off, and how "
                        "many weeks is that?").text  # fmt: skip
    assert "at 2.57 hours a day" in head(text) and re.search(r"\d weeks", head(text))
    assert re.search(r"[\d,]+ weeks, [\d.]+ years\) before electricity", head(text))


def test_a_card_not_off_ebay_is_new(catalog: Catalog) -> None:
    q = understand("£500 at most and it has to be new, not off eBay: which card for qwen 14b?",
                   catalog)  # fmt: skip
    assert q.condition == "new"


def test_a_memory_said_anywhere_picks_the_variant(catalog: Catalog) -> None:
    q = understand("my nan's MacBook Air has the M2 chip and only 8GB of memory. can it run "
                   "phi4:14b in ollama?", catalog)  # fmt: skip
    assert [g.ids for g in q.gpus] == [("m2-8gb",)]
    assert understand("is the A100 good for a 24gb model?", catalog).gpus[0].open_variant


def test_energy_asked_without_a_price_is_given_in_kwh(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the jetson agx orin 64gb at full power around the clock, "
                        "24 hours a day: how many kwh per day?").text  # fmt: skip
    assert head(text) == "**About 1.44 kWh a day**: 60 W for 24 hours."


def test_a_days_bill_asked_beside_a_weeks(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my card pulls 350 watts, on 12 hours a day, power is 28p a "
                        "unit. what does that cost me a day? and a week?").text  # fmt: skip
    assert "Per day: about £1.18 (4.20 kWh over 12 hours)" in text


def test_an_moe_name_asked_about_in_a_format(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what does the A3B in Qwen3-30B-A3B stand for? how big is "
                        "it at Q4_K_M and how much is read per token?").text  # fmt: skip
    assert "in q4_k_m" in head(text) and "3.4B active per token" in head(text)


def test_the_four_bit_format_named_is_the_one_sized(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how much memory does mistral 7b take at full 16-bit, and "
                        "as the q4_k_m gguf everyone uses?").text  # fmt: skip
    assert "In 4-bit (GGUF Q4_K_M) it needs about" in text


def test_passes_over_the_data_are_epochs(catalog: Catalog) -> None:
    q = understand("LoRA on llama 3.1 8b, 5 million tokens, 2 passes (epochs), one 4090: how long?",
                   catalog)  # fmt: skip
    assert q.epochs == 2 and q.intent == "train_time"


def test_anyone_there_before_a_question_is_dropped(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "anybody there? can a 3060 run mistral 7b?").text
    assert head(text).startswith("**Yes: ")
    lone = ask_grounded(rules_advisor, "Ey up, me lad set this up for me. Is tha there?").text
    assert "I answer questions about GPUs" in lone


def test_what_vram_is_explained(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what's this vram thing, is it the same as the 32 gig of "
                        "ram in my pc? and how much has a 4090 got?").text  # fmt: skip
    assert head(text).startswith("**VRAM is the graphics card's own memory")
    assert "memory 24 GB" in text


def test_a_cards_gaming_past_keeps_its_price_question(catalog: Catalog) -> None:
    q = understand("a used 3090 on ebay for £600, only ever used for gaming. what do they go for? "
                   "am I being ripped off?", catalog)  # fmt: skip
    assert q.intent == "buy"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        (
            "Iznajmljujem RTX 4090 po 0,69 € na sat, 3 sata dnevno. Koliko me to košta mjesečno?",
            "cost",
        ),
        ("Cik liels ir RTX 4090 atmiņas joslas platums?", "spec"),
        ("RTX 3090 და Llama 3.1 8B: რამდენ ტოკენს წამში მივიღებ?", "speed"),
        (
            "Менде екі RTX 3090 бар, тариф 25,5 ₸/кВт·сағ, күніне 10 сағат: айына қанша тұрады?",  # noqa: RUF001
            "cost",
        ),
    ],
)
def test_croatian_latvian_georgian_and_kazakh(catalog: Catalog, question: str, intent: str) -> None:
    assert understand(question, catalog).intent == intent


def test_a_price_judged_of_a_card_the_catalog_lacks_says_so_first(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a mate is selling his Radeon VII for $200. decent buy for "
                        "running local llms, or nah?").text  # fmt: skip
    assert head(text).startswith("**The catalog has no figures or prices for the Radeon VII")


def test_a_purchase_that_may_come_later_is_not_weighed(catalog: Catalog) -> None:
    q = understand("renting a cloud 4090 at $0.40/hr for 30 hours of renders: the bill? also its "
                   "rated power, in case we end up buying one later", catalog)  # fmt: skip
    assert q.intent == "cost"


def test_a_song_school_is_no_song(catalog: Catalog) -> None:
    q = understand("a PC for the song school: RTX A4000 or RTX A2000 12GB for qwen2.5-7b, which "
                   "replies quicker?", catalog)  # fmt: skip
    assert q.intent == "compare"


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("renting a 3090 at $0.45/hr, 6 hours a day; a used one is $900 locally. over 2 years, "
         "is buying +EV?", "**Yes: buying is cheaper"),
        ("renting a 4090 at $0.40/hr about 10 hours a month, or buying one for $1,800: would "
         "buying make more sense?", "**No: renting is cheaper"),
    ],
)  # fmt: skip
def test_the_side_asked_of_a_break_even_leads(rules_advisor: Advisor, question: str,
                                              lead: str) -> None:  # fmt: skip
    assert ask_grounded(rules_advisor, question).text.startswith(lead)


def test_people_at_the_same_time_are_the_concurrency(catalog: Catalog) -> None:
    q = understand("5 of us on llama 3.1 8b at the same time, 8k context each: will a 4090 do?",
                   catalog)  # fmt: skip
    assert q.concurrency == 5


def test_a_fit_asked_leads_a_speed_answer_with_yes(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "can my laptop's rtx 4060 (8gb) run phi-4-mini at q8_0 "
                        "fully on the gpu? don't want it painfully slow").text  # fmt: skip
    assert head(text).startswith("**Yes")


def test_a_card_without_tensor_cores_shows_its_fp32_rate(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "specs of the gtx 1060 6gb?").text
    assert "4.38 TFLOPS FP32" in text


def test_a_format_named_with_version_is_no_card_variant(rules_advisor: Advisor) -> None:
    last = thread_of(
        rules_advisor,
        "my mac studio has the M4 Max with 64 GB; llama 3.3 70b at q4_k_m runs fine on it.",
        "would the q8_0 version of the same model fit on that machine too?",
    )[-1]
    assert head(last).startswith("**No: Llama-3.3-70B does not fit on one Apple M4 Max (64GB)")


def test_the_cheaper_card_enough_is_a_fit_of_each(rules_advisor: Advisor) -> None:
    said = ("full fine-tune of llama 3.2 3b, adamw, bf16. the cloud has an A100 40GB at $1.10/hr "
            "or an H100 80GB at $2.40/hr. if the 40 gig one works I'd rather save. does it, or do "
            "I need the H100?")  # fmt: skip
    text = ask_grounded(rules_advisor, said).text
    assert head(text).startswith("**Only the NVIDIA H100")
    assert "A100 SXM4 40GB** (40 GB" in text and "does not fit" in text


def test_a_vendors_quote_is_for_a_new_card(catalog: Catalog) -> None:
    q = understand("our vendor quoted us $2,300 for an NVIDIA L4. what's the going price?", catalog)
    assert q.condition == "new"
