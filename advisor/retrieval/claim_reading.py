"""Reading article text for spec claims: the GPUs it names (and which variants), its sentences,
and its tables.

A GPU name narrows to the variants its neighbouring words name: "A100 (80GB SXM4)" is the SXM4
80GB card, "PCIe A100s" the two PCIe cards, "the A100's HBM2e" the 80GB ones; "8x A100" also
carries a count. A name with no such words keeps every variant it can mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from advisor.catalog import load_catalog
from advisor.names import gpu_key
from advisor.specs import GPU

_WORD = r"[A-Za-z0-9][A-Za-z0-9\-]*"
_APOS = "['\u2019]"
# words that name a variant: memory size, form factor, memory type
_QUALIFIER = re.compile(r"(\d{2,3})\s*GB\b(?!/s)|(SXM\d?|PCIe|NVL)\b|(HBM\d?e?|GDDR\d?X?)\b", re.I)
_AFTER_GAP = re.compile(rf"(?:{_APOS}s)?[\s,(\-]*")
_BEFORE = re.compile(
    r"(?:(\d+)\s*[\u00d7x]\s*)?(?:(\d{2,3})\s*GB\s+|(SXM\d?|PCIe|NVLink)\s+)?$", re.I
)


@dataclass(frozen=True)
class Mention:
    """A GPU named in text: where, the words, the catalog ids they can mean, how many."""

    start: int
    end: int
    words: str
    ids: tuple[str, ...]
    count: int = 1


@lru_cache(maxsize=1)
def _gpu_names() -> dict[str, tuple[str, ...]]:
    """Normalised name -> GPU ids, for every alias that is not a bare number."""
    catalog = load_catalog()
    names: dict[str, set[str]] = {}
    for gpu in catalog.gpus.values():
        for alias in (gpu.name, *gpu.aliases):
            key = gpu_key(alias)
            if key and not key.isdigit() and len(key) >= 2:
                names.setdefault(key, set()).add(gpu.id)
    return {k: tuple(i for i in catalog.gpus if i in v) for k, v in names.items()}


def mentions(text: str) -> list[Mention]:
    """Every GPU named in text, longest name first at each place, narrowed to the variants the
    words around it name."""
    names = _gpu_names()
    tokens = [(m.start(), m.end()) for m in re.finditer(_WORD, text)]
    keys = [gpu_key(text[s:e]) for s, e in tokens]  # a span's key is its tokens' keys joined
    found = []
    i = 0
    while i < len(tokens):
        for span in (5, 4, 3, 2, 1):
            if i + span > len(tokens):
                continue
            key = "".join(keys[i : i + span])
            ids = names.get(key)
            if not ids and span == 1 and key.endswith("s"):  # "A100s": a plural names it too
                ids = names.get(key[:-1])
            if ids:
                start, end = tokens[i][0], tokens[i + span - 1][1]
                found.append(_narrowed(text, Mention(start, end, text[start:end], ids)))
                i += span
                break
        else:
            i += 1
    return found


def find_gpus(text: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(offset, words, GPU ids) of every GPU named in text, longest name first at each place."""
    return [(m.start, m.words, m.ids) for m in mentions(text)]


def _narrowed(text: str, mention: Mention) -> Mention:
    size: int | None = None
    forms: list[str] = []
    kinds: list[str] = []
    pos = mention.end
    while True:  # "A100 (80GB SXM4)", "A100 SXM4, 80GB", "the A100's HBM2e"
        gap = _AFTER_GAP.match(text, pos)
        at = gap.end() if gap else pos
        q = _QUALIFIER.match(text, at)
        if not q:
            break
        size = int(q.group(1)) if q.group(1) else size
        forms += [q.group(2)] if q.group(2) else []
        kinds += [q.group(3)] if q.group(3) else []
        pos = q.end()
    before = _BEFORE.search(text[max(0, mention.start - 24) : mention.start])
    count = 1
    if before:
        count = max(1, int(before.group(1))) if before.group(1) else 1
        size = int(before.group(2)) if before.group(2) and size is None else size
        forms += [before.group(3)] if before.group(3) else []
    ids = narrow(mention.ids, size=size, forms=forms, memory_types=kinds)
    return Mention(mention.start, mention.end, mention.words, ids, count)


