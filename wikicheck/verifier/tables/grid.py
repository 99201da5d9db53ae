"""What the operations read: a parsed table (``TableGrid``), a tokenised claim (``Claim``),
the verdict they return, and how a claim is grounded in a table (rows by the cells it names,
columns by their headers, the numbers it states outside those cells).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TypeVar

from wikicheck.common.quantities import (
    Quantity,
    bare_year,
    cell_value,
    find_dates,
    is_date,
    parse_date,
    same_day,
    time_seconds,
    to_date,
)
from wikicheck.common.text import stem
from wikicheck.model import Element
from wikicheck.verifier.tables.text import (
    AVERAGE_WORDS,
    LESS_WORDS,
    MAX_WORDS,
    MIN_WORDS,
    MORE_WORDS,
    STOP_WORDS,
    TOTAL_WORDS,
    as_number,
    contains_span,
    fmt_number,
    parse_number,
    relation_before,
    span_starts,
    tokenize,
)

#: A bracketed mark a Wikipedia cell keeps after its text; a footnote's when it holds a number,
#: a letter or "note" and a number ("Steve Buehrer [ 1 ]", "[ a ]", "[ note 2 ]").
_FOOTNOTE_MARK = re.compile(r"\s*\[\s*([^\[\]]{1,12}?)\s*\]")


def _without_footnotes(text: str) -> str:
    def drop(m: re.Match[str]) -> str:
        inner = m.group(1).removeprefix("note ")
        return "" if inner.isdigit() or (len(inner) == 1 and inner.isalpha()) else m.group(0)

    return _FOOTNOTE_MARK.sub(drop, text)


def _shown_name(text: str) -> str:
    """A name as shown where a cell writes its sort key first, as Wikipedia's sortname template
    leaves it in the dump ("johnson , ron ron johnson" is "ron johnson")."""
    last, comma, rest = text.partition(" , ")
    if not comma or not rest.endswith(" " + last):
        return text
    first = rest[: -len(last) - 1].split()
    half = len(first) // 2
    if not first or len(first) % 2 or first[:half] != first[half:]:
        return text
    return " ".join(first[:half]) + " " + last


def _date_text(text: str) -> str:
    """A date as the date parser reads it: TabFact writes "november 24 , 1946", the comma its
    tokeniser split off put back ("november 24,  1946") so that the date keeps its year. The
    text keeps its length and its count of spaces before every word (a claim's dates are mapped
    back to its tokens by them)."""
    return text.replace(" , ", ",  ")


def _day(d: Quantity) -> int:
    """A date's day of month (a date without a year keeps month * 100 + day as its value)."""
    full = to_date(d)
    return full.day if full is not None else int(d.value) % 100


