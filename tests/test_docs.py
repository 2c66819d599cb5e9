"""The README tells the truth: its commands, its CLI help block, its figures."""

from __future__ import annotations

import re
import sys

import click
from click.testing import CliRunner

from advisor.catalog import load_catalog
from advisor.cli import cli
from tests.conftest import REPO

README = REPO / "README.md"
HELP_COMMANDS = [[], ["gpus"], ["models"], ["llm"]]
BLOCK = re.compile(r"<!-- cli-help:start -->\n(.*?)<!-- cli-help:end -->", re.DOTALL)


def render_help() -> str:
    runner = CliRunner()
    parts = []
    for args in HELP_COMMANDS:
        result = runner.invoke(cli, [*args, "--help"], prog_name="gpu-advisor", terminal_width=100)
        assert result.exit_code == 0, result.output
        parts.append(f"$ {' '.join(['gpu-advisor', *args, '--help'])}\n{result.output}")
    return "```\n" + "\n".join(parts) + "```\n"


def test_readme_cli_help_block_is_current() -> None:
    match = BLOCK.search(README.read_text(encoding="utf-8"))
    assert match, "README lacks the cli-help block"
    assert match.group(1) == render_help(), "run `python -m tests.test_docs` to regenerate"


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert [line for line in ci.splitlines() if line.startswith("make")] == ["make test"]
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)
    # torch is installed before the package, so pip keeps the CPU build
    assert makefile.index('"$(TORCH)"') < makefile.index("-e '.[dev,ui")


def test_readme_counts_match_the_catalog() -> None:
    text = README.read_text(encoding="utf-8")
    catalog = load_catalog()
    assert f"{len(catalog.gpus)} GPUs" in text
    assert f"{len(catalog.models)} open LLMs" in text
    assert f"{len(catalog.prices)} dated rental prices" in text


def test_every_cli_command_is_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    for group, command in cli.commands.items():
        if isinstance(command, click.Group):
            for name in command.commands:
                assert f"gpu-advisor {group} {name}" in text, f"{group} {name}"
        else:
            assert f"gpu-advisor {group} " in text, group


if __name__ == "__main__":  # python -m tests.test_docs: rewrite the README block
    fresh = f"<!-- cli-help:start -->\n{render_help()}<!-- cli-help:end -->"
    README.write_text(BLOCK.sub(lambda _: fresh, README.read_text(encoding="utf-8")), "utf-8")
    sys.exit(0)
