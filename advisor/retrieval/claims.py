"""Spec claims in article text, and how they compare with the datasheet table.

A claim is a GPU, a field (memory, bandwidth, CUDA cores, tensor cores, TDP, TFLOPS with or
without sparsity), a value and a unit, found in one chunk. The GPU is the one named closest
before the number in the same line, else the one its section heading names. The audit compares
each claim with the catalog: agrees, disagrees (both values), or cannot be checked.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from advisor.catalog import Catalog, load_catalog
from advisor.names import gpu_key
from advisor.specs import GPU

# How far a claim may be from the datasheet and still agree: counts are exact; bandwidth is
# often rounded ("1.6 TB/s" for 1,555 GB/s); TFLOPS are quoted to two or three digits.
TOLERANCE = {"cuda_cores": 0.0, "tensor_cores": 0.0, "memory_gb": 0.02, "tdp_w": 0.02,
             "bandwidth_gbs": 0.05}  # fmt: skip
TFLOPS_TOLERANCE = 0.03


@dataclass(frozen=True)
class Claim:
    gpu_text: str  # how the article names the GPU
    gpu_ids: tuple[str, ...]  # the catalog entries that name can mean
    field: str  # memory_gb | bandwidth_gbs | cuda_cores | tensor_cores | tdp_w | <precision>_tflops
    value: float  # normalised to the field's unit
    unit: str
    quote: str  # the words in the article

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["gpu_ids"] = list(self.gpu_ids)
        return data


@dataclass(frozen=True)
class Verdict:
    claim: Claim
    status: str  # agrees | disagrees | unchecked
    datasheet: dict[str, float | None]  # gpu id -> datasheet value
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {**self.claim.to_dict(), "status": self.status, "datasheet": self.datasheet,
                "note": self.note}  # fmt: skip


# ---------------------------------------------------------------- finding GPUs in text

_WORD = r"[A-Za-z0-9][A-Za-z0-9\-]*"


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
    ordered = {k: tuple(i for i in catalog.gpus if i in v) for k, v in names.items()}
    return ordered


def find_gpus(text: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(offset, words, GPU ids) of every GPU named in text, longest name first at each place."""
    names = _gpu_names()
    tokens = [(m.start(), m.end()) for m in re.finditer(_WORD, text)]
    keys = [gpu_key(text[s:e]) for s, e in tokens]  # a span's key is its tokens' keys joined
    found = []
    i = 0
    while i < len(tokens):
        for span in (5, 4, 3, 2, 1):
            if i + span > len(tokens):
                continue
            start, end = tokens[i][0], tokens[i + span - 1][1]
            words = text[start:end]
            ids = names.get("".join(keys[i : i + span]))
            if ids:
                found.append((start, words, ids))
                i += span
                break
        else:
            i += 1
    return found


# ---------------------------------------------------------------- claim patterns

_NUM = r"(?:~\s*)?(\d[\d,]*(?:\.\d+)?)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("cuda_cores", re.compile(_NUM + r"\+?\s*(?:CUDA\s+cores|shading units)", re.I)),
    ("cuda_cores", re.compile(r"CUDA\s+Cores\W{0,6}" + _NUM, re.I)),
    ("tensor_cores", re.compile(_NUM + r"\s*(?:\(\w+ Gen\)\s*)?Tensor\s+Cores", re.I)),
    ("tensor_cores", re.compile(r"Tensor\s+Cores\W{0,6}" + _NUM, re.I)),
    ("memory_gb", re.compile(
        _NUM + r"\s*GB\s*(?:of\s+)?(?:HBM\w*|GDDR\w*|VRAM|memory|graphics)", re.I)),
    ("memory_gb", re.compile(r"(?:Memory|VRAM)\W{0,6}" + _NUM + r"\s*GB\b(?!/s)", re.I)),
    ("bandwidth_gbs", re.compile(_NUM + r"\s*(TB/s|GB/s)", re.I)),
    ("tdp_w", re.compile(r"(?:TDP|power(?:\s+consumption)?)\W{0,12}(?:of\s+|up\s+to\s+)?"
                         + _NUM + r"\s*W\b", re.I)),
    ("tdp_w", re.compile(_NUM + r"\s*W\s+(?:TDP|max(?:imum)? power)", re.I)),
    ("tflops", re.compile(_NUM + r"\s*(TFLOPS|TOPS)", re.I)),
]  # fmt: skip
_PRECISIONS = (("tf32", "tf32"), ("fp64", "fp64"), ("fp32", "fp32"), ("single", "fp32"),
               ("fp16", "fp16_bf16"), ("bf16", "fp16_bf16"), ("half", "fp16_bf16"),
               ("fp8", "fp8"), ("int8", "int8"), ("tensor", "fp16_bf16"))  # fmt: skip


