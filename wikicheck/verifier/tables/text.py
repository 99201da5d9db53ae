"""Words and numbers of claims and cells, shared by every operation.

Why one place: the operations must agree on how a claim is tokenised, what counts as a number
("1,234", "three") and which cue words mean "more", "highest" or "total"; a second copy of a cue
list would let two operations read the same claim differently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from wikicheck.common.quantities import as_number, parse_number
from wikicheck.common.text import TABLE_CLAIM_STOP_WORDS, stem

__all__ = ["as_number", "parse_number", "tokenize", "contains_span", "fmt_number"]

_SPLIT = re.compile(r"([()\[\]\"';:!?$£€])")
#: A hyphen inside a word; :func:`_spaced_hyphens` spaces it where it joins two letters.
_INNER_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


def _spaced_hyphens(text: str) -> str:
    """ "HWM-Alta" as the cell "HWM - Alta" (TabFact tables write joined names with spaced
    hyphens); numbers keep theirs ("14-6", "2012-08-06", "1999-00")."""
    return _INNER_HYPHEN.sub(
        lambda m: " - " if text[m.start() - 1].isalpha() and text[m.end()].isalpha() else "-",
        text,
    )


#: Words of a table claim that name no column or value (one list, kept with the other stop-word
#: lists in :mod:`wikicheck.common.text`; the operations read it under this name).
STOP_WORDS = TABLE_CLAIM_STOP_WORDS
#: What stands in for the words of the page title in a claim: a token no cell or cue matches.
TITLE_MASK = "\u2063"
#: Cue words: which way a claim orders, compares or aggregates a column.
MAX_WORDS = frozenset("highest most largest biggest greatest longest maximum top best".split())
MIN_WORDS = frozenset("lowest least fewest smallest shortest minimum worst".split())
MORE_WORDS = frozenset("more higher larger greater bigger longer better older later".split())
LESS_WORDS = frozenset("less lower smaller fewer shorter worse younger earlier".split())
TOTAL_WORDS = frozenset("total sum combined altogether overall".split())
AVERAGE_WORDS = frozenset("average mean".split())
#: Nationality words and the country names a table's cells write for them ("three English
#: players" counts "england"; "German" is "germany" or, in an older table, "west germany").
#: No library of ours knows demonyms; these are the nations sports and election tables name.
DEMONYMS: dict[str, tuple[str, ...]] = {
    "american": ("united states", "usa"),
    "argentine": ("argentina",),
    "argentinian": ("argentina",),
    "australian": ("australia",),
    "austrian": ("austria",),
    "belarusian": ("belarus",),
    "belgian": ("belgium",),
    "brazilian": ("brazil",),
    "british": ("great britain", "united kingdom"),
    "bulgarian": ("bulgaria",),
    "canadian": ("canada",),
    "chilean": ("chile",),
    "chinese": ("china",),
    "colombian": ("colombia",),
    "croatian": ("croatia",),
    "cuban": ("cuba",),
    "czech": ("czech republic", "czechoslovakia"),
    "danish": ("denmark",),
    "dutch": ("netherlands",),
    "egyptian": ("egypt",),
    "english": ("england",),
    "ethiopian": ("ethiopia",),
    "fijian": ("fiji",),
    "finnish": ("finland",),
    "french": ("france",),
    "german": ("germany", "west germany", "east germany"),
    "greek": ("greece",),
    "hungarian": ("hungary",),
    "indian": ("india",),
    "irish": ("ireland", "republic of ireland"),
    "israeli": ("israel",),
    "italian": ("italy",),
    "jamaican": ("jamaica",),
    "japanese": ("japan",),
    "kenyan": ("kenya",),
    "mexican": ("mexico",),
    "moroccan": ("morocco",),
    "nigerian": ("nigeria",),
    "norwegian": ("norway",),
    "peruvian": ("peru",),
    "polish": ("poland",),
    "portuguese": ("portugal",),
    "romanian": ("romania",),
    "russian": ("russia", "soviet union"),
    "scottish": ("scotland",),
    "serbian": ("serbia",),
    "slovak": ("slovakia",),
    "slovenian": ("slovenia",),
    "spanish": ("spain",),
    "swedish": ("sweden",),
    "swiss": ("switzerland",),
    "tanzanian": ("tanzania",),
    "turkish": ("turkey",),
    "ukrainian": ("ukraine",),
    "uruguayan": ("uruguay",),
    "venezuelan": ("venezuela",),
    "welsh": ("wales",),
    "zimbabwean": ("zimbabwe",),
}
DEMONYMS |= {w + "s": v for w, v in DEMONYMS.items() if w.endswith("n")}  # "three kenyans"
DEMONYMS |= {"swedes": DEMONYMS["swedish"], "danes": DEMONYMS["danish"],
             "finns": DEMONYMS["finnish"], "scots": DEMONYMS["scottish"],
             "spaniards": DEMONYMS["spanish"]}  # fmt: skip
#: Ordinals written as words, and their numbers.
ORDINAL_WORDS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth".split()
    )
}


def tokenize(text: str) -> list[str]:
    """Lower-cased tokens, brackets and quotes split off, and a hyphen joining two words
    (TabFact statements come tokenised, with " - " between joined names)."""
    text = _spaced_hyphens(text.lower().replace("\u2013", "-"))
    return _SPLIT.sub(r" \1 ", text).split()


@lru_cache(maxsize=1 << 16)
def _key(word: str) -> str:
    """A word as spans compare it (read once per word: every cell of a table is looked for in
    the claim)."""
    return stem(word) if word[:1].isalpha() else word


def span_starts(hay: list[str], needle: list[str]) -> list[int]:
    """Where ``needle`` occurs in ``hay``, word by word up to a plural ending: TabFact statements
    are lemmatised ("the chicago rocket" for the cell "chicago rockets", "the spur play")."""
    n = len(needle)
    if not n:
        return []
    keys, want = [_key(w) for w in hay], [_key(w) for w in needle]
    return [i for i in range(len(hay) - n + 1) if keys[i : i + n] == want]


def contains_span(hay: list[str], needle: list[str]) -> bool:
    return bool(span_starts(hay, needle))


def fmt_number(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


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


RELATION_TEST: dict[str, Callable[[int, int], bool]] = {
    "=": lambda n, k: n == k,
    ">": lambda n, k: n > k,
    ">=": lambda n, k: n >= k,
    "<": lambda n, k: n < k,
    "<=": lambda n, k: n <= k,
}


def relation_before(toks: list[str], i: int) -> str | None:
    """The relation ("more than" -> ">") the tokens just before position ``i`` state, if any."""
    return next(
        (
            rel
            for words, rel in _COUNT_RELATIONS
            if tuple(toks[max(0, i - len(words)) : i]) == words
        ),
        None,
    )
