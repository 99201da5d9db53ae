"""Table rules: each answers only when it finds the rows and column the claim names."""

from __future__ import annotations

from verifier.data import tabfact_table
from verifier.tables import parse_number, rule_label, rule_verdict, superlative_rule
from wikicheck.model import REFUTES, SUPPORTS

TABLE = (
    "player#country#score\r\ntiger woods#usa#70\r\nernie els#south africa#65\r\n"
    "nick price#zimbabwe#72\r\nvijay singh#usa#68\r\n"
)
CELLS = tabfact_table("t.csv", TABLE, "open")


def test_parse_number():
    assert parse_number("1,234 m") == 1234.0
    assert parse_number("-3.5") == -3.5
    assert parse_number("none") is None


def test_superlative_checks_the_row_with_the_extreme_value():
    assert superlative_rule("nick price have the highest score", CELLS) == SUPPORTS
    assert superlative_rule("tiger woods have the highest score", CELLS) == REFUTES
    assert superlative_rule("ernie els have the lowest score", CELLS) == SUPPORTS
    assert superlative_rule("tiger woods play golf", CELLS) is None  # no superlative
    assert superlative_rule("the highest score be from nowhere", CELLS) is None  # nobody named


def test_count_rule_counts_rows_with_the_named_value():
    assert rule_verdict("there be 2 player from usa", CELLS) == ("count", SUPPORTS)
    assert rule_verdict("there be three player from usa", CELLS) == ("count", REFUTES)
    # a number that is a value of the named row is a lookup, not a count
    assert rule_verdict("tiger woods of usa score 70", CELLS) is None


def test_comparison_rule_compares_the_two_named_rows():
    assert rule_verdict("tiger woods have a higher score than ernie els", CELLS) == (
        "comparison",
        SUPPORTS,
    )
    assert rule_label("tiger woods have a lower score than ernie els", CELLS) == REFUTES
    # no column named: the table's only numeric column is compared
    assert rule_label("tiger woods play more than ernie els", CELLS) == SUPPORTS
    assert rule_label("tiger woods score than ernie els", CELLS) is None  # no direction word


def test_same_rule_compares_the_named_column():
    assert rule_verdict("tiger woods and vijay singh have the same country", CELLS) == (
        "same",
        SUPPORTS,
    )
    assert rule_label("tiger woods and ernie els have the same country", CELLS) == REFUTES
    assert rule_label("tiger woods have the same country", CELLS) is None  # one row named


def test_no_table_no_verdict():
    assert rule_verdict("there be 2 player from usa", []) is None


def test_infobox_without_column_headers_gets_no_verdict():
    from verifier.data import infotabs_table

    cells = infotabs_table("T1", {"title": ["ann"], "children": ["2"], "spouse": ["bob", "cy"]})
    assert rule_verdict("there be 2 spouse of ann : bob, cy", cells) is None