def _number(text: str) -> float:
    return float(text.replace(",", ""))


Mention = tuple[int, str, tuple[str, ...]]


def extract_claims(text: str, section: str = "", *, terse: bool = False) -> list[Claim]:
    """Every spec claim in a passage, attributed to the GPU it is about.

    In a table the GPU is the column's; elsewhere the GPU named closest before the number on
    its line, else the last short label line naming a GPU ("NVIDIA A4000:"), else the heading's.
    `terse` reads a GB/s figure as memory bandwidth even when the words around it do not say so
    ("the L40 has 128 GB/s"), as an answer to a bandwidth question would put it.
    """
    heading = find_gpus(section)
    current: Mention | None = heading[-1] if heading else None
    lines = text.split("\n")
    cells, consumed = _table_cells(lines)
    claims: list[Claim] = []
    for i, line in enumerate(lines):
        if i in consumed:
            continue
        if i in cells:
            for label, value, gpu in cells[i]:
                claims += _line_claims(f"{label}: {value}", [], gpu, terse)
            continue
        mentions = find_gpus(line)
        if mentions and len(line.strip()) <= 60:
            current = mentions[-1]
        claims += _line_claims(line, mentions, current, terse)
    return claims


def _line_claims(
    line: str, mentions: list[Mention], fallback: Mention | None, terse: bool = False
) -> list[Claim]:
    found: list[Claim] = []
    taken: set[tuple[str, int]] = set()
    for field, pattern in _PATTERNS:
        for match in pattern.finditer(line):
            key = ("t" if field == "tflops" else field, match.start(1))
            if key in taken:
                continue
            taken.add(key)
            before = [m for m in mentions if m[0] < match.start()]
            source = before[-1] if before else (mentions[0] if mentions else fallback)
            claim = _claim(field, match, line, source, terse) if source else None
            if claim:
                found.append(claim)
    return found


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_cells(
    lines: list[str],
) -> tuple[dict[int, list[tuple[str, str, Mention | None]]], set[int]]:
    """Table rows as (row label, cell, the GPU its column names), keyed by line number.

    Handles pipe tables ('| Memory | 40GB | 48GB |' under a header naming GPUs) and tables
    flattened one cell per line ('| Memory |' then '40GB |' then '48GB |').
    """
    rows: dict[int, list[tuple[str, str, Mention | None]]] = {}
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
            header = []
            j = i
            first = True
            while j < len(lines) and re.fullmatch(r"\|\s*[^|]+?\s*\|", lines[j].strip()):
                label = _cells(lines[j])[0]
                values = []
                k = j + 1
                while k < len(lines) and re.fullmatch(r"[^|]+\|", lines[k].strip()):
                    values.append(lines[k].strip().rstrip("|").strip())
                    consumed.add(k)
                    k += 1
                if first:
                    header = [_first_gpu(v) for v in values]
                    consumed.add(j)
                    first = False
                else:
                    rows[j] = [(label, v, header[n] if n < len(header) else None)
                               for n, v in enumerate(values)]  # fmt: skip
                j = k
            i = j
            continue
        i += 1
    return rows, consumed


def _first_gpu(text: str) -> Mention | None:
    found = find_gpus(text)
    return found[0] if found else None


