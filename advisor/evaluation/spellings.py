"""How people spell catalog entries: variants of every GPU and model name, for the catalog walk and
the generated paraphrase suite. The variants come from the data (names, aliases, repo ids) by
the edits people make when they type: case, spaces, hyphens, vendor words dropped, an
organisation prefix, an instruct or quantised repo suffix, a plural, a slip of one letter.
"""

from __future__ import annotations

import random
import re
from typing import Any

from advisor.names import model_key
from advisor.specs import GPU

_VENDOR = re.compile(r"^(?:nvidia|amd|intel|apple)\s+", re.IGNORECASE)


def gpu_spellings(gpu: GPU, rng: random.Random, count: int = 6) -> list[str]:
    """At least `count` ways to write this GPU that name it and nothing narrower."""
    names = [gpu.name, *gpu.aliases]
    out: list[str] = []
    for name in names:
        bare = _VENDOR.sub("", name)
        out += [name, name.lower(), bare, bare.lower().replace(" ", "-")]
        if len(bare.split()) <= 2 and not re.search(r"\d+\s?g", bare, re.I):
            out.append(bare.lower().replace(" ", ""))  # "rtx4090", never "geforcertx4060laptopgpu"
        out.append(re.sub(r"(?i)\bgeforce\s+", "", bare))
    return _pick(out, rng, count)


def _pick(out: list[str], rng: random.Random, count: int) -> list[str]:
    unique = list(dict.fromkeys(o.strip() for o in out if o.strip()))
    rng.shuffle(unique)
    return unique[: max(count, 5)]


def model_spellings(model: Any, rng: random.Random, count: int = 6) -> list[str]:
    """Ways to write this model: its name, repo id, aliases, and the forms people paste."""
    names = [model.name, *model.aliases]
    repo = getattr(model, "hf_repo", None)
    out: list[str] = list(names)
    for name in names[:3]:
        out.append(name.lower())
        out.append(name.replace("-", " "))
        out.append(name.lower().replace("-", " ").replace(".", "."))
    if repo:
        out += [
            repo,
            f"{repo}-Instruct" if "instruct" not in repo.lower() else repo,
            f"{repo.split('/')[-1]}-GGUF",
            f"{repo.split('/')[-1]} Q4_K_M",
        ]
    unique = list(dict.fromkeys(o.strip() for o in out if o.strip()))
    rng.shuffle(unique)
    return unique[: max(count, 5)]


def typo(word: str, rng: random.Random) -> str:
    """One slip in an alphabetic run of at least five letters (doubling or dropping a letter)."""
    runs = [m for m in re.finditer(r"[A-Za-z]{5,}", word)]
    if not runs:
        return word
    run = rng.choice(runs)
    i = rng.randrange(run.start() + 1, run.end() - 1)
    return (
        word[:i] + word[i] * 2 + word[i + 1 :] if rng.random() < 0.5 else word[:i] + word[i + 1 :]
    )


def catalog_walk(catalog: Any, seed: int = 7) -> dict[str, Any]:
    """Ask about every catalog GPU and model under at least five spellings each: each must be
    read as itself or not at all (an unknown-name reply), never as another entry."""
    from advisor.agent.understand import understand
    from advisor.calculator import FAMILIES
    from advisor.calculator.families import models_of

    rng = random.Random(seed)  # noqa: S311 - reproducible spellings, not secrets
    asked = 0
    wrong: list[str] = []
    unread: list[str] = []
    for gpu in catalog.gpus.values():
        for written in gpu_spellings(gpu, rng):
            asked += 1
            gpu_refs = understand(f"what are the specs of {written}?", catalog).gpus
            if not any(gpu.id in r.ids for r in gpu_refs):
                bucket = wrong if any(r.ids for r in gpu_refs) else unread
                bucket.append(f"{written} ({gpu.id})")
    for fam in FAMILIES.values():
        entries = models_of(catalog, fam)
        for model in entries.values():
            for written in model_spellings(model, rng):
                asked += 1
                refs = understand(f"can I run {written} on an H100 SXM?", catalog).models
                read = [i for r in refs for i in r.ids]
                if model.id in read or _shared_name(written, read, entries):
                    continue
                bucket = wrong if read else unread
                bucket.append(f"{written} ({model.id})")
    return {"asked": asked, "wrong": wrong, "unread": unread}


def _shared_name(written: str, read: list[str], entries: dict[str, Any]) -> bool:
    """The entry read is also called this ("Mistral 7B", a name two releases share, means the
    newest): reading it is right."""
    key = model_key(written)
    return any(
        key in {model_key(n) for n in (entries[i].name, *entries[i].aliases)}
        for i in read
        if i in entries
    )
