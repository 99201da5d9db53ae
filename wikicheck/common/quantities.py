"""Numbers, dates and quantities in claims, cells and sentences: found, read and compared.

One parser for every reader (claim analysis, cell selection, the table executor, the number
check of a verdict), so that "3,500 metres", "1,940 m (6,365 ft)", "2 September" and "291.5
kilometres (181.1 mi)" mean the same to all of them:

* numbers are digits with thousands separators (``1,234``), an optional fraction and sign, and
  never the parts of a time (``1:33.291``) or of a word (``A4``, ``5th``);
* dates are read as dates (python-dateutil) where a month is named or the form is ISO
  (``2 September``, ``September 2, 1852``, ``1852-09-02``), a bare year is a year;
* a quantity is a number with its scale word (``1.9 million``) and unit (km, mi, m, ft, kg, lb,
  %, currency), converted to one base unit per dimension, so 291.5 km equals 181.1 mi.

Two values are the same when they agree within what the writing could have rounded away (half
the last written digit, 1% across a unit conversion) or within what a hedge (``about``) allows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

__all__ = [
    "MONTH_WORDS",
    "NUMBER",
    "Quantity",
    "as_number",
    "as_ordinal",
    "number_strings",
    "year_strings",
    "numbers",
    "parse_date",
    "find_dates",
    "same_day",
    "span_end",
    "parse_number",
    "quantities",
    "word_counts",
    "same_value",
    "cell_value",
    "compatible",
    "is_date",
    "to_date",
    "whole_number",
    "bare_year",
    "time_seconds",
]

#: A number: thousands-separated or plain digits, an optional fraction, a sign only where it
#: cannot be a dash; not inside a word (``A4``, ``5th``), a time (``1:33.291``) or a decimal's
#: tail. Both ends of a range or score count (``1990–91``, ``3–1``).
NUMBER = re.compile(
    r"(?<![\w.:/])((?<![\w)])[-+\u2212])?"
    r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w:/]|[.,]\d)"
)
#: A cell's first number as the table executor reads it: any digits, also inside a score or a
#: time ("w 24-17" -> 24), because its operations order such columns by their first figure.
_FIRST_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
#: A cell that is one number and nothing else, a currency or percent sign allowed ("$40", "12.5%").
_WHOLE_NUMBER = re.compile(r"^\$?\s*([-+]?\d[\d,]*(?:\.\d+)?)\s*%?$")
_BARE_YEAR = re.compile(r"1[6-9]\d\d|20\d\d")
_NUMBER_TOKEN = re.compile(r"^[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_WORD_NUMBERS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"once": 1, "twice": 2}
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
)
#: The month names and abbreviations a date is written with, lower case: a number beside one
#: is a day or a year ("june 4 1960"), not a count or a value of its own.
MONTH_WORDS = frozenset(_MONTHS.split("|"))
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATE_RE = re.compile(
    rf"\b(?:{_DAY}\s+(?:of\s+)?(?:{_MONTHS})\.?(?:\s?,?\s+\d{{4}})?"
    rf"|(?:{_MONTHS})\.?\s+{_DAY}(?:\s?,?\s+\d{{4}})?(?![\d,.]*\d)"
    rf"|(?:{_MONTHS})\.?\s?,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2})\b",
    re.IGNORECASE,
)
#: A year as a quantity reads it (1000-2099, ASCII digits): a whole number token (``_YEAR``),
#: or a word of a text (``_YEAR_IN_TEXT``, the retriever's claim dates). :func:`bare_year`
#: reads another range (``_BARE_YEAR``: 1600-2099, and ``\d`` also takes non-ASCII digits);
#: it feeds the synthetic table statements, so unifying the two changes training data.
_YEAR_DIGITS = r"1[0-9]{3}|20[0-9]{2}"
_YEAR = re.compile(rf"^({_YEAR_DIGITS})$")
_YEAR_IN_TEXT = re.compile(rf"\b({_YEAR_DIGITS})\b")

#: Unit word -> (dimension, factor to the dimension's base unit). Longest spellings first in
#: the pattern, so "km" is not read as "k" + "m".
_UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("km", "kilometre", "kilometres", "kilometer", "kilometers"), ("length", 1e3)),
    **dict.fromkeys(("m", "metre", "metres", "meter", "meters"), ("length", 1.0)),
    **dict.fromkeys(
        ("cm", "centimetre", "centimetres", "centimeter", "centimeters"), ("length", 0.01)
    ),  # fmt: skip
    **dict.fromkeys(
        ("mm", "millimetre", "millimetres", "millimeter", "millimeters"), ("length", 0.001)
    ),  # fmt: skip
    **dict.fromkeys(("mi", "mile", "miles"), ("length", 1609.344)),
    **dict.fromkeys(("ft", "foot", "feet"), ("length", 0.3048)),
    **dict.fromkeys(("yd", "yard", "yards"), ("length", 0.9144)),
    **dict.fromkeys(
        ("km2", "km²", "sq km", "square kilometres", "square kilometers"), ("area", 1e6)
    ),  # fmt: skip
    **dict.fromkeys(("sq mi", "mi2", "mi²", "square miles"), ("area", 2_589_988.11)),
    **dict.fromkeys(("ha", "hectare", "hectares"), ("area", 1e4)),
    **dict.fromkeys(("acre", "acres"), ("area", 4046.856)),
    **dict.fromkeys(("kg", "kilogram", "kilograms", "kilogramme", "kilogrammes"), ("mass", 1.0)),
    **dict.fromkeys(("g", "gram", "grams"), ("mass", 0.001)),
    **dict.fromkeys(("t", "tonne", "tonnes"), ("mass", 1e3)),
    **dict.fromkeys(("lb", "lbs", "pound", "pounds"), ("mass", 0.45359237)),
    **dict.fromkeys(
        ("km/h", "kph", "kilometres per hour", "kilometers per hour"), ("speed", 1 / 3.6)
    ),  # fmt: skip
    **dict.fromkeys(("mph", "miles per hour"), ("speed", 0.44704)),
    **dict.fromkeys(("m3/s", "m³/s", "cubic metres per second"), ("flow", 1.0)),
    **dict.fromkeys(("cu ft/s", "ft3/s", "ft³/s", "cubic feet per second"), ("flow", 0.0283168)),
    **dict.fromkeys(("%", "percent", "per cent"), ("percent", 1.0)),
}
_UNIT_RE = re.compile(
    r"^\s*(" + "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True)) + r")(?!\w)",
    re.IGNORECASE,
)
_SCALE_RE = re.compile(r"^\s+(thousand|million|billion|trillion)\b", re.IGNORECASE)
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "us$": "usd"}
#: Words before a number that make the stated value a bound or an approximation.
_HEDGES: tuple[tuple[str, str], ...] = (
    ("more than", ">"), ("greater than", ">"), ("over", ">"), ("above", ">"),
    ("exceeding", ">"), ("at least", ">="), ("less than", "<"), ("fewer than", "<"),
    ("under", "<"), ("below", "<"), ("at most", "<="), ("up to", "<="),
    ("about", "~"), ("approximately", "~"), ("around", "~"), ("nearly", "~"),
    ("almost", "~"), ("roughly", "~"), ("some", "~"), ("circa", "~"), ("c.", "~"),
    ("an estimated", "~"), ("estimated", "~"), ("over a", ">"),
    # a comparative before a measure ("smaller than 2.5 square miles", "taller than 6 feet")
    ("larger than", ">"), ("bigger than", ">"), ("higher than", ">"), ("longer than", ">"),
    ("taller than", ">"), ("heavier than", ">"), ("smaller than", "<"), ("lower than", "<"),
    ("shorter than", "<"), ("lighter than", "<"), ("no more than", "<="),
    ("no less than", ">="), ("not less than", ">="), ("not more than", "<="),
)  # fmt: skip
#: Words before a year that make it a bound: "died before 1914" holds 1912.
_YEAR_HEDGES: tuple[tuple[str, str], ...] = (
    ("before", "<"),
    ("prior to", "<"),
    ("earlier than", "<"),
    ("after", ">"),
    ("later than", ">"),
)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A value read from text. ``kind``: ``date``, ``year``, a dimension (``length``, ``area``,
    ``mass``, ``speed``, ``flow``, ``percent``), ``money:<currency>`` or ``number`` (unitless).

    ``value`` is in the dimension's base unit (metres, square metres, kg, m/s); for a date its
    proleptic ordinal. ``tolerance`` is what the writing may have rounded away; ``relation``
    is ``=`` unless a hedge makes it a bound (``>``, ``>=``, ``<``, ``<=``) or approximate
    (``~``). ``granularity`` (dates): ``day``, ``month`` or ``year``; ``noun``: the word after
    a unitless number ("40 *plants*").
    """

    value: float
    kind: str
    text: str
    start: int
    end: int
    tolerance: float = 0.0
    relation: str = "="
    granularity: str = ""
    year: int | None = None
    month: int | None = None
    noun: str = ""


