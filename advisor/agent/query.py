"""What a question asks, as typed values: the output of the understanding step (understand.py)
and the input of every answer handler (intents.py). Nothing here reads text or the catalog."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, is_dataclass, replace
from dataclasses import fields as fields_of
from typing import Any

# money the user holds to buy with: "i have $2000", "my budget is", "can spend", "tenho R$ 12000"
BUDGET_HELD = re.compile(
    r"\b(?:i|we) (?:have|got|only have|saved(?: up)?)\b|\bcan (?:spend|afford)\b|\bbudget\b"
    r"|\bto spend\b|\bsaving up\b|\b(?:tenho|tengo|ich habe|j'ai)\b"
)

# renting said ("rent", "cloud", "per hour", "/hr", "hourly", "by the hour"): read by the
# understanding step (a machine's price to buy is not asked), by the answers (a card's rent, not
# its price to buy) and by the intent model (it never turns such a question into a price to buy)
RENT_SAID = re.compile(
    # ("skip the cloud", "no cloud", "ditch the cloud": buying, the cloud set aside)
    r"\brent\w*|(?<!skip the )(?<!no )(?<!ditch the )(?<!not the )(?<!without the )"
    r"(?<!instead of the )(?<!forget the )\bcloud\b"
    r"|\bper hour\b|/h(?:r|our)?\b|\bhourly\b|\bby the (?:hour|day)\b"
)

# a card swapped in for another: "swap the 3060 for a 4060 ti", "replacing my 3060 with an rtx
# 4090", "upgrade to a 5090" (the words after the verb name the card going in: group "new"),
# read by the understanding step (the two weighed) and by the answers (the card asked of, the
# supply's load, the side of a claim)
SWAP_TO = re.compile(
    r"\b(?:swap|switch|replac|trad|upgrad|chang)\w*\b[^.?!]{0,40}?\b(?:for|with|to)\b"
    r"(?P<new>[^.?!,]{0,40})"
)


# frameworks said that only run a model (image UIs): no trainer, no training options
RUNS_ONLY = ("comfyui", "automatic1111")


def card_named_in(said: str, text: str) -> bool:
    """Whether a card the user wrote as `said` ("RTX 3080 (10 GB)", "rtx 4090 the") is named in
    `text`: its first word with a digit in it ("3080") is there."""
    number = re.search(r"[a-z]*\d+[a-z]*", said.lower())
    return number is not None and number.group(0) in text


@dataclass(frozen=True)
class GpuRef:
    """A GPU the question names, with what the words around it say."""

    text: str  # as written
    ids: tuple[str, ...]  # catalog ids it may be: one = resolved; several = variant left open
    count: int | None = None  # "two A100s", "4xA100", "a pair of 3090s"
    memory_gb: float | None = None  # a variant constraint stated beside the name ("A100 40 gigs")
    form_factor: str | None = None  # pcie | sxm | nvl | laptop ...
    base: str | None = None  # the name without its variant words ("A100"), for "the 80GB one"
    suggestions: tuple[str, ...] = ()  # for a name the catalog does not know
    generic: bool = False  # "a 24 GB card": no GPU named, only its memory
    note: str | None = None  # how a near miss or a constraint was read
    one_said: bool = False  # "one L40S", "a single H100": one card said in words (kept in a thread)

    @property
    def resolved(self) -> bool:
        return len(self.ids) == 1

    @property
    def open_variant(self) -> bool:
        return len(self.ids) > 1


@dataclass(frozen=True)
class ModelRef:
    """A model the question names (any workload family), or a size with no name ("a 13B")."""

    text: str
    ids: tuple[str, ...] = ()
    family: str | None = None  # the workload family of the catalog entry
    size_b: float | None = None  # parameters the question states, in billions
    precision: str | None = None  # a format written into the name ("...-AWQ", "Q4_K_M")
    suggestions: tuple[str, ...] = ()
    note: str | None = None  # how a near miss or a stated size was read
    about: str | None = None  # the catalog entry whose figures the note quotes
    assumed: bool = False  # a family named without its size ("whisper"): its reference model

    @property
    def resolved(self) -> bool:
        return len(self.ids) == 1


@dataclass(frozen=True)
class Budget:
    usd: float
    kind: str | None = None  # buy | rent
    per: str = "total"  # total | hour | month


@dataclass(frozen=True)
class Query:
    """Everything an answer needs from one question, after follow-up resolution."""

    text: str  # as written
    intent: str
    gpus: tuple[GpuRef, ...] = ()
    models: tuple[ModelRef, ...] = ()
    workload: str | None = None  # a workload of the families registry, or "finetune"
    workload_given: bool = False
    precision: str | None = None
    engine: str | None = None
    framework: str | None = None
    # fine-tuning memory options the question sets: (Request field, value), e.g. pure bf16 is
    # ("mixed_precision", False)
    train_options: tuple[tuple[str, object], ...] = ()
    interconnect: str | None = None  # several GPUs: nvlink | pcie, when the question says
    nodes: int | None = None  # machines the GPUs span ("two boxes with 4x 3090 each")
    network: str | None = None  # the network between them (interconnect.NETWORKS)
    kv_cache: str | None = None  # the KV cache's type said: fp16, fp8, q8_0, q4_0
    backend: str | None = None  # llama.cpp's backend said ("vulkan", "rocm", "sycl", "ipex-llm")
    offload: str | None = None  # CPU offload said: none | model | sequential
    # the machine's system RAM, for an LLM's layers on the CPU: "ddr5-5600", its size, channels
    ram: str | None = None
    ram_gb: float | None = None
    ram_channels: int | None = None
    cpu_only: bool = False  # "llama.cpp cpu only", "no GPU": the CPU alone runs it
    gpu_layers: int | None = None  # llama.cpp's -ngl said ("-ngl 40"): the layers on the GPUs
    # memory of each card kept for other work: "reserving 4 GB for the OS", "the camera
    # pipeline taking maybe 3 GB"
    reserved_gb: float | None = None
    # a card the user owns and could sell: "sell my 3090 for $1,150 and rent one: sell or keep?"
    # (the price it fetches stands as the price to buy, keeping it as owning)
    selling: bool = False
    providers: tuple[str, ...] = ()  # cloud providers named, as the price rows name them ("AWS")
    context: int | None = None
    batch: int | None = None
    output_tokens: int | None = None
    concurrency: int | None = None
    rps: float | None = None
    num_gpus: int | None = None  # a count not tied to a named GPU ("on 8 GPUs")
    hours: float | None = None
    use_hours_per_day: float | None = None  # how much a GPU is used: "2 weeks a month", "8h a day"
    user_price_usd_per_hour: float | None = None  # a price the user gives: used as given
    # each named GPU's own hourly price, when the message gives one per card: (gpu id, usd)
    gpu_prices: tuple[tuple[str, float], ...] = ()
    # ... or each named GPU's price to buy: "used 3090 for $700 or a new 4060 ti for $450"
    gpu_purchase_prices: tuple[tuple[str, float], ...] = ()
    # one GPU's prices under several terms: (term, usd per GPU-hour), "on-demand $4.00, 1-yr
    # reserved $2.20": a committed term bills every hour, on-demand and spot the hours used
    price_options: tuple[tuple[str, float], ...] = ()
    # a speed ratio the user states for one named GPU over another: (gpu id, ratio)
    speedup_said: tuple[str, float] | None = None
    mfu: float | None = None  # a model FLOPs utilisation the user states ("assuming 40% MFU")
    price_per_node: bool = False  # that price is for the whole node or server, not per GPU
    node_size: int | None = None  # the GPUs in one cloud instance named ("p4d.24xlarge": 8)
    monthly_usd: float | None = None  # an amount per month the user gives (spend or budget)
    # what owning costs a month besides power ("$40 a month of colocation"), in the break-even
    upkeep_usd_per_month: float | None = None
    purchase_usd: float | None = None  # a price to buy that the user gives ("it costs $1,800")
    seconds_per_item: float | None = None  # a time per image or sample the user gives
    ttft_budget_s: float | None = None  # the time to first token the user allows ("TTFT < 2 s")
    # that pace is of all the GPUs the message names together ("a node of 4x A100 does 2,900
    # images/s"), not of one of them
    pace_whole: bool = False
    # `hours` are epochs at the time of one said before ("one epoch takes 3 min 40 s" then "and
    # for 150 epochs?")
    epoch_paced: bool = False
    # (runs, machines) when more runs take turns on fewer machines ("28 students, 4 machines, one
    # run per machine at a time": (28, 4))
    turns: tuple[int, int] | None = None
    # what a card must reach or stay under, when asked whether it does: (field, ">=" or "<=",
    # value), "min. 80 GB memory, max. 600 W per card"
    requirements: tuple[tuple[str, str, float], ...] = ()
    throughput_tok_s: float | None = None  # a speed the user gives ("pushing 2500 tok/s")
    # a speed the user needs beside one they measured ("1,800 tok/s on one A10G; we need 25k")
    needed_tok_s: float | None = None
    # a pay-per-use service's price the user sets against the GPU: (usd per unit, unit of
    # calculator.cost.SERVICE_UNITS), "my SaaS charges $0.006 per audio minute"
    service_price: tuple[float, str] | None = None
    budget: Budget | None = None
    max_power_w: float | None = None
    usd_per_kwh: float | None = None  # an electricity price the user gives
    # the sign of the user's money ("€2.50/h", "15p a unit"): amounts are used as given, in it
    currency: str = "$"
    # a rate of exchange the user states beside dollar amounts ("₦1,550 to $1"): (code, units of
    # it a dollar buys), for a dollar total also said in their currency
    exchange: tuple[str, float] | None = None
    draw_w: float | None = None  # a power draw the user states: of all the GPUs (or the rig)
    draw_each: bool = False  # ... or of each GPU ("350 W each")
    draws_w: tuple[float, ...] = ()  # two draws set side by side ("115 W vs 350 W")
    other_w: float | None = None  # more draw stated beside it: "plus 1.2 kW for CPUs and fans"
    idle_w: float | None = None  # the draw when idle ("~110W idle"), for the hours not loaded
    idle_hours: float | None = None  # those hours: the rest of each day the loaded hours cover
    memory_gb: float | None = None  # memory asked for with no GPU named ("a 48 GB card")
    train_tokens: float | None = None
    epochs: float | None = None
    dataset_samples: float | None = None
    dataset_name: str | None = None
    images: float | None = None
    audio_hours: float | None = None
    per_day: bool = False  # the images or audio said are a day's work ("500 h of audio a day")
    split_ways: int | None = None  # people a bill is shared by ("splitting it 4 ways")
    tax_rate: float | None = None  # a tax added to a bill ("tack on 9.75% sales tax": 0.0975)
    subscription: bool = False  # the monthly spend is a service's fee ("a SaaS at $79 a month")
    no_power: bool = False  # electricity to be left out ("ignore power", "bijli ignore karo")
    together: bool = False  # the models named are kept on one card at once ("all three in vram")
    resolution: int | None = None
    steps: int | None = None
    fields: tuple[str, ...] = ()  # datasheet fields asked for
    target: str | None = None  # solve: max_context | max_batch | min_gpus
    condition: str | None = None  # new | used
    buying: bool = False  # the user means to buy the hardware ("what should I buy", "capex")
    location: str | None = None  # home | cloud | datacenter
    segment: str | None = None
    vendor: str | None = None  # "nvidia", "amd", ... when the user limits the choice
    topic: str | None = None  # what an explain question is about
    follow_up: bool = False
    # the intent the cues of intents.py read, where the intent model overruled it (intent_model)
    cues_intent: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    also: tuple[Query, ...] = ()  # further questions in the same message
    # the text as read: normalised, the phrasebook's English, numbers in figures ("" = text)
    english: str = ""

    @property
    def read(self) -> str:
        """The question as the understanding step read it (in English where the phrasebook
        knows the words): what handlers match and retrieval searches for."""
        return self.english or self.text

    @property
    def low(self) -> str:
        return self.read.lower()

    @property
    def trainer(self) -> str | None:
        """The framework said, when it is one that trains (not an image UI that runs a model)."""
        return None if self.framework in RUNS_ONLY else self.framework

    @property
    def provider(self) -> str | None:
        """The one cloud the question prices at ("... on lambda"); None for none or several
        (several clouds named are each said apart)."""
        return self.providers[0] if len(self.providers) == 1 else None

    @property
    def model(self) -> ModelRef | None:
        return self.models[0] if self.models else None

    @property
    def gpu_ids(self) -> list[str]:
        """The ids of the GPUs that are pinned down."""
        return [g.ids[0] for g in self.gpus if g.resolved]

    @property
    def has_model(self) -> bool:
        return bool(self.models) and any(m.resolved or m.size_b for m in self.models)

    def said(self, question: str) -> str:
        """The user's own words an answer may repeat: this question and the names the thread
        carries from earlier turns ("the gtx 1650" of a follow-up's first message), each GPU with
        the count understood for it (a cloud instance is its GPUs: "p5.48xlarge", 8 x H100), and
        the understanding step's notes, which code wrote from those words ("by next Friday":
        the day taken and its hours of wall time)."""
        gpus = [f"{g.count} x {g.text}" if g.count else g.text for g in self.gpus]
        # a memory size said of a card in an earlier turn ("3090 with 48 GB"), carried with it
        sizes = [f"{g.memory_gb:g} GB" for g in self.gpus if g.memory_gb]
        # amounts of money said in earlier turns and carried ("i got $20 in credits"), as said
        sign = self.currency.strip() if self.currency != "$" else "$"
        money = [f"{sign}{v:g}" if sign == "$" else f"{v:g} {sign}"
                 for v in (self.budget.usd if self.budget else None, self.purchase_usd,
                           self.user_price_usd_per_hour, self.monthly_usd) if v]  # fmt: skip
        return " ".join([question, *gpus, *sizes, *(m.text for m in self.models), *self.notes,
                         *money])  # fmt: skip

    def with_(self, **changes: Any) -> Query:
        return replace(self, **changes)

    def context_dict(self) -> dict[str, Any]:
        """What the next turn of the conversation may inherit (kept with the turn's record)."""
        data = {f.name: _plain(getattr(self, f.name)) for f in fields_of(self)
                if f.name not in ("text", "notes", "also")}  # fmt: skip
        data["gpus"] = [asdict(g) for g in self.gpus]
        data["models"] = [asdict(m) for m in self.models]
        return data

    @classmethod
    def from_context(cls, data: dict[str, Any]) -> Query:
        """The query a context_dict() was made from (less its text and notes)."""
        values = dict(data)
        values["gpus"] = tuple(
            GpuRef(**{**g, "ids": tuple(g["ids"]), "suggestions": tuple(g.get("suggestions", ()))})
            for g in data.get("gpus", [])
        )
        values["models"] = tuple(
            ModelRef(
                **{**m, "ids": tuple(m["ids"]), "suggestions": tuple(m.get("suggestions", ()))}
            )
            for m in data.get("models", [])
        )
        budget = data.get("budget")
        values["budget"] = Budget(**budget) if budget else None
        values["fields"] = tuple(data.get("fields", ()))
        known = set(cls.__dataclass_fields__)
        return cls(text="", **{k: v for k, v in values.items() if k in known and k != "text"})


def _plain(value: Any) -> Any:
    """What `dataclasses.asdict` makes of a field's value, without walking the fields left out."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value
