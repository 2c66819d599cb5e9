"""Retrieval evaluation: BM25, dense and hybrid search on the labelled queries.

    python eval/retrieval_eval.py

Builds (or opens) the index of corpus/ with the real embedding model, runs every query of
eval/retrieval/queries.yaml in the three modes, and reports hit@1, hit@5, MRR (first relevant
passage within the top 10) and nDCG@5 (binary relevance). Writes
eval/results/retrieval_report.md and .json. Targets for hybrid: hit@5 >= 0.95, MRR >= 0.8.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from advisor.config import PROJECT_ROOT, Settings
from advisor.retrieval.embed import default_embedder
from advisor.retrieval.index import open_index
from advisor.retrieval.search import MODES, Searcher

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "retrieval" / "queries.yaml"
RESULTS = HERE / "results"
TARGETS = {"hit@5": 0.95, "mrr": 0.8}


@dataclass(frozen=True)
class Labelled:
    query: str
    relevant: frozenset[tuple[str, str]]  # (doc id, section path)


def load_queries(path: Path = QUERIES) -> list[Labelled]:
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for row in rows:
        relevant = {(row["doc"], s) for s in row["sections"]}
        relevant |= {(a["doc"], a["section"]) for a in row.get("also", [])}
        out.append(Labelled(row["query"], frozenset(relevant)))
    return out


def evaluate(searcher: Searcher, queries: list[Labelled], mode: str) -> dict[str, Any]:
    hits1 = hits5 = rr = ndcg = 0.0
    misses = []
    for q in queries:
        results = searcher.search(q.query, k=10, mode=mode)
        flags = [(r.doc, r.section) in q.relevant for r in results]
        first = next((i for i, f in enumerate(flags) if f), None)
        hits1 += bool(flags[:1] and flags[0])
        hits5 += any(flags[:5])
        rr += 0.0 if first is None else 1.0 / (first + 1)
        dcg = sum(1.0 / math.log2(i + 2) for i, f in enumerate(flags[:5]) if f)
        ideal = sum(1.0 / math.log2(i + 2) for i in range(min(5, len(q.relevant))))
        ndcg += dcg / ideal
        if not any(flags[:5]):
            top = results[0] if results else None
            misses.append({"query": q.query, "got": top and f"{top.doc} > {top.section}"})
    n = len(queries)
    return {
        "queries": n,
        "hit@1": hits1 / n,
        "hit@5": hits5 / n,
        "mrr": rr / n,
        "ndcg@5": ndcg / n,
        "misses": misses,
    }


def run(searcher: Searcher, queries: list[Labelled]) -> dict[str, dict[str, Any]]:
    return {mode: evaluate(searcher, queries, mode) for mode in ("bm25", "dense", "hybrid")}


def main() -> None:
    embedder = default_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(corpus_dir=PROJECT_ROOT / "corpus", index_dir=Path(tmp))
        searcher = Searcher(open_index(settings, embedder), embedder)
        queries = load_queries()
        report = run(searcher, queries)
    assert set(report) <= set(MODES)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "retrieval_report.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "# Retrieval evaluation",
        "",
        f"{len(queries)} labelled queries (eval/retrieval/queries.yaml) over the corpus; "
        "`python eval/retrieval_eval.py`. Targets for hybrid: hit@5 >= 0.95, MRR >= 0.8.",
        "",
        "| mode | hit@1 | hit@5 | MRR | nDCG@5 |",
        "|---|---|---|---|---|",
    ]
    for mode, r in report.items():
        lines.append(
            f"| {mode} | {r['hit@1']:.3f} | {r['hit@5']:.3f} | {r['mrr']:.3f} | {r['ndcg@5']:.3f} |"
        )
    for mode, r in report.items():
        if r["misses"]:
            lines += ["", f"{mode}: no relevant passage in the top 5 for:", ""]
            lines += [f"- {m['query']} (top: {m['got']})" for m in r["misses"]]
    text = "\n".join(lines) + "\n"
    (RESULTS / "retrieval_report.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
