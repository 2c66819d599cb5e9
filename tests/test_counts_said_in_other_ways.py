"""Amounts and counts said in ways the parser once missed: Korean won written with 만 (ten
thousands) or a particle after 원, "하루 N시간씩" (N hours a day), a Korean particle between
"context" and its length, a Norwegian "how long a context can I set", things counted with the
tokens each holds ("1.2 million memos, max 128 tokens each"), and a pace in iterations a second
beside a trainer's steps."""

from __future__ import annotations

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


@pytest.mark.parametrize(
    ("question", "amount"),
    [
        ("4090을 300만 원에 샀어요", 3_000_000),
        ("중고로 250만원 정도", 2_500_000),
        ("A100 시간당 2,500원에 빌리면", 2_500),
    ],
)
def test_won_amounts_are_read(catalog: Catalog, question: str, amount: float) -> None:
    q = understand(question, catalog)
    said = [q.user_price_usd_per_hour, q.purchase_usd, q.budget.usd if q.budget else None]
    assert amount in said, (said, q.english)
    assert q.currency.strip() == "KRW"


def test_hours_a_day_said_the_korean_way(catalog: Catalog) -> None:
    q = understand("L40S를 하루 8시간씩 한 달 쓰면 비용이 얼마예요?", catalog)
    assert q.use_hours_per_day == pytest.approx(8.0)


def test_a_korean_rent_or_buy_is_priced_in_won(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "RTX 4090을 300만 원에 사는 것과 시간당 600원에 빌리는 것 중에서, 하루 5시간씩 쓰면 몇 "
        "년이면 본전을 뽑을 수 있나요? 전기료는 빼고요."
    ).text
    head = text.split("\n", 1)[0]
    assert "5,000 hours" in head, head  # 3,000,000 / 600
    assert "2.74 years" in head  # 5,000 h at 5 a day


def test_a_korean_particle_between_context_and_its_length(catalog: Catalog) -> None:
    q = understand("llama 3.1 8b를 4060에서 돌리려는데 컨텍스트는 16k 정도면 돼요", catalog)
    assert q.context == 16384


def test_a_norwegian_longest_context_question_is_solved(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "Jeg har et RTX 4070 (12 GB) og kjører Llama 3.1 8B i Q4_K_M. Hvor mye kontekst kan jeg "
        "bruke før minnet går tomt?"
    ).text
    assert text.startswith("**Longest context that fits:"), text[:200]


@pytest.mark.parametrize(
    ("question", "samples"),
    [
        ("fine-tune roberta-base on 250k support tickets, max 256 tokens each, 2 epochs", 250_000),
        ("distilbert over 1.5 million product reviews of about 200 tokens apiece", 1_500_000),
    ],
)
def test_things_with_their_tokens_each_are_the_samples(
    catalog: Catalog, question: str, samples: float
) -> None:
    assert understand(question, catalog).dataset_samples == samples


def test_korean_days_a_month_bound_the_rental(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "L40S 2장을 장당 시간당 1,500원에 빌려서 하루 8시간씩 한 달에 20일 쓰면 월 비용이 얼마예요?"
    ).text
    head = text.split("\n", 1)[0]
    assert "KRW 480,000" in head and "160 hours" in head, head  # 1,500 x 8 x 20 x 2


def test_a_year_of_a_monthly_use_is_billed_for_the_year(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "4 A100s reserved at $1.10/hr billed every hour, or on demand at $1.80/hr for the 1,000 "
        "GPU-hours a month we use: yearly cost of each and the annual saving?"
    ).text
    head = text.split("\n", 1)[0]
    # reserved 4 x 8,760 x 1.10 = 38,544; on demand 12,000 x 1.80 = 21,600
    assert "$21,600 a year" in head and "$38,544" in head and "$16,944 a year less" in head, head


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("an a100 at $1.20/h for 30 hours and i have $50 in credits - enough?", "**Yes: your $50"),
        (
            "renting a 4090 at $0.45/hr for 200 hrs on $60 of credit, how much do i top up?",
            "**No: your $60.00 falls $30.00 short",
        ),
    ],
)
def test_credits_held_are_weighed_against_the_bill(
    rules_advisor: Advisor, question: str, verdict: str
) -> None:
    assert rules_advisor.ask(question).text.startswith(verdict)


def test_gpu_hours_shared_by_the_gpus_said(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "3 labs each booked 200 GPU-hours on our 8-GPU A100 box. back to back, how long until "
        "every job is through?"
    ).text
    assert text.startswith("**About 75 hours (3.12 days) on 8 x A100"), text[:200]  # 600 / 8


def test_things_each_person_makes_are_counted_for_all(catalog: Catalog) -> None:
    q = understand("12 designers, each generating about 500 images with sdxl on a 4090", catalog)
    assert q.images == 6000


