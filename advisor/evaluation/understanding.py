"""Scoring the understanding step: what a question asks (a Query) against what a test writer says
it asks, field by field.

A case (eval/golden/natural/*.yaml, or a generated paraphrase) names its GPUs and models by full
names; they are resolved through the catalog here, so a case written without reading the parser
scores the parser's reading, not its spelling. A GPU or model resolved to a different catalog
entry than the case means is a wrong entity: the worst error, counted on its own.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.agent.linker import linker_for
from advisor.agent.query import Query
from advisor.calculator import find_model
from advisor.calculator.precision import get_precision
from advisor.catalog import Catalog
from advisor.config import eval_dir
from advisor.errors import AdvisorError, AmbiguousModel

# what the test writers' words mean in the parser's vocabulary
PRECISION_SAME = {
    "q4": "q4_k_m",
    "gguf": "q4_k_m",
    "4bit": "nf4",
    "4-bit": "nf4",
    "int4": "awq",
    "8bit": "int8",
    "8-bit": "int8",
    "q8": "q8_0",
    "q5": "q5_k_m",
    "q3": "q3_k_m",
    "q6": "q6_k",
    "amp": "fp16",
    "amp-fp16": "fp16",
    "amp-bf16": "bf16",
    "half": "fp16",
    "float16": "fp16",
}
# a writer's generic "int4" / "4-bit" is any 4-bit weight format (AWQ, GPTQ, NF4, GGUF Q4)
ANY_FOUR_BIT = frozenset(("int4", "4bit", "4-bit"))
ANY_EIGHT_BIT = frozenset(("int8", "8bit", "8-bit"))


def _same_format(a: str, b: str) -> bool:
    """Two spellings of one EXL2 average ("4.0bpw", "exl2-4bpw"): the calculator's name; a GGUF
    type and that type with its average stated ("q2_k_xl", "q2_k_xl-2.51bpw") are one format."""
    if "bpw" in b and "bpw" not in a and b.rsplit("-", 1)[0] == a:
        return True
    if "bpw" not in a or "bpw" not in b:
        return False
    try:
        return get_precision(a).name == get_precision(b).name
    except AdvisorError:
        return False


def _four_bit(name: str) -> bool:
    try:
        return 4 <= get_precision(name).bits_linear < 5 and "fp4" not in name.lower()
    except AdvisorError:
        return False


ENGINE_SAME = {
    "ollama": "llama.cpp",
    "lm studio": "llama.cpp",
    "lmstudio": "llama.cpp",
    "lm-studio": "llama.cpp",
    "transformers": "hf",
    "diffusers": "diffusers",
    "comfyui": None,
    "a1111": None,
    "automatic1111": None,
    "kohya": None,
    "unsloth": None,  # a fine-tuning library, not a serving engine
}
# (a writer's "transformers" or "huggingface" is the Hugging Face stack the parser calls "hf")
FRAMEWORK_SAME = {"kohya": "kohya_ss", "transformers": "hf", "huggingface": "hf"}
INTENT_SAME = {"search": "explain"}
WORKLOAD_SAME = {
    "generate-images": "inference",
    "generate-image": "inference",
    "fine-tune": "finetune",
    "transcribe": "inference",
    "generate-video": "inference",  # no video family yet: running the model
    "lora": "finetune-lora",
    "qlora": "finetune-qlora",
    "finetune-full": "finetune",
    "serving": "inference",  # serving a model is running it, for many users at once
    "pretraining": "train",  # from scratch
    "pretrain": "train",
}
# a writer's "training" is any training of all the weights: from scratch or a full fine-tune
WORKLOAD_ANY = {"training": ("train", "finetune")}
TARGETS = ("min_gpus", "max_batch", "max_context")  # another word for a target is not scored
SCORED = (
    "intent",
    "gpus",
    "models",
    "workload",
    "precision",
    "engine",
    "framework",
    "context",
    "batch",
    "output_tokens",
    "concurrency",
    "rps",
    "hours",
    "user_price_usd_per_hour",
    "budget",
    "dataset",
    "fields",
    "target",
    "condition",
    "resolution",
    "steps",
)


# the signs the understanding step writes for a currency (Query.currency), by ISO code
_CURRENCY_SIGNS = {"usd": ("$",), "eur": ("€",), "gbp": ("£",), "brl": ("R$",),
                   "sek": ("kr",), "nok": ("kr",), "dkk": ("kr",),
                   "isk": ("kr", "ISK")}  # fmt: skip


def _currency_read(code: str, currency: str) -> bool:
    """Whether the currency the question was read in (Query.currency) is the one keyed."""
    return currency.strip() in _CURRENCY_SIGNS.get(code.lower(), (code.upper(),))


_FIELD_SYNONYMS = {
    "gpu_link": "interconnect_gbs",
    "gpu_link_gbs": "interconnect_gbs",
    "interconnect": "interconnect_gbs",
}


@dataclass
class CaseScore:
    id: str
    question: str
    fields: dict[str, bool] = field(default_factory=dict)  # field -> right
    details: dict[str, str] = field(default_factory=dict)  # field -> what was wrong
    wrong_entities: list[str] = field(default_factory=list)

    @property
    def right(self) -> int:
        return sum(self.fields.values())


def load_natural(folder: Path | None = None) -> list[dict[str, Any]]:
    folder = folder or eval_dir() / "golden" / "natural"
    cases = []
    for path in sorted(folder.glob("*.yaml")):
        for row in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            cases.append({**row, "file": path.stem})
    return cases


# cases written blind (without reading the parser, the scorer or the other golden files), each
# file a split of its own: fresh.yaml (stop 23), fresh2.yaml (stop 24; read and tuned on at stop
# 26), fresh3.yaml (stop 26; read and tuned on at stop 27), fresh4.yaml (stop 27; read and tuned
# on at stop 28), fresh5.yaml (stop 28; read and tuned on at stop 29), fresh6.yaml (stop 29;
# read and tuned on at stop 30), fresh7.yaml (stop 30; read and tuned on at stop 31),
# fresh8.yaml (stop 31; read and tuned on at stop 32), fresh9.yaml (stop 32; read and tuned
# on at stop 33), fresh10.yaml (stop 33; read and tuned on at stop 34), fresh11.yaml
# (stop 34; read and tuned on at stop 35), fresh12.yaml (stop 35; read and tuned on at stop
# 36), fresh13.yaml (stop 36; read and tuned on at stop 37), fresh14.yaml (stop 37; read and
# tuned on at stop 56), fresh15.yaml (stop 57, blind; read and tuned on at stop 58),
# fresh16.yaml (stop 57, scored once and then read and tuned on), fresh17.yaml (stop 58,
# blind), fresh18.yaml (stop 59, scored once blind, then read: its failure lines were shown by
# mistake, so it became the set tuned on and fresh17 stays blind), fresh19.yaml (stop 62, scored
# once blind on the code before the stop, then read and tuned on), fresh20.yaml (stop 63, the
# same: scored blind on the code before the stop and on the stop's first changes, then read and
# tuned on), fresh21.yaml (stop 64, the same), fresh22.yaml (stop 65, the same). The blind
# splits are scored but their failures never read.
SPLIT_PREFIXES = {
    "nat-fresh-": "fresh",
    "nat-fresh2-": "fresh2",
    "nat-fresh3-": "fresh3",
    "nat-fresh4-": "fresh4",
    "nat-fresh5-": "fresh5",
    "nat-fresh6-": "fresh6",
    "nat-fresh7-": "fresh7",
    "nat-fresh8-": "fresh8",
    "nat-fresh9-": "fresh9",
    "nat-fresh10-": "fresh10",
    "nat-fresh11-": "fresh11",
    "nat-fresh12-": "fresh12",
    "nat-fresh13-": "fresh13",
    "nat-fresh14-": "fresh14",
    "nat-fresh15-": "fresh15",
    "nat-fresh16-": "fresh16",
    "nat-fresh17-": "fresh17",
    "nat-fresh18-": "fresh18",
    "nat-fresh19-": "fresh19",
    "nat-fresh20-": "fresh20",
    "nat-fresh21-": "fresh21",
    "nat-fresh22-": "fresh22",
    "nat-fresh23-": "fresh23",
    "nat-fresh24-": "fresh24",
    "nat-fresh25-": "fresh25",
    "nat-fresh26-": "fresh26",
    "nat-fresh27-": "fresh27",
    "nat-fresh28-": "fresh28",
    "nat-fresh29-": "fresh29",
    "nat-fresh30-": "fresh30",
    "nat-fresh31-": "fresh31",
    "nat-fresh32-": "fresh32",
    "nat-fresh33-": "fresh33",
    "nat-fresh34-": "fresh34",
    "nat-fresh35-": "fresh35",
    "nat-fresh36-": "fresh36",
    "nat-fresh37-": "fresh37",
    "nat-fresh38-": "fresh38",
    "nat-fresh39-": "fresh39",
    "nat-fresh40-": "fresh40",
    "nat-fresh41-": "fresh41",
}
# written blind and kept so: scored, their failures kept out of the printed report (fresh22: a
# helper's set of stop 65, fresh23 one of stop 66, each scored on the code before stop 66 and
# after it, never read; fresh24 one of stop 67, fresh25 one of stop 68, fresh26 one of stop
# 69, fresh27 one of stop 70, fresh28 one of stop 71, fresh29 one of stop 72 and fresh30 one
# of stop 73, the same; fresh31 one of stop 74, fresh32 one of stop 75 and fresh33 one of stop
# 76, fresh34 one of stop 77, fresh35 and fresh36 two of stop 78, fresh37 one of stop 79 and
# fresh38 one of stop 80, fresh39 one of stop 81, fresh40 one of stop 82 and fresh41 one of stop
# 83, the same; fresh17,
# blind until stop 74, was read and tuned on then, fresh22 to fresh25 at stop 75, fresh26 and
# fresh27 at stop 76, fresh28, fresh29 and fresh33 at stop 77, fresh30 to fresh32 at stop 78,
# fresh34 at stop 79, fresh35 at stop 80, fresh36 at stop 81, fresh37 at stop 82, fresh38 at stop
# 83)
BLIND_SPLITS = ("fresh", "fresh39", "fresh40", "fresh41")  # fmt: skip


def split_of(case_id: str) -> str:
    """'dev' or 'held-out', fixed by the id's hash: the parser is tuned on dev only. The blind
    cases of each fresh*.yaml are a split of their own."""
    for prefix, split in SPLIT_PREFIXES.items():
        if case_id.startswith(prefix):
            return split
    return "dev" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 2 == 0 else "held-out"


# ---------------------------------------------------------------- one case


def score_case(case: dict[str, Any], got: Query, catalog: Catalog) -> CaseScore:
    want = case.get("query") or {}
    result = CaseScore(case["id"], case["turns"][-1])
    for key in SCORED:
        if key not in want or want[key] in (None, [], {}):
            continue
        ok, detail, wrong = _compare(key, want[key], got, catalog, want)
        if ok is None:
            continue  # a key this parser has no slot for
        result.fields[key] = ok
        if not ok:
            result.details[key] = detail
        result.wrong_entities += wrong
    return result


def _compare(
    key: str, want: Any, got: Query, catalog: Catalog, case: dict[str, Any]
) -> tuple[bool | None, str, list[str]]:
    if key in ("gpus", "models"):  # a bare name is {name: ...}
        want = [{"name": w} if isinstance(w, str) else w for w in want]
        return (_gpus if key == "gpus" else _models)(want, got, catalog)
    if key == "intent":
        mine = INTENT_SAME.get(got.intent, got.intent)
        if want == "solve" and case.get("target") and case["target"] not in TARGETS:
            # a writer's "solve" for the cheapest or fastest setup is what this parser calls
            # a recommendation: its solve has the three TARGETS only
            return mine in ("solve", "recommend"), f"{got.intent} for {want}", []
        return mine == want, f"{got.intent} for {want}", []
    if key == "framework":
        same = FRAMEWORK_SAME.get(str(want).lower(), str(want).lower())
        if same == "diffusers":  # the diffusion library is the engine this parser keeps it as
            return got.engine == same, f"{got.engine} for {want}", []
        return got.framework == same, f"{got.framework} for {want}", []
    if key == "workload" and isinstance(want, list):  # two jobs on one box: either is read
        found = [_compare(key, w, got, catalog, case) for w in want]
        return any(ok for ok, _, _ in found), f"{got.workload} for {want}", []
    if key == "workload":
        fine = WORKLOAD_SAME.get(want, want) == "finetune"  # "fine-tune": any fine-tune
        said = "finetune" if fine and got.workload == "finetune-lora" else got.workload
        said = "finetune" if said == "finetune-full" else said  # full is the plain fine-tune
        if want == "lora" and said == "finetune-qlora" and str(case.get(
                "precision", "")).lower() in ("int4", "nf4", "4bit", "4-bit"):  # fmt: skip
            return True, f"{got.workload} for {want}", []  # LoRA on a 4-bit base is QLoRA
        if want in WORKLOAD_ANY:
            return said in WORKLOAD_ANY[want], f"{got.workload} for {want}", []
        return said == WORKLOAD_SAME.get(want, want), f"{got.workload} for {want}", []
    if key == "target" and want not in TARGETS:
        return None, "", []
    if key == "precision":
        a = PRECISION_SAME.get(str(want).lower(), str(want).lower())
        b = PRECISION_SAME.get(str(got.precision).lower(), str(got.precision).lower())
        if str(want).lower() in ANY_FOUR_BIT and got.precision:  # "4 bits", "Q4" in general
            return _four_bit(str(got.precision)), f"{got.precision} for {want}", []
        if str(want).lower() in ANY_EIGHT_BIT and got.precision:  # "8 bit": int8 or GGUF Q8_0
            return str(got.precision) in ("int8", "q8_0"), f"{got.precision} for {want}", []
        return a == b or _same_format(a, b), f"{got.precision} for {want}", []
    if key == "engine":
        engine = ENGINE_SAME.get(str(want).lower(), str(want).lower())
        if engine is None:
            return None, "", []
        return got.engine == engine, f"{got.engine} for {want}", []
    if key == "budget":
        budget = got.budget
        if budget is None:
            return False, f"none for {want}", []
        if "usd_per_month" in want:  # a writer's spelling of {usd, per: month}
            want = {"usd": want["usd_per_month"], "per": "month", **want}
        # the amount in the currency the writer keyed it by ({usd: ...}, {eur: ...}, {sgd: ...}):
        # the same amount, and that currency read (Budget.usd holds the user's own amount)
        if "usd_per_hour" in want:  # and of {usd, per: hour}
            want = {"usd": want["usd_per_hour"], "per": "hour", **want}
        money = [k for k in want if k not in ("kind", "per", "usd_per_month", "usd_per_hour")]
        code = "usd" if "usd" in want else money[0] if money else "usd"
        ok = _close(budget.usd, want.get(code))
        ok = (
            ok
            and _currency_read(code, got.currency)
            and want.get("kind") in (None, budget.kind)
            and want.get("per", "total") == budget.per
        )
        return ok, f"{budget} in {got.currency.strip()} for {want}", []
    if key == "dataset":
        return _dataset(want, got)
    if key == "fields":  # the catalog's link fields are one askable field, the GPU-to-GPU link
        asked = {_FIELD_SYNONYMS.get(f, f) for f in want}
        return asked <= set(got.fields), f"{got.fields} for {want}", []
    if key == "resolution":  # "1280x720": either side is the one a parser keeps
        sides = {int(x) for x in re.findall(r"\d+", str(want))}
        return got.resolution in sides, f"{got.resolution} for {want}", []
    if key == "batch" and want == 1 and got.batch is None and not (got.concurrency or got.rps):
        return True, "", []  # one stream at a time is what the calculator assumes when none is said
    if key == "rps":
        return _close(got.rps, want), f"{got.rps} for {want}", []
    if key == "user_price_usd_per_hour" and isinstance(want, list):  # one price per GPU named
        prices = sorted(v for _gpu, v in got.gpu_prices or got.price_options)
        ok = len(prices) == len(want) and all(map(_close, prices, sorted(want)))
        return ok, f"{got.gpu_prices} for {want}", []
    value = getattr(got, key, None)
    if isinstance(want, int | float) and not isinstance(want, bool):
        return _close(value, want), f"{value} for {want}", []
    return value == want, f"{value} for {want}", []


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(float(a), float(b), rel_tol=0.03)


def _gpu_ids(spec: dict[str, Any], catalog: Catalog) -> set[str] | None:
    """The catalog ids a case's GPU means; None when no GPU is named (only memory or count)."""
    name = spec.get("name")
    if not name:
        return None
    found = catalog.find_gpus(name)
    if not found:
        try:
            found = [catalog.get_gpu(name)]
        except AdvisorError:
            found = []
    memory = spec.get("memory_gb")
    if memory and len(found) == 1:  # "A100 80GB" labelled with one SKU's name: the memory was
        # what the user stated, so every form of that GPU with that memory is what was meant
        bases = linker_for(catalog).bases
        base = bases.get(found[0].id)
        found = [g for g in catalog.gpus.values() if bases.get(g.id) == base] if base else found
    if memory and len(found) > 1:
        found = [g for g in found if abs(g.memory_gb - memory) <= 0.07 * g.memory_gb]
    return {g.id for g in found if not g.generic}


