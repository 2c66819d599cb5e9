"""A rate said before its amount ("per hour 260 Ft", "napi 5 órát"), Hungarian's case endings on
an amount, Tagalog's "na" after a count, and rupiah and ringgit amounts."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.catalog import Catalog


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("óránként 300 Ft-ért bérelnék egy A100-at", "300 Ft-ért per hour"),
        ("napi 6 órát használnám", "6 hours per day"),
        ("havonta 20 napon", "20 days per month"),
        ("mga 3 oras bawat araw, 20 na araw sa isang buwan", "20 days per month"),
    ],
)
def test_a_rate_said_before_its_amount_is_put_after_it(question: str, said: str) -> None:
    assert said in to_english(question), to_english(question)


def test_english_keeps_its_own_word_order() -> None:
    text = "our budget per hour 3 dollars max, per day 8 hours"
    assert to_english(text) == text


def test_a_hungarian_price_with_its_case_ending_is_the_users(catalog: Catalog) -> None:
    q = understand(
        "Bérelek egy L40S-t óránként 420 Ft-ért, napi 4 órát, havonta 20 napon. Mennyi a havi "
        "költség?",
        catalog,
    )
    assert q.hours == 80.0
    assert q.currency.strip() == "HUF" and q.user_price_usd_per_hour == 420.0


@pytest.mark.parametrize(
    ("question", "code", "price"),
    [
        ("sewa RTX 4090 Rp 7.500 per jam selama 30 jam, total berapa?", "IDR", 7500.0),
        ("renting an L4 at RM 4 an hour for 100 hours, what's the total?", "MYR", 4.0),
        ("a 3090 for 5 ringgit per hour over 12 hours: the bill?", "MYR", 5.0),
    ],
)
def test_rupiah_and_ringgit_prices_are_read_in_their_currency(
    catalog: Catalog, question: str, code: str, price: float
) -> None:
    q = understand(question, catalog)
    assert q.currency.strip() == code and q.user_price_usd_per_hour == price, (q.currency, q)


def test_a_command_named_rm_is_no_ringgit(rules_advisor: Any) -> None:
    answer = rules_advisor.ask("rm 3 old checkpoints, then can a 4090 run llama 3.1 8b?")
    assert "MYR" not in answer.text


def test_the_rental_tool_gives_the_total_at_a_stated_exchange_rate() -> None:
    from advisor.tools import call_tool

    result = call_tool("rental_cost", {"usd_per_gpu_hour": 1.25, "hours": 40, "per_dollar": 83})
    assert result["usd"] == 50.0 and result["in_currency"] == 50.0 * 83
    assert "in_currency" not in call_tool("rental_cost", {"usd_per_gpu_hour": 1.25, "hours": 40})
    assert "error" in call_tool("rental_cost", {"usd_per_gpu_hour": 1, "hours": 1, "per_dollar": 0})


def test_a_dollar_total_is_also_given_in_the_currency_whose_rate_is_said(
    rules_advisor: Any,
) -> None:
    answer = rules_advisor.ask(
        "renting an A10 at $0.60/hr for 150 hours. what's that in dollars, and in rupees if "
        "one dollar is 84 INR?"
    )
    assert "$90" in answer.text
    assert "INR 7,560" in answer.text, answer.text[:400]


def test_a_thai_rent_or_buy_reads_the_hourly_rent_said_before_its_amount(catalog: Catalog) -> None:
    q = understand(
        "ซื้อ RTX 4080 ราคา 40,000 บาท หรือเช่าชั่วโมงละ 10 บาท ใช้วันละ 5 ชั่วโมง กี่ปีถึงจะคุ้มทุน",
        catalog,
    )
    assert q.intent == "rent_or_buy"
    assert q.user_price_usd_per_hour == 10.0 and q.use_hours_per_day == 5.0, q


def test_a_korean_break_even_question_is_a_rent_or_buy_question(catalog: Catalog) -> None:
    q = understand("RTX 4090을 사면 클라우드 대비 몇 년이면 본전을 뽑을 수 있나요?", catalog)
    assert q.intent == "rent_or_buy"
