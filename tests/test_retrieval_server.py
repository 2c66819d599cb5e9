"""The same index and search against a real `chroma run` server on loopback."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.config import Settings
from advisor.retrieval.index import IndexProblem, open_index, update_index
from advisor.retrieval.search import Searcher
from tests.conftest import CORPUS


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """`chroma run` from the installed chromadb, on 127.0.0.1, stopped after the module."""
    chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    process = subprocess.Popen(
        [chroma, "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("chroma run did not start within 60 s")
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=30)


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
                        chroma_port=_free_port())  # fmt: skip
    with pytest.raises(IndexProblem, match="Cannot reach the Chroma server"):
        open_index(settings, embedder)  # type: ignore[arg-type]
