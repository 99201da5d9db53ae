"""Expected calibration error, the reliability bins, the risk-coverage curve and abstaining."""

from __future__ import annotations

import pytest

from wikicheck.model import NEI, REFUTES, SUPPORTS
from wikicheck.scoring.calibration import calibration, expected_calibration_error
from wikicheck.verifier.confidence import abstain


def test_ece_is_the_weighted_gap_between_accuracy_and_confidence_per_bin():
    # bin 0.9-1.0: confidence 0.95, accuracy 1/2 -> gap 0.45 on half the claims;
    # bin 0.6-0.7: confidence 0.65, accuracy 1 -> gap 0.35 on the other half
    conf = [0.95, 0.95, 0.65, 0.65]
    correct = [True, False, True, True]
    assert expected_calibration_error(conf, correct) == pytest.approx(0.5 * 0.45 + 0.5 * 0.35)
    assert expected_calibration_error([0.8] * 5, [True] * 4 + [False]) == pytest.approx(0.0)
    assert expected_calibration_error([], []) is None


def test_calibration_reads_the_predicted_labels_probability_and_skips_unusable_rows():
    rows = [
        (SUPPORTS, SUPPORTS, {SUPPORTS: 0.9, REFUTES: 0.1, NEI: 0.0}),
        (REFUTES, SUPPORTS, {SUPPORTS: 0.6, REFUTES: 0.4, NEI: 0.0}),
        (None, SUPPORTS, {SUPPORTS: 0.6}),  # no gold label
        (SUPPORTS, None, {SUPPORTS: 0.6}),  # no prediction
        (SUPPORTS, SUPPORTS, None),  # no probabilities
        (SUPPORTS, SUPPORTS, {SUPPORTS: "high"}),  # not a number
        (SUPPORTS, SUPPORTS, {SUPPORTS: 1.0}),  # the last bin holds 1.0
    ]
    cal = calibration(rows)
    assert cal["n"] == 3 and cal["accuracy"] == pytest.approx(2 / 3)
    assert [b["n"] for b in cal["bins"]] == [0, 0, 0, 0, 0, 0, 1, 0, 0, 2]
    curve = {c["threshold"]: c for c in cal["risk_coverage"]}
    assert curve[0.0] == {"threshold": 0.0, "coverage": 1.0, "accuracy": pytest.approx(2 / 3)}
    assert curve[0.65]["coverage"] == pytest.approx(2 / 3) and curve[0.65]["accuracy"] == 1.0
    assert calibration([(SUPPORTS, None, None)]) is None


def test_abstaining_below_the_minimum_confidence_answers_not_enough_info():
    row = {"predicted_label": SUPPORTS, "probabilities": {SUPPORTS: 0.55, REFUTES: 0.45, NEI: 0}}
    assert abstain(row, 0.0) is row and abstain(row, 0.5) is row
    out = abstain(row, 0.6)
    assert out["predicted_label"] == NEI and out["abstained"] is True
    assert out["answer_below_confidence"] == SUPPORTS and row["predicted_label"] == SUPPORTS
    nei = {"predicted_label": NEI, "probabilities": {NEI: 0.4}}
    assert abstain(nei, 0.9) is nei  # already undecided
    with pytest.raises(ValueError, match="min_confidence must be in"):
        abstain(row, 1.5)