def _to_float(sign: str, digits: str) -> float:
    x = float(digits.replace(",", ""))
    return -x if sign in ("-", "\u2212") else x


def _half_unit(digits: str) -> float:
    """Half the last written digit's place; trailing zeros of a whole number count as rounding
    (capped at 2% so that "40" is not "anything from 35 to 45")."""
    digits = digits.replace(",", "")
    if "." in digits:
        return 0.5 * 10 ** -len(digits.split(".")[1])
    stripped = digits.rstrip("0")
    zeros = len(digits) - len(stripped) if stripped else 0
    half = 0.5 * 10**zeros
    return min(half, max(0.5, 0.02 * float(digits))) if zeros else 0.5


def parse_number(text: str) -> float | None:
    """The first number in a cell (``"1,234 m"`` -> 1234.0, ``"w 24-17"`` -> 24.0); None if
    there is none."""
    m = _FIRST_NUMBER.search(text)
    if not m:
        return None
    try:
        return float(m.group().replace(",", ""))
    except ValueError:
        return None


#: A time as a race or a song gives it: [hours:]minutes:seconds[.fraction], maybe "+".
_TIME = re.compile(r"^\+?(?:(\d+):)?(\d+):(\d\d(?:\.\d+)?)$")


def time_seconds(text: str) -> float | None:
    """A time cell's seconds ("1:23.398" -> 83.398, "2:01:23.5" -> 7283.5); None for a cell
    that is no time."""
    m = _TIME.match(text)
    if m is None:
        return None
    hours, minutes, seconds = m.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)


