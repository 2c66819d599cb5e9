"""The `rules` engine: a deterministic planner. It reads the question (parse.py), calls the tools
and writes the answer from their results and the best retrieved passages (compose.py).

Questions it cannot map to a tool get an extractive answer from the passages, saying what it
could not compute; ambiguous or unknown names get a clarifying question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from advisor.agent import compose as c
from advisor.agent.parse import Query
from advisor.agent.toolbox import ToolBox
from advisor.answer import Citation
from advisor.catalog import load_catalog

FINETUNE_DEFAULT = "finetune-lora"
MAX_FIT_GPUS = 4


@dataclass
class Draft:
    """An answer before the number check: text, what it cites, what it warns about."""

    text: str
    citations: list[Citation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def answer(query: Query, box: ToolBox) -> Draft:
    """Plan the tool calls for `query`, run them and compose the answer."""
    unresolved = _clarify(query, box)
    if unresolved:
        return Draft(unresolved, warnings=list(query.notes))
    notes = list(query.notes)
    workload = query.workload
    if workload == "finetune":
        workload = FINETUNE_DEFAULT
        notes.append(
            "Fine-tuning method not given: LoRA assumed (say 'full' or 'QLoRA' for the others)."
        )
    plan = {
        "greeting": _greeting,
        "spec": _spec,
        "compare": _compare,
        "fit": _fit,
        "speed": _fit,
        "cost": _cost,
        "solve": _solve,
        "recommend": _recommend,
        "search": _search,
    }[query.intent]
    body = plan(query, box, workload or "inference")
    parts = [body.text]
    if notes:
        parts.append("\n".join(f"_Note: {n}_" for n in notes))
    return Draft("\n\n".join(p for p in parts if p), _citations(query, box), body.warnings)


# ---------------------------------------------------------------- clarifying


def _clarify(query: Query, box: ToolBox) -> str | None:
    """A question back when a GPU or model cannot be pinned down, from the tools' own errors."""
    for mention in query.gpus:
        if len(mention.ids) != 1:
            result = box.call("gpu_specs", {"gpu": mention.text})
            if "error" in result:
                return f"{result['error']}\n\nWhich one do you mean?"
    if query.model is not None and len(query.model.ids) != 1:
        name = query.model.text
        if query.model.suggestions:
            options = ", ".join(query.model.suggestions)
            return f"I don't have a model called '{name}'. Did you mean: {options}?"
        result = box.call("estimate", {"model": name, "gpu": "h100-sxm5-80gb"})
        return f"{result.get('error', name)}\n\nWhich one do you mean?"
    return None


# ---------------------------------------------------------------- intents


def _greeting(query: Query, box: ToolBox, workload: str) -> Draft:
    return Draft(c.HELP)


def _spec(query: Query, box: ToolBox, workload: str) -> Draft:
    sheets = [box.call("gpu_specs", {"gpu": gpu}) for gpu in query.gpu_ids]
    return Draft("\n\n".join(c.spec(sheet, query.fields) for sheet in sheets))


def _compare(query: Query, box: ToolBox, workload: str) -> Draft:
    result = box.call("compare_gpus", {"gpus": query.gpu_ids})
    priced = {g: box.call("prices", {"gpu": g}) for g in query.gpu_ids}
    return Draft(c.comparison(result, priced))


def _estimate_args(query: Query, workload: str, gpu: str) -> dict[str, Any]:
    args: dict[str, Any] = {"model": _model(query), "gpu": gpu, "workload": workload}
    optional = {
        "num_gpus": query.num_gpus,
        "precision": query.precision,
        "context": query.context,
        "batch": query.batch,
        "engine": query.engine,
        "train_tokens": query.train_tokens,
    }
    args.update({k: v for k, v in optional.items() if v is not None})
    return args


def _model(query: Query) -> str:
    if query.model is not None:
        return query.model.ids[0]
    return f"{query.model_size_b:g}b"


def _gpus_for(query: Query) -> list[str]:
    if query.gpu_ids:
        return query.gpu_ids[:MAX_FIT_GPUS]
    if query.memory_gb:  # "in 80 gigs": the catalog's GPUs of that size
        same = [g.id for g in load_catalog().gpus.values() if g.memory_gb == query.memory_gb]
        return same[:3]
    return []


