"""Hybrid search: BM25 (bm25s) and dense (MiniLM in Chroma), fused by reciprocal rank.

Filters keep passages of one document or passages that mention a GPU. Every result carries its
document, title, section path, text, character span and the scores that ranked it.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import bm25s

from advisor.catalog import load_catalog
from advisor.errors import AdvisorError, InvalidInput
from advisor.retrieval.embed import Embedder
from advisor.retrieval.index import Index, IndexedChunk

RRF_K = 60  # the usual reciprocal-rank-fusion constant (Cormack et al., 2009)
MODES = ("hybrid", "bm25", "dense")
MAX_QUERY_CHARS = 2000


@dataclass(frozen=True)
class SearchResult:
    id: str
    doc: str
    title: str
    section: str
    text: str
    start: int
    end: int
    score: float
    bm25_rank: int | None
    dense_rank: int | None
    dense_score: float | None
    claims: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "doc": self.doc, "title": self.title, "section": self.section,
            "text": self.text, "span": [self.start, self.end], "score": self.score,
            "bm25_rank": self.bm25_rank, "dense_rank": self.dense_rank,
            "dense_score": self.dense_score, "claims": list(self.claims),
        }  # fmt: skip


def _tokens(texts: list[str]) -> Any:
    return bm25s.tokenize(texts, stopwords="en", show_progress=False)


class Searcher:
    """Searches one open index; builds its BM25 index in memory once."""

    def __init__(self, index: Index, embedder: Embedder | None) -> None:
        self.index = index
        self.embedder = embedder
        self.chunks = index.chunks
        texts = [f"{c.chunk.title} {c.chunk.section} {c.chunk.text}" for c in self.chunks]
        self.bm25 = bm25s.BM25()
        if texts:
            self.bm25.index(_tokens(texts), show_progress=False)
        self.doc_ids = {c.chunk.doc_id for c in self.chunks}
        self.position = {c.chunk.id: i for i, c in enumerate(self.chunks)}

    def search(
        self,
        query: str,
        k: int = 5,
        *,
        mode: str = "hybrid",
        doc: str | None = None,
        gpu: str | None = None,
    ) -> list[SearchResult]:
        """The k best passages for query; InvalidInput for an empty query or a bad filter."""
        query = _clean_query(query)
        if mode not in MODES:
            raise InvalidInput(f"Unknown search mode {mode!r}; use one of {', '.join(MODES)}.")
        if not 1 <= k <= 100:
            raise InvalidInput("k must be from 1 to 100.")
        if doc is not None and doc not in self.doc_ids:
            known = ", ".join(sorted(self.doc_ids))
            raise InvalidInput(f"No document {doc!r} in the index; documents: {known}.")
        allowed = self._allowed(doc, gpu)
        if allowed is not None and not allowed:
            return []
        depth = max(50, 10 * k)
        if self.embedder is None:  # a light searcher (light.py): BM25 is all there is
            mode = "bm25"
        bm25 = self._bm25(query, depth, allowed) if mode != "dense" else []
        dense, similarity = self._dense(query, depth, allowed, doc) if mode != "bm25" else ([], {})
        return self._fuse(bm25, dense, similarity, k)

    def _allowed(self, doc: str | None, gpu: str | None) -> set[int] | None:
        """Positions of the chunks the filters keep; None when there is no filter."""
        if doc is None and gpu is None:
            return None
        gpu_ids = set()
        if gpu is not None:
            catalog = load_catalog()
            gpu_ids = {g.id for g in catalog.find_gpus(gpu)} or {catalog.get_gpu(gpu).id}
        return {
            i
            for i, c in enumerate(self.chunks)
            if (doc is None or c.chunk.doc_id == doc) and (not gpu_ids or c.gpus & gpu_ids)
        }

    def _bm25(self, query: str, depth: int, allowed: set[int] | None) -> list[int]:
        tokens = _tokens([query])
        if not tokens.vocab or not self.chunks:
            return []
        n = len(self.chunks) if allowed is not None else min(depth, len(self.chunks))
        found, scores = self.bm25.retrieve(tokens, k=n, show_progress=False)
        ranked = [int(i) for i, s in zip(found[0], scores[0], strict=True) if s > 0]
        return [i for i in ranked if allowed is None or i in allowed][:depth]

    def _dense(
        self, query: str, depth: int, allowed: set[int] | None, doc: str | None
    ) -> tuple[list[int], dict[int, float]]:
        assert self.embedder is not None
        vector = self.embedder.embed([query])[0]
        # a GPU filter is applied after the nearest-neighbour search, so search wider then
        wide = depth if allowed is None or doc else 4 * depth
        hits = [(self.position[cid], sim) for cid, sim in self.index.dense(vector, wide, doc)]
        ranked = [i for i, _ in hits if allowed is None or i in allowed][:depth]
        return ranked, dict(hits)

    def _fuse(
        self, bm25: list[int], dense: list[int], similarity: dict[int, float], k: int
    ) -> list[SearchResult]:
        scores: dict[int, float] = {}
        for ranking in (bm25, dense):
            for rank, i in enumerate(ranking):
                scores[i] = scores.get(i, 0.0) + 1.0 / (RRF_K + rank + 1)
        best = sorted(scores, key=lambda i: (-scores[i], i))[:k]
        bm25_rank = {i: r + 1 for r, i in enumerate(bm25)}
        dense_rank = {i: r + 1 for r, i in enumerate(dense)}
        return [
            _result(
                self.chunks[i], scores[i], bm25_rank.get(i), dense_rank.get(i), similarity.get(i)
            )
            for i in best
        ]


def _result(
    c: IndexedChunk, score: float, bm25_rank: int | None, dense_rank: int | None,
    similarity: float | None,
) -> SearchResult:  # fmt: skip
    return SearchResult(
        id=c.chunk.id, doc=c.chunk.doc_id, title=c.chunk.title, section=c.chunk.section,
        text=c.chunk.text, start=c.chunk.start, end=c.chunk.end, score=round(score, 6),
        bm25_rank=bm25_rank, dense_rank=dense_rank,
        dense_score=None if similarity is None else round(similarity, 4),
        claims=tuple(claim.to_dict() for claim in c.claims),
    )  # fmt: skip


def _clean_query(query: object) -> str:
    if not isinstance(query, str):
        raise InvalidInput("The query must be text.")
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", query).strip()
    if not text:
        raise InvalidInput("Give a question or some words to search for.")
    return text[:MAX_QUERY_CHARS]


class LiveSearcher:
    """A Searcher that follows the index: when another process re-indexes (a new generation in
    the manifest), the next search after at most `check_s` seconds loads it. Searches already
    running finish on the generation they started with (the writer keeps the previous one)."""

    def __init__(self, searcher: Searcher, check_s: float = 1.0) -> None:
        self.current = searcher
        self.check_s = check_s
        self._checked = time.monotonic()
        self._lock = threading.Lock()

    def search(self, query: str, k: int = 5, **filters: Any) -> list[SearchResult]:
        try:
            return self._follow().search(query, k, **filters)
        except AdvisorError:
            raise  # bad input: not the index's fault
        except Exception:
            # the generation went away under us (two re-indexes since it was loaded): load the
            # current one and try once more
            return self._follow(force=True).search(query, k, **filters)

    def _follow(self, force: bool = False) -> Searcher:
        now = time.monotonic()
        if not force and now - self._checked < self.check_s:
            return self.current
        if not self._lock.acquire(blocking=force):
            return self.current  # another thread is checking
        try:
            self._checked = now
            for attempt in range(3):
                old = self.current.index
                manifest = old.store.read_manifest()
                if manifest is None or (manifest.generation == old.manifest.generation
                                        and not force):  # fmt: skip
                    break
                embedder = self.current.embedder
                assert embedder is not None  # a light searcher (BM25 only) is never followed
                manifest.check(embedder)
                try:
                    self.current = Searcher(Index(old.store, manifest), embedder)
                    break
                except Exception:
                    if attempt == 2:
                        raise
                    time.sleep(0.2)  # replaced while loading: read the manifest again
        finally:
            self._lock.release()
        return self.current

    def refresh(self) -> None:
        """Load the current generation now (after this process changed the index)."""
        self._follow(force=True)

    @property
    def index(self) -> Index:
        return self.current.index

    @property
    def chunks(self) -> list[IndexedChunk]:
        return self.current.chunks
