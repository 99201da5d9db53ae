"""Would the table program executor help on *retrieved* evidence? (why it may not override there)

The executor's margin is calibrated on TabFact, where the table is the claim's own table. This
bench runs a recipe's retrieval and verifier (model only) on the *training* part of its claims
(the side its ``[holdout]`` leaves out, so the held-out figures stay untouched), then the
executor on each claim's retrieved evidence with the checkpoint's calibrated margin, and counts
how often it answers, how often that answer is right, and how many verdicts it would flip
(right / wrong). ``wikicheck.verifier.predict.executor_margin_for`` keeps it from overriding retrieved
evidence because of this count (``docs/verifier.md``).

Needs the recipe's index (``wikicheck evaluate feverous-s`` builds it once).

    WIKICHECK_CONVERTED=converted python bench/bench_executor_retrieved.py recipes/feverous-s.toml
    python bench/bench_executor_retrieved.py recipes/feverous-s.toml --limit 200
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import header  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("recipe")
    ap.add_argument("--limit", type=int, default=None, help="first N training-part claims")
    args = ap.parse_args(argv)

    from wikicheck.annotations import iter_claims
    from wikicheck.evaluation.recipe import load_recipe
    from wikicheck.evaluation.run import _in_training_part, load_verifier, predict_claims
    from wikicheck.indexer.stores import open_store
    from wikicheck.skips import SkipLog
    from wikicheck.verifier.predict import apply_table_verdict, table_verdict

    recipe = load_recipe(args.recipe)
    if recipe.holdout is None or not recipe.index_dir:
        sys.exit(
            f"{args.recipe}: needs a [holdout] (its training part is measured) and an index_dir"
        )
    claims = [
        c for c in iter_claims(recipe.claims, SkipLog()) if _in_training_part(c, recipe.holdout)
    ]
    claims = claims[: args.limit] if args.limit else claims
    verifier = load_verifier(recipe)
    margin = verifier.executor_margin
    if margin is None:
        sys.exit("the checkpoint has no calibrated executor margin")
    recipe.verifier = dict(recipe.verifier, table_executor=False)  # the model's own labels
    t0 = time.perf_counter()
    store = open_store(index_dir=recipe.index_dir)
    try:
        rows = predict_claims(recipe, claims, store, verifier=verifier)
        gold = {c.id: c.label for c in claims}
        counts = Counter(claims=len(rows))
        for row in rows:
            evidence = list(store.get(row["predicted_evidence"]).values())
            verdict = table_verdict(row["claim"], evidence, store)
            if verdict is None:
                continue
            model_label = row["predicted_label"]
            apply_table_verdict(row, verdict, margin)
            counts["answered"] += 1
            counts["executor_right"] += verdict.label == gold[row["id"]]
            counts["model_right_where_answered"] += model_label == gold[row["id"]]
            if row["predicted_label"] != model_label:
                counts["flipped"] += 1
                counts[
                    "flipped_right"
                    if row["predicted_label"] == gold[row["id"]]
                    else "flipped_wrong"
                ] += 1
    finally:
        store.close()
    out = {
        "recipe": recipe.name,
        "part": "training part (not the reported holdout)",
        "executor_margin": margin,
        **dict(counts),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(header(), file=sys.stderr)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
