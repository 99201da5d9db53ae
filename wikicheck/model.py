"""The data model every part shares: ``Element`` (one search document) and ``Evidence``.

Readers yield raw page dicts (the FEVEROUS page JSON); :mod:`wikicheck.indexer.extract` turns a page into
``Element``s; stores index and return them; the retriever wraps them in ``Evidence`` with its
per-stage scores; the verifier reads ``Evidence``. Nothing downstream sees engine objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["Element", "Evidence", "LABELS", "SUPPORTS", "REFUTES", "NEI", "headed_cells"]

SUPPORTS = "SUPPORTS"
REFUTES = "REFUTES"
NEI = "NOT ENOUGH INFO"
#: The three verdicts, in the order probabilities are reported.
LABELS = (SUPPORTS, REFUTES, NEI)


@dataclass(slots=True)
class Element:
    """One sentence, cell, header cell, table caption or list item, with its context.

    ``context`` lists context ids the way the official annotations do: the page title first,
    then the enclosing sections outermost first, then (for data cells) row and column headers.
    """

    id: str
    page: str
    type: str
    text: str
    position: int
    links: list[str] = field(default_factory=list)
    section_ids: list[str] = field(default_factory=list)
    section_names: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)
    # tables (cells, header cells, captions)
    table: int | None = None
    row: int | None = None
    col: int | None = None
    table_type: str | None = None
    row_headers: list[str] = field(default_factory=list)
    row_header_texts: list[str] = field(default_factory=list)
    col_headers: list[str] = field(default_factory=list)
    col_header_texts: list[str] = field(default_factory=list)
    # rows / columns a table cell spans when more than one (None: 1); a page view draws the table
    row_span: int | None = None
    col_span: int | None = None
    # lists
    list_no: int | None = None
    level: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Element:
        """Build from a dict, ignoring keys this version does not know (forward compatible)."""
        known = _ELEMENT_FIELDS
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def headers_text(self) -> str:
        """Row then column header texts, for indexing and linearisation."""
        return " ; ".join(self.row_header_texts + self.col_header_texts)


_ELEMENT_FIELDS = frozenset(f.name for f in fields(Element))


@dataclass(slots=True)
class Evidence:
    """A retrieved element with the scores each retrieval stage gave it."""

    element: Element
    score: float = 0.0
    scores: dict[str, float] = field(default_factory=dict)
    #: For a data cell of a table without row headers: the text of the cell that says whose row
    #: it is (``wikicheck.retriever.rows``), shown beside the value ("Ferrari", row "Alberto
    #: Ascari"). None elsewhere.
    row_key: str | None = None

    @property
    def id(self) -> str:
        return self.element.id

    def to_dict(self) -> dict[str, Any]:
        d = self.element.to_dict()
        d["score"] = self.score
        d["scores"] = dict(self.scores)
        if self.row_key is not None:
            d["row_key"] = self.row_key
        return d


def headed_cells(header: Element, elements: Iterable[Element]) -> list[Element]:
    """The data cells among ``elements`` that ``header`` heads, in their order: its row's for a
    row header (as in infoboxes), its column's for a column header, by the header ids each cell
    records (``row_headers`` / ``col_headers``). A header cell says what a value is, not the
    value: whoever shows or reads one brings these with it."""
    return [
        el
        for el in elements
        if el.type == "cell"
        and el.table == header.table
        and header.id in (*el.row_headers, *el.col_headers)
    ]
