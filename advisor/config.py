"""Settings resolved from the environment at call time; importing this module does nothing."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Settings:
    """Every knob the advisor reads from the environment (README: Configuration)."""

    data_dir: Path = PACKAGE_DATA_DIR

    @classmethod
    def from_env(cls) -> Settings:
        data_dir = os.environ.get("ADVISOR_DATA_DIR")
        return cls(data_dir=Path(data_dir).expanduser() if data_dir else PACKAGE_DATA_DIR)
