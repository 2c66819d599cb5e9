"""A throughput needed is sized by copies at full load; the cheaper of two cards or setups is
named; "how many do I need" is a count even after "the cheaper one"; a month asked ranks by the
month; a value question compares cards in one format; a job said without a question is sized;
steps of a run set its length; a card said once ("one 3090") stays one; "is it cheaper" after a
new card weighs both; an instance family names the variant of the cards counted; two engines are
weighed; live camera streams are judged at 30 fps; a desk card that holds a model only with
system RAM says so first; German and Portuguese small words are read. Each phrasing is the
test's own."""

from __future__ import annotations

import re

from advisor.api import Advisor
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


def test_a_throughput_needed_is_served_by_copies_at_full_load(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "our support bot has to push 3000 tokens/sec in total on mistral 7b, how many a10gs?",
    ).text
    head = _head(text)
    assert "for that load" in head and "the 3,000 tokens/s you need" in head, text
    assert re.search(r"\*\*\d+ x NVIDIA A10G", head), text


def test_the_cheaper_card_or_setup_to_rent_leads(rules_advisor: Advisor) -> None:
    cards = _ask(rules_advisor, "l40s or a6000, which costs less per hour to rent").text
    assert _head(cards).startswith("**Cheaper to rent: one NVIDIA"), cards
    assert "per GPU-hour" in _head(cards)
    setups = _ask(rules_advisor, "is a single h100 or 4x l4 cheaper by the hour").text
    assert _head(setups).startswith("**Cheaper to rent:") and "an hour" in _head(setups), setups
    assert "4 x NVIDIA L4" in _head(setups), setups


def test_how_many_do_i_need_after_the_cheaper_one_is_a_count(rules_advisor: Advisor) -> None:
    *_, later = _thread(
        rules_advisor,
        "a100 80gb against l40s for serving llama 3 70b in awq",
        "the cheaper one, how many would i need for 40 users",
    )
    assert re.search(r"needs \d+ x NVIDIA L40S", _head(later)), later


def test_a_month_asked_ranks_by_the_month(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "l4 vs a10g for hosting mistral 7b around the clock, which one is cheaper per month",
    ).text
    assert "the least rent a month" in _head(text), text
    assert re.search(r"\$[\d,]+ \(\$[\d.]+/hour\)", _head(text)), text


def test_a_value_question_compares_the_cards_in_one_format(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "t4 vs l4 for a 7b model, which gives better tokens per dollar").text
    assert "Compared in 4-bit (AWQ)" in text and "does not fit the NVIDIA T4" in text, text
    assert _head(text).startswith("**Pick the NVIDIA") and "awq" in _head(text), text


def test_a_monthly_cloud_bill_is_read_at_that_clouds_price(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "our gcp bill for a100s is around $12k a month, when would owning the hardware pay off",
    ).text
    assert "a month over 730 hours of use" in text and "given by the user" not in text, text


def test_a_job_said_without_a_question_is_sized(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "we need to host llama 3 8b for about 60 users with vllm").text
    assert _head(text).startswith("**Pick"), text
    assert "60 users" in _head(text), text


def test_steps_said_in_a_follow_up_set_the_runs_length(rules_advisor: Advisor) -> None:
    _, image = _thread(
        rules_advisor,
        "would sdxl lora training fit on a 16gb card",
        "how long would 1500 steps take",
    )
    assert "1500 steps" in _head(image) or "1,500 steps" in _head(image), image
    assert "NVIDIA" in _head(image) and "AMD" not in _head(image), image
    _, llm = _thread(
        rules_advisor,
        "qlora of llama 3 8b on one 4090 with 5k samples of 1k tokens, how long",
        "and for 3000 steps at batch size 16?",
    )
    assert "4090" in llm and "x NVIDIA GeForce RTX 4090" not in llm, llm
    assert "steps of gradient accumulation" in llm or "batch 16" in _head(llm), llm


def test_is_it_cheaper_after_a_new_card_weighs_both(rules_advisor: Advisor) -> None:
    *_, later = _thread(
        rules_advisor,
        "lora fine-tune of mistral 7b on 30k samples on a rented a100 80gb, what's the cost",
        "and on an h100, would that be cheaper overall?",
    )
    assert re.match(r"\*\*(?:Yes|No): pick the NVIDIA", _head(later)), later
    assert "A100" in _head(later) and "H100" in _head(later), later


