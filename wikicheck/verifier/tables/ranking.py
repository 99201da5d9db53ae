"""Operations that order rows by a numeric column: superlatives ("the highest <column>"),
ordinals ("the second highest"), comparisons and differences between two named rows, "the same
<column>", and totals/averages.
"""

from __future__ import annotations

from collections.abc import Callable

from wikicheck.common.quantities import as_ordinal
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.verifier.tables.grid import (
    Claim,
    TableGrid,
    Verdict,
    by_named_header,
    free_numbers,
    header_spans,
    leader_columns_named,
    mention_spans,
    one_numeric_column,
    rows_by_mention,
)
from wikicheck.verifier.tables.text import (
    AVERAGE_WORDS,
    LESS_WORDS,
    MAX_WORDS,
    MIN_WORDS,
    MORE_WORDS,
    RELATION_TEST,
    TOTAL_WORDS,
    as_number,
    contains_span,
    fmt_number,
    relation_before,
    tokenize,
)

#: The ranks "the second highest" names, which ``ordinal`` reads and ``superlative`` leaves to it
#: (``text.ORDINAL_WORDS`` are the word ordinals a row's value may be: "finished fifth").
_RANK_ORDINALS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5}


#: Superlatives that can be about how often a value occurs ("directed the most episodes").
_MOST_OFTEN = frozenset("most least fewest".split())
#: Words that make "most" a value's frequency, however often the named value occurs.
_FREQUENCY = frozenset("common frequent frequently often".split())
#: A number right before these counts rows ("the most rebound in 12 game"), not the extreme.
_COUNTED = frozenset("game games match matches time times race races season seasons".split())


