"""Hybrid search over the real corpus with the real model."""

from __future__ import annotations

import pytest

from advisor.errors import InvalidInput, UnknownGPU
from advisor.retrieval.search import RRF_K, Searcher


@pytest.mark.parametrize(
    ("query", "doc", "section"),
    [
        ("L40 specifications: Ada Lovelace architecture, CUDA cores, memory",
         "a100-sxm4-40gb-vs-l40", "NVIDIA L40"),
        ("RTX 4090 laptop CUDA cores", "a100-vs-rtx-4090-laptop",
         "Overview of RTX 4090 Laptop GPU"),
        ("hourly price of an A6000 on RunPod or Vast.ai", "a6000-vs-a100-for-ml",
         "Price/Performance Breakdown (Illustrative Cloud Pricing)"),
        ("can I mix 40GB and 80GB A100s in one server", "a100-server-buying-benchmarks",
         "Can I mix A100 40GB and 80GB GPUs in the same server?"),
        ("what is TensorFlow", "a5000-vs-a4000-tensorflow", "What is TensorFlow?"),
    ],
)  # fmt: skip
def test_the_right_passage_comes_first(
    searcher: Searcher, query: str, doc: str, section: str
) -> None:
    top = searcher.search(query, k=3)[0]
    assert (top.doc, top.section) == (doc, section)


def test_results_carry_everything_a_citation_needs(searcher: Searcher) -> None:
    results = searcher.search("A100 memory", k=5)
    assert len(results) == 5
    for r in results:
        data = r.to_dict()
        assert {"id", "doc", "title", "section", "text", "score", "span"} <= set(data)
        assert r.end > r.start and r.text and r.id.startswith(r.doc + ":")
        assert 0 < r.score <= 2 / (RRF_K + 1)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_modes_rank_differently_but_hybrid_uses_both(searcher: Searcher) -> None:
    bm25 = searcher.search("NVLink topology", k=5, mode="bm25")
    dense = searcher.search("NVLink topology", k=5, mode="dense")
    hybrid = searcher.search("NVLink topology", k=5)
    assert all(r.dense_rank is None for r in bm25) and all(r.bm25_rank is None for r in dense)
    assert any(r.bm25_rank and r.dense_rank for r in hybrid)


def test_filters(searcher: Searcher) -> None:
    only_doc = searcher.search("memory bandwidth", k=10, doc="a6000-vs-a100-for-ml")
    assert only_doc and {r.doc for r in only_doc} == {"a6000-vs-a100-for-ml"}
    l40 = searcher.search("power consumption", k=5, gpu="L40")
    assert l40 and all("l40" in searcher.index.by_id[r.id].gpus for r in l40)
    a100 = searcher.search("memory", k=5, gpu="A100")  # ambiguous name: any A100 variant
    assert a100 and all(
        any(g.startswith("a100") for g in searcher.index.by_id[r.id].gpus) for r in a100
    )
    assert searcher.search("memory", k=5, gpu="B200") == []  # no article mentions it


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"query": ""}, InvalidInput),
        ({"query": "   \x00\x07 "}, InvalidInput),
        ({"query": "gpu", "k": 0}, InvalidInput),
        ({"query": "gpu", "mode": "magic"}, InvalidInput),
        ({"query": "gpu", "doc": "no-such-doc"}, InvalidInput),
        ({"query": "gpu", "gpu": "RTX 9999"}, UnknownGPU),
    ],
)
def test_bad_queries(searcher: Searcher, kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        searcher.search(**kwargs)  # type: ignore[arg-type]


def test_long_and_odd_queries_still_answer(searcher: Searcher) -> None:
    assert searcher.search("A100 " * 5000, k=3)
    assert searcher.search("¿Qué GPU para entrenar? 显存 😀 L40", k=3)
