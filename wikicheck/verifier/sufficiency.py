"""Does the evidence bear on the claim, and does it state the claim's numbers the same way?

A verifier trained on pairs that always share a topic answers SUPPORTS or REFUTES for almost any
evidence: told "The Danube flows through Vienna and Budapest." with cells of a *1500 metres*
results table that say "Budapest", it refutes. Two checks run on the evidence the model read:

* **Sufficiency** (:func:`check_evidence`): what the claim names — its capitalised names, its
  numbers and dates, its content words — is looked up in the evidence (text, page titles,
  sections, headers). Evidence from a page the claim names, covering its names, bears on it;
  evidence that leaves the claim's names uncovered does not. The score is a logistic model of
  those coverages whose weights and threshold are chosen on FEVEROUS-S training claims
  retrieved from an index with and without their evidence pages (``bench/bench_absent_evidence.py
  --fit``); it never sees a held-out claim.
* **Numbers** (:func:`check_numbers`): each number, date or quantity of the claim is compared, as
  a value (:mod:`wikicheck.common.quantities`: units converted, dates read as dates), with the
  values of the same kind that the evidence gives *for the same thing* (an element that shares
  the words around the claim's number, e.g. the header "elevation"). A value that disagrees
  where none agrees is a conflict.

:func:`apply_evidence_checks` writes both into a prediction row: in 3-way runs insufficient
evidence makes the verdict NOT ENOUGH INFO; in 2-way runs the label keeps its meaning and the row
says ``"sufficient": false``. A number conflict, or a winner other than the claim's stated by
the event's page (:mod:`wikicheck.verifier.slots`), turns SUPPORTS into REFUTES in either
setting.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.common.periods import (
    Period,
    duration_holds,
    find_durations,
    find_periods,
    range_lengths,
)
from wikicheck.common.quantities import (
    MONTH_WORDS,
    Quantity,
    quantities,
    same_value,
    span_end,
    word_counts,
)
from wikicheck.common.text import (
    NAME_RUN,
    STOPWORDS,
    content_terms,
    fold,
    names_title,
    stem_key,
    stem_keys,
)
from wikicheck.model import NEI, REFUTES, SUPPORTS, Element, Evidence, headed_cells
from wikicheck.verifier.model import agreeing_with, has_sentences, led_by, scaled_confidence
from wikicheck.verifier.opposites import OppositeCheck, check_opposites
from wikicheck.verifier.slots import WinnerCheck, check_winner

__all__ = [
    "Sufficiency",
    "NumberCheck",
    "check_evidence",
    "check_numbers",
    "apply_evidence_checks",
    "checks_decision",
    "checked_answer",
    "checked_probabilities",
    "SUFFICIENCY_MODEL",
    "COVERAGE_MODEL",
    "TABLE_MODEL",
    "TABLE_COVERAGE_MODEL",
    "evidence_similarity",
]

#: Logistic weights over the coverage features (see :func:`features`) and the decision threshold
#: on its probability; the weights fitted by ``bench/bench_absent_evidence.py feverous --fit 0.82``
#: on 300 FEVEROUS-S training claims (the 60% the shipped verifier trained on), retrieval over
#: its pages + OTT-QA with and without each claim's evidence pages; the threshold the lowest
#: giving NOT ENOUGH INFO on 0.80 of them without their pages (with :data:`TABLE_MODEL` on the
#: rows whose evidence is mostly table cells).
SUFFICIENCY_MODEL: dict[str, Any] = {
    "weights": {
        "bias": -8.319,
        "title_named": 1.679,
        "name_coverage": -0.113,
        "names_full": 0.606,
        "subject_full": 1.842,
        "content_coverage": 2.086,
        "page_coverage": 2.694,
        "numbers_missing": -0.317,
        "similarity": 4.159,
    },
    "threshold": 0.55,
}
#: The same without the retriever's similarity, for evidence that carries no dense scores.
COVERAGE_MODEL: dict[str, Any] = {
    "weights": {
        "bias": -6.941,
        "title_named": 1.916,
        "name_coverage": 0.093,
        "names_full": 0.639,
        "subject_full": 2.228,
        "content_coverage": 2.464,
        "page_coverage": 3.694,
        "numbers_missing": -0.296,
    },
    "threshold": 0.45,
}

#: For evidence that is mostly table cells (:func:`table_evidence`): fitted the same way on
#: TabFact val's training half, "present" being the rows whose window holds the claim's table
#: (``bench/bench_absent_evidence.py tabfact --evidence table --found-only --fit 0.70``).
TABLE_MODEL: dict[str, Any] = {
    "weights": {
        "bias": -5.334,
        "title_named": 1.091,
        "name_coverage": -0.622,
        "names_full": -0.308,
        "subject_full": 0.664,
        "content_coverage": 1.691,
        "page_coverage": 3.428,
        "numbers_missing": 0.001,
        "similarity": 2.818,
    },
    "threshold": 0.35,
}
TABLE_COVERAGE_MODEL: dict[str, Any] = {
    "weights": {
        "bias": -3.859,
        "title_named": 1.342,
        "name_coverage": -0.445,
        "names_full": -0.452,
        "subject_full": 0.792,
        "content_coverage": 1.488,
        "page_coverage": 3.851,
        "numbers_missing": -0.057,
    },
    "threshold": 0.35,
}

WORD = re.compile(r"\w+", re.UNICODE)


# Words that open a sentence capitalised without naming anything: the stop words (the words
# once added here, "there it in on at during after before", are all stop words already).
_OPENERS = STOPWORDS
#: A claim word -> the words evidence uses for the same measure ("long" and "length").
_MEASURE_WORDS = {
    "long": ("length", "long"), "length": ("length", "long"),
    "tall": ("height", "tall", "high"), "high": ("height", "elevation", "high", "altitude"),
    "height": ("height", "tall", "high"), "elevation": ("elevation", "altitude", "height"),
    "altitude": ("elevation", "altitude", "height"), "wide": ("width", "wide"),
    "deep": ("depth", "deep"), "born": ("born", "birth"), "birth": ("born", "birth"),
    "died": ("died", "death"), "death": ("died", "death"), "area": ("area",),
    "population": ("population", "inhabitants"), "founded": ("founded", "established"),
    "established": ("founded", "established"), "opened": ("opened", "opening"),
}  # fmt: skip


@dataclass(slots=True)
class NumberCheck:
    """The claim's values against the evidence's: agreeing, disagreeing (with the evidence's
    value and element), or not stated in the evidence at all."""

    matched: list[str] = field(default_factory=list)
    conflicts: list[dict[str, str]] = field(default_factory=list)
    unstated: list[str] = field(default_factory=list)

    @property
    def conflict(self) -> bool:
        return bool(self.conflicts)

    def to_dict(self) -> dict[str, Any]:
        return {"matched": self.matched, "conflicts": self.conflicts, "unstated": self.unstated}


@dataclass(slots=True)
class Sufficiency:
    """Whether the evidence bears on the claim (``score``: the model's probability that it does)
    and what it covers."""

    sufficient: bool
    score: float
    features: dict[str, float]
    names: list[str]
    uncovered: list[str]
    numbers: NumberCheck
    #: The evidence is about another event of a series the claim names by its year ("1989
    #: British Grand Prix" for a claim about the 2008 race) and names no page of the claim's.
    sibling: bool = False
    #: Most of the evidence is table cells (:func:`table_evidence`: the table models judged it).
    tables: bool = False
    #: The claim's winner against the winners the evidence states (:mod:`.slots`).
    winner: WinnerCheck = field(default_factory=WinnerCheck)
    #: The evidence read holds the page that the claim's subject titles (:func:`subject_page`).
    subject_page: bool = False
    #: The claim's degree and direction words against its page's sentences (:mod:`.opposites`).
    opposites: OppositeCheck = field(default_factory=OppositeCheck)

    @property
    def conflict(self) -> bool:
        """The evidence states a value, a winner or a word's opposite where the claim states
        its own, for the same thing."""
        return self.numbers.conflict or self.winner.conflict or self.opposites.conflict

    def to_dict(self) -> dict[str, Any]:
        return {
            "sufficient": self.sufficient,
            "score": round(self.score, 4),
            "features": {k: round(v, 4) for k, v in self.features.items()},
            "names": self.names,
            "uncovered": self.uncovered,
            "numbers": self.numbers.to_dict(),
            "sibling": self.sibling,
            "tables": self.tables,
            "winner": self.winner.to_dict(),
            "subject_page": self.subject_page,
            "opposites": self.opposites.to_dict(),
        }


def _element(x: Element | Evidence) -> Element:
    return x.element if isinstance(x, Evidence) else x


def _element_text(el: Element) -> str:
    """What an element says, with what places it: page, sections, headers."""
    return " ".join(
        [el.page, *el.section_names, *el.row_header_texts, *el.col_header_texts, el.text]
    )


def claim_names(claim: str) -> list[str]:
    """Runs of capitalised words (and numbers inside them) that name things: "Conant Brook
    Dam", "Vienna"; a capitalised sentence opener alone is not a name."""
    out: list[str] = []
    claim = unicodedata.normalize("NFC", claim)
    if not any(c.isupper() for c in claim):
        return _content_runs(claim)
    for m in NAME_RUN.finditer(claim):
        words = m.group(0).split()
        if m.start() == 0 or claim[: m.start()].rstrip().endswith((".", ":", '"')):
            while words and words[0].casefold() in _OPENERS:
                words = words[1:]
        words = [w for w in words if not w.replace(",", "").replace(".", "").isdigit()]
        while words and words[0].islower():  # "the" left in front once a year is dropped
            words = words[1:]
        name = re.sub(r"['’]s?$", "", " ".join(words).strip(" .,'’"))
        if name and any(c.isalpha() for c in name) and name.casefold() not in _OPENERS:
            out.append(name)
    return list(dict.fromkeys(out))


def _content_runs(claim: str) -> list[str]:
    """Names of a lower-cased claim (TabFact statements come so): runs of two or more content
    words ("inverness club", "minnesota timberwolves"), split at stopwords, numbers and marks."""
    runs, cur = [], []
    for tok in re.findall(r"[\w'’.&-]+|[^\w\s]", claim):
        if tok.isalpha() and tok not in STOPWORDS and tok not in _TABFACT_VERBS:
            cur.append(tok)
            continue
        if len(cur) >= 2:
            runs.append(" ".join(cur))
        cur = []
    if len(cur) >= 2:
        runs.append(" ".join(cur))
    return list(dict.fromkeys(runs))


#: Verbs of lemmatised TabFact statements that join names without naming anything.
_TABFACT_VERBS = frozenset("win won lose lost play score have be get take make".split())


#: The features :func:`features` computes, in the order the model's weights list them.
FEATURES = (
    "title_named",
    "name_coverage",
    "names_full",
    "subject_full",
    "content_coverage",
    "page_coverage",
    "numbers_missing",
    "similarity",
)


def features(claim: str, elements: Sequence[Element], numbers: NumberCheck) -> dict[str, float]:
    """Coverage of the claim by the evidence, each in [0, 1] (``numbers_missing``: a count).

    ``title_named``: a page of the evidence is named in the claim; ``name_coverage``: the share
    of the claim's name words found in the evidence; ``names_full``: the share of its names
    found whole; ``subject_full``: its first name (usually what it is about) found whole;
    ``content_coverage``: the share of all its content words found; ``page_coverage``: the
    same, by the one evidence page that covers most (a claim read from a page that is there is
    covered by that page, not by words scattered over distractors); ``numbers_missing``: claim
    values the evidence neither states nor contradicts.
    """
    by_page: dict[str, set[str]] = {}
    for el in elements:
        by_page.setdefault(el.page, set()).update(stem_keys(_element_text(el)))
    vocab = set().union(*by_page.values()) if by_page else set()
    names = [
        [stem_key(w) for w in WORD.findall(fold(n)) if w not in STOPWORDS]
        for n in claim_names(claim)
    ]
    names = [n for n in names if n]
    name_words = [w for n in names for w in n]
    content = [stem_key(w) for w in content_terms(fold(claim)) if not w.isdigit()]
    full = [all(w in vocab for w in n) for n in names]
    return {
        "title_named": float(any(names_title(claim, page) for page in by_page)),
        "name_coverage": _share(name_words, vocab),
        "names_full": sum(full) / len(full) if full else 1.0,
        "subject_full": float(full[0]) if full else 1.0,
        "content_coverage": _share(content, vocab),
        "page_coverage": max((_share(content, v) for v in by_page.values()), default=0.0),
        "numbers_missing": float(len(numbers.unstated)),
    }


def _share(words: list[str], vocab: set[str]) -> float:
    return sum(w in vocab for w in words) / len(words) if words else 1.0


def score(feats: dict[str, float], model: dict[str, Any] | None = None) -> float:
    """The logistic model's probability that the evidence bears on the claim."""
    weights = (model or SUFFICIENCY_MODEL)["weights"]
    z = weights["bias"] + sum(weights[k] * v for k, v in feats.items() if k in weights)
    return 1.0 / (1.0 + math.exp(-z))


def check_evidence(
    claim: str,
    evidence: Sequence[Element | Evidence],
    *,
    expand: Callable[[Element], list[Element]] | None = None,
    model: dict[str, Any] | None = None,
    similarity: float | None = None,
) -> Sufficiency:
    """Sufficiency and number check of ``evidence`` (what the model read) for ``claim``.

    ``expand`` adds the elements a header cell stands for (its row's data cells), so that a
    header "elevation" is read with its value; :func:`store_expander` makes one from a store.
    ``similarity``: the retriever's best dense cosine between the claim and the evidence
    (default: read from the evidence's ``dense`` scores; None where it has none, e.g. gold
    evidence, which is then judged by the coverage features alone).
    """
    if similarity is None:
        similarity = evidence_similarity(evidence)
    elements = [_element(x) for x in evidence]
    if expand is not None:
        extra = [e for el in elements if el.type == "header_cell" for e in expand(el)]
        have = {el.id for el in elements}
        elements += [e for e in extra if e.id not in have and not have.add(e.id)]
    numbers = check_numbers(claim, elements)
    feats = features(claim, elements, numbers)
    if model is None:
        model = model_for(elements, similarity is not None)
    if similarity is not None:
        feats["similarity"] = round(similarity, 4)
    p = score(feats, model) if elements else 0.0
    threshold = model["threshold"]
    folded = {w for el in elements for w in stem_keys(_element_text(el))}
    names = claim_names(claim)
    uncovered = [n for n in names if not all(stem_key(w) in folded for w in WORD.findall(fold(n)))]
    sibling = sibling_evidence(claim, elements)
    winner = check_winner(claim, elements)
    opposites = check_opposites(claim, elements)
    subject = subject_page(claim, elements, names)
    # a value, winner or word the evidence states differently for the same thing decides the
    # claim (REFUTES), and so does the subject's own page, however little of the claim it
    # covers; evidence about a sibling of the claim's subject (another year's race) does not
    conflict = numbers.conflict or winner.conflict or opposites.conflict
    sufficient = not sibling and (p >= threshold or conflict or subject)
    tables = table_evidence(elements)
    return Sufficiency(
        sufficient, p, feats, names, uncovered, numbers, sibling, tables, winner, subject,
        opposites,
    )  # fmt: skip


def subject_page(
    claim: str, elements: Sequence[Element], names: Sequence[str] | None = None
) -> bool:
    """Whether the evidence holds the page the claim is about: a page titled exactly by the
    claim's first name ("Chess960 normally takes over a day ..." and the page "Chess960").

    Why it decides sufficiency: the evidence then speaks about the claim's subject, and whether
    it says enough is the model's call (its NOT ENOUGH INFO), not the coverage model's, which
    scores a claim with few words in the page's text ("... takes over a day to finish a single
    game") as if its page were missing. A name right after a year or number ("the 2008 British
    Grand Prix") is a sibling's series, not the page "British Grand Prix". Measured on the
    cached rows of ``bench/bench_table_claims.py`` and ``bench/bench_absent_evidence.py
    feverous``: with the pages, the model's answer came back on 5 tune table claims (2 right, 2
    wrong) and 3 FEVEROUS-S tune claims (2 right); without them, on one table claim.
    ``names``: :func:`claim_names` of the claim, when the caller has them."""
    names = claim_names(claim) if names is None else names
    if not names:
        return False
    subject = _folded_words(names[0])
    start = claim.find(names[0])
    before = claim[:start].split() if start > 0 else []
    if before and any(q.kind == "year" for q in quantities(before[-1])):
        return False
    return any(_folded_words(page) == subject for page in {el.page for el in elements})


def _folded_words(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(fold(text)))


def sibling_evidence(claim: str, elements: Sequence[Element]) -> bool:
    """Whether the evidence is about a sibling of the claim's subject: a page whose title gives a
    year the claim does not state (the claim stating one) and that the claim names once the
    years of both are set aside ("1989 British Grand Prix" for a claim about the 2008 British
    Grand Prix, "1908 VFL season" for one about the 1946 season), while no element's page is
    named by the claim (:func:`wikicheck.common.text.names_title`) and none is titled by a year
    the claim states (the 1969 season's table answers a claim about the 1969 Monaco race). A
    page titled by a year that names something else ("1976 Green Bay Packers season" beside a
    musician's page) is a distractor, not a sibling."""
    years = [q for q in quantities(claim) if q.kind in ("year", "date")]
    if not years:
        return False
    pages = {el.page for el in elements}
    if any(names_title(claim, page) for page in pages):
        return False
    titled = {page: [v for v in quantities(page) if v.kind == "year"] for page in pages}
    if any(same_value(q, v) for vs in titled.values() for v in vs for q in years):
        return False  # a page of the claim's year is there ("1969 Formula One season")
    yearless = _without_years(claim)
    return any(vs and names_title(yearless, _without_years(page)) for page, vs in titled.items())


def _without_years(text: str) -> str:
    """``text`` without its years and its other whole numbers ("2010–11 Orlando Magic season" ->
    "Orlando Magic season"), so that two years of one series read alike."""
    rest, end = [], 0
    for v in sorted((v for v in quantities(text) if v.kind == "year"), key=lambda v: v.start):
        rest.append(text[end : v.start])
        end = v.end
    rest.append(text[end:])
    return " ".join(w for w in " ".join(rest).split() if not w.strip("–-/,.()").isdigit())


def table_evidence(elements: Sequence[Element]) -> bool:
    """Whether most of the evidence is cells of (non-infobox) tables: short cells read less like
    the claim than sentences do, so such evidence has a model of its own."""
    cells = [
        el for el in elements
        if el.type in ("cell", "header_cell", "table_caption") and el.table_type != "infobox"
    ]  # fmt: skip
    return bool(elements) and 2 * len(cells) > len(elements)


def model_for(elements: Sequence[Element], has_similarity: bool) -> dict[str, Any]:
    """The sufficiency model for this evidence: tables or text, with or without dense scores."""
    if table_evidence(elements):
        return TABLE_MODEL if has_similarity else TABLE_COVERAGE_MODEL
    return SUFFICIENCY_MODEL if has_similarity else COVERAGE_MODEL


def evidence_similarity(evidence: Sequence[Element | Evidence], top: int = 5) -> float | None:
    """The best dense cosine among the first ``top`` retrieved items (None: no dense scores).

    Why the retriever's score: when the index holds the claim's page, some element of it reads
    almost like the claim (cosine 0.7-0.99 on FEVEROUS-S); when it does not, the best a
    distractor reaches is mostly 0.2-0.6 — a signal the coverage of names cannot give when the
    distractor shares them."""
    scores = [
        x.scores["dense"]
        for x in list(evidence)[:top]
        if isinstance(x, Evidence) and "dense" in x.scores
    ]
    return max(scores) if scores else None


def _context_words(claim: str, start: int, end: int) -> set[str]:
    """Content words next to a claim's value at ``start:end`` (four either side), with their
    measure synonyms: what an element must mention to be giving a value *for the same thing*."""
    before = WORD.findall(claim[:start].casefold())[-4:]
    after = WORD.findall(claim[end:].casefold())[:4]
    words = {w for w in before + after if w not in STOPWORDS and not w.isdigit() and len(w) > 2}
    for w in list(words):
        words.update(_MEASURE_WORDS.get(w, ()))
    return {stem_key(w) for w in words}


def check_numbers(claim: str, evidence: Sequence[Element | Evidence]) -> NumberCheck:
    """Each value of the claim against the evidence's values of the same kind.

    Only elements on the claim's topic are read (a page the claim names, or an element holding
    one of its names whole), unless none is. A value agrees when one of their values equals it
    (within rounding, units converted, a hedge honoured); it conflicts when none agrees and an
    element giving the same kind of value also shares the words around it (for unitless
    numbers: the noun it counts) and names the claim's subject or a name of it of two words or
    more (or is on a page the claim names) — the evidence states a different value for the same
    thing; otherwise it is unstated. Why not any name: "... discovered by French astronomer
    Alain Maury on September 2, 1986" is not contradicted by a French sculptor's birth date.
    """
    elements = [_element(x) for x in evidence]
    out = NumberCheck()
    found_in_claim = quantities(claim)
    seasons, second_halves = _seasons(claim, found_in_claim)
    # a period's own year is compared as the period ("the Fall of 1982", "the late 1920's")
    periods = find_periods(claim)
    claimed = [
        q
        for q in found_in_claim
        if not _is_name_part(claim, q)
        and q.start not in second_halves
        and not _is_multiplier(claim, q)
    ]
    counted = word_counts(claim)  # "two labels": compared only with the items a row lists
    durations = find_durations(claim)  # "for over 30 years": with the ranges rows write
    if not claimed and not periods and not counted and not durations:
        return out
    # a month or a weekday names no topic ("October" is on every page with a date in October)
    named = [n for n in claim_names(claim) if not _is_calendar_word(n)]
    names = [stem_keys(n) for n in named]
    # what may state a value *against* the claim: its subject (first name) or a name of two
    # words or more; one word further on ("French", "Crimean") is on pages of other things
    strong = [k for i, (n, k) in enumerate(zip(named, names)) if i == 0 or len(n.split()) > 1]

    titles: dict[str, list] = {}

    def title_values(page: str) -> list:
        if page not in titles:
            titles[page] = [v for v in quantities(page) if v.kind == "year"]
        return titles[page]

    def sibling(el: Element) -> bool:
        # a page named by a year the claim does not state ("1998 Monaco Grand Prix" for a claim
        # about the 1969 race) is about another event of a series, not the claim's
        years = title_values(el.page)
        return (
            bool(years)
            and not any(
                same_value(q, v) for q in claimed for v in years if q.kind in ("year", "date")
            )
            and any(q.kind in ("year", "date") for q in claimed)
        )

    def topic(el: Element) -> int:
        """0: off the claim's topic; 1: on it (the claim names its page or it holds one of the
        claim's names); 2: on it enough for its values to contradict the claim's."""
        if sibling(el):
            return 0
        if names_title(claim, el.page):
            return 2
        words = stem_keys(_element_text(el))
        if any(n and n <= words for n in strong):
            return 2
        return int(any(n and n <= words for n in names))

    topical = {el.id: topic(el) for el in elements}
    # values agree only where the claim's topic is (a year on a distractor page proves nothing),
    # unless no element is on topic; the year a page's title gives is a value of each element
    readable = [el for el in elements if topical[el.id]] or elements
    # the evidence's own spans of years, by value: a span is compared with a span, start to start
    found, starts = [], set()
    for el in readable:
        values = quantities(el.text)
        values = [v for v in values if not _count_read_as_year(v, el)]
        spans, _ = _seasons(el.text, values)
        starts.update(id(v) for v in values if v.start in spans)
        lengths = range_lengths(el.text, values) if durations else []  # only a length reads them
        found.append((el, values + title_values(el.page) + lengths))
    # a title's year the claim states is that claimed year's, not a value against the claim's
    # other years ("Derek Brown of the 1988 Notre Dame Fighting Irish was drafted in 1992": the
    # page's 1988 is the team's season, not his draft's)
    named_years = {
        id(v)
        for page in {el.page for el in readable}
        for v in title_values(page)
        if any(same_value(o, v) for o in claimed)
    }
    claim_words = {w for w in stem_keys(" ".join(content_terms(fold(claim)))) if w.isalpha()}

    def settle(
        text: str,
        context: set[str],
        q: Quantity | None,
        same_as: Callable[[Quantity], bool | None],
        strict: tuple[str, ...] = (),
    ) -> None:
        """Agreed when an element's value is the claim's; a conflict when none is and an
        element about the same thing gives another; otherwise unstated. ``strict`` (the kinds a
        period or a length is compared with): no conflict from an element with a value of those
        kinds it cannot place, and nothing unstated, as the sufficiency model's
        ``numbers_missing`` counts values, not periods."""
        agree, differ = False, None
        for el, values in found:
            for v in values:
                same = same_as(v)
                if same is None:
                    continue
                if same:
                    agree = True
                    break
                if (
                    differ is None
                    and topical[el.id] == 2
                    and id(v) not in named_years
                    and _about_same_thing(q, context, el)
                    and _in_own_item(v, values, claim_words, el)
                    and not any(same_as(o) is None for o in values if o.kind in strict)
                ):
                    differ = (el, v)
            if agree:
                break
        if agree:
            out.matched.append(text)
        elif differ is not None:
            out.conflicts.append({"claimed": text, "found": differ[1].text, "id": differ[0].id})
        elif not strict:
            out.unstated.append(text)

    def counted_in_rows(q: Quantity) -> bool:
        """A count against the items of the infobox rows its noun names: whether any did."""
        listed = _listed_counts(q, readable, topical)
        if any(same_value(q, n) for _, n in listed):
            out.matched.append(q.text)
        elif listed:
            el, n = listed[0]
            out.conflicts.append({"claimed": q.text, "found": n.text, "id": el.id})
        return bool(listed)

    for q in claimed:
        if any(p.start <= q.start < p.end and (not p.months or q.kind != "year") for p in periods):
            continue  # "the 1920's" is no year 1920; "the Fall of 1982" still states 1982
        if any(d.start <= q.start < d.end for d in durations):
            continue  # "for 30 years": a length, compared as one
        if counted_in_rows(q):
            continue

        def same_value_as(v: Quantity, q: Quantity = q) -> bool | None:
            same = same_value(q, v)
            if same is False and _whole_part(q, v):
                same = True
            if q.start in seasons:
                lo, hi = seasons[q.start]
                if starts:  # the evidence writes spans too: "1137–54" against "1135–54"
                    if id(v) not in starts:
                        return None
                    same = v.year == lo
                elif v.year is not None:
                    same = same or lo <= v.year <= hi  # "the 1994-95 season" holds 1995
            if same is False and _states_another(v, q, claimed):
                return None
            return same

        settle(q.text, _context_words(claim, q.start, q.end), q, same_value_as)
    for q in counted:
        counted_in_rows(q)
    # a period is about what the words around it say, not about the claim's names, which an
    # infobox's every row may carry
    name_words = stem_keys(" ".join(named))
    for p in periods:

        def in_period(v: Quantity, p: Period = p) -> bool | None:
            if v.kind not in ("date", "year"):
                return None
            if p.months and p.first is not None and v.year not in (p.first, p.first + 1):
                return None  # another year: the year's own check speaks of it
            return p.holds(v.year, v.month if v.granularity in ("day", "month") else None)

        context = _context_words(claim, p.start, p.end) - name_words
        if context & _MADE:  # a painting's or a building's "Year" is when it was made
            context |= _YEAR_ROWS
        settle(p.text, context, None, in_period, strict=_DATED)
    for d in durations:

        def same_length(v: Quantity, d: Quantity = d) -> bool | None:
            return duration_holds(d, v) if v.kind == "duration" else None

        context = _context_words(claim, d.start, d.end) - name_words
        context |= {stem_key(w) for c in list(context) for w in _DURATION_WORDS.get(c, ())}
        settle(d.text, context, None, same_length, strict=("duration",))
    return out


def _listed_counts(
    q: Quantity, elements: Sequence[Element], topical: dict[str, int]
) -> list[tuple[Element, Quantity]]:
    """How many items the infobox rows named by a claim's counted noun list ("two labels"
    against "Label: Self-released, Xurbia Xendless, XL"): each such row on the claim's
    subject, with its count. A row that writes a number itself is left to the values."""
    if q.kind != "number" or not q.noun or q.value != int(q.value) or not 1 <= q.value <= 20:
        return []
    if q.noun in STOPWORDS:
        return []
    noun = stem_key(q.noun)
    out = []
    for el in elements:
        if el.table_type != "infobox" or not el.row_header_texts or topical.get(el.id) != 2:
            continue
        header = {w for w in stem_keys(" ".join(el.row_header_texts)) if len(w) > 1} - STOPWORDS
        if header != {noun} or any(c.isdigit() for c in el.text):
            continue  # "Birth name" is one name, not a list of them
        text = _BRACKETED.sub("", el.text)
        # "Philippine and Morgane" lists two; in "Blues, rhythm and blues" "and" is in an item
        breaks = _ITEM_BREAKS if _ITEM_BREAKS.search(text) else _PAIR_BREAKS
        items = [part for part in breaks.split(text) if part.strip()]
        out.append((el, Quantity(float(len(items)), "number", f"{len(items)} listed", 0, 0)))
    return out


#: Column header words under which a cell's four digits are a year.
_YEAR_HEADERS = stem_keys(
    "year years date dates season seasons founded established opened built born died since "
    "from until to first last joined left start end began ended launched released debut "
    "elected election term period era introduced completed"
)


def _count_read_as_year(v: Quantity, el: Element) -> bool:
    """A table cell that is four digits alone under a header that speaks of no time ("1275"
    marriages, "1226" attendance) is a count, not a year to set against the claim's."""
    if v.kind != "year" or el.table is None or el.table_type == "infobox":
        return False
    if el.text.strip() != v.text or not el.col_header_texts:
        return False
    return not stem_keys(" ".join(el.col_header_texts)) & _YEAR_HEADERS


def _states_another(found: Quantity, q: Quantity, claimed: list[Quantity]) -> bool:
    """Whether ``found`` is another value the claim itself states (a unitless number: for the
    same noun), so no conflict with ``q``: in "a 100 m group of 14 mm" the row's "100 m" is
    the claim's own range, not a different group size. Years and dates are not so excused:
    "competed in the 2007 World Championships and the 2008 World Cup" is refuted by a page
    giving 2008 for the championships."""
    if found.kind in ("year", "date"):
        return False
    return any(
        other is not q
        and same_value(other, found)
        and (found.kind != "number" or found.noun == other.noun)
        for other in claimed
    )


_DATED = ("date", "year")
#: Verbs of making: the "Year" row of a painting, a building or a book is when it was made.
_MADE = stem_keys(
    "painted created completed made built written composed drawn sculpted constructed designed"
)
_YEAR_ROWS = stem_keys("year date")
#: What an infobox calls the stretch a claim's length of time is about ("served for eight
#: years": "In office"), by the stem of the claim's word.
_DURATION_WORDS = {
    stem_key(w): rows
    for w, rows in {
        "served": ("office", "term"), "serve": ("office", "term"), "office": ("office",),
        "reigned": ("reign",), "ruled": ("reign", "office"), "active": ("active",),
        "performing": ("active",), "career": ("active",), "played": ("active",),
        "recorded": ("recorded",), "record": ("recorded",), "recording": ("recorded",),
    }.items()
}  # fmt: skip
_CALENDAR_WORDS = MONTH_WORDS | frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


def _is_calendar_word(name: str) -> bool:
    return all(w in _CALENDAR_WORDS for w in WORD.findall(name.casefold()))


def _about_same_thing(q: Quantity | None, context: set[str], el: Element) -> bool:
    """Whether ``el`` gives its value for what the claim's value measures: it mentions one of
    the words around the claim's value (a unitless number: the noun it counts; ``q`` is None for
    a period)."""
    words = stem_keys(" ".join([*el.row_header_texts, *el.col_header_texts, el.text]))
    if q is not None and q.kind == "number":
        # a count in a table may be a count of its rows, which no cell states
        in_table = el.table is not None and el.table_type != "infobox"
        return (
            not in_table
            and bool(q.noun)
            and q.noun not in STOPWORDS
            and (stem_key(q.noun) in words)
        )
    return bool(context & words)


def _whole_part(q: Quantity, v: Quantity) -> bool:
    """A whole percentage is a share quoted by its whole part: "20% Russian" for "20.61%
    Russian" is how people write a share, not another value."""
    return (
        q.kind == v.kind == "percent"
        and q.relation == "="
        and "." not in q.text
        and q.value <= v.value < q.value + 1
    )


#: What separates the items of a cell that lists several ("66.48% Kazakh, 20.61% Russian").
_ITEM_BREAKS = re.compile(r"[,;\n]")
#: What separates the two items of a listing cell without commas ("Philippine and Morgane"),
#: and the asides in brackets that are part of one item ("Flora (Portland, Oregon)").
_PAIR_BREAKS = re.compile(r"\s+(?:and|&)\s+")
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _in_own_item(v: Quantity, values: list[Quantity], claim_words: set[str], el: Element) -> bool:
    """Whether a value of a cell listing several of its kind is the one for the claim's thing:
    when an item of the cell names a word of the claim that its page's title does not ("20.61%
    Russian" for a share of Russians in Kazakhstan), only that item's value stands against the
    claim, not its neighbours' ("66.48% Kazakh"); a cell whose items name nothing of the
    claim's falls back to its header."""
    text = el.text
    if el.table is None or text[v.start : v.end] != v.text:  # a year of the page's title
        return True
    if sum(o.kind == v.kind for o in values) < 2:
        return True
    words = claim_words - stem_keys(el.page)
    bounds = [0, *(m.end() for m in _ITEM_BREAKS.finditer(text)), len(text) + 1]
    naming = [(a, b) for a, b in zip(bounds, bounds[1:]) if words & stem_keys(text[a:b])]
    return not naming or any(a <= v.start < b for a, b in naming)


def _seasons(text: str, found: list[Quantity]) -> tuple[dict[int, tuple[int, int]], set[int]]:
    """A text's spans of years ("the 1994-95 season", "1994–1995"): where each starts ->
    its first and last year, and where their second halves start. A span holds each of its
    years: "1994-95" agrees with a page's 1995 and conflicts with its 1993."""
    spans: dict[int, tuple[int, int]] = {}
    halves = set()
    for a, b in zip(found, found[1:]):
        between = text[a.end : b.start]
        if a.kind != "year" or b.kind not in ("year", "number") or len(b.text) not in (2, 4):
            continue
        if between.strip() in ("-", "\u2013", "/") and a.year is not None:  # "2007 - 2008" too
            spans[a.start] = (a.year, span_end(a.year, b.text) or a.year)
            halves.add(b.start)
    return spans, halves


#: "4 times its box office", "3 times as long": a ratio between two values, neither of them.
_MULTIPLIER = re.compile(
    r"\s+(?:times|fold)\s+(?:its|the|his|her|their|that|what|as|more|less|larger|bigger|"
    r"higher|greater|smaller|longer|older)\b",
    re.IGNORECASE,
)


def _is_multiplier(claim: str, q: Quantity) -> bool:
    """A number that multiplies another value ("less than 4 times its box office take") states
    no value of its own: set against a row's number ("Running time: 104 minutes") it is no
    conflict."""
    return q.kind == "number" and bool(_MULTIPLIER.match(claim, q.end))


def _is_name_part(claim: str, q: Quantity) -> bool:
    """A number inside a name ("Apollo 11", "Route 66", "Windows 95") measures nothing."""
    if q.kind not in ("number", "year"):
        return False
    before = claim[: q.start].rstrip()
    prev = before.split()[-1] if before.split() else ""
    return (
        bool(prev)
        and prev[:1].isupper()
        and prev.casefold() not in _OPENERS
        and (q.kind == "number" or not before.endswith(","))
        and not re.match(r"(?i)(in|on|by|since|from|until|of)$", prev)
    )


def store_expander(store: Any) -> Callable[[Element], list[Element]]:
    """For a header cell: the data cells it heads (:func:`wikicheck.model.headed_cells`), at
    most 20, from ``store``."""
    cache: dict[str, list[Element]] = {}

    def expand(el: Element) -> list[Element]:
        if el.table is None:
            return []
        if el.page not in cache:
            try:
                cache[el.page] = store.page_elements(el.page)
            except Exception:  # noqa: BLE001 - a store that cannot say: no expansion
                cache[el.page] = []
        return headed_cells(el, cache[el.page])[:20]

    return expand


def apply_evidence_checks(
    row: dict[str, Any],
    claim: str,
    evidence: Sequence[Element | Evidence],
    *,
    labels: int,
    store: Any = None,
    used: Sequence[str] | None = None,
    oracle: bool = False,
    model: dict[str, Any] | None = None,
    similarity: float | None = None,
) -> Sufficiency:
    """Run :func:`check_evidence` on what the model read (``used`` ids, default all of
    ``evidence``) and write it into a prediction ``row``: ``sufficient``, ``sufficiency``
    (score, names left uncovered, the number check); in 3-way runs insufficient evidence turns
    the label into NOT ENOUGH INFO; a number or winner conflict turns SUPPORTS into REFUTES.

    ``oracle``: the evidence is the claim's own gold evidence (``--gold-evidence``); whether it
    bears on the claim is then the model's call, not the coverage check's (a gold table states
    "the table does not decide" through the model's NOT ENOUGH INFO), so only the number check
    may change the label. ``model``: another sufficiency model than :data:`SUFFICIENCY_MODEL`
    (``bench/bench_absent_evidence.py --fit`` tries them)."""
    expand = store_expander(store) if store is not None else None
    if similarity is None:  # the retrieval's top, read before the window cuts it
        similarity = evidence_similarity(evidence)
    evidence = _read(evidence, used)
    check = check_evidence(claim, evidence, expand=expand, model=model, similarity=similarity)
    row["sufficient"] = check.sufficient
    row["sufficiency"] = check.to_dict()
    before = row.get("predicted_label")
    if before is None:
        return check
    probs = row.get("probabilities")
    label, shown = checks_decision(before, probs if isinstance(probs, dict) else None, check,
                                   labels=labels, oracle=oracle)  # fmt: skip
    if label != before:
        row["label_before_checks"] = before
        row["predicted_label"] = label
        if shown is not None:
            row.setdefault("model_probabilities", dict(probs))
            row["probabilities"] = shown
    return check


#: Contradiction is not silence: a REFUTES the model gives with at least this probability
#: stands on evidence the sufficiency model scores at least :data:`CONTRADICTION_FLOOR`
#: (below its threshold): the evidence speaks about the claim and says otherwise, where a
#: claim the index lacks retrieves evidence scored lower. Both chosen on the 300 FEVEROUS-S
#: tune claims of ``bench/bench_absent_evidence.py feverous`` (with their pages: 8 of 10 such
#: REFUTES right; without: 11 of 260 NOT ENOUGH INFO lost); measured on the next 300 there.
#: Not on table evidence: on the tune part of ``bench/bench_table_claims.py`` it kept 1 right
#: REFUTES with the tables and lost 11 NOT ENOUGH INFO without them.
CONTRADICTION_CONFIDENCE = 0.6
CONTRADICTION_FLOOR = 0.2


def _contradiction(label: str, probabilities: dict[str, float] | None, check: Sufficiency) -> bool:
    if label != REFUTES or probabilities is None or check.sibling or check.tables:
        return False
    sure = probabilities.get(REFUTES, 0.0) >= CONTRADICTION_CONFIDENCE
    return sure and check.score >= CONTRADICTION_FLOOR


def checks_decision(
    label: str,
    probabilities: dict[str, float] | None,
    check: Sufficiency,
    *,
    labels: int,
    oracle: bool = False,
) -> tuple[str, dict[str, float] | None]:
    """The label and probabilities shown once the checks have spoken: a conflict (a number, a
    winner: :attr:`Sufficiency.conflict`) turns SUPPORTS into REFUTES; in 3-way runs on
    retrieved evidence, evidence that does not bear on the claim turns the answer into NOT
    ENOUGH INFO (:func:`checked_probabilities` then says how sure), unless the model is sure
    the evidence contradicts the claim and the evidence is close enough to it
    (:data:`CONTRADICTION_FLOOR`). Unchanged otherwise."""
    after = label
    if label == SUPPORTS and check.conflict:
        after = REFUTES
    if labels == 3 and not oracle and not check.sufficient and label != NEI:
        if not _contradiction(label, probabilities, check):
            after = NEI
    if probabilities is None:
        return after, None
    if after == label:
        return label, dict(probabilities)
    checked = checked_probabilities(probabilities, check.score, conflict=after == REFUTES)
    return after, agreeing_with(after, checked)


def checked_answer(
    label: str,
    probabilities: dict[str, float],
    scaling: dict[str, tuple[float, float, float]],
    sufficiency: float,
    evidence: Sequence[Element | Evidence],
    used: Sequence[str] | None = None,
) -> tuple[str, dict[str, float]]:
    """The answer and the probabilities shown once the checked scaling
    (:func:`~wikicheck.verifier.model.scaled_confidence`) has said how sure the checked answer
    is: on evidence without sentences (tables, infoboxes), a verdict shown as less likely than
    NOT ENOUGH INFO is NOT ENOUGH INFO, the answer the numbers shown rank first. ``used``: the
    ids the model read of ``evidence`` (all of it when None), as for the checks.

    Why not on sentences: there a REFUTES the scaling puts below NOT ENOUGH INFO is mostly a
    claim the sentences contradict, not one they are silent on (FEVEROUS-S tune claims
    301-600: with the pages, 12 of 13 such answers were right; without, 17 were wrong). On
    tables it is mostly silence (the table benchmark's tune part: with the tables 3-way
    accuracy 0.779 -> 0.783, without them NOT ENOUGH INFO 0.775 -> 0.783). A verdict kept
    where another label is shown above it keeps its number and that label is lowered to it
    (:func:`~wikicheck.verifier.model.led_by`)."""
    shown = scaled_confidence(label, agreeing_with(label, probabilities), scaling, sufficiency)
    if (
        label != NEI
        and shown.get(NEI, 0.0) > shown.get(label, 0.0)
        and not has_sentences(_read(evidence, used))
    ):
        return NEI, shown
    # a verdict kept below another label (beside sentences, or SUPPORTS under REFUTES) is shown
    # tied with it, at its own calibrated number: no label is shown above the answer
    return label, led_by(label, shown)


def _read(
    evidence: Sequence[Element | Evidence], used: Sequence[str] | None
) -> list[Element | Evidence]:
    """The evidence the model read (``used``: its ids), or all of it when none is known or none
    of the ids is in it."""
    if used is None:
        return list(evidence)
    keep = set(used)
    return [x for x in evidence if _element(x).id in keep] or list(evidence)


def checked_probabilities(
    probs: dict[str, float], sufficiency: float, *, conflict: bool = False
) -> dict[str, float]:
    """The probabilities shown once the checks changed a label, so that they describe the answer
    given rather than the model's overruled one.

    Insufficient evidence: the check's score is its probability that the evidence bears on the
    claim, so the answer is NOT ENOUGH INFO with probability ``1 - s`` and otherwise the
    model's: P(NEI) = 1 - s + s p(NEI), P(S) = s p(S), P(R) = s p(R). A number conflict: the
    model read the evidence as stating the claim's relation, and the value it states differs,
    so its SUPPORTS mass is REFUTES mass (the two are exchanged). The numbers before the checks
    stay in the row as ``model_probabilities``."""
    out = dict(probs)
    if conflict:
        out[SUPPORTS], out[REFUTES] = probs.get(REFUTES, 0.0), probs.get(SUPPORTS, 0.0)
        return {k: round(v, 6) for k, v in out.items()}
    s = min(1.0, max(0.0, sufficiency))
    for label, p in probs.items():
        out[label] = s * p + ((1.0 - s) if label == NEI else 0.0)
    if NEI not in out:
        out[NEI] = 1.0 - s
    return {k: round(v, 6) for k, v in out.items()}
