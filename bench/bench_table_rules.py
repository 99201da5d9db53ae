"""How often each executor operation answers on TabFact train statements, and how often it is
right there, for each label it gives: that precision is the (operation, label)'s calibrated
confidence (``wikicheck.verifier.tables.OP_PRECISION``); ``--write`` stores the counts in
``wikicheck/verifier/executor_precision.json``, counted without the table benchmark's reported
tables (no fit reads the claims it reports). No model is loaded. Operations are tried in
``OPS`` order and a statement counts for the first one that answers, as in ``predict``.

    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --tables 0 --write \
        --exclude-tables TABLE-CLAIMS/claims.jsonl   # the table benchmark's --work folder

Changing the executor: keep each statement's answer from the code before the change
(``--answers``), then run again with ``--compare`` to see which answers moved and whether each
move mended or broke one. Leave the tables of the table benchmark's reported part out
(``--exclude-tables``, its ``claims.jsonl``), so that no rule is written against them:

    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --exclude-tables TB/claims.jsonl \
        --answers base.json
    # ... change wikicheck/verifier/tables ...
    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --exclude-tables TB/claims.jsonl \
        --answers new.json --compare base.json --examples 20
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

from wikicheck.verifier.tables import PRECISION_FILE, execute, failures  # noqa: E402
from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402
from wikicheck.verifier.training.tablesets import tabfact_items  # noqa: E402

#: One statement's answer: gold label, then the operation, its label and its program (None
#: where no operation answered).
Answer = list


def compare(base: dict[str, Answer], new: dict[str, Answer]) -> Counter:
    """How each statement's answer moved from ``base`` to ``new`` (the statements both hold):
    ``"<now>_was_<before>"`` with each of ``right``, ``wrong`` and ``none`` (no answer).
    Statements whose operation and label did not change are not counted."""
    moved: Counter = Counter()
    for key in base.keys() & new.keys():
        before, now = base[key], new[key]
        if before[1:3] == now[1:3]:
            continue

        def kind(a: Answer) -> str:
            return "none" if a[2] is None else "right" if a[2] == a[0] else "wrong"

        moved[f"{kind(now)}_was_{kind(before)}"] += 1
    return moved


def benchmark_tables(path: Path, source: str = "tabfact") -> set[str]:
    """The tables of ``source`` in the table benchmark's reported part (its ``claims.jsonl``:
    the rows with ``"part": "check"``)."""
    out = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{number}: not a JSON row ({e.msg})") from None
        if row.get("part") == "check" and row.get("source") == source:
            out.add(row["table"].split(":", 1)[-1])
    return out


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
    ap.add_argument("--answers", type=Path, help="write each statement's answer to this JSON")
    ap.add_argument("--compare", type=Path, help="an --answers file to compare the answers with")
    ap.add_argument(
        "--exclude-tables",
        type=Path,
        help="the table benchmark's claims.jsonl: leave its reported part's tables out",
    )
    args = ap.parse_args()
    if args.write and (args.tables or not args.exclude_tables):
        ap.error(
            "--write counts every train statement outside the table benchmark's reported "
            "tables: use --tables 0 --exclude-tables TABLE-CLAIMS/claims.jsonl"
        )
    base = None
    if args.compare:  # read first: a wrong file fails before the run, not after it
        try:
            base = json.loads(args.compare.read_text())
        except (OSError, json.JSONDecodeError) as e:
            ap.error(f"--compare {args.compare}: not an --answers file ({e})")
    items = tabfact_items(Path(args.data_dir), args.part)
    try:
        excluded = benchmark_tables(args.exclude_tables) if args.exclude_tables else set()
    except (OSError, ValueError) as e:
        ap.error(f"--exclude-tables: {e}")
    names = sorted({it.key for it in items} - excluded)
    if args.tables and args.tables < len(names):
        names = set(random.Random(args.seed).sample(names, args.tables))
    chosen = [it for it in items if it.key in names]
    fired, right, shown = Counter(), Counter(), Counter()
    by_label: dict[str, dict[str, dict[str, int]]] = {}
    start = time.perf_counter()
    answers: dict[str, Answer] = {}
    for it in chosen:
        verdict = execute(it.claim, it.table)
        answers[f"{it.key}|{it.claim}"] = [it.label, *(
            (verdict.op, verdict.label, verdict.program) if verdict else (None, None, None)
        )]  # fmt: skip
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
                "failures": failures(),  # operations that raised, skipped (logged above)
            }
        )
    )
    if args.answers:
        args.answers.write_text(json.dumps(answers))
    if base is not None:
        print(json.dumps({"compared_with": str(args.compare), **compare(base, answers)}))
        moved = [k for k in sorted(base.keys() & answers.keys()) if base[k][1:3] != answers[k][1:3]]
        for key in moved[: args.examples]:
            print(f"{base[key][0][:3]} | {key.split('|', 1)[1]}")
            print(f"    was: {base[key][3]}\n    now: {answers[key][3]}")
    argv = [
        "TABLE-CLAIMS/claims.jsonl" if args.exclude_tables and a == str(args.exclude_tables) else a
        for a in sys.argv[1:]
    ]  # the benchmark's work folder, wherever it is
    command = "PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py " + " ".join(argv)
    print("reproduce: " + command)
    if args.write:
        out = Path(__file__).resolve().parent.parent / "wikicheck" / "verifier" / PRECISION_FILE
        record = {
            "measured_on": f"TabFact {args.part}: {len(chosen)} statements of {len(names)} tables"
            f" (the table benchmark's {len(excluded)} reported tables left out)",
            "command": command,
            "counts": {op: dict(sorted(v.items())) for op, v in sorted(by_label.items())},
        }
        out.write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
