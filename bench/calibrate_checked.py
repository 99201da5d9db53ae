"""Fit how the confidence of the answer shown after the evidence checks is scaled
(``wikicheck_checked_{verdict,nei}_{scale,shift,sufficiency}``).

The checks (``wikicheck.verifier.sufficiency``) turn answers into NOT ENOUGH INFO, keep
contradictions and mix the sufficiency score into the probabilities, so the model's own
temperatures no longer calibrate what a 3-way answer on retrieved evidence is shown with. This
fits, for each kind of answer (a verdict; NOT ENOUGH INFO), a logistic regression of the answer
being right on the shown label's log-odds and the checks' sufficiency score (Platt scaling with
a second input, ``wikicheck.verifier.model.scaled_confidence``: scale, shift, sufficiency
weight; Newton's method, a small ridge) on the rows of ``bench/bench_absent_evidence.py`` and
``bench/bench_table_claims.py`` work folders: each claim once with its pages in the index (gold:
its label) and once without (gold: NOT ENOUGH INFO), so the fit sees both halves of what a user
meets. It prints the ECE (10 bins)
before and after on the fitted rows and on any ``--report`` folders (never fitted on), both
runs together and each alone, and with ``--write CHECKPOINT`` stores the three numbers per kind
in that checkpoint's ``config.json``.

Fit on claims no figure is reported on: the calibration half of FEVEROUS-S's held-out claims
(``[holdout] calibration`` of ``recipes/feverous-s.toml``, where the model's own temperatures
are fitted; the verifier never trained on them, no check was chosen on them) and the table
benchmark's tune part (``bench/bench_table_claims.py``, where the executor's rules are chosen:
table claims naming their page, with InfoTabs' neutral hypotheses, NOT ENOUGH INFO with the page
present, which FEVEROUS-S lacks). Report on FEVEROUS-S's other half and on the table
benchmark's check part:

    python bench/bench_absent_evidence.py feverous --part calibration --limit 300 \
        --pages PAGES... --present-index FS-INDEX --work FIT
    python bench/bench_absent_evidence.py feverous --part reported --limit 300 \
        --pages PAGES... --present-index FS-INDEX --work REPORTED
    python bench/bench_table_claims.py --prepare --converted CONVERTED --work TABLE-CLAIMS \
        --limit 300 200
    python bench/calibrate_checked.py FIT TABLE-CLAIMS --report REPORTED TABLE-CLAIMS \
        --write wikicheck/verifier/models/wikicheck-minilm-verifier

The rows carry the confidence they were shown with (the checkpoint's scaling, read from
``--model``); the fit undoes it first, so re-fitting composes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._common import header  # noqa: E402

NEI = "NOT ENOUGH INFO"
DEFAULT_MODEL = "wikicheck/verifier/models/wikicheck-minilm-verifier"
#: The ridge on the three weights: keeps a kind with few rows from extreme numbers.
RIDGE = 0.01
#: The smallest scale of the model's log-odds a fit may give.
MIN_SCALE = 0.05

Scaling = dict[str, tuple[float, float, float]]


@dataclass(frozen=True)
class Row:
    kind: str  # "verdict" or "nei"
    right: bool
    confidence: float  # the shown label's probability before the scaling
    sufficiency: float  # the checks' score
    absent: bool  # the claim's pages were removed from the index


def kind_of(label: str) -> str:
    return "nei" if label == NEI else "verdict"


def scaling_of(config: dict) -> Scaling:
    """The (scale, shift, sufficiency weight) per kind a checkpoint's ``config.json`` records."""
    from wikicheck.verifier.model import CHECKED_KINDS

    out = {}
    for kind in CHECKED_KINDS:
        key = f"wikicheck_checked_{kind}"
        if config.get(f"{key}_scale") is not None:
            out[kind] = (float(config[f"{key}_scale"]), float(config.get(f"{key}_shift", 0.0)),
                         float(config.get(f"{key}_sufficiency", 0.0)))  # fmt: skip
    return out


