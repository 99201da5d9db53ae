"""Operations that count rows: "there be N <value>" (with "more than", "at least", ...), the
table's own shape ("there are 5 parameters in the table"), and "only", "all" and "none" over the
rows that share a value.
"""

from __future__ import annotations

import re

from wikicheck.common.quantities import MONTH_WORDS, same_day
from wikicheck.common.text import stem
from wikicheck.model import REFUTES, SUPPORTS
from wikicheck.verifier.tables.grid import (
    ROW_HEADER_COLUMN,
    Claim,
    TableGrid,
    Verdict,
    by_named_header,
    free_numbers,
    header_forms,
    header_spans,
    mention_spans,
)
from wikicheck.verifier.tables.text import (
    LESS_WORDS,
    MAX_WORDS,
    MIN_WORDS,
    MORE_WORDS,
    RELATION_TEST,
    STOP_WORDS,
    as_number,
    contains_span,
    fmt_number,
    relation_before,
    span_starts,
    tokenize,
)

#: Words that say a number in the claim may be a count of rows.
_COUNT_CUES = frozenset(
    "there time times of total count number appear game only win won episode episodes match "
    "matches race races tournament tournaments event events song songs film films album albums "
    "award awards title titles".split()
)


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


def _stated_counts(claim: Claim, t: TableGrid) -> list[tuple[str, int]]:
    """(relation, N) for each number of the claim that can be a count of rows.

    Why so strict: a claim's numbers are mostly values ("season 5", "7 day apart", "out of the 6
    car", "2 time the capacity"), and a count read from one refutes a true claim; train
    statements showed these shapes among the count operation's errors.
    """
    toks = claim.tokens
    spans = mention_spans(claim, t) + header_spans(claim, t)
    out = []
    for i, tok in enumerate(toks):
        n = as_number(tok)
        if n is None or n != int(n) or not 0 <= n <= len(t.rows):
            continue
        before = toks[max(0, i - 3) : i]
        after = toks[i + 1 : i + 4]
        if any(a <= i < b for a, b in spans) or (before and before[-1] in "-:/#"):
            continue  # part of a named cell ("ohio 6") or column ("multi 1"), a score, date, time
        if before and before[-1] in _NOT_COUNT_BEFORE or "out" in before[-3:-1]:
            continue
        if before[-2:-1] and before[-2] in _NOT_COUNT_BEFORE and before[-1] == "of":
            continue  # "the rank of 4" names the row ranked 4
        if before[-1:] and before[-1] in MAX_WORDS | MIN_WORDS and before[-2:-1] != ["at"]:
            continue  # a rank ("top 5", "the highest 1"), where "at least 2" is a count
        if before[-1:] and before[-1] in MONTH_WORDS or after[:1] and after[0] in MONTH_WORDS:
            continue  # a day of a date ("june 4 1960", "4 june")
        if after and (after[0] in _NOT_COUNT_AFTER | MORE_WORDS | LESS_WORDS or after[0] in "-:/"):
            continue
        if after[:2] in (["time", "the"], ["times", "the"], ["time", "as"], ["times", "as"]):
            continue  # "2 time the capacity": a ratio
        if n == 1 and _one_as_pronoun(before, after):
            continue  # "the 1 who fight only 2 round", "1 other city", "1 of the highest"
        out.append((relation_before(toks, i) or "=", int(n)))
    return out


def _one_as_pronoun(before: list[str], after: list[str]) -> bool:
    """Whether a "1" stands for a thing named elsewhere rather than counting rows: "the 1 who",
    "any 1 else", "1 other city", "1 of many", "1 of the highest scoring team"."""
    if before[-1:] in (["the"], ["any"]) and after[:1] not in (["time"], ["times"]):
        return True  # where "the 1 time that" counts
    if after[:1] in (["other"], ["else"]):
        return True
    if after[:2] == ["of", "many"]:
        return True
    return after[:2] == ["of", "the"] and after[2:3] != [] and after[2] in MAX_WORDS | MIN_WORDS


