"""True and false statements written from any table in FEVEROUS page format (intermediate
pre-training, as in Eisenschlos et al. 2020, "Understanding tables with intermediate
pre-training": the gain was largest for small models).

A 6-layer model does not learn from ~100k crowd statements which row has the highest value or how
many rows share a value; it can learn it from many statements whose truth is *computed* from the
table. Each template below reads a :class:`Grid` (one table's cells under their column headers,
original text) and returns statements with the label its own computation gives, false ones made
by counterfactual edits of true ones (another row's value, a count off by one, a perturbed total,
the other direction of a comparison), so both labels use the same words and only the table decides.

Templates (``TEMPLATES``): lookup, comparison, superlative, ordinal, count, aggregate (total,
average), difference, only/all/none, date order, and for infoboxes (key/value tables) lookup and
list membership. Every template's truth value is unit-tested on hand-made tables.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from wikicheck.common import quantities
from wikicheck.common.quantities import whole_number
from wikicheck.common.split import split_int
from wikicheck.model import REFUTES, SUPPORTS, Element

__all__ = ["Grid", "Statement", "TEMPLATES", "statements_for", "generate"]

_WORDS = "zero one two three four five six seven eight nine ten".split()
_ORDINALS = ["", "", "second", "third", "fourth", "fifth"]


@dataclass(frozen=True, slots=True)
class Statement:
    """One generated statement and the label its computation gave; ``op`` names the template."""

    text: str
    label: str
    op: str


def clean_number(text: str) -> float | None:
    """A cell that *is* a number (:func:`wikicheck.common.quantities.whole_number`)."""
    return whole_number(text)


def parse_date(text: str) -> tuple[int, int, int] | None:
    """A cell that *is* a full date, read by the shared parser (``"october 3 , 1999"`` /
    ``"3 October 1999"`` -> (1999, 10, 3)); a bare year -> (y, 0, 0); None otherwise."""
    t = " ".join(text.split()).replace(" , ", ", ")  # TabFact cells come tokenised
    if (year := quantities.bare_year(t)) is not None:
        return year, 0, 0
    q = quantities.parse_date(t)
    if q is None or q.granularity != "day" or len(q.text) != len(t):
        return None
    d = quantities.to_date(q)
    return (d.year, d.month, d.day) if d is not None else None


def fmt(x: float) -> str:
    """A number the way tables write it (no ``.0``; two decimals at most)."""
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def say_count(n: int, rng: random.Random) -> str:
    return _WORDS[n] if n < len(_WORDS) and rng.random() < 0.5 else str(n)


@dataclass
class Grid:
    """One table: column headers and data rows (original text), plus what each column holds."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    infobox: bool = False

    @classmethod
    def from_elements(cls, elements: Sequence[Element]) -> Grid | None:
        """The grid of one table's elements; None when there is nothing to write about."""
        cells = [el for el in elements if el.type == "cell" and el.col is not None]
        if not cells:
            return None
        title = cells[0].page
        if all(el.row_header_texts for el in cells) and len({el.col for el in cells}) == 1:
            rows = [[el.row_header_texts[-1], el.text] for el in cells]
            return cls(title, ["", ""], rows, infobox=True)
        ncols = max(el.col for el in cells) + 1
        headers = [""] * ncols
        by_row: dict[int, list[str]] = {}
        for el in cells:
            if el.col_header_texts and not headers[el.col]:
                headers[el.col] = " ".join(el.col_header_texts[-1].split())
            by_row.setdefault(el.row or 0, [""] * ncols)[el.col] = " ".join(el.text.split())
        rows = [by_row[r] for r in sorted(by_row)]
        return cls(title, headers, rows)

    def column(self, c: int) -> list[str]:
        return [row[c] for row in self.rows]

    def numeric(self, c: int) -> list[float] | None:
        """The column as numbers when every cell is one (and not a year-like identifier)."""
        values = [clean_number(v) for v in self.column(c)]
        if len(values) < 2 or any(v is None for v in values):
            return None
        return values  # type: ignore[return-value]

    @functools.cached_property
    def key(self) -> int | None:
        """The column that names each row: the first column of distinct, wordy, non-date values
        (a score like ``"3 - 6"`` or a date names no row a reader would recognise)."""
        for c in range(len(self.headers)):
            col = [v.lower() for v in self.column(c)]
            if not all(col) or len(set(col)) != len(col) or self.numeric(c) is not None:
                continue
            wordy = sum(sum(ch.isalpha() for ch in v) > sum(ch.isdigit() for ch in v) for v in col)
            dates = sum(parse_date(v) is not None for v in col)
            if wordy >= 0.8 * len(col) and dates < 0.5 * len(col):
                return c
        return None