_NOT_MEMORY = ("pcie", "nvlink", "inter-gpu", "interconnect", "infiniband", "ethernet", "gbe",
               "cpu", "storage", "nvme", "network", "link")  # fmt: skip


def _claim(
    field: str, match: re.Match[str], line: str, source: Mention, terse: bool = False
) -> Claim | None:
    value = _number(match.group(1))
    unit = {"cuda_cores": "cores", "tensor_cores": "cores", "memory_gb": "GB", "tdp_w": "W"}.get(
        field, ""
    )
    context = line[max(0, match.start() - 60) : match.end() + 40].lower()
    if field == "bandwidth_gbs":
        if "bandwidth" not in context and "memory" not in context and not terse:
            return None
        if any(word in context for word in _NOT_MEMORY):
            return None
        if match.group(2).lower() == "tb/s":
            value *= 1000
        unit = "GB/s"
    if field == "tflops":
        precision = next((p for word, p in _PRECISIONS if word in context), None)
        if precision is None:
            return None
        sparse = "sparsity" in context or "sparse" in context
        field = f"{precision}_{'sparse' if sparse else 'dense'}_{match.group(2).lower()}"
        unit = match.group(2).upper()
    quote = line[max(0, match.start() - 40) : match.end() + 10].strip()
    return Claim(source[1], source[2], field, value, unit, quote)


# ---------------------------------------------------------------- audit against the datasheet


def _datasheet_value(gpu: GPU, field: str) -> float | None:
    if field in ("memory_gb", "bandwidth_gbs", "cuda_cores", "tensor_cores", "tdp_w"):
        value = getattr(gpu, field)
        return None if value is None else float(value)
    match = re.fullmatch(r"(\w+?)_(dense|sparse)_(tflops|tops)", field)
    if not match:
        return None
    precision, kind, _ = match.groups()
    name = {"fp32": "fp32_tflops", "fp64": "fp64_tflops"}.get(precision)
    if name is None:
        suffix = "tops" if precision == "int8" else "tflops"
        name = f"{precision}_{kind}_{suffix}"
    value = getattr(gpu, name, None)
    return None if value is None else float(value)


def audit_claim(claim: Claim, catalog: Catalog | None = None) -> Verdict:
    """Compare one claim with the datasheet values of every GPU its name can mean."""
    catalog = catalog or load_catalog()
    values = {i: _datasheet_value(catalog.gpus[i], claim.field) for i in claim.gpu_ids}
    known = {i: v for i, v in values.items() if v}
    if not known:
        return Verdict(claim, "unchecked", values, "the datasheet table has no value for this")
    tolerance = TOLERANCE.get(claim.field, TFLOPS_TOLERANCE)
    if any(abs(claim.value - v) <= tolerance * v for v in known.values()):
        return Verdict(claim, "agrees", values, "")
    note = _explain(claim, known, catalog)
    return Verdict(claim, "disagrees", values, note)


def _explain(claim: Claim, known: dict[str, float], catalog: Catalog) -> str:
    sheet = ", ".join(f"{catalog.gpus[i].name}: {v:g}" for i, v in known.items())
    note = f"datasheet says {sheet} {claim.unit}".strip()
    if claim.field.endswith("_dense_tflops"):
        sparse_field = claim.field.replace("_dense_", "_sparse_")
        for gpu_id in known:
            sparse = _datasheet_value(catalog.gpus[gpu_id], sparse_field)
            if sparse and abs(claim.value - sparse) <= TFLOPS_TOLERANCE * sparse:
                return note + "; the article quotes the 2:4-sparsity figure without saying so"
    return note


def audit(chunks_claims: list[tuple[str, str, str, list[Claim]]]) -> list[dict[str, Any]]:
    """Rows for `gpu-advisor corpus audit`: (chunk id, doc, section, claims) in, verdicts out."""
    catalog = load_catalog()
    rows = []
    for chunk_id, doc_id, section, claims in chunks_claims:
        for claim in claims:
            verdict = audit_claim(claim, catalog)
            rows.append({"chunk": chunk_id, "doc": doc_id, "section": section, **verdict.to_dict()})
    return rows
