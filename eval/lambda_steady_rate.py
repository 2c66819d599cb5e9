"""Recompute the Lambda run_squad.py BERT rows of workloads.csv from the raw logs.

Every row of eval/calibration/workloads.csv whose note starts "derived: steady rate" was derived
from the raw run_squad.py logs of github:lambdal/deeplearning-benchmark (see the section "Lambda
run_squad.py BERT rows" of eval/calibration/README.md). This script re-derives each one from the
log files its note names, in the folder and at the commit its `source` names:

    steady rate = global batch x the median tqdm `Iteration` rate (it/s) over the progress-bar
                  updates after the first 10 training steps, each bar's closing update
                  (n == total: the partial last batch, and tqdm's repeat of it on close) left out;
                  the mean of that over the configuration's logs.

A bar cut short by --max_steps repeats its last update when it closes; that repeat is kept, as
the notes' update counts keep it. The row's date is the month of its latest log (the log's first
DLLogger timestamp; the file name, dd-mm-yyyy_HH-MM-SS.txt, says the same).

It prints one line per row: the published figure (Lambda's csv, i.e. run_squad.py's
training_sequences_per_second, or the shared row's value), the steady rate in workloads.csv, the
rate recomputed here and whether the two agree within 0.5% (the csv keeps 3 significant figures),
the updates/steps per log (flagged where they differ from the note's counts), and the row's date
(flagged where it is not the logs' month). Exit status: 0 all agree, 1 a row disagrees, 2 the
snapshot or the csv cannot be read.

It needs a local copy of the Lambda repository, so neither the tests nor CI run it:

    git clone https://github.com/lambdal/deeplearning-benchmark /tmp/deeplearning-benchmark
    python eval/lambda_steady_rate.py /tmp/deeplearning-benchmark

(a bare or mirrored git directory does as well: the logs are read with `git show COMMIT:PATH`,
so the clone needs commits aa5addb6 and 67a9bb51, not a checkout of them). `--commit SHA` reads
every log at that one commit instead of the commit each row's source names.
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

WORKLOADS_CSV = Path(__file__).resolve().parent / "calibration" / "workloads.csv"
NOTE_PREFIX = "derived: steady rate"
WARMUP_STEPS = 10  # updates up to this training step carry start-up (loss-scale search, caches)
TOLERANCE = 0.005  # agreement: recomputed within 0.5% of the csv's figure

# a tqdm update: "Iteration:  36%|███▋      | 101/278 [00:54<01:34,  1.88it/s]" (or "1.09s/it")
TQDM = re.compile(r"Iteration:\s*\d+%\|[^|]*\|\s*(\d+)/(\d+) \[[^\]]*?([\d.]+)(it/s|s/it)\]")
SOURCE = re.compile(r"github:lambdal/deeplearning-benchmark (\S+?)/?@([0-9a-f]{7,40})$")
DLL_TIME = re.compile(r"^DLL (\d{4}-\d\d)-\d\d ", re.M)
LOGS = re.compile(r"\(\d+ log\(s\): ([^;]+); (\d+) updates of (\d+) steps at global batch (\d+)\)")
PUBLISHED = (
    re.compile(r"published: the csv's ([\d.]+)"),  # W0606-W0670: Lambda's csv beside the logs
    re.compile(r"batch \d+, ([\d.]+) sequences/s, source"),  # re-derived shared rows
)


class SnapshotError(Exception):
    """The snapshot is missing, is not a git repository, or lacks a commit or a log."""


@dataclass(frozen=True)
class Row:
    id: str
    folder: str  # the log folder inside the repository
    commit: str
    logs: tuple[str, ...]
    global_batch: int
    value: float  # the steady rate in workloads.csv
    date: str  # workloads.csv's date: the month of the latest log
    published: float
    note_updates: int
    note_steps: int


@dataclass(frozen=True)
class Check:
    row: Row
    rate: float  # recomputed, sequences/s
    updates: tuple[int, ...]  # rates kept, per log
    steps: tuple[int, ...]  # training steps run, per log
    date: str  # the month the latest log ran (YYYY-MM)

    @property
    def date_agrees(self) -> bool:
        return self.row.date == self.date

    @property
    def counts_match_note(self) -> bool:
        """Every log kept as many updates, over as many steps, as the note says."""
        return set(self.updates) == {self.row.note_updates} and set(self.steps) == {
            self.row.note_steps
        }

    @property
    def agrees(self) -> bool:
        return abs(self.rate / self.row.value - 1) <= TOLERANCE


def load_rows(path: Path = WORKLOADS_CSV) -> list[Row]:
    """The rows whose note starts "derived: steady rate", with what their source and note name."""
    rows = []
    with path.open(newline="") as f:
        for r in csv.DictReader(f):
            if not r["note"].startswith(NOTE_PREFIX):
                continue
            source = SOURCE.search(r["source"])
            logs = LOGS.search(r["note"])
            published = next((m for p in PUBLISHED if (m := p.search(r["note"]))), None)
            if not (source and logs and published):
                raise ValueError(f"{r['id']}: source or note not in the expected form")
            rows.append(
                Row(
                    id=r["id"],
                    folder=source.group(1),
                    commit=source.group(2),
                    logs=tuple(name.strip() for name in logs.group(1).split(",")),
                    global_batch=int(logs.group(4)),
                    value=float(r["value"]),
                    date=r["date"],
                    published=float(published.group(1)),
                    note_updates=int(logs.group(2)),
                    note_steps=int(logs.group(3)),
                )
            )
    return rows


def read_log(repo: Path, commit: str, path: str) -> str:
    """A file of the snapshot at `commit` (git show), as text."""
    done = subprocess.run(
        ["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True, check=False
    )
    if done.returncode != 0:
        raise SnapshotError(f"{path} at {commit[:8]}: {done.stderr.decode().strip()}")
    return done.stdout.decode("utf-8", errors="replace")


def bar_updates(log: str) -> tuple[list[float], int]:
    """The it/s of the updates the rule keeps, and the number of training steps the log ran.

    tqdm redraws with a carriage return, so the log is split on both line ends. A bar whose
    counter falls back (0/35 after 35/35) is the next epoch; training steps run on across bars.
    """
    rates: list[float] = []
    done = 0  # steps of the bars already closed
    last = 0  # the current bar's counter
    for line in re.split(r"[\r\n]", log):
        m = TQDM.search(line)
        if not m:
            continue  # includes "0/35 [00:00<?, ?it/s]": a bar opening, no rate yet
        n, total, rate = int(m.group(1)), int(m.group(2)), float(m.group(3))
        if n < last:
            done += last
        last = n
        if done + n <= WARMUP_STEPS or n == total:
            continue
        rates.append(rate if m.group(4) == "it/s" else 1 / rate)
    return rates, done + last


def log_month(log: str) -> str:
    """The month (YYYY-MM) of the log's first DLLogger timestamp: when the run started."""
    m = DLL_TIME.search(log)
    if not m:
        raise SnapshotError("a log has no 'DLL YYYY-MM-DD' timestamp")
    return m.group(1)


