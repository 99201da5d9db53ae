"""A small program executor for table claims: what a 6-layer model reading a linearized table
cannot compute (which row is the extreme one, how many rows share a value, sums, differences,
ranks, "only"/"all"/"none", the table's own shape) is parsed from the claim into a program over
the parsed table, run, and returned with its verdict and the program text (shown by ``verify``,
written in predictions).

Each operation answers only when it can ground the claim in the table: the rows it names (a cell,
or a row's header cell, whose whole text occurs in the claim), the column it names (a header
sharing its content words, or the only numeric column), the numbers it states. Otherwise it
abstains (None). Tables without column headers (infoboxes: key/value rows), empty tables and
non-numeric columns make it abstain, never raise.

How a verdict is combined with the model is not decided here: each operation's precision on
TabFact *train* statements, for each label it can give (``OP_PRECISION``, from the counts that
``bench/bench_table_rules.py --write`` keeps in ``executor_precision.json``; no model is loaded)
is its calibrated confidence, and ``wikicheck.verifier.predict`` lets it override the model
only where that confidence beats the model's own by the margin chosen on TabFact val's training
half (``combine``; docs/verifier.md has the numbers).

The package: ``text`` (words, numbers, cue words), ``grid`` (the parsed table and claim, and
how a claim is grounded in them), the operations by what they compute (``ranking``,
``counting``, ``reading``), and here the order they are tried in, ``execute`` and ``combine``.
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from rapidfuzz.distance import OSA

from wikicheck.common.quantities import MONTH_WORDS, as_ordinal, bare_year, span_end
from wikicheck.common.text import stem
from wikicheck.model import REFUTES, SUPPORTS, Element
from wikicheck.verifier.tables.counting import (
    compare_counts,
    count,
    never,
    only_all_none,
    shape,
    top,
)
from wikicheck.verifier.tables.grid import Claim, TableGrid, Verdict, is_season
from wikicheck.verifier.tables.ranking import (
    aggregate,
    compare,
    difference,
    margin,
    ordinal,
    same,
    superlative,
    timing,
)
from wikicheck.verifier.tables.reading import (
    OPERATION_WORDS,
    bound,
    bound_all,
    lookup,
    match,
    named_row,
    record,
)
from wikicheck.verifier.tables.text import (
    DEMONYMS,
    MAX_WORDS,
    MIN_WORDS,
    ORDINAL_WORDS,
    TITLE_MASK,
    as_number,
    parse_number,
    span_starts,
    tokenize,
)

__all__ = [
    "OPS",
    "OP_PRECISION",
    "PRECISION_FILE",
    "Verdict",
    "TableGrid",
    "combine",
    "conjunction",
    "executor_probabilities",
    "execute",
    "failures",
    "parse_number",
]

log = logging.getLogger("wikicheck.verifier.tables")


#: The operations, in the order they are tried (the more specific first).
OPS: dict[str, Callable[[Claim, TableGrid], Verdict | None]] = {
    "ordinal": ordinal,
    "top": top,
    "superlative": superlative,
    "difference": difference,
    "margin": margin,
    "comparison": compare,
    "timing": timing,
    "count_comparison": compare_counts,
    "aggregate": aggregate,
    "only_all_none": only_all_none,
    "never": never,
    "shape": shape,
    "record": record,
    "count": count,
    "same": same,
    "lookup": lookup,
    "match": match,
    "bound": bound,
    "bound_all": bound_all,
}


#: Negation words; the operations in ``_READS_NO_NEGATION`` would answer the claim without its
#: "not" (train statements: right about half of the time on negated claims), so they abstain.
_NEGATION = frozenset("not never n't no".split())
_READS_NO_NEGATION = frozenset(
    {
        "top",
        "superlative",
        "shape",
        "record",
        "timing",
        "count",
        "same",
        "lookup",
        "match",
        "bound",
        "margin",
    }
)


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

    counts = json.loads(files("wikicheck.verifier").joinpath(PRECISION_FILE).read_text())["counts"]
    return {
        (op, label): (c["right"] + 0.5 * PRIOR_COUNT) / (c["fired"] + PRIOR_COUNT)
        for op, by_label in counts.items()
        for label, c in by_label.items()
    }


#: (operation, label) -> calibrated confidence, from ``PRECISION_FILE``.
OP_PRECISION: dict[tuple[str, str], float] = _load_precision()


#: A comma, semicolon or colon that ends a word ("Bern,"), and the claim's final full stop
#: ("... is 1.34."), split off so that the word and the number read as a cell's (TabFact
#: statements come tokenised; raw claims do not). Decimal points and thousands separators stay
#: (a digit follows them), and so do full stops inside the claim ("P. clarkii", "26. ADAC", as
#: the cells write them).
_CLAUSE_PUNCTUATION = re.compile(r"(?<=\S\S)(?=[,;:](?:\s|$))|(?<=\S)(?=\.\s*$)")


def _without_title(
    toks: list[str], title: str, grid: TableGrid
) -> tuple[list[str], frozenset[float]]:
    """The claim's tokens with its naming of the table's page masked, and the title's numbers.

    Why: the page a claim names is its subject's context, not a condition on a row. "In the
    2007-08 Dallas Stars season, the ny ranger play at home on november 25" does not claim
    "dallas" of the home column, nor "In the 1979 VFL season ... on 23 june 1979" the number
    1979, nor "One Day" of the Sri Lanka One Day International records the number 1. A title
    inside a longer cell the claim names ("athlon x2" in "athlon x2 4050e") stays: it is the
    row's name there.
    """
    head = tokenize(_CLAUSE_PUNCTUATION.sub(" ", title))
    n = len(head)
    context = frozenset(x for w in head if (x := as_number(w)) is not None)
    starts = [i for i in range(len(toks) - n + 1 if n else 0) if toks[i : i + n] == head]
    if not starts:
        return toks, context  # most statements do not restate their page: no cell to read
    cells = [tokenize(grid.rows[r][c]) for r, c in grid.mentions(toks)]
    out = list(toks)
    for i in starts:
        if any(
            len(cell) > n and j <= i and i + n <= j + len(cell)
            for cell in cells
            for j in span_starts(toks, cell)
        ):
            continue  # the cell was matched as the mentions match, up to a plural ending
        out[i : i + n] = [TITLE_MASK] * n
    return out, context


#: What may open the clause naming a claim's page: "In the 1972 U.S. Open, ...".
_PAGE_CLAUSE_WORDS = frozenset({"in", "during", "at", "for", "of", "on", "the"})


def _without_page_clause(toks: list[str]) -> list[str]:
    """``toks`` without an opening clause that only names the page ("in the <title> ,"): the
    claim's first words are then its own, as they are in the statement it restates ("6 player
    be from the united state" opens with its count either way)."""
    i = 0
    while i < len(toks) and toks[i] in _PAGE_CLAUSE_WORDS:
        i += 1
    j = i
    while j < len(toks) and toks[j] == TITLE_MASK:
        j += 1
    if j > i and j < len(toks) and toks[j] == ",":
        return toks[j + 1 :]
    return toks


