"""The registry of workload families: every family the calculator estimates, declared once.

Each family (llm.py, vision.py, ...) declares its models' catalog table, its workloads and how it
says them, the metrics its estimates report with their units, its engines and precisions, and its
estimate function. Everything else lists or looks them up here: the CLI's choices, the REST and
MCP schemas, the question parser's words, the answer writer's labels, the number guard's units.
"""

from __future__ import annotations

from typing import Any

from advisor.calculator import diffusion, llm, nets, speech
from advisor.calculator.base import Family, Metric, WorkloadKind
from advisor.calculator.precision import PRECISIONS
from advisor.catalog import Catalog
from advisor.errors import AmbiguousModel, InvalidInput, UnknownModel
from advisor.names import model_key, parse_size_b, suggest

FAMILIES: dict[str, Family] = {
    f.name: f for f in (llm.FAMILY, nets.VISION, nets.TRANSFORMER, diffusion.FAMILY, speech.FAMILY)
}

# The kinds of job a question can ask for. "finetune" is a fine-tune whose method is not said
# (the answer states the one it assumes); a family maps a kind onto its own workloads.
WORKLOAD_KINDS: dict[str, WorkloadKind] = {
    k.name: k
    for k in (
        WorkloadKind("finetune-qlora", "QLoRA fine-tuning", True, (r"\bq-?loras?\b",)),
        WorkloadKind("finetune-lora", "LoRA fine-tuning", True,
                     (r"\bloras?\b", r"\bpeft\b", r"\badapters?\b", r"\bloraconfig\b")),
        WorkloadKind("finetune-full", "full fine-tuning", True, (
            r"\bfull[-\s]?(?:param(?:eter)?s?[-\s]?)?(?:fine[-\s]?tun\w*|finetun\w*|ft|sft)\b",
            r"\bdreambooth\b", r"\ball (?:the )?(?:weights|parameters)\b",
            r"\b(?:fine[-\s]?tun\w*|finetun\w*|ft|sft)\b.{0,30}\bfull[-\s]?param(?:eter)?s?\b",
            r"\bfull\W{1,3}not (?:q?lora|peft|adapters?)\b",
            # "fully fine-tune Llama-3.1-8B", "fine-tune bert-large fully"
            r"\bfully (?:fine[-\s]?tun\w*|finetun\w*|train\w*)\b",
            r"\b(?:fine[-\s]?tun\w*|finetun\w*)\s(?:[\w.-]+\s){0,3}?fully\b",  # "(full, not lora)"
            # "fine tune llama 3.2 1b full on a macbook": the method said after the model
            r"\b(?:fine[-\s]?tun\w*|finetun\w*)\s(?:[\w.-]+\s){0,4}?full\b(?![-\s]?(?:precision"
            r"|context|length|size|speed|load|node|rack|card|gpu|hd|bf16|fp16|16|32|set|data\w*"
            r"|batch|sequence|resolution|time|day|week|month|price|cost)\b)",
            r"\bfull[-\s]param(?:eter)?s?\b(?! count)",  # "full parameter, no adapters"
            # "fine-tune llama 3.1 70b (full) on 5B tokens": the method in brackets
            r"\(full(?:[-\s](?:ft|sft|fine[-\s]?tun\w*|finetun\w*|param(?:eter)?s?))?\)",
        )),
        WorkloadKind("train", "training", True, (
            r"\bpre-?train\w*", r"\bfrom scratch\b", r"\bcontinued? pre-?train\w*",
            r"\btrain(?:ing|ed|s)?\b", r"\bepochs?\b",
            # launchers and switches of a training run: "torchrun ... train_gpt2.py", "--do_train"
            r"\btorchrun\b", r"\btrain_\w+\.py\b", r"--do_train\b",
            # "global batch 256 ... or do I need gradient accumulation": a training run
            r"\bgrad(?:ient)?[ _-]?accum\w*", r"\bglobal batch\b",
        )),
        # "fine-tuned" names a model already made ("our fine-tuned BERT", "a model we
        # fine-tuned last quarter"), not the job asked
        WorkloadKind("finetune", "fine-tuning", True, (
            r"\bfine[-\s]?tun(?!ed\b)\w*", r"\bfinetun(?!ed\b)\w*", r"\bsft\b", r"\bft\b",
            r"(?<!\ba )(?<!\ban )(?<!\bour )(?<!\bmy )(?<!\bthe )(?<!\bwe )(?<!\bi )(?<!\bhave )"
            r"\bfine-?tuned\b(?! (?:model|version|checkpoint|weights|bert|llama))",
        )),
        WorkloadKind("inference", "inference", False, (
            # "a server with two K80 boards" is the hardware, not a serving job
            r"\bserv(?:e|es|ing)\b", r"\bserver\b(?! (?:with|has|that has)\b)",
            r"\binference\b", r"\binfer\b",
            # ("cheaper per run", "a training run": a job's run, the noun)
            r"(?<!per )(?<!each )(?<!every )(?<!a )(?<!the )(?<!training )(?<!whole )(?<!full )"
            r"\brun(?:s|ning)?\b",
            r"\bdeploy\w*", r"\bhost\w*", r"\bchat\w*", r"\bload\b", r"\bgenerat\w*",
            r"\btranscri\w*", r"\bpredict\w*", r"\bfit\b", r"\bembedding", r"\bembed(?:s|ding)?\b",
            r"\bclassify\w*", r"\bcaption\w*", r"\bextract\w* (?:features|embeddings)\b",
            # "label 2 million images with a ViT-B/16 classifier", "images through a detector":
            # a trained model run over data, not trained on it
            r"\b(?:label|tag|annotat|scor|detect|segment)\w* [^.?!]{0,40}\bwith (?:a |an |the |our "
            r"|my |this |that )?[^.?!]{0,25}\b(?:classifier|detector|segmenter|model)\b",
            r"\bthrough (?:a |an |the |our |my )?[^.?!]{0,25}\b(?:classifier|detector|segmenter)\b",
        )),
    )
}  # fmt: skip


