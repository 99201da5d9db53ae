"""A small program executor for table claims: what a 6-layer model reading a linearized table
cannot compute (which row is the extreme one, how many rows share a value, sums, differences,
ranks, "only"/"all"/"none") is parsed from the claim into a program over the parsed table, run,
and returned with its verdict and the program text (shown by ``verify``, written in predictions).

Each operation answers only when it can ground the claim in the table: the rows it names (a cell
whose whole text occurs in the claim), the column it names (a header sharing its content words,
or the only numeric column), the numbers it states. Otherwise it abstains (None). Tables without
column headers (infoboxes: key/value rows), empty tables and non-numeric columns make it abstain,
never raise.

How a verdict is combined with the model is not decided here: each operation's precision on
TabFact *train* statements, for each label it can give (``OP_PRECISION``, from the counts that
``bench/bench_table_rules.py --write`` keeps in ``executor_precision.json``; no model is loaded)
is its calibrated confidence, and ``verifier.predict`` lets it override the model
only where that confidence beats the model's own by the margin chosen on TabFact val's training
half (``combine``; docs/verifier.md has the numbers).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wikicheck.model import REFUTES, SUPPORTS, Element

__all__ = [
    "OPS",
    "OP_PRECISION",
    "Verdict",
    "TableGrid",
    "combine",
    "execute",
    "parse_number",
]

_NUM = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_NUM_TOKEN = re.compile(r"^-?\d[\d,]*(?:\.\d+)?$")
_SPLIT = re.compile(r"([()\[\]\"';:!?])")
_WORD_NUMBERS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"once": 1, "twice": 2}
_ORDINAL_WORDS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5}
_STOP = frozenset(
    """the a an of in on at to be is was and or for by with as from that this have has had there
    their they it its than more less most least only all same when which who what not no do does
    did time times game team player year after before during per while any each other then first
    last second third 1st 2nd 3rd out over under up down into also""".split()
)
_MAX = frozenset("highest most largest biggest greatest longest maximum top best".split())
_MIN = frozenset("lowest least fewest smallest shortest minimum worst".split())
_MORE = frozenset("more higher larger greater bigger longer better older later".split())
_LESS = frozenset("less lower smaller fewer shorter worse younger earlier".split())
_TOTAL = frozenset("total sum combined altogether overall".split())
_AVERAGE = frozenset("average mean".split())
#: Words that say a number in the claim may be a count of rows.
_COUNT_CUES = frozenset("there time times of total count number appear game only win won".split())


def parse_number(text: str) -> float | None:
    """The first number in a cell (``"1,234"`` -> 1234.0); None if there is none."""
    m = _NUM.search(text)
    if not m:
        return None
    try:
        return float(m.group().replace(",", ""))
    except ValueError:
        return None


def _tokens(text: str) -> list[str]:
    return _SPLIT.sub(r" \1 ", text.lower().replace("\u2013", "-")).split()


def _number(token: str) -> float | None:
    if _NUM_TOKEN.match(token):
        return float(token.replace(",", ""))
    return float(_WORD_NUMBERS[token]) if token in _WORD_NUMBERS else None


def _contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the executor concluded: the label, the operation, and the program it ran."""

    label: str
    op: str
    program: str


