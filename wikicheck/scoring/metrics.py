"""The one place label metrics are computed: accuracy, per-label precision/recall/F1, macro-F1.

Used by the FEVEROUS scorer, the label-only scorer (FAVIQ-style data) and the verifier's
training evaluation, so every figure called "macro-F1" means the same average. Which labels it
averages over: by default those seen in gold or predictions (scikit-learn's rule: a two-way run
that still answers NOT ENOUGH INFO is penalised for it); ``labels`` fixes the set instead (the
training evaluation scores a 2- or 3-way head over all of its labels, seen or not). A label
never predicted has precision 0.0, one never in gold recall 0.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wikicheck.model import LABELS

__all__ = ["f1", "label_metrics"]


def f1(precision: float, recall: float) -> float:
    """The harmonic mean of ``precision`` and ``recall`` (0 when both are 0)."""
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def label_metrics(
    gold: Sequence[str | None],
    predicted: Sequence[str | None],
    labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    """``label_accuracy``, ``macro_f1``, ``n`` and ``per_label`` ({label: precision, recall,
    f1, n = gold count}) of ``predicted`` against ``gold`` (same length; None: no label, which
    never matches). ``labels``: the labels averaged over (default: seen ones, in ``LABELS``
    order). Accuracy and macro-F1 are None for no rows / no labels."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    if labels is None:
        seen = {g for g in gold if g is not None} | {p for p in predicted if p is not None}
        labels = [lab for lab in LABELS if lab in seen] + sorted(seen - set(LABELS))
    per_label: dict[str, dict[str, Any]] = {}
    for label in labels:
        tp = sum(g == label and p == label for g, p in zip(gold, predicted))
        n_pred = sum(p == label for p in predicted)
        n_gold = sum(g == label for g in gold)
        p = tp / n_pred if n_pred else 0.0
        r = tp / n_gold if n_gold else 0.0
        per_label[label] = {"precision": p, "recall": r, "f1": f1(p, r), "n": n_gold}
    n = len(gold)
    correct = sum(g is not None and g == p for g, p in zip(gold, predicted))
    return {
        "label_accuracy": correct / n if n else None,
        "macro_f1": sum(v["f1"] for v in per_label.values()) / len(per_label)
        if per_label
        else None,
        "n": n,
        "per_label": per_label,
    }
