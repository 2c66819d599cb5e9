"""A second reader of a question's intent: a linear model over the question's words, its
character n-grams and the shape of what the understanding step found in it (how many GPUs and
models, a price, hours, a budget ...), trained by `python -m eval.train_intent` on natural-voice
questions written by outside test writers (the data file names the sets and the run's
leave-one-set-out check).

The cues of intents.py read every question first. They were written from the sets they were
tuned on, and on sets written blind by new writers they read the intent wrong about three times
as often; the model, scored on each writer's set with that set left out of its training, gains
on them. So the model overrules the cues only where it is sure (OVERRULE_AT) and gives the cues'
intent next to no chance (CUES_BELOW), and only between intents that answer a question: a
greeting, a refusal or an out-of-scope reply is the cues' alone."""

from __future__ import annotations

import gzip
import itertools
import json
import math
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.agent.query import RENT_SAID, Query

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "intent_model.json.gz"

OVERRULE_AT = 0.8  # the model's own intent at least this likely ...
CUES_BELOW = 0.05  # ... and the cues' intent less likely than this
# intents that answer a question; the model moves a question only among these
ANSWERING = frozenset(
    ("spec", "compare", "fit", "speed", "train_time", "cost", "solve", "recommend", "buy",
     "rent_or_buy", "explain", "search", "advice")
)  # fmt: skip
# the cues' readings the model leaves alone besides those: a why or a claim to judge (explain,
# advice), owning set against renting (rent_or_buy: "my own 3090 vs renting one at $0.25/hr,
# power at 0.35/kWh, which is cheaper?" is a break-even, not a rental price), a quantity solved
# for (solve: "how many L4s for 5k tok/s", "which quant on a 3090", "the largest Qwen3 on 2x
# 3090", which the writers' labels spread over fit, speed and recommend), and any intent a
# principle of principles.py decided, asked in so many words (on the golden sets, questions of
# another style than the natural sets it learnt from, overruling these lost answers: "is that
# right? yes or no first" read as a fit)
CUES_KEPT = frozenset(("explain", "advice", "solve", "rent_or_buy"))
# readings the model does not swap (cues' intent, model's): a buy question that names two cards
# is already weighed card by card with each one's price to buy, which a comparison leaves out; a
# cost question gives a card's price to buy with its rent beside it ("what does a 4090 go for
# these days?") and the cheaper rent of two ("l40s or a6000, which costs less per hour to
# rent"), which a buy answer or a comparison of the cards' figures leaves out
NOT_SWAPPED = frozenset({("buy", "compare"), ("cost", "buy"), ("cost", "compare")})
# the cues' intents the model has no class of its own for, read as the class they answer like
AS_CLASS = {"search": "explain"}

# money asked in so many words: "how much to rent", "what would it cost", "the monthly bill"
_MONEY_ASKED = re.compile(
    r"\bhow much (?:\w+ ){0,3}?(?:to rent|to run|does it cost|would it cost|will it cost|money"
    r"|per (?:month|hour|year))\b|\bcosts?\b|\bprice\b|\bbill\b|\bspend\b|\bpay\b"
    r"|\bhourly (?:rate|price|cost)\b|\brate (?:per|an?) hour\b"
)
# the money of a job asked in so many words (not "how fast ... and the cost per image")
_COST_ASKED = re.compile(
    r"\bhow much (?:\w+ ){0,2}?(?:does|would|will|did) (?:it|that|this) cost\b"
)
_WORD = re.compile(r"(?u)\b\w\w+\b")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# the Query fields whose presence is part of a question's shape
_SHAPE_FIELDS = (
    "workload", "precision", "engine", "framework", "context", "batch", "output_tokens",
    "concurrency", "rps", "hours", "user_price_usd_per_hour", "purchase_usd", "monthly_usd",
    "usd_per_kwh", "budget", "max_power_w", "throughput_tok_s", "requirements", "gpu_prices",
    "gpu_purchase_prices",
)  # fmt: skip


def shape(query: Query) -> list[str]:
    """What the understanding step found, as tokens: counts of GPUs and models, several GPUs,
    an open variant, each field that is set, the budget's kind and the workload."""
    tokens = [f"g{min(len(query.gpus), 3)}", f"m{min(len(query.models), 2)}"]
    if any((g.count or 0) > 1 for g in query.gpus) or (query.num_gpus or 0) > 1:
        tokens.append("multi")
    if any(g.open_variant for g in query.gpus):
        tokens.append("open")
    tokens += [name for name in _SHAPE_FIELDS if getattr(query, name, None)]
    if query.budget:
        tokens.append(f"budget_{query.budget.kind}_{query.budget.per}")
    if query.workload:
        tokens.append(f"wl_{query.workload}")
    return tokens


