"""Official evidence precision beside full-evidence coverage, as the evidence list is cut.

Reads a retrieval output (``wikicheck retrieve``: rows with ``evidence`` and their scores) and
its gold claims, and for each relevance share ``s`` keeps, per claim, the items scoring at least
``s`` x the best item's (``s`` = 0: everything, the shipped ``predicted_evidence``; the list a
person is shown uses 0.75 and at most 8, ``wikicheck.retriever.display``). Prints the official
scorer's evidence precision, full-evidence coverage and the mean list length at each share, so
the recall the scorer's list keeps and the precision a shorter one would buy are read together.
Measure on training/tune claims (``--recipe`` drops a recipe's held-out claims).

    wikicheck retrieve train_part.jsonl -o retrieved.jsonl --index-dir indexes/feverous-s
    python bench/bench_evidence_cut.py retrieved.jsonl --gold train_part.jsonl \\
        --recipe recipes/feverous-s.toml
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402

SHARES = (0.0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


def cut(evidence: list[dict], share: float) -> list[str]:
    """Ids of the items scoring at least ``share`` x the best one's, in their order."""
    if not evidence or share <= 0:
        return [e["id"] for e in evidence]
    best = max(e["score"] for e in evidence)
    return [e["id"] for e in evidence if e["score"] >= share * best]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("retrieved")
    ap.add_argument("--gold", required=True)
    ap.add_argument("--recipe", help="drop the claims this recipe's [holdout] reports")
    args = ap.parse_args()

    from wikicheck.annotations import Claim, Prediction
    from wikicheck.scoring.feverous import score_pairs

    print(header())
    gold = {}
    for line in open(args.gold, encoding="utf-8"):
        claim = Claim.from_dict(json.loads(line))
        gold[claim.id] = claim
    keep = None
    if args.recipe:
        from wikicheck.evaluation.recipe import load_recipe
        from wikicheck.evaluation.run import _in_training_part

        holdout = load_recipe(args.recipe).holdout
        keep = (lambda c: _in_training_part(c, holdout)) if holdout else None
    rows = [json.loads(line) for line in open(args.retrieved, encoding="utf-8")]
    rows = [r for r in rows if r["id"] in gold and (keep is None or keep(gold[r["id"]]))]
    print(f"{len(rows)} claims")
    print(f"{'share':>6} {'precision':>9} {'coverage':>8} {'items':>6}")
    for share in SHARES:
        pairs = [
            (gold[r["id"]], Prediction(id=r["id"], predicted_evidence=cut(r["evidence"], share)))
            for r in rows
        ]
        s = score_pairs(pairs)
        items = sum(len(p.predicted_evidence) for _, p in pairs) / max(len(pairs), 1)
        print(f"{share:>6.2f} {s['evidence_precision']:>9.3f} "
              f"{s['full_evidence_coverage']:>8.3f} {items:>6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
