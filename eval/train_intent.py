"""Train the intent model (advisor/agent/intent_model.py) and check it by leaving one writer out.

    python -m eval.train_intent [--check-only]

Data: the one-turn cases of eval/golden/natural/ (a follow-up's intent comes from its thread),
each a question written by an outside test writer with the intent it asks. Trained on the sets
already read and tuned on: `dev` and fresh2 ... fresh21 (fresh17 excepted). Never trained on:
the `held-out` half (the parser's untouched split, scored here) and the blind sets
(understanding.BLIND_SPLITS, scored here as counts only, never printed case by case).

Check: each fresh set in turn is left out, the model trained on the rest, and the set scored
three ways: the cues of intents.py alone, the model alone, and the two together as shipped (the
model overrules the cues only at OVERRULE_AT / CUES_BELOW). Every fresh set is a new writer's, so
leaving one out asks what the model does for a writer it has never read; the cues were tuned on
every one of them, so their figure on a left-out set flatters them.

Writes advisor/data/intent_model.json.gz (unless --check-only), eval/results/intent_model.json
and .md. Needs scikit-learn (installed with sentence-transformers) for the fit only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from advisor.agent import intent_model
from advisor.agent.understand import understand
from advisor.catalog import load_catalog
from advisor.errors import InvalidInput
from advisor.evaluation.understanding import BLIND_SPLITS, load_natural, split_of

RESULTS = Path(__file__).resolve().parent / "results"
C = 10.0  # inverse L2 strength of the logistic regression (the first value tried, not tuned)
MIN_DF = 2  # a term in fewer questions than this is no feature
PRUNE = 0.02  # weights smaller than this are dropped from the shipped file


def examples() -> list[dict[str, Any]]:
    """One row per one-turn natural case: split, wanted intent, the cues' intent, features."""
    catalog = load_catalog()
    rows = []
    for case in load_natural():
        want = (case.get("query") or {}).get("intent")
        if not want or len(case["turns"]) != 1:
            continue
        try:
            query = understand(case["turns"][0], catalog)
        except InvalidInput:
            continue  # refused before an intent is read: the cues' alone
        rows.append({
            "split": split_of(case["id"]),
            "want": want,
            "cues": query.cues_intent or query.intent,
            "blocks": intent_model.features(query.low, intent_model.shape(query)),
            "query": query,
        })  # fmt: skip
    return rows


def fit(train: list[dict[str, Any]]) -> dict[str, Any]:
    """The model file's content, fitted on `train`."""
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    df: Counter[str] = Counter()
    for row in train:
        for block, counts in row["blocks"].items():
            df.update(f"{block}:{term}" for term in counts)
    terms = sorted(t for t, n in df.items() if n >= MIN_DF)
    vocab = {t: i for i, t in enumerate(terms)}
    n = len(train)
    idf = [math.log((1 + n) / (1 + df[t])) + 1.0 for t in terms]
    data, rows, cols = [], [], []
    for r, row in enumerate(train):
        for i, v in intent_model.vector(row["blocks"], vocab, idf).items():
            rows.append(r)
            cols.append(i)
            data.append(v)
    x = csr_matrix((data, (rows, cols)), shape=(n, len(terms)))
    model = LogisticRegression(C=C, max_iter=3000).fit(x, [row["want"] for row in train])
    lines, biases = model.coef_.tolist(), model.intercept_.tolist()
    if len(lines) == 1:  # two classes: one logit z, which is the softmax of -z/2 and z/2
        lines = [[-w / 2 for w in lines[0]], [w / 2 for w in lines[0]]]
        biases = [-biases[0] / 2, biases[0] / 2]
    coef = [{str(i): round(float(w), 4) for i, w in enumerate(line) if abs(w) >= PRUNE}
            for line in lines]  # fmt: skip
    return {
        "classes": [str(c) for c in model.classes_],
        "terms": terms,
        "idf": [round(v, 5) for v in idf],
        "coef": coef,
        "intercept": [round(float(b), 5) for b in biases],
    }


