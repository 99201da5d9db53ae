"""The opposite-word check (``verifier.opposites``): a claim that turns one word of its page's
sentence into its opposite, and what that does to the verdict. Claims written for these tests."""

from __future__ import annotations

import pytest

from wikicheck.model import NEI, REFUTES, SUPPORTS, Element
from wikicheck.verifier.opposites import check_opposites
from wikicheck.verifier.sufficiency import check_evidence, checks_decision

PAGE = "Bullenkuhle"
SMALLER = Element(
    id="Bullenkuhle_sentence_0", page=PAGE, type="sentence", position=0,
    text="The Bullenkuhle belongs to this group, albeit considerably smaller.",
)  # fmt: skip
BIGGER_CLAIM = "The Bullenkuhle belongs to this group, albeit considerably bigger."


def test_the_opposite_in_the_same_phrase_of_the_subjects_page_is_a_conflict():
    check = check_opposites(BIGGER_CLAIM, [SMALLER])
    assert check.conflict
    assert check.conflicts == [
        {"claimed": "bigger", "found": "smaller", "id": "Bullenkuhle_sentence_0"}
    ]
    assert not check_opposites(BIGGER_CLAIM.replace("bigger", "smaller"), [SMALLER]).conflict


@pytest.mark.parametrize(
    ("claim", "why"),
    [
        ("The Bullenkuhle is bigger than the Kuhle of Alt Garge.", "no word of the phrase"),
        ("The Bullenkuhle, bigger or smaller, belongs to this group.", "both words in the claim"),
    ],
)
def test_an_opposite_outside_the_claims_phrase_is_no_conflict(claim, why):
    assert not check_opposites(claim, [SMALLER]).conflict, why


def test_only_sentences_of_a_page_the_claim_names_speak_for_it():
    other = Element(id="o", page="Kuhle of Alt Garge", type="sentence", position=0,
                    text="It belongs to this group, albeit considerably smaller.")  # fmt: skip
    assert not check_opposites(BIGGER_CLAIM, [other]).conflict
    cell = Element(id="c", page=PAGE, type="cell", position=4,
                   text="belongs to this group, albeit considerably smaller")  # fmt: skip
    assert not check_opposites(BIGGER_CLAIM, [cell]).conflict


def test_a_sentence_stating_the_claims_word_in_its_phrase_agrees():
    bigger = Element(id="b", page=PAGE, type="sentence", position=3,
                     text="Of this group it is considerably bigger than most.")  # fmt: skip
    check = check_opposites(BIGGER_CLAIM, [SMALLER, bigger])
    assert check.agreeing == ["bigger"] and not check.conflict


def test_an_opposite_word_makes_the_evidence_speak_and_supports_refuted():
    check = check_evidence(BIGGER_CLAIM, [SMALLER])
    assert check.conflict and check.sufficient
    probs = {SUPPORTS: 0.6, REFUTES: 0.3, NEI: 0.1}
    label, shown = checks_decision(SUPPORTS, probs, check, labels=3)
    assert label == REFUTES and shown[REFUTES] == pytest.approx(0.6)
    assert check.to_dict()["opposites"]["conflicts"][0]["found"] == "smaller"
    same = check_evidence(BIGGER_CLAIM.replace("bigger", "smaller"), [SMALLER])
    assert checks_decision(SUPPORTS, probs, same, labels=3)[0] == SUPPORTS


def test_verify_says_what_the_word_check_found():
    from wikicheck.cli.verifier import _checks_note

    check = check_evidence(BIGGER_CLAIM, [SMALLER])
    row = {"sufficient": True, "sufficiency": check.to_dict(), "label_before_checks": SUPPORTS}
    note = _checks_note(row)
    assert "word check: the claim says bigger, Bullenkuhle_sentence_0 says smaller" in note
