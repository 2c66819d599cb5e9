"""Money in another currency than the dollar: a budget or a price found, read in US dollars at
the European Central Bank's reference rates on record (advisor/data/exchange_rates.yaml)."""

from __future__ import annotations

import pytest

from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.specs import ExchangeRate
from advisor.tools import in_us_dollars
from tests.asking import ask_grounded, head


def test_every_rate_is_positive_dated_and_sourced(catalog: Catalog) -> None:
    rates = catalog.table("exchange_rates", ExchangeRate)
    assert {"EUR", "USD", "GBP", "INR", "JPY"} <= set(rates)
    assert rates["EUR"].per_euro == 1.0
    for rate in rates.values():
        assert rate.per_euro > 0 and rate.date == "2026-05-08" and "ecb.europa.eu" in rate.source


def test_an_amount_is_turned_into_dollars_through_the_euro() -> None:
    # 0.86410 GBP and 1.1761 USD to the euro on 2026-05-08: a pound is 1.1761 / 0.86410 dollars
    result = in_us_dollars(2000, "gbp")
    assert result["currency"] == "GBP"
    assert result["usd"] == pytest.approx(2000 * 1.1761 / 0.86410)
    assert result["per_usd"] == pytest.approx(0.86410 / 1.1761)
    assert in_us_dollars(1000, "USD")["usd"] == pytest.approx(1000)


@pytest.mark.parametrize(("amount", "currency"), [(100, "RUB"), (100, "XYZ"), (-5, "EUR")])
def test_no_rate_or_a_negative_amount_is_a_clear_error(amount: float, currency: str) -> None:
    result = in_us_dollars(amount, currency)
    assert set(result) == {"error"}
    assert currency in result["error"] or "0 or more" in result["error"]


@pytest.mark.parametrize(
    ("question", "dollars", "code"),
    [
        ("best gpu for running llama 3 70b under £2000", "$2,722", "GBP"),
        ("budget is ₹80,000, which card for fine-tuning 7b models with qlora", "$847", "INR"),
        ("I want to buy a GPU, my budget is around 1200 CAD, for training yolov8", "$879", "CAD"),
        ("250,000 yen budget, best gpu for local llm", "$1,595", "JPY"),
    ],
)
def test_a_budget_in_another_currency_is_read_in_dollars(
    rules_advisor: Advisor, question: str, dollars: str, code: str
) -> None:
    text = ask_grounded(rules_advisor, question).text
    assert head(text).startswith("**Pick")
    assert f"{code} is taken as {dollars}" in text and "2026-05-08" in text
    assert "no exchange rate" not in text


def test_the_budget_in_dollars_filters_the_cards(rules_advisor: Advisor) -> None:
    # £2,000 is $2,722: a card that costs more than $2,000 and less than $2,722 may be picked
    text = ask_grounded(rules_advisor, "best gpu for running llama 3 70b under £2000").text
    first = head(text)
    assert "to buy" in first
    price = float(first.split(" to buy")[0].rsplit("$", 1)[1].replace(",", ""))
    assert price <= 2722


def test_a_price_found_in_pounds_is_judged_in_dollars(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "found a used 3090 for 800 pounds, good deal?").text
    assert head(text).startswith("**Yes: £800 (about $1,089 at the European Central Bank's rate")
    assert "depending on the exchange rate" not in text


def test_a_currency_with_no_rate_is_left_unconverted(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "best gpu for llama 3 8b, budget 150000 rub").text
    assert "European Central Bank" not in text
    assert "no exchange rate on record" in text
