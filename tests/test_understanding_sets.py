"""The understanding step on questions not written in the parser's image: the generated
paraphrase suite, the natural split of the golden set, and a walk of the whole catalog under
many spellings. The figures and their targets are in eval/results/understanding.md
(python -m eval.bench_understanding); these tests hold the floors that must never slip."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.understand import understand
from advisor.catalog import load_catalog
from advisor.errors import InvalidInput
from advisor.evaluation import paraphrase, understanding
from advisor.evaluation.spellings import catalog_walk


@pytest.fixture(scope="module")
def catalog() -> Any:
    return load_catalog()


def test_the_paraphrase_suite_is_read_at_98_percent_and_never_as_another_entry(
    catalog: Any,
) -> None:
    result = paraphrase.run_suite(catalog)
    assert result["cases"] >= 2000
    assert result["field_accuracy"] >= 0.98, result["failures"][:20]
    assert result["wrong_entities"] == []


def test_the_paraphrase_suite_covers_every_gpu_and_model(catalog: Any) -> None:
    from advisor.calculator import FAMILIES
    from advisor.calculator.families import models_of

    cases = paraphrase.generate(catalog)
    gpus = {g for c in cases for g in c.expect.get("gpus", [])}
    models = {m for c in cases for m in c.expect.get("models", [])}
    assert gpus == set(catalog.gpus)
    every_model = {m for fam in FAMILIES.values() for m in models_of(catalog, fam)}
    assert models == every_model


def test_every_catalog_entry_under_five_spellings_is_itself_or_unread(catalog: Any) -> None:
    walk = catalog_walk(catalog)
    assert walk["asked"] >= 5 * (len(catalog.gpus) + len(catalog.models))
    assert walk["wrong"] == []  # never another entry
    assert walk["unread"] == []  # and, today, never missed either


def _natural(catalog: Any, split: str) -> dict[str, Any]:
    scores = []
    for case in understanding.load_natural():
        if understanding.split_of(case["id"]) != split:
            continue
        previous, query = None, None
        try:
            for turn in case["turns"]:
                query = understand(turn, catalog, previous)
                previous = query.context_dict()
        except InvalidInput:
            continue
        assert query is not None
        scores.append(understanding.score_case(case, query, catalog))
    return understanding.summary(scores)


@pytest.mark.parametrize(("split", "floor"), [("dev", 0.95), ("held-out", 0.93)])
def test_the_natural_split_is_read_above_its_floor_and_never_as_another_entry(
    catalog: Any, split: str, floor: float
) -> None:
    # floors at today's figures (issue 14's target is 98%): a change that reads people's own
    # words worse fails here; the held-out half was never looked at while tuning
    result = _natural(catalog, split)
    assert result["cases"] >= 200
    assert result["field_accuracy"] >= floor, result["per_field"]
    assert result["wrong_entities"] == []


def test_the_natural_set_has_300_cases_with_unique_ids_and_expected_queries() -> None:
    cases = understanding.load_natural()
    ids = [c["id"] for c in cases]
    assert len(cases) >= 300 and len(set(ids)) == len(ids)
    assert all(c["turns"] and c.get("query", {}).get("intent") for c in cases)
    follow_ups = [c for c in cases if len(c["turns"]) > 1]
    assert len(follow_ups) >= 20


@pytest.mark.parametrize(
    "question",
    [
        "",
        "   ",
        "🚀🔥💯",
        "x" * 10_000,
        "SELECT name FROM gpus; DROP TABLE gpus; --",
        "¿Cuánta memoria tiene la RTX 4090?",
        "4090能跑70B的模型吗",
        "\x00\x01\x02",
    ],
)
def test_bad_input_gets_a_reply_in_words(rules_advisor: Any, question: str) -> None:
    try:
        answer = rules_advisor.ask(question)
    except InvalidInput as exc:
        assert len(str(exc)) > 20  # a sentence saying what is wrong, never a traceback
    else:
        assert answer.text.strip() and answer.grounding_rate == 1.0
