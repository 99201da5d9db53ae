"""Opposite words: a claim that says "bigger" where its subject's page says "smaller".

A verifier reading "The Bullenkuhle belongs to this group, albeit considerably smaller." for
the claim "Bullenkuhle belongs to this group, albeit considerably bigger, ..." answers SUPPORTS:
every other word is there. The numbers check (:mod:`wikicheck.verifier.sufficiency`) compares
values and the winner check (:mod:`wikicheck.verifier.slots`) the winner; this compares the
words that state a direction or a degree, where one word turned into its opposite makes a
refuted claim.

The claim's word conflicts with a sentence of a page the claim names when the sentence holds
the word's opposite and not the word (and no such sentence states the word in the same phrase),
the claim holds the opposite nowhere ("North and South Carolina"), and the opposite stands
among words the claim has around its word (two either side of the claim's, three of the
sentence's): the same phrase with one word turned round.

The pairs are adjectives of degree, direction and kind and a few verbs, written down as a list;
words that sentences use of other things than the claim's are not in it ("left", "right",
"first", "last", "won", "lost", "more", "all", "same"). On the training side of FEVEROUS-S
dev-tune (the 60% the verifier trained on) with their gold sentences, the check finds 8
conflicts, all in refuted claims; "before" / "after" and "opened" / "closed", left out, would
add one refuted claim and one supported (``bench/bench_opposites.py [--extra "before after"
"opened closed"]``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.common.text import STOPWORDS, fold, names_title
from wikicheck.model import Element

__all__ = ["OPPOSITES", "OppositeCheck", "check_opposites"]

_PAIRS = (
    "bigger smaller|larger smaller|big small|large small|higher lower|high low|upper lower|"
    "largest smallest|biggest smallest|highest lowest|longest shortest|longer shorter|"
    "long short|tall short|older younger|oldest youngest|old young|earlier later|"
    "majority minority|maximum minimum|major minor|senior junior|successful unsuccessful|"
    "success failure|positive negative|easier harder|easy difficult|stronger weaker|"
    "strong weak|heavier lighter|faster slower|fastest slowest|fast slow|best worst|"
    "better worse|ancient modern|wet dry|hot cold|rich poor|cheap expensive|"
    "internal external|domestic foreign|private public|urban rural|common rare|male female|"
    "winner loser|victory defeat|offensive defensive|imports exports|bought sold|born died|"
    "increase decrease|increased decreased|legal illegal|official unofficial|"
    "possible impossible|popular unpopular|professional amateur|wide narrow|deep shallow|"
    "thick thin|accepted rejected|approved rejected|allowed banned|supported opposed|"
    "agreed refused|north south|east west|northern southern|eastern western"
)
#: Each word with the words that say its opposite.
OPPOSITES: dict[str, frozenset[str]] = {}
for _pair in _PAIRS.split("|"):
    _a, _b = _pair.split()
    OPPOSITES[_a] = OPPOSITES.get(_a, frozenset()) | {_b}
    OPPOSITES[_b] = OPPOSITES.get(_b, frozenset()) | {_a}

_WORD = re.compile(r"\w+")


@dataclass(slots=True)
class OppositeCheck:
    """The claim's words whose opposite a sentence of its page states in the same phrase
    (``conflicts``: ``claimed``, ``found`` and the element ``id``)."""

    conflicts: list[dict[str, str]] = field(default_factory=list)
    #: The claim's words that a sentence of its page states in the same phrase.
    agreeing: list[str] = field(default_factory=list)

    @property
    def conflict(self) -> bool:
        claimed = {c["claimed"] for c in self.conflicts}
        return bool(claimed - set(self.agreeing))

    def to_dict(self) -> dict[str, Any]:
        return {"conflicts": self.conflicts, "agreeing": self.agreeing}


def _near(words: list[str], i: int, span: int) -> set[str]:
    return {w for w in words[max(0, i - span) : i] + words[i + 1 : i + 1 + span]
            if len(w) > 2 and w not in STOPWORDS}  # fmt: skip


def check_opposites(claim: str, evidence: Sequence[Element]) -> OppositeCheck:
    """The sentences of pages the claim names that state the opposite of one of its words."""
    out = OppositeCheck()
    words = _WORD.findall(fold(claim))
    present = set(words)
    asked = [(i, w) for i, w in enumerate(words) if w in OPPOSITES and not OPPOSITES[w] & present]
    if not asked:
        return out
    for el in evidence:
        if el.type != "sentence" or not names_title(claim, el.page):
            continue
        said = _WORD.findall(fold(el.text))
        if not said:
            continue
        have = set(said)
        for i, w in asked:
            around = _near(words, i, 2)
            if w in have:
                if any(s == w and around & _near(said, j, 3) for j, s in enumerate(said)):
                    out.agreeing.append(w)
                continue
            for j, s in enumerate(said):
                if s in OPPOSITES[w] and around & _near(said, j, 3):
                    out.conflicts.append({"claimed": w, "found": s, "id": el.id})
                    break
    return out
