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

One stemmer (:func:`stem`) and one rule for "the claim names this page" (:func:`names_title`)
serve the table executor, the sufficiency model and the evidence selection, for the same
reason: two copies would let two parts read the same claim differently.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import TypeVar

__all__ = [
    "STOPWORDS",
    "FUNCTION_WORDS",
    "TABLE_CLAIM_STOP_WORDS",
    "LEADING_WORDS",
    "TITLE_GENERIC_WORDS",
    "TITLE_SPORT_WORDS",
    "distinct",
    "content_words",
    "content_terms",
    "fold",
    "stem",
    "stem_key",
    "stem_keys",
    "names_title",
    "NAME_RUN",
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


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A lower-cased word's singular, roughly ("countries" -> "country", "matches" -> "match",
    "laps" -> "lap"; "class", and words of three letters or fewer, stay whole): the one stemmer
    of the table executor (TabFact statements are lemmatised, "lap" under "laps"), the
    sufficiency model (through :func:`stem_key`) and :func:`names_title`.

    Why plural endings only: a full English stemmer (Snowball, as the index's ``en_stem``),
    measured on the tune sets in its place, changed no coverage figure of the sufficiency model
    (FEVEROUS-S tune, the claims it was fitted on: the same NOT ENOUGH INFO and 3-way accuracy
    as this stemmer) and made the table executor slightly worse (TabFact val training half,
    first 1,000: 0.633 against 0.634, executor accuracy 0.797 against 0.805): it conflates what
    tables keep apart ("united" and "units", "national" and "nations")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"  # countries
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]  # matches, losses
    return word[:-1]


def _mentions_title(claim: str, title: str) -> bool:
    """:func:`names_title` with ``anywhere``: each title word's :func:`stem_key` among the
    claim's."""
    words = [
        w for w in _WORD.findall(fold(_QUALIFIER.sub("", title)))
        if len(w) > 1 and w not in STOPWORDS
    ]  # fmt: skip
    if not words:
        return False
    keys = stem_keys(claim)
    return all(stem_key(w) in keys for w in words)


def stem_key(word: str) -> str:
    """The first five letters of a word's stem (:func:`stem`), case folded; numbers whole.

    Why a key beyond the stem: the sufficiency model asks whether evidence mentions the claim's
    words in any form ("elevation" and "elevations", "populated" and "population", "Mexican"
    and "Mexico"), which a plural's singular alone does not give; its weights were fitted on
    this key."""
    w = word.casefold()
    if w.isdigit():
        return w
    return stem(w)[:5]


def stem_keys(text: str) -> set[str]:
    """The :func:`stem_key` of every word of ``text``, folded: what "does the text mention this
    word, in any form" is asked of."""
    return {stem_key(w) for w in _WORD.findall(fold(text))}


#: A run of capitalised words (or words opening with a digit) with the particles names keep
#: inside them: "Alain Prost", "Ludwig van Beethoven", "1. FC Köln".
NAME_RUN = re.compile(
    r"(?:[A-Z0-9][\w'’.&-]*)(?:\s+(?:(?:of|the|de|del|la|le|von|van|du|da|y|for)\s+)*"
    r"[A-Z0-9][\w'’.&-]*)*"
)


#: Words a page title adds to the name of its subject ("1927 Chicago Bears season"): a claim
#: about the subject names the page without them.
TITLE_GENERIC_WORDS = frozenset(
    "season seasons team squad tour results result list election elections championship "
    "championships tournament edition series draft".split()
)


#: A team's sport (and its "men's" / "women's") before a trailing :data:`TITLE_GENERIC_WORDS`
#: word: "1936 West Virginia Mountaineers football team" is named by "the 1936 West Virginia
#: Mountaineers", as users write it.
TITLE_SPORT_WORDS = frozenset(
    "football basketball baseball hockey soccer rugby lacrosse volleyball softball men women".split()
)


_QUALIFIER = re.compile(r"\s*\(.*\)$")


def _edge(word: str) -> bool:
    return word in STOPWORDS or word in TITLE_GENERIC_WORDS


def _letter(word: str) -> bool:
    return len(word) == 1 and not word.isdigit()


@lru_cache(maxsize=4096)
def _claim_words(claim: str) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]:
    """The claim's folded words stemmed, in order; the same without single letters; its folded
    words (a claim is read once per page it is tried against)."""
    words = _WORD.findall(fold(claim))
    stems = tuple(stem(w) for w in words)
    return stems, tuple(s for s, w in zip(stems, words) if not _letter(w)), frozenset(words)


