"""Abstaining below a chosen confidence (``verify --min-confidence``, ``/verify``'s
``min_confidence``): NOT ENOUGH INFO instead of a verdict the model is unsure of.

Confidence is the probability shown for the predicted label; the risk-coverage curve of
``wikicheck evaluate`` / ``score`` (``wikicheck.scoring.calibration``) says, for each threshold,
how many claims keep an answer and how accurate those answers are.
"""

from __future__ import annotations

from typing import Any

from wikicheck.model import NEI

__all__ = ["abstain"]


def abstain(row: dict[str, Any], min_confidence: float) -> dict[str, Any]:
    """``row`` with NOT ENOUGH INFO as its label when its label's probability is below
    ``min_confidence`` (``abstained`` true, ``answer_below_confidence`` the withheld label)."""
    if not 0.0 <= min_confidence <= 1.0:
        raise ValueError(f"min_confidence must be in [0, 1], got {min_confidence}")
    label = row.get("predicted_label")
    if min_confidence <= 0 or label is None or label == NEI:
        return row
    if float(row.get("probabilities", {}).get(label, 0.0)) >= min_confidence:
        return row
    return {**row, "predicted_label": NEI, "abstained": True, "answer_below_confidence": label}
