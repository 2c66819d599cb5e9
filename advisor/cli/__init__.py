"""The `gpu-advisor` command: `main()` runs it, `run()` is the console script's entry point."""

from advisor.cli.main import cli, main, run

__all__ = ["cli", "main", "run"]
