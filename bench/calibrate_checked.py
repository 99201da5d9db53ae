"""Fit the temperature of the answer shown after the evidence checks (``wikicheck_checked_temperature``).

The checks (``wikicheck.verifier.sufficiency``) turn answers into NOT ENOUGH INFO, keep
contradictions and mix the sufficiency score into the probabilities, so the model's own
temperatures no longer calibrate what a 3-way answer on retrieved evidence is shown with. This
fits one temperature on the rows of ``bench/bench_absent_evidence.py`` work folders: each claim
once with its pages in the index (gold: its label) and once without (gold: NOT ENOUGH INFO),
so the fit sees both halves of what a user meets. It picks the temperature in 0.50..4.00
(step 0.05) minimising the negative log-likelihood of the gold label, prints the ECE (10 bins)
before and after on the fitted rows and on any ``--report`` folders (never fitted on), and
with ``--write CHECKPOINT`` stores it in that checkpoint's ``config.json``.

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

The rows carry the temperature they were predicted with (the checkpoint's, read from
``--model``); the fit undoes it first, so re-fitting composes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402
from bench.calibrate_temperature import GRID  # noqa: E402
from bench.calibrate_temperature import nll as temperature_nll  # noqa: E402

NEI = "NOT ENOUGH INFO"
DEFAULT_MODEL = "wikicheck/verifier/models/wikicheck-minilm-verifier"


def read_rows(work: Path, current: float) -> list[tuple[str, dict[str, float], str]]:
    """(gold, probabilities before the checked temperature, predicted) for each row of a work
    folder's ``rows-present.jsonl`` (gold: the claim's label) and ``rows-absent.jsonl`` (gold:
    NOT ENOUGH INFO)."""
    from wikicheck.verifier.model import with_temperature

    out = []
    for name, absent in (("rows-present.jsonl", False), ("rows-absent.jsonl", True)):
        path = work / name
        if not path.exists():
            continue
        for line in path.open(encoding="utf-8"):
            row = json.loads(line)
            probs, label = row.get("probabilities"), row.get("predicted_label")
            if not isinstance(probs, dict) or label is None:
                continue
            gold = NEI if absent else row.get("gold_label")
            if gold is None:
                continue
            # undo the temperature the rows were shown with: p ** T renormalised
            out.append((gold, with_temperature(probs, 1.0 / current), label))
    return out


def nll(rows: list[tuple[str, dict[str, float], str]], t: float) -> float:
    """Negative log-likelihood of the gold labels at temperature ``t``
    (``bench/calibrate_temperature.py``'s, on these rows)."""
    return temperature_nll([(gold, p) for gold, p, _ in rows], t)


def ece(rows: list[tuple[str, dict[str, float], str]], t: float) -> float:
    """ECE of the answer as shown at temperature ``t`` (the verdict keeps the largest share)."""
    from wikicheck.scoring.calibration import expected_calibration_error
    from wikicheck.verifier.model import agreeing_with, with_temperature

    conf = [agreeing_with(lab, with_temperature(p, t))[lab] for _, p, lab in rows]
    return expected_calibration_error(conf, [g == lab for g, _, lab in rows])


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "work", nargs="+", type=Path, help="bench_absent_evidence work folders to fit on"
    )
    ap.add_argument("--report", nargs="*", type=Path, default=[],
                    help="work folders to report the ECE on, never fitted on")  # fmt: skip
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help="the checkpoint the rows were predicted with (its current temperature)")  # fmt: skip
    ap.add_argument("--write", help="a checkpoint folder whose config.json gets the temperature")
    ap.add_argument("--claims", default="FEVEROUS-S held-out, the [holdout] calibration half "
                    "(bench_absent_evidence.py feverous --part calibration --limit 300 --work "
                    "FIT), pages present and absent",
                    help="what the fitted rows are, recorded with the temperature")  # fmt: skip
    args = ap.parse_args(argv)

    print(header())
    config = json.loads((Path(args.model) / "config.json").read_text(encoding="utf-8"))
    current = float(config.get("wikicheck_checked_temperature", 1.0))
    rows = [r for w in args.work for r in read_rows(w, current)]
    if not rows:
        raise SystemExit(f"no rows in {', '.join(map(str, args.work))}")
    best = min(GRID, key=lambda t: nll(rows, t))
    acc = sum(g == lab for g, _, lab in rows) / len(rows)
    result = {"n": len(rows), "accuracy": round(acc, 4), "temperature": best,
              "ece_before": round(ece(rows, 1.0), 4), "ece_after": round(ece(rows, best), 4),
              "report": {}}  # fmt: skip
    print(f"fitted on {len(rows)} rows ({', '.join(map(str, args.work))}), accuracy {acc:.3f}: "
          f"T {best:.2f}, NLL {nll(rows, 1.0):.4f} -> {nll(rows, best):.4f}, "
          f"ECE {result['ece_before']:.3f} -> {result['ece_after']:.3f}")  # fmt: skip
    for w in args.report:
        other = read_rows(w, current)
        if not other:
            continue
        result["report"][str(w)] = {"n": len(other), "ece_before": round(ece(other, 1.0), 4),
                                    "ece_after": round(ece(other, best), 4)}  # fmt: skip
        print(f"reported on {w} (never fitted on): {len(other)} rows, ECE "
              f"{ece(other, 1.0):.3f} -> {ece(other, best):.3f}")  # fmt: skip
    if args.write:
        path = Path(args.write) / "config.json"
        cfg = json.loads(path.read_text(encoding="utf-8"))
        cfg["wikicheck_checked_temperature"] = best
        cal = cfg.setdefault("wikicheck_calibration", {})
        cal["checked_temperature"] = {
            "temperature": best,
            "n": len(rows),
            "claims": args.claims,
            "command": "python bench/calibrate_checked.py FIT --write MODEL",
        }
        path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
