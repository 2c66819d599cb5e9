"""Parts of a question a blind round found dropped: the context a setup allows asked beside its
fit, GPU-hours asked of a pre-training run, a serving throughput asked with the engine named,
and "for this" after a job carrying the job to other cards. Each phrasing is the test's own."""

from __future__ import annotations

import re

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import load_catalog
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


def test_the_context_asked_beside_a_fit_is_solved() -> None:
    q = understand("does qwen2.5 32b q4 fit my 4090, and what context could i realistically "
                   "get out of it", load_catalog())  # fmt: skip
    assert any(o.target == "max_context" for o in [q, *q.also])


def test_gpu_hours_asked_lead_before_the_wall_time(rules_advisor: Advisor) -> None:
    first = _head(_ask(rules_advisor, "pretraining a 3b model on 300B tokens, about how many "
                                      "h100 hours would that be?").text)  # fmt: skip
    assert re.search(r"about [\d,]+ GPU-hours on the NVIDIA H100", first), first


def test_gpu_hours_over_several_cards_lead_before_their_wall_time(rules_advisor: Advisor) -> None:
    first = _head(_ask(rules_advisor, "how many H100 hours would pretraining a 7b on 800b "
                                      "tokens need?").text)  # fmt: skip
    assert first.index("GPU-hours") < first.index("of wall time"), first


def test_serving_throughput_with_an_engine_leads_with_full_load(rules_advisor: Advisor) -> None:
    first = _head(
        _ask(
            rules_advisor,
            "serving mixtral 8x7b with vllm on 2x a100 80gb sxm, what "
            "throughput in tokens per second can we expect",
        ).text
    )
    assert "in total" in first and "at full load" in first, first


def test_for_this_after_a_job_carries_the_job(rules_advisor: Advisor) -> None:
    answers = _thread(rules_advisor,
                      "pretrain a 1b model on 20b tokens on rented h100s, how long?",
                      "would l40s be cheaper for this")  # fmt: skip
    assert "for the job" in _head(answers[1]), answers[1][:300]
    assert "L40S" in _head(answers[1])
