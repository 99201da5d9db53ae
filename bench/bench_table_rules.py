"""How often each executor operation answers on TabFact train statements, and how often it is
right there, for each label it gives: that precision is the (operation, label)'s calibrated
confidence (``wikicheck.verifier.tables.OP_PRECISION``); ``--write`` stores the counts in
``wikicheck/verifier/executor_precision.json``. No model is loaded. Operations are tried in ``OPS`` order
and a statement counts for the first one that answers, as in ``predict``.

    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --tables 0 --write
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wikicheck.verifier.tables import PRECISION_FILE, execute  # noqa: E402
from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402
from wikicheck.verifier.training.tablesets import tabfact_items  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    ap.add_argument("--tables", type=int, default=3000, help="train tables sampled (0: all)")
    ap.add_argument("--seed", type=int, default=0, help="which sample of tables")
    ap.add_argument("--part", default="train", help="TabFact part (train, val_train)")
    ap.add_argument("--examples", type=int, default=0, help="print this many programs per op")
    ap.add_argument(
        "--write", action="store_true", help=f"store the counts in verifier/{PRECISION_FILE}"
    )
    args = ap.parse_args()
    items = tabfact_items(Path(args.data_dir), args.part)
    names = sorted({it.key for it in items})
    if args.tables and args.tables < len(names):
        names = set(random.Random(args.seed).sample(names, args.tables))
    chosen = [it for it in items if it.key in names]
    fired, right, shown = Counter(), Counter(), Counter()
    by_label: dict[str, dict[str, dict[str, int]]] = {}
    start = time.perf_counter()
    for it in chosen:
        verdict = execute(it.claim, it.table)
        if verdict:
            fired[verdict.op] += 1
            right[verdict.op] += verdict.label == it.label
            c = by_label.setdefault(verdict.op, {}).setdefault(
                verdict.label, {"fired": 0, "right": 0}
            )
            c["fired"] += 1
            c["right"] += verdict.label == it.label
            if shown[verdict.op] < args.examples:
                shown[verdict.op] += 1
                print(f"[{verdict.op}] {it.label[:3]} -> {verdict.label[:3]} | {it.claim}")
                print(f"    {verdict.program}")
    seconds = time.perf_counter() - start
    ops = {
        op: {"fired": fired[op], "precision": round(right[op] / fired[op], 3)}
        | {lab[:3]: round(c["right"] / c["fired"], 3) for lab, c in by_label[op].items()}
        for op in fired
    }
    total = sum(fired.values())
    print(
        json.dumps(
            {
                "part": args.part,
                "statements": len(chosen),
                "tables": len(names),
                "answered": total,
                "coverage": round(total / max(1, len(chosen)), 3),
                "precision": round(sum(right.values()) / max(1, total), 3),
                "statements_per_s": round(len(chosen) / max(seconds, 1e-9), 1),
                "ops": ops,
            }
        )
    )
    command = "PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py " + " ".join(sys.argv[1:])
    print("reproduce: " + command)
    if args.write:
        out = Path(__file__).resolve().parent.parent / "wikicheck" / "verifier" / PRECISION_FILE
        record = {
            "measured_on": f"TabFact {args.part}: {len(chosen)} statements of {len(names)} tables",
            "command": command,
            "counts": {op: dict(sorted(v.items())) for op, v in sorted(by_label.items())},
        }
        out.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