def _stem(word: str) -> str:
    """A plural's singular, roughly: TabFact statements are lemmatised ("lap" under "laps")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"  # countries
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]  # matches, losses
    return word[:-1]


@dataclass
class TableGrid:
    """One table's cells as lower-cased rows under column headers (what the programs read)."""

    headers: dict[int, str]
    rows: list[dict[int, str]]
    numeric: set[int] = field(default_factory=set)

    @classmethod
    def from_cells(cls, cells: Sequence[Element]) -> TableGrid:
        """Data cells of the first table in ``cells``; infobox-shaped tables get no headers."""
        data = [el for el in cells if el.type == "cell" and el.col is not None]
        if data:
            first = (data[0].page, data[0].table)
            data = [el for el in data if (el.page, el.table) == first]
        infobox = bool(data) and (
            data[0].table_type == "infobox"
            or (all(el.row_header_texts for el in data) and len({el.col for el in data}) == 1)
        )
        headers: dict[int, str] = {}
        by_row: dict[int, dict[int, str]] = {}
        for el in data:
            by_row.setdefault(el.row or 0, {})[el.col] = " ".join(el.text.lower().split())
            if el.col_header_texts and not infobox:
                headers[el.col] = " ".join(el.col_header_texts[-1].lower().split())
        rows = [by_row[r] for r in sorted(by_row)]
        numeric = {
            c
            for c in headers
            if sum(parse_number(r.get(c, "")) is not None for r in rows) >= 0.8 * max(1, len(rows))
        }
        return cls(headers, rows, numeric)

    def value(self, row: int, col: int) -> float | None:
        return parse_number(self.rows[row].get(col, ""))

    def column_values(self, col: int) -> dict[int, float]:
        return {r: v for r in range(len(self.rows)) if (v := self.value(r, col)) is not None}

    def name(self, row: int) -> str:
        """A row's name for a program: its first non-numeric cell."""
        cells = self.rows[row]
        for c in sorted(cells):
            if cells[c] and parse_number(cells[c]) is None:
                return cells[c]
        return f"row {row + 1}"

    def mentions(self, claim: list[str]) -> list[tuple[int, int]]:
        """(row, col) of the non-numeric cells whose whole text occurs in the claim."""
        out = []
        for r, row in enumerate(self.rows):
            for c, text in row.items():
                toks = _tokens(text)
                if not toks or (len(toks) == 1 and (toks[0] in _STOP or len(toks[0]) < 3)):
                    continue
                if all(_number(t) is not None or t in "-,." for t in toks):
                    continue
                if _contains(claim, toks):
                    out.append((r, c))
        return out

    def header_columns(self, words: set[str], numeric_only: bool = False) -> list[int]:
        """Columns whose header shares the most content words with the claim (ties kept)."""
        stems = {_stem(w) for w in words}
        scored = [
            (len({_stem(w) for w in _tokens(h) if w not in _STOP} & stems), c)
            for c, h in self.headers.items()
            if not numeric_only or c in self.numeric
        ]
        best = max((s for s, _ in scored), default=0)
        return sorted(c for s, c in scored if s and s == best)


@dataclass
class _Claim:
    tokens: list[str]
    words: set[str]
    mentions: list[tuple[int, int]]

    def numbers(self, skip: Sequence[tuple[int, int]] = ()) -> list[float]:
        """The numbers among the tokens (not parts of scores, dates or times), outside ``skip``
        (token spans)."""
        out = []
        toks = self.tokens
        for i, tok in enumerate(toks):
            n = _number(tok)
            joined = (i > 0 and toks[i - 1] in "-:/") or (
                i + 1 < len(toks) and toks[i + 1] in "-:/"
            )
            if n is not None and not joined and not any(a <= i < b for a, b in skip):
                out.append(n)
        return out


def _one_numeric_column(claim: _Claim, t: TableGrid, fallback: bool = False) -> int | None:
    cols = t.header_columns(claim.words, numeric_only=True)
    if not cols and fallback:
        cols = sorted(t.numeric)
    return cols[0] if len(cols) == 1 else None


