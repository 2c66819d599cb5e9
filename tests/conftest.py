"""Shared fixtures: every test gets a clean environment and a fresh catalog cache."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from advisor.catalog import Catalog, load_catalog
from advisor.config import Settings

# CI replays the same generated examples on every run (a failure is reproducible, not luck);
# HYPOTHESIS_PROFILE=explore draws new ones
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
hypothesis_settings.register_profile("explore")
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parent.parent
REFERENCE_DIR = Path(__file__).resolve().parent / "reference"
SHARED_DATA = Path(os.environ.get("ADVISOR_SHARED_DIR", REPO.parent / "shared")) / "data"


@pytest.fixture(autouse=True)
def _isolated_env(  # the catalog cache is keyed by data dir, so it needs no reset
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[None]:
    for name in list(os.environ):
        if name.startswith("ADVISOR_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    yield


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog()


CORPUS = REPO / "corpus"


@pytest.fixture(scope="session")
def embedder() -> Any:
    """The real all-MiniLM-L6-v2, loaded once for the whole run."""
    from advisor.retrieval.embed import default_embedder

    return default_embedder()


@pytest.fixture(scope="session")
def corpus_index(tmp_path_factory: pytest.TempPathFactory, embedder: Any) -> Any:
    """The real corpus indexed with the real model in a real local Chroma, once per run."""
    from advisor.retrieval.index import open_index

    settings = Settings(corpus_dir=CORPUS, index_dir=tmp_path_factory.mktemp("index"))
    return open_index(settings, embedder)


@pytest.fixture(scope="session")
def searcher(corpus_index: Any, embedder: Any) -> Any:
    from advisor.retrieval.search import Searcher

    return Searcher(corpus_index, embedder)


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the corpus, for tests that add, change or delete articles."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


@pytest.fixture(scope="session")
def rules_advisor(searcher: Any) -> Any:
    """One rules-engine Advisor over the real index, shared by the agent tests."""
    from advisor.api import Advisor

    return Advisor(engine="rules", searcher=searcher)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, corpus_index: Any) -> Path:
    """An isolated data home, and the session's already-built index, for CLI runs and the
    servers the tests start as processes (they inherit this environment)."""
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "advisor-home"))
    monkeypatch.setenv("ADVISOR_INDEX_DIR", str(corpus_index.store.root))
    return tmp_path / "advisor-home"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL server (Debian's package) of the run's own, on a loopback port."""
    from tests.servers import postgres_server

    with postgres_server() as url:
        yield url
