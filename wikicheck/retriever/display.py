"""The evidence a person is shown: cut where relevance drops, never padded to a fixed count.

The official scorer wants recall (up to 5 sentences and 25 cells, ``predicted_evidence``); a
person wants the few items that bear on the claim. Shown are the items scoring at least
:data:`RELEVANCE_SHARE` of the best item's score, best first, at most :data:`MAX_SHOWN`; header
cells are never shown alone (the cells they head show them as their headers,
:mod:`wikicheck.retriever.values`). The CLI ``verify`` panel uses :func:`shown`; the API's ``/verify``
gives its ids as ``shown_evidence``, which the web page shows first (the rest behind "Show all"). Items without a score (gold evidence in the oracle setting) are shown
in their order, at most :data:`MAX_SHOWN`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["MAX_SHOWN", "RELEVANCE_SHARE", "shown"]

T = TypeVar("T")

#: The share of the best retrieval score an item needs to be shown. Fused scores of the items
#: that state the claim's fact sit close to the best one; the long tail (other rows of a
#: table, sentences sharing a word) falls well below three quarters of it.
RELEVANCE_SHARE = 0.75

#: Items shown at most (the rest stay in ``--json`` and ``predicted_evidence``).
MAX_SHOWN = 8


def shown(
    items: Sequence[T],
    score: Callable[[T], float | None],
    kind: Callable[[T], str],
    *,
    share: float = RELEVANCE_SHARE,
    limit: int = MAX_SHOWN,
) -> list[T]:
    """The items of ``items`` (best first) a person is shown; see the module docstring."""
    candidates = [x for x in items if kind(x) != "header_cell"]
    scores = [score(x) for x in candidates]
    if not candidates:
        return []
    if any(s is None for s in scores):
        return candidates[:limit]
    best = max(scores)  # type: ignore[type-var]
    if best <= 0:
        return candidates[:limit]
    keep = [x for x, s in zip(candidates, scores) if s >= share * best]  # type: ignore[operator]
    return keep[:limit]
