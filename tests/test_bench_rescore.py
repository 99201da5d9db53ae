"""``bench._common.checks_again``: the benchmarks' ``--rescore`` re-runs the evidence checks on
cached rows and must give the row the pipeline's ``decide`` gave (labels, shown probabilities,
the checked scaling), or a figure measured by rescoring is not the software's."""

from __future__ import annotations

import pytest

from bench._common import checks_again
from tests.pages import cell_element
from wikicheck.annotations import Claim
from wikicheck.check.pipeline import CheckOptions, Gathered, decide, judge
from wikicheck.model import NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.model import Prediction

RACE = "1989 British Grand Prix"
WON_BY = Element(id="r2", page=RACE, type="sentence", position=2,
                 text="The 64-lap race was won by Frenchman Alain Prost, driving a McLaren-Honda.")  # fmt: skip
OFF = Element(id="x0", page="Danube", type="sentence", position=0,
              text="The Danube flows through Vienna and Budapest.")  # fmt: skip


def _row(claim: str, evidence: list[Element], label: str, probs: dict, scaling: dict):
    g = Gathered(Claim(id=1, claim=claim), list(evidence), [el.id for el in evidence])
    p = Prediction(label, probs, used=[el.id for el in evidence])
    options = CheckOptions()
    j = judge(g, p, None, options, None)
    return decide(g, p, j, options, None, None, scaling).to_row()


@pytest.mark.parametrize(
    "scaling", [{}, {"verdict": (0.93, -2.05, 2.7), "nei": (0.05, 3.56, -6.71)}]
)
@pytest.mark.parametrize(
    ("claim", "evidence", "label", "changed"),
    [
        ("Ayrton Senna won the 1989 British Grand Prix.", [WON_BY], SUPPORTS, REFUTES),
        ("Ayrton Senna won the 1989 British Grand Prix.", [OFF], SUPPORTS, NEI),
        ("Alain Prost won the 1989 British Grand Prix.", [WON_BY], SUPPORTS, SUPPORTS),
    ],
)
def test_checks_again_gives_the_row_decide_gave(claim, evidence, label, changed, scaling):
    probs = {SUPPORTS: 0.62, REFUTES: 0.3, NEI: 0.08}
    row = _row(claim, evidence, label, probs, scaling)
    assert row["predicted_label"] == changed
    again, check = checks_again(row, evidence, None, similarity=None,
                                checked_scaling=scaling)  # fmt: skip
    assert again["predicted_label"] == row["predicted_label"]
    # the row keeps the checks' score to 4 decimals, which the scaling reads: 1e-4 apart at most
    assert again["probabilities"] == pytest.approx(row["probabilities"], abs=1e-4)
    assert again.get("model_probabilities") == row.get("model_probabilities")
    assert check.sufficient == row["sufficient"]


def test_checks_again_gives_the_not_enough_info_decide_gave_on_a_table():
    race = "1950 Italian Grand Prix"
    cells = [
        cell_element(race, 1, c, text, ch=[header])
        for c, (text, header) in enumerate(
            [("Alberto Ascari", "Driver"), ("Ferrari", "Constructor")]
        )
    ]
    scaling = {"verdict": (1.0, -3.0, 1.0), "nei": (0.05, 3.56, -6.71)}
    probs = {SUPPORTS: 0.1, REFUTES: 0.5, NEI: 0.4}
    row = _row("Alberto Ascari drove a Ferrari at the 1950 Italian Grand Prix.", cells, REFUTES,
               probs, scaling)  # fmt: skip
    # the checks found the evidence on the claim; the scaling then shows REFUTES below NEI
    assert row["sufficient"] and row["predicted_label"] == NEI
    assert row["label_before_checks"] == REFUTES and row["model_probabilities"] == probs
    again, _ = checks_again(row, cells, None, similarity=None, checked_scaling=scaling)
    assert again["predicted_label"] == NEI and again["label_before_checks"] == REFUTES
    assert again["probabilities"] == pytest.approx(row["probabilities"], abs=1e-4)
    assert again["model_probabilities"] == row["model_probabilities"]
