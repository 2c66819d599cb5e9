"""Shared fixtures: every test gets a clean environment and a fresh catalog cache."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.catalog import Catalog, load_catalog

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
