"""Electricity bills as people write them: the unit spelled out ("a kilowatt-hour"), a month of a
stated length ("a 30-day month"), a machine that is no catalog GPU (a Mac, a mini PC) with its
draw said, the rest of the machine's draw said after the card's, a price per unit said before its
amount (Thai), a card's number before a word that is also a unit (Norwegian "min", my), and a
power cap weighed over the same hours and the same rest of the machine as the bill before it."""

from __future__ import annotations

import re

import pytest

from advisor.agent.phrasebook import to_english
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


def _money(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    assert found, text[:600]
    return float(found.group(1).replace(",", ""))


@pytest.mark.parametrize(
    ("question", "per_kwh"),
    [
        ("power here is 27 cents per kilowatt hour", 0.27),
        ("we pay $0.19 a kilowatt-hour", 0.19),
        ("tariff: 0.41 EUR per kW-h", 0.41),
    ],
)
def test_the_unit_spelled_out_is_a_kwh(catalog: Catalog, question: str, per_kwh: float) -> None:
    assert understand(question, catalog).usd_per_kwh == pytest.approx(per_kwh)


def test_pence_per_kilowatt_hour_is_in_pounds(catalog: Catalog) -> None:
    q = understand("my supplier charges 24p per kilowatt-hour", catalog)
    assert q.usd_per_kwh == pytest.approx(0.24) and q.currency == "£"


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("the box pulls 90 W and runs 3 hours a day; bill for a 31-day month at $0.20/kWh?", 93),
        ("5h daily, what is that over one 28-day month at 15c/kWh, 300 W", 140),
    ],
)
def test_a_month_of_stated_length_is_that_many_days(
    catalog: Catalog, question: str, hours: float
) -> None:
    assert understand(question, catalog).hours == pytest.approx(hours)


def test_a_machine_that_is_no_gpu_is_billed_at_its_stated_draw(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "Electricity is 25 cents a kilowatt-hour where I live. My little mini PC draws around 50 "
        "watts when it is generating text, maybe 3 hours a day. What would that cost me over a "
        "30-day month?"
    ).text
    head = text.split("\n", 1)[0]
    # 50 W x 90 h = 4.5 kWh at $0.25 = $1.125
    assert _money(r"\$([\d.]+) of electricity", head) == pytest.approx(1.125, rel=0.01)
    assert "90 hours" in head and "your machine" in head


def test_the_rest_said_after_the_card_is_the_rest(catalog: Catalog) -> None:
    q = understand(
        "the 3080 takes 320 W, the rest of the box about 120 W, 5 hours a day, 0.22/kWh, yearly "
        "cost?",
        catalog,
    )
    assert (q.draw_w, q.other_w) == (320.0, 120.0)


def test_the_rest_of_the_day_is_no_draw(catalog: Catalog) -> None:
    q = understand("it idles, then sits at 250W for the rest of the evening; 30c/kWh", catalog)
    assert q.draw_w == 250.0 and not q.other_w


def test_a_cards_number_before_min_is_no_duration(catalog: Catalog) -> None:
    # Norwegian "min" is "my"; "RTX 3090 min" is no 3,090 minutes
    q = understand("RTX 3090-en min bruker 350 W, 4 timer hver dag", catalog)
    assert q.hours is None or q.hours < 200


def test_a_norwegian_bill_counts_the_rest_of_the_machine(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "Skjermkortet mitt RTX 3080 trekker 320 W under last, og resten av maskinen omtrent "
        "100 W. Det går 5 timer hver dag, 30 dager i måneden. Strømprisen er 2,10 kr/kWh. Hva "
        "blir strømregningen per måned?"
    ).text
    head = text.split("\n", 1)[0]
    # (320 + 100) W x 150 h = 63 kWh at kr 2.10 = kr 132.3
    assert "63" in head and "kWh" in head
    assert _money(r"kr ([\d,.]+) of electricity", head) == pytest.approx(132.3, rel=0.01)


def test_a_thai_price_per_unit_said_first_is_per_kwh(catalog: Catalog) -> None:
    english = to_english("ค่าไฟหน่วยละ 3.9 บาท")
    assert "3.9 บาท per kwh" in english, english
    q = understand("การ์ด RTX 4070 กินไฟ 200 W ค่าไฟหน่วยละ 3.9 บาท", catalog)
    assert q.usd_per_kwh == pytest.approx(3.9) and q.currency.strip() == "THB"


def test_a_thai_bill_while_training_is_a_bill_not_a_training_time(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "เครื่องผมมี RTX 4070 กินไฟประมาณ 200 W ตัวเครื่องอีก 100 W เปิดเทรนวันละ 10 ชั่วโมง 30 วัน "
        "ค่าไฟหน่วยละ 4 บาท เดือนนึงค่าไฟเท่าไหร่"
    ).text
    head = text.split("\n", 1)[0]
    # (200 + 100) W x 300 h = 90 kWh at 4 baht = 360 baht
    assert "of electricity" in head
    assert _money(r"THB ([\d,.]+) of electricity", head) == pytest.approx(360, rel=0.01)


def test_every_day_of_the_year_is_a_year_of_those_days(catalog: Catalog) -> None:
    q = understand("my 4090 runs 6 hours a day every day of the year at 20c/kWh", catalog)
    assert q.hours == pytest.approx(6 * 365)


def test_a_cap_is_weighed_over_the_bills_own_hours_and_rest(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask(
        "three 3090s at 350 W apiece plus roughly 250 W for everything else, running 10 hours "
        "a day all year round at 25c/kWh. what is that per year, and what if I cap each card "
        "at 250 W?"
    ).text
    # the cap: (3 x 250 + 250) W x 3,650 h = 3,650 kWh at $0.25 = $912.50; uncapped: 1,300 W
    # x 3,650 h = 4,745 kWh = $1,186.25
    capped = _money(r"About \$([\d,.]+) \([\d,.]+ kWh\) at 250 W each", text)
    board = _money(r"against \$([\d,.]+) \([\d,.]+ kWh\) at the 350 W", text)
    assert capped == pytest.approx(912.5, rel=0.01)
    assert board == pytest.approx(1186.25, rel=0.01)
