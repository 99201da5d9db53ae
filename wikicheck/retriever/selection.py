"""Which retrieved items the official scorer gets (``predicted_evidence``): the ones that bear on
the claim, not everything the verifier reads.

The verifier reads every retrieved item (5 sentences and up to 25 cells); the official FEVEROUS
scorer counts a predicted item as right only if a gold evidence set holds it, and a claim as
covered only if some whole gold set is predicted. Handing it everything buys coverage at the
price of precision: most of the 25 cells and the sentences of pages the claim barely touches are
noise. The selection (``RetrieverConfig.evidence_selection = "relevance"``) keeps:

1. **The leading kind.** Sentences and cell-like items (cells, header cells, captions, list
   items) are scored on one scale. When one kind's best item trails the other kind's best by
   more than ``evidence_kind_margin``, the claim is answered by the other kind and the trailing
   kind is left out: a sentence claim's distractor table goes, a table claim's stray sentences
   go. When both are close, both stay (claims that need a sentence and a table).
2. **Every sentence of the best sentence's page** (a claim's gold sentences sit mostly on one
   page, several of them often far below the best in score).
3. **A sentence of another page** only when it scores within ``evidence_page_gap`` of the best
   sentence, or within ``evidence_named_page_gap`` when the claim mentions that page
   (:func:`wikicheck.common.text.names_title` with ``anywhere``: "... glossy ibis (Plegadis falcinellus) ..."
   brings the lead of *Glossy ibis*, often part of a gold set as far as 0.8 below the best
   sentence).
4. Cell-like items of the leading kind all stay (their own selection, ``cells.select_evidence``,
   already ranked tables and matched cells to the claim).

Why these rules and numbers: measured with ``bench/bench_evidence_cut.py`` on the training side
of the FEVEROUS-S recipe (``recipes/feverous-s.toml`` [holdout]; thresholds chosen on 600
claims, checked on the other 567), official evidence precision and full-evidence coverage against
everything retrieved, in the same run; ``docs/retrieval.md`` has the figures. Entry point:
:func:`select_predicted`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wikicheck.common.text import names_title

__all__ = ["Item", "SelectionRule", "select_predicted"]


@dataclass(frozen=True, slots=True)
class Item:
    """What the selection reads of one retrieved item."""

    id: str
    type: str
    page: str
    score: float


@dataclass(frozen=True, slots=True)
class SelectionRule:
    """The thresholds of :func:`select_predicted` (``RetrieverConfig.evidence_*``)."""

    kind_margin: float = 0.3
    page_gap: float = 0.5
    named_page_gap: float = 0.85


def select_predicted(items: Sequence[Item], claim: str, rule: SelectionRule) -> list[str]:
    """The ids of ``items`` (best first) that go to ``predicted_evidence``, in their order.

    See the module docstring for the rules.
    """
    sentences = [x for x in items if x.type == "sentence"]
    cell_like = [x for x in items if x.type != "sentence"]
    best_sentence = max((x.score for x in sentences), default=None)
    best_cell = max((x.score for x in cell_like), default=None)
    keep_sentences = keep_cells = True
    if best_sentence is not None and best_cell is not None:
        keep_cells = best_cell >= best_sentence - rule.kind_margin
        keep_sentences = best_sentence >= best_cell - rule.kind_margin
    keep: set[str] = set()
    if keep_sentences and sentences:
        top = max(sentences, key=lambda x: x.score)
        named: dict[str, bool] = {}
        for x in sentences:
            if x.page == top.page:
                keep.add(x.id)
                continue
            if x.page not in named:
                named[x.page] = names_title(claim, x.page, anywhere=True)
            gap = rule.named_page_gap if named[x.page] else rule.page_gap
            if top.score - x.score <= gap:
                keep.add(x.id)
    if keep_cells:
        keep.update(x.id for x in cell_like)
    return [x.id for x in items if x.id in keep]
