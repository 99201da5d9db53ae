"""Official evidence precision beside full-evidence coverage: the selection against everything.

Reads a retrieval output (``wikicheck retrieve``: rows with ``evidence`` and their scores) and
its gold claims, and scores, per claim, several ``predicted_evidence`` lists made from the same
retrieved items with the official scorer (at most 5 sentences and 25 cells read):

- ``all``: every retrieved item (``evidence_selection = "all"``), the anchor;
- ``relevance``: :func:`wikicheck.retriever.selection.select_predicted` with the default
  settings (the shipped ``predicted_evidence``), then with each threshold moved, so the
  sensitivity of each number is read in the same run;
- ``share s``: every item scoring at least ``s`` x the best item's (``evidence_share`` alone).

Prints evidence precision, full-evidence coverage and the mean list length per row, for each
``--gold`` file and for all of them together (choose rules on one part, check them on the other).
Measure on training/tune claims (``--recipe`` drops a recipe's held-out claims).

    wikicheck retrieve train_part.jsonl -o retrieved.jsonl --index-dir indexes/feverous-s
    python bench/bench_evidence_cut.py retrieved.jsonl --gold part_a.jsonl --gold part_b.jsonl \\
        --recipe recipes/feverous-s.toml
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402

SHARES = (0.5, 0.75)


def cut(evidence: list[dict], share: float) -> list[str]:
    """Ids of the items scoring at least ``share`` x the best one's, in their order."""
    if not evidence or share <= 0:
        return [e["id"] for e in evidence]
    best = max(e["score"] for e in evidence)
    return [e["id"] for e in evidence if e["score"] >= share * best]


def selections() -> list[tuple[str, Callable[[dict], list[str]]]]:
    """(name, row -> predicted ids): the anchor, the default rule, its variants, share cuts."""
    from wikicheck.retriever.config import RetrieverConfig
    from wikicheck.retriever.selection import Item, select_predicted

    default = RetrieverConfig().selection_rule()
    assert default is not None

    def rule_of(rule):
        def pick(row: dict) -> list[str]:
            items = [Item(e["id"], e["type"], e["page"], e["score"]) for e in row["evidence"]]
            return select_predicted(items, row["claim"], rule)

        return pick

    out: list[tuple[str, Callable[[dict], list[str]]]] = [
        ("all (anchor)", lambda row: [e["id"] for e in row["evidence"]]),
        ("relevance (default)", rule_of(default)),
    ]
    for field, values in (
        ("kind_margin", (0.0, 1e9)),
        ("page_gap", (0.4, 0.6, 1e9)),
        ("named_page_gap", (0.7, 1.0)),
    ):
        for value in values:
            shown = "off" if value >= 1e9 else f"{value:g}"
            rule = dataclasses.replace(default, **{field: value})
            out.append((f"  {field}={shown}", rule_of(rule)))
    for share in SHARES:
        out.append((f"share {share:g}", lambda row, s=share: cut(row["evidence"], s)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("retrieved")
    ap.add_argument("--gold", required=True, action="append", help="gold claims (repeatable)")
    ap.add_argument("--recipe", help="drop the claims this recipe's [holdout] reports")
    args = ap.parse_args()

    from wikicheck.annotations import Claim, Prediction
    from wikicheck.scoring.feverous import score_pairs

    print(header())
    parts: list[tuple[str, dict]] = []
    for path in args.gold:
        gold = {}
        for line in open(path, encoding="utf-8"):
            claim = Claim.from_dict(json.loads(line))
            gold[claim.id] = claim
        parts.append((Path(path).name, gold))
    keep = None
    if args.recipe:
        from wikicheck.evaluation.recipe import load_recipe
        from wikicheck.evaluation.run import _in_training_part

        holdout = load_recipe(args.recipe).holdout
        keep = (lambda c: _in_training_part(c, holdout)) if holdout else None
    rows = [json.loads(line) for line in open(args.retrieved, encoding="utf-8")]
    if len(parts) > 1:
        parts.append(("all", {k: v for _, g in parts for k, v in g.items()}))
    chosen = selections()
    for name, gold in parts:
        part = [r for r in rows if r["id"] in gold and (keep is None or keep(gold[r["id"]]))]
        print(f"\n{name}: {len(part)} claims")
        print(f"{'selection':<22} {'precision':>9} {'coverage':>8} {'items':>6}")
        anchor = None
        for label, pick in chosen:
            pairs = [
                (gold[r["id"]], Prediction(id=r["id"], predicted_evidence=pick(r))) for r in part
            ]
            s = score_pairs(pairs)
            items = sum(len(p.predicted_evidence) for _, p in pairs) / max(len(pairs), 1)
            precision, coverage = s["evidence_precision"], s["full_evidence_coverage"]
            anchor = anchor or (precision, coverage)
            ratio = f"x{precision / anchor[0]:.2f}" if anchor[0] else ""
            print(f"{label:<22} {precision:>9.3f} {coverage:>8.3f} {items:>6.1f}  "
                  f"precision {ratio} vs anchor")  # fmt: skip


if __name__ == "__main__":
    main()
