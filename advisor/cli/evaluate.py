"""`gpu-advisor eval`: the golden Q&A set (eval/ of a checkout), scored and gated."""

from __future__ import annotations

import sys

import click

from advisor.cli.render import print_json
from advisor.config import eval_dir

EXIT_BELOW_THRESHOLD = 4  # the evaluation ran and fell below its thresholds


@click.command("eval")
@click.option("--engine", "-e", default="rules", show_default=True,
              help="rules, local, openai or ollama.")  # fmt: skip
@click.option("--category", "-c", help="Only one category (spec, cost, multi_turn, ...).")
@click.option("--subset", is_flag=True, help="Only the CI subset (12 cases) for slow engines.")
@click.option("--judge", help="Also score faithfulness with this LLM engine (reported only).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def eval_command(engine: str, category: str | None, subset: bool, judge: str | None,
                 as_json: bool) -> None:  # fmt: skip
    """Run the golden Q&A set, write eval/reports/, exit 4 below the thresholds."""
    folder = eval_dir()
    if not (folder / "golden").is_dir():
        raise click.UsageError(
            f"No golden set at {folder / 'golden'}: run from a source checkout, or set "
            "ADVISOR_EVAL_DIR to a folder with golden/ in it."
        )
    from advisor.api import Advisor
    from advisor.cli.retrieval import progress_bar
    from advisor.evaluation.runner import run

    advisor = Advisor(engine=engine)  # validates the engine name before any work
    with progress_bar(f"Evaluating ({engine})", not as_json) as update:
        try:
            report = run(engine, category=category, subset=subset, judge=judge,
                         progress=update, advisor=advisor)  # fmt: skip
        except ValueError as exc:
            raise click.UsageError(str(exc)) from exc
    summary = report.summary()
    below = report.failures_against_thresholds()
    if as_json:
        print_json({**summary, "below_thresholds": below})
    else:
        click.echo(f"{summary['passed']}/{summary['cases']} cases passed "
                   f"({summary['pass_rate']:.1%}); grounding {summary['grounding']:.0%}; "
                   f"citation integrity {summary['citation_integrity']:.0%}; "
                   f"latency p50 {summary['latency_p50_ms']} ms")  # fmt: skip
        for name, row in summary["per_category"].items():
            click.echo(f"  {name:15s} {row['passed']:3d}/{row['cases']:<3d} {row['pass_rate']:.0%}")
        click.echo(f"Report: {folder / 'reports' / engine}{'-subset' if subset else ''}.md")
    if below:
        click.echo("Below the thresholds: " + "; ".join(below), err=True)
        sys.exit(EXIT_BELOW_THRESHOLD)
