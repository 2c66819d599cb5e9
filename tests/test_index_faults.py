"""The index under faults and concurrency: `gpu-advisor index` killed with SIGKILL mid-build,
and reader processes searching while a writer re-indexes (real model, real Chroma)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from advisor.cli import main
from advisor.config import Settings
from advisor.retrieval.index import GENERATION_PREFIX, LocalStore, open_index, update_index
from tests.conftest import CORPUS

pytestmark = pytest.mark.slow


def _index(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "advisor.cli", "index", *args],
        env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _generations(index_dir: Path) -> set[str]:
    return {p.name for p in index_dir.glob(f"{GENERATION_PREFIX}*")}


@pytest.mark.parametrize("moment", ["while embedding", "while writing the new generation"])
def test_kill_9_during_index_leaves_the_previous_index_usable(
    moment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    index_dir = tmp_path / "index"
    env = {"ADVISOR_CORPUS_DIR": str(CORPUS), "ADVISOR_INDEX_DIR": str(index_dir)}
    for name, value in env.items():  # for the in-process CLI calls below
        monkeypatch.setenv(name, value)
    assert main(["index"]) == 0
    before = LocalStore(index_dir).read_manifest()
    assert before is not None
    capsys.readouterr()

    proc = _index(["--rebuild"], env)
    deadline = time.monotonic() + 120
    if moment == "while embedding":
        time.sleep(3.0)  # the model is loaded and embedding; nothing is written yet
    else:  # as soon as the new generation's folder appears, Chroma is writing into it
        while _generations(index_dir) == {before.generation} and time.monotonic() < deadline:
            time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the build finished before it could be killed"

    after = LocalStore(index_dir).read_manifest()
    assert after == before  # the manifest still names the old, complete generation
    index = open_index(Settings(corpus_dir=CORPUS, index_dir=index_dir), _embedder(),
                       build_if_missing=False)  # fmt: skip
    assert len(index.chunks) == before.chunks == index.collection.count()
    assert main(["search", "L40 memory bandwidth", "--k", "2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 2

    assert main(["index", "--rebuild"]) == 0  # the lock died with the process
    fresh = LocalStore(index_dir).read_manifest()
    assert fresh is not None and fresh.generation != before.generation
    assert _generations(index_dir) == {before.generation, fresh.generation}  # leftover removed


def _embedder() -> Any:
    from advisor.retrieval.embed import default_embedder

    return default_embedder()


def test_readers_keep_searching_while_a_writer_reindexes(tmp_path: Path, embedder: Any) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for path in sorted(CORPUS.glob("*.md"))[:2]:  # two articles: quick rebuilds
        shutil.copy(path, corpus / path.name)
    settings = Settings(corpus_dir=corpus, index_dir=tmp_path / "index")
    first = update_index(settings, embedder)
    command = [sys.executable, "-m", "tests.index_reader", str(settings.index_dir), str(corpus)]
    stop = tmp_path / "stop"  # the readers search until they see the build it names (300 s)
    readers = [
        subprocess.Popen(
            [*command, "300", str(stop)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    try:
        for reader in readers:  # wait until each has the index open
            assert reader.stdout is not None and reader.stdout.readline().strip() == "ready"
        builds = [update_index(settings, embedder, rebuild=True).generation for _ in range(3)]
        (tmp_path / "stop.part").write_text(builds[-1])
        (tmp_path / "stop.part").replace(stop)  # whole at once: never read half written
    finally:
        stop.touch()
        outputs = [reader.communicate(timeout=120) for reader in readers]
    reports = [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]
    for report, (_, err) in zip(reports, outputs, strict=True):
        assert report["error_count"] == 0, (report["errors"], err[-2000:])
        assert report["searches"] > 0 and report["empty"] == 0
        assert report["generations"][0] in (first.generation, *builds)
        assert report["generations"][-1] == builds[-1]  # it followed the re-index
        assert len(report["generations"]) >= 2