def read_rows(
    work: Path, current: Scaling, part: str = "tune", skipped: list[str] | None = None
) -> list[Row]:
    """A row per answer of a work folder, its confidence as it was before ``current`` scaled it.

    A ``bench/bench_absent_evidence.py`` folder: ``rows-present.jsonl`` (gold: the claim's
    label) and ``rows-absent.jsonl`` (gold: NOT ENOUGH INFO). A ``bench/bench_table_claims.py``
    folder (``claims.jsonl`` beside ``rows-present-*.jsonl``): the rows of its claims of
    ``part`` only (``tune`` to fit on, ``check`` to report on). A line that is no JSON object
    (a run cut short mid-write) is left out and named in ``skipped`` ("FILE:LINE: why")."""
    from wikicheck.verifier.model import unscaled_confidence

    keep = _table_part(work, part)
    out = []
    for kind, absent in (("present", False), ("absent", True)):
        for path in sorted(work.glob(f"rows-{kind}*.jsonl")):
            for number, line in enumerate(path.open(encoding="utf-8"), 1):
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as e:
                    row = f"not JSON ({e.msg})"
                if not isinstance(row, dict):
                    if skipped is not None:
                        why = row if isinstance(row, str) else "not a JSON object"
                        skipped.append(f"{path}:{number}: {why}")
                    continue
                probs, label = row.get("probabilities"), row.get("predicted_label")
                if not isinstance(probs, dict) or label not in probs:
                    continue
                gold = NEI if absent else row.get("gold_label")
                if gold is None or (keep is not None and str(row.get("id")) not in keep):
                    continue
                score = float((row.get("sufficiency") or {}).get("score", 0.0))
                before = unscaled_confidence(label, probs, current, score)[label]
                out.append(Row(kind_of(label), gold == label, before, score, absent))
    return out


def _table_part(work: Path, part: str) -> set[str] | None:
    """The ids of a table benchmark folder's claims of ``part``; None for other folders."""
    claims = work / "claims.jsonl"
    if not claims.exists():
        return None
    keep = set()
    for line in claims.open(encoding="utf-8"):
        claim = json.loads(line)
        if claim.get("part") == part and "id" in claim:
            keep.add(str(claim["id"]))
    return keep


