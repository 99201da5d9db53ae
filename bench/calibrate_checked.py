"""Fit how the confidence of the answer shown after the evidence checks is scaled
(``wikicheck_checked_{verdict,nei}_{scale,shift}``).

The checks (``wikicheck.verifier.sufficiency``) turn answers into NOT ENOUGH INFO, keep
contradictions and mix the sufficiency score into the probabilities, so the model's own
temperatures no longer calibrate what a 3-way answer on retrieved evidence is shown with. This
fits, for each kind of answer (a verdict; NOT ENOUGH INFO), the (scale, shift) of the shown
label's log-odds (Platt scaling, ``wikicheck.verifier.model.scaled_confidence``) on the rows of
``bench/bench_absent_evidence.py`` work folders: each claim once with its pages in the index
(gold: its label) and once without (gold: NOT ENOUGH INFO), so the fit sees both halves of what
a user meets. Each kind's pair is the one on a grid (scale 0.10..3.00, shift -3.00..3.00, step
0.05) minimising the negative log-likelihood of the answer being right; it prints the ECE (10
bins) before and after on the fitted rows and on any ``--report`` folders (never fitted on), and
with ``--write CHECKPOINT`` stores the pairs in that checkpoint's ``config.json``.

Fit on claims the verifier never trained on, no check was fitted or chosen on and no figure is
reported on: the calibration half of FEVEROUS-S's held-out claims (``[holdout]
calibration`` of ``recipes/feverous-s.toml``, where the model's own temperatures are fitted);
report on the other half:

    python bench/bench_absent_evidence.py feverous --part calibration --limit 300 \
        --pages PAGES... --present-index FS-INDEX --work FIT
    python bench/bench_absent_evidence.py feverous --part reported --limit 300 \
        --pages PAGES... --present-index FS-INDEX --work REPORTED
    python bench/calibrate_checked.py FIT --report REPORTED \
        --write wikicheck/verifier/models/wikicheck-minilm-verifier

The rows carry the confidence they were shown with (the checkpoint's scaling, read from
``--model``); the fit undoes it first, so re-fitting composes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402

NEI = "NOT ENOUGH INFO"
DEFAULT_MODEL = "wikicheck/verifier/models/wikicheck-minilm-verifier"
SCALES = np.round(np.arange(0.10, 3.0001, 0.05), 2)
SHIFTS = np.round(np.arange(-3.0, 3.0001, 0.05), 2)

#: (kind, gold, label, confidence before the scaling) per row
Row = tuple[str, str, str, float]


def kind_of(label: str) -> str:
    return "nei" if label == NEI else "verdict"


def scaling_of(config: dict) -> dict[str, tuple[float, float]]:
    """The (scale, shift) per kind a checkpoint's ``config.json`` records."""
    from wikicheck.verifier.model import CHECKED_KINDS

    return {
        kind: (float(config[f"wikicheck_checked_{kind}_scale"]),
               float(config.get(f"wikicheck_checked_{kind}_shift", 0.0)))
        for kind in CHECKED_KINDS
        if config.get(f"wikicheck_checked_{kind}_scale") is not None
    }  # fmt: skip


def read_rows(work: Path, current: dict[str, tuple[float, float]]) -> list[Row]:
    """A row per answer of a work folder's ``rows-present.jsonl`` (gold: the claim's label)
    and ``rows-absent.jsonl`` (gold: NOT ENOUGH INFO), its confidence as it was before
    ``current`` scaled it."""
    from wikicheck.verifier.model import unscaled_confidence

    out = []
    for name, absent in (("rows-present.jsonl", False), ("rows-absent.jsonl", True)):
        path = work / name
        if not path.exists():
            continue
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            probs, label = row.get("probabilities"), row.get("predicted_label")
            if not isinstance(probs, dict) or label not in probs:
                continue
            gold = NEI if absent else row.get("gold_label")
            if gold is None:
                continue
            before = unscaled_confidence(label, probs, current)[label]
            out.append((kind_of(label), gold, label, before))
    return out


