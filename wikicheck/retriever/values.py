"""Header cells never travel alone: each brings the data cells it heads.

A header cell ("elevation", "Capacity") says what a value is but not the value; shown or read
alone it lets a claim with any number look supported (the sample's "The Aare's source is at an
elevation of 3,500 metres." was SUPPORTS 0.86 on the header cells "elevation" and "Source").
Every header cell in the evidence is therefore followed by the data cells of its row (a row
header, as in infoboxes) or its column (a column header), at most :data:`VALUES_PER_HEADER`,
those matching the claim's numbers or words first; they take the header's score, so they rank,
display and get read next to it. Data cells carry their row and column header texts themselves
(``Element.row_header_texts`` / ``col_header_texts``), which the verifier and every display show
with the value. Entry point: :func:`with_header_values`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wikicheck.model import Element, Evidence, headed_cells
from wikicheck.retriever.cells import numbers_of, within_cell_budget
from wikicheck.retriever.claim import ClaimAnalysis

__all__ = ["VALUES_PER_HEADER", "with_header_values"]

_WORD_RE = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD_RE.findall(text.casefold()))


#: Data cells a header cell brings (a row header in an infobox heads one; a column header may
#: head dozens, of which the ones matching the claim come first).
VALUES_PER_HEADER = 3


def with_header_values(
    evidence: Sequence[Evidence],
    store,
    analysis: ClaimAnalysis | None,
    max_cells: int,  # noqa: ANN001
) -> list[Evidence]:
    """``evidence`` with each header cell followed by its data cells; at most ``max_cells``
    cell-like elements (the scorer's budget), the best-ranked kept."""
    if not any(ev.element.type == "header_cell" for ev in evidence):
        return list(evidence)
    present = {ev.id for ev in evidence}
    claim_numbers = numbers_of(analysis.text) if analysis is not None else set()
    # words that name something ("Bern", "Glacier"), not "the" or "in"
    claim_words = {w for w in _words(analysis.text) if len(w) >= 4} if analysis else set()
    pages: dict[str, list[Element]] = {}
    out: list[Evidence] = []
    for ev in evidence:
        out.append(ev)
        head = ev.element
        if head.type != "header_cell":
            continue
        if head.page not in pages:
            pages[head.page] = store.page_elements(head.page)
        values = [
            el
            for el in headed_cells(head, pages[head.page])
            if el.text.strip() and el.id not in present
        ]

        def fit(el: Element) -> tuple[int, int, int]:
            shared = len(numbers_of(el.text) & claim_numbers)
            shared += len(_words(el.text) & claim_words)
            return (-shared, el.row if el.row is not None else 0, el.col or 0)

        # a row header's cells are its values; a column header's cells are many rows, of
        # which only those sharing a number or word with the claim bear on it
        chosen = [el for el in sorted(values, key=fit) if el.row == head.row or fit(el)[0] < 0]
        for el in chosen[:VALUES_PER_HEADER]:
            present.add(el.id)
            out.append(Evidence(el, score=ev.score, scores={"header_value_of": ev.score}))
    return within_cell_budget(out, max_cells)
