"""A stored page's elements -> the blocks a person reads: headings, paragraphs, tables, lists.

The index keeps elements, not page JSON, so the page view rebuilds the page from them: a heading
wherever the section path changes, consecutive sentences as one paragraph, a table's caption and
cells as one table (its grid rebuilt from each cell's row, column and spans), a list's items as
one list. Pure functions over :class:`wikicheck.model.Element`, so they are tested without a server.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from wikicheck.ids import CELL_LIKE_TYPES
from wikicheck.model import Element

__all__ = [
    "Heading",
    "Paragraph",
    "Table",
    "TableCell",
    "ItemList",
    "Block",
    "page_blocks",
    "table_rows",
    "parse_highlight",
    "MAX_HIGHLIGHT_IDS",
]

#: Most ids one ``?highlight=`` may mark (a prediction names at most a few dozen).
MAX_HIGHLIGHT_IDS = 1000


@dataclass
class Heading:
    id: str
    text: str
    level: int  # 1: a top-level section of the page
    kind: Literal["heading"] = "heading"


@dataclass
class Paragraph:
    sentences: list[Element] = field(default_factory=list)
    kind: Literal["paragraph"] = "paragraph"


@dataclass
class TableCell:
    """One drawn ``<td>``/``<th>``; ``element`` is None for a grid hole no cell covers."""

    element: Element | None
    header: bool = False
    row_span: int = 1
    col_span: int = 1


@dataclass
class Table:
    number: int
    caption: Element | None = None
    cells: list[Element] = field(default_factory=list)
    table_type: str | None = None
    kind: Literal["table"] = "table"

    @property
    def rows(self) -> list[list[TableCell]]:
        return table_rows(self.cells)


@dataclass
class ItemList:
    number: int
    items: list[Element] = field(default_factory=list)
    kind: Literal["list"] = "list"


Block = Heading | Paragraph | Table | ItemList


def page_blocks(elements: Iterable[Element]) -> list[Block]:
    """The page's blocks in page order (``elements`` as ``Store.page_elements`` returns them)."""
    blocks: list[Block] = []
    path: list[str] = []
    for el in sorted(elements, key=lambda e: e.position):
        if list(el.section_ids) != path:
            new = list(el.section_ids)
            common = _common_prefix(path, new)
            for depth in range(common, len(new)):
                names = el.section_names
                text = names[depth] if depth < len(names) else new[depth]
                blocks.append(Heading(new[depth], text, depth + 1))
            path = new
        last = blocks[-1] if blocks else None
        if el.type == "sentence":
            if not isinstance(last, Paragraph):
                last = Paragraph()
                blocks.append(last)
            last.sentences.append(el)
        elif el.type in CELL_LIKE_TYPES and el.type != "item" and el.table is not None:
            if not (isinstance(last, Table) and last.number == el.table):
                last = Table(el.table, table_type=el.table_type)
                blocks.append(last)
            if el.type == "table_caption":
                last.caption = el
            else:
                last.cells.append(el)
        elif el.type == "item":
            number = el.list_no if el.list_no is not None else -1
            if not (isinstance(last, ItemList) and last.number == number):
                last = ItemList(number)
                blocks.append(last)
            last.items.append(el)
    return blocks


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def table_rows(cells: Iterable[Element]) -> list[list[TableCell]]:
    """Rows of drawn cells: each cell at its (row, col) with its spans; holes filled.

    A position covered by a span from an earlier row or column is skipped (the browser draws the
    spanning cell there); a position no cell covers gets an empty cell, so every row is as wide
    as the table and the columns line up.
    """
    placed: dict[tuple[int, int], Element] = {}
    for el in cells:
        if el.row is not None and el.col is not None:
            placed.setdefault((el.row, el.col), el)
    if not placed:
        return []
    n_rows = max(r for r, _ in placed) + 1
    n_cols = max(c + (el.col_span or 1) for (_, c), el in placed.items())
    covered: set[tuple[int, int]] = set()
    rows: list[list[TableCell]] = []
    for r in range(n_rows):
        row: list[TableCell] = []
        for c in range(n_cols):
            if (r, c) in covered:
                continue
            el = placed.get((r, c))
            if el is None:
                row.append(TableCell(None))
                continue
            rs = max(1, min(el.row_span or 1, n_rows - r))
            cs = max(1, el.col_span or 1)
            for dr in range(rs):
                for dc in range(cs):
                    covered.add((r + dr, c + dc))
            row.append(TableCell(el, el.type == "header_cell", rs, cs))
        rows.append(row)
    return rows


def parse_highlight(
    values: Sequence[str], title: str, known: Iterable[str]
) -> tuple[list[str], int]:
    """The ids a ``?highlight=`` names that are ``title``'s elements, and how many were not.

    Values are comma-separated ids (the parameter may also repeat). Titles themselves may
    contain commas (``Charles, Duke of Orléans_sentence_0``), so neighbouring pieces are joined
    back when together they form a known id; an id may also be given without its title
    (``cell_0_1_1``). Ids not on the page are dropped and counted, for the page to say so.
    """
    known_set = set(known)
    found: list[str] = []
    dropped = 0
    for value in values:
        pieces = value.split(",")[: 4 * MAX_HIGHLIGHT_IDS]
        i = 0
        while i < len(pieces):
            for j in range(i, min(i + _MAX_COMMAS_IN_ID + 1, len(pieces))):
                joined = ",".join(pieces[i : j + 1]).strip()
                match = next((c for c in (joined, f"{title}_{joined}") if c in known_set), None)
                if match is not None:
                    if match not in found:
                        found.append(match)
                    i = j + 1
                    break
            else:
                dropped += bool(pieces[i].strip())
                i += 1
    return found[:MAX_HIGHLIGHT_IDS], dropped


#: Most commas looked for inside one id's title when splitting ``?highlight=``.
_MAX_COMMAS_IN_ID = 8