def _row_name(g: Grid, r: int) -> str:
    return g.rows[r][g.key] if g.key is not None else ""


def _header(g: Grid, c: int) -> str:
    return g.headers[c].lower()


def _usable(g: Grid) -> bool:
    return g.key is not None and len(g.rows) >= 2 and any(g.headers)


def _stmt(text: str, truth: bool, op: str) -> Statement:
    return Statement(" ".join(text.split()), SUPPORTS if truth else REFUTES, op)


# ----------------------------------------------------------------------------- templates


def lookup(g: Grid, rng: random.Random) -> list[Statement]:
    """'the <column> of <row> is <value>'; false: another row's value in that column."""
    cols = [c for c in range(len(g.headers)) if c != g.key and g.headers[c]]
    if not cols:
        return []
    c, r = rng.choice(cols), rng.randrange(len(g.rows))
    value, name, h = g.rows[r][c], _row_name(g, r), _header(g, c)
    others = sorted({v for v in g.column(c) if v and v.lower() != value.lower()})
    if not value or not others:
        return []
    wrong = rng.choice(others)
    form = rng.choice(["the {h} of {k} is {v}", "{k} has {h} {v}", "{k} 's {h} is {v}"])
    return [
        _stmt(form.format(h=h, k=name, v=value), True, "lookup"),
        _stmt(form.format(h=h, k=name, v=wrong), False, "lookup"),
    ]


def _numeric_columns(g: Grid) -> list[int]:
    return [c for c in range(len(g.headers)) if c != g.key and g.headers[c] and g.numeric(c)]


def _two_rows(g: Grid, rng: random.Random) -> tuple[int, list[float], int, int] | None:
    """A numeric column and two rows whose values differ (column, values, row a, row b)."""
    cols = _numeric_columns(g)
    if not cols:
        return None
    c = rng.choice(cols)
    values = g.numeric(c) or []
    a, b = rng.sample(range(len(g.rows)), 2)
    return None if values[a] == values[b] else (c, values, a, b)


