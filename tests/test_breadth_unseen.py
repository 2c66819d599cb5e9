"""Breadth on names the catalog was not written from (eval/breadth/unseen.yaml, figures looked
up independently of the catalog): at least 90% read as an entry with the list's figures."""

from __future__ import annotations

import yaml

from advisor.catalog import load_catalog
from eval import breadth_unseen


def test_the_unseen_list_is_sourced() -> None:
    entries = yaml.safe_load(breadth_unseen.LIST.read_text(encoding="utf-8"))
    assert len(entries) == 60 and {e["kind"] for e in entries} == {"gpu", "model"}
    assert all(e.get("source") for e in entries)


def test_at_least_90_percent_of_unseen_names_resolve_with_the_right_figures() -> None:
    rows = breadth_unseen.score(load_catalog())
    right = [r for r in rows if r["right"]]
    assert len(right) >= 0.9 * len(rows), [r for r in rows if not r["right"]]
    for kind in ("gpu", "model"):  # and neither half carries the other
        mine = [r for r in rows if r["kind"] == kind]
        assert sum(r["right"] for r in mine) >= 0.85 * len(mine), kind
