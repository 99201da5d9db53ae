"""Small rule component for table claims: superlatives, counts, comparisons and "same".

A 6-layer model reading a linearized table cannot count rows or compare numbers across rows, so
these rules check what it cannot. Each rule answers only when it can find what the claim is about
(the rows it names by a cell value, the column it names by a header) and returns None otherwise;
the first rule that answers overrides the classifier.

Which rules are kept was decided on TabFact **train** statements (keep a rule if it is right on
>= 60% of the train statements it fires on; 10,718 statements from 1,500 train tables):
superlative 0.69, count 0.65, comparison 0.63, same 0.61 were kept; "first/last" (0.57) and
totals/averages (0.58, a prototype not kept) were dropped (``bench/bench_table_rules.py``).
The held-out effect is measured with ``bench/bench_verifier.py --table-rules`` (docs/verifier.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wikicheck.model import REFUTES, SUPPORTS, Element

__all__ = [
    "RULES",
    "TableGrid",
    "parse_number",
    "rule_label",
    "rule_labels_for",
    "rule_verdict",
    "superlative_rule",
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
    return float(token.replace(",", "")) if _NUM_TOKEN.match(token) else None


def _contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


@dataclass
class TableGrid:
    """One table's cells as lower-cased rows under column headers (what the rules read)."""

    headers: dict[int, str]
    rows: list[dict[int, str]]
    numeric: set[int] = field(default_factory=set)

    @classmethod
    def from_cells(cls, cells: Sequence[Element]) -> TableGrid:
        headers: dict[int, str] = {}
        by_row: dict[int, dict[int, str]] = {}
        for el in cells:
            if el.type != "cell" or el.col is None:
                continue
            by_row.setdefault(el.row or 0, {})[el.col] = " ".join(el.text.lower().split())
            if el.col_header_texts:
                headers[el.col] = " ".join(el.col_header_texts).lower()
        rows = [by_row[r] for r in sorted(by_row)]
        numeric = {
            c
            for c in headers
            if sum(parse_number(r.get(c, "")) is not None for r in rows) >= 0.8 * max(1, len(rows))
        }
        return cls(headers, rows, numeric)

    def value(self, row: int, col: int) -> float | None:
        return parse_number(self.rows[row].get(col, ""))

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
        scored = [
            (len((set(_tokens(h)) - _STOP) & words), c)
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


def _superlative(claim: _Claim, t: TableGrid) -> str | None:
    """ "<row> has the highest/lowest <column>": is the named row the extreme one?"""
    want = max if claim.words & _MAX else min if claim.words & _MIN else None
    cols = t.header_columns(claim.words, numeric_only=True)
    if want is None or len(t.rows) < 3 or len(cols) != 1:
        return None
    col = cols[0]
    values = {r: v for r in range(len(t.rows)) if (v := t.value(r, col)) is not None}
    if not values:
        return None
    best = want(values.values())
    named = {r for r, c in claim.mentions if c != col}
    if any(values.get(r) == best for r in named):
        return SUPPORTS
    return REFUTES if named else None


def _count(claim: _Claim, t: TableGrid) -> str | None:
    """ "there be N <value> ..." / "<value> N time": does some named value occur in N rows?"""
    if not claim.mentions or not claim.words & _COUNT_CUES:
        return None
    toks = claim.tokens
    named_rows = {r for r, _ in claim.mentions}
    in_rows = {t.value(r, c) for r in named_rows for c in t.rows[r]}
    wanted = set()
    for i, tok in enumerate(toks):
        n = _number(tok)
        n = float(_WORD_NUMBERS[tok]) if n is None and tok in _WORD_NUMBERS else n
        joined = (i > 0 and toks[i - 1] in "-:/") or (i + 1 < len(toks) and toks[i + 1] in "-:/")
        if n is None or joined or n != int(n) or not 0 <= n <= len(t.rows) or n in in_rows:
            continue  # a score, a date part or a value of the named rows: not a count
        wanted.add(int(n))
    if not wanted:
        return None
    counts = set()
    for r, c in claim.mentions:
        value = _tokens(t.rows[r][c])
        counts.add(sum(_contains(_tokens(row.get(c, "")), value) for row in t.rows))
    return SUPPORTS if wanted & counts else REFUTES


def _compare(claim: _Claim, t: TableGrid) -> str | None:
    """ "<row A> has more/less <column> than <row B>": compare the two rows' numbers."""
    more, less = bool(claim.words & _MORE), bool(claim.words & _LESS)
    if "than" not in claim.words or more == less:
        return None
    cut = claim.tokens.index("than")
    left, right = claim.tokens[:cut], claim.tokens[cut + 1 :]
    a_rows = {r for r, c in claim.mentions if _contains(left, _tokens(t.rows[r][c]))}
    b_rows = {r for r, c in claim.mentions if _contains(right, _tokens(t.rows[r][c]))}
    if len(a_rows) != 1 or len(b_rows) != 1 or a_rows == b_rows:
        return None
    cols = t.header_columns(claim.words, numeric_only=True) or sorted(t.numeric)
    if len(cols) != 1:
        return None
    a, b = t.value(a_rows.pop(), cols[0]), t.value(b_rows.pop(), cols[0])
    if a is None or b is None or a == b:
        return None
    return SUPPORTS if (a > b if more else a < b) else REFUTES


def _same(claim: _Claim, t: TableGrid) -> str | None:
    """ "<row A> and <row B> have the same <column>"."""
    rows = {r for r, _ in claim.mentions}
    cols = t.header_columns(claim.words)
    if "same" not in claim.words or len(rows) < 2 or len(cols) != 1:
        return None
    values = {t.rows[r].get(cols[0], "") for r in rows}
    return SUPPORTS if len(values) == 1 else REFUTES


#: The kept rules, in the order they are tried.
RULES: dict[str, Callable[[_Claim, TableGrid], str | None]] = {
    "superlative": _superlative,
    "count": _count,
    "comparison": _compare,
    "same": _same,
}


def _parse(claim: str, cells: Sequence[Element]) -> tuple[_Claim, TableGrid] | None:
    grid = TableGrid.from_cells(cells)
    if not grid.rows or not grid.headers:
        return None  # an infobox (key/value rows, no column headers) has nothing to count or rank
    toks = _tokens(claim)
    return _Claim(toks, set(toks), grid.mentions(toks)), grid


def rule_verdict(claim: str, cells: Sequence[Element]) -> tuple[str, str] | None:
    """``(rule name, SUPPORTS|REFUTES)`` from the first rule that answers, else None."""
    parsed = _parse(claim, cells)
    if parsed is None:
        return None
    for name, rule in RULES.items():
        label = rule(*parsed)
        if label:
            return name, label
    return None


def rule_label(claim: str, cells: Sequence[Element]) -> str | None:
    """The rule component's verdict for one table claim (None: leave it to the classifier)."""
    verdict = rule_verdict(claim, cells)
    return verdict[1] if verdict else None


def superlative_rule(claim: str, cells: Sequence[Element]) -> str | None:
    """The superlative rule alone (SUPPORTS/REFUTES/None)."""
    parsed = _parse(claim, cells)
    return _superlative(*parsed) if parsed else None


def rule_labels_for(name: str, data_dir: Path) -> list[str | None]:
    """Rule verdicts aligned with ``verifier.data.build_eval(name)`` (table sets only)."""
    from verifier import data

    if name == "tabfact_val_heldout":
        tdir = data_dir / "tabfact"
        val = json.load(open(tdir / "tokenized_data" / "val_examples.json", encoding="utf-8"))
        names = {n for n in val if not data.in_split(n, 0.5, "tabfact")}
        csvs = data._tabfact_csvs(tdir, names)
        out: list[str | None] = []
        for n in sorted(names):
            statements, _, caption = val[n]
            cells = data.tabfact_table(n, csvs[n], "" if caption == "none" else caption)
            out.extend(rule_label(st, cells) for st in statements)
        return out
    if name == "infotabs_dev":
        return [rule_label(hyp, cells) for hyp, cells, _ in data.infotabs_items(data_dir, "dev")]
    if name == "semtab_dev":
        items = data.semtab_items(data.CONVERTED_DIR / "semtab")
        return [rule_label(claim, table) for claim, table, _ in items]
    raise ValueError(f"no table rules for {name}")
