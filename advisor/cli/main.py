"""The `gpu-advisor` command line: one command per noun.

Bad input prints one line on stderr and exits 2; a broken data file exits 3; no tracebacks.
Catalog commands import nothing heavier than PyYAML, click and rich.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from advisor import __version__
from advisor.catalog import load_catalog
from advisor.cli.ask import ask_command, chat_command, llm_group
from advisor.cli.catalog import gpus, models, prices
from advisor.cli.cost import cost_group
from advisor.cli.estimate import estimate_command
from advisor.cli.evaluate import eval_command
from advisor.cli.retrieval import corpus_group, index_command, search_command
from advisor.cli.serve import mcp_command, serve_command, slack_command, ui_command
from advisor.errors import AdvisorError, CatalogError

EXIT_USAGE = 2  # bad input: unknown or ambiguous name, bad option value
EXIT_DATA = 3  # a data file is missing or invalid
EXIT_INTERNAL = 1  # a bug


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gpu-advisor")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """GPU Advisor: which GPU for this ML job, and will it fit."""
    if ctx.invoked_subcommand is None:
        catalog = load_catalog()
        click.echo(
            f"GPU Advisor {__version__}: {len(catalog.gpus)} GPUs and {len(catalog.models)} "
            "models in the catalog.\n"
        )
        click.echo(ctx.get_help())
        click.echo(
            '\nTry: gpu-advisor ask "Can I fine-tune Llama-3-8B with QLoRA on an RTX A4000?"'
        )


for command in (gpus, models, prices, cost_group, ask_command, chat_command, llm_group,
                estimate_command, eval_command, index_command, search_command, corpus_group,
                ui_command, serve_command, mcp_command, slack_command):  # fmt: skip
    cli.add_command(command)


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; turn every expected failure into one line on stderr and an exit code."""
    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="gpu-advisor",
            standalone_mode=False,
        )
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return 0
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        click.echo(f"gpu-advisor: {exc.format_message()}{hint}", err=True)
        return EXIT_USAGE
    except click.exceptions.Abort:
        click.echo("gpu-advisor: aborted", err=True)
        return 130
    except CatalogError as exc:
        click.echo(f"gpu-advisor: data error: {exc}", err=True)
        return EXIT_DATA
    except AdvisorError as exc:
        click.echo(f"gpu-advisor: {exc}", err=True)
        return EXIT_USAGE
    except BrokenPipeError:  # `gpu-advisor gpus list | head`
        sys.stderr.close()
        return 0
    except Exception as exc:  # a bug: say so in one line; ADVISOR_DEBUG=1 shows the traceback
        if os.environ.get("ADVISOR_DEBUG"):
            raise
        click.echo(
            f"gpu-advisor: internal error ({type(exc).__name__}: {exc}). "
            "Please report it; set ADVISOR_DEBUG=1 to see the traceback.",
            err=True,
        )
        return EXIT_INTERNAL
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