def whole_number(text: str) -> float | None:
    """A cell that *is* a number (``"1,234"``, ``"12.5%"``, ``"$40"``); None for ``"12 - 3"``
    or ``"w 24"``: what the synthetic statement templates may compute with."""
    m = _WHOLE_NUMBER.match(text.strip())
    return float(m.group(1).replace(",", "")) if m else None


def bare_year(text: str) -> int | None:
    """A cell that is a year and nothing else (1600-2099), as its number."""
    t = text.strip()
    return int(t) if _BARE_YEAR.fullmatch(t) else None


def span_end(start: int, end: str) -> int | None:
    """The last year of a span of years written from ``start`` to ``end``: "1999 - 00" ends in
    2000, "1994 - 95" in 1995, "2001 - 2002" in 2002; None unless ``end`` is two or four digits."""
    if not end.isdigit() or len(end) not in (2, 4):
        return None
    if len(end) == 4:
        return int(end)
    year = start - start % 100 + int(end)
    return year + 100 if year < start else year


def numbers(text: str) -> list[float]:
    """Every number in ``text``, in order."""
    return [_to_float(m.group(1) or "", m.group(2)) for m in NUMBER.finditer(text)]


def year_strings(text: str) -> list[str]:
    """Every year (1000-2099) written as a word of ``text``, in order, repeats kept."""
    return [m.group(1) for m in _YEAR_IN_TEXT.finditer(text)]


def number_strings(text: str) -> list[str]:
    """The numbers of ``text`` as written without separators (``"3,500"`` -> ``"3500"``),
    de-duplicated: what a claim's numbers are looked up by in cells and passages."""
    seen: dict[str, None] = {}
    for m in NUMBER.finditer(text):
        seen.setdefault(
            (m.group(1) or "").replace("\u2212", "-") + m.group(2).replace(",", ""), None
        )
    return list(seen)


def as_number(token: str) -> float | None:
    """A token's number: digits (``"1,234"``) or a number word (``"three"``, ``"twice"``)."""
    if _NUMBER_TOKEN.match(token):
        return float(token.replace(",", "").replace("\u2212", "-"))
    return float(_WORD_NUMBERS[token]) if token in _WORD_NUMBERS else None


#: An ordinal written in digits ("5th", "21st", "166th").
_ORDINAL_TOKEN = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def as_ordinal(token: str) -> int | None:
    """An ordinal token's number ("5th" -> 5); None for anything else."""
    m = _ORDINAL_TOKEN.match(token)
    return int(m.group(1)) if m else None


def parse_date(text: str) -> Quantity | None:
    """The first date in ``text`` (a named month, or ISO), read by python-dateutil; None if
    there is none. The year may be missing ("2 September"): such dates compare by month/day."""
    m = _DATE_RE.search(text)
    return _date_quantity(m) if m else None


