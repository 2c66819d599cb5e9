"""The scale-out shape on one machine: one `chroma run` server holding the index, two API worker
processes (`gpu-advisor serve`) sharing it and one SQLite conversation store. A conversation
started on one worker continues on the other."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from advisor.config import Settings
from advisor.retrieval.index import update_index
from tests import servers
from tests.conftest import CORPUS

pytestmark = pytest.mark.slow


def _ask(port: int, question: str, thread: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/ask",
        data=json.dumps({"question": question, "thread_id": thread}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return dict(json.loads(response.read()))


def test_two_workers_one_chroma_server_one_conversation(tmp_path: Path, embedder: Any) -> None:
    with servers.chroma_server(str(tmp_path / "chroma")) as (host, chroma_port):
        settings = Settings(corpus_dir=CORPUS, index_dir=tmp_path / "locks",
                            chroma_host=host, chroma_port=chroma_port)  # fmt: skip
        update_index(settings, embedder)  # the index lives in the Chroma server only
        env = {
            "CHROMA_HOST": host,
            "CHROMA_PORT": str(chroma_port),
            "ADVISOR_INDEX_DIR": str(tmp_path / "locks"),
            "ADVISOR_CHECKPOINT": str(tmp_path / "shared" / "threads.sqlite"),
            "ADVISOR_HOME": str(tmp_path / "home"),
        }
        ports = [servers.free_port(), servers.free_port()]
        with (
            servers.gpu_advisor("serve", "--port", str(ports[0]), env=env) as one,
            servers.gpu_advisor("serve", "--port", str(ports[1]), env=env) as two,
        ):
            servers.wait_for(f"http://127.0.0.1:{ports[0]}/healthz", proc=one)
            servers.wait_for(f"http://127.0.0.1:{ports[1]}/healthz", proc=two)

            first = _ask(ports[0], "Can I run Llama-3-8B on an L4?", "shared-1")
            assert "Llama-3-8B fits on one NVIDIA L4" in first["answer"]
            second = _ask(ports[1], "and the A10G?", "shared-1")  # the other worker
            assert "Llama-3-8B fits on one NVIDIA A10G" in second["answer"]
            third = _ask(ports[0], "what about on two of them?", "shared-1")
            assert "two NVIDIA A10G" in third["answer"] or "2 x NVIDIA A10G" in third["answer"]

            spec = _ask(ports[1], "What is the memory bandwidth of the L40?", "shared-2")
            assert "864 GB/s" in spec["answer"]
            assert spec["citations"], "passages come from the Chroma server"
    assert not (tmp_path / "index").exists()  # no worker built a local index of its own