def narrow(
    ids: tuple[str, ...],
    *,
    size: float | None = None,
    forms: list[str] | None = None,
    memory_types: list[str] | None = None,
) -> tuple[str, ...]:
    """The variants among ids that have this memory size, form factor and memory type; all of
    ids when none has them (a name whose words fit no variant is left as the name)."""
    gpus = load_catalog().gpus
    keep = [gpus[i] for i in ids]
    if size is not None:
        keep = [g for g in keep if abs(g.memory_gb - size) <= 1]
    for form in forms or []:
        if form.lower() != "nvlink":  # every A100 has NVLink: the word narrows nothing
            keep = [g for g in keep if form.upper() in f"{g.form_factor} {g.name}".upper()]
    for kind in memory_types or []:
        keep = [g for g in keep if memory_type(g) == kind.upper()]
    return tuple(g.id for g in keep) or ids


def memory_type(gpu: GPU) -> str:
    """'GDDR6 (ECC)' -> 'GDDR6'; 'HBM2e' -> 'HBM2E'."""
    return (gpu.memory_type or "").split(" ")[0].upper()


# ---------------------------------------------------------------- sentences

_ABBREVIATIONS = {"vs", "e.g", "i.e", "etc", "approx", "no", "est", "fig", "inc", "ca"}
_END = re.compile(r"[.!?]+[\"'\u2019\u201d)\]]*\s+")


def sentences(line: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a line; 'vs.' and 'e.g.' do not end one."""
    spans = []
    start = 0
    for end in _END.finditer(line):
        word = re.search(r"([A-Za-z.]+?)\.*[\"'\u2019\u201d)\]]*$", line[start : end.start() + 1])
        if word and word.group(1).lower().rstrip(".") in _ABBREVIATIONS:
            continue
        spans.append((start, end.end()))
        start = end.end()
    if start < len(line):
        spans.append((start, len(line)))
    return spans


# ---------------------------------------------------------------- tables

Cell = tuple[str, str, Mention | None]  # row label, cell text, the GPU its column names


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _first_gpu(text: str) -> Mention | None:
    found = mentions(text)
    return found[0] if found else None


def table_cells(lines: list[str]) -> tuple[dict[int, list[Cell]], set[int]]:
    """Table rows as (row label, cell, the GPU its column names), keyed by line number, and
    the lines the tables take.

    Handles pipe tables ('| Memory | 40GB | 48GB |' under a header naming GPUs) and tables
    flattened one cell per line ('| Memory |' then '40GB |' then '48GB |').
    """
    rows: dict[int, list[Cell]] = {}
    consumed: set[int] = set()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("|") and line.count("|") >= 3:  # pipe table
            header = [_first_gpu(c) for c in _cells(line)]
            j = i + 1
            while j < len(lines) and lines[j].strip().startswith("|"):
                cells = _cells(lines[j])
                if not set("".join(cells)) <= set("-: "):
                    rows[j] = [(cells[0], c, header[k] if k < len(header) else None)
                               for k, c in enumerate(cells) if k > 0]  # fmt: skip
                j += 1
            consumed.add(i)
            i = j
            continue
        flat = re.fullmatch(r"\|\s*([^|]+?)\s*\|", line)
        if flat and i + 1 < len(lines) and re.fullmatch(r"[^|]+\|", lines[i + 1].strip()):
            i = _flat_table(lines, i, rows, consumed)
            continue
        i += 1
    return rows, consumed


def _flat_table(lines: list[str], i: int, rows: dict[int, list[Cell]], consumed: set[int]) -> int:
    header: list[Mention | None] = []
    first = True
    while i < len(lines) and re.fullmatch(r"\|\s*[^|]+?\s*\|", lines[i].strip()):
        label = _cells(lines[i])[0]
        values = []
        k = i + 1
        while k < len(lines) and re.fullmatch(r"[^|]+\|", lines[k].strip()):
            values.append(lines[k].strip().rstrip("|").strip())
            consumed.add(k)
            k += 1
        if first:
            header = [_first_gpu(v) for v in values]
            consumed.add(i)
            first = False
        else:
            rows[i] = [(label, v, header[n] if n < len(header) else None)
                       for n, v in enumerate(values)]  # fmt: skip
        i = k
    return i
