"""Claim + evidence -> the text pair a sequence classifier reads (docs/architecture.md §6).

Evidence is written the way the FEVEROUS baseline does it: the page title once per page (before
that page's first piece inside the window), section names when they change, cells as
``"[row header] [col header] is [value]"``, captions and list items with their context. Pieces come
in the given (retrieval-score) order; a token budget keeps the best pieces inside the model window
and reports which evidence ids made it in. Whole tables (the oracle setting) are pieces too: cells
of one table row are joined with commas so the row structure survives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wikicheck.model import Element, Evidence

__all__ = ["Linearized", "element_text", "linearize", "token_counter"]

#: Separator between evidence pieces (cells of one table row use ``", "``).
PIECE_SEP = " . "
ROW_SEP = " , "
#: Tokens reserved for [CLS] claim [SEP] evidence [SEP].
SPECIAL_TOKENS = 3


@dataclass(slots=True)
class Linearized:
    """The model's text pair and which evidence ids are inside the window."""

    claim: str
    evidence: str
    used: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "evidence": self.evidence,
            "used": self.used,
            "dropped": self.dropped,
        }


def element_text(el: Element) -> str:
    """The element's content with its own local context (headers, caption, list marker)."""
    text = " ".join(el.text.split())
    if el.type == "cell":
        # A header that repeats the cell or the page title says nothing new: an infobox's title
        # row heads every cell ("Country Aare is Switzerland"), and the title is already written
        # once per page (``_prefix``).
        title = " ".join(el.page.replace("_", " ").split()).casefold()
        headers = [" ".join(h.split()) for h in [*el.row_header_texts, *el.col_header_texts]]
        headers = [h for h in headers if h and h != text and h.casefold() != title]
        return f"{' '.join(headers)} is {text}" if headers else text
    if el.type == "header_cell":
        return f"header {text}"
    if el.type == "table_caption":
        return f"table caption {text}"
    if el.type == "item":
        return f"- {text}"
    return text


def token_counter(tokenizer: Any | None) -> Callable[[str], int]:
    """Count model tokens with ``tokenizer``; without one, estimate (1.4 tokens a word)."""
    if tokenizer is None:
        return lambda s: int(len(s.split()) * 1.4) + 1
    return lambda s: len(tokenizer(s, add_special_tokens=False)["input_ids"])


def _as_element(ev: Element | Evidence) -> Element:
    return ev.element if isinstance(ev, Evidence) else ev


def _doc_key(el: Element) -> tuple:
    return (el.page, el.table if el.table is not None else -1, el.row or 0, el.position)


def linearize(
    claim: str,
    evidence: Sequence[Element | Evidence],
    *,
    tokenizer: Any | None = None,
    max_length: int = 256,
    max_claim_tokens: int = 96,
    document_order: bool = False,
    count: Callable[[str], int] | None = None,
) -> Linearized:
    """Linearize ``evidence`` (best first) for ``claim`` within ``max_length`` model tokens.

    Pieces are admitted greedily in the given order; one that does not fit is dropped and smaller
    later ones may still fit, so the window is used fully while the best evidence always wins.
    ``document_order=True`` then writes the admitted pieces in page/table order (whole tables in
    the oracle setting, where the order given is only a relevance ranking of rows).
    """
    count = count or token_counter(tokenizer)
    claim = " ".join(claim.split())
    claim_tokens = count(claim)
    if claim_tokens > max_claim_tokens:
        words = claim.split()
        keep = max(1, int(len(words) * max_claim_tokens / claim_tokens))
        claim = " ".join(words[:keep])
        claim_tokens = count(claim)
    budget = max_length - SPECIAL_TOKENS - claim_tokens
    elements = [_as_element(ev) for ev in evidence]
    admitted: list[Element] = []
    dropped: list[str] = []
    seen_pages: set[str] = set()
    seen_sections: dict[str, tuple[str, ...]] = {}
    used_tokens = 0
    for el in elements:
        # Cost in the worst case: title and section prefix written before this piece.
        prefix = _prefix(el, seen_pages, seen_sections)
        cost = count(prefix + element_text(el)) + 2
        if used_tokens + cost > budget:
            dropped.append(el.id)
            continue
        used_tokens += cost
        admitted.append(el)
        seen_pages.add(el.page)
        seen_sections[el.page] = tuple(el.section_names)
    if document_order:
        admitted.sort(key=_doc_key)
    return Linearized(claim, _write(admitted), [el.id for el in admitted], dropped)


def _prefix(el: Element, seen_pages: set[str], seen_sections: dict[str, tuple[str, ...]]) -> str:
    parts = []
    if el.page and el.page not in seen_pages:
        parts.append(f"{el.page} :")
    sections = tuple(el.section_names)
    if sections and seen_sections.get(el.page) != sections:
        parts.append(" ; ".join(sections) + " :")
    return " ".join(parts) + (" " if parts else "")


def _write(elements: list[Element]) -> str:
    out: list[str] = []
    seen_pages: set[str] = set()
    seen_sections: dict[str, tuple[str, ...]] = {}
    prev: Element | None = None
    for el in elements:
        prefix = _prefix(el, seen_pages, seen_sections)
        same_row = (
            prev is not None
            and not prefix
            and el.type == "cell"
            and prev.type == "cell"
            and prev.page == el.page
            and prev.table == el.table
            and prev.row == el.row
        )
        if out:
            ends = out[-1].rstrip().endswith((".", "!", "?"))
            out.append(ROW_SEP if same_row else (" " if ends else PIECE_SEP))
        out.append(prefix + element_text(el))
        seen_pages.add(el.page)
        seen_sections[el.page] = tuple(el.section_names)
        prev = el
    return "".join(out)
