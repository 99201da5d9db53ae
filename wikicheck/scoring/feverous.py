"""The official FEVEROUS numbers, plus diagnostics, as a pure function over claims and predictions.

Entry points: :func:`score` (lists of :class:`~wikicheck.annotations.Prediction` and
:class:`~wikicheck.annotations.Claim`, matched by id) and :func:`score_files` (JSONL paths).
Both return a JSON-ready dict whose keys are those of ``wikicheck score --json``
(``docs/architecture.md`` §8).

The headline numbers reproduce ``feverous_scorer.py`` of ``Raldir/FEVEROUS`` (see
``FORMAT.md`` §c), rule by rule:

* predicted evidence is truncated first, in list order: ``cell``, ``header_cell``,
  ``table_caption`` and ``item`` ids count against 25, every other type against 5;
* ``label_accuracy``: share of rows whose predicted label equals the gold label (case-insensitive);
* ``feverous_score``: label correct **and** some gold set wholly inside the truncated prediction
  (NOT ENOUGH INFO rows too; an empty gold set counts as covered);
* ``evidence_precision``: per row, predicted ids found in the union of gold sets / predicted ids
  (duplicates count each time), 1.0 for an empty prediction; averaged over rows;
* ``evidence_recall``: per row 1.0 if some gold set is covered or the row has no gold sets;
* ``evidence_f1``: from the averaged precision and recall (0.0 where both are 0).

Diagnostics beside them: ``macro_f1`` and ``per_label`` (precision/recall/F1, n = gold count,
over the labels seen in gold or predictions), ``per_challenge`` (feverous_score, label_accuracy,
n, plus evidence_recall; rows without a challenge are left out), ``recall_at_k`` (see
:func:`wikicheck.scoring.retrieval.recall_at_k`) and ``full_evidence_coverage`` (share of the
claims that have gold sets with one whole set inside the truncated prediction). Added keys:
``recall_at_k_n`` (claims behind each kind), ``has_labels``, ``notes``, ``matching`` and, from
:func:`score_files`, ``inputs`` (rows read and skipped, with file:line examples).

Inputs are never modified (truncation makes new lists). Ids compare as exact strings, which is
what comparing the official ``[page, type, position]`` triples amounts to.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.annotations import (
    Claim,
    Prediction,
    iter_claims,
    iter_predictions,
    iter_rows,
    row_key,
)
from wikicheck.errors import IdError, InputError
from wikicheck.ids import CELL_LIKE_TYPES, parse_id
from wikicheck.scoring.calibration import add_calibration
from wikicheck.scoring.labels import needs_label_only, score_labels_only
from wikicheck.scoring.metrics import f1, label_metrics
from wikicheck.scoring.retrieval import K_VALUES, RECALL_KINDS, recall_at_k
from wikicheck.skips import SkipLog

__all__ = [
    "K_VALUES",
    "MAX_EVIDENCE",
    "MAX_EVIDENCE_CELL",
    "Matching",
    "evidence_type",
    "truncate_evidence",
    "match",
    "score",
    "score_pairs",
    "score_files",
]

#: Official budgets: sentences (and any other non-cell-like type) / cells, captions, items.
MAX_EVIDENCE = 5
MAX_EVIDENCE_CELL = 25


def evidence_type(element_id: str) -> str:
    """The element type of an id; ids outside our grammar fall back to the official split."""
    try:
        return parse_id(element_id).type
    except IdError:
        # evaluate.py: type is the 2nd '_' field (fields 2-3 for table_caption/header_cell).
        parts = element_id.split("_")
        if "table_caption" in element_id or "header_cell" in element_id:
            return "_".join(parts[1:3])
        return parts[1] if len(parts) > 1 else ""


def truncate_evidence(
    ids: Sequence[str], max_evidence: int = MAX_EVIDENCE, max_cell: int = MAX_EVIDENCE_CELL
) -> list[str]:
    """Keep the first ``max_cell`` cell-like ids and the first ``max_evidence`` others, in order."""
    out: list[str] = []
    n_cell = n_other = 0
    for element_id in ids:
        if evidence_type(element_id) in CELL_LIKE_TYPES:
            n_cell += 1
            if n_cell <= max_cell:
                out.append(element_id)
        else:
            n_other += 1
            if n_other <= max_evidence:
                out.append(element_id)
    return out


@dataclass
class Matching:
    """Predictions paired with gold claims, and what could not be paired."""

    pairs: list[tuple[Claim, Prediction]] = field(default_factory=list)
    missing: list[Claim] = field(default_factory=list)  # gold rows with no prediction
    unmatched: int = 0  # predictions with no gold row
    duplicate_predictions: int = 0  # a second prediction for the same claim (the first is kept)
    duplicate_gold: int = 0  # a second gold row with the same id (the first is kept)
    by: str = "id"

    def to_dict(self, n_predictions: int, n_gold: int) -> dict[str, Any]:
        return {
            "by": self.by,
            "predictions": n_predictions,
            "gold": n_gold,
            "matched": len(self.pairs),
            "missing": len(self.missing),
            "unmatched": self.unmatched,
            "duplicate_predictions": self.duplicate_predictions,
            "duplicate_gold": self.duplicate_gold,
        }


def match(predictions: Sequence[Prediction], gold: Sequence[Claim]) -> Matching:
    """Pair each prediction with its gold claim: by id, else by claim text, else by position.

    Ids compare as strings (``7`` matches ``"7"``). A prediction without an id matches the gold
    row with the same claim text; one with an id that gold lacks falls back to claim text only
    against gold rows that have no id. Files where no prediction has an id or a claim (the
    leaderboard submission form) are matched line by line, and must then have equal lengths.
    """
    result = Matching()
    if predictions and all(p.id in (None, "") and p.claim is None for p in predictions):
        if len(predictions) != len(gold):
            raise InputError(
                f"predictions carry no 'id' or 'claim', so they are matched to gold by position, "
                f"but there are {len(predictions)} predictions for {len(gold)} gold claims"
            )
        result.by = "position"
        result.pairs = list(zip(gold, predictions, strict=True))
        return result
    by_key: dict[str, Claim] = {}
    by_text: dict[str, list[Claim]] = defaultdict(list)
    for claim in gold:
        key = row_key(claim)
        if key in by_key:
            result.duplicate_gold += 1
            continue
        by_key[key] = claim
        by_text[claim.claim].append(claim)
    used: set[int] = set()
    via_claim = 0
    for pred in predictions:
        has_id = pred.id not in (None, "")
        target = by_key.get(row_key(pred)) if has_id else None
        if target is None and pred.claim is not None:
            target = next(
                (
                    c
                    for c in by_text.get(pred.claim, ())
                    if id(c) not in used and (not has_id or c.id in (None, ""))
                ),
                None,
            )
            if target is not None and id(target) not in used:
                via_claim += 1
        if target is None:
            result.unmatched += 1
        elif id(target) in used:
            result.duplicate_predictions += 1
        else:
            used.add(id(target))
            result.pairs.append((target, pred))
    result.missing = [c for c in by_key.values() if id(c) not in used]
    if via_claim:
        result.by = "claim" if via_claim == len(result.pairs) else "id+claim"
    return result


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


@dataclass(slots=True)
class _Row:
    """Per-claim figures, computed once and aggregated several ways."""

    label: str | None
    predicted: str | None
    challenge: str | None
    precision: float
    recall: float
    covered: bool  # some gold set wholly inside the truncated prediction
    has_gold_sets: bool


def _score_row(claim: Claim, pred: Prediction, max_evidence: int, max_cell: int) -> _Row:
    predicted = truncate_evidence(pred.predicted_evidence, max_evidence, max_cell)
    pred_set = set(predicted)
    gold_sets = [set(s.content) for s in claim.evidence]
    gold_union = set().union(*gold_sets)
    covered = any(s <= pred_set for s in gold_sets)
    precision = sum(e in gold_union for e in predicted) / len(predicted) if predicted else 1.0
    recall = 1.0 if covered or not gold_sets else 0.0
    # Labels compare upper-cased, as officially (objects built in code skip the readers' check).
    return _Row(
        claim.label.upper() if claim.label else None,
        pred.predicted_label.upper() if pred.predicted_label else None,
        claim.challenge,
        precision,
        recall,
        covered,
        bool(gold_sets),
    )


def _label_metrics(rows: Sequence[_Row]) -> tuple[dict[str, dict[str, Any]], float | None]:
    """Per-label precision/recall/F1 (n = gold count) and their macro-F1
    (:func:`wikicheck.scoring.metrics.label_metrics`: labels seen in gold or predictions)."""
    out = label_metrics([r.label for r in rows], [r.predicted for r in rows])
    return out["per_label"], out["macro_f1"]


def score_pairs(
    pairs: Sequence[tuple[Claim, Prediction]],
    *,
    max_evidence: int = MAX_EVIDENCE,
    max_evidence_cell: int = MAX_EVIDENCE_CELL,
    k_values: Sequence[int] = K_VALUES,
) -> dict[str, Any]:
    """Score matched (gold, prediction) pairs. Label metrics are None when nothing has a label."""
    notes: list[str] = []
    rows = [_score_row(c, p, max_evidence, max_evidence_cell) for c, p in pairs]
    n = len(rows)
    with_labels = any(r.predicted is not None for r in rows)
    unlabelled_gold = sum(r.label is None for r in rows)
    if not with_labels and n:
        notes.append("no predicted_label in the predictions: evidence metrics only")
    elif unlabelled_gold:
        with_labels = False
        notes.append(f"{unlabelled_gold} gold claims have no label: label metrics skipped")
    elif no_label := sum(r.predicted is None for r in rows):
        notes.append(f"{no_label} predictions have no predicted_label: counted as wrong")
    if n == 0:
        notes.append("no prediction matched a gold claim: nothing to score")

    precision = _mean(r.precision for r in rows)
    recall = _mean(r.recall for r in rows)
    result: dict[str, Any] = {
        "feverous_score": None,
        "label_accuracy": None,
        "evidence_precision": precision,
        "evidence_recall": recall,
        "evidence_f1": f1(precision, recall) if n else None,
        "macro_f1": None,
        "n": n,
        "per_label": {},
        "per_challenge": {},
    }
    if with_labels and n:
        result["feverous_score"] = _mean(float(r.label == r.predicted and r.covered) for r in rows)
        result["label_accuracy"] = _mean(float(r.label == r.predicted) for r in rows)
        result["per_label"], result["macro_f1"] = _label_metrics(rows)
    by_challenge: dict[str, list[_Row]] = defaultdict(list)
    for r in rows:
        if r.challenge is not None:
            by_challenge[r.challenge].append(r)
    for name in sorted(by_challenge):
        group = by_challenge[name]
        result["per_challenge"][name] = {
            "feverous_score": _mean(float(r.label == r.predicted and r.covered) for r in group)
            if with_labels
            else None,
            "label_accuracy": _mean(float(r.label == r.predicted) for r in group)
            if with_labels
            else None,
            "n": len(group),
            "evidence_recall": _mean(r.recall for r in group),
        }
    per_kind: dict[str, list[list[float]]] = {kind: [] for kind in RECALL_KINDS}
    for c, p in pairs:
        for kind, values in recall_at_k(c, p, k_values).items():
            per_kind[kind].append(values)
    result["recall_at_k"] = {
        kind: {str(k): _mean(v[i] for v in per_kind[kind]) for i, k in enumerate(k_values)}
        for kind in RECALL_KINDS
    }
    result["full_evidence_coverage"] = _mean(float(r.covered) for r in rows if r.has_gold_sets)
    # Extras (added keys, never changed ones): sample sizes and what the numbers rest on.
    result["recall_at_k_n"] = {kind: len(per_kind[kind]) for kind in RECALL_KINDS}
    result["has_labels"] = with_labels
    result["notes"] = notes
    add_calibration(result, pairs)
    return result


def score(
    predictions: Sequence[Prediction],
    gold: Sequence[Claim],
    *,
    count_missing: bool = False,
    max_evidence: int = MAX_EVIDENCE,
    max_evidence_cell: int = MAX_EVIDENCE_CELL,
    k_values: Sequence[int] = K_VALUES,
) -> dict[str, Any]:
    """Match predictions to gold and score them (keys as ``wikicheck score --json``).

    Gold claims without a prediction are left out (as the official scorer only sees the rows it
    is given) unless ``count_missing``, which scores each as an empty, unlabelled prediction.
    ``matching`` in the result reports matched, missing, unmatched and duplicate rows.
    """
    m = match(predictions, gold)
    pairs = list(m.pairs)
    if count_missing:
        pairs += [(c, Prediction(id=c.id, claim=c.claim)) for c in m.missing]
    if needs_label_only([c for c, _ in pairs]):
        # No gold evidence at all (FAVIQ): evidence metrics are undefined, labels only.
        result = score_labels_only(pairs)
    else:
        result = score_pairs(
            pairs, max_evidence=max_evidence, max_evidence_cell=max_evidence_cell, k_values=k_values
        )
    result["matching"] = m.to_dict(len(predictions), len(gold))
    if m.missing:
        how = "scored as empty predictions" if count_missing else "left out (see --count-missing)"
        result["notes"].append(f"{len(m.missing)} gold claims have no prediction: {how}")
    if m.unmatched:
        result["notes"].append(f"{m.unmatched} predictions match no gold claim: ignored")
    if m.duplicate_predictions:
        result["notes"].append(
            f"{m.duplicate_predictions} duplicate predictions for the same claim: first kept"
        )
    return result


def _gold_from_prediction_row(row: Any) -> tuple[Prediction, Claim]:
    """Official ``evaluate.py`` input: each prediction row also carries ``label`` and ``evidence``."""
    pred = Prediction.from_dict(row)
    if "label" not in row or "evidence" not in row:
        raise InputError(
            "no gold 'label'/'evidence' in this prediction row; pass --gold GOLD.jsonl"
        )
    gold = Claim.from_dict({**row, "claim": row.get("claim") or ""})
    return pred, gold


def _inputs(log: SkipLog) -> dict[str, Any]:
    """How a file read went, as ``inputs`` reports it (``rows`` kept, bad rows by kind)."""
    return {
        "rows": log.kept,
        "skipped": log.skipped,
        "header_skipped": log.header_skipped,
        "reasons": log.reasons,
        "examples": log.examples,
    }


def score_files(
    predictions_path: str | os.PathLike,
    gold_path: str | os.PathLike | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Read a prediction file (and a gold file) and :func:`score` them.

    Without ``gold_path`` the gold is read from the prediction rows themselves (the official
    ``evaluate.py`` input, where each row has ``label`` and ``evidence`` next to the
    predictions). Bad rows are skipped and reported under ``inputs`` (with file:line).
    """
    pred_summary = SkipLog()
    gold_summary = SkipLog()
    if gold_path is None:
        both = list(iter_rows(predictions_path, _gold_from_prediction_row, pred_summary))
        predictions = [p for p, _ in both]
        gold = [g for _, g in both]
        gold_summary = pred_summary
    else:
        predictions = list(iter_predictions(predictions_path, pred_summary))
        gold = list(iter_claims(gold_path, gold_summary))
    if not predictions and pred_summary.skipped:
        raise InputError(
            f"no usable prediction row ({pred_summary.skipped} bad rows; first: "
            f"{pred_summary.examples[0]})",
            path=os.fspath(predictions_path),
        )
    result = score(predictions, gold, **options)
    if gold_path is not None and not result["matching"]["matched"]:
        raise InputError(
            f"no prediction matched a gold claim by id or claim text ({len(predictions)} "
            f"predictions, {len(gold)} usable gold rows, {gold_summary.skipped} bad gold rows"
            + (f"; first: {gold_summary.examples[0]})" if gold_summary.examples else ")"),
            path=os.fspath(gold_path),
        )
    result["inputs"] = {"predictions": _inputs(pred_summary), "gold": _inputs(gold_summary)}
    for name, summary in (("prediction", pred_summary), ("gold", gold_summary)):
        if summary.skipped and (name == "prediction" or gold_path is not None):
            result["notes"].append(f"{summary.skipped} bad {name} rows skipped (see inputs)")
    return result