def comparison(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row a> has a higher/lower <column> than <row b>', labelled by the numbers."""
    picked = _two_rows(g, rng)
    if picked is None:
        return []
    c, values, a, b = picked
    h = _header(g, c)
    out = []
    for higher in (True, False):
        word = rng.choice(["a higher", "a greater", "more"] if higher else ["a lower", "less"])
        truth = values[a] > values[b] if higher else values[a] < values[b]
        text = f"{_row_name(g, a)} has {word} {h} than {_row_name(g, b)}"
        out.append(_stmt(text, truth, "comparison"))
    return out


def superlative(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row> has the highest/lowest <column>'; false: a row that does not."""
    cols = _numeric_columns(g)
    if not cols or len(g.rows) < 3:
        return []
    c = rng.choice(cols)
    values = g.numeric(c) or []
    highest = rng.random() < 0.5
    best = max(values) if highest else min(values)
    winners = [r for r, v in enumerate(values) if v == best]
    losers = [r for r, v in enumerate(values) if v != best]
    if len(winners) != 1 or not losers:
        return []
    word = rng.choice(
        ["highest", "largest", "most"] if highest else ["lowest", "smallest", "least"]
    )
    h = _header(g, c)
    form = rng.choice(["{k} has the {w} {h}", "the {w} {h} is for {k}"])
    return [
        _stmt(form.format(k=_row_name(g, winners[0]), w=word, h=h), True, "superlative"),
        _stmt(form.format(k=_row_name(g, rng.choice(losers)), w=word, h=h), False, "superlative"),
    ]


def ordinal(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row> has the second/third highest <column>'; false: the row at another rank."""
    cols = _numeric_columns(g)
    if not cols or len(g.rows) < 4:
        return []
    c = rng.choice(cols)
    values = g.numeric(c) or []
    if len(set(values)) != len(values):
        return []
    rank = rng.randint(2, min(4, len(values) - 1))
    order = sorted(range(len(values)), key=lambda r: -values[r])
    right = order[rank - 1]
    wrong = rng.choice([r for r in order if r != right])
    text = "{k} has the {o} highest {h}"
    h = _header(g, c)
    return [
        _stmt(text.format(k=_row_name(g, right), o=_ORDINALS[rank], h=h), True, "ordinal"),
        _stmt(text.format(k=_row_name(g, wrong), o=_ORDINALS[rank], h=h), False, "ordinal"),
    ]


def _categorical(g: Grid) -> list[tuple[int, Counter]]:
    out = []
    for c in range(len(g.headers)):
        if c == g.key or not g.headers[c] or g.numeric(c):
            continue
        counts = Counter(v.lower() for v in g.column(c) if v)
        if counts and max(counts.values()) >= 2 and len(counts) < len(g.rows):
            out.append((c, counts))
    return out


def count(g: Grid, rng: random.Random) -> list[Statement]:
    """'there are N rows with <column> <value>'; false: N off by one or two."""
    cats = _categorical(g)
    if not cats:
        return []
    c, counts = rng.choice(cats)
    value = rng.choice(sorted(counts))
    n = counts[value]
    wrong = rng.choice([m for m in (n - 2, n - 1, n + 1, n + 2) if m >= 1 and m <= len(g.rows)])
    h = _header(g, c)
    form = rng.choice(
        ["there are {n} entries with {h} {v}", "{v} appears {n} times in the {h} column",
         "{n} of the entries have {h} {v}"]
    )  # fmt: skip
    return [
        _stmt(form.format(n=say_count(n, rng), h=h, v=value), True, "count"),
        _stmt(form.format(n=say_count(wrong, rng), h=h, v=value), False, "count"),
    ]


def _perturb(x: float, rng: random.Random) -> float:
    delta = max(1.0, abs(x) * rng.uniform(0.05, 0.3))
    y = x + delta if rng.random() < 0.5 else x - delta
    return float(round(y)) if x == round(x) else round(y, 2)


def aggregate(g: Grid, rng: random.Random) -> list[Statement]:
    """'the total / average <column> is X'; false: X perturbed by 5-30%."""
    cols = _numeric_columns(g)
    if not cols:
        return []
    c = rng.choice(cols)
    values = g.numeric(c) or []
    total = rng.random() < 0.5
    x = sum(values) if total else round(sum(values) / len(values), 2)
    h = _header(g, c)
    form = "the total {h} is {x}" if total else "the average {h} is {x}"
    return [
        _stmt(form.format(h=h, x=fmt(x)), True, "aggregate"),
        _stmt(form.format(h=h, x=fmt(_perturb(x, rng))), False, "aggregate"),
    ]


def difference(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row a> has D more <column> than <row b>'; false: D perturbed."""
    picked = _two_rows(g, rng)
    if picked is None:
        return []
    c, values, a, b = picked
    if values[a] < values[b]:
        a, b = b, a
    d = round(values[a] - values[b], 2)
    if d <= 0:
        return []
    h = _header(g, c)
    form = "{a} has {d} more {h} than {b}"
    wrong = _perturb(d, rng)
    if wrong <= 0:
        wrong = d + 1
    return [
        _stmt(form.format(a=_row_name(g, a), d=fmt(d), h=h, b=_row_name(g, b)), True,
              "difference"),
        _stmt(form.format(a=_row_name(g, a), d=fmt(wrong), h=h, b=_row_name(g, b)), False,
              "difference"),
    ]  # fmt: skip


def only_all_none(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row> is the only one with <column> <value>' and 'all/none of the entries have ...'."""
    cats = _categorical(g)
    if not cats:
        return []
    c, counts = rng.choice(cats)
    h = _header(g, c)
    column = [v.lower() for v in g.column(c)]
    singles = [v for v, n in counts.items() if n == 1]
    multi = [v for v, n in counts.items() if n >= 2]
    out = []
    if singles and multi:
        v = rng.choice(singles)
        w = rng.choice(multi)
        out.append(_stmt(f"{_row_name(g, column.index(v))} is the only one with {h} {v}", True,
                         "only"))  # fmt: skip
        out.append(_stmt(f"{_row_name(g, column.index(w))} is the only one with {h} {w}", False,
                         "only"))  # fmt: skip
    common = counts.most_common(1)[0][0]
    if counts[common] == len(g.rows) or rng.random() < 0.1:  # true "all" is rare: keep balance
        out.append(_stmt(f"all of the entries have {h} {common}", counts[common] == len(g.rows),
                         "all"))  # fmt: skip
    absent = [
        v.lower()
        for cc in range(len(g.headers))
        for v in g.column(cc)
        if cc != c and v and v.lower() not in counts and clean_number(v) is None
    ]
    if absent:
        out.append(_stmt(f"none of the entries have {h} {rng.choice(absent)}", True, "none"))
        out.append(_stmt(f"none of the entries have {h} {rng.choice(multi or singles)}", False,
                         "none"))  # fmt: skip
    return out


def date_order(g: Grid, rng: random.Random) -> list[Statement]:
    """'<row a> was before/after <row b>' on a column of dates."""
    for c in rng.sample(range(len(g.headers)), len(g.headers)):
        if c == g.key:
            continue
        dates = [parse_date(v) for v in g.column(c)]
        if len(dates) < 2 or any(d is None for d in dates):
            continue
        a, b = rng.sample(range(len(g.rows)), 2)
        if dates[a] == dates[b]:
            return []
        before = rng.random() < 0.5
        truth = dates[a] < dates[b] if before else dates[a] > dates[b]  # type: ignore[operator]
        word = "before" if before else "after"
        h = _header(g, c)
        text = f"the {h} of {_row_name(g, a)} was {word} that of {_row_name(g, b)}"
        return [_stmt(text, truth, "date_order")]
    return []


def infobox_lookup(g: Grid, rng: random.Random, pool: dict[str, list[str]]) -> list[Statement]:
    """'the <key> of <title> is <value>'; false: the same key's value in another infobox."""
    r = rng.randrange(len(g.rows))
    key, value = g.rows[r]
    others = [v for v in pool.get(key.lower(), ()) if v.lower() != value.lower()]
    if not value or not others:
        return []
    wrong = rng.choice(others)
    form = rng.choice(["the {k} of {t} is {v}", "{t} 's {k} is {v}"])
    return [
        _stmt(form.format(k=key.lower(), t=g.title, v=value), True, "lookup"),
        _stmt(form.format(k=key.lower(), t=g.title, v=wrong), False, "lookup"),
    ]


def infobox_member(g: Grid, rng: random.Random, pool: dict[str, list[str]]) -> list[Statement]:
    """'<item> is one of the <key> of <title>' for a comma-separated value."""
    lists = [(k, [p.strip() for p in v.split(",") if p.strip()]) for k, v in g.rows]
    lists = [(k, items) for k, items in lists if len(items) >= 2]
    if not lists:
        return []
    key, items = rng.choice(lists)
    mine = {i.lower() for i in items}
    others = [
        p.strip()
        for v in pool.get(key.lower(), ())
        for p in v.split(",")
        if p.strip() and p.strip().lower() not in mine
    ]
    if not others:
        return []
    form = "{i} is one of the {k} of {t}"
    return [
        _stmt(form.format(i=rng.choice(items), k=key.lower(), t=g.title), True, "member"),
        _stmt(form.format(i=rng.choice(others), k=key.lower(), t=g.title), False, "member"),
    ]


TEMPLATES: dict[str, Callable[[Grid, random.Random], list[Statement]]] = {
    "lookup": lookup,
    "comparison": comparison,
    "superlative": superlative,
    "ordinal": ordinal,
    "count": count,
    "aggregate": aggregate,
    "difference": difference,
    "only_all_none": only_all_none,
    "date_order": date_order,
}
INFOBOX_TEMPLATES = {"lookup": infobox_lookup, "member": infobox_member}


def _seed(key: str, seed: int) -> int:
    return split_int(key, seed)


def statements_for(
    grid: Grid, *, seed: int = 0, pool: dict[str, list[str]] | None = None
) -> list[Statement]:
    """Every template once over ``grid`` (deterministic for a table and seed)."""
    rng = random.Random(_seed(grid.title + "|" + "|".join(grid.headers), seed))
    out: list[Statement] = []
    if grid.infobox:
        for template in INFOBOX_TEMPLATES.values():
            out.extend(template(grid, rng, pool or {}))
        return out
    if not _usable(grid):
        return []
    for template in TEMPLATES.values():
        out.extend(template(grid, rng))
    return out


def infobox_pool(grids: Iterable[Grid]) -> dict[str, list[str]]:
    """Each infobox key's values across tables (where counterfactual values come from)."""
    pool: dict[str, list[str]] = {}
    for g in grids:
        if g.infobox:
            for key, value in g.rows:
                if value:
                    pool.setdefault(key.lower(), []).append(value)
    return pool


def generate(
    tables: Iterable[Sequence[Element]], *, seed: int = 0
) -> list[tuple[Statement, Sequence[Element]]]:
    """Statements for every table, each with the table's elements it was computed from."""
    pairs = [(els, g) for els in tables if (g := Grid.from_elements(els)) is not None]
    pool = infobox_pool(g for _, g in pairs)
    return [(st, els) for els, g in pairs for st in statements_for(g, seed=seed, pool=pool)]
