"""`gpu-advisor ui | serve | mcp | slack`: what they say before they serve anything."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from advisor.cli import main
from advisor.cli import serve as cli_serve
from advisor.errors import InvalidInput


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["slack"], {}, "The Slack bot needs SLACK_BOT_TOKEN"),
        (["slack"], {"SLACK_BOT_TOKEN": "x"}, "Slack Socket Mode needs SLACK_APP_TOKEN"),
        (["slack", "--mode", "http"], {"SLACK_BOT_TOKEN": "x"},
         "Slack HTTP mode needs SLACK_SIGNING_SECRET"),
        (["serve"], {"ADVISOR_API_PORT": "eighty"}, "ADVISOR_API_PORT must be a port number"),
        (["ui", "--port", "70000"], {}, "70000 is not in the range"),
        (["mcp", "--transport", "carrier-pigeon"], {}, "'carrier-pigeon' is not one of"),
    ],
)  # fmt: skip
def test_missing_secrets_and_bad_settings_are_one_line(
    args: list[str], env: dict[str, str], message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_extra_names_the_pip_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(InvalidInput, match=r"pip install 'gpu-advisor\[ui\]'"):  # noqa: SIM117
        with cli_serve._extra("ui"):
            import gradio_that_is_not_installed  # type: ignore[import-not-found]  # noqa: F401
    # the real command, with the server's module made unimportable
    # (and not an attribute of the ui package either: another test may have imported it)
    import ui

    monkeypatch.setitem(sys.modules, "ui.app", None)
    monkeypatch.delattr(ui, "app", raising=False)
    assert main(["ui"]) == 2
    assert "pip install 'gpu-advisor[ui]'" in capsys.readouterr().err


def test_serving_other_machines_without_a_key_is_warned_about(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_serve._address("API", None, None, guarded=False) == ("127.0.0.1", 8080)
    assert capsys.readouterr().err == ""
    assert cli_serve._address("API", "0.0.0.0", 9000, guarded=False) == ("0.0.0.0", 9000)
    assert "reachable from other machines, with no password or key" in capsys.readouterr().err
    cli_serve._address("API", "0.0.0.0", 9000, guarded=True)
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_a_first_start_indexes_the_articles_then_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.servers import free_port, gpu_advisor, wait_for

    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ADVISOR_INDEX_DIR", str(tmp_path / "no-index-yet"))
    port = free_port()
    with gpu_advisor("serve", "--port", str(port)) as proc:
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=300, proc=proc)
    output = proc.stdout.read() if proc.stdout else ""
    assert "First start: indexing the articles" in output
    assert (tmp_path / "no-index-yet" / "manifest.json").is_file()
