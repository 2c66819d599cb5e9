"""Reading a question: what is asked (intent) and about what (GPUs, model, workload, numbers).

Names are matched against the catalog's aliases ("two A100 80GB", "llama 3 8b", "a 13B model");
words are matched with a small spelling tolerance ("fien-tune", "bandwith"). Nothing is guessed
silently: an ambiguous GPU becomes a clarifying question, a near-miss name is read as its closest
match with a note saying so, and every default the planner fills in is stated in the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from advisor.agent.entities import NUMBER_WORDS, Mention, find_gpus, find_model, spell
from advisor.catalog import Catalog

MAX_COUNT = 10**12  # a context, batch or GPU count above this is not a workload
SPEC_FIELDS = {
    "memory_gb": ("memory", "vram", "ram", "capacity", "gigs"),
    "bandwidth_gbs": ("bandwidth", "bandwith", "memory speed", "gb/s", "tb/s"),
    "fp16_bf16_dense_tflops": ("tflops", "flops", "compute", "fp16", "bf16", "tensor performance"),
    "tdp_w": ("power", "tdp", "watt", "watts", "draw"),
    "cuda_cores": ("cuda cores", "cores", "shaders"),
    "tensor_cores": ("tensor cores",),
}
_WORKLOAD_WORDS = [
    ("finetune-qlora", r"\bq-?lora\b"),
    ("finetune-lora", r"\blora\b|\bpeft\b|\badapter"),
    (
        "finetune-full",
        r"\bfull(?:[-\s]parameter)?[-\s](?:fine[-\s]?tun|train)|\bpre-?train"
        r"|\bfrom scratch\b|\bfull fine",
    ),
    ("finetune", r"\bfine[-\s]?tun|\bfinetun|\btrain(?:ing)?\b|\bsft\b"),
    (
        "inference",
        r"\bserv(?:e|ing)\b|\binference\b|\brun(?:ning)?\b|\bdeploy|\bhost|\bchat"
        r"|\bgenerat|\bload\b|\bfit\b",
    ),
]
_PRECISION_WORDS = [
    ("nf4", r"\bnf4\b|\bbitsandbytes\b|\bbnb\b"),
    ("awq", r"\bawq\b|\bint4\b"),
    ("gptq", r"\bgptq\b"),
    ("q4_k_m", r"\bq4(?:_k_m|_k|km)?\b|\bgguf\b"),
    ("q8_0", r"\bq8(?:_0)?\b"),
    ("q5_k_m", r"\bq5(?:_k_m)?\b"),
    ("q6_k", r"\bq6(?:_k)?\b"),
    ("nf4", r"\b4[-\s]?bits?\b|\b4-?bit quant"),
    ("int8", r"\bint8\b|\b8[-\s]?bits?\b"),
    ("fp8", r"\bfp8\b"),
    ("bf16", r"\bbf16\b|\bbfloat16\b"),
    ("fp16", r"\bfp16\b|\bfloat16\b|\bhalf precision\b|\b16[-\s]?bits?\b"),
    ("fp32", r"\bfp32\b|\bfloat32\b|\bfull precision\b|\b32[-\s]?bits?\b"),
]
_ENGINE_WORDS = [
    ("vllm", r"\bvllm\b"),
    ("llama.cpp", r"\bllama\.?cpp\b|\bollama\b"),
    ("tensorrt-llm", r"\btensorrt|\btrt-?llm\b"),
    ("hf", r"\btransformers\b|\bhugging ?face\b|\bhf\b"),
]


@dataclass(frozen=True)
class Query:
    """Everything the planner needs from one question (after follow-up resolution)."""

    text: str
    intent: str
    gpus: tuple[Mention, ...] = ()
    model: Mention | None = None
    model_size_b: float | None = None  # "a 13B model" when no catalog model is named
    workload: str | None = None
    workload_given: bool = False
    precision: str | None = None
    engine: str | None = None
    context: int | None = None
    batch: int | None = None
    num_gpus: int | None = None
    hours: float | None = None
    train_tokens: float | None = None
    max_usd_per_hour: float | None = None
    max_usd_per_job: float | None = None
    max_power_w: float | None = None
    memory_gb: float | None = None  # "a 24 GB card" when no GPU is named
    segment: str | None = None
    target: str | None = None  # max_context | max_batch | min_gpus
    fields: tuple[str, ...] = ()
    follow_up: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def gpu_ids(self) -> list[str]:
        return [m.ids[0] for m in self.gpus if len(m.ids) == 1]

    def context_dict(self) -> dict[str, Any]:
        """What a follow-up question may inherit."""
        return {
            "intent": self.intent,
            "gpus": [m.ids[0] for m in self.gpus if len(m.ids) == 1],
            "model": self.model.ids[0] if self.model and len(self.model.ids) == 1 else None,
            "model_size_b": self.model_size_b,
            "workload": self.workload,
            "precision": self.precision,
            "engine": self.engine,
            "context": self.context,
            "batch": self.batch,
            "num_gpus": self.num_gpus,
            "hours": self.hours,
        }


# ---------------------------------------------------------------- numbers in words

_SIZE_B = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(b|bn|billion)\b(?:[-\s]*param\w*)?", re.I)
_CONTEXT = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s?(?P<k>k|K|m|M)?\s?(?:-?\s?tokens?)?\s?(?:-?\s?(?:context|ctx|sequence|seq)"
    r"(?:\s(?:length|window))?|prompts?|input)"
    r"|(?:context|ctx|sequence length|seq len|context window|context length)(?:\s(?:of|=|:|is))?"
    r"\s?(?P<n2>\d+(?:\.\d+)?)\s?(?P<k2>k|K|m|M)?",
    re.I,
)
_BATCH = re.compile(
    r"batch(?:\s?size)?(?:\s(?:of|=|:))?\s?(?P<n>\d+)"
    r"|(?P<n2>\d+)\s(?:concurrent|parallel|simultaneous)?\s?(?:users|requests|sequences|streams)",
    re.I,
)
_HOURS = re.compile(
    r"(\d+(?:\.\d+)?|\ban?|\bone)\s?(hours?|hrs?|h|days?|weeks?|months?)\b(?!\s?(?:of|old))", re.I
)
_PER_HOUR = re.compile(
    r"\$\s?(\d+(?:\.\d+)?)\s?(?:/|per|an|a)\s?(?:gpu[-\s]?)?(?:hour|hr|h)\b"
    r"|(\d+(?:\.\d+)?)\s?(?:usd|dollars?)\s?(?:/|per|an|a)\s?(?:hour|hr|h)\b",
    re.I,
)
_BUDGET = re.compile(
    r"(?:budget|under|below|less than|at most|max(?:imum)?|up to)\s(?:of\s)?\$\s?"
    r"(\d[\d,]*(?:\.\d+)?)\s?(k)?(?!\s?(?:/|per|an|a)\s?(?:gpu[-\s]?)?(?:hour|hr|h)\b)",
    re.I,
)
_TOKENS = re.compile(
    r"(\d+(?:\.\d+)?)\s?(k|m|b|million|billion|thousand)?\s?(?:training\s)?tokens", re.I
)
_MEMORY = re.compile(
    r"(\d+(?:\.\d+)?)\s?(gb|gigs?|gib)\b(?!/s)(?:\s(?:of\s)?(?:vram|memory))?", re.I
)
_POWER = re.compile(r"(?:under|below|at most|max(?:imum)?|less than)\s(\d+)\s?(?:w|watts)\b", re.I)


def _scaled(number: str, suffix: str | None, k: float = 1024) -> float:
    value = float(number)
    s = (suffix or "").lower()
    return value * {
        "k": k,
        "thousand": 1e3,
        "m": 1e6 if k == 1e3 else k * 1024,
        "million": 1e6,
        "b": 1e9,
        "billion": 1e9,
    }.get(s, 1)


def _hours(value: float, unit: str) -> float:
    unit = unit.lower()
    return value * (
        24
        if unit.startswith("d")
        else 168
        if unit.startswith("w")
        else 730
        if unit.startswith("mo")
        else 1
    )


# ---------------------------------------------------------------- the parser


def parse(question: str, catalog: Catalog) -> Query:
    """Intent and entities of one question, on its own (see resolve() for follow-ups)."""
    text = spell(question.strip())
    low = text.lower()
    gpus = find_gpus(text, catalog)
    model = find_model(text, catalog)
    size = None
    if model is None:
        sized = _SIZE_B.search(text)
        if sized and float(sized.group(1)) > 0:
            size = float(sized.group(1))
    workload = next((w for w, pattern in _WORKLOAD_WORDS if re.search(pattern, low)), None)
    notes: list[str] = [m.note for m in (*gpus, model) if m is not None and m.note]
    precision = next((p for p, pattern in _PRECISION_WORDS if re.search(pattern, low)), None)
    if workload == "finetune-qlora":
        precision = precision if precision in ("nf4", "nf4-nodq") else None
    engine = next((e for e, pattern in _ENGINE_WORDS if re.search(pattern, low)), None)
    query = Query(
        text=question.strip(),
        intent="search",
        gpus=tuple(gpus),
        model=model,
        model_size_b=size,
        workload=workload,
        workload_given=workload is not None,
        precision=precision,
        engine=engine,
        notes=tuple(notes),
    )
    query = _numbers(query, text)
    return replace(query, intent=_intent(query, low), fields=_fields(low))


_SIGNED_OR_EXPONENT = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")


def _plain(match: re.Match[str]) -> str:
    """Numbers as the field patterns read them: "1e9" written out; a negative or absurd one
    (which no setting takes) blanked, so that "2.2e+39 GiB" is not read as 39 GiB."""
    written = match.group(0)
    if "e" not in written.lower() and not written.startswith("-"):
        return written
    value = float(written)
    if written.startswith("-") or not 1e-6 <= value <= 1e15:
        return " ~ "
    return f"{value:f}".rstrip("0").rstrip(".")


def _numbers(query: Query, text: str) -> Query:
    text = _SIGNED_OR_EXPONENT.sub(_plain, text)
    low = text.lower()
    values: dict[str, Any] = {}
    ctx = _CONTEXT.search(text)
    if ctx:
        n, k = (
            (ctx.group("n"), ctx.group("k"))
            if ctx.group("n")
            else (ctx.group("n2"), ctx.group("k2"))
        )
        values["context"] = int(_scaled(n, k))
    batch = _BATCH.search(text)
    if batch:
        values["batch"] = int(batch.group("n") or batch.group("n2"))
    hours = _HOURS.search(text)
    if hours:
        amount = hours.group(1)
        count = float(amount) if amount[0].isdigit() else 1.0  # "a week", "an hour"
        values["hours"] = _hours(count, hours.group(2))
    per_hour = _PER_HOUR.search(text)
    if per_hour:
        values["max_usd_per_hour"] = float(per_hour.group(1) or per_hour.group(2))
    budget = _BUDGET.search(text)
    if budget:
        values["max_usd_per_job"] = _scaled(budget.group(1).replace(",", ""), budget.group(2), 1e3)
    tokens = _TOKENS.search(text)
    training = bool(query.workload and query.workload.startswith("finetune"))
    if tokens and training and (not ctx or tokens.start() != ctx.start()):
        values["train_tokens"] = _scaled(tokens.group(1), tokens.group(2), 1e3)
    memory = _MEMORY.search(text)
    if memory and not query.gpus:
        values["memory_gb"] = float(memory.group(1))
    power = _POWER.search(text)
    if power:
        values["max_power_w"] = float(power.group(1))
    counts = [m.count for m in query.gpus if m.count]
    many = re.search(r"(\d+|two|three|four|eight|sixteen)\s?(?:x\s?)?gpus\b", low)
    if counts:
        values["num_gpus"] = counts[0]
    elif many:
        word = many.group(1)
        values["num_gpus"] = int(word) if word.isdigit() else NUMBER_WORDS[word]
    elif of_them := re.search(r"\b(\d+|two|three|four|six|eight|sixteen|both) of them\b", low):
        word = of_them.group(1)  # "on four of them"
        values["num_gpus"] = int(word) if word.isdigit() else NUMBER_WORDS[word]
    for segment in ("laptop", "workstation", "consumer", "datacenter"):
        if segment in low or (segment == "datacenter" and "data center" in low):
            values["segment"] = segment
    notes = list(query.notes)
    for name in ("context", "batch", "num_gpus"):
        if values.get(name, 0) > MAX_COUNT:  # no workload has that many; it also overflows JSON
            del values[name]
            notes.append(f"The {name.replace('num_gpus', 'GPU count')} given is far beyond any "
                         "real workload; it was left out.")  # fmt: skip
    return replace(query, notes=tuple(notes), **values)


def _intent(q: Query, low: str) -> str:
    has_model = q.model is not None or q.model_size_b is not None
    if re.fullmatch(r"\W*(?:hi|hello|hey|thanks|thank you|help)\W*", low):
        return "greeting"
    if re.search(
        r"max(?:imum)?\s(?:context|sequence)|longest\scontext|how (?:long|much) (?:a )?"
        r"context|max(?:imum)?\sbatch|largest batch|biggest batch|how many gpus|how many "
        r"(?:of them|cards)|minimum (?:number of )?gpus|fewest gpus"
        r"|how many\b.{0,30}\b(?:need|needed|required|take)",
        low,
    ):
        return "solve" if has_model else "search"
    if (
        re.search(
            r"\b(?:which|what|best|recommend\w*|cheapest|suggest)\b.{0,40}\b(?:gpus?|cards?"
            r"|hardware|accelerators?|buy|rent|use)\b",
            low,
        )
        and not q.gpus
    ):
        return "recommend" if has_model else "search"
    if (
        re.search(
            r"\b(?:how fast|tokens?\s?(?:/|per)\s?s(?:ec(?:ond)?)?|tok/s|throughput|latency"
            r"|speed|how long|time to first|ttft)\b",
            low,
        )
        and has_model
        and q.gpus
    ):
        return "speed"
    money = re.search(
        r"\bcost|\bprice|\bpricing|\bspend|\bhow much (?:will|would|does|is).{0,30}"
        r"(?:rent|hour)|\$|\bper hour\b|\bbudget\b|\brent",
        low,
    )
    if (money or q.hours) and (q.gpus or has_model):  # "a month on an A4000" is a cost too
        return "cost"
    if has_model and (q.gpus or q.memory_gb):
        return "fit"
    if len(q.gpus) >= 2:
        return "compare"
    if q.gpus:
        return "spec"
    if has_model and re.search(r"\b(?:fit|run|serve|need|vram|memory|require)", low):
        return "recommend"
    return "search"


def _fields(low: str) -> tuple[str, ...]:
    found = []
    for name, words in SPEC_FIELDS.items():
        if any(re.search(rf"(?:\b|\d){re.escape(w)}\b", low) for w in words):
            found.append(name)
    if "tensor_cores" in found and "cuda_cores" in found and "cuda cores" not in low:
        found.remove("cuda_cores")
    return tuple(found)


# ---------------------------------------------------------------- follow-ups

_FOLLOW_UP = re.compile(
    r"^\s*(?:and|what about|how about|and what about|what if|same|now|ok(?:ay)?|then|also"
    r"|instead)\b"
    r"|\b(?:of them|them|it|that one|those|instead|the same)\b",
    re.I,
)


def resolve(query: Query, previous: dict[str, Any] | None) -> Query:
    """Fill what a follow-up leaves out ("and the A4000?", "what about on two of them?") from the
    previous turn's context; a complete question stands on its own."""
    if not previous:
        return query
    has_model = query.model is not None or query.model_size_b is not None
    short = len(query.text.split()) <= 12
    if not (
        _FOLLOW_UP.search(query.text) or (short and not has_model and query.intent == "search")
    ):
        return query
    updates: dict[str, Any] = {"follow_up": True}
    if not has_model and (previous.get("model") or previous.get("model_size_b")):
        if previous.get("model"):
            updates["model"] = Mention(previous["model"], (previous["model"],))
        updates["model_size_b"] = previous.get("model_size_b")
    if not query.gpus and previous.get("gpus"):
        ids = previous["gpus"]
        updates["gpus"] = tuple(Mention(i, (i,)) for i in ids)
    for key in ("workload", "precision", "engine", "context", "batch", "hours"):
        if getattr(query, key) is None and previous.get(key) is not None:
            updates[key] = previous[key]
    if query.num_gpus is None and previous.get("num_gpus") and not query.gpus:
        updates["num_gpus"] = previous["num_gpus"]
    if "workload" in updates:
        updates["workload_given"] = True
    merged = replace(query, **updates)
    intent = _intent(merged, spell(query.text).lower())
    if (
        intent in ("spec", "compare", "search")
        and previous.get("intent") in ("fit", "speed", "cost", "solve")
        and (merged.model or merged.model_size_b)
    ):
        intent = previous["intent"]
    return replace(merged, intent=intent)