def _gpus(want: list[dict[str, Any]], got: Query,
          catalog: Catalog) -> tuple[bool, str, list[str]]:  # fmt: skip
    problems: list[str] = []
    refs = list(got.gpus)
    missing: list[tuple[str, set[str]]] = []
    for spec in (w for w in want if w.get("name")):
        ids = _gpu_ids(spec, catalog) or set()
        match = next((r for r in refs if set(r.ids) & ids or (not ids and not r.ids)), None)
        if match is None:
            missing.append((spec["name"], ids))
            problems.append(f"{spec['name']} not found")
            continue
        refs.remove(match)
        if ids and set(match.ids) - ids and not spec.get("open_variant"):
            problems.append(f"{spec['name']}: {match.ids}")
        if spec.get("count") and spec["count"] != (match.count or 1) and spec["count"] != 1:
            problems.append(f"{spec['name']} count {match.count} for {spec['count']}")
    # a resolved GPU that matched nothing while a named one is missing: read as another entry
    leftover = [r for r in refs if r.ids]
    wrong = [f"{name} -> {leftover[0].ids}" for name, ids in missing if ids and leftover]
    for spec in want:
        memory = spec.get("memory_gb")
        gib = memory / 1.073741824 if memory else None  # "24 GiB" written as 25.8 GB
        if (
            not spec.get("name")
            and memory
            and not (_close(got.memory_gb, memory) or _close(got.memory_gb, gib))
        ):
            problems.append(f"memory {got.memory_gb} for {spec['memory_gb']}")
    return not problems, "; ".join(problems), wrong


