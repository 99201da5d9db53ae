"""Evidence selection: sentences by fused score and two priors; tables first, then cells in them.

Sentences get two small bonuses before the best ``max_sentences`` are kept: a **position prior**
(``w_position * max(0, 1 - index / position_horizon)``: Wikipedia leads state most checkable
facts, and FEVEROUS gold sets are mostly a page's first sentences) and a **same-page bonus**
(``w_same_page`` for sentences on the page of the best-scoring sentence: multi-sentence gold sets
usually come from one page). Then a **page-crowding penalty** re-ranks the best
``crowding_depth`` sentences: each loses ``w_page_crowding`` times the share of them that its
page holds. A long page that matches the claim's words everywhere fills the five places with its
third and fourth sentences, while a claim that names a second thing ("... two new players,
Jonathan David and Angel Gomes") needs that thing's lead sentence, whose page has one candidate.
The best sentence keeps its score, so the penalty does not move sentences against cells.
Measured on FEVEROUS-S dev-tune in ``docs/retrieval.md``.

Cells are weak alone ("1879", "Yes"), so they are chosen in two steps: rank tables by their
best cells' fused scores (plus their caption's), keep ``max_tables``; then rank the cells of those
tables by fused score plus a bonus for each thing of the claim they match — a header text whose
words are in the claim, an entity/capitalised span or number/date of the claim inside the cell.
Captions and list items compete with cells for the ``max_cells`` budget (the FEVEROUS scorer
counts cells, header cells, captions and items together against 25 and sentences against 5).
Entry point: :func:`select_evidence`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from wikicheck.common.quantities import number_strings, numbers
from wikicheck.ids import CELL_LIKE_TYPES, parse_id
from wikicheck.model import Evidence
from wikicheck.retriever.claim import ClaimAnalysis
from wikicheck.retriever.config import RetrieverConfig

__all__ = ["match_count", "numbers_of", "rank_key", "select_evidence", "within_cell_budget"]

_WORD_RE = re.compile(r"\w+")


def within_cell_budget(evidence: Sequence[Evidence], max_cells: int) -> list[Evidence]:
    """``evidence`` (best-ranked first) with at most ``max_cells`` cell-like elements: the
    scorer's budget, which elements that bring cells along (header values, a named row's
    cells) must keep to; sentences and other elements are all kept."""
    kept, cells = [], 0
    for ev in evidence:
        if ev.element.type in CELL_LIKE_TYPES:
            cells += 1
            if cells > max_cells:
                continue
        kept.append(ev)
    return kept


def numbers_of(text: str) -> set[float]:
    """The numbers of ``text`` as values (:func:`wikicheck.common.quantities.numbers`): "3,500"
    and "3500" are one number, 291.5 is not the 291 of the lap time "1:33.291"."""
    return set(numbers(text))


def rank_key(ev: Evidence) -> tuple[float, str]:
    """Best score first; equal scores by element id, so the order never depends on the order
    candidates arrived in (``wikicheck.retriever.dense_scores``)."""
    return (-ev.score, ev.element.id)


def match_count(
    ev: Evidence, analysis: ClaimAnalysis, claim_words: set[str], min_chars: int = 3
) -> int:
    """How many claim things a cell-like element matches (headers, spans, numbers).

    ``min_chars``: shorter cell values ("1", "No") are inside almost any claim, so they count
    only through their numbers.
    """
    el = ev.element
    n = 0
    for header in el.row_header_texts + el.col_header_texts:
        words = set(_WORD_RE.findall(header.casefold()))
        if words and words <= claim_words:
            n += 1
    text = el.text.casefold()
    if text.strip() and len(text) >= min_chars and text.strip() in analysis.text.casefold():
        n += 1  # the whole cell value appears in the claim ("Pirate Party", "1879")
    nums = set(number_strings(el.text))
    n += sum(1 for x in analysis.numbers if x in nums)
    return n


def select_evidence(
    candidates: Sequence[Evidence], analysis: ClaimAnalysis, config: RetrieverConfig
) -> list[Evidence]:
    """At most ``max_sentences`` sentences and ``max_cells`` cell-like elements, best first."""
    sentences = _sentence_priors([e for e in candidates if e.element.type == "sentence"], config)[
        : config.max_sentences
    ]
    cell_like = [e for e in candidates if e.element.type in CELL_LIKE_TYPES]
    chosen_cells = _select_cells(cell_like, analysis, config)
    return sorted(sentences + chosen_cells, key=rank_key)


def _sentence_priors(sentences: list[Evidence], config: RetrieverConfig) -> list[Evidence]:
    """Add the position prior, the same-page bonus and the page-crowding penalty (see the module
    docstring); best first."""
    if not sentences:
        return []
    best_page = max(sentences, key=lambda e: e.score).element.page
    for ev in sentences:
        if config.w_position and config.position_horizon > 0:
            index = parse_id(ev.element.id).numbers[0]
            prior = config.w_position * max(0.0, 1.0 - index / config.position_horizon)
            if prior:
                ev.scores["position"] = prior
                ev.score += prior
        if config.w_same_page and ev.element.page == best_page:
            ev.scores["same_page"] = config.w_same_page
            ev.score += config.w_same_page
    return _crowding_penalty(sorted(sentences, key=rank_key), config)


def _crowding_penalty(ranked: list[Evidence], config: RetrieverConfig) -> list[Evidence]:
    """Re-rank the best ``crowding_depth`` of ``ranked`` with the page-crowding penalty and put
    them first. The sentences below are not re-scored: the penalty would lift a weak sentence of
    an uncounted page over the counted ones. (With ``max_sentences`` above ``crowding_depth`` the
    final best-first sort can still interleave the two groups.)"""
    depth = config.crowding_depth
    if not config.w_page_crowding or depth <= 0 or not ranked:
        return ranked
    top, rest = ranked[:depth], ranked[depth:]
    per_page = Counter(ev.element.page for ev in top)
    penalty = {p: config.w_page_crowding * n / depth for p, n in per_page.items()}
    # Shifted so that the best sentence keeps the best score: the penalty orders sentences among
    # themselves and must not move them against cells (a one-page index would lose them all).
    shift = top[0].score - max(ev.score - penalty[ev.element.page] for ev in top)
    for ev in top:
        change = shift - penalty[ev.element.page]
        ev.scores["page_crowding"] = change
        ev.score += change
    return sorted(top, key=rank_key) + rest


def _select_cells(
    cell_like: list[Evidence], analysis: ClaimAnalysis, config: RetrieverConfig
) -> list[Evidence]:
    if not cell_like or config.max_cells <= 0:
        return []
    claim_words = set(_WORD_RE.findall(analysis.text.casefold()))
    by_table: dict[tuple[str, int], list[Evidence]] = defaultdict(list)
    others: list[Evidence] = []
    for ev in cell_like:
        el = ev.element
        if el.table is not None:
            by_table[(el.page, el.table)].append(ev)
        else:
            others.append(ev)  # list items
    # Table score: its best element plus a little for every further good one.
    further = config.table_further_cells
    table_scores = {}
    for key, evs in by_table.items():
        scores = sorted((e.score for e in evs), reverse=True)
        table_scores[key] = scores[0] + config.table_further_weight * sum(scores[1 : 1 + further])
    top_tables = sorted(table_scores, key=lambda k: (-table_scores[k], k))[: config.max_tables]
    chosen: list[Evidence] = list(others)
    for rank, key in enumerate(top_tables):
        for ev in by_table[key]:
            matches = match_count(ev, analysis, claim_words, config.cell_min_chars)
            bonus = config.cell_match_bonus * matches
            if bonus:
                ev.scores["cell_match"] = bonus
                ev.score += bonus
            ev.scores["table_rank"] = float(rank + 1)
            chosen.append(ev)
    chosen.sort(key=rank_key)
    return chosen[: config.max_cells]
