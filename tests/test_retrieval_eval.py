"""The labelled retrieval queries: labels point at real passages, and hybrid meets its targets."""

from __future__ import annotations

from advisor.retrieval.search import Searcher
from eval.retrieval_eval import TARGETS, load_queries, run

QUERIES = load_queries()


def test_at_least_60_labelled_queries_whose_labels_exist(searcher: Searcher) -> None:
    assert len(QUERIES) >= 60
    sections = {(c.chunk.doc_id, c.chunk.section) for c in searcher.index.chunks}
    for q in QUERIES:
        assert q.relevant <= sections, (q.query, q.relevant - sections)


def test_hybrid_meets_its_targets_and_beats_dense_alone(searcher: Searcher) -> None:
    report = run(searcher, QUERIES)
    hybrid = report["hybrid"]
    assert hybrid["hit@5"] >= TARGETS["hit@5"]
    assert hybrid["mrr"] >= TARGETS["mrr"]
    assert hybrid["mrr"] >= report["dense"]["mrr"]