#: "there are N <things>" / "the table has N <things>", the count first, then what is counted.
_SHAPE_CLAIM = re.compile(
    r"^(?:there (?:are|is|were|was|be)|(?:the )?(?:table|it)(?: \S+)? "
    r"(?:has|have|contains?|shows?|lists?|includes?|consists of))"
    r" (?:exactly |a total of )?(\S+) (?:(?:different|distinct|unique|types?|kinds?|of) )*"
    r"(.+)$"
)
#: Where the table is named after the counted noun ("... in the given table"): not a condition.
_IN_THE_TABLE = re.compile(
    r"(?: (?:given|listed|mentioned|shown|presented|reported|used))?"
    r"(?: (?:in|on) (?:the |this )?(?:given |above )?table(?: \S+)?)? ?[.,;]*$"
)
#: Where an enumeration of the counted things starts ("there are 2 types - A and B").
_ENUMERATION = re.compile(r" (?:-|:|\(|i\.e|e\.g|such as|namely|like|viz|which are)(?: |$)")
#: Words that make the counted noun a condition ("there are 3 wins in 2011"), not the table's
#: own things: a count under a condition is the ``count`` operation's.
_SHAPE_CONDITION = frozenset(
    "in on at for with when where that which who whose from by than between under over per "
    "during while if whereas".split()
)
#: Stems (:func:`wikicheck.common.text.stem`) of nouns that name the table's columns or rows.
_COLUMN_NOUNS = frozenset(stem(w) for w in "column col head heading header".split())
_ROW_NOUNS = frozenset(stem(w) for w in "row entry record".split())