def _parse(claim: str, cells: Sequence[Element]) -> tuple[Claim, TableGrid] | None:
    grid = TableGrid.from_cells(cells)
    if not grid.rows or not grid.headers:
        return None  # an infobox (key/value rows, no column headers) has nothing to count or rank
    toks = tokenize(_CLAUSE_PUNCTUATION.sub(" ", claim))
    context: frozenset[float] = frozenset()
    title = next((el.page for el in cells if el.type == "cell" and el.page), "")
    if title:
        toks, context = _without_title(toks, title, grid)
        toks = _without_page_clause(toks)
    toks = _with_corrected(toks, grid)
    toks = _with_countries(_with_ordinals(_with_initials(_with_not(toks, grid), grid), grid), grid)
    toks = _with_numbered(_with_participles(_with_respelled(toks, grid), grid), grid)
    toks = _with_seasons(_with_scores(_with_plurals(toks, grid), grid), grid)
    toks = _with_value_last(toks)
    mentions = grid.mentions(toks)
    words = set(toks) - {TITLE_MASK} - _cell_cues(toks, mentions, grid)
    return Claim(toks, words, mentions, context), grid


def _cell_cues(toks: list[str], mentions: list[tuple[int, int]], grid: TableGrid) -> set[str]:
    """Cue words the claim writes only inside cells of two words or more that it names: "the
    air date of mean chicks" names a title, asks for no average; "the most valuable player"
    award asks for no maximum. They stay in the claim's tokens, out of its words."""
    inside = {
        i for r, c in mentions if len(cell := tokenize(grid.rows[r][c])) > 1
        for a in span_starts(toks, cell) for i in range(a, a + len(cell))
    }  # fmt: skip
    cues = {w for i, w in enumerate(toks) if i in inside and w in OPERATION_WORDS}
    return cues - {w for i, w in enumerate(toks) if i not in inside}