def _fit(query: Query, box: ToolBox, workload: str) -> Draft:
    gpus = _gpus_for(query)
    if not gpus and query.memory_gb is None:  # "on two of them" after an unresolved GPU
        return Draft("Which GPU? Name it and I will check the fit.")
    if not gpus:
        return Draft(
            f"I know no GPU with {query.memory_gb:g} GB; name the GPU and I will check the fit."
        )
    results = [box.call("estimate", _estimate_args(query, workload, g)) for g in gpus]
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        return Draft(errors[0])
    if len(results) == 1:
        text = c.fit(results[0], speed_first=query.intent == "speed")
        if not results[0]["fits"]:
            args = _estimate_args(query, workload, gpus[0])
            args.pop("num_gpus", None)
            needed = box.call("solve", {**args, "target": "min_gpus"})
            text += "\n\n" + c.min_gpus_line(needed)
        return Draft(text)
    return Draft(c.fit_table(results))


def _cost(query: Query, box: ToolBox, workload: str) -> Draft:
    has_model = query.model is not None or query.model_size_b is not None
    if has_model and query.gpu_ids:
        result = box.call("estimate", _estimate_args(query, workload, query.gpu_ids[0]))
        if "error" in result:
            return Draft(result["error"])
        return Draft(c.estimate_cost(result))
    if not query.gpu_ids:
        return _recommend(query, box, workload)
    parts = []
    for gpu in query.gpu_ids[:MAX_FIT_GPUS]:
        args: dict[str, Any] = {"gpu": gpu}
        if query.hours:
            args.update(hours=query.hours, num_gpus=query.num_gpus or 1)
        parts.append(c.rental(box.call("prices", args)))
    return Draft("\n\n".join(parts))


def _solve(query: Query, box: ToolBox, workload: str) -> Draft:
    low = query.text.lower()
    target = (
        "min_gpus"
        if "how many" in low or ("gpus" in low and "min" in low)
        else ("max_batch" if "batch" in low else "max_context")
    )
    if not query.gpu_ids:
        return _recommend(query, box, workload)
    args = _estimate_args(query, workload, query.gpu_ids[0])
    if target == "min_gpus":
        args.pop("num_gpus", None)
    if target == "max_context":
        args.pop("context", None)
    if target == "max_batch":
        args.pop("batch", None)
    result = box.call("solve", {**args, "target": target})
    if "error" in result:
        return Draft(result["error"])
    return Draft(c.solved(result))


def _recommend(query: Query, box: ToolBox, workload: str) -> Draft:
    if query.model is None and query.model_size_b is None:
        return _search(query, box, workload)
    args: dict[str, Any] = {"model": _model(query), "workload": workload, "top": 3}
    optional = {
        "precision": query.precision,
        "context": query.context,
        "batch": query.batch,
        "max_usd_per_hour": query.max_usd_per_hour,
        "max_power_w": query.max_power_w,
        "segment": query.segment,
        "train_tokens": query.train_tokens,
    }
    if query.max_usd_per_job is not None and query.train_tokens:
        optional["max_usd_per_job"] = query.max_usd_per_job
    args.update({k: v for k, v in optional.items() if v is not None})
    result = box.call("recommend_gpus", args)
    if "error" in result:
        return Draft(result["error"])
    return Draft(c.recommendation(result))


def _search(query: Query, box: ToolBox, workload: str) -> Draft:
    result = box.call("search_corpus", {"query": query.text, "k": 3})
    passages = result.get("passages", [])
    if not passages:
        return Draft(
            "I found nothing in the articles about that, and the question names no GPU "
            "or model I can calculate for."
        )
    return Draft(c.extractive(passages, query))


# ---------------------------------------------------------------- sources


def _citations(query: Query, box: ToolBox) -> list[Citation]:
    """Passages to cite: the ones the answer quoted, else the best two for the question (on its
    GPU when it names one). Warnings for their claims are added for every engine by the API."""
    if query.intent == "greeting":
        return []
    if not box.passages:
        args: dict[str, Any] = {"query": query.text, "k": 2}
        if len(query.gpu_ids) == 1:
            args["gpu"] = query.gpu_ids[0]
        box.call("search_corpus", args)  # none on that GPU: cite nothing rather than noise
    ranked = list(box.passages)[: 3 if query.intent == "search" else 2]
    return [cit for cit in (box.citation(p) for p in ranked) if cit is not None]
