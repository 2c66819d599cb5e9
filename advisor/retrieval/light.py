"""Search without Chroma or the embedding model: BM25 over the passages snapshot that every
opened index leaves beside its manifest (index.py). A one-shot `gpu-advisor ask` answers with it
in about two seconds cold instead of twelve (torch and the model load take ten); servers, which
load once, search hybrid."""

from __future__ import annotations

from typing import Any

from advisor.config import Settings
from advisor.retrieval.index import INDEX_STAMP, LocalStore, read_snapshot, store_for


class SnapshotIndex:
    """The part of an open index that BM25 needs: its chunks, and no dense vectors."""

    def __init__(self, chunks: list[Any], manifest: Any) -> None:
        self.chunks = chunks
        self.by_id = {c.chunk.id: c for c in chunks}
        self.manifest = manifest

    def dense(self, vector: list[float], n: int, doc_id: str | None = None) -> list[Any]:
        return []


def light_searcher(settings: Settings | None = None) -> Any | None:
    """A BM25-only Searcher over the current index's snapshot; None when there is none (no
    index yet, a Chroma server, a snapshot not written): the caller then searches hybrid."""
    from advisor.retrieval.search import Searcher

    store = store_for(settings or Settings.from_env())
    if not isinstance(store, LocalStore):
        return None
    manifest = store.read_manifest()
    if manifest is None or manifest.chunker_version != INDEX_STAMP:
        return None  # none yet, or an older build: the full index opens (and refreshes) it
    path = store.snapshot_path(manifest.generation)
    if not path.is_file():
        return None
    try:
        chunks = read_snapshot(path)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # damaged: the full index will be opened (and rewrite it)
    return Searcher(SnapshotIndex(chunks, manifest), None)  # type: ignore[arg-type]