#: Contractions whose verb is not the word before "n't" ("can't", "won't").
_CONTRACTED = {"can": "can", "won": "will", "ain": "is"}


def _with_not(toks: list[str], grid: TableGrid) -> list[str]:
    """ "didn't" (tokens "didn", "'", "t") written "did not", so that a contracted negation
    is read as the negation it is; not where a cell writes it ("Don't Just Do It")."""
    if "'" not in toks:
        return toks
    texts, _ = _cells_and_words(grid)
    kept = {
        words[i - 2]
        for text in texts
        if "'" in text
        for words in [tokenize(text)]
        for i in _contractions(words)
    }
    ends = _contractions(toks)
    out: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if i + 2 in ends and t not in kept:
            out += [_CONTRACTED.get(t, t[:-1]), "not"]
            i += 3
            continue
        out.append(t)
        i += 1
    return out


def _contractions(toks: list[str]) -> set[int]:
    """Where "n't" ends in ``toks``: the index of each "t" after a word ending in "n" and "'"."""
    return {
        i
        for i in range(2, len(toks))
        if toks[i] == "t"
        and toks[i - 1] == "'"
        and toks[i - 2].endswith("n")
        and len(toks[i - 2]) > 2
    }


def _is_initial(token: str) -> bool:
    return len(token) == 2 and token[0].isalpha() and token[1] == "."


def _with_initials(toks: list[str], grid: TableGrid) -> list[str]:
    """The claim's tokens with a name's middle initial put back where a cell writes it: "Walter
    Capps" is the cell "walter h. capps" (one cell of the table so read, the first and last
    name kept), so that every operation finds the cell as the claim writes it."""
    aliases: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for row in grid.rows:
        for text in row.values():
            cell = tokenize(text)
            short = tuple(t for t in cell if not _is_initial(t))
            if 2 <= len(short) < len(cell) and not _is_initial(cell[0]):
                aliases.setdefault(short, set()).add(tuple(cell))
    out = list(toks)
    for short, cells in aliases.items():
        if len(cells) != 1:
            continue
        (cell,) = cells
        if span_starts(out, list(cell)):
            continue
        for i in reversed(span_starts(out, list(short))):
            out[i : i + len(short)] = cell
    return out


def _cells_and_words(grid: TableGrid) -> tuple[frozenset[str], frozenset[str]]:
    """The table's cell texts, and every word its cells and headers write (read once per grid)."""
    return grid.texts_and_words


def _with_ordinals(toks: list[str], grid: TableGrid) -> list[str]:
    """The claim's word ordinals written as the table writes them: "its third appearance" is
    the cell "3rd", where a cell is that ordinal in figures and no cell or header has the word
    (a header's "first" of "first elected" stays a word)."""
    if not any(t in ORDINAL_WORDS for t in toks):
        return toks
    texts, words = _cells_and_words(grid)
    figures = {n: text for text in texts if (n := as_ordinal(text)) is not None}
    return [
        figures[n] if (n := ORDINAL_WORDS.get(t)) in figures and t not in words else t for t in toks
    ]


def _with_countries(toks: list[str], grid: TableGrid) -> list[str]:
    """The claim's nationality words written as the country a cell names: "three English
    players" counts the cells "england", where no cell or header has the word itself and one of
    its countries is a whole cell."""
    if not any(t in DEMONYMS for t in toks):
        return toks
    texts, words = _cells_and_words(grid)
    out: list[str] = []
    for t in toks:
        named = [c for c in DEMONYMS.get(t, ()) if c in texts] if t not in words else []
        out.extend(tokenize(named[0]) if len(named) == 1 else [t])
    return out


def _with_respelled(toks: list[str], grid: TableGrid) -> list[str]:
    """The claim's writing of a cell the grid respelled ("on 1997 - 04 - 12", a numeric date
    now "12 april 1997") respelled too, so that it still names the cell."""
    out = list(toks)
    for written, read in grid.respelled.items():
        old, new = tokenize(written), tokenize(read)
        for i in reversed(span_starts(out, old)):
            out[i : i + len(old)] = new
    return out


