"""Spec claims in article text, and how they compare with the datasheet table.

A claim is a GPU, a field (memory, memory type, bandwidth, CUDA and tensor cores, TDP, TFLOPS
dense or sparse, release year, a GPU-to-GPU or host link, a ratio between two GPUs, a system
price), a value and a unit, found in one chunk. Within a sentence the unit may be far from the
number and the field named in the sentence before ("Tensor performance ... It offers 222.2
TFLOPS"); a value may be a range. The GPU is the column's in a table; in prose the one named
closest before the number in its line (the subject, not the object, of "X outperforms Y,
offering N"), else the last short label line, else the section heading. A name narrows to the
variants its words name (claim_reading.py); when it names none, a value any variant has agrees.
Ratios, links and prices are checked through the calculator, the interconnect data and the
dated purchase prices (claim_derived.py).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from advisor.catalog import Catalog, load_catalog
from advisor.retrieval.claim_reading import (
    Mention,
    find_gpus,
    memory_type,
    mentions,
    narrow,
    table_cells,
)
from advisor.retrieval.claim_reading import sentences as sentence_spans

__all__ = ["Claim", "Verdict", "audit", "audit_claim", "extract_claims", "find_gpus"]

# Bump when what extract_claims finds changes: claims are stored with each indexed chunk, so
# the index is stamped with this and must be rebuilt to carry the new ones.
CLAIMS_VERSION = "claims-2"

# How far a claim may be from the datasheet and still agree: counts and years are exact;
# bandwidth is often rounded ("1.6 TB/s" for 1,555 GB/s); TFLOPS are quoted to two or three digits.
TOLERANCE = {"cuda_cores": 0.0, "tensor_cores": 0.0, "memory_gb": 0.02, "tdp_w": 0.02,
             "bandwidth_gbs": 0.05, "release_year": 0.0}  # fmt: skip
TFLOPS_TOLERANCE = 0.03


@dataclass(frozen=True)
class Claim:
    gpu_text: str  # how the article names the GPU
    gpu_ids: tuple[str, ...]  # the catalog entries that name can mean
    field: str  # a catalog field, memory_type, gpu_link_gbs, pcie_gbs, *_ratio, system_price_usd
    value: float | str  # normalised to the field's unit (a ratio as this GPU's over the other's)
    unit: str
    quote: str  # the words in the article
    value_max: float | None = None  # a range's top ("18,000-18,500 CUDA cores")
    qualifier: str = ""  # what else the words say: "bidirectional", "training fp16", "gen4 x16"
    count: int = 1  # how many of the GPU ("8x A100")
    other_text: str = ""  # a ratio's second GPU
    other_ids: tuple[str, ...] = ()
    other_count: int = 1
    model: str = ""  # the workload a speed ratio names ("ResNet-50")
    as_of: str | None = None  # the article's date: prices are judged against later ones

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["gpu_ids"], data["other_ids"] = list(self.gpu_ids), list(self.other_ids)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Claim:
        """A claim as stored in the index or returned by a tool (lists back to tuples)."""
        return cls(**{**data, "gpu_ids": tuple(data["gpu_ids"]),
                      "other_ids": tuple(data.get("other_ids", ()))})  # fmt: skip


@dataclass(frozen=True)
class Verdict:
    claim: Claim
    status: str  # agrees | disagrees | unchecked
    datasheet: dict[str, float | str | None]  # gpu id (or what was compared) -> its value
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {**self.claim.to_dict(), "status": self.status, "datasheet": self.datasheet,
                "note": self.note}  # fmt: skip


# ---------------------------------------------------------------- claim patterns

_N = r"\d[\d,]*(?:\.\d+)?"
_NUM = rf"(?<![\w.,])(?:~\s*)?(?P<v>{_N})(?:\s*(?:-|\u2013|to)\s*(?P<hi>{_N}))?"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("cuda_cores", re.compile(_NUM + r"\+?\s*(?:CUDA\s+cores|shading units)", re.I)),
    ("cuda_cores", re.compile(r"CUDA\s+Cores\W{0,6}" + _NUM, re.I)),
    ("tensor_cores", re.compile(_NUM + r"\s*(?:\(\w+ Gen\)\s*)?Tensor\s+Cores", re.I)),
    ("tensor_cores", re.compile(r"Tensor\s+Cores\W{0,6}" + _NUM, re.I)),
    ("memory_gb", re.compile(
        _NUM + r"\s*GB\s*(?:of\s+)?(?:HBM\w*|GDDR\w*|VRAM|memory|graphics)", re.I)),
    ("memory_gb", re.compile(r"(?:Memory|VRAM)\W{0,6}" + _NUM + r"\s*GB\b(?!/s)", re.I)),
    ("bandwidth_gbs", re.compile(_NUM + r"\s*(?P<unit>TB/s|GB/s)", re.I)),
    ("tdp_w", re.compile(_NUM + r"\s*W\b(?!/)")),
    ("tflops", re.compile(_NUM + r"\s*(?P<unit>TFLOPS|TOPS)", re.I)),
]  # fmt: skip
_MEMORY_TYPE = re.compile(
    r"(?<![\w.])(?P<more>(?:\d{1,3}\s*GB\s*(?:,|and|or|/)\s*)*)(?P<v>\d{1,3})\s*GB\s*"
    r"(?:of\s+)?(?P<type>HBM\d?e?|GDDR\d?X?)\b", re.I)  # fmt: skip
# A question states a card's figures tersely: "the 4090 has 32GB right?", "I read the L4 has HBM
# memory": a size or a memory kind after a verb of having, with no "memory" or "VRAM" beside it
_TERSE_MEMORY = re.compile(
    r"\b(?:has|have|had|with|got|packs?|carries|comes with|ships with)\s+(?:only |just |a |"
    r"about |around |like |~)?" + _NUM + r"\s*(?:GB|gigs?|gigabytes?)\b(?!/s| model)",
    re.I,
)
_TERSE_TYPE = re.compile(
    r"\b(?:has|have|had|uses?|with|got|comes with|ships with)\s+(?:\w+\s+){0,2}?"
    r"(?P<type>HBM\d?e?|GDDR\d?X?)\b",
    re.I,
)
_YEAR = re.compile(r"(?:released|launched|introduced|release year)\W{0,3}(?:in\s+)?"
                   r"(?:[A-Z][a-z]+\s+)?(?P<v>(?:19|20)\d\d)\b", re.I)  # fmt: skip
# explicit precisions first: "TF32 Tensor Performance" is TF32, not the tensor default
_PRECISIONS = [(re.compile(p), name) for p, name in (
    (r"\btf32\b", "tf32"), (r"\bfp64\b|double[- ]precision", "fp64"),
    (r"\bfp32\b|single[- ]precision", "fp32"), (r"\b(?:fp|bf)16\b|half[- ]precision", "fp16_bf16"),
    (r"\bfp8\b", "fp8"), (r"\bint8\b", "int8"))]  # fmt: skip
_NOT_A_RATE = ("rt core", "ray tracing", "non-tensor", "ai tops")  # no datasheet field holds these
_TDP_WORDS = ("tdp", "power", "consum", "draw", "watt")
_NOT_TDP = ("supply", "psu", "system", "server", "rack", "node", "total", "platform")
_NOT_MEMORY = ("pcie", "nvlink", "inter-gpu", "interconnect", "infiniband", "ethernet", "gbe",
               "cpu", "storage", "nvme", "network", "link")  # fmt: skip
_LINK_WORDS = ("nvlink", "nvswitch", "bridge", "-way", "interconnect")
_PCIE = re.compile(r"PCIe\s*(?:Gen\s*)?(?P<gen>\d)(?:\.0)?\s*x\s*(?P<lanes>\d+)", re.I)
# "X outperforms Y, offering N": N is X's; "Y's N", "Y (N)" and "Y: N" are Y's
_OBJECT = re.compile(r"(?:outperforms|beats|exceeds|than|versus|vs\.?|compared\s+(?:to|with)|"
                     r"over|against)\s+(?:the\s+|an?\s+)?(?:nvidia\s+)?$", re.I)  # fmt: skip
_ADJACENT = re.compile(r"(?:['\u2019]s)?\s*[(:,]?\s*(?:~\s*)?", re.I)
_COMPARE = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|than)\s", re.I)


def _number(text: str) -> float:
    """ "18,000" is eighteen thousand; "1,5" (a decimal comma: not three digits after it) is
    one and a half."""
    if re.fullmatch(r"\d+,\d{1,2}", text):
        return float(text.replace(",", "."))
    return float(text.replace(",", ""))


def extract_claims(
    text: str, section: str = "", *, terse: bool = False, published: str | None = None
) -> list[Claim]:
    """Every spec claim in a passage, attributed to the GPU it is about.

    In a table the GPU is the column's; elsewhere the GPU named closest before the number on
    its line, else the last short label line naming a GPU ("NVIDIA A4000:"), else the heading's.
    `terse` reads a GB/s figure as memory bandwidth even when the words around it do not say so
    ("the L40 has 128 GB/s"), as an answer to a bandwidth question would put it. `published`
    (the article's date) decides which purchase prices a system price is judged against.
    """
    from advisor.retrieval.claim_derived import derived_claims

    heading = mentions(section)
    current: Mention | None = heading[-1] if heading else None
    lines = text.split("\n")
    cells, consumed = table_cells(lines)
    claims: list[Claim] = []
    for i, line in enumerate(lines):
        if i in consumed:
            continue
        if i in cells:
            for label, value, gpu in cells[i]:
                if gpu:
                    claims += _line_claims(f"{label}: {value}", [], gpu, terse, table=True)
            continue
        found = mentions(line)
        if found and len(line.strip()) <= 60:
            current = found[-1]
        claims += _line_claims(line, found, current, terse)
        for span in sentence_spans(line):
            claims += derived_claims(line, span, found, published)
    return claims


def owner(line: str, found: list[Mention], at: int, span: tuple[int, int]) -> Mention | None:
    """The GPU a figure at `at` is about, among those named in its line (None: another GPU's)."""
    before = [m for m in found if m.end <= at]
    if not before:
        after = [m for m in found if span[0] <= m.start < span[1]]
        # "512 GB/s on the A4000" is the A4000's; "512 GB/s, more than the A4000" is not
        return after[0] if after and not _COMPARE.search(line[at : after[0].start]) else None
    nearest = before[-1]
    gap = line[nearest.end : at]
    if _ADJACENT.fullmatch(gap):
        return nearest
    if _OBJECT.search(line[max(0, nearest.start - 30) : nearest.start]):
        subject = [m for m in before[:-1] if m.start >= span[0]]
        return subject[-1] if subject else None
    if _COMPARE.search(gap):
        return None  # "(8,192 vs. 6,144)": the second figure belongs to a GPU not named here
    return nearest


def _line_claims(
    line: str, found: list[Mention], fallback: Mention | None, terse: bool, table: bool = False
) -> list[Claim]:
    claims: list[Claim] = []
    spans = [(0, len(line))] if table else sentence_spans(line)
    for n, span in enumerate(spans):
        taken: set[tuple[str, int]] = set()
        previous = line[spans[n - 1][0] : spans[n - 1][1]] if n else ""
        for field, pattern in _PATTERNS:
            for match in pattern.finditer(line, *span):
                key = ("t" if field == "tflops" else field, match.start("v"))
                if key in taken:
                    continue
                taken.add(key)
                source = owner(line, found, match.start(), span) if found else fallback
                claim = _claim(field, match, line, span, previous, source, terse)
                if claim:
                    claims.append(claim)
        claims += _typed_claims(line, span, found, fallback)
        if terse:
            claims += _terse_claims(line, span, found, fallback, taken)
    return claims


def _terse_claims(
    line: str,
    span: tuple[int, int],
    found: list[Mention],
    fallback: Mention | None,
    taken: set[tuple[str, int]],
) -> list[Claim]:
    """A question's own figures said without the words an article puts beside them."""
    claims = []
    if not any(c.field == "memory_type" for c in _typed_claims(line, span, found, fallback)):
        for match in _TERSE_TYPE.finditer(line, *span):
            source = owner(line, found, match.start(), span) if found else fallback
            if source:
                kind = match.group("type").upper()
                claims.append(Claim(source.words, source.ids, "memory_type", kind, "",
                                    _quote(line, span, match)))  # fmt: skip
    for match in _TERSE_MEMORY.finditer(line, *span):
        if ("memory_gb", match.start("v")) in taken:
            continue
        source = owner(line, found, match.start(), span) if found else fallback
        if source:
            value = _number(match.group("v"))
            claims.append(Claim(source.words, source.ids, "memory_gb", value, "GB",
                                _quote(line, span, match), count=source.count))  # fmt: skip
    return claims


def _claim(
    field: str,
    match: re.Match[str],
    line: str,
    span: tuple[int, int],
    previous: str,
    source: Mention | None,
    terse: bool,
) -> Claim | None:
    if source is None:
        return None
    value, top = _number(match.group("v")), match.group("hi")
    sentence = line[span[0] : span[1]].lower()
    named = line  # the words around the figure, not the GPU's own name ("the H100 PCIe has ...")
    for m in mentions(line):
        named = named[: m.start] + " " * (m.end - m.start) + named[m.end :]
    near = named[max(span[0], match.start() - 60) : min(span[1], match.end() + 40)].lower()
    unit = {"cuda_cores": "cores", "tensor_cores": "cores", "memory_gb": "GB", "tdp_w": "W"}.get(
        field, ""
    )
    qualifier = ""
    scale = 1.0
    if field == "tdp_w" and (
        not any(w in sentence for w in _TDP_WORDS) or any(w in near for w in _NOT_TDP)
    ):
        return None  # "an 850 W power supply" is not the GPU's board power
    if field == "bandwidth_gbs":
        scale = 1000.0 if match.group("unit").lower() == "tb/s" else 1.0
        unit = "GB/s"
        pcie = [p for p in _PCIE.finditer(line, *span) if 0 <= match.start() - p.end() <= 30]
        if pcie:
            field = "pcie_gbs"
            link = f"gen{pcie[-1].group('gen')} x{pcie[-1].group('lanes')}"
            qualifier = f"{link} {_direction(near)}".strip()
        elif any(w in near for w in _LINK_WORDS) and "pcie" not in near:
            field, qualifier = "gpu_link_gbs", _direction(near)
        elif any(w in near for w in _NOT_MEMORY) or (
            "bandwidth" not in sentence and "memory" not in sentence and not terse
        ):
            return None
    if field == "tflops":
        field = _rate_field(line, span, match, previous)
        if not field:
            return None
        unit = match.group("unit").upper()
    quote = _quote(line, span, match)
    high = _number(top) * scale if top else None
    return Claim(source.words, source.ids, field, value * scale, unit, quote, high, qualifier,
                 source.count)  # fmt: skip


def _direction(text: str) -> str:
    if re.search(r"bi-?directional|both directions|in total|total", text):
        return "bidirectional"
    if re.search(r"uni-?directional|per direction|each direction|one direction|each way", text):
        return "per direction"
    return ""


def _rate_field(line: str, span: tuple[int, int], match: re.Match[str], previous: str) -> str:
    """The catalog field a TFLOPS/TOPS figure is: its precision, dense or 2:4 sparse.

    The precision is the nearest one named before the figure in its sentence, else after it,
    else "tensor" (FP16), else whatever the sentence before names ("Tensor performance ... is
    another area where the A5000 excels. It offers 222.2 TFLOPS")."""
    sentence = line[span[0] : span[1]].lower()
    if any(word in sentence for word in _NOT_A_RATE):
        return ""
    at = match.start() - span[0]
    named = sorted((m.start(), p) for pattern, p in _PRECISIONS for m in pattern.finditer(sentence))
    before = [p for start, p in named if start < at]
    after = [p for start, p in named if start >= at]
    precision = (
        before[-1] if before else after[0] if after
        else "fp16_bf16" if "tensor" in sentence
        else _previous_precision(previous)
    )  # fmt: skip
    if not precision:
        return ""
    if precision in ("fp32", "fp64"):
        return f"{precision}_tflops"
    kind = "sparse" if "sparsity" in sentence or "sparse" in sentence else "dense"
    return f"{precision}_{kind}_{'tops' if precision == 'int8' else 'tflops'}"


def _previous_precision(previous: str) -> str:
    text = previous.lower()
    if any(word in text for word in _NOT_A_RATE) or re.search(r"TFLOPS|TOPS", previous):
        return ""  # a sentence with figures of its own is not introducing this one
    named = [p for pattern, p in _PRECISIONS if pattern.search(text)]
    return named[0] if named else "fp16_bf16" if "tensor" in text else ""


def _quote(line: str, span: tuple[int, int], match: re.Match[str], limit: int = 200) -> str:
    sentence = line[span[0] : span[1]].strip()
    if len(sentence) <= limit:
        return sentence
    start = max(span[0], match.start() - limit // 2)
    return "…" + line[start : min(span[1], start + limit)].strip() + "…"


def _typed_claims(
    line: str, span: tuple[int, int], found: list[Mention], fallback: Mention | None
) -> list[Claim]:
    """Memory types ('40GB and 80GB HBM2e': each size's variants) and release years."""
    claims = []
    for match in _MEMORY_TYPE.finditer(line, *span):
        source = owner(line, found, match.start(), span) if found else fallback
        if source is None:
            continue
        for size in [*re.findall(r"\d+", match.group("more")), match.group("v")]:
            ids = narrow(source.ids, size=float(size))
            claims.append(Claim(source.words, ids, "memory_type", match.group("type"), "",
                                _quote(line, span, match), qualifier=f"{size} GB"))  # fmt: skip
    for match in _YEAR.finditer(line, *span):
        source = owner(line, found, match.start(), span) if found else fallback
        if source:
            year = float(match.group("v"))
            quote = _quote(line, span, match)
            claims.append(Claim(source.words, source.ids, "release_year", year, "", quote))
    return claims


# ---------------------------------------------------------------- audit against the datasheet


def _datasheet_value(gpu: Any, field: str) -> float | str | None:
    if field == "memory_type":
        return memory_type(gpu) or None
    value = getattr(gpu, field, None)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def audit_claim(claim: Claim, catalog: Catalog | None = None) -> Verdict:
    """Compare one claim with the datasheet values of every GPU its name can mean (or, for a
    ratio, link or price, with what the calculator, interconnect data or purchase prices say)."""
    from advisor.retrieval.claim_derived import CHECKS

    catalog = catalog or load_catalog()
    check = CHECKS.get(claim.field)
    if check:
        return check(claim, catalog)
    values = {i: _datasheet_value(catalog.gpus[i], claim.field) for i in claim.gpu_ids}
    known = {i: v for i, v in values.items() if v}
    if not known:
        return Verdict(claim, "unchecked", values, "the datasheet table has no value for this")
    # "2x RTX 4090 give 48 GB": a figure for several GPUs may be their sum
    summed = [v * claim.count for v in known.values() if isinstance(v, float)]
    if any(agrees(claim, v) for v in [*known.values(), *summed]):
        return Verdict(claim, "agrees", values, "")
    return Verdict(claim, "disagrees", values, _explain(claim, known, catalog))


def agrees(claim: Claim, value: float | str) -> bool:
    """Whether the claim's value (or range) holds the datasheet value, within the field's slack."""
    if isinstance(value, str) or isinstance(claim.value, str):
        said, sheet = str(claim.value).upper(), str(value).upper()
        # "it has HBM": the kind without its generation holds for every HBM generation
        return said == sheet or (said.isalpha() and sheet.startswith(said))
    tolerance = TOLERANCE.get(claim.field, TFLOPS_TOLERANCE)
    low, high = claim.value, claim.value_max or claim.value
    return low - tolerance * value <= value <= high + tolerance * value


def _explain(claim: Claim, known: dict[str, float | str], catalog: Catalog) -> str:
    shown = {i: f"{v:g}" if isinstance(v, float) else v for i, v in known.items()}
    sheet = ", ".join(f"{catalog.gpus[i].name}: {v}" for i, v in shown.items())
    note = f"datasheet says {sheet} {claim.unit}".strip()
    for suffix in ("_dense_tflops", "_dense_tops"):
        if not claim.field.endswith(suffix):
            continue
        sparse_field = claim.field.replace("_dense_", "_sparse_")
        for gpu_id in known:
            sparse = _datasheet_value(catalog.gpus[gpu_id], sparse_field)
            if isinstance(sparse, float) and agrees(claim, sparse):
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
