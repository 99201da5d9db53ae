"""Synthetic table statements: every template's label is checked against a hand-made table by an
independent oracle that parses the statement text back (so a wrong computation or a wrong
counterfactual edit fails here)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.pages import infobox_elements, table_elements
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.verifier.tables import execute
from wikicheck.verifier.training.synthetic import (
    Grid,
    clean_number,
    fmt,
    generate,
    parse_date,
    statements_for,
)

ROWS = [
    ["player", "country", "score", "date", "result"],
    ["tiger woods", "usa", "70", "june 3 , 2001", "2 - 1"],
    ["ernie els", "south africa", "65", "may 1 , 2001", "3 - 0"],
    ["nick price", "zimbabwe", "72", "july 9 , 2001", "1 - 1"],
    ["vijay singh", "usa", "68", "june 20 , 2001", "0 - 2"],
    ["jim furyk", "usa", "69", "august 2 , 2001", "4 - 4"],
]
TABLE = {row[0]: dict(zip(ROWS[0], row, strict=True)) for row in ROWS[1:]}
WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
ORD = {"second": 2, "third": 3, "fourth": 4}


def _n(word: str) -> float:
    return float(WORDS.get(word, word) if word in WORDS else word)


def _scores() -> dict[str, float]:
    return {k: float(v["score"]) for k, v in TABLE.items()}


def _count(col: str, value: str) -> int:
    return sum(r[col] == value for r in TABLE.values())


def oracle(text: str) -> bool:
    """The truth of one generated statement, computed from ``TABLE`` by parsing its words."""
    s = _scores()
    if m := re.fullmatch(r"(.+) has the (second|third|fourth) highest score", text):
        order = sorted(s, key=lambda k: -s[k])
        return order[ORD[m[2]] - 1] == m[1]
    if m := re.fullmatch(r"(.+) has the (highest|largest|most|lowest|smallest|least) score", text):
        want = max if m[2] in ("highest", "largest", "most") else min
        return s[m[1]] == want(s.values())
    if m := re.fullmatch(
        r"the (highest|largest|most|lowest|smallest|least) score is for (.+)", text
    ):
        want = max if m[1] in ("highest", "largest", "most") else min
        return s[m[2]] == want(s.values())
    if m := re.fullmatch(r"(.+) has (\S+) more score than (.+)", text):
        return abs(s[m[1]] - s[m[3]] - float(m[2])) < 1e-9
    if m := re.fullmatch(r"(.+) has (a higher|a greater|more|a lower|less) score than (.+)", text):
        higher = m[2] in ("a higher", "a greater", "more")
        return s[m[1]] > s[m[3]] if higher else s[m[1]] < s[m[3]]
    if m := re.fullmatch(r"the total score is (\S+)", text):
        return float(m[1]) == sum(s.values())
    if m := re.fullmatch(r"the average score is (\S+)", text):
        return abs(float(m[1]) - sum(s.values()) / len(s)) < 0.01
    if m := re.fullmatch(r"none of the entries have country (.+)", text):
        return _count("country", m[1]) == 0
    if m := re.fullmatch(r"there are (\d+|[a-z]+) entries with country (.+)", text):
        return _count("country", m[2]) == _n(m[1])
    if m := re.fullmatch(r"(.+) appears (\w+) times in the country column", text):
        return _count("country", m[1]) == _n(m[2])
    if m := re.fullmatch(
        r"(\d+|zero|one|two|three|four|five) of the entries have country (.+)", text
    ):
        return _count("country", m[2]) == _n(m[1])
    if m := re.fullmatch(r"(.+) is the only one with country (.+)", text):
        return _count("country", m[2]) == 1 and TABLE[m[1]]["country"] == m[2]
    if m := re.fullmatch(r"all of the entries have country (.+)", text):
        return _count("country", m[1]) == len(TABLE)
    if m := re.fullmatch(r"the date of (.+) was (before|after) that of (.+)", text):
        a, b = parse_date(TABLE[m[1]]["date"]), parse_date(TABLE[m[3]]["date"])
        return a < b if m[2] == "before" else a > b
    for form in (r"the (\w+) of (.+) is (.+)", r"(.+) 's (\w+) is (.+)"):
        if m := re.fullmatch(form, text):
            col, row = (m[1], m[2]) if form.startswith("the") else (m[2], m[1])
            return TABLE[row][col] == m[3]
    if m := re.fullmatch(r"(.+?) has (player|country|score|date|result) (.+)", text):
        return TABLE[m[1]][m[2]] == m[3]
    raise AssertionError(f"the oracle cannot read {text!r}")


def _all_statements(seeds: int = 60):
    grid = Grid.from_elements(table_elements("open", ROWS))
    assert grid is not None
    return [st for seed in range(seeds) for st in statements_for(grid, seed=seed)]


def test_grid_names_rows_by_the_wordy_distinct_column():
    grid = Grid.from_elements(table_elements("open", ROWS))
    assert grid.headers == ROWS[0] and grid.rows == ROWS[1:]
    assert grid.key == 0
    # scores and dates name no row: a table led by them is keyed by its first wordy column
    shuffled = [[r[4], r[3], r[0], r[2]] for r in ROWS]
    assert Grid.from_elements(table_elements("t", shuffled)).key == 2
    assert grid.numeric(2) == [70, 65, 72, 68, 69] and grid.numeric(4) is None


def test_every_template_label_matches_the_oracle():
    statements = _all_statements()
    wrong = [
        (st.op, st.text, st.label) for st in statements if (st.label == SUPPORTS) != oracle(st.text)
    ]
    assert wrong == []
    seen = Counter((st.op, st.label) for st in statements)
    for op in ("lookup", "comparison", "superlative", "ordinal", "count", "aggregate",
               "difference", "only", "none"):  # fmt: skip
        assert seen[(op, SUPPORTS)] and seen[(op, REFUTES)], op
    assert seen[("date_order", SUPPORTS)] + seen[("date_order", REFUTES)] > 0


def test_labels_are_balanced_and_generation_is_deterministic():
    statements = _all_statements()
    labels = Counter(st.label for st in statements)
    assert 0.4 < labels[SUPPORTS] / len(statements) < 0.6
    assert _all_statements(5) == _all_statements(5)


def test_the_executor_agrees_with_the_generator_where_it_answers():
    """Two independent implementations (writing vs parsing) of the same operations."""
    cells = table_elements("open", ROWS)
    answered = agree = 0
    for st in _all_statements(30):
        verdict = execute(st.text, cells)
        if verdict:
            answered += 1
            agree += verdict.label == st.label
    assert answered >= 40
    assert agree / answered >= 0.9


def test_infobox_statements_use_other_infoboxes_for_false_values():
    boxes = [
        infobox_elements("ann", [("born", "1950"), ("children", "bob, cy, dee")]),
        infobox_elements("eve", [("born", "1961"), ("children", "fay, gus")]),
    ]
    out = generate(boxes, seed=3)
    assert out
    for st, table in out:
        title = table[0].page
        if st.op == "lookup" and st.text.startswith("the born of"):
            assert (st.text.endswith("1950") == (title == "ann")) == (st.label == SUPPORTS)
        if st.op == "member":
            item = st.text.split(" is one of")[0]
            mine = {"ann": {"bob", "cy", "dee"}, "eve": {"fay", "gus"}}[title]
            assert (item in mine) == (st.label == SUPPORTS)


@pytest.mark.parametrize(
    "rows",
    [
        [["a", "b"]],  # headers only
        [["x", "y"], ["1", "2"], ["3", "4"]],  # nothing names a row
        [["name", "v"], ["a", "1"], ["a", "2"]],  # the only wordy column repeats
    ],
)
def test_tables_without_rows_to_name_give_no_statements(rows):
    grid = Grid.from_elements(table_elements("t", rows))
    assert grid is None or statements_for(grid) == []


def test_number_and_date_parsing():
    assert clean_number("1,234") == 1234 and clean_number("12.5%") == 12.5
    assert clean_number("2 - 1") is None and clean_number("w 24") is None
    assert parse_date("october 3 , 1999") == (1999, 10, 3)
    assert parse_date("3 October 1999") == (1999, 10, 3)
    assert parse_date("1999") == (1999, 0, 0) and parse_date("3 - 1") is None
    assert fmt(3.0) == "3" and fmt(2.456) == "2.46"