def _with_corrected(toks: list[str], grid: TableGrid) -> list[str]:
    """A misspelt word of the claim read as the one table word it is a slip of the keys from
    ("the highest attendace", "south melboune"): six letters or more, one letter left out,
    added, changed or two swapped, inside the word (its first and last letters kept, so
    "scored" stays "scored" beside a "score" column and "player" beside "players")."""
    _, words = _cells_and_words(grid)
    out = list(toks)
    for i, t in enumerate(toks):
        if len(t) < 6 or not t.isalpha() or t in words:
            continue
        near = {
            w
            for w in words
            if abs(len(w) - len(t)) <= 1
            and w[0] == t[0]
            and w[-1] == t[-1]
            and w.isalpha()
            and OSA.distance(t, w, score_cutoff=1) <= 1
        }
        if len(near) == 1:
            out[i] = near.pop()
    return out


def _with_numbered(toks: list[str], grid: TableGrid) -> list[str]:
    """ "the 18th episode" written as the table numbers it, "episode 18", where a column headed
    by that word holds the number (a claim's "week 3" names a row; "the 3rd week" did not)."""
    out: list[str] = []
    i = 0
    while i < len(toks):
        dated = i > 0 and toks[i - 1] in MONTH_WORDS  # "the october 7th game": a day
        n = (
            as_ordinal(toks[i])
            if i + 1 < len(toks) and toks[i][:1].isdigit() and not dated
            else None
        )
        if n is not None:
            word, cell = toks[i + 1], str(int(n))
            cols = [c for c, h in grid.headers.items() if {word, word + "s"} & set(tokenize(h))]
            if any(row.get(c) == cell for c in cols for row in grid.rows):
                out += [word, cell]
                i += 2
                continue
        out.append(toks[i])
        i += 1
    return out


def _with_participles(toks: list[str], grid: TableGrid) -> list[str]:
    """A lemmatised claim's participle written as a cell of two words or more writes it: "the
    match against carlisle unite" is the cell "carlisle united", "the unite state" the cell
    "united states", "the film float life" the cell "floating life" (no cell or header writes
    the claim's form)."""
    texts, words = _cells_and_words(grid)
    forms: dict[str, set[str]] = {}
    for w in words:
        if len(w) > 4 and w.endswith("ed"):
            lemmas = {w[:-1], w[:-2]}
        elif len(w) > 5 and w.endswith("ing"):
            lemmas = {w[:-3], w[:-3] + "e"} | ({w[:-4]} if w[-4] == w[-5] else set())
        else:
            continue
        for lemma in lemmas - words:
            forms.setdefault(lemma, set()).add(w)
    if not forms.keys() & set(toks):
        return toks
    cells = [cell for text in texts if len(cell := tokenize(text)) > 1]
    out = list(toks)
    for i, t in enumerate(toks):
        if t not in forms:
            continue
        written = {
            w
            for w in forms[t]
            for cell in cells
            for k, x in enumerate(cell)
            if x == w and k <= i and _writes(out[i - k : i - k + len(cell)], cell, k)
        }
        if len(written) == 1:
            out[i] = written.pop()
    return out


def _with_plurals(toks: list[str], grid: TableGrid) -> list[str]:
    """A lemmatised claim's singular written as the cell it stands for: "the original air date
    of mean chick" is the cell "mean chicks", "the indiana pacer" the cell "indiana pacers".
    Only a cell that no other cell writes alike once each word is made singular (:func:`stem`),
    of two words or more or of one word of six letters or more whose singular no cell or header
    writes ("the nickname bulldog": "bulldogs"), where the claim does not write a cell there
    already. A cell with a qualifier in brackets is also named without it ("the brandon wheat
    king" is the cell "brandon wheat kings (wchl)")."""
    texts, words = _cells_and_words(grid)
    written = {tuple(tokenize(text)) for text in texts}
    alike: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for cell in written:
        key = tuple(stem(w) for w in cell)
        if key != cell and (len(cell) > 1 or (len(cell[0]) > 5 and key[0] not in words)):
            alike.setdefault(key, set()).add(cell)
        base = _without_qualifier(cell)
        if len(base) > 1 and base not in written:
            alike.setdefault(tuple(stem(w) for w in base), set()).add(cell)
    if not alike:
        return toks
    out = list(toks)
    # the longest names first, then in their order: the same claim reads the same on any run
    for key, cells in sorted(alike.items(), key=lambda kv: (-len(kv[0]), kv[0])):
        if len(cells) != 1:
            continue
        (cell,) = cells
        n = len(key)
        stems = [stem(w) for w in out]  # a qualified cell is longer than its name
        for i in reversed(range(len(out) - n + 1)):
            span = tuple(out[i : i + n])
            if tuple(stems[i : i + n]) != key or span in written:
                continue
            if tuple(out[i : i + len(cell)]) != cell:  # not the cell written whole
                out[i : i + n] = cell
    return out


