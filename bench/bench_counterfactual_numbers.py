"""True claims with one number or year changed: how often are they still SUPPORTED?

From FEVEROUS-S tune claims labelled SUPPORTS (the 60% the shipped verifier trained on; never
the held-out part) that state a number, year or quantity, one value is changed (a year by 1-10,
a number by 20-60%, written the way the claim wrote it) and the claim is retrieved and verified
3-way. Reported: the share still answered SUPPORTS (goal <= 0.15), the share REFUTES, and the
same for the unchanged claims (what the number check costs on true claims); the anchor is the
model's own label before the evidence checks, measured in the same run.

    python bench/bench_counterfactual_numbers.py --index indexes/feverous-s --limit 200 \\
        --work /tmp/counterfactual
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._common import header  # noqa: E402
from bench.bench_absent_evidence import DATA, rescore, run_claims  # noqa: E402
from wikicheck.common.split import hash32, split_hash  # noqa: E402


def _pick(key: str, options: list) -> object:
    return options[hash32(key) % len(options)]


def changed(claim: str, key: str) -> tuple[str, str, str] | None:
    """The claim with its first measurable value changed: (new claim, old value, new value)."""
    from wikicheck.common.quantities import quantities
    from wikicheck.verifier.sufficiency import _is_name_part

    for q in quantities(claim):
        if _is_name_part(claim, q):
            continue
        if q.kind in ("year", "date") and q.year is not None:
            old = str(q.year)
            delta = _pick(key, [1, 2, 3, 4, 5, 7, 10, -1, -2, -3, -5, -10])
            new = str(q.year + delta)
            at = claim.index(old, q.start)
            return claim[:at] + new + claim[at + len(old) :], old, new
        if q.kind in ("number", "length", "area", "mass", "percent", "speed", "flow") or (
            q.kind.startswith("money")
        ):
            import re

            m = re.search(r"\d[\d,]*(?:\.\d+)?", claim[q.start : q.end])
            if not m:
                continue
            old = m.group(0)
            digits = old.replace(",", "")
            decimals = len(digits.split(".")[1]) if "." in digits else 0
            x = float(digits)
            factor = _pick(key, [1.2, 1.3, 1.5, 0.6, 0.7])
            y = round(x * factor, decimals)
            if decimals == 0:
                y = int(y) if int(y) != int(x) else int(x) + 1
            new = f"{y:,}" if "," in old else str(y)
            at = q.start + m.start()
            return claim[:at] + new + claim[at + len(old) :], old, new
    return None


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--claims", help="FEVEROUS-S dev-tune claims")
    ap.add_argument("--index", required=True, help="index of the claims' corpus (pages present)")
    ap.add_argument("--work", required=True, help="cached rows")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--rescore", action="store_true", help="re-run the checks on cached rows")
    args = ap.parse_args(argv)
    print(header())
    from wikicheck.annotations import Claim, iter_claims
    from wikicheck.skips import SkipLog

    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    path = args.claims or DATA / "feverous" / "feverous_s_dev_tune.jsonl"
    originals, counterfactuals = [], []
    for c in iter_claims(str(path), SkipLog()):
        if c.label != "SUPPORTS" or split_hash(str(c.id), "wikicheck") >= 0.6:
            continue  # true claims of the tune part only
        made = changed(c.claim, str(c.id))
        if made is None:
            continue
        text, old, new = made
        originals.append(c)
        counterfactuals.append(Claim(id=f"{c.id}-cf", claim=text, label="REFUTES",
                                     extra={"changed": [old, new]}))  # fmt: skip
    order = sorted(range(len(originals)), key=lambda i: split_hash(str(originals[i].id), "cf"))
    order = order[: args.limit] if args.limit else order
    originals = [originals[i] for i in order]
    counterfactuals = [counterfactuals[i] for i in order]
    t0 = time.perf_counter()
    cf_rows = run_claims(
        counterfactuals, args.index, work / "rows-counterfactual.jsonl", args.batch
    )
    true_rows = run_claims(originals, args.index, work / "rows-original.jsonl", args.batch)
    if args.rescore:
        cf_rows, true_rows = rescore(cf_rows, args.index), rescore(true_rows, args.index)

    def rates(rows: list[dict], key: str) -> dict:
        labels = Counter(r.get(key) or r.get("model_label") or r["predicted_label"] for r in rows)
        n = len(rows) or 1
        return {k: round(labels[k] / n, 4) for k in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")}

    result = {
        "claims": len(cf_rows),
        "counterfactual": rates(cf_rows, "predicted_label"),
        "counterfactual_model_only": rates(cf_rows, "label_before_checks"),
        "original": rates(true_rows, "predicted_label"),
        "original_model_only": rates(true_rows, "label_before_checks"),
        "number_conflicts": sum(bool(r["sufficiency"]["numbers"]["conflicts"]) for r in cf_rows),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(f"counterfactual claims: {len(cf_rows)}; SUPPORTS {result['counterfactual']['SUPPORTS']:.3f}"
          f" (model alone, same run: {result['counterfactual_model_only']['SUPPORTS']:.3f}); "
          f"REFUTES {result['counterfactual']['REFUTES']:.3f}")  # fmt: skip
    print(f"their true originals: SUPPORTS {result['original']['SUPPORTS']:.3f} "
          f"(model alone: {result['original_model_only']['SUPPORTS']:.3f})")  # fmt: skip
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