def _models(
    want: list[dict[str, Any]], got: Query, catalog: Catalog
) -> tuple[bool, str, list[str]]:
    wrong: list[str] = []
    problems = []
    refs = list(got.models)
    # a model read that the case names elsewhere in its list is missing one, not a wrong one
    named = set().union(*(_model_ids(s["name"], catalog) for s in want if s.get("name")))
    for spec in want:
        name = spec.get("name")
        ids = _model_ids(name, catalog) if name else set()
        match = next((r for r in refs if set(r.ids) & ids), None)
        if match is None and ids and name:
            # "YOLOv8" with no size, the case naming one of the series: the size the reading
            # assumed (said in its note) is no other model
            match = next((r for r in refs if r.assumed and r.ids
                          and str(name).lower().startswith(r.text.lower())), None)  # fmt: skip
        kind = spec.get("family")
        if match is None and not ids and kind and "size_b" not in spec:
            # {family: Whisper}, the size left open: an unsized reading or one of the family
            match = next((r for r in refs if not r.ids or _of_family(r, str(kind), catalog)), None)
        if match is None and not ids and name and "size_b" not in spec:
            # "YOLOv8", a series the catalog has only by size: its member the reading assumed
            match = next((r for r in refs if r.assumed and _of_family(r, str(name), catalog)),
                         None)  # fmt: skip
        if match is None and not ids:
            size = spec.get("size_b")
            match = next(
                (
                    r
                    for r in refs
                    if (not r.ids and (size is None or _close(r.size_b, size)))
                    or (size and r.size_b and _close(r.size_b, size))
                ),
                None,
            )
        if match is None:
            resolved = [r for r in refs if r.ids and not set(r.ids) & named]
            if ids and resolved:
                wrong.append(f"{name} -> {resolved[0].ids}")
            problems.append(f"{name or spec} not found ({[r.text for r in got.models]})")
            continue
        refs.remove(match)
    return not problems, "; ".join(problems), wrong


