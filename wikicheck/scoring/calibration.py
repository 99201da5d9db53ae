"""How far the confidence a verdict is shown with can be trusted.

Confidence is the probability of the predicted label (``probabilities[predicted_label]`` of a
prediction row). Three views of it against the gold labels:

* **expected calibration error** (ECE): confidences cut into 10 equal-width bins, the
  confidence-weighted gap ``|accuracy - mean confidence|`` averaged over claims (Guo et al. 2017);
* the **reliability diagram**: each bin's accuracy against its mean confidence;
* the **risk-coverage curve**: answering only when confidence reaches a threshold, the share of
  claims answered (coverage) and the accuracy on them; what ``--min-confidence`` trades.
Entry point: :func:`calibration`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "BINS",
    "THRESHOLDS",
    "add_calibration",
    "calibration",
    "expected_calibration_error",
]

#: Equal-width confidence bins of the ECE and the reliability diagram.
BINS = 10

#: Confidence thresholds of the risk-coverage curve.
THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(20))


def _bins(conf: Sequence[float], correct: Sequence[bool], bins: int) -> list[dict[str, Any]]:
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, c in enumerate(conf) if lo <= c < hi or (b == bins - 1 and c == 1.0)]
        n = len(idx)
        out.append({
            "low": lo,
            "high": hi,
            "n": n,
            "confidence": sum(conf[i] for i in idx) / n if n else None,
            "accuracy": sum(correct[i] for i in idx) / n if n else None,
        })  # fmt: skip
    return out


def expected_calibration_error(
    conf: Sequence[float], correct: Sequence[bool], bins: int = BINS
) -> float | None:
    """ECE over ``bins`` equal-width bins; None for no claims."""
    if not conf:
        return None
    total = len(conf)
    return sum(
        b["n"] / total * abs(b["accuracy"] - b["confidence"])
        for b in _bins(conf, correct, bins)
        if b["n"]
    )


def calibration(
    rows: Sequence[tuple[str | None, str | None, dict | None]],
) -> dict[str, Any] | None:
    """ECE, reliability bins and risk-coverage for ``(gold, predicted, probabilities)`` rows.

    Rows without a gold label, a predicted label or probabilities are left out; None when none
    is left. Out-of-range probabilities are clipped to [0, 1].
    """
    conf, correct = [], []
    for gold, predicted, probs in rows:
        if gold is None or predicted is None or not isinstance(probs, dict):
            continue
        p = probs.get(predicted)
        if not isinstance(p, (int, float)) or isinstance(p, bool):
            continue
        conf.append(min(max(float(p), 0.0), 1.0))
        correct.append(gold == predicted)
    if not conf:
        return None
    curve = []
    for t in THRESHOLDS:
        kept = [ok for c, ok in zip(conf, correct) if c >= t]
        curve.append({
            "threshold": t,
            "coverage": len(kept) / len(conf),
            "accuracy": sum(kept) / len(kept) if kept else None,
        })  # fmt: skip
    return {
        "n": len(conf),
        "ece": expected_calibration_error(conf, correct),
        "mean_confidence": sum(conf) / len(conf),
        "accuracy": sum(correct) / len(conf),
        "bins": _bins(conf, correct, BINS),
        "risk_coverage": curve,
    }


def add_calibration(result: dict[str, Any], pairs: Sequence[tuple[Any, Any]]) -> None:
    """``result["expected_calibration_error"]`` and ``result["calibration"]`` for scored
    ``(Claim, Prediction)`` pairs (None when the predictions carry no probabilities)."""
    rows = [(c.label, p.predicted_label, p.extra.get("probabilities")) for c, p in pairs]
    cal = calibration(rows)
    result["expected_calibration_error"] = cal["ece"] if cal else None
    result["calibration"] = cal