def scored(model: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, int]:
    """Right intents of the cues, the model alone and both as shipped, on `rows`."""
    model = {**model, "vocab": {t: i for i, t in enumerate(model["terms"])}}
    out = Counter(n=len(rows))
    for row in rows:
        cues = replace(row["query"], intent=row["cues"], cues_intent=None)
        chance = intent_model.probabilities(cues, model)
        alone = max(chance, key=chance.__getitem__)
        shipped = intent_model.overruled(cues, model) or row["cues"]
        out["cues"] += _same(row["cues"], row["want"])
        out["model"] += alone == row["want"]
        out["shipped"] += _same(shipped, row["want"])
        out["overruled"] += shipped != row["cues"]
    return dict(out)


def _same(got: str, want: str) -> bool:
    return intent_model.AS_CLASS.get(got, got) == want


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--check-only", action="store_true", help="do not write the model file")
    opts = args.parse_args(argv)
    rows = examples()
    never = {*BLIND_SPLITS, "held-out"}
    trained_on = sorted({r["split"] for r in rows if r["split"] not in never})
    train = [r for r in rows if r["split"] in trained_on]
    left_out = {}
    for split in [s for s in trained_on if s.startswith("fresh")]:
        print(f"leaving out {split} ...", file=sys.stderr, flush=True)
        model = fit([r for r in train if r["split"] != split])
        left_out[split] = scored(model, [r for r in train if r["split"] == split])
    final = fit(train)
    total = Counter()
    for counts in left_out.values():
        total.update(counts)
    held = scored(final, [r for r in rows if r["split"] == "held-out"])
    blind = scored(final, [r for r in rows if r["split"] in BLIND_SPLITS])
    report = {
        "command": "python -m eval.train_intent",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "trained_on": {s: sum(r["split"] == s for r in rows) for s in trained_on},
        "rule": {"overrule_at": intent_model.OVERRULE_AT, "cues_below": intent_model.CUES_BELOW},
        "leave_one_set_out": left_out,
        "leave_one_set_out_total": dict(total),
        "held_out": held,
        "blind": blind,
        "features": len(final["terms"]),
        "weights_kept": sum(len(c) for c in final["coef"]),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "intent_model.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "intent_model.md").write_text(_markdown(report))
    if not opts.check_only:
        final["trained_on"] = report["trained_on"]
        final["command"] = report["command"]
        final["date"] = report["date"]
        with gzip.open(intent_model.MODEL_FILE, "wt", encoding="utf-8") as handle:
            json.dump(final, handle, separators=(",", ":"))
        print(f"wrote {intent_model.MODEL_FILE}")
    print(_markdown(report))
    return 0


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "n/a"


def _markdown(report: dict[str, Any]) -> str:
    lines = [
        "# Intent model: one writer left out at a time",
        "",
        f"`{report['command']}` · {report['date']} · features {report['features']:,}, weights "
        f"kept {report['weights_kept']:,} · overrules the cues at p >= "
        f"{report['rule']['overrule_at']} when the cues' intent has p < "
        f"{report['rule']['cues_below']}",
        "",
        "Right intents of one-turn questions. Cues = intents.py alone (tuned on every set "
        "below, so flattered on them); model = the model alone; shipped = both, as "
        "understand() runs them.",
        "",
        "| set | questions | cues | model alone | shipped | overruled |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, c in [*report["leave_one_set_out"].items(),
                    ("**all left out**", report["leave_one_set_out_total"]),
                    ("held-out (never trained on)", report["held_out"]),
                    ("blind sets (never trained on or read)", report["blind"])]:  # fmt: skip
        n = c["n"]
        lines.append(f"| {name} | {n} | {_pct(c['cues'], n)} | {_pct(c['model'], n)} | "
                     f"{_pct(c['shipped'], n)} | {c['overruled']} |")  # fmt: skip
    lines += ["", "Trained on: " + ", ".join(f"{s} ({n})" for s, n in
                                            report["trained_on"].items()), ""]  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
