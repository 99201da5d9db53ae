"""Recall@k for pages, sentences, tables and cells: how well a ranking reaches the gold evidence.

Used by :mod:`wikicheck.scoring.feverous` (``recall_at_k`` in ``wikicheck score --json``). The official
scorer only sees the truncated prediction; these figures read the whole ranked list.
"""

from __future__ import annotations

from collections.abc import Sequence

from wikicheck.annotations import Claim, Prediction
from wikicheck.common.text import distinct
from wikicheck.errors import IdError
from wikicheck.ids import parse_id, table_id

__all__ = ["K_VALUES", "RECALL_KINDS", "recall_at_k"]

RECALL_KINDS = ("pages", "sentences", "tables", "cells")
#: Cut-offs for ``recall_at_k``.
K_VALUES = (1, 3, 5, 10, 25)


def _kinds(element_id: str) -> tuple[str | None, str | None, str | None]:
    """``(page, table key, kind)`` of an id for recall@k; kind is sentences/cells/None."""
    try:
        p = parse_id(element_id)
    except IdError:
        return None, None, None
    table = None
    if p.type in ("cell", "header_cell", "table_caption", "table"):
        table = table_id(p.page, p.numbers[0])
    kind = {"sentence": "sentences", "cell": "cells", "header_cell": "cells"}.get(p.type)
    return p.page, table, kind


def recall_at_k(claim: Claim, pred: Prediction, k_values: Sequence[int]) -> dict[str, list]:
    """Per-kind recall@k values for one claim; a kind is absent when the claim has no such gold.

    * pages / tables: 1.0 when any gold page / table (from the gold ids, plus the claim's
      ``gold_tables`` for table-level gold) is among the first k distinct predicted ones;
    * sentences / cells (cells include header cells): the best gold set's share of its
      sentences / cells found among the first k distinct predicted ones.

    The full predicted list is used (not the scorer's truncated one), so rankings longer than
    the 5/25 budget still show their recall at 10 and 25.
    """
    info = [(e, *_kinds(e)) for e in pred.predicted_evidence]  # (id, page, table, kind)
    ranked = {
        "pages": distinct(i[1] for i in info),
        "tables": distinct(i[2] for i in info),
        "sentences": distinct(i[0] for i in info if i[3] == "sentences"),
        "cells": distinct(i[0] for i in info if i[3] == "cells"),
    }
    gold_pages: set[str] = set()
    gold_tables: set[str] = set()
    gold_sets: dict[str, list[set[str]]] = {"sentences": [], "cells": []}
    for s in claim.evidence:
        per_kind: dict[str, set[str]] = {"sentences": set(), "cells": set()}
        for element_id in s.content:
            page, table, kind = _kinds(element_id)
            if page is not None:
                gold_pages.add(page)
            if table is not None:
                gold_tables.add(table)
            if kind is not None:
                per_kind[kind].add(element_id)
        for kind, ids in per_kind.items():
            if ids:
                gold_sets[kind].append(ids)
    # Table-level gold (TabFact-style ``gold_tables``: ``{page}_table_{t}`` or any id inside the
    # table) names both a gold table and a gold page.
    extra_tables = claim.extra.get("gold_tables")
    for x in extra_tables if isinstance(extra_tables, list) else ():
        page, table, _ = _kinds(x) if isinstance(x, str) else (None, None, None)
        if table is not None:
            gold_tables.add(table)
            gold_pages.add(page)
    out: dict[str, list] = {}
    for kind, gold in (("pages", gold_pages), ("tables", gold_tables)):
        if gold:
            out[kind] = [float(any(x in gold for x in ranked[kind][:k])) for k in k_values]
    for kind, sets in gold_sets.items():
        if sets:
            out[kind] = [
                max(len(s & set(ranked[kind][:k])) / len(s) for s in sets) for k in k_values
            ]
    return out
