"""Name normalisation and size parsing."""

from __future__ import annotations

import pytest

from advisor.names import gpu_key, model_key, parse_size_b, suggest


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("NVIDIA A100-SXM4-80GB", "a100sxm480gb"),
        ("a100 sxm4 80 GB", "a100sxm480gb"),
        ("A100-80G", "a10080gb"),
        ("NVIDIA GeForce RTX 4090 Laptop GPU", "rtx4090laptop"),
        ("Tesla T4", "t4"),
        ("an RTX A6000", "rtxa6000"),
        ("RTX 6000 Ada Generation", "rtx6000ada"),
        ("", ""),
    ],
)
def test_gpu_key(text: str, key: str) -> None:
    assert gpu_key(text) == key


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "llama3.18b"),
        ("llama3.1:8b", "llama3.18b"),
        ("Llama 3.1 8B", "llama3.18b"),
        ("gemma-2-9b-it", "gemma29b"),
        ("Llama-2-7b-chat-hf", "llama27b"),
        ("Qwen2.5-7B-Instruct", "qwen2.57b"),
    ],
)
def test_model_key(text: str, key: str) -> None:
    assert model_key(text) == key


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("13b", 13.0),
        ("13 B", 13.0),
        ("a 13B model", 13.0),
        ("13 billion parameter model", 13.0),
        ("7B dense", 7.0),
        ("500m", 0.5),
        ("1.5 billion parameters", 1.5),
        ("llama 13b", None),
        ("13", None),
        ("b13", None),
        ("13b 70b", None),
    ],
)
def test_parse_size_b(text: str, size: float | None) -> None:
    assert parse_size_b(text) == size


def test_suggest_prefers_containment_then_similarity() -> None:
    index = {"rtx6000ada": ["rtx-6000-ada"], "rtxa6000": ["rtx-a6000"], "l4": ["l4"]}
    assert suggest("rtx6000", index)[0] == "rtx-6000-ada"
    assert suggest("", index) == []
    assert "l4" not in suggest("rtx6000", index)
