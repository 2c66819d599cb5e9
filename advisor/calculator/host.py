"""The CPU's share of an LLM in llama.cpp: a model too big for the card keeps its last layers in
system RAM, and the CPU runs those (`-ngl N` puts the first N on the GPU; ollama picks N itself).
Decoding reads every weight once per token, so each part takes its bytes over its own memory's
bandwidth: the GPU's layers at the card's decode speed, the CPU's at the RAM's.

RAM bandwidth is the DDR data rate x 8 bytes a channel x channels (a desktop has two, a
Threadripper four or eight, an EPYC twelve); llama.cpp's CPU decode reaches HOST_DECODE_SHARE of it.
A model run on the CPU alone (device CPU: an LLM in llama.cpp, Whisper) reads its weights the
same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import InvalidInput

CPU = "cpu"  # the device of a request run on the CPU alone, from system RAM
# what the operating system and the rest keep of a machine's RAM
HOST_RESERVED_GB = 4.0
# a current desktop when the question names no RAM: dual-channel DDR5-5600
DEFAULT_RAM = "ddr5-5600"
DEFAULT_CHANNELS = 2
# the memory slots each kind of platform reads in parallel
CHANNEL_CHOICES = (1, 2, 4, 6, 8, 12, 16, 24)
# DDR generations' common data rates (MT/s) when only the generation is said
GENERATION_RATE = {"ddr3": 1600, "ddr4": 3200, "ddr5": 5600, "lpddr5": 6400, "lpddr5x": 8533}
RAM_FORM = re.compile(r"(?P<gen>(?:lp)?ddr[345]x?)(?:[-\s]?(?P<rate>\d{4}))?")
# share of the RAM's theoretical bandwidth llama.cpp's CPU decode reaches (weights read per token
# x tokens/s / theoretical): `python -m eval.host_fit` fits it on the CPU-only rows of
# eval/calibration/host.csv marked "fit" (C008, C009, C011, C013-C016, C018, C024: the median of
# each source's median, 0.640)
HOST_DECODE_SHARE = 0.64


@dataclass(frozen=True)
class HostMemory:
    """System RAM as the CPU reads it."""

    ram: str  # "ddr5-5600"
    channels: int
    gbps: float  # theoretical GB/s

    @property
    def label(self) -> str:
        return f"{self.channels}-channel {self.ram.upper()} ({self.gbps:.0f} GB/s)"


def ram_notes(ram: str | None, ram_gb: float | None, label: str, needs: str) -> list[str]:
    """What a CPU-alone estimate assumed of the machine's RAM: its kind when not given, and its
    size less what the system keeps, or that the figure is what `needs` ("the model") takes."""
    notes = [f"system RAM not given: {label} assumed"] if ram is None else []
    if ram_gb:
        notes.append(f"{ram_gb:g} GB of RAM, {HOST_RESERVED_GB:g} GB of it kept by the system "
                     "and other programs")  # fmt: skip
    else:
        notes.append(f"RAM size not given: the figure is what {needs} needs")
    return notes


def host_memory(ram: str | None = None, channels: int | None = None) -> HostMemory:
    """The RAM said ("DDR5-5600", "ddr4"), on the channels said; a current desktop's unsaid."""
    text = (ram or DEFAULT_RAM).lower().replace(" ", "")
    form = RAM_FORM.fullmatch(text)
    if form is None:
        raise InvalidInput(f"RAM {ram!r} not understood; write it as DDR5-5600, DDR4-3200 or DDR5.")
    gen = form["gen"]
    rate = int(form["rate"] or GENERATION_RATE.get(gen, 3200))
    if not 800 <= rate <= 12000:
        raise InvalidInput(f"RAM data rate {rate} MT/s is outside 800-12000.")
    n = channels or DEFAULT_CHANNELS
    if n not in CHANNEL_CHOICES:
        raise InvalidInput(f"Memory channels {n}: use one of {CHANNEL_CHOICES}.")
    return HostMemory(f"{gen}-{rate}", n, rate * 8 * n / 1000)


def host_token_seconds(weight_bytes: float, host: HostMemory) -> float:
    """Seconds the CPU spends per generated token reading `weight_bytes` from RAM."""
    return weight_bytes / (host.gbps * 1e9 * HOST_DECODE_SHARE)


def layers_on_gpu(layer_gb: float, fixed_gb: float, usable_gb: float, layers: int) -> int:
    """How many of a model's layers (each `layer_gb` with its KV cache) the card holds beside
    what stays whatever the split (`fixed_gb`: buffers, runtime, the output head)."""
    if layer_gb <= 0:
        return layers
    return max(0, min(layers, int((usable_gb - fixed_gb) / layer_gb)))
