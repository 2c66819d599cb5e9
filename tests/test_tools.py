"""The tools an agent calls: plain arguments in, JSON-ready dicts out, errors as text."""

from __future__ import annotations

import json
import math

import pytest

from advisor.retrieval.search import Searcher
from advisor.tools import (
    CARD_DOUBLING_PREMIUM,
    TOOLS,
    call_tool,
    compare_gpus,
    estimate_workload,
    gpu_specs,
    largest_model,
    prices,
    recommend_gpus,
    search_corpus,
    solve,
)


def test_every_tool_is_documented_and_registered() -> None:
    assert set(TOOLS) == {
        "search_corpus", "gpu_specs", "compare_gpus", "estimate", "solve", "recommend_gpus",
        "prices", "rental_cost", "rental_hours", "purchase_prices", "break_even", "model_specs",
        "list_gpus", "compare_workload", "pcie_links", "system_power", "electricity_cost",
        "token_cost", "request_cost", "paced_time", "paced_count", "largest_model", "service_cost",
        "carried_measurement",
        "stream_load", "load_replicas", "bill_rate", "cards_for_rate", "users_at_pace",
        "value_per_dollar",
        "train_time_at_mfu", "tokens_for_budget_at_mfu", "memory_together", "decode_ceiling",
        "in_us_dollars", "step_rate", "mixed_cards", "set_cost",
    }  # fmt: skip
    for tool in TOOLS.values():
        assert tool.__doc__ and len(tool.__doc__) > 60


def test_gpu_specs_and_errors_as_text() -> None:
    assert gpu_specs("L40")["bandwidth_gbs"] == 864
    error = gpu_specs("RTX 9999")["error"]
    assert error.startswith("Unknown GPU 'RTX 9999'. Did you mean:")
    assert "ambiguous" in gpu_specs("A100")["error"]


def test_compare_gpus_names_leaders() -> None:
    result = compare_gpus(["A100 SXM4 80GB", "L40S", "RTX 4090"])
    assert [g["id"] for g in result["gpus"]] == ["a100-sxm4-80gb", "l40s", "rtx-4090"]
    assert result["leader_by_field"]["bandwidth_gbs"] == "a100-sxm4-80gb"
    assert result["leader_by_field"]["tdp_w"] in {"l40s"}  # lowest power
    assert "at least two" in compare_gpus(["L4"])["error"]


def test_equal_values_lead_nobody() -> None:
    result = compare_gpus(["A100 SXM4 80GB", "H100 SXM"])  # both 80 GB
    assert "memory_gb" not in result["leader_by_field"]
    assert result["tied_fields"] == {"memory_gb": ["a100-sxm4-80gb", "h100-sxm5-80gb"]}
    assert result["leader_by_field"]["bandwidth_gbs"] == "h100-sxm5-80gb"


def test_estimate_and_solve() -> None:
    result = estimate_workload("Llama 3 8B", "RTX A4000", workload="finetune-qlora")
    assert result["fits"] is True and result["train_tokens_per_s"]["typical"] > 0
    assert "Unknown model" in estimate_workload("gpt-17", "L4")["error"]
    solved = solve("llama-3-70b", "H100 SXM5", "min_gpus", precision="bf16")
    assert solved["solution"] == 2 and solved["estimate"]["fits"]
    assert "Unknown target" in solve("llama-3-8b", "L4", "max_speed")["error"]


def test_largest_model_is_the_biggest_that_fits_and_names_the_next_size() -> None:
    result = largest_model("RTX 3090", precision="q4_k_m", family="Qwen2.5")
    e, above = result["estimate"], result["next_up"]
    assert e["model_name"] == "Qwen2.5-32B" and e["fits"]
    assert above["model_name"] == "Qwen2.5-72B"
    assert above["memory_per_gpu_gb"] > above["usable_memory_per_gpu_gb"]
    in_bf16 = largest_model("RTX 3090", precision="bf16", family="Qwen2.5")["estimate"]
    assert in_bf16["model_name"] in ("Qwen2.5-7B", "Qwen2.5-VL-7B")  # 14B in bf16 is 29 GB
    two = largest_model("RTX 4090", precision="nf4", num_gpus=2, family="llama")["estimate"]
    assert two["num_gpus"] == 2 and "70B" in two["model_name"]
    assert "No model of the family" in largest_model("L4", family="gpt-17")["error"]
    assert largest_model("RTX 3060", precision="bf16", family="Qwen2.5-72B")["estimate"] is None


def test_prices_tool() -> None:
    result = prices("H100 SXM5", offering="on-demand")
    summary = result["summary_usd_per_gpu_hour"]
    assert summary["low"] <= summary["median"] <= summary["high"]
    assert all(p["source"] and p["date"] for p in result["prices"])