def shape(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "there are N <things> (in the table)": how many rows, columns or distinct values of the
    column the things name the table has.

    Why a separate operation: scientific tables are described by their shape ("there are 5
    parameters", "the table has three heads"), with nothing named that a row condition could
    select; ``count`` counts the rows of a named value and abstains on these. What is counted
    is read from the noun: columns, rows, the distinct values of the column whose header it
    names, or, when it names no column, the rows or columns (a table lists its things in
    one of the two), without a row of totals.
    """
    m = _SHAPE_CLAIM.match(" ".join(claim.tokens))
    if m is None:
        return None
    n = as_number(m.group(1))
    rest = _IN_THE_TABLE.sub("", m.group(2)).split()
    # "there be 1 <thing> ..." and "only N" single out rows by a condition more often than not
    if n is None or n != int(n) or not 1 < n <= 100 or not rest or rest[0] in _NOT_COUNT_AFTER:
        return None
    if set(rest) & _SHAPE_CONDITION:
        return None
    noun = _ENUMERATION.split(" ".join(rest), maxsplit=1)[0].split()
    words = [stem(w) for w in noun if w not in STOP_WORDS]
    if not words or any(as_number(w) is not None for w in noun):
        return None
    named = {tok for r, c in claim.mentions for tok in tokenize(t.rows[r][c])}
    if named & set(noun):
        return None  # "there are 3 democratic incumbents": a condition on a named value
    columns = len({c for row in t.rows for c in row})
    rows = [r for r, row in enumerate(t.rows) if not t.is_total(r)]
    if words[-1] in _COLUMN_NOUNS:
        counts = {"columns": columns}
    elif words[-1] in _ROW_NOUNS:
        counts = {"rows": len(rows)}
    else:
        cols = t.header_columns(set(noun))
        counts = {
            f"distinct({t.headers[c]})": len({t.rows[r].get(c, "") for r in rows} - {""})
            for c in cols
        } or {"rows": len(rows), "columns": columns}
    hit = n in counts.values()
    shown = "; ".join(f"{k} = {v}" for k, v in counts.items())
    program = f"{shown}; claimed {int(n)} {' '.join(noun)}"
    return Verdict(SUPPORTS if hit else REFUTES, "shape", program)


def count(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "there be N <value> ...", "<value> more than N time": how many rows hold a named value."""
    if not claim.mentions:
        return None
    # without a cue word, "<N> <value> <column>" alone makes a count, of that value, and so
    # does a claim opening with one ("3 player score 0 goal", "fewer than 4 team ...")
    n_opening = _opening_count(claim.tokens)
    opening = not claim.words & _COUNT_CUES and n_opening is not None
    cued = bool(claim.words & _COUNT_CUES) or opening
    counted = None if claim.words & _COUNT_CUES else _counted_value(claim, t)
    if not cued and counted is None:
        return None
    named_rows = {r for r, _ in claim.mentions}
    in_rows = {t.value(r, c) for r in named_rows for c in t.rows[r]}
    # a score, a date part or a value of the named rows is not a count, unless the claim puts
    # it before the value it counts or opens with it ("3 team have 0 draw")
    n_counted, counted_cell = counted or (None, None)
    wanted = [
        (rel, n)
        for rel, n in _stated_counts(claim, t)
        if n not in in_rows or n in (n_counted, n_opening)
    ]
    member = _membership(claim.tokens)
    share = None if member is not None else _share(claim.tokens, len(t.rows))
    if share is not None:
        # "4 of 6 fight use the tko method": 4 rows hold the value, 6 is the group they are of
        at, part, whole = share
        wanted = [(rel, n) for rel, n in wanted if n != whole or n == part]
        if part not in {n for _, n in wanted}:
            wanted.append((relation_before(claim.tokens, at) or "=", part))
    if not wanted:
        return None
    counts: dict[tuple[int, str], int] = {}
    for r, c in claim.mentions:
        if counted_cell is not None and tokenize(t.rows[r][c]) != counted_cell:
            continue  # "<N> <value> <column>" counts that value
        if t.rows[r][c] == t.headers.get(c) or c == ROW_HEADER_COLUMN or c in t.dates:
            continue  # a repeated header row is not a value, a row's name is its own, and a
            # day named is mostly one end of a span ("a 4 game streak from august 24 - 27")
        if c in t.year_keys:
            continue  # "in 2006 she compete 2 time": what the year's row holds, not its rows
        counts[(c, t.rows[r][c])] = len(t.rows_holding(t.rows[r][c], (c,)))
    counts = by_named_header(claim, t, counts)
    if not counts or (opening and len(counts) > 1):
        return None  # "3 team use honda engine : comptech racing , ...": a list, match reads it
    if member is not None:
        held = {key: t.rows_holding(key[1], key[:1]) for key in counts}
        held |= {
            (c, t.rows[r][c]): _same_day_rows(t, r, c) for r, c in claim.mentions if c in t.dates
        }
        return _member_count(claim, t, held, *member)
    if share is not None and share[2] in counts.values() and share[1] not in counts.values():
        # "dallas win 2 of the 5 game": the value names the group, N's condition is unread
        return None
    hit = [(k, n) for k, n in counts.items() if any(RELATION_TEST[r](n, w) for r, w in wanted)]
    (c, v), n = hit[0] if hit else next(iter(counts.items()))
    # Shapes that train statements answered about as often wrong as right: several named values
    # (a list of rows, or a condition the count ignores) unless the count agrees with a value
    # seen more than once; "1" read against a value seen several times ("1 of the ..."); a bound
    # that a single row satisfies
    if len(counts) > 1 and not (hit and n > 1):
        both = _rows_holding_all(t, counts)
        if both is None:
            return None
        # "5 winner when the surface be hard": the rows holding every value, one per column
        n = len(both)
        ok = any(RELATION_TEST[r](n, w) for r, w in wanted)
        where = " & ".join(f"{t.headers.get(c, 'column ' + str(c))} == {v!r}" for c, v in counts)
        program = f"count({where}) = {n}; claimed "
        program += ", ".join(f"{'' if r == '=' else r + ' '}{w}" for r, w in wanted)
        return Verdict(SUPPORTS if ok else REFUTES, "count", program)
    if n > 1 and all(r == "=" and w == 1 for r, w in wanted):
        return None
    if n == 1 and hit and all(w != 1 for _, w in wanted):
        return None
    program = f"count({t.headers.get(c, 'column ' + str(c))} == {v!r}) = {n}; claimed "
    program += ", ".join(f"{'' if r == '=' else r + ' '}{w}" for r, w in wanted)
    return Verdict(SUPPORTS if hit else REFUTES, "count", program)


#: Words before a claim's opening count that bound it ("fewer than 4 team", "at least 3").
_OPENING_BOUNDS = frozenset("more less fewer greater than at least most over under only".split())


#: Words after a count that make it a count of distinct values ("7 different builder").
_DISTINCT_WORDS = frozenset({"different", "distinct", "unique", "separate"})


def _opening_count(toks: list[str]) -> int | None:
    """The count of things a claim opens with: 3 of "3 player score 0 goal", 4 of "fewer than 4
    team be from brazil" (a whole number, a bound's words before it, a word after it)."""
    i = 0
    while i < len(toks) and toks[i] in _OPENING_BOUNDS:
        i += 1
    n = as_number(toks[i]) if i + 1 < len(toks) else None
    ok = n is not None and n == int(n) and n > 0 and toks[i + 1].isalpha()
    if ok and toks[i + 1] in ("be", "is", "was", "are", "were"):
        return None  # "8 be the try bonus": a value the claim gives
    if ok and toks[i + 1] in _DISTINCT_WORDS:
        return None  # "7 different builder": how many values, not rows holding one
    return int(n) if ok else None


def _rows_holding_all(t: TableGrid, counts: dict[tuple[int, str], int]) -> set[int] | None:
    """The rows holding each named value where the claim names two or three different ones,
    each in a column of its own and each held by several rows (so each is a condition, none a
    row's name); None otherwise."""
    cols, values = [c for c, _ in counts], [v for _, v in counts]
    if not 1 < len(counts) <= 3 or min(counts.values()) < 2:
        return None
    if len(set(cols)) != len(cols) or len(set(values)) != len(values):
        return None  # "detroit" as visitor or at home: one value in either column
    rows = [t.rows_holding(v, (c,)) for c, v in counts]
    return set.intersection(*rows)


def _counted_value(claim: Claim, t: TableGrid) -> tuple[int, list[str]] | None:
    """(N, the value's tokens) where the claim counts rows as "<N> <value> <column>": "three
    Ferrari drivers qualified", "2 republican incumbents" (a number right before a named cell,
    a column's header word right after it), a count without a cue word; None otherwise."""
    toks = claim.tokens
    for a, b in mention_spans(claim, t):
        n = as_number(toks[a - 1]) if a else None
        if n is None or n != int(n) or not 0 < n <= len(t.rows) or b >= len(toks):
            continue
        if t.header_columns(set(header_forms(toks[b]))):
            return int(n), toks[a:b]
    return None


def _membership(tokens: list[str]) -> tuple[int, int] | None:
    """(where, M) of "<subject> be N of (the) M <things> <condition>": the claim puts its
    subject among M rows, a count with a member to find, not N rows to count."""
    for i in range(len(tokens) - 3):
        if tokens[i] != "be" or as_number(tokens[i + 1]) is None or tokens[i + 2] != "of":
            continue
        j = i + 4 if tokens[i + 3] in ("the", "only") else i + 3
        whole = as_number(tokens[j]) if j < len(tokens) else None
        if whole is not None and whole == int(whole):
            return i, int(whole)
    return None


def _share(tokens: list[str], n_rows: int) -> tuple[int, int, int] | None:
    """(N's position, N, M) of the claim's "N (out) of (the) M" where N is smaller than M: N rows
    of a group of M hold the value, so N is the count to test and M is not ("3 of the 6 event be
    aba stadium event")."""
    for at, tok in enumerate(tokens):
        part = as_number(tok)
        if part is None or part != int(part) or (at and tokens[at - 1] in _NOT_COUNT_BEFORE):
            continue  # "week 13 of the 1950 season"
        j = at + 1 + (tokens[at + 1 : at + 2] == ["out"])
        if tokens[j : j + 1] != ["of"]:
            continue
        j += 1 + (tokens[j + 1 : j + 2] == ["the"])
        whole = as_number(tokens[j]) if j < len(tokens) else None
        if whole is not None and whole == int(whole):
            if 0 < part < whole <= n_rows:
                return at, int(part), int(whole)
            return None
    return None


def _same_day_rows(t: TableGrid, row: int, col: int) -> set[int]:
    """The rows whose date in ``col`` is the day of ``row``'s."""
    day = t.day(row, col)
    return {
        r
        for r in range(len(t.rows))
        if day is not None and (d := t.day(r, col)) is not None and same_day(d, day)
    }


def _member_count(
    claim: Claim, t: TableGrid, held: dict[tuple[int, str], set[int]], at: int, whole: int
) -> Verdict | None:
    """ "makhaya ntini be 1 of 3 player on the western province team": M rows hold the value
    named after "of" (``held``: each named value's rows, or its day's), and the subject's rows
    are among them."""
    toks = claim.tokens

    def start(text: str) -> int:
        return min(span_starts(toks, tokenize(text)), default=-1)

    groups = [(c, v) for c, v in held if start(v) > at]
    subjects = {r for r, c in claim.mentions if 0 <= start(t.rows[r][c]) < at}
    if len(groups) != 1 or not subjects:
        return None
    c, v = groups[0]
    rows = held[(c, v)]
    ok = len(rows) == whole and subjects <= rows
    names = ", ".join(t.name(r) for r in sorted(subjects))
    program = (
        f"count({t.headers.get(c, 'column ' + str(c))} == {v!r}) = {len(rows)}; claimed "
        f"{whole}; {names} {'among' if subjects <= rows else 'not among'} them"
    )
    return Verdict(SUPPORTS if ok else REFUTES, "count", program)


#: The words that compare how many rows ("more episodes by A than by B", "more often").
_MORE_ROWS = frozenset({"more"})
_FEWER_ROWS = frozenset({"less", "fewer"})


def compare_counts(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "more <things> by A than by B", "A ... more often than B", "more A than any other <x>":
    do more (fewer) rows hold the value A than the value B of the same column?

    Why its own operation: A and B are categories (a writer, a position), not rows, so there
    is no numeric column to compare; the claim names none (that would be ``comparison``'s) and
    states no number (a difference of counts is left alone)."""
    toks = claim.tokens
    if t.header_columns(claim.words, numeric_only=True):
        return None
    if "than" not in toks and _SAME_NUMBER.search(" ".join(toks)):
        return _same_counts(claim, t)
    if toks.count("than") != 1:
        return None
    cut = toks.index("than")
    direction = {w for w in toks[:cut] if w in _MORE_ROWS | _FEWER_ROWS}
    if len(direction) != 1 or claim.numbers():
        return None
    more = direction <= _MORE_ROWS
    before: dict[int, set[str]] = {}
    after: dict[int, set[str]] = {}
    for r, c in claim.mentions:
        if c == ROW_HEADER_COLUMN or c in t.dates:
            continue
        v = t.rows[r][c]
        for i in span_starts(toks, tokenize(v)):
            (before if i < cut else after).setdefault(c, set()).add(v)
    rows = [row for r, row in enumerate(t.rows) if not t.is_total(r)]

    def n(c: int, v: str) -> int:
        return sum(row.get(c) == v for row in rows)

    any_other = toks[cut + 1 : cut + 3] == ["any", "other"]
    found = []
    for c, a_values in before.items():
        b_values = after.get(c, set()) - a_values
        if len(a_values) != 1 or (len(b_values) != 1 and not any_other):
            continue
        a = next(iter(a_values))
        if any_other and not b_values:
            others = {row.get(c) for row in rows} - {a, None, ""}
            b_counts = {v: n(c, v) for v in others}
        else:
            b_counts = {v: n(c, v) for v in b_values}
        if not b_counts or max(n(c, a), *b_counts.values()) < 2:
            continue  # values of one row each are names compared by an unnamed column
        found.append((c, a, b_counts))
    if len(found) != 1:
        return None
    c, a, b_counts = found[0]
    na = n(c, a)
    ok = all(na > nb if more else na < nb for nb in b_counts.values())
    b_shown = "any other" if any_other and len(b_counts) > 1 else repr(next(iter(b_counts)))
    op = ">" if more else "<"
    program = (
        f"count({t.headers.get(c, c)} == {a!r}) = {na} {op} "
        f"count({b_shown}) = {max(b_counts.values()) if more else min(b_counts.values())}"
    )
    return Verdict(SUPPORTS if ok else REFUTES, "count_comparison", program)


#: "the same number of", "the same amount of", "an equal number of": rows counted, not values.
_SAME_NUMBER = re.compile(r"\b(?:same|equal) (?:number|amount|count) of\b")


def _same_counts(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "jace alexander and john fortenberry direct the same number of episode": do as many
    rows hold each value the claim names in one column? (The claim names no number column:
    "the same number of total medal" compares values, ``same`` reads it.)"""
    if claim.numbers():
        return None
    named: dict[tuple[int, str], int] = {}
    for r, c in claim.mentions:
        if c == ROW_HEADER_COLUMN or c in t.dates:
            continue
        v = t.rows[r][c]
        named[(c, v)] = len(t.rows_holding(v, (c,)))
    named = by_named_header(claim, t, named)
    by_col: dict[int, dict[str, int]] = {}
    for (c, v), n in named.items():
        by_col.setdefault(c, {})[v] = n
    found = [(c, vs) for c, vs in by_col.items() if len(vs) >= 2]
    if len(found) != 1 or len(by_col) > 2:
        return None
    c, vs = found[0]
    texts = [tokenize(v) for v in vs]
    if any(a is not b and contains_span(a, b) for a in texts for b in texts):
        return None  # "world cup qualifier" inside "2002 world cup qualifier": one named twice
    counts = ", ".join(f"count({t.headers.get(c, c)} == {v!r}) = {n}" for v, n in vs.items())
    ok = len(set(vs.values())) == 1
    return Verdict(SUPPORTS if ok else REFUTES, "count_comparison", f"{counts}; claimed equal")


def only_all_none(claim: Claim, t: TableGrid) -> Verdict | None:
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
        spans = mention_spans(claim, t)
        if all(any(a <= i < b for a, b in spans) for i in _positions(claim.tokens, "only")):
            return None  # "west croydon (peaks & sun only)": the word of a cell named
        if all(_only_a_measure(claim.tokens, i) for i in _positions(claim.tokens, "only")):
            return None  # "alex tagliani receive only 9 point": how little, not who alone
        return _only(claim, t, rows_of)
    # "all/none ... <header> <value>": the value is looked for in the column the claim names.
    cols = t.header_columns(claim.words)
    values = {v for _, v in rows_of}
    if len(values) != 1:
        return None
    v = values.pop()
    own = [c for c, _ in rows_of]
    col = cols[0] if len(cols) == 1 else own[0]
    if quantifier == "all" and col not in own:
        if col != min(t.headers):
            return None  # "all of the republican be first elect in 1884": a condition
        col = own[0]  # "all of the incumbent be republican": the rows, by their name column
    n = sum(row.get(col) == v for row in t.rows)
    ok = n == len(t.rows) if quantifier == "all" else n == 0
    program = f"count({t.headers.get(col, col)} == {v!r}) = {n} of {len(t.rows)}"
    return Verdict(SUPPORTS if ok else REFUTES, quantifier, program)


def _positions(tokens: list[str], word: str) -> list[int]:
    return [i for i, tok in enumerate(tokens) if tok == word]


def _only_a_measure(tokens: list[str], i: int) -> bool:
    """Whether the "only" at ``i`` says how small a number is ("with only 18 point", "by a
    margin of only 3 point"), not that one row alone holds a value ("the only 2 song", "only 1
    candidate , theodore roosevelt , be from the progressive party")."""
    after = as_number(tokens[i + 1]) if i + 1 < len(tokens) else None
    return after not in (None, 1) and tokens[i - 1 : i] != ["the"]


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


def _only(claim: Claim, t: TableGrid, rows_of: dict[tuple[int, str], set[int]]) -> Verdict | None:
    """ "only <entity> has <value>": the value's rows are exactly the entity's row; with no
    entity named, "only one ... <value>" means the value is in exactly one row."""
    entities = [key for key, rows in rows_of.items() if len(rows) == 1]
    for ce, _ in entities:
        others = [key for key in rows_of if key[0] != ce]
        if not others:
            continue
        cv, vv = max(others, key=lambda key: (len(rows_of[key]), key))
        # "A and B be the only 2 town": every entity the claim names in that column
        group = [v for c, v in entities if c == ce]
        named_rows = set().union(*(rows_of[(ce, v)] for v in group))
        names = ", ".join(t.name(r) for r in sorted(rows_of[(cv, vv)]))
        program = f"rows({t.headers.get(cv, cv)} == {vv!r}) = [{names}]; named {', '.join(group)}"
        ok = rows_of[(cv, vv)] == named_rows
        return Verdict(SUPPORTS if ok else REFUTES, "only", program)
    if len(rows_of) == 1 and "one" in claim.words:
        (c, v), rows = next(iter(rows_of.items()))
        program = f"count({t.headers.get(c, c)} == {v!r}) = {len(rows)}; claimed 1"
        return Verdict(SUPPORTS if len(rows) == 1 else REFUTES, "only", program)
    return None


#: What makes "never" more than "no row holds these values": a result, a bound, a comparison.
_NEVER_OTHER = frozenset(
    "win won wins lose lost loses beat defeat score scored than same consecutive row straight"
    " only all every each above below under over before after but while though although".split()
)


def never(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "rené bonnière never appear as a director", "the brown never play against the baltimore
    raven": no row holds every value the claim names (each in any column it is named in).
    A row that does refutes it; values found apart support it. Why only values: "never win" or
    "never score more than 4" reads a result or a bound, which this does not."""
    toks = claim.tokens
    if toks.count("never") != 1 or claim.words & ({"not", "no", "n't"} | _NEVER_OTHER):
        return None
    if claim.words & (MAX_WORDS | MIN_WORDS | MORE_WORDS | LESS_WORDS) or free_numbers(claim, t):
        return None
    at = toks.index("never")
    if any(a <= at < b for a, b in mention_spans(claim, t)):
        return None  # "i never met the dead man": a title's word
    # a value held in several columns is read in the one the claim names ("as a director")
    named = by_named_header(claim, t, {(c, t.rows[r][c]): None for r, c in claim.mentions})
    cols = [c for c, _ in named]
    if len(set(cols)) < len(cols):
        return None  # "footscray and carlton never play as away team": each, not together
    held: dict[str, set[int]] = {}
    for c, v in named:
        held.setdefault(v, set()).update(t.rows_holding(v, (c,)))
    if not held:
        return None
    together = set.intersection(*held.values())
    if not together and len(held) < 2:
        return None
    where = " & ".join(repr(v) for v in held)
    names = ", ".join(t.name(r) for r in sorted(together))
    return Verdict(REFUTES if together else SUPPORTS, "never", f"rows({where}) = [{names}]")


def top(claim: Claim, t: TableGrid) -> Verdict | None:
    """ "N of the top M <value>", "<row> ... in the top M": the rows a results table places 1
    to M (its one place column, "rank" or "pos"), counted for the one value the claim names
    among them ("Four of the top five were from England"), or the named row's place against M
    ("Larry Cummins finished in the top 5"). A table without a place column is not read: its
    order may be any."""
    place = t.place_column()
    found = _top_span(claim.tokens, len(t.rows)) if place is not None else None
    if place is None or found is None:
        return None
    (a, b), m = found
    toks = claim.tokens
    top_rows = {r for r in range(len(t.rows)) if (v := t.value(r, place)) is not None and v <= m}
    outside = [(r, c) for r, c in claim.mentions if not any(a <= i < b for i in _at(toks, t, r, c))]
    counts = [n for i, w in enumerate(toks) if not a <= i < b and (n := as_number(w)) is not None]
    if len(counts) > 1 or any(n != int(n) or not 0 <= n <= m for n in counts):
        return None
    values = {(c, t.rows[r][c]) for r, c in outside if c != place}
    if counts:  # "N of the top M <value>": the value's rows among the top M
        if len(values) != 1:
            return None
        (c, v), n = values.pop(), int(counts[0])
        held = len(t.rows_holding(v, (c,)) & top_rows)
        program = f"count({t.headers.get(c, c)} == {v!r} and {t.headers[place]} <= {m}) = {held}"
        return Verdict(SUPPORTS if held == n else REFUTES, "top", f"{program}; claimed {n}")
    rows = {
        r
        for r, c in outside
        if len(t.rows_holding(t.rows[r][c], (c,))) == 1 and t.rows[r][c] == t.name(r)
    }  # "<row> ... in the top M": one row, by its name ("the majority of the top 10 come from
    # spain" names a country, which one row holds, not a row)
    if len(rows) != 1:
        return None
    others = {w for c, h in t.headers.items() if c != place for w in tokenize(h)} - STOP_WORDS
    if others & set(toks[b : b + 4]):
        return None  # "in the top 5 of the airports by % change": ranked by another column
    row = rows.pop()
    have = t.value(row, place)
    if have is None:
        return None
    program = f"{t.headers[place]}[{t.name(row)}] = {fmt_number(have)}; claimed <= {m}"
    return Verdict(SUPPORTS if have <= m else REFUTES, "top", program)


#: The words before "the top M" that make it a set of rows ("of the top 5", "in the top 10").
_TOP_OPENERS = frozenset({"of", "in", "among", "within"})


def _top_span(tokens: list[str], n_rows: int) -> tuple[tuple[int, int], int] | None:
    """((start, end), M) of the one "of / in the top M" of the claim, M a whole number of rows
    fewer than the table's; None when there is none or more than one."""
    found = []
    for i in range(2, len(tokens) - 1):
        if tokens[i] != "top" or tokens[i - 1] != "the" or tokens[i - 2] not in _TOP_OPENERS:
            continue
        m = as_number(tokens[i + 1])
        if m is not None and m == int(m) and 1 < m < n_rows:
            found.append(((i - 2, i + 2), int(m)))
    return found[0] if len(found) == 1 else None


def _at(tokens: list[str], t: TableGrid, row: int, col: int) -> list[int]:
    """The token positions where the claim writes the cell ``(row, col)``."""
    cell = tokenize(t.rows[row][col])
    return [j for s in span_starts(tokens, cell) for j in range(s, s + len(cell))]