def _union(groups: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for group in groups for item in group))


# every workload, engine and precision some family takes, in declaration order
WORKLOADS: tuple[str, ...] = _union(f.workloads for f in FAMILIES.values())
ENGINES: tuple[str, ...] = _union(f.engines for f in FAMILIES.values())
ALL_PRECISIONS: tuple[str, ...] = _union(
    [PRECISIONS, *(p for f in FAMILIES.values() for p in f.precisions.values())]
)
FRAMEWORKS: tuple[str, ...] = _union(f.frameworks for f in FAMILIES.values())
OFFLOADS: tuple[str, ...] = _union(f.offloads for f in FAMILIES.values())
METRICS: dict[str, Metric] = {
    m.key: m for f in FAMILIES.values() for group in f.metrics.values() for m in group
}


def family(name: str) -> Family:
    if name not in FAMILIES:
        raise InvalidInput(f"Unknown workload family {name!r}; use one of {', '.join(FAMILIES)}.")
    return FAMILIES[name]


def models_of(catalog: Catalog, fam: Family) -> dict[str, Any]:
    """A family's models by id."""
    return catalog.table(fam.table, fam.model_cls)


def find_model(name: str, catalog: Catalog) -> tuple[Family, Any]:
    """The family and model `name` denotes, in any family's table; a size such as '13b' is a
    generic LLM. Raises UnknownModel (with suggestions from every table) or AmbiguousModel."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(f"Give a model name (got {name!r}).")
    key = model_key(name)
    for fam in FAMILIES.values():
        table = models_of(catalog, fam)
        if fam.name == "llm" and catalog.find_models(name):
            return fam, catalog.get_model(name)  # aliases, releases of one architecture
        ids = [name] if name in table else catalog.name_index(fam.table, fam.model_cls).get(key, [])
        if len(ids) == 1:
            return fam, table[ids[0]]
        if ids:
            raise AmbiguousModel(name, [(i, table[i].name) for i in ids])
    if parse_size_b(name) is not None:
        return FAMILIES["llm"], catalog.get_model(name)
    found: list[str] = []
    for fam in FAMILIES.values():
        index = catalog.name_index(fam.table, fam.model_cls)
        found += [models_of(catalog, fam)[i].name for i in suggest(key, index, limit=3)]
    raise UnknownModel(name, found[:5])