def _superlative(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row> has the highest/lowest <column>": is the named row the extreme one?"""
    want = max if claim.words & _MAX else min if claim.words & _MIN else None
    if want is None or len(t.rows) < 3 or claim.words & set(_ORDINAL_WORDS):
        return None
    rows_of = _rows_by_mention(claim, t)
    toks = claim.tokens
    often = any(w in _MOST_OFTEN and (i == 0 or toks[i - 1] != "at") for i, w in enumerate(toks))
    if often and len(rows_of) == 1:
        (c, v), rows = next(iter(rows_of.items()))
        if len(rows) > 1:
            return _most_often(want, c, v, t)
    col = _one_numeric_column(claim, t)
    if col is None:
        return None
    values = t.column_values(col)
    # a value named in several rows is a condition ("in 2009"): the extreme is taken among them
    within = [rs for (c, _), rs in rows_of.items() if c != col and len(rs) > 1]
    subset = set.intersection(*within) if within else set(values)
    values = {r: x for r, x in values.items() if r in subset}
    if len(values) < 2:
        return None
    best = want(values.values())
    named = sorted({r for (c, _), rs in rows_of.items() if c != col and len(rs) == 1 for r in rs})
    fn = "argmax" if want is max else "argmin"
    where = f" among {len(values)} rows" if within else ""
    if not named:
        return _extreme_value(claim, t, col, best, f"{fn[3:]}({t.headers[col]}){where}")
    winners = [t.name(r) for r, v in values.items() if v == best]
    program = f"{fn}({t.headers[col]}){where} = {' | '.join(winners)}; named: {t.name(named[0])}"
    ok = any(values.get(r) == best for r in named)
    return Verdict(SUPPORTS if ok else REFUTES, "superlative", program)


def _extreme_value(
    claim: _Claim, t: TableGrid, col: int, best: float, program: str
) -> Verdict | None:
    """ "the lowest <column> be N" (no row named): is N the extreme value?

    N is the claim's one number, stated after the superlative and found in no other column."""
    toks = claim.tokens
    words = _MAX | _MIN
    at = [i for i, w in enumerate(toks) if w in words]
    if "than" in claim.words or claim.words & (_MORE | _LESS | _TOTAL | _AVERAGE | {"difference"}):
        return None
    if any(toks[i - 1] == "at" for i in at if i > 0):
        return None  # "at least 5", "at most 3": bounds, not the extreme
    # N comes after the superlative ("episode 10 have the lowest rating" names a row) and is
    # a value of no other column
    elsewhere = {t.value(r, c) for r in range(len(t.rows)) for c in t.rows[r] if c != col}
    stated = [n for n in _Claim(toks[at[0] + 1 :], set(), []).numbers() if n not in elsewhere]
    if len(stated) != 1 or len(claim.numbers()) != 1:
        return None
    ok = abs(best - stated[0]) <= 1e-6 * max(1.0, abs(best))
    return Verdict(SUPPORTS if ok else REFUTES, "superlative",
                   f"{program} = {_fmt(best)}; claimed {_fmt(stated[0])}")  # fmt: skip


#: Superlatives that can be about how often a value occurs ("directed the most episodes").
_MOST_OFTEN = frozenset("most least fewest".split())


def _rows_by_mention(claim: _Claim, t: TableGrid) -> dict[tuple[int, str], set[int]]:
    """(column, value) of each cell the claim names -> the rows holding that value there."""
    out: dict[tuple[int, str], set[int]] = {}
    for r, c in claim.mentions:
        v = t.rows[r][c]
        out.setdefault((c, v), {i for i, row in enumerate(t.rows) if row.get(c) == v})
    return out


def _most_often(want: Callable, col: int, value: str, t: TableGrid) -> Verdict:
    """Is ``value`` the most (least) frequent value of its column?"""
    counts: dict[str, int] = {}
    for row in t.rows:
        if row.get(col):
            counts[row[col]] = counts.get(row[col], 0) + 1
    best = want(counts.values())
    winners = [v for v, n in counts.items() if n == best]
    fn = "most_often" if want is max else "least_often"
    header = t.headers.get(col, f"column {col}")
    program = f"{fn}({header}) = {' | '.join(winners)} ({best}); named {value!r} ({counts[value]})"
    return Verdict(SUPPORTS if counts[value] == best else REFUTES, "superlative", program)


def _ordinal(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row> has the second/third highest <column>": the named row's rank."""
    ranks = [_ORDINAL_WORDS[w] for w in claim.tokens if w in _ORDINAL_WORDS]
    want = "max" if claim.words & _MAX else "min" if claim.words & _MIN else None
    if len(ranks) != 1 or want is None:
        return None
    col = _one_numeric_column(claim, t)
    named = sorted({r for r, c in claim.mentions if c != col})
    if col is None or len(named) != 1:
        return None
    values = t.column_values(col)
    if named[0] not in values or len(values) <= ranks[0]:
        return None
    distinct = sorted(set(values.values()), reverse=want == "max")
    rank = distinct.index(values[named[0]]) + 1
    program = f"rank_{want}({t.headers[col]}, {t.name(named[0])}) = {rank}; claimed {ranks[0]}"
    return Verdict(SUPPORTS if rank == ranks[0] else REFUTES, "ordinal", program)


#: A number right after these names a thing ("number 3 pick", "season 5", "game 2"), not a count.
_NOT_COUNT_BEFORE = frozenset(
    "number no # season part class game round week episode pick district race stage series "
    "volume chapter vol ep rank position seed grade division level channel track disc first last "
    "final all".split()
)
#: A number right before these is a measure ("7 day apart", "5 point", "16 million"), not a count.
_NOT_COUNT_AFTER = frozenset(
    """day days point points pts million billion stroke strokes mpg ft in cm m km kg lb lbs mile
    miles yard yards year years minute minutes min hour hours second seconds percent % goal goals
    run runs lap laps vote votes metre metres meter meters inch inches foot feet""".split()
)
#: "more than N" / "at least N" ...: how the row count relates to the stated N.
_COUNT_RELATIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("more", "than"), ">"),
    (("greater", "than"), ">"),
    (("over",), ">"),
    (("above",), ">"),
    (("at", "least"), ">="),
    (("less", "than"), "<"),
    (("fewer", "than"), "<"),
    (("under",), "<"),
    (("below",), "<"),
    (("at", "most"), "<="),
)
_RELATION_TEST: dict[str, Callable[[int, int], bool]] = {
    "=": lambda n, k: n == k,
    ">": lambda n, k: n > k,
    ">=": lambda n, k: n >= k,
    "<": lambda n, k: n < k,
    "<=": lambda n, k: n <= k,
}


