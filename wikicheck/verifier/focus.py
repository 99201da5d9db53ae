"""Table focusing: the rows and columns a claim is about, chosen before a table is linearized.

A 256-token window holds about a dozen table rows written as "header is value"; a TabFact table
has 5-30 rows and 4-10 columns, so most of the table never reaches the model unless the rows and
columns the claim talks about come first. This module scores each row by what it shares with the
claim (a cell whose whole text occurs in the claim, numbers, content words) and each column by
its header and by cells the claim names; columns nothing points at are dropped from wide tables
(their cells would spend the window on values no one asked about), and rows are returned best
first so :func:`wikicheck.verifier.linearize.linearize` admits them in that order (it then writes them back
in table order with ``document_order=True``).

Used identically for training pairs, evaluation and ``predict --gold-evidence``
(``docs/architecture.md`` §6: one table representation); it imports nothing from training code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from wikicheck.common.quantities import number_strings
from wikicheck.common.text import TABLE_CLAIM_STOP_WORDS, content_words
from wikicheck.model import Element

__all__ = ["FocusConfig", "NO_FOCUS", "ROWS_ONLY", "focus_table", "rank_rows", "claim_words"]

_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class FocusConfig:
    """What focusing may drop; defaults measured in ``bench/bench_verifier.py --focus``."""

    #: Tables with more columns than this lose the columns nothing in the claim points at
    #: (0: keep every column).
    max_columns: int = 5
    #: Columns always kept (the leftmost one usually names the row's subject).
    keep_first_columns: int = 1
    #: Rows most related to the claim first (False: table order, what fits the window).
    rank_rows: bool = True


#: No focusing at all: every column, rows in table order (the baseline it is measured against).
NO_FOCUS = FocusConfig(max_columns=0, rank_rows=False)
#: Rows ranked, every column kept (what ``predict --gold-evidence`` did before columns were cut).
ROWS_ONLY = FocusConfig(max_columns=0)


def claim_words(text: str) -> set[str]:
    """Lower-cased content words of ``text`` (stop words dropped)."""
    return content_words(text, TABLE_CLAIM_STOP_WORDS)


def _numbers(text: str) -> set[str]:
    return set(number_strings(text))


def _contains(haystack: str, needle: str) -> bool:
    """Whole-token containment of ``needle`` in ``haystack`` (both lower-cased word strings)."""
    return bool(needle) and f" {needle} " in f" {haystack} "


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def _cell_score(cell: Element, claim_norm: str, words: set[str], numbers: set[str]) -> float:
    text = _norm(cell.text)
    if not text:
        return 0.0
    score = 0.0
    if text not in TABLE_CLAIM_STOP_WORDS and _contains(claim_norm, text):
        score += 3.0 if len(text) > 2 else 1.0  # the claim names this cell
    score += len(claim_words(cell.text) & words) * 0.5
    score += len(_numbers(cell.text) & numbers) * 1.0
    return score


def rank_rows(claim: str, cells: Sequence[Element]) -> list[Element]:
    """Cells grouped by (page, table, row), rows most related to ``claim`` first, ties in order."""
    claim_norm, words, numbers = _norm(claim), claim_words(claim), _numbers(claim)
    rows: dict[tuple, list[Element]] = {}
    for el in cells:
        rows.setdefault((el.page, el.table or 0, el.row or 0), []).append(el)
    score = {
        key: sum(_cell_score(el, claim_norm, words, numbers) for el in els)
        + 0.5 * len(claim_words(" ".join(el.headers_text for el in els)) & words)
        for key, els in rows.items()
    }
    order = sorted(rows, key=lambda key: (-score[key], key))
    return [el for key in order for el in rows[key]]


def _relevant_columns(claim: str, cells: Sequence[Element], cfg: FocusConfig) -> set[int] | None:
    """Columns to keep, or None to keep all (narrow table, or the claim points at none)."""
    columns = sorted({el.col for el in cells if el.col is not None})
    if not cfg.max_columns or len(columns) <= cfg.max_columns:
        return None
    claim_norm, words, numbers = _norm(claim), claim_words(claim), _numbers(claim)
    score = dict.fromkeys(columns, 0.0)
    headers: dict[int, str] = {}
    for el in cells:
        if el.col is None:
            continue
        headers.setdefault(el.col, " ".join(el.col_header_texts))
        score[el.col] += _cell_score(el, claim_norm, words, numbers)
    for col, header in headers.items():
        score[col] += 2.0 * len(claim_words(header) & words)
    keep = {c for c in columns if score[c] > 0} | set(columns[: cfg.keep_first_columns])
    return keep if len(keep) < len(columns) and any(score.values()) else None


def focus_table(
    claim: str, elements: Sequence[Element], config: FocusConfig | None = None
) -> list[Element]:
    """One table's elements focused on ``claim``: context pieces, then cells of ranked rows.

    Captions and other non-cell pieces come first; header cells are dropped where data cells are
    present (each cell already reads "header is value"); wide tables keep only the columns the
    claim points at. Several tables may be passed together (each is focused on its own columns).
    """
    cfg = config or FocusConfig()
    cells = [el for el in elements if el.type == "cell"]
    with_cells = {(el.page, el.table) for el in cells}
    rest = [
        el
        for el in elements
        if el.type != "cell"
        and not (el.type == "header_cell" and (el.page, el.table) in with_cells)
    ]
    kept: list[Element] = []
    for table in dict.fromkeys((el.page, el.table) for el in cells):
        part = [el for el in cells if (el.page, el.table) == table]
        columns = _relevant_columns(claim, part, cfg)
        kept.extend(el for el in part if columns is None or el.col in columns)
    return rest + (rank_rows(claim, kept) if cfg.rank_rows else kept)