def features(low: str, shape_tokens: list[str]) -> dict[str, Counter[str]]:
    """The question's terms by block: words and word pairs, character n-grams (2-5) within
    words, and shape tokens; digits read as one digit ("rtx 0"), so a figure is no word."""
    text = _DIGITS.sub("0", low.lower())
    words = _WORD.findall(text)
    terms: Counter[str] = Counter(words)
    terms.update(f"{a} {b}" for a, b in itertools.pairwise(words))
    chars: Counter[str] = Counter()
    for word in text.split():
        padded = f" {word} "
        for n in range(2, 6):
            if len(padded) < n:
                break
            chars.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return {"w": terms, "c": chars, "s": Counter([*shape_tokens, "any"])}


def vector(blocks: dict[str, Counter[str]], vocab: dict[str, int],
           idf: list[float]) -> dict[int, float]:  # fmt: skip
    """Sparse tf-idf vector: 1 + log(count) times the term's idf, each block scaled to length 1
    (terms the vocabulary lacks are dropped)."""
    out: dict[int, float] = {}
    for block, counts in blocks.items():
        part = {}
        for term, count in counts.items():
            index = vocab.get(f"{block}:{term}")
            if index is not None:
                part[index] = (1.0 + math.log(count)) * idf[index]
        norm = math.sqrt(sum(v * v for v in part.values())) or 1.0
        out.update({i: v / norm for i, v in part.items()})
    return out


@lru_cache(maxsize=1)
def _model() -> dict[str, Any] | None:
    if not MODEL_FILE.exists():
        return None
    with gzip.open(MODEL_FILE, "rt", encoding="utf-8") as handle:
        model: dict[str, Any] = json.load(handle)
    model["vocab"] = {term: i for i, term in enumerate(model["terms"])}
    return model


def _weights(model: dict[str, Any]) -> tuple[Any, Any]:
    """The model's weights as one (features x classes) array and its intercepts (built once per
    model and kept in it: a question's scores are then one small product)."""
    if "_weights" not in model:
        import numpy as np

        weights = np.zeros((len(model["terms"]), len(model["classes"])), dtype=np.float32)
        for k, row in enumerate(model["coef"]):
            index = np.fromiter((int(i) for i in row), dtype=np.int64, count=len(row))
            weights[index, k] = np.fromiter(row.values(), dtype=np.float32, count=len(row))
        model["_weights"] = (weights, np.asarray(model["intercept"], dtype=np.float32))
    return model["_weights"]  # type: ignore[no-any-return]


def probabilities(query: Query, model: dict[str, Any] | None = None) -> dict[str, float]:
    """The chance of each intent for the question under `model` (the shipped one by default;
    empty without the model file)."""
    model = model if model is not None else _model()
    if model is None:
        return {}
    return chances(model, features(query.low, shape(query)))


def chances(model: dict[str, Any], blocks: dict[str, Counter[str]]) -> dict[str, float]:
    """Softmax over the classes of `model` (its "vocab" added to the file's content)."""
    import numpy as np

    x = vector(blocks, model["vocab"], model["idf"])
    weights, intercept = _weights(model)
    values = np.fromiter(x.values(), dtype=np.float32, count=len(x))
    scores = intercept + values @ weights[list(x)]
    exps = np.exp(scores - scores.max())
    return {c: float(e) for c, e in zip(model["classes"], exps / exps.sum(), strict=True)}


def overruled(query: Query, model: dict[str, Any] | None = None) -> str | None:
    """The model's intent where it overrules the cues' (query.intent), else None."""
    from advisor.agent import principles

    if query.intent not in ANSWERING or query.intent in CUES_KEPT:
        return None
    if query.intent in ("spec", "compare") and query.fields:
        return None  # a datasheet field asked in so many words: "... 5 hours a day, its tdp?"
    chance = probabilities(query, model)
    if not chance:
        return None
    best = max(chance, key=chance.__getitem__)
    cues = AS_CLASS.get(query.intent, query.intent)
    if best == cues or best not in ANSWERING or chance[best] < OVERRULE_AT:
        return None
    if chance.get(cues, 0.0) >= CUES_BELOW or (query.intent, best) in NOT_SWAPPED:
        return None
    if best == "buy" and RENT_SAID.search(query.low):  # renting said: no price to buy asked
        return None
    if query.intent == "cost" and best in ("solve", "spec") and _MONEY_ASKED.search(query.low):
        # "how much to rent an h100 to serve qwen 32b 24/7": the bill, not a count; "the h100
        # nvl hourly rate": its price, not its datasheet
        return None
    if query.intent == "cost" and best == "speed" and _COST_ASKED.search(query.low):
        return None  # "how much does it cost to generate SDXL 10000 images on a L4?": the bill
    return None if principles.find(query, query.low) is not None else best
