"""Operations that read one row: a stated value checked against the named row (``lookup``),
two named values in one row (``match``), and a bound on a row's number (``bound``).
"""

from __future__ import annotations

from collections.abc import Callable

from wikicheck.common.quantities import (
    MONTH_WORDS,
    as_ordinal,
    bare_year,
    find_dates,
    same_day,
    time_seconds,
)
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.verifier.tables.grid import (
    Claim,
    TableGrid,
    Verdict,
    free_numbers,
    header_forms,
    header_starts,
    leader_columns_named,
    mention_spans,
    rows_by_mention,
)
from wikicheck.verifier.tables.text import (
    AVERAGE_WORDS,
    LESS_WORDS,
    MAX_WORDS,
    MIN_WORDS,
    MORE_WORDS,
    ORDINAL_WORDS,
    RELATION_TEST,
    TITLE_MASK,
    TOTAL_WORDS,
    as_number,
    contains_span,
    fmt_number,
    relation_before,
    span_starts,
    tokenize,
)

#: Words that put a stated value in relation to the row's rather than state it ("before 1932").
_RELATIVE = frozenset(
    "before after until since prior earlier later not never no n't without except".split()
)


#: Words that order rows ("taken prior to grammar"): a match of values does not decide them.
_ORDER = frozenset("before after prior earlier later until since following previous".split())

#: Words that make an operation of a claim (a superlative, a comparison, a sum, an order): a
#: claim holding one is no plain match of values.
OPERATION_WORDS = (
    MAX_WORDS | MIN_WORDS | MORE_WORDS | LESS_WORDS | TOTAL_WORDS | AVERAGE_WORDS | _ORDER
    | frozenset({"than"})
)  # fmt: skip

#: A side of a game, by the words of its column's header ("home team", "away team", "visitor").
_SIDE_WORDS = {"home": frozenset({"home"}), "away": frozenset({"away", "visitor", "visiting"})}
#: Where a claim states a team's side right after the team: "geelong play at home", "olimpia be
#: the away team"; only so ("geelong beat the home team", "play footscray at home", "carlton
#: play the away team melbourne" give the other team's side).
_BE = ("be", "was", "were", "is", "are")
_PLAY = ("play", "played", "plays")
_SIDE_LEADS = (
    [(be, word) for be in _BE for word in ("at", "the")]
    + [(be,) for be in _BE]
    + [(play, "at") for play in _PLAY]
    + [(play,) for play in _PLAY]
    + [(be, play, "at") for be in _BE for play in _PLAY]
)


def _side_stated(toks: list[str], end: int) -> str | None:
    """ "home" or "away" where the words from ``end`` state the side of the team before them
    (not its score: "be the home team 's score")."""
    for lead in _SIDE_LEADS:
        i = end + len(lead)
        if tuple(toks[end:i]) != lead or i >= len(toks):
            continue
        rest = toks[i + 1 : i + 3]
        if rest[:1] == ["team"]:
            rest = rest[1:]
        if rest[:1] and rest[0] in ("'", "'s", "s", "score"):
            return None
        for side, words in _SIDE_WORDS.items():
            if toks[i] in words:
                return side
    return None


def _side_columns(t: TableGrid) -> dict[str, set[int]]:
    """Each side's columns where the table has a column for each ("home team" / "away team",
    "home" / "visitor"); empty otherwise."""
    out = {
        side: {c for c, h in t.headers.items() if set(tokenize(h)) & words}
        for side, words in _SIDE_WORDS.items()
    }
    return out if all(out.values()) and not out["home"] & out["away"] else {}


def _wrong_side(claim: Claim, t: TableGrid, value: str, cols: set[int]) -> tuple[int, int] | None:
    """(the column of the side the claim gives ``value``, the other side's column holding it)
    where the table holds it on the other side only ("olimpia be the away team", Olimpia in
    "home"); None otherwise."""
    sides = _side_columns(t)
    words = tokenize(value)
    if not sides or not any(w[:1].isalpha() for w in words):
        return None  # a score or a number has no side
    longer = [(a, b) for a, b in mention_spans(claim, t) if b - a > len(words)]
    for i in span_starts(claim.tokens, words):
        if any(a <= i and i + len(words) <= b for a, b in longer):
            continue  # "melbourne" of "south melbourne be the away team"
        side = _side_stated(claim.tokens, i + len(words))
        held = cols & sides["away" if side == "home" else "home"] if side else set()
        if held and not cols & sides[side]:
            return min(sides[side]), min(held)
    return None


def _stated_side(claim: Claim, t: TableGrid, value: str, cols: set[int]) -> set[int]:
    """Of ``cols``, the columns of the side the claim gives ``value`` right after naming it
    ("the spur play at home on 16 february 2005": the home column, not the visitor's); empty
    where it gives none, the table has no column per side, or neither of ``cols`` is that
    side's."""
    sides = _side_columns(t)
    words = tokenize(value)
    if not sides or not any(w[:1].isalpha() for w in words):
        return set()
    for i in span_starts(claim.tokens, words):
        side = _side_stated(claim.tokens, i + len(words))
        if side and cols & sides[side]:
            return cols & sides[side]
    return set()