def superlative(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row> has the highest/lowest <column>": is the named row the extreme one? Also "<row>
    has more <column> than any other" (:func:`_with_superlative`)."""
    toks = _with_superlative(claim.tokens)
    alone = toks is not claim.tokens  # "more than any other": a tie is not more
    if alone:
        claim = Claim(toks, set(toks), claim.mentions, claim.context)
    want = max if claim.words & MAX_WORDS else min if claim.words & MIN_WORDS else None
    speed = None if want else _by_speed(claim, t)
    if speed is not None:
        want, col = speed
    if want is None or len(t.rows) < 3 or claim.words & set(_RANK_ORDINALS):
        return None
    toks = claim.tokens
    if sum(w in MAX_WORDS | MIN_WORDS for w in toks) > 1:
        return None  # "the highest total be 8 and the lowest be 1": two extremes, one read
    if any(
        w in MAX_WORDS | MIN_WORDS and as_number(toks[i + 1]) is not None
        for i, w in enumerate(toks[:-1])
    ):
        return None  # "in the top 5", "the highest 3": among the first N, not the extreme one
    rows_of = rows_by_mention(claim, t)
    if claim.words & _BEFORE_AFTER and any(c in t.dates for c, _ in rows_of):
        return None  # "the lowest attended game be on a date after february 5": not that row
    often = any(w in _MOST_OFTEN and (i == 0 or toks[i - 1] != "at") for i, w in enumerate(toks))
    if often and len({v for _, v in rows_of}) == 1:
        # "monta ellis lead the team in point for the most game": the column the claim names
        rows_of = by_named_header(claim, t, rows_of)
    if often and len(rows_of) == 1:
        (c, v), rows = next(iter(rows_of.items()))
        if len(rows) > 1 or claim.words & _FREQUENCY:  # "the most common rank": once or more
            return _most_often(want, c, v, t, alone)
    if speed is None:
        col = one_numeric_column(claim, t)
        if col is None:
            col = _leader_number_column(claim, t, rows_of)
    if col is None:
        return None if speed is not None else _extreme_team_score(claim, t, want)
    values = t.column_values(col) if speed is None else t.column_seconds(col)
    # a value named in several rows is a condition ("in 2009"): the extreme is taken among them
    within = [rs for (c, _), rs in rows_of.items() if c != col and len(rs) > 1]
    subset = set.intersection(*within) if within else set(values)
    values = {r: x for r, x in values.items() if r in subset and not t.is_total(r)}
    if len(values) < 2:
        return None
    best = want(values.values())
    named = sorted(
        {
            r
            for (c, _), rs in rows_of.items()
            if c != col and len(rs) == 1
            for r in rs
            if not t.is_total(r)  # "the most total medal" names the column, not that row
        }
    )
    fn = "argmax" if want is max else "argmin"
    where = f" among {len(values)} rows" if within else ""
    if not named:
        return _extreme_value(claim, t, col, best, f"{fn[3:]}({t.headers[col]}){where}")
    winners = [t.name(r) for r, v in values.items() if v == best]
    program = f"{fn}({t.headers[col]}){where} = {' | '.join(winners)}; named: {t.name(named[0])}"
    ok = any(values.get(r) == best for r in named)
    if alone:
        ok = ok and {r for r, v in values.items() if v == best} <= set(named)
    if not ok and {values.get(r) for r in named} & set(claim.numbers()):
        return None  # "the lowest pick for the buffalo bill be 152": the row's own value
    given = [
        n for w, x in zip(toks, toks[1:]) if w in ("at", "with") and (n := as_number(x)) is not None
    ]
    if ok and given:
        held = {t.value(r, c) for r in named for c in t.rows[r]}
        if any(n != best and n not in held for n in given):
            return None  # "the smallest crowd be carlton at 22000": a value the row does not hold
    if ok and _states_other_extreme(claim, t, named, col, best):
        # "84 be the highest score for scarface": the row is the extreme one, its value is not 84
        return Verdict(REFUTES, "superlative", f"{program}; {t.headers[col]} = {fmt_number(best)}")
    return Verdict(SUPPORTS if ok else REFUTES, "superlative", program)


def _leader_number_column(claim: Claim, t: TableGrid, rows_of: dict) -> int | None:
    """The numbers of the one game leader column the claim's superlative names ("the most
    point score by a player in 1 game": "high points", not the games' "score"), where it names
    no leader (whose game's lead ``lookup`` reads)."""
    leading, _ = leader_columns_named(claim, t)
    if any(c in leading for c, _ in rows_of):
        return None
    numbers = [c for c in leading if c in t.numeric]
    return numbers[0] if len(numbers) == 1 else None


#: Words after which a claim gives a value ("be 84", "an attendance of 40419", "at 22000").
_GIVES = frozenset({"be", "of", "at", "with", ":"})


def _states_other_extreme(
    claim: Claim, t: TableGrid, named: list[int], col: int, best: float
) -> bool:
    """Whether the claim gives the extreme a value it does not have: a number of the claim's,
    outside the cells it names, held by no cell of the named rows, next to the superlative
    ("84 be the highest score", "the largest attendance be 40419") and within the ranked
    column's range, so a value of that column."""
    toks = claim.tokens
    spans = mention_spans(claim, t) + header_spans(claim, t)
    at = [i for i, w in enumerate(toks) if w in MAX_WORDS | MIN_WORDS]
    held = {t.value(r, c) for r in named for c in t.rows[r]}
    values = t.column_values(col).values()
    lo, hi = min(values, default=0.0), max(values, default=0.0)
    for i, tok in enumerate(toks):
        n = as_number(tok)
        if n is None or n in claim.context or any(a <= i < b for a, b in spans):
            continue
        if not any(abs(i - j) <= 4 for j in at) or n == best or n in held:
            continue
        if relation_before(toks, i) is not None or toks[i - 1 : i] in (["over"], ["under"]):
            continue  # "at over 5000 people": a bound the extreme meets
        if not (toks[i - 1 : i] and toks[i - 1] in _GIVES or toks[i + 1 : i + 2] == ["be"]):
            continue  # "the largest population in 2008": a condition, not the value given
        if toks[i - 1 : i] in (["-"], [":"], ["/"]) or toks[i + 1 : i + 2] in (["-"], [":"], ["/"]):
            continue
        if lo <= n <= hi:
            return True
    return False


#: A comparative and the superlative it makes against every other row ("more ... than any").
_SUPERLATIVE_OF = {
    "more": "most", "higher": "highest", "larger": "largest", "greater": "greatest",
    "bigger": "biggest", "longer": "longest", "better": "best", "less": "least",
    "lower": "lowest", "smaller": "smallest", "fewer": "fewest", "shorter": "shortest",
    "worse": "worst", "faster": "fastest", "slower": "slowest",
}  # fmt: skip
#: What follows "than" where it compares a row with every other one ("than any other team",
#: "than anyone else", "than all other teams", "than any of the other venues", "than the rest").
_EVERY_OTHER = (
    ("any", "of", "the", "other"), ("all", "other"), ("every", "other"), ("any", "other"),
    ("anyone", "else"), ("anybody", "else"), ("anything", "else"), ("any",), ("anyone",),
    ("the", "rest"), ("everyone", "else"),
)  # fmt: skip


def _with_superlative(toks: list[str]) -> list[str]:
    """ "more high rebounds than any other player" written as the superlative it states, "most
    high rebounds player": the row is the extreme one. Not where
    a number says by how much ("3 more floors than any other"): that is a difference."""
    cuts = []
    for i, t in enumerate(toks):
        widths = [len(w) for w in _EVERY_OTHER if tuple(toks[i + 1 : i + 1 + len(w)]) == w]
        if t == "than" and widths:
            cuts.append((i, 1 + max(widths)))
    if len(cuts) != 1:
        return toks
    i, width = cuts[0]
    said = [j for j in range(i) if toks[j] in _SUPERLATIVE_OF]
    if not said or (said[-1] and as_number(toks[said[-1] - 1]) is not None):
        return toks
    out = list(toks)
    out[said[-1]] = _SUPERLATIVE_OF[toks[said[-1]]]
    del out[i : i + width]
    return out


#: Words that set a day named apart from the rows it bounds ("after february 5").
_BEFORE_AFTER = frozenset("after before since until prior".split())
#: Words that bound the rows a superlative ranks ("since 2006", "between 2005 and 2011").
_AMONG_SOME = frozenset("since between before after until from during".split())
#: Superlatives of speed: on a column of times the fastest is the least.
_SPEED_WORDS = {"fastest": min, "quickest": min, "slowest": max}


def _by_speed(claim: Claim, t: TableGrid) -> tuple[Callable, int] | None:
    """(``min``, the column) for "the fastest time", (``max``, the column) for "the slowest":
    the column of times the claim names, or the table's one; None when the claim says neither
    word, or the word is a header's ("fastest lap")."""
    said = {w for w in claim.tokens if w in _SPEED_WORDS}
    if len(said) != 1 or any(said & set(tokenize(h)) for h in t.headers.values()):
        return None
    if claim.words & _AMONG_SOME:
        return None  # "the fastest since 2006": among rows the claim bounds, not all
    col = one_numeric_column(claim, t)
    if col not in t.times:
        col = next(iter(t.times)) if len(t.times) == 1 else None
    return None if col is None else (_SPEED_WORDS[said.pop()], col)


def _extreme_value(
    claim: Claim, t: TableGrid, col: int, best: float, program: str
) -> Verdict | None:
    """ "the lowest <column> be N" (no row named): is N the extreme value?

    N is the claim's one number, stated after the superlative and found in no other column."""
    toks = claim.tokens
    words = MAX_WORDS | MIN_WORDS
    at = [i for i, w in enumerate(toks) if w in words]
    if col in t.dates or col in t.times or not at:
        return None  # a date's or a time's extreme is no one of the claim's numbers
    if "than" in claim.words or claim.words & (
        MORE_WORDS | LESS_WORDS | TOTAL_WORDS | AVERAGE_WORDS | {"difference"}
    ):
        return None
    if any(toks[i - 1] == "at" for i in at if i > 0):
        return None  # "at least 5", "at most 3": bounds, not the extreme
    # N comes after the superlative ("episode 10 have the lowest rating" names a row) and is
    # a value of no other column, nor a count of rows ("the most rebound in 12 game")
    after = toks[at[0] + 1 :]
    pairs = list(zip(after, after[1:]))
    if any(as_number(w) not in (None, 1) and nxt in _COUNTED for w, nxt in pairs):
        return None
    # "for 1 game", "in 1 match": the extreme of one game, its 1 no value
    single = [
        (i, i + 1) for i, (w, nxt) in enumerate(pairs) if as_number(w) == 1 and nxt in _COUNTED
    ]
    elsewhere = {t.value(r, c) for r in range(len(t.rows)) for c in t.rows[r] if c != col}
    stated = [
        n for n in Claim(after, set(), [], claim.context).numbers(skip=single) if n not in elsewhere
    ]
    shift = at[0] + 1
    if (
        len(stated) != 1
        or len(claim.numbers(skip=[(a + shift, b + shift) for a, b in single])) != 1
    ):
        return None
    ok = abs(best - stated[0]) <= 1e-6 * max(1.0, abs(best))
    return Verdict(SUPPORTS if ok else REFUTES, "superlative",
                   f"{program} = {fmt_number(best)}; claimed {fmt_number(stated[0])}")  # fmt: skip


def _most_often(
    want: Callable, col: int, value: str, t: TableGrid, alone: bool = False
) -> Verdict | None:
    """Is ``value`` the most (least) frequent value of its column (and no other as frequent,
    if ``alone``)?"""
    counts: dict[str, int] = {}
    for row in t.rows:
        if row.get(col):
            counts[row[col]] = counts.get(row[col], 0) + 1
    best = want(counts.values())
    if want is max and best == 1:
        return None  # every value once: none is the most common
    winners = [v for v, n in counts.items() if n == best]
    fn = "most_often" if want is max else "least_often"
    header = t.headers.get(col, f"column {col}")
    program = f"{fn}({header}) = {' | '.join(winners)} ({best}); named {value!r} ({counts[value]})"
    ok = counts[value] == best and (not alone or winners == [value])
    return Verdict(SUPPORTS if ok else REFUTES, "superlative", program)


def ordinal(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row> has the second/third highest <column>": the named row's rank."""
    ranks = [_RANK_ORDINALS[w] for w in claim.tokens if w in _RANK_ORDINALS]
    want = "max" if claim.words & MAX_WORDS else "min" if claim.words & MIN_WORDS else None
    if len(ranks) != 1 or want is None:
        return None
    col = one_numeric_column(claim, t)
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


def _two_rows(claim: Claim, t: TableGrid) -> tuple[int, int] | None:
    if "than" not in claim.words:
        return None
    cut = claim.tokens.index("than")
    if cut + 1 < len(claim.tokens) and as_number(claim.tokens[cut + 1]) is not None:
        return None  # "greater than 4", "more than 2 time the number of goal than B": a bound
    return _rows_around(claim, t, cut, 1)


def _rows_around(claim: Claim, t: TableGrid, cut: int, width: int) -> tuple[int, int] | None:
    """The one row the claim names before token ``cut`` and the one after its ``width``
    words ("A ... than B", "A ... ahead of B"). A side naming several values names the row
    holding them all: "tony kanaan , of the andretti green team , earn less point than ..." is
    Kanaan's row, though his team has other drivers."""
    left, right = claim.tokens[:cut], claim.tokens[cut + width :]
    a_row, b_row = _side_row(claim, t, left), _side_row(claim, t, right)
    if a_row is None or b_row is None or a_row == b_row:
        return None
    return a_row, b_row


def _side_row(claim: Claim, t: TableGrid, side: list[str]) -> int | None:
    """The one row the claim names within ``side`` (its tokens): the one row of the values it
    names there, else the one row holding each name it gives there (a number, "133 mhz", is a
    value the row is compared on, not its name); none where it names a game's leader."""
    named = [
        (r, c, cell)
        for r, c in claim.mentions
        if contains_span(side, tokenize(cell := t.rows[r][c]))
    ]
    if any(c in t.leaders for _, c, _ in named):
        return None  # "kobe bryant score higher against memphis": his points, not the row's
    if any(not t.is_total(r) for r, _, _ in named):
        # "russia receive 4 more total medal than ...": "total" names the column, not the
        # table's total row
        named = [(r, c, cell) for r, c, cell in named if not t.is_total(r)]
    texts = {cell: tokenize(cell) for _, _, cell in named}
    named = [
        (r, c, cell)
        for r, c, cell in named
        if not any(
            len(texts[o]) > len(texts[cell]) and contains_span(texts[o], texts[cell]) for o in texts
        )
    ]  # "melbourne" of "north melbourne" names no row of its own
    rows = {r for r, _, _ in named}
    if len(rows) > 1:
        rows_of: dict[str, set[int]] = {}
        for r, c, cell in named:
            if c not in t.numeric:
                rows_of.setdefault(cell, set()).add(r)
        rows = set.intersection(*rows_of.values()) if rows_of else set()
    return next(iter(rows)) if len(rows) == 1 else None


def _more_less(
    claim: Claim, t: TableGrid
) -> (
    tuple[bool, tuple[int, int], tuple[int, int], float | None, float | None, tuple[str, str]]
    | None
):
    """ "<row A> ... more/less <column> than <row B>": (more?, the rows, each one's column, A's
    and B's values, the names the program shows them by)."""
    more, less = bool(claim.words & MORE_WORDS), bool(claim.words & LESS_WORDS)
    rows = _two_rows(claim, t)
    if rows is None or more == less:
        return None
    col = one_numeric_column(claim, t, fallback=True)
    if col is None:
        own = _own_scores(claim, t, rows)
        if own is None:
            return None
        cols, names = own
        return more, rows, cols, t.value(rows[0], cols[0]), t.value(rows[1], cols[1]), names
    if col == t.place_column():
        more = not more  # a higher rank or place is a smaller number
    names = (t.name(rows[0]), t.name(rows[1]))
    if names[0] == names[1]:  # "in 1994 than in 1995" of one team's rows: the cells named
        named = {r: t.rows[r][c] for r, c in claim.mentions if r in rows}
        names = (named.get(rows[0], names[0]), named.get(rows[1], names[1]))
    return more, rows, (col, col), t.value(rows[0], col), t.value(rows[1], col), names


def _own_scores(
    claim: Claim, t: TableGrid, rows: tuple[int, int]
) -> tuple[tuple[int, int], tuple[str, str]] | None:
    """Each named team's own score column where a game's table gives each side its team and
    score columns ("fitzroy have a higher score than north melbourne": each team's score is
    in the "<its column> score" column of its row), and the teams; None otherwise."""
    if "score" not in claim.words:
        return None
    paired = _paired_scores(t)
    if len(paired) < 2:
        return None
    out, names = [], []
    for row in rows:
        own = {c for r, c in claim.mentions if r == row and c in paired}
        if len(own) != 1:
            return None
        c = own.pop()
        out.append(paired[c])
        names.append(t.rows[row][c])
    return (out[0], out[1]), (names[0], names[1])


def _extreme_team_score(claim: Claim, t: TableGrid, want: Callable) -> Verdict | None:
    """ "essendon have the highest score of all team", "the lowest number of point score by any
    team be 45": the extreme of every team's own score, home and away sides together, in points
    (an Australian rules "24.15 (159)" is 159)."""
    if not claim.words & {"score", "point", "points"}:
        return None
    if claim.words & ({"margin", "difference", "tie"} | TOTAL_WORDS | AVERAGE_WORDS):
        return None  # "the biggest margin of victory": not one team's score
    paired = _paired_scores(t)
    if len(paired) < 2:
        return None
    scores = [
        (t.rows[r][c], p)
        for r in range(len(t.rows))
        if not t.is_total(r)
        for c in paired
        if t.rows[r].get(c) and (p := _points(t.rows[r].get(paired[c], ""))) is not None
    ]
    own = set(paired) | set(paired.values())
    if len(scores) < 3 or any(c not in own for _, c in claim.mentions) or claim.days:
        return None  # "at punt road oval", "on may 30 1925": among some games, unread
    best = want(p for _, p in scores)
    winners = sorted({team for team, p in scores if p == best})
    teams = {t.rows[r][c] for r, c in claim.mentions if c in paired}
    fn = "max" if want is max else "min"
    program = f"{fn}(team score) = {fmt_number(best)} ({' | '.join(winners)})"
    numbers = claim.numbers(skip=mention_spans(claim, t))
    if any(n != int(n) for n in numbers):
        return None  # "at 13.5": goals and behinds without the points
    stated = [_points(t.rows[r][c]) for r, c in claim.mentions if c in paired.values()]
    stated += _given_numbers(claim, t)
    if len(teams) > 1 or len(stated) > 1:
        return None
    if teams:
        team = teams.pop()
        ok = team in winners and (not stated or stated[0] == best)
        return Verdict(SUPPORTS if ok else REFUTES, "superlative", f"{program}; named: {team}")
    if not stated:
        return None
    ok = stated[0] == best
    return Verdict(SUPPORTS if ok else REFUTES, "superlative",
                   f"{program}; claimed {fmt_number(stated[0])}")  # fmt: skip


def _given_numbers(claim: Claim, t: TableGrid) -> list[float]:
    """The numbers the claim gives as a value: after "be", "at", "with" or ":" and outside the
    cells it names ("the lowest ... be 45"; not "the round of 16")."""
    spans = mention_spans(claim, t)
    toks = claim.tokens
    return [
        n
        for i, tok in enumerate(toks)
        if (n := as_number(tok)) is not None
        and i > 0
        and toks[i - 1] in ("be", "at", "with", ":")
        and n not in claim.context
        and not any(a <= i < b for a, b in spans)
    ]


def _paired_scores(t: TableGrid) -> dict[int, int]:
    """Each column naming a side of a game ("home team") and the column of its score ("home
    team score")."""
    paired = {}
    for c, h in t.headers.items():
        own = [d for d, g in t.headers.items() if tokenize(g) == [*tokenize(h), "score"]]
        if len(own) == 1 and own[0] in t.numeric:
            paired[c] = own[0]
    return paired


#: "A beat B by N", "A lose to B by N": whether the team named first won.
_RESULT_VERBS = {
    ("beat",): True, ("defeat",): True, ("defeated",): True, ("win", "over"): True,
    ("win", "against"): True, ("lose", "to"): False, ("lost", "to"): False, ("fall", "to"): False,
}  # fmt: skip


def _points(text: str) -> float | None:
    """A score's points: the total of an Australian rules "12.11 (83)", else its number."""
    if text.endswith(")") and "(" in text:
        inner = as_number(text[text.rindex("(") + 1 : -1].strip())
        if inner is not None:
            return inner
    return as_number(text)


def margin(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "hawthorn beat geelong by more than 2 point", "fitzroy lose to carlton by 24 point":
    the two teams' scores in their game's row, where a table gives each side its team and score
    columns."""
    toks = claim.tokens
    if toks.count("by") != 1 or "and" in toks:
        return None
    paired = _paired_scores(t)
    if len(paired) < 2:
        return None
    by = toks.index("by")
    found = [
        (i, len(words), won)
        for i in range(by)
        for words, won in _RESULT_VERBS.items()
        if tuple(toks[i : i + len(words)]) == words
    ]
    if len(found) != 1:
        return None
    i, width, first_won = found[0]
    j = by + 1
    rel = None
    for words in (("more", "than"), ("less", "than"), ("over",), ("under",), ("at", "least")):
        if tuple(toks[j : j + len(words)]) == words:
            rel = relation_before(toks, j + len(words))
            j += len(words)
    n = as_number(toks[j]) if j < len(toks) else None
    if n is None:
        return None
    a, b = _side_row(claim, t, toks[:i]), _side_row(claim, t, toks[i + width : by])
    if a is None or a != b:
        return None
    sides = []
    for side in (toks[:i], toks[i + width : by]):
        cols = {
            c
            for r, c in claim.mentions
            if r == a and c in paired and contains_span(side, tokenize(t.rows[r][c]))
        }
        if len(cols) != 1:
            return None
        sides.append(cols.pop())
    if sides[0] == sides[1]:
        return None
    pa, pb = (_points(t.rows[a].get(paired[c], "")) for c in sides)
    if pa is None or pb is None:
        return None
    won, lost = (pa, pb) if first_won else (pb, pa)
    ok = won > lost and RELATION_TEST[rel or "="](won - lost, n)
    name_a, name_b = (t.rows[a][c] for c in sides)
    m = as_number(toks[j + 2]) if toks[j + 1 : j + 2] == ["-"] and j + 2 < len(toks) else None
    if m is not None:  # "st kilda beat fitzroy by 161 - 51": the score, not the margin
        ok = rel is None and won > lost and (won, lost) == (max(n, m), min(n, m))
        program = (
            f"{t.headers[paired[sides[0]]]}[{name_a}] = {fmt_number(pa)}, "
            f"{t.headers[paired[sides[1]]]}[{name_b}] = {fmt_number(pb)}; "
            f"claimed {fmt_number(n)} - {fmt_number(m)}"
        )
        return Verdict(SUPPORTS if ok else REFUTES, "difference", program)
    program = (
        f"{t.headers[paired[sides[0]]]}[{name_a}] - {t.headers[paired[sides[1]]]}[{name_b}] = "
        f"{fmt_number(pa - pb)}; claimed {'won' if first_won else 'lost'} by "
        f"{'' if rel is None else rel + ' '}{fmt_number(n)}"
    )
    return Verdict(SUPPORTS if ok else REFUTES, "difference", program)


def difference(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> has N more/less <column> than <row B>": the difference of the two rows."""
    parsed = _more_less(claim, t)
    if parsed is None:
        return _difference_between(claim, t)
    more, rows, (col, col_b), a, b, (name_a, name_b) = parsed
    if col in t.dates:
        return None  # days between two dates: not a difference of their values
    cut = claim.tokens.index("than")
    named = [span for span in mention_spans(claim, t) if span[0] < cut]  # "on october 5"
    before = Claim(claim.tokens[:cut], set(), [], claim.context)
    in_header = {as_number(w) for c in {col, col_b} for w in tokenize(t.headers[c])}
    stated = [n for n in before.numbers(skip=named) if n not in (a, b) and n not in in_header]
    if a is None or b is None or len(stated) != 1:
        return None
    if not t.header_columns(claim.words, numeric_only=True) and _counts_other(before, stated[0]):
        return None  # "2 more church than": a count of rows, the table's one number column unnamed
    diff = a - b if more else b - a
    h, h_b = t.headers[col], t.headers[col_b]
    program = f"{h}[{name_a}] - {h_b}[{name_b}] = {fmt_number(a - b)}"
    program += f"; claimed {'+' if more else '-'}{fmt_number(stated[0])}"
    return Verdict(SUPPORTS if abs(diff - stated[0]) < 1e-6 else REFUTES, "difference", program)


#: Words that name the gap between two rows' values ("the difference in capacity between").
_GAP_WORDS = frozenset("difference gap spread".split())


def _difference_between(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "the difference in capacity between cincinnati garden and center ice sport complex be
    9308": the gap between two named rows' values in the one number column the claim names
    (a bound on it where the claim says "less than a million")."""
    toks = claim.tokens
    if (
        not claim.words & _GAP_WORDS
        or "between" not in toks
        or "than" in toks[: toks.index("between")]
    ):
        return None
    start = toks.index("between")
    joins = [i for i, w in enumerate(toks) if w == "and" and i > start + 1]
    col = one_numeric_column(claim, t)
    if len(joins) != 1 or col is None or col in t.dates:
        return None
    rows = _rows_around(claim, t, joins[0], 1)
    stated = [
        (relation_before(toks, i) or "=", n)
        for i, w in enumerate(toks)
        if i > joins[0]
        and (n := as_number(w)) is not None
        and not any(a <= i < b for a, b in mention_spans(claim, t))
    ]
    if rows is None or len(stated) != 1 or free_numbers(claim, t) != [stated[0][1]]:
        return None
    a, b = t.value(rows[0], col), t.value(rows[1], col)
    if a is None or b is None:
        return None
    (rel, n), gap = stated[0], abs(a - b)
    h = t.headers[col]
    program = f"|{h}[{t.name(rows[0])}] - {h}[{t.name(rows[1])}]| = {fmt_number(gap)}"
    program += f"; claimed {'' if rel == '=' else rel + ' '}{fmt_number(n)}"
    ok = abs(gap - n) < 1e-6 if rel == "=" else RELATION_TEST[rel](gap, n)
    return Verdict(SUPPORTS if ok else REFUTES, "difference", program)


def _counts_other(claim: Claim, n: float) -> bool:
    """Whether the claim's number ``n`` counts a thing it names after it ("2 more church",
    "10 centimeter shorter") rather than standing alone ("2 more than")."""
    toks = claim.tokens
    at = [i for i, w in enumerate(toks) if as_number(w) == n]
    return any(
        i + 1 < len(toks) and toks[i + 1].isalpha() and toks[i + 1] not in MORE_WORDS | LESS_WORDS
        for i in at
    )


#: Words that place row A before (<) or after (>) row B in a results table.
_PLACED = {("ahead", "of"): "<", ("in", "front", "of"): "<", ("behind",): ">"}


def _placed(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> finished ahead of / behind <row B>": the two rows' places (a results table's
    one "rank" / "pos" column; the lower place is ahead)."""
    col, toks = t.place_column(), claim.tokens
    said = [
        (i, words, op)
        for words, op in _PLACED.items()
        for i in range(len(toks) - len(words) + 1)
        if tuple(toks[i : i + len(words)]) == words
    ]
    if col is None or len(said) != 1 or "than" in claim.words:
        return None
    if any(as_number(w) is not None or as_ordinal(w) for w in toks):
        return None  # "8th, behind", "3 gold medals behind": more than the order is stated
    i, words, op = said[0]
    rows = _rows_around(claim, t, i, len(words))
    if rows is None:
        return None
    a, b = t.value(rows[0], col), t.value(rows[1], col)
    if a is None or b is None or a == b:
        return None
    h = t.headers[col]
    program = (
        f"{h}[{t.name(rows[0])}] {op} {h}[{t.name(rows[1])}]: {fmt_number(a)} {op} {fmt_number(b)}"
    )
    return Verdict(SUPPORTS if (a < b if op == "<" else a > b) else REFUTES, "comparison", program)


def compare(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> has more/less <column> than <row B>": compare the two rows' numbers; "<row A>
    ... ahead of / behind <row B>": their places (:func:`_placed`)."""
    parsed = _more_less(claim, t)
    if parsed is None:
        return _placed(claim, t)
    more, rows, (col, col_b), a, b, (name_a, name_b) = parsed
    if a is None or b is None or a == b:
        return None
    h, h_b = t.headers[col], t.headers[col_b]
    op = ">" if more else "<"
    program = (
        f"{h}[{name_a}] {op} {h_b}[{name_b}]: "
        f"{t.shown(rows[0], col)} {op} {t.shown(rows[1], col_b)}"
    )
    return Verdict(SUPPORTS if (a > b if more else a < b) else REFUTES, "comparison", program)


def same(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> and <row B> have the same <column>"."""
    rows = sorted({r for r, _ in claim.mentions})
    cols = t.header_columns(claim.words)
    toks = claim.tokens
    counts = any(
        w == "same" and toks[i + 1 : i + 2] in (["number"], ["amount"]) for i, w in enumerate(toks)
    )
    if len(cols) > 1 and len(rows) == 2 and not counts:
        # "week 4 have the same attendance as week 3": the column naming the two rows is not
        # the one compared ("the same number of ..." may count rows instead)
        rest = [c for c in cols if c not in {c for _, c in claim.mentions}]
        cols = rest if len(rest) == 1 else cols
    if "same" not in claim.words or len(rows) < 2 or len(cols) != 1:
        return None
    values = [t.rows[r].get(cols[0], "") for r in rows]
    program = f"{t.headers[cols[0]]} of " + ", ".join(
        f"{t.name(r)} = {v!r}" for r, v in zip(rows, values, strict=True)
    )
    return Verdict(SUPPORTS if len(set(values)) == 1 else REFUTES, "same", program)


def aggregate(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "the total / average <column> is N": sum or mean of a numeric column."""
    total, average = bool(claim.words & TOTAL_WORDS), bool(claim.words & AVERAGE_WORDS)
    if total == average or claim.mentions or claim.words & (MAX_WORDS | MIN_WORDS):
        return None  # rows named or "the minimum total": not an aggregate over the column
    # The column is named by the other words: "total" / "average" may also be a column's name.
    cols = t.header_columns(claim.words - TOTAL_WORDS - AVERAGE_WORDS, numeric_only=True)
    if len(cols) != 1:
        return None
    col = cols[0]
    values = list(t.column_values(col).values())
    if len(values) < 2 or col in t.dates:
        return None
    result = sum(values) if total else sum(values) / len(values)
    stated = claim.numbers()
    if len(stated) != 1:
        return None
    fn = "sum" if total else "avg"
    ok = abs(result - stated[0]) <= max(0.01, 0.005 * abs(result))
    program = (
        f"{fn}({t.headers[col]}) = {fmt_number(round(result, 2))}; claimed {fmt_number(stated[0])}"
    )
    return Verdict(SUPPORTS if ok else REFUTES, "aggregate", program)


#: Units a claim states the time between two rows in ("16 year before", "6 day after").
_TIME_UNITS = {
    "year": "year", "years": "year", "day": "day", "days": "day", "week": "week", "weeks": "week",
    "month": "month", "months": "month",
}  # fmt: skip
#: Words that place row A before (<) or after (>) row B in time.
_TIMED = {"before": "<", "after": ">"}


def timing(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "<row A> ... before / after <row B>", "<row A> ... N years / months / weeks / days before / after
    <row B>": the two rows' dates or years, in the table's one column of them (or the one the
    claim names)."""
    toks = claim.tokens
    at = [i for i, w in enumerate(toks) if w in _TIMED]
    if len(at) != 1 or "than" in claim.words:
        return None
    i = at[0]
    rows = _rows_around(claim, t, i, 1)
    col = _time_column(claim, t)
    if rows is None or col is None or col in {c for r, c in claim.mentions if r in rows}:
        return None  # a row named by its own date or year: "after 2009" bounds, not orders
    gap, unit = None, None
    if i >= 2 and toks[i - 1] in _TIME_UNITS:
        # "16 year before", "a week after", "the year after" (the next one)
        n = 1.0 if toks[i - 2] in ("a", "an", "one", "the") else as_number(toks[i - 2])
        if n is None or (i >= 3 and toks[i - 3] == "-"):
            return None  # "thirty - 5 year": a number the tokens split
        gap, unit = n, _TIME_UNITS[toks[i - 1]]
    if [n for n in free_numbers(claim, t) if n != gap]:
        return None  # another number states more than the order
    a, b = _when(t, rows[0], col, unit), _when(t, rows[1], col, unit)
    if a is None or b is None or (gap is None and a == b):
        return None
    op = _TIMED[toks[i]]
    h = t.headers[col]
    program = f"{h}[{t.name(rows[0])}] {op} {h}[{t.name(rows[1])}]: "
    program += f"{t.shown(rows[0], col)} {op} {t.shown(rows[1], col)}"
    if gap is None:
        return Verdict(SUPPORTS if (a < b if op == "<" else a > b) else REFUTES, "timing", program)
    between = (b - a if op == "<" else a - b) / (7 if unit == "week" else 1)
    program += f"; {fmt_number(between)} {unit}s; claimed {fmt_number(gap)}"
    return Verdict(SUPPORTS if abs(between - gap) < 1e-6 else REFUTES, "timing", program)


def _time_column(claim: Claim, t: TableGrid) -> int | None:
    """The table's column of dates or years the claim orders rows by: the one it names by its
    header's words, else the table's only one."""
    years = {
        c
        for c in t.numeric - t.dates
        if (values := list(t.column_values(c).values()))
        and all(v == int(v) and 1000 <= v <= 2100 for v in values)
    }
    found = t.dates | years
    named = t.header_columns(claim.words, among=found)
    cols = named or sorted(found)
    if not cols:
        # "todd thomas be pick before ...": a column of whole numbers, one a row, that the claim
        # names (picks, episodes, games) orders them where no date or year does
        cols = [
            c
            for c in t.header_columns(claim.words, numeric_only=True)
            if (values := list(t.column_values(c).values()))
            and len(values) == len(t.rows)
            and len(set(values)) == len(values)
            and all(v == int(v) for v in values)
        ]
    return cols[0] if len(cols) == 1 else None


def _when(t: TableGrid, row: int, col: int, unit: str | None) -> float | None:
    """A row's time in ``unit``: its year (``year``), its day's ordinal (``day``, ``week``; a
    date with its year only), else its place in the column's order."""
    if col not in t.dates:  # a year; a list of several ("1974 , 1979 , 1990") is no one time
        cell = tokenize(t.rows[row].get(col, ""))
        several = sum(as_number(w) is not None for w in cell) > 1 and bool({",", "and"} & set(cell))
        return t.value(row, col) if unit in (None, "year") and not several else None
    if unit is None:
        return t.value(row, col)
    d = t.day(row, col)
    if d is None or d.year is None:
        return None
    if unit == "month":  # calendar months: "9 months after" May 2013 is February 2014
        return None if d.month is None else float(d.year * 12 + d.month)
    return float(d.year) if unit == "year" else d.value
