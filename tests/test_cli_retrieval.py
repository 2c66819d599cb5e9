"""`gpu-advisor index`, `search`, `corpus list|audit` end to end (real model, real Chroma)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main
from tests.conftest import CORPUS


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ADVISOR_CORPUS_DIR", str(CORPUS))
    monkeypatch.setenv("ADVISOR_INDEX_DIR", str(tmp_path / "index"))
    return tmp_path / "index"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_then_search(capsys: pytest.CaptureFixture[str], env: Path) -> None:
    code, out, _ = run(capsys, "index", "--json")
    report = json.loads(out)
    assert code == 0 and report["embedded"] == report["chunks"] > 50 and not report["noop"]
    code, out, _ = run(capsys, "index")
    assert code == 0 and "up to date" in out
    code, out, _ = run(capsys, "search", "L40 memory bandwidth", "--k", "3", "--json")
    results = json.loads(out)
    assert code == 0 and len(results) == 3
    assert {"id", "doc", "title", "section", "text", "score"} <= set(results[0])
    code, out, _ = run(capsys, "search", "A6000 cloud price")
    assert code == 0 and "[1]" in out and "a6000-vs-a100-for-ml" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("search", ""), "Give a question"),
        (("search", "gpu", "--doc", "nope"), "No document 'nope'"),
        (("search", "gpu", "--gpu", "RTX 9999"), "Unknown GPU"),
        (("search", "gpu", "--k", "0"), "--k"),
    ],
)
def test_search_bad_input(
    capsys: pytest.CaptureFixture[str], env: Path, args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_damaged_index_gives_the_rebuild_command(
    capsys: pytest.CaptureFixture[str], env: Path
) -> None:
    env.mkdir(parents=True)
    (env / "manifest.json").write_text("{broken")
    code, _, err = run(capsys, "search", "gpu")
    assert code == 2 and "gpu-advisor index --rebuild" in err


def test_corpus_list_and_audit(capsys: pytest.CaptureFixture[str], env: Path) -> None:
    code, out, _ = run(capsys, "corpus", "list", "--json")
    assert code == 0 and len(json.loads(out)) == 5
    code, out, _ = run(capsys, "corpus", "audit", "--json")
    rows = json.loads(out)
    assert code == 0 and {"agrees", "disagrees"} <= {r["status"] for r in rows}
    l40 = [r for r in rows if r["field"] == "bandwidth_gbs" and r["gpu_ids"] == ["l40"]]
    assert l40 and all(r["status"] == "disagrees" and r["datasheet"]["l40"] == 864 for r in l40)
    code, out, _ = run(capsys, "corpus", "audit", "--status", "disagrees")
    assert code == 0 and "│ disagrees" in out and "│ agrees" not in out