def _of_family(ref: Any, kind: str, catalog: Catalog) -> bool:
    """A resolved model whose catalog name starts with the family's name ("Whisper ...")."""
    try:
        _fam, model = find_model(ref.ids[0], catalog)
    except AdvisorError:
        return False
    return str(getattr(model, "name", "")).lower().startswith(kind.lower())


def _model_ids(name: str, catalog: Catalog) -> set[str]:
    """The catalog entries a case's model name means: one, or the releases a shared name covers
    (any of them is right). A full name the aliases lack is read as the linker reads a clean
    full name (never a misspelling)."""
    try:
        _fam, model = find_model(name, catalog)
        return set() if getattr(model, "generic", False) else {model.id}
    except AmbiguousModel as exc:
        return {cid for cid, _name in exc.candidates}
    except AdvisorError:
        from advisor.agent.linker import linker_for

        found = [r for r in linker_for(catalog).find_models(name) if r.resolved and not r.note]
        return set(found[0].ids) if len(found) == 1 else set()


def _dataset(want: dict[str, Any], got: Query) -> tuple[bool | None, str, list[str]]:
    checks = []
    if "tokens" in want:
        tokens = float(want["tokens"])
        mine = (got.train_tokens or 0) * (got.epochs or 1) if got.train_tokens else None
        # "3.2M sentences padded to 128 tokens": the samples and their length are the tokens
        sized = got.dataset_samples * got.context if got.dataset_samples and got.context else None
        checks.append(any(_close(n, tokens) for n in (got.train_tokens, mine, sized)))
    if "epochs" in want:
        checks.append(_close(got.epochs, want["epochs"]))
    for key in ("images", "examples"):
        if key in want:
            checks.append(_close(got.dataset_samples, want[key]) or _close(got.images, want[key]))
    if "audio_hours" in want:
        checks.append(_close(got.audio_hours, want["audio_hours"]))
    if not checks:
        return None, "", []
    return (
        all(checks),
        f"tokens {got.train_tokens} epochs {got.epochs} samples "
        f"{got.dataset_samples} images {got.images} for {want}",
        [],
    )


# ---------------------------------------------------------------- a whole set


def run(cases: list[dict[str, Any]], catalog: Catalog, ask: Any) -> list[CaseScore]:
    """Understand every case's turns in order (follow-ups see the turns before) and score the
    last. `ask(turns) -> Query`."""
    return [score_case(case, ask(case["turns"]), catalog) for case in cases]


def summary(scores: list[CaseScore]) -> dict[str, Any]:
    fields = [ok for s in scores for ok in s.fields.values()]
    per_field: dict[str, list[bool]] = {}
    for s in scores:
        for name, ok in s.fields.items():
            per_field.setdefault(name, []).append(ok)
    return {
        "cases": len(scores),
        "cases_all_right": sum(all(s.fields.values()) for s in scores),
        "fields": len(fields),
        "field_accuracy": sum(fields) / len(fields) if fields else 1.0,
        "wrong_entities": [w for s in scores for w in s.wrong_entities],
        "per_field": {k: round(sum(v) / len(v), 4) for k, v in sorted(per_field.items())},
    }


def normalise_space(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
