"""Oracle-setting scores and CPU speed of a verifier checkpoint on the evaluation sets.

Sets (``wikicheck.verifier.training.evalsets``): FEVEROUS-S tune held-out 40% (2-way macro-F1 and 3-way
output), InfoTabs dev (3-way accuracy), TabFact val held-out half of the tables (2-way accuracy),
SEM-TAB-FACTS dev (task A 3-way micro-F1), SNLI test (3-way accuracy), and the tuning set
``tabfact_val_train`` (where the executor margin is chosen; never reported as a result).
Table sets are read through the converters, exactly as ``predict --gold-evidence`` reads them.
``--limit`` takes a deterministic random subset per set (seed 0). One JSON line per set, then the
command that reproduces it.

- ``--focus none|rows|full``: table focusing measured alone (none: table order; rows: rows
  ranked; full: rows ranked and unrelated columns of wide tables dropped, the default).
- ``--executor``: the table program executor on table sets: where it answers, its accuracy and
  the model's, and the accuracy combined by ``wikicheck.verifier.tables.combine`` at each ``--margins``
  value (and at the checkpoint's own margin).
- ``--dump DIR``: each set's probabilities as JSONL, to study combinations without the model.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_verifier.py --limit 1000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wikicheck.model import LABELS  # noqa: E402
from wikicheck.verifier.focus import NO_FOCUS, ROWS_ONLY, FocusConfig  # noqa: E402
from wikicheck.verifier.model import DEFAULT_MODEL, Verifier, three_way_label, two_way_label  # noqa: E402
from wikicheck.verifier.tables import combine, execute  # noqa: E402
from wikicheck.verifier.train import scores  # noqa: E402
from wikicheck.verifier.training import evalsets, tablesets  # noqa: E402
from wikicheck.verifier.training.sources import DEFAULT_DATA_DIR  # noqa: E402

TWO_WAY = {"feverous_s_heldout", "tabfact_val_heldout", "tabfact_val_train"}
#: Sets whose gold evidence always decides the claim: their 3-way output is also reported.
DECIDED = {"feverous_s_heldout", "tabfact_val_heldout", "tabfact_val_train"}
FOCUS = {"none": NO_FOCUS, "rows": ROWS_ONLY, "full": FocusConfig()}


def tabfact_channels(data_dir: Path, keys: list[str]) -> list[str]:
    """ "simple"/"complex" (TabFact's r1/r2 table channels) of each item's table file."""
    simple_path = data_dir / "tabfact" / "data" / "simple_ids.json"
    simple = set(json.loads(simple_path.read_text(encoding="utf-8")))
    return ["simple" if k in simple else "complex" for k in keys]


def _accuracy(pred: list[int], gold: list[int], idx: list[int]) -> float | None:
    return round(sum(pred[i] == gold[i] for i in idx) / len(idx), 4) if idx else None


def _executor(res: dict, items: list, probs: list, pred: list, gold: list, args, v) -> None:
    """Executor verdicts on ``items``, and the accuracy combined at each margin."""
    two = res["labels"] == 2
    start = time.perf_counter()
    verdicts = [execute(it.claim, it.table) for it in items]
    per_claim_ms = (time.perf_counter() - start) * 1000 / max(1, len(items))
    fired = [i for i, vd in enumerate(verdicts) if vd]
    exec_pred = {i: LABELS.index(verdicts[i].label) for i in fired}
    res["executor"] = {
        "answered": len(fired),
        "executor_acc": _accuracy([exec_pred.get(i, -1) for i in range(len(gold))], gold, fired),
        "model_acc": _accuracy(pred, gold, fired),
        "ms_per_claim": round(per_claim_ms, 2),
        "by_op": {},
    }
    for op in sorted({verdicts[i].op for i in fired}):
        idx = [i for i in fired if verdicts[i].op == op]
        res["executor"]["by_op"][op] = {
            "n": len(idx),
            "executor_acc": _accuracy([exec_pred.get(i, -1) for i in range(len(gold))], gold, idx),
            "model_acc": _accuracy(pred, gold, idx),
        }
    margins = [float(m) for m in args.margins.split(",")]
    if v.executor_margin is not None:
        margins.append(v.executor_margin)
    combined = {}
    for m in margins:
        out = list(pred)
        for i in fired:
            prob = dict(zip(LABELS, probs[i], strict=True))
            if combine(verdicts[i], prob, m):
                out[i] = exec_pred[i]
        combined[str(m)] = scores(out, gold, 2 if two else 3)["accuracy"]
    res["executor"]["accuracy_by_margin"] = combined
    if v.executor_margin is not None:
        res["executor"]["checkpoint_margin"] = v.executor_margin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(DEFAULT_MODEL))
    ap.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    ap.add_argument("--sets", default=",".join(evalsets.EVAL_SETS))
    ap.add_argument("--limit", type=int, default=0, help="examples per set (0: all)")
    ap.add_argument("--max-length", type=int, default=None, help="default: the model's window")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--quantize", action="store_true", help="dynamic int8 (CPU)")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--focus", choices=sorted(FOCUS), default="full")
    ap.add_argument("--executor", action="store_true", help="also score the table executor")
    ap.add_argument("--margins", default="-inf,-0.2,-0.1,0,0.1,0.2,inf")
    ap.add_argument("--dump", default="", help="write each set's probabilities to DIR/SET.jsonl")
    args = ap.parse_args()
    data_dir = Path(args.data_dir)
    v = Verifier.load(
        args.model,
        device=args.device,
        max_length=args.max_length,
        threads=args.threads or None,
        quantize=args.quantize,
    )
    for name in args.sets.split(","):
        exs = evalsets.build_eval(name, data_dir, v.tokenizer, v.max_length, FOCUS[args.focus])
        keep = list(range(len(exs)))
        if args.limit and len(exs) > args.limit:
            keep = sorted(random.Random(0).sample(keep, args.limit))
        exs = [exs[i] for i in keep]
        start = time.perf_counter()
        probs = v.predict_pairs([e.claim for e in exs], [e.evidence for e in exs], args.batch_size)
        secs = time.perf_counter() - start
        two = name in TWO_WAY
        items = list(tablesets.items_of(name, data_dir)) if name in evalsets.TABLE_SETS else []
        items = [items[i] for i in keep] if items else []
        # the checkpoint's SUPPORTS threshold for the kind of evidence (Verifier.supports_threshold)
        plain = v.sentence_threshold if name in evalsets.SENTENCE_SETS else 0.5
        cut = [v.supports_threshold(it.table) for it in items] or [plain] * len(probs)
        nei = v.sentence_nei_margin if name in evalsets.SENTENCE_SETS else v.nei_margin
        three = [
            LABELS.index(three_way_label(dict(zip(LABELS, p)), nei, t))
            for p, t in zip(probs, cut, strict=True)
        ]
        pred = (
            [
                LABELS.index(two_way_label(dict(zip(LABELS, p)), t))
                for p, t in zip(probs, cut, strict=True)
            ]
            if two
            else three
        )
        gold = [LABELS.index(e.label) for e in exs]
        res = scores(pred, gold, 2 if two else 3)
        res |= {
            "set": name,
            "labels": 2 if two else 3,
            "claims_per_s": round(len(exs) / secs, 1),
            "model": Path(args.model).name,
            "focus": args.focus,
            "quantized": args.quantize,
            "device": str(v.device),
            "max_length": v.max_length,
            "nei_margin": nei,
            "table_threshold": v.table_threshold,
            "sentence_threshold": v.sentence_threshold,
            "predicted": {LABELS[k]: pred.count(k) for k in sorted(set(pred))},
        }
        if name in DECIDED:
            res["three_way_output"] = scores(three, gold, 2)
            res["three_way_output"]["nei_predicted"] = three.count(2)
        if name.startswith("tabfact_") and items:
            channel = tabfact_channels(data_dir, [it.key for it in items])
            res["accuracy_by_channel"] = {
                ch: _accuracy(pred, gold, [i for i, c in enumerate(channel) if c == ch])
                for ch in ("simple", "complex")
            }
        if args.executor and items:
            _executor(res, items, probs, pred, gold, args, v)
        if args.dump:
            Path(args.dump).mkdir(parents=True, exist_ok=True)
            with open(Path(args.dump) / f"{name}.jsonl", "w", encoding="utf-8") as f:
                for e, p in zip(exs, probs, strict=True):
                    f.write(json.dumps({"claim": e.claim, "label": e.label, "probs": p}) + "\n")
        print(json.dumps(res), flush=True)
    print(
        "reproduce: PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_verifier.py "
        + " ".join(sys.argv[1:])
    )


if __name__ == "__main__":
    main()
