"""The real local engine end to end: Qwen2.5-Coder-1.5B-Instruct (GGUF) in llama.cpp, offline.

`make test` fetches the model (`gpu-advisor llm pull`) before pytest runs, so CI runs these.
Each test asserts the model called the right tool and that every number it wrote is grounded
(the answer came from the local engine itself, not from the rules fallback).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from advisor.agent.pull import MODEL_BYTES, model_file

# resolved at import, before the autouse fixture points HOME at a temporary folder
MODEL = Path(os.environ.get("ADVISOR_LLM_PATH") or model_file())

pytestmark = [pytest.mark.llm, pytest.mark.slow]

CASES = [
    ("What is the memory bandwidth of the L40?", "gpu_specs", "864"),
    ("Is the RTX 4090 faster than the RTX 3090?", "compare_gpus", None),
    ("What will 100 hours on an A6000 cost?", "prices|rental_cost", None),  # either is right
    ("Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?", "estimate", None),
    ("What do the articles say about NVLink for multi-GPU training?", "search_corpus", None),
]


@pytest.fixture(scope="module")
def local_advisor(searcher: Any) -> Any:
    from advisor.api import Advisor

    assert MODEL.is_file() and MODEL.stat().st_size == MODEL_BYTES, (
        f"The local model is missing at {MODEL}: run `gpu-advisor llm pull` (make test does)."
    )
    os.environ["ADVISOR_LLM_PATH"] = str(MODEL)
    try:
        advisor = Advisor(engine="local", searcher=searcher)
        advisor._get_model("local")  # load while the path is set
    finally:
        del os.environ["ADVISOR_LLM_PATH"]
    return advisor


@pytest.mark.parametrize(("question", "tool", "must_say"), CASES, ids=[c[1] for c in CASES])
def test_local_model_calls_the_right_tool_and_grounds_every_number(
    local_advisor: Any, question: str, tool: str, must_say: str | None
) -> None:
    answer = local_advisor.ask(question)
    assert answer.engine == "local", answer.warnings
    assert set(tool.split("|")) & {t.name for t in answer.tool_calls}
    assert answer.grounding_rate == 1.0
    assert all(n.provenance for n in answer.numbers)
    if must_say:
        assert must_say in answer.text


def test_local_follow_up_sees_the_previous_turn(local_advisor: Any) -> None:
    local_advisor.ask("What is the memory bandwidth of the L40?", thread_id="local-1")
    answer = local_advisor.ask("And how much memory does it have?", thread_id="local-1")
    assert answer.engine in ("local", "rules") and answer.grounding_rate == 1.0
    assert "48" in answer.text  # the L40's 48 GB, whichever engine wrote it


def test_whatever_the_model_says_no_datasheet_contradiction_reaches_the_user(
    local_advisor: Any,
) -> None:
    # This model once wrote "Both GPUs have a bandwidth of 3350GB/s" for the H100 and A100:
    # the guard must refuse that and give the rules answer, or the model must get it right.
    from advisor.retrieval.claims import audit_claim, extract_claims

    answer = local_advisor.ask("Compare the H100 SXM and the A100 SXM4 80GB")
    claims = [audit_claim(c) for c in extract_claims(answer.text, terse=True)]
    assert not [c for c in claims if c.status == "disagrees"]
    assert answer.grounding_rate == 1.0
    if answer.engine == "rules":
        assert any("refused" in w for w in answer.warnings)
        assert "2,039 GB/s" in answer.text and "3,350 GB/s" in answer.text


def test_every_completion_is_capped_on_the_tool_call_path_too(local_advisor: Any) -> None:
    # llama-cpp-python writes tool arguments with no token limit (a tool call once ran to the end
    # of the context, 12 minutes): every completion it makes, its handler's too, gets the cap
    from advisor.agent.llm import _capped, _llama, tool_schemas

    model = local_advisor._get_model("local")
    llama = _llama(model.model_path, model.n_ctx)
    seen: list[int] = []  # the max_tokens each completion gets, behind the cap
    original = llama.create_completion
    llama.create_completion = lambda *a, **k: seen.append(k["max_tokens"]) or original(*a, **k)
    with _capped(llama, 5):
        out = llama.create_completion("Count to one hundred: 1, 2, 3,", max_tokens=None)
        llama.create_chat_completion(
            messages=[{"role": "user", "content": "Bandwidth of the L40?"}],
            tools=tool_schemas(),
            tool_choice="auto",
        )
    assert out["usage"]["completion_tokens"] == 5
    assert len(seen) >= 2 and set(seen) == {5}  # the handler's own completions were capped
    assert "create_completion" not in vars(llama)  # and the cap is lifted afterwards


def test_one_case_of_the_ci_subset_through_the_evaluation_and_the_judge(
    local_advisor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `make eval-local` runs all 12 subset cases with the judge (about 15 minutes); here one case
    # goes the same way, so that the evaluation on the local engine cannot break unseen
    from advisor.evaluation.runner import SUBSET, Report, judge_faithfulness, run_cases
    from advisor.evaluation.scoring import load_cases

    case = next(c for c in load_cases() if c.id == "spec-4090-tdp")
    assert case.id in SUBSET
    report = Report("local", run_cases([case], local_advisor, "local"))
    summary = report.summary()
    assert report.failures_against_thresholds() == [], summary
    assert summary["grounding"] == 1.0 and summary["citation_integrity"] == 1.0
    monkeypatch.setenv("ADVISOR_LLM_PATH", str(MODEL))
    judged = judge_faithfulness(report.scores, "local")
    assert judged["answers"] == 1 and judged["faithful_share"] in (0.0, 1.0)