def test_an_instance_family_names_the_variant_of_the_cards_counted(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what's the bill for 32 h100s for 3 days on aws p5 instances").text
    assert _head(text).startswith("**On AWS: about $") and "32 x NVIDIA H100 SXM5" in _head(text)
    assert "Which one" not in text, text


def test_two_engines_named_are_weighed_on_one_card(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "sglang or vllm for qwen2.5 14b on an a100 80gb, which is faster"
    ).text
    # a pick by a ratio, or the two said level when the calculator gives both the same figure
    assert re.match(r"\*\*(?:Pick (?:SGLang|vLLM): about [\d.]+x the decode speed of|They come "
                    r"out level on the decode speed)", _head(text))  # fmt: skip
    assert "SGLang (" in _head(text) and "vLLM (" in _head(text), text


def test_live_camera_streams_are_judged_at_a_camera_rate(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "3 live camera feeds into yolov8s on a jetson orin nano, can it keep up"
    ).text
    assert re.match(r"\*\*(?:Yes|No): ", _head(text)) and "30 fps" in _head(text), text
    assert "30 frames a second per stream" in text


def test_a_desk_card_that_needs_system_ram_says_so_first(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "will my 3080 10gb run mixtral 8x7b").text
    assert _head(text).startswith(
        "**No: not on the card alone; only with part of it in system RAM, slowly**"
    ), text
    assert "tokens/s" in _head(text)


def test_a_total_budget_for_a_card_is_a_price_to_buy(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "best graphics card under $900 for training a resnet-50").text
    assert "to buy" in _head(text), text


def test_the_small_words_of_german_and_portuguese_are_read(rules_advisor: Advisor) -> None:
    german = _ask(
        rules_advisor,
        "Ich habe eine RTX 3060 mit 12 GB. Welches ist das größte LLM, das ich "
        "damit betreiben kann?",
    ).text
    assert german.startswith("The largest that fits"), german
    portuguese = _ask(rules_advisor, "quanto custa por mês alugar uma a100 80gb na lambda?").text
    assert _head(portuguese).startswith("**On Lambda:"), portuguese


def test_a_memory_to_squeeze_onto_is_the_card_asked(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "how much vram does sdxl need in fp16, and will it go onto 6gb").text
    assert "6 GB GPU" in _head(text), text


def test_worth_it_with_a_figure_as_the_doubt_gets_a_verdict(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor, "is a 3060 12gb worth it for deep learning or is the 192-bit bus too slow"
    ).text
    assert re.match(r"\*\*(?:Yes|No)\b", _head(text)), text


def test_a_choice_to_buy_between_setups_names_a_pick(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "is an rtx 6000 ada worth it for our lab, or two 4090s instead").text
    assert re.match(r"\*\*(?:(?:Yes|No): pick the |They are about as fast)", _head(text)), text
    assert "to buy" in text or "launch list price" in text or " new**" in text, text


def test_a_pick_that_is_no_cuda_card_says_what_it_runs(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "cheapest new gpu for stable diffusion xl under $700").text
    if "AMD" in _head(text):
        assert "ROCm instead of CUDA" in text, text
    elif "Intel" in _head(text):
        assert "no CUDA" in text, text


def test_a_pace_asked_leads_with_the_way_the_card_holds_it(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "sdxl 1024px on a gtx 1080 8gb, how many seconds per image").text
    assert re.match(r"\*\*About [\d.,]+ (?:s|minutes) per image (?:in|with) ", _head(text)), text
    assert "it does not fit" in _head(text)


def test_a_recipe_that_makes_room_leads_a_fit_and_a_time(rules_advisor: Advisor) -> None:
    fit, timed = _thread(
        rules_advisor,
        "qlora of a 70b across a pair of 3090s, is that doable",
        "ok how long would an epoch of 20k samples at about 1k tokens take",
    )
    assert _head(fit).startswith("**Yes with Unsloth's QLoRA recipe, no with the defaults"), fit
    assert re.match(r"\*\*About [\d.,]+ (?:hours|days) with Unsloth's QLoRA recipe", _head(timed))


def test_a_length_said_in_a_later_sentence_is_the_first_questions_too(
    rules_advisor: Advisor,
) -> None:
    text = _ask(
        rules_advisor,
        "lora of mistral 7b on a 4090, will it fit? it's 30k samples of ~512 "
        "tokens, how long per epoch",
    ).text
    assert "context 512" in _head(text), text


def test_a_total_cloud_budget_for_a_job_is_judged(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "we want 200k sdxl images for a synthetic dataset and have $1000 of cloud "
        "money, can we do it and on what gpu",
    ).text
    # cents shown under $100: since the F price rows it fits a $0.07/hour RTX 4070 SUPER ($62.89)
    assert re.match(r"\*\*(?:Yes|No): about \$[\d,.]+ for the whole job on ", _head(text)), text
    assert "your $1,000" in _head(text) and "wall time" in _head(text), text
