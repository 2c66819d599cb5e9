"""Amounts in the user's own currency, accelerators the catalog does not hold, audio at a pace
the user measured, and the Russian, Czech and Romanian words of a question. Each phrasing is the
test's own."""

from __future__ import annotations

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import normalise, understand
from advisor.api import Advisor
from advisor.catalog import Catalog


@pytest.mark.parametrize(
    ("written", "amount"),
    [
        ("1 200 000 ₴ за сервер", "1200000 UAH"),
        ("a used card for ₹38,500", "38,500 INR"),
        ("Rs. 95,000 is my limit", "95,000 INR"),
        ("za 24 990 Kč", "24990 CZK"),
        ("300 lei pe lună", "300 RON"),
        ("kártya 420 000 Ft", "420000 HUF"),
        ("8 500 zł", "8500 PLN"),
        ("CHF 3400 for a card", "3400 CHF"),
    ],
)
def test_amounts_in_other_currencies_carry_their_code(written: str, amount: str) -> None:
    assert amount in normalise(written), normalise(written)


def test_feet_and_words_near_numbers_are_not_money() -> None:
    assert "HUF" not in normalise("a 10 ft riser cable")
    assert normalise("we try 3 seeds") == "we try 3 seeds"


def test_a_break_even_in_roubles_stays_in_roubles(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask(
        "Стоит ли купить RTX 5090 за 320 000 ₽, если аренда стоит 80 ₽ в час? Работаю около 6 "
        "часов в день. Через сколько окупится?"
    )
    head = answer.text.split("\n")[0]
    assert "4,000 hours" in head, answer.text[:400]  # 320,000 / 80
    assert "RUB 320,000 to buy" in answer.text and "$320,000" not in answer.text, answer.text
    assert "electricity left out" in answer.text  # no dollar tariff added to roubles


def test_a_stated_purchase_in_crowns_is_not_read_as_thousands(catalog: Catalog) -> None:
    query = understand("pay 21000 kr for a 4090 or rent one at 7 kr an hour?", catalog)
    assert query.purchase_usd == 21000 and query.user_price_usd_per_hour == 7
    assert query.currency.strip() == "kr"


@pytest.mark.parametrize(
    "question",
    [
        "how much hbm does the ascend 910c have",
        "华为昇腾910B能跑70B吗",
        "is a google tpu v5p faster than an h200 for training?",
        "trainium2 vs h100 price per hour",
    ],
)
def test_accelerators_the_catalog_lacks_are_named_not_misread(
    catalog: Catalog, question: str
) -> None:
    query = understand(question, catalog)
    absent = [g for g in query.gpus if not g.ids and g.note]
    assert absent and "no figures" in (absent[0].note or ""), query.gpus
    assert not any(m.size_b and m.size_b > 500 for m in query.models), query.models


def test_an_absent_chip_beside_a_known_card_keeps_the_known_cards_figures(
    rules_advisor: Advisor,
) -> None:
    answer = rules_advisor.ask("memory and bandwidth: trainium2 vs an h200 nvl?")
    assert "4,800 GB/s" in answer.text, answer.text[:500]
    assert "no figures for the trainium2" in answer.text, answer.text


@pytest.mark.parametrize(
    ("question", "audio"),
    [
        (
            "our whisper box runs 40x realtime. there are 90 hours of board meetings waiting, how "
            "long to get through them?",
            90,
        ),
        (
            "I have 22 interviews averaging 50 minutes. faster-whisper does 30x real time "
            "here, how long will it take?",
            22 * 50 / 60,
        ),
        (
            "60 lectures, they average about 75 minutes each: how long at 25x real time with "
            "whisper?",
            60 * 75 / 60,
        ),
    ],
)
def test_audio_had_at_a_real_time_pace_is_the_job(
    catalog: Catalog, question: str, audio: float
) -> None:
    query = understand(question, catalog)
    assert query.audio_hours == pytest.approx(audio), (query.audio_hours, query.hours)
    assert query.hours is None or query.hours != pytest.approx(audio)


def test_a_pace_answer_carries_no_note_on_the_model_it_never_used(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("whisper does 40x realtime on my box and we have 90 hours of "
                               "recordings, how long?")  # fmt: skip
    assert answer.text.startswith("**About 2.25 hours at your own measured pace"), answer.text
    assert "large-v3 assumed" not in answer.text


@pytest.mark.parametrize(
    ("said", "english"),
    [
        ("Какая пропускная способность памяти у RTX 4080?", "memory bandwidth"),  # noqa: RUF001
        ("Kolik paměti má RTX 4080 a jaký má příkon?", "power draw"),
        ("Câtă memorie are RTX 4080?", "how much memory"),
        ("Kolik tokenů za sekundu dá RTX 4080?", "tokens per second"),
        ("арендовать или купить RTX 4080?", "rent or buy"),
    ],
)
def test_russian_czech_and_romanian_words_are_read(said: str, english: str) -> None:
    assert english in to_english(said), to_english(said)


def test_english_words_that_look_romanian_stay_english() -> None:
    for text in ("a cat picture classifier", "we care about speed", "let me know", "an ore mine",
                 "an image in 2 s", "a second-hand 3090", "amazon nova"):  # fmt: skip
        assert to_english(text) == text
    # (a phrase matched in English text would read its decimals as another language's thousands)
    assert "$0.002 per image" in normalise("$0.002 per image, or an L4 at $0.80/h in 3 s each?")


def test_mixed_precision_against_fp32_leads_with_the_gain(rules_advisor: Advisor) -> None:
    worth = rules_advisor.ask("would turning on amp actually speed up training resnet-50 on our "
                              "v100 16gb boxes vs plain fp32? yes/no")  # fmt: skip
    head = worth.text.split("\n")[0]
    assert head.startswith("**Yes: about ") and "in FP32 on the NVIDIA V100" in head, head
    assert "125 TFLOPS" in worth.text and "15.7 TFLOPS" in worth.text, worth.text
    ratio = rules_advisor.ask("how much quicker is bf16 than fp32 for training bert-large on an "
                              "a100 80gb?")  # fmt: skip
    assert ratio.text.startswith("**About "), ratio.text[:200]
    assert "x faster: about " in ratio.text.split("\n")[0] and "BF16" in ratio.text, ratio.text


def test_a_grants_hours_and_a_school_years_weekdays(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask(
        "our $300 grant covers cloud time. an L4 rents for $0.60/hr. the tutoring bot runs 2 "
        "hours every weekday over a 30-week term: cost, and how many hours would the grant buy?"
    )
    assert answer.text.startswith("**$180** for 300 hours"), answer.text[:300]  # 2 x 5 x 30
    assert "**500 hours on one L4**" in answer.text, answer.text


def test_an_amount_before_a_card_is_no_count_of_cards(catalog: Catalog) -> None:
    query = understand("is renting cheaper than buying a $1,800 4090 at 20 hours a month?", catalog)
    assert query.gpus and query.gpus[0].count is None, query.gpus
    two = understand("两张RTX 3090能跑Qwen2.5 32B吗", catalog)
    assert two.gpus and two.gpus[0].count == 2, two.gpus


def test_a_bare_jetson_agx_orin_is_either_module(catalog: Catalog) -> None:
    query = understand("what's the memory of the jetson agx orin?", catalog)
    assert set(query.gpus[0].ids) == {"jetson-agx-orin-64gb", "jetson-agx-orin-32gb"}
    sized = understand("jetson agx orin 32gb power draw?", catalog)
    assert sized.gpus[0].ids == ("jetson-agx-orin-32gb",)


def test_a_price_per_gpu_per_hour_on_a_box_is_each_gpus(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("we had a 4-GPU A100 80GB server at $1.50 per gpu per hour for "
                               "about 10 hours, total?")  # fmt: skip
    assert answer.text.startswith("**$60.00**"), answer.text[:300]  # 4 x 10 x 1.50


def test_a_daily_use_over_a_month_written_in_days(catalog: Catalog) -> None:
    query = understand("an L4 4 hrs a day at $0.70/hr, what's that for the month (31 days)?",
                       catalog)  # fmt: skip
    assert query.hours == pytest.approx(124), query.hours


def test_a_break_even_written_in_chinese_myriads(rules_advisor: Advisor) -> None:
    said = "买一台4卡RTX 5090工作站，报价12万元；租用每卡每小时3元，不算电费，多久回本？"  # noqa: RUF001
    answer = rules_advisor.ask(said)
    head = answer.text.split("\n")[0]
    assert "10,000 hours of use" in head, answer.text[:400]  # 120,000 / (4 x 3)
    assert "CNY 3.00 per GPU-hour" in answer.text, answer.text


def test_all_reduce_heavy_training_compares_the_link(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("gradient all-reduce dominates our step time: 4x rtx 4090 or 4x "
                               "h100 sxm, which node?")  # fmt: skip
    head = answer.text.split("\n")[0]
    assert head.startswith("**GPU-to-GPU link:") and "900 GB/s" in head, answer.text[:400]


def test_a_rent_or_buy_over_at_least_some_years(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("buy a 4070 super for $600 or rent one at $0.20/hr? about 3 hrs a "
                               "day for at least 2 years. which?")  # fmt: skip
    assert "over your 2,190 hours of use" in answer.text.split("\n")[0], answer.text[:300]


def test_an_image_pipeline_compared_says_its_weights_alone(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("sdxl at 1024: rtx 3060 12gb or rtx 3070 8gb, which one first")
    assert "The weights alone are 6.94 GB." in answer.text, answer.text


def test_an_electricity_bill_for_each_period_asked(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("my gpu rig pulls 300 W from the wall, on 8 hours a day, power is "
                               "$0.20/kWh: cost per month (30 days) and per year?")  # fmt: skip
    assert answer.text.startswith("**About $14.40 of electricity** (72 kWh)"), answer.text[:200]
    assert "Per year: about $175 (876 kWh over 2,920 hours)." in answer.text, answer.text


def test_an_epochs_time_said_once_times_the_epochs(rules_advisor: Advisor) -> None:
    one = rules_advisor.ask("training a yolov8s, a single epoch takes 2 min 30 s on my 3090. how "
                            "long for 80 epochs?")  # fmt: skip
    assert one.text.startswith("**About 3.33 hours at your own measured pace**"), one.text[:200]
    thread = "epochs-then-more"
    rules_advisor.ask("resnet-50 on my 4090: one epoch takes 6 min.", thread_id=thread)
    more = rules_advisor.ask("and for 40 epochs?", thread_id=thread)
    assert more.text.startswith("**About 4 hours at your own measured pace**"), more.text[:200]


def test_how_long_one_epoch_takes_is_asked_not_said(catalog: Catalog) -> None:
    query = understand("qlora on mistral 7b, 50M tokens, one 4090 for two weeks: how long will "
                       "one epoch take?", catalog)  # fmt: skip
    assert not query.epoch_paced and query.intent == "train_time", query


def test_a_days_recordings_said_as_an_average_length(catalog: Catalog) -> None:
    said = ("we get about 300 calls a day, 6 minutes on average; whisper on our L4 does an hour "
            "of audio in 3 minutes. how long per day?")  # fmt: skip
    query = understand(said, catalog)
    assert query.audio_hours == pytest.approx(30), query.audio_hours


def test_previews_at_a_sampler_pace(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("sdxl on my card runs 4 it/s at 30 steps per image; i need 600 "
                               "previews for the catalog, how long?")  # fmt: skip
    assert answer.text.startswith("**About 1.25 hours at your own measured pace**"), answer.text


def test_an_ollama_tag_is_its_default_quant(catalog: Catalog) -> None:
    tagged = understand("can my 3060 run qwen2.5:14b in ollama?", catalog)
    assert tagged.precision == "q4_k_m", tagged.precision
    pinned = understand("ollama pull llama3.1:8b-instruct-q8_0 on a 4060 ti, fits?", catalog)
    assert pinned.precision == "q8_0", pinned.precision


def test_int8_against_fp16_for_a_speech_model_gives_both_sizes(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("the transcription box runs whisper large-v3 as 'int8' rather than "
                               "'fp16'. in plain english, what's the difference, and how much "
                               "memory do its weights take in each?")  # fmt: skip
    assert answer.text.startswith("**Whisper large-v3's weights: 3.09 GB in fp16, 1.54 GB in "
                                  "int8.**"), answer.text[:300]  # fmt: skip