def names_title(claim: str, title: str, *, anywhere: bool = False, any_order: bool = False) -> bool:
    """Whether ``claim`` names the subject of the page ``title``: the title's words, stemmed
    (:func:`stem`), occur in the claim's as one phrase, in order. A parenthesised qualifier
    ("Aarhus (city)"), single letters ("Mohun Bagan A.C.") and stop words and
    :data:`TITLE_GENERIC_WORDS` at the title's ends ("1927 Chicago Bears season", "List of ...",
    with a team's sport before them: "... Mountaineers football team") are left out as long as two words remain ("List of cheeses" is not cut to "cheeses"). A
    title left with one word is named by that word unstemmed, of four letters or more ("DAY6";
    "Dove" is not named by "Flight of the Doves", "Cat" by nothing).

    So "the 1927 Chicago Bears beat ..." names "1927 Chicago Bears season", "safe deposit
    boxes" names "Safe deposit box", and "the 2008 British Grand Prix" does not name "1989
    British Grand Prix" (numbers are whole words).

    The one rule of the table executor's grounded margin (``verifier.predict``), the sufficiency
    model's ``title_named`` feature and its on-topic and sibling checks
    (``verifier.sufficiency``), and the evidence selection's named pages
    (``retriever.selection``). Why a phrase, ends trimmed: chosen on tune claims, rescoring the
    same cached rows (NOT ENOUGH INFO with the page absent / 3-way accuracy with it). Every
    title word anywhere in the claim (the selection's old rule) named distractors ("Married...
    with Children" for "... is married and has children", "Chicago, Illinois" for "Chicago is
    a band from Illinois"): table claims (``bench/bench_table_claims.py``, tune part) 0.675
    against 0.695 with the earlier rules; trimming a title's ends down to one word ("List of
    cheeses" named by "cheese") gave 0.687; this rule gives 0.691 (one claim: "wins" now meets
    "win" in the coverage features) and, on the FEVEROUS-S tune claims the sufficiency model
    was fitted on, 0.863 / 0.787 against 0.867 / 0.787. The whole title as one phrase (the
    sufficiency model's old rule) named neither a season page by its team nor a plural.

    ``any_order``: also the same words, ends trimmed, three content words at least and a
    number among them, each somewhere in the claim ("Duke Carlisle was picked by the Green Bay
    Packers in the 1964 draft" names "1964 Green Bay Packers season"; "... attended the School
    of Planning and Architecture" does not name "List of architecture schools"): the claim's
    table (``verifier.predict.claim_table``) and the table executor's grounding
    (``verifier.predict.grounded_margin``), where the program has also found the claim's row
    and column in that page's table.

    ``anywhere``: the looser reading of the evidence selection (``retriever.selection``), where
    a page the claim mentions in passing lends its lead sentence to the predicted evidence:
    every word of the title (a parenthesised qualifier, stop words and single letters aside)
    meets a word anywhere in the claim by :func:`stem_key` ("... a species of cyprinid fish"
    mentions *Cyprinidae*, "... Ionic capitaled pilasters" *Pilaster*). On the FEVEROUS-S
    training side (``bench/bench_evidence_cut.py``, one retrieval output) the selection keeps
    full-evidence coverage 0.903 at precision 0.600 this way, 0.902 at 0.610 with the phrase;
    the FEVEROUS score counts full evidence.
    """
    if anywhere:
        return _mentions_title(claim, title)
    words = _WORD.findall(fold(_QUALIFIER.sub("", title)))
    keep_letters = len([w for w in words if not _letter(w)]) < 2  # "Jamie T", "B vitamins"
    if not keep_letters:
        words = [w for w in words if not _letter(w)]
    while len(words) > 2 and _edge(words[0]):
        words.pop(0)
    generic = False
    while len(words) > 2 and _edge(words[-1]):
        generic |= words.pop() in TITLE_GENERIC_WORDS
    while generic and len(words) > 2 and words[-1] in TITLE_SPORT_WORDS:
        words.pop()
    content = [w for w in words if w not in STOPWORDS]
    if not content or (len(content) == 1 and len(content[0]) < 4):
        return False
    stems, without_letters, claim_words = _claim_words(claim)
    if len(words) == 1:
        return words[0] in claim_words
    needle = tuple(stem(w) for w in words)
    hay = stems if keep_letters else without_letters
    n = len(needle)
    if any(hay[i : i + n] == needle for i in range(len(hay) - n + 1)):
        return True
    # scattered: three content words at least, one of them a number (a season's, a draft's or
    # an election's year); two words, or words alone, name pages by chance ("List of
    # architecture schools", "List of Formula One Grands Prix")
    return (
        any_order
        and len(content) >= 3
        and any(w.isdigit() for w in content)
        and set(needle) <= set(hay)
    )
