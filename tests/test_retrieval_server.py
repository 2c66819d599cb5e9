"""The same index and search against a real `chroma run` server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.config import Settings
from advisor.retrieval.index import IndexProblem, open_index, update_index
from advisor.retrieval.search import Searcher
from tests import servers
from tests.conftest import CORPUS


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """`chroma run` from the installed chromadb, on 127.0.0.1, stopped after the module."""
    with servers.chroma_server(str(tmp_path_factory.mktemp("chroma-server"))) as address:
        yield address


def test_index_and_search_through_the_server(
    chroma_server: tuple[str, int], tmp_path: Path, embedder: object, searcher: Searcher
) -> None:
    host, port = chroma_server
    settings = Settings(corpus_dir=CORPUS, index_dir=tmp_path, chroma_host=host, chroma_port=port)
    report = update_index(settings, embedder)  # type: ignore[arg-type]
    assert report.embedded == report.chunks > 50
    assert update_index(settings, embedder).noop  # type: ignore[arg-type]
    remote = Searcher(open_index(settings, embedder), embedder)  # type: ignore[arg-type]
    for query in ("L40 memory bandwidth", "A6000 cloud price", "TensorFlow on the A4000"):
        assert [r.id for r in remote.search(query, k=5)] == [
            r.id for r in searcher.search(query, k=5)
        ]


def test_rebuild_on_the_server_replaces_the_collection(
    chroma_server: tuple[str, int], tmp_path: Path, embedder: object
) -> None:
    host, port = chroma_server
    settings = Settings(corpus_dir=CORPUS, index_dir=tmp_path, chroma_host=host, chroma_port=port)
    first = update_index(settings, embedder)  # type: ignore[arg-type]
    second = update_index(settings, embedder, rebuild=True)  # type: ignore[arg-type]
    third = update_index(settings, embedder, rebuild=True)  # type: ignore[arg-type]
    assert len({first.generation, second.generation, third.generation}) == 3
    index = open_index(settings, embedder)  # type: ignore[arg-type]
    assert index.manifest.generation == third.generation
    names = {str(getattr(c, "name", c)) for c in index.store.client.list_collections()}  # type: ignore[union-attr]
    # the one it replaced stays for readers still on it; older ones go
    assert first.generation not in names and {second.generation, third.generation} <= names


def test_unreachable_server_is_explained(tmp_path: Path, embedder: object) -> None:
    settings = Settings(corpus_dir=CORPUS, index_dir=tmp_path, chroma_host="127.0.0.1",
                        chroma_port=servers.free_port())  # fmt: skip
    with pytest.raises(IndexProblem, match="Cannot reach the Chroma server"):
        open_index(settings, embedder)  # type: ignore[arg-type]
