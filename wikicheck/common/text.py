"""Stop words, words, folding and order-keeping de-duplication: one copy shared by the packages.

Why: the retriever, the table executor, the table focus, the sufficiency model and the
training-pair builder each kept their own stop-word lists and word helpers. The lists here
differ on purpose, one per meaning, because each is part of measured behaviour (changing a
member means re-measuring what it feeds):

- :data:`STOPWORDS`: English function words; the retriever's query terms, the sufficiency
  model's coverage features and the training-pair builder drop them.
- :data:`FUNCTION_WORDS`: words that never make a cell evidence of a "table given" claim.
- :data:`TABLE_CLAIM_STOP_WORDS`: words of a table claim that name no column or value (it adds
  table words such as "team", "year", "first" to function words).
- :data:`LEADING_WORDS`: articles and prepositions that start no name, stripped from the front
  of the retriever's capitalised spans.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

__all__ = [
    "STOPWORDS",
    "FUNCTION_WORDS",
    "TABLE_CLAIM_STOP_WORDS",
    "LEADING_WORDS",
    "TITLE_GENERIC_WORDS",
    "distinct",
    "content_words",
    "content_terms",
    "fold",
    "names_title",
]

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
#: Words of a table claim that name no column or value: read by the table executor
#: (``wikicheck.verifier.tables``, which re-exports it as ``tables.text.STOP_WORDS``) and by
#: the table focus (``wikicheck.verifier.focus``). Unlike :data:`STOPWORDS` it also drops
#: words common in table claims that name no cell ("team", "player", "year", "game", "time",
#: "first", "1st", "last", "least", "less", "per", "while"), and it lacks 58 of
#: :data:`STOPWORDS` (pronouns, "between", "above", "below", "both", "some", "were" ...), which
#: therefore may match a header or a cell. Part of the calibrated executor's behaviour (its
#: precision table) and of the verifier's pinned figures.
TABLE_CLAIM_STOP_WORDS = frozenset(
    """the a an of in on at to be is was and or for by with as from that this have has had there
    their they it its than more less most least only all same when which who what not no do does
    did time times game team player year after before during per while any each other then first
    last second third 1st 2nd 3rd out over under up down into also""".split()
)
#: Articles and prepositions that begin no name: the retriever strips them from the front of a
#: capitalised span ("The Beatles" -> "Beatles") and does not start a span with a sentence's
#: first word among them. Narrower than :data:`STOPWORDS`, which the sufficiency model's name
#: finder strips from a sentence opener (``wikicheck.verifier.sufficiency.claim_names``): the
#: retriever keeps "It", "There", "During" ... in front of a span, and its spans are measured
#: retrieval queries.
LEADING_WORDS = frozenset("the a an in on at of for to from by with as".split())
_WORD = re.compile(r"\w+")


def distinct(values: Iterable[T | None]) -> list[T]:
    """``values`` without repeats, in first-seen order; ``None`` and ``""`` are dropped."""
    return list(dict.fromkeys(v for v in values if v is not None and v != ""))


def content_words(text: str, stop: frozenset[str] = STOPWORDS) -> set[str]:
    """The lower-cased words of ``text`` that are not in ``stop``."""
    return {w for w in _WORD.findall(text.lower()) if w not in stop}


def content_terms(text: str) -> list[str]:
    """The case-folded words of ``text`` that are not in :data:`STOPWORDS`, in first-seen order
    without repeats: the retriever's query terms (shorter OR queries that rank the same) and the
    sufficiency model's content words. Unlike :func:`content_words` it keeps the order and folds
    case with ``casefold`` ("Straße" -> "strasse"), not ``lower``."""
    return distinct(w for w in _WORD.findall(text.casefold()) if w not in STOPWORDS)


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


def names_title(claim: str, title: str, *, whole: bool = False) -> bool:
    """Whether ``claim`` names the subject of the page ``title``: every word of the title (a
    parenthesised qualifier, stop words and :data:`TITLE_GENERIC_WORDS` aside) is a word of the
    claim, numbers included ("the 1927 Chicago Bears beat ..." names "1927 Chicago Bears
    season"; "the 2008 British Grand Prix" does not name "1989 British Grand Prix"). A title
    needs two such words, or one of five letters or more, to be named at all.

    ``whole``: the generic words count too, so a short title named with them ("VFL season")
    is named, and one named without them is not."""
    base = re.sub(r"\s*\(.*\)$", "", title)
    words = [w for w in _WORD.findall(fold(base)) if w not in STOPWORDS]
    key = words if whole else [w for w in words if w not in TITLE_GENERIC_WORDS] or words
    if not key or (len(key) == 1 and len(key[0]) < 5):
        return False
    return set(key) <= set(_WORD.findall(fold(claim)))
