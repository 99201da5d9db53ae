"""The engine-neutral store contract: the ``Store`` protocol, the query tree and hits.

Retrieval builds queries as small trees of :class:`Text`, :class:`Exact`, :class:`AnyOf`,
:class:`Prefix` and :class:`Bool` nodes — from tokens, in code, never by handing claim text to a
query-string parser (claims contain words and characters that are query syntax). Each store
translates the tree: Tantivy through its programmatic query constructors, Elasticsearch through
the DSL. Everything returned is our own types (:class:`Hit`, :class:`PageHit`, ``Element``), never
engine objects.

Two indices:

* **elements** — fields ``id``, ``page``, ``type`` (keywords), ``text`` (English-stemmed),
  ``text_plain`` (lowercased, unstemmed), ``title`` (page title as text), ``sections``,
  ``headers`` (row/column header texts), plus the stored element.
* **pages** — ``title`` (text), ``title_near`` (normalized keyword, see
  :func:`normalize_title`), ``title_prefix`` (edge n-grams / prefix), ``lead`` (first sentences),
  ``body`` (all element text).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from wikicheck.common.text import distinct
from wikicheck.model import Element

if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "Text",
    "Exact",
    "AnyOf",
    "Prefix",
    "Bool",
    "Query",
    "Hit",
    "PageHit",
    "PageInfo",
    "StoreStats",
    "Store",
    "StoreWriter",
    "EncodedWriter",
    "PreEncoding",
    "WriterLifecycle",
    "StoreLifecycle",
    "ELEMENT_FIELDS",
    "PAGE_FIELDS",
    "normalize_title",
    "title_variants",
    "tokens",
    "free_text_query",
    "lead_text",
]

ELEMENT_FIELDS = ("id", "page", "type", "text", "text_plain", "title", "sections", "headers")
PAGE_FIELDS = ("title", "title_near", "title_prefix", "lead", "body")

TextMode = Literal["or", "and", "phrase"]


@dataclass(frozen=True, slots=True)
class Text:
    """Full-text match of ``text`` (analysed like the field) in ``field``.

    ``mode``: ``or`` (any term, BM25-ranked), ``and`` (all terms), ``phrase`` (terms in order).
    """

    field: str
    text: str
    boost: float = 1.0
    mode: TextMode = "or"


@dataclass(frozen=True, slots=True)
class Exact:
    """Exact keyword equality (``page``, ``type``, ``id``, ``title_near``)."""

    field: str
    value: str
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Keyword equal to any of ``values`` (a terms query)."""

    field: str
    values: tuple[str, ...]
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class Prefix:
    """Keyword/normalized-title prefix match (``title_prefix``)."""

    field: str
    value: str
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class Bool:
    """Boolean combination; ``filter`` and ``must_not`` do not score."""

    should: tuple[Query, ...] = ()
    must: tuple[Query, ...] = ()
    filter: tuple[Query, ...] = ()
    must_not: tuple[Query, ...] = ()
    boost: float = 1.0


Query = Text | Exact | AnyOf | Prefix | Bool


@dataclass(slots=True)
class Hit:
    """An element search result: the stored element and its engine score."""

    id: str
    score: float
    element: Element


@dataclass(slots=True)
class PageHit:
    title: str
    score: float


@dataclass(slots=True)
class PageInfo:
    """What the page index holds about one page."""

    title: str
    n_elements: int
    lead: str = ""
    by_type: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class StoreStats:
    pages: int
    elements: int
    by_type: dict[str, int]
    bytes_on_disk: int | None
    engine: str
    location: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "elements": self.elements,
            "by_type": dict(self.by_type),
            "bytes_on_disk": self.bytes_on_disk,
            "engine": self.engine,
            "location": self.location,
        }


@runtime_checkable
class StoreWriter(Protocol):
    """Adds pages in batches; ``commit`` makes them durable together with a checkpoint token.

    A context manager: leaving the block normally is :meth:`close`, leaving it by an exception
    is :meth:`abort`. ``close()`` may publish the build (Elasticsearch swaps its aliases);
    ``abort()`` never does, so a failed or interrupted run keeps its checkpoint for ``--resume``.
    """

    def add_page(self, title: str, elements: Sequence[Element], lead: str | None = None) -> None:
        """Index a page and its elements, replacing any earlier version of that page."""

    def commit(self, checkpoint: dict[str, Any] | None = None) -> None:
        """Make everything added so far durable, atomically with ``checkpoint``."""

    def close(self) -> None:
        """Finish: uncommitted additions are discarded; a fully committed build is published."""

    def abort(self) -> None:
        """Stop after a failure or interrupt: discard uncommitted additions, publish nothing."""

    def __enter__(self) -> StoreWriter: ...

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None: ...


@runtime_checkable
class EncodedWriter(StoreWriter, Protocol):
    """A writer that takes pages pre-encoded by its store's ``encode_page`` (the fast path)."""

    def add_encoded(self, encoded: Any) -> None:
        """Add a page made by the store's ``encode_page`` (replacing its earlier version)."""