def find_dates(text: str) -> list[Quantity]:
    """Every date in ``text`` (as :func:`parse_date` reads one), in order."""
    return [q for m in _DATE_RE.finditer(text) if (q := _date_quantity(m)) is not None]


def same_day(a: Quantity, b: Quantity) -> bool:
    """Whether two dates name the same day: month and day equal, and the year too where both
    write one ("november 24" is "november 24 , 1946"; a month alone names no day)."""
    if not (a.granularity.startswith("day") and b.granularity.startswith("day")):
        return False
    if a.year is not None and b.year is not None:
        return a.value == b.value
    return _month_day(a) == _month_day(b)


def _month_day(q: Quantity) -> tuple[int, int]:
    if q.year is None:
        return int(q.value) // 100, int(q.value) % 100
    d = date.fromordinal(int(q.value))
    return d.month, d.day


def _date_quantity(m: re.Match) -> Quantity | None:
    from dateutil import parser

    span = m.group(0)
    has_year = bool(re.search(r"\d{4}", span))
    has_day = bool(re.search(r"(?<!\d)\d{1,2}(?!\d)", span)) or bool(re.match(r"\d{4}-", span))
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", span, flags=re.IGNORECASE)
    cleaned = re.sub(r"\bof\b|\bsept\b", lambda w: "" if w.group(0) == "of" else "sep", cleaned)
    try:
        # a leap year default keeps "29 February" readable when no year is written
        iso = re.fullmatch(r"\d{4}-\d{2}-\d{2}", cleaned) is not None
        d = parser.parse(cleaned, default=_DEFAULT_DATE, dayfirst=not iso)
    except (ValueError, OverflowError):
        return None
    granularity = "day" if has_day else "month"
    return Quantity(
        value=float(d.toordinal() if has_year else d.month * 100 + d.day),
        kind="date",
        text=span,
        start=m.start(),
        end=m.end(),
        granularity=granularity if has_year else granularity + "-of-year",
        year=d.year if has_year else None,
        month=d.month,
    )


_DEFAULT_DATE = __import__("datetime").datetime(2000, 1, 1)


#: The hedges longest first, so that "no more than" is read before "more than" (sorted once).
_LONGEST_FIRST = tuple(sorted(_HEDGES, key=lambda h: -len(h[0])))
_LONGEST_FIRST_WITH_YEARS = tuple(sorted((*_HEDGES, *_YEAR_HEDGES), key=lambda h: -len(h[0])))


def _relation(text: str, start: int, year: bool = False) -> str:
    before = text[max(0, start - 24) : start].casefold().rstrip(" $€£(")
    for words, rel in _LONGEST_FIRST_WITH_YEARS if year else _LONGEST_FIRST:
        if before.endswith(" " + words) or before == words:
            return rel
    return "="


def quantities(text: str) -> list[Quantity]:
    """Dates, years and numbers with their units, in text order (a date's numbers are not read
    again as numbers)."""
    out: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for m in _DATE_RE.finditer(text):
        q = _date_quantity(m)
        if q is not None:
            out.append(q)
            taken.append((m.start(), m.end()))
    for m in NUMBER.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        sign, digits = m.group(1) or "", m.group(2)
        value = _to_float(sign, digits)
        tol = _half_unit(digits)
        end = m.end()
        rest = text[end:]
        scale = _SCALE_RE.match(rest)
        if scale:
            factor = _SCALES[scale.group(1).lower()]
            value, tol, end = value * factor, tol * factor, end + scale.end()
            rest = text[end:]
        rel = _relation(text, m.start())
        prefix = text[max(0, m.start() - 3) : m.start()].rstrip().casefold()
        currency = next((c for s, c in _CURRENCY.items() if prefix.endswith(s)), None)
        unit = _UNIT_RE.match(rest)
        if currency:
            kind, factor = f"money:{currency}", 1.0
        elif unit and not (unit.group(1) in ("m", "t", "g") and _word_follows(rest, unit.end())):
            kind, factor = _UNITS[unit.group(1).lower()]
            end += unit.end()
        elif _YEAR.match(digits) and not scale and not sign:
            rel = _relation(text, m.start(), year=True)
            out.append(
                Quantity(
                    value,
                    "year",
                    text[m.start() : end],
                    m.start(),
                    end,
                    0.0,
                    rel,
                    "year",
                    year=int(digits),
                )  # fmt: skip
            )
            continue
        else:
            kind, factor = "number", 1.0
        noun = ""
        if kind == "number":
            nxt = re.match(r"\s+([A-Za-z][\w-]*)", rest)
            noun = nxt.group(1).casefold() if nxt else ""
        out.append(
            Quantity(
                value * factor,
                kind,
                text[m.start() : end],
                m.start(),
                end,
                tol * factor,
                rel,
                noun=noun,
            )  # fmt: skip
        )
    out.sort(key=lambda q: q.start)
    return out