#: Words that put a stated value in relation to the row's rather than state it ("before 1932").
_RELATIVE = frozenset(
    "before after until since prior earlier later not never no n't without except".split()
)


def _mention_spans(claim: _Claim, t: TableGrid) -> list[tuple[int, int]]:
    """Token spans of the claim that are the text of a cell it names."""
    toks = claim.tokens
    return [
        (i, i + len(cell))
        for r, c in claim.mentions
        if (cell := _tokens(t.rows[r][c]))
        for i in range(len(toks) - len(cell) + 1)
        if toks[i : i + len(cell)] == cell
    ]


def _free_numbers(claim: _Claim, t: TableGrid) -> list[float]:
    """The claim's numbers outside the cells it names ("august 4" names a row, not a value)."""
    return claim.numbers(skip=_mention_spans(claim, t))


def _relation_before(toks: list[str], i: int) -> str | None:
    """The relation ("more than" -> ">") the tokens just before position ``i`` state, if any."""
    return next(
        (
            rel
            for words, rel in _COUNT_RELATIONS
            if tuple(toks[max(0, i - len(words)) : i]) == words
        ),
        None,
    )


def _stated_counts(claim: _Claim, t: TableGrid) -> list[tuple[str, int]]:
    """(relation, N) for each number of the claim that can be a count of rows.

    Why so strict: a claim's numbers are mostly values ("season 5", "7 day apart", "out of the 6
    car", "2 time the capacity"), and a count read from one refutes a true claim; train
    statements showed these shapes among the count operation's errors.
    """
    toks = claim.tokens
    spans = _mention_spans(claim, t)
    out = []
    for i, tok in enumerate(toks):
        n = _number(tok)
        if n is None or n != int(n) or not 0 <= n <= len(t.rows):
            continue
        before = toks[max(0, i - 3) : i]
        after = toks[i + 1 : i + 3]
        if any(a <= i < b for a, b in spans) or (before and before[-1] in "-:/#"):
            continue  # part of a named cell ("ohio 6") or of a score / date / time
        if before and before[-1] in _NOT_COUNT_BEFORE or "out" in before[-3:-1]:
            continue
        if after and (after[0] in _NOT_COUNT_AFTER | _MORE | _LESS or after[0] in "-:/"):
            continue
        if after[:2] in (["time", "the"], ["times", "the"], ["time", "as"], ["times", "as"]):
            continue  # "2 time the capacity": a ratio
        out.append((_relation_before(toks, i) or "=", int(n)))
    return out


