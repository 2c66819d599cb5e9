"""Turning names as people write them into lookup keys, and finding near misses."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from advisor import rx

# Words that never tell two GPUs apart: "NVIDIA GeForce RTX 4090 GPU" is the "RTX 4090".
_GPU_NOISE = {"nvidia", "geforce", "tesla", "amd", "instinct", "intel", "habana", "generation"}
_GPU_NOISE |= {"gpu", "card", "the", "a", "an", "one", "single"}
# Words that never change a model's architecture: instruct and chat tunes share their base's shape.
# spellings of one name: "Stable Diffusion XL" is "SDXL", "FLUX.1 dev" is "flux dev"
_MODEL_SYNONYMS = (("stablediffusion", "sd"), ("flux.1", "flux"), ("flux1", "flux"))
_SIZED = re.compile(r"\d(?:\.\d+)?[bm]$")  # a parameter count: "8b", "1.5b", "350m"
_MODEL_NOISE = {"instruct", "chat", "it", "hf", "base", "pt", "meta", "model", "the", "a", "an"}


def gpu_key(text: str) -> str:
    """'NVIDIA A100-SXM4-80GB' -> 'a100sxm480gb'; '80G' and '80 GB' both become '80gb'. Letters
    with accents keep their letter (Turkish "RTX 5090 mi?" with a dotless i, and "RTX 4090 mà",
    Vietnamese, are no "5090 M" mobile part). A space only separates, so the key is its words'
    keys joined: the linker asks for many spans of the same words."""
    return "".join(_gpu_word_key(word) for word in text.split())


@lru_cache(maxsize=1 << 16)
def _gpu_word_key(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFD", text.replace("\u0131", "i"))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    kept = []
    for token in _NOT_ALNUM.split(text.lower()):
        if token.startswith(_VENDORS):  # "geforcertx3060", "teslav100": a vendor word run in
            token = _VENDOR_RUN.sub("", token)
        if not token or token in _GPU_NOISE:
            continue
        kept.append(_GIB_WORD.sub(r"\1gb", token) if token[-1] in "gb" else token)
    return "".join(kept)


_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_VENDORS = ("nvidia", "geforce", "tesla", "amd", "instinct", "intel", "habana")
_VENDOR_RUN = re.compile(rf"^(?:{'|'.join(_VENDORS)})(?=[a-z]*\d)")
_GIB_WORD = re.compile(r"^(\d+)(g|gib)$")


@lru_cache(maxsize=1 << 16)  # the linker asks for the same spans many times a question
def model_key(text: str) -> str:
    """'meta-llama/Meta-Llama-3.1-8B-Instruct' and 'llama3.1:8b' -> 'llama3.18b'.

    An organisation prefix ("meta-llama/") is dropped, but not the patch size of "ViT-B/16";
    "base" is noise only beside a parameter count ("Llama-3-8B-base"), never in "BERT-base"."""
    text = text.lower().strip()
    if "/" in text:
        org, _, rest = text.rpartition("/")
        if rx.search(r"[a-z]", rest) and rx.fullmatch(r"[a-z][\w.-]*", org):
            text = rest
    # a space only separates: each word's tokens are worked out once (the linker asks for
    # many spans of the same words)
    tokens = [t for word in text.split() for t in _model_tokens(word)]
    sized = any(_SIZED.search(t) for t in tokens)
    noise = _MODEL_NOISE if sized else _MODEL_NOISE - {"base"}
    key = "".join(t for t in tokens if t and t not in noise)
    for spelled, short in _MODEL_SYNONYMS:
        key = key.replace(spelled, short)
    return key


_NOT_MODEL_CHAR = re.compile(r"[^a-z0-9.]+")


@lru_cache(maxsize=1 << 16)
def _model_tokens(word: str) -> tuple[str, ...]:
    return tuple(t.strip(".") for t in _NOT_MODEL_CHAR.split(word))


def suggest(key: str, index: dict[str, list[str]], limit: int = 5) -> list[str]:
    """Ids whose keys are near `key`: containment first, then edit similarity."""
    if not key:
        return []
    contained = [k for k in index if key in k or (len(k) >= 3 and k in key)]
    contained.sort(key=lambda k: abs(len(k) - len(key)))
    close = difflib.get_close_matches(key, list(index), n=10, cutoff=0.6)
    if not contained and not close:  # nothing near: offer the least far ones anyway
        close = difflib.get_close_matches(key, list(index), n=limit, cutoff=0.4)
    numbers = re.findall(r"\d{2,}", key)
    line = re.match(r"[a-z]{2,}(?=\d)", key)  # "rx" of "rx5700": a card of the same line is near
    if numbers:  # "tesla k80s" is near no "ryzen ai max 395": its number or its line must be in it
        close = [k for k in close if set(numbers) & set(re.findall(r"\d{2,}", k))
                 or (line and line.group(0) in k)]  # fmt: skip
    return _unique(i for k in [*contained, *close] for i in index[k])[:limit]


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


_SIZE = re.compile(
    r"^(?:(?:an?|any|some|generic)\s+)*(\d+(?:\.\d+)?)\s*(b|bn|billion|m|million)\b"
    r"(?:[\s-]*(?:param(?:eter)?s?|dense|llm|model|transformer|generic))*$",
    re.IGNORECASE,
)


def parse_size_b(text: str) -> float | None:
    """'13b', 'a 13B model', '13 billion parameter model', '500M' -> size in billions; else None."""
    match = _SIZE.match(text.strip())
    if not match:
        return None
    value = float(match.group(1))
    return value / 1000 if match.group(2).lower().startswith("m") else value


_MEMORY = re.compile(
    r"^(?:(?:an?|any|some|generic)\s+)*(\d+(?:\.\d+)?)\s*(?:gb|g|gib|gigs?)\b"
    r"(?:[\s-]*(?:of\s+)?(?:vram|memory|gpu|card|graphics card))*$",
    re.IGNORECASE,
)


def parse_memory_gb(text: str) -> float | None:
    """'24gb', 'a 24 GB card', '48 gigs of vram' -> memory in GB; else None."""
    match = _MEMORY.match(text.strip())
    return float(match.group(1)) if match else None
