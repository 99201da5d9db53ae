"""Oracle-setting scores and CPU speed of a verifier checkpoint on the held-out evaluation sets.

Sets (verifier.data.EVAL_SETS): FEVEROUS-S tune held-out 40% (2-way macro-F1), InfoTabs dev
(3-way accuracy), TabFact val held-out half of the tables (2-way accuracy), SNLI test (3-way
accuracy). ``--limit`` takes a deterministic random subset per set (seed 0). Prints one JSON line
per set with the claims/s the model reached, then the command that reproduces it.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_verifier.py --limit 1000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verifier import data  # noqa: E402
from verifier.model import DEFAULT_MODEL, Verifier  # noqa: E402
from verifier.train import scores  # noqa: E402
from wikicheck.model import LABELS  # noqa: E402

TWO_WAY = {"feverous_s_heldout", "tabfact_val_heldout"}
RULE_SETS = {"tabfact_val_heldout", "infotabs_dev", "semtab_dev"}


def tabfact_channels(data_dir: Path) -> list[str]:
    """ "simple"/"complex" (TabFact's r1/r2 table channels), aligned with tabfact_val_heldout."""
    tdir = data_dir / "tabfact"
    val = json.loads((tdir / "tokenized_data" / "val_examples.json").read_text(encoding="utf-8"))
    simple = set(json.loads((tdir / "data" / "simple_ids.json").read_text(encoding="utf-8")))
    names = sorted(n for n in val if not data.in_split(n, 0.5, "tabfact"))
    return [("simple" if n in simple else "complex") for n in names for _ in val[n][0]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(DEFAULT_MODEL))
    ap.add_argument("--data-dir", default=str(data.DEFAULT_DATA_DIR))
    ap.add_argument("--sets", default=",".join(data.EVAL_SETS))
    ap.add_argument("--limit", type=int, default=0, help="examples per set (0: all)")
    ap.add_argument("--max-length", type=int, default=None, help="default: the model's window")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--quantize", action="store_true", help="dynamic int8 (CPU)")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--table-rules", action="store_true", help="also score verifier.tables rules")
    ap.add_argument(
        "--thresholds",
        default="",
        help="2-way sets: also the accuracy when SUPPORTS needs log(P(S)/P(R)) >= T, e.g. 0,0.5,1",
    )
    args = ap.parse_args()
    v = Verifier.load(
        args.model,
        device=args.device,
        max_length=args.max_length,
        threads=args.threads or None,
        quantize=args.quantize,
    )
    for name in args.sets.split(","):
        exs = data.build_eval(name, Path(args.data_dir), v.tokenizer, v.max_length)
        keep = list(range(len(exs)))
        if args.limit and len(exs) > args.limit:
            keep = sorted(random.Random(0).sample(keep, args.limit))
        exs = [exs[i] for i in keep]
        start = time.perf_counter()
        probs = v.predict_pairs([e.claim for e in exs], [e.evidence for e in exs], args.batch_size)
        secs = time.perf_counter() - start
        two = name in TWO_WAY
        pred = [
            (0 if p[0] >= p[1] else 1) if two else max(range(3), key=p.__getitem__) for p in probs
        ]
        gold = [LABELS.index(e.label) for e in exs]
        res = scores(pred, gold, 2 if two else 3)
        res |= {
            "set": name,
            "labels": 2 if two else 3,
            "claims_per_s": round(len(exs) / secs, 1),
            "model": Path(args.model).name,
            "quantized": args.quantize,
            "device": str(v.device),
            "max_length": v.max_length,
            "predicted": {LABELS[k]: pred.count(k) for k in sorted(set(pred))},
        }
        if two and args.thresholds:
            ratio = [math.log(max(p[0], 1e-9)) - math.log(max(p[1], 1e-9)) for p in probs]
            res["accuracy_by_threshold"] = {
                t: round(
                    sum((r >= float(t)) == (g == 0) for r, g in zip(ratio, gold)) / len(gold), 4
                )
                for t in args.thresholds.split(",")
            }
        if name == "tabfact_val_heldout":
            channels = tabfact_channels(Path(args.data_dir))
            channel = [channels[i] for i in keep]
            res["accuracy_by_channel"] = {
                ch: round(
                    sum(pred[i] == gold[i] for i in range(len(gold)) if channel[i] == ch)
                    / max(1, channel.count(ch)),
                    4,
                )
                for ch in ("simple", "complex")
            }
        if args.table_rules and name in RULE_SETS:
            from verifier.tables import rule_labels_for

            rules = rule_labels_for(name, Path(args.data_dir))
            rules = [rules[i] for i in keep]
            fired = [i for i, r in enumerate(rules) if r]
            ruled = [LABELS.index(rules[i]) if rules[i] else p for i, p in enumerate(pred)]
            res["with_rules"] = scores(ruled, gold, 2 if two else 3)
            res["rules_fired"] = len(fired)
            res["model_acc_where_fired"] = round(
                sum(pred[i] == gold[i] for i in fired) / max(1, len(fired)), 4
            )
            res["rule_acc_where_fired"] = round(
                sum(ruled[i] == gold[i] for i in fired) / max(1, len(fired)), 4
            )
        print(json.dumps(res), flush=True)
    print(
        "reproduce: PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_verifier.py "
        + " ".join(sys.argv[1:])
    )


if __name__ == "__main__":
    main()
