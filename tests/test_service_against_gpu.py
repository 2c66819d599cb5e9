"""A pay-per-use service set against renting a GPU: its price read per unit (audio minute or
hour, image, million tokens), billed by the `service_cost` tool on the same work, and the
verdict first."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.understand import understand
from advisor.catalog import Catalog, load_catalog
from advisor.tools import service_cost


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("the transcription vendor bills $0.01 per minute of audio", (0.01, "audio minute")),
        ("Rev-style service: $1.50 per audio hour", (1.5, "audio hour")),
        ("stock API wants $0.035/image", (0.035, "image")),
        ("hosted model is $0.90 per million tokens", (0.9, "million tokens")),
        ("gateway charges $0.002 per 1k tokens", (2.0, "million tokens")),
        ("0.05 per image from the agency", (0.05, "image")),
        ("a 4090 at $0.40/h", None),
    ],
)
def test_a_services_price_is_read_per_unit(
    catalog: Catalog, question: str, price: tuple[float, str] | None
) -> None:
    q = understand(question, catalog)
    assert (
        q.service_price == (pytest.approx(price[0]), price[1]) if price else q.service_price is None
    )


def test_a_services_price_is_no_budget_and_the_gpus_price_stays(catalog: Catalog) -> None:
    q = understand("vendor: $0.004 per audio minute. or an L4 at $0.70 per hour?", catalog)
    assert q.budget is None and q.user_price_usd_per_hour == 0.7


def test_the_service_bill_is_units_times_price() -> None:
    bill = service_cost(0.006, 120_000, "audio minute")
    assert bill["usd"] == pytest.approx(720.0) and bill["price_source"] == "given by the user"
    assert "unit is one of" in service_cost(0.006, 10, "page")["error"]  # a tool's error result
    assert "must be positive" in service_cost(-1.0, 10, "image")["error"]


@pytest.mark.parametrize(
    ("question", "opens", "figures"),
    [
        # 300 h of audio at 90 s per hour on one A10G: 7.5 h x $1.00 = $7.50; 18,000 min x $0.006
        ("300 hours of interviews to transcribe. a service wants $0.006 per audio minute; an A10G "
         "at $1.00/h did one hour of audio in 90 seconds. which is cheaper?",
         "**Renting the GPU is cheaper", ("$7.50", "$108")),
        # 2 s per image, 500 images on an H100 at $3/h: 0.278 h, $0.833; 500 x $0.001 = $0.50
        ("API at $0.001 per image, or an H100 at $3/h that makes an image in 2 s: for 500 "
         "images which is cheaper?",
         "**The service is cheaper", ("$0.50",)),
        # $2/h over 1,000 tok/s x 3,600 = $0.556 per million, against $0.20
        ("an endpoint costs $0.20 per 1M tokens; my A100 at $2/h does 1,000 tok/s. cheaper?",
         "**The service is cheaper per million tokens", ("$0.556", "$0.20")),
    ],
)  # fmt: skip
def test_the_verdict_comes_first_with_both_bills(
    rules_advisor: Any, question: str, opens: str, figures: tuple[str, ...]
) -> None:
    answer = rules_advisor.ask(question, thread_id=f"service-{hash(question)}")
    assert answer.text.startswith(opens), answer.text[:300]
    assert all(f in answer.text for f in figures) and answer.grounding_rate == 1.0