def _log_odds(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def _inputs(rows: list[Row]) -> np.ndarray:
    """Columns: log-odds, 1, sufficiency (the order of (scale, shift, weight))."""
    z = _log_odds(np.array([r.confidence for r in rows]))
    return np.stack([z, np.ones_like(z), np.array([r.sufficiency for r in rows])], axis=1)


def fit(rows: list[Row]) -> tuple[float, float, float]:
    """(scale, shift, sufficiency weight) of the logistic regression of the answers' being
    right, by Newton's method with a small ridge (a convex loss: it converges in a few steps).
    The scale is kept at ``MIN_SCALE`` at least, so that a label the model is surer of is never
    shown less sure (and the scaling stays invertible for a re-fit); below it, the shift and
    the weight are fitted with the scale held there."""
    x = _inputs(rows)
    y = np.array([r.right for r in rows], dtype=float)
    w = _newton(x, y, np.array([1.0, 0.0, 0.0]), free=[0, 1, 2])
    if w[0] < MIN_SCALE:
        w = _newton(x, y, np.array([MIN_SCALE, 0.0, 0.0]), free=[1, 2])
    return tuple(round(float(v), 4) for v in w)  # type: ignore[return-value]


def _newton(x: np.ndarray, y: np.ndarray, w: np.ndarray, free: list[int]) -> np.ndarray:
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = (x.T @ (p - y) + RIDGE * w)[free]
        xf = x[:, free]
        hess = (xf * (p * (1 - p))[:, None]).T @ xf + RIDGE * np.eye(len(free))
        step = np.linalg.solve(hess, grad)
        w[free] -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def shown(rows: list[Row], scaling: Scaling) -> list[float]:
    """Each row's confidence as the pipeline shows it with ``scaling``
    (:func:`wikicheck.verifier.model.scaled_confidence`, the one place the mapping is written)."""
    from wikicheck.verifier.model import scaled_confidence

    out = []
    for r in rows:
        label = NEI if r.kind == "nei" else "SUPPORTS"  # a verdict's kind is all that counts
        probs = {label: r.confidence, "other": 1.0 - r.confidence}
        out.append(scaled_confidence(label, probs, scaling, r.sufficiency)[label])
    return out


def ece(rows: list[Row], scaling: Scaling) -> float:
    """ECE (10 bins) of the answers as shown with ``scaling``."""
    from wikicheck.scoring.calibration import expected_calibration_error

    return expected_calibration_error(shown(rows, scaling), [r.right for r in rows])


def eces(rows: list[Row], scaling: Scaling) -> dict[str, float]:
    """ECE of both runs together and of each alone."""
    parts = {"both": rows, "present": [r for r in rows if not r.absent],
             "absent": [r for r in rows if r.absent]}  # fmt: skip
    return {k: round(ece(v, scaling), 4) for k, v in parts.items() if v}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "work",
        nargs="+",
        type=Path,
        help="bench_absent_evidence work folders (bench_table_claims: its tune part) to fit on",
    )
    ap.add_argument("--report", nargs="*", type=Path, default=[],
                    help="work folders to report the ECE on (bench_table_claims: its check part)")  # fmt: skip
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help="the checkpoint the rows were predicted with (its current scaling)")  # fmt: skip
    ap.add_argument("--write", help="a checkpoint folder whose config.json gets the scaling")
    ap.add_argument("--claims", default="FEVEROUS-S held-out, the [holdout] calibration half "
                    "(bench_absent_evidence.py feverous --part calibration --limit 300 --work "
                    "FIT), and the table benchmark's tune part (bench_table_claims.py --limit "
                    "300 200), pages present and absent",
                    help="what the fitted rows are, recorded with the scaling")  # fmt: skip
    args = ap.parse_args(argv)

    print(header())
    config = json.loads((Path(args.model) / "config.json").read_text(encoding="utf-8"))
    current = scaling_of(config)
    skipped: list[str] = []
    rows = [r for w in args.work for r in read_rows(w, current, skipped=skipped)]
    if not rows:
        raise SystemExit(f"no rows in {', '.join(map(str, args.work))}")
    scaling, counts = {}, {}
    for kind in ("verdict", "nei"):
        part = [r for r in rows if r.kind == kind]
        counts[kind] = len(part)
        if part:
            scaling[kind] = fit(part)
            if not all(abs(v) <= 20 for v in scaling[kind]):
                raise SystemExit(
                    f"the {kind} fit gave {scaling[kind]}: no scaling a checkpoint takes; were "
                    f"the rows predicted with {args.model}'s scaling as it is now?"
                )
    acc = sum(r.right for r in rows) / len(rows)
    result = {"n": len(rows), "n_by_kind": counts, "accuracy": round(acc, 4),
              "scaling": {k: list(v) for k, v in scaling.items()},
              "ece_before": eces(rows, {}), "ece_after": eces(rows, scaling),
              "report": {}}  # fmt: skip
    print(f"fitted on {len(rows)} rows ({', '.join(map(str, args.work))}), accuracy {acc:.3f}: "
          f"(scale, shift, sufficiency weight) {scaling}, "
          f"ECE {result['ece_before']} -> {result['ece_after']}")  # fmt: skip
    for w in args.report:
        other = read_rows(w, current, part="check", skipped=skipped)
        if not other:
            continue
        result["report"][str(w)] = {"n": len(other), "ece_before": eces(other, {}),
                                    "ece_after": eces(other, scaling)}  # fmt: skip
        print(f"reported on {w} (never fitted on): {len(other)} rows, ECE "
              f"{eces(other, {})} -> {eces(other, scaling)}")  # fmt: skip
    if args.write:
        path = Path(args.write) / "config.json"
        cfg = json.loads(path.read_text(encoding="utf-8"))
        for kind, (scale, shift, weight) in scaling.items():
            cfg[f"wikicheck_checked_{kind}_scale"] = scale
            cfg[f"wikicheck_checked_{kind}_shift"] = shift
            cfg[f"wikicheck_checked_{kind}_sufficiency"] = weight
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
    for where in skipped:
        print(f"skipped {where}", file=sys.stderr)
    result["skipped"] = len(skipped)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
