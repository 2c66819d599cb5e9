"""Cards of different models in one machine, one model's layers split between them: llama.cpp's
layer split (`--split-mode layer`, the default over several GPUs; `--tensor-split` sets each
card's share, and by default the shares follow each card's free memory). Pure functions.

Memory: each card holds its share of the weights and of the KV cache (a layer's cache lives with
the layer) and, whatever its share, its own compute buffer and CUDA context; the model fits when
the weights and cache fit in what the cards have left beside those (the split chosen to fill each
card in proportion to its room, as the default split does).

Speed: one token passes the layers in turn, so a decode step is each card reading its share of
the layers at its own pace: the step's time is the sum of share / (the card's speed with the
whole model), and the slower card weighs in by the share it holds. A card's speed with the whole
model is the single-card estimate's (bandwidth-bound decode), which the calculator gives whether
the model fits on it or not.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SplitCard:
    """One card of a split: its usable memory, what it holds whatever its share (compute buffer
    and runtime), and its decode band (tokens/s) with the whole model."""

    gpu: str
    usable_gb: float
    fixed_gb: float
    decode: dict[str, float]


@dataclass(frozen=True)
class Split:
    fits: bool
    shares: tuple[float, ...]  # each card's share of the layers, in the order given
    memory_gb: tuple[float, ...]  # each card's need at its share
    decode: dict[str, float]  # the split's decode band, tokens/s
    room_gb: float  # what the cards have left beside their fixed parts, together


def layer_split(cards: list[SplitCard], shared_gb: float) -> Split:
    """The split of `shared_gb` (weights and KV cache) over `cards`, each share in proportion to
    the card's room beside its fixed part; the step's time the sum of share over speed."""
    rooms = [max(card.usable_gb - card.fixed_gb, 0.0) for card in cards]
    room = sum(rooms)
    shares = tuple(r / room if room else 1.0 / len(cards) for r in rooms)
    memory = tuple(
        card.fixed_gb + share * shared_gb for card, share in zip(cards, shares, strict=True)
    )
    decode = {
        key: 1.0
        / sum(share / card.decode[key] for card, share in zip(cards, shares, strict=True) if share)
        for key in ("low", "typical", "high")
    }
    return Split(shared_gb <= room, shares, memory, decode, room)
