"""The one number/date/quantity parser: what counts as a number, dates read as dates, units
converted, and two values compared within what their writing rounded away."""

from __future__ import annotations

import pytest

from wikicheck.common.quantities import (
    as_number,
    cell_value,
    find_dates,
    number_strings,
    parse_date,
    parse_number,
    quantities,
    same_day,
    same_value,
    span_end,
    word_counts,
)


def _one(text: str):
    (q,) = quantities(text)
    return q


def test_numbers_are_not_read_inside_times_or_words():
    assert number_strings("It is 3,500 m high; lap 1:33.291; the A4 road; 12 times") == [
        "3500",
        "12",
    ]
    assert number_strings("the 1990–91 season, won 3–1, -4 degrees") == [
        "1990",
        "91",
        "3",
        "1",
        "-4",
    ]
    assert quantities("lap 1:33.291") == []
    assert (
        parse_number("w 24-17") == 24.0
    )  # the executor orders score columns by their first figure
    assert as_number("1,234") == 1234.0 and as_number("three") == 3.0 and as_number("x") is None


def test_units_convert_to_one_base_unit():
    km, mi = quantities("291.5 kilometres (181.1 mi)")
    assert (km.kind, mi.kind) == ("length", "length")
    assert same_value(km, mi) and same_value(mi, km)
    assert same_value(_one("1,940 m"), _one("6,365 ft"))
    assert not same_value(_one("3,500 metres"), _one("1,940 m"))
    assert same_value(_one("3,500 metres"), _one("25%")) is None  # different kinds


def test_rounding_and_hedges():
    assert same_value(_one("1.9 million people"), _one("1,940,000 people"))
    assert not same_value(_one("295 km"), _one("291.5 km"))
    assert same_value(_one("about 295 km"), _one("291.5 km"))
    assert same_value(_one("more than 40 plants"), _one("43 plants"))
    assert not same_value(_one("more than 40 plants"), _one("38 plants"))
    # the longest hedge before a number is its relation: "no more than" is no "more than"
    assert same_value(_one("no more than 40 plants"), _one("38 plants"))
    assert not same_value(_one("no more than 40 plants"), _one("43 plants"))
    assert same_value(_one("smaller than 2.5 square miles"), _one("2.011 sq mi"))


@pytest.mark.parametrize(
    "text, year, month",
    [("6 October 1852", 1852, 10), ("September 2, 2005", 2005, 9), ("2005-09-02", 2005, 9),
     ("the 3rd of May 1990", 1990, 5), ("2 September", None, 9),
     # tokenized text (TabFact, FEVEROUS cells) writes its comma apart
     ("november 24 , 1946", 1946, 11), ("2 november , 1700", 1700, 11)],
)  # fmt: skip
def test_dates_are_read_as_dates(text, year, month):
    d = parse_date(text)
    assert (d.kind, d.year, d.month) == ("date", year, month)


def test_years_and_dates_compare_by_what_both_state():
    assert same_value(_one("in 2005"), _one("September 2, 2005"))
    assert not same_value(_one("in 2015"), _one("September 2, 2005"))
    assert same_value(_one("in 1852"), _one("2 September")) is None  # no year to compare


def test_cells_order_as_dates_when_they_are_dates():
    assert cell_value("2 September") > cell_value("30 August")
    assert cell_value("1,234 m") == 1234.0


def test_number_and_date_patterns_live_in_the_shared_parser():
    """One parser (wikicheck.common.quantities): no other module of the package writes a
    regular expression for digits, except the element-id grammars, which parse ids, not values."""
    import os
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "wikicheck"
    allowed = {"common/quantities.py", "ids.py", "indexer/convert/bench.py"}
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if name.endswith(".py") and rel not in allowed:
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    code = line.split("#", 1)[0]
                    if "\\d" in code and ("re." in code or 'r"' in code or "r'" in code):
                        found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, "digit patterns outside wikicheck.common.quantities:\n" + "\n".join(found)


def test_two_writings_of_one_day_are_the_same_day():
    a, b, c, d = find_dates("november 24; 24 november 1946; november 25 , 1946; 24 november 1947")
    month = find_dates("november 1946")[0]
    assert same_day(a, b) and same_day(b, a)  # no year on one side: month and day decide
    assert not same_day(b, c) and not same_day(b, d) and same_day(a, d)
    assert not same_day(month, b)  # a month names no day


def test_a_year_after_before_or_prior_to_is_a_bound():
    before, after, plain = quantities("He died before 1914, after 1880 and in 1900.")
    assert (before.relation, after.relation, plain.relation) == ("<", ">", "=")
    died = quantities("1912")[0]
    assert same_value(before, died) and not same_value(after, quantities("1870")[0])
    # only years: "after 5 games" states five games
    assert quantities("after 5 games")[0].relation == "="


def test_counts_written_as_words_name_what_they_count():
    counts = word_counts("It came out on two labels with more than three different producers.")
    assert [(q.value, q.noun, q.relation) for q in counts] == [
        (2.0, "labels", "="), (3.0, "producers", ">"),
    ]  # fmt: skip
    # a name, a share of a group and a lone "one" are no counts
    counts = word_counts("Party of Five ran for two of its six years; one label.")
    assert [(q.text, q.value, q.noun) for q in counts] == [("six years", 6.0, "years")]


def test_a_span_of_years_ends_in_the_year_its_second_half_names():
    assert span_end(1994, "95") == 1995
    assert span_end(1999, "00") == 2000  # across a century
    assert span_end(2001, "2002") == 2002
    assert span_end(2018, "18") == 2018
    assert span_end(1994, "5") is None and span_end(1994, "9a") is None