def _with_value_last(toks: list[str]) -> list[str]:
    """A claim that opens with the extreme's value written with the value last: "7168 be the
    highest attendance" is "the highest attendance be 7168", the form that states a value."""
    if (
        len(toks) > 4
        and as_number(toks[0]) is not None
        and toks[1:3] == ["be", "the"]
        and toks[3] in MAX_WORDS | MIN_WORDS
    ):
        return [*toks[2:], "be", toks[0]]
    return toks


def _without_qualifier(cell: tuple[str, ...]) -> tuple[str, ...]:
    """A tokenised cell without a trailing qualifier in brackets ("(wchl)", "(df)")."""
    if len(cell) > 2 and cell[-1] == ")" and "(" in cell:
        return cell[: len(cell) - 1 - cell[::-1].index("(")]
    return cell


def _with_scores(toks: list[str], grid: TableGrid) -> list[str]:
    """A score the claim writes with "to" written as the table writes scores: "beat the toronto
    eagle 42 to 64" is "42 - 64" where a column's cells are such scores (two numbers joined by a
    dash, not a span of years); "from 2004 to 2005" stays a span."""
    if "to" not in toks:
        return toks
    scored = False
    for c in grid.headers:
        cells = [tokenize(row[c]) for row in grid.rows if row.get(c)]
        pairs = [
            x for x in cells if len(x) == 3 and x[1] == "-" and x[0].isdigit() and x[2].isdigit()
        ]
        if cells and 2 * len(pairs) > len(cells) and not any(bare_year(x[0]) for x in pairs):
            scored = True
            break
    if not scored:
        return toks
    out = list(toks)
    for i in range(1, len(toks) - 1):
        a, b = toks[i - 1], toks[i + 1]
        if toks[i] == "to" and a.isdigit() and b.isdigit() and not (bare_year(a) or bare_year(b)):
            out[i] = "-"
    return out


def _with_seasons(toks: list[str], grid: TableGrid) -> list[str]:
    """A span of years the claim writes with "to" written as the one cell that writes it as a
    season: "from the year 2004 to 2005" is the cell "2004 - 05" (or "2004 - 2005")."""
    if "to" not in toks:
        return toks
    seasons: dict[tuple[int, int], set[tuple[str, ...]]] = {}
    for row in grid.rows:
        for text in row.values():
            if is_season(cell := tokenize(text)):
                start = int(cell[0])
                seasons.setdefault((start, span_end(start, cell[2])), set()).add(tuple(cell))
    if not seasons:
        return toks
    out: list[str] = []
    i = 0
    while i < len(toks):
        a, b = bare_year(toks[i]), bare_year(toks[i + 2]) if i + 2 < len(toks) else None
        cells = seasons.get((a, b), set()) if a and b and toks[i + 1] == "to" else set()
        if len(cells) == 1:
            out += list(next(iter(cells)))
            i += 3
            continue
        out.append(toks[i])
        i += 1
    return out


def _writes(span: list[str], cell: list[str], at: int) -> bool:
    """Whether ``span`` is ``cell`` but for its word ``at`` (the participle put back) and a
    plural ending."""
    if len(span) != len(cell):
        return False
    return all(
        j == at or a == b or a + "s" == b or a == b + "s"
        for j, (a, b) in enumerate(zip(span, cell))
    )


