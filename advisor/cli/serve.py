"""`gpu-advisor ui`, `serve`, `mcp` and `slack`: the advisor behind a web page, a REST API, the
Model Context Protocol and Slack. The servers live in `ui/` (imported only when started, so the
rest of the CLI never loads a web framework); each binds 127.0.0.1 unless told otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from advisor.cli.ask import ENGINE_HELP
from advisor.config import listen_address, secret
from advisor.errors import InvalidInput

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


@contextmanager
def _extra(extra: str) -> Iterator[None]:
    """Around the import of a server: a missing optional package says which extra brings it."""
    try:
        yield
    except ImportError as exc:
        raise InvalidInput(
            f"This needs {exc.name or 'a package'} (pip install 'gpu-advisor[{extra}]')."
        ) from exc


def _advisor(engine: str | None) -> Any:
    from advisor.api import Advisor
    from advisor.config import conversation_store

    # conversations in PostgreSQL (ADVISOR_DATABASE_URL) or SQLite (ADVISOR_CHECKPOINT, else
    # under the data home): they survive a restart, and workers sharing one store continue each
    # other's threads
    advisor = Advisor(engine=engine, checkpoint=conversation_store())
    _first_index()
    click.echo("Loading the index and the embedding model ...", err=True)
    advisor.warm_up()  # before the address is printed: the first question is then quick
    return advisor


def _first_index() -> None:
    """On a first start there is no index yet: build it here, with a progress bar."""
    from advisor.cli.retrieval import progress_bar
    from advisor.config import Settings
    from advisor.retrieval.embed import default_embedder
    from advisor.retrieval.index import store_for, update_index

    settings = Settings.from_env()
    if store_for(settings).read_manifest() is None:
        click.echo("First start: indexing the articles (once) ...", err=True)
        with progress_bar("Embedding passages", True) as update:
            update_index(settings, default_embedder(), progress=update)


def _address(kind: str, host: str | None, port: int | None, guarded: bool) -> tuple[str, int]:
    default_host, default_port = listen_address(kind)
    host, port = host or default_host, port or default_port
    if host not in _LOOPBACK and not guarded:
        click.secho(
            f"Warning: serving on {host}, reachable from other machines, with no "
            "password or key set.",
            fg="yellow",
            err=True,
        )
    return host, port


HOST = click.option("--host", help="Address to bind (default 127.0.0.1: this machine only).")
PORT = click.option("--port", type=click.IntRange(1, 65535), help="Port to listen on.")


@click.command("ui")
@click.option("--engine", "-e", help=ENGINE_HELP)
@HOST
@PORT
def ui_command(engine: str | None, host: str | None, port: int | None) -> None:
    """Open the chat in a browser (Gradio); ADVISOR_UI_PASSWORD asks for a sign-in."""
    with _extra("ui"):
        from ui import app
    password = secret("ADVISOR_UI_PASSWORD")
    host, port = _address("UI", host, port, password is not None)
    app.launch(_advisor(engine), host=host, port=port, password=password)


@click.command("serve")
@click.option("--engine", "-e", help=ENGINE_HELP)
@HOST
@PORT
def serve_command(engine: str | None, host: str | None, port: int | None) -> None:
    """Serve the REST API (OpenAPI at /docs); ADVISOR_API_KEY asks every /v1 call for a key."""
    with _extra("serve"):
        import uvicorn

        from ui import rest
    key = secret("ADVISOR_API_KEY")
    host, port = _address("API", host, port, key is not None)
    app = rest.create_app(_advisor(engine), api_key=key)
    uvicorn.run(app, host=host, port=port, log_level="warning")


@click.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio for a local client; http: streamable HTTP at /mcp.",
)
@HOST
@PORT
def mcp_command(transport: str, host: str | None, port: int | None) -> None:
    """Publish the calculator and corpus search as Model Context Protocol tools."""
    with _extra("mcp"):
        from ui import mcp_server as server
    if transport == "http":
        host, port = _address("MCP", host, port, guarded=False)
        server.serve("http", host=host, port=port)
    else:
        server.serve("stdio")


@click.command("slack")
@click.option("--mode", type=click.Choice(["socket", "http"]), default="socket",
              show_default=True, help="Socket Mode (SLACK_APP_TOKEN) or HTTP events "
              "(SLACK_SIGNING_SECRET) at /slack/events.")  # fmt: skip
@HOST
@PORT
def slack_command(mode: str, host: str | None, port: int | None) -> None:
    """Run the Slack bot; SLACK_BOT_TOKEN and the mode's secret come from the environment."""
    with _extra("slack"):
        from ui import slack
    # the tokens are checked before anything slow is loaded
    secret("SLACK_BOT_TOKEN", required="The Slack bot")
    if mode == "http":
        secret("SLACK_SIGNING_SECRET", required="Slack HTTP mode")
        host, port = _address("SLACK", host, port, guarded=True)  # Slack signs every request
    else:
        secret("SLACK_APP_TOKEN", required="Slack Socket Mode")
        host, port = listen_address("SLACK")
    slack.serve(mode, _advisor(None), host=host, port=port)
