"""Test doubles for plumbing tests (never for ranking: those use the real model)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence


class HashingEmbedder:
    """Deterministic bag-of-words vectors: fast, offline, good enough to move data around."""

    name = "test/hashing-embedder"
    dimension = 64

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls = 0
        self.embedded = 0
        self.fail_after = fail_after  # raise after this many texts: a crash mid-build

    def embed(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> list[list[float]]:
        self.calls += 1
        out = []
        for text in texts:
            if self.fail_after is not None and self.embedded >= self.fail_after:
                raise RuntimeError("simulated crash while embedding")
            vector = [0.0] * self.dimension
            for word in text.lower().split():
                vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
            norm = math.sqrt(sum(v * v for v in vector)) or 1.0
            out.append([v / norm for v in vector])
            self.embedded += 1
            if progress:
                progress(1)
        return out
