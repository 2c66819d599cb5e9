"""Claims the datasheet decides only through a computation: ratios between GPUs, link
bandwidths and system prices.

- A ratio ("nearly 2.5x the bandwidth of the A6000", "92% of H100's FP16 training throughput",
  "8x PCIe A100s train ResNet-50 1.4x slower than 4x NVLink A100s") is compared with the range
  the datasheet or the calculator gives over every variant pair the two names can mean:
  bandwidth and memory from the table; speed from the calculator's rates (training: dense tensor
  TFLOPS x generation efficiency; decoding: bandwidth x generation efficiency; unstated: either),
  or from its estimate of the workload the sentence names, at common batch sizes.
- A GPU-to-GPU link figure is compared with `gpu_link_gbs` (both directions) or half of it (one
  direction); a PCIe figure with the PCIe generation's rate the calculator uses.
- A system price for N GPUs cannot be below N times the cheapest price seen for that GPU, used
  included, on or after the article's date (an undated article: any date): GPUs get cheaper.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from advisor.catalog import Catalog
from advisor.errors import AdvisorError
from advisor.retrieval.claim_reading import Mention
from advisor.retrieval.claims import Claim, Verdict

RATIO_TOLERANCE = {"speed_ratio": 0.15, "bandwidth_ratio": 0.05, "memory_ratio": 0.05}
LINK_TOLERANCE = 0.05
TRAIN_BATCHES = (32, 64, 128, 256)  # per GPU: where data-parallel training is run in practice

_RATIO = re.compile(
    r"(?<![\w.])(?P<v>\d+(?:\.\d+)?)\s*(?:(?P<x>[x\u00d7])|(?P<pct>%))\s+"
    r"(?P<rel>the|as|of|higher|more|faster|greater|slower|lower|less|fewer)\b", re.I)  # fmt: skip
_METRICS = (
    ("bandwidth_ratio", r"bandwidth"),
    ("speed_ratio", r"throughput|faster|slower|speed|perform|train|tflops|compute"),
    ("memory_ratio", r"memory|vram|capacity"),
)
_MODEL_WORD = re.compile(r"[A-Za-z][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+")
_PRICE = re.compile(r"\$\s?(?P<v>\d[\d,]*(?:\.\d+)?)\s*(?P<k>[kK]\b)?")
_SYSTEM = re.compile(r"[\s,\w-]{0,30}?\b(?:system|server|node|box|rig|machine|workstation)s?\b")


def derived_claims(
    line: str, span: tuple[int, int], found: list[Mention], published: str | None
) -> list[Claim]:
    """The ratio and system-price claims of one sentence of a line."""
    return _ratio_claims(line, span, found) + _price_claims(line, span, found, published)


# ---------------------------------------------------------------- ratios


def _ratio_claims(line: str, span: tuple[int, int], found: list[Mention]) -> list[Claim]:
    claims = []
    inside = [m for m in found if span[0] <= m.start < span[1]]
    sentence = line[span[0] : span[1]]
    for match in _RATIO.finditer(line, *span):
        first = [m for m in inside if m.end <= match.start()]
        second = [m for m in inside if m.start >= match.end()]
        if not first or not second:
            continue
        a, b = first[-1], second[0]
        if a.ids == b.ids and a.count == b.count:
            continue
        phrase = line[match.start() : min(span[1], b.end + 40)].lower()
        field = next((f for f, words in _METRICS if re.search(words, phrase)), None)
        value = _ratio_value(match)
        if field is None or value is None:
            continue
        low = sentence.lower()
        workload = "training" if "train" in low else "decode" if re.search(
            r"inference|decod|serving|tokens?/s", low) else ""  # fmt: skip
        precision = next((p for p in ("fp8", "int8", "tf32", "fp32") if p in low), "fp16")
        claims.append(
            Claim(a.words, a.ids, field, value, "x", sentence.strip(),
                  qualifier=f"{workload} {precision}" if field == "speed_ratio" else "",
                  count=a.count, other_text=b.words,
                  other_ids=b.ids, other_count=b.count, model=_model_named(sentence))
        )  # fmt: skip
    return claims


def _ratio_value(match: re.Match[str]) -> float | None:
    number, rel = float(match.group("v")), match.group("rel").lower()
    falling = rel in ("slower", "lower", "less", "fewer")
    if match.group("x"):
        return 1 / number if falling else number
    if rel == "of":
        return number / 100
    if rel in ("the", "as"):
        return None
    return 1 - number / 100 if falling else 1 + number / 100


def _model_named(sentence: str) -> str:
    """A model the calculator knows, named in the sentence ("ResNet-50"), or ''."""
    from advisor.calculator import find_model
    from advisor.catalog import load_catalog

    for found in _MODEL_WORD.finditer(sentence):
        word = found.group(0)
        try:
            find_model(word, load_catalog())
        except (AdvisorError, KeyError, ValueError):
            continue
        return word
    return ""


def _speed_rates(claim: Claim, gpu_id: str, count: int, catalog: Catalog) -> list[float]:
    """What the calculator says one side of a speed ratio runs at (several: a range)."""
    from advisor.calculator.factors import GENERATION_MBU, GENERATION_MFU, generation, mbu_key
    from advisor.calculator.precision import get_precision
    from advisor.calculator.throughput import dense_tflops, is_hbm

    gpu = catalog.gpus[gpu_id]
    if claim.model and "training" in claim.qualifier:
        return [r for r in _workload_rates(claim.model, gpu_id, count, catalog) if r]
    if claim.count != claim.other_count:
        return []  # unequal GPU counts matter only through a named workload's own scaling
    gen = generation(gpu.architecture, gpu.memory_type)
    compute = dense_tflops(gpu, get_precision(claim.qualifier.split()[-1])) * GENERATION_MFU.get(
        gen, 0.7
    )
    memory = gpu.bandwidth_gbs * GENERATION_MBU.get(mbu_key(gen, is_hbm(gpu)), 0.6)
    if claim.qualifier.startswith("training"):
        return [compute]
    if claim.qualifier.startswith("decode"):
        return [memory]
    return [compute, memory]


def _by_workload(claim: Claim) -> bool:
    """A speed ratio of a named model's training: each side's estimate at the same batches."""
    return claim.field not in ("bandwidth_ratio", "memory_ratio") and bool(
        claim.model and "training" in claim.qualifier
    )


def _workload_rates(model: str, gpu_id: str, count: int, catalog: Catalog) -> list[float | None]:
    """The training speed at each of TRAIN_BATCHES per GPU (None where it fails or does not
    fit), so that two setups are compared batch for batch."""
    from advisor.calculator import Request, estimate

    rates: list[float | None] = []
    for batch in TRAIN_BATCHES:
        try:
            est = estimate(Request(model=model, gpu=gpu_id, num_gpus=count, workload="train",
                                   batch=batch), catalog)  # fmt: skip
        except (AdvisorError, KeyError, ValueError):
            rates.append(None)
            continue
        speed = est.train_samples_per_s or est.train_tokens_per_s
        rates.append(speed["typical"] if est.fits and speed else None)
    return rates


def _side(claim: Claim, field: str, gpu_id: str, count: int, catalog: Catalog) -> list[float]:
    gpu = catalog.gpus[gpu_id]
    if field == "bandwidth_ratio":
        return [gpu.bandwidth_gbs * count] if gpu.bandwidth_gbs else []
    if field == "memory_ratio":
        return [gpu.memory_gb * count] if gpu.memory_gb else []
    return _speed_rates(claim, gpu_id, count, catalog)


def check_ratio(claim: Claim, catalog: Catalog) -> Verdict:
    pairs: dict[str, float | str | None] = {}
    for a in claim.gpu_ids:
        for b in claim.other_ids:
            if a == b and claim.count == claim.other_count:
                continue
            if _by_workload(claim):  # the same batch on both sides: like for like
                a_rates = _workload_rates(claim.model or "", a, claim.count, catalog)
                b_rates = _workload_rates(claim.model or "", b, claim.other_count, catalog)
                ratios = [x / y for x, y in zip(a_rates, b_rates, strict=True) if x and y]
            else:
                ours = _side(claim, claim.field, a, claim.count, catalog)
                theirs = _side(claim, claim.field, b, claim.other_count, catalog)
                ratios = [x / y for x in ours for y in theirs]
            if not ratios:
                continue
            pairs[f"{a} / {b}"] = round(min(ratios), 3)
            if max(ratios) != min(ratios):
                pairs[f"{a} / {b} (high)"] = round(max(ratios), 3)
    numbers = [v for v in pairs.values() if isinstance(v, float)]
    what = claim.field.replace("_ratio", "")
    if not numbers:
        return Verdict(claim, "unchecked", pairs, f"the data cannot put a figure on this {what}")
    tolerance = RATIO_TOLERANCE[claim.field]
    low, high = min(numbers), max(numbers)
    if low * (1 - tolerance) <= float(claim.value) <= high * (1 + tolerance):
        return Verdict(claim, "agrees", pairs, "")
    basis = "the calculator" if claim.field == "speed_ratio" else "the datasheet"
    span = f"{low:.2f}" if low == high else f"{low:.2f}-{high:.2f}"
    one, other = (
        _counted(claim.count, claim.gpu_text),
        _counted(claim.other_count, claim.other_text),
    )
    stated = float(claim.value)
    note = f"{basis} puts the {what} of {one} against {other} at {span}x, not {stated:.2f}x"
    if claim.model:
        note += f" ({claim.model}, {TRAIN_BATCHES[0]}-{TRAIN_BATCHES[-1]} per GPU)"
    return Verdict(claim, "disagrees", pairs, note)


def _counted(count: int, words: str) -> str:
    return f"{count}x {words}" if count > 1 else words


# ---------------------------------------------------------------- links


def _directions(claim: Claim, both_ways: float) -> list[float]:
    if "bidirectional" in claim.qualifier:
        return [both_ways]
    if "per direction" in claim.qualifier:
        return [both_ways / 2]
    return [both_ways, both_ways / 2]


def _close(claim: Claim, expected: list[float], tolerance: float) -> bool:
    value = float(claim.value)
    return any(abs(value - e) <= tolerance * e for e in expected)


def check_link(claim: Claim, catalog: Catalog) -> Verdict:
    values = {i: catalog.gpus[i].gpu_link_gbs for i in claim.gpu_ids}
    known = {i: v for i, v in values.items() if v}
    sheet: dict[str, float | str | None] = dict(values)
    if not known:
        return Verdict(claim, "unchecked", sheet, "the datasheet lists no GPU-to-GPU link rate")
    if any(_close(claim, _directions(claim, v), LINK_TOLERANCE) for v in known.values()):
        return Verdict(claim, "agrees", sheet, "")
    shown = ", ".join(f"{catalog.gpus[i].name}: {v:g}" for i, v in known.items())
    return Verdict(claim, "disagrees", sheet,
                   f"datasheet says {shown} GB/s over both directions per GPU")  # fmt: skip


def check_pcie(claim: Claim, catalog: Catalog) -> Verdict:
    from advisor.calculator.nets import PCIE_GBS

    found = re.search(r"gen(\d+) x(\d+)", claim.qualifier)
    if not found or int(found.group(1)) not in PCIE_GBS:
        return Verdict(claim, "unchecked", {}, "no PCIe generation the data knows")
    gen, lanes = int(found.group(1)), int(found.group(2))
    one_way = PCIE_GBS[gen] * lanes / 16
    sheet: dict[str, float | str | None] = {
        "per direction": one_way,
        "both directions": 2 * one_way,
    }
    if _close(claim, _directions(claim, 2 * one_way), LINK_TOLERANCE):
        return Verdict(claim, "agrees", sheet, "")
    note = f"PCIe Gen{gen} x{lanes} carries {one_way:g} GB/s each way, {2 * one_way:g} in both"
    return Verdict(claim, "disagrees", sheet, note)


# ---------------------------------------------------------------- system prices


def _price_claims(
    line: str, span: tuple[int, int], found: list[Mention], published: str | None
) -> list[Claim]:
    claims = []
    for match in _PRICE.finditer(line, *span):
        gpu = next((m for m in found if match.end() <= m.start <= match.end() + 16), None)
        between = line[match.end() : gpu.start] if gpu else ""
        if (
            not gpu
            or gpu.count < 2
            or not re.fullmatch(r"\s*\d+\s*[\u00d7x]\s*(?:\w+\s+)?", between)
        ):
            continue
        system = _SYSTEM.match(line, gpu.end)
        if not system:
            continue
        usd = float(match.group("v").replace(",", "")) * (1000 if match.group("k") else 1)
        quote = line[match.start() : system.end()]
        claims.append(Claim(gpu.words, gpu.ids, "system_price_usd", usd, "USD", quote.strip(),
                            count=gpu.count, as_of=published))  # fmt: skip
    return claims


def check_price(claim: Claim, catalog: Catalog) -> Verdict:
    floors: dict[str, Any] = {}
    for gpu_id in claim.gpu_ids:
        rows = [p for p in catalog.purchases_for(gpu_id) if _on_or_after(p.date, claim.as_of)]
        if rows:
            floors[gpu_id] = min(rows, key=lambda p: p.usd)
    sheet: dict[str, float | str | None] = {i: p.usd * claim.count for i, p in floors.items()}
    if not floors:
        return Verdict(claim, "unchecked", sheet, "no purchase price on file for this GPU")
    gpu_id, cheapest = min(floors.items(), key=lambda item: item[1].usd)
    least = cheapest.usd * claim.count
    host = re.sub(r"^https?://(?:www\.)?([^/]+).*", r"\1", cheapest.source)
    basis = (f"{claim.count} x ${cheapest.usd:,.0f} ({cheapest.kind}, {catalog.gpus[gpu_id].name}, "
             f"{cheapest.date}, {host}) = ${least:,.0f} for the GPUs alone")  # fmt: skip
    if float(claim.value) >= least:
        return Verdict(claim, "agrees", sheet, basis)
    when = f"on or after {claim.as_of}" if claim.as_of else "at any date (the article has none)"
    return Verdict(claim, "disagrees", sheet,
                   f"{basis}, the cheapest seen {when}; ${float(claim.value):,.0f} cannot buy "
                   "the system")  # fmt: skip


def _on_or_after(date: str, as_of: str | None) -> bool:
    """Whether a price seen on `date` bounds one stated on `as_of` (undated rows never do)."""
    if not date[:1].isdigit():
        return False
    return as_of is None or date >= as_of[: len(date)]


CHECKS: dict[str, Callable[[Claim, Catalog], Verdict]] = {
    "speed_ratio": check_ratio,
    "bandwidth_ratio": check_ratio,
    "memory_ratio": check_ratio,
    "gpu_link_gbs": check_link,
    "pcie_gbs": check_pcie,
    "system_price_usd": check_price,
}
__all__ = ["CHECKS", "derived_claims"]
