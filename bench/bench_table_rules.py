"""How often each table rule fires on TabFact train statements, and how often it is right there.

This is how ``verifier.tables.RULES`` was chosen (keep a rule right on >= 60% of the statements
it fires on); no model is loaded, so it takes seconds. Rules are tried in ``RULES`` order and a
statement counts for the first rule that answers, as in ``predict --table-rules``.

    PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py --tables 1500
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verifier import data  # noqa: E402
from verifier.tables import RULES, rule_verdict  # noqa: E402
from wikicheck.model import REFUTES, SUPPORTS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(data.DEFAULT_DATA_DIR))
    ap.add_argument("--tables", type=int, default=1500, help="train tables sampled (seed 0)")
    args = ap.parse_args()
    tdir = Path(args.data_dir) / "tabfact"
    with gzip.open(tdir / "tokenized_data" / "train_examples.reconstructed.json.gz", "rt") as f:
        train = json.load(f)
    names = sorted(train)
    if args.tables and args.tables < len(names):
        names = sorted(random.Random(0).sample(names, args.tables))
    csvs = data._tabfact_csvs(tdir, set(names))
    fired, right, statements = Counter(), Counter(), 0
    for name in (n for n in names if n in csvs):
        texts, labels, caption = train[name]
        cells = data.tabfact_table(name, csvs[name], "" if caption == "none" else caption)
        for text, label in zip(texts, labels, strict=True):
            statements += 1
            verdict = rule_verdict(text, cells)
            if verdict:
                fired[verdict[0]] += 1
                right[verdict[0]] += verdict[1] == (SUPPORTS if label == 1 else REFUTES)
    print(
        json.dumps(
            {
                "statements": statements,
                "tables": len(names),
                "rules": {
                    r: {"fired": fired[r], "precision": round(right[r] / max(1, fired[r]), 3)}
                    for r in RULES
                },
            }
        )
    )
    print(
        "reproduce: PYTHONPATH=. .venv/bin/python bench/bench_table_rules.py "
        + " ".join(sys.argv[1:])
    )


if __name__ == "__main__":
    main()
