"""The winner check (``verifier.slots``): who a claim says won what, against the winner the
event's page states, and what that does to the verdict."""

from __future__ import annotations

import pytest

from wikicheck.model import NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.slots import check_winner, claimed_winner
from wikicheck.verifier.sufficiency import check_evidence, checks_decision

RACE = "1989 British Grand Prix"
WON_BY = Element(
    id="race_sentence_2", page=RACE, type="sentence", position=2,
    text="The 64-lap race was won by Frenchman Alain Prost, driving a McLaren-Honda.",
)  # fmt: skip
POLE = Element(
    id="race_sentence_3", page=RACE, type="sentence", position=3,
    text="Prost's Brazilian teammate, Ayrton Senna, took pole position and spun off on lap 12.",
)  # fmt: skip


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("Ayrton Senna won the 1989 British Grand Prix.", ("Ayrton Senna", "the 1989 British Grand Prix")),
        ("The 1989 British Grand Prix was won by Alain Prost.", ("Alain Prost", "The 1989 British Grand Prix")),
        ("In 1989 Prost won the British Grand Prix.", ("Prost", "the British Grand Prix")),
        ("Senna never won the 1989 British Grand Prix.", None),
        ("The team won the 1989 British Grand Prix.", None),
        ("Kentucky has the most NCAA Tourney wins with 121 wins.", None),
    ],
)  # fmt: skip
def test_the_claimed_winner_is_the_name_right_before_won_or_after_won_by(claim, expected):
    assert claimed_winner(claim) == expected


def test_another_winner_on_the_events_page_is_a_conflict():
    check = check_winner("Ayrton Senna won the 1989 British Grand Prix.", [POLE, WON_BY])
    assert check.conflict
    assert check.conflicts == [
        {"claimed": "Ayrton Senna", "found": "Frenchman Alain Prost", "id": "race_sentence_2"}
    ]


def test_the_stated_winner_or_a_word_of_it_agrees():
    assert check_winner("Alain Prost won the 1989 British Grand Prix.", [WON_BY]).agreeing
    # "driving a McLaren-Honda" mentions the team: the check errs towards silence
    assert not check_winner("McLaren won the 1989 British Grand Prix.", [WON_BY]).conflict


def test_only_the_page_the_event_names_speaks_for_it():
    other = Element(id="o", page="1990 British Grand Prix", type="sentence", position=2,
                    text="The race was won by Alain Prost.")  # fmt: skip
    assert not check_winner("Ayrton Senna won the 1989 British Grand Prix.", [other]).conflict
    cell = Element(id="c", page=RACE, type="cell", position=9, text="The race was won by Prost.")
    assert not check_winner("Ayrton Senna won the 1989 British Grand Prix.", [cell]).conflict


def test_a_win_of_something_else_on_the_page_is_no_winner_statement():
    aside = Element(id="a", page=RACE, type="sentence", position=5,
                    text="Prost won the previous season's opener in Brazil.")  # fmt: skip
    assert not check_winner("Ayrton Senna won the 1989 British Grand Prix.", [aside]).conflicts


def test_a_winner_conflict_makes_the_evidence_speak_and_supports_refuted():
    check = check_evidence("Ayrton Senna won the 1989 British Grand Prix.", [POLE, WON_BY])
    assert check.conflict and check.sufficient
    probs = {SUPPORTS: 0.7, REFUTES: 0.2, NEI: 0.1}
    label, shown = checks_decision(SUPPORTS, probs, check, labels=3)
    assert label == REFUTES and shown[REFUTES] == pytest.approx(0.7)
    assert check.to_dict()["winner"]["conflicts"][0]["found"] == "Frenchman Alain Prost"
    agreeing = check_evidence("Alain Prost won the 1989 British Grand Prix.", [POLE, WON_BY])
    assert checks_decision(SUPPORTS, probs, agreeing, labels=3)[0] == SUPPORTS


def test_verify_says_what_the_winner_check_found():
    from wikicheck.cli.verifier import _checks_note

    check = check_evidence("Ayrton Senna won the 1989 British Grand Prix.", [POLE, WON_BY])
    row = {"sufficient": True, "sufficiency": check.to_dict(), "label_before_checks": SUPPORTS}
    note = _checks_note(row)
    assert (
        "winner check: the claim says Ayrton Senna, race_sentence_2 says Frenchman Alain Prost"
        in note
    )
    assert "the model alone said SUPPORTS" in note


def test_a_win_of_another_edition_is_no_winner_statement():
    final = "2017 UEFA Champions League Final"
    other = Element(id="f", page=final, type="sentence", position=4,
                    text="Juventus won the 2015 final against Barcelona.")  # fmt: skip
    claim = "Real Madrid won the 2017 UEFA Champions League Final."
    assert not check_winner(claim, [other]).conflicts
    same = Element(id="g", page=final, type="sentence", position=1,
                   text="The 2017 final was won by Juventus on 3 June 2017.")  # fmt: skip
    assert check_winner(claim, [same]).conflict  # the page's own year: its own edition