def test_recommend_gpus_respects_constraints() -> None:
    result = recommend_gpus("llama-3-8b", workload="inference", precision="bf16", context=8192)
    ranked = result["ranked"]
    assert ranked and all(r["memory_per_gpu_gb"] <= r["usable_memory_per_gpu_gb"] for r in ranked)
    # by the cost of the work, each doubling of the cards counted CARD_DOUBLING_PREMIUM dearer
    priced = [r["usd_per_unit"] * (1 + CARD_DOUBLING_PREMIUM * math.log2(r["num_gpus"]))
              for r in ranked if r["usd_per_unit"] is not None]  # fmt: skip
    assert priced == sorted(priced)
    cheap = recommend_gpus("llama-3-8b", precision="bf16", max_usd_per_hour=1.0)
    assert cheap["ranked"] and all(r["usd_per_hour"] <= 1.0 for r in cheap["ranked"])
    assert any("budget" in r["reason"] for r in cheap["rejected"])
    low_power = recommend_gpus("llama-3-8b", precision="q4_k_m", max_power_w=150)
    assert low_power["ranked"]
    from advisor.catalog import load_catalog

    catalog = load_catalog()
    assert all((catalog.gpus[r["gpu"]].tdp_w or 0) <= 150 for r in low_power["ranked"])
    job = recommend_gpus("llama-3-8b", workload="finetune-lora", train_tokens=1e8,
                         max_usd_per_job=50)  # fmt: skip
    assert job["ranked"] and all(r["usd_per_unit"] <= 50 for r in job["ranked"])
    assert "per-job budget" in recommend_gpus("llama-3-8b", max_usd_per_job=10)["error"]
    amd = recommend_gpus("llama-3-70b", precision="bf16", vendor="AMD")
    assert amd["ranked"] and all(catalog.gpus[r["gpu"]].vendor == "AMD" for r in amd["ranked"])
    assert {r["gpu"] for r in amd["ranked"]} & {"mi300x", "mi325x"}


def test_call_tool_dispatch_and_bad_calls() -> None:
    assert call_tool("gpu_specs", {"gpu": "T4"})["memory_gb"] == 16
    assert "Unknown tool" in call_tool("launch_rockets", {})["error"]
    assert "Bad arguments" in call_tool("gpu_specs", {"name": "T4"})["error"]
    assert "must be an object" in call_tool("gpu_specs", ["T4"])["error"]  # type: ignore[arg-type]


def test_search_corpus_returns_passages_with_claim_verdicts(searcher: Searcher) -> None:
    result = search_corpus("L40 memory bandwidth", k=3, searcher=searcher)
    passages = result["passages"]
    assert len(passages) == 3 and passages[0]["doc"] == "a100-sxm4-40gb-vs-l40"
    claims = [c for p in passages for c in p["claims"]]
    l40 = [c for c in claims if c["field"] == "bandwidth_gbs" and "l40" in c["gpu_ids"]]
    assert l40 and all(c["status"] == "disagrees" for c in l40)
    json.dumps(result)  # JSON-ready
    assert "Give a question" in search_corpus("", searcher=searcher)["error"]


def test_search_corpus_ignores_a_gpu_filter_that_names_nothing(searcher: Searcher) -> None:
    result = search_corpus(
        "NVLink for multi-GPU training", k=2, gpu="NVIDIA GPU", searcher=searcher
    )
    assert len(result["passages"]) == 2
    assert result["notes"] == ["No GPU called 'NVIDIA GPU'; searched all passages instead."]
    kept = search_corpus("memory bandwidth", k=3, gpu="L40", searcher=searcher)
    assert "notes" not in kept and all("L40" in p["text"] for p in kept["passages"])


def test_prices_for_hours_multiplies_every_summary_price() -> None:
    result = prices("RTX A6000", hours=100, num_gpus=2)
    rent, summary = result["rental_usd"], result["summary_usd_per_gpu_hour"]
    assert rent["median"] == pytest.approx(200 * summary["median"])
    assert rent["low"] == pytest.approx(200 * summary["low"]) and result["count"] > 0
    assert "positive" in prices("RTX A6000", hours=0)["error"]
    assert "between 1 and 1024" in prices("RTX A6000", hours=5, num_gpus=0)["error"]


def test_electricity_is_the_draw_times_the_hours_at_the_users_price() -> None:
    from advisor.tools import call_tool

    stated = call_tool(
        "electricity_cost",
        {
            "usd_per_kwh": 0.25,
            "hours": 100,
            "gpu": "rtx-3090",
            "num_gpus": 2,
            "power_w": 300,
            "other_w": 200,
        },
    )
    assert (stated["kwh"], stated["usd"]) == (80.0, 20.0)  # (2 x 300 + 200) W x 100 h
    sheet = call_tool("electricity_cost", {"usd_per_kwh": 0.2, "hours": 10, "gpu": "rtx-4090"})
    assert sheet["power_w"] == 450 and sheet["power_source"].startswith("datasheet")
    assert "power_w" in call_tool("electricity_cost", {"usd_per_kwh": 0.2, "hours": 10})["error"]


def test_a_million_tokens_cost_the_hourly_price_over_the_tokens_an_hour() -> None:
    from advisor.tools import call_tool

    got = call_tool("token_cost", {"usd_per_gpu_hour": 1.8, "tokens_per_s": 500, "num_gpus": 2})
    assert got["usd_per_million_tokens"] == pytest.approx(2 * 1.8 / (500 * 3600) * 1e6)
    assert "error" in call_tool("token_cost", {"usd_per_gpu_hour": 1.0, "tokens_per_s": 0})


def test_largest_model_takes_every_family_its_name_begins_and_the_workload() -> None:
    mistral = largest_model("L4", precision="q4_k_m", family="mistral")["estimate"]
    assert mistral["model_name"].startswith("Mistral-Small")  # not only the family "Mistral"
    qwen3 = largest_model("H200 SXM", precision="fp8", num_gpus=8, family="qwen3")["estimate"]
    assert "Qwen3" in qwen3["model_name"] and "3.5" not in qwen3["model_name"]
    lora = largest_model("RTX 4090", workload="finetune-lora")["estimate"]
    assert lora["workload"] == "finetune-lora" and lora["fits"]
