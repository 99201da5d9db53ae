"""Content words: the stopword list and the word splitting that claim analysis (query terms) and
the sufficiency check (what the evidence covers) share."""

from __future__ import annotations

import re

__all__ = ["STOPWORDS", "WORD", "content_terms", "word_stem"]

STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before
    after above below to from up down in out on off over under again further then once here there
    when where why how all any both each few more most other some such no nor not only own same so
    than too very s t can will just don should now is are was were be been being have has had
    having do does did doing i me my we our you your he him his she her it its they them their
    what which who whom this that these those am would could also as""".split()
)
WORD = re.compile(r"\w+", re.UNICODE)


def content_terms(text: str) -> list[str]:
    """Lower-cased content words, de-duplicated, in first-occurrence order."""
    seen: dict[str, None] = {}
    for w in WORD.findall(text.casefold()):
        if w not in STOPWORDS and w not in seen:
            seen[w] = None
    return list(seen)


def word_stem(word: str) -> str:
    """A crude stem (the first five letters of a word's singular) so that "flows"/"flowed",
    "elevation"/"elevations" meet; numbers stay whole."""
    w = word.casefold()
    if w.isdigit():
        return w
    if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    return w[:5]
