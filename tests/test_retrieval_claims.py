"""Spec claims in the articles, checked against the datasheet table."""

from __future__ import annotations

import pytest

from advisor.retrieval.claims import audit, audit_claim, extract_claims, find_gpus
from advisor.retrieval.ingest import chunk_document, read_document
from tests.test_retrieval_ingest import ARTICLES


def _audit_corpus() -> list[dict[str, object]]:
    rows = []
    for path in ARTICLES:
        for c in chunk_document(read_document(path)):
            rows.append((c.id, c.doc_id, c.section, extract_claims(c.text, c.section)))
    return audit(rows)


AUDIT = _audit_corpus()


@pytest.mark.parametrize(
    ("doc", "gpu", "field", "value", "datasheet"),
    [
        ("a100-vs-rtx-4090-laptop", "a100-sxm4-40gb", "cuda_cores", 7680, 6912),
        ("a100-vs-rtx-4090-laptop", "rtx-4090-laptop", "cuda_cores", 16384, 9728),
        ("a100-sxm4-40gb-vs-l40", "l40", "bandwidth_gbs", 1000, 864),
        ("a100-sxm4-40gb-vs-l40", "l40", "cuda_cores", 18432, 18176),
        ("a5000-vs-a4000-tensorflow", "rtx-a4000", "bandwidth_gbs", 512, 448),
    ],
)
def test_known_article_errors_are_flagged(
    doc: str, gpu: str, field: str, value: float, datasheet: float
) -> None:
    rows = [r for r in AUDIT if r["doc"] == doc and r["field"] == field and r["value"] == value]
    assert rows, "claim not extracted"
    for row in rows:
        assert row["status"] == "disagrees"
        assert gpu in row["gpu_ids"] and row["datasheet"][gpu] == datasheet  # type: ignore[index]


@pytest.mark.parametrize(
    ("doc", "gpu", "field", "value"),
    [
        ("a6000-vs-a100-for-ml", "rtx-a6000", "cuda_cores", 10752),
        ("a6000-vs-a100-for-ml", "a100-sxm4-80gb", "fp16_bf16_sparse_tflops", 624),
        ("a5000-vs-a4000-tensorflow", "rtx-a5000", "memory_gb", 24),
        ("a100-sxm4-40gb-vs-l40", "a100-sxm4-40gb", "bandwidth_gbs", 1600),
    ],
)
def test_correct_claims_agree(doc: str, gpu: str, field: str, value: float) -> None:
    rows = [r for r in AUDIT if r["doc"] == doc and r["field"] == field and r["value"] == value]
    assert rows and all(r["status"] == "agrees" for r in rows)
    assert any(gpu in r["gpu_ids"] for r in rows)  # type: ignore[operator]


def test_table_columns_decide_the_gpu() -> None:
    text = (
        "| Feature | NVIDIA L4 | NVIDIA T4 |\n| --- | --- | --- |\n"
        "| Memory | 24GB GDDR6 | 16GB GDDR6 |\n| Memory Bandwidth | 300 GB/s | 320 GB/s |"
    )
    claims = {(c.gpu_ids, c.field, c.value) for c in extract_claims(text)}
    assert (("l4",), "memory_gb", 24) in claims and (("t4",), "bandwidth_gbs", 320) in claims


def test_flattened_tables_and_label_lines() -> None:
    flat = "| Feature |\nNVIDIA L4 |\nNVIDIA T4 |\n| CUDA Cores |\n7424 |\n2560 |"
    claims = {(c.gpu_ids, c.value) for c in extract_claims(flat)}
    assert claims == {(("l4",), 7424), (("t4",), 2560)}
    labelled = "NVIDIA A10:\n* CUDA Cores: 9216\n* Memory: 24GB GDDR6"
    assert {(c.gpu_ids, c.field) for c in extract_claims(labelled)} == {
        (("a10",), "cuda_cores"), (("a10",), "memory_gb"),
    }  # fmt: skip


def test_sparse_figure_quoted_as_dense_is_explained() -> None:
    [claim] = extract_claims("The H100 SXM5 delivers 1979 TFLOPS of FP16 tensor performance.")
    verdict = audit_claim(claim)
    assert verdict.status == "disagrees" and "sparsity" in verdict.note


def test_interconnect_bandwidth_is_not_memory_bandwidth() -> None:
    assert extract_claims("The A100 server has only 16 GB/s of PCIe bandwidth between GPUs.") == []


def test_claims_without_a_datasheet_value_cannot_be_checked() -> None:
    [claim] = extract_claims("Gaudi 3 has 64 Tensor Cores in its design.")
    assert audit_claim(claim).status == "unchecked"


def test_find_gpus_prefers_the_longest_name() -> None:
    found = find_gpus("the NVIDIA A100-SXM4-40GB and an RTX 4090 Laptop GPU")
    assert [ids for _, _, ids in found] == [("a100-sxm4-40gb",), ("rtx-4090-laptop",)]
