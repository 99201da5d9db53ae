"""Cells travel with their row: the row a claim names brings the cells the claim reads, and a
cell of a table without row headers brings the cell that says whose row it is.

A results table answers "Alberto Ascari drove for Alfa Romeo" in one row: Ascari's. Retrieval
scores cells one by one, so it finds the claim's words wherever they are: "Alberto Ascari" in
his row, and "Alfa Romeo" in five other drivers' rows, each shown and read with its column
header only ("Constructor is Alfa Romeo"), so nobody can tell whose it is, while Ascari's own
Constructor cell ("Ferrari"), which matches no word of the claim, is not there at all.

Two steps fix that, after cell selection (:func:`with_named_rows`):

1. **Named rows.** A row is named by the claim when one of its cells (at least
   :data:`MIN_KEY_CHARS` characters, not a bare number) occurs whole in the claim and in no other
   row of its column: that cell is the row's key. The columns the claim reads are those whose
   header words are all in the claim and those holding a value the claim states (in any row).
   The named row's cells in those columns join the evidence next to the table's best cell, with
   its score, so they rank, are shown and are read beside it.
2. **Row keys.** Tables without row headers (most of Wikipedia's) name a row by a cell of it: the
   named key when the claim names the row, else the row's first cell that is not a number. A
   data cell elsewhere in the row is shown and read with it: the key cell follows the cell in
   the evidence (the verifier writes cells of one row together), and
   :attr:`wikicheck.model.Evidence.row_key` carries its text for every display.

A cell these steps bring that retrieval ranked lower moves up beside its row and ranks with it
(its own scores kept): left where it ranked, the other rows' keys would push it past the cell
budget.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from wikicheck.model import Element, Evidence
from wikicheck.retriever.cells import within_cell_budget
from wikicheck.retriever.claim import ClaimAnalysis

__all__ = ["MIN_KEY_CHARS", "row_key", "with_named_rows"]

#: Shorter cell values ("1", "No", "DNF") occur inside almost any claim: they name no row.
MIN_KEY_CHARS = 4

_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _occurs(value: str, claim_words: list[str]) -> bool:
    """Whether the words of ``value`` occur in order, contiguously, among ``claim_words``."""
    words = _words(value)
    n = len(words)
    if not n:
        return False
    return any(claim_words[i : i + n] == words for i in range(len(claim_words) - n + 1))


def _is_key_text(text: str) -> bool:
    t = text.strip()
    return len(t) >= MIN_KEY_CHARS and any(ch.isalpha() for ch in t)


def row_key(row: Sequence[Element]) -> Element | None:
    """The cell that says whose row it is when no header cell does: the first data cell (by
    column) whose text is not a number."""
    for el in sorted(row, key=lambda e: e.col or 0):
        if el.type == "cell" and _is_key_text(el.text):
            return el
    return None


class _Table:
    """One table's data cells by row and column, read once per claim."""

    def __init__(self, cells: list[Element]) -> None:
        self.rows: dict[int, list[Element]] = defaultdict(list)
        self.by_col: dict[int, list[Element]] = defaultdict(list)
        for el in cells:
            if el.row is not None:
                self.rows[el.row].append(el)
                self.by_col[el.col or 0].append(el)
        self.has_row_headers = any(el.row_headers for el in cells)

    def named_rows(self, claim_words: list[str]) -> dict[int, Element]:
        """Row -> its key cell, for the rows the claim names (see the module docstring)."""
        named: dict[int, Element] = {}
        for col_cells in self.by_col.values():
            hits = [
                el for el in col_cells if _is_key_text(el.text) and _occurs(el.text, claim_words)
            ]
            rows = {el.row for el in hits}
            if len(rows) != 1:
                continue
            (el,) = hits[:1]
            same_text = [
                o for o in col_cells if o.text.strip().casefold() == el.text.strip().casefold()
            ]
            if len({o.row for o in same_text}) == 1:
                named.setdefault(el.row, el)
        return named

    def read_columns(self, claim_words: list[str], keys: set[int]) -> set[int]:
        """The columns the claim reads: its words in the header, or a value it states."""
        claim_set = set(claim_words)
        cols = set()
        for col, col_cells in self.by_col.items():
            if col in keys:
                continue
            header = next((h for el in col_cells for h in el.col_header_texts), "")
            header_words = set(_words(header))
            if header_words and header_words <= claim_set:
                cols.add(col)
            elif any(_is_key_text(el.text) and _occurs(el.text, claim_words) for el in col_cells):
                cols.add(col)
        return cols


def with_named_rows(
    evidence: Sequence[Evidence],
    store,  # noqa: ANN001
    analysis: ClaimAnalysis | None,
    max_cells: int,
) -> list[Evidence]:
    """``evidence`` with the named rows' read cells and every table cell's row key (module
    docstring); at most ``max_cells`` cell-like elements, the best-ranked kept."""
    if analysis is None or not any(ev.element.type == "cell" for ev in evidence):
        return list(evidence)
    claim_words = _words(analysis.text)
    tables: dict[tuple[str, int], _Table] = {}
    pages: dict[str, list[Element]] = {}

    def table_of(el: Element) -> _Table:
        key = (el.page, el.table)
        if key not in tables:
            if el.page not in pages:
                pages[el.page] = store.page_elements(el.page)
            cells = [e for e in pages[el.page] if e.table == el.table and e.type == "cell"]
            tables[key] = _Table(cells)
        return tables[key]

    later = {ev.id: ev for ev in evidence}  # retrieved, not yet placed: may move up
    present: set[str] = set()
    named: dict[tuple[str, int], dict[int, Element]] = {}
    out: list[Evidence] = []

    def place(cell: Element, score: float, reason: str) -> Evidence | None:
        """Put ``cell`` next in the evidence with its row's ``score``: its retrieved entry moved
        up when it has one (a key cell ranked below the budget would otherwise be cut; its own
        scores are kept beside ``reason``), else a new one."""
        if cell.id in present:
            return None
        present.add(cell.id)
        added = later.pop(cell.id, None)
        if added is None:
            added = Evidence(cell, score=score, scores={reason: score})
        elif score > added.score:
            added.score = score
            added.scores[reason] = score
        out.append(added)
        return added

    for ev in evidence:
        if ev.id in present:  # already placed beside its row
            continue
        present.add(ev.id)
        later.pop(ev.id, None)
        el = ev.element
        if el.type != "cell" or el.table is None or el.row is None:
            out.append(ev)
            continue
        key = (el.page, el.table)
        table = table_of(el)
        first = key not in named
        if first:
            named[key] = table.named_rows(claim_words)
        keys = named[key]
        key_cell = keys.get(el.row)
        if key_cell is None and not table.has_row_headers:
            key_cell = row_key(table.rows.get(el.row, []))
        if key_cell is not None and key_cell.id != el.id and not el.row_headers:
            ev.row_key = key_cell.text
        out.append(ev)
        if key_cell is not None and not el.row_headers:
            place(key_cell, ev.score, "row_key_of")
        if first and keys:  # the named rows' cells the claim reads, next to the table's best
            columns = table.read_columns(claim_words, {k.col or 0 for k in keys.values()})
            for row, key_el in sorted(keys.items()):
                for cell in sorted(table.rows[row], key=lambda e: e.col or 0):
                    if (cell.col or 0) not in columns and cell is not key_el:
                        continue
                    added = place(cell, ev.score, "named_row")
                    if added is not None and cell is not key_el and not cell.row_headers:
                        added.row_key = key_el.text
    return within_cell_budget(out, max_cells)