@runtime_checkable
class PreEncoding(Protocol):
    """The optional fast path of a store: pages are encoded in the indexing workers.

    ``encode_page`` is a picklable plain function (it is sent to worker processes) turning a page
    into whatever the store's :class:`EncodedWriter` takes, so the single writer process does no
    per-element Python work. :mod:`wikicheck.indexer.pipeline` uses it when ``isinstance(store,
    PreEncoding)``.
    """

    @staticmethod
    def encode_page(title: str, elements: Sequence[Element], lead: str | None = None) -> Any: ...

    def writer(self) -> EncodedWriter: ...


@runtime_checkable
class Store(Protocol):
    """One interface over every engine (embedded Tantivy, Elasticsearch).

    Engine-specific sizing (Tantivy's writer heap and threads, Elasticsearch's bulk sizes) is
    given when the store is opened (``open_store(..., **options)``), never to :meth:`writer`.
    A context manager: leaving the block closes the store.
    """

    engine: str

    @property
    def location(self) -> str:
        """Where the index lives, for messages and summaries (a directory, or URL and indices)."""

    def writer(self) -> StoreWriter: ...

    def checkpoint(self) -> dict[str, Any] | None:
        """The checkpoint token of the last commit (None for a fresh index)."""

    def reload(self) -> None:
        """See commits made since opening (by this process or another; a no-op where reads are
        always current)."""

    def search(self, query: Query, k: int = 10, *, filters: Sequence[Query] = ()) -> list[Hit]:
        """Top-``k`` elements for ``query`` restricted by non-scoring ``filters``."""

    def search_pages(self, query: Query, k: int = 10) -> list[PageHit]:
        """Top-``k`` pages of the page index."""

    def get(self, ids: Sequence[str]) -> dict[str, Element]:
        """The stored elements for ``ids`` (unknown ids are absent from the result)."""

    def page(self, title: str) -> PageInfo | None:
        """Page-index entry for an exact title, or None."""

    def page_elements(self, title: str) -> list[Element]:
        """Every element of a page in page order (empty if the page is unknown)."""

    def titles_near(self, text: str, k: int = 10) -> list[str]:
        """Titles whose normalized form equals ``text``'s (with/without disambiguation suffix)."""

    def stats(self) -> StoreStats: ...

    def close(self) -> None: ...

    def __enter__(self) -> Store: ...

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None: ...


class WriterLifecycle:
    """The context-manager half of :class:`StoreWriter`, shared by the engines' writers."""

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class StoreLifecycle:
    """The context-manager half of :class:`Store`: leaving the block closes the store."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.close()


_PUNCT_RE = re.compile(r"[\W_]+", re.UNICODE)
_DISAMBIG_RE = re.compile(r"\s*\((?:disambiguation)\)\s*$", re.IGNORECASE)
_TOKEN_RE = re.compile(r"\w+", re.UNICODE)


def normalize_title(text: str) -> str:
    """The near-match form of a title: NFC, case-folded, punctuation/underscores folded to spaces.

    ``"Aare_(river)"``, ``"aare (River)"`` and ``"AARE – river"`` all give ``"aare river"``.
    NFC here only for matching: stored ids keep the dump's own form (NFD in the official db).
    """
    text = unicodedata.normalize("NFC", text).casefold()
    return " ".join(_PUNCT_RE.sub(" ", text).split())


def title_variants(title: str) -> list[str]:
    """Normalized forms a title is findable under: itself and without " (disambiguation)"."""
    forms = [normalize_title(title)]
    stripped = _DISAMBIG_RE.sub("", title)
    if stripped != title and stripped.strip():
        forms.append(normalize_title(stripped))
    return forms


def tokens(text: str) -> list[str]:
    """Word tokens (lowercased) for building term queries in code."""
    return [t.casefold() for t in _TOKEN_RE.findall(text)]


def free_text_query(text: str) -> Bool:
    """BM25 over element text and its context fields for free text (``search``, ``GET /search``).

    Built from the word tokens in code, never parsed as query syntax. The weights match the
    retriever's defaults for the element pass (text > plain = title = headers > sections).
    """
    words = " ".join(tokens(text))
    return Bool(
        should=(
            Text("text", words),
            Text("text_plain", words, boost=0.5),
            Text("title", words, boost=0.5),
            Text("sections", words, boost=0.3),
            Text("headers", words, boost=0.5),
        )
    )


def lead_text(elements: Iterable[Element], n: int = 3) -> str:
    """A page's lead for the page index: its first ``n`` sentences, joined by spaces."""
    out: list[str] = []
    for el in elements:
        if el.type == "sentence":
            out.append(el.text)
            if len(out) >= n:
                break
    return " ".join(out)


#: Order-keeping de-duplication (of ids, terms): the one shared helper.
dedupe = distinct
