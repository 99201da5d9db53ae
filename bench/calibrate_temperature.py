"""Fit the verifier's temperatures (``wikicheck_*temperature``) on predictions of training claims.

Reads a prediction file (``wikicheck predict ... -o PRED``: rows with ``probabilities``) and its
gold claims, splits the rows by evidence kind as ``Verifier.temperature_for`` does (any sentence
-> ``sentence``; cells/captions only -> ``table``; the rest -> general), and for each kind with at
least ``--min-rows`` rows picks the temperature in 0.50..4.00 (step 0.05) that minimises the
negative log-likelihood of the gold label (Guo et al. 2017). Prints, per kind, the rows, accuracy,
ECE (10 bins) at T = 1 and at the fitted T, and the config keys; ``--write CHECKPOINT`` stores
them in that checkpoint's ``config.json``.

Which claims: ``--recipe`` keeps only a part of its claims. ``--part training`` (the default):
the training side of its ``[holdout]``, the claims the verifier learned from, where a model
looks better calibrated than it is. ``--part calibration``: the held-out claims of the recipe's
``[holdout] calibration`` share, which the verifier never saw; ``wikicheck evaluate`` then
reports the calibration figures on the other held-out claims only, so a temperature is never
fitted on the claims its ECE is reported on.

    wikicheck predict train_part.jsonl -o train_pred.jsonl --index-dir indexes/feverous-s
    python bench/calibrate_temperature.py train_pred.jsonl --gold train_part.jsonl \\
        --recipe recipes/feverous-s.toml
    python bench/calibrate_temperature.py eval/feverous-s/predictions.jsonl \\
        --gold ../shared/data/feverous/feverous_s_dev_tune.jsonl \\
        --recipe recipes/feverous-s.toml --part calibration
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402

GRID = [round(0.5 + 0.05 * i, 2) for i in range(71)]


def kind_of(evidence_ids: list[str], claim: str | None = None) -> str:
    """The evidence kind of ``Verifier.temperature_for``, read from the ids of the evidence the
    model read: its own rules (``is_table_evidence``, ``has_sentences``) on the ids' pages and
    types (an infobox cell, which ids do not tell apart, counts as a table cell)."""
    from wikicheck.ids import parse_id
    from wikicheck.model import Element
    from wikicheck.verifier.model import has_sentences, is_table_evidence

    parsed = [(i, parse_id(i)) for i in evidence_ids]
    elements = [Element(id=i, page=p.page, type=p.type, text="", position=0) for i, p in parsed]
    if is_table_evidence(elements, claim):
        return "table"
    return "sentence" if has_sentences(elements) else "general"


def nll(rows: list[tuple[str, dict]], temperature: float) -> float:
    from wikicheck.verifier.model import with_temperature

    return -sum(
        math.log(max(with_temperature(p, temperature).get(gold, 0.0), 1e-12)) for gold, p in rows
    ) / len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("predictions")
    ap.add_argument("--gold", required=True, help="the claims file the predictions answer")
    ap.add_argument("--recipe", help="the recipe whose [holdout] splits the claims")
    ap.add_argument("--part", choices=("training", "calibration"), default="training",
                    help="fit on the training side, or on the held-out calibration part")  # fmt: skip
    ap.add_argument("--min-rows", type=int, default=100)
    ap.add_argument("--write", help="the checkpoint that made the predictions: its config.json "
                    "gets the temperatures, composed with any it already has")  # fmt: skip
    args = ap.parse_args()
    if args.part == "calibration" and not args.recipe:
        ap.error("--part calibration needs --recipe (its [holdout] names the calibration part)")

    from wikicheck.annotations import Claim
    from wikicheck.scoring.calibration import expected_calibration_error
    from wikicheck.verifier.model import with_temperature

    print(header())
    gold = {}
    for line in open(args.gold, encoding="utf-8"):
        row = json.loads(line)
        gold[row["id"]] = row
    holdout = None
    if args.recipe:
        from wikicheck.evaluation.recipe import load_recipe
        from wikicheck.evaluation.run import _in_training_part, in_calibration_part

        holdout = load_recipe(args.recipe).holdout
        if args.part == "calibration" and not (holdout or {}).get("calibration"):
            ap.error(f"{args.recipe} has no [holdout] calibration share")
    groups: dict[str, list[tuple[str, dict, str]]] = {}
    reported: dict[str, list[tuple[str, dict, str]]] = {}  # --part calibration: the other half
    for line in open(args.predictions, encoding="utf-8"):
        row = json.loads(line)
        claim = gold.get(row.get("id"))
        if claim is None or not row.get("probabilities") or not row.get("predicted_label"):
            continue
        into = groups
        if holdout:
            c = Claim(id=claim["id"], claim=claim["claim"])
            training = _in_training_part(c, holdout)
            if args.part == "training" and not training:
                continue  # held out: never fitted on
            if args.part == "calibration" and training:
                continue  # trained on
            if args.part == "calibration" and not in_calibration_part(c, holdout):
                into = reported  # the held-out claims the ECE is reported on: never fitted on
        window = row.get("read_evidence") or row.get("predicted_evidence") or []
        kind = kind_of(window, claim["claim"])
        into.setdefault(kind, []).append(
            (claim["label"], row["probabilities"], row["predicted_label"])
        )
    read = [row for rows in (*groups.values(), *reported.values()) for row in rows]
    # A verdict shown beside a higher probability for another label contradicts itself: the
    # split at the SUPPORTS threshold (``at_supports_threshold``) keeps this at 0 for S/R.
    below = sum(p.get(lab, 0.0) < max(p.values()) - 1e-9 for _, p, lab in read)
    print(f"verdicts shown with another label's probability higher: {below} of {len(read)} rows")
    keys = {"general": "wikicheck_temperature", "sentence": "wikicheck_sentence_temperature",
            "table": "wikicheck_table_temperature"}  # fmt: skip
    fitted = {}

    def ece(rows: list[tuple[str, dict, str]], t: float) -> float:
        conf = [with_temperature(p, t)[lab] for _, p, lab in rows]
        return expected_calibration_error(conf, [g == lab for g, _, lab in rows])

    for kind, rows in sorted(groups.items()):
        pairs = [(g, p) for g, p, _ in rows]
        acc = sum(g == lab for g, _, lab in rows) / len(rows)
        if len(rows) < args.min_rows:
            print(f"{kind}: {len(rows)} rows (< --min-rows {args.min_rows}): not fitted")
            continue
        best = min(GRID, key=lambda t: nll(pairs, t))
        fitted[keys[kind]] = best
        print(f"{kind}: {len(rows)} rows, accuracy {acc:.3f}, ECE at T=1 {ece(rows, 1.0):.3f}, "
              f"fitted T {best:.2f} (NLL {nll(pairs, 1.0):.4f} -> {nll(pairs, best):.4f}), "
              f"ECE {ece(rows, best):.3f}")  # fmt: skip
        if reported.get(kind):
            other = reported[kind]
            print(f"  reported part (never fitted on): {len(other)} rows, ECE at T=1 "
                  f"{ece(other, 1.0):.3f}, at the fitted T {ece(other, best):.3f}")  # fmt: skip
    print("fitted on these predictions:", json.dumps(fitted))
    if args.write and fitted:
        path = Path(args.write) / "config.json"
        config = json.loads(path.read_text(encoding="utf-8"))
        # The predictions already carry the checkpoint's temperatures (p ** (1/T1)); scaling
        # them by T2 equals one temperature T1 * T2, so that is what the checkpoint gets.
        general = config.get("wikicheck_temperature", 1.0)
        for key, t in fitted.items():
            before = config.get(key, general)
            config[key] = round(before * t, 2)
            print(f"{key}: {before} x {t} -> {config[key]}")
        path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
