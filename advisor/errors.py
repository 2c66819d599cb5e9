"""The advisor's errors. Every message is written for the person who typed the input."""

from __future__ import annotations

from collections.abc import Sequence


class AdvisorError(Exception):
    """Base class: the message is user-facing and says how to fix the problem."""


class CatalogError(AdvisorError):
    """A data file (gpus.yaml, models.yaml, prices.yaml) is missing or invalid."""


class InvalidInput(AdvisorError, ValueError):
    """An argument is out of range or malformed."""


class UnknownName(AdvisorError, KeyError):
    """A name the catalog does not know; carries "did you mean" suggestions."""

    kind = "name"

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = list(suggestions)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        text = f"Unknown {self.kind} {self.name!r}."
        if self.suggestions:
            text += " Did you mean: " + ", ".join(self.suggestions) + "?"
        return text

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


class UnknownGPU(UnknownName):
    kind = "GPU"


class UnknownModel(UnknownName):
    kind = "model"


class AmbiguousName(AdvisorError, LookupError):
    """A name that fits several catalog entries; carries them instead of guessing."""

    kind = "name"

    def __init__(self, name: str, candidates: Sequence[tuple[str, str]]) -> None:
        self.name = name
        self.candidates = list(candidates)  # (id, display name), most common first
        super().__init__(self.message)

    @property
    def candidate_ids(self) -> list[str]:
        return [cid for cid, _ in self.candidates]

    @property
    def message(self) -> str:
        options = ", ".join(f"{name} ({cid})" for cid, name in self.candidates)
        return f"{self.kind} {self.name!r} is ambiguous; it could be: {options}. Say which one."

    def __str__(self) -> str:
        return self.message


class AmbiguousGPU(AmbiguousName):
    kind = "GPU"


class AmbiguousModel(AmbiguousName):
    kind = "Model"