def lookup(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row> ... <value>": one row named by a cell unique in its column, and a value the claim
    states in another column; the value must be that row's (a value of the same column found in
    other rows only, or a stated number the row's cell does not hold, refutes)."""
    cues = claim.words & (
        MAX_WORDS | MIN_WORDS | MORE_WORDS | LESS_WORDS | TOTAL_WORDS | AVERAGE_WORDS
    )
    named = _column_names(t) & (TOTAL_WORDS | AVERAGE_WORDS)
    column_rows = rows_by_mention(claim, t)
    leading, cue_words = leader_columns_named(claim, t)
    cues -= cue_words  # "the most point on november 1": the game's "high points" leader
    cues -= _header_cues(claim, t)
    # "a total of 12" names the column, not a medal table's "total" row
    toks = claim.tokens
    columns_only = {w for j, w in enumerate(toks) if j and toks[j - 1] == "a"} & named
    column_rows = {k: rs for k, rs in column_rows.items() if k[1] not in columns_only}
    if cues - (named - {v for _, v in column_rows}) or "than" in claim.words:
        return None  # a cue word that is a column's whole header ("a total of 288") names
        # it, unless it names a row too (a medal table's "total" row)
    after_game = _record_after(claim, t, column_rows)
    if after_game is not None:
        return after_game
    named_by = _named_row(claim, t, column_rows)
    if named_by is None:
        each = _value_of_each(claim, t) if claim.words & {"both", "each"} else None
        return each or _year_value_of_rows(claim, t, column_rows)
    row, name, key_cols = named_by
    for (c, v), rs in column_rows.items():  # any team the row names, its own or its opponent
        sides = _wrong_side(claim, t, v, {c}) if row in rs else None
        if sides is not None:
            claimed, held = sides
            program = f"{t.headers[held]} = {v!r}; claimed {t.headers[claimed]}"
            return Verdict(REFUTES, "lookup", program)
    relative = claim.words & _RELATIVE
    order = claim.words & _ORDER
    if "after" in relative and _lasted(claim.tokens, t):
        relative, order = relative - {"after"}, order - {"after"}
    timeline = _year_cells(claim, t, row)
    if timeline is not None:
        wrong = [(c, v) for c, v in timeline if t.rows[row].get(c) != v]
        shown = "; ".join(
            f"{t.headers[c]}[{name}] = {t.rows[row].get(c, '')!r}" for c, _ in timeline
        )
        claimed = ", ".join(f"{t.headers[c]}: {v!r}" for c, v in timeline)
        program = f"{shown}; claimed {claimed}"
        return Verdict(REFUTES if wrong else SUPPORTS, "lookup", program)
    each_year = _year_value_of_rows(claim, t, column_rows)
    if each_year is not None:
        return each_year
    apart = _other_written_apart(claim, t, row, column_rows)
    if apart is not None:
        c, said = apart
        program = f"{t.headers.get(c, c)}[{name}] = {_shown_cell(t.rows[row][c])}; claimed {said!r}"
        return Verdict(REFUTES, "lookup", program)
    held = {v for (_, v), rs in column_rows.items() if row in rs}
    named_cols = set(t.header_columns(claim.words)) | leading
    for (c, v), rs in column_rows.items():
        if c in key_cols or row in rs or (v in held and c not in named_cols):
            continue  # a value in several columns is the row's if one holds it, unless the
            # claim names the column that does not ("vancouver be at home")
        if contains_span(tokenize(t.rows[row].get(c, "")), tokenize(v)):
            continue  # "euro 2012" of the row's "euro 2012 qualifier": a part of its value
        if _written_apart(t.rows[row].get(c, ""), claim.tokens) is not None:
            continue  # "non - polar" is the row's "nonpolar", not another row's "polar"
        have = _shown_cell(t.rows[row].get(c, ""))
        program = f"{t.headers.get(c, c)}[{name}] = {have}; claimed {_shown_cell(v)}"
        return Verdict(REFUTES, "lookup", program)
    shaped = None if relative else _shaped_value(claim, t, row, key_cols)
    if shaped is not None:
        c, said = shaped
        have = t.rows[row].get(c, "")
        program = f"{t.headers.get(c, c)}[{name}] = {have!r}; claimed {said!r}"
        same = all(map(_same_token, tokenize(have), tokenize(said)))
        return Verdict(SUPPORTS if same else REFUTES, "lookup", program)
    if not relative and not _spans_rows(claim.tokens):
        differs = (
            _other_day(claim, t, row, key_cols)
            or _other_time(claim, t, row, key_cols)
            or _other_game(claim, t, row, key_cols)
        )
        if differs is not None:
            c, said = differs
            program = f"{t.headers.get(c, c)}[{name}] = {t.rows[row].get(c, '')!r}; claimed {said}"
            return Verdict(REFUTES, "lookup", program)
        first = _first_place(claim, t, row, key_cols)
        if first is not None:
            c, have = first
            program = f"{t.headers[c]}[{name}] = {fmt_number(have)}; claimed 1"
            return Verdict(SUPPORTS if have == 1 else REFUTES, "lookup", program)
    ranked = _ordinal_value(claim, t, key_cols)
    if ranked is not None and (have := t.value(row, ranked[0])) is not None:
        c, n = ranked
        program = f"{t.headers[c]}[{name}] = {fmt_number(have)}; claimed {n}"
        return Verdict(SUPPORTS if have == n else REFUTES, "lookup", program)
    cols = _stated_columns(claim, t, key_cols | _said_columns(row, column_rows))
    free = free_numbers(claim, t)
    head = set(tokenize(t.headers[cols[0]])) if len(cols) == 1 else set()
    rest = [n for n in free if fmt_number(n) not in head or bare_year(fmt_number(n)) is None]
    if len(head) > 1 and rest and len(rest) < len(free):
        free = rest  # "as of 2009" of a "population census 2009" column: no value stated
    if _bounded(claim):
        return None  # "rank below 7" states a bound, not the row's value: ``bound`` reads it
    numbers = [n for n in free if n != int(n) or n > 31 or len(cols) == 1]
    if len(cols) == 1 and t.headers[cols[0]] in {fmt_number(n) for n in free}:
        return None  # "in 2010 the result be 2r": the number names the column, states no value
    if len(cols) == 1 and len(numbers) == 1 and not order:
        # "the opponent after week 1": the stated number is another row's, not this one's
        have = t.value(row, cols[0])
        if have is not None:
            program = f"{t.headers[cols[0]]}[{name}] = {fmt_number(have)}; claimed {fmt_number(numbers[0])}"
            return Verdict(SUPPORTS if have == numbers[0] else REFUTES, "lookup", program)
    values = {t.value(row, c) for c in t.rows[row] if c not in key_cols}
    if free and all(n in values for n in free) and not relative:
        shown = ", ".join(fmt_number(n) for n in free)
        program = f"row[{name}] holds {shown}; claimed {shown}"
        return Verdict(SUPPORTS, "lookup", program)
    other = None if relative else _another_rows_number(t, row, key_cols, numbers)
    if other is not None:
        c, have, n = other
        program = f"{t.headers[c]}[{name}] = {fmt_number(have)}; claimed {fmt_number(n)}"
        return Verdict(REFUTES, "lookup", program)
    stated = [(c, v) for (c, v) in column_rows if c not in key_cols]
    stated.sort(key=lambda cv: row not in column_rows[cv])  # the column holding it first
    if relative & _ORDER and any(_ordered_by(claim, t, v) for _, v in column_rows):
        return None  # "chicago be the visiting team after december 6": another row's value
    if stated and not free:  # a stated number the row does not hold leaves it undecided
        said = {v for _, v in stated}
        held_cells = (
            [(c, v) for c, v in stated if row in column_rows[(c, v)]]
            # a stated value the row holds in a column naming it ("the spurs play at home on
            # 23 february": the row's home cell, not another row's visitor cell)
            or [(c, v) for (c, v), rs in column_rows.items() if v in said and row in rs]
            or stated[:1]
        )
        held_cells.sort(key=_said_at(claim))
        held_in: dict[str, set[int]] = {}
        for c, v in held_cells:
            if as_number(tokenize(v)[0]) is None:  # "car number 31 finish in last place"
                held_in.setdefault(v, set()).add(c)
        misplaced = _misplaced(claim, t, held_in)
        if misplaced is not None and t.rows[row].get(misplaced[1]) != misplaced[0]:
            # (the row holding the value in the column the claim names is no misplacement)
            # "i feel good be written by stephen cragg": he directed it
            v, c = misplaced
            have = _shown_cell(t.rows[row].get(c, ""))
            program = f"{t.headers.get(c, c)}[{name}] = {have}; claimed {_shown_cell(v)}"
            return Verdict(REFUTES, "lookup", program)
        shown = ", ".join(
            f"{t.headers.get(c, c)}[{name}] = {_shown_cell(t.rows[row].get(c) or v)}"
            for c, v in held_cells
        )
        claimed = ", ".join(
            _shown_cell(_written_apart(t.rows[row].get(c, ""), claim.tokens) or v)
            for c, v in held_cells
        )
        return Verdict(SUPPORTS, "lookup", f"{shown}; claimed {claimed}")
    return None


def _header_cues(claim: Claim, t: TableGrid) -> set[str]:
    """Cue words the claim writes inside a header of two words or more that it writes whole
    ("when the total fat be 100 g", "her best finish be 3rd"): they name that column."""
    out: set[str] = set()
    for h in t.headers.values():
        head = tokenize(h)
        if len(head) > 1 and set(head) & claim.words and header_starts(claim.tokens, head):
            out.update(head)
    return out


def _ordered_by(claim: Claim, t: TableGrid, value: str) -> bool:
    """Whether the claim writes ``value`` right after an ordering word ("after december 6",
    "prior to 1990"): it names the rows on one side of that value's row, not its row. Not a
    header's word ("leader since 2007")."""
    toks = claim.tokens
    headed = {w for h in t.headers.values() for w in tokenize(h)}
    for i in span_starts(toks, tokenize(value)):
        if i > 0 and toks[i - 1] in _ORDER - headed:
            return True
        if toks[max(0, i - 2) : i] == ["prior", "to"] and "prior" not in headed:
            return True
    return False


def _written_apart(cell: str, tokens: list[str]) -> str | None:
    """The claim's words that write ``cell`` with other spaces or hyphens ("non - polar" for
    "nonpolar", "play off" for "playoff"); None if it writes it no such way."""
    head = tokenize(cell)
    squashed = _squashed(cell)
    if len(squashed) < 5 or contains_span(tokens, head):
        return None
    return next(
        (
            " ".join(tokens[i:j])
            for i in range(len(tokens))
            for j in range(i + 1, min(len(tokens), i + len(head) + 3) + 1)
            if _squashed(" ".join(tokens[i:j])) == squashed
            and _squashed(tokens[i])
            and _squashed(tokens[j - 1])
        ),
        None,
    )


def _squashed(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _other_written_apart(
    claim: Claim, t: TableGrid, row: int, column_rows: dict[tuple[int, str], set[int]]
) -> tuple[int, str] | None:
    """(column, the claim's words) where the row's own cell is named only inside words that
    write another cell of its column apart: "serine be non - polar" names serine's "polar",
    and states another row's "nonpolar"."""
    for c, v in column_rows:
        if t.rows[row].get(c) != v:
            continue
        own = _squashed(v)
        for other in {r.get(c, "") for r in t.rows} - {v}:
            if _squashed(other) == own or own not in _squashed(other):
                continue  # the same value written another way, or one holding no part of it
            said = _written_apart(other, claim.tokens)
            if said is not None and contains_span(tokenize(said), tokenize(v)):
                return c, said
    return None


def _shown_cell(text: str) -> str:
    """A cell as a program shows it: a number as a number ("12.5"), text quoted ("'ferrari'")."""
    n = as_number(text)
    return repr(text) if n is None else fmt_number(n)


def _lasted(toks: list[str], t: TableGrid) -> bool:
    """Whether every "after" of the claim says how long its row lasted rather than orders rows:
    "after", a number, a numeric column's header word ("retired after 25 laps")."""
    afters = [i for i, w in enumerate(toks) if w == "after"]
    return bool(afters) and all(
        as_number(toks[i + 1] if i + 1 < len(toks) else "") is not None
        and bool(t.header_columns(set(toks[i + 2 : i + 3]), numeric_only=True))
        for i in afters
    )


def _another_rows_number(
    t: TableGrid, row: int, key_cols: set[int], numbers: list[float]
) -> tuple[int, float, float] | None:
    """(column, the named row's value, the claim's number) where the claim's one number (not a
    small count: a decimal, or above 31) is another row's value in one column only, and the
    named row's value there differs ("Paul O'Neill scored 9.850", his 9.762 and another's
    9.850 under "total")."""
    if len(numbers) != 1:
        return None
    n = numbers[0]
    cols = {
        c
        for r in range(len(t.rows))
        if r != row
        for c in t.rows[r]
        if c in t.headers and c not in key_cols and t.value(r, c) == n
    }  # a row header (a scientific table's) is a row's name, not a value under a column
    if len(cols) != 1:
        return None
    c = cols.pop()
    have = t.value(row, c)
    return None if have is None or have == n else (c, have, n)


def _other_day(claim: Claim, t: TableGrid, row: int, key_cols: set[int]) -> tuple[int, str] | None:
    """(column, the claim's day) where the claim states one day no cell it names holds and the
    named row's one date column gives another day ("Mexico qualified on 20 January 1997" for
    the row "mexico | ... | 20 january 1996"). A day some row holds is a mention: ``match``
    reads it."""
    spans = mention_spans(claim, t)
    days = [d for (a, b), d in claim.days if not any(a < y and x < b for x, y in spans)]
    cols = [c for c in t.dates if c not in key_cols and t.day(row, c) is not None]
    if len(cols) > 1:  # "the date of vacancy be on 11th february": the date column it names
        named = t.header_columns(claim.words, among=cols)
        cols = named if len(named) == 1 else cols
    if len(days) != 1 or len(cols) != 1 or "-" in tokenize(t.rows[row][cols[0]]):
        return None  # "17 - 21 february 2009" is a span of days
    others = [d for c, text in t.rows[row].items() if c != cols[0] for d in find_dates(text)]
    if any(same_day(d, days[0]) for d in others):
        return None  # "died march 9 , 1960" in another cell: the claim's day is that one
    said = " ".join(days[0].text.split())
    return None if same_day(t.day(row, cols[0]), days[0]) else (cols[0], said)


#: Words of a claim about a span of rows ("3 - 3 between april 2 and 21"), not one row's game.
_SPAN_WORDS = frozenset("between through from during".split())


def _spans_rows(toks: list[str]) -> bool:
    """Whether a span word of the claim spans rows: "started from pole" starts a race."""
    return any(
        w in _SPAN_WORDS and not (w == "from" and toks[i + 1 : i + 2] == ["pole"])
        for i, w in enumerate(toks)
    )


#: Verbs by which a claim says its subject won or lost the game a row records.
_WIN_VERBS = frozenset("beat beats defeat defeats defeated won win wins".split())
_LOSS_VERBS = frozenset("lost lose loses".split())
#: Words between such a verb and the team it names ("lost to the", "won against").
_VERB_LINKS = frozenset("to the against over".split())
#: The first word of a game log's result cell ("w 44 - 7", "l 10 - 17", "loss").
_RESULT_MARKS = {
    "w": "won",
    "win": "won",
    "won": "won",
    "l": "lost",
    "loss": "lost",
    "lost": "lost",
}


def _score_pairs(tokens: list[str]) -> list[tuple[float, float]]:
    """The scores a text writes, two numbers joined by a dash ("44-7" or "44 - 7"); not a
    season ("1999-00") nor part of a longer run ("2012-08-06", "6 - 3 , 6 - 4" reads as two)."""
    out = []
    for i, tok in enumerate(tokens):
        parts = tok.split("-") if tok.count("-") == 1 and tok != "-" else None
        if parts is None and tok == "-" and 0 < i < len(tokens) - 1:
            if tokens[i - 2 : i - 1] == ["-"] or tokens[i + 2 : i + 3] == ["-"]:
                continue
            parts = [tokens[i - 1], tokens[i + 1]]
        if parts is None or bare_year(parts[0]) is not None:
            continue
        a, b = as_number(parts[0]), as_number(parts[1])
        if a is not None and b is not None and a == int(a) and b == int(b):
            out.append((a, b))
    return out


def _other_game(claim: Claim, t: TableGrid, row: int, key_cols: set[int]) -> tuple[int, str] | None:
    """(column, what the claim says) where the claim gives the game a row records another
    score or another winner than the row: a score no cell of the row writes, in either order
    ("beat the Oakland Raiders 44-17" for "w 44 - 7"), or "beat" / "lost to" against the row's
    result ("l 10 - 17"). The result is the page's team's: the verb says it when the row's
    opponent follows it ("the Broncos beat the Raiders"), its reverse when the opponent comes
    right before it ("the Raiders lost to the Broncos"); otherwise the verb is not read."""
    spans = mention_spans(claim, t)
    toks = claim.tokens
    outside = [w if not any(a <= i < b for a, b in spans) else "" for i, w in enumerate(toks)]
    scores = [(c, _score_pairs(tokenize(text))) for c, text in t.rows[row].items()]
    held = {p for _, pairs in scores for pair in pairs for p in (pair, pair[::-1])}
    shown = [c for c, pairs in scores if pairs and c not in key_cols]
    if shown:
        for pair in _score_pairs(outside):
            if pair not in held:
                c = next((c for c in t.headers if c in shown and _is_result_column(t, c)), shown[0])
                return c, f"{fmt_number(pair[0])} - {fmt_number(pair[1])}"
    verbs = [i for i, w in enumerate(outside) if w in _WIN_VERBS or w in _LOSS_VERBS]
    if len(verbs) != 1:
        return None
    results = [c for c in t.headers if _is_result_column(t, c)]  # read only when a verb says
    if len(results) != 1:
        return None
    c, i = results[0], verbs[0]
    have = _RESULT_MARKS.get(next(iter(tokenize(t.rows[row].get(c, ""))), ""))
    # the names of the row the claim gives (not a date, score or number), by token span
    named = [
        (j, j + len(cell))
        for r, col in claim.mentions
        if col not in t.dates and col not in t.numeric and col != c
        and t.rows[r][col] == t.rows[row].get(col)
        and (cell := tokenize(t.rows[r][col]))
        for j in span_starts(toks, cell)
    ]  # fmt: skip
    after = i + 1
    while after < len(toks) and toks[after] in _VERB_LINKS:
        after += 1
    said = "won" if toks[i] in _WIN_VERBS else "lost"
    if any(end == i for _, end in named):  # "the Raiders lost to ...": the opponent's result
        said = "lost" if said == "won" else "won"
    elif not any(start == after for start, _ in named):
        return None  # whose result the verb gives is not told by a name of the row beside it
    if have is None:
        return None
    return None if said == have else (c, repr(said))


def _times(tokens: list[str]) -> list[tuple[int, str]]:
    """(token index, the time) of each time a tokenised text writes ("55 : 27", "1 : 23.398")."""
    out = []
    for i in range(len(tokens) - 2):
        if tokens[i + 1] == ":" and tokens[i].isdigit() and as_number(tokens[i + 2]) is not None:
            if i >= 2 and tokens[i - 1] == ":":
                continue  # the minutes of "2 : 01 : 23.5", read with its hours
            j = i + 3
            while j + 1 < len(tokens) and tokens[j] == ":" and as_number(tokens[j + 1]) is not None:
                j += 2
            out.append((i, "".join(tokens[i:j])))
    return out


def _other_time(claim: Claim, t: TableGrid, row: int, key_cols: set[int]) -> tuple[int, str] | None:
    """(column, the claim's time) where the claim states a time ("finished in 55:27") and the
    named row's one column of times gives another ("56:27")."""
    cols = [c for c in t.times if c not in key_cols and t.rows[row].get(c)]
    said = _times(claim.tokens)
    if len(cols) != 1 or len(said) != 1:
        return None
    # any cell of the row may hold it ("qual 2" beside "qual 1")
    held = [v for text in t.rows[row].values() for _, v in _times(tokenize(text))]
    return None if any(_same_time(said[0][1], v) for v in held) else (cols[0], said[0][1])


def _same_time(a: str, b: str) -> bool:
    """Two times alike in seconds ("56:27.0" = "56:27") or in their digits, another mark
    between them ("3:50:90" for "3:50.90")."""
    x, y = time_seconds(a), time_seconds(b)
    digits = ["".join(ch for ch in v if ch.isdigit()) for v in (a, b)]
    return (x is not None and x == y) or digits[0] == digits[1]


#: Verbs that say a row came first ("James Wilson won the race", "topped the money list").
_FIRST_VERBS = frozenset("won win wins topped".split())
#: Words that say which contest of an event a row won ("the team race", "the individual
#: event"): not a column's value the claim states.
_CONTEST_KINDS = frozenset("team individual junior senior overall".split())
#: What a row that "won" came first in: the page the claim names, or a contest.
_CONTESTS = frozenset(
    [TITLE_MASK, "."]
    + "race event tournament championship championships contest competition".split()
)


def _first_place(
    claim: Claim, t: TableGrid, row: int, key_cols: set[int]
) -> tuple[int, float] | None:
    """(the place column, the named row's place) where the claim's row "won" or "topped" a
    results table (one place column, "rank" or "pos"), or "took pole" on a grid: right when the
    row is first. Only a verb right after the row's name and before the page's title or a
    contest ("the race"), or "pole" a few words after the name where no header says "pole",
    with no number stated and no column of names named."""
    toks = claim.tokens
    poles = [i for i, w in enumerate(toks) if w == "pole"]
    on_pole = len(poles) == 1 and not any("pole" in tokenize(h) for h in t.headers.values())
    place = t.grid_column() if on_pole else None
    place = t.place_column() if place is None else place
    if place is None or place in key_cols or free_numbers(claim, t):
        return None
    ends = {
        j + len(cell)
        for c in key_cols
        if (cell := tokenize(t.rows[row].get(c, "")))
        for j in span_starts(toks, cell)
        if toks[j - 1 : j] not in (["of"], ["from"])
    }  # "Gaston Roelants of Belgium won": the athlete won, not his country's team
    if on_pole:
        # "took pole", "was on pole": first on the grid (its "grid" column where the table has
        # one, else the place column of a qualifying table), where no column is the pole position
        if not any(end < poles[0] <= end + 3 for end in ends):
            return None
    else:
        verbs = [i for i, w in enumerate(toks) if w in _FIRST_VERBS]
        if len(verbs) != 1 or verbs[0] not in ends:
            return None
        won = [w for w in toks[verbs[0] + 1 : verbs[0] + 5] if w not in ("the", "at", "in")][:2]
        if won[:1] and won[0] in _CONTEST_KINDS and won[1:] and won[1] in _CONTESTS:
            won = won[1:]  # "won the team race": the team results table's first place
        if won and won[0] not in _CONTESTS:
            return None  # "win the dudley tuckey medal": an award, not the first place
    words = claim.words - _CONTEST_KINDS
    if set(t.header_columns(words)) - key_cols - {place} - t.numeric:
        return None  # "won the race in a ferrari": the row's constructor is another claim
    have = t.value(row, place)
    return None if have is None else (place, have)


#: What "won all of the games" counts: every game the table records.
_ALL_GAMES = float("inf")
#: Verbs that count a season's wins or losses ("won 6 games", "lost four games").
_RECORD_VERBS = {
    "won": "won", "win": "won", "wins": "won", "lost": "lost", "lose": "lost", "loses": "lost",
}  # fmt: skip
_GAME_NOUNS = frozenset("game games match matches".split())
#: Words that count only some of the games ("at home", "in october", "in a row", "by more than").
_RECORD_CONDITIONS = MONTH_WORDS | frozenset(
    "home away road against before after during between since until first last straight "
    "consecutive row streak than least most only at".split()
)


def _record_conditions(toks: list[str]) -> list[str]:
    """The claim's words less those that set no condition on the games counted: "only" beside
    the verb or the number ("only lose 6 game", "win only 3"), and "during the season" (with
    its year or "regular"): the whole table's season."""
    out, i = [], 0
    while i < len(toks):
        w = toks[i]
        if w == "during" and toks[i + 1 : i + 2] == ["the"]:
            j = i + 2
            while j < len(toks) and (toks[j] == "regular" or toks[j] == "-" or toks[j].isdigit()):
                j += 1
            if toks[j : j + 1] == ["season"]:
                i = j + 1
                continue
        near = toks[i - 1 : i] + toks[i + 1 : i + 2]
        if w == "only" and any(x in _RECORD_VERBS or as_number(x) is not None for x in near):
            i += 1
            continue
        out.append(w)
        i += 1
    return out


def record(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "won 6 games", "lost four games", "won 10 out of 11 games", "lost 8 games and won 5": how
    many rows of the table's one column of results (cells starting "w" / "l") record a win or a
    loss, and how many games there were. Only when the claim names no cell that would pick the
    games counted, states no other number and sets no condition on them."""
    if claim.mentions or set(_record_conditions(claim.tokens)) & _RECORD_CONDITIONS:
        return None
    cols = [c for c in t.headers if _is_result_column(t, c)]
    said, games = _record_said(claim.tokens)
    stated = [n for _, n in said if n != _ALL_GAMES] + [n for n in (games,) if n is not None]
    if len(cols) != 1 or not said or sorted(free_numbers(claim, t)) != sorted(stated):
        return None
    if any(n == _ALL_GAMES for _, n in said) and (len(said) > 1 or games is not None):
        return None
    (c,) = cols
    marks = [tokenize(row.get(c, ""))[:1] for r, row in enumerate(t.rows) if not t.is_total(r)]
    have = {o: sum(1 for m in marks if m and _RESULT_MARKS.get(m[0]) == o) for o in ("won", "lost")}
    played = sum(1 for m in marks if m)  # ties too
    parts = [f"count({t.headers[c]} == {o!r}) = {have[o]}" for o, _ in said]
    right = all(have[o] == (played if n == _ALL_GAMES else n) for o, n in said)
    if said[0][1] == _ALL_GAMES:
        parts.append(f"count({t.headers[c]}) = {played}")
        claimed = [f"all {played}"]
    else:
        claimed = [fmt_number(n) for _, n in said]
    if games is not None:
        parts.append(f"count({t.headers[c]}) = {played}")
        claimed.append(f"of {fmt_number(games)}")
        right = right and played == games
    program = "; ".join(parts) + "; claimed " + ", ".join(claimed)
    return Verdict(SUPPORTS if right else REFUTES, "record", program)


def _record_said(toks: list[str]) -> tuple[list[tuple[str, float]], float | None]:
    """The (outcome, N) a claim states ("won 6 games", "lost 8 games , won 5"; N is
    :data:`_ALL_GAMES` for "won all of the games", "lost every game"), and M of "N out of M
    games" / "N of M games" (None without one). A count without its noun is read only beside
    one with it ("lost 8 games , won 5")."""
    said, games, nouned = [], None, False
    for i, w in enumerate(toks):
        if w in _RECORD_VERBS and toks[i + 1 : i + 2] in (["all"], ["every"]):
            j = i + 2
            while toks[j : j + 1] in (["of"], ["the"], ["their"], ["its"]):
                j += 1
            if toks[j : j + 1] and toks[j] in _GAME_NOUNS:  # "win all of the game they play"
                said.append((_RECORD_VERBS[w], _ALL_GAMES))
                nouned = True
            continue
        n = as_number(toks[i + 1]) if w in _RECORD_VERBS and i + 1 < len(toks) else None
        if n is None or n != int(n):
            continue
        j = i + 2
        rest = toks[j : j + 5]
        if rest[:1] and rest[0] in _GAME_NOUNS:
            nouned, j = True, j + 1
            rest = toks[j : j + 4]
        of = 2 if rest[:2] == ["out", "of"] else 1 if rest[:1] == ["of"] else 0
        if of and rest[of : of + 1] and rest[of] in ("the", "their"):
            of += 1
        m = as_number(rest[of]) if of and of < len(rest) else None
        if m is not None:
            if games is not None or m != int(m):
                return [], None
            games = m
            nouned = nouned or (rest[of + 1] if of + 1 < len(rest) else "") in _GAME_NOUNS
        said.append((_RECORD_VERBS[w], n))
    return (said, games) if nouned else ([], None)


def _is_result_column(t: TableGrid, c: int) -> bool:
    """Whether most of a column's cells start with a game's result ("w 44 - 7", "l")."""
    firsts = [next(iter(tokenize(r[c])), "") for r in t.rows if r.get(c)]
    return len(firsts) >= 2 and sum(w in _RESULT_MARKS for w in firsts) >= 0.8 * len(firsts)


def _shape(tokens: list[str]) -> tuple[str, ...]:
    return tuple("#" if as_number(w) is not None else w for w in tokens)


#: Words that make a claim about a timeline more than a read of its cells.
_NOT_READ_BY_CELL = frozenset("than only all never both each every time times same".split())
#: Words between a value and the year it is stated for ("2r again in 1995").
_YEAR_LINKS = ("in", "again", "also", "the", "year")


def _year_cells(claim: Claim, t: TableGrid, row: int) -> list[tuple[int, str]] | None:
    """[(column, value)] where the table's columns are years (a performance timeline: three
    or more) and the claim states, for each year it names, the named row's value that year:
    "<value> in <year>" ("2r in 1993", "sf again in 2007") or "<year> be <value>" ("the us
    open result for 2003 be 2r"). The values are the words the year columns hold ("2r", "qf",
    "a"), not numbers; None when a year it names has no such value, or when it reads the row
    by more than its cells (a comparison, "only", "every", ...)."""
    years = _timeline_years(t)
    if not years or claim.words & (
        _NOT_READ_BY_CELL | MAX_WORDS | MIN_WORDS | MORE_WORDS | LESS_WORDS
    ):
        return None
    values = _timeline_values(t, years)
    # a record written with spaces ("1 - 1" in the "win - loss" row) after "<year> be"
    spaced = {v for r in t.rows for c in years.values() if " " in (v := r.get(c, "")) and "-" in v}
    toks = claim.tokens
    pairs = []
    for i, tok in enumerate(toks):
        if tok not in years:
            continue
        j = i - 1
        while j >= 0 and toks[j] in _YEAR_LINKS:
            j -= 1
        before = toks[j] if j < i - 1 and toks[i - 1] in ("in", "year") else None
        after = toks[i + 2] if i + 2 < len(toks) and toks[i + 1] in ("be", "was", "is") else None
        if after is not None:
            rest = toks[i + 2 :]
            written = [v for v in spaced if _record_at(rest, tokenize(v))]
            after = written[0] if len(written) == 1 else after
        said = [v for v in (before, after) if v in values or v in spaced]
        if len(said) != 1:
            return None
        pairs.append((years[tok], said[0]))
    return pairs or None


#: Words after which a claim states a game log's record ("the record improve to 6 - 2").
_RECORD_STATED = frozenset({"be", "to", "of", "at"})


def _record_span(toks: list[str]) -> str | None:
    """The one record the claim states after "record ... be / to / of / at": numbers joined
    by "-" ("6 - 2", "20 - 16 - 5")."""
    found = []
    for i, tok in enumerate(toks):
        if tok not in _RECORD_STATED or "record" not in toks[max(0, i - 4) : i]:
            continue
        span: list[str] = []
        for w in toks[i + 1 :]:  # number, "-", number, ...
            dash = len(span) % 2 == 1
            if (w == "-") != dash or not (dash or w.isdigit()):
                break
            span.append(w)
        span = span[: len(span) - (len(span) % 2 == 0)]  # a trailing dash is no part of it
        if len(span) >= 3:
            found.append(" ".join(span))
    return found[0] if len(set(found)) == 1 else None


def _record_after(
    claim: Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]]
) -> Verdict | None:
    """ "after the win on november 10 the team 's record improve to 6 - 2": a game log's record
    column holds the record after each game, so "after <game>" reads that game's own row (not
    a later one), which must hold the record stated."""
    if "after" not in claim.words or "record" not in claim.words:
        return None
    at = claim.tokens.index("after")
    if "date" in claim.tokens[at + 1 : at + 3]:
        return None  # "after the date oct 10": a later game
    columns = [c for c, h in t.headers.items() if h == "record"]
    value = _record_span(claim.tokens)
    if len(columns) != 1 or value is None:
        return None
    (col,) = columns
    others = {k: rs for k, rs in rows_of.items() if k[0] != col and as_number(k[1]) is None}
    named = _named_row(claim, t, others)
    if named is None:
        return None
    row, name, _ = named
    have = t.rows[row].get(col, "")
    program = f"record[{name}] = {have!r}; claimed {value!r}"
    return Verdict(SUPPORTS if have == value else REFUTES, "lookup", program)


def _record_at(rest: list[str], value: list[str]) -> bool:
    """Whether ``rest`` opens with the tokens of ``value``, followed by nothing, a comma or
    "and" (so "1 - 1" is not read from "1 - 10")."""
    n = len(value)
    return rest[:n] == value and (len(rest) == n or rest[n] in (",", "and"))


def _timeline_years(t: TableGrid) -> dict[str, int]:
    """A performance timeline's year columns, year -> column: three or more columns headed by
    a bare year; empty for any other table."""
    years = {h: c for c, h in t.headers.items() if bare_year(h) is not None}
    return years if len(years) >= 3 else {}


def _timeline_values(t: TableGrid, years: dict[str, int]) -> set[str]:
    """The one-word, non-number values a performance timeline's year columns hold ("2r", "qf",
    "a")."""
    return {
        v
        for r in t.rows
        for c in years.values()
        if (v := r.get(c, "")) and " " not in v and as_number(v) is None
    }


def _year_value_of_rows(
    claim: Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]]
) -> Verdict | None:
    """ "david pate have 1991 'qf' for both indian well and miami tournament", "the french open
    have a qf in 2011 and 2013": in a performance timeline (three or more year columns), rows
    named by their cells in one column, years and one of the timeline's values, two cells or
    more in all, or one whose value the claim marks ("the 1st round (1r)"): each named row holds
    that value each year. "a" counts as a value only quoted, in brackets or after "an" ("there
    be an a for ..."), not as the article; "all" is each of the rows named ("the australian
    open, french open and wimbledon all have ...")."""
    years = _timeline_years(t)
    toks = claim.tokens
    if not years or claim.words & (
        (_NOT_READ_BY_CELL - {"both", "each", "all"})
        | MAX_WORDS
        | MIN_WORDS
        | MORE_WORDS
        | LESS_WORDS
    ):
        return None
    said_years = sorted({tok for tok in toks if tok in years})
    if not said_years or _year_bounds(toks) or "between" in claim.words:
        return None
    values = _timeline_values(t, years)
    marks = {"'", "(", ")", '"'}
    marked = {
        tok
        for i, tok in enumerate(toks)
        if tok in values and 0 < i < len(toks) - 1 and {toks[i - 1], toks[i + 1]} <= marks
    }
    said = {
        tok
        for i, tok in enumerate(toks)
        if tok in values and (tok != "a" or tok in marked or toks[i - 1 : i] == ["an"])
    }
    named = {
        k: next(iter(rs))
        for k, rs in rows_of.items()
        if len(rs) == 1 and k[0] not in years.values() and k[1] not in values
    }
    rows = set(named.values())
    if len(said) != 1 or len({c for c, _ in named}) != 1 or not rows:
        return None
    if len(rows) * len(said_years) < 2 and not said <= marked:
        return None  # one cell: read where its value is marked, "the 1st round (1r)"
    if "all" in claim.words and len(rows) < 2:
        return None  # "all" with one row named: more than its cells
    at = [i for i, tok in enumerate(toks) if tok in years]
    if set(toks[at[0] : at[-1] + 1]) - set(said_years) - {"and", ",", "in"}:
        return None  # "4r in 1988, but absent in 1989": each year with its own words
    (value,) = said
    shown = "; ".join(
        f"{year}[{name}] = {t.rows[row].get(years[year], '')!r}"
        for year in said_years
        for (_, name), row in sorted(named.items())
    )
    wrong = [(r, y) for r in rows for y in said_years if t.rows[r].get(years[y]) != value]
    return Verdict(REFUTES if wrong else SUPPORTS, "lookup", f"{shown}; claimed {value!r}")


def _same_token(a: str, b: str) -> bool:
    """Tokens of two values written alike: numbers by value ("08" = "8"), a year's short form
    by its ending ("2004 - 06" = "2004 - 2006")."""
    if a == b:
        return True
    x, y = as_number(a), as_number(b)
    if x is None or y is None:
        return False
    short, long = sorted((a, b), key=len)
    return x == y or (
        len(short) == 2 and len(long) == 4 and long.isdigit() and long.endswith(short)
    )


def _shaped_value(
    claim: Claim, t: TableGrid, row: int, key_cols: set[int]
) -> tuple[int, str] | None:
    """(column, the claim's value) where the claim states a value of two numbers or more
    written as the named row's cell of a column it names is written ("a record of 32 - 42"
    for "29 - 47", "a score of 6 - 3 , 6 - 4"): one such span, outside the cells it names."""
    taken = mention_spans(claim, t)
    found = set()
    for c in t.header_columns(claim.words):
        if c in key_cols:
            continue
        shape = _shape(tokenize(t.rows[row].get(c, "")))
        n = len(shape)
        if shape.count("#") < 2:
            continue
        # the header's units are no part of the value ("236 ft ( 72 m )" under "height ft (m)")
        units = {w for w in tokenize(t.headers.get(c, "")) if w.isalpha()} - set(shape)
        kept = [(i, w) for i, w in enumerate(claim.tokens) if w not in units]
        for j in range(len(kept) - n + 1):
            a, b = kept[j][0], kept[j + n - 1][0] + 1
            words = [w for _, w in kept[j : j + n]]
            if not any(x < b and a < y for x, y in taken) and _shape(words) == shape:
                found.add((c, " ".join(words)))
    return found.pop() if len(found) == 1 else None


def _column_names(t: TableGrid) -> set[str]:
    """Headers of one word ("total", "average"): a claim's such word may name the column."""
    return {h for h in t.headers.values() if " " not in h}


def _ordinal_value(claim: Claim, t: TableGrid, key_cols: set[int]) -> tuple[int, int] | None:
    """(column, N) where the claim writes an ordinal right before the header of the one numeric
    column it names ("the 5th pick", "the 166th selection"), or right after it as a verb
    ("picked 55th", "ranked 3rd"), or after a placing verb in a table with one place column
    ("finished fifth", "qualified 3rd"), or as a medal ("won the bronze": 3); an ordinal no
    header is written beside reads the table's one column of ordinals ("its 3rd appearance"):
    N is that column's value."""
    found = set()
    toks = claim.tokens
    place = t.place_column()
    named = {j for a, b in mention_spans(claim, t) for j in range(a, b)}
    header_words = {w for h in t.headers.values() for w in tokenize(h)}
    medal = _medal_place(toks, t) if place is not None else None
    if medal is not None:
        found.add((place, medal))  # "won the bronze medal" where the table has no medal words
    for i, tok in enumerate(toks):
        before = toks[max(0, i - 1) : i]
        if before and before[0] in _PLACING_VERBS and place is not None and i not in named:
            n = as_ordinal(tok) or ORDINAL_WORDS.get(tok)
            if n is not None:
                found.add((place, n))  # "finished fifth", "qualified 3rd": the place
                continue
        n = as_ordinal(tok)
        after = toks[i + 1 : i + 2]
        if n is None and tok in ORDINAL_WORDS and i not in named and tok not in header_words:
            # "a first - round pick", "drafted in the fourth round", "tied for second place":
            # a word ordinal right before "round" or "place"; elsewhere it is as often part of
            # what the claim names ("his first win", "the first pick from ohio state")
            if after == ["-"]:  # joined to the header's word, as one name: any header
                after = toks[i + 2 : i + 3]
                n = ORDINAL_WORDS[tok]
            elif after and after[0] in _ORDERED_WORDS and not claim.words & _NOT_OWN_PLACE:
                n = ORDINAL_WORDS[tok]
            elif after and after[0] in _PICK_WORDS and tok != "first":
                n = ORDINAL_WORDS[tok]  # "the ninth pick"; "the first pick" is as often the
                # first of the team's picks as pick 1
            before = []
        if n is None:
            continue
        day = bool(before) and before[0] in MONTH_WORDS
        if day:
            before = []  # "october 14th" is a day, not the value of a column "october"
        for word in after + before:
            forms = set(header_forms(word))  # "picked" reads the header "pick"
            cols = [c for c in t.header_columns(forms, numeric_only=True) if c not in key_cols]
            if len(cols) == 1:
                found.add((cols[0], n))
                break
        else:
            col = None if day or i in named else _ordinal_column(t, key_cols)
            if col is not None and set(t.header_columns(claim.words)) <= key_cols | {col}:
                found.add((col, n))  # "its 3rd appearance" where one column holds "1st", "3rd"
                # and the claim names no other column ("rank 20th on the uk chart")
    return found.pop() if len(found) == 1 else None


#: The place each medal stands for.
_MEDALS = {"gold": 1, "silver": 2, "bronze": 3}
#: Verbs by which a claim gives its row a medal ("won the bronze", "took silver").
_MEDAL_VERBS = frozenset("won win wins took take takes claimed earned received".split())


def _medal_place(toks: list[str], t: TableGrid) -> int | None:
    """The place of the one medal the claim gives a row ("won the bronze medal", "took
    silver"), where no header or cell of the table writes a medal's word (a medal table counts
    them in columns of their own)."""
    said = [(i, w) for i, w in enumerate(toks) if w in _MEDALS]
    if len(said) != 1:
        return None
    i, word = said[0]
    if not set(toks[max(0, i - 3) : i]) & _MEDAL_VERBS:
        return None
    texts = [*t.headers.values(), *(v for row in t.rows for v in row.values())]
    if any(set(tokenize(x)) & _MEDALS.keys() for x in texts):
        return None
    return _MEDALS[word]


def _ordinal_column(t: TableGrid, key_cols: set[int]) -> int | None:
    """The one column, not naming the row, whose cells are all ordinals in figures ("1st",
    "3rd"; two or more): where an ordinal the claim writes without a header is read."""
    cols = [
        c
        for c in t.headers
        if c not in key_cols
        and len(cells := [v for row in t.rows if (v := row.get(c, ""))]) >= 2
        and all(as_ordinal(v) is not None for v in cells)
    ]
    return cols[0] if len(cols) == 1 else None


#: Words after which a word ordinal is the value of the column they name ("fourth round").
_ORDERED_WORDS = frozenset({"round", "place"})
#: Words after which a word ordinal other than "first" is the pick's number ("the ninth pick").
_PICK_WORDS = frozenset({"pick", "selection"})
#: Words that make "the second place" another row's or a bound ("as much as the second place
#: finisher", "picked after the sixth round").
_NOT_OWN_PLACE = _ORDER | MORE_WORDS | LESS_WORDS | frozenset({"than", "much", "tie", "tied"})
#: Verbs after which an ordinal is a row's place ("finished fifth", "qualified 3rd").
_PLACING_VERBS = frozenset(
    "finished finish qualified qualify placed place came come ranked rank ended end".split()
)


def match(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<value A> ... <value B>" (values of different columns): does one row hold them all?

    A value found in several columns may be in any of them; a value inside a longer named value
    ("finland" in "tps (finland)") is that value's part, not a condition of its own. Values named
    in one column together ("A and B be both in the second division") must each share a row with
    the other values. A stated number must be in a matching row.
    """
    if claim.words & OPERATION_WORDS:
        return None
    rows_of = rows_by_mention(claim, t)
    columns: dict[str, set[int]] = {}
    for c, v in rows_of:
        columns.setdefault(v, set()).add(c)
    for v, cols in columns.items():
        columns[v] = _stated_side(claim, t, v, cols) or cols
    texts = {v: tokenize(v) for v in columns}
    values = [
        v
        for v in columns
        if not any(w != v and len(texts[w]) > len(texts[v]) and contains_span(texts[w], texts[v])
                   for w in columns)
    ]  # fmt: skip
    rows = {v: t.rows_holding(v, columns[v]) for v in values}
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
    misplaced = _misplaced(claim, t, {v: columns[v] for v in singles})
    if misplaced is not None:
        v, c = misplaced
        shown = sorted({t.rows[r].get(c, "") for r in matching})
        program = f"rows({where}): {t.headers[c]} = {' | '.join(map(repr, shown))}; claimed {v!r}"
        return Verdict(REFUTES, "match", program)
    free = free_numbers(claim, t)
    held = {t.value(r, c) for r in matching for c in t.rows[r]}
    if free and not all(n in held for n in free):
        return None  # a number no matching row holds: undecided without its column
    names = ", ".join(t.name(r) for r in sorted(matching))
    return Verdict(SUPPORTS, "match", f"rows({where}) = [{names}]")


def _misplaced(claim: Claim, t: TableGrid, columns: dict[str, set[int]]) -> tuple[str, int] | None:
    """(value, column) where the claim puts a value it names right after another column's
    header ("written by david jackson" with David Jackson in "directed by"), or gives it that
    header's role with "as" ("with Jeff Ross as runner-up" with Jeff Ross the winner): the
    claim gives it the other column's role."""
    toks = claim.tokens
    for v, cols in columns.items():
        words = tokenize(v)
        for i in span_starts(toks, words):
            roles = t.role_columns(toks[max(0, i - 4) : i])
            end = i + len(words)
            if not roles and toks[end : end + 1] == ["as"] and as_number(words[0]) is None:
                # a name's role; "a record of 12 - 30 as visitor" is the subject's
                roles = t.role_named(toks[end + 1 : end + 5])
            elif (
                not roles
                and toks[end : end + 1] in ([b] for b in _BE)
                and toks[end + 1 : end + 2] in (["the"], ["a"], ["an"])
                and as_number(words[0]) is None
            ):  # "bai ling be the centerfold model": the role of another column
                roles = t.role_named(toks[end + 2 : end + 6])
            if roles and not roles & cols:
                return v, min(roles)
        sides = _wrong_side(claim, t, v, cols)
        if sides is not None:
            return v, sides[0]
        scored = _other_sides_score(claim, t, v, cols)
        if scored is not None:
            return v, scored
    return None


def _score_sides(toks: list[str]) -> set[str]:
    """The sides whose score the claim names: "the home team 's score", "away team score",
    "the visitor score"."""
    out = set()
    for i, tok in enumerate(toks):
        if tok != "score":
            continue
        j = i - 1
        while j >= 0 and toks[j] in ("'s", "'", "s", "team"):
            j -= 1
        out |= {side for side, words in _SIDE_WORDS.items() if j >= 0 and toks[j] in words}
    return out


def _other_sides_score(claim: Claim, t: TableGrid, value: str, cols: set[int]) -> int | None:
    """The score column of the side the claim names where ``value``, a score, is held only by
    the other side's ("the home team score for mcg be 24.17 (161)", the away team's score)."""
    sides = _side_columns(t)
    said = _score_sides(claim.tokens)
    if not sides or len(said) != 1 or as_number(tokenize(value)[0]) is None:
        return None
    side = said.pop()
    other = "away" if side == "home" else "home"
    if not cols <= sides[other] or claim.words & _SIDE_WORDS[other]:
        return None  # a claim that names the other side too may give it this score
    own = [c for c in sides[side] if "score" in tokenize(t.headers[c])]
    return own[0] if len(own) == 1 else None


def bound(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row> ... more/less than N <column>": the named row's value against a stated bound."""
    years = _year_bounds(claim.tokens)
    if claim.words & (MAX_WORDS | MIN_WORDS | TOTAL_WORDS | AVERAGE_WORDS) or not (
        claim.words & (MORE_WORDS | LESS_WORDS) or _bounded(claim) or years
    ):
        return None  # "more than 30", or a relation word alone ("rank below 7", "over 20")
    row_of = _named_row(claim, t)
    if row_of is None:
        return _bound_each(claim, t)
    row, name, key_cols = row_of
    said = key_cols | _said_columns(row, rows_by_mention(claim, t))
    cols = _stated_columns(claim, t, said)
    bounds = _stated_bounds(claim, t, years)
    have = t.value(row, cols[0]) if len(cols) == 1 else None
    if years and have is not None and bare_year(fmt_number(have)) is None:
        return None  # "before 1932" bounds a year, not another number
    if len(bounds) != 1 or have is None or free_numbers(claim, t) != [bounds[0][1]]:
        return None  # another number is another condition the bound does not read
    rel, n = bounds[0]
    program = f"{t.headers[cols[0]]}[{name}] = {fmt_number(have)}; claimed {rel} {fmt_number(n)}"
    return Verdict(SUPPORTS if RELATION_TEST[rel](have, n) else REFUTES, "bound", program)


#: How a claim opens a bound on every row ("every game", "all of the player") or on none.
_EVERY = frozenset({"every", "all", "each"})
_NONE = frozenset({"no", "none"})
#: Words that take rows out of "every" or "none" ("all but 2", "except cuba", "only").
_EXCEPTIONS = frozenset("but except besides only other".split())


def bound_all(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "no team score less than 10 point", "every game be attend by at least 8000": one bound
    on the one number column the claim names, held by every row or by none (the table's total
    row aside). The claim names no cell: a named value is a condition this does not read."""
    toks = claim.tokens
    i = 2 if toks[:2] == ["there", "be"] else 0
    if i >= len(toks) or toks[i] not in _EVERY | _NONE or claim.mentions:
        return None
    if toks[i + 1 : i + 3] in (["more", "than"], ["less", "than"], ["fewer", "than"]):
        return None  # "no more than 2 queen be ...": a count
    extremes = {w for j, w in enumerate(toks) if j == 0 or toks[j - 1] != "at"}  # "at least"
    if claim.words & (_EXCEPTIONS | TOTAL_WORDS | AVERAGE_WORDS) or extremes & (
        MAX_WORDS | MIN_WORDS
    ):
        return None
    bounds = _stated_bounds(claim, t)
    cols = _stated_columns(claim, t, set())
    if len(bounds) != 1 or len(cols) != 1 or free_numbers(claim, t) != [bounds[0][1]]:
        return None
    (rel, n), col = bounds[0], cols[0]
    rows = [r for r in range(len(t.rows)) if not t.is_total(r)]
    values = [t.value(r, col) for r in rows]
    if len(values) < 3 or any(v is None for v in values):
        return None
    held = sum(RELATION_TEST[rel](v, n) for v in values)
    every = toks[i] in _EVERY
    program = f"count({t.headers[col]} {rel} {fmt_number(n)}) = {held} of {len(values)}"
    ok = held == len(values) if every else held == 0
    return Verdict(
        SUPPORTS if ok else REFUTES, "bound_all", f"{program}; claimed {'all' if every else 'none'}"
    )


def _bound_each(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "windy hill and vfl park both have over 20000 in attendance": the bound on each of two or
    more rows the claim names by values of one column ("and", "both", "each"), one row each."""
    named = _each_row(claim, t)
    if named is None or not claim.words & {"and", "both", "each"}:
        return None
    rows, cols = named
    stated = _stated_columns(claim, t, cols)
    bounds = _stated_bounds(claim, t)
    if len(stated) != 1 or len(bounds) != 1 or free_numbers(claim, t) != [bounds[0][1]]:
        return None
    (col,), (rel, n) = stated, bounds[0]
    return _each_value(t, rows, col, rel, n, "bound")


def _stated_bounds(
    claim: Claim, t: TableGrid, years: dict[int, str] | None = None
) -> list[tuple[str, float]]:
    """(relation, N) of each number the claim bounds outside the cells it names ("over 20000";
    with ``years`` (:func:`_year_bounds`), also "before 1980")."""
    toks, spans, years = claim.tokens, mention_spans(claim, t), years or {}
    return [
        (rel, n)
        for i, tok in enumerate(toks)
        if (n := as_number(tok)) is not None
        and not any(a <= i < b for a, b in spans)
        and (rel := relation_before(toks, i) or years.get(i))
    ]


def _each_value(
    t: TableGrid, rows: list[int], col: int, rel: str, n: float, op: str
) -> Verdict | None:
    """Whether each of ``rows`` has a value in ``col`` in relation ``rel`` to ``n``."""
    have = [t.value(r, col) for r in rows]
    if any(v is None for v in have):
        return None
    program = ", ".join(
        f"{t.headers[col]}[{t.name(r)}] = {fmt_number(v)}" for r, v in zip(rows, have)
    )
    claimed = fmt_number(n) if rel == "=" else f"{rel} {fmt_number(n)}"
    ok = all(RELATION_TEST[rel](v, n) for v in have)
    return Verdict(SUPPORTS if ok else REFUTES, op, f"{program}; claimed each {claimed}")


def _each_row(claim: Claim, t: TableGrid) -> tuple[list[int], set[int]] | None:
    """(rows, their column) where the claim names two or more rows by values of one column,
    one row each ("windy hill and vfl park", "the labour and conservative party")."""
    rows_of = rows_by_mention(claim, t)
    cols = {c for c, _ in rows_of}
    if len(rows_of) < 2 or len(cols) != 1 or any(len(rs) != 1 for rs in rows_of.values()):
        return None
    return sorted(r for rs in rows_of.values() for r in rs), cols


#: Words that make a stated number approximate ("approximately 4300 vote").
_HEDGES = frozenset("approximately about around nearly almost roughly over under".split())


def _value_of_each(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "both the labour and conservative party have 4 in west lancashire": the one number the
    claim states is each named row's value in the one number column it names."""
    named = _each_row(claim, t)
    if named is None:
        return None
    rows, cols = named
    stated, numbers = _stated_columns(claim, t, cols), free_numbers(claim, t)
    if len(stated) != 1 or len(numbers) != 1 or _bounded(claim) or claim.words & _HEDGES:
        return None
    (col,), n = stated, numbers[0]
    if col in t.dates or t.headers[col] == fmt_number(n):
        return None  # "both release at the end of 2009", "4r at both ... in 1993": no cell's value
    return _each_value(t, rows, col, "=", n, "lookup")


def _said_columns(row: int, rows_of: dict[tuple[int, str], set[int]]) -> set[int]:
    """The columns of ``row`` whose cells the claim names (``rows_of``: :func:`rows_by_mention`):
    their values are read already ("a try bonus of 10"), the claim states no other there."""
    return {c for (c, _), rs in rows_of.items() if row in rs}


def _stated_columns(claim: Claim, t: TableGrid, said: set[int]) -> list[int]:
    """The numeric columns the claim's words name (:meth:`TableGrid.header_columns`) whose
    value for ``row`` it has not said already (``said``)."""
    return [c for c in t.header_columns(claim.words, numeric_only=True) if c not in said]


def _named_row(
    claim: Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]] | None = None
) -> tuple[int, str, set[int]] | None:
    """The one row the claim names by cells unique in their columns: (row, its name as the
    claim says it, the naming columns). ``rows_of``: :func:`rows_by_mention`, if already made."""
    rows_of = rows_by_mention(claim, t) if rows_of is None else rows_of
    keys = {
        k: next(iter(rs)) for k, rs in rows_of.items() if len(rs) == 1 and k[0] not in t.leaders
    }
    # a number the claim gives a column ("a total of 161") is a value the row is checked for,
    # not its name, when a name or an earlier number ("in round 7") names the row
    named = [k for k in keys if as_number(k[1]) is None] or list(keys)
    if len({keys[k] for k in named}) != 1:
        return None
    if len(named) > 1 and as_number(named[0][1]) is not None:
        named = [min(named, key=_said_at(claim))]
    (_, name), row = named[0], keys[named[0]]
    return row, name, {c for c, _ in named}


def _said_at(claim: Claim) -> Callable[[tuple[int, str]], int]:
    """Where the claim first says a (column, value) key's value (its length if nowhere)."""

    def at(key: tuple[int, str]) -> int:
        return next(iter(span_starts(claim.tokens, tokenize(key[1]))), len(claim.tokens))

    return at


def named_row(claim: Claim, t: TableGrid) -> str | None:
    """The cell text by which the claim names its one row (:func:`_named_row`), or None."""
    named = _named_row(claim, t)
    return None if named is None else named[1]


#: Words before a year that bound it: "built before 1932", "founded after 1900".
_YEAR_RELATIONS = {"before": "<", "after": ">", "until": "<"}


def _year_bounds(toks: list[str]) -> dict[int, str]:
    """Position -> relation of each year the claim bounds ("before 1932", "prior to 1964",
    "after the year 1999")."""
    out = {}
    for i, tok in enumerate(toks):
        if bare_year(tok) is None:
            continue
        j = i - 2 if toks[i - 2 : i] == ["the", "year"] else i
        if j >= 2 and toks[j - 2 : j] == ["prior", "to"]:
            out[i] = "<"
        elif j >= 1 and toks[j - 1] in _YEAR_RELATIONS:
            out[i] = _YEAR_RELATIONS[toks[j - 1]]
    return out


def _bounded(claim: Claim) -> bool:
    """Whether a number of the claim follows a relation ("below 7", "more than 30"); "under"
    before a column's name ("1.949 under M1 +") is where the value is, not a bound."""
    toks = claim.tokens
    return any(
        as_number(tok) is not None and relation_before(toks, i) for i, tok in enumerate(toks)
    )


def _where(t: TableGrid, cols: set[int]) -> str:
    return " | ".join(str(t.headers.get(c, c)) for c in sorted(cols))
