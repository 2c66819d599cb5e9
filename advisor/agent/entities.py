"""Finding names in a question: GPUs and models, matched against the catalog's aliases.

"two A100 80GB", "llama 3 8b", "an RTX A4000": the longest run of words that names a catalog entry
wins. A near-miss model name is read as its closest match with a note saying so; a GPU-shaped word
the catalog does not know comes back with suggestions; nothing is guessed silently.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Any

from advisor.catalog import Catalog
from advisor.names import gpu_key, model_key, suggest

NUMBER_WORDS = {
    "one": 1,
    "single": 1,
    "a": 1,
    "an": 1,
    "two": 2,
    "pair": 2,
    "dual": 2,
    "both": 2,
    "three": 3,
    "four": 4,
    "quad": 4,
    "six": 6,
    "eight": 8,
    "sixteen": 16,
}

_VOCABULARY = (
    "finetune",
    "fine-tune",
    "inference",
    "bandwidth",
    "memory",
    "compare",
    "recommend",
    "context",
    "training",
    "serving",
    "tokens",
    "throughput",
    "cheapest",
    "maximum",
    "quantized",
    "precision",
    "between",
    "versus",
    "which",
    "should",
    "specs",
    "qlora",
    "price",
    "prices",
    "batch",
    "faster",
    "power",
    "cost",
)


@dataclass(frozen=True)
class Mention:
    """A name found in the question and what it resolves to."""

    text: str
    ids: tuple[str, ...]  # one: resolved; several: ambiguous; none: unknown
    suggestions: tuple[str, ...] = ()
    count: int | None = None  # "two A100s" -> 2
    note: str | None = None  # "read 'lama 3 8b' as Llama-3-8B"


# ---------------------------------------------------------------- tokens and spelling


def _tokens(text: str) -> list[tuple[int, int, str]]:
    """Words with their offsets; trailing punctuation and possessives dropped."""
    out = []
    for m in re.finditer(r"[^\s,;:!?()\"]+", text):
        word = m.group(0)
        stripped = re.sub(r"(?:'s|\u2019s)$", "", word).rstrip(".'\u2019")
        if stripped:
            out.append((m.start(), m.start() + len(stripped), stripped))
    return out


def spell(text: str) -> str:
    """Fix near-miss keywords ("bandwith", "fien-tune", "infrence") so the patterns see them."""

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        low = word.lower()
        if len(low) < 5 or low in _VOCABULARY:
            return word
        close = difflib.get_close_matches(low, _VOCABULARY, n=1, cutoff=0.8)
        return close[0] if close else word

    return re.sub(r"[A-Za-z][A-Za-z-]+", fix, text)


# ---------------------------------------------------------------- names


def _scan(
    tokens: list[tuple[int, int, str]], text: str, lookup: Any, max_span: int = 5
) -> list[tuple[int, int, int, int, Any]]:
    """Longest catalog matches: (first token, last token + 1, start, end, found)."""
    found = []
    i = 0
    while i < len(tokens):
        for span in range(min(max_span, len(tokens) - i), 0, -1):
            start, end = tokens[i][0], tokens[i + span - 1][1]
            hit = lookup(text[start:end])
            if hit:
                found.append((i, i + span, start, end, hit))
                i += span
                break
        else:
            i += 1
    return found


def _gpu_lookup(catalog: Catalog) -> Any:
    def lookup(words: str) -> list[str] | None:
        bare = re.fullmatch(r"\d+(?:\.\d+)?\s*(?:gb|gigs?|b|k)?", words.lower())
        if bare and words.lower() not in {"3090", "4090", "4080", "5090", "3060", "3080", "5080"}:
            return None  # a bare quantity, not a GPU
        for candidate in (words, re.sub(r"(?<=\d)s$", "", words), re.sub(r"s$", "", words)):
            ids = [g.id for g in catalog.find_gpus(candidate)]
            if ids:
                return ids
        return None

    return lookup


def _model_lookup(catalog: Catalog) -> Any:
    def lookup(words: str) -> list[str] | None:
        if not re.search(r"[a-z]", words, re.I) or not re.search(r"\d", words):
            return None
        ids = [m.id for m in catalog.find_models(words)]
        return ids or None

    return lookup


_GPU_SHAPE = re.compile(
    r"^(?:rtx|gtx|quadro|tesla)?[-\s]?(?:[a-z]{1,2}\d{2,4}[a-z]?|\d{4})(?:\s?ti)?$", re.I
)
# precisions, sizes and other words shaped like GPU names
_NOT_GPU = re.compile(r"^(?:fp|bf|int|nf|q|w|sm|gen|pcie|ddr|gddr|hbm|cuda|tp|pp|v)\d", re.I)
_MODEL_FAMILY = re.compile(
    r"^(?:l?lama|qwen|mistral|mixtral|gemma|phi|deepseek|falcon|yi|olmo|gpt|command|codellama"
    r"|starcoder|dbrx|grok|kimi|glm|smollm|granite|internlm|baichuan|jamba)",
    re.I,
)


def _count_before(tokens: list[tuple[int, int, str]], index: int) -> int | None:
    """'two A100s', '2x A100', '8 x H100', '4 x L4': the count written before a GPU name."""
    if index == 0:
        return None
    prev = tokens[index - 1][2].lower().rstrip("x\u00d7")
    if prev in ("", "x", "\u00d7") and index >= 2:
        prev = tokens[index - 2][2].lower()
    if prev.isdigit() and 0 < int(prev) <= 1024:
        return int(prev)
    if prev in NUMBER_WORDS and prev not in ("a", "an"):
        return NUMBER_WORDS[prev]
    return None


def find_gpus(text: str, catalog: Catalog) -> list[Mention]:
    tokens = _tokens(text)
    mentions: list[Mention] = []
    taken: set[int] = set()
    for first, last, _start, _end, ids in _scan(tokens, text, _gpu_lookup(catalog)):
        taken.update(range(first, last))
        words = re.sub(
            r"^(?:an?|the|one|single)\s", "", " ".join(t[2] for t in tokens[first:last]), flags=re.I
        )
        mention = Mention(words, tuple(ids), count=_count_before(tokens, first))
        if len(ids) > 1:  # "A100 40GB": SXM or PCIe, same memory: take the first, say so
            gpus = [catalog.gpus[i] for i in ids]
            if len({g.memory_gb for g in gpus}) == 1:
                note = (
                    f"'{words}' can mean {' or '.join(g.name for g in gpus)}; I used the "
                    f"{gpus[0].name} (name the variant for another)."
                )
                mention = replace(mention, ids=(ids[0],), note=note)
        if not any(m.ids == mention.ids for m in mentions):
            mentions.append(mention)
    # GPU-shaped words the catalog does not know: "RTX 9999", "A1000"
    for i, (_s, _e, word) in enumerate(tokens):
        if i in taken:
            continue
        pair = f"{tokens[i - 1][2]} {word}" if i and tokens[i - 1][2].lower() == "rtx" else word
        not_gpu = _NOT_GPU.match(word) and pair == word
        if _GPU_SHAPE.match(pair) and (pair != word or not word.isdigit()) and not not_gpu:
            ids = suggest(gpu_key(pair), catalog._gpu_index)
            mentions.append(Mention(pair, (), tuple(catalog.gpus[i].name for i in ids)))
    return mentions


def find_model(text: str, catalog: Catalog) -> Mention | None:
    tokens = _tokens(text)
    hits = _scan(tokens, text, _model_lookup(catalog), max_span=4)
    if hits:
        _f, _l, start, end, ids = max(hits, key=lambda h: h[3] - h[2])
        words = text[start:end]
        models = [catalog.models[i] for i in ids]
        shape = {(m.num_layers, m.hidden_size, m.num_kv_heads, m.head_dim) for m in models}
        sizes = [m.total_params for m in models]
        if len(ids) > 1 and len(shape) == 1 and max(sizes) <= 1.02 * min(sizes):
            # releases of one architecture (Mistral 7B v0.1 / v0.3): the same numbers
            note = (
                f"'{words}' names {_count(len(ids))} releases of one architecture; I used "
                f"{models[0].name}."
            )
            return Mention(words, (ids[0],), note=note)
        return Mention(words, tuple(ids))
    # a family word followed by a size: a near miss ("lama 3 8b", "Llama3-8B-instruct-hf")
    for i, (_s, _e, word) in enumerate(tokens):
        if not _MODEL_FAMILY.match(word):
            continue
        span = [word]
        for _s2, _e2, nxt in tokens[i + 1 : i + 4]:
            if not re.search(r"\d", nxt) and not re.fullmatch(
                r"(?:instruct|chat|it|base)", nxt, re.I
            ):
                break
            span.append(nxt)
        words = " ".join(span)
        if not re.search(r"\d", words):
            continue
        key = model_key(words)
        ids = suggest(key, catalog._model_index, limit=3)
        names = tuple(catalog.models[m].name for m in ids)
        best = difflib.get_close_matches(key, list(catalog._model_index), n=1, cutoff=0.85)
        if best:
            model = catalog.models[catalog._model_index[best[0]][0]]
            return Mention(words, (model.id,), note=f"I read '{words}' as {model.name}.")
        return Mention(words, (), names)
    return None


def _count(n: int) -> str:
    """A small count in words: notes are prose, and a numeral there would trace to no tool."""
    return {2: "two", 3: "three", 4: "four", 5: "five"}.get(n, "several")