def test_another_step_count_beside_a_pace(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "flux on my 3090 does 1 it/s at 20 steps, 90 images to make. how long? and if i go up to "
        "30 steps?"
    ).text
    head = text.split("\n", 1)[0]
    assert "About 30 minutes" in head and "At 30 steps: about 45 minutes" in head, head


@pytest.mark.parametrize(
    ("question", "reserved"),
    [
        ("keeping 3 GB for the desktop and browser, does qwen2.5 7b q4 fit on my 8gb 3070?", 3.0),
        ("the perception stack is using about 5 GB on the orin, room for llama 3.2 3b?", 5.0),
        ("10 GB already taken by another job on this a100, can i load mistral 7b?", 10.0),
        ("does llama 3.1 8b fit on a 3090?", None),
        ("keep 8 GB for the weights and the rest for the kv cache", None),
    ],
)
def test_memory_kept_for_other_work_is_read(
    catalog: Catalog, question: str, reserved: float | None
) -> None:
    assert understand(question, catalog).reserved_gb == reserved


def test_memory_kept_for_other_work_shrinks_the_longest_context(rules_advisor: Advisor) -> None:
    def longest(question: str) -> int:
        head = rules_advisor.ask(question).text.split("\n", 1)[0]
        return int(head.split("fits: ", 1)[1].split(" tokens", 1)[0].replace(",", ""))

    alone = longest("llama 3.1 8b q4_k_m in llama.cpp on a 4060 ti 16gb: longest context?")
    shared = longest(
        "llama 3.1 8b q4_k_m in llama.cpp on a 4060 ti 16gb, leaving 4 GB free for the desktop: "
        "longest context?"
    )
    assert shared < alone * 0.8, (shared, alone)
    text = rules_advisor.ask(
        "the camera pipeline takes 6 GB of my 3090. does llama 3.1 8b in fp16 still fit?"
    ).text
    assert "6 GB kept for other work, as you said" in text, text[:600]


@pytest.mark.parametrize(
    ("question", "models"),
    [
        ("lora on whisper large-v3 (bf16 base, tiny batch) on a t4?", [("whisper-large-v3",)]),
        ("whisper turbo for our small team's meetings", [("whisper-large-v3-turbo",)]),
        ("whisper medium or small on a 3050?", [("whisper-medium",), ("whisper-small",)]),
    ],
)
def test_a_whisper_size_word_said_of_something_else_is_no_model(
    catalog: Catalog, question: str, models: list[tuple[str, ...]]
) -> None:
    assert [m.ids for m in understand(question, catalog).models] == models


def test_a_count_said_after_a_card_is_that_cards_own(catalog: Catalog) -> None:
    q = understand(
        "Mac Studio M3 Ultra 512GB 한 대와 H200 8장 노드 중 어느 쪽이 맞을까요? "
        "DeepSeek-R1 FP8 서빙",
        catalog,
    )
    counts = {g.ids[0]: g.count for g in q.gpus if g.ids}
    assert counts.get("m3-ultra-512gb") in (None, 1), counts
    assert 8 in counts.values() and q.num_gpus is None, (counts, q.num_gpus)


def test_a_hungarian_full_fine_tune_is_a_full_fine_tune(catalog: Catalog) -> None:
    q = understand(
        "Llama 3.2 3B teljes finomhangolása vegyes pontossággal: elég egy RTX 4090?", catalog
    )
    assert q.workload == "finetune-full"


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        (
            "could get $700 selling my 3080 and rent one at $0.20/hr. i train maybe 2 hours a "
            "week. sell or keep?",
            "**Sell it: renting is cheaper",
        ),
        (
            "should i sell my a6000 for $3,500 and rent at $0.45/hr? it runs jobs about 10 hours a "
            "day",
            "**Keep it: owning is cheaper",
        ),
    ],
)
def test_selling_a_card_is_weighed_against_renting(
    rules_advisor: Advisor, question: str, verdict: str
) -> None:
    text = rules_advisor.ask(question).text
    assert text.startswith(verdict), text[:300]
    assert "the card fetches (given by the user)" in text


def test_a_sale_price_alone_is_no_selling_question(catalog: Catalog) -> None:
    q = understand("i might sell my 3090 for $700 and buy a 4090, how much faster is it?", catalog)
    assert not q.selling


def test_money_said_in_an_earlier_turn_may_be_repeated(rules_advisor: Advisor) -> None:
    thread = "t-credits-carried"
    rules_advisor.ask(
        "vast has 4090s at $0.35/hr, and my lab gave me $40 of credit", thread_id=thread
    )
    answer = rules_advisor.ask(
        "about 100 hours needed. enough, or how much short?", thread_id=thread
    )
    assert answer.text.startswith("**Yes: your $40"), answer.text[:200]
    assert answer.grounding_rate == 1.0, [n.text for n in answer.numbers if not n.provenance]