def _negations(claim: Claim, grid: TableGrid) -> list[int]:
    """Where the claim says "not": its negation words outside the cells and column headers it
    names. "the episode no safe place have 8.95 million us viewer" and "home but not alone be
    episode number 57" name titles; "the highest no in season" names a column."""
    if not claim.words & _NEGATION:
        return []
    named: set[int] = set()
    phrases = [tokenize(grid.rows[r][c]) for r, c in claim.mentions]
    phrases += [tokenize(h) for h in grid.headers.values()]
    for phrase in phrases:
        if phrase and set(phrase) & _NEGATION:
            for j in span_starts(claim.tokens, phrase):
                named.update(range(j, j + len(phrase)))
    return [i for i, t in enumerate(claim.tokens) if t in _NEGATION and i not in named]


#: Set (to anything but "" or "0") to let an operation's exception propagate instead of being
#: logged and skipped; the test suite sets it, so that a bug fails a test rather than an answer.
STRICT_ENV = "WIKICHECK_STRICT_EXECUTOR"

_FAILURES: Counter = Counter()

_T = TypeVar("_T")


def failures() -> dict[str, int]:
    """How many times each stage of the executor ("parse" or an operation) raised in this
    process and was skipped; summaries report the difference over their run."""
    return dict(_FAILURES)


def _guarded(stage: str, claim: str, run: Callable[[], _T | None]) -> _T | None:
    """``run()``, or None when it raises: one operation's bug on one table costs that claim the
    operation's answer, not a whole batch its run (the model's label stands). Logged with the
    stage, the error and the claim, and counted (:func:`failures`)."""
    try:
        return run()
    except Exception as exc:
        if os.environ.get(STRICT_ENV, "") not in ("", "0"):
            raise
        _FAILURES[stage] += 1
        log.warning(
            "table executor: %s raised %s: %s; skipped for the claim %r",
            stage,
            type(exc).__name__,
            exc,
            claim[:200],
        )
        return None


def execute(claim: str, cells: Sequence[Element]) -> Verdict | None:
    """The first operation that can ground ``claim`` in the table, run; None when none can.
    A claim no operation reads whole may be clauses each one reads (:func:`conjunction`).
    An operation that raises is skipped (:func:`_guarded`)."""
    parsed = _guarded("parse", claim, lambda: _parse(claim, cells))
    if parsed is None:
        return None
    return _first_answer(*parsed) or _guarded("conjunction", claim, lambda: conjunction(*parsed))


def _first_answer(claim: Claim, grid: TableGrid) -> Verdict | None:
    text = " ".join(claim.tokens)
    said = _guarded("negation", text, lambda: _negations(claim, grid))
    if said is None:
        return None
    negated = bool(said)
    for op, rule in OPS.items():
        if negated and op in _READS_NO_NEGATION:
            continue
        verdict = _guarded(op, text, lambda rule=rule: rule(claim, grid))
        if verdict:
            return verdict
    affirmed = (
        _guarded("negation", text, lambda: _without_not(claim, grid, said)) if negated else None
    )
    flipped = [(op, rule) for op, rule in OPS.items() if op in _READS_NO_NEGATION - _COUNTS]
    for op, rule in flipped if affirmed else ():  # in the operations' order: same answer each run
        verdict = _guarded(op, text, lambda rule=rule: rule(affirmed, grid))
        if verdict:
            label = REFUTES if verdict.label == SUPPORTS else SUPPORTS
            return Verdict(label, "negation", f"not ({verdict.program})")
    return None


#: Operations that count rows: "did not win 3 games" may mean fewer, not another number.
_COUNTS = frozenset({"count", "shape", "record"})
#: Words after "not" that make it more than the negation of one statement ("not only", "not
#: a single", "not even 1": a count), and words joining a negated clause to another.
_NOT_SIMPLE = frozenset("only even a an any single just until yet both all every".split())
_CONTRASTS = frozenset(
    "but while whereas although though however instead rather nor neither either except".split()
    + [",", "and", "which", "who"]  # a negated clause among others
)


def _without_not(claim: Claim, grid: TableGrid, said: list[int]) -> Claim | None:
    """The claim without its one "not" or "never" ("Ryan Russell does not play center"), whose
    answer, flipped, is the claim's; None where the negation is not that simple. ``said``: the
    claim's :func:`_negations`."""
    toks = claim.tokens
    # a comma after the page's title ("At the 1952 Belgian Grand Prix, ...") joins no clause
    joins = {t for j, t in enumerate(toks) if t != "," or toks[j - 1 : j] != [TITLE_MASK]}
    if len(said) != 1 or toks[said[0]] not in ("not", "never") or joins & _CONTRASTS:
        return None
    i = said[0]
    if toks[i + 1 : i + 2] and toks[i + 1] in _NOT_SIMPLE:
        return None
    rest = toks[:i] + toks[i + 1 :]
    return Claim(rest, set(rest), grid.mentions(rest), claim.context)