def _count(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "there be N <value> ...", "<value> more than N time": how many rows hold a named value."""
    if not claim.mentions or not claim.words & _COUNT_CUES:
        return None
    named_rows = {r for r, _ in claim.mentions}
    in_rows = {t.value(r, c) for r in named_rows for c in t.rows[r]}
    # a score, a date part or a value of the named rows is not a count
    wanted = [(rel, n) for rel, n in _stated_counts(claim, t) if n not in in_rows]
    if not wanted:
        return None
    counts: dict[tuple[int, str], int] = {}
    for r, c in claim.mentions:
        if t.rows[r][c] == t.headers.get(c):
            continue  # a repeated header row is not a value
        value = _tokens(t.rows[r][c])
        counts[(c, t.rows[r][c])] = sum(_contains(_tokens(row.get(c, "")), value) for row in t.rows)
    if not counts:
        return None
    hit = [(k, n) for k, n in counts.items() if any(_RELATION_TEST[r](n, w) for r, w in wanted)]
    (c, v), n = hit[0] if hit else next(iter(counts.items()))
    # Shapes that train statements answered about as often wrong as right: several named values
    # (a list of rows, or a condition the count ignores) unless the count agrees with a value
    # seen more than once; "1" read against a value seen several times ("1 of the ..."); a bound
    # that a single row satisfies
    if len(counts) > 1 and not (hit and n > 1):
        return None
    if n > 1 and all(r == "=" and w == 1 for r, w in wanted):
        return None
    if n == 1 and hit and all(w != 1 for _, w in wanted):
        return None
    program = f"count({t.headers.get(c, 'column ' + str(c))} == {v!r}) = {n}; claimed "
    program += ", ".join(f"{'' if r == '=' else r + ' '}{w}" for r, w in wanted)
    return Verdict(SUPPORTS if hit else REFUTES, "count", program)


def _two_rows(claim: _Claim, t: TableGrid) -> tuple[int, int] | None:
    if "than" not in claim.words:
        return None
    cut = claim.tokens.index("than")
    left, right = claim.tokens[:cut], claim.tokens[cut + 1 :]
    a_rows = {r for r, c in claim.mentions if _contains(left, _tokens(t.rows[r][c]))}
    b_rows = {r for r, c in claim.mentions if _contains(right, _tokens(t.rows[r][c]))}
    if len(a_rows) != 1 or len(b_rows) != 1 or a_rows == b_rows:
        return None
    return a_rows.pop(), b_rows.pop()


def _more_less(
    claim: _Claim, t: TableGrid
) -> tuple[bool, tuple[int, int], int, float | None, float | None] | None:
    """ "<row A> ... more/less <column> than <row B>": (more?, rows, column, A's and B's values)."""
    more, less = bool(claim.words & _MORE), bool(claim.words & _LESS)
    rows = _two_rows(claim, t)
    if rows is None or more == less:
        return None
    col = _one_numeric_column(claim, t, fallback=True)
    if col is None:
        return None
    return more, rows, col, t.value(rows[0], col), t.value(rows[1], col)


def _difference(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> has N more/less <column> than <row B>": the difference of the two rows."""
    parsed = _more_less(claim, t)
    if parsed is None:
        return None
    more, rows, col, a, b = parsed
    cut = claim.tokens.index("than")
    stated = [n for n in _Claim(claim.tokens[:cut], set(), []).numbers() if n not in (a, b)]
    if a is None or b is None or len(stated) != 1:
        return None
    diff = a - b if more else b - a
    h = t.headers[col]
    program = f"{h}[{t.name(rows[0])}] - {h}[{t.name(rows[1])}] = {_fmt(a - b)}"
    program += f"; claimed {'+' if more else '-'}{_fmt(stated[0])}"
    return Verdict(SUPPORTS if abs(diff - stated[0]) < 1e-6 else REFUTES, "difference", program)


def _compare(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> has more/less <column> than <row B>": compare the two rows' numbers."""
    parsed = _more_less(claim, t)
    if parsed is None:
        return None
    more, rows, col, a, b = parsed
    if a is None or b is None or a == b:
        return None
    h = t.headers[col]
    op = ">" if more else "<"
    program = f"{h}[{t.name(rows[0])}] {op} {h}[{t.name(rows[1])}]: {_fmt(a)} {op} {_fmt(b)}"
    return Verdict(SUPPORTS if (a > b if more else a < b) else REFUTES, "comparison", program)


def _same(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> and <row B> have the same <column>"."""
    rows = sorted({r for r, _ in claim.mentions})
    cols = t.header_columns(claim.words)
    if "same" not in claim.words or len(rows) < 2 or len(cols) != 1:
        return None
    values = [t.rows[r].get(cols[0], "") for r in rows]
    program = f"{t.headers[cols[0]]} of " + ", ".join(
        f"{t.name(r)} = {v!r}" for r, v in zip(rows, values, strict=True)
    )
    return Verdict(SUPPORTS if len(set(values)) == 1 else REFUTES, "same", program)


def _aggregate(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "the total / average <column> is N": sum or mean of a numeric column."""
    total, average = bool(claim.words & _TOTAL), bool(claim.words & _AVERAGE)
    if total == average or claim.mentions or claim.words & (_MAX | _MIN):
        return None  # rows named or "the minimum total": not an aggregate over the column
    # The column is named by the other words: "total" / "average" may also be a column's name.
    cols = t.header_columns(claim.words - _TOTAL - _AVERAGE, numeric_only=True)
    if len(cols) != 1:
        return None
    col = cols[0]
    values = list(t.column_values(col).values())
    if len(values) < 2:
        return None
    result = sum(values) if total else sum(values) / len(values)
    stated = claim.numbers()
    if len(stated) != 1:
        return None
    fn = "sum" if total else "avg"
    ok = abs(result - stated[0]) <= max(0.01, 0.005 * abs(result))
    program = f"{fn}({t.headers[col]}) = {_fmt(round(result, 2))}; claimed {_fmt(stated[0])}"
    return Verdict(SUPPORTS if ok else REFUTES, "aggregate", program)


def _only_all_none(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "only <row> ... <value>", "all ... <value>", "none / no ... <value>" on one column."""
    quantifier = next((w for w in ("only", "all", "none") if w in claim.words), None)
    if quantifier is None or not claim.mentions:
        return None
    if quantifier == "all" and not _quantifies_all(claim.tokens):
        return None
    rows_of: dict[tuple[int, str], set[int]] = {}
    for r, c in claim.mentions:
        v = t.rows[r][c]
        rows_of.setdefault((c, v), {i for i, row in enumerate(t.rows) if row.get(c) == v})
    if quantifier == "only":
        return _only(claim, t, rows_of)
    # "all/none ... <header> <value>": the value is looked for in the column the claim names.
    cols = t.header_columns(claim.words)
    values = {v for _, v in rows_of}
    if len(values) != 1:
        return None
    v = values.pop()
    col = cols[0] if len(cols) == 1 else next(iter(rows_of))[0]
    n = sum(row.get(col) == v for row in t.rows)
    ok = n == len(t.rows) if quantifier == "all" else n == 0
    program = f"count({t.headers.get(col, col)} == {v!r}) = {n} of {len(t.rows)}"
    return Verdict(SUPPORTS if ok else REFUTES, quantifier, program)


def _quantifies_all(tokens: list[str]) -> bool:
    """ "all of the ..." / "all the ..." at the start of a clause, not "out of all", "all other"
    or "than all"."""
    for i, tok in enumerate(tokens):
        if tok != "all" or i + 1 >= len(tokens):
            continue
        before = tokens[i - 1] if i else ""
        if tokens[i + 1] in ("of", "the") and before not in ("of", "than", "at"):
            return True
    return False


def _only(claim: _Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]]) -> Verdict | None:
    """ "only <entity> has <value>": the value's rows are exactly the entity's row; with no
    entity named, "only one ... <value>" means the value is in exactly one row."""
    entities = [key for key, rows in rows_of.items() if len(rows) == 1]
    for ce, ve in entities:
        others = [key for key in rows_of if key[0] != ce]
        if not others:
            continue
        cv, vv = max(others, key=lambda key: (len(rows_of[key]), key))
        names = ", ".join(t.name(r) for r in sorted(rows_of[(cv, vv)]))
        program = f"rows({t.headers.get(cv, cv)} == {vv!r}) = [{names}]; named {ve}"
        ok = rows_of[(cv, vv)] == rows_of[(ce, ve)]
        return Verdict(SUPPORTS if ok else REFUTES, "only", program)
    if len(rows_of) == 1 and "one" in claim.words:
        (c, v), rows = next(iter(rows_of.items()))
        program = f"count({t.headers.get(c, c)} == {v!r}) = {len(rows)}; claimed 1"
        return Verdict(SUPPORTS if len(rows) == 1 else REFUTES, "only", program)
    return None


def _lookup(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row> ... <value>": one row named by a cell unique in its column, and a value the claim
    states in another column; the value must be that row's (a value of the same column found in
    other rows only, or a stated number the row's cell does not hold, refutes)."""
    if claim.words & (_MAX | _MIN | _MORE | _LESS | _TOTAL | _AVERAGE) or "than" in claim.words:
        return None
    column_rows = _rows_by_mention(claim, t)
    named = _named_row(claim, t, column_rows)
    if named is None:
        return None
    row, name, key_cols = named
    for (c, v), rs in column_rows.items():
        if c in key_cols or row in rs:
            continue
        program = f"{t.headers.get(c, c)}[{name}] = {t.rows[row].get(c, '')!r}; claimed {v!r}"
        return Verdict(REFUTES, "lookup", program)
    cols = [c for c in t.header_columns(claim.words, numeric_only=True) if c not in key_cols]
    free = _free_numbers(claim, t)
    numbers = [n for n in free if n != int(n) or n > 31 or len(cols) == 1]
    if len(cols) == 1 and len(numbers) == 1:
        have = t.value(row, cols[0])
        if have is not None:
            program = f"{t.headers[cols[0]]}[{name}] = {_fmt(have)}; claimed {_fmt(numbers[0])}"
            return Verdict(SUPPORTS if have == numbers[0] else REFUTES, "lookup", program)
    values = {t.value(row, c) for c in t.rows[row] if c not in key_cols}
    if free and all(n in values for n in free) and not claim.words & _RELATIVE:
        shown = ", ".join(_fmt(n) for n in free)
        program = f"row[{name}] holds {shown}; claimed {shown}"
        return Verdict(SUPPORTS, "lookup", program)
    stated = [(c, v) for (c, v) in column_rows if c not in key_cols]
    if stated and not free:  # a stated number the row does not hold leaves it undecided
        c, v = stated[0]
        program = f"{t.headers.get(c, c)}[{name}] = {v!r}; claimed {v!r}"
        return Verdict(SUPPORTS, "lookup", program)
    return None


def _match(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<value A> ... <value B>" (values of different columns): does one row hold them all?

    A value found in several columns may be in any of them; a value inside a longer named value
    ("finland" in "tps (finland)") is that value's part, not a condition of its own. Values named
    in one column together ("A and B be both in the second division") must each share a row with
    the other values. A stated number must be in a matching row.
    """
    if claim.words & (_MAX | _MIN | _MORE | _LESS | _TOTAL | _AVERAGE | _ORDER) or (
        "than" in claim.words
    ):
        return None
    rows_of = _rows_by_mention(claim, t)
    columns: dict[str, set[int]] = {}
    for c, v in rows_of:
        columns.setdefault(v, set()).add(c)
    texts = {v: _tokens(v) for v in columns}
    values = [
        v
        for v in columns
        if not any(w != v and len(texts[w]) > len(texts[v]) and _contains(texts[w], texts[v])
                   for w in columns)
    ]  # fmt: skip
    rows = {v: set().union(*(rows_of[(c, v)] for c in columns[v])) for v in values}
    by_col: dict[int, list[str]] = {}
    for v in values:
        if len(columns[v]) == 1:
            by_col.setdefault(next(iter(columns[v])), []).append(v)
    lists = [vs for vs in by_col.values() if len(vs) > 1]
    listed = {v for vs in lists for v in vs}
    singles = [v for v in values if v not in listed]
    if not singles or len(singles) + len(lists) < 2:
        return None
    matching = set.intersection(*(rows[v] for v in singles))
    where = " & ".join(f"{_where(t, columns[v])} == {v!r}" for v in singles)
    for vs in lists:
        missing = [v for v in vs if not matching & rows[v]]
        if missing:
            program = f"rows({where}) hold no {_where(t, columns[missing[0]])} == {missing[0]!r}"
            return Verdict(REFUTES, "match", program)
    if not matching:
        return Verdict(REFUTES, "match", f"rows({where}) = []")
    free = _free_numbers(claim, t)
    held = {t.value(r, c) for r in matching for c in t.rows[r]}
    if free and not all(n in held for n in free):
        return None  # a number no matching row holds: undecided without its column
    names = ", ".join(t.name(r) for r in sorted(matching))
    return Verdict(SUPPORTS, "match", f"rows({where}) = [{names}]")


def _bound(claim: _Claim, t: TableGrid) -> Verdict | None:
    """ "<row> ... more/less than N <column>": the named row's value against a stated bound."""
    if claim.words & (_MAX | _MIN | _TOTAL | _AVERAGE) or not claim.words & (_MORE | _LESS):
        return None
    row_of = _named_row(claim, t)
    if row_of is None:
        return None
    row, name, key_cols = row_of
    cols = [c for c in t.header_columns(claim.words, numeric_only=True) if c not in key_cols]
    toks = claim.tokens
    spans = _mention_spans(claim, t)
    bounds = []
    for i, tok in enumerate(toks):
        n = _number(tok)
        rel = None if n is None or any(a <= i < b for a, b in spans) else _relation_before(toks, i)
        if rel:
            bounds.append((rel, n))
    have = t.value(row, cols[0]) if len(cols) == 1 else None
    if len(bounds) != 1 or have is None or _free_numbers(claim, t) != [bounds[0][1]]:
        return None  # another number is another condition the bound does not read
    rel, n = bounds[0]
    program = f"{t.headers[cols[0]]}[{name}] = {_fmt(have)}; claimed {rel} {_fmt(n)}"
    return Verdict(SUPPORTS if _RELATION_TEST[rel](have, n) else REFUTES, "bound", program)


def _named_row(
    claim: _Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]] | None = None
) -> tuple[int, str, set[int]] | None:
    """The one row the claim names by cells unique in their columns: (row, its name as the
    claim says it, the naming columns). ``rows_of``: :func:`_rows_by_mention`, if already made."""
    rows_of = _rows_by_mention(claim, t) if rows_of is None else rows_of
    keys = {k: next(iter(rs)) for k, rs in rows_of.items() if len(rs) == 1}
    if len(set(keys.values())) != 1:
        return None
    (_, name), row = next(iter(keys.items()))
    return row, name, {c for c, _ in keys}


#: Words that order rows ("taken prior to grammar"): a match of values does not decide them.
_ORDER = frozenset("before after prior earlier later until since following previous".split())


def _where(t: TableGrid, cols: set[int]) -> str:
    return " | ".join(str(t.headers.get(c, c)) for c in sorted(cols))


#: The operations, in the order they are tried (the more specific first).
OPS: dict[str, Callable[[_Claim, TableGrid], Verdict | None]] = {
    "ordinal": _ordinal,
    "superlative": _superlative,
    "difference": _difference,
    "comparison": _compare,
    "aggregate": _aggregate,
    "only_all_none": _only_all_none,
    "count": _count,
    "same": _same,
    "lookup": _lookup,
    "match": _match,
    "bound": _bound,
}

#: Negation words; the operations in ``_READS_NO_NEGATION`` would answer the claim without its
#: "not" (train statements: right about half of the time on negated claims), so they abstain.
_NEGATION = frozenset("not never n't no".split())
_READS_NO_NEGATION = frozenset({"superlative", "count", "same", "lookup", "match", "bound"})

#: Where each (operation, label)'s right/fired counts on TabFact *train* are kept; written by
#: ``bench/bench_table_rules.py --write`` (no model involved).
PRECISION_FILE = "executor_precision.json"
#: Pseudo-counts at chance that shrink a rarely seen (op, label)'s precision towards 0.5.
PRIOR_COUNT = 10


def _load_precision() -> dict[tuple[str, str], float]:
    """Each (operation, label)'s calibrated confidence: its smoothed train precision.

    Why per label: an operation is not equally sure of both answers (a difference that comes out
    exactly as stated is almost always right; one that does not is often a misread claim), and
    the override should know which of the two it is being asked to trust.
    """
    import json
    from importlib.resources import files

    counts = json.loads(files("verifier").joinpath(PRECISION_FILE).read_text())["counts"]
    return {
        (op, label): (c["right"] + 0.5 * PRIOR_COUNT) / (c["fired"] + PRIOR_COUNT)
        for op, by_label in counts.items()
        for label, c in by_label.items()
    }


#: (operation, label) -> calibrated confidence, from ``PRECISION_FILE``.
OP_PRECISION: dict[tuple[str, str], float] = _load_precision()


def _parse(claim: str, cells: Sequence[Element]) -> tuple[_Claim, TableGrid] | None:
    grid = TableGrid.from_cells(cells)
    if not grid.rows or not grid.headers:
        return None  # an infobox (key/value rows, no column headers) has nothing to count or rank
    toks = _tokens(claim)
    return _Claim(toks, set(toks), grid.mentions(toks)), grid


def execute(claim: str, cells: Sequence[Element]) -> Verdict | None:
    """The first operation that can ground ``claim`` in the table, run; None when none can."""
    parsed = _parse(claim, cells)
    if parsed is None:
        return None
    negated = bool(parsed[0].words & _NEGATION)
    for op, rule in OPS.items():
        if negated and op in _READS_NO_NEGATION:
            continue
        verdict = rule(*parsed)
        if verdict:
            return verdict
    return None


def combine(verdict: Verdict | None, probabilities: dict[str, float], margin: float) -> bool:
    """Whether the executor's verdict replaces the model's label.

    The executor's confidence is its (operation, label)'s train precision; the model's is its two-way
    probability for its own choice. The verdict wins when it is more confident by ``margin``
    (chosen on TabFact val's training half; ``float('inf')`` turns the executor off).
    """
    confidence = None if verdict is None else OP_PRECISION.get((verdict.op, verdict.label))
    if confidence is None:
        return False
    s, r = probabilities.get(SUPPORTS, 0.0), probabilities.get(REFUTES, 0.0)
    model_conf = max(s, r) / max(1e-9, s + r)
    return confidence - model_conf >= margin