def _log_odds(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def fit(rows: list[Row]) -> tuple[float, float]:
    """The grid's (scale, shift) minimising the negative log-likelihood of the answers'
    being right."""
    z = _log_odds(np.array([c for *_, c in rows]))
    right = np.array([g == lab for _, g, lab, _ in rows], dtype=float)
    logits = SCALES[:, None, None] * z[None, None, :] + SHIFTS[None, :, None]
    # -log sigmoid(x) = log(1 + e^-x), computed stably
    loss = right * np.logaddexp(0, -logits) + (1 - right) * np.logaddexp(0, logits)
    i, j = np.unravel_index(loss.sum(axis=2).argmin(), loss.shape[:2])
    return float(SCALES[i]), float(SHIFTS[j])


def ece(rows: list[Row], scaling: dict[str, tuple[float, float]]) -> float:
    """ECE (10 bins) of the answers as shown with ``scaling``."""
    from wikicheck.scoring.calibration import expected_calibration_error

    conf = []
    for kind, _, _, c in rows:
        if kind in scaling:
            a, b = scaling[kind]
            c = float(1 / (1 + np.exp(-(a * _log_odds(np.array(c)) + b))))
        conf.append(c)
    return expected_calibration_error(conf, [g == lab for _, g, lab, _ in rows])


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "work", nargs="+", type=Path, help="bench_absent_evidence work folders to fit on"
    )
    ap.add_argument("--report", nargs="*", type=Path, default=[],
                    help="work folders to report the ECE on, never fitted on")  # fmt: skip
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help="the checkpoint the rows were predicted with (its current scaling)")  # fmt: skip
    ap.add_argument("--write", help="a checkpoint folder whose config.json gets the scaling")
    ap.add_argument("--claims", default="FEVEROUS-S held-out, the [holdout] calibration half "
                    "(bench_absent_evidence.py feverous --part calibration --limit 300 --work "
                    "FIT), pages present and absent",
                    help="what the fitted rows are, recorded with the scaling")  # fmt: skip
    args = ap.parse_args(argv)

    print(header())
    config = json.loads((Path(args.model) / "config.json").read_text(encoding="utf-8"))
    current = scaling_of(config)
    rows = [r for w in args.work for r in read_rows(w, current)]
    if not rows:
        raise SystemExit(f"no rows in {', '.join(map(str, args.work))}")
    scaling, counts = {}, {}
    for kind in ("verdict", "nei"):
        part = [r for r in rows if r[0] == kind]
        counts[kind] = len(part)
        if part:
            scaling[kind] = fit(part)
    acc = sum(g == lab for _, g, lab, _ in rows) / len(rows)
    result = {"n": len(rows), "n_by_kind": counts, "accuracy": round(acc, 4),
              "scaling": {k: list(v) for k, v in scaling.items()},
              "ece_before": round(ece(rows, {}), 4), "ece_after": round(ece(rows, scaling), 4),
              "report": {}}  # fmt: skip
    print(f"fitted on {len(rows)} rows ({', '.join(map(str, args.work))}), accuracy {acc:.3f}: "
          f"(scale, shift) {scaling}, "
          f"ECE {result['ece_before']:.3f} -> {result['ece_after']:.3f}")  # fmt: skip
    for w in args.report:
        other = read_rows(w, current)
        if not other:
            continue
        result["report"][str(w)] = {"n": len(other), "ece_before": round(ece(other, {}), 4),
                                    "ece_after": round(ece(other, scaling), 4)}  # fmt: skip
        print(f"reported on {w} (never fitted on): {len(other)} rows, ECE "
              f"{ece(other, {}):.3f} -> {ece(other, scaling):.3f}")  # fmt: skip
    if args.write:
        path = Path(args.write) / "config.json"
        cfg = json.loads(path.read_text(encoding="utf-8"))
        for kind, (scale, shift) in scaling.items():
            cfg[f"wikicheck_checked_{kind}_scale"] = scale
            cfg[f"wikicheck_checked_{kind}_shift"] = shift
        cal = cfg.setdefault("wikicheck_calibration", {})
        cal["checked_scaling"] = {
            "scaling": {k: list(v) for k, v in scaling.items()},
            "n": len(rows),
            "n_by_kind": counts,
            "claims": args.claims,
            "command": "python bench/calibrate_checked.py FIT --write MODEL",
        }
        path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
