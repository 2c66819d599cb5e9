"""The number guard: reading numbers with units, and tracing them to their sources."""

from __future__ import annotations

import pytest

from advisor.agent.guard import check, matches, read_numbers, source_numbers


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("2,039 GB/s", 2039.0, "bandwidth"),
        ("2.04 TB/s", 2040.0, "bandwidth"),
        ("16.06 GB", 16.06, "memory"),
        ("80 gigs", 80.0, "memory"),
        ("24 GiB", 24 * 1.073741824, "memory"),
        ("$1.29", 1.29, "usd"),
        ("$1,234", 1234.0, "usd"),
        ("300 W", 300.0, "power"),
        ("989 TFLOPS", 989.0, "flops"),
        ("85%", 85.0, "percent"),
        ("8k", 8000.0, None),
        ("7B", 7e9, None),
        ("100 hours", 100.0, "hours"),
        ("42.5 tokens/s", 42.5, "rate"),
        ("-3.5", -3.5, None),
    ],
)
def test_numbers_are_read_with_their_unit(text: str, value: float, unit: str | None) -> None:
    (number,) = read_numbers(f"about {text} here")
    assert number.value == pytest.approx(value) and number.family == unit


@pytest.mark.parametrize(
    "text",
    [
        "A100",
        "the RTX 4090",
        "Llama-3-8B",
        "Qwen2.5 7B",
        "fp16 and bf16",
        "q4_k_m",
        "see [2]",
        "L40S 48GB",
        "Mixtral 8x7B",
        "https://example.com/a4000-16g",
        "H100 SXM5 80GB",
        "ViT-L-16 (ViT-Large, patch 16)",  # the workload families' models are names too
        "CLIP ViT-L/14 (image encoder)",  # (fuzz: "VIT0" got these as suggestions)
    ],
)
def test_digits_in_names_are_not_numbers(text: str) -> None:
    assert read_numbers(text) == []


@pytest.mark.parametrize(
    ("written", "source", "ok"),
    [
        ("16.06 GB", 16.0634, True),  # rounded to the digits shown
        ("16.1 GB", 16.0634, True),
        ("16 GB", 16.4, True),  # within a whole GB as written
        ("1.56 TB/s", 1555.0, True),  # TB/s written for GB/s
        ("8k", 8192.0, True),  # 8k context is 8192 tokens
        ("7B", 7.24e9, True),
        ("24 GiB", 25.77, True),  # 24 GiB = 25.77 GB
        ("1 TB/s", 864.0, False),  # 0.864 rounds to 1, but that is no rounding
        ("6.7 GB", -6.71, True),  # "6.7 GB short" of a negative headroom
        ("128 GB/s", 864.0, False),
        ("17 GB", 16.06, False),
        ("$2.10", 2.0, False),
    ],
)
def test_matching_tolerates_rounding_and_units_only(written: str, source: float, ok: bool) -> None:
    (number,) = read_numbers(written)
    assert matches(number, source) is ok


def test_check_names_the_source_of_each_number_and_catches_the_rest() -> None:
    sources = {
        "tool:gpu_specs#1": source_numbers({"bandwidth_gbs": 864.0, "memory_gb": 48.0}),
        "passage:p1": read_numbers("an article says 1TB/s", skip_names=False),
        "question": read_numbers("for 100 hours", skip_names=False),
    }
    result = check("The L40 has 864 GB/s and 48 GB; the article says 1 TB/s; 100 hours; 7 GPUs "
                   "at 128 GB/s.", sources)  # fmt: skip
    assert [(n.text, w) for n, w in result.grounded] == [
        ("864 GB/s", "tool:gpu_specs#1"), ("48 GB", "tool:gpu_specs#1"),
        ("1 TB/s", "passage:p1"), ("100 hours", "question"),
    ]  # fmt: skip
    assert [n.text for n in result.ungrounded] == ["7", "128 GB/s"]
    assert not result.ok and result.rate == pytest.approx(4 / 6)


def test_numbers_inside_strings_of_a_tool_result_count() -> None:
    found = source_numbers({"assumptions": ["context not given: 4096 tokens assumed"]})
    assert any(n.value == 4096 for n in found)


def test_text_without_numbers_is_fully_grounded() -> None:
    assert check("No numbers here.", {}).rate == 1.0


@pytest.mark.parametrize(
    ("text", "value"), [("1e-06 GB", 1e-06), ("2.5E9", 2.5e9), ("1e999", float("inf"))]
)
def test_exponent_notation_is_one_number(text: str, value: float) -> None:
    (number,) = read_numbers(text)
    assert number.value == value


def test_list_positions_are_not_numbers() -> None:
    text = "1. **RTX A4000**: 3.34 GB\n2. **RTX 4090**: 23.1 GB\n 10) more"
    assert [n.text for n in read_numbers(text)] == ["3.34 GB", "23.1 GB"]


def test_a_ratio_of_rounded_figures_is_traced_within_their_rounding() -> None:
    from advisor.agent.guard import _quotient_of, read_numbers

    figures = read_numbers("0.039 images/s against 0.019 images/s")
    assert _quotient_of(read_numbers("2.09x")[0], figures)  # 0.0385/0.0195 to 0.0395/0.0185
    assert not _quotient_of(read_numbers("2.30x")[0], figures)


def test_amounts_in_other_currencies_are_money_of_their_own() -> None:
    pounds, euros, dollars = read_numbers("£600, €2.50 and $3")
    assert (pounds.family, euros.family, dollars.family) == ("money £", "money €", "usd")
    # "1.71x the price" of the user's £600 over £350 is traced; pounds over dollars are not
    said = source_numbers("a 3090 for £600 or a T4 for £350, electricity 28p per kWh")
    assert check("the 3090 for 1.71x the price (£600 against £350)", {"question": said}).ok
    assert not check("1.71x the price (£600 against $350)", {"question": said}).ok


def test_seconds_of_an_hours_figure_are_traced_as_rounded() -> None:
    # 0.365 s of an estimate's 0.0001014 h, written "0.37 s": 1.4% off, within its rounding
    said = read_numbers("about 0.37 s")[0]
    assert matches(said, 0.365 / 3600)
    assert not matches(said, 0.35 / 3600)  # beyond what rounding to 0.01 s allows


def test_every_engine_checks_against_the_same_user_words() -> None:
    """The thread's last three questions and this one's carried names are what the user said,
    for the rules engine's check (api) and the LLM engines' guard (graph) alike."""
    from advisor.agent.toolbox import ToolBox
    from advisor.agent.turn import EARLIER_SAID, Turn, plan

    asked = ("first: 1 GB", "£450 for a used a4000, 50,000 emails", "then 7 hours", "and 9 days")
    turn = Turn(box=ToolBox(), earlier=asked)
    plan(turn, "what about on two of them?", None)
    said = turn.said("what about on two of them?")
    assert EARLIER_SAID == 3
    assert "first: 1 GB" not in said  # older than the last three
    assert all(q in said for q in asked[1:])
    assert said.startswith(" ".join(asked[1:]))
    grounded, _refs = turn.box.check("It costs £450 and reads 50,000 emails.", said, [])
    assert not grounded.ungrounded
    assert turn.box.check("It costs £600.", said, [])[0].ungrounded
