"""Stop words and order-keeping de-duplication: one list and one helper shared by the packages.

Why: the retriever, the table executor, the table focus and the training-pair builder kept four
stop-word lists, and four helpers de-duplicated lists in first-seen order. :data:`STOPWORDS`
(English function words) serves the retriever and the training-pair builder; the verifier's
table reading keeps one list of its own (``wikicheck.verifier.tables.text.STOP_WORDS``, shared
by the executor and the table focus), because its members are part of the calibrated executor
and of the verifier's measured figures: changing them means re-measuring those.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

__all__ = ["STOPWORDS", "FUNCTION_WORDS", "distinct", "content_words", "fold", "names_title"]

T = TypeVar("T")

#: English function words: no evidence on their own, and costly as query terms.
STOPWORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before
    after above below to from up down in out on off over under again further then once here there
    when where why how all any both each few more most other some such no nor not only own same so
    than too very s t can will just don should now is are was were be been being have has had
    having do does did doing i me my we our you your he him his she her it its they them their
    what which who whom this that these those am would could also as""".split()
)
#: Function words that never make a cell evidence of a "table given" claim: they occur in most
#: statements and many cells (``wikicheck.verifier.predict.table_given_elements``; the
#: SEM-TAB-FACTS task B figures are measured with this list).
FUNCTION_WORDS = frozenset(
    "a an the and or but nor of in on at to for from by with as is are was were be been being "
    "it its this that these those there than then which who whom whose what when where how "
    "not no has have had do does did will would can could may might shall should".split()
)
_WORD = re.compile(r"\w+")


def distinct(values: Iterable[T | None]) -> list[T]:
    """``values`` without repeats, in first-seen order; ``None`` and ``""`` are dropped."""
    return list(dict.fromkeys(v for v in values if v is not None and v != ""))


def content_words(text: str, stop: frozenset[str] = STOPWORDS) -> set[str]:
    """The lower-cased words of ``text`` that are not in ``stop``."""
    return {w for w in _WORD.findall(text.lower()) if w not in stop}


def fold(text: str) -> str:
    """Case and accents folded ("Öakse" meets "Oakse"; NFC and NFD spellings meet)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


#: Words a page title adds to the name of its subject ("1927 Chicago Bears season"): a claim
#: about the subject names the page without them.
TITLE_GENERIC_WORDS = frozenset(
    "season seasons team squad tour results result list election elections championship "
    "championships tournament edition series draft".split()
)


def names_title(claim: str, title: str) -> bool:
    """Whether ``claim`` names the subject of the page ``title``: every word of the title (a
    parenthesised qualifier, stop words and :data:`TITLE_GENERIC_WORDS` aside) is a word of the
    claim, numbers included ("the 1927 Chicago Bears beat ..." names "1927 Chicago Bears
    season"; "the 2008 British Grand Prix" does not name "1989 British Grand Prix"). A title
    needs two such words, or one of five letters or more, to be named at all."""
    base = re.sub(r"\s*\(.*\)$", "", title)
    words = [w for w in _WORD.findall(fold(base)) if w not in STOPWORDS]
    key = [w for w in words if w not in TITLE_GENERIC_WORDS] or words
    if not key or (len(key) == 1 and len(key[0]) < 5):
        return False
    return set(key) <= set(_WORD.findall(fold(claim)))