_WORD_COUNT = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:different\s+|main\s+|primary\s+|separate\s+)?"
    r"(?!(?:of|the|and|or|to|in|on|at|by|for|with|from|more|times)\b)([A-Za-z][\w-]*)",
    re.IGNORECASE,
)


def word_counts(text: str) -> list[Quantity]:
    """Counts written as words before what they count ("two labels", "more than three
    producers"), which :func:`quantities` leaves out: "one" is seldom a count, and a number
    word elsewhere ("two of them") counts nothing the text names."""
    out = []
    for m in _WORD_COUNT.finditer(text):
        if m.group(1)[0].isupper() and m.start() > 0:
            continue  # "Party of Five": a name
        value = float(_WORD_NUMBERS[m.group(1).casefold()])
        rel = _relation(text, m.start())
        noun = m.group(2).casefold()
        out.append(
            Quantity(value, "number", m.group(0), m.start(), m.end(), relation=rel, noun=noun)
        )
    return out


def _word_follows(rest: str, at: int) -> bool:
    """A one-letter unit ("m", "t", "g") followed by more letters is a word ("5 mothers")."""
    return bool(re.match(r"[A-Za-z]", rest[at : at + 1]))


def compatible(a: Quantity, b: Quantity) -> bool:
    """Whether two values measure the same kind of thing (a year and a dated year do)."""
    if a.kind == b.kind:
        return True
    return {a.kind, b.kind} == {"year", "date"} and a.year is not None and b.year is not None


def same_value(claimed: Quantity, found: Quantity) -> bool | None:
    """Whether ``found`` agrees with ``claimed`` (honouring the claim's hedge: a bound is
    checked as a bound); None when they cannot be compared (different kinds, or dates with
    nothing in common to compare)."""
    if not compatible(claimed, found):
        return None
    if "year" in (claimed.kind, found.kind) or claimed.kind == "date":
        if claimed.kind == "date" and found.kind == "date":
            if claimed.year is not None and found.year is not None:
                if claimed.granularity == found.granularity == "day":
                    return claimed.value == found.value
                return claimed.year == found.year and (
                    claimed.month == found.month
                    or "month" not in (claimed.granularity + found.granularity)
                )
            if claimed.year is None and found.year is None:
                return claimed.value == found.value
            return None  # one side has no year: only month/day could be compared
        if claimed.year is None or found.year is None:
            return None
        return _relates(claimed.relation, float(found.year), float(claimed.year), 0.0, 0.0)
    tol = max(claimed.tolerance, found.tolerance)
    if claimed.kind not in ("number", "percent") and not claimed.kind.startswith("money"):
        tol = max(tol, 0.01 * abs(claimed.value))  # a unit conversion rounds too
    return _relates(claimed.relation, found.value, claimed.value, tol, 0.1 * abs(claimed.value))


def _relates(rel: str, found: float, claimed: float, tol: float, approx: float) -> bool:
    if rel == ">":
        return found > claimed - tol
    if rel == ">=":
        return found >= claimed - tol
    if rel == "<":
        return found < claimed + tol
    if rel == "<=":
        return found <= claimed + tol
    if rel == "~":
        return abs(found - claimed) <= max(tol, approx)
    return abs(found - claimed) <= tol + 1e-9 * max(1.0, abs(claimed))


def cell_value(text: str) -> float | None:
    """A cell's value for ordering: a date (as a day count, or month/day without a year) when
    the cell is a date, else its first number. Why dates first: "2 September" must come after
    "30 August", which their first numbers (2 < 30) would get wrong."""
    d = parse_date(text)
    if d is not None and len(d.text) >= 0.6 * len(text.strip()):
        return d.value
    return parse_number(text)


def is_date(text: str) -> bool:
    """Whether a cell is a date (most of its text is one)."""
    d = parse_date(text)
    return d is not None and len(d.text) >= 0.6 * len(text.strip())


def to_date(q: Quantity) -> date | None:
    """A full date's calendar date (None for years and dates without a year)."""
    if q.kind != "date" or q.year is None:
        return None
    return date.fromordinal(int(q.value))