def _repeats_header(row: dict[int, str], headers: dict[int, str]) -> bool:
    """Whether a data row repeats the column headers ("club | played | won | lost" under the
    same header: a league table's header row kept as data), which names no row and holds no
    value: most of its cells, two at least, are their columns' headers."""
    same = sum(1 for c, v in row.items() if v and headers.get(c) == v)
    return same >= 2 and 2 * same >= len([v for v in row.values() if v])


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the executor concluded: the label, the operation, and the program it ran."""

    label: str
    op: str
    program: str


#: The column key of a table's row headers ("P. clarkii" heading a row of a scientific table):
#: they name rows as a first column's cells do, so the operations read them as one.
ROW_HEADER_COLUMN = -1


@dataclass
class TableGrid:
    """One table's cells as lower-cased rows under column headers (what the programs read)."""

    headers: dict[int, str]
    rows: list[dict[int, str]]
    numeric: set[int] = field(default_factory=set)
    #: Columns of dates ("2 September", "june 3 , 2001"): ordered as dates, not by their day.
    dates: set[int] = field(default_factory=set)
    yearless: set[int] = field(default_factory=set)
    #: Columns of times ("1:23.398", "2:01:23.5"), which :meth:`column_seconds` reads.
    times: set[int] = field(default_factory=set)
    #: Columns of names split from their numbers (:func:`_split_counted`) where a name recurs:
    #: a game's leaders, one or several ("chris bosh , joey graham") a row; they name no row.
    leaders: set[int] = field(default_factory=set)
    #: Numeric dates written with the month's name (:func:`_spell_dates`): as written -> as read.
    respelled: dict[str, str] = field(default_factory=dict)
    _days: dict[tuple[int, int], Quantity | None] = field(
        default_factory=dict, init=False, repr=False
    )

    @classmethod
    def from_cells(cls, cells: Sequence[Element]) -> TableGrid:
        """Data cells of the first table in ``cells``; infobox-shaped tables get no headers."""
        data = [el for el in cells if el.type == "cell" and el.col is not None]
        if data:
            first = (data[0].page, data[0].table)
            data = [el for el in data if (el.page, el.table) == first]
        # a key/value table without a type reads as an infobox; one typed "general" (a
        # scientific table of names and descriptions) keeps its column headers
        infobox = bool(data) and (
            data[0].table_type == "infobox"
            or (
                data[0].table_type in (None, "")
                and all(el.row_header_texts for el in data)
                and len({el.col for el in data}) == 1
            )
        )
        headers: dict[int, str] = {}
        by_row: dict[int, dict[int, str]] = {}
        for el in data:
            row = by_row.setdefault(el.row or 0, {})
            row[el.col] = _shown_name(_without_footnotes(" ".join(el.text.lower().split())))
            if el.col_header_texts and not infobox:
                headers[el.col] = " ".join(el.col_header_texts[-1].lower().split())
            if el.row_header_texts and not infobox:
                row.setdefault(ROW_HEADER_COLUMN, " ".join(el.row_header_texts[-1].lower().split()))
        rows = [by_row[r] for r in sorted(by_row) if not _repeats_header(by_row[r], headers)]
        respelled: dict[str, str] = {}
        for c in list(headers):
            _split_venue(c, headers, rows)
            _split_coded(c, headers, rows)
            _split_located(c, headers, rows)
            respelled.update(_spell_dates(c, rows))
        split = [c for c in list(headers) if _split_counted(c, headers, rows)]
        # names that recur down a column are a game's leaders (points, rebounds, assists), not
        # the rows' own names
        recur = any(len({r[c] for r in rows if c in r}) < len(rows) for c in split)
        leaders = set(split) if recur else set()
        enough = 0.8 * max(1, len(rows))
        numeric = {
            c
            for c in headers
            if sum(parse_number(r.get(c, "")) is not None for r in rows) >= enough
        }
        dates = {
            c for c in headers if sum(is_date(_date_text(r.get(c, ""))) for r in rows) >= enough
        }
        times = {
            c
            for c in headers
            if sum(time_seconds(r.get(c, "")) is not None for r in rows) >= enough
        }
        grid = cls(
            headers, rows, numeric | dates, dates, leaders=leaders, times=times, respelled=respelled
        )
        # a column where some dates have no year is ordered by month and day throughout
        grid.yearless = {
            c
            for c in dates
            if any((d := parse_date(_date_text(r.get(c, "")))) and d.year is None for r in rows)
        }
        return grid

    def value(self, row: int, col: int) -> float | None:
        """A cell's number; in a date column its date (so "2 September" follows "30 August")."""
        text = self.rows[row].get(col, "")
        if col in self.yearless:
            d = parse_date(_date_text(text))
            return None if d is None else float((d.month or 0) * 100 + _day(d))
        return cell_value(_date_text(text)) if col in self.dates else parse_number(text)

    def place_column(self) -> int | None:
        """The one numeric column of places in a results table ("rank", "pos"), if there is one."""
        cols = [c for c, h in self.headers.items() if h in PLACE_HEADERS and c in self.numeric]
        return cols[0] if len(cols) == 1 else None

    def grid_column(self) -> int | None:
        """The one numeric column of starting places on a race's grid ("grid"), if there is one:
        where "pole" is read, which a results table's "pos" is not."""
        cols = [c for c, h in self.headers.items() if tokenize(h) == ["grid"] and c in self.numeric]
        return cols[0] if len(cols) == 1 else None

    def column_seconds(self, col: int) -> dict[int, float]:
        """A column of times in seconds ("1:23.398" -> 83.398), where :meth:`value` gives each
        cell's first number (1): what "the fastest" orders by."""
        return {
            r: s
            for r, row in enumerate(self.rows)
            if (s := time_seconds(row.get(col, ""))) is not None
        }

    def shown(self, row: int, col: int) -> str:
        """A cell's value as a program shows it: the date as written, else the number."""
        if col in self.dates:
            return self.rows[row].get(col, "")
        v = self.value(row, col)
        return "?" if v is None else fmt_number(v)

    def column_values(self, col: int) -> dict[int, float]:
        return {r: v for r in range(len(self.rows)) if (v := self.value(r, col)) is not None}

    def role_columns(self, before: list[str]) -> set[int]:
        """Columns whose whole header, of two words or more, the words ``before`` end with, in
        a lemmatised claim's forms ("written by" before "david jackson" names "written by",
        "direct by" names "directed by", "the home team" names "home team")."""
        out = set()
        for c, h in self.headers.items():
            head = tokenize(h)
            if len(head) < 2 or len(head) > len(before) or not set(head) - STOP_WORDS:
                continue  # a one-word header ("name", "date") is as often the claim's own word
            if writes_header(before[len(before) - len(head) :], head):
                out.add(c)
        return out

    def role_named(self, after: list[str]) -> set[int]:
        """The column whose whole header the words ``after`` begin with, one word or more ("as"
        then "runner - up" names "runner-up", "as captain" names "captain"); none when two
        headers fit."""
        out = set()
        for c, h in self.headers.items():
            head = tokenize(h)
            if not head or len(head) > len(after) or not set(head) - STOP_WORDS:
                continue
            if writes_header(after[: len(head)], head):
                out.add(c)
        return out if len(out) == 1 else set()

    def rows_holding(self, value: str, columns: Iterable[int]) -> set[int]:
        """The rows whose cell in one of ``columns`` holds ``value`` whole or as a part ("guard"
        in "shooting guard", "allendale" in "conroe and allendale")."""
        words = tokenize(value)
        return {
            r
            for r, row in enumerate(self.rows)
            if any(contains_span(tokenize(row.get(c, "")), words) for c in columns)
        }

    def is_total(self, row: int) -> bool:
        """Whether a row sums or averages the others ("total", "mean"): not one of the things
        counted or ranked."""
        return bool(set(tokenize(self.name(row))) & _TOTAL_ROWS)

    def name(self, row: int) -> str:
        """A row's name for a program: its first non-numeric cell."""
        cells = self.rows[row]
        for c in sorted(cells):
            if cells[c] and (parse_number(cells[c]) is None or is_season(tokenize(cells[c]))):
                return cells[c]
        return f"row {row + 1}"

    def mentions(self, claim: list[str]) -> list[tuple[int, int]]:
        """(row, col) of the cells whose whole text occurs in the claim, and of the date cells
        naming a day the claim names in its own words ("on november 24" for the cell "november
        24 , 1946", "16 february 2005" for "feb 16 , 2005"). A cell of numbers alone names
        nothing (a claim's "12" is no row's name) unless its numbers are joined by dashes
        (:func:`_is_score`)."""
        out = []
        numbered = self._numbered(claim)
        for r, row in enumerate(self.rows):
            for c, text in row.items():
                toks = tokenize(text)
                if c in numbered and len(toks) == 1 and as_number(toks[0]) in numbered[c]:
                    out.append((r, c))
                    continue
                if not toks or (len(toks) == 1 and (toks[0] in STOP_WORDS or len(toks[0]) < 3)):
                    continue
                numbers_only = all(as_number(t) is not None or t in "-,." for t in toks)
                if numbers_only and not _is_score(toks):
                    continue
                if contains_span(claim, toks):
                    out.append((r, c))
        out = self._without_inner(claim, out)
        out += [key for key in self._by_year(claim) if key not in out]
        days = [d for _, d in claim_days(claim)] if self.dates else []
        for c in sorted(self.dates) if days else ():
            for r in range(len(self.rows)):
                cell = self.day(r, c)
                if cell is not None and (r, c) not in out and any(same_day(cell, d) for d in days):
                    out.append((r, c))
        return out

    def _without_inner(
        self, claim: list[str], found: list[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """``found`` without the cells the claim names only inside a longer cell of the same
        column: "south brisbane" names its row, not also the "brisbane" one."""
        spans = {
            key: [(i, i + len(toks)) for i in span_starts(claim, toks)]
            for key in found
            if (toks := tokenize(self.rows[key[0]][key[1]]))
        }

        def inner(key: tuple[int, int]) -> bool:
            return bool(spans.get(key)) and all(
                any(
                    o[1] == key[1] and a <= i and j <= b and (b - a) > (j - i)
                    for o in found
                    for a, b in spans.get(o, ())
                )
                for i, j in spans[key]
            )

        return [key for key in found if not inner(key)]

    @cached_property
    def texts_and_words(self) -> tuple[frozenset[str], frozenset[str]]:
        """The cell texts, and every word the cells and headers write: what the claim's
        readings (misspelt words, participles, plurals, ordinals, countries) look words up in,
        built once per table instead of once per reading."""
        texts = frozenset(text for row in self.rows for text in row.values())
        words = frozenset(w for text in texts | set(self.headers.values()) for w in tokenize(text))
        return texts, words

    @cached_property
    def _year_cells(self) -> dict[int, list[tuple[int, int]]]:
        """Year -> its cells in the columns of years that name their rows: nearly every row
        gives a year, each year once (a career's seasons, a race's editions)."""
        out: dict[int, list[tuple[int, int]]] = {}
        for c in sorted(self.headers):
            years = [(r, y) for r, row in enumerate(self.rows) if (y := bare_year(row.get(c, "")))]
            unique = len({y for _, y in years}) == len(years)
            if len(years) >= max(2, 0.8 * len(self.rows)) and unique:
                for r, y in years:
                    out.setdefault(y, []).append((r, c))
        return out

    @cached_property
    def year_keys(self) -> frozenset[int]:
        """The columns of :attr:`_year_cells`."""
        return frozenset(c for cells in self._year_cells.values() for _, c in cells)

    def _by_year(self, claim: list[str]) -> list[tuple[int, int]]:
        """The cells of :attr:`year_keys` columns that a year of the claim names ("robby
        gordon 's best finish in 1993"), unless the claim bounds by it ("after 1994") or spans
        from it ("1994 - 95", "between 2005 and 2011")."""
        if not self._year_cells:
            return []
        out = []
        for i, tok in enumerate(claim):
            year = bare_year(tok)
            if year not in self._year_cells or set(claim[max(0, i - 4) : i]) & _ORDERING:
                continue
            near = claim[max(0, i - 2) : i] + claim[i + 1 : i + 3]
            if relation_before(claim, i) or set(near) & _YEAR_SPANS:
                continue
            out += self._year_cells[year]
        return out

    def _numbered(self, claim: list[str]) -> dict[int, set[float]]:
        """Column -> the numbers the claim gives right after the column's header ("week 12",
        "game 25", "tie no 62"): a number so named names its cell."""
        out: dict[int, set[float]] = {}
        for c, header in self.headers.items():
            head = tokenize(header)
            if not head or c in self.dates:
                continue
            starts = header_starts(claim, head)
            for i in starts:
                j = i + len(head)
                if claim[j : j + 1] and claim[j] in _VALUE_LINKS:
                    j += 1  # "the point be 9", "a score of 71"
                if j >= len(claim) or (n := as_number(claim[j])) is None:
                    continue
                after = claim[j + 1 : j + 3]
                if after[:1] and after[0] in "-:/":
                    continue  # a score or a time, not the header's number
                if (
                    after[-1:]
                    and after[-1] in MORE_WORDS | LESS_WORDS
                    and (
                        len(after) == 1 or after[0] in _STEPS or after[0] in MORE_WORDS | LESS_WORDS
                    )
                ):
                    continue  # "rank 1 spot higher than": by how much, no row's value
                if (
                    len(after) == 2
                    and after[0] in _SPAN_JOINERS
                    and as_number(after[1]) is not None
                ):
                    continue  # "between game 15 and 29", "series 2 , 3": a span or a list
                if set(claim[max(0, i - 2) : i]) & _ORDERING:
                    continue  # "after week 8": another row than the one named
                if j > i + len(head) and set(claim[max(0, i - 2) : i]) & _OVER_ROWS:
                    continue  # "the average score be 70": of all rows, not one row's value
                out.setdefault(c, set()).add(n)
            for i in starts if starts and not self._numbers_rows(c) else ():
                n = as_number(claim[i - 1]) if i else None
                before = claim[max(0, i - 3) : i - 1]
                if n is None or (before and before[-1] in "-:/") or relation_before(claim, i - 1):
                    continue  # "6 - 2 win", "more than 3 draw": not the row's value
                if set(before) & (_ORDERING | _COUNTING | _OVER_ROWS):
                    continue  # "only 1 second place", "3 of the 5 game"
                out.setdefault(c, set()).add(n)  # "13 cap", "3 draw"
        return out

    def _numbers_rows(self, col: int) -> bool:
        """Whether column ``col`` numbers the rows one by one (games 1, 2, 3 ..., or 45, 46 ...
        of a season's later months): "5 game" counts games there, it names no row. Years one
        by one ("the 1993 season") are names."""
        values = [self.value(r, col) for r in range(len(self.rows))]
        return (
            len(values) > 1
            and values[0] is not None
            and values == [values[0] + i for i in range(len(values))]
            and bare_year(self.rows[0].get(col, "")) is None
        )

    def day(self, row: int, col: int) -> Quantity | None:
        """The day a date cell names (None: no day), read once per cell."""
        key = (row, col)
        if key not in self._days:
            d = parse_date(_date_text(self.rows[row].get(col, "")))
            self._days[key] = d if d is not None and d.granularity.startswith("day") else None
        return self._days[key]

    def header_columns(
        self, words: set[str], numeric_only: bool = False, among: Collection[int] | None = None
    ) -> list[int]:
        """Columns whose header shares the most content words with the claim (ties kept), of
        ``among`` when given."""
        stems = {stem(w) for w in words}
        scored = [
            (sum(bool(header_forms(w) & stems) for w in _header_words(h)), len(_header_words(h)), c)
            for c, h in self.headers.items()
            if (not numeric_only or c in self.numeric) and (among is None or c in among)
        ]
        best = max((s for s, _, _ in scored), default=0)
        tied = [(n - s, c) for s, n, c in scored if s and s == best]
        # "195 more goal": "goals", written whole, not "field goals", which holds it and more
        whole = [c for u, c in tied if u == 0]
        if len(whole) == 1:
            words = _header_words(self.headers[whole[0]])
            if all(words < _header_words(self.headers[c]) for _, c in tied if c != whole[0]):
                return whole
        return sorted(c for _, c in tied)


@dataclass
class Claim:
    tokens: list[str]
    words: set[str]
    mentions: list[tuple[int, int]]
    #: Numbers of the table's page title ("1979" of "1979 VFL season"): the subject's context,
    #: never a value the claim states of a row ("on 23 june 1979" in a table of that season).
    context: frozenset[float] = frozenset()

    @cached_property
    def days(self) -> list[tuple[tuple[int, int], Quantity]]:
        """:func:`claim_days` of the tokens, read once."""
        return claim_days(self.tokens)

    def numbers(self, skip: Sequence[tuple[int, int]] = ()) -> list[float]:
        """The numbers among the tokens (not parts of scores, dates or times, nor the page
        title's), outside ``skip`` (token spans)."""
        out = []
        toks = self.tokens
        for i, tok in enumerate(toks):
            n = as_number(tok)
            joined = (i > 0 and toks[i - 1] in "-:/") or (
                i + 1 < len(toks) and toks[i + 1] in "-:/"
            )
            if n is None or joined or n in self.context or any(a <= i < b for a, b in skip):
                continue
            out.append(n)
        return out


#: Headers of a results table's place column (:meth:`TableGrid.place_column`).
PLACE_HEADERS = frozenset("rank pos pos. position place placing".split())
#: Names of a row that sums or averages the others (:meth:`TableGrid.is_total`).
_TOTAL_ROWS = frozenset("total totals all overall sum mean average".split())

#: Header words whose verb is irregular, with the forms a lemmatised claim writes them in
#: ("lost" is read from "lose" and "loss", "won" from "win").
_IRREGULAR_FORMS = {
    "lost": {"lose", "loss"},
    "losses": {"lose", "lost"},
    "won": {"win"},
    "wins": {"win", "won"},
    "drawn": {"draw"},
    "draws": {"draw", "drawn"},
    # abbreviated headers, read from the word a claim writes ("the first-round pick" of "rd")
    "rd": {"round"},
    "rnd": {"round"},
    "pts": {"point"},
    "att": {"attendance"},
    "yds": {"yard"},
    "avg": {"average"},
    "pct": {"percentage", "percent"},
    # a lemmatised claim's "die" and "be bear" (born) for a date of death or birth
    "death": {"die", "died"},
    "birth": {"bear", "born"},
    # words a claim uses for a column the table names otherwise ("the highest attendance" of an
    # Australian football round's "crowd")
    "crowd": {"attendance", "attend", "attended", "audience", "spectator", "fan"},
    "attendance": {"crowd", "attend", "attended", "spectator", "fan"},
}


@lru_cache(maxsize=1 << 14)
def _header_words(header: str) -> frozenset[str]:
    """A header's content words; a mark ("-" of "physico-chemical", "w - l") names nothing."""
    return frozenset(w for w in set(tokenize(header)) - STOP_WORDS if any(ch.isalnum() for ch in w))


@lru_cache(maxsize=1 << 14)
def header_forms(word: str) -> frozenset[str]:
    """The forms a lemmatised claim gives a header word: its singular, a participle's verb
    ("all bills sponsored" -> "sponsor", "games played" -> "play", "scored" -> "score"), the
    verb of a noun in "-ment" ("2 more student enrol" for "enrollment"), and an irregular
    verb's (:data:`_IRREGULAR_FORMS`)."""
    forms = {stem(word), *_IRREGULAR_FORMS.get(word, ())}
    if len(word) > 5 and word.endswith("ed"):
        forms.update((word[:-2], word[:-1]))
    if len(word) > 7 and word.endswith("ment"):  # "enrollment" -> "enrol", "appoint"
        verb = word[:-4]
        forms.add(verb[:-1] if verb.endswith("ll") else verb)
        forms.add(verb)
    return frozenset(forms)


#: Words that make a game's leader of the stat after them: "the most point", "lead in assist".
_LEADER_WORDS = MAX_WORDS | {"high", "lead", "leader", "leading"}
#: Words that may stand between them: "the highest number of point", "lead the team in rebound".
_LEADER_FILLERS = frozenset("the a number of team in total amount".split())


def leader_columns_named(claim: Claim, t: TableGrid) -> tuple[set[int], set[str]]:
    """The game leader columns ("high points", "high rebounds") the claim names by a leader
    word before their stat ("luol deng score the highest point on november 1", "the most
    rebound"), with the names' leader words: they name a column, not a superlative over rows.
    Every leader word of the claim must so name one, or none counts ("lead the team in point
    for the most game" asks who led most often)."""
    stats = {}
    for c in t.leaders:
        words = tokenize(t.headers.get(c, ""))
        if len(words) == 2 and words[0] == "high":
            stats[c] = header_forms(words[1])
    toks, cols, used = claim.tokens, set(), set()
    for i, tok in enumerate(toks):
        if tok not in _LEADER_WORDS:
            continue
        j = i + 1
        while j < len(toks) and toks[j] in _LEADER_FILLERS:
            j += 1
        hit = {c for c, forms in stats.items() if j < len(toks) and stem(toks[j]) in forms}
        if not hit and tok in MAX_WORDS:
            return set(), set()
        cols |= hit
        used |= {tok} if hit else set()
    return cols | {NUMBER_OF + c for c in cols if NUMBER_OF + c in t.headers}, used


def writes_header(words: Sequence[str], head: Sequence[str]) -> bool:
    """Whether a lemmatised claim's ``words`` write a tokenised header ``head`` word for word,
    each as written or in one of its :func:`header_forms` ("direct by" writes "directed by")."""
    return len(words) == len(head) and all(
        w == x or stem(w) in header_forms(x) for w, x in zip(words, head)
    )


#: What a claim writes between a column's header and the value it gives ("the point be 9").
_VALUE_LINKS = frozenset({"be", "of", "=", "have", "at"})


def header_starts(claim: list[str], head: list[str]) -> list[int]:
    """Where the claim writes the header ``head`` (:func:`writes_header`)."""
    n = len(head)
    return [i for i in range(len(claim) - n + 1) if writes_header(claim[i : i + n], head)]


#: What joins a header's number to more numbers ("game 15 and 29", "series 2 , 3 and 4").
_SPAN_JOINERS = frozenset({"and", "to", ",", "or", "through"})
#: What joins a year to the other end of a span ("1994 - 95", "from 1994 to 1998").
_YEAR_SPANS = frozenset({"-", "to", "through", "until"})
#: Words before "week 8" that point at rows other than the one named.
_ORDERING = frozenset("after before since until between prior following previous".split())
#: What a claim counts places in ("1 spot higher", "2 places ahead").
_STEPS = frozenset("spot spots place places position positions".split())
#: Words before a number that count rows rather than give one row's value ("only 1 season").
_COUNTING = frozenset("only of all total".split())
#: Words before a column's header that read all its rows ("the highest score be 70").
_OVER_ROWS = MAX_WORDS | MIN_WORDS | TOTAL_WORDS | AVERAGE_WORDS


def _is_score(toks: list[str]) -> bool:
    """Numbers joined by dashes: a score or a record ("43 - 56", "6 - 3 , 6 - 2"), a season
    ("1999 - 00"), a date ("19 - 12 - 1975"). The claim writes such a cell whole, where a lone
    number of the claim would match any cell holding it."""
    return len(toks) >= 3 and "-" in toks and as_number(toks[0]) is not None


def is_season(toks: list[str]) -> bool:
    """A season or a span of years ("1999 - 00", "2001 - 2002"): the name a program gives its
    row (:meth:`TableGrid.name`)."""
    if len(toks) != 3 or toks[1] != "-" or not all(t.isdigit() for t in toks[::2]):
        return False
    return bare_year(toks[0]) is not None and len(toks[2]) in (2, 4)


#: "andrew bogut (12)": a name and, in brackets, its number (:func:`_name_and_number`).
_BRACKETED = re.compile(r"^(.+) \(([^()]+)\)$")


def _name_and_number(text: str) -> tuple[str, str] | None:
    """The name and the number of a cell written "name (number)", as TabFact's game logs give a
    game's leaders; None for "5 - 42 (10)" (no name) or "tps (finland)" (no number)."""
    m = _BRACKETED.match(text)
    if (
        m is None
        or as_number(m.group(2).strip()) is None
        or not any(c.isalpha() for c in m.group(1))
    ):
        return None
    return m.group(1), m.group(2).strip()


_MONTH_NAMES = (
    "january february march april may june july august september october november december"
).split()


def _numeric_date(text: str) -> tuple[int, int, int] | None:
    """(first, second, year) of "30 / 03 / 1985", or (month, day, year) of "1974 - 02 - 28"
    (ISO order, marked by a negative first); None for other text."""
    parts = text.split()
    if len(parts) != 5 or parts[1] != parts[3] or parts[1] not in ("/", "-", "."):
        return None
    if not all(p.isdigit() for p in parts[::2]):
        return None
    a, b, c = (int(p) for p in parts[::2])
    if len(parts[0]) == 4 and parts[1] == "-" and 1 <= b <= 12 and 1 <= c <= 31:
        return -b, c, a
    if len(parts[4]) == 4 and 1 <= a <= 31 and 1 <= b <= 31:
        return a, b, c
    return None


def _spell_dates(c: int, rows: list[dict[int, str]]) -> dict[str, str]:
    """A column of numeric dates ("30 / 03 / 1985", "1974 - 02 - 28") written with the month's
    name ("30 march 1985"), so that a claim's "march 30th , 1985" names its row and the column
    orders as dates. Day and month of "a / b / yyyy" are told apart by the column: a first
    number over 12 is a day, a second over 12 a month's day; a column that shows neither (or
    both) is left as written. Returns each cell text so rewritten, as written -> as read."""
    found = {i: d for i, row in enumerate(rows) if (d := _numeric_date(row.get(c, "")))}
    filled = sum(bool(row.get(c)) for row in rows)
    if len(found) < 2 or len(found) < 0.8 * filled:
        return {}
    slashed = [d for d in found.values() if d[0] > 0]
    day_first = any(a > 12 for a, _, _ in slashed)
    month_first = any(b > 12 for _, b, _ in slashed)
    if slashed and day_first == month_first:
        return {}
    out = {}
    for i, (a, b, year) in found.items():
        month, day = (-a, b) if a < 0 else (b, a) if day_first else (a, b)
        if 1 <= month <= 12 and 1 <= day <= 31:
            spelled = f"{day} {_MONTH_NAMES[month - 1]} {year}"
            out[rows[i][c]] = spelled
            rows[i][c] = spelled
    return out


def _split_located(c: int, headers: dict[int, str], rows: list[dict[int, str]]) -> None:
    """A game log's "location attendance" cells ("united center 22097") become the venue and
    its crowd (``NUMBER_OF + c``, under the same header): "the game at the united center" names
    the venue, "an attendance of 22097" the number."""
    if not {"location", "attendance"} <= set(tokenize(headers[c])):
        return
    parts = {}
    for i, row in enumerate(rows):
        words = row.get(c, "").split()
        n = as_number(words[-1].replace(",", "")) if len(words) > 1 else None
        if n is not None and n == int(n) and any(ch.isalpha() for ch in " ".join(words[:-1])):
            parts[i] = (" ".join(words[:-1]), words[-1])
    if len(parts) < 2 or len(parts) < 0.5 * sum(bool(row.get(c)) for row in rows):
        return
    headers[NUMBER_OF + c] = headers[c]
    for i, (name, number) in parts.items():
        rows[i][c], rows[i][NUMBER_OF + c] = name, number


#: The column key of the numbers split off a column of "name (number)" cells.
NUMBER_OF = 1000
#: The column key of the codes split off a column of "name ( code )" cells.
CODE_OF = 3000
#: A name and, in brackets, a code of three letters at most: a country ("vitaly scherbo ( cis
#: )") or a party ("richard l neuberger (d)").
_CODED = re.compile(r"^(.*[a-z].*) \( ?([a-z]{1,3}) ?\)$")


def _split_coded(c: int, headers: dict[int, str], rows: list[dict[int, str]]) -> None:
    """Where most cells of column ``c`` are a name and its code, the codes go to a column of
    their own (``CODE_OF + c``, under the same header): a claim names the athlete ("Li
    Xiaoshuang finished seventh") more often than it writes the country code beside the name."""
    cells = [row for row in rows if row.get(c)]
    coded = [(row, m) for row in cells if (m := _CODED.match(row[c]))]
    if len(coded) < 2 or len(coded) < 0.8 * len(cells):
        return
    headers[CODE_OF + c] = headers[c]
    for row, m in coded:
        row[c], row[CODE_OF + c] = m.group(1), m.group(2)


def _split_counted(c: int, headers: dict[int, str], rows: list[dict[int, str]]) -> bool:
    """Whether column ``c``'s cells are mostly "name (number)"; if so it becomes two under its
    header: the names, values a claim states of a row ("andrew bogut have the high point in
    game 5"), and the numbers (column ``NUMBER_OF + c``: "the high point be 12")."""
    parts = {i: _name_and_number(row[c]) for i, row in enumerate(rows) if row.get(c)}
    split = {i: p for i, p in parts.items() if p}
    if len(parts) < 2 or len(split) < 0.8 * len(parts):
        return False
    headers[NUMBER_OF + c] = headers[c]
    for i, (name, number) in split.items():
        rows[i][c], rows[i][NUMBER_OF + c] = name, number
    return True


#: The column key of the "at" / "vs" split off a column of opponents (:func:`_split_venue`).
VENUE_OF = 2000
#: What marks an opponent's venue in a game log ("at Pittsburgh", "vs. Texas", "@ Boston").
_VENUE = re.compile(r"^(at|vs\.?|v\.?|@) (?=\S)")


def _split_venue(c: int, headers: dict[int, str], rows: list[dict[int, str]]) -> None:
    """Where two cells or more of column ``c`` are an opponent with its venue ("at pittsburgh"),
    the venue goes to a column of its own (``VENUE_OF + c``, under the same header): a claim
    names the opponent ("lost to Pittsburgh") more often than where the game was."""
    marked = [(row, m) for row in rows if (m := _VENUE.match(row.get(c, "")))]
    if len(marked) < 2:
        return
    headers[VENUE_OF + c] = headers[c]
    for row, m in marked:
        rest = row[c][m.end() :]
        if parse_number(rest) is None or any(ch.isalpha() for ch in rest):
            row[c], row[VENUE_OF + c] = rest, m.group(1)


#: How a cell lists several names ("chris bosh , joey graham", "miller & howard").
_LIST_SEPARATOR = re.compile(r" (?:,|&|and|/) ")


_V = TypeVar("_V")


def by_named_header(
    claim: Claim, t: TableGrid, named: dict[tuple[int, str], _V]
) -> dict[tuple[int, str], _V]:
    """``named`` ((column, value) -> anything) with a value held in several columns kept in the
    one whose header the claim names ("joe johnson be the point leader in 2 game": high
    points, not high assists); as it is where the claim names none or several."""
    out = dict(named)
    for value in {v for _, v in named}:
        cols = [c for c, v in named if v == value]
        if len(cols) < 2:
            continue
        kept = t.header_columns(claim.words, among=cols)
        if len(kept) == 1:
            for c in cols:
                if c != kept[0]:
                    del out[(c, value)]
    return out


def one_numeric_column(claim: Claim, t: TableGrid, fallback: bool = False) -> int | None:
    """The one numeric column the claim's words name; of several, the one whose number the
    claim does not give with its header ("car number 19 have the second most lap led": car
    number names the row, laps led is read), else the one its words name besides the headers
    of the columns whose cells it names."""
    cols = t.header_columns(claim.words, numeric_only=True)
    if len(cols) > 1:
        numbered = {
            c
            for r, c in claim.mentions
            if len(cell := tokenize(t.rows[r][c])) == 1 and as_number(cell[0]) is not None
        }
        rest = [c for c in cols if c not in numbered]
        cols = rest if len(rest) == 1 else cols
    if len(cols) > 1:
        # "when richmond be the away team": those words are the named cell's column, not the
        # "away team score" column beside the crowd read
        spent = {
            w
            for c in {c for _, c in claim.mentions}
            if (head := tokenize(t.headers.get(c, "")))
            for i in header_starts(claim.tokens, head)
            for w in claim.tokens[i : i + len(head)]
        }
        rest = t.header_columns(claim.words - spent, numeric_only=True) if spent else cols
        cols = rest if len(rest) == 1 else cols
    if not cols and fallback:
        cols = sorted(t.numeric)
    return cols[0] if len(cols) == 1 else None


def rows_by_mention(claim: Claim, t: TableGrid) -> dict[tuple[int, str], set[int]]:
    """(column, value) of each cell the claim names -> the rows holding that value there."""
    out: dict[tuple[int, str], set[int]] = {}
    for r, c in claim.mentions:
        v = t.rows[r][c]
        if c in t.leaders:  # a leader shared with others is still that row's
            out.setdefault(
                (c, v),
                {i for i, row in enumerate(t.rows) if v in _LIST_SEPARATOR.split(row.get(c, ""))},
            )
        else:
            out.setdefault((c, v), {i for i, row in enumerate(t.rows) if row.get(c) == v})
    return out


def claim_days(tokens: list[str]) -> list[tuple[tuple[int, int], Quantity]]:
    """The days a claim names, each with its token span ("on 16 february 2005")."""
    text = _date_text(" ".join(tokens))
    return [
        ((text.count(" ", 0, d.start), text.count(" ", 0, d.end) + 1), d)
        for d in find_dates(text)
        if d.granularity.startswith("day")
    ]


def mention_spans(claim: Claim, t: TableGrid) -> list[tuple[int, int]]:
    """Token spans of the claim that are the text of a cell it names, or a day a date cell it
    names holds."""
    toks = claim.tokens
    spans = [
        (i, i + len(cell))
        for r, c in claim.mentions
        if (cell := tokenize(t.rows[r][c]))
        for i in span_starts(toks, cell)
    ]
    dated = [t.day(r, c) for r, c in claim.mentions if c in t.dates]
    if dated:
        spans += [
            span
            for span, d in claim.days
            if any(cell is not None and same_day(cell, d) for cell in dated)
        ]
    return spans


def header_spans(claim: Claim, t: TableGrid) -> list[tuple[int, int]]:
    """Token spans of the claim that are a column header holding a number ("multi 1")."""
    toks = claim.tokens
    return [
        (i, i + len(head))
        for h in t.headers.values()
        if len(head := tokenize(h)) > 1 and any(as_number(w) is not None for w in head)
        for i in span_starts(toks, head)
    ]


def free_numbers(claim: Claim, t: TableGrid) -> list[float]:
    """The claim's numbers outside the cells it names ("august 4" names a row, not a value) and
    the column headers it names ("multi 1" names a column)."""
    return claim.numbers(skip=mention_spans(claim, t) + header_spans(claim, t))
