"""The claims audit against the hand-made truth file: how many of the articles' wrong claims it
flags, and how many right ones it flags by mistake.

Run with `python -m eval.claims_audit` (or `python eval/claims_audit.py`). Prints the figures
and writes them to eval/results/claims_audit.md and .json. Target (issue 16): at least 14 of
the wrong claims flagged, no false alarm.

A truth entry is matched to an audit row of the same article, field and value whose GPUs
include the entry's; a row is used once, rows whose quote shares words with the entry's first.
A flag (a row that disagrees) on a right entry, or on a claim the truth file does not list, is
a false alarm.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.retrieval.claims import audit, extract_claims
from advisor.retrieval.ingest import chunk_document, corpus_files, read_document

ROOT = Path(__file__).resolve().parent.parent
TRUTH = ROOT / "eval" / "claims" / "truth.yaml"
CORPUS = ROOT / "corpus"
RESULTS = ROOT / "eval" / "results"


@dataclass
class Score:
    wrong: int = 0  # wrong claims in the truth file
    right: int = 0
    flagged: list[dict[str, Any]] = field(default_factory=list)  # wrong entries flagged
    missed: list[dict[str, Any]] = field(default_factory=list)  # wrong entries not flagged
    false_alarms: list[dict[str, Any]] = field(default_factory=list)  # right entries flagged
    unlisted_flags: list[dict[str, Any]] = field(default_factory=list)  # flags on unlisted claims
    right_checked: int = 0  # right entries the audit found and agreed with
    rows: int = 0

    def summary(self) -> dict[str, int]:
        return {"wrong_claims": self.wrong, "wrong_flagged": len(self.flagged),
                "wrong_missed": len(self.missed), "right_claims": self.right,
                "right_checked": self.right_checked, "false_alarms": len(self.false_alarms),
                "unlisted_flags": len(self.unlisted_flags), "audit_rows": self.rows}  # fmt: skip


def load_truth(path: Path = TRUTH) -> list[dict[str, Any]]:
    return list(yaml.safe_load(path.read_text(encoding="utf-8")))


def audit_corpus(corpus: Path = CORPUS) -> list[dict[str, Any]]:
    """The auditor's rows for every claim in the corpus articles."""
    chunks = [c for p in corpus_files(corpus) for c in chunk_document(read_document(p))]
    return audit(
        [
            (c.id, c.doc_id, c.section, extract_claims(c.text, c.section, published=c.published))
            for c in chunks
        ]
    )


def _same_value(stated: Any, value: Any) -> bool:
    if isinstance(stated, str) or isinstance(value, str):
        return str(stated).upper() == str(value).upper()
    return math.isclose(float(stated), float(value), rel_tol=2e-3)


def _overlap(a: str, b: str) -> int:
    a, b = " ".join(a.split()), " ".join(b.split())
    match = difflib.SequenceMatcher(None, a, b).find_longest_match(0, len(a), 0, len(b))
    return match.size


def score(truth: list[dict[str, Any]], rows: list[dict[str, Any]]) -> Score:
    result = Score(rows=len(rows))
    used: set[int] = set()
    for entry in truth:
        result.wrong += entry["verdict"] == "wrong"
        result.right += entry["verdict"] == "right"
        candidates = [
            i for i, r in enumerate(rows)
            if i not in used and r["doc"] == entry["doc"] and r["field"] == entry["field"]
            and entry["gpu"] in r["gpu_ids"] and _same_value(entry["stated"], r["value"])
        ]  # fmt: skip
        if entry["verdict"] == "wrong":  # a flag, if any, is what a wrong claim should meet
            candidates.sort(key=lambda i: rows[i]["status"] != "disagrees")
        candidates.sort(key=lambda i: -min(_overlap(entry["quote"], rows[i]["quote"]), 12))
        row = rows[candidates[0]] if candidates else None
        if candidates:
            used.add(candidates[0])
        flagged = row is not None and row["status"] == "disagrees"
        seen = {**entry, "audit": _brief(row)}
        if entry["verdict"] == "wrong":
            (result.flagged if flagged else result.missed).append(seen)
        elif flagged:
            result.false_alarms.append(seen)
        elif row is not None and row["status"] == "agrees":
            result.right_checked += 1
    result.unlisted_flags = [
        _fields(r) for i, r in enumerate(rows) if i not in used and r["status"] == "disagrees"
    ]
    return result


def _brief(row: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if row is None else _fields(row)


def _fields(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("doc", "gpu_text", "field", "value", "status", "note", "quote")
    return {k: row[k] for k in keys}


def run(truth_path: Path = TRUTH, corpus: Path = CORPUS) -> Score:
    return score(load_truth(truth_path), audit_corpus(corpus))


def report(result: Score) -> str:
    s = result.summary()
    lines = [
        "# Claims audit against eval/claims/truth.yaml",
        "",
        "`python -m eval.claims_audit`: the auditor (advisor/retrieval/claims.py) over the five "
        "articles in corpus/, scored against the hand-made truth file.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| wrong claims in the truth file | {s['wrong_claims']} |",
        f"| wrong claims flagged | {s['wrong_flagged']} |",
        f"| wrong claims missed | {s['wrong_missed']} |",
        f"| right claims in the truth file | {s['right_claims']} |",
        f"| right claims checked and agreed | {s['right_checked']} |",
        f"| false alarms on right claims | {s['false_alarms']} |",
        f"| flags on claims the truth file does not list | {s['unlisted_flags']} |",
        f"| audit rows (claims extracted) | {s['audit_rows']} |",
        "",
        "## Wrong claims",
        "",
        "| | article | quote | field | stated | datasheet | audit note |",
        "|---|---|---|---|---|---|---|",
    ]
    for seen, mark in [(e, "flagged") for e in result.flagged] + [
        (e, "missed") for e in result.missed
    ]:
        note = (seen["audit"] or {}).get("note", "") or seen.get("note", "")
        lines.append(
            f"| {mark} | {seen['doc']} | {_cell(seen['quote'])} | {seen['field']} | "
            f"{seen['stated']} | {_cell(str(seen['datasheet']))} | {_cell(note)} |"
        )
    for title, items in (("False alarms", result.false_alarms),
                         ("Flags on unlisted claims", result.unlisted_flags)):  # fmt: skip
        lines += ["", f"## {title}", ""]
        lines += [f"- {_cell(json.dumps(i, ensure_ascii=False))}" for i in items] or ["none"]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return re.sub(r"\s+", " ", text).replace("|", "\\|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    result = run()
    for key, value in result.summary().items():
        print(f"{key}: {value}")
    for entry in result.missed:
        print(f"missed: {entry['doc']}: {entry['quote']!r} ({entry['field']})")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "claims_audit.md").write_text(report(result), encoding="utf-8")
    data = {"summary": result.summary(), **{k: v for k, v in asdict(result).items()
                                            if isinstance(v, list)}}  # fmt: skip
    (args.out / "claims_audit.json").write_text(
        json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
