"""Who won: the claim's winner against the winner its event's page states.

A verifier reading "Ayrton Senna won the 1989 British Grand Prix." beside "Prost's Brazilian
teammate, Ayrton Senna, took pole position ..." and "The 64-lap race was won by Frenchman Alain
Prost ..." answers SUPPORTS: the claim's names are all there. The numbers check
(:mod:`wikicheck.verifier.sufficiency`) compares values; this compares the one entity slot
that claims about sports results, elections and awards turn on most, the winner.

A claim states a winner as "<Name> won <event>" or "<event> was won by <Name>". The evidence
states one, on the page the event names (``names_title(event, page)``), as "... <the race /
the event / the page's subject> was won by <Name>" or "<Name> won the <race / event / page's
subject>". When the evidence states a winner and no winner statement of it mentions a word of
the claimed winner's name, the claim's winner is contradicted (``conflicts``); a statement
that mentions it agrees, whatever else it names ("won by Prost ahead of Senna" agrees with
either), so the check errs towards silence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.common.quantities import quantities, same_value
from wikicheck.common.text import NAME_RUN, STOPWORDS, fold, names_title, stem_key, stem_keys
from wikicheck.model import Element

__all__ = ["WinnerCheck", "claimed_winner", "check_winner"]

_WON = re.compile(r"\bwon\b")
_WON_BY = re.compile(r"\b(?:was|were|is|are|been)\s+won\s+by\s+(?:the\s+)?")
_WORD = re.compile(r"\w+")
#: What a page about an event calls the event in its own sentences.
EVENT_WORDS = frozenset(
    "race event tournament championship championships election game match final competition "
    "contest cup trophy prize award title rally marathon edition stage series grand prix "
    "derby bowl open classic".split()
)


@dataclass(slots=True)
class WinnerCheck:
    """The claim's winner (``claimed``) and event, and the winner statements of the evidence
    that agree with it or name someone else (``conflicts``: ``found`` and the element ``id``)."""

    claimed: str | None = None
    event: str | None = None
    agreeing: list[str] = field(default_factory=list)
    conflicts: list[dict[str, str]] = field(default_factory=list)

    @property
    def conflict(self) -> bool:
        return bool(self.conflicts) and not self.agreeing

    def to_dict(self) -> dict[str, Any]:
        return {
            "claimed": self.claimed,
            "event": self.event,
            "agreeing": self.agreeing,
            "conflicts": self.conflicts if self.conflict else [],
        }


def _is_name(text: str) -> bool:
    words = _WORD.findall(fold(text))
    return any(c.isalpha() for c in text) and not all(w in STOPWORDS for w in words)


def _name_ending_at(text: str, end: int) -> str | None:
    """The capitalised run that ends right before ``end`` (spaces aside), if any."""
    head = text[:end].rstrip()
    best = None
    for m in NAME_RUN.finditer(head):
        if m.end() == len(head):
            best = m.group(0)
    if best is None:
        return None
    # a sentence opener is not part of a name ("The McLaren team won ...": "McLaren")
    words = best.split()
    while words and (fold(words[0]) in STOPWORDS or not any(c.isalpha() for c in words[0])):
        words = words[1:]  # "In 1989 Prost won": the year is not the winner
    name = " ".join(words).strip(" .,'’")
    return name if name and _is_name(name) else None


def _name_at(text: str, start: int) -> str | None:
    m = NAME_RUN.match(text, start)
    if m is None:
        return None
    name = m.group(0).strip(" .,'’")
    return name if _is_name(name) else None


def claimed_winner(claim: str) -> tuple[str, str] | None:
    """``(winner, event)`` when the claim states who won what: "<Name> won <event>" (the name
    right before "won", no word between) or "<event> was won by <Name>"."""
    m = _WON_BY.search(claim)
    if m is not None:
        who = _name_at(claim, m.end())
        event = claim[: m.start()].strip()
        if who and event:
            return who, event
    for m in _WON.finditer(claim):
        who = _name_ending_at(claim, m.start())
        event = claim[m.end() :].strip(" .")
        if who and event:
            return who, event
    return None


def _about_event(phrase: str, page: str) -> bool:
    """Whether a sentence's phrase around "won" is the page's event: an event word ("the
    64-lap race") or the page's own name, and no year the page's title does not give ("the 2015
    final" on the 2017 final's page is another edition; so is any year on a page titled by
    none)."""
    words = stem_keys(phrase)
    if not (words & {stem_key(w) for w in EVENT_WORDS} or names_title(phrase, page)):
        return False
    titled = [v for v in quantities(page) if v.kind == "year"]
    return all(
        any(same_value(q, v) for v in titled)
        for q in quantities(phrase)
        if q.kind in ("year", "date")
    )


def winner_statements(el: Element) -> list[str]:
    """The winners a sentence of an event's page states for that event."""
    text, out = el.text, []
    passive = list(_WON_BY.finditer(text))
    for m in passive:
        who = _name_at(text, m.end())
        if who and _about_event(text[: m.start()], el.page):
            out.append(who)
    for m in _WON.finditer(text):
        if any(p.start() <= m.start() < p.end() for p in passive):
            continue  # "was won by": read above
        who = _name_ending_at(text, m.start())
        obj = " ".join(text[m.end() :].split()[:4])
        if who and obj.lower().startswith("the") and _about_event(obj, el.page):
            out.append(who)
    return out


def _mentions(statement: str, name: str) -> bool:
    words = stem_keys(statement)
    return any(stem_key(w) in words for w in _WORD.findall(fold(name)) if w not in STOPWORDS)


def check_winner(claim: str, elements: Sequence[Element]) -> WinnerCheck:
    """The claim's winner against the winner statements of the sentences of the pages its
    event names."""
    parsed = claimed_winner(claim)
    if parsed is None:
        return WinnerCheck()
    who, event = parsed
    out = WinnerCheck(claimed=who, event=event)
    for el in elements:
        if el.type not in ("sentence", "item") or not names_title(event, el.page):
            continue
        for found in winner_statements(el):
            if _mentions(el.text, who):
                out.agreeing.append(el.id)
            else:
                out.conflicts.append({"claimed": who, "found": found, "id": el.id})
    return out
