"""Settings resolved from the environment at call time; importing this module does nothing."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from advisor.errors import InvalidInput

PACKAGE_DATA_DIR = Path(__file__).parent / "data"
ANSWER_ENGINES = ("rules", "local", "openai", "ollama")  # the agent's engines (ADVISOR_ENGINE)
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _default_dir(name: str) -> Path:
    """<checkout>/<name> when running from the project, else ./<name>."""
    in_checkout = PROJECT_ROOT / name
    return in_checkout if (PROJECT_ROOT / "pyproject.toml").is_file() else Path.cwd() / name


@dataclass(frozen=True)
class Settings:
    """Every knob the advisor reads from the environment (README: Configuration)."""

    data_dir: Path = PACKAGE_DATA_DIR
    corpus_dir: Path = PROJECT_ROOT / "corpus"
    index_dir: Path = PROJECT_ROOT / "index"
    chroma_host: str | None = None
    chroma_port: int = 8000
    # documents added with `gpu-advisor corpus add`, indexed beside the corpus; None: none
    documents_dir: Path | None = None

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        port_text = env.get("CHROMA_PORT", "8000")
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise InvalidInput(f"CHROMA_PORT must be a port number (got {port_text!r}).")
        return cls(
            data_dir=_path(env.get("ADVISOR_DATA_DIR")) or PACKAGE_DATA_DIR,
            corpus_dir=_path(env.get("ADVISOR_CORPUS_DIR")) or _default_dir("corpus"),
            index_dir=_path(env.get("ADVISOR_INDEX_DIR")) or _default_dir("index"),
            chroma_host=env.get("CHROMA_HOST") or None,
            chroma_port=int(port_text),
            documents_dir=_path(env.get("ADVISOR_DOCUMENTS_DIR")) or data_home() / "documents",
        )


def eval_dir() -> Path:
    """Where the golden set (golden/) and the evaluation reports (reports/) live: ADVISOR_EVAL_DIR,
    else eval/ of the checkout."""
    return _path(os.environ.get("ADVISOR_EVAL_DIR")) or _default_dir("eval")


def _path(value: str | None) -> Path | None:
    return Path(value).expanduser() if value else None


def data_home() -> Path:
    """Where the advisor keeps its own files (the local model, conversations, added documents):
    ADVISOR_HOME, else $XDG_DATA_HOME/gpu-advisor, else ~/.local/share/gpu-advisor."""
    env = os.environ
    if env.get("ADVISOR_HOME"):
        return Path(env["ADVISOR_HOME"]).expanduser()
    base = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "gpu-advisor"


def conversation_store() -> str:
    """Where the CLI and the servers keep conversations and feedback: ADVISOR_DATABASE_URL (a
    postgresql:// URL: every host shares them), else ADVISOR_CHECKPOINT (a SQLite file), else
    "sqlite" (threads.sqlite in the data home)."""
    env = os.environ
    url = (env.get("ADVISOR_DATABASE_URL") or "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput(
            "ADVISOR_DATABASE_URL must be a postgresql://user:password@host:port/database URL."
        )
    return url or env.get("ADVISOR_CHECKPOINT") or "sqlite"


SERVER_PORTS = {"UI": 7860, "API": 8080, "MCP": 8765, "SLACK": 3000}


def listen_address(kind: str) -> tuple[str, int]:
    """(host, port) a server binds: ADVISOR_<KIND>_HOST, default 127.0.0.1 (this machine only;
    set 0.0.0.0 deliberately to serve a network), and ADVISOR_<KIND>_PORT."""
    env = os.environ
    host = env.get(f"ADVISOR_{kind}_HOST") or "127.0.0.1"
    port_text = env.get(f"ADVISOR_{kind}_PORT") or str(SERVER_PORTS[kind])
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise InvalidInput(f"ADVISOR_{kind}_PORT must be a port number (got {port_text!r}).")
    return host, int(port_text)


def secret(name: str, *, required: str | None = None) -> str | None:
    """A secret from the environment only (never a file or a flag, never logged). `required`
    says what needs it; a missing required secret fails with how to set it."""
    value = os.environ.get(name) or None
    if value is None and required:
        raise InvalidInput(f"{required} needs {name}; set it in the environment.")
    return value
