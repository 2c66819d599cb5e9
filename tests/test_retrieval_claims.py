"""Spec claims in the articles, checked against the datasheet table, the calculator, the
interconnect data and the purchase prices; scored against the hand-made truth file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from advisor.catalog import load_catalog
from advisor.retrieval.claim_reading import mentions, sentences
from advisor.retrieval.claims import (
    CLAIMS_VERSION,
    Claim,
    audit_claim,
    extract_claims,
    find_gpus,
)
from advisor.retrieval.index import INDEX_STAMP
from advisor.retrieval.ingest import chunk_document, clean_markdown, read_document
from eval import claims_audit
from tests.test_retrieval_ingest import ARTICLES

AUDIT = claims_audit.audit_corpus()
TRUTH = claims_audit.load_truth()
SCORE = claims_audit.score(TRUTH, AUDIT)


def _verdicts(text: str, **kwargs: Any) -> list[tuple[str, Any, str]]:
    return [(c.field, c.value, audit_claim(c).status) for c in extract_claims(text, **kwargs)]


# ---------------------------------------------------------------- against the truth file


def test_the_audit_flags_the_articles_wrong_claims_and_no_right_one() -> None:
    """Issue 16: at least 14 of the articles' wrong claims flagged, no false alarm (a right
    claim flagged, or a flag on a claim the truth file does not list)."""
    summary = SCORE.summary()
    assert summary["wrong_flagged"] >= 14, [e["quote"] for e in SCORE.missed]
    assert SCORE.false_alarms == [] and SCORE.unlisted_flags == []
    assert summary["right_checked"] >= summary["right_claims"] * 0.8


def test_the_truth_file_quotes_the_articles_and_the_catalog() -> None:
    texts = {
        d.doc_id: " ".join(clean_markdown(d.body).split())
        for d in (read_document(p) for p in ARTICLES)
    }
    gpus = load_catalog().gpus
    wrong = [e for e in TRUTH if e["verdict"] == "wrong"]
    assert len(wrong) >= 18 and len(TRUTH) - len(wrong) >= len(wrong)
    for entry in TRUTH:
        assert entry["verdict"] in ("wrong", "right")
        assert entry["quote"] in texts[entry["doc"]], entry["quote"]
        assert entry["gpu"] in gpus and set(entry.get("gpus", [])) <= set(gpus)
        field, sheet = entry["field"], entry["datasheet"]
        if field in ("memory_gb", "bandwidth_gbs", "cuda_cores", "tensor_cores", "tdp_w"):
            for gpu_id, value in (
                sheet if isinstance(sheet, dict) else {entry["gpu"]: sheet}
            ).items():
                assert getattr(gpus[gpu_id], field) == value, (entry["quote"], gpu_id)


def test_the_report_script_writes_its_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["claims_audit", "--out", str(tmp_path)])
    claims_audit.main()
    report = (tmp_path / "claims_audit.md").read_text(encoding="utf-8")
    flagged = re.search(r"\| wrong claims flagged \| (\d+) \|", report)
    assert flagged and int(flagged.group(1)) == len(SCORE.flagged)
    assert (tmp_path / "claims_audit.json").exists()


def test_scoring_counts_a_flag_on_a_right_claim_as_a_false_alarm() -> None:
    entry = {"doc": "d", "quote": "48GB", "gpu": "l40", "field": "memory_gb", "stated": 48,
             "datasheet": 48, "verdict": "right"}  # fmt: skip
    row = {"doc": "d", "gpu_ids": ["l40"], "field": "memory_gb", "value": 48.0,
           "status": "disagrees", "quote": "48GB", "gpu_text": "L40", "note": ""}  # fmt: skip
    assert len(claims_audit.score([entry], [row]).false_alarms) == 1
    assert len(claims_audit.score([], [row]).unlisted_flags) == 1


# ---------------------------------------------------------------- spec values in tables and prose


@pytest.mark.parametrize(
    ("doc", "gpu", "field", "value", "datasheet"),
    [
        ("a100-vs-rtx-4090-laptop", "a100-sxm4-40gb", "cuda_cores", 7680, 6912),
        ("a100-vs-rtx-4090-laptop", "rtx-4090-laptop", "cuda_cores", 16384, 9728),
        ("a100-sxm4-40gb-vs-l40", "l40", "bandwidth_gbs", 1000, 864),
        ("a100-sxm4-40gb-vs-l40", "l40", "cuda_cores", 18432, 18176),
        ("a100-sxm4-40gb-vs-l40", "l40", "release_year", 2023, 2022),
        ("a5000-vs-a4000-tensorflow", "rtx-a4000", "bandwidth_gbs", 512, 448),
        ("a6000-vs-a100-for-ml", "a100-sxm4-80gb", "bandwidth_gbs", 1935, 2039),
    ],
)
def test_known_article_errors_are_flagged(
    doc: str, gpu: str, field: str, value: float, datasheet: float
) -> None:
    rows = [r for r in AUDIT if r["doc"] == doc and r["field"] == field and r["value"] == value]
    assert rows, "claim not extracted"
    for row in rows:
        assert row["status"] == "disagrees"
        assert gpu in row["gpu_ids"] and row["datasheet"][gpu] == datasheet


@pytest.mark.parametrize(
    ("doc", "gpu", "field", "value"),
    [
        ("a6000-vs-a100-for-ml", "rtx-a6000", "cuda_cores", 10752),
        ("a6000-vs-a100-for-ml", "a100-sxm4-80gb", "fp16_bf16_sparse_tflops", 624),
        ("a6000-vs-a100-for-ml", "rtx-a6000", "int8_sparse_tops", 624),
        ("a5000-vs-a4000-tensorflow", "rtx-a5000", "memory_gb", 24),
        ("a5000-vs-a4000-tensorflow", "rtx-a4000", "fp32_tflops", 19.2),
        ("a100-sxm4-40gb-vs-l40", "a100-sxm4-40gb", "bandwidth_gbs", 1600),
        ("a100-vs-rtx-4090-laptop", "a100-pcie-40gb", "bandwidth_gbs", 1555),
    ],
)
def test_correct_claims_agree(doc: str, gpu: str, field: str, value: float) -> None:
    rows = [r for r in AUDIT if r["doc"] == doc and r["field"] == field and r["value"] == value]
    assert rows and all(r["status"] == "agrees" for r in rows)
    assert any(gpu in r["gpu_ids"] for r in rows)


def test_table_columns_decide_the_gpu() -> None:
    text = (
        "| Feature | NVIDIA L4 | NVIDIA T4 |\n| --- | --- | --- |\n"
        "| Memory | 24GB GDDR6 | 16GB GDDR6 |\n| Memory Bandwidth | 300 GB/s | 320 GB/s |"
    )
    claims = {(c.gpu_ids, c.field, c.value) for c in extract_claims(text)}
    assert (("l4",), "memory_gb", 24) in claims and (("t4",), "bandwidth_gbs", 320) in claims
    assert (("t4",), "memory_type", "GDDR6") in claims


def test_flattened_tables_and_label_lines() -> None:
    flat = "| Feature |\nNVIDIA L4 |\nNVIDIA T4 |\n| CUDA Cores |\n7424 |\n2560 |"
    claims = {(c.gpu_ids, c.value) for c in extract_claims(flat)}
    assert claims == {(("l4",), 7424), (("t4",), 2560)}
    labelled = "NVIDIA A10:\n* CUDA Cores: 9216\n* Memory: 24GB GDDR6"
    assert {(c.gpu_ids, c.field) for c in extract_claims(labelled)} == {
        (("a10",), "cuda_cores"), (("a10",), "memory_gb"), (("a10",), "memory_type"),
    }  # fmt: skip


def test_sparse_figure_quoted_as_dense_is_explained() -> None:
    [claim] = extract_claims("The H100 SXM5 delivers 1979 TFLOPS of FP16 tensor performance.")
    verdict = audit_claim(claim)
    assert verdict.status == "disagrees" and "sparsity" in verdict.note


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the field is named in the sentence before the figure
        ("Tensor performance is where the A5000 excels. It offers 111.1 TFLOPS.",
         [("fp16_bf16_dense_tflops", 111.1, "agrees")]),
        ("Tensor performance is where the A5000 excels. It offers 150 TFLOPS.",
         [("fp16_bf16_dense_tflops", 150, "disagrees")]),
        # the explicit precision wins over "tensor"
        ("TF32 Tensor Performance of the A100 80GB: 156 TFLOPS",
         [("tf32_dense_tflops", 156, "agrees")]),
        # ray-tracing TFLOPS have no datasheet field
        ("The A5000 has superior RT Core performance (54.2 TFLOPS).", []),
        # the unit far from the field word
        ("The A100 is power-hungry with a 400W TDP, while the L40 operates at an efficient 300W.",
         [("tdp_w", 400, "agrees"), ("tdp_w", 300, "agrees")]),
        ("The RTX 4090 needs an 850 W power supply.", []),
        # ranges: right when the datasheet value lies inside
        ("The L40 has 18,000-18,200 CUDA cores.", [("cuda_cores", 18000, "agrees")]),
        ("The L40 has 18,300\u201318,500 CUDA cores.", [("cuda_cores", 18300, "disagrees")]),
        # two GPUs: the figure may be their sum
        ("2x RTX 4090 give 48 GB of VRAM in total.", [("memory_gb", 48, "agrees")]),
        ("The L40 was released in 2022.", [("release_year", 2022, "agrees")]),
    ],
)  # fmt: skip
def test_prose_claims(text: str, expected: list[tuple[str, Any, str]]) -> None:
    assert _verdicts(text) == expected


@pytest.mark.parametrize(
    ("text", "gpu_ids"),
    [
        # "X outperforms Y, offering N": N is X's
        ("The A5000 outperforms the A4000, offering 27.8 TFLOPS of single-precision compute.",
         [("rtx-a5000",)]),
        ("The A5000 offers 768 GB/s of memory bandwidth, versus the A4000's 448 GB/s.",
         [("rtx-a5000",), ("rtx-a4000",)]),
        ("Memory bandwidth is higher in the A5000 (768 GB/s) compared to the A4000 (448 GB/s).",
         [("rtx-a5000",), ("rtx-a4000",)]),
        # the second figure of "(8,192 vs. 6,144)" is a GPU's the sentence does not name
        ("The A5000 features more CUDA cores (8,192 vs. 6,144 CUDA cores).", [("rtx-a5000",)]),
    ],
)  # fmt: skip
def test_a_figure_belongs_to_the_gpu_it_is_said_of(text: str, gpu_ids: list[tuple[str]]) -> None:
    assert [c.gpu_ids for c in extract_claims(text)] == gpu_ids
    assert all(audit_claim(c).status == "agrees" for c in extract_claims(text))


# ---------------------------------------------------------------- variants


@pytest.mark.parametrize(
    ("text", "ids", "count"),
    [
        ("NVIDIA A100 (80GB SXM4)", ("a100-sxm4-80gb",), 1),
        ("8x PCIe A100s", ("a100-pcie-40gb", "a100-pcie-80gb"), 8),
        ("the A100's HBM2e memory", ("a100-sxm4-80gb", "a100-pcie-80gb"), 1),
        ("8\u00d7 A100 SXM4, 80GB, full NVLink", ("a100-sxm4-80gb",), 8),
        ("a 40GB A100", ("a100-sxm4-40gb", "a100-pcie-40gb"), 1),
        ("The A100 comes in 40GB", ("a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb",
                                    "a100-pcie-80gb"), 1),
        ("the L40 (96GB)", ("l40",), 1),  # words no variant fits leave the name as it is
    ],
)  # fmt: skip
def test_a_name_narrows_to_the_variants_its_words_name(
    text: str, ids: tuple[str, ...], count: int
) -> None:
    [found] = mentions(text)
    assert (found.ids, found.count) == (ids, count)


def test_a_value_any_unnamed_variant_has_is_right() -> None:
    assert _verdicts("The A100 has 2TB/s of memory bandwidth.") == [
        ("bandwidth_gbs", 2000, "agrees")
    ]
    assert _verdicts("The A100 40GB has 2TB/s of memory bandwidth.") == [
        ("bandwidth_gbs", 2000, "disagrees")
    ]


def test_memory_types_are_checked_per_memory_size() -> None:
    assert _verdicts("The A100 comes in 40GB and 80GB HBM2e variants.") == [
        ("memory_gb", 80, "agrees"), ("memory_type", "HBM2e", "disagrees"),
        ("memory_type", "HBM2e", "agrees"),
    ]  # fmt: skip
    assert _verdicts("The L40 carries 48GB of GDDR6X memory.")[-1] == (
        "memory_type", "GDDR6X", "disagrees",
    )  # fmt: skip


def test_find_gpus_prefers_the_longest_name() -> None:
    found = find_gpus("the NVIDIA A100-SXM4-40GB and an RTX 4090 Laptop GPU")
    assert [ids for _, _, ids in found] == [("a100-sxm4-40gb",), ("rtx-4090-laptop",)]
    assert [words for _, words, _ in find_gpus("the H100's FP16 rate")] == ["the H100"]


def test_sentences_do_not_end_at_abbreviations() -> None:
    line = "More cores (8,192 vs. 6,144) help, e.g. for CNNs. The A4000 is cheaper."
    assert [line[s:e].strip() for s, e in sentences(line)] == [
        "More cores (8,192 vs. 6,144) help, e.g. for CNNs.", "The A4000 is cheaper.",
    ]  # fmt: skip


# ---------------------------------------------------------------- links


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The A100's NVLink capabilities (up to 600 GB/s bidirectional for 12-way)",
         [("gpu_link_gbs", 600, "agrees")]),
        ("Two RTX A6000 cards over an NVLink bridge share 56 GB/s per direction.",
         [("gpu_link_gbs", 56, "agrees")]),
        ("Two RTX A6000 cards over an NVLink bridge share 112.5 GB/s per direction.",
         [("gpu_link_gbs", 112.5, "disagrees")]),
        ("The L40 talks to its neighbours over NVLink at 100 GB/s.",
         [("gpu_link_gbs", 100, "unchecked")]),
        ("The A100 needs ~16 GB/s, well within PCIe 4.0 x16's 32 GB/s bidirectional capacity.",
         [("pcie_gbs", 32, "disagrees")]),
        ("On the A100, PCIe 4.0 x16 moves 32 GB/s per direction.", [("pcie_gbs", 32, "agrees")]),
        ("The H100 PCIe sits on PCIe 5.0 x16: 128 GB/s.", [("pcie_gbs", 128, "agrees")]),
        ("The A100 server has only 16 GB/s of PCIe bandwidth between GPUs.", []),
    ],
)  # fmt: skip
def test_link_bandwidths(text: str, expected: list[tuple[str, Any, str]]) -> None:
    assert _verdicts(text) == expected


# ---------------------------------------------------------------- ratios


@pytest.mark.parametrize(
    ("text", "value", "status"),
    [
        ("The A100's HBM2e memory provides nearly 2.5x the bandwidth of the A6000's GDDR6.",
         2.5, "agrees"),
        ("The A100 40GB has 3x the bandwidth of the A6000.", 3.0, "disagrees"),
        ("The H100 SXM is about 2.5x faster than the A100 for training.", 2.5, "agrees"),
        ("A100 80GB delivers 92% of H100's FP16 training throughput on LLM workloads.",
         0.92, "disagrees"),
        ("The L40 has 20% more memory than the A100 40GB.", 1.2, "agrees"),
        # several GPUs: the calculator's estimate of the named workload decides
        ("8x PCIe A100s train ResNet-50 1.4x slower than 4x NVLink A100s.", 1 / 1.4,
         "disagrees"),
        ("8x PCIe A100s train ResNet-50 1.8x faster than 4x NVLink A100s.", 1.8, "agrees"),
        # several GPUs and no workload: nothing to compute with
        ("8x A100s run 1.4x slower than 4x H100s.", 1 / 1.4, "unchecked"),
    ],
)  # fmt: skip
def test_ratios_between_gpus(text: str, value: float, status: str) -> None:
    [claim] = [c for c in extract_claims(text) if c.field.endswith("_ratio")]
    assert claim.value == pytest.approx(value) and audit_claim(claim).status == status


def test_a_ratio_needs_both_gpus_in_its_sentence() -> None:
    text = "Choose 80GB A100s for big models. Otherwise, 40GB delivers 22% higher value."
    assert [c for c in extract_claims(text) if c.field.endswith("_ratio")] == []
    assert extract_claims("The A100 is 4.2x more reliable (per a 2024 report).") == []


# ---------------------------------------------------------------- prices


def test_a_system_price_below_its_gpus_cheapest_price_is_wrong() -> None:
    [claim] = extract_claims("A $28,500 8x A100 PCIe system may save money.")
    assert (claim.field, claim.count, claim.gpu_ids) == (
        "system_price_usd", 8, ("a100-pcie-40gb", "a100-pcie-80gb"),
    )  # fmt: skip
    verdict = audit_claim(claim)
    assert verdict.status == "disagrees" and "2026-03-20" in verdict.note
    [dearer] = extract_claims("A $37,700 8x A100 SXM4 server")
    assert audit_claim(dearer).status == "agrees"


def test_only_prices_seen_after_the_article_bound_its_price() -> None:
    later = extract_claims("A $28,500 8x A100 PCIe system", published="2030-01-01")
    earlier = extract_claims("A $28,500 8x A100 PCIe system", published="2024-06-01")
    assert audit_claim(later[0]).status == "unchecked"
    assert audit_claim(earlier[0]).status == "disagrees"
    assert extract_claims("The custom build costs $3.42 per hour on 8x A100 PCIe.") == []


# ---------------------------------------------------------------- storage


def test_claims_round_trip_through_their_stored_form() -> None:
    for claim in extract_claims("8x PCIe A100s train ResNet-50 1.4x slower than 4x NVLink A100s."):
        assert Claim.from_dict(claim.to_dict()) == claim
    old = {"gpu_text": "L40", "gpu_ids": ["l40"], "field": "memory_gb", "value": 48.0,
           "unit": "GB", "quote": "48GB"}  # fmt: skip
    assert audit_claim(Claim.from_dict(old)).status == "agrees"  # an index built before claims-2


def test_the_index_stamp_names_the_claims_version() -> None:
    assert INDEX_STAMP.endswith(f"+{CLAIMS_VERSION}")


def test_chunks_carry_their_articles_date() -> None:
    [doc] = [read_document(p) for p in ARTICLES if p.stem == "a5000-vs-a4000-tensorflow"]
    assert {c.published for c in chunk_document(doc)} == {"2024-05-30"}


def test_interconnect_bandwidth_is_not_memory_bandwidth() -> None:
    assert extract_claims("The A100 server has only 16 GB/s of PCIe bandwidth between GPUs.") == []


def test_claims_without_a_datasheet_value_cannot_be_checked() -> None:
    [claim] = extract_claims("Gaudi 3 has 64 Tensor Cores in its design.")
    assert audit_claim(claim).status == "unchecked"
