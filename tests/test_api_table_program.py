"""``POST /verify`` runs the table program executor as ``predict`` does, when the checkpoint
has a calibrated margin, and answers its fields (``rule``, ``program``, ``rule_label``,
``rule_applied``); on retrieved evidence the program decides only on a table of the page the
claim names (``wikicheck.verifier.predict.grounded_margin``), elsewhere it is shown; without a
margin the fields stay empty."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api_fixtures import shared_services
from wikicheck.api import create_app

# the shared index with the real retriever and verifier loaded: make test's
pytestmark = pytest.mark.slow

CLAIM = "The total length of the Aare's tributaries is 304 km."
UNNAMED = "The total length of the tributaries is 304 km."


@pytest.fixture
def verifier_with_margin():
    _, _, verifier = shared_services()
    saved = verifier.executor_margin
    verifier.executor_margin = float("-inf")  # would always apply on gold evidence
    try:
        yield verifier
    finally:
        verifier.executor_margin = saved


def test_verify_answers_the_table_program_when_the_checkpoint_has_a_margin(verifier_with_margin):
    with TestClient(create_app(*shared_services())) as c:
        body = c.post("/verify", json={"claim": CLAIM}).json()
    assert body["rule"] == "aggregate"
    assert body["program"] == "sum(length) = 304; claimed 304"
    assert body["rule_label"] == "SUPPORTS"
    assert body["rule_applied"] is True  # the table of the page the claim names ("Aare")
    assert body["predicted_label"] == "SUPPORTS"


def test_a_program_on_a_table_of_a_page_the_claim_does_not_name_is_shown(verifier_with_margin):
    with TestClient(create_app(*shared_services())) as c:
        body = c.post("/verify", json={"claim": UNNAMED}).json()
    assert body["program"] == "sum(length) = 304; claimed 304"
    assert body["rule_applied"] is False


def test_verify_has_no_table_program_without_a_margin():
    _, _, verifier = shared_services()
    assert verifier.executor_margin is None  # the tiny test checkpoint has none
    with TestClient(create_app(*shared_services())) as c:
        body = c.post("/verify", json={"claim": CLAIM}).json()
    assert body["rule"] is body["program"] is body["rule_label"] is body["rule_applied"] is None
