"""Seasons, decades and centuries a claim names instead of a date, and what they hold."""

from __future__ import annotations

import pytest

from wikicheck.common.periods import find_periods


def _one(text: str):
    periods = find_periods(text)
    assert len(periods) == 1, periods
    return periods[0]


@pytest.mark.parametrize(
    ("text", "span", "first", "last"),
    [
        ("The late 1920's was when Dali painted it.", "late 1920's", 1920, 1929),
        ("It was painted in the mid-1960s.", "mid-1960s", 1960, 1969),
        ("It was released in the '90s.", "the '90s", 1990, 1999),
        ("He was born in the 1800s.", "the 1800s", 1800, 1899),
        ("at the beginning of the 17th century", "beginning of the 17th century", 1600, 1699),
        ("a nineteenth-century poet", "nineteenth-century", 1800, 1899),
        ("Hot Space was released in the Fall of 1982.", "in the Fall of 1982", 1982, 1982),
        ("first published in the Summer of '77.", "in the Summer of '77", 1977, 1977),
        ("She took office in the spring.", "in the spring", None, None),
    ],
)
def test_each_kind_of_period_is_found_with_its_years(text, span, first, last):
    p = _one(text)
    assert (p.text, p.first, p.last) == (span, first, last)
    assert text[p.start : p.end] == span


@pytest.mark.parametrize(
    "text",
    [
        "He died before the 1920s.",
        "The band has played since the 1990s.",
        "Prices fall in 1990.",
        "She competed at the 1992 Summer Olympics.",
        "Brendon Urie is a member of Fall Out Boy.",
        "Medellin is the City of the Eternal Spring.",
        "It was done by the spring of 1990.",
    ],
)
def test_bounds_verbs_and_names_are_no_periods(text):
    assert find_periods(text) == []


def test_a_part_of_a_decade_holds_its_years_and_leaves_the_middle_undecided():
    late = _one("in the late 1920s")
    assert [late.holds(y) for y in (1921, 1924, 1925, 1926, 1927, 1929, 1931)] == [
        False, False, None, None, True, True, False,
    ]  # fmt: skip
    assert late.holds(1930) is None  # next to its end: writers differ
    century = _one("in the early 20th century")
    assert century.holds(1905) is True and century.holds(1980) is False
    assert century.holds(1940) is None and century.holds(None) is None


def test_a_season_holds_its_months_not_its_neighbours():
    fall = _one("released in the Fall of 1982")
    assert [fall.holds(1982, m) for m in (5, 8, 9, 11, 12)] == [False, None, True, True, None]
    assert fall.holds(1982) is True  # the year alone agrees and says nothing of the season
    assert fall.holds(1983, 10) is False
    winter = _one("born in the winter of 1858")
    assert winter.holds(1858, 12) and winter.holds(1859, 1) and winter.holds(1858, 7) is False
    spring = _one("took office in the spring")
    assert spring.holds(2009, 4) is True and spring.holds(2009, 1) is False
    assert spring.holds(2009) is None