def steady_rate(
    logs: list[str], global_batch: int
) -> tuple[float, tuple[int, ...], tuple[int, ...]]:
    """Global batch x the median kept rate, averaged over the logs; with each log's update and
    step counts."""
    per_log = [bar_updates(log) for log in logs]
    if any(not rates for rates, _ in per_log):
        raise SnapshotError("a log has no tqdm 'Iteration' rate after the first 10 steps")
    rate = statistics.mean(global_batch * statistics.median(rates) for rates, _ in per_log)
    return rate, tuple(len(r) for r, _ in per_log), tuple(steps for _, steps in per_log)


def check(repo: Path, row: Row, commit: str | None = None) -> Check:
    """Recompute one row from its logs (at `commit`, or the commit its source names)."""
    at = commit or row.commit
    logs = [read_log(repo, at, f"{row.folder}/{name}") for name in row.logs]
    rate, updates, steps = steady_rate(logs, row.global_batch)
    return Check(row, rate, updates, steps, max(log_month(log) for log in logs))


def table(checks: list[Check]) -> str:
    """A markdown table, one line per row, and the agreement count."""
    lines = [
        "| row | published | steady (csv) | recomputed | ratio | agrees | updates/steps per log "
        "| date (csv) |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    for c in checks:
        r = c.row
        counts = " ".join(sorted({f"{k}/{n}" for k, n in zip(c.updates, c.steps, strict=True)}))
        if not c.counts_match_note:
            counts += f" (note: {r.note_updates}/{r.note_steps})"
        lines.append(
            f"| {r.id} | {r.published:g} | {r.value:g} | {c.rate:.1f} | {c.rate / r.value:.4f} "
            f"| {'yes' if c.agrees else 'NO'} | {counts} "
            f"| {r.date}{'' if c.date_agrees else f' (logs: {c.date})'} |"
        )
    agree = sum(c.agrees for c in checks)
    dated = sum(c.date_agrees for c in checks)
    lines.append(f"\n{agree} of {len(checks)} rows agree within {TOLERANCE:.1%}.")
    lines.append(f"{dated} of {len(checks)} rows carry the month of their latest log as date.")
    return "\n".join(lines)


def open_snapshot(path: Path, commits: set[str]) -> Path:
    """The snapshot, checked to be a git repository holding `commits`; SnapshotError says what
    is wrong and what to do."""
    if not path.exists():
        raise SnapshotError(
            f"{path} does not exist. Fetch github:lambdal/deeplearning-benchmark (or git clone "
            "https://github.com/lambdal/deeplearning-benchmark) and pass its path."
        )
    if not _git_ok(path, "rev-parse", "--git-dir"):
        raise SnapshotError(f"{path} is not a git repository (git rev-parse failed).")
    for sha in sorted(commits):
        if not _git_ok(path, "cat-file", "-e", f"{sha}^{{commit}}"):
            raise SnapshotError(f"commit {sha} is not in {path} (a shallow or older clone?).")
    return path


def _git_ok(repo: Path, *args: str) -> bool:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True).returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mirror", type=Path, help="git directory or clone of the Lambda repo")
    parser.add_argument("--commit", help="read every log at this commit (default: the row's)")
    parser.add_argument("--csv", type=Path, default=WORKLOADS_CSV, help="workloads.csv to check")
    args = parser.parse_args(argv)
    try:
        rows = load_rows(args.csv)
        repo = open_snapshot(args.mirror, {args.commit or row.commit for row in rows})
        checks = [check(repo, row, args.commit) for row in rows]
    except (SnapshotError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(table(checks))
    return 0 if all(c.agrees and c.date_agrees for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
