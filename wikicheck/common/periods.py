"""Stretches of time a claim names instead of a date (a season, a decade, a century) and the
lengths of time it states ("for over 30 years") against the ranges a table writes.

"Hot Space was released in the Fall of 1982" states more than the year 1982, and a number check
that reads only the year agrees with a page's "21 May 1982". A :class:`Period` says whether a
date or year the evidence gives lies inside it (``True``), outside it (``False``) or too near
its edge, or with too little written, to tell (``None``): "the late 1920s" holds 1928, not
1921, and says nothing of 1925; a season holds its three months (northern ones: spring is March
to May), not the month either side of them, where writers differ. A length ("served for eight
years", :func:`find_durations`) is set against a range the evidence writes ("1993 – 2001",
:func:`range_lengths`), never against "present": the same input gives the same answer on any
day.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wikicheck.common.quantities import Quantity

__all__ = ["Period", "duration_holds", "find_durations", "find_periods", "range_lengths"]

_PART = r"(?:(?P<part>early|mid|middle|late|beginning|start|end)(?:[\s-]+|\s+of\s+)(?:the\s+)?)?"
_DECADE = re.compile(
    rf"\b{_PART}(?:the\s+)?(?:(?P<century>1[0-9]|20)(?P<ten>[0-9])0|['\u2019](?P<short>[3-9])0)"
    r"['\u2019]?s\b",
    re.IGNORECASE,
)
_ORDINAL_WORDS = {
    w: i
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
        "twenty-first".split(),
        start=1,
    )
}
_CENTURY = re.compile(
    rf"\b{_PART}(?:(?P<n>[1-9]|1[0-9]|2[01])(?:st|nd|rd|th)|(?P<word>{'|'.join(sorted(_ORDINAL_WORDS, key=len, reverse=True))}))"
    r"[\s-]+century\b",
    re.IGNORECASE,
)
_SEASON_MONTHS = {
    "spring": (3, 4, 5),
    "summer": (6, 7, 8),
    "fall": (9, 10, 11),
    "autumn": (9, 10, 11),
    "winter": (12, 1, 2),
}
_SEASON = re.compile(
    r"\b(?:(?P<lead>in|during|the|of)\s+(?:the\s+)?(?:(?:early|late|mid)[\s-]+)?)?"
    r"(?P<season>spring|summer|fall|autumn|winter)\b"
    r"(?:\s+(?:of\s+)?(?P<year>1[0-9]{3}|20[0-9]{2}|['\u2019][0-9]{2})\b)?",
    re.IGNORECASE,
)
#: Where in a decade or century each part lies, as shares of its length: (inside from, inside
#: to, outside below, outside above); between the two a writer might have said either.
_PARTS = {
    None: (0.0, 1.0, 0.0, 1.0),
    "early": (0.0, 0.35, 0.0, 0.55),
    "beginning": (0.0, 0.35, 0.0, 0.55),
    "start": (0.0, 0.35, 0.0, 0.55),
    "mid": (0.3, 0.7, 0.15, 0.85),
    "middle": (0.3, 0.7, 0.15, 0.85),
    "late": (0.65, 1.0, 0.45, 1.0),
    "end": (0.65, 1.0, 0.45, 1.0),
}


@dataclass(frozen=True, slots=True)
class Period:
    """A stretch of years (``first`` to ``last``, and the part of it the text names), or a
    season (``months``) of ``first`` or of any year when the text gives none."""

    text: str
    start: int
    end: int
    first: int | None
    last: int | None
    part: str | None = None
    months: tuple[int, ...] = ()

    def holds(self, year: int | None, month: int | None = None) -> bool | None:
        """Whether a date (a year, with its month when known) lies in the period."""
        if self.months:
            return self._season_holds(year, month)
        if year is None or self.first is None or self.last is None:
            return None
        span = self.last - self.first + 1
        inside_from, inside_to, outside_below, outside_above = _PARTS[self.part]
        if year in (self.first - 1, self.last + 1):
            return None  # "the 17th century" is 1601-1700 to some writers, 1600-1699 to others
        at = (year - self.first) / span
        if at < 0 or at >= 1:
            return False
        if inside_from <= at <= inside_to:
            return True
        if at < outside_below or at > outside_above:
            return False
        return None

    def _season_holds(self, year: int | None, month: int | None) -> bool | None:
        if self.first is not None and year is not None:
            winter_next = self.months[0] == 12 and month in (1, 2) and year == self.first + 1
            if year != self.first and not winter_next:
                return False
        if month is None:
            return True if self.first is not None and year == self.first else None
        if month in self.months:
            return True
        if any(abs((month - m + 6) % 12 - 6) == 1 for m in self.months):
            return None  # the month next to the season: some writers count it in
        return False


def _short_year(text: str) -> int:
    """'77 is 1977, '05 2005."""
    two = int(text[-2:])
    return 1900 + two if two >= 30 else 2000 + two


#: Words that make a period a bound ("before the 1920s", "since the spring"), not a time.
_BOUND = re.compile(
    r"\b(?:before|after|since|until|till|prior\s+to|by|following|than|through|from|to|pre|post)"
    r"[\s-]+(?:the\s+)?$",
    re.IGNORECASE,
)


def find_periods(text: str) -> list[Period]:
    """The seasons, decades and centuries a text names, in text order; a period named as a
    bound ("before the 1920s", "since the spring") is not one."""
    return [p for p in _periods(text) if not _BOUND.search(text[max(0, p.start - 16) : p.start])]


def _periods(text: str) -> list[Period]:
    out: list[Period] = []
    for m in _DECADE.finditer(text):
        part = (m.group("part") or "").casefold() or None
        if not m.group("century"):
            first = 1900 + int(m.group("short")) * 10
            out.append(Period(m.group(0), m.start(), m.end(), first, first + 9, part))
            continue
        first = int(m.group("century")) * 100 + int(m.group("ten")) * 10
        # "the 1800s" is a century; "the 2000s" may be either, and is read as the longer
        last = first + 99 if m.group("ten") == "0" else first + 9
        out.append(Period(m.group(0), m.start(), m.end(), first, last, part))
    for m in _CENTURY.finditer(text):
        n = int(m.group("n")) if m.group("n") else _ORDINAL_WORDS[m.group("word").casefold()]
        part = (m.group("part") or "").casefold() or None
        out.append(Period(m.group(0), m.start(), m.end(), (n - 1) * 100, n * 100 - 1, part))
    for m in _SEASON.finditer(text):
        season = m.group("season").casefold()
        bare = not (m.group("lead") or m.group("year"))
        if bare and (season == "fall" or m.group("season")[0].isupper()):
            continue  # "prices fall": the verb; "City of the Eternal Spring": a name
        if re.match(r"\s+[A-Z]", text[m.end() :]):
            continue  # "the Summer Olympics", "Fall Out Boy"
        year_text = m.group("year")
        year = None
        if year_text:
            year = _short_year(year_text) if not year_text[0].isdigit() else int(year_text)
        start = m.start("season") if not m.group("lead") else m.start()
        out.append(
            Period(text[start : m.end()], start, m.end(), year, year, months=_SEASON_MONTHS[season])
        )
    out.sort(key=lambda p: p.start)
    return out


_COUNT_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"a": 1, "an": 1, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
     "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}  # fmt: skip
_HEDGE = {
    "over": ">", "more than": ">", "just over": ">", "at least": ">=", "less than": "<",
    "under": "<", "fewer than": "<", "about": "~", "around": "~", "almost": "~", "nearly": "~",
    "roughly": "~", "approximately": "~", "exactly": "=", "only": "=",
}  # fmt: skip
_DURATION = re.compile(
    r"\b(?P<lead>for|took|spent|lasted|lasting|within|of)\s+"
    rf"(?:(?P<hedge>{'|'.join(sorted(_HEDGE, key=len, reverse=True))})\s+)?"
    rf"(?P<n>[0-9]{{1,3}}|{'|'.join(sorted(_COUNT_WORDS, key=len, reverse=True))})\s+"
    r"(?P<unit>years?|months?|decades?)\b(?:\s+or\s+(?P<tail>more|longer|less|fewer)\b)?"
    r"(?!\s+(?:old|ago|before|after|later|earlier|prior)\b)",
    re.IGNORECASE,
)
_UNIT_YEARS = {"year": 1.0, "month": 1 / 12, "decade": 10.0}
#: What joins the two ends of a range: "1993 – 2001", "April 2008 to May 2009".
_OPEN_END = re.compile(r"\b(?:present|current|ongoing|now)\b", re.IGNORECASE)
_RANGE_JOIN = re.compile(r"\s*(?:-|\u2013|\u2014|to|until|till)\s*$", re.IGNORECASE)


def find_durations(text: str) -> list[Quantity]:
    """Lengths of time a text states ("for over 30 years", "took two months"), in years, with
    the hedge as the relation; "30 years old", "two years ago" and "a year later" are none."""
    out = []
    for m in _DURATION.finditer(text):
        n = m.group("n").casefold()
        count = float(n) if n.isdigit() else float(_COUNT_WORDS[n])
        unit = _UNIT_YEARS[m.group("unit").casefold().rstrip("s")]
        rel = _HEDGE.get(re.sub(r"\s+", " ", (m.group("hedge") or "").casefold()), "=")
        if m.group("tail"):  # "20 years or more"
            rel = ">=" if m.group("tail").casefold() in ("more", "longer") else "<="
        start = m.start("hedge") if m.group("hedge") else m.start("n")
        out.append(
            Quantity(
                count * unit,
                "duration",
                text[start : m.end()],
                start,
                m.end(),
                min(unit, 1) / 2,
                rel,
            )
        )
    return out


def range_lengths(text: str, values: Sequence[Quantity]) -> list[Quantity]:
    """The ranges of dates or years a text writes ("1993 – 2001", "5 February 2005 - 8 June
    2007") as a length in years, with what its writing leaves uncertain (a year either way for
    years alone). A text with a range ending in "present", or with several ranges, gives none."""
    if _OPEN_END.search(text):
        return []  # "1970–1984, 1985–present": the whole is open, each part only a part
    out = []
    dated = [v for v in values if v.kind in ("date", "year") and v.year is not None]
    for a, b in zip(dated, dated[1:]):
        if not _RANGE_JOIN.fullmatch(text[a.end : b.start]) or b.year < a.year:
            continue
        if a.kind == b.kind == "date" and a.granularity == b.granularity == "day":
            length, slack = (b.value - a.value) / 365.25, 1 / 365.25
        elif a.month is not None and b.month is not None and "year" not in (a.kind, b.kind):
            length, slack = (b.year - a.year) + (b.month - a.month) / 12, 1 / 12
        else:
            length, slack = float(b.year - a.year), 1.0
        out.append(Quantity(length, "duration", text[a.start : b.end], a.start, b.end, slack))
    return out if len(out) == 1 else []  # several ranges: which length is the claim's?


def duration_holds(claimed: Quantity, found: Quantity) -> bool | None:
    """Whether a range's length (``found``) is the length the claim states, honouring its hedge;
    None where the writing of either leaves it open."""
    slack = found.tolerance  # a bound is where it is written; a length is said to its unit
    d, n = found.value, claimed.value
    if claimed.relation in (">", ">="):
        return True if d - slack >= n else False if d + slack < n else None
    if claimed.relation in ("<", "<="):
        return True if d + slack <= n else False if d - slack > n else None
    slack += claimed.tolerance
    if claimed.relation == "~":
        slack += 0.1 * n
    off = abs(d - n)
    return True if off <= slack else False if off > slack + max(1.0, 0.1 * n) else None
