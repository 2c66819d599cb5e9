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
