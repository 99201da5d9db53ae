"""Verdicts a user can trust, on real sample pages with the shipped verifier and the real
retriever: a claim about a topic the index lacks is NOT ENOUGH INFO, a claim whose number the
infobox gives differently is not SUPPORTS, a true number (also in other units) is not undone.

The index is the page tests' small real one (Aare, Brokeback Mountain and a hand-made page,
``tests/web_fixtures.py``), built once for the module.
"""

from __future__ import annotations

import pytest

from tests.web_fixtures import build_web_index
from wikicheck.model import NEI, REFUTES, SUPPORTS

# the shipped verifier and the sample index, claim by claim: make test's
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def verify(tmp_path_factory):
    from wikicheck.annotations import Claim
    from wikicheck.check import CheckOptions, check_claims
    from wikicheck.indexer.stores import open_store
    from wikicheck.retriever.pipeline import Retriever
    from wikicheck.verifier.model import Verifier

    store = open_store(index_dir=str(build_web_index(tmp_path_factory.mktemp("behaviour"))))
    retriever = Retriever(store)
    verifier = Verifier.load()

    def run(claim: str, labels: int = 3) -> dict:
        (result,) = check_claims(
            [Claim(id=1, claim=claim)],
            store=store,
            verifier=verifier,
            retriever=retriever,
            options=CheckOptions(labels=labels),
        )
        return result.to_row()

    yield run
    store.close()


def test_a_topic_the_index_lacks_is_not_enough_info(verify):
    row = verify("The Danube flows through Vienna and Budapest.")
    assert row["predicted_label"] == NEI
    assert row["sufficient"] is False
    assert {"Danube", "Vienna"} <= set(row["sufficiency"]["uncovered"])


def test_two_way_keeps_its_labels_but_says_the_evidence_was_insufficient(verify):
    row = verify("The Danube flows through Vienna and Budapest.", labels=2)
    assert row["predicted_label"] in (SUPPORTS, REFUTES)
    assert row["sufficient"] is False


def test_a_number_the_infobox_gives_differently_is_not_supported(verify):
    row = verify("The Aare's source is at an elevation of 3,500 metres.")
    assert row["predicted_label"] != SUPPORTS
    conflicts = row["sufficiency"]["numbers"]["conflicts"]
    assert conflicts and conflicts[0]["claimed"] == "3,500 metres"


def test_a_wrong_release_year_is_refuted(verify):
    row = verify("Brokeback Mountain was released in 2015.")
    assert row["predicted_label"] == REFUTES
    assert row["sufficient"] is True


def test_a_true_length_is_kept_in_kilometres_and_in_miles(verify):
    for claim in ("The Aare is 291.5 kilometres long.", "The Aare is 181.1 miles long."):
        row = verify(claim)
        assert row["sufficient"] is True, claim
        numbers = row["sufficiency"]["numbers"]
        assert numbers["matched"] and not numbers["conflicts"], claim
        assert row["predicted_label"] != NEI, claim


def test_a_false_budget_is_not_supported(verify):
    row = verify("Brokeback Mountain had a budget of $40 million.")
    assert row["predicted_label"] != SUPPORTS
