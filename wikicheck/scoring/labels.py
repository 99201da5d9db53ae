"""Label-only scoring for claims without gold evidence (FAVIQ), and two-way label helpers.

FAVIQ's claims carry SUPPORTS/REFUTES and silver passages but no gold evidence ids, so evidence
precision/recall and the FEVEROUS score are undefined there; the FAVIQ paper reports label
accuracy. :func:`score_labels_only` gives accuracy, macro-F1 and per-label figures, overall and
per set (A/R, from the claim's ``set`` field), and says why the rest is missing.
:func:`needs_label_only` tells :func:`wikicheck.scoring.feverous.score` callers when to use it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from wikicheck.annotations import Claim, Prediction
from wikicheck.errors import IdError
from wikicheck.ids import parse_id
from wikicheck.model import LABELS
from wikicheck.scoring import metrics
from wikicheck.scoring.calibration import add_calibration
from wikicheck.scoring.retrieval import K_VALUES, RECALL_KINDS

__all__ = [
    "NO_EVIDENCE_NOTE",
    "TWO_WAY_LABELS",
    "needs_label_only",
    "label_metrics",
    "score_labels_only",
    "confusion_matrix",
]

TWO_WAY_LABELS = ("SUPPORTS", "REFUTES")
NO_EVIDENCE_NOTE = (
    "the gold claims carry no evidence: label accuracy and macro-F1 only "
    "(no FEVEROUS score, no evidence precision/recall)"
)


def needs_label_only(gold: Sequence[Claim]) -> bool:
    """True when no gold claim has an evidence set (FAVIQ-style data): evidence is unscorable."""
    return bool(gold) and not any(c.evidence for c in gold)


def label_metrics(pairs: Sequence[tuple[Claim, Prediction]]) -> dict[str, Any]:
    """Accuracy, macro-F1 and per-label P/R/F1 (n = gold count) over (gold, prediction) pairs
    (:func:`wikicheck.scoring.metrics.label_metrics`: labels seen in gold or predictions)."""
    return metrics.label_metrics([c.label for c, _ in pairs], [p.predicted_label for _, p in pairs])


def score_labels_only(
    pairs: Sequence[tuple[Claim, Prediction]], *, group_field: str = "set"
) -> dict[str, Any]:
    """Label figures overall and per ``group_field`` value (FAVIQ's A/R sets), JSON-ready.

    The keys follow ``score --json`` where they apply; evidence keys are present and None so
    a reader sees they were not computed, and ``notes`` says why.
    """
    result: dict[str, Any] = {
        "feverous_score": None,
        "evidence_precision": None,
        "evidence_recall": None,
        "evidence_f1": None,
        "full_evidence_coverage": None,
        **label_metrics(pairs),
        "per_challenge": {},
        # Same shape as score_pairs' (renderers index it), every value unmeasured.
        "recall_at_k": {kind: {str(k): None for k in K_VALUES} for kind in RECALL_KINDS},
        "recall_at_k_n": dict.fromkeys(RECALL_KINDS, 0),
        "has_labels": True,
        "label_only": True,
        "notes": [NO_EVIDENCE_NOTE],
    }
    groups: dict[str, list[tuple[Claim, Prediction]]] = defaultdict(list)
    for claim, pred in pairs:
        value = claim.extra.get(group_field)
        if value is not None:
            groups[str(value)].append((claim, pred))
    result["per_set"] = {name: label_metrics(groups[name]) for name in sorted(groups)}
    add_calibration(result, pairs)
    silver = _silver_page_recall(pairs, K_VALUES)
    if silver is not None:
        result["recall_at_k"]["pages"], result["recall_at_k_n"]["pages"] = silver
        result["notes"].append(
            "recall@k pages: the page of the silver positive passage (positive_evidence.title), "
            "not gold evidence"
        )
    if unlabelled := sum(p.predicted_label is None for _, p in pairs):
        result["notes"].append(f"{unlabelled} predictions have no predicted_label: counted wrong")
    if any(p.predicted_label == "NOT ENOUGH INFO" for _, p in pairs) and all(
        c.label in TWO_WAY_LABELS for c, _ in pairs
    ):
        result["notes"].append(
            "two-way gold but some predictions are NOT ENOUGH INFO (counted wrong); "
            "predict with --labels 2 for the FAVIQ setting"
        )
    return result


def _silver_page_recall(
    pairs: Sequence[tuple[Claim, Prediction]], k_values: Sequence[int]
) -> tuple[dict[str, float], int] | None:
    """Share of claims whose silver positive passage's page is among the first k predicted pages.

    FAVIQ names a silver passage per claim (``positive_evidence: {id, title}``); the converter
    makes each title a page, so this measures page retrieval the way the FAVIQ paper's retrieval
    recall does, on titles. None when no claim names one or no prediction has evidence.
    """
    hits: list[list[float]] = []
    for claim, pred in pairs:
        silver = claim.extra.get("positive_evidence")
        title = silver.get("title") if isinstance(silver, dict) else None
        if not isinstance(title, str) or not pred.predicted_evidence:
            continue
        pages: list[str] = []
        for element_id in pred.predicted_evidence:
            try:
                page = parse_id(element_id).page
            except IdError:
                continue
            if page not in pages:
                pages.append(page)
        hits.append([float(title in pages[:k]) for k in k_values])
    if not hits:
        return None
    return {str(k): sum(h[i] for h in hits) / len(hits) for i, k in enumerate(k_values)}, len(hits)


def confusion_matrix(pairs: Sequence[tuple[Claim, Prediction]]) -> dict[str, Any]:
    """Gold (rows) x predicted (columns) counts over the three labels plus a "none" column."""
    labels = [lab for lab in LABELS]
    cols = labels + ["(none)"]
    matrix = [[0] * len(cols) for _ in labels]
    for claim, pred in pairs:
        if claim.label not in labels:
            continue
        j = labels.index(pred.predicted_label) if pred.predicted_label in labels else len(labels)
        matrix[labels.index(claim.label)][j] += 1
    return {"gold": labels, "predicted": cols, "matrix": matrix}
