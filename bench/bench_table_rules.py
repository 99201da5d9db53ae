"""How often each executor operation answers on TabFact train statements, and how often it is
right there: its precision is the operation's calibrated confidence (``verifier.tables.
OP_PRECISION``). No model is loaded. Operations are tried in ``OPS`` order and a statement counts
for the first one that answers, as in ``predict``.

    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --tables 3000
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

from verifier.tables import execute  # noqa: E402
from verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402
from verifier.training.tablesets import tabfact_items  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    ap.add_argument("--tables", type=int, default=3000, help="train tables sampled (seed 0)")
    ap.add_argument("--part", default="train", help="TabFact part (train, val_train)")
    ap.add_argument("--examples", type=int, default=0, help="print this many programs per op")
    args = ap.parse_args()
    items = tabfact_items(Path(args.data_dir), args.part)
    names = sorted({it.key for it in items})
    if args.tables and args.tables < len(names):
        names = set(random.Random(0).sample(names, args.tables))
    chosen = [it for it in items if it.key in names]
    fired, right, shown = Counter(), Counter(), Counter()
    start = time.perf_counter()
    for it in chosen:
        verdict = execute(it.claim, it.table)
        if verdict:
            fired[verdict.op] += 1
            right[verdict.op] += verdict.label == it.label
            if shown[verdict.op] < args.examples:
                shown[verdict.op] += 1
                print(f"[{verdict.op}] {it.label[:3]} -> {verdict.label[:3]} | {it.claim}")
                print(f"    {verdict.program}")
    seconds = time.perf_counter() - start
    ops = {op: {"fired": fired[op], "precision": round(right[op] / fired[op], 3)} for op in fired}
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
    print(
        "reproduce: PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py "
        + " ".join(sys.argv[1:])
    )


if __name__ == "__main__":
    main()
