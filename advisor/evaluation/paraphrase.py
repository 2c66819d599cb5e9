"""The generated paraphrase suite: templates x lexicons, each question with the query it asks.

Every catalog GPU and model appears under several spellings (spellings.py), with counts written
the ways people write them, memory and quantisation words, workload words, units and typos. The
expected query is built from the same choices that wrote the question, so the suite scores the
understanding step field by field (understanding.py). Deterministic for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from advisor.calculator import FAMILIES
from advisor.calculator.families import models_of
from advisor.catalog import Catalog, load_catalog
from advisor.evaluation.spellings import gpu_spellings, model_spellings, typo
from advisor.names import gpu_key, model_key

COUNTS = (
    ("two {g}s", 2), ("2x {g}", 2), ("2 x {g}", 2), ("{g} x2", 2), ("a pair of {g}s", 2),
    ("dual {g}", 2), ("4x{g}", 4), ("four {g}s", 4), ("4 {g}s", 4), ("8x {g}", 8),
    ("eight {g}s", 8), ("{g} x 4", 4),
)  # fmt: skip
PRECISIONS = (("4bit", "nf4"), ("4-bit", "nf4"), ("in 4 bit", "nf4"), ("Q4_K_M", "q4_k_m"),
              ("q4", "q4_k_m"), ("int8", "int8"), ("8 bit", "int8"), ("fp16", "fp16"),
              ("bf16", "bf16"), ("AWQ", "awq"), ("GPTQ", "gptq"), ("fp8", "fp8"),
              ("q8_0", "q8_0"))  # fmt: skip
WORKLOADS = (("fine-tune {m} with qlora", "finetune-qlora"), ("qlora {m}", "finetune-qlora"),
             ("LoRA fine-tune {m}", "finetune-lora"), ("full fine-tune of {m}", "finetune-full"),
             ("serve {m}", "inference"), ("run {m}", "inference"),
             ("run inference with {m}", "inference"), ("host {m}", "inference"))  # fmt: skip
CONTEXTS = (("8k context", 8192), ("32k ctx", 32768), ("a context of 16384", 16384),
            ("4096 token context", 4096), ("128k context", 131072))  # fmt: skip
FIELDS = (("memory bandwidth", "bandwidth_gbs"), ("vram", "memory_gb"), ("tdp", "tdp_w"),
          ("fp64", "fp64_tflops"), ("tensor cores", "tensor_cores"),
          ("fp32 tflops", "fp32_tflops"), ("memory type", "memory_type"),
          ("nvlink bandwidth", "interconnect_gbs"), ("int8 tops", "int8_dense_tops"))  # fmt: skip


@dataclass
class Case:
    question: str
    expect: dict[str, Any] = field(default_factory=dict)
    kind: str = ""


def _unique_gpu_spellings(catalog: Catalog, rng: random.Random) -> dict[str, list[str]]:
    """Spellings that name exactly one GPU (the catalog's own index decides), per GPU id."""
    index = catalog._gpu_index
    out = {}
    for gpu in catalog.gpus.values():
        names = [s for s in gpu_spellings(gpu, rng, 8) if index.get(gpu_key(s)) == [gpu.id]]
        if names:
            out[gpu.id] = names
    return out


def _unique_model_spellings(
    catalog: Catalog, rng: random.Random
) -> dict[str, tuple[str, list[str]]]:
    out = {}
    for fam in FAMILIES.values():
        index = catalog.name_index(fam.table, fam.model_cls)
        for model in models_of(catalog, fam).values():
            names = [s for s in model_spellings(model, rng, 8)
                     if index.get(model_key(s)) == [model.id]]  # fmt: skip
            if names:
                out[model.id] = (fam.name, names)
    return out


def generate(catalog: Catalog, count: int = 2400, seed: int = 20261123) -> list[Case]:
    """`count` questions, every GPU and model of the catalog among them."""
    rng = random.Random(seed)  # noqa: S311 - reproducible test cases, not secrets
    gpus = _unique_gpu_spellings(catalog, rng)
    models = _unique_model_spellings(catalog, rng)
    llms = [m for m, (fam, _n) in models.items() if fam == "llm"]
    gpu_ids, model_ids = list(gpus), list(models)
    cases: list[Case] = []
    # every GPU and every model at least once
    for gid in gpu_ids:
        cases.append(_spec(gid, gpus, rng))
    for mid in model_ids:
        cases.append(_fit(mid, models, rng.choice(gpu_ids), gpus, rng))
    llm_makers = (_fit_llm, _count, _cost, _context, _quant)
    while len(cases) < count:
        kind = rng.randrange(7)  # one in seven a spec, one a comparison, five about an LLM
        if kind == 0:
            cases.append(_spec(rng.choice(gpu_ids), gpus, rng))
        elif kind == 1:
            a, b = rng.sample(gpu_ids, 2)
            cases.append(_compare(a, b, gpus, rng))
        else:
            maker = llm_makers[kind - 2]
            cases.append(maker(rng.choice(llms), models, rng.choice(gpu_ids), gpus, rng))
    return cases[:count]


def _maybe_typo(text: str, rng: random.Random) -> str:
    return typo(text, rng) if rng.random() < 0.15 else text


def _spec(gid: str, gpus: dict[str, list[str]], rng: random.Random) -> Case:
    label, fieldname = rng.choice(FIELDS)
    name = rng.choice(gpus[gid])
    template = rng.choice(("what is the {f} of the {g}?", "{g} {f}", "how much {f} does a {g} have",
                           "whats the {f} on {g}", "{f} of {g} pls"))  # fmt: skip
    return Case(template.format(f=label, g=name),
                {"intent": "spec", "gpus": [gid], "fields": [fieldname]}, "spec")  # fmt: skip


def _compare(a: str, b: str, gpus: dict[str, list[str]], rng: random.Random) -> Case:
    x, y = rng.choice(gpus[a]), rng.choice(gpus[b])
    template = rng.choice(("{x} vs {y}", "{x} versus {y} for ml?", "compare {x} and {y}",
                           "{x} vs. {y} which is better"))  # fmt: skip
    return Case(template.format(x=x, y=y), {"intent": "compare", "gpus": [a, b]}, "compare")


def _fit(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
         gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    _fam, names = models[mid]
    m, g = rng.choice(names), rng.choice(gpus[gid])
    template = rng.choice(("can i run {m} on a {g}?", "will {m} fit on {g}", "{m} on a {g}?",
                           "does {m} fit in a {g}"))  # fmt: skip
    return Case(template.format(m=m, g=g), {"intent": "fit", "gpus": [gid], "models": [mid]}, "fit")


def _fit_llm(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
             gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    _fam, names = models[mid]
    phrase, workload = rng.choice(WORKLOADS)
    m, g = rng.choice(names), rng.choice(gpus[gid])
    question = _maybe_typo(f"can I {phrase.format(m=m)} on a {g}?", rng)
    return Case(question, {"gpus": [gid], "models": [mid], "workload": workload}, "workload")


def _count(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
           gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    _fam, names = models[mid]
    written, n = rng.choice(COUNTS)
    g = rng.choice([s for s in gpus[gid] if not s.lower().endswith("s")] or gpus[gid])
    question = f"will {rng.choice(names)} run on {written.format(g=g)}?"
    return Case(question, {"intent": "fit", "gpus": [gid], "count": n, "models": [mid]}, "count")


def _cost(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
          gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    price = rng.choice((0.35, 1.1, 1.99, 2.49, 3.1, 4.5))
    hours = rng.choice((10, 12, 72, 100, 300))
    g = rng.choice(gpus[gid])
    template = rng.choice((
        "if a {g} costs ${p} an hour, what does a {h}-hour job cost?",
        "{g} at ${p}/hr for {h} hours, total?", "how much for {h} hrs on a {g} at {p}/hr",
    ))  # fmt: skip
    expect = {"intent": "cost", "gpus": [gid], "user_price_usd_per_hour": price, "hours": hours}
    return Case(template.format(g=g, p=price, h=hours), expect, "cost")


def _context(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
             gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    _fam, names = models[mid]
    written, tokens = rng.choice(CONTEXTS)
    question = f"{rng.choice(names)} on a {rng.choice(gpus[gid])} at {written}?"
    return Case(question, {"gpus": [gid], "models": [mid], "context": tokens}, "context")


def _quant(mid: str, models: dict[str, tuple[str, list[str]]], gid: str,
           gpus: dict[str, list[str]], rng: random.Random) -> Case:  # fmt: skip
    fam, names = models[mid]
    plain = [n for n in names if not any(w in n.lower() for w in ("gguf", "q4", "awq", "gptq"))]
    written, precision = rng.choice(PRECISIONS)
    name = rng.choice(plain or names)
    desk = load_catalog().gpus[gid].segment in ("consumer", "laptop") and fam == "llm"
    if (":" in name or desk) and precision in ("nf4", "int8") and "bit" in written:
        # an Ollama tag runs GGUF files, and so does a desk card told only the bits
        precision = "q4_k_m" if precision == "nf4" else "q8_0"
    question = f"{name} {written} on one {rng.choice(gpus[gid])}"
    return Case(question, {"gpus": [gid], "models": [mid], "precision": precision}, "precision")


def score(case: Case, query: Any) -> tuple[dict[str, bool], list[str]]:
    """Field -> right, and the wrong entities (a GPU or model read as another entry)."""
    got: dict[str, bool] = {}
    wrong: list[str] = []
    e = case.expect
    if "intent" in e:
        got["intent"] = query.intent == e["intent"]
    if "gpus" in e:
        ids = [g.ids for g in query.gpus]
        got["gpus"] = [i[0] if len(i) == 1 else i for i in ids] == e["gpus"]
        resolved = {i for g in query.gpus if g.resolved for i in g.ids}
        wrong += [f"{case.question}: GPU {r}" for r in resolved - set(e["gpus"])]
    if "models" in e:
        got["models"] = [m.ids for m in query.models] == [(m,) for m in e["models"]]
        resolved = {i for m in query.models if m.resolved for i in m.ids}
        wrong += [f"{case.question}: model {r}" for r in resolved - set(e["models"])]
    if "count" in e:
        got["count"] = next((g.count for g in query.gpus if g.count), None) == e["count"]
    for key in ("workload", "precision", "context", "user_price_usd_per_hour", "hours"):
        if key in e:
            got[key] = getattr(query, key) == e[key]
    if "fields" in e:
        got["fields"] = set(e["fields"]) <= set(query.fields)
    return got, wrong


def run_suite(catalog: Catalog, count: int = 2400) -> dict[str, Any]:
    """Understand every generated question: field accuracy overall and per field, the wrong
    entities, the failures, and the time per question."""
    import time

    from advisor.agent.understand import understand

    cases = generate(catalog, count)
    right: dict[str, list[bool]] = {}
    wrong: list[str] = []
    failures: list[str] = []
    times = []
    for case in cases:
        start = time.perf_counter()
        query = understand(case.question, catalog)
        times.append((time.perf_counter() - start) * 1000)
        got, bad = score(case, query)
        wrong += bad
        for name, ok in got.items():
            right.setdefault(name, []).append(ok)
        if not all(got.values()):
            failures.append(f"{case.question} ({', '.join(k for k, v in got.items() if not v)})")
    fields = [ok for oks in right.values() for ok in oks]
    return {
        "cases": len(cases),
        "field_accuracy": sum(fields) / len(fields),
        "per_field": {k: sum(v) / len(v) for k, v in sorted(right.items())},
        "wrong_entities": wrong,
        "failures": failures,
        "ms": times,
    }