def _few_words(clause: list[str]) -> bool:
    return len([t for t in clause if t != TITLE_MASK]) < 3


#: What one clause may be read by: a row's values. A clause's superlative, count or average
#: loses the condition the other clause sets ("A danced 7 times, with an average rank of 6").
_CLAUSE_OPS = frozenset({"lookup", "match", "bound"})

#: Where a claim's clauses meet: ", and", ", while", ", but", "and", "while", "whereas", "but",
#: "as oppose to", a comma (longest first: ", while and" is one join).
_CLAUSE_JOINS = (
    (",", "while", "and"), (",", "and"), (",", "while"), (",", "but"), ("and",), ("while",),
    ("whereas",), ("as", "oppose", "to"), ("but",), (",",),
)  # fmt: skip


#: Words that open a clause about the subject the clause before named ("and a finish of t30",
#: "with a silver count of zero").
_CARRY_WORDS = frozenset("a an with for its his her their".split())


def conjunction(claim: Claim, grid: TableGrid) -> Verdict | None:
    """ "<clause>, and <clause>": each clause read by the first operation that grounds it;
    SUPPORTS when every clause is supported, REFUTES when one is refuted; None unless every
    clause (three words at least) is answered. "Nino Farina drove a Ferrari and Robert Manzon
    drove a Gordini" names two rows, which ``match`` would look for in one. Why every clause:
    on TabFact train statements no operation read, one refuted clause beside one unread was
    right 0.62 of the time, every clause answered 0.85, every clause read by its row 0.94."""
    tokens = claim.tokens
    clauses: list[list[str]] = [[]]
    i = 0
    while i < len(tokens):
        join = next((j for j in _CLAUSE_JOINS if tuple(tokens[i : i + len(j)]) == j), None)
        if join is None:
            clauses[-1].append(tokens[i])
            i += 1
        else:
            clauses.append([])
            i += len(join)
    # "In the 1952 Belgian Grand Prix, ...": the page's name before a comma is no clause
    clauses = [c for c in clauses if not (TITLE_MASK in c and _few_words(c))]
    if len(clauses) < 2 or any(_few_words(c) for c in clauses):
        return None
    verdicts = []
    subject: list[str] = []
    for clause in clauses:
        toks = [t for t in clause if t != TITLE_MASK]
        part = Claim(toks, set(toks), grid.mentions(toks), claim.context)
        if subject and (not part.mentions or toks[0] in _CARRY_WORDS):
            # "steve jones have a total of 288 and a finish of t30": the row named first is
            # the subject of a clause that names none
            toks = subject + toks
            part = Claim(toks, set(toks), grid.mentions(toks), claim.context)
        elif not subject and (name := named_row(part, grid)):
            subject = tokenize(name)
        verdict = _first_answer(part, grid)
        if verdict is None or verdict.op not in _CLAUSE_OPS:
            return None
        verdicts.append(verdict)
    label = REFUTES if any(v.label == REFUTES for v in verdicts) else SUPPORTS
    return Verdict(label, "conjunction", " and ".join(f"({v.program})" for v in verdicts))


def executor_probabilities(verdict: Verdict, probabilities: dict[str, float]) -> dict[str, float]:
    """The probabilities shown when the executor's verdict replaced the model's label: the
    (operation, label)'s train precision, the executor's confidence in :func:`combine`, splits the
    shown SUPPORTS + REFUTES mass; NOT ENOUGH INFO keeps its number."""
    confidence = OP_PRECISION.get((verdict.op, verdict.label))
    s, r = probabilities.get(SUPPORTS, 0.0), probabilities.get(REFUTES, 0.0)
    if confidence is None or verdict.label not in (SUPPORTS, REFUTES):
        return dict(probabilities)
    other = REFUTES if verdict.label == SUPPORTS else SUPPORTS
    out = dict(probabilities)
    out[verdict.label], out[other] = (
        round((s + r) * confidence, 6),
        round((s + r) * (1 - confidence), 6),
    )
    return out


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
