"""The superlative rule: right row -> SUPPORTS, another row named -> REFUTES, unsure -> None."""

from __future__ import annotations

from verifier.data import tabfact_table
from verifier.tables import parse_number, superlative_rule
from wikicheck.model import REFUTES, SUPPORTS

TABLE = "player#country#score\r\ntiger woods#usa#70\r\nernie els#south africa#65\r\nnick price#zimbabwe#72\r\n"


def test_parse_number():
    assert parse_number("1,234 m") == 1234.0
    assert parse_number("-3.5") == -3.5
    assert parse_number("none") is None


def test_superlative_checks_the_row_with_the_extreme_value():
    cells = tabfact_table("t.csv", TABLE, "open")
    assert superlative_rule("nick price have the highest score", cells) == SUPPORTS
    assert superlative_rule("tiger woods have the highest score", cells) == REFUTES
    assert superlative_rule("ernie els have the lowest score", cells) == SUPPORTS
    assert superlative_rule("tiger woods play golf", cells) is None  # no superlative
    assert superlative_rule("the highest score be from nowhere", cells) is None  # nobody named
