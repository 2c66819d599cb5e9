"""Benchmark: index build and query latency on the corpus, and a 100,000-chunk scale run.

    python -m eval.bench_retrieval [--scale-chunks 100000] [--skip-scale]   (from the repo root)

Measures, on this machine:
- cold build: `gpu-advisor index` in a new process with an empty index folder (model load
  included). Target: 20 s or less on 2 cores.
- no-op re-index: `gpu-advisor index` again, nothing changed. Target: 2 s or less.
- warm query latency: p50 / p95 of hybrid search over the labelled queries, in process, after
  one warm-up query. Target p50: 30 ms or less.
- scale: a synthetic corpus of about 100,000 chunks (sentences of the real articles recombined,
  with GPU names and numbers varied), built through the same ingest / embed / Chroma path;
  build throughput in chunks/s and hybrid query p50 (target: 100 ms or less).
Writes eval/results/retrieval_bench.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from advisor.config import PROJECT_ROOT, Settings
from advisor.evaluation.stats import p50_p95
from advisor.retrieval.embed import default_embedder
from advisor.retrieval.index import open_index, update_index
from advisor.retrieval.ingest import chunk_document, corpus_files, read_document
from advisor.retrieval.search import Searcher
from eval.retrieval_eval import load_queries

RESULTS = Path(__file__).resolve().parent / "results"
CORPUS = PROJECT_ROOT / "corpus"
GPUS = ["A100", "H100", "L40S", "RTX 4090", "A6000", "L4", "T4", "H200", "MI300X", "A10G"]


def _cli(args: list[str], env: dict[str, str]) -> float:
    script = shutil.which("gpu-advisor") or str(Path(sys.executable).parent / "gpu-advisor")
    start = time.perf_counter()
    subprocess.run([script, *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _latencies(searcher: Searcher, queries: list[str]) -> dict[str, float]:
    searcher.search(queries[0], k=5)  # warm-up: first call pays for lazy initialisation
    times = []
    for query in queries:
        start = time.perf_counter()
        searcher.search(query, k=5)
        times.append((time.perf_counter() - start) * 1000)
    p50, p95 = p50_p95(times)
    return {"queries": len(times), "p50_ms": round(p50, 2), "p95_ms": round(p95, 2)}


def corpus_run(tmp: Path) -> dict[str, object]:
    env = {**os.environ, "ADVISOR_CORPUS_DIR": str(CORPUS), "ADVISOR_INDEX_DIR": str(tmp / "ix")}
    env.pop("CHROMA_HOST", None)
    cold = _cli(["index"], env)
    noop = _cli(["index"], env)
    settings = Settings(corpus_dir=CORPUS, index_dir=tmp / "ix")
    embedder = default_embedder()
    searcher = Searcher(open_index(settings, embedder), embedder)
    queries = [q.query for q in load_queries()]
    return {
        "chunks": len(searcher.chunks),
        "cold_build_s": round(cold, 2),
        "noop_reindex_s": round(noop, 2),
        "warm_query": _latencies(searcher, queries),
    }


def _synthetic_corpus(folder: Path, target_chunks: int, seed: int = 7) -> int:
    """Articles whose sections recombine real sentences, with GPU names and numbers varied."""
    rng = random.Random(seed)
    sentences = []
    for path in corpus_files(CORPUS):
        for chunk in chunk_document(read_document(path)):
            sentences += [s for s in re.split(r"(?<=[.!?])\s+", chunk.text) if len(s) > 40]
    sections_per_doc = 50
    docs = max(1, target_chunks // sections_per_doc)
    folder.mkdir(parents=True)
    for d in range(docs):
        parts = [f"---\ndoc_id: synthetic-{d:05d}\ntitle: Synthetic GPU article {d}\n---\n"]
        for s in range(sections_per_doc):
            gpu = rng.choice(GPUS)
            body = " ".join(rng.sample(sentences, 3))
            body = re.sub(r"\d+", lambda m: str(int(m.group()) + rng.randint(0, 9)), body)
            parts.append(f"## {gpu} notes {s}\n{gpu}: {body}\n")
        (folder / f"synthetic-{d:05d}.md").write_text("\n".join(parts), encoding="utf-8")
    return docs


def scale_run(
    tmp: Path, target_chunks: int, partial: Path, report_so_far: dict[str, object]
) -> dict[str, object]:
    corpus = tmp / "scale-corpus"
    docs = _synthetic_corpus(corpus, target_chunks)
    settings = Settings(corpus_dir=corpus, index_dir=tmp / "scale-ix")
    embedder = default_embedder()
    start = time.perf_counter()
    report = update_index(settings, embedder)
    build_s = time.perf_counter() - start
    built = {"documents": docs, "chunks": report.chunks, "build_s": round(build_s, 1)}
    partial.write_text(json.dumps({**report_so_far, "scale": built}, indent=2) + "\n")
    start = time.perf_counter()
    searcher = Searcher(open_index(settings, embedder), embedder)
    open_s = time.perf_counter() - start
    queries = [q.query for q in load_queries()]
    lengths = [len(c.chunk.text) for c in searcher.chunks]
    return {
        "documents": docs,
        "chunks": report.chunks,
        "mean_chunk_chars": round(statistics.mean(lengths)),
        "build_s": round(build_s, 1),
        "build_chunks_per_s": round(report.chunks / build_s, 1),
        "open_s": round(open_s, 1),
        "query": _latencies(searcher, queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale-chunks", type=int, default=100_000)
    parser.add_argument("--skip-scale", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
    }
    RESULTS.mkdir(exist_ok=True)
    partial = RESULTS / "retrieval_bench.partial.json"  # what a failed run got to
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        report["corpus"] = corpus_run(tmp)
        partial.write_text(json.dumps(report, indent=2) + "\n")
        if not args.skip_scale:
            report["scale"] = scale_run(tmp, args.scale_chunks, partial, report)
    partial.unlink(missing_ok=True)
    (RESULTS / "retrieval_bench.json").write_text(json.dumps(report, indent=2) + "\n")
    text = _markdown(report)
    (RESULTS / "retrieval_bench.md").write_text(text)
    print(text)


def _markdown(report: dict[str, object]) -> str:
    c = report["corpus"]
    assert isinstance(c, dict)
    lines = [
        "# Retrieval benchmark",
        "",
        f"{report['date']} on {report['machine']}; `python -m eval.bench_retrieval`.",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        f"| cold index build of the corpus ({c['chunks']} chunks, new process, model load "
        f"included) | {c['cold_build_s']} s | 20 s or less |",
        f"| no-op re-index (new process) | {c['noop_reindex_s']} s | 2 s or less |",
        f"| warm hybrid query, {c['warm_query']['queries']} queries | p50 "
        f"{c['warm_query']['p50_ms']} ms, p95 {c['warm_query']['p95_ms']} ms | p50 30 ms or less |",
    ]
    scale = report.get("scale")
    if isinstance(scale, dict):
        lines += [
            f"| scale build: {scale['chunks']:,} chunks (mean {scale['mean_chunk_chars']} chars) "
            f"in {scale['documents']:,} documents: ingest, embed, Chroma | {scale['build_s']} s = "
            f"{scale['build_chunks_per_s']} chunks/s | - |",
            f"| scale: open the index (load chunks, build BM25) | {scale['open_s']} s | - |",
            f"| scale: warm hybrid query | p50 {scale['query']['p50_ms']} ms, p95 "
            f"{scale['query']['p95_ms']} ms | p50 100 ms or less |",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
