"""Entity linking: GPU and model names in a question, resolved against the catalog.

Names are matched as normalised keys over spans of words, longest first, with keys generated from
the data (every id, name and alias; "4090" for "RTX 4090"; "4070s" for "4070 Super"; plurals;
Hugging Face repo ids and quantised repo names reduced to the model they hold). Words beside a GPU
name are its constraints ("A100 40 gigs", "(40G)", "the 16GB 4060 Ti", "H100 PCIe", "4090
laptop") and its count ("4xA100", "two A5000s", "a pair of 3090s", "A100 x4"); they choose among
the variants instead of asking. A size written beside a model name must agree with the entry
chosen ("deepseek r1 14b" is the 14B distill, never the 671B parent); when no entry has that size
the mention becomes a generic model of the stated size. Nothing is guessed silently: an unknown
name comes back with suggestions, a near miss with a note.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from advisor import rx
from advisor.agent.query import GpuRef, ModelRef
from advisor.calculator import FAMILIES
from advisor.calculator.families import models_of
from advisor.catalog import Catalog
from advisor.names import gpu_key, model_key, suggest

__all__ = ["Linker", "linker_for", "model_key", "model_name_of", "tokens"]

# a word between a model's name and the size of one of its derived models ("deepseek r1 distill
# 32b", "r1 distilled 14b")
_DISTILL_WORDS = frozenset({"distill", "distilled", "distil", "distills"})
NUMBER_WORDS = {
    "one": 1,
    "single": 1,
    "a": 1,
    "an": 1,
    "two": 2,
    "pair": 2,
    "dual": 2,
    "both": 2,
    "twin": 2,
    "three": 3,
    "four": 4,
    "quad": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "dozen": 12,  # "a dozen H100s" ("half a dozen": _count_before)
    "couple": 2,  # "a couple of 3090s"
    "sixteen": 16,
    "thirty-two": 32,
    "sixty-four": 64,
}
MAX_GPU_COUNT = 100_000
BOARD_GPUS = 8  # GPUs on a DGX/HGX A100, H100, H200 or B200 board (NVIDIA DGX datasheets)
STATION_GPUS = 4  # GPUs in a DGX Station A100 (NVIDIA DGX Station A100 datasheet: 4x A100)
# a count of cloud instances just before an instance name: "2 g5.2xlarges", "two p4d", "3x p5"
_INSTANCES_BEFORE = re.compile(
    r"(?<![\w.$])(\d{1,3}|"
    + "|".join(w for w in NUMBER_WORDS if len(w) > 2 and w != "single")
    + r")\s*(?:x\s*|of (?:the|those|these|them:?)\s+)?$",
    re.IGNORECASE,
)
# prefixes people drop: "A6000" for "RTX A6000", "4090" for "RTX 4090"
# units after a bare number: the number is a figure ("2070 TFLOPS", "3090 W"), not a card
_UNIT_AFTER = re.compile(r"^(?:t?flops|tops|teraflops|tb/s|gb/s|mhz|ghz|watts?|tokens?|tok/s|mb)$")
_DROPPABLE = ("geforce", "rtx", "gtx", "quadro", "radeon", "rx", "arc", "tesla", "instinct", "cmp")
# the product lines whose name before a model number makes it a card's ("Tesla K80", "Radeon VII")
_LINES = ("tesla", "quadro", "cmp", "geforce", "radeon")
# model-name words that never change the architecture, and formats written into repo names
_FORMAT_WORDS = re.compile(
    r"^(?:gguf|ggml|awq|gptq|exl2|hqq|mlx|bnb|nf4|fp8|fp16|bf16|int4|int8|4bit|8bit|4-bit|8-bit"
    r"|q\d(?:_k)?(?:_[msl0-9])?|iq\d\w*|f16|f32|w4a16|w8a8|unsloth|thebloke|bartowski"
    r"|lmstudio-community|mlx-community|turboderp|casperhansen|neuralmagic|redhatai)$",
    re.IGNORECASE,
)
_FORMAT_PRECISION = {
    "awq": "awq",
    "gptq": "gptq",
    "fp8": "fp8",
    "int4": "awq",
    "w4a16": "awq",
    "int8": "int8",
    "w8a8": "int8",
    "nf4": "nf4",
    "bnb": "nf4",
    "4bit": "nf4",
    "4-bit": "nf4",
    "8bit": "int8",
    "8-bit": "int8",
    "gguf": "q4_k_m",
    "ggml": "q4_k_m",
    "f16": "fp16",
    "fp16": "fp16",
    "bf16": "bf16",
}
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)([bm])$", re.IGNORECASE)
# "7b/8b", "7-8b", "13b/14b": a pair of sizes; the larger one sizes the job (the safe side)
_SIZE_PAIR = re.compile(r"^(\d+(?:\.\d+)?)[bm]?[/-](\d+(?:\.\d+)?)([bm])$", re.IGNORECASE)


def _size_word(low: str) -> str:
    low = rx.sub(
        r"(?<=\d[bm])-?(?:ish|class|sized?|range|level|scale)$", "", low
    )  # "7B-ish", "13B-class"
    pair = _SIZE_PAIR.match(low)
    if pair is None:
        return low
    return f"{max(float(pair.group(1)), float(pair.group(2))):g}{pair.group(3)}"


_MEMORY = re.compile(r"^(\d+(?:\.\d+)?)(?:gb|g|gib|gigs?)$", re.IGNORECASE)
_FORMS = {
    "pcie": "pcie",
    "sxm": "sxm",
    "sxm2": "sxm",
    "sxm4": "sxm",
    "sxm5": "sxm",
    "nvl": "nvl",
    "laptop": "laptop",
    "mobile": "laptop",
    "notebook": "laptop",
    "desktop": "desktop",
}


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str  # as written
    low: str  # lower case, trailing punctuation stripped
    broken: bool = False  # a line break or a mark (".", ",", ":") between it and the word before


# (not the tail of a word in another alphabet: "À1G" or "À01G" is no "1G", nor "é4090" a 4090)
_TOKEN = re.compile(r"(?<![^\W_])(?:[A-Za-z0-9$][\w.+:/\-'\u2019]*[\w+]|[A-Za-z0-9$])")


def tokens(text: str) -> list[Token]:
    """Words with their offsets: "meta-llama/Llama-3.1-8B", "q4_k_m", "4xA100" stay whole."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        word = rx.sub(r"['\u2019](?:s|ll|d|re|ve|m)?$", "", m.group(0))  # "L40's", "it'll"
        if not word:
            continue
        low = word.lower()
        if m.start() and text[m.start() - 1] == "#" and word.isdigit():
            low = "#" + low  # "Ticket #4519", "issue #812": a number that names, not a count
        gap = text[out[-1].end : m.start()] if out else ""
        out.append(Token(m.start(), m.start() + len(word), word, low, bool(_BREAK.search(gap))))
    return out


_BREAK = re.compile(r"[\n.,:;!?]")


# ---------------------------------------------------------------- the index


# the words that join a machine to the chip in it: "a Mac Studio with the M3 Ultra"
_JOINING = frozenset({"with", "w", "w/", "featuring", "running"})
# the CPU lines whose model numbers look like a GPU's ("Ryzen 5 7600", "Ryzen 9 7900X")
_CPU_LINES = frozenset({"ryzen", "threadripper", "epyc", "xeon", "athlon", "core"})


@dataclass
class Linker:
    """Name indexes of one catalog, built once (see linker_for)."""

    catalog: Catalog
    gpu_keys: dict[str, tuple[str, ...]]
    model_keys: dict[str, tuple[tuple[str, str], ...]]  # key -> ((family, id), ...)
    bases: dict[str, str]  # gpu id -> the shortest name its variants share ("A100")
    named: frozenset[str]  # keys of names written in the data (not generated variants)
    gpu_words: frozenset[str]  # alphabetic words of GPU names, for slips ("Titn", "Lapop")
    vocabulary: frozenset[str]  # alphabetic words of model names, for typo correction
    model_order: tuple[tuple[str, str], ...]  # (family, id) in catalog order: later is newer
    first_words: frozenset[str]  # the first word of every model name ("llama", "gpt", "sdxl")
    # cloud instance names and the pattern that finds them (see _instance_table), built once
    instance_pattern: re.Pattern[str] | None = None
    instances: dict[str, tuple[str, int | None, str, str]] = field(default_factory=dict)
    # the clouds of the catalog's price rows, each by its one name (asked of every question)
    providers: frozenset[str] = frozenset()

    # -- GPUs

    @staticmethod
    def split_counts(text: str) -> str:
        """'4xA100' -> '4 x A100' (a count and a name), never '8x7B'."""
        return _split_counts(text)

    def instance_providers(self, text: str) -> tuple[str, ...]:
        """The clouds of the instances `text` names ("p4d.24xlarge": AWS), in order."""
        if self.instance_pattern is None:
            return ()
        found = (
            self.instances[m.group(0).lower()][2] for m in self.instance_pattern.finditer(text)
        )
        return tuple(dict.fromkeys(found))

    def expand_instances(self, text: str) -> tuple[str, tuple[str, ...], int | None]:
        """Cloud instance names written as the GPUs in them ("p4d.24xlarge" -> "8 x NVIDIA
        A100 SXM4 40GB"; an AWS family alone, "a g5", is its GPU), with a note for each, and
        the GPUs one instance holds (of the last one named with a known count)."""
        pattern, table = self.instance_pattern, self.instances
        if pattern is None:
            return text, (), None
        notes: list[str] = []
        size = None
        out: list[str] = []
        done = 0
        for m in pattern.finditer(text):
            gpu_id, count, provider, name = table[m.group(0).lower()]
            gpu = self.catalog.gpus[gpu_id].name
            before = text[done : m.start()]
            if count is None:
                notes.append(f"{m.group(0)}: {provider} instances with the {gpu}.")
                out += [before, gpu]
            else:
                notes.append(f"{m.group(0)}: the {provider} {name} instance, {count} x {gpu}.")
                size = count
                # "2 g5.2xlarges", "two p4d's": so many instances, each with `count` GPUs
                many = _INSTANCES_BEFORE.search(before)
                if many:
                    word = many.group(1).lower()
                    nodes = int(word) if word.isdigit() else NUMBER_WORDS[word]
                    before, count = before[: many.start()] + " ", count * nodes
                out += [before, f"{count} x {gpu}"]
            done = m.end()
        return "".join(out) + text[done:], tuple(dict.fromkeys(notes)), size

    def find_gpus(self, text: str, skip: Iterable[tuple[int, int]] = ()) -> list[GpuRef]:
        """GPUs named in `text`, leaving out the character spans `skip` (model names)."""
        spans = list(skip)
        text = _split_counts(text)  # idempotent: offsets of a text already split stay
        words = [w for w in tokens(text) if not _inside(w, spans)]
        refs: list[GpuRef] = []
        taken: set[int] = set()
        i = last_end = 0
        while i < len(words):
            hit = self._gpu_at(words, i)
            if hit is None:
                i += 1
                continue
            end, ids, written = hit
            before = [w.low for w in words[max(0, i - 2) : i]]
            cpu = before and (
                before[-1] in _CPU_LINES
                or (len(before) == 2 and before[0] in _CPU_LINES and before[1].isdigit())
            )
            if cpu:
                i = end  # "a Ryzen 5 7600", "ryzen 7600": a CPU, no five RX 7600s
                continue
            if (written.isdigit() and end < len(words) and _UNIT_AFTER.match(words[end].low)
                    and not text[words[end - 1].end : words[end].start].strip()
                    and not text[: words[i].start].rstrip().endswith(("+", "&"))):  # fmt: skip
                i += 1  # "Thor does 2070 TFLOPS": a figure, not the RTX 2070 ("on the 3060?
                continue  # tokens a sec?" and "a 4090 + 3090 tok/s?" are cards)
            ref = self._constrain(words, i, end, ids, written, last_end if refs else None)
            taken.update(range(i, end))
            same = next((n for n, r in enumerate(refs) if r.ids and r.ids == ref.ids), None)
            against = {w.low for w in words[max(0, i - 6) : i]} & _AGAINST
            if same is None and not (ref.memory_gb or ref.form_factor or against):
                # "the A100 40GB ... the A100's FP64 tensor figure": the card named before
                # ("4x H100 SXM ... on the four H100s": the same four)
                wide = set(ref.ids)
                narrower = (n for n, r in enumerate(refs) if r.base == ref.base and r.ids
                            and ref.count in (None, r.count))  # fmt: skip
                same = next((n for n in narrower if set(refs[n].ids) < wide), None)
            between = {w.low for w in words[last_end:i]}
            # a Mac said by its product, then its chip ("a Mac Studio with an M2 Ultra", "Mac mini,
            # M4 Pro"): one machine, the chip's, whether or not the product sells that chip now
            mac = bool(refs) and _apple_chip(ref) and _apple_chip(refs[-1]) and bool(
                re.match(r"mac(?:book)?\b", refs[-1].text.lower()))  # fmt: skip
            joined = (refs and i - last_end <= 2
                      and (between & _JOINING or (mac and not between)))  # fmt: skip
            wider = refs[-1] if joined and between <= _JOINING | {"the", "a", "an", "its"} else None
            device = set(written.lower().split()) <= _APPLE_DEVICE
            if refs and i - last_end <= 1 and device and _apple_chip(refs[-1]):
                pass  # "M2 Ultra 192gb mac studio": the chip's own machine, no second one
            elif wider and ref.ids and (set(ref.ids) < set(wider.ids) or mac) and not wider.count:
                refs[-1] = ref  # "a Mac Studio with the M3 Ultra": the chip says which one
            elif same is None:
                refs.append(ref)
            elif ref.count and not refs[same].count:  # "cloud a100s ... an 8x a100 server"
                refs[same] = ref
            i = last_end = end
        # "'H100s' in the budget ... the quote lists 'H100 SXM' and 'H100 PCIe'": the family
        # said first stands for the variants named after it
        refs = [r for r in refs if not _covered_by_variants(r, refs)]
        if not refs and (dgx := _BARE_DGX.search(text)):
            # "should we buy a DGX or rent?": a server of eight, of a generation unsaid
            ids = tuple(g for g in DGX_GENERATIONS if g in self.catalog.gpus)
            names = ", ".join(self.catalog.gpus[g].name for g in ids)
            note = (f"'{dgx.group(0)}' names no generation: a DGX holds eight GPUs ({names}); "
                    "where one is costed it is the first; say which DGX for the rest.")  # fmt: skip
            refs.append(GpuRef(dgx.group(0), ids, BOARD_GPUS, None, "sxm", "DGX", note=note))
        refs += self._unknown_gpus(words, taken)
        for said in _OTHER_DEVICES.finditer(text):  # "on an iphone 15 pro": no card at all
            if not any(said.start() <= w.start < said.end() for n, w in enumerate(words)
                       if n in taken):  # fmt: skip
                refs.append(GpuRef(said.group(0), (), note=_device_note(said)))
        return refs

    def _gpu_at(self, words: list[Token], i: int) -> tuple[int, tuple[str, ...], str] | None:
        if words[i].low in _ARTICLES:
            return None  # "an H100": the name starts at the next word
        # "two 4070s", "the artists have 4080s (16GB)": plurals, not Supers
        plural = _count_before(words, i) is not None or (i > 0 and words[i - 1].low in _OWNED_MANY)
        texts = [w.text for w in words[i : i + 6]]
        mended = [self._gpu_word(t) for t in texts]  # each word with its slips corrected
        for span in range(min(6, len(words) - i), 0, -1):  # the longest name first ("4080 suer"
            for fixed in (False, True):  # is a 4080 Super): as written, then slips corrected
                chunk = words[i : i + span]
                if span > 1 and chunk[-1].low in _TIME_UNITS:
                    continue  # "a 4090, ms per token": a unit, no part of the name
                if (
                    span > 1
                    and chunk[-1].low == "x"
                    and i + span < len(words)
                    and (words[i + span].low.isdigit())
                ):
                    continue  # "mi250 x 4": a count, not the MI250X
                written = " ".join(texts[:span])
                if fixed:
                    corrected = " ".join(mended[:span])
                    if corrected == written:
                        continue
                    written = corrected  # "Titn V", "RTX 409O": checked against the names
                ids = self._gpu_lookup(written, chunk, plural)
                if ids:
                    end = i + span
                    # "Mac mini M4 Pro": the device's name holds the chip's, which goes on
                    if end < len(words) and words[end].low in ("pro", "max", "ultra"):
                        chip = self._gpu_lookup(f"{chunk[-1].text} {words[end].text}", [])
                        if chip:
                            return end + 1, chip, " ".join(w.text for w in words[i : end + 1])
                    judged = end < len(words) and words[end].low in _JUDGED_AFTER
                    while judged and len(chunk) > 1 and chunk[-1].low in _ARTICLES[:3]:
                        chunk, end = chunk[:-1], end - 1  # "is the a100 the best": no "the"
                    return end, ids, " ".join(w.text for w in chunk)
        return None

    def _gpu_word(self, word: str) -> str:
        """A word of a GPU name with its slips fixed ("Titn" -> "titan", "Lapop" -> "laptop")."""
        return _slips_fixed(word, self.gpu_words)

    def _gpu_lookup(
        self, written: str, chunk: list[Token], plural: bool = False
    ) -> tuple[str, ...] | None:
        key = gpu_key(written)
        if not key:
            return None
        singular = key[:-1] if key.endswith("s") and len(key) > 1 else key
        if not _DIGIT.search(key) and not (
            (key in self.named or (plural and singular in self.named))
            and (len(chunk) > 1 or len(key) >= 5)
        ):
            return None  # "the", "rtx" alone: no GPU; "Titan V", "DGX Spark", "Rubin" are names
        if key.isdigit() and not _bare_number_ok(chunk):
            return None
        proper = any(  # "8 L40S": the S is the product's own letter, not a plural
            key in (gpu_key(g), gpu_key(self.catalog.gpus[g].name))
            for g in self.gpu_keys.get(key, ())
        )
        # "V100s", "V100s 32GB" written with a capital and a small s: a plural ("8 L40S" and
        # "l40s" keep the product's own letter)
        marked = [_CAPITAL_PLURAL.fullmatch(w.text) for w in chunk]
        if any(marked):
            words = zip(chunk, marked, strict=True)
            one = gpu_key(" ".join(w.text[:-1] if m else w.text for w, m in words))
            # not a name in the singular: a shorter span is tried, its size read as a constraint
            return self.gpu_keys.get(one)
        order = (singular, key) if plural and not proper else (key, singular)
        for candidate in (*order, key[:-2] if key.endswith("es") else key):
            if candidate in self.gpu_keys:
                return self.gpu_keys[candidate]
        return None

    def _constrain(
        self,
        words: list[Token],
        start: int,
        end: int,
        ids: tuple[str, ...],
        written: str,
        previous_end: int | None = None,
    ) -> GpuRef:
        """Apply the words around a GPU name: count, memory, form factor. `previous_end`: where
        the GPU named before this one ends."""
        memory, form = _qualifiers(words[end : end + 4])
        if rx.search(r"\d\s?(?:gb|gib|g)\b", written.lower()):
            memory = None  # "3060 12gb + 32gb ddr4": the name already holds its memory
        if memory is None or form is None:
            # not into the card named before ("M3 Ultra 512GB と RTX 5090"), nor a size read
            # after it ("A100 80GB, RTX 5090"): that card's
            # ("the 12gb version of the 3080": four words back)
            lo = max(0, start - 4, previous_end or 0)
            before_memory, before_form = _qualifiers(words[lo:start][::-1], before=True)
            if previous_end is not None and _qualifiers(words[lo:start])[0] == before_memory:
                before_memory = None
            memory = memory if memory is not None else before_memory
            form = form or before_form
        if form == "pcie" and "nvl" in written.lower():
            form = "nvl"  # "H200 NVL PCIe cards": an NVL card is a PCIe card
        named = _qualifiers(words[start:end])[1]
        if form and named and form != named and not (named == "nvl" and form == "pcie"):
            form = named  # "the H100 PCIe, SXM and NVL": the name says its own form
        if rx.search(r"\d(?:m|max-q)$", words[end - 1].low):  # "4090m", "3080 max-q"
            form = form or "laptop"
        gpus = [self.catalog.gpus[g] for g in ids]
        boxed = any(rx.fullmatch(r"[dh]gx(?:-\w+)?", w.low) for w in words)
        if form is None and boxed and any(_form_matches(g, "sxm") for g in gpus):
            form = "sxm"  # a DGX or HGX board holds SXM modules
        said = _FORM_OF_ALL.search(" ".join(w.low for w in words)) if form is None else None
        if said and any(_form_matches(g, said.group(1)) for g in gpus):
            form = said.group(1)  # "the memory and bandwidth of both (SXM)": every card's form
        bare = rx.fullmatch(r"(\d{2,3})s?", words[end].low) if end < len(words) else None
        if memory is None and bare and any(g.memory_gb == float(bare.group(1)) for g in gpus):
            memory = float(bare.group(1))  # "a100 80", "4 a100 80s": the 80 GB variants
        unified = all(g.vendor == "Apple" for g in gpus)  # one memory: no card beside system RAM
        if unified and form == "laptop":
            form = None  # "the M2 Max laptop", "MacBook Air M4": an Apple chip has no laptop part
        after = end
        while unified and after < len(words) and words[after].low in _APPLE_DEVICE:
            after += 1  # "my m4 macbook air has 16gb": the device's name, then its memory
        if (
            memory is None
            and unified
            and after + 1 < len(words)
            and words[after].low in ("and", "at", "+", "has", "have", "having", "with", "w/", "got")
        ):
            extra, _ = _qualifiers(words[after + 1 : after + 4], ram_is_card=True)
            sizes = {g.memory_gb for g in gpus}
            if extra is not None and len(sizes) > 1 and extra in sizes:
                memory = extra  # "the M4 Max and 128 GB", "M3 Ultra at 512GB": one variant's size
        if memory is None and unified and end < after < len(words):
            # "an M2 Pro mac mini 32GB": the memory after the device's name
            extra, _ = _qualifiers(words[after : after + 3], ram_is_card=True)
            if extra is not None and extra in {g.memory_gb for g in gpus}:
                memory = extra
        base = self.bases.get(ids[0], written)
        # (not from the card named just before: "rtx 5090, rtx 4090" is no 5090 cards)
        floor = previous_end if previous_end is not None else 0
        before = None if _hours_after(words, start, end) else _count_before(words, start, floor)
        count = before or _count_after(words, end)
        if memory is not None and count and count > 1:
            one = [g for g in gpus if abs(g.memory_gb - memory) <= 0.07 * g.memory_gb]
            total = [g for g in gpus if abs(g.memory_gb * count - memory) <= 0.07 * memory]
            if total and not one:
                memory = None  # "2x T4 = one 32gb gpu?": the cards' memory together, no variant
        chosen = gpus
        if memory is not None:
            chosen = [g for g in chosen if abs(g.memory_gb - memory) <= 0.07 * g.memory_gb]
        if form is not None:
            chosen = [g for g in chosen if _form_matches(g, form)]
        if start and rx.fullmatch(r"[dh]gx", words[start - 1].low) and not _count_after(words, end):
            count = (count or 1) * BOARD_GPUS  # "a DGX A100": eight; "2 DGX H100 nodes": 16
        elif (start > 1 and words[start - 1].low == "station" and words[start - 2].low == "dgx"
              and any(g.id.startswith("a100-sxm4") for g in gpus)):  # fmt: skip
            count = STATION_GPUS  # "a DGX Station A100": four A100 SXM4 (40 or 80 GB each)
        laptop = _laptop_before(words, start, previous_end) or _in_a_laptop(words)
        if form is None and laptop and all(g.segment != "laptop" for g in chosen):
            # "gaming laptop with a 4060 (8gb)": the laptop GPU of that name, of that memory
            said = rx.search(r"(\d+)\s?(?:gb|gib|g)\b", written.lower())
            size = float(said.group(1)) if said else memory
            laptops = tuple(
                g
                for g in self._gpu_lookup(f"{base} laptop", words[start:end]) or ()
                if size is None or abs(self.catalog.gpus[g].memory_gb - size) <= 0.07 * size
            )
            if laptops:
                return GpuRef(f"{written} laptop", laptops, count, memory, "laptop", base)
        if not chosen and form in ("laptop", "desktop"):  # "the laptop 4090"
            other = (
                tuple(  # (of the memory said, when said: "a 3050 6gb laptop" is no 4 GB one)
                    g
                    for g in self._gpu_lookup(f"{written} {form}", words[start:end]) or ()
                    if memory is None
                    or abs(self.catalog.gpus[g].memory_gb - memory) <= 0.07 * memory
                )
                or tuple(
                    g  # "my laptop's RTX 4060 (8 GB)": the name with its memory, then the form
                    for g in self._gpu_lookup(f"{base} {form}", words[start:end]) or ()
                    if memory is None
                    or abs(self.catalog.gpus[g].memory_gb - memory) <= 0.07 * memory
                )
            )
            if other:
                return GpuRef(f"{written} {form}", other, count, memory, form, base)
        if not chosen and memory is not None and form is None:
            # "the 12gb version of the 3080": an entry of its own under the name with its memory
            sized = self._gpu_lookup(f"{base or written} {memory:g}gb", words[start:end])
            if sized:
                return GpuRef(written, sized, count, memory, form, base)
        if not chosen:  # the words contradict every variant: never answer for another one
            named = f"{base} {form}" if form in ("laptop", "desktop") and memory else base
            stated = f"{memory:g} GB" if memory else form or ""
            kin = list(gpus)
            if form == "laptop":  # "a 3050 6gb laptop": the laptop GPUs of the name it does have
                kin = [
                    self.catalog.gpus[g]
                    for g in self._gpu_lookup(f"{base} laptop", words[start:end]) or ()
                ]
                kin = kin or list(gpus)
            note = (
                f"The catalog has no {named} with {stated}; it has "
                + ", ".join(g.name for g in kin[:4])
                + "."
            )
            return GpuRef(
                written, (), count, memory, form, base, tuple(g.name for g in gpus), note=note
            )
        if len(chosen) > 1 and form is None:
            desktop = [g for g in chosen if g.segment != "laptop"]
            chosen = desktop or chosen  # a plain name means the desktop card
        board_note: str | None = None
        if len(chosen) > 1 and form is None and count == BOARD_GPUS:
            boards = [g for g in chosen if _form_matches(g, "sxm")]  # "8x H200", "8x H100 server"
            if boards and len(boards) < len(chosen):
                chosen = boards
                board_note = (f"{count} x {base}: read as the SXM module of {BOARD_GPUS}-GPU "
                              "boards (HGX); say PCIe or NVL for the others.")  # fmt: skip
        return GpuRef(written, tuple(g.id for g in chosen), count, memory, form, base,
                      note=board_note)  # fmt: skip

    def _unknown_gpus(self, words: list[Token], taken: set[int]) -> list[GpuRef]:
        """GPU-shaped words the catalog does not know ("RTX 9999", "A1000"): suggestions."""
        refs = []
        for i, w in enumerate(words):
            if i in taken or w.low.startswith("#"):  # "Ticket #4519": a number that names
                continue
            if _PSU_MODEL.match(w.low) or (i and words[i - 1].low in _PSU_MAKERS):
                continue  # "psu is a 750w gold (corsair rm750)": a power supply, no GPU
            prefixed = i and words[i - 1].low in _DROPPABLE and i - 1 not in taken
            pair = f"{words[i - 1].text} {w.text}" if prefixed else w.text
            # after a line's name the shape is a card's ("Tesla K80", "Quadro P5000"), not a
            # size or a setting ("titan rtx fp64")
            branded = prefixed and words[i - 1].low in _LINES
            shaped = _GPU_SHAPE.match(pair) and (
                branded or not _NOT_GPU.match(w.low) or _OLD_TESLA.fullmatch(w.low)
            )
            if shaped and (prefixed or not w.low.isdigit()):
                index = {k: list(v) for k, v in self.gpu_keys.items()}
                found = suggest(gpu_key(pair), index, limit=4)
                names = tuple(n for g in found if _related(pair, n := self.catalog.gpus[g].name))
                count = _count_before(words, i - 1 if prefixed else i)  # "two Tesla K80 boards"
                refs.append(GpuRef(pair, (), count, suggestions=names))
        return refs

    # -- models

    def find_models(self, text: str, skip: Iterable[tuple[int, int]] = ()) -> list[ModelRef]:
        """Models named in `text`, leaving out the character spans `skip` (GPU names)."""
        spans = list(skip)
        # ("running llama 24/7": every hour of the day, no part of the model's name)
        words = [w for w in tokens(text) if not _inside(w, spans) and w.low not in _ROUND_THE_CLOCK]
        refs: list[ModelRef] = []
        i = 0
        while i < len(words):
            hit = self._elliptic(words, i, refs)
            if hit is None or hit[1].ids == refs[-1].ids:
                # "distil-large-v3 vs large-v3": a name of its own, not the first one again
                hit = self._model_at(words, i) or hit
            if hit is None:
                i += 1
                continue
            end, ref = hit
            if not any(r.ids and r.ids == ref.ids for r in refs):
                refs.append(ref)
            i = end
        refs += [r for r in self._whisper_variant(words, refs) if all(r.ids != o.ids for o in refs)]
        entries = [self._entry(r.family, r.ids[0]) for r in refs if r.ids and r.family]
        # the sizes of the models named, total and active ("Scout ... only 17B parameters are
        # active": its active size, not another model)
        named = [_params_b(e) for e in entries] + [
            e.active_params / 1e9 for e in entries if getattr(e, "active_params", None)
        ]
        return [  # "70B models, mostly Llama 3.3 70B": the size said generically, then named
            r for r in refs
            if r.ids or not r.size_b or not any(p and abs(p - r.size_b) <= 0.1 * r.size_b
                                                for p in named)
        ]  # fmt: skip

    def _whisper_variant(self, words: list[Token], refs: list[ModelRef]) -> list[ModelRef]:
        """ "faster-whisper with large-v2", "whisper.cpp ... medium", "wisper tiny": a Whisper
        size alone, where an engine, a slip of the name or a Whisper model named beside it
        ("distil-large-v3 vs large-v3") says which family it is."""
        said = any(  # a ratio of 0.85 to its 7 letters needs a word of 6 to 9
            "whisper" in w.low
            or (6 <= len(w.low) <= 9
                and difflib.SequenceMatcher(None, w.low, "whisper").ratio() >= 0.85)
            for w in words
        ) or any(r.family == "speech" for r in refs)  # fmt: skip
        if not said:
            return []
        table = models_of(self.catalog, FAMILIES["speech"])

        def adjective(i: int) -> bool:  # "that tiny TTS model", "a small team": a plain word
            before = words[i - 1].low if i else ""
            after = words[i + 1].low if i + 1 < len(words) else ""
            if "whisper" in before:
                return False  # "whisper small english": the size, named
            if words[i].low == "base" and before in _BASE_FORMATS:
                return True  # "(fp16 base, small batch)": the base model's format, no Whisper
            # "a small team", "with a small batch": a word before a noun of its own
            return after.isalpha() and after not in _SIZE_NOUNS

        found = {
            f"whisper-{w.low}": w.text
            for i, w in enumerate(words)
            if f"whisper-{w.low}" in table and not adjective(i)
        }
        return [ModelRef(text, (mid,), "speech") for mid, text in found.items()]

    def _elliptic(
        self, words: list[Token], i: int, refs: list[ModelRef]
    ) -> tuple[int, ModelRef] | None:
        """A second model named by its size or variant alone after "vs", "or", "and" or "/":
        "whisper medium vs large-v3", "llama 3.1 8b or 70b", "mixtral 8x7b or 8x22b"."""
        if not refs or not refs[-1].resolved or i == 0:
            return None
        if words[i - 1].low not in ("vs", "vs.", "or", "and", "versus", "/", "to"):
            return None
        name = self._entry(refs[-1].family or "llm", refs[-1].ids[0]).name.lower()
        stem = rx.sub(r"[-_\s]?\d+(?:\.\d+)?(?:x\d+)?[bm](?=$|[-_\s]).*$", "", name)
        prefixes = dict.fromkeys([_model_key(stem), _model_key(rx.split(r"[-\s]", name)[0])])
        for span in range(min(3, len(words) - i), 0, -1):
            chunk = words[i : i + span]
            tail = _model_key(" ".join(w.text for w in chunk))
            if not tail:
                continue  # "gemma 3 27B on a 4090 vs a 3090": "a" is no Gemma 3 of its own
            after = words[i + span].low if i + span < len(words) else ""
            if chunk[-1].low in _NAME_SIZES and after.isalpha() and after not in _SIZE_NOUNS:
                continue  # "whisper medium and a tiny vocoder model": a word, no size
            if rx.fullmatch(r"\d+x|x\d+", chunk[0].low) or (
                    chunk[-1].low.isdigit() and _GPU_AFTER.fullmatch(after)):  # fmt: skip
                return None  # "gemma 2 27b on an m2 ultra vs 2x 3090": a count of cards
            for prefix in prefixes:
                found = self.model_keys.get(prefix + tail)
                if found:
                    written = " ".join(w.text for w in chunk)
                    return i + span, self._model_ref(written, found, None, None, prefix + tail)
        return None

    def _only_model_of_size(self, size_b: float) -> Any:
        """The catalog's one LLM whose name carries that size ("405B"), or None when none or
        several do ("70b" names many models; "405b" one), or the size is small."""
        if size_b < 100:
            return None  # small sizes are generic models ("train a 1.3B from scratch")
        size = re.compile(rf"(?<![\d.]){re.escape(f'{size_b:g}')}b\b")
        found = [m for m in self.catalog.models.values() if size.search(m.name.lower())]
        return found[0] if len(found) == 1 else None

    def _model_at(self, words: list[Token], i: int) -> tuple[int, ModelRef] | None:
        if _SIZE.match(_size_word(words[i].low)) or words[i].low in ("a", "an", "the"):
            generic = _generic_size(words, i)
            if generic and generic[1].size_b:  # "405b": the one catalog model of that size
                only = self._only_model_of_size(generic[1].size_b)
                if only is not None:
                    ref = generic[1]
                    note = f"I read '{ref.text}' as {only.name}, the one model of that size I know."
                    return generic[0], replace(ref, ids=(only.id,), size_b=None, note=note)
            return generic
        fixed = self._corrected(words[i])  # "lamma" -> "llama", once per position
        cores = _name_cores(words[i : i + 8])
        names = [w.text for w in cores[-1][0]] if cores else []  # the longest span's name words
        mended: list[str] | None = None  # the same with their slips corrected, when needed
        for span in range(len(cores), 0, -1):
            chunk = words[i : i + span]
            if span > 1 and chunk[-1].low in _TRAILING_NOISE:
                continue  # "sdxl a couple": the name ends before "a"
            core, fmt, digit_said, digit_core = cores[span - 1]
            if not core:
                continue
            n = len(core)  # a span's name words are the first n of the longest span's
            key = _model_key(" ".join(names[:n]))
            found = self.model_keys.get(key)
            spelled = None
            if not found and fixed and span > 1 and digit_said:
                spelled = _model_key(" ".join([fixed, *names[1:n]]))
                found = self.model_keys.get(spelled)
            if not found and digit_core:
                # slips inside repo names: "gema3:27b", "Devstral-Smaall", "DepSeek-V2"
                mended = mended or [self._model_word(t) for t in names]
                spelled = _model_key(" ".join(mended[:n]))
                found = self.model_keys.get(spelled) if spelled != key else None
            if not found:
                continue
            end = i + span
            written = " ".join(w.text for w in chunk)
            stated = _size_after(words, end)
            if stated is None and end < len(words) and words[end].low in _DISTILL_WORDS:
                # "deepseek r1 distill 32b": the distill of that size, the word before it read
                stated = _size_after(words, end + 1)
                end += stated is not None
            if stated is not None and end + 1 < len(words) and words[end + 1].low == "active":
                stated = None  # "Llama 4 Scout (17B active, 16 experts)": not its total size
            if stated is None and end < len(words) and _VERSION.fullmatch(words[end].low):
                # "whisper large v9": a version of the name the catalog lacks, not large-v3
                said = f"{written} {words[end].text}"
                return end + 1, ModelRef(said, (), None, None,
                                         suggestions=self._suggested(_model_key(said)))  # fmt: skip
            ref = self._model_ref(written, found, fmt, stated, spelled or key)
            if spelled and ref.resolved and ref.note is None:
                name = self._entry(ref.family or "llm", ref.ids[0]).name
                ref = replace(ref, note=f"I read '{written}' as {name}.")
            return (end + (1 if stated is not None else 0)), ref
        return self._family_and_size(words, i) or self._unknown_model(words, i)

    def _model_word(self, word: str) -> str:
        """A word of a model name with its alphabetic runs' slips corrected: slips of the
        catalog's name words, and of the size words that end names ("GPT 2 laarge")."""
        return _slips_fixed(_LETTER_RUN.sub(_size_slip_fixed, word), self.vocabulary)

    def _corrected(self, word: Token) -> str | None:
        """The model-name word a misspelt one stands for ("lamma" -> "llama"), else None."""
        low = word.low
        if not low.isalpha() or len(low) < 4 or low in self.vocabulary or low in _COMMON_WORDS:
            return None
        return _closest(low, self.vocabulary)

    def _model_ref(
        self,
        written: str,
        found: tuple[tuple[str, str], ...],
        fmt: str | None,
        stated: float | None,
        key: str,
    ) -> ModelRef:
        if len(found) > 1:
            if not _same_architecture([self._entry(f, m) for f, m in found]):
                return ModelRef(written, tuple(m for _, m in found), found[0][0], stated, fmt)
            order = {fm: n for n, fm in enumerate(self.model_order)}

            def rank(fm: tuple[str, str]) -> tuple[float, int]:
                # releases of one shape: the size said decides ("command r 35b" is the 35.0B
                # v01, not the 32.3B 08-2024), then the newest
                size = _params_b(self._entry(*fm)) or 0.0
                return (-abs(size - stated) if stated is not None else 0.0, order.get(fm, 0))

            found = (max(found, key=rank),)
        family, mid = found[0]
        model = models_of(self.catalog, FAMILIES[family])[mid]
        size = _params_b(model)
        if stated is not None and size and abs(size - stated) > 0.15 * stated:
            # the size as the guard reads it back: "3.47B", not "3B" for SDXL's 3.47B
            shown = f"{size:,.0f}" if size >= 100 else f"{size:.3g}"
            # "deepseek r1 14b": the size decides among the entries whose names extend this one
            better = self._by_size(key, stated)
            said = f"{written} {stated:g}B"
            if better is not None:
                name = self._entry(*better).name
                note = f"'{said}' is {name} ({model.name} itself is {shown}B)."
                return ModelRef(said, (better[1],), better[0], stated, fmt, note=note, about=mid)
            note = (
                f"The catalog has no {model.name} of {stated:g}B ({model.name} is "
                f"{shown}B): answering for a generic {stated:g}B model."
            )
            return ModelRef(said, (), "llm", stated, fmt, note=note, about=mid)
        return ModelRef(written, (mid,), family, stated, fmt)

    def _entry(self, family: str, mid: str) -> Any:
        return models_of(self.catalog, FAMILIES[family])[mid]

    def by_size(self, prefix: str, size_b: float) -> tuple[str, str] | None:
        return self._by_size(prefix, size_b)

    def _by_size(self, prefix: str, size_b: float) -> tuple[str, str] | None:
        """The entry whose key starts with `prefix` and whose size is `size_b` (newest first)."""
        matches = []
        for key, found in self.model_keys.items():
            if not key.startswith(prefix):
                continue
            for family, mid in found:
                size = _params_b(self._entry(family, mid))
                if size and abs(size - size_b) <= 0.12 * size_b:
                    matches.append((family, mid))
        matches = list(dict.fromkeys(matches))
        if not matches:
            return None
        order = {fm: n for n, fm in enumerate(self.model_order)}
        said = set(rx.findall(r"[a-z]+", prefix))

        def rank(fm: tuple[str, str]) -> tuple[int, bool, int, int]:
            # "llama 70b" is Meta's newest Llama of that size, not a derivative such as
            # Llama-3.1-Nemotron-70B: names with words the user did not say rank last; then a
            # size within 3% of the one said ("gemma 27b" is Gemma 3 27B, not a 26B)
            entry = self._entry(*fm)
            extra = set(rx.findall(r"[a-z]{2,}", entry.name.lower())) - said - _PLAIN_WORDS
            size = _params_b(entry) or 0.0
            exact = abs(size - size_b) <= 0.03 * size_b
            return (-len(extra), exact, getattr(entry, "release_year", 0) or 0, order.get(fm, 0))

        return max(matches, key=rank)

    def _unknown_model(self, words: list[Token], i: int) -> tuple[int, ModelRef] | None:
        """A model-shaped name the catalog lacks ("GPT-5", "Llama 7 400B", a Hugging Face repo
        "nvidia/parakeet-tdt-0.6b-v2"): suggestions."""
        word = words[i].low
        if _REPO_ID.fullmatch(word):  # "org/name-0.6b": a model by its repo, not in the catalog
            name = word.split("/", 1)[1]
            said = set(rx.findall(r"[a-z]{4,}", name))  # only a name that shares a word with it
            names = tuple(n for n in self._suggested(_model_key(name))
                          if said & set(rx.findall(r"[a-z]{4,}", n.lower())))  # fmt: skip
            return i + 1, ModelRef(words[i].text, (), None, None, suggestions=names)
        head = (
            rx.match(r"([a-z]+)[-\s]?v?\d", word)
            or rx.match(r"([a-z]+)-(?:[a-z]+-){1,2}\d+(?:\.\d+)?[bm](?:-|$)", word)
            or rx.match(r"([a-z]+)-(?:large|medium|small|base|tiny|mini)-v\d+$", word)
        )  # "falcon-mamba-7b", "whisper-large-v9", not a pod's "whisper-worker-3" or a repo's
        # "mistral-finetune-v1"
        family = head.group(1) if head else (word if word in self.first_words else None)
        if family not in self.first_words or family in _COMMON_WORDS:
            return None  # "all 3 cards": a count, though "all-MiniLM" opens with the word
        span = [words[i]]
        for w in words[i + 1 : i + 4]:
            if not rx.search(r"\d", w.low) and w.low not in ("instruct", "chat", "it", "base"):
                break
            if w.start - span[-1].end > 1:  # "QWEN0;.0": punctuation ends a name
                break
            span.append(w)
        written = " ".join(w.text for w in span)
        if not rx.search(r"\d", written):
            return None
        series = self._series_middle(written)
        if series is not None:
            return i + len(span), series
        key = _model_key(written)
        names = self._suggested(key)
        size = _SIZE.match(span[-1].low) if len(span) > 1 else None
        after = words[i + len(span)].low if i + len(span) < len(words) else ""
        if (
            after in ("x", "px")
            or rx.match(r"x\d|px\b", after)
            or rx.search(r"\d+x\d+$", span[-1].low)
        ):
            return None  # "segmentation 512x512": an image's size, no model's name
        # ("embed ~5M short texts": a word said of the things between)
        after2 = words[i + len(span) + 1].low if i + len(span) + 1 < len(words) else ""
        if size and (after.rstrip("s,.") in _COUNTED_ITEMS
                     or (after.isalpha() and after2.rstrip("s,.") in _COUNTED_ITEMS)):  # fmt: skip
            return None  # "embed 2M passages": a count of things, no model's size
        if size:  # "gpt-3 175b": a size said of a name the catalog lacks, none near that size
            stated = float(size.group(1)) / (1000 if size.group(2).lower() == "m" else 1)
            keys = {_model_key(n) for n in names} & self.model_keys.keys()
            near = [fm for k in keys for fm in self.model_keys[k]]
            sizes = [_params_b(self._entry(*fm)) or 0.0 for fm in near]
            if not any(abs(b - stated) <= 0.1 * stated for b in sizes):
                note = f"The catalog has no '{written}': answering for a generic {stated:g}B model."
                return i + len(span), ModelRef(written, (), "llm", stated, note=note)
        return i + len(span), ModelRef(written, (), None, None, suggestions=names)

    def _series_middle(self, written: str) -> ModelRef | None:
        """ "YOLOv8" with no size: the catalog's sizes of that series (YOLOv8n to YOLOv8x, one
        family) by the letter or word after the name; the middle one by parameters, said as
        assumed (the answer names it, and the sizes there are)."""
        key = _model_key(written)
        found = {
            fm
            for k, fms in self.model_keys.items()
            if k.startswith(key) and rx.fullmatch(_SIZE_MARK, k[len(key) :])
            for fm in fms
        }
        if len(found) < 3 or len({f for f, _m in found}) > 1:
            return None  # a series of sizes, not two names that share a stem
        sized = sorted(found, key=lambda fm: _params_b(self._entry(*fm)) or 0.0)
        family, mid = sized[(len(sized) - 1) // 2]
        names = ", ".join(self._entry(*fm).name for fm in sized)
        name = self._entry(family, mid).name
        note = (f"{written} with no size named: {name}, the middle of {names}, assumed (say the "
                "size if it differs).")  # fmt: skip
        return ModelRef(written, (mid,), family, note=note, about=mid, assumed=True)

    def _suggested(self, key: str) -> tuple[str, ...]:
        """The names of the three catalog models closest to a name key the catalog lacks."""
        index = {k: [m for _f, m in v] for k, v in self.model_keys.items()}
        found = suggest(key, index, limit=3)
        names = (self._entry(*self.model_keys[_key_of(index, m)][0]).name for m in found)
        return tuple(dict.fromkeys(names))  # two keys of one entry name it once

    def _family_and_size(self, words: list[Token], i: int) -> tuple[int, ModelRef] | None:
        """A family word, a version perhaps, then a size: "llama 70b", "qwen 2.5 14b"."""
        first = words[i].low
        if not first.isalpha() or len(first) < 3:
            return None
        family = first if first in self.vocabulary else self._corrected(words[i])
        if family is None or family in _COMMON_WORDS:
            return None
        for j in range(i + 1, min(i + 4, len(words))):
            size = _SIZE.match(words[j].low)
            if (
                size
                and j + 1 < len(words)
                and (
                    words[j + 1].low in _COUNTED
                    or words[j + 1].low.rstrip("s,.") in _COUNTED_ITEMS
                    or (
                        j + 2 < len(words)
                        and words[j + 1].low.isalpha()
                        and words[j + 2].low.rstrip("s,.") in _COUNTED_ITEMS
                    )
                )
            ):
                break  # "push 200M input tokens a day", "embed 2M passages": counts of things
            if size:
                version = "".join(w.low for w in words[i + 1 : j])
                stated = float(size.group(1)) / (1000 if size.group(2).lower() == "m" else 1)
                written = " ".join(w.text for w in words[i : j + 1])
                # the version written is part of the name: "llama 3 13b" is no Llama 2
                best = self._by_size(_model_key(family + version), stated)
                if best is not None:
                    name = self._entry(*best).name
                    note = f"I read '{written}' as {name}."
                    return j + 1, ModelRef(written, (best[1],), best[0], stated, note=note)
                note = f"The catalog has no '{written}': answering for a generic {stated:g}B model."
                return j + 1, ModelRef(written, (), "llm", stated, note=note)
            if not rx.fullmatch(r"v?\d+(?:\.\d+)?", words[j].low):
                break
        return None


_PLAIN_WORDS = frozenset({"instruct", "chat", "it", "base", "hf", "v"})
# things counted in a job, after a count: "embed 2M passages", "2B documents"
_COUNTED_ITEMS = frozenset({"passage", "chunk", "document", "doc", "sentence", "text", "image",
                            "file", "row", "record", "page", "article", "review", "email",
                            "sample", "example", "item", "embedding", "vector", "query",
                            "request", "token", "call", "message"})  # fmt: skip
# what a number before these counts: "200M tokens", "10k requests", never a model's size
_COUNTED = frozenset({"tokens", "token", "toks", "input", "output", "prompt", "prompts",
                      "generated", "completion", "requests", "queries", "images", "samples",
                      "rows", "documents", "docs", "words", "users", "calls"})  # fmt: skip
_GPU_SHAPE = re.compile(
    r"^(?:rtx|gtx|quadro|tesla|radeon|rx|arc|cmp)?[-\s]?(?:[a-z]{1,2}\d{2,4}[a-z]?|\d{4}|\d{2,3}hx)"
    r"(?:\s?ti)?$"  # "CMP 170HX": a mining card
    r"|^(?:rx|gtx)[-\s]\d{3}(?:\s?(?:xt|ti))?$"  # "RX 580", "GTX 980": three digits after the line
    r"|^radeon\s(?:vii|pro\s[a-z]?\d{3,4}\w*)$"  # "AMD Radeon VII", "Radeon Pro W6800"
    r"|^radeon\s\d{3}m$",  # "Radeon 780M": a laptop chip's graphics
    re.I,
)
# Tesla cards of Kepler and Maxwell the catalog lacks, said without their line ("k80 for sd")
_OLD_TESLA = re.compile(r"k(?:10|20|20x|20m|40|40m|80)|m(?:40|60)", re.I)
# precisions, sizes, units and other words shaped like GPU names
# devices the catalog does not cover, by kind: phones, tablets, single-board computers
_OTHER_DEVICES = re.compile(
    r"\b(?:(?P<board>raspberry ?pi(?: ?\d)?|rpi ?\d|orange ?pi(?: ?\d)?)"
    r"|(?P<phone>iphone(?: ?\d+)?(?: pro)?(?: max)?|(?:google )?pixel \d+(?: pro)?"
    r"|(?:samsung )?galaxy s\d+(?: ultra)?|android (?:phone|device)s?"
    # "run 405b on my phone": a phone said as the device it runs on
    r"|(?:(?<=on my )|(?<=on a )|(?<=on an )|(?<=on the ))(?:smart ?|cell ?|mobile )?phone)"
    r"|(?P<tablet>ipad(?: pro| air| mini)?))\b",
    re.IGNORECASE,
)


DEVICE_NOTE = "The catalog covers GPUs, Apple Silicon Macs and NVIDIA Jetson boards"


def _device_note(said: re.Match[str]) -> str:
    kind = ("single-board computers" if said.group("board") else "phones" if said.group("phone")
            else "tablets")  # fmt: skip
    generic = re.fullmatch(r"(?:smart ?|cell ?|mobile )?phone", said.group(0), re.I)
    named = "" if generic else f" such as the {said.group(0)}"
    return (
        f"{DEVICE_NOTE}, not {kind}{named}, so I have no figures for it. There a model runs on "
        "the device's CPU or NPU (llama.cpp, MLC, ollama) and its weights must fit in the "
        "device's RAM, so a 4-bit quant is the usual choice; ask for the model's memory at "
        "q4 to see whether it does."
    )


# power supplies named by model: Corsair RM/HX/SF/CX, Seasonic's and others' lines
_PSU_MODEL = re.compile(r"^(?:rm[ex]?|hxi?|sfx?|cxm?|tx|gx|px|axi?)\d{3,4}[a-z]?$")
# (not EVGA, ASUS or MSI, whose names are on graphics cards too)
_PSU_MAKERS = frozenset({"corsair", "seasonic", "thermaltake", "fsp", "superflower", "supernova"})
_NOT_GPU = re.compile(
    r"^(?:fp|bf|tf|f|int|nf|q|w|sm|sd|gen|pcie|ddr|gddr|hbm|cuda|tp|pp|v|x|k|m|b|e|rn|h|p|s|g|rx"
    r"|mxfp|nvfp|wt|wiki|wikitext|coco|voc|glue|cifar|imagenet|lambada|c4|gsm|mmlu|squad)\d",
    re.I,
)  # data sets ("wt103", "cifar10", "gsm8k") are not GPUs either
_COMMON_WORDS = frozenset(
    {
        "what",
        "with",
        "will",
        "would",
        "which",
        "model",
        "models",
        "about",
        "fine",
        "tune",
        "run",
        "train",
        "base",
        "large",
        "small",
        "medium",
        "mini",
        "turbo",
        "that",
        "this",
        "from",
        "have",
        "need",
        "card",
        "cards",
        "gpus",
        "using",
        "into",
        "over",
        "under",
        "than",
        "then",
        # words that open a name in the catalog ("all-MiniLM-L6-v2") and a count in a question
        "all",
        "any",
        "both",
        "each",
        "every",
    }
)


# words after "the" that judge the card named before it: "is the a100 the best for ..."
_JUDGED_AFTER = frozenset({"best", "right", "fastest", "cheapest", "ideal", "better", "smartest",
                           "obvious", "go-to", "only", "top", "way"})  # fmt: skip
_TIME_UNITS = ("ms", "sec", "secs", "min", "mins")  # a unit after a name ("4090 ms")
_TRAILING_NOISE = frozenset({"a", "an", "the", "model", "it", "on", "in", "for", "with", "and"})
_ARTICLES = ("a", "an", "the", "one", "single", "my", "our", "your", "two", "four", "eight", "dual")
_FORM_WORDS = frozenset(w for w in _FORMS if len(w) >= 5)
_CONNECTORS = ("with", "w/", "w", "(", "-", "version", "variant", "model", "one", "the", "of",
               "a", "an", "mit", "con", "com", "avec", "partition", "card", "cards", "node",
               "nodes")  # fmt: skip


def _qualifiers(
    near: list[Token], before: bool = False, ram_is_card: bool = False
) -> tuple[float | None, str | None]:
    """Memory and form factor in the words next to a GPU name (in reading order away from it):
    "40 gigs", "(40G)", "80GB", "PCIe", "with 12 gigs", "laptop"; stops at any other word.
    Before the name the words come backwards: a number's unit is the word nearer the name.
    `ram_is_card`: a Mac's "32GB RAM" is its GPU's memory, not a host's beside the card."""
    memory, form = None, None
    i = 0
    while i < len(near):
        word = near[i].low.strip("()[],")
        size = _MEMORY.match(word)
        j = i - 1 if before else i + 1  # where the number's unit is, in this list
        unit = 0 <= j < len(near) and rx.fullmatch(r"gb|g|gib|gigs?", near[j].low.strip("()"))
        number_next = i + 1 < len(near) and near[i + 1].low.replace(".", "", 1).isdigit()
        after = near[i + 1].low if i + 1 < len(near) and not before else ""
        # the word after the figure, past its unit when that is a word of its own ("64 gb ram")
        host = near[i + 2].low if unit and not size and i + 2 < len(near) and not before else ""
        # "64gb of ddr5", "64 gb of system ram": past the unit and an "of"
        then = [w.low for w in near[i + 1 : i + 4]] if not before else []
        then = [w for w in then if not rx.fullmatch(r"of|gb|g|gib|gigs?", w)][:1]
        if (
            not ram_is_card
            and (size or unit)
            and any(
                rx.fullmatch(r"ddr\d\w*|ram|sdram|lpddr\d\w*|system", w)
                for w in (after, host, *then)
            )
        ):
            break  # "32gb ddr4", "64gb ram", "64 GB RAM": the host's memory, not the card's
        beyond = near[i + 2].low if unit and i + 2 < len(near) and not before else after
        if (size or unit) and rx.fullmatch(r"(?:total|combined|altogether)\)?|in", beyond):
            break  # "2x 3090 (48gb total)": the cards' memory together, not one card's
        if size and memory is None:
            memory = float(size.group(1))
        elif before and rx.fullmatch(r"gb|g|gib|gigs?", word) and number_next and memory is None:
            memory = float(near[i + 1].low)  # "the 16 gb 4060 ti", read backwards
            i += 1
        elif word.replace(".", "", 1).isdigit() and unit and memory is None:
            memory = float(word)
            i += 1
        elif form is None and (word in _FORMS or (len(word) >= 5 and _closest(word, _FORM_WORDS))):
            form = _FORMS[word if word in _FORMS else str(_closest(word, _FORM_WORDS))]
        elif rx.fullmatch(r"gb|g|gib|gigs?", word) and memory is not None:
            pass  # "24 gb": the unit of the number before
        elif word not in _CONNECTORS:
            break
        i += 1
    return memory, form


def model_name_of(linker: Linker, model: ModelRef) -> str:
    """The catalog name of a resolved model."""
    return str(linker._entry(model.family or "llm", model.ids[0]).name)


def _inside(word: Token, spans: list[tuple[int, int]]) -> bool:
    return any(a <= word.start < b or a < word.end <= b for a, b in spans)


def _key_of(index: dict[str, list[str]], model_id: str) -> str:
    return next(k for k, ids in index.items() if model_id in ids)


def _split_counts(text: str) -> str:
    """'4xA100', '8x H100', '2x3090' -> '4 x A100': a count, not a name (never '8x7B');
    'a100-40' -> 'a100 40': a name and its memory."""
    text = rx.sub(
        r"\b([a-z]\d{2,3})-(16|20|24|32|40|48|80|94|96|141|192)\b(?![.-]\d)",
        r"\1 \2",
        text,
        flags=re.IGNORECASE,
    )
    return rx.sub(
        r"(?<![\w.])(\d{1,4})\s?[x\u00d7\*]\s?(?!\d+(?:\.\d+)?b\b)(?=[a-z0-9])",
        r"\1 x ",
        text,
        flags=re.IGNORECASE,
    )


def _related(written: str, name: str) -> bool:
    """A catalog name worth offering for a card the catalog lacks: it shares a word of the line
    ("rx", "tesla", "quadro") or the letters before the model number ("K80" and "K40"), not only
    digits ("K80" is no H800)."""
    words = set(re.findall(r"[a-z]+", name.lower())) - {"nvidia", "amd", "intel", "gb"}
    said = re.findall(r"[a-z]+", written.lower())
    parts = name.lower().split()
    numbered = [w for w in written.lower().split() if any(ch.isdigit() for ch in w)]
    return (
        any(w in words for w in said)
        or any(re.match(rf"{w}\d", part) for w in said for part in parts)
        # a slip of one character: "Z100" for the A100
        or any(len(w) == len(part) and _one_edit(w, part) for w in numbered for part in parts)
    )


def _bare_number_ok(chunk: list[Token]) -> bool:
    """'4090' alone is a GPU, but not in '$4090', '4090 tokens' or '4090 MB'."""
    return len(chunk) == 1 and not chunk[0].text.startswith("$")


_LAPTOP_WORDS = ("laptop", "laptops", "notebook")
_DESKTOP_WORDS = frozenset(
    ("desktop", "desktops", "pc", "tower", "workstation", "server", "egpu", "rig", "enclosure")
)  # fmt: skip


def _laptop_word(word: Token) -> bool:
    return rx.sub(r"['\u2019]s$", "", word.low) in _LAPTOP_WORDS  # "my laptop's"


def _in_a_laptop(words: list[Token]) -> bool:
    """The message speaks of a laptop (not inside a GPU's name: "rtx 4060 laptop gpu") and of no
    desktop machine ("tired of my laptop ... a 4090 for my new build" is a desktop card; "want
    to build an assistant" is no machine)."""
    named = {i + 1 for i, w in enumerate(words) if rx.search(r"\d", w.low)}  # "4060 laptop"
    laptop = any(_laptop_word(w) and i not in named for i, w in enumerate(words))
    built = rx.search(r"\b(?:new|pc|gaming|desktop|my|a|the) (?:build|box)\b",
                      " ".join(w.low for w in words))  # fmt: skip
    return laptop and not built and not {w.low for w in words} & _DESKTOP_WORDS


# the words that tie a laptop to the card named after it: "laptop with a 4070", "my laptop has
# an RTX 3060", "a laptop. it has a 4060"
_LAPTOP_HAS = frozenset(
    ("with", "w", "w/", "has", "had", "having", "have", "got", "came", "comes", "i", "featuring",
     "sporting", "packing", "running", "rocking", "a", "an", "the", "its", "it", "my", "nvidia",
     "geforce")
)  # fmt: skip


def _laptop_before(words: list[Token], start: int, previous_end: int | None) -> bool:
    """A laptop said of this card just before it ("laptop with a 4070 vs a box with a 4090": the
    4070 is the laptop's, the 4090 not; "tired of my laptop, thinking of an RTX 4090": not)."""
    lo = max(previous_end or 0, start - 5)
    at = next((i for i in range(start - 1, lo - 1, -1) if _laptop_word(words[i])), None)
    return at is not None and all(w.low in _LAPTOP_HAS for w in words[at + 1 : start])


# a Hugging Face repo id with a size in its name: "nvidia/parakeet-tdt-0.6b-v2", "acme/foo-7b"
# a version said after a model's name: "v9", "v0.4"
_VERSION = re.compile(r"v\d+(?:\.\d+)*")

_REPO_ID = re.compile(r"[a-z0-9][\w.-]*/[\w.-]*?\d+(?:\.\d+)?[bm]\b[\w.-]*")


_ROUND_THE_CLOCK = frozenset({"24/7", "24x7", "24/7/365"})
# a DGX named with no generation ("a DGX", "the DGX box"): the GPUs of its generations
_BARE_DGX = re.compile(
    r"\b(?:nvidia )?dgx\b(?!\s?(?:station|spark|[abhg]\d|gb\d|-))", re.IGNORECASE
)
DGX_GENERATIONS = ("a100-sxm4-80gb", "h100-sxm5-80gb", "b200")


def _covered_by_variants(ref: GpuRef, refs: list[GpuRef]) -> bool:
    """Whether a family named with no count is covered by two or more of its variants named
    too, each narrower than it."""
    if ref.count or len(ref.ids) < 2:
        return False
    narrower = [r for r in refs if r is not ref and r.base == ref.base and r.ids
                and set(r.ids) < set(ref.ids)]  # fmt: skip
    return len({r.ids for r in narrower}) >= 2


# a form factor said of every card named: "both (SXM)", "all pcie", "each one sxm"
_FORM_OF_ALL = re.compile(r"\b(?:both|all|each)(?: of them| ones?| cards?| gpus?)? (sxm|pcie)\b")


def _form_matches(gpu: Any, form: str) -> bool:
    if form == "laptop":
        return bool(gpu.segment == "laptop")
    if form == "desktop":
        return bool(gpu.segment != "laptop")
    if form == "nvl":
        return "nvl" in gpu.id
    return form in (gpu.form_factor or "").lower() and "nvl" not in gpu.id


# command-line flags whose number is no count of GPUs (llama.cpp, vLLM)
_SETTING_WORDS = frozenset(("batch", "bs", "epochs", "epoch", "steps", "repeats", "rank", "seed",
                           "ctx", "context", "seqlen"))  # fmt: skip
_VALUE_FLAGS = frozenset(
    ("ngl", "n-gpu-layers", "gpu-layers", "c", "ctx-size", "t", "threads", "ub", "np", "parallel",
     "port", "max-model-len", "max-num-seqs")
)  # fmt: skip


# words before a card's name that make a trailing "s" a plural: "have 4080s", "our 3090s"
_OWNED_MANY = frozenset(
    {"have", "has", "own", "owns", "our", "their", "these", "those", "several", "many",
     "multiple", "some", "all", "more"}
)  # fmt: skip


# words before a second name that set it against the first ("the A100 80GB than the A100")
_AGAINST = frozenset(("than", "vs", "vs.", "or", "versus", "against", "to", "with", "and"))


def _apple_chip(ref: GpuRef) -> bool:
    """Whether a mention is of an Apple M-series chip ("M2 Ultra", "M4 Max 128GB")."""
    return bool(ref.ids) and all(re.match(r"m\d+-", gid) for gid in ref.ids)


# a Mac's words between its chip and its memory ("the M2 chip and 16 GB", "M3 Max SoC, 64GB")
_APPLE_DEVICE = frozenset(("macbook", "air", "pro", "mini", "studio", "imac", "mac", "laptop",
                           "chip", "soc"))  # fmt: skip


def _count_before(words: list[Token], start: int, floor: int = 0) -> int | None:
    """'two A100s', '4 x A100', 'a pair of 3090s', '8-GPU node of H100s', '2 of the 4090'; from
    the words after `floor` (where the card named before ends)."""
    kept = list(words[max(0, floor, start - 4) : start])
    while kept and kept[-1].low in _COUNT_FILLER:
        kept.pop()
    if not kept:
        return None
    at = words.index(kept[-1])
    if at and words[at - 1].end + 1 == kept[-1].start and rx.search(r"\d$", words[at - 1].low):
        return None  # "a $2,500 L4": the end of an amount ("$2" "500"), not 500 cards
    if (len(kept) >= 2 and kept[-2].low in _PRICE_BEFORE and kept[-1].low.isdigit()
            and int(kept[-1].low) >= 100):  # fmt: skip
        return None  # "the a6000 is 4500 used, 4090 is 2000": the price of the card before
    back = [w.low for w in kept]
    last = rx.sub(r"^(\d+)x$", r"\1", back[-1])  # "4x" is 4; "six" keeps its x
    said_times = back[-1] != last  # "4x": a multiple, whatever word came before it
    skipped = {w.low for w in words[at + 1 : start]}
    times = said_times or skipped & {"x", "\u00d7"}
    if times and "the" in skipped and len(back) >= 2 and back[-2] in _IS_WORDS:
        return None  # "the 5090 is 2x the 4090": a claimed multiple, not two 4090s
    apart = len(kept) >= 2 and kept[-1].start - kept[-2].end > 1  # "90 epochs, 4 3090s"
    if not said_times and at + 1 < len(words) and words[at + 1].broken:
        return None  # "ctx 4096\n\nRTX 3090: ~84 t/s", "batch 2, rtx 3090": a break before the card
    if (len(back) >= 2 and back[-2].lstrip("-") in _VALUE_FLAGS | _SETTING_WORDS
            and not said_times and not apart):  # fmt: skip
        # "-ngl 99 3090": a command-line flag's value; "batch 2, rtx 3090": a setting's
        return None
    if last.isdigit() and 0 < int(last) <= MAX_GPU_COUNT:
        return int(last)
    gpu_node = rx.fullmatch(r"(\d+)-?gpus?", last)
    if gpu_node:
        return int(gpu_node.group(1))
    if last == "dozen" and back[-3:-1] == ["half", "a"]:
        return 6  # "half a dozen A100s"
    if last in NUMBER_WORDS and last not in ("a", "an", "one", "single", "both"):
        return NUMBER_WORDS[last]
    if last in ("single", "one", "a", "an") and (len(back) < 2 or back[-2] != "of"):
        return None
    return None


# "is 2x the 4090": a multiple of the card named after these words
_IS_WORDS = frozenset({"is", "are", "was", "were", "be", "being", "s", "it's", "its"})
# a number after these words is a price, not a count of the card that follows
_PRICE_BEFORE = frozenset({"is", "was", "costs", "cost", "@"})
_COUNT_FILLER = (
    "x",
    "\u00d7",
    "*",
    "of",
    "the",
    "used",
    "new",
    "second-hand",  # "a pair of second-hand MI210s"
    "secondhand",
    # "on 8 rented H100s", "2 refurbished 3090s", "4 spare A6000s"
    "rented",
    "refurbished",
    "refurb",
    "spare",
    # "2 old 1080 tis", "two cheap P40s", "3 extra 3090s"
    "old",
    "older",
    "cheap",
    "extra",
    "more",
    "cloud",
    "identical",
    "dedicated",
    "reserved",
    "spot",
    "nvidia",
    "node",
    "server",
    "box",
    "machine",
    "rig",
    "cluster",
    "dgx",
    "hgx",
    "with",
    # "4 pieces of RTX A6000", "2 nos. of RTX 3090" (Indian English), "3 units of L40S"
    "pieces",
    "pcs",
    # "两张RTX 4090" (read "2 cards RTX 4090"), "2 cards of RTX 3090"
    "cards",
    "nos",
    "nos.",
    "no.",
    "units",
)


def _hours_after(words: list[Token], start: int, end: int) -> bool:
    """ "5000 A100 GPU-hours", "300 h100 hours": the bare number before the name is hours of it
    (not "8x H100 hours", a count)."""
    if not (start and rx.fullmatch(r"\d[\d,]*(?:\.\d+)?k?", words[start - 1].low)):
        return False
    after = words[end : end + 2]
    said = " ".join(w.low for w in after)
    hours = rx.match(r"(?:gpu[- ]?)?(?:hours?|hrs?|h)\b", said)
    # "on 2x A6000. hours?": punctuation between the name and "hours" starts a new clause
    ended = bool(after) and end > 0 and after[0].start - words[end - 1].end > 1
    return bool(hours) and not ended


def _count_after(words: list[Token], end: int) -> int | None:
    """'A100 x4', 'A100 80G x 4', '3090 (x2)'."""
    after = [w.low for w in words[end : end + 3]]
    for i, word in enumerate(after):
        hit = rx.fullmatch(r"[x\u00d7\*](\d{1,4})", word)
        if hit:
            return int(hit.group(1))
        if word in ("x", "\u00d7") and i + 1 < len(after) and after[i + 1].isdigit():
            return int(after[i + 1])
        if not _MEMORY.match(word) and word not in _FORMS:
            break
    return None


def _name_cores(
    window: list[Token],
) -> list[tuple[list[Token], str | None, bool, bool]]:
    """For each span from the window's start (1 word, 2, ...): the name words of a model
    mention, the format its repo name states ("Llama-3.3-70B-Instruct-Q4_K_M.gguf" ->
    "Llama-3.3-70B-Instruct" and q4_k_m), whether the words hold a digit, whether the name
    words do. No name words when a format word comes first: no model mention starts there."""
    spans: list[tuple[list[Token], str | None, bool, bool]] = []
    core: list[Token] = []
    fmt, digit_said, digit_core = None, False, False
    fmt_generic = False  # a container word ("gguf") names no quant of its own
    for n, w in enumerate(window):
        text, said = _name_part(w.low)
        if not text and n == 0:
            return [([], said, False, False)] * len(window)
        if said and (fmt is None or fmt_generic):  # "...-GGUF Q5_K_M": the file's own quant
            fmt, fmt_generic = said, said == "q4_k_m" and "q4" not in w.low
        digit_said = digit_said or bool(_DIGIT.search(w.low))
        if text:  # a format word after the name is dropped: "llama 3 8b gguf"
            core = [*core, Token(w.start, w.end, text, text)]
            digit_core = digit_core or bool(_DIGIT.search(text))
        spans.append((core, fmt, digit_said, digit_core))
    return spans


@lru_cache(maxsize=1 << 14)
def _name_part(low: str) -> tuple[str, str | None]:
    """One word of a model mention without its format words, and the format they state:
    "instruct-q4_k_m.gguf" -> ("instruct", "q4_k_m"); ("", None) for a word of neither."""
    fmt = None
    kept = []
    for part in _FORMAT_SPLIT.split(low):
        if _FORMAT_WORDS.match(part):
            fmt = fmt or _format_precision(part)
        elif part:
            kept.append(part)
    return "-".join(kept), fmt


_FORMAT_SPLIT = re.compile(r"-|\.(?=(?:gguf|q\d\w*|awq|gptq|mlx|exl2|safetensors)\b)")


@lru_cache(maxsize=1 << 14)
def _slips_fixed(word: str, vocabulary: frozenset[str]) -> str:
    """`word` with each alphabetic run of four letters or more that is not in `vocabulary`
    replaced by the vocabulary word clearly nearest to it, if one is."""
    return _LETTER_RUN.sub(
        lambda m: (
            m.group(0)
            if m.group(0).lower() in vocabulary
            else _closest(m.group(0).lower(), vocabulary) or m.group(0)
        ),
        word,
    )


_LETTER_RUN = re.compile(r"[A-Za-z]{4,}")


def _size_slip_fixed(run: re.Match[str]) -> str:
    """A run of letters one slip from a size word ("laarge", "larg") as that word."""
    return _size_slip(run.group(0).lower()) or run.group(0)


@lru_cache(maxsize=1 << 14)
def _size_slip(low: str) -> str | None:
    """The size word `low` is one slip from, else None (once per word: names repeat)."""
    if low in _NAME_SIZES or low in _NOT_SIZE_SLIPS:
        return None
    return next((size for size in _NAME_SIZES if _one_edit(low, size)), None)


# size words that end model names ("GPT-2 Large", "Whisper Medium"), kept out of the typo
# vocabulary as common words, and the English words one letter from them that are no slips
# a GPU's name or its count mark after a bare number: "vs 2 3090s", "or 2 x a100"
_GPU_AFTER = re.compile(r"x|\d{3,4}\w*|rtx|gtx|rx|quadro|tesla|[ahlt]\d+\w*|v100\w*|mi\d+\w*")
_NAME_SIZES = frozenset({"large", "medium", "small", "base", "mini", "tiny", "turbo"})
# the words after a Whisper size that keep it a size ("the small model", "a tiny one"), not an
# adjective of something else ("that tiny TTS model")
# formats said of a base model: "fp16 base", "4-bit base" (a LoRA's frozen base)
_BASE_FORMATS = frozenset({"fp16", "bf16", "fp32", "fp8", "int8", "int4", "nf4", "4-bit",
                           "8-bit", "16-bit", "4bit", "8bit", "quantized", "quantised",
                           "frozen"})  # fmt: skip
_SIZE_NOUNS = frozenset({"model", "one", "version", "variant", "checkpoint", "en", "is", "or",
                         "and", "vs", "for", "on", "with", "in"})  # fmt: skip
_NOT_SIZE_SLIPS = frozenset({"larger", "based", "bases", "smaller", "minis", "tin", "tint"})
_DIGIT = re.compile(r"\d")
_CAPITAL_PLURAL = re.compile(r"[A-Z][A-Z0-9-]*\d+s")  # "V100s"


def _format_precision(word: str) -> str | None:
    word = word.strip(".").lower()
    if word in _FORMAT_PRECISION:
        return _FORMAT_PRECISION[word]
    if rx.fullmatch(r"iq[1-4]_(?:xxs|xs|s|m|nl)", word):
        return word  # llama.cpp's i-quants ("IQ2_XS", "UD-IQ1_S")
    word = rx.sub(r"^(q\d(?:_k)?)_xl$", r"\1", word)  # Unsloth's "Q2_K_XL": the type it extends
    quant = rx.fullmatch(r"q(\d)(_k)?(?:_([msl0]))?", word)
    if quant:
        bits, _k, kind = quant.groups()
        if kind == "0":
            return f"q{bits}_0"
        # a bare "Q4" is what llama.cpp users mean by default: Q4_K_M (Q8 is Q8_0, Q6 is Q6_K)
        return {
            "2": "q2_k",
            "3": "q3_k_m",
            "4": "q4_k_m",
            "5": "q5_k_m",
            "6": "q6_k",
            "8": "q8_0",
        }.get(bits)
    return None


# what follows a series' name to give its size, one letter: "n" of YOLOv8n ... "x" of YOLOv8x
_SIZE_MARK = r"[-_]?[nsmlxt]"


def _model_key(text: str) -> str:
    return model_key(text)


_DATA_NOUNS = frozenset(
    ("tokens", "token", "images", "samples", "examples", "rows", "words", "pics", "photos",
     "files", "requests", "users", "sentences", "documents", "docs", "steps", "hours")
)  # fmt: skip


def _size_after(words: list[Token], end: int) -> float | None:
    """A size written after a name ("mistral 7b"); never a dataset ("~1M images")."""
    if end < len(words):
        size = _SIZE.match(words[end].low)
        follows = words[end + 1].low if end + 1 < len(words) else ""
        if size and follows not in _DATA_NOUNS and float(size.group(1)) > 0:
            if size.group(2).lower() == "m" and follows not in ("model", "params", "parameters"):
                return None  # "1M" alone: a count far more often than a model size
            return float(size.group(1)) / (1000 if size.group(2).lower() == "m" else 1)
    return None


# what a size in millions is said of ("a 350m gpt", "125M params"): a model, not a count
_SIZED_NOUNS = ("model", "params", "parameter", "param", "gpt", "lm", "transformer")


# a model-shaped word right before a size ("grok-1 314b", "mamba 2.8b"): letters, perhaps a
# version; not a verb or preposition (_COMMON_WORDS), not a number
_NAME_BEFORE_SIZE = re.compile(
    r"[a-z]{3,}-v?\d+(?:\.\d+)?|(?:mamba|rwkv|jamba|grok|dbrx|zamba|bloomz?|pythia|mpt|opt"
    r"|persimmon|xverse|skywork|baichuan|aquila)\d*"
)


def _generic_size(words: list[Token], i: int) -> tuple[int, ModelRef] | None:
    """'a 13B model', '70b at q4', 'any 7b': a size with no model named."""
    j = i + 1 if words[i].low in ("a", "an", "the") else i
    if j >= len(words):
        return None
    size = _SIZE.match(_size_word(words[j].low))
    if not size:
        return None
    follows = words[j + 1].low if j + 1 < len(words) else ""
    if follows in _DATA_NOUNS:
        return None  # "1b tokens" is a dataset, not a model
    if size.group(2).lower() == "m" and follows not in _SIZED_NOUNS:
        return None  # "500m" alone is too often a distance, a count or a GPU ("4090m")
    stated = float(size.group(1)) / (1000 if size.group(2).lower() == "m" else 1)
    if not stated > 0:
        return None
    end = j + 1
    if end < len(words) and words[end].low in (*_SIZED_NOUNS, "llm"):
        end += 1
    note = None
    before = words[j - 1] if j > 0 and j == i else None
    if (before is not None and before.end + 1 == words[j].start
            and _NAME_BEFORE_SIZE.fullmatch(before.low) and before.low not in _COMMON_WORDS
            and not _NOT_GPU.match(before.low)):  # fmt: skip
        # "grok-1 314b", "mamba 2.8b": a name the catalog lacks, its size said: the size is
        # answered (as a dense transformer), and the name said to be missing
        note = (f"The catalog has no '{before.text} {words[j].text}': answering for a generic "
                f"dense model of {stated:g}B.")  # fmt: skip
    return end, ModelRef(" ".join(w.text for w in words[j:end]), (), "llm", stated, note=note)


def _params_b(model: Any) -> float | None:
    params = getattr(model, "total_params", None) or getattr(model, "params", None)
    if params is None:
        params = getattr(model, "denoiser_params", None)
    return params / 1e9 if params else None


def _same_architecture(models: list[Any]) -> bool:
    sizes = [_params_b(m) or 0 for m in models]
    return bool(sizes) and max(sizes) <= 1.02 * min(sizes)


@lru_cache(maxsize=4096)
@lru_cache(maxsize=1 << 14)
def _closest(word: str, vocabulary: frozenset[str]) -> str | None:
    """The vocabulary word clearly nearest to a misspelt one ("lamma" -> "llama"), or None when
    none is near or two are about as near."""
    scored = sorted(
        (
            (difflib.SequenceMatcher(None, word, v).ratio(), v)
            for v in vocabulary
            if abs(len(v) - len(word)) <= 2 and v[0] == word[0]
        ),
        reverse=True,
    )
    if not scored or scored[0][0] < 0.75:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < 0.1:
        # as near by ratio: one slip away ("distilll" -> "distill", not "distilled") decides
        close = [v for _r, v in scored[:3] if _one_edit(word, v)]
        return close[0] if len(close) == 1 else None
    return scored[0][1]


def _one_edit(a: str, b: str) -> bool:
    """One letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )  # fmt: skip
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# ---------------------------------------------------------------- building the index


def _gpu_keys(catalog: Catalog) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    explicit: dict[str, list[str]] = {}
    for gpu in catalog.gpus.values():
        for text in (gpu.id, gpu.name, *gpu.aliases):
            ids = explicit.setdefault(gpu_key(text), [])
            if gpu.id not in ids:
                ids.append(gpu.id)
    generated: dict[str, list[str]] = {}
    for key, ids in explicit.items():
        for variant in _gpu_variants(key):
            if variant not in explicit:
                bucket = generated.setdefault(variant, [])
                bucket.extend(i for i in ids if i not in bucket)
    keys = {k: tuple(v) for k, v in {**generated, **explicit}.items()}
    bases: dict[str, str] = {}
    for key, found in sorted(keys.items(), key=lambda kv: len(kv[0])):
        for gid in found:
            bases.setdefault(gid, key)
    names = {gid: _base_name(catalog, gid, key) for gid, key in bases.items()}
    return keys, names


def _gpu_variants(key: str) -> list[str]:
    out = []
    for prefix in _DROPPABLE:
        if key.startswith(prefix) and rx.search(r"\d", key[len(prefix) :]):
            rest = key[len(prefix) :]
            if not (rest.isdigit() and rest.endswith("000")):  # "4000", "6000": too vague alone
                out.append(rest)
    for k in [key, *out]:
        if k.endswith("super"):
            out.append(k[: -len("super")] + "s")
        if k.endswith("laptop"):
            out += [k[: -len("laptop")] + "mobile", k[: -len("laptop")] + "m"]
    return out


def _base_name(catalog: Catalog, gid: str, key: str) -> str:
    gpu = catalog.gpus[gid]
    for alias in sorted((gpu.name, *gpu.aliases), key=len):
        if gpu_key(alias) == key:
            return alias
    return gpu.name


def _model_index(catalog: Catalog) -> tuple[dict[str, tuple[tuple[str, str], ...]], frozenset[str]]:
    index: dict[str, list[tuple[str, str]]] = {}
    words: set[str] = set()
    for fam in FAMILIES.values():
        for model in models_of(catalog, fam).values():
            for text in (model.id, model.name, *model.aliases):
                key = _model_key(text)
                entry = (fam.name, model.id)
                bucket = index.setdefault(key, [])
                if entry not in bucket:
                    bucket.append(entry)
                words.update(w for w in rx.findall(r"[a-z]+", text.lower()) if len(w) >= 3)
    return {k: tuple(v) for k, v in index.items()}, frozenset(words - _COMMON_WORDS)


_LINKERS: dict[int, Linker] = {}


def _instance_table(
    catalog: Catalog,
) -> tuple[re.Pattern[str] | None, dict[str, tuple[str, int | None, str, str]]]:
    """One pattern for every instance name (with and without Azure's "Standard_"), and each
    AWS family ("p4d", "g5") whose sizes all hold the same GPU: name -> (gpu, count, provider,
    full name); the count is None for a family whose sizes differ in GPU count."""
    table: dict[str, tuple[str, int | None, str, str]] = {}
    families: dict[str, list[Any]] = {}
    for key, row in catalog.instances.items():
        table[key] = (row.gpu, row.count, row.provider, row.name)
        if row.provider.lower() == "azure":
            table[f"standard_{key}"] = table[key]
        if "." in key and row.provider.lower() == "aws":
            families.setdefault(key.split(".")[0], []).append(row)
    for family, rows in families.items():
        if len({r.gpu for r in rows}) == 1 and family not in table:
            counts = {r.count for r in rows}
            count = counts.pop() if len(counts) == 1 else None
            table[family] = (rows[0].gpu, count, rows[0].provider, rows[0].name)
    names = sorted(table, key=len, reverse=True)
    pattern = (
        re.compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, names)) + r")s?(?![\w-])", re.I)
        if names
        else None
    )
    if pattern is not None:  # "g5s" is the plural of the family: the table keeps the name
        table.update({f"{n}s": v for n, v in list(table.items()) if f"{n}s" not in table})
    return pattern, table


def linker_for(catalog: Catalog) -> Linker:
    """The linker of a catalog, built once per catalog."""
    linker = _LINKERS.get(id(catalog))
    if linker is None or linker.catalog is not catalog:
        gpu_keys, bases = _gpu_keys(catalog)
        named = frozenset(
            gpu_key(t) for g in catalog.gpus.values() for t in (g.id, g.name, *g.aliases)
        )
        model_keys, vocabulary = _model_index(catalog)
        order = tuple(
            (fam.name, mid) for fam in FAMILIES.values() for mid in models_of(catalog, fam)
        )
        first = frozenset(
            m.group(0)
            for fam in FAMILIES.values()
            for model in models_of(catalog, fam).values()
            if (m := rx.match(r"[a-z]{2,}", model.name.lower()))
        )
        gpu_words = frozenset(
            w
            for g in catalog.gpus.values()
            for t in (g.name, *g.aliases)
            for w in rx.findall(r"[a-z]{4,}", t.lower())
        )
        providers = frozenset(p.provider for p in catalog.prices if "/" not in p.provider)
        linker = Linker(
            catalog, gpu_keys, model_keys, bases, named, gpu_words, vocabulary, order, first,
            *_instance_table(catalog), providers,
        )  # fmt: skip
        _LINKERS[id(catalog)] = linker
    return linker
